"""``spanscope app --data`` reads the files as the server starts (``ui.serve``,
``ui.cli_data.read_early``), before the browser's first request: the pages then find the same
sets, a broken file still reports its error on the Data page, and the files are read once
whichever comes first, the early read or a page (a count of reads, not a clock;
docs/performance.md, issue 29, sixth pass).

Each test copies its files to a folder of its own: the read is cached per server process, keyed
by the files' paths, sizes and modification times, so a fresh path is a fresh read.
"""

from __future__ import annotations

import json
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from core.cli.launch import DATA_ENV
from tests.app.conftest import frame_of
from ui import cli_data, serve, state

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def _files(tmp_path: Path, *names: str) -> list[dict[str, str | None]]:
    out: list[dict[str, str | None]] = []
    for name in names:
        shutil.copy(DATA / name, tmp_path / name)
        out.append({"role": "gold" if name.startswith("gold") else "system",
                    "path": str(tmp_path / name)})
    return out


def _page(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _spans(ws: state.Workspace) -> dict[str, list[tuple[str, int, int, str]]]:
    return {name: [(d, s.start, s.end, s.label) for d in sorted(aset.spans)
                   for s in aset.spans[d]] for name, aset in ws.sets.items()}


def test_without_data_nothing_is_read_early(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_ENV, raising=False)
    assert cli_data.read_early() is None


def test_the_pages_get_the_sets_read_early_and_the_files_are_read_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = _files(tmp_path, "gold.json", "system_b.json")
    monkeypatch.setenv(DATA_ENV, json.dumps(data))
    before = cli_data.read_count()
    reader = cli_data.read_early()
    assert reader is not None and reader.name == cli_data.READ_EARLY_THREAD
    reader.join(60)
    assert cli_data.read_count() == before + 1
    early = cli_data.cli_workspace()
    at = _page("pages/scores.py")
    assert cli_data.read_count() == before + 1  # the page found the early read
    assert at.session_state[state.K_SOURCE] == cli_data.SOURCE
    assert cli_data.cli_workspace() is early
    assert early is not None and [(n, s.role) for n, s in early.sets.items()] == [
        ("gold", "gold"), ("system_b", "system")]
    # the sets a page would read itself: the same spans, set by set
    direct = state.build_workspace(cli_data.read_reports(cli_data.data_args()), key="direct",
                                   title="direct", shareable=True)
    assert _spans(early) == _spans(direct)
    assert "system_b" in frame_of(at, "system", "role")["system"].to_list()  # Scores scores them


def test_a_page_that_asks_while_the_early_read_runs_waits_for_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The browser's first run arrives while the thread reads (the read here waits until the
    page has asked for the files): the page waits for that read and finds it, one read."""
    monkeypatch.setenv(DATA_ENV, json.dumps(_files(tmp_path, "gold.json", "system_a.json")))
    page_asked = threading.Event()
    fingerprint, read_reports = cli_data.fingerprint, cli_data.read_reports

    def asked(args: tuple[cli_data.DataArg, ...]) -> str:
        if threading.current_thread().name != cli_data.READ_EARLY_THREAD:
            page_asked.set()
        return fingerprint(args)

    def slow_read(args: tuple[cli_data.DataArg, ...], *more: Any, **options: Any
                  ) -> list[state.FileReport]:
        assert page_asked.wait(60)
        time.sleep(0.2)  # the page reaches the cache's lock, held by this read
        return read_reports(args, *more, **options)

    monkeypatch.setattr(cli_data, "fingerprint", asked)
    monkeypatch.setattr(cli_data, "read_reports", slow_read)
    before = cli_data.read_count()
    reader = cli_data.read_early()
    assert reader is not None
    at = _page("pages/data.py")
    reader.join(60)
    assert page_asked.is_set() and cli_data.read_count() == before + 1
    ws = cli_data.cli_workspace()
    assert ws is not None and at.metric[0].value == f"{len(ws.corpus.texts):,}"


def test_an_early_read_after_a_page_read_reads_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(DATA_ENV, json.dumps(_files(tmp_path, "gold.json", "system_b.json")))
    before = cli_data.read_count()
    _page("pages/data.py")
    assert cli_data.read_count() == before + 1
    reader = cli_data.read_early()
    assert reader is not None
    reader.join(60)
    assert cli_data.read_count() == before + 1


def test_a_broken_file_read_early_reports_its_error_on_the_data_page(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(DATA_ENV, json.dumps(_files(tmp_path, "gold.json", "broken.json")))
    before = cli_data.read_count()
    reader = cli_data.read_early()
    assert reader is not None
    reader.join(60)
    at = _page("pages/data.py")
    assert cli_data.read_count() == before + 1
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    # file, line and field, as when the page reads it
    assert "broken.json" in errors and "21" in errors and "end" in errors
    assert "greater than start (5)" in errors
    ws = cli_data.cli_workspace()
    assert ws is not None and list(ws.sets) == ["gold"]  # the other file still loads


def test_serve_reads_then_imports_the_modules_of_the_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``ui.serve.early``, what the server's thread runs (here without a Streamlit runtime,
    so it does not wait for one): one read, then ``app.py``'s ``ui`` modules imported."""
    monkeypatch.setenv(DATA_ENV, json.dumps(_files(tmp_path, "gold.json", "system_b.json")))
    before = cli_data.read_count()
    thread = threading.Thread(target=serve.early, args=(ROOT / "app.py", 0.0))
    thread.start()
    thread.join(60)
    assert cli_data.read_count() == before + 1
    modules = serve.ui_modules(ROOT / "app.py")
    assert {"ui.ahead", "ui.current", "ui.cli_data", "ui.state"} <= set(modules)
    assert [m for m in modules if m not in sys.modules] == []
    cli_data.cli_workspace()
    assert cli_data.read_count() == before + 1


def test_ui_modules_lists_each_module_once(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("from ui import a, b\nimport ui.c\nimport os\n"
                                     "from ui.d import x\nfrom ui import a\n")
    assert serve.ui_modules(tmp_path / "app.py") == ["ui.a", "ui.b", "ui.c", "ui.d"]
    (tmp_path / "app.py").write_text("def broken(:\n")  # its own run reports it
    assert serve.ui_modules(tmp_path / "app.py") == []
    assert serve.ui_modules(tmp_path / "missing.py") == []

