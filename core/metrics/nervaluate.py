"""The four SemEval-2013 Task 9.1 evaluation schemas (strict, exact, partial, type): nervaluate.

What it measures
----------------
Segura-Bedmar et al. (2013, §5) score entity recognition by aligning predicted spans with gold
spans one to one and counting five outcomes (the MUC categories, Chinchor & Sundheim 1993):
COR (correct), INC (incorrect), PAR (partial), MIS (missed gold) and SPU (spurious prediction).
Four schemas differ in what counts as correct:

``strict``
    same boundaries and same label (an overlapping pair otherwise is INC);
``exact``
    same boundaries, any label (an overlapping pair otherwise is INC);
``partial``
    same boundaries is COR, any other overlap PAR, labels ignored;
``type``
    overlap with the same label is COR (among several, the gold span whose boundaries are
    closest: least |Δstart| + |Δend|), overlap with another label INC.

With POS = COR + INC + PAR + MIS (possible) and ACT = COR + INC + PAR + SPU (actual)::

    strict, exact:  P = COR / ACT                R = COR / POS
    partial, type:  P = (COR + 0.5 PAR) / ACT    R = (COR + 0.5 PAR) / POS
    F1 = 2PR / (P + R)

(0 when a denominator or P + R is 0). Counts are summed over documents before dividing.

The alignment, exactly as the ``nervaluate`` package (version 1.2.1, pinned in
requirements-dev.txt) computes it, which a differential test checks on random corpora
--------------------------------------------------------------------------------------
* Per document, predictions are visited in order (here: sorted by start, end, label) and each is
  matched against the gold spans (same order) *not yet matched*: the first gold span that is
  correct under the schema wins; else (``type``: the same-label gold span at the least boundary
  distance, first on ties) ; else the first overlapping gold span makes the prediction INC
  (``partial``: PAR); else it is SPU. A matched gold span is consumed, also by INC and PAR;
  gold spans left over are MIS. Duplicate predictions are therefore SPU once the gold span they
  hit is taken.
* "Overlapping" means |s∩t| / |t| · 100 ≥ ``min_overlap`` percent of the *gold* span
  (nervaluate's ``min_overlap_percentage``, default 1.0): with the default a one-character
  overlap with a gold span longer than 100 characters does not count.
* nervaluate's offsets are inclusive at both ends; ours are end-exclusive, so ``end - 1`` is
  what it is given. Its "ent_type" schema is our ``type``.
* Per label, both sides are restricted to that label and the schema is run again (so strict
  and type show no INC per label, and exact equals strict); labels are those used on either
  side.

Gold with alternatives (MAFALDA) is read as plain gold (:func:`core.metrics.martino.
martino_gold_view`: each distinct interval and label once, ⊥ dropped).

Limitations
-----------
The greedy alignment depends on the order of the spans (a better one-to-one assignment may
exist), the partial credit 0.5 is a constant, and the overlap threshold is relative to the gold
span only. :mod:`core.analysis.errors` categorises every span without an alignment.

Citation: I. Segura-Bedmar, P. Martínez, M. Herrero-Zazo. SemEval-2013 Task 9: Extraction of
Drug-Drug Interactions from Biomedical Texts. SemEval 2013 (§5, evaluation). D. S. Batista et
al., nervaluate (software), https://github.com/MantisAI/nervaluate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.metrics.martino import martino_gold_view
from core.metrics.overlap import BLOCK_CANDIDATES, SpanArrays, swept_pairs
from core.metrics.result import prf as result_prf
from core.model import AnnotationSet, Span
from core.model.docsets import check_same_documents
from core.model.errors import check_choice
from core.model.table import SpanTable

SCHEMAS = ("strict", "exact", "partial", "type")
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious")
CARD = __doc__


@dataclass
class Counts:
    """COR, INC, PAR, MIS and SPU of one schema (summable over documents)."""

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    spurious: int = 0

    def add(self, other: Counts) -> None:
        for k in COUNTS:
            setattr(self, k, getattr(self, k) + getattr(other, k))

    @property
    def possible(self) -> int:
        return self.correct + self.incorrect + self.partial + self.missed

    @property
    def actual(self) -> int:
        return self.correct + self.incorrect + self.partial + self.spurious


def prf(counts: Counts, schema: str) -> tuple[float, float, float]:
    """P, R and F1 of ``counts`` under ``schema`` (half credit for PAR in partial and type).

    >>> prf(Counts(correct=2, partial=2, missed=1, spurious=1), "partial")
    (0.6, 0.6, 0.6)
    >>> prf(Counts(), "strict")
    (0.0, 0.0, 0.0)
    """
    check_choice("schema", "nervaluate", schema, SCHEMAS)
    credit = counts.correct + (0.5 * counts.partial if schema in ("partial", "type") else 0)
    p, r, f1 = result_prf(credit, counts.actual, credit, counts.possible, empty="zero")
    return p, r, f1


def _enough(pred: Span, gold: Span, min_overlap: float) -> bool:
    inter = min(pred.end, gold.end) - max(pred.start, gold.start)
    if inter <= 0:
        return False
    return inter / gold.length * 100.0 >= min_overlap


def align(gold: Sequence[Span], pred: Sequence[Span], schema: str, *,
          min_overlap: float = 1.0) -> tuple[Counts, list[tuple[str, Span | None, Span | None]]]:
    """Align one document's spans under ``schema`` (module docstring); spans are taken in the
    order given. Returns the counts and one (outcome, gold, pred) row per outcome.

    >>> g = [Span(0, 10, "A"), Span(20, 30, "B")]
    >>> p = [Span(0, 10, "B"), Span(20, 25, "B"), Span(40, 41, "A")]
    >>> align(g, p, "strict")[0]
    Counts(correct=0, incorrect=2, partial=0, missed=0, spurious=1)
    >>> align(g, p, "type")[0]
    Counts(correct=1, incorrect=1, partial=0, missed=0, spurious=1)
    """
    check_choice("schema", "nervaluate", schema, SCHEMAS)
    counts = Counts()
    rows: list[tuple[str, Span | None, Span | None]] = []
    taken = [False] * len(gold)
    for s in pred:
        hit: int | None = None
        outcome = "spurious"
        if schema == "type":
            best_dist: int | None = None
            other: int | None = None
            for i, t in enumerate(gold):
                if taken[i] or not _enough(s, t, min_overlap):
                    continue
                if s.label == t.label:
                    dist = abs(s.start - t.start) + abs(s.end - t.end)
                    if best_dist is None or dist < best_dist:
                        best_dist, hit = dist, i
                elif other is None:
                    other = i
            if hit is not None:
                outcome = "correct"
            elif other is not None:
                hit, outcome = other, "incorrect"
        else:
            for i, t in enumerate(gold):
                if taken[i]:
                    continue
                same = s.interval == t.interval and (schema != "strict" or s.label == t.label)
                if same:
                    hit, outcome = i, "correct"
                    break
                if hit is None and _enough(s, t, min_overlap):
                    hit, outcome = i, "partial" if schema == "partial" else "incorrect"
        if hit is not None:
            taken[hit] = True
        setattr(counts, outcome, getattr(counts, outcome) + 1)
        rows.append((outcome, None if hit is None else gold[hit], s))
    for i, t in enumerate(gold):
        if not taken[i]:
            counts.missed += 1
            rows.append(("missed", t, None))
    return counts, rows


@dataclass
class NervaluateResult:
    """Counts per schema overall and per label; ``to_dict`` is the command line's JSON."""

    overall: dict[str, Counts]
    per_label: dict[str, dict[str, Counts]]
    documents: int
    min_overlap: float = 1.0
    warnings: list[str] = field(default_factory=list)

    def schema_dict(self, schema: str) -> dict[str, Any]:
        c = self.overall[schema]
        p, r, f1 = prf(c, schema)
        out: dict[str, Any] = {"precision": p, "recall": r, "f1": f1,
                               **{k: getattr(c, k) for k in COUNTS},
                               "possible": c.possible, "actual": c.actual}
        per = {}
        for lab, by_schema in self.per_label.items():
            lc = by_schema[schema]
            lp, lr, lf = prf(lc, schema)
            per[lab] = {"precision": lp, "recall": lr, "f1": lf,
                        **{k: getattr(lc, k) for k in COUNTS},
                        "possible": lc.possible, "actual": lc.actual}
        out["per_label"] = per
        return out

    def to_dict(self, *, per_document: bool = False) -> dict[str, Any]:
        """The command line's JSON: the four schemas (counts, P/R/F1, ``per_label``).
        ``per_document`` is accepted for the registry's protocol; the schemas are pooled over
        the corpus and reported as a whole."""
        return {"metric": "nervaluate", **{s: self.schema_dict(s) for s in SCHEMAS},
                "min_overlap": self.min_overlap, "documents": self.documents,
                "warnings": list(self.warnings)}


