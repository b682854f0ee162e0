"""The Documents page's lists filled ahead from the Errors page (issue 29, eighteenth pass): a
background thread started by the Errors page imports the Documents page's module and fills the
rows its first run reads when a category's link opens it (:func:`ui.documents.lists_ahead`),
pausing while a person's page run is under way (:func:`ui.jobs.wait_while_running`). Counters
and caches, no clock."""

from __future__ import annotations

import sys
import threading

import pytest

from core.analysis.errors import categorise
from ui import documents, jobs, state
from ui import errors as err_ui


def _ws(at):  # -> state.Workspace
    return at.session_state[state.K_UPLOAD_WS]


@pytest.fixture
def lists_ahead_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample corpora are small: fill the lists ahead from one document on, once per test
    (the process's record of started keys emptied)."""
    monkeypatch.setattr(documents, "LISTS_AHEAD_DOCS", 1)
    monkeypatch.setattr(documents, "_lists_started", {})
    # Rows an earlier test's Documents page counted for the same sample would be counted
    # already.
    documents._document_counts.clear()
    documents._by_id.clear()


def test_the_errors_page_fills_each_links_list_once_and_the_link_finds_it(
        make_app, lists_ahead_on) -> None:
    at = make_app("pages/errors.py")
    assert not at.exception, [e.value for e in at.exception]
    ws = _ws(at)
    (started,) = documents._lists_started  # one key: the page's reference, systems and level
    assert started == (ws.key, "gold", ("system_a", "system_b"), 2)
    thread = documents._lists_started[started]
    assert thread is not None and thread.name == documents.LISTS_THREAD
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert "ui.documents" in sys.modules  # the page's module, imported ahead
    key = (ws.key, "gold", "system_a", 2)
    assert documents.LISTS_AHEAD_COUNTED[key] > 0
    kept = documents._document_counts(ws.key, ws, "gold", "system_a", 2)
    by_id = documents._by_id(ws.key, ws, "gold", "system_a")
    assert list(by_id) == documents.natural_sorted(
        documents.pair_documents(ws.key, ws, "gold", "system_a")[0])
    table = categorise(ws.sets["gold"], ws.sets["system_a"])
    links = [b.key.removeprefix("err_open_system_a_") for b in at.button
             if b.key.startswith("err_open_system_a_")]
    assert links
    for category in links:  # each link's first rows, by id, are counted
        held = set(table.documents_with(category=category))
        window = [d for d in by_id if d in held][:documents.DOC_WINDOW]
        assert window and all(d in kept for d in window), category
    # The rows counted ahead are the ones the page would count: each document categorised
    # alone (document_table's path without the corpus's table).
    for d, row in kept.items():
        assert row == documents._counts_row(ws.key, ws, "gold", "system_a", 2, d, None), d
    counted = dict(documents.LISTS_AHEAD_COUNTED)
    # Once per reference, systems and level in the process: a second run starts no thread.
    at.run()
    assert list(documents._lists_started) == [started]
    assert dict(documents.LISTS_AHEAD_COUNTED) == counted
    # The link opens the Documents page on those rows: its list counts nothing more.
    before = dict(kept)
    at.button(key="err_open_system_a_missed").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=err_ui.K_ERR_CATEGORY).value == "missed"
    assert dict(kept) == before


def test_a_small_corpus_fills_nothing_ahead(make_app, monkeypatch) -> None:
    monkeypatch.setattr(documents, "_lists_started", {})
    assert documents.LISTS_AHEAD_DOCS == err_ui.FILTER_AUTO_DOCS
    at = make_app("pages/errors.py")
    assert not at.exception
    assert documents._lists_started == {}  # the sample's few documents: the page counts them


def test_lists_ahead_waits_while_a_page_run_is_under_way(make_app) -> None:
    at = make_app("pages/errors.py")
    ws = _ws(at)
    level = 2
    documents._document_counts.clear()
    started = threading.Event()
    done = threading.Event()
    result: list[int] = []

    def work() -> None:
        started.set()
        result.append(documents.lists_ahead(ws, "gold", "system_b", level, ["missed"]))
        done.set()

    jobs.page_run_started()  # this thread's "run", under way
    try:
        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        assert started.wait(30)
        assert not done.wait(0.5)  # held while the run is under way
        assert documents._document_counts(ws.key, ws, "gold", "system_b", level) == {}
    finally:
        jobs.page_run_ended()
    assert done.wait(60)  # the run's end lets it go on at once (no HOLD_AFTER_RUN)
    held = set(categorise(ws.sets["gold"], ws.sets["system_b"]).documents_with(
        category="missed"))
    assert held and result == [min(len(held), documents.DOC_WINDOW)]
    # A second call finds every row counted.
    assert documents.lists_ahead(ws, "gold", "system_b", level, ["missed"]) == 0


