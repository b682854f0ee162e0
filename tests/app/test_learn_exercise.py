"""Learn page, exercise mode (issue 16 item 6): ``?exercise=SEED`` opens the seed's generated
exercise; nothing is revealed before "Check my answers"; the reveal grades each guess with
core.teaching.exercises and draws the ladder; "New exercise" advances the seed in the URL; the
worked examples' picker shows titles and their ladder follows an edit."""

from __future__ import annotations

import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

from core.teaching import exercises, scenarios
from ui import differences as diff
from ui import exercise as exercise_ui
from ui import learn as learn_ui

PAGE = "pages/learn.py"


def _open(make_app, seed: str | None = "5", **params: str):
    at = make_app(PAGE, params=({} if seed is None else {exercise_ui.PARAM: seed}) | params)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _answer(at, seed: int, guesses: dict[tuple[str, str], str]):
    for (metric, q), text in guesses.items():
        key = f"exercise_{q.lower()}::{seed}::{metric}"
        at.text_input(key=key).input(text)
    at.button(key=f"exercise_check::{seed}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _pred_rows(at) -> list[tuple[int, int, str]]:
    """The predictions table the exercise shows (the second span table)."""
    tables = [t.value for t in at.table if "length" in t.value.columns]
    return [(r["start"], r["end"], r["label"])
            for r in tables[1].reset_index().to_dict("records")]


def _guess_keys(at) -> set[str]:
    """The keys of the exercise's answer inputs (the page also has the class-code input)."""
    return {t.key for t in at.text_input if t.key.startswith("exercise_")}


def _want_rows(seed: int) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.label) for s in exercises.generate(seed).scenario.pred]


def test_url_seed_opens_that_exercise_and_hides_the_answers(make_app) -> None:
    at = _open(make_app, "5")
    assert at.radio(key=learn_ui.K_MODE).value == learn_ui.MODES[1]
    assert at.number_input(key=exercise_ui.K_SEED).value == 5
    assert _pred_rows(at) == _want_rows(5)
    assert not [s for s in at.header if "answers" in s.value]
    assert not at.get("plotly_chart") and not at.get("vega_lite_chart")
    questions = [k for k, _ in exercises.questions("short")
                 if exercises.solve(exercises.generate(5)).truths[k].precision is not None]
    assert _guess_keys(at) == {f"exercise_{q}::5::{k}" for k in questions
                                              for q in ("p", "r")}


@pytest.mark.parametrize("seed", range(1, 21))
def test_short_exercise_asks_two_to_four_answers_by_default(make_app, seed: int) -> None:
    """Issue 27: an exercise asked for 8 answers; the default asks 2 to 4."""
    at = _open(make_app, str(seed))
    assert at.toggle(key=exercise_ui.K_LONG).value is False
    assert 2 <= len(_guess_keys(at)) <= 4


def test_long_exercise_asks_every_metric(make_app) -> None:
    at = _open(make_app, "5")
    at.toggle(key=exercise_ui.K_LONG).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params[exercise_ui.LENGTH_PARAM] in ("long", ["long"])
    questions = [k for k, _ in exercises.QUESTIONS
                 if exercises.solve(exercises.generate(5)).truths[k].precision is not None]
    assert len(questions) >= 3
    assert _guess_keys(at) == {f"exercise_{q}::5::{k}" for k in questions
                                              for q in ("p", "r")}
    again = _open(make_app, "5", length="long")  # the link keeps the length
    assert _guess_keys(again) == _guess_keys(at)


def test_check_grades_with_core_and_reveals_the_ladder(make_app, frame) -> None:
    seed = 2  # G1 with a wrong label, G2 predicted twice: SI refuses, 2021 and MAFALDA differ
    sol = exercises.solve(exercises.generate(seed))
    truth = sol.truths
    assert truth["semeval2020-si"].precision is None
    at = _open(make_app, str(seed))
    right_p = exercises.fraction_text(truth["semeval2021"].precision).split(" ")[0]
    wrong_r = f"{truth['semeval2021'].recall:.6f}"  # the 2021 value given for MAFALDA's recall
    at = _answer(at, seed, {("semeval2021", "P"): right_p, ("mafalda", "R"): wrong_r})
    table = frame(at, "metric", "score", "your answer", "value", "right", "why")
    want = exercises.grade({("semeval2021", "P"): right_p, ("mafalda", "R"): wrong_r}, truth,
                           sol.steps, unlabelled=sol.unlabelled,
                           metrics=exercises.LENGTHS["short"])
    assert list(table["why"]) == [c.feedback for c in want.checks]
    short = exercise_ui.SHORT_NAMES
    assert set(short) == {key for key, _ in exercises.QUESTIONS}  # every question named short
    full = frame(at, "metric", "metric, in full")
    assert dict(zip(full["metric"], full["metric, in full"], strict=True)) == {
        short[k]: t for k, t in exercises.QUESTIONS if short[k] in set(full["metric"])}
    row = table[(table["metric"] == short["semeval2021"]) & (table["score"] == "P")].iloc[0]
    assert row["right"] == "✅"
    row = table[(table["metric"] == short["mafalda"]) & (table["score"] == "R")].iloc[0]
    assert row["right"] == "❌" and row["why"] != "Right."
    assert at.info and f"{want.right} of {want.asked} right" in at.info[0].value
    # the ladder: the Metric differences page's Vega-Lite waterfall, of the solution's steps
    assert not at.get("plotly_chart")
    (ladder,) = at.get("vega_lite_chart")
    (data,) = [d for d in ladder.proto.datasets if d.name == diff.WATERFALL_DATA]
    drawn = convert_arrow_bytes_to_pandas_df(data.data.data)
    assert list(drawn["step"]) == list(diff.waterfall_rows(sol.steps, "recall")["step"])
    steps = frame(at, "step", "R", "change")
    assert list(steps["step"]) == [s.title for s in sol.steps]


