"""Errors and diagnostics shared by every reader and metric.

A reader either returns domain objects or raises :class:`FormatError`, whose message names the
file, the line (or JSON path), the field, what was expected and what was found, for example::

    pred.tsv:17: field 'end': expected an integer greater than start (12), got '9'

Anything that is accepted but suspicious (a ``text_fragment`` that differs from the text, a span
that starts with whitespace, a skipped record) is a :class:`Diagnostic` with ``severity`` warning,
carried next to the data so that nothing is dropped silently.
"""

from __future__ import annotations

import dataclasses
import errno
import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Literal

from core.model.textsafe import one_line

Severity = Literal["error", "warning"]

WARNING_KINDS: tuple[tuple[str, str], ...] = (
    ("exact duplicate span(s)", "duplicate-span"),
    ("intervals carry several labels", "several-labels"),
    ("txt text in the folder", "missing-texts"),
    ("is read as the text", "text-field"),
    ("have no 'text'", "missing-texts"),
    ("no 'text' (or 'data')", "missing-texts"),
    ("have no 'id'", "document-ids"),
    ("which no one annotated", "unannotated-documents"),
    ("the offsets count ", "offset-units"),
    ("CRLF line breaks read as", "line-breaks"),
    ("; the input also holds", "layer-choice"),
    ("; choose with --feature", "layer-choice"),
    ("not chosen (the spans read are", "layer-choice"),
    ("in seqeval's default mode", "tag-scheme"),
    ("continues no annotation", "tag-scheme"),
    ("read as GermEval 2014", "column-layout"),
    ("is discontinuous", "discontinuous"),
    ("zero-length span", "zero-length"),
    ("are doccano label ids", "label-ids"),
    ("the same annotator answers again", "repeated-answer"),
    ("is named for technique classification", "file-name"),
    ("the file name says these are answers", "file-name"),
    ("is ill-defined", "ill-defined"),
    ("predicted id(s) not in", "unknown-ids"),
    ("no predicted label occurs in", "disjoint-labels"),
    ("outside the MAFALDA taxonomy", "outside-taxonomy"),
    ("compared with a row of another article", "file-order"),
    ("the official scorer's alignment lines up", "file-order"),
    ("gold labels are not sorted by start", "file-order"),
    ("appears twice", "duplicate-span"),
    (" again (first on line", "duplicate-span"),
    ("with other whitespace", "text-whitespace"),
    ("inside a character as it is drawn", "split-character"),
    ("another Unicode normalization", "text-normalization"),
    ("in whitespace", "whitespace"),
    ("differs from the text", "fragment-mismatch"),
    ("more than once", "duplicate-span"),
    ("ends past the text", "beyond-text"),
    ("skipped", "skipped"),
    ("ignored", "ignored"),
    ("merged", "merged"),
    # Fallbacks only: their emitters name the kind (:class:`KindedText`); a copy of such a
    # message that lost it (read back from JSON) is still counted. Last, so that a label, a
    # document id or a file name quoted in another warning cannot claim these kinds.
    ("documents (other annotators have them)", "missing-documents"),
    ("differ only in case or surrounding spaces", "label-variants"),
)
"""Phrases of the readers' warning messages -> the kind a summary counts them under (first match
wins), the fallback when the emitter does not name the kind itself (``Loaded.warn(...,
kind=...)``, ``Diagnostic(kind=...)``, or a message made a :class:`KindedText`, as an annotator
missing documents (``core.metrics.agreement.study.missing_documents``) and label variants are:
they quote names, labels and document ids, which may hold any phrase). A phrase of a message
that quotes labels or ids (duplicates) comes before the readers' shorter phrases.
``tests/model/test_warning_kinds.py`` reads every test and sample input with every reader and
runs every command on inputs that warn: no warning may fall into ``other``, so a new message
needs its phrase here (or its emitter names the kind)."""


