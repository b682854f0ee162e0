"""doccano exports of every version (issue "Real users' files and machines", item 3).

The files under ``tests/data/formats/doccano/`` are our own texts in the layout each doccano
release wrote (``core/formats/doccano.py`` lists them with their sources); every one must give
its documents, their texts and spans, and say what it skipped.
"""

from __future__ import annotations

import argparse
import io
import json
import zipfile
from pathlib import Path

import pytest

from core.cli import main
from core.cli.common import read_options
from core.formats import ReadOptions, detect, load_files, load_path, read_folder
from core.formats.archive import unpack_zips
from core.formats.tools import read_label_file, read_label_list
from core.model import Span
from core.model.errors import FormatError

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "doccano"

T1 = "Mayor Ilse Varga opened the Riverside Library on Tuesday."
T2 = "The Harbour Trust fined Corvin Shipping in March."
T3 = "Nobody was named in the second report."
S1 = (Span(6, 16, "Person"), Span(28, 45, "Place"), Span(49, 56, "Date"))
S2 = (Span(4, 17, "Organisation"), Span(24, 39, "Organisation"), Span(43, 48, "Date"))


def _messages(path: Path | str, **kwargs: object) -> list[str]:
    return [str(d) for d in load_path(path, **kwargs).diagnostics]  # type: ignore[arg-type]


# ---- every layout --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "ids"), [
    ("v1.7_label.jsonl", ["1", "2", "3"]),
    ("v1.0_text_labels.jsonl", ["21", "22"]),
    ("2018_entities.json", ["61", "62"]),
    ("v1.3_list.json", ["71", "72"]),
])
def test_each_layout_with_names_gives_its_documents_texts_and_spans(name: str, ids: list[str]
                                                                    ) -> None:
    loaded = load_path(DATA / name)
    assert loaded.format == "doccano"
    (aset,) = loaded.sets
    assert aset.doc_ids == ids
    assert loaded.texts[ids[0]] == T1 and loaded.texts[ids[1]] == T2
    assert aset.get(ids[0]) == S1 and aset.get(ids[1]) == S2


def test_the_2021_writer_layout_reads_the_text_under_data() -> None:
    loaded = load_path(DATA / "v1.3_data_label.jsonl")
    long_text = loaded.texts["11"]
    assert long_text is not None and long_text.endswith("asked about Sunday deliveries.")
    assert loaded.texts["12"] == T2
    spans = loaded.set.get("11")
    assert [long_text[s.start:s.end] for s in spans] == ["Petra Olsen", "Lantern Bakery",
                                                         "Sunday"]
    assert loaded.diagnostics == []


def test_text_outside_the_known_keys_is_not_guessed_but_named_once_per_file() -> None:
    loaded = load_path(DATA / "text_under_other_key.jsonl")
    assert loaded.texts == {"91": None, "92": None}
    assert loaded.set.get("91") == S1
    assert [str(d) for d in loaded.diagnostics] == [
        f"{DATA / 'text_under_other_key.jsonl'}:1: field 'content': no 'text' (or 'data'): the "
        "document has no text; 'content' holds a string not read as the text (said once per "
        "file)"]


def test_relations_are_skipped_with_one_warning_per_file() -> None:
    loaded = load_path(DATA / "v1.6_relations.jsonl")
    assert loaded.set.get("41") == S2 and loaded.set.get("42") == ()
    assert loaded.texts["41"] == T2
    assert _messages(DATA / "v1.6_relations.jsonl") == [
        f"{DATA / 'v1.6_relations.jsonl'}:1: field 'relations': 2 relations skipped (the first "
        "at line 1): they link spans; only the spans are read"]


def test_intent_and_slot_entities_are_triples_and_categories_are_skipped() -> None:
    loaded = load_path(DATA / "v1.6_intent_slot.jsonl")
    assert loaded.set.get("51") == (Span(16, 29, "Venue"), Span(34, 40, "Day"))
    assert loaded.set.get("52") == ()
    (warning,) = loaded.diagnostics
    assert warning.field == "cats" and (
        "2 document categories ('cats': booking 1, cancel 1) skipped" in warning.message)


def test_comments_are_skipped_with_one_warning() -> None:
    (warning,) = load_path(DATA / "v1.7_label.jsonl").diagnostics
    assert (warning.line, warning.field) == (2, "Comments")
    assert warning.message.startswith("1 comments skipped")


def test_records_over_several_lines_as_in_doccanos_documentation() -> None:
    loaded = load_path(DATA / "pretty_printed.jsonl")
    assert loaded.set.doc_ids == ["81", "82"]
    assert loaded.set.get("81") == S2 and loaded.texts["82"] == T3


