"""The unit a file counts its offsets in: code points, UTF-16 code units or UTF-8 bytes.

SpanScope's offsets count Python characters (code points). Tools count otherwise: JavaScript
string indices are UTF-16 code units (Label Studio's exports before it stored code points,
issue 1347 of its tracker and its pull request 1559; INCEpTION's WebAnno TSV, UIMA), and a tool
that indexes the encoded file counts UTF-8 bytes. Read as code points, such offsets land on the
wrong characters after the first character outside the Basic Multilingual Plane (an emoji, a CJK
extension ideograph such as U+20BB7) or, for bytes, after the first character outside ASCII; a
span near the end then ends past the text.

When a file gives each span's own text (Label Studio's ``value.text``, SemEval-2021's
``text_fragment``, brat's text column) the unit can be told: the offsets are read as code points
first; when a span's text is not at its offsets read so but is at them read as UTF-16 code units
or UTF-8 bytes, the file is read again in that unit, and kept so when every span of the file
fits it (its offsets fall between characters, within the text, and a span that gives its text
finds it there). The offsets are then converted to code points and one warning per file names the
unit (:func:`note`). When no unit fits every span, the file is read as code points, and a span
past its text is refused with a message that names the units tried (:func:`past_text`): it
advises ``--clip-spans`` only when no unit fits that span at all, never for offsets that count
another unit (clipping them keeps spans on the wrong characters).

A reader takes part by passing each span's offsets, its text and the file's
:class:`Offsets` (``ReadOptions.offsets``) to :func:`place`, or :func:`recount` for a reader that
holds a whole file in columns; :func:`core.formats.load_files` runs the reads
(:func:`each_unit`). ``docs/formats.md``, "Offsets in other units".
"""

from __future__ import annotations

import threading
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

import numpy as np

from core.model import bounds
from core.model.errors import KindedText

Unit = Literal["code points", "UTF-16 code units", "UTF-8 bytes"]
CODE_POINTS: Unit = "code points"
UTF16: Unit = "UTF-16 code units"
UTF8: Unit = "UTF-8 bytes"
UNITS: tuple[Unit, ...] = (CODE_POINTS, UTF16, UTF8)
OTHERS: tuple[Unit, ...] = (UTF16, UTF8)

_WHO = {
    UTF16: "JavaScript string indices",
    UTF8: "byte offsets into the UTF-8 file",
}


def widths(text: str, unit: Unit) -> np.ndarray:
    """How many ``unit`` each character of ``text`` takes (1 per code point for code points).

    >>> widths("a😀é", "UTF-16 code units").tolist(), widths("a😀é", "UTF-8 bytes").tolist()
    ([1, 2, 1], [1, 4, 2])
    """
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if unit == CODE_POINTS:
        return np.ones(len(codes), dtype=np.int64)
    if unit == UTF16:
        return 1 + (codes > 0xFFFF).astype(np.int64)
    return (1 + (codes > 0x7F).astype(np.int64) + (codes > 0x7FF).astype(np.int64)
            + (codes > 0xFFFF).astype(np.int64))


@dataclass
class _Bounds:
    """The ``unit`` offset of every character boundary of one text (the last text asked for is
    kept: a reader asks for the spans of one document together)."""

    text: str | None = None
    unit: Unit = CODE_POINTS
    at: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

    def of(self, text: str, unit: Unit) -> np.ndarray:
        if self.text is not text or self.unit != unit:
            self.at = np.concatenate(([0], np.cumsum(widths(text, unit))))
            self.text, self.unit = text, unit
        return self.at


_LOCAL = threading.local()  # one cache per thread: the dashboard reads files in several


def _bounds() -> _Bounds:
    cache: _Bounds | None = getattr(_LOCAL, "bounds", None)
    if cache is None:
        cache = _LOCAL.bounds = _Bounds()
    return cache


def to_code_points(text: str, start: int, end: int, unit: Unit) -> tuple[int, int] | None:
    """``[start, end)`` counted in ``unit`` as code point offsets into ``text``; None when an
    offset falls inside a character or past the text.

    >>> to_code_points("😀 Paris", 3, 8, "UTF-16 code units")
    (2, 7)
    >>> to_code_points("😀 Paris", 1, 3, "UTF-16 code units") is None  # inside the emoji
    True
    """
    if unit == CODE_POINTS:
        return (start, end) if 0 <= start <= end <= len(text) else None
    at = _bounds().of(text, unit)
    if start < 0 or end > int(at[-1]) or end < start:
        return None
    s, e = np.searchsorted(at, [start, end]).tolist()
    if int(at[s]) != start or int(at[e]) != end:
        return None
    return s, e


