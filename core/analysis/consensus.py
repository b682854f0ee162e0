"""Consensus of several annotators' span sets, with one recorded decision per proposed span.

An annotation lead turns n annotators' sets into one gold set. :func:`consensus` proposes it by
explicit rules (all keyword parameters) and records every decision as a :class:`Decision`
(document, span, who marked it, keep or drop, why), so that ties and conflicts are listed for the
lead and nothing is decided silently.

The lead's decisions are :class:`Override` values keyed by :attr:`Decision.key`;
:func:`curated_set` applies them, :func:`decisions_csv` writes every decision (the command
line's ``--decisions`` file and the Curation page's download) and :func:`read_decisions` reads
such a file back against a proposal, so that a lead can stop and resume (``docs/adjudication.md``).

The rules
---------
1. **Matching** (``match``) groups the spans that different annotators gave for "the same
   annotation":

   * ``"exact"``: same start, same end, same label (span identity, set logic as in seqeval);
   * ``"overlap"``: spans of one label that share at least one character, transitively (the
     connected components of the overlap graph, per label);
   * ``"gamma"``: the unitary alignments of the best alignment of Mathet, Widlöcher & Métivier
     (2015), *Computational Linguistics* 41(3), §3–§4 (at most one unit per annotator; positional
     and categorical dissimilarity, so a group may hold different labels), computed by the
     project's exact solver :func:`core.metrics.agreement.gamma_native.best_alignment` with
     pygamma's default dissimilarity (α = β = Δ∅ = 1); no chance sample is drawn;
   * ``"char"``: no span matching: character-level majority per label (the construction of
     :func:`core.metrics.agreement.panel.majority_set`), each maximal run of characters marked
     by at least one annotator with one label being cut into kept and dropped runs.

   An annotator's duplicate spans (same interval and label) count once.
2. **Votes** (``min_agree`` = k): a group is kept when at least k distinct annotators have a span
   in it. ``n`` is the number of annotators whose sets *list* the document (a document missing
   from a set is not a vote against, as in ``docs/agreement.md``); the default k is a strict
   majority of n, ``n // 2 + 1``.
3. **Boundaries** (``boundaries``), from the characters the group's m annotators cover (each
   annotator counted once per character): ``"union"`` keeps characters one of them covers,
   ``"majority"`` characters more than m/2 cover (a character covered by exactly half is a
   *boundary tie*: left out and reported), ``"intersection"`` characters all m cover. Each
   maximal run becomes a span. When the rule leaves no character (members that do not overlap,
   possible under gamma and overlap matching) the next looser rule is used and the decision is
   flagged ``no-common-characters``. When the rule gives several separate runs, each run is
   voted on (rule 2) by the annotators who mark a character of it (an annotator who marks none
   of the runs votes for each), so a piece one annotator marked is "1 of n", not the group's
   count. Exact matching has nothing to decide here.
4. **Label**: under exact, overlap and char matching a group has one label. Under gamma the label
   is the one most of the group's annotators gave (``label-split`` when some gave another); on a
   tie every tied label is proposed as its own span, flagged ``label-tie``, for the lead to choose;
   ``ties="leave-out"`` (default) proposes each to be dropped, so that the set never holds two
   labels on one interval that nobody decided, ``ties="keep-all"`` proposes each to be kept.

Every decision carries flags (its dispute): ``partial`` (fewer than n annotators marked it),
``boundaries`` (members' intervals differ), ``boundary-tie``, ``no-common-characters``,
``label-split``, ``label-tie`` and ``label-conflict`` (an overlapping proposal with another label
where some annotator marked only one and another only the other: "A says x where B says y").
A decision without flags is unanimous.

What the rules guarantee (property tests in ``tests/analysis/test_consensus.py``)
------------------------------------------------------------------------------------
* ``exact``: k = 1 gives the union of the sets (as sets of spans), k = n their intersection.
* ``overlap`` and ``char``: k = 1 with union boundaries covers, per label, exactly the characters
  some annotator marked; k = n with intersection boundaries exactly the characters every
  annotator marked (per label), leaving aside the spans of a fallback (``no-common-characters``:
  a group of all n whose spans share no character, e.g. [0, 1), [0, 2), [1, 2)).
* ``gamma``: k = 1 keeps every unitary alignment, so with union boundaries every character any
  annotator marked is covered, by a kept span or a tie left out (labels follow the majority,
  so a minority label is reported, not kept); with k = n every kept span lies inside
  characters every annotator marked (any label).
* A set against a copy of itself is unchanged (exact, gamma, char; under overlap, up to merging
  the set's own overlapping spans of one label).
* The order of the annotators does not matter: they are sorted by name first.

>>> from core.model import AnnotationSet, Span
>>> a = AnnotationSet("A", {"d": (Span(0, 6, "x"),)}, role="annotator")
>>> b = AnnotationSet("B", {"d": (Span(2, 6, "x"),)}, role="annotator")
>>> c = AnnotationSet("C", {"d": (Span(2, 8, "y"),)}, role="annotator")
>>> r = consensus([a, b, c], min_agree=2, match="overlap")
>>> r.set.get("d")
(Span(start=2, end=6, label='x'),)
>>> [(d.span.label, d.decision, d.flags) for d in r.decisions]
[('x', 'keep', ('partial', 'boundaries', 'boundary-tie', 'label-conflict')), ('y', 'drop', \
('partial', 'label-conflict'))]
"""

