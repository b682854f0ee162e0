"""spaCy's training tuples and the NER Annotator for spaCy's export are read as ``spacy``
(wild14 tour, wild13's leftovers).

Three files of the wild13 tour hold texts and character-offset spans, yet detection refused
them ("no format SpanScope reads; write each pair as a doccano JSON Lines record"):

* jmpageau/ProjectBEAMI@929fc75 ``annotations.json``: a JSON list of spaCy's training tuples,
  ``[[text, {"entities": [[start, end, label]]}], ...]``, pretty-printed, its first text
  1,935 characters long (longer than the head detection reads whole);
* NormVg/IRS-NER-node@db93f03 ``data/annotations.json`` (3.6 MB) and pavanprak/FYP@2389075
  ``annotations.json``: the NER Annotator for spaCy's export, ``{"classes": [...],
  "annotations": [[text, {"entities": [...]}], ...]}``, the same tuples under a key.

Both are spaCy's own training layout (spaCy v2's ``nlp.update(texts, annotations)``), so the
spacy reader reads them: a tuple is the record ``{"text": text, "entities": [...]}``, its
document id its position. The files here are made in those shapes, with our texts.
"""

from __future__ import annotations

import json

import pytest

from core.formats import detect, load_files
from core.model.errors import FormatError


def _spans(data: bytes, name: str = "annotations.json"
           ) -> list[tuple[str, str, list[tuple[int, int, str]]]]:
    loaded = load_files({name: data})
    assert loaded.format == "spacy"
    (aset,) = loaded.sets
    return [(doc, loaded.texts[doc] or "", [(s.start, s.end, s.label) for s in spans])
            for doc, spans in aset.spans.items()]


@pytest.mark.parametrize("long_text", [False, True])
def test_a_list_of_spacy_training_tuples_is_read(long_text: bool) -> None:
    first = "Infirmier clinicien, temps plein, horaire de jour. " * (80 if long_text else 1)
    pairs = [[first, {"entities": [[0, 19, "Poste"], [21, 32, "Temps plein"]]}],
             ["Préposé aux bénéficiaires, soir.", {"entities": [[0, 25, "Poste"]]}],
             ["Aucune mention.", {"entities": []}]]
    data = json.dumps(pairs, indent=4, ensure_ascii=False).encode()
    assert detect({"annotations.json": data}) == "spacy"
    assert _spans(data) == [
        ("1", first, [(0, 19, "Poste"), (21, 32, "Temps plein")]),
        ("2", "Préposé aux bénéficiaires, soir.", [(0, 25, "Poste")]),
        ("3", "Aucune mention.", [])]
    assert first[0:19] == "Infirmier clinicien" and first[21:32] == "temps plein"


def test_an_ner_annotator_export_is_read() -> None:
    export = {"classes": ["MEDICINE", "DISEASE"],
              "annotations": [["Paracetamol\r", {"entities": [[0, 11, "MEDICINE"]]}],
                              ["fever and headache", {"entities": [[0, 5, "DISEASE"],
                                                                   [10, 18, "DISEASE"]]}]]}
    for indent in (None, 6):
        data = json.dumps(export, indent=indent).encode()
        assert detect({"annotations.json": data}) == "spacy"
        assert _spans(data) == [("1", "Paracetamol\r", [(0, 11, "MEDICINE")]),
                                ("2", "fever and headache", [(0, 5, "DISEASE"),
                                                             (10, 18, "DISEASE")])]


def test_a_long_ner_annotator_export_is_detected_past_its_head() -> None:
    text = "Psilocybin was studied for depression. " * 200
    export = {"classes": ["PSYCHEDELIC DRUGS"],
              "annotations": [[text, {"entities": [[0, 10, "PSYCHEDELIC DRUGS"]]}]] * 3}
    data = json.dumps(export, indent=4).encode()
    assert detect({"test_data.json": data}) == "spacy"
    assert [d for d, _, _ in _spans(data, "test_data.json")] == ["1", "2", "3"]


def test_a_tuple_span_past_its_text_names_the_path_and_line() -> None:
    export = {"classes": ["place"],
              "annotations": [["weather in Pune", {"entities": [[11, 15, "place"]]}],
                              ["weather in Agra", {"entities": [[11, 19, "place"]]}]]}
    data = json.dumps(export, indent=2).encode()
    with pytest.raises(FormatError) as exc:
        load_files({"annotations.json": data})
    message = str(exc.value)
    assert message.startswith("annotations.json:")
    assert "field 'annotations[1][1].entities[0][1]'" in message
    assert "expected an offset within the text (length 15), got 19" in message
    line = int(message.split(":")[1])
    assert data.decode().splitlines()[line - 1].strip() == "["  # the tuple's line


def test_a_tuple_of_another_shape_is_refused_with_its_path() -> None:
    pairs = [["Ann met Bob.", {"entities": [[0, 3, "PER"]]}], ["Bob left."]]
    with pytest.raises(FormatError) as exc:
        load_files({"annotations.json": json.dumps(pairs).encode()}, fmt="spacy")
    assert "[1]" in str(exc.value)
    assert 'expected a record or a training tuple [text, {"entities": [[start, end, label]]}]' \
        in str(exc.value)


def test_lists_that_are_not_training_tuples_are_not_read_as_spacy() -> None:
    with pytest.raises(FormatError):
        detect({"pairs.json": json.dumps([[1, 2], [3, 4]] * 900).encode()})
    with pytest.raises(FormatError):
        detect({"tags.json": json.dumps([["a", ["B-PER", "O"]]] * 900).encode()})


def test_lines_under_a_top_level_key_are_those_a_whole_scan_finds() -> None:
    """The locator indexes the list under ``annotations`` with the C decoder (a 3.5 MiB
    export's whole-text scan in Python was 2/3 of its read): every path's line is the one the
    whole scan gives, for elements asked out of order, a key after the list, and a key that
    is not a list."""
    from core.formats._common import JsonLocator

    pairs = [[f"text {k}\nsecond line", {"entities": [[0, 4, "T"]] * (k % 3)}]
             for k in range(12)]
    text = json.dumps({"classes": ["T", "[x]"], "annotations": pairs, "note": {"a": [1]}},
                      indent=3)
    whole = JsonLocator(text)
    whole._scan(whole._skip(0), ())
    paths = [("annotations", 8, 1, "entities", 1), ("annotations", 0), ("annotations", 11, 0),
             ("annotations", 3, 1), ("note", "a", 0), ("classes", 1), ("annotations",)]
    loc = JsonLocator(text)
    for path in paths:
        assert loc.line(*path) == text.count("\n", 0, whole._pos[path]) + 1, path
