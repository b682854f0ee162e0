"""Scores computed ahead in the background (``ui.results.score_ahead``, issue 29) are the ones
the pages then read from the cache, computed once; the Documents list's natural order has a
fast path that orders ids as the natural key does."""

from __future__ import annotations

import random

import pytest

from core.metrics import registry
from ui import documents, results, state


def test_scores_computed_ahead_are_read_by_the_pages_without_scoring_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ws = state.load_sample("propaganda")
    gold, system = state.default_pair(ws)
    assert gold and system
    assert results.score_ahead(ws, gold, [system], {}, 2) is None  # a small corpus: nothing
    monkeypatch.setattr(results, "AHEAD_DOCS", 0)
    monkeypatch.setattr(results, "_ahead_started", set())
    results.pair_result.clear()
    results.text_scores.clear()
    calls: list[str] = []
    score_pair = results.score_pair

    def counted(*args: object, **kwargs: object) -> results.PairScores:
        calls.append(str(args[3]))
        return score_pair(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(results, "score_pair", counted)
    thread = results.score_ahead(ws, gold, [system], {}, 2)
    assert thread is not None
    thread.join(timeout=120)
    metrics = registry.span_metrics()
    assert sorted(calls) == sorted(m.name for m in metrics)
    assert results.score_ahead(ws, gold, [system], {}, 2) is None  # once per process
    for m in metrics:
        level = 2 if m.levels else None
        got = results.pair_result(ws.key, ws, gold, system, m.name, m.default_variant, level)
        want = score_pair(ws, gold, system, m.name, m.default_variant, level)
        assert got.overall == want.overall and got.error == want.error
    assert len(calls) == len(metrics)  # the pages' calls were cache hits
    ahead = results.text_scores(ws.key, ws, gold, system)
    results.text_scores.clear()
    assert "F1" in ahead and results.text_scores(ws.key, ws, gold, system) == ahead


def test_the_metrics_asked_first_are_scored_first_and_counted_as_coming_until_scored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``first`` orders the thread's scores (the Metric differences page waits for MAFALDA's,
    issue 29, ninth pass); ``coming_pair`` says which results the thread is still to compute,
    from before it starts until each is scored, at the level it chooses only, and nothing is
    left counted once it ends, an error included."""
    import threading

    ws = state.load_sample("propaganda")
    gold, system = state.default_pair(ws)
    assert gold and system
    monkeypatch.setattr(results, "AHEAD_DOCS", 0)
    monkeypatch.setattr(results, "_ahead_started", set())
    results.pair_result.clear()
    names = [m.name for m in registry.span_metrics()]
    assert "mafalda" in names and names[0] != "mafalda"  # else the order proves nothing
    calls: list[str] = []
    started, go = threading.Event(), threading.Event()
    score_pair = results.score_pair

    def held(*args: object, **kwargs: object) -> results.PairScores:
        calls.append(str(args[3]))
        started.set()
        assert go.wait(timeout=60)
        return score_pair(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(results, "score_pair", held)

    def coming(metric: str, level: int | None) -> bool:
        variant = registry.get(metric).default_variant
        return results.coming_pair(ws.key, gold, system, metric, variant, level)

    thread = results.score_ahead(ws, gold, [system], {}, 1, level_applies=lambda: False,
                                 first=("mafalda",))
    assert thread is not None
    assert coming("mafalda", 2) and coming("martino", None)
    assert started.wait(timeout=60)  # the thread has chosen its level and started scoring
    assert calls == ["mafalda"]
    assert not coming("mafalda", 1)  # labels without levels: scored at level 2 only
    go.set()
    thread.join(timeout=120)
    assert calls == ["mafalda", *[n for n in names if n != "mafalda"]]
    assert not any(coming(n, lev) for n in names for lev in (None, 1, 2))
    assert results._coming == {}

    def failing(*args: object, **kwargs: object) -> results.PairScores:
        raise RuntimeError("a bug")

    monkeypatch.setattr(results, "score_pair", failing)
    raised: list[type[BaseException]] = []
    monkeypatch.setattr(threading, "excepthook", lambda a: raised.append(a.exc_type))
    results.pair_result.clear()
    thread = results.score_ahead(ws, gold, [system], {}, 2)
    assert thread is not None
    thread.join(timeout=120)
    assert raised == [RuntimeError] and results._coming == {}


@pytest.mark.parametrize("names", [["doc"], [""], ["doc", "a"], ["", "doc"], ["d-", "é", "x"]])
def test_natural_sorted_orders_ids_as_the_natural_key(names: list[str]) -> None:
    rng = random.Random(len(names))
    for _ in range(300):
        ids = [rng.choice(names) + str(rng.randrange(40)).zfill(rng.choice([1, 1, 1, 2, 3]))
               + rng.choice(["", "", "", "", "b", "7c"]) for _ in range(rng.randrange(25))]
        assert documents.natural_sorted(ids) == sorted(ids, key=documents._natural_key)


def test_pages_queued_ahead_are_the_jobs_the_pages_then_ask_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first run queues the Metric differences path on the worker at once, before the
    thread that scores the pair ahead has its first score (queued after that score, Metric
    differences opened right after the first load waited for it: issue 29, after the twelfth
    pass), and after the pair's scores the thread queues the Annotators page's default view
    (``ui.ahead.start``); each
    page's first visit then asks for a job under the same cache key, so it finds that job
    rather than queueing a second one (the thresholds lowered so that the sample counts as
    large). The thread then categorises every compared system for the Errors page, which
    finds them."""
    import threading

    from streamlit.testing.v1 import AppTest

    from ui import annotators, differences, errors

    monkeypatch.setattr(results, "AHEAD_DOCS", 0)
    monkeypatch.setattr(results, "_ahead_started", set())
    monkeypatch.setattr(differences, "PATH_BACKGROUND_DOCS", 0)
    monkeypatch.setattr(annotators, "BACKGROUND_DOCS", 0)
    calls: dict[str, list[tuple[str, tuple[object, ...]]]] = {"path": [], "view": []}

    events: list[str] = []  # the thread's scores and the jobs queued, in order

    def spy(kind: str, job: object) -> object:
        def asked(ws_key: str, _ws: object, *args: object, **kwargs: object) -> object:
            calls[kind].append((threading.current_thread().name, (ws_key, *args)))
            events.append(kind)
            return job(ws_key, _ws, *args, **kwargs)  # type: ignore[operator]
        return asked

    monkeypatch.setattr(differences, "path_job", spy("path", differences.path_job))
    monkeypatch.setattr(annotators, "view_job", spy("view", annotators.view_job))
    categorised: list[str] = []  # the thread of each whole-corpus categorisation
    categorise = errors.categorise

    def counted(*args: object, **kwargs: object) -> object:
        categorised.append(threading.current_thread().name)
        return categorise(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(errors, "categorise", counted)
    started: list[tuple[list[str], tuple[str, ...]]] = []  # systems and metrics scored first
    score_ahead = results.score_ahead

    def ordered(ws: object, ref: str, systems: list[str], *args: object,
                **kwargs: object) -> object:
        started.append((list(systems), tuple(kwargs.get("first", ()))))  # type: ignore[arg-type]
        return score_ahead(ws, ref, systems, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(results, "score_ahead", ordered)
    pair_result = results.pair_result

    def scored(*args: object, **kwargs: object) -> object:
        got = pair_result(*args, **kwargs)  # type: ignore[arg-type]
        if threading.current_thread().name == results._AHEAD_THREAD:  # not the page's
            events.append(f"score {args[4]}")
        return got

    monkeypatch.setattr(results, "pair_result", scored)
    errors.error_table.clear()
    at = AppTest.from_file(str(results.__file__).replace("ui/results.py", "app.py"),
                           default_timeout=120)
    at.session_state[state.K_SOURCE] = "sample"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    for thread in threading.enumerate():
        if thread.name == results._AHEAD_THREAD:
            thread.join(timeout=120)
    # The path is queued at once, by the run that drew the first page (the worker computes it
    # while the thread scores the pair); the view by the thread, after the scores.
    ahead = {kind: [args for _, args in got] for kind, got in calls.items()}
    assert len(calls["path"]) == 1 and calls["path"][0][0] != results._AHEAD_THREAD, calls
    assert [who for who, _ in calls["view"]] == [results._AHEAD_THREAD], calls
    assert events[:2] == ["path", "score mafalda"], events
    assert events.index("view") > max(i for i, e in enumerate(events) if e.startswith("score"))
    assert len(ahead["path"]) == 1 and len(ahead["view"]) == 1, calls
    at.switch_page("pages/differences.py").run()
    at.switch_page("pages/annotators.py").run()
    assert not at.exception, [e.value for e in at.exception]
    page = {kind: [args for _, args in got[1:]] for kind, got in calls.items()}
    assert page["path"][0] == ahead["path"][0]
    # The path's system and MAFALDA scored first: the page waits for them (ninth pass).
    path_system = ahead["path"][0][2]
    assert started and all(systems[0] == path_system and first == ("mafalda",)
                           for systems, first in started), (started, path_system)
    assert page["view"][0] == ahead["view"][0]
    ws = state.load_sample("propaganda")
    systems = state.compared_sets(ws, state.default_pair(ws)[0])
    assert categorised == [results._AHEAD_THREAD] * len(systems), categorised
    at.switch_page("pages/errors.py").run()  # its categories found computed, not again
    assert not at.exception, [e.value for e in at.exception]
    assert categorised == [results._AHEAD_THREAD] * len(systems), categorised


def test_a_thread_that_cannot_start_leaves_nothing_coming(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scores were counted as coming before the thread starts: a thread the system refuses
    (``RuntimeError: can't start new thread``, at its limit of threads) must not leave them
    counted, or the Metric differences page waited for the thread's MAFALDA results for ever
    (``ui.differences.mafalda_coming``); the pages compute them themselves, and a later call
    may start the thread again."""
    import threading

    ws = state.load_sample("propaganda")
    gold, system = state.default_pair(ws)
    assert gold and system
    monkeypatch.setattr(results, "AHEAD_DOCS", 0)
    monkeypatch.setattr(results, "_ahead_started", set())
    monkeypatch.setattr(results, "_coming", {})

    def refused(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refused)
    assert results.score_ahead(ws, gold, [system], {}, 2) is None
    assert results._coming == {}
    assert not results.coming_pair(ws.key, gold, system, "mafalda", "paper", 2)
    assert results._ahead_started == set()  # may start again
