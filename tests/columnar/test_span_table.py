"""SpanTable, the lazy span mapping over it, and the Martino metric scored from columns."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats._common import sorted_spans
from core.metrics import martino
from core.model import READ_AHEAD, AnnotationSet, Span, SpanTable, SpanView, make_spans
from core.model.table import STREAK, _span_order

LABELS = ["A", "B", "Zeta", "alpha", "é"]


@st.composite
def span_dicts(draw: st.DrawFn, *, sort: bool = True) -> dict[str, tuple[Span, ...]]:
    """``{doc: spans}`` with empty documents, repeated spans and unsorted input order."""
    ids = draw(st.lists(st.text("abc19", min_size=1, max_size=3), unique=True, max_size=6))
    out: dict[str, tuple[Span, ...]] = {}
    for doc in ids:
        items = draw(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 30),
                                        st.sampled_from(LABELS)), max_size=8))
        spans = [Span(s, s + n, lab) for s, n, lab in items]
        out[doc] = tuple(sorted(spans)) if sort else tuple(spans)
    return out


@settings(deadline=None)
@given(span_dicts(sort=False))
def test_dict_to_table_to_dict_round_trips_in_the_mappings_order(spans: dict) -> None:
    table = SpanTable.from_spans(spans)
    assert table.to_dict() == spans
    assert list(table.to_dict()) == list(spans)
    for i, doc in enumerate(table.doc_ids):
        assert table.spans_at(i) == spans[doc]  # same order inside each document too
    assert len(table) == sum(map(len, spans.values()))


@settings(deadline=None)
@given(span_dicts(sort=False))
def test_columns_are_sorted_as_sorted_spans_sorts_them(spans: dict) -> None:
    flat = [(i, s) for i, items in enumerate(spans.values()) for s in items]
    names = sorted({s.label for _, s in flat}, reverse=True)  # any label numbering
    table = SpanTable.from_columns(list(spans), [i for i, _ in flat], [s.start for _, s in flat],
                                   [s.end for _, s in flat],
                                   [names.index(s.label) for _, s in flat], names)
    assert table.to_dict() == sorted_spans(spans)
    assert table.doc.dtype == np.int32 and table.label.dtype == np.int32
    assert table.start.dtype == np.int64 and table.end.dtype == np.int64


@settings(deadline=None)
@given(span_dicts())
def test_the_lazy_mapping_behaves_as_the_dict(spans: dict) -> None:
    lazy = SpanView(SpanTable.from_spans(spans))
    assert len(lazy) == len(spans)
    assert list(lazy) == list(spans)
    assert list(lazy.items()) == list(spans.items())
    assert list(lazy.values()) == list(spans.values())
    assert lazy == spans and spans == lazy
    assert repr(lazy) == repr(spans)
    for doc in spans:
        assert doc in lazy
        assert lazy[doc] is lazy[doc]  # built once, then cached
    assert "not a document" not in lazy
    assert lazy.get("not a document", ()) == ()
    with pytest.raises(KeyError):
        lazy["not a document"]


def test_the_lazy_mapping_builds_only_the_documents_asked_for() -> None:
    spans = {"d1": (Span(0, 4, "A"),), "d2": (Span(1, 2, "B"),), "d3": ()}
    lazy = SpanView(SpanTable.from_spans(spans))
    assert lazy["d2"] == (Span(1, 2, "B"),)
    assert set(lazy._cache) == {"d2"}


def test_the_lazy_mapping_reads_ahead_when_documents_are_read_in_order() -> None:
    spans = {f"d{i}": tuple(Span(k, k + 2, "AB"[k % 2]) for k in range(i % 3))
             for i in range(600)}
    lazy = SpanView(SpanTable.from_spans(spans))
    first = lazy["d5"]
    assert set(lazy._cache) == {"d5"}  # a document asked for alone is built alone
    assert lazy["d6"] == spans["d6"]  # a few in order are still built one by one
    assert set(lazy._cache) == {"d5", "d6"}
    for i in range(7, 5 + STREAK):
        lazy[f"d{i}"]
    assert len(lazy._cache) == STREAK
    assert lazy[f"d{5 + STREAK}"] == spans[f"d{5 + STREAK}"]  # a streak: a block is built
    assert len(lazy._cache) == STREAK + READ_AHEAD
    assert lazy["d5"] is first  # what was built stays
    assert list(lazy.items()) == list(spans.items())
    assert all(lazy[d] is lazy[d] for d in spans)


def test_the_lazy_mapping_does_not_read_ahead_for_scattered_pairs() -> None:
    """Documents visited in order but with gaps (MAFALDA's texts that need a search) build
    only themselves, also when two of them are neighbours."""
    spans = {f"d{i}": (Span(0, 2, "A"),) for i in range(2000)}
    lazy = SpanView(SpanTable.from_spans(spans))
    wanted = [f"d{i}" for i in range(0, 2000, 5)] + ["d1", "d2"]
    for d in sorted(wanted, key=lambda d: int(d[1:])):
        assert lazy[d] == spans[d]
    assert set(lazy._cache) == set(wanted)


def test_make_spans_gives_ordinary_spans() -> None:
    made = make_spans([0, 5], [4, 9], ["A", "B"])
    assert made == (Span(0, 4, "A"), Span(5, 9, "B"))
    assert hash(made[0]) == hash(Span(0, 4, "A"))
    assert repr(made[1]) == "Span(start=5, end=9, label='B')"
    assert made[0] < made[1]
    with pytest.raises(AttributeError):
        made[0].start = 3  # type: ignore[misc]


@settings(deadline=None)
@given(span_dicts())
def test_to_frame_matches_the_annotation_sets_frame(spans: dict) -> None:
    aset = AnnotationSet("g", spans)
    ours, theirs = SpanTable.from_spans(spans).to_frame(), aset.to_frame()
    assert ours.to_dict("records") == theirs.to_dict("records")
    assert list(ours.columns) == list(theirs.columns)


def test_an_annotation_set_over_a_table_keeps_its_api() -> None:
    spans = {"d1": (Span(0, 4, "B"), Span(2, 6, "A")), "d2": ()}
    plain = AnnotationSet("g", spans)
    lazy = AnnotationSet("g", SpanView(SpanTable.from_spans(spans)))
    assert lazy.table is lazy.spans.table  # type: ignore[attr-defined]
    assert isinstance(plain.spans, SpanView)  # one storage: a dict is read into a table
    assert lazy == plain
    assert lazy.doc_ids == plain.doc_ids == ["d1", "d2"]
    assert lazy.labels() == plain.labels() == ["A", "B"]
    assert lazy.span_count() == plain.span_count() == 2
    assert lazy.get("d2") == () and lazy.get("missing") == ()
    assert list(lazy) == list(plain)
    assert lazy.alt_spans("d1") == plain.alt_spans("d1")
    assert lazy.with_role("system").spans is lazy.spans
    assert lazy.to_frame().equals(plain.to_frame())
    assert repr(plain) == ("AnnotationSet(name='g', spans={'d1': (Span(start=0, end=4, "
                           "label='B'), Span(start=2, end=6, label='A')), 'd2': ()}, "
                           "role='gold', alternatives=False)")
    again = pickle.loads(pickle.dumps(lazy))  # the dashboard caches sets by pickling
    assert again == plain and again.spans == spans


def test_an_annotation_set_is_immutable_and_compared_by_value() -> None:
    spans = {"d1": (Span(0, 4, "B"),), "d2": ()}
    aset = AnnotationSet("g", spans)
    with pytest.raises(AttributeError):
        aset.name = "h"  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(aset)
    assert aset == AnnotationSet("g", dict(reversed(spans.items())))  # a dict's equality
    assert aset != AnnotationSet("g", {"d1": (Span(0, 4, "B"),)})
    assert aset != AnnotationSet("g", spans, alternatives=True)
    assert aset != AnnotationSet("h", spans)
    assert AnnotationSet("g", aset.table).spans == spans


def _lazy(aset: AnnotationSet) -> AnnotationSet:
    return AnnotationSet(aset.name, SpanView(SpanTable.from_spans(aset.spans)), aset.role,
                         aset.alternatives)


def _same_result(a: martino.MartinoResult, b: martino.MartinoResult) -> None:
    for x, y in ((a.p_num, b.p_num), (a.r_num, b.r_num)):
        assert x == pytest.approx(y, abs=1e-12)
    assert (a.p_den, a.r_den, a.labels, a.documents) == (b.p_den, b.r_den, b.labels, b.documents)
    for name in ("label_p_num", "label_r_num"):
        da, db = getattr(a, name), getattr(b, name)
        assert da.keys() == db.keys()
        assert all(da[k] == pytest.approx(db[k], abs=1e-12) for k in da)
    assert a.label_p_den == b.label_p_den and a.label_r_den == b.label_r_den
    np.testing.assert_allclose(a.doc_p_num, b.doc_p_num, atol=1e-12, rtol=0)
    np.testing.assert_allclose(a.doc_r_num, b.doc_r_num, atol=1e-12, rtol=0)
    assert a.to_dict(per_document=True).keys() == b.to_dict(per_document=True).keys()


@settings(max_examples=60, deadline=None)
@given(span_dicts(), st.data())
def test_martino_from_columns_equals_the_span_path(gold: dict, data: st.DataObject) -> None:
    pred = {d: data.draw(st.sampled_from([v, v[1:], v[::-1], ()])) for d, v in gold.items()}
    pred = dict(reversed(list(pred.items())))  # another document order than the gold
    g, p = AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")
    _same_result(martino.score(_lazy(g), _lazy(p)), martino.score(g, p))
    _same_result(martino.score(_lazy(g), _lazy(p), variant="semeval2020-si", merge_pred=True),
                 martino.score(g, p, variant="semeval2020-si", merge_pred=True))
    _same_result(martino.score(_lazy(g), _lazy(p), match="best"), martino.score(g, p, match="best"))
    _same_result(martino.score(_lazy(g), _lazy(p), variant="nlp4if2019", merge_pred=True),
                 martino.score(g, p, variant="nlp4if2019", merge_pred=True))
    for variant, kw in (("nlp4if2019", {}), ("semeval2020-si", {}),
                        ("nlp4if2019", {"fragments_only": True, "merge_pred": True})):
        outcomes = []
        for gs, ps in ((g, p), (_lazy(g), _lazy(p))):
            try:
                r = martino.score(gs, ps, variant=variant, **kw)  # type: ignore[arg-type]
                outcomes.append((r.p_num, r.r_num, r.warnings, r.to_dict()["per_label"]))
            except Exception as exc:  # the official refusal of overlapping predictions
                outcomes.append((type(exc).__name__, str(exc)))
        if isinstance(outcomes[0][0], str):
            assert outcomes[0] == outcomes[1]
        else:
            assert outcomes[0][0] == pytest.approx(outcomes[1][0], abs=1e-12)
            assert outcomes[0][1] == pytest.approx(outcomes[1][1], abs=1e-12)
            assert outcomes[0][2] == outcomes[1][2]
    for variant in ("nlp4if2019", "semeval2020-si"):
        assert (martino.contributions(_lazy(g), _lazy(p), variant=variant, merge_pred=True)
                == martino.contributions(g, p, variant=variant, merge_pred=True))
    assert (martino.contributions(_lazy(g), _lazy(p))
            == martino.contributions(g, p))


def test_martino_never_builds_spans_of_sets_read_as_columns() -> None:
    gold = {str(i): (Span(0, 10, "A"), Span(5, 20, "B")) for i in range(50)}
    pred = {str(i): (Span(2, 12, "A"),) for i in range(50)}
    g = _lazy(AnnotationSet("gold", gold))
    p = _lazy(AnnotationSet("pred", pred, role="system"))
    result = martino.score(g, p, labels=["A", "B"])
    assert result.p_num == pytest.approx(50 * 0.8)
    assert not g.spans._cache and not p.spans._cache  # type: ignore[attr-defined]


def test_a_label_outside_the_list_is_named_with_its_first_span_from_columns() -> None:
    gold = {"1": (Span(0, 4, "A"),), "2": (Span(3, 9, "Q"), Span(10, 12, "Q"))}
    g = AnnotationSet("gold", gold)
    for aset in (g, _lazy(g)):
        with pytest.raises(Exception, match=r"pred: document '2', span \[3,9\): label 'Q'"):
            martino.score(aset, aset.with_role("system", "pred"), labels=["A"])


def _reference(gold: dict, pred: dict, *, by_label: bool = True) -> tuple[float, float]:
    """Eq. 2-3 numerators summed pair by pair over Span objects (the span path, no arrays)."""
    p_num = r_num = 0.0
    for doc, gspans in gold.items():
        for s in pred.get(doc, ()):
            for t in gspans:
                if not by_label or s.label == t.label:
                    inter = s.overlap(t)
                    p_num += inter / s.length
                    r_num += inter / t.length
    return p_num, r_num


@settings(max_examples=80, deadline=None)
@given(span_dicts(sort=False), st.booleans())
def test_merging_on_columns_equals_merge_overlaps(spans: dict, by_label: bool) -> None:
    merged, n = martino._merged(SpanTable.from_spans(spans), by_label=by_label)
    expected = {d: martino.merge_overlaps(v, by_label=by_label) for d, v in spans.items()}
    assert merged.to_dict() == expected
    assert n == sum(map(len, spans.values())) - sum(map(len, expected.values()))
    first = martino._first_overlapping_doc(SpanTable.from_spans(spans), by_label=by_label)
    hits = [i for i, v in enumerate(spans.values())
            if martino._first_overlap(v, by_label) is not None]
    assert first == (hits[0] if hits else None)


@settings(max_examples=80, deadline=None)
@given(span_dicts(), st.data())
def test_martino_numerators_equal_the_pairwise_span_sums(gold: dict,
                                                         data: st.DataObject) -> None:
    pred = {d: data.draw(st.sampled_from([v, v[1:], v[::-1], ()])) for d, v in gold.items()}
    g, p = AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")
    for aset_g, aset_p in ((g, p), (_lazy(g), _lazy(p))):
        r = martino.score(aset_g, aset_p)
        assert (r.p_num, r.r_num) == pytest.approx(_reference(gold, pred), abs=1e-12)
        merged_g = {d: martino.merge_overlaps(v) for d, v in gold.items()}
        merged_p = {d: martino.merge_overlaps(v) for d, v in pred.items()}
        r = martino.score(aset_g, aset_p, variant="nlp4if2019", merge_pred=True)
        assert (r.p_num, r.r_num) == pytest.approx(_reference(merged_g, merged_p), abs=1e-12)
        any_g = {d: martino.merge_overlaps(v, by_label=False) for d, v in gold.items()}
        any_p = {d: martino.merge_overlaps(v, by_label=False) for d, v in pred.items()}
        r = martino.score(aset_g, aset_p, variant="semeval2020-si", merge_pred=True)
        assert (r.p_num, r.r_num) == pytest.approx(_reference(any_g, any_p, by_label=False),
                                                   abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2**40), st.integers(1, 2**40),
                          st.integers(0, 3)), max_size=40),
       st.sampled_from([1, 2**10, 2**22, 2**40]))
def test_one_packed_sort_key_orders_rows_as_the_four_key_lexsort(
        rows: list[tuple[int, int, int, int]], scale: int) -> None:
    # Small offsets take the one-key path, offsets near 2**40 the lexsort paths: same order.
    names = ["b", "a", "d", "c"]
    doc = np.array([r[0] for r in rows], dtype=np.int32)
    start = np.array([r[1] % scale for r in rows], dtype=np.int64)
    end = start + np.array([r[2] % scale + 1 for r in rows], dtype=np.int64)
    label = np.array([r[3] for r in rows], dtype=np.int32)
    rank = np.array([1, 0, 3, 2])[label] if len(rows) else label
    expected = np.lexsort((rank, end, start, doc))
    order = _span_order(doc, start, end, label, names)
    got = np.arange(len(rows)) if order is None else order
    assert np.array_equal(got, expected)


def test_merging_offsets_the_ends_and_ranks_them_only_when_the_keys_would_not_fit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The running maximum of the ends takes the ends themselves (no sort) when the group keys
    fit in 63 bits, their ranks (``np.unique``) otherwise; both merge as merge_overlaps does
    (issue 29, eleventh pass)."""
    sorts: list[int] = []
    real = np.unique

    def spy(values: np.ndarray, **kwargs: object) -> object:
        sorts.append(len(values))
        return real(values, **kwargs)

    monkeypatch.setattr(np, "unique", spy)
    big = 1 << 61
    cases = {
        False: {"1": (Span(0, 10, "A"), Span(5, 20, "A"), Span(30, 40, "A")),
                "2": (Span(3, 9, "A"), Span(2, 4, "B"), Span(8, 12, "A"))},
        True: {str(d): (Span(0, 10 + d, "A"), Span(5, big, "A"), Span(big + 9, big + 12, "A"))
               for d in range(4)},  # ends from 10 to beyond 2**61: 4 groups do not fit
    }
    for ranked, spans in cases.items():
        table = SpanTable.from_spans(spans)
        sorts.clear()
        for by_label in (True, False):
            merged, n = martino._merged(table, by_label=by_label)
            expected = {d: martino.merge_overlaps(v, by_label=by_label) for d, v in spans.items()}
            assert merged.to_dict() == expected
            assert n == sum(map(len, spans.values())) - sum(map(len, expected.values()))
        assert bool(sorts) is ranked
