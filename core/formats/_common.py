"""Validation shared by every reader: offsets, spans, labels, ids, JSON positions, warnings.

Every reader turns raw values into :class:`~core.model.Span` objects through these helpers so
that one wording is used everywhere (``STYLE.md``; issue 2, "Bad input"): a
:class:`~core.model.errors.FormatError` names the file, the line (or JSON path), the field, what was
expected and what was found, e.g. ``pred.tsv:17: field 'end': expected an integer greater than
start (12), got '9'``. Suspicious but usable values (a ``text_fragment`` that differs from the
text, a span that starts or ends in whitespace, a skipped record) become warnings on the
:class:`~core.formats.Loaded` result, so nothing is dropped silently.

Deliberate differences from the official scorers (``docs/formats.md``):
``10.7`` is refused where the SemEval-2021 scorer truncates it with ``int()``; duplicate
document ids are refused where it keeps the last entry; a numeric id is converted to a string
with a warning where it would compare ``1`` and ``"1"`` as different documents.
"""

from __future__ import annotations

import bisect
import contextlib
import csv
import dataclasses
import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from core.model import AnnotationSet, Span, units
from core.model.bounds import Policy
from core.model.errors import FormatError, KindedText
from core.model.textsafe import (
    MAX_OFFSET_DIGITS,
    HugeNumber,
    describe_digits,
    fragment_repr,
    lone_surrogates,
    one_line,
    parse_json_float,
    parse_json_int,
)

if TYPE_CHECKING:
    from core.formats import Loaded

_INT_RE = re.compile(r"[+]?[0-9]+\Z")


def _shown(value: object) -> str:
    """How a found value is quoted in a message (strings quoted, long values shortened)."""
    try:
        text = (repr(value) if isinstance(value, str)
                else json.dumps(value, ensure_ascii=False, default=repr))
    except (RecursionError, ValueError):
        text = f"a deeply nested {type(value).__name__}"
    text = one_line(text)
    return text if len(text) <= 60 else text[:57] + "..."


def csv_problem(exc: Exception) -> str:
    """What the csv module's error means, for a message that also names the file and line.

    >>> csv_problem(csv.Error("field larger than field limit (131072)"))
    "a field is longer than the CSV reader's limit (131,072 characters)"
    """
    if "field limit" in str(exc):
        return f"a field is longer than the CSV reader's limit ({csv.field_size_limit():,} " \
            "characters)"
    return f"malformed CSV: {exc}"


def parse_offset(
    value: object,
    file: str,
    *,
    field: str,
    line: int | None = None,
    path: str | None = None,
) -> int:
    """A character offset: a non-negative int, or a string of decimal digits such as ``"10"``.

    Strings are accepted because the SemEval-2021 scorer passes offsets through ``int()``
    (conformance case ``s21_string_offsets_accepted``); floats, booleans and other strings are
    refused instead of being truncated as that scorer does with ``10.7``.

    >>> parse_offset("10", "p.json", field="start")
    10
    >>> parse_offset(10.7, "p.json", field="end", line=3)
    Traceback (most recent call last):
    ...
    core.model.errors.FormatError: p.json:3: field 'end': expected a non-negative integer offset,
    got 10.7
    """
    if isinstance(value, bool):
        found: object = value
    elif isinstance(value, int):
        if value >= 10**MAX_OFFSET_DIGITS:
            raise FormatError(
                file, f"expected a non-negative integer offset, got {describe_digits(str(value))}",
                line=line, field=field, path=path,
            )
        if value >= 0:
            return value
        raise FormatError(
            file, f"expected a non-negative integer offset, got {value}",
            line=line, field=field, path=path,
        )
    elif isinstance(value, str):
        stripped = value.strip()
        if _INT_RE.match(stripped) and len(stripped.lstrip("+0")) > MAX_OFFSET_DIGITS:
            raise FormatError(
                file, f"expected a non-negative integer offset, got {describe_digits(stripped)}",
                line=line, field=field, path=path,
            )
        if _INT_RE.match(stripped):
            return int(stripped)
        if re.fullmatch(r"-[0-9]+", stripped):
            raise FormatError(
                file, f"expected a non-negative integer offset, got {_shown(value)}",
                line=line, field=field, path=path,
            )
        found = value
    else:
        found = value
    if value is None:
        found_text = "null"
    elif isinstance(found, (HugeNumber, float)):
        found_text = repr(found)
    else:
        found_text = _shown(found)
    raise FormatError(
        file, f"expected a non-negative integer offset, got {found_text}",
        line=line, field=field, path=path,
    )


