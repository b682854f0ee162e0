"""Real browser, a server's very first page load: the sidebar never lists the raw file names of
``pages/`` (Streamlit drew them, "app, annotators, curation, ...", until ``app.py`` reached
``st.navigation``; the newcomer tour's 01_learn.png), and the menu app.py draws is there."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.servers import running

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
RAW = sorted(p.stem for p in (ROOT / "pages").glob("*.py"))
TITLES = ["Overview", "Data", "Scores", "Documents", "Errors", "Metric differences", "Labels",
          "Annotators", "Curation", "Learn"]

# Every text the sidebar shows, recorded in the page from its first element on (a
# MutationObserver sees each state, however short, that polling from the test could miss).
RECORD = """
window.__sidebar = [];
new MutationObserver(() => {
  const s = document.querySelector('[data-testid="stSidebar"]');
  if (!s) return;
  const t = s.innerText;
  if (window.__sidebar[window.__sidebar.length - 1] !== t) window.__sidebar.push(t);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_the_first_load_never_shows_the_raw_page_names(browser: Any, tmp_path: Path,
                                                      st_ui: SimpleNamespace) -> None:
    env = dict(os.environ, HOME=str(tmp_path), SPANSCOPE_STORE=str(tmp_path / "s.sqlite"))
    with running([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")], cwd=ROOT,
                 env=env, timeout=60) as server, \
            st_ui.session(browser, {"width": 1280, "height": 900}) as page:
        page.add_init_script(RECORD)
        st_ui.open_page(page, server.url, "learn")  # until the first run has ended
        page.get_by_test_id("stSidebar").get_by_text("Metric differences",
                                                     exact=True).wait_for()
        seen: list[str] = page.evaluate("window.__sidebar")
    assert seen
    for text in seen:
        lines = {line.strip() for line in text.splitlines()}
        assert not {"app", "home", *RAW} & lines, text
    assert [line for line in seen[-1].splitlines() if line.strip() in TITLES] == TITLES