from __future__ import annotations

import bisect
import csv
import dataclasses
import io
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np

from core.formats.csvsafe import cell, uncell
from core.metrics.agreement.gamma_native import Continuum, Dissimilarity, best_alignment
from core.metrics.agreement.study import Study, doc_coverage, merge_intervals, missing_documents
from core.model import AnnotationSet, Span
from core.model.errors import FormatError, InputError, KindedText, UsageError, check_choice

Match = Literal["gamma", "overlap", "exact", "char"]
Boundaries = Literal["majority", "union", "intersection"]
Verdict = Literal["keep", "drop"]
Ties = Literal["leave-out", "keep-all"]
MATCHES: tuple[Match, ...] = ("gamma", "overlap", "exact", "char")
BOUNDARIES: tuple[Boundaries, ...] = ("majority", "union", "intersection")
TIES: tuple[Ties, ...] = ("leave-out", "keep-all")

FLAGS: dict[str, str] = {
    "partial": "fewer annotators marked it than list the document",
    "boundaries": "the annotators' boundaries differ",
    "boundary-tie": "some characters were marked by exactly half of the group (left out)",
    "no-common-characters": "the boundary rule left no character; a looser rule was used",
    "label-split": "the group's annotators gave different labels; the majority label won",
    "label-tie": "the group's annotators gave different labels equally often",
    "label-conflict": "an overlapping proposal has another label, marked by other annotators",
}
"""Every flag a decision can carry, with its meaning (a decision without flags is unanimous)."""

TIE_FLAGS = ("label-tie", "boundary-tie")
CONFLICT_FLAGS = ("label-conflict", "label-split", "no-common-characters")

Member = tuple[str, Span]


@dataclass(frozen=True)
class Decision:
    """One proposed span and what the rules decided about it.

    ``members``: every (annotator, span) of the group it comes from; ``n``: annotators that list
    the document; ``k``: the votes needed; ``group``: the group's number in the document (several
    decisions share a group when the boundaries give several runs or labels tie).
    """

    id: str
    doc: str
    span: Span
    members: tuple[Member, ...]
    n: int
    k: int
    decision: Verdict
    flags: tuple[str, ...]
    why: str
    group: int = 0

    @property
    def annotators(self) -> tuple[str, ...]:
        """Who marked it (sorted, each once)."""
        return tuple(sorted({a for a, _ in self.members}))

    @property
    def votes(self) -> int:
        return len(self.annotators)

    @property
    def disputed(self) -> bool:
        """Whether a lead should look at it (any flag): not unanimous."""
        return bool(self.flags)

    @cached_property
    def key(self) -> str:
        """A stable identity: document, members and proposal (ids may shift between rules).
        Computed once per decision: curation looks it up on every step."""
        return "|".join([self.doc, members_text(self.members),
                         f"{self.span.start}-{self.span.end}", self.span.label])


@dataclass(frozen=True)
class Consensus:
    """The proposed consensus set, every decision, and the rules that made them."""

    set: AnnotationSet
    decisions: tuple[Decision, ...]
    annotators: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    missing: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Annotator -> the documents another annotator lists and this one does not (in document
    order; only annotators who lack one): their votes there are not counted (rule 2), which
    :attr:`warnings` says too (:func:`missing_warnings`)."""

    def ties(self) -> list[Decision]:
        return [d for d in self.decisions if set(d.flags) & set(TIE_FLAGS)]

    def conflicts(self) -> list[Decision]:
        return [d for d in self.decisions if set(d.flags) & set(CONFLICT_FLAGS)]

    def disputed(self) -> list[Decision]:
        return [d for d in self.decisions if d.disputed]

    def counts(self) -> dict[str, int]:
        keep = sum(1 for d in self.decisions if d.decision == "keep")
        return {"documents": len(self.set.spans), "decisions": len(self.decisions),
                "kept": keep, "dropped": len(self.decisions) - keep,
                "spans": self.set.span_count(), "disputed": len(self.disputed()),
                "ties": len(self.ties()), "conflicts": len(self.conflicts())}


def _span_key(span: Span) -> tuple[int, int, str]:
    """The order of :class:`Span` (``order=True``: start, end, label) as a plain tuple, which
    sorts without calling the dataclass's ``__lt__`` once per comparison."""
    return (span.start, span.end, span.label)


def _member_key(member: Member) -> tuple[str, int, int, str]:
    """The order of a member ``(annotator, span)`` as a plain tuple (see :func:`_span_key`)."""
    a, s = member
    return (a, s.start, s.end, s.label)


def members_text(members: Iterable[Member]) -> str:
    """``A:4-19:Loaded;B:4-15:Loaded`` (sorted): the members as one cell of a table."""
    return ";".join(f"{a}:{s.start}-{s.end}:{s.label}"
                    for a, s in sorted(members, key=_member_key))


# ---- grouping -----------------------------------------------------------------------------------

