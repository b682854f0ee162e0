"""The Da San Martino et al. (2019) span metric, in every variant an official scorer uses.

What it measures
----------------
How well predicted labelled spans S cover gold spans T, with partial credit for partial
overlap (NLP4IF-2019 FLC evaluation, Eq. 1-4; SemEval-2021 Task 6 subtask 2, same equations)::

    C(s, t, h) = |s ∩ t| / h · δ(l(s), l(t))                                  (1)
    P(S, T) = 1/|S| · Σ_{s∈S, t∈T} C(s, t, |s|)                               (2)
    R(S, T) = 1/|T| · Σ_{s∈S, t∈T} C(s, t, |t|)                               (3)
    F1 = 2PR / (P + R)                                                          (4)

The sums run over *all* pairs of one document (no one-to-one matching, no maximum) and the
numerators and denominators are pooled over the corpus (micro). Intersections use interval
arithmetic: ``max(0, min(e1, e2) - max(s1, s2))``, which equals the official scorers' character
sets (``docs/martino.md``).

Worked example (the 2021 task's Figure 1): gold t1 of 24 characters, a prediction s1 of the
same label overlapping it by 9 characters: C(t1, s1, |t1|) = 9/24 = 6/16 and R({s1}, {t1}) =
9/24; three predictions overlapping it by 7 characters in all give R = 7/24 < 9/24 <
R({t1}, {t1}) = 1.

Edge cases, as the official scorers compute them (``compute_prec_rec_f1``): P = 0 when |S| = 0,
R = 0 when |T| = 0, and F1 = 1 with P = R = 0 when both are 0. Nothing is clamped, so in the 2021
variant P, R and F1 exceed 1 when same-label spans overlap on one side (duplicate predictions
inflate R; overlapping gold spans inflate P).

Variants (``variant=``)
-----------------------
``semeval2021`` (default)
    SemEval-2021 Task 6 subtask 2: nothing merged; gold and prediction must cover the same
    documents.
``nlp4if2019``
    NLP4IF-2019 FLC: overlapping gold spans of the same technique are merged (union, repeated
    until stable; touching spans are not merged); overlapping predictions of the same technique
    are an error unless ``merge_pred``; ``fragments_only`` ignores labels (and merges any
    overlap); predicted documents must be a subset of the gold ones, and gold documents without
    predictions still count in the recall denominator.
``semeval2020-si``
    SemEval-2020 Task 11 span identification: labels ignored, same merging rules (any overlap).
``semeval2020-tc``
    SemEval-2020 Task 11 technique classification, as the scorer released with the task's data
    computes it: the prediction must label exactly the gold spans; each article's spans are
    sorted by start, equal labels of adjacent identical spans are lined up, and the two files'
    label columns are compared row by row (:mod:`core.metrics.tc_order`); micro P = R = F1 =
    accuracy.
``semeval2020-tc-fixed``
    The same with the organisers' later scorer, whose alignment step no longer skips a group of
    identical spans after a span without a match.
``semeval2020-tc-by-article``
    Technique classification as the scorer means it: each gold span is paired with a predicted
    span of its own article, and equal labels of all identical spans are lined up.

Per-label scores
----------------
``per_label`` is computed correctly: P_L = Σ C(s,t,|s|) over pairs labelled L / |S_L| and
R_L = Σ C(s,t,|t|) / |T_L|. ``per_label_official`` reproduces what the official scorers print:
their per-technique recall reuses the *precision* numerator (R_L = Σ C(s,t,|s|) / |T_L|), and a
technique absent from both sides gets F1 = 1. So the official per-technique table overstates
recall whenever predictions are shorter than the gold spans they hit (gold [0,40) and pred [0,10)
give overall R = 0.25 but per-technique R = 1).

Gold with alternatives (MAFALDA)
--------------------------------
A gold set with ``alternatives=True`` (Helwe et al. 2024) is scored as plain gold by
:func:`martino_gold_view`: every distinct (interval, label) is one gold span and the ⊥ label
``nothing`` is dropped. This is how the dashboard compares the two metrics on the same data.

Limitations
-----------
Summing over all pairs rewards splitting and duplicating predictions in the 2021 variant (recall
above 1), and the micro pooling lets long documents dominate. MAFALDA (App. D) replaces the sum
by a best match per span and averages per text.

Citation
--------
G. Da San Martino, S. Yu, A. Barrón-Cedeño, R. Petrov, P. Nakov. Fine-Grained Analysis of
Propaganda in News Articles. EMNLP-IJCNLP 2019; D. Dimitrov et al. SemEval-2021 Task 6, 2021.

Python API
----------
:func:`score` returns a :class:`MartinoResult` (pooled, per-label and per-document sums and
counts; ``to_dict()`` is the command line's JSON); :func:`contributions` yields the per-pair
table from the same pairing code; :func:`core.metrics.result.prf` (``empty="official"``)
turns sums and counts into P, R, F1.
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import TYPE_CHECKING, Literal

import numpy as np

from core.metrics.overlap import overlapping_pairs, span_arrays
from core.metrics.result import (
    PARTNER,
    BootstrapTable,
    DocumentScore,
    ExplanationRow,
    JSONValue,
    LabelScore,
    SpanNote,
    document_frame,
    pooled_f1,
    prf,
)
from core.metrics.tc_order import (
    OFFICIAL,
    RELEASED,
    TC_VARIANTS,
    Pair,
    RowOrder,
    differences,
    is_tc,
    official_pairs,
    on_documents,
    rows_of,
    rows_of_set,
)
from core.model import NOTHING, AnnotationSet, Span, SpanTable
from core.model.docsets import check_same_documents, check_sets
from core.model.errors import InputError, KindedText, ParameterError, check_choice
from core.model.techniques import official_list

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

VARIANTS = ("semeval2021", "nlp4if2019", "semeval2020-si", "semeval2020-tc",
            "semeval2020-tc-by-article", "semeval2020-tc-fixed")
MATCHES = ("sum", "best")
SI_LABEL = "propaganda"
_START = attrgetter("start")
_END = attrgetter("end")
_LABEL = attrgetter("label")

CARD = __doc__


def technique_list(variant: str) -> list[str] | None:
    """The official technique list of a variant (file order), or None for label-free variants.

    >>> len(technique_list("semeval2021")), len(technique_list("nlp4if2019"))
    (20, 18)
    """
    check_choice("variant", "martino", variant, VARIANTS)
    name = ({"semeval2021": "semeval2021", "nlp4if2019": "nlp4if2019"}.get(variant)
            or ("semeval2020-tc" if is_tc(variant) else None))
    if name is None:
        return None
    return list(official_list(name))


def martino_gold_view(aset: AnnotationSet) -> AnnotationSet:
    """A set as plain gold: with alternatives, each distinct (interval, label) once, ⊥ dropped
    (:func:`plain_gold_table`)."""
    if not aset.alternatives:
        return aset
    return AnnotationSet(aset.name, plain_gold_table(aset.table), aset.role, alternatives=False)


def plain_gold_table(table: SpanTable) -> SpanTable:
    """Gold with alternatives (Helwe et al. 2024, Definition 6) read as plain gold, on columns:
    each document's distinct (interval, label) rows once, sorted as spans sort, the ⊥ label
    :data:`~core.model.NOTHING` dropped; labels numbered in order of first appearance.

    >>> t = SpanTable.from_spans({"d": (Span(5, 9, "B"), Span(0, 4, "nothing"), Span(5, 9, "A"),
    ...                                 Span(5, 9, "B")), "e": ()})
    >>> plain_gold_table(t).to_dict()
    {'d': (Span(start=5, end=9, label='A'), Span(start=5, end=9, label='B')), 'e': ()}
    """
    keep = table.label != (table.labels.index(NOTHING) if NOTHING in table.labels else -1)
    t = SpanTable.from_columns(table.doc_ids, table.doc[keep], table.start[keep],
                               table.end[keep], table.label[keep], table.labels)
    new = np.ones(len(t), dtype=bool)
    new[1:] = ((t.doc[1:] != t.doc[:-1]) | (t.start[1:] != t.start[:-1])
               | (t.end[1:] != t.end[:-1]) | (t.label[1:] != t.label[:-1]))
    used, first = np.unique(t.label, return_index=True)
    used = used[np.argsort(first, kind="stable")]  # label ids in order of first appearance
    renumber = np.zeros(len(t.labels), dtype=np.int32)
    renumber[used] = np.arange(len(used), dtype=np.int32)
    return SpanTable.from_columns(t.doc_ids, t.doc[new], t.start[new], t.end[new],
                                  renumber[t.label[new]], [t.labels[k] for k in used.tolist()],
                                  sort=False)


def merge_overlaps(spans: Sequence[Span], *, by_label: bool = True) -> tuple[Span, ...]:
    """Merge overlapping spans (of the same label unless ``by_label`` is off) into their union.

    Touching spans ``[0,10)`` and ``[10,20)`` share no character and stay apart. The merged
    span takes the label of its first member, as the official scorers do (docs/martino.md).

    >>> merge_overlaps([Span(0, 10, "A"), Span(5, 15, "A"), Span(15, 20, "A"), Span(2, 3, "B")])
    (Span(start=0, end=15, label='A'), Span(start=2, end=3, label='B'), \
Span(start=15, end=20, label='A'))
    """
    groups: dict[str, list[Span]] = {}
    for s in spans:
        groups.setdefault(s.label if by_label else "", []).append(s)
    out: list[Span] = []
    for group in groups.values():
        group.sort()
        cur = group[0]
        for s in group[1:]:
            if s.start < cur.end:
                if s.end > cur.end:
                    cur = Span(cur.start, s.end, cur.label)
            else:
                out.append(cur)
                cur = s
        out.append(cur)
    return tuple(sorted(out))


def _first_overlap(spans: Sequence[Span], by_label: bool) -> tuple[Span, Span] | None:
    groups: dict[str, list[Span]] = {}
    for s in spans:
        groups.setdefault(s.label if by_label else "", []).append(s)
    for group in groups.values():
        group.sort()
        for a, b in itertools.pairwise(group):
            if b.start < a.end:
                return a, b
    return None


@dataclass
class MartinoResult:
    """Sufficient statistics of the Martino metric and the scores they give.

    ``p_num``/``p_den``/``r_num``/``r_den`` are pooled over the corpus; ``per_label_*`` and
    ``per_doc_*`` hold the same sums and counts by label and by document, so any subset of
    documents can be re-scored (bootstrap) without re-pairing.
    """

    variant: str
    p_num: float
    p_den: int
    r_num: float
    r_den: int
    labels: list[str]  # report order: technique list first, then other labels
    label_p_num: dict[str, float]
    label_r_num: dict[str, float]
    label_p_den: dict[str, int]
    label_r_den: dict[str, int]
    documents: list[str]
    doc_p_num: np.ndarray
    doc_r_num: np.ndarray
    doc_p_den: np.ndarray
    doc_r_den: np.ndarray
    official_labels: list[str] | None = None
    fragments_only: bool = False
    merge_pred: bool = False
    warnings: list[str] = field(default_factory=list)
    accuracy_mode: bool = False  # the semeval2020-tc variants
    match: str = "sum"  # "best": each span's best pair only (not an official variant)

    metric: str = "martino"
    pooled: bool = True

    def _prf(self) -> tuple[float, float, float]:
        if self.accuracy_mode and self.p_den:
            # sklearn's micro F1 of the TC scorer: 2·tp / (2·n), which is the accuracy exactly
            # (2PR/(P+R) can differ from it in the last digit).
            accuracy = self.p_num / self.p_den
            return accuracy, accuracy, accuracy
        return prf(self.p_num, self.p_den, self.r_num, self.r_den, empty="official")

    @property
    def precision(self) -> float:
        return self._prf()[0]

    @property
    def recall(self) -> float:
        return self._prf()[1]

    @property
    def f1(self) -> float:
        return self._prf()[2]

    @property
    def precision_numerator(self) -> float:
        return self.p_num

    @property
    def precision_denominator(self) -> float:
        return self.p_den

    @property
    def recall_numerator(self) -> float:
        return self.r_num

    @property
    def recall_denominator(self) -> float:
        return self.r_den

    @property
    def document_ids(self) -> list[str]:
        return list(self.documents)

    def per_label(self) -> dict[str, LabelScore]:
        """Correct per-label P/R/F1; F1 is None (undefined) for a label absent on both sides."""
        out: dict[str, LabelScore] = {}
        for lab in self.labels:
            pd_, rd = self.label_p_den.get(lab, 0), self.label_r_den.get(lab, 0)
            pn, rn = self.label_p_num.get(lab, 0.0), self.label_r_num.get(lab, 0.0)
            p, r, f1 = prf(pn, pd_, rn, rd, empty="official")
            out[lab] = LabelScore(lab, p, r, f1 if pd_ or rd else None, pn, pd_, rn, rd)
        return out

    def per_label_official_detail(self) -> dict[str, dict[str, float]]:
        """What the official scorers print per technique, recall bug included (docs/martino.md)."""
        if self.official_labels is None:
            return {}
        out: dict[str, dict[str, float]] = {}
        if self.accuracy_mode:
            # The TC scorer computes per-class values over the sorted list and prints them
            # zipped with the file order (harmless when the list is sorted, as in 2020); its
            # per-class values follow sklearn's zero_division=0.
            ordered = sorted(self.official_labels)
            for name, lab in zip(self.official_labels, ordered, strict=True):
                tp = self.label_p_num.get(lab, 0.0)
                n_pred, n_gold = self.label_p_den.get(lab, 0), self.label_r_den.get(lab, 0)
                p, r, _ = prf(tp, n_pred, tp, n_gold, empty="zero")
                # sklearn's per-class F1: 2·tp / (|pred_L| + |gold_L|), 0 when both are empty
                f1 = 2 * tp / (n_pred + n_gold) if n_pred + n_gold else 0.0
                out[name] = {"precision": p, "recall": r, "f1": f1}
            return out
        for lab in self.official_labels:
            num = self.label_p_num.get(lab, 0.0)
            p, r, f1 = prf(num, self.label_p_den.get(lab, 0), num, self.label_r_den.get(lab, 0),
                           empty="official")
            out[lab] = {"precision": p, "recall": r, "f1": f1}
        return out

    def per_document(self) -> list[DocumentScore]:
        rows = []
        for i, doc in enumerate(self.documents):
            pn, pd_ = float(self.doc_p_num[i]), int(self.doc_p_den[i])
            rn, rd = float(self.doc_r_num[i]), int(self.doc_r_den[i])
            p, r, f1 = prf(pn, pd_, rn, rd, empty="official")
            rows.append(DocumentScore(doc, p, r, f1, pn, pd_, rn, rd))
        return rows

    def per_document_frame(self) -> pd.DataFrame:
        """:meth:`per_document` as a pandas DataFrame (one row per document)."""
        return document_frame(self.per_document())

    def summary(self) -> dict[str, float]:
        """The overall sums behind P and R, by the names the dashboard shows."""
        return {"P numerator": self.p_num, "predicted spans": self.p_den,
                "R numerator": self.r_num, "gold spans": self.r_den}

    def bootstrap_table(self) -> BootstrapTable:
        """Columns (p_num, p_den, r_num, r_den) per document; F1 of their pooled sums."""
        table = np.column_stack([self.doc_p_num, self.doc_p_den, self.doc_r_num,
                                 self.doc_r_den]).astype(float)
        return BootstrapTable(tuple(self.documents), table.reshape(len(self.documents), 4),
                              pooled_f1)

    def subset(self, index: np.ndarray) -> tuple[float, float, float]:
        """P, R, F1 pooled over the documents at ``index`` (repeats allowed: bootstrap)."""
        return prf(float(self.doc_p_num[index].sum()), int(self.doc_p_den[index].sum()),
                   float(self.doc_r_num[index].sum()), int(self.doc_r_den[index].sum()),
                   empty="official")

    def to_dict(self, *, per_document: bool = False) -> dict[str, JSONValue]:
        """The command line's JSON object (``python -m core score --metric martino --json``)."""
        detail = self.per_label_official_detail()
        out: dict[str, JSONValue] = {
            "metric": "martino",
            "variant": self.variant,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "precision_numerator": self.p_num,
            "precision_denominator": self.p_den,
            "recall_numerator": self.r_num,
            "recall_denominator": self.r_den,
            "fragments_only": self.fragments_only,
            "merge_pred": self.merge_pred,
            "per_label": {k: v.to_dict() for k, v in self.per_label().items()},
            "per_label_official": {k: v["f1"] for k, v in detail.items()},
            "per_label_official_detail": detail,
            "documents": len(self.documents),
            "warnings": list(self.warnings),
        }
        if self.accuracy_mode:
            out["accuracy"] = self.precision
        if per_document:
            out["per_document"] = [
                {k: v for k, v in r.to_dict().items()} for r in self.per_document()]
        return out


