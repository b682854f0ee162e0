"""Documents of several annotators matched by their text when their ids differ.

Every annotator's export of one project can name a document differently: doccano numbers the
documents of each annotator's project (``43`` for one is ``22`` for another, and ``43`` is then
another text), brat and INCEpTION folders name them after files. Agreement and consensus need one
id per document, so :func:`align` gives every input's documents the id of the first input that
holds the same text, and reports the documents that match no other input's.

The rule, input by input in the order given (the first input is the reference):

* two documents are the same when their texts hold the same characters in the same order,
  whitespace aside (the rule of :mod:`core.model.texts`, which then carries the spans onto the
  reference's text);
* a document keeps its id when an earlier input gives that id the same text, or when no earlier
  input uses the id; otherwise it takes the id of an earlier input's document with its text
  (each earlier id at most once per input), or, when no earlier input has its text, its own id
  with the input's name after ``@`` (``43@ayla.jsonl``), so that one id never names two texts;
* a document without a text (a prediction file without texts) is matched by its id, as before.

Inputs whose ids already agree are left as they are (every document keeps its id), which the
property tests check (``tests/model/test_alignment.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.model.sets import AnnotationSet


def text_key(text: str | None) -> str | None:
    """What two texts must share to be one document: their characters without whitespace.

    >>> text_key(" Mayor  Ines\\nspoke. ") == text_key("Mayor Ines spoke.")
    True
    """
    # str.split() splits where the \s of core.model.texts matches (str.isspace), twice as fast
    return None if text is None else "".join(text.split())


@dataclass(frozen=True)
class Alignment:
    """What :func:`align` decided.

    ``renamed[i]`` maps the ids of input ``i`` that change to their new ids (empty when nothing
    changes); ``unmatched[i]`` lists input ``i``'s documents (new ids) whose text no other input
    holds (or, without a text, whose id no other input uses); ``names`` are the inputs' names.
    """

    names: tuple[str, ...]
    renamed: tuple[dict[str, str], ...]
    unmatched: tuple[tuple[str, ...], ...]

    @property
    def changed(self) -> bool:
        """Whether any document got another id."""
        return any(self.renamed)

    def rename(self, i: int, doc: str) -> str:
        """The id of input ``i``'s document ``doc`` after alignment."""
        return self.renamed[i].get(doc, doc)

    def texts(self, i: int, texts: Mapping[str, str | None]) -> dict[str, str | None]:
        """Input ``i``'s texts under their new ids (in their order)."""
        moves = self.renamed[i]
        return {moves.get(d, d): t for d, t in texts.items()} if moves else dict(texts)

    def sets(self, i: int, sets: Sequence[AnnotationSet]) -> list[AnnotationSet]:
        """Input ``i``'s annotation sets under the new ids (the sets themselves when none
        changes)."""
        moves = self.renamed[i]
        if not moves:
            return list(sets)
        return [AnnotationSet(s.name, {moves.get(d, d): spans for d, spans in s.spans.items()},
                              s.role, s.alternatives) for s in sets]

    def notes(self, sources: Sequence[str] | None = None) -> list[str]:
        """One line per input that changed (``file: 3 documents renamed ... by their text``)
        and per input with documents that match no one, each naming up to three ids; the
        inputs are called ``sources`` (the paths as given) when given, else by their names."""
        out: list[str] = []
        called = self.names if sources is None else tuple(sources)
        for name, moves, alone in zip(called, self.renamed, self.unmatched, strict=True):
            if moves:
                shown = ", ".join(f"{old!r} → {new!r}" for old, new in list(moves.items())[:3])
                more = f" and {len(moves) - 3:,} more" if len(moves) > 3 else ""
                out.append(f"{name}: {_count(len(moves))} renamed, matched to the other "
                           "files' documents by their text (or, where another file uses the "
                           f"id for another text, given this file's name) ({shown}{more})")
            if alone:
                shown = ", ".join(repr(d) for d in alone[:3])
                more = f" and {len(alone) - 3:,} more" if len(alone) > 3 else ""
                verb = "matches" if len(alone) == 1 else "match"
                out.append(f"{name}: {_count(len(alone))} {verb} no other file's documents "
                           f"({shown}{more}); only this annotator's spans count there")
        return out

    def as_dict(self) -> dict[str, dict[str, object]]:
        """``{input name: {"renamed": {old: new}, "unmatched": [ids]}}`` for the inputs with
        either, for the command line's JSON."""
        return {name: {"renamed": dict(moves), "unmatched": list(alone)}
                for name, moves, alone in zip(self.names, self.renamed, self.unmatched,
                                              strict=True) if moves or alone}


def _count(n: int) -> str:
    return f"{n:,} document{'s' if n != 1 else ''}"


