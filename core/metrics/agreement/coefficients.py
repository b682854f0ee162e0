"""Chance-corrected agreement coefficients over coded items: Cohen's κ, Fleiss' κ, Krippendorff's α.

Every function takes counts or a reliability table (items already built, see
:mod:`core.metrics.agreement.study` for how spans become items) and returns an :class:`Agreement`:
the value, or ``None`` with a ``reason`` when the coefficient is undefined (a label nobody used,
fewer than two coders on every item, expected disagreement 0). Nothing here raises on such data, so
a dashboard can show the reason instead of a traceback.

Definitions (``docs/agreement.md``):

* Cohen (1960), eq. 1: ``κ = (p_o − p_e) / (1 − p_e)`` with ``p_e = Σ_c p_A(c) p_B(c)``.
* Fleiss (1971), eqs. 2–9: ``κ = (P̄ − P_e) / (1 − P_e)``; per category
  ``κ_j = 1 − Σ_i n_ij (n − n_ij) / (N n (n − 1) p_j q_j)``.
* Krippendorff (2011, "Computing Krippendorff's Alpha-Reliability"): ``α = 1 − D_o / D_e`` from
  the coincidence matrix of pairable values, missing values allowed, with the nominal, ordinal,
  interval and ratio difference functions δ².
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from core.model.errors import check_choice

Level = Literal["nominal", "ordinal", "interval", "ratio"]
LEVELS: tuple[Level, ...] = ("nominal", "ordinal", "interval", "ratio")


@dataclass(frozen=True)
class Agreement:
    """One agreement value with the numbers it came from.

    ``value`` is ``None`` exactly when the coefficient is undefined, and then ``reason`` says why.
    ``stats`` holds the components (observed and expected agreement or disagreement, item counts).

    >>> Agreement(0.5, stats={"p_o": 0.75}).as_dict()
    {'value': 0.5, 'p_o': 0.75}
    >>> undefined("no item has two coders").as_dict()
    {'value': None, 'reason': 'no item has two coders'}
    """

    value: float | None
    reason: str | None = None
    stats: Mapping[str, Any] = field(default_factory=dict)

    @property
    def defined(self) -> bool:
        return self.value is not None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value}
        if self.reason is not None:
            out["reason"] = self.reason
        out.update(self.stats)
        return out


def undefined(reason: str, **stats: Any) -> Agreement:
    """An undefined coefficient: no value, a reason a user can act on."""
    return Agreement(None, reason, stats)


def _ratio_agreement(p_o: float, p_e: float, stats: dict[str, Any], what: str) -> Agreement:
    if math.isclose(p_e, 1.0, rel_tol=0.0, abs_tol=1e-12):
        if what == "Fleiss' kappa":  # any number of annotators; present/absent both ways
            return undefined(
                f"{what} is undefined: expected agreement is 1 (every annotator gave every item "
                "one and the same value: a label nobody used, or one every annotator used "
                "everywhere)", **stats)
        return undefined(
            f"{what} is undefined: expected agreement is 1 (both coders used one and the same "
            "value on every item, e.g. a label nobody used)", **stats)
    return Agreement((p_o - p_e) / (1.0 - p_e), None, stats)


def cohen_kappa_from_table(table: NDArray[np.floating[Any]] | Sequence[Sequence[float]]
                           ) -> Agreement:
    """Cohen's κ from a k×k contingency table (rows: coder 1's category, columns: coder 2's).

    Cohen (1960), eq. 1; the example is his p. 45 table (κ = 0.492).

    >>> k = cohen_kappa_from_table([[88, 14, 18], [10, 40, 10], [2, 6, 12]])
    >>> round(k.value, 4), k.stats["p_o"], round(k.stats["p_e"], 2)
    (0.4915, 0.7, 0.41)
    """
    t = np.asarray(table, dtype=float)
    n = float(t.sum())
    if n == 0:
        return undefined("Cohen's kappa is undefined: no items", items=0)
    p_o = float(np.trace(t)) / n
    p_e = float(t.sum(axis=1) @ t.sum(axis=0)) / (n * n)
    return _ratio_agreement(p_o, p_e, {"p_o": p_o, "p_e": p_e, "items": int(n)}, "Cohen's kappa")


def cohen_kappa_binary(n11: int, n10: int, n01: int, n00: int) -> Agreement:
    """Cohen's κ for two coders and one yes/no question from its four counts.

    ``n10`` counts items coder 1 marked and coder 2 did not. Used per label for characters and
    documents, where the counts of all documents add up (sufficient statistics).

    Computed with plain floats (it runs once per document and pair): the same operations as
    :func:`cohen_kappa_from_table` on the 2×2 table, exact while the counts and ``n²`` stay
    below 2**53, so the values are identical.

    >>> round(cohen_kappa_binary(1, 1, 3, 5).value, 4)
    0.0909
    """
    a, b, c, d = float(n11), float(n10), float(n01), float(n00)
    n = a + b + c + d
    if n == 0:
        return undefined("Cohen's kappa is undefined: no items", items=0)
    p_o = (a + d) / n
    p_e = ((a + b) * (a + c) + (c + d) * (b + d)) / (n * n)
    return _ratio_agreement(p_o, p_e, {"p_o": p_o, "p_e": p_e, "items": int(n)}, "Cohen's kappa")


def cohen_kappa(coder1: Sequence[Hashable], coder2: Sequence[Hashable]) -> Agreement:
    """Cohen's κ of two equally long, complete sequences of codes.

    >>> round(cohen_kappa("aabbbbbccccc", "abbbbbcccccc").value, 4)
    0.7241
    """
    if len(coder1) != len(coder2):
        raise ValueError(f"the two coders code different numbers of items: "
                         f"{len(coder1)} and {len(coder2)}")
    cats = sorted(set(coder1) | set(coder2), key=repr)
    index = {c: i for i, c in enumerate(cats)}
    table = np.zeros((len(cats), len(cats)))
    for a, b in zip(coder1, coder2, strict=True):
        table[index[a], index[b]] += 1
    return cohen_kappa_from_table(table)


def fleiss_kappa(counts: NDArray[np.integer[Any]] | Sequence[Sequence[int]],
                 categories: Sequence[Hashable] | None = None) -> Agreement:
    """Fleiss' κ from a subjects × categories table of how many raters chose each category.

    Every subject must have the same number of ratings n ≥ 2 (Fleiss 1971 assumes complete data;
    use Krippendorff's α when ratings are missing). ``stats['category_kappa']`` holds κ_j per
    category (eq. 9); a category nobody used has no κ_j.

    >>> round(fleiss_kappa([[2, 0], [1, 1], [0, 2]]).value, 4)
    0.3333
    """
    t = np.asarray(counts, dtype=float)
    if t.ndim != 2 or t.shape[0] == 0:
        return undefined("Fleiss' kappa is undefined: no subjects", subjects=0)
    per_subject = t.sum(axis=1)
    n = float(per_subject[0])
    if not np.all(per_subject == n):
        raise ValueError("Fleiss' kappa needs the same number of ratings for every subject; "
                         f"got between {int(per_subject.min())} and {int(per_subject.max())}")
    n_subjects = t.shape[0]
    if n < 2:
        return undefined("Fleiss' kappa is undefined: fewer than two ratings per subject",
                         subjects=n_subjects, raters=int(n))
    p_i = ((t * t).sum(axis=1) - n) / (n * (n - 1))
    p_bar = float(p_i.mean())
    p_j = t.sum(axis=0) / (n_subjects * n)
    p_e = float((p_j * p_j).sum())
    names = list(categories) if categories is not None else list(range(t.shape[1]))
    cat_kappa: dict[str, float | None] = {}
    for j, name in enumerate(names):
        q = p_j[j] * (1 - p_j[j])
        if q == 0:
            cat_kappa[str(name)] = None
        else:
            disagree = float((t[:, j] * (n - t[:, j])).sum())
            cat_kappa[str(name)] = 1.0 - disagree / (n_subjects * n * (n - 1) * q)
    stats = {"P_bar": p_bar, "P_e": p_e, "subjects": n_subjects, "raters": int(n),
             "category_kappa": cat_kappa}
    return _ratio_agreement(p_bar, p_e, stats, "Fleiss' kappa")


def fleiss_kappa_rows(counts: NDArray[np.floating[Any]], categories: Sequence[Hashable]
                      ) -> list[Agreement]:
    """:func:`fleiss_kappa` of each table ``counts[i]`` (tables × subjects × categories), at
    once: the per-document values of a corpus without a NumPy call per document.

    The same operations in the same order as :func:`fleiss_kappa`, each over the last axis of a
    contiguous array (the axis one table's reduction runs along), so every value is the same
    float (``tests/agreement/test_coefficients_rows.py``). Tables whose subjects do not all
    have the same number (≥ 2) of ratings go through :func:`fleiss_kappa` itself.

    >>> [round(k.value, 4) for k in fleiss_kappa_rows(np.array([[[2., 0], [1, 1], [0, 2]]]),
    ...                                               ["a", "b"])]
    [0.3333]
    """
    t = np.ascontiguousarray(counts, dtype=float)
    if t.ndim != 3 or t.shape[1] == 0:
        return [fleiss_kappa(table, categories) for table in t]
    n_subjects = t.shape[1]
    regular, n, p_bar, p_j, p_e = _fleiss_arrays(t)
    q = p_j * (1 - p_j)
    disagree = (t * (n[:, None, None] - t)).sum(axis=1)  # integers: exact in any order
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa_j = 1.0 - disagree / ((n_subjects * n * (n - 1))[:, None] * q)
    undefined_j = (q == 0).tolist()
    names = [str(c) for c in categories]
    out = []
    for i in range(t.shape[0]):
        if not regular[i]:
            out.append(fleiss_kappa(t[i], categories))
            continue
        ni = n[i]
        row, none = kappa_j[i], undefined_j[i]
        cat_kappa: dict[str, float | None] = {
            name: None if none[j] else row[j] for j, name in enumerate(names)}
        stats = {"P_bar": float(p_bar[i]), "P_e": float(p_e[i]), "subjects": n_subjects,
                 "raters": int(ni), "category_kappa": cat_kappa}
        out.append(_ratio_agreement(float(p_bar[i]), float(p_e[i]), stats, "Fleiss' kappa"))
    return out


def _fleiss_arrays(t: NDArray[np.floating[Any]]
                   ) -> tuple[NDArray[np.bool_], NDArray[Any], NDArray[Any], NDArray[Any],
                              NDArray[Any]]:
    """Of each table ``t[i]`` (contiguous, tables × subjects × categories): whether every
    subject has the same number n ≥ 2 of ratings, n (2 where not), P̄, p_j and P_e, as
    :func:`fleiss_kappa` computes them."""
    n_subjects = t.shape[1]
    per_subject = t.sum(axis=2)
    n = per_subject[:, 0]
    regular = np.all(per_subject == n[:, None], axis=1) & (n >= 2)
    n = np.where(regular, n, 2.0)  # the others are computed one by one
    p_i = ((t * t).sum(axis=2) - n[:, None]) / (n * (n - 1))[:, None]
    p_bar = p_i.mean(axis=1)
    p_j = t.sum(axis=1) / (n_subjects * n)[:, None]
    p_e = (p_j * p_j).sum(axis=1)
    return regular, n, p_bar, p_j, p_e


def _ratio_values(p_o: NDArray[Any], p_e: NDArray[Any], what: str
                  ) -> tuple[list[float | None], list[str | None]]:
    """:func:`_ratio_agreement`'s value and reason of each ``(p_o[i], p_e[i])``: the same
    operations on doubles element by element, so the same floats."""
    # math.isclose(p_e, 1.0, rel_tol=0.0, abs_tol=1e-12) of a finite p_e
    none = (np.abs(p_e - 1.0) <= 1e-12).tolist()
    with np.errstate(divide="ignore", invalid="ignore"):
        value = ((p_o - p_e) / (1.0 - p_e)).tolist()
    reason: list[str | None] = [None] * len(value)
    for i in np.flatnonzero(none).tolist():
        got = _ratio_agreement(float(p_o[i]), float(p_e[i]), {}, what)
        value[i], reason[i] = got.value, got.reason
    return value, reason


def fleiss_kappa_values(counts: NDArray[np.floating[Any]], categories: Sequence[Hashable]
                        ) -> tuple[list[float | None], list[str | None]]:
    """The value and reason of each :class:`Agreement` of :func:`fleiss_kappa_rows`, without
    building them (an object and a dictionary per document: most of the time of the
    per-document values of a corpus); the same floats
    (``tests/agreement/test_coefficients_rows.py``).

    >>> fleiss_kappa_values(np.array([[[2., 0], [0, 2]], [[2., 0], [2, 0]]]), ["a", "b"])[0]
    [1.0, None]
    """
    t = np.ascontiguousarray(counts, dtype=float)
    if t.ndim != 3 or t.shape[1] == 0 or not np.all(np.isfinite(t)):
        rows = fleiss_kappa_rows(t, categories)
        return [a.value for a in rows], [a.reason for a in rows]
    regular, _, p_bar, _, p_e = _fleiss_arrays(t)
    value, reason = _ratio_values(p_bar, p_e, "Fleiss' kappa")
    for i in np.flatnonzero(~regular).tolist():
        got = fleiss_kappa(t[i], categories)
        value[i], reason[i] = got.value, got.reason
    return value, reason


def fleiss_kappa_from_ratings(ratings: Sequence[Sequence[Hashable]]) -> Agreement:
    """Fleiss' κ from one row of (anonymous) ratings per subject.

    >>> round(fleiss_kappa_from_ratings([["a", "a"], ["a", "b"], ["b", "b"]]).value, 4)
    0.3333
    """
    cats = sorted({r for row in ratings for r in row}, key=repr)
    index = {c: i for i, c in enumerate(cats)}
    table = np.zeros((len(ratings), len(cats)), dtype=int)
    for i, row in enumerate(ratings):
        for r in row:
            table[i, index[r]] += 1
    return fleiss_kappa(table, cats)


def _is_missing(v: object) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def krippendorff_alpha(reliability_data: Sequence[Sequence[Any]], *,
                       level: Level = "nominal") -> Agreement:
    """Krippendorff's α of a coders × units table; ``None`` (or NaN) marks a missing value.

    Builds the coincidence matrix ``o_ck = Σ_u (pairs c–k in unit u) / (m_u − 1)`` over units with
    at least two values, then ``α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck`` (Krippendorff 2011,
    §C). Ordinal, interval and ratio need numeric values.

    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    ...         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    >>> nominal = krippendorff_alpha(data)
    >>> round(nominal.value, 3), round(krippendorff_alpha(data, level="interval").value, 3)
    (0.743, 0.849)
    """
    check_choice("level", "krippendorff_alpha", level, LEVELS)
    values = sorted({v for row in reliability_data for v in row if not _is_missing(v)},
                    key=lambda v: (0, v) if isinstance(v, (int, float)) else (1, repr(v)))
    if level != "nominal":
        bad = [v for v in values if not isinstance(v, (int, float)) or isinstance(v, bool)]
        if bad:
            raise ValueError(f"Krippendorff's alpha at the {level} level needs numeric values; "
                             f"got {bad[0]!r}")
    index = {v: i for i, v in enumerate(values)}
    n_units = max((len(row) for row in reliability_data), default=0)
    counts = np.zeros((n_units, len(values)))
    for row in reliability_data:
        for u, v in enumerate(row):
            if not _is_missing(v):
                counts[u, index[v]] += 1
    return krippendorff_alpha_from_counts(counts, values, level=level)


def krippendorff_alpha_from_counts(counts: NDArray[np.floating[Any]], values: Sequence[Any], *,
                                   level: Level = "nominal") -> Agreement:
    """Krippendorff's α from a units × values table of how many coders gave each value.

    The vectorised core of :func:`krippendorff_alpha` (also used for character and document
    items, where building a coder table would be wasteful).
    """
    m_u = counts.sum(axis=1)
    pairable = m_u >= 2
    if not pairable.any():
        return undefined("Krippendorff's alpha is undefined: no unit has values from two coders",
                         pairable_units=0)
    c = counts[pairable]
    w = 1.0 / (m_u[pairable] - 1.0)
    coincidence = (c * w[:, None]).T @ c - np.diag((c * w[:, None]).sum(axis=0))
    n_c = coincidence.sum(axis=1)
    n = float(n_c.sum())
    delta = _delta2(np.asarray(values, dtype=object), n_c, level)
    d_o = float((coincidence * delta).sum()) / n
    d_e = float(np.outer(n_c, n_c).__mul__(delta).sum()) / (n * (n - 1)) if n > 1 else 0.0
    stats = {"D_o": d_o, "D_e": d_e, "pairable_units": int(pairable.sum()), "pairable_values": n,
             "level": level}
    if d_e == 0.0:
        return undefined("Krippendorff's alpha is undefined: expected disagreement is 0 (every "
                         "pairable value is the same, e.g. a label nobody used)", **stats)
    return Agreement(1.0 - d_o / d_e, None, stats)


def krippendorff_alpha_rows(counts: NDArray[np.floating[Any]], values: Sequence[Any]
                            ) -> list[Agreement]:
    """:func:`krippendorff_alpha_from_counts` (nominal) of each table ``counts[i]`` (tables ×
    units × values, integer counts), at once: the per-document values of a corpus.

    Where every pairable unit has ``m_u − 1`` coders a power of two (two, three or five coders:
    the pairs of the dashboard's matrix and three annotators), every term of the coincidence
    matrix is a multiple of a power of two and every sum is exact, so the order of the sums
    does not matter and the values are the same floats as one table at a time; other tables
    go through :func:`krippendorff_alpha_from_counts` itself
    (``tests/agreement/test_coefficients_rows.py``).

    >>> [round(a.value, 4) for a in krippendorff_alpha_rows(
    ...     np.array([[[2., 0], [1, 1], [0, 2]]]), ["absent", "present"])]
    [0.4444]
    """
    c = np.ascontiguousarray(counts, dtype=float)
    if c.ndim != 3 or c.shape[2] != 2:
        return [krippendorff_alpha_from_counts(table, values) for table in c]
    dyadic, o01, o10, n_c0, n_c1, n, units = _krippendorff_arrays(c)
    out = []
    for i in range(c.shape[0]):
        if not dyadic[i]:
            out.append(krippendorff_alpha_from_counts(c[i], values))
            continue
        if not units[i]:
            out.append(undefined("Krippendorff's alpha is undefined: no unit has values from "
                                 "two coders", pairable_units=0))
            continue
        ni = float(n[i])
        d_o = float(o01[i] + o10[i]) / ni
        d_e = float(n_c0[i] * n_c1[i] + n_c1[i] * n_c0[i]) / (ni * (ni - 1)) if ni > 1 else 0.0
        stats = {"D_o": d_o, "D_e": d_e, "pairable_units": units[i], "pairable_values": ni,
                 "level": "nominal"}
        if d_e == 0.0:
            out.append(undefined(_ALPHA_NO_DE, **stats))
        else:
            out.append(Agreement(1.0 - d_o / d_e, None, stats))
    return out


_ALPHA_NO_DE = ("Krippendorff's alpha is undefined: expected disagreement is 0 (every pairable "
                "value is the same, e.g. a label nobody used)")


def _krippendorff_arrays(c: NDArray[np.floating[Any]]) -> tuple[Any, ...]:
    """Of each table ``c[i]`` (contiguous, tables × units × 2 values): whether every pairable
    unit's ``m_u − 1`` is a power of two, the coincidences o01 and o10, the value totals
    n_c0 and n_c1, their sum n, and the number of pairable units (a list)."""
    m_u = c.sum(axis=2)
    pairable = m_u >= 2
    steps = np.where(pairable, m_u - 1.0, 1.0)
    _, exponent = np.frexp(steps)
    dyadic = np.all(steps == np.ldexp(0.5, exponent), axis=1)  # m_u − 1 = 2**k
    w = np.where(pairable, 1.0 / steps, 0.0)
    wc = c * w[:, :, None]
    # o[x, y] = Σ_u w_u c_ux c_uy − [x = y] Σ_u w_u c_ux, the coincidence matrix (nominal δ²).
    o01 = (wc[:, :, 0] * c[:, :, 1]).sum(axis=1)
    o10 = (wc[:, :, 1] * c[:, :, 0]).sum(axis=1)
    o00 = (wc[:, :, 0] * c[:, :, 0]).sum(axis=1) - wc[:, :, 0].sum(axis=1)
    o11 = (wc[:, :, 1] * c[:, :, 1]).sum(axis=1) - wc[:, :, 1].sum(axis=1)
    n_c0, n_c1 = o00 + o01, o10 + o11
    n = n_c0 + n_c1
    return dyadic, o01, o10, n_c0, n_c1, n, pairable.sum(axis=1).tolist()


def krippendorff_alpha_values(counts: NDArray[np.floating[Any]], values: Sequence[Any]
                              ) -> tuple[list[float | None], list[str | None]]:
    """The value and reason of each :class:`Agreement` of :func:`krippendorff_alpha_rows`,
    without building them; the same floats (the same operations on doubles element by
    element; ``tests/agreement/test_coefficients_rows.py``).

    >>> krippendorff_alpha_values(np.array([[[2., 0], [1, 1], [0, 2]]]), ["absent", "present"])
    ([0.4444444444444444], [None])
    """
    c = np.ascontiguousarray(counts, dtype=float)
    if c.ndim != 3 or c.shape[2] != 2 or not np.all(np.isfinite(c)):
        rows = krippendorff_alpha_rows(c, values)
        return [a.value for a in rows], [a.reason for a in rows]
    dyadic, o01, o10, n_c0, n_c1, n, units = _krippendorff_arrays(c)
    with np.errstate(divide="ignore", invalid="ignore"):
        d_o = (o01 + o10) / n
        d_e = np.where(n > 1, (n_c0 * n_c1 + n_c1 * n_c0) / (n * (n - 1)), 0.0)
        alpha = (1.0 - d_o / d_e).tolist()
    no_de = (d_e == 0.0).tolist()
    out: list[float | None] = list(alpha)
    reason: list[str | None] = [None] * len(out)
    for i in range(len(out)):
        if not dyadic[i]:
            got = krippendorff_alpha_from_counts(c[i], values)
            out[i], reason[i] = got.value, got.reason
        elif not units[i]:
            out[i], reason[i] = None, ("Krippendorff's alpha is undefined: no unit has values "
                                       "from two coders")
        elif no_de[i]:
            out[i], reason[i] = None, _ALPHA_NO_DE
    return out, reason


def _delta2(values: NDArray[Any], n_c: NDArray[np.floating[Any]], level: Level
            ) -> NDArray[np.floating[Any]]:
    """The squared difference function δ²(c, k) of Krippendorff (2011), §C."""
    k = len(values)
    if level == "nominal":
        return 1.0 - np.eye(k)
    x = values.astype(float)
    if level == "interval":
        return np.subtract.outer(x, x) ** 2
    if level == "ratio":
        total = np.add.outer(x, x)
        with np.errstate(divide="ignore", invalid="ignore"):
            d = (np.subtract.outer(x, x) / total) ** 2
        return np.where(total == 0, 0.0, d)
    # ordinal: (Σ_{g between c and k} n_g − (n_c + n_k)/2)², values sorted ascending
    cum = np.concatenate([[0.0], np.cumsum(n_c)])
    lo = np.minimum.outer(np.arange(k), np.arange(k))
    hi = np.maximum.outer(np.arange(k), np.arange(k))
    between = cum[hi + 1] - cum[lo]
    return (between - (n_c[lo] + n_c[hi]) / 2.0) ** 2
