"""Scoring a sharded corpus on a Dask cluster: map each shard to additive statistics, reduce.

``python -m core score GOLD PRED --engine dask`` and ``agree DIR ... --engine dask`` come here
(``docs/scale.md``). A corpus too large for one process is split into *shards*: files that each
hold whole documents (Parquet spans tables, or JSONL with one document per line: MAFALDA,
doccano, spaCy). Each shard is read and scored by a worker with the same readers and the same
metric functions as the single-machine path; the worker returns the metric's *additive*
statistics, and the client adds them up and applies the metric's own finishing formula, all
through the registry entry (:mod:`core.metrics.additive`: ``statistics``, ``combine``,
``finish``), so a registered plugin metric runs here too:

* Da San Martino: Σ C(s,t,|s|), |S|, Σ C(s,t,|t|), |T| pooled, per label and per document
  (:class:`~core.metrics.martino.MartinoResult`, whose P/R/F1 come from
  :func:`~core.metrics.result.prf`). Micro pooling is a sum over documents, so shards add.
* MAFALDA: per-text P, R, F1 and label-only P, R, F1 are averaged over the texts, so a shard
  gives its number of texts and the sums of the six values; the corpus mean is sum / count.
* character κ and Jaccard: the 2×2 counts (n11, n10, n01, n00) per annotator pair, per label,
  position-only and per document
  (:func:`~core.metrics.agreement.measures.char_pair_values` finishes them). A label that a
  shard never saw has all of that shard's characters in n00, which the reduction adds.

Sums of floating-point numbers in another order differ in the last bits only: the tests require
equality with the single-machine run to 1e-12.

Layout of the input
-------------------
``GOLD`` and ``PRED`` are folders of shards paired by file name (``gold/part-0007.parquet`` with
``pred/part-0007.parquet``), or the same folder whose shards hold both sets in a ``set`` column
(``--gold-set``, ``--pred-set`` name them). A document lives in one shard: its gold and its
predictions are in shards of the same name, and a document found in two shards is an error. A
shard is any regular file of the folder except Parquet texts tables (``*.texts.parquet``, read
with their spans table), hidden files and ``*.md`` / ``*.txt``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import resource
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.formats import Loaded, ReadOptions, load_files, load_path, read_file_with_companions
from core.model import AnnotationSet, Span
from core.model.bounds import Policy
from core.model.errors import (
    Diagnostic,
    InputError,
    KindedText,
    SpanScopeError,
    UsageError,
    did_you_mean,
    expand,
    expand_diagnostics,
    kind_counts,
    warning_kind,
    warning_total,
)

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

    from core.metrics.agreement import PairwiseResult
    from core.model.alignment import Alignment

KEPT_WARNINGS = 100
"""Warnings a shard sends back in full (the JSON output keeps 100); all are counted by kind."""
DASK_MEASURES = ("char-kappa", "char-jaccard")
"""Agreement measures ``agree --engine dask`` computes."""
NOT_SHARDS = (".md", ".txt")


# ---- shards ----------------------------------------------------------------------------------


def shard_files(folder: str | Path) -> list[Path]:
    """The shards of a folder (module docstring), sorted by name; a file is one shard."""
    p = Path(folder)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise InputError(f"{p}: no such file or folder")
    out = [f for f in sorted(p.iterdir()) if f.is_file() and not f.name.startswith(".")
           and not f.name.lower().endswith(".texts.parquet")
           and f.suffix.lower() not in NOT_SHARDS]
    if not out:
        raise InputError(f"{p}: the folder holds no shard")
    return out


def pair_shards(gold: str | Path, pred: str | Path) -> list[tuple[Path, Path]]:
    """Gold and prediction shards paired by file name; the same folder pairs each with itself."""
    g, p = shard_files(gold), shard_files(pred)
    if Path(gold).resolve() == Path(pred).resolve():
        return [(s, s) for s in g]
    if len(g) == 1 and len(p) == 1 and Path(gold).is_file():
        return [(g[0], p[0])]
    by_name = {f.name: f for f in p}
    only_gold = [f.name for f in g if f.name not in by_name]
    only_pred = sorted(set(by_name) - {f.name for f in g})
    if only_gold or only_pred:
        raise InputError(f"{gold} and {pred} must hold shards of the same names: "
                         f"{len(only_gold)} only in {gold} ({', '.join(only_gold[:5]) or '-'}); "
                         f"{len(only_pred)} only in {pred} ({', '.join(only_pred[:5]) or '-'})")
    return [(f, by_name[f.name]) for f in g]


def group_shards(inputs: Sequence[str | Path]) -> list[list[Path]]:
    """Agreement inputs: one folder (sets in a ``set`` column) or one folder per annotator,
    shards grouped by file name."""
    lists = [shard_files(i) for i in inputs]
    if len(lists) == 1:
        return [[s] for s in lists[0]]
    if all(Path(i).is_file() for i in inputs):  # whole files: one study, read as one machine
        return [[Path(i) for i in inputs]]
    names = [f.name for f in lists[0]]
    for i, files in enumerate(lists[1:], start=1):
        if [f.name for f in files] != names:
            raise InputError(f"{inputs[0]} and {inputs[i]} must hold shards of the same names")
    return [[files[k] for files in lists] for k in range(len(names))]


SHARD_SUFFIX = {"parquet": ".parquet", "semeval2021": ".json", "mafalda": ".jsonl",
                "doccano": ".jsonl", "spacy": ".jsonl", "spans-csv": ".csv"}
"""The file suffix of a shard per format that can be sharded (one file per shard)."""


def write_shards(sets: Sequence[AnnotationSet], texts: Mapping[str, str | None],
                 folder: str | Path, *, shards: int, to: str = "parquet",
                 csv_raw: bool = False, order: object = None) -> list[str]:
    """Split a corpus into ``shards`` files of consecutive documents (``part-00000.parquet``
    ...) in ``folder``, each with every set's spans of its documents; the messages of
    :func:`core.formats.tools.write_sets`. ``python -m core convert IN OUT --to parquet --shards
    N``. Every shard is written, or none (:func:`core.formats.atomic.commit`). ``order``: the
    input's records (the gold labels' file order of a MAFALDA file, which parquet and mafalda
    shards keep: :func:`core.formats.tools.render_sets`)."""
    from core.formats.atomic import Output, commit
    from core.formats.tools import render_sets

    if shards < 1:
        raise UsageError(f"--shards must be at least 1, got {shards}")
    if to not in SHARD_SUFFIX:
        raise UsageError(f"shards are written as {', '.join(SHARD_SUFFIX)}; got {to!r}")
    docs = list(dict.fromkeys([*(d for s in sets for d in s.spans), *texts]))
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: shards are written into a folder, but this is a file")
    messages: list[str] = []
    outputs: dict[Path, Output] = {}
    size, extra = divmod(len(docs), shards)
    lo = 0
    for k in range(shards):
        hi = lo + size + (1 if k < extra else 0)
        part = set(docs[lo:hi])
        sub = [AnnotationSet(s.name, {d: v for d, v in s.spans.items() if d in part}, s.role,
                             s.alternatives) for s in sets]
        sub_texts = {d: texts.get(d) for d in docs[lo:hi]}
        files, notes = render_sets(sub, out / f"part-{k:05d}{SHARD_SUFFIX[to]}", to=to,
                                   texts=sub_texts, csv_raw=csv_raw, order=order)
        outputs.update(files)
        messages.extend(n for n in notes if n not in messages)
        lo = hi
    commit(outputs)
    return messages


def convert_to_shards(input: str | Path, output: str | Path, *, to: str, shards: int,
                      from_format: str | None = None, set_name: str | None = None,
                      labels_file: str | Path | None = None,
                      options: ReadOptions | None = None, csv_raw: bool = False) -> list[str]:
    """``convert INPUT OUTPUT --to FORMAT --shards N``: read INPUT, write N shards into the
    folder OUTPUT; the messages to show (warnings, losses, a summary). ``labels_file``: a
    label list or doccano label config (:func:`core.formats.tools.read_options_for_labels`), over
    the other reader ``options``."""
    from core.formats.atomic import check_writable
    from core.formats.tools import read_options_for_labels

    check_writable(output, folder=True)
    loaded = load_path(input, fmt=from_format,
                       options=read_options_for_labels(labels_file, options))
    sets = list(loaded.sets)
    if set_name is not None:
        sets = [s for s in sets if s.name == set_name]
        if not sets:
            names = ", ".join(repr(s.name) for s in loaded.sets)
            hint = did_you_mean(set_name, [s.name for s in loaded.sets])
            raise InputError(f"{input}: no annotation set named {set_name!r}; sets: {names}"
                             + (f"; {hint}" if hint else ""))
    # every warning, a reader's group of one kind listed one by one, as convert says them
    messages: list[str] = [KindedText(f"warning: {d}", d.kind)
                           for d in expand_diagnostics(loaded.diagnostics)]
    messages.extend(write_shards(sets, loaded.texts, output, shards=shards, to=to,
                                 csv_raw=csv_raw, order=loaded.records))
    docs = len({d for s in sets for d in s.spans})
    spans = sum(s.span_count() for s in sets)
    messages.append(f"wrote {docs} documents, {spans} spans "
                    f"({', '.join(s.name for s in sets)}) as {shards} {to} shards to {output}")
    return messages


# ---- what a worker sends back ----------------------------------------------------------------


@dataclass
class ShardOutcome:
    """One shard's statistics, or the error that stopped it (sent back, not raised, so that the
    message keeps its file, row and field)."""

    shard: str
    stats: Any = None
    documents: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    warning_counts: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    labels: tuple[list[str], list[str]] = ([], [])  # gold's and predictions', as the metric reads
    used_labels: list[str] = field(default_factory=list)  # both sets' labels, as read
    worker: str = ""
    peak_rss: int = 0  # bytes, the worker process's peak resident set so far
    seconds: float = 0.0  # reading and scoring the shard on its worker
    matched: dict[str, str] = field(default_factory=dict)
    """Predictions matched to the gold by their text: the digest of each gold text one was moved
    onto (:func:`_digest`) -> that gold document (the client checks it is once in the gold)."""
    text_counts: dict[str, int] = field(default_factory=dict)
    gold_warnings: int = 0
    """How many of :attr:`warnings`, the first ones, are the gold's (the client lists every
    shard's gold warnings before the predictions', as one machine does)."""
    disjoint: bool = False
    """The metric warned that no predicted label of the shard occurs in its gold (a shard's
    warning, not the corpus's: :func:`score_sharded` warns once for the whole corpus)."""
    """:func:`count_gold_texts`: how many gold documents of the shard hold each asked text."""


def _warnings(found: Sequence[Diagnostic | str], keep: int | None) -> tuple[list[str],
                                                                           dict[str, int]]:
    """The first ``keep`` of ``found`` as text that names its kind (a
    :class:`~core.model.errors.KindedText` pickles with it, so the client lists them with their
    kinds) and the count of all of them by kind. A reader's grouped diagnostic is ``count``
    warnings, listed one by one (:func:`~core.model.errors.expand`) and counted so, as
    ``warning_counts`` counts them on one machine (it was one warning here: review17)."""
    every = expand(found)
    shown = every if keep is None else itertools.islice(every, keep)
    return [KindedText(str(w), warning_kind(w)) for w in shown], dict(kind_counts(found))


def _process() -> tuple[str, int]:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    try:
        from distributed import get_worker

        return get_worker().address, peak
    except (ImportError, ValueError):
        return f"pid {os.getpid()}", peak


# ---- score: one shard ------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreJob:
    """Everything a worker needs to score one shard pair (plain values: it is pickled)."""

    metric: str
    gold: str
    pred: str
    gold_format: str | None = None
    pred_format: str | None = None
    gold_set: str | None = None
    pred_set: str | None = None
    variant: str | None = None
    level: int | None = None
    merge_pred: bool = False
    fragments_only: bool = False
    labels: tuple[str, ...] | None = None
    taxonomy: str | None = None
    taxonomy_labels: tuple[str, ...] | None = None
    """The corpus's labels, when the client asks the shard to resolve the taxonomy on them rather
    than on its own (:func:`rescore_taxonomy`)."""
    llm_parsing: str = "paper-2023"
    beyond_text: Policy = "refuse"
    per_document: bool = False
    all_warnings: bool = False
    options: ReadOptions = field(default_factory=ReadOptions)
    """The command line's reader options (``--layer`` ..., doccano's label ids); the labels,
    role, gold document ids and policy of each file are set from the fields above."""


def _pick(loaded: Loaded, name: str | None, side: str, source: str) -> AnnotationSet:
    if name is None:
        if len(loaded.sets) != 1:
            names = ", ".join(repr(s.name) for s in loaded.sets)
            raise InputError(f"{source}: the shard holds {len(loaded.sets)} sets ({names}); "
                             f"name the {side} with --{side}-set")
        return loaded.sets[0]
    for s in loaded.sets:
        if s.name == name:
            return s
    names = ", ".join(repr(s.name) for s in loaded.sets)
    hint = did_you_mean(name, [s.name for s in loaded.sets])
    raise InputError(f"{source}: no annotation set named {name!r} (--{side}-set); sets: {names}"
                     + (f"; {hint}" if hint else ""))


def _digest(text: str | None) -> str:
    """A short fingerprint of a text as documents are matched (whitespace aside,
    :func:`core.model.alignment.text_key`), sent to the client instead of the text."""
    import hashlib

    from core.model.alignment import text_key

    return hashlib.blake2b((text_key(text) or "").encode(), digest_size=12).hexdigest()


def _load_gold(job: ScoreJob) -> Loaded:
    return load_path(job.gold, fmt=job.gold_format, options=replace(
        job.options, labels=list(job.labels) if job.labels is not None else None, role="gold",
        beyond_text=job.beyond_text))


def _load_pair(job: ScoreJob, matched: dict[str, str] | None = None
               ) -> tuple[AnnotationSet, AnnotationSet, dict[str, object],
                          list[Diagnostic | str], int]:
    """Read one shard pair as :func:`core.cli.loading.load_span_inputs` reads GOLD and PRED
    (same readers, policy, label list, hooks), with the label list fixed by the client; the
    gold texts that predictions were moved onto by their text go to ``matched``. Last: how many
    of the warnings, the first ones, are the gold's."""
    from core.engines.inputs import check_pair, matched_to_gold, pred_read_options
    from core.metrics import registry
    from core.plugins import load_formats

    load_formats()  # a worker process reads the formats of installed plugins too
    metric = registry.get(job.metric)
    labels = list(job.labels) if job.labels is not None else None
    policy = job.beyond_text
    gold_loaded = _load_gold(job)
    gold = _pick(gold_loaded, job.gold_set, "gold", job.gold)
    gold = metric.gold_view(gold)
    warnings: list[Diagnostic | str] = list(gold_loaded.diagnostics)
    if job.pred == job.gold and job.pred_format == job.gold_format:
        pred_loaded = gold_loaded  # one shard holds both sets (a set column)
    else:
        read = pred_read_options(labels=labels, gold=gold, policy=policy,
                                 llm_parsing=job.llm_parsing,  # type: ignore[arg-type]
                                 options=job.options)
        pred_loaded = load_path(job.pred, fmt=job.pred_format, options=read)
        warnings.extend(pred_loaded.diagnostics)
        # ids that do not meet the gold's but texts that do: matched as score matches them, in
        # this shard pair; the client checks that each text is once in the whole gold, as one
        # machine requires (score_sharded)
        read_ids = list(pred_loaded.texts)
        pred_loaded, note = matched_to_gold(gold_loaded, pred_loaded, job.pred)
        warnings.extend(note)
        if matched is not None and note:
            matched.update((_digest(gold_loaded.texts.get(new)), new)
                           for old, new in zip(read_ids, pred_loaded.texts, strict=True)
                           if old != new)
    pred = _pick(pred_loaded, job.pred_set, "pred", job.pred)
    if pred_loaded is gold_loaded:
        pred = pred.with_role("system")
        gold = gold.with_role("gold")
    variant = str(metric.keywords(variant=job.variant).get("variant"))
    # The taxonomy resolved on the shard's labels; the client scores the shard again on the
    # corpus's labels when their classes differ (rescore_taxonomy).
    checked = check_pair(metric, gold=gold, pred=pred, pred_source=job.pred,
                         gold_loaded=gold_loaded, pred_loaded=pred_loaded, policy=policy,
                         variant=variant, labels=labels, taxonomy_path=job.taxonomy,
                         say_outside=False)  # said once by the client (finish_taxonomy)
    warnings.extend(checked.warnings)
    pred, taxonomy, extra = checked.pred, checked.taxonomy, checked.extra
    if taxonomy is not None and job.taxonomy_labels is not None:
        from core.model.taxonomy import resolve

        taxonomy = resolve(job.taxonomy_labels, job.taxonomy)
    options = {"variant": job.variant, "level": job.level, "merge_pred": job.merge_pred or None,
               "fragments_only": job.fragments_only or None, "labels": labels,
               "texts": dict(gold_loaded.texts), "taxonomy": taxonomy, **extra}
    return (gold, pred, metric.keywords(**options), warnings,
            warning_total(gold_loaded.diagnostics))  # the gold's warnings, listed one by one


def score_shard(job: ScoreJob) -> ShardOutcome:
    """Read and score one shard pair on a worker: its additive statistics (module docstring)."""
    out = ShardOutcome(job.gold)
    started = time.perf_counter()
    try:
        gold, pred, keywords, warnings, gold_warnings = _load_pair(job, out.matched)
        from core.metrics import registry

        metric = registry.get(job.metric)
        totals = metric.statistics(gold, pred, per_document=job.per_document, **keywords)
        out.used_labels = sorted({*gold.labels(), *pred.labels()})
        from core.metrics.martino import DISJOINT_LABELS

        # A shard's labels may be disjoint where the corpus's are not: the client warns once,
        # from every shard's labels (score_sharded)
        out.disjoint = any(DISJOINT_LABELS in str(w) for w in totals.warnings)
        warnings.extend(w for w in totals.warnings if DISJOINT_LABELS not in str(w))
        totals.warnings = []  # sent once, in out.warnings
        out.warnings, out.warning_counts = _warnings(
            warnings, None if job.all_warnings else KEPT_WARNINGS)
        out.gold_warnings = min(gold_warnings, len(out.warnings))
        out.documents = list(totals.documents)
        if metric.default_labels is not None:
            out.labels = (metric.label_view(gold), metric.label_view(pred))
        out.stats = totals
    except SpanScopeError as exc:
        out.error = str(exc)
    out.seconds = time.perf_counter() - started
    out.worker, out.peak_rss = _process()
    return out


def count_gold_texts(job: tuple[ScoreJob, frozenset[str]]) -> ShardOutcome:
    """How many gold documents of one shard hold each of the texts asked (by :func:`_digest`)."""
    score_job, digests = job
    out = ShardOutcome(score_job.gold)
    try:
        from core.plugins import load_formats

        load_formats()
        for text in _load_gold(score_job).texts.values():
            key = _digest(text)
            if key in digests:
                out.text_counts[key] = out.text_counts.get(key, 0) + 1
    except SpanScopeError as exc:
        out.error = str(exc)
    return out


def _check_matched_texts(client: Client, jobs: Sequence[ScoreJob],
                         outcomes: Sequence[ShardOutcome]) -> None:
    """Refuse predictions matched by their text in their shard pair to a gold text that another
    gold document also holds: one machine matches whole files and never guesses between two
    documents of one text (:func:`core.model.alignment.onto`), so it would not match them."""
    matched = {key: (o.shard, doc) for o in outcomes for key, doc in o.matched.items()}
    if not matched:
        return
    counts: Counter[str] = Counter()
    for o in run_jobs(client, count_gold_texts, [(j, frozenset(matched)) for j in jobs]):
        counts.update(o.text_counts)
    twice = next((key for key in matched if counts[key] > 1), None)
    if twice is not None:
        shard, doc = matched[twice]
        raise InputError(f"{shard}: predictions matched to the gold by their text, but gold "
                         f"document {doc!r} shares its text with {counts[twice] - 1:,} other "
                         "gold document(s), so the match would be a guess (one machine refuses "
                         "it too); give the predictions the gold's document ids")


# ---- reductions ------------------------------------------------------------------------------


def _check_documents(outcomes: Sequence[ShardOutcome]) -> int:
    """Refuse a document found in two shards; the number of documents."""
    seen: dict[str, str] = {}
    for o in outcomes:
        for d in o.documents:
            if d in seen:
                raise InputError(f"document {d!r} is in two shards, {seen[d]} and {o.shard}; "
                                 "each document must be in one shard")
            seen[d] = o.shard
    return len(seen)


def rescore_taxonomy(client: Client, jobs: Sequence[ScoreJob],
                     outcomes: Sequence[ShardOutcome], path: str | None) -> list[ShardOutcome]:
    """Every shard scored with the corpus's taxonomy. One machine resolves it on the labels of
    the whole corpus (:func:`core.model.taxonomy.resolve`), each shard on its own: a shard of 8
    of the corpus's 18 propaganda techniques resolves to one class per label as the corpus
    does (same classes, same numbers), but a shard of MAFALDA fallacies alone in a corpus of
    other labels resolves to MAFALDA's groups. The shards whose classes differ
    (:func:`core.model.taxonomy.same_classes`) are scored again with the corpus's labels."""
    from core.model.taxonomy import resolve, same_classes

    corpus = sorted({lab for o in outcomes for lab in o.used_labels})
    whole = resolve(corpus, path)
    again = [i for i, o in enumerate(outcomes)
             if not same_classes(resolve(o.used_labels, path), whole, o.used_labels)]
    if not again:
        return list(outcomes)
    redone = run_jobs(client, score_shard, [_with(jobs[i], taxonomy_labels=tuple(corpus))
                                            for i in again])
    out = list(outcomes)
    for i, o in zip(again, redone, strict=True):
        o.seconds += outcomes[i].seconds
        out[i] = o
    return out


def finish_taxonomy(outcomes: Sequence[ShardOutcome], path: str | None
                    ) -> tuple[str, list[str]]:
    """The taxonomy of the whole run, named as ``score`` names it, and the warning of labels
    outside MAFALDA's taxonomy (:func:`core.engines.inputs.outside_warning`): resolved on the
    labels of every shard (:func:`core.model.taxonomy.resolve`), as one machine resolves it on
    the whole corpus's (no shard says it: a shard of fallacies and one of other labels each
    see no stray)."""
    from core.engines.inputs import outside_warning
    from core.model.taxonomy import describe, resolve

    used = sorted({lab for o in outcomes for lab in o.used_labels})
    whole = resolve(used, path)
    return describe(whole), outside_warning(whole, used)


def _shards_warnings(outcomes: Sequence[ShardOutcome], warnings: list[str],
                     counts: Counter[str], taxonomy: str | bool | None) -> str | None:
    """Add every shard's warnings to ``warnings`` (and their kinds to ``counts``), the gold's
    first, then the predictions', as on one machine, then the taxonomy's
    (:func:`finish_taxonomy`, its file ``taxonomy`` when the metric has one, else False); the
    taxonomy's name, or None."""
    for o in outcomes:
        warnings.extend(o.warnings[:o.gold_warnings])
        counts.update(o.warning_counts)
    for o in outcomes:
        warnings.extend(o.warnings[o.gold_warnings:])
    if taxonomy is False:
        return None
    name, why = finish_taxonomy(outcomes, taxonomy if isinstance(taxonomy, str) else None)
    warnings.extend(why)
    counts.update(warning_kind(w) for w in why)
    return name


# ---- the cluster -----------------------------------------------------------------------------


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, *, workers: int | None = None
                ) -> Iterator[Client]:
    """A client of the cluster at ``scheduler`` (``tcp://host:8786``), or of a
    ``distributed.LocalCluster`` started for the run (one process per worker, one thread each)
    and closed after it."""
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - a pinned runtime dependency
        raise UsageError("--engine dask needs dask and distributed: pip install "
                         "'dask[distributed]'") from exc
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as exc:
            raise InputError(f"--scheduler {scheduler}: cannot reach the scheduler: {exc}"
                             ) from None
        with client:
            yield client
        return
    n = workers or max(1, min(os.cpu_count() or 1, 4))
    with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        yield client


