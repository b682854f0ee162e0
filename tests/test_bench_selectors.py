"""The elements ``bench/bench_app.py`` waits for on each page (:data:`NAV`): its clock stops when
one is there, so each must be what the page draws last, not an element Streamlit draws first.

No clock is measured here (speed is the bench's business): the selectors are read as text. A
chart's key container holds Streamlit's toolbar, whose button icons are ``svg`` elements drawn
before the chart itself: a bare ``svg`` (or ``canvas``) under a key stopped the Metric
differences and Labels clocks before Vega had drawn (Vega's own SVG is ``svg.marks``). Older
alternatives stay for the base revisions the bench compares against; one alternative of each
page names a key the pages give today."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
KEY = re.compile(r"\.st-key-([A-Za-z0-9_]+)")


def _bench_app() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_app", ROOT / "bench" / "bench_app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_app", module)
    spec.loader.exec_module(module)
    return module


def _alternatives(selector: str) -> list[str]:
    """The comma-separated alternatives of a selector list, commas inside ``:has(...)`` and
    quotes kept."""
    out, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(selector):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(selector[start:i].strip())
            start = i + 1
    out.append(selector[start:].strip())
    return out


def _ui_keys() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "ui").glob("*.py"))
    return set(re.findall(r"[\"']([A-Za-z0-9_]+)[\"']", text))


def test_no_page_waits_for_an_icon_of_the_charts_toolbar() -> None:
    for page, selector in _bench_app().NAV:
        for alt in _alternatives(selector):
            last = alt.split()[-1]
            if KEY.search(alt):
                assert last not in ("svg", "canvas"), (page, alt)


def test_each_page_waits_for_an_element_the_pages_draw_today() -> None:
    keys = _ui_keys()
    for page, selector in _bench_app().NAV:
        named = [KEY.findall(alt) for alt in _alternatives(selector)]
        assert any(not found or all(k in keys for k in found) for found in named), (
            page, selector)


def test_the_metric_differences_clock_waits_for_the_vega_waterfall() -> None:
    from ui.differences import K_DIFF_WATERFALL
    from ui.labels import K_LAB_CHART

    nav = dict(_bench_app().NAV)
    assert f".st-key-{K_DIFF_WATERFALL} svg.marks" in _alternatives(nav["Metric differences"])
    assert f".st-key-{K_LAB_CHART} svg.marks" in _alternatives(nav["Labels"])