def test_a_broken_record_over_several_lines_names_its_line() -> None:
    body = '{\n  "id": 1,\n  "text": "ab",\n  "label": [[0, 1, "X"]],\n}\n'
    with pytest.raises(FormatError, match=r"^p.jsonl:5: malformed JSON at column 1: Expecting "
                       "property name"):
        load_files({"p.jsonl": body.encode()}, name="p.jsonl", fmt="doccano")


def test_a_mafalda_file_read_as_doccano_is_named() -> None:
    body = '{"text": "ab cd", "labels": [[0, 2, "ad hominem"]], "sentences_with_labels": "{}"}\n'
    with pytest.raises(FormatError, match="field 'sentences_with_labels': a MAFALDA record"):
        load_files({"g.jsonl": body.encode()}, name="g.jsonl", fmt="doccano")


# ---- label ids, users, label configs -------------------------------------------------------


def test_label_ids_without_a_config_are_kept_with_one_warning_per_file() -> None:
    loaded = load_path(DATA / "v1.0_annotations_one_user.jsonl")
    (aset,) = loaded.sets
    assert aset.name == "v1.0_annotations_one_user"
    assert [s.label for s in aset.get("31")] == ["4", "5", "7"]
    (warning,) = loaded.diagnostics  # six spans with ids, one warning
    assert (warning.line, warning.field) == (1, "label")
    assert warning.message.startswith("the labels are doccano label ids (4, 5, 6, 7), kept as "
                                      "labels; pass the project's label config")


def test_a_label_config_gives_the_names_of_the_label_ids() -> None:
    config = read_label_file(DATA / "label_config.json")
    assert config.names == ["Person", "Place", "Organisation", "Date"]
    assert config.ids == {4: "Person", 5: "Place", 6: "Organisation", 7: "Date"}
    loaded = load_path(DATA / "v1.0_annotations_one_user.jsonl",
                       options=ReadOptions(label_ids=config.ids))
    assert loaded.set.get("31") == S1 and loaded.set.get("32") == S2
    assert loaded.diagnostics == []


def test_an_id_missing_from_the_config_is_refused_with_its_place() -> None:
    with pytest.raises(FormatError, match=r"v1.0_annotations_one_user.jsonl:1: "
                       r"annotations\[2\]: field 'label': expected a label id of the label "
                       r"config \(4, 5\), got 7"):
        load_path(DATA / "v1.0_annotations_one_user.jsonl",
                  options=ReadOptions(label_ids={4: "Person", 5: "Place"}))


def test_several_users_give_one_set_each_covering_every_document() -> None:
    loaded = load_path(DATA / "v1.0_annotations.jsonl",
                       options=ReadOptions(label_ids=read_label_file(
                           DATA / "label_config.json").ids))
    assert [(s.name, s.role) for s in loaded.sets] == [("user 1", "annotator"),
                                                        ("user 2", "annotator")]
    one, two = loaded.sets
    assert one.doc_ids == two.doc_ids == ["31", "32", "33"]
    assert one.get("31") == S1 and one.get("32") == () and one.get("33") == ()
    assert two.get("31") == S1[:2] and two.get("32") == S2[1:]


def test_plain_label_lists_read_as_before(tmp_path: Path) -> None:
    plain = tmp_path / "labels.txt"
    plain.write_text("Doubt\n\n[Loaded] Language\n", encoding="utf-8")
    assert read_label_list(plain) == ["Doubt", "[Loaded] Language"]
    assert read_label_file(plain).ids is None
    names = tmp_path / "labels.json"
    names.write_text('["Doubt", "Slogans"]', encoding="utf-8")
    assert read_label_file(names).names == ["Doubt", "Slogans"]


