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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for type checkers; imported on first use
    from core.metrics import (
        agreement,
        classification,
        differences,
        hateval,
        labels,
        mafalda,
        martino,
        registry,
        result,
        text_labels,
    )
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

_FROM = {"REGISTRY": "registry", "Metric": "registry", "get": "registry",
         "register": "registry", "span_metrics": "registry", "DocumentScore": "result",
         "Explanation": "result", "ExplanationRow": "result", "LabelScore": "result",
         "SpanResult": "result", "prf": "result"}
"""Name -> the submodule that defines it."""


def __getattr__(name: str) -> Any:
    """The submodules and names of ``__all__``, imported on first use: a command pays only for
    the metrics it runs (``core.metrics.martino`` does not import ``differences`` or
    ``hateval``; ``agreement`` imports scipy, which costs a second). The registry lists every
    metric; asking it for one (:func:`get`) imports the modules it registers."""
    if name in _FROM:
        return getattr(importlib.import_module(f"core.metrics.{_FROM[name]}"), name)
    if name in __all__:
        return importlib.import_module(f"core.metrics.{name}")
    raise AttributeError(f"module 'core.metrics' has no attribute {name!r}")
