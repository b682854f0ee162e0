"""The corpus-wide MAFALDA path for texts whose gold spans offer one label and no ⊥ equals the
exact per-text path (issue 15, target 2) to 1e-12, on every text, with alternatives, ⊥ and
texts without gold mixed in."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.mafalda import _texts, score, score_text
from core.model import NOTHING, AnnotationSet, Span, SpanTable, SpanView
from core.model.taxonomy import mafalda

NAMES = mafalda().names()[1:7]  # fallacies of more than one level-1 group
DOCS = ["t1", "t2", "t3", "t4"]


def _set(name: str, docs: dict[str, list[tuple[int, int, str]]], *, alternatives: bool,
         lazy: bool) -> AnnotationSet:
    spans = {d: tuple(sorted(Span(s, s + n, lab) for s, n, lab in docs.get(d, [])))
             for d in DOCS}
    if lazy:
        table = SpanTable.from_spans(spans)
        table = SpanTable.from_columns(table.doc_ids, table.doc, table.start, table.end,
                                       table.label, table.labels)
        return AnnotationSet(name, SpanView(table), alternatives=alternatives)
    return AnnotationSet(name, spans, alternatives=alternatives)


def spans(labels: list[str]) -> st.SearchStrategy[dict[str, list[tuple[int, int, str]]]]:
    one = st.tuples(st.integers(0, 30), st.integers(1, 12), st.sampled_from(labels))
    return st.dictionaries(st.sampled_from(DOCS), st.lists(one, max_size=6))


@settings(max_examples=300, deadline=None)
@given(spans([*NAMES, NOTHING]), spans([*NAMES, NOTHING]), st.booleans(), st.booleans(),
       st.booleans(), st.sampled_from([0, 1, 2]), st.sampled_from(["paper", "metrics-py"]),
       st.booleans())
def test_fast_texts_equal_the_exact_path(gold_docs: dict, pred_docs: dict, alternatives: bool,
                                         lazy_g: bool, lazy_p: bool, level: int, variant: str,
                                         plain_gold: bool) -> None:
    if plain_gold:  # most texts take the fast path: one label per gold span, no ⊥
        gold_docs = {d: [(s, n, lab) for s, n, lab in items if lab != NOTHING]
                     for d, items in gold_docs.items()}
    gold = _set("gold", gold_docs, alternatives=alternatives, lazy=lazy_g)
    pred = _set("pred", pred_docs, alternatives=False, lazy=lazy_p)
    got = score(gold, pred, level=level, variant=variant)
    want = [(doc, score_text(t, variant))
            for doc, t in _texts(gold, pred, {}, mafalda(), level)]
    assert [r.document for r in got.rows] == [d for d, _ in want]
    for row, (_, ts) in zip(got.rows, want, strict=True):
        expected = (ts.precision, ts.recall, ts.f1, ts.label_precision, ts.label_recall,
                    ts.label_f1)
        found = (row.precision, row.recall, row.f1, *(row.extra[k] for k in
                                                      ("label_precision", "label_recall",
                                                       "label_f1")))
        for x, y in zip(found, expected, strict=True):
            assert math.isclose(x, y, rel_tol=0, abs_tol=1e-12), (row.document, found, expected)
