"""``ruff check`` over the project and ``mypy`` (core, ui, pages, app.py and scripts:
pyproject) must be clean."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_check_is_clean() -> None:
    proc = _run(sys.executable, "-m", "ruff", "check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean_on_core_ui_pages_app_and_scripts() -> None:
    proc = _run(sys.executable, "-m", "mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr
