"""``python -m ui.serve run app.py [ARGS]``: ``streamlit run`` that reads the ``--data`` files
as the server starts.

``spanscope app --data`` (:mod:`core.cli.launch`) runs this module instead of ``python -m
streamlit``: the same command line of Streamlit (its ``main``, in this process), plus a thread
(:func:`early`) that, once the server has started, reads the files named in ``SPANSCOPE_DATA``
into the pages' cache (:func:`ui.cli_data.read_early`) and meanwhile imports the modules every
page's run imports first (``app.py``'s own). The browser's first request then finds them read,
or being read, instead of starting the read: at 100,000 documents reading takes about 1.5 s of
CPU and the first run's imports 0.4 s, while the browser loads the page and connects
(docs/performance.md, issue 29, sixth pass). One read either way (Streamlit's caches compute a
key once; :func:`ui.cli_data.read_count`). Once the files are read, the same thread starts the
background worker and sends it the sets of its first job (:func:`ui.ahead.early`), which then
overlap the first page's run rather than follow it (issue 29, tenth pass).

A reader *process*, forked before the server starts, was tried and left out: it takes the read
off the server's process, but on the shared machine of the measurements its own start (0.5 s
of CPU more in all) delayed the server's, and the first draw came no sooner (the same
section).

Nothing of ``ui`` but this module and :mod:`ui.memory` is imported before Streamlit's own
command line: ``ui``'s caches are declared once a runtime holds them.

Before that command line, :func:`ui.memory.lean_memory` sets how the process gets its memory:
numpy's large arrays without transparent huge pages, and the C allocator keeping what it frees
for the next arrays. Reading a corpus and scoring it make many fresh arrays of megabytes; with huge
pages asked for (numpy's default) each of them costs the kernel a compaction and a 2 MiB
clearing at its first touch, and handed back to the system at once, the next one costs the
same. At 100,000 documents that was a third of the first MAFALDA score's CPU, in system time
(docs/performance.md, issue 29, eleventh pass).
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
import threading
import time
from pathlib import Path

from ui.memory import lean_memory

DATA_ENV = "SPANSCOPE_DATA"  # ui.cli_data.DATA_ENV, not imported before the server starts
RUNTIME_WAIT_S = 30.0
"""How long the thread waits for Streamlit's server to start before reading anyway."""
EARLY_THREAD = "spanscope-serve-early"
def _server_started(timeout: float) -> bool:
    """Whether Streamlit's runtime has started (the server is about to take requests) within
    ``timeout`` seconds, polled every 10 ms: what :func:`early` does in this process waits
    for it, so that the server answers, and the browser loads the page, first."""
    from streamlit import runtime
    from streamlit.runtime.runtime import Runtime, RuntimeState

    deadline = time.monotonic() + timeout
    while not runtime.exists() or Runtime.instance().state == RuntimeState.INITIAL:
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


def ahead(ws: object) -> None:
    """What the reader's thread does once the files are read: :func:`ui.ahead.early` (the
    background worker started, and sent the sets of its first job, while the first page is
    drawn)."""
    from ui import ahead as pages_ahead
    from ui.state import Workspace

    pages_ahead.early(ws if isinstance(ws, Workspace) else None)


def early(script: Path | None, timeout: float = RUNTIME_WAIT_S) -> None:
    """Once the server has started, read the ``--data`` files into the pages' cache in a
    thread of their own (:func:`ui.cli_data.read_early`), which then starts the background
    worker and sends it the sets of its first job (:func:`ahead`), and meanwhile import the ``ui``
    modules of ``script`` (:func:`ui_modules`: about 0.4 s of CPU, pandas and plotly among
    them, that the first page's run would otherwise spend)."""
    _server_started(timeout)
    from ui import cli_data

    reader = cli_data.read_early(then=ahead)
    if reader is None:
        return
    # after the reader's fork (ui.cli_data.read_reports): a copy forked while this thread
    # imports would find the modules being imported locked for ever
    cli_data.forked.wait(timeout)
    for name in ui_modules(script) if script is not None else []:
        try:
            importlib.import_module(name)
        except Exception:  # the page that imports it reports it
            break
    reader.join()


def skip_direct_run_check() -> bool:
    """Mark Streamlit's warning about a script run without ``streamlit run`` as given, before
    the server starts; True when Streamlit has that check (its first element of the process
    otherwise runs it, in the first page's run).

    The check (``streamlit.delta_generator._maybe_print_use_warning``, once per process) warns
    only in a REPL or without a runtime; this module is ``streamlit run``, so it never warns
    here, but it finds out with ``inspect.stack()``, which reads the source of every frame of
    the run's stack and indexes every module loaded: 0.05-0.08 s of the first page's run at
    100,000 documents, the one in which the user waits for the first draw (docs/performance.md,
    issue 29, thirteenth pass). A Streamlit without the flag keeps its check."""
    from streamlit import delta_generator

    if not hasattr(delta_generator, "_use_warning_has_been_displayed"):
        return False
    delta_generator._use_warning_has_been_displayed = True
    return True


def main() -> None:
    """Streamlit's command line (``sys.argv``: ``run app.py ...``), with :func:`early` in a
    thread when the app was started with ``--data``; :func:`lean_memory` first (numpy is
    imported with Streamlit), and Streamlit's check for a run outside ``streamlit run``
    skipped (:func:`skip_direct_run_check`)."""
    lean_memory()
    from streamlit.web import cli

    skip_direct_run_check()

    if os.environ.get(DATA_ENV):
        argv = sys.argv[1:]
        script = Path(argv[1]) if len(argv) > 1 and argv[0] == "run" else None
        threading.Thread(target=early, args=(script,), name=EARLY_THREAD,
                         daemon=True).start()
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
