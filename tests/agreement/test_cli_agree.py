"""``python -m core agree``: the command-line contract for agreement."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.cli_runs import core_main, python_m_core

DATA = Path(__file__).parent / "data"
CSV = str(DATA / "three_annotators.csv")
MANY = ("fleiss-kappa", "krippendorff-alpha", "unitizing-alpha", "gamma", "gamma-cat")
PAIRWISE = ("char-kappa", "char-jaccard", "text-kappa")


def agree(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m core agree ARGS``, run in process (:func:`tests.cli_runs.core_main`)."""
    return core_main("agree", *args)


@pytest.mark.slow
def test_json_holds_one_object_keyed_by_measure() -> None:
    args = [CSV]
    for m in PAIRWISE + MANY:
        args += ["--measure", m]
    # a process of its own: the whole of standard output is one JSON object
    proc = python_m_core("agree", *args, "--json", "--samples", "5")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["annotators"] == ["ann1", "ann2", "ann3"]
    for m in PAIRWISE:
        matrix = out[m]["matrix"]
        assert set(matrix) == {"ann1", "ann2", "ann3"}
        assert matrix["ann1"]["ann1"] is None
        assert matrix["ann1"]["ann2"] == matrix["ann2"]["ann1"]
    for m in MANY:
        assert out[m]["kind"] == "many"
        assert isinstance(out[m]["value"], float)
    assert out["gamma"]["samples"] == 5 and out["gamma"]["seed"] == 0
    assert "per_document" not in out["gamma"]


@pytest.mark.slow
def test_text_output_prints_matrix_and_single_values() -> None:
    proc = agree(CSV, "--measure", "char-kappa", "--measure", "unitizing-alpha")
    assert proc.returncode == 0, proc.stderr
    assert "char-kappa:" in proc.stdout and "ann1" in proc.stdout
    assert "unitizing-alpha: " in proc.stdout


@pytest.mark.slow
def test_per_document_breakdown_ranks_documents() -> None:
    proc = agree(CSV, "--measure", "gamma", "--samples", "5", "--per-document", "--json")
    out = json.loads(proc.stdout)
    assert set(out["gamma"]["per_document"]) == {"t1", "t2", "t3"}
    ranking = [r["value"] for r in out["gamma"]["document_ranking"]]
    assert ranking == sorted(ranking)


@pytest.mark.slow
def test_same_seed_same_gamma_and_seed_changes_it() -> None:
    a = json.loads(agree(CSV, "--measure", "gamma", "--seed", "3", "--json").stdout)
    b = json.loads(agree(CSV, "--measure", "gamma", "--seed", "3", "--json").stdout)
    c = json.loads(agree(CSV, "--measure", "gamma", "--seed", "4", "--json").stdout)
    assert a["gamma"]["value"] == b["gamma"]["value"] != c["gamma"]["value"]


def test_label_option_restricts_to_one_label_and_explains_an_unused_one() -> None:
    out = json.loads(agree(CSV, "--measure", "unitizing-alpha", "--label", "Nothing here",
                           "--json").stdout)
    assert out["labels"] == ["Nothing here"]
    assert out["unitizing-alpha"]["value"] is None
    assert out["unitizing-alpha"]["per_label"]["Nothing here"]["reason"]


def test_unknown_measure_exits_2() -> None:
    proc = python_m_core("agree", CSV, "--measure", "mega-kappa")  # the exit status of a process
    assert proc.returncode == 2
    assert "'measure' parameter of agree must be one of" in proc.stderr


@pytest.mark.parametrize("name", ["gamma-k", "γ-k", "gamma_k"])
def test_gamma_k_points_to_gamma_cat_and_where_its_per_label_values_are(name: str) -> None:
    proc = agree(CSV, "--measure", name, "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert (f"{name!r} is no measure of its own: γ-k, the agreement on one label (Mathet 2018), "
            "is the per-label value of 'gamma-cat'. Use --measure gamma-cat: its values per "
            'label are listed under its overall value (with --json, under "gamma-cat" → '
            '"per_label")') in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_help_and_gamma_cat_hold_the_per_label_values_gamma_k_names() -> None:
    # where the refusal points: gamma-cat's per-label values, one per label
    out = json.loads(agree(CSV, "--measure", "gamma-cat", "--json", "--samples", "5").stdout)
    assert set(out["gamma-cat"]["per_label"]) == set(out["labels"])
    shown = re.sub(r"- ", "-", " ".join(agree("--help").stdout.split()))  # argparse's wrapping
    assert "gamma-cat (repeatable; gamma-cat's per-label values are γ-k)" in shown


