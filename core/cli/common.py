"""What every command shares: option helpers, JSON and text output, warning summaries, and the
translation of library errors (which name parameters) into command-line flags."""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from core.formats.tool_options import OPTION_NAMES, SCHEMES
from core.model.errors import (
    Diagnostic,
    KindedText,
    did_you_mean,
    expand,
    kind_counts,
    warning_kind,
    warning_total,
)
from core.model.textsafe import one_line

if TYPE_CHECKING:  # pragma: no cover - core.formats is imported by the commands that read
    from core.formats import ReadOptions

JSONValue = object
"""A value ``json.dumps`` accepts."""
Result = dict[str, JSONValue]
Renderer = Callable[[Result], str]
Warning_ = Diagnostic | str

SHOWN_WARNINGS = 10
"""Warnings the text output lists before "N more; pass --all-warnings"."""
JSON_WARNINGS = 100
"""Warnings the JSON output keeps (``warnings``) unless ``--all-warnings``; ``warning_counts``
always counts all of them."""


class Command(Protocol):
    """A command module: ``add_parser(subparsers)`` declares it, ``run(args)`` runs it and
    returns the exit status."""

    def add_parser(self, subparsers: Subparsers) -> argparse.ArgumentParser: ...

    def run(self, args: argparse.Namespace) -> int: ...


class Parser(argparse.ArgumentParser):
    """The command line's parser: a value outside an option's ``choices`` (``--match``,
    ``--format``, ``--metric``, a command's name, ...) is refused as argparse refuses it, with
    the closest choice offered (``did you mean 'martino'?``, :func:`difflib.get_close_matches`).
    Its sub-commands' parsers are of this class too (``add_subparsers`` makes them so), so every
    command's options answer a typo the same way."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse checks every choices= value here (ArgumentParser._check_value, the one place
        # the "invalid choice" message is made); the suggestion is added to its message.
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            hint = did_you_mean(value, action.choices or ())
            if not hint:
                raise
            raise argparse.ArgumentError(action, f"{exc.message}; {hint}") from None


def with_hint(exc: Exception) -> str:
    """The message of ``exc``, and for a value outside a list of choices checked outside
    argparse (``--variant``, ``agree --measure``: a :class:`~core.model.errors.ParameterError`
    of :func:`~core.model.errors.check_choice`) the closest choice, as :class:`Parser` offers it.

    >>> from core.model.errors import ParameterError, check_choice
    >>> try:
    ...     check_choice("measure", "agree", "gama", ["gamma"])
    ... except ParameterError as exc:
    ...     print(with_hint(exc))
    The 'measure' parameter of agree must be one of {'gamma'}. Got 'gama' instead.
    Did you mean 'gamma'?
    """
    from core.model.errors import ParameterError

    hint = exc.suggestion() if isinstance(exc, ParameterError) else ""
    return f"{exc} {hint[0].upper()}{hint[1:]}" if hint else str(exc)


Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_subparsers()`` returns (argparse exposes no public name for it)."""


def command_parser(subparsers: Subparsers, name: str, summary: str, description: str, *,
                   epilog: str | None = None) -> argparse.ArgumentParser:
    """Declare command ``name`` (``summary`` in the command list, ``description`` in its help;
    an ``epilog`` keeps its line breaks)."""
    return subparsers.add_parser(
        name, help=summary, description=description, epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter if epilog else argparse.HelpFormatter)


class LazyChoices:
    """An option's ``choices`` read from a module's constant when argparse first needs them,
    so that building the parser does not import what only one command uses (scipy, pandas)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def _values(self) -> Sequence[object]:
        import importlib

        values: Sequence[object] = getattr(importlib.import_module(self.module), self.name)
        return values

    def __contains__(self, value: object) -> bool:
        return value in self._values()

    def __iter__(self) -> Iterator[object]:
        return iter(self._values())


FolderRule = Callable[[argparse.Namespace, str], bool]
"""Whether an output is written as a folder, given the command's arguments and the path."""


