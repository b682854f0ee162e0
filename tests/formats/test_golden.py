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

import dataclasses
import importlib.util
import json
import shutil
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import srsly

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


def test_the_written_inputs_are_what_the_writers_of_this_tree_write() -> None:
    """A writer changed without ``--write`` (the DocBin writer's tokens cut at span edges,
    5f02e35) left inputs no writer of this tree makes: the next ``--write`` then changed
    them, and their outcomes, unasked (bugleft19)."""
    assert not script.stale_inputs(), "run `python scripts/golden.py --write` and read the diff"


def _docbin_case() -> Any:
    return next(c for c in script.cases() if c.name == "written-spacy-docbin-1")


def test_a_docbin_in_other_bytes_that_says_the_same_is_the_same_input() -> None:
    case = _docbin_case()
    data = case.files["d.spacy"]
    other = zlib.compress(zlib.decompress(data), 1)  # the same fields, other bytes
    assert other != data
    assert script.content("d.spacy", other) == script.content("d.spacy", data)
    stored = json.loads((GOLDEN / "written-spacy-docbin-1.json").read_text(encoding="utf-8"))
    assert script.same_input(stored["input"], {"d.spacy": other})
    kept = script.kept_input(dataclasses.replace(case, files={"d.spacy": other}))
    assert kept.files["d.spacy"] == script.input_bytes(stored["input"])["d.spacy"]
    # a DocBin that says something else is another input
    changed = script.content("d.spacy", data)
    assert isinstance(changed, dict)
    changed["strings"] = [*changed["strings"], "another"]
    assert not script.same_input(stored["input"], {"d.spacy": zlib.compress(
        srsly.msgpack_dumps(changed))})


def test_write_on_an_unchanged_tree_changes_no_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    names = [p.name for p in FILES if p.stem.startswith("written-spacy")]
    assert len(names) == 5
    for name in names:
        shutil.copy(GOLDEN / name, tmp_path / name)
    monkeypatch.setattr(script, "GOLDEN", tmp_path)
    # a writer whose bytes differ from the stored ones, saying the same
    real = script.files_for
    monkeypatch.setattr(script, "files_for", lambda fmt, *a: {
        k: (zlib.compress(zlib.decompress(v), 1) if k.endswith(".spacy") else v)
        for k, v in real(fmt, *a).items()})
    assert script.main(["--write", "--only", "written-spacy"]) == 0
    for name in names:
        assert (tmp_path / name).read_bytes() == (GOLDEN / name).read_bytes(), name