def score(gold: AnnotationSet, pred: AnnotationSet, *, min_overlap: float = 1.0
          ) -> NervaluateResult:
    """The four schemas of ``pred`` against ``gold``, overall and per label.

    The counts are :func:`align`'s, summed over documents (and over (document, label) pairs per
    label), computed on columns by :func:`_greedy` (tests/analysis/test_nervaluate_vectorised.py
    compares the two on random corpora).

    >>> g = AnnotationSet("g", {"d": (Span(0, 10, "A"),)})
    >>> p = AnnotationSet("p", {"d": (Span(0, 5, "A"),)}, role="system")
    >>> r = score(g, p).to_dict()
    >>> r["strict"]["incorrect"], r["partial"]["partial"], r["partial"]["f1"], r["type"]["f1"]
    (1, 1, 0.5, 1.0)
    """
    if not 1.0 <= min_overlap <= 100.0:
        raise ValueError(f"min_overlap must be between 1 and 100 percent, got {min_overlap}")
    check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name,
                         "pred-subset-of-gold")
    gold = martino_gold_view(gold)
    pred = martino_gold_view(pred)
    labels = sorted(set(_used_labels(gold.table)) | set(_used_labels(pred.table)))
    doc_index = {d: i for i, d in enumerate(gold.doc_ids)}
    g = _sorted_columns(gold.table, doc_index, labels)
    p = _sorted_columns(pred.table, doc_index, labels)
    n_labels = max(len(labels), 1)
    pi, gi = _overlapping_pairs(g, p, min_overlap)
    same_interval = (p.start[pi] == g.start[gi]) & (p.end[pi] == g.end[gi])
    same_label = p.label[pi] == g.label[gi]
    dist = np.abs(p.start[pi] - g.start[gi]) + np.abs(p.end[pi] - g.end[gi])
    overall: dict[str, Counts] = {}
    per_label: dict[str, dict[str, Counts]] = {lab: {} for lab in labels}
    restricted = np.flatnonzero(same_label)  # per label: both sides restricted to the label
    for schema in SCHEMAS:
        for grouped in (False, True):
            keep = restricted if grouped else slice(None)
            outcome, taken = _greedy(schema, len(p.doc), len(g.doc), pi[keep], gi[keep],
                                     same_interval[keep], same_label[keep], dist[keep],
                                     p.doc * n_labels + p.label if grouped else p.doc)
            if not grouped:
                overall[schema] = _counts(outcome, taken)
                continue
            by_outcome = np.bincount(outcome * n_labels + p.label,
                                     minlength=len(_OUTCOMES) * n_labels)
            missed = np.bincount(g.label[~taken], minlength=n_labels)
            for k, lab in enumerate(labels):
                per_label[lab][schema] = Counts(
                    correct=int(by_outcome[_COR * n_labels + k]),
                    incorrect=int(by_outcome[_INC * n_labels + k]),
                    partial=int(by_outcome[_PAR * n_labels + k]),
                    missed=int(missed[k]), spurious=int(by_outcome[_SPU * n_labels + k]))
    return NervaluateResult(overall, per_label, len(gold.doc_ids), min_overlap)


