"""The UIMA XMI reader's fast path against dkpro-cassis (issue 29, target 6).

:func:`core.formats.xmi._extract_fast` reads the span layers of an XMI with lxml; what it
refuses (a reason, counted in :data:`core.formats.xmi.FALLBACKS`) is read by cassis as before.
These tests check that, on every file it accepts, it gives what the reader took from cassis
(text, layers in their order, relation layers, each annotation's offsets, xmi id and label
features), that it refuses what it does not handle, and that the repository's XMI files and
the benchmark's take it.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import warnings
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

import cassis
import pytest

from core.formats import ReadOptions, load_path, xmi
from core.formats.archive import unpack_zips
from core.model.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
# cassis warns of offsets it does not map (past the text or a view's text: kept as they are,
# as the reader keeps them) and of the feature ``self`` it renames
pytestmark = [pytest.mark.filterwarnings("ignore:Not mapping:UserWarning"),
              pytest.mark.filterwarnings("ignore:Trying to add feature:UserWarning")]

TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier"><types>
<typeDescription><name>webanno.custom.Span</name><supertypeName>uima.tcas.Annotation</supertypeName>
<features>
<featureDescription><name>value</name><rangeTypeName>uima.cas.String</rangeTypeName></featureDescription>
<featureDescription><name>rank</name><rangeTypeName>uima.cas.Integer</rangeTypeName></featureDescription>
<featureDescription><name>sure</name><rangeTypeName>uima.cas.Boolean</rangeTypeName></featureDescription>
</features></typeDescription>
<typeDescription><name>webanno.custom.Other</name><supertypeName>uima.tcas.Annotation</supertypeName>
<features>
<featureDescription><name>tag</name><rangeTypeName>uima.cas.String</rangeTypeName></featureDescription>
</features></typeDescription>
<typeDescription><name>webanno.custom.Link</name><supertypeName>uima.tcas.Annotation</supertypeName>
<features>
<featureDescription><name>Governor</name><rangeTypeName>webanno.custom.Span</rangeTypeName></featureDescription>
<featureDescription><name>Dependent</name><rangeTypeName>webanno.custom.Span</rangeTypeName></featureDescription>
</features></typeDescription>
<typeDescription><name>webanno.custom.Weighed</name><supertypeName>uima.tcas.Annotation</supertypeName>
<features>
<featureDescription><name>weight</name><rangeTypeName>uima.cas.Float</rangeTypeName></featureDescription>
</features></typeDescription>
<typeDescription><name>webanno.custom.Rich</name><supertypeName>uima.tcas.Annotation</supertypeName>
<features>
<featureDescription><name>value</name><rangeTypeName>uima.cas.String</rangeTypeName></featureDescription>
<featureDescription><name>scores</name><rangeTypeName>uima.cas.FloatArray</rangeTypeName></featureDescription>
<featureDescription><name>flags</name><rangeTypeName>uima.cas.BooleanArray</rangeTypeName></featureDescription>
<featureDescription><name>bytes</name><rangeTypeName>uima.cas.ByteArray</rangeTypeName></featureDescription>
<featureDescription><name>tags</name><rangeTypeName>uima.cas.StringArray</rangeTypeName></featureDescription>
<featureDescription><name>shared</name><rangeTypeName>uima.cas.IntegerArray</rangeTypeName>
<multipleReferencesAllowed>true</multipleReferencesAllowed></featureDescription>
<featureDescription><name>counts</name><rangeTypeName>uima.cas.IntegerList</rangeTypeName></featureDescription>
<featureDescription><name>parts</name><rangeTypeName>uima.cas.FSArray</rangeTypeName></featureDescription>
<featureDescription><name>chain</name><rangeTypeName>uima.cas.FSList</rangeTypeName></featureDescription>
<featureDescription><name>self</name><rangeTypeName>uima.cas.Integer</rangeTypeName></featureDescription>
<featureDescription><name>mood</name><rangeTypeName>webanno.custom.Mood</rangeTypeName></featureDescription>
</features></typeDescription>
<typeDescription><name>webanno.custom.Mood</name><supertypeName>uima.cas.String</supertypeName>
<allowedValues><value><string>calm</string></value></allowedValues></typeDescription>
<typeDescription><name>webanno.custom.Note</name><supertypeName>uima.cas.TOP</supertypeName>
<features><featureDescription><name>text</name><rangeTypeName>uima.cas.String</rangeTypeName></featureDescription>
</features></typeDescription>
<typeDescription><name>de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token</name>
<supertypeName>uima.tcas.Annotation</supertypeName></typeDescription>
</types></typeSystemDescription>
"""

