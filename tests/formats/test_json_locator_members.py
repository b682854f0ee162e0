"""The JSON locator finds a record's member without scanning the record in Python (wild15).

A doccano JSON list without ids (isabel-mm/terment's ``dev_annotated.json``: 3,064 records,
1.2 MiB, pretty-printed) gets a warning per record at ``[i].id``; the locator scanned each
record value by value in Python to learn that 'id' is missing, 40 % of the file's read
(0.154 s of CPU, 0.089 s now: docs/performance.md). A record's members are now found with the
C decoder, and a plain key whose quoted name is nowhere in the record is known to be missing
without that. The lines are those a whole scan gives.
"""

from __future__ import annotations

import json

from core.formats._common import JsonLocator


def _records() -> list[dict[str, object]]:
    return [{"text": f"line {k}\nnext", "entities": [[0, 4, "T"]] * (k % 3),
             **({"id": k} if k % 4 == 0 else {})} for k in range(10)]


def _whole_lines(text: str) -> dict[tuple[str | int, ...], int]:
    whole = JsonLocator(text)
    whole._scan(whole._skip(0), ())
    return {path: text.count("\n", 0, at) + 1 for path, at in whole._pos.items()}


def test_members_and_missing_ids_get_the_lines_a_whole_scan_gives() -> None:
    records = _records()
    records[5]["\u00e9"] = "accented key"
    text = json.dumps(records, indent=4, ensure_ascii=False)
    expected = _whole_lines(text)
    loc = JsonLocator(text)
    for k in range(len(records)):
        # a missing 'id' points at its record, as line_of falls back to the parent
        assert loc.line_of(f"[{k}].id") == expected[(k, "id") if k % 4 == 0 else (k,)], k
        assert loc.line(k, "entities") == expected[(k, "entities")]
    assert loc.line(5, "\u00e9") == expected[(5, "\u00e9")]
    assert loc._scanned == set()  # not one record scanned value by value
    # a value deeper down still scans its record, and agrees
    assert loc.line(2, "entities", 1, 2) == expected[(2, "entities", 1, 2)]
    assert loc._scanned == {(2,)}


def test_a_key_spelt_with_an_escape_is_still_found() -> None:
    """A JSON name may spell 'id' as "\\u0069d": its quoted name is not in the text, and the
    record is then read member by member rather than taken to have no 'id'."""
    text = '[\n  {"text": "a",\n   "\\u0069d": 7},\n  {"text": "b"}\n]\n'
    assert json.loads(text)[0]["id"] == 7
    loc = JsonLocator(text)
    assert loc.line_of("[0].id") == 3
    assert loc.line_of("[1].id") == 4
