"""The tool-format readers give what their golden outcome files say (``tests/formats/golden/``).

Each file holds one input (by path, or its bytes) read by one reader (brat, doccano, Label
Studio, CoNLL, spaCy JSONL and DocBin, WebAnno TSV, UIMA XMI, Parquet, MAFALDA) under one or
more option sets, and each time the texts, the sets with their spans in order, the warnings
(messages, lines, fields, order, grouped counts) or the error message. The inputs are the
repository's samples and format test files, the broken files, corpora the writers made, and
those corpora with bytes damaged. ``scripts/golden.py --write`` writes the files, only when an
outcome is meant to change (they were first written when the readers still agreed with their
per-span versions of main at aa42569, which the files replace).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_script", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


script = _script()
FILES = sorted(GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_reader_outcome_equals_its_golden_file(path: Path) -> None:
    diff = script.difference(path)
    assert not diff, (f"{path.name}: the reader's outcome changed.\n{diff}\n\nIf the change "
                      "is meant, regenerate with `python scripts/golden.py --write` and commit "
                      "the diff of tests/formats/golden/ with it.")


def test_every_case_of_the_script_has_its_golden_file() -> None:
    assert sorted(case.name for case in script.cases()) == [p.stem for p in FILES]


def test_golden_files_cover_every_tool_format_valid_and_broken() -> None:
    outcomes: dict[str, set[str]] = {}
    for path in FILES:
        stored = json.loads(path.read_text(encoding="utf-8"))
        for run in stored["runs"]:
            kind = "error" if "error" in run["outcome"] else "ok"
            outcomes.setdefault(stored["format"], set()).add(kind)
    assert set(outcomes) == set(script.TOOL_FORMATS)
    assert all(kinds == {"ok", "error"} for fmt, kinds in outcomes.items()
               if fmt != "mafalda"), outcomes


def test_golden_inputs_on_disk_are_named_by_path_and_small() -> None:
    total = 0
    for path in FILES:
        stored = json.loads(path.read_text(encoding="utf-8"))
        for spec in stored["input"].values():
            if "path" in spec:
                assert (ROOT / spec["path"]).is_file(), spec["path"]
        total += path.stat().st_size
    assert total < 600_000