def _groups_exact(per_ann: Mapping[str, Sequence[Span]]) -> list[list[Member]]:
    groups: dict[Span, list[Member]] = {}
    for a, spans in per_ann.items():
        for s in spans:
            groups.setdefault(s, []).append((a, s))
    return list(groups.values())


def _groups_overlap(per_ann: Mapping[str, Sequence[Span]]) -> list[list[Member]]:
    """Connected components of the overlap graph of each label (a sweep in start order)."""
    by_label: dict[str, list[Member]] = {}
    for a, spans in per_ann.items():
        for s in spans:
            by_label.setdefault(s.label, []).append((a, s))
    out: list[list[Member]] = []
    for label in sorted(by_label):
        current: list[Member] = []
        reach = -1
        for a, s in sorted(by_label[label], key=lambda m: (m[1].start, m[1].end, m[0])):
            if current and s.start >= reach:
                out.append(current)
                current = []
            current.append((a, s))
            reach = max(reach, s.end) if len(current) > 1 else s.end
        if current:
            out.append(current)
    return out


def _groups_gamma(per_ann: Mapping[str, Sequence[Span]], labels: Sequence[str], length: int,
                  diss: Dissimilarity) -> list[list[Member]]:
    """The unitary alignments of the best alignment (Mathet et al. 2015), ∅ left out."""
    who = list(per_ann)
    index = {lab: i for i, lab in enumerate(labels)}
    units = [(i, float(s.start), float(s.end), index[s.label])
             for i, a in enumerate(who) for s in per_ann[a]]
    if not units:
        return []
    c = Continuum.build(units, len(who), float(length))
    alignment = best_alignment(c, diss, labels)
    out: list[list[Member]] = []
    for row in alignment.tuples:
        out.append([(who[int(c.ann[u])], Span(int(c.start[u]), int(c.end[u]),
                                               labels[int(c.cat[u])])) for u in row if u >= 0])
    return out


# ---- boundaries ---------------------------------------------------------------------------------

def _coverage(members: Sequence[Member]) -> list[tuple[int, int, int]]:
    """(start, end, how many annotators cover it) for each piece of the members' union."""
    events: dict[int, int] = {}
    per: dict[str, list[tuple[int, int]]] = {}
    for a, sp in members:
        per.setdefault(a, []).append(sp.interval)
    for intervals in per.values():
        for s, e in (intervals if len(intervals) == 1 else merge_intervals(intervals)):
            events[s] = events.get(s, 0) + 1
            events[e] = events.get(e, 0) - 1
    out: list[tuple[int, int, int]] = []
    count, prev = 0, None
    for pos in sorted(events):
        if prev is not None and count > 0 and pos > prev:
            out.append((prev, pos, count))
        count += events[pos]
        prev = pos
    return out


def _runs(pieces: Sequence[tuple[int, int, int]], need: int) -> list[tuple[int, int]]:
    return merge_intervals([(s, e) for s, e, c in pieces if c >= need])