@pytest.mark.slow
def test_a_single_annotation_set_exits_1_with_one_message(tmp_path: Path) -> None:
    one = tmp_path / "one.csv"
    one.write_text("doc_id,start,end,label\nt1,0,5,Doubt\n", encoding="utf-8")
    proc = agree(str(one), "--measure", "char-kappa")
    assert proc.returncode == 1
    assert "at least two annotation sets" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_span_f1_prints_both_directions_with_row_as_reference() -> None:
    out = json.loads(agree(CSV, "--measure", "span-f1", "--json").stdout)["span-f1"]
    assert out["symmetric"] is False and out["reference"] == "row"
    assert out["matrix_precision"]["ann1"]["ann2"] == out["matrix_recall"]["ann2"]["ann1"]
    text = agree(CSV, "--measure", "span-f1").stdout
    assert "row = reference" in text and "precision:" in text and "recall:" in text


@pytest.mark.slow
def test_span_f1_says_it_gives_partial_credit_not_exact_match(tmp_path: Path) -> None:
    """bratiaa's example (Kolditz 2019): Max marks "Grenoble (Francia)" as one LOC where Lisa
    marks "Grenoble" and "Francia". No span matches exactly (exact-match F1 0), yet span-f1 is
    30/33: Lisa's spans lie inside Max's (precision 1) and cover 15 of its 18 characters
    (recall 15/18, Max as the reference). The text output must say which F1 it is."""
    csv_file = tmp_path / "two.csv"
    csv_file.write_text("doc_id,start,end,label,annotator\n"
                        "d,0,18,LOC,Max\nd,0,8,LOC,Lisa\nd,10,17,LOC,Lisa\n", encoding="utf-8")
    out = json.loads(agree(str(csv_file), "--measure", "span-f1", "--json").stdout)["span-f1"]
    assert out["matrix_precision"]["Max"]["Lisa"] == pytest.approx(1.0)
    assert out["matrix_recall"]["Max"]["Lisa"] == pytest.approx(15 / 18)
    assert out["matrix"]["Max"]["Lisa"] == pytest.approx(30 / 33)
    text = agree(str(csv_file), "--measure", "span-f1").stdout
    assert "Da San Martino et al. 2019" in text and "not exact-match F1" in text


def test_without_constant_labels_adds_one_key_and_keeps_the_others() -> None:
    """bugleft26: ``--without-constant-labels`` adds Fleiss' κ and Krippendorff's α without the
    labels every annotator used in every document (LOC in the three annotators' brat project:
    0.7033 -> 0.4462 and 0.7143 -> 0.4769, by hand in
    tests/app/test_annotators_constant_labels.py); every other key is the same as without it,
    and a pairwise measure gets nothing."""
    folder = str(Path(__file__).resolve().parents[1] / "data" / "agreement"
                 / "constant_label_brat")
    measures = ["--measure", "fleiss-kappa", "--measure", "krippendorff-alpha",
                "--measure", "char-kappa"]
    plain = agree(folder, *measures, "--json")
    added = agree(folder, *measures, "--json", "--without-constant-labels")
    assert plain.returncode == 0 == added.returncode, added.stderr
    before, after = json.loads(plain.stdout), json.loads(added.stdout)
    for m, value in (("fleiss-kappa", 0.4462), ("krippendorff-alpha", 0.4769)):
        extra = after[m].pop("without_constant_labels")
        assert extra["value"] == pytest.approx(value, abs=5e-5)
        assert extra["labels_left_out"] == ["LOC"] and extra["labels"] == ["MISC", "ORG"]
        assert extra["units"] == 6
    assert after == before
    text = agree(folder, "--measure", "fleiss-kappa", "--without-constant-labels").stdout
    assert ("  without the labels every annotator used in every document (LOC): 0.4462"
            in text.splitlines())
