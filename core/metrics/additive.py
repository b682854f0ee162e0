"""Additive statistics: the one protocol through which the Dask engine, slices, the bootstrap and
the report use a span metric.

Hugging Face ``evaluate`` splits a metric into a batch step (``add_batch``) and a compute step;
here the batch step returns *additive* statistics, so batches are added in any grouping (shards
on a cluster, documents of a bucket, a bootstrap resample) before one finishing formula runs
(``docs/python-api.md``, "Additive statistics"):

``metric.statistics(gold, pred, **options) -> totals``
    the statistics of these documents (``per_document=True`` keeps what a per-document table
    needs); ``totals.documents`` are its documents, ``totals.warnings`` what scoring said.
``metric.combine(parts, labels=None) -> totals``
    the statistics of the union of disjoint document sets (``metric.add(a, b)`` for two).
``metric.finish(totals, per_document=False, **options) -> dict``
    the result object, with the keys of ``score --json``.
``metric.document_table(totals) -> DocumentTable``
    one row of additive values per document and the statistics that give P, R and F1 from their
    (weighted) column sums: what slices and the bootstrap resample (:mod:`core.metrics.stats`).

A metric's registry entry (:class:`~core.metrics.registry.Metric`) carries its implementation as
an :class:`Additive`; a span metric without one gets :data:`FROM_RESULT`, derived from the
:class:`~core.metrics.result.SpanResult` its ``score`` returns (pooled sums, or per-text values
averaged), so a third-party metric runs under ``--engine dask``, ``slices`` and ``report`` with
no more code. Da San Martino et al. (2019) pool Σ C(s,t,|s|), |S|, Σ C(s,t,|t|), |T| over the
corpus, per label and per document (:data:`MARTINO`); Helwe et al. (2024, §5.2) average per-text
values, so a batch gives its number of texts and the sums of the six values (:data:`MAFALDA`).

Sums of floating-point numbers in another order differ in the last bits only: the Dask tests
require equality with the single-machine run to 1e-12.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from core.metrics.result import BootstrapTable, Statistic, mean_of, pooled_f1, prf, prf_arrays
from core.model import NOTHING, AnnotationSet, SpanView
from core.model.errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from core.metrics.martino import MartinoResult
    from core.model.taxonomy import Taxonomy

MEASURES = ("P", "R", "F1")


# ---- the protocol ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Additive:
    """How a metric's statistics are computed, added and finished (module docstring).

    ``statistics(gold, pred, *, per_document=False, **options)``, ``combine(parts, *,
    labels=None)``, ``finish(totals, *, per_document=False, **options)`` and ``table(totals)``
    are the four steps; ``options`` are the keywords of the metric's ``score``
    (:meth:`~core.metrics.registry.Metric.keywords`). ``labels`` gives the labels of a set as
    the metric reads them (what ``default_labels`` sees; None: the set's labels).
    ``whole_file_variants`` are the variants whose statistics depend on the whole file and so
    cannot be added over batches. ``terms(gold, pred, **options)`` gives every span's term in
    the sums (:class:`SpanTerm`), which span-level slices bucket; None: the metric has none.
    """

    statistics: Callable[..., Any]
    combine: Callable[..., Any]
    finish: Callable[..., dict[str, Any]]
    table: Callable[[Any], DocumentTable]
    labels: Callable[[AnnotationSet], list[str]] | None = None
    whole_file_variants: frozenset[str] = frozenset()
    terms: Callable[..., list[SpanTerm]] | None = None
    result_table: Callable[[Any, AnnotationSet, AnnotationSet], DocumentTable] | None = None
    """``result_table(result, gold, pred)``: the rows ``table(statistics(gold, pred,
    per_document=True))`` gives, taken from the result the metric's ``score`` returned for the
    same sets and options (a page that holds the score does not score again); None: none."""


@dataclass(frozen=True)
class DocumentTable:
    """One row of additive values per document (``table``, documents × k), the reference and
    predicted spans of each document, and how P, R and F1 come from the column sums.

    ``pooled`` tables hold (p_num, p_den, r_num, r_den): P, R and F1 are those of the pooled
    sums with the official edge cases (:func:`~core.metrics.result.prf`). Other tables hold each
    document's (P, R, F1), averaged over the documents.
    """

    documents: list[str]
    table: np.ndarray
    references: np.ndarray
    predictions: np.ndarray
    pooled: bool

    def measures(self, n_docs: int) -> dict[str, Statistic]:
        """P, R and F1 as statistics of the column sums of ``n_docs`` documents' rows (weighted
        sums: :func:`core.metrics.stats.bootstrap_many`)."""
        if self.pooled:
            return {"P": _pooled(0), "R": _pooled(1), "F1": pooled_f1}
        return {name: mean_of(k, n_docs) for k, name in enumerate(MEASURES)}

    def f1_table(self) -> BootstrapTable:
        """The columns F1 reads and its statistic (a bootstrap of F1 alone): the table the
        metric's :meth:`~core.metrics.result.SpanResult.bootstrap_table` gives."""
        if self.pooled:
            return BootstrapTable(tuple(self.documents), self.table, pooled_f1)
        return BootstrapTable(tuple(self.documents), self.table[:, [2]],
                              mean_of(0, len(self.documents)))


