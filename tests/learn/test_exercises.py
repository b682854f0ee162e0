"""Exercise mode (core.teaching.exercises): the generator is deterministic per seed and draws valid
spans; the grader accepts right answers and names the ladder step behind a wrong one, on
hand-worked cases (Figure 1, the duplicates case, MAFALDA Example 5)."""

from __future__ import annotations

import dataclasses

import pytest

from core.model import NOTHING
from core.teaching import exercises, scenarios
from core.teaching.exercises import Exercise, generate, grade, next_seed, parse_guess, solve

SEEDS = range(120)


def _solve(sid: str, **replace: object) -> exercises.Solution:
    sc = dataclasses.replace(scenarios.get(sid), **replace)  # type: ignore[arg-type]
    return solve(Exercise(0, sc, ()))


def _one(sol: exercises.Solution, metric: str, quantity: str, guess: str) -> exercises.Check:
    g = grade({(metric, quantity): guess}, sol.truths, sol.steps, unlabelled=sol.unlabelled)
    check = g.check(metric, quantity)
    assert check is not None
    return check


# ---- the generator -----------------------------------------------------------------------------


def test_generator_is_deterministic_per_seed() -> None:
    assert all(generate(s) == generate(s) for s in SEEDS)
    assert len({generate(s).scenario for s in SEEDS}) == len(SEEDS)


def test_generator_seed_0_is_stable_across_runs() -> None:
    """A class on another machine (another process) gets the same exercise for the same seed."""
    sc = generate(0).scenario
    assert sc.text.startswith("Real patriots never question the army")
    assert sc.gold[0].interval == (29, 37) and sc.gold[0].label == "hasty generalization"
    assert [(s.start, s.end) for s in sc.pred] == [(29, 37), (80, 108)]


@pytest.mark.parametrize("seed", SEEDS)
def test_generator_draws_valid_spans(seed: int) -> None:
    ex = generate(seed)
    sc = ex.scenario
    assert sc.pred and sc.gold and ex.moves
    for s in (*sc.gold, *sc.pred):
        assert 0 <= s.start < s.end <= len(sc.text)
        frag = sc.text[s.start:s.end]
        assert frag == frag.strip() and not frag.endswith(".")  # whole words
        assert s.label in (*exercises.LABELS, NOTHING)
    assert sc.alternatives == any(s.label == NOTHING or
                                  sum(t.interval == s.interval for t in sc.gold) > 1
                                  for s in sc.gold)
    assert NOTHING not in {s.label for s in sc.pred}
    assert not all(m.endswith("exactly") for m in ex.moves)


@pytest.mark.parametrize("seed", range(0, 120, 7))
def test_ladder_ends_are_the_metrics_the_learn_page_shows(seed: int) -> None:
    sol = solve(generate(seed))
    by_key = {s.key: s for s in sol.steps}
    for metric, step in exercises.LADDER_STEP.items():
        truth = sol.truths[metric]
        if truth.precision is None:
            continue
        assert by_key[step].value("precision") == pytest.approx(truth.precision)
        assert by_key[step].value("recall") == pytest.approx(truth.recall)
    assert sol.truths["mafalda"].precision is not None
    assert sol.truths["semeval2021"].precision is not None


def test_next_seed_advances_deterministically() -> None:
    assert next_seed(41) == 42 and next_seed(2**31 - 1) == 0


# ---- the grader --------------------------------------------------------------------------------


def test_parse_guess_reads_decimals_fractions_and_percentages() -> None:
    assert parse_guess("9/24") == (0.375, True, None)
    assert parse_guess(" 0,375 ")[0] == 0.375 and parse_guess(".375")[0] == 0.375
    assert parse_guess("37.5%")[0] == pytest.approx(0.375)
    assert parse_guess("") == (None, False, None)
    assert "not a number" in (parse_guess("abc")[2] or "")
    assert "zero" in (parse_guess("1/0")[2] or "")


