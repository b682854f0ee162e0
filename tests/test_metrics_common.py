"""Invariances every registered metric must keep (the model: scikit-learn's
``sklearn/metrics/tests/test_common.py``), and the registry driving the CLI and the dashboard.

Every span metric of :mod:`core.metrics.registry` is checked in every variant it lists: scores of
a set against itself, document-order invariance, per-document and per-label sums adding up to the
overall numerators, results that serialise, explanations whose rows come with the score. A toy
metric registered here appears in ``python -m core score --help`` and in the dashboard's metric
choice without any other change.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli import main
from core.metrics import registry
from core.metrics.result import (
    BootstrapTable,
    DocumentScore,
    Explanation,
    LabelScore,
    SpanResult,
    prf,
    prf_arrays,
)
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parent.parent
LABELS = ["ad hominem", "appeal to fear", "tu quoque"]


def _cases() -> list[tuple[str, str | None]]:
    return [(m.name, v) for m in registry.span_metrics() for v in (m.variants or (None,))]


CASES = _cases()
IDS = [f"{n}-{v}" for n, v in CASES]

# Documented exceptions (as sklearn's test_common lists its own): MAFALDA's repo-head variant
# counts the text between gold spans as gold spans labelled None, so an exact match gets R < 1
# (core.metrics.mafalda, "Variants").
NOT_ONE_ON_ITSELF = {("mafalda", "repo-head")}
# SemEval-2020 TC labels given spans: its predictions are the gold's spans, and it has no span
# pairs to explain (every pairing of label rows: by position, the two official scorers, and by
# article).
TC_VARIANTS = ("semeval2020-tc", "semeval2020-tc-by-article", "semeval2020-tc-fixed")


def _corpus() -> tuple[AnnotationSet, AnnotationSet]:
    """Gold and a prediction over three documents that every variant accepts: no overlapping
    spans of one label on either side (nlp4if2019 refuses those), identical spans for TC."""
    gold = {"d1": (Span(0, 10, LABELS[0]), Span(20, 30, LABELS[1])),
            "d2": (Span(5, 15, LABELS[2]),),
            "d3": ()}
    pred = {"d1": (Span(2, 10, LABELS[0]), Span(20, 30, LABELS[2])),
            "d2": (Span(5, 12, LABELS[2]),),
            "d3": (Span(0, 4, LABELS[1]),)}
    return AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")


def _tc_corpus() -> tuple[AnnotationSet, AnnotationSet]:
    """SemEval-2020 TC labels given spans: the prediction has exactly the gold's spans."""
    gold, _ = _corpus()
    pred = {d: tuple(Span(s.start, s.end, LABELS[(i + k) % 3]) for k, s in enumerate(spans))
            for i, (d, spans) in enumerate(gold.spans.items())}
    return gold, AnnotationSet("pred", pred, role="system")


def _score(name: str, variant: str | None, gold: AnnotationSet, pred: AnnotationSet
           ) -> SpanResult:
    return registry.get(name).score_sets(gold, pred, variant=variant, level=2)


