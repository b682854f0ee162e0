"""Data page with the annotation-tool formats (issue 19): an INCEpTION export uploaded as a zip
or as a folder is one input whose annotators become three sets; a spaCy and a CoNLL file load
next to each other."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from ui import folder_upload, state

EXPORT = Path(__file__).resolve().parents[2] / "sample_data" / "formats" / "inception_export"
SAMPLES = EXPORT.parent


def _export_files() -> list[tuple[str, bytes]]:
    return [(p.relative_to(EXPORT).as_posix(), p.read_bytes())
            for p in sorted(EXPORT.rglob("*.tsv"))]


def test_inception_export_zip_gives_one_set_per_annotator(make_app) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in _export_files():
            zf.writestr(name, data)
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [("project.zip", buf.getvalue(), "application/zip")]).run()
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state[state.K_UPLOAD_WS]
    assert list(ws.sets) == ["alice", "bob", "chloe"]  # named as the export names them
    assert {s.role for s in ws.sets.values()} == {"annotator"}
    assert ws.sets["alice"].span_count() == 4


def test_inception_export_folder_upload_is_read_as_one_input(make_app) -> None:
    at = make_app("pages/data.py", data="empty")
    at.toggle(key=folder_upload.K_FOLDER_ON).set_value(True).run()
    files = [(f"inception_export/{name}", data, "text/tab-separated-values")
             for name, data in _export_files()]
    at.file_uploader(key=folder_upload.K_FOLDER).set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state[state.K_UPLOAD_WS]
    assert list(ws.sets) == ["alice", "bob", "chloe"]
    assert at.selectbox(key=state.upload_key("fmt", "inception_export")).value == "auto"
    assert [e.value for e in at.error] == []


def test_spacy_and_conll_files_load_side_by_side(make_app) -> None:
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value([
        ("conll_gold.conll", (SAMPLES / "conll_gold.conll").read_bytes(), "text/plain"),
        ("spacy_ner.jsonl", (SAMPLES / "spacy_ner.jsonl").read_bytes(), "application/json"),
    ]).run()
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {n: s.span_count() for n, s in ws.sets.items()} == {"conll_gold": 6,
                                                               "spacy_ner": 5}


def test_split_folder_keeps_paths_inside_the_chosen_folder() -> None:
    assert folder_upload.split_folder([("a/x.tsv", b"1"), ("a/d/y.tsv", b"2")]) == (
        "a", {"x.tsv": b"1", "d/y.tsv": b"2"})
    assert folder_upload.split_folder([("x.tsv", b"1")]) == ("folder", {"x.tsv": b"1"})


XMI = Path(__file__).resolve().parents[1] / "data" / "formats" / "inception" / "xmi_relation"


def test_xmi_and_its_type_system_uploaded_as_two_files_are_one_input(make_app) -> None:
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value([
        ("crossing.xmi", (XMI / "crossing.xmi").read_bytes(), "application/xml"),
        ("TypeSystem.xml", (XMI / "TypeSystem.xml").read_bytes(), "application/xml"),
    ]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == []
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {n: s.span_count() for n, s in ws.sets.items()} == {"crossing": 2}
    assert [r.file for r in ws.reports] == ["crossing.xmi"]
    assert any("UIMA type system, read with crossing.xmi" in c.value.replace("\\", "")
               for c in at.caption)


def test_a_type_system_uploaded_alone_waits_for_its_xmi(make_app) -> None:
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value([
        ("TypeSystem.xml", (XMI / "TypeSystem.xml").read_bytes(), "application/xml")]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == []
    assert any("upload the .xmi files it describes" in c.value for c in at.caption)


def test_an_xmi_zipped_with_its_type_system_is_read(make_app) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(XMI.iterdir()):
            zf.writestr(p.name, p.read_bytes())
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [("crossing.zip", buf.getvalue(), "application/zip")]).run()
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {n: s.span_count() for n, s in ws.sets.items()} == {"crossing": 2}


BRAT = SAMPLES / "brat_gold"
BRAT_CONF = b"[entities]\nLoaded_Language\n[relations]\n[events]\n[attributes]\n"


def test_brat_files_uploaded_one_by_one_pair_by_stem_into_one_input(make_app) -> None:
    """Tour 4 item 2: each ``.ann`` with the ``.txt`` of its stem, ``annotation.conf`` beside
    them, uploaded as separate files, is one brat input, as the same files in a folder are."""
    files = [(n, (BRAT / n).read_bytes(), "text/plain")
             for n in ("1.ann", "1.txt", "2.ann", "2.txt")]
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [*files, ("annotation.conf", BRAT_CONF, "text/plain")]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == []
    ws = at.session_state[state.K_UPLOAD_WS]
    assert len(ws.reports) == 1 and len(ws.sets) == 1
    (only,) = ws.sets.values()
    assert sorted(only.doc_ids) == ["1", "2"]
    assert ws.texts()["1"] == (BRAT / "1.txt").read_text(encoding="utf-8")
    assert only.span_count() == sum(
        (BRAT / n).read_text(encoding="utf-8").count("\nT") + 1 for n in ("1.ann", "2.ann"))


def test_a_lone_ann_upload_without_its_text_stays_an_input_of_its_own(make_app) -> None:
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value([
        ("1.ann", (BRAT / "1.ann").read_bytes(), "text/plain"),
        ("2.ann", (BRAT / "2.ann").read_bytes(), "text/plain")]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [r.file for r in at.session_state[state.K_UPLOAD_WS].reports] == ["1.ann", "2.ann"]


# How the uploader's label names each reader of core.formats (a new reader needs its words).
FORMAT_WORDS = {"brat": "brat", "conll": "CoNLL", "doccano": "doccano", "hateval": "HatEval",
                "label-studio": "Label Studio", "mafalda": "MAFALDA JSONL",
                "mafalda-llm": "MAFALDA JSONL", "parquet": "Parquet", "ptc": "PTC TSV",
                "semeval2021": "SemEval-2021 JSON", "spacy": "spaCy", "spans-csv": "spans CSV",
                "uima-xmi": "UIMA CAS XMI", "uima-json": "TypeSystem.xml) or JSON",
                "webanno-tsv": "WebAnno TSV (3",
                "webanno-tsv2": "WebAnno TSV (3 or 2)"}


def test_the_uploader_names_every_format_it_reads(make_app, tmp_path: Path) -> None:
    """Tour 16: the label says it lists every format a file may be in, and left out Parquet,
    which an upload reads (the spans table alone; docs/formats.md); its display name kept
    the ".parquet" that every other format's name drops."""
    from core.cli import main
    from core.formats import FORMATS

    assert set(FORMAT_WORDS) == set(FORMATS)
    at = make_app("pages/data.py", data="empty")
    label = at.file_uploader(key=state.K_UPLOADS).label
    for fmt, words in FORMAT_WORDS.items():
        assert words in label, fmt
    out = tmp_path / "system_a.parquet"
    assert main(["convert", str(SAMPLES.parent / "propaganda" / "system_a.json"), str(out),
                 "--to", "parquet"]) == 0
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(out.name, out.read_bytes(), "application/octet-stream")]).run()
    assert not at.exception, [e.value for e in at.exception]
    sets = at.session_state[state.K_UPLOAD_WS].sets
    assert {n: s.span_count() for n, s in sets.items()} == {"system_a": 20}  # no ".parquet"
