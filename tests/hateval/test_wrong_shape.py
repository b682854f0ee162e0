"""A HatEval prediction of the wrong shape is refused with the columns the file has, counted
and named (clitour5 item 5: the organisers' trial file, id, text, HS, TR, AG, given as a task A
prediction was said to have 4 columns, the text column forgotten)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main

GOLD = "id\ttext\tHS\tTR\tAG\n101\ta calm morning\t0\t0\t0\n102\tthey should leave\t1\t1\t0\n"


def _run(tmp_path: Path, pred: str, task: str, capsys: pytest.CaptureFixture[str]) -> str:
    (tmp_path / "gold.tsv").write_text(GOLD, "utf-8")
    (tmp_path / "pred.tsv").write_text(pred, "utf-8")
    assert main(["score", str(tmp_path / "gold.tsv"), str(tmp_path / "pred.tsv"), "--metric",
                 f"hateval-{task}"]) != 0
    return capsys.readouterr().err


def test_a_gold_file_as_a_task_a_prediction_counts_its_text_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _run(tmp_path, GOLD, "a", capsys)
    assert "pred.tsv: a task A prediction has 2 columns (id, HS), found 5 (id, text, HS, TR, " \
        "AG)" in err


def test_a_task_a_prediction_as_task_b_names_its_two_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _run(tmp_path, "101\t0\n102\t1\n", "b", capsys)
    assert "pred.tsv: a task B prediction has 4 columns (id, HS, TR, AG), found 2 (id, HS)" \
        in err
