"""What a warm revisit sends, per page (issue 29, twenty-first pass, docs/performance.md).

A structure, never a clock: a warm revisit's time in the browser follows the elements a page
draws and how often React renders them as the run's messages arrive. These tests hold what
that pass measured: the sidebar's page links are the same elements on every page (the browser
then keeps their DOM nodes: it re-renders them, it does not mount them again), no download
button ships its file with the run (its data is built when clicked), and the five pages whose
revisits came closest to 300 ms draw no more elements than they did when measured.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block

PAGES = ("home", "data", "scores", "documents", "errors", "differences", "labels",
         "annotators", "curation", "learn")

# Elements and blocks in the page's main area on the bundled sample (AppTest's tree: every tab's
# and popover's content counted, though the browser mounts only the open one's), when measured.
MEASURED = {"scores": 63, "home": 41, "documents": 40, "labels": 26, "curation": 68}
"""Elements and blocks per page when its warm revisit was measured (the twenty-first pass);
Documents 37 then, 40 since the pair line, its "Next pair" button and their row came for three
or more sets (the sample has three)."""


def _kinds(node: Any, into: Counter[str]) -> Counter[str]:
    """Every element and block under ``node`` by its kind, nested ones included."""
    for child in getattr(node, "children", {}).values():
        into[child.type] += 1
        if isinstance(child, Block):
            _kinds(child, into)
    return into


def _sample_app() -> AppTest:
    from tests.app.conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _page(at: AppTest, name: str) -> AppTest:
    at.switch_page(f"pages/{name}.py").run()
    assert not at.exception, (name, [e.value for e in at.exception])
    return at


def test_the_sidebar_sends_the_same_page_links_on_every_page() -> None:
    at = _sample_app()
    seen: dict[str, list[bytes]] = {}
    for name in PAGES:
        _page(at, name)
        seen[name] = [link.proto.SerializeToString() for link in at.sidebar.get("page_link")]
    titles = [link.proto.label for link in at.sidebar.get("page_link")]
    assert titles == ["Overview", "Data", "Scores", "Documents", "Errors",
                      "Metric differences", "Labels", "Annotators", "Curation", "Learn"]
    # Byte for byte the same message on every page: nothing of the page on view (which link
    # is the current one, the page's own parameters) enters them, so a revisit re-renders the
    # ten links in place rather than drawing new ones.
    assert all(links == seen["home"] for links in seen.values()), {
        name: len(links) for name, links in seen.items()}


def test_no_download_button_ships_its_file_with_the_run() -> None:
    at = _sample_app()
    counted = 0
    for name in ("scores", "documents", "errors", "curation", "data"):
        _page(at, name)
        for button in at.get("download_button"):
            counted += 1
            # A deferred download: an id the browser asks for when clicked, no file URL (the
            # file would otherwise be built and stored on every run of the page).
            assert button.proto.HasField("deferred_file_id"), (name, button.proto.label)
            assert button.proto.url == "", (name, button.proto.label)
    assert counted >= 12  # Scores 6, Documents 2, Errors 2, Curation 2, Data's


def test_the_pages_near_the_line_draw_no_more_elements_than_measured() -> None:
    at = _sample_app()
    for name, measured in MEASURED.items():
        _page(at, name)
        kinds = _kinds(at.main, Counter())
        assert sum(kinds.values()) <= measured, (
            f"{name} draws {sum(kinds.values())} elements and blocks, {measured} when its warm "
            f"revisit was measured (docs/performance.md, issue 29, twenty-first pass): "
            f"{dict(kinds.most_common())}")
        # The sidebar: its ten page links, the divider, the heading, the sample's selector and
        # its style element.
        side = _kinds(at.sidebar, Counter())
        assert side == Counter({"page_link": 10, "divider": 1, "markdown": 1, "selectbox": 1,
                                "html": 1}), (name, side)
