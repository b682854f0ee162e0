"""``python -m core errors`` and ``score --metric nervaluate``: JSON keys, numbers, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.analysis.errors import categorise
from core.cli import main
from core.formats import load_path
from core.metrics import nervaluate

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"
MAF = ROOT / "sample_data" / "mafalda"
SCHEMA_KEYS = {"precision", "recall", "f1", "correct", "incorrect", "partial", "missed",
               "spurious", "possible", "actual", "per_label"}


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # exactly one JSON object
    return json.loads(out)


def test_score_nervaluate_json_has_the_four_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = PROP / "gold.json", PROP / "system_a.json"
    out = _json(capsys, ["score", str(gold), str(pred), "--metric", "nervaluate", "--json"])
    for schema in ("strict", "exact", "partial", "type"):
        assert set(out[schema]) >= SCHEMA_KEYS
    expected = nervaluate.score(load_path(gold).set, load_path(pred).set).to_dict()
    assert out["strict"] == expected["strict"]
    s = out["partial"]
    assert s["possible"] == s["correct"] + s["incorrect"] + s["partial"] + s["missed"]
    assert s["precision"] == pytest.approx((s["correct"] + 0.5 * s["partial"]) / s["actual"])


def test_errors_json_counts_add_up_to_the_spans(capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = PROP / "gold.json", PROP / "system_a.json"
    out = _json(capsys, ["errors", str(gold), str(pred), "--json"])
    g, p = load_path(gold).set, load_path(pred).set
    assert out["overall"]["reference"]["total"] == g.span_count()
    assert out["overall"]["prediction"]["total"] == p.span_count()
    assert out["overall"] == categorise(g, p).to_dict()["overall"]
    assert set(out["per_label"]) == set(categorise(g, p).labels())


def test_errors_level_projects_mafalda_labels(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["errors", str(MAF / "gold.jsonl"), str(MAF / "system_a.jsonl"),
                         "--level", "1", "--json", "--spans"])
    assert {"credibility", "emotion", "logic"} & set(out["per_label"])
    assert len(out["spans"]) == (out["overall"]["reference"]["total"]
                                 + out["overall"]["prediction"]["total"])


def test_errors_text_output_lists_every_category(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["errors", str(PROP / "gold.json"), str(PROP / "system_b.json")]) == 0
    text = capsys.readouterr().out
    for cat in ("correct", "label", "boundary", "boundary+label", "missed", "spurious"):
        assert f"\n  {cat} " in text


def test_errors_bad_input_exits_1_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "core", "errors", str(PROP / "gold.json"),
                           str(bad), "--json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "bad.json" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_errors_bad_level_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["errors", "a.json", "b.json", "--level", "3"])
    assert exc.value.code == 2


def test_nervaluate_has_no_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(PROP / "gold.json"), str(PROP / "system_a.json"), "--metric",
                 "nervaluate", "--variant", "x"]) == 2
    assert "no variants" in capsys.readouterr().err


def test_slices_json_one_row_per_system_and_bucket(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    meta = tmp_path / "meta.csv"
    meta.write_text("id,source\n1,blog\n2,news\n", encoding="utf-8")
    out = _json(capsys, ["slices", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                         str(PROP / "system_b.json"), "--dimension", "meta:source", "--meta",
                         str(meta), "--samples", "100", "--json"])
    assert {r["system"] for r in out["buckets"]} == {"system_a", "system_b"}
    assert [r["bucket"] for r in out["buckets"] if r["system"] == "system_a"] == [
        "blog", "news", "(missing)"]
    assert all(r["F1 low"] <= r["F1 high"] for r in out["buckets"] if r["F1 low"] is not None)
    # a bucket of one document has no interval: null bounds, the keys kept
    assert all(r["F1 high"] is None for r in out["buckets"] if r["F1 low"] is None)


def test_slices_unknown_dimension_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["slices", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                 "--dimension", "colour"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "span_length" in err


ERR = ROOT / "tests" / "data" / "errors"


def test_errors_spans_text_lists_every_span(capsys: pytest.CaptureFixture[str]) -> None:
    """``--spans`` without ``--json`` prints one line per span with its category (issue 29)."""
    argv = ["errors", str(ERR / "gold.json"), str(ERR / "pred.json")]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert main([*argv, "--spans"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(plain.rstrip("\n"))
    lines = out.splitlines()
    at = lines.index("spans (6):")
    assert lines[at + 1].split() == ["document", "side", "span", "label", "category", "decided",
                                     "by"]
    rows = lines[at + 2:]
    assert len(rows) == 6
    assert rows[1] == ("  a1        reference   [51, 59)  Loaded Language  boundary+label  "
                       "[49, 59) Exaggeration, overlap 8")
    assert rows[-1].split() == ["b2", "reference", "[0,", "14)", "Bandwagon", "missed"]


def test_errors_warns_when_the_prediction_lacks_documents(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A prediction of some documents: the absent ones are missed, as NLP4IF-2019 and
    SemEval-2020 count them, and a warning says how many (docs/errors.md)."""
    out = _json(capsys, ["errors", str(ERR / "gold.json"), str(ERR / "pred_a1_only.json"),
                         "--json"])
    assert out["warning_counts"] == {"absent-documents": 1}
    assert "covers 1 of the 2 documents" in out["warnings"][0]
    assert "('b2')" in out["warnings"][0]
    full = _json(capsys, ["errors", str(ERR / "gold.json"), str(ERR / "pred.json"), "--json"])
    assert full["warnings"] == []  # the same documents: no warning
    # the absent document's reference span is missed; the rest is categorised as before
    assert out["overall"]["reference"]["missed"] == full["overall"]["reference"]["missed"] == 1
    assert out["overall"] == full["overall"]
    assert main(["errors", str(ERR / "gold.json"), str(ERR / "pred_a1_only.json")]) == 0
    text = capsys.readouterr().out
    assert "warnings: 1 (absent-documents 1)" in text


def test_report_warns_on_stderr_when_a_prediction_lacks_documents(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(ERR / "gold.json"), str(ERR / "pred.json"),
                 str(ERR / "pred_a1_only.json"), "-o", str(out), "--samples", "20"]) == 0
    err = capsys.readouterr().err
    warned = [line for line in err.splitlines() if "documents of" in line]
    assert len(warned) == 1  # pred.json covers every document
    assert warned[0].startswith("warning: ") and "pred_a1_only.json: covers 1 of the 2" in warned[0]
    assert out.is_file()
