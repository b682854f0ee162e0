"""One policy for spans that end past their document's text, for every path (CLI and app).

A span ``[start, end)`` with ``end > len(text)`` cannot be drawn, and scoring it changes the
numbers (a prediction ``[0, 5000)`` on an 11-character text made the Da San Martino precision
0.0012). Whether the text comes from the same file or from the gold beside it, the same policy
applies at load time:

``refuse`` (default)
    the input is invalid: one message lists every offending set at once, with its file, its
    first offending document and span, and how many spans are past the text.
``clip``
    each such span is cut to ``[start, len(text))`` (dropped when it starts at or past the end),
    and each change is a recorded warning (``--clip-spans``; the Data page's "clip spans to the
    text" choice).
``official``
    the spans are kept as they are, as the official scorers (which never see the texts) score
    them, with one warning per span (``--beyond-text official``). The same option keeps the
    zero-length MAFALDA spans ``[s, s]`` the official evaluator scores (``core.formats.mafalda``).

Spans whose offsets the reader made (MAFALDA model outputs, ``mafalda-llm``: the file holds one
answer per sentence and the spans are placed by the sentences' lengths, as the official
evaluator places them, never looked up in the text) are not the user's to fix: under ``refuse``
and ``official`` they are scored as they are, as the official evaluator does, and one warning
per file says so (:func:`assumed_warning`); ``clip`` clips them like any other. Agreement and
consensus need every span inside its text: there they are clipped under every policy, with one
warning per set (``placed="clip"``, :func:`clip_placed`, :func:`placed_clip_warning`).

The readers check spans against the text of their own file under the policy of their options
(``ReadOptions.beyond_text``, an argument like every other, never a setting of the caller's
context); :func:`check_sets` checks the sets of a file that carries no text against the texts of
the gold or of another file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from core.model import AnnotationSet, Span, graphemes
from core.model.errors import Diagnostic, InputError, KindedText

Policy = Literal["refuse", "clip", "official"]
POLICIES: tuple[Policy, ...] = ("refuse", "clip", "official")


def from_args(args: object) -> Policy:
    """The policy a command line asked for (``--beyond-text`` / ``--clip-spans``)."""
    value = getattr(args, "beyond_text", None) or "refuse"
    if value not in POLICIES:
        raise ValueError(f"unknown policy {value!r}")
    return value


@dataclass(frozen=True)
class Offender:
    """One span past its text: where it is and how long the text is."""

    source: str
    set_name: str
    doc: str
    span: Span
    length: int


def find(sets: Sequence[tuple[str, AnnotationSet]], texts: Mapping[str, str | None]
         ) -> list[Offender]:
    """Every span of ``sets`` (each with the file it came from) that ends past its text."""
    out: list[Offender] = []
    for source, aset in sets:  # every end compared with its text's length at once
        table = aset.table
        lengths = np.fromiter((_length(texts.get(d)) for d in table.doc_ids),
                              dtype=np.int64, count=len(table.doc_ids))
        past = np.flatnonzero((lengths[table.doc] >= 0) & (table.end > lengths[table.doc]))
        for k in past.tolist():
            doc = table.doc_ids[int(table.doc[k])]
            span = Span(int(table.start[k]), int(table.end[k]),
                        table.labels[int(table.label[k])])
            out.append(Offender(source, aset.name, doc, span, int(lengths[table.doc[k]])))
    return out


def _length(text: str | None) -> int:
    return -1 if text is None else len(text)


CLI_CHOICE = ("pass --clip-spans to clip them to the text (or --beyond-text official to score "
              "them as the official scorers do)")
"""How a command-line user picks another policy; the Data page names its own choice instead
(``ui.text_policy``), so every message that ends with it ends with :data:`CLI_CHOICE`."""


def past_text(length: int, end: int) -> str:
    """A reader's message for a span whose ``end`` lies past the text of its own file.

    >>> past_text(11, 40)  # doctest: +ELLIPSIS
    'expected an offset within the text (length 11), got 40; fix the offsets, or pass --clip-...'
    """
    return f"expected an offset within the text (length {length}), got {end}; fix the offsets, " \
        f"or {CLI_CHOICE}"


def refusal(offenders: Sequence[Offender]) -> str:
    """The one-line message that refuses ``offenders``: every offending set at once."""
    by_set: dict[tuple[str, str], list[Offender]] = {}
    for o in offenders:
        by_set.setdefault((o.source, o.set_name), []).append(o)
    parts = []
    for (source, name), items in by_set.items():
        first = items[0]
        who = source if name in source else f"{source} ({name})"
        more = f" and {len(items) - 1} more" if len(items) > 1 else ""
        parts.append(f"{who}: document {first.doc!r} span [{first.span.start}, {first.span.end}) "
                     f"{first.span.label!r} ends past the text ({first.length} characters){more}")
    return (f"spans end past their document's text in {len(by_set)} set(s): " + "; ".join(parts)
            + f"; fix the offsets, or {CLI_CHOICE}")


BEYOND = "beyond-text"
"""The kind of every warning about spans past their text: named by the message itself
(:class:`core.model.errors.KindedText`), since the message quotes the document id and label,
which may hold another kind's phrase."""


