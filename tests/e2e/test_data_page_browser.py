"""Real browser, at a desktop (1440×900) and a phone (390×844) width: the Data page's uploads
(issue 16 items 4 and 8). The sidebar names the uploaded files; a format chosen after a failed
detection reparses the file; a role changed after visiting another page is kept, with no new
upload; two files of one name are both listed and an INCEpTION export's sets are read as read.
Screenshots go to ``test-artifacts/screenshots/data_*``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

DATA = Path(__file__).resolve().parents[1] / "app" / "data"


def _choose(page: Any, label: str, option: str, st_ui: SimpleNamespace) -> None:
    """Pick ``option`` in the selectbox ``label`` by typing it (a phone's list shows only a few
    options at a time)."""
    st_ui.selectbox(page, label).click()
    page.keyboard.type(option)
    page.get_by_role("option").get_by_text(option, exact=True).first.click()
    st_ui.wait_idle(page)


def _upload(page: Any, app_url: str, st_ui: SimpleNamespace, *paths: Path) -> None:
    st_ui.open_page(page, app_url, "data")
    page.locator("input[type=file]").first.set_input_files([str(p) for p in paths])
    st_ui.wait_idle(page)


def test_the_sidebar_names_the_uploaded_files(app_url: str, vpage: Any,
                                              st_ui: SimpleNamespace) -> None:
    _upload(vpage, app_url, st_ui, DATA / "gold.json", DATA / "system_a.json")
    sidebar = st_ui.sidebar(vpage)
    caption = sidebar.get_by_text("Showing uploaded files", exact=False).first
    caption.wait_for(timeout=30_000)
    text = caption.inner_text()
    assert "gold.json, system_a.json (2 set(s))" in text, text
    # The sample picker goes once the run that saw the upload has ended (the address's upload
    # mark, ?data=upload-…, may start one more run; its stale elements stay until it ends).
    expect(sidebar.get_by_text("Sample corpus")).to_have_count(0, timeout=30_000)
    st_ui.shot(vpage, f"data_sidebar_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_a_format_choice_after_a_failed_detection_reparses(app_url: str, vpage: Any,
                                                           st_ui: SimpleNamespace,
                                                           tmp_path: Path) -> None:
    pred = tmp_path / "pred"  # a brat line without its .ann name: detection cannot tell
    pred.write_bytes(b"T1\tDoubt 0 5\tx\n")
    _upload(vpage, app_url, st_ui, pred)
    alerts = vpage.get_by_test_id("stAlertContentError")
    alerts.first.wait_for(timeout=30_000)
    assert alerts.count() == 1
    assert "choose it in the Format box" in alerts.first.inner_text()
    _choose(vpage, "Format", "spans-csv", st_ui)
    alerts.filter(has_text="the header lacks").first.wait_for(timeout=30_000)
    assert alerts.count() == 1 and "could not detect" not in alerts.first.inner_text()
    _choose(vpage, "Format", "ptc", st_ui)
    alerts.filter(has_text="numeric article id").first.wait_for(timeout=30_000)
    assert alerts.count() == 1
    # A failed upload leaves the pages on the sample.
    assert st_ui.sidebar(vpage).get_by_text("Sample corpus").count() == 1
    st_ui.shot(vpage, f"data_format_reparse_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_a_role_changed_after_another_page_is_kept_without_uploading_again(
    app_url: str, vpage: Any, st_ui: SimpleNamespace
) -> None:
    _upload(vpage, app_url, st_ui, DATA / "gold.json", DATA / "system_a.json")
    st_ui.go(vpage, "Scores")
    st_ui.go(vpage, "Data")
    role = "Role"
    boxes = vpage.get_by_test_id("stSelectbox").filter(has_text=role)
    boxes.first.wait_for(timeout=30_000, state="attached")
    assert boxes.count() == 2  # both files are still listed, from the kept bytes
    boxes.nth(1).scroll_into_view_if_needed()
    boxes.nth(1).click()
    vpage.get_by_role("option").get_by_text("annotator", exact=True).first.click()
    st_ui.wait_idle(vpage)
    st_ui.go(vpage, "Annotators")
    st_ui.go(vpage, "Data")
    boxes = vpage.get_by_test_id("stSelectbox").filter(has_text=role)
    boxes.first.wait_for(timeout=30_000, state="attached")
    assert boxes.nth(1).locator("input").input_value() == "annotator"
    sets = vpage.locator(".st-key-sets_table table").first
    sets.scroll_into_view_if_needed()
    vpage.get_by_text("Files stay here when you visit other pages").first.wait_for()
    st_ui.shot(vpage, f"data_kept_files_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


AS_READ = Path(__file__).resolve().parents[1] / "data" / "dashboard" / "as_read"


def test_two_files_of_one_name_and_an_export_read_as_read(
    app_url: str, vpage: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    import shutil

    export = shutil.make_archive(str(tmp_path / "project"), "zip", AS_READ / "inception_export")
    _upload(vpage, app_url, st_ui, AS_READ / "same_name" / "a" / "annotations.jsonl",
            AS_READ / "same_name" / "b" / "annotations.jsonl", Path(export))
    main = vpage.get_by_test_id("stMain")
    note = main.get_by_text("2 files are named", exact=False).first
    note.wait_for(timeout=30_000)
    assert "annotations.jsonl (2)" in note.inner_text()
    roles = vpage.get_by_test_id("stSelectbox").filter(has_text="Role")
    expect(roles).to_have_count(3, timeout=30_000)  # one row per file, drawn one after another
    assert roles.nth(2).locator("input").input_value() == "as read"
    note.scroll_into_view_if_needed()
    st_ui.shot(vpage, f"data_same_name_rows_{vpage.viewport_name}")
    table = vpage.locator(".st-key-files_table table").first
    table.scroll_into_view_if_needed()
    st_ui.wait_idle(vpage)
    st_ui.shot(vpage, f"data_same_name_as_read_{vpage.viewport_name}")
    text = main.inner_text()
    assert "❌" not in text
    assert st_ui.app_errors(vpage) == []


def test_the_doccano_hint_of_a_mafalda_file_says_detected_or_chosen(
    app_url: str, vpage: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    """A MAFALDA file with one label of its own: detected, the error says so (most labels are
    MAFALDA's); with mafalda chosen in the Format box, that the format was chosen (bugleft24's
    hint said "mostly MAFALDA's" either way). Both name the Format box, not ``--format``."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"text": "Vote or die. They lie. You are stupid.", "labels": [[0, 11, '
                    '"appeal to fear"], [12, 21, "ad hominem"], [22, 38, "insult"]]}\n',
                    encoding="utf-8")
    _upload(vpage, app_url, st_ui, gold)
    alerts = vpage.get_by_test_id("stAlertContentError")
    alerts.filter(has_text="the format detected").first.wait_for(timeout=30_000)
    said = alerts.first.inner_text()
    assert "most of its labels are MAFALDA's" in said, said
    assert "choose doccano in the Format box to read the file so" in said, said
    _choose(vpage, "Format", "mafalda", st_ui)
    alerts.filter(has_text="the format asked for").first.wait_for(timeout=30_000)
    assert alerts.count() == 1
    said = alerts.first.inner_text()
    assert "which takes only the taxonomy's labels" in said, said
    assert "choose doccano in the Format box instead" in said, said
    assert "most of its labels" not in said and "detected" not in said, said
    alerts.first.scroll_into_view_if_needed()
    st_ui.shot(vpage, f"data_doccano_hint_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