def digit_offset(value: str) -> int | None:
    """The offset a string gives as :func:`parse_offset` reads it (decimal digits, a ``+``
    and whitespace around allowed, at most ``MAX_OFFSET_DIGITS`` significant digits), else
    None: the columnar readers convert such cells with it and refuse the rest.

    >>> digit_offset(" +007 "), digit_offset("7.0"), digit_offset("-1")
    (7, None, None)
    """
    stripped = value.strip()
    if _INT_RE.match(stripped) and len(stripped.lstrip("+0")) <= MAX_OFFSET_DIGITS:
        return int(stripped)
    return None


def make_span(
    start: object,
    end: object,
    label: object,
    file: str,
    *,
    line: int | None = None,
    path: str | None = None,
    text: str | None = None,
    fields: tuple[str, str, str] = ("start", "end", "label"),
    beyond_text: Policy,
    fragment: str | None = None,
    offsets: units.Offsets | None = None,
) -> Span:
    """Validate raw offsets and a label and build a :class:`Span`.

    ``fields`` are the names the format gives to start, end and label, used in messages. When the
    document ``text`` is known, ``end`` must not pass its length unless ``beyond_text`` (the
    reader's ``ReadOptions.beyond_text``, :mod:`core.model.bounds`) keeps such spans.
    ``fragment`` is the span's own text when the file gives it, and ``offsets`` the unit the
    read takes offsets in (``ReadOptions.offsets``, :mod:`core.model.units`): the offsets are
    converted to code points, and a span past the text is refused naming the units tried.

    >>> make_span(3, "9", "Doubt", "g.json", beyond_text="refuse")
    Span(start=3, end=9, label='Doubt')
    >>> make_span(12, 9, "Doubt", "pred.tsv", line=17, beyond_text="refuse")
    Traceback (most recent call last):
    ...
    core.model.errors.FormatError: pred.tsv:17: field 'end': expected an integer greater than start
    (12), got '9'
    """
    f_start, f_end, f_label = fields
    s = parse_offset(start, file, field=f_start, line=line, path=_join(path, f_start))
    e = parse_offset(end, file, field=f_end, line=line, path=_join(path, f_end))
    if e <= s:
        raise FormatError(
            file, f"expected an integer greater than start ({s}), got '{e}'",
            line=line, field=f_end, path=_join(path, f_end),
        )
    if not isinstance(label, str) or not label.strip():
        raise FormatError(
            file, f"expected a non-empty label string, got {_shown(label)}",
            line=line, field=f_label, path=_join(path, f_label),
        )
    if offsets is not None:
        s, e = offsets.place(text, s, e, fragment)
    if text is not None and e > len(text) and beyond_text == "refuse":
        raise FormatError(
            file,
            units.past_text(text, s, e, fragment, offsets.failed if offsets else ()),
            line=line, field=f_end, path=_join(path, f_end),
        )
    return Span(s, e, label)


def _join(path: str | None, field: str) -> str | None:
    """``[3].labels[0]`` + ``end`` -> ``[3].labels[0].end`` (None stays None)."""
    if path is None:
        return None
    return f"{path}.{field}" if path else field


def check_label(
    label: str,
    allowed: Sequence[str] | None,
    file: str,
    *,
    field: str,
    line: int | None = None,
    path: str | None = None,
) -> None:
    """Refuse a label outside the given label list (exact, case-sensitive match).

    >>> check_label("Loaded language", ["Loaded Language", "Doubt"], "p.json", field="technique")
    Traceback (most recent call last):
    ...
    core.model.errors.FormatError: p.json: field 'technique': expected one of the 2 labels ...
    (did you mean 'Loaded Language'?)
    """
    if allowed is None or label in allowed:
        return
    close = difflib.get_close_matches(label, list(allowed), n=1, cutoff=0.6)
    if not close:
        lowered = {a.lower(): a for a in allowed}
        if label.lower() in lowered:
            close = [lowered[label.lower()]]
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise FormatError(
        file,
        f"expected one of the {len(allowed)} labels of the label list, got {label!r}{hint}",
        line=line, field=field, path=path,
    )


