"""``score``'s text report says why a Da San Martino value exceeds 1 (overlapping same-label
spans), in one line, as the dashboard's "Above 1?" note does; the JSON output is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

TEXT = "They always lie and they always will lie."


def _file(path: Path, spans: list[tuple[int, int]]) -> str:
    labels = [{"technique": "Loaded_Language", "start": s, "end": e} for s, e in spans]
    path.write_text(json.dumps([{"id": "1", "text": TEXT, "labels": labels}]), encoding="utf-8")
    return str(path)


def _score(capsys: pytest.CaptureFixture[str], gold: str, pred: str, *more: str) -> str:
    assert main(["score", gold, pred, "--metric", "martino", *more]) == 0
    return capsys.readouterr().out


def test_overlapping_gold_spans_scored_against_themselves_get_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _file(tmp_path / "gold.json", [(0, 15), (5, 25)])  # overlapping, same label
    out = _score(capsys, gold, gold)
    assert "P = 3.166667 / 2 = 1.583333" in out  # 1 + 10/15 + 10/20 + 1
    (line,) = [ln for ln in out.splitlines() if "Above 1" in ln]
    assert line.startswith("  Above 1 (P, R, F1, per label): not an error;")
    assert "overlapping same-label reference spans raise P" in line
    assert 'docs/martino.md, "Above 1"' in line
    result = json.loads(_score(capsys, gold, gold, "--json"))
    assert result["precision"] == pytest.approx(19 / 12)
    assert not [k for k in result if "above" in k.lower()]


def test_scores_at_most_1_get_no_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _file(tmp_path / "gold.json", [(0, 15), (20, 25)])
    pred = _file(tmp_path / "pred.json", [(0, 10)])
    assert "Above 1" not in _score(capsys, gold, pred)
    assert "Above 1" not in _score(capsys, gold, gold)  # exactly 1


def test_the_line_names_the_variant_that_merges_overlaps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _file(tmp_path / "gold.json", [(0, 15), (5, 25)])
    (line,) = [ln for ln in _score(capsys, gold, gold).splitlines() if "Above 1" in ln]
    assert ("--variant nlp4if2019 --merge-pred merges same-label overlaps on both sides first, "
            "as the NLP4IF-2019 scorer does, and keeps every value at most 1") in line
    merged = json.loads(_score(capsys, gold, gold, "--variant", "nlp4if2019", "--merge-pred",
                               "--json"))
    assert (merged["precision"], merged["recall"], merged["f1"]) == (1.0, 1.0, 1.0)


def test_span_identification_labels_get_the_si_variant(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PTC span-identification files (``article<ID><TAB>start<TAB>end``) label every span
    ``propaganda``: the SemEval-2020 SI variant, which ignores labels and merges, fits them."""
    folder = tmp_path / "si"
    folder.mkdir()
    (folder / "article1.txt").write_text(TEXT, encoding="utf-8")
    (folder / "article1.task-si.labels").write_text("1\t0\t15\n1\t5\t25\n", encoding="utf-8")
    (line,) = [ln for ln in _score(capsys, str(folder), str(folder)).splitlines()
               if "Above 1" in ln]
    assert "--variant semeval2020-si --merge-pred" in line and "nlp4if2019" not in line
    merged = json.loads(_score(capsys, str(folder), str(folder), "--variant", "semeval2020-si",
                               "--merge-pred", "--json"))
    assert merged["f1"] == 1.0
