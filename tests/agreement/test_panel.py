"""The annotator panel (core/metrics/agreement/panel.py): majority annotation, any measure over
pairs, each annotator against a reference, documents ranked by disagreement. Expectations are
computed by hand in the comments; the properties compare the majority with a character-by-
character vote."""

from __future__ import annotations

from itertools import pairwise as successive

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement import (
    MEASURES,
    Study,
    against,
    against_majority,
    char_agreement,
    fleiss_text,
    gamma_matrix,
    majority_set,
    pairwise,
    rank_documents,
    span_f1,
    sub_study,
    unitizing,
)
from core.metrics.agreement.panel import _majority_set_columns, _majority_set_per_document
from core.model import AnnotationSet, Span
from core.model.errors import InputError, UsageError


def _set(name: str, spans: dict[str, tuple[Span, ...]], alternatives: bool = False
         ) -> AnnotationSet:
    return AnnotationSet(name, spans, role="annotator", alternatives=alternatives)


# --- majority_set: hand-computed ----------------------------------------------------------------

def test_majority_of_three_keeps_characters_two_annotators_marked() -> None:
    # x votes: [0,2) 1, [2,4) 2, [4,6) 3, [6,8) 2, [8,9) 1 -> two or more on [2, 8); y has 1 vote.
    a = _set("A", {"d": (Span(0, 6, "x"),)})
    b = _set("B", {"d": (Span(2, 8, "x"),)})
    c = _set("C", {"d": (Span(4, 9, "x"), Span(0, 2, "y"))})
    m = majority_set([a, b, c])
    assert m.get("d") == (Span(2, 8, "x"),)
    assert m.role == "gold" and m.name == "majority"
    assert majority_set([a, b, c], min_votes=1).get("d") == (Span(0, 2, "y"), Span(0, 9, "x"))
    assert majority_set([a, b, c], min_votes=3).get("d") == (Span(4, 6, "x"),)


def test_a_tie_of_an_even_panel_is_not_a_majority() -> None:
    # Four annotators, two mark [0, 5): 2 of 4 is not more than half.
    marks = _set("A", {"d": (Span(0, 5, "x"),)}), _set("B", {"d": (Span(0, 5, "x"),)})
    blank = _set("C", {"d": ()}), _set("D", {"d": ()})
    assert majority_set([*marks, *blank]).get("d") == ()
    # Three of four is.
    three = [*marks, _set("C", {"d": (Span(2, 5, "x"),)}), blank[1]]
    assert majority_set(three).get("d") == (Span(2, 5, "x"),)


def test_two_annotators_majority_is_their_intersection() -> None:
    a = _set("A", {"d": (Span(0, 6, "x"),)})
    b = _set("B", {"d": (Span(3, 9, "x"),)})
    assert majority_set([a, b]).get("d") == (Span(3, 6, "x"),)


def test_an_annotator_votes_once_however_many_of_its_spans_cover_a_character() -> None:
    # A's own spans overlap on [3, 5); that is still one vote, and B marked nothing.
    a = _set("A", {"d": (Span(0, 5, "x"), Span(3, 8, "x"))})
    b = _set("B", {"d": ()})
    assert majority_set([a, b], min_votes=2).get("d") == ()
    assert majority_set([a, b], min_votes=1).get("d") == (Span(0, 8, "x"),)


def test_touching_runs_of_one_label_are_one_span_and_labels_stay_apart() -> None:
    a = _set("A", {"d": (Span(0, 3, "x"), Span(3, 6, "x"), Span(0, 6, "y"))})
    b = _set("B", {"d": (Span(0, 6, "x"), Span(0, 6, "y"))})
    assert majority_set([a, b]).get("d") == (Span(0, 6, "x"), Span(0, 6, "y"))


def test_a_missing_document_is_no_vote_against() -> None:
    # e is listed by B and C only: its majority needs 2 of those 2 (not 2 of 3).
    a = _set("A", {"d": (Span(0, 4, "x"),)})
    b = _set("B", {"d": (Span(0, 4, "x"),), "e": (Span(0, 4, "x"),)})
    c = _set("C", {"d": (), "e": (Span(1, 4, "x"),)})
    m = majority_set([a, b, c])
    assert m.get("d") == (Span(0, 4, "x"),)
    assert m.get("e") == (Span(1, 4, "x"),)
    assert m.doc_ids == ["d", "e"]