def test_new_exercise_advances_the_seed_in_the_url(make_app) -> None:
    at = _open(make_app, "41")
    at.button(key="exercise_next").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params[exercise_ui.PARAM] in ("42", ["42"])
    assert at.number_input(key=exercise_ui.K_SEED).value == 42
    assert _pred_rows(at) == _want_rows(42)


def test_mode_radio_switches_and_bad_seed_is_named(make_app) -> None:
    at = _open(make_app, None)
    assert at.radio(key=learn_ui.K_MODE).value == learn_ui.MODES[0]
    at.radio(key=learn_ui.K_MODE).set_value(learn_ui.MODES[1]).run()
    default = str(exercise_ui.DEFAULT_SEED)
    assert at.query_params[exercise_ui.PARAM] in (default, [default])
    assert at.number_input(key=exercise_ui.K_SEED).value == exercise_ui.DEFAULT_SEED
    at.radio(key=learn_ui.K_MODE).set_value(learn_ui.MODES[0]).run()
    assert exercise_ui.PARAM not in at.query_params
    assert at.selectbox(key=learn_ui.K_SCENARIO).value == learn_ui.OPENING_SCENARIO
    bad = _open(make_app, "../etc")
    assert bad.warning and "exercise seed is a whole number" in bad.warning[0].value


def test_picker_shows_titles_and_the_ladder_follows_an_edit(make_app, frame) -> None:
    at = make_app(PAGE, params={learn_ui.K_SCENARIO: "duplicates"})
    box = at.selectbox(key=learn_ui.K_SCENARIO)
    assert scenarios.get("duplicates").title in box.proto.options
    assert "duplicates" not in box.proto.options
    steps = frame(at, "step", "R", "change")
    by = dict(zip(steps["step"], steps["R"], strict=True))
    assert by["Martino, SemEval-2021"] == pytest.approx(2.5)
    # delete one duplicate (row 0 of the editor): the 2021 recall falls to 1.5
    at.session_state["learn_editor::duplicates::0"] = {
        "edited_rows": {}, "added_rows": [], "deleted_rows": [0]}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    by = dict(zip(*(lambda d: (d["step"], d["R"]))(frame(at, "step", "R", "change")),
                  strict=True))
    assert by["Martino, SemEval-2021"] == pytest.approx(1.5)
    assert by["MAFALDA, level 2"] == pytest.approx(1.0)


def test_typing_a_seed_opens_that_exercise(make_app) -> None:
    at = _open(make_app, "3")
    at.number_input(key=exercise_ui.K_SEED).set_value(9).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params[exercise_ui.PARAM] in ("9", ["9"])
    assert _pred_rows(at) == _want_rows(9)


def test_the_answer_format_reads_as_an_example_not_as_a_value(make_app) -> None:
    """Tour 16: "Your predictions (0.375, 3/8 or 37.5%; ...)" above the boxes read like a
    value given for them; it is the three ways to write one."""
    at = _open(make_app, "3")
    (said,) = [m.value for m in at.markdown if m.value.startswith("**Your predictions**")]
    assert "a decimal, a fraction or a percentage, e.g. 0.375, 3/8 or 37.5%" in said
    assert f"a decimal within ±{exercises.TOLERANCE}" in said


def test_the_exercise_says_its_labels_are_drawn_at_random(make_app) -> None:
    """Tour 17: exercise 3 labels "starve if you vote" ad hominem and "truck yourself" appeal to
    fear; a class asks why. The page says the generator draws labels and spans at random and
    grades only the scores (core.teaching.exercises.SENTENCES)."""
    at = _open(make_app, "3")
    sc = exercise_ui.solve(3).exercise.scenario
    assert any(s.label == "ad hominem" and "starve" in sc.text[s.start:s.end] for s in sc.gold)
    (note,) = [c.value for c in at.caption if c.value.startswith("Offsets are")]
    assert "labels and spans are drawn at random" in note
    assert "only the scores are graded" in note
