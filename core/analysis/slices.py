"""Slices: scores per bucket of spans or documents, with bootstrap intervals (ExplainaBoard-style).

What it measures
----------------
A *dimension* cuts the data into buckets and each bucket is scored with a span metric (Da San
Martino et al. 2019, ``martino``; Helwe et al. 2024, ``mafalda``), with a percentile bootstrap
interval over documents (:mod:`core.metrics.stats`). Fine-grained evaluation by bucket follows
ExplainaBoard (Liu et al. 2021) and Zeno's slices (Cabrera et al. 2023).

Span-level dimensions
    ``span_length`` (characters, quantile buckets), ``label``, ``label_frequency`` (rare /
    medium / frequent in the reference) and ``position`` (first / middle / last third of the
    document, by the span's midpoint).
Document-level dimensions
    ``doc_length`` (characters, quantile buckets), ``reference_spans`` (reference spans in the
    document, quantile buckets) and ``meta:<field>`` for every metadata field that can be sliced
    (the input's JSON records or a ``--meta`` CSV keyed by document id; :func:`meta_plan`).

Which metadata fields are sliced
--------------------------------
A field is a dimension when its values are categories: at most :data:`MAX_CATEGORIES` distinct
values over the reference's documents (a document without the field counts as ``(missing)``),
one of them held by at least :data:`MIN_DOCUMENTS` documents (else it names documents, it does
not group them). A numeric field that is not such a field is cut into quantile buckets like
``doc_length``. Any other field is skipped and named with the reason: lists and objects (and
strings holding JSON lists or objects, such as MAFALDA's ``sentences_with_labels``), free text
or identifiers (more values, or one value per document).

The bucket rule
---------------
**A span-level bucket holds the pairs whose reference span (for recall) or predicted span (for
precision) falls in it.** Precision in bucket B is the metric's precision terms of the predicted
spans in B over their number, recall the recall terms of the reference spans in B over theirs,
F1 their harmonic mean. For Martino a term is Σ_t C(s,t,|s|) of a prediction s (Σ_s C(s,t,|t|) of
a reference span t), so the numerators of the buckets of a dimension add up to the corpus's;
for MAFALDA it is the best match max C of the span under the chosen alternative (the terms of
its per-text sums, from :func:`core.metrics.mafalda.explain`), pooled over the bucket's spans
because a per-text average cannot be restricted to part of a text; ⊥ spans left out by the
metric are left out here, and so are repo-head's ranges between gold spans.
**A document-level bucket holds whole documents** and is the metric on that sub-corpus:
Martino pools the documents' sums, MAFALDA averages their per-text scores.

Bucket edges come from the *reference* (the reference spans' lengths, the reference documents),
so buckets are the same for every system and can be compared. Quantile buckets: the
``n_buckets``-quantiles of the reference values, rounded up to whole numbers, duplicates
dropped; a bucket is named by its integer range (``< 12``, ``12-30``, ``≥ 31``). Label
frequency: a label's number of reference spans (alternatives: each non-⊥ label of a span), the
labels' count tertiles split them (rare ≤ first tertile < medium ≤ second < frequent); a label
the reference never uses is rare. Position: midpoint (start + end) / 2 over the document length
(the text's, else the furthest span end). A reference span with alternatives is counted under
the alternative the metric matched (MAFALDA's recall choice), else its first non-⊥ label.

Intervals: documents are resampled (the unit of :mod:`core.metrics.stats`); for a span-level bucket
a resample pools the bucket's per-document sums, so the interval reflects the documents the
bucket's spans come from.

Citations: P. Liu et al. ExplainaBoard: An Explainable Leaderboard for NLP. ACL 2021 (demo).
Á. A. Cabrera et al. Zeno: An Interactive Framework for Behavioral Evaluation of Machine
Learning. CHI 2023. G. Da San Martino et al. EMNLP 2019. C. Helwe et al. MAFALDA. NAACL 2024.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.analysis.significance import Comparison, compare
from core.metrics import registry
from core.metrics.additive import DocumentTable, SpanTerm
from core.metrics.stats import bootstrap_many, martino_f1, martino_precision, martino_recall
from core.model import NOTHING, AnnotationSet
from core.model.errors import FormatError, InputError, KindedText, check_choice, did_you_mean
from core.model.taxonomy import Taxonomy, for_labels

METRICS = registry.SpanMetricNames()
"""The metrics a slice is scored with: every registered span metric (plugins included)."""
SPAN_DIMENSIONS = ("span_length", "label", "label_frequency", "position")
DOC_DIMENSIONS = ("doc_length", "reference_spans")
DIMENSIONS = SPAN_DIMENSIONS + DOC_DIMENSIONS
META_PREFIX = "meta:"
FREQUENCY_BUCKETS = ("rare", "medium", "frequent")
POSITION_BUCKETS = ("first third", "middle third", "last third")
MISSING = "(missing)"
MAX_CATEGORIES = 12
"""Most distinct values (``(missing)`` included) a metadata field may take to be sliced as
categories."""
MIN_DOCUMENTS = 2
"""Fewest documents the largest category of a categorical metadata field must hold."""
META_RULE = (f"a metadata field is sliced when it takes at most {MAX_CATEGORIES} values, one of "
             f"them shared by at least {MIN_DOCUMENTS} documents, or when it holds numbers "
             "(quantile buckets)")
"""The rule, as messages, the report and the Errors page state it."""
ID_COLUMNS = ("id", "document", "doc_id", "doc")
RECORD_SKIP = {"id", "text", "labels", "spans", "entities", "annotations", "label"}

Metadata = Mapping[str, Mapping[str, str]]
"""Document id -> field -> value."""


@dataclass(frozen=True)
class BucketScore:
    """One bucket of one dimension: its scores with intervals and what it holds."""

    dimension: str
    bucket: str
    order: int
    kind: str  # "span" or "document"
    documents: tuple[str, ...]
    reference_spans: int
    predicted_spans: int
    precision: float
    recall: float
    f1: float
    intervals: Mapping[str, tuple[float, float]]
    spans: tuple[tuple[str, str, int, int], ...] = ()
    """Span-level buckets: (document, side, start, end) of every span in the bucket."""
    table: DocumentTable | None = field(default=None, compare=False, repr=False)
    """The bucket's per-document statistics (what its interval resamples and a paired test
    swaps: :func:`compare_buckets`)."""

    def as_row(self, *, one_document_bounds: bool = True) -> dict[str, Any]:
        """The bucket as a tidy row. Without ``one_document_bounds`` a bucket of one document
        has no interval (every resample is that document): its bounds are None, their keys
        kept, as ``table --json`` writes them (the ``slices`` command)."""
        row: dict[str, Any] = {"dimension": self.dimension, "bucket": self.bucket,
                               "order": self.order, "kind": self.kind,
                               "documents": len(self.documents),
                               "reference spans": self.reference_spans,
                               "predicted spans": self.predicted_spans,
                               "P": self.precision, "R": self.recall, "F1": self.f1}
        one = len(self.documents) <= 1 and not one_document_bounds
        for name, (low, high) in self.intervals.items():
            row[f"{name} low"], row[f"{name} high"] = (None, None) if one else (low, high)
        return row


# ---- metadata ------------------------------------------------------------------------------


def read_meta_csv(path: str | Path) -> dict[str, dict[str, str]]:
    """A metadata CSV file: a column ``id`` (or ``document``, ``doc_id``, ``doc``) and any
    others (:func:`parse_meta_csv`)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise FormatError(str(p), f"cannot read the metadata: {exc.strerror}") from None
    return parse_meta_bytes(raw, str(p))


