"""The corpus-wide difference reasons (:func:`corpus_difference_reasons`) equal the per-text
function :func:`difference_reasons` on every text: gold with and without alternatives, ⊥ spans and
predictions, duplicates, nested and touching spans, labels grouped at a coarser level."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.differences import corpus_difference_reasons, difference_reasons
from core.model import NOTHING, AltSpan, AnnotationSet, Span, SpanTable, SpanView

LABELS = ["a1", "a2", "b1", "b2", NOTHING]
GROUPS = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", NOTHING: NOTHING}
DOCS = ["d1", "d2", "d3", "d4"]

span_st = st.builds(lambda s, n, lab: Span(s, s + n, lab), st.integers(0, 20),
                    st.integers(1, 10), st.sampled_from(LABELS))
docs_st = st.fixed_dictionaries({d: st.lists(span_st, max_size=6) for d in DOCS})


def _set(name: str, docs: dict[str, list[Span]], alternatives: bool, lazy: bool
         ) -> AnnotationSet:
    spans = {d: tuple(sorted(v)) for d, v in docs.items()}
    if lazy:
        return AnnotationSet(name, SpanView(SpanTable.from_spans(spans)),
                             alternatives=alternatives)
    return AnnotationSet(name, spans, alternatives=alternatives)


@settings(max_examples=300, deadline=None)
@given(docs_st, docs_st, st.booleans(), st.booleans(), st.booleans())
def test_corpus_reasons_equal_the_per_text_reasons(gold_docs: dict[str, list[Span]],
                                                   pred_docs: dict[str, list[Span]],
                                                   alternatives: bool, grouped: bool,
                                                   lazy: bool) -> None:
    gold = _set("gold", gold_docs, alternatives, lazy)
    pred = _set("pred", pred_docs, False, lazy)
    level_labels = GROUPS if grouped else None
    got = corpus_difference_reasons(gold, pred, DOCS, level_labels=level_labels)
    for doc, tags in zip(DOCS, got, strict=True):
        alts = gold.alt_spans(doc) if gold.alternatives else tuple(
            AltSpan(s.start, s.end, (s.label,)) for s in gold.get(doc))
        assert list(tags) == difference_reasons(alts, pred.get(doc),
                                                level_labels=level_labels), doc


def test_no_documents_and_empty_documents() -> None:
    empty = AnnotationSet("g", {})
    assert corpus_difference_reasons(empty, AnnotationSet("p", {}), []) == []
    blank = AnnotationSet("g", {"x": ()}, alternatives=True)
    assert corpus_difference_reasons(blank, AnnotationSet("p", {"x": ()}), ["x"]) == [("empty",)]
