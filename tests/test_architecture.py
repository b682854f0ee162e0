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


METRIC_MODULES = sorted((ROOT / "core" / "metrics").rglob("*.py"))


def test_metric_modules_are_pure_no_argparse_no_file_loading_no_cli() -> None:
    offenders = {}
    for path in METRIC_MODULES:
        text = path.read_text(encoding="utf-8")
        roots = _imported_roots(path)
        modules = {n.module for n in ast.walk(ast.parse(text))
                   if isinstance(n, ast.ImportFrom) and n.module}
        bad = sorted(roots & {"argparse"})
        bad += sorted(m for m in modules if m.startswith("core.cli"))
        bad += [w for w in ("load_path(", "def cli_score", "def cli_explain", "def cli_agree")
                if w in text]
        if bad:
            offenders[str(path.relative_to(ROOT))] = bad
    assert offenders == {}


def test_only_the_entry_point_imports_the_command_line() -> None:
    users = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        if path.parent.name == "cli" or path.name == "__main__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("core.cli"):
                users.append(str(path.relative_to(ROOT)))
    assert users == []


# The Learn and Metric differences pages are about the two papers' span metrics by design, and
# ui/hateval.py lays out the HatEval tasks' own tables (text-level metrics, not span metrics).
ABOUT_TWO_METRICS = {"ui/learn.py", "ui/learn_tables.py", "pages/learn.py", "ui/differences.py",
                     "pages/differences.py",
                     "ui/hateval.py"}


def test_dashboard_has_no_per_metric_dispatch() -> None:
    """No ``if metric == "martino"`` in ui/ or pages/: they iterate core.metrics.registry."""
    from core.metrics import registry

    names = set(registry.names())
    offenders = []
    for path in sorted([*(ROOT / "ui").glob("*.py"), *(ROOT / "pages").glob("*.py")]):
        rel = str(path.relative_to(ROOT))
        if rel in ABOUT_TWO_METRICS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                    isinstance(c, ast.Constant) and c.value in names
                    for c in [node.left, *node.comparators]):
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []


def test_session_state_module_stays_small_and_jobs_use_no_private_python() -> None:
    state = (ROOT / "ui" / "state.py").read_text(encoding="utf-8")
    assert len(state.splitlines()) < 500
    for path in sorted((ROOT / "ui").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "_register_atexit" not in text, path
        assert 'sys.modules["__main__"]' not in text, path


def test_core_keeps_no_context_state_and_argparse_stays_in_the_command_line() -> None:
    """Options are arguments (issue 25, §3): no ``contextvars`` in core/, so a reader reads only
    its ``ReadOptions``; argparse is imported only by the command line, core/cli/."""
    offenders = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        rel = path.relative_to(ROOT)
        roots = _imported_roots(path)
        if "contextvars" in roots:
            offenders.append(f"{rel}: contextvars")
        if "argparse" in roots and rel.parts[:2] != ("core", "cli"):
            offenders.append(f"{rel}: argparse")
    assert offenders == []


# Learn's scenarios and exercises are about the two papers' span metrics by design, and the command
# line's text renderers lay out each metric's own result (render_hateval: tasks A and B).
CORE_ABOUT_METRICS = {"core/teaching/scenarios.py", "core/teaching/exercises.py",
                      "core/cli/render.py"}


def _names_compared(node: ast.Compare, names: set[str]) -> bool:
    for side in [node.left, *node.comparators]:
        values = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
        if any(isinstance(v, ast.Constant) and v.value in names for v in values):
            return True
    return False


def test_core_has_no_per_metric_dispatch_outside_the_metrics() -> None:
    """No ``if metric == "martino"`` in core/ outside core/metrics/ (the metric modules and the
    registry): the Dask engine, slices, the bootstrap and the report use a metric's additive
    statistics (core.metrics.additive) through its registry entry."""
    from core.metrics import registry

    names = set(registry.names())
    offenders = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        if rel.startswith("core/metrics/") or rel in CORE_ABOUT_METRICS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and _names_compared(node, names):
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []


# ---- the architecture as a whole (issue 25, "Evidence") ---------------------------------------

MAX_COMPLEXITY = 30
"""No function in core/ above this cyclomatic complexity (radon's measure, McCabe 1976)."""


def _cycles(graph: object, modules: set[str]) -> list[list[str]]:
    """The import cycles among ``modules``: strongly connected components of more than one
    module (Tarjan 1972), function-level imports included."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):  # type: ignore[attr-defined]
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_in_core_or_ui() -> None:
    """Each package and module depends on the ones below it only (docs/architecture.md): no
    module imports, even inside a function, a module that imports it back."""
    import grimp

    graph = grimp.build_graph("core", "ui", include_external_packages=False)
    assert _cycles(graph, set(graph.modules)) == []


def test_no_function_in_core_above_the_complexity_bound() -> None:
    from radon.complexity import cc_visit

    offenders = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if block.complexity > MAX_COMPLEXITY and block.letter != "C":
                offenders.append(f"{path.relative_to(ROOT)}:{block.lineno} {block.name} "
                                 f"{block.complexity}")
    assert offenders == []


def test_core_packages_are_the_documented_ones() -> None:
    """core/ holds packages and the entry modules only, each package described in
    docs/architecture.md."""
    loose = sorted(p.name for p in (ROOT / "core").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "plugins.py"]
    packages = sorted(p.name for p in (ROOT / "core").iterdir()
                      if (p / "__init__.py").is_file())
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert [p for p in packages if f"`core/{p}/`" not in doc] == []


def test_readme_docs_and_app_agree_on_the_pages() -> None:
    """The pages app.py serves are the ones README.md and docs/dashboard.md describe."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    pages = next(ast.literal_eval(node.value) for node in ast.walk(tree)
                 if isinstance(node, ast.Assign)
                 and any(getattr(t, "id", None) == "PAGES" for t in node.targets))
    titles = [title for _, title, _, _ in pages]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    dashboard = (ROOT / "docs" / "dashboard.md").read_text(encoding="utf-8")
    assert [t for t in titles if f"**{t}**" not in readme] == []
    assert [t for _, t, icon, _ in pages if f"**{icon} {t}.**" not in dashboard] == []
    words = {8: "Eight", 9: "Nine", 10: "Ten", 11: "Eleven", 12: "Twelve"}
    count = f"{words[len(titles)]} pages"
    assert f"{count}:" in readme
    assert f"{count}, in the sidebar's order: {', '.join(titles)}." in " ".join(
        dashboard.split())
    assert "Ten pages" in readme and len(titles) == 10