def parse_meta_bytes(data: bytes, source: str) -> dict[str, dict[str, str]]:
    """:func:`parse_meta_csv` of a file's bytes: text that is not UTF-8 is a
    :class:`FormatError` naming the line and the byte (the readers' check), as is any other
    problem (the command line's ``--meta`` and the Errors page's upload)."""
    from core.formats import decode

    return parse_meta_csv(decode(source, data), source)


def parse_meta_csv(text: str, source: str = "<metadata>") -> dict[str, dict[str, str]]:
    """Document id -> field -> value from CSV text; a :class:`FormatError` names ``source``,
    the line and the field of a problem.

    >>> parse_meta_csv("id,source\\n1,blog\\n")
    {'1': {'source': 'blog'}}
    """
    # newline=None: lines may end in CR alone (old spreadsheet exports), as csv.reader
    # expects of a file opened with newline="" only when quoted fields hold line breaks.
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=None))
    try:
        return _meta_rows(reader, source)
    except csv.Error as exc:  # a field over csv's limit (128 KiB), a NUL byte, ...
        from core.formats._common import csv_problem

        raise FormatError(source, csv_problem(exc), line=reader.line_num + 1) from None


def _meta_rows(reader: csv.DictReader[str], source: str) -> dict[str, dict[str, str]]:
    fields = reader.fieldnames or []
    id_col = next((c for c in fields if c.strip().lower() in ID_COLUMNS), None)
    if id_col is None:
        raise FormatError(source, f"expected a column naming the document ({', '.join(ID_COLUMNS)})"
                          f", got {', '.join(repr(f) for f in fields) or 'no header'}", line=1,
                          field="header")
    out: dict[str, dict[str, str]] = {}
    for row in reader:
        line = reader.line_num
        doc = (row.get(id_col) or "").strip()
        if not doc:
            raise FormatError(source, "empty document id", line=line, field=id_col)
        if doc in out:
            raise FormatError(source, f"document {doc!r} is listed twice", line=line,
                              field=id_col)
        # A column named as the dimension (meta:source) is the field source: the prefix
        # kept made the suggestion meta:meta:source.
        out[doc] = {k.strip().removeprefix(META_PREFIX): (v or "").strip()
                    for k, v in row.items() if k is not None and k != id_col}
    return out


