"""``docs/report.md`` shows what its first command prints, to the character: the LaTeX table
of ``python -m core table`` on the propaganda samples (its header comment names the command as
it was run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data" / "propaganda"


def test_the_latex_table_shown_is_what_the_command_prints(
        capsys: pytest.CaptureFixture[str]) -> None:
    page = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    shown = re.search(r"```latex\n(.*?)```", page, re.S)
    assert shown is not None
    assert main(["table", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"),
                 str(SAMPLE / "system_b.json"), "--metric", "martino"]) == 0
    assert capsys.readouterr().out == shown.group(1)