HEAD = ('<?xml version="1.0" encoding="UTF-8"?><xmi:XMI xmlns:xmi="http://www.omg.org/XMI" '
        'xmlns:cas="http:///uima/cas.ecore" xmlns:custom="http:///webanno/custom.ecore" '
        'xmlns:type="http:///de/tudarmstadt/ukp/dkpro/core/api/segmentation/type.ecore" '
        'xmi:version="2.0"><cas:NULL xmi:id="0"/>')


def doc(text: str, elements: list[str], members: str | None = None, tail: str = "") -> bytes:
    ids = members if members is not None else " ".join(
        e.split('xmi:id="')[1].split('"')[0] for e in elements if 'xmi:id="' in e)
    return (HEAD + "".join(elements)
            + f'<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" mimeType="text" '
            f'sofaString={quoteattr(text)}/><cas:View sofa="1" members="{ids}"/>{tail}'
            "</xmi:XMI>").encode("utf-8")


def span(i: int, b: int | str, e: int, extra: str = "", kind: str = "custom:Span") -> str:
    return f'<{kind} xmi:id="{i}" sofa="1" begin="{b}" end="{e}" {extra}/>'


TEXT = "Ferries leave Tenby at dawn and return by dusk."
EMOJI = "Ferries 🚢 leave 🌅 Tenby at dawn 🐚 and return."

SECOND = '<cas:Sofa xmi:id="9" sofaNum="2" sofaID="other" sofaString={}/>'


def rich(i: int, extra: str, children: str = "") -> str:
    return (f'<custom:Rich xmi:id="{i}" sofa="1" begin="0" end="7" value="r" {extra}>'
            f"{children}</custom:Rich>")


ACCEPTED = {
    "plain": doc(TEXT, [span(2, 0, 7, 'value="boat"'), span(3, 14, 19, 'value="town" rank="2"'),
                        span(4, 14, 19, 'sure="true"'), span(5, 0, 7, 'value="boat"')]),
    "layers in members order": doc(TEXT, [span(2, 0, 7, 'value="a"'),
                                          span(3, 8, 13, 'tag="b"', "custom:Other")],
                                   members="3 2"),
    "not a member": doc(TEXT, [span(2, 0, 7, 'value="a"'), span(3, 8, 13, 'value="b"')],
                        members="2"),
    "tokens skipped": doc(TEXT, [span(2, 0, 7, "", "type:Token"), span(3, 0, 7, 'value="a"')]),
    "emoji": doc(EMOJI, [span(2, 8, 10, 'value="ship"'), span(3, 17, 19, 'value="sun"'),
                         span(4, 20, 25, 'value="town"'), span(5, 9, 10, 'value="half"'),
                         span(6, 40, 60, 'value="past"')]),
    "past the text": doc(TEXT, [span(2, 40, 80, 'value="long"')]),
    "relation": doc(TEXT, [span(2, 0, 7, 'value="a"'), span(3, 14, 19, 'value="b"'),
                           span(4, 14, 19, 'Governor="2" Dependent="3"', "custom:Link")]),
    "escaped": doc("a &lt;b&gt; \"c\"", [span(2, 0, 3, 'value="&lt;x&amp;y&gt;"')]),
    "no view": doc(TEXT, [], members=""),
    "float feature": doc(TEXT, [span(2, 0, 7, 'weight="0.5"', "custom:Weighed"),
                                span(3, 0, 7, 'weight="NaN"', "custom:Weighed"),
                                span(4, 0, 7, 'weight="-Infinity"', "custom:Weighed")]),
    "second view": doc(TEXT, [span(2, 0, 7, 'value="a"')], tail=SECOND.format('"x"')),
    "second view with members": doc(
        TEXT, [span(2, 0, 7, 'value="a"'), span(3, 8, 13, 'value="b"'),
               '<custom:Span xmi:id="4" sofa="9" begin="0" end="1" value="c"/>'], members="2",
        tail=SECOND.format('"x"') + '<cas:View sofa="9" members="3 4"/>'),
    "a member of both views, two emoji texts": doc(
        EMOJI, [span(2, 8, 10, 'value="a"'), span(3, 17, 19, 'value="b"')],
        tail=SECOND.format('"🚢🚢🚢 x"') + '<cas:View sofa="9" members="2"/>'),
    "a member listed twice": doc(EMOJI, [span(2, 8, 10, 'value="a"')], members="2 2"),
    "the second view first": doc(
        TEXT, [span(2, 0, 7, 'value="a"')],
        tail=SECOND.format('"x"') + '<cas:View sofa="9" members="2"/>'),
    "no initial view": doc(TEXT, [span(2, 0, 7, 'value="a"')]).replace(
        b'sofaID="_InitialView"', b'sofaID="other"'),
    "no offsets": doc(TEXT, ['<custom:Span xmi:id="2" sofa="1" value="a"/>']),
    "arrays, lists and references": doc(TEXT, [
        span(2, 0, 7, 'value="a"'), '<cas:IntegerArray xmi:id="3" elements="1 2"/>',
        '<custom:Note xmi:id="4" text="n"/>', '<cas:FloatArray xmi:id="5" elements=""/>',
        rich(6, 'scores="0.5 1e3 NaN" flags="true false" bytes="0aff" shared="3" '
                'counts="1 -2" parts="2 4" chain="2 4" self="3"',
             "<tags>x</tags><tags>y z</tags>"),
        rich(7, 'counts=""', "<chain>2</chain><chain>4</chain><tags/>"),
        '<cas:StringArray xmi:id="8"><elements>u</elements></cas:StringArray>',
        '<cas:FSArray xmi:id="9" elements="2 3"/>']),
    "ids written otherwise, as cassis's int() reads them": doc(
        TEXT, [span(2, 0, 7, 'value="a"').replace('xmi:id="2"', 'xmi:id="02"'),
               span(3, 8, 13, 'value="b"'),
               span(4, 14, 19, 'Governor="+2" Dependent=" 3"', "custom:Link")],
        members="2 03 4").replace(b'View sofa="1"', b'View sofa="01"'),
    "a repeated xmi:id: the last element is the one": doc(
        TEXT, [span(2, 0, 7, 'value="a"'), span(2, 8, 13, 'value="b"'),
               '<custom:Note xmi:id="3" text="n"/>', span(3, 0, 7, 'value="c"')],
        members="2 3"),
    "comments and processing instructions": doc(TEXT, [
        "<!-- a note -->", span(2, 0, 7, 'value="a"'), "<?pi x?>"]).replace(
        b"</xmi:XMI>", b"<!-- end --></xmi:XMI>"),
}

