"""A toy metric from another package: a predicted span counts when the reference holds the very
same span (start, end and label), pooled over the corpus. Registered through the entry point
``spanscope.metrics`` of this package's ``pyproject.toml``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from core.metrics.additive import SpanTerm, from_result
from core.metrics.registry import Metric
from core.metrics.result import (
    BootstrapTable,
    DocumentScore,
    LabelScore,
    document_frame,
    pooled_f1,
    prf,
)
from core.model import AnnotationSet

NAME = "plugin-exact"


@dataclass
class ExactResult:
    """Per document: exact matches, predicted spans, reference spans."""

    documents: list[str]
    counts: list[tuple[int, int, int]]
    metric: str = NAME
    variant: str = "strict"
    pooled: bool = True
    warnings: list[str] = field(default_factory=list)

    @property
    def precision_numerator(self) -> float:
        return float(sum(c[0] for c in self.counts))

    @property
    def recall_numerator(self) -> float:
        return self.precision_numerator

    @property
    def precision_denominator(self) -> float:
        return float(sum(c[1] for c in self.counts))

    @property
    def recall_denominator(self) -> float:
        return float(sum(c[2] for c in self.counts))

    def _prf(self) -> tuple[float, float, float]:
        return tuple(prf(self.precision_numerator, self.precision_denominator,
                         self.recall_numerator, self.recall_denominator, empty="official"))

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
    def document_ids(self) -> list[str]:
        return list(self.documents)

    def per_document(self) -> list[DocumentScore]:
        return [DocumentScore(d, *prf(t, n, t, g, empty="official"), t, n, t, g)
                for d, (t, n, g) in zip(self.documents, self.counts, strict=True)]

    def per_label(self) -> dict[str, LabelScore]:
        return {}

    def summary(self) -> dict[str, float]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1}

    def bootstrap_table(self) -> BootstrapTable:
        table = np.array([[t, n, t, g] for t, n, g in self.counts], dtype=float)
        return BootstrapTable(tuple(self.documents), table.reshape(len(self.counts), 4),
                              pooled_f1)

    def to_dict(self, *, per_document: bool = False) -> dict[str, object]:
        out: dict[str, object] = {"metric": self.metric, "variant": self.variant,
                                  **self.summary(), "documents": len(self.documents),
                                  "warnings": list(self.warnings)}
        if per_document:
            out["per_document"] = [r.to_dict() for r in self.per_document()]
        return out

    def per_document_frame(self) -> object:
        return document_frame(self.per_document())


def score(gold: AnnotationSet, pred: AnnotationSet, *, variant: str = "strict") -> ExactResult:
    docs = list(gold.doc_ids)
    counts = []
    for d in docs:
        ref = set(gold.get(d))
        counts.append((sum(s in ref for s in pred.get(d)), len(pred.get(d)), len(gold.get(d))))
    return ExactResult(docs, counts)


def terms(gold: AnnotationSet, pred: AnnotationSet, **options: object) -> list[SpanTerm]:
    """Each span's term: 1 when the other side holds the same span (span-level slices)."""
    out = []
    for d in gold.doc_ids:
        ref, hyp = set(gold.get(d)), set(pred.get(d))
        out.extend(SpanTerm(d, "prediction", s.start, s.end, s.label, float(s in ref))
                   for s in pred.get(d))
        out.extend(SpanTerm(d, "reference", s.start, s.end, s.label, float(s in hyp))
                   for s in gold.get(d))
    return out


METRIC = Metric(
    name=NAME, kind="span", title="Toy exact match",
    description="a plugin's toy metric: a prediction counts when the reference has the same span",
    score=score, variants=("strict",), options=frozenset({"variant"}),
    # The statistics derived from the SpanResult, with the per-span terms that slices bucket.
    additive=dataclasses.replace(from_result(score), terms=terms),
    tags=frozenset({"no-explanation"}),
)
