"""The Learn page: the seeds' worked examples as a playground, or a generated exercise.

``pages/learn.py`` calls these sections in order. The numbers come from
:mod:`core.teaching.scenarios`
(one :class:`~core.teaching.scenarios.Evaluation` per set of predictions); the tables are laid out
by
:mod:`ui.learn_tables`, the exercise mode by :mod:`ui.exercise`. The page owns the session keys
below; the scenario's id is bound to the URL (``?scenario=``), the exercise's seed too
(``?exercise=``, :data:`ui.exercise.PARAM`).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.metrics import mafalda, martino
from core.model import Span
from core.render import highlight
from core.teaching import scenarios
from ui import differences as diff
from ui import exercise, live_class
from ui import learn_tables as tables
from ui.escape import md
from ui.grid_columns import pinned, text_width
from ui.lazy import lazy_expander
from ui.state import ROOT
from ui.theme import EITHER_GREY, theme_ink
from ui.widgets import download_buttons

# ---- keys (this page's; the shared ones are in ui.state) ----------------------------------------
K_SCENARIO = "scenario"  # bound to the URL: which worked example (core.teaching.scenarios id)
K_LEARN_ROWS = "learn_rows"  # {scenario id: prediction rows} after the last move or reset
K_LEARN_GEN = "learn_gen"  # {scenario id: n}: a move or reset starts editor generation n + 1
K_LEARN_SHOWN = "learn_shown"  # {scenario id: rows} as the editor returned them on the last run
K_LEARN_MOVE = "learn_move"  # which prediction the sliders move ("P2")
K_MODE = "learn_mode"  # session: worked examples or an exercise (the URL's ?exercise= decides)
K_LEARN_WATERFALL = "learn_waterfall"  # the container of the ladder's waterfall (Vega-Lite)
MODES = ("📖 Worked examples", "📝 Exercise")

OPENING_SCENARIO = "mafalda-example9"
"""Where Learn opens: MAFALDA's Example 9, on which the metrics disagree (the 2021 scorer's recall
1.25 against MAFALDA's 1), so the first screen already shows why the choice of metric matters."""

_fmt = tables.fmt
SpanKey = tuple[tuple[int, int, str], ...]


def mode_changed() -> None:
    """The mode radio moved: an exercise puts its seed in the URL, worked examples remove it."""
    if st.session_state[K_MODE] == MODES[1]:
        st.query_params[exercise.PARAM] = str(st.session_state.get(exercise.K_SEED,
                                                                  exercise.DEFAULT_SEED))
    elif exercise.PARAM in st.query_params:
        del st.query_params[exercise.PARAM]


def scenario_from_url(ids: Sequence[str]) -> None:
    """Put the URL's ``?scenario=`` id (when it is one) in the picker's state before it is drawn;
    else keep the picker's value (the opening scenario at first) and write it to the URL."""
    wanted = st.query_params.get(K_SCENARIO)
    if wanted in ids:
        st.session_state[K_SCENARIO] = wanted
        return
    if st.session_state.get(K_SCENARIO) not in ids:
        st.session_state[K_SCENARIO] = OPENING_SCENARIO
    if wanted is not None or st.session_state[K_SCENARIO] != OPENING_SCENARIO:
        st.query_params[K_SCENARIO] = st.session_state[K_SCENARIO]


def scenario_to_url() -> None:
    """The picker moved: the URL carries the chosen id."""
    st.query_params[K_SCENARIO] = st.session_state[K_SCENARIO]


def _bump(scenario_id: str) -> None:
    gens = st.session_state.setdefault(K_LEARN_GEN, {})
    gens[scenario_id] = gens.get(scenario_id, 0) + 1


def _commit(scenario_id: str, row_id: int, start: int, end: int) -> None:
    """Fold the editor's current rows, with prediction ``row_id`` at ``[start, end)``, into the
    committed rows and start a new editor generation."""
    rows = [dict(r) for r in st.session_state[K_LEARN_SHOWN][scenario_id]]
    for r in rows:
        if r["id"] == row_id:
            r["start"], r["end"] = start, end
    st.session_state[K_LEARN_ROWS][scenario_id] = rows
    st.session_state[K_LEARN_SHOWN][scenario_id] = rows
    _bump(scenario_id)


