"""A paper-ready table: systems × P, R, F1 under one span metric, with bootstrap intervals.

What it holds
-------------
For a reference and any number of systems, one registered span metric (variant and level as
``score`` takes them): each system's P, R and F1, the numbers ``python -m core score`` prints,
computed from the metric's additive statistics (:mod:`core.metrics.additive`), and a percentile
bootstrap interval of each over documents (:func:`core.metrics.stats.bootstrap_many`: P, R
and F1 from the *same* resamples, documents as the unit, Koehn 2004; Berg-Kirkpatrick et al.
2012). With the same resamples and seed, the F1 interval is the Scores page's.

Writing
-------
:func:`to_latex` writes a ``table`` float with a booktabs ``tabular`` (``\\toprule``,
``\\midrule``, ``\\bottomrule``; Fear, *booktabs* documentation) ready for ``\\input``, the
best value of each column in bold (every system that ties with it at the printed precision),
the interval in small type after the value, and a caption that says the metric, its variant,
the level, the reference, the number of documents, the resamples and the seed. Every string
from an input (system and reference names) is escaped (:func:`latex_escape`), so a name such
as ``gpt-3.5_level_2 & 50%`` compiles. :func:`to_markdown` writes the same as a pipe table
with a pandoc ``Table:`` caption; :func:`to_csv` one row per system with full-precision values,
the interval bounds and the settings, text cells made inert (:mod:`core.formats.csvsafe`).
See ``docs/report.md``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.formats.csvsafe import cell
from core.metrics import registry
from core.metrics.stats import FEW_DOCUMENTS, bootstrap_many
from core.model import AnnotationSet
from core.model.errors import ParameterError

MEASURES = ("P", "R", "F1")
FORMATS = ("latex", "markdown", "csv")


@dataclass(frozen=True)
class SystemRow:
    """One system's scores: ``values`` (P, R, F1) and ``intervals`` (measure -> (low, high);
    empty when the reference has fewer than two documents: every resample of one document is
    that document, so its interval would be the value itself)."""

    system: str
    values: Mapping[str, float]
    intervals: Mapping[str, tuple[float, float]]
    warnings: Sequence[str] = ()


@dataclass(frozen=True)
class ScoreTable:
    """The systems' rows and what they were computed with."""

    metric: str
    """The registry name (``martino``, ``mafalda``)."""
    variant: str | None
    level: int | None
    """The level labels are compared at (None: the metric has no levels)."""
    reference: str
    documents: int
    n_resamples: int
    seed: int
    confidence: float
    rows: Sequence[SystemRow] = field(default_factory=tuple)
    command: str = ""

    def best(self, measure: str, digits: int) -> set[str]:
        """The systems with the highest ``measure`` as printed with ``digits`` decimals (so
        that two values printed alike are both bold or neither)."""
        shown = {r.system: round(r.values[measure], digits) for r in self.rows}
        top = max(shown.values(), default=None)
        return {s for s, v in shown.items() if v == top}

    def title(self) -> str:
        """The metric as a reader of the paper knows it."""
        return registry.get(self.metric).title

    def setting(self) -> str:
        """Variant and level in words (what the caption and the CSV say)."""
        parts = [f"variant {self.variant}" if self.variant else "no variant"]
        parts.append(f"level {self.level}" if self.level is not None
                     else "labels compared as written (no levels)")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "variant": self.variant, "level": self.level,
                "reference": self.reference, "documents": self.documents,
                "resamples": self.n_resamples, "seed": self.seed,
                "confidence": self.confidence,
                "systems": [{"system": r.system, **{m: r.values[m] for m in MEASURES},
                             **{f"{m} {side}": r.intervals[m][k] if m in r.intervals else None
                                for m in MEASURES for k, side in enumerate(("low", "high"))}}
                            for r in self.rows]}


