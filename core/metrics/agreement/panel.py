"""A panel of annotators: majority annotation, any measure as a pairwise matrix, each annotator
against one reference, and documents ranked by disagreement.

What the dashboard's Annotators page asks of ``core`` beyond the measures themselves
(:mod:`core.metrics.agreement.measures`):

* :func:`majority_set`: the annotation that a majority of annotators agree on, character by
  character and label by label, as maximal runs. Majority voting over characters is the usual
  way of turning several annotators' spans into one reference (e.g. the "at least two of three
  annotators" aggregation of Da San Martino et al. 2019, §3, applied per character here); ties
  (exactly half of an even number of annotators) are not a majority.
* :func:`pairwise`: every measure of ``python -m core agree`` as a matrix over annotator pairs;
  the many-annotator measures (Fleiss' κ, Krippendorff's α, unitizing α, γ, γ-cat) are computed
  on each pair alone.
* :func:`against` and :func:`against_majority`: every annotator scored against one reference
  (the gold, or the majority) with any measure; for span-F1 the reference is the gold side.
* :func:`rank_documents`: documents from most to least disagreement under one measure, with the
  pair of annotators that agree least in each.
* :func:`measure_view`: all of the above for one measure, as the page shows it.

>>> from core.model import Span
>>> a = AnnotationSet("A", {"d": (Span(0, 6, "x"),)}, role="annotator")
>>> b = AnnotationSet("B", {"d": (Span(2, 8, "x"),)}, role="annotator")
>>> c = AnnotationSet("C", {"d": (Span(4, 9, "x"), Span(0, 2, "y"))}, role="annotator")
>>> majority_set([a, b, c]).get("d")
(Span(start=2, end=8, label='x'),)
>>> majority_set([a, b, c], min_votes=3).get("d")
(Span(start=4, end=6, label='x'),)
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import numpy as np

from core.metrics.agreement.coefficients import Agreement, undefined
from core.metrics.agreement.dispatch import MEASURES, compute
from core.metrics.agreement.exact import DocumentF1, exact_f1
from core.metrics.agreement.measures import (
    DocumentValues,
    GammaCache,
    ManyResult,
    PairValue,
    PairwiseResult,
    char_agreement,
    document_values,
    span_f1,
    text_kappa,
)
from core.metrics.agreement.study import CharSides, Study, merge_intervals
from core.model import NOTHING, AnnotationSet, Span, SpanTable, SpanView
from core.model.errors import InputError, ParameterError, check_choice

Progress = Callable[[int, int], None]

MANY_MEASURES: tuple[str, ...] = (
    "fleiss-kappa", "krippendorff-alpha", "unitizing-alpha", "gamma", "gamma-cat")
"""Measures defined for any number of annotators; :func:`pairwise` runs them on each pair."""

ASYMMETRIC: tuple[str, ...] = ("span-f1", "mafalda-f1")
"""Measures whose value depends on which annotator is the reference (the row of the matrix)."""


# --- majority ----------------------------------------------------------------------------------

INSTANCE_MAJORITY = ("exact-f1",)
"""Measures scored against :func:`instance_majority` rather than :func:`majority_set`: those
whose unit is a span instance (document, start, end, label), not a character."""

def _voted_runs(per_annotator: list[list[tuple[int, int]]], min_votes: int
                ) -> list[tuple[int, int]]:
    """Maximal runs of positions covered by at least ``min_votes`` of the interval lists, each
    list counting once per position however many of its intervals cover it."""
    events: dict[int, int] = {}
    for intervals in per_annotator:
        for s, e in merge_intervals(intervals):
            events[s] = events.get(s, 0) + 1
            events[e] = events.get(e, 0) - 1
    out: list[tuple[int, int]] = []
    votes, start = 0, None
    for pos in sorted(events):
        votes += events[pos]
        if votes >= min_votes and start is None:
            start = pos
        elif votes < min_votes and start is not None:
            out.append((start, pos))
            start = None
    return out


def majority_set(sets: Sequence[AnnotationSet], *, label: str | None = None,
                 min_votes: int | None = None, name: str = "majority") -> AnnotationSet:
    """The spans a majority of annotators agree on: per document and label, the maximal runs of
    characters that at least ``min_votes`` annotators covered with that label.

    Parameters
    ----------
    sets : sequence of AnnotationSet
        One set per annotator (at least one).
    label : str, optional
        Keep only this label.
    min_votes : int, optional
        How many annotators must cover a character. Default: a strict majority of the sets that
        list the document, ``n_d // 2 + 1``; a tie (exactly half of an even number) is *not* a
        majority, so with 2 annotators the majority is their intersection. ``1`` gives the union,
        ``len(sets)`` the characters everyone marked.
    name : str
        Name of the returned set.

    Returns
    -------
    AnnotationSet
        Role ``gold``, one key per document that any set lists (``()`` where nothing reaches the
        threshold), spans sorted. An annotator counts once per character and label however many
        of its spans cover it; runs of one label that touch are one span. In a set with MAFALDA
        alternatives the optional-span marker ``nothing`` is no label and is left out (as in
        :class:`~core.metrics.agreement.study.Study`).

    Notes
    -----
    A document missing from an annotator's set is not a vote against: ``n_d`` counts the sets
    that list the document (the convention of the agreement measures, ``docs/agreement.md``).

    Examples
    --------
    >>> a = AnnotationSet("A", {"d": (Span(0, 4, "x"), Span(4, 6, "x"))}, role="annotator")
    >>> b = AnnotationSet("B", {"d": (Span(1, 5, "x"),), "e": ()}, role="annotator")
    >>> m = majority_set([a, b])   # two annotators: both must agree
    >>> m.get("d"), m.get("e")
    ((Span(start=1, end=5, label='x'),), ())
    >>> majority_set([a, b], min_votes=1).get("d")
    (Span(start=0, end=6, label='x'),)
    """
    _check_majority(sets, min_votes, "majority_set")
    if any(aset.alternatives for aset in sets):
        return _majority_set_per_document(sets, label=label, min_votes=min_votes, name=name)
    return _majority_set_columns(sets, label=label, min_votes=min_votes, name=name)


def _majority_set_columns(sets: Sequence[AnnotationSet], *, label: str | None,
                          min_votes: int | None, name: str) -> AnnotationSet:
    """:func:`majority_set` for the whole corpus at once with NumPy (sets without alternatives).

    Each annotator's spans are merged per document and label (a running maximum of the ends
    over rows sorted by start), the merged runs become +1/-1 events, and one cumulative sum over
    the events sorted by document, label and position gives the votes between two positions;
    segments with enough votes that follow each other form the runs. Equal to
    :func:`_majority_set_per_document` (``tests/agreement/test_panel.py``).
    """
    docs: dict[str, int] = {}
    for aset in sets:
        for doc_id in aset.spans:
            docs.setdefault(doc_id, len(docs))
    listed = np.zeros(len(docs), dtype=np.int64)
    labels: dict[str, int] = {}
    cols: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for aset in sets:
        table = aset.table
        doc_map = np.fromiter((docs[d] for d in table.doc_ids), dtype=np.int64,
                              count=len(table.doc_ids))
        listed[doc_map] += 1
        label_map = np.fromiter((labels.setdefault(lab, len(labels)) for lab in table.labels),
                                dtype=np.int64, count=len(table.labels))
        keep = np.ones(len(table), dtype=bool)
        if label is not None and len(table):
            keep = np.array([lab == label for lab in table.labels], dtype=bool)[table.label]
        cols.append((doc_map[table.doc[keep]], label_map[table.label[keep]],
                     table.start[keep].astype(np.int64), table.end[keep].astype(np.int64)))
    need = (np.full(len(docs), min_votes, dtype=np.int64) if min_votes is not None
            else listed // 2 + 1)
    names = list(labels)
    empty = np.zeros(0, dtype=np.int64)
    n_labels = max(len(names), 1)
    ev_group: list[np.ndarray] = []
    ev_pos: list[np.ndarray] = []
    ev_delta: list[np.ndarray] = []
    for d, lab, start, end in cols:
        if not len(d):
            continue
        group = d * n_labels + lab
        order = np.lexsort((start, group))
        group, start, end = group[order], start[order], end[order]
        # Merge each annotator's runs per (document, label): a run starts where a span starts
        # after every earlier span of its group has ended.
        big = int(end.max()) + 1
        reach = np.maximum.accumulate(group * big + end) - group * big
        new = np.ones(len(group), dtype=bool)
        new[1:] = (group[1:] != group[:-1]) | (start[1:] > reach[:-1])
        first = np.flatnonzero(new)
        last = np.append(first[1:], len(group)) - 1
        ev_group += [group[first], group[first]]
        ev_pos += [start[first], reach[last]]
        ev_delta += [np.ones(len(first), dtype=np.int64), -np.ones(len(first), dtype=np.int64)]
    if ev_group:
        group = np.concatenate(ev_group)
        pos = np.concatenate(ev_pos)
        delta = np.concatenate(ev_delta)
        order = np.lexsort((pos, group))
        group, pos, delta = group[order], pos[order], delta[order]
        # One entry per (group, position) with the net change there.
        head = np.ones(len(group), dtype=bool)
        head[1:] = (group[1:] != group[:-1]) | (pos[1:] != pos[:-1])
        at = np.flatnonzero(head)
        group, pos = group[at], pos[at]
        votes = np.cumsum(np.add.reduceat(delta, at))  # every group sums to zero
        doc = group // n_labels
        ok = votes >= need[doc]
        # A run: consecutive qualifying segments [pos_i, pos_i+1) of one group.
        same = group[1:] == group[:-1]
        starts_run = ok.copy()
        starts_run[1:] &= ~(ok[:-1] & same)
        ends_run = ok.copy()
        ends_run[:-1] &= ~(ok[1:] & same)
        first_of = np.flatnonzero(starts_run)
        out_doc, out_label = doc[first_of], group[first_of] % n_labels
        # A qualifying segment is never a group's last position (votes are 0 there).
        out_start, out_end = pos[first_of], pos[np.flatnonzero(ends_run) + 1]
    else:
        out_doc = out_label = out_start = out_end = empty
    table = SpanTable.from_columns(list(docs), out_doc, out_start, out_end, out_label, names)
    return AnnotationSet(name, SpanView(table), role="gold")


def _majority_set_per_document(sets: Sequence[AnnotationSet], *, label: str | None,
                               min_votes: int | None, name: str) -> AnnotationSet:
    """:func:`majority_set` one document and label at a time (any set, alternatives too)."""
    return _per_document(sets, label=label, min_votes=min_votes, name=name, vote=_runs)


def _runs(marked: list[list[Span]], need: int) -> list[Span]:
    """Per label, the maximal runs of characters at least ``need`` of ``marked`` (each
    annotator's spans) cover."""
    by_label: dict[str, list[list[tuple[int, int]]]] = {}
    for k, spans in enumerate(marked):
        for sp in spans:
            by_label.setdefault(sp.label, [[] for _ in marked])[k].append((sp.start, sp.end))
    return [Span(s, e, lab) for lab, lists in by_label.items()
            for s, e in _voted_runs(lists, need)]


def _check_majority(sets: Sequence[AnnotationSet], min_votes: int | None, function: str
                    ) -> None:
    """Refuse no sets, or a ``min_votes`` that is not a positive integer (nor None)."""
    if not sets:
        raise InputError("a majority needs at least one annotation set; got none")
    if min_votes is not None and (isinstance(min_votes, bool) or not isinstance(min_votes, int)
                                  or min_votes < 1):
        raise ParameterError("min_votes", f"The 'min_votes' parameter of {function} must be a "
                             f"positive integer or None. Got {min_votes!r} instead.")


def _per_document(sets: Sequence[AnnotationSet], *, label: str | None, min_votes: int | None,
                  name: str, vote: Callable[[list[list[Span]], int], list[Span]]
                  ) -> AnnotationSet:
    """A majority one document at a time: ``vote`` gets the spans of each set that lists the
    document (only ``label``'s when given; MAFALDA's ⊥ marker, no label, left out) and how many
    votes a majority needs (``min_votes``, else a strict majority of those sets)."""
    docs: dict[str, None] = {}
    for aset in sets:
        docs.update(dict.fromkeys(aset.spans))
    out: dict[str, tuple[Span, ...]] = {}
    for doc in docs:
        listing = [aset for aset in sets if doc in aset.spans]
        need = min_votes if min_votes is not None else len(listing) // 2 + 1
        marked = [[sp for sp in aset.spans[doc] if (label is None or sp.label == label)
                   and not (aset.alternatives and sp.label == NOTHING)] for aset in listing]
        out[doc] = tuple(sorted(vote(marked, need)))
    return AnnotationSet(name, out, role="gold")


def instance_majority(sets: Sequence[AnnotationSet], *, label: str | None = None,
                      min_votes: int | None = None, name: str = "majority") -> AnnotationSet:
    """The spans (document, start, end and label: exact-f1's instances) that at least
    ``min_votes`` annotators marked (default: a strict majority of the sets that list the
    document, as :func:`majority_set`); each annotator counts once per instance.

    The majority ``exact-f1`` is scored against (:func:`against_majority`): :func:`majority_set`
    is made of characters, where runs of one label that touch are one span, so three
    annotators who all marked ``[0, 4)`` and ``[4, 9)`` would each score 0 against its one span
    ``[0, 9)``; here the majority holds the two spans they marked. (A run no annotator marked as
    one span, ``[1, 5)`` out of ``[0, 4)``, ``[1, 5)`` and ``[2, 6)``, is no instance majority.)

    >>> two = (Span(0, 4, "x"), Span(4, 9, "x"))
    >>> sets = [AnnotationSet(n, {"d": two}, role="annotator") for n in "ABC"]
    >>> majority_set(sets).get("d"), instance_majority(sets).get("d")
    ((Span(start=0, end=9, label='x'),), (Span(start=0, end=4, label='x'), \
Span(start=4, end=9, label='x')))
    """
    _check_majority(sets, min_votes, "instance_majority")
    return _per_document(sets, label=label, min_votes=min_votes, name=name, vote=_instances)


def _instances(marked: list[list[Span]], need: int) -> list[Span]:
    """The spans at least ``need`` of ``marked`` (each annotator's spans) hold."""
    votes: Counter[Span] = Counter()
    for spans in marked:
        votes.update(set(spans))
    return [sp for sp, n in votes.items() if n >= need]


# --- any measure over pairs --------------------------------------------------------------------

def sub_study(study: Study, annotators: Sequence[str]) -> Study:
    """The same study restricted to ``annotators`` (same labels and document lengths, so values
    are comparable with the full study's); documents none of them lists are dropped.

    >>> a = AnnotationSet("A", {"d": (Span(0, 2, "x"),)}, role="annotator")
    >>> b = AnnotationSet("B", {"e": (Span(0, 2, "y"),)}, role="annotator")
    >>> s = sub_study(Study.from_sets([a, b]), ["B"])
    >>> s.annotators, s.docs, s.labels
    (['B'], ['e'], ['x', 'y'])
    """
    who = list(annotators)
    unknown = [a for a in who if a not in study.spans]
    if unknown:
        raise InputError(f"no annotator {unknown[0]!r} in the study (annotators: "
                         f"{', '.join(study.annotators)})")
    listed = set().union(*(study.spans[a] for a in who))
    docs = [d for d in study.docs if d in listed]
    return Study(who, docs, {d: study.lengths[d] for d in docs},
                 {a: study.spans[a] for a in who}, list(study.labels),
                 {d: study.length_known.get(d, False) for d in docs},
                 [w for w in study.warnings if any(w.startswith(f"{a}:") for a in who)],
                 # the same spans, so the same columns (built again they would cost a Span
                 # object per span)
                 {a: study.tables[a] for a in who if a in study.tables})


def _measure(study: Study, measure: str, *, samples: int, seed: int,
             progress: Progress | None, per_document: bool = True,
             cache: GammaCache | None = None) -> PairwiseResult | ManyResult:
    return compute(study, measure, samples=samples, seed=seed, progress=progress, cache=cache,
                   per_document=per_document)


def _check(measure: str, owner: str) -> None:
    check_choice("measure", owner, measure, MEASURES)


def _scaled(progress: Progress | None, k: int, n: int) -> Progress | None:
    """Progress of step ``k`` of ``n`` reported as progress of the whole."""
    if progress is None:
        return None
    return lambda done, total: progress(k * total + done, n * total)


def pairwise(study: Study, measure: str, *, samples: int = 30, seed: int = 0,
             progress: Progress | None = None, per_document: bool = True,
             cache: GammaCache | None = None) -> PairwiseResult:
    """``measure`` (a name of ``python -m core agree --measure``) for every annotator pair.

    Pairwise measures are returned as they are (:func:`~core.metrics.agreement.compute`); a
    many-annotator measure (:data:`MANY_MEASURES`) is computed on each pair alone
    (:func:`sub_study`): for two annotators Fleiss' κ is Scott's π and γ is the two-annotator γ of
    :func:`~core.metrics.agreement.gamma_matrix`. For :data:`ASYMMETRIC` measures
    ``pairs[(a, b)]`` takes ``a`` as the reference; every other result is symmetric, one entry
    per unordered pair. ``samples``, ``seed`` and ``cache`` are γ's; ``progress(done, total)`` is
    called as
    the work advances. ``per_document=False`` may leave the per-document values out where
    that saves time (unitizing α).

    >>> a = AnnotationSet("A", {"d": (Span(0, 10, "x"),)}, role="annotator")
    >>> b = AnnotationSet("B", {"d": (Span(0, 10, "x"), Span(12, 20, "y"))}, role="annotator")
    >>> s = Study.from_sets([a, b], {"d": "0123456789 0123456789"})
    >>> from core.metrics.agreement import unitizing
    >>> pairwise(s, "unitizing-alpha").matrix()["B"]["A"] == unitizing(s).overall.value
    True
    """
    _check(measure, "pairwise")
    if len(study.annotators) < 2:
        raise InputError(f"a pairwise matrix needs at least two annotators; got "
                         f"{len(study.annotators)}")
    if measure not in MANY_MEASURES:
        result = _measure(study, measure, samples=samples, seed=seed, progress=None,
                          per_document=per_document, cache=cache)
        if progress is not None:
            progress(1, 1)
        assert isinstance(result, PairwiseResult)
        return result
    combos = list(combinations(study.annotators, 2))
    pairs: dict[tuple[str, str], PairValue] = {}
    params: dict[str, object] = {}
    for k, (a, b) in enumerate(combos):
        r = _measure(sub_study(study, [a, b]), measure, samples=samples, seed=seed,
                     progress=_scaled(progress, k, len(combos)), per_document=per_document,
                     cache=cache)
        assert isinstance(r, ManyResult)
        pairs[(a, b)] = PairValue(r.overall, dict(r.per_label), dict(r.per_document))
        params = {k2: v for k2, v in r.params.items() if k2 in ("samples", "seed", "sampler")}
    if progress is not None and not combos:
        progress(1, 1)
    return PairwiseResult(measure, list(study.annotators), pairs, symmetric=True,
                          params={**params, "computed": "on each pair alone"})


def _pair(result: PairwiseResult, reference: str, other: str) -> PairValue:
    pv = result.pairs.get((reference, other))
    if pv is None:
        pv = result.pairs[(other, reference)]
    return pv


def against(study: Study, reference: str, *, measure: str, samples: int = 30, seed: int = 0,
            progress: Progress | None = None, cache: GammaCache | None = None
            ) -> dict[str, PairValue]:
    """Every other annotator of ``study`` against ``reference`` under ``measure``.

    The value is the pair's entry of :func:`pairwise` on the two annotators alone, with
    ``reference`` as the row (the gold side of span-F1: its ``extra`` holds precision and
    recall of the annotator's spans against the reference's), without its per-document values
    where leaving them out saves time (every measure but γ and γ-cat): the page shows none.

    >>> g = AnnotationSet("gold", {"d": (Span(0, 10, "x"),)})
    >>> a = AnnotationSet("A", {"d": (Span(0, 5, "x"),)}, role="annotator")
    >>> r = against(Study.from_sets([g, a], {"d": "x" * 12}), "gold", measure="span-f1")
    >>> r["A"].extra["precision"].value, r["A"].extra["recall"].value
    (1.0, 0.5)
    """
    _check(measure, "against")
    if reference not in study.annotators:
        raise InputError(f"no annotator {reference!r} in the study (annotators: "
                         f"{', '.join(study.annotators)})")
    others = [a for a in study.annotators if a != reference]
    out: dict[str, PairValue] = {}
    if measure in ASYMMETRIC and others:
        # One direction is enough: the reference is the gold side.
        res = span_f1(study, "martino" if measure == "span-f1" else "mafalda",
                      only=[(reference, a) for a in others], per_document=False)
        if progress is not None:
            progress(1, 1)
        return {a: res.pairs[(reference, a)] for a in others}
    if measure == "exact-f1" and others:
        # the pairs of the study itself, as for the character measures: a pair counts only
        # the documents both list, as on the two annotators alone
        res = exact_f1(study, only=[(reference, a) for a in others], per_document=False)
        if progress is not None:
            progress(1, 1)
        return {a: res.pairs[(reference, a)] for a in others}
    if measure in ("char-kappa", "char-jaccard") and others:
        # The pairs of the study itself: a pair's counts look only at the documents both list,
        # as on the two annotators alone (:func:`sub_study`), and each annotator's documents
        # and labels are looked up once for all of them.
        kappa, jaccard = char_agreement(study, per_document=(False, False),
                                        only=[(reference, a) for a in others])
        if progress is not None:
            progress(1, 1)
        chosen = kappa if measure == "char-kappa" else jaccard
        return {a: chosen.pairs[(reference, a)] for a in others}
    for k, a in enumerate(others):
        res = pairwise(sub_study(study, [reference, a]), measure, samples=samples, seed=seed,
                       progress=_scaled(progress, k, len(others)), per_document=False,
                       cache=cache)
        out[a] = _pair(res, reference, a)
    if progress is not None and not others:
        progress(1, 1)
    return out


def _free_name(base: str, taken: Sequence[str]) -> str:
    name, k = base, 2
    while name in taken:
        name, k = f"{base} ({k})", k + 1
    return name


def against_majority(sets: Sequence[AnnotationSet], texts: dict[str, str | None] | None = None,
                     *, measure: str, label: str | None = None, min_votes: int | None = None,
                     leave_one_out: bool = False, samples: int = 30, seed: int = 0,
                     progress: Progress | None = None, cache: GammaCache | None = None,
                     shared: Shared | None = None) -> dict[str, PairValue]:
    """Every annotator against the majority of ``sets`` (:func:`majority_set`) under ``measure``
    (exact-f1 against :func:`instance_majority`, the spans a majority marked with the same
    offsets and label: a character majority merges touching runs into one span, which no
    annotator marked). ``shared``: the majorities and studies kept between calls
    (:class:`Shared`).

    With ``leave_one_out`` each annotator is scored against the majority of the *others* (its own
    votes do not count in its reference; with three annotators that is the characters both
    others marked); otherwise against the majority of all, which includes it and so flatters it.

    >>> a = AnnotationSet("A", {"d": (Span(0, 6, "x"),)}, role="annotator")
    >>> b = AnnotationSet("B", {"d": (Span(0, 6, "x"),)}, role="annotator")
    >>> c = AnnotationSet("C", {"d": (Span(3, 6, "x"),)}, role="annotator")
    >>> r = against_majority([a, b, c], measure="char-jaccard")
    >>> [round(r[n].overall.value, 2) for n in "ABC"]
    [1.0, 1.0, 0.5]
    >>> r = against_majority([a, b, c], measure="char-jaccard", leave_one_out=True)
    >>> [round(r[n].overall.value, 2) for n in "ABC"]
    [0.5, 0.5, 0.5]
    """
    _check(measure, "against_majority")
    if len(sets) < 2:
        raise InputError(f"a majority needs at least two annotation sets; got {len(sets)}")
    names = [s.name for s in sets]
    ref = _free_name("majority", names)
    if not leave_one_out:
        maj = _majority(shared, sets, label=label, min_votes=min_votes, name=ref,
                        measure=measure)
        study = _study(shared, [maj, *sets], texts, label)
        return against(study, ref, measure=measure, samples=samples, seed=seed,
                       progress=progress, cache=cache)
    out: dict[str, PairValue] = {}
    for k, aset in enumerate(sets):
        others = [s for s in sets if s.name != aset.name]
        maj = _majority(shared, others, label=label, min_votes=min_votes, name=ref,
                        measure=measure)
        study = _study(shared, [maj, aset], texts, label)
        out[aset.name] = against(study, ref, measure=measure, samples=samples, seed=seed,
                                 progress=_scaled(progress, k, len(sets)),
                                 cache=cache)[aset.name]
    return out


# --- documents by disagreement -----------------------------------------------------------------

_GONE = "left out of the many-annotator value: not every annotator lists this document"

@dataclass(frozen=True)
class DocDisagreement:
    """One document's agreement under one measure.

    ``value``: the many-annotator value when one was given, else the mean over the pairs
    (:meth:`PairwiseResult.document_ranking`); ``None`` with a ``reason`` when undefined.
    ``pair`` / ``pair_value``: the annotator pair that agrees least in this document (``None``
    when no pair has a defined value); for asymmetric measures the first is the reference.
    ``pairs``: how many pairs had a defined value here.
    """

    doc: str
    value: float | None
    reason: str | None = None
    pair: tuple[str, str] | None = None
    pair_value: float | None = None
    pairs: int = 0


def rank_documents(pairs: PairwiseResult | None = None, many: ManyResult | None = None
                   ) -> list[DocDisagreement]:
    """Documents from most to least disagreement (lowest value first), undefined ones last.

    Give the pairwise result of a measure, its many-annotator result, or both (then the value is
    the many-annotator one and the pairs name the least agreeing pair).

    >>> a = AnnotationSet("A", {"d": (Span(0, 4, "x"),), "e": (Span(0, 4, "x"),)})
    >>> b = AnnotationSet("B", {"d": (Span(0, 4, "x"),), "e": (Span(2, 4, "x"),)})
    >>> from core.metrics.agreement import char_agreement
    >>> _, jac = char_agreement(Study.from_sets([a, b]))
    >>> [(r.doc, r.value, r.pair) for r in rank_documents(jac)]
    [('e', 0.5, ('A', 'B')), ('d', 1.0, ('A', 'B'))]
    """
    if pairs is None and many is None:
        raise InputError("rank_documents needs a pairwise result, a many-annotator result or "
                         "both")
    docs: dict[str, None] = {}
    if many is not None:
        docs.update(dict.fromkeys(many.per_document))
    if pairs is not None:
        for pv in pairs.pairs.values():
            docs.update(dict.fromkeys(pv.per_document))
    table = _pair_values(pairs, docs) if pairs is not None else None
    if table is None and pairs is not None:
        return _rank_documents_loop(pairs, many)
    n = len(docs)
    pair_of, pair_value, n_pairs, mean = _least_pairs(table, list(pairs.pairs) if pairs else [], n)
    if many is not None:
        gone = undefined(_GONE)
        agrs = [many.per_document.get(doc) or gone for doc in docs]
        value = [a.value for a in agrs]
        if any(v is not None and (type(v) is not float or not math.isfinite(v))
               for v in value):
            return _rank_documents_loop(pairs, many)
        reason = [a.reason for a in agrs]
    else:
        first_reason = table[1] if table is not None else {}
        value = [m if c else None for m, c in zip(mean, n_pairs, strict=True)]
        reason = [None if c else first_reason.get(doc, "undefined for every pair")
                  for doc, c in zip(docs, n_pairs, strict=True)]
    return _ranked(list(docs), value, reason, pair_of, pair_value, n_pairs)


def _ranked(names: list[str], value: Sequence[float | None], reason: Sequence[str | None],
            pair_of: list[tuple[str, str] | None], pair_value: list[float | None],
            n_pairs: list[int]) -> list[DocDisagreement]:
    """:func:`rank_documents`' rows in its order: the lowest value first, undefined ones last,
    ties in the documents' order."""
    n = len(names)
    missing = np.fromiter((v is None for v in value), dtype=bool, count=n)
    score = np.fromiter((0.0 if v is None else v for v in value), dtype=float, count=n)
    order = np.lexsort((np.arange(n), score, missing)).tolist()
    return [DocDisagreement(names[i], value[i], reason[i], pair_of[i], pair_value[i], n_pairs[i])
            for i in order]


def _least_pairs(table: tuple[np.ndarray, dict[str, str]] | None, keys: list[tuple[str, str]],
                 n: int) -> tuple[list[tuple[str, str] | None], list[float | None], list[int],
                                  list[float]]:
    """Per document, from :func:`_pair_values`: the first pair with the lowest value and that
    value (``None`` where no pair has one), how many pairs have one, and their mean (that of
    :meth:`PairwiseResult.document_ranking`; NaN where none)."""
    if table is None or not len(table[0]):
        return [None] * n, [None] * n, [0] * n, [math.nan] * n
    vals = table[0]
    defined = ~np.isnan(vals)
    counts = defined.sum(axis=0)
    # an undefined value is never the lowest
    low = np.argmin(np.where(defined, vals, np.inf), axis=0)
    low_value = vals[low, np.arange(n)]
    # document_ranking's mean: a left-to-right sum of the pairs' defined values (from 0.0, as
    # Python's sum from 0), divided by their count (fewer than 8 pairs: else no table)
    total = np.zeros(n)
    for row, ok in zip(vals, defined, strict=True):
        total = total + np.where(ok, row, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / counts
    n_pairs = counts.tolist()
    return ([keys[k] if c else None for k, c in zip(low.tolist(), n_pairs, strict=True)],
            [v if c else None for v, c in zip(low_value.tolist(), n_pairs, strict=True)],
            n_pairs, mean.tolist())


def _pair_values(pairs: PairwiseResult, docs: Mapping[str, None]
                 ) -> tuple[np.ndarray, dict[str, str]] | None:
    """The pairs' per-document values as an array ``(pairs, documents)`` (NaN where undefined)
    and each document's first reason of an undefined value, for :func:`rank_documents`;
    ``None`` where the arrays would not give its floats: 8 pairs or more (a mean of NumPy's
    pairwise sum), a defined value that is not a finite float."""
    if len(pairs.pairs) >= 8:
        return None
    index = {d: i for i, d in enumerate(docs)}
    vals = np.full((len(pairs.pairs), len(docs)), np.nan)
    first_reason: dict[str, str] = {}
    for row, pv in zip(vals, pairs.pairs.values(), strict=True):
        got = [(index[doc], agr.value) for doc, agr in pv.per_document.items()
               if agr.value is not None]
        if any(type(v) is not float or not math.isfinite(v) for _, v in got):
            return None
        if got:
            at, values = zip(*got, strict=True)
            row[list(at)] = values
        if len(got) < len(pv.per_document):
            for doc, agr in pv.per_document.items():
                if agr.value is None and agr.reason:
                    first_reason.setdefault(doc, agr.reason)
    return vals, first_reason


def _rank_documents_loop(pairs: PairwiseResult | None = None, many: ManyResult | None = None
                         ) -> list[DocDisagreement]:
    """:func:`rank_documents` one document and pair at a time (any values, any number of
    pairs); the arrays give the same rows (``tests/agreement/test_char_shared.py``)."""
    docs: dict[str, None] = {}
    if many is not None:
        docs.update(dict.fromkeys(many.per_document))
    worst: dict[str, tuple[tuple[str, str], float]] = {}
    defined: dict[str, int] = {}
    first_reason: dict[str, str] = {}
    if pairs is not None:
        for key, pv in pairs.pairs.items():
            for doc, agr in pv.per_document.items():
                docs.setdefault(doc, None)
                if agr.value is None:
                    if agr.reason:
                        first_reason.setdefault(doc, agr.reason)
                    continue
                defined[doc] = defined.get(doc, 0) + 1
                if doc not in worst or agr.value < worst[doc][1]:
                    worst[doc] = (key, agr.value)
    means = dict(pairs.document_ranking()) if pairs is not None else {}
    rows: list[DocDisagreement] = []
    for doc in docs:
        pair, pair_value = worst.get(doc, (None, None))
        if many is not None:
            agr = many.per_document.get(doc) or undefined(_GONE)
        elif doc in means:
            agr = Agreement(means[doc])
        else:
            agr = undefined(first_reason.get(doc, "undefined for every pair"))
        rows.append(DocDisagreement(doc, agr.value, agr.reason, pair, pair_value,
                                    defined.get(doc, 0)))
    order = {d: i for i, d in enumerate(docs)}
    return sorted(rows, key=lambda r: (r.value is None,
                                       r.value if r.value is not None else 0.0, order[r.doc]))


# --- everything the page shows for one measure -------------------------------------------------

class Shared:
    """What :func:`measure_view` keeps between calls on the same sets: the studies, the
    majority sets and the character runs (:class:`~core.metrics.agreement.study.CharSides`),
    each under the identity of the objects it was built from, which it holds (so an identity is
    never reused while its entry is kept); the last :attr:`size` entries are kept. The
    dashboard's background worker computes one measure per call, so each measure after the
    first on the same sets builds none of them again."""

    size = 8

    def __init__(self) -> None:
        self._kept: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        self._lock = threading.Lock()

    def get(self, parts: tuple[Any, ...], build: Callable[[], Any]) -> Any:
        """The value kept for ``parts`` (objects compared by identity; strings, numbers and
        None by value), else ``build()`` kept."""
        key = tuple(p if p is None or isinstance(p, (str, int)) else id(p) for p in parts)
        got = self._kept.get(key)
        if got is None:
            value = build()
            with self._lock:  # a dashboard's page runs may share one (several threads)
                got = self._kept.setdefault(key, (parts, value))
                while len(self._kept) > self.size:
                    del self._kept[next(iter(self._kept))]
        return got[1]

    def peek(self, parts: tuple[Any, ...]) -> Any:
        """The value kept for ``parts`` (as :meth:`get`), else None; nothing is built."""
        key = tuple(p if p is None or isinstance(p, (str, int)) else id(p) for p in parts)
        got = self._kept.get(key)
        return None if got is None else got[1]


def char_counted(shared: Shared, sets: Sequence[AnnotationSet],
                 texts: dict[str, str | None] | None, label: str | None) -> bool:
    """Whether ``shared`` keeps the pairs' counts of a lean character view of ``sets``
    (:func:`_char_pairs`): the lean view of char-κ or char-Jaccard on them then counts no
    pair (0.04 s of CPU at 10,000 documents and three annotators instead of 0.18–0.3 s)."""
    study = shared.peek(("study", *sets, texts, label))
    sides = None if study is None else shared.peek(("sides", study))
    return isinstance(sides, CharSides) and any(
        k[0] == "char pairs" and k[2] is None for k in sides.kept)


def _kept(shared: Shared | None, parts: tuple[Any, ...], build: Callable[[], Any]) -> Any:
    return build() if shared is None else shared.get(parts, build)


def _study(shared: Shared | None, sets: Sequence[AnnotationSet],
           texts: dict[str, str | None] | None, label: str | None) -> Study:
    study: Study = _kept(shared, ("study", *sets, texts, label),
                         lambda: Study.from_sets(sets, texts, label=label))
    return study


def _majority(shared: Shared | None, sets: Sequence[AnnotationSet], *, label: str | None,
              min_votes: int | None, name: str, measure: str | None = None) -> AnnotationSet:
    """The majority ``measure`` is scored against: exact-f1's is made of its instances
    (:func:`instance_majority`), every other measure's of characters (:func:`majority_set`)."""
    make = instance_majority if measure in INSTANCE_MAJORITY else majority_set
    maj: AnnotationSet = _kept(
        shared, (make.__name__, *sets, label, min_votes, name),
        lambda: make(sets, label=label, min_votes=min_votes, name=name))
    return maj


@dataclass(frozen=True)
class MeasureView:
    """One measure over a panel of sets: the pairwise matrix (:func:`pairwise`), the value of all
    sets together (many-annotator measures only), each set against the gold and against the
    majority (:func:`against`, :func:`against_majority`) and the documents ranked
    (:func:`rank_documents`)."""

    measure: str
    pairwise: PairwiseResult
    many: ManyResult | None
    gold: dict[str, PairValue] | None
    majority: dict[str, PairValue]
    ranking: list[DocDisagreement]


def measure_view(sets: Sequence[AnnotationSet], texts: dict[str, str | None] | None = None, *,
                 measure: str, label: str | None = None, gold: AnnotationSet | None = None,
                 leave_one_out: bool = False, samples: int = 30, seed: int = 0,
                 progress: Progress | None = None, cache: GammaCache | None = None,
                 shared: Shared | None = None, lean: bool = False) -> MeasureView:
    """:class:`MeasureView` of ``measure`` over ``sets`` (only ``label`` when given).

    ``gold``: the set each of ``sets`` is scored against (a set of that name among ``sets`` is
    left out of that comparison); ``None``: no gold comparison. ``samples``, ``seed``,
    ``cache``: γ's. ``shared``: the studies, the majority and the character runs kept between
    calls on the same sets (:class:`Shared`: the dashboard's worker computes one measure per
    call); the values are the same with or without. ``lean``: the view a page shows
    (:func:`lean_view`: no per-document values but the ranking's), for every measure but γ,
    γ-cat and α_U without an object per document and pair (the ranking from per-document
    floats; ``tests/agreement/test_view_lean.py``).

    >>> a = AnnotationSet("A", {"d": (Span(0, 6, "x"),)}, role="annotator")
    >>> b = AnnotationSet("B", {"d": (Span(0, 6, "x"),)}, role="annotator")
    >>> g = AnnotationSet("gold", {"d": (Span(0, 3, "x"),)})
    >>> v = measure_view([a, b], {"d": "z" * 8}, measure="char-jaccard", gold=g)
    >>> v.pairwise.matrix()["A"]["B"], v.gold["A"].overall.value, v.majority["B"].overall.value
    (1.0, 0.5, 1.0)
    """
    _check(measure, "measure_view")
    steps = 4

    def step(k: int) -> Progress | None:
        return _scaled(progress, k, steps)

    if lean:
        got = None
        if measure in DOCUMENT_VALUES:
            got = _lean_many_view(
                _study(shared, sets, texts, label), sets, texts, measure=measure, label=label,
                gold=gold, leave_one_out=leave_one_out, progress=progress, shared=shared)
        elif (measure in CHAR_MEASURES and not leave_one_out and len(sets) >= 2
              and not any(s.alternatives for s in sets)):
            study = _study(shared, sets, texts, label)
            if 2 <= len(study.annotators) <= 4:  # fewer than 8 pairs: rank_documents' arrays
                got = _char_view(study, sets, texts, measure=measure, label=label, gold=gold,
                                 progress=progress, shared=shared, lean=True)
        elif measure in PAIR_FLOATS:
            got = _lean_pair_view(
                _study(shared, sets, texts, label), sets, texts, measure=measure, label=label,
                gold=gold, leave_one_out=leave_one_out, progress=progress, shared=shared)
        if got is not None:
            return got
        return lean_view(measure_view(sets, texts, measure=measure, label=label, gold=gold,
                                      leave_one_out=leave_one_out, samples=samples, seed=seed,
                                      progress=progress, cache=cache, shared=shared))
    study = _study(shared, sets, texts, label)
    if (measure in CHAR_MEASURES and not leave_one_out and len(study.annotators) >= 2
            and not any(s.alternatives for s in sets)):
        view = _char_view(study, sets, texts, measure=measure, label=label, gold=gold,
                          progress=progress, shared=shared)
        if view is not None:
            return view
    pw = pairwise(study, measure, samples=samples, seed=seed, progress=step(0), cache=cache)
    many = None
    if measure in MANY_MEASURES:
        res = _measure(study, measure, samples=samples, seed=seed, progress=step(1),
                       cache=cache)
        assert isinstance(res, ManyResult)
        many = res
    gold_res = None
    others = [s for s in sets if gold is None or s.name != gold.name]
    if gold is not None and others:
        # the gold first among the sets: its study is the sets' own
        gstudy = study if sets[0] is gold else _study(shared, [gold, *others], texts, label)
        gold_res = against(gstudy, gold.name, measure=measure, samples=samples, seed=seed,
                           progress=step(2), cache=cache)
    maj = against_majority(sets, texts, measure=measure, label=label,
                           leave_one_out=leave_one_out, samples=samples, seed=seed,
                           progress=step(3), cache=cache, shared=shared)
    if progress is not None:
        progress(steps, steps)
    return MeasureView(measure, pw, many, gold_res, maj, rank_documents(pw, many))


CHAR_MEASURES: tuple[str, ...] = ("char-kappa", "char-jaccard")


def _without_documents(pv: PairValue) -> PairValue:
    """``pv`` as :func:`against` gives it for a character measure: no per-document values."""
    return PairValue(pv.overall, dict(pv.per_label), {}, dict(pv.extra))


def _char_view(study: Study, sets: Sequence[AnnotationSet], texts: dict[str, str | None] | None,
               *, measure: str, label: str | None, gold: AnnotationSet | None,
               progress: Progress | None, shared: Shared | None, lean: bool = False
               ) -> MeasureView | None:
    """:func:`measure_view` of char-κ or char-Jaccard (no leave-one-out, no MAFALDA
    alternatives) with one :class:`~core.metrics.agreement.study.CharSides` for every
    comparison: each set's runs are merged once, the majority is voted from those runs
    (:meth:`CharSides.majority`, no :func:`majority_set`, no study of it), and each set against
    it is a pair of the same sides; when the gold is the first of ``sets``, each set against
    it is its pair of the matrix without the per-document values (the study
    :func:`against` would build is the sets' own). None where the runs cannot be merged
    (:meth:`CharSides.runs`): then the general way. The same floats as the general way
    (``tests/agreement/test_view_shared.py``). ``lean``: :func:`lean_view` of it, the
    ranking from the matrix's per-document values as floats (no object per document and
    pair: 0.3 s of the worker's CPU at 100,000 documents); None where :func:`rank_documents`
    would not take them (8 pairs or more, a value that is not a finite float)."""
    names = list(study.annotators)
    ref = _free_name("majority", names)
    sides = _kept(shared, ("sides", study), lambda: CharSides(study))
    if ref not in sides.added and not sides.majority(ref, names):
        return None
    kappa = measure == "char-kappa"
    pick = 0 if kappa else 1
    floats: DocumentValues = {}
    if lean:
        both, both_floats = _char_pairs(study, sides, None)
        pw, floats = both[pick], both_floats[pick]
    else:
        pw = char_agreement(study, per_document=(kappa, not kappa), sides=sides)[pick]
    if progress is not None:
        progress(1, 4)
    gold_res = None
    others = [s for s in sets if gold is None or s.name != gold.name]
    if gold is not None and others:
        if sets[0] is gold:
            gold_res = {s.name: _without_documents(pw.pairs[(gold.name, s.name)])
                        for s in others}
        elif lean:
            # the gold's study and its sides kept with this study's (each set's runs there
            # are of the gold's study: its labels may be more)
            gstudy = _study(shared, [gold, *others], texts, label)
            gsides = _kept_with(sides, ("gold sides", gold, gstudy),
                                lambda: CharSides(gstudy))
            pairs = [(gold.name, a) for a in gstudy.annotators if a != gold.name]
            chosen = _char_pairs(gstudy, gsides, pairs)[0][pick]
            gold_res = {a: chosen.pairs[(gold.name, a)] for _, a in pairs}
        else:
            gstudy = _study(shared, [gold, *others], texts, label)
            gold_res = against(gstudy, gold.name, measure=measure)
    if progress is not None:
        progress(3, 4)
    if lean:
        maj = _char_pairs(study, sides, [(ref, a) for a in names])[0][pick]
    else:
        maj = char_agreement(study, per_document=(False, False),
                             only=[(ref, a) for a in names], sides=sides)[pick]
    if progress is not None:
        progress(4, 4)
    if lean:
        per_pair = [floats.get(k, ([], [], [])) for k in pw.pairs]
        if len(per_pair) >= 8 or any(not _finite_floats(v) for _, v, _ in per_pair):
            return None  # rank_documents would not take its arrays: the general way
        ranking = _rank_floats(list(pw.pairs), per_pair, None)
    else:
        ranking = rank_documents(pw, None)
    return MeasureView(measure, pw, None, gold_res, {a: maj.pairs[(ref, a)] for a in names},
                       ranking)


def _kept_with(sides: CharSides, parts: tuple[Any, ...], build: Callable[[], Any]) -> Any:
    """The value kept in ``sides.kept`` for ``parts`` (objects compared by identity and held
    with the value, as :class:`Shared` holds them), else ``build()`` kept there."""
    key = tuple(p if p is None or isinstance(p, (str, int, tuple)) else id(p) for p in parts)
    got = sides.kept.get(key)
    if got is None:
        got = sides.kept.setdefault(key, (parts, build()))
    return got[1]


def _char_pairs(study: Study, sides: CharSides, only: list[tuple[str, str]] | None
                ) -> tuple[tuple[PairwiseResult, PairwiseResult],
                           tuple[DocumentValues, DocumentValues]]:
    """:func:`char_agreement` of ``study`` without per-document values, char-κ's and
    char-Jaccard's, kept with ``sides`` (:attr:`CharSides.kept`): both measures come from the
    same counts, so the lean view of the second one on the same study counts no pair again (at
    10,000 documents and three annotators, 0.14 s of char-Jaccard's 0.18 s after char-κ).
    ``only``: these pairs (each set against the gold or the majority, whose per-document values
    nobody shows), else every pair, with each pair's per-document values as floats (the
    ranking's). The same values as :func:`char_agreement` with ``per_document=(False, False)``
    and ``document_values`` (``tests/agreement/test_view_lean.py``)."""

    def build() -> tuple[tuple[PairwiseResult, PairwiseResult],
                         tuple[DocumentValues, DocumentValues]]:
        kappas: DocumentValues = {}
        jaccards: DocumentValues = {}
        got = char_agreement(study, per_document=(False, False), only=only, sides=sides,
                             document_values=(kappas, jaccards) if only is None else (None, None))
        return got, (kappas, jaccards)

    kept: tuple[tuple[PairwiseResult, PairwiseResult], tuple[DocumentValues, DocumentValues]]
    kept = _kept_with(sides, ("char pairs", study, None if only is None else tuple(only)),
                      build)
    return kept


def lean_view(view: MeasureView) -> MeasureView:
    """``view`` without the per-document values of its pairs, of the many-annotator value and of
    each set against the gold and the majority: what a page shows (the matrix, the corpus
    values and the ranking of documents, computed from them). Every other value is the
    same."""

    def lean(pv: PairValue) -> PairValue:
        return replace(pv, per_document={})

    pw = view.pairwise
    return replace(
        view,
        pairwise=replace(pw, pairs={k: lean(pv) for k, pv in pw.pairs.items()}),
        many=replace(view.many, per_document={}) if view.many is not None else None,
        gold={a: lean(pv) for a, pv in view.gold.items()} if view.gold is not None else None,
        majority={a: lean(pv) for a, pv in view.majority.items()})


DOCUMENT_VALUES: tuple[str, ...] = ("fleiss-kappa", "krippendorff-alpha")
"""Measures whose per-document values :func:`~core.metrics.agreement.measures.document_values`
gives without an object per document (``measure_view(..., lean=True)``)."""

def _finite_floats(values: Sequence[float | None]) -> bool:
    return all(v is None or (type(v) is float and math.isfinite(v)) for v in values)


def _lean_references(study: Study, sets: Sequence[AnnotationSet],
                     texts: dict[str, str | None] | None, *, measure: str, label: str | None,
                     gold: AnnotationSet | None, leave_one_out: bool,
                     progress: Progress | None, shared: Shared | None
                     ) -> tuple[dict[str, PairValue] | None, dict[str, PairValue]]:
    """The lean views' comparisons of each set with the gold (None without one) and with the
    majority, as :func:`measure_view` makes them, reporting steps 3 and 4 of 4."""
    gold_res = None
    others = [s for s in sets if gold is None or s.name != gold.name]
    if gold is not None and others:
        gstudy = study if sets[0] is gold else _study(shared, [gold, *others], texts, label)
        gold_res = against(gstudy, gold.name, measure=measure)
    if progress is not None:
        progress(3, 4)
    maj = against_majority(sets, texts, measure=measure, label=label,
                           leave_one_out=leave_one_out, shared=shared)
    if progress is not None:
        progress(4, 4)
    return gold_res, maj


def _lean_many_view(study: Study, sets: Sequence[AnnotationSet],
                    texts: dict[str, str | None] | None, *, measure: str, label: str | None,
                    gold: AnnotationSet | None, leave_one_out: bool,
                    progress: Progress | None, shared: Shared | None) -> MeasureView | None:
    """``lean_view(measure_view(...))`` of a measure of :data:`DOCUMENT_VALUES`, the
    per-document values of the pairs and of all the sets as lists of floats
    (:func:`~core.metrics.agreement.measures.document_values`) rather than an
    :class:`~core.metrics.agreement.coefficients.Agreement` per document and pair (at 10,000
    documents and three annotators, 40,000 of them and two thirds of the view's CPU); the
    ranking is :func:`rank_documents`' from the same floats. None where :func:`rank_documents`
    would not take its arrays (8 pairs or more, a value that is not a finite float): then the
    general way."""
    combos = list(combinations(study.annotators, 2))
    if len(combos) >= 8:
        return None
    many_docs, many_values, many_reasons = document_values(study, measure)
    if not _finite_floats(many_values):
        return None
    pairs: dict[tuple[str, str], PairValue] = {}
    params: dict[str, object] = {}
    per_pair: list[tuple[list[str], list[float | None], None]] = []
    for k, (a, b) in enumerate(combos):
        sub = sub_study(study, [a, b])
        r = _measure(sub, measure, samples=30, seed=0, progress=None, per_document=False)
        assert isinstance(r, ManyResult)
        pairs[(a, b)] = PairValue(r.overall, dict(r.per_label), {})
        params = {k2: v for k2, v in r.params.items() if k2 in ("samples", "seed", "sampler")}
        pair_docs, values, _ = document_values(sub, measure)
        if not _finite_floats(values):
            return None
        per_pair.append((pair_docs, values, None))
        if progress is not None:
            progress(k + 1, 4 * len(combos))
    pw = PairwiseResult(measure, list(study.annotators), pairs, symmetric=True,
                        params={**params, "computed": "on each pair alone"})
    res = _measure(study, measure, samples=30, seed=0, progress=None, per_document=False)
    assert isinstance(res, ManyResult)
    gold_res, maj = _lean_references(study, sets, texts, measure=measure, label=label, gold=gold,
                                     leave_one_out=leave_one_out, progress=progress,
                                     shared=shared)
    return MeasureView(measure, pw, res, gold_res, maj,
                       _rank_floats(combos, per_pair, (many_docs, many_values, many_reasons)))


def _rank_floats(keys: list[tuple[str, str]],
                 per_pair: Sequence[tuple[list[str], Sequence[float | None],
                                          Sequence[str | None] | None]],
                 many: tuple[list[str], list[float | None], list[str | None]] | None
                 ) -> list[DocDisagreement]:
    """:func:`rank_documents` of the pairs ``keys``, whose per-document values are ``per_pair``
    (each pair's documents, values, None where undefined, and their reasons, or None where
    no value is undefined or ``many`` is given), and of the many-annotator values ``many``
    (documents, values, reasons), from those floats: the same table, means, reasons and
    order."""
    docs = dict.fromkeys(many[0]) if many is not None else {}
    for pair_docs, _, _ in per_pair:
        docs.update(dict.fromkeys(pair_docs))
    index = {d: i for i, d in enumerate(docs)}
    table = np.full((len(keys), len(docs)), np.nan)
    first_reason: dict[str, str] = {}
    for row, (pair_docs, values, reasons) in zip(table, per_pair, strict=True):
        got = [(index[d], v) for d, v in zip(pair_docs, values, strict=True) if v is not None]
        if got:
            at, vals = zip(*got, strict=True)
            row[list(at)] = vals
        if reasons is not None and len(got) < len(pair_docs):
            for d, v, why in zip(pair_docs, values, reasons, strict=True):
                if v is None and why:
                    first_reason.setdefault(d, why)
    pair_of, pair_value, n_pairs, mean = _least_pairs((table, {}), keys, len(docs))
    value: list[float | None]
    reason: list[str | None]
    if many is not None:
        many_at = {d: i for i, d in enumerate(many[0])}
        value, reason = [], []
        for d in docs:
            i = many_at.get(d)
            value.append(None if i is None else many[1][i])
            reason.append(_GONE if i is None else many[2][i])
    else:
        value = [m if c else None for m, c in zip(mean, n_pairs, strict=True)]
        reason = [None if c else first_reason.get(d, "undefined for every pair")
                  for d, c in zip(docs, n_pairs, strict=True)]
    return _ranked(list(docs), value, reason, pair_of, pair_value, n_pairs)


PAIR_FLOATS: tuple[str, ...] = ("span-f1", "exact-f1", "mafalda-f1", "text-kappa")
"""Pairwise measures whose per-document values the measure gives as floats
(``measure_view(..., lean=True)``: ``span_f1(..., document_f1=...)``,
``exact_f1(..., document_f1=...)``, ``text_kappa(..., document_values=...)``)."""


def _lean_pair_view(study: Study, sets: Sequence[AnnotationSet],
                    texts: dict[str, str | None] | None, *, measure: str, label: str | None,
                    gold: AnnotationSet | None, leave_one_out: bool,
                    progress: Progress | None, shared: Shared | None) -> MeasureView | None:
    """``lean_view(measure_view(...))`` of a measure of :data:`PAIR_FLOATS`, each pair's
    per-document values as lists of floats rather than an
    :class:`~core.metrics.agreement.coefficients.Agreement` (and a dictionary) per document
    and pair: six ordered pairs at three annotators for span-F1 and MAFALDA F1, three for
    text-κ and exact F1; the ranking is :func:`rank_documents`' from the same floats. None where
    :func:`rank_documents` would not take its arrays (8 pairs or more, a value that is not a
    finite float): then the general way."""
    n = len(study.annotators)
    if n * (n - 1) // (1 if measure in ASYMMETRIC else 2) >= 8:
        return None
    per_pair: list[tuple[list[str], Sequence[float | None], Sequence[str | None] | None]]
    if measure == "text-kappa":
        kappas: dict[tuple[str, str], tuple[list[str], list[float | None], list[str | None]]]
        kappas = {}
        pw = text_kappa(study, per_document=False, document_values=kappas)
        per_pair = [kappas.get(k, ([], [], [])) for k in pw.pairs]
    elif measure == "exact-f1":
        exact: DocumentF1 = {}
        pw = exact_f1(study, per_document=False, document_f1=exact)
        per_pair = [exact.get(k, ([], [], [])) for k in pw.pairs]
    else:
        floats: dict[tuple[str, str], tuple[list[str], list[float]]] = {}
        pw = span_f1(study, "martino" if measure == "span-f1" else "mafalda",
                     per_document=False, document_f1=floats)
        per_pair = [(*floats.get(k, ([], [])), None) for k in pw.pairs]
    if any(not _finite_floats(values) for _, values, _ in per_pair):
        return None
    if progress is not None:
        progress(1, 4)
    gold_res, maj = _lean_references(study, sets, texts, measure=measure, label=label, gold=gold,
                                     leave_one_out=leave_one_out, progress=progress,
                                     shared=shared)
    return MeasureView(measure, pw, None, gold_res, maj,
                       _rank_floats(list(pw.pairs), per_pair, None))