def _typed(scenario_id: str, row_id: int, key_start: str, key_end: str) -> None:
    """Fold the typed offsets of prediction ``row_id`` into the committed rows (as a slider move
    does); an end not after the start is left for the table's check to report."""
    _commit(scenario_id, row_id, int(st.session_state[key_start]),
            int(st.session_state[key_end]))


def _moved(scenario_id: str, row_id: int, slider_key: str) -> None:
    """The slider of prediction ``row_id`` moved."""
    start, end = st.session_state[slider_key]
    _commit(scenario_id, row_id, int(start), int(end))


def _reset(scenario_id: str) -> None:
    st.session_state[K_LEARN_ROWS].pop(scenario_id, None)
    st.session_state[K_LEARN_SHOWN].pop(scenario_id, None)
    _bump(scenario_id)


def offset_inputs(scenario_id: str, row_id: int, start: int, end: int, n_chars: int) -> None:
    """Start and end of one prediction as number inputs beside the slider: typed or stepped with
    the arrow keys. Their keys name only the scenario and the prediction, and the committed
    offsets are put in their state before they are drawn: a step is then the same widget in the
    browser, which keeps the focus (keys that held the offsets made new boxes at every step, and
    the focus fell back to the page)."""
    key_start, key_end = (f"learn_start::{scenario_id}::{row_id}",
                          f"learn_end::{scenario_id}::{row_id}")
    st.session_state[key_start], st.session_state[key_end] = start, end
    a, b = st.columns(2)
    a.number_input("start", min_value=0, max_value=n_chars - 1, step=1,
                   key=key_start, on_change=_typed, args=(scenario_id, row_id, key_start, key_end),
                   help="Offset of the first character; type it or use the arrow keys.")
    b.number_input("end", min_value=1, max_value=n_chars, step=1, key=key_end,
                   on_change=_typed, args=(scenario_id, row_id, key_start, key_end),
                   help="Offset one past the last character (end-exclusive).")


GLOSSARY: dict[str, str] = {
    "C(s, t, h)": "how much of span h the overlap of s and t covers: |s ∩ t| / |h| when the "
                  "labels agree, else 0 (Da San Martino et al. 2019, Eq. 1).",
    "δ (delta)": "1 when two spans carry the same label, 0 otherwise: a span with the wrong "
                 "label earns nothing, however well it overlaps.",
    "pooled": "the sums of every document are added before dividing (micro-average over the "
              "corpus); the opposite is averaging the per-document values (MAFALDA's per-text "
              "mean).",
    "⊥ (nothing)": "a gold alternative saying the span may also be left unannotated: "
                   "predicting nothing there is not an error (MAFALDA, Helwe et al. 2024).",
    "alternative": "one of several labels (or ⊥) a gold span may be matched with: any one "
                   "counts as right; they are alternatives, not a conflict between annotators.",
    "precision / recall": "precision divides by the predicted spans (how much of what was "
                          "predicted is right), recall by the gold spans (how much of the gold "
                          "was found).",
}
"""Terms the Learn and Metric differences pages use, in words a student understands
(docs/martino.md, docs/mafalda.md)."""


GLOSSARY_TITLE = "📘 Glossary: pooled, δ, ⊥, alternative…"


def glossary(*, lazy_key: str | None = None) -> None:
    """The :data:`GLOSSARY` in a closed expander; with ``lazy_key`` a lazy one
    (:func:`ui.lazy.lazy_expander`): its list is drawn only once it is opened, not mounted on
    every visit of the page (docs/performance.md, issue 29, eleventh pass)."""
    if lazy_key is None:
        box = st.expander(GLOSSARY_TITLE)
    else:
        box = lazy_expander(GLOSSARY_TITLE, key=lazy_key)
        if box.open is False:
            return
    with box:
        st.markdown("\n".join(f"- **{term}**: {text}" for term, text in GLOSSARY.items()))


@st.cache_data(max_entries=256, show_spinner=False)
def evaluate(scenario_id: str, pred: SpanKey) -> scenarios.Evaluation:
    """Every score of the scenario for these predictions (core.teaching.scenarios.evaluate)."""
    return scenarios.evaluate(scenarios.get(scenario_id), [Span(*p) for p in pred])


@st.cache_data(max_entries=256, show_spinner=False)
def ladder(scenario_id: str, pred: SpanKey) -> list[Any]:
    """The Martino → MAFALDA ladder of these predictions (core.teaching.scenarios.ladder)."""
    return scenarios.ladder(scenarios.get(scenario_id), [Span(*p) for p in pred])


