"""AppTest fixtures: the app on a small hand-made corpus, injected as an uploaded workspace.

Hand-made data keeps these tests independent of the readers; ``make_app(data="sample")`` runs
the app on the bundled ``sample_data/`` (part of the repository: a missing sample fails).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
XSS_TEXT = 'Hello <script>alert("x")</script> and <img src=x onerror=alert(1)> world, done.'
XSS_LABEL = "<b>bold</b>"


def corpus() -> tuple[dict[str, str | None], list[AnnotationSet]]:
    """Three documents; gold, two systems; nested and overlapping spans; XSS text and label."""
    texts: dict[str, str | None] = {
        "doc1": "The quick brown fox jumps over the lazy dog near the river bank today.",
        "doc2": "Fear sells: they will take everything you own unless you act now!",
        "doc10": XSS_TEXT,
    }
    gold = AnnotationSet("gold", {
        "doc1": (Span(4, 19, "Loaded"), Span(10, 15, "Doubt"), Span(35, 43, "Loaded")),
        "doc2": (Span(0, 10, "Fear"), Span(12, 44, "Fear")),
        "doc10": (Span(6, 34, XSS_LABEL),),
    }, "gold")
    sys_a = AnnotationSet("system_a", {
        "doc1": (Span(4, 15, "Loaded"), Span(50, 60, "Doubt")),
        "doc2": (Span(0, 10, "Fear"),),
        "doc10": (Span(6, 20, XSS_LABEL),),
    }, "system")
    sys_b = AnnotationSet("system_b", {
        "doc1": (Span(4, 19, "Loaded"),),
        "doc2": (Span(5, 30, "Doubt"),),
    }, "system")
    return texts, [gold, sys_a, sys_b]


def workspace():  # -> ui.state.Workspace (imported lazily: ui.state imports streamlit)
    from ui import state

    texts, sets = corpus()
    report = state.FileReport("handmade.json", "test", "gold", "handmade", texts, tuple(sets))
    return state.build_workspace([report], key="test:handmade", title="hand-made corpus",
                                 shareable=False)


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own store file (what ``spanscope app --store`` hands the dashboard in
    ``SPANSCOPE_STORE``): pages that keep what people do (Curation) never write to the
    user's folder, and no test sees another's decisions."""
    path = tmp_path / "store.sqlite"
    monkeypatch.setenv("SPANSCOPE_STORE", str(path))
    return path


@pytest.fixture
def make_app() -> Callable[..., AppTest]:
    """``make_app(page=None, data="handmade"|"empty"|"sample", params={})`` -> a run AppTest."""

    def make(page: str | None = None, data: str = "handmade",
             params: dict[str, str] | None = None) -> AppTest:
        from ui import state

        at = AppTest.from_file(str(APP), default_timeout=60)
        for key, value in (params or {}).items():
            at.query_params[key] = value
        if data == "handmade":
            at.session_state[state.K_SOURCE] = "upload"
            at.session_state[state.K_UPLOAD_WS] = workspace()
        elif data == "empty":
            at.session_state[state.K_SOURCE] = "upload"
        at.run()
        if page is not None:
            at.switch_page(page).run()
        return at

    return make


def app_on_workspace(ws, page: str, timeout: float = 60,
                     params: dict[str, str] | None = None) -> AppTest:
    """A run AppTest on the uploaded workspace ``ws`` (a :class:`ui.state.Workspace`),
    switched to ``page`` (its URL's query ``params``); the page raised nothing."""
    from ui import state

    at = AppTest.from_file(str(APP), default_timeout=timeout)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def app_on_sets(sets: list[AnnotationSet], texts: dict[str, str | None], page: str, *,
                key: str, role: str = "annotator") -> AppTest:
    """:func:`app_on_workspace` on one uploaded file holding ``sets`` (texts ``texts``, read
    with ``role``)."""
    from ui import state

    report = state.FileReport("custom.json", "test", role, "custom", texts, tuple(sets))
    ws = state.build_workspace([report], key=key, title="custom", shareable=False)
    return app_on_workspace(ws, page)


@pytest.fixture
def handmade() -> tuple[dict[str, str | None], list[AnnotationSet]]:
    """The texts and sets of :func:`corpus`."""
    return corpus()


@pytest.fixture
def data_dir() -> Path:
    """SemEval-2021 JSON files of the hand-made corpus, plus ``broken.json``."""
    return Path(__file__).parent / "data"


_MARKED = re.compile(r"^\*\*:orange-background\[(.*)\]\*\*$")
_ESCAPED = re.compile(r"\\(.)")


def _markdown_cell(text: str) -> object:
    """A cell of :func:`ui.small_table.table_markdown` back as a value: "—" missing, numbers as
    numbers, text unescaped (a score above 1 without its bold and tint)."""
    text = _MARKED.sub(r"\1", text.strip())
    if text == "—":
        return float("nan")
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return _ESCAPED.sub(r"\1", text).replace("\u2060", "")


def _split_row(line: str) -> list[str]:
    return list(re.split(r"(?<!\\)\|", line.strip())[1:-1])


