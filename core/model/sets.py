"""Annotation sets, documents and corpora.

An :class:`AnnotationSet` is a gold standard, a system's predictions or one annotator: a named
mapping from document id to that document's spans, stored once as a
:class:`~core.model.table.SpanTable`. Gold with alternatives (Helwe et al. 2024, MAFALDA, §5.2): a
set whose ``alternatives`` flag is set reads several spans with the same interval as one gold
span whose label is a disjunction of those labels (:func:`~core.model.span.group_alternatives`);
plain gold is the special case of one label per interval, and then two spans on one interval are
two gold spans (as in the SemEval-2021 scorer).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - pandas is imported only when a frame is asked for
    import pandas as pd
from core.model.span import AltSpan, Document, Span, group_alternatives
from core.model.table import SpanTable, SpanView

FRAME_COLUMNS = ("document", "start", "end", "label")
"""Columns of :meth:`AnnotationSet.to_frame` and what :meth:`AnnotationSet.from_frame` reads."""

Role = Literal["gold", "system", "annotator"]
ROLES: tuple[Role, ...] = ("gold", "system", "annotator")


class AnnotationSet:
    """A named mapping from document id to that document's spans.

    A gold standard, a system's predictions, or one annotator. Every document the set covers is a
    key, also when it has no span (``()``): "no annotation" differs from "not annotated".
    ``alternatives`` says that spans sharing an interval are alternatives (MAFALDA gold).

    The spans are stored once, as :attr:`table` (a :class:`SpanTable`); :attr:`spans` is a
    read-only :class:`SpanView` of it. ``spans`` may be given as ``{document id: (Span, ...)}``
    (the table is built from it, keeping its order), as a :class:`SpanTable`, or as another
    set's :attr:`spans`. Immutable, compared by value like the frozen dataclass it replaces.

    >>> s = AnnotationSet("g", {"d1": (Span(4, 9, "B"), Span(0, 4, "A")), "d2": ()})
    >>> s.doc_ids, s.get("d1")[0], s.get("d2"), s.get("d3"), s.span_count()
    (['d1', 'd2'], Span(start=4, end=9, label='B'), (), (), 2)
    >>> s == AnnotationSet("g", s.table), s == s.with_role("system")
    (True, False)
    """

    __slots__ = ("alternatives", "name", "role", "spans", "table")
    name: str
    spans: Mapping[str, tuple[Span, ...]]
    role: Role
    alternatives: bool
    table: SpanTable

    def __init__(self, name: str,
                 spans: Mapping[str, Sequence[Span]] | SpanTable,
                 role: Role = "gold", alternatives: bool = False) -> None:
        if isinstance(spans, SpanView):
            view = spans
        else:
            view = SpanView(spans if isinstance(spans, SpanTable) else SpanTable.from_spans(spans))
        init = object.__setattr__
        init(self, "name", name)
        init(self, "spans", view)
        init(self, "role", role)
        init(self, "alternatives", alternatives)
        init(self, "table", view.table)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, AnnotationSet)
        return ((self.name, self.role, self.alternatives)
                == (other.name, other.role, other.alternatives) and self.spans == other.spans)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"AnnotationSet(name={self.name!r}, spans={self.spans!r}, role={self.role!r}, "
                f"alternatives={self.alternatives!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (AnnotationSet, (self.name, self.table, self.role, self.alternatives))

    @property
    def doc_ids(self) -> list[str]:
        return list(self.table.doc_ids)

    def get(self, doc_id: str) -> tuple[Span, ...]:
        """The spans of one document, as the set holds them; ``()`` for a document it does not
        hold.

        >>> s = AnnotationSet("gold", {"d1": (Span(0, 3, "Slogans"), Span(4, 9, "Doubt"))})
        >>> s.get("d1")
        (Span(start=0, end=3, label='Slogans'), Span(start=4, end=9, label='Doubt'))
        >>> s.get("d2")
        ()
        """
        return self.spans.get(doc_id, ())

    def alt_spans(self, doc_id: str) -> tuple[AltSpan, ...]:
        """The document's gold spans as alternatives (one label each unless ``alternatives``)."""
        spans = self.get(doc_id)
        if self.alternatives:
            return group_alternatives(spans)
        return tuple(AltSpan(s.start, s.end, (s.label,)) for s in spans)

    def labels(self) -> list[str]:
        """Every label used, sorted: counted once per table and kept
        (:attr:`SpanTable.sorted_labels`), so a second call costs a copy of the list.

        >>> AnnotationSet("gold", {"d1": (Span(0, 3, "Slogans"), Span(4, 9, "Doubt")),
        ...                        "d2": (Span(1, 2, "Doubt"),)}).labels()
        ['Doubt', 'Slogans']
        """
        return list(self.table.sorted_labels)

    def span_count(self) -> int:
        return len(self.table)

    def __iter__(self) -> Iterator[tuple[str, tuple[Span, ...]]]:
        return iter(self.spans.items())

    def as_alternatives(self) -> AnnotationSet:
        """This set read as MAFALDA gold (Helwe et al. 2024, Definition 6): spans that share an
        interval become one span with alternative labels. The set itself when it already is."""
        if self.alternatives:
            return self
        return AnnotationSet(self.name, self.spans, self.role, alternatives=True)

    def with_role(self, role: Role, name: str | None = None) -> AnnotationSet:
        """The same spans in another role (and under another name when ``name`` is given).

        >>> s = AnnotationSet("run1", {"d1": (Span(0, 3, "Doubt"),)}, "system")
        >>> g = s.with_role("gold", "reference")
        >>> g.name, g.role, g.get("d1") == s.get("d1")
        ('reference', 'gold', True)
        """
        return AnnotationSet(name or self.name, self.spans, role, self.alternatives)

    def to_frame(self) -> pd.DataFrame:
        """One row per span: ``document``, ``start``, ``end`` (exclusive), ``label``.

        A document without spans has no row; :meth:`from_frame` takes ``documents=`` to keep
        such documents.

        >>> s = AnnotationSet("g", {"d1": (Span(0, 4, "A"),), "d2": ()})
        >>> s.to_frame().to_dict("records")
        [{'document': 'd1', 'start': 0, 'end': 4, 'label': 'A'}]
        """
        import pandas as pd

        rows = [(doc, s.start, s.end, s.label) for doc, spans in self.spans.items()
                for s in spans]
        return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, name: str = "frame", role: Role = "gold",
                   alternatives: bool = False, documents: Sequence[str] | None = None
                   ) -> AnnotationSet:
        """An annotation set from a DataFrame with columns ``document``, ``start``, ``end`` and
        ``label`` (other columns are ignored; offsets are 0-based, ``end`` exclusive).

        ``documents`` lists documents to include even when they have no row (a document
        annotated with nothing); rows of other documents are kept too. A bad value raises a
        ``ValueError`` naming the row and the column: an offset that is no integer (``1.5``,
        NaN; an integral float such as ``3.0`` is read as ``3``), a missing label or document
        id (None, NaN), ``end`` not after ``start``.

        >>> import pandas as pd
        >>> df = pd.DataFrame({"document": ["d1", "d1"], "start": [5, 0], "end": [9, 4],
        ...                    "label": ["B", "A"]})
        >>> AnnotationSet.from_frame(df, documents=["d1", "d2"]).spans
        {'d1': (Span(start=0, end=4, label='A'), Span(start=5, end=9, label='B')), 'd2': ()}
        """
        from core.model.errors import ParameterError

        missing = [c for c in FRAME_COLUMNS if c not in frame.columns]
        if missing:
            raise ParameterError("frame", f"The 'frame' parameter of from_frame must have the "
                                 f"columns {list(FRAME_COLUMNS)}; missing {missing}.")
        spans: dict[str, list[Span]] = {str(d): [] for d in documents or ()}
        for i, (doc, start, end, label) in enumerate(
                frame[list(FRAME_COLUMNS)].itertuples(index=False, name=None)):
            # the common row (strings and Python integers) is checked without a call
            if type(doc) is not str and _missing(doc):
                raise ValueError(f"row {i} of the frame, column 'document': the document id is "
                                 f"missing (got {doc!r})")
            if type(label) is not str and _missing(label):  # never the label 'None' or 'nan'
                raise ValueError(f"row {i} of the frame (document {str(doc)!r}), column "
                                 f"'label': the label is missing (got {label!r})")
            if type(start) is int and type(end) is int:
                first, last = start, end
            else:
                where = f"row {i} of the frame (document {str(doc)!r})"
                first, last = _offset(start, "start", where), _offset(end, "end", where)
            try:
                span = Span(first, last, str(label))
            except ValueError as exc:
                raise ValueError(f"row {i} of the frame (document {str(doc)!r}): {exc}") from None
            spans.setdefault(str(doc), []).append(span)
        return cls(name, {d: tuple(sorted(v)) for d, v in spans.items()}, role, alternatives)


