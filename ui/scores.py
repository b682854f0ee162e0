"""The Scores page's sections, which ``pages/scores.py`` calls in order.

Every number comes from :mod:`ui.results` (cached metric results of :mod:`core.metrics`); the
charts from :mod:`ui.charts`. The page's one own key is the per-document table's page; the sets,
metric, variants, level and bootstrap settings are shared (:mod:`ui.state`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.metrics import registry
from core.metrics.stats import FEW_DOCUMENTS
from core.model import AnnotationSet, Corpus
from core.model.errors import format_ids, warning_kind
from ui import above_one, charts, levels, plain, results, state
from ui import hateval as hateval_ui
from ui.curation import undecided
from ui.escape import code, md
from ui.set_names import full_name_help
from ui.small_table import NOWRAP_COLUMNS, SMALL_TABLE_ROWS, page_table_html, small_table
from ui.state import Workspace
from ui.widgets import download_menu, page_of

K_TABLE_PAGE = "table_page"  # page of the per-document table
PER_DOC_ROWS = 20
"""Rows on a page of the per-document table: an HTML table's cost to the browser grows with its
rows (50 cost as much as the data grid they replaced, 20 some 60 ms less on every visit of the
tab: docs/performance.md, issue 29, sixteenth pass); the grid showed about 11 at once."""
K_DETAIL_TAB = "detail_tab"  # the open tab of "One system in detail" (label, chart, document)
K_SYSTEMS_TAB = "systems_tab"  # the open tab of "All systems" (table, F1 chart)
TAB_TABLE, TAB_F1_CHART = "📋 Table", "📊 F1 chart"
TAB_PER_LABEL, TAB_LABEL_CHART, TAB_PER_DOC = ("🏷️ Per label", "📊 Per-label chart",
                                               "📄 Per document")
K_INTERVALS = "boot_on"  # bootstrap intervals on a large corpus (toggle, session)
K_PAPER_OPEN = "paper_open"  # the expander of the table for a paper (lazy)
PAPER_EXPANDER = "📄 Table for a paper: LaTeX, Markdown or CSV with bootstrap intervals"
PAIRED_HEADING = "Paired comparison"
VARIANTS_MENU = "⚙️ Metric variants"  # the popover of the metrics' variant selectboxes
K_VARIANTS_MENU = "variants_menu"
K_SHARED = "scores_shared"  # score only the documents every compared set covers (toggle, session)

BOOTSTRAP_AUTO_DOCS = 10_000
"""Above this many documents the Scores page bootstraps its intervals only when asked: 1,000
resamples of 100,000 documents draw 10⁸ counts, about ten seconds of CPU per metric and system
(docs/performance.md), which the first visit of the page would otherwise wait for."""


def text_labels_only(ws: Workspace) -> None:
    """Text labels only (HatEval files): their own tables, and the page stops (the span metrics
    have nothing to score)."""
    if ws.has_spans:
        return
    if hateval_ui.tables(ws):
        hateval_ui.render(ws)
    else:
        st.info("No set of this corpus holds a span, so there is nothing for the span metrics "
                "to score.", icon="ℹ️")
    st.stop()


@dataclass(frozen=True)
class Setup:
    """The reference, each metric's variant, the level, the compared sets and the bootstrap."""

    ref: str
    variants: dict[str, str | None]
    level: int
    systems: list[str]
    n_boot: int
    seed: int
    intervals: bool = True
    """Whether the bootstrap intervals are computed (always up to :data:`BOOTSTRAP_AUTO_DOCS`
    documents, above only when asked); the paired comparison needs them too."""