class _PageTable(HTMLParser):
    """The caption, header and cells of an HTML table of :func:`ui.small_table.page_table_html`
    (text unescaped), and which cells are marked above 1."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.caption = ""
        self.rows: list[list[str]] = []
        self.marked: list[tuple[int, int]] = []
        self.numeric: list[bool] = []  # per column: its header is a number column's
        self._cell: list[str] | None = None
        self._where = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "caption":
            self._where = "caption"
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self._cell = []
            classes = (dict(attrs).get("class") or "").split()
            if tag == "th" and len(self.rows) == 1:
                self.numeric.append("n" in classes)
            if "up" in classes:
                self.marked.append((len(self.rows) - 2, len(self.rows[-1])))

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self._where = ""
        elif tag in ("th", "td") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._where == "caption":
            self.caption += data
        elif self._cell is not None:
            self._cell.append(data)


def page_table(body: str) -> tuple[str, pd.DataFrame, list[tuple[int, int]]]:
    """An HTML table of :func:`ui.small_table.page_table_html` read back: its caption, its
    rows as a frame (the number columns' numbers with the four decimals they show, "—"
    missing; text as text), and the (row, column) positions of the cells marked above 1."""
    parser = _PageTable()
    parser.feed(body)
    head, *rows = parser.rows
    return (parser.caption, pd.DataFrame(
        [[_html_cell(c) if n else c for c, n in zip(r, parser.numeric, strict=True)]
         for r in rows], columns=head), parser.marked)


def _html_cell(text: str) -> object:
    if text == "—":
        return float("nan")
    try:
        return int(text)
    except ValueError:
        return float(text)


def page_tables(at: AppTest) -> list[tuple[str, pd.DataFrame, list[tuple[int, int]]]]:
    """Every HTML page table shown (:func:`page_table`)."""
    return [page_table(h.proto.body) for h in at.html if 'class="ss-page-table"' in h.proto.body]


def tables(at: AppTest) -> list[pd.DataFrame]:
    """Every table shown: the data grids' frames, the HTML page tables of
    :func:`ui.small_table.page_table_html`, then the Markdown tables of
    :func:`ui.small_table.small_table` read back (numbers with the four decimals they show)."""
    out = [df.value for df in at.dataframe] + [t for _, t, _ in page_tables(at)]
    for element in at.markdown:
        lines = str(element.value).splitlines()
        if len(lines) < 2 or not lines[0].startswith("| ") \
                or not lines[1].startswith(("|:--", "|--:")):
            continue
        columns = [str(_markdown_cell(c)) for c in _split_row(lines[0])]
        rows = [[_markdown_cell(c) for c in _split_row(line)] for line in lines[2:]]
        out.append(pd.DataFrame(rows, columns=columns))
    return out


def frame_of(at: AppTest, *columns: str) -> pd.DataFrame:
    """The first table shown (:func:`tables`) whose columns include ``columns``."""
    for value in tables(at):
        if all(c in value.columns for c in columns):
            return value
    raise AssertionError(f"no dataframe with columns {columns}")


@pytest.fixture
def frame() -> Callable[..., object]:
    """``frame(at, *columns)``: :func:`frame_of` (AppTest does not expose the ``key`` of a
    non-selectable ``st.dataframe``)."""
    return frame_of


def annotator_tiles(at: AppTest) -> dict[str, tuple[str, str, list[str]]]:
    """The Annotators page's many-annotator tiles (``ui.annotators.tiles_html``, one HTML
    element) as ``{label: (value, help, notes)}``, in their order; empty when none is drawn."""
    import html

    body = next((h.proto.body for h in at.html if 'class="ann-tiles"' in h.proto.body), "")
    out: dict[str, tuple[str, str, list[str]]] = {}
    for tile in re.findall(r'<div class="ann-tile">(.*?)</div>', body):
        label = re.search(r"<dt>(.*?)</dt>", tile)
        value = re.search(r'<dd class="value">(.*?)</dd>', tile)
        help_ = re.search(r"<p>(.*?)</p>", tile)
        assert label and value and help_, tile
        notes = re.findall(r'<dd class="note">(.*?)</dd>', tile)
        out[html.unescape(label.group(1))] = (html.unescape(value.group(1)),
                                             html.unescape(help_.group(1)),
                                             [html.unescape(n) for n in notes])
    return out


def open_rename(at: AppTest) -> AppTest:
    """Opens the Data page's lazy "Rename a set" expander (:func:`ui.lazy.lazy_expander`),
    as a click does: closed, its widgets are not drawn."""
    from ui import set_names

    at.session_state[set_names.K_RENAME_OPEN] = True
    at.session_state[f"{set_names.K_RENAME_OPEN}_kept"] = True  # what its on_change keeps
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def plain_texts(node: Any) -> list[str]:
    """The captions and lines of text drawn as plain HTML (:mod:`ui.plain`) under ``node``, as
    a reader sees them: the tags dropped, the entities read back."""
    import html

    from ui import plain

    marks = (f'<div class="{plain.CAPTION_CLASS}">', f'<div class="{plain.TEXT_CLASS}">')
    return [html.unescape(re.sub(r"<[^>]+>", "", h.proto.body)) for h in node.get("html")
            if h.proto.body.startswith(marks)]