def record_metadata(path: str | Path) -> dict[str, dict[str, str]]:
    """The fields of the records of a JSON array or JSON Lines file, beyond id, text and
    labels (e.g. ``source``, ``split``), as text (lists and objects as JSON, which
    :func:`meta_plan` never slices); ids as the readers give them (``id``, else the record's
    position). Other files give nothing (``{}``)."""
    p = Path(path)
    if p.is_dir() or p.suffix.lower() not in (".json", ".jsonl"):
        return {}
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError:
        return {}
    records: list[Any]
    try:
        if p.suffix.lower() == ".jsonl":
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
            records = data if isinstance(data, list) else []
    except (ValueError, RecursionError):  # the reader names what is wrong with the file
        return {}
    out: dict[str, dict[str, str]] = {}
    for i, rec in enumerate(records):
        if not isinstance(rec, dict):
            continue
        doc = str(rec["id"]) if "id" in rec else str(i)
        # Lists and objects are kept as JSON text: meta_plan names them and never slices them.
        fields = {str(k): v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
                  for k, v in rec.items() if k not in RECORD_SKIP and v is not None}
        if fields:
            out[doc] = fields
    return out


def meta_fields(metadata: Metadata | None) -> list[str]:
    """The metadata fields of any document, in first-seen order."""
    seen: dict[str, None] = {}
    for fields in (metadata or {}).values():
        seen.update(dict.fromkeys(fields))
    return list(seen)


@dataclass(frozen=True)
class MetaField:
    """How a metadata field is sliced: ``kind`` is ``categories``, ``numeric`` (quantile
    buckets) or ``skipped``, in which case ``why`` says why."""

    name: str
    kind: str
    why: str = ""


def _number(value: str) -> float | None:
    try:
        x = float(value)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def _json_kind(value: str) -> str | None:
    """``lists`` or ``objects`` when ``value`` is JSON text of one, else None."""
    head = value.lstrip()[:1]
    if head not in ("[", "{"):
        return None
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):  # not JSON, a number over 4,300 digits, too deep
        return None
    return "lists" if isinstance(parsed, list) else "objects" if isinstance(parsed, dict) \
        else None


def meta_field(metadata: Metadata, name: str, doc_ids: Sequence[str]) -> MetaField:
    """How field ``name`` of ``metadata`` is sliced over ``doc_ids`` (module docstring).

    >>> meta = {str(i): {"source": "blog" if i % 2 else "news", "note": f"n{i}"}
    ...         for i in range(20)}
    >>> meta_field(meta, "source", list(meta)).kind
    'categories'
    >>> meta_field(meta, "note", list(meta)).why
    'free text or identifiers: 20 distinct values over 20 documents (at most 12 are sliced)'
    """
    values = [(metadata.get(d) or {}).get(name) or MISSING for d in doc_ids]
    present = [v for v in values if v != MISSING]
    structured = {k for k in map(_json_kind, present) if k is not None}
    if structured:
        return MetaField(name, "skipped", f"its values are JSON {' and '.join(sorted(structured))}"
                         ", not categories")
    counts = Counter(values)
    shared = max(counts.values(), default=0) >= MIN_DOCUMENTS
    if len(counts) <= MAX_CATEGORIES and shared:
        return MetaField(name, "categories")
    if present and all(_number(v) is not None for v in present):
        return MetaField(name, "numeric")
    if len(counts) > MAX_CATEGORIES:
        return MetaField(name, "skipped", f"free text or identifiers: {len(counts)} distinct "
                         f"values over {len(values)} documents (at most {MAX_CATEGORIES} are "
                         "sliced)")
    return MetaField(name, "skipped", f"an identifier: each of the {len(values)} documents has "
                     "its own value")


def meta_plan(metadata: Metadata | None, doc_ids: Sequence[str] | None = None
              ) -> list[MetaField]:
    """Every metadata field, in first-seen order, with how it is sliced over ``doc_ids`` (the
    reference's documents; default: the documents of ``metadata``)."""
    metadata = metadata or {}
    docs = list(metadata) if doc_ids is None else list(doc_ids)
    return [meta_field(metadata, f, docs) for f in meta_fields(metadata)]


def skipped_note(field: MetaField) -> str:
    """The sentence that names a skipped field (warnings, the report, the Errors page), a
    warning of kind ``skipped``."""
    return KindedText(f"metadata field {field.name!r} is not sliced: {field.why}", "skipped")


def dimensions(metadata: Metadata | None = None, doc_ids: Sequence[str] | None = None
               ) -> list[str]:
    """Every dimension available: the built-in ones, then ``meta:<field>`` per field that can
    be sliced (:func:`meta_plan`)."""
    return [*DIMENSIONS, *(META_PREFIX + f.name for f in meta_plan(metadata, doc_ids)
                           if f.kind != "skipped")]


