"""Curation in a real browser: accept one disputed span's proposal with a click and drop the
next with its keyboard shortcut, download the decisions, and find them in a fresh session (the
store), where uploading the file gives the same curated set (same progress, same file)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
TALL = {"width": 1500, "height": 1900}


def _metric(page: Any, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(has_text=label).first
    return str(box.get_by_test_id("stMetricValue").inner_text()).strip()


def _open(page: Any, app_url: str, st_ui: Any) -> None:
    st_ui.open_page(page, app_url, "curation")
    page.get_by_role("heading", name="⚖️ Curation").wait_for(timeout=60_000)
    page.locator("#cur-card").wait_for(timeout=60_000)
    st_ui.wait_idle(page)


def _download_decisions(page: Any, path: Path, st_ui: Any) -> str:
    """Click "Decisions (CSV)" and save what downloads (the file is built when clicked)."""
    st_ui.download(page, page.get_by_role("button", name="Decisions (CSV)")).save_as(str(path))
    return path.read_text(encoding="utf-8")


def test_accept_drop_download_and_resume_in_a_fresh_session(
        browser: Any, app_url: str, st_ui: Any, tmp_path: Path, fresh_curation: None) -> None:
    with st_ui.session(browser, TALL, accept_downloads=True) as page:
        curated, saved, total = _decide_two_and_download(page, app_url, st_ui, tmp_path)
    # a fresh session: the decisions come from the store
    with st_ui.session(browser, TALL, accept_downloads=True) as page2:
        _open(page2, app_url, st_ui)
        assert _metric(page2, "Decided") == f"2 / {total}"  # from the store, without a file
        page2.get_by_text("Resume: upload a decisions file").click()
        page2.locator('input[type="file"]').set_input_files(str(tmp_path / "decisions.csv"))
        page2.get_by_text("Restored 2 decision(s)").wait_for(timeout=30_000)
        st_ui.wait_idle(page2)
        assert _metric(page2, "Decided") == f"2 / {total}"
        assert _metric(page2, "Curated spans") == curated
        again = _download_decisions(page2, tmp_path / "again.csv", st_ui)
        assert again == saved  # the same curated set, decision by decision
        st_ui.shot(page2, "curation_resumed")
        assert st_ui.app_errors(page2) == []


def _decide_two_and_download(page: Any, app_url: str, st_ui: Any,
                             tmp_path: Path) -> tuple[str, str, int]:
    """Accept the first disputed span's proposal with a click, drop the second with ``x``,
    and download the decisions to ``tmp_path/decisions.csv``: the curated spans' tile, the
    file's text and the number of disputed spans."""
    _open(page, app_url, st_ui)
    decided = _metric(page, "Decided")
    total = int(decided.split("/")[1])
    assert decided == f"0 / {total}" and total >= 2
    first_id = page.locator("#cur-card b").first.inner_text()
    st_ui.shot(page, "curation_start")

    proposed = page.locator("#cur-proposal b").first.inner_text()  # "✓ keep" or "✗ drop"
    st_ui.click(page, page.get_by_role("button", name=re.compile(r"Accept the proposal")),
                page.get_by_text(f"1 of {total} disputed spans decided"))
    st_ui.wait_idle(page)
    second_id = page.locator("#cur-card b").first.inner_text()
    assert second_id != first_id  # accept moved on to the next disputed span
    page.get_by_role("heading", name="Disputed spans").click()  # focus off any text field
    page.keyboard.press("x")  # the Drop button's shortcut
    page.get_by_text(f"2 of {total} disputed spans decided").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    curated = _metric(page, "Curated spans")
    st_ui.shot(page, "curation_two_decided")
    saved = _download_decisions(page, tmp_path / "decisions.csv", st_ui)
    rows = [row for row in csv.DictReader(io.StringIO(saved)) if row["source"] == "lead"]
    assert [(r["id"], r["action"]) for r in rows] == [(first_id, "accept"), (second_id, "drop")]
    assert rows[0]["decision"] == rows[0]["proposed_decision"] == proposed.split()[-1]
    assert rows[1]["decision"] == "drop"
    return curated, saved, total


def test_a_selected_table_row_becomes_the_span_shown(page: Any, app_url: str, st_ui: Any,
                                                     fresh_curation: None) -> None:
    # nothing decided: a new session opens at the first undecided disputed span, 1#1
    _open(page, app_url, st_ui)
    assert page.locator("#cur-card b").first.inner_text() == "1#1"
    assert page.locator("#cur-context #cur-ctx-lane-0").count() == 1  # the span's neighbourhood
    assert page.locator(".st-key-cur_table").count() == 0  # the table on demand
    st_ui.click(page, page.get_by_text("Show the whole document, annotator by annotator"),
                page.locator("#cur-document"))
    st_ui.wait_idle(page)
    st_ui.shot(page, "curation_whole_document")
    # the proposals table
    grid = page.locator(".st-key-cur_table [data-testid='stDataFrame']")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    # the row-selection column is at the far left; header and rows are 35 px high
    page.mouse.click(box["x"] + 12, box["y"] + 35 + 35 * 2 + 17)  # the third proposal
    page.wait_for_function(
        "() => document.querySelector('#cur-card b')?.textContent === '1#3'", timeout=30_000)
    st_ui.wait_idle(page)
    # 1#2 is unanimous, so the third proposal is the second disputed span
    page.get_by_text(re.compile(r"Disputed span 2 of \d+")).wait_for(timeout=10_000)
    assert st_ui.app_errors(page) == []


