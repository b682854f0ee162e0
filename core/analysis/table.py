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

Comparing
---------
:func:`with_comparisons` tests every system against one (the best F1 by default) on P, R and
F1 with approximate randomization and the paired bootstrap over documents
(:mod:`core.analysis.significance`); the LaTeX and Markdown tables then mark with a dagger each
value that differs from that system's at p < α under the chosen test, the caption names the
test, and Markdown adds a table of the differences with their intervals and p-values.
See ``docs/report.md``.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from core.analysis.significance import TESTS, Comparison, check_test, compare, p_value
from core.formats.csvsafe import cell
from core.metrics import registry
from core.metrics.additive import DocumentTable
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
    table: DocumentTable | None = field(default=None, compare=False, repr=False)
    """The per-document statistics the values and intervals come from (what a paired test
    swaps and resamples; None for a row built by hand)."""


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
    against: str | None = None
    """The system every other is tested against (None: no comparison)."""
    comparisons: Sequence[Comparison] = ()
    test: str = "randomization"
    """The test whose p-values mark the table (:data:`~core.analysis.significance.TESTS`)."""
    alpha: float = 0.05

    def significant(self, system: str, measure: str) -> bool:
        """Whether ``system``'s ``measure`` differs from the compared system's at p < α."""
        for c in self.comparisons:
            if c.system == system and c.measure == measure:
                p = p_value(c, self.test)
                return p is not None and p < self.alpha
        return False

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
                            for r in self.rows],
                **({} if self.against is None else {"comparison": self.comparison_dict()})}

    def comparison_dict(self) -> dict[str, Any]:
        """The ``comparison`` object of ``table --compare --json``: the system compared
        against, the test that marks, α, and per other system each measure's difference, its
        paired bootstrap interval, both p-values and whether it is significant."""
        rows: dict[str, dict[str, Any]] = {}
        for c in self.comparisons:
            row = rows.setdefault(c.system, {"system": c.system})
            row.update({f"{c.measure} difference": c.difference,
                        f"{c.measure} difference low": c.low,
                        f"{c.measure} difference high": c.high,
                        f"{c.measure} p bootstrap": c.p_bootstrap,
                        f"{c.measure} p randomization": c.p_randomization,
                        f"{c.measure} significant": self.significant(c.system, c.measure)})
        return {"against": self.against, "test": self.test, "alpha": self.alpha,
                "resamples": self.n_resamples, "seed": self.seed, "two_sided": True,
                "corrected": False, "systems": list(rows.values())}


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
                     tuple(getattr(totals, "warnings", ()) or ()), doc_table)  # their kinds kept


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


def with_comparisons(t: ScoreTable, *, against: str | None = None,
                     test: str = "randomization", alpha: float = 0.05) -> ScoreTable:
    """``t`` with every other system tested against ``against`` (None: the system with the
    highest F1, the first of a tie) on P, R and F1, with ``t``'s resamples and seed as the
    number of bootstrap resamples and of randomization rounds
    (:func:`core.analysis.significance.compare`); ``test`` picks the p-value that marks the
    table, ``alpha`` the level."""
    check_test(test)
    if not 0 < alpha < 1:
        raise ParameterError("alpha", f"alpha must be in (0, 1), got {alpha}")
    if not t.rows:
        raise ParameterError("rows", "a comparison needs at least one system")
    names = [r.system for r in t.rows]
    if against is None:
        against = max(t.rows, key=lambda r: r.values["F1"]).system  # max keeps the first tie
    if against not in names:
        raise ParameterError("against", f"no system named {against!r} (the systems: "
                             f"{', '.join(names)})")
    reference = next(r for r in t.rows if r.system == against)
    comparisons: list[Comparison] = []
    for r in t.rows:
        if r.system == against:
            continue
        if r.table is None or reference.table is None:
            raise ParameterError("rows", f"the row of {r.system!r} has no per-document "
                                 "statistics to test (built by hand)")
        comparisons.extend(compare(r.system, r.table, against, reference.table,
                                   n_resamples=t.n_resamples, seed=t.seed,
                                   confidence=t.confidence))
    return replace(t, against=against, comparisons=tuple(comparisons), test=test, alpha=alpha)


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