def setup(ws: Workspace) -> Setup:
    """The reference, variant, level and bootstrap widgets; stops without a compared set."""
    names = list(ws.sets)
    default_a, _ = state.default_pair(ws)
    if default_a is not None and default_a == undecided(ws) and len(names) > 1:
        # the automatic consensus nobody curated yet is no default reference: the first set
        default_a = next(n for n in names if n != default_a)
    span_metrics = registry.span_metrics()
    with_variants = [m for m in span_metrics if m.variants]
    with_levels = [m for m in span_metrics if m.levels]
    cols = st.columns([2, 1.2, 1.2], vertical_alignment="bottom")
    ref = cols[0].selectbox("Reference (gold)", names,
                            index=names.index(default_a) if default_a else 0,
                            key=state.K_SET_A, bind="query-params",
                            help=full_name_help(state.K_SET_A, default_a or names[0]))
    variants: dict[str, str | None] = {}
    if with_variants:
        # The variants one click further: a closed popover's content is not mounted in the
        # browser, while its widgets still run here (their values, the session's, the URL's
        # ?variant=/?mvariant= as before): two selectboxes and their help icons fewer on every
        # visit (docs/performance.md, issue 29, eleventh pass). The values chosen are named in
        # the systems table's caption.
        with cols[1].popover(VARIANTS_MENU, key=K_VARIANTS_MENU, width="stretch"):
            for m in with_variants:
                variants[m.name] = st.selectbox(
                    f"{m.title} variant", m.variants, key=state.variant_key(m.name),
                    bind="query-params", help=f"{m.description}.\n\n{m.variants_help()}")
    level_owner = " / ".join(m.title for m in with_levels)
    level = levels.level_select(cols[2], ws, label=f"{level_owner} level",
                                disabled=not with_levels,
                                help="2: fine-grained fallacies; 1: their 3 categories; "
                                "0: fallacy or not.")
    systems = state.compared_sets(ws, ref)
    if not systems:
        st.info("Only the reference set is loaded: add a system or annotator file.", icon="ℹ️")
        st.stop()
    n_docs = len(state.doc_id_set(ws.key, ws))
    intervals = n_docs <= BOOTSTRAP_AUTO_DOCS or st.toggle(
        f"Bootstrap 95% intervals over all {n_docs:,} documents", key=K_INTERVALS,
        persist_state="session",
        help=f"Off by default above {BOOTSTRAP_AUTO_DOCS:,} documents: each metric and system "
        "resamples every document as many times as the resamples below, which takes seconds "
        "here. On: the systems table gets F1 low/high and the paired comparison its interval; "
        "the resamples and the seed are set below it (and in the table for a paper).")
    # The resamples and seed only where they act: with the intervals (always up to
    # BOOTSTRAP_AUTO_DOCS documents), else in the paper table's expander (bootstrap_inputs);
    # two inputs fewer on a large corpus's every visit (docs/performance.md, issue 29).
    n_boot, seed = bootstrap_inputs() if intervals else _bootstrap_values()
    return Setup(ref, variants, int(level), systems, n_boot, seed, intervals)


def bootstrap_inputs() -> tuple[int, int]:
    """The bootstrap's resamples and seed (session-wide, shared with other pages)."""
    b1, b2, _spacer = st.columns([1, 1, 2])
    n_boot = b1.number_input(results.BOOT_N_LABEL, min_value=100, max_value=10000, step=100,
                             key=state.K_BOOT_N, persist_state="session", help=results.BOOT_N_HELP)
    seed = b2.number_input(results.BOOT_SEED_LABEL, min_value=0, max_value=2**31 - 1, step=1,
                           key=state.K_SEED, persist_state="session", help=results.BOOT_SEED_HELP)
    return int(n_boot), int(seed)


def _bootstrap_values() -> tuple[int, int]:
    """The resamples and seed as the session holds them, their inputs not drawn."""
    return (int(st.session_state.get(state.K_BOOT_N, state.DEFAULTS[state.K_BOOT_N])),
            int(st.session_state.get(state.K_SEED, state.DEFAULTS[state.K_SEED])))


def shared_documents(ws: Workspace, s: Setup) -> Workspace:
    """``ws``, or, when the reference and the compared sets cover different documents, a note
    naming them and a toggle that scores the documents all of them cover: the span metrics
    score a set against a reference only on the same documents (SemEval-2021 Task 6; an
    annotator panel where each annotator labelled part of the corpus is refused otherwise)."""
    names = [s.ref, *s.systems]
    first = ws.sets[s.ref].doc_ids
    if all(ws.sets[n].doc_ids == first for n in s.systems):
        return ws  # files of one corpus list the same ids in the same order: no sets to build
    ids = {n: set(ws.sets[n].doc_ids) for n in names}
    shared = set.intersection(*ids.values())
    if all(len(i) == len(shared) for i in ids.values()):
        return ws
    apart = "; ".join(f"{md(n)} {len(i - shared):,} ({md(format_ids(i - shared, limit=3))})"
                      for n, i in ids.items() if i - shared)
    st.warning(f"The span metrics score a set only on the documents of the reference, and "
               f"these sets cover different documents. Documents not in every set: {apart}. "
               + (f"Score the {len(shared):,} document(s) they share below, or choose a "
                  "reference and systems that cover the same documents."
                  if shared else "No document is in every set: choose a reference and "
                  "systems that cover the same documents."), icon="⚠️")
    if not shared or not st.toggle(
            f"Score only the {len(shared):,} document(s) every set above covers", key=K_SHARED,
            persist_state="session",
            help="Every set of the page restricted to those documents: the scores, the "
            "intervals and the paired comparison are then those of that sub-corpus."):
        return ws
    return _restricted(ws.key, ws, tuple(sorted(shared)))


@st.cache_resource(max_entries=8, show_spinner=False)
def _restricted(ws_key: str, _ws: Workspace, docs: tuple[str, ...]) -> Workspace:
    """``_ws`` with its texts and every set cut to ``docs`` (a new key, so that the cached scores
    of the whole corpus and of the sub-corpus are kept apart)."""
    keep = set(docs)
    sets = {n: AnnotationSet(a.name, {d: a.spans[d] for d in a.spans if d in keep}, a.role,
                             a.alternatives) for n, a in _ws.sets.items()}
    texts = {d: t for d, t in _ws.corpus.texts.items() if d in keep}
    digest = hashlib.sha256("\0".join(docs).encode()).hexdigest()[:12]
    return dataclasses.replace(_ws, key=f"{ws_key}+shared:{digest}", corpus=Corpus(texts, sets))


