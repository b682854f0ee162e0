"""UIMA CAS JSON is read as the XMI reader reads a CAS (``core/formats/uima_json.py``).

* One CAS written by dkpro-cassis both as XMI and as JSON (the UIMA JSON CAS 0.4 layout that
  INCEpTION exports) reads to the same sets, spans and text; both count offsets in UTF-16 code
  units, so a span after an emoji sits one unit further in the files than in the text.
* A real pair: dkpro-cassis's ``casWithEmojiUnicodeTextAndAnnotations`` reference files, which
  UIMA's Java JSON CAS serializer wrote (``tests/data/formats/uima_json/cassis_emoji``).
* The older layout of UIMA 2's ``JsonCasSerializer`` (WebAnno 3's "UIMA CAS JSON" export, keys
  ``_context``, ``_views``, ``_referenced_fss``), which no library reads back: a ``begin`` of 0
  left out, the layer's full name from its ``TagsetDescription``, an annotation given by its id
  in ``_referenced_fss``, the document metadata never a span, UTF-16 offsets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cassis
import pytest

from core.cli import main
from core.formats import Loaded, ReadOptions, detect, load_files
from core.model.errors import FormatError

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "uima_json"
TEXT = "Die Stadt 🏛 eröffnet ein Kondolenzbuch für Leonard Segers.\nEnde."
CLAIM = "webanno.custom.Claim"


def _spans(loaded: Loaded) -> dict[str, dict[str, list[tuple[int, int, str]]]]:
    return {s.name: {d: sorted((x.start, x.end, x.label) for x in spans)
                     for d, spans in s.spans.items()} for s in loaded.sets}


def _one_cas() -> cassis.Cas:
    """A CAS with a custom span layer (two features), tokens, sentences and document metadata,
    whose text has a character outside the BMP (two UTF-16 code units) before the spans."""
    ts = cassis.TypeSystem()
    claim = ts.create_type(CLAIM)
    ts.create_feature(claim, "value", "uima.cas.String")
    ts.create_feature(claim, "certain", "uima.cas.Boolean")
    token = ts.create_type("de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token")
    sentence = ts.create_type("de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence")
    meta = ts.create_type("de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData",
                          "uima.tcas.DocumentAnnotation")
    ts.create_feature(meta, "documentTitle", "uima.cas.String")
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = TEXT
    cas.add(meta(begin=0, end=len(TEXT), documentTitle="speech"))
    cas.add(sentence(begin=0, end=TEXT.index("\n")))
    at = 0
    for word in TEXT.replace("\n", " ").split():
        at = TEXT.index(word, at)
        cas.add(token(begin=at, end=at + len(word)))
        at += len(word)
    for fragment, label in (("Stadt", "Actor"), ("eröffnet ein Kondolenzbuch", "Act"),
                            ("Leonard Segers", "Actor")):
        begin = TEXT.index(fragment)
        cas.add(claim(begin=begin, end=begin + len(fragment), value=label, certain=True))
    return cas


def _xmi_and_json() -> tuple[dict[str, bytes], dict[str, bytes]]:
    cas = _one_cas()
    xmi = {"speech.xmi": cas.to_xmi().encode(),
           "TypeSystem.xml": cas.typesystem.to_xml().encode()}
    return xmi, {"speech.json": cas.to_json().encode()}


def test_an_xmi_and_a_json_of_one_cas_read_to_the_same_spans_and_text() -> None:
    xmi, js = _xmi_and_json()
    from_xmi = load_files(xmi, name="speech.xmi", options=ReadOptions())
    from_json = load_files(js, name="speech.json", options=ReadOptions())
    assert (from_xmi.format, from_json.format) == ("uima-xmi", "uima-json")
    assert _spans(from_json) == _spans(from_xmi) == {"speech": {"speech": [
        (4, 9, "Actor"), (12, 38, "Act"), (43, 57, "Actor")]}}
    assert from_json.texts == from_xmi.texts == {"speech": TEXT}
    assert ([str(d) for d in from_json.diagnostics]
            == [str(d).replace(".xmi", ".json") for d in from_xmi.diagnostics])


def test_the_json_counts_utf16_units_and_the_spans_count_characters() -> None:
    _, js = _xmi_and_json()
    stored = json.loads(js["speech.json"])
    begins = sorted(fs["begin"] for fs in stored["%FEATURE_STRUCTURES"]
                    if fs["%TYPE"] == CLAIM)
    assert begins == [4, 13, 44]  # after the emoji: one unit more than the characters
    spans = _spans(load_files(js, options=ReadOptions()))["speech"]["speech"]
    assert [s for s, _, _ in spans] == [4, 12, 43]
    assert [TEXT[s:e] for s, e, _ in spans] == ["Stadt", "eröffnet ein Kondolenzbuch",
                                                 "Leonard Segers"]


def test_layer_and_feature_options_and_tokens_are_those_of_the_xmi_reader() -> None:
    xmi, js = _xmi_and_json()
    options = ReadOptions(layer="Claim", feature="certain", keep_tokens=True)
    from_xmi = load_files(xmi, name="speech.xmi", options=options)
    from_json = load_files(js, name="speech.json", options=options)
    assert _spans(from_json) == _spans(from_xmi)
    assert {lab for _, _, lab in _spans(from_json)["speech"]["speech"]} == {"True"}
    assert from_json.tokens == from_xmi.tokens and from_json.tokens


def test_a_real_pair_written_by_uima_reads_to_the_same_spans() -> None:
    """dkpro-cassis's reference files (Apache-2.0), written by UIMA's Java serializers: emoji
    of two and more UTF-16 units (zero-width joiners), spans of the base Annotation type."""
    folder = DATA / "cassis_emoji"
    from_xmi = load_files({"debug.xmi": (folder / "debug.xmi").read_bytes(),
                           "TypeSystem.xml": (folder / "TypeSystem.xml").read_bytes()},
                          name="debug.xmi", options=ReadOptions())
    from_json = load_files({"debug.json": (folder / "data.json").read_bytes()},
                           options=ReadOptions())
    spans = _spans(from_json)["debug"]["debug"]
    assert spans == _spans(from_xmi)["debug"]["debug"]
    text = from_json.texts["debug"]
    assert text is not None and [text[s:e] for s, e, _ in spans][:4] == [
        "🥳", "This", "👳🏻\u200d♀️", "is"]


def _legacy(view: dict[str, Any], referenced: dict[str, Any] | None = None,
            context: dict[str, Any] | None = None) -> bytes:
    types = context if context is not None else {
        "Claim": {"_feature_types": {"sofa": "_ref", "Arguments": "_ref"}},
        "DocumentMetaData": {"_feature_types": {"sofa": "_ref"}},
        "DocumentAnnotation": {"_subtypes": ["DocumentMetaData"]},
        "Annotation": {"_subtypes": ["DocumentAnnotation", "Claim", "Sentence",
                                     "TagsetDescription"]}}
    fss = {"12": {"_type": "Sofa", "sofaNum": 1, "sofaID": "_InitialView", "mimeType": "text",
                  "sofaString": TEXT}}
    fss.update(referenced or {})
    doc = {"_context": {"_types": types}, "_views": {"_InitialView": view},
           "_referenced_fss": fss}
    return json.dumps(doc, indent=2, separators=(", ", " : "), ensure_ascii=False).encode()


LEGACY_VIEW = {
    "DocumentMetaData": [{"sofa": 12, "end": len(TEXT) + 1, "documentTitle": "speech"}],
    "TagsetDescription": [{"sofa": 12, "layer": CLAIM, "name": "Claims", "input": False}],
    "Sentence": [{"sofa": 12, "end": 59}],
    "Claim": [{"sofa": 12, "end": 3, "value": "Actor", "Arguments": 40},
              {"sofa": 12, "begin": 13, "end": 39, "value": "Act"}, 7],
}


def test_webanno_legacy_json_reads_offsets_in_utf16_units_and_the_layer_by_its_full_name(
        ) -> None:
    data = _legacy(LEGACY_VIEW, {"7": {"_type": "Claim", "sofa": 12, "begin": 44, "end": 58,
                                       "value": "Actor"}})
    assert detect({"1f82c62.json": data}) == "uima-json"
    loaded = load_files({"1f82c62.json": data}, options=ReadOptions())
    assert loaded.format == "uima-json"
    # begin left out = 0; the second and third claims come after the emoji (13 -> 12, 44 -> 43)
    assert _spans(loaded) == {"1f82c62": {"1f82c62": [
        (0, 3, "Actor"), (12, 38, "Act"), (43, 57, "Actor")]}}
    assert loaded.texts == {"1f82c62": TEXT}
    # the reference feature Arguments is no label; the full name comes from the tagset
    assert not loaded.diagnostics
    with pytest.raises(FormatError) as exc:
        load_files({"1f82c62.json": data}, options=ReadOptions(layer="Nothing"))
    assert f"{CLAIM} (features: value)" in str(exc.value)


def test_webanno_legacy_json_without_context_takes_types_with_offsets_as_layers() -> None:
    view = {"NamedEntity": [{"sofa": 12, "begin": 4, "end": 9, "value": "LOC"}]}
    loaded = load_files({"a.json": _legacy(view, context={})}, options=ReadOptions())
    assert _spans(loaded) == {"a": {"a": [(4, 9, "LOC")]}}


def test_an_inception_export_of_json_files_gives_one_set_per_annotator() -> None:
    _, js = _xmi_and_json()
    other = _one_cas()
    for claim in other.select(CLAIM)[:1]:
        other.remove(claim)
    files = {"annotation/speech.txt/alice.json": js["speech.json"],
             "annotation/speech.txt/bob.json": other.to_json().encode(),
             "exportedproject.json": b'{"name": "p", "documents": []}'}
    loaded = load_files(files, name="export", options=ReadOptions())
    assert loaded.format == "uima-json"
    assert {s.name: len(s.spans["speech.txt"]) for s in loaded.sets} == {"alice": 3, "bob": 2}


@pytest.mark.parametrize(("data", "expected"), [
    (b'{"%TYPES": {}, "%FEATURE_STRUCTURES": [', "a.json:1: expected UIMA CAS JSON"),
    (b'{"%FEATURE_STRUCTURES": []}', "a.json: field '%TYPES': expected UIMA CAS JSON 0.4 with"),
    # cassis's own messages named no field ("AttributeError: 'NoneType' object has no
    # attribute 'items'", review18)
    (b'{"%TYPES": {}, "%FEATURE_STRUCTURES": []}',
     "a.json: field '%VIEWS': expected an object (each view's sofa and members), got nothing"),
    (b'{"%TYPES": {}, "%FEATURE_STRUCTURES": {}, "%VIEWS": {}}',
     "a.json: field '%FEATURE_STRUCTURES': expected a list of feature structures, got a JSON "
     "dict"),
    (_legacy({"Claim": [{"sofa": 12, "begin": "4", "end": 9}]}),
     "a.json: field '_views._InitialView.Claim[0].begin': expected a whole number"),
    # past any offset and no sofa text to check it against: OverflowError out of the span
    # columns (review18)
    (json.dumps({"_views": {"_InitialView": {"Claim": [{"begin": 1, "end": 10**20}]}}}).encode(),
     "a.json: field '_views._InitialView.Claim[0].end': expected a whole number of 0 or more "
     "with at most 12 digits"),
    (_legacy({"Claim": {"sofa": 12}}), "a.json: field '_views._InitialView.Claim': expected a "
                                       "list"),
    (_legacy({"Claim": [99]}), "a.json: field '_views._InitialView.Claim[0]': expected a "
                               "feature structure"),
])
def test_a_damaged_cas_json_file_is_refused_naming_the_field(data: bytes, expected: str) -> None:
    with pytest.raises(FormatError) as exc:
        load_files({"a.json": data}, fmt="uima-json", options=ReadOptions())
    assert str(exc.value).startswith(expected), str(exc.value)


def test_a_json_file_that_is_no_cas_read_as_uima_json_says_what_was_expected() -> None:
    with pytest.raises(FormatError) as exc:
        load_files({"a.json": b'[{"text": "x"}]'}, fmt="uima-json", options=ReadOptions())
    assert "expected UIMA CAS JSON files (first key %TYPES" in str(exc.value)


def test_validate_reads_a_uima_cas_json_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "speech.json"
    path.write_bytes(_xmi_and_json()[1]["speech.json"])
    assert main(["validate", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["format"], out["spans"], out["valid"]) == ("uima-json", 3, True)


def test_a_context_whose_subtypes_are_no_list_is_refused_naming_the_field() -> None:
    """``_subtypes`` is a list of type names; a number there raised a bare TypeError ('int'
    object is not iterable) out of the reader (review18)."""
    data = _legacy({"Claim": [{"sofa": 12, "begin": 4, "end": 9, "value": "A"}]},
                   context={"Annotation": {"_subtypes": 5}})
    with pytest.raises(FormatError) as exc:
        load_files({"a.json": data}, fmt="uima-json", options=ReadOptions())
    assert str(exc.value).startswith(
        "a.json: field '_context._types.Annotation._subtypes': expected a list"), str(exc.value)


@pytest.mark.parametrize("feature", ["type", "self"])
def test_a_legacy_feature_named_as_a_python_reserved_name_keeps_its_labels(feature: str) -> None:
    """cassis names a feature ``type`` or ``self`` ``type_`` / ``self_``; the legacy reader kept
    the file's name for its values, so every label was dropped with 'have no value for feature
    type_; skipped' (review18). The XMI reader reads such a feature as ``type_`` too."""
    view = {"Claim": [{"sofa": 12, "begin": 4, "end": 9, feature: "LOC"}]}
    loaded = load_files({"a.json": _legacy(view, context={})}, options=ReadOptions())
    assert _spans(loaded) == {"a": {"a": [(4, 9, "LOC")]}}
    assert not loaded.diagnostics


