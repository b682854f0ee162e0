"""``ui.small_table.small_table``: a table of a few rows and columns is drawn as Markdown, a wider
or longer one stays a data grid, and the Markdown keeps every value and the above-1 marks."""

from __future__ import annotations

import pandas as pd
from streamlit.testing.v1 import AppTest

from tests.app.conftest import tables
from ui.small_table import SMALL_TABLE_COLUMNS, SMALL_TABLE_ROWS, table_markdown


def _script(rows: int, columns: int) -> AppTest:
    def app(rows: int, columns: int) -> None:
        import pandas as pd

        from ui.small_table import small_table

        small_table(pd.DataFrame({f"c{j}": [0.5 + i for i in range(rows)]
                                  for j in range(columns)}), key="t", mark=True)

    return AppTest.from_function(app, kwargs={"rows": rows, "columns": columns}).run()


def test_a_few_rows_and_columns_are_markdown_the_rest_a_grid() -> None:
    narrow = _script(2, SMALL_TABLE_COLUMNS)
    assert not narrow.dataframe and len(tables(narrow)) == 1
    assert tables(narrow)[0].shape[0] == 2
    for rows, columns in ((2, SMALL_TABLE_COLUMNS + 1), (SMALL_TABLE_ROWS + 1, 3)):
        at = _script(rows, columns)
        assert len(at.dataframe) == 1 and at.dataframe[0].value.shape[0] == rows


def test_the_markdown_marks_a_score_above_one_and_escapes_text() -> None:
    text = table_markdown(pd.DataFrame({"set": ["<b>x</b>"], "P": [1.5], "R": [0.25]}),
                          mark=True)
    assert "**:orange-background[1.5]**" in text and "↑ P" in text
    assert "<b>" not in text