@st.cache_data(max_entries=64, show_spinner=False)
def taxonomy_note(ws_key: str, _ws: Workspace, ref: str, systems: tuple[str, ...]) -> str:
    """:func:`ui.results.taxonomy_note`, once per workspace and sets: it walks the labels of
    every span of each set (50 ms per page run at 100,000 documents, docs/performance.md)."""
    return results.taxonomy_note(_ws, ref, systems)


@st.cache_resource(max_entries=64, show_spinner=False)
def systems_chart(ws_key: str, _table: pd.DataFrame, ref: str, systems: tuple[str, ...],
                  variants: tuple[tuple[str, str | None], ...], level: int, n_boot: int,
                  seed: int, columns: tuple[tuple[str, str], ...]) -> go.Figure:
    """:func:`ui.charts.systems_f1` of the systems table, built once per table: the table
    (``_table``) is :func:`ui.results.systems_overview` of the same arguments, and a page run
    that rebuilds the figure spends more time on it than on the rest of the section. The
    figure is shared (``st.cache_resource``): ``st.plotly_chart`` only reads it."""
    return charts.systems_f1(_table, columns=dict(columns), title=f"F1 against {ref}")


@st.cache_resource(max_entries=64, show_spinner=False)
def per_label_chart(ws_key: str, _per_label: pd.DataFrame, ref: str, system: str, metric: str,
                    variant: str | None, level: int | None, title: str) -> go.Figure:
    """:func:`ui.charts.per_label_prf` of :func:`ui.results.pair_result`'s per-label table of
    the same arguments (``_per_label``), built once (see :func:`systems_chart`)."""
    return charts.per_label_prf(_per_label, title=title)


def _overview_notes(ws: Workspace, s: Setup, columns: pd.Index) -> str:
    span_metrics = registry.span_metrics()
    chosen = "; ".join(f"{m.title} {s.variants[m.name]}" for m in span_metrics
                       if s.variants.get(m.name))
    notes = [f"Variants (⚙️ above): {md(chosen)}."] if chosen else []
    plugged = [m.title for m in span_metrics if not registry.builtin(m)]
    if plugged:
        notes.append(f"Metrics from installed plugins come first: {md(', '.join(plugged))}.")
    if any(c.endswith(" low") for c in columns):
        notes.append(f"F1 low/high: 95% bootstrap interval over documents ({s.n_boot:,} "
                     f"resamples, seed {s.seed}; a metric averaged over texts resamples the "
                     "per-text F1s it averages, a pooled one the per-document sums it pools).")
    notes.extend(f"{results.abbreviation(m)} = {m.title}." for m in span_metrics
                 if results.abbreviation(m) != m.title)
    if "semeval2021" in s.variants.values():
        notes.append("In the SemEval-2021 variant P and R can exceed 1: every overlapping "
                     "same-label pair counts, as in the official scorer.")
    if ws.sets[s.ref].alternatives:
        readers = ", ".join(describe for describe in (
            results.describe(m, s.variants.get(m.name), s.level if m.levels else None)
            for m in span_metrics if m.gold_alternatives))
        notes.append(f"text: {md(s.ref)} lists alternative labels, so the text-level scores "
                     f"are the label-only P/R/F1 of {readers}.")
    else:
        notes.append("text: micro P/R/F1 and exact-match ratio of each document's set of "
                     "labels.")
    if any(m.levels for m in span_metrics):
        notes.append(taxonomy_note(ws.key, ws, s.ref, tuple(s.systems)))
    return " ".join(notes)


def download_settings(ws: Workspace, s: Setup, systems: Sequence[str], *,
                      metric: str | None = None, boot: bool = False) -> dict[str, Any]:
    """What produced a download of the page (:func:`ui.widgets.download_buttons`, tour 4
    item 5): the reference, the variant of each metric (of ``metric`` alone when given), the
    level and taxonomy when a metric has levels, the resamples and seed when ``boot``."""
    metrics = [registry.get(metric)] if metric else registry.span_metrics()
    out: dict[str, Any] = {"reference": s.ref}
    out.update({m.name: s.variants.get(m.name, m.default_variant) for m in metrics
                if m.variants})
    if any(m.levels for m in metrics):
        out["level"] = s.level
    if any("taxonomy" in m.options for m in metrics):
        names = sorted({results.taxonomy_for(ws, s.ref, x).name for x in systems})
        out["taxonomy"] = names[0] if len(names) == 1 else names
    if boot:
        out.update(resamples=s.n_boot, seed=s.seed)
    return out


