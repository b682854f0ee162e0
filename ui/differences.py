"""The Metric differences page's cached computations and figures.

Every number comes from :mod:`core.metrics.differences` (one parameterised computation whose end
points are the official metrics); this module caches it per workspace and turns its results
into tables and plotly figures. Above :data:`PATH_BACKGROUND_DOCS` documents the path runs in the
background worker of :mod:`ui.jobs` (:func:`path_job`), as the Annotators page's measures do.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict, cast

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.metrics import registry
from core.metrics.differences import (
    REASONS,
    DocDifference,
    Step,
    document_differences,
    joined,
    metric_path,
    with_mafalda,
)
from core.metrics.mafalda import MafaldaResult
from core.metrics.mafalda_order import GoldOrder
from core.model.errors import SpanScopeError
from core.render.highlight import PALETTE
from core.render.palette import MARKER_SYMBOLS, OKABE_ITO
from ui import levels, plain, state
from ui.charts import TITLE_CHARS, wrapped_title
from ui.escape import md, plot
from ui.jobs import Job, Resident, hold, progress, submit
from ui.jobs import shown as jobs_shown
from ui.results import (
    MEASURES,
    coming_pair,
    derive_source,
    pair_result,
    read_order,
    scored_pair,
    taxonomy_for,
)
from ui.sampling import sample_rows
from ui.state import Workspace
from ui.theme import EITHER_GREY, theme_ink
from ui.widgets import asked_for, download_buttons, download_menu, paginate, set_pair

# ---- keys (this page's; the shared ones are in ui.state) ----------------------------------------
K_DIFF_MEASURE = "measure"  # bound: which score the waterfall shows (f1, precision, recall)
K_DIFF_WATERFALL = "diff_waterfall"  # the container of the waterfall (Vega-Lite)
K_DIFF_SCATTER = "diff_scatter"  # selection state of the per-text scatter
K_DIFF_DRAW = "diff_draw"  # the scatter is drawn on a large corpus (toggle)
K_DIFF_TABLE = "diff_table"  # selection state of the per-text table
K_DIFF_PAGE = "diff_page"  # page of the per-text table
K_DIFF_TEXTS = "diff_texts"  # the text-by-text comparison on a large corpus (toggle)
K_DIFF_VARIANT_MENU = "diff_variant_menu"  # the popover of the MAFALDA variant
VARIANT_MENU = "⚙️ MAFALDA variant"
K_DIFF_JOBS = "diff_jobs"  # session: the path jobs the last run showed (ui.jobs.shown)

PATH_BACKGROUND_DOCS = 10_000
"""Above this many documents the rule path runs in the background with a progress bar. Its
steps share one overlap join (:func:`core.metrics.differences.metric_path`), but the merged
Martino step and MAFALDA are whole scorings of their own: about 1.6 s of CPU at 100,000
documents (4.5 s before issue 29's fifth pass, 2.6 s before its eighth, docs/performance.md),
too long to hold a page run that has to answer at once, so the page keeps drawing its controls
and a progress bar. When the pair's MAFALDA scores are computed already, the worker scores the
Martino part only (about 0.9 s, :func:`steps_or_progress`)."""

PATH_POLL = 0.25
"""Seconds between two looks of the progress bar at the path's job (:func:`ui.jobs.progress`)."""

TEXTS_AUTO = 10_000
"""Above this many documents the page compares the texts one by one only when asked: both
official metrics per text take seconds at 100,000 documents (docs/performance.md), on top of
the rule path the page is for."""

SHOWN_MEASURES = {shown: attr for attr, shown in MEASURES.items()}
"""Radio options as shown (a widget bound to the URL writes its shown value) -> attribute."""

_LAYOUT = dict(margin=dict(l=10, r=10, t=60, b=10), template="plotly_white")


@st.cache_resource(max_entries=32, show_spinner="Walking from one metric to the other…")
def path(ws_key: str, _ws: Workspace, ref: str, system: str, level: int,
         variant: str) -> list[Step]:
    """:func:`core.metrics.differences.metric_path` for ``system`` against ``ref``."""
    return metric_path(_ws.sets[ref], _ws.sets[system], level=level, mafalda_variant=variant,
                       taxonomy=taxonomy_for(_ws, ref, system), texts=_ws.corpus.texts,
                       **_orders(_ws, ref, system, variant))


class Orders(TypedDict, total=False):
    """:func:`core.metrics.differences.metric_path`'s MAFALDA options of the files' order."""

    gold_order: GoldOrder
    pred_order: GoldOrder


def _orders(ws: Workspace, ref: str, system: str, variant: str) -> Orders:
    """What the files' order makes MAFALDA read (``gold_order``, ``pred_order``: a gold whose
    labels are not sorted by start, read in file order by ``metrics-py`` and ``repo-head``),
    as the Scores page passes it (:func:`ui.results.read_order`): the path's MAFALDA steps and
    the per-text comparison give the Scores page's and the command line's numbers, and the
    results :func:`mafalda_ahead` reuses are the ones the path would compute. Empty, at no
    cost, when neither file recorded an order."""
    options = read_order(ws, ref, system, "mafalda", variant)[1]
    out = Orders()
    if isinstance(gold := options.get("gold_order"), GoldOrder):
        out["gold_order"] = gold
    if isinstance(pred := options.get("pred_order"), GoldOrder):
        out["pred_order"] = pred
    return out


@st.cache_resource(max_entries=32, show_spinner=False)
def path_job(ws_key: str, _ws: Workspace, ref: str, system: str, level: int,
             variant: str, part: str = "all") -> Job[list[Step]]:
    """:func:`path` in the background worker (:mod:`ui.gamma_worker`'s ``"path"`` task), or
    one of its parts (``part``: :data:`core.metrics.differences.PARTS`).

    The sets go as :class:`~ui.jobs.Resident` values under the keys the Annotators page gives
    them (:func:`ui.annotators._resident_view_args`), so the worker keeps each once for both
    pages and a change of level or variant sends no corpus. The texts go only to ``repo-head``'s
    MAFALDA, the one scorer that reads them (:func:`core.metrics.mafalda.score`), and with a
    gold read in file order (:func:`_orders`, whose ranges between spans run to the end
    of the text): 100,000 texts are most of what a job would send."""
    orders = _orders(_ws, ref, system, variant) if part != "martino" else Orders()
    texts = (Resident(f"{ws_key}|texts", _ws.corpus.texts)  # not copied: read only
             if (variant == "repo-head" or orders) and part != "martino" else None)
    title = (f"MAFALDA for {system}" if part == "mafalda"
             else f"From Martino to MAFALDA for {system}, one rule at a time")
    gold, pred = _resident_sets(ws_key, _ws, ref, system)
    return submit(Job(title, "path",
                      {"gold": gold, "pred": pred,
                       "level": level, "mafalda_variant": variant,
                       "taxonomy": taxonomy_for(_ws, ref, system), "texts": texts,
                       "part": part, **orders}))


def _resident_sets(ws_key: str, ws: Workspace, ref: str, system: str
                   ) -> tuple[Resident, Resident]:
    """The reference and the system as :func:`path_job` sends them: kept by the worker under
    the keys the Annotators page gives them (:func:`ui.annotators._resident_view_args`)."""
    return (Resident(f"{ws_key}|set|{ref}", ws.sets[ref]),
            Resident(f"{ws_key}|set|{system}", ws.sets[system]))


@st.cache_resource(max_entries=8, show_spinner=False)
def sets_ahead(ws_key: str, _ws: Workspace, ref: str, system: str) -> Job[None] | None:
    """Send the path's sets to the worker before the path is queued (:func:`ui.jobs.hold`,
    which starts the worker), with the module that scores it imported there; once per pair
    and workspace, and only on a corpus whose path runs in the worker. :func:`ui.ahead.early`
    calls it as the ``--data`` files are read: the worker's start, the sets' pickling, sending
    and unpickling then overlap the first page's run, and the path's job, queued at its end
    (:func:`path_ahead`), sends their keys only and starts at once (issue 29, tenth pass). The
    path itself is not computed before the first page is drawn: the worker's core is the one
    Chromium draws that page with."""
    if not _in_background(_ws, ref, system):
        return None
    return hold(f"The sets of {system} and {ref}, for the rule path",
                _resident_sets(ws_key, _ws, ref, system), ("core.metrics.differences",))


def _in_background(ws: Workspace, ref: str, system: str) -> bool:
    """Whether the pair's path runs in the background worker (above
    :data:`PATH_BACKGROUND_DOCS` documents) rather than in the page run."""
    return max(len(ws.sets[ref].spans), len(ws.sets[system].spans)) > PATH_BACKGROUND_DOCS


def path_ahead(ws: Workspace, ref: str, system: str, level: int, variant: str) -> None:
    """Queue the path the page would show for ``system`` against ``ref`` before it is visited
    (:func:`ui.ahead.start`, once a page is drawn), on a corpus large enough for the
    path to run in the background worker: the page then finds it computed, or computing. The
    level is the page's (:func:`ui.levels.level_select`: 2 when the labels have none). Only the
    Martino part is queued: the MAFALDA steps are the MAFALDA scores that
    :func:`ui.results.score_ahead` computes in this process (:func:`mafalda_ahead`); when they
    are neither there nor coming (:func:`mafalda_coming`), the page queues that part too."""
    if not _in_background(ws, ref, system):
        return
    if not levels.has_levels(ws, ref, system):
        level = 2
    path_job(ws.key, ws, ref, system, level, variant, "martino")


def mafalda_ahead(ws: Workspace, c: Choice) -> dict[str, MafaldaResult] | None:
    """The MAFALDA results the path's last steps need (the paper's and the chosen variant's), by
    variant, if the pair's scores have them already (:func:`ui.results.scored_pair`: the Scores
    page's, or those computed ahead); None if one is not computed yet or refused the pair.

    They are the same computation as the path's own MAFALDA step: :func:`ui.results.score_pair`
    scores the same reference, read as alternatives by the registry's entry, and the same
    system (a system read as alternatives excepted: the page does not reuse then), at the
    same level and variant, with the same taxonomy (:func:`ui.results.taxonomy_for`) and texts
    (``tests/app/test_differences_page.py``)."""
    if ws.sets[c.system].alternatives:
        return None
    out: dict[str, MafaldaResult] = {}
    for variant in dict.fromkeys(("paper", c.mvariant)):
        done = scored_pair(ws.key, c.ref, c.system, "mafalda", variant, c.level)
        if done is None and derive_source(ws.key, c.ref, c.system, "mafalda", variant,
                                          c.level) is not None:
            # One variant computed, the other derived from it (scoring again only the texts
            # where they can differ): the same result the pair's scores would give it.
            done = pair_result(ws.key, ws, c.ref, c.system, "mafalda", variant, c.level)
        if done is None or done.error or not isinstance(done.raw, MafaldaResult):
            return None
        out[variant] = done.raw
    return out


def mafalda_coming(ws: Workspace, c: Choice) -> bool:
    """Whether the MAFALDA results :func:`mafalda_ahead` takes are not all there yet, but each
    is there or still to come from the thread that scores the pair ahead
    (:func:`ui.results.coming_pair`): the page then waits for that thread rather than ask the
    worker to score MAFALDA a second time (issue 29, ninth pass)."""
    if ws.sets[c.system].alternatives:
        return False
    coming = False
    for variant in dict.fromkeys(("paper", c.mvariant)):
        if coming_pair(ws.key, c.ref, c.system, "mafalda", variant, c.level):
            coming = True
            continue
        done = scored_pair(ws.key, c.ref, c.system, "mafalda", variant, c.level)
        if done is None or done.error or not isinstance(done.raw, MafaldaResult):
            return False
    return coming


class _OrScored:
    """``job`` as :func:`ui.jobs.progress` polls it, done also once ``ready()`` says so (the page
    then reruns and takes what is ready instead)."""

    def __init__(self, job: Job[list[Step]], ready: Callable[[], bool]) -> None:
        self._job, self._ready = job, ready

    def done(self) -> bool:
        return self._job.done() or self._ready()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._job, name)


