"""Data page, issue 16 items 1, 2, 4 and 8: what a newcomer tripped over with uploads.

A format choice reparses the file and shows only its new error (item 4); a failed upload keeps
the pages on the sample and the sidebar names the data shown (item 8); uploaded files stay,
editable, across pages (item 8); the links note appears once per page (item 8); MAFALDA model
outputs get their parsing choice and Documents explains paper-2023's drift (item 2); spans past
the text in several files are all named at once (item 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.model.roles import guess_role
from tests.app.conftest import open_rename, tables
from ui import data as data_ui
from ui import folder_upload, set_names, state, uploads

ROOT = Path(__file__).resolve().parents[2]
MAFALDA = ROOT / "sample_data" / "mafalda"
UNDETECTABLE = b"T1\tDoubt 0 5\tx\n"  # a brat line without the .ann name: not detectable
LINK_NOTE = "Links carry the view"


def _data_page(make_app, data: str = "empty") -> AppTest:
    at = make_app("pages/data.py", data=data)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _upload(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(name, data, "application/octet-stream") for name, data in files]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _errors(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error]  # file names are shown escaped


def _pick_format(at: AppTest, filename: str, fmt: str) -> list[str]:
    at.selectbox(key=state.upload_key("fmt", filename)).select(fmt).run()
    assert not at.exception, [e.value for e in at.exception]
    return _errors(at)


# ---- item 4: the format box reparses -------------------------------------------------------------


def test_each_format_choice_reparses_and_shows_only_its_own_error(make_app) -> None:
    at = _upload(_data_page(make_app), ("pred", UNDETECTABLE))
    (first,) = _errors(at)
    assert "could not detect the format; choose it in the Format box" in first
    assert "pass it explicitly" not in first
    (second,) = _pick_format(at, "pred", "spans-csv")
    assert "the header lacks doc_id, start, end, label" in second
    assert "could not detect" not in second
    (third,) = _pick_format(at, "pred", "ptc")
    assert "expected a numeric article id, got 'T1'" in third
    (again,) = _pick_format(at, "pred", "auto")
    assert again == first


def test_mafalda_gold_read_as_other_formats_shows_the_current_error(make_app) -> None:
    at = _upload(_data_page(make_app), ("gold.jsonl", (MAFALDA / "gold.jsonl").read_bytes()))
    assert _errors(at) == []
    seen = []
    for fmt, expected in (("doccano", "field 'sentences_with_labels': a MAFALDA record"),
                          ("semeval2021", "malformed JSON at column 1: Extra data"),
                          ("mafalda-llm", "field 'prediction'")):
        (error,) = _pick_format(at, "gold.jsonl", fmt)
        assert expected in error, (fmt, error)
        assert error not in seen  # never the previous format's error
        seen.append(error)
    assert _pick_format(at, "gold.jsonl", "auto") == []


def test_a_json_syntax_error_is_shown_whole(make_app) -> None:
    at = _upload(_data_page(make_app), ("bad.json", b'[{"id": "1", "text": "ab",}]'))
    (error,) = _errors(at)
    assert error.endswith("malformed JSON at column 27: Expecting property name enclosed in "
                          "double quotes"), error


# ---- item 8: which data, kept files --------------------------------------------------------------


def test_a_failed_upload_leaves_the_pages_on_the_sample(make_app, data_dir: Path) -> None:
    at = _data_page(make_app, data="sample")
    assert at.session_state[state.K_SOURCE] == "sample"
    _upload(at, ("broken.json", (data_dir / "broken.json").read_bytes()))
    assert at.session_state[state.K_SOURCE] == "sample"
    assert at.radio(key=state.K_SOURCE).disabled
    assert any("broken.json" in e for e in _errors(at))  # its error is still shown
    assert [s.label for s in at.sidebar.selectbox] == ["Sample corpus"]


def test_the_sidebar_names_the_uploaded_files(make_app, data_dir: Path) -> None:
    at = _data_page(make_app, data="sample")
    _upload(at, *[(f"{n}.json", (data_dir / f"{n}.json").read_bytes())
                  for n in ("gold", "system_a")])
    assert at.session_state[state.K_SOURCE] == "upload"
    side = " ".join(c.value.replace("\\", "") for c in at.sidebar.caption)
    assert "Showing **uploaded files**: gold.json, system_a.json (2 set(s))" in side
    assert not [s for s in at.sidebar.selectbox if s.label == "Sample corpus"]


def test_roles_and_names_stay_editable_across_pages_without_a_new_upload(
    make_app, data_dir: Path
) -> None:
    at = _upload(_data_page(make_app), *[(f"{n}.json", (data_dir / f"{n}.json").read_bytes())
                                         for n in ("gold", "system_a")])
    at.text_input(key=state.upload_key("name", "system_a.json")).input("Model A").run()
    at.switch_page("pages/scores.py").run()
    at.switch_page("pages/data.py").run()
    assert not at.exception
    assert list(at.session_state[uploads.K_FILES]) == ["gold.json", "system_a.json"]
    assert at.text_input(key=state.upload_key("name", "system_a.json")).value == "Model A"
    at.selectbox(key=state.upload_key("role", "system_a.json")).select("annotator").run()
    ws = at.session_state[state.K_UPLOAD_WS]
    assert ws.sets["Model A"].role == "annotator"
    at.switch_page("pages/documents.py").run()
    at.switch_page("pages/data.py").run()
    assert at.selectbox(key=state.upload_key("role", "system_a.json")).value == "annotator"
    at.button(key=state.upload_key("remove", "system_a.json")).click().run()
    assert list(at.session_state[state.K_UPLOAD_WS].sets) == ["gold"]
    at.button(key="forget_uploads").click().run()
    assert at.session_state[state.K_SOURCE] == "sample"


@pytest.mark.parametrize("page", ["pages/data.py", "pages/scores.py", "pages/documents.py",
                                  "pages/errors.py", "pages/differences.py", "pages/labels.py",
                                  "pages/annotators.py", "pages/curation.py"])
def test_the_links_note_appears_once_per_page(make_app, page: str) -> None:
    at = make_app(page)  # the hand-made corpus, as uploaded data
    assert not at.exception
    texts = [e.value for kind in ("caption", "info", "markdown", "warning")
             for e in getattr(at, kind)]
    texts += [c.value for c in at.sidebar.caption]
    assert sum(LINK_NOTE in str(t) for t in texts) == 1, page


# ---- item 2: MAFALDA model outputs ---------------------------------------------------------------


def test_llm_parsing_is_chosen_per_file_and_documents_explains_the_drift(make_app) -> None:
    at = _upload(_data_page(make_app), ("gold.jsonl", (MAFALDA / "gold.jsonl").read_bytes()),
                 ("system_llm.jsonl", (MAFALDA / "system_llm.jsonl").read_bytes()))
    keys = {s.key for s in at.selectbox}
    assert state.upload_key("llm", "system_llm.jsonl") in keys
    assert state.upload_key("llm", "gold.jsonl") not in keys  # only for mafalda-llm files
    box = at.selectbox(key=state.upload_key("llm", "system_llm.jsonl"))
    assert box.value == "paper-2023" and list(box.options) == ["paper-2023", "repo-head"]
    paper = at.session_state[state.K_UPLOAD_WS].sets["system_llm"]
    at.switch_page("pages/documents.py").run()
    notes = [i.value for i in at.info if "paper-2023" in i.value]
    assert len(notes) == 1 and "mid-word" in notes[0]
    # One line on the page, the explanation on demand (tour 7 item 8: it filled a phone).
    assert [e.label for e in at.expander if "mid-word" in e.label] == [
        "ℹ️ Why these spans begin and end mid-word (paper-2023 parsing)"]
    at.switch_page("pages/data.py").run()
    at.selectbox(key=state.upload_key("llm", "system_llm.jsonl")).select("repo-head").run()
    repo = at.session_state[state.K_UPLOAD_WS].sets["system_llm"]
    assert repo.spans != paper.spans  # one character between sentences moves later spans
    at.switch_page("pages/documents.py").run()
    assert not [i for i in at.info if "paper-2023" in i.value]


# ---- item 1: one role rule; every offending set named at once ------------------------------------


@pytest.mark.parametrize("name", ["gold.json", "system_a.json", "annotator_2.json", "ann-1.tsv",
                                  "export.zip", "GOLD_dev.jsonl"])
def test_the_data_page_presets_the_role_core_guesses(make_app, name: str) -> None:
    at = _upload(_data_page(make_app), (name, b"doc_id,start,end,label\nd1,0,1,x\n"))
    assert at.selectbox(key=state.upload_key("role", name)).value == guess_role(name)


def test_spans_past_the_text_in_two_files_are_named_at_once(make_app) -> None:
    gold = json.dumps([{"id": "d1", "text": "hello world", "labels": []}]).encode()
    at = _upload(_data_page(make_app), ("gold.json", gold),
                 ("pred.csv", b"doc_id,start,end,label\nd1,0,5000,Doubt\n"),
                 ("other.csv", b"doc_id,start,end,label\nd1,3,40,Doubt\n"))
    errors = _errors(at)
    assert len(errors) == 2
    for error in errors:
        assert "pred.csv" in error and "other.csv" in error and "in 2 set(s)" in error
    assert list(at.session_state[state.K_UPLOAD_WS].sets) == ["gold"]


def test_the_released_mafalda_outputs_load_without_errors(make_app, frame) -> None:
    """Their spans past the text (text 23) are the reader's, not the file's: kept as the
    official evaluator keeps them, one warning per file."""
    released = ROOT / "tests" / "data" / "mafalda"
    at = _upload(_data_page(make_app),
                 ("gold_standard_dataset.jsonl",
                  (released / "datasets" / "gold_standard_dataset.jsonl").read_bytes()),
                 *((f"{m}_level_2_results.jsonl",
                    (released / "results" / f"{m}_level_2_results.jsonl").read_bytes())
                   for m in ("gpt-3.5", "base-silent")))
    assert _errors(at) == []
    files = frame(at, "file", "status")
    assert list(files["status"]) == ["✅ loaded"] * 3
    assert set(at.session_state[state.K_UPLOAD_WS].sets) == {
        "gold_standard_dataset", "gpt-3.5_level_2_results", "base-silent_level_2_results"}
    # Warnings only: their table waits in a closed expander (issue 29, seventh pass).
    assert not [df for df in at.dataframe if "severity" in df.value.columns]
    at.session_state[data_ui.K_DIAG_LIST] = True  # opened
    at.run()
    diags = frame(at, "severity", "message")
    past = diags[diags["message"].str.contains("past the text")]
    assert sorted(past["file"]) == ["base-silent_level_2_results.jsonl",
                                    "gpt-3.5_level_2_results.jsonl"]
    assert all("document '23': span [0, 276) 'unknown'" in m for m in past["message"])


def test_a_span_past_its_own_text_names_the_choice_of_the_page(make_app) -> None:
    gold = json.dumps([{"id": "d1", "text": "hello world", "labels": [
        {"start": 0, "end": 40, "technique": "Doubt"}]}]).encode()
    (error,) = _errors(_upload(_data_page(make_app), ("gold.json", gold)))
    assert "field 'end': expected an offset within the text (length 11), got 40" in error
    assert error.endswith("fix the offsets, or choose 'clip spans to the text' (or 'keep them, "
                          "as the official scorers do') under \"Spans that end past their "
                          "document's text\" above")
    assert "--clip-spans" not in error


# ---- issue 29 tour 3: a folder or zip of separate inputs -----------------------------------------

FIGURE1 = ROOT / "sample_data" / "figure1"
GOLD_AND_SYSTEM = (("gold.json", (FIGURE1 / "gold.json").read_bytes()),
                   ("pred_s1.json", (FIGURE1 / "pred_s1.json").read_bytes()))


def _zip(prefix: str, files: tuple[tuple[str, bytes], ...]) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files:
            z.writestr(prefix + name, data)
    return buf.getvalue()


def _gold_and_system_read_apart(at: AppTest) -> None:
    assert _errors(at) == []
    assert set(at.session_state[uploads.K_FILES]) == {
        "gold.json", "pred_s1.json"}
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {s.role for s in ws.sets.values()} == {"gold", "system"}
    assert at.session_state[state.K_SOURCE] == "upload"
    assert at.selectbox(key=state.upload_key("role", "gold.json")).value == "gold"
    assert at.selectbox(key=state.upload_key("role", "pred_s1.json")).value == "system"


def test_a_folder_of_gold_and_system_files_is_read_as_those_files(make_app) -> None:
    at = _data_page(make_app)
    at.toggle(key=folder_upload.K_FOLDER_ON).set_value(True).run()
    at.file_uploader(key=folder_upload.K_FOLDER).set_value(
        [(f"folder/{name}", data, "application/json") for name, data in GOLD_AND_SYSTEM]).run()
    assert not at.exception, [e.value for e in at.exception]
    _gold_and_system_read_apart(at)


@pytest.mark.parametrize("prefix", ["folder/", ""])
def test_a_zip_of_gold_and_system_files_is_read_as_those_files(make_app, prefix: str) -> None:
    at = _upload(_data_page(make_app), ("folder.zip", _zip(prefix, GOLD_AND_SYSTEM)))
    _gold_and_system_read_apart(at)


def test_a_zip_of_one_tools_export_stays_one_input(make_app) -> None:
    brat = ((f"doc{i}.{ext}", data) for i in (1, 2) for ext, data in
            (("txt", b"The mayor lies.\n"), ("ann", b"T1\tDoubt 4 9\tmayor\n")))
    at = _upload(_data_page(make_app), ("annotators.zip", _zip("", tuple(brat))))
    assert _errors(at) == []
    assert list(at.session_state[uploads.K_FILES]) == ["annotators.zip"]


def test_renaming_an_uploaded_files_set_renames_its_display_name(make_app) -> None:
    at = _upload(_data_page(make_app), *GOLD_AND_SYSTEM)
    open_rename(at)  # closed, the control draws nothing (docs/performance.md, issue 29)
    at.selectbox(key=set_names.K_RENAME_SET).select("pred_s1").run()
    at.text_input(key=set_names.K_RENAME_TO).input("SysA").run()
    at.button(key="rename_set_button").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_input(key=state.upload_key("name", "pred_s1.json")).value == "SysA"
    ws = at.session_state[state.K_UPLOAD_WS]
    assert set(ws.sets) == {"gold", "SysA"}
    files = next(t for t in tables(at) if "sets" in t.columns)
    assert list(files["sets"]) == ["gold", "SysA"]
    assert at.selectbox(key=set_names.K_RENAME_SET).value == "SysA"


def test_an_empty_a_binary_and_a_long_lined_file_say_why_they_are_not_detected(make_app) -> None:
    at = _upload(_data_page(make_app), ("empty.json", b""), ("binary.json", bytes(range(256))),
                 ("huge.jsonl", b'{"id": "1", "text": "' + b"x" * (3 << 20) + b'"}\n'))
    errors = _errors(at)
    assert any("empty.json: could not detect the format: the file is empty" in e
               for e in errors), errors
    assert any("binary.json: could not detect the format: not a text file (binary bytes at "
               "offset 0); choose it in the Format box" in e for e in errors), errors
    # a JSON object on one line is read whole (up to 64 MiB): it is no record of a format
    assert any("huge.jsonl: could not detect the format: its first line (3.0 MiB), read whole, "
               "is no record of a known format" in e and "choose it in the Format box" in e
               for e in errors), errors


def test_a_jsonl_file_whose_first_record_passes_1_mib_loads(make_app) -> None:
    chapter = "Call me Ishmael. Some years ago, never mind how long precisely. " * 40_000
    body = "".join(json.dumps(r) + "\n" for r in (
        {"id": 1, "text": chapter, "label": [[0, 4, "Doubt"], [8, 15, "Smears"]]},
        {"id": 2, "text": "A short review.", "label": [[2, 7, "Doubt"]]}))
    at = _upload(_data_page(make_app), ("chapter.jsonl", body.encode()))
    assert _errors(at) == []
    (rep,) = at.session_state[state.K_UPLOAD_WS].reports
    assert rep.ok and rep.format == "doccano" and rep.documents == 2 and rep.spans == 3


def test_the_uploads_say_they_live_in_this_tab(make_app) -> None:
    at = _data_page(make_app)
    assert not any("Uploads live in this tab" in c.value for c in at.caption)
    at = _upload(at, GOLD_AND_SYSTEM[0])
    (note,) = [c.value for c in at.caption if "Uploads live in this tab" in c.value]
    assert "a reload or another tab starts from the sample" in note and "--data" in note


def test_the_files_table_shows_the_status_first_and_says_it_scrolls(make_app) -> None:
    at = _upload(_data_page(make_app), *GOLD_AND_SYSTEM)
    files = next(t for t in tables(at) if "sets" in t.columns)
    assert list(files.columns)[:2] == ["file", "status"]  # seen before any sideways scroll
    assert any("in a narrow window the table scrolls sideways" in c.value and "warnings" in c.value
               for c in at.caption)


def test_restoring_the_loaded_names_undoes_every_rename_however_made(make_app) -> None:
    # one file renamed in its Display name box, the other through "Rename a set" (which
    # writes that file's box): the restore button undoes both, as it undoes the other renames
    at = _upload(_data_page(make_app), *GOLD_AND_SYSTEM)
    loaded = set(at.session_state[state.K_UPLOAD_WS].sets)
    at.text_input(key=state.upload_key("name", "pred_s1.json")).input("SysA").run()
    open_rename(at)
    at.selectbox(key=set_names.K_RENAME_SET).select("gold").run()
    at.text_input(key=set_names.K_RENAME_TO).input("Reference").run()
    at.button(key="rename_set_button").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert set(at.session_state[state.K_UPLOAD_WS].sets) == {"Reference", "SysA"}
    said = " ".join(c.value for c in at.caption)
    assert "pred_s1 → **SysA** (its file's Display name)" in said.replace("\\", "")
    at.button(key="rename_reset").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert set(at.session_state[state.K_UPLOAD_WS].sets) == loaded == {"gold", "pred_s1"}
    assert at.text_input(key=state.upload_key("name", "pred_s1.json")).value == "pred_s1"
    assert at.text_input(key=state.upload_key("name", "gold.json")).value == "gold"
    files = next(t for t in tables(at) if "sets" in t.columns)
    assert list(files["sets"]) == ["gold", "pred_s1"]
    assert not any(b.key == "rename_reset" for b in at.button)  # nothing left to restore


def test_a_file_that_fails_to_read_shows_its_detected_format(make_app) -> None:
    # tour 9, D12: a Label Studio export refused by its reader showed the format "-"
    task = {"id": 1, "data": {"text": "Short."}, "annotations": [{"completed_by": 1, "result": [
        {"type": "labels", "value": {"start": 0, "end": 40, "text": "Berlin", "labels": ["X"]}}]}]}
    at = _upload(_data_page(make_app), ("ls_export.json", json.dumps([task]).encode()))
    files = next(t for t in tables(at) if "sets" in t.columns)
    row = files[files["file"] == "ls_export.json"].iloc[0]
    assert row["status"] == "❌ error" and row["format"] == "label-studio"


def test_the_doccano_hint_of_a_mafalda_file_says_detected_or_chosen(make_app) -> None:
    """The MAFALDA reader's hint of doccano on the Data page: with the format detected it says
    so (most of the labels are MAFALDA's); with mafalda chosen in the Format box it says the
    format was chosen (bugleft24's hint called the labels mostly MAFALDA's either way). Both
    point at the Format box, not at a command-line flag."""
    from core.formats.mafalda import DOCCANO_WAY

    body = json.dumps({"text": "Vote or die. They lie. You are stupid.", "labels": [
        [0, 11, "appeal to fear"], [12, 21, "ad hominem"], [22, 38, "insult"]]}) + "\n"
    at = _upload(_data_page(make_app), ("gold.jsonl", body.encode()))
    (detected,) = _errors(at)
    assert "got 'insult'" in detected
    assert "the format detected (most of its labels are MAFALDA's)" in detected, detected
    assert "choose doccano in the Format box to read the file so" in detected, detected
    assert DOCCANO_WAY not in detected and "asked for" not in detected
    (asked,) = _pick_format(at, "gold.jsonl", "mafalda")
    assert "got 'insult'" in asked
    assert "the format asked for, which takes only the taxonomy's labels" in asked, asked
    assert "choose doccano in the Format box instead" in asked, asked
    assert "detected" not in asked and "most of its labels" not in asked
    assert _pick_format(at, "gold.jsonl", "doccano") == []  # as the hint says: doccano reads it
