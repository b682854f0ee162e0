"""Labels and set names with Plotly's markup in them are drawn as written in the charts.

Plotly draws ``<b>``, ``<i>``, ``<br>``, ``<sup>`` and ``&...;`` entities in its titles, tick
labels, legends and hover text: a label ``<b>bold</b>`` was drawn in bold, ``a<br>b`` on two
lines, and a system read from ``<i>sys.json`` in italics. Each string from a file goes
through :func:`ui.escape.plot` in the figure builder; here a person's view of the charts (their
SVG text) must hold each name as written, at 1,440 px and at 390 px.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

LABELS = ("<b>bold</b>", "a<br>b", "x&amp;y %{y}")
SYSTEM = "<i>sys &lt;x&gt;"  # a file name holds no "/" (the browser keeps what follows)

_TEXT = "The mayor's reckless plan will bankrupt every family, again and again."


def _files() -> list[dict[str, Any]]:
    docs = [{"id": f"d{i}", "text": _TEXT, "labels": [
        {"start": 4, "end": 9, "technique": LABELS[i % 3]},
        {"start": 10, "end": 25, "technique": LABELS[(i + 1) % 3]},
    ]} for i in range(3)]
    pred = [{"id": d["id"], "text": _TEXT, "labels": [
        {"start": 4, "end": 9, "technique": d["labels"][0]["technique"]},
    ]} for d in docs]
    return [{"name": "gold.json", "mimeType": "application/json",
             "buffer": json.dumps(docs).encode()},
            {"name": f"{SYSTEM}.json", "mimeType": "application/json",
             "buffer": json.dumps(pred).encode()}]


def _chart_text(page: Any, index: int = 0) -> dict[str, Any]:
    """The text the chart draws (its SVG's ``text`` elements, as a reader gets them) and
    whether any of it is drawn bold or italic by Plotly's markup (a ``tspan`` with a
    ``font-weight``/``font-style`` of its own)."""
    chart = page.locator(".js-plotly-plot").nth(index)
    chart.wait_for(timeout=60_000)
    return chart.evaluate(
        """el => ({
            texts: [...el.querySelectorAll('text')].map(t => t.textContent),
            styled: [...el.querySelectorAll('tspan')].filter(
                t => /font-weight:\\s*bold|font-style:\\s*italic/.test(
                    t.getAttribute('style') || '')).map(t => t.textContent),
        })""")


def _markup_read(drawn: dict[str, Any]) -> list[str]:
    """The names' inner words drawn bold or italic on their own (the title's own bold is
    Plotly's title font, not markup)."""
    return [t for t in drawn["styled"] if t in ("bold", "sys")]


def test_labels_and_set_names_are_drawn_as_written(
        vpage: Any, app_url: str, st_ui: SimpleNamespace) -> None:
    page = vpage
    st_ui.open_page(page, app_url, "data")
    page.locator("input[type=file]").set_input_files(_files())
    page.get_by_text("the uploaded files").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page, timeout=60_000)
    # The Data page: spans per label and set (a heatmap, labels as its rows).
    box = page.get_by_test_id("stExpander").filter(has_text="Spans per label and set")
    st_ui.click(page, box.locator("summary"), page.get_by_role("tab", name="📊 Chart"))
    page.get_by_role("tab", name="📊 Chart").click()
    st_ui.wait_idle(page, timeout=120_000)
    drawn = _chart_text(page)
    for label in LABELS:
        assert label in drawn["texts"], (label, drawn)
    assert SYSTEM in drawn["texts"], repr(drawn["texts"])
    assert not _markup_read(drawn), drawn
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    st_ui.shot(page, f"plotly_text_data_{page.viewport_name}")
    # The Scores page: the per-label chart of the system (labels on its axis, the system in
    # its title).
    st_ui.go(page, "Scores")
    page.get_by_role("tab", name="📊 Per-label chart").click()
    st_ui.wait_idle(page, timeout=120_000)
    drawn = _chart_text(page)
    shown = " ".join(drawn["texts"])
    for label in LABELS:
        assert label in drawn["texts"], (label, drawn)
    assert f"{SYSTEM}: P, R, F1 per label" in shown, drawn
    assert not _markup_read(drawn), drawn
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    st_ui.shot(page, f"plotly_text_scores_{page.viewport_name}")
    assert page.get_by_test_id("stException").count() == 0
    assert st_ui.app_errors(page) == []