def test_label_filter_and_mafalda_nothing_marker() -> None:
    a = _set("A", {"d": (Span(0, 4, "x"), Span(0, 4, "nothing"), Span(5, 9, "y"))},
             alternatives=True)
    b = _set("B", {"d": (Span(0, 4, "x"), Span(0, 4, "nothing"), Span(5, 9, "y"))},
             alternatives=True)
    assert majority_set([a, b]).get("d") == (Span(0, 4, "x"), Span(5, 9, "y"))
    assert majority_set([a, b], label="y").get("d") == (Span(5, 9, "y"),)


@pytest.mark.parametrize("bad", [0, -1, True, 1.5])
def test_min_votes_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(UsageError, match="The 'min_votes' parameter of majority_set must be"):
        majority_set([_set("A", {})], min_votes=bad)  # type: ignore[arg-type]


def test_majority_of_no_set_is_an_input_error() -> None:
    with pytest.raises(InputError, match="at least one annotation set"):
        majority_set([])


# --- majority_set: properties ------------------------------------------------------------------

LABELS = ["x", "y"]
span_st = st.builds(lambda s, n, lab: Span(s, s + n, lab), st.integers(0, 30),
                    st.integers(1, 12), st.sampled_from(LABELS))
docset_st = st.dictionaries(st.sampled_from(["d1", "d2"]),
                            st.lists(span_st, max_size=5).map(lambda v: tuple(sorted(set(v)))),
                            min_size=1)


def _votes(sets: list[AnnotationSet], doc: str, label: str) -> list[int]:
    votes = [0] * 50
    for s in sets:
        covered = {i for sp in s.get(doc) if sp.label == label for i in range(sp.start, sp.end)}
        for i in covered:
            votes[i] += 1
    return votes


def _mask(spans: tuple[Span, ...], label: str) -> list[bool]:
    mask = [False] * 50
    for sp in spans:
        if sp.label == label:
            for i in range(sp.start, sp.end):
                mask[i] = True
    return mask


def _merged(aset: AnnotationSet) -> dict[str, tuple[Span, ...]]:
    return {d: majority_set([aset], min_votes=1).get(d) for d in aset.spans}


@settings(max_examples=150, deadline=None)
@given(st.lists(docset_st, min_size=1, max_size=4), st.data())
def test_majority_equals_a_character_by_character_vote(docsets, data) -> None:
    sets = [_set(f"A{i}", spans) for i, spans in enumerate(docsets)]
    min_votes = data.draw(st.one_of(st.none(), st.integers(1, len(sets))))
    m = majority_set(sets, min_votes=min_votes)
    for doc in m.spans:
        listing = [s for s in sets if doc in s.spans]
        need = min_votes if min_votes is not None else len(listing) // 2 + 1
        for label in LABELS:
            want = [v >= need for v in _votes(listing, doc, label)]
            assert _mask(m.get(doc), label) == want
        # Maximal runs: no two spans of one label overlap or touch.
        for label in LABELS:
            runs = [sp for sp in m.get(doc) if sp.label == label]
            assert all(p.end < q.start for p, q in successive(runs))


@settings(max_examples=100, deadline=None)
@given(docset_st, st.integers(1, 4))
def test_majority_of_identical_sets_is_that_set_merged_per_label(spans, copies) -> None:
    one = _set("A", spans)
    sets = [_set(f"A{i}", spans) for i in range(copies)]
    assert majority_set(sets).spans == _merged(one)
    assert majority_set([one]).spans == _merged(one)


@settings(max_examples=100, deadline=None)
@given(st.lists(docset_st, min_size=2, max_size=4), st.randoms(use_true_random=False))
def test_majority_does_not_depend_on_the_order_of_annotators(docsets, rnd) -> None:
    sets = [_set(f"A{i}", spans) for i, spans in enumerate(docsets)]
    shuffled = list(sets)
    rnd.shuffle(shuffled)
    assert majority_set(sets).spans == majority_set(shuffled).spans


