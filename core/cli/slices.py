"""``slices GOLD PRED [PRED ...] --dimension D``: each system's scores per bucket of one
dimension (span length, label, document length, metadata field), with bootstrap intervals over
documents (:mod:`core.analysis.slices`); ``--compare [SYSTEM]`` adds, per bucket, each system's F1
minus SYSTEM's with the paired tests of ``table --compare``. See ``docs/errors.md``."""

from __future__ import annotations

import argparse
from typing import Any

from core.analysis.significance import Comparison
from core.analysis.slices import (
    DIMENSIONS,
    META_PREFIX,
    META_RULE,
    METRICS,
    BucketScore,
    check_dimension,
    compare_buckets,
    meta_plan,
    skipped_note,
    slice_scores,
    slice_terms,
    span_length_cuts,
)
from core.cli.common import (
    Result,
    Subparsers,
    add_label_options,
    add_llm_parsing,
    add_output_options,
    command_parser,
    emit,
    read_options,
)
from core.cli.loading import (
    SystemInputs,
    add_system_arguments,
    label_reading,
    load_metadata,
    load_systems,
    taxonomy_file,
)
from core.cli.render import render_slices
from core.metrics import registry
from core.model import AnnotationSet, bounds
from core.model.errors import InputError
from core.model.taxonomy import Taxonomy

NAME = "slices"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(
        subparsers, NAME, "scores per bucket (span length, label, document length, metadata...)",
        "Score each system per bucket of one dimension, with bootstrap intervals over "
        "documents. See docs/errors.md.")
    add_system_arguments(p, many=True)
    p.add_argument("--dimension", required=True, metavar="NAME",
                   help=f"one of {', '.join(DIMENSIONS)}, or meta:FIELD for a metadata field "
                   f"({META_RULE})")
    p.add_argument("--metric", choices=METRICS, default="martino",
                   help="span metric (default martino)")
    p.add_argument("--variant", help="metric variant (default semeval2021 / paper)")
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level (default 2)")
    p.add_argument("--meta", metavar="FILE",
                   help="CSV of document metadata: an id column and any fields")
    p.add_argument("--buckets", type=int, default=4,
                   help="quantile buckets of the length dimensions (default 4)")
    p.add_argument("--samples", type=int, default=1000,
                   help="bootstrap resamples (default 1000; 0: no intervals)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--compare", nargs="?", const="", default=None, metavar="SYSTEM",
                   help="per bucket, each other system's F1 minus SYSTEM's (a name, or its "
                   "PRED path; without SYSTEM the best F1 overall), its paired bootstrap "
                   "interval and approximate randomization p-value over the bucket's "
                   "documents (--samples rounds), as table --compare")
    add_label_options(p)
    add_llm_parsing(p)
    add_output_options(p)
    return p


COMPARED = ("F1 difference", "F1 difference low", "F1 difference high", "F1 p randomization",
            "F1 p bootstrap")
"""The keys ``--compare`` adds to each bucket's row (None in SYSTEM's own rows and in a bucket
SYSTEM has no span in)."""


LABEL_NOTE = ("MAFALDA per label: a reference span that offers several labels (alternatives, "
              "Helwe et al. 2024, Definition 6) counts under the label each system matched "
              "(else its first label other than ⊥), so a label bucket's reference spans "
              "(#ref), the recall's denominator, can differ from one system to another")
"""The note of a metric with gold alternatives (``--metric mafalda``) sliced by a label dimension
(``note`` in the JSON): it is the metric's definition, not a defect of the slices
(docs/errors.md)."""
LABEL_DIMENSIONS = ("label", "label_frequency")


def _against(args: argparse.Namespace, inputs: SystemInputs,
             taxonomy: Taxonomy | None) -> int:
    """The position of the system ``--compare`` names (a name or a PRED path), or of the best
    F1 overall; two systems of one name are refused (the comparison names systems)."""
    names = [s.name for s in inputs.systems]
    if len(names) < 2:
        raise InputError(f"--compare needs two systems or more; got one: {names[0]}")
    if args.samples < 1:
        raise InputError("--compare needs bootstrap resamples (--samples 1 or more)")
    paths: dict[str, list[str]] = {}
    for path, name in zip(args.preds, names, strict=True):
        paths.setdefault(name, []).append(path)
    for name, same in paths.items():
        if len(same) > 1:
            raise InputError(f"--compare names each system by its name, and {len(same)} systems "
                             f"are named {name!r} ({', '.join(same)}); give them files of "
                             "different names (slices without --compare keeps them apart)")
    if not args.compare:
        overall = [_overall_f1(inputs, pred, args, taxonomy) for pred in inputs.systems]
        return max(range(len(names)), key=lambda k: overall[k])  # the first of a tie
    chosen = dict(zip(args.preds, names, strict=True)).get(args.compare, args.compare)
    if chosen not in names:
        raise InputError(f"--compare: no system named {chosen!r} (the systems: "
                         f"{', '.join(names)})")
    return names.index(chosen)


