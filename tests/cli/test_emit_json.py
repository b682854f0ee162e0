"""``--json`` output: :func:`core.cli.common.jsonable` takes plain values without a call and
``emit`` writes one string (issue 29, ninth pass); the bytes stay those of the recursive
version."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import pytest

from core.cli.common import emit, jsonable


def _recursive(value: Any) -> Any:
    """The former ``jsonable``: one call per value."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _recursive(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_recursive(v) for v in value]
    return value


NESTED: dict[Any, Any] = {
    "nan": math.nan, "inf": -math.inf, "x": 0.5, 1: "one", None: True, False: None,
    "rows": [{"document": "d", "start": 0, "end": 3, "labels": ["A", "B"], "overlap": 2,
              "duplicate": False, "score": math.nan, "pair": (1, math.inf)}] * 3,
    "tuple": ("a", (2, math.nan), {"k": [math.inf, 1.5, "é"]}), 2.5: [[], {}, ()],
}


def test_jsonable_equals_the_recursive_version() -> None:
    ours: Any = jsonable(NESTED)
    theirs = _recursive(NESTED)
    assert ours == theirs
    assert json.dumps(ours, ensure_ascii=False) == json.dumps(theirs, ensure_ascii=False)
    assert ours["rows"][0]["score"] is None and ours["rows"][0]["pair"] == [1, None]
    assert list(ours)[4:6] == ["None", "False"]  # keys as str() writes them, not JSON's null


def test_emit_writes_one_line_of_the_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(json=True, all_warnings=False, flags={})
    emit({"command": "t", "value": NESTED}, args, lambda r: "")
    out = capsys.readouterr().out
    expected = _recursive({"command": "t", "value": NESTED, "warnings": [],
                           "warning_counts": {}})
    assert out == json.dumps(expected, ensure_ascii=False) + "\n"
