"""``--engine dask``: ``score`` and ``agree`` over folders of shards on a Dask cluster
(:mod:`core.engines.sharded`, ``docs/scale.md``). The default engine, ``single``, is the
one-process path and ignores everything here."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from core.cli.common import (
    JSON_WARNINGS,
    SHOWN_WARNINGS,
    Renderer,
    Result,
    flag_message,
    jsonable,
    read_options,
)
from core.model import bounds
from core.model.errors import UsageError, warning_kind
from core.model.textsafe import one_line

ENGINES = ("single", "dask")


def add_engine_options(p: argparse.ArgumentParser, *, sets: bool) -> None:
    """``--engine``, ``--scheduler``, ``--workers`` (and ``--gold-set``/``--pred-set``)."""
    g = p.add_argument_group("engine", "where to compute (docs/scale.md)")
    g.add_argument("--engine", choices=ENGINES, default="single",
                   help="single: one process (default); dask: GOLD and PRED are folders of "
                   "shards (paired by file name), each shard scored on a Dask worker")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: the scheduler of a running cluster "
                   "(tcp://host:8786); default: a local cluster started for the run")
    g.add_argument("--workers", type=int, metavar="N",
                   help="with --engine dask and no --scheduler: worker processes of the local "
                   "cluster (default: the number of cores, at most 4)")
    if sets:
        from core.cli.loading import add_set_options

        add_set_options(g)


def uses_dask(args: argparse.Namespace) -> bool:
    """Whether to run on Dask; engine options without ``--engine dask`` are a usage error."""
    if getattr(args, "engine", "single") == "dask":
        if args.workers is not None and args.workers < 1:
            raise UsageError(f"--workers must be at least 1, got {args.workers}")
        return True
    given = [flag for flag, attr in (("--scheduler", "scheduler"), ("--workers", "workers"))
             if getattr(args, attr, None) is not None]
    if given:
        raise UsageError(f"{', '.join(given)} apply to --engine dask only")
    return False


def emit_counted(result: Result, args: argparse.Namespace, renderer: Renderer,
                 warnings: Sequence[str], counts: Mapping[str, int]) -> None:
    """:func:`core.cli.common.emit` for warnings gathered from shards: ``warnings`` are the
    first ones each shard kept and ``counts`` counts all of them by kind."""
    all_warnings = bool(getattr(args, "all_warnings", False))
    flags: Mapping[str, str] = getattr(args, "flags", None) or {}
    shown_all = [flag_message(w, flags) for w in warnings]
    total = sum(counts.values())
    ordered = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    if getattr(args, "json", False):
        out = dict(result)
        out["warnings"] = shown_all if all_warnings else shown_all[:JSON_WARNINGS]
        out["warning_counts"] = ordered
        json.dump(jsonable(out), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    lines = [renderer(result)]
    run = result.get("engine")
    if isinstance(run, dict):
        peaks = run.get("worker_peak_rss_mib") or {}
        assert isinstance(peaks, dict)
        top = max(peaks.values(), default=0)
        n = run.get("workers")
        lines.extend(["", f"engine: dask ({run.get('scheduler')}), {n} worker"
                      f"{'' if n == 1 else 's'}, {run.get('shards')} shards; peak memory per "
                      f"worker up to {top} MiB"])
    if total:
        kinds = ", ".join(f"{k} {n}" for k, n in ordered.items())
        shown = shown_all if all_warnings else shown_all[:SHOWN_WARNINGS]
        lines.extend(["", f"warnings: {total} ({kinds})"])
        lines.extend(f"warning: {one_line(w)}" for w in shown)
        if len(shown) < total:
            lines.append(f"{total - len(shown)} more; pass --all-warnings to list them all")
    print("\n".join(lines))


def score(args: argparse.Namespace, renderer: Renderer) -> int:
    """``score --engine dask``: the same JSON keys as ``score --json``, plus ``engine``."""
    from core.engines.sharded import dask_client, score_sharded
    from core.formats.tools import read_label_list
    from core.metrics import registry

    metric = registry.get(args.metric)
    if args.variant is not None and not metric.variants:
        raise UsageError(f"the metric {metric.name!r} has no variants (got {args.variant!r})")
    metric.keywords(variant=args.variant, level=args.level)  # a bad --variant: before starting
    labels = read_label_list(args.labels) if "labels" in metric.options else None
    options = read_options(args)  # the workers read with them (doccano's label ids included)
    with dask_client(args.scheduler, workers=args.workers) as client:
        out = score_sharded(
            args.gold, args.pred, metric=args.metric, client=client, scheduler=args.scheduler,
            variant=args.variant, level=args.level, labels=labels,
            gold_format=args.gold_format, pred_format=args.pred_format,
            gold_set=args.gold_set, pred_set=args.pred_set,
            merge_pred=bool(args.merge_pred), fragments_only=bool(args.fragments_only),
            taxonomy=args.taxonomy, llm_parsing=args.llm_parsing,
            beyond_text=bounds.from_args(args), per_document=bool(args.per_document),
            all_warnings=bool(args.all_warnings), options=options)
    emit_counted(out.result, args, renderer, out.warnings, out.warning_counts)
    return 0


def agree(args: argparse.Namespace, renderer: Renderer) -> int:
    """``agree --engine dask``: char-kappa and char-jaccard over shards (the keys of ``agree
    --json``, plus ``engine``)."""
    from core.engines.sharded import (
        DASK_MEASURES,
        agree_sharded,
        alignment,
        dask_client,
        engine_report,
        split_warnings,
        study_warnings,
    )

    measures = list(dict.fromkeys(args.measure))
    other = [m for m in measures if m not in DASK_MEASURES]
    if other:
        raise UsageError(f"--engine dask computes {', '.join(DASK_MEASURES)}; "
                         f"{', '.join(other)} run on one machine (leave out --engine)")
    options = read_options(args)  # the workers read with them (doccano's label ids included)
    with dask_client(args.scheduler, workers=args.workers) as client:
        outcomes, kappa, jaccard = agree_sharded(
            args.files, client=client, fmt=args.format, label=args.label,
            beyond_text=bounds.from_args(args), unit_set=bool(getattr(args, "unit_set", False)),
            options=options)
        report = engine_report(client, outcomes, args.scheduler)
    labels = sorted({lab for o in outcomes for lab in o.stats.labels})
    # Whole files are read on a worker as one machine reads them (documents matched by their
    # text); folders of shards match documents by id. Either way the documents of one input
    # that no other input holds are said, from every shard, as one machine says them.
    met = alignment([o.stats for o in outcomes], [Path(f).name for f in args.files])
    out: Result = {"annotators": kappa.annotators, "documents": kappa.params["documents"],
                   "labels": [args.label] if args.label is not None else labels,
                   "warnings": [], "alignment": met.as_dict()}
    for m in measures:
        value = kappa if m == "char-kappa" else jaccard
        out[m] = value.as_dict(args.per_document)
    out["engine"] = report
    shards, counts = split_warnings(outcomes)
    # the study's own warnings, as one machine gives them (core.cli.agree): from every shard
    study = study_warnings([o.stats for o in outcomes])
    notes = met.notes(args.files)
    warnings = [*notes, *shards, *study]
    counts = dict(Counter(counts) + Counter(warning_kind(w) for w in [*notes, *study]))
    emit_counted(out, args, renderer, warnings, counts)
    return 0