def _pooled(k: int) -> Statistic:
    def statistic(sums: np.ndarray) -> np.ndarray:
        return prf_arrays(sums, empty="official")[k]
    return statistic


# ---- Da San Martino: the result is its own additive statistics -------------------------------


def _martino_statistics(gold: AnnotationSet, pred: AnnotationSet, *, per_document: bool = False,
                        **options: Any) -> MartinoResult:
    from core.metrics import martino

    return martino.score(gold, pred, **options)


def merge_martino(parts: Sequence[MartinoResult], labels: Sequence[str] | None
                  ) -> MartinoResult:
    """The Martino statistics of disjoint document sets, added up (one result per shard).

    ``labels`` is the technique list of the whole run (None: the labels that occur); the
    label list changes only the report order and the official per-technique table, never a
    sum, so shards scored without it merge into the result :func:`martino.score` gives with it.
    """
    import numpy as np

    from core.metrics.martino import MartinoResult

    first = parts[0]
    p_num: dict[str, float] = {}
    r_num: dict[str, float] = {}
    p_den: dict[str, int] = {}
    r_den: dict[str, int] = {}
    for part in parts:
        for target, source in ((p_num, part.label_p_num), (r_num, part.label_r_num)):
            for k, v in source.items():
                target[k] = target.get(k, 0.0) + v
        for target_i, source_i in ((p_den, part.label_p_den), (r_den, part.label_r_den)):
            for k, n in source_i.items():
                target_i[k] = target_i.get(k, 0) + n
    every = {k for part in parts for k in part.labels}
    official: list[str] | None = (
        None if first.variant == "semeval2020-si" else list(labels) if labels is not None
        else sorted(every) if first.accuracy_mode else None)
    order = list(dict.fromkeys(official or ()))
    order.extend(sorted(every - set(order)))
    return MartinoResult(
        variant=first.variant,
        p_num=sum(p.p_num for p in parts), p_den=sum(p.p_den for p in parts),
        r_num=sum(p.r_num for p in parts), r_den=sum(p.r_den for p in parts),
        labels=order, label_p_num=p_num, label_r_num=r_num, label_p_den=p_den,
        label_r_den=r_den,
        documents=[d for p in parts for d in p.documents],
        doc_p_num=np.concatenate([p.doc_p_num for p in parts]),
        doc_r_num=np.concatenate([p.doc_r_num for p in parts]),
        doc_p_den=np.concatenate([p.doc_p_den for p in parts]),
        doc_r_den=np.concatenate([p.doc_r_den for p in parts]),
        official_labels=official, fragments_only=first.fragments_only,
        merge_pred=first.merge_pred, accuracy_mode=first.accuracy_mode, match=first.match)


def _martino_table(res: MartinoResult) -> DocumentTable:
    table = np.column_stack([res.doc_p_num, res.doc_p_den, res.doc_r_num, res.doc_r_den])
    return DocumentTable(list(res.documents), table, res.doc_r_den, res.doc_p_den, pooled=True)


def _martino_labels(aset: AnnotationSet) -> list[str]:
    from core.metrics.martino import martino_gold_view

    return martino_gold_view(aset).labels()


def _martino_terms(gold: AnnotationSet, pred: AnnotationSet, *, variant: str = "semeval2021",
                   **options: Any) -> list[SpanTerm]:
    return martino_terms(gold, pred, variant=variant)


MARTINO = Additive(
    statistics=_martino_statistics,
    combine=lambda parts, *, labels=None: merge_martino(parts, labels),
    finish=lambda totals, *, per_document=False, **options: totals.to_dict(
        per_document=per_document),
    table=_martino_table, labels=_martino_labels,
    result_table=lambda res, gold, pred: _martino_table(res),
    # They pair label rows by their position in the whole file.
    whole_file_variants=frozenset({"semeval2020-tc", "semeval2020-tc-fixed"}),
    terms=_martino_terms,
)
"""Da San Martino et al. (2019): :class:`~core.metrics.martino.MartinoResult` holds its own
sums, per label and per document; :func:`merge_martino` adds them."""


