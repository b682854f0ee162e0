"""The command line's tables pad by terminal columns, not code points (core/cli/render.py):
a CJK label or an emoji takes two columns, and the numbers after it stay in their column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import wcwidth

from core.cli import main

TEXT = "地名は東京 and Emoji 😀 here."


def _file(path: Path, spans: list[tuple[int, int, str]]) -> Path:
    path.write_text(json.dumps([{"id": "1", "text": TEXT, "labels": [
        {"technique": lab, "start": s, "end": e} for s, e, lab in spans]}], ensure_ascii=False),
        encoding="utf-8")
    return path


def test_per_label_rows_line_up_under_wide_labels(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    spans = [(0, 2, "地名"), (3, 5, "Place"), (16, 17, "Emoji 😀")]
    gold = _file(tmp_path / "g.json", spans)
    pred = _file(tmp_path / "p.json", spans)
    assert main(["score", str(gold), str(pred), "--metric", "martino"]) == 0
    rows = [ln for ln in capsys.readouterr().out.splitlines()
            if ln.startswith("  ") and "1.0000   1.0000" in ln]
    assert len(rows) == 3
    # the first number of each row starts at the same terminal column
    columns = {wcwidth.wcswidth(row[:row.index("1.0000")]) for row in rows}
    assert len(columns) == 1