@st.cache_data(max_entries=256, show_spinner=False)
def waterfall(scenario_id: str, pred: SpanKey, measure: str, ink: str = EITHER_GREY
              ) -> dict[str, Any]:
    """The ladder's waterfall (:func:`ui.differences.waterfall_spec`, the Metric differences
    page's chart), built once per scenario, predictions, score and theme for every session: a
    chart is the costliest thing Learn builds (bench/bench_learn.py), and a class of students
    opening the same example would otherwise each build it."""
    return diff.waterfall_spec(ladder(scenario_id, pred), measure,
                               title=f"{diff.MEASURES[measure]} of these predictions (grey: the "
                               "metrics)", ink=ink)


def _key(spans: Any) -> SpanKey:
    return tuple((s.start, s.end, s.label) for s in spans)


@dataclass(frozen=True)
class Edited:
    """The predictions as the editor leaves them on this run, and what they score."""

    sid: str
    sc: scenarios.Scenario
    valid: tables.Valid
    selected: str | None
    choices: list[str]
    ev: scenarios.Evaluation
    original: scenarios.Evaluation
    gold_id: dict[tuple[int, int], str]

    @property
    def run21(self) -> scenarios.VariantScore | None:
        return self.ev.run("semeval2021")


# ---- sections, in the order the page draws them -------------------------------------------------


def exercise_mode() -> None:
    """A live class (``?class=CODE``: its page, then ``st.stop()``); else the mode radio, the
    class buttons, and in exercise mode (``?exercise=SEED``) the exercise, then ``st.stop()``."""
    code, class_notice = live_class.code_from_url()
    if code is not None:
        live_class.render(code)
        st.stop()
    ex_seed, ex_notice = exercise.seed_from_url()
    st.session_state[K_MODE] = MODES[1 if ex_seed is not None else 0]
    # a row that wraps, each piece as wide as its label (three columns cut the class buttons to
    # "👩‍🏫 Sta…" and "🙋 J…" on a laptop's half screen)
    left = mid = right = st.container(horizontal=True, vertical_alignment="center")
    left.radio("Mode", MODES, key=K_MODE, horizontal=True, on_change=mode_changed,
               label_visibility="collapsed",
               help="Exercise: predict the scores of a generated example before the answers "
               "appear.")
    with mid:
        live_class.start_button(ex_seed if ex_seed is not None else exercise.DEFAULT_SEED,
                                exercise.length_from_url())
    with right:
        live_class.join_box()
    if class_notice:
        st.warning(class_notice, icon="🔗")
    if ex_seed is None:
        st.caption("Worked examples from the papers and the official scorers. Edit the "
                   "predictions — add, delete, move a span, change its label — and every pair "
                   "contribution C(s,t,h) and every score below is recomputed at once. The gold "
                   "spans stay fixed.")
        return
    st.caption("A generated example: predict precision and recall under each metric by hand, "
               "then check. Wrong answers name the step of the Martino → MAFALDA ladder missed.")
    if ex_notice:
        st.warning(ex_notice, icon="🔗")
    exercise.render(ex_seed)
    st.stop()


FIGURE1_DIR = ROOT / "sample_data" / "figure1"
"""Figure 1 of Da San Martino et al. as data (its README explains the numbers)."""