@settings(max_examples=200, deadline=None)
@given(st.lists(docset_st, min_size=1, max_size=5), st.data())
def test_majority_from_columns_equals_the_per_document_vote(docsets, data) -> None:
    sets = [_set(f"A{i}", spans) for i, spans in enumerate(docsets)]
    min_votes = data.draw(st.one_of(st.none(), st.integers(1, len(sets) + 1)))
    label = data.draw(st.one_of(st.none(), st.sampled_from([*LABELS, "unused"])))
    fast = _majority_set_columns(sets, label=label, min_votes=min_votes, name="m")
    reference = _majority_set_per_document(sets, label=label, min_votes=min_votes, name="m")
    assert list(fast.spans.items()) == list(reference.spans.items())
    assert (fast.name, fast.role) == (reference.name, reference.role)


# --- pairwise ----------------------------------------------------------------------------------

def _panel() -> tuple[list[AnnotationSet], dict[str, str | None]]:
    texts: dict[str, str | None] = {"d1": "a" * 30, "d2": "b" * 30}
    a = _set("A", {"d1": (Span(0, 10, "x"), Span(15, 25, "y")), "d2": (Span(0, 8, "x"),)})
    b = _set("B", {"d1": (Span(2, 10, "x"), Span(15, 22, "y")), "d2": (Span(20, 28, "y"),)})
    c = _set("C", {"d1": (Span(0, 12, "x"),), "d2": (Span(0, 6, "x"),)})
    return [a, b, c], texts


def test_pairwise_of_a_pairwise_measure_is_that_measure() -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    kappa, _ = char_agreement(s)
    assert pairwise(s, "char-kappa").matrix() == kappa.matrix()
    f1 = pairwise(s, "span-f1")
    assert not f1.symmetric and f1.matrix() == span_f1(s).matrix()


def test_pairwise_fleiss_of_two_annotators_matches_hand_computation() -> None:
    # Items (doc, label): (d1,x) both present, (d1,y) both absent, (d2,x) A absent B present,
    # (d2,y) both absent. P̄ = (1 + 1 + 0 + 1) / 4 = 0.75; p_present = 3/8, P_e = 34/64;
    # κ = (0.75 − 0.53125) / (1 − 0.53125) = 7/15.
    a = _set("A", {"d1": (Span(0, 3, "x"),), "d2": ()})
    b = _set("B", {"d1": (Span(0, 3, "x"),), "d2": (Span(1, 2, "x"),)})
    c = _set("C", {"d1": (Span(0, 3, "y"),), "d2": ()})
    s = Study.from_sets([a, b, c])
    m = pairwise(s, "fleiss-kappa")
    # The label list is the whole study's (x and y), as in the hand computation.
    assert m.matrix()["A"]["B"] == pytest.approx(7 / 15)
    assert m.matrix()["B"]["A"] == pytest.approx(7 / 15)
    assert m.pairs[("A", "B")].overall.value == fleiss_text(sub_study(s, ["A", "B"])
                                                            ).overall.value
    assert m.matrix()["A"]["A"] is None


def test_pairwise_gamma_is_the_two_annotator_gamma_and_reports_progress() -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    seen: list[tuple[int, int]] = []
    m = pairwise(s, "gamma", samples=5, seed=3, progress=lambda d, t: seen.append((d, t)))
    ref = gamma_matrix(s, samples=5, seed=3)
    for (a, b), pv in ref.pairs.items():
        assert m.pairs[(a, b)].overall.value == pytest.approx(pv.overall.value)
    assert m.params["samples"] == 5 and m.params["seed"] == 3
    assert seen[-1][0] == seen[-1][1]
    assert all(x[0] <= y[0] for x, y in successive(seen))


def test_pairwise_unitizing_per_pair_equals_unitizing_of_the_pair() -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    m = pairwise(s, "unitizing-alpha")
    assert m.pairs[("B", "C")].overall.value == unitizing(sub_study(s, ["B", "C"])
                                                          ).overall.value


