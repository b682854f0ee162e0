"""Format detection decides on whole first records and never guesses from a suffix alone
(issue "Real users' files and machines", item 3; ``core/formats/__init__.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.formats import detect, load_files
from core.formats._sniff import HEAD_MAX, HEAD_MIN, head_of, json_head
from core.model.errors import FormatError

DOCCANO = Path(__file__).resolve().parents[1] / "data" / "formats" / "doccano"


def _detect(name: str, body: str) -> str:
    return detect({name: body.encode("utf-8")})


def test_the_head_ends_at_the_end_of_the_line_that_crosses_4_kib() -> None:
    first = '{"id": 1, "text": "' + "a" * 6000 + '"}\n'
    data = (first + '{"id": 2}\n').encode()
    assert head_of(data) == first
    assert head_of(b"short\nfile") == "short\nfile"
    exact = b"x" * (HEAD_MIN - 1) + b"\n" + b"y" * 10
    assert head_of(exact) == "x" * (HEAD_MIN - 1) + "\n"


def test_the_head_stops_at_1_mib_on_a_longer_line() -> None:
    data = b"[" + b" " * (3 * HEAD_MAX) + b"]"
    assert len(head_of(data)) == HEAD_MAX


def test_a_doccano_file_whose_first_line_passes_4_kib_is_doccano_with_its_text() -> None:
    path = DOCCANO / "v1.3_data_label.jsonl"
    data = path.read_bytes()
    assert len(data.split(b"\n", 1)[0]) > 4096
    assert detect({path.name: data}) == "doccano"
    loaded = load_files({path.name: data}, name=path.name)
    assert all(text for text in loaded.texts.values())


def test_a_jsonl_suffix_alone_is_not_a_format() -> None:
    with pytest.raises(FormatError, match="could not detect the format; pass it explicitly "
                       r"\(one of: brat, conll, doccano, "):
        _detect("notes.jsonl", '{"title": "Minutes", "pages": 4}\n{"title": "Agenda"}\n')


def test_a_json_list_of_unknown_records_is_not_guessed() -> None:
    # Label Studio's JSON-MIN export of a classification project: no spans, no SpanScope format.
    body = json.dumps([{"id": 862, "comment": "Clean rooms.", "Room": "Positive",
                        "annotator": 1, "lead_time": 3.5}], indent=2)
    with pytest.raises(FormatError, match="could not detect the format"):
        _detect("project-1-at-2024.json", body)


def test_a_label_config_is_not_an_annotation_file() -> None:
    with pytest.raises(FormatError, match="could not detect the format"):
        detect({"label_config.json": (DOCCANO / "label_config.json").read_bytes()})


@pytest.mark.parametrize(("labels", "fmt"), [
    ('[[0, 4, "ad hominem"], [5, 9, "Appeal to Fear"]]', "mafalda"),
    ('[[0, 4, "PER"], [5, 9, "LOC"]]', "doccano"),
])
def test_labels_triples_are_mafalda_with_its_names_and_doccano_with_others(labels: str,
                                                                           fmt: str) -> None:
    body = '{"id": 1, "text": "abcd efgh", "labels": ' + labels + '}\n'
    assert _detect("a.jsonl", body) == fmt


def test_a_mafalda_file_with_one_label_of_its_own_is_mafalda_which_names_the_label() -> None:
    """tour19: a hand-made MAFALDA gold (alternatives, ⊥) with one label outside the taxonomy
    was detected as doccano (20 against 50) and scored without a word, its alternatives and
    ⊥ read as plain spans. It is MAFALDA's now (most of its labels are), whose reader refuses
    the label by line and field and names the doccano reading that would take it."""
    body = ('{"text": "Vote or the country dies. They lie.", "labels": [[0, 24, "appeal to '
            'fear"], [0, 24, "nothing"], [25, 34, "ad hominem"]]}\n'
            '{"text": "You are wrong, you are stupid.", "labels": [[0, 30, "insult"]]}\n')
    assert _detect("gold.jsonl", body) == "mafalda"
    from core.formats import ReadOptions

    with pytest.raises(FormatError) as caught:
        load_files({"gold.jsonl": body.encode()}, name="gold.jsonl",
                   options=ReadOptions(role="gold"))
    said = str(caught.value)
    assert said.startswith("gold.jsonl:2: field 'labels[0]': expected a label of the MAFALDA "
                           "taxonomy, got 'insult'; valid names: nothing, "), said
    assert said.endswith("Read as MAFALDA JSON Lines, the format detected (most of its labels "
                         "are MAFALDA's); doccano JSON Lines has the same layout and keeps any "
                         "label: pass the format doccano to read the file so, its spans as "
                         "listed (no alternatives, no ⊥)"), said
    # as the hint says: doccano takes it, every label as written
    loaded = load_files({"gold.jsonl": body.encode()}, fmt="doccano", name="gold.jsonl")
    assert {s.label for spans in loaded.set.spans.values() for s in spans} == {
        "appeal to fear", "nothing", "ad hominem", "insult"}
    # half of the labels or fewer MAFALDA's: doccano, as before
    half = body.replace('"ad hominem"', '"lie"')
    assert _detect("gold.jsonl", half) == "doccano"


def test_the_doccano_hint_of_a_mafalda_file_asked_for_says_it_was_asked_for() -> None:
    """bugleft24's hint said "its labels are mostly MAFALDA's" and suggested doccano even to
    someone who had asked for the MAFALDA format themselves, whatever the labels: it now says
    the format was asked for, and that the reader takes only the taxonomy's labels."""
    from core.formats import ReadOptions

    body = '{"text": "You are wrong, you are stupid.", "labels": [[0, 30, "insult"]]}\n'
    assert _detect("gold.jsonl", body) == "doccano"  # none of its labels is MAFALDA's
    with pytest.raises(FormatError) as caught:
        load_files({"gold.jsonl": body.encode()}, fmt="mafalda", name="gold.jsonl",
                   options=ReadOptions(role="gold"))
    said = str(caught.value)
    assert said.startswith("gold.jsonl:1: field 'labels[0]': expected a label of the MAFALDA "
                           "taxonomy, got 'insult'; valid names: nothing, "), said
    assert said.endswith("Read as MAFALDA JSON Lines, the format asked for, which takes only "
                         "the taxonomy's labels; doccano JSON Lines has the same layout and "
                         "keeps any label: pass the format doccano instead to read the file "
                         "so, its spans as listed (no alternatives, no ⊥)"), said
    assert "most" not in said and "detected" not in said
    # the same file, mostly MAFALDA's and detected so, still says it was detected
    mostly = ('{"text": "Vote or die. They lie.", "labels": [[0, 11, "appeal to fear"], '
              '[12, 21, "ad hominem"]]}\n' + body)
    with pytest.raises(FormatError) as caught:
        load_files({"gold.jsonl": mostly.encode()}, name="gold.jsonl",
                   options=ReadOptions(role="gold"))
    assert "the format detected (most of its labels are MAFALDA's)" in str(caught.value)


