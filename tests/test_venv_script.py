"""``scripts/venv.sh`` (sourced by the README's two set-up commands): what a newcomer sees while
it installs. A fake ``.venv/bin/python`` stands in for the interpreter, so the test installs
nothing and runs in a second; the real install is ``tests/test_setup_debian.py``'s."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _checkout(tmp: Path) -> Path:
    """A folder with the files venv.sh hashes and a fake ``.venv`` whose python logs its calls."""
    for name in ("requirements.txt", "requirements-dev.txt", "pyproject.toml", "setup.py"):
        shutil.copy2(ROOT / name, tmp / name)
    (tmp / "scripts").mkdir()
    shutil.copy2(ROOT / "scripts" / "venv.sh", tmp / "scripts" / "venv.sh")
    python = tmp / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "$@" >> "$(dirname "$0")/calls.log"\n')
    python.chmod(0o755)
    return tmp


def _ensure(tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", "source scripts/venv.sh && ensure_venv requirements.txt"],
                          cwd=tmp, capture_output=True, text=True, timeout=60, check=True)


def test_a_first_install_says_what_the_wait_is_for_and_a_second_run_is_silent(
        tmp_path: Path) -> None:
    """Tour 16: pip runs with -q, so the first `bash scripts/run-app.sh` printed nothing of
    its own for the minutes the install took (only pip's own warnings, if any)."""
    tmp = _checkout(tmp_path)
    first = _ensure(tmp)
    assert "installing requirements.txt into .venv (a few minutes the first time" in first.stderr
    calls = (tmp / ".venv" / "bin" / "calls.log").read_text()
    assert "-m pip install -q --disable-pip-version-check -r requirements.txt" in calls
    again = _ensure(tmp)  # the stamp matches: nothing installed, nothing said
    assert "installing" not in again.stderr
    assert (tmp / ".venv" / "bin" / "calls.log").read_text().count("install") == \
        calls.count("install")
