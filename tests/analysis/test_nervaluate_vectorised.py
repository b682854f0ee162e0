"""``core.metrics.nervaluate.score`` (columns, rounds of choices) counts what :func:`align`,
the per-document greedy alignment, counts: on random corpora crowded enough that several
predictions want one gold span, at several overlap thresholds, overall and per label."""

from __future__ import annotations

import random
from unittest.mock import patch

import pytest

from core.metrics import nervaluate
from core.metrics.nervaluate import COUNTS, SCHEMAS, Counts, align, score
from core.model import AnnotationSet, Span


def by_align(gold: AnnotationSet, pred: AnnotationSet, min_overlap: float
             ) -> tuple[dict[str, Counts], dict[str, dict[str, Counts]]]:
    """The sums of :func:`align` over documents, and over (document, label) per label."""
    labels = sorted({s.label for a in (gold, pred) for v in a.spans.values() for s in v})
    overall = {s: Counts() for s in SCHEMAS}
    per_label = {lab: {s: Counts() for s in SCHEMAS} for lab in labels}
    for doc in gold.doc_ids:
        g, p = sorted(gold.get(doc)), sorted(pred.get(doc))
        for schema in SCHEMAS:
            overall[schema].add(align(g, p, schema, min_overlap=min_overlap)[0])
            for lab in {x.label for x in g} | {x.label for x in p}:
                per_label[lab][schema].add(align([x for x in g if x.label == lab],
                                                 [x for x in p if x.label == lab], schema,
                                                 min_overlap=min_overlap)[0])
    return overall, per_label


def corpus(seed: int) -> tuple[AnnotationSet, AnnotationSet]:
    rnd = random.Random(seed)
    labels = "ABC"[: rnd.randint(1, 3)]
    gold, pred = {}, {}
    for d in range(rnd.randint(1, 30)):
        width = rnd.choice((15, 40, 300))

        def span(width: int = width) -> Span:
            start = rnd.randrange(width)
            return Span(start, start + rnd.randint(1, rnd.choice((4, 30, 250))),
                        rnd.choice(labels))

        g = [span() for _ in range(rnd.randint(0, 9))]
        p = [span() for _ in range(rnd.randint(0, 12))]
        p += [rnd.choice(g) for _ in range(rnd.randint(0, 3))] if g else []
        p += [Span(s.start, s.end, rnd.choice(labels)) for s in g if rnd.random() < 0.3]
        gold[f"d{d}"], pred[f"d{d}"] = tuple(g), tuple(p)
    if rnd.random() < 0.3:  # a predicted set without some gold documents
        pred = {k: v for k, v in pred.items() if rnd.random() < 0.7}
    return AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")


@pytest.mark.parametrize("seed", range(300))
def test_columns_count_what_align_counts(seed: int) -> None:
    gold, pred = corpus(seed)
    min_overlap = random.Random(seed).choice((1.0, 1.0, 30.0, 50.0, 100.0))
    result = score(gold, pred, min_overlap=min_overlap)
    overall, per_label = by_align(gold, pred, min_overlap)
    assert result.overall == overall
    assert result.per_label == per_label


def test_a_crowded_document_needs_several_rounds() -> None:
    # Four predictions that all want the first gold span first: each takes the next one.
    gold = AnnotationSet("g", {"d": tuple(Span(0, 10 + k, "A") for k in range(4))})
    pred = AnnotationSet("p", {"d": (Span(0, 9, "A"),) * 4 + (Span(0, 9, "B"),)}, role="system")
    result = score(gold, pred)
    expected, _ = by_align(gold, pred, 1.0)
    assert result.overall == expected
    assert [getattr(result.overall["strict"], k) for k in COUNTS] == [0, 4, 0, 0, 1]


@pytest.mark.parametrize("seed", range(0, 300, 3))
def test_the_sweep_of_a_crowded_document_counts_what_align_counts(seed: int) -> None:
    """Above BLOCK_CANDIDATES candidates the pairs come from the sweep (only the gold spans
    that can reach a prediction); forced here, the counts are align's."""
    gold, pred = corpus(seed)
    min_overlap = random.Random(seed).choice((1.0, 30.0, 100.0))
    with patch.object(nervaluate, "BLOCK_CANDIDATES", -1):
        result = score(gold, pred, min_overlap=min_overlap)
    overall, per_label = by_align(gold, pred, min_overlap)
    assert result.overall == overall
    assert result.per_label == per_label
