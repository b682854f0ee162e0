"""``score --level 0,1,2`` (or ``all``): the files read once, one result per MAFALDA level, each
the object ``score --level L`` prints; one level keeps its output as it was (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

MAFALDA = Path(__file__).resolve().parents[2] / "sample_data" / "mafalda"
GOLD, LLM = str(MAFALDA / "gold.jsonl"), str(MAFALDA / "system_llm.jsonl")


def score(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["score", GOLD, LLM, "--metric", "mafalda", "--json", *args]) == 0
    out: dict = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("variant", ["paper", "repo-head"])
def test_each_level_is_what_one_level_prints(capsys: pytest.CaptureFixture[str],
                                             variant: str) -> None:
    several = score(capsys, "--level", "0,1,2", "--variant", variant)
    assert list(several) == ["metric", "levels", "warnings", "warning_counts"]
    assert list(several["levels"]) == ["0", "1", "2"]
    warnings: list[str] = []
    for level in (0, 1, 2):
        one = score(capsys, "--level", str(level), "--variant", variant)
        warnings.extend(w for w in one.pop("warnings") if w not in warnings)
        one.pop("warning_counts")
        assert several["levels"][str(level)] == one
        assert one["level"] == level
    assert several["warnings"] == warnings and warnings


def test_all_is_every_level_in_the_official_evaluators_order(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert score(capsys, "--level", "all") == score(capsys, "--level", "2,1,0")
    assert score(capsys, "--level", "2,2") == score(capsys, "--level", "2")


def test_the_text_report_has_one_section_per_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", GOLD, LLM, "--metric", "mafalda", "--level", "1,0"]) == 0
    out = capsys.readouterr().out
    assert out.index("== level 1 ==") < out.index("== level 0 ==")


def test_several_levels_need_a_metric_with_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", GOLD, GOLD, "--metric", "martino", "--level", "0,1"]) == 2
    assert "the metric 'martino' has no levels" in capsys.readouterr().err


@pytest.mark.parametrize(("value", "message"), [
    ("3", "invalid choice: 3 (choose from 0, 1, 2)"),
    ("0,3", "invalid choice: 3 (choose from 0, 1, 2)"),
    ("x", "invalid int value: 'x'"),
])
def test_a_bad_level_is_a_usage_error(capsys: pytest.CaptureFixture[str], value: str,
                                      message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", GOLD, LLM, "--metric", "mafalda", "--level", value])
    assert exc.value.code == 2
    assert f"argument --level: {message}" in capsys.readouterr().err


def test_explain_takes_one_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["explain", GOLD, LLM, "--metric", "mafalda", "--doc", "0", "--level", "0,1"])
    assert "argument --level: invalid int value: '0,1'" in capsys.readouterr().err
