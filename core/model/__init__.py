"""The data model every other package works on: spans, their one storage, annotation sets and
corpora, and the rules that hold for any input (texts, spans past the text, label taxonomies).

- :mod:`core.model.span`: :class:`Span` (``[start, end)`` character offsets and a label),
  :class:`AltSpan` (MAFALDA gold with alternative labels, Helwe et al. 2024, Definition 6);
- :mod:`core.model.table`: :class:`SpanTable` and :class:`SpanView`, the one storage of a set's
  spans and its read-only mapping view;
- :mod:`core.model.sets`: :class:`AnnotationSet`, :class:`Document`, :class:`Corpus`;
- :mod:`core.model.errors` (errors and diagnostics), :mod:`core.model.bounds` (spans past the
  text), :mod:`core.model.texts` (one document id, one text), :mod:`core.model.textsafe`,
  :mod:`core.model.roles`, :mod:`core.model.taxonomy` (MAFALDA's levels) and
  :mod:`core.model.techniques` (the propaganda tasks' label lists).

The names below are the model's public interface; ``from core.model import Span`` is how the
rest of the code base imports them. Architecture: ``docs/architecture.md``.
"""

from core.model.sets import FRAME_COLUMNS, ROLES, AnnotationSet, Corpus, Role
from core.model.span import (
    NOTHING,
    AltSpan,
    Document,
    Interval,
    Span,
    group_alternatives,
    make_spans,
)
from core.model.table import READ_AHEAD, SpanTable, SpanView

__all__ = [
    "FRAME_COLUMNS", "NOTHING", "READ_AHEAD", "ROLES", "AltSpan", "AnnotationSet", "Corpus",
    "Document", "Interval", "Role", "Span", "SpanTable", "SpanView", "group_alternatives",
    "make_spans",
]
