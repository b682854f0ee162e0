"""The SemEval-2021 fast reader's typed decode, piece by piece, reads what the precise reader reads.

The fast path (``semeval2021.read_fast``) decodes a large file a few MiB at a time, cutting the
list between documents; a cut that falls inside a text or between labels fails to decode and the
rest is decoded whole. Here the piece size is made tiny so that every file is cut many times,
texts and labels are written to look like the places a cut looks for, and the outcome is
compared with the precise reader's. Bytes the decoder skips without reading (an unknown key's
value) still have to be UTF-8 and free of lone surrogates, as the precise reader demands.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import FormatError, expand_diagnostics
from core.formats import Loaded, ReadOptions, semeval2021

LOOKALIKES = ['}, {"id": "z", "labels": []}', '},{"id":', "} ,\n {", "]}", "plain text "]
LABELS = ["Doubt", "a}, {\"id\": b", "Slogans"]


def outcome(reader: object, data: bytes) -> tuple[str, object]:
    """The reader's error message, or everything a caller can see of what it read."""
    try:
        loaded: Loaded = reader({"f.json": data}, name="in/f.json",  # type: ignore[operator]
                                options=ReadOptions())
    except FormatError as exc:
        return "error", str(exc)
    diags = list(expand_diagnostics(loaded.diagnostics))
    sets = [(s.name, s.role, list(s.spans.items())) for s in loaded.sets]
    return "ok", (list(loaded.texts.items()), sets, diags)


@st.composite
def corpora(draw: st.DrawFn) -> bytes:
    """Valid files whose texts and labels hold what a cut between documents looks for."""
    docs = []
    for i in range(draw(st.integers(0, 30))):
        text = "".join(draw(st.lists(st.sampled_from(LOOKALIKES), max_size=4)))
        entry: dict[str, object] = {"id": f"d{i}", "text": text} if draw(st.booleans()) \
            else {"text": text, "id": f"d{i}"}
        labels = []
        for _ in range(draw(st.integers(0, 4)) if len(text) > 1 else 0):
            start = draw(st.integers(0, len(text) - 1))
            labels.append({"id": "label-level id", "technique": draw(st.sampled_from(LABELS)),
                           "start": start, "end": draw(st.integers(start + 1, len(text)))})
        entry["labels"] = labels
        docs.append(entry)
    separators = draw(st.sampled_from([None, (",", ":"), (" ,\n ", " : ")]))
    return json.dumps(docs, indent=draw(st.sampled_from([None, 2])),
                      separators=separators).encode("utf-8")


@pytest.fixture
def tiny_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(semeval2021, "_PIECE", 16)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=corpora())
def test_pieces_give_the_documents_of_the_whole_file(tiny_pieces: None, data: bytes) -> None:
    pieces = [doc for piece in semeval2021._decode_pieces(data) for doc in piece]
    whole = json.loads(data)
    assert [(d.id, d.text, [(lab.technique, lab.start, lab.end) for lab in d.labels])
            for d in pieces] == [
        (d["id"], d["text"], [(lab["technique"], lab["start"], lab["end"])
                              for lab in d["labels"]]) for d in whole]
    fast = semeval2021.read_fast(data, name="in/f.json", fname="f.json", options=ReadOptions())
    assert fast is not None
    assert outcome(semeval2021.read, data) == outcome(semeval2021.read_precise, data)


def test_a_large_file_is_decoded_in_several_pieces(tiny_pieces: None) -> None:
    docs = [{"id": str(i), "text": "x" * 40, "labels": [
        {"technique": "Doubt", "start": 1, "end": 5}]} for i in range(50)]
    data = json.dumps(docs).encode()
    pieces = list(semeval2021._decode_pieces(data))
    assert len(pieces) > 5
    assert [d.id for piece in pieces for d in piece] == [str(i) for i in range(50)]


BAD_SKIPPED = [
    b'[{"id": "a", "labels": [], "note": "\xff"}]',  # not UTF-8, in a value nobody reads
    b'[{"id": "a", "labels": [], "n\xc3": 1}]',  # a truncated character in a key
    b'[{"id": "a", "labels": [], "note": "\\ud800"}]',  # a lone surrogate, skipped
    b'[{"id": "a", "labels": [], "\\udc00": 1}]',
    b'[{"id": "a", "labels": [{"technique": "t", "start": 0, "end": 1, "x": ["\\ud834x"]}]}]',
    b'[{"id": "a", "labels": [], "note": "a\x01"}]',  # a raw control character
    b'[{"id": "a", "labels": [], "note": NaN}]',
]


@pytest.mark.parametrize("data", BAD_SKIPPED)
def test_what_the_decoder_skips_is_still_checked(data: bytes) -> None:
    assert semeval2021.read_fast(data, name="f", fname="f", options=ReadOptions()) is None
    fast, precise = outcome(semeval2021.read, data), outcome(semeval2021.read_precise, data)
    assert fast == precise


@pytest.mark.parametrize("data", [
    b'[{"id": "a", "labels": [], "note": "\\ud834\\udd1e \xc3\xa9"}]',  # a pair, UTF-8
    b'\xef\xbb\xbf[{"id": "a", "labels": [], "text": "\\ud834\\udd1e"}]',
    b'[{"id": "a", "labels": [], "id": "b"}]',  # a repeated key: the last one, as json
])
def test_valid_unusual_files_stay_on_the_fast_path(data: bytes) -> None:
    assert semeval2021.read_fast(data, name="f", fname="f", options=ReadOptions()) is not None
    assert outcome(semeval2021.read, data) == outcome(semeval2021.read_precise, data)


def test_utf8_check_spans_the_mib_boundaries() -> None:
    two_bytes = "é".encode()
    assert semeval2021._is_utf8(b"a" * ((1 << 20) - 1) + two_bytes)
    assert not semeval2021._is_utf8(b"a" * ((1 << 20) - 1) + two_bytes[:1])
    assert not semeval2021._is_utf8(b"a" * (1 << 20) + b"\xff")
