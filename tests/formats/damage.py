"""Damage a file's bytes under hypothesis, for the no-crash tests of the readers."""

from __future__ import annotations

from hypothesis import strategies as st


def damage(raw: bytes, data: st.DataObject, pieces: st.SearchStrategy[str]) -> bytes:
    """``raw`` with one to four spans of up to three bytes replaced by a drawn piece ("\\xff"
    stays one invalid UTF-8 byte; other pieces are UTF-8)."""
    out = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(out)))
        cut = data.draw(st.integers(0, 3))
        piece = data.draw(pieces)
        out[at : at + cut] = piece.encode("latin-1") if piece == "\xff" else piece.encode("utf-8")
    return bytes(out)