def system_row(gold: AnnotationSet, pred: AnnotationSet, *, metric: str,
               options: Mapping[str, object] | None = None, n_resamples: int = 1000,
               seed: int = 0, confidence: float = 0.95) -> SystemRow:
    """P, R, F1 of ``pred`` against ``gold`` under the registered span ``metric`` and their
    bootstrap intervals over documents.

    ``options`` are the metric's ``score`` keywords (variant, level, texts, taxonomy, ...;
    :meth:`~core.metrics.registry.Metric.keywords` keeps those it takes). The values are
    ``score``'s: the metric's ``finish`` of its statistics.
    """
    entry = registry.get(metric)
    if entry.kind != "span":
        raise ParameterError("metric", f"{metric!r} is a {entry.kind} metric; the table "
                             "needs a span metric with P, R and F1 (one of "
                             f"{', '.join(m.name for m in registry.span_metrics())})")
    if n_resamples < 1:
        raise ParameterError("n_resamples", f"n_resamples must be positive, got {n_resamples}")
    keywords: dict[str, Any] = entry.keywords(**(options or {}))
    totals = entry.statistics(entry.gold_view(gold), pred, per_document=True, **keywords)
    result = entry.finish(totals, **keywords)
    values = {"P": float(result["precision"]), "R": float(result["recall"]),
              "F1": float(result["f1"])}
    doc_table = entry.document_table(totals)
    intervals: dict[str, tuple[float, float]] = {}
    if len(doc_table.documents) > 1:
        many = bootstrap_many(doc_table.table, doc_table.measures(len(doc_table.documents)),
                              n_resamples=n_resamples, seed=seed, confidence=confidence)
        intervals = {m: (many[m].low, many[m].high) for m in MEASURES}
    return SystemRow(pred.name, values, intervals,
                     tuple(str(w) for w in getattr(totals, "warnings", ()) or ()))


def score_table(gold: AnnotationSet, systems: Sequence[AnnotationSet], *, metric: str,
                variant: str | None = None, level: int | None = None,
                options: Mapping[str, object] | None = None, n_resamples: int = 1000,
                seed: int = 0, confidence: float = 0.95, command: str = "") -> ScoreTable:
    """:func:`system_row` of every system, with the same options, as a :class:`ScoreTable`.

    >>> from core.model import Span
    >>> gold = AnnotationSet("gold", {"d1": (Span(0, 4, "A"),), "d2": (Span(0, 3, "B"),)})
    >>> a = AnnotationSet("a", {"d1": (Span(0, 4, "A"),), "d2": (Span(0, 3, "B"),)}, "system")
    >>> b = AnnotationSet("b", {"d1": (Span(0, 4, "A"),), "d2": ()}, "system")
    >>> t = score_table(gold, [a, b], metric="martino", n_resamples=200)
    >>> [(r.system, round(r.values["F1"], 3)) for r in t.rows], sorted(t.best("F1", 3))
    ([('a', 1.0), ('b', 0.667)], ['a'])
    """
    keywords = {**(options or {}), "variant": variant, "level": level}
    rows = [system_row(gold, s, metric=metric, options=keywords, n_resamples=n_resamples,
                       seed=seed, confidence=confidence) for s in systems]
    return table_of(rows, gold, metric=metric, options=keywords, n_resamples=n_resamples,
                    seed=seed, confidence=confidence, command=command)


def table_of(rows: Sequence[SystemRow], gold: AnnotationSet, *, metric: str,
             options: Mapping[str, object] | None = None, n_resamples: int = 1000,
             seed: int = 0, confidence: float = 0.95, command: str = "") -> ScoreTable:
    """Rows computed one by one (:func:`system_row`, each with its own read options) as one
    :class:`ScoreTable`; ``options`` give the variant and level the caption states."""
    entry = registry.get(metric)
    keywords = entry.keywords(**(options or {}))
    level = keywords.get("level") if entry.levels else None
    variant = keywords.get("variant")
    return ScoreTable(entry.name, None if variant is None else str(variant),
                      int(level) if isinstance(level, int) else None, gold.name,
                      len(gold.doc_ids), n_resamples, seed, confidence, tuple(rows), command)


