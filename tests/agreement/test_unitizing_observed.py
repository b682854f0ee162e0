"""α_U's observed disagreement: the binary-search pairing equals the all-pairs definition."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement.unitizing import _observed_sum, drop_self_overlaps


def _all_pairs(coders: list[list[tuple[int, int]]]) -> float:
    """Krippendorff (2004) D_o numerator term by term, over every ordered pair of coders (i, j):
    each unit of i against each overlapping unit of j, (Δstart)² + (Δend)²; a unit of either
    coder that lies inside a gap of the other counts its length squared (unit against gap:
    i's unit against j's gap, and i's gap against j's unit)."""
    total = 0.0
    for x, a in enumerate(coders):
        for y, b in enumerate(coders):
            if x == y:
                continue
            for s, e in a:
                partners = [(t, f) for t, f in b if min(e, f) > max(s, t)]
                total += sum((s - t) ** 2 + (e - f) ** 2 for t, f in partners)
            for first, second in ((a, b), (b, a)):
                for s, e in first:
                    if not any(min(e, f) > max(s, t) for t, f in second):
                        total += (e - s) ** 2
    return total


unit = st.tuples(st.integers(0, 200), st.integers(1, 60)).map(lambda u: (u[0], u[0] + u[1]))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(unit, max_size=12), min_size=2, max_size=4))
def test_observed_sum_equals_the_all_pairs_definition(raw: list[list[tuple[int, int]]]) -> None:
    coders = [drop_self_overlaps(units)[0] for units in raw]
    assert abs(_observed_sum(coders) - _all_pairs(coders)) <= 1e-9 * max(1.0, _all_pairs(coders))
