"""Metrics, one module per family, and the registry that lists them.

Each metric returns sufficient statistics (sums and counts, per label and per document) and
:func:`core.metrics.result.prf` turns them into P, R and F1, so that partial results can be added
together. Notebook use::

    from core.metrics import martino, mafalda, registry
    result = martino.score(gold, pred)           # a SpanResult
    result.f1, result.per_document_frame()       # numbers, a pandas DataFrame
    registry.get("mafalda").score_sets(gold, pred, level=1)

See ``docs/python-api.md``.
"""

from types import ModuleType

from core.metrics import (
    classification,
    differences,
    hateval,
    labels,
    mafalda,
    martino,
    result,
    text_labels,
)
from core.metrics import registry as registry
from core.metrics.registry import REGISTRY, Metric, get, register, span_metrics
from core.metrics.result import (
    DocumentScore,
    Explanation,
    ExplanationRow,
    LabelScore,
    SpanResult,
    prf,
)

__all__ = [
    "REGISTRY",
    "DocumentScore",
    "Explanation",
    "ExplanationRow",
    "LabelScore",
    "Metric",
    "SpanResult",
    "agreement",
    "classification",
    "differences",
    "get",
    "hateval",
    "labels",
    "mafalda",
    "martino",
    "prf",
    "register",
    "registry",
    "result",
    "span_metrics",
    "text_labels",
]


def __getattr__(name: str) -> ModuleType:
    """``core.metrics.agreement`` on first use: it imports scipy, which costs a second."""
    if name == "agreement":
        import importlib

        return importlib.import_module("core.metrics.agreement")
    raise AttributeError(f"module 'core.metrics' has no attribute {name!r}")
