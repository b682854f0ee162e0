"""The Data page's table of errors and warnings: a grouped warning is one row with its count,
and a missing line stays empty (not ``1.0``, as a float column would write it)."""

from __future__ import annotations

import json

from core.formats import load_files
from ui.state import FileReport
from ui.summaries import diagnostics_table

# Label Studio relation results: one grouped warning (brat's skipped lines are one plain
# warning per file and kind since issue 29's tour).
SPAN = {"type": "labels", "value": {"start": 0, "end": 7, "text": "Aspirin", "labels": ["Drug"]}}
RELATION = {"type": "relation", "from_id": "a", "to_id": "b"}
EXPORT = json.dumps([{"id": 1, "data": {"text": "Aspirin eases pain."}, "annotations": [
    {"completed_by": 1, "result": [SPAN, RELATION, RELATION]}]}], indent=1)


def test_a_grouped_warning_is_one_row_with_its_count() -> None:
    loaded = load_files({"a.json": EXPORT.encode()}, name="a.json")
    report = FileReport("a.json", "label-studio", "gold", "a", dict(loaded.texts),
                        tuple(loaded.sets), tuple(loaded.diagnostics))
    table = diagnostics_table([report])
    row = table[table["message"].str.contains("relation")].iloc[0]
    assert row["count"] == 2 and row["line"] > 1
    assert str(table["line"].dtype) == "Int64"
    assert "1.0" not in table.to_csv(index=False)