class KindedText(str):
    """A warning message kept as text (as ``agree`` and the consensus keep theirs) that names
    its own kind, so that what it quotes (a label, a document id) cannot change how it is
    counted (:func:`warning_kind`). It is the message wherever a ``str`` is.

    >>> w = KindedText("labels 'a in whitespace' and 'A' differ", "label-variants")
    >>> (w == "labels 'a in whitespace' and 'A' differ", warning_kind(w))
    (True, 'label-variants')
    """

    kind: str

    def __new__(cls, message: str, kind: str) -> KindedText:
        self = super().__new__(cls, message)
        self.kind = kind
        return self

    def __reduce__(self) -> tuple[type[KindedText], tuple[str, str]]:
        return KindedText, (str(self), self.kind)  # shards of the Dask engine pickle it


def warning_kind(message: str | Diagnostic) -> str:
    """The kind of a warning: a :class:`Diagnostic`'s own, the kind a message names
    (:class:`KindedText`), else the first of :data:`WARNING_KINDS` whose phrase it holds,
    ``other`` when none matches.

    >>> warning_kind("the span [0, 3) ends in whitespace: 'ab '")
    'whitespace'
    >>> warning_kind("something else")
    'other'
    """
    if isinstance(message, (KindedText, Diagnostic)):
        return message.kind
    for phrase, kind in WARNING_KINDS:
        if phrase in message:
            return kind
    return "other"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One message about one place in one input file.

    ``line`` is 1-based; ``path`` is a JSON path such as ``[3].labels[0].end`` where lines do not
    identify the place (a JSON file on one line). ``kind`` groups warnings for summaries
    (``whitespace``, ``duplicate-span``, ...); when not given it is read off the message
    (:func:`warning_kind`).

    A diagnostic may stand for ``count`` occurrences of one kind (a fast reader found 60,000
    spans that begin in whitespace): its own fields are the first occurrence, and ``more``
    lists all of them, first included, only when asked (:func:`expand`). :func:`warning_total`
    and :func:`expand` are how a caller counts and lists warnings either way.
    """

    file: str
    message: str
    line: int | None = None
    field: str | None = None
    path: str | None = None
    severity: Severity = "warning"
    kind: str = ""
    count: int = 1
    more: Occurrences | None = dataclasses.field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", "error" if self.severity == "error"
                               else warning_kind(self.message))

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.path:
            where += f": {self.path}"
        field = f" field '{self.field}':" if self.field else ""
        # One line whatever the file held (a name with a newline, a control character); the
        # text keeps the kind, which its quoted file name or fragment cannot then change.
        return KindedText(one_line(f"{where}:{field} {self.message}"), self.kind)


Position = tuple[int, ...]


class Occurrences:
    """Every occurrence of one kind of warning, produced on demand in file order.

    ``produce()`` yields ``(position, Diagnostic)`` pairs with increasing positions; diagnostics
    whose ``Occurrences`` share a ``group`` (one reader's pass over one file) are interleaved by
    position when listed, so the listing is the order the file gave them.
    """

    __slots__ = ("group", "produce")

    def __init__(self, group: object,
                 produce: Callable[[], Iterator[tuple[Position, Diagnostic]]]) -> None:
        self.group = group
        self.produce = produce


def warning_total(warnings: Iterable[Diagnostic | str]) -> int:
    """How many warnings ``warnings`` stand for (a grouped diagnostic counts ``count``)."""
    return sum(w.count if isinstance(w, Diagnostic) else 1 for w in warnings)


def kind_counts(warnings: Iterable[Diagnostic | str]) -> Counter[str]:
    """How many warnings of each kind (:func:`warning_kind`) ``warnings`` stand for, in the
    order the kinds first occur; a grouped diagnostic counts ``count``: ``score --json``'s
    ``warning_counts`` on one machine and on shards.

    >>> dict(kind_counts([Diagnostic("f", "b", kind="whitespace", count=3), "x"]))
    {'whitespace': 3, 'other': 1}
    """
    counts: Counter[str] = Counter()
    for w in warnings:
        counts[warning_kind(w)] += w.count if isinstance(w, Diagnostic) else 1
    return counts


def expand(warnings: Sequence[Diagnostic | str]) -> Iterator[Diagnostic | str]:
    """Every single warning of ``warnings`` in order, grouped diagnostics listed one by one.

    Grouped diagnostics that follow each other and come from one pass over a file are merged
    by position, which gives the file's order of warnings whatever their kind.

    >>> list(expand(["a", Diagnostic("f", "b")]))
    ['a', Diagnostic(file='f', message='b', line=None, field=None, path=None, \
severity='warning', kind='other', count=1)]
    """
    i, n = 0, len(warnings)
    while i < n:
        w = warnings[i]
        more = w.more if isinstance(w, Diagnostic) else None
        if more is None:
            yield w
            i += 1
            continue
        streams = []
        while i < n:
            w = warnings[i]
            if not isinstance(w, Diagnostic) or w.more is None or w.more.group is not more.group:
                break
            streams.append(w.more.produce())
            i += 1
        for _, d in heapq.merge(*streams, key=itemgetter(0)):
            yield d


def expand_diagnostics(diagnostics: Sequence[Diagnostic]) -> Iterator[Diagnostic]:
    """:func:`expand` for a list of diagnostics only (a reader's ``Loaded.diagnostics``)."""
    for d in expand(diagnostics):
        assert isinstance(d, Diagnostic)
        yield d


PYTHON_BEYOND_TEXT = ("from Python: read with core.formats.ReadOptions(beyond_text='clip') to "
                      "clip them to the text, or beyond_text='official' to score them as the "
                      "official scorers do")
"""The note a spans-past-the-text error carries for a Python user: its message names the command
line's ``--clip-spans`` and ``--beyond-text`` (what the command line and its golden outputs
show), the note the reader option that does the same."""


class SpanScopeError(ValueError):
    """Base class of the errors that mean "the input is invalid" (exit status 1).

    Also a ``ValueError``, as :class:`ParameterError` is: Python code that catches the standard
    exception for a bad value catches these too. A message that tells a command-line user to
    pass ``--clip-spans`` carries a note (shown under a traceback) naming the reader option
    instead (:data:`PYTHON_BEYOND_TEXT`).
    """

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        if args and isinstance(args[0], str) and "--clip-spans" in args[0]:
            self.add_note(PYTHON_BEYOND_TEXT)


class FormatError(SpanScopeError):
    """An input file cannot be read; the message names file, line, field, expected and found."""

    def __init__(
        self,
        file: str,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        path: str | None = None,
    ) -> None:
        self.diagnostic = Diagnostic(file, message, line, field, path, "error")
        super().__init__(str(self.diagnostic))

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its diagnostic: the default passes the message alone to __init__, which
        # takes the file first (the dashboard's worker and Dask's send errors back pickled)
        d = self.diagnostic
        return (_format_error, (type(self), d.file, d.message, d.line, d.field, d.path))

    @property
    def file(self) -> str:
        return self.diagnostic.file

    @property
    def line(self) -> int | None:
        return self.diagnostic.line

    @property
    def field(self) -> str | None:
        return self.diagnostic.field


def _format_error(cls: type[FormatError], file: str, message: str, line: int | None,
                  field: str | None, path: str | None) -> FormatError:
    """A :class:`FormatError` (or a subclass with the same arguments) as it was pickled."""
    return cls(file, message, line=line, field=field, path=path)


class InputError(SpanScopeError):
    """Inputs that are each valid but cannot be scored together (e.g. different document sets)."""


class MissingFileError(FormatError, FileNotFoundError):
    """A path that names no file or folder: a :class:`FormatError` (shown as every unreadable
    input is) and a ``FileNotFoundError`` (``errno`` ENOENT, ``filename``), so that Python code
    catching ``OSError`` for a missing file catches it.

    >>> err = MissingFileError("nope.json")
    >>> str(err), err.errno == errno.ENOENT, err.filename, isinstance(err, OSError)
    ('nope.json: no such file or folder', True, 'nope.json', True)
    """

    def __init__(self, file: str) -> None:
        super().__init__(file, "no such file or folder")
        self.errno = errno.ENOENT
        self.strerror = "no such file or folder"
        self.filename = file

    def __str__(self) -> str:  # the diagnostic's words, not OSError's "[Errno 2] ..."
        return str(self.diagnostic)

    def __reduce__(self) -> tuple[type[MissingFileError], tuple[str]]:
        return (type(self), (self.file,))


def format_ids(ids: object, limit: int = 5) -> str:
    """Render at most ``limit`` ids for a message, saying how many more there are."""
    items = sorted(str(i) for i in ids)  # type: ignore[attr-defined]
    shown = ", ".join(repr(i) for i in items[:limit])
    more = len(items) - limit
    return shown + (f" and {more} more" if more > 0 else "")


class UsageError(Exception):
    """A command-line option has a value the command does not accept (exit status 2)."""


class ParameterError(UsageError, SpanScopeError, ValueError):
    """A library function got a parameter value it does not accept.

    Worded like scikit-learn's parameter errors and naming the *parameter* (``variant``,
    ``merge_pred=True``), never a command-line flag: "The 'variant' parameter of martino must be
    one of {...}. Got 'mega' instead." ``param`` is the parameter's name; the command line turns
    it into its flag and exits with status 2. It is also a ``ValueError`` (code that catches the
    standard exception keeps working) and a :class:`UsageError`.
    """

    def __init__(self, param: str, message: str, *, value: object = None,
                 choices: Sequence[object] | None = None) -> None:
        self.param = param
        self.value = value
        self.choices = choices
        """The accepted values when they are a list (:func:`check_choice`): the command line
        then offers the closest (:meth:`suggestion`)."""
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # the default passes the message alone to __init__, which takes the parameter first
        return (_parameter_error, (type(self), self.param, str(self), self.value, self.choices))

    def suggestion(self) -> str:
        """``did you mean 'X'?`` (:func:`did_you_mean`) when the accepted values are a list and
        one is close to the value given, else ``""``."""
        return did_you_mean(self.value, self.choices) if self.choices else ""


def _parameter_error(cls: type[ParameterError], param: str, message: str, value: object,
                     choices: Sequence[object] | None) -> ParameterError:
    """A :class:`ParameterError` as it was pickled."""
    return cls(param, message, value=value, choices=choices)


def did_you_mean(value: object, choices: Iterable[object]) -> str:
    """``did you mean 'X'?`` for the choice closest to ``value`` (similarity 0.6 at least,
    :func:`difflib.get_close_matches`, case ignored), else ``""``.

    >>> did_you_mean("martinoo", ["mafalda", "martino"])
    "did you mean 'martino'?"
    >>> did_you_mean("Exact", ["exact", "overlap"]), did_you_mean("zzz", ["exact"])
    ("did you mean 'exact'?", '')

    """
    import difflib

    names = {str(c).lower(): str(c) for c in choices}
    close = difflib.get_close_matches(str(value).lower(), list(names), n=1)
    return f"did you mean {names[close[0]]!r}?" if close else ""


def check_choice(param: str, owner: str, value: object, choices: Iterable[object]) -> None:
    """Raise :class:`ParameterError` unless ``value`` is one of ``choices``.

    >>> check_choice("variant", "score", "x", ("a", "b"))
    Traceback (most recent call last):
    ...
    core.model.errors.ParameterError: The 'variant' parameter of score must be one of {'a', 'b'}. \
Got 'x' instead.
    """
    options = list(choices)
    if value not in options:
        shown = ", ".join(repr(c) for c in options)
        raise ParameterError(
            param,
            f"The {param!r} parameter of {owner} must be one of {{{shown}}}. Got {value!r} "
            "instead.",
            value=value, choices=options,
        )