def test_wait_while_running_returns_at_once_without_a_run_and_at_most_after_its_bound() -> None:
    jobs.wait_while_running()  # no run under way: returns
    jobs.page_run_started()
    try:
        jobs.wait_while_running(at_most=0.05)  # bounded: returns though the run goes on
        assert jobs.holding()
    finally:
        jobs.page_run_ended()


def _sample_setup(monkeypatch: pytest.MonkeyPatch) -> tuple[state.Workspace, err_ui.Setup]:
    """The propaganda sample and its default pair at level 2, with lists filled ahead from one
    document on and none started yet."""
    ws = state.load_sample("propaganda")
    gold, system = state.default_pair(ws)
    assert gold and system
    monkeypatch.setattr(documents, "LISTS_AHEAD_DOCS", 1)
    monkeypatch.setattr(documents, "_lists_started", {})
    return ws, err_ui.Setup(gold, 2, (system,), 1)


def test_a_thread_that_cannot_start_leaves_the_errors_page_drawn_and_may_start_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread the system refuses (``RuntimeError: can't start new thread``, at its limit of
    threads) raised out of the Errors page, which then showed a traceback for lists it only
    meant to fill ahead, and the lists were marked as started for the life of the server
    (review19; ``ui.results.score_ahead`` meets the same refusal so since review18)."""
    ws, setup = _sample_setup(monkeypatch)

    class Refused(threading.Thread):
        def start(self) -> None:
            raise RuntimeError("can't start new thread")

    monkeypatch.setattr(documents.threading, "Thread", Refused)
    assert documents.errors_ahead(ws, setup) is None
    assert documents._lists_started == {}  # may start again
    monkeypatch.undo()
    monkeypatch.setattr(documents, "LISTS_AHEAD_DOCS", 1)
    monkeypatch.setattr(documents, "_lists_started", {})
    thread = documents.errors_ahead(ws, setup)
    assert thread is not None
    thread.join(timeout=60)
    assert not thread.is_alive()


def test_lists_not_started_because_counting_failed_are_tried_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``category_documents`` raised (an error, or the run stopped by a rerun while it counted:
    Streamlit's ``StopException`` is a ``BaseException``) before the thread started: the key
    stayed marked as started, so the lists of that workspace, reference, systems and level
    were never filled ahead again for the life of the server (review20)."""
    ws, setup = _sample_setup(monkeypatch)
    real = err_ui.category_documents

    class Stopped(BaseException):
        pass

    def stopped(*args, **kwargs):
        raise Stopped

    monkeypatch.setattr(err_ui, "category_documents", stopped)
    with pytest.raises(Stopped):
        documents.errors_ahead(ws, setup)
    assert documents._lists_started == {}  # may start again
    monkeypatch.setattr(err_ui, "category_documents", real)
    thread = documents.errors_ahead(ws, setup)
    assert thread is not None
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert list(documents._lists_started.values()) == [thread]


def test_lists_ahead_computes_nothing_while_the_run_that_started_it_is_under_way(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Errors page starts the thread in the middle of its own run (once the links are
    drawn; the schemas, charts and slices follow): the pair's documents by id (a natural sort,
    30-60 ms at 10,000 documents), the corpus's missed and spurious counts and each category's
    documents were computed at once, beside that run, before the thread's first look at the
    runs under way (review19). Nothing is computed until the run has ended."""
    at = make_app("pages/errors.py")
    ws = _ws(at)
    documents._document_counts.clear()
    documents._by_id.clear()
    calls: list[str] = []
    for module, name in ((documents, "natural_sorted"), (err_ui, "missed_and_spurious"),
                         (err_ui, "documents_with")):
        real = getattr(module, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            if threading.current_thread().name == "ahead-under-test":
                calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    done = threading.Event()
    jobs.page_run_started()  # the Errors page's run, under way
    try:
        thread = threading.Thread(
            target=lambda: (documents.lists_ahead(ws, "gold", "system_a", 2, ["missed"]),
                            done.set()), name="ahead-under-test", daemon=True)
        thread.start()
        assert not done.wait(0.5)
        assert calls == []
    finally:
        jobs.page_run_ended()
    assert done.wait(60)
    assert {"natural_sorted", "missed_and_spurious", "documents_with"} <= set(calls)
