"""The Scores page's paired comparison takes each system's per-document statistics from the score
its cache already holds (:meth:`core.metrics.registry.Metric.result_table`); it scored both
systems a second time (``ui.results.document_table``: the metric's ``statistics`` with
``per_document=True``). The rows are those the second scoring gave, for every span metric."""

from __future__ import annotations

import numpy as np
import pytest

from core.metrics import registry
from core.metrics.registry import Metric
from core.model import AnnotationSet
from ui import results, state

METRICS = [("martino", "semeval2021", None), ("martino", "nlp4if2019", None),
           ("mafalda", "paper", 2), ("mafalda", "paper", 0)]


def _workspace(metric: str) -> state.Workspace:
    return state.load_sample("mafalda" if metric == "mafalda" else "propaganda")


def _systems(ws: state.Workspace) -> tuple[str, list[str]]:
    gold = next(n for n, s in ws.sets.items() if s.role == "gold")
    return gold, [n for n, s in ws.sets.items() if s.role == "system"]


@pytest.mark.parametrize(("metric", "variant", "level"), METRICS)
def test_the_held_score_gives_the_rows_of_a_second_scoring(
        metric: str, variant: str | None, level: int | None) -> None:
    ws = _workspace(metric)
    gold, systems = _systems(ws)
    compared = 0
    for system in systems:
        raw = results.pair_result(ws.key, ws, gold, system, metric, variant, level).raw
        if raw is None:
            continue
        pred = ws.sets[system]
        held = registry.get(metric).result_table(
            raw, ws.sets[gold], AnnotationSet(pred.name, pred.spans, "system", False))
        again = results.document_table(ws, gold, system, metric, variant, level)
        assert held is not None
        assert held.documents == again.documents and held.pooled == again.pooled
        assert np.array_equal(held.table, again.table)
        assert np.array_equal(held.references, again.references)
        assert np.array_equal(held.predictions, again.predictions)
        compared += 1
    assert compared >= 1  # nlp4if2019 refuses overlapping predictions (system_b)


@pytest.mark.parametrize("name", ["martino", "mafalda"])
def test_a_metric_known_by_its_result_alone_gives_the_same_rows(name: str) -> None:
    """A third party's metric without its own additive statistics (:func:`from_result`),
    pooled (Martino's score) or averaged over texts (MAFALDA's)."""
    from core.metrics.additive import from_result

    ws = _workspace(name)
    gold, (system, *_) = _systems(ws)
    entry = registry.get(name)
    protocol = from_result(entry.score)
    g = entry.gold_view(ws.sets[gold])
    pred = AnnotationSet(ws.sets[system].name, ws.sets[system].spans, "system", False)
    options = entry.keywords(texts=ws.corpus.texts)
    assert protocol.result_table is not None
    held = protocol.result_table(entry.score(g, pred, **options), g, pred)
    again = protocol.table(protocol.statistics(g, pred, per_document=True, **options))
    assert held.documents == again.documents and held.pooled == again.pooled
    assert np.array_equal(held.table, again.table)
    assert np.array_equal(held.references, again.references)
    assert np.array_equal(held.predictions, again.predictions)


def test_the_paired_comparison_scores_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A counter on the metric's statistics: the comparison of two scored systems calls it no
    more (it was called once per system), and gives the numbers the second scoring gave."""
    ws = state.load_sample("propaganda")
    for system in ("system_a", "system_b"):
        results.pair_result(ws.key, ws, "gold", system, "martino", "semeval2021", None)
    calls: list[str] = []
    statistics = Metric.statistics

    def counted(self: Metric, *args: object, **kwargs: object) -> object:
        calls.append(self.name)
        return statistics(self, *args, **kwargs)

    monkeypatch.setattr(Metric, "statistics", counted)
    results.paired_comparison.clear()
    got = results.paired_comparison(ws.key, ws, "gold", "system_a", "system_b", "martino",
                                    "semeval2021", None, 300, 0)
    assert calls == []
    monkeypatch.setattr(results, "_held_table", lambda *args: None)  # the path of before
    results.paired_comparison.clear()
    before = results.paired_comparison(ws.key, ws, "gold", "system_a", "system_b", "martino",
                                       "semeval2021", None, 300, 0)
    assert calls == ["martino", "martino"]
    assert got == before and got is not None and "rows" in got


def test_the_paired_section_shows_the_comparison(make_app) -> None:
    at = make_app("pages/scores.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    assert any("F1(system_a) − F1(system_b)" in m.value.replace("\\", "")
               for m in at.markdown)


