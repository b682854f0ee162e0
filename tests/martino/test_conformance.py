"""Every Martino-family case of the official conformance cases (``tests/data/conformance/``),
through the command line.

Numbers equal the official scorer's within 1e-9 where it scored; where it refused the input or
crashed, ``python -m core score`` exits 1 with one clear message. One case differs on purpose:
duplicate document ids are refused (the official 2021 scorer silently keeps the last entry).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main

from .conftest import VARIANT_OF, load_cases, technique_list, write_case

CASES = load_cases()

DELIBERATE_REFUSALS = {"s21_duplicate_document_id_in_prediction": "duplicate document id"}

# Cases the official scorer scores and we refuse by default (core.model.bounds: one policy for spans
# past the text); the option given here scores them exactly as the official scorer does.
OFFICIAL_OPTIONS = {"s21_offsets_beyond_text_accepted": ["--beyond-text", "official"]}

# What our message must say for each official error or crash (the official wording differs).
EXPECTED_MESSAGE = {
    "s21_unknown_technique_error": "expected one of the 20 labels",
    "s21_document_id_mismatch_error": "must cover the same documents",
    "s21_start_equals_end_error": "field 'end'",
    "s21_negative_offset_error": "field 'start'",
    "s21_missing_field_error": "technique",
    "s21_non_numeric_offset_crash": "'abc'",
    "flc_overlapping_prediction_same_technique_error": "--merge-pred",
    "flc_unknown_technique_error": "expected one of the 18 labels",
    "flc_more_submission_articles_than_gold_error": "'999'",
    "flc_submission_article_not_in_gold_crash": "only in",
    "flc_non_integer_offset_crash": "field 'start'",
    "flc_blank_line_in_submission_error": "pred.tsv:2: blank line",
    "si_overlapping_predictions_without_merge_error": "--merge-pred",
    "si_gold_row_article_id_differs_from_filename_crash": "556",
    "tc_span_mismatch_error": "[0,11) vs [0,10)",
}


def _run(case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
         ) -> tuple[int, str, str]:
    gold, pred = write_case(case, tmp_path)
    argv = ["score", str(gold), str(pred), "--metric", "martino",
            "--variant", VARIANT_OF[case["scorer"]], "--json"]
    labels = technique_list(case)
    if labels is not None:
        lf = tmp_path / "techniques.txt"
        lf.write_text("\n".join(labels) + "\n", encoding="utf-8")
        argv += ["--labels", str(lf)]
    argv += OFFICIAL_OPTIONS.get(case["name"], [])
    options = case.get("options") or {}
    if options.get("merge_user_annotations"):
        argv.append("--merge-pred")
    if options.get("fragments_only"):
        argv.append("--fragments-only")
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_spans_past_the_text_are_refused_by_default_and_scored_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (case,) = [c for c in CASES if c["name"] == "s21_offsets_beyond_text_accepted"]
    gold, pred = write_case(case, tmp_path)
    base = ["score", str(gold), str(pred), "--metric", "martino", "--json"]
    assert main(base) == 1
    _, err = capsys.readouterr()
    assert "ends past the text" in err and "--clip-spans" in err
    assert main([*base, "--beyond-text", "official"]) == 0
    out, _ = capsys.readouterr()
    assert any("scored as it is, as the official scorers do" in w
               for w in json.loads(out)["warnings"])


def _scored(case: dict[str, Any]) -> bool:
    return case["official_output"]["summary"]["status"] == "ok"


@pytest.mark.parametrize("case", [c for c in CASES if _scored(c)
                                  and c["name"] not in DELIBERATE_REFUSALS],
                         ids=lambda c: c["name"])
def test_numbers_equal_the_official_scorer(case: dict[str, Any], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(case, tmp_path, capsys)
    assert code == 0, err
    got = json.loads(out)
    want = case["official_output"]["summary"]
    for key in ("precision", "recall", "f1"):
        assert got[key] == pytest.approx(want[key], abs=1e-9), key
    for key in ("precision_numerator", "precision_denominator", "recall_numerator",
                "recall_denominator"):
        if key in want:
            # A few fixture numerators were read off the scorer's "%f" printout (6 decimals).
            printed = len(repr(float(want[key])).split(".")[-1]) <= 6
            tol = 5e-7 if printed else 1e-9
            assert got[key] == pytest.approx(want[key], abs=tol), key
    official = want.get("per_technique_f1") or {
        k: v["f1"] for k, v in (want.get("per_technique") or {}).items()}
    if official:
        assert list(got["per_label_official"]) == list(official)
        for label, f1 in official.items():
            assert got["per_label_official"][label] == pytest.approx(f1, abs=1e-9), label
    for label, v in (want.get("per_technique") or {}).items():
        detail = got["per_label_official_detail"][label]
        assert detail["precision"] == pytest.approx(v["p"], abs=1e-9)
        assert detail["recall"] == pytest.approx(v["r"], abs=1e-9)


@pytest.mark.parametrize("case", [c for c in CASES if not _scored(c)
                                  or c["name"] in DELIBERATE_REFUSALS],
                         ids=lambda c: c["name"])
def test_official_errors_exit_1_with_a_clear_message(case: dict[str, Any], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(case, tmp_path, capsys)
    assert code == 1
    assert out == ""
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    expected = DELIBERATE_REFUSALS.get(case["name"]) or EXPECTED_MESSAGE[case["name"]]
    assert expected in err


def test_every_span_case_is_covered() -> None:
    names = {c["name"] for c in CASES}
    errors = {c["name"] for c in CASES if not _scored(c)}
    assert errors <= set(EXPECTED_MESSAGE)
    assert len(names) == 33