# ---- MAFALDA: per-text values, summed ---------------------------------------------------------


@dataclass
class MafaldaSums:
    """A batch's MAFALDA statistics: the number of texts and the sums of the per-text values
    that the corpus scores average (Helwe et al. 2024, §5.2), and the rows (with each text's
    reference and predicted spans) when asked for."""

    texts: int
    precision: float
    recall: float
    f1: float
    label_precision: float
    label_recall: float
    label_f1: float
    rows: list[Any] | None = None
    documents: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    references: list[int] = field(default_factory=list)
    predictions: list[int] = field(default_factory=list)


def _mafalda_sums(result: Any, per_document: bool) -> MafaldaSums:
    rows = result.per_document()
    return MafaldaSums(
        len(rows), sum(d.precision for d in rows), sum(d.recall for d in rows),
        sum(d.f1 for d in rows), sum(d.extra["label_precision"] for d in rows),
        sum(d.extra["label_recall"] for d in rows), sum(d.extra["label_f1"] for d in rows),
        list(rows) if per_document else None)


def _mafalda_statistics(gold: AnnotationSet, pred: AnnotationSet, *, per_document: bool = False,
                        **options: Any) -> MafaldaSums:
    from core.metrics import mafalda

    return _mafalda_result_sums(mafalda.score(gold, pred, **options), gold, pred, per_document)


def _mafalda_result_sums(result: Any, gold: AnnotationSet, pred: AnnotationSet,
                         per_document: bool) -> MafaldaSums:
    """The statistics of a MAFALDA result of ``gold`` and ``pred``."""
    sums = _mafalda_sums(result, per_document)
    sums.documents = list(result.document_ids)
    sums.warnings = list(result.warnings)
    if sums.rows is not None:
        sums.references = [len(gold.alt_spans(r.document)) for r in sums.rows]
        sums.predictions = [len(pred.get(r.document)) for r in sums.rows]
    return sums


def combine_mafalda(parts: Sequence[MafaldaSums], *, labels: Sequence[str] | None = None
                    ) -> MafaldaSums:
    """The sums of disjoint batches, added in order (``labels`` changes nothing here)."""
    out = MafaldaSums(sum(p.texts for p in parts), *(
        sum(getattr(p, attr) for p in parts)
        for attr in ("precision", "recall", "f1", "label_precision", "label_recall", "label_f1")))
    out.rows = [d for p in parts for d in (p.rows or [])]
    out.documents = [d for p in parts for d in p.documents]
    out.references = [n for p in parts for n in p.references]
    out.predictions = [n for p in parts for n in p.predictions]
    return out


def finish_mafalda(parts: Sequence[MafaldaSums], *, variant: str, level: int,
                   per_document: bool) -> dict[str, Any]:
    """MAFALDA's corpus scores (means over texts, ``MafaldaResult.to_dict``'s keys) from the
    shards' sums."""
    n = sum(p.texts for p in parts)

    def mean(attr: str) -> float:
        return sum(getattr(p, attr) for p in parts) / n if n else 0.0

    out: dict[str, Any] = {
        "metric": "mafalda", "variant": variant, "level": level,
        "precision": mean("precision"), "recall": mean("recall"), "f1": mean("f1"),
        "label_only": {"precision": mean("label_precision"), "recall": mean("label_recall"),
                       "f1": mean("label_f1")},
        "documents": n, "warnings": []}
    if per_document:
        out["per_document"] = [
            {"document": d.document, "precision": d.precision, "recall": d.recall,
             "f1": d.f1, **d.extra} for p in parts for d in (p.rows or [])]
    return out


def _mafalda_finish(totals: MafaldaSums, *, per_document: bool = False, variant: str = "paper",
                    level: int = 2, **options: Any) -> dict[str, Any]:
    return finish_mafalda([totals], variant=str(variant), level=int(level),
                          per_document=per_document)


def _mafalda_table(sums: MafaldaSums) -> DocumentTable:
    rows = sums.rows or []
    table = np.array([(d.precision, d.recall, d.f1) for d in rows], dtype=float)
    return DocumentTable([d.document for d in rows], table.reshape(len(rows), 3),
                         np.asarray(sums.references, dtype=int),
                         np.asarray(sums.predictions, dtype=int), pooled=False)