@pytest.mark.parametrize("measure", MEASURES)
def test_every_measure_gives_a_matrix_over_every_pair(measure: str) -> None:
    sets, texts = _panel()
    m = pairwise(Study.from_sets(sets, texts), measure, samples=3)
    n_pairs = 6 if not m.symmetric else 3
    assert len(m.pairs) == n_pairs
    assert set(m.matrix()) == {"A", "B", "C"}


def test_pairwise_rejects_an_unknown_measure_and_a_single_annotator() -> None:
    sets, texts = _panel()
    with pytest.raises(UsageError, match="The 'measure' parameter of pairwise must be one of"):
        pairwise(Study.from_sets(sets, texts), "mega")
    with pytest.raises(InputError, match="at least two annotators"):
        pairwise(Study.from_sets(sets[:1], texts), "char-kappa")


# --- against a reference -----------------------------------------------------------------------

def test_span_f1_against_gold_takes_the_gold_as_reference() -> None:
    # gold [0,10) x, A [0,5) x: P = 5/5 = 1, R = 5/10 = 0.5, F1 = 2/3.
    g = AnnotationSet("gold", {"d": (Span(0, 10, "x"),)})
    a = _set("A", {"d": (Span(0, 5, "x"),)})
    r = against(Study.from_sets([g, a], {"d": "x" * 12}), "gold", measure="span-f1")
    assert r["A"].extra["precision"].value == pytest.approx(1.0)
    assert r["A"].extra["recall"].value == pytest.approx(0.5)
    assert r["A"].overall.value == pytest.approx(2 / 3)


def test_span_f1_against_scores_only_the_reference_direction() -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    full = span_f1(s)
    one = span_f1(s, only=[("A", "C")])
    assert list(one.pairs) == [("A", "C")]
    assert one.pairs[("A", "C")].overall == full.pairs[("A", "C")].overall
    r = against(s, "A", measure="span-f1")
    assert r["B"].extra["precision"] == full.pairs[("A", "B")].extra["precision"]
    assert r["C"].overall == full.pairs[("A", "C")].overall


def test_char_kappa_against_gold_matches_hand_computation() -> None:
    # 12 characters; gold [0,10), A [0,5): n11 5, n10 5, n01 0, n00 2 → p_o 7/12,
    # p_e (10·5 + 2·7)/144 = 4/9 → κ = (7/12 − 4/9) / (5/9) = 0.25.
    g = AnnotationSet("gold", {"d": (Span(0, 10, "x"),)})
    a = _set("A", {"d": (Span(0, 5, "x"),)})
    b = _set("B", {"d": (Span(0, 10, "x"),)})
    r = against(Study.from_sets([g, a, b], {"d": "x" * 12}), "gold", measure="char-kappa")
    assert list(r) == ["A", "B"]
    assert r["A"].overall.value == pytest.approx(0.25)
    assert r["B"].overall.value == pytest.approx(1.0)


def test_unitizing_against_a_reference_skips_only_the_per_document_values() -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    r = against(s, "A", measure="unitizing-alpha")
    for other in ("B", "C"):
        full = unitizing(sub_study(s, ["A", other]))
        assert r[other].overall == full.overall
        assert r[other].per_label == full.per_label
        assert r[other].per_document == {} and full.per_document
    assert unitizing(s, per_document=False).overall == unitizing(s).overall


@pytest.mark.parametrize("measure", ["char-kappa", "char-jaccard"])
def test_char_measures_against_a_reference_skip_only_the_per_document_values(measure) -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    r = against(s, "A", measure=measure)
    for other in ("B", "C"):
        kappa, jaccard = char_agreement(sub_study(s, ["A", other]))
        full = (kappa if measure == "char-kappa" else jaccard).pairs[("A", other)]
        assert (r[other].overall, r[other].per_label, r[other].extra) == (
            full.overall, full.per_label, full.extra)
        assert r[other].per_document == {} and full.per_document
    # the pairwise matrix keeps them (the ranking of documents needs them)
    kappa, jaccard = char_agreement(s)
    assert pairwise(s, measure) == (kappa if measure == "char-kappa" else jaccard)


