"""The Learn page's exercise mode: a generated example, the student's guesses, the reveal.

The example, the values and the grading come from :mod:`core.teaching.exercises` (seeded generator,
grader naming the step of the Martino → MAFALDA ladder missed); this module lays them out. The
seed is bound to the URL (``?exercise=SEED``): a teacher shares the address and the class gets
the same exercises, in the same order when each student presses "New exercise".
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.model import NOTHING
from core.render import highlight
from core.teaching import exercises, scenarios
from ui import differences as diff
from ui import learn_tables as learn_ui
from ui.escape import md
from ui.widgets import download_buttons

PARAM = "exercise"
"""The query parameter that carries the seed."""
DEFAULT_SEED = 1
K_SEED = "exercise_seed"  # the seed number input (session; the URL holds ?exercise=)
K_GUESSES = "exercise_guesses"  # session: {seed: {(metric, "P"|"R"): text}} once checked
K_MEASURE = "exercise_measure"  # which score the ladder's waterfall shows after the reveal
MAX_SEED = 2**31 - 1


def seed_from_url() -> tuple[int | None, str | None]:
    """The seed of ``?exercise=`` (None when absent) and a notice when it is not a seed."""
    raw = st.query_params.get(PARAM)
    if raw is None:
        return None, None
    text = str(raw).strip()
    if text.isdigit() and len(text) <= 10 and int(text) <= MAX_SEED:
        return int(text), None
    return DEFAULT_SEED, (f"Ignored ?{PARAM}={md(text[:40])}: an exercise seed is a whole number "
                          f"from 0 to {MAX_SEED}; showing exercise {DEFAULT_SEED}.")


def _go(seed: int) -> None:
    st.session_state[K_SEED] = seed
    st.query_params[PARAM] = str(seed)


def _typed() -> None:
    st.query_params[PARAM] = str(int(st.session_state[K_SEED]))


def _next() -> None:
    _go(exercises.next_seed(int(st.session_state[K_SEED])))


@st.cache_data(max_entries=64, show_spinner=False)
def solve(seed: int) -> exercises.Solution:
    """:func:`core.teaching.exercises.solve` of the seed's exercise."""
    return exercises.solve(exercises.generate(seed))


def _span_rows(items: list[highlight.SpanItem], text: str) -> pd.DataFrame:
    return pd.DataFrame([{
        "span": it.id, "start": it.start, "end": it.end, "length": it.end - it.start,
        "label": " | ".join("⊥" if lab == NOTHING else lab for lab in it.labels),
        "text": text[it.start:it.end]} for it in items],
        columns=["span", "start", "end", "length", "label", "text"])


def render(seed: int) -> None:
    """The exercise of ``seed``: the example, the guess form, and after "Check" the reveal."""
    if st.session_state.get(K_SEED) != seed:
        st.session_state[K_SEED] = seed
    c1, c2 = st.columns([1, 2], vertical_alignment="bottom")
    c1.number_input("Exercise number", min_value=0, max_value=MAX_SEED, step=1, key=K_SEED,
                    on_change=_typed,
                    help="The random generator's seed: a teacher fixes it, and the same number "
                    "gives everyone the same exercise.")
    c2.button("➡️ New exercise", key="exercise_next", on_click=_next,
              help="The next seed: a class that starts on one seed sees the same sequence.")
    st.caption(f"Share this page's address (it ends in `?{PARAM}={seed}`): every student gets "
               "the same exercise, and **New exercise** takes everyone through the same "
               "sequence. Predict each score by hand first; the answers appear only after "
               "**Check my answers**.")

    sol = solve(seed)
    sc = sol.exercise.scenario
    gold_items = highlight.span_items(sc.gold_set(), scenarios.DOC, "G")
    pred_items = [highlight.SpanItem(f"P{i}", s.start, s.end, (s.label,))
                  for i, s in enumerate(sc.pred, 1)]
    colours = highlight.label_colours([*exercises.LABELS, NOTHING])
    used = {lab for it in gold_items + pred_items for lab in it.labels}
    st.subheader(f"📝 Exercise {seed}")
    st.html(highlight.legend(colours, used))
    st.markdown(f"**Gold** · {len(gold_items)} span(s)")
    st.html(highlight.render_lanes(sc.text, gold_items, colours, dom_id="exercise-gold"))
    st.markdown(f"**Predictions** · {len(pred_items)} span(s)")
    st.html(highlight.render_lanes(sc.text, pred_items, colours, dom_id="exercise-pred"))
    left, right = st.columns(2)
    left.dataframe(_span_rows(gold_items, sc.text), hide_index=True, key="exercise_gold",
                   placeholder="—")
    right.dataframe(_span_rows(pred_items, sc.text), hide_index=True, key="exercise_pred",
                    placeholder="—")
    notes = ["Offsets are `[start, end)`: the length is end − start."]
    if sc.alternatives:
        notes.append("A gold label `A | B` may be matched by either label (MAFALDA's "
                     "alternatives); `⊥` means the span may also be left unpredicted. Da San "
                     "Martino has no alternatives: it wants every label, and drops ⊥.")
    st.caption(" ".join(notes))

    keys: dict[tuple[str, str], str] = {}
    with st.container(border=True):
        st.markdown("**Your predictions** (0.375, 3/8 or 37.5%; a fraction must be exact, a "
                    f"decimal within ±{exercises.TOLERANCE})")
        for key, title in exercises.QUESTIONS:
            truth = sol.truths[key]
            st.markdown(f"**{md(title)}**")
            if truth.value("P") is None:
                st.caption(f"Refuses these predictions, nothing to predict: "
                           f"{md((truth.error or '').split(';')[0])}.")
                continue
            a, b = st.columns(2)
            for col, q, name, hint in ((a, "P", "precision P", "e.g. 3/8"),
                                       (b, "R", "recall R", "e.g. 0.375")):
                keys[(key, q)] = f"exercise_{q.lower()}::{seed}::{key}"
                col.text_input(name, key=keys[(key, q)], placeholder=hint)
        st.button("✅ Check my answers", key=f"exercise_check::{seed}", type="primary",
                  on_click=_check, args=(seed, keys))
    store: dict[int, dict[tuple[str, str], Any]] = st.session_state.get(K_GUESSES, {})
    if seed in store:
        _reveal(sol, store[seed])