REFUSED = {
    "unknown type": (doc(TEXT, [span(2, 0, 7, "", "custom:Nowhere")]), "types"),
    "unknown feature": (doc(TEXT, [span(2, 0, 7, 'colour="red"')]), "features"),
    "bad integer": (doc(TEXT, [span(2, 0, 7, 'rank="two"')]), "values"),
    "bad boolean": (doc(TEXT, [span(2, 0, 7, 'sure="yes"')]), "values"),
    "bad float": (doc(TEXT, [span(2, 0, 7, 'weight="heavy"', "custom:Weighed")]), "values"),
    "dangling reference": (doc(TEXT, [span(2, 0, 7, 'Governor="9" Dependent="9"',
                                           "custom:Link")]), "ids"),
    "dangling member": (doc(TEXT, [span(2, 0, 7, 'value="a"')], members="2 8"), "ids"),
    "token with another attribute": (doc(TEXT, [span(2, 0, 7, 'pos="NN"', "type:Token")]),
                                     "features"),
    "token with a bad offset": (doc(TEXT, [span(2, "x", 7, "", "type:Token")]), "values"),
    "token without a sofa": (doc(TEXT, ['<type:Token xmi:id="2" begin="0" end="7"/>']), "sofa"),
    "a sofa that is none": (doc(TEXT, [span(2, 0, 7, 'value="a"').replace('sofa="1"',
                                                                          'sofa="0"')]), "sofa"),
    "a view of a bad member": (doc(TEXT, [span(2, 0, 7, 'value="a"')], members="2 x"),
                               "values"),
    "a view of a sofa that is no number": (doc(TEXT, [span(2, 0, 7, 'value="a"')]).replace(
        b'View sofa="1"', b'View sofa="one"'), "values"),
    "two views of one name": (doc(TEXT, [], tail=SECOND.format('"x"') + SECOND.replace(
        '"9"', '"8"').format('"y"')), "views"),
    "an inline string array": (doc(TEXT, [rich(2, 'tags="a b"')]), "values"),
    "a bad float array": (doc(TEXT, [rich(2, 'scores="0.5 much"')]), "values"),
    "a bad byte array": (doc(TEXT, [rich(2, 'bytes="xyz"')]), "values"),
    "a bad integer list": (doc(TEXT, [rich(2, "", "<counts>1</counts><counts>x</counts>")]),
                           "values"),
    "a restricted string value": (doc(TEXT, [rich(2, 'mood="calm"')]), "values"),
    "a dangling list item": (doc(TEXT, [rich(2, 'chain="2 44"')]), "ids"),
    "a nested element": (doc(TEXT, [rich(2, "", "<tags><x/></tags>")]), "markup"),
    "an offset written as a child element": (doc(TEXT, [
        '<custom:Span xmi:id="2" sofa="1" end="7"><begin>0</begin></custom:Span>']), "features"),
    "not an XMI root": (b'<?xml version="1.0"?><other/>', "markup"),
    "not XML": (b"<xmi:XMI", "syntax"),
}


