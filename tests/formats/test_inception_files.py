"""INCEpTION, WebAnno and UIMA files as INCEpTION writes them (issue "Real users' files", part 4).

Each file under ``tests/data/formats/inception/`` is our own small text laid out like a variant
found in INCEpTION's and WebAnno's exports and test suites: zero-width sub-token rows, slot
feature hosts, WebAnno TSV 2, XMI relation layers, a single ``.xmi`` with its type system in a
parent folder, and a project export holding only binary CAS files.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from core.formats import Loaded, ReadOptions, load_files, load_path, read_folder
from core.model.errors import FormatError

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "inception"


def _fragments(loaded: Loaded, doc: str, set_index: int = 0) -> list[tuple[str, str]]:
    text = loaded.texts[doc]
    assert text is not None
    return [(text[s.start:s.end], s.label) for s in loaded.sets[set_index].spans[doc]]


def _messages(loaded: Loaded) -> list[str]:
    return [str(d) for d in loaded.diagnostics]


# ---- WebAnno TSV 3: zero-width rows ------------------------------------------------------------

def test_zero_width_sub_token_rows_are_read_and_their_annotations_skipped_with_the_row_named(
) -> None:
    loaded = load_path(DATA / "zero_width.tsv")
    assert _fragments(loaded, "zero_width") == [("rose", "Gap"), ("rose early", "Event")]
    name = str(DATA / "zero_width.tsv")
    assert _messages(loaded) == [
        f"{name}:7: a zero-width Claim annotation 'Anchor' (row 1-1.1, offsets 0-0); a span "
        "cannot be empty, so it is skipped",
        f"{name}:12: a zero-width Claim annotation 'Anchor' (row 1-4.1, offsets 18-18); a span "
        "cannot be empty, so it is skipped",
        f"{name}:12: a zero-width Claim annotation 'Marker' (row 1-4.1, offsets 18-18); a span "
        "cannot be empty, so it is skipped",
    ]
    assert {d.kind for d in loaded.diagnostics} == {"skipped"}


def test_a_zero_width_unit_inside_a_multi_unit_annotation_keeps_the_annotation() -> None:
    # Gap[2] covers the token 'rose' and the zero-width sub-token after it.
    loaded = load_path(DATA / "zero_width.tsv")
    assert ("rose", "Gap") in _fragments(loaded, "zero_width")


@pytest.mark.parametrize(("row", "message"), [
    ("1-1\t3-3\tx\t_\t", "expected an end offset greater than begin (3), got 3"),
    ("1-1\t0-5\tTides\t_\t\n1-1.1\t4-2\tx\t_\t",
     "expected an end offset not less than begin (4), got 2"),
])
def test_a_zero_width_token_or_a_backwards_sub_token_is_still_refused(row: str,
                                                                      message: str) -> None:
    body = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Claim|kind\n\n\n"
            f"#Text=Tides rose\n{row}\n")
    with pytest.raises(FormatError, match=r"field 'offsets': " + message.replace("(", r"\(")
                       .replace(")", r"\)")):
        load_files({"d.tsv": body.encode()})


# ---- WebAnno TSV 3: slot feature hosts ---------------------------------------------------------

def test_slot_feature_host_layer_gives_its_spans() -> None:
    loaded = load_path(DATA / "slot_host.tsv", options=ReadOptions(layer="Predicate"))
    # chased (two links), two stacked hosts on 'home' (one without links: role '_', target
    # '*'), and a multi-token host whose id [4] is on its slot role column.
    assert _fragments(loaded, "slot_host") == [
        ("chased", "Predicate"), ("home", "Predicate"), ("home", "Predicate"),
        ("drifted away", "Predicate")]


def test_slot_target_ids_name_targets_not_the_host() -> None:
    # '1-4[1]' in the host's target column is the id of the Participant 'small boat'.
    loaded = load_path(DATA / "slot_host.tsv", options=ReadOptions(layer="Participant"))
    assert _fragments(loaded, "slot_host") == [("Gulls", "Participant"),
                                               ("small boat", "Participant")]


def test_slot_host_layer_is_listed_among_the_layers_without_features() -> None:
    with pytest.raises(FormatError, match=r"webanno\.custom\.Predicate \(no features\)"):
        load_path(DATA / "slot_host.tsv", options=ReadOptions(layer="Nope"))


# ---- INCEpTION project export with only binary CAS files ---------------------------------------

SER_ONLY = DATA / "ser_only_export"
RE_EXPORT = (r"this INCEpTION project export holds its annotations only as binary CAS files "
             r"\(3, e\.g\. annotation_ser/harbour\.txt/maria\.ser\), which only INCEpTION can "
             r"read; export the project again with the format WebAnno TSV 3 or UIMA CAS XMI")


def _zipped(folder: Path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.writestr(p.relative_to(folder).as_posix(), p.read_bytes())
    return buf.getvalue()


def test_export_with_only_ser_files_says_to_re_export_as_tsv_or_xmi() -> None:
    with pytest.raises(FormatError, match=RE_EXPORT):
        load_path(SER_ONLY)


def test_the_same_export_as_a_zip_gives_the_same_message() -> None:
    with pytest.raises(FormatError, match="^export.zip: " + RE_EXPORT):
        load_files({"export.zip": _zipped(SER_ONLY)}, name="export.zip")


@pytest.mark.parametrize("fmt", ["webanno-tsv", "uima-xmi"])
def test_naming_the_format_of_a_ser_only_export_gives_the_same_message(fmt: str) -> None:
    with pytest.raises(FormatError, match=RE_EXPORT):
        load_path(SER_ONLY, fmt=fmt)


def test_a_source_document_in_a_readable_format_is_not_read_as_the_annotations() -> None:
    # INCEpTION keeps each document as imported under source/; a CoNLL source would be detected.
    files = {k: v for k, v in read_folder(SER_ONLY).items() if not k.startswith("source/")}
    files["source/harbour.conll"] = b"The\tO\nferry\tB-VESSEL\n"
    with pytest.raises(FormatError, match=RE_EXPORT):
        load_files(files, name="export")


def test_an_export_with_tsv_annotations_beside_the_ser_files_is_read() -> None:
    files = read_folder(SER_ONLY)
    files["annotation/harbour.txt/maria.tsv"] = (DATA / "zero_width.tsv").read_bytes()
    loaded = load_files(files, name="export")
    assert loaded.format == "webanno-tsv" and [s.name for s in loaded.sets] == ["maria"]


# ---- WebAnno TSV 2 -----------------------------------------------------------------------------

TSV2 = DATA / "tsv2_ner.tsv"


def test_tsv2_is_detected_and_its_text_rebuilt_from_the_tokens() -> None:
    loaded = load_path(TSV2)
    assert loaded.format == "webanno-tsv2"
    # Tokens joined by one space, a line break after each sentence (#text= is not used).
    assert loaded.texts["tsv2_ner"] == ("Port Talbot Harbour Board met today .\n"
                                        "Gwen Morgan replied .\n")


def test_tsv2_bio_cells_stacked_with_placeholders_give_multi_token_spans() -> None:
    loaded = load_path(TSV2)
    # B-LOC|B-ORG, I-LOC|I-ORG, then O-_|I-ORG keeps ORG at its place while LOC has ended.
    assert _fragments(loaded, "tsv2_ner") == [
        ("Port Talbot", "LOC"), ("Port Talbot Harbour Board", "ORG"), ("Gwen Morgan", "PER")]


def test_tsv2_value_without_a_value_and_i_without_b_are_warnings() -> None:
    name = str(TSV2)
    assert _messages(load_path(TSV2)) == [
        f"{name}:14: 'I-PER' continues no annotation at place 1 of the cell; read as the start "
        "of one",
        f"{name}:9: 1 annotations of layer de.tudarmstadt.ukp.dkpro.core.api.ner.type."
        "NamedEntity have no value for feature value; skipped (first on line 9)",
    ]


def test_tsv2_single_token_layer_and_relation_columns() -> None:
    # POS is written without B-/I-: one span per token; the Dependency relation layer's two
    # columns (type, governor) are skipped and are not a layer to choose.
    loaded = load_path(TSV2, options=ReadOptions(layer="POS"))
    assert _fragments(loaded, "tsv2_ner")[:3] == [("Port", "NNP"), ("Talbot", "NNP"),
                                                 ("Harbour", "NNP")]
    with pytest.raises(FormatError, match=r"no span layer 'Dependency'; the input holds "
                       r".*NamedEntity \(features: value\); .*POS \(features: PosValue\)\Z"):
        load_path(TSV2, options=ReadOptions(layer="Dependency"))


def test_tsv2_export_gives_one_set_per_annotator_and_features_by_name() -> None:
    folder = DATA / "tsv2_export"
    loaded = load_path(folder)
    assert loaded.format == "webanno-tsv2"
    assert [(s.name, s.role) for s in loaded.sets] == [("ana", "annotator"), ("ben", "annotator")]
    assert _fragments(loaded, "ferry.txt") == [
        ("ferry is late again", "con"), ("late", "pro"), ("Typical", "con")]
    assert _fragments(loaded, "ferry.txt", 1) == [("late again", "con")]
    target = load_path(folder, options=ReadOptions(feature="target"))
    assert _fragments(target, "ferry.txt") == [("ferry is late again", "service")]


def test_tsv2_given_to_the_tsv3_reader_is_named() -> None:
    with pytest.raises(FormatError, match=r"tsv2_ner\.tsv:1: field '#FORMAT': this is WebAnno "
                       r"TSV 2 .*; read it with the format webanno-tsv2"):
        load_path(TSV2, fmt="webanno-tsv")


def test_tsv1_is_named_and_not_read() -> None:
    body = ("#id=1\n#text=Gulls cry .\n1\tGulls\t_\tNNS\tO\tO\t2\tSBJ\t_\t_\n"
            "2\tcry\t_\tVBP\tO\tO\t0\tROOT\t_\t_\n3\t.\t_\t.\tO\tO\t2\tP\t_\t_\n")
    with pytest.raises(FormatError, match=r"this is WebAnno TSV 1 .* which SpanScope does not "
                       r"read; import it into INCEpTION and export it as WebAnno TSV 3"):
        load_files({"old.tsv": body.encode()})


@pytest.mark.parametrize(("row", "message"), [
    ("1-1\tGulls\t\n", r"expected 3 TAB-separated columns \(id, token and 1 from the header\)"
                          r", got 2"),
    ("1-1\t\tB-X\t\n", "field 'token': expected a token, got an empty column"),
    ("#T_SP=x\n", "expected '#id=' or '#text='"),
])
def test_tsv2_bad_rows_name_file_line_and_field(row: str, message: str) -> None:
    body = f" # webanno.custom.Claim | kind\n#id=1\n#text=Gulls\n{row}"
    with pytest.raises(FormatError, match=r"^d\.tsv:4: " + message):
        load_files({"d.tsv": body.encode()})


# ---- UIMA CAS XMI ------------------------------------------------------------------------------

RELATION = DATA / "xmi_relation"


def test_xmi_relation_layer_is_not_the_default_and_is_reported() -> None:
    loaded = load_path(RELATION)
    assert _fragments(loaded, "crossing") == [("Tenby", "town"), ("Lundy", "island")]
    assert _messages(loaded) == [
        f"{RELATION}: relation layers skipped (they link two spans): webanno.custom.Route "
        "(features: kind); name one with --layer to read its annotations as spans"]


def test_xmi_relation_first_in_the_cas_is_still_not_the_default() -> None:
    # Without the document annotation, the relation (16-21, xmi:id 3) is the first custom
    # annotation of the CAS; the span layer Place is read all the same.
    xmi = (RELATION / "crossing.xmi").read_bytes()
    xmi = xmi.replace(b'<custom:Source xmi:id="2" sofa="1" begin="0" end="39" language="en" '
                      b'origin="harbour log"/>', b"").replace(b'members="2 3 4 5"',
                                                            b'members="3 4 5"')
    loaded = load_files({"crossing.xmi": xmi,
                         "TypeSystem.xml": (RELATION / "TypeSystem.xml").read_bytes()},
                        name="proj")
    assert [s.label for s in loaded.sets[0].spans["crossing"]] == ["town", "island"]


def test_xmi_relation_layer_named_with_layer_is_read_with_a_warning() -> None:
    loaded = load_path(RELATION, options=ReadOptions(layer="Route"))
    assert _fragments(loaded, "crossing") == [("Tenby", "ferry")]
    assert _messages(loaded) == [
        f"{RELATION}: layer webanno.custom.Route is a relation layer (features Governor and "
        "Dependent): each span is the relation annotation's own offsets, which INCEpTION sets "
        "to those of its Dependent"]


def test_xmi_document_annotation_subtype_is_never_a_layer() -> None:
    # webanno.custom.Source extends uima.tcas.DocumentAnnotation: it covers the whole text.
    with pytest.raises(FormatError, match=r"no span layer 'Source'; the input holds "
                       r"webanno\.custom\.Route \(features: kind\); webanno\.custom\.Place "
                       r"\(features: value\)"):
        load_path(RELATION, options=ReadOptions(layer="Source"))


def test_xmi_layer_uima_annotation_never_gives_the_document_annotation() -> None:
    import cassis

    folder = DATA / "xmi_plain"
    loaded = load_path(folder, options=ReadOptions(layer="uima.tcas.Annotation"))
    assert _fragments(loaded, "fog") == [("Fog", "Annotation"), ("lifts", "Annotation"),
                                         ("slowly", "Annotation")]
    # dkpro-cassis selects the DocumentAnnotation too (it is an Annotation).
    cas = cassis.load_cas_from_xmi((folder / "fog.xmi").read_text(), typesystem=cassis
                                   .load_typesystem((folder / "TypeSystem.xml").read_text()))
    selected = [(a.begin, a.end) for a in cas.select("uima.tcas.Annotation")
                if a.type.name != "uima.tcas.DocumentAnnotation"]
    assert [(s.start, s.end) for s in loaded.sets[0].spans["fog"]] == selected
    assert len(list(cas.select("uima.tcas.Annotation"))) == len(selected) + 1


def test_xmi_spans_equal_dkpro_cassis_selection() -> None:
    import cassis

    cas = cassis.load_cas_from_xmi((RELATION / "crossing.xmi").read_text(), typesystem=cassis
                                   .load_typesystem((RELATION / "TypeSystem.xml").read_text()))
    loaded = load_path(RELATION)
    assert [(s.start, s.end, s.label) for s in loaded.sets[0].spans["crossing"]] == [
        (a.begin, a.end, a.value) for a in cas.select("webanno.custom.Place")]
    assert loaded.texts["crossing"] == cas.sofa_string


def test_single_xmi_file_finds_its_type_system_beside_it() -> None:
    loaded = load_path(RELATION / "crossing.xmi")
    assert [s.name for s in loaded.sets] == ["crossing"]
    assert _fragments(loaded, "crossing") == [("Tenby", "town"), ("Lundy", "island")]
    assert all(m.startswith(f"{RELATION / 'crossing.xmi'}: ") for m in _messages(loaded))


def test_single_xmi_file_finds_its_type_system_in_a_parent_folder() -> None:
    loaded = load_path(DATA / "xmi_nested" / "docs" / "waiting.xmi")
    assert _fragments(loaded, "waiting") == [("Tenby", "town"), ("Lundy", "island")]


def test_single_xmi_file_without_a_type_system_nearby_says_what_is_missing(tmp_path: Path
                                                                           ) -> None:
    lonely = tmp_path / "a" / "b" / "c" / "d" / "e"
    lonely.mkdir(parents=True)
    (tmp_path / "TypeSystem.xml").write_bytes((RELATION / "TypeSystem.xml").read_bytes())
    (lonely / "crossing.xmi").write_bytes((RELATION / "crossing.xmi").read_bytes())
    # The type system is five folders up: past the three searched above the file's own.
    with pytest.raises(FormatError, match=r"crossing\.xmi: no type system: put TypeSystem\.xml"):
        load_path(lonely / "crossing.xmi")
    (lonely.parent.parent / "types.xml").write_bytes((RELATION / "TypeSystem.xml").read_bytes())
    loaded = load_path(lonely / "crossing.xmi")  # any .xml declaring a type system will do
    assert loaded.sets[0].span_count() == 2


def test_a_bad_type_system_above_a_single_xmi_is_named_by_its_own_path(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "TypeSystem.xml").write_text("not xml")
    (tmp_path / "docs" / "crossing.xmi").write_bytes((RELATION / "crossing.xmi").read_bytes())
    with pytest.raises(FormatError, match=f"^{tmp_path / 'TypeSystem.xml'}: expected a UIMA "
                       "type system"):
        load_path(tmp_path / "docs" / "crossing.xmi")


def test_xmi_and_type_system_in_a_zip_or_as_two_uploaded_files() -> None:
    files = {"crossing.xmi": (RELATION / "crossing.xmi").read_bytes(),
             "TypeSystem.xml": (RELATION / "TypeSystem.xml").read_bytes()}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for k, v in files.items():
            z.writestr(k, v)
    for given, name in [({"crossing.zip": buf.getvalue()}, "crossing.zip"),
                        (files, "crossing.xmi")]:
        loaded = load_files(given, name=name)
        assert loaded.format == "uima-xmi"
        assert _fragments(loaded, "crossing") == [("Tenby", "town"), ("Lundy", "island")]


def test_xmi_sofa_without_a_string_is_a_document_without_text() -> None:
    xmi = (DATA / "xmi_plain" / "fog.xmi").read_bytes().replace(
        b' mimeType="text" sofaString="Fog lifts slowly."', b"")
    loaded = load_files({"fog.xmi": xmi,
                         "TypeSystem.xml": (DATA / "xmi_plain" / "TypeSystem.xml").read_bytes()},
                        name="fog.xmi")
    assert loaded.texts["fog"] is None
    assert [(s.start, s.end) for s in loaded.sets[0].spans["fog"]] == [(0, 3), (4, 9), (10, 16)]