def add_output(p: argparse.ArgumentParser, *flags: str, folder: FolderRule | None = None,
               **kwargs: Any) -> argparse.Action:
    """Declare an argument naming a file (or, when ``folder`` says so, a folder) that the command
    writes. :func:`check_outputs`, which :func:`core.cli.main` calls before the command runs,
    checks every declared output, so that a path that cannot be written is refused before any
    input is read, with one message for every command."""
    action = p.add_argument(*flags, **kwargs)
    shown = "/".join(action.option_strings) or str(action.metavar or action.dest)
    declared = p.get_default("outputs") or ()
    p.set_defaults(outputs=(*declared, (action.dest, shown, folder)))
    return action


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse the outputs of a command that cannot be written, before it runs: a missing folder,
    a folder where a file is wanted, a place where no file can be created
    (:func:`core.formats.atomic.check_writable`, :class:`~core.model.errors.FormatError`), and
    two outputs naming the same file (:class:`~core.model.errors.UsageError`), which would
    leave only the last one written."""
    import os
    from pathlib import Path

    from core.formats.atomic import check_writable
    from core.model.errors import UsageError

    seen: dict[str, str] = {}
    for dest, shown, folder in getattr(args, "outputs", ()):
        value = getattr(args, dest, None)
        if value is None:
            continue
        path = Path(value)
        if not path.exists() or path.is_file() or path.is_dir():  # a device may be named twice
            key = os.path.realpath(path)
            if key in seen:
                raise UsageError(f"{shown} {value} is the file {seen[key]} writes too; give "
                                 "each output its own file")
            seen[key] = shown
        check_writable(value, folder=folder(args, value) if folder else False)


def add_output_options(p: argparse.ArgumentParser) -> None:
    """``--json`` and ``--all-warnings``."""
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--all-warnings", action="store_true",
                   help=f"list every warning (text: the first {SHOWN_WARNINGS}; JSON: the first "
                   f"{JSON_WARNINGS}, with counts per kind always)")


def add_span_reading_options(p: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    """How a reference and predictions are read for a span metric (``score``, ``explain``,
    ``table``): format overrides, ``--labels``, ``--taxonomy``, the official scorers'
    ``-m``/``-f`` flags and MAFALDA's answer parsing."""
    p.add_argument("--gold-format", choices=formats, help="override format detection for GOLD")
    p.add_argument("--pred-format", choices=formats, help="override format detection for PRED")
    add_label_options(p)
    p.add_argument("--merge-pred", action="store_true",
                   help="merge overlapping predictions (the official -m flag)")
    p.add_argument("--fragments-only", action="store_true",
                   help="ignore labels (the official -f flag)")
    add_llm_parsing(p)


def add_label_options(p: argparse.ArgumentParser) -> None:
    """``--labels`` and ``--taxonomy``: the label list the files are read with and MAFALDA's
    grouping of labels into levels (``score``, ``table``, ``slices``, ``report``)."""
    p.add_argument("--labels", metavar="FILE",
                   help="label list, one per line (replaces the task's technique list), or "
                   "a doccano label config (the JSON of doccano's label page: its numeric "
                   "label ids become names)")
    p.add_argument("--taxonomy", metavar="FILE",
                   help="MAFALDA-style grouping of labels into levels (JSON)")


def add_llm_parsing(p: argparse.ArgumentParser) -> None:
    """``--llm-parsing``: how MAFALDA model answers become spans (docs/mafalda.md)."""
    p.add_argument("--llm-parsing", choices=("paper-2023", "repo-head"), default="paper-2023",
                   help="how MAFALDA model answers become spans (default paper-2023)")


def add_beyond_text(p: argparse.ArgumentParser) -> None:
    """``--beyond-text`` and its shorthand ``--clip-spans`` (:mod:`core.model.bounds`: one policy
    for spans that end past their document's text)."""
    p.add_argument("--beyond-text", choices=("refuse", "clip", "official"), default="refuse",
                   help="spans that end past their document's text: refuse (default), clip them "
                   "to the text, or keep them as the official scorers do (official also keeps "
                   "MAFALDA's zero-length spans); a warning per span")
    p.add_argument("--clip-spans", dest="beyond_text", action="store_const", const="clip",
                   help="same as --beyond-text clip")


def _column(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a column number (1, 2, ...), got {value!r}"
                                         ) from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a column number from 1, got {number}")
    return number


def add_tool_options(parser: argparse.ArgumentParser) -> None:
    """Add the flags of the annotation-tool and NER readers to a subcommand's parser
    (:mod:`core.formats.tool_options`; :func:`read_options` turns them into reader options)."""
    group = parser.add_argument_group("annotation tools and NER formats")
    group.add_argument("--layer", metavar="NAME",
                       help="WebAnno TSV / UIMA XMI: the span layer to read (full or short name; "
                       "default: a webanno.custom layer, else NamedEntity, else the first)")
    group.add_argument("--feature", metavar="NAME",
                       help="WebAnno TSV / UIMA XMI: the feature that holds the label (default: "
                       "'value' when the layer has it, else its first feature)")
    group.add_argument("--span-group", metavar="NAME",
                       help="spaCy: the span group to read (default: ents, else the only group)")
    group.add_argument("--scheme", choices=SCHEMES, metavar="SCHEME",
                       help="CoNLL: how tags become spans: auto (seqeval's default mode) or "
                       "strict with one of " + ", ".join(s for s in SCHEMES[1:] if s != "IO")
                       + ", or IO (a bare type per token, no B-/I- prefix: a chunk is a run of "
                       "one type)")
    group.add_argument("--text-column", type=_column, metavar="N",
                       help="CoNLL: the column holding the token (default 1; tags are in the "
                       "last column); Label Studio CSV/TSV: the column holding the text")
    group.add_argument("--tag-column", type=_column, metavar="N",
                       help="CoNLL: the column holding the tags (default: the last; GermEval "
                       "2014's 4-column files: 3 for the outer entities, 4 for the inner)")
    group.add_argument("--line-breaks", choices=("universal", "as-stored"),
                       help="PTC article texts: universal (default) reads a CRLF line break as "
                       "one character, as the PTC offsets count it; as-stored keeps the CR")


