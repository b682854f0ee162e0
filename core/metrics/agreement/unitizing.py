"""Krippendorff's unitizing alpha (α_U) for labelled character spans.

The 1995/2004 coefficient as DKPro Statistics and INCEpTION compute it
(``docs/agreement.md``; Krippendorff 1995, *Sociological Methodology* 25;
Krippendorff 2004, *Quality & Quantity* 38:787–800, and *Content Analysis* 2nd ed. p. 251–256).
Per category c, on one continuum of length L coded by m coders:

* each coder's continuum is cut into c-units and gaps (everything else);
* ``D_o,c = Σ_{i≠j} Σ_g Σ_h δ(g, h) / (m (m − 1) L²)`` where δ between a segment of coder i and one
  of coder j is ``(b_g − b_h)² + (e_g − e_h)²`` for two overlapping units, ``l²`` for a unit lying
  entirely inside the other coder's gap, and 0 otherwise;
* ``D_e,c = (2/L) Σ_u [ (N_c − 1)(2l_u³ − 3l_u² + l_u)/3
  + l_u² Σ_{gaps γ, l_γ ≥ l_u} (l_γ − l_u + 1) ] / [ mL(mL − 1) − Σ_u l_u (l_u − 1) ]``
  with N_c the number of c-units of all coders;
* ``α_U,c = 1 − D_o,c / D_e,c`` and overall ``α_U = 1 − Σ_c D_o,c / Σ_c D_e,c``
  (DKPro's convention).

A corpus is one continuum: its documents laid end to end (so a gap at the end of one document and
at the start of the next is one gap). Units of one category by one coder may not overlap; like
INCEpTION we keep the first and, among those starting together, the longest, and count the rest
as dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.metrics.agreement.coefficients import Agreement, undefined

Unit = tuple[int, int]
"""A unit as ``(start, end)``, end exclusive."""


def segment_distance(g: tuple[int, int, str | None], h: tuple[int, int, str | None]) -> int:
    """δ between two segments given as ``(begin, length, category or None for a gap)``.

    Krippendorff (2004); the examples are the ones DKPro's tests assert.

    >>> segment_distance((225, 70, "c"), (220, 80, "c"))
    50
    >>> segment_distance((400, 50, None), (400, 20, "c"))
    400
    >>> segment_distance((5, 6, "X"), (4, 7, None))
    36
    """
    (bg, lg, cg), (bh, lh, ch) = g, h
    eg, eh = bg + lg, bh + lh
    if cg is not None and ch is not None:
        if min(eg, eh) > max(bg, bh):
            return (bg - bh) ** 2 + (eg - eh) ** 2
        return 0
    if cg is not None and ch is None and bh <= bg and eg <= eh:
        return lg * lg
    if ch is not None and cg is None and bg <= bh and eh <= eg:
        return lh * lh
    return 0


def drop_self_overlaps(units: Sequence[Unit]) -> tuple[list[Unit], int]:
    """Keep the first (and, on a tie, the longest) of overlapping units; return kept and dropped.

    >>> drop_self_overlaps([(0, 5), (2, 8), (0, 9), (9, 10)])
    ([(0, 9), (9, 10)], 2)
    """
    ordered = sorted(set(units), key=lambda u: (u[0], -(u[1] - u[0])))
    kept: list[Unit] = []
    reach = -1
    for u in ordered:
        if u[0] >= reach:
            kept.append(u)
            reach = u[1]
    return kept, len(units) - len(kept)


_SMALL = 4096
"""Up to this many unit pairs :func:`_observed_sum` compares all pairs at once (fewer numpy
calls); above, it pairs by binary search (the table would grow with the square of the units).
Both give the same sum: every term is an integer."""


def _overlapping(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i, j) with a[i] and b[j] overlapping; the rows of ``a`` and of ``b`` are
    (start, end) units sorted by start and non-overlapping, so their ends are sorted too and
    the partners of a[i] are the contiguous run of b that ends after a[i] starts and starts
    before it ends (two binary searches instead of an all-pairs table: linear in the output).
    """
    lo = np.searchsorted(b[:, 1], a[:, 0], side="right")
    hi = np.searchsorted(b[:, 0], a[:, 1], side="left")
    counts = np.maximum(hi - lo, 0)
    i = np.repeat(np.arange(len(a)), counts)
    j = np.repeat(lo - (np.cumsum(counts) - counts), counts) + np.arange(int(counts.sum()))
    return i, j


