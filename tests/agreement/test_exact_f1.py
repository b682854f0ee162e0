"""Exact-match (instance) F1 between annotators (``agree --measure exact-f1``,
:func:`core.metrics.agreement.exact_f1`): against bratiaa's instance-level F1 on a brat project
of our own, its conventions (sets, missing documents, undefined values, label-blind variant),
its properties, and the command line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli.loading import load_study
from core.metrics.agreement import MEASURES, PairwiseResult, Study, compute, exact_f1, span_f1
from core.metrics.agreement.panel import against, measure_view, pairwise
from core.model import AnnotationSet, Span
from tests.cli_runs import core_main

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "tests" / "data" / "agreement" / "exact_f1_brat"
BRATIAA = json.loads((PROJECT / "bratiaa_0.1.4.json").read_text(encoding="utf-8"))["pairs"]


def brat_study() -> Study:
    return load_study([str(PROJECT / name) for name in "ABC"])


def _pair(result, a: str, b: str):  # type: ignore[no-untyped-def]
    return result.pairs.get((a, b)) or result.pairs[(b, a)]


# --- bratiaa, side by side --------------------------------------------------------------------

@pytest.mark.parametrize("pair", sorted(BRATIAA))
def test_corpus_document_and_label_values_equal_bratiaa_instance_f1(pair: str) -> None:
    a, b = pair.split(" | ")
    want = BRATIAA[pair]
    got = _pair(exact_f1(brat_study()), a, b)
    assert got.overall.value == pytest.approx(want["corpus"], abs=1e-12)
    assert {d: v.value for d, v in got.per_document.items()} == pytest.approx(
        want["documents"], abs=1e-12)
    assert {lab: v.value for lab, v in got.per_label.items()} == pytest.approx(
        want["labels"], abs=1e-12)


def test_bratiaa_values_are_the_cases_the_project_was_built_for() -> None:
    # A and C differ by a duplicate span of C (counted once), a second label on one span of C
    # and one MISC span of C's in doc3, which A and B leave empty (undefined there)
    assert BRATIAA["A | B"]["documents"]["doc3"] is None
    assert BRATIAA["A | C"]["documents"]["doc1"] == pytest.approx(8 / 9)
    assert BRATIAA["A | C"]["corpus"] == pytest.approx(16 / 19)


def test_undefined_document_has_a_reason() -> None:
    pv = _pair(exact_f1(brat_study()), "A", "B")
    doc3 = pv.per_document["doc3"]
    assert doc3.value is None and "neither annotator marked a span" in (doc3.reason or "")


# --- conventions -------------------------------------------------------------------------------

def _study(*sets: dict[str, tuple[Span, ...]]) -> Study:
    return Study.from_sets([AnnotationSet(n, s, role="annotator")
                            for n, s in zip("ABCD", sets, strict=False)])


def test_a_duplicate_span_counts_once() -> None:
    one = _study({"d": (Span(0, 4, "x"),)}, {"d": (Span(0, 4, "x"), Span(0, 4, "x"))})
    pv = exact_f1(one).pairs[("A", "B")]
    assert pv.overall.value == 1.0
    assert pv.overall.stats == {"matches": 1, "spans_first": 1, "spans_second": 1}


def test_one_character_off_is_a_miss_on_both_sides() -> None:
    s = _study({"d": (Span(0, 4, "x"),)}, {"d": (Span(0, 5, "x"),)})
    assert exact_f1(s).pairs[("A", "B")].overall.value == 0.0
    assert span_f1(s).pairs[("A", "B")].overall.value == pytest.approx(0.8 * 2 / 1.8)


def test_label_blind_variant_ignores_labels_and_counts_offsets_once() -> None:
    s = _study({"d": (Span(0, 4, "x"), Span(0, 4, "y"))}, {"d": (Span(0, 4, "z"),)})
    pv = exact_f1(s).pairs[("A", "B")]
    assert pv.overall.value == 0.0
    assert pv.extra["position"].value == 1.0
    assert exact_f1(s).as_dict()["matrix_position"]["A"]["B"] == 1.0


def test_only_documents_both_list_count() -> None:
    s = _study({"d": (Span(0, 4, "x"),), "e": (Span(0, 2, "x"),)}, {"d": (Span(0, 4, "x"),)})
    pv = exact_f1(s).pairs[("A", "B")]
    assert pv.overall.value == 1.0 and set(pv.per_document) == {"d"}


def test_no_shared_document_and_no_span_are_undefined() -> None:
    apart = _study({"d": (Span(0, 4, "x"),)}, {"e": (Span(0, 4, "x"),)})
    assert exact_f1(apart).pairs[("A", "B")].overall.reason == "no document annotated by both"
    empty = _study({"d": ()}, {"d": ()})
    assert exact_f1(empty).pairs[("A", "B")].overall.value is None


def test_unused_label_is_undefined_for_the_pair() -> None:
    s = _study({"d": (Span(0, 4, "x"),)}, {"d": (Span(0, 4, "x"),)}, {"d": (Span(5, 6, "y"),)})
    pv = exact_f1(s).pairs[("A", "B")]
    assert pv.per_label["x"].value == 1.0 and pv.per_label["y"].value is None


def test_label_filter_of_the_study_is_respected() -> None:
    a = AnnotationSet("A", {"d": (Span(0, 4, "x"), Span(5, 6, "y"))}, role="annotator")
    b = AnnotationSet("B", {"d": (Span(0, 4, "x"),)}, role="annotator")
    assert exact_f1(Study.from_sets([a, b], label="x")).pairs[("A", "B")].overall.value == 1.0


def test_fields_too_wide_to_pack_give_the_same_values() -> None:
    far = 2 ** 40  # start and end need 41 bits each: the rows are numbered instead
    a = {"d": (Span(far, far + 4, "x"), Span(3, 9, "y")), "e": (Span(1, 2, "x"),)}
    b = {"d": (Span(far, far + 4, "x"), Span(3, 9, "x")), "e": (Span(1, 2, "x"),)}
    pv = exact_f1(_study(a, b)).pairs[("A", "B")]
    assert pv.overall.value == pytest.approx(2 * 2 / 6)
    assert pv.per_document["d"].value == pytest.approx(0.5)
    assert pv.extra["position"].value == 1.0


def test_per_document_floats_equal_the_objects() -> None:
    s = brat_study()
    floats: dict = {}
    lean = exact_f1(s, document_f1=floats)
    full = exact_f1(s)
    for key, pv in full.pairs.items():
        docs, values, reasons = floats[key]
        assert docs == list(pv.per_document)
        assert values == [v.value for v in pv.per_document.values()]
        assert reasons == [v.reason for v in pv.per_document.values()]
        assert lean.pairs[key].per_document == {}
        assert lean.pairs[key].overall == pv.overall


def test_dispatch_pairwise_against_and_view_agree() -> None:
    s = brat_study()
    assert "exact-f1" in MEASURES
    direct = exact_f1(s).matrix()
    via_name = compute(s, "exact-f1")
    assert isinstance(via_name, PairwiseResult) and via_name.matrix() == direct
    assert pairwise(s, "exact-f1").matrix() == direct
    vs = against(s, "A", measure="exact-f1")
    assert {n: v.overall.value for n, v in vs.items()} == {"B": direct["A"]["B"],
                                                           "C": direct["A"]["C"]}
    sets = [AnnotationSet(n, dict(s.spans[n]), role="annotator") for n in s.annotators]
    full = measure_view(sets, measure="exact-f1")
    lean = measure_view(sets, measure="exact-f1", lean=True)
    assert full.pairwise.matrix() == lean.pairwise.matrix() == direct
    assert ([(d.doc, d.value, d.pair) for d in full.ranking]
            == [(d.doc, d.value, d.pair) for d in lean.ranking])
    assert ({n: v.overall for n, v in full.majority.items()}
            == {n: v.overall for n, v in lean.majority.items()})


# --- properties --------------------------------------------------------------------------------

spans = st.lists(st.builds(lambda s, n, lab: Span(s, s + n, lab), st.integers(0, 30),
                           st.integers(1, 8), st.sampled_from("xy")), max_size=8)
docs = st.dictionaries(st.sampled_from(["d1", "d2", "d3"]), spans.map(tuple), min_size=1)


@settings(max_examples=150, deadline=None)
@given(a=docs, b=docs)
def test_symmetric(a: dict, b: dict) -> None:
    ab = exact_f1(_study(a, b)).pairs[("A", "B")]
    ba = exact_f1(_study(b, a)).pairs[("A", "B")]
    assert ab.overall.value == ba.overall.value
    assert ab.extra.keys() == ba.extra.keys()
    assert all(ab.extra[k].value == ba.extra[k].value for k in ab.extra)
    assert {d: v.value for d, v in ab.per_document.items()} == {
        d: v.value for d, v in ba.per_document.items()}


@settings(max_examples=100, deadline=None)
@given(a=docs)
def test_one_on_identical_sets(a: dict) -> None:
    pv = exact_f1(_study(a, a)).pairs[("A", "B")]
    if any(a.values()):
        assert pv.overall.value == 1.0 and pv.extra["position"].value == 1.0
    else:
        assert pv.overall.value is None
    assert all(v.value in (1.0, None) for v in pv.per_document.values())


@settings(max_examples=100, deadline=None)
@given(a=docs)
def test_zero_on_disjoint_sets(a: dict) -> None:
    shifted = {d: tuple(Span(s.start + 100, s.end + 100, s.label) for s in v)
               for d, v in a.items()}
    relabelled = {d: tuple(Span(s.start, s.end, s.label + "'") for s in v)
                  for d, v in a.items()}
    if any(a.values()):
        assert exact_f1(_study(a, shifted)).pairs[("A", "B")].overall.value == 0.0
        pv = exact_f1(_study(a, relabelled)).pairs[("A", "B")]
        assert pv.overall.value == 0.0 and pv.extra["position"].value == 1.0


@settings(max_examples=150, deadline=None)
@given(a=docs, b=docs)
def test_at_most_span_f1_with_labels_equal(a: dict, b: dict) -> None:
    # span-f1 gives an exactly matched span its full credit and an overlapping one a share:
    # on sets (no duplicate span) its P and R are at least exact-match's, hence its F1 too
    a = {d: tuple(sorted(set(v))) for d, v in a.items()}
    b = {d: tuple(sorted(set(v))) for d, v in b.items()}
    s = _study(a, b)
    exact = exact_f1(s).pairs[("A", "B")].overall.value
    partial = span_f1(s).pairs[("A", "B")].overall.value
    if exact is not None:
        assert partial is not None and exact <= partial + 1e-12


# --- command line ------------------------------------------------------------------------------

def agree(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m core agree ARGS``, run in process (:func:`tests.cli_runs.core_main`)."""
    return core_main("agree", *args)


