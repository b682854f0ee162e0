"""``score`` of a corpus without spans lists no default technique list: the labels come from
the data, or from the label set asked for (``--labels``) (clitour4 F5: an image-only Label
Studio export scored against itself listed the 20 SemEval-2021 techniques, each "F1 (official)
1.000000"). Our own texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main


def _empty(path: Path) -> str:
    path.write_text(json.dumps([{"id": "1", "text": "A quiet day.", "labels": []},
                                {"id": "2", "text": "Nothing here.", "labels": []}]),
                    encoding="utf-8")
    return str(path)


def test_an_empty_corpus_has_no_per_label_rows(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    gold = _empty(tmp_path / "gold.json")
    assert main(["score", gold, gold, "--metric", "martino", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["per_label"] == {} and result["per_label_official"] == {}
    assert main(["score", gold, gold, "--metric", "martino"]) == 0
    out = capsys.readouterr().out
    assert "Loaded Language" not in out and "Doubt" not in out
    assert ("  no spans in either file: no per-label scores (--labels FILE lists a label set)"
            in out.splitlines())


def test_an_empty_corpus_lists_the_label_set_asked_for(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    gold = _empty(tmp_path / "gold.json")
    labels = tmp_path / "labels.txt"
    labels.write_text("PER\nLOC\n", encoding="utf-8")
    assert main(["score", gold, gold, "--metric", "martino", "--labels", str(labels),
                 "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["per_label"]) == ["PER", "LOC"]


def test_a_gold_with_techniques_still_gets_the_technique_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"id": "1", "text": "They lie.", "labels": [
        {"technique": "Doubt", "start": 0, "end": 8}]}]), encoding="utf-8")
    assert main(["score", str(gold), str(gold), "--metric", "martino", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["per_label"]) == 20
