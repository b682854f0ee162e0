"""``adjudicate FILE [FILE ...] --min-agree K -o OUT --to FORMAT``: the consensus of several
annotators' files (:func:`core.analysis.consensus.consensus`), and its decisions.

::

    python -m core adjudicate ann1.json ann2.json ann3.json --min-agree 2 \\
        --match gamma --boundaries majority -o consensus.json --to semeval2021 \\
        --decisions decisions.csv

The spans some annotators marked but fewer than K are listed too (``dropped_below_k``): the
consensus leaves them out, and without ``--decisions`` nothing else names them.

A label tie is written as none of its labels (``--ties leave-out``, the default: the summary
says how many were left undecided, listed under "ties" and in the decisions file) or as one
span per tied label (``--ties keep-all``).

Every FILE may hold several annotators (Label Studio, a ``spans-csv`` with an ``annotator``
column). The consensus is written to OUT in any writable span format, by the writer ``convert``
uses (:func:`core.formats.tools.render_sets`); with ``--decisions``, the decisions CSV too
(:data:`core.analysis.consensus.DECISION_COLUMNS`). Ties and conflicts are listed on standard
output (or in the ``--json`` object), never decided silently; what the format cannot hold goes
to stderr, as ``convert`` says it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.cli.common import (
    LazyChoices,
    Result,
    Subparsers,
    add_beyond_text,
    add_output,
    add_output_options,
    command_parser,
    emit,
    read_options,
)
from core.cli.loading import load_annotator_sets
from core.cli.render import render_adjudicate
from core.formats import FORMATS, WRITABLE
from core.formats.atomic import commit
from core.formats.tools import output_is_folder, render_sets
from core.model import bounds
from core.model.alignment import Alignment
from core.model.errors import UsageError
from core.model.textsafe import one_line

if TYPE_CHECKING:  # pragma: no cover - consensus imports scipy; only this command needs it
    from core.analysis.consensus import Consensus

_CONSENSUS = "core.analysis.consensus"

NAME = "adjudicate"
SPAN_WRITABLE = tuple(f for f in WRITABLE if f != "hateval")
"""The formats a consensus can be written in: every writable format that holds spans."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "consensus of several annotators, with a decisions "
                       "table", "Build the consensus of several annotators' spans (k of n must "
                       "agree) and write it in any writable format; ties and conflicts are "
                       "listed.")
    p.add_argument("files", nargs="+", metavar="FILE", help="annotation files (one or more "
                   "annotators each)")
    p.add_argument("--min-agree", type=_min_agree, required=True, metavar="K",
                   help="annotators that must mark a span for it to be kept (1 = union, "
                   "n = everyone)")
    # The choices are set after add_argument, which formats them (importing scipy) otherwise.
    match = p.add_argument("--match", default="gamma",
                   help="how spans of different annotators are matched: gamma alignment "
                   "(Mathet et al. 2015, default), overlap, exact, or char (character-level "
                   "majority, no matching)")
    boundaries = p.add_argument("--boundaries", default="majority",
                   help="boundaries of a kept span: majority of characters (default), union or "
                   "intersection")
    ties = p.add_argument("--ties", default="leave-out",
                          help="a label tie (gamma: a group's labels given equally often): "
                          "leave-out (default) writes none of the tied labels and lists them "
                          "as undecided; keep-all writes each tied label as its own span")
    match.choices = LazyChoices(_CONSENSUS, "MATCHES")
    ties.choices = LazyChoices(_CONSENSUS, "TIES")
    boundaries.choices = LazyChoices(_CONSENSUS, "BOUNDARIES")
    add_output(p, "-o", "--output", required=True, metavar="OUT", folder=_is_folder,
               help="output file (or folder for brat / ptc folders)")
    p.add_argument("--to", required=True, type=_span_format, choices=SPAN_WRITABLE,
                   metavar="FORMAT", help="output format: " + ", ".join(SPAN_WRITABLE))
    add_output(p, "--decisions", metavar="CSV", help="write the decisions table here")
    p.add_argument("--csv-raw", action="store_true",
                   help="write CSV cells as they are: by default a cell that starts with =, +, "
                   "-, @, a tab or a carriage return gets a leading ' so that a spreadsheet shows "
                   "it instead of running it as a formula (read back as it was; "
                   "docs/robustness.md)")
    p.add_argument("--format", choices=sorted(FORMATS), help="override format detection")
    p.add_argument("--name", default="consensus", type=_set_name,
                   help="name of the consensus set")
    add_beyond_text(p)
    add_output_options(p)
    return p


