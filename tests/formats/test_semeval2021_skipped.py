"""What the SemEval-2021 reader's decoder skips is still checked.

``msgspec`` decodes the fields the reader keeps and skips the others (an unknown key and its
value) without reading their bytes as text, while the format refuses a byte that is not UTF-8,
a lone surrogate or a control character anywhere in the file, as ``json`` does. Each such file
is refused, and the explaining pass names the error.
"""

from __future__ import annotations

import pytest

from core.formats import Loaded, ReadOptions, semeval2021
from core.model.errors import FormatError, expand_diagnostics


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


BAD_SKIPPED = [
    b'[{"id": "a", "labels": [], "note": "\xff"}]',  # not UTF-8, in a value nobody reads
    b'[{"id": "a", "labels": [], "n\xc3": 1}]',  # a truncated character in a key
    b'[{"id": "a", "labels": [], "note": "\\ud800"}]',  # a lone surrogate, skipped
    b'[{"id": "a", "labels": [], "\\udc00": 1}]',
    b'[{"id": "a", "labels": [{"technique": "t", "start": 0, "end": 1, "x": ["\\ud834x"]}]}]',
    b'[{"id": "a", "labels": [], "note": "a\x01"}]',  # a raw control character
]


@pytest.mark.parametrize("data", BAD_SKIPPED)
def test_what_the_decoder_skips_is_still_checked(data: bytes) -> None:
    assert semeval2021.read_fast(data, name="f", fname="f", options=ReadOptions()) is None
    fast, explained = outcome(semeval2021.read, data), outcome(semeval2021.explain, data)
    assert fast[0] == "error"
    assert fast == explained


@pytest.mark.parametrize("data", [
    b'[{"id": "a", "labels": [], "note": "caf\xc3\xa9 \xf0\x9f\x98\x80"}]',  # UTF-8, skipped
    b'\xef\xbb\xbf[{"id": "a", "labels": [], "text": "\xc3\xa9t\xc3\xa9"}]',
    b'[{"id": "a", "labels": [], "id": "b"}]',  # a repeated key: the last one, as json
])
def test_valid_unusual_files_are_read_by_msgspec(data: bytes) -> None:
    before = sum(semeval2021.RETOKENISED.values())
    assert semeval2021.read_fast(data, name="f", fname="f", options=ReadOptions()) is not None
    assert sum(semeval2021.RETOKENISED.values()) == before
    assert outcome(semeval2021.read, data)[0] == "ok"


def test_nan_in_a_skipped_value_is_read_through_the_standard_librarys_json() -> None:
    data = b'[{"id": "a", "labels": [], "note": NaN}]'  # json reads NaN, msgspec refuses it
    before = semeval2021.RETOKENISED["unusual"]
    assert outcome(semeval2021.read, data) == ("ok", (
        [("a", None)], [("f", "gold", [("a", ())])], []))
    assert semeval2021.RETOKENISED["unusual"] == before + 1


def test_utf8_check_spans_the_mib_boundaries() -> None:
    two_bytes = "é".encode()
    assert semeval2021._is_utf8(b"a" * ((1 << 20) - 1) + two_bytes)
    assert not semeval2021._is_utf8(b"a" * ((1 << 20) - 1) + two_bytes[:1])
    assert not semeval2021._is_utf8(b"a" * (1 << 20) + b"\xff")
