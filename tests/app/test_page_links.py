"""A page link in the page wraps a long label instead of cutting it (bugleft21: on a phone the
note under a table with a score above 1 read "See why on Learn: duplicate predictions push
recall abo"); the browser test is in ``tests/e2e/test_phone_layout_browser.py``."""

from __future__ import annotations

from ui import above_one, sidebar


def test_the_shared_style_wraps_the_labels_of_the_pages_links_not_the_sidebars() -> None:
    assert sidebar.LINK_CSS in sidebar.SCRIPT
    assert sidebar.LINK_CSS.startswith(
        "<style>[data-testid='stMain'] [data-testid='stPageLink-NavLink'] ")
    assert "white-space:normal" in sidebar.LINK_CSS and "stSidebar" not in sidebar.LINK_CSS


def test_the_scores_page_draws_the_above_one_link_under_the_shared_style(make_app) -> None:
    at = make_app("pages/scores.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    assert [h for h in at.html if h.proto.body == sidebar.SCRIPT]
    links = [e for e in at.get("page_link") if "above 1" in e.proto.label]
    assert links and all(e.proto.label.startswith("See why on Learn") for e in links)
    assert all((e.proto.page, e.proto.query_string) == (
        "learn", f"scenario={above_one.LEARN_SCENARIO}") for e in links)