# ---- writing ------------------------------------------------------------------------------------

_LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                   "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                   "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
                   "|": r"\textbar{}"}


def latex_escape(text: str) -> str:
    r"""``text`` as LaTeX prints it: the ten special characters (and ``< > |``, which the
    default OT1 font encoding prints as other glyphs) as commands; line breaks as spaces.

    >>> print(latex_escape("gpt-3.5_level_2 & 50% {#1} ~a^b\\c"))
    gpt-3.5\_level\_2 \& 50\% \{\#1\} \textasciitilde{}a\textasciicircum{}b\textbackslash{}c
    """
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in " ".join(text.splitlines()))


def few_documents_note(documents: int) -> str | None:
    """The one-line caveat ``table`` prints when the intervals rest on fewer than
    :data:`~core.metrics.stats.FEW_DOCUMENTS` documents (the Scores page's and the report's),
    else None.

    >>> few_documents_note(1)
    'only 1 document: no interval (—), every bootstrap resample is that document'
    >>> few_documents_note(20) is None
    True
    """
    if documents >= FEW_DOCUMENTS:
        return None
    if documents <= 1:
        return (f"only {documents} document: no interval (—), every bootstrap resample is "
                "that document")
    return (f"only {documents:,} documents (fewer than {FEW_DOCUMENTS}): the bootstrap "
            "resamples documents, so the intervals say little")


def _caption_facts(t: ScoreTable) -> str:
    percent = f"{100 * t.confidence:g}"
    return (f"{t.setting()}; against {{ref}} ({t.documents:,} "
            f"document{'' if t.documents == 1 else 's'}); "
            f"brackets: {percent}% percentile bootstrap interval over documents "
            f"({t.n_resamples:,} resamples, seed {t.seed}); best value of each column in bold")


def caption(t: ScoreTable) -> str:
    """The caption as plain text: metric, variant, level, reference, resamples and seed."""
    return (f"P, R and F1 of each system under {t.title()} ({t.metric}), "
            + _caption_facts(t).replace("{ref}", t.reference) + ".")


def _number(v: float, digits: int) -> str:
    return f"{v:.{digits}f}"


def _rows(t: ScoreTable, digits: int, *, bold: Callable[[str], str],
          interval: Callable[[str, str], str], none: str
          ) -> Iterator[tuple[SystemRow, list[str]]]:
    """Each row with its P, R and F1 cells as printed: the value with ``digits`` decimals,
    ``bold`` when it is the column's best (:meth:`ScoreTable.best`), then the ``interval``,
    or ``none`` when there is none (fewer than two documents). The LaTeX and Markdown tables
    differ only in these marks."""
    best = {m: t.best(m, digits) for m in MEASURES}
    for r in t.rows:
        values = []
        for m in MEASURES:
            value = _number(r.values[m], digits)
            if r.system in best[m]:
                value = bold(value)
            if m in r.intervals:
                value += interval(*(_number(x, digits) for x in r.intervals[m]))
            else:
                value += none
            values.append(value)
        yield r, values


