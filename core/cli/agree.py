"""``agree FILE [FILE ...] --measure NAME``: inter-annotator agreement
(:mod:`core.metrics.agreement`), one JSON object keyed by measure.

Files that name one document differently (doccano ids, file names) are matched by the
documents' text first (:mod:`core.model.alignment`); ``alignment`` in the JSON object lists, per
file, the ids renamed (``{"renamed": {old: new}, "unmatched": [ids]}``) and the documents that
match no other file's; the same goes to the warnings.
"""

from __future__ import annotations

import argparse

from core.cli import engine
from core.cli.common import (
    Result,
    Subparsers,
    add_beyond_text,
    add_output_options,
    command_parser,
    emit,
    read_options,
)
from core.cli.engine import add_engine_options, uses_dask
from core.cli.loading import load_study
from core.cli.render import render_agree
from core.formats import FORMATS
from core.formats.tools import read_label_file, read_label_list
from core.model import bounds
from core.model.alignment import Alignment
from core.model.errors import ParameterError, check_choice

NAME = "agree"

PER_LABEL_OF = {"gamma-k": "gamma-cat", "γ-k": "gamma-cat"}
"""Names users give a per-label value, and the measure that reports it per label
(:func:`compute` says so instead of listing the measures)."""

CONSTANT_MEASURES = ("fleiss-kappa", "krippendorff-alpha")
"""The measures ``--without-constant-labels`` adds a value to (documents × labels units)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "inter-annotator agreement",
                       "Agreement between annotation sets over the same texts.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--measure", action="append", required=True, metavar="NAME",
                   help="span-f1 (Da San Martino et al. 2019: partial credit for overlap, "
                   "not exact match), exact-f1 (exact-match instance F1: same offsets and "
                   "label), mafalda-f1, char-kappa, char-jaccard, text-kappa, "
                   "fleiss-kappa, krippendorff-alpha, unitizing-alpha, gamma, gamma-cat "
                   "(repeatable; gamma-cat's per-label values are γ-k)")
    p.add_argument("--format", choices=sorted(FORMATS), help="override format detection")
    p.add_argument("--label", help="restrict to one label")
    p.add_argument("--labels", metavar="FILE",
                   help="a doccano label config (the JSON of doccano's label page): doccano's "
                   "numeric label ids become names")
    p.add_argument("--label-set", metavar="FILE",
                   help="the annotation scheme's labels (one a line, or a doccano label "
                   "config): char-kappa and the other measures count each as an item, used or "
                   "not, so a pair's char-kappa is the value of its cell in the matrix of more "
                   "annotators who used these labels (default: the labels any loaded "
                   "annotator used)")
    p.add_argument("--seed", type=int, default=0, help="random seed for chance estimates")
    p.add_argument("--samples", type=int, default=30,
                   help="chance samples for gamma (default 30)")
    p.add_argument("--per-document", action="store_true", help="add per-document values")
    p.add_argument("--without-constant-labels", action="store_true",
                   help="fleiss-kappa and krippendorff-alpha: add their value without the "
                   "labels every annotator used in every document (whose documents x labels "
                   "units agree whatever the spans), as \"without_constant_labels\" (value, "
                   "labels_left_out, labels, units); the other keys are unchanged")
    add_beyond_text(p)
    p.add_argument("--unit-set", action="store_true",
                   help="read each annotator's units as a set: an exact duplicate span "
                   "counts once (pygamma-agreement's reading; default: kept, with a warning)")
    add_output_options(p)
    add_engine_options(p, sets=False)
    return p


def compute(args: argparse.Namespace) -> tuple[Result, list[str]]:
    """The JSON object of ``agree`` (one entry per measure) and the study's warnings."""
    from core.metrics.agreement import MEASURES, compute
    from core.metrics.agreement.measures import CONSTANT_KEY, without_constant_labels
    from core.metrics.agreement.study import label_variants, missing_documents

    measures = list(dict.fromkeys(args.measure))
    for m in measures:
        if m.lower().replace("_", "-") in PER_LABEL_OF:
            whole = PER_LABEL_OF[m.lower().replace("_", "-")]
            raise ParameterError("measure", (
                f"{m!r} is no measure of its own: γ-k, the agreement on one label (Mathet "
                f"2018), is the per-label value of {whole!r}. Use --measure {whole}: its "
                "values per label are listed under its overall value (with --json, under "
                f"\"{whole}\" → \"per_label\"); --label LABEL keeps one label."))
        check_choice("measure", "agree", m, MEASURES)
    if args.samples < 1:
        raise ParameterError("samples", "The 'samples' parameter of agree must be at least 1. "
                             f"Got {args.samples!r} instead.")
    if args.labels is not None and read_label_file(args.labels).ids is None:
        raise ParameterError("labels", "agree's --labels takes a doccano label config (a JSON "
                             f"list of {{id, text}} objects); {args.labels} is a label list")
    read_warnings: list[str] = []
    aligned: list[Alignment] = []
    study = load_study(list(args.files), fmt=args.format, label=args.label,
                       options=read_options(args, beyond_text=bounds.from_args(args)),
                       warnings=read_warnings,
                       unit_set=bool(getattr(args, "unit_set", False)), aligned=aligned,
                       labels=read_label_list(getattr(args, "label_set", None)),
                       measures=measures)
    out: Result = {"annotators": study.annotators, "documents": len(study.docs),
                   "labels": study.labels, "warnings": [],
                   "alignment": aligned[0].as_dict() if aligned else {}}
    for m in measures:
        entry = compute(study, m, seed=args.seed, samples=args.samples).as_dict(
            args.per_document)
        if getattr(args, "without_constant_labels", False) and m in CONSTANT_MEASURES:
            entry[CONSTANT_KEY] = without_constant_labels(study, m).as_dict()
        out[m] = entry
    return out, (read_warnings + list(study.warnings) + label_variants(study)
                 + missing_documents(study))


def run(args: argparse.Namespace) -> int:
    if uses_dask(args):  # FILEs are folders of shards (docs/scale.md)
        if getattr(args, "without_constant_labels", False):
            raise ParameterError("without_constant_labels", "agree's "
                                 "--without-constant-labels runs on one machine (leave out "
                                 "--engine dask)")
        if getattr(args, "label_set", None) is not None:
            raise ParameterError("label_set", "agree's --label-set runs on one machine "
                                 "(leave out --engine dask)")
        return engine.agree(args, render_agree)
    result, warnings = compute(args)
    emit(result, args, render_agree, warnings)
    return 0
