"""Reading the command line's input files for a metric: annotation sets, HatEval tables,
annotator studies. Metric modules never read files; this module does it for them, driven by
their registry entries (:class:`core.metrics.registry.Metric`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.cli.common import add_beyond_text, read_options
from core.engines.inputs import (
    aligned_inputs,
    annotator_sets,
    assumed_of,
    check_pair,
    matched_to_gold,
    pred_read_options,
    read_annotators,
    same_texts,
)
from core.formats import FORMATS, Loaded, ReadOptions, load_path
from core.formats.tools import read_label_list
from core.metrics.registry import Metric
from core.model import AnnotationSet, bounds
from core.model.alignment import Alignment
from core.model.errors import Diagnostic, FormatError, InputError, did_you_mean
from core.model.taxonomy import Taxonomy

if TYPE_CHECKING:  # pragma: no cover - agreement imports scipy; only ``agree`` needs it
    from core.formats.hateval import HatEvalTable
    from core.metrics.agreement import Study

__all__ = ["SpanInputs", "SystemInputs", "add_system_arguments", "label_reading",
           "load_annotator_sets", "load_hateval", "load_metadata", "load_span_inputs",
           "load_study", "load_systems", "read_label_list", "taxonomy_file"]


@dataclass
class SpanInputs:
    """Gold and predictions of a span metric, read as its registry entry asks."""

    gold: AnnotationSet
    pred: AnnotationSet
    texts: dict[str, str | None]
    labels: list[str] | None
    taxonomy: Taxonomy | None
    pred_format: str
    warnings: list[Diagnostic | str] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    """Options from the metric's ``read_order`` hook (``gold_order``, ``pred_order``)."""

    def options(self, args: argparse.Namespace) -> dict[str, object]:
        """The keyword options for ``metric.keywords``: flags and what was read."""
        return {"variant": getattr(args, "variant", None), "level": getattr(args, "level", None),
                "merge_pred": getattr(args, "merge_pred", None),
                "fragments_only": getattr(args, "fragments_only", None),
                "labels": self.labels, "texts": self.texts, "taxonomy": self.taxonomy,
                **self.extra}


def alternatives_note(source: str, gold: AnnotationSet) -> list[Diagnostic]:
    """A warning when a metric that reads gold alternatives (MAFALDA) meets a gold that is not
    MAFALDA's own whose intervals carry several labels: they become one span with alternative
    labels, so the gold scored against itself is below 1 in precision."""
    from core.metrics.mafalda import shared_intervals

    count, first = shared_intervals(gold)
    if first is None:
        return []
    doc, start, end, labels = first
    shown = ", ".join(repr(lab) for lab in labels)
    return [Diagnostic(source, f"{count:,} intervals carry several labels (first: document "
                       f"{doc!r} [{start}, {end}) {shown}); the MAFALDA metric reads each as "
                       "one span with alternative labels (Helwe et al. 2024, Definition 6), "
                       "where the Da San Martino metric counts one span per label",
                       kind="several-labels")]


