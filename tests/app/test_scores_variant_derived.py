"""A switch of MAFALDA's variant on the Scores page derives the other variant's result from the
one computed (``ui.results.derive_pair``, ``core.metrics.mafalda.derive``): paper and
metrics-py from each other, repo-head from either; no second whole-corpus score, the numbers
of one (docs/performance.md, issue 29, fourteenth and fifteenth passes)."""

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
    # repo-head from metrics-py, the cheaper source (its label-only scores are metrics-py's):
    # no text scored again, its span scores divided from paper's pass's sums
    texts = mafalda.DERIVED["texts"]
    head = results.pair_result(ws.key, ws, gold, system, "mafalda", "repo-head", level)
    assert calls == [("mafalda", "paper")]
    assert mafalda.DERIVED["results"] == before["results"] + 2
    assert mafalda.DERIVED["texts"] == texts
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
    # repo-head then from metrics-py too
    results.pair_result(ws.key, ws, gold, system, "mafalda", "repo-head", 2)
    assert calls == [("mafalda", "metrics-py")]
    # a metric that derives nothing is scored
    assert results.derive_pair(ws.key, ws, gold, system, "martino", "semeval2021", None) is None


def test_repo_head_from_paper_scores_again_the_texts_offering_a_choice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With paper alone computed (the Scores page's default), a switch to repo-head derives it
    from paper, scoring again only the texts whose gold offers a choice of labels (label-only
    precision): the numbers of repo-head scored."""
    ws = state.load_sample("mafalda")
    gold, system = state.default_pair(ws)
    assert gold and system
    results.pair_result.clear()
    monkeypatch.setattr(results, "_scored", weakref.WeakValueDictionary())
    want = results.score_pair(ws, gold, system, "mafalda", "repo-head", 2)
    calls = _counted(monkeypatch)
    paper = results.pair_result(ws.key, ws, gold, system, "mafalda", "paper", 2)
    before = mafalda.DERIVED.copy()
    head = results.pair_result(ws.key, ws, gold, system, "mafalda", "repo-head", 2)
    assert calls == [("mafalda", "paper")]
    assert mafalda.DERIVED["texts"] - before["texts"] == len(paper.raw.choice_texts)  # type: ignore
    assert head.error is None and head.overall == want.overall
    assert head.per_doc.equals(want.per_doc)
