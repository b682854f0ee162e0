"""``explain`` shows each span's text and marks a shortened label with an ellipsis (issue 16 item
9); ``--json`` keeps its keys and adds the fragments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "sample_data" / "figure1"
PROP = ROOT / "sample_data" / "propaganda"
MAF = ROOT / "sample_data" / "mafalda"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_martino_rows_show_each_span_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "explain", str(FIG1 / "gold.json"), str(FIG1 / "pred_s3_s4_s5.json"),
               "--doc", "1", "--metric", "martino")
    assert 'pred “stupid”   gold “a stupid and petty stunt”' in out
    assert "pred “the mayor”" in out  # an unmatched prediction has no gold


def test_long_labels_end_in_an_ellipsis(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "explain", str(PROP / "gold.json"), str(PROP / "system_a.json"),
               "--doc", "1", "--metric", "martino")
    assert "[26,65) Appeal to fear/pre… " in out
    assert "Appeal to fear/pre " not in out  # never cut silently


def test_mafalda_rows_show_each_span_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "explain", str(MAF / "gold.jsonl"), str(MAF / "system_a.jsonl"),
               "--doc", "3", "--metric", "mafalda")
    pred = [line for line in out.splitlines() if line.startswith("  pred [63,162)")]
    assert pred and pred[0].endswith("“Either we build the tram this year or o…”")
    gold = [line for line in out.splitlines() if line.startswith("  gold [63,162)")]
    assert gold and "“Either we build" in gold[0]


def test_json_keeps_its_keys_and_adds_the_fragments(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(_run(capsys, "explain", str(FIG1 / "gold.json"),
                          str(FIG1 / "pred_s3_s4_s5.json"), "--doc", "1", "--metric",
                          "martino", "--json"))
    row = out["rows"][0]
    for key in ("kind", "pred_start", "pred_end", "pred_label", "gold_start", "gold_end",
                "gold_label", "intersection", "contribution_p", "contribution_r"):
        assert key in row
    assert row["pred_text"] == "rule a" and row["gold_text"] == "a stupid and petty stunt"
    assert out["rows"][-1]["gold_text"] is None
    maf = json.loads(_run(capsys, "explain", str(MAF / "gold.jsonl"), str(MAF / "system_a.jsonl"),
                          "--doc", "3", "--metric", "mafalda", "--json"))
    assert maf["predictions"][0]["text"].startswith("Either we build the tram")
    assert maf["gold"][0]["text"].startswith("Either we build the tram")


def test_span_text_with_control_characters_is_escaped(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    text = "Bad \x1b[31mred\x1b[0m text here"
    doc = [{"id": "1", "text": text, "labels": [
        {"technique": "Doubt", "start": 4, "end": 20, "text_fragment": text[4:20]}]}]
    gold, pred = tmp_path / "g.json", tmp_path / "p.json"
    for path in (gold, pred):
        path.write_text(json.dumps(doc), encoding="utf-8")
    out = _run(capsys, "explain", str(gold), str(pred), "--doc", "1", "--metric", "martino")
    assert "\x1b" not in out and "“\\x1b[31mred\\x1b[0m tex”" in out


ERR = ROOT / "tests" / "data" / "errors"


@pytest.mark.parametrize("metric", ["martino", "mafalda"])
def test_explain_a_document_of_a_partial_prediction(capsys: pytest.CaptureFixture[str],
                                                    metric: str) -> None:
    """``explain --doc`` of a document both files hold, when the prediction lacks another
    (issue 29): the same explanation as from a prediction of every document."""
    partial = json.loads(_run(capsys, "explain", str(ERR / "gold.json"),
                              str(ERR / "pred_a1_only.json"), "--doc", "a1", "--metric", metric,
                              "--json"))
    full = json.loads(_run(capsys, "explain", str(ERR / "gold.json"), str(ERR / "pred.json"),
                           "--doc", "a1", "--metric", metric, "--json"))
    assert json.dumps(partial).replace("pred_a1_only", "pred") == json.dumps(full)
    assert partial["document"] == "a1"
    if metric == "mafalda":
        return  # MAFALDA explains a document the prediction lacks as unpredicted, as before
    # Martino still refuses a document the prediction lacks, naming both files
    assert main(["explain", str(ERR / "gold.json"), str(ERR / "pred_a1_only.json"), "--doc",
                 "b2", "--metric", metric]) == 1
    assert "must cover the same documents" in capsys.readouterr().err