NO_WORKER_S = 60.0
"""Seconds the client waits for shards while the scheduler has no worker at all (a
``--scheduler`` whose workers were never started, or all ended) before it gives up with an
error: Dask itself waits for a worker to join for ever, and the command never returned. A
minute leaves a worker that starts with the command, or restarts, time to join."""
WORKERS_LOOK_S = 1.0
"""Seconds between two looks at the scheduler's workers while the shards are computed."""


def run_jobs(client: Client, func: Any, jobs: Sequence[Any]) -> list[ShardOutcome]:
    """Map ``func`` over ``jobs`` on the cluster, results in job order; the first shard error is
    raised on the client as an :class:`InputError` (its message names file, row and field), and
    so is a scheduler left without any worker for :data:`NO_WORKER_S` while shards wait."""
    futures = client.map(func, list(jobs), pure=False)
    pending = list(futures)
    alone_since: float | None = None
    while pending:
        try:
            # a shard's exception is raised here, as client.gather would raise it
            pending[0].result(timeout=WORKERS_LOOK_S)
            pending.pop(0)
            continue
        except TimeoutError:  # shards still running, or waiting for a worker
            pass
        now = time.monotonic()
        if client.nthreads():
            alone_since = None
        elif alone_since is None:
            alone_since = now
        elif now - alone_since >= NO_WORKER_S:
            client.cancel(futures)
            raise InputError(f"the Dask scheduler has had no worker for {NO_WORKER_S:g} s "
                             f"with {len(futures)} shard jobs waiting: start workers for it "
                             "(dask worker ADDRESS), or leave out --scheduler to run on a "
                             "cluster of this machine")
    outcomes: list[ShardOutcome] = client.gather(futures)
    for o in outcomes:
        if o.error is not None:
            raise InputError(o.error)
    return outcomes


