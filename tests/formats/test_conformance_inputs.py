"""The official scorers' input cases (``tests/data/conformance/official_cases.json``), reader
side.

Where the official scorer accepts an input we read it to the same spans; where it errors or
crashes we refuse it with a message naming file, line and field (conformance README: "our tool
must refuse the input with a clear message"). The scores themselves are tested by the metric
suites.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from core.formats import ReadOptions, load_files
from core.model import Span
from core.model.errors import FormatError

CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "conformance" / "official_cases.json"


def _cases() -> dict[str, dict[str, Any]]:
    data = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return {c["name"]: c for c in data["cases"]}


CASES = _cases()


def _s21_pred_file(case: dict[str, Any]) -> bytes:
    """The prediction as the 2021 JSON file the official scorer was given."""
    entries = []
    for doc in case["pred"]["documents"]:
        if "raw" in doc:
            entries.append(doc["raw"])
        else:
            entries.append({"id": doc["id"], "labels": [
                {"technique": s["label"], "start": s["start"], "end": s["end"]}
                for s in doc["spans"]]})
    return json.dumps(entries, indent=1).encode("utf-8")


def _s21_labels() -> list[str]:
    data = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return list(data["meta"]["technique_lists"]["semeval2021_task6_subtask2"])


def test_string_offsets_are_accepted_like_the_official_scorer() -> None:
    case = CASES["s21_string_offsets_accepted"]
    assert case["official_output"]["summary"]["status"] == "ok"
    loaded = load_files({"pred.json": _s21_pred_file(case)}, name="pred.json")
    assert loaded.set.get("1") == (Span(0, 10, "Loaded Language"),)


@pytest.mark.parametrize(("name", "expected"), [
    ("s21_non_numeric_offset_crash",
     "pred.json:7: [0].labels[0].start: field 'start': expected a non-negative integer offset, "
     "got 'abc'"),
    ("s21_missing_field_error", "[0].labels[0]: field 'technique': missing"),
    ("s21_negative_offset_error",
     "[0].labels[0].start: field 'start': expected a non-negative integer offset, got -1"),
    ("s21_start_equals_end_error",
     "[0].labels[0].end: field 'end': expected an integer greater than start (10), got '10'"),
    ("s21_unknown_technique_error",
     "field 'technique': expected one of the 20 labels of the label list, got 'Propaganda'"),
])
def test_official_2021_errors_and_crashes_are_refused_with_a_clear_message(
    name: str, expected: str,
) -> None:
    case = CASES[name]
    assert case["official_output"]["summary"]["status"] in ("error", "crash")
    with pytest.raises(FormatError) as exc:
        load_files({"pred.json": _s21_pred_file(case)}, name="pred.json",
                   options=ReadOptions(labels=_s21_labels()))
    assert expected in str(exc.value)


def test_duplicate_document_id_is_refused_where_the_official_scorer_keeps_the_last() -> None:
    case = CASES["s21_duplicate_document_id_in_prediction"]
    assert case["official_output"]["summary"]["status"] == "ok"
    with pytest.raises(FormatError, match=r"duplicate document id '1': first at \[0\]"):
        load_files({"pred.json": _s21_pred_file(case)}, name="pred.json")


@pytest.mark.parametrize(("name", "expected"), [
    ("flc_non_integer_offset_crash",
     "pred.tsv:1: field 'start': expected a non-negative integer offset, got 'x'"),
    ("flc_blank_line_in_submission_error", "pred.tsv:2: blank line"),
])
def test_official_flc_submission_errors_are_refused(name: str, expected: str) -> None:
    case = CASES[name]
    raw = case["pred"]["raw_lines"].encode("utf-8")
    with pytest.raises(FormatError) as exc:
        load_files({"pred.tsv": raw}, name="pred.tsv")
    assert str(exc.value).startswith(expected)


def test_gold_row_id_differing_from_its_file_name_is_refused_not_a_crash() -> None:
    case = CASES["si_gold_row_article_id_differs_from_filename_crash"]
    (doc,) = case["gold"]["documents"]
    rows = "".join(f"{s.get('article_id_override', doc['id'])}\t{s['start']}\t{s['end']}\n"
                   for s in doc["spans"])
    files = {f"article{doc['id']}.task-si.labels": rows.encode("utf-8")}
    with pytest.raises(FormatError, match=r"gold/article555.task-si.labels:2: field "
                       r"'article_id': expected the article id of the file name \(555\), "
                       r"got '556'"):
        load_files(files, name="gold", fmt="ptc")
