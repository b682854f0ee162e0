"""The vectorised corpus path of :func:`core.metrics.mafalda.score` equals the per-text reference
(:func:`core.metrics.mafalda._score_reference`, :func:`score_text`) on random corpora with and
without alternatives, optional (⊥) spans, ``nothing`` and ``unknown`` predictions, every variant
and level, to 1e-12 per text (docs/performance.md, "Metrics at scale")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.mafalda import LEVELS, VARIANTS, _score_reference, score
from core.model import NOTHING, AnnotationSet, Span
from core.model.errors import SpanScopeError
from core.model.taxonomy import mafalda

NAMES = mafalda().names()[1:24]
# Few labels and short texts, so that spans overlap, share labels and offer several alternatives.
GOLD_LABELS = [*NAMES[:2], NAMES[5], NAMES[17], NOTHING]
PRED_LABELS = [*GOLD_LABELS, "unknown"]


@st.composite
def corpora(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet, dict[str, str | None]]:
    n_docs = draw(st.integers(1, 6))
    gold: dict[str, tuple[Span, ...]] = {}
    pred: dict[str, tuple[Span, ...]] = {}
    texts: dict[str, str | None] = {}
    for d in range(n_docs):
        g: list[Span] = []
        for _ in range(draw(st.integers(0, 5))):
            start = draw(st.integers(0, 30))
            end = start + draw(st.integers(1, 15))
            for lab in draw(st.lists(st.sampled_from(GOLD_LABELS), min_size=1, max_size=3)):
                g.append(Span(start, end, lab))
        p: list[Span] = []
        for _ in range(draw(st.integers(0, 5))):
            start = draw(st.integers(0, 30))
            p.append(Span(start, start + draw(st.integers(1, 15)),
                          draw(st.sampled_from(PRED_LABELS))))
        gold[f"d{d}"] = tuple(draw(st.permutations(g)))
        pred[f"d{d}"] = tuple(p)
        texts[f"d{d}"] = draw(st.sampled_from([None, "x" * 20, "x" * 60]))
    # Without ``alternatives`` every gold row is its own span, duplicates included.
    return (AnnotationSet("gold", gold, alternatives=draw(st.booleans())),
            AnnotationSet("pred", pred, role="system"), texts)


def _rows(result: object) -> list[tuple[object, ...]]:
    return [(d.document, d.precision, d.recall, d.f1, *d.extra.values())
            for d in result.per_document()]  # type: ignore[attr-defined]


def _assert_same(gold: AnnotationSet, pred: AnnotationSet, texts: dict[str, str | None],
                 variant: str, level: int) -> None:
    got = score(gold, pred, variant=variant, level=level, texts=texts)
    want = _score_reference(gold, pred, variant=variant, level=level, texts=texts)
    for a, b in zip(_rows(got), _rows(want), strict=True):
        assert a[0] == b[0]
        assert a[1:] == pytest.approx(b[1:], abs=1e-12, rel=0), (variant, level, a, b)
    assert (got.precision, got.recall, got.f1) == pytest.approx(
        (want.precision, want.recall, want.f1), abs=1e-12, rel=0)


@settings(max_examples=400, deadline=None)
@given(corpora(), st.sampled_from(VARIANTS), st.sampled_from(LEVELS))
def test_vectorised_equals_reference(case: tuple[AnnotationSet, AnnotationSet,
                                                 dict[str, str | None]],
                                     variant: str, level: int) -> None:
    gold, pred, texts = case
    _assert_same(gold, pred, texts, variant, level)


def test_coupled_and_multi_label_texts_take_the_per_text_path() -> None:
    """A prediction over two gold spans that each could take two predicted labels, and a gold
    span with two fallacy labels: both need a search, and both give the reference's numbers."""
    a, b = NAMES[0], NAMES[1]
    gold = AnnotationSet("g", {"x": (Span(0, 10, a), Span(0, 10, b), Span(10, 20, a),
                                     Span(10, 20, b)), "y": ()}, alternatives=True)
    pred = AnnotationSet("p", {"x": (Span(5, 15, a), Span(0, 4, b), Span(16, 20, b)),
                               "y": (Span(0, 3, NOTHING),)}, role="system")
    for variant in VARIANTS:
        for level in LEVELS:
            _assert_same(gold, pred, {}, variant, level)
    r = score(gold, pred)
    assert r.per_document()[1].precision == 1.0  # only ⊥ predicted on a text without gold


def test_empty_corpus_and_unknown_gold_label() -> None:
    empty = AnnotationSet("g", {}, alternatives=True)
    assert score(empty, AnnotationSet("p", {}, role="system")).f1 == 0.0
    bad = AnnotationSet("g", {"x": (Span(0, 3, "no such fallacy"),)}, alternatives=True)
    with pytest.raises(SpanScopeError):
        _score_reference(bad, AnnotationSet("p", {"x": ()}, role="system"))
    with pytest.raises(SpanScopeError):
        score(bad, AnnotationSet("p", {"x": ()}, role="system"))