def check_dimension(dimension: str, metadata: Metadata | None,
                    doc_ids: Sequence[str] | None = None, *, source: str | None = None) -> None:
    """Raise :class:`InputError` unless ``dimension`` can be sliced; a skipped metadata field
    is named with the reason. ``source`` (the metadata file) starts the message of a
    ``meta:`` dimension, whose fields come from it."""
    plan = meta_plan(metadata, doc_ids)
    where = f"{source}: " if source and dimension.startswith(META_PREFIX) else ""
    if dimension.startswith(META_PREFIX):
        name = dimension[len(META_PREFIX):]
        field = next((f for f in plan if f.name == name), None)
        if field is not None and field.kind == "skipped":
            raise InputError(f"{where}{dimension} cannot be sliced: {field.why}; {META_RULE}")
    if dimension in dimensions(metadata, doc_ids):
        return
    usable = [META_PREFIX + f.name for f in plan if f.kind != "skipped"]
    skipped = [f.name for f in plan if f.kind == "skipped"]
    hint = did_you_mean(dimension, [*DIMENSIONS, *usable])
    raise InputError(f"{where}unknown dimension {dimension!r}: expected one of "
                     f"{', '.join(DIMENSIONS)}"
                     + (f" or {', '.join(usable)}" if usable else "")
                     + (f" (metadata fields not sliced: {', '.join(skipped)})" if skipped else "")
                     + (f"; {hint}" if hint else ""))


# ---- buckets -------------------------------------------------------------------------------


def quantile_cuts(values: Sequence[float], n_buckets: int) -> list[int]:
    """Integer cut points of ``n_buckets`` quantile buckets of ``values`` (module docstring).

    >>> quantile_cuts([1, 2, 3, 4, 5, 6, 7, 8], 4)
    [3, 5, 7]
    >>> quantile_cuts([5, 5, 5], 4)
    []
    """
    if not values or n_buckets < 2:
        return []
    qs = np.quantile(np.asarray(values, dtype=float), np.linspace(0, 1, n_buckets + 1)[1:-1])
    lo = min(values)
    return sorted({math.ceil(q) for q in qs if math.ceil(q) > lo})


def _range_namer(cuts: Sequence[int]) -> Callable[[float], tuple[int, str]]:
    def name(v: float) -> tuple[int, str]:
        k = int(np.searchsorted(np.asarray(cuts), v, side="right"))
        if not cuts:
            return 0, "all"
        if k == 0:
            return 0, f"< {cuts[0]}"
        if k == len(cuts):
            return k, f"≥ {cuts[-1]}"
        a, b = cuts[k - 1], cuts[k] - 1
        return k, f"{a}" if a == b else f"{a}-{b}"
    return name


def _doc_lengths(gold: AnnotationSet, pred: AnnotationSet,
                 texts: Mapping[str, str | None]) -> dict[str, int]:
    out = {}
    for doc in gold.doc_ids:
        text = texts.get(doc)
        out[doc] = len(text) if text is not None else max(
            (s.end for aset in (gold, pred) for s in aset.get(doc)), default=0)
    return out


def _frequency_namer(terms: Iterable[SpanTerm]) -> Callable[[str], tuple[int, str]]:
    counts = Counter(t.label for t in terms if t.side == "reference" and t.label != NOTHING)
    if not counts:
        return lambda label: (0, FREQUENCY_BUCKETS[0])
    q1, q2 = np.quantile(np.asarray(list(counts.values()), dtype=float), [1 / 3, 2 / 3])

    def name(label: str) -> tuple[int, str]:
        c = counts.get(label, 0)
        k = 0 if c <= q1 else 1 if c <= q2 else 2
        return k, FREQUENCY_BUCKETS[k]
    return name


def _span_bucketer(dimension: str, terms: Sequence[SpanTerm], lengths: Mapping[str, int],
                   n_buckets: int) -> Callable[[SpanTerm], tuple[int, str]]:
    if dimension == "span_length":
        ref = [t.end - t.start for t in terms if t.side == "reference"]
        namer = _range_namer(quantile_cuts(ref, n_buckets))
        return lambda t: namer(t.end - t.start)
    if dimension == "label":
        order = {lab: i for i, lab in enumerate(sorted({t.label for t in terms},
                                                       key=lambda x: (x == NOTHING, x.lower())))}
        return lambda t: (order[t.label], t.label)
    if dimension == "label_frequency":
        freq = _frequency_namer(terms)
        return lambda t: freq(t.label)

    def position(t: SpanTerm) -> tuple[int, str]:
        length = max(lengths.get(t.document, 0), t.end, 1)
        k = min(2, int(3 * ((t.start + t.end) / 2) / length))
        return k, POSITION_BUCKETS[k]
    return position