TEST_NAMES = {"randomization": "approximate randomization", "bootstrap": "paired bootstrap"}


def _comparison_facts(t: ScoreTable) -> str:
    """What the dagger means ({against} stands for the compared system's name)."""
    unit = "rounds" if t.test == "randomization" else "resamples"
    return (f"differs from {{against}} at p < {t.alpha:g} (two-sided {TEST_NAMES[t.test]} over "
            f"documents, {t.n_resamples:,} {unit}, seed {t.seed}; not corrected for multiple "
            f"comparisons{_no_bootstrap_p(t)})")


def _no_bootstrap_p(t: ScoreTable) -> str:
    """Why nothing is marked under ``--test bootstrap`` on few documents (empty otherwise)."""
    if t.test != "bootstrap" or t.documents >= FEW_DOCUMENTS or t.documents <= 1:
        return ""
    return (f"; no p-value with fewer than {FEW_DOCUMENTS} documents, where the bootstrap's is "
            "anti-conservative: approximate randomization gives one")


def caption(t: ScoreTable) -> str:
    """The caption as plain text: metric, variant, level, reference, resamples and seed (and,
    when systems were compared, what the dagger means)."""
    text = (f"P, R and F1 of each system under {t.title()} ({t.metric}), "
            + _caption_facts(t).replace("{ref}", t.reference) + ".")
    if t.against is not None:
        text += " †: " + _comparison_facts(t).replace("{against}", t.against) + "."
    return text


def _number(v: float, digits: int) -> str:
    return f"{v:.{digits}f}"


def _rows(t: ScoreTable, digits: int, *, bold: Callable[[str], str],
          interval: Callable[[str, str], str], none: str, dagger: str = ""
          ) -> Iterator[tuple[SystemRow, list[str]]]:
    """Each row with its P, R and F1 cells as printed: the value with ``digits`` decimals,
    ``bold`` when it is the column's best (:meth:`ScoreTable.best`), ``dagger`` when it differs
    significantly from the compared system's (:meth:`ScoreTable.significant`), then the
    ``interval``, or ``none`` when there is none (fewer than two documents). The LaTeX and
    Markdown tables differ only in these marks."""
    best = {m: t.best(m, digits) for m in MEASURES}
    for r in t.rows:
        values = []
        for m in MEASURES:
            value = _number(r.values[m], digits)
            if r.system in best[m]:
                value = bold(value)
            if t.significant(r.system, m):
                value += dagger
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
                           none=r" {\scriptsize[---]}", dagger=r"$^\dagger$"):
        lines.append(" & ".join([latex_escape(r.system), *values]) + r" \\")
    facts = latex_escape(_caption_facts(t)).replace(
        latex_escape("{ref}"), r"\texttt{" + latex_escape(t.reference) + "}")
    if t.against is not None:
        facts += "; $^\\dagger$: " + latex_escape(_comparison_facts(t)).replace(
            latex_escape("{against}"), r"\texttt{" + latex_escape(t.against) + "}")
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
                           interval=lambda lo, hi: f" [{lo}, {hi}]", none=" [—]",
                           dagger="†"):
        lines.append("| " + " | ".join([markdown_escape(r.system), *values]) + " |")
    text = "\n".join(lines) + "\n\nTable: " + markdown_escape(caption(t)) + "\n"
    if t.against is not None:
        text += "\n" + _markdown_differences(t, digits)
    return text


def _p_text(p: float | None, n_resamples: int) -> str:
    """A p-value as a reader takes it: at the smallest the rounds can show, 1 / (R + 1), "p ≤"
    that floor (the p-value is the floor, not below it), its two digits rounded up so that
    the bound printed still holds."""
    if p is None:
        return "p —"
    floor = 1 / (n_resamples + 1)
    if p > floor:
        return f"p = {p:.2g}"
    shown = float(f"{floor:.2g}")
    if shown < floor:  # 1/301 = 0.003322... prints 0.0033, below it: the next two digits up
        step = 10.0 ** (math.floor(math.log10(floor)) - 1)
        shown = float(f"{math.ceil(floor / step) * step:.2g}")
    return f"p ≤ {shown:.2g}"