def span_warnings(
    span: Span,
    text: str | None,
    *,
    fragment: str | None = None,
    fragment_field: str = "text_fragment",
) -> list[tuple[str, str | None]]:
    """Warnings (message, field) about a valid span: fragment mismatch, whitespace at an edge.

    A ``fragment`` given by the file that differs from ``text[start:end]`` is reported with both
    strings (the official 2021 test gold has five such spans, ``docs/formats.md``). A span
    that begins or ends in whitespace is reported with its fragment: most annotation guidelines
    exclude it, and it changes the character counts of the Da San Martino metric.

    >>> span_warnings(Span(0, 3, "X"), "ab cd")
    [("the span [0, 3) ends in whitespace: 'ab '", None)]
    """
    out: list[tuple[str, str | None]] = []
    if text is None:
        return out
    actual = text[span.start : span.end]
    if fragment is not None and fragment != actual:
        out.append(
            (
                KindedText(f"the fragment given, {fragment_repr(fragment)}, differs from the "
                           f"text at [{span.start}, {span.end}), {fragment_repr(actual)}; the "
                           "offsets are used", "fragment-mismatch"),
                fragment_field,
            )
        )
    if actual[:1].isspace() or actual[-1:].isspace():
        edge = "begins" if actual[:1].isspace() else "ends"
        if actual[:1].isspace() and actual[-1:].isspace():
            edge = "begins and ends"
        out.append(
            (KindedText(f"the span [{span.start}, {span.end}) {edge} in whitespace: "
                        f"{fragment_repr(actual)}", "whitespace"), None)
        )
    return out


def check_doc_id(
    value: object, file: str, *, field: str = "id", line: int | None = None,
    path: str | None = None,
) -> tuple[str, str | None]:
    """A document id as a string, and a warning when it had to be converted from a number.

    >>> check_doc_id(7, "g.json")[0]
    '7'
    >>> check_doc_id(7, "g.json")[1]
    "a numeric id 7 is read as the string '7' (the official 2021 scorer would treat 7 and '7' ..."
    """
    if isinstance(value, str):
        if not value.strip():
            raise FormatError(
                file, "expected a non-empty document id, got ''", line=line, field=field,
                path=path,
            )
        return value, None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value), KindedText(
            f"a numeric id {value} is read as the string '{value}' (the official 2021 scorer "
            f"would treat {value} and '{value}' as different documents)", "document-ids")
    raise FormatError(
        file, f"expected a document id (a string), got {_shown(value)}",
        line=line, field=field, path=path,
    )


class DuplicateIds:
    """Remember where each document id was seen; a second sighting is a FormatError naming both.

    The official 2021 scorer silently keeps the last entry (``s21_duplicate_document_id_in_
    prediction``); silently merging or replacing would change a score, so we refuse.
    """

    def __init__(self, file: str, what: str = "document id") -> None:
        self.file = file
        self.what = what
        self.seen: dict[str, str] = {}

    def add(
        self, doc_id: str, where: str, *, line: int | None = None, path: str | None = None,
        field: str = "id",
    ) -> None:
        if doc_id in self.seen:
            raise FormatError(
                self.file,
                f"duplicate {self.what} {doc_id!r}: first at {self.seen[doc_id]}, again at "
                f"{where}; each document must appear once",
                line=line, field=field, path=path,
            )
        self.seen[doc_id] = where


def sorted_spans(spans: Mapping[str, Iterable[Span]]) -> dict[str, tuple[Span, ...]]:
    """Per document, spans sorted by (start, end, label); keys keep their order."""
    return {doc: tuple(sorted(items)) for doc, items in spans.items()}


def duplicate_span_warnings(spans: Sequence[Span]) -> list[Span]:
    """Spans that occur more than once (kept: a duplicate prediction counts twice in P and R)."""
    seen: set[Span] = set()
    dups: list[Span] = []
    for span in spans:
        if span in seen:
            dups.append(span)
        seen.add(span)
    return dups


def single_set(sets: Sequence[AnnotationSet], fmt: str) -> AnnotationSet:
    """The one set a single-set format can write, or a FormatError naming the choices."""
    if len(sets) != 1:
        names = ", ".join(s.name for s in sets) or "none"
        raise FormatError(
            "<output>",
            f"the {fmt} format holds one annotation set, got {len(sets)} ({names}); "
            "choose one with --set NAME",
        )
    return sets[0]