def test_a_label_config_keeps_only_span_labels_and_refuses_a_repeated_id(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.json"
    mixed.write_text(json.dumps([{"id": 1, "text": "Dog", "task_type": "Category"},
                                 {"id": 2, "text": "Cat", "task_type": "Span"}]), "utf-8")
    assert read_label_file(mixed).ids == {2: "Cat"}
    twice = tmp_path / "twice.json"
    twice.write_text('[{"id": 1, "text": "A"},\n {"id": 1, "text": "B"}]', "utf-8")
    with pytest.raises(FormatError, match=r"twice.json:2: \[1\].id: field 'id': label id 1 "
                       r"given twice \('A' and 'B'\)"):
        read_label_file(twice)


def test_the_command_line_maps_label_ids_with_labels(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    config = str(DATA / "label_config.json")
    path = str(DATA / "v1.0_annotations.jsonl")
    assert main(["validate", path, "--labels", config, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sets"]["user 2"]["labels"] == {"Organisation": 1, "Person": 1, "Place": 1,
                                                  "Date": 1}
    assert report["warnings"] == []
    out = tmp_path / "user1.jsonl"
    assert main(["convert", path, str(out), "--to", "doccano", "--set", "user 1",
                 "--labels", config]) == 0
    first = json.loads(out.read_text("utf-8").splitlines()[0])
    assert first["label"] == [[6, 16, "Person"], [28, 45, "Place"], [49, 56, "Date"]]
    # The mapping does not outlive the command: a later read in this process keeps the ids.
    assert [s.label for s in load_path(path).sets[0].get("31")] == ["4", "5", "7"]


def test_workers_get_the_label_config_in_their_reader_options() -> None:
    # The command line's --labels becomes label ids in the reader options it builds, which the
    # Dask engine hands to its workers inside each job.
    options = read_options(argparse.Namespace(labels=str(DATA / "label_config.json")))
    loaded = load_path(DATA / "v1.0_annotations_one_user.jsonl", options=options)
    assert loaded.set.get("32") == S2
    assert ReadOptions().label_ids is None


def test_each_users_set_scores_against_another_after_convert(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, config = str(DATA / "v1.0_annotations.jsonl"), str(DATA / "label_config.json")
    for user in ("1", "2"):
        assert main(["convert", path, str(tmp_path / f"u{user}.jsonl"), "--to", "doccano",
                     "--set", f"user {user}", "--labels", config]) == 0
    capsys.readouterr()
    assert main(["score", str(tmp_path / "u1.jsonl"), str(tmp_path / "u2.jsonl"), "--metric",
                 "martino", "--labels", config, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert 0 < result["f1"] < 1


def test_agreement_between_the_users_of_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    path, config = str(DATA / "v1.0_annotations.jsonl"), str(DATA / "label_config.json")
    assert main(["agree", path, "--measure", "char-kappa", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["annotators"] == ["user 1", "user 2"] and result["labels"] == ["4", "5", "6",
                                                                                 "7"]
    assert main(["agree", path, "--measure", "char-kappa", "--labels", config, "--json"]) == 0
    named = json.loads(capsys.readouterr().out)
    assert named["labels"] == ["Date", "Organisation", "Person", "Place"]
    assert named["char-kappa"]["matrix"] == result["char-kappa"]["matrix"]


# ---- export zips: one file per user, all.jsonl, unknown.jsonl -------------------------------


def _zip(folder: Path) -> dict[str, bytes]:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in read_folder(folder).items():
            z.writestr(name, data)
    return unpack_zips({"export.zip": buf.getvalue()}, "export.zip")


def test_an_export_zip_with_one_file_per_user_gives_one_set_each() -> None:
    files = _zip(DATA / "v1.7_export")
    assert detect(files) == "doccano"
    loaded = load_files(files, name="export.zip")
    assert [(s.name, s.role) for s in loaded.sets] == [("alice", "annotator"),
                                                        ("bob", "annotator")]
    alice, bob = loaded.sets
    assert alice.get("2") == S2[:2] and bob.get("1") == S1[1:]
    assert loaded.texts == {"1": T1, "2": T2, "3": T3}


def test_unknown_jsonl_adds_the_documents_no_one_annotated() -> None:
    loaded = load_files(_zip(DATA / "v1.3_export"), name="export.zip")
    (aset,) = loaded.sets
    assert aset.name == "all" and aset.doc_ids == ["1", "2", "3"] and aset.get("3") == ()
    assert loaded.texts["3"] == T3
    (warning,) = loaded.diagnostics
    assert "the 1 documents of unknown.jsonl, which no one annotated" in warning.message


def test_files_of_one_export_must_agree_on_a_documents_text() -> None:
    files = {"a.jsonl": b'{"id": 1, "text": "ab", "label": []}\n',
             "b.jsonl": b'{"id": 1, "text": "xy", "label": []}\n'}
    with pytest.raises(FormatError, match=r"^runs/b.jsonl:1: field 'text': document '1' has a "
                       r"different text here than in runs/a.jsonl \(line 1\)"):
        load_files(files, name="runs", fmt="doccano")


# ---- detection -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.iterdir()
                                        if p.is_file() and p.name != "label_config.json"))
def test_every_layout_is_detected_as_doccano(name: str) -> None:
    assert detect({name: (DATA / name).read_bytes()}) == "doccano"
