"""One side of a corpus as columns: the names the readers and the agreement code import.

The table and its view are part of the model: :class:`~core.model.SpanTable` holds the spans of
an annotation set as four NumPy arrays, :class:`~core.model.SpanView` (``LazySpans`` here) shows
it as the usual ``{document id: (Span, ...)}`` mapping, and :func:`~core.model.make_spans` is the
model's trusted constructor of spans from checked columns. This module only depends on
:mod:`core.model` and gives those names their former home, so that a reader keeps its imports.
"""

from __future__ import annotations

from core.model import SpanTable, SpanView, _span_order, make_spans

LazySpans = SpanView
"""The former name of :class:`core.model.SpanView`."""

__all__ = ["LazySpans", "SpanTable", "SpanView", "_span_order", "make_spans"]