def _pair(variant: str | None) -> tuple[AnnotationSet, AnnotationSet]:
    return _tc_corpus() if variant in TC_VARIANTS else _corpus()


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_result_follows_the_protocol_and_serialises(name: str, variant: str | None) -> None:
    result = _score(name, variant, *_pair(variant))
    assert isinstance(result, SpanResult)
    assert result.metric == name
    rows = result.per_document()
    assert all(isinstance(r, DocumentScore) for r in rows)
    assert [r.document for r in rows] == result.document_ids == ["d1", "d2", "d3"]
    assert all(isinstance(v, LabelScore) for v in result.per_label().values())
    out = json.loads(json.dumps(result.to_dict(per_document=True)))
    assert out["metric"] == name and len(out["per_document"]) == 3
    assert out["f1"] == pytest.approx(result.f1)
    frame = result.per_document_frame()
    assert list(frame["document"]) == ["d1", "d2", "d3"]
    assert list(frame["f1"]) == pytest.approx([r.f1 for r in rows])


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_a_set_against_itself_scores_one(name: str, variant: str | None) -> None:
    gold, _ = _corpus()
    same = AnnotationSet("same", gold.spans, role="system")
    result = _score(name, variant, gold, same)
    if (name, variant) in NOT_ONE_ON_ITSELF:
        assert result.precision == pytest.approx(1.0) and result.recall < 1.0
        return
    assert (result.precision, result.recall, result.f1) == pytest.approx((1.0, 1.0, 1.0))


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_scores_do_not_depend_on_document_order(name: str, variant: str | None) -> None:
    gold, pred = _pair(variant)
    order = ["d3", "d1", "d2"]
    gold_r = AnnotationSet(gold.name, {d: gold.spans[d] for d in order})
    pred_r = AnnotationSet(pred.name, {d: pred.spans[d] for d in order}, role="system")
    a, b = _score(name, variant, gold, pred), _score(name, variant, gold_r, pred_r)
    assert (a.precision, a.recall, a.f1) == pytest.approx((b.precision, b.recall, b.f1))
    by_doc = {r.document: r.f1 for r in b.per_document()}
    assert {r.document: r.f1 for r in a.per_document()} == pytest.approx(by_doc)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_per_document_and_per_label_sums_add_up_to_the_overall(name: str,
                                                               variant: str | None) -> None:
    result = _score(name, variant, *_pair(variant))
    rows = result.per_document()
    for attr in ("precision_numerator", "precision_denominator", "recall_numerator",
                 "recall_denominator"):
        assert sum(getattr(r, attr) for r in rows) == pytest.approx(getattr(result, attr)), attr
    per_label = result.per_label()
    if per_label:
        assert sum(v.precision_numerator for v in per_label.values()) == pytest.approx(
            result.precision_numerator)
        assert sum(v.recall_denominator for v in per_label.values()) == pytest.approx(
            result.recall_denominator)
    if result.pooled:
        p, r, f1 = prf(result.precision_numerator, result.precision_denominator,
                       result.recall_numerator, result.recall_denominator, empty="official")
        assert (result.precision, result.recall, result.f1) == pytest.approx((p, r, f1))
    else:
        assert result.f1 == pytest.approx(sum(r.f1 for r in rows) / len(rows))


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_bootstrap_table_gives_back_the_f1(name: str, variant: str | None) -> None:
    result = _score(name, variant, *_pair(variant))
    boot = result.bootstrap_table()
    assert isinstance(boot, BootstrapTable)
    assert boot.documents == tuple(result.document_ids)
    assert float(boot.statistic(boot.table.sum(axis=0)[None, :])[0]) == pytest.approx(result.f1)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_scores_are_in_range_where_the_metric_bounds_them(name: str,
                                                          variant: str | None) -> None:
    # Martino's 2021 variant is deliberately unbounded (duplicates inflate recall); with no
    # overlapping same-label spans every variant stays in [0, 1].
    result = _score(name, variant, *_pair(variant))
    for value in (result.precision, result.recall, result.f1,
                  *(r.f1 for r in result.per_document())):
        assert 0.0 <= value <= 1.0
    assert result.f1 < 1.0  # the prediction is not the gold


@pytest.mark.parametrize(("name", "variant"), [c for c in CASES if c[1] not in TC_VARIANTS],
                         ids=[i for c, i in zip(CASES, IDS, strict=True)
                              if c[1] not in TC_VARIANTS])
def test_explanation_comes_with_the_documents_score(name: str, variant: str | None) -> None:
    entry = registry.get(name)
    gold, pred = _corpus()
    explanation = entry.explain_document(gold, pred, "d1", variant=variant, level=2)
    if explanation is None:
        pytest.fail(f"span metric {name} registers no explain")
    assert isinstance(explanation, Explanation)
    assert explanation.document == "d1"
    rows = explanation.rows()
    assert rows and all(r.gold is not None or r.pred is not None for r in rows)
    out = json.loads(json.dumps(explanation.to_dict()))
    d1 = {r.document: r for r in _score(name, variant, gold, pred).per_document()}["d1"]
    assert out["f1"] == pytest.approx(d1.f1)


@pytest.mark.parametrize("name", registry.names())
def test_every_metric_has_a_description_and_defaults_that_it_accepts(name: str) -> None:
    m = registry.get(name)
    assert m.description and m.title
    assert m.keywords().get("variant") == m.default_variant
    if m.levels:
        assert m.keywords()["level"] == m.default_level


def test_unknown_metric_and_variant_errors_name_the_parameter() -> None:
    with pytest.raises(ValueError, match="The 'metric' parameter of get must be one of"):
        registry.get("bleu")
    with pytest.raises(ValueError, match="The 'variant' parameter of martino must be one of"):
        registry.get("martino").keywords(variant="x")


@settings(deadline=None, max_examples=300)
@given(st.lists(st.tuples(st.floats(0, 50), st.integers(0, 50), st.floats(0, 50),
                          st.integers(0, 50)), min_size=1, max_size=6),
       st.sampled_from(["official", "mafalda", "zero"]))
def test_prf_and_its_vectorised_twin_agree(rows: list[tuple[float, int, float, int]],
                                           empty: str) -> None:
    import numpy as np

    p, r, f = prf_arrays(np.array(rows, dtype=float), empty=empty)  # type: ignore[arg-type]
    for k, row in enumerate(rows):
        want = prf(*row, empty=empty)  # type: ignore[arg-type]
        assert (p[k], r[k], f[k]) == pytest.approx(tuple(want))
        assert not any(math.isnan(x) for x in want)


# ---- a toy metric, registered here, reaches the CLI and the dashboard ---------------------------