def _wait_for_scores(ws: Workspace, c: Choice) -> None:
    """A full bar for the rules' steps, saying that MAFALDA's come with the pair's scores, which
    polls every :data:`PATH_POLL` seconds and reruns the page once they are no longer coming
    (there, or the thread got past them: the page then asks the worker)."""

    @st.fragment(run_every=PATH_POLL)
    def _poll() -> None:
        if not mafalda_coming(ws, c):
            st.rerun()
        st.progress(1.0, text=f"From Martino to MAFALDA for {md(c.system)}: the rules' steps "
                    "are scored; MAFALDA's come with the pair's scores, being computed…")

    _poll()


def steps_or_progress(ws: Workspace, c: Choice) -> list[Step] | None:
    """The path's steps; on a large corpus None while its job runs (a progress bar shows) or
    when the job failed (an error shows).

    On a large corpus the worker scores the Martino part of the path, and its MAFALDA steps come
    from the pair's scores when they are computed (:func:`mafalda_ahead`): the same result, not
    scored twice (about 1 s of the worker's CPU at 100,000 documents, docs/performance.md,
    issue 29, eighth pass); when the thread that scores the pair ahead is still to compute them,
    the page waits for it (:func:`mafalda_coming`; it scores MAFALDA first, :mod:`ui.ahead`);
    else they come from a second job that scores them."""
    if not _in_background(ws, c.ref, c.system):
        return path(ws.key, ws, c.ref, c.system, c.level, c.mvariant)
    reused = mafalda_ahead(ws, c)
    coming = reused is None and mafalda_coming(ws, c)
    jobs = [path_job(ws.key, ws, c.ref, c.system, c.level, c.mvariant, "martino")]
    if reused is None and not coming:
        jobs.append(path_job(ws.key, ws, c.ref, c.system, c.level, c.mvariant, "mafalda"))
    jobs_shown(jobs, memory=st.session_state, key=K_DIFF_JOBS)
    for i, job in enumerate(jobs):
        if not job.done():
            # Polled every quarter second, not every half: the chart is what the page is for,
            # and a path opened at once after the first load is done about 1.6 s later (issue
            # 29, eighth pass). MAFALDA's job is done for the page as soon as the pair's scores
            # computed ahead have the same result, if they are first.
            progress(job if i == 0 else cast(Job[list[Step]], _OrScored(
                job, lambda: mafalda_ahead(ws, c) is not None)), every=PATH_POLL)
            return None
    if coming:
        # MAFALDA's results still coming from the thread that scores the pair ahead: waited for,
        # not scored a second time by the worker, which both cores would then compete for
        # (issue 29, ninth pass).
        _wait_for_scores(ws, c)
        return None
    for job in jobs:
        error = job.error()
        if error is not None:
            st.error(md(error), icon="❌")
            return None
    if reused is not None:
        return with_mafalda(jobs[0].result(), reused)
    return joined(jobs[0].result(), jobs[1].result())


