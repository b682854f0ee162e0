"""The ``--data`` files read on both cores (``ui.cli_data.read_reports``, ``ui.parsing.InChild``):
a forked copy of the server reads the last files and sends their reports back, the same reports
as a read in one process; small inputs stay in the process, a copy that fails leaves the read to
the process, and ``ui.serve`` imports ``app.py``'s modules only once the copy is forked (which
path ran, by counts and the order of events, never a clock; docs/performance.md, issue 29,
sixteenth pass)."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from core.cli.launch import DATA_ENV
from ui import cli_data, serve
from ui.parsing import InChild

DATA = Path(__file__).parent / "data"


def _args(tmp_path: Path, *names: str) -> tuple[cli_data.DataArg, ...]:
    out = []
    for name in names:
        shutil.copy(DATA / name, tmp_path / name)
        out.append(cli_data.DataArg("gold" if name.startswith("gold") else "system",
                                    str(tmp_path / name)))
    return tuple(out)


def _summary(reports: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.file, r.format, r.role, r.name, dict(r.texts), r.diagnostics, r.error,
             [(s.name, s.role, {d: tuple(v) for d, v in s.spans.items()}) for s in r.sets])
            for r in reports]


def test_in_child_computes_in_another_process_and_hands_the_result_back() -> None:
    child = InChild(lambda: (os.getpid(), {"doc": "text", "n": [1, 2, 3]}))
    pid, value = child.result()  # type: ignore[misc]
    assert pid == child.pid != os.getpid()
    assert value == {"doc": "text", "n": [1, 2, 3]}
    with pytest.raises(RuntimeError):
        child.result()


def test_in_child_says_none_when_the_child_raises_or_its_result_does_not_pickle() -> None:
    def boom() -> int:
        raise ValueError("bad file")

    assert InChild(boom).result() is None
    assert InChild(lambda: threading.Lock()).result() is None  # a lock does not pickle


def test_in_child_cancelled_is_reaped() -> None:
    child = InChild(lambda: threading.Event().wait())  # never returns
    child.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # reaped: no such child left


def test_a_forked_copy_reads_the_last_file_and_the_reports_are_the_same(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = _args(tmp_path, "gold.json", "system_a.json", "system_b.json")
    before = cli_data.fork_count()
    alone = cli_data.read_reports(args)  # the test files are small: one process
    assert cli_data.fork_count() == before

    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 1)
    shared = cli_data.read_reports(args)
    assert cli_data.fork_count() == before + 1
    assert _summary(shared) == _summary(alone)
    assert [r.ok for r in shared] == [True, True, True]


def test_a_copy_gets_the_inputs_holding_about_half_of_the_bytes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 1)
    (tmp_path / "big.json").write_bytes(b"x" * 1000)
    (tmp_path / "a.json").write_bytes(b"x" * 300)
    (tmp_path / "b.json").write_bytes(b"x" * 300)
    inputs = [(tmp_path / n, "system", False, None, None) for n in ("big.json", "a.json", "b.json")]
    assert cli_data._fork_from(inputs, {}) == 1  # type: ignore[arg-type]
    inputs = [(tmp_path / n, "system", False, None, None) for n in ("a.json", "b.json", "big.json")]
    assert cli_data._fork_from(inputs, {}) == 2  # type: ignore[arg-type]
    assert cli_data._fork_from(inputs[:1], {}) == 1  # type: ignore[arg-type]
    folder = [*inputs[:1], (tmp_path, "system", True, None, None)]
    assert cli_data._fork_from(folder, {}) == 2  # type: ignore[arg-type]  (folders: not forked)
    monkeypatch.setattr(cli_data.sys, "platform", "darwin")  # forks threads unsafely
    assert cli_data._fork_from(inputs, {}) == 3  # type: ignore[arg-type]
    monkeypatch.setattr(cli_data.sys, "platform", "linux")
    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 10_000)
    assert cli_data._fork_from(inputs, {}) == 3  # type: ignore[arg-type]


def test_a_copy_that_fails_leaves_the_read_to_the_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = _args(tmp_path, "gold.json", "system_a.json")
    alone = cli_data.read_reports(args)

    class Failing(InChild[Any]):
        def __init__(self, fn: Any) -> None:
            def killed() -> Any:
                os._exit(9)
            super().__init__(killed)

    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 1)
    monkeypatch.setattr(cli_data, "InChild", Failing)
    before = cli_data.fork_count()
    assert _summary(cli_data.read_reports(args)) == _summary(alone)
    assert cli_data.fork_count() == before


def test_a_broken_file_read_by_the_copy_reports_its_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = _args(tmp_path, "gold.json", "broken.json")
    alone = cli_data.read_reports(args)
    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 1)
    before = cli_data.fork_count()
    shared = cli_data.read_reports(args)
    assert cli_data.fork_count() == before + 1
    assert not shared[1].ok and shared[1].error == alone[1].error


def test_the_server_imports_app_modules_only_after_the_fork(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    events: list[str] = []
    imported = threading.Event()
    monkeypatch.setattr(cli_data, "forked", threading.Event())
    monkeypatch.setattr(serve, "_server_started", lambda timeout: True)

    def read_early(then: Any = None) -> threading.Thread:
        def work() -> None:
            # a server that did not wait would import now, before the fork: the order says so
            imported.wait(2.0)
            events.append("forked")
            cli_data.forked.set()
        thread = threading.Thread(target=work)
        thread.start()
        return thread

    def import_module(name: str) -> None:
        events.append(f"import {name}")
        imported.set()

    monkeypatch.setattr(cli_data, "read_early", read_early)
    monkeypatch.setattr(serve.importlib, "import_module", import_module)
    script = tmp_path / "app.py"
    script.write_text("from ui import ahead, state\n", encoding="utf-8")
    serve.early(script)
    assert events == ["forked", "import ui.ahead", "import ui.state"]


def test_the_read_early_thread_says_forked_when_the_files_were_read_before(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = _args(tmp_path, "gold.json", "system_a.json")
    monkeypatch.setenv(DATA_ENV, json.dumps([{"role": a.role, "path": a.path} for a in args]))
    cli_data.cli_workspace()  # read (and cached) before the thread starts
    monkeypatch.setattr(cli_data, "forked", threading.Event())
    reader = cli_data.read_early()
    assert reader is not None
    reader.join()
    assert cli_data.forked.is_set()


def test_a_fork_refused_leaves_the_read_to_the_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``os.fork`` refused (EAGAIN: too many processes; ENOMEM) raised out of ``read_reports``,
    and the server's first load failed, where "should the copy fail, this process reads them
    itself" (review18): the reports are those of a read in one process."""
    args = _args(tmp_path, "gold.json", "system_a.json", "system_b.json")
    alone = cli_data.read_reports(args)

    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 1)
    monkeypatch.setattr(os, "fork", refused)
    before = cli_data.fork_count()
    assert _summary(cli_data.read_reports(args)) == _summary(alone)
    assert cli_data.fork_count() == before
