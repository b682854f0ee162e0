"""``core.metrics.nervaluate`` equals the nervaluate package (1.2.1) on random corpora.

The package is a test dependency (requirements-dev.txt); its offsets are inclusive at both ends,
so each span [start, end) is handed to it as (start, end - 1).
"""

from __future__ import annotations

import nervaluate
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.nervaluate import SCHEMAS, score
from core.model import AnnotationSet, Span

PACKAGE_SCHEMA = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
LABELS = ("A", "B", "C")


@st.composite
def spans(draw: st.DrawFn, max_len: int) -> Span:
    start = draw(st.integers(0, 60))
    length = draw(st.integers(1, max_len))
    return Span(start, start + length, draw(st.sampled_from(LABELS)))


@st.composite
def corpora(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    n_docs = draw(st.integers(1, 4))
    # Long spans now and then, so that nervaluate's 1 % overlap threshold is exercised.
    max_len = draw(st.sampled_from((6, 20, 250)))
    gold, pred = {}, {}
    for d in range(n_docs):
        g = draw(st.lists(spans(max_len), max_size=6))
        # Predictions: fresh spans, copies of gold spans (exact matches, duplicates), relabels.
        p = draw(st.lists(spans(max_len), max_size=6))
        if g:
            p += draw(st.lists(st.sampled_from(g), max_size=3))
            p += [Span(s.start, s.end, draw(st.sampled_from(LABELS)))
                  for s in draw(st.lists(st.sampled_from(g), max_size=2))]
        gold[f"d{d}"] = tuple(g)
        pred[f"d{d}"] = tuple(p)
    return AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")


def _package(gold: AnnotationSet, pred: AnnotationSet) -> dict:
    def docs(aset: AnnotationSet) -> list[list[dict]]:
        return [[{"label": s.label, "start": s.start, "end": s.end - 1}
                 for s in sorted(aset.get(d))] for d in gold.doc_ids]

    return nervaluate.Evaluator(docs(gold), docs(pred), tags=list(LABELS),
                                loader="dict").evaluate()


def _same(ours: dict, theirs) -> None:
    for key in ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual"):
        assert ours[key] == getattr(theirs, key), key
    for key in ("precision", "recall", "f1"):
        assert ours[key] == pytest.approx(getattr(theirs, key), abs=1e-12), key


@settings(max_examples=600, deadline=None)
@given(corpora())
def test_schemas_equal_the_nervaluate_package(data: tuple[AnnotationSet, AnnotationSet]) -> None:
    gold, pred = data
    ours = score(gold, pred).to_dict()
    theirs = _package(gold, pred)
    for schema in SCHEMAS:
        _same(ours[schema], theirs["overall"][PACKAGE_SCHEMA[schema]])
        assert set(ours[schema]["per_label"]) == set(theirs["entities"])
        for lab, res in theirs["entities"].items():
            _same(ours[schema]["per_label"][lab], res[PACKAGE_SCHEMA[schema]])


def test_one_character_overlap_with_a_long_gold_span_is_not_an_overlap() -> None:
    gold = AnnotationSet("g", {"d": (Span(0, 200, "A"),)})
    pred = AnnotationSet("p", {"d": (Span(199, 210, "A"),)}, role="system")
    r = score(gold, pred).to_dict()
    # 1/200 = 0.5 % < nervaluate's default 1 %: one miss and one spurious span, no partial.
    assert (r["partial"]["missed"], r["partial"]["spurious"], r["partial"]["partial"]) == (1, 1, 0)
    pred2 = AnnotationSet("p", {"d": (Span(99, 110, "A"),)}, role="system")
    r2 = score(AnnotationSet("g", {"d": (Span(0, 100, "A"),)}), pred2).to_dict()  # 1 %
    assert r2["partial"]["partial"] == 1


def test_duplicate_prediction_is_spurious_once_its_gold_span_is_taken() -> None:
    gold = AnnotationSet("g", {"d": (Span(0, 10, "A"),)})
    pred = AnnotationSet("p", {"d": (Span(0, 10, "A"), Span(0, 10, "A"))}, role="system")
    r = score(gold, pred).to_dict()
    assert (r["strict"]["correct"], r["strict"]["spurious"]) == (1, 1)
    assert r["strict"]["precision"] == 0.5 and r["strict"]["recall"] == 1.0


def test_type_schema_picks_the_gold_span_with_the_closest_boundaries() -> None:
    gold = AnnotationSet("g", {"d": (Span(0, 20, "A"), Span(5, 12, "A"))})
    pred = AnnotationSet("p", {"d": (Span(4, 12, "A"),)}, role="system")
    r = score(gold, pred).to_dict()
    # [5,12) is at distance 1, [0,20) at 12: the pred takes [5,12) and [0,20) is missed.
    assert (r["type"]["correct"], r["type"]["missed"]) == (1, 1)
    assert r["type"]["per_label"]["A"]["correct"] == 1