def load_span_inputs(args: argparse.Namespace, metric: Metric) -> SpanInputs:
    """Read ``args.gold`` and ``args.pred`` for ``metric``.

    The gold is read first (with ``--labels`` when the metric takes labels); a metric with a
    ``default_labels`` rule picks its label list from the gold when ``--labels`` is not given;
    the predictions are read with that list and the gold's document ids. A span past its text,
    in either file, follows the one policy of :mod:`core.model.bounds` (``--beyond-text``: refuse by
    default, ``--clip-spans``, or ``official``: scored as the official scorers do, with a
    warning); the predictions are checked against the gold's texts. A metric with a
    ``read_order`` hook then reads the files' order as its official scorer does. Both are read
    with the command line's reader options (:func:`core.cli.common.read_options`).
    """
    takes_labels = "labels" in metric.options
    explicit = read_label_list(args.labels) if takes_labels else None
    policy = bounds.from_args(args)
    base = read_options(args)
    gold_loaded = load_path(args.gold, fmt=args.gold_format,
                            options=replace(base, labels=explicit, role="gold", beyond_text=policy))
    gold = pick_set(gold_loaded, getattr(args, "gold_set", None), "gold")
    warnings: list[Diagnostic | str] = list(gold_loaded.diagnostics)
    if metric.gold_alternatives:
        warnings.extend(alternatives_note(str(args.gold), gold))
    gold = metric.gold_view(gold)
    labels = explicit
    variant = str(metric.keywords(variant=getattr(args, "variant", None)).get("variant"))
    if labels is None and metric.default_labels is not None:
        labels, why = metric.default_labels(variant, gold)
        warnings.extend(why)
    read = pred_read_options(labels=labels, gold=gold, policy=policy,
                             llm_parsing=getattr(args, "llm_parsing", None), options=base)
    pred_loaded = load_path(args.pred, fmt=args.pred_format, options=read)
    warnings.extend(pred_loaded.diagnostics)
    pred_loaded, note = matched_to_gold(gold_loaded, pred_loaded, str(args.pred))
    warnings.extend(note)
    checked = check_pair(metric, gold=gold,
                         pred=pick_set(pred_loaded, getattr(args, "pred_set", None), "pred"),
                         pred_source=str(args.pred),
                         gold_loaded=gold_loaded, pred_loaded=pred_loaded, policy=policy,
                         variant=variant, labels=labels,
                         taxonomy_path=getattr(args, "taxonomy", None))
    warnings.extend(checked.warnings)
    pred, taxonomy, extra = checked.pred, checked.taxonomy, checked.extra
    return SpanInputs(gold, pred, dict(gold_loaded.texts), labels, taxonomy,
                      pred_loaded.format, warnings, extra)


def add_set_options(p: argparse._ActionsContainer) -> None:
    """``--gold-set`` and ``--pred-set``: which annotation set of an input that holds several
    (a Label Studio export's annotators, a spans CSV's ``annotator`` column) to score
    (:func:`pick_set`)."""
    p.add_argument("--gold-set", metavar="NAME",
                   help="the gold's annotation set, when GOLD holds several (an annotator of a "
                   "Label Studio export; with --engine dask: the set column's value)")
    p.add_argument("--pred-set", metavar="NAME",
                   help="the predictions' annotation set, when PRED holds several (GOLD and "
                   "PRED may then be the same file or folder)")


def pick_set(loaded: Loaded, name: str | None, side: str) -> AnnotationSet:
    """The set named ``name`` (``--gold-set``/``--pred-set``) of ``loaded``, or its only set;
    an unknown name, or several sets and no name, is an error that lists the sets."""
    names = ", ".join(s.name for s in loaded.sets) or "none"
    if name is None:
        if len(loaded.sets) == 1:
            return loaded.sets[0]
        raise FormatError(loaded.source, f"expected exactly one annotation set, found "
                          f"{len(loaded.sets)} ({names}); pick one by name with --{side}-set")
    for aset in loaded.sets:
        if aset.name == name:
            return aset
    hint = did_you_mean(name, [aset.name for aset in loaded.sets])
    raise FormatError(loaded.source, f"no annotation set named {name!r} (--{side}-set); "
                      f"sets: {names}" + (f"; {hint}" if hint else ""))


def _hateval_table(path: str, fmt: str | None, header_rule: str, args: argparse.Namespace
                   ) -> HatEvalTable:
    from core.formats.hateval import HatEvalTable
    from core.formats.hateval import read as read_hateval

    if fmt not in (None, "hateval"):
        raise InputError(f"{path}: the HatEval metrics read HatEval TSV files, not {fmt}")
    p = Path(path)
    if not p.is_file():  # names the problem (missing file, folder)
        loaded = load_path(p, fmt="hateval", options=read_options(args) if p.exists() else None)
    else:
        loaded = read_hateval({p.name: p.read_bytes()}, name=str(p), options=read_options(args),
                              header_rule=header_rule)
    table = loaded.records
    if not isinstance(table, HatEvalTable):  # pragma: no cover - the reader always sets it
        raise FormatError(path, "not a HatEval file")
    return table


def load_hateval(args: argparse.Namespace) -> tuple[HatEvalTable, HatEvalTable, list[str]]:
    """Gold and prediction tables of a HatEval metric, with ``--hateval-header``'s rule."""
    rule = getattr(args, "hateval_header", None) or "auto"
    gold = _hateval_table(args.gold, args.gold_format, rule, args)
    pred = _hateval_table(args.pred, args.pred_format, rule, args)
    warnings = []
    for t in (gold, pred):
        if t.dropped_header_row is not None:
            warnings.append(f"{t.file}: first line skipped as a header by the official rule: "
                            f"{t.dropped_header_row!r}")
        if t.header_note is not None:
            warnings.append(f"{t.file}:1: {t.header_note}")
    return gold, pred, warnings


