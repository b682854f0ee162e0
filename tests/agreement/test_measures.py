"""Span → item constructions, breakdowns and undefined cases, on small hand-computed examples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement import (
    Study,
    char_agreement,
    cohen_kappa,
    compute,
    fleiss_text,
    gamma,
    krippendorff_alpha,
    krippendorff_text,
    text_kappa,
    unitizing,
)
from core.model import AnnotationSet, Span
from core.model.errors import InputError, UsageError

TEXT = "0123456789 123456789"  # 20 characters


def _hand() -> Study:
    """A marks [0, 10) X; B marks [2, 10) X and [12, 16) Y, in one 20-character document."""
    a = AnnotationSet("A", {"d": (Span(0, 10, "X"),)}, role="annotator")
    b = AnnotationSet("B", {"d": (Span(2, 10, "X"), Span(12, 16, "Y"))}, role="annotator")
    return Study.from_sets([a, b], {"d": TEXT})


def test_char_kappa_per_label_position_and_flat_match_hand_computation() -> None:
    kappa, jaccard = char_agreement(_hand())
    pair = kappa.pairs[("A", "B")]
    # X: n11=8 n10=2 n01=0 n00=10 → p_o 0.9, p_e 0.5 → 0.8
    assert pair.per_label["X"].value == pytest.approx(0.8)
    # Y: only B → p_o 0.8 = p_e → 0
    assert pair.per_label["Y"].value == pytest.approx(0.0)
    # any span: n11=8 n10=2 n01=4 n00=6 → p_o 0.7, p_e 0.5 → 0.4
    assert pair.extra["position"].value == pytest.approx(0.4)
    # pooled char × label: n11=8 n10=2 n01=4 n00=26 → (0.85 − 0.6) / 0.4
    assert pair.overall.value == pytest.approx(0.625)
    assert pair.extra["macro"].value == pytest.approx(0.4)
    assert kappa.matrix()["B"]["A"] == kappa.matrix()["A"]["B"]
    jp = jaccard.pairs[("A", "B")]
    assert jp.per_label["X"].value == pytest.approx(0.8)
    assert jp.overall.value == pytest.approx(8 / 14)
    assert jp.extra["position"].value == pytest.approx(8 / 14)
    assert jp.per_document["d"].value == pytest.approx(8 / 14)


def test_unitizing_alpha_of_hand_example_is_computed_per_label_and_overall() -> None:
    r = unitizing(_hand())
    assert r.per_label["X"].value is not None and r.per_label["X"].value < 1
    assert r.per_label["Y"].value is not None
    assert r.overall.value == pytest.approx(
        1 - (r.per_label["X"].stats["D_o"] + r.per_label["Y"].stats["D_o"])
        / (r.per_label["X"].stats["D_e"] + r.per_label["Y"].stats["D_e"]))
    assert set(r.per_document) == {"d"}


def test_text_kappa_on_one_document_is_undefined_with_reason_not_an_error() -> None:
    r = text_kappa(_hand())
    x = r.pairs[("A", "B")].per_label["X"]
    assert x.value is None and "expected agreement is 1" in (x.reason or "")


def test_label_nobody_used_gives_reasons_everywhere() -> None:
    a = AnnotationSet("A", {"d": (Span(0, 10, "X"),)}, role="annotator")
    b = AnnotationSet("B", {"d": (Span(2, 10, "X"),)}, role="annotator")
    study = Study.from_sets([a, b], {"d": TEXT}, label="Z")
    kappa, jaccard = char_agreement(study)
    assert kappa.pairs[("A", "B")].per_label["Z"].value is None
    assert "neither annotator marked it" in (kappa.pairs[("A", "B")].per_label["Z"].reason or "")
    assert jaccard.pairs[("A", "B")].overall.value is None
    assert unitizing(study).per_label["Z"].value is None
    assert "no coder marked" in (unitizing(study).per_label["Z"].reason or "")
    assert krippendorff_text(study).overall.value is None
    assert fleiss_text(study).overall.value is None
    g = gamma(study, samples=3)
    assert g.overall.value is None and g.overall.reason


def test_annotator_without_any_span_is_scored_not_crashed() -> None:
    a = AnnotationSet("A", {"d": (), "e": ()}, role="annotator")
    b = AnnotationSet("B", {"d": (Span(0, 5, "X"),), "e": (Span(3, 9, "X"),)},
                      role="annotator")
    study = Study.from_sets([a, b], {"d": TEXT, "e": TEXT})
    kappa, _ = char_agreement(study)
    assert kappa.pairs[("A", "B")].overall.value == pytest.approx(0.0)
    g = gamma(study, samples=5)
    assert g.overall.value is not None and g.overall.value <= 0
    assert unitizing(study).overall.value is not None


def test_missing_documents_are_left_out_and_counted() -> None:
    a = AnnotationSet("A", {"d": (Span(0, 5, "X"),), "e": (Span(0, 5, "X"),)}, role="annotator")
    b = AnnotationSet("B", {"d": (Span(0, 5, "X"),)}, role="annotator")
    c = AnnotationSet("C", {"d": (Span(0, 6, "X"),), "e": (Span(0, 5, "X"),)}, role="annotator")
    study = Study.from_sets([a, b, c], {"d": TEXT, "e": TEXT})
    f = fleiss_text(study)
    assert f.params["documents"] == 1 and f.params["documents_left_out"] == 1
    alpha = krippendorff_text(study)  # keeps the missing value
    assert alpha.params["documents"] == 2
    assert set(char_agreement(study)[0].pairs[("A", "C")].per_document) == {"d", "e"}
    assert set(char_agreement(study)[0].pairs[("A", "B")].per_document) == {"d"}


def test_documents_rank_by_disagreement() -> None:
    a = AnnotationSet("A", {"good": (Span(0, 10, "X"),), "bad": (Span(0, 10, "X"),)},
                      role="annotator")
    b = AnnotationSet("B", {"good": (Span(0, 10, "X"),), "bad": (Span(12, 18, "X"),)},
                      role="annotator")
    study = Study.from_sets([a, b], {"good": TEXT, "bad": TEXT})
    kappa, _ = char_agreement(study)
    assert [d for d, _ in kappa.document_ranking()] == ["bad", "good"]
    assert [d for d, _ in unitizing(study).document_ranking()] == ["bad", "good"]
    assert [d for d, _ in gamma(study, samples=5).document_ranking()] == ["bad", "good"]


def test_numeric_labels_get_ordinal_interval_and_ratio_alpha() -> None:
    ratings = {"A": [1, 2, 3, 3], "B": [1, 2, 3, 4], "C": [2, 2, 3, 4]}
    sets = [AnnotationSet(who, {f"t{i}": (Span(0, 1, str(v)),) for i, v in enumerate(vals)},
                          role="annotator") for who, vals in ratings.items()]
    r = krippendorff_text(Study.from_sets(sets))
    assert {"level_nominal", "level_ordinal", "level_interval", "level_ratio"} <= set(r.extra)
    assert r.extra["level_interval"].value is not None
    assert r.extra["level_interval"].value > r.extra["level_nominal"].value  # type: ignore[operator]


def test_study_refuses_duplicate_names_spans_past_the_text_and_one_annotator() -> None:
    a = AnnotationSet("A", {"d": (Span(0, 5, "X"),)}, role="annotator")
    with pytest.raises(InputError, match="both named 'A'"):
        Study.from_sets([a, a])
    long = AnnotationSet("B", {"d": (Span(0, 50, "X"),)}, role="annotator")
    with pytest.raises(InputError, match="after the end of the text"):
        Study.from_sets([a, long], {"d": TEXT})
    with pytest.raises(InputError, match="at least two annotators"):
        char_agreement(Study.from_sets([a]))


def test_unknown_measure_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="'measure' parameter of agree"):
        compute(_hand(), "mega-kappa")


spans_strategy = st.lists(st.tuples(st.integers(0, 25), st.integers(1, 10),
                                    st.sampled_from(["X", "Y"])), max_size=5)


@settings(deadline=None, max_examples=60)
@given(spans_strategy, spans_strategy)
def test_char_kappa_from_counts_equals_kappa_of_explicit_character_vectors(
        raw_a: list[tuple[int, int, str]], raw_b: list[tuple[int, int, str]]) -> None:
    text = "x" * 40
    a = AnnotationSet("A", {"d": tuple(Span(s, min(40, s + n), lab) for s, n, lab in raw_a)},
                      role="annotator")
    b = AnnotationSet("B", {"d": tuple(Span(s, min(40, s + n), lab) for s, n, lab in raw_b)},
                      role="annotator")
    study = Study.from_sets([a, b], {"d": text})
    kappa, _ = char_agreement(study)
    for lab in study.labels:
        va = [any(sp.start <= i < sp.end and sp.label == lab for sp in a.spans["d"])
              for i in range(40)]
        vb = [any(sp.start <= i < sp.end and sp.label == lab for sp in b.spans["d"])
              for i in range(40)]
        want = cohen_kappa(va, vb)
        got = kappa.pairs[("A", "B")].per_label[lab]
        assert (got.value is None) == (want.value is None)
        if want.value is not None:
            assert got.value == pytest.approx(want.value, abs=1e-12)
    # text level: α on the documents × labels table equals α on the explicit coder table
    alpha = krippendorff_text(study)
    if study.labels:
        table = [[int(lab in {sp.label for sp in s.spans["d"]}) for lab in study.labels]
                 for s in (a, b)]
        want_alpha = krippendorff_alpha(table)
        assert (alpha.overall.value is None) == (want_alpha.value is None)
        if want_alpha.value is not None:
            assert alpha.overall.value == pytest.approx(want_alpha.value, abs=1e-12)


def test_mafalda_nothing_alternative_is_left_out_with_a_warning() -> None:
    a = AnnotationSet("A", {"d": (Span(0, 5, "X"), Span(0, 5, "nothing"))}, role="annotator",
                      alternatives=True)
    b = AnnotationSet("B", {"d": (Span(0, 5, "X"),)}, role="annotator")
    study = Study.from_sets([a, b], {"d": TEXT})
    assert study.labels == ["X"]
    assert study.warnings and "'nothing'" in study.warnings[0]
    assert char_agreement(study)[0].pairs[("A", "B")].overall.value == pytest.approx(1.0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 10**7), min_size=4, max_size=4))
def test_binary_kappa_in_plain_floats_equals_the_table_kappa(counts: list[int]) -> None:
    from core.metrics.agreement.coefficients import cohen_kappa_binary, cohen_kappa_from_table

    n11, n10, n01, n00 = counts
    fast = cohen_kappa_binary(n11, n10, n01, n00)
    table = cohen_kappa_from_table([[n11, n10], [n01, n00]])
    assert (fast.value, fast.reason, dict(fast.stats)) == (table.value, table.reason,
                                                          dict(table.stats))


def test_a_documents_undefined_alpha_says_why_in_words() -> None:
    """bugleft18: a document's α on the Annotators page was "undefined: no unit has values from
    two coders" or "expected disagreement is 0 (every pairable value is the same, e.g. a label
    nobody used)": the words of the formula. Each now says what about the document makes it
    so: one annotator has it (naming who), nobody marked a label in it, or every annotator
    marked every label."""
    a = AnnotationSet("Ayla", {"d1": (Span(0, 2, "x"),), "d2": (Span(0, 2, "x"),), "d3": (),
                               "d4": (Span(0, 2, "x"), Span(3, 5, "y"))}, role="annotator")
    b = AnnotationSet("Ben", {"d1": (Span(0, 2, "y"),), "d3": (),
                              "d4": (Span(0, 1, "x"), Span(3, 4, "y"))}, role="annotator")
    res = krippendorff_text(Study.from_sets([a, b]))
    per = res.per_document
    assert per["d1"].value is not None
    assert all(per[d].value is None for d in ("d2", "d3", "d4"))
    assert "only Ayla has this document" in (per["d2"].reason or "")
    assert "nobody marked any label in this document" in (per["d3"].reason or "")
    assert "both annotators marked every label (x, y) in this document" in (per["d4"].reason or "")
    for d in ("d2", "d3", "d4"):
        reason = per[d].reason or ""
        assert "coders" not in reason and "pairable" not in reason, reason
        assert "no disagreement to measure" in reason or "two annotators" in reason
