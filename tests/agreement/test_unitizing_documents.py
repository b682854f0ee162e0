"""α_U's per-document values computed for all documents at once (``unitizing_documents``, with
``few_parts`` for a category's few units) are the same floats as one document at a time
(``unitizing_document``: ``category_parts`` per document and label)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement import Study, unitizing
from core.metrics.agreement.measures import unitizing_document, unitizing_documents
from core.metrics.agreement.unitizing import category_parts, few_parts
from core.model import AnnotationSet, Span

unit = st.tuples(st.integers(0, 40), st.integers(0, 12))
coder = st.lists(unit, max_size=9)


@settings(max_examples=500, deadline=None)
@given(st.lists(coder, min_size=1, max_size=4), st.integers(0, 60))
def test_few_parts_are_the_floats_of_category_parts(coders: list, extra: int) -> None:
    units = [[(s, s + n) for s, n in c] for c in coders]
    length = max((e for c in units for _, e in c), default=0) + extra
    got = few_parts(units, length)
    want = category_parts(units, 0, length)
    if got is not None:
        assert repr(got) == repr(want)
    else:  # it declines only where it says it does
        assert (len(units) < 2 or length == 0 or want.units >= 8
                or sum(map(len, units)) >= 16)


span = st.tuples(st.integers(0, 30), st.integers(1, 10), st.sampled_from(["A", "B", "C"]))
document = st.lists(span, max_size=7)
annotator = st.dictionaries(st.sampled_from(["d1", "d2", "d3", "d4", "d5"]), document,
                            max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=4), st.sampled_from([None, "A"]),
       st.booleans())
def test_documents_at_once_are_the_floats_of_one_at_a_time(annotators: list,
                                                          label: str | None,
                                                          texts_known: bool) -> None:
    sets = [AnnotationSet(f"a{i}", {d: tuple(Span(s, s + n, lab) for s, n, lab in items)
                                    for d, items in docs.items()}, role="annotator")
            for i, docs in enumerate(annotators)]
    texts = {d: "x" * 45 for d in ("d1", "d2", "d3")} if texts_known else None
    study = Study.from_sets(sets, texts, label=label)
    docs = study.common_docs()
    got = unitizing_documents(study, docs)
    want = [unitizing_document(study, d) for d in docs]
    assert got == want
    assert [repr(a) for a in got] == [repr(a) for a in want]  # the same floats and types
    assert unitizing(study).per_document == dict(zip(docs, want, strict=True))


def test_many_units_go_to_category_parts() -> None:
    many = [[(i, i + 1) for i in range(0, 16, 2)], [(0, 3)]]
    assert few_parts(many, 20) is None
    # overlapping and repeated units are dropped as category_parts drops them
    for coders in ([[(0, 5), (3, 8)], [(0, 2)]], [[(2, 4), (2, 4)], [(0, 2)]]):
        got = few_parts(coders, 10)
        assert got is not None and got.dropped == 1
        assert repr(got) == repr(category_parts(coders, 0, 10))
    study = Study.from_sets(
        [AnnotationSet("p", {"d": tuple(Span(s, e, "x") for s, e in many[0])}),
         AnnotationSet("q", {"d": (Span(0, 5, "x"), Span(3, 8, "x"), Span(3, 8, "y"))})],
        {"d": "z" * 20})
    assert unitizing_documents(study, ["d"]) == [unitizing_document(study, "d")]
