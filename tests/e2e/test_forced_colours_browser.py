"""Real browser: the marks keep their colours under forced colours (Windows' contrast themes;
Chromium's ``forced-colors: active``), as the user sees them (review11 item 11: the unit test in
tests/render/test_compact_highlight.py only finds the ``forced-color-adjust:none`` string).

The markup is the one the pages draw (:mod:`core.render.highlight`), on a page of its own: the
computed colours of a tag, of a segment's stripes and of a legend's swatch are read with forced
colours on, and once with the opt-out removed, which proves that the emulation does force them.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from core.render import highlight
from core.render.highlight import SpanItem

pytestmark = pytest.mark.e2e

TEXT = "The mayor's reckless plan will bankrupt every family, critics say."
GOLD = [SpanItem("G1", 4, 19, ("Loaded",)), SpanItem("G2", 20, 40, ("Doubt",))]
COLOURS = highlight.label_colours(["Loaded", "Doubt"])


def _rgb(hex_colour: str) -> str:
    """``#56B4E9`` as a computed style gives it: ``86, 180, 233``."""
    return ", ".join(str(int(hex_colour[k:k + 2], 16)) for k in (1, 3, 5))


LOADED = _rgb(COLOURS["Loaded"])


def _page(compact: bool) -> str:
    lanes = highlight.render_lanes(TEXT, GOLD, COLOURS, selected="G1", compact=compact)
    legend = highlight.legend(COLOURS, compact=compact)
    style = f"<style>{highlight.compact_css()}</style>" if compact else ""
    return f"<!doctype html><html><head>{style}</head><body>{lanes}{legend}</body></html>"


def _seen(st_ui: SimpleNamespace, browser: Any, html: str) -> dict[str, str]:
    with st_ui.session(browser, forced_colors="active", color_scheme="dark") as page:
        page.set_content(html)
        assert page.evaluate("matchMedia('(forced-colors: active)').matches")
        return dict(page.evaluate("""() => {
            const css = (el, key) => getComputedStyle(el)[key];
            const tag = document.querySelector('.ss-tag[data-span="G1"]');
            const seg = tag.closest('.ss-seg');
            const swatches = [...document.querySelectorAll('.ss-legend *')].map(
                el => css(el, 'backgroundColor') + ' '
                      + getComputedStyle(el, '::before').backgroundColor);
            return {tag: css(tag, 'backgroundColor'), stripes: css(seg, 'backgroundImage'),
                    swatches: swatches.join(' ')};
        }"""))


@pytest.mark.parametrize("compact", [False, True], ids=["inline", "compact"])
def test_marks_keep_their_label_colours_under_forced_colours(
        browser: Any, st_ui: SimpleNamespace, compact: bool) -> None:
    seen = _seen(st_ui, browser, _page(compact))
    assert seen["tag"] == f"rgb({LOADED})"
    assert "linear-gradient" in seen["stripes"] and LOADED in seen["stripes"]
    assert LOADED in seen["swatches"]  # the legend's swatch of Loaded (::before if compact)
    # the control: the same markup without the opt-out loses the tag's colour
    forced = _page(compact).replace("forced-color-adjust:none", "forced-color-adjust:auto")
    assert _seen(st_ui, browser, forced)["tag"] != f"rgb({LOADED})"
