"""One document id, two texts: inputs that do not describe the same documents.

Spans are character offsets into their document's text, so two inputs can be scored or compared
only when a document id means the same text in both. Ids alone do not say so: CoNLL files and
spaCy DocBins number their documents ``1``, ``2``, ..., and every annotator's doccano export of
one project can reuse the same ids for other texts. Scoring such files together draws one file's
spans on the other's text.

:func:`differing` finds the documents whose texts are known in both inputs and not equal, each
with the first character where they differ. :func:`reconcile` is the rule every path applies
(``score``, ``explain``, ``errors``, ``slices``, ``report``, ``agree``, ``adjudicate``, the Data
page):

* texts that differ in any character other than whitespace are different documents: the input
  is refused (:func:`refusal` names both files, how many documents differ, the first one and
  where, with a short quote of each side);
* texts that hold the same characters in the same order and differ only in whitespace are one
  document written out twice. Formats that rebuild the text from tokens do this (CoNLL joins the
  tokens with one space, WebAnno TSV 2 too, WebAnno TSV 3 ends each sentence with a line break),
  so a prediction in such a format differs from its gold's original text. The spans are carried
  onto the reference text character for character (the n-th non-space character of one text is
  the n-th of the other), with one warning per input (:func:`carried_warning`).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from core.model import AnnotationSet, Span
from core.model.errors import InputError, KindedText
from core.model.textsafe import visible

_SPACE = re.compile(r"\s+")
_RUN = re.compile(r"\S+")


@dataclass(frozen=True)
class Conflict:
    """A document whose text differs between two inputs: ``there`` is the reference's text (the
    gold's, or an earlier file's), ``here`` the text of the input being checked, ``at`` the
    first character where they differ."""

    doc: str
    at: int
    there: str
    here: str

    @property
    def same_characters(self) -> bool:
        """Whether the two texts differ in whitespace only (same characters otherwise, in the
        same order)."""
        return _SPACE.sub("", self.there) == _SPACE.sub("", self.here)

    @property
    def same_normalized(self) -> bool:
        """Whether the two texts differ in Unicode normalization only: the same text once both
        are composed (NFC), as ``é`` written as one character (NFC) or as ``e`` and a combining
        acute accent (NFD)."""
        return unicodedata.normalize("NFC", self.there) == unicodedata.normalize("NFC", self.here)


def first_difference(a: str, b: str) -> int:
    """Index of the first character where ``a`` and ``b`` differ (the shorter length when one
    is a prefix of the other).

    >>> first_difference("Dated was", "Data was")
    3
    >>> first_difference("abc", "abcd")
    3
    """
    n = min(len(a), len(b))
    lo, hi = 0, n
    while lo < hi:  # longest common prefix by halves: slices compare in C
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def differing(reference: Mapping[str, str | None], texts: Mapping[str, str | None]
              ) -> list[Conflict]:
    """The documents of ``texts`` whose text is known in both and differs from ``reference``'s,
    in the order of ``texts``.

    >>> [(c.doc, c.at) for c in differing({"1": "abc", "2": "xy"}, {"1": "abd", "2": None})]
    [('1', 2)]
    """
    out = []
    for doc, text in texts.items():
        there = reference.get(doc)
        if text is not None and there is not None and text != there:
            out.append(Conflict(doc, first_difference(there, text), there, text))
    return out


def excerpt(text: str, at: int, before: int = 12, after: int = 24, *, marks: bool = False
            ) -> str:
    r"""A short piece of ``text`` around position ``at``, quoted on one line: control characters
    and characters that print as nothing or as a plain space escaped
    (:func:`~core.model.textsafe.visible`; combining marks too with ``marks``), "…" where it is
    cut.

    >>> excerpt("More than a year ago we went\nthere", 0)
    "'More than a year ago we …'"
    >>> excerpt("Mayor  Ines spoke.\nThe Lumen", 6)
    "'Mayor  Ines spoke.\\nThe Lumen'"
    """
    start = max(0, at - before)
    end = min(len(text), at + after)
    piece = visible(text[start:end], marks=marks)
    return f"'{'…' if start else ''}{piece}{'…' if end < len(text) else ''}'"


def _where(c: Conflict, there: str) -> str:
    marks = c.same_normalized
    return (f"from character {c.at}: {excerpt(c.there, c.at, marks=marks)} in {there}, "
            f"{excerpt(c.here, c.at, marks=marks)} here")


def refusal(conflicts: Sequence[Conflict], here: str, there: str) -> str:
    """The one-line message that refuses ``here`` for holding other texts than ``there`` under
    the same ids (``conflicts``: the documents that differ in more than whitespace, first one
    first)."""
    first = conflicts[0]
    more = len(conflicts) - 1
    who = (f"document {first.doc!r} has" if not more else
           f"document {first.doc!r} and {more} more document{'s' if more > 1 else ''} have")
    return (f"{here}: {who} a different text than in {there} ({_where(first, there)}); the two "
            "files do not describe the same documents: one id, two texts (use inputs of one "
            "corpus, or give their documents distinct ids)")


def carried_warning(conflicts: Sequence[Conflict], here: str, there: str, moved: int,
                    dropped: int) -> str:
    """The one warning for an input whose texts differ from the reference's in whitespace
    only; ``moved`` spans got new offsets, ``dropped`` held nothing but whitespace."""
    first = conflicts[0]
    n = len(conflicts)
    docs = f"{n} document{'s hold' if n > 1 else ' holds'}"
    did = (f"{moved} span{'s' if moved != 1 else ''} moved onto the text of {there} "
           "(the same characters)" if moved else "no span moved (the same offsets)")
    if dropped:
        did += f", {dropped} span{'s' if dropped != 1 else ''} of whitespace only dropped"
    return KindedText(f"{here}: {docs} the text of {there} with other whitespace (as formats "
                      f"that rebuild the text from tokens write it: CoNLL, WebAnno TSV); {did}; "
                      f"first: document {first.doc!r}, {_where(first, there)}", "text-whitespace")


def _runs(text: str) -> tuple[list[int], list[int]]:
    """Starts of the text's non-space runs and how many non-space characters precede each."""
    starts, lengths = [], []
    for m in _RUN.finditer(text):
        starts.append(m.start())
        lengths.append(m.end() - m.start())
    return starts, [0, *accumulate(lengths)]