def few_documents_note(documents: int) -> str | None:
    """The systems table's caveat when its intervals rest on fewer than :data:`FEW_DOCUMENTS`
    documents, else None.

    >>> few_documents_note(1)[:61]
    '⚠️ Only 1 document: no interval (—), every bootstrap resample'
    >>> few_documents_note(20) is None
    True
    """
    if documents >= FEW_DOCUMENTS:
        return None
    if documents <= 1:
        return (f"⚠️ Only {documents} document: no interval (—), every bootstrap resample "
                "is that document.")
    return (f"⚠️ Only {documents:,} documents (fewer than {FEW_DOCUMENTS}): the bootstrap "
            "resamples documents, so the intervals say little; one document more or less "
            "moves them a lot.")


def _without_intervals(table: pd.DataFrame, documents: int) -> pd.DataFrame:
    """``table`` with its ``low``/``high`` columns empty (drawn as —) for one document."""
    if documents > 1:
        return table
    bounds = [c for c in table.columns if c.endswith((" low", " high"))]
    return table.assign(**{c: float("nan") for c in bounds})


ORDER_NOTES_SHOWN = 10
"""How many warnings of gold read in file order :func:`order_notes` lists before a count."""


def order_notes(ws: Workspace, s: Setup) -> None:
    """The command line's warnings of the metrics' ``read_order`` hooks (a MAFALDA gold whose
    labels are not sorted by start, read in file order by ``metrics-py`` and ``repo-head`` as
    the official evaluator reads it: :func:`ui.results.order_warnings`), as ``python -m core
    score`` words them; nothing when no file recorded an order."""
    notes = results.order_warnings(ws, s.ref, s.systems, s.variants)
    if not notes:
        return
    shown = [f"- {md(n)}" for n in notes[:ORDER_NOTES_SHOWN]]
    if len(notes) > ORDER_NOTES_SHOWN:
        shown.append(f"- … and {len(notes) - ORDER_NOTES_SHOWN:,} more (`python -m core "
                     "score` lists each)")
    st.warning("The official scorer reads this gold in file order (docs/mafalda.md, \"Gold "
               "whose labels are not sorted by start\"):\n\n" + "\n".join(shown), icon="⚠️")


def all_systems(ws: Workspace, s: Setup) -> None:
    """Every system under every span metric (with bootstrap intervals) and their F1 chart."""
    st.header("All systems")
    order_notes(ws, s)
    overview = results.systems_overview(ws.key, ws, s.ref, tuple(s.systems),
                                        tuple(s.variants.items()), s.level,
                                        s.n_boot if s.intervals else 0, s.seed)
    if len(overview.table.columns) <= 1:
        return
    n_docs = len(state.doc_id_set(ws.key, ws))
    overview = dataclasses.replace(overview, table=_without_intervals(overview.table, n_docs))
    few = few_documents_note(n_docs) if s.intervals else None
    st.caption(_overview_notes(ws, s, overview.table.columns) + (f" {few}" if few else ""))
    f1_cols = {label: col for label, col in overview.f1_columns.items()
               if col in overview.table}
    # Lazy tabs: the chart repeats the table's F1 columns, and each Plotly chart drawn costs
    # the browser 0.1-0.2 s on every visit of the page (docs/performance.md, issue 29).
    tabs = list(st.tabs([TAB_TABLE, TAB_F1_CHART] if f1_cols else [TAB_TABLE],
                        key=K_SYSTEMS_TAB, on_change="rerun", bind="query-params"))
    tab_table, tab_chart = tabs[0], (tabs[1] if len(tabs) > 1 else None)
    if tab_table.open is not False:
        with tab_table:
            small_table(overview.table, key="overview_table", mark=True,
                        columns=NOWRAP_COLUMNS)
            above_one.note(overview.table, key="systems")
            download_menu(overview.table, "systems", key="dl_overview",
                             settings=download_settings(ws, s, s.systems, boot=s.intervals))
    if tab_chart is not None and tab_chart.open is not False:
        with tab_chart:
            missing = _missing_bars(overview.table, overview.f1_columns)
            if missing:
                st.caption(missing)
            st.plotly_chart(systems_chart(ws.key, overview.table, s.ref, tuple(s.systems),
                                          tuple(s.variants.items()), s.level,
                                          s.n_boot if s.intervals else 0, s.seed,
                                          tuple(f1_cols.items())), key="systems_chart")
    paper_table(ws, s, overview.table)


def _missing_bars(table: pd.DataFrame, f1_columns: Mapping[str, str]) -> str:
    """Why the F1 chart has no bar for a system under a metric (``f1_columns``: the chart's
    name -> F1 column, as :class:`ui.results.Overview`): the metric refused it, and the table's
    error column says why; an empty string when every bar is drawn.

    >>> t = pd.DataFrame({"system": ["a", "b"], "DSM F1": [None, 0.5],
    ...                   "DSM error": ["a duplicate", None]})
    >>> _missing_bars(t, {"Da San Martino F1": "DSM F1"})
    'No Da San Martino F1 bar for a: the metric refuses it (a duplicate).'
    """
    notes = []
    for label, col in f1_columns.items():
        errors = table.get(col.removesuffix(" F1") + " error")
        for i, system in enumerate(table["system"]):
            if col in table and pd.notna(table[col].iloc[i]):
                continue
            why = errors.iloc[i] if errors is not None else None
            notes.append(f"No {md(label)} bar for {md(str(system))}: " + (
                f"the metric refuses it ({md(why)})" if isinstance(why, str)
                else "the metric gives no F1"))
    return " ".join(f"{n}." for n in notes)