@st.cache_resource(max_entries=32, show_spinner="Comparing the texts…")
def documents(ws_key: str, _ws: Workspace, ref: str, system: str, level: int,
              variant: str) -> list[DocDifference]:
    """:func:`core.metrics.differences.document_differences`, most different first."""
    return document_differences(_ws.sets[ref], _ws.sets[system], level=level,
                                mafalda_variant=variant,
                                taxonomy=taxonomy_for(_ws, ref, system), texts=_ws.corpus.texts,
                                **_orders(_ws, ref, system, variant))


def steps_table(steps: list[Step], measure: str) -> pd.DataFrame:
    """One row per step: its value, the change from the step before, the rules, the reason."""
    rows, before = [], None
    for s in steps:
        value = s.value(measure)
        change: float | None = (None if s.official or value is None or before is None
                                else value - before)
        rows.append({"step": s.title, "official metric": s.official,
                     MEASURES[measure]: value, "change": change,
                     "rules": s.rules.describe(), "what changes": s.error or s.explanation})
        if value is not None:
            before = value
    return pd.DataFrame(rows)


def steps_markdown(table: pd.DataFrame, measure: str) -> str:
    """:func:`steps_table` as a Markdown table: the score at four decimals and the change
    signed, as the grid showed them; "—" where a step has no value or change; an official
    metric marked "✓ official" (a word beside the sign); text escaped (:func:`ui.escape.md`).

    >>> t = pd.DataFrame([{"step": "Martino", "official metric": True, "F1": 0.5,
    ...                    "change": None, "rules": "a · b", "what changes": "x|y"},
    ...                   {"step": "no merging", "official metric": False, "F1": 0.51234,
    ...                    "change": 0.01234, "rules": "c", "what changes": "z"}])
    >>> print(steps_markdown(t, "f1"))
    | step | official metric | F1 | change | rules | what changes |
    |:--|:--|--:|--:|:--|:--|
    | Martino | ✓ official | 0.5000 | — | a · b | x\\|y |
    | no merging |  | 0.5123 | +0.0123 | c | z |
    """
    shown = MEASURES[measure]

    def number(value: Any, form: str) -> str:
        return "—" if value is None or pd.isna(value) else format(float(value), form)

    lines = [f"| step | official metric | {shown} | change | rules | what changes |",
             "|:--|:--|--:|--:|:--|:--|"]
    for row in table.to_dict("records"):
        lines.append(" ".join([
            "|", md(str(row["step"])), "|", "✓ official" if row["official metric"] else "",
            "|", number(row[shown], ".4f"), "|", number(row["change"], "+.4f"), "|",
            md(str(row["rules"])), "|", md(str(row["what changes"] or "")), "|"]))
    return "\n".join(lines)


