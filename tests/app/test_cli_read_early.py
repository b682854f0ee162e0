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
from tests.app.conftest import frame_of, tables
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



def test_then_gets_the_workspace_read_in_the_reader_s_thread_and_not_after_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``read_early(then=...)``: called once, in the reader's thread, with the workspace the
    pages read (:mod:`ui.serve` passes ``ui.ahead.early``); a read that raises calls nothing
    (the page meets the error when it reads)."""
    monkeypatch.setenv(DATA_ENV, json.dumps(_files(tmp_path, "gold.json", "system_b.json")))
    got: list[tuple[str, object]] = []
    reader = cli_data.read_early(then=lambda ws: got.append(
        (threading.current_thread().name, ws)))
    assert reader is not None
    reader.join(60)
    ws = cli_data.cli_workspace()
    assert ws is not None and got == [(cli_data.READ_EARLY_THREAD, ws)]

    def broken(*args: Any, **options: Any) -> list[state.FileReport]:
        raise RuntimeError("a bug in a reader")

    monkeypatch.setattr(cli_data, "read_reports", broken)
    (tmp_path / "gold.json").touch()  # a new modification time: a new read
    got.clear()
    reader = cli_data.read_early(then=lambda ws: got.append(("called", ws)))
    assert reader is not None
    reader.join(60)
    assert got == []


def _spy_on_jobs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, dict[str, object]]]:
    """The jobs queued on the worker (``ui.jobs.submit``, as ``ui.differences`` calls it and
    ``ui.jobs.hold`` does): the thread that queued each, its task, and its arguments as the
    worker receives them (``Worker._pack``: a value it holds already goes as its key)."""
    from ui import differences, jobs

    queued: list[tuple[str, str, dict[str, object]]] = []
    submit, pack = jobs.submit, jobs.Worker._pack

    def counted(job: Any, **kwargs: Any) -> Any:
        queued.append((threading.current_thread().name, job.task, {}))
        return submit(job, **kwargs)

    def packed(self: jobs.Worker, kwargs: dict[str, object]) -> Any:
        out = pack(self, kwargs)
        for entry in queued:
            if entry[2] == {} and entry[1] == ("hold" if "values" in kwargs else "path"):
                entry[2].update(out[0])
                break
        return out

    monkeypatch.setattr(differences, "submit", counted)
    monkeypatch.setattr(jobs, "submit", counted)
    monkeypatch.setattr(jobs.Worker, "_pack", packed)
    return queued


def test_serve_sends_the_path_s_sets_to_the_worker_as_the_files_are_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 29, tenth pass: on a corpus whose Metric differences path runs in the worker, the
    reader's thread of ``ui.serve.early`` starts the worker and sends it the path's two sets
    (a ``hold`` job, with the path's module to import) once the files are read, before any
    page's run; the path itself is queued by the first run's ``ui.ahead.start``, as before, and
    sends the sets' keys only; the page opened next shows the steps of the same path. Counted,
    not timed."""
    from core.metrics.differences import metric_path
    from ui import differences, jobs, results
    from ui.gamma_worker import Held, Resident

    monkeypatch.setattr(differences, "PATH_BACKGROUND_DOCS", 0)  # the sample counts as large
    monkeypatch.setattr(results, "AHEAD_DOCS", 10**9)  # no scores ahead: the path's jobs alone
    monkeypatch.setenv(DATA_ENV, json.dumps(_files(tmp_path, "gold.json", "system_b.json")))
    queued = _spy_on_jobs(monkeypatch)
    thread = threading.Thread(target=serve.early, args=(ROOT / "app.py", 0.0))
    thread.start()
    thread.join(60)
    ws = cli_data.cli_workspace()
    assert ws is not None
    # From the reader's thread, before a page ran: the default pair's sets, nothing computed.
    assert [(who, task) for who, task, _ in queued] == [(cli_data.READ_EARLY_THREAD, "hold")]
    held = differences.sets_ahead(ws.key, ws, "gold", "system_b")
    assert held is not None and held.future is not None
    assert held.future.result(timeout=120) is None  # held, nothing computed
    sent = queued[0][2]
    assert [(v.key, v.value) for v in sent["values"]] == [  # type: ignore[attr-defined]
        (f"{ws.key}|set|gold", ws.sets["gold"]), (f"{ws.key}|set|system_b", ws.sets["system_b"])]
    assert all(isinstance(v, Resident) for v in sent["values"])  # type: ignore[attr-defined]
    assert sent["imports"] == ["core.metrics.differences"]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()  # the first load: ui.ahead.start at its end queues the path's Martino part
    assert not at.exception, [e.value for e in at.exception]
    assert [task for _, task, _ in queued] == ["hold", "path"], queued
    assert queued[1][0] != cli_data.READ_EARLY_THREAD
    job = differences.path_job(ws.key, ws, "gold", "system_b", 2, "paper", "martino")
    job.future.result(timeout=120)  # type: ignore[union-attr]
    path_sent = queued[1][2]
    assert path_sent["part"] == "martino"
    assert path_sent["gold"] == Held(f"{ws.key}|set|gold")  # the sets' keys only
    assert path_sent["pred"] == Held(f"{ws.key}|set|system_b")
    assert jobs._worker().alive
    at.switch_page("pages/differences.py").run()
    assert not at.exception, [e.value for e in at.exception]
    deadline = time.time() + 120
    while not any("official metric" in t.columns for t in tables(at)):
        assert time.time() < deadline, "the path's steps were not shown"
        time.sleep(0.3)
        at.run()
    table = next(t for t in tables(at) if "official metric" in t.columns)
    whole = metric_path(ws.sets["gold"], ws.sets["system_b"],
                        taxonomy=results.taxonomy_for(ws, "gold", "system_b"),
                        texts=ws.corpus.texts)
    # the steps are a Markdown table: read back at the four decimals it shows (NaN: not scored)
    shown = [None if value != value else value for value in table["F1"]]
    assert shown == [None if (v := s.value("f1")) is None else pytest.approx(v, abs=5e-5)
                     for s in whole]
    # no scores ahead here: MAFALDA's part from a second job; the sets sent once, at the read
    assert [task for _, task, _ in queued] == ["hold", "path", "path"], queued


def test_nothing_is_sent_early_on_a_small_corpus_or_one_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Below the path's threshold (the page computes it in its run) nothing is sent and no
    worker started as the files are read; nor with one set, which has no pair to compare."""
    from ui import ahead

    monkeypatch.setenv(DATA_ENV, json.dumps(_files(tmp_path, "gold.json", "system_b.json")))
    queued = _spy_on_jobs(monkeypatch)
    reader = cli_data.read_early(then=serve.ahead)
    assert reader is not None
    reader.join(60)
    assert cli_data.cli_workspace() is not None and queued == []
    ahead.early(state.build_workspace(cli_data.read_reports(cli_data.data_args())[:1],
                                      key="one", title="one", shareable=True))
    ahead.early(None)
    assert queued == []