PAPER_FORMATS = {"latex": ("LaTeX", "tex", "text/x-tex"),
                 "markdown": ("Markdown", "md", "text/markdown"),
                 "csv": ("CSV", "csv", "text/csv")}
"""Formats of the paper table: shown name, file extension, MIME type."""


PAPER_NO_COMPARE = "no marks"
PAPER_BEST = "the best F1"
"""The "† marks" choices of the paper table besides a system's name: none (the table as
before), or ``table --compare`` without SYSTEM."""


@st.cache_data(max_entries=16, show_spinner="Bootstrapping P, R and F1 of every system…")
def paper_table_text(ws_key: str, _ws: Workspace, ref: str, systems: tuple[str, ...],
                     metric: str, variant: str | None, level: int, n_boot: int, seed: int,
                     to: str, against: str | None = None) -> str:
    """:mod:`core.analysis.table` of the systems the metric scores, in format ``to``: the table
    ``python -m core table`` writes for the same files and settings. ``against``: a system's
    name or :data:`PAPER_BEST` tests every other against it as ``table --compare [SYSTEM]``
    does (approximate randomization, α 0.05: a † on each value that differs); None: no
    marks."""
    from core.analysis.table import render, system_row, table_of, with_comparisons
    from core.model import AnnotationSet
    from core.model.errors import SpanScopeError

    gold = _ws.sets[ref]
    rows = []
    for name in systems:
        pred = _ws.sets[name]
        options = {"variant": variant, "level": level, "texts": _ws.corpus.texts,
                   "taxonomy": results.taxonomy_for(_ws, ref, name)}
        try:
            rows.append(system_row(gold, AnnotationSet(pred.name, pred.spans, "system", False),
                                   metric=metric, options=options, n_resamples=n_boot,
                                   seed=seed))
        except SpanScopeError:
            continue  # the page names the systems the metric refuses, beside the button
    table = table_of(rows, gold, metric=metric, options={"variant": variant, "level": level},
                     n_resamples=n_boot, seed=seed,
                     command=f"SpanScope dashboard, Scores page: reference {ref}")
    known = {r.system for r in rows}
    if len(rows) > 1 and (against == PAPER_BEST or against in known):
        # a system the metric refuses has no row to test against: the table goes unmarked
        table = with_comparisons(table, against=None if against == PAPER_BEST else against)
    return render(table, to)


def paper_table(ws: Workspace, s: Setup, overview: pd.DataFrame) -> None:
    """A download of the systems × P/R/F1 table with bootstrap intervals, as LaTeX (booktabs),
    Markdown or CSV: ``python -m core table`` of what the page shows (docs/report.md). In a
    lazy expander: its widgets run and are drawn only while it is open (four elements fewer
    on every visit of the page, docs/performance.md, issue 29, seventh pass)."""
    box = st.expander(PAPER_EXPANDER, key=K_PAPER_OPEN, on_change="rerun")
    if not box.open:
        return
    with box:
        if not s.intervals:  # the resamples and seed are drawn here, not at the page's top
            n_boot, seed = bootstrap_inputs()
            s = dataclasses.replace(s, n_boot=n_boot, seed=seed)
        _paper_table_widgets(ws, s, overview)


def _paper_table_widgets(ws: Workspace, s: Setup, overview: pd.DataFrame) -> None:
    names = results.span_metric_names()
    c1, c2, c3, c4 = st.columns([2, 2, 1.6, 1.2], vertical_alignment="bottom")
    metric = c1.selectbox("Metric", names, key="paper_metric",
                          format_func=lambda n: registry.get(n).title,
                          persist_state="session")
    to = c2.radio("Format", list(PAPER_FORMATS), key="paper_format", horizontal=True,
                  format_func=lambda f: PAPER_FORMATS[f][0], persist_state="session")
    entry = registry.get(metric)
    variant = s.variants.get(metric, entry.default_variant)
    shown, ext, mime = PAPER_FORMATS[to]
    marks = None
    if len(s.systems) > 1:  # one system: nothing to compare
        marks = c3.selectbox(
            "† marks: differences from", [PAPER_NO_COMPARE, PAPER_BEST, *s.systems],
            key="paper_compare", persist_state="session",
            help="Test every other system against this one on P, R and F1 (two-sided "
            "approximate randomization over documents, the bootstrap's resamples and seed as "
            "its rounds): a † marks each value that differs at p < 0.05; Markdown adds the "
            "differences, CSV both tests' p-values. The same as `python -m core table "
            "--compare [SYSTEM]`.")
    against = (None if marks in (None, PAPER_NO_COMPARE)
               else PAPER_BEST if marks == PAPER_BEST else marks)
    c4.download_button(
        f"⬇️ {shown} table",
        lambda: paper_table_text(ws.key, ws, s.ref, tuple(s.systems), metric, variant,
                                 s.level, s.n_boot, s.seed, to, against),
        file_name=f"spanscope_{metric}_table.{ext}", mime=mime, key="dl_paper_table",
        on_click="ignore")
    refused = [str(r["system"]) for r in overview.to_dict("records")
               if isinstance(r.get(f"{results.abbreviation(entry)} error"), str)]
    st.caption(f"{results.describe(entry, variant, s.level if entry.levels else None)}: every "
               f"system's P, R and F1 with 95% bootstrap intervals ({s.n_boot:,} resamples, "
               f"seed {s.seed}), the best of each column in bold, the settings in the caption "
               "(LaTeX needs `\\usepackage{booktabs}`); the same as `python -m core table`."
               + (f" Left out (the metric refuses them): {', '.join(md(r) for r in refused)}."
                  if refused else "")
               + ("" if against is None else
                  f" No † marks: the metric refuses {md(against)}." if against in refused else
                  f" †: differs from {'the best F1' if against == PAPER_BEST else md(against)} "
                  "at p < 0.05 (two-sided approximate randomization, no correction for "
                  "multiple comparisons)."))


