"""A self-contained HTML error-analysis report: one file, no network, no script.

What it holds
-------------
For a reference and any number of systems: the scores of every system under both span metrics
(Da San Martino et al. 2019, SemEval-2021 variant; MAFALDA, Helwe et al. 2024, paper variant at
the chosen level) and the SemEval-2013 strict and type F1 (:mod:`core.metrics.nervaluate`),
with 95% bootstrap intervals over documents (:mod:`core.metrics.stats`); with two systems or
more, which F1 differences are real (each system against the best under each span metric:
approximate randomization and the paired bootstrap, :mod:`core.analysis.significance`, as
``table --compare``) and the documents where the systems' Martino F1 differ most, drawn side by
side; the error categories
(:mod:`core.analysis.errors`); the slices (:mod:`core.analysis.slices`, every built-in
dimension and every metadata field); the label confusion (:func:`core.metrics.labels.
confusion`); the 20 documents that score worst (lowest mean Martino F1 over the systems) with
their spans highlighted side by side; and the exact command and package versions that produced
it.

Drawing
-------
The charts are hand-written SVG (:mod:`core.render.svg`: no plotly in ``core``, no script in
the file), the colours those of :mod:`core.render.palette`, the tables
:func:`core.render.html.html_table`. Every string that comes from the input (document ids and
texts, labels, set names, metadata values) goes through :func:`core.render.html.esc` before it
reaches the markup; a test feeds ``<script>`` labels and texts.
"""

from __future__ import annotations

import platform
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from importlib import metadata as importlib_metadata
from typing import Any

import numpy as np

from core.analysis.errors import (
    CATEGORIES,
    ERRORS,
    PREDICTION_CATEGORIES,
    REFERENCE_CATEGORIES,
    SIDES,
    ErrorTable,
    categorise,
)
from core.analysis.significance import compare
from core.analysis.slices import (
    DIMENSIONS,
    META_PREFIX,
    META_RULE,
    SPAN_DIMENSIONS,
    Metadata,
    meta_plan,
    slice_scores,
    slice_terms,
)
from core.metrics.additive import DocumentTable, SpanTerm
from core.metrics.stats import FEW_DOCUMENTS, bootstrap
from core.model import AnnotationSet
from core.model.errors import SpanScopeError, check_choice
from core.model.taxonomy import Taxonomy, for_labels
from core.render.html import esc, html_table
from core.render.palette import ERROR_COLOURS, ERROR_MARKS
from core.render.segments import segments
from core.render.svg import (
    PATTERNS,
    SERIES_PAIRS,
    pattern_defs,
    svg_grouped_bars,
    svg_stacked_bars,
)

WORST = 20
DISAGREE = 10
"""How many of the documents the systems disagree on most the report draws."""
NO_INTERVAL = "—"
"""What a bound of F1 shows for one document (every resample is that document), as ``table``
prints it (:func:`core.analysis.table.few_documents_note`)."""
SLICE_METRIC = "martino"
"""The metric the slices score with, in its variant of :attr:`ReportInputs.variants`."""


