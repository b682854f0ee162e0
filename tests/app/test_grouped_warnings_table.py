"""The Data page's table of errors and warnings: a grouped warning is one row with its count,
and a missing line stays empty (not ``1.0``, as a float column would write it)."""

from __future__ import annotations

from core.formats import load_files
from ui.state import FileReport
from ui.summaries import diagnostics_table

ANN = "T1\tDrug 0 7\tAspirin\nR1\tTreats Arg1:T1 Arg2:T1\nR2\tTreats Arg1:T1 Arg2:T1\n"


def test_a_grouped_warning_is_one_row_with_its_count() -> None:
    loaded = load_files({"a.ann": ANN.encode(), "a.txt": b"Aspirin eases pain."}, name="a.ann")
    report = FileReport("a.ann", "brat", "gold", "a", dict(loaded.texts), tuple(loaded.sets),
                        tuple(loaded.diagnostics))
    table = diagnostics_table([report])
    row = table[table["message"].str.contains("relation")].iloc[0]
    assert (row["line"], row["count"]) == (2, 2)
    assert str(table["line"].dtype) == "Int64"
    assert "1.0" not in table.to_csv(index=False)