WATERFALL_DATA = "steps"
"""Name of the waterfall's dataset in its Vega-Lite spec (:func:`waterfall_spec`)."""
UP, DOWN, OFFICIAL = "up", "down", "official metric"
"""A bar's kind in :func:`waterfall_spec`: a rule that raises the score, one that lowers it, an
official metric (the first step and every end point, drawn from 0)."""
LINE_PX = 15
"""The height of a line of a step's name on the waterfall's axis (12 px type)."""


def row_px(names: list[str]) -> int:
    """The height of one step's row in the Vega-Lite waterfall: room for the most lines of a
    wrapped name (newlines) and a gap, so that no name runs into the next row's."""
    lines = max((name.count("\n") + 1 for name in names), default=1)
    return max(36, LINE_PX * lines + 14)


def waterfall_rows(steps: list[Step], measure: str) -> pd.DataFrame:
    """One row per step of the waterfall (steps that could not be scored are left out):
    its name (wrapped lines joined by a newline), the bar's ``start`` and ``end`` (from 0 for
    an official metric; from the score before to the score after for a rule), its ``kind``
    (:data:`UP`, :data:`DOWN`, :data:`OFFICIAL`), the text beside it (the score of an official
    metric, the signed change of a rule) and, for the tooltip and a screen reader, the score
    after the step and the change."""
    rows: list[dict[str, Any]] = []
    before: float | None = None
    for s in steps:
        value = s.value(measure)
        if value is None:
            continue
        change = None if before is None else value - before
        official = s.official or change is None
        rows.append({
            "order": len(rows), "step": s.title, "name": "\n".join(textwrap.wrap(s.title, 20)),
            "start": 0.0 if official else before, "end": value,
            "kind": OFFICIAL if official else UP if (change or 0.0) >= 0 else DOWN,
            "text": f"{value:.3f}" if official else f"{change or 0.0:+.3f}",
            "score": f"{value:.4f}", "change": "—" if change is None else f"{change:+.4f}",
            "description": f"{s.title}: {MEASURES[measure]} {value:.4f}"
                           + ("" if change is None else f", {change:+.4f}")
                           + (" (official metric)" if s.official else "")})
        before = value
    return pd.DataFrame(rows, columns=["order", "step", "name", "start", "end", "kind", "text",
                                       "score", "change", "description"])


