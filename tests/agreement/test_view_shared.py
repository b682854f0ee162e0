"""Issue 29: char-κ and char-Jaccard's view with one set of runs for every comparison (the
majority voted from the sets' merged runs, the gold's pairs taken from the matrix) gives the
floats of the general way: :func:`majority_set`, a study of it, and a study of the gold; and
each set against a reference leaves out only the per-document values."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement import compute, measure_view, pairwise, panel
from core.metrics.agreement.measures import ManyResult, PairwiseResult
from core.metrics.agreement.panel import against, majority_set, sub_study
from core.metrics.agreement.study import CharSides, Study
from core.model import AnnotationSet, Span

span = st.tuples(st.integers(0, 30), st.integers(1, 12), st.sampled_from(["A", "B", "C"]))
annotator = st.dictionaries(st.sampled_from(["d1", "d2", "d3", "d4", "d5"]),
                            st.lists(span, max_size=5), max_size=5)


def _set(name: str, docs: Mapping[str, list[tuple[int, int, str]]], role: str = "annotator"
         ) -> AnnotationSet:
    return AnnotationSet(name, {d: tuple(sorted(Span(s, s + n, lab) for s, n, lab in items))
                                for d, items in docs.items()}, role=role)  # type: ignore[arg-type]


def _general(**kwargs: object) -> panel.MeasureView:
    """:func:`measure_view` the general way (the character view turned off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(panel, "_char_view", lambda *a, **k: None)
        return measure_view(**kwargs)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=5), st.sampled_from([None, "A", "C"]),
       st.booleans())
def test_majority_runs_equal_the_runs_of_the_majority_set(annotators: list, label: str | None,
                                                          texts_known: bool) -> None:
    sets = [_set(f"a{i}", docs) for i, docs in enumerate(annotators)]
    texts = {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None
    study = Study.from_sets(sets, texts, label=label)
    sides = CharSides(study)
    assert sides.majority("majority", study.annotators)
    maj = majority_set(sets, label=label, name="majority")
    mstudy = Study.from_sets([maj, *sets], texts, label=label)
    # the study with the majority has the same documents, labels and lengths
    assert (mstudy.docs, mstudy.labels, mstudy.lengths) == (study.docs, study.labels,
                                                            study.lengths)
    key, place = sides.runs("majority")  # type: ignore[misc]
    want_key, want_place = CharSides(mstudy).runs("majority")  # type: ignore[misc]
    assert key.tolist() == want_key.tolist()
    assert place.tolist() == want_place.tolist()
    assert sides.listed("majority").all()


@settings(max_examples=300, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=4), annotator,
       st.sampled_from([None, "A", "C"]), st.sampled_from(["char-kappa", "char-jaccard"]),
       st.sampled_from(["first", "apart", "second", "none"]), st.booleans(), st.booleans())
def test_char_view_equals_the_general_way(annotators: list, gold_docs: dict, label: str | None,
                                          measure: str, gold_where: str, texts_known: bool,
                                          a_set_named_majority: bool) -> None:
    sets = [_set("majority" if a_set_named_majority and i == 1 else f"a{i}", docs)
            for i, docs in enumerate(annotators)]
    texts = {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None
    gold = None
    if gold_where == "first":
        gold = sets[0]
    elif gold_where == "second":
        gold = sets[1]
    elif gold_where == "apart":
        gold = _set("gold", gold_docs, role="gold")
    kwargs = dict(sets=sets, texts=texts, measure=measure, label=label, gold=gold)
    assert repr(measure_view(**kwargs)) == repr(_general(**kwargs))  # type: ignore[arg-type]


def test_the_gold_first_among_the_sets_takes_its_pairs_from_the_matrix() -> None:
    gold = _set("gold", {"d": [(0, 6, "A")], "e": [(0, 4, "B")]}, role="gold")
    a = _set("A", {"d": [(2, 6, "A")], "e": [(0, 4, "B")]})
    b = _set("B", {"d": [(4, 5, "A"), (0, 2, "C")], "e": [(1, 3, "B")]})
    texts: dict[str, str | None] = {"d": "x" * 12, "e": "y" * 6}
    view = measure_view([gold, a, b], texts, measure="char-kappa", gold=gold)
    assert repr(view) == repr(_general(sets=[gold, a, b], texts=texts, measure="char-kappa",
                                       gold=gold))
    for name in ("A", "B"):
        pv = view.pairwise.pairs[("gold", name)]
        assert view.gold is not None and view.gold[name].overall == pv.overall
        assert view.gold[name].per_document == {} and pv.per_document


NOT_GAMMA = ("span-f1", "exact-f1", "mafalda-f1", "char-kappa", "char-jaccard", "text-kappa",
             "fleiss-kappa", "krippendorff-alpha", "unitizing-alpha")


def _without_documents(pv: object) -> str:
    return repr((pv.overall, pv.per_label, pv.extra))  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=3), st.sampled_from([None, "A"]),
       st.sampled_from(NOT_GAMMA), st.booleans())