_OUTCOMES = ("correct", "incorrect", "partial", "spurious")
_COR, _INC, _PAR, _SPU = range(4)


def _used_labels(table: SpanTable) -> list[str]:
    return [table.labels[k] for k in np.unique(table.label).tolist()]


def _sorted_columns(table: SpanTable, doc_index: dict[str, int],
                    labels: list[str]) -> SpanArrays:
    """One side's spans as :class:`~core.metrics.overlap.SpanArrays` sorted as :func:`align`
    visits them: by document (the gold's order), start, end, label (``labels`` is sorted, so
    codes sort as the names)."""
    label_index = {lab: i for i, lab in enumerate(labels)}
    docs = np.array([doc_index[d] for d in table.doc_ids], dtype=np.int64)
    codes = np.array([label_index.get(n, -1) for n in table.labels], dtype=np.int64)
    doc = docs[table.doc] if len(docs) else np.zeros(0, dtype=np.int64)
    label = codes[table.label] if len(codes) else np.zeros(0, dtype=np.int64)
    start, end = table.start.astype(np.int64), table.end.astype(np.int64)
    order = np.lexsort((label, end, start, doc))
    return SpanArrays(doc[order], start[order], end[order], label[order], labels)


def _overlapping_pairs(g: SpanArrays, p: SpanArrays, min_overlap: float
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Every (prediction, gold span) of one document that overlaps by at least ``min_overlap``
    percent of the gold span (:func:`_enough`, same float operations), in prediction order, then
    gold order: the only pairs :func:`align` can match (equal intervals overlap 100%)."""
    lo = np.searchsorted(g.doc, p.doc, side="left")
    n = np.searchsorted(g.doc, p.doc, side="right") - lo
    n_docs = int(max(g.doc.max(initial=-1), p.doc.max(initial=-1))) + 1
    swept = (swept_pairs(p.doc, p.start, p.end, g.doc, g.start, g.end, n_docs)
             if int(n.sum()) > BLOCK_CANDIDATES else None)
    if swept is not None:  # a crowded document: only the reference spans that can reach
        pi, gi, inter = swept
    else:
        pi = np.repeat(np.arange(len(p.doc), dtype=np.int64), n)
        first = np.cumsum(n) - n
        gi = np.arange(int(n.sum()), dtype=np.int64) - np.repeat(first - lo, n)
        inter = np.minimum(p.end[pi], g.end[gi]) - np.maximum(p.start[pi], g.start[gi])
        ok = inter > 0
        pi, gi, inter = pi[ok], gi[ok], inter[ok]
    ok = inter / (g.end[gi] - g.start[gi]) * 100.0 >= min_overlap
    return pi[ok], gi[ok]


def _greedy(schema: str, n_pred: int, n_gold: int, pi: np.ndarray, gi: np.ndarray,
            same_interval: np.ndarray, same_label: np.ndarray, dist: np.ndarray,
            group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`align` on every group of spans at once: each prediction's outcome
    (``_COR``...``_SPU``) and which gold spans were matched.

    A prediction's choice, given the gold spans still free, is its best candidate pair in a fixed
    preference order (``strict``/``exact``/``partial``: the first gold span with the same
    boundaries (and label, strict), else the first overlapping one; ``type``: the same-label one
    at the least boundary distance, first on ties, else the first overlapping one). Removing
    candidates other than the best leaves the best unchanged, so in one round each group's
    predictions, in order, keep the choice they make with the spans taken so far until one
    chooses a gold span an earlier one chose: those before it are final, their spans taken, and
    the rest choose again in the next round. The first pending prediction of a group is always
    final, so the rounds end; on real corpora they are a handful.
    """
    if schema == "type":
        cls = np.where(same_label, 0, 1)
        order = np.lexsort((gi, np.where(same_label, dist, 0), cls, pi))
        outcome_of = np.where(same_label, _COR, _INC)
    else:
        same = same_interval & same_label if schema == "strict" else same_interval
        order = np.lexsort((gi, ~same, pi))
        outcome_of = np.where(same, _COR, _PAR if schema == "partial" else _INC)
    pi, gi, outcome_of = pi[order], gi[order], outcome_of[order]
    outcome = np.full(n_pred, _SPU, dtype=np.int64)
    taken = np.zeros(n_gold, dtype=bool)
    while len(pi):
        head = np.ones(len(pi), dtype=bool)
        head[1:] = pi[1:] != pi[:-1]
        cand_p, cand_g, cand_o = pi[head], gi[head], outcome_of[head]
        # a gold span chosen by an earlier prediction of the group: from there on, choose again
        by_gold = np.lexsort((cand_p, cand_g))
        again = np.zeros(len(cand_p), dtype=bool)
        again[by_gold[1:]] = cand_g[by_gold[1:]] == cand_g[by_gold[:-1]]
        grp = group[cand_p]
        cut = np.full(len(cand_p), np.iinfo(np.int64).max, dtype=np.int64)
        if again.any():
            groups, where = np.unique(grp, return_inverse=True)
            first_again = np.full(len(groups), np.iinfo(np.int64).max, dtype=np.int64)
            np.minimum.at(first_again, where[again], cand_p[again])
            cut = first_again[where]
        final = cand_p < cut
        outcome[cand_p[final]] = cand_o[final]
        taken[cand_g[final]] = True
        done = np.zeros(n_pred, dtype=bool)
        done[cand_p[final]] = True
        keep = ~done[pi] & ~taken[gi]
        pi, gi, outcome_of = pi[keep], gi[keep], outcome_of[keep]
    return outcome, taken


def _counts(outcome: np.ndarray, taken: np.ndarray) -> Counts:
    c = np.bincount(outcome, minlength=len(_OUTCOMES))
    return Counts(int(c[_COR]), int(c[_INC]), int(c[_PAR]), missed=int((~taken).sum()),
                  spurious=int(c[_SPU]))