@st.cache_data(show_spinner=False)
def figure1_zip(folder: str) -> bytes:
    """The files of ``folder`` as a zip, under ``figure1/``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(Path(folder).iterdir()):
            if path.is_file():
                z.write(path, f"figure1/{path.name}")
    return buf.getvalue()


def scenario() -> tuple[str, scenarios.Scenario]:
    """The scenario picker and the scenario's title, source and hint."""
    ids = list(scenarios.SCENARIOS)
    # the picker across the page, its title whole (a third of the width cut it to "MAFALDA
    # Examp" at 800 px), then the source
    # Opens on a scenario where the metrics disagree (one where all agree teaches nothing at
    # first). The picker shows titles and the URL keeps the id (?scenario=duplicates): a widget
    # bound to the URL would write the shown title there, so the id is kept in the URL by hand.
    scenario_from_url(ids)
    sid = st.selectbox("Scenario", ids, key=K_SCENARIO,
                       format_func=lambda i: scenarios.SCENARIOS[i].title,
                       on_change=scenario_to_url,
                       help="The worked examples of the papers and of the official scorers; the "
                       "address bar keeps the example's id (`?scenario=`).")
    sc = scenarios.get(sid)
    st.caption(f"Source: {sc.source}")
    if sc.family == "figure1" and FIGURE1_DIR.is_dir():
        st.download_button("⬇️ The example's files: gold, predictions, README (zip)",
                           figure1_zip(str(FIGURE1_DIR)), "figure1.zip", "application/zip",
                           key="dl_learn_figure1",
                           help="The folder sample_data/figure1: Figure 1 as SemEval-2021 JSON, "
                           "to score with `python -m core score` or load on the Data page.")
    st.info(sc.look_at, icon="👀")
    glossary()
    if sc.level != 2:
        st.caption(f"This example is stated at MAFALDA level {sc.level}: labels are projected to "
                   "their level-1 group (emotion, logic, credibility) before scoring, for the Da "
                   "San Martino metric too (as App. D.1 does).")
    return sid, sc


def _committed_rows(sid: str, sc: scenarios.Scenario, editor_key: str) -> list[dict[str, Any]]:
    committed = st.session_state.setdefault(K_LEARN_ROWS, {})
    rows = committed[sid] if sid in committed else [
        {"id": i, "start": s.start, "end": s.end, "label": s.label}
        for i, s in enumerate(sc.pred, 1)]
    last_shown = st.session_state.setdefault(K_LEARN_SHOWN, {}).get(sid)
    if editor_key not in st.session_state and last_shown is not None and last_shown != rows:
        # The table was off screen (another scenario or page) and Streamlit dropped its edits;
        # the rows it last showed keep them.
        committed[sid] = rows = [dict(r) for r in last_shown]
    return rows


def _editor(rows: list[dict[str, Any]], editor_key: str, choices: list[str],
            n_chars: int) -> list[dict[str, Any]]:
    base = pd.DataFrame(rows, columns=["id", "start", "end", "label"]).set_index("id")
    base.index = base.index.astype("int64")
    edited = st.data_editor(
        base, key=editor_key, num_rows="dynamic", width="stretch",
        hide_index=False,
        column_config={
            "_index": st.column_config.NumberColumn("span", format="P%d", disabled=True),
            "start": st.column_config.NumberColumn(
                "start", min_value=0, max_value=n_chars - 1, step=1, required=True,
                help="Offset of the first character (0-based)."),
            "end": st.column_config.NumberColumn(
                "end", min_value=1, max_value=n_chars, step=1, required=True,
                help="Offset one past the last character (end-exclusive)."),
            "label": st.column_config.SelectboxColumn("label", options=choices, required=True),
        })
    st.caption(f"Offsets are characters of the {n_chars}-character text, `[start, end)`. Add a "
               "row with ➕ below the table, delete one by ticking it and pressing 🗑️.")
    return [{str(k): (None if pd.isna(v) else v) for k, v in r.items()}
            for r in edited.reset_index(names="id").to_dict("records")]


def _stuck(rows: Sequence[Mapping[str, Any]], picked: object, n_chars: int
           ) -> tuple[int, int, int] | None:
    """(id, start, end) of the picked prediction when its offsets, though whole numbers the
    inputs accept, make no span (end not after start, typed here): it stays picked, so that it is
    fixed where it was broken instead of the picker jumping to another prediction."""
    for r in rows:
        if f"P{r.get('id')}" != picked:
            continue
        start, end = _whole(r.get("start")), _whole(r.get("end"))
        if start is not None and end is not None and 0 <= start < n_chars and 1 <= end <= n_chars:
            return int(r["id"]), start, end
    return None


def _whole(value: object) -> int | None:
    """A table cell as a whole number (the editor gives floats and numpy integers), else None."""
    try:
        f = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return int(f) if f.is_integer() else None


