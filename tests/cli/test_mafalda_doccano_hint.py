"""The MAFALDA reader's hint of doccano, on the command line, worded for how the format was
chosen: detected (most of the file's labels are MAFALDA's) or asked for with ``--format
mafalda`` / ``--gold-format mafalda``, when "its labels are mostly MAFALDA's" need not be true
and the person chose the format (bugleft24's hint said it in both cases)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats.mafalda import DOCCANO_HINT, DOCCANO_HINT_ASKED

TEXT = "Vote or the country dies. They lie. You are wrong, you are stupid."
MOSTLY = {"text": TEXT, "labels": [[0, 24, "appeal to fear"], [26, 35, "ad hominem"],
                                   [36, 66, "insult"]]}
NONE_OF_THEM = {"text": TEXT, "labels": [[36, 66, "insult"]]}


def _write(tmp_path: Path, name: str, record: dict[str, object]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return str(path)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "field 'labels[2]'" in err or "field 'labels[0]'" in err, err
    assert "got 'insult'" in err, err
    return err


def test_validate_says_the_format_was_detected(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["validate", _write(tmp_path, "gold.jsonl", MOSTLY), "--role", "gold"],
                   capsys)
    assert DOCCANO_HINT in err and "the format detected (most of its labels are MAFALDA's)" in err
    assert "asked for" not in err


def test_validate_with_format_mafalda_says_it_was_asked_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for record in (MOSTLY, NONE_OF_THEM):  # whatever the share of MAFALDA's labels
        err = _refused(["validate", _write(tmp_path, "gold.jsonl", record), "--role", "gold",
                        "--format", "mafalda"], capsys)
        assert DOCCANO_HINT_ASKED in err and "pass the format doccano instead" in err
        assert "detected" not in err and "most of its labels" not in err


def test_score_names_the_gold_format_asked_for_or_detected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _write(tmp_path, "gold.jsonl", MOSTLY)
    pred = _write(tmp_path, "pred.jsonl", {"text": TEXT, "labels": [[0, 24, "appeal to fear"]]})
    detected = _refused(["score", gold, pred, "--metric", "mafalda"], capsys)
    assert DOCCANO_HINT in detected
    asked = _refused(["score", gold, pred, "--metric", "mafalda", "--gold-format", "mafalda"],
                     capsys)
    assert DOCCANO_HINT_ASKED in asked and DOCCANO_HINT not in asked
