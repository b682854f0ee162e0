"""Slices: bucket rules, sums that add up to the corpus, and sub-corpus equality."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis.slices import (
    dimensions,
    quantile_cuts,
    read_meta_csv,
    record_metadata,
    slice_scores,
)
from core.formats import ReadOptions, load_path
from core.metrics import mafalda, martino
from core.metrics.additive import martino_terms
from core.model import AnnotationSet, Span
from core.model.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"
MAF = ROOT / "sample_data" / "mafalda"


def _restrict(aset: AnnotationSet, docs: tuple[str, ...]) -> AnnotationSet:
    return AnnotationSet(aset.name, {d: aset.get(d) for d in docs}, aset.role, aset.alternatives)


def test_label_buckets_hand_worked() -> None:
    gold = AnnotationSet("g", {"a": (Span(0, 40, "X"), Span(50, 60, "Y"))})
    pred = AnnotationSet("p", {"a": (Span(0, 10, "X"), Span(0, 10, "X"), Span(50, 55, "Z"))},
                         role="system")
    buckets = {b.bucket: b for b in slice_scores(gold, pred, dimension="label", n_resamples=0)}
    # X: precision terms 1 + 1 over 2 predictions; recall term 10/40 + 10/40 over 1 gold span.
    assert (buckets["X"].precision, buckets["X"].recall) == (1.0, 0.5)
    # Y: one gold span, no prediction of Y overlaps it with its label; Z: one wrong prediction.
    assert (buckets["Y"].recall, buckets["Y"].predicted_spans) == (0.0, 0)
    assert (buckets["Z"].precision, buckets["Z"].reference_spans) == (0.0, 0)


def test_span_level_numerators_add_up_to_the_corpus() -> None:
    gold, pred = load_path(PROP / "gold.json").set, load_path(PROP / "system_a.json").set
    res = martino.score(gold, pred)
    for dim in ("span_length", "label", "label_frequency", "position"):
        buckets = slice_scores(gold, pred, dimension=dim, n_resamples=0)
        assert sum(b.reference_spans for b in buckets) == res.r_den
        assert sum(b.predicted_spans for b in buckets) == res.p_den
        assert sum(b.precision * b.predicted_spans for b in buckets) == pytest.approx(res.p_num)
        assert sum(b.recall * b.reference_spans for b in buckets) == pytest.approx(res.r_num)


def test_document_buckets_are_the_metric_on_the_sub_corpus() -> None:
    gold, pred = load_path(PROP / "gold.json").set, load_path(PROP / "system_b.json").set
    for b in slice_scores(gold, pred, dimension="doc_length", n_resamples=200):
        sub = martino.score(_restrict(gold, b.documents), _restrict(pred, b.documents))
        assert (b.precision, b.recall, b.f1) == pytest.approx((sub.precision, sub.recall,
                                                               sub.f1))
        low, high = b.intervals["F1"]
        assert low <= b.f1 + 1e-9 and b.f1 - 1e-9 <= high
    loaded = load_path(MAF / "gold.jsonl")
    mg, texts = loaded.set, loaded.texts
    mp = load_path(MAF / "system_b.jsonl", options=ReadOptions(role="system")).set
    mg = AnnotationSet(mg.name, mg.spans, mg.role, True)
    for b in slice_scores(mg, mp, dimension="reference_spans", metric="mafalda", level=1,
                          texts=texts, n_resamples=0):
        sub = mafalda.score(_restrict(mg, b.documents), _restrict(mp, b.documents), level=1,
                            texts=texts)
        assert (b.precision, b.recall, b.f1) == pytest.approx((sub.precision, sub.recall,
                                                               sub.f1))


def test_mafalda_span_buckets_pool_best_matches() -> None:
    gold = AnnotationSet("g", {"a": (Span(0, 40, "ad hominem"),)}, alternatives=True)
    pred = AnnotationSet("p", {"a": (Span(0, 10, "ad hominem"), Span(0, 40, "ad hominem"))},
                         role="system")
    (b,) = slice_scores(gold, pred, dimension="label", metric="mafalda", n_resamples=0)
    # App. D Example 9: recall takes the best match only (1, not 1.25).
    assert (b.precision, b.recall) == (1.0, 1.0)


def test_position_thirds_use_the_midpoint() -> None:
    texts = {"a": "x" * 90}
    gold = AnnotationSet("g", {"a": (Span(0, 10, "X"), Span(40, 50, "X"), Span(70, 90, "X"))})
    pred = AnnotationSet("p", {"a": ()}, role="system")
    buckets = slice_scores(gold, pred, dimension="position", texts=texts, n_resamples=0)
    assert [(b.bucket, b.reference_spans) for b in buckets] == [
        ("first third", 1), ("middle third", 1), ("last third", 1)]


def test_length_buckets_use_reference_quantiles_and_cover_predictions() -> None:
    assert quantile_cuts([2, 4, 6, 8, 100], 2) == [6]
    gold = AnnotationSet("g", {"a": (Span(0, 2, "X"), Span(10, 14, "X"), Span(20, 28, "X"))})
    pred = AnnotationSet("p", {"a": (Span(0, 50, "X"),)}, role="system")
    buckets = slice_scores(gold, pred, dimension="span_length", n_buckets=2, n_resamples=0)
    names = [b.bucket for b in buckets]
    assert names == ["< 4", "≥ 4"]
    assert buckets[-1].predicted_spans == 1


def test_label_frequency_terciles() -> None:
    spans = [Span(i, i + 1, "common") for i in range(0, 18, 2)]
    spans += [Span(30, 31, "mid"), Span(32, 33, "mid"), Span(34, 35, "mid"), Span(40, 41, "once")]
    gold = AnnotationSet("g", {"a": tuple(spans)})
    pred = AnnotationSet("p", {"a": (Span(50, 51, "never in gold"),)}, role="system")
    got = {b.bucket: (b.reference_spans, b.predicted_spans)
           for b in slice_scores(gold, pred, dimension="label_frequency", n_resamples=0)}
    assert got == {"rare": (1, 1), "medium": (3, 0), "frequent": (9, 0)}


def test_metadata_csv_and_json_records(tmp_path: Path) -> None:
    meta = tmp_path / "meta.csv"
    meta.write_text("id,source\n1,blog\n2,news\n3,news\n", encoding="utf-8")
    fields = read_meta_csv(meta)
    assert fields["2"] == {"source": "news"}
    assert "meta:source" in dimensions(fields)
    gold, pred = load_path(PROP / "gold.json").set, load_path(PROP / "system_a.json").set
    buckets = slice_scores(gold, pred, dimension="meta:source", metadata=fields, n_resamples=0)
    assert [b.bucket for b in buckets] == ["blog", "news", "(missing)"]
    assert buckets[1].documents == ("2", "3")
    rec = tmp_path / "recs.jsonl"
    rec.write_text('{"text": "a", "labels": [], "split": "dev"}\n{"id": "x", "text": "b", '
                   '"labels": [], "split": "test"}\n', encoding="utf-8")
    assert record_metadata(rec) == {"0": {"split": "dev"}, "x": {"split": "test"}}


def test_metadata_csv_errors_name_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "m.csv"
    bad.write_text("name,source\n1,blog\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"m\.csv"):
        read_meta_csv(bad)
    dup = tmp_path / "d.csv"
    dup.write_text("id,source\n1,a\n1,b\n", encoding="utf-8")
    with pytest.raises(FormatError) as exc:
        read_meta_csv(dup)
    assert exc.value.line == 3


@st.composite
def corpora(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    def spans() -> list[Span]:
        out = []
        for _ in range(draw(st.integers(0, 5))):
            s = draw(st.integers(0, 50))
            out.append(Span(s, s + draw(st.integers(1, 20)), draw(st.sampled_from("AB"))))
        return out
    docs = [f"d{i}" for i in range(draw(st.integers(1, 4)))]
    return (AnnotationSet("g", {d: tuple(spans()) for d in docs}),
            AnnotationSet("p", {d: tuple(spans()) for d in docs}, role="system"))


@settings(max_examples=60, deadline=None)
@given(corpora(), st.sampled_from(("span_length", "label", "position", "label_frequency")))
def test_martino_terms_sum_to_the_score(data: tuple[AnnotationSet, AnnotationSet],
                                        dim: str) -> None:
    gold, pred = data
    res = martino.score(gold, pred)
    terms = martino_terms(gold, pred)
    assert sum(t.value for t in terms if t.side == "prediction") == pytest.approx(res.p_num)
    assert sum(t.value for t in terms if t.side == "reference") == pytest.approx(res.r_num)
    buckets = slice_scores(gold, pred, dimension=dim, n_resamples=0, terms=terms)
    assert sum(b.reference_spans for b in buckets) == res.r_den
    assert sum(b.predicted_spans for b in buckets) == res.p_den


def test_mafalda_slices_accept_labels_outside_mafalda_taxonomy() -> None:
    gold = AnnotationSet("g", {"a": (Span(0, 10, "Doubt"), Span(20, 30, "Slogans"))})
    pred = AnnotationSet("p", {"a": (Span(0, 10, "Doubt"),)}, role="system")
    buckets = {b.bucket: b for b in slice_scores(gold, pred, dimension="label",
                                                 metric="mafalda", n_resamples=0)}
    assert (buckets["Doubt"].recall, buckets["Slogans"].recall) == (1.0, 0.0)
