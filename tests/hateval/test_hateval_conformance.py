"""Every HatEval case of the official conformance cases (``tests/data/conformance/``), through
the command line.

Where the final official program (``official_output.final_zip``) produced values, ours equal them
within 1e-9; where it exited, we exit 1 with a clear message; where it crashed on valid input
(a single class everywhere), we score it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main

CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "conformance" / "official_cases.json"
CASES = [c for c in json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
         if c["scorer"] == "hateval2019"]
LONG = {"HS": "HS", "TR": "TargetRange", "AG": "Aggressiveness"}


def _write(case: dict[str, Any], tmp: Path) -> tuple[Path, Path]:
    gold = tmp / "en.tsv"
    lines = [f"{r['id']}\t{r.get('text', 'a tweet')}\t{r['HS']}\t{r['TR']}\t{r['AG']}"
             for r in case["gold"]["rows"]]
    gold.write_text("\n".join(lines) + "\n", encoding="utf-8")
    task = case["options"]["task"]
    pred = tmp / f"en_{task}.tsv"
    if "raw_tsv" in case["pred"]:
        pred.write_text(case["pred"]["raw_tsv"], encoding="utf-8")
    else:
        cols = ("HS",) if task == "a" else ("HS", "TR", "AG")
        pred.write_text("".join("\t".join([r["id"], *(str(r[c]) for c in cols)]) + "\n"
                                for r in case["pred"]["rows"]), encoding="utf-8")
    return gold, pred


def _run(case: dict[str, Any], tmp: Path, capsys: pytest.CaptureFixture[str],
         *extra: str) -> tuple[int, str, str]:
    gold, pred = _write(case, tmp)
    code = main(["score", str(gold), str(pred), "--metric", f"hateval-{case['options']['task']}",
                 "--json", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def _case(name: str) -> dict[str, Any]:
    return next(c for c in CASES if c["name"] == name)


SCORED = ["hev_a_basic", "hev_a_perfect", "hev_a_extra_prediction_ids_dropped", "hev_b_basic",
          "hev_b_perfect"]
REFUSED = {
    "hev_a_missing_prediction_error": "missing: '110'",
    "hev_a_wrong_value_error": "field 'HS'",
    "hev_a_column_format_error": "a task A prediction has 2 columns",
    "hev_b_wrong_value_error": "field 'TR'",
}


@pytest.mark.parametrize("name", SCORED)
def test_values_equal_the_final_official_program(name: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    case = _case(name)
    code, out, err = _run(case, tmp_path, capsys)
    assert code == 0, err
    got = json.loads(out)
    want = case["official_output"]["final_zip"]["values"]
    if case["options"]["task"] == "a":
        assert got["accuracy"] == pytest.approx(want["acc_hs"], abs=1e-9)
        assert got["precision_macro"] == pytest.approx(want["p_macro"], abs=1e-9)
        assert got["recall_macro"] == pytest.approx(want["r_macro"], abs=1e-9)
        assert got["f1_macro"] == pytest.approx(want["f1_macro"], abs=1e-9)
        for cls, suffix in (("1", "hs"), ("0", "nohs")):
            assert got["per_class"][cls]["precision"] == pytest.approx(want[f"p_{suffix}"])
            assert got["per_class"][cls]["recall"] == pytest.approx(want[f"r_{suffix}"])
            assert got["per_class"][cls]["f1"] == pytest.approx(want[f"f1_{suffix}"])
    else:
        for key in ("accuracy", "precision_macro", "recall_macro", "f1_macro"):
            for short, long in LONG.items():
                assert got[key][short] == pytest.approx(want[key][long], abs=1e-9), (key, short)
        assert got["macro_f1"] == pytest.approx(want["macro_f1"], abs=1e-9)
        assert got["emr"] == pytest.approx(want["emr"], abs=1e-9)


def test_extra_prediction_ids_are_dropped_with_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(_case("hev_a_extra_prediction_ids_dropped"), tmp_path, capsys)
    assert code == 0
    assert any("not in" in w and "dropped" in w for w in json.loads(out)["warnings"])


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_official_exits_are_clear_errors(name: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(_case(name), tmp_path, capsys)
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert REFUSED[name] in err


def test_single_class_everywhere_is_scored_where_the_official_program_crashes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(_case("hev_a_single_class_everywhere_crash"), tmp_path, capsys)
    assert code == 0, err
    got = json.loads(out)
    assert (got["accuracy"], got["f1_macro"]) == (1.0, 1.0)
    assert list(got["per_class"]) == ["0"]


def test_non_numeric_first_id_is_data_by_default_and_a_header_by_the_official_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = _case("hev_a_non_numeric_first_id_treated_as_header")
    code, out, _ = _run(case, tmp_path, capsys)
    assert code == 0 and json.loads(out)["documents"] == 10
    code, out, _ = _run(case, tmp_path, capsys, "--hateval-header", "official")
    got = json.loads(out)
    want = case["official_output"]["final_zip"]["values"]
    assert got["documents"] == 9
    assert got["f1_macro"] == pytest.approx(want["f1_macro"], abs=1e-9)
    assert got["precision_macro"] == pytest.approx(want["p_macro"], abs=1e-9)
    assert got["accuracy"] == pytest.approx(want["acc_hs"], abs=1e-9)
    assert any("skipped as a header" in w for w in got["warnings"])


def test_duplicate_id_is_refused_with_its_lines(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    case = json.loads(json.dumps(_case("hev_a_basic")))
    case["pred"]["rows"][-1]["id"] = case["pred"]["rows"][0]["id"]  # 101 twice, 110 missing
    code, _, err = _run(case, tmp_path, capsys)
    assert code == 1
    assert "duplicate ids (1): '101' on lines 1, 10" in err


def test_every_hateval_case_is_covered() -> None:
    names = {c["name"] for c in CASES}
    covered = set(SCORED) | set(REFUSED) | {"hev_a_single_class_everywhere_crash",
                                            "hev_a_non_numeric_first_id_treated_as_header"}
    assert names == covered
