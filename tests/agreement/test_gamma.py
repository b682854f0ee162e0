"""Native gamma: exact best alignments, agreement with pygamma, seeding, corpus pooling."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.metrics.agreement.gamma_native as gn
from core.metrics.agreement import Study, gamma, gamma_alignment, gamma_matrix
from core.metrics.agreement.gamma_native import (
    Continuum,
    Dissimilarity,
    best_alignment,
    gamma_document,
    gamma_from_docs,
)
from core.model import AnnotationSet, Span

DATA = Path(__file__).parent / "data"


def _brute_force_disorder(c: Continuum, diss: Dissimilarity, labels: list[str]) -> float:
    """Minimum over *every* partition into unitary alignments (tiny inputs only)."""
    n = c.n_annotators
    c2 = n * (n - 1) / 2
    cat = diss.category_matrix(labels)

    def d(u: int, v: int) -> float:
        return (diss.alpha * diss.positional(c.start[u], c.end[u], c.start[v], c.end[v])
                + diss.beta * float(cat[c.cat[u], c.cat[v]]))

    def cost(t: tuple[int, ...]) -> float:
        k = len(t)
        return (sum(d(u, v) for u, v in combinations(t, 2))
                + (c2 - k * (k - 1) / 2) * diss.delta_empty) / c2

    def best(rest: tuple[int, ...]) -> float:
        if not rest:
            return 0.0
        first, others = rest[0], rest[1:]
        out = float("inf")
        for size in range(len(others) + 1):
            for mates in combinations(others, size):
                t = (first, *mates)
                if len({int(c.ann[u]) for u in t}) < len(t):
                    continue
                left = tuple(u for u in others if u not in mates)
                out = min(out, cost(t) + best(left))
        return out

    return best(tuple(range(c.size))) / (c.size / n)


units_strategy = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 60), st.integers(1, 25), st.integers(0, 2)),
    min_size=1, max_size=7)


@settings(deadline=None, max_examples=60)
@given(units_strategy, st.sampled_from([1.0, 3.0]))
def test_best_alignment_equals_brute_force_minimum(raw: list[tuple[int, int, int, int]],
                                                    alpha: float) -> None:
    c = Continuum.build([(a, s, s + ln, k) for a, s, ln, k in raw], 3)
    diss = Dissimilarity(alpha=alpha)
    labels = ["a", "b", "c"]
    got = best_alignment(c, diss, labels)
    assert sorted(u for row in got.tuples for u in row if u >= 0) == list(range(c.size))
    assert got.disorder == pytest.approx(_brute_force_disorder(c, diss, labels), abs=1e-9)


@settings(deadline=None, max_examples=40)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 80), st.integers(1, 30),
                          st.integers(0, 1)), min_size=1, max_size=8))
def test_two_annotator_assignment_equals_brute_force(raw: list[tuple[int, int, int, int]]) -> None:
    c = Continuum.build([(a, s, s + ln, k) for a, s, ln, k in raw], 2)
    got = best_alignment(c, Dissimilarity(), ["a", "b"])
    assert got.disorder == pytest.approx(_brute_force_disorder(c, Dissimilarity(), ["a", "b"]),
                                         abs=1e-9)


@pytest.fixture
def milp_only(monkeypatch: pytest.MonkeyPatch):  # -> (Continuum, Dissimilarity, labels) -> ...
    """``milp_only(c, diss, labels)``: the best alignment with no branch-and-bound budget, so
    every component goes to the MILP solver; returns it and how often the solver ran."""

    def run(c: Continuum, diss: Dissimilarity, labels: list[str]) -> tuple[Any, int]:
        calls: list[int] = []
        real = gn.milp

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            return real(*args, **kwargs)

        with monkeypatch.context() as m:
            m.setattr(gn, "_NODE_LIMIT", 0)
            m.setattr(gn, "milp", counted)
            return gn.best_alignment(c, diss, labels), len(calls)

    return run


def test_branch_and_bound_and_milp_agree_on_a_large_component(milp_only) -> None:
    rng = np.random.default_rng(3)
    units = [(a, float(s), float(s + rng.integers(20, 120)), int(rng.integers(0, 3)))
             for a in range(3) for s in rng.integers(0, 600, 12)]
    c = Continuum.build(units, 3)
    exact = best_alignment(c, Dissimilarity(), ["a", "b", "c"])
    by_milp, solver_calls = milp_only(c, Dissimilarity(), ["a", "b", "c"])
    assert solver_calls > 0
    assert by_milp.disorder == pytest.approx(exact.disorder, abs=1e-9)


def _sample_study() -> tuple[Study, dict[str, dict[str, float]]]:
    data = json.loads((DATA / "pygamma_sample_docs.json").read_text(encoding="utf-8"))
    sets = []
    for who in data["annotators"]:
        spans = {d: tuple(sorted(Span(s, e, lab) for a, s, e, lab in units if a == who))
                 for d, units in data["docs"].items()}
        sets.append(AnnotationSet(who, spans, role="annotator"))
    return Study.from_sets(sets), data["pygamma"]


def test_observed_disorder_equals_pygamma_on_ten_sample_documents() -> None:
    study, ref = _sample_study()
    result = gamma(study, samples=30, seed=0)
    for doc, values in ref.items():
        # pygamma works in float32
        assert result.per_document[doc].stats["D_o"] == pytest.approx(values["D_o"], rel=1e-6)


def test_gamma_within_pygamma_monte_carlo_spread_on_sample_documents() -> None:
    study, ref = _sample_study()
    runs = [gamma(study, samples=30, seed=s) for s in range(5)]
    for doc, values in ref.items():
        mine = [r.per_document[doc].value for r in runs]
        spread = 3 * max(values["gamma_sd"], float(np.std(mine)), 0.005)
        assert abs(float(np.mean(mine)) - values["gamma_mean"]) < spread, doc


def test_gamma_is_reproducible_with_a_seed_and_shows_its_samples() -> None:
    study, _ = _sample_study()
    first = gamma(study, samples=7, seed=11, cache={})
    again = gamma(study, samples=7, seed=11, cache={})
    other = gamma(study, samples=7, seed=12)
    assert first.overall.value == again.overall.value
    assert first.overall.value != other.overall.value
    assert first.params["samples"] == 7 and first.params["seed"] == 11
    assert first.overall.stats["samples"] == 7


def test_document_gamma_alone_equals_its_corpus_breakdown() -> None:
    study, _ = _sample_study()
    corpus = gamma(study, samples=10, seed=4)
    alone = gamma_alignment(study, "3", samples=10, seed=4)
    assert alone["gamma"]["value"] == pytest.approx(corpus.per_document["3"].value, abs=1e-12)
    drawn = {u for row in alone["alignments"] for u in row["units"].values() if u is not None}
    assert drawn == set(range(len(alone["units"])))


def test_progress_reaches_the_total_and_the_second_call_is_cached() -> None:
    study, _ = _sample_study()
    ticks: list[tuple[int, int]] = []
    cache: dict = {}
    gamma(study, samples=3, seed=99, progress=lambda done, total: ticks.append((done, total)),
          cache=cache)
    assert ticks and ticks[-1][0] == ticks[-1][1]
    assert len(cache) == 1
    again: list[tuple[int, int]] = []
    gamma(study, samples=3, seed=99, progress=lambda d, t: again.append((d, t)), cache=cache)
    assert again == [(1, 1)]
    uncached: list[tuple[int, int]] = []
    gamma(study, samples=3, seed=99, progress=lambda d, t: uncached.append((d, t)))
    assert uncached != [(1, 1)]  # no cache given: core keeps nothing between calls


def test_identical_annotators_give_gamma_one_and_pairwise_matrix_is_symmetric() -> None:
    spans = {"d": (Span(0, 10, "x"), Span(20, 30, "y"))}
    sets = [AnnotationSet(n, spans, role="annotator") for n in ("A", "B", "C")]
    study = Study.from_sets(sets)
    assert gamma(study, samples=3).overall.value == 1.0
    m = gamma_matrix(study, samples=3).matrix()
    assert m["A"]["B"] == m["B"]["A"] == 1.0


def test_pooled_gamma_without_units_is_undefined_not_an_error() -> None:
    sets = [AnnotationSet(n, {"d": ()}, role="annotator") for n in ("A", "B")]
    r = gamma(Study.from_sets(sets), samples=3)
    assert r.overall.value is None and "no annotator marked any span" in (r.overall.reason or "")


def test_gamma_from_docs_reports_monte_carlo_spread() -> None:
    c = Continuum.build([(0, 0, 10, 0), (1, 2, 12, 0), (0, 30, 40, 1), (1, 50, 60, 1)], 2)
    doc = gamma_document(c, Dissimilarity(), ["x", "y"], samples=20, seed=1)
    g = gamma_from_docs([doc], 2, 20)
    assert g.stats["samples"] == 20 and g.stats["gamma_mc_sd"] > 0


def test_corpus_gamma_does_not_depend_on_the_number_of_worker_processes() -> None:
    from core.metrics.agreement import Study, gamma
    from core.model import AnnotationSet, Span

    sets = [AnnotationSet(name, {f"d{i}": tuple(Span(10 * k + (i + j) % 3, 10 * k + 6 + j % 2,
                                                      "ab"[(k + j) % 2]) for k in range(4))
                                 for i in range(6)}, role="annotator")
            for j, name in enumerate(["A", "B", "C"])]
    study = Study.from_sets(sets)
    one = gamma(study, samples=5, seed=2, workers=1)
    two = gamma(study, samples=5, seed=2, workers=2)
    assert one.overall.value == two.overall.value
    assert {d: v.value for d, v in one.per_document.items()} == {
        d: v.value for d, v in two.per_document.items()}
