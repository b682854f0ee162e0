"""``score GOLD PRED --metric NAME``: one metric's scores, from the registry.

``--metric`` choices and the list in ``score --help`` come from
:mod:`core.metrics.registry`; the metric's entry says which files to read and which options its
``score`` takes, so a newly registered metric needs nothing here.
"""

from __future__ import annotations

import argparse
import textwrap

from core.cli import engine
from core.cli.common import (
    Renderer,
    Result,
    Subparsers,
    Warning_,
    add_beyond_text,
    add_output_options,
    add_span_reading_options,
    command_parser,
    emit,
)
from core.cli.engine import add_engine_options, uses_dask
from core.cli.loading import load_hateval, load_span_inputs
from core.formats import FORMATS
from core.metrics import registry
from core.metrics.result import JSONValue
from core.model.errors import Diagnostic, UsageError
from core.model.span import NOTHING
from core.model.taxonomy import describe as describe_taxonomy

NAME = "score"


def metrics_epilog() -> str:
    """The registered metrics, one per line, for ``--help``."""
    lines = ["metrics:"]
    for name in registry.names():
        m = registry.get(name)
        extra = []
        if m.variants:
            extra.append("variants: " + ", ".join(
                f"{v} [default]" if i == 0 else v for i, v in enumerate(m.variants)))
        if m.levels:
            extra.append("levels: " + ", ".join(map(str, m.levels)))
        text = m.description + (f" ({'; '.join(extra)})" if extra else "")
        lines.extend(textwrap.wrap(text, 78, initial_indent=f"  {name:<12} ",
                                   subsequent_indent=" " * 15))
    return "\n".join(lines)


LEVELS = (0, 1, 2)
ALL_LEVELS = (2, 1, 0)
"""``--level all``: every MAFALDA level, in the order the official evaluator reports them."""


def one_level(value: str) -> int:
    """``--level`` of ``explain``: 0, 1 or 2 (argparse's messages for ``type=int`` and
    ``choices``)."""
    try:
        level = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {value!r}") from None
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(f"invalid choice: {level} (choose from 0, 1, 2)")
    return level


def levels(value: str) -> int | tuple[int, ...]:
    """``--level`` of ``score``: one level (an int, as before), or several, comma-separated,
    or ``all`` (a tuple: one reading, one score per level, :func:`compute_levels`)."""
    if value == "all":
        return ALL_LEVELS
    if "," not in value:
        return one_level(value)
    parts = [p.strip() for p in value.split(",")]
    out = tuple(dict.fromkeys(one_level(p) for p in parts))
    return out if len(out) > 1 else out[0]


def add_input_options(p: argparse.ArgumentParser, *, several_levels: bool = False) -> None:
    """Options shared by ``score`` and ``explain`` (``score`` takes several levels)."""
    fmts = sorted(FORMATS)
    p.add_argument("gold", metavar="GOLD", help="gold file or folder")
    p.add_argument("pred", metavar="PRED", help="prediction file or folder")
    p.add_argument("--metric", required=True, choices=registry.names(),
                   help="which metric to compute (listed below)")
    variants = "; ".join(f"{m.name}: {', '.join(m.variants)}" for m in registry.entries()
                         if m.variants)
    p.add_argument("--variant", help=f"metric variant, default first ({variants})")
    if several_levels:
        p.add_argument("--level", type=levels, default=2, metavar="{0,1,2,all}",
                       help="MAFALDA taxonomy level, 0, 1 or 2 (default 2); several, "
                       "comma-separated (0,1,2), or all: read once, one result per level "
                       "under 'levels'")
    else:
        p.add_argument("--level", type=one_level, default=2, metavar="{0,1,2}",
                       help="MAFALDA taxonomy level (default 2)")
    add_span_reading_options(p, fmts)
    p.add_argument("--hateval-header", choices=("auto", "official"), default="auto",
                   help="HatEval header rule: auto (a first line whose labels are not integers) "
                   "or official (a first line whose id is not a number; drops such a data row)")
    p.add_argument("--per-document", action="store_true", help="add per-document scores")
    add_beyond_text(p)
    add_output_options(p)


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "score predictions against gold",
                       "Score PRED against GOLD with one metric.", epilog=metrics_epilog())
    add_input_options(p, several_levels=True)
    add_engine_options(p, sets=True)
    return p


def _as_result(value: object, per_document: bool) -> Result:
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        out = to_dict(per_document=per_document)
        assert isinstance(out, dict)
        return out
    assert isinstance(value, dict), f"a metric returned {type(value).__name__}"
    return dict(value)


