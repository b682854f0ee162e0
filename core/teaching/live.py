"""A live class's answers, question by question: how many answered, how many are right, which
values the class gave and which step of the Martino → MAFALDA ladder the wrong ones missed.

Each student's guesses are graded by :func:`core.teaching.exercises.grade` (the same grader and
diagnosis a student working alone sees); :func:`tally` only counts what it says. The answers come
from the store (:mod:`core.store.classes`); the teacher's page (:mod:`ui.live_class`) draws
the tallies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from core.teaching import exercises


@dataclass(frozen=True)
class QuestionTally:
    """One question (``metric``, ``quantity``) over the class: ``answered`` students typed
    something, ``right`` of them are right; ``values`` the answers given (most frequent first,
    each as the value and how many gave it); ``reasons`` why the wrong ones are wrong (the
    diagnosis's first clause, most frequent first)."""

    metric: str
    quantity: str
    title: str
    value: float
    answered: int
    right: int
    values: tuple[tuple[float, int], ...]
    reasons: tuple[tuple[str, int], ...]

    @property
    def wrong(self) -> int:
        return self.answered - self.right


def reason_head(feedback: str) -> str:
    """The part of a diagnosis that names the mistake (its first clause), so that the same
    mistake made by several students is counted once.

    >>> reason_head("This is the value at the ladder step 'no merging': the step(s) ...")
    "This is the value at the ladder step 'no merging'"
    >>> reason_head("This is the value of another metric: MAFALDA (best match).")
    'This is the value of another metric: MAFALDA (best match)'
    """
    if feedback.startswith("This is the value of another metric"):
        return feedback.split(". ", 1)[0].rstrip(".")
    return feedback.split(": ", 1)[0].split(". ", 1)[0].rstrip(".")


def tally(solution: exercises.Solution, answers: Mapping[str, Mapping[tuple[str, str], str]],
          length: str = "short") -> list[QuestionTally]:
    """Every question of an exercise of ``length`` over the class's ``answers``
    (``{student: {(metric, "P" | "R"): text}}``), in the order the exercise asks them; a metric
    that refuses the input asks nothing and has no tally."""
    metrics = exercises.LENGTHS[length]
    grades = [exercises.grade(g, solution.truths, solution.steps,
                              unlabelled=solution.unlabelled, metrics=metrics)
              for g in answers.values()]
    titles = dict(exercises.QUESTIONS)
    out: list[QuestionTally] = []
    for key in metrics:
        truth = solution.truths[key]
        for q in exercises.QUANTITIES:
            value = truth.value(q)
            if value is None:
                continue
            checks = [c for g in grades if (c := g.check(key, q)) is not None
                      and c.guess is not None]
            values = Counter(round(c.guess, 4) for c in checks if c.guess is not None)
            reasons = Counter(reason_head(c.feedback) for c in checks if not c.right)
            out.append(QuestionTally(key, q, titles[key], value, len(checks),
                                     sum(c.right for c in checks),
                                     tuple(values.most_common()), tuple(reasons.most_common())))
    return out