def warning(o: Offender, value: Policy) -> str:
    """The warning recorded for one span under ``clip`` or ``official``."""
    where = (f"{o.source}: {o.set_name}: document {o.doc!r}: span [{o.span.start}, {o.span.end}) "
             f"{o.span.label!r} ends past the text ({o.length} characters)")
    if value == "official":
        return KindedText(where + "; scored as it is, as the official scorers do", BEYOND)
    if o.span.start >= o.length:
        return KindedText(where + "; dropped: it starts at or past the end of the text", BEYOND)
    return KindedText(where + f"; clipped to [{o.span.start}, {o.length})", BEYOND)


def clipped(aset: AnnotationSet, texts: Mapping[str, str | None]) -> AnnotationSet:
    """``aset`` with every span cut to its text (spans that start past the end dropped)."""
    spans: dict[str, tuple[Span, ...]] = {}
    for doc, items in aset.spans.items():
        text = texts.get(doc)
        if text is None or all(s.end <= len(text) for s in items):
            spans[doc] = items
            continue
        n = len(text)
        spans[doc] = tuple(sorted(s if s.end <= n else Span(s.start, n, s.label)
                                  for s in items if s.start < n))
    return AnnotationSet(aset.name, spans, aset.role, aset.alternatives)


def assumed_warning(offenders: Sequence[Offender], extents: Mapping[str, int],
                    texts: Mapping[str, str | None]) -> str:
    """The one warning for the spans of one set that its reader placed and that end past their
    text (``offenders``, all of one set); ``extents`` gives per document where a span over the
    whole text ends as the reader places it (for MAFALDA answers: the sentences joined by
    spaces), compared with the text's length, trailing whitespace aside."""
    first = offenders[0]
    known = [d for d in extents if texts.get(d) is not None]
    differ = sum(1 for d in known if extents[d] != len((texts[d] or "").rstrip()))
    docs = len({o.doc for o in offenders})
    runs = ("1 span in 1 text runs" if len(offenders) == 1 else
            f"{len(offenders)} spans in {docs} text{'s' if docs > 1 else ''} run")
    return KindedText(
           f"{first.source}: {first.set_name}: the file states no offsets; the reader placed "
            "these spans by the lengths of the sentences, as the official evaluator does, and in "
            f"{differ} of {len(known)} texts the sentences joined by spaces are not as long as "
            f"the text (trailing whitespace aside); {runs} past the end and "
            f"{'is' if len(offenders) == 1 else 'are'} scored as the official evaluator scores "
            f"{'it' if len(offenders) == 1 else 'them'} (document {first.doc!r}: span "
            f"[{first.span.start}, {first.span.end}) {first.span.label!r} ends past the text "
            f"({first.length} characters){'' if len(offenders) == 1 else ', ...'})", BEYOND)


def placed_clip_warning(offenders: Sequence[Offender]) -> str:
    """The one warning for the spans of one set that its reader placed, that end past their
    text (``offenders``, all of one set) and that are clipped for a measure that needs every
    span inside its text (agreement, consensus): scoring keeps them (:func:`assumed_warning`)."""
    first = offenders[0]
    docs = len({o.doc for o in offenders})
    runs = ("1 span in 1 text runs" if len(offenders) == 1 else
            f"{len(offenders)} spans in {docs} text{'s' if docs > 1 else ''} run")
    one = len(offenders) == 1
    return KindedText(
           f"{first.source}: {first.set_name}: the file states no offsets; the reader placed "
            f"these spans by the lengths of the sentences, as the official evaluator does, and "
            f"{runs} past the end; {'it is' if one else 'they are'} clipped to the text here, "
            "since agreement needs every span inside its text (scores keep "
            f"{'it' if one else 'them'} as the official evaluator does) (document "
            f"{first.doc!r}: span [{first.span.start}, {first.span.end}) {first.span.label!r} "
            f"ends past the text ({first.length} characters){'' if one else ', ...'})", BEYOND)


AGREEMENT_CHOICE = "pass --clip-spans to clip them to the text"
"""How a command-line user makes spans past the text fit a measure that needs every span inside
its text (agreement, consensus); the dashboard names the Data page's choice instead."""

Placed = Literal["keep", "clip"]
"""What happens under ``refuse`` and ``official`` to spans past the text that a reader placed:
kept for scoring (the official evaluator scores them), clipped for agreement."""


@dataclass(frozen=True)
class Outcome:
    """What the policy does to the spans past their text: the offenders it refuses, the
    warnings it records (``(file, message)``) and the sets it clips (``(file, set name)``)."""

    refused: tuple[Offender, ...]
    warnings: tuple[tuple[str, str], ...]
    clip: frozenset[tuple[str, str]]