@dataclass(frozen=True)
class Detail:
    """The system and metric looked at in detail."""

    system: str
    metric: str
    entry: registry.Metric
    variant: str | None
    level: int | None
    named: str


WEAKEST = 3
"""How many labels :func:`weakest_note` names."""


def weakest_note(per_label: pd.DataFrame, *, grid: bool) -> str | None:
    """The labels of lowest F1 of a per-label table, a caption above it (tour 18: looking for a
    system's worst technique, a researcher read 14 rows in label order, the worst one below the
    fold); with ``grid``, how to sort the table. None below two labels with an F1.

    >>> t = pd.DataFrame({"label": ["A", "B_*", "C", "D"], "F1": [0.9, 0.0, None, 0.5],
    ...                   "gold spans": [4, 3, 0, 2], "predicted spans": [4, 0, 1, 2]})
    >>> weakest_note(t, grid=False).split(", **")[0]
    'Lowest F1: **B\\\\_\\\\*** 0.000 (3 gold spans, 0 predicted)'
    """
    scored = per_label[per_label["F1"].notna()]
    if len(scored) < 2:
        return None
    low = scored.sort_values(["F1", "label"], kind="stable").head(WEAKEST)
    def counts(gold: int, pred: int) -> str:
        return f"{gold} gold span{'' if gold == 1 else 's'}, {pred} predicted"

    named = ", ".join(f"**{md(str(r['label']))}** {float(r['F1']):.3f} "
                      f"({counts(int(r['gold spans']), int(r['predicted spans']))})"
                      for _, r in low.iterrows())
    return f"Lowest F1: {named}." + (" Click a column's header to sort the table by it."
                                     if grid else "")


def _per_label(ws: Workspace, s: Setup, d: Detail, result: results.PairScores) -> None:
    per_label = result.per_label
    if not len(per_label):  # no empty grid, no downloads of nothing (tour 4 item 10)
        st.caption(f"{d.entry.title} averages per text and has no per-label decomposition; "
                   "its per-text values are in the per-document tab."
                   if result.raw is not None and not result.raw.pooled else
                   f"No label has a score under {d.named}.")
        return
    weakest = weakest_note(per_label, grid=len(per_label) > SMALL_TABLE_ROWS)
    if weakest:
        st.caption(weakest)
    # Up to 12 labels a Markdown table (its bold tinted cells and "above 1" column), a grid
    # beyond: a grid costs the browser some 20 ms on every visit (docs/performance.md).
    small_table(per_label, key="per_label_table", mark=True)
    above_one.note(per_label, key="per_label")
    download_menu(per_label, f"per_label_{d.system}_{d.metric}", key="dl_per_label",
                     settings=download_settings(ws, s, [d.system], metric=d.metric))


def _per_label_chart(ws: Workspace, s: Setup, d: Detail, result: results.PairScores) -> None:
    per_label = result.per_label
    if not len(per_label):
        st.caption(f"{d.entry.title} has no per-label scores to draw here; its per-text "
                   "values are in the per-document tab.")
        return
    st.plotly_chart(per_label_chart(ws.key, per_label, s.ref, d.system, d.metric, d.variant,
                                    d.level, f"{d.system}: P, R, F1 per label "
                                    f"({d.entry.title})"), key="per_label_chart")