class _Carrier:
    """Moves offsets of one text onto another that holds the same non-space characters."""

    def __init__(self, here: str, there: str) -> None:
        self.here, self.there = here, there
        self.h_starts, self.h_before = _runs(here)
        self.t_starts, self.t_before = _runs(there)

    def rank(self, pos: int) -> int:
        """How many non-space characters of ``here`` lie before ``pos``."""
        i = bisect_right(self.h_starts, pos) - 1
        if i < 0:
            return 0
        run_len = self.h_before[i + 1] - self.h_before[i]
        return self.h_before[i] + min(pos - self.h_starts[i], run_len)

    def position(self, rank: int) -> int:
        """Where the non-space character number ``rank`` (from 0) of ``there`` is."""
        i = bisect_right(self.t_before, rank) - 1
        return self.t_starts[i] + rank - self.t_before[i]

    def span(self, s: Span) -> Span | None:
        """``s`` on ``there``; None when it covers no non-space character. A span past the end
        of ``here`` keeps its offsets (the policy for spans past the text decides on it)."""
        if s.end > len(self.here):
            return s
        first, last = self.rank(s.start), self.rank(s.end)
        if last <= first:
            return None
        return Span(self.position(first), self.position(last - 1) + 1, s.label)


def _clusters(text: str) -> list[int]:
    """Where each run of a character and the combining marks after it starts (canonical
    combining class 0 starts a run), with ``len(text)`` last."""
    return [k for k, ch in enumerate(text) if k == 0 or not unicodedata.combining(ch)] + \
        [len(text)]


class _Recomposer:
    """Moves offsets of one text onto another that differs in Unicode normalization only: both
    cut into runs of a character and its combining marks, each run the same once composed
    (NFC); a span boundary between runs moves to the same run's boundary in the other text.
    A boundary inside a run (between a letter and its accent) has no counterpart: such a span
    is not carried (:meth:`span` returns None and the text is refused)."""

    def __init__(self, here: str, there: str) -> None:
        h, t = _clusters(here), _clusters(there)
        runs = [unicodedata.normalize("NFC", here[a:b]) for a, b in pairwise(h)]
        same = runs == [unicodedata.normalize("NFC", there[a:b]) for a, b in pairwise(t)]
        self.to = dict(zip(h, t, strict=True)) if same and len(h) == len(t) else None

    def span(self, s: Span) -> Span | None:
        if self.to is None or s.start not in self.to or s.end not in self.to:
            return None
        return Span(self.to[s.start], self.to[s.end], s.label)


def normalization_refusal(c: Conflict, here: str, there: str, span: Span | None) -> str:
    """The message refusing texts that differ in Unicode normalization only when a span cannot
    be carried from one to the other."""
    inside = (f"the span [{span.start}, {span.end}) {span.label!r} begins or ends between a "
              "letter and its combining mark" if span is not None else
              "their characters do not compose run for run")
    return (f"{here}: document {c.doc!r} has the text of {there} in another Unicode "
            f"normalization (NFC/NFD: a letter with its accent as one character or as two; "
            f"{_where(c, there)}), and {inside}, so its spans cannot be carried onto the text "
            f"of {there}; write both files in one normalization (NFC)")