def typesystem() -> Any:
    return cassis.load_typesystem(TYPES)


def extract(cas: Any) -> xmi._Extract:
    """What the reader takes of a CAS that dkpro-cassis loaded (the reader read it so until
    issue 25): the initial view's text, its span layers in the order of
    ``select_all_annotations``, and per type its annotations sorted by begin, end, xmi id."""
    by_type: dict[str, tuple[tuple[str, ...], list[tuple[int, int, int, tuple[Any, ...]]]]] = {}
    skipped = xmi._Skipped(cas.typesystem)
    layers: dict[str, list[str]] = {}
    relations: set[str] = set()
    for ann in cas.select_all_annotations():
        tname = ann.type.name
        if skipped(tname):
            continue
        entry = by_type.get(tname)
        if entry is None:
            names = tuple(f.name for f in ann.type.all_features
                          if f.name not in ("begin", "end", "sofa"))
            entry = by_type[tname] = (names, [])
            xmi._add_layer(cas.typesystem, ann.type, layers, relations)
        entry[1].append((ann.begin, ann.end, ann.xmiID,
                         tuple(getattr(ann, f, None) for f in entry[0])))
    for _, records in by_type.values():
        records.sort(key=lambda r: r[:3])
    return xmi._Extract(cas.sofa_string, layers, relations, cas.typesystem, by_type)


def by_cassis(data: bytes, ts: Any) -> Any:
    return extract(cassis.load_cas_from_xmi(data.decode("utf-8"), typesystem=ts))


def same(fast: Any, slow: Any) -> None:
    assert fast.text == slow.text
    assert list(fast.layers.items()) == list(slow.layers.items())
    assert fast.relations == slow.relations
    assert list(fast.by_type) == list(slow.by_type)
    for tname, (names, records) in slow.by_type.items():
        assert fast.by_type[tname][0] == names
        labels = [i for i, n in enumerate(names) if n in fast.layers.get(tname, ())]
        assert [(r[:3], [r[3][i] for i in labels]) for r in fast.by_type[tname][1]] == [
            (r[:3], [r[3][i] for i in labels]) for r in records]


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_fast_path_gives_what_cassis_gives(name: str) -> None:
    ts = typesystem()
    # cassis warns of the offsets it cannot map (kept as they are, as the fast path keeps them)
    with pytest.warns(UserWarning) if name in ("emoji", "past the text") else nullcontext():
        slow = by_cassis(ACCEPTED[name], ts)
    fast = xmi._extract_fast(ACCEPTED[name], xmi._Types(ts))
    assert isinstance(fast, xmi._Extract), fast
    same(fast, slow)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_the_fast_path_refuses_cassis_refuses(name: str) -> None:
    data, reason = REFUSED[name]
    assert xmi._extract_fast(data, xmi._Types(typesystem())) == reason
    with pytest.raises(Exception):  # noqa: B017 - cassis raises many types
        by_cassis(data, typesystem())


def test_a_refused_file_is_counted_and_explained_by_cassis(tmp_path: Path) -> None:
    (tmp_path / "TypeSystem.xml").write_text(TYPES, encoding="utf-8")
    (tmp_path / "a.xmi").write_bytes(REFUSED["dangling member"][0])
    before = xmi.FALLBACKS["ids"]
    with pytest.raises(FormatError) as err:
        load_path(str(tmp_path), fmt="uima-xmi")
    assert xmi.FALLBACKS["ids"] == before + 1
    assert str(err.value) == (f"{tmp_path / 'a.xmi'}: expected UIMA CAS XMI: KeyError: 8")


