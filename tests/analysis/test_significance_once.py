"""``significance.compare`` draws its paired bootstrap once for P, R and F1 (it ran
``paired_bootstrap`` twice per measure): the same seed gives the numbers it gave then
(``data/significance_before.json``, written by the code before the change from the tables
below), except the bootstrap p-value, now floored at 1 / (R + 1) and not given below
``FEW_DOCUMENTS`` documents."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from core.analysis import significance
from core.analysis.significance import compare, randomization_p
from core.metrics.additive import DocumentTable
from core.metrics.stats import FEW_DOCUMENTS, martino_f1

BEFORE = json.loads((Path(__file__).parent / "data" / "significance_before.json")
                    .read_text(encoding="utf-8"))


def _tables(n: int, pooled: bool, seed: int, dominant: bool) -> list[DocumentTable]:
    """Two systems' per-document tables: pooled (p_num, p_den, r_num, r_den) or averaged (P,
    R, F1 per text); ``dominant``: A right on every span, B wrong on every one."""
    rng = np.random.default_rng(seed)
    if pooled:
        den = rng.integers(0, 6, size=(2, n, 2)).astype(float)
        num = den * rng.random((2, n, 2)) * 1.1
        t = np.stack([num[..., 0], den[..., 0], num[..., 1], den[..., 1]], axis=-1)
    else:
        t = rng.random((2, n, 3))
    if dominant:
        t[0][:, [0, 2]] = t[0][:, [1, 3]]
        t[1][:, [0, 2]] = 0.0
    docs = [f"d{i}" for i in range(n)]
    z = np.zeros(n, dtype=np.int64)
    return [DocumentTable(docs, t[k], z, z, pooled) for k in range(2)]


def _cases() -> list[tuple[int, bool, bool, int, int]]:
    return sorted({(r["n"], r["dominant"], r["pooled"], r["R"], r["seed"]) for r in BEFORE})


@pytest.mark.parametrize(("n", "dominant", "pooled", "rounds", "seed"), _cases())
def test_one_draw_for_every_measure_gives_the_numbers_of_six(
        n: int, dominant: bool, pooled: bool, rounds: int, seed: int) -> None:
    a, b = _tables(n, pooled, n * 10 + pooled, dominant)
    got = {c.measure: c for c in compare("a", a, "b", b, n_resamples=rounds, seed=seed)}
    want = [r for r in BEFORE if (r["n"], r["dominant"], r["pooled"], r["R"], r["seed"])
            == (n, dominant, pooled, rounds, seed)]
    assert [r["measure"] for r in want] == list(got) == ["P", "R", "F1"]
    for r in want:
        c = got[r["measure"]]
        assert (c.difference, c.low, c.high, c.p_randomization) == (
            r["difference"], r["low"], r["high"], r["p_randomization"])
        if n < FEW_DOCUMENTS:
            assert c.p_bootstrap is None
        else:
            assert c.p_bootstrap == max(r["p_bootstrap"], 1 / (rounds + 1))


def test_bootstrap_p_is_never_zero() -> None:
    """A system right on all 25 documents, the other wrong on all: every resample says A is
    better, and the p-value is the smallest R resamples can show, as the randomization's."""
    a, b = _tables(25, True, 251, True)
    (c,) = compare("a", a, "b", b, n_resamples=300, seed=0, measures=("F1",))
    assert c.p_bootstrap == c.p_randomization == 1 / 301


def test_three_documents_give_no_bootstrap_p() -> None:
    """The reviewer's case: better on each of three documents, the percentile bootstrap said
    p = 0 where the exact permutation p is 2/8; below FEW_DOCUMENTS it gives none."""
    a, b = _tables(3, True, 31, True)
    (c,) = compare("a", a, "b", b, n_resamples=1000, seed=0, measures=("P",))
    assert c.p_bootstrap is None
    assert c.p_randomization == pytest.approx(2 / 8, abs=0.03)
    assert c.low is not None and c.high is not None


def test_randomization_rounds_do_not_depend_on_the_chunk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The swap matrices are cut to at most _SWAP_CELLS cells; the rounds stay the same."""
    rng = np.random.default_rng(3)
    den = rng.integers(1, 5, size=(2, 600, 4)).astype(float)
    a, b = den[0] * rng.random((600, 4)), den[1] * rng.random((600, 4))
    a[:, [1, 3]], b[:, [1, 3]] = den[0][:, [1, 3]], den[1][:, [1, 3]]
    whole = randomization_p(a, b, {"F1": martino_f1}, n_rounds=700, seed=4)
    monkeypatch.setattr(significance, "_SWAP_CELLS", 600 * 7)  # chunks of 7 rounds
    assert randomization_p(a, b, {"F1": martino_f1}, n_rounds=700, seed=4) == whole
