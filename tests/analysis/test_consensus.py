"""Consensus rules: hand-worked ties and conflicts, and the properties the module docstring
states (k = 1 union, k = n intersection, a set against itself, annotator order)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis.consensus import (
    MATCHES,
    Override,
    consensus,
    curated_set,
    decisions_csv,
    read_decisions,
)
from core.model import AnnotationSet, Span
from core.model.errors import FormatError, InputError, UsageError

LABELS = ("x", "y")
TEXT_LEN = 40


def ann(name: str, *spans: Span, doc: str = "d") -> AnnotationSet:
    return AnnotationSet(name, {doc: tuple(spans)}, role="annotator")


def chars(spans: tuple[Span, ...] | list[Span]) -> set[tuple[int, str]]:
    return {(i, s.label) for s in spans for i in range(s.start, s.end)}


def positions(spans: tuple[Span, ...] | list[Span]) -> set[int]:
    return {i for s in spans for i in range(s.start, s.end)}


# ---- hand-worked examples ----------------------------------------------------------------------


def test_a_long_span_aligned_elsewhere_is_named_not_called_unmarked() -> None:
    """bratiaa's example project (Kolditz 2019, MIT): three annotators mark "Grenoble" and
    "Francia", Max one LOC over "Grenoble (Francia)". γ aligns Max's span with Grenoble only,
    so Francia's group lacks Max; its reason must not say Max left Francia unmarked. An
    annotator with no span there at all is still "not marked by"."""
    text = "Grenoble (Francia) y Holanda"
    short = (Span(0, 8, "LOC"), Span(10, 17, "LOC"), Span(21, 28, "LOC"))
    sets = [ann("Lisa", *short), ann("Maria", *short), ann("Peter", *short),
            ann("Max", Span(0, 18, "LOC"))]
    r = consensus(sets, {"d": text}, min_agree=3, match="gamma")
    by = {(d.span.start, d.span.end): d for d in r.decisions}
    grenoble, francia, holanda = by[(0, 8)], by[(10, 17)], by[(21, 28)]
    assert "Max" in grenoble.annotators and "Max" not in francia.annotators
    assert francia.decision == holanda.decision == "keep"
    assert "not marked by" not in francia.why
    assert f"Max's [0, 18) LOC covers it but is matched to {grenoble.id}" in francia.why
    assert "not marked by Max" in holanda.why
    assert "matched to" not in holanda.why


def test_a_long_span_that_starts_far_before_is_found_past_shorter_ones() -> None:
    """Max's [0, 100) starts before his [30, 35) and [60, 65) yet still reaches [40, 45): the
    index behind the note must not stop at the nearer spans that end before it."""
    three = (Span(40, 45, "x"),)
    sets = [ann("A", *three), ann("B", *three), ann("C", *three),
            ann("Max", Span(0, 100, "x"), Span(30, 35, "x"), Span(60, 65, "x"))]
    r = consensus(sets, {"d": "a" * 100}, min_agree=3, match="exact")
    (kept,) = [d for d in r.decisions if d.decision == "keep"]
    assert kept.span == Span(40, 45, "x")
    assert "Max's [0, 100) x covers it but is matched to d#1" in kept.why
    assert "not marked by" not in kept.why

def test_gamma_label_tie_proposes_both_labels_and_reports_the_tie() -> None:
    a = ann("A", Span(0, 10, "x"))
    b = ann("B", Span(0, 10, "y"))
    r = consensus([a, b], min_agree=2, match="gamma", ties="keep-all")
    assert [(d.span, d.decision) for d in r.decisions] == [
        (Span(0, 10, "x"), "keep"), (Span(0, 10, "y"), "keep")]
    assert all("label-tie" in d.flags for d in r.decisions)
    assert r.ties() == list(r.decisions)
    assert "label tie (x: A; y: B)" in r.decisions[0].why


def test_a_label_tie_is_left_out_undecided_by_default() -> None:
    # nobody decided between x and y on [0, 10): the set holds neither (tour 5, #2)
    r = consensus([ann("A", Span(0, 10, "x")), ann("B", Span(0, 10, "y"))], min_agree=2,
                  match="gamma")
    assert r.set.get("d") == ()
    assert [(d.span, d.decision, d.votes) for d in r.decisions] == [
        (Span(0, 10, "x"), "drop", 2), (Span(0, 10, "y"), "drop", 2)]
    assert r.ties() == list(r.decisions)
    assert "drop (label tie, undecided): 2 of 2 annotators (A, B) ≥ k=2" in r.decisions[0].why
    assert "left out of the consensus until the lead chooses" in r.decisions[0].why
    with pytest.raises(UsageError, match="'ties'"):
        consensus([ann("A", Span(0, 10, "x"))], ties="first")  # type: ignore[arg-type]


def test_separate_pieces_of_a_group_are_counted_each_on_their_own() -> None:
    # gamma pairs jose's and laura's disjoint spans; the union gives two pieces, each marked by
    # one annotator: with k = 2 neither is kept, and each row says who marked it (tour 5, #1)
    sets = [ann("dami", Span(0, 5, "x")), ann("jose", Span(10, 14, "p")),
            ann("laura", Span(16, 20, "p"))]
    for rule in ("majority", "union", "intersection"):
        r = consensus(sets, min_agree=2, match="gamma", boundaries=rule)
        assert r.set.get("d") == ()
        pieces = [d for d in r.decisions if d.span.label == "p"]
        assert [(d.span, d.annotators, d.votes, d.decision) for d in pieces] == [
            (Span(10, 14, "p"), ("jose",), 1, "drop"), (Span(16, 20, "p"), ("laura",), 1, "drop")]
        assert "drop: 1 of 3 annotators (jose) < k=2" in pieces[0].why
        assert "laura of its group marked no character of it" in pieces[0].why
    r = consensus(sets, min_agree=1, match="gamma", boundaries="union")
    assert r.set.get("d") == (Span(0, 5, "x"), Span(10, 14, "p"), Span(16, 20, "p"))


def test_gamma_label_majority_overrules_the_minority_and_says_who() -> None:
    sets = [ann("A", Span(0, 10, "x")), ann("B", Span(0, 10, "x")), ann("C", Span(0, 10, "y"))]
    r = consensus(sets, min_agree=2, match="gamma")
    (d,) = r.decisions
    assert d.span == Span(0, 10, "x") and d.decision == "keep"
    assert d.flags == ("label-split",)
    assert "x: A, B; y: C" in d.why
    assert r.conflicts() == [d]


def test_majority_boundaries_with_an_even_group_leave_out_tied_characters() -> None:
    # A [0, 10), B [4, 12): characters 0-4 and 10-12 are marked by one of two, a tie
    r = consensus([ann("A", Span(0, 10, "x")), ann("B", Span(4, 12, "x"))], min_agree=2,
                  match="overlap", boundaries="majority")
    (d,) = r.decisions
    assert d.span == Span(4, 10, "x")
    assert d.flags == ("boundaries", "boundary-tie")
    assert "characters 0-4, 10-12 marked by exactly half (1 of 2)" in d.why


def test_union_and_intersection_boundaries() -> None:
    sets = [ann("A", Span(0, 10, "x")), ann("B", Span(2, 12, "x")), ann("C", Span(4, 8, "x"))]
    got = {rule: consensus(sets, min_agree=3, match="overlap", boundaries=rule).set.get("d")
           for rule in ("union", "majority", "intersection")}
    assert got == {"union": (Span(0, 12, "x"),), "majority": (Span(2, 10, "x"),),
                   "intersection": (Span(4, 8, "x"),)}


def test_label_conflict_is_flagged_on_both_sides_never_on_agreed_nesting() -> None:
    # A and B nest y inside x (both agree: no conflict); C says z where A, B say x
    a = ann("A", Span(0, 20, "x"), Span(5, 9, "y"))
    b = ann("B", Span(0, 20, "x"), Span(5, 9, "y"))
    c = ann("C", Span(0, 20, "z"), Span(5, 9, "y"))
    r = consensus([a, b, c], min_agree=2, match="exact")
    flags = {(d.span.label, d.decision): d.flags for d in r.decisions}
    assert flags == {("x", "keep"): ("partial", "label-conflict"), ("y", "keep"): (),
                     ("z", "drop"): ("partial", "label-conflict")}
    z = next(d for d in r.decisions if d.span.label == "z")
    assert "A, B gave x [0, 20) here" in z.why


def test_gamma_members_without_common_characters_fall_back_to_union() -> None:
    # adjacent same-label spans are aligned by gamma (d_pos = 1.44 < 2) but share no character
    r = consensus([ann("A", Span(0, 5, "x")), ann("B", Span(6, 11, "x"))], min_agree=2,
                  match="gamma", boundaries="intersection")
    assert [(d.span, d.annotators) for d in r.decisions] == [
        (Span(0, 5, "x"), ("A",)), (Span(6, 11, "x"), ("B",))]
    assert all("no-common-characters" in d.flags for d in r.decisions)
    assert "union used instead" in r.decisions[0].why
    # each piece was marked by one annotator: k = 2 keeps neither, k = 1 both
    assert r.set.get("d") == ()
    r = consensus([ann("A", Span(0, 5, "x")), ann("B", Span(6, 11, "x"))], min_agree=1,
                  match="gamma", boundaries="intersection")
    assert r.set.get("d") == (Span(0, 5, "x"), Span(6, 11, "x"))


def test_document_missing_from_a_set_is_not_a_vote_against() -> None:
    a = AnnotationSet("A", {"d": (Span(0, 4, "x"),), "e": (Span(0, 4, "x"),)})
    b = AnnotationSet("B", {"d": (Span(0, 4, "x"),)})
    r = consensus([a, b], match="exact")  # default k: strict majority of those listing it
    e = next(d for d in r.decisions if d.doc == "e")
    assert (e.n, e.k, e.decision, e.flags) == (1, 1, "keep", ())
    assert r.set.get("e") == (Span(0, 4, "x"),)
    r2 = consensus([a, b], match="exact", min_agree=2)
    e2 = next(d for d in r2.decisions if d.doc == "e")
    assert e2.decision == "drop" and "only 1 annotator(s) list this document" in e2.why


def test_char_level_majority_cuts_runs_into_kept_and_dropped() -> None:
    sets = [ann("A", Span(0, 10, "x")), ann("B", Span(5, 15, "x")), ann("C", Span(8, 12, "x"))]
    r = consensus(sets, min_agree=2, match="char")
    assert [(d.span, d.decision) for d in r.decisions] == [
        (Span(0, 5, "x"), "drop"), (Span(5, 12, "x"), "keep"), (Span(12, 15, "x"), "drop")]
    assert "every character marked by 2 to 3 of 3 annotators ≥ k=2" in r.decisions[1].why


def test_bad_options_are_usage_errors_and_duplicate_names_input_errors() -> None:
    a, b = ann("A", Span(0, 4, "x")), ann("B", Span(0, 4, "x"))
    with pytest.raises(UsageError, match="'min_agree' parameter of consensus"):
        consensus([a, b], min_agree=3)
    with pytest.raises(UsageError, match="'match' parameter of consensus"):
        consensus([a, b], match="fuzzy")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="both named 'A'"):
        consensus([a, a])


def test_curated_set_applies_accept_reject_relabel_and_rebound() -> None:
    sets = [ann("A", Span(0, 10, "x"), Span(20, 30, "y")), ann("B", Span(0, 10, "x"))]
    r = consensus(sets, min_agree=2, match="exact")
    kept, dropped = r.decisions
    assert (kept.decision, dropped.decision) == ("keep", "drop")
    cur = curated_set(r, {kept.key: Override("keep", 1, 9, "z"),
                          dropped.key: Override("keep", 20, 30, "y")})
    assert cur.get("d") == (Span(1, 9, "z"), Span(20, 30, "y"))
    assert curated_set(r, {kept.key: Override("drop", 0, 10, "x")}).get("d") == ()


def test_decisions_csv_round_trip_restores_the_lead_decisions() -> None:
    sets = [ann("A", Span(0, 10, "x"), Span(20, 30, "y")), ann("B", Span(0, 10, "x"))]
    r = consensus(sets, min_agree=2, match="exact")
    overrides = {r.decisions[0].key: Override("drop", 0, 10, "x"),
                 r.decisions[1].key: Override("keep", 21, 30, "y")}
    text = decisions_csv(r, overrides)
    back, notes = read_decisions(text, r)
    assert back == overrides and notes == []
    # a rule-only file restores nothing; a row edited in a spreadsheet is a decision
    assert read_decisions(decisions_csv(r), r) == ({}, [])
    edited = decisions_csv(r).replace(",drop,rule,", ",keep,rule,")
    back, _ = read_decisions(edited, r)
    assert list(back.values()) == [Override("keep", 20, 30, "y")]


def test_decisions_file_errors_name_line_and_field() -> None:
    r = consensus([ann("A", Span(0, 10, "x"))], min_agree=1, match="exact")
    text = decisions_csv(r).replace(",0,10,x,keep,", ",0,ten,x,keep,", 1)
    with pytest.raises(FormatError, match=r"decisions.csv:2: field 'end': expected an integer"):
        read_decisions(text, r)
    with pytest.raises(FormatError, match="missing column"):
        read_decisions("a,b\n1,2\n", r)


def test_rows_of_other_rules_are_reported_not_applied() -> None:
    sets = [ann("A", Span(0, 10, "x")), ann("B", Span(2, 10, "x"))]
    r1 = consensus(sets, min_agree=2, match="overlap", boundaries="union")
    text = decisions_csv(r1, {r1.decisions[0].key: Override("drop", 0, 10, "x")})
    r2 = consensus(sets, min_agree=2, match="overlap", boundaries="intersection")
    back, notes = read_decisions(text, r2)
    assert back == {} and len(notes) == 1 and "not applied" in notes[0]


# ---- properties --------------------------------------------------------------------------------

@st.composite
def span_sets(draw: st.DrawFn, max_spans: int = 5) -> tuple[Span, ...]:
    n = draw(st.integers(0, max_spans))
    out = set()
    for _ in range(n):
        s = draw(st.integers(0, TEXT_LEN - 1))
        e = draw(st.integers(s + 1, min(TEXT_LEN, s + 12)))
        out.add(Span(s, e, draw(st.sampled_from(LABELS))))
    return tuple(sorted(out))


@st.composite
def panels(draw: st.DrawFn, min_n: int = 1, max_n: int = 4) -> list[AnnotationSet]:
    n = draw(st.integers(min_n, max_n))
    return [ann(f"A{i}", *draw(span_sets())) for i in range(n)]


def _no_self_overlap(spans: tuple[Span, ...]) -> bool:
    return all(a.label != b.label or a.overlap(b) == 0
               for i, a in enumerate(spans) for b in spans[i + 1:])


@settings(max_examples=150, deadline=None)
@given(panels())
def test_exact_k1_is_the_union_and_kn_the_intersection(sets: list[AnnotationSet]) -> None:
    all_spans = [set(s.get("d")) for s in sets]
    union = set().union(*all_spans)
    inter = set.intersection(*all_spans)
    assert set(consensus(sets, min_agree=1, match="exact").set.get("d")) == union
    assert set(consensus(sets, min_agree=len(sets), match="exact").set.get("d")) == inter


@settings(max_examples=150, deadline=None)
@given(panels(), st.sampled_from(("overlap", "char")))
def test_overlap_and_char_union_and_intersection_of_characters(
        sets: list[AnnotationSet], match: str) -> None:
    per = [chars(s.get("d")) for s in sets]
    low = consensus(sets, min_agree=1, match=match, boundaries="union")  # type: ignore[arg-type]
    high = consensus(sets, min_agree=len(sets), match=match,  # type: ignore[arg-type]
                     boundaries="intersection")
    assert chars(low.set.get("d")) == set().union(*per)
    # a group where no character reaches the intersection falls back (flagged) to a looser rule
    ruled = [d.span for d in high.decisions
             if d.decision == "keep" and "no-common-characters" not in d.flags]
    assert chars(ruled) == set.intersection(*per)


@settings(max_examples=100, deadline=None)
@given(panels(max_n=3))
def test_gamma_k1_covers_every_marked_character_and_kn_stays_inside_the_common_ones(
        sets: list[AnnotationSet]) -> None:
    per = [positions(s.get("d")) for s in sets]
    low = consensus(sets, min_agree=1, match="gamma", boundaries="union", ties="keep-all")
    assert positions(low.set.get("d")) == set().union(*per)
    left = consensus(sets, min_agree=1, match="gamma", boundaries="union")
    tied = [d.span for d in left.decisions if "label-tie" in d.flags]
    assert positions(left.set.get("d")) | positions(tied) == set().union(*per)
    high = consensus(sets, min_agree=len(sets), match="gamma", boundaries="intersection")
    kept = [d for d in high.decisions if "no-common-characters" not in d.flags
            and d.decision == "keep"]
    assert positions([d.span for d in kept]) <= set.intersection(*per)


@settings(max_examples=100, deadline=None)
@given(span_sets(), st.sampled_from(MATCHES), st.sampled_from(("majority", "union",
                                                                "intersection")),
       st.integers(1, 2))
def test_a_set_against_itself_is_unchanged(spans: tuple[Span, ...], match: str,
                                           boundaries: str, k: int) -> None:
    a, b = ann("A", *spans), ann("B", *spans)
    r = consensus([a, b], min_agree=k, match=match,  # type: ignore[arg-type]
                  boundaries=boundaries)  # type: ignore[arg-type]
    got = r.set.get("d")
    if match in ("exact", "gamma") or _no_self_overlap(spans):
        if match == "char":
            assert chars(got) == chars(spans)
        else:
            assert got == spans
    else:  # overlap: the set's own overlapping spans of one label are merged
        assert chars(got) == chars(spans)
    if match != "char":
        assert all(d.decision == "keep" for d in r.decisions)


@settings(max_examples=100, deadline=None)
@given(panels(min_n=2), st.sampled_from(MATCHES), st.randoms(use_true_random=False))
def test_annotator_order_does_not_matter(sets: list[AnnotationSet], match: str,
                                         rnd: object) -> None:
    shuffled = list(sets)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    k = max(1, len(sets) // 2)
    r1 = consensus(sets, min_agree=k, match=match)  # type: ignore[arg-type]
    r2 = consensus(shuffled, min_agree=k, match=match)  # type: ignore[arg-type]
    assert r1.set == r2.set and r1.decisions == r2.decisions


@settings(max_examples=60, deadline=None)
@given(panels(min_n=2), st.sampled_from(MATCHES))
def test_every_kept_span_has_at_least_k_voters_and_every_span_is_accounted_for(
        sets: list[AnnotationSet], match: str) -> None:
    k = 2
    r = consensus(sets, min_agree=k, match=match)  # type: ignore[arg-type]
    assert all(d.votes >= k for d in r.decisions if d.decision == "keep")
    if match != "char":  # char votes are per character: a dropped run may join two voters
        assert all(d.votes < k or "label-tie" in d.flags  # a tie is left out undecided
                   for d in r.decisions if d.decision == "drop")
    marked = {(a.name, s) for a in sets for s in a.get("d")}
    recorded = {m for d in r.decisions for m in d.members}
    assert marked == recorded
    assert set(r.set.get("d")) == {d.span for d in r.decisions if d.decision == "keep"}


def test_decisions_csv_records_the_action_and_old_files_still_load() -> None:
    sets = [ann("A", Span(0, 10, "x"), Span(20, 30, "y")), ann("B", Span(0, 10, "x"))]
    r = consensus(sets, min_agree=2, match="exact")
    kept, dropped = r.decisions
    decided = {kept.key: Override("drop", 0, 10, "x", "drop"),
               dropped.key: Override.accept(dropped)}
    text = decisions_csv(r, decided)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["action"] for row in rows] == ["drop", "accept"]
    assert rows[1]["decision"] == rows[1]["proposed_decision"] == "drop"  # accept = proposal
    back, _ = read_decisions(text, r)
    assert back == decided and [o.action for o in back.values()] == ["drop", "accept"]
    # a file written before the action column: the action is inferred
    old = "\n".join(",".join(line.split(",")[:-1]) for line in text.splitlines()) + "\n"
    assert "action" not in old.splitlines()[0]
    back, _ = read_decisions(old, r)
    assert back == decided and [o.action for o in back.values()] == ["drop", "accept"]
    with pytest.raises(FormatError, match=r"decisions.csv:2: field 'action'"):
        read_decisions(text.replace(",drop\n", ",maybe\n", 1), r)


def test_decisions_csv_cells_are_inert_and_read_back_exactly() -> None:
    sets = [ann("A", Span(0, 10, "=HYPERLINK(1)")), ann("B")]
    r = consensus(sets, min_agree=2, match="exact")
    d = r.decisions[0]
    text = decisions_csv(r, {d.key: Override.accept(d)})
    assert ",=HYPERLINK" not in text and ",'=HYPERLINK(1)," in text
    back, notes = read_decisions(text, r)
    assert notes == [] and back == {d.key: Override.accept(d)}