def engine_report(client: Client, outcomes: Sequence[ShardOutcome], scheduler: str | None
                  ) -> dict[str, Any]:
    """The ``engine`` key of the output: where it ran, shards, peak memory per worker (and,
    from :func:`score_sharded`, the seconds spent mapping the shards and reducing)."""
    peaks: dict[str, int] = {}
    for o in outcomes:
        peaks[o.worker] = max(peaks.get(o.worker, 0), o.peak_rss)
    return {"name": "dask", "scheduler": scheduler or "local",
            "workers": len(client.scheduler_info().get("workers", {})),
            "shards": len(outcomes),
            "shard_seconds": round(sum(o.seconds for o in outcomes), 3),
            "worker_peak_rss_mib": {w: round(b / 2**20, 1) for w, b in sorted(peaks.items())}}


# ---- score, end to end -----------------------------------------------------------------------


@dataclass
class ShardedScore:
    """What ``score --engine dask`` prints: the result object, warnings (first ones) and their
    counts by kind over every shard."""

    result: dict[str, Any]
    warnings: list[str]
    warning_counts: dict[str, int]
    total_warnings: int


def score_sharded(gold: str | Path, pred: str | Path, *, metric: str, client: Client,
                  scheduler: str | None = None, variant: str | None = None,
                  level: int | None = None, labels: Sequence[str] | None = None,
                  **job_options: Any) -> ShardedScore:
    """Score a sharded corpus on ``client`` (module docstring); the result has the keys of the
    single-machine ``score --json`` plus ``engine``."""
    from core.metrics import registry

    entry = registry.get(metric)
    computed = dask_metrics()
    if metric not in computed:
        raise UsageError(f"--engine dask computes {', '.join(computed)}; {metric!r} runs "
                         "on one machine (leave out --engine)")
    keywords = entry.keywords(variant=variant, level=level)
    if keywords.get("variant") in entry.protocol.whole_file_variants:
        raise UsageError(f"{keywords.get('variant')} pairs label rows by their position in the "
                         "whole file, which shards do not keep; use semeval2020-tc-by-article")
    pairs = pair_shards(gold, pred)
    base = ScoreJob(metric=metric, gold="", pred="", variant=variant, level=level,
                    labels=tuple(labels) if labels is not None else None, **job_options)
    jobs = [_with(base, gold=str(g), pred=str(p)) for g, p in pairs]
    warnings: list[str] = []
    counts: Counter[str] = Counter()
    started = time.perf_counter()
    outcomes = run_jobs(client, score_shard, jobs)
    if "taxonomy" in entry.options:
        outcomes = rescore_taxonomy(client, jobs, outcomes, base.taxonomy)
    mapped = time.perf_counter()
    chosen = list(labels) if labels is not None else None
    if labels is None and entry.default_labels is not None:
        # The single-machine run picks the list from the whole gold, then reads the predictions
        # with it: so does the client, from the labels every shard reports.
        used = sorted({lab for o in outcomes for lab in o.labels[0]})
        probe = AnnotationSet(Path(str(gold)).name, {"": tuple(Span(0, 1, x) for x in used)})
        chosen, why = entry.default_labels(str(keywords.get("variant")), probe)
        warnings.extend(why)
        counts.update(warning_kind(w) for w in why)
        if chosen is not None:
            from core.formats._common import check_label

            for o, job in zip(outcomes, jobs, strict=True):
                for lab in o.labels[1]:
                    check_label(lab, chosen, job.pred, field="label")
    taxonomy = _shards_warnings(outcomes, warnings, counts, base.taxonomy
                                if "taxonomy" in entry.options else False)
    if chosen is None and any(o.disjoint for o in outcomes):
        from core.metrics.martino import disjoint_labels

        # the single machine's warning, from the labels of the whole corpus
        sides = [AnnotationSet(Path(str(path)).name, {"": tuple(Span(0, 1, x) for x in sorted(
                     {lab for o in outcomes for lab in o.labels[k]}))})
                 for k, path in enumerate((gold, pred))]
        why = disjoint_labels(*sides)
        warnings.extend(why)
        counts.update(warning_kind(w) for w in why)
    _check_documents(outcomes)
    _check_matched_texts(client, jobs, outcomes)
    totals = entry.combine([o.stats for o in outcomes], labels=chosen)
    result = entry.finish(totals, per_document=base.per_document, **keywords)
    if "llm_parsing" in entry.read_options:
        result["llm_parsing"] = base.llm_parsing if base.pred_format == "mafalda-llm" else None
    if taxonomy is not None:
        result["taxonomy"] = taxonomy
    report = engine_report(client, outcomes, scheduler)
    report["seconds"] = {"map": round(mapped - started, 3),
                         "reduce": round(time.perf_counter() - mapped, 3)}
    result["engine"] = report
    return ShardedScore(result, warnings, dict(counts), sum(counts.values()))


