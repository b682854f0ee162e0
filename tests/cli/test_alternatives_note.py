"""The MAFALDA metric on a gold that is not MAFALDA's own: intervals with several labels are read
as one span with alternative labels (Definition 6), which a warning says; a MAFALDA gold, whose
repeated intervals mean exactly that, gets no such warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

DOCS = [{"id": "1", "text": "They lie and they cheat.",
         "labels": [{"technique": "Smears", "start": 0, "end": 8},
                    {"technique": "Doubt", "start": 0, "end": 8},
                    {"technique": "Smears", "start": 13, "end": 23}]}]


def test_a_semeval_gold_with_two_labels_on_one_interval_is_warned_about(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(DOCS))
    assert main(["score", str(gold), str(gold), "--metric", "mafalda", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (note,) = [w for w in out["warnings"] if "intervals carry several labels" in w]
    assert "1 intervals carry several labels (first: document '1' [0, 8) 'Doubt', 'Smears')" in note
    assert out["precision"] < 1


def test_a_mafalda_gold_gets_no_such_warning(capsys: pytest.CaptureFixture[str]) -> None:
    gold = Path(__file__).resolve().parents[2] / "sample_data" / "mafalda" / "gold.jsonl"
    assert main(["score", str(gold), str(gold), "--metric", "mafalda", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not [w for w in out["warnings"] if "intervals carry several labels" in w]