def _render_compared(result: Result) -> str:
    """The slices' table, then each bucket's F1 difference from the compared system."""
    text = render_slices(result)
    if "note" in result:
        text += f"\nnote: {result['note']}"
    against = result.get("compare")
    if against is None:
        return text
    buckets = result["buckets"]
    assert isinstance(buckets, list)
    rows: list[dict[str, Any]] = [r for r in buckets
                                  if isinstance(r, dict) and r.get("F1 difference") is not None]
    lines = [f"F1 minus {against}'s per bucket; [low, high]: 95% paired bootstrap interval; p: "
             f"two-sided approximate randomization over the bucket's documents "
             f"({result['samples']} rounds, seed {result['seed']})"]
    sw = max([16, *(len(r["system"]) + 1 for r in rows)])
    bw = max([22, *(len(r["bucket"]) + 1 for r in rows)])
    lines.append(f"  {'system':<{sw}}{'bucket':<{bw}}{'ΔF1':>8}  {'interval':<18}  p")
    for r in rows:
        low, high, p = r["F1 difference low"], r["F1 difference high"], r["F1 p randomization"]
        iv = f"[{low:+.3f}, {high:+.3f}]" if low is not None else "—"
        lines.append(f"  {r['system']:<{sw}}{r['bucket']:<{bw}}{r['F1 difference']:>+8.3f}  "
                     f"{iv:<18}  {'—' if p is None else f'{p:.3g}'}")
    return text + "\n\n" + "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    taxonomy = taxonomy_file(args)  # a bad --taxonomy or --labels: before the inputs
    options = read_options(args, beyond_text=bounds.from_args(args), **label_reading(args))
    # As score reads them: the reference too under a metric that takes a label list.
    inputs = load_systems(args.gold, args.preds, gold_format=args.gold_format,
                          pred_format=args.pred_format, options=options,
                          gold_labels="labels" in registry.get(args.metric).options)
    meta = load_metadata(args.gold, args.meta)
    check_dimension(args.dimension, meta, inputs.gold.doc_ids, source=args.meta or args.gold)
    if args.dimension.startswith(META_PREFIX):
        # The other fields a user may have meant: which were left out, and why.
        inputs.warnings.extend(skipped_note(f) for f in meta_plan(meta, inputs.gold.doc_ids)
                               if f.kind == "skipped")
    against = None if args.compare is None else _against(args, inputs, taxonomy)
    cuts = None
    if against is not None and args.dimension == "span_length":
        # One set of edges for every system, the compared system's: MAFALDA's reference terms
        # (and so their length quantiles) depend on the alternatives each system matched, and
        # buckets of different edges share no name, so nothing would be compared.
        cuts = span_length_cuts(slice_terms(
            inputs.gold, inputs.systems[against], metric=args.metric, variant=args.variant,
            level=args.level, texts=inputs.texts, taxonomy=taxonomy), args.buckets)
    # In the order given, by position: two systems may have one name (d1/sys.json, d2/sys.json).
    results: list[tuple[str, list[BucketScore]]] = [
        (pred.name, slice_scores(
            inputs.gold, pred, dimension=args.dimension, metric=args.metric,
            variant=args.variant, level=args.level, texts=inputs.texts, metadata=meta,
            n_buckets=args.buckets, n_resamples=args.samples, seed=args.seed, cuts=cuts,
            taxonomy=taxonomy))
        for pred in inputs.systems]
    compared: dict[tuple[int, str], Comparison] = {}
    if against is not None:
        compared = compare_buckets(results, against, n_resamples=args.samples, seed=args.seed)
        inputs.warnings.extend(_nothing_shared(results, against, compared))
    rows: list[object] = []
    for k, (name, buckets) in enumerate(results):
        for b in buckets:
            row = {"system": name, **b.as_row(one_document_bounds=False)}
            if against is not None:
                c = compared.get((k, b.bucket))
                row.update(dict.fromkeys(COMPARED) if c is None else dict(zip(
                    COMPARED, (c.difference, c.low, c.high, c.p_randomization, c.p_bootstrap),
                    strict=True)))
            rows.append(row)
    result: Result = {"command": NAME, "dimension": args.dimension, "metric": args.metric,
                      "variant": args.variant, "level": args.level, "samples": args.samples,
                      "seed": args.seed, "buckets": rows}
    if against is not None:
        result["compare"] = results[against][0]
    # A metric that reads gold alternatives (MAFALDA) picks each span's label per system.
    if registry.get(args.metric).gold_alternatives and args.dimension in LABEL_DIMENSIONS:
        result["note"] = LABEL_NOTE
    emit(result, args, _render_compared, inputs.warnings)
    return 0


def _nothing_shared(results: list[tuple[str, list[BucketScore]]], against: int,
                    compared: dict[tuple[int, str], Comparison]) -> list[str]:
    """A warning for each system that shares no bucket with the compared one (its rows then
    hold no difference), instead of an empty table of differences."""
    name = results[against][0]
    return [f"--compare: {system} and {name} have no bucket in common (each of their buckets "
            "holds spans or documents of one of them only), so no difference is computed"
            for k, (system, _) in enumerate(results)
            if k != against and not any(key[0] == k for key in compared)]


def _overall_f1(inputs: SystemInputs, pred: AnnotationSet, args: argparse.Namespace,
                taxonomy: Taxonomy | None) -> float:
    """A system's F1 on the whole corpus under the sliced metric (which system is best)."""
    (everything,) = slice_scores(inputs.gold, pred, dimension="doc_length", metric=args.metric,
                                 variant=args.variant, level=args.level, texts=inputs.texts,
                                 n_buckets=1, n_resamples=0, taxonomy=taxonomy)
    return everything.f1