def waterfall_spec(steps: list[Step], measure: str, *, title: str, ink: str = EITHER_GREY
                   ) -> dict[str, Any]:
    """The waterfall from the first official metric to the last, a Vega-Lite spec for
    ``st.vega_lite_chart``; the one builder of it (Metric differences, Learn's ladder and an
    exercise's answers draw it). One horizontal bar per step from the top, the step's name
    wrapped on the left (readable on a phone, issue 16 item 9), official metrics grey from 0,
    each rule a floating bar from the score before it to the score after it, blue up and
    vermillion down (apart under every colour-vision deficiency) and signed in the text beside
    it (the second cue); a hover names the step, its score and its change. A value past 1
    (Martino's recall can exceed 1) is shown against a dashed line at 1 in ``ink``.

    Vega-Lite, not plotly: plotly.js drew this one chart in 60 to 115 ms of the browser's main
    thread on every visit of the page, the most of any element there (docs/performance.md,
    issue 29, fourteenth pass). Streamlit's chart toolbar keeps the PNG download (drawn by the
    browser), the data as a table and the full screen view. Its data is the frame named
    :data:`WATERFALL_DATA`."""
    rows = waterfall_rows(steps, measure)
    kinds = ["absolute" if k == OFFICIAL and i == 0 else "total" if k == OFFICIAL
             else "relative" for i, k in enumerate(rows["kind"])]
    values = [e if k != "relative" else e - b
              for k, b, e in zip(kinds, rows["start"], rows["end"], strict=True)]
    low, high = axis_range(kinds, values)
    shown = MEASURES[measure]
    names = [line for name in rows["name"] for line in name.split("\n")]
    y = {"field": "name", "type": "nominal", "sort": list(rows["name"]), "title": None,
         "axis": {"labelExpr": "split(datum.label, '\\n')", "labelLimit": 0,
                  "labelFontSize": 12, "labelColor": ink, "ticks": False, "domain": False,
                  "labelPadding": 6, "minExtent": names_margin(names)}}
    x = {"field": "start", "type": "quantitative", "title": shown,
         "scale": {"domain": [low, high], "nice": False, "zero": True},
         "axis": {"titleColor": ink, "labelColor": ink, "grid": True, "tickCount": 6}}
    tooltip = [{"field": "step", "title": "step"},
               {"field": "score", "title": shown},
               {"field": "change", "title": "change"},
               {"field": "kind", "title": "bar"}]
    layers: list[dict[str, Any]] = [
        {"mark": {"type": "bar", "height": {"band": 0.7}},
         "encoding": {"y": y, "x": x, "x2": {"field": "end"},
                      "color": {"field": "kind", "type": "nominal", "legend": None,
                                "scale": {"domain": [OFFICIAL, UP, DOWN],
                                          "range": ["#777777", OKABE_ITO[4], OKABE_ITO[5]]}},
                      # What a screen reader says of a bar (Vega's SVG labels each mark).
                      "description": {"field": "description"}, "tooltip": tooltip}},
        {"mark": {"type": "text", "align": "left", "dx": 4, "fontSize": 11, "color": ink},
         "transform": [{"calculate": "max(datum.start, datum.end)", "as": "tip"}],
         "encoding": {"y": y, "x": {"field": "tip", "type": "quantitative"},
                      "text": {"field": "text"}}},
    ]
    if any(v > 1 for v in running_values(kinds, values)):
        layers.append({"data": {"values": [{"one": 1}]},
                       "mark": {"type": "rule", "strokeDash": [4, 3], "color": ink},
                       "encoding": {"x": {"field": "one", "type": "quantitative"}}})
    lines = textwrap.wrap(title, TITLE_CHARS)
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "title": {"text": lines, "anchor": "start", "color": ink, "fontSize": 14},
        "data": {"name": WATERFALL_DATA},
        "datasets": {WATERFALL_DATA: rows},
        "height": {"step": row_px(list(rows["name"]))}, "width": "container",
        # Fitted to the column's width only: its height is the rows' (Streamlit fits both
        # when a spec says nothing, and squeezed eight rows into the default height).
        "autosize": {"type": "fit-x", "contains": "padding"},
        # Room on the right for the axis's last number (cut at a phone's edge without it).
        "padding": {"left": 5, "top": 5, "right": 14, "bottom": 5},
        "layer": layers,
        "config": {"view": {"stroke": None}},
    }


def waterfall_title(c: Choice) -> str:
    """The waterfall's title, which its PNG (the chart's toolbar) keeps: the score, the pair,
    the level and the MAFALDA variant, so that the image on a slide says what it compares (the
    page's heading above it is not in the PNG; tour19).

    >>> waterfall_title(Choice("g", "s", 1, "paper", "recall"))
    'R, one rule at a time: s against g, level 1, MAFALDA paper (grey: the official metrics)'
    """
    return (f"{MEASURES[c.measure]}, one rule at a time: {c.system} against {c.ref}, level "
            f"{c.level}, MAFALDA {c.mvariant} (grey: the official metrics)")


NAME_PX = 6.0
"""Room for one character of a step's name on the waterfall's axis, in px (Streamlit's sans
serif at Plotly's 12 px measures 5.3 to 5.6 px a character on these names), with
:data:`NAME_PAD` px between the names and the bars."""
NAME_PAD = 12


def names_margin(names: list[str]) -> int:
    """The waterfall's left margin in px: room for its longest line of a step's name (names
    wrapped with ``<br>``)."""
    longest = max((len(line) for name in names for line in name.split("<br>")), default=0)
    return round(NAME_PAD + NAME_PX * longest)


def running_values(kinds: list[str], values: list[float]) -> list[float]:
    """The value after each step of a waterfall (``kinds`` as plotly's ``measure``)."""
    out, running = [], 0.0
    for kind, v in zip(kinds, values, strict=True):
        running = running + v if kind == "relative" else v
        out.append(running)
    return out


def axis_range(kinds: list[str], values: list[float]) -> tuple[float, float]:
    """The waterfall's x range: from 0 to a little past its largest value, so that an F1 of
    0.16 fills the width rather than an eighth of a fixed 0–1.2 (issue 27); past 1 it reaches
    its largest value too, so 1 stays on the axis. The margin leaves room for the text written
    outside each bar (a signed change, six characters)."""
    top = max([0.0, *(abs(v) for v in running_values(kinds, values))])
    if top == 0:
        return 0.0, 1.0
    return 0.0, top * 1.3


def documents_table(rows: list[DocDifference]) -> pd.DataFrame:
    """The per-text comparison as a table (reasons in words in ``why``)."""
    df = pd.DataFrame([r.to_dict() for r in rows],
                      columns=["document", "Martino P", "Martino R", "Martino F1", "MAFALDA P",
                               "MAFALDA R", "MAFALDA F1", "F1 difference", "reasons",
                               "weight pooled", "weight averaged"])
    return df


