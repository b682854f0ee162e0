"""The common checks of a metric (as scikit-learn's ``check_estimator``): the invariances every
registered metric keeps, run on any :class:`~core.metrics.registry.Metric`, a third party's too.

>>> from core.metrics import registry
>>> check_metric(registry.get("martino"))

For a span metric, in every variant it lists: the result follows
:class:`~core.metrics.result.SpanResult` and serialises; a set against itself scores 1; scores do
not depend on the order of the documents; per-document and per-label sums add up to the overall
numerators; the bootstrap table gives back F1; scores stay in [0, 1] on a corpus without
overlapping spans of one label; an explanation comes with its document's score; and the additive
statistics of two batches, combined and finished, give the scores of the whole
(:mod:`core.metrics.additive`). For every metric: a description, and defaults that it accepts.

Known exceptions are tags of the registry entry, for every variant (``"not-one-on-itself"``) or
one (``"not-one-on-itself:repo-head"``):

``not-one-on-itself``
    a set against itself scores P = 1 but R < 1 (MAFALDA's repo-head counts the text between
    gold spans as gold spans labelled None).
``labels-given-spans``
    the predictions label the gold's own spans (SemEval-2020 TC): checked on such predictions,
    with no span pairs to explain.
``no-explanation``
    the metric registers no ``explain`` (a span metric should: per-span explanations come from
    the code that scores).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from core.metrics.result import BootstrapTable, DocumentScore, Explanation, LabelScore, SpanResult
from core.metrics.result import prf as _prf
from core.model import AnnotationSet, Span

if TYPE_CHECKING:  # pragma: no cover
    from core.metrics.registry import Metric

NOT_ONE_ON_ITSELF = "not-one-on-itself"
LABELS_GIVEN_SPANS = "labels-given-spans"
NO_EXPLANATION = "no-explanation"
TAGS = (NOT_ONE_ON_ITSELF, LABELS_GIVEN_SPANS, NO_EXPLANATION)
LABELS = ("ad hominem", "appeal to fear", "tu quoque")
DOCS = ["d1", "d2", "d3"]

Check = Callable[["Metric", "str | None"], None]


def has_tag(metric: Metric, tag: str, variant: str | None) -> bool:
    """Whether ``metric`` declares ``tag`` for every variant or for ``variant``."""
    return tag in metric.tags or (variant is not None and f"{tag}:{variant}" in metric.tags)


def corpus() -> tuple[AnnotationSet, AnnotationSet]:
    """Gold and a prediction over three documents that every variant accepts: no overlapping
    spans of one label on either side (nlp4if2019 refuses those)."""
    a, b, c = LABELS
    gold = {"d1": (Span(0, 10, a), Span(20, 30, b)), "d2": (Span(5, 15, c),), "d3": ()}
    pred = {"d1": (Span(2, 10, a), Span(20, 30, c)), "d2": (Span(5, 12, c),),
            "d3": (Span(0, 4, b),)}
    return AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")


def given_spans_corpus() -> tuple[AnnotationSet, AnnotationSet]:
    """The gold of :func:`corpus` and a prediction that labels exactly the gold's spans."""
    gold, _ = corpus()
    pred = {d: tuple(Span(s.start, s.end, LABELS[(i + k) % 3]) for k, s in enumerate(spans))
            for i, (d, spans) in enumerate(gold.spans.items())}
    return gold, AnnotationSet("pred", pred, role="system")


def _pair(metric: Metric, variant: str | None) -> tuple[AnnotationSet, AnnotationSet]:
    return given_spans_corpus() if has_tag(metric, LABELS_GIVEN_SPANS, variant) else corpus()


def _score(metric: Metric, variant: str | None, gold: AnnotationSet, pred: AnnotationSet
           ) -> Any:
    return metric.score_sets(gold, pred, variant=variant, level=metric.default_level)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _expect(ok: bool, metric: Metric, variant: str | None, what: str) -> None:
    if not ok:
        shown = metric.name if variant is None else f"{metric.name} ({variant})"
        raise AssertionError(f"{shown}: {what}")


# ---- the checks ------------------------------------------------------------------------------