def _aligned(files: list[str], every: list[Loaded], warnings: list[str] | None,
             aligned: list[Alignment] | None) -> list[Loaded]:
    """The files' documents matched by their text (:func:`core.engines.inputs.aligned_inputs`),
    the notes to ``warnings`` and the alignment to ``aligned``."""
    out, alignment = aligned_inputs(files, every)
    if aligned is not None:
        aligned.append(alignment)
    if warnings is not None:
        warnings.extend(alignment.notes(files))
    return out


def load_annotator_sets(files: list[str], *, fmt: str | None = None, purpose: str = "agreement",
                        options: ReadOptions | None = None, warnings: list[str] | None = None,
                        aligned: list[Alignment] | None = None
                        ) -> tuple[list[AnnotationSet], dict[str, str | None]]:
    """Every annotation set of ``files`` (a file may hold several annotators) as an annotator,
    and the documents' texts; ``purpose`` names what needs them in the errors; each file is read
    with ``options`` (:func:`core.cli.common.read_options`).

    Set names that repeat across files get the file name in front (``a.json:gold``). Files must
    agree on the text of a document (:func:`core.model.texts.reconcile`: refused when they differ in
    more than whitespace), and there must be at least two sets. A span past its text follows
    ``options.beyond_text`` (:mod:`core.model.bounds`); a file without texts is checked against the
    texts of the others, every offending set named at once; spans that a reader placed past the
    text (MAFALDA model outputs) are clipped to it, one warning per set, since the measures need
    every span inside its text; the policy's warnings go to ``warnings``.

    Documents are first matched across files by their text (:func:`core.model.alignment.align`:
    files that name one document differently, doccano ids or file names); what was renamed and
    which documents match no other file's go to ``warnings`` and, as an
    :class:`~core.model.alignment.Alignment`, to ``aligned``.
    """
    options = options or ReadOptions()
    every = _aligned(files, [load_path(path, fmt=fmt, options=options) for path in files],
                     warnings, aligned)
    found, texts, said = read_annotators(files, every, options.beyond_text)
    if warnings is not None:
        warnings.extend(said)
    sets = annotator_sets(found)
    if len(sets) < 2:
        raise InputError(f"{purpose} needs at least two annotation sets; the input holds "
                         f"{len(sets)} ({', '.join(s.name for s in sets) or 'none'})")
    return sets, texts


def load_study(files: list[str], *, fmt: str | None = None, label: str | None = None,
               options: ReadOptions | None = None, warnings: list[str] | None = None,
               unit_set: bool = False, aligned: list[Alignment] | None = None,
               labels: list[str] | None = None, measures: Sequence[str] | None = None
               ) -> Study:
    """Read annotation files (:func:`load_annotator_sets`, with ``options``) into one agreement
    study; ``unit_set`` reads each annotator's units as a set (pygamma-agreement's reading);
    ``labels``: the scheme's labels; ``measures``: the measures asked, whose reading of a
    duplicate span the warning says (:meth:`~core.metrics.agreement.Study.from_sets`)."""
    from core.metrics.agreement import Study

    sets, texts = load_annotator_sets(files, fmt=fmt, options=options, warnings=warnings,
                                      aligned=aligned)
    return Study.from_sets(sets, texts, label=label, unit_set=unit_set, labels=labels,
                           measures=measures)


@dataclass
class SystemInputs:
    """A reference and one or more systems read against it (``errors``, ``slices``,
    ``report``); ``warnings`` are the readers' diagnostics, reference first."""

    gold: AnnotationSet
    texts: dict[str, str | None]
    systems: list[AnnotationSet]
    warnings: list[Diagnostic | str] = field(default_factory=list)