def _doc_bucketer(dimension: str, gold: AnnotationSet, lengths: Mapping[str, int],
                  metadata: Metadata | None, n_buckets: int
                  ) -> Callable[[str], tuple[int, str]]:
    if dimension == "doc_length":
        namer = _range_namer(quantile_cuts([lengths[d] for d in gold.doc_ids], n_buckets))
        return lambda d: namer(lengths[d])
    if dimension == "reference_spans":
        counts = {d: len(gold.alt_spans(d)) for d in gold.doc_ids}
        namer = _range_namer(quantile_cuts(list(counts.values()), n_buckets))
        return lambda d: namer(counts[d])
    field = dimension[len(META_PREFIX):]
    values = {d: (metadata or {}).get(d, {}).get(field) or MISSING for d in gold.doc_ids}
    present = [v for v in values.values() if v != MISSING]
    numbers = {v: _number(v) for v in present}
    if present and all(x is not None for x in numbers.values()):
        kind = meta_field(metadata or {}, field, gold.doc_ids).kind
        if kind == "numeric":
            namer = _number_namer([float(x) for x in numbers.values() if x is not None],
                                  n_buckets)
            last = n_buckets + 1

            def numeric(d: str) -> tuple[int, str]:
                x = numbers.get(values[d])
                return namer(x) if x is not None else (last, MISSING)
            return numeric

        def key(v: str) -> tuple[bool, float, str]:
            x = numbers.get(v)
            return (x is None, x if x is not None else 0.0, v)
    else:
        def key(v: str) -> tuple[bool, float, str]:
            return (v == MISSING, 0.0, v)
    order = {v: i for i, v in enumerate(sorted(set(values.values()), key=key))}
    return lambda d: (order[values[d]], values[d])


def _number_namer(values: Sequence[float], n_buckets: int) -> Callable[[float], tuple[int, str]]:
    """Quantile buckets of a numeric metadata field: whole numbers as ``doc_length`` names
    them, other numbers as half-open ranges with three significant digits.

    >>> name = _number_namer([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], 2)
    >>> name(0.2), name(0.6)
    ((0, '< 0.45'), (1, '≥ 0.45'))
    """
    if all(float(v).is_integer() for v in values):
        return _range_namer(quantile_cuts(values, n_buckets))
    qs = np.quantile(np.asarray(values, dtype=float), np.linspace(0, 1, n_buckets + 1)[1:-1])
    lo = min(values)
    cuts = sorted({float(f"{q:.3g}") for q in qs if float(f"{q:.3g}") > lo})

    def name(v: float) -> tuple[int, str]:
        k = int(np.searchsorted(np.asarray(cuts), v, side="right"))
        if not cuts:
            return 0, "all"
        if k == 0:
            return 0, f"< {cuts[0]:g}"
        if k == len(cuts):
            return k, f"≥ {cuts[-1]:g}"
        return k, f"[{cuts[k - 1]:g}, {cuts[k]:g})"
    return name


# ---- scoring -------------------------------------------------------------------------------


BOOTSTRAPS = ("per-slice", "shared")
"""How the buckets' intervals resample documents: ``per-slice`` draws each bucket's own
documents (the default); ``shared`` draws the corpus's documents once and each bucket keeps
those it holds, so every bucket, dimension and system uses the same draws (``docs/report.md``)."""


def _intervals(table: np.ndarray, stats: Mapping[str, Callable[[np.ndarray], np.ndarray]],
               n_resamples: int, seed: int, confidence: float, which: Sequence[str],
               shared: tuple[np.ndarray, int] | None = None) -> dict[str, tuple[float, float]]:
    """The bootstrap intervals of a bucket whose per-document ``table`` holds its documents;
    ``shared`` = (their rows in the corpus, the corpus's documents): the corpus is resampled
    and the bucket sums the draws of its own documents (a resample may hold none of them)."""
    if n_resamples <= 0 or len(table) == 0:
        return {}
    if shared is not None:
        rows, n_docs = shared
        whole = np.zeros((n_docs, table.shape[1]))
        whole[rows] = table
        table = whole
    chosen = {name: stat for name, stat in stats.items() if name in which}
    many = bootstrap_many(table, chosen, n_resamples=n_resamples, seed=seed,
                          confidence=confidence)
    return {name: (iv.low, iv.high) for name, iv in many.items()}


def _keywords(entry: registry.Metric, gold: AnnotationSet, pred: AnnotationSet, variant: str | None,
              level: int, texts: Mapping[str, str | None], taxonomy: Taxonomy | None
              ) -> dict[str, Any]:
    """The metric's keyword arguments as :func:`slice_scores` scores with them."""
    if "taxonomy" in entry.options and taxonomy is None:
        # As the dashboard does: MAFALDA's taxonomy when it knows every label, else flat.
        taxonomy = for_labels([*gold.labels(), *pred.labels()])
    return dict(entry.keywords(variant=variant or entry.default_variant, level=level,
                               texts=texts, taxonomy=taxonomy))


