"""Krippendorff's α on a label every annotator marks in every document (alpha14).

On bratiaa's four-annotator example (github.com/kldtz/bratiaa, ``example-files/example-project``)
``krippendorff-alpha`` is undefined for LOC, ORG and PER: all four annotators used each of them in
all seven documents, so the documents × labels table holds one value and D_e = 0. That is right,
and the reason says so; unitizing α, which compares where the spans lie, is defined on the same
labels. ``tests/data/agreement/alpha_everywhere_brat`` is that situation in small: our own two
texts, annotators A and B both mark LOC in both documents with different extents.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.cli_runs import core_main

ROOT = Path(__file__).resolve().parents[2]
EVERYWHERE = ROOT / "tests" / "data" / "agreement" / "alpha_everywhere_brat"


def agree(*args: str) -> dict:
    proc = core_main("agree", str(EVERYWHERE), *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_unitizing_alpha_of_a_label_used_everywhere_is_the_hand_computed_value() -> None:
    """The continuum is d1 then d2 (16 characters each), L = 32. LOC units: A (0,4) (22,26);
    B (0,4) (9,14) (22,30). D_o: (22,26)~(22,30) gives 0² + 4² = 16, B's (9,14) lies in A's gap
    and gives 5² = 25; both orders: 82 / (2·1·32²). D_e (Krippendorff 2004): unit lengths
    4, 4, 4, 5, 8 (N = 5), gaps 18, 6 (A) and 5, 8, 2 (B); the numerator sums to
    3·512 + 765 + 1888 = 4189, the denominator 64·63 − 112 = 3920, D_e = (2/32)·4189/3920."""
    d_o = Fraction(82, 2 * 1 * 32 * 32)
    d_e = Fraction(2, 32) * Fraction(4189, 3920)
    got = agree("--measure", "unitizing-alpha")["unitizing-alpha"]["per_label"]["LOC"]
    assert got["D_o"] == pytest.approx(float(d_o), rel=1e-12)
    assert got["D_e"] == pytest.approx(float(d_e), rel=1e-12)
    assert got["value"] == pytest.approx(float(1 - d_o / d_e), rel=1e-12)
    assert round(got["value"], 4) == 0.4005


def test_krippendorff_alpha_of_a_label_every_annotator_used_everywhere_says_so() -> None:
    got = agree("--measure", "krippendorff-alpha")["krippendorff-alpha"]
    assert got["per_label"]["LOC"]["value"] is None
    assert got["per_label"]["LOC"]["reason"] == (
        "Krippendorff's alpha is undefined: every one of the 2 annotators used 'LOC' in each of "
        "the 2 documents, so there is no disagreement to measure (expected disagreement is 0); "
        "this measure asks which labels a document has, not where its spans lie "
        "(unitizing-alpha, gamma and char-kappa compare the spans)")
    assert got["overall"]["reason"].startswith(
        "Krippendorff's alpha is undefined: every one of the 2 annotators used every label in "
        "each of the 2 documents")


def test_krippendorff_alpha_reason_names_an_unused_label_and_missing_documents() -> None:
    from core.metrics.agreement import Study, krippendorff_text
    from core.model import AnnotationSet, Span

    a = AnnotationSet("a", {"d1": (Span(0, 4, "X"), Span(5, 9, "Some")),
                            "d2": (Span(0, 2, "X"),), "d3": (Span(1, 3, "X"),)},
                      role="annotator")
    b = AnnotationSet("b", {"d1": (Span(0, 3, "X"),), "d2": (Span(1, 2, "X"),)},
                      role="annotator")
    c = AnnotationSet("c", {"d1": (Span(0, 4, "X"),), "d3": (Span(0, 3, "X"),)},
                      role="annotator")
    res = krippendorff_text(Study.from_sets([a, b, c], labels=["Nobody"]))
    assert res.per_label["X"].reason == (
        "Krippendorff's alpha is undefined: every annotator used 'X' in each of the 3 documents "
        "they cover (missing allowed), so there is no disagreement to measure (expected "
        "disagreement is 0); this measure asks which labels a document has, not where its "
        "spans lie (unitizing-alpha, gamma and char-kappa compare the spans)")
    assert res.per_label["Nobody"].reason == (
        "Krippendorff's alpha is undefined: nobody used 'Nobody' in the 3 documents at least two "
        "annotators cover, so there is no disagreement to measure (expected disagreement is 0)")
    assert res.per_label["Some"].value is not None
    assert res.overall.value is not None