def _check(seed: int, keys: dict[tuple[str, str], str]) -> None:
    """Keep the guesses as they were when "Check" was pressed (the reveal grades these)."""
    st.session_state.setdefault(K_GUESSES, {})[seed] = {
        k: st.session_state.get(key, "") for k, key in keys.items()}


def _reveal(sol: exercises.Solution, guesses: dict[tuple[str, str], Any]) -> None:
    grade = exercises.grade(guesses, sol.truths, sol.steps, unlabelled=sol.unlabelled)
    titles = dict(exercises.QUESTIONS)
    st.subheader("🔎 The answers")
    if grade.right == grade.asked:
        st.success(f"All {grade.asked} right.", icon="🎉")
    else:
        st.info(f"{grade.right} of {grade.asked} right. Each wrong answer says which step of the "
                "ladder below it missed.", icon="🪜")
    table = pd.DataFrame([{
        "metric": titles[c.metric], "score": c.quantity,
        "your answer": "" if c.guess is None else f"{c.guess:.4g}",
        "value": exercises.fraction_text(c.value) if c.value is not None else "refused",
        "sums": (sol.truths[c.metric].p_sum if c.quantity == "P"
                 else sol.truths[c.metric].r_sum) or "",
        "right": "—" if c.value is None else ("✅" if c.right else "❌"),
        "why": c.feedback} for c in grade.checks])
    st.dataframe(table, hide_index=True, key="exercise_grade", column_config={
        "why": st.column_config.TextColumn(width="large")}, placeholder="—")
    download_buttons(table, f"exercise_{sol.exercise.seed}", key="dl_exercise")
    wrong = [c for c in grade.checks if c.value is not None and not c.right]
    for c in wrong:
        st.markdown(f"- ❌ **{md(titles[c.metric])}, {c.quantity}**: {md(c.feedback)}")

    st.markdown("**The ladder: from Martino to MAFALDA, one rule at a time**")
    shown = st.radio("Score", ["R", "P", "F1"], key=K_MEASURE, horizontal=True)
    measure = diff.SHOWN_MEASURES[shown]
    st.plotly_chart(diff.waterfall(sol.steps, measure, title=f"{shown} of this exercise, one "
                                   "rule at a time (grey: the metrics)"),
                    key="exercise_waterfall", width="stretch")
    st.dataframe(diff.steps_table(sol.steps, measure), hide_index=True, key="exercise_steps",
                 column_config={shown: st.column_config.NumberColumn(format="%.4f"),
                                "change": st.column_config.NumberColumn(format="%+.4f")},
                 placeholder="—")

    st.markdown("**Where the Martino sums come from** (every overlapping pair, SemEval-2021)")
    ev = sol.evaluation
    sc = sol.exercise.scenario
    valid = list(enumerate(sc.pred, 1))
    gold_id = {it.interval: it.id for it in highlight.span_items(sc.gold_set(), scenarios.DOC,
                                                                  "G")}
    pairs = learn_ui.pairs_table(ev, sc, valid, gold_id)
    st.dataframe(pairs, hide_index=True, key="exercise_pairs", column_config={
        c: st.column_config.NumberColumn(format="%.4f") for c in ("C(s,t,|s|)", "C(s,t,|t|)")},
                 placeholder="—")
    st.markdown("**What the generator did:** " + "; ".join(md(m) for m in sol.exercise.moves)
                + ".")