def slice_terms(gold: AnnotationSet, pred: AnnotationSet, *, metric: str = "martino",
                variant: str | None = None, level: int = 2,
                texts: Mapping[str, str | None] | None = None,
                taxonomy: Taxonomy | None = None) -> list[SpanTerm]:
    """The span terms :func:`slice_scores` pools for a span dimension, computed once for all of
    them (its ``terms``): they do not depend on the dimension. At 10,000 documents and 100,000
    spans per set, 2.3 s of CPU that the report paid once per span dimension."""
    check_choice("metric", "slice_terms", metric, METRICS)
    entry = registry.get(metric)
    keywords = _keywords(entry, gold, pred, variant, level, texts or {}, taxonomy)
    return entry.span_terms(gold, pred, **keywords)


def span_length_cuts(terms: Sequence[SpanTerm], n_buckets: int) -> list[int]:
    """The edges of ``span_length``'s buckets: quantiles of the reference terms' lengths
    (module docstring), as :func:`slice_scores` cuts them from ``terms``."""
    return quantile_cuts([t.end - t.start for t in terms if t.side == "reference"], n_buckets)


def slice_scores(gold: AnnotationSet, pred: AnnotationSet, *, dimension: str,
                 metric: str = "martino", variant: str | None = None, level: int = 2,
                 texts: Mapping[str, str | None] | None = None, taxonomy: Taxonomy | None = None,
                 metadata: Metadata | None = None, n_buckets: int = 4,
                 n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95,
                 terms: Sequence[SpanTerm] | None = None,
                 intervals: Sequence[str] = ("P", "R", "F1"),
                 bootstrap: str = "per-slice",
                 cuts: Sequence[int] | None = None) -> list[BucketScore]:
    """Scores of ``pred`` against ``gold`` per bucket of ``dimension`` (module docstring).

    ``taxonomy`` (MAFALDA) defaults to :func:`core.model.taxonomy.for_labels` of both sets' labels.
    ``intervals`` names the measures (P, R, F1) that get a bootstrap interval; ``bootstrap``
    how they resample (:data:`BOOTSTRAPS`). ``cuts``: the edges of ``span_length``'s buckets
    instead of ``pred``'s own reference terms' quantiles (:func:`span_length_cuts`; MAFALDA's
    reference terms depend on the alternative each system matched, so two systems' quantiles
    differ and ``slices --compare`` gives every system the compared system's edges).
    ``terms`` may pass the span terms already computed
    (:func:`~core.metrics.additive.martino_terms`, :func:`~core.metrics.additive.mafalda_terms`)
    when several dimensions are sliced. Buckets without any span or document are left out;
    buckets come in their natural order.

    >>> from core.model import Span
    >>> g = AnnotationSet("g", {"a": (Span(0, 4, "X"), Span(10, 30, "Y")), "b": ()})
    >>> p = AnnotationSet("p", {"a": (Span(0, 4, "X"), Span(10, 15, "Y")), "b": ()},
    ...                   role="system")
    >>> [(b.bucket, b.precision, b.recall) for b in slice_scores(g, p, dimension="label",
    ...                                                          n_resamples=0)]
    [('X', 1.0, 1.0), ('Y', 1.0, 0.25)]
    """
    check_choice("metric", "slice_scores", metric, METRICS)
    if dimension.startswith(META_PREFIX):
        check_dimension(dimension, metadata, gold.doc_ids)  # names a field that is skipped
    check_choice("dimension", "slice_scores", dimension, dimensions(metadata, gold.doc_ids))
    check_choice("bootstrap", "slice_scores", bootstrap, BOOTSTRAPS)
    entry = registry.get(metric)
    texts = texts or {}
    keywords = _keywords(entry, gold, pred, variant, level, texts, taxonomy)
    lengths = _doc_lengths(gold, pred, texts)
    if dimension in SPAN_DIMENSIONS:
        if terms is None:
            terms = entry.span_terms(gold, pred, **keywords)
        return _span_buckets(dimension, terms, lengths, gold.doc_ids, n_buckets,
                             (n_resamples, seed, confidence, intervals),
                             shared=bootstrap == "shared", cuts=cuts)
    bucket_doc = _doc_bucketer(dimension, gold, lengths, metadata, n_buckets)
    doc_groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    for d in gold.doc_ids:
        doc_groups[bucket_doc(d)].append(d)
    totals = entry.statistics(entry.gold_view(gold),
                              AnnotationSet(pred.name, pred.spans, "system", False),
                              per_document=True, **keywords)
    full = entry.document_table(totals)
    where = {d: i for i, d in enumerate(full.documents)}
    out: list[BucketScore] = []
    for (order, name), docs in sorted(doc_groups.items()):
        rows = [where[d] for d in docs]
        table = full.table[rows]
        stats = full.measures(len(docs))
        sums = table.sum(axis=0)[None, :]
        p, r, f1 = (float(s(sums)[0]) for s in stats.values())
        out.append(BucketScore(dimension, name, order, "document", tuple(docs),
                               int(full.references[rows].sum()),
                               int(full.predictions[rows].sum()), p, r, f1,
                               _intervals(table, stats, n_resamples, seed, confidence,
                                          intervals, (np.asarray(rows), len(full.documents))
                                          if bootstrap == "shared" else None),
                               table=DocumentTable(list(docs), table, full.references[rows],
                                                   full.predictions[rows], full.pooled)))
    return out