def test_the_edit_buttons_show_their_whole_label_on_a_laptops_screen(
        browser: Any, app_url: str, st_ui: Any) -> None:
    # five equal columns cut "Relabel" and "Set bounds" to "Rela…" and "Set bo…" at 1,000 to
    # 1,300 px; the row now wraps by group, each button as wide as its label and key
    with st_ui.session(browser, {"width": 1000, "height": 1200}) as page:
        _open(page, app_url, st_ui)
        for name in ("Relabel", "Set bounds"):
            button = page.get_by_role("button", name=re.compile(name)).first
            button.scroll_into_view_if_needed()
            cut = button.evaluate("b => [b, ...b.querySelectorAll('*')].some("
                                  "e => e.scrollWidth > e.clientWidth + 1)")
            assert not cut, f"the {name!r} button's label is cut"
        st_ui.shot(page, "curation_edit_row_1000px")


CUT = ("e => [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1)")


@pytest.mark.parametrize("width", [800, 1000])
def test_recompute_and_the_progress_tiles_show_their_whole_label_on_a_half_screen(
        browser: Any, app_url: str, st_ui: Any, width: int) -> None:
    # a fifth of the width cut "↻ Recompute" to "↻ Reco…" at 800 px, and four equal columns
    # cut "0 / 2,345" to "0 / 2,…"
    with st_ui.session(browser, {"width": width, "height": 900}) as page:
        _open(page, app_url, st_ui)
        button = page.get_by_role("button", name=re.compile("Recompute")).first
        button.scroll_into_view_if_needed()
        assert not button.evaluate(CUT), "the Recompute button's label is cut"
        tiles = page.get_by_test_id("stMetric")
        assert tiles.count() >= 4
        for i in range(tiles.count()):
            tile = tiles.nth(i)
            tile.scroll_into_view_if_needed()
            assert not tile.evaluate(CUT), f"the tile {tile.inner_text()!r} is cut"
        st_ui.shot(page, f"curation_tiles_{width}px")


@pytest.mark.parametrize("width", [800, 1000, 1400])
def test_the_match_and_boundaries_pickers_show_their_whole_option_text(
        browser: Any, app_url: str, st_ui: Any, width: int) -> None:
    # "gamma: γ alignment (Mathet et al. 2015): at most one span per annotator ..." was cut to
    # "gamma: γ alignment (Mathet…" at 800 to 1,000 px, its options in the open list too
    with st_ui.session(browser, {"width": width, "height": 900}) as page:
        _open(page, app_url, st_ui)
        for label in ("Match spans by", "Boundaries"):
            box = st_ui.selectbox(page, label)
            box.scroll_into_view_if_needed()
            assert not box.evaluate(CUT), f"{label}: {st_ui.value(page, label)!r} is cut"
        st_ui.shot(page, f"curation_pickers_{width}px")
        st_ui.selectbox(page, "Match spans by").click()
        options = page.get_by_role("option")
        expect(options).to_have_count(4)  # the list drawn whole, not its first option alone
        for i in range(options.count()):
            option = options.nth(i)
            assert not option.evaluate(CUT), f"the option {option.inner_text()!r} is cut"
        st_ui.shot(page, f"curation_match_options_{width}px")
        page.keyboard.press("Escape")
        # the whole rule of each option is in the help
        st_ui.selectbox(page, "Match spans by").get_by_test_id("stTooltipHoverTarget").hover()
        tip = page.get_by_test_id("stTooltipContent")
        tip.wait_for(timeout=10_000)
        assert "Mathet et al. 2015" in tip.inner_text() and "voted on" in tip.inner_text()
        # the tooltip fades in: the picture shows it once it is drawn whole
        page.wait_for_function("""() => { const t = document.querySelector(
            '[data-testid="stTooltipContent"]'); if (!t) return false;
            for (let e = t; e; e = e.parentElement)
              if (getComputedStyle(e).opacity !== '1') return false;
            return true; }""", timeout=10_000)
        st_ui.shot(page, f"curation_match_help_{width}px")


LANES = """() => { const box = document.querySelector('#cur-context .cur-lanes');
  const names = [...box.querySelectorAll(':scope > .cur-lane-name')];
  return {box: box.getBoundingClientRect().width,
          lanes: names.map(n => [n.getBoundingClientRect().left,
                                 n.nextElementSibling.getBoundingClientRect().left,
                                 n.nextElementSibling.getBoundingClientRect().width])}; }"""


@pytest.mark.parametrize("width", [1440, 390])
def test_the_lanes_stack_their_names_on_a_phone_and_keep_them_beside_on_a_desktop(
        browser: Any, app_url: str, st_ui: Any, width: int) -> None:
    # bugleft21: at 390 px the names' column left each lane's text some 140 px of 358
    with st_ui.session(browser, {"width": width, "height": 900}) as page:
        _open(page, app_url, st_ui)
        page.locator("#cur-context").scroll_into_view_if_needed()
        got = page.evaluate(LANES)
        st_ui.shot(page, f"curation_lanes_{width}px")
    assert len(got["lanes"]) >= 4  # three annotators, the proposal (and the curated set)
    for name_left, text_left, text_width in got["lanes"]:
        if width == 390:  # the name above its text, the text as wide as the block
            assert abs(text_left - name_left) <= 1 and text_width >= got["box"] - 1, got
        else:  # the name beside its text
            assert text_left > name_left + 80 and text_width < got["box"] - 80, got
