"""Data page with files as annotation tools export them: two uploads of one file name are both
kept; a file that names its own sets (annotators, users, models, an INCEpTION curation) keeps
their names and roles "as read", as ``python -m core validate`` lists them, with the file's role
still there to override; the Files table counts each document of a file once.

The files under ``data/as_read/`` are our own texts in each tool's layout.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.formats import load_files, read_folder
from ui import annotators as ann
from ui import state, uploads

DATA = Path(__file__).resolve().parents[1] / "data" / "dashboard" / "as_read"
SAME = DATA / "same_name"


def _data_page(make_app) -> AppTest:
    at = make_app("pages/data.py", data="empty")
    assert not at.exception, [e.value for e in at.exception]
    return at


def _upload(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(name, data, "application/octet-stream") for name, data in files]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == []
    return at


def _zip(folder: Path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            zf.writestr(path.relative_to(folder).as_posix(), path.read_bytes())
    return buf.getvalue()


def _roles(at: AppTest) -> dict[str, str]:
    return {n: s.role for n, s in at.session_state[state.K_UPLOAD_WS].sets.items()}


def _files_table(at: AppTest, frame) -> pd.DataFrame:
    return frame(at, "file", "status").set_index("file")


def _captions(at: AppTest) -> str:
    return " ".join(c.value.replace("\\", "") for c in at.caption)


# ---- two uploads with one file name -----------------------------------------------------------


def test_two_uploads_with_one_name_are_both_kept_under_distinct_names(make_app, frame) -> None:
    first, second = (SAME / "a" / "annotations.jsonl").read_bytes(), \
        (SAME / "b" / "annotations.jsonl").read_bytes()
    at = _upload(_data_page(make_app), ("annotations.jsonl", first),
                 ("annotations.jsonl", second))
    assert list(at.session_state[uploads.K_FILES]) == ["annotations.jsonl",
                                                       "annotations.jsonl (2)"]
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {n: s.span_count() for n, s in ws.sets.items()} == {"annotations": 1,
                                                               "annotations (2)": 3}
    table = _files_table(at, frame)
    assert list(table.index) == ["annotations.jsonl", "annotations.jsonl (2)"]
    assert list(table["sets"]) == ["annotations", "annotations (2)"]
    assert ("2 files are named **annotations.jsonl**: they are listed as "
            "**annotations.jsonl**, **annotations.jsonl (2)**") in _captions(at)
    assert at.text_input(key=state.upload_key("name", "annotations.jsonl (2)")).value == \
        "annotations (2)"
    # removing the first leaves the second under its own name, its choices kept
    at.selectbox(key=state.upload_key("role", "annotations.jsonl (2)")).select("gold").run()
    at.button(key=state.upload_key("remove", "annotations.jsonl")).click().run()
    assert list(at.session_state[uploads.K_FILES]) == ["annotations.jsonl (2)"]
    assert _roles(at) == {"annotations (2)": "gold"}
    assert "files are named" not in _captions(at)


def test_a_second_upload_errors_under_its_own_listed_name(make_app, frame) -> None:
    at = _data_page(make_app)
    at.file_uploader(key=state.K_UPLOADS).set_value([
        ("annotations.jsonl", (SAME / "a" / "annotations.jsonl").read_bytes(), "text/plain"),
        ("annotations.jsonl", b'{"id": 1, "text": "ab", "label": [[0, 9, "X"]]}\n',
         "text/plain")]).run()
    assert not at.exception
    (error,) = [e.value.replace("\\", "") for e in at.error]
    assert error.startswith("annotations.jsonl (2):1:"), error
    table = _files_table(at, frame)
    assert list(table["status"]) == ["✅ loaded", "❌ error"]


def test_the_same_file_uploaded_again_after_another_page_is_not_a_copy(make_app) -> None:
    data = (SAME / "a" / "annotations.jsonl").read_bytes()
    at = _upload(_data_page(make_app), ("annotations.jsonl", data))
    at.switch_page("pages/scores.py").run()
    at.switch_page("pages/data.py").run()
    _upload(at, ("annotations.jsonl", data))
    assert list(at.session_state[uploads.K_FILES]) == ["annotations.jsonl"]
    # new bytes under the same name are another file, not a silent replacement
    at.switch_page("pages/documents.py").run()
    at.switch_page("pages/data.py").run()
    _upload(at, ("annotations.jsonl", (SAME / "b" / "annotations.jsonl").read_bytes()))
    assert list(at.session_state[uploads.K_FILES]) == ["annotations.jsonl",
                                                       "annotations.jsonl (2)"]


def test_remove_drops_a_file_the_uploader_still_shows(make_app) -> None:
    at = _upload(_data_page(make_app), ("two_users.jsonl", (DATA / "two_users.jsonl")
                                        .read_bytes()),
                 ("label_studio.json", (DATA / "label_studio.json").read_bytes()))
    at.button(key=state.upload_key("remove", "label_studio.json")).click().run()
    assert not at.exception
    assert list(at.session_state[uploads.K_FILES]) == ["two_users.jsonl"]
    assert set(_roles(at)) == {"user 1", "user 2"}


# ---- sets as read ---------------------------------------------------------------------------


@pytest.mark.parametrize(("file", "expected"), [
    ("two_users.jsonl", {"user 1": "annotator", "user 2": "annotator"}),
    ("label_studio.json", {"annotator 4": "annotator", "model tagger-v2": "system"}),
    ("spans_two_raters.csv", {"ines": "annotator", "omar": "annotator"}),
])
def test_a_file_that_names_its_sets_keeps_their_names_and_roles_as_read(
    make_app, frame, file: str, expected: dict[str, str]
) -> None:
    data = (DATA / file).read_bytes()
    at = _upload(_data_page(make_app), (file, data))
    assert at.selectbox(key=state.upload_key("setroles", file)).value == uploads.AS_READ
    assert _roles(at) == expected
    read = load_files({file: data})  # what `python -m core validate` reads
    assert {s.name: s.role for s in read.sets} == expected
    row = _files_table(at, frame).loc[file]
    assert row["role"] == "as read: " + ", ".join(dict.fromkeys(expected.values()))


def _export(at: AppTest, name: str = "project.zip") -> AppTest:
    return _upload(at, (name, _zip(DATA / "inception_export")))


def test_an_inception_export_keeps_its_curation_as_the_gold(make_app, frame) -> None:
    at = _export(_data_page(make_app))
    assert _roles(at) == {"maria": "annotator", "tomas": "annotator", "curation": "gold"}
    row = _files_table(at, frame).loc["project.zip"]
    assert (row["documents"], row["spans"], row["sets"]) == (4, 13, "maria, tomas, curation")
    assert [m.value for m in at.metric][:1] == ["4"]  # the Summary's document count
    # the empty curation is no annotator: agreement is between the two annotators, against it
    at.switch_page("pages/annotators.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key=ann.K_ANN_SETS).value == ["maria", "tomas"]
    assert at.selectbox(key=ann.K_ANN_GOLD).value == "curation"


def test_an_export_holding_only_its_curation_keeps_the_name_curation(make_app) -> None:
    name = "Export+Test+-+Curated+project_1.zip"  # named as INCEpTION names its exports
    at = _upload(_data_page(make_app), (name, _zip(DATA / "curated_only")))
    assert _roles(at) == {"curation": "gold"}
    assert {s.name: s.role for s in load_files(read_folder(DATA / "curated_only"),
                                               name=name).sets} == {"curation": "gold"}


def test_a_role_chosen_for_the_file_goes_to_every_set_but_its_curation(make_app) -> None:
    at = _export(_data_page(make_app))
    box = state.upload_key("setroles", "project.zip")
    at.selectbox(key=box).select("system").run()
    assert _roles(at) == {"maria": "system", "tomas": "system", "curation": "gold"}
    at.selectbox(key=box).select("gold").run()
    assert _roles(at) == {"maria": "annotator", "tomas": "annotator", "curation": "gold"}
    at.selectbox(key=box).select(uploads.AS_READ).run()
    assert _roles(at) == {"maria": "annotator", "tomas": "annotator", "curation": "gold"}


def test_a_role_chosen_for_a_file_of_users_overrides_theirs(make_app, frame) -> None:
    at = _upload(_data_page(make_app), ("two_users.jsonl", (DATA / "two_users.jsonl")
                                        .read_bytes()))
    at.selectbox(key=state.upload_key("setroles", "two_users.jsonl")).select("system").run()
    assert _roles(at) == {"user 1": "system", "user 2": "system"}
    assert _files_table(at, frame).loc["two_users.jsonl", "role"] == "system"


def test_a_display_name_typed_for_such_a_file_names_its_sets(make_app) -> None:
    at = _upload(_data_page(make_app), ("two_users.jsonl", (DATA / "two_users.jsonl")
                                        .read_bytes()),
                 ("curated.zip", _zip(DATA / "curated_only")))
    box = at.text_input(key=state.upload_key("setname", "two_users.jsonl"))
    assert box.value == ""
    box.input("Team").run()
    at.text_input(key=state.upload_key("setname", "curated.zip")).input("Adjudicated").run()
    assert _roles(at) == {"Team:user 1": "annotator", "Team:user 2": "annotator",
                          "Adjudicated": "gold"}


def test_annotators_of_one_name_in_two_files_get_their_file_in_front(make_app) -> None:
    data = (DATA / "two_users.jsonl").read_bytes()
    at = _upload(_data_page(make_app), ("team_a.jsonl", data), ("team_b.jsonl", data),
                 ("label_studio.json", (DATA / "label_studio.json").read_bytes()))
    assert list(_roles(at)) == ["team_a:user 1", "team_a:user 2", "team_b:user 1",
                                "team_b:user 2", "annotator 4", "model tagger-v2"]


def test_files_table_counts_each_document_of_a_file_once(make_app, frame) -> None:
    at = _upload(_data_page(make_app), ("two_users.jsonl", (DATA / "two_users.jsonl")
                                        .read_bytes()))
    row = _files_table(at, frame).loc["two_users.jsonl"]
    assert (row["documents"], row["spans"]) == (2, 6)
    assert [m.value for m in at.metric][:1] == ["2"]


def test_a_folder_upload_of_an_export_reads_its_sets_as_read(make_app) -> None:
    from ui import folder_upload

    at = _data_page(make_app)
    at.toggle(key=folder_upload.K_FOLDER_ON).set_value(True).run()
    root = DATA / "inception_export"
    at.file_uploader(key=folder_upload.K_FOLDER).set_value([
        (f"export/{p.relative_to(root).as_posix()}", p.read_bytes(), "text/plain")
        for p in sorted(root.rglob("*.tsv"))]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _roles(at) == {"maria": "annotator", "tomas": "annotator", "curation": "gold"}


# ---- a file of many annotators ----------------------------------------------------------------


def test_a_file_of_many_annotators_is_one_line_in_the_files_table(make_app, frame) -> None:
    """A Prodigy export of six annotators (the clitour5 file had 42 UUIDs): the "sets" cell
    gives their count and the first two names, every name in the expander under the table;
    the Summary and agree still see the six sets over the shared documents."""
    import json

    names = [f"0f6e2a1c-41d2-4b7e-9a55-3c1d2e4f{n:04d}" for n in range(6)]
    lines = [json.dumps({"text": text, "_input_hash": h, "_task_hash": h + 1,
                         "spans": [{"start": 0, "end": 4, "label": "LOC"}],
                         "answer": "accept", "_annotator_id": who})
             for who in names for h, text in ((11, "Rome is old"), (22, "Oslo is cold"))]
    at = _upload(_data_page(make_app), ("db-out.jsonl", "\n".join(lines).encode()))
    (cell,) = _files_table(at, frame)["sets"]
    assert cell == "6 sets: 0f6e2a1c-41d…, 0f6e2a1c-41d…, … (all below the table)"
    (listing,) = [e for e in at.expander if e.label.startswith("🗂️ Every set")]
    shown = " ".join(m.value.replace("\\", "") for m in listing.markdown)
    assert all(name in shown for name in names)
    ws = at.session_state[state.K_UPLOAD_WS]
    assert sorted(ws.sets) == sorted(names)
    assert {n: sorted(s.spans) for n, s in ws.sets.items()} == {n: ["11", "22"] for n in names}


def test_the_every_set_expander_shows_a_file_name_as_its_text(make_app) -> None:
    """review11 item 8: the expander listing the sets of files with many sets names the files
    as text: a name with Markdown's characters is escaped, not rendered as bold or a link."""
    import json

    from ui.data import SETS_SHOWN
    from ui.escape import md

    tasks = [{"text": "Rome is old", "_input_hash": 1, "_task_hash": 1, "answer": "accept",
              "_annotator_id": f"user {k}", "spans": [{"start": 0, "end": 4, "label": "LOC"}]}
             for k in range(SETS_SHOWN + 1)]
    name = "**team**_[a](b).jsonl"
    at = _upload(_data_page(make_app),
                 (name, "".join(json.dumps(t) + "\n" for t in tasks).encode()))
    (label,) = [e.label for e in at.expander if e.label.startswith("🗂️ Every set")]
    assert label.endswith(f"({md(name)})")
    assert name not in label