@dataclass(frozen=True)
class _TermColumns:
    """A list of span terms as columns (numpy arrays in the terms' order), so that a dimension
    names each distinct value once instead of each term (:func:`_span_buckets`)."""

    doc: np.ndarray  # position of the term's document in ``doc_ids``
    predicted: np.ndarray  # bool: a prediction (precision), else a reference span (recall)
    start: np.ndarray
    end: np.ndarray
    value: np.ndarray
    label: np.ndarray  # index into ``labels``
    labels: tuple[str, ...]
    spans: list[tuple[str, str, int, int]]


def _term_columns(terms: Sequence[SpanTerm], doc_index: Mapping[str, int]) -> _TermColumns:
    labels: dict[str, int] = {}
    n = len(terms)
    doc = np.fromiter((doc_index[t.document] for t in terms), dtype=np.int64, count=n)
    predicted = np.fromiter((t.side == "prediction" for t in terms), dtype=bool, count=n)
    start = np.fromiter((t.start for t in terms), dtype=np.int64, count=n)
    end = np.fromiter((t.end for t in terms), dtype=np.int64, count=n)
    value = np.fromiter((t.value for t in terms), dtype=np.float64, count=n)
    label = np.fromiter((labels.setdefault(t.label, len(labels)) for t in terms),
                        dtype=np.int64, count=n)
    spans = [(t.document, t.side, t.start, t.end) for t in terms]
    return _TermColumns(doc, predicted, start, end, value, label, tuple(labels), spans)


def _bucket_keys(dimension: str, terms: Sequence[SpanTerm], cols: _TermColumns,
                 lengths: Mapping[str, int], doc_ids: Sequence[str], n_buckets: int,
                 cuts: Sequence[int] | None = None
                 ) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """Each term's bucket as an index into the returned (order, name) list: the buckets
    :func:`_span_bucketer` gives, its function called once per distinct value (a length, a
    label, a third) rather than once per term; ``cuts``: ``span_length``'s edges, when given
    (:func:`span_length_cuts`)."""
    if dimension in ("label", "label_frequency"):
        bucket_of = _span_bucketer(dimension, terms, lengths, n_buckets)
        names = [bucket_of(SpanTerm("", "", 0, 0, lab, 0.0)) for lab in cols.labels]
        return cols.label, names
    if dimension == "span_length":
        ref = (cols.end - cols.start)[~cols.predicted]
        namer = _range_namer(quantile_cuts(ref.tolist(), n_buckets) if cuts is None else cuts)
        values, inverse = np.unique(cols.end - cols.start, return_inverse=True)
        return inverse.reshape(-1), [namer(int(v)) for v in values.tolist()]
    # position: as _span_bucketer's, min(2, int(3 * midpoint / length)) in the same float steps
    doc_length = np.fromiter((lengths.get(d, 0) for d in doc_ids), dtype=np.int64,
                             count=len(doc_ids))
    length = np.maximum(np.maximum(doc_length[cols.doc], cols.end), 1)
    third = np.minimum(2, (3 * ((cols.start + cols.end) / 2) / length).astype(np.int64))
    return third, [(k, POSITION_BUCKETS[k]) for k in range(3)]