def test_two_types_that_the_context_gives_one_full_name_keep_their_annotations() -> None:
    """Two short names whose context ``_id`` is the same full name: the second type's records
    took the first's place under that name, and the first's annotations were lost, said only as
    '1 C annotations have no value for feature value; skipped' (review18). The second keeps its
    short name."""
    view = {"A": [{"sofa": 12, "begin": 4, "end": 9, "value": "LOC"}],
            "B": [{"sofa": 12, "begin": 13, "end": 20, "kind": "ORG"}]}
    data = _legacy(view, context={"A": {"_id": "x.C"}, "B": {"_id": "x.C"}})
    first = load_files({"a.json": data}, options=ReadOptions(layer="x.C"))
    assert _spans(first) == {"a": {"a": [(4, 9, "LOC")]}} and not first.diagnostics
    second = load_files({"a.json": data}, options=ReadOptions(layer="B"))
    assert _spans(second) == {"a": {"a": [(12, 19, "ORG")]}}  # after the emoji: one unit less


@pytest.mark.parametrize("kind", ["json", "xmi"])
def test_an_offset_past_any_text_in_a_cas_without_text_is_refused_naming_the_field(
        kind: str) -> None:
    """A CAS without a sofa text has no text to hold its offsets against: an end of 10**20 went
    into the spans' int64 column and raised OverflowError out of the reader (review18)."""
    ts = cassis.TypeSystem()
    claim = ts.create_type("x.Claim", "uima.tcas.Annotation")
    ts.create_feature(claim, "value", "uima.cas.String")
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = "Die Stadt."
    cas.add(ts.get_type("x.Claim")(begin=4, end=9, value="A"))
    if kind == "json":
        data = json.loads(cas.to_json())
        for fs in data["%FEATURE_STRUCTURES"]:
            if fs.get("%TYPE") == "x.Claim":
                fs["end"] = 10**20
            if fs.get("%TYPE") == "uima.cas.Sofa":
                fs.pop("sofaString", None)
        files = {"a.json": json.dumps(data).encode()}
    else:
        xmi = cas.to_xmi().replace('end="9"', f'end="{10**20}"').replace(
            'sofaString="Die Stadt."', "")
        files = {"a.xmi": xmi.encode(), "TypeSystem.xml": ts.to_xml().encode()}
    with pytest.raises(FormatError) as exc:
        load_files(files, options=ReadOptions())
    # the JSON reader names the feature structure (its own check), the XMI reader the field
    where = "field '%FEATURE_STRUCTURES[%ID " if kind == "json" else "field 'end'"
    assert where in str(exc.value) and "at most 12 digits" in str(exc.value), exc.value