def versions() -> dict[str, str]:
    """Python and the versions of the packages the numbers depend on."""
    out = {"python": platform.python_version()}
    for name in ("numpy", "scipy"):
        try:
            out[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


# ---- tables and documents -----------------------------------------------------------------------


REFERENCE_STYLE = ("#555555", "G")
"""Colour and mark of a reference span in the side-by-side view (it has a category per
system, so the reference column shows it neutrally)."""


def _style(category: str) -> tuple[str, str]:
    if category == "reference":
        return REFERENCE_STYLE
    return ERROR_COLOURS[category], ERROR_MARKS[category]


def _bdi(value: str) -> str:
    """``value`` escaped and isolated (``<bdi>``): a right-to-left name or label in a
    left-to-right line keeps its own order and does not reorder the words around it."""
    return f"<bdi>{esc(value)}</bdi>"


def render_spans(text: str | None, spans: Sequence[tuple[int, int, str, str]]) -> str:
    """The text with spans (start, end, label, category) as coloured underlines and tags;
    ``category`` may also be ``reference`` (neutral)."""
    if text is None:
        items = "".join(f"<li>[{s}, {e}) {_bdi(lab)} · {esc(cat)}</li>"
                        for s, e, lab, cat in spans)
        return f"<div class='doc'><i>No text; spans:</i><ul>{items}</ul></div>"
    intervals = [(s, e) for s, e, _, _ in spans]
    starts: dict[int, list[int]] = {}
    for i, (s, _, _, _) in enumerate(spans):
        starts.setdefault(min(s, len(text)), []).append(i)
    parts = []
    for seg in segments(intervals, len(text)):
        tags = "".join(
            f"<span class='tag' dir='ltr' style='border-color:{_style(spans[i][3])[0]}' "
            f"title='{esc(spans[i][3])}'>"
            f"{esc(_style(spans[i][3])[1])} {_bdi(spans[i][2])}</span>"
            for i in starts.get(seg.start, ()))
        piece = esc(text[seg.start:seg.end])
        if seg.covering:
            shadows = ", ".join(f"inset 0 -{3 * (k + 1)}px 0 0 {_style(spans[i][3])[0]}"
                                for k, i in enumerate(seg.covering))
            title = "; ".join(f"{spans[i][2]} ({spans[i][3]})" for i in seg.covering)
            piece = (f"<span class='seg' title='{esc(title)}' style='box-shadow:{shadows};"
                     f"padding-bottom:{3 * len(seg.covering)}px'>{piece}</span>")
        parts.append(tags + piece)
    return f"<div class='doc' dir='auto'>{''.join(parts)}</div>"


# ---- the report ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportInputs:
    """What the report is built from (names are the sets' names)."""

    gold: AnnotationSet
    systems: Sequence[AnnotationSet]
    texts: Mapping[str, str | None]
    level: int = 2
    metadata: Metadata | None = None
    taxonomy: Taxonomy | None = None
    """The taxonomy of every system's levels; None: each system's is the one of its own pair,
    :func:`~core.model.taxonomy.for_labels` of the reference's and its labels (the rule of
    ``score --metric mafalda`` and the Errors page), :func:`taxonomy_of`."""
    n_resamples: int = 1000
    seed: int = 0
    bootstrap: str = "per-slice"
    """How the slices' intervals resample (:data:`core.analysis.slices.BOOTSTRAPS`): each
    bucket its own documents, or the corpus's documents once for every bucket (``shared``)."""
    variants: Mapping[str, str] = field(default_factory=dict)
    """Metric name -> the variant it scores in (the scores; for ``martino`` also the slices and
    the worst documents' ranking); a metric not named scores in its default variant
    (:attr:`core.metrics.registry.Metric.default_variant`), as the report always did. The
    report states a variant that is not the default."""


def taxonomy_of(inputs: ReportInputs, system: AnnotationSet) -> Taxonomy:
    """The taxonomy ``system`` is grouped by (:attr:`ReportInputs.taxonomy`). The labels of
    every system together made one system's stray label turn the others' MAFALDA groups into
    one class per label, unlike the page and ``errors``."""
    return inputs.taxonomy or for_labels([*inputs.gold.labels(), *system.labels()])


def check_variants(variants: Mapping[str, str]) -> None:
    """Raise :class:`~core.model.errors.ParameterError` unless every key of ``variants`` is a
    span metric with variants and its value one of them."""
    from core.metrics import registry

    names = [m.name for m in registry.span_metrics() if m.variants]
    for name, variant in variants.items():
        check_choice("variants", "the report", name, names)
        check_choice("variant", name, variant, registry.get(name).variants)


def _chosen(inputs: ReportInputs, metric: str) -> str | None:
    """The variant ``metric`` scores in when it is not the default, else None."""
    from core.metrics import registry

    variant = inputs.variants.get(metric)
    return None if variant in (None, registry.get(metric).default_variant) else variant


def _variant_words(inputs: ReportInputs, metric: str, default: str) -> str:
    """``default`` (the words naming the metric's default variant) when ``metric`` scores in
    it, else the variant chosen, said to be one."""
    from core.metrics import registry

    chosen = _chosen(inputs, metric)
    if chosen is None:
        return default
    return (f"variant <b>{esc(chosen)}</b> (chosen; the default is "
            f"{esc(registry.get(metric).default_variant)})")


DocTables = dict[str, dict[str, DocumentTable]]
"""Metric name -> system name -> the per-document statistics of its scores (what the paired
tests swap and resample)."""


def _scores(inputs: ReportInputs, tables: Mapping[str, ErrorTable | str], steps: _Steps,
            taxes: Mapping[str, Taxonomy]
            ) -> tuple[list[dict[str, Any]], dict[str, dict[str, float]], DocTables]:
    from core.metrics import nervaluate, registry

    rows: list[dict[str, Any]] = []
    doc_f1: dict[str, dict[str, float]] = {}
    doc_tables: DocTables = {}
    gold = inputs.gold
    metrics = registry.span_metrics()
    for system in inputs.systems:
        steps.next(f"scores of {system.name}")
        pred = AnnotationSet(system.name, system.spans, "system", False)
        row: dict[str, Any] = {"system": system.name}
        notes: list[str] = []
        own = replace(inputs, taxonomy=taxes[system.name])
        for k, metric in enumerate(metrics):
            # The worst documents are ranked by the first metric's F1 (Da San Martino's).
            kept = _score_columns(metric, gold, pred, own, row, notes,
                                  doc_f1.setdefault(system.name, {}) if k == 0 else None)
            if kept is not None:
                doc_tables.setdefault(metric.name, {})[system.name] = kept
        try:
            nres = nervaluate.score(gold, pred).to_dict()
            row.update({"strict F1": nres["strict"]["f1"], "type F1": nres["type"]["f1"]})
        except SpanScopeError as exc:
            notes.append(f"SemEval-2013: {exc}")
        if isinstance(tables.get(system.name), str):
            notes.append(f"categories: {tables[system.name]}")
        row["note"] = "; ".join(notes)
        rows.append(row)
        if not doc_f1.get(system.name):
            doc_f1.pop(system.name, None)
    return rows, doc_f1, doc_tables


def _score_columns(metric: Any, gold: AnnotationSet, pred: AnnotationSet, inputs: ReportInputs,
                   row: dict[str, Any], notes: list[str], doc_f1: dict[str, float] | None
                   ) -> DocumentTable | None:
    """One metric's P, R, F1 and the bootstrap interval of F1 (its additive statistics,
    :mod:`core.metrics.additive`), into ``row``; a refusal into ``notes`` (and None
    returned); else the per-document statistics the values come from."""
    name = metric.short_title or metric.title
    keywords = metric.keywords(level=inputs.level, texts=inputs.texts, taxonomy=inputs.taxonomy,
                               variant=inputs.variants.get(metric.name))
    try:
        totals = metric.statistics(metric.gold_view(gold), pred, per_document=True, **keywords)
        result = metric.finish(totals, per_document=doc_f1 is not None, **keywords)
        doc_table = metric.document_table(totals)
        boot = doc_table.f1_table()
        row.update({f"{name} P": result["precision"], f"{name} R": result["recall"],
                    f"{name} F1": result["f1"]})
        if len(boot.documents) > 1:
            iv = bootstrap(boot.table, boot.statistic, n_resamples=inputs.n_resamples,
                           seed=inputs.seed)
            row.update({f"{name} F1 low": iv.low, f"{name} F1 high": iv.high})
        elif len(boot.documents) == 1:  # every resample is that document: no interval
            row.update({f"{name} F1 low": NO_INTERVAL, f"{name} F1 high": NO_INTERVAL})
        if doc_f1 is not None:
            doc_f1.update({d["document"]: d["f1"] for d in result["per_document"]})
    except SpanScopeError as exc:
        notes.append(f"{name}: {exc}")
        return None
    return doc_table


Tables = Mapping[str, ErrorTable | str]
"""System name -> its error categories, or why they could not be computed."""


def _scores_section(inputs: ReportInputs, score_rows: Sequence[Mapping[str, Any]]) -> str:
    from core.metrics import registry

    series = []
    for metric in (m.short_title or m.title for m in registry.span_metrics()):
        vals = [r.get(f"{metric} F1") for r in score_rows]
        ivs = [(r[f"{metric} F1 low"], r[f"{metric} F1 high"])
               if r.get(f"{metric} F1 low", NO_INTERVAL) != NO_INTERVAL else None
               for r in score_rows]
        series.append((f"{metric} F1", vals, ivs))
    return (
        "<section id='scores'><h2>Scores</h2><p>Da San Martino et al. (2019), "
        f"{_variant_words(inputs, 'martino', 'SemEval-2021 variant')}; MAFALDA (Helwe et al. "
        f"2024), {_variant_words(inputs, 'mafalda', 'paper variant')}, level {inputs.level}; "
        "SemEval-2013 strict and type F1 (nervaluate's schemas). Low/high: 95% percentile "
        f"bootstrap interval of F1 over documents ({inputs.n_resamples} resamples, seed "
        f"{inputs.seed}).{_few_documents(len(inputs.gold.spans))}</p>"
        + _chart(lambda width: svg_grouped_bars(
            [s.name for s in inputs.systems], series, title=f"F1 against {inputs.gold.name}",
            y_label="F1", width=width, own_defs=False))
        + html_table(score_rows) + "</section>")


def _compare_section(inputs: ReportInputs, doc_tables: DocTables) -> str:
    """Each system against the one with the best F1 under each span metric: the difference of
    F1, its paired bootstrap interval and both tests' p-values (:func:`core.analysis.
    significance.compare`, the numbers of ``table --compare``)."""
    from core.metrics import registry

    rows: list[dict[str, Any]] = []
    for metric in registry.span_metrics():
        by_system = {s.name: doc_tables.get(metric.name, {}).get(s.name)
                     for s in inputs.systems}
        scored = {n: t for n, t in by_system.items() if t is not None}
        if len(scored) < 2:
            continue
        f1 = {n: float(t.measures(len(t.documents))["F1"](t.table.sum(axis=0)[None, :])[0])
              for n, t in scored.items()}
        best = max(scored, key=lambda n: f1[n])  # the first of a tie
        for name, t in scored.items():
            if name == best:
                continue
            (c,) = compare(name, t, best, scored[best], n_resamples=inputs.n_resamples,
                           seed=inputs.seed, measures=("F1",))
            rows.append({"metric": metric.short_title or metric.title, "system": name,
                         "against": best, "F1 difference": c.difference,
                         "low": c.low, "high": c.high, "p randomization": c.p_randomization,
                         "p bootstrap": c.p_bootstrap})
    if not rows:
        return ""
    return (
        "<section id='compare'><h2>Which differences are real</h2><p>Under each span metric, "
        "each system against the one with the best F1: the difference of F1 (this system minus "
        "that one), its 95% paired bootstrap interval (the same document resamples for both), "
        "and two-sided p-values of approximate randomization (each document's two outputs "
        f"swapped at random; {inputs.n_resamples} rounds, seed {inputs.seed}; the smallest "
        f"possible is 1/{inputs.n_resamples + 1}) and of the paired bootstrap (none with fewer "
        f"than {FEW_DOCUMENTS} documents, where its p-value is anti-conservative). Not corrected "
        "for multiple comparisons. The same numbers as <code>python -m core table --compare"
        "</code>.</p>" + html_table(rows) + "</section>")


def _few_documents(documents: int) -> str:
    """The scores' caveat when their intervals rest on fewer than
    :data:`core.metrics.stats.FEW_DOCUMENTS` documents, else ``""``.

    >>> _few_documents(2)
    ' <strong>Only 2 documents</strong>: the intervals resample them, so they say little.'
    >>> _few_documents(20)
    ''
    """
    from core.metrics.stats import FEW_DOCUMENTS

    if documents >= FEW_DOCUMENTS:
        return ""
    if documents <= 1:
        return (f" <strong>Only {documents} document</strong>: every resample is that "
                f"document, so there is no interval ({NO_INTERVAL}).")
    return (f" <strong>Only {documents:,} documents</strong>: the intervals resample them, "
            "so they say little.")


def _categories_section(inputs: ReportInputs, tables: Tables) -> str:
    """Counts of every category, then the errors alone (``correct`` and ``optional`` left out,
    so that a good system's few errors are not slivers beside its correct spans) with each
    error's share of its side's errors (issue 27)."""
    cat_rows, bars, error_bars = [], [], []
    for s in inputs.systems:
        t = tables[s.name]
        if isinstance(t, str):
            continue
        ref, pred = t.counts("reference"), t.counts("prediction")
        bars.append((f"{s.name} · reference", ref))
        bars.append((f"{s.name} · prediction", pred))
        error_bars.append((f"{s.name} · reference", {c: ref.get(c, 0) for c in ERRORS}))
        error_bars.append((f"{s.name} · prediction", {c: pred.get(c, 0) for c in ERRORS}))
        n_errors = {side: sum(counts.get(c, 0) for c in ERRORS)
                    for side, counts in (("reference", ref), ("prediction", pred))}
        for cat in CATEGORIES:
            row: dict[str, Any] = {
                "system": s.name, "category": cat,
                "reference": ref.get(cat) if cat in REFERENCE_CATEGORIES else None,
                "prediction": pred.get(cat) if cat in PREDICTION_CATEGORIES else None}
            for side in ("reference", "prediction"):
                n = row[side]
                row[f"{side} % of errors"] = (
                    100 * n / n_errors[side] if cat in ERRORS and n is not None
                    and n_errors[side] else None)
            cat_rows.append(row)
    patterns = CATEGORY_PATTERNS
    return (
        "<section id='categories'><h2>Error categories</h2><p>Every reference span and every "
        "prediction takes one category from its best overlapping pair: correct (same "
        "boundaries and label), label (same boundaries, other label), boundary (overlap, same "
        "label), boundary+label (overlap, other label), missed, spurious, optional (an "
        "unpredicted reference span offering ⊥: not an error).</p>"
        + _chart(lambda width: svg_stacked_bars(
            bars, title="Spans by category", colours={c: ERROR_COLOURS[c] for c in CATEGORIES},
            patterns=patterns, width=width, own_defs=False))
        + "<p>The errors alone, on their own scale (correct and optional spans left out); the "
        "table gives each error's share of its side's errors.</p>"
        + _chart(lambda width: svg_stacked_bars(
            error_bars, title="Errors by category", colours={c: ERROR_COLOURS[c] for c in ERRORS},
            patterns=patterns, width=width, own_defs=False))
        + html_table(cat_rows) + "</section>")


PHONE_WIDTH = 360
"""Width (px) of a chart's second layout, which a screen narrower than 700 px shows in place of
the first: drawn for the width of a phone (390 px less the page's margins), its text keeps its
size; the first one, shrunk to fit there, wrote 10 px labels at 6 px (and scrolled sideways
before, cut at the screen's edge)."""


def _chart(draw: Callable[[int], str]) -> str:
    """A chart drawn twice (``draw(width)``, without its fill patterns: :data:`PATTERNS_SVG`
    holds them once for the page): 860 px wide for a screen, :data:`PHONE_WIDTH` for a phone;
    the page's style shows one (the other is not displayed, so not read out)."""
    wide = draw(860).replace('class="ss-chart"', 'class="ss-chart ss-wide"', 1)
    narrow = draw(PHONE_WIDTH).replace('class="ss-chart"', 'class="ss-chart ss-phone"', 1)
    return f"<div class='chart'>{wide}{narrow}</div>"


CATEGORY_PATTERNS = {c: PATTERNS[i % len(PATTERNS)] for i, c in enumerate(CATEGORIES)}
"""The fill pattern of each error category in the report's charts (the colour's second cue)."""

PATTERNS_SVG = ("<svg class='ss-defs' width='0' height='0' aria-hidden='true' "
                "focusable='false'>" + pattern_defs(
                    [*SERIES_PAIRS, *((CATEGORY_PATTERNS[c], ERROR_COLOURS[c])
                                      for c in CATEGORIES)]) + "</svg>")
"""The charts' fill patterns, once at the top of the report (each of its charts held them, twice:
about 1 KB a chart). Not ``display: none``, where a pattern draws nothing (the phone's charts,
which had theirs in the hidden screen chart under its ids, lost their second cue beside the
colour); a box of no size that takes no room (``CSS``)."""


def _kept_terms(inputs: ReportInputs, system: AnnotationSet,
                kept: dict[str, list[SpanTerm] | SpanScopeError]) -> list[SpanTerm]:
    """``system``'s span terms (:func:`~core.analysis.slices.slice_terms`), computed on the
    first call and kept in ``kept``; the error refusing them is kept and raised again."""
    if system.name not in kept:
        try:
            kept[system.name] = slice_terms(inputs.gold, system, metric=SLICE_METRIC,
                                            texts=inputs.texts,
                                            variant=inputs.variants.get(SLICE_METRIC))
        except SpanScopeError as exc:
            kept[system.name] = exc
    got = kept[system.name]
    if isinstance(got, SpanScopeError):
        raise got
    return got


def _slice_dimension(inputs: ReportInputs, dim: str,
                     terms: dict[str, list[SpanTerm] | SpanScopeError]) -> str:
    """One slice dimension's chart and table ("" when no system can be sliced by it).
    ``terms`` keeps each system's span terms (:func:`~core.analysis.slices.slice_terms`, or
    the error refusing them) between the span dimensions, which all pool the same terms."""
    results: dict[str, list[Any]] = {}
    for s in inputs.systems:
        try:
            results[s.name] = slice_scores(
                inputs.gold, s, dimension=dim, metric=SLICE_METRIC,
                variant=inputs.variants.get(SLICE_METRIC),
                texts=inputs.texts, metadata=inputs.metadata,
                n_resamples=inputs.n_resamples, seed=inputs.seed, intervals=("F1",),
                terms=_kept_terms(inputs, s, terms) if dim in SPAN_DIMENSIONS else None,
                bootstrap=inputs.bootstrap)
        except SpanScopeError:
            continue
    if not results:
        return ""
    buckets = list(dict.fromkeys(b.bucket for bs in results.values()
                                 for b in sorted(bs, key=lambda b: b.order)))
    ser: list[tuple[str, list[float | None], list[tuple[float, float] | None]]] = []
    rows: list[dict[str, Any]] = []
    for name, bs in results.items():
        by = {b.bucket: b for b in bs}
        ser.append((name, [by[k].f1 if k in by else None for k in buckets],
                    [by[k].intervals.get("F1") if k in by and len(by[k].documents) > 1
                     else None for k in buckets]))
        rows.extend({"system": name, "bucket": b.bucket, "documents": len(b.documents),
                     "reference spans": b.reference_spans,
                     "predicted spans": b.predicted_spans, "P": b.precision,
                     "R": b.recall, "F1": b.f1,
                     **({"F1 low": NO_INTERVAL, "F1 high": NO_INTERVAL}
                        if len(b.documents) <= 1 and "F1" in b.intervals else
                        {"F1 low": b.intervals.get("F1", (None, None))[0],
                         "F1 high": b.intervals.get("F1", (None, None))[1]})} for b in bs)
    return f"<h3>{esc(dim)}</h3>" + _chart(lambda width: svg_grouped_bars(
        buckets, ser, title=f"Martino F1 per {dim}", y_label="F1", width=width,
        own_defs=False)) + html_table(rows)


def _slice_dimensions(inputs: ReportInputs) -> list[str]:
    """The dimensions the report slices: the built-in ones, then every metadata field that
    can be sliced (:func:`~core.analysis.slices.meta_plan`)."""
    plan = meta_plan(inputs.metadata, inputs.gold.doc_ids)
    return [*DIMENSIONS, *(META_PREFIX + f.name for f in plan if f.kind != "skipped")]


def _slices_section(inputs: ReportInputs, steps: _Steps) -> str:
    plan = meta_plan(inputs.metadata, inputs.gold.doc_ids)
    dims = _slice_dimensions(inputs)
    skipped = [f for f in plan if f.kind == "skipped"]
    terms: dict[str, list[SpanTerm] | SpanScopeError] = {}
    slice_html = []
    variant = _chosen(inputs, SLICE_METRIC)
    for k, dim in enumerate(dims):
        steps.next(f"slices: {dim} ({k + 1} of {len(dims)})")
        slice_html.append(_slice_dimension(inputs, dim, terms))
    return (
        "<section id='slices'><h2>Slices</h2><p>Martino scores"
        f"{f' (variant <b>{esc(variant)}</b>)' if variant else ''} per bucket. A span-level "
        "bucket holds the pairs whose reference span (recall) or predicted span (precision) "
        "falls in it; a document-level bucket holds whole documents. Bucket edges come from "
        "the reference.</p>" + _shared_note(inputs) + (
            f"<p class='meta'>Metadata fields not sliced ({esc(META_RULE)}):</p>"
            "<ul class='meta'>"
            + "".join(f"<li><b>{esc(f.name)}</b>: {esc(f.why)}</li>" for f in skipped)
            + "</ul>" if skipped else "") + "".join(slice_html) + "</section>")


def _shared_note(inputs: ReportInputs) -> str:
    """What the slices' intervals resample, when not each bucket its own documents (the
    default report says nothing, so that it stays as it was)."""
    if inputs.bootstrap != "shared":
        return ""
    return (f"<p class='meta'>F1 low/high: 95% percentile bootstrap interval with <b>shared "
            f"resamples</b> ({inputs.n_resamples} resamples, seed {inputs.seed}): the "
            f"{len(inputs.gold.doc_ids):,} documents of the corpus are drawn once and each "
            "bucket scores the drawn documents it holds (their number varies from one resample "
            "to the next), one set of draws for every bucket. Without <code>--bootstrap "
            "shared</code> each bucket resamples its own documents; the two intervals differ, "
            "most in small buckets.</p>")


def _confusion_table(inputs: ReportInputs, system: AnnotationSet, tax: Taxonomy) -> str:
    from core.metrics.labels import confusion

    try:
        m = confusion(inputs.gold, AnnotationSet(system.name, system.spans, "system", False),
                      level=inputs.level, taxonomy=tax)
    except SpanScopeError as exc:
        return f"<p>{esc(system.name)}: {esc(exc)}</p>"
    peak = max([1, *m.counts.values()])
    head = "".join(f"<th class='col'>{esc(c)}</th>" for c in m.columns)
    body = []
    for r in m.rows:
        cells = []
        for c in m.columns:
            n = m.count(r, c)
            alpha = 0.08 + 0.72 * n / peak if n else 0
            cells.append(f"<td class='num' style='background:rgba(0,114,178,{alpha:.2f})'>"
                         f"{n or ''}</td>")
        body.append(f"<tr><th>{esc(r)}</th>{''.join(cells)}</tr>")
    return (f"<h3>{esc(system.name)}</h3><table class='confusion' tabindex='0'><thead><tr>"
            f"<th>reference \\ {esc(system.name)}</th>{head}</tr></thead><tbody>"
            f"{''.join(body)}</tbody></table>")


def _confusion_section(inputs: ReportInputs, taxes: Mapping[str, Taxonomy]) -> str:
    conf_html = [_confusion_table(inputs, s, taxes[s.name]) for s in inputs.systems]
    return ("<section id='confusion'><h2>Label confusion</h2><p>Every overlapping "
            "(reference, prediction) pair counts once in (reference label, predicted "
            "label); missed and spurious spans in their own row and column "
            "(core.metrics.labels.confusion).</p>" + "".join(conf_html) + "</section>")


Row = tuple[str, int, int, str, str]
"""A categorised span as the worst documents show it: side, start, end, label, category."""


def _rows_of(table: ErrorTable | str, docs: Sequence[str]) -> dict[str, list[Row]]:
    """The spans of ``docs`` in ``table`` (in the table's order), read from its columns: the
    table's ``spans`` would build an object per span of the corpus for the 20 documents shown
    (0.6 s at 10,000 documents), and a scan of them per document cost as much again."""
    if isinstance(table, str):
        return {}
    c = table.columns
    where = {d: i for i, d in enumerate(table.documents)}
    rows = np.flatnonzero(np.isin(c.doc, [where[d] for d in docs if d in where]))
    out: dict[str, list[Row]] = {}
    for r in rows.tolist():
        out.setdefault(table.documents[int(c.doc[r])], []).append(
            (SIDES[int(c.side[r])], int(c.start[r]), int(c.end[r]), c.names[int(c.label[r])],
             CATEGORIES[int(c.category[r])]))
    return out


def _worst_document(inputs: ReportInputs, rows_of: Mapping[str, Mapping[str, list[Row]]],
                    doc_f1: Mapping[str, Mapping[str, float]], d: str, heading: str) -> str:
    """Document ``d``: the reference and every system side by side, under ``heading`` (markup,
    after the document's id)."""
    gold = inputs.gold
    cols = []
    ref_spans = [(a.start, a.end, " | ".join(a.labels), "reference") for a in gold.alt_spans(d)]
    cols.append(f"<div><h4>{_bdi(gold.name)} (reference)</h4>"
                f"{render_spans(inputs.texts.get(d), ref_spans)}</div>")
    for s in inputs.systems:
        rows = rows_of[s.name].get(d, [])
        spans = [(start, end, label, cat) for side, start, end, label, cat in rows
                 if side == "prediction"]
        f1 = doc_f1.get(s.name, {}).get(d)
        missed = [f"[{start}, {end}) {_bdi(label)}" for side, start, end, label, cat in rows
                  if side == "reference" and cat == "missed"]
        cols.append(f"<div><h4>{_bdi(s.name)}"
                    f"{'' if f1 is None else f' · Martino F1 {f1:.3f}'}</h4>"
                    f"{render_spans(inputs.texts.get(d), spans)}"
                    f"<p class='meta'>missed: {'; '.join(missed) or 'none'}</p></div>")
    return (f"<article class='worst'><h3>Document {_bdi(d)} · {heading}</h3>"
            f"<div class='side' style='grid-template-columns:"
            f"repeat({len(cols)}, 1fr)'>{''.join(cols)}</div></article>")


def _worst_section(inputs: ReportInputs, tables: Tables,
                   doc_f1: Mapping[str, Mapping[str, float]]) -> str:
    gold = inputs.gold
    mean_f1 = {d: statistics.fmean([f[d] for f in doc_f1.values() if d in f])
               for d in gold.doc_ids if any(d in f for f in doc_f1.values())}
    worst = sorted(mean_f1, key=lambda d: (mean_f1[d], -len(gold.get(d))))[:WORST]
    rows_of = {s.name: _rows_of(tables[s.name], worst) for s in inputs.systems}
    doc_html = [_worst_document(inputs, rows_of, doc_f1, d, f"mean Martino F1 {mean_f1[d]:.3f}")
                for d in worst]
    return (f"<section id='worst'><h2>The {len(worst)} documents that score worst</h2>"
            f"<p>Lowest mean Martino F1 over the systems; spans underlined in the "
            f"colour of their category, tagged with its mark and their label. "
            f"{_legend()}</p>{''.join(doc_html)}</section>")


def _legend() -> str:
    return " ".join(f"<span class='tag' dir='ltr' style='border-color:{c}'>"
                    f"{esc(ERROR_MARKS[k])} {esc(k)}</span>" for k, c in ERROR_COLOURS.items())


def _disagree_section(inputs: ReportInputs, tables: Tables,
                      doc_f1: Mapping[str, Mapping[str, float]]) -> str:
    """The documents where the systems' Martino F1 differ most (highest minus lowest, among the
    systems that scored the document), side by side; "" with fewer than two systems or when
    they agree on every document."""
    spread: dict[str, tuple[float, str, str]] = {}
    for d in inputs.gold.doc_ids:
        scored = [(f[d], name) for name, f in doc_f1.items() if d in f]
        if len(scored) < 2:
            continue
        low, high = min(scored), max(scored, key=lambda x: x[0])
        if high[0] > low[0]:
            spread[d] = (high[0] - low[0], high[1], low[1])
    if not spread:
        return ""
    # The widest gap first; then the document with more reference spans, then its id.
    shown = sorted(spread, key=lambda d: (-spread[d][0], -len(inputs.gold.get(d)), d))[:DISAGREE]
    rows_of = {s.name: _rows_of(tables[s.name], shown) for s in inputs.systems}
    doc_html = []
    for d in shown:
        _, best, worst = spread[d]
        heading = (f"Martino F1 from {doc_f1[worst][d]:.3f} ({_bdi(worst)}) to "
                   f"{doc_f1[best][d]:.3f} ({_bdi(best)})")
        doc_html.append(_worst_document(inputs, rows_of, doc_f1, d, heading))
    return (f"<section id='disagree'><h2>Where the systems disagree</h2><p>The "
            f"{len(shown)} documents (of {len(spread)} on which the systems' Martino F1 differ) "
            "with the widest gap between the best and the worst system's F1; spans as below. "
            f"{_legend()}</p>{''.join(doc_html)}</section>")


def _provenance_section(command: str, taxes: Mapping[str, Taxonomy],
                        variants: Mapping[str, str] | None = None) -> str:
    vers = versions()
    # Only a chosen variant is a row: the default report's table stays as it was.
    chosen = "; ".join(f"{m} {v}" for m, v in (variants or {}).items())
    prov = html_table([{"what": "command", "value": command},
                       *({"what": k, "value": v} for k, v in vers.items()),
                       {"what": "generated (UTC)",
                        "value": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")},
                       {"what": "taxonomy", "value": _taxonomy_names(taxes)},
                       *([{"what": "variants", "value": chosen}] if chosen else [])])
    return f"<section id='provenance'><h2>How this report was made</h2>{prov}</section>"


def _taxonomy_names(taxes: Mapping[str, Taxonomy]) -> str:
    """The taxonomies' name, or each system's when they differ.

    >>> from core.model.taxonomy import flat, mafalda
    >>> _taxonomy_names({"a": mafalda(), "b": mafalda()})
    'MAFALDA'
    >>> _taxonomy_names({"a": mafalda(), "b": flat(["Doubt"])})
    'MAFALDA (a); labels of the data (b)'
    """
    names = {s: t.name for s, t in taxes.items()}
    if len(set(names.values())) <= 1:
        return next(iter(names.values()), "")
    return "; ".join(f"{n} ({s})" for s, n in names.items())


Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: the step starting (``stage``, e.g. ``slices: label (2 of
6)``) after ``done`` of ``total`` steps; called once more with ``done == total`` at the end."""


class _Steps:
    """The report's steps, counted for a :data:`Progress` callback (None: nothing is told)."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total, self.done, self.progress = total, 0, progress

    def next(self, stage: str) -> None:
        if self.progress is not None:
            self.progress(stage, self.done, self.total)
        self.done += 1

    def finish(self) -> None:
        if self.progress is not None:
            self.progress("done", self.total, self.total)


def build_report(inputs: ReportInputs, *, command: str, title: str = "SpanScope error report",
                 progress: Progress | None = None) -> str:
    """The report as one HTML string (module docstring). ``progress`` is told each step as it
    starts (:data:`Progress`): each system's error categories, each system's scores, each
    slice dimension, the label confusion and the worst documents; at 10,000 documents the
    slices take most of the time (the bootstrap draws of their buckets). A metric variant
    other than the default (``inputs.variants``) is named in the scores, the slices and the
    provenance."""
    gold, systems = inputs.gold, list(inputs.systems)
    check_variants(inputs.variants)
    inputs = replace(inputs, systems=systems)
    taxes = {s.name: taxonomy_of(inputs, s) for s in systems}
    several = len(systems) > 1
    steps = _Steps(2 * len(systems) + len(_slice_dimensions(inputs)) + 2 + 2 * several,
                   progress)
    tables: dict[str, ErrorTable | str] = {}
    for s in systems:
        steps.next(f"error categories of {s.name}")
        try:
            tables[s.name] = categorise(gold, s, level=inputs.level, taxonomy=taxes[s.name])
        except SpanScopeError as exc:
            tables[s.name] = str(exc)
    score_rows, doc_f1, doc_tables = _scores(inputs, tables, steps, taxes)
    sections = [_scores_section(inputs, score_rows)]
    if several:
        steps.next("paired comparisons")
        sections.append(_compare_section(inputs, doc_tables))
    sections += [_categories_section(inputs, tables), _slices_section(inputs, steps)]
    steps.next("label confusion")
    sections.append(_confusion_section(inputs, taxes))
    if several:
        steps.next("where the systems disagree")
        sections.append(_disagree_section(inputs, tables, doc_f1))
    steps.next("the worst documents")
    sections += [_worst_section(inputs, tables, doc_f1), _provenance_section(command, taxes, {
        m: v for m in inputs.variants if (v := _chosen(inputs, m)) is not None})]
    steps.finish()
    systems_list = ", ".join(esc(s.name) for s in systems)
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{esc(title)}</title><meta name='viewport' content='width=device-width'>"
        f"<style>{CSS}</style></head><body>{PATTERNS_SVG}<main><h1>{esc(title)}</h1>"
        f"<p class='meta'>Reference <b>{esc(gold.name)}</b> ({len(gold.doc_ids)} documents, "
        f"{_span_count(gold)}); systems: {systems_list}. Command: <code>{esc(command)}"
        f"</code></p>{''.join(sections)}</main></body></html>")


def _span_count(gold: AnnotationSet) -> str:
    """The reference's spans as the error categories count them: a gold with alternatives
    (MAFALDA) has one span per interval, whatever its labels and ⊥ (Helwe et al. 2024,
    Definition 6), so its labels are counted apart."""
    if not gold.alternatives:
        return f"{gold.span_count()} spans"
    spans = sum(len(gold.alt_spans(d)) for d in gold.doc_ids)
    if spans == gold.span_count():
        return f"{spans} spans"
    return f"{spans} spans; {gold.span_count()} labels counting alternatives and ⊥"


CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1200px;
color:#222;padding:0 16px}
h1{font-size:1.6em}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:36px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:0.85em;display:block;max-width:100%;
overflow-x:auto}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}td.na{color:#767676;text-align:center}
thead th{background:#f4f4f4}th.col{writing-mode:vertical-rl;transform:rotate(180deg);
max-height:180px}
.side{display:grid;gap:10px}.doc{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.9;
border:1px solid #ddd;border-radius:6px;padding:6px 8px;font-size:0.92em}
.tag{font-size:0.68em;font-weight:700;border:1px solid;border-left-width:4px;border-radius:3px;
padding:0 2px;margin-inline-end:2px;vertical-align:super;color:#222;unicode-bidi:isolate;
white-space:nowrap}
.meta{color:#555}code{overflow-wrap:anywhere}td,th{unicode-bidi:plaintext}
.chart{max-width:100%}svg.ss-chart{max-width:100%;height:auto;display:block;
margin:8px 0}svg.ss-phone{display:none}svg.ss-defs{position:absolute;width:0;height:0;
overflow:hidden}
article.worst{margin-bottom:22px}h4{margin:4px 0}
@media (max-width:700px){body{margin:12px auto;padding:0 10px}
.side{grid-template-columns:1fr !important}svg.ss-wide{display:none}
svg.ss-phone{display:block;width:100%}}
"""