def _per_document(ws: Workspace, s: Setup, d: Detail) -> None:
    order = st.selectbox("Sort by", ["F1", "P", "R", "document"], key="doc_table_sort",
                         persist_state="session")
    ascending = st.toggle("Ascending", value=True, key="doc_table_asc", persist_state="session")
    # Ties broken by document id (numbers as numbers), so the first row is always the same.
    shown = results.sorted_per_doc(ws.key, ws, s.ref, d.system, d.metric, d.variant, d.level,
                                   order, ascending)
    # Which rows go in the table's own caption (one element less on every visit)
    rows, where, _ = page_of(shown, key=K_TABLE_PAGE, page_size=PER_DOC_ROWS)
    # One page of PER_DOC_ROWS rows as a plain HTML table, its rows and order in its caption,
    # where a data grid of 50 rows cost the browser's main thread some 60 ms more on every visit
    # of the tab (docs/performance.md, issue 29, sixteenth pass). The whole table is sorted by
    # the two widgets above and downloaded whole below.
    ties = "" if order == "document" else ", ties by document"
    st.html(page_table_html(
        rows, caption=f"{where} Sorted by {order}, {'ascending' if ascending else 'descending'}"
        f"{ties}.", label=f"{d.system}: per-document scores ({d.named})"))
    above_one.note(shown, key="per_doc")
    download_menu(shown, f"per_document_{d.system}_{d.metric}", key="dl_per_doc")
    first = str(shown.iloc[0]["document"]) if len(shown) else None
    st.page_link("pages/documents.py", icon="📄",
                 label=(f"Open the table's first document ({md(first)})" if first is not None
                        else "Open the table's first document"),
                 query_params={state.K_SET_A: s.ref, state.K_SET_B: d.system,
                               state.K_METRIC: d.metric, state.K_DOC: first}
                 if first is not None else None)


SHOWN_RESULT_WARNINGS = 5
"""Warnings of one kind listed under the overall result; the others are counted."""


def result_warnings(result: results.PairScores) -> str | None:
    """The metric's own warnings on this pair (Da San Martino's labels that never meet, the
    SemEval-2020 TC scorer's alignment of rows across articles, ...), as ``score --json``
    gives them in ``warnings``: Markdown for one element, grouped by kind (the kind
    ``warning_counts`` counts them under) with their counts, every message escaped (it quotes
    labels and file names); None when there is none.

    >>> r = results.PairScores({}, pd.DataFrame(), None, None)
    >>> result_warnings(r) is None
    True
    """
    found = list(getattr(result.raw, "warnings", ()) or ())
    if not found:
        return None
    groups: dict[str, list[str]] = {}
    for w in found:
        groups.setdefault(warning_kind(w), []).append(results.for_dashboard(str(w)))
    head = "The metric warns about this pair (as `python -m core score` does):"
    lines = [head]
    for kind, said in groups.items():
        lines.append(f"- {code(kind)} ({len(said):,}):")
        lines.extend(f"    - {md(m)}" for m in said[:SHOWN_RESULT_WARNINGS])
        if len(said) > SHOWN_RESULT_WARNINGS:
            lines.append(f"    - and {len(said) - SHOWN_RESULT_WARNINGS:,} more")
    return "\n".join(lines)


def one_system(ws: Workspace, s: Setup) -> Detail:
    """One system under one metric: per label and per document; an error in their place when
    the metric cannot score it (the paired comparison below still runs)."""
    st.header("One system in detail")
    d1, d2 = st.columns(2)
    system = d1.selectbox("System", s.systems, key=state.K_SET_B, bind="query-params",
                          help=full_name_help(state.K_SET_B, s.systems[0]))
    metric = d2.radio("Metric", results.span_metric_names(), help=results.metric_help(),
                      key=state.K_METRIC, bind="query-params", horizontal=True)
    entry = registry.get(metric)
    var = s.variants.get(metric)
    lev = s.level if entry.levels else None
    d = Detail(system, metric, entry, var, lev, results.describe(entry, var, lev))
    result = results.pair_result(ws.key, ws, s.ref, system, metric, var, lev)
    if result.error:
        st.error(f"{d.named} cannot score {md(system)} against {md(s.ref)}: "
                 f"{md(result.error)}", icon="❌")
        return d
    # One caption element, not two (each element is mounted again on every visit)
    if "taxonomy" in entry.options:
        st.caption(f"{results.overall_caption(result)}\n\n"
                   f"{taxonomy_note(ws.key, ws, s.ref, (system,))}")
    else:  # plain text: no Markdown to parse on every visit (ui.plain)
        plain.caption(results.overall_caption(result))
    said = result_warnings(result)
    if said is not None:
        st.warning(said, icon="⚠️")
    # Lazy tabs: only the open one runs. The per-document table of 100,000 documents (every
    # row built, then sorted) cost most of the page's first visit while the per-label tab
    # was the one shown, and the per-label chart, which repeats the per-label table, costs
    # the browser 0.1-0.2 s on every visit (docs/performance.md, issue 29).
    tab_labels, tab_chart, tab_docs = st.tabs([TAB_PER_LABEL, TAB_LABEL_CHART, TAB_PER_DOC],
                                              key=K_DETAIL_TAB, on_change="rerun",
                                              bind="query-params")
    if tab_labels.open is not False:
        with tab_labels:
            _per_label(ws, s, d, result)
    if tab_chart.open is not False:
        with tab_chart:
            _per_label_chart(ws, s, d, result)
    if tab_docs.open is not False:
        with tab_docs:
            _per_document(ws, s, d)
    return d