def _boundaries(members: Sequence[Member], rule: Boundaries
                ) -> tuple[list[tuple[int, int]], list[str], str]:
    """The runs the rule keeps, its flags, and how it decided (for ``why``)."""
    m = len({a for a, _ in members})
    pieces = _coverage(members)
    need = {"union": 1, "majority": m // 2 + 1, "intersection": m}
    flags: list[str] = []
    notes: list[str] = []
    if len({s.interval for _, s in members}) > 1:
        flags.append("boundaries")
    if rule == "majority" and m % 2 == 0 and any(c * 2 == m for _, _, c in pieces):
        tied = [f"{s}-{e}" for s, e, c in pieces if c * 2 == m]
        flags.append("boundary-tie")
        notes.append(f"characters {', '.join(tied)} marked by exactly half ({m // 2} of {m}): "
                     "a tie, left out")
    # a rule that leaves no character falls back to the next looser one
    chain = {"intersection": ["intersection", "majority", "union"],
             "majority": ["majority", "union"], "union": ["union"]}[rule]
    for used in chain:
        runs = _runs(pieces, need[used])
        if runs:
            if used != rule:
                flags.append("no-common-characters")
                notes.append(f"no character reaches the {rule} rule; {used} used instead")
            how = {"union": "union of the annotators' characters",
                   "majority": f"characters marked by more than half of the {m} annotators",
                   "intersection": f"characters all {m} annotators marked"}[used]
            if m == 1:
                how = "the one annotator's span"
            return runs, flags, "; ".join([f"boundaries: {how}", *notes])
    raise AssertionError("a group always covers some character")  # pragma: no cover


# ---- the consensus ------------------------------------------------------------------------------

def _names(names: Iterable[str]) -> str:
    return ", ".join(names) or "nobody"


def _label_vote(members: Sequence[Member]) -> tuple[list[str], list[str], str]:
    """A group's label by majority: the winning labels (several on a tie), its flags and how
    it decided (for ``why``; empty when every member has one label)."""
    first = members[0][1].label
    if all(s.label == first for _, s in members):
        return [first], [], ""
    counts = Counter(s.label for _, s in members)
    top = max(counts.values())
    winners = sorted(lab for lab, c in counts.items() if c == top)
    said = "; ".join(f"{lab}: {_names(sorted(a for a, s in members if s.label == lab))}"
                     for lab in sorted(counts))
    if len(winners) > 1:
        return winners, ["label-tie"], (f"label tie ({said}): each tied label proposed, for the "
                                        "lead to choose")
    return winners, ["label-split"], f"label by majority ({said})"


def _group_decisions(group: int, members: list[Member], n: int, k: int,
                     rule: Boundaries, exact: bool, ties: Ties = "leave-out"
                     ) -> list[tuple[Span, Verdict, list[str], str, int, list[Member]]]:
    """A group's proposals: one per run of the boundary rule and winning label. When the rule
    gives several runs (separate pieces), a run's votes (and label) are those of the annotators
    who mark a character of it, so that a piece one annotator marked is counted on its own; an
    annotator who marks no run votes for every run, as for a group of one run."""
    if exact:
        runs, bflags, bnote = [members[0][1].interval], list[str](), "exact match"
    else:
        runs, bflags, bnote = _boundaries(members, rule)
    group_who = sorted({a for a, _ in members})
    if len(runs) > 1:
        touched = {a: {i for i, (lo, hi) in enumerate(runs) for b, s in members
                       if b == a and s.start < hi and s.end > lo} for a in group_who}
    out = []
    for i, (lo, hi) in enumerate(runs):
        if len(runs) == 1:  # every member votes for the one run (the common case)
            inside, who = members, group_who
        else:
            inside = [(a, s) for a, s in members if i in touched[a] or not touched[a]]
            who = sorted({a for a, _ in inside})
        votes = len(who)
        verdict: Verdict = "keep" if votes >= k else "drop"
        base: list[str] = ["partial"] if votes < n else []
        winners, label_flags, label_note = _label_vote(inside)
        said: str = verdict
        if verdict == "keep" and "label-tie" in label_flags and ties == "leave-out":
            verdict, said = "drop", "drop (label tie, undecided)"
            label_note += ("; left out of the consensus until the lead chooses (ties: "
                           "leave-out)")
        vote_note = (f"{votes} of {n} annotators ({_names(who)}) "
                     f"{'≥' if votes >= k else '<'} k={k}")
        others = [a for a in group_who if a not in who]
        if others:
            vote_note += (f", counted on this piece alone: {_names(others)} of its group "
                          "marked no character of it")
        if n < k:
            vote_note += f"; only {n} annotator(s) list this document"
        for label in winners:
            why = "; ".join(x for x in (f"{said}: {vote_note}", bnote, label_note) if x)
            out.append((Span(lo, hi, label), verdict, [*base, *bflags, *label_flags], why, group,
                        inside))
    return out


def _char_decisions(per_ann: Mapping[str, Sequence[Span]], n: int, k: int
                    ) -> list[tuple[Span, Verdict, list[str], str, int, list[Member]]]:
    """Per label: runs of characters marked by at least one annotator, cut by ``k``."""
    by_label: dict[str, list[Member]] = {}
    for a, spans in per_ann.items():
        for s in spans:
            by_label.setdefault(s.label, []).append((a, s))
    out: list[tuple[Span, Verdict, list[str], str, int, list[Member]]] = []
    group = 0
    for label in sorted(by_label):
        members = by_label[label]
        pieces = _coverage(members)
        # consecutive pieces with one verdict and touching ends form one run
        runs: list[list[tuple[int, int, int]]] = []
        for piece in pieces:
            keep = piece[2] >= k
            if runs and runs[-1][-1][1] == piece[0] and (runs[-1][-1][2] >= k) == keep:
                runs[-1].append(piece)
            else:
                runs.append([piece])
        for run in runs:
            group += 1
            first, last = run[0][0], run[-1][1]
            inside = [(a, sp) for a, sp in members if sp.start < last and sp.end > first]
            verdict: Verdict = "keep" if run[0][2] >= k else "drop"
            lo, hi = min(c for *_, c in run), max(c for *_, c in run)
            flags = []
            if lo < n:
                flags.append("partial")
            if len({sp.interval for _, sp in inside}) > 1 or lo != hi:
                flags.append("boundaries")
            votes = f"{lo}" if lo == hi else f"{lo} to {hi}"
            why = (f"{verdict}: every character marked by {votes} of {n} annotators "
                   f"{'≥' if verdict == 'keep' else '<'} k={k} (character-level vote)")
            out.append((Span(first, last, label), verdict, flags, why, group, inside))
    return out


def _conflicts(spans: Sequence[Span], voters: Sequence[frozenset[str]]
               ) -> dict[int, list[str]]:
    """Notes for the proposals that overlap a proposal of another label whose annotators
    disagree with theirs both ways (a sweep in start order)."""
    order = sorted(range(len(spans)), key=lambda i: spans[i].start)
    hit: dict[int, list[str]] = {}
    for x, i in enumerate(order):
        si, ai = spans[i], voters[i]
        for j in order[x + 1:]:
            sj = spans[j]
            if sj.start >= si.end:
                break
            if sj.label == si.label or si.overlap(sj) == 0:
                continue
            aj = voters[j]
            if ai - aj and aj - ai:
                hit.setdefault(i, []).append(
                    f"{_names(sorted(aj - ai))} gave {sj.label} [{sj.start}, {sj.end}) here")
                hit.setdefault(j, []).append(
                    f"{_names(sorted(ai - aj))} gave {si.label} [{si.start}, {si.end}) here")
    return hit


def consensus(sets: Sequence[AnnotationSet], texts: Mapping[str, str | None] | None = None, *,
              min_agree: int | None = None, match: Match = "gamma",
              boundaries: Boundaries = "majority", name: str = "consensus",
              dissimilarity: Dissimilarity | None = None, ties: Ties = "leave-out"
              ) -> Consensus:
    """The consensus of ``sets`` (one per annotator) under the rules of the module docstring.

    Parameters
    ----------
    sets : sequence of AnnotationSet
        The annotators' sets (distinct names; order does not matter).
    texts : mapping, optional
        Document texts, to check that no span ends after its text.
    min_agree : int, optional
        k: the annotators that must have a span in a group for it to be kept, between 1 and the
        number of sets. Default: a strict majority of the annotators listing each document.
    match : {"gamma", "overlap", "exact", "char"}
        How spans of different annotators are grouped.
    boundaries : {"majority", "union", "intersection"}
        How a kept group's boundaries are chosen (not used by ``exact`` and ``char``).
    name : str
        Name of the consensus set (role ``gold``).
    dissimilarity : Dissimilarity, optional
        γ's dissimilarity for ``match="gamma"`` (default α = β = Δ∅ = 1).
    ties : {"leave-out", "keep-all"}
        What a label tie proposes: drop every tied label (default: left out until the lead
        chooses) or keep each (two spans on one interval).

    Returns
    -------
    Consensus
        The set (every document any set lists, ``()`` where nothing is kept) and one
        :class:`Decision` per proposed span, in document order then text order; ids are
        ``<doc>#<n>``.
    """
    check_choice("match", "consensus", match, MATCHES)
    check_choice("boundaries", "consensus", boundaries, BOUNDARIES)
    check_choice("ties", "consensus", ties, TIES)
    if not sets:
        raise InputError("a consensus needs at least one annotation set; got none")
    _check_min_agree(min_agree, len(sets))
    ordered = sorted(sets, key=lambda s: s.name)
    study = Study.from_sets(ordered, texts)
    diss = dissimilarity or Dissimilarity()
    decisions: list[Decision] = []
    out_spans: dict[str, tuple[Span, ...]] = {}
    for doc in study.docs:
        who = study.covering(doc)
        per_ann = {a: sorted(set(study.get(a, doc)), key=_span_key) for a in who}
        n = len(who)
        k = min_agree if min_agree is not None else n // 2 + 1
        if match == "char":
            rows = _char_decisions(per_ann, n, k)
        else:
            groups = _groups(match, per_ann, study.labels, study.lengths[doc], diss)
            rows = [row for gi, members in enumerate(groups, 1)
                    for row in _group_decisions(gi, members, n, k, boundaries,
                                                match == "exact", ties)]
        doc_decisions = _doc_decisions(doc, who, rows, n, k)
        decisions.extend(doc_decisions)
        out_spans[doc] = tuple(sorted({d.span for d in doc_decisions if d.decision == "keep"},
                                      key=_span_key))
    params = {"min_agree": min_agree, "match": match, "boundaries": boundaries, "ties": ties,
              "annotators": [s.name for s in ordered]}
    missing = lacking(study)
    return Consensus(AnnotationSet(name, out_spans, "gold"), tuple(decisions),
                     tuple(s.name for s in ordered), params,
                     (*study.warnings, *missing_warnings(study, missing)), missing)


def lacking(study: Study) -> dict[str, tuple[str, ...]]:
    """Annotator -> the documents of ``study`` that another annotator lists and this one does
    not (:func:`core.metrics.agreement.study.doc_coverage`), for those who lack one."""
    covered = doc_coverage(study)
    out = {}
    for k, a in enumerate(study.annotators):
        gone = tuple(study.docs[i] for i in np.flatnonzero(~covered[k]).tolist())
        if gone:
            out[a] = gone
    return out


def missing_warnings(study: Study, missing: Mapping[str, Sequence[str]]) -> list[str]:
    """One warning per annotator with no annotation for documents the others have: the words of
    ``agree`` (:func:`core.metrics.agreement.study.missing_documents`: who, how many, the first
    three), and what it means for the consensus (rule 2: no vote there, neither for nor
    against; the default k is a majority of those who list the document).

    >>> a = AnnotationSet("A", {"d1": (), "d2": ()}, role="annotator")
    >>> b = AnnotationSet("B", {"d1": ()}, role="annotator")
    >>> s = Study.from_sets([a, b])
    >>> missing_warnings(s, lacking(s))  # doctest: +NORMALIZE_WHITESPACE
    ["B: lacks 1 of the study's 2 documents (other annotators have them): 'd2'; B has no
      vote in them (the consensus there is that of the annotators who list them)"]
    """
    return [KindedText(f"{line}; {a} has no vote in them (the consensus there is that of the "
                       "annotators who list them)", "missing-documents")
            for a, line in zip([a for a in study.annotators if a in missing],
                               missing_documents(study), strict=True)]


def _check_min_agree(min_agree: int | None, n_sets: int) -> None:
    """Refuse a ``min_agree`` that is not an integer from 1 to the number of sets."""
    if min_agree is not None and (isinstance(min_agree, bool) or not isinstance(min_agree, int)
                                  or not 1 <= min_agree <= n_sets):
        raise UsageError(f"The 'min_agree' parameter of consensus must be an integer from 1 to "
                         f"the number of annotation sets ({n_sets}). Got {min_agree!r} "
                         "instead.")


def _groups(match: Match, per_ann: Mapping[str, Sequence[Span]], labels: Sequence[str],
            length: int, diss: Dissimilarity) -> list[list[Member]]:
    """One document's groups under ``match`` (not ``char``), in text order."""
    if match == "exact":
        groups = _groups_exact(per_ann)
    elif match == "overlap":
        groups = _groups_overlap(per_ann)
    else:
        groups = _groups_gamma(per_ann, labels, length, diss)
    groups.sort(key=lambda g: (min(s.start for _, s in g), max(s.end for _, s in g),
                               sorted(map(_member_key, g))))
    return groups


class _Placed:
    """Where each annotator's spans of a document went: per (annotator, label), the spans with
    the index of their decision row, sorted by start, with the running maximum of their ends,
    so that the spans overlapping an interval are found without scanning every row (a
    document of thousands of spans has thousands of rows)."""

    def __init__(self, rows: Sequence[tuple[Span, Verdict, list[str], str, int,
                                            tuple[Member, ...]]]) -> None:
        by: dict[tuple[str, str], list[tuple[Span, int]]] = {}
        for j, row in enumerate(rows):
            for a, sp in row[5]:
                by.setdefault((a, sp.label), []).append((sp, j))
        self._lanes: dict[tuple[str, str], tuple[list[int], list[tuple[Span, int]], list[int]]]
        self._lanes = {}
        for key, placed in by.items():
            placed.sort(key=lambda p: (p[0].start, p[0].end, p[1]))
            reach, most = [], -1
            for sp, _ in placed:
                most = max(most, sp.end)
                reach.append(most)
            self._lanes[key] = ([sp.start for sp, _ in placed], placed, reach)

    def overlapping(self, annotator: str, span: Span, *, besides: int) -> tuple[int, Span] | None:
        """The first (by start) span of ``annotator`` with ``span``'s label that overlaps it,
        in a row other than ``besides``, with that row's index; None when there is none."""
        lane = self._lanes.get((annotator, span.label))
        if lane is None:
            return None
        starts, placed, reach = lane
        hit = None
        i = bisect.bisect_left(starts, span.end) - 1  # the spans that start before its end
        while i >= 0 and reach[i] > span.start:  # some span up to i still reaches into it
            sp, j = placed[i]
            if sp.end > span.start and j != besides:
                hit = (j, sp)
            i -= 1
        return hit


def _missing_note(doc: str, span: Span, missing: Sequence[str], placed: _Placed, at: int
                  ) -> str:
    """``why``'s note on the annotators listing the document who have no span in row ``at``:
    "not marked by" those who left its characters unmarked with its label; an annotator whose
    span of that label overlaps it in another group (γ aligns one span per annotator, so a
    long span beside two short ones joins one group only, Mathet et al. 2015 §3) is named with
    that span and the decision it went to: they did mark these characters."""
    unmarked, elsewhere = [], []
    for a in missing:
        hit = placed.overlapping(a, span, besides=at)
        if hit is None:
            unmarked.append(a)
            continue
        j, s = hit
        how = "covers it" if s.start <= span.start and span.end <= s.end else "overlaps it"
        elsewhere.append(f"{a}'s [{s.start}, {s.end}) {s.label} {how} but is matched to "
                         f"{doc}#{j + 1}")
    return "".join([f"; not marked by {_names(unmarked)}" if unmarked else "",
                    *(f"; {note}" for note in elsewhere)])


def _doc_decisions(doc: str, who: Sequence[str],
                   rows: Sequence[tuple[Span, Verdict, list[str], str, int, list[Member]]],
                   n: int, k: int) -> list[Decision]:
    """One document's decisions, in span order, with their label conflicts and the annotators
    a kept span misses."""
    ordered_rows = sorted(((span, verdict, flags, why, grp,
                            tuple(sorted(members, key=_member_key)))
                           for span, verdict, flags, why, grp, members in rows),
                          key=lambda r: (_span_key(r[0]), [_member_key(m) for m in r[5]]))
    voters = [frozenset(a for a, _ in r[5]) for r in ordered_rows]
    notes = _conflicts([r[0] for r in ordered_rows], voters)
    doc_decisions = []
    placed: _Placed | None = None  # built at the first kept span some annotator lacks
    for i, (span, verdict, flags, why, grp, mem) in enumerate(ordered_rows, 1):
        if i - 1 in notes:
            flags = [*flags, "label-conflict"]
            why += "; label conflict: " + "; ".join(notes[i - 1])
        missing = [a for a in who if a not in voters[i - 1]]
        if missing and verdict == "keep":
            placed = placed or _Placed(ordered_rows)
            why += _missing_note(doc, span, missing, placed, i - 1)
        doc_decisions.append(Decision(f"{doc}#{i}", doc, span, mem, n, k, verdict,
                                      tuple(flags), why, grp))
    return doc_decisions


# ---- the lead's decisions -----------------------------------------------------------------------

ACTIONS: dict[str, str] = {
    "accept": "accepted the rule's proposal (its decision, keep or drop, and its span)",
    "accept-all": "accepted the rule's proposal with “accept every remaining proposal”",
    "keep": "kept the span as shown",
    "drop": "dropped the span",
    "relabel": "kept the span with another label",
    "bounds": "kept the span with other boundaries",
}
"""What a lead can do to a proposal (the ``action`` column of the decisions CSV): accepting a
proposal takes its decision, whatever it is, while ``keep`` and ``drop`` say what to do with the
span (``docs/adjudication.md``)."""


@dataclass(frozen=True)
class Override:
    """A lead's decision on one proposal: keep or drop, with possibly new boundaries or label.

    ``action`` (one of :data:`ACTIONS`) records how the lead made it; two overrides with the
    same outcome are equal whatever their action.
    """

    decision: Verdict
    start: int
    end: int
    label: str
    action: str = field(default="", compare=False)

    @classmethod
    def accept(cls, d: Decision, action: str = "accept") -> Override:
        """The rule's proposal ``d`` taken as it is (its decision and span)."""
        return cls(d.decision, d.span.start, d.span.end, d.span.label, action)

    @property
    def span(self) -> Span:
        return Span(self.start, self.end, self.label)


def curated_set(result: Consensus, overrides: Mapping[str, Override], *,
                name: str = "curated") -> AnnotationSet:
    """The consensus with the lead's decisions (keyed by :attr:`Decision.key`) applied.

    >>> from core.model import AnnotationSet, Span
    >>> a = AnnotationSet("A", {"d": (Span(0, 4, "x"),)})
    >>> b = AnnotationSet("B", {"d": (Span(0, 4, "y"),)})
    >>> r = consensus([a, b], min_agree=1, match="exact")
    >>> curated_set(r, {r.decisions[1].key: Override("drop", 0, 4, "y")}).get("d")
    (Span(start=0, end=4, label='x'),)
    """
    spans: dict[str, set[Span]] = {doc: set() for doc in result.set.spans}
    for d in result.decisions:
        o = overrides.get(d.key)
        if o is None:
            if d.decision == "keep":
                spans[d.doc].add(d.span)
        elif o.decision == "keep":
            spans[d.doc].add(o.span)
    return AnnotationSet(name, {doc: tuple(sorted(v)) for doc, v in spans.items()}, "gold")


DECISION_COLUMNS = ("id", "document", "start", "end", "label", "decision", "source",
                    "annotators", "votes", "of", "flags", "why", "members", "proposed_start",
                    "proposed_end", "proposed_label", "proposed_decision", "action")
"""Columns of the decisions CSV (the command line's ``--decisions`` and the dashboard's file).
``action`` (added in 0.x, after the others: files without it still load) says which of
:data:`ACTIONS` made a lead's decision; it is empty on the rule's rows."""


def decision_rows(result: Consensus, overrides: Mapping[str, Override] | None = None
                  ) -> list[dict[str, Any]]:
    """One row per decision: the final span and decision (the lead's where given, ``source``
    says which), who marked it, why, and the rule's proposal."""
    overrides = overrides or {}
    rows = []
    for d in result.decisions:
        o = overrides.get(d.key)
        final = o.span if o is not None else d.span
        rows.append({
            "id": d.id, "document": d.doc, "start": final.start, "end": final.end,
            "label": final.label, "decision": o.decision if o is not None else d.decision,
            "source": "lead" if o is not None else "rule",
            "annotators": ";".join(d.annotators), "votes": d.votes, "of": d.n,
            "flags": ";".join(d.flags), "why": d.why, "members": members_text(d.members),
            "proposed_start": d.span.start, "proposed_end": d.span.end,
            "proposed_label": d.span.label, "proposed_decision": d.decision,
            "action": (o.action or infer_action(d, o)) if o is not None else ""})
    return rows


def infer_action(d: Decision, o: Override) -> str:
    """The action that gives ``o`` on proposal ``d``, for a decision recorded without one (a
    decisions file older than the ``action`` column, or edited in a spreadsheet)."""
    if (o.decision, o.span) == (d.decision, d.span):
        return "accept"
    if o.decision == "drop":
        return "drop"
    if o.label != d.span.label:
        return "relabel"
    return "bounds" if o.span.interval != d.span.interval else "keep"


def decisions_csv(result: Consensus, overrides: Mapping[str, Override] | None = None, *,
                  csv_raw: bool = False) -> str:
    """The decisions as CSV text (:data:`DECISION_COLUMNS`, RFC 4180 quoting; text cells made
    inert for spreadsheets by :func:`core.formats.csvsafe.cell` unless ``csv_raw``).

    The same rows as :func:`decision_rows`, built a column at a time: a text column's distinct
    values (documents, labels, annotators, flags) are made inert once each, and no dict is built
    per row (``docs/performance.md``)."""
    cols = _decision_columns(result.decisions, overrides or {})
    if not csv_raw:
        for name, values in cols.items():
            if values and isinstance(values[0], str):
                inert = {v: cell(v) for v in set(values)}
                cols[name] = [inert[v] for v in values]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(DECISION_COLUMNS)
    writer.writerows(zip(*(cols[c] for c in DECISION_COLUMNS), strict=True))
    return buf.getvalue()


def _decision_columns(ds: Sequence[Decision], overrides: Mapping[str, Override]
                      ) -> dict[str, list[Any]]:
    """:func:`decision_rows` as ``{column: values}``."""
    got = [overrides.get(d.key) for d in ds] if overrides else [None] * len(ds)
    pairs = list(zip(ds, got, strict=True))
    finals = [d.span if o is None else o.span for d, o in pairs]
    who = [d.annotators for d in ds]
    return {
        "id": [d.id for d in ds], "document": [d.doc for d in ds],
        "start": [s.start for s in finals], "end": [s.end for s in finals],
        "label": [s.label for s in finals],
        "decision": [d.decision if o is None else o.decision for d, o in pairs],
        "source": ["rule" if o is None else "lead" for o in got],
        "annotators": [";".join(a) for a in who], "votes": [len(a) for a in who],
        "of": [d.n for d in ds], "flags": [";".join(d.flags) for d in ds],
        "why": [d.why for d in ds], "members": [members_text(d.members) for d in ds],
        "proposed_start": [d.span.start for d in ds], "proposed_end": [d.span.end for d in ds],
        "proposed_label": [d.span.label for d in ds],
        "proposed_decision": [d.decision for d in ds],
        "action": ["" if o is None else (o.action or infer_action(d, o)) for d, o in pairs]}


def read_decisions(text: str, result: Consensus, *, file: str = "decisions.csv"
                   ) -> tuple[dict[str, Override], list[str]]:
    """The lead's decisions of a decisions CSV, matched to ``result``'s proposals.

    A row is a decision of the lead when its ``source`` is ``lead`` or when its final span or
    decision differs from its proposal (a lead may edit the file in a spreadsheet). Rows are
    matched by document, members and proposal (not by id, which depends on the rules); rows
    that match no proposal are returned as notes. Raises :class:`FormatError` naming the line and
    field of a malformed row. Cells pass through :func:`core.formats.csvsafe.uncell`; a file
    without the ``action`` column (older SpanScope) gets each action from :func:`infer_action`.
    """
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    required = ("document", "start", "end", "label", "decision", "members", "proposed_start",
                "proposed_end", "proposed_label", "proposed_decision")
    missing = [c for c in required if c not in (reader.fieldnames or ())]
    if missing:
        raise FormatError(file, f"not a decisions file: missing column(s) {', '.join(missing)}",
                          line=1)
    by_key = {d.key: d for d in result.decisions}
    out: dict[str, Override] = {}
    notes: list[str] = []
    for raw in reader:
        line = reader.line_num
        row = {k: uncell(v) for k, v in raw.items() if k is not None}
        nums: dict[str, int] = {}
        for col in ("start", "end", "proposed_start", "proposed_end"):
            try:
                nums[col] = int(row[col])
            except (TypeError, ValueError):
                raise FormatError(file, f"expected an integer, got {row[col]!r}", line=line,
                                  field=col) from None
        for col in ("decision", "proposed_decision"):
            if row[col] not in ("keep", "drop"):
                raise FormatError(file, f"expected 'keep' or 'drop', got {row[col]!r}",
                                  line=line, field=col)
        if nums["end"] <= nums["start"] or nums["start"] < 0:
            raise FormatError(file, f"expected 0 <= start < end, got start={nums['start']}, "
                              f"end={nums['end']}", line=line, field="end")
        if not row["label"]:
            raise FormatError(file, "expected a label, got an empty cell", line=line,
                              field="label")
        final = (row["decision"], nums["start"], nums["end"], row["label"])
        proposed = (row["proposed_decision"], nums["proposed_start"], nums["proposed_end"],
                    row["proposed_label"])
        if row.get("source") != "lead" and final == proposed:
            continue
        key = "|".join([row["document"], row["members"],
                        f"{nums['proposed_start']}-{nums['proposed_end']}",
                        row["proposed_label"]])
        if key not in by_key:
            notes.append(f"{file}:{line}: no such proposal in document {row['document']!r} "
                         f"under the current rules ({row['proposed_label']} "
                         f"[{nums['proposed_start']}, {nums['proposed_end']})); not applied")
            continue
        action = row.get("action") or ""
        if action and action not in ACTIONS:
            raise FormatError(file, f"expected one of {', '.join(ACTIONS)} or nothing, got "
                              f"{action!r}", line=line, field="action")
        o = Override(row["decision"], nums["start"], nums["end"],
                     row["label"])
        out[key] = dataclasses.replace(o, action=action or infer_action(by_key[key], o))
    return out, notes
