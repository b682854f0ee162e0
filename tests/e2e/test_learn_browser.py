"""Real browser, Learn page: every scenario opens and shows the seed's numbers; editing a span's
end in the prediction table, or moving it with the slider, changes the scores at once; reset
brings the seed's numbers back. Screenshots: ``test-artifacts/screenshots/learn_*.png``."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import expect

from core.teaching import scenarios
from ui.differences import waterfall_rows

pytestmark = pytest.mark.e2e

RECALL_2021 = "semeval2021 — recall"
TALL = {"width": 1500, "height": 4400}


def _open(page: Any, st_ui: SimpleNamespace, app_url: str, sid: str) -> None:
    st_ui.open_page(page, app_url, f"learn?scenario={sid}")
    _ready(page, st_ui)


def _ready(page: Any, st_ui: SimpleNamespace) -> None:
    page.locator("#learn-gold").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    page.get_by_test_id("stDataFrame").first.wait_for(timeout=30_000)


def _tile(page: Any, label: str) -> str:
    """The value shown by the st.metric tile whose label is ``label``."""
    tile = page.get_by_test_id("stMetric").filter(has_text=label).first
    return str(tile.get_by_test_id("stMetricValue").inner_text()).strip()


def _wait_tile(page: Any, label: str, value: str) -> None:
    page.wait_for_function(
        """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')]
            .some(m => m.innerText.includes(label) && m.querySelector(
                '[data-testid="stMetricValue"]').innerText.trim() === value)""",
        arg=[label, value], timeout=30_000)


def _open_cell_editor(page: Any, st_ui: SimpleNamespace) -> Any:
    """Open the editor of row P1, column "end" of the prediction table and return its input.

    The grid is drawn on a canvas, so a person's click is a click where the cell is drawn: the
    header and the rows are 35 px high and "end" is the third editable column, around the middle
    of the table. The grid may still be laying out after a rerun: each try waits for the run to
    end and the page to draw it (``st_ui.wait_idle``), then tries again a few times.
    """
    editor = page.get_by_test_id("stDataFrame").first
    cell = page.locator("#portal input, #portal textarea").first
    for _ in range(5):
        st_ui.wait_idle(page)
        box = editor.bounding_box()
        page.mouse.dblclick(box["x"] + box["width"] * 0.5, box["y"] + 35 + 17)
        try:
            cell.wait_for(timeout=3_000)
            return cell
        except Exception:  # the overlay did not open yet: click again
            page.keyboard.press("Escape")
    raise AssertionError("the cell editor of P1's end did not open")


def test_every_scenario_opens_from_the_picker_with_the_seeds_numbers(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    from ui.learn import OPENING_SCENARIO

    first = OPENING_SCENARIO  # Learn opens where the metrics disagree
    page.set_viewport_size(TALL)  # each screenshot shows the whole page
    st_ui.open_page(page, app_url, "learn")
    _ready(page, st_ui)
    assert st_ui.value(page, "Scenario") == scenarios.get(first).title  # titles, not ids
    # The opening scenario first, then every other one from the picker.
    order = [first, *(sid for sid in scenarios.SCENARIOS if sid != first)]
    for sid in order:
        sc = scenarios.get(sid)
        if sid != first:
            st_ui.choose(page, "Scenario", sc.title)
            _ready(page, st_ui)
            assert f"scenario={sid}" in page.url
        assert st_ui.value(page, "Scenario") == sc.title  # whole, across the page
        assert page.get_by_test_id("stException").count() == 0, sid
        ev = scenarios.evaluate(sc)
        # The seed table has one ✅ per stated number (its cells are drawn on a canvas; the grid
        # keeps an accessible copy of each cell).
        seed = page.get_by_test_id("stDataFrame").filter(has_text="computed now")
        expect(seed.get_by_text("✅", exact=True)).to_have_count(len(sc.expected))
        expect(seed.get_by_text("❌", exact=True)).to_have_count(0)
        run = ev.run("semeval2021")
        if run is not None and run.result is not None:
            label = RECALL_2021 if sc.level == 2 else f"semeval2021, level {sc.level} — recall"
            assert _tile(page, label).split()[0] == (
                f"{run.result.recall:.4f}".rstrip("0").rstrip("."))
        st_ui.shot(page, f"learn_{sid}")
    assert st_ui.app_errors(page) == []


def test_edit_a_span_end_in_the_table_and_see_the_scores_change(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, st_ui, app_url, "figure1-s1")
    assert _tile(page, RECALL_2021) == "0.375 (3/8)"
    cell = _open_cell_editor(page, st_ui)
    assert cell.input_value() == "51"  # s1 = [42, 51): we are editing its end
    cell.fill("57")
    page.keyboard.press("Enter")
    # s1 = [42, 57) now covers 15 of t1's 24 characters: R = 15/24 under every variant.
    _wait_tile(page, RECALL_2021, "0.625 (5/8)")
    st_ui.wait_idle(page)
    assert _tile(page, "MAFALDA paper, level 2 — recall") == "0.625 (5/8)"
    page.get_by_text("You have edited the predictions").wait_for(timeout=10_000)
    seed = page.get_by_test_id("stDataFrame").filter(has_text="computed now")
    expect(seed.get_by_text("❌", exact=True)).to_have_count(1)  # R; P is still 1
    assert "and petty stunt" in page.locator("#learn-pred .ss-seg").first.inner_text()
    page.set_viewport_size(TALL)
    st_ui.shot(page, "learn_edited_end")
    page.set_viewport_size({"width": 1500, "height": 1900})
    page.get_by_role("button", name="Reset the predictions").click()
    _wait_tile(page, RECALL_2021, "0.375 (3/8)")
    assert st_ui.app_errors(page) == []


def test_move_a_span_with_the_slider(app_url: str, page: Any, st_ui: SimpleNamespace) -> None:
    _open(page, st_ui, app_url, "figure1-s1")
    thumbs = page.get_by_test_id("stSlider").locator("input[type=range]")
    expect(thumbs).to_have_count(2, timeout=30_000)
    assert thumbs.nth(1).get_attribute("aria-label") == "P1: start and end — end"
    thumbs.nth(1).focus()
    page.keyboard.press("End")  # s1's end to the end of the text: [42, 108)
    _wait_tile(page, RECALL_2021, "0.625 (5/8)")
    st_ui.wait_idle(page)
    # Precision falls: 15 of s1's 66 characters are gold.
    page.get_by_text("P 0.2273 (5/22) · F1").first.wait_for(timeout=10_000)
    table = page.get_by_test_id("stDataFrame").first
    expect(table.get_by_text("108", exact=True)).to_have_count(1)  # the table follows
    st_ui.shot(page, "learn_slider_moved")
    assert st_ui.app_errors(page) == []


def test_keyboard_steps_keep_the_focus_on_the_box_and_the_thumb(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """Tour 17: every step of the end box or the slider's thumb by the keyboard dropped the focus
    to the page, so the next step needed some thirty Tab presses; now the same control keeps it."""
    _open(page, st_ui, app_url, "figure1-s1")
    end_box = page.get_by_label("end", exact=True)
    end_box.focus()
    for end, recall in ((52, "0.4167 (5/12)"), (53, "0.4583 (11/24)")):
        page.keyboard.press("ArrowUp")
        page.keyboard.press("Enter")
        _wait_tile(page, RECALL_2021, recall)
        st_ui.wait_idle(page)
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "end"
        assert end_box.input_value() == str(end)
    thumb = page.get_by_test_id("stSlider").locator("input[type=range]").nth(1)
    thumb.focus()
    page.keyboard.press("ArrowRight")  # [42, 54): 12 of t1's 24 characters
    _wait_tile(page, RECALL_2021, "0.5 (1/2)")
    st_ui.wait_idle(page)
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "P1: start and end — end")
    page.keyboard.press("ArrowRight")
    _wait_tile(page, RECALL_2021, "0.5417 (13/24)")
    assert st_ui.app_errors(page) == []


def test_deep_link_opens_example9_with_both_recalls(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, st_ui, app_url, "mafalda-example9")
    assert st_ui.value(page, "Scenario") == scenarios.get("mafalda-example9").title
    assert _tile(page, "semeval2021, level 1 — recall") == "1.25 (5/4)"  # its setting named
    assert _tile(page, "MAFALDA paper, level 1 — recall") == "1"
    assert "refused" in _tile(page, "semeval2020-si")
    # The ladder: the Metric differences page's Vega-Lite waterfall, one bar per scored step,
    # Martino's recall of 1.25 against the dashed line at 1.
    sc = scenarios.get("mafalda-example9")
    steps = waterfall_rows(scenarios.ladder(sc, list(sc.pred)), "recall")
    ladder = page.locator(".st-key-learn_waterfall [data-testid='stVegaLiteChart']")
    ladder.scroll_into_view_if_needed()
    expect(ladder.locator("g.mark-rect.role-mark path")).to_have_count(len(steps), timeout=30_000)
    expect(ladder.locator("g.mark-rule.role-mark line")).to_have_count(1)
    page.get_by_text("Da San Martino et al. (2019) span metric", exact=True).click()
    page.get_by_role("heading", name="What it measures").first.wait_for(timeout=10_000)
    page.set_viewport_size(TALL)
    st_ui.shot(page, "learn_mafalda-example9_full")
    assert st_ui.app_errors(page) == []


CUT = ("e => [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1)")
"""True when ``e`` or one of its parts is narrower than its text (an ellipsis or a hidden
overflow): the label a reader sees is cut."""


def test_the_class_buttons_and_the_scenario_show_their_whole_label_at_800_px(
        browser: Any, app_url: str, st_ui: SimpleNamespace) -> None:
    # three columns cut the class buttons to "👩‍🏫 Sta…" and "🙋 J…", and a third of the width
    # cut the scenario's title to "MAFALDA Examp", on a laptop's half screen
    with st_ui.session(browser, {"width": 800, "height": 900}) as page:
        _open(page, st_ui, app_url, "mafalda-example9")
        for name in ("Start a class", "Join a class"):
            button = page.get_by_role("button", name=re.compile(name)).first
            button.scroll_into_view_if_needed()
            assert not button.evaluate(CUT), f"the {name!r} button's label is cut"
        picker = st_ui.selectbox(page, "Scenario").locator("input")
        assert picker.input_value() == scenarios.get("mafalda-example9").title
        assert not picker.evaluate(CUT), "the scenario's title is cut in its picker"
        st_ui.shot(page, "learn_800px")


def test_the_radios_are_named_for_a_screen_reader(
        app_url: str, page: Any, st_ui: SimpleNamespace) -> None:
    """Tour 4 item 11b: each radio's accessible name is its option (the <label> around it), each
    group's the widget's label, also when that label is hidden (Mode); the input's value
    ("0") and a missing aria-label attribute are what the tour's script read, not the names."""
    _open(page, st_ui, app_url, "mafalda-example9")
    mode = page.get_by_role("radiogroup", name="Mode")
    expect(mode.get_by_role("radio", name="📖 Worked examples")).to_be_checked()
    expect(mode.get_by_role("radio", name="📝 Exercise")).to_have_count(1)
    score = page.get_by_role("radiogroup", name="Score")
    for option in ("R", "P", "F1"):
        expect(score.get_by_role("radio", name=option, exact=True)).to_have_count(1)