def _missing(value: object) -> bool:
    """None, NaN, ``pd.NA`` or ``NaT``: a cell of a frame that holds nothing."""
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN and NaT are not equal to themselves
    except TypeError:  # pd.NA: its comparisons are NA, which is neither true nor false
        return True


def _offset(value: object, column: str, where: str) -> int:
    """The integer a frame's offset cell stands for: an integer (Python's or NumPy's), an
    integral float (``3.0``: pandas stores an integer column with a gap as floats) or a string
    of digits; anything else (``1.5``, NaN, a bool, a word) is refused, never truncated."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        number = float(value)
        if math.isfinite(number) and number.is_integer():
            return int(number)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
    raise ValueError(f"{where}, column {column!r}: expected an integer offset, got {value!r}")


@dataclass
class Corpus:
    """The texts of a collection and any number of annotation sets over them.

    >>> c = Corpus({"d1": "Vote no or starve."})
    >>> c.add_set(AnnotationSet("gold", {"d1": (Span(11, 17, "Appeal to fear"),)}))
    >>> c.add_set(AnnotationSet("run1", {"d2": (Span(0, 4, "Slogans"),)}, "system"))
    >>> c.doc_ids, [s.name for s in c.by_role("system")]
    (['d1', 'd2'], ['run1'])
    >>> c.document("d1").text[11:17]
    'starve'
    """

    texts: dict[str, str | None] = field(default_factory=dict)
    sets: dict[str, AnnotationSet] = field(default_factory=dict)

    @property
    def doc_ids(self) -> list[str]:
        """All document ids, texts first then any set's extra ids, in first-seen order.

        A set whose ids are all known already (the usual case: every set covers the corpus's
        texts) is looked up, not merged: a membership test per id costs a third of inserting
        it into the order (12 against 41 ms for two sets of 100,000 documents; issue 29,
        thirteenth pass).
        """
        ids = dict.fromkeys(self.texts)
        for aset in self.sets.values():
            doc_ids = aset.table.doc_ids
            if not all(map(ids.__contains__, doc_ids)):
                ids.update(dict.fromkeys(doc_ids))
        return list(ids)

    def document(self, doc_id: str) -> Document:
        """The document ``doc_id`` with its text (``None`` when the corpus has no text for it).

        >>> Corpus({"d1": "Vote no."}).document("d2")
        Document(id='d2', text=None)
        """
        return Document(doc_id, self.texts.get(doc_id))

    def add_set(self, aset: AnnotationSet) -> None:
        """Add an annotation set; a second set of the same name is refused.

        >>> c = Corpus()
        >>> c.add_set(AnnotationSet("gold", {}))
        >>> c.add_set(AnnotationSet("gold", {}))
        Traceback (most recent call last):
        ...
        ValueError: an annotation set named 'gold' exists already
        """
        if aset.name in self.sets:
            raise ValueError(f"an annotation set named {aset.name!r} exists already")
        self.sets[aset.name] = aset

    def by_role(self, role: Role) -> list[AnnotationSet]:
        """The sets of one role, in the order they were added.

        >>> c = Corpus(sets={"a": AnnotationSet("a", {}, "annotator"),
        ...                  "g": AnnotationSet("g", {}, "gold"),
        ...                  "b": AnnotationSet("b", {}, "annotator")})
        >>> [s.name for s in c.by_role("annotator")]
        ['a', 'b']
        """
        return [s for s in self.sets.values() if s.role == role]
