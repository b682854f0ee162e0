"""Generated span-metric exercises for a class, and a grader that names the step a student missed.

:func:`generate` makes a small example from a seed (``random.Random(seed)`` and nothing else, so
one seed gives every student the same exercise): a short text, gold spans (sometimes with an
alternative label or ⊥, MAFALDA's Definition 6) and predictions derived from them by the moves
that make the metrics disagree (a shifted boundary, a wrong label, a duplicate, a span split in
two, a miss, a spurious span). The student predicts precision and recall under each metric the
Learn page shows (:data:`QUESTIONS`: the Da San Martino scorers of NLP4IF-2019 with ``-m``,
SemEval-2020 span identification and SemEval-2021 Task 6, and MAFALDA); :func:`grade` compares
each guess with the value :mod:`core.metrics` computes (within a tolerance, or exactly when the
guess is a fraction) and, for a wrong guess, finds the step of the Martino → MAFALDA ladder
(:func:`core.metrics.differences.metric_path`) whose value the guess equals, so the feedback can
say which rule was missed ("your recall is the SemEval-2021 value: MAFALDA keeps only the best
match of each gold span").

Every number comes from :func:`core.teaching.scenarios.evaluate` and
:func:`core.teaching.scenarios.ladder` (the
metrics' own code); this module only draws examples and compares numbers.

Citation: G. Da San Martino et al., EMNLP-IJCNLP 2019, Eq. 1-4; C. Helwe et al., MAFALDA,
NAACL 2024, §5.2 and App. D (``docs/martino.md``, ``docs/mafalda.md``).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.metrics.differences import Step
from core.model import NOTHING, Span
from core.teaching import scenarios

SENTENCES: tuple[str, ...] = (
    "Only a fool would trust the mayor with our money.",
    "If we allow one new tax, soon every purchase will be taxed twice.",
    "Everyone in my street agrees, so the plan must be right.",
    "My neighbour got sick after the vaccine, so vaccines are dangerous.",
    "Either we close the border today or the country is lost forever.",
    "Our grandparents never needed phones, and they were happy.",
    "The senator lies about everything, so ignore her report on water.",
    "Think of the poor children who will starve if you vote no.",
    "A famous actor says the diet works, so it must work.",
    "You criticise my car, yet you drive an old truck yourself.",
    "They want to ban sweets at school; next they will ban birthdays.",
    "The crime rate rose after the new park opened, so the park caused it.",
    "Real patriots never question the army, and you are questioning it.",
    "This remedy is natural, so it cannot do you any harm.",
    "Two tourists were rude to me, so all tourists are rude.",
    "Ask yourself who profits from the scandal before you believe it.",
)
"""Short texts of our own writing, each with a fallacy in it (the labels are not graded, only
the scores: the gold is whatever the generator draws)."""

LABELS: tuple[str, ...] = ("ad hominem", "slippery slope", "hasty generalization",
                           "appeal to fear", "false dilemma")
"""MAFALDA fallacies (level 2) the generator labels spans with."""

QUESTIONS: tuple[tuple[str, str], ...] = (
    ("nlp4if2019 (-m)", "Da San Martino, NLP4IF-2019 (-m: overlapping same-label spans merged)"),
    ("semeval2020-si", "Da San Martino, SemEval-2020 span identification (labels ignored)"),
    ("semeval2021", "Da San Martino, SemEval-2021 Task 6 (every pair summed)"),
    ("mafalda", "MAFALDA (best match, alternatives and ⊥)"),
)
"""(key, title) of each metric a student predicts P and R for: the keys are the run names of
:data:`core.teaching.scenarios.MARTINO_RUNS` and ``mafalda``, as the Learn page shows them."""

LADDER_STEP: dict[str, str] = {"nlp4if2019 (-m)": "merged", "semeval2021": "martino",
                               "mafalda": "mafalda"}
"""The step of :func:`core.metrics.differences.metric_path` each metric is (span
identification ignores labels, so it is off the ladder)."""

LENGTHS: dict[str, tuple[str, ...]] = {
    "short": ("semeval2021", "mafalda"),
    "long": tuple(key for key, _ in QUESTIONS),
}
"""Which metrics an exercise asks about: ``short`` (the default) asks P and R of the SemEval-2021
scorer and of MAFALDA, the two ends of the rules that make them differ (4 answers, fewer when a
scorer refuses); ``long`` asks all four metrics of :data:`QUESTIONS` (8 answers)."""


def questions(length: str = "short") -> tuple[tuple[str, str], ...]:
    """The (key, title) of :data:`QUESTIONS` an exercise of ``length`` asks.

    >>> [k for k, _ in questions("short")], len(questions("long"))
    (['semeval2021', 'mafalda'], 4)
    """
    if length not in LENGTHS:
        raise ValueError(f"The 'length' parameter of questions must be one of {set(LENGTHS)}. "
                         f"Got {length!r} instead.")
    return tuple(q for q in QUESTIONS if q[0] in LENGTHS[length])


TOLERANCE = 0.005
"""How far a decimal guess may be from the value (the page shows values to 4 decimals; a student
rounding to 2 decimals is right)."""

QUANTITIES = ("P", "R")
_ATTR = {"P": "precision", "R": "recall"}


@dataclass(frozen=True)
class Exercise:
    """One generated exercise: the scenario (text, gold, predictions) and what the generator
    did to make each prediction (``moves``, shown after the reveal)."""

    seed: int
    scenario: scenarios.Scenario
    moves: tuple[str, ...]


# ---- the generator ---------------------------------------------------------------------------


def _words(text: str, offset: int) -> list[tuple[int, int]]:
    """The [start, end) offsets of the words of ``text`` (a final full stop left out)."""
    return [(offset + m.start(), offset + m.end()) for m in re.finditer(r"[^\s.,;]+", text)]


def _fragment(words: Sequence[tuple[int, int]], i: int, j: int) -> tuple[int, int]:
    """The characters from word ``i`` to word ``j - 1``."""
    return words[i][0], words[j - 1][1]


def generate(seed: int) -> Exercise:
    """The exercise of ``seed``: the same seed gives the same exercise on every machine.

    Two sentences of :data:`SENTENCES`; one gold span (of 2 to 5 words) in each sentence, or two
    in one; each gold span may get a second label (an alternative) or ⊥ (optional). Every gold
    span is then predicted by one move: exact, shifted boundary, wrong label, predicted twice,
    split in two, or missed; sometimes a spurious span is added. At least one prediction is
    made, and spans start and end on words.

    >>> ex = generate(7)
    >>> ex == generate(7), ex.scenario.text == generate(8).scenario.text
    (True, False)
    >>> all(0 <= s.start < s.end <= len(ex.scenario.text) for s in ex.scenario.pred)
    True
    """
    rng = random.Random(seed)
    first, second = rng.sample(range(len(SENTENCES)), 2)
    text = SENTENCES[first] + " " + SENTENCES[second]
    sentence_words = [_words(SENTENCES[first], 0),
                      _words(SENTENCES[second], len(SENTENCES[first]) + 1)]
    ranges = _gold_ranges(rng, sentence_words)
    gold, extra = _gold(rng, sentence_words, ranges)
    pred, moves = _predictions(rng, sentence_words, ranges, gold, extra)
    spurious = _spurious(rng, sentence_words, ranges, force=not pred)
    if spurious is not None:
        pred.append(spurious)
        moves.append("a spurious span where the gold has none")
    if not pred:  # only possible without a free place for a spurious span
        pred.append(gold[0])
        moves.append("G1 predicted exactly")
    gold_spans = [*gold, *(Span(gold[g].start, gold[g].end, lab) for g, lab in extra.items())]
    scenario = scenarios.Scenario(
        id=f"exercise-{seed}", title=f"Exercise {seed}", text=text, gold=tuple(gold_spans),
        pred=tuple(sorted(pred)), look_at="", source=f"generated from seed {seed}",
        expected=(), level=2, alternatives=bool(extra), label_set="mafalda")
    return Exercise(seed, scenario, tuple(moves))


def _gold_ranges(rng: random.Random, sentence_words: Sequence[Sequence[tuple[int, int]]]
                 ) -> list[tuple[int, int, int]]:
    """The gold spans as (sentence, first word, end word): one span per sentence, or two spans
    in the first (then none in the second)."""
    ranges: list[tuple[int, int, int]] = []
    n0 = len(sentence_words[0])
    if rng.random() < 0.25 and n0 >= 6:
        cut = rng.randint(2, n0 - 2)
        for lo, hi in ((0, cut), (cut, n0)):
            length = rng.randint(2, min(4, hi - lo))
            start = rng.randint(lo, hi - length)
            ranges.append((0, start, start + length))
    else:
        for k, words in enumerate(sentence_words):
            n = len(words)
            length = rng.randint(2, min(5, n - 1))
            start = rng.randint(0, n - length)
            ranges.append((k, start, start + length))
    return ranges


def _gold(rng: random.Random, sentence_words: Sequence[Sequence[tuple[int, int]]],
          ranges: Sequence[tuple[int, int, int]]) -> tuple[list[Span], dict[int, str]]:
    """The gold spans of ``ranges``, each with its own label, and the second label or ⊥ some
    of them get (gold index -> label)."""
    labels = rng.sample(LABELS, len(ranges))
    gold: list[Span] = []
    extra: dict[int, str] = {}
    for g, ((k, i, j), label) in enumerate(zip(ranges, labels, strict=True)):
        a, b = _fragment(sentence_words[k], i, j)
        gold.append(Span(a, b, label))
        roll = rng.random()
        if roll < 0.2:
            extra[g] = rng.choice([x for x in LABELS if x != label])
        elif roll < 0.4:
            extra[g] = NOTHING
    return gold, extra


def _predictions(rng: random.Random, sentence_words: Sequence[Sequence[tuple[int, int]]],
                 ranges: Sequence[tuple[int, int, int]], gold: Sequence[Span],
                 extra: Mapping[int, str]) -> tuple[list[Span], list[str]]:
    """The predictions of the gold spans, one drawn move each, and what each move did."""
    pred: list[Span] = []
    moves: list[str] = []
    for g, (k, i, j) in enumerate(ranges):
        other = extra.get(g)
        weights = {"exact": 3, "shift": 3, "label": 2, "twice": 1, "split": 2 if j - i >= 3 else 0,
                   "miss": 3 if other == NOTHING else 1,
                   "alternative": 3 if other is not None and other != NOTHING else 0}
        if g == len(ranges) - 1 and all(m.endswith("exactly") for m in moves):
            weights["exact"] = 0  # every exercise has something to think about
        move = rng.choices(list(weights), weights=list(weights.values()))[0]
        spans, did = _move(rng, move, sentence_words[k], gold[g], i, j, other)
        pred.extend(spans)
        moves.append(f"G{g + 1} {did}")
    return pred, moves


def _move(rng: random.Random, move: str, words: Sequence[tuple[int, int]], span: Span,
          i: int, j: int, other: str | None) -> tuple[list[Span], str]:
    """The predictions one move makes of the gold ``span`` (words ``i`` to ``j - 1``, second
    label or ⊥ ``other``), and what it did."""
    if move == "exact":
        return [span], "predicted exactly"
    if move == "alternative":
        return [Span(span.start, span.end, str(other))], \
            f"predicted with its alternative label {other!r}"
    if move == "shift":
        ni = max(0, i + rng.choice([-1, 1]))
        nj = min(len(words), max(ni + 1, j + rng.choice([-1, 0, 1])))
        a, b = _fragment(words, ni, nj)
        if (a, b) == span.interval:
            a, b = _fragment(words, i, j - 1 if j - i >= 2 else j)
        return [Span(a, b, span.label)], "predicted with other boundaries"
    if move == "label":
        wrong = [x for x in LABELS if x not in (span.label, other)]
        return [Span(span.start, span.end, rng.choice(wrong))], "predicted with a wrong label"
    if move == "twice":
        return [span, span], "predicted twice (a duplicate)"
    if move == "split":
        cut = rng.randint(i + 1, j - 1)
        return [Span(*_fragment(words, i, cut), span.label),
                Span(*_fragment(words, cut, j), span.label)], "predicted in two pieces"
    return [], "missed" + (" (it is optional: ⊥)" if other == NOTHING else "")


def _spurious(rng: random.Random, sentence_words: Sequence[Sequence[tuple[int, int]]],
              ranges: Sequence[tuple[int, int, int]], *, force: bool) -> Span | None:
    """Sometimes (always when ``force``) a spurious span of two words, a word away from every
    gold span, so that it overlaps no prediction either (a shifted boundary moves by one
    word); None when none is drawn or there is no room."""
    taken = {w for (k, i, j) in ranges for w in ((k, x) for x in range(i, j))}
    free = [(k, x) for k, words in enumerate(sentence_words) for x in range(len(words) - 1)
            if not any((k, y) in taken for y in range(x - 1, x + 3))]
    if free and (force or rng.random() < 0.3):
        k, x = rng.choice(free)
        return Span(*_fragment(sentence_words[k], x, x + 2), rng.choice(LABELS))
    return None


def next_seed(seed: int) -> int:
    """The seed of the exercise after ``seed`` (a class that starts on one seed and presses "new
    exercise" sees the same sequence)."""
    return (seed + 1) % 2**31


# ---- the answers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Truth:
    """The value of one metric on an exercise: P and R with their sums (``p_num`` / ``p_den``),
    or the reason the scorer refuses the input (``error``)."""

    metric: str
    precision: float | None
    recall: float | None
    p_sum: str = ""
    r_sum: str = ""
    error: str | None = None

    def value(self, quantity: str) -> float | None:
        return self.precision if quantity == "P" else self.recall


def exact(value: float | None) -> Fraction | None:
    """``value`` as the fraction it is (sums of |s∩t|/|h| over small integers), else None.

    >>> exact(7 / 24), exact(0.1234567891)
    (Fraction(7, 24), None)
    """
    if value is None or not math.isfinite(value):
        return None
    frac = Fraction(value).limit_denominator(100_000)
    return frac if abs(float(frac) - value) < 1e-12 else None


def fraction_text(value: float | None) -> str:
    """The value to 4 decimals and as an exact fraction when it has one: ``0.2917 (7/24)``."""
    if value is None:
        return "—"
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    frac = exact(value)
    return f"{text} ({frac})" if frac is not None and frac.denominator != 1 else text


def _sum_text(num: float, den: int) -> str:
    """``Σ C / count`` with the sum as its fraction: ``(22/17) / 2``."""
    frac = exact(num)
    shown = str(frac) if frac is not None else f"{num:.4f}"
    return f"({shown}) / {den}" if "/" in shown else f"{shown} / {den}"


def _mafalda_sums(ev: scenarios.Evaluation) -> tuple[str, str]:
    """MAFALDA's P and R of one text as sums of its explanation's rows (each counted prediction's
    best C(s,t,|s|), each counted gold span's best C(s,t,|t|)), where they add up to the score
    (empty sides follow MAFALDA's own conventions: no sum shown)."""
    if ev.explain is None or ev.mafalda is None:
        return "", ""
    preds = [r.contribution_p for r in ev.explain.predictions if r.counted]
    golds = [r.contribution_r for r in ev.explain.gold if r.counted]
    out = []
    for values, total in ((preds, ev.mafalda.precision), (golds, ev.mafalda.recall)):
        ok = values and abs(sum(values) / len(values) - total) < 1e-9
        out.append(_sum_text(sum(values), len(values)) if ok else "")
    return out[0], out[1]


def answers(ev: scenarios.Evaluation) -> dict[str, Truth]:
    """The value of each metric of :data:`QUESTIONS` for an evaluation."""
    out: dict[str, Truth] = {}
    for key, _ in QUESTIONS:
        if key == "mafalda":
            m = ev.mafalda
            out[key] = Truth(key, None if m is None else m.precision,
                             None if m is None else m.recall, *_mafalda_sums(ev),
                             error=ev.mafalda_error)
            continue
        run = ev.run(key)
        res = None if run is None else run.result
        if res is None:
            out[key] = Truth(key, None, None, error=run.error if run else "not run")
        else:
            out[key] = Truth(key, res.precision, res.recall, _sum_text(res.p_num, res.p_den),
                             _sum_text(res.r_num, res.r_den))
    return out


# ---- the grader ------------------------------------------------------------------------------


def parse_guess(text: str | float | None) -> tuple[float | None, bool, str | None]:
    """A student's guess as (value, typed as a fraction, problem): ``0.375``, ``.375``,
    ``0,375``, ``3/8``, ``37.5%``; an empty guess is (None, False, None).

    >>> parse_guess("3/8"), parse_guess("0,5"), parse_guess("40%")[0]
    ((0.375, True, None), (0.5, False, None), 0.4)
    >>> parse_guess("abc")[2]
    "'abc' is not a number: write 0.375, 3/8 or 37.5%"
    """
    if text is None:
        return None, False, None
    if isinstance(text, int | float):
        return float(text), False, None
    raw = text.strip().replace(",", ".").replace(" ", "")
    if not raw:
        return None, False, None
    problem = f"{text.strip()!r} is not a number: write 0.375, 3/8 or 37.5%"
    as_fraction = "/" in raw
    try:
        if as_fraction:
            num, den = raw.split("/", 1)
            if float(den) == 0:
                return None, False, f"{text.strip()!r} divides by zero"
            value = float(num) / float(den)
        elif raw.endswith("%"):
            value = float(raw[:-1]) / 100
        else:
            value = float(raw)
    except ValueError:
        return None, False, problem
    if not math.isfinite(value):  # "inf/1", "nan%", "1e400": one check for every form
        return None, False, problem
    return value, as_fraction, None


def close(guess: float, value: float, *, as_fraction: bool = False,
          tolerance: float = TOLERANCE) -> bool:
    """Whether a guess is right: within ``tolerance``, or equal when typed as a fraction."""
    if as_fraction:
        return abs(guess - value) < 1e-9
    return abs(guess - value) <= tolerance + 1e-12


@dataclass(frozen=True)
class Check:
    """One graded guess: the metric, P or R, the guess, the value, whether it is right, and the
    feedback (the step of the ladder missed) for a wrong one."""

    metric: str
    quantity: str
    guess: float | None
    value: float | None
    right: bool
    feedback: str
    problem: str | None = None


@dataclass(frozen=True)
class Grade:
    """Every guess graded; ``right`` of ``asked`` correct."""

    checks: tuple[Check, ...]

    @property
    def asked(self) -> int:
        return sum(1 for c in self.checks if c.value is not None)

    @property
    def right(self) -> int:
        return sum(1 for c in self.checks if c.right)

    def check(self, metric: str, quantity: str) -> Check | None:
        for c in self.checks:
            if (c.metric, c.quantity) == (metric, quantity):
                return c
        return None


def _changes(steps: Sequence[Step], lo: int, hi: int, quantity: str) -> list[Step]:
    """The rule steps strictly after ``lo`` up to ``hi`` that change the value of ``quantity``."""
    out, before = [], steps[lo].value(_ATTR[quantity])
    for s in steps[lo + 1:hi + 1]:
        value = s.value(_ATTR[quantity])
        if value is None:
            continue
        if not s.official and before is not None and abs(value - before) > 1e-12:
            out.append(s)
        before = value
    return out


def diagnose(metric: str, quantity: str, guess: float, truths: Mapping[str, Truth],
             steps: Sequence[Step], *, as_fraction: bool = False,
             unlabelled: float | None = None) -> str:
    """Why a wrong ``guess`` of ``quantity`` (P or R) under ``metric`` is wrong, in words.

    In order: the guess is the other quantity (P and R swapped); it is the value of another step
    of the ladder ``steps`` (:func:`core.metrics.differences.metric_path`): the rules between that
    step and the metric's own are the ones missed (or applied without reason); it is the value of
    another metric of ``truths``; ``unlabelled`` (the SemEval-2021 value with labels ignored) for
    a labelled metric: δ forgotten; else the sums to recompute.
    """
    truth = truths[metric]
    value = truth.value(quantity)
    other = "R" if quantity == "P" else "P"

    def is_close(v: float | None) -> bool:
        return v is not None and close(guess, v, as_fraction=as_fraction)

    reasons: list[str] = []
    if is_close(truth.value(other)) and not is_close(value):
        reasons.append("This is the metric's " + ("recall" if other == "R" else "precision")
                       + ": precision divides by the predicted spans |S|, recall by the gold "
                       "spans |T|.")
    ladder = _ladder_reason(metric, quantity, steps, is_close)
    if ladder:
        reasons.append(ladder)
    if not ladder and metric == "semeval2020-si" and is_close(
            truths["semeval2021"].value(quantity)):
        reasons.append("This is the SemEval-2021 value, which compares labels (δ): span "
                       "identification ignores labels, so any overlap counts.")
    if not ladder and metric != "semeval2020-si" and unlabelled is not None and is_close(
            unlabelled):
        reasons.append("This is the value with labels ignored: a pair whose labels differ has "
                       "δ = 0 and earns nothing.")
    if not reasons:
        for key, title in QUESTIONS:
            if key != metric and is_close(truths[key].value(quantity)):
                reasons.append(f"This is the value of another metric: {title}.")
                break
    if reasons:
        # A guess can be two mistakes at once (P and R swapped, and a ladder step's value):
        # both are named, the swap first.
        return " Or perhaps: ".join([reasons[0], *(r[0].lower() + r[1:] for r in reasons[1:])])
    sums = truth.p_sum if quantity == "P" else truth.r_sum
    how = (f" The sums: {quantity} = {sums}." if sums else "")
    return ("No step of the ladder gives this value: recompute C(s,t,h) = |s∩t|/|h|·δ for the "
            "pairs." + how)


def _ladder_reason(metric: str, quantity: str, steps: Sequence[Step],
                   is_close: Callable[[float | None], bool]) -> str:
    """The ladder step whose value the guess is, nearest the metric's own step, and the rules
    between them (missed, or applied without reason); "" when no other step has that value."""
    keys = [s.key for s in steps]
    target = LADDER_STEP.get(metric)
    if target not in keys:
        return ""
    j = keys.index(target)
    mine = steps[j].value(_ATTR[quantity])
    matching = [i for i, s in enumerate(steps)
                if i != j and is_close(s.value(_ATTR[quantity])) and not is_close(mine)]
    if not matching:
        return ""
    i = min(matching, key=lambda k: (abs(k - j), k))
    lo, hi = min(i, j), max(i, j)
    rules = _changes(steps, lo, hi, quantity)
    where = steps[i].title
    if not rules:
        return f"This is the value at the ladder step '{where}'."
    named = "; ".join(f"'{s.title}' ({s.explanation})" for s in rules)
    if i < j:
        return (f"This is the value at the ladder step '{where}': the step(s) you missed on the "
                f"way to this metric: {named}")
    return (f"This is the value at the ladder step '{where}': you applied step(s) this metric "
            f"does not take: {named}")


def grade(guesses: Mapping[tuple[str, str], str | float | None], truths: Mapping[str, Truth],
          steps: Sequence[Step], *, unlabelled: Mapping[str, float | None] | None = None,
          tolerance: float = TOLERANCE, metrics: Sequence[str] | None = None) -> Grade:
    """Grade the guesses ``{(metric, "P" | "R"): text}`` against ``truths`` (:func:`answers`).

    A metric that refuses the input asks nothing; an empty guess is wrong with the feedback
    "no answer"; a guess that is not a number says why. ``unlabelled`` gives, per quantity, the
    SemEval-2021 value with every label the same (to recognise a forgotten δ). ``metrics``
    limits the questions to those keys (:data:`LENGTHS`; default: all of :data:`QUESTIONS`).
    """
    checks = []
    for key, _ in QUESTIONS:
        if metrics is not None and key not in metrics:
            continue
        truth = truths[key]
        for q in QUANTITIES:
            value = truth.value(q)
            guess, as_fraction, problem = parse_guess(guesses.get((key, q)))
            if value is None:
                checks.append(Check(key, q, guess, None, False,
                                    f"This scorer refuses the input: {truth.error}"))
                continue
            if guess is None:
                checks.append(Check(key, q, None, value, False, problem or "No answer.",
                                    problem))
                continue
            if close(guess, value, as_fraction=as_fraction, tolerance=tolerance):
                checks.append(Check(key, q, guess, value, True, "Right."))
                continue
            checks.append(Check(key, q, guess, value, False, diagnose(
                key, q, guess, truths, steps, as_fraction=as_fraction,
                unlabelled=(unlabelled or {}).get(q))))
    return Grade(tuple(checks))


@dataclass(frozen=True)
class Solution:
    """Everything the reveal shows: the evaluation, the truths, the ladder and the value with
    labels ignored."""

    exercise: Exercise
    evaluation: scenarios.Evaluation
    truths: dict[str, Truth]
    steps: list[Step]
    unlabelled: dict[str, float | None]


def solve(exercise: Exercise) -> Solution:
    """Score an exercise under every metric, with its ladder (all from :mod:`core.metrics`)."""
    sc = exercise.scenario
    ev = scenarios.evaluate(sc)
    one = "ad hominem"
    flat = scenarios.Scenario(
        id=sc.id + "-unlabelled", title=sc.title, text=sc.text,
        gold=tuple(Span(s.start, s.end, one if s.label != NOTHING else NOTHING) for s in sc.gold),
        pred=tuple(Span(s.start, s.end, one) for s in sc.pred), look_at="", source=sc.source,
        expected=(), level=2, alternatives=sc.alternatives, label_set="mafalda")
    run = scenarios.evaluate(flat).run("semeval2021")
    res = None if run is None else run.result
    unlabelled = {"P": None if res is None else res.precision,
                  "R": None if res is None else res.recall}
    return Solution(exercise, ev, answers(ev), scenarios.ladder(sc), unlabelled)
