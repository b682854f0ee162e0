"""Right-to-left text in a real browser: on the Documents page the first word of a Hebrew or
Arabic text is drawn at the right edge of both side-by-side panes and of the merged view (the
panes used to lay the text out left to right around the span tags, so one view read backwards;
an Urdu spaCy corpus of a tour). The texts are ``tests/data/rtl/`` (our own sentences); the
server is started with them as ``--data`` files (:data:`core.cli.launch.DATA_ENV`)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import new_page
from tests.servers import running

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "tests" / "data" / "rtl"

# Where the first character of the block's text (tags and marks left out) is drawn, against the
# block's own box, and where the sixth is: the text's first word reads right to left.
FIRST_CHAR = """
(id) => {
  const box = document.getElementById(id);
  const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT, {acceptNode: (n) =>
    n.parentElement.closest('.ss-tag, .ss-cat') || !n.textContent.trim()
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  const node = walk.nextNode();
  const rect = (i) => { const r = document.createRange(); r.setStart(node, i);
                        r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
  const b = box.getBoundingClientRect();
  const r0 = rect(0);
  // Tags drawn on the first character's line to its right (a span's tag, id and labels, can
  // open the text): the first word starts at the edge less their widths.
  const tags = [...box.querySelectorAll('.ss-tag')].map((t) => t.getBoundingClientRect())
    .filter((t) => t.left >= r0.right - 1 && t.top < r0.bottom && t.bottom > r0.top)
    .reduce((w, t) => w + t.width, 0);
  return {dir: getComputedStyle(box).direction, left: b.left, right: b.right, tags,
          first: r0.right, sixth: rect(5).right, text: node.textContent.slice(0, 6)};
}
"""


@pytest.fixture(scope="module")
def rtl_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server on the right-to-left files for both documents (they only read it)."""
    home = tmp_path_factory.mktemp("rtl_home")
    env = dict(os.environ, HOME=str(home), SPANSCOPE_STORE=str(home / "s.sqlite"),
               SPANSCOPE_DATA=json.dumps([
                   {"role": "gold", "path": str(RTL / "rtl_gold.jsonl")},
                   {"role": "system", "path": str(RTL / "rtl_system.jsonl")}]))
    with running([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")], cwd=ROOT,
                 env=env, timeout=90) as server:
        yield server.url


@pytest.mark.parametrize("doc_id", ["he1", "ar1"])
def test_the_first_word_of_a_right_to_left_text_is_drawn_at_the_right_edge(
        browser: Any, st_ui: Any, rtl_url: str, doc_id: str) -> None:
    context, page = new_page(browser, {"width": 1400, "height": 1600})
    try:
        st_ui.open_page(page, rtl_url, f"documents?doc={doc_id}")
        for dom_id in ("left-doc", "right-doc", "merged"):
            page.locator(f"#{dom_id}").wait_for(timeout=90_000)
        st_ui.shot(page, f"rtl_documents_{doc_id}")
        for dom_id in ("left-doc", "right-doc", "merged"):
            at = page.evaluate(FIRST_CHAR, dom_id)
            assert at["dir"] == "rtl", (dom_id, at)
            # The first word starts at the right edge (the padding and the tags drawn before it
            # on its line away at most) and reads leftwards.
            assert at["first"] > at["right"] - 60 - at["tags"], (dom_id, at)
            assert at["first"] > (at["left"] + at["right"]) / 2, (dom_id, at)
            assert at["sixth"] < at["first"], (dom_id, at)
        assert not st_ui.app_errors(page)
    finally:
        context.close()
