"""Gamma (γ), γ-cat and γ-k: alignment-based agreement for spans (Mathet et al. 2015, 2018).

Definitions (``docs/agreement.md``; Mathet, Widlöcher & Métivier 2015,
*Computational Linguistics* 41(3), §3–§5; Mathet 2018 for γ-cat/γ-k), with Δ∅ = ``delta_empty``:

* positional dissimilarity ``d_pos(u, v) = ((|s_u − s_v| + |e_u − e_v|) / (l_u + l_v))² · Δ∅``
  (their Fig. 10), categorical ``d_cat(u, v) = D[c_u, c_v] · Δ∅`` (absolute: 0 if equal, else 1),
  combined ``d = α·d_pos + β·d_cat``;
* a *unitary alignment* takes at most one unit per annotator (the others are ∅); its disorder is
  the mean over the C(n, 2) annotator pairs of d, a pair with ∅ costing Δ∅;
* an *alignment* partitions all units into unitary alignments; its disorder is the sum of theirs
  divided by the mean number of units per annotator; the *best* alignment minimises it (D_o);
* ``γ = 1 − D_o / D_e`` where D_e is the mean best-alignment disorder of random continua drawn
  from the observed one (Monte-Carlo); γ = 1 when D_o = 0.

How this implementation finds the best alignment, exactly but without pygamma's enumeration of
every tuple: splitting a unitary alignment with k units into {u} and the rest changes its cost by
``(C(n,2) + k − 1)·Δ∅ − Σ_w d(u, w)`` (times 1/C(n,2)), so an optimal partition exists in which no
two units with ``d(u, v) ≥ (C(n,2) + n − 1)·Δ∅`` share a unitary alignment. Units are linked when
they are closer than that; each connected component is solved on its own: two annotators are an
assignment problem (``scipy.optimize.linear_sum_assignment``), more annotators a set-partitioning
problem over the surviving tuples (exact dynamic programming over subsets for small components,
``scipy.optimize.milp`` for large ones).

Chance: each sample draws a new continuum per document, like pygamma 0.5.9's samplers
(``statistical``: unit counts, gaps and lengths from normal distributions fitted to the document,
categories by observed frequency; ``shuffle``: Mathet's §5.2 shuffling of whole annotators around
random pivots). A corpus is scored as docs/agreement.md's conventions say: per-document best
alignments, pooled (no unitary alignment crosses documents); per-document γ comes from the same
samples.
Random numbers come from ``numpy.random.default_rng`` seeded with (seed, document id), so a
document gets the same value alone as inside the corpus, and every run with one seed is identical.
"""

from __future__ import annotations

import hashlib
import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from core.metrics.agreement.coefficients import Agreement, undefined
from core.model.errors import check_choice

Sampler = Literal["statistical", "shuffle"]
SAMPLERS: tuple[Sampler, ...] = ("statistical", "shuffle")
Progress = Callable[[int, int], None]
"""``progress(done, total)``, called as chance samples complete."""

_NODE_LIMIT = 20000  # branch-and-bound nodes per component before handing it to the MILP solver


