"""Issue 29: the char-κ/Jaccard comparisons against one reference from the study's own pairs,
and the ranking of documents from arrays, give the floats of the ways they replaced."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement import char_agreement, pairwise
from core.metrics.agreement.coefficients import Agreement, undefined
from core.metrics.agreement.measures import ManyResult, PairValue, PairwiseResult
from core.metrics.agreement.panel import (
    _rank_documents_loop,
    against,
    rank_documents,
    sub_study,
)
from core.metrics.agreement.study import CharSides, Study, char_counts
from core.model import NOTHING, AnnotationSet, Span

span = st.tuples(st.integers(0, 30), st.integers(1, 12), st.sampled_from(["A", "B", "C", NOTHING]))
annotator = st.dictionaries(st.sampled_from(["d1", "d2", "d3", "d4", "d5"]),
                            st.lists(span, max_size=5), max_size=5)


def _set(name: str, docs: Mapping[str, list[tuple[int, int, str]]]) -> AnnotationSet:
    return AnnotationSet(name, {d: tuple(Span(s, s + n, lab) for s, n, lab in items)
                                for d, items in docs.items()}, role="annotator")


def _values(pv: PairValue) -> str:
    return repr((pv.overall, pv.per_label, pv.per_document, pv.extra))


@settings(max_examples=200, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=4), st.sampled_from([None, "A", "C"]),
       st.sampled_from(["char-kappa", "char-jaccard"]), st.booleans())
def test_against_from_the_study_equals_each_pair_alone(annotators: list, label: str | None,
                                                       measure: str, texts_known: bool) -> None:
    sets = [_set(f"a{i}", docs) for i, docs in enumerate(annotators)]
    texts = {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None
    study = Study.from_sets(sets, texts, label=label)
    reference = study.annotators[0]
    got = against(study, reference, measure=measure)
    for a in study.annotators[1:]:
        alone = pairwise(sub_study(study, [reference, a]), measure, per_document=False)
        assert _values(got[a]) == _values(alone.pairs[(reference, a)])
    # the counts with one CharSides shared by every pair equal those of each pair alone
    sides = CharSides(study)
    for i, a in enumerate(study.annotators):
        for b in study.annotators[i + 1:]:
            docs, counts = char_counts(study, a, b, sides)
            docs_alone, counts_alone = char_counts(sub_study(study, [a, b]), a, b)
            assert docs == docs_alone == study.common_docs([a, b])
            assert counts.tolist() == counts_alone.tolist()


def _rows(rows: list) -> str:
    return repr(rows)


value = st.one_of(st.none(), st.floats(-1.0, 1.0), st.sampled_from([0.0, -0.0, 0.5, 1.0]))
per_pair = st.dictionaries(st.sampled_from([f"d{i}" for i in range(8)]), value, max_size=8)


def _agreement(v: float | None, doc: str) -> Agreement:
    return Agreement(v) if v is not None else undefined(f"nothing in {doc}")


@settings(max_examples=300, deadline=None)
@given(st.lists(per_pair, min_size=0, max_size=9),
       st.one_of(st.none(), st.dictionaries(st.sampled_from([f"d{i}" for i in range(10)]),
                                            value, max_size=10)),
       st.booleans())
def test_ranking_from_arrays_equals_one_document_at_a_time(pairs: list, many: dict | None,
                                                           with_pairs: bool) -> None:
    names = [f"x{i}" for i in range(len(pairs) + 1)]
    pw = PairwiseResult("char-kappa", names, {
        (names[0], names[k + 1]): PairValue(undefined("-"), per_document={
            d: _agreement(v, d) for d, v in values.items()}) for k, values in enumerate(pairs)})
    mr = None if many is None else ManyResult("fleiss-kappa", names, undefined("-"), per_document={
        d: _agreement(v, d) for d, v in many.items()})
    if mr is None and not with_pairs:
        with_pairs = True
    got = rank_documents(pw if with_pairs else None, mr)
    assert _rows(got) == _rows(_rank_documents_loop(pw if with_pairs else None, mr))


def test_ranking_of_char_kappa_equals_one_document_at_a_time() -> None:
    a = _set("A", {"d": [(0, 6, "A")], "e": [(0, 4, "B")], "f": []})
    b = _set("B", {"d": [(2, 6, "A")], "e": [(0, 4, "B")], "f": []})
    c = _set("C", {"d": [(4, 5, "A"), (0, 2, "C")], "e": [(1, 3, "B")]})
    kappa, jaccard = char_agreement(Study.from_sets([a, b, c], {"d": "x" * 12, "e": "y" * 6,
                                                                "f": "z" * 3}))
    for res in (kappa, jaccard):
        got = rank_documents(res)
        assert repr(got) == repr(_rank_documents_loop(res))
        assert [r.doc for r in got][-1] == "f"  # undefined for every pair: last
        assert got[-1].reason is not None and got[-1].pairs == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=4), st.sampled_from([None, "A", "C"]),
       st.booleans())
def test_counts_from_merged_runs_equal_those_from_span_events(annotators: list,
                                                              label: str | None,
                                                              texts_known: bool) -> None:
    sets = [_set(f"a{i}", docs) for i, docs in enumerate(annotators)]
    texts = {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None
    study = Study.from_sets(sets, texts, label=label)
    runs, events = CharSides(study), CharSides(study, merge_runs=False)
    for i, a in enumerate(study.annotators):
        for b in study.annotators[i + 1:]:
            docs, counts = char_counts(study, a, b, runs)
            docs_events, counts_events = char_counts(study, a, b, events)
            assert docs == docs_events
            assert counts.tolist() == counts_events.tolist()
