"""Small reusable page pieces: the data guard of a page, the reference/compared set pickers,
CSV/JSON downloads of a table, the image format of a chart's download, pagination of long
tables and lazy expanders that keep a reader's choice."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from core.formats.csvsafe import cell
from ui import paging, state
from ui.escape import md
from ui.set_names import full_name_help

PAGE_SIZE = paging.PAGE_SIZE


def set_pair(ws: state.Workspace, col_a: Any, col_b: Any, label_a: str, label_b: str, *,
             compared: Callable[[state.Workspace, str], list[str]] | None = None
             ) -> tuple[str, str]:
    """Two selectboxes in ``col_a``/``col_b``: the reference set and the set compared with it,
    bound to the URL under :data:`state.K_SET_A`/:data:`state.K_SET_B` (shared by every page
    that compares two sets) and preset by :func:`state.default_pair`. ``compared(ws, ref)``
    lists the choices for the compared set (default: every other set, or all when there is
    only one)."""
    names = list(ws.sets)
    default_a, default_b = state.default_pair(ws)
    set_a = col_a.selectbox(label_a, names, index=names.index(default_a) if default_a else 0,
                            key=state.K_SET_A, bind="query-params",
                            help=full_name_help(state.K_SET_A, default_a or names[0]))
    others = (compared(ws, set_a) if compared is not None
              else [n for n in names if n != set_a] or names)
    set_b = col_b.selectbox(label_b, others,
                            index=others.index(default_b) if default_b in others else 0,
                            key=state.K_SET_B, bind="query-params",
                            help=full_name_help(state.K_SET_B, default_b or others[0]))
    return set_a, set_b


def asked_for(n_docs: int, threshold: int, label: str, *, key: str, why: str | None = None
              ) -> bool:
    """Whether a whole-corpus computation may run: always up to ``threshold`` documents, and
    above it only once the user turns on the toggle ``label`` (kept for the session; ``why``
    ends its help). Pages never block on a computation the user did not ask for (issue 29)."""
    if n_docs <= threshold:
        return True
    return st.toggle(label, key=key, persist_state="session",
                     help=None if why is None else
                     f"Off by default above {threshold:,} documents: {why}")


def download_buttons(df: pd.DataFrame, name: str, *, key: str,
                     settings: Mapping[str, Any] | None = None) -> None:
    """Two buttons that download ``df`` as ``<name>.csv`` and ``<name>.json`` (records).

    ``settings`` (the reference, variants, level, resamples... that produced the table) go
    into both file names, shortly (:func:`settings_name`), and into every JSON record as its
    ``"settings"`` object (:func:`records_json`); the CSV keeps its first line the header (a
    comment line before it would be read as the header by pandas and Excel)."""
    if settings:
        name = f"{name}_{settings_name(settings)}"
    # A horizontal container of content-wide buttons: columns would squeeze them to their icons
    # on a phone.
    row = st.container(horizontal=True, gap="small")
    left = right = row
    # Callables: the file is built when the button is clicked, not on every rerun (a 10,000-row
    # table would otherwise be serialised twice per interaction).
    left.download_button("⬇️ CSV", lambda: safe_csv(df), file_name=f"{name}.csv",
                         mime="text/csv", key=f"{key}_csv", on_click="ignore")
    right.download_button(
        "⬇️ JSON", lambda: records_json(df, settings),
        file_name=f"{name}.json", mime="application/json", key=f"{key}_json",
        on_click="ignore")


def download_menu(df: pd.DataFrame, name: str, *, key: str,
                  settings: Mapping[str, Any] | None = None) -> None:
    """:func:`download_buttons` one click further: a "⬇️ CSV / JSON" button that opens a popover
    holding the two. Closed, the popover's content is not mounted, so a page visit draws one
    button, not a row of two (each element is mounted again on every visit of a page,
    docs/performance.md, issue 29, eleventh pass); the buttons' keys, files and settings are
    those of :func:`download_buttons`. Tab reaches the button, Enter or Space opens it, Tab
    then reaches the two downloads and Escape closes it."""
    with st.popover(DOWNLOAD_MENU, key=f"{key}_menu"):
        download_buttons(df, name, key=key, settings=settings)


DOWNLOAD_MENU = "⬇️ CSV / JSON"
"""The label of :func:`download_menu`'s button (its accessible name)."""


def records_json(df: pd.DataFrame, settings: Mapping[str, Any] | None = None) -> str:
    """``df`` as JSON records with every float at full precision, as the CSV writes it (the
    shortest text that reads back as the same double): pandas' ``to_json`` rounds to 10 digits,
    so a download's JSON said F1 = 1.1111111111 where its CSV said 1.1111111111111112. Other
    values are written as pandas writes them; NaN and infinities are null. ``settings``, when
    given, is every record's ``"settings"`` object (a key added: a reader of the records as
    they were still reads them)."""
    records = json.loads(df.to_json(orient="records", force_ascii=False))
    for i, column in enumerate(df.columns):
        name = str(column)
        for record, v in zip(records, df.iloc[:, i].tolist(), strict=True):
            if isinstance(v, float) and math.isfinite(v) and name in record:
                record[name] = v
    if settings:
        for record in records:
            record["settings"] = dict(settings)
    return json.dumps(records, indent=1, ensure_ascii=False)