def dask_metrics() -> list[str]:
    """Metrics ``score --engine dask`` computes: the span metrics, whose statistics add up over
    documents (:mod:`core.metrics.additive`), registered plugins included."""
    from core.metrics import registry

    return [m.name for m in registry.span_metrics()]


def _with(job: ScoreJob, **changes: Any) -> ScoreJob:
    from dataclasses import replace

    return replace(job, **changes)


# ---- agreement: char-kappa and char-Jaccard --------------------------------------------------


Counts = tuple[int, int, int, int]


@dataclass(frozen=True)
class AgreeJob:
    """One group of shards (one per input folder, same name) to read as one agreement study."""

    files: tuple[str, ...]
    names: tuple[str, ...]
    fmt: str | None = None
    label: str | None = None
    beyond_text: Policy = "refuse"
    unit_set: bool = False
    options: ReadOptions = field(default_factory=ReadOptions)
    """The command line's reader options (``--layer`` ...); the policy is ``beyond_text``."""
    whole: bool = False
    """The inputs are whole files, not folders of shards: the job is the whole study, read as
    one machine reads it (documents matched by their text, sets named as read)."""


@dataclass
class CharCounts:
    """A shard's character-level counts per annotator pair (additive over documents)."""

    annotators: list[str]
    labels: list[str]
    per_label: dict[tuple[str, str], dict[str, Counts]]
    position: dict[tuple[str, str], Counts]
    length: dict[tuple[str, str], int]  # characters of the documents both cover
    per_document: dict[tuple[str, str], dict[str, Counts]]  # pooled over the shard's labels
    doc_length: dict[str, int]
    warnings: list[str]
    covered: dict[str, list[str]] = field(default_factory=dict)
    """Each annotator's documents in the shard (the study's order): who lacks which document
    is known only from every shard (:func:`study_warnings`)."""
    used: dict[str, list[str]] = field(default_factory=dict)
    """Each annotator's labels in the shard: labels that differ only in case are found over
    every shard (:func:`study_warnings`)."""
    inputs: list[list[str]] = field(default_factory=list)
    """Each input's documents in the shard (their ids once matched): which documents match no
    other input's is known only from every shard (:func:`alignment`)."""
    renamed: list[dict[str, str]] = field(default_factory=list)
    """Each input's documents renamed to another input's of the same text (whole files)."""