def test_against_leaves_out_only_the_per_document_values(annotators: list, label: str | None,
                                                         measure: str, texts_known: bool
                                                         ) -> None:
    sets = [_set(f"a{i}", docs) for i, docs in enumerate(annotators)]
    texts = {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None
    study = Study.from_sets(sets, texts, label=label)
    reference = study.annotators[0]
    got = against(study, reference, measure=measure)
    for a in study.annotators[1:]:
        alone = pairwise(sub_study(study, [reference, a]), measure)
        whole = alone.pairs.get((reference, a)) or alone.pairs[(a, reference)]
        assert got[a].per_document == {}
        assert _without_documents(got[a]) == _without_documents(whole)
    # and so does each measure asked for no per-document values
    full, lean = compute(study, measure), compute(study, measure, per_document=False)
    if isinstance(full, PairwiseResult):
        assert isinstance(lean, PairwiseResult) and full.pairs.keys() == lean.pairs.keys()
        for key, pv in full.pairs.items():
            assert lean.pairs[key].per_document == {}
            assert _without_documents(lean.pairs[key]) == _without_documents(pv)
    else:
        assert isinstance(lean, ManyResult) and lean.per_document == {}
        assert repr((lean.overall, lean.per_label, lean.params)) == repr(
            (full.overall, full.per_label, full.params))


@settings(max_examples=40, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=3), annotator, st.sampled_from([None, "A"]),
       st.permutations(NOT_GAMMA), st.booleans(), st.booleans())
def test_views_with_what_is_kept_between_them_equal_each_alone(
        annotators: list, gold_docs: dict, label: str | None, measures: list,
        leave_one_out: bool, gold_first: bool) -> None:
    sets = [_set(f"a{i}", docs) for i, docs in enumerate(annotators)]
    gold = sets[0] if gold_first else _set("gold", gold_docs, role="gold")
    texts: dict[str, str | None] = {d: "x" * 50 for d in ("d1", "d2", "d3")}
    shared = panel.Shared()
    for measure in [*measures, *measures[:3]]:  # again: everything from what is kept
        kwargs = dict(sets=sets, texts=texts, measure=measure, label=label, gold=gold,
                      leave_one_out=leave_one_out)
        assert repr(measure_view(**kwargs, shared=shared)) == repr(
            measure_view(**kwargs))


def test_the_study_and_the_majority_are_built_once_for_every_measure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    a = _set("A", {"d": [(0, 6, "A")], "e": [(0, 4, "B")]})
    b = _set("B", {"d": [(2, 6, "A")], "e": [(0, 4, "B")]})
    c = _set("C", {"d": [(4, 5, "A"), (0, 2, "C")]})
    built: list[str] = []
    from_sets = Study.from_sets.__func__  # type: ignore[attr-defined]

    def counted(cls: type, sets: list, *args: object, **kwargs: object) -> Study:
        built.append("study")
        return from_sets(cls, sets, *args, **kwargs)

    monkeypatch.setattr(Study, "from_sets", classmethod(counted))
    shared = panel.Shared()
    for measure in NOT_GAMMA:
        measure_view([a, b, c], None, measure=measure, gold=a, shared=shared)
    # the sets' study, then the majority's (the character measures need none), and exact-f1's
    # majority of instances (bugleft15 item 5: a character majority joins touching spans)
    assert built == ["study", "study", "study"]
    assert len(shared._kept) <= panel.Shared.size