def tool_options(args: argparse.Namespace) -> ReadOptions:
    """Reader options with the tool flags of ``args`` (``--layer`` ... ``--line-breaks``;
    absent ones None) and every other field at its default: for a caller that reads the
    ``--labels`` file itself (:func:`core.formats.tools.validate`,
    :func:`core.formats.tools.convert`)."""
    from core.formats import ReadOptions

    layer, feature, span_group, scheme, text_column, tag_column = (getattr(args, name, None)
                                                                   for name in OPTION_NAMES)
    return ReadOptions(layer=layer, feature=feature, span_group=span_group, scheme=scheme,
                       text_column=text_column, tag_column=tag_column,
                       line_breaks=getattr(args, "line_breaks", None) or "universal")


def read_options(args: argparse.Namespace, **fields: Any) -> ReadOptions:
    """The reader options the command line asks for: its tool flags (:func:`tool_options`),
    doccano's label ids when ``--labels`` names a doccano label config
    (:func:`core.formats.tools.read_label_file`; None for a plain list), and ``fields`` (role,
    labels,
    policy, ...) over them. A command builds them where it reads, so that a ``--labels`` file
    that cannot be read is named before the inputs are."""
    from dataclasses import replace

    base = tool_options(args)
    labels_file = getattr(args, "labels", None)
    if labels_file is not None and "label_ids" not in fields:
        from core.formats.tools import read_label_file

        base = replace(base, label_ids=read_label_file(labels_file).ids)
    return replace(base, **fields)


_PLAIN = frozenset({str, int, bool, type(None)})