def test_char_agreement_leaves_out_only_the_per_document_values_asked() -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    kappa, jaccard = char_agreement(s)
    k_only, j_none = char_agreement(s, per_document=(True, False))
    assert k_only == kappa
    for key, pv in jaccard.pairs.items():
        assert j_none.pairs[key].per_document == {} and pv.per_document
        assert (j_none.pairs[key].overall, j_none.pairs[key].per_label,
                j_none.pairs[key].extra) == (pv.overall, pv.per_label, pv.extra)


def test_against_an_unknown_reference_is_an_input_error() -> None:
    sets, texts = _panel()
    with pytest.raises(InputError, match="no annotator 'gold'"):
        against(Study.from_sets(sets, texts), "gold", measure="char-kappa")


def test_against_majority_scores_each_annotator_against_the_vote() -> None:
    # A and B agree on [0, 10); C marks [5, 10). Majority = [0, 10): A and B match it exactly;
    # C's Jaccard is 5/10. Leaving one out: A against maj(B, C) = [5, 10) → 0.5.
    texts: dict[str, str | None] = {"d": "z" * 20}
    a = _set("A", {"d": (Span(0, 10, "x"),)})
    b = _set("B", {"d": (Span(0, 10, "x"),)})
    c = _set("C", {"d": (Span(5, 10, "x"),)})
    r = against_majority([a, b, c], texts, measure="char-jaccard")
    assert [r[n].overall.value for n in "ABC"] == pytest.approx([1.0, 1.0, 0.5])
    loo = against_majority([a, b, c], texts, measure="char-jaccard", leave_one_out=True)
    assert loo["A"].overall.value == pytest.approx(0.5)
    assert loo["C"].overall.value == pytest.approx(0.5)  # maj(A, B) = [0, 10)


def test_against_majority_keeps_a_set_named_majority_apart() -> None:
    texts: dict[str, str | None] = {"d": "z" * 20}
    m = _set("majority", {"d": (Span(0, 10, "x"),)})
    b = _set("B", {"d": (Span(0, 10, "x"),)})
    r = against_majority([m, b], texts, measure="span-f1")
    assert set(r) == {"majority", "B"}
    assert r["majority"].overall.value == pytest.approx(1.0)


# --- documents by disagreement -----------------------------------------------------------------

def test_rank_documents_puts_the_least_agreement_first_and_names_the_worst_pair() -> None:
    sets, texts = _panel()
    s = Study.from_sets(sets, texts)
    _, jac = char_agreement(s)
    rows = rank_documents(jac)
    means = dict(jac.document_ranking())
    assert [r.doc for r in rows] == sorted(means, key=means.get)
    for r in rows:
        assert r.value == pytest.approx(means[r.doc])
        worst = min(jac.pairs.items(), key=lambda kv: kv[1].per_document[r.doc].value)
        assert r.pair == worst[0]
        assert r.pair_value == pytest.approx(worst[1].per_document[r.doc].value)
        assert r.pairs == 3
    # d2: A and B share no character → the A/B pair (Jaccard 0) is the worst there.
    d2 = next(r for r in rows if r.doc == "d2")
    assert d2.pair == ("A", "B") and d2.pair_value == 0.0


def test_rank_documents_takes_the_many_annotator_value_and_puts_undefined_last() -> None:
    texts: dict[str, str | None] = {"d1": "a" * 10, "d2": "b" * 10, "d3": "c" * 10}
    a = _set("A", {"d1": (Span(0, 5, "x"),), "d2": (), "d3": (Span(0, 2, "x"),)})
    b = _set("B", {"d1": (Span(0, 5, "x"),), "d2": (), "d3": (Span(5, 9, "x"),)})
    c = _set("C", {"d1": (Span(0, 4, "x"),), "d3": (Span(0, 3, "x"),)})  # d2 missing
    s = Study.from_sets([a, b, c], texts)
    many = unitizing(s)
    rows = rank_documents(pairwise(s, "unitizing-alpha"), many)
    assert [r.doc for r in rows] == ["d3", "d1", "d2"]
    assert rows[0].value == many.per_document["d3"].value
    assert rows[-1].value is None and "not every annotator" in (rows[-1].reason or "")
    with pytest.raises(InputError):
        rank_documents()
