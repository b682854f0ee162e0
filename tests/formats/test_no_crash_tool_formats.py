"""Damaged WebAnno TSV (3 and 2), CoNLL, spaCy JSONL, XMI and Label Studio JSON-MIN files give a
FormatError naming the file, never another exception (issue 19; the same fuzzing as
``test_no_crash.py``)."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import load_files
from core.model.errors import SpanScopeError
from tests.formats.damage import damage

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data" / "formats"
SOURCES = {
    "webanno-tsv": SAMPLES / "inception_export" / "annotation" / "speech1.txt" / "alice.tsv",
    "conll": SAMPLES / "conll_system.conll",
    "spacy": SAMPLES / "spacy_ner.jsonl",
    "uima-xmi": SAMPLES / "xmi_export" / "speech1.xmi",
    "webanno-tsv2": (Path(__file__).resolve().parents[1] / "data" / "formats" / "inception"
                     / "tsv2_ner.tsv"),
    "label-studio": (Path(__file__).resolve().parents[1] / "data" / "formats" / "label-studio"
                     / "json_min.json"),
}
# Pieces that hit the format's own syntax: ids, offsets, stacking, escapes, tags, JSON, XML.
PIECES = st.sampled_from(["-", "1", "9999", "\t", "\n", "|", "[2]", "\\", "*", "_", "#Text=",
                          "B-", "I-X", "E", "-DOCSTART-", '"', "{", "]", "null", "<", "/>",
                          'begin="', "\xff", " ", "😊"])


@pytest.mark.parametrize("fmt", sorted(SOURCES))
@settings(deadline=None, max_examples=150)
@given(data=st.data())
def test_damaged_file_raises_only_format_errors(fmt: str, data: st.DataObject) -> None:
    files = {SOURCES[fmt].name: damage(SOURCES[fmt].read_bytes()[:3000], data, PIECES)}
    name = SOURCES[fmt].name
    if fmt == "uima-xmi":
        files["TypeSystem.xml"] = (SAMPLES / "xmi_export" / "TypeSystem.xml").read_bytes()
        name = "xmi"
    try:
        loaded = load_files(files, fmt=fmt, name=name)
    except SpanScopeError as exc:
        assert str(exc).startswith(name)
    else:
        assert loaded.sets
        for aset in loaded.sets:
            for doc, spans in aset:
                text = loaded.texts.get(doc)
                assert text is None or all(s.end <= len(text) for s in spans)