def _mover(sid: str, sc: scenarios.Scenario, valid: tables.Valid,
           rows: Sequence[Mapping[str, Any]] = ()) -> str | None:
    """The prediction picker with its slider and offset inputs, and the reset button; returns
    the picked prediction when it is a span."""
    n_chars = len(sc.text)
    pred_ids = [f"P{rid}" for rid, _ in valid]
    picked = st.session_state.get(K_LEARN_MOVE)
    stuck = _stuck(rows, picked, n_chars) if picked not in pred_ids else None
    selected = None
    if stuck is not None:
        rid, start, end = stuck
        ids = [f"P{r.get('id')}" for r in rows]
        st.selectbox("Move a prediction", [i for i in ids if i in pred_ids or i == picked],
                     key=K_LEARN_MOVE, help="Drag its start and end; the table follows.")
        offset_inputs(sid, rid, start, end, n_chars)
        st.caption(f"P{rid} = [{start}, {end}) is no span (its end must be after its start): "
                   "fix start or end here or in the table.")
    elif valid:
        selected = st.selectbox("Move a prediction", pred_ids, key=K_LEARN_MOVE,
                                help="Drag its start and end; the table follows.")
        rid, span = valid[pred_ids.index(selected)]
        # One key per prediction, its state set to the committed offsets: a keyboard step is the
        # same slider in the browser, so its thumb keeps the focus (as offset_inputs' boxes do).
        slider_key = f"learn_slider::{sid}::{rid}"
        st.session_state[slider_key] = (span.start, span.end)
        st.slider(f"{selected}: start and end", 0, n_chars, step=1,
                  key=slider_key, on_change=_moved, args=(sid, rid, slider_key))
        offset_inputs(sid, rid, span.start, span.end, n_chars)
        st.caption(f"{selected} = [{span.start}, {span.end}) {md(span.label)}: "
                   f"“{md(sc.text[span.start:span.end])}” ({span.length} characters)")
    else:
        st.caption("No valid prediction to move: fix or add a row in the table.")
    st.button("↺ Reset the predictions", key="learn_reset", on_click=_reset, args=(sid,),
              help="Back to the scenario's own predictions.")
    return selected


def predictions(sid: str, sc: scenarios.Scenario) -> Edited:
    """The editable predictions (committed rows, the editor, the sliders), evaluated."""
    gen = st.session_state.setdefault(K_LEARN_GEN, {}).get(sid, 0)
    editor_key = f"learn_editor::{sid}::{gen}"
    rows = _committed_rows(sid, sc, editor_key)
    choices = sc.label_choices()
    n_chars = len(sc.text)
    st.header("✏️ Predictions")
    left, right = st.columns([3, 2])
    with left:
        shown = _editor(rows, editor_key, choices, n_chars)
    st.session_state[K_LEARN_SHOWN][sid] = shown
    valid, problems = scenarios.spans_from_rows(shown, text_length=n_chars)
    if problems:
        st.warning("Rows left out of the scores until they are fixed:\n\n"
                   + "\n".join(f"- {md(p)}" for p in problems), icon="⚠️")
    with right:
        selected = _mover(sid, sc, valid, shown)
    gold_items = highlight.span_items(sc.gold_set(), scenarios.DOC, "G")
    return Edited(sid, sc, valid, selected, choices, evaluate(sid, _key(s for _, s in valid)),
                  evaluate(sid, _key(sc.pred)), {it.interval: it.id for it in gold_items})


def text(e: Edited) -> None:
    """The scenario's text with the gold and the predicted spans, one lane each."""
    sc, valid, selected = e.sc, e.valid, e.selected
    gold_items = highlight.span_items(sc.gold_set(), scenarios.DOC, "G")
    pred_items = [highlight.SpanItem(f"P{rid}", s.start, s.end, (s.label,)) for rid, s in valid]
    colours = highlight.label_colours([*e.choices, *(lab for it in gold_items
                                                     for lab in it.labels),
                                       *(s.label for _, s in valid)])
    pred_ids = [f"P{rid}" for rid, _ in valid]
    sel_span = valid[pred_ids.index(selected)][1] if selected else None
    partners = sorted({e.gold_id.get(r.gold.interval, "") for r in e.ev.pairs
                       if sel_span is not None and r.pred is not None and r.gold is not None
                       and r.pred.interval == sel_span.interval} - {""})
    used = {lab for it in gold_items + pred_items for lab in it.labels}
    st.html(highlight.legend(colours, used))
    st.markdown(f"**Gold** · {len(gold_items)} span(s)")
    st.html(highlight.render_lanes(sc.text, gold_items, colours, dom_id="learn-gold",
                                   partners=partners))
    if sc.alternatives:
        st.caption("A gold span tagged `A | B` may be matched by either label; ⊥ means it may "
                   "also be left unpredicted (MAFALDA's alternatives).")
    st.markdown(f"**Predictions** · {len(pred_items)} span(s)"
                + (f" · {selected} and the gold spans it overlaps are highlighted"
                   if selected else ""))
    st.html(highlight.render_lanes(sc.text, pred_items, colours, selected=selected,
                                   dom_id="learn-pred"))


