"""The one validating builder every reader feeds (``core/formats/_columns.py``, issue 25).

Its vectorised answers are held to the per-span helpers they replace: ``repeats`` lists the
spans ``duplicate_span_warnings`` lists, in its order, with the row of each first copy;
``valid`` accepts exactly the spans ``make_span`` and ``check_label`` accept; spans added one
by one and as whole columns give one table.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats._columns import SpanBuilder, SpanColumns
from core.formats._common import check_label, duplicate_span_warnings, make_span
from core.model import Span
from core.model.errors import FormatError

ROWS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(1, 3),
                          st.sampled_from(["A", "B"])), max_size=40)


def _built(rows: list[tuple[int, int, int, str]]) -> SpanBuilder:
    builder = SpanBuilder()
    for d, s, length, lab in rows:
        builder.add(builder.document(f"d{d}"), s, s + length, lab)
    return builder


@settings(max_examples=200, deadline=None)
@given(ROWS)
def test_repeats_list_the_duplicates_of_the_per_span_helper_in_its_order(rows) -> None:
    builder = _built(rows)
    repeat, first = builder.repeats()
    doc, start, end, label = builder.columns()
    names = builder.labels
    found = {i: [Span(int(start[r]), int(end[r]), names[label[r]]) for r in repeat.tolist()
                 if doc[r] == i] for i in range(len(builder.doc_ids))}
    for i, doc_id in enumerate(builder.doc_ids):
        spans = [Span(s, s + n, lab) for d, s, n, lab in rows if f"d{d}" == doc_id]
        assert found[i] == duplicate_span_warnings(spans)
    assert list(repeat) == sorted(repeat)
    for r, f in zip(repeat.tolist(), first.tolist(), strict=True):
        same = (doc[f], start[f], end[f], label[f]) == (doc[r], start[r], end[r], label[r])
        assert f < r and same
        earlier = [k for k in range(r) if (doc[k], start[k], end[k], label[k])
                   == (doc[r], start[r], end[r], label[r])]
        assert f == earlier[0]


@settings(max_examples=100, deadline=None)
@given(ROWS, st.integers(0, 40))
def test_columns_added_whole_give_the_table_of_spans_added_one_by_one(rows, cut) -> None:
    one = _built(rows)
    doc, start, end, label = one.columns()
    whole = SpanBuilder()
    whole.add_columns(doc[:cut], start[:cut], end[:cut], label[:cut], labels=one.labels,
                      doc_ids=one.doc_ids)
    whole.add_columns(doc[cut:], start[cut:], end[cut:], label[cut:], labels=one.labels)
    assert whole.table().to_dict() == one.table().to_dict()
    assert [list(x) for x in whole.repeats()] == [list(x) for x in one.repeats()]


@pytest.mark.parametrize(("start", "end", "label", "allowed", "length"), [
    (0, 3, "A", None, None), (3, 3, "A", None, None), (4, 3, "A", None, None),
    (0, 10**12, "A", None, None), (0, 10**12 - 1, "A", None, None), (0, 3, " ", None, None),
    (0, 3, "A", ["B"], None), (0, 3, "A", ["A"], None), (0, 3, "A", None, 2),
    (0, 3, "A", None, 3),
])
def test_valid_accepts_what_make_span_and_check_label_accept(start, end, label, allowed,
                                                             length) -> None:
    builder = SpanBuilder()
    builder.add_columns(np.array([0]), np.array([start]), np.array([end]), np.array([0]),
                        labels=[label], doc_ids=["d"])
    try:
        span = make_span(start, end, label, "f", text=None if length is None else "x" * length,
                         beyond_text="refuse")
        check_label(span.label, allowed, "f", field="label")
        accepted = True
    except FormatError:
        accepted = False
    lengths = None if length is None else np.array([length])
    assert builder.valid(allowed=allowed, lengths=lengths) is accepted


def test_the_tool_readers_name_is_the_builder() -> None:
    assert SpanColumns is SpanBuilder