def _markdown_differences(t: ScoreTable, digits: int) -> str:
    """Each system's differences from the compared one: Δ, its paired bootstrap interval and
    the chosen test's p-value."""
    assert t.against is not None
    lines = ["| System | ΔP | ΔR | ΔF1 |", "|:---|---:|---:|---:|"]
    by_system: dict[str, dict[str, Comparison]] = {}
    for c in t.comparisons:
        by_system.setdefault(c.system, {})[c.measure] = c
    for system, cells in by_system.items():
        row = [markdown_escape(system)]
        for m in MEASURES:
            c = cells[m]
            text = f"{c.difference:+.{digits}f}"
            if c.low is not None and c.high is not None:
                text += f" [{c.low:+.{digits}f}, {c.high:+.{digits}f}]"
            row.append(f"{text} {_p_text(p_value(c, t.test), t.n_resamples)}")
        lines.append("| " + " | ".join(row) + " |")
    unit = "rounds" if t.test == "randomization" else "resamples"
    note = (f"Table: each system minus {t.against}; brackets: {100 * t.confidence:g}% paired "
            f"bootstrap interval of the difference; p: two-sided {TEST_NAMES[t.test]} over "
            f"documents ({t.n_resamples:,} {unit}, seed {t.seed}{_no_bootstrap_p(t)}).")
    return "\n".join(lines) + "\n\n" + markdown_escape(note) + "\n"


CSV_COLUMNS = ("system", "P", "P low", "P high", "R", "R low", "R high", "F1", "F1 low",
               "F1 high", "best", "metric", "variant", "level", "reference", "documents",
               "resamples", "seed", "confidence")
COMPARISON_COLUMNS = ("against", "test", "alpha", *(
    f"{m} {what}" for m in MEASURES
    for what in ("difference", "difference low", "difference high", "p bootstrap",
                 "p randomization", "significant")))
"""The columns ``--compare`` adds after :data:`CSV_COLUMNS` (empty in the compared system's
row)."""


def to_csv(t: ScoreTable, *, digits: int = 3) -> str:
    """One row per system: full-precision values and bounds, the measures in which it is best
    (at ``digits`` decimals, ``;``-separated), and the settings; text cells made inert."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS + (COMPARISON_COLUMNS if t.against is not None else ()))
    best = {m: t.best(m, digits) for m in MEASURES}
    compared = t.comparison_dict()["systems"] if t.against is not None else []
    by_system = {row["system"]: row for row in compared}
    for r in t.rows:
        row: list[object] = [cell(r.system)]
        for m in MEASURES:
            low, high = r.intervals.get(m, (None, None))
            row += [repr(r.values[m]), "" if low is None else repr(low),
                    "" if high is None else repr(high)]
        row += [";".join(m for m in MEASURES if r.system in best[m]), t.metric,
                t.variant or "", "" if t.level is None else t.level, cell(t.reference),
                t.documents, t.n_resamples, t.seed, t.confidence]
        if t.against is not None:
            row += [cell(t.against), t.test, t.alpha]
            mine = by_system.get(r.system, {})
            for name in COMPARISON_COLUMNS[3:]:
                value = mine.get(name)
                row.append("" if value is None else str(value).lower()
                           if isinstance(value, bool) else repr(value))
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


__all__ = ["COMPARISON_COLUMNS", "CSV_COLUMNS", "FORMATS", "MEASURES", "TESTS", "ScoreTable",
           "SystemRow", "caption", "few_documents_note", "latex_escape", "markdown_escape",
           "render", "score_table", "system_row", "table_of", "to_csv", "to_latex",
           "to_markdown", "with_comparisons"]