def _mafalda_terms(gold: AnnotationSet, pred: AnnotationSet, *, variant: str = "paper",
                   level: int = 2, texts: Mapping[str, str | None] | None = None,
                   taxonomy: Taxonomy | None = None, **options: Any) -> list[SpanTerm]:
    return mafalda_terms(gold, pred, variant=variant, level=level, texts=texts,
                         taxonomy=taxonomy)


MAFALDA = Additive(statistics=_mafalda_statistics, combine=combine_mafalda,
                   finish=_mafalda_finish, table=_mafalda_table, terms=_mafalda_terms,
                   result_table=lambda res, gold, pred: _mafalda_table(
                       _mafalda_result_sums(res, gold, pred, True)))
"""Helwe et al. (2024): :class:`MafaldaSums`, whose means are the corpus scores."""


# ---- any span metric: from the SpanResult its score returns ----------------------------------


@dataclass
class ResultSums:
    """A batch's statistics of a span metric known only by its
    :class:`~core.metrics.result.SpanResult`: per document (p_num, p_den, r_num, r_den) when the
    result is ``pooled``, else each document's (P, R, F1)."""

    metric: str
    variant: str | None
    pooled: bool
    documents: list[str]
    table: np.ndarray
    references: np.ndarray
    predictions: np.ndarray
    warnings: list[str] = field(default_factory=list)


def from_result(score: Callable[..., Any]) -> Additive:
    """The additive statistics of a span metric whose ``score`` returns a
    :class:`~core.metrics.result.SpanResult` (what a registry entry without its own
    :class:`Additive` uses)."""

    def statistics(gold: AnnotationSet, pred: AnnotationSet, *, per_document: bool = False,
                   **options: Any) -> ResultSums:
        return _result_sums(score(gold, pred, **options), gold, pred)

    def table(t: ResultSums) -> DocumentTable:
        return DocumentTable(t.documents, t.table, t.references, t.predictions, t.pooled)

    return Additive(statistics=statistics, combine=combine_results, finish=finish_results,
                    table=table,
                    result_table=lambda res, gold, pred: table(_result_sums(res, gold, pred)))


def _result_sums(result: Any, gold: AnnotationSet, pred: AnnotationSet) -> ResultSums:
    """The statistics of a :class:`~core.metrics.result.SpanResult` of ``gold`` and ``pred``."""
    rows = result.per_document()
    docs = [r.document for r in rows]
    if result.pooled:
        table = np.array([(r.precision_numerator, r.precision_denominator,
                           r.recall_numerator, r.recall_denominator) for r in rows],
                         dtype=float).reshape(len(rows), 4)
        refs, preds = table[:, 3].astype(int), table[:, 1].astype(int)
    else:
        table = np.array([(r.precision, r.recall, r.f1) for r in rows],
                         dtype=float).reshape(len(rows), 3)
        refs = np.array([len(gold.get(d)) for d in docs], dtype=int)
        preds = np.array([len(pred.get(d)) for d in docs], dtype=int)
    return ResultSums(result.metric, getattr(result, "variant", None), bool(result.pooled),
                      docs, table, refs, preds, [w if isinstance(w, str) else str(w)
                                                       for w in result.warnings])


def combine_results(parts: Sequence[ResultSums], *, labels: Sequence[str] | None = None
                    ) -> ResultSums:
    first = parts[0]
    return ResultSums(first.metric, first.variant, first.pooled,
                      [d for p in parts for d in p.documents],
                      np.concatenate([p.table for p in parts]),
                      np.concatenate([p.references for p in parts]),
                      np.concatenate([p.predictions for p in parts]))


def finish_results(totals: ResultSums, *, per_document: bool = False, **options: Any
                   ) -> dict[str, Any]:
    """P, R and F1 of the added statistics (pooled sums, or means over documents), with the
    keys every span metric's ``to_dict`` has."""
    n = len(totals.documents)
    sums = totals.table.sum(axis=0)
    if totals.pooled:
        p, r, f1 = prf(*(float(x) for x in sums), empty="official")
    else:
        p, r, f1 = (float(x) / n if n else 0.0 for x in sums)
    out: dict[str, Any] = {"metric": totals.metric, "variant": totals.variant,
                           "precision": p, "recall": r, "f1": f1}
    if totals.pooled:
        out.update(zip(("precision_numerator", "precision_denominator", "recall_numerator",
                        "recall_denominator"), (float(x) for x in sums), strict=True))
    out.update({"documents": n, "warnings": []})
    if per_document:
        rows = []
        for d, row in zip(totals.documents, totals.table, strict=True):
            values = (prf(*(float(x) for x in row), empty="official") if totals.pooled
                      else tuple(float(x) for x in row))
            rows.append({"document": d, **dict(zip(("precision", "recall", "f1"), values,
                                                   strict=True))})
        out["per_document"] = rows
    return out