def _observed_sum(coders: Sequence[Sequence[Unit]]) -> float:
    """Σ_{i≠j} Σ_g Σ_h δ(g, h) for one category; each coder's units sorted, non-overlapping.

    δ of two overlapping units is (Δstart)² + (Δend)²; a unit that overlaps none of the other
    coder's units is compared with a gap and counts its length squared (Krippendorff 2004)."""
    arrays = [np.asarray(units, dtype=float).reshape(-1, 2) for units in coders]
    total = 0.0
    for x in range(len(arrays)):
        for y in range(x + 1, len(arrays)):
            a, b = arrays[x], arrays[y]
            if not len(a) or not len(b):
                pair = 0.0
                lone_a, lone_b = np.ones(len(a), dtype=bool), np.ones(len(b), dtype=bool)
            elif len(a) * len(b) <= _SMALL:  # one document: the all-pairs table is quicker
                over = np.minimum.outer(a[:, 1], b[:, 1]) > np.maximum.outer(a[:, 0], b[:, 0])
                d = (np.subtract.outer(a[:, 0], b[:, 0]) ** 2
                     + np.subtract.outer(a[:, 1], b[:, 1]) ** 2)
                pair = float((d * over).sum())
                lone_a, lone_b = ~over.any(axis=1), ~over.any(axis=0)
            else:
                i, j = _overlapping(a, b)
                pair = float(((a[i, 0] - b[j, 0]) ** 2 + (a[i, 1] - b[j, 1]) ** 2).sum())
                lone_a = np.bincount(i, minlength=len(a)) == 0
                lone_b = np.bincount(j, minlength=len(b)) == 0
            lone = float((((a[:, 1] - a[:, 0]) ** 2) * lone_a).sum()
                         + (((b[:, 1] - b[:, 0]) ** 2) * lone_b).sum())
            total += 2.0 * (pair + lone)  # ordered pairs (i, j) and (j, i) contribute alike
    return total


def _gaps(units: Sequence[Unit], begin: int, end: int) -> list[int]:
    out: list[int] = []
    pos = begin
    for s, e in units:
        if s > pos:
            out.append(s - pos)
        pos = max(pos, e)
    if end > pos:
        out.append(end - pos)
    return out


def _expected(coders: Sequence[Sequence[Unit]], begin: int, end: int) -> float:
    """D_e,c of Krippendorff (2004), eq. for the expected disagreement of one category."""
    length = float(end - begin)
    m = len(coders)
    lens = np.array([e - s for units in coders for s, e in units], dtype=float)
    if len(lens) == 0:
        return 0.0
    gaps = np.sort(np.array([g for units in coders for g in _gaps(units, begin, end)],
                            dtype=float))
    n_c = float(len(lens))
    # Σ_{gaps ≥ l} (l_γ − l + 1) from sorted gaps and suffix sums
    suffix = np.concatenate([np.cumsum(gaps[::-1])[::-1], [0.0]])
    first = np.searchsorted(gaps, lens, side="left")
    count = len(gaps) - first
    gap_term = suffix[first] - (lens - 1.0) * count
    numer = ((n_c - 1.0) * (2 * lens ** 3 - 3 * lens ** 2 + lens) / 3.0
             + lens ** 2 * gap_term).sum()
    denom = m * length * (m * length - 1.0) - float((lens * (lens - 1.0)).sum())
    return float((2.0 / length) * numer / denom)


