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
from ui.theme import theme_ink
from ui.widgets import download_buttons

PARAM = "exercise"
"""The query parameter that carries the seed."""
DEFAULT_SEED = 1
K_SEED = "exercise_seed"  # the seed number input (session; the URL holds ?exercise=)
K_GUESSES = "exercise_guesses"  # session: {seed: {(metric, "P"|"R"): text}} once checked
K_LONG = "exercise_long"  # the long-exercise toggle (the URL holds ?length=long)
LENGTH_PARAM = "length"
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
    """The spans as a small table whose label comes right after the id: on a phone the label
    (``ad hominem | ⊥``) must be read whole, the offsets and the text can wrap."""
    return pd.DataFrame([{
        "span": it.id, "label": " | ".join("⊥" if lab == NOTHING else lab for lab in it.labels),
        "start": it.start, "end": it.end, "length": it.end - it.start,
        "text": text[it.start:it.end]} for it in items],
        columns=["span", "label", "start", "end", "length", "text"])


def length_from_url() -> str:
    """``short`` unless the URL or the toggle asks for the long exercise (``?length=long``)."""
    return "long" if st.query_params.get(LENGTH_PARAM) == "long" else "short"


def _length_moved() -> None:
    if st.session_state[K_LONG]:
        st.query_params[LENGTH_PARAM] = "long"
    elif LENGTH_PARAM in st.query_params:
        del st.query_params[LENGTH_PARAM]


def render(seed: int) -> None:
    """The exercise of ``seed``: the example, the guess form, and after "Check" the reveal."""
    if st.session_state.get(K_SEED) != seed:
        st.session_state[K_SEED] = seed
    length = length_from_url()
    st.session_state[K_LONG] = length == "long"
    c1, c2, c3 = st.columns([1, 1, 1], vertical_alignment="bottom")
    c1.number_input("Exercise number", min_value=0, max_value=MAX_SEED, step=1, key=K_SEED,
                    on_change=_typed,
                    help="The random generator's seed: a teacher fixes it, and the same number "
                    "gives everyone the same exercise.")
    c2.button("➡️ New exercise", key="exercise_next", on_click=_next,
              help="The next seed: a class that starts on one seed sees the same sequence.")
    c3.toggle("Long exercise (8 answers)", key=K_LONG, on_change=_length_moved,
              help="Short (the default): precision and recall under SemEval-2021 and MAFALDA, "
              "4 answers. Long: also NLP4IF-2019 (-m) and SemEval-2020 span identification.")
    st.caption(f"Share this page's address (it ends in `?{PARAM}={seed}`): every student gets "
               "the same exercise, and **New exercise** takes everyone through the same "
               "sequence. Predict each score by hand first; the answers appear only after "
               "**Check my answers**. To see the whole class's answers live, **Start a class**.")

    sol = solve(seed)
    example(sol)
    with st.container(border=True, key="exercise_form"):
        keys = guess_inputs(sol, length, f"{seed}")
        st.button("✅ Check my answers", key=f"exercise_check::{seed}", type="primary",
                  on_click=_check, args=(seed, keys))
    store: dict[int, dict[tuple[str, str], Any]] = st.session_state.get(K_GUESSES, {})
    if seed in store:
        reveal(sol, store[seed], length)


def example(sol: exercises.Solution) -> None:
    """The exercise's text with its gold and predicted spans, as lanes and as tables."""
    sc = sol.exercise.scenario
    gold_items = highlight.span_items(sc.gold_set(), scenarios.DOC, "G")
    pred_items = [highlight.SpanItem(f"P{i}", s.start, s.end, (s.label,))
                  for i, s in enumerate(sc.pred, 1)]
    colours = highlight.label_colours([*exercises.LABELS, NOTHING])
    used = {lab for it in gold_items + pred_items for lab in it.labels}
    st.header(f"📝 Exercise {sol.exercise.seed}")
    st.html(highlight.legend(colours, used))
    st.markdown(f"**Gold** · {len(gold_items)} span(s)")
    st.html(highlight.render_lanes(sc.text, gold_items, colours, dom_id="exercise-gold"))
    st.markdown(f"**Predictions** · {len(pred_items)} span(s)")
    st.html(highlight.render_lanes(sc.text, pred_items, colours, dom_id="exercise-pred"))
    left, right = st.columns(2)
    # Static tables: their cells wrap, so a label is never cut (a data grid cuts it on a phone).
    with left.container(key="exercise_gold"):
        st.table(_span_rows(gold_items, sc.text).set_index("span"))
    with right.container(key="exercise_pred"):
        st.table(_span_rows(pred_items, sc.text).set_index("span"))
    notes = ["Offsets are `[start, end)`: the length is end − start."]
    if sc.alternatives:
        notes.append("A gold label `A | B` may be matched by either label (MAFALDA's "
                     "alternatives); `⊥` means the span may also be left unpredicted. Da San "
                     "Martino has no alternatives: it wants every label, and drops ⊥.")
    notes.append("The generator's labels and spans are drawn at random, so a label need not "
                 "fit its words: only the scores are graded.")
    st.caption(" ".join(notes))