def test_figure1_s1_right_answers_within_tolerance_or_exact_fraction() -> None:
    """Gold t1 of 24 characters, s1 overlaps 9 of them: P = 1, R = 9/24 = 0.375 (Eq. 2-3)."""
    sol = _solve("figure1-s1")
    assert _one(sol, "semeval2021", "R", "9/24").right
    assert _one(sol, "semeval2021", "R", "0.38").right       # rounded to 2 decimals
    assert not _one(sol, "semeval2021", "R", "0.36").right
    assert not _one(sol, "semeval2021", "R", "3/7").right    # a fraction must be exact
    assert _one(sol, "mafalda", "P", "1").right


def test_all_right_answers_grade_full_marks() -> None:
    sol = solve(generate(3))
    guesses = {(m, q): exercises.fraction_text(t.value(q)).split(" ")[0]
               for m, t in sol.truths.items() for q in ("P", "R") if t.value(q) is not None}
    g = grade(guesses, sol.truths, sol.steps, unlabelled=sol.unlabelled)
    assert g.right == g.asked == len(guesses)


def test_swapped_precision_and_recall_are_named() -> None:
    check = _one(_solve("figure1-s1"), "semeval2021", "P", "0.375")
    assert not check.right and "recall" in check.feedback and "|S|" in check.feedback


def test_mafalda_recall_from_summed_duplicates_misses_best_match() -> None:
    """Duplicates case: the 2021 scorer sums every pair, R = 2.5; MAFALDA's best match gives 1.
    Answering 2.5 for MAFALDA is the SemEval-2021 step: the missed rule is best match."""
    sol = _solve("duplicates")
    assert sol.truths["semeval2021"].recall == 2.5 and sol.truths["mafalda"].recall == 1.0
    check = _one(sol, "mafalda", "R", "2.5")
    assert not check.right
    assert "missed" in check.feedback and "'best match per span'" in check.feedback
    assert "Martino, SemEval-2021" in check.feedback


def test_martino_recall_with_best_match_is_a_rule_the_metric_does_not_take() -> None:
    """Split pieces (Figure 1 s3, s4, s5): the 2021 sum gives 7/24; best match keeps one piece."""
    sol = _solve("figure1-s3s4s5")
    steps = {s.key: s.value("recall") for s in sol.steps}
    assert sol.truths["semeval2021"].recall == pytest.approx(7 / 24)
    best = steps["match"]
    assert best is not None and best != pytest.approx(7 / 24)
    check = _one(sol, "semeval2021", "R", f"{best:.6f}")
    assert not check.right and "does not take" in check.feedback
    assert "'best match per span'" in check.feedback


def test_martino_value_for_mafalda_on_example5_misses_the_alternatives() -> None:
    """MAFALDA Example 5 without the Sentence5 prediction: Martino's R is 3/5 (it needs fear
    *and* anger and the optional span), MAFALDA's 1 (alternative T4)."""
    sol = _solve("mafalda-example5", pred=scenarios.get("mafalda-example5").pred[:3])
    assert sol.truths["semeval2021"].recall == pytest.approx(3 / 5)
    check = _one(sol, "mafalda", "R", "3/5")
    assert not check.right and "'gold alternatives and ⊥'" in check.feedback


def test_forgotten_delta_is_named() -> None:
    """Figure 1 s2 overlaps t1 by 11 characters with another label: R = 0, but 11/24 without δ."""
    sol = _solve("figure1-s2")
    check = _one(sol, "semeval2021", "R", "11/24")
    assert not check.right and "labels ignored" in check.feedback and "δ" in check.feedback
    si = _one(sol, "semeval2020-si", "R", "0")
    assert not si.right and "ignores labels" in si.feedback


def test_refused_metric_asks_nothing_and_unknown_value_shows_the_sums() -> None:
    sol = _solve("duplicates")
    g = grade({("semeval2021", "P"): "0.9"}, sol.truths, sol.steps, unlabelled=sol.unlabelled)
    refused = g.check("semeval2020-si", "R")
    assert refused is not None and refused.value is None and "refuses" in refused.feedback
    assert g.asked == 6
    wrong = g.check("semeval2021", "P")
    assert wrong is not None and "No step of the ladder" in wrong.feedback
    assert "P = 3 / 3" in wrong.feedback
    assert g.check("mafalda", "P").feedback == "No answer."  # type: ignore[union-attr]


