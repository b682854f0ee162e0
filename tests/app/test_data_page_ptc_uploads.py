"""PTC articles and their ``.labels`` files on the Data page (tour 7 items 1 and 9).

Uploaded as loose files they pair as the same files in a folder do: one input whose documents
have their texts, instead of every ``article<ID>.txt`` refused as a labels file and every
``.labels`` a text-less system of its own. An article uploaded without its labels says what it
is. A folder of per-article ``.labels`` files is the shared tasks' gold layout: it is guessed a
gold unless its name says otherwise."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui import folder_upload, state, uploads

PTC = Path(__file__).resolve().parents[1] / "data" / "formats" / "ptc"
TC = PTC / "semeval2020-tc-folder"
DEV = PTC / "dev-articles-with-tc-labels"


def _files(folder: Path) -> list[tuple[str, bytes, str]]:
    return [(p.name, p.read_bytes(), "text/plain") for p in sorted(folder.iterdir())]


def _upload(make_app, files) -> AppTest:
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_loose_articles_and_labels_are_one_input_with_texts(make_app) -> None:
    at = _upload(make_app, _files(TC))
    assert [e.value for e in at.error] == []
    ws = at.session_state[state.K_UPLOAD_WS]
    assert len(ws.reports) == 1 and len(ws.sets) == 1
    (only,) = ws.sets.values()
    assert sorted(only.doc_ids) == ["201", "202", "203"]
    assert only.span_count() == 6
    texts = ws.texts()
    assert texts["201"] == (TC / "article201.txt").read_text(encoding="utf-8")
    assert all(texts[d] for d in ("201", "202", "203"))


def test_the_paired_articles_are_the_gold(make_app) -> None:
    at = _upload(make_app, _files(TC))
    ws = at.session_state[state.K_UPLOAD_WS]
    assert [s.role for s in ws.sets.values()] == ["gold"]


def test_articles_with_one_labels_file_for_all_pair_too(make_app) -> None:
    at = _upload(make_app, _files(DEV))
    assert [e.value for e in at.error] == []
    ws = at.session_state[state.K_UPLOAD_WS]
    assert len(ws.reports) == 1
    (only,) = ws.sets.values()
    assert all(ws.texts()[d] for d in only.doc_ids)


def test_a_system_file_beside_the_gold_articles_stays_an_input_of_its_own(make_app) -> None:
    system = (PTC / "semeval2020-tc-folder" / "article201.task2-TC.labels").read_bytes()
    at = _upload(make_app, [*_files(TC), ("system_run.labels", system, "text/plain")])
    assert [e.value for e in at.error] == []
    ws = at.session_state[state.K_UPLOAD_WS]
    assert [r.file for r in ws.reports][-1] == "system_run.labels"
    assert {s.role for s in ws.sets.values()} == {"gold", "system"}


def test_an_article_uploaded_without_its_labels_says_so(make_app) -> None:
    at = _upload(make_app, [("article201.txt", (TC / "article201.txt").read_bytes(),
                             "text/plain")])
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "article201.txt" in errors
    assert "article text" in errors and ".labels" in errors
    assert "TAB-separated" not in errors


def test_ptc_group_leaves_unrelated_text_files_alone() -> None:
    loose = [uploads.Upload("notes.txt", b"hello", filename="notes.txt", file_id="1"),
             uploads.Upload("a.labels", b"1\tX\t0\t1\n", filename="a.labels", file_id="2")]
    assert uploads.ptc_group(loose) is None


def test_a_ptc_folder_upload_is_guessed_gold(make_app) -> None:
    at = make_app("pages/data.py", data="empty")
    at.toggle(key=folder_upload.K_FOLDER_ON).set_value(True).run()
    files = [(f"semeval2020-tc-folder/{n}", d, t) for n, d, t in _files(TC)]
    at.file_uploader(key=folder_upload.K_FOLDER).set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state[state.K_UPLOAD_WS]
    assert [s.role for s in ws.sets.values()] == ["gold"]
    assert at.selectbox(key=state.upload_key("role", "semeval2020-tc-folder")).value == "gold"


def test_a_zip_of_a_ptc_folder_is_guessed_gold(make_app) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, _ in _files(TC):
            zf.writestr(f"tc/{name}", data)
    at = _upload(make_app, [("tc.zip", buf.getvalue(), "application/zip")])
    ws = at.session_state[state.K_UPLOAD_WS]
    assert [s.role for s in ws.sets.values()] == ["gold"]


def test_a_ptc_folder_whose_name_says_system_stays_a_system(make_app) -> None:
    at = make_app("pages/data.py", data="empty")
    at.toggle(key=folder_upload.K_FOLDER_ON).set_value(True).run()
    files = [(f"system_articles/{n}", d, t) for n, d, t in _files(TC)]
    at.file_uploader(key=folder_upload.K_FOLDER).set_value(files).run()
    ws = at.session_state[state.K_UPLOAD_WS]
    assert [s.role for s in ws.sets.values()] == ["system"]


def test_a_labels_file_names_its_set_as_the_command_line_does(make_app) -> None:
    """Tour 18: three annotators' PTC files (``ana.labels``, ...) were the sets
    ``ana.labels``, ``ben.labels`` on every page, while ``python -m core agree`` names them
    ``ana``, ``ben``: the dashboard takes the ``.labels`` extension off too."""
    from core.formats._common import set_name_of

    rows = b"201\tDoubt\t0\t4\n"
    at = _upload(make_app, [("ana.labels", rows, "text/plain"),
                            ("ben.labels", rows, "text/plain")])
    ws = at.session_state[state.K_UPLOAD_WS]
    assert list(ws.sets) == ["ana", "ben"] == [set_name_of(f) for f in ("ana.labels",
                                                                         "ben.labels")]
    assert at.text_input(key=state.upload_key("name", "ana.labels")).value == "ana"