def member_name(folder: str, path: str) -> str:
    """How messages name a file of a folder input: ``gold/article1.labels``."""
    return f"{folder.rstrip('/')}/{path}" if folder and folder != "<folder>" else path


def set_name_of(source: str) -> str:
    """The default annotation set name of an input: its file or folder name without extension.

    >>> set_name_of("sample_data/propaganda/system_a.json")
    'system_a'
    >>> set_name_of("runs/gold/")
    'gold'
    """
    name = PurePosixPath(source.replace("\\", "/").rstrip("/")).name or source
    for suffix in (".jsonl", ".json", ".tsv", ".labels", ".csv", ".txt", ".ann"):
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


# --- JSON with positions -------------------------------------------------------------------

def _decode_json(file: str, raw: str, line: int | None = None) -> Any:
    """``json.loads`` that raises only :class:`FormatError` on bad input.

    Besides syntax errors, refuses what the standard decoder lets through or crashes on: nesting
    deep enough to exhaust the recursion limit, numbers with more digits than Python converts
    (kept as :class:`~core.model.textsafe.HugeNumber` so the reader names the field), and
    ``\\udfff`` escapes that decode to lone surrogates, which no UTF-8 output can hold.
    """
    try:
        value = json.loads(raw, parse_int=parse_json_int, parse_float=parse_json_float)
    except json.JSONDecodeError as exc:
        raise FormatError(
            file, f"malformed JSON at column {exc.colno}: {exc.msg}",
            line=exc.lineno if line is None else line,
        ) from None
    except RecursionError:
        raise FormatError(file, "malformed JSON: nested too deeply", line=line) from None
    except ValueError as exc:  # pragma: no cover - a number the hooks above did not catch
        raise FormatError(file, f"malformed JSON: {exc}", line=line) from None
    if _SURROGATE_ESCAPE.search(raw):
        for where, found in lone_surrogates(value):
            path = json_path(*where)
            at = line if line is not None else JsonLocator(raw).line(*where)
            raise FormatError(
                file, "expected valid Unicode text, got a lone surrogate (a \\ud800-\\udfff "
                f"escape without its pair) in {_shown(found)}", line=at, path=path or None,
            )
    return value


def load_json(file: str, text: str) -> Any:
    """Parse JSON; a syntax error becomes a FormatError with line and column.

    >>> load_json("g.json", '[{"id": "1",}]')
    Traceback (most recent call last):
    ...
    core.model.errors.FormatError: g.json:1: malformed JSON at column 13: Expecting property name
    ...
    """
    return _decode_json(file, text)


def iter_jsonl(file: str, text: str) -> list[tuple[int, Any]]:
    """Parse JSON Lines: ``(line number, value)`` per non-blank line; errors name line and column.

    Blank lines are allowed (many exporters end with one); a malformed line is an error rather
    than a skipped record.
    """
    out: list[tuple[int, Any]] = []
    # Split on "\n" only: a JSON string may hold U+2028 and others that splitlines() breaks on.
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        out.append((number, _decode_json(file, raw, number)))
    return out


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_NUMBER_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_WS = " \t\n\r"
_WS_RUN = re.compile(r"[ \t\n\r]*")