def test_a_file_cassis_reads_is_never_read_by_cassis(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: cassis only explains a refusal. Were the reader to refuse a file cassis reads
    (a bug, made here on purpose), the error says so and no span comes from cassis."""
    (tmp_path / "TypeSystem.xml").write_text(TYPES, encoding="utf-8")
    (tmp_path / "a.xmi").write_bytes(ACCEPTED["plain"])
    monkeypatch.setattr(xmi, "_extract_fast", lambda data, types: "values")
    with pytest.raises(FormatError, match=r"refused this file \(a feature value of the wrong "
                       r"kind.*but dkpro-cassis reads it: this is a bug in SpanScope"):
        load_path(str(tmp_path), fmt="uima-xmi")


def child(feature: str, *values: str) -> bytes:
    inner = "".join(f"<{feature}>{v}</{feature}>" for v in values)
    return doc(TEXT, [f'<custom:Span xmi:id="2" sofa="1" begin="0" end="7">{inner}'
                      "</custom:Span>", span(3, 14, 19, 'value="town"')])


def test_a_string_feature_written_as_one_child_element_is_read_as_its_attribute(
        tmp_path: Path) -> None:
    """UIMA's XmiCasDeserializer reads ``<value>boat</value>`` as ``value="boat"``; cassis
    accepts it too, but keeps the text in a one-element list: the reader takes that element,
    never reports the file as its own bug."""
    ts = typesystem()
    (cas_value,) = [a.value for a in cassis.load_cas_from_xmi(
        child("value", "boat").decode(), typesystem=ts).select_all_annotations()
        if a.begin == 0]
    assert cas_value == ["boat"]
    fast = xmi._extract_fast(child("value", "boat"), xmi._Types(ts))
    attribute = xmi._extract_fast(doc(TEXT, [span(2, 0, 7, 'value="boat"'),
                                             span(3, 14, 19, 'value="town"')]), xmi._Types(ts))
    assert isinstance(fast, xmi._Extract) and isinstance(attribute, xmi._Extract)
    same(fast, attribute)
    (tmp_path / "TypeSystem.xml").write_text(TYPES, encoding="utf-8")
    (tmp_path / "a.xmi").write_bytes(child("value", "boat"))
    loaded = load_path(str(tmp_path), fmt="uima-xmi")
    assert [(s.start, s.end, s.label) for s in loaded.sets[0].spans["a"]] == [
        (0, 7, "boat"), (14, 19, "town")]


@pytest.mark.parametrize(("feature", "values", "said", "cassis_reads"), [
    ("value", ("boat", "ship"), "Span holds one String in this feature, written here as 2 "
     "child elements <value>; UIMA XMI allows one", [["boat", "ship"]]),
    ("rank", ("3",), "Span holds one integer in this feature, written here as a child element "
     "<rank>; UIMA XMI writes numbers and booleans as attributes", None),
    ("sure", ("true",), "Span holds one Boolean in this feature, written here as a child "
     "element <sure>", None),
])
def test_a_feature_of_one_value_in_child_elements_is_an_error_naming_line_and_feature(
        tmp_path: Path, feature: str, values: tuple[str, ...], said: str,
        cassis_reads: list[list[str]] | None) -> None:
    """cassis reads two Strings as a list and refuses a number or boolean without naming the
    feature: either way the error names the line and the feature, and blames the file."""
    data = child(feature, *values).replace(b"<custom:Span", b"\n<custom:Span", 1)
    with nullcontext() if cassis_reads else pytest.raises((TypeError, ValueError)):
        cas = cassis.load_cas_from_xmi(data.decode(), typesystem=typesystem())
        assert [getattr(a, feature) for a in cas.select_all_annotations()
                if a.begin == 0] == cassis_reads
    (tmp_path / "TypeSystem.xml").write_text(TYPES, encoding="utf-8")
    (tmp_path / "a.xmi").write_bytes(data)
    before = xmi.FALLBACKS["single"]
    with pytest.raises(FormatError) as err:
        load_path(str(tmp_path), fmt="uima-xmi")
    assert xmi.FALLBACKS["single"] == before + 1
    assert str(err.value).startswith(f"{tmp_path / 'a.xmi'}:2: field '{feature}': {said}")
    assert "bug" not in str(err.value)


def test_integer_and_boolean_labels_read_as_cassis_writes_them(tmp_path: Path) -> None:
    (tmp_path / "TypeSystem.xml").write_text(TYPES, encoding="utf-8")
    (tmp_path / "a.xmi").write_bytes(doc(TEXT, [span(2, 0, 7, 'rank="3" sure="false"')]))
    for feature, label in (("rank", "3"), ("sure", "False")):
        loaded = load_path(str(tmp_path), fmt="uima-xmi",
                           options=ReadOptions(layer="webanno.custom.Span", feature=feature))
        assert [s.label for s in loaded.sets[0].spans["a"]] == [label]


@pytest.mark.parametrize("folder", ["tests/data/formats/inception/xmi_plain",
                                    "tests/data/formats/inception/xmi_nested",
                                    "tests/data/formats/inception/xmi_relation",
                                    "sample_data/formats/xmi_export"])
def test_the_repository_files_take_the_fast_path(folder: str) -> None:
    before = sum(xmi.FALLBACKS.values())
    loaded = load_path(str(ROOT / folder), fmt="uima-xmi")
    assert sum(s.span_count() for s in loaded.sets) > 0
    assert sum(xmi.FALLBACKS.values()) == before


def test_the_bench_files_take_the_fast_path(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    for module in ("bench_xmi", "bench_read", "bench_format_memory"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    importlib.import_module("bench_xmi").write(tmp_path, 20)
    ts = cassis.load_typesystem((tmp_path / "TypeSystem.xml").read_text(encoding="utf-8"))
    for path in sorted(tmp_path.glob("*.xmi")):
        fast = xmi._extract_fast(path.read_bytes(), xmi._Types(ts))
        assert isinstance(fast, xmi._Extract), (path.name, fast)
        same(fast, by_cassis(path.read_bytes(), ts))


def _repository_inputs() -> dict[str, dict[str, bytes]]:
    """Every XMI input of the repository, as the reader's files: the golden inputs
    (``tests/formats/golden/``, damaged ones included) and the ``.xmi`` files and zips of
    ``tests/data/`` and ``sample_data/``."""
    golden = importlib.util.spec_from_file_location("golden_for_xmi", ROOT / "scripts/golden.py")
    assert golden is not None and golden.loader is not None
    script = importlib.util.module_from_spec(golden)
    sys.modules[golden.name] = script  # dataclasses look their module up
    golden.loader.exec_module(script)
    inputs: dict[str, dict[str, bytes]] = {}
    for path in sorted((ROOT / "tests/formats/golden").glob("*.json")):
        stored = json.loads(path.read_text(encoding="utf-8"))
        if stored["format"] == "uima-xmi":
            inputs[path.name] = unpack_zips(script.input_bytes(stored["input"]),
                                            stored["source"])
    for top in ("tests/data", "sample_data"):
        for found in sorted((ROOT / top).rglob("*")):
            if found.suffix == ".xmi" or (found.suffix == ".zip" and b".xmi" in
                                          found.read_bytes()):
                files = {found.name: found.read_bytes()}
                if found.suffix == ".xmi":  # with its type system, as a single file brings it
                    files.update(xmi.type_system_above(found))
                inputs[found.relative_to(ROOT).as_posix()] = unpack_zips(files, found.name)
    return inputs


def test_cassis_reads_no_repository_file_that_the_reader_refuses() -> None:
    """Issue 25 §2: on every XMI file of the repository (golden inputs, damaged ones
    included, test data, samples), the reader's one path gives what cassis gives, or both
    refuse the file; the repository's undamaged files are never refused."""
    inputs = _repository_inputs()
    assert len(inputs) >= 20
    read = refused = 0
    for name, files in inputs.items():
        for path in sorted(p for p in files if p.endswith(".xmi")):
            ts_path = xmi._typesystem_for(path, files)
            assert ts_path is not None, (name, path)
            ts = cassis.load_typesystem(files[ts_path].decode("utf-8"))
            try:
                data = files[path].decode("utf-8").encode("utf-8")
            except UnicodeDecodeError:  # refused before any XMI is parsed
                continue
            fast = xmi._extract_fast(data, xmi._Types(ts))
            if isinstance(fast, xmi._Extract):
                read += 1
                with warnings.catch_warnings():  # offsets past the text, kept by both
                    warnings.simplefilter("ignore")
                    same(fast, by_cassis(data, ts))
            else:
                refused += 1
                assert name.startswith("damaged-"), (name, path, fast)
                with pytest.raises(Exception):  # noqa: B017 - cassis raises many types
                    by_cassis(data, ts)
    assert read > 40 and refused > 0
