"""Label co-occurrence and confusion matrices: hand-computed matrices, MAFALDA's Figure 2 claims
on the released gold, and invariants checked against brute force on random corpora."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import load_path
from core.metrics import labels as lab
from core.metrics.labels import (
    MISSED,
    OPTIONAL,
    SPURIOUS,
    confusion,
    cooccurrence,
    project,
    row_frequencies,
)
from core.model import NOTHING, AnnotationSet, Span, group_alternatives
from core.model.errors import InputError, UsageError
from core.model.taxonomy import mafalda

MAFALDA_GOLD = (Path(__file__).resolve().parents[1] / "data" / "mafalda" / "datasets"
                / "gold_standard_dataset.jsonl")


def _set(name: str, docs: dict[str, list[tuple[int, int, str]]], *, alternatives: bool = False,
         role: str = "gold") -> AnnotationSet:
    return AnnotationSet(name, {d: tuple(Span(*t) for t in v) for d, v in docs.items()},
                         role, alternatives)  # type: ignore[arg-type]


# d1 holds an interval with two labels, a duplicate, nested and chained overlaps.
CO = _set("g", {
    "d1": [(0, 10, "A"), (0, 10, "B"), (5, 15, "A"), (12, 20, "C"), (0, 10, "A")],
    "d2": [(0, 5, "A"), (10, 20, "B")],
    "d3": [(0, 4, "C")],
})


# ---- co-occurrence, by hand ----------------------------------------------------------------


def test_span_scope_counts_labels_given_to_one_interval() -> None:
    m = cooccurrence(CO, scope="span")
    # Occurrences: A on d1[0,10), d1[5,15), d2[0,5); B on d1[0,10), d2[10,20); C twice.
    assert m.row_totals == {"A": 3, "B": 2, "C": 2}
    assert dict(m.counts) == {("A", "B"): 1, ("B", "A"): 1}
    assert row_frequencies(m.counts, m.row_totals) == {("A", "B"): 1 / 3, ("B", "A"): 0.5}
    assert m.evidence[("A", "B")] == (lab.Evidence("d1", (Span(0, 10, "A"),),
                                                   (Span(0, 10, "B"),), 10),)
    assert m.rows == m.columns == ("A", "B", "C")


def test_overlap_scope_counts_spans_that_overlap_another_label() -> None:
    m = cooccurrence(CO, scope="overlap")
    # d1: A[0,10)–B[0,10) 10 chars, A[0,10)–A[5,15) 5, B[0,10)–A[5,15) 5, A[5,15)–C[12,20) 3.
    assert dict(m.counts) == {("A", "A"): 2, ("A", "B"): 2, ("A", "C"): 1, ("B", "A"): 1,
                              ("C", "A"): 1}
    assert m.row_totals == {"A": 3, "B": 2, "C": 2}
    # Both A spans overlap B[0,10): two pairs, two occurrences; B's one span overlaps two As.
    assert [(e.row[0].interval, e.overlap) for e in m.evidence[("A", "B")]] == [
        ((0, 10), 10), ((5, 15), 5)]
    assert m.count("B", "A") == 1 and len(m.evidence[("B", "A")]) == 2
    assert row_frequencies(m.counts, m.row_totals)[("A", "C")] == pytest.approx(1 / 3)


def test_text_scope_counts_documents_holding_both_labels() -> None:
    m = cooccurrence(CO, scope="text")
    assert m.row_totals == {"A": 2, "B": 2, "C": 2}
    assert dict(m.counts) == {("A", "B"): 2, ("A", "C"): 1, ("B", "A"): 2, ("B", "C"): 1,
                              ("C", "A"): 1, ("C", "B"): 1}
    first = m.evidence[("A", "B")][0]
    assert first.document == "d1"
    assert first.row == (Span(0, 10, "A"), Span(5, 15, "A")) and first.column == (
        Span(0, 10, "B"),)
    assert first.overlap == 10  # characters under an A span and a B span
    assert m.evidence[("A", "B")][1].overlap == 0  # d2: A and B are apart


def test_diagonal_is_empty_in_span_and_text_scopes() -> None:
    for scope in ("span", "text"):
        m = cooccurrence(CO, scope=scope)
        assert all(m.count(x, x) == 0 for x in m.rows), scope


def test_cells_lists_every_cell_with_its_frequency() -> None:
    m = cooccurrence(CO, scope="span")
    cells = {(c["row"], c["column"]): c for c in m.cells()}
    assert len(cells) == 9
    assert cells[("A", "B")] == {"row": "A", "column": "B", "count": 1, "row_total": 3,
                                 "frequency": pytest.approx(1 / 3), "pairs": 1}
    assert cells[("C", "A")]["frequency"] == 0.0


def test_row_frequency_refuses_a_cell_above_its_row_total() -> None:
    with pytest.raises(ValueError, match="row total"):
        row_frequencies({("A", "B"): 3}, {"A": 2})


# ---- MAFALDA Figure 2 on the released gold -------------------------------------------------


def test_span_cooccurrence_reproduces_mafalda_figure2_claims() -> None:
    gold = load_path(MAFALDA_GOLD).set
    m = cooccurrence(gold, scope="span")
    freq = row_frequencies(m.counts, m.row_totals)
    # §4: "Appeal to pity which has a 100% co-occurrence with strawman and appeal to worse
    # problem ... only one occurrence"; "guilt by association ... 38% of the time associated
    # with abusive ad hominem"; "the other fallacies do not co-occur ... less than 30%".
    assert m.row_totals["appeal to pity"] == 1
    assert freq[("appeal to pity", "straw man")] == 1.0
    assert freq[("appeal to pity", "appeal to worse problems")] == 1.0
    assert (m.count("guilt by association", "ad hominem"),
            m.row_totals["guilt by association"]) == (3, 8)
    assert round(freq[("guilt by association", "ad hominem")], 2) == 0.38
    others = {k: v for k, v in freq.items()
              if k[0] not in ("appeal to pity", "guilt by association")}
    assert max(others.values()) < 0.3
    # "The dataset contains 268 spans but only 203 unique spans" (§4).
    assert sum(m.row_totals.values()) == 268
    assert sum(len(group_alternatives(gold.get(d))) for d in gold.doc_ids) == 203


# ---- confusion, by hand --------------------------------------------------------------------


def test_confusion_of_plain_gold_with_missed_and_spurious() -> None:
    gold = _set("g", {"d": [(0, 10, "A"), (20, 30, "B"), (40, 50, "A")]})
    pred = _set("p", {"d": [(2, 8, "A"), (5, 12, "B"), (22, 25, "C"), (60, 70, "A")]},
                role="system")
    m = confusion(gold, pred)
    assert dict(m.counts) == {("A", "A"): 1, ("A", "B"): 1, ("A", MISSED): 1, ("B", "C"): 1,
                              (SPURIOUS, "A"): 1}
    assert m.rows == ("A", "B", "C", SPURIOUS) and m.columns == ("A", "B", "C", MISSED)
    assert m.row_totals == {"A": 3, "B": 1, "C": 0, SPURIOUS: 1}
    assert row_frequencies(m.counts, m.row_totals)[("A", "A")] == pytest.approx(1 / 3)
    ev = m.evidence[("A", "B")][0]
    assert (ev.document, ev.row, ev.column, ev.overlap) == (
        "d", (Span(0, 10, "A"),), (Span(5, 12, "B"),), 5)
    assert m.evidence[("A", MISSED)][0].column == ()
    assert m.evidence[(SPURIOUS, "A")][0].row == ()


ALT_GOLD = _set("g", {"d": [
    (0, 10, "A"), (0, 10, "B"),  # A | B, predicted A
    (20, 30, "A"), (20, 30, NOTHING),  # A | ⊥, predicted C
    (40, 50, "C"), (40, 50, NOTHING),  # C | ⊥, not predicted: optional
    (60, 70, "B"),  # predicted B
    (100, 110, "B"), (100, 110, "A"),  # A | B, not predicted: missed
    (120, 130, NOTHING),  # ⊥ only, predicted A: a false alarm on a non-fallacy
]}, alternatives=True)
ALT_PRED = _set("p", {"d": [(0, 5, "A"), (22, 28, "C"), (60, 65, "B"), (80, 90, "D"),
                            (121, 125, "A")]}, role="system")


def test_alternatives_match_counts_a_hit_on_the_diagonal() -> None:
    m = confusion(ALT_GOLD, ALT_PRED, alternatives="match")
    assert dict(m.counts) == {("A", "A"): 1, ("A | nothing", "C"): 1, ("C | nothing", OPTIONAL): 1,
                              ("B", "B"): 1, ("A | B", MISSED): 1, ("nothing", "A"): 1,
                              (SPURIOUS, "D"): 1}
    assert m.rows == ("A", "B", "C", "D", "nothing", "A | B", "A | nothing", "C | nothing",
                      SPURIOUS)
    assert m.columns == ("A", "B", "C", "D", "nothing", MISSED, OPTIONAL)
    # The evidence keeps every alternative of the gold span.
    assert m.evidence[("A", "A")][0].row == (Span(0, 10, "A"), Span(0, 10, "B"))


def test_alternatives_joined_and_each() -> None:
    joined = confusion(ALT_GOLD, ALT_PRED, alternatives="joined")
    assert joined.count("A | B", "A") == 1 and joined.count("A", "A") == 0
    each = confusion(ALT_GOLD, ALT_PRED, alternatives="each")
    assert dict(each.counts) == {("A", "A"): 1, ("B", "A"): 1, ("A", "C"): 1, ("nothing", "C"): 1,
                                 ("C", OPTIONAL): 1, ("nothing", OPTIONAL): 1, ("B", "B"): 1,
                                 ("A", MISSED): 1, ("B", MISSED): 1, ("nothing", "A"): 1,
                                 (SPURIOUS, "D"): 1}


def test_optional_bucket_only_for_gold_with_alternatives() -> None:
    # Plain gold: a span labelled nothing is a gold span like any other, so unmatched it is missed.
    gold = _set("g", {"d": [(0, 5, NOTHING)]})
    pred = _set("p", {"d": []}, role="system")
    m = confusion(gold, pred)
    assert dict(m.counts) == {(NOTHING, MISSED): 1} and OPTIONAL not in m.columns


def test_levels_project_both_sets_with_mafalda_taxonomy() -> None:
    gold = _set("g", {"d": [(0, 10, "Ad Hominem"), (20, 30, "appeal to fear")]})
    pred = _set("p", {"d": [(0, 10, "tu quoque"), (20, 30, "unknown")]}, role="system")
    l2 = confusion(gold, pred, level=2)
    assert dict(l2.counts) == {("ad hominem", "tu quoque"): 1, ("appeal to fear", "unknown"): 1}
    assert l2.taxonomy == "MAFALDA"
    l1 = confusion(gold, pred, level=1)
    assert dict(l1.counts) == {("credibility", "credibility"): 1, ("emotion", "unknown"): 1}
    l0 = confusion(gold, pred, level=0)
    assert dict(l0.counts) == {("fallacy", "fallacy"): 1, ("fallacy", NOTHING): 1}
    assert l0.evidence[("fallacy", "fallacy")][0].row == (Span(0, 10, "fallacy"),)


def test_foreign_labels_use_one_class_per_label() -> None:
    gold = _set("g", {"d": [(0, 10, "Loaded Language"), (5, 9, "Doubt")]})
    m2, m1 = (cooccurrence(gold, scope="overlap", level=lv) for lv in (2, 1))
    assert m1.taxonomy == "labels of the data" and dict(m1.counts) == dict(m2.counts)
    assert cooccurrence(gold, scope="overlap", level=0).rows == ("fallacy",)
    assert [s.label for s in project(gold, level=2).get("d")] == ["Loaded Language", "Doubt"]


def test_confusion_refuses_bad_options_and_documents() -> None:
    gold = _set("g", {"d": [(0, 5, "A")]})
    with pytest.raises(UsageError, match="'alternatives' parameter of confusion"):
        confusion(gold, gold, alternatives="best")
    with pytest.raises(UsageError, match="'scope' parameter of cooccurrence"):
        cooccurrence(gold, scope="sentence")
    with pytest.raises(InputError, match="only in p"):
        confusion(gold, _set("p", {"d": [], "e": [(0, 1, "A")]}, role="system"))
    with pytest.raises(InputError, match="'missed'"):
        confusion(gold, _set("p", {"d": [(0, 1, "missed")]}, role="system"))


def test_prediction_missing_a_gold_document_misses_its_spans() -> None:
    gold = _set("g", {"d": [(0, 5, "A")], "e": [(0, 5, "B")]})
    m = confusion(gold, _set("p", {"d": [(0, 5, "A")]}, role="system"))
    assert dict(m.counts) == {("A", "A"): 1, ("B", MISSED): 1}


# ---- invariants on random corpora ----------------------------------------------------------

LABELS = ["A", "B", "C", NOTHING]
span_st = st.builds(lambda s, n, lab: (s, s + n, lab), st.integers(0, 40), st.integers(1, 12),
                    st.sampled_from(LABELS))
docs_st = st.dictionaries(st.sampled_from(["d0", "d1", "d2", "d3"]), st.lists(span_st,
                                                                               max_size=7),
                          min_size=1, max_size=4)


@st.composite
def pairs_st(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    gold = draw(docs_st)
    pred = {d: draw(st.lists(span_st, max_size=7)) for d in gold if draw(st.booleans())}
    return (_set("g", gold, alternatives=draw(st.booleans())),
            _set("p", pred, role="system"))


def _units(gold: AnnotationSet, doc: str) -> list[tuple[int, int, tuple[str, ...]]]:
    if gold.alternatives:
        return [(a.start, a.end, tuple(sorted(a.labels)))
                for a in group_alternatives(gold.get(doc))]
    return [(s.start, s.end, (s.label,)) for s in gold.get(doc)]


def _ov(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(pairs_st(), st.sampled_from(["match", "joined"]))
def test_every_overlapping_pair_is_listed_in_exactly_one_cell(
    sets: tuple[AnnotationSet, AnnotationSet], mode: str
) -> None:
    gold, pred = sets
    m = confusion(gold, pred, alternatives=mode)
    expected_pairs: Counter[tuple[object, ...]] = Counter()
    expected_rows = 0
    column_sums: Counter[str] = Counter()
    for doc in gold.doc_ids:
        units = _units(gold, doc)
        preds = pred.get(doc)
        for u in units:
            hits = [p for p in preds if _ov(u[:2], p.interval)]
            expected_rows += max(1, len(hits))
            expected_pairs.update((doc, u[:2], p) for p in hits)
        for p in preds:
            column_sums[p.label] += max(1, sum(1 for u in units if _ov(u[:2], p.interval)))
    listed: Counter[tuple[object, ...]] = Counter()
    for (row, column), evs in m.evidence.items():
        assert m.count(row, column) == len(evs)
        for e in evs:
            if e.row and e.column:
                listed[(e.document, e.row[0].interval, e.column[0])] += 1
                assert e.overlap == _ov(e.row[0].interval, e.column[0].interval) > 0
    assert listed == expected_pairs
    # Row sums over the gold side = pairs + missed/optional spans, one per gold span at least.
    assert sum(m.row_totals[r] for r in m.rows if r != SPURIOUS) == expected_rows
    # Column sums (spurious row included) = one per prediction at least.
    for label, n in column_sums.items():
        assert sum(m.count(r, label) for r in m.rows) == n
    assert all(m.count(r, c) <= m.row_totals[r] for r, c in m.counts)


def _shuffled(aset: AnnotationSet, rng: random.Random) -> AnnotationSet:
    docs = list(aset.spans.items())
    rng.shuffle(docs)
    return AnnotationSet(aset.name, {d: tuple(rng.sample(v, len(v))) for d, v in docs},
                         aset.role, aset.alternatives)


@settings(max_examples=100, deadline=None)
@given(pairs_st(), st.sampled_from(lab.ALTERNATIVES), st.sampled_from(lab.SCOPES),
       st.integers(0, 2**16))
def test_matrices_do_not_depend_on_span_or_document_order(
    sets: tuple[AnnotationSet, AnnotationSet], mode: str, scope: str, seed: int
) -> None:
    gold, pred = sets
    rng = random.Random(seed)
    g2, p2 = _shuffled(gold, rng), _shuffled(pred, rng)
    assert confusion(gold, pred, alternatives=mode) == confusion(g2, p2, alternatives=mode)
    assert cooccurrence(gold, scope=scope) == cooccurrence(g2, scope=scope)


@settings(max_examples=200, deadline=None)
@given(docs_st, st.booleans())
def test_cooccurrence_equals_brute_force(docs: dict[str, list[tuple[int, int, str]]],
                                         alternatives: bool) -> None:
    aset = _set("g", docs, alternatives=alternatives)
    expected: dict[str, Counter[tuple[str, str]]] = {s: Counter() for s in lab.SCOPES}
    for doc in aset.doc_ids:
        occ = sorted(set(aset.get(doc)))
        by_interval: dict[tuple[int, int], set[str]] = {}
        for s in occ:
            by_interval.setdefault(s.interval, set()).add(s.label)
        for labels in by_interval.values():
            expected["span"].update(itertools.permutations(labels, 2))
        expected["text"].update(itertools.permutations({s.label for s in occ}, 2))
        for s in occ:
            expected["overlap"].update({(s.label, t.label) for t in occ
                                        if t != s and s.overlap(t)})
    for scope in lab.SCOPES:
        m = cooccurrence(aset, scope=scope)
        assert Counter(dict(m.counts)) == expected[scope], scope
        assert all(m.count(r, c) <= m.row_totals[r] for r, c in m.counts)
        if scope != "overlap":
            assert all(m.count(r, c) == m.count(c, r) for r, c in m.counts)
        # The count is the number of distinct row-side occurrences among the evidence.
        for (r, c), evs in m.evidence.items():
            keys = {(e.document, e.row if scope == "text" else e.row[0]) for e in evs}
            assert len({k[0] for k in keys} if scope == "text" else keys) == m.count(r, c)


MAF = ["ad hominem", "tu quoque", "appeal to fear", "appeal to anger", "straw man", NOTHING,
       "unknown"]
maf_span = st.builds(lambda s, n, lab: (s, s + n, lab), st.integers(0, 30), st.integers(1, 10),
                     st.sampled_from(MAF))


@settings(max_examples=100, deadline=None)
@given(st.lists(maf_span, max_size=8), st.lists(maf_span, max_size=8), st.sampled_from([1, 0]))
def test_coarser_level_sums_the_finer_cells(gold_spans: list[tuple[int, int, str]],
                                            pred_spans: list[tuple[int, int, str]],
                                            level: int) -> None:
    gold = _set("g", {"d": [s for s in gold_spans if s[2] != "unknown"]})
    pred = _set("p", {"d": pred_spans}, role="system")
    fine = confusion(gold, pred, level=2)
    coarse = confusion(gold, pred, level=level)
    up = lab.level_namer(mafalda(), level)
    summed: Counter[tuple[str, str]] = Counter()
    for (r, c), n in fine.counts.items():
        summed[(r if r in lab.BUCKETS else up(r), c if c in lab.BUCKETS else up(c))] += n
    assert Counter(dict(coarse.counts)) == summed


# ---- the array counts against straightforward per-pair counting ----------------------------

MANY = [f"L{i:02d}" for i in range(70)] + [NOTHING]  # more labels than one 63-bit set mask holds


@st.composite
def crowded_st(draw: st.DrawFn) -> dict[str, list[tuple[int, int, str]]]:
    """Crowded documents: many short spans in a few characters (overlapping, nested, equal
    intervals, duplicates), labels from a few or from 71, sometimes at offsets past 2**40
    (the sorts and searches fall back from packed keys there)."""
    labels = draw(st.sampled_from([["A", "B", "C", NOTHING], MANY, MAF[:-1]]))
    base = draw(st.sampled_from([0, 0, 2**40]))
    span = st.builds(lambda s, n, lab: (base + s, base + s + n, lab), st.integers(0, 25),
                     st.integers(1, 9), st.sampled_from(labels))
    return draw(st.dictionaries(st.text("abcdé", min_size=1, max_size=3),
                                st.lists(span, max_size=25), min_size=1, max_size=6))


def _evidence_list(m: lab.LabelMatrix) -> dict[tuple[str, str], list[tuple[object, ...]]]:
    return {k: [(e.document, e.row, e.column, e.overlap) for e in v]
            for k, v in m.evidence.items()}


def _cooccurrence_by_pairs(aset: AnnotationSet, scope: str
                           ) -> tuple[Counter[tuple[str, str]], Counter[str],
                                      dict[tuple[str, str], list[tuple[object, ...]]]]:
    """Counts, row totals and evidence of every scope, one pair of spans at a time."""
    counts: Counter[tuple[str, str]] = Counter()
    totals: Counter[str] = Counter()
    evidence: dict[tuple[str, str], list[tuple[object, ...]]] = {}
    for doc in sorted(aset.doc_ids):
        occ = sorted(set(aset.get(doc)))
        if scope == "text":
            held = {s.label: tuple(t for t in occ if t.label == s.label) for s in occ}
            totals.update(held.keys())
            for a, b in itertools.permutations(held, 2):
                counts[(a, b)] += 1
                chars = {c for s in held[a] for c in range(s.start, s.end)}
                shared = len(chars & {c for s in held[b] for c in range(s.start, s.end)})
                evidence.setdefault((a, b), []).append((doc, held[a], held[b], shared))
            continue
        totals.update(s.label for s in (occ if scope == "overlap" else
                                        {(s.interval, s.label): s for s in occ}.values()))
        partners: set[tuple[int, str]] = set()
        for i, j in itertools.combinations(range(len(occ)), 2):
            s, t = occ[i], occ[j]
            if scope == "span" and s.interval != t.interval:
                continue
            if not s.overlap(t):
                continue
            for x, y, k in ((s, t, i), (t, s, j)):
                evidence.setdefault((x.label, y.label), []).append(
                    (doc, (x,), (y,), s.overlap(t)))
                if scope == "span":
                    counts[(x.label, y.label)] += 1
                else:
                    partners.add((k, y.label))
        counts.update((occ[k].label, label) for k, label in partners)
    return counts, totals, evidence


def _confusion_by_pairs(gold: AnnotationSet, pred: AnnotationSet, mode: str
                        ) -> tuple[Counter[tuple[str, str]],
                                   dict[tuple[str, str], list[tuple[object, ...]]]]:
    """The confusion's counts and evidence, one (gold span, prediction) pair at a time, in the
    order the pairs come with both sides sorted by interval (gold first on a tie)."""
    counts: Counter[tuple[str, str]] = Counter()
    evidence: dict[tuple[str, str], list[tuple[object, ...]]] = {}

    def rows(labels: tuple[str, ...], predicted: str | None) -> tuple[str, ...]:
        if len(labels) == 1 or mode == "each":
            return labels
        if mode == "match" and predicted in labels:
            return (predicted,)
        return (lab.JOIN.join(labels),)

    def add(cell: tuple[str, str], item: tuple[object, ...]) -> None:
        counts[cell] += 1
        evidence.setdefault(cell, []).append(item)

    key = lab._label_key
    for doc in sorted(gold.doc_ids):
        if gold.alternatives:
            groups: dict[tuple[int, int], set[str]] = {}
            for s in sorted(gold.get(doc)):
                groups.setdefault(s.interval, set()).add(s.label)
            units = [tuple(Span(a, b, x) for x in sorted(ls, key=key))
                     for (a, b), ls in groups.items()]
        else:
            units = [(s,) for s in sorted(gold.get(doc))]
        preds = sorted(pred.get(doc))
        items = sorted([(u[0].interval, 0, k) for k, u in enumerate(units)]
                       + [(s.interval, 1, k) for k, s in enumerate(preds)])
        hit_units, hit_preds = set(), set()
        for x, y in itertools.combinations(items, 2):
            if x[1] == y[1] or not _ov(x[0], y[0]):
                continue
            (_, _, u), (_, _, q) = (x, y) if x[1] == 0 else (y, x)
            hit_units.add(u)
            hit_preds.add(q)
            labels = tuple(s.label for s in units[u])
            for row in rows(labels, preds[q].label):
                add((row, preds[q].label), (doc, units[u], (preds[q],),
                                            _ov(units[u][0].interval, preds[q].interval)))
        for u, unit in enumerate(units):
            if u not in hit_units:
                labels = tuple(s.label for s in unit)
                column = OPTIONAL if gold.alternatives and NOTHING in labels else MISSED
                for row in rows(labels, None):
                    add((row, column), (doc, unit, (), 0))
        for q, s in enumerate(preds):
            if q not in hit_preds:
                add((SPURIOUS, s.label), (doc, (), (s,), 0))
    return counts, evidence


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(crowded_st(), crowded_st(), st.booleans(), st.sampled_from([2, 1, 0]))
def test_array_counts_equal_per_pair_counting_on_crowded_corpora(
    gold_docs: dict[str, list[tuple[int, int, str]]],
    pred_docs: dict[str, list[tuple[int, int, str]]], alternatives: bool, level: int
) -> None:
    gold = _set("g", gold_docs, alternatives=alternatives)
    pred = _set("p", {d: v for d, v in pred_docs.items() if d in gold_docs}, role="system")
    tax = lab.for_labels([*gold.labels(), *pred.labels()])
    pg, pp = project(gold, level=level, taxonomy=tax), project(pred, level=level, taxonomy=tax)
    for scope in lab.SCOPES:
        m = cooccurrence(gold, scope=scope, level=level, taxonomy=tax)
        counts, totals, evidence = _cooccurrence_by_pairs(pg, scope)
        assert dict(m.counts) == dict(counts), scope
        assert m.row_totals == {r: totals[r] for r in m.rows}, scope
        assert set(m.rows) == set(totals), scope
        assert _evidence_list(m) == evidence, scope
        assert all(m.pairs(*k) == len(v) for k, v in evidence.items())
    for mode in lab.ALTERNATIVES:
        m = confusion(gold, pred, level=level, alternatives=mode, taxonomy=tax)
        counts, evidence = _confusion_by_pairs(pg, pp, mode)
        assert dict(m.counts) == dict(counts), mode
        assert _evidence_list(m) == evidence, mode
        assert all(m.pairs(*k) == len(v) for k, v in evidence.items())
        # One page of a cell is that slice of the cell, built alone.
        for cell, items in evidence.items():
            part = m.evidence_part(*cell, slice(1, 4))
            assert [(e.document, e.row, e.column, e.overlap) for e in part] == items[1:4]