def _same(c: Counts) -> Counts:
    return c


def _swap(c: Counts) -> Counts:
    """The counts of the pair (b, a) from those of (a, b): n10 and n01 trade places."""
    return (c[0], c[2], c[1], c[3])


def _add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def char_shard(job: AgreeJob) -> ShardOutcome:
    """Read one shard group as an agreement study; its character counts per pair."""
    from itertools import combinations

    from core.engines.inputs import aligned_inputs, annotator_sets, read_annotators
    from core.metrics.agreement.study import POSITION, Study, char_tables
    from core.plugins import load_formats

    load_formats()
    out = ShardOutcome(job.files[0])
    try:
        options = replace(job.options, beyond_text=job.beyond_text)
        if job.whole:  # as one machine reads the files (core.engines.inputs.aligned_inputs)
            every, matched = aligned_inputs(
                job.files, [load_path(p, fmt=job.fmt, options=options) for p in job.files])
            renamed = list(matched.renamed)
        else:
            # Named as the default engine names the whole folder (load_path of the folder): a
            # shard without a `set` column holds one set called after its folder, never after
            # the shard's file (docs/scale.md), so one annotator's shards stay one annotator.
            every = [load_files(read_file_with_companions(Path(path)), fmt=job.fmt,
                                name=str(Path(path).parent), options=options)
                     for path in job.files]
            renamed = [{} for _ in job.files]
        # as load_annotator_sets reads them (core.engines.inputs.read_annotators): the readers'
        # warnings, one id one text, the one policy for spans past the text
        one = len(job.files) > 1 and not job.whole
        found, texts, more = read_annotators(
            job.files, every, job.beyond_text,
            names=[name if one and len(loaded.sets) == 1 else None
                   for name, loaded in zip(job.names, every, strict=True)])
        sets = (annotator_sets(found) if job.whole
                else [s.with_role("annotator", s.name) for _, s in found])
        study = Study.from_sets(sets, texts, label=job.label, unit_set=job.unit_set)
        labels = study.labels
        counts = CharCounts(study.annotators, labels, {}, {}, {}, {},
                            dict(study.lengths), [*more, *study.warnings],
                            {a: [d for d in study.docs if d in study.spans[a]]
                             for a in study.annotators},
                            {a: study.table(a).used_labels() for a in study.annotators},
                            [list(loaded.texts) for loaded in every], renamed)
        for a, b in combinations(study.annotators, 2):
            tables = char_tables(study, a, b)
            zero: Counts = (0, 0, 0, 0)
            per_label = {lab: zero for lab in labels}
            position = zero
            per_doc: dict[str, Counts] = {}
            for doc, t in tables.items():
                flat = zero
                for lab in labels:
                    per_label[lab] = _add(per_label[lab], t[lab])
                    flat = _add(flat, t[lab])
                position = _add(position, t[POSITION])
                per_doc[doc] = flat
            counts.per_label[(a, b)] = per_label
            counts.position[(a, b)] = position
            counts.length[(a, b)] = sum(study.lengths[d] for d in tables)
            counts.per_document[(a, b)] = per_doc
        out.stats = counts
        out.documents = list(study.docs)
        out.warnings, out.warning_counts = _warnings(counts.warnings, None)
    except SpanScopeError as exc:
        out.error = str(exc)
    out.worker, out.peak_rss = _process()
    return out


