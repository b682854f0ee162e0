"""A file saved as Windows-1252 (or Latin-1) instead of UTF-8 says so (wild13 tour).

manuacostaf18/NLP@743d9c3 ``admin.jsonl``, a doccano export of Spanish reviews, was saved in
Windows-1252: its first '¿' is the byte 0xbf. The reader's refusal named the file, the line
and the byte, but not what to do; it now says how the text reads in Windows-1252 and to save
it as UTF-8. A file that holds UTF-8 sequences beside the bad byte (a damaged UTF-8 file) is
refused as before. The records here are made in that shape, with our texts.
"""

from __future__ import annotations

import json

import pytest

from core.formats import ReadOptions, load_files
from core.model.errors import FormatError


def _refusal(data: bytes) -> str:
    with pytest.raises(FormatError) as exc:
        load_files({"admin.jsonl": data}, fmt="doccano", options=ReadOptions())
    return str(exc.value)


def test_a_windows_1252_export_is_named_with_its_text() -> None:
    records = [{"id": 1, "text": "un articulo interesante", "label": []},
               {"id": 2, "text": "¿estoy en lo correcto? Sí, señor", "label": [[1, 6, "Q"]]}]
    data = "\n".join(json.dumps(r, ensure_ascii=False) for r in records).encode("cp1252")
    message = _refusal(data)
    assert "admin.jsonl:2: expected UTF-8 text, found byte 0xbf" in message
    assert ("the file reads as Windows-1252 (Latin-1), where byte 0xbf is '¿' "
            "('{\"id\": 2, \"text\": \"¿estoy en lo correcto? Sí, señ ...'): save it as UTF-8 "
            "and read it again") in message


def test_a_damaged_utf8_file_gets_no_encoding_hint() -> None:
    data = '{"id": 1, "text": "señor", "label": []}\n'.encode() + b'{"id": 2, "text": "\xbf"}\n'
    message = _refusal(data)
    assert message.endswith("admin.jsonl:2: expected UTF-8 text, found byte 0xbf")


def test_one_stray_byte_in_ascii_text_gets_no_encoding_hint() -> None:
    # One byte is not evidence of an encoding: a damaged file (the golden damaged-brat-4 has
    # one 0xff in ASCII text) is refused as before
    message = _refusal(b'{"id": 1, "text": "a0g\xff-]", "label": []}\n')
    assert message.endswith("admin.jsonl:1: expected UTF-8 text, found byte 0xff")


def test_a_bad_byte_after_a_byte_order_mark_is_named_as_it_is() -> None:
    """``utf-8-sig`` reports the bad byte's offset in the text after the byte order mark, which
    the message read in the file with it: three bytes early, so it named another byte (here
    the ``"`` two characters before the ``0xff``, on the line before) (review20)."""
    data = b'\xef\xbb\xbf{"id": 1, "text": "ab", "label": []}\n{"id": 2, "text": "\xff"}\n'
    message = _refusal(data)
    assert message.endswith("admin.jsonl:2: expected UTF-8 text, found byte 0xff")


def test_detection_names_a_binary_byte_after_a_byte_order_mark_at_its_offset() -> None:
    """Detection's "binary bytes at offset N" counted from after the byte order mark: three
    bytes early (review20)."""
    from core.formats._sniff import why_undetected

    data = b"\xef\xbb\xbfabcdef\xffghij"
    assert data[9] == 0xff
    assert why_undetected(data) == "not a text file (binary bytes at offset 9)"
