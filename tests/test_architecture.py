"""Layering rules: ``core/`` is pure computation (no streamlit, no plotly)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"streamlit", "plotly"}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_core_never_imports_streamlit_or_plotly() -> None:
    offenders = {
        str(p.relative_to(ROOT)): sorted(_imported_roots(p) & FORBIDDEN)
        for p in sorted((ROOT / "core").rglob("*.py"))
        if _imported_roots(p) & FORBIDDEN
    }
    assert offenders == {}