def _tile(tile: Any, row: tables.ScoreRow, run0: scenarios.VariantScore | None,
          e: Edited) -> None:
    name = row.variant if row.metric != "MAFALDA" else f"MAFALDA {row.variant}"
    if e.sc.level != 2 and row.metric != "MAFALDA":
        # The ladder's first bar scores the labels as written: each number names its setting.
        name = f"{name}, level {e.sc.level}"
    if row.R is None:
        tile.metric(name, "refused" if row.metric != "MAFALDA" else "—")
        tile.caption(row.note.split(";")[0] + "; the reason in full is in the table.")
        return
    original = e.original
    r0 = (original.mafalda.recall if original.mafalda else None) if run0 is None else (
        run0.result.recall if run0.result is not None else None)
    delta = None
    if e.ev.edited and r0 is not None and abs(row.R - r0) > 1e-12:
        delta = f"{row.R - r0:+.4f}".rstrip("0").rstrip(".")
    tile.metric(f"{name} — recall", _fmt(row.R), delta=delta)
    tile.caption(f"P {_fmt(row.P)} · F1 {_fmt(row.F1)}")


def scores(e: Edited) -> None:
    """One recall tile per metric run (with the change from the scenario's own predictions)
    and the runs as a table."""
    rows_scores = tables.score_rows(e.ev, e.sc)
    scores_df = pd.DataFrame([r.record() for r in rows_scores])
    st.header("📏 Scores")
    st.caption("Recall under three Da San Martino variants and under MAFALDA, with P and F1 "
               "below" + (" (arrows: the change from the scenario's own predictions)."
                          if e.ev.edited else "."))
    tiles = st.columns(len(rows_scores))
    before = [*e.original.runs, None]
    for tile, row, run0 in zip(tiles, rows_scores, before, strict=True):
        _tile(tile, row, run0, e)
    # Wider than the page at 1,440 px (the sums and notes): the run's metric and variant stay
    # pinned while the rest scrolls under a visible scrollbar (ui.sidebar.TABLE_CSS).
    st.dataframe(scores_df, hide_index=True, key="learn_scores", column_config={
        **pinned(scores_df, 2),
        **{k: st.column_config.NumberColumn(k, format="%.4f") for k in ("P", "R", "F1")},
        # the sums and the note whole, not cut with an ellipsis at the grid's own width
        **{str(k): st.column_config.TextColumn(str(k), width=text_width(scores_df[k], str(k)))
           for k in list(scores_df.columns)[6:]}},
                 placeholder="—")
    download_buttons(scores_df, f"scores_{e.sid}", key="dl_learn_scores")


def ladder_steps(e: Edited) -> None:
    """The Martino → MAFALDA ladder of the edited predictions, as a waterfall and a table."""
    sc, sid = e.sc, e.sid
    st.markdown("**From Martino to MAFALDA, one rule at a time**"
                + (" (your edited predictions)" if e.ev.edited else ""))
    steps = ladder(sid, _key(s for _, s in e.valid))
    l_left, l_right = st.columns([1, 3])
    l_measure = diff.SHOWN_MEASURES[l_left.radio("Score", ["R", "P", "F1"],
                                                 key="learn_ladder_measure", horizontal=True)]
    l_left.caption("Each bar changes one rule, as on the 🔀 Metric differences page; it follows "
                   "every edit above."
                   + (f" The first bar scores the labels as written; the level-{sc.level} step "
                      "projects them, and from there each grey bar is the tile above of its "
                      "name, at the same level." if sc.level != 2 else
                      " Each grey bar is the tile above of its name.")
                   + " SemEval-2020 span identification ignores the labels: it has no bar.")
    if sum(s.score is not None for s in steps) >= 2:
        # In a container of its key: a chart without a selection gets no key class of its own.
        with l_right.container(key=K_LEARN_WATERFALL):
            st.vega_lite_chart(waterfall(sid, _key(s for _, s in e.valid), l_measure,
                                         theme_ink()), width="stretch")
    else:
        l_right.info("Fewer than two steps can score these predictions.", icon="ℹ️")
    with st.expander("The ladder's steps as a table"):
        l_table = diff.steps_table(steps, l_measure)
        st.dataframe(l_table, hide_index=True, key="learn_ladder", column_config={
            diff.MEASURES[l_measure]: st.column_config.NumberColumn(format="%.4f"),
            "change": st.column_config.NumberColumn(format="%+.4f")}, placeholder="—")
        download_buttons(l_table, f"ladder_{sid}", key="dl_learn_ladder")


