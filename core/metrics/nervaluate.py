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

from core.metrics.martino import martino_gold_view
from core.metrics.result import prf as result_prf
from core.model import AnnotationSet, Span
from core.model.docsets import check_same_documents
from core.model.errors import check_choice

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
    labels = sorted({s.label for aset in (gold, pred) for v in aset.spans.values() for s in v})
    overall = {s: Counts() for s in SCHEMAS}
    per_label = {lab: {s: Counts() for s in SCHEMAS} for lab in labels}
    for doc in gold.doc_ids:
        g = sorted(gold.get(doc))
        p = sorted(pred.get(doc))
        for schema in SCHEMAS:
            overall[schema].add(align(g, p, schema, min_overlap=min_overlap)[0])
            for lab in {x.label for x in g} | {x.label for x in p}:
                per_label[lab][schema].add(align([x for x in g if x.label == lab],
                                                 [x for x in p if x.label == lab], schema,
                                                 min_overlap=min_overlap)[0])
    return NervaluateResult(overall, per_label, len(gold.doc_ids), min_overlap)