# ---- per-span terms, from the metrics' own explanation code -------------------------------


@dataclass(frozen=True, slots=True)
class SpanTerm:
    """One span's term in the metric's sums: ``value`` (its numerator term) and its bucketing
    attributes. ``side`` is ``reference`` (recall) or ``prediction`` (precision)."""

    document: str
    side: str
    start: int
    end: int
    label: str
    value: float




def martino_terms(gold: AnnotationSet, pred: AnnotationSet, *, variant: str = "semeval2021"
                  ) -> list[SpanTerm]:
    """Every span's Martino term (after the variant's merging), from
    :func:`core.metrics.martino.contributions`: a prediction's Σ_t C(s,t,|s|), a reference
    span's Σ_s C(s,t,|t|)."""
    from core.metrics import martino

    if variant.startswith("semeval2020-tc"):
        raise InputError(f"{variant} scores labels of given spans; it has no span pairs to "
                         "slice")
    prep = martino._prepare(gold, pred, variant=variant, merge_pred=False,
                            fragments_only=False, labels=None)
    # Keyed by the span's fields, not the Span: a tuple of str and int hashes in C, a frozen
    # dataclass in Python (a third of ``slices --dimension label``'s CPU at 10,000 documents).
    sums: dict[tuple[str, str, int, int, str], float] = defaultdict(float)
    for r in martino.contributions(gold, pred, variant=variant):
        if (s := r.pred) is not None:
            sums[(r.document, "prediction", s.start, s.end, s.label)] += r.contribution_p
        if (t := r.gold) is not None:
            sums[(r.document, "reference", t.start, t.end, t.label)] += r.contribution_r
    out: list[SpanTerm] = []
    gold_spans, pred_spans = SpanView(prep.gold), SpanView(prep.pred)  # the merged tables
    for doc in prep.documents:
        for side, spans in (("reference", gold_spans[doc]), ("prediction", pred_spans[doc])):
            keys = [(doc, side, s.start, s.end, s.label) for s in spans]
            mult = Counter(keys)
            for key in keys:
                # Identical copies form identical pairs: each takes an equal share of the sum.
                out.append(SpanTerm(*key, sums.get(key, 0.0) / mult[key]))
    return out


def mafalda_terms(gold: AnnotationSet, pred: AnnotationSet, *, variant: str = "paper",
                  level: int = 2, texts: Mapping[str, str | None] | None = None,
                  taxonomy: Taxonomy | None = None) -> list[SpanTerm]:
    """Every counted span's MAFALDA term, from :func:`core.metrics.mafalda.explain`: a counted
    prediction's best C(s,t,|s|), a counted reference span's best C(s,t,|t|) under the
    alternative recall chose (labels projected to ``level``)."""
    from core.metrics import mafalda

    gold = gold if gold.alternatives else AnnotationSet(gold.name, gold.spans, gold.role, True)
    pred = AnnotationSet(pred.name, pred.spans, "system", False)
    shown: dict[str, str] = {}
    if level == 2 and taxonomy is not None:
        # explain() names level-2 classes by their lower-case key; show them as written.
        shown = {key: taxonomy.label_name(code, 2) for key, code in taxonomy.codes.items()}
    out: list[SpanTerm] = []
    for doc in gold.doc_ids:
        ex = mafalda.explain(gold, pred, doc, level=level, variant=variant, texts=texts,
                             taxonomy=taxonomy)
        for pm in ex.predictions:
            if pm.counted:
                label = str(pm.label)
                out.append(SpanTerm(doc, "prediction", pm.start, pm.end,
                                    shown.get(label, label), float(pm.contribution_p)))
        for gm in ex.gold:
            if gm.uncovered or not gm.counted:
                continue
            glabel = gm.recall_label
            if glabel is None or glabel == "any of its labels":
                glabel = next((a for a in gm.alternatives if a != NOTHING), NOTHING)
            out.append(SpanTerm(doc, "reference", gm.start, gm.end,
                                shown.get(str(glabel), str(glabel)), float(gm.contribution_r)))
    return out