def _span_buckets(dimension: str, terms: Sequence[SpanTerm], lengths: Mapping[str, int],
                  doc_ids: Sequence[str], n_buckets: int,
                  boot: tuple[int, int, float, Sequence[str]], *, shared: bool = False,
                  cuts: Sequence[int] | None = None) -> list[BucketScore]:
    """Span-level buckets (module docstring, "The bucket rule"): each pools the terms of its
    spans, per document, as (p_num, p_den, r_num, r_den). Computed on columns of the terms
    (:func:`_term_columns`): each document's sums add its terms in their order, as a loop over
    the terms did, so the numbers are the same to the last bit (``tests/analysis/
    test_slices.py``); 220,000 terms took 3 s of CPU per dimension in that loop."""
    n_resamples, seed, confidence, intervals = boot
    doc_index = {d: i for i, d in enumerate(doc_ids)}
    cols = _term_columns(terms, doc_index)
    keys, names = _bucket_keys(dimension, terms, cols, lengths, doc_ids, n_buckets, cuts)
    stats = {"P": martino_precision, "R": martino_recall, "F1": martino_f1}
    out: list[BucketScore] = []
    # Distinct values that name the same bucket (two lengths in one range) are one bucket;
    # the terms by bucket, each bucket's terms in their order (a stable sort).
    buckets = sorted(set(names))
    at = {b: i for i, b in enumerate(buckets)}
    remap = np.asarray([at[nm] for nm in names], dtype=np.int64)
    bucket = remap[keys] if len(keys) else keys
    by_bucket = np.argsort(bucket, kind="stable")
    bounds = np.flatnonzero(np.diff(bucket[by_bucket])) + 1
    chunks = np.split(by_bucket, bounds) if len(by_bucket) else []
    for members in chunks:
        order, name = buckets[int(bucket[members[0]])]
        member_docs = cols.doc[members]
        docs_at = np.unique(member_docs)
        row = np.searchsorted(docs_at, member_docs)
        pred = cols.predicted[members]
        ref = ~pred
        m = len(docs_at)
        table = np.zeros((m, 4))
        table[:, 0] = np.bincount(row[pred], weights=cols.value[members][pred], minlength=m)
        table[:, 1] = np.bincount(row[pred], minlength=m)
        table[:, 2] = np.bincount(row[ref], weights=cols.value[members][ref], minlength=m)
        table[:, 3] = np.bincount(row[ref], minlength=m)
        sums = table.sum(axis=0)[None, :]
        p, r, f1 = (float(s(sums)[0]) for s in stats.values())
        docs = tuple(doc_ids[i] for i in docs_at.tolist())
        out.append(BucketScore(dimension, name, order, "span", docs, int(sums[0, 3]),
                               int(sums[0, 1]), p, r, f1,
                               _intervals(table, stats, n_resamples, seed, confidence,
                                          intervals,
                                          (docs_at, len(doc_ids)) if shared else None),
                               tuple(cols.spans[i] for i in members.tolist()),
                               DocumentTable(list(docs), table, table[:, 3].astype(np.int64),
                                             table[:, 1].astype(np.int64), True)))
    return out


def _on_documents(t: DocumentTable, documents: Sequence[str]) -> DocumentTable:
    """``t`` over ``documents`` (a superset of its own): a document it lacks adds a row of
    zeros, which changes no pooled sum (a span-level bucket holds the documents where one
    system has a span of it, so two systems' buckets may hold different documents)."""
    if list(t.documents) == list(documents):
        return t
    if not t.pooled:  # averaged per document: only reordered (by the paired test), never padded
        if set(t.documents) != set(documents):
            raise ValueError("a bucket averaged over its documents holds the same documents "
                             "for every system")
        return t
    where = {d: i for i, d in enumerate(t.documents)}
    table = np.zeros((len(documents), t.table.shape[1]))
    refs = np.zeros(len(documents), dtype=np.int64)
    preds = np.zeros(len(documents), dtype=np.int64)
    for k, d in enumerate(documents):
        if d in where:
            table[k], refs[k], preds[k] = t.table[where[d]], t.references[where[d]], \
                t.predictions[where[d]]
    return DocumentTable(list(documents), table, refs, preds, t.pooled)


def compare_buckets(results: Sequence[tuple[str, Sequence[BucketScore]]], against: int, *,
                    n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95
                    ) -> dict[tuple[int, str], Comparison]:
    """Per bucket, each system's F1 against the F1 of ``results[against]``, with the paired
    tests of :func:`core.analysis.significance.compare` over the documents either system's
    bucket holds; (position of the system in ``results``, bucket) -> the F1 comparison, for
    the buckets both systems have (systems are keyed by position: two may share a name).
    A document-level bucket holds the same documents for every system (they come from the
    reference), a span-level one pools sums, so a document only one holds is a row of zeros."""
    against_name, against_buckets = results[against]
    base = {b.bucket: b for b in against_buckets}
    out: dict[tuple[int, str], Comparison] = {}
    for k, (system, buckets) in enumerate(results):
        if k == against:
            continue
        for b in buckets:
            other = base.get(b.bucket)
            if other is None or b.table is None or other.table is None:
                continue
            # In the bucket's own order (the resamples draw rows by position), then the
            # documents only the other system's bucket holds.
            own = set(b.table.documents)
            docs = [*b.table.documents, *(d for d in other.table.documents if d not in own)]
            (out[(k, b.bucket)],) = compare(
                system, _on_documents(b.table, docs), against_name,
                _on_documents(other.table, docs), n_resamples=n_resamples, seed=seed,
                confidence=confidence, measures=("F1",))
    return out


def slice_table(results: Mapping[str, Sequence[BucketScore]]) -> list[dict[str, Any]]:
    """Tidy rows (system first) of several systems' buckets."""
    return [{"system": system, **b.as_row()} for system, buckets in results.items()
            for b in buckets]
