"""``python -m ui.serve run app.py [ARGS]``: ``streamlit run`` that reads ``--data`` files as the
server starts.

``spanscope app --data`` (:mod:`core.cli.launch`) runs this module instead of ``python -m
streamlit``: the same command line of Streamlit (its ``main``, in this process), plus a thread
that reads the files named in ``SPANSCOPE_DATA`` (:func:`ui.cli_data.read_early`) once the
server's runtime exists, then imports the modules every page's run imports first (``app.py``'s
own). The browser's first request then finds them read, or being read, instead of starting the
read: at 100,000 documents reading takes about 2 s and the first page's imports 0.5 s, while the
server starts and the browser loads the page and connects in about 1 to 2 s
(docs/performance.md, issue 29, sixth pass). One read either way (Streamlit's caches compute a
key once; :func:`ui.cli_data.read_count`).

Nothing of ``ui`` is imported before Streamlit's own command line: the server's start comes
first, and ``ui``'s caches are declared once a runtime holds them.
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
import threading
import time
from pathlib import Path

DATA_ENV = "SPANSCOPE_DATA"  # ui.cli_data.DATA_ENV, not imported before the server starts
RUNTIME_WAIT_S = 30.0
"""How long the thread waits for Streamlit's runtime before reading anyway."""
EARLY_THREAD = "spanscope-serve-early"


def _runtime_started(timeout: float) -> bool:
    """Whether Streamlit's runtime exists within ``timeout`` seconds (polled every 10 ms: it
    is created as the server starts, a fraction of a second after the command line)."""
    from streamlit import runtime

    deadline = time.monotonic() + timeout
    while not runtime.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def ui_modules(script: Path) -> list[str]:
    """The ``ui`` modules that ``script`` (``app.py``, which every page's run runs first)
    imports, in the order found, each once; none when it cannot be read (its own run reports
    it). The pages' own modules are left to the page asked for: beyond what ``app.py``
    imports (pandas, plotly and the modules of the pages computed ahead, ``ui.ahead``) they
    cost little, and the first page needs one of them.

    >>> "ui.ahead" in ui_modules(Path(__file__).resolve().parent.parent / "app.py")
    True
    """
    try:
        tree = ast.parse(script.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []
    found: dict[str, None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "ui":
            found.update(dict.fromkeys(f"ui.{a.name}" for a in node.names))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ui."):
            found[str(node.module)] = None
        elif isinstance(node, ast.Import):
            found.update(dict.fromkeys(a.name for a in node.names if a.name.startswith("ui.")))
    return list(found)


def early(script: Path | None, timeout: float = RUNTIME_WAIT_S) -> None:
    """Read the ``--data`` files into the pages' cache, then import the ``ui`` modules of
    ``script`` (:func:`ui_modules`: about 0.4 s of CPU, pandas and plotly among them, that the
    first page's run would otherwise spend)."""
    _runtime_started(timeout)
    from ui import cli_data

    reader = cli_data.read_early()
    if reader is None:
        return
    reader.join()
    for name in ui_modules(script) if script is not None else []:
        try:
            importlib.import_module(name)
        except Exception:  # the page that imports it reports it
            break


def main() -> None:
    """Streamlit's command line (``sys.argv``: ``run app.py ...``), with :func:`early` in a
    thread when the app was started with ``--data``."""
    from streamlit.web import cli

    if os.environ.get(DATA_ENV):
        argv = sys.argv[1:]
        script = Path(argv[1]) if len(argv) > 1 and argv[0] == "run" else None
        threading.Thread(target=early, args=(script,), name=EARLY_THREAD,
                         daemon=True).start()
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
