"""``explain --metric mafalda`` in words a reader of the paper follows (tour19): every span is
written ``[start,end)`` as the rows' own offsets are (the JSON's ``[0, 49]`` was printed as it
is, which reads as a closed interval), no Python ``None``, and a prediction whose label the gold
span lists but that gets 0 says why: precision's best alternative reads that gold span as
another label, one label per gold span (Helwe et al. 2024, Definition 6). The JSON is
unchanged (the command line's contract)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

TEXT = ("Politicians always lie, so this senator is lying. Everyone I know agrees, so it must "
        "be true.")
GOLD = {"text": TEXT, "labels": [[0, 49, "hasty generalization"], [0, 49, "ad hominem"],
                                 [50, 93, "ad populum"], [50, 93, "nothing"]]}
PRED = {"text": TEXT, "labels": [[0, 22, "hasty generalization"], [0, 49, "ad hominem"]]}


def _files(tmp_path: Path) -> tuple[str, str]:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(json.dumps(GOLD) + "\n")
    pred.write_text(json.dumps(PRED) + "\n")
    return str(gold), str(pred)


def test_explain_writes_spans_end_exclusive_and_says_why_a_listed_label_gets_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _files(tmp_path)
    assert main(["explain", gold, pred, "--metric", "mafalda", "--doc", "0"]) == 0
    out = capsys.readouterr().out
    # P = (1 + 0) / 2: the alternative that maximises P reads [0,49) as hasty generalization;
    # R = 1: recall's alternative reads it as ad hominem and leaves the ⊥ span out
    assert "span        P 0.5000  R 1.0000  F1 0.6667" in out
    assert ("pred [0,22) hasty generalization: best gold [0,49) as hasty generalization, "
            "C(s,t,|s|)=1.0000") in out
    assert ("pred [0,49) ad hominem: no gold span: precision's best alternative reads [0,49) "
            "as hasty generalization (one label per gold span), C(s,t,|s|)=0.0000") in out
    assert ("gold [0,49) ad hominem | hasty generalization: recall takes ad hominem, best "
            "prediction [0,49) C(s,t,|t|)=1.0000") in out
    assert ("gold [50,93) ad populum | nothing: recall takes ⊥ (optional: left out of recall), "
            "best prediction none C(s,t,|t|)=0.0000") in out
    assert "None" not in out and "[0, 49]" not in out


def test_explain_json_keeps_its_keys_and_values(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _files(tmp_path)
    assert main(["explain", gold, pred, "--metric", "mafalda", "--doc", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    first, second = out["predictions"]
    assert first["matched_gold"] == [0, 49] and first["matched_label"] == "hasty generalization"
    assert second["matched_gold"] is None and second["contribution_p"] == 0.0
    assert out["gold"][1]["best_prediction"] is None and out["gold"][1]["counted"] is False