def add_system_arguments(p: argparse.ArgumentParser, *, many: bool) -> None:
    """What :func:`load_systems` reads: ``GOLD``, ``PRED`` (``PRED [PRED ...]`` into
    ``preds`` when ``many``), ``--gold-format`` and ``--pred-format``."""
    fmts = sorted(FORMATS)
    p.add_argument("gold", metavar="GOLD", help="reference file or folder")
    if many:
        p.add_argument("preds", nargs="+", metavar="PRED", help="prediction files or folders")
    else:
        p.add_argument("pred", metavar="PRED", help="prediction file or folder")
        add_set_options(p)
    p.add_argument("--gold-format", choices=fmts, help="override format detection for GOLD")
    p.add_argument("--pred-format", choices=fmts, help="override format detection for PRED")
    add_beyond_text(p)


def load_systems(gold_path: str, pred_paths: Sequence[str], *, gold_format: str | None = None,
                 pred_format: str | None = None, options: ReadOptions | None = None,
                 gold_set: str | None = None, pred_set: str | None = None,
                 gold_labels: bool = True) -> SystemInputs:
    """Read the reference, then each prediction file with the reference's document ids, each
    with ``options`` (:func:`core.cli.common.read_options`), its documents matched to the
    reference's by their text when their ids do not meet (:func:`matched_to_gold`); a
    prediction whose texts are not the reference's is refused (:mod:`core.model.texts`: spans
    carried over when they differ in whitespace only); a span past its text follows
    ``options.beyond_text``
    (:mod:`core.model.bounds`), predictions checked against the reference's texts.
    ``gold_set``, ``pred_set`` name the sets to read of inputs that hold several
    (:func:`pick_set`). ``gold_labels``: the reference is read with ``options.labels`` too
    (False: the predictions alone, as ``score`` reads them for a metric that takes no label
    list, MAFALDA)."""
    options = options or ReadOptions()
    beyond_text = options.beyond_text
    gold_loaded = load_path(gold_path, fmt=gold_format, options=replace(
        options, role="gold", labels=options.labels if gold_labels else None))
    gold = pick_set(gold_loaded, gold_set, "gold")
    warnings: list[Diagnostic | str] = list(gold_loaded.diagnostics)
    systems = []
    for path in pred_paths:
        pred_loaded = load_path(path, fmt=pred_format, options=replace(
            options, role="system", gold_doc_ids=gold.doc_ids))
        warnings.extend(pred_loaded.diagnostics)
        pred_loaded, note = matched_to_gold(gold_loaded, pred_loaded, str(path))
        warnings.extend(note)
        pred, carried = same_texts(gold_loaded, pred_loaded,
                                   pick_set(pred_loaded, pred_set, "pred"), str(path))
        warnings.extend(carried)
        (pred,), more = bounds.check_sets([(str(path), pred)], gold_loaded.texts,
                                          beyond_text, assumed=assumed_of(str(path), pred_loaded))
        warnings.extend(bounds.unseen(more, pred_loaded.diagnostics))
        systems.append(pred)
    return SystemInputs(gold, dict(gold_loaded.texts), systems, warnings)


def label_reading(args: argparse.Namespace) -> dict[str, Any]:
    """The reader fields ``--labels`` and ``--llm-parsing`` ask for
    (:func:`core.cli.common.add_label_options`, :func:`core.cli.common.add_llm_parsing`), for
    :func:`core.cli.common.read_options`: a command that reads with :func:`load_systems` reads
    them as ``score`` does."""
    return {"labels": read_label_list(args.labels), "llm_parsing": args.llm_parsing}


def taxonomy_file(args: argparse.Namespace) -> Taxonomy | None:
    """The taxonomy of ``--taxonomy FILE`` (:func:`core.model.taxonomy.load`), None without
    one (each pair's own then, :func:`core.model.taxonomy.resolve`)."""
    from core.model.taxonomy import load

    return None if args.taxonomy is None else load(args.taxonomy)


def load_metadata(gold_path: str, meta_path: str | None) -> dict[str, dict[str, str]]:
    """Document metadata: the fields of the reference's own records, overridden by a ``--meta``
    CSV (an id column and any fields; :mod:`core.analysis.slices`)."""
    from core.analysis.slices import read_meta_csv, record_metadata

    meta = {d: dict(v) for d, v in record_metadata(gold_path).items()}
    if meta_path:
        for doc, fields in read_meta_csv(meta_path).items():
            meta.setdefault(doc, {}).update(fields)
    return meta
