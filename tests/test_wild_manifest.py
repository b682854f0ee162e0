"""The list of real exports SpanScope is checked against (``tests/data/wild/``).

The files themselves are other projects' and are not redistributed; ``scripts/wild_check.py``
fetches nothing, it reads a folder where someone laid them out and compares SpanScope with an
independent reader. What a clone can check is the list: every entry says where its file comes
from, every format we claim to read from another tool has real files in it, and SOURCES.md (the
table for people, written by the script) lists the same files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from core.formats import FORMATS

WILD = Path(__file__).resolve().parent / "data" / "wild"
ENTRIES = [json.loads(line) for line in (WILD / "manifest.jsonl").read_text(
    encoding="utf-8").splitlines() if line.strip()]
OUR_OWN = {"spans-csv", "parquet"}
"""Formats only SpanScope writes: no other tool exports them."""


def test_every_entry_names_its_source_and_a_known_format() -> None:
    for entry in ENTRIES:
        assert entry["format"] in FORMATS, entry["file"]
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", entry["repo"]), entry
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry
        assert entry["path"] and entry["licence"] and entry["tool"], entry


def test_every_format_read_from_another_tool_has_real_files() -> None:
    formats = {e["format"] for e in ENTRIES if not e.get("expect_error")}
    assert set(FORMATS) - OUR_OWN <= formats
    assert len(ENTRIES) >= 20
    assert len({e["repo"] for e in ENTRIES}) >= 20


def test_sources_lists_every_entry_in_order() -> None:
    rows = [line for line in (WILD / "SOURCES.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| `")]
    assert [re.match(r"\| `([^`]+)`", row).group(1) for row in rows] == [  # type: ignore[union-attr]
        e["file"] for e in ENTRIES]
    assert all(row.rstrip(" |").endswith("as expected") or "| as expected" in row
               for row in rows)


def test_the_readme_counts_the_entries_and_their_repositories() -> None:
    readme = (WILD.parents[2] / "README.md").read_text(encoding="utf-8")
    found = re.search(r"checked on (\d+) real exports from (\d+) public repositories", readme)
    assert found is not None
    assert (int(found.group(1)), int(found.group(2))) == (
        len(ENTRIES), len({e["repo"] for e in ENTRIES}))
