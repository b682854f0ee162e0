"""Reading the command line's input files for a metric: annotation sets, HatEval tables,
annotator studies. Metric modules never read files; this module does it for them, driven by
their registry entries (:class:`core.metrics.registry.Metric`)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from core.errors import Diagnostic, FormatError, InputError
from core.formats import ReadOptions, load_path
from core.formats.hateval import HatEvalTable
from core.formats.hateval import read as read_hateval
from core.metrics.registry import Metric
from core.model import AnnotationSet
from core.taxonomy import Taxonomy
from core.taxonomy import load as load_taxonomy
from core.tools import read_label_list

if TYPE_CHECKING:  # pragma: no cover - agreement imports scipy; only ``agree`` needs it
    from core.metrics.agreement import Study

__all__ = ["SpanInputs", "load_hateval", "load_span_inputs", "load_study", "read_label_list"]


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

    def options(self, args: argparse.Namespace) -> dict[str, object]:
        """The keyword options for ``metric.keywords``: flags and what was read."""
        return {"variant": getattr(args, "variant", None), "level": getattr(args, "level", None),
                "merge_pred": getattr(args, "merge_pred", None),
                "fragments_only": getattr(args, "fragments_only", None),
                "labels": self.labels, "texts": self.texts, "taxonomy": self.taxonomy}


def load_span_inputs(args: argparse.Namespace, metric: Metric) -> SpanInputs:
    """Read ``args.gold`` and ``args.pred`` for ``metric``.

    The gold is read first (with ``--labels`` when the metric takes labels); a metric with a
    ``default_labels`` rule picks its label list from the gold when ``--labels`` is not given;
    the predictions are read with that list and the gold's document ids. The gold texts are not
    handed to the prediction reader: the official Martino scorers score predictions that run past
    the text, so we do too, with a warning (``pred_warnings``).
    """
    takes_labels = "labels" in metric.options
    explicit = read_label_list(args.labels) if takes_labels else None
    gold_loaded = load_path(args.gold, fmt=args.gold_format,
                            options=ReadOptions(labels=explicit, role="gold"))
    gold = gold_loaded.set
    if metric.gold_alternatives and not gold.alternatives:
        gold = AnnotationSet(gold.name, gold.spans, gold.role, alternatives=True)
    warnings: list[Diagnostic | str] = list(gold_loaded.diagnostics)
    labels = explicit
    if labels is None and metric.default_labels is not None:
        variant = metric.keywords(variant=getattr(args, "variant", None)).get("variant")
        labels, why = metric.default_labels(str(variant), gold)
        warnings.extend(why)
    read = ReadOptions(labels=labels, role="system", gold_doc_ids=gold.doc_ids)
    if "llm_parsing" in metric.read_options:
        read = ReadOptions(labels=labels, role="system", gold_doc_ids=gold.doc_ids,
                           llm_parsing=args.llm_parsing)
    pred_loaded = load_path(args.pred, fmt=args.pred_format, options=read)
    warnings.extend(pred_loaded.diagnostics)
    pred = pred_loaded.set
    if metric.pred_warnings is not None:
        warnings.extend(metric.pred_warnings(pred, gold_loaded.texts))
    taxonomy = (load_taxonomy(getattr(args, "taxonomy", None))
                if "taxonomy" in metric.options else None)
    return SpanInputs(gold, pred, dict(gold_loaded.texts), labels, taxonomy,
                      pred_loaded.format, warnings)


def _hateval_table(path: str, fmt: str | None, header_rule: str) -> HatEvalTable:
    if fmt not in (None, "hateval"):
        raise InputError(f"{path}: the HatEval metrics read HatEval TSV files, not {fmt}")
    p = Path(path)
    if not p.is_file():
        loaded = load_path(p, fmt="hateval")  # names the problem (missing file, folder)
    else:
        loaded = read_hateval({p.name: p.read_bytes()}, name=str(p), options=ReadOptions(),
                              header_rule=header_rule)
    table = loaded.records
    if not isinstance(table, HatEvalTable):  # pragma: no cover - the reader always sets it
        raise FormatError(path, "not a HatEval file")
    return table


def load_hateval(args: argparse.Namespace) -> tuple[HatEvalTable, HatEvalTable, list[str]]:
    """Gold and prediction tables of a HatEval metric, with ``--hateval-header``'s rule."""
    rule = getattr(args, "hateval_header", None) or "auto"
    gold = _hateval_table(args.gold, args.gold_format, rule)
    pred = _hateval_table(args.pred, args.pred_format, rule)
    warnings = [f"{t.file}: first line skipped as a header by the official rule: "
                f"{t.dropped_header_row!r}" for t in (gold, pred)
                if t.dropped_header_row is not None]
    return gold, pred, warnings


def load_study(files: list[str], *, fmt: str | None = None, label: str | None = None
               ) -> Study:
    """Read annotation files (a file may hold several annotators) into one agreement study.

    Set names that repeat across files get the file name in front (``a.json:gold``).
    """
    from core.metrics.agreement import Study

    sets: list[tuple[str, AnnotationSet]] = []
    texts: dict[str, str | None] = {}
    for path in files:
        loaded = load_path(path, fmt=fmt)
        for doc, text in loaded.texts.items():
            if text is not None and texts.get(doc) not in (None, text):
                raise InputError(f"{path}: document {doc!r} has a different text than in an "
                                 "earlier file; agreement needs the same texts")
            if text is not None or doc not in texts:
                texts[doc] = text
        sets.extend((path, s) for s in loaded.sets)
    names = [s.name for _, s in sets]
    renamed = [s if names.count(s.name) == 1 else
               AnnotationSet(f"{Path(p).name}:{s.name}", s.spans, "annotator", s.alternatives)
               for p, s in sets]
    if len(renamed) < 2:
        raise InputError(f"agreement needs at least two annotation sets; the input holds "
                         f"{len(renamed)} ({', '.join(s.name for s in renamed) or 'none'})")
    return Study.from_sets(renamed, texts, label=label)
