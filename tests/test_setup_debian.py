"""The README's two set-up commands on a stock Debian 12, in a fresh copy of the checkout.

Debian's own ``/usr/bin/python3`` refuses ``pip install`` into itself (PEP 668,
"externally-managed-environment"), so both commands make a virtual environment ``.venv`` in the
checkout. This test runs them with ``/usr/bin/python3`` first on PATH, whatever Python the suite
itself runs with: ``scripts/run-app.sh`` must serve the dashboard (``/_stcore/health``), the
environment it made must run ``python -m core score`` and ``spanscope``, and
``scripts/test.sh`` must install the test tools into the same environment and run a test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.servers import running

ROOT = Path(__file__).resolve().parents[1]
DEBIAN_PYTHON = Path("/usr/bin/python3")


def _fresh_copy(dest: Path) -> Path:
    """The files a clone of this checkout would hold (tracked, and new files git does not
    ignore), copied from the working tree so that uncommitted changes are tested too."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():  # a tracked file deleted in the working tree is not in a clone
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def _debian_env() -> dict[str, str]:
    """This environment with Debian's interpreter first on PATH and no trace of another
    virtual environment or of this checkout."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "SPANSCOPE_DATA_DIR",
                        "PIP_REQUIRE_VIRTUALENV", "PYTEST_ADDOPTS")
           and not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT"))}
    env["PATH"] = "/usr/bin:/bin:" + env.get("PATH", "")
    return env


@pytest.mark.slow
def test_the_readme_set_up_commands_work_with_debians_own_python(tmp_path: Path) -> None:
    assert DEBIAN_PYTHON.is_file(), "Debian's /usr/bin/python3 is missing on this machine"
    clone = _fresh_copy(tmp_path / "clone")
    env = _debian_env()
    assert shutil.which("python3", path=env["PATH"]) == str(DEBIAN_PYTHON)

    # 1. bash scripts/run-app.sh: installs into .venv, then serves the sample dashboard.
    with running(["bash", "scripts/run-app.sh"], cwd=clone, env=env, timeout=1200) as server:
        assert server.process.poll() is None
    venv_cfg = (clone / ".venv" / "pyvenv.cfg").read_text()
    assert "home = /usr/bin" in venv_cfg, venv_cfg

    # The environment holds the project: `python -m core` and `spanscope` come from it.
    python = clone / ".venv" / "bin" / "python"
    proc = subprocess.run(
        [str(python), "-m", "core", "score", "sample_data/propaganda/gold.json",
         "sample_data/propaganda/system_a.json", "--metric", "martino", "--json"],
        cwd=clone, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert 0 < json.loads(proc.stdout)["f1"] < 1
    proc = subprocess.run([str(clone / ".venv" / "bin" / "spanscope"), "validate",
                           "sample_data/formats/ptc_gold"],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr

    # 2. bash scripts/test.sh: the same environment gains the test tools and runs pytest (on
    # one test file of a second's work: the suite runs them all; test_architecture.py, which
    # this ran before, took 6.6 s of CPU time here for nothing this test asserts).
    proc = subprocess.run(
        ["bash", "scripts/test.sh", "-n", "0", "-q", "tests/test_venv_script.py"],
        cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert " passed" in proc.stdout
    assert (clone / ".venv" / ".installed-requirements-dev.txt").is_file()


def test_the_readme_says_how_to_start_the_dashboard_on_another_port() -> None:
    """Tour 16: the set-up section named port 8501 only; a newcomer whose 8501 was taken had
    to read on to learn that the script's arguments go to ``streamlit run``. The README shows
    the option, and the script hands its arguments on."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up", 1)[1].split("```bash", 1)[0]
    assert "`bash scripts/run-app.sh --server.port 8600`" in setup
    script = (ROOT / "scripts" / "run-app.sh").read_text(encoding="utf-8")
    assert script.rstrip().endswith('exec python -m streamlit run app.py "$@"')