def to_latex(t: ScoreTable, *, digits: int = 3) -> str:
    r"""The table as a LaTeX ``table`` float (needs ``\usepackage{booktabs}``)."""
    # A comment line ends at the line's end: the command stays as typed, to be copied.
    lines = [f"% SpanScope: {' '.join(t.command.splitlines())}" if t.command else "% SpanScope",
             r"% needs \usepackage{booktabs}",
             r"\begin{table}[t]", r"\centering", r"\small",
             r"\begin{tabular}{l" + "r" * len(MEASURES) + "}", r"\toprule",
             r"System & $P$ & $R$ & $F_1$ \\", r"\midrule"]
    for r, values in _rows(t, digits, bold=lambda v: rf"\textbf{{{v}}}",
                           interval=lambda lo, hi: rf" {{\scriptsize[{lo}, {hi}]}}",
                           none=r" {\scriptsize[---]}"):
        lines.append(" & ".join([latex_escape(r.system), *values]) + r" \\")
    facts = latex_escape(_caption_facts(t)).replace(
        latex_escape("{ref}"), r"\texttt{" + latex_escape(t.reference) + "}")
    lines += [r"\bottomrule", r"\end{tabular}",
              rf"\caption{{$P$, $R$ and $F_1$ of each system under {latex_escape(t.title())} "
              rf"(\texttt{{{latex_escape(t.metric)}}}), {facts}.}}",
              rf"\label{{tab:spanscope-{t.metric}}}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def markdown_escape(text: str) -> str:
    r"""``text`` as a Markdown table cell or caption shows it: the characters that format,
    link, open HTML or end a cell are backslash-escaped (none of these strings starts a line,
    so ``#``, ``+`` and ``-`` stay as they are).

    >>> print(markdown_escape("a|b *c* _d_ [e] (f) <g>"))
    a\|b \*c\* \_d\_ \[e\] (f) \<g\>
    """
    return "".join("\\" + ch if ch in "\\`*_[]<>|~" else ch
                   for ch in " ".join(text.splitlines()))


def to_markdown(t: ScoreTable, *, digits: int = 3) -> str:
    """The table as a pipe table with a pandoc ``Table:`` caption."""
    lines = ["| System | P | R | F1 |", "|:---|---:|---:|---:|"]
    for r, values in _rows(t, digits, bold=lambda v: f"**{v}**",
                           interval=lambda lo, hi: f" [{lo}, {hi}]", none=" [—]"):
        lines.append("| " + " | ".join([markdown_escape(r.system), *values]) + " |")
    return "\n".join(lines) + "\n\nTable: " + markdown_escape(caption(t)) + "\n"


CSV_COLUMNS = ("system", "P", "P low", "P high", "R", "R low", "R high", "F1", "F1 low",
               "F1 high", "best", "metric", "variant", "level", "reference", "documents",
               "resamples", "seed", "confidence")


def to_csv(t: ScoreTable, *, digits: int = 3) -> str:
    """One row per system: full-precision values and bounds, the measures in which it is best
    (at ``digits`` decimals, ``;``-separated), and the settings; text cells made inert."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    best = {m: t.best(m, digits) for m in MEASURES}
    for r in t.rows:
        row: list[object] = [cell(r.system)]
        for m in MEASURES:
            low, high = r.intervals.get(m, (None, None))
            row += [repr(r.values[m]), "" if low is None else repr(low),
                    "" if high is None else repr(high)]
        row += [";".join(m for m in MEASURES if r.system in best[m]), t.metric,
                t.variant or "", "" if t.level is None else t.level, cell(t.reference),
                t.documents, t.n_resamples, t.seed, t.confidence]
        writer.writerow(row)
    return out.getvalue()


WRITERS = {"latex": to_latex, "markdown": to_markdown, "csv": to_csv}


def render(t: ScoreTable, to: str, *, digits: int = 3) -> str:
    """The table in format ``to`` (one of :data:`FORMATS`)."""
    if to not in WRITERS:
        raise ParameterError("to", f"The 'to' parameter of render must be one of "
                             f"{{{', '.join(FORMATS)}}}. Got {to!r} instead.")
    if not 0 <= digits <= 6:
        raise ParameterError("digits", f"digits must be between 0 and 6, got {digits}")
    return WRITERS[to](t, digits=digits)


__all__ = ["CSV_COLUMNS", "FORMATS", "MEASURES", "ScoreTable", "SystemRow", "caption",
           "few_documents_note", "latex_escape", "markdown_escape", "render", "score_table",
           "system_row", "table_of", "to_csv", "to_latex", "to_markdown"]