def from_code_points(text: str, start: int, end: int, unit: Unit) -> tuple[int, int]:
    """Code point offsets ``[start, end)`` of ``text`` counted in ``unit``.

    >>> from_code_points("😀 Paris", 2, 7, "UTF-8 bytes")
    (5, 10)
    """
    at = _bounds().of(text, unit)
    return int(at[start]), int(at[end])


def _same(found: str, given: str) -> bool:
    """Whether a span's text ``given`` by the file is ``found`` at its offsets (line breaks
    compared as spaces: brat writes them so)."""
    return found == given or (found.replace("\r", " ").replace("\n", " ")
                               == given.replace("\r", " ").replace("\n", " "))


def fits(text: str, start: int, end: int, fragment: str | None, unit: Unit) -> bool:
    """Whether ``[start, end)`` read in ``unit`` falls between characters of ``text``, within
    it, and finds ``fragment`` there (when the file gives it).

    >>> fits("😀 Paris", 3, 8, "Paris", "UTF-16 code units"), fits("😀 Paris", 3, 8, "Paris",
    ...                                                          "code points")
    (True, False)
    """
    got = to_code_points(text, start, end, unit)
    if got is None:
        return False
    return fragment is None or _same(text[got[0]:got[1]], fragment)


@dataclass(frozen=True)
class Offsets:
    """How one read of a file takes its offsets (``ReadOptions.offsets``).

    ``unit``: the unit the offsets are read in. ``watch``: code points, and a span whose text
    is not at its offsets but is at them in another unit stops the read (:class:`Retry`) to read
    the file again in that unit. ``rest``: the other units that fitted the span that started this
    read, tried next when a span does not fit ``unit``. ``failed``: the units that did not fit
    the file, each with the first span that did not fit it, for the messages."""

    unit: Unit = CODE_POINTS
    watch: bool = False
    rest: tuple[Unit, ...] = ()
    failed: tuple[tuple[Unit, int, int, str | None], ...] = ()

    @property
    def converting(self) -> bool:
        """Whether offsets are converted (a reader's shortcut for spans that need nothing
        must not take them)."""
        return self.unit != CODE_POINTS

    def place(self, text: str | None, start: int, end: int, fragment: str | None
              ) -> tuple[int, int]:
        """``[start, end)`` as code points of ``text``; raises :class:`Retry` when this read
        cannot go on (see the class)."""
        if text is None:
            return start, end
        if self.unit == CODE_POINTS:
            if not self.watch or fragment is None or fits(text, start, end, fragment,
                                                          CODE_POINTS):
                return start, end
            tried = {u for u, *_ in self.failed}
            other = tuple(u for u in OTHERS
                          if u not in tried and fits(text, start, end, fragment, u))
            if other:
                raise Retry(Offsets(other[0], rest=other[1:], failed=self.failed))
            return start, end
        got = to_code_points(text, start, end, self.unit)
        if got is None or (fragment is not None and not _same(text[got[0]:got[1]], fragment)):
            failed = (*self.failed, (self.unit, start, end, fragment))
            if self.rest:
                raise Retry(Offsets(self.rest[0], rest=self.rest[1:], failed=failed))
            raise Retry(Offsets(CODE_POINTS, watch=False, failed=failed))
        return got


WATCH = Offsets(watch=True)
"""The first read of a file: code points, watching for another unit."""


class Retry(Exception):
    """A read stopped to be done again with :attr:`then` (never leaves :func:`each_unit`)."""

    def __init__(self, then: Offsets) -> None:
        super().__init__(then.unit)
        self.then = then


T = TypeVar("T")


def each_unit(read: Callable[[Offsets], T]) -> tuple[T, Offsets]:
    """``read(offsets)`` from :data:`WATCH` on, again with the unit each :class:`Retry` names,
    until a read finishes: its result and the offsets it used (at most four reads: code
    points, the two other units, code points again)."""
    offsets = WATCH
    while True:
        try:
            return read(offsets), offsets
        except Retry as again:
            offsets = again.then


def note(offsets: Offsets, count: int | None = None) -> str | None:
    """The warning, once per file, for offsets read in another unit (None for code points).

    >>> note(Offsets("UTF-16 code units"))[:62]
    'the offsets count UTF-16 code units (JavaScript string indices'
    """
    if not offsets.converting:
        return None
    moved = "" if count is None else f" ({count} spans moved)"
    return KindedText(f"the offsets count {offsets.unit} ({_WHO[offsets.unit]}), not "
                      "characters: every span's own text is found at them only so; converted to "
                      f"characters{moved}", "offset-units")


