"""``ui.small_table.small_table``: a table of a few rows and columns is drawn as Markdown, a wider
or longer one stays a data grid, and the Markdown keeps every value and the above-1 marks."""

from __future__ import annotations

import pandas as pd
from streamlit.testing.v1 import AppTest

from tests.app.conftest import page_table, tables
from ui.small_table import SMALL_TABLE_COLUMNS, SMALL_TABLE_ROWS, page_table_html, table_markdown


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


def test_a_page_table_is_an_escaped_html_table_with_its_header_and_marks() -> None:
    """``page_table_html``: a caption, a header row of column headers, every value at the four
    decimals the grid showed ("—" missing), text escaped, a score above 1 bold on a tint with
    an ``above 1`` column naming it; the wrapper named and reachable by the keyboard."""
    df = pd.DataFrame({"document": ["<img src=x onerror=alert(1)>", "d&2"],
                       "P": [1.0206667, float("nan")], "R": [0.25, 1.5], "n": [3, 4]})
    body = page_table_html(df, caption="Rows 1–2 of 2.", label="a <b> table")
    assert "<img" not in body and "<b>" not in body
    assert 'role="region" tabindex="0" aria-label="a &lt;b&gt; table"' in body
    assert body.count('<th scope="col"') == 5  # four columns and "above 1"
    caption, shown, marked = page_table(body)
    assert caption == "Rows 1–2 of 2."
    assert list(shown.columns) == ["document", "P", "R", "n", "above 1"]
    assert list(shown["document"]) == ["<img src=x onerror=alert(1)>", "d&2"]
    assert shown["P"].iloc[0] == 1.0207 and pd.isna(shown["P"].iloc[1])
    assert list(shown["n"]) == [3, 4] and list(shown["above 1"]) == ["↑ P", "↑ R"]
    assert marked == [(0, 1), (1, 2)]


def test_a_page_table_without_a_score_above_one_has_no_marks() -> None:
    body = page_table_html(pd.DataFrame({"document": ["a"], "F1": [1.0]}), caption="c",
                           label="t")
    _, shown, marked = page_table(body)
    assert list(shown.columns) == ["document", "F1"] and not marked and "above 1" not in body