def decide(offenders: Sequence[Offender], value: Policy, texts: Mapping[str, str | None],
           assumed: Mapping[str, Mapping[str, int]] | None = None, *,
           placed: Placed = "keep") -> Outcome:
    """Apply ``value`` to ``offenders``; ``assumed`` maps each file whose reader placed the
    spans to its extents (:func:`assumed_warning`): those are never refused, and under
    ``refuse`` and ``official`` one warning per set says that they are scored as they are
    (``placed="keep"``) or that they are clipped to the text (``placed="clip"``, for agreement:
    :func:`placed_clip_warning`)."""
    if value not in POLICIES:
        raise ValueError(f"unknown policy {value!r}")
    assumed = assumed or {}
    stated = tuple(o for o in offenders if o.source not in assumed)
    if value == "clip":
        return Outcome((), tuple((o.source, warning(o, value)) for o in offenders),
                       frozenset((o.source, o.set_name) for o in offenders))
    warnings = [(o.source, warning(o, value)) for o in stated] if value == "official" else []
    made: dict[tuple[str, str], list[Offender]] = {}
    for o in offenders:
        if o.source in assumed:
            made.setdefault((o.source, o.set_name), []).append(o)
    if placed == "clip":
        warnings.extend((source, placed_clip_warning(items)) for (source, _), items in made.items())
        return Outcome(stated if value == "refuse" else (), tuple(warnings), frozenset(made))
    warnings.extend((source, assumed_warning(items, assumed[source], texts))
                    for (source, _), items in made.items())
    return Outcome(stated if value == "refuse" else (), tuple(warnings), frozenset())


def check_sets(
    sets: Sequence[tuple[str, AnnotationSet]], texts: Mapping[str, str | None],
    value: Policy = "refuse", *, assumed: Mapping[str, Mapping[str, int]] | None = None,
    placed: Placed = "keep", owners: str | Mapping[str, str] | None = None,
) -> tuple[list[AnnotationSet], list[str]]:
    """Apply the policy to ``sets`` (``(file, set)`` pairs) against ``texts``.

    Returns the sets to use and the warnings to record; raises :class:`InputError` under
    ``refuse`` when a span past its text has offsets its file states (``assumed``: the files
    whose reader placed the spans, kept or clipped as ``placed`` says, :func:`decide`).

    >>> texts = {"1": "hello world"}
    >>> pred = AnnotationSet("p", {"1": (Span(0, 5000, "Doubt"),)}, "system")
    >>> check_sets([("p.csv", pred)], texts, "clip")[0][0].spans["1"]
    (Span(start=0, end=11, label='Doubt'),)
    >>> check_sets([("p.csv", pred)], texts)
    Traceback (most recent call last):
    ...
    core.model.errors.InputError: spans end past their document's text in 1 set(s): p.csv: ...
    >>> print(check_sets([("p.csv", pred)], texts, assumed={"p.csv": {"1": 5000}})[1][0][:59])
    p.csv: p: the file states no offsets; the reader placed the
    """
    if value not in POLICIES:
        raise ValueError(f"unknown policy {value!r}")
    # spans inside a character as drawn, on the text of the file ``owners`` names
    split = graphemes.split_warnings(sets, texts, owners)
    offenders = find(sets, texts)
    if not offenders:
        return [s for _, s in sets], split
    out = decide(offenders, value, texts, assumed, placed=placed)
    if out.refused:
        raise InputError(refusal(out.refused))
    return ([clipped(s, texts) if (src, s.name) in out.clip else s for src, s in sets],
            [w for _, w in out.warnings] + split)


def unseen(warnings: Iterable[str], diagnostics: Iterable[Diagnostic]) -> list[str]:
    """``warnings`` less those already among ``diagnostics``: a file checked against its own
    texts by :func:`core.formats.load_files`, then against the same texts of the gold, says
    each thing once."""
    seen = {str(d) for d in diagnostics if d.kind == "beyond-text" and d.more is None}
    return [w for w in warnings if w not in seen]


def clip_placed(sets: Sequence[tuple[str, AnnotationSet]], texts: Mapping[str, str | None]
                ) -> tuple[list[AnnotationSet], list[str]]:
    """``sets`` (``(file, set)`` pairs whose reader placed the spans) with their spans past the
    text clipped, one warning per clipped set (:func:`placed_clip_warning`): the agreement
    measures' reading of reader-placed spans, which scoring keeps.

    >>> pred = AnnotationSet("m", {"1": (Span(0, 14, "X"),)}, "system")
    >>> sets, why = clip_placed([("m.jsonl", pred)], {"1": "hello world"})
    >>> sets[0].spans["1"], why[0][:40]
    ((Span(start=0, end=11, label='X'),), 'm.jsonl: m: the file states no offsets; ')
    """
    return check_sets(sets, texts, "refuse", assumed={source: {} for source, _ in sets},
                      placed="clip")
