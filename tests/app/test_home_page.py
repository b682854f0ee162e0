"""The Overview page (``pages/home.py``, ``ui/home.py``): what a visit draws (issue 29, thirteenth
pass: fewer elements and blocks, no data grid for the systems' scores)."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import tables
from ui import home, sidebar
from ui.small_table import NOWRAP_COLUMNS


def test_systems_scores_are_a_markdown_table_with_headers_on_one_line(make_app) -> None:
    """The systems' scores (12 columns without intervals) are a Markdown table, not a data grid,
    in a container whose headers keep one line (``ui.sidebar.TABLE_CSS``), with the numbers
    the Scores page shows, a score above 1 still marked (the sample's DSM P of system_a)."""
    at = make_app("pages/home.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    assert not [d for d in at.dataframe if "DSM P" in d.value.columns]
    overview = [t for t in tables(at) if "DSM P" in t.columns]
    assert len(overview) == 1
    assert 10 < len(overview[0].columns.drop("above 1")) <= NOWRAP_COLUMNS
    marked = overview[0].set_index("system")["above 1"]
    assert marked["system_a"].startswith("↑ DSM P")
    assert ".st-key-home_overview" in sidebar.TABLE_CSS
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    scores = next(t for t in tables(at) if "DSM P" in t.columns)
    numbers = [c for c in overview[0].columns if c.endswith((" P", " R", " F1", " EMR"))]
    assert len(numbers) == 10 and set(numbers) <= set(scores.columns)
    for system, row in overview[0].set_index("system")[numbers].iterrows():
        full = scores.set_index("system").loc[system, numbers]
        # four decimals shown, as the grid shows them
        assert [float(v) for v in row] == [round(float(v), 4) for v in full], system


def test_where_next_is_one_row_of_columns_with_every_link_in_order(make_app) -> None:
    """Nine links in one row of three columns (three rows of four before: 3 + 12 blocks), the
    sidebar's order kept down each column, each link with its caption."""
    at = make_app("pages/home.py")
    assert not at.exception, [e.value for e in at.exception]
    links = at.main.get("page_link")
    assert [str(link.proto.page) for link in links] == [Path(p).stem for p, *_ in home.NEXT]
    assert [link.proto.label for link in links] == [label for _, label, *_ in home.NEXT]
    where = [c for c in at.columns if c.get("page_link")]
    assert len(where) == home.WHERE_COLUMNS
    for column, start in zip(where, range(0, len(home.NEXT), 3), strict=True):
        inside = [str(link.proto.page) for link in column.get("page_link")]
        assert inside == [Path(p).stem for p, *_ in home.NEXT[start:start + 3]]
        # each link followed by its caption, as HTML: no Markdown for the browser to parse
        drawn = [(e.type, e.proto.label if e.type == "page_link" else e.proto.body)
                 for e in column.children.values()]
        assert drawn == [pair for _, label, _, text in home.NEXT[start:start + 3]
                         for pair in (("page_link", label), ("html", home.caption_html(text)))]


def test_where_next_sends_its_captions_as_html_with_the_captions_look(make_app) -> None:
    """Issue 29, nineteenth pass: the nine captions under the links are ``st.html`` (the
    browser parsed each ``st.caption`` as Markdown on every visit), as many elements as before,
    none lost; the sidebar's style gives the class the captions' size and opacity."""
    at = make_app("pages/home.py")
    assert not at.exception, [e.value for e in at.exception]
    bodies = [h.proto.body for h in at.main.get("html")]
    assert [b for b in bodies if home.CAPTION_CLASS in b] == [
        home.caption_html(text) for *_, text in home.NEXT]
    assert not [c for c in at.caption if any(text == c.value for *_, text in home.NEXT)]
    assert len(at.main.get("page_link")) == len(home.NEXT)  # no link lost
    assert f".{home.CAPTION_CLASS}{{opacity:.75}}" in sidebar.CAPTION_CSS
    assert f".{home.CAPTION_CLASS}{{font-size:.875rem;" in sidebar.CAPTION_CSS
    assert home.caption_html("a <b> & c") == '<div class="ss-caption">a &lt;b&gt; &amp; c</div>'