SETTING_TAGS = {"reference": "ref-", "level": "L", "resamples": "b", "seed": "seed",
                "label": "label-", "samples": "samples"}
"""How :func:`settings_name` writes a setting in a file name (its key's tag, then its value);
a key not listed (a metric's name for its variant) is written ``key-value``."""


def settings_name(settings: Mapping[str, Any]) -> str:
    """The settings of a download, short, for its file name: ``None`` values and nested
    objects (a taxonomy's details) left out, characters a file name cannot hold replaced.

    >>> settings_name({"reference": "gold", "martino": "nlp4if2019", "level": 1,
    ...                "taxonomy": "MAFALDA", "resamples": 1000, "seed": 0, "label": None})
    'ref-gold_martino-nlp4if2019_L1_b1000_seed0'
    """
    parts = [SETTING_TAGS[k] + str(v) if k in SETTING_TAGS else f"{k}-{v}"
             for k, v in settings.items()
             if v is not None and k != "taxonomy" and not isinstance(v, (dict, list, tuple))]
    return "_".join(parts).translate({ord(c): "-" for c in '/\\:*?"<>| '})


def safe_csv(df: pd.DataFrame) -> str:
    """``df`` as CSV with every text cell (and column name) that a spreadsheet would run as a
    formula quoted (:func:`core.formats.csvsafe.cell`): ids and labels come from other
    people's files. Every CSV download of the dashboard goes through here."""
    text = df.select_dtypes(include=["object", "string", "category"]).columns
    safe = df.copy(deep=False)
    for column in text:
        safe[column] = df[column].astype(object).map(cell)
    safe.columns = [cell(str(c)) for c in df.columns]
    return safe.to_csv(index=False)


IMAGE_FORMATS = {"PNG": "png", "SVG": "svg"}


def chart_image(name: str, *, key: str) -> dict[str, Any]:
    """The ``config`` of ``st.plotly_chart`` whose modebar camera downloads the chart as
    ``<name>.png`` or ``<name>.svg``, the format picked in a small control shown here.

    The browser draws the image with Plotly's own export (``toImageButtonOptions``): no server
    round trip, no Kaleido and Chromium started per image (3 to 5 s each before issue 29).
    """
    row = st.container(horizontal=True, gap="small", vertical_alignment="center")
    picked = row.segmented_control(
        "Chart image", list(IMAGE_FORMATS), default="PNG", required=True, key=key,
        label_visibility="collapsed",
        help="The format the 📷 of the chart's toolbar downloads (drawn by your browser)")
    fmt = IMAGE_FORMATS[picked or "PNG"]
    row.caption(f"📷 in the chart's toolbar saves it as {md(name)}.{fmt}")
    return {"displaylogo": False, "displayModeBar": True,
            "toImageButtonOptions": {"format": fmt, "filename": name,
                                     "scale": 2 if fmt == "png" else 1}}


def paginate(df: pd.DataFrame, *, key: str, page_size: int = PAGE_SIZE) -> pd.DataFrame:
    """The rows of ``df`` on the page chosen with a number input shown when there is more than one,
    with a caption saying which rows of how many (:mod:`ui.paging`).

    Sorting happens before paging (the caller sorts), so paging never hides the best or worst rows.
    """
    rows, which, paged = page_of(df, key=key, page_size=page_size)
    if paged:
        st.caption(which)
    return rows


def page_of(df: pd.DataFrame, *, key: str, page_size: int = PAGE_SIZE
            ) -> tuple[pd.DataFrame, str, bool]:
    """:func:`paginate` without its caption: the rows of the chosen page, which rows they are
    ("Rows 21–40 of 100,000.", for a caption of the caller's own) and whether there is more
    than one page (then the number input is shown)."""
    pages = paging.page_count(len(df), page_size)
    if pages == 1:
        return df, paging.rows_caption(1, len(df), page_size), False
    if int(st.session_state.get(key) or 1) > pages:
        del st.session_state[key]  # a shorter table now (another filter): back to page 1
    page = int(st.number_input(f"Page (of {pages:,}, {page_size} rows each)", min_value=1,
                               max_value=pages, value=1, step=1, key=key))
    return (paging.page_rows(df, page, page_size), paging.rows_caption(page, len(df), page_size),
            True)


def notes(messages: list[str] | tuple[str, ...], *, key: str, shown: int = 3) -> None:
    """``messages`` as ⚠️ captions: the first ``shown`` of them, the rest counted in an expander
    that lists them paginated (one caption per document of 100,000 would bury the page)."""
    for message in messages[:shown]:
        st.caption(f"⚠️ {md(message)}")
    if len(messages) > shown:
        with st.expander(f"⚠️ {len(messages) - shown:,} more warning(s) of this kind"):
            rest = pd.DataFrame({"warning": list(messages[shown:])})
            st.dataframe(paginate(rest, key=f"{key}_page"), hide_index=True, key=key,
                         placeholder="—")