@st.cache_data(max_entries=32, show_spinner=False)
def documents_frame(ws_key: str, _ws: Workspace, ref: str, system: str, level: int,
                    variant: str) -> pd.DataFrame:
    """:func:`documents_table` of :func:`documents`, built once per pair and setting: the
    page's warm runs (a revisit, a table page, a measure) rebuilt one row per text, 10,000 at
    the size where the comparison shows without its toggle (docs/performance.md, issue 29,
    sixth pass)."""
    return documents_table(documents(ws_key, _ws, ref, system, level, variant))


NO_REASON = "nothing that separates the metrics"


def first_reason(reasons: str) -> str:
    return reasons.split(", ")[0] if reasons else NO_REASON


SCATTER_MAX = 2000
"""Most texts the scatter draws: a random sample (:mod:`ui.sampling`) beyond, so that the share
of texts on the diagonal stays what it is in the corpus; the table lists every text."""
SCATTER_AUTO = 500
"""Above this many texts the page draws the scatter only when asked (measured with
``bench/bench_app.py``: 2,000 markers take a headless Chromium about 1.3 s, 500 about 0.5 s)."""


def scatter(df: pd.DataFrame, *, level: int, variant: str) -> go.Figure:
    """Per-text Martino F1 (x) against MAFALDA F1 (y), the first reason shown by colour and
    marker symbol; points on the diagonal score the same under both metrics. The caller passes
    at most :data:`SCATTER_MAX` rows (:func:`ui.sampling.sample_rows`): a browser draws 10,000
    markers slowly."""
    fig = go.Figure()
    top = max(1.0, float(df["Martino F1"].max() if len(df) else 1.0),
              float(df["MAFALDA F1"].max() if len(df) else 1.0))
    fig.add_scatter(x=[0, top], y=[0, top], mode="lines", name="same score",
                    line=dict(color="#bbb", dash="dash"), hoverinfo="skip")
    groups = df.assign(reason=df["reasons"].map(first_reason)).groupby("reason", sort=True)
    for i, (reason, part) in enumerate(groups):
        colour = "#9e9e9e" if reason == NO_REASON else PALETTE[(i + 1) % len(PALETTE)]
        fig.add_scatter(
            x=part["Martino F1"], y=part["MAFALDA F1"], mode="markers", name=plot(reason),
            # the document as read (a click opens it) and, shown on hover, as Plotly draws it
            customdata=[[doc, plot(doc), plot(why)]
                        for doc, why in zip(part["document"], part["reasons"], strict=True)],
            marker=dict(size=11, color=colour, opacity=0.85,
                        symbol=MARKER_SYMBOLS[i % len(MARKER_SYMBOLS)],
                        line=dict(width=1, color="white")),
            hovertemplate="document %{customdata[1]}<br>Martino F1 %{x:.3f}<br>MAFALDA F1 "
                          "%{y:.3f}<br>%{customdata[2]}<extra></extra>")
    # The title wrapped, in a margin that keeps it below the toolbar (as the waterfall's): on a
    # phone a title on one line ran under the toolbar and past the chart's 358 px.
    text, margin_top = wrapped_title(f"Per text: Martino F1 (SemEval-2021) against MAFALDA F1 "
                                     f"({variant}, level {level})")
    fig.update_layout(title=text, height=480,
                      xaxis=dict(title=dict(text="Martino F1", standoff=4),
                                 range=[-0.03, top + 0.05]),
                      yaxis=dict(title="MAFALDA F1", range=[-0.03, top + 0.05]),
                      legend=dict(orientation="h", yanchor="top", y=-0.2, x=0),
                      **{**_LAYOUT, "margin": dict(l=10, r=10, t=margin_top, b=10)})
    return fig


