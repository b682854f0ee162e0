"""What each measure of ``agree`` does with an annotator's exact duplicate span, as the study's
warning says it (:data:`core.metrics.agreement.study.DUPLICATES`), checked against the values:
a measure said to count it twice changes with ``--unit-set`` (the set without it), one said to
count it once or to read characters or texts does not.

fixrev14b item 3: the warning said every measure but exact-f1 kept a duplicate as two units,
though char-kappa, char-jaccard, text-kappa, fleiss-kappa, krippendorff-alpha and
unitizing-alpha give the same values with and without ``--unit-set``."""

from __future__ import annotations

from typing import Any

import pytest

from core.metrics.agreement import Study
from core.metrics.agreement.dispatch import MEASURES, compute
from core.metrics.agreement.study import DUPLICATES
from core.model import AnnotationSet, Span

TEXTS: dict[str, str | None] = {"d1": "The quick brown fox jumps over the lazy dog.",
                                "d2": "Another text with words here."}
SETS = [AnnotationSet("a", {"d1": (Span(0, 9, "x"), Span(0, 9, "x"), Span(10, 19, "y")),
                            "d2": (Span(0, 7, "x"), Span(8, 12, "y"))}, "annotator"),
        AnnotationSet("b", {"d1": (Span(0, 9, "x"), Span(20, 25, "y")),
                            "d2": (Span(0, 7, "x"),)}, "annotator"),
        AnnotationSet("c", {"d1": (Span(1, 9, "x"), Span(10, 19, "y")),
                            "d2": (Span(0, 7, "y"),)}, "annotator")]
"""'a' marks [0, 9) 'x' twice in d1."""

COUNTS = {"dropped_self_overlaps"}
"""How many spans a measure left out, not its value: unitizing α says it dropped the copy."""


def _values(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: _values(v) for k, v in d.items() if k not in COUNTS | {"warnings"}}
    if isinstance(d, list):
        return [_values(v) for v in d]
    return d


def test_every_measure_says_what_it_does_with_a_duplicate() -> None:
    assert set(DUPLICATES) == set(MEASURES)


@pytest.mark.parametrize("measure", MEASURES)
def test_the_duplicate_reading_is_what_the_values_show(measure: str) -> None:
    kept, once = (_values(compute(Study.from_sets(SETS, TEXTS, unit_set=u), measure,
                                  seed=0, samples=30).as_dict(False))
                  for u in (False, True))
    if DUPLICATES[measure] == "twice":
        assert kept != once
    else:
        assert kept == once


@pytest.mark.parametrize(("measures", "option", "said"), [
    (["span-f1"], "--unit-set", "counted twice by span-f1 (--unit-set counts it once)"),
    (["char-kappa", "exact-f1", "gamma"], "--unit-set",
     "counted twice by gamma (--unit-set counts it once, as pygamma-agreement does); counted "
     "once by exact-f1; no change to char-kappa, which reads characters or texts"),
    (None, None, "counted twice by span-f1, mafalda-f1, gamma, gamma-cat; counted once by "
     "exact-f1, unitizing-alpha; no change to char-kappa, char-jaccard, text-kappa, "
     "fleiss-kappa, krippendorff-alpha, which read characters or texts"),
])
def test_the_warning_names_each_measures_reading(measures: list[str] | None,
                                                 option: str | None, said: str) -> None:
    warnings = Study.from_sets(SETS, TEXTS, measures=measures, option=option).warnings
    assert warnings == ["a: document 'd1' has 1 exact duplicate span(s), e.g. [0, 9) 'x': "
                        + said]
