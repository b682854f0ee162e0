"""The installable package: ``pip install .`` gives a ``spanscope`` command that is
``python -m core``, and ``spanscope app`` serves the dashboard on the bundled sample data.

The slow test installs a copy of this checkout into a fresh virtual environment (that sees the
site-packages of the environment running the tests, usually the checkout's ``.venv``, so the
pinned wheels are not downloaded again; the project itself is built and installed with
``--no-deps --no-build-isolation``) and runs everything from an empty folder, so that what runs
is the installed package, never this checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import launch
from tests.servers import running

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
SCORE_RUNS = [
    ("propaganda/gold.json", "propaganda/system_a.json", "--metric", "martino"),
    ("propaganda/gold.json", "propaganda/system_b.json", "--metric", "martino", "--variant",
     "nlp4if2019", "--merge-pred", "--per-document"),
    ("mafalda/gold.jsonl", "mafalda/system_a.jsonl", "--metric", "mafalda", "--level", "1"),
]
IGNORE = shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__", ".*_cache",
                                ".hypothesis", ".benchmarks", "test-artifacts", ".venv")


def _env() -> dict[str, str]:
    """This environment without anything that would make Python find the checkout."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "SPANSCOPE_DATA_DIR", "PYTHONSAFEPATH")}


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=600)


# ---- the launcher, in this checkout ---------------------------------------------------------


def test_the_checkout_is_the_dashboard_root() -> None:
    assert launch.dashboard_root() == ROOT


def test_app_runs_streamlit_on_app_py_with_the_arguments_given() -> None:
    cmd = launch.app_command(["--server.port", "8600"], ROOT)
    assert cmd == [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
                   "--server.port", "8600"]


def test_app_with_data_runs_streamlit_through_the_early_reader() -> None:
    """With ``--data`` files, ``python -m ui.serve run``: Streamlit's command line, with the
    files read as the server starts (tests/app/test_cli_read_early.py)."""
    cmd = launch.app_command(["--server.port", "8600"], ROOT, read_early=True)
    assert cmd == [sys.executable, "-m", "ui.serve", "run", str(ROOT / "app.py"),
                   "--server.port", "8600"]
    assert (ROOT / "ui" / "serve.py").is_file()


def test_app_points_the_dashboard_at_the_bundled_samples_unless_told_otherwise() -> None:
    assert launch.app_environment(ROOT, {"HOME": "/h"}) == {
        "HOME": "/h", "SPANSCOPE_DATA_DIR": str(ROOT / "sample_data")}
    assert launch.app_environment(ROOT, {"SPANSCOPE_DATA_DIR": "/mine"}) == {
        "SPANSCOPE_DATA_DIR": "/mine"}


def test_python_m_core_app_hands_its_arguments_to_streamlit_run() -> None:
    proc = _run([sys.executable, "-m", "core", "app", "--help"], ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "streamlit run" in proc.stdout and "--server.port" in proc.stdout


def test_app_is_listed_in_the_command_line_help() -> None:
    proc = _run([sys.executable, "-m", "core", "--help"], ROOT)
    assert proc.returncode == 0 and "start the dashboard" in proc.stdout


# ---- a fresh virtual environment ------------------------------------------------------------


def _see_these_packages(py: Path) -> None:
    """Let the environment of ``py`` import the packages of the one running the tests.

    ``venv --system-site-packages`` would show the base interpreter's packages, which are not
    these when the tests run in a virtual environment themselves (``scripts/test.sh`` makes
    ``.venv``). A ``.pth`` file of plain paths adds the directories without running their own
    ``.pth`` files, so the checkout's editable install stays out of the new environment.
    """
    found = subprocess.run([str(py), "-c", "import site; print(site.getsitepackages()[0])"],
                           capture_output=True, text=True, check=True).stdout.strip()
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(found) / "_tested_environment.pth").write_text("\n".join(ours) + "\n")



@pytest.mark.slow
def test_pip_install_gives_spanscope_score_and_app(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=IGNORE)
    venv = tmp_path / "venv"
    assert _run([sys.executable, "-m", "venv", str(venv)], tmp_path).returncode == 0
    py, spanscope = venv / "bin" / "python", venv / "bin" / "spanscope"
    _see_these_packages(py)
    proc = _run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                 str(src)], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shutil.rmtree(src)  # nothing can be read from the copy any more
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()

    where = _run([str(py), "-c", "import core, ui; from core.cli.launch import dashboard_root; "
                  "print(core.__file__, ui.__file__, dashboard_root(), sep='\\n')"], cwd)
    assert where.returncode == 0, where.stderr
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    assert [Path(p) for p in where.stdout.split()] == [
        site / "core" / "__init__.py", site / "ui" / "__init__.py", site / "spanscope_dashboard"]
    assert (site / "core" / "py.typed").is_file()  # mypy reads the installed hints (PEP 561)

    for gold, pred, *options in SCORE_RUNS:
        args = ["score", str(SAMPLE / gold), str(SAMPLE / pred), *options, "--json"]
        installed = _run([str(spanscope), *args], cwd)
        checkout = _run([sys.executable, "-m", "core", *args], ROOT)
        assert installed.returncode == checkout.returncode == 0, installed.stderr
        assert json.loads(installed.stdout) == json.loads(checkout.stdout)
    bad = _run([str(spanscope), "score", "nowhere.json", "nowhere.json", "--metric", "martino"],
               cwd)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "nowhere.json" in bad.stderr

    with running([str(spanscope), "app"], cwd=cwd, env=dict(_env(), HOME=str(tmp_path))):
        pass  # healthy: the installed command started the dashboard


def test_the_package_data_marks_core_as_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    # PEP 561: without core/py.typed in the wheel, mypy ignores the installed package's hints
    # ("missing library stubs or py.typed marker"); the slow install test finds it installed
    from distutils.core import run_setup  # setuptools' own copy of distutils

    from setuptools.command.build_py import build_py

    monkeypatch.chdir(ROOT)
    builder = build_py(run_setup(str(ROOT / "setup.py"), stop_after="init"))
    builder.finalize_options()
    files = {f"{package}/{name}" for package, _, _, names in builder.data_files
             for name in names}  # the package data the wheel is built with
    assert "core/py.typed" in files and (ROOT / "core" / "py.typed").is_file()