@dataclass(frozen=True)
class _Prepared:
    gold: SpanTable
    pred: SpanTable
    documents: list[str]
    ignore_labels: bool
    official_labels: list[str] | None
    warnings: list[str]


def _prepare(
    gold: AnnotationSet, pred: AnnotationSet, *, variant: str, merge_pred: bool,
    fragments_only: bool, labels: Sequence[str] | None,
) -> _Prepared:
    """Apply a variant's document-set rule, label check and merging rules."""
    check_choice("variant", "martino", variant, VARIANTS)
    gold = martino_gold_view(gold)
    pred = martino_gold_view(pred)
    warnings: list[str] = []
    si = variant == "semeval2020-si"
    ignore_labels = si or fragments_only
    if fragments_only and variant != "nlp4if2019":
        raise ParameterError("fragments_only", "fragments_only=True is an option of the "
                             "nlp4if2019 variant (-f)")
    if merge_pred and variant not in ("nlp4if2019", "semeval2020-si"):
        raise ParameterError("merge_pred", "merge_pred=True is an option of the nlp4if2019 and "
                             "semeval2020-si variants (-m); the other variants never merge "
                             "predictions")
    if variant == "semeval2021":
        check_documents_2021(gold, pred)
    else:
        check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name,
                             "pred-subset-of-gold")
    official = None if si else (list(labels) if labels is not None else None)
    if official is not None:
        allowed = set(official)
        for aset in (pred, gold):
            _check_labels(aset, allowed, len(official))
    elif not ignore_labels:
        warnings.extend(disjoint_labels(gold, pred))
    documents = list(gold.doc_ids)
    if variant == "semeval2021":
        # Same documents on both sides (checked above) and nothing merged: the sets' own tables.
        return _Prepared(gold.table, pred.table, documents, ignore_labels, official, warnings)
    # nlp4if2019 and semeval2020-si: merged as the official scorers merge, on columns.
    gtable = _reindexed(gold.table, documents)
    ptable = _reindexed(pred.table, documents)
    if si:
        gtable, ptable = _relabelled(gtable, SI_LABEL), _relabelled(ptable, SI_LABEL)
    by_label = not ignore_labels
    gtable, n_merged = _merged(gtable, by_label=by_label)
    if n_merged:
        warnings.append(KindedText(f"{gold.name}: {n_merged} overlapping gold span(s) merged "
                                   f"({'any label' if not by_label else 'same technique'}), "
                                   "as the official scorer always does", "merged"))
    if not merge_pred:
        first = _first_overlapping_doc(ptable, by_label=by_label)
        if first is not None:
            d = documents[first]
            hit = _first_overlap(ptable.spans_at(first), by_label)
            assert hit is not None
            a, b = hit
            what = "the same technique " + repr(a.label) if by_label else "another span"
            raise InputError(
                f"{pred.name}: in document {d!r} the prediction [{a.start},{a.end}) overlaps "
                f"[{b.start},{b.end}) of {what}; the official scorer refuses this, pass "
                "merge_pred=True (-m) to merge overlapping predictions"
            )
    else:
        ptable, n = _merged(ptable, by_label=by_label)
        if n:
            warnings.append(KindedText(f"{pred.name}: {n} overlapping prediction(s) merged "
                                       "(merge_pred=True)", "merged"))
    return _Prepared(gtable, ptable, documents, ignore_labels, official, warnings)


