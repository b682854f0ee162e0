"""Spans that begin or end inside a character as it is drawn (a grapheme cluster).

A reader that gives no span text cannot tell the unit of its offsets (:mod:`core.model.units`),
but offsets counted in UTF-16 code units or UTF-8 bytes, or made on the text in another Unicode
normalization, land inside characters as a reader sees them: between a letter and its combining
accent, inside an emoji sequence joined by ZWJ, a flag, an emoji and its skin tone. Unicode's
extended grapheme clusters (UAX #29) are those characters; ``wcwidth`` segments them, imported
only when a text may hold one (it is not light: its package imports ``secrets``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

import numpy as np

from core.model import AnnotationSet
from core.model.errors import KindedText
from core.model.textsafe import visible


def inside_clusters(text: str, offsets: np.ndarray) -> np.ndarray:
    """Which ``offsets`` of ``text`` fall inside a grapheme cluster (a character as it is drawn:
    a letter and its combining marks, an emoji sequence joined by ZWJ, a flag, an emoji and its
    skin tone; Unicode's UAX #29 extended grapheme clusters, as ``wcwidth`` segments them); a
    break inside CRLF is whitespace, not counted.

    >>> inside_clusters("cafe\\u0301 👍🏽", np.array([3, 4, 5, 7])).tolist()
    [False, True, False, True]
    """
    out = np.zeros(len(offsets), dtype=bool)
    if text.isascii() or not len(offsets):
        return out
    import wcwidth  # only for a text that may hold a cluster of several code points

    lengths = [len(g) for g in wcwidth.iter_graphemes(text)]
    if len(lengths) == len(text):
        return out  # one code point per cluster: every offset is a boundary
    at = np.concatenate(([0], np.cumsum(lengths)))
    offsets = np.asarray(offsets, dtype=np.int64)
    idx = np.minimum(np.searchsorted(at, offsets), len(at) - 1)
    out = (offsets > 0) & (offsets < len(text)) & (at[idx] != offsets)
    for k in np.flatnonzero(out).tolist():
        p = int(offsets[k])
        if text[p - 1:p + 1] == "\r\n":
            out[k] = False
    return out


_ZWJ = "\u200d"


def _may_split(text: str, p: int) -> bool:
    """A cheap test that may be wrong only one way: False when ``p`` surely is a grapheme
    cluster boundary of ``text`` (the character at ``p`` extends no cluster)."""
    if not 0 < p < len(text):
        return False
    ch = text[p]
    if ch.isascii():
        return False
    code = ord(ch)
    return (unicodedata.category(ch)[0] == "M" or ch == _ZWJ or text[p - 1] == _ZWJ
            or 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF  # variation, skin tone
            or 0x1F1E6 <= code <= 0x1F1FF or 0xE0020 <= code <= 0xE007F  # flags, tag flags
            or 0x1160 <= code <= 0x11FF or 0xD7B0 <= code <= 0xD7FF)  # Hangul vowels, finals


def split_warnings(sets: Sequence[tuple[str, AnnotationSet]], texts: Mapping[str, str | None],
                   owners: str | Mapping[str, str] | None = None) -> list[str]:
    """One warning per set (``(file, set)`` pairs) whose spans begin or end inside a character
    as it is drawn (:func:`inside_clusters`) of their text: offsets counted in UTF-16 units or
    bytes, or made on a text in another Unicode normalization, land there; a file that gives no
    span text cannot be converted (:func:`core.model.units.recount`), so the user is told.
    ``owners`` names the file each text was read from (one name, or the name per document, as
    :func:`core.model.texts.reconcile`'s ``there``): a warning whose first document's text is
    another file's says so (``on the text of gold.json``), since a file's spans are checked
    against the first text given for their document, and spans carried onto another file's
    text (:mod:`core.model.texts`) have that text's offsets, not their file's.
    Spans past the text are left to :mod:`core.model.bounds`, which calls this. One pass over
    the spans tests the character at each edge (:func:`_may_split`); the few that may split a
    cluster are segmented exactly."""
    out: list[str] = []
    for source, aset in sets:
        table = aset.table
        own = [texts.get(d) for d in table.doc_ids]
        plain = np.fromiter((t is None or t.isascii() for t in own), dtype=bool,
                            count=len(own))
        if plain.all():
            continue  # an ASCII text has no cluster of several code points but CRLF
        rows = np.flatnonzero(~plain[table.doc])  # the spans of texts that may hold one
        docs, starts, ends = (table.doc[rows].tolist(), table.start[rows].tolist(),
                              table.end[rows].tolist())
        maybe: dict[int, list[int]] = {}
        for k, d, start, end in zip(rows.tolist(), docs, starts, ends, strict=True):
            text = own[d]
            assert text is not None
            if end <= len(text) and (_may_split(text, start) or _may_split(text, end)):
                maybe.setdefault(d, []).append(k)
        found, first = 0, None
        for d, found_rows in maybe.items():
            text = own[d]
            assert text is not None
            at = np.array(found_rows)
            bad = inside_clusters(text, table.start[at]) | inside_clusters(text, table.end[at])
            if bad.any():
                found += int(bad.sum())
                if first is None:
                    k = int(at[np.flatnonzero(bad)[0]])
                    first = (table.doc_ids[d], int(table.start[k]), int(table.end[k]),
                             table.labels[int(table.label[k])], text)
        if first is not None:
            doc, s, e, label, text = first
            piece = visible(text[s:e], marks=True)
            owner = owners if isinstance(owners, str) or owners is None else owners.get(doc)
            where = f" on the text of {owner}" if owner is not None and owner != source else ""
            out.append(KindedText(f"{source}: {aset.name}: {found} span(s) begin or end inside a "
                       "character "
                       "as it is drawn (between a letter and its combining mark, inside an "
                       f"emoji sequence or a flag; first: document {doc!r} [{s}, {e}) "
                       f"{label!r}, '{piece}'{where}); the offsets may count UTF-16 code units or "
                       "bytes, or have been made on the text in another Unicode normalization",
                       "split-character"))
    return out