@dataclass(frozen=True)
class UnitizingParts:
    """D_o and D_e of one category on one continuum, with what was used."""

    d_o: float
    d_e: float
    units: int
    dropped: int


def _cleaned(coders: Sequence[Sequence[Unit]]) -> tuple[list[list[Unit]], int]:
    """Each coder's units without its self-overlaps (:func:`drop_self_overlaps`), and how many
    units were dropped in all."""
    cleaned: list[list[Unit]] = []
    dropped = 0
    for units in coders:
        kept, lost = drop_self_overlaps(units)
        cleaned.append(kept)
        dropped += lost
    return cleaned, dropped


def category_parts(coders: Sequence[Sequence[Unit]], begin: int, end: int) -> UnitizingParts:
    """D_o,c and D_e,c of one category; ``coders[i]`` are coder i's units of that category.

    >>> p = category_parts([[(225, 295), (370, 400)], [(220, 300), (355, 375), (400, 420)]],
    ...                    150, 450)
    >>> round(p.d_o, 5), round(p.d_e, 5)
    (0.01444, 0.05322)
    """
    cleaned, dropped = _cleaned(coders)
    m = len(cleaned)
    length = float(end - begin)
    if m < 2 or length <= 0:
        return UnitizingParts(0.0, 0.0, sum(map(len, cleaned)), dropped)
    d_o = _observed_sum(cleaned) / (m * (m - 1) * length * length)
    return UnitizingParts(d_o, _expected(cleaned, begin, end), sum(map(len, cleaned)), dropped)


_FEW = 8
"""Below this many units of one category on one continuum :func:`few_parts` computes its parts
in plain Python: NumPy sums fewer than 8 doubles from left to right, as Python does, so the
floats are those of :func:`category_parts`; from 8 on NumPy sums in blocks."""

_EXACT = 2**20
"""Continua up to this length keep every sum of :func:`few_parts` below 2**53 (squared
distances, cubed unit lengths times the number of units), where doubles add exactly."""


def few_parts(coders: Sequence[Sequence[Unit]], length: int) -> UnitizingParts | None:
    """:func:`category_parts` of ``coders`` on ``[0, length)``, the same floats, in plain Python
    for a handful of units (the per-document values: a category has a few units in one
    document, where NumPy's calls cost more than the arithmetic). ``None`` when this shortcut
    does not apply (:data:`_FEW` units or more once :func:`drop_self_overlaps` kept each coder's,
    or twice as many before, a continuum longer than :data:`_EXACT` or empty, fewer than two
    coders); the caller then calls :func:`category_parts`.

    >>> units = [[(225, 295), (370, 400)], [(220, 300), (355, 375), (400, 420)]]
    >>> shifted = [[(s - 150, e - 150) for s, e in c] for c in units]
    >>> few_parts(shifted, 300) == category_parts(units, 150, 450)
    True
    """
    m = len(coders)
    if m < 2 or not 0 < length <= _EXACT or sum(map(len, coders)) >= 2 * _FEW:
        return None
    cleaned, dropped = _cleaned(coders)
    n_c = sum(map(len, cleaned))
    if n_c >= _FEW:
        return None
    # D_o: every term is an integer (Krippendorff 2004; _observed_sum adds them as doubles,
    # exactly below 2**53)
    total = 0
    for x in range(m):
        for y in range(x + 1, m):
            a, b = cleaned[x], cleaned[y]
            pair = lone = 0
            hit_b = [False] * len(b)
            for sa, ea in a:
                hit = False
                for j, (sb, eb) in enumerate(b):
                    if min(ea, eb) > max(sa, sb):
                        pair += (sa - sb) ** 2 + (ea - eb) ** 2
                        hit = hit_b[j] = True
                if not hit:
                    lone += (ea - sa) ** 2
            lone += sum((eb - sb) ** 2 for (sb, eb), h in zip(b, hit_b, strict=True) if not h)
            total += 2 * (pair + lone)
    size = float(length)
    d_o = float(total) / (m * (m - 1) * size * size)
    if not n_c:
        return UnitizingParts(d_o, 0.0, 0, dropped)
    # D_e as _expected computes it, operation for operation on the same doubles
    lens = [float(e - s) for units in cleaned for s, e in units]
    gaps: list[int] = []
    for units in cleaned:
        gaps += _gaps(units, 0, length)
    count_c = float(n_c)
    numer = 0.0
    for ln in lens:
        wide = [g for g in gaps if g >= ln]
        gap_term = float(sum(wide)) - (ln - 1.0) * len(wide)  # integers: exact
        numer += ((count_c - 1.0) * (2 * ln ** 3 - 3 * ln ** 2 + ln) / 3.0
                  + ln ** 2 * gap_term)
    denom = m * size * (m * size - 1.0) - float(sum(ln * (ln - 1.0) for ln in lens))
    if denom == 0:
        return None
    return UnitizingParts(d_o, float((2.0 / size) * numer / denom), n_c, dropped)