def past_text(text: str, start: int, end: int, fragment: str | None,
              failed: Sequence[tuple[Unit, int, int, str | None]] = ()) -> str:
    """A reader's message for a span ``[start, end)`` past ``text`` that gives its own text
    ``fragment``: the units tried, and ``--clip-spans`` advised only when no unit fits the
    span (offsets in another unit are fixed by converting them, not by clipping).

    >>> past_text("😀 Paris", 3, 8, "Paris", [("UTF-16 code units", 9, 12, "now")])[:74]
    'expected an offset within the text (length 7), got 8; read as UTF-16 code '
    """
    if fragment is None:
        return bounds.past_text(len(text), end)
    head = f"expected an offset within the text (length {len(text)}), got {end}; "
    other = [u for u in OTHERS if fits(text, start, end, fragment, u)]
    if other:
        where = ""
        for u, s, e, f in failed:
            if u == other[0]:
                where = f" (the first that does not: [{s}, {e})" + \
                    (f", {f[:40]!r})" if f is not None else ")")
                break
        return (head + f"read as {other[0]} the offsets find the span's text {fragment[:40]!r}, "
                f"but not every span of the file does{where}; fix the offsets (clipping them would "
                "keep spans on the wrong characters)")
    return (head + f"the span's text {fragment[:40]!r} is not at these offsets counted in code "
            f"points, UTF-16 code units or UTF-8 bytes; fix the offsets, or {bounds.CLI_CHOICE}")


def recount(texts: Sequence[str | None], counts: Sequence[int],
            starts: MutableSequence[int] | np.ndarray, ends: MutableSequence[int] | np.ndarray,
            fragments: Sequence[str | None] | None) -> Offsets:
    """The unit of a whole file held in columns (per document its text and span count, per
    span its offsets and given text): code points unless a span's text is not at its offsets
    read so and another unit fits every span; ``starts`` and ``ends`` are converted in place.
    Returns the offsets used (:func:`note` words the warning)."""
    if fragments is None or all(t is None or t.isascii() for t in texts):
        # In ASCII every unit counts alike: nothing to tell apart (and no pass of slices).
        return Offsets()
    owner = np.repeat(np.arange(len(texts)), np.asarray(counts, dtype=np.int64)).tolist()
    # the first span whose text is not at its code point offsets (most files have none: one
    # pass of slices, as the fragment warnings make)
    k0 = next((k for k, f in enumerate(fragments) if f is not None
               and (t := texts[owner[k]]) is not None and t[starts[k]:ends[k]] != f
               and not fits(t, int(starts[k]), int(ends[k]), f, CODE_POINTS)), None)
    if k0 is None:
        return Offsets()
    text0 = texts[owner[k0]]
    assert text0 is not None
    spans = [(t, k) for k, i in enumerate(owner) if (t := texts[i]) is not None]
    for unit in OTHERS:
        if not fits(text0, int(starts[k0]), int(ends[k0]), fragments[k0], unit):
            continue
        placed = [to_code_points(text, int(starts[k]), int(ends[k]), unit) for text, k in spans]
        if all(p is not None and ((f := fragments[k]) is None or _same(text[p[0]:p[1]], f))
               for p, (text, k) in zip(placed, spans, strict=True)):
            for p, (_, k) in zip(placed, spans, strict=True):
                assert p is not None
                starts[k], ends[k] = p
            return Offsets(unit)
    return Offsets()


def recount_records(records: object, *, text: str = "text", spans: str = "labels",
                    start: str = "start", end: str = "end", fragment: str = "text_fragment"
                    ) -> Offsets:
    """:func:`recount` over parsed JSON documents (``records``, a list of objects, each with
    its ``text`` and a list of ``spans`` objects): the offsets of a file's explaining pass
    converted in place as its columnar pass converts them. Values of another type are left
    for the reader to refuse."""
    if not isinstance(records, list):
        return Offsets()
    texts: list[str | None] = []
    counts: list[int] = []
    items: list[dict[str, object]] = []
    for record in records:
        own = record.get(spans) if isinstance(record, dict) else None
        good = [x for x in own if isinstance(x, dict) and type(x.get(start)) is int
                and type(x.get(end)) is int] if isinstance(own, list) else []
        value = record.get(text) if isinstance(record, dict) else None
        texts.append(value if isinstance(value, str) else None)
        counts.append(len(good))
        items.extend(good)
    frags: list[str | None] = [f if isinstance(f := x.get(fragment), str) else None
                               for x in items]
    starts = np.array([x[start] for x in items], dtype=object)
    ends = np.array([x[end] for x in items], dtype=object)
    offsets = recount(texts, counts, starts, ends, frags)
    if offsets.converting:
        for k, x in enumerate(items):
            x[start], x[end] = int(starts[k]), int(ends[k])
    return offsets