@pytest.mark.parametrize(("value", "shown"), [("x", '"x"'), (None, "null"), (-1, "-1")])
def test_a_json_cas_whose_offset_is_no_whole_number_is_refused_naming_it(
        value: Any, shown: str) -> None:
    """cassis takes a JSON CAS 0.4 ``begin`` or ``end`` as the file gives it: a string, null or
    a negative number raised ValueError or TypeError out of the reader (review18's fuzzing)."""
    data = json.loads(_one_cas().to_json())
    claim = next(fs for fs in data["%FEATURE_STRUCTURES"] if fs.get("%TYPE") == CLAIM)
    claim["end"] = value
    with pytest.raises(FormatError) as exc:
        load_files({"a.json": json.dumps(data).encode()}, options=ReadOptions())
    assert str(exc.value) == (f"a.json: field '%FEATURE_STRUCTURES[%ID {claim['%ID']}].end': "
                              f"expected a whole number of 0 or more with at most 12 digits, "
                              f"got {shown}")


@pytest.mark.parametrize(("key", "value", "shown"), [
    ("begin", "x", '"x"'), ("begin", None, "null"), ("begin", [1], "[1]"), ("end", [1], "[1]"),
    ("end", {"a": 1}, '{"a": 1}')])
def test_a_json_cas_offset_that_cassis_cannot_sort_or_hash_is_refused_naming_it(
        key: str, value: Any, shown: str) -> None:
    """cassis sorts a view's annotations by begin and hashes them as it loads the CAS: a
    ``begin`` that is a string or null beside another annotation, or an offset that is a list,
    raised out of cassis (TypeError) as "expected UIMA CAS JSON: TypeError: '<' not supported
    between instances of 'int' and 'str'", naming no field, before the reader's own check of
    the offsets ran (review19)."""
    data = json.loads(_one_cas().to_json())
    claim = next(fs for fs in data["%FEATURE_STRUCTURES"] if fs.get("%TYPE") == CLAIM)
    claim[key] = value
    with pytest.raises(FormatError) as exc:
        load_files({"a.json": json.dumps(data).encode()}, options=ReadOptions())
    assert str(exc.value) == (f"a.json: field '%FEATURE_STRUCTURES[%ID {claim['%ID']}].{key}': "
                              f"expected a whole number of 0 or more with at most 12 digits, "
                              f"got {shown}")