def align(inputs: Sequence[Mapping[str, str | None]], names: Sequence[str]) -> Alignment:
    """Match the documents of ``inputs`` (each a mapping from document id to text, or None when
    the input holds no text) by their text (the module's rule); ``names`` name the inputs
    (file names) for fresh ids and notes.

    >>> a = {"22": "Blue Smoke.", "23": "Hanon, a new udon shop."}
    >>> b = {"43": "Hanon, a new  udon shop.", "22": "Cozy Corner."}
    >>> result = align([a, b], ["aparna", "ayla"])
    >>> result.renamed
    ({}, {'43': '23', '22': '22@ayla'})
    >>> result.unmatched
    (('22',), ('22@ayla',))
    >>> align([a, a], ["x", "y"]).changed
    False
    """
    if len(names) != len(inputs):
        raise ValueError(f"align: {len(inputs)} inputs but {len(names)} names")
    seen = _Seen()
    renamed: list[dict[str, str]] = []
    final: list[list[str]] = []
    for texts, name in zip(inputs, names, strict=True):
        moves: dict[str, str] = {}
        keys: dict[str, str | None] = {}  # the text keys computed so far, never twice
        kept = seen.kept(texts, keys)
        used = set(kept)  # the ids this input's documents have after alignment
        for doc, text in texts.items():
            if doc in kept or not seen:  # the first input keeps its ids
                used.add(doc)
                continue
            key = keys[doc] if doc in keys else text_key(text)
            # an earlier id with this text, unless this input uses it for a document already
            target = next((c for c in seen.ids_of(key) if c not in used),
                          None) if key is not None else None
            if target is None and doc in seen:
                target, n = f"{doc}@{name}", 2
                while target in seen or target in texts or target in used:
                    target, n = f"{doc}@{name} ({n})", n + 1
            if target is not None and target != doc:
                moves[doc] = target
            used.add(target or doc)
        for doc, text in texts.items():
            seen.add(moves.get(doc, doc), text)
        renamed.append(moves)
        final.append([moves.get(doc, doc) for doc in texts])
    return Alignment(tuple(names), tuple(renamed), _unmatched(inputs, final))


def onto(reference: Mapping[str, str | None], texts: Mapping[str, str | None]
         ) -> dict[str, str] | None:
    """The renaming that gives every document of ``texts`` the id of the ``reference``
    document with its text (:func:`align`, ``reference`` first), for an input whose ids do not
    meet the reference's but whose texts do: a MAFALDA gold without ids (numbered by line) and
    an annotator's doccano export of the same texts (``4642`` is the gold's ``0``). None unless
    every document of ``texts`` has a text and lands on a reference document, each on one that
    no other reference document shares its text with (never a guess between two).

    >>> onto({"0": "Blue Smoke.", "1": "Cozy Corner."}, {"7": "Cozy  Corner.", "8": "Blue Smoke."})
    {'7': '1', '8': '0'}
    >>> onto({"0": "Blue Smoke."}, {"7": "Blue Smoke.", "8": "Hanon."}) is None
    True
    """
    if (not texts or set(texts) <= set(reference)
            or any(t is None for t in texts.values())):
        return None
    moves = align([reference, texts], ["reference", "input"]).renamed[1]
    if not moves or any(moves.get(d, d) not in reference for d in texts):
        return None
    shared: dict[str | None, int] = {}
    for text in reference.values():
        key = text_key(text)
        shared[key] = shared.get(key, 0) + 1
    if any(shared[text_key(reference[new])] > 1 for new in moves.values()):
        return None
    return moves


_ABSENT = object()


class _Seen:
    """The documents of the inputs aligned so far: each id's first known text and, built only
    when a document has to be matched by its text, the ids of each text key (so that inputs
    whose ids agree cost a string comparison per document, not a key each)."""

    def __init__(self) -> None:
        self.text: dict[str, str | None] = {}
        self._keys: dict[str, str | None] = {}
        self._ids_of: dict[str, list[str]] | None = None

    def __contains__(self, doc: object) -> bool:
        return doc in self.text

    def __bool__(self) -> bool:
        return bool(self.text)

    def key(self, doc: str) -> str | None:
        if doc not in self._keys:
            self._keys[doc] = text_key(self.text[doc])
        return self._keys[doc]

    def kept(self, texts: Mapping[str, str | None], keys: dict[str, str | None]) -> set[str]:
        """The ids of ``texts`` that an earlier input gives the same text (or no text): ids
        that agree stay. The text keys computed on the way go to ``keys``."""
        out = set()
        for doc, text in texts.items():
            known = self.text.get(doc, _ABSENT)
            if known is _ABSENT:
                continue
            if text is None or known is None or text == known:
                out.add(doc)
                continue
            keys[doc] = text_key(text)
            if keys[doc] == self.key(doc):
                out.add(doc)
        return out

    def ids_of(self, key: str | None) -> list[str]:
        if self._ids_of is None:
            self._ids_of = {}
            for doc in self.text:
                k = self.key(doc)
                if k is not None:
                    self._ids_of.setdefault(k, []).append(doc)
        return self._ids_of.get(key, []) if key is not None else []

    def add(self, doc: str, text: str | None) -> None:
        if self.text.get(doc) is not None:
            return  # the first known text stays (the same one, or it would have moved)
        self.text[doc] = text
        self._keys.pop(doc, None)
        key = self.key(doc) if self._ids_of is not None else None
        if self._ids_of is not None and key is not None:
            self._ids_of.setdefault(key, []).append(doc)


def _unmatched(inputs: Sequence[Mapping[str, str | None]], final: list[list[str]]
               ) -> tuple[tuple[str, ...], ...]:
    owners: dict[str, set[int]] = {}
    for i, ids in enumerate(final):
        for doc in ids:
            owners.setdefault(doc, set()).add(i)
    if len(inputs) < 2:
        return tuple(() for _ in inputs)
    return tuple(tuple(d for d in ids if owners[d] == {i}) for i, ids in enumerate(final))
