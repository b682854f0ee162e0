"""The helpers the columnar readers share (``core/formats/_columns.py``) equal the plain Python
they replace, and the Parquet reader's allocator switch is undone even when reads nest.

What the tool-format readers give on real, written, damaged and broken inputs is pinned by
the golden outcome files (``test_golden.py``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import parquet
from core.model import Span

# ---- the helpers the readers share ------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text("ab \n\té\u00a0\u2028", max_size=30)), min_size=1,
                max_size=8), st.data(), st.sampled_from([1, 7, 1 << 23]))
def test_whitespace_edges_in_chunks_equal_str_isspace(texts: list[str | None],
                                                      data: st.DataObject, chunk: int) -> None:
    import numpy as np

    from core.formats._columns import whitespace_edges

    rows = data.draw(st.lists(st.tuples(st.integers(0, len(texts) - 1), st.integers(0, 35),
                                        st.integers(1, 5)), max_size=20))
    doc = np.array([d for d, _, _ in rows], dtype=np.int64)
    start = np.array([s for _, s, _ in rows], dtype=np.int64)
    end = start + np.array([n for _, _, n in rows], dtype=np.int64)
    begins, ends = whitespace_edges(texts, doc, start, end, chunk=chunk)
    for k, (d, s, _) in enumerate(rows):
        fragment = "" if texts[d] is None else (texts[d] or "")[s:int(end[k])]
        assert begins[k] == (texts[d] is not None and fragment[:1].isspace())
        assert ends[k] == (texts[d] is not None and fragment[-1:].isspace())


@given(st.text("ab\n\r", max_size=40), st.integers(1, 8))
def test_iter_lines_equals_split(text: str, chunk: int) -> None:
    from core.formats._columns import iter_lines

    assert list(iter_lines(text, chunk=chunk)) == text.split("\n")


@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 9), st.integers(1, 4),
                          st.sampled_from(["X", "Y", "Z"])), max_size=20))
def test_span_columns_equal_sorted_spans(rows: list[tuple[str, int, int, str]]) -> None:
    from core.formats._columns import SpanColumns
    from core.formats._common import sorted_spans

    columns = SpanColumns()
    expected: dict[str, list[Span]] = {}
    for doc, start, length, label in rows:
        columns.add(columns.document(doc), start, start + length, label)
        expected.setdefault(doc, []).append(Span(start, start + length, label))
    assert list(columns.spans().items()) == list(sorted_spans(expected).items())


def test_parquet_reads_switch_to_the_system_allocator_and_back_even_when_nested() -> None:
    import pyarrow as pa

    before = pa.default_memory_pool().backend_name
    with parquet._system_allocator():
        with parquet._system_allocator():  # a second read in another thread
            assert pa.default_memory_pool().backend_name == "system"
        assert pa.default_memory_pool().backend_name == "system"
    assert pa.default_memory_pool().backend_name == before