class _ToyResult:
    """Exact-span matching (a span counts when gold holds the same span), pooled."""

    metric = "toy-exact"
    variant = "strict"
    pooled = True

    def __init__(self, gold: AnnotationSet, pred: AnnotationSet) -> None:
        import numpy as np

        from core.metrics.result import pooled_f1

        self.warnings: list[str] = []
        self.docs = list(gold.doc_ids)
        self.rows = [(sum(s in set(gold.get(d)) for s in pred.get(d)), len(pred.get(d)),
                      len(gold.get(d))) for d in self.docs]
        self._np, self._f1 = np, pooled_f1

    precision_numerator = property(lambda self: float(sum(r[0] for r in self.rows)))
    recall_numerator = precision_numerator
    precision_denominator = property(lambda self: float(sum(r[1] for r in self.rows)))
    recall_denominator = property(lambda self: float(sum(r[2] for r in self.rows)))
    precision = property(lambda self: self._prf()[0])
    recall = property(lambda self: self._prf()[1])
    f1 = property(lambda self: self._prf()[2])
    document_ids = property(lambda self: list(self.docs))

    def _prf(self) -> tuple[float, float, float]:
        return prf(self.precision_numerator, self.precision_denominator,
                   self.recall_numerator, self.recall_denominator, empty="official")

    def per_document(self) -> list[DocumentScore]:
        return [DocumentScore(d, *prf(t, n, t, g, empty="official"), t, n, t, g)
                for d, (t, n, g) in zip(self.docs, self.rows, strict=True)]

    def per_label(self) -> dict[str, LabelScore]:
        return {}

    def summary(self) -> dict[str, float]:
        return {}

    def bootstrap_table(self) -> BootstrapTable:
        table = self._np.array([[t, n, t, g] for t, n, g in self.rows], dtype=float)
        return BootstrapTable(tuple(self.docs), table, self._f1)

    def to_dict(self, *, per_document: bool = False) -> dict[str, object]:
        out: dict[str, object] = {"metric": self.metric, "precision": self.precision,
                                  "recall": self.recall, "f1": self.f1,
                                  "warnings": list(self.warnings)}
        if per_document:
            out["per_document"] = [r.to_dict() for r in self.per_document()]
        return out

    def per_document_frame(self) -> object:
        from core.metrics.result import document_frame

        return document_frame(self.per_document())


def _toy_score(gold: AnnotationSet, pred: AnnotationSet, *, variant: str = "strict"
               ) -> _ToyResult:
    return _ToyResult(gold, pred)


@contextmanager
def toy_metric() -> Iterator[registry.Metric]:
    entry = registry.register(registry.Metric(
        name="toy-exact", kind="span", title="Toy exact match",
        description="a toy metric registered by the common tests: exact spans only",
        score=_toy_score, variants=("strict",), options=frozenset({"variant"})))
    try:
        yield entry
    finally:
        registry.unregister("toy-exact")


def test_a_registered_toy_metric_appears_in_score_help_and_scores(
        capsys: pytest.CaptureFixture[str]) -> None:
    with toy_metric():
        with pytest.raises(SystemExit) as exc:
            main(["score", "--help"])
        assert exc.value.code == 0
        help_text = capsys.readouterr().out
        assert "toy-exact" in help_text and "exact spans only" in help_text
        sample = ROOT / "sample_data" / "propaganda"
        code = main(["score", str(sample / "gold.json"), str(sample / "gold.json"),
                     "--metric", "toy-exact", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert code == 0 and out["metric"] == "toy-exact" and out["f1"] == 1.0
    assert "toy-exact" not in registry.names()


def test_a_registered_toy_metric_appears_in_the_dashboards_metric_choice() -> None:
    from streamlit.testing.v1 import AppTest

    from ui import state

    with toy_metric():
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.session_state[state.K_SOURCE] = "sample"
        at.run()
        at.switch_page("pages/scores.py").run()
        assert not at.exception, [e.value for e in at.exception]
        radio = next(r for r in at.radio if r.key == state.K_METRIC)
        assert "toy-exact" in radio.options
        overview = next(df.value for df in at.dataframe if "system" in df.value.columns)
        assert "Toy exact match F1" in overview.columns
        radio.set_value("toy-exact").run()
        assert not at.exception, [e.value for e in at.exception]
        per_doc = next(df.value for df in at.dataframe if "document" in df.value.columns)
        result = _toy_score(*_sample_pair())
        shown = dict(zip(per_doc["document"], per_doc["F1"], strict=True))
        assert shown == pytest.approx({r.document: r.f1 for r in result.per_document()})


def _sample_pair() -> tuple[AnnotationSet, AnnotationSet]:
    from ui import state

    ws = state.load_sample("propaganda")
    gold, system = state.default_pair(ws)
    assert gold and system
    pred = ws.sets[system]
    return ws.sets[gold], AnnotationSet(pred.name, pred.spans, "system", False)