def guess_inputs(sol: exercises.Solution, length: str, suffix: str,
                 prefix: str = "exercise") -> dict[tuple[str, str], str]:
    """One text input per question of an exercise of ``length``; returns their session keys
    (``{prefix}_{p|r}::{suffix}::{metric}``)."""
    keys: dict[tuple[str, str], str] = {}
    st.markdown("**Your predictions** (each as a decimal, a fraction or a percentage, e.g. "
                "0.375, 3/8 or 37.5%; a fraction must be exact, a decimal within "
                f"±{exercises.TOLERANCE})")
    for key, title in exercises.questions(length):
        truth = sol.truths[key]
        st.markdown(f"**{md(title)}**")
        if truth.value("P") is None:
            st.caption(f"Refuses these predictions, nothing to predict: "
                       f"{md((truth.error or '').split(';')[0])}.")
            continue
        a, b = st.columns(2)
        for col, q, name, hint in ((a, "P", "precision P", "e.g. 3/8"),
                                   (b, "R", "recall R", "e.g. 0.375")):
            keys[(key, q)] = f"{prefix}_{q.lower()}::{suffix}::{key}"
            col.text_input(name, key=keys[(key, q)], placeholder=hint)
    return keys


def _check(seed: int, keys: dict[tuple[str, str], str]) -> None:
    """Keep the guesses as they were when "Check" was pressed (the reveal grades these)."""
    st.session_state.setdefault(K_GUESSES, {})[seed] = {
        k: st.session_state.get(key, "") for k, key in keys.items()}


SHORT_NAMES: dict[str, str] = {"nlp4if2019 (-m)": "NLP4IF-2019 -m",
                               "semeval2020-si": "SemEval-2020 SI",
                               "semeval2021": "SemEval-2021", "mafalda": "MAFALDA"}
"""Each question's metric in a few characters, for the graded table's first column: with the
full titles a 390 px phone showed that column alone, the answers off screen."""


def answers_table(sol: exercises.Solution, grade: exercises.Grade) -> pd.DataFrame:
    """The graded guesses: each question's value, its sums and why a wrong answer is wrong;
    the metric's short name first, the answer, the mark and the value next (what a phone
    shows), its full title last."""
    titles = dict(exercises.QUESTIONS)
    return pd.DataFrame([{
        "metric": SHORT_NAMES.get(c.metric, c.metric), "score": c.quantity,
        "your answer": "" if c.guess is None else f"{c.guess:.4g}",
        "right": "—" if c.value is None else ("✅" if c.right else "❌"),
        "value": exercises.fraction_text(c.value) if c.value is not None else "refused",
        "sums": (sol.truths[c.metric].p_sum if c.quantity == "P"
                 else sol.truths[c.metric].r_sum) or "",
        "why": c.feedback, "metric, in full": titles[c.metric]} for c in grade.checks])


def reveal(sol: exercises.Solution, guesses: dict[tuple[str, str], Any] | None,
           length: str = "long", key: str = "exercise") -> None:
    """The answers: the guesses graded (when there are any), the ladder and the pair table."""
    grade = exercises.grade(guesses or {}, sol.truths, sol.steps, unlabelled=sol.unlabelled,
                            metrics=exercises.LENGTHS[length])
    titles = dict(exercises.QUESTIONS)
    st.header("🔎 The answers")
    if guesses is not None:
        if grade.right == grade.asked:
            st.success(f"All {grade.asked} right.", icon="🎉")
        else:
            st.info(f"{grade.right} of {grade.asked} right. Each wrong answer says which step of "
                    "the ladder below it missed.", icon="🪜")
    table = answers_table(sol, grade)
    if guesses is None:
        table = table.drop(columns=["your answer", "right", "why"])
    st.dataframe(table, hide_index=True, key=f"{key}_grade", column_config={
        "why": st.column_config.TextColumn(width="large")}, placeholder="—")
    download_buttons(table, f"exercise_{sol.exercise.seed}", key=f"dl_{key}")
    wrong = [c for c in grade.checks if c.value is not None and not c.right]
    for c in wrong if guesses is not None else []:
        st.markdown(f"- ❌ **{md(titles[c.metric])}, {c.quantity}**: {md(c.feedback)}")

    st.markdown("**The ladder: from Martino to MAFALDA, one rule at a time**")
    shown = st.radio("Score", ["R", "P", "F1"], key=f"{key}_measure", horizontal=True)
    measure = diff.SHOWN_MEASURES[shown]
    # The Metric differences page's chart, in a container of its key (a chart without a
    # selection gets no key class of its own; the tests find the ladder by it).
    with st.container(key=f"{key}_waterfall"):
        st.vega_lite_chart(diff.waterfall_spec(sol.steps, measure, title=f"{shown} of this "
                                               "exercise, one rule at a time (grey: the metrics)",
                                               ink=theme_ink()), width="stretch")
    st.dataframe(diff.steps_table(sol.steps, measure), hide_index=True, key=f"{key}_steps",
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
    st.dataframe(pairs, hide_index=True, key=f"{key}_pairs", column_config={
        c: st.column_config.NumberColumn(format="%.4f") for c in ("C(s,t,|s|)", "C(s,t,|t|)")},
                 placeholder="—")
    st.markdown("**What the generator did:** " + "; ".join(md(m) for m in sol.exercise.moves)
                + ".")