# scipy.optimize costs 0.3-0.5 s to import; imported when γ first solves, so that the dashboard's
# pages and the commands that never align pay nothing for it (docs/performance.md).
def linear_sum_assignment(cost: NDArray[np.float64]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """:func:`scipy.optimize.linear_sum_assignment`, imported on first use."""
    from scipy.optimize import linear_sum_assignment as solve

    return solve(cost)


def milp(c: NDArray[np.float64], *, constraints: tuple[NDArray[np.float64], float, float],
         integrality: NDArray[np.float64], bounds: tuple[float, float]) -> Any:
    """:func:`scipy.optimize.milp` on ``constraints = (A, lower, upper)``, imported on first
    use."""
    from scipy.optimize import LinearConstraint
    from scipy.optimize import milp as solve

    return solve(c=c, constraints=LinearConstraint(*constraints), integrality=integrality,
                 bounds=bounds)


@dataclass(frozen=True)
class Dissimilarity:
    """The combined categorical dissimilarity ``α·d_pos + β·d_cat`` (pygamma's defaults: 1, 1, 1).

    ``categorical`` optionally gives ``D[a][b]`` for every pair of labels (missing pairs: 0 if
    equal, else 1).

    >>> d = Dissimilarity()
    >>> round(d.positional(4, 14, 40, 44), 6), d.positional(20, 30, 20, 25) == 1 / 9
    (22.22449, True)
    """

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0
    categorical: Mapping[str, Mapping[str, float]] | None = None

    def positional(self, s1: float, e1: float, s2: float, e2: float) -> float:
        """d_pos of Mathet et al. (2015), Fig. 10."""
        r = (abs(s1 - s2) + abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
        return r * r * self.delta_empty

    def category_matrix(self, labels: Sequence[str]) -> NDArray[np.float64]:
        k = len(labels)
        m = 1.0 - np.eye(k)
        if self.categorical is not None:
            for i, a in enumerate(labels):
                for j, b in enumerate(labels):
                    row = self.categorical.get(a, {})
                    if b in row:
                        m[i, j] = row[b]
        return m * self.delta_empty

    def key(self) -> tuple[Any, ...]:
        cat = None if self.categorical is None else tuple(
            sorted((a, b, v) for a, row in self.categorical.items() for b, v in row.items()))
        return (self.alpha, self.beta, self.delta_empty, cat)


@dataclass
class Continuum:
    """The units of one document: parallel arrays, ``ann`` indexes annotators, ``cat`` labels."""

    start: NDArray[np.float64]
    end: NDArray[np.float64]
    ann: NDArray[np.int64]
    cat: NDArray[np.int64]
    n_annotators: int
    length: float = 0.0

    @property
    def size(self) -> int:
        return len(self.start)

    @classmethod
    def build(cls, units: Sequence[tuple[int, float, float, int]], n_annotators: int,
              length: float = 0.0) -> Continuum:
        arr = sorted(units, key=lambda u: (u[0], u[1], u[2], u[3]))
        return cls(np.array([u[1] for u in arr], dtype=float),
                   np.array([u[2] for u in arr], dtype=float),
                   np.array([u[0] for u in arr], dtype=np.int64),
                   np.array([u[3] for u in arr], dtype=np.int64), n_annotators,
                   max(length, max((u[2] for u in arr), default=0.0)))


@dataclass
class Alignment:
    """A best alignment: ``tuples[k][a]`` is the unit index of annotator a in unitary alignment k
    (-1 for ∅), ``costs[k]`` its disorder; ``disorder`` = Σ costs / mean units per annotator."""

    tuples: list[list[int]]
    costs: list[float]
    n_units: int
    n_annotators: int

    @property
    def cost_sum(self) -> float:
        return float(sum(self.costs))

    @property
    def disorder(self) -> float:
        if self.n_units == 0:
            return 0.0
        return self.cost_sum / (self.n_units / self.n_annotators)


def _pair_matrix(c: Continuum, cat_m: NDArray[np.float64], diss: Dissimilarity
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(combined d, α·d_pos) between every two units."""
    ds = np.abs(np.subtract.outer(c.start, c.start))
    de = np.abs(np.subtract.outer(c.end, c.end))
    ln = c.end - c.start
    pos = ((ds + de) / np.add.outer(ln, ln)) ** 2 * diss.delta_empty * diss.alpha
    return pos + diss.beta * cat_m[np.ix_(c.cat, c.cat)], pos


def _components(adj: NDArray[np.bool_]) -> list[list[int]]:
    n = adj.shape[0]
    seen = np.zeros(n, dtype=bool)
    out: list[list[int]] = []
    for root in range(n):
        if seen[root]:
            continue
        stack, comp = [root], []
        seen[root] = True
        while stack:
            u = stack.pop()
            comp.append(u)
            for v in np.flatnonzero(adj[u] & ~seen):
                seen[v] = True
                stack.append(int(v))
        out.append(sorted(comp))
    return out


def _candidate_tuples(comp: Sequence[int], adj: NDArray[np.bool_], d: NDArray[np.float64],
                      ann: NDArray[np.int64], n: int, delta: float
                      ) -> list[tuple[tuple[int, ...], float]]:
    """Every unitary alignment (≥ 2 units) that no single-unit split improves, with its cost."""
    c2 = n * (n - 1) / 2
    out: list[tuple[tuple[int, ...], float]] = []

    # plain floats: these tuples are tiny and numpy's per-call cost dominates; only the
    # component's rows (a document has many components: converting the whole matrix for each
    # was most of the Curation page's γ consensus)
    dl = {u: d[u].tolist() for u in comp}
    adjl = {u: adj[u].tolist() for u in comp}
    annl = ann.tolist()

    def grow(chosen: list[int], sums: list[float], used: set[int], rest: list[int]) -> None:
        for idx, v in enumerate(rest):
            if annl[v] in used or not all(adjl[u][v] for u in chosen):
                continue
            t = [*chosen, v]
            dv = [dl[u][v] for u in chosen]
            t_sums = [x + y for x, y in zip(sums, dv, strict=True)] + [sum(dv)]
            k = len(t)
            bound = (c2 + k - 1) * delta + 1e-9  # ties kept: pygamma merges them
            if max(t_sums) <= bound:
                pair_sum = sum(t_sums) / 2.0
                out.append((tuple(t), (pair_sum + (c2 - k * (k - 1) / 2) * delta) / c2))
            # a tuple failing the split test may still extend to one that passes: keep growing
            grow(t, t_sums, used | {annl[v]}, rest[idx + 1:])

    for i, u in enumerate(comp):
        grow([u], [0.0], {annl[u]}, list(comp[i + 1:]))
    return out


def _branch_and_bound(n_bits: int, masks: Sequence[int], costs: Sequence[float],
                      node_limit: int) -> list[int] | None:
    """Exact minimum-cost exact cover by depth-first branch and bound; None past ``node_limit``.

    Branches on the lowest uncovered bit; the bound charges every uncovered unit the cheapest
    cost per unit of any option containing it; a state reached again at no lower cost is cut.
    """
    share = [math.inf] * n_bits
    bits_of: list[list[int]] = []
    for mask, cost in zip(masks, costs, strict=True):
        bits = [b for b in range(n_bits) if mask >> b & 1]
        bits_of.append(bits)
        for b in bits:
            share[b] = min(share[b], cost / len(bits))
    share_sum = [sum(share[b] for b in bits) for bits in bits_of]
    by_low: dict[int, list[int]] = {}
    for k in sorted(range(len(masks)), key=lambda k: (costs[k] / len(bits_of[k]),
                                                      -len(bits_of[k]))):
        by_low.setdefault(bits_of[k][0], []).append(k)
    # a greedy cover (cheapest cost per unit first) gives the first upper bound
    best_pick: list[int] = []
    covered = 0
    for k in sorted(range(len(masks)), key=lambda k: costs[k] / len(bits_of[k])):
        if not masks[k] & covered:
            best_pick.append(k)
            covered |= masks[k]
    best_cost = sum(costs[k] for k in best_pick) + 1e-9  # ties still let the search improve
    seen: dict[int, float] = {}
    nodes = 0
    pick: list[int] = []
    # per lowest bit, the options as (mask, cost, share of the bound, index): tuples unpack
    # faster than four list lookups in the innermost loop
    branches = {low: [(masks[k], costs[k], share_sum[k], k) for k in ks]
                for low, ks in by_low.items()}

    def dfs(rem: int, cost: float, bound: float) -> bool:
        nonlocal best_cost, best_pick, nodes
        nodes += 1
        if nodes > node_limit:
            return False
        if rem == 0:
            if cost < best_cost - 1e-12:
                best_cost, best_pick = cost, list(pick)
            return True
        if seen.get(rem, math.inf) <= cost + 1e-12:
            return True
        seen[rem] = cost
        limit = best_cost - 1e-12 - cost
        for mask, c_k, s_k, k in branches[(rem & -rem).bit_length() - 1]:
            if mask & rem != mask or c_k + bound - s_k >= limit:
                continue
            pick.append(k)
            ok = dfs(rem & ~mask, cost + c_k, bound - s_k)
            pick.pop()
            if not ok:
                return False
            limit = best_cost - 1e-12 - cost
        return True

    full = (1 << n_bits) - 1
    if not dfs(full, 0.0, sum(share)):
        return None
    return best_pick


def _solve_partition(comp: Sequence[int], tuples: list[tuple[tuple[int, ...], float]],
                     delta: float, position: NDArray[np.float64]
                     ) -> list[tuple[tuple[int, ...], float]]:
    """Minimum-cost exact cover of ``comp`` by ``tuples`` and singletons (cost Δ∅ each).

    Bits are numbered in position order, because tuples join nearby units. Branch and bound
    solves almost every component at once; the few it cannot within its node budget go to
    ``scipy.optimize.milp`` (HiGHS).
    """
    local = {u: i for i, u in enumerate(sorted(comp, key=lambda u: (position[u], u)))}
    options = [*tuples, *(((u,), delta) for u in comp)]
    masks = [sum(1 << local[u] for u in t) for t, _ in options]
    picked = _branch_and_bound(len(comp), masks, [c for _, c in options], _NODE_LIMIT)
    if picked is not None:
        return [options[k] for k in picked]
    a = np.zeros((len(comp), len(options)))
    for k, (t, _) in enumerate(options):
        for u in t:
            a[local[u], k] = 1.0
    res = milp(c=np.array([c for _, c in options]), constraints=(a, 1, 1),
               integrality=np.ones(len(options)), bounds=(0, 1))
    if res.x is None:  # pragma: no cover - singletons always give a feasible cover
        raise RuntimeError(f"the set-partitioning solver failed: {res.message}")
    return [options[k] for k in np.flatnonzero(res.x > 0.5)]


def best_alignment(c: Continuum, diss: Dissimilarity, labels: Sequence[str]) -> Alignment:
    """The minimum-disorder alignment of one continuum (exact; see the module docstring).

    >>> c = Continuum.build([(0, 0, 10, 0), (1, 0, 10, 0), (1, 20, 30, 1)], 2)
    >>> a = best_alignment(c, Dissimilarity(), ["x", "y"])
    >>> a.tuples, a.costs, a.disorder
    ([[0, 1], [-1, 2]], [0.0, 1.0], 0.6666666666666666)
    """
    n = c.n_annotators
    delta = diss.delta_empty
    if c.size == 0:
        return Alignment([], [], 0, n)
    d, _ = _pair_matrix(c, diss.category_matrix(labels), diss)
    c2 = n * (n - 1) / 2
    adj = (np.not_equal.outer(c.ann, c.ann)) & (d <= (c2 + n - 1) * delta + 1e-9)
    chosen: list[tuple[tuple[int, ...], float]] = []
    for comp in _components(adj):
        if len(comp) == 1:
            chosen.append(((comp[0],), delta))
        elif n == 2:
            rows = [u for u in comp if c.ann[u] == 0]
            cols = [u for u in comp if c.ann[u] == 1]
            # a pair saves 2Δ∅ − d over two singletons; on a tie pair them (as pygamma does)
            pd = d[np.ix_(rows, cols)]
            gain = np.where(pd <= 2 * delta + 1e-9, pd - 2 * delta - 1e-9, 0.0)
            r_idx, c_idx = linear_sum_assignment(gain)
            paired: set[int] = set()
            for r, k in zip(r_idx, c_idx, strict=True):
                if gain[r, k] < 0:
                    chosen.append(((rows[r], cols[k]), float(d[rows[r], cols[k]])))
                    paired.update((rows[r], cols[k]))
            chosen.extend(((u,), delta) for u in comp if u not in paired)
        else:
            tuples = _candidate_tuples(comp, adj, d, c.ann, n, delta)
            chosen.extend(_solve_partition(comp, tuples, delta, c.start + c.end))
    rows_out: list[list[int]] = []
    costs: list[float] = []
    for t, cost in sorted(chosen, key=lambda tc: min(c.start[u] for u in tc[0])):
        row = [-1] * n
        for u in t:
            row[int(c.ann[u])] = int(u)
        rows_out.append(row)
        costs.append(float(cost))
    return Alignment(rows_out, costs, c.size, n)


@dataclass
class CatParts:
    """γ-cat / γ-k disorder parts of one alignment (pygamma 0.5.9 ``gamma_k_disorder``)."""

    disorder: float = 0.0
    weight: float = 0.0
    any_pair: bool = False  # some pair concerned the category ("no_cat" is false)
    any_loop: bool = False  # some pair of two real units was weighed ("no_loop" is false)

    def add(self, other: CatParts) -> None:
        self.disorder += other.disorder
        self.weight += other.weight
        self.any_pair |= other.any_pair
        self.any_loop |= other.any_loop

    @property
    def value(self) -> float:
        if not self.any_loop:
            return 0.0 if self.any_pair else 1.0
        return 0.0 if self.disorder == 0 else self.disorder / self.weight


def cat_parts(c: Continuum, a: Alignment, diss: Dissimilarity, labels: Sequence[str],
              categories: Sequence[int | None] = (None,)) -> dict[int | None, CatParts]:
    """γ-cat (category None) and γ-k (label index) disorder parts (Mathet 2018, §4.2.5).

    Inside each unitary alignment with nv real units, every pair of real units adds d_cat with
    weight ``max(0, 1 − α·d_pos) / (nv − 1)``; a pair of one real unit and ∅ adds Δ∅² to the
    disorder and Δ∅ to the weight (pygamma's "experimental" rule, kept for comparability); γ-k
    only counts pairs where one unit has category k. One pass serves every category.
    """
    out = {k: CatParts() for k in categories}
    if c.size == 0:
        return out
    cat_m = diss.category_matrix(labels)
    delta = diss.delta_empty
    cats = c.cat.tolist()
    want_all = None in out
    for row in a.tuples:
        nv = sum(1 for u in row if u >= 0)
        base = 0.0 if nv < 2 else 1.0 / (nv - 1)
        for u, v in combinations(row, 2):
            if u < 0 and v < 0:
                touched: set[int | None] = {None} if want_all else set()
            else:
                touched = {cats[x] for x in (u, v) if x >= 0}
                if want_all:
                    touched.add(None)
            # pygamma counts a ∅–∅ pair as "concerning" γ-cat (no_cat false) without adding to it
            hit = [out[k] for k in touched if k in out]
            if not hit:
                continue
            if u < 0 or v < 0:
                for p in hit:
                    p.any_pair = True
                    if u >= 0 or v >= 0:
                        p.disorder += delta * delta
                        p.weight += delta
                continue
            pos = diss.alpha * diss.positional(c.start[u], c.end[u], c.start[v], c.end[v])
            w = base * max(0.0, 1.0 - pos)
            dc = float(cat_m[cats[u], cats[v]]) * w
            for p in hit:
                p.any_pair = True
                p.any_loop = True
                p.disorder += dc
                p.weight += w
    return out


def _normal_stats(values: Sequence[float]) -> tuple[float, float]:
    arr = np.asarray(values, dtype=float)
    return (float(arr.mean()), float(arr.std())) if len(arr) else (0.0, 0.0)


def sample_statistical(c: Continuum, rng: np.random.Generator) -> Continuum:
    """A chance continuum like pygamma's ``StatisticalContinuumSampler``.

    Per annotator: a number of units ~ |N(mean, sd)| of the observed counts per annotator, then
    units one after another, each after a gap ~ N(mean, sd) of the observed gaps (which may be
    negative, so units may overlap) with a length ~ |N(mean, sd)| of the observed lengths and a
    category drawn with the observed frequencies. At least one unit in the whole sample.
    """
    gaps = [0.0]
    for a in range(c.n_annotators):
        idx = np.flatnonzero(c.ann == a)
        if len(idx) == 0:
            continue
        if c.start[idx[0]] > 0:
            gaps.append(float(c.start[idx[0]]))
        gaps.extend((c.start[idx[1:]] - c.end[idx[:-1]]).tolist())
    gap_mu, gap_sd = _normal_stats(gaps)
    cnt_mu, cnt_sd = _normal_stats(np.bincount(c.ann, minlength=c.n_annotators).tolist())
    len_mu, len_sd = _normal_stats((c.end - c.start).tolist())
    cats, freq = np.unique(c.cat, return_counts=True)
    p = freq / freq.sum()
    units: list[tuple[int, float, float, int]] = []
    for a in range(c.n_annotators):
        count = abs(int(rng.normal(cnt_mu, cnt_sd)))
        if not units:
            count = max(1, count)
        if count == 0:
            continue
        gap = rng.normal(gap_mu, gap_sd, count)
        length = np.abs(rng.normal(len_mu, len_sd, count))
        tiny = length < 1e-6
        while tiny.any():
            length[tiny] = np.abs(rng.normal(len_mu, len_sd, int(tiny.sum())))
            tiny = length < 1e-6
        cat = rng.choice(cats, size=count, p=p)
        end = np.cumsum(gap + length)
        start = end - length
        units.extend(zip([a] * count, start.tolist(), end.tolist(), cat.tolist(), strict=True))
    return Continuum.build(units, c.n_annotators)


def sample_shuffle(c: Continuum, rng: np.random.Generator) -> Continuum:
    """A chance continuum like pygamma's ``ShuffleContinuumSampler`` (Mathet et al. 2015, §5.2).

    Each of the n sampled annotators copies the units of a randomly chosen observed annotator,
    shifted by an integer pivot drawn in [0, end of the continuum) away from earlier pivots (at
    least half the mean unit length), wrapping units that would start after the end.
    """
    bound = float(c.end.max())
    min_dist = float((c.end - c.start).mean()) / 2
    while True:
        free = [(0.0, bound)]
        units: list[tuple[int, float, float, int]] = []
        for a in range(c.n_annotators):
            if free:
                widths = np.array([e - s for s, e in free])
                if widths.sum() > 0:
                    s, e = free[int(rng.choice(len(free), p=widths / widths.sum()))]
                    pivot = float(int(rng.uniform(s, e)))
                else:
                    pivot = 1.0
                # pygamma's interval removal, kept as is for comparable chance values: a free
                # interval wholly on one side of the pivot window is stretched up to the window.
                cut: list[tuple[float, float]] = []
                for s, e in free:
                    if s >= pivot - min_dist:
                        if e > pivot + min_dist:
                            cut.append((pivot + min_dist, e))
                    else:
                        cut.append((s, pivot - min_dist))
                        if e > pivot + min_dist:
                            cut.append((pivot + min_dist, e))
                free = cut
            else:
                pivot = float(rng.uniform(0.0, bound))
            src = int(rng.integers(c.n_annotators))
            for u in np.flatnonzero(c.ann == src):
                shift = pivot - bound if c.start[u] + pivot > bound else pivot
                units.append((a, c.start[u] + shift, c.end[u] + shift, int(c.cat[u])))
        if units:
            return Continuum.build(units, c.n_annotators)


@dataclass
class DocGamma:
    """Observed and sampled disorders of one document."""

    observed: Alignment
    cost_sums: list[float]  # best-alignment cost sum of each chance sample
    unit_counts: list[int]  # units in each chance sample
    cat_observed: dict[int | None, CatParts] = field(default_factory=dict)
    cat_samples: dict[int | None, list[CatParts]] = field(default_factory=dict)
    continuum: Continuum | None = None
    chance: list[tuple[Continuum, Alignment]] = field(default_factory=list)

    def add_categories(self, diss: Dissimilarity, labels: Sequence[str],
                       categories: Sequence[int | None]) -> None:
        """γ-cat / γ-k parts from the kept alignments, without aligning anything again."""
        todo = [k for k in categories if k not in self.cat_observed]
        if not todo or self.continuum is None:
            return
        self.cat_observed.update(cat_parts(self.continuum, self.observed, diss, labels, todo))
        for k in todo:
            self.cat_samples[k] = []
        for s, a in self.chance:
            for k, parts in cat_parts(s, a, diss, labels, todo).items():
                self.cat_samples[k].append(parts)


def _doc_rng(seed: int, key: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])


def gamma_document(c: Continuum, diss: Dissimilarity, labels: Sequence[str], *,
                   samples: int = 30, seed: int = 0, key: str = "",
                   sampler: Sampler = "statistical",
                   categories: Sequence[int | None] = (), progress: Progress | None = None
                   ) -> DocGamma:
    """Best alignment of ``c`` and of ``samples`` chance continua drawn with ``sampler``.

    ``categories`` lists the γ-cat (None) and γ-k (label index) disorders to compute as well.
    """
    check_choice("sampler", "gamma", sampler, SAMPLERS)
    observed = best_alignment(c, diss, labels)
    out = DocGamma(observed, [], [], continuum=c)
    if categories:
        out.cat_observed = cat_parts(c, observed, diss, labels, categories)
        out.cat_samples = {k: [] for k in categories}
    if c.size == 0:
        return out
    rng = _doc_rng(seed, key)
    draw = sample_statistical if sampler == "statistical" else sample_shuffle
    for i in range(samples):
        s = draw(c, rng)
        a = best_alignment(s, diss, labels)
        out.cost_sums.append(a.cost_sum)
        out.unit_counts.append(s.size)
        out.chance.append((s, a))  # kept so that γ-cat / γ-k can follow without realigning
        if categories:
            for k, parts in cat_parts(s, a, diss, labels, categories).items():
                out.cat_samples[k].append(parts)
        if progress is not None:
            progress(i + 1, samples)
    return out


def gamma_from_docs(docs: Sequence[DocGamma], n_annotators: int, samples: int
                    ) -> Agreement:
    """Pooled γ of several documents (docs/agreement.md, conventions), with its Monte-Carlo
    spread."""
    n_units = sum(d.observed.n_units for d in docs)
    if n_units == 0:
        return undefined("gamma is undefined: no annotator marked any span", units=0)
    d_o = sum(d.observed.cost_sum for d in docs) / (n_units / n_annotators)
    stats: dict[str, Any] = {"D_o": d_o, "units": n_units, "samples": samples}
    if d_o == 0:
        return Agreement(1.0, None, {**stats, "D_e": None,
                                     "note": "observed disorder is 0: gamma is 1 by definition"})
    per_sample = []
    for s in range(samples):
        cost = sum(d.cost_sums[s] for d in docs if d.cost_sums)
        units = sum(d.unit_counts[s] for d in docs if d.unit_counts)
        per_sample.append(cost / (units / n_annotators))
    d_e = float(np.mean(per_sample))
    se = float(np.std(per_sample, ddof=1) / math.sqrt(samples)) if samples > 1 else math.nan
    stats.update({"D_e": d_e, "D_e_sd": float(np.std(per_sample, ddof=1)) if samples > 1
                  else None, "gamma_mc_sd": d_o * se / (d_e * d_e) if samples > 1 else None})
    return Agreement(1.0 - d_o / d_e, None, stats)


def gamma_cat_from_docs(docs: Sequence[DocGamma], category: int | None, samples: int,
                        name: str = "gamma-cat") -> Agreement:
    """Pooled γ-cat (``category`` None) or γ-k: 1 − observed / mean chance disorder."""
    obs = CatParts()
    for d in docs:
        if category in d.cat_observed:
            obs.add(d.cat_observed[category])
    observed = obs.value
    stats: dict[str, Any] = {"D_o": observed, "samples": samples}
    if observed == 0:
        return Agreement(1.0, None, {**stats, "note": "observed disorder is 0"})
    chance = []
    for s in range(samples):
        p = CatParts()
        for d in docs:
            if d.cat_samples.get(category):
                p.add(d.cat_samples[category][s])
        chance.append(p.value)
    d_e = float(np.mean(chance)) if chance else 0.0
    stats["D_e"] = d_e
    if d_e == 0:
        return undefined(f"{name} is undefined: the chance disorder is 0", **stats)
    return Agreement(1.0 - observed / d_e, None, stats)


def continuum_key(cs: Sequence[Continuum], *extra: Any) -> str:
    """A content hash of continua and parameters, for caching results."""
    h = hashlib.sha256()
    for c in cs:
        for arr in (c.start, c.end, c.ann, c.cat):
            h.update(np.ascontiguousarray(arr).tobytes())
        h.update(str(c.n_annotators).encode())
    h.update(repr(extra).encode())
    return h.hexdigest()