def jsonable(value: JSONValue) -> JSONValue:
    """Make floats JSON-safe: NaN and infinities become null.

    Keys become strings and tuples lists. Values of a plain type (str, int, bool, None) are
    taken as they are without a call: an ``errors --spans`` result holds a dict per span, and
    a call per scalar was a third of its JSON output's time (issue 29, ninth pass).
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {(k if type(k) is str else str(k)): (v if type(v) in _PLAIN else jsonable(v))
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _PLAIN else jsonable(v) for v in value]
    return value


def warning_counts(warnings: Sequence[Warning_]) -> dict[str, int]:
    """Warnings per kind (``Diagnostic.kind``, or the kind read off a message), most first; a
    grouped diagnostic counts its ``count``."""
    counts = kind_counts(warnings)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def kinded_line(warning: Warning_) -> str:
    """A ``warning:`` line that names the warning's kind, as ``warning_counts`` counts it: what
    ``convert`` and ``report``, which print no JSON, say of each warning.

    >>> kinded_line(KindedText("labels 'a' and 'A' differ", "label-variants"))
    "warning: [label-variants] labels 'a' and 'A' differ"
    """
    return f"warning: [{warning_kind(warning)}] {warning}"


def warning_summary(warnings: Sequence[Warning_], *, all_warnings: bool) -> list[str]:
    """Text lines: the count per kind, the first :data:`SHOWN_WARNINGS` warnings (all of them
    with ``all_warnings``), then how many more there are.

    >>> warning_summary(["a.json:1: the span [0, 2) ends in whitespace: 'a '"] * 12,
    ...                 all_warnings=False)[0]
    'warnings: 12 (whitespace 12)'
    >>> warning_summary(["x"] * 12, all_warnings=False)[-1]
    '2 more; pass --all-warnings to list them all'
    """
    if not warnings:
        return []
    total = warning_total(warnings)
    kinds = ", ".join(f"{k} {n}" for k, n in warning_counts(warnings).items())
    lines = [f"warnings: {total} ({kinds})"]
    listed = expand(warnings)
    shown = list(listed if all_warnings else itertools.islice(listed, SHOWN_WARNINGS))
    lines.extend(f"warning: {one_line(str(w))}" for w in shown)
    if len(shown) < total:
        lines.append(f"{total - len(shown)} more; pass --all-warnings to list them all")
    return lines


def emit(result: Result, args: argparse.Namespace, renderer: Renderer,
         warnings: Sequence[Warning_] = ()) -> None:
    """Print ``result`` as one JSON object (``--json``) or as text, with its warnings.

    JSON: ``warnings`` keeps at most :data:`JSON_WARNINGS` messages unless ``--all-warnings``;
    ``warning_counts`` counts every warning by kind. Text: the renderer's report, then
    :func:`warning_summary`. Messages from the library name parameters (``labels=[...]``);
    ``args.flags`` (set by :func:`core.cli.main`) turns them into flags.
    """
    all_warnings = bool(getattr(args, "all_warnings", False))
    flags: Mapping[str, str] = getattr(args, "flags", None) or {}
    warnings = [w if isinstance(w, Diagnostic) else flag_message(w, flags) for w in warnings]
    if getattr(args, "json", False):
        out = dict(result)
        listed = expand(warnings)
        kept = listed if all_warnings else itertools.islice(listed, JSON_WARNINGS)
        out["warnings"] = [str(w) for w in kept]
        out["warning_counts"] = warning_counts(warnings)
        # one string, one write: json.dump writes every token apart (issue 29, ninth pass)
        sys.stdout.write(json.dumps(jsonable(out), ensure_ascii=False) + "\n")
        return
    lines = [renderer(result)]
    summary = warning_summary(warnings, all_warnings=all_warnings)
    if summary:
        lines.append("")
        lines.extend(summary)
    print("\n".join(lines))


def _fmt_scalar(value: JSONValue) -> str:
    if isinstance(value, float):
        return f"{value:.6f}"
    return one_line(str(value))


def render_generic(result: Result) -> str:
    """A readable rendering of any result: scalars first, then one table per nested mapping."""
    lines: list[str] = []
    width = max((len(k) for k in result), default=0)
    for key, value in result.items():
        if not isinstance(value, (dict, list)):
            lines.append(f"{key:<{width}}  {_fmt_scalar(value)}")
    for key, value in result.items():
        if isinstance(value, dict) and value:
            lines.append("")
            lines.append(f"{key}:")
            rows = list(value.items())
            if all(isinstance(v, dict) for _, v in rows):
                cols: list[str] = []
                for _, v in rows:
                    assert isinstance(v, dict)
                    cols.extend(
                        c for c in v if c not in cols and not isinstance(v[c], (dict, list))
                    )
                kw = max(len(str(k)) for k, _ in rows)
                lines.append("  " + " " * kw + "".join(f"  {c:>12}" for c in cols))
                for k, v in rows:
                    assert isinstance(v, dict)
                    cells = "".join(f"  {_fmt_scalar(v.get(c, '')):>12}" for c in cols)
                    lines.append(f"  {one_line(str(k)):<{kw}}{cells}")
            else:
                kw = max(len(str(k)) for k, _ in rows)
                for k, v in rows:
                    lines.append(f"  {one_line(str(k)):<{kw}}  {_fmt_scalar(v)}")
        elif isinstance(value, list) and value and key != "warnings":
            lines.append("")
            lines.append(f"{key}: {len(value)} rows")
            for row in value:
                lines.append("  " + (", ".join(f"{k}={_fmt_scalar(v)}" for k, v in row.items())
                                     if isinstance(row, dict) else str(row)))
    return "\n".join(lines)


_ASSIGNMENT = re.compile(r"\b([a-z][a-z_]*)=(True|\[\.\.\.\])")


def flag_message(message: str, flags: Mapping[str, str], param: str | None = None) -> str:
    """A library message with its parameters (``merge_pred=True``, ``labels=[...]``) replaced by
    the command's flags; a message about parameter ``param`` (a ``ParameterError``, worded "The
    'variant' parameter of martino ...") gets the flag to use appended.

    >>> flags = {"merge_pred": "--merge-pred", "labels": "--labels", "variant": "--variant"}
    >>> flag_message("pass merge_pred=True (-m) or labels=[...]", flags)
    'pass --merge-pred (-m) or --labels FILE'
    >>> flag_message("The 'variant' parameter of martino must be one of {'a'}.", flags, "variant")
    "The 'variant' parameter of martino must be one of {'a'}. (option --variant)"
    """
    def assignment(m: re.Match[str]) -> str:
        flag = flags.get(m.group(1))
        if flag is None:
            return m.group(0)
        return flag if m.group(2) == "True" else f"{flag} FILE"

    out = _ASSIGNMENT.sub(assignment, message)
    if param is not None and param in flags and flags[param] not in out:
        out += f" (option {flags[param]})"
    # a warning that names its kind keeps it (core.model.errors.KindedText)
    return KindedText(out, message.kind) if isinstance(message, KindedText) else out


def parser_flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Parameter name -> long flag of every option of ``parser`` and its sub-commands."""
    out: dict[str, str] = {}
    stack = [parser]
    while stack:
        p = stack.pop()
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(action.choices.values())
            longs = [o for o in action.option_strings if o.startswith("--")]
            if longs:
                out.setdefault(action.dest, longs[0])
                out.setdefault(longs[0][2:].replace("-", "_"), longs[0])
    return out
