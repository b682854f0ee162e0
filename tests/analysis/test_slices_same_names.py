"""``slices`` with two systems of one name (``d1/sys.json``, ``d2/sys.json``): each keeps its
rows, in the order given, as before ``--compare`` existed; ``--compare`` refuses such names."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"
# The output of `slices gold.json d1/sys.json d2/sys.json --dimension label --samples 50`
# (with and without --json) at b45d456, the commit before `slices --compare`.
BEFORE = Path(__file__).parent / "data" / "slices_same_names"


@pytest.fixture
def same_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for folder, system in (("d1", "system_a"), ("d2", "system_b")):
        (tmp_path / folder).mkdir()
        shutil.copy(PROP / f"{system}.json", tmp_path / folder / "sys.json")
    shutil.copy(PROP / "gold.json", tmp_path / "gold.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("suffix", "extra"), [("json", ["--json"]), ("txt", [])])
def test_two_systems_of_one_name_keep_both_rows_byte_for_byte(
        same_names: Path, capsys: pytest.CaptureFixture[str], suffix: str,
        extra: list[str]) -> None:
    assert main(["slices", "gold.json", "d1/sys.json", "d2/sys.json", "--dimension", "label",
                 "--samples", "50", *extra]) == 0
    assert capsys.readouterr().out == (BEFORE / f"label.{suffix}").read_text(encoding="utf-8")


def test_compare_refuses_two_systems_of_one_name(
        same_names: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["slices", "gold.json", "d1/sys.json", "d2/sys.json", "--dimension", "label",
                 "--samples", "50", "--compare"]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.search(r"error: --compare .*2 systems are named 'sys' \(d1/sys\.json, "
                     r"d2/sys\.json\)", captured.err)