def compute(args: argparse.Namespace) -> tuple[Result, list[Warning_]]:
    """The JSON object of ``score`` and its warnings (reader's, then the metric's)."""
    if isinstance(args.level, tuple):
        return compute_levels(args)
    metric = registry.get(args.metric)
    if args.variant is not None and not metric.variants:
        raise UsageError(f"the metric {metric.name!r} has no variants (got {args.variant!r})")
    metric.keywords(variant=args.variant, level=args.level)  # a bad --variant: before reading
    warnings: list[Diagnostic | str] = []
    if metric.input == "hateval":
        gold_t, pred_t, warnings_h = load_hateval(args)
        result = _as_result(metric.score(gold_t, pred_t), args.per_document)
        result["header_rule"] = args.hateval_header or "auto"
        warnings.extend(warnings_h)
    else:
        inputs = load_span_inputs(args, metric)
        warnings.extend(inputs.warnings)
        if inputs.taxonomy is not None:
            # Each label checked here, with its file: the metric only knows the sets.
            for path, aset, allow in ((args.gold, inputs.gold, False),
                                      (args.pred, inputs.pred, True)):
                for label in aset.labels():
                    if label != NOTHING:
                        inputs.taxonomy.code(label, file=str(path), allow_unknown=allow)
        value = metric.score(inputs.gold, inputs.pred,
                             **metric.keywords(**inputs.options(args)))
        result = _as_result(value, args.per_document)
        if inputs.taxonomy is not None:
            result["taxonomy"] = describe_taxonomy(inputs.taxonomy)
        if "llm_parsing" in metric.read_options:
            result["llm_parsing"] = (args.llm_parsing if inputs.pred_format == "mafalda-llm"
                                     else None)
    metric_warnings: JSONValue = result.get("warnings") or []
    assert isinstance(metric_warnings, list)
    warnings.extend(w if isinstance(w, str) else str(w) for w in metric_warnings)  # a kind kept
    result["warnings"] = []
    return result, warnings


def compute_levels(args: argparse.Namespace) -> tuple[Result, list[Warning_]]:
    """``score --level 0,1,2``: the files read once, the metric scored at each level.

    The JSON object is ``{"metric", "levels": {"2": ..., "1": ..., "0": ...}}``, each value the
    object ``score --level L`` prints (without its warnings), in the order asked; the warnings are
    the reader's, then each level's that an earlier level did not give (docs/mafalda.md).
    """
    metric = registry.get(args.metric)
    asked: tuple[int, ...] = args.level
    if not metric.levels:
        raise UsageError(f"the metric {metric.name!r} has no levels; --level takes several "
                         "values only for a metric with levels ("
                         + ", ".join(m.name for m in registry.entries() if m.levels) + ")")
    if args.variant is not None and not metric.variants:
        raise UsageError(f"the metric {metric.name!r} has no variants (got {args.variant!r})")
    for level in asked:
        metric.keywords(variant=args.variant, level=level)  # bad values: before reading
    inputs = load_span_inputs(args, metric)
    warnings: list[Diagnostic | str] = list(inputs.warnings)
    seen: set[str] = set()
    results: dict[str, JSONValue] = {}
    for level in asked:
        options = inputs.options(args)
        options["level"] = level
        value = metric.score(inputs.gold, inputs.pred, **metric.keywords(**options))
        result = _as_result(value, args.per_document)
        if inputs.taxonomy is not None:
            result["taxonomy"] = describe_taxonomy(inputs.taxonomy)
        if "llm_parsing" in metric.read_options:
            result["llm_parsing"] = (args.llm_parsing if inputs.pred_format == "mafalda-llm"
                                     else None)
        metric_warnings = result.pop("warnings", None) or []
        assert isinstance(metric_warnings, list)
        for w in map(str, metric_warnings):
            if w not in seen:
                seen.add(w)
                warnings.append(w)
        results[str(level)] = result
    return {"metric": metric.name, "levels": results, "warnings": []}, warnings


def renderer_for(metric: str) -> Renderer:
    """The metric's text report (:func:`core.cli.render.renderer_for`), imported when a report
    is drawn: ``--json`` never loads the renderers."""
    def render(result: Result) -> str:
        from core.cli.render import renderer_for as chosen

        per_level = result.get("levels")
        if isinstance(per_level, dict):  # score --level 0,1,2: one report per level
            return "\n\n".join(f"== level {level} ==\n" + chosen(metric)(one)
                                 for level, one in per_level.items()
                                 if isinstance(one, dict))
        return chosen(metric)(result)
    return render


def run(args: argparse.Namespace) -> int:
    if uses_dask(args):  # GOLD and PRED are folders of shards (docs/scale.md)
        if isinstance(args.level, tuple):
            raise UsageError("--engine dask scores one --level at a time")
        return engine.score(args, renderer_for(args.metric))
    result, warnings = compute(args)
    emit(result, args, renderer_for(args.metric), warnings)
    return 0