def alpha_from_parts(parts: dict[str, UnitizingParts]) -> tuple[Agreement, dict[str, Agreement]]:
    """Overall α_U (1 − Σ D_o / Σ D_e) and per-category α_U,c from their parts."""
    per: dict[str, Agreement] = {}
    for cat, p in parts.items():
        stats = {"D_o": p.d_o, "D_e": p.d_e, "units": p.units, "dropped_self_overlaps": p.dropped}
        if p.units == 0:
            per[cat] = undefined(f"unitizing alpha is undefined for {cat!r}: no coder marked a "
                                 "unit with this label", **stats)
        elif p.d_e == 0:
            per[cat] = undefined(f"unitizing alpha is undefined for {cat!r}: expected "
                                 "disagreement is 0", **stats)
        else:
            per[cat] = Agreement(1.0 - p.d_o / p.d_e, None, stats)
    d_o = sum(p.d_o for p in parts.values())
    d_e = sum(p.d_e for p in parts.values())
    stats = {"D_o": d_o, "D_e": d_e, "units": sum(p.units for p in parts.values()),
             "dropped_self_overlaps": sum(p.dropped for p in parts.values())}
    if d_e == 0:
        overall = undefined("unitizing alpha is undefined: no coder marked any unit", **stats)
    else:
        overall = Agreement(1.0 - d_o / d_e, None, stats)
    return overall, per


def unitizing_alpha(annotations: Sequence[tuple[str, int, int, str]], begin: int, end: int,
                    coders: Sequence[str] | None = None
                    ) -> tuple[Agreement, dict[str, Agreement]]:
    """α_U of annotations ``(coder, start, end, category)`` on the continuum ``[begin, end)``.

    ``coders`` lists every coder (a coder without any unit still counts); default: those seen.

    >>> ann = [("0", 225, 295, "c"), ("0", 370, 400, "c"), ("1", 220, 300, "c"),
    ...        ("1", 355, 375, "c"), ("1", 400, 420, "c"), ("0", 180, 240, "k"),
    ...        ("0", 300, 350, "k"), ("1", 180, 240, "k"), ("1", 300, 350, "k")]
    >>> overall, per = unitizing_alpha(ann, 150, 450)
    >>> round(overall.value, 4), round(per["c"].value, 4), per["k"].value
    (0.8587, 0.7286, 1.0)
    """
    who = list(coders) if coders is not None else list(dict.fromkeys(a[0] for a in annotations))
    cats = sorted({a[3] for a in annotations})
    parts = {}
    for cat in cats:
        per_coder = [sorted((s, e) for c, s, e, k in annotations if c == coder and k == cat)
                     for coder in who]
        parts[cat] = category_parts(per_coder, begin, end)
    return alpha_from_parts(parts)
