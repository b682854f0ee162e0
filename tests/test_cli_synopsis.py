"""What the command line says of itself matches what it does: the README's synopsis names
every command, ``score --help`` names every value ``--level`` takes, and the text output of
``score --level all`` says per level what the taxonomy compares there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.cli import COMMAND_NAMES, main

ROOT = Path(__file__).resolve().parents[1]
FIGURE1 = ROOT / "sample_data" / "figure1"
STUDY = ROOT / "tests" / "data" / "formats" / "mafalda_study"


def _synopsis() -> str:
    """The README's first code block that starts with ``python -m core score``."""
    text = (ROOT / "README.md").read_text()
    start = text.index("```\npython -m core score ") + 4
    return text[start:text.index("```", start)]


def test_the_readme_synopsis_names_every_command() -> None:
    named = set(re.findall(r"^python -m core (\w+)", _synopsis(), re.M))
    assert named == set(COMMAND_NAMES)


def test_score_help_names_every_level_value(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    out = capsys.readouterr().out
    assert "[--level {0,1,2,all}]" in out and "{0,1,2}]" not in out


@pytest.mark.parametrize(("gold", "pred", "lines"), [
    (FIGURE1 / "gold.json", FIGURE1 / "pred_s3_s4_s5.json", [
        "labels of the data: one class per label (1 labels, no grouping)",
        "labels of the data: one class per label (1 labels, no grouping)",
        "labels of the data (1 label): any label or none at level 0"]),
    (STUDY / "gold.jsonl", STUDY / "annotator1.jsonl", [
        "MAFALDA (23 fallacies in 3 groups)",
        "MAFALDA (23 fallacies in 3 groups): the group of each label at level 1",
        "MAFALDA (23 fallacies in 3 groups): a fallacy or none at level 0"]),
])
def test_score_level_all_says_what_each_level_compares(
        gold: Path, pred: Path, lines: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--metric", "mafalda", "--level", "all", str(gold), str(pred)]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^  taxonomy: (.*)$", out, re.M) == lines  # levels 2, 1, 0