def carry(aset: AnnotationSet, conflicts: Sequence[Conflict]) -> tuple[AnnotationSet, int, int]:
    """``aset`` with the spans of the ``conflicts``' documents moved onto the reference texts
    (every conflict must differ in whitespace only); with how many spans moved and how many
    were dropped (whitespace only)."""
    by_doc = {c.doc: c for c in conflicts if c.doc in aset.spans}
    if not by_doc:
        return aset, 0, 0
    spans = dict(aset.spans)
    moved = dropped = 0
    for doc, c in by_doc.items():
        if not spans[doc]:
            continue
        out = []
        if not c.same_characters:  # Unicode normalization only (reconcile checked)
            recomposer = _Recomposer(c.here, c.there)
            for s in spans[doc]:
                new = recomposer.span(s)
                if new is None:
                    raise InputError(normalization_refusal(c, aset.name, "the reference", s))
                moved += new != s
                out.append(new)
            spans[doc] = tuple(sorted(out))
            continue
        carrier = _Carrier(c.here, c.there)
        if carrier.h_starts == carrier.t_starts and carrier.h_before == carrier.t_before:
            continue  # every non-space character at the same offset
        for s in spans[doc]:
            new = carrier.span(s)
            if new is None:
                dropped += 1
                continue
            moved += new != s
            out.append(new)
        spans[doc] = tuple(sorted(out))
    return AnnotationSet(aset.name, spans, aset.role, aset.alternatives), moved, dropped


def adopt(texts: dict[str, str | None], owner: dict[str, str], found: Mapping[str, str | None],
          source: str) -> None:
    """Add the texts one more file gives (``found``) to those of the files read before:
    a document's first known text is kept and ``owner`` names the file it came from; a
    document no file gave a text for is listed with None. Run after :func:`reconcile`, which
    refuses a text that differs from an earlier file's.

    >>> texts, owner = {"a": None}, {}
    >>> adopt(texts, owner, {"a": "Hi.", "b": None}, "f2.json")
    >>> texts, owner
    ({'a': 'Hi.', 'b': None}, {'a': 'f2.json'})
    """
    for doc, text in found.items():
        if text is not None and texts.get(doc) is None:
            texts[doc], owner[doc] = text, source
        elif doc not in texts:
            texts[doc] = text


def reconcile(reference: Mapping[str, str | None], texts: Mapping[str, str | None],
              sets: Sequence[AnnotationSet], *, here: str, there: str | Mapping[str, str]
              ) -> tuple[list[AnnotationSet], list[str]]:
    """The module's rule for one input (``texts`` and ``sets``, read from ``here``) against the
    reference texts (read from ``there``: one name, or the name per document id).

    Raises :class:`InputError` (:func:`refusal`) when a document's texts differ in more than
    whitespace; otherwise returns the sets, with the spans of documents whose texts differ in
    whitespace only carried onto the reference's text, and the warnings (one at most).

    >>> gold = {"1": "Mayor  Ines spoke."}
    >>> pred = AnnotationSet("p", {"1": (Span(6, 10, "PER"),)}, "system")
    >>> sets, why = reconcile(gold, {"1": "Mayor Ines spoke."}, [pred], here="p.conll",
    ...                       there="g.json")
    >>> sets[0].spans["1"], why[0][:45]
    ((Span(start=7, end=11, label='PER'),), 'p.conll: 1 document holds the text of g.json ')
    >>> reconcile(gold, {"1": "Another text."}, [pred], here="p.conll", there="g.json")
    Traceback (most recent call last):
    ...
    core.model.errors.InputError: p.conll: document '1' has a different text than in g.json (from
    ...
    """
    conflicts = differing(reference, texts)
    if not conflicts:
        return list(sets), []

    def owner(doc: str) -> str:
        return there if isinstance(there, str) else there.get(doc, "an earlier file")

    other = [c for c in conflicts if not c.same_characters and not c.same_normalized]
    if other:
        raise InputError(refusal(other, here, owner(other[0].doc)))
    normal = [c for c in conflicts if not c.same_characters]
    for c in normal:
        if _Recomposer(c.here, c.there).to is None:
            raise InputError(normalization_refusal(c, here, owner(c.doc), None))
    out, moved, dropped = [], 0, 0
    for aset in sets:
        try:
            new, m, d = carry(aset, conflicts)
        except InputError:
            c = next(c for c in normal if c.doc in aset.spans and any(
                _Recomposer(c.here, c.there).span(s) is None for s in aset.spans[c.doc]))
            bad = next(s for s in aset.spans[c.doc]
                       if _Recomposer(c.here, c.there).span(s) is None)
            raise InputError(normalization_refusal(c, here, owner(c.doc), bad)) from None
        out.append(new)
        moved, dropped = moved + m, dropped + d
    spaces = [c for c in conflicts if c.same_characters]
    warnings = [carried_warning(spaces, here, owner(spaces[0].doc), moved, dropped)] \
        if spaces else []
    if normal:
        n = len(normal)
        warnings.append(KindedText(
            f"{here}: {n} document{'s hold' if n > 1 else ' holds'} the text of "
            f"{owner(normal[0].doc)} in another Unicode normalization (NFC/NFD: a letter with "
            "its accent as one character or as two); the spans were carried onto its text "
            f"(the same letters); first: document {normal[0].doc!r}, "
            f"{_where(normal[0], owner(normal[0].doc))}", "text-normalization"))
    return out, warnings
