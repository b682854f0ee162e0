"""Every published agreement value in ``tests/data/conformance/iaa_cases.json``, one named test
each."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.metrics.agreement import (
    cohen_kappa,
    cohen_kappa_from_table,
    fleiss_kappa_from_ratings,
    krippendorff_alpha,
    unitizing_alpha,
)
from core.metrics.agreement.gamma_native import (
    Continuum,
    Dissimilarity,
    best_alignment,
    gamma_cat_from_docs,
    gamma_document,
    gamma_from_docs,
)
from core.metrics.agreement.unitizing import category_parts, segment_distance

CASES = Path(__file__).resolve().parents[1] / "data" / "conformance" / "iaa_cases.json"


@cache
def _cases() -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in json.loads(CASES.read_text(encoding="utf-8"))}


def case(name: str) -> dict[str, Any]:
    return _cases()[name]


def _alpha_case(name: str, level: str) -> None:
    c = case(name)
    got = krippendorff_alpha(c["input"]["reliability_data"], level=level)  # type: ignore[arg-type]
    assert got.value == pytest.approx(c["expected"]["alpha"], abs=c["tolerance"])
    assert got.value == pytest.approx(c["reference_value"]["alpha"], abs=1e-9)
    for key, stat in (("observed_disagreement", "D_o"), ("expected_disagreement", "D_e")):
        if key in c["expected"]:
            assert got.stats[stat] == pytest.approx(c["expected"][key], abs=c["tolerance"])


def test_alpha_nominal_matches_krippendorff2011_4coders() -> None:
    _alpha_case("krippendorff2011_4coders_12units_nominal", "nominal")


def test_alpha_ordinal_matches_krippendorff2011_4coders() -> None:
    _alpha_case("krippendorff2011_4coders_12units_ordinal", "ordinal")


def test_alpha_interval_matches_krippendorff2011_4coders() -> None:
    _alpha_case("krippendorff2011_4coders_12units_interval", "interval")


def test_alpha_ratio_matches_krippendorff2011_4coders() -> None:
    _alpha_case("krippendorff2011_4coders_12units_ratio", "ratio")


def test_alpha_nominal_matches_wikipedia_3coders() -> None:
    _alpha_case("wikipedia_3coders_15units_nominal", "nominal")


def test_alpha_interval_matches_wikipedia_3coders() -> None:
    _alpha_case("wikipedia_3coders_15units_interval", "interval")


def test_alpha_and_kappa_match_krippendorff2004_p227() -> None:
    name = "krippendorff2004_p227_2coders_3cats"
    _alpha_case(name, "nominal")
    c = case(name)
    k = cohen_kappa(*c["input"]["reliability_data"])
    assert k.value == pytest.approx(c["reference_value"]["cohen_kappa_same_data"], abs=1e-12)
    assert k.stats["p_o"] == pytest.approx(c["expected"]["percent_agreement"], abs=1e-3)


def test_alpha_and_kappa_match_krippendorff2004_binary() -> None:
    name = "krippendorff2004_binary_2coders_10units"
    _alpha_case(name, "nominal")
    c = case(name)
    k = cohen_kappa(*c["input"]["reliability_data"])
    assert k.value == pytest.approx(c["reference_value"]["cohen_kappa_same_data"], abs=1e-12)


def test_alpha_matches_krippendorff1980_3coders() -> None:
    _alpha_case("krippendorff1980_3coders_9units", "nominal")


def test_alpha_ordinal_matches_hayes_krippendorff2007() -> None:
    _alpha_case("hayes_krippendorff2007_5coders_40units_ordinal", "ordinal")


def test_kappa_matches_cohen1960_p45() -> None:
    c = case("cohen1960_p45_contingency")
    k = cohen_kappa_from_table(c["input"]["counts"])
    assert k.value == pytest.approx(c["expected"]["kappa"], abs=c["tolerance"])
    assert k.value == pytest.approx(c["reference_value"]["kappa"], abs=1e-12)
    assert k.stats["p_o"] == pytest.approx(c["expected"]["observed_agreement"], abs=1e-12)
    assert k.stats["p_e"] == pytest.approx(c["expected"]["expected_agreement"], abs=1e-12)


def test_fleiss_kappa_matches_fleiss1971_with_category_kappas() -> None:
    c = case("fleiss1971_30subjects_6raters")
    k = fleiss_kappa_from_ratings(c["input"]["ratings"])
    exp = c["expected"]
    assert k.value == pytest.approx(exp["kappa"], abs=c["tolerance"])
    assert k.value == pytest.approx(c["reference_value"]["kappa"], abs=1e-9)
    # Fleiss rounded p_j before squaring, so his P_e (0.2201) is 0.21994 unrounded
    assert k.stats["P_bar"] == pytest.approx(exp["observed_agreement"], abs=c["tolerance"])
    assert k.stats["P_e"] == pytest.approx(exp["expected_agreement"], abs=c["tolerance"])
    for cat, value in exp["category_kappa"].items():
        assert k.stats["category_kappa"][cat] == pytest.approx(value, abs=0.005)


def test_kappa_and_alpha_match_krippendorff1995_digitized_example_a() -> None:
    c = case("krippendorff1995_digitized_example_A")
    one, two = c["input"]["coder1"], c["input"]["coder2"]
    exp = c["expected"]
    assert cohen_kappa(one, two).value == pytest.approx(exp["cohen_kappa"], abs=c["tolerance"])
    alpha = krippendorff_alpha([one, two])
    assert alpha.value == pytest.approx(exp["krippendorff_alpha_nominal"], abs=c["tolerance"])
    # Scott's π is Fleiss' κ with two raters (Fleiss 1971, p. 378)
    pi = fleiss_kappa_from_ratings(list(zip(one, two, strict=True)))
    assert pi.value == pytest.approx(exp["scott_pi"], abs=c["tolerance"])


def _ann(c: dict[str, Any]) -> list[tuple[str, int, int, str]]:
    return [(a["annotator"], a["start"], a["end"], a["label"]) for a in c["input"]["annotations"]]


def test_unitizing_alpha_matches_krippendorff2004_p254() -> None:
    c = case("krippendorff2004_p254_unitizing")
    cont = c["input"]["continuum"]
    overall, per = unitizing_alpha(_ann(c), cont["begin"], cont["end"])
    exp, tol = c["expected"], c["tolerance"]
    assert overall.value == pytest.approx(exp["alpha_u"], abs=tol["alpha_u"])
    assert overall.value == pytest.approx(c["reference_value"]["alpha_u"], abs=1e-12)
    for cat, values in exp["per_category"].items():
        assert per[cat].stats["D_o"] == pytest.approx(values["D_o"], abs=tol["per_category"])
        assert per[cat].stats["D_e"] == pytest.approx(values["D_e"], abs=tol["per_category"])
        assert per[cat].value == pytest.approx(values["alpha"], abs=tol["per_category"])


def test_unitizing_segment_distances_match_krippendorff2004() -> None:
    c = case("krippendorff2004_unitizing_distance_examples")
    got = [segment_distance(tuple(g), tuple(h)) for g, h in c["input"]["pairs"]]  # type: ignore[arg-type]
    assert got == c["expected"]["distances"]


def test_unitizing_alpha_matches_krippendorff1995_p57_per_category() -> None:
    c = case("krippendorff1995_p57_unitizing_per_category")
    ann = _ann(c)
    begin, end = c["input"]["continuum"]["begin"], c["input"]["continuum"]["end"]
    exp, tol, ref = c["expected"], c["tolerance"], c["reference_value"]
    stretch = 50000
    for cat in "ABCD":
        coders = [[(s, e) for a, s, e, k in ann if a == who and k == cat] for who in ("0", "1")]
        parts = category_parts(coders, begin, end)
        assert parts.d_o == pytest.approx(exp["D_o"][cat], abs=tol["D_o"])
        assert parts.d_o == pytest.approx(ref["D_o"][cat], abs=1e-12)
        wide = category_parts([[(s * stretch, e * stretch) for s, e in units] for units in coders],
                              begin * stretch, end * stretch)
        assert wide.d_e == pytest.approx(exp["D_e_stretched"][cat], abs=tol["D_e_stretched"])
        alpha = 1 - wide.d_o / wide.d_e
        assert alpha == pytest.approx(exp["alpha_stretched"][cat], abs=tol["alpha_stretched"])
        assert alpha == pytest.approx(ref["alpha_stretched"][cat], abs=1e-6)


def test_unitizing_2016_family_case_is_secondary_and_not_a_target() -> None:
    # uα/|uα/c|uα (Krippendorff et al. 2016) are not implemented; the case is marked secondary
    assert "SECONDARY" in case("krippendorff2019_fig12_11_unitizing_family")["status"]


def test_positional_dissimilarity_matches_mathet2015_figure10() -> None:
    c = case("mathet2015_fig10_positional_dissimilarity")
    d = Dissimilarity(delta_empty=c["input"]["delta_empty"])
    got = [d.positional(u[0], u[1], v[0], v[1]) for u, v in c["input"]["pairs"]]
    assert got == pytest.approx(c["expected"]["d_pos"], abs=c["tolerance"])


def _continuum(c: dict[str, Any], annotators: list[str] | None = None
               ) -> tuple[Continuum, list[str]]:
    anns = c["input"].get("annotations", c["input"].get("units"))
    who = annotators or list(dict.fromkeys(a["annotator"] for a in anns))
    labels = sorted({a["label"] for a in anns})
    units = [(who.index(a["annotator"]), a["start"], a["end"], labels.index(a["label"]))
             for a in anns]
    return Continuum.build(units, len(who)), labels


def test_best_alignment_disorder_matches_pygamma_custom_matrix() -> None:
    c = case("pygamma_best_alignment_3annotators_custom_catmatrix")
    cont, labels = _continuum(c)
    spec = c["input"]["dissimilarity"]
    m = spec["categorical_matrix"]
    names = m["categories_sorted"]
    matrix = {a: {b: m["matrix"][i][j] for j, b in enumerate(names)} for i, a in enumerate(names)}
    diss = Dissimilarity(spec["alpha"], spec["beta"], spec["delta_empty"], matrix)
    a = best_alignment(cont, diss, labels)
    # pygamma computes in float32: equal to its 7 significant digits
    assert a.disorder == pytest.approx(c["expected"]["best_alignment_disorder"], rel=1e-7)
    assert len(a.tuples) == c["reference_value"]["n_unitary_alignments"]


def test_gamma_alex_paul_suzan_within_pygamma_spread() -> None:
    c = case("alex_paul_suzan_gamma_shuffle_sampler")
    cont, labels = _continuum(c)
    diss = Dissimilarity(alpha=3, beta=1, delta_empty=1)
    a = best_alignment(cont, diss, labels)
    assert a.disorder == pytest.approx(c["reference_value"]["best_alignment_disorder"], abs=1e-6)
    assert len(a.tuples) == c["expected"]["n_unitary_alignments"]
    cats = [None, *range(len(labels))]
    gammas, gamma_cats, k6 = [], [], []
    for seed in range(10):
        doc = gamma_document(cont, diss, labels, samples=30, seed=seed, sampler="shuffle",
                             categories=cats)
        gammas.append(gamma_from_docs([doc], 3, 30).value)
        gamma_cats.append(gamma_cat_from_docs([doc], None, 30).value)
        k = {lab: gamma_cat_from_docs([doc], i, 30).value for i, lab in enumerate(labels)}
        assert k["1"] == 1.0 and k["5"] == 1.0
        for lab in ("2", "3", "4", "7"):
            assert k[lab] is None or k[lab] <= 0  # None: chance disorder 0 (pygamma divides by 0)
        k6.append(k["6"])
    ref = c["reference_value"]["gamma_over_seeds_0_9"]
    lo, hi = c["expected"]["gamma_range"]
    assert lo - 0.01 <= float(np.mean(gammas)) <= hi
    assert abs(float(np.mean(gammas)) - ref["mean"]) < 3 * ref["std"]
    lo_c, hi_c = c["expected"]["gamma_cat_range"]
    assert lo_c <= float(np.mean(gamma_cats)) <= hi_c
    assert float(np.mean(k6)) == pytest.approx(c["expected"]["gamma_k"]["6"], abs=0.05)


def test_gamma_is_one_for_identical_annotations() -> None:
    c = case("gamma_edge_identical_annotations")
    cont, labels = _continuum(c)
    doc = gamma_document(cont, Dissimilarity(), labels, samples=5)
    assert doc.observed.disorder == c["expected"]["observed_disorder"]
    assert gamma_from_docs([doc], 2, 5).value == c["expected"]["gamma"]


def test_gamma_with_one_empty_annotator_is_at_most_zero_and_gamma_cat_one() -> None:
    c = case("gamma_edge_one_annotator_empty")
    cont, labels = _continuum(c, c["input"]["annotators"])
    spec = c["input"]["dissimilarity"]
    diss = Dissimilarity(spec["alpha"], spec["beta"], spec["delta_empty"])
    doc = gamma_document(cont, diss, labels, samples=10, categories=[None, 0])
    assert len(doc.observed.tuples) == 1 and doc.observed.tuples[0] == [0, -1]
    g = gamma_from_docs([doc], 2, 10).value
    assert g is not None and g <= 0
    assert gamma_cat_from_docs([doc], None, 10).value == c["expected"]["gamma_cat"]
    assert gamma_cat_from_docs([doc], 0, 10).value == c["expected"]["gamma_k('15')"]


def test_gamma_without_annotations_is_undefined_with_a_reason() -> None:
    c = case("gamma_edge_no_annotations")
    cont = Continuum.build([], len(c["input"]["annotators"]))
    doc = gamma_document(cont, Dissimilarity(), [], samples=5)
    got = gamma_from_docs([doc], 2, 5)
    assert got.value is None and "no annotator marked any span" in (got.reason or "")


def test_alpha_single_value_domain_is_undefined_with_a_reason() -> None:
    c = case("krippendorff_edge_single_value_domain")
    got = krippendorff_alpha(c["input"]["reliability_data"])
    assert got.value is None and "expected disagreement is 0" in (got.reason or "")


def test_combined_dissimilarity_uses_requested_delta_empty() -> None:
    c = case("gamma_combined_dissimilarity_nondefault_delta_empty")
    cont, labels = _continuum(c)
    spec = c["input"]["dissimilarity"]
    diss = Dissimilarity(spec["alpha"], spec["beta"], spec["delta_empty"])
    a = best_alignment(cont, diss, labels)
    assert a.disorder == c["expected"]["best_alignment_disorder"]


def test_mafalda_table2_case_is_informational() -> None:
    assert "INFORMATIONAL" in case("mafalda_table2_pairwise_iaa_targets")["status"]


def test_every_case_has_a_test_here() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    missing = [name for name in _cases() if f'"{name}"' not in source]
    assert missing == []