def test_example9_ladder_draws_each_tiles_number_as_its_grey_bar(
    app_url: str, vpage: Any, st_ui: SimpleNamespace
) -> None:
    """bugleft27: at level 1 the tiles said nlp4if2019 (-m) 1 and semeval2021 1.25 while the
    ladder's grey bars of those metrics said 0.25 and 0.25 (labels as written): no bar drew
    1.25. The ladder now projects the labels first, after one bar on the labels as written, so
    each tile's number is the value written beside its grey bar, at 1,440 px and on a phone."""
    _open(vpage, st_ui, app_url, "mafalda-example9")
    assert _tile(vpage, "semeval2021, level 1 — recall") == "1.25 (5/4)"
    assert _tile(vpage, "nlp4if2019 (-m), level 1 — recall") == "1"
    ladder = vpage.locator(".st-key-learn_waterfall [data-testid='stVegaLiteChart']")
    ladder.scroll_into_view_if_needed()
    texts = ladder.locator("g.mark-text.role-mark text")
    expect(texts.first).to_be_visible(timeout=30_000)
    values = [t.text_content() or "" for t in texts.all()]
    assert values[:5] == ["0.250", "+0.750", "1.000", "+0.250", "1.250"], values
    assert values[-1] == "1.000"  # MAFALDA, level 1: the MAFALDA tile
    box = ladder.bounding_box()
    assert box and box["x"] + box["width"] <= vpage.viewport_size["width"]
    st_ui.shot(vpage, f"learn_example9_ladder_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
