"""Tour 5's findings on agreement (docs/agreement.md): a measure on a subset of the documents
says so, a pair's char-κ does not depend on who else is loaded, and the warnings for labels
that differ only in case and for an annotator missing documents."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.cli_runs import core_main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "agree_tour"
MISSING = str(DATA / "missing_doc.csv")


def agree(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m core agree ARGS``, run in process (:func:`tests.cli_runs.core_main`)."""
    return core_main("agree", *args)


def test_subset_measures_say_how_many_documents_they_read() -> None:
    proc = agree(MISSING, "--measure", "fleiss-kappa", "--measure", "unitizing-alpha",
                 "--measure", "krippendorff-alpha")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    note = "(2 of 3 documents: those all 3 annotators cover)"
    assert next(x for x in lines if x.startswith("fleiss-kappa: ")).endswith(note)
    assert next(x for x in lines if x.startswith("unitizing-alpha: ")).endswith(note)
    # Krippendorff's α reads every document at least two annotators cover: no note.
    assert "documents" not in next(x for x in lines if x.startswith("krippendorff-alpha: "))
    out = json.loads(agree(MISSING, "--measure", "fleiss-kappa", "--json").stdout)
    assert (out["fleiss-kappa"]["documents"], out["fleiss-kappa"]["documents_left_out"]) == (2, 1)


def test_no_note_when_every_document_is_read() -> None:
    proc = agree(str(ROOT / "tests" / "agreement" / "data" / "three_annotators.csv"),
                 "--measure", "fleiss-kappa")
    assert proc.returncode == 0, proc.stderr
    assert "annotators cover" not in proc.stdout


def test_a_pairs_char_kappa_is_its_matrix_cell_given_the_schemes_labels() -> None:
    """ann3 used a third label; the study pools over it: 0.8124 in the three-annotator matrix;
    the pair alone pools over its own two labels (0.7870) unless --label-set names the three."""
    def pair(*args: str) -> float:
        proc = agree(*args, "--measure", "char-kappa", "--json")
        assert proc.returncode == 0, proc.stderr
        return float(json.loads(proc.stdout)["char-kappa"]["matrix"]["ann1"]["ann2"])

    three = pair(str(DATA / "pair_and_third.csv"))
    two = str(DATA / "pair_only.csv")
    assert round(three, 4) == 0.8124
    assert round(pair(two), 4) == 0.7870
    assert pair(two, "--label-set", str(DATA / "labels.txt")) == three


def test_the_label_set_adds_unused_labels_to_the_study() -> None:
    from core.metrics.agreement import Study
    from core.model import AnnotationSet, Span

    a = AnnotationSet("a", {"d": (Span(0, 4, "x"),)}, role="annotator")
    b = AnnotationSet("b", {"d": (Span(0, 3, "x"),)}, role="annotator")
    assert Study.from_sets([a, b]).labels == ["x"]
    assert Study.from_sets([a, b], labels=["y", "x"]).labels == ["x", "y"]
    assert Study.from_sets([a, b], labels=["y"], label="x").labels == ["x"]


def test_agree_warns_of_labels_differing_in_case_and_of_a_missing_document() -> None:
    """ann3 wrote 'slogans ' for 'Slogans' and has no t3 (tests/data/agree_tour)."""
    case = str(DATA / "case_variant.csv")
    variant = ("labels 'Slogans' (ann1, ann2) and 'slogans ' (ann3) differ only in case or "
               "surrounding spaces: probably one label, counted as two")
    missing = "ann3: lacks 1 of the study's 3 documents (other annotators have them): 't3'"
    out = json.loads(agree(case, "--measure", "fleiss-kappa", "--json").stdout)
    assert out["warnings"] == [variant, missing]
    text = agree(case, "--measure", "fleiss-kappa")
    assert f"warning: {variant}" in text.stdout + text.stderr
    assert f"warning: {missing}" in text.stdout + text.stderr
    # every annotator covers every document, one spelling per label: no warning
    full = agree(str(ROOT / "tests" / "agreement" / "data" / "three_annotators.csv"),
                 "--measure", "fleiss-kappa", "--json")
    assert json.loads(full.stdout)["warnings"] == []


def test_undefined_per_label_fleiss_names_the_cause_for_any_number_of_annotators() -> None:
    from core.metrics.agreement import Study, fleiss_text
    from core.model import AnnotationSet, Span

    def ann(name: str, extra: tuple[Span, ...]) -> AnnotationSet:
        return AnnotationSet(name, {"d1": (Span(0, 4, "Everywhere"), *extra),
                                    "d2": (Span(2, 6, "Everywhere"),)}, role="annotator")

    study = Study.from_sets([ann("a", (Span(5, 9, "Some"),)), ann("b", ()), ann("c", ())],
                            labels=["Nobody"])
    res = fleiss_text(study)
    assert res.per_label["Everywhere"].reason == (
        "Fleiss' kappa is undefined: every one of the 3 annotators used 'Everywhere' in each of "
        "the 2 documents all 3 cover, so there is no disagreement to measure (expected "
        "agreement is 1)")
    assert res.per_label["Nobody"].reason == (
        "Fleiss' kappa is undefined: nobody used 'Nobody' in the 2 documents all 3 cover, so "
        "there is no disagreement to measure (expected agreement is 1)")
    assert res.per_label["Some"].value is not None
    assert all("both coders" not in (a.reason or "") for a in res.per_document.values())


def test_the_label_set_is_refused_with_the_dask_engine() -> None:
    proc = agree(str(DATA / "pair_only.csv"), "--measure", "char-kappa", "--engine", "dask",
                 "--label-set", str(DATA / "labels.txt"))
    assert proc.returncode == 2
    assert "--label-set runs on one machine" in proc.stderr


def test_an_annotators_missing_documents_are_counted_under_their_own_kind() -> None:
    """They were counted under ``other`` (``warning_counts`` of ``--json``, the text's
    ``warnings:`` line): their kind says what they are, whatever the names in the message."""
    out = json.loads(agree(MISSING, "--measure", "fleiss-kappa", "--json").stdout)
    assert out["warning_counts"] == {"missing-documents": 1}
    text = agree(MISSING, "--measure", "fleiss-kappa")
    assert "warnings: 1 (missing-documents 1)" in text.stdout + text.stderr
    # an annotator and documents named like another kind's phrase do not change the kind
    from core.metrics.agreement.study import Study, missing_documents
    from core.model import AnnotationSet
    from core.model.errors import warning_kind

    a = AnnotationSet("skipped", {"d1": ()}, role="annotator")
    b = AnnotationSet("ann", {"d1": (), "ends in whitespace": (), "merged ignored": ()},
                      role="annotator")
    (warning,) = missing_documents(Study.from_sets([a, b]))
    assert warning.startswith("skipped: lacks 2 of") and "'ends in whitespace'" in warning
    assert warning_kind(warning) == "missing-documents"