def test_cli_json_matrix_equals_bratiaa_and_keeps_other_keys() -> None:
    files = [str(PROJECT / n) for n in "ABC"]
    proc = agree(*files, "--measure", "exact-f1", "--measure", "span-f1", "--json",
                 "--per-document")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    r = out["exact-f1"]
    assert r["kind"] == "pairwise" and r["symmetric"] is True
    assert set(r) >= {"matrix", "matrix_position", "pairs", "document_ranking"}
    for pair, want in BRATIAA.items():
        a, b = pair.split(" | ")
        assert r["matrix"][a][b] == pytest.approx(want["corpus"], abs=1e-12)
    assert r["pairs"]["A | B"]["overall"]["matches"] == 4
    assert out["span-f1"]["symmetric"] is False  # the other measures unchanged


def test_cli_text_says_how_it_differs_from_span_f1() -> None:
    proc = agree(*(str(PROJECT / n) for n in "ABC"), "--measure", "exact-f1")
    assert proc.returncode == 0, proc.stderr
    assert "exact-f1:" in proc.stdout and "same start, end and label" in proc.stdout
    assert "position: A|B=" in proc.stdout


@pytest.mark.parametrize(("measures", "said"), [
    (["exact-f1"], "counted once by exact-f1 (with or without --unit-set)"),
    # bugleft15 item 3: beside another measure the warning kept the --unit-set wording, which
    # is not what exact-f1 does with a duplicate; it now says what each measure does
    # (fixrev14b item 3: which count it twice, which once, which read characters or texts)
    (["exact-f1", "gamma", "span-f1"],
     "counted twice by gamma, span-f1 (--unit-set counts it once, as pygamma-agreement does); "
     "counted once by exact-f1"),
    (["gamma"], "counted twice by gamma (--unit-set counts it once, as pygamma-agreement does)"),
    (["char-kappa", "text-kappa"], "no change to char-kappa, text-kappa, which read characters "
     "or texts"),
    (["exact-f1", "gamma", "--unit-set"], "counted once (--unit-set)"),
])
def test_the_duplicate_warning_says_how_the_measures_asked_count_it(
        measures: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    # review13: with --measure exact-f1 alone the warning pointed to --unit-set, which changes
    # nothing for a measure that counts a duplicate once anyway.
    from core.cli import main

    argv = ["agree", *(str(PROJECT / a) for a in "ABC"), "--json"]
    for m in measures:
        argv += [m] if m.startswith("--") else ["--measure", m]
    assert main(argv) == 0
    warnings = [w for w in json.loads(capsys.readouterr().out)["warnings"] if "duplicate" in w]
    assert warnings == [f"C: document 'doc1' has 1 exact duplicate span(s), e.g. [0, 12) "
                        f"'PER': {said}"]


# --- against the majority: what a span is ------------------------------------------------------

def test_touching_spans_everyone_marked_agree_with_the_majority() -> None:
    # bugleft15 item 5: the majority is made of characters, and runs of one label that touch
    # are one span there; three annotators who all marked [0, 4) and [4, 9) 'x' got exact-f1 0
    # against a majority of one span [0, 9). exact-f1's majority is made of its own instances:
    # the spans (offsets and label) a majority of annotators marked.
    from core.metrics.agreement import against_majority, instance_majority, majority_set

    texts: dict[str, str | None] = {"d": "aaaa bbbb cccc"}
    two = (Span(0, 4, "x"), Span(4, 9, "x"))
    sets = [AnnotationSet(n, {"d": two}, "annotator") for n in "ABC"]
    assert majority_set(sets).get("d") == (Span(0, 9, "x"),)  # characters: one run
    assert instance_majority(sets).get("d") == two
    for leave_one_out in (False, True):
        got = against_majority(sets, texts, measure="exact-f1", leave_one_out=leave_one_out)
        assert {a: pv.overall.value for a, pv in got.items()} == {"A": 1.0, "B": 1.0, "C": 1.0}


def test_the_instance_majority_counts_each_annotator_once_and_needs_a_strict_majority() -> None:
    from core.metrics.agreement import instance_majority

    a = AnnotationSet("A", {"d": (Span(0, 4, "x"), Span(0, 4, "x"), Span(5, 6, "y"))},
                      "annotator")
    b = AnnotationSet("B", {"d": (Span(0, 4, "x"), Span(5, 6, "z")), "e": ()}, "annotator")
    c = AnnotationSet("C", {"d": (Span(1, 4, "x"), Span(5, 6, "y"))}, "annotator")
    m = instance_majority([a, b, c])
    assert m.get("d") == (Span(0, 4, "x"), Span(5, 6, "y")) and m.get("e") == ()
    assert instance_majority([a, b]).get("d") == (Span(0, 4, "x"),)  # 2 of 2: both
    assert instance_majority([a, b, c], label="y").get("d") == (Span(5, 6, "y"),)
    assert instance_majority([a, b, c], min_votes=3).get("d") == ()
    assert instance_majority([a, b, c], min_votes=1).get("d") == (
        Span(0, 4, "x"), Span(1, 4, "x"), Span(5, 6, "y"), Span(5, 6, "z"))