def _reindexed(table: SpanTable, documents: Sequence[str]) -> SpanTable:
    """``table`` over ``documents`` (a superset of its own, in that order; rows of a document
    keep their order), as ``{d: aset.get(d) for d in documents}`` would give."""
    if tuple(documents) == table.doc_ids:
        return table
    index = {d: i for i, d in enumerate(documents)}
    remap = np.fromiter((index[d] for d in table.doc_ids), dtype=np.int64,
                        count=len(table.doc_ids))
    doc = remap[table.doc] if len(table) else np.zeros(0, dtype=np.int64)
    order = np.argsort(doc, kind="stable")
    return SpanTable.from_columns(documents, doc[order], table.start[order], table.end[order],
                                  table.label[order], table.labels, sort=False)


def _relabelled(table: SpanTable, name: str) -> SpanTable:
    """Every span of ``table`` with the label ``name`` (span identification)."""
    return SpanTable(table.doc_ids, (name,), table.doc, table.start, table.end,
                     np.zeros(len(table), dtype=np.int32), table.offsets)


def _packed_order(*keys: np.ndarray) -> np.ndarray | None:
    """``np.lexsort`` of ``keys`` (most significant first) as one stable sort of the keys packed
    into one integer, the same permutation (lexsort is stable too); None when they do not fit
    in 63 bits or one is negative. The merge step of the Metric differences page's rule path
    sorts each set's million rows by five keys: 0.30-0.34 s of CPU by ``np.lexsort``, 0.02-0.035
    s this way (docs/performance.md, issue 29, eighth pass)."""
    if not len(keys[0]) or any(int(k.min()) < 0 for k in keys):
        return None
    widths = [int(k.max()).bit_length() for k in keys]
    if sum(widths) > 63:
        return None
    packed = keys[0].astype(np.int64)
    for k, w in zip(keys[1:], widths[1:], strict=True):
        packed = (packed << w) | k
    return np.argsort(packed, kind="stable")


