"""``python -m core adjudicate``: the consensus of several annotators' files, and its decisions.

::

    python -m core adjudicate ann1.json ann2.json ann3.json --min-agree 2 \\
        --match gamma --boundaries majority -o consensus.json --to semeval2021 \\
        --decisions decisions.csv

Reads every FILE (a file may hold several annotators, e.g. Label Studio or a ``spans-csv`` with
an ``annotator`` column), builds :func:`core.analysis.consensus.consensus`, writes it to OUT in
any writable format (as ``convert`` does) and, with ``--decisions``, the decisions CSV
(:data:`core.analysis.consensus.DECISION_COLUMNS`). Ties and conflicts are listed on standard
output (or in the ``--json`` object), never decided silently. Exit status as every command: 0,
1 for invalid input (one line on stderr), 2 for a usage error.

All of the command lives here; ``core/cli.py`` only registers :func:`add_parser` and calls
:func:`run`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from core.analysis.consensus import BOUNDARIES, MATCHES, Consensus, consensus, decisions_csv
from core.errors import FormatError, InputError, UsageError
from core.formats import FORMATS, WRITABLE, Loaded, load_path
from core.model import AnnotationSet


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``adjudicate`` on the subparsers of ``python -m core``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "adjudicate", help="consensus of several annotators, with a decisions table",
        description="Build the consensus of several annotators' spans (k of n must agree) and "
        "write it in any writable format; ties and conflicts are listed.")
    p.add_argument("files", nargs="+", metavar="FILE", help="annotation files (one or more "
                   "annotators each)")
    p.add_argument("--min-agree", type=int, required=True, metavar="K",
                   help="annotators that must mark a span for it to be kept (1 = union, "
                   "n = everyone)")
    p.add_argument("--match", choices=MATCHES, default="gamma",
                   help="how spans of different annotators are matched: gamma alignment "
                   "(Mathet et al. 2015, default), overlap, exact, or char (character-level "
                   "majority, no matching)")
    p.add_argument("--boundaries", choices=BOUNDARIES, default="majority",
                   help="boundaries of a kept span: majority of characters (default), union or "
                   "intersection")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output file (or folder for brat / ptc folders)")
    p.add_argument("--to", required=True, choices=WRITABLE, metavar="FORMAT",
                   help="output format: " + ", ".join(WRITABLE))
    p.add_argument("--decisions", metavar="CSV", help="write the decisions table here")
    p.add_argument("--format", choices=sorted(FORMATS), help="override format detection")
    p.add_argument("--name", default="consensus", help="name of the consensus set")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def load_sets(files: list[str], *, fmt: str | None = None
              ) -> tuple[list[AnnotationSet], dict[str, str | None]]:
    """Every annotation set of ``files`` and their texts (a name that repeats across files gets
    the file name in front, as ``python -m core agree`` does)."""
    found: list[tuple[str, AnnotationSet]] = []
    texts: dict[str, str | None] = {}
    for path in files:
        loaded = load_path(path, fmt=fmt)
        for doc, text in loaded.texts.items():
            if text is not None and texts.get(doc) not in (None, text):
                raise InputError(f"{path}: document {doc!r} has a different text than in an "
                                 "earlier file; a consensus needs the same texts")
            if text is not None or doc not in texts:
                texts[doc] = text
        found.extend((path, s) for s in loaded.sets)
    names = [s.name for _, s in found]
    sets = [AnnotationSet(s.name if names.count(s.name) == 1 else f"{Path(p).name}:{s.name}",
                          s.spans, "annotator", s.alternatives) for p, s in found]
    if len(sets) < 2:
        raise InputError(f"adjudication needs at least two annotation sets; the input holds "
                         f"{len(sets)} ({', '.join(s.name for s in sets) or 'none'})")
    return sets, texts


def write_set(to: str, output: str | Path, texts: dict[str, str | None],
              aset: AnnotationSet) -> list[str]:
    """Write ``aset`` to ``output`` as ``to`` (the layouts of ``python -m core convert``)."""
    from core.tools import FOLDER_FORMATS, _losses, _render

    out = Path(output)
    loaded = Loaded(format="consensus", source=str(out), texts=texts, sets=[aset])
    try:
        files = _render(to, out, loaded, [aset])
    except FormatError as exc:
        if exc.file != "<output>":
            raise
        raise FormatError(str(out), exc.diagnostic.message) from None
    as_folder = to in FOLDER_FORMATS or (to == "ptc" and out.suffix.lower() not in (".tsv",
                                                                                    ".txt"))
    if as_folder:
        if out.exists() and not out.is_dir():
            raise FormatError(str(out), f"the {to} format is written as a folder, but this is "
                              "a file")
        out.mkdir(parents=True, exist_ok=True)
        for rel, content in files.items():
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8", newline="")
    else:
        if out.is_dir():
            raise FormatError(str(out), "is a folder; give a file name for the output")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(next(iter(files.values())), encoding="utf-8", newline="")
    return _losses(to, out, loaded, [aset])


def _listed(result: Consensus, kind: str) -> list[dict[str, Any]]:
    chosen = result.ties() if kind == "ties" else result.conflicts()
    return [{"id": d.id, "document": d.doc, "start": d.span.start, "end": d.span.end,
             "label": d.span.label, "decision": d.decision, "annotators": list(d.annotators),
             "flags": list(d.flags), "why": d.why} for d in chosen]


def adjudicate(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """The command's JSON object and its messages for stderr (files are written)."""
    if args.min_agree < 1:
        raise UsageError(f"The 'min_agree' parameter of adjudicate must be at least 1. Got "
                         f"{args.min_agree!r} instead.")
    if args.to == "hateval":
        raise UsageError("The 'to' parameter of adjudicate must be a span format; hateval "
                         "holds text-level labels. Got 'hateval' instead.")
    sets, texts = load_sets(list(args.files), fmt=args.format)
    if args.min_agree > len(sets):
        raise UsageError(f"The 'min_agree' parameter of adjudicate must be at most the number "
                         f"of annotation sets ({len(sets)}). Got {args.min_agree!r} instead.")
    result = consensus(sets, texts, min_agree=args.min_agree, match=args.match,
                       boundaries=args.boundaries, name=args.name)
    messages = [f"warning: {w}" for w in result.warnings]
    messages.extend(write_set(args.to, args.output, texts, result.set))
    if args.decisions:
        path = Path(args.decisions)
        if path.is_dir():
            raise FormatError(str(path), "is a folder; give a file name for the decisions")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(decisions_csv(result), encoding="utf-8", newline="")
    out: dict[str, Any] = {"annotators": list(result.annotators),
                           "min_agree": args.min_agree, "match": args.match,
                           "boundaries": args.boundaries, "output": str(args.output),
                           "format": args.to, "decisions_file": args.decisions,
                           **result.counts(), "ties": _listed(result, "ties"),
                           "conflicts": _listed(result, "conflicts"),
                           "warnings": list(result.warnings)}
    return out, messages


def render_text(result: dict[str, Any]) -> str:
    lines = [f"consensus of {', '.join(result['annotators'])}: k={result['min_agree']}, "
             f"match={result['match']}, boundaries={result['boundaries']}",
             f"{result['kept']} kept, {result['dropped']} dropped of {result['decisions']} "
             f"proposed spans in {result['documents']} documents; {result['disputed']} disputed",
             f"wrote {result['spans']} spans as {result['format']} to {result['output']}"
             + (f"; decisions to {result['decisions_file']}" if result["decisions_file"]
                else "")]
    for kind in ("ties", "conflicts"):
        rows = result[kind]
        lines.append("")
        lines.append(f"{kind} ({len(rows)}):" if rows else f"{kind}: none")
        for r in rows:
            lines.append(f"  {r['id']} [{r['start']}, {r['end']}) {r['label']}: "
                         f"{r['decision']} ({', '.join(r['flags'])}) - {r['why']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run the command; errors propagate to ``core.cli.main`` (exit 1 or 2)."""
    result, messages = adjudicate(args)
    for line in messages:
        print(line, file=sys.stderr)
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(render_text(result))
    return 0