def finish_char(parts: Sequence[CharCounts], *, label: str | None = None
                ) -> tuple[PairwiseResult, PairwiseResult]:
    """Character κ and Jaccard of the whole corpus from the shards' counts: what
    :func:`~core.metrics.agreement.char_agreement` gives on the unsharded study."""
    from itertools import combinations

    from core.metrics.agreement import PairwiseResult
    from core.metrics.agreement.measures import char_pair_values

    annotators = list(dict.fromkeys(a for p in parts for a in p.annotators))
    if len(annotators) < 2:  # the words of the default engine (core.cli.loading)
        raise InputError(f"agreement needs at least two annotation sets; the input holds "
                         f"{len(annotators)} ({', '.join(annotators) or 'none'})")
    labels = [label] if label is not None else sorted({x for p in parts for x in p.labels})
    kappas = {}
    jaccards = {}
    for a, b in combinations(annotators, 2):
        per_label: dict[str, Counts] = {lab: (0, 0, 0, 0) for lab in labels}
        position: Counts = (0, 0, 0, 0)
        per_doc: dict[str, Counts] = {}
        for p in parts:
            if (a, b) in p.per_label:
                key, turn = (a, b), _same
            elif (b, a) in p.per_label:  # the shard lists the two annotators the other way
                key, turn = (b, a), _swap
            else:
                continue
            for lab in labels:
                # A label the shard never saw: all its characters are n00 (nobody marked it).
                c = p.per_label[key].get(lab, (0, 0, 0, p.length[key]))
                per_label[lab] = _add(per_label[lab], turn(c))
            position = _add(position, turn(p.position[key]))
            missing = len(labels) - len(p.labels)
            for doc, c in p.per_document[key].items():
                c = turn(c)
                per_doc[doc] = (c[0], c[1], c[2], c[3] + missing * p.doc_length[doc])
        kappas[(a, b)], jaccards[(a, b)] = char_pair_values(per_label, position, per_doc)
    docs = {"documents": sum(len(p.doc_length) for p in parts)}
    return (PairwiseResult("char-kappa", annotators, kappas, params=docs),
            PairwiseResult("char-jaccard", annotators, jaccards, params=docs))