def reasons_legend(df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The reason tags, how many texts of ``df`` (:func:`documents_table`) carry each, and what
    each does to the two metrics: the reasons of these texts first (most texts first), then the
    others in :data:`REASONS`'s order with 0, so that the reasons the scatter's legend names are
    read at the top. Without ``df`` every count is 0."""
    counts: dict[str, int] = dict.fromkeys(REASONS, 0)
    if df is not None:
        for tags in df["reasons"]:
            for tag in filter(None, str(tags).split(", ")):
                if tag in counts:
                    counts[tag] += 1
    order = sorted(REASONS, key=lambda k: -counts[k])  # stable: REASONS's order among ties
    return pd.DataFrame([{"reason": k, "texts": counts[k], "what it does": REASONS[k]}
                         for k in order])


def legend_markdown(legend: pd.DataFrame) -> str:
    """Rows of :func:`reasons_legend` as a Markdown table (the ``texts`` counts right-aligned),
    every cell escaped. Markdown, not a data grid: its cells wrap, where the grid cut "what it
    does" at its column's edge (tour19). (Not :func:`ui.small_table.small_table`, whose module
    leads back here through ui.above_one and ui.learn: an import cycle.)

    >>> print(legend_markdown(reasons_legend().head(1)[["reason", "texts"]]))
    | reason | texts |
    |:--|--:|
    | duplicate\\-prediction | 0 |
    """
    columns = [str(c) for c in legend.columns]
    lines = ["| " + " | ".join(md(c) for c in columns) + " |",
             "|" + "|".join("--:" if c == "texts" else ":--" for c in columns) + "|"]
    lines += ["| " + " | ".join(md(str(v)) for v in row) + " |"
              for row in legend.itertuples(index=False)]
    return "\n".join(lines)


def selected_document(event: Any, df: pd.DataFrame) -> str | None:
    """The document of a clicked scatter point or a selected table row (``event`` is the
    selection state of ``st.plotly_chart``/``st.dataframe``), else None."""
    if not event:
        return None
    sel = event["selection"]
    points = sel.get("points")
    if points:
        data = points[0].get("customdata")
        return str(data[0]) if data else None
    rows = sel.get("rows")
    if rows:
        return str(df.iloc[int(rows[0])]["document"])
    return None


# ---- the page's sections, in the order pages/differences.py draws them --------------------------


@dataclass(frozen=True)
class Choice:
    """The pair compared, the MAFALDA level and variant, and the score the charts show."""

    ref: str
    system: str
    level: int
    mvariant: str
    measure: str


def choose(ws: Workspace) -> Choice:
    """The pair, level, variant and score widgets (and a note on non-MAFALDA labels)."""
    c1, c2, c3, c4, c5 = st.columns([2, 2, 1, 1.4, 1.2], vertical_alignment="bottom")
    ref, system = set_pair(ws, c1, c2, "Reference (gold)", "System",
                           compared=state.compared_sets)
    level = levels.level_select(c3, ws, ref, system, label="MAFALDA level",
                                help="2: the labels as they are; 1: MAFALDA's three groups; "
                                "0: any label or none.")
    # Rarely changed: one click further, as on Scores (a closed popover's selectbox runs here,
    # bound to ?mvariant= as before, but is not mounted in the browser; issue 29, eleventh
    # pass). The variant chosen is named in the path's heading.
    with c4.popover(VARIANT_MENU, key=K_DIFF_VARIANT_MENU, width="stretch"):
        mvariant = st.selectbox("MAFALDA variant", registry.get("mafalda").variants,
                                key=state.K_MAF_VARIANT, bind="query-params",
                                help=registry.get("mafalda").variants_help())
    shown_measure = c5.radio("Score", list(SHOWN_MEASURES), key=K_DIFF_MEASURE,
                             bind="query-params", horizontal=True)
    tax = taxonomy_for(ws, ref, system)
    if tax.name != "MAFALDA" and levels.has_levels(ws):  # only beside a level control
        plain.caption(f"The labels of {ref} and {system} are not MAFALDA's fallacies: each "
                      "label is its own class, so level 1 equals level 2 and level 0 asks 'any "
                      "label or none'.")
    elif not levels.has_levels(ws, ref, system):  # no level control: say what "level 2" is
        plain.caption(f"The labels of {ref} and {system} have no taxonomy, so there is no "
                      "level to choose: “level 2” below means the labels as they are, each its "
                      "own class.")
    return Choice(ref, system, int(level), mvariant, SHOWN_MEASURES[shown_measure])


@st.cache_resource(max_entries=64, show_spinner=False)
def waterfall_of(ws_key: str, _steps: list[Step], ref: str, system: str, level: int,
                 variant: str, measure: str, title: str, ink: str = EITHER_GREY
                 ) -> dict[str, Any]:
    """:func:`waterfall_spec` of :func:`path`'s steps for the same arguments (``_steps``),
    built once: a page revisit or a widget change that keeps the path redraws the same chart
    (docs/performance.md, issue 29, sixth pass). Shared: ``st.vega_lite_chart`` copies the
    spec's top level before it takes the data out."""
    return waterfall_spec(_steps, measure, title=title, ink=ink)


def steps_settings(c: Choice) -> dict[str, Any]:
    """What produced the steps' download (:func:`ui.widgets.download_buttons`): the reference
    the system is scored against, the level, MAFALDA's variant and the measure.

    >>> from ui.widgets import settings_name
    >>> settings_name(steps_settings(Choice("gold", "sys", 2, "paper", "f1")))
    'ref-gold_L2_mafalda-paper_measure-f1'
    """
    return {"reference": c.ref, "level": c.level, "mafalda": c.mvariant, "measure": c.measure}


def rule_path(ws: Workspace, c: Choice) -> None:
    """The system's score from Martino to MAFALDA, one rule per step: waterfall and table."""
    st.header(f"From Martino to MAFALDA ({md(c.mvariant)}): {md(c.system)} against "
              f"{md(c.ref)}")
    steps = steps_or_progress(ws, c)
    if steps is None:
        return
    scored = [s for s in steps if s.score is not None]
    if len(scored) >= 2:
        # In a container of its key: a chart without a selection gets no key class of its own
        # (the tests and bench/bench_app.py find the waterfall by it).
        with st.container(key=K_DIFF_WATERFALL):
            st.vega_lite_chart(waterfall_of(ws.key, steps, c.ref, c.system, c.level,
                                            c.mvariant, c.measure, waterfall_title(c),
                                            theme_ink()),
                               width="stretch")
    for s in steps:
        if s.error and s.official:
            st.warning(f"**{s.title}** cannot score these inputs: {md(s.error)}", icon="⚠️")
    table = steps_table(steps, c.measure)
    # A Markdown table, not a data grid: a grid costs the browser 15-30 ms of its main thread
    # on every visit, and its narrow columns cut the rules and reasons (issue 29, eleventh
    # pass). The downloads hold every number at full precision, one click further.
    # Keyed by the measure: on a phone the cards name the score's measure (ui.sidebar.STEPS_CSS).
    with st.container(key=f"diff_steps_{c.measure}"):
        st.markdown(steps_markdown(table, c.measure))
    # The pair, level, variant and measure in the file name (and each JSON record): a CSV
    # named after the system alone did not say, on a slide, what it was measured against.
    download_menu(table, f"metric_path_{c.system}", key="dl_diff_steps",
                  settings=steps_settings(c))


