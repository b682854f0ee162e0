"""A typo among an option's ``choices`` (``--match``, ``--boundaries``, ``--ties``, ``--format``,
``--metric``, a command's name) is refused with argparse's message and the closest choice:
``did you mean 'martino'?``, for every option of every command, through one parser class
(:class:`core.cli.common.Parser`)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import APP, COMMAND_NAMES, build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def _choice_options() -> list[tuple[str, str, str]]:
    """``(command, option, a valid choice)`` of every option with text choices of every command
    but ``app`` (whose arguments go to streamlit, core.cli.launch); numbers (``--level``,
    ``--digits``) have no typos to suggest for (the last test)."""
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    out = []
    for name in COMMAND_NAMES:
        if name == APP:
            continue
        for action in sub.choices[name]._actions:
            if action.choices is not None and action.option_strings and all(
                    isinstance(c, str) for c in action.choices):
                out.append((name, action.option_strings[-1], next(iter(action.choices))))
    return out


OPTIONS = _choice_options()


def test_the_commands_have_the_options_the_brief_names() -> None:
    named = {option for _, option, _ in OPTIONS}
    assert {"--match", "--boundaries", "--ties", "--format", "--metric"} <= named, named


@pytest.mark.parametrize(("command", "option", "choice"), OPTIONS,
                         ids=[f"{c} {o}" for c, o, _ in OPTIONS])
def test_a_typo_in_any_choice_option_suggests_the_choice(
        command: str, option: str, choice: str, capsys: pytest.CaptureFixture[str]) -> None:
    typo = choice + choice[-1]  # one letter too many: 'martino' -> 'martinoo'
    with pytest.raises(SystemExit) as exc:
        main([command, option, typo])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"invalid choice: {typo!r}" in err, err
    assert err.endswith(f"did you mean {choice!r}?"), err


def test_a_mistyped_command_suggests_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["scroe"])
    assert capsys.readouterr().err.rstrip().endswith("did you mean 'score'?")


def test_a_value_close_to_no_choice_keeps_argparses_message() -> None:
    done = subprocess.run([sys.executable, "-m", "core", "validate", "x.json", "--format",
                           "qqqqq"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 2 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert "invalid choice: 'qqqqq' (choose from " in last and "did you mean" not in last


def test_the_console_script_suggests_too() -> None:
    done = subprocess.run([sys.executable, "-m", "core", "score", "g.json", "p.json",
                           "--metric", "Martino"], capture_output=True, text=True, cwd=ROOT,
                          check=False)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("did you mean 'martino'?"), done.stderr


def test_a_number_outside_the_choices_keeps_argparses_message(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["errors", "--level", "7"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith("invalid choice: 7 (choose from 0, 1, 2)"), err


SAMPLE = ROOT / "sample_data" / "propaganda"
GOLD, PRED = str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json")
CHECKED = [  # values checked by the library (check_choice), not by argparse's choices
    (["score", GOLD, PRED, "--metric", "martino", "--variant", "semeval2021x"], 2,
     "did you mean 'semeval2021'? (option --variant)"),
    (["score", GOLD, PRED, "--metric", "mafalda", "--variant", "papr"], 2,
     "did you mean 'paper'? (option --variant)"),
    (["explain", GOLD, PRED, "--metric", "mafalda", "--doc", "1", "--variant", "metrics-pi"], 2,
     "did you mean 'metrics-py'? (option --variant)"),
    (["agree", str(SAMPLE / "annotator_1.json"), str(SAMPLE / "annotator_2.json"),
      "--measure", "gama"], 2, "did you mean 'gamma'? (option --measure)"),
    (["report", GOLD, PRED, "-o", "{out}", "--variant", "martino=semeval2021x"], 1,
     "did you mean 'semeval2021'? (option --variant)"),
    (["report", GOLD, PRED, "-o", "{out}", "--variant", "martinoo=semeval2021"], 1,
     "did you mean 'martino'? (option --variant)"),
    (["slices", GOLD, PRED, "--dimension", "labl"], 1, "did you mean 'label'?"),
    (["score", GOLD, GOLD, "--metric", "martino", "--gold-set", "gld"], 1,
     "did you mean 'gold'?"),
]


@pytest.mark.parametrize(("argv", "status", "ending"), CHECKED,
                         ids=[" ".join(a[:1] + a[-2:]) for a, _, _ in CHECKED])
def test_a_typo_in_a_value_checked_outside_argparse_suggests_the_choice(
        argv: list[str], status: int, ending: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.replace("{out}", str(tmp_path / "report.html")) for a in argv]
    assert main(argv) == status
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.lower().endswith(ending), err
    assert not (tmp_path / "report.html").exists()


def test_a_value_checked_outside_argparse_close_to_no_choice_gets_no_suggestion(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", GOLD, PRED, "--measure", "xyz"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith("Got 'xyz' instead. (option --measure)"), err
