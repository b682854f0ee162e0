"""Damaged files give a FormatError, never another exception (no traceback for the user)."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import load_files
from core.model.errors import SpanScopeError
from tests.formats.damage import damage

FORMATS_DIR = Path(__file__).resolve().parents[2] / "sample_data" / "formats"
PROP = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"

SOURCES = {
    "semeval2021": PROP / "system_b.json",
    "ptc": FORMATS_DIR / "ptc_system_a.tsv",
    "doccano": FORMATS_DIR / "doccano_system_a_entities.jsonl",
    "label-studio": FORMATS_DIR / "label_studio_annotators.json",
    "spans-csv": FORMATS_DIR / "spans_annotators.csv",
    "brat": FORMATS_DIR / "brat_annotator_1" / "8.ann",
}

# Replacement pieces chosen to hit the validation paths: numbers, signs, separators, JSON syntax.
PIECES = st.sampled_from(["-", "1", "9999", ".5", "\t", ",", "\n", '"', "{", "]", "null",
                          "true", "x", " ", "\xff", ";"])


@pytest.mark.parametrize("fmt", sorted(SOURCES))
@settings(deadline=None, max_examples=150)
@given(data=st.data())
def test_damaged_file_raises_only_format_errors(fmt: str, data: st.DataObject) -> None:
    raw = damage(SOURCES[fmt].read_bytes()[:3000], data, PIECES)
    name = SOURCES[fmt].name
    try:
        loaded = load_files({name: raw}, fmt=fmt, name=name)
    except SpanScopeError as exc:
        assert str(exc).startswith(name)  # the message names the file first
    else:
        assert loaded.sets and all(isinstance(d, str) for s in loaded.sets for d in s.spans)
