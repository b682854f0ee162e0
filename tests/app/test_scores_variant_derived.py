"""A switch of MAFALDA's variant between paper and metrics-py on the Scores page derives the
other variant's result from the one computed (``ui.results.derive_pair``,
``core.metrics.mafalda.derive``): no second whole-corpus score, the numbers of one
(docs/performance.md, issue 29, fourteenth pass)."""

from __future__ import annotations

import weakref

import pytest

from core.metrics import mafalda, registry
from ui import results, state


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    calls: list[tuple[str, str | None]] = []
    score_pair = results.score_pair

    def counted(*args: object, **kwargs: object) -> results.PairScores:
        calls.append((str(args[3]), args[4]))  # type: ignore[arg-type]
        return score_pair(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(results, "score_pair", counted)
    return calls


@pytest.mark.parametrize("level", [2, 1])
def test_a_switch_between_paper_and_metrics_py_derives_without_scoring_the_corpus(
        monkeypatch: pytest.MonkeyPatch, level: int) -> None:
    ws = state.load_sample("mafalda")
    gold, system = state.default_pair(ws)
    assert gold and system
    results.pair_result.clear()
    monkeypatch.setattr(results, "_scored", weakref.WeakValueDictionary())
    want = {v: results.score_pair(ws, gold, system, "mafalda", v, level)
            for v in registry.get("mafalda").variants}
    calls = _counted(monkeypatch)
    before = mafalda.DERIVED.copy()
    paper = results.pair_result(ws.key, ws, gold, system, "mafalda", "paper", level)
    assert calls == [("mafalda", "paper")]
    switched = results.pair_result(ws.key, ws, gold, system, "mafalda", "metrics-py", level)
    assert calls == [("mafalda", "paper")]  # derived, not scored
    assert mafalda.DERIVED["results"] == before["results"] + 1
    # only the texts whose gold offers a choice of labels were scored again
    again = mafalda.DERIVED["texts"] - before["texts"]
    assert again == len(paper.raw.choice_texts) < len(ws.sets[gold].doc_ids)  # type: ignore
    # repo-head's recall counts the text between gold spans: it is scored
    head = results.pair_result(ws.key, ws, gold, system, "mafalda", "repo-head", level)
    assert calls == [("mafalda", "paper"), ("mafalda", "repo-head")]
    for variant, got in (("paper", paper), ("metrics-py", switched), ("repo-head", head)):
        assert got.error is None
        assert got.overall == want[variant].overall, variant
        assert got.per_doc.equals(want[variant].per_doc), variant


def test_without_the_other_variant_computed_the_variant_is_scored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ws = state.load_sample("mafalda")
    gold, system = state.default_pair(ws)
    assert gold and system
    results.pair_result.clear()
    monkeypatch.setattr(results, "_scored", weakref.WeakValueDictionary())  # nothing computed
    calls = _counted(monkeypatch)
    assert results.derive_pair(ws.key, ws, gold, system, "mafalda", "metrics-py", 2) is None
    results.pair_result(ws.key, ws, gold, system, "mafalda", "metrics-py", 2)
    assert calls == [("mafalda", "metrics-py")]
    # and paper is then derived from it
    results.pair_result(ws.key, ws, gold, system, "mafalda", "paper", 2)
    assert calls == [("mafalda", "metrics-py")]
    # a metric that derives nothing is scored
    assert results.derive_pair(ws.key, ws, gold, system, "martino", "semeval2021", None) is None