def check_result_protocol(metric: Metric, variant: str | None) -> None:
    """The result is a SpanResult whose rows, JSON and frame agree."""
    result = _score(metric, variant, *_pair(metric, variant))
    _expect(isinstance(result, SpanResult), metric, variant, "score does not return a SpanResult")
    _expect(result.metric == metric.name, metric, variant, f"result.metric is {result.metric!r}")
    rows = result.per_document()
    _expect(all(isinstance(r, DocumentScore) for r in rows), metric, variant,
            "per_document() rows are not DocumentScore")
    _expect([r.document for r in rows] == result.document_ids == DOCS, metric, variant,
            "per_document() and document_ids do not list the gold's documents in order")
    _expect(all(isinstance(v, LabelScore) for v in result.per_label().values()), metric, variant,
            "per_label() values are not LabelScore")
    out = json.loads(json.dumps(result.to_dict(per_document=True)))
    _expect(out["metric"] == metric.name and len(out["per_document"]) == len(DOCS)
            and _close(out["f1"], result.f1), metric, variant,
            "to_dict(per_document=True) does not serialise the result")
    frame = result.per_document_frame()
    _expect(list(frame["document"]) == DOCS and all(
        _close(x, r.f1) for x, r in zip(frame["f1"], rows, strict=True)), metric, variant,
        "per_document_frame() differs from per_document()")


def check_one_on_itself(metric: Metric, variant: str | None) -> None:
    """A set against itself scores 1 (tag ``not-one-on-itself``: P = 1 and R < 1)."""
    gold, _ = corpus()
    result = _score(metric, variant, gold, AnnotationSet("same", gold.spans, role="system"))
    if has_tag(metric, NOT_ONE_ON_ITSELF, variant):
        _expect(_close(result.precision, 1.0) and result.recall < 1.0, metric, variant,
                f"tagged {NOT_ONE_ON_ITSELF} but scores P, R = {result.precision}, "
                f"{result.recall} against itself")
        return
    _expect(all(_close(x, 1.0) for x in (result.precision, result.recall, result.f1)), metric,
            variant, f"a set against itself scores {result.precision}, {result.recall}, "
            f"{result.f1}, not 1")


def check_document_order(metric: Metric, variant: str | None) -> None:
    """Scores do not depend on the order of the documents."""
    gold, pred = _pair(metric, variant)
    order = ["d3", "d1", "d2"]
    gold_r = AnnotationSet(gold.name, {d: gold.spans[d] for d in order})
    pred_r = AnnotationSet(pred.name, {d: pred.spans[d] for d in order}, role="system")
    a, b = _score(metric, variant, gold, pred), _score(metric, variant, gold_r, pred_r)
    by_doc = {r.document: r.f1 for r in b.per_document()}
    _expect(all(_close(x, y) for x, y in zip((a.precision, a.recall, a.f1),
                                             (b.precision, b.recall, b.f1), strict=True))
            and all(_close(r.f1, by_doc[r.document]) for r in a.per_document()), metric,
            variant, "the scores change with the order of the documents")


def check_sums_add_up(metric: Metric, variant: str | None) -> None:
    """Per-document and per-label sums add up to the overall numerators; P, R, F1 come from
    them (pooled) or are the per-document means."""
    result = _score(metric, variant, *_pair(metric, variant))
    rows = result.per_document()
    for attr in ("precision_numerator", "precision_denominator", "recall_numerator",
                 "recall_denominator"):
        _expect(_close(sum(getattr(r, attr) for r in rows), getattr(result, attr)), metric,
                variant, f"the per-document {attr}s do not add up to the overall one")
    per_label = result.per_label()
    if per_label:
        _expect(_close(sum(v.precision_numerator for v in per_label.values()),
                       result.precision_numerator)
                and _close(sum(v.recall_denominator for v in per_label.values()),
                           result.recall_denominator), metric, variant,
                "the per-label sums do not add up to the overall ones")
    if result.pooled:
        want = _prf(result.precision_numerator, result.precision_denominator,
                    result.recall_numerator, result.recall_denominator, empty="official")
        got = (result.precision, result.recall, result.f1)
        _expect(all(_close(x, y) for x, y in zip(got, want, strict=True)), metric, variant,
                "a pooled result's P, R, F1 are not those of its sums")
    else:
        _expect(_close(result.f1, sum(r.f1 for r in rows) / len(rows)), metric, variant,
                "F1 is not the mean of the per-document F1")


def check_bootstrap_table(metric: Metric, variant: str | None) -> None:
    """The bootstrap table's statistic of its column sums is the F1."""
    result = _score(metric, variant, *_pair(metric, variant))
    boot = result.bootstrap_table()
    _expect(isinstance(boot, BootstrapTable) and boot.documents == tuple(result.document_ids)
            and _close(float(boot.statistic(boot.table.sum(axis=0)[None, :])[0]), result.f1),
            metric, variant, "bootstrap_table() does not give back the F1")


def check_in_range(metric: Metric, variant: str | None) -> None:
    """Scores in [0, 1] where spans of one label do not overlap; the prediction scores < 1."""
    result = _score(metric, variant, *_pair(metric, variant))
    values = (result.precision, result.recall, result.f1, *(r.f1 for r in result.per_document()))
    _expect(all(0.0 <= v <= 1.0 for v in values) and result.f1 < 1.0, metric, variant,
            f"scores out of range: {values}")


