"""The UIMA XMI reader against dkpro-cassis on generated CASes and on damaged copies of them
(issue 25 §2: one path gives the data, cassis only explains a refusal).

Each case is a CAS built with cassis's own API from a seeded random generator (span types with
string, integer, boolean, float and long features, float, integer, boolean, byte and string
arrays, integer lists, references, FS arrays and lists, some features allowing multiple
references, a subtype, a type named ``Token``, a second view, texts with characters beyond the
Basic Multilingual Plane) and written by ``Cas.to_xmi``. On every case the lxml reader
(:func:`core.formats.xmi._extract_fast`) must give what the reader used to take from cassis;
on every damaged copy (a value, an attribute, an element or a view member changed) it must
either give what cassis gives or refuse the file, and then cassis must refuse it too: a file
cassis reads that the reader refuses would be read by no one (and the reader says it is a bug).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import cassis
import pytest
from cassis import Cas, TypeSystem

from core.formats import ReadOptions, load_path, xmi
from tests.formats.test_xmi_fast_path import by_cassis, same

WORDS = ["ferry", "Tenby", "dawn", "🚢", "harbour", "🌅", "é", "gull", "tide", "x"]


def _typesystem(rnd: random.Random) -> TypeSystem:
    ts = TypeSystem()
    span = ts.create_type("test.Span", "uima.tcas.Annotation")
    for name, rng in (("value", "uima.cas.String"), ("rank", "uima.cas.Integer"),
                      ("sure", "uima.cas.Boolean"), ("weight", "uima.cas.Float"),
                      ("big", "uima.cas.Long"), ("scores", "uima.cas.FloatArray"),
                      ("ids", "uima.cas.IntegerArray"), ("flags", "uima.cas.BooleanArray"),
                      ("raw", "uima.cas.ByteArray"), ("words", "uima.cas.StringArray"),
                      ("counts", "uima.cas.IntegerList"), ("parts", "uima.cas.FSArray"),
                      ("chain", "uima.cas.FSList"), ("other", "uima.tcas.Annotation")):
        many = rng.endswith(("Array", "List")) and rnd.random() < 0.3
        ts.create_feature(span, name, rng, multipleReferencesAllowed=many)
    sub = ts.create_type("test.Sub", "test.Span")
    ts.create_feature(sub, "tag", "uima.cas.String")
    ts.create_type("test.Token", "test.Span")  # skipped as a layer, read under test.Span
    note = ts.create_type("test.Note", "uima.cas.TOP")
    ts.create_feature(note, "text", "uima.cas.String")
    return ts


def _text(rnd: random.Random) -> str:
    return " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 12)))


def _features(rnd: random.Random, ts: TypeSystem, earlier: list[Any]) -> dict[str, Any]:
    t = ts.get_type
    out: dict[str, Any] = {}
    if rnd.random() < 0.8:
        out["value"] = rnd.choice(["PER", "LOC", "", "a b", "<&>", "🚢"])
    if rnd.random() < 0.4:
        out["rank"] = rnd.randint(-3, 9)
    if rnd.random() < 0.4:
        out["sure"] = rnd.random() < 0.5
    if rnd.random() < 0.3:
        out["weight"] = rnd.choice([0.5, -1.0, float("inf"), float("nan")])
    if rnd.random() < 0.2:
        out["big"] = rnd.randint(-2**40, 2**40)
    if rnd.random() < 0.2:
        out["scores"] = t("uima.cas.FloatArray")(elements=[rnd.random() for _ in range(3)])
    if rnd.random() < 0.2:
        out["ids"] = t("uima.cas.IntegerArray")(elements=[rnd.randint(0, 9) for _ in range(2)])
    if rnd.random() < 0.2:
        out["flags"] = t("uima.cas.BooleanArray")(elements=[True, False])
    if rnd.random() < 0.2:
        out["raw"] = t("uima.cas.ByteArray")(elements=[1, 255])
    if rnd.random() < 0.2:
        out["words"] = t("uima.cas.StringArray")(elements=["p q", "r"])
    if rnd.random() < 0.2:
        out["counts"] = t("uima.cas.NonEmptyIntegerList")(
            head=rnd.randint(0, 5), tail=t("uima.cas.EmptyIntegerList")())
    if earlier and rnd.random() < 0.3:
        out["other"] = rnd.choice(earlier)
    if earlier and rnd.random() < 0.2:
        out["parts"] = t("uima.cas.FSArray")(elements=rnd.sample(earlier, 1))
    if earlier and rnd.random() < 0.2:
        out["chain"] = t("uima.cas.NonEmptyFSList")(head=rnd.choice(earlier),
                                                    tail=t("uima.cas.EmptyFSList")())
    return out


def _annotate(rnd: random.Random, ts: TypeSystem, view: Any, text: str,
              earlier: list[Any]) -> None:
    for _ in range(rnd.randint(0, 8)):
        begin = rnd.randint(0, len(text))
        end = min(len(text), begin + rnd.randint(0, 6))
        kind = rnd.choice(["test.Span", "test.Span", "test.Sub", "test.Token"])
        feats = _features(rnd, ts, earlier)
        if kind == "test.Sub" and rnd.random() < 0.5:
            feats["tag"] = rnd.choice(["t", "u"])
        ann = ts.get_type(kind)(begin=begin, end=end, **feats)
        view.add(ann)
        earlier.append(ann)
    if rnd.random() < 0.3:
        view.add(ts.get_type("test.Note")(text="n"))


def case(seed: int) -> tuple[str, str]:
    """A generated CAS: its type system and its XMI, both as cassis writes them."""
    rnd = random.Random(seed)
    ts = _typesystem(rnd)
    cas = Cas(typesystem=ts)
    text = _text(rnd)
    if rnd.random() < 0.9:
        cas.sofa_string = text
    earlier: list[Any] = []
    _annotate(rnd, ts, cas, text, earlier)
    if rnd.random() < 0.3:
        view = cas.create_view("second")
        other = _text(rnd)
        view.sofa_string = other
        _annotate(rnd, ts, view, other, earlier)
    return ts.to_xml(), cas.to_xmi()


DAMAGE = ["", "x", "0", "-1", "1.5", "true", "NaN", "99", "1 2", "ff", " 3"]


def damaged(xmi_text: str, rnd: random.Random) -> str:
    """One random change: an attribute value replaced or dropped, an element renamed, or
    a view member changed."""
    attributes = list(re.finditer(r'(\s[\w:]+)="([^"]*)"', xmi_text))
    how = rnd.random()
    if how < 0.7 and attributes:
        m = rnd.choice(attributes)
        new = "" if how < 0.1 else f'{m.group(1)}="{rnd.choice(DAMAGE)}"'
        return xmi_text[:m.start()] + new + xmi_text[m.end():]
    if how < 0.85:
        tags = list(re.finditer(r"<(test|cas):(\w+)", xmi_text))
        m = rnd.choice(tags)
        new = rnd.choice(["<test:Note", "<test:Sub", "<test:Token", "<cas:FSArray",
                          "<test:Nowhere", "<cas:IntegerArray"])
        return xmi_text[:m.start()] + new + xmi_text[m.end():]
    return xmi_text.replace('members="', f'members="{rnd.randint(0, 12)} ', 1)


SEEDS = range(120)
# cassis warns of the offsets it does not map (past the text), which it keeps as the reader does
pytestmark = pytest.mark.filterwarnings("ignore:Not mapping:UserWarning")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_cas_reads_as_cassis_reads_it(seed: int) -> None:
    ts_xml, xmi_text = case(seed)
    ts = cassis.load_typesystem(ts_xml)
    data = xmi_text.encode("utf-8")
    fast = xmi._extract_fast(data, xmi._Types(ts))
    assert isinstance(fast, xmi._Extract), fast
    same(fast, by_cassis(data, ts))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_damaged_cas_is_read_as_cassis_reads_it_or_refused_by_both(seed: int) -> None:
    ts_xml, xmi_text = case(seed)
    ts = cassis.load_typesystem(ts_xml)
    rnd = random.Random(seed)
    for _ in range(8):
        data = damaged(xmi_text, rnd).encode("utf-8")
        fast = xmi._extract_fast(data, xmi._Types(ts))
        if isinstance(fast, xmi._Extract):
            same(fast, by_cassis(data, ts))
        else:
            with pytest.raises(Exception):  # noqa: B017 - cassis raises many types
                by_cassis(data, ts)


def test_generated_cases_take_the_one_path_under_every_layer(tmp_path: Path) -> None:
    """The whole reader, on a folder of generated files, under the default and other layers
    (``test.Span`` subsumes ``test.Token``, which is read from the file parsed again): nothing
    refused."""
    for seed in range(20):  # each with its type system (features allow multiple references
        ts_xml, xmi_text = case(seed)  # or not at random)
        (tmp_path / f"doc{seed}").mkdir()
        (tmp_path / f"doc{seed}" / "alice.xmi").write_text(xmi_text, encoding="utf-8")
        (tmp_path / f"doc{seed}" / "TypeSystem.xml").write_text(ts_xml, encoding="utf-8")
    before = sum(xmi.FALLBACKS.values())
    spans = 0
    for layer, feature in ((None, None), ("test.Span", "rank"), ("test.Sub", "tag"),
                           ("test.Span", "sure")):
        loaded = load_path(str(tmp_path), fmt="uima-xmi",
                           options=ReadOptions(layer=layer, feature=feature,
                                               beyond_text="clip"))
        spans += sum(s.span_count() for s in loaded.sets)
    assert spans > 0
    assert sum(xmi.FALLBACKS.values()) == before


@pytest.mark.parametrize("seed", range(40))
def test_a_layer_over_a_skipped_type_reads_as_cassis_selects_it(seed: int) -> None:
    """``--layer test.Span`` subsumes ``test.Token`` (never a layer of its own): the reader
    parses the file again with it and gives what ``cas.select`` gives, in its order."""
    ts_xml, xmi_text = case(seed)
    ts = cassis.load_typesystem(ts_xml)
    again = xmi._extract_fast(xmi_text.encode("utf-8"), xmi._Types(ts, every=True))
    assert isinstance(again, xmi._Extract), again
    cas = cassis.load_cas_from_xmi(xmi_text, typesystem=ts)
    for feature in ("value", "rank", "sure"):
        got = xmi._select(again, "test.Span", feature, "Span", lambda: again)
        assert got == [(getattr(a, feature), a.begin, a.end) for a in cas.select("test.Span")]
