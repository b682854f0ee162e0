"""The default WebAnno TSV layer passes over a custom layer whose label feature holds only
identifiers (an MWE id, a Wikidata URL) when another span layer holds labels
(``core/formats/layers.py``). Files of our own, in the shape of two public exports that read
MWE ids 1, 2, ... and Wikidata URLs as labels before."""

from __future__ import annotations

import pytest

from core.formats import ReadOptions, load_files
from core.formats.layers import identifiers_only

NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"


def _tsv(custom: str, cells: list[tuple[str, str, str]]) -> bytes:
    """One sentence ``Ana met Bo in Rome``; per token (NE identifier, NE value, custom cell)."""
    tokens = ["Ana", "met", "Bo", "in", "Rome"]
    lines = ["#FORMAT=WebAnno TSV 3.3", f"#T_SP={NE}|identifier|value", f"#T_SP={custom}", "",
             "", "#Text=Ana met Bo in Rome"]
    at = 0
    for k, (token, (ident, value, extra)) in enumerate(zip(tokens, cells, strict=True)):
        lines.append(f"1-{k + 1}\t{at}-{at + len(token)}\t{token}\t{ident}\t{value}\t{extra}\t")
        at += len(token) + 1
    return ("\n".join(lines) + "\n").encode()


MWE = _tsv("webanno.custom.MWE|MWEid|MWEtype", [
    ("_", "PERS", "_\t_"), ("_", "_", "1[1]\tVID[1]"), ("_", "PERS", "1[1]\tVID[1]"),
    ("_", "_", "2\tADP"), ("_", "LOC", "_\t_")])
WIKIDATA = _tsv("webanno.custom.Ner4Archives|Wikidata_ID", [
    ("*", "PERS", "http://www.wikidata.org/entity/Q1"), ("_", "_", "_"),
    ("*", "PERS", "http://www.wikidata.org/entity/Q2"), ("_", "_", "_"),
    ("*", "LOC", "http://www.wikidata.org/entity/Q220")])


@pytest.mark.parametrize("data, layer, kind", [(MWE, "webanno.custom.MWE", "integers"),
                                               (WIKIDATA, "webanno.custom.Ner4Archives", "URLs")])
def test_a_custom_layer_of_identifiers_gives_way_to_named_entities(
        data: bytes, layer: str, kind: str) -> None:
    loaded = load_files({"doc.tsv": data})
    (spans,) = loaded.sets[0].spans.values()
    assert [(s.start, s.end, s.label) for s in spans] == [
        (0, 3, "PERS"), (8, 10, "PERS"), (14, 18, "LOC")]
    (note,) = [d.message for d in loaded.diagnostics]
    assert note.startswith(f"read layer {NE}, feature value (not {layer}: its feature ")
    assert f"holds only {kind} such as " in note and f"the input also holds {layer}" in note
    assert note.endswith("choose with --layer and --feature")


def test_the_identifiers_stay_readable_with_layer() -> None:
    loaded = load_files({"doc.tsv": MWE}, options=ReadOptions(layer="MWE"))
    (spans,) = loaded.sets[0].spans.values()
    assert sorted(s.label for s in spans) == ["1", "2"]


def test_a_custom_layer_of_labels_stays_the_default() -> None:
    data = MWE.replace(b"1[1]\tVID[1]", b"VID[1]\t1[1]").replace(b"2\tADP", b"ADP\t2")
    loaded = load_files({"doc.tsv": data})
    (spans,) = loaded.sets[0].spans.values()
    assert sorted(s.label for s in spans) == ["ADP", "VID"]


def test_identifiers_only_when_no_layer_holds_labels() -> None:
    data = MWE.replace(b"PERS", b"_").replace(b"LOC", b"_")
    loaded = load_files({"doc.tsv": data})
    (spans,) = loaded.sets[0].spans.values()
    assert sorted(s.label for s in spans) == ["1", "2"]


@pytest.mark.parametrize("sample, expected", [
    (["1", "2", "-3"], True), (["http://www.wikidata.org/entity/Q1", "Q42"], True),
    (["urn:x:1"], True), (["PERS", "1"], False), (["AdpID"], False), ([], False)])
def test_identifiers_only(sample: list[str], expected: bool) -> None:
    assert identifiers_only(sample) is expected
