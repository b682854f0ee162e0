"""An agreement study: several annotators over the same documents, and the items built from it.

A :class:`Study` holds one annotation set per annotator and the length of every document. The
coding measures need *items*; this module builds them the ways ``docs/agreement.md``
lists, always keeping the counts per document so that per-document values and corpus values
come from the same numbers (the corpus table is the sum of the document tables):

* character × label: is character i covered by a span with label c? (overlap- and multi-label-safe)
* character, position only: is character i covered by any span?
* document × label: does the document carry label c at all? (MAFALDA's "multi-label binary")

A document that an annotator's set does not list is *missing* for that annotator (not "no span"):
pairwise measures use the documents both annotators cover, Krippendorff's α keeps missing values,
Fleiss' κ and unitizing α use the documents every annotator covers, and each result says how many
documents it left out. In a set with MAFALDA alternatives, the ⊥ label ``nothing`` (which makes a
gold span optional) is left out, with a warning; alternative labels of one interval count as
several labels of that span.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np

from core.model import NOTHING, AnnotationSet, Span, SpanTable
from core.model.bounds import AGREEMENT_CHOICE
from core.model.errors import InputError, KindedText
from core.model.table import _span_order

DUPLICATES: dict[str, str] = {
    "span-f1": "twice", "mafalda-f1": "twice", "gamma": "twice", "gamma-cat": "twice",
    "exact-f1": "once", "unitizing-alpha": "once",
    "char-kappa": "unseen", "char-jaccard": "unseen", "text-kappa": "unseen",
    "fleiss-kappa": "unseen", "krippendorff-alpha": "unseen",
}
"""What each measure of ``agree`` does with an annotator's exact duplicate span (same document,
offsets and label twice) when the study keeps it (without ``unit_set``): ``twice``, it counts
as two spans or units (a match more, or a unit more); ``once``, the value is the one of the
set without it (exact-f1 reads spans as a set; unitizing α drops it as an overlap of the
annotator's own span); ``unseen``, the measure reads covered characters or a document's labels,
which a second copy does not change. Checked for every measure by
``tests/agreement/test_duplicate_reading.py``."""

POSITION = "<position>"
"""Pseudo-label of the position-only construction (span vs no span, labels ignored)."""


@dataclass
class Study:
    """Annotators × documents × spans, with document lengths.

    ``spans[a][d]`` is annotator ``a``'s spans in document ``d``; a document absent from
    ``spans[a]`` is missing for ``a``. ``lengths[d]`` is the text length when the text is known,
    otherwise the furthest span end any annotator used (the continuum must contain every span).
    """

    annotators: list[str]
    docs: list[str]
    lengths: dict[str, int]
    spans: dict[str, Mapping[str, tuple[Span, ...]]]
    labels: list[str] = field(default_factory=list)
    length_known: dict[str, bool] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    tables: dict[str, SpanTable] = field(default_factory=dict, repr=False, compare=False)
    """Each annotator's spans as columns, filled on first use (:meth:`table`)."""

    def table(self, annotator: str) -> SpanTable:
        """Annotator's spans (``spans[annotator]``) as a :class:`~core.model.SpanTable`."""
        got = self.tables.get(annotator)
        if got is None:
            got = self.tables[annotator] = SpanTable.from_spans(self.spans[annotator])
        return got

    @classmethod
    def from_sets(cls, sets: Sequence[AnnotationSet],
                  texts: Mapping[str, str | None] | None = None, *,
                  label: str | None = None, unit_set: bool = False,
                  labels: Sequence[str] | None = None,
                  measures: Sequence[str] | None = None,
                  option: str | None = "--unit-set") -> Study:
        """Build a study from annotation sets (one per annotator).

        ``label`` keeps only that label's spans (the study then has that single label, even if
        nobody used it, so that every measure can say so). An annotator's exact duplicate spans
        (same interval and label twice) are kept, as two units, with a warning; ``unit_set``
        reads each annotator's units as a set instead (pygamma-agreement's reading: its
        continuum keeps units in a sorted set, so γ there counts a duplicate once). Two sets
        with one name are an error, and so is a span that ends after its document's text.
        ``labels``: the annotation scheme's labels; the study's labels are then these and every
        label used (sorted), so that a pair's char-κ pools over the same labels whoever else is
        loaded (``docs/agreement.md``); by default the labels any annotator used.
        ``measures``: the measures asked (by default every one), so that the duplicate warning
        says what each does with a duplicate (:data:`DUPLICATES`: which count it twice, which
        once, which read characters or texts); ``option``: the switch that reads the units as
        a set (``unit_set``), named in the warning; None where there is none (the dashboard).

        >>> a = AnnotationSet("A", {"d1": (Span(0, 4, "x"),)}, role="annotator")
        >>> b = AnnotationSet("B", {"d1": (), "d2": (Span(1, 2, "y"),)}, role="annotator")
        >>> s = Study.from_sets([a, b], {"d1": "abcdef"})
        >>> s.docs, s.lengths, s.labels, s.covering("d2")
        (['d1', 'd2'], {'d1': 6, 'd2': 2}, ['x', 'y'], ['B'])
        """
        texts = texts or {}
        names = [s.name for s in sets]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise InputError(f"two annotation sets are both named {dupes[0]!r}; "
                             "every annotator needs a distinct name")
        spans: dict[str, Mapping[str, tuple[Span, ...]]] = {}
        tables: dict[str, SpanTable] = {}
        docs: dict[str, None] = {}
        warnings: list[str] = []
        for aset in sets:
            spans[aset.name], table = _kept_spans(aset, label, unit_set, warnings,
                                                  measures, option)
            if table is not None:
                tables[aset.name] = table
            docs.update(dict.fromkeys(spans[aset.name]))
        for name in names:
            if name not in tables:
                tables[name] = SpanTable.from_spans(spans[name])
        far = _furthest_ends(docs, [tables[name] for name in names])
        lengths, known = _lengths(docs, far, texts, names, spans)
        if label is not None:
            kept = [label]
        else:
            kept = sorted({x for a in names for x in tables[a].used_labels()} | set(labels or ()))
        return cls(names, list(docs), lengths, spans, kept, known, warnings, tables)

    def covering(self, doc_id: str) -> list[str]:
        """The annotators whose sets list ``doc_id``."""
        return [a for a in self.annotators if doc_id in self.spans[a]]

    def common_docs(self, annotators: Sequence[str] | None = None) -> list[str]:
        """Documents listed by every one of ``annotators`` (default: all)."""
        who = list(annotators) if annotators is not None else self.annotators
        common = set(self.docs)
        for a in who:
            common.intersection_update(self.spans[a])
        return [d for d in self.docs if d in common]

    def get(self, annotator: str, doc_id: str) -> tuple[Span, ...]:
        return self.spans[annotator].get(doc_id, ())


def label_variants(study: Study) -> list[str]:
    """A warning per group of the study's labels that differ only in case or surrounding spaces
    ("Collective" and "collective"): probably one label, yet every measure counts them as two.

    >>> a = AnnotationSet("a", {"d": (Span(0, 4, "Collective"),)}, role="annotator")
    >>> b = AnnotationSet("b", {"d": (Span(0, 4, "collective "),)}, role="annotator")
    >>> label_variants(Study.from_sets([a, b]))  # doctest: +NORMALIZE_WHITESPACE
    ["labels 'Collective' (a) and 'collective ' (b) differ only in case or surrounding spaces:
      probably one label, counted as two"]
    """
    used = {a: set(study.table(a).used_labels()) for a in study.annotators}
    return label_variants_of(study.labels, study.annotators, used)


def label_variants_of(labels: Sequence[str], annotators: Sequence[str],
                      used: Mapping[str, set[str]]) -> list[str]:
    """:func:`label_variants` from the labels, the annotators and each one's used labels (what
    the Dask engine gathers from its shards)."""
    groups: dict[str, list[str]] = {}
    for lab in labels:
        groups.setdefault(lab.strip().casefold(), []).append(lab)
    out: list[str] = []
    for variants in groups.values():
        if len(variants) < 2:
            continue
        named = [f"{lab!r} ({', '.join(a for a in annotators if lab in used[a])})"
                 for lab in variants]
        times = "two" if len(named) == 2 else str(len(named))
        out.append(KindedText(f"labels {', '.join(named[:-1])} and {named[-1]} differ only "
                              f"in case or surrounding spaces: probably one label, counted as "
                              f"{times}", "label-variants"))
    return out


def missing_documents(study: Study, shown: int = 3) -> list[str]:
    """A warning per annotator whose set lacks documents another annotator's set has, naming
    how many and the first ``shown`` of them: pairwise measures then read the documents both
    cover, and Fleiss' κ, α_U and γ only those every annotator covers.

    >>> a = AnnotationSet("a", {"d1": (), "d2": ()}, role="annotator")
    >>> b = AnnotationSet("b", {"d1": ()}, role="annotator")
    >>> missing_documents(Study.from_sets([a, b]))
    ["b: lacks 1 of the study's 2 documents (other annotators have them): 'd2'"]
    """
    covered = doc_coverage(study)
    return missing_documents_of(study.annotators, study.docs, covered, shown)


def missing_documents_of(annotators: Sequence[str], docs: Sequence[str], covered: np.ndarray,
                         shown: int = 3) -> list[str]:
    """:func:`missing_documents` from the annotators, the documents in order and
    ``covered[k, i]`` (:func:`doc_coverage`; the Dask engine joins its shards')."""
    out: list[str] = []
    total = len(docs)
    for k, a in enumerate(annotators):
        lacking = [docs[i] for i in np.flatnonzero(~covered[k]).tolist()]
        if not lacking:
            continue
        first = ", ".join(repr(d) for d in lacking[:shown])
        more = f" and {len(lacking) - shown:,} more" if len(lacking) > shown else ""
        out.append(KindedText(f"{a}: lacks {len(lacking):,} of the study's {total:,} documents "
                              f"(other annotators have them): {first}{more}",
                              "missing-documents"))
    return out


def _kept_spans(aset: AnnotationSet, label: str | None, unit_set: bool, warnings: list[str],
                measures: Sequence[str] | None = None, option: str | None = "--unit-set"
                ) -> tuple[Mapping[str, tuple[Span, ...]], SpanTable | None]:
    """The spans a study keeps of one annotator's set (see :meth:`Study.from_sets`), and the
    set's own columns when they are those spans (else None); appends the warnings."""
    plain = _plain(aset) if label is None else None
    if plain is not None and not (unit_set and plain):
        # sorted, no ⊥: the set's own spans and columns, as they are
        for i in plain:
            doc_id = aset.table.doc_ids[i]
            warnings.append(_duplicates(aset.name, doc_id, aset.spans[doc_id], unit_set,
                                        measures, option))
        return aset.spans, aset.table
    per_doc: dict[str, tuple[Span, ...]] = {}
    optional = 0
    for doc_id, doc_spans in aset.spans.items():
        if aset.alternatives:
            # MAFALDA's ⊥ marks a gold span optional; it is not a label annotators chose
            optional += sum(1 for s in doc_spans if s.label == NOTHING)
            doc_spans = tuple(s for s in doc_spans if s.label != NOTHING)
        kept = doc_spans if label is None else tuple(s for s in doc_spans if s.label == label)
        if len(kept) != len(set(kept)):
            warnings.append(_duplicates(aset.name, doc_id, kept, unit_set, measures, option))
            if unit_set:
                kept = tuple(set(kept))
        per_doc[doc_id] = tuple(sorted(kept))
    if optional:
        warnings.append(f"{aset.name}: {optional} '{NOTHING}' alternative(s) (optional "
                        "span markers) are not agreement labels and were left out")
    return per_doc, None


def _furthest_ends(docs: Mapping[str, None], tables: Sequence[SpanTable]) -> list[int]:
    """The furthest span end in each of ``docs`` over every table (0 where none has a span)."""
    doc_index = {d: i for i, d in enumerate(docs)}
    far_all = np.zeros(len(docs), dtype=np.int64)
    for t in tables:
        if len(t):
            where = np.fromiter((doc_index[d] for d in t.doc_ids), dtype=np.int64,
                                count=len(t.doc_ids))
            np.maximum.at(far_all, where[t.doc], t.end)
    return far_all.tolist()


def _lengths(docs: Mapping[str, None], far_ends: Sequence[int],
             texts: Mapping[str, str | None], names: Sequence[str],
             spans: Mapping[str, Mapping[str, tuple[Span, ...]]]
             ) -> tuple[dict[str, int], dict[str, bool]]:
    """Each document's length (its text's, else its furthest span end) and whether its text is
    known; a span that ends after its text is an error."""
    lengths: dict[str, int] = {}
    known: dict[str, bool] = {}
    for doc_id, far in zip(docs, far_ends, strict=True):
        text = texts.get(doc_id)
        if text is not None:
            if far > len(text):
                who = next(a for a in names
                           if any(sp.end > len(text) for sp in spans[a].get(doc_id, ())))
                raise InputError(
                    f"annotator {who!r}, document {doc_id!r}: a span ends at {far}, after "
                    f"the end of the text ({len(text)} characters); agreement needs every "
                    f"span inside its text: fix the offsets, or {AGREEMENT_CHOICE}")
            lengths[doc_id] = len(text)
            known[doc_id] = True
        else:
            lengths[doc_id] = far
            known[doc_id] = False
    return lengths, known


def _duplicates(name: str, doc_id: str, kept: Sequence[Span], unit_set: bool,
                measures: Sequence[str] | None = None, option: str | None = "--unit-set"
                ) -> str:
    """The warning about a document's exact duplicate spans: what each of ``measures`` (every
    one by default) does with them (:data:`DUPLICATES`); ``option`` the switch that counts them
    once, if any."""
    dup = len(kept) - len(set(kept))
    first = next(sp for sp in kept if kept.count(sp) > 1)
    said = (f"{name}: document {doc_id!r} has {dup} exact duplicate span(s), e.g. "
            f"[{first.start}, {first.end}) {first.label!r}: ")
    if unit_set:
        return KindedText(said + f"counted once ({option or 'units read as a set'})",
                          "duplicate-span")
    asked = list(DUPLICATES) if measures is None else list(measures)
    group = {how: [m for m in asked if DUPLICATES.get(m) == how]
             for how in ("twice", "once", "unseen")}
    parts = []
    if group["twice"]:
        parts.append(f"counted twice by {', '.join(group['twice'])}"
                     + (f" ({option} counts it once, as pygamma-agreement does)"
                        if option and any(m.startswith("gamma") for m in group["twice"])
                        else f" ({option} counts it once)" if option else ""))
    if group["once"]:
        parts.append(f"counted once by {', '.join(group['once'])}"
                     + (f" (with or without {option})" if option and not group["twice"]
                        else ""))
    if group["unseen"]:
        parts.append(f"no change to {', '.join(group['unseen'])}, which "
                     f"{'read' if len(group['unseen']) > 1 else 'reads'} characters or texts")
    return KindedText(said + "; ".join(parts), "duplicate-span")


def _plain(aset: AnnotationSet) -> list[int] | None:
    """Whether a set's spans are already what a study keeps (checked on its columns, no span
    built): sorted within each document and no ⊥ alternative. None when not; else the
    documents (indices) that hold an exact duplicate span, which a study keeps with a warning.
    """
    t = aset.table
    if not len(t):
        return []
    if aset.alternatives and NOTHING in t.labels:
        return None
    if _span_order(t.doc, t.start, t.end, t.label, t.labels) is not None:
        return None
    same = ((t.doc[1:] == t.doc[:-1]) & (t.start[1:] == t.start[:-1])
            & (t.end[1:] == t.end[:-1]) & (t.label[1:] == t.label[:-1]))
    return np.unique(t.doc[1:][same]).tolist()


def char_counts(study: Study, a: str, b: str, sides: CharSides | None = None
                ) -> tuple[list[str], np.ndarray]:
    """The documents both ``a`` and ``b`` cover (in study order) and their 2×2 counts as an
    array ``(documents, labels + 1, 4)``: ``[d, k]`` holds (n11, n10, n01, n00) of
    ``study.labels[k]`` in document ``d``, ``[d, -1]`` those of :data:`POSITION`.

    Vectorised over the whole corpus (no loop per span or per character): each span gives a +1
    event at its start and a -1 at its end in its (document, label) block and in its
    (document, position) block, the events of both annotators sorted together; a running sum
    gives each annotator's coverage depth between consecutive events, and the lengths of the
    pieces where a depth is positive, summed per block, are |A|, |B| and |A ∩ B|: the counts
    the merged intervals (or a yes/no mask per character) give.

    ``sides``: the study's :class:`CharSides`, shared by every pair of the study: each
    annotator's documents and labels are looked up, and its spans merged into runs per block,
    once, not once per pair; a pair then merges the two sides' sorted run events
    (:func:`_run_sizes`) instead of sorting its spans' events. The counts are the same with or
    without (``tests/agreement/test_char_shared.py``).
    """
    if sides is None:
        sides = CharSides(study, merge_runs=False)
    listed = sides.listed(a) & sides.listed(b)
    common = np.flatnonzero(listed)
    docs = [study.docs[i] for i in common.tolist()]
    labels = study.labels
    width = len(labels) + 1
    n_keys = len(docs) * width
    # one more slot, -1, for the documents outside the study (their index is -1)
    position = np.full(len(study.docs) + 1, -1, dtype=np.int64)
    position[common] = np.arange(len(common), dtype=np.int64)
    counts = np.zeros((len(docs), width, 4), dtype=np.int64)
    lengths = sides.lengths[common]
    runs = sides.runs(a), sides.runs(b)
    if runs[0] is not None and runs[1] is not None:
        sizes = _run_sizes(runs[0], runs[1], listed, position, width, n_keys)
        sizes = np.rint(sizes).astype(np.int64).reshape(len(docs), width, 4)
        counts[:, :, :3] = sizes[:, :, [3, 1, 2]]
        counts[:, :, 3] = lengths[:, None] - counts[:, :, :3].sum(axis=2)
        return docs, counts
    columns: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for who in (a, b):
        t = study.table(who)
        if not len(t):
            columns.append((np.zeros(0, np.int64),) * 4)
            continue
        doc = position[sides.doc_index(who)[t.doc]]
        lab = sides.label_index(who)[t.label]
        keep = (doc >= 0) & (lab >= 0)
        block = doc[keep] * width
        columns.append((block + lab[keep], block + (width - 1), t.start[keep], t.end[keep]))
    if sum(len(side[0]) for side in columns):
        sizes = _coverage_sizes(columns, n_keys)
        sizes = np.rint(sizes).astype(np.int64).reshape(len(docs), width, 4)
        counts[:, :, 0] = sizes[:, :, 3]
        counts[:, :, 1] = sizes[:, :, 1]
        counts[:, :, 2] = sizes[:, :, 2]
    counts[:, :, 3] = lengths[:, None] - counts[:, :, :3].sum(axis=2)
    return docs, counts


Runs = tuple[np.ndarray, np.ndarray]
"""One annotator's merged runs (:meth:`CharSides.runs`) as events: the block and the place of
each run's start and then its end, sorted."""


def _run_sizes(a: Runs, b: Runs, listed: np.ndarray, position: np.ndarray, width: int,
               n_keys: int) -> np.ndarray:
    """:func:`_coverage_sizes` from two annotators' merged runs (:meth:`CharSides.runs`), kept
    to the documents both list (``listed``; ``position``: their place among them).

    A side's runs are disjoint and sorted, so its events are sorted already: the stable sort
    of both sides' events is one merge of two sorted runs (timsort), where the spans' events
    needed a full sort per pair; and a side covers a character exactly when an odd number of
    its events (start, end, start, ...) come before it. Every character a side covers is in
    exactly one of its runs: the same counts.
    """
    sides: list[tuple[np.ndarray, np.ndarray]] = []
    for key, place in (a, b):
        if not listed.all():
            keep = listed[key // width]
            key, place = key[keep], place[keep]
        sides.append((key, place))
    n_a = len(sides[0][0])
    n = n_a + len(sides[1][0])
    if not n:
        return np.zeros(n_keys * 4)
    far = max(int(place.max(initial=0)) for _, place in sides) + 1
    # CharSides.runs checked that every block times its furthest end stays below 2**62
    code = np.concatenate([key * far + place for key, place in sides])
    order = np.argsort(code, kind="stable")
    code = code[order]
    seen_a = np.cumsum(order < n_a, dtype=np.int64)  # events of a up to here
    state = (seen_a & 1) + 2 * ((np.arange(1, n + 1, dtype=np.int64) - seen_a) & 1)
    del order, seen_a
    key = code // far
    piece = np.zeros(n, dtype=np.int64)
    piece[:-1] = np.where(key[1:] == key[:-1], code[1:] - code[:-1], 0)
    del code
    block = position[key // width] * width + key % width
    # float sums of integers stay exact below 2**53 characters
    return np.bincount(block * 4 + state, weights=piece, minlength=n_keys * 4)


class CharSides:
    """What :func:`char_counts` needs of each annotator of a study, looked up once for every
    pair: the study position of each document of its span table, of each label, the
    documents its set lists, and the documents' lengths in study order; with ``merge_runs``,
    its spans merged into runs (:meth:`runs`)."""

    def __init__(self, study: Study, *, merge_runs: bool = True) -> None:
        self.study = study
        self.merge_runs = merge_runs
        self._docs = {d: i for i, d in enumerate(study.docs)}
        self._labels = {lab: k for k, lab in enumerate(study.labels)}
        self.lengths = np.fromiter((study.lengths[d] for d in study.docs), dtype=np.int64,
                                   count=len(study.docs))
        self._doc_index: dict[str, np.ndarray] = {}
        self._label_index: dict[str, np.ndarray] = {}
        self._listed: dict[str, np.ndarray] = {}
        self._runs: dict[str, Runs | None] = {}
        self.added: set[str] = set()
        """The sides :meth:`majority` added."""
        self.kept: dict[tuple[Any, ...], Any] = {}
        """What callers derive from these sides' counts and keep with them (the lean
        character views' pairs, both measures at once: ``panel._char_pairs``), so that char-κ
        and char-Jaccard of one study count each pair once."""

    def runs(self, who: str) -> Runs | None:
        """``who``'s spans merged into maximal runs per block, every pair's events of it
        (:func:`_run_sizes`): a block is a study document × (label, or :data:`POSITION`, the
        last), ``document * (labels + 1) + label``; sorted by block and start. Runs of one
        block that touch are one run. ``None`` when a block number times the furthest end
        would reach 2**62, or without ``merge_runs`` (then :func:`char_counts` sorts each
        pair's span events: for one pair, the runs would cost more memory and no less time)."""
        if not self.merge_runs:
            return None
        if who in self._runs:
            return self._runs[who]
        t = self.study.table(who)
        width = len(self.study.labels) + 1
        doc = self.doc_index(who)[t.doc] if len(t) else np.zeros(0, np.int64)
        lab = self.label_index(who)[t.label] if len(t) else np.zeros(0, np.int64)
        keep = (doc >= 0) & (lab >= 0)
        block = doc[keep] * width
        key = np.concatenate([block + lab[keep], block + (width - 1)])
        start = np.tile(t.start[keep].astype(np.int64), 2)
        end = np.tile(t.end[keep].astype(np.int64), 2)
        far = int(max(end.max(initial=0), start.max(initial=0))) + 1
        if (len(self.study.docs) + 1) * width * far >= 2**62:
            self._runs[who] = None
            return None
        order = np.argsort(key * far + start, kind="stable")
        key, start, end = key[order], start[order], end[order]
        # a running maximum of the ends within each block (earlier blocks' values are lower)
        reach = np.maximum.accumulate(key * far + end) - key * far
        new = np.ones(len(key), dtype=bool)
        new[1:] = (key[1:] != key[:-1]) | (start[1:] > reach[:-1])
        first = np.flatnonzero(new)
        last = np.append(first[1:], len(key))[:len(first)] - 1
        place = np.empty(2 * len(first), dtype=np.int64)
        place[0::2] = start[first]
        place[1::2] = reach[last]
        got = self._runs[who] = (np.repeat(key[first], 2), place)
        return got

    def majority(self, who: str, voters: Sequence[str]) -> bool:
        """Add ``who``, the strict majority of ``voters`` (annotators of the study), as a side
        of its own: per document and label, the maximal runs of characters that at least
        ``n_d // 2 + 1`` of the voters that list the document cover with that label, and under
        :data:`POSITION` those runs merged; ``who`` lists every document of the study. These
        are the runs :meth:`runs` gives of the set
        :func:`~core.metrics.agreement.panel.majority_set` builds from the same sets (a study
        of that set and the voters has this study's documents, labels and lengths: its spans
        lie inside the voters'), computed from the voters' runs instead of their spans, and
        with no study, table or span of its own (``tests/agreement/test_view_shared.py``).
        False (nothing added) where a voter has no runs (:meth:`runs`)."""
        got = [self.runs(a) for a in voters]
        if not voters or any(r is None for r in got):
            return False
        width = len(self.study.labels) + 1
        listed = np.zeros(len(self.study.docs), dtype=np.int64)
        for a in voters:
            listed += self.listed(a)
        keys, places = [], []
        for key, place in (r for r in got if r is not None):
            label_block = key % width != width - 1  # a run's two events share their block
            keys.append(key[label_block])
            places.append(place[label_block])
        key, place = np.concatenate(keys), np.concatenate(places)
        delta = np.ones(len(key), dtype=np.int64)
        delta[1::2] = -1  # each voter's events alternate: start, end, start, ...
        far = int(place.max(initial=0)) + 1  # the voters' runs kept blocks × far below 2**62
        code = key * far + place
        order = np.argsort(code, kind="stable")
        code, delta = code[order], delta[order]
        del order
        # votes between one event's place and the next, one entry per (block, place)
        head = np.ones(len(code), dtype=bool)
        head[1:] = code[1:] != code[:-1]
        at = np.flatnonzero(head)
        code = code[at]
        votes = np.cumsum(np.add.reduceat(delta, at)) if len(at) else delta[:0]
        key, place = code // far, code % far
        ok = votes >= listed[key // width] // 2 + 1
        same = key[1:] == key[:-1]
        starts = ok.copy()
        starts[1:] &= ~(ok[:-1] & same)
        ends = ok.copy()
        ends[:-1] &= ~(ok[1:] & same)
        # a qualifying piece is never its block's last place (no votes after it)
        first, last = np.flatnonzero(starts), np.flatnonzero(ends) + 1
        run_key, run_start, run_end = key[first], place[first], place[last]
        # the POSITION block: each document's runs of every label merged
        pos_key = run_key - run_key % width + (width - 1)
        order = np.argsort(pos_key * far + run_start, kind="stable")
        p_key, p_start, p_end = pos_key[order], run_start[order], run_end[order]
        reach = np.maximum.accumulate(p_key * far + p_end) - p_key * far
        new = np.ones(len(p_key), dtype=bool)
        new[1:] = (p_key[1:] != p_key[:-1]) | (p_start[1:] > reach[:-1])
        p_first = np.flatnonzero(new)
        p_last = np.append(p_first[1:], len(p_key))[:len(p_first)] - 1
        all_key = np.concatenate([run_key, p_key[p_first]])
        all_start = np.concatenate([run_start, p_start[p_first]])
        all_end = np.concatenate([run_end, reach[p_last]])
        order = np.argsort(all_key * far + all_start, kind="stable")
        out = np.empty(2 * len(order), dtype=np.int64)
        out[0::2] = all_start[order]
        out[1::2] = all_end[order]
        self._runs[who] = (np.repeat(all_key[order], 2), out)
        self._listed[who] = np.ones(len(self.study.docs), dtype=bool)
        self.added.add(who)
        return True

    def doc_index(self, who: str) -> np.ndarray:
        """Study position of each of ``who``'s table's documents (-1: not in the study)."""
        return _positions(self._doc_index, who, self.study.table(who).doc_ids, self._docs)

    def label_index(self, who: str) -> np.ndarray:
        """Study position of each of ``who``'s table's labels (-1: not a study label)."""
        return _positions(self._label_index, who, self.study.table(who).labels, self._labels)

    def listed(self, who: str) -> np.ndarray:
        """Per study document: whether ``who``'s set lists it."""
        got = self._listed.get(who)
        if got is None:
            keys = set(self.study.spans[who])  # a set's lookups, not a mapping's
            got = self._listed[who] = np.fromiter(map(keys.__contains__, self.study.docs),
                                                  dtype=bool, count=len(self.study.docs))
        return got


def _coverage_sizes(sides: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
                    n_keys: int) -> np.ndarray:
    """Characters per block and state (0 neither, 1 a only, 2 b only, 3 both), flat
    ``(n_keys * 4,)``, from each side's (label block, position block, start, end) of its spans
    (:func:`char_counts`).

    Memory (issue 29: 1M spans per side): the events are written once into preallocated
    columns (block, place, and one byte per side for its +1/-1), each temporary freed as soon
    as it is used; depths are summed in 32 bits (a depth counts the spans of one annotator
    over a character).
    """
    n = 4 * sum(len(side[0]) for side in sides)
    key = np.empty(n, dtype=np.int64)
    place = np.empty(n, dtype=np.int64)
    steps = np.zeros((2, n), dtype=np.int8)  # +1 at a start, -1 at an end, per side
    at = 0
    for side, (label_key, position_key, start, end) in enumerate(sides):
        m = len(label_key)
        for block in (label_key, position_key):
            key[at:at + 2 * m] = np.tile(block, 2)
            place[at:at + m] = start
            place[at + m:at + 2 * m] = end
            steps[side, at:at + m] = 1
            steps[side, at + m:at + 2 * m] = -1
            at += 2 * m
    sides.clear()  # the caller's columns are no longer needed
    far = int(place.max()) + 1
    if n_keys * far < 2**62:
        combined = key * far + place
        order = np.argsort(combined, kind="stable")
        del combined
    else:
        order = np.lexsort((place, key))
    key = key[order]
    place = place[order]
    steps = steps[:, order]
    del order
    # each block's events sum to zero: no reset needed between blocks
    state = (np.cumsum(steps[0], dtype=np.int32) > 0).astype(np.int64)
    state += 2 * (np.cumsum(steps[1], dtype=np.int32) > 0)
    del steps
    piece = np.zeros(n, dtype=np.int64)
    piece[:-1] = np.where(key[1:] == key[:-1], place[1:] - place[:-1], 0)
    del place
    state += key * 4
    del key
    # float sums of integers stay exact below 2**53 characters
    return np.bincount(state, weights=piece, minlength=n_keys * 4)


def char_tables(study: Study, a: str, b: str
                ) -> dict[str, dict[str, tuple[int, int, int, int]]]:
    """Per document, per label (and :data:`POSITION`): the 2×2 counts of annotators a and b.

    Only documents both cover; a label neither annotator used in a document has all its
    characters in ``n00``. The counts of :func:`char_counts` as dictionaries.
    """
    docs, counts = char_counts(study, a, b)
    names = [*study.labels, POSITION]
    rows = counts.tolist()
    return {d: {lab: tuple(c) for lab, c in zip(names, row, strict=True)}
            for d, row in zip(docs, rows, strict=True)}


def _by_label(spans: Sequence[Span]) -> dict[str, list[tuple[int, int]]]:
    """Intervals per label, and every interval under :data:`POSITION`."""
    out: dict[str, list[tuple[int, int]]] = {POSITION: []}
    for sp in spans:
        out.setdefault(sp.label, []).append((sp.start, sp.end))
        out[POSITION].append((sp.start, sp.end))
    return out


def merge_intervals(intervals: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The covered characters as sorted maximal runs (overlapping or touching intervals join).

    >>> merge_intervals([(5, 8), (0, 3), (2, 4), (8, 9)])
    [(0, 4), (5, 9)]
    """
    merged: list[tuple[int, int]] = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


def doc_label_matrix(study: Study, annotators: Sequence[str] | None = None
                     ) -> dict[str, dict[str, set[str] | None]]:
    """``matrix[annotator][doc]``: the set of labels the annotator used there (None: missing)."""
    who = list(annotators) if annotators is not None else study.annotators
    return {a: {d: ({sp.label for sp in study.spans[a][d]} if d in study.spans[a] else None)
                for d in study.docs} for a in who}


def doc_coverage(study: Study) -> np.ndarray:
    """``covered[k, i]``: whether annotator ``study.annotators[k]`` lists document
    ``study.docs[i]`` (:meth:`Study.covering` of every document at once, from the columns).

    >>> a = AnnotationSet("A", {"d": (), "e": ()}, role="annotator")
    >>> b = AnnotationSet("B", {"e": ()}, role="annotator")
    >>> doc_coverage(Study.from_sets([a, b])).tolist()
    [[True, True], [False, True]]
    """
    covered = np.zeros((len(study.annotators), len(study.docs)), dtype=bool)
    for k, a in enumerate(study.annotators):
        rows = _rows(study.table(a).doc_ids, study.docs)
        covered[k, rows[rows >= 0]] = True
    return covered


def _rows(doc_ids: tuple[str, ...], docs: Sequence[str],
          index: dict[str, int] | None = None) -> np.ndarray:
    """The position in ``docs`` of each of ``doc_ids`` (-1: not there); a set that lists
    exactly ``docs`` (the common case) needs no lookup."""
    if len(doc_ids) == len(docs) and doc_ids == tuple(docs):
        return np.arange(len(docs), dtype=np.int64)
    index = index if index is not None else {d: i for i, d in enumerate(docs)}
    rows = np.fromiter((index.get(d, -1) for d in doc_ids), dtype=np.int64, count=len(doc_ids))
    return rows


def doc_label_presence(study: Study, docs: Sequence[str] | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`doc_label_matrix` as arrays, built from each annotator's columns
    (:meth:`Study.table`) without a set per document: ``covered[k, i]`` is whether annotator
    ``study.annotators[k]`` lists document ``docs[i]`` (default: every document), and
    ``present[k, i, j]`` whether it used label ``study.labels[j]`` there.

    >>> a = AnnotationSet("A", {"d": (Span(0, 2, "x"),), "e": ()}, role="annotator")
    >>> b = AnnotationSet("B", {"d": (Span(0, 2, "y"),)}, role="annotator")
    >>> covered, present = doc_label_presence(Study.from_sets([a, b]))
    >>> covered.tolist(), present[:, 0].tolist()
    ([[True, True], [True, False]], [[True, False], [False, True]])
    """
    docs = study.docs if docs is None else docs
    index = {d: i for i, d in enumerate(docs)}
    columns = {lab: j for j, lab in enumerate(study.labels)}
    covered = np.zeros((len(study.annotators), len(docs)), dtype=bool)
    present = np.zeros((len(study.annotators), len(docs), len(study.labels)), dtype=bool)
    for k, a in enumerate(study.annotators):
        t = study.table(a)
        rows = _rows(t.doc_ids, docs, index)
        covered[k, rows[rows >= 0]] = True
        if not len(t):
            continue
        cols = np.fromiter((columns.get(lab, -1) for lab in t.labels), dtype=np.int64,
                           count=len(t.labels))
        r, c = rows[t.doc], cols[t.label]
        keep = (r >= 0) & (c >= 0)
        present[k, r[keep], c[keep]] = True
    return covered, present


def _positions(kept: dict[str, np.ndarray], who: str, names: Sequence[str],
               position: Mapping[str, int]) -> np.ndarray:
    """``position`` of each of ``names`` (-1: absent), kept in ``kept`` under ``who``."""
    got = kept.get(who)
    if got is None:
        got = kept[who] = np.fromiter(map(position.get, names, repeat(-1)), dtype=np.int64,
                                      count=len(names))
    return got