def check_explanation(metric: Metric, variant: str | None) -> None:
    """An explanation of a document comes with that document's score (not for
    ``labels-given-spans``, which has no span pairs, nor ``no-explanation``)."""
    if has_tag(metric, LABELS_GIVEN_SPANS, variant) or has_tag(metric, NO_EXPLANATION, variant):
        return
    gold, pred = corpus()
    explanation = metric.explain_document(gold, pred, "d1", variant=variant,
                                          level=metric.default_level)
    _expect(explanation is not None, metric, variant, "a span metric registers no explain")
    assert explanation is not None
    _expect(isinstance(explanation, Explanation) and explanation.document == "d1", metric,
            variant, "explain does not return the document's Explanation")
    rows = explanation.rows()
    _expect(bool(rows) and all(r.gold is not None or r.pred is not None for r in rows), metric,
            variant, "an explanation row points at no span")
    out = json.loads(json.dumps(explanation.to_dict()))
    d1 = {r.document: r for r in _score(metric, variant, gold, pred).per_document()}["d1"]
    _expect(_close(out["f1"], d1.f1), metric, variant,
            "the explanation's F1 is not the document's")


def check_additive(metric: Metric, variant: str | None) -> None:
    """Statistics of two batches, combined and finished, give the scores of the whole; the
    document table gives them back too (not for a variant whose statistics need the whole
    file, :attr:`~core.metrics.additive.Additive.whole_file_variants`)."""
    if variant in metric.protocol.whole_file_variants:
        return
    gold, pred = _pair(metric, variant)
    keywords = metric.keywords(variant=variant, level=metric.default_level)
    whole = _score(metric, variant, gold, pred)
    g, p = metric.gold_view(gold), pred
    parts = [metric.statistics(_only(g, docs), _only(p, docs), per_document=True, **keywords)
             for docs in (["d1"], ["d2", "d3"])]
    finished = metric.finish(metric.add(*parts), per_document=True, **keywords)
    _expect(all(_close(finished[k], getattr(whole, k)) for k in ("precision", "recall", "f1")),
            metric, variant, "finish(add(statistics of two batches)) differs from score")
    _expect([d["document"] for d in finished["per_document"]] == DOCS, metric, variant,
            "the combined statistics lost the documents' order")
    table = metric.document_table(metric.statistics(g, p, per_document=True, **keywords))
    sums = table.table.sum(axis=0)[None, :]
    got = [float(s(sums)[0]) for s in table.measures(len(table.documents)).values()]
    _expect(table.documents == DOCS and all(
        _close(x, y) for x, y in zip(got, (whole.precision, whole.recall, whole.f1),
                                     strict=True)), metric, variant,
        "the document table does not give back P, R, F1")


def _only(aset: AnnotationSet, docs: Iterable[str]) -> AnnotationSet:
    return AnnotationSet(aset.name, {d: aset.spans[d] for d in docs}, aset.role,
                         aset.alternatives)


SPAN_CHECKS: tuple[Check, ...] = (
    check_result_protocol, check_one_on_itself, check_document_order, check_sums_add_up,
    check_bootstrap_table, check_in_range, check_explanation, check_additive)


def check_entry(metric: Metric) -> None:
    """Every metric: a description and a title, and defaults that ``keywords`` accepts."""
    _expect(bool(metric.description and metric.title), metric, None,
            "the entry has no description or title")
    _expect(metric.keywords().get("variant") == metric.default_variant, metric, None,
            "the default variant is not accepted")
    if metric.levels:
        _expect(metric.keywords()["level"] == metric.default_level, metric, None,
                "the default level is not accepted")
    unknown = [t for t in metric.tags if t.split(":", 1)[0] not in TAGS]
    _expect(not unknown, metric, None, f"unknown tags {unknown}; tags are one of {TAGS}")


def checks(metric: Metric) -> Iterator[tuple[str | None, Check]]:
    """Every (variant, check) that :func:`check_metric` runs on ``metric`` (a span metric's in
    each of its variants), to run one at a time (a test per check)."""
    if metric.kind != "span":
        return
    for variant in metric.variants or (None,):
        for check in SPAN_CHECKS:
            yield variant, check


def check_metric(metric: Metric) -> None:
    """Run every common check on ``metric``; an ``AssertionError`` names the first that fails
    (metric, variant and what went wrong)."""
    check_entry(metric)
    for variant, check in checks(metric):
        check(metric, variant)


__all__ = ["LABELS_GIVEN_SPANS", "NOT_ONE_ON_ITSELF", "NO_EXPLANATION", "SPAN_CHECKS", "TAGS",
           "check_entry", "check_metric", "checks", "corpus", "given_spans_corpus", "has_tag"]
