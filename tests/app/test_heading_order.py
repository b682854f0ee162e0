"""Every page's headings form an outline with no level skipped (WCAG 2.1 SC 1.3.1; axe-core's
``heading-order``, run in a browser by ``tests/e2e/test_accessibility_browser.py``).

A screen reader lists a page's headings by level: the title is ``h1``, a section ``h2``
(``st.header``), a part of a section ``h3``. The pages went from the title to ``st.subheader``
(``h3``) with no ``h2`` between (the eleventh pass's audit). The app tree holds every tab's and
every expander's elements, shown or not, so each is checked here, in the order drawn: titles,
headers, subheaders, Markdown ``#`` lines and the ``<h1>``-``<h6>`` of ``st.html``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py"))
LEVELS = {"title": 1, "header": 2, "subheader": 3}
_FENCE = re.compile(r"^\s*(```|~~~)")
_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})\s")
_HTML_HEADING = re.compile(r"<h([1-6])\b", re.IGNORECASE)


def headings(node: Any) -> Iterator[tuple[int, str]]:
    """(level, text) of every heading under ``node``, in the order the page draws them."""
    for child in getattr(node, "children", {}).values():
        kind = getattr(child, "type", "")
        value = getattr(child, "value", None)
        if kind in LEVELS:
            yield LEVELS[kind], str(value)
        elif kind == "markdown" and isinstance(value, str):
            fenced = False
            for line in value.splitlines():
                if _FENCE.match(line):
                    fenced = not fenced
                elif not fenced and (m := _MD_HEADING.match(line)):
                    yield len(m.group(1)), line.strip()
        elif kind == "html" and isinstance(value, str):
            for m in _HTML_HEADING.finditer(value):
                yield int(m.group(1)), value[m.start():m.start() + 60]
        yield from headings(child)


def skips(found: list[tuple[int, str]], top: int) -> list[str]:
    """The headings that skip a level: deeper than the one before plus one (the first: than
    ``top``)."""
    bad, before = [], top - 1
    for level, text in found:
        if level > before + 1:
            bad.append(f"h{before} -> h{level} {text!r}")
        before = level
    return bad


@pytest.mark.parametrize(("page", "params"), [
    *((page, {}) for page in PAGES),
    ("pages/learn.py", {"exercise": "3"}),
    ("pages/documents.py", {"sample": "mafalda", "doc": "0", "metric": "mafalda"}),
    ("pages/annotators.py", {"sample": "mafalda"}),
])
def test_every_page_has_one_title_and_no_heading_level_skipped(make_app, page: str,
                                                               params: dict[str, str]) -> None:
    at = make_app(page, data="sample", params=params)
    assert not at.exception, [e.value for e in at.exception]
    main = list(headings(at.main))
    assert [text for level, text in main if level == 1] == [at.title[0].value], main
    assert main[0][0] == 1, main  # the title comes first
    assert not skips(main, 1), (skips(main, 1), main)
    # The sidebar's heading comes before the page's title in the document: an h2, not a
    # second h1 and not an h3 under nothing.
    side = list(headings(at.sidebar))
    assert side and not skips(side, 2) and all(level >= 2 for level, _ in side), side


def test_a_skip_is_found() -> None:
    """The check above catches the pages' old outline (title, then ``st.subheader``)."""
    assert skips([(1, "t"), (3, "s")], 1) == ["h1 -> h3 's'"]
    assert skips([(1, "t"), (2, "a"), (3, "b"), (2, "c")], 1) == []
    assert skips([(3, "side")], 2) == ["h1 -> h3 'side'"]