def test_doccano_1_0_marks_make_labels_triples_doccano_whatever_the_names() -> None:
    body = ('{"id": 1, "text": "abcd", "meta": {}, "annotation_approver": null, '
            '"labels": [[0, 4, "ad hominem"]]}\n')
    assert _detect("a.jsonl", body) == "doccano"


def test_a_semeval_list_is_detected_from_its_first_record_or_its_text() -> None:
    record = {"id": "1", "text": "x" * 9000, "labels": [{"technique": "Doubt", "start": 0,
                                                         "end": 1}]}
    assert _detect("g.json", json.dumps([record])) == "semeval2021"  # whole in the head
    assert _detect("g.json", json.dumps([record], indent=2)) == "semeval2021"  # text first


def test_json_head_reads_only_whole_records_of_the_head() -> None:
    assert json_head('{"a": 1}\n{"b": ').records == ({"a": 1},)
    assert json_head('[{"a": 1}, {"b": 2}, {"c"').records == ({"a": 1}, {"b": 2})
    assert json_head('{"a": ' + '"x' * 10).kind == "none"


@pytest.mark.parametrize(("data", "said"), [
    (b"", "empty.json: could not detect the format: the file is empty"),
    (bytes(range(256)) * 4, "binary.json: could not detect the format: not a text file (binary "
                            "bytes at offset 0); pass it explicitly"),
    (b'{"id": 1, "text": "ok"}\n' * 200 + b'\xff\xfe', None),  # text in the first 4 KiB
    # a JSON list's first element (a JSON Lines record is read whole up to 64 MiB:
    # tests/formats/test_long_first_record.py)
    (b'[{"note": "' + b"x" * (2 << 20) + b'"}]\n',
     "long.jsonl: could not detect the format: the first line is longer than 1 MiB, the most "
     "detection reads, so it sees no whole record; pass it explicitly"),
])
def test_an_undetectable_file_says_why_when_its_bytes_tell(data: bytes, said: str | None) -> None:
    name = "long.jsonl" if len(data) > 1 << 20 else "empty.json" if not data else "binary.json"
    with pytest.raises(FormatError) as caught:
        detect({name: data})
    if said is None:
        assert str(caught.value).endswith("could not detect the format; pass it explicitly "
                                          "(one of: " + str(caught.value).split("(one of: ")[1])
    else:
        assert said in str(caught.value)
