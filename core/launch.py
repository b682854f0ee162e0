"""``spanscope app`` / ``python -m core app``: start the dashboard on the bundled sample data.

The dashboard is a Streamlit script (``app.py`` beside ``pages/``, ``ui/`` and ``sample_data/``),
so it is started as ``python -m streamlit run app.py`` in a process of its own; ``core`` itself
never imports streamlit. Where ``app.py`` is:

* in a checkout (also after ``pip install -e .``): the folder that holds ``core/``;
* after ``pip install .``: the installed package ``spanscope_dashboard``, which holds ``app.py``,
  ``pages/``, ``sample_data/`` and ``.streamlit/config.toml`` (the wheel maps it to the
  repository's root, see ``setup.py``).

Streamlit runs in that folder, so the project's ``.streamlit/config.toml`` applies, and
``SPANSCOPE_DATA_DIR`` points the app at the bundled ``sample_data/`` unless it is set already.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from core.errors import SpanScopeError

DASHBOARD_PACKAGE = "spanscope_dashboard"
"""The installed package that holds the dashboard's files after ``pip install .``."""


def _is_dashboard(folder: Path) -> bool:
    return (folder / "app.py").is_file() and (folder / "pages").is_dir()


def dashboard_root() -> Path:
    """The folder that holds ``app.py``, ``pages/`` and ``sample_data/``.

    A checkout wins over an installed copy, so that ``python -m core app`` in a checkout shows
    that checkout's dashboard. Raises :class:`~core.errors.SpanScopeError` when neither exists.
    """
    checkout = Path(__file__).resolve().parent.parent
    if _is_dashboard(checkout):
        return checkout
    spec = importlib.util.find_spec(DASHBOARD_PACKAGE)
    for location in (spec.submodule_search_locations or []) if spec else []:
        if _is_dashboard(Path(location)):
            return Path(location)
    raise SpanScopeError(f"the dashboard's app.py was found neither beside {checkout / 'core'} "
                         f"nor in an installed {DASHBOARD_PACKAGE!r} package; reinstall SpanScope")


def app_command(streamlit_args: Sequence[str], root: Path) -> list[str]:
    """``python -m streamlit run <root>/app.py [streamlit_args...]``."""
    return [sys.executable, "-m", "streamlit", "run", str(root / "app.py"), *streamlit_args]


def app_environment(root: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``environ`` (default: this process's) with ``SPANSCOPE_DATA_DIR`` defaulting to the
    bundled ``sample_data/``."""
    env = dict(os.environ if environ is None else environ)
    env.setdefault("SPANSCOPE_DATA_DIR", str(root / "sample_data"))
    return env


def run_app(streamlit_args: Sequence[str]) -> int:
    """Start the dashboard; return streamlit's exit status.

    On POSIX the process *becomes* streamlit (``exec``), so a signal sent to ``spanscope app``
    (Ctrl-C, ``kill PID``) reaches the server itself and leaves no orphan behind.
    """
    root = dashboard_root()
    cmd = app_command(streamlit_args, root)
    env = app_environment(root)
    os.chdir(root)
    if os.name == "posix":  # pragma: no cover - replaces the process; tested through the CLI
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, cmd, env)
    return subprocess.call(cmd, env=env)