SEED_ROW_HEIGHT = 76
"""Pixels per row of the seed table: three lines of its source column (Streamlit wraps text in
cells only when rows are taller than 4rem)."""


def seed_numbers(e: Edited) -> None:
    """The numbers the scenario's source states beside the computed ones (and Figure 1's recall
    order for the Figure 1 family)."""
    sc, sid = e.sc, e.sid
    st.header("📖 What the published source says")
    st.caption("The published source of this example is the paper or the official scorer's "
               "documentation named under the title: the **stated** column holds the numbers "
               "it states, **computed now** what SpanScope computes for them, and "
               "**match** whether they agree.")
    seed_df = tables.seed_table(e.ev, sc)
    if e.ev.edited:
        st.caption("You have edited the predictions: the stated numbers are for the scenario's "
                   "own predictions (press ↺ Reset to see them match again).")
    # rows taller than 4rem let a cell wrap: the source (with Figure 1's recall order) is long
    st.dataframe(seed_df, hide_index=True, key="learn_seed", column_config={
        "quantity": st.column_config.TextColumn(width="medium"),
        "source": st.column_config.TextColumn(width="large")}, placeholder="—",
        row_height=SEED_ROW_HEIGHT)
    download_buttons(seed_df, f"stated_{sid}", key="dl_learn_seed")
    if sc.family:
        order_df = tables.recall_order_table(sc, lambda m: evaluate(m.id, _key(m.pred)))
        st.markdown(f"**The source's recall order** (each Figure 1 prediction set as given): "
                    f"{scenarios.RECALL_ORDER}")
        st.dataframe(order_df, hide_index=True, key="learn_order", column_config={
            "R (computed)": st.column_config.NumberColumn(format="%.4f")}, placeholder="—")
        download_buttons(order_df, "figure1_recall_order", key="dl_learn_order")


def martino_pairs(e: Edited) -> None:
    """Every overlapping pair's contribution C(s,t,h) under the 2021 variant."""
    ev, sid = e.ev, e.sid
    st.header("🔍 Where the numbers come from")
    st.markdown("**Da San Martino: every overlapping pair counts** (Eq. 1-3; 2021 variant, no "
                "merging)")
    if ev.pairs_error:
        st.error(ev.pairs_error, icon="❌")
    pairs_df = tables.pairs_table(ev, e.sc, e.valid, e.gold_id)
    st.dataframe(pairs_df, hide_index=True, key="learn_pairs", column_config={
        c: st.column_config.NumberColumn(format="%.4f") for c in ("C(s,t,|s|)", "C(s,t,|t|)")},
                 placeholder="—")
    run21 = e.run21
    if run21 is not None and run21.result is not None:
        res = run21.result
        st.caption(f"P = Σ C(s,t,|s|) / |S| = {res.p_num:.4g} / {res.p_den} = "
                   f"{_fmt(res.precision)}; R = Σ C(s,t,|t|) / |T| = {res.r_num:.4g} / "
                   f"{res.r_den} = {_fmt(res.recall)}. Spans that overlap nothing are listed "
                   "with 0; a pair whose labels differ has δ = 0.")
    download_buttons(pairs_df, f"pairs_{sid}", key="dl_learn_pairs")