def _scatter(df: pd.DataFrame, c: Choice) -> str | None:
    """The per-text scatter (drawn when asked on a large corpus); returns a clicked text."""
    points = sample_rows(df, SCATTER_MAX)
    # A browser takes about a second per thousand markers: on a large corpus the scatter is
    # drawn when asked for, so that the page answers at once.
    draw = len(df) <= SCATTER_AUTO or st.toggle(
        f"Draw the scatter ({len(points.rows):,} points"
        + (f", a random sample of the {len(df):,} texts)" if points.sampled else ")"),
        key=K_DIFF_DRAW,
        persist_state="session",
        help=f"Off by default above {SCATTER_AUTO:,} texts: drawing thousands of points "
        "takes the browser a second or more on every visit of this page.")
    if not draw:
        st.caption(f"The scatter of per-text Martino F1 against MAFALDA F1 is off for "
                   f"{len(df):,} texts; turn it on above, or use the table below.")
        return None
    event = st.plotly_chart(scatter(points.rows, level=c.level, variant=c.mvariant),
                            key=K_DIFF_SCATTER, on_select="rerun",
                            selection_mode=("points",), width="stretch")
    st.caption(points.caption("texts") + (" The table below lists every text, the most "
                                          "different first." if points.sampled else ""))
    return selected_document(event, points.rows)


def text_by_text(ws: Workspace, c: Choice) -> None:
    """Every text's two scores, as a scatter and a table; a clicked text opens on Documents."""
    st.header("Text by text")
    n_docs = max(len(ws.sets[c.ref].spans), len(ws.sets[c.system].spans))
    # What the toggle turns on is said in its help, not in a caption below it: one element
    # fewer on every visit of a large corpus's page (issue 29, eleventh pass).
    if not asked_for(n_docs, TEXTS_AUTO, f"Compare all {n_docs:,} texts one by one",
                     key=K_DIFF_TEXTS,
                     why="scoring every text under both metrics takes seconds here. On: the "
                     "texts where the two metrics differ most, as a scatter and a table; a "
                     "click on one opens it on the 📄 Documents page."):
        return
    try:
        df = documents_frame(ws.key, ws, c.ref, c.system, c.level, c.mvariant)
    except SpanScopeError as exc:
        # The text-by-text comparison needs both official scorers; SemEval-2021's refuses a
        # system that does not cover the reference's documents (the path above shows that
        # step's error).
        st.warning(f"The texts cannot be compared one by one: {md(str(exc))}. Load a system "
                   f"that covers every document of {md(c.ref)}, or compare another pair.",
                   icon="⚠️")
        st.stop()
    if not len(df):
        st.info(f"{md(c.ref)} has no document.", icon="ℹ️")
        st.stop()
    n_diff = int((df["F1 difference"].abs() > 1e-12).sum())
    plain.caption(f"{n_diff:,} of {len(df):,} texts score differently. Click a point or a row "
                  "to open the text on the 📄 Documents page.")
    left, right = st.columns([3, 2])
    with left:
        picked = _scatter(df, c)
    with right:
        plain.text(plain.b("Why the texts differ"))
        # A Markdown table (small_table: 12 rows), not a data grid: the grid cut "what it
        # does" at the column's edge at 1,440 px and on a phone, and the explanation is what a
        # reader comes for (tour19).
        legend = reasons_legend(df)
        here = legend["texts"] > 0
        if here.any():
            with st.container(key="diff_reasons"):
                st.markdown(legend_markdown(legend[here]))
        else:
            plain.caption("No text here carries one of the reasons below.")
        if not here.all():  # the others, closed: they would push the page down for nothing
            with st.expander(f"The other reasons ({int((~here).sum())}, in none of these "
                             "texts)"), st.container(key="diff_reasons_other"):
                st.markdown(legend_markdown(legend[~here].drop(columns="texts")))
    plain.text(plain.b("The texts where the two metrics differ most"),
               " (|MAFALDA F1 − Martino F1|, largest first)")
    shown = paginate(df, key=K_DIFF_PAGE)
    table_event = st.dataframe(shown, hide_index=True, key=K_DIFF_TABLE, on_select="rerun",
                               selection_mode="single-row",
                               column_config={col: st.column_config.NumberColumn(format="%.3f")
                                              for col in df.columns
                                              if col not in ("document", "reasons")},
                               placeholder="—")
    picked = selected_document(table_event, shown) or picked
    download_buttons(df, f"metric_differences_{c.system}", key="dl_diff_docs")
    plain.caption("weight pooled: the text's share of all gold and predicted spans, i.e. its "
                  "weight in Martino's pooled sums; weight averaged: 1/N, its weight in "
                  "MAFALDA's average.")
    if picked is not None:
        # The sets, level and variant are bound here under the Documents page's own keys, so
        # they travel in session state. switch_page may neither set nor clear query parameters
        # bound on this page: it gets the unbound ones explicitly (an empty mapping would do as
        # well).
        st.session_state[state.K_DOC] = picked
        st.session_state[state.K_METRIC] = "mafalda"
        st.switch_page("pages/documents.py",
                       query_params={state.K_DOC: picked, state.K_METRIC: "mafalda"})
