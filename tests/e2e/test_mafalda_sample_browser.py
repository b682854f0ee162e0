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