def _min_agree(value: str) -> int:
    """``--min-agree``: a whole number of annotators, 1 at least (more than the annotators
    given is refused once the files are read)."""
    try:
        k = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of annotators (1, 2, ...), "
                                         f"got {value!r}") from None
    if k < 1:
        raise argparse.ArgumentTypeError(f"expected a number of annotators from 1 (1 = union), "
                                         f"got {k}")
    return k


def _span_format(value: str) -> str:
    """``--to``: a format that holds spans (``hateval`` holds text-level labels)."""
    if value == "hateval":
        raise argparse.ArgumentTypeError("hateval holds text-level labels, not spans; choose "
                                         "one of " + ", ".join(SPAN_WRITABLE))
    return value


def _set_name(value: str) -> str:
    """``--name``: the consensus set's name, written into the output (an annotator column,
    a brat folder's notes): one line, not blank."""
    if not value.strip():
        raise argparse.ArgumentTypeError("expected a name for the consensus set, got an empty "
                                         "one")
    if one_line(value) != value:
        raise argparse.ArgumentTypeError(f"expected a name on one line, got '{one_line(value)}'")
    return value


def _is_folder(args: argparse.Namespace, output: str) -> bool:
    return output_is_folder(args.to, output)


def _listed(result: Consensus, kind: str) -> list[dict[str, object]]:
    if kind == "below_k":  # marked, but by fewer than k: the spans the consensus leaves out
        chosen = [d for d in result.decisions if d.decision == "drop" and d.votes < d.k]
    else:
        chosen = list(result.ties() if kind == "ties" else result.conflicts())
    return [{"id": d.id, "document": d.doc, "start": d.span.start, "end": d.span.end,
             "label": d.span.label, "decision": d.decision, "annotators": list(d.annotators),
             "flags": list(d.flags), "why": d.why} for d in chosen]


def _undecided(result: Consensus) -> int:
    """Intervals whose tied labels were left out (``--ties leave-out``): enough votes, no
    label."""
    return len({(d.doc, d.span.interval) for d in result.decisions
                if "label-tie" in d.flags and d.decision == "drop" and d.votes >= d.k})


def compute(args: argparse.Namespace) -> tuple[Result, list[str], list[str]]:
    """The command's JSON object, its warnings and its notes for stderr (files are written)."""
    # The options were checked as they were parsed, every output before the command ran
    # (core.cli.common.check_outputs); they are written all or none after the computation.
    read_warnings: list[str] = []
    aligned: list[Alignment] = []  # documents matched by text (core.model.alignment)
    sets, texts = load_annotator_sets(
        list(args.files), fmt=args.format, purpose="adjudication",
        options=read_options(args, beyond_text=bounds.from_args(args)), warnings=read_warnings,
        aligned=aligned)
    if args.min_agree > len(sets):
        raise UsageError(f"--min-agree {args.min_agree} is more than the {len(sets)} "
                         f"annotators given (each annotation set is one annotator)")
    from core.analysis.consensus import consensus, decisions_csv

    result = consensus(sets, texts, min_agree=args.min_agree, match=args.match,
                       boundaries=args.boundaries, name=args.name, ties=args.ties)
    outputs, notes = render_sets([result.set], args.output, to=args.to, texts=texts,
                                 csv_raw=args.csv_raw)
    if args.decisions:
        outputs[Path(args.decisions)] = decisions_csv(result, csv_raw=args.csv_raw)
    commit(outputs)
    out: Result = {"annotators": list(result.annotators), "min_agree": args.min_agree,
                   "match": args.match, "boundaries": args.boundaries,
                   "output": str(args.output), "format": args.to,
                   "decisions_file": args.decisions, **result.counts(),
                   "ties": _listed(result, "ties"), "conflicts": _listed(result, "conflicts"),
                   "dropped_below_k": _listed(result, "below_k"),
                   "alignment": aligned[0].as_dict() if aligned else {},
                   "tie_rule": args.ties, "undecided_ties": _undecided(result),
                   "missing_documents": {a: {"documents": len(docs), "first": list(docs[:5])}
                                         for a, docs in result.missing.items()}}
    return out, read_warnings + list(result.warnings), notes


def run(args: argparse.Namespace) -> int:
    result, warnings, notes = compute(args)
    for line in notes:
        print(line, file=sys.stderr)
    emit(result, args, render_adjudicate, warnings)
    return 0
