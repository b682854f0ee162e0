"""Slices: bucket rules, sums that add up to the corpus, and sub-corpus equality."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis.slices import (
    BucketScore,
    _intervals,
    _span_bucketer,
    _span_buckets,
    dimensions,
    quantile_cuts,
    read_meta_csv,
    record_metadata,
    slice_scores,
)
from core.formats import ReadOptions, load_path
from core.metrics import mafalda, martino
from core.metrics.additive import SpanTerm, martino_terms
from core.metrics.stats import martino_f1, martino_precision, martino_recall
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


def _span_buckets_loop(dimension: str, terms: list[SpanTerm], lengths: dict[str, int],
                       doc_ids: list[str], n_buckets: int,
                       boot: tuple[int, int, float, tuple[str, ...]]) -> list[BucketScore]:
    """The span buckets as a loop over the terms computed them before they were computed on
    columns (the reference the columns must equal to the last bit)."""
    n_resamples, seed, confidence, intervals = boot
    doc_index = {d: i for i, d in enumerate(doc_ids)}
    bucket_of = _span_bucketer(dimension, terms, lengths, n_buckets)
    groups: dict[tuple[int, str], list[SpanTerm]] = defaultdict(list)
    for t in terms:
        groups[bucket_of(t)].append(t)
    stats = {"P": martino_precision, "R": martino_recall, "F1": martino_f1}
    out = []
    for (order, name), members in sorted(groups.items()):
        docs = sorted({t.document for t in members}, key=doc_index.__getitem__)
        row_of = {d: i for i, d in enumerate(docs)}
        table = np.zeros((len(docs), 4))
        for t in members:
            i = row_of[t.document]
            if t.side == "prediction":
                table[i, 0] += t.value
                table[i, 1] += 1
            else:
                table[i, 2] += t.value
                table[i, 3] += 1
        sums = table.sum(axis=0)[None, :]
        p, r, f1 = (float(s(sums)[0]) for s in stats.values())
        out.append(BucketScore(dimension, name, order, "span", tuple(docs), int(sums[0, 3]),
                               int(sums[0, 1]), p, r, f1,
                               _intervals(table, stats, n_resamples, seed, confidence,
                                          intervals),
                               tuple((t.document, t.side, t.start, t.end) for t in members)))
    return out


@st.composite
def term_lists(draw: st.DrawFn) -> tuple[list[SpanTerm], dict[str, int], list[str]]:
    """Span terms in any order (documents interleaved, values with rounding in their sums,
    lengths beyond the document's), the documents' lengths and the reference's documents."""
    doc_ids = [f"d{i}" for i in range(draw(st.integers(1, 6)))]
    terms = []
    for _ in range(draw(st.integers(0, 60))):
        start = draw(st.integers(0, 200))
        terms.append(SpanTerm(draw(st.sampled_from(doc_ids)),
                              draw(st.sampled_from(("reference", "prediction"))), start,
                              start + draw(st.integers(0, 60)),
                              draw(st.sampled_from(("A", "b", "C", "∅", "Name calling"))),
                              draw(st.sampled_from((0.0, 1.0, 0.1, 1 / 3, 0.7, 2 / 7)))))
    lengths = {d: draw(st.integers(0, 220)) for d in doc_ids}
    return terms, lengths, doc_ids


@settings(max_examples=150, deadline=None)
@given(term_lists(), st.sampled_from(("span_length", "label", "position", "label_frequency")),
       st.integers(1, 5), st.sampled_from((0, 40)))
def test_span_buckets_on_columns_equal_the_loop_over_terms(
        data: tuple[list[SpanTerm], dict[str, int], list[str]], dim: str, n_buckets: int,
        n_resamples: int) -> None:
    terms, lengths, doc_ids = data
    boot = (n_resamples, 3, 0.95, ("P", "R", "F1"))
    # Dataclass equality compares every float exactly: the same numbers to the last bit.
    assert (_span_buckets(dim, terms, lengths, doc_ids, n_buckets, boot)
            == _span_buckets_loop(dim, terms, lengths, doc_ids, n_buckets, boot))


def test_span_buckets_on_columns_equal_the_loop_on_the_sample_corpus() -> None:
    gold, pred = load_path(PROP / "gold.json").set, load_path(PROP / "system_a.json").set
    terms = martino_terms(gold, pred)
    lengths = {d: max((s.end for s in gold.get(d)), default=0) for d in gold.doc_ids}
    for dim in ("span_length", "label", "label_frequency", "position"):
        boot = (200, 0, 0.95, ("F1",))
        got = _span_buckets(dim, terms, lengths, list(gold.doc_ids), 4, boot)
        assert got == _span_buckets_loop(dim, terms, lengths, list(gold.doc_ids), 4, boot)


@pytest.mark.parametrize("dimension", ["doc_length", "label"])
def test_shared_bootstrap_resamples_the_corpus_once_for_every_bucket(dimension: str) -> None:
    """``bootstrap="shared"``: a bucket's interval is the bootstrap of the corpus's documents,
    those outside the bucket adding nothing; the values are the per-slice run's."""
    from core.metrics import registry
    from core.metrics.stats import bootstrap_many

    g = load_path(PROP / "gold.json").set
    p = load_path(PROP / "system_a.json", options=ReadOptions(role="system")).set
    kw = {"dimension": dimension, "n_resamples": 300, "seed": 4}
    per_slice = slice_scores(g, p, **kw)
    shared = slice_scores(g, p, **kw, bootstrap="shared")
    assert [(b.bucket, b.f1, b.documents) for b in shared] == [
        (b.bucket, b.f1, b.documents) for b in per_slice]
    assert all(set(b.intervals) == {"P", "R", "F1"} for b in shared)
    assert any(a.intervals != b.intervals for a, b in zip(per_slice, shared, strict=True))
    if dimension == "doc_length":  # whole documents: the corpus table with the others zero
        entry = registry.get("martino")
        full = entry.document_table(entry.statistics(
            entry.gold_view(g), AnnotationSet(p.name, p.spans, "system", False),
            per_document=True, **entry.keywords()))
        stats = {"P": martino_precision, "R": martino_recall, "F1": martino_f1}
        for b in shared:
            whole = np.zeros_like(full.table)
            rows = [list(full.documents).index(d) for d in b.documents]
            whole[rows] = full.table[rows]
            want = bootstrap_many(whole, stats, n_resamples=300, seed=4)
            assert b.intervals == {m: (want[m].low, want[m].high) for m in stats}
    with pytest.raises(Exception, match="bootstrap"):
        slice_scores(g, p, dimension="label", bootstrap="joint")


def test_a_bucket_of_one_document_has_no_interval_in_text_or_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    """One document: every resample is that document, so no interval, as ``table`` says it:
    "—" in the text, null bounds (keys kept) in JSON; a bucket of several keeps its interval."""
    from core.cli import main

    figure1 = ROOT / "sample_data" / "figure1"
    argv = ["slices", str(figure1 / "gold.json"), str(figure1 / "pred_s1.json"), "--dimension",
            "label", "--metric", "martino", "--samples", "50"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("; —: a bucket of one document, no interval")
    assert lines[2:] and all(line.endswith("  —") and "[" not in line for line in lines[2:])
    assert main([*argv, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["buckets"]
    assert rows and all(r["documents"] == 1 for r in rows)
    assert all(r[f"{m} {s}"] is None for r in rows for m in ("P", "R", "F1")
               for s in ("low", "high"))
    # the propaganda sample's buckets hold several documents: intervals as before
    many = slice_scores(load_path(PROP / "gold.json").set,
                        load_path(PROP / "system_a.json").set, dimension="label",
                        n_resamples=20, texts=load_path(PROP / "gold.json").texts)
    several = [b.as_row() for b in many if len(b.documents) > 1]
    assert several and all(r["F1 low"] is not None and r["F1 low"] <= r["F1 high"]
                           for r in several)
