"""Real browser on the MAFALDA-style sample (``?sample=mafalda``): the Documents page draws the
gold's alternatives and ⊥, the Scores page scores the three systems; no console errors.
Screenshots go to ``test-artifacts/screenshots/mafalda_*.png``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def test_documents_page_draws_gold_alternatives_and_bottom(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents?sample=mafalda&doc=0&metric=mafalda")
    page.locator("#left-doc .ss-seg").first.wait_for(timeout=30_000)
    assert st_ui.value(page, "Sample corpus") == "mafalda"
    assert st_ui.value(page, "Document (") == "0"
    left = page.locator("#left-doc")
    assert left.locator(".ss-tag[title='appeal to anger | appeal to fear']").count() == 1
    assert left.locator(".ss-tag[title='ad hominem | ⊥']").count() == 1
    page.get_by_text("alternatives, not conflicts").first.wait_for(timeout=30_000)
    assert page.get_by_test_id("stException").count() == 0
    st_ui.shot(page, "mafalda_documents_example5")
    assert st_ui.app_errors(page) == []


def test_documents_page_on_example9_at_level_1(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents?sample=mafalda&doc=1&metric=mafalda&level=1")
    page.locator("#right-doc .ss-seg").first.wait_for(timeout=30_000)
    assert page.locator("#right-doc .ss-tag[title='tu quoque']").count() == 1
    assert page.get_by_test_id("stException").count() == 0
    st_ui.shot(page, "mafalda_documents_example9_level1")
    assert st_ui.app_errors(page) == []


def test_scores_page_scores_every_system_of_the_sample(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "scores?sample=mafalda")
    page.get_by_test_id("stDataFrame").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert page.get_by_test_id("stException").count() == 0
    st_ui.shot(page, "mafalda_scores")
    assert st_ui.app_errors(page) == []


def test_under_martino_the_alternatives_caption_says_martino_needs_every_label(
    app_url: str, vpage: Any, st_ui: SimpleNamespace
) -> None:
    """tour19: under the Da San Martino metric the caption below the two texts says how that
    metric reads a gold with alternatives (every label a span, ⊥ dropped), not only MAFALDA's
    reading; read in full at 1,440 px and on a phone."""
    st_ui.open_page(vpage, app_url, "documents?sample=mafalda&doc=0&metric=martino")
    vpage.locator("#left-doc .ss-seg").first.wait_for(timeout=30_000)
    caption = vpage.locator("p.ss-cap:visible").filter(
        has_text="The Da San Martino metric shown here").first
    caption.scroll_into_view_if_needed()
    assert caption.is_visible()
    box = caption.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= vpage.viewport_size[
        "width"]
    assert "it needs every label" in caption.inner_text()
    assert vpage.get_by_text("These are alternatives, not conflicts.").count() == 0
    st_ui.shot(vpage, f"mafalda_documents_martino_caption_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


@pytest.mark.parametrize("metric", ["martino", "mafalda"])
def test_each_tag_shows_its_id_and_labels_under_either_metric(
    app_url: str, vpage: Any, st_ui: SimpleNamespace, metric: str
) -> None:
    """bugleft27: a span's tag reads its id and its labels (``G4 ad hominem | ⊥``) under the
    Da San Martino view as under MAFALDA's, without hovering, and stays on one line on a phone
    (a tag cut between ``P3`` and its label read as two tags)."""
    st_ui.open_page(vpage, app_url, f"documents?sample=mafalda&doc=0&metric={metric}")
    vpage.locator("#left-doc .ss-seg").first.wait_for(timeout=30_000)
    shown = {}
    for side in ("left", "right"):
        for tag in vpage.locator(f"#{side}-doc .ss-tag").all():
            shown[tag.get_attribute("data-span")] = tag.inner_text()
    assert shown["G1"] == "G1 ad hominem"
    assert shown["G2"] == "G2 appeal to anger | appeal to fear"
    assert shown["G4"] == "G4 ad hominem | ⊥"
    assert shown["P3"] == "P3 appeal to tradition"
    for span in ("G2", "P3"):
        tag = vpage.locator(f".ss-tag[data-span='{span}']")
        tag.scroll_into_view_if_needed()
        boxes = tag.evaluate("e => e.getClientRects().length")
        assert boxes == 1, span  # one line, not cut in two
    st_ui.shot(vpage, f"mafalda_documents_tags_{metric}_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


@pytest.mark.parametrize(("metric", "rule"), [("martino", "sums the pieces"),
                                               ("mafalda", "takes only the best piece")])
def test_a_split_prediction_is_marked_and_said_under_either_metric(
    app_url: str, vpage: Any, st_ui: SimpleNamespace, metric: str, rule: str
) -> None:
    """bugleft27: text 3 of the sample has one gold span covered by two predictions of its
    label: ÷2 after G1's tag, ÷ after P1's and P2's, visible (a text mark, not a colour), and
    a caption saying how the metric on view reads the pieces."""
    st_ui.open_page(vpage, app_url, f"documents?sample=mafalda&doc=3&metric={metric}")
    vpage.locator("#left-doc .ss-seg").first.wait_for(timeout=30_000)
    gold = vpage.locator("#left-doc .ss-split[data-span='G1']")
    assert gold.inner_text() == "÷2" and gold.is_visible()
    for piece in ("P1", "P2"):
        assert vpage.locator(f"#right-doc .ss-split[data-span='{piece}']").inner_text() == "÷"
    caption = vpage.locator("p.ss-cap:visible").filter(has_text="Split predictions").first
    caption.scroll_into_view_if_needed()
    assert rule in caption.inner_text() and "G1 by P1, P2" in caption.inner_text()
    box = caption.bounding_box()
    assert box and box["x"] + box["width"] <= vpage.viewport_size["width"]
    gold.scroll_into_view_if_needed()
    st_ui.shot(vpage, f"mafalda_documents_split_{metric}_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