def _p(p: float | None, rounds: int) -> str:
    """A p-value as the command line's Markdown table says it: below the smallest the rounds
    can show, ``< 1/(rounds + 1)``."""
    if p is None:
        return "—"
    floor = 1 / (rounds + 1)
    return f"< {floor:.2g}" if p <= floor else f"= {p:.2g}"


def paired_sentence(named: str, sys1: str, sys2: str, result: Mapping[str, Any]) -> str:
    """F1(1) − F1(2), its paired bootstrap interval and both tests' two-sided p-values."""
    n, low, high = int(result["resamples"]), result["low"], result["high"]
    head = (f"{named}: F1({md(sys1)}) − F1({md(sys2)}) = **{result['F1 difference']:+.3f}**")
    if low is None:  # one document: every resample and every swap is that document
        return head + " (one document: no interval and no test)."
    boot = (f"p {_p(result['p bootstrap'], n)} (paired bootstrap, {n:,} resamples)"
            if result["p bootstrap"] is not None else
            f"no paired-bootstrap p with fewer than {FEW_DOCUMENTS} documents, where it is "
            "anti-conservative")
    return (head + f", 95% paired bootstrap interval [{low:+.3f}, {high:+.3f}]; two-sided "
            f"p {_p(result['p randomization'], n)} (approximate randomization, {n:,} rounds), "
            f"{boot}; over documents, seed {result['seed']}.")


def paired(ws: Workspace, s: Setup, d: Detail) -> None:
    """Two systems' P, R and F1 differences with their paired bootstrap intervals and the
    two-sided p-values of both tests (:func:`ui.results.paired_comparison`)."""
    if len(s.systems) < 2:
        # One caption, not a heading above a caption: a section with nothing in it draws one
        # element on every visit (docs/performance.md, issue 29, eleventh pass).
        st.caption(f"**{PAIRED_HEADING}**: load a second system to compare two systems.")
        st.stop()
    st.header(PAIRED_HEADING)
    p1, p2 = st.columns(2)
    sys1 = p1.selectbox("System 1", s.systems, key=state.K_SYS1, bind="query-params",
                        help=full_name_help(state.K_SYS1, s.systems[0]))
    sys2 = p2.selectbox("System 2", [x for x in s.systems if x != sys1], key=state.K_SYS2,
                        bind="query-params", help=full_name_help(state.K_SYS2))
    if not s.intervals:
        st.caption("The paired comparison is a bootstrap: turn on the intervals above to "
                   "compute it.")
        return
    result = results.paired_comparison(ws.key, ws, s.ref, sys1, sys2, d.metric, d.variant,
                                       d.level, s.n_boot, s.seed)
    if result is None:
        st.info(f"{d.named} cannot score both systems against {md(s.ref)} (see the table "
                "above), so they cannot be compared under it.", icon="ℹ️")
    elif "error" in result:
        st.error(md(result["error"]), icon="❌")
    else:
        st.markdown(paired_sentence(d.named, sys1, sys2, result))
        if few := few_documents_note(len(state.doc_id_set(ws.key, ws))):
            st.caption(few.replace("no interval (—), ", ""))  # the difference's is shown
        rows = result["rows"]
        assert isinstance(rows, list)
        table = pd.DataFrame(rows, columns=list(results.PAIRED_COLUMNS))
        st.dataframe(table, hide_index=True, key="paired_table", placeholder="—")
        # The bootstrap's p is withheld below FEW_DOCUMENTS documents (core.analysis.
        # significance): its column of dashes says why, as `table --compare` does.
        no_boot = (table["p bootstrap (two-sided)"].isna().all()
                   and table["p randomization (two-sided)"].notna().any())
        st.caption("System 1 minus system 2 on P, R and F1. Both p-values are two-sided: "
                   "approximate randomization swaps each document's two outputs at random "
                   "(p = share of rounds at least as far from 0, add-one), the paired bootstrap "
                   "resamples documents for both (p = twice the smaller share of resamples on "
                   "either side of 0, so p < 0.05 exactly when the 95% interval leaves 0 out; "
                   "0 when no resample crossed 0, that is below 1/resamples); "
                   + (f"— in the bootstrap column: fewer than {FEW_DOCUMENTS} documents, where "
                      "the bootstrap's p is anti-conservative, so the randomization p decides; "
                      if no_boot else "")
                   + "no correction for multiple comparisons. The same numbers as `python -m "
                   "core table --compare` with system 2 as the compared system, the same "
                   "resamples and seed (docs/report.md).")
        download_menu(table, f"paired_{sys1}_vs_{sys2}", key="dl_paired",
                         settings=download_settings(ws, s, [sys1, sys2], metric=d.metric,
                                                    boot=True))