def _group_order(table: SpanTable, by_label: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rows ordered by document, merge group (the label, or one group), then as spans sort;
    and where each (document, group) starts in that order."""
    rank = np.empty(len(table.labels), dtype=np.int64)
    rank[np.argsort(np.array(table.labels, dtype=object), kind="stable")] = np.arange(
        len(table.labels))
    group = table.label if by_label else np.zeros(len(table), dtype=np.int32)
    order = _packed_order(table.doc, group, table.start, table.end, rank[table.label])
    if order is None:
        order = np.lexsort((rank[table.label], table.end, table.start, group, table.doc))
    d, g = table.doc[order], group[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (d[1:] != d[:-1]) | (g[1:] != g[:-1])
    return order, first


def _merged(table: SpanTable, *, by_label: bool) -> tuple[SpanTable, int]:
    """:func:`merge_overlaps` of every document, on columns (each document's spans sorted, as
    that function returns them); and how many spans went."""
    if len(table) < 2:
        return table, 0
    order, first = _group_order(table, by_label)
    s, e = table.start[order], table.end[order]
    # Running maximum of ends inside each group: the ends offset by group, so that one
    # accumulate never carries a maximum into the next group. The ends themselves (less the
    # smallest) when the keys fit in 63 bits, as offsets do; else their ranks (a sort: 0.1 s of
    # 1M spans; docs/performance.md, issue 29, eleventh pass).
    group_id = np.cumsum(first) - 1
    low = int(e.min())
    width = int(e.max()) - low + 1
    if int(group_id[-1]) < (1 << 62) // width:
        key = group_id * width + (e - low)
        running = np.maximum.accumulate(key) - group_id * width + low
    else:
        values, ranks = np.unique(e, return_inverse=True)
        key = group_id * len(values) + ranks.reshape(-1)
        running = values[np.maximum.accumulate(key) - group_id * len(values)]
    new = first.copy()
    new[1:] |= s[1:] >= running[:-1]  # a span that starts at or after the union so far
    at = np.flatnonzero(new)
    if len(at) == len(table):  # nothing to merge: the spans, sorted
        return SpanTable.from_columns(table.doc_ids, table.doc, table.start, table.end,
                                      table.label, table.labels), 0
    merged = SpanTable.from_columns(table.doc_ids, table.doc[order][at], s[at],
                                    np.maximum.reduceat(e, at), table.label[order][at],
                                    table.labels)
    return merged, len(table) - len(at)


def _first_overlapping_doc(table: SpanTable, *, by_label: bool) -> int | None:
    """The first document (in table order) with two overlapping spans of one group."""
    if len(table) < 2:
        return None
    order, first = _group_order(table, by_label)
    s, e = table.start[order], table.end[order]
    hit = np.flatnonzero(~first[1:] & (s[1:] < e[:-1])) + 1
    return int(table.doc[order][hit].min()) if len(hit) else None


def _check_labels(aset: AnnotationSet, allowed: set[str], n_official: int) -> None:
    """Refuse the first span (in the set's order) whose label is not in ``allowed``."""
    table = aset.table
    bad = [i for i, name in enumerate(table.labels) if name not in allowed]
    rows = np.flatnonzero(np.isin(table.label, bad)) if bad else np.zeros(0, dtype=np.int64)
    if len(rows):
        k = int(rows[0])
        doc = table.doc_ids[int(table.doc[k])]
        raise InputError(
            f"{aset.name}: document {doc!r}, span [{int(table.start[k])},{int(table.end[k])}): "
            f"label {table.labels[int(table.label[k])]!r} is not in the technique list "
            f"({n_official} names; pass labels=[...] to use another list)"
        )


def _label_order(official: Sequence[str] | None, extra: Iterable[str]) -> list[str]:
    order = list(dict.fromkeys(official or ()))
    order.extend(sorted(set(extra) - set(order)))
    return order


def score(
    gold: AnnotationSet,
    pred: AnnotationSet,
    *,
    variant: str = "semeval2021",
    merge_pred: bool = False,
    fragments_only: bool = False,
    labels: Sequence[str] | None = None,
    match: str = "sum",
    gold_order: RowOrder | None = None,
    pred_order: RowOrder | None = None,
) -> MartinoResult:
    """Score ``pred`` against ``gold`` with the Martino metric (module docstring, Eq. 1-4).

    ``labels`` is the technique list (official per-technique output order; a label outside it
    is an :class:`InputError`); None scores whatever labels occur.

    ``gold_order`` and ``pred_order`` are the files' rows in file order
    (:class:`core.metrics.tc_order.RowOrder`, from the PTC reader), which the official
    technique-classification scorers read (``semeval2020-tc``, ``semeval2020-tc-fixed``);
    without them each set's own order stands for its file's. Other variants ignore them.

    ``match="best"`` is not an official variant: it replaces each sum of Eq. 2 and 3 by the
    best match of each span, max_t C(s,t,|s|) and max_s C(s,t,|t|), which is the change
    MAFALDA makes (Helwe et al. 2024, App. D) with everything else kept. The Metric differences
    page walks from one metric to the other with it (``core.metrics.differences``).

    >>> g = AnnotationSet("gold", {"d": (Span(0, 40, "Doubt"),)})
    >>> p = AnnotationSet("pred", {"d": (Span(0, 10, "Doubt"),)}, role="system")
    >>> r = score(g, p)
    >>> round(r.precision, 3), round(r.recall, 3), round(r.f1, 3)
    (1.0, 0.25, 0.4)
    """
    check_sets("martino.score", gold, pred)
    check_choice("match", "martino", match, MATCHES)
    if is_tc(variant):
        if match != "sum":
            raise InputError(f"{variant} scores labels of given spans; it has no span pairs "
                             "to take a best match of")
        return _score_tc(gold, pred, labels=labels, variant=variant, gold_order=gold_order,
                         pred_order=pred_order)
    prep = _prepare(gold, pred, variant=variant, merge_pred=merge_pred,
                    fragments_only=fragments_only, labels=labels)
    doc_index = {d: i for i, d in enumerate(prep.documents)}
    label_index: dict[str, int] = {}
    ga = span_arrays(prep.gold, doc_index, label_index)
    pa = span_arrays(prep.pred, doc_index, label_index)
    pairs = overlapping_pairs(pa, ga, len(prep.documents), ignore_labels=prep.ignore_labels,
                              by_label=True)
    n_docs = len(prep.documents)
    n_labels = len(label_index)
    names = [""] * n_labels
    for name, i in label_index.items():
        names[i] = name
    if match == "best":
        # Each span keeps its best pair: one weight per span instead of one per pair.
        best_p = np.zeros(len(pa.doc))
        np.maximum.at(best_p, pairs.pred, pairs.c_pred)
        best_r = np.zeros(len(ga.doc))
        np.maximum.at(best_r, pairs.gold, pairs.c_gold)
        p_label, p_doc, p_weight = pa.label, pa.doc, best_p
        r_label, r_doc, r_weight = ga.label, ga.doc, best_r
    else:
        p_label = r_label = pa.label[pairs.pred]
        p_doc = r_doc = pa.doc[pairs.pred]
        p_weight, r_weight = pairs.c_pred, pairs.c_gold
    lab_p = np.bincount(p_label, weights=p_weight, minlength=n_labels)
    lab_r = np.bincount(r_label, weights=r_weight, minlength=n_labels)
    lab_pd = np.bincount(pa.label, minlength=n_labels)
    lab_rd = np.bincount(ga.label, minlength=n_labels)
    doc_p = np.bincount(p_doc, weights=p_weight, minlength=n_docs)
    doc_r = np.bincount(r_doc, weights=r_weight, minlength=n_docs)
    doc_pd = np.bincount(pa.doc, minlength=n_docs)
    doc_rd = np.bincount(ga.doc, minlength=n_docs)
    official = prep.official_labels
    if variant == "semeval2020-si":
        official = None
    return MartinoResult(
        variant=variant,
        p_num=float(p_weight.sum()),
        p_den=len(pa.doc),
        r_num=float(r_weight.sum()),
        r_den=len(ga.doc),
        labels=_label_order(official, names),
        label_p_num={names[i]: float(lab_p[i]) for i in range(n_labels)},
        label_r_num={names[i]: float(lab_r[i]) for i in range(n_labels)},
        label_p_den={names[i]: int(lab_pd[i]) for i in range(n_labels)},
        label_r_den={names[i]: int(lab_rd[i]) for i in range(n_labels)},
        documents=prep.documents,
        doc_p_num=doc_p, doc_r_num=doc_r,
        doc_p_den=doc_pd.astype(np.int64), doc_r_den=doc_rd.astype(np.int64),
        official_labels=official,
        fragments_only=fragments_only,
        merge_pred=merge_pred,
        warnings=prep.warnings,
        match=match,
    )


def _align_tc(gold: Sequence[Span], pred: Sequence[Span], doc: str, names: tuple[str, str]
              ) -> list[tuple[Span, Span]]:
    """Pair gold and predicted spans of one article, every identical span lined up.

    Both sides must hold the same spans (else :class:`InputError`, naming the first difference);
    among *all* identical intervals the predicted labels are reordered so that equal labels line
    up, as many as possible (what the official ``align_annotations`` aims at; docs/martino.md).
    """
    g = sorted(gold, key=lambda s: (s.start, s.end))
    p = sorted(pred, key=lambda s: (s.start, s.end))
    if len(g) != len(p):
        raise InputError(f"{names[1]}: document {doc!r} has {len(p)} spans but {names[0]} has "
                         f"{len(g)}; technique classification labels exactly the gold spans")
    pairs: list[tuple[Span, Span]] = []
    i = 0
    while i < len(g):
        j = i
        while j < len(g) and g[j].interval == g[i].interval:
            j += 1
        block_g, block_p = g[i:j], p[i:j]
        for s in block_p:
            if s.interval != g[i].interval:
                raise InputError(
                    f"{names[1]}: the spans of document {doc!r} do not match the gold: "
                    f"[{s.start},{s.end}) vs [{g[i].start},{g[i].end}) (end-exclusive offsets)"
                )
        remaining = list(block_p)
        ordered: list[Span | None] = [None] * len(block_g)
        for k, gs in enumerate(block_g):
            for m, ps in enumerate(remaining):
                if ps.label == gs.label:
                    ordered[k] = remaining.pop(m)
                    break
        for k in range(len(ordered)):
            if ordered[k] is None:
                ordered[k] = remaining.pop(0)
        pairs.extend((gs, ps) for gs, ps in zip(block_g, ordered, strict=True)
                     if ps is not None)
        i = j
    return pairs


def _score_tc(gold: AnnotationSet, pred: AnnotationSet, *, labels: Sequence[str] | None,
              variant: str = RELEASED, gold_order: RowOrder | None = None,
              pred_order: RowOrder | None = None) -> MartinoResult:
    """SemEval-2020 Task 11 TC: micro-F1 over the gold spans (= accuracy), the labels paired as
    ``variant`` pairs them (:mod:`core.metrics.tc_order`).

    A gold article without spans (14 of the training folder's 371) has no row to label, so a
    prediction file, one row per gold span, cannot name it: its absence is no difference (tour
    18; it was refused, "must cover the same documents", for a prediction equal to the gold).
    """
    present = set(pred.doc_ids)
    check_same_documents([d for d in gold.doc_ids if d in present or gold.get(d)],
                         pred.doc_ids, gold.name, pred.name, "identical")
    if labels is not None:
        allowed = set(labels)
        for aset in (pred, gold):
            for doc, spans in aset.spans.items():
                for s in spans:
                    if s.label not in allowed:
                        raise InputError(f"{aset.name}: document {doc!r}: label {s.label!r} is "
                                         "not in the technique list")
    documents = list(gold.doc_ids)
    # The by-article pairing first: it refuses spans that differ, naming them.
    pairs: list[Pair] = [(doc, gs, ps) for doc in documents for gs, ps in
                         _align_tc(gold.get(doc), pred.get(doc), doc, (gold.name, pred.name))]
    # The files' rows of the articles scored here (all of them, from the command line).
    g_rows = on_documents(gold_order, documents) if gold_order is not None else rows_of_set(gold)
    p_rows = on_documents(pred_order, documents) if pred_order is not None else rows_of_set(pred)
    warnings = differences(g_rows, p_rows, variant, pred.name)
    if variant in OFFICIAL:
        official = official_pairs(g_rows, p_rows, released=variant == RELEASED)
        if official is not None:
            pairs = official
    doc_index = {d: i for i, d in enumerate(documents)}
    correct: dict[str, float] = {}
    npred: dict[str, int] = {}
    ngold: dict[str, int] = {}
    doc_c = np.zeros(len(documents))
    doc_n = np.zeros(len(documents), dtype=np.int64)
    for doc, gs, ps in pairs:
        i = doc_index[doc]
        ngold[gs.label] = ngold.get(gs.label, 0) + 1
        npred[ps.label] = npred.get(ps.label, 0) + 1
        doc_n[i] += 1
        if gs.label == ps.label:
            correct[gs.label] = correct.get(gs.label, 0.0) + 1.0
            doc_c[i] += 1
    n = int(doc_n.sum())
    total = float(doc_c.sum())
    all_labels = set(ngold) | set(npred)
    return MartinoResult(
        variant=variant, p_num=total, p_den=n, r_num=total, r_den=n,
        labels=_label_order(labels, all_labels),
        label_p_num={k: correct.get(k, 0.0) for k in all_labels},
        label_r_num={k: correct.get(k, 0.0) for k in all_labels},
        label_p_den=npred, label_r_den=ngold, documents=documents,
        doc_p_num=doc_c, doc_r_num=doc_c.copy(), doc_p_den=doc_n, doc_r_den=doc_n.copy(),
        official_labels=list(labels) if labels is not None else sorted(all_labels),
        warnings=warnings, accuracy_mode=True,
    )


@dataclass(frozen=True)
class Contribution:
    """One row of the explanation table of a document.

    ``kind`` is ``pair`` (an overlapping prediction/gold pair), ``unmatched-pred`` (a
    prediction that overlaps no gold span) or ``unmatched-gold``. For pairs whose labels
    differ both contributions are 0 (δ = 0).
    """

    document: str
    kind: str
    pred: Span | None
    gold: Span | None
    intersection: int
    pred_length: int
    gold_length: int
    label_match: bool
    contribution_p: float
    contribution_r: float

    def to_dict(self) -> dict[str, JSONValue]:
        return {
            "document": self.document,
            "kind": self.kind,
            "pred_start": self.pred.start if self.pred else None,
            "pred_end": self.pred.end if self.pred else None,
            "pred_label": self.pred.label if self.pred else None,
            "gold_start": self.gold.start if self.gold else None,
            "gold_end": self.gold.end if self.gold else None,
            "gold_label": self.gold.label if self.gold else None,
            "intersection": self.intersection,
            "pred_length": self.pred_length,
            "gold_length": self.gold_length,
            "label_match": self.label_match,
            "contribution_p": self.contribution_p,
            "contribution_r": self.contribution_r,
        }


def contributions(
    gold: AnnotationSet,
    pred: AnnotationSet,
    *,
    doc: str | None = None,
    variant: str = "semeval2021",
    merge_pred: bool = False,
    fragments_only: bool = False,
    labels: Sequence[str] | None = None,
) -> list[Contribution]:
    """Every scored pair (and every span that overlaps nothing), from the pairing of :func:`score`.

    Rows are for the spans *after* the variant's merging. The ``contribution_p`` column sums to
    the precision numerator and ``contribution_r`` to the recall numerator (of ``doc`` alone, or
    of the corpus when ``doc`` is None). Label-mismatched overlapping pairs are listed with 0.
    """
    return _contribution_rows(gold, pred, doc=doc, variant=variant, merge_pred=merge_pred,
                              fragments_only=fragments_only, labels=labels)[0]


Copies = tuple[tuple[Literal["pred", "gold"], Span, int], ...]
"""The spans of one document that its set gives more than once (after the variant's merging),
with how many times: ``(side, span, copies)``."""


def _contribution_rows(
    gold: AnnotationSet, pred: AnnotationSet, *, doc: str | None, variant: str,
    merge_pred: bool, fragments_only: bool, labels: Sequence[str] | None,
) -> tuple[list[Contribution], Copies]:
    """:func:`contributions`, and the spans given more than once (of ``doc``; all documents'
    when None, the document not told apart)."""
    if is_tc(variant):
        raise InputError(f"{variant} scores labels of given spans; it has no span pairs")
    prep = _prepare(gold, pred, variant=variant, merge_pred=merge_pred,
                    fragments_only=fragments_only, labels=labels)
    documents = prep.documents if doc is None else [doc]
    if doc is not None and doc not in prep.gold.doc_ids:
        raise InputError(f"no document {doc!r} in {gold.name}")
    doc_index = {d: i for i, d in enumerate(documents)}
    label_index: dict[str, int] = {}
    ga = span_arrays(prep.gold, doc_index, label_index)
    pa = span_arrays(prep.pred, doc_index, label_index)
    pairs = overlapping_pairs(pa, ga, len(documents), ignore_labels=prep.ignore_labels)
    p_spans, g_spans = pa.to_spans(), ga.to_spans()
    rows: list[Contribution] = []
    for k in range(len(pairs.pred)):
        s = p_spans[int(pairs.pred[k])]
        t = g_spans[int(pairs.gold[k])]
        rows.append(Contribution(documents[int(pa.doc[pairs.pred[k]])], "pair", s, t,
                                 int(pairs.inter[k]), s.length, t.length, bool(pairs.match[k]),
                                 float(pairs.c_pred[k]), float(pairs.c_gold[k])))
    hit_p = np.zeros(len(pa.doc), dtype=bool)
    hit_p[pairs.pred] = True
    hit_g = np.zeros(len(ga.doc), dtype=bool)
    hit_g[pairs.gold] = True
    for i in np.flatnonzero(~hit_p):
        s = p_spans[int(i)]
        rows.append(Contribution(documents[int(pa.doc[i])], "unmatched-pred", s, None, 0,
                                 s.length, 0, False, 0.0, 0.0))
    for i in np.flatnonzero(~hit_g):
        t = g_spans[int(i)]
        rows.append(Contribution(documents[int(ga.doc[i])], "unmatched-gold", None, t, 0,
                                 0, t.length, False, 0.0, 0.0))
    rows.sort(key=lambda r: (doc_index[r.document], _row_start(r), r.kind))
    sides: tuple[tuple[Literal["pred", "gold"], list[Span]], ...] = (
        ("pred", p_spans), ("gold", g_spans))
    copies = tuple((side, span, n) for side, spans in sides
                   for span, n in collections.Counter(spans).items() if n > 1)
    return rows, copies


def _span_text(span: Span | None) -> str:
    return "" if span is None else f"[{span.start}, {span.end}) {span.label}"


@dataclass(frozen=True)
class MartinoExplanation:
    """Every scored pair of one document (:func:`contributions`) and the document's scores."""

    document: str
    variant: str
    score: DocumentScore
    contributions: tuple[Contribution, ...]
    warnings: tuple[str, ...] = ()
    copies: Copies = ()
    """The document's spans given more than once (each copy has the same rows)."""

    def rows(self) -> list[ExplanationRow]:
        """One table row per pair or unmatched span, with the columns of Eq. 1."""
        return [ExplanationRow(r.gold, r.pred, {
            "kind": r.kind, "gold span": _span_text(r.gold), "pred span": _span_text(r.pred),
            "|s∩t|": r.intersection, "|s|": r.pred_length, "|t|": r.gold_length,
            "label match": r.label_match, "C(s,t,|s|)": r.contribution_p,
            "C(s,t,|t|)": r.contribution_r}) for r in self.contributions]

    def notes(self) -> list[SpanNote]:
        """In words, what each span that overlaps another adds to the numerators: the sum of
        its rows' contributions (its own share of Eq. 1's sums; a pair of different labels
        counts 0), and why. A span that overlaps nothing gets no note: its only row says it
        (the Documents page, tour 18: the pair table alone did not say why a span scored 0). A
        span its set gives more than once is explained per copy, and the note says so.

        >>> g = AnnotationSet("gold", {"d": (Span(0, 51, "Whataboutism"),)})
        >>> p = AnnotationSet("pred", {"d": (Span(6, 46, "Doubt"),)}, role="system")
        >>> pred_note, gold_note = explain(g, p, "d").notes()
        >>> print(gold_note.text)
        nothing (0 toward recall): {partner} overlaps 40 of its 51 characters but has another
        label (Doubt), and only a pair of the same label counts.
        """
        out: list[SpanNote] = []
        sides: tuple[Literal["pred", "gold"], ...] = ("pred", "gold")
        copies = {(side, span): n for side, span, n in self.copies}
        for side in sides:
            rows: dict[Span, list[Contribution]] = {}
            for r in self.contributions:
                own = r.pred if side == "pred" else r.gold
                if r.kind == "pair" and own is not None:
                    rows.setdefault(own, []).append(r)
            for span, mine in rows.items():
                # A span given k times has its rows k times, one copy's rows each: the note
                # is one copy's (review19: the two copies' rows read as one span's sum)
                n = copies.get((side, span), 1)
                out.append(_span_note(side, span, _one_copy(mine, n), n))
        return out

    def to_dict(self) -> dict[str, JSONValue]:
        """The command line's JSON object (``python -m core explain --metric martino``)."""
        d = self.score
        return {
            "metric": "martino", "variant": self.variant, "document": self.document,
            "precision": d.precision, "recall": d.recall, "f1": d.f1,
            "precision_numerator": d.precision_numerator,
            "precision_denominator": d.precision_denominator,
            "recall_numerator": d.recall_numerator,
            "recall_denominator": d.recall_denominator,
            "rows": [r.to_dict() for r in self.contributions],
            "warnings": list(self.warnings),
        }


def _one_copy(rows: Sequence[Contribution], copies: int) -> list[Contribution]:
    """The rows of one of a span's ``copies`` identical copies, from the rows of them all
    (each copy's rows are the same rows: each row ``copies`` times, or a multiple of it)."""
    if copies == 1:
        return list(rows)
    count = collections.Counter(rows)
    out = []
    for r in rows:
        if count[r] > 0:
            out.extend([r] * (count[r] // copies))
            count[r] = 0
    return out


def _span_note(side: Literal["gold", "pred"], span: Span, rows: Sequence[Contribution],
               copies: int = 1) -> SpanNote:
    """The note of :meth:`MartinoExplanation.notes` for one span and its pair rows (those of
    one copy, when the set gives the span ``copies`` times)."""
    note = _one_span_note(side, span, rows)
    if copies == 1:
        return note
    return replace(note, text=note.text + (
        f" The set gives this span {copies} times: each of its {copies} identical copies takes "
        "as much."))


def _one_span_note(side: Literal["gold", "pred"], span: Span, rows: Sequence[Contribution]
                   ) -> SpanNote:
    """The note of one span (one copy) from its pair rows."""
    measure, column = ("precision", "C(s,t,|s|)") if side == "pred" else ("recall", "C(s,t,|t|)")
    length = span.length
    taken = [r.contribution_p if side == "pred" else r.contribution_r for r in rows]
    other = [r.gold if side == "pred" else r.pred for r in rows]
    if len(rows) == 1:
        (r,), (partner,) = rows, other
        if not r.label_match:
            label = partner.label if partner is not None else ""
            return SpanNote(side, span, (
                f"nothing (0 toward {measure}): {PARTNER} overlaps {r.intersection} of its "
                f"{length} characters but has another label ({label}), and only a pair of the "
                "same label counts."), partner)
        return SpanNote(side, span, (
            f"{measure} takes {column} = {taken[0]:.3f} from its overlap with {PARTNER}: "
            f"{r.intersection} of its {length} characters."), partner)
    other_label = sum(not r.label_match for r in rows)
    text = (f"{measure} takes {sum(taken):.3f} from it: the sum of {column} over its "
            f"{len(rows)} overlapping {'gold spans' if side == 'pred' else 'predictions'} "
            "(the rows above)")
    if other_label:
        text += (f"; {other_label} of them {'has' if other_label == 1 else 'have'} another "
                 "label and count 0")
    if sum(taken) > 1:
        text += ("; more than 1, because every overlapping pair counts (the official "
                 "scorer's sum)")
    return SpanNote(side, span, text + ".")


def explain(
    gold: AnnotationSet,
    pred: AnnotationSet,
    doc: str,
    *,
    variant: str = "semeval2021",
    merge_pred: bool = False,
    fragments_only: bool = False,
    labels: Sequence[str] | None = None,
    gold_order: RowOrder | None = None,
    pred_order: RowOrder | None = None,
) -> MartinoExplanation:
    """Document ``doc``'s pair table (:func:`contributions`) and its scores (:func:`score`).

    ``gold_order`` and ``pred_order`` are accepted so that the options of :func:`score` can be
    passed unchanged; the technique-classification variants, the only ones that read them, have
    no pairs to explain.

    >>> g = AnnotationSet("gold", {"d": (Span(0, 40, "Doubt"),)})
    >>> p = AnnotationSet("pred", {"d": (Span(0, 10, "Doubt"),)}, role="system")
    >>> e = explain(g, p, "d")
    >>> [(r.kind, r.contribution_r) for r in e.contributions], e.score.recall
    ([('pair', 0.25)], 0.25)
    """
    rows, copies = _contribution_rows(gold, pred, doc=doc, variant=variant,
                                      merge_pred=merge_pred, fragments_only=fragments_only,
                                      labels=labels)
    result = score(gold, pred, variant=variant, merge_pred=merge_pred,
                   fragments_only=fragments_only, labels=labels)
    row = result.per_document()[result.documents.index(doc)]
    return MartinoExplanation(doc, result.variant, row, tuple(rows), tuple(result.warnings),
                              copies)


def _row_start(row: Contribution) -> int:
    span = row.pred if row.pred is not None else row.gold
    return span.start if span is not None else 0


def _used_labels(aset: AnnotationSet) -> set[str]:
    """The labels of at least one span (counted, not sorted: issue 29, target 1)."""
    table = aset.table
    counts = np.bincount(table.label, minlength=len(table.labels))
    return {table.labels[k] for k in np.flatnonzero(counts).tolist()}


DISJOINT_LABELS_HINT = "check the label names, or pass labels=[...] to have them checked"
"""What :func:`disjoint_labels` tells a caller to do: an option of the Python API (``--labels
FILE`` on the command line: ``core.cli.common.flag_message``; the dashboard's words:
``ui.results.for_dashboard``)."""

DISJOINT_LABELS = "no predicted label occurs in"
"""The words of the warning of :func:`disjoint_labels` (a shard's is left out, and the corpus's
given once: ``core.engines.sharded``)."""


MISSING_DOCUMENTS_HINT = (
    "the semeval2021 variant scores a prediction that lists every document (one without spans "
    "as \"labels\": []); a prediction that cannot list a document without spans (a PTC TSV "
    "file, one row per span) is scored by the nlp4if2019 variant (--variant nlp4if2019), whose "
    "recall counts the gold spans of the documents it lacks as missed")
"""What the ``semeval2021`` refusal of a prediction that lacks documents adds (tour 18: a
SemEval-2020 system's TSV that predicted nothing on an article was refused without a way out)."""


def check_documents_2021(gold: AnnotationSet, pred: AnnotationSet) -> None:
    """The ``semeval2021`` variant's check that the prediction covers the gold's documents, no
    more and no fewer (as its official scorer checks), raising :class:`InputError`; a
    prediction that lacks documents is told of the variant that scores it
    (:data:`MISSING_DOCUMENTS_HINT`). Metric differences' shared path
    (:mod:`core.metrics.differences`) checks with it too, so that both say the same."""
    try:
        check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name, "identical")
    except InputError as exc:
        if set(pred.doc_ids) <= set(gold.doc_ids):  # documents the prediction lacks
            raise InputError(f"{exc}; {MISSING_DOCUMENTS_HINT}") from None
        raise


def disjoint_labels(gold: AnnotationSet, pred: AnnotationSet) -> list[str]:
    """The warning for predictions none of whose labels the gold uses (scored without a
    technique list, only a same-label pair counts: F1 is 0 whatever the offsets); none when
    they share one, or a side has no span. The command line's technique list refuses such a
    label instead (:func:`default_labels`)."""
    g, p = _used_labels(gold), _used_labels(pred)
    if not g or not p or g & p:
        return []

    def shown(labels: set[str]) -> str:
        first = sorted(labels)
        return ", ".join(repr(x) for x in first[:5]) + ("…" if len(first) > 5 else "")

    return [KindedText(f"{pred.name}: {DISJOINT_LABELS} {gold.name} ({pred.name}: {shown(p)}; "
                       f"{gold.name}: {shown(g)}); only spans of the same label match, so "
                       f"nothing is matched ({DISJOINT_LABELS_HINT})",
                       "disjoint-labels")]


def default_labels(variant: str, gold: AnnotationSet) -> tuple[list[str] | None, list[str]]:
    """The technique list to score ``gold`` with when none is given, and why not, if not.

    The variant's official list when every gold label is on it; otherwise None (score the
    labels that occur) with a warning naming the labels outside it. ``semeval2020-si`` ignores
    labels (None, no warning). A gold without spans gives no evidence of a technique list, so
    its labels are those that occur (None, no warning): an empty corpus, such as an image-only
    export, lists no techniques.
    """
    check_choice("variant", "martino", variant, VARIANTS)
    if variant == "semeval2020-si":
        return None, []
    official = technique_list(variant)
    table = martino_gold_view(gold).table
    # The labels of at least one span, as a set: counted, not sorted (issue 29, target 1).
    counts = np.bincount(table.label, minlength=len(table.labels))
    used = {table.labels[k] for k in np.flatnonzero(counts).tolist()}
    if not used:
        return None, []
    if official is None or used <= set(official):
        return official, []
    outside = sorted(used - set(official))
    return None, [KindedText(
        f"{gold.name}: labels outside the {variant} technique list "
        f"({', '.join(repr(x) for x in outside[:5])}{'…' if len(outside) > 5 else ''}); "
        f"scoring the labels that occur (pass labels=[...] to fix the list{_list_hint(used)})",
        "outside-technique-list")]


TASKS = {"semeval2021": "SemEval-2021 Task 6", "nlp4if2019": "NLP4IF-2019",
         "semeval2020-tc": "SemEval-2020 Task 11"}
"""The shared task of each shipped technique list (:data:`core.model.techniques.NAMES`)."""


PACKAGE_LISTS = "core/data/techniques"
"""Where the shipped technique lists lie, relative to the folder that holds the ``core`` package
(:data:`core.model.techniques.DATA`; ``python -c "import core; print(core.__file__)"`` says
where that is)."""


def _list_hint(used: set[str]) -> str:
    """Where the shipped lists that hold every one of ``used`` are, for the warning of
    :func:`default_labels` (tour 18: SemEval-2020 Task 11 files scored under the default
    ``semeval2021`` variant were told their 14 techniques are outside its list, and not that
    the 2020 list, which holds them all, ships with SpanScope); "" when none holds them all.

    >>> _list_hint({"Bandwagon,Reductio_ad_hitlerum"}).startswith(
    ...     "; all of them are on the SemEval-2020 Task 11 list (14 techniques): ")
    True
    >>> _list_hint({"Doubt", "Flag-Waving"}).count(" list (")
    2
    >>> _list_hint({"Banana"})
    ''
    """
    from core.model.techniques import NAMES

    # The file by its place in the package, the same on every install: a warning of the JSON
    # output holds no path of this machine (an installed package and a checkout print alike).
    fits = [f"the {TASKS[name]} list ({len(official_list(name))} techniques): "
            f"{PACKAGE_LISTS}/{name}.txt in SpanScope's package" for name in NAMES
            if used <= set(official_list(name))]
    return f"; all of them are on {' and on '.join(fits)}" if fits else ""


def read_order(*, variant: str, gold_records: object, pred_records: object,
               gold: AnnotationSet, pred: AnnotationSet, texts: Mapping[str, str | None],
               labels: Sequence[str] | None) -> tuple[AnnotationSet, list[str], dict[str, object]]:
    """The files' row order for the technique-classification variants (the official SemEval-2020
    TC scorer reads it, :mod:`core.metrics.tc_order`): ``gold_order`` and ``pred_order`` for
    :func:`score`, which pairs the rows and warns where the readings differ. ``gold_records``
    and ``pred_records`` are the readers' records (:attr:`core.formats.Loaded.records`)."""
    g_rows, p_rows = rows_of(gold_records), rows_of(pred_records)
    if variant in TC_VARIANTS and g_rows is not None and p_rows is not None:
        return pred, [], {"gold_order": g_rows, "pred_order": p_rows}
    return pred, [], {}