class JsonLocator:
    """Line numbers of the values of a JSON document, by path, computed on first use.

    Used only to put a line number next to a JSON path in messages, so the cost (one extra
    pass in Python) is paid only when there is something to report.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._pos: dict[tuple[str | int, ...], int] = {}
        self._one_line: bool | None = None
        self._marks = [0]  # offsets whose line is known, ascending: the newlines are counted
        self._mark_lines = [1]  # from the nearest one before, never twice from the start
        self._items: list[int] | None = None  # start offsets of a top-level array's elements
        # elements ((index,), or (key, index) under a top-level key; or -1: the whole text)
        # already scanned
        self._scanned: set[int | tuple[str | int, ...]] = set()
        self._shallow: set[tuple[str | int, ...]] = set()  # elements whose members are known
        self._members: dict[str, list[int] | None] = {}  # key -> its array's element offsets

    def items_found(self, starts: list[int]) -> None:
        """The start offsets of a top-level array's elements, each after the whitespace
        before it, as a reader that decoded the array one element at a time (``raw_decode``)
        found them all: the index :meth:`line` would otherwise build with a second decoding
        of the whole array."""
        self._items = starts

    def line(self, *path: str | int) -> int | None:
        """The 1-based line where the value at ``path`` starts (None if unknown).

        A top-level array is indexed once with the C decoder (``raw_decode`` per element,
        unless :meth:`items_found` gave the index) and only the elements asked about are
        scanned in Python, so a message about one record of a large file costs little; a file
        on one line needs no scan at all. The line is the count of newlines before the value
        from the nearest offset asked about before it, so messages in file order count each
        newline once.
        """
        if self._one_line is None:
            text = self.text
            end = len(text)
            while end and text[end - 1].isspace():  # the length of text.rstrip(), no copy
                end -= 1
            first = text.find("\n")
            self._one_line = first == -1 or first >= end
        if self._one_line:
            return 1  # the whole document is on its first line
        # The text parsed as JSON already; a locator failure only loses a line number.
        with contextlib.suppress(IndexError, ValueError, RecursionError):
            self._locate(path)
        offset = self._pos.get(tuple(path))
        if offset is None:
            return None
        k = bisect.bisect_right(self._marks, offset) - 1
        line = self._mark_lines[k] + self.text.count("\n", self._marks[k], offset)
        if self._marks[k] != offset:
            self._marks.insert(k + 1, offset)
            self._mark_lines.insert(k + 1, line)
        return line

    def _locate(self, path: tuple[str | int, ...]) -> None:
        start = self._skip(0)
        if (self.text[start] == "{" and len(path) >= 2 and isinstance(path[0], str)
                and isinstance(path[1], int)):
            # An element of a list under a top-level key (the NER Annotator's
            # {"classes": [...], "annotations": [...]}): that list is indexed as a top-level
            # array is, not the whole text scanned in Python (2/3 of reading a 3.5 MiB export).
            items = self._member_items(start, path[0])
            if items is not None:
                self._element(items, (path[0], path[1]), path)
                return
        if self.text[start] != "[" or not path or not isinstance(path[0], int):
            if -1 not in self._scanned:
                self._scanned.add(-1)
                self._scan(start, ())
            return
        if self._items is None:
            self._items = self._array_items(start)
        self._element(self._items, (path[0],), path)

    def _element(self, items: list[int], element: tuple[str | int, ...],
                 path: tuple[str | int, ...]) -> None:
        """Locate ``path`` within the array element ``element`` (its index last; ``items``:
        the array's element offsets): the element's own offset is known from ``items``, a
        value inside it needs the element scanned, once. A reader asking every record's line
        (the spacy and doccano readers of a JSON list) so scans nothing in Python."""
        index = element[-1]
        assert isinstance(index, int)
        if not 0 <= index < len(items):
            return
        self._pos.setdefault(element, items[index])
        if len(path) == len(element) + 1 and element not in self._scanned:
            # A member of the element (a record's 'id' that is missing, a warning for every
            # record of a list without ids): its members are found with the C decoder, not
            # the element scanned value by value in Python.
            if element not in self._shallow and not self._absent(items, index, path[-1]):
                self._shallow.add(element)
                self._members_of(items[index], element)
        elif len(path) > len(element) and element not in self._scanned:
            self._scanned.add(element)
            self._scan(items[index], element)

    def _absent(self, items: list[int], index: int, key: str | int) -> bool:
        """Is ``key`` surely no member of element ``index``: its quoted name is nowhere in the
        element's text, which holds no escape that could spell it? (Two searches in C: a
        reader warning of a missing 'id' in every record asks this of each.)"""
        if not (isinstance(key, str) and key.isidentifier()):
            return False  # a name with a quote or a backslash has other spellings
        end = items[index + 1] if index + 1 < len(items) else len(self.text)
        start = items[index]
        return (self.text.find(f'"{key}"', start, end) < 0
                and self.text.find("\\u", start, end) < 0)

    def _members_of(self, i: int, path: tuple[str | int, ...]) -> None:
        """The offsets of the members of the object or array opening at ``i`` (at ``path``),
        each value skipped with the C decoder: what :meth:`_scan` records one level down."""
        t = self.text
        decoder = json.JSONDecoder()
        close = {"{": "}", "[": "]"}.get(t[i])
        if close is None:
            return
        i = self._skip(i + 1)
        index = 0
        while t[i] != close:
            if close == "}":
                key, i = json.decoder.scanstring(t, i + 1)  # type: ignore[attr-defined]
                i = self._skip(self._skip(i) + 1)  # past the colon
                self._pos[(*path, key)] = i
            else:
                self._pos[(*path, index)] = i
                index += 1
            _, end = decoder.raw_decode(t, i)
            i = self._skip(end)
            if t[i] == ",":
                i = self._skip(i + 1)

    def _array_items(self, i: int) -> list[int]:
        """The start offsets of the elements of the array that opens at ``i``, each found by
        the C decoder (``raw_decode``)."""
        items: list[int] = []
        decoder = json.JSONDecoder()
        i = self._skip(i + 1)
        while self.text[i] != "]":
            items.append(i)
            _, end = decoder.raw_decode(self.text, i)
            i = self._skip(end)
            if self.text[i] == ",":
                i = self._skip(i + 1)
        return items

    def _member_items(self, start: int, key: str) -> list[int] | None:
        """The element offsets of the array under ``key`` of the top-level object opening at
        ``start`` (its first such key), or None when the key holds no array."""
        if key not in self._members:
            t = self.text
            decoder = json.JSONDecoder()
            found: list[int] | None = None
            i = self._skip(start + 1)
            while t[i] != "}":
                name, i = json.decoder.scanstring(t, i + 1)  # type: ignore[attr-defined]
                i = self._skip(self._skip(i) + 1)  # past the colon
                if name == key:
                    self._pos[(key,)] = i
                    found = self._array_items(i) if t[i] == "[" else None
                    break
                _, end = decoder.raw_decode(t, i)
                i = self._skip(end)
                if t[i] == ",":
                    i = self._skip(i + 1)
            self._members[key] = found
        return self._members[key]

    def line_of(self, path: str) -> int | None:
        """The line of a value given as a JSON path string such as ``[3].labels[0].end``."""
        parts: list[str | int] = [
            int(index) if index else key for index, key in _PATH_PART.findall(path)
        ]
        while parts:
            line = self.line(*parts)
            if line is not None:
                return line
            parts.pop()  # a missing key: point at its parent
        return None


    def _skip(self, i: int) -> int:
        match = _WS_RUN.match(self.text, i) if i < len(self.text) else None
        return i if match is None else match.end()

    def _scan(self, i: int, path: tuple[str | int, ...]) -> int:
        self._pos[path] = i
        t = self.text
        ch = t[i]
        if ch == "{":
            i = self._skip(i + 1)
            if t[i] == "}":
                return i + 1
            while True:
                key, i = json.decoder.scanstring(t, i + 1)  # type: ignore[attr-defined]
                i = self._skip(i)
                i = self._skip(i + 1)  # the colon
                i = self._skip(self._scan(i, (*path, key)))
                if t[i] == "}":
                    return i + 1
                i = self._skip(i + 1)  # the comma
        if ch == "[":
            i = self._skip(i + 1)
            if t[i] == "]":
                return i + 1
            index = 0
            while True:
                i = self._skip(self._scan(i, (*path, index)))
                index += 1
                if t[i] == "]":
                    return i + 1
                i = self._skip(i + 1)
        if ch == '"':
            _, end = json.decoder.scanstring(t, i + 1)  # type: ignore[attr-defined]
            return int(end)
        for literal in ("true", "false", "null", "NaN", "Infinity", "-Infinity"):
            if t.startswith(literal, i):
                return i + len(literal)
        match = _NUMBER_RE.match(t, i)
        if match is None:
            raise ValueError(i)
        return match.end()


def json_path(*parts: str | int) -> str:
    """``json_path(3, "labels", 0, "end")`` -> ``[3].labels[0].end``.

    >>> json_path(3, "labels", 0, "end")
    '[3].labels[0].end'
    """
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


_PATH_PART = re.compile(r"\[([0-9]+)\]|\.?([^.\[]+)")


@contextlib.contextmanager
def lines_from(loc: JsonLocator, loaded: Loaded) -> Iterator[None]:
    """Put line numbers on the errors and warnings of a JSON reader, computed only for them.

    Readers report JSON paths; finding the line of every value up front would cost one extra
    parse of every file, so it is done when there is something to report.
    """
    try:
        yield
    except FormatError as exc:
        diag = exc.diagnostic
        if diag.line is None and diag.path:
            raise FormatError(diag.file, diag.message, line=loc.line_of(diag.path),
                              field=diag.field, path=diag.path) from None
        raise
    finally:
        loaded.diagnostics[:] = [
            dataclasses.replace(d, line=loc.line_of(d.path))
            if d.line is None and d.path else d
            for d in loaded.diagnostics
        ]