def agree_sharded(inputs: Sequence[str | Path], *, client: Client, fmt: str | None = None,
                  label: str | None = None, beyond_text: Policy = "refuse",
                  unit_set: bool = False, options: ReadOptions | None = None
                  ) -> tuple[list[ShardOutcome], PairwiseResult, PairwiseResult]:
    """Character κ and Jaccard of a sharded study (:func:`finish_char`); the Python API of
    ``agree --engine dask``; each worker reads its files with ``options`` (the command line's
    reader options) under ``beyond_text``."""
    groups = group_shards(inputs)
    names = tuple(Path(str(i)).name for i in inputs)
    whole = len(inputs) > 1 and all(Path(str(i)).is_file() for i in inputs)
    jobs = [AgreeJob(tuple(str(f) for f in g), names, fmt, label, beyond_text, unit_set,
                     options or ReadOptions(), whole)
            for g in groups]
    outcomes = run_jobs(client, char_shard, jobs)
    _check_documents(outcomes)
    kappa, jaccard = finish_char([o.stats for o in outcomes], label=label)
    return outcomes, kappa, jaccard


def alignment(parts: Sequence[CharCounts], names: Sequence[str]) -> Alignment:
    """How the inputs' documents met, from every shard (:class:`~core.model.alignment.Alignment`
    as one machine gives it): the documents each input renamed (whole files, matched by their
    text on the worker), and those of each input that no other input holds (folders of shards
    meet by id). Its notes and ``as_dict`` are ``agree``'s warnings and ``alignment`` key."""
    from core.model.alignment import Alignment
    docs: list[dict[str, None]] = [{} for _ in names]
    renamed: list[dict[str, str]] = [{} for _ in names]
    for p in parts:
        for i, ids in enumerate(p.inputs):
            docs[i].update(dict.fromkeys(ids))
        for i, moves in enumerate(p.renamed):
            renamed[i].update(moves)
    owners: Counter[str] = Counter(d for ids in docs for d in ids)
    unmatched = tuple(() if len(names) < 2 else tuple(d for d in ids if owners[d] == 1)
                      for ids in docs)
    return Alignment(tuple(names), tuple(renamed), unmatched)