def test_fraction_text_shows_the_exact_fraction() -> None:
    assert exercises.fraction_text(7 / 24) == "0.2917 (7/24)"
    assert exercises.fraction_text(1.0) == "1"
    assert exercises.fraction_text(None) == "—"


def test_a_guess_that_is_two_mistakes_names_both() -> None:
    """Exercise 2: MAFALDA's P and the SemEval-2021 R are both 2/3; MAFALDA's R is 1/2. Answering
    2/3 for MAFALDA's R is P and R swapped, or the 2021 sum without best match and alternatives."""
    sol = solve(generate(2))
    assert sol.truths["mafalda"].precision == pytest.approx(2 / 3)
    assert sol.truths["mafalda"].recall == pytest.approx(1 / 2)
    check = _one(sol, "mafalda", "R", "2/3")
    assert check.feedback.startswith("This is the metric's precision")
    assert "Or perhaps: this is the value at the ladder step 'Martino, SemEval-2021'" in \
        check.feedback
    assert "'best match per span'" in check.feedback
    assert "'gold alternatives and ⊥'" in check.feedback


@pytest.mark.parametrize("seed", range(0, 120, 5))
def test_shown_sums_add_up_to_every_value(seed: int) -> None:
    """The "sums" the reveal shows (Σ C / count, the sum as an exact fraction) give the value,
    MAFALDA's from its explanation rows included."""
    from fractions import Fraction

    sol = solve(generate(seed))
    for metric, truth in sol.truths.items():
        for q, text in (("P", truth.p_sum), ("R", truth.r_sum)):
            if truth.value(q) is None:
                continue
            assert text, (metric, q)
            num, den = text.rsplit(" / ", 1)
            value = Fraction(num.strip("()")) / int(den)
            assert float(value) == pytest.approx(truth.value(q)), (metric, q, text)


@pytest.mark.parametrize("seed", range(0, 120, 3))
def test_every_other_ladder_value_is_named_as_its_step(seed: int) -> None:
    """For each metric on the ladder, answering the value of another step (one that differs from
    the metric's own value and from the other quantity) names that step in the feedback."""
    sol = solve(generate(seed))
    for metric, own in exercises.LADDER_STEP.items():
        truth = sol.truths[metric]
        if truth.precision is None:
            continue
        j = [s.key for s in sol.steps].index(own)
        for q, attr in (("P", "precision"), ("R", "recall")):
            mine, other = truth.value(q), truth.value("R" if q == "P" else "P")
            for i, step in enumerate(sol.steps):
                v = step.value(attr)
                if v is None or abs(v - mine) <= 0.006 or abs(v - other) <= 0.006:
                    continue
                nearer = [k for k, s in enumerate(sol.steps)
                          if abs(k - j) < abs(i - j) and abs(s.value(attr) - v) <= 0.006]
                check = _one(sol, metric, q, f"{v:.6f}")
                assert not check.right
                named = sol.steps[min(nearer, key=lambda k: abs(k - j))] if nearer else step
                assert f"ladder step '{named.title}'" in check.feedback, (metric, q, i)


@pytest.mark.parametrize("typed", ["inf/1", "nan/2", "1e400/3", "-inf/4", "inf%", "nan%"])
def test_a_fraction_that_is_not_a_finite_number_is_refused_like_a_decimal_one(typed: str) -> None:
    """``inf`` and ``nan`` typed as decimals were refused, but as fractions they were accepted:
    the class's tally then listed "inf ×1" among the answers given, and ``nan`` (unequal to
    itself) counted as a new value every time."""
    value, _, problem = exercises.parse_guess(typed)
    assert value is None and problem == f"{typed!r} is not a number: write 0.375, 3/8 or 37.5%"
