"""Real browser, at a desktop (1440×900) and a phone (390×844) width: a researcher's SemEval-2020
Task 11 files (tour 18). The gold articles with their TC labels and a system's TSV uploaded
together; on Documents a span the system labelled otherwise says, in words, that it adds
nothing and why, and the Annotators page says that, without annotators, it compares the gold
with the system. Three annotators' ``.labels`` files with the gold: they are guessed annotators
(bugleft22; tour 18 found them systems, the gold compared with them), and the Annotators page
compares them alone, named as ``python -m core agree`` names them (``ana``, not
``ana.labels``). Screenshots go to ``test-artifacts/screenshots/semeval2020_*``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

TC = Path(__file__).resolve().parents[1] / "data" / "formats" / "ptc" / "semeval2020-tc-folder"


def _upload(page: Any, app_url: str, st_ui: SimpleNamespace, paths: list[Path]) -> None:
    st_ui.open_page(page, app_url, "data")
    page.locator("input[type=file]").first.set_input_files([str(p) for p in paths])
    st_ui.wait_idle(page)
    # the uploads are the data on view (the sample's own files say "✅ loaded" too: under load
    # that text alone was seen before the upload's run, and Documents then showed the sample)
    page.get_by_text("the uploaded files").first.wait_for(timeout=60_000)
    page.get_by_text("✅ loaded").first.wait_for(timeout=60_000)


def _rows(doc: str, rows: list[tuple[str, int, int]]) -> str:
    return "".join(f"{doc}\t{t}\t{s}\t{e}\n" for t, s, e in rows)


def test_a_span_labelled_otherwise_says_it_adds_nothing_and_why(
    app_url: str, vpage: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    gold = (TC / "article201.task2-TC.labels").read_text(encoding="utf-8").splitlines()
    doc, technique, start, end = gold[2].split("\t")  # 201 Doubt [150, 181)
    assert (doc, technique) == ("201", "Doubt")
    pred = tmp_path / "pred-TC.txt"
    pred.write_text("".join(line + "\n" for line in gold[:2]) + _rows("201", [
        ("Loaded_Language", int(start), int(end))]) + _rows("202", [("Doubt", 107, 151)])
        + _rows("203", [("Slogans", 0, 8)]), encoding="utf-8")
    _upload(vpage, app_url, st_ui, [*sorted(TC.iterdir()), pred])
    st_ui.go(vpage, "Documents")
    vpage.locator("#left-doc").wait_for(timeout=60_000)
    # the first document of the uploads (the picker's value, once the page's run has drawn it)
    st_ui.selectbox(vpage, "Document (").locator("input[value='201']").wait_for(
        state="attached", timeout=60_000)
    assert st_ui.value(vpage, "Document (") == "201"
    # typed: a phone's list shows only a few options at a time
    st_ui.selectbox(vpage, "Select a span").click()
    vpage.keyboard.type(f"[{start}, {end}) Doubt")
    vpage.get_by_role("option").filter(has_text=f"[{start}, {end}) Doubt").first.click()
    st_ui.wait_idle(vpage)
    st_ui.click(vpage, vpage.get_by_role("tab", name="🧮 Contributions"),
                vpage.get_by_text("Every pair of document 201"))
    said = vpage.get_by_text("Da San Martino takes from it:").first
    said.wait_for(timeout=30_000)
    said.scroll_into_view_if_needed()
    text = said.inner_text()
    assert "nothing (0 toward recall):" in text
    assert f"overlaps {int(end) - int(start)} of its {int(end) - int(start)} characters" in text
    assert "another label (Loaded_Language)" in text
    box = said.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= \
        vpage.viewport_size["width"]
    st_ui.shot(vpage, f"semeval2020_span_note_{vpage.viewport_name}")
    # No annotators: the Annotators page compares the gold with the system, and says so.
    st_ui.go(vpage, "Annotators")
    note = vpage.get_by_text("Fewer than two sets have the annotator role").first
    note.wait_for(timeout=60_000)
    said = note.inner_text()
    assert "the gold articles with the system pred-TC" in said, said
    assert "not agreement between annotators" in said
    box = note.bounding_box()
    assert box is not None and box["x"] + box["width"] <= vpage.viewport_size["width"]
    note.scroll_into_view_if_needed()
    st_ui.shot(vpage, f"semeval2020_annotators_no_annotators_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_three_annotators_labels_files_are_named_as_the_cli_names_them(
    app_url: str, vpage: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    rows = (TC / "article201.task2-TC.labels").read_text(encoding="utf-8")
    files = []
    for name, keep in (("ana", 3), ("ben", 2), ("chloe", 1)):
        path = tmp_path / f"{name}.labels"
        path.write_text("".join(rows.splitlines(keepends=True)[:keep]), encoding="utf-8")
        files.append(path)
    _upload(vpage, app_url, st_ui, [*sorted(TC.iterdir()), *files])
    st_ui.go(vpage, "Annotators")
    vpage.locator(".st-key-ann_matrix table").first.wait_for(timeout=60_000)
    st_ui.wait_idle(vpage)
    chips = vpage.get_by_test_id("stMultiSelect").first.inner_text()
    assert {"ana", "ben", "chloe"} <= set(chips.split()) and ".labels" not in chips
    assert "articles" not in chips.split()  # the gold is the gold, not a fourth annotator
    assert vpage.get_by_text("Fewer than two sets have the annotator role").count() == 0
    assert vpage.get_by_text("the gold, is also one of the sets compared").count() == 0
    vpage.locator(".st-key-ann_matrix table").first.scroll_into_view_if_needed()
    st_ui.shot(vpage, f"semeval2020_annotators_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_scores_names_the_worst_technique_above_the_per_label_table(
    app_url: str, vpage: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    gold = (TC / "article201.task2-TC.labels").read_text(encoding="utf-8").splitlines()
    pred = tmp_path / "pred-TC.txt"  # Doubt [150, 181) labelled Loaded_Language: Doubt's F1 0
    pred.write_text("".join(line + "\n" for line in gold[:2]) + _rows("201", [
        ("Loaded_Language", 150, 181)]) + _rows("202", [("Doubt", 107, 151)])
        + _rows("203", [("Slogans", 0, 8)]), encoding="utf-8")
    _upload(vpage, app_url, st_ui, [*sorted(TC.iterdir()), pred])
    st_ui.go(vpage, "Scores")
    said = vpage.get_by_text("Lowest F1:").first
    said.wait_for(timeout=60_000)
    said.scroll_into_view_if_needed()
    text = said.inner_text()
    assert text.startswith("Lowest F1: Black-and-White_Fallacy 0.000 (1 gold span, 0 "
                           "predicted)"), text
    box = said.bounding_box()
    assert box is not None and box["x"] + box["width"] <= vpage.viewport_size["width"]
    st_ui.shot(vpage, f"semeval2020_weakest_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