def study_warnings(parts: Sequence[CharCounts]) -> list[str]:
    """The warnings ``agree`` gives about the whole study, from every shard's counts, worded as
    one machine words them (``core.cli.agree``): labels that differ only in case or surrounding
    spaces (:func:`~core.metrics.agreement.study.label_variants`), then each annotator that
    lacks documents another has (:func:`~core.metrics.agreement.study.missing_documents`); a
    shard alone cannot tell, since an annotator may have no file in it."""
    import numpy as np

    from core.metrics.agreement.study import label_variants_of, missing_documents_of

    annotators = list(dict.fromkeys(a for p in parts for a in p.annotators))
    used: dict[str, set[str]] = {a: set() for a in annotators}
    docs: dict[str, None] = {}
    have: dict[str, set[str]] = {a: set() for a in annotators}
    for p in parts:
        for a, labels in p.used.items():
            used[a].update(labels)
        for a, covered in p.covered.items():
            docs.update(dict.fromkeys(covered))
            have[a].update(covered)
    labels = sorted({x for p in parts for x in p.labels})
    order = list(docs)
    coverage = np.array([[d in have[a] for d in order] for a in annotators],
                        dtype=bool).reshape(len(annotators), len(order))
    return (label_variants_of(labels, annotators, used)
            + missing_documents_of(annotators, order, coverage))


def split_warnings(outcomes: Sequence[ShardOutcome]) -> tuple[list[str], dict[str, int]]:
    """Every shard's warnings (as kept) and their counts by kind."""
    found: list[str] = []
    counts: Counter[str] = Counter()
    for o in outcomes:
        found.extend(o.warnings)
        counts.update(o.warning_counts)
    return found, dict(counts)


__all__ = ["DASK_MEASURES", "AgreeJob", "CharCounts", "ScoreJob", "ShardOutcome",
           "ShardedScore", "agree_sharded", "alignment", "dask_client", "dask_metrics",
           "finish_char", "group_shards", "pair_shards", "score_shard", "score_sharded",
           "shard_files", "split_warnings", "study_warnings", "write_shards"]
