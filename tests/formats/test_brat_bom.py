"""A brat ``.txt`` that starts with a byte order mark keeps it: brat's offsets count it."""

from __future__ import annotations

import codecs

from core.formats import load_files, write_files
from core.model import AnnotationSet, Span


def test_a_brat_text_with_a_byte_order_mark_keeps_its_offsets() -> None:
    text = "\ufeffFirst line in Berlin."
    gold = AnnotationSet("g", {"bom": (Span(1, 6, "X"), Span(15, 21, "Place"))}, "gold")
    written = write_files("brat", {"bom": text}, [gold])
    files = {name: body.encode("utf-8") for name, body in written.items()}
    assert files["bom.txt"].startswith(codecs.BOM_UTF8)
    loaded = load_files(files, fmt="brat", name="folder")
    back = loaded.texts["bom"]
    assert back == text
    assert [back[s.start:s.end] for s in loaded.set.spans["bom"]] == ["First", "Berlin"]
    assert not [d for d in loaded.diagnostics if "differs" in str(d)]