def mafalda_matches(e: Edited) -> None:
    """MAFALDA's best match of each prediction and of each gold span."""
    ev, sc, sid = e.ev, e.sc, e.sid
    st.markdown(f"**MAFALDA: only the best match counts** (§5.2.2, App. D; paper variant, level "
                f"{sc.level})")
    written = {lab.lower(): lab for lab in [*e.choices, *(s.label for s in sc.gold)]}

    def _name(label: str | None) -> str:
        """The label as the scenario writes it (the taxonomy lower-cases names)."""
        return "⊥ (left out)" if label is None else written.get(label.lower(), label)

    if ev.mafalda_error or ev.explain is None:
        st.error(ev.mafalda_error or "MAFALDA cannot score this input.", icon="❌")
        return
    best_p, best_r = tables.mafalda_tables(ev, e.valid, e.gold_id, _name)
    st.caption("Precision: each prediction's best gold span, max over t of C(s,t,|s|).")
    st.dataframe(best_p, hide_index=True, key="learn_best_p", column_config={
        "C(s,t,|s|)": st.column_config.NumberColumn(format="%.4f")}, placeholder="—")
    download_buttons(best_p, f"mafalda_precision_{sid}", key="dl_learn_best_p")
    caption = ("Recall: each gold span's best prediction, max over s of C(s,t,|t|), with the "
               "label the best alternative picks for it.")
    if any(r.optional and r.recall_label is None for r in ev.explain.gold):
        caption += (" An optional span (⊥ among its alternatives) is left out when counting it "
                    "would lower the recall.")
    st.caption(caption)
    st.dataframe(best_r, hide_index=True, key="learn_best_r", column_config={
        "C(s,t,|t|)": st.column_config.NumberColumn(format="%.4f")}, placeholder="—")
    download_buttons(best_r, f"mafalda_recall_{sid}", key="dl_learn_best_r")
    maf = ev.mafalda
    if maf is not None:
        st.caption(f"P = {_fmt(maf.precision)}, R = {_fmt(maf.recall)}, F1 = {_fmt(maf.f1)} "
                   "(one text, so nothing is averaged).")


def alternatives(e: Edited) -> None:
    """Each gold alternative scored alone (only when the gold has alternatives)."""
    ev = e.ev
    if not ev.alternatives:
        return
    st.header("🔀 The gold's alternatives")
    alt_df = tables.alternatives_table(ev, e.gold_id)
    st.dataframe(alt_df, hide_index=True, key="learn_alts", column_config={
        c: st.column_config.NumberColumn(format="%.4f")
        for c in ("Precision(S, T)", "Recall(S, T)")}, placeholder="—")
    maf = ev.mafalda
    if maf is not None:
        st.caption(f"MAFALDA takes the best alternative for precision and for recall "
                   f"separately: P = max = {_fmt(maf.precision)}, R = max = {_fmt(maf.recall)}. "
                   "Each row is scored by core.metrics.mafalda against that alternative alone; "
                   "the metric itself never enumerates them.")
    download_buttons(alt_df, f"alternatives_{e.sid}", key="dl_learn_alts")


def per_label(e: Edited) -> None:
    """Per-label scores, correct and as the official scorer prints them."""
    ev, run21 = e.ev, e.run21
    st.header("🏷️ Per label: correct vs the official scorer")
    if run21 is None or run21.result is None:
        st.info(f"The 2021 variant refused this input: {md(run21.error) if run21 else ''}",
                icon="ℹ️")
        return
    official = ev.official.per_label_official_detail() if ev.official is not None else {}
    label_df = tables.label_table(ev)
    st.dataframe(label_df, hide_index=True, key="learn_labels", column_config={
        c: st.column_config.NumberColumn(format="%.4f")
        for c in label_df.columns if c == "P" or c.startswith(("R (", "F1 ("))}, placeholder="—")
    if official:
        absent = [lab for lab in official if lab not in set(label_df["label"])]
        st.caption("The official scorers' per-technique recall divides the *precision* sum "
                   "Σ C(s,t,|s|) by |T_L| (docs/martino.md); the correct one divides "
                   f"Σ C(s,t,|t|). The {len(absent)} techniques absent from both sides print "
                   "F1 = 1.0 in the official output.")
    else:
        st.caption(f"No official per-technique column: {ev.official_note}.")
    download_buttons(label_df, f"per_label_{e.sid}", key="dl_learn_labels")


def metric_cards() -> None:
    """The two metrics' cards (their modules' docstrings)."""
    st.header("📘 Metric cards")
    st.caption("The module docstrings of core/metrics/martino.py and core/metrics/mafalda.py, the "
               "same text that documents the code.")
    with st.expander("Da San Martino et al. (2019) span metric", expanded=False):
        st.markdown(scenarios.card_markdown(martino.CARD))
    with st.expander("MAFALDA metric (Helwe et al. 2024)", expanded=False):
        st.markdown(scenarios.card_markdown(mafalda.CARD))
