"""The MAFALDA metric (Helwe et al. 2024): gold alternatives, ⊥, best match, levels 0/1/2.

What it measures
----------------
For one text, S are the predicted spans (one label each) and the gold 𝒯 = {T_1, T_2, …} is a
disjunction of alternatives (Definition 6): every gold span lists alternative labels, and the
label ⊥ (``nothing``) makes a span optional. With C(s, t, h) = |s∩t|/|h|·δ(l_s, l_t) (Da San
Martino et al. 2019), the paper (§5.2.2, App. D) defines::

    Precision(S, T) = 1/|S| · Σ_{s∈S} max_{t∈T} C(s, t, |s|)
    Recall(S, T)    = 1/|T⁻| · Σ_{t∈T⁻} max_{s∈S} C(s, t, |t|),   T⁻ = spans of T not labelled ⊥
    Precision(S, 𝒯) = max_T Precision(S, T);   Recall(S, 𝒯) = max_T Recall(S, T)
    F1 = 2PR / (P + R)

with P = 1 if |S| = 0 and |T⁻| = 0 (else 0), and R = 1 if |T⁻| = 0 and |S| = 0 (else 0). Scores
are computed per text and *averaged over texts* (F1 too: the mean of per-text F1s, not the F1 of
the means). The best match (a maximum instead of the sum over all pairs) keeps recall ≤ 1: in
App. D's Example 9 Martino's recall is 1.25 and MAFALDA's is 1.

Levels: labels are projected to level 1 (emotion / logic / credibility) or level 0 (fallacy or
not) before scoring (``core.model.taxonomy``); a prediction ``unknown`` is "no fallacy" at level 0.

Variants (``variant=``), measured on the official code (``docs/mafalda.md``)
---------------------------------------------------------------------------
``paper`` (default)
    Definition 6: every alternative chooses exactly one label per gold span, for precision and
    recall alike. With the ``paper-2023`` parsing of the released model outputs this reproduces
    the paper's Tables 7 and 9-14 (``docs/mafalda.md``).
``metrics-py``
    The repository's ``src/metrics.py``: precision maximises over alternatives that choose *any
    non-empty subset* of each span's labels (recall: one label). Differs from the paper's prose
    in that a gold span may offer several labels at once to precision.
``repo-head``
    What the repository's evaluator prints today (``src/new_metrics.py``; docs/mafalda.md,
    "Variants"): no alternatives; a prediction matches a gold span when its label is among the
    span's labels; spans that hold ⊥ leave recall's denominator; the text between gold spans becomes
    gold spans labelled None, which count in recall's denominator at levels 1 and 2 (so an exact
    match gets R = 0.5); and
    ``nothing`` predictions stay in precision's denominator.

Differences from the paper's prose that all official code shares: P and R are maximised
*independently* (the best alternative for P need not be the best for R); a text whose gold
allows no fallacy at all scores 1 only when nothing but ``nothing`` is predicted; and a
``nothing`` prediction on a text whose only gold span is optional gets R = 0, because the empty
alternative requires |S| = 0 and ``nothing`` spans count in |S| there.

Label-only metric (text level; docs/text-level.md): the set of predicted fallacy codes against each
alternative's set; P = tp/(tp+fp), R = tp/(tp+fn) (1 when both sets are empty and tp = 0,
else 0 when tp = 0), maximised over the precision alternatives (per variant) and the recall
alternatives (one label per span), F1 their harmonic mean; averaged over texts.

Exact without enumeration
-------------------------
The official code enumerates every alternative: the product of the spans' label counts (for
precision, of their non-empty subset counts), 3^40 for 40 spans of three labels. We compute the
same maxima directly:

* Recall: an alternative picks for span i a label; only the value a_i = max over its fallacy
  labels of max_s C(s, t_i, |t_i|) matters, and ⊥ removes the span from numerator and
  denominator. Mandatory spans contribute (a_i, 1); optional spans may contribute (b_i, 1) or
  nothing. A ratio (A + Σ_{i∈K} b_i)/(M + |K|) is maximised by a prefix K of the optional spans
  sorted by b_i descending (adding a larger b never lowers the best achievable ratio below
  adding a smaller one), so we try the k + 1 prefixes.
* Any-subset precision: the denominator does not depend on the alternative and offering more
  labels can only raise each prediction's best match, so the alternative offering every label
  of every span is optimal: a closed form.
* One-label precision: Σ_s max_{i: c_i = l_s} C(s, t_i, |s|) couples the label choices c_i of the
  gold spans a prediction overlaps. It is a max-sum problem over a graph whose nodes are gold
  spans, linked when one prediction overlaps both; we solve it exactly by variable elimination
  (min-degree order). Spans never linked are independent, so the cost is exponential only in the
  width of that graph (1 or 2 for predictions that overlap one or two gold spans), not in the
  number of spans.
* Label-only: the reachable sets of gold codes are built span by span (a set of sets), which
  is bounded by 2^(distinct labels of the text), a handful in practice.

A property test compares every variant with brute-force enumeration on thousands of random texts.

Worked example
--------------
App. D, Example 9, at level 1: the gold is one credibility span [0, 40); the predictions are
[0, 10) and [0, 40), both credibility. Martino sums both pairs, R = 10/40 + 40/40 = 1.25; the
best match keeps 40/40, R = 1. Example 5 (§5.2.1): a gold of four spans, one with the
alternatives fear | anger and one ad hominem | ⊥, has four alternatives T1..T4; a prediction
matching any of them scores P = R = 1.

Limitations
-----------
The average over texts gives a one-span text the weight of a long one, and an empty text
(nothing in gold, nothing predicted) scores 1, so corpora with many fallacy-free texts score
high for a silent system (the paper's silent baseline: level-0 F1 0.315). P and R are maximised
independently, so the reported pair need not come from one alternative. A prediction split in
pieces is credited with its best piece only. The official code's variants disagree on almost
every text (``docs/mafalda.md``): say which one a number comes from.

Citation: C. Helwe, T. Calamai, P.-H. Paris, C. Clavel, F. Suchanek. MAFALDA: A Benchmark and
Comprehensive Study of Fallacy Detection and Classification. NAACL 2024.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from core.metrics import result as mr
from core.metrics.mafalda_order import (
    GoldOrder,
    official_reading,
    uncovered_ranges,
    what_scores,
)
from core.metrics.mafalda_order import warnings as order_warnings
from core.metrics.overlap import SpanArrays, overlapping_pairs, span_arrays
from core.model import NOTHING, AnnotationSet, Span
from core.model.docsets import check_same_documents, check_sets
from core.model.errors import InputError, check_choice
from core.model.table import SpanTable
from core.model.taxonomy import Taxonomy, mafalda

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

VARIANTS = ("paper", "metrics-py", "repo-head")
LEVELS = (0, 1, 2)
CARD = __doc__

Interval = tuple[int, int]
Where = tuple[int, int] | None


@dataclass(frozen=True)
class _Text:
    """One text at one level: gold intervals with code sets, uncovered ranges, predictions."""

    gold: tuple[tuple[int, int, frozenset[int]], ...]
    uncovered: tuple[Interval, ...]  # official off-by-one "None" ranges (repo-head only)
    preds: tuple[tuple[int, int, int], ...]
    n_classes: int


def _ov(a: int, b: int, c: int, d: int) -> int:
    return max(0, min(b, d) - max(a, c))


def _ratio(inter: int, length: int) -> float:
    return inter / length if length > 0 else 0.0


def _place(aset: AnnotationSet) -> str:
    """Where a label outside the taxonomy was found, for the error (the file is the caller's:
    the command line checks the labels first, naming the file)."""
    return f"the {aset.role} set {aset.name!r}"


def _texts(gold: AnnotationSet, pred: AnnotationSet, texts: Mapping[str, str | None],
           tax: Taxonomy, level: int, order: Mapping[str, Sequence[Interval]] | None = None,
           zero_gold: Mapping[str, Sequence[tuple[int, str]]] | None = None,
           zero_pred: Mapping[str, Sequence[tuple[int, str]]] | None = None,
           documents: Sequence[str] | None = None) -> list[tuple[str, _Text]]:
    out = []
    n_classes = tax.n_classes[level]
    # Each distinct label is looked up once (a corpus has few labels and many spans).
    pred_code: dict[str, int] = {}
    gold_code: dict[str, int] = {}

    def project_pred(label: str) -> int:
        if label not in pred_code:
            pred_code[label] = tax.project(
                0 if label == NOTHING else tax.code(label, file=_place(pred)), level)
        return pred_code[label]

    def project_gold(label: str) -> int:
        if label not in gold_code:
            code = 0 if label == NOTHING else tax.code(label, file=_place(gold),
                                                     allow_unknown=False)
            gold_code[label] = (0 if code == 0 else 1) if level == 0 else tax.project(code, level)
        return gold_code[label]

    for doc in (gold.doc_ids if documents is None else documents):
        alts = gold.alt_spans(doc)
        gspans = tuple((a.start, a.end, frozenset(project_gold(lab) for lab in a.labels))
                       for a in alts)
        text = texts.get(doc)
        length = len(text) if text is not None else max((a.end for a in alts), default=0)
        zeros: dict[int, set[int]] = {}
        for at, lab in (zero_gold or {}).get(doc, ()):
            zeros.setdefault(at, set()).add(project_gold(lab))
        if zeros:  # official reading of [s, s) gold spans (--beyond-text official)
            gspans += tuple((at, at, frozenset(codes)) for at, codes in zeros.items())
        unc = uncovered_ranges(sorted([(a.start, a.end) for a in alts]
                                      + [(at, at) for at in zeros]), length)
        if order is not None and doc in order:
            # File order (metrics-py, repo-head): mafalda_order explains the two effects.
            unc, lost = official_reading(order[doc], length)
            gspans = tuple(g for g in gspans if (g[0], g[1]) not in lost)
        preds = tuple((s.start, s.end, project_pred(s.label)) for s in pred.get(doc)) + tuple(
            (at, at, project_pred(lab)) for at, lab in (zero_pred or {}).get(doc, ()))
        out.append((doc, _Text(gspans, unc, preds, n_classes)))
    return out


# ---- span precision and recall, paper and metrics-py -------------------------------------------


def _no_fallacy_possible(t: _Text) -> bool:
    return all(codes <= {0} for _, _, codes in t.gold)


def _recall(t: _Text) -> tuple[float, dict[int, _RecallRow]]:
    """Max over one-label alternatives; returns R and, per gold span, the label the best
    alternative takes (None: ⊥, left out), its best-covering prediction and C(s,t,|t|)."""
    mandatory: list[tuple[int, float, int, Where]] = []
    optional: list[tuple[int, float, int, Where]] = []
    for i, (a, b, codes) in enumerate(t.gold):
        best: tuple[float, Where] = (0.0, None)
        best_label = None
        for code in sorted(codes - {0}):
            value = max(((_ratio(_ov(a, b, s, e), b - a), (s, e)) for s, e, c in t.preds
                         if c == code), default=(0.0, None))
            if best_label is None or value[0] > best[0]:
                best, best_label = value, code
        if best_label is None:
            continue
        (optional if 0 in codes else mandatory).append((i, best[0], best_label, best[1]))
    rows: dict[int, _RecallRow] = {i: _RecallRow(None, 0.0, None, False)
                                   for i in range(len(t.gold))}
    for i, v, lab, where in mandatory:
        rows[i] = _RecallRow(lab, v, where, True)
    num = sum(v for _, v, _, _ in mandatory)
    den = len(mandatory)
    candidates: list[tuple[float, int]] = []
    if den == 0:
        candidates.append((1.0 if not t.preds else 0.0, 0))
    else:
        candidates.append((num / den, 0))
    ranked = sorted(optional, key=lambda x: -x[1])
    for k in range(1, len(ranked) + 1):
        num += ranked[k - 1][1]
        candidates.append((num / (den + k), k))
    # Among equal ratios the explanation keeps the most optional spans: a matched optional span
    # is shown as counted rather than left out (the score is the same).
    score, k_best = max(candidates, key=lambda x: (x[0], x[1]))
    for i, v, lab, where in ranked[:k_best]:
        rows[i] = _RecallRow(lab, v, where, True)
    return score, rows


def _pred_candidates(t: _Text) -> list[list[tuple[int, float]]]:
    """For each prediction, the gold spans whose labels include its label, with C(s,t,|s|)."""
    out = []
    for s, e, c in t.preds:
        cands = []
        if c != 0:
            for i, (a, b, codes) in enumerate(t.gold):
                inter = (b if b < e else e) - (a if a > s else s)  # |s∩t|, inlined (hot loop)
                if inter > 0 and c in codes:
                    cands.append((i, inter / (e - s)))
        out.append(cands)
    return out


def _precision_subset(t: _Text) -> tuple[float, list[tuple[int, float] | None]]:
    den = sum(1 for *_, c in t.preds if c != 0)
    cands = _pred_candidates(t)
    best = [max(c, key=lambda x: x[1]) if c else None for c in cands]
    if den == 0:
        return (1.0 if all(0 in codes for *_, codes in t.gold) else 0.0), best
    return sum(b[1] for b in best if b is not None) / den, best


def _max_sum(domains: dict[int, list[int]],
             factors: list[tuple[tuple[int, ...], dict[tuple[int, ...], float]]]
             ) -> tuple[float, dict[int, int]]:
    """Exact max of a sum of factors over discrete variables (variable elimination + decoding)."""
    factors = list(factors)
    eliminated: list[tuple[int, tuple[int, ...], dict[tuple[int, ...], int]]] = []
    remaining = set(domains)
    while remaining:
        var = min(remaining, key=lambda v: (_width(factors, v), v))
        remaining.discard(var)
        touching = [f for f in factors if var in f[0]]
        factors = [f for f in factors if var not in f[0]]
        scope = tuple(sorted(set().union(*(set(sc) for sc, _ in touching)) - {var}))
        table: dict[tuple[int, ...], float] = {}
        arg: dict[tuple[int, ...], int] = {}
        for assign in itertools.product(*(domains[u] for u in scope)):
            env = dict(zip(scope, assign, strict=True))
            best_v, best_x = -1.0, domains[var][0]
            for x in domains[var]:
                env[var] = x
                total = sum(tab[tuple(env[u] for u in sc)] for sc, tab in touching)
                if total > best_v:
                    best_v, best_x = total, x
            table[assign] = best_v
            arg[assign] = best_x
        factors.append((scope, table))
        eliminated.append((var, scope, arg))
    value = sum(tab[()] for _, tab in factors)
    choice: dict[int, int] = {}
    for var, scope, arg in reversed(eliminated):
        choice[var] = arg[tuple(choice[u] for u in scope)]
    return value, choice


def _width(factors: list[tuple[tuple[int, ...], dict[tuple[int, ...], float]]], v: int) -> int:
    """How many other variables eliminating ``v`` would join (min-degree order)."""
    return len(set().union(*(set(sc) for sc, _ in factors if v in sc)) - {v})


def _precision_one_label(t: _Text) -> tuple[float, list[tuple[int, float] | None],
                                             dict[int, int]]:
    """Max over one-label alternatives of the precision numerator (module docstring)."""
    den = sum(1 for *_, c in t.preds if c != 0)
    cands = _pred_candidates(t)
    if den == 0:
        ok = all(0 in codes for *_, codes in t.gold)
        return (1.0 if ok else 0.0), [None] * len(t.preds), {}
    domains: dict[int, set[int]] = {}
    for (_, _, c), cs in zip(t.preds, cands, strict=True):
        for i, _ in cs:
            domains.setdefault(i, set()).add(c)
    doms = {i: sorted(v) for i, v in domains.items()}
    factors = []
    for (_, _, c), cs in zip(t.preds, cands, strict=True):
        if not cs:
            continue
        scope = tuple(sorted({i for i, _ in cs}))
        weight = dict(cs) if len({i for i, _ in cs}) == len(cs) else {
            i: max(w for j, w in cs if j == i) for i, _ in cs}
        table = {}
        for assign in itertools.product(*(doms[i] for i in scope)):
            table[assign] = max((weight[i] for i, x in zip(scope, assign, strict=True)
                                 if x == c), default=0.0)
        factors.append((scope, table))
    num, choice = _max_sum(doms, factors)
    matched: list[tuple[int, float] | None] = []
    for (_, _, c), cs in zip(t.preds, cands, strict=True):
        hits = [(i, w) for i, w in cs if choice.get(i) == c]
        matched.append(max(hits, key=lambda x: x[1]) if hits else None)
    return num / den, matched, choice


@dataclass(frozen=True)
class _RecallRow:
    """What recall takes from one gold span: the label chosen (None: ⊥ or any label in
    ``repo-head``), C(s,t,|t|) of the best-covering prediction, where that is, and whether the
    span counts in recall's denominator."""

    code: int | None
    value: float
    where: Where
    counted: bool


@dataclass(frozen=True)
class _TextScore:
    """One text's span and label-only scores, and the matches they come from (one pass)."""

    precision: float
    recall: float
    f1: float
    label_precision: float
    label_recall: float
    label_f1: float
    gold: tuple[tuple[int, int, frozenset[int]], ...]  # repo-head: the uncovered ranges too
    matched: tuple[tuple[int, float] | None, ...]  # per prediction: (gold index, C(s,t,|s|))
    recall_rows: tuple[_RecallRow, ...]  # per entry of ``gold``
    note: str | None = None


_Spans = tuple[float, float, tuple[tuple[int, int, frozenset[int]], ...],
               tuple[tuple[int, float] | None, ...], tuple[_RecallRow, ...], str | None]


def _span_scores(t: _Text, variant: str) -> _Spans:
    if _no_fallacy_possible(t):
        v = 0.0 if any(c != 0 for *_, c in t.preds) else 1.0
        return (v, v, t.gold, (None,) * len(t.preds),
                (_RecallRow(None, 0.0, None, False),) * len(t.gold),
                "the gold allows no fallacy in this text")
    r, r_rows = _recall(t)
    matched: list[tuple[int, float] | None]
    if variant == "metrics-py":
        p, matched = _precision_subset(t)
    else:
        p, matched, _ = _precision_one_label(t)
    return p, r, t.gold, tuple(matched), tuple(r_rows[i] for i in range(len(t.gold))), None


def _head_scores(t: _Text) -> _Spans:
    gold_all = [(a, b, codes) for a, b, codes in t.gold]
    none_code = 0 if t.n_classes == 1 else -1  # the uncovered {None} set: {0} at level 0
    gold_all += [(a, b, frozenset({none_code})) for a, b in t.uncovered]
    if not t.preds and not gold_all:
        return 1.0, 1.0, (), (), (), None
    matched: list[tuple[int, float] | None] = []
    for s, e, c in t.preds:
        cands = [(i, _ratio(_ov(s, e, a, b), e - s)) for i, (a, b, codes) in enumerate(gold_all)
                 if c != 0 and c in codes]
        matched.append(max(cands, key=lambda x: x[1]) if cands else None)
    p = 1.0 if not t.preds else sum(m[1] for m in matched if m is not None) / len(t.preds)
    rows: list[_RecallRow] = []
    for a, b, codes in gold_all:
        if 0 in codes:
            rows.append(_RecallRow(None, 0.0, None, False))
            continue
        value, where = max(((_ratio(_ov(s, e, a, b), b - a), (s, e))
                            for s, e, c in t.preds if c in codes), default=(0.0, None))
        rows.append(_RecallRow(None, value, where, True))
    counted = [x.value for x in rows if x.counted]
    r = sum(counted) / len(counted) if counted else 1.0
    return p, r, tuple(gold_all), tuple(matched), tuple(rows), None


# ---- label-only ---------------------------------------------------------------------------------


def _label_sets(t: _Text) -> tuple[frozenset[int], list[tuple[frozenset[int], bool]]]:
    def keep(c: int) -> bool:
        return c != 0 and c - 1 < t.n_classes
    y_pred = frozenset(c for *_, c in t.preds if keep(c))
    spans = [(frozenset(c for c in codes if keep(c)), any(not keep(c) for c in codes))
             for *_, codes in t.gold]
    return y_pred, spans


def _prf_sets(y_pred: frozenset[int], y_true: frozenset[int]) -> tuple[float, float]:
    tp = len(y_pred & y_true)
    if tp == 0:
        both = 1.0 if not y_pred and not y_true else 0.0
        return both, both
    return tp / len(y_pred), tp / len(y_true)


def _max_matching(options: list[frozenset[int]]) -> int:
    """Most distinct labels that spans choosing one label each can cover (Kuhn's algorithm)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for lab in options[i]:
            if lab in seen:
                continue
            seen.add(lab)
            if lab not in owner or augment(owner[lab], seen):
                owner[lab] = i
                return True
        return False

    return sum(1 for i in range(len(options)) if augment(i, set()))


def _min_hitting_set(sets: list[frozenset[int]]) -> int:
    """Fewest labels such that every set contains one (exact branch and bound on the sets)."""
    best = len({frozenset(x) for x in sets})  # one label per distinct set always suffices

    def search(left: list[frozenset[int]], used: int) -> None:
        nonlocal best
        if not left:
            best = min(best, used)
            return
        if used + 1 >= best:
            return
        pivot = min(left, key=len)
        for lab in sorted(pivot):
            search([x for x in left if lab not in x], used + 1)

    search(sets, 0)
    return best


def _label_only(t: _Text, variant: str) -> tuple[float, float, float]:
    """Label-only P, R, F1 of one text, maximised over the alternatives without listing them.

    An alternative makes y_true by choosing one label per gold span (⊥ or a label outside the
    level's classes: nothing). With y_pred fixed, tp/|y_pred| is largest when y_true covers as
    many predicted labels as possible: a maximum matching between spans and predicted labels.
    Recall tp/|y_true| = tp/(tp + fp) is largest with that same tp and the fewest distinct
    unpredicted labels, which only the mandatory spans offering no predicted label must add: a
    minimum hitting set over those spans (spans that offer a predicted label take one, which
    never adds to fp). The two choices involve disjoint spans, so both optima hold at once. When
    tp = 0 the official rule gives 1 only if both sets can be empty. ``metrics-py`` precision
    offers every label of every span at once (the union), a closed form.
    """
    y_pred, spans = _label_sets(t)
    all_skippable = all(skip or not codes for codes, skip in spans)
    if not y_pred:
        both_empty = 1.0 if all_skippable else 0.0
        p = r = both_empty
    else:
        hits = [codes & y_pred for codes, _ in spans if codes & y_pred]
        tp_max = _max_matching(hits)
        if tp_max == 0:
            r = 0.0
        else:
            forced = [codes for codes, skip in spans if codes and not skip and not codes & y_pred]
            r = tp_max / (tp_max + _min_hitting_set(forced))
        if variant == "metrics-py":
            tp_max = len(y_pred & frozenset().union(*(c for c, _ in spans)))
        p = tp_max / len(y_pred)
    return p, r, mr.harmonic(p, r)


# ---- results --------------------------------------------------------------------------------


LABEL_ONLY = ("label_precision", "label_recall", "label_f1")
"""Keys of a :class:`~core.metrics.result.DocumentScore`'s ``extra``: the label-only scores."""


@dataclass(frozen=True)
class PerText:
    """Each text's scores as columns, in the gold's text order: the span P, R, F1 and the
    label-only P, R, F1 (plain lists of floats, as the per-text rows hold them)."""

    documents: list[str]
    precision: list[float]
    recall: list[float]
    f1: list[float]
    label_precision: list[float]
    label_recall: list[float]
    label_f1: list[float]

    @classmethod
    def of_rows(cls, rows: Sequence[mr.DocumentScore]) -> PerText:
        return cls([d.document for d in rows], [d.precision for d in rows],
                   [d.recall for d in rows], [d.f1 for d in rows],
                   *([d.extra[key] for d in rows] for key in LABEL_ONLY))

    def set(self, i: int, ts: _TextScore) -> None:
        """Text ``i``'s values from the per-text path."""
        for column, value in zip(self._columns(), (ts.precision, ts.recall, ts.f1,
                                                   ts.label_precision, ts.label_recall,
                                                   ts.label_f1), strict=True):
            column[i] = value

    def _columns(self) -> tuple[list[float], ...]:
        return (self.precision, self.recall, self.f1, self.label_precision, self.label_recall,
                self.label_f1)

    def rows(self) -> list[mr.DocumentScore]:
        """One :class:`~core.metrics.result.DocumentScore` per text (a text's own sums: its
        value over 1)."""
        return [mr.DocumentScore(doc, p, r, f, p, 1, r, 1, dict(zip(LABEL_ONLY, (a, b, c),
                                                                       strict=True)))
                for doc, p, r, f, a, b, c in zip(self.documents, *self._columns(), strict=True)]


@dataclass(frozen=True)
class Sums:
    """Per text (in the gold's text order), the sums the span scores divide, from the arrays of
    one vectorised pass: what ``repo-head``'s span P and R are made of (:func:`derive`).

    ``precision_numerator``: Σ over the predictions of their best C(s,t,|s|) among the gold
    spans offering their label (the ``metrics-py`` numerator; ``paper``'s where no span offers
    a choice); ``predictions``: the predictions, ⊥ ones included (``repo-head``'s denominator);
    ``recall_numerator``: Σ over the spans without ⊥ of their best C(s,t,|t|) over their labels;
    ``recall_spans``: those spans. A text read apart (file order, zero-length spans) has the
    sums of its sorted reading here: :func:`derive` scores it again."""

    precision_numerator: np.ndarray
    predictions: np.ndarray
    recall_numerator: np.ndarray
    recall_spans: np.ndarray


@dataclass
class MafaldaResult:
    """Per-text scores (:meth:`per_document`) and their means (module docstring).

    As a :class:`~core.metrics.result.SpanResult`, the numerators are the sums of the per-text
    values and the denominators the number of texts (a text's own: its value over 1).

    The per-text values are kept as columns (:class:`PerText`); the rows are built when first
    asked for (:attr:`rows`): at 100,000 texts they cost a quarter of a second that the means
    do not need (docs/performance.md, issue 29). Each mean adds the same floats in the same
    order as a sum over the rows.
    """

    variant: str
    level: int
    columns: PerText
    warnings: list[str] = field(default_factory=list)
    metric: str = "mafalda"
    pooled: bool = False
    choice_texts: np.ndarray | None = field(default=None, compare=False, repr=False)
    """Indices (in :attr:`columns`' order) of the texts where a gold span offers two or more
    fallacy labels at this level: the texts :func:`derive` scores again. None when not known
    (a result of the per-text reference)."""
    sums: Sums | None = field(default=None, compare=False, repr=False)
    """Each text's sums (:class:`Sums`) in a ``paper`` or ``metrics-py`` result of
    :func:`score` (or derived from one): what :func:`derive` computes ``repo-head`` from. None
    otherwise."""

    @cached_property
    def rows(self) -> list[mr.DocumentScore]:
        return self.columns.rows()

    def _mean(self, attr: str) -> float:
        values: list[float] = getattr(self.columns, attr)
        return sum(values) / len(values) if values else 0.0

    @property
    def precision(self) -> float:
        return self._mean("precision")

    @property
    def recall(self) -> float:
        return self._mean("recall")

    @property
    def f1(self) -> float:
        return self._mean("f1")

    @property
    def precision_numerator(self) -> float:
        return sum(self.columns.precision)

    @property
    def precision_denominator(self) -> float:
        return len(self.columns.documents)

    @property
    def recall_numerator(self) -> float:
        return sum(self.columns.recall)

    @property
    def recall_denominator(self) -> float:
        return len(self.columns.documents)

    @property
    def document_ids(self) -> list[str]:
        return list(self.columns.documents)

    @property
    def label_only(self) -> dict[str, float]:
        return {"precision": self._mean("label_precision"),
                "recall": self._mean("label_recall"),
                "f1": self._mean("label_f1")}

    def per_document(self) -> list[mr.DocumentScore]:
        return list(self.rows)

    def per_label(self) -> dict[str, mr.LabelScore]:
        """Empty: MAFALDA averages per text and has no per-label decomposition."""
        return {}

    def per_document_frame(self) -> pd.DataFrame:
        """:meth:`per_document` as a pandas DataFrame (label-only scores as extra columns)."""
        return mr.document_frame(self.rows)

    def summary(self) -> dict[str, float]:
        """The label-only means and the number of texts, by the names the dashboard shows."""
        lab = self.label_only
        return {"label-only P": lab["precision"], "label-only R": lab["recall"],
                "label-only F1": lab["f1"], "texts": len(self.columns.documents)}

    def bootstrap_table(self) -> mr.BootstrapTable:
        """Each text's F1 (one column); the statistic is their mean."""
        n = len(self.columns.documents)
        f1 = np.array(self.columns.f1, dtype=float).reshape(n, 1)
        return mr.BootstrapTable(tuple(self.columns.documents), f1, mr.mean_of(0, n))

    def to_dict(self, *, per_document: bool = False) -> dict[str, mr.JSONValue]:
        """The command line's JSON object (``python -m core score --metric mafalda --json``)."""
        out: dict[str, mr.JSONValue] = {
            "metric": "mafalda", "variant": self.variant, "level": self.level,
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "label_only": self.label_only, "documents": len(self.columns.documents),
            "warnings": list(self.warnings)}
        if per_document:
            out["per_document"] = [
                {"document": d.document, "precision": d.precision, "recall": d.recall,
                 "f1": d.f1, **d.extra} for d in self.rows]
        return out


def score_text(t: _Text, variant: str) -> _TextScore:
    """Span P, R, F1 and label-only P, R, F1 of one text, with the matches behind them."""
    if variant == "repo-head":
        p, r, gold, matched, recall_rows, note = _head_scores(t)
    else:
        p, r, gold, matched, recall_rows, note = _span_scores(t, variant)
    lp, lr, lf = _label_only(t, "metrics-py" if variant == "repo-head" else variant)
    return _TextScore(p, r, mr.harmonic(p, r), lp, lr, lf, gold, matched, recall_rows, note)


def _document_score(doc: str, ts: _TextScore) -> mr.DocumentScore:
    return mr.DocumentScore(doc, ts.precision, ts.recall, ts.f1, ts.precision, 1, ts.recall, 1,
                         dict(zip(LABEL_ONLY, (ts.label_precision, ts.label_recall,
                                               ts.label_f1), strict=True)))


# ---- the corpus at once (numpy) ----------------------------------------------------------------
#
# The same definitions as the per-text functions above, computed for every text at once: one
# array per span attribute, overlapping pairs enumerated by :mod:`core.metrics.overlap`, and
# per-text sums, maxima and counts by ``np.bincount`` / ``np.maximum.at``. The per-text path stays
# for the few texts where an exact answer needs a search (a prediction overlapping two gold spans
# of the same label while some gold span can take two of the predicted labels: variable
# elimination; a gold span with several fallacy labels in label-only: matching and hitting set),
# for texts read in file order or with zero-length spans (``gold_order`` / ``pred_order``), and
# for :func:`explain`. ``tests/mafalda/test_mafalda_vectorised.py`` checks both paths agree.


def _span_table(aset: AnnotationSet, doc_index: Mapping[str, int],
                label_index: dict[str, int]) -> SpanArrays:
    """The one place a set becomes arrays (document index, start, end, label index)."""
    return span_arrays(aset.table, doc_index, label_index)


def _label_codes(labels: Sequence[str], project: Callable[[str], int]) -> np.ndarray:
    return np.fromiter((project(lab) for lab in labels), dtype=np.int64, count=len(labels))


def _group_max(n: int, index: np.ndarray, values: np.ndarray) -> np.ndarray:
    out = np.zeros(n, dtype=float)
    np.maximum.at(out, index, values)
    return out


def _sum(index: np.ndarray, weights: np.ndarray, n: int) -> np.ndarray:
    """Per-group sums, added in array order (as Python's ``sum`` over the same values)."""
    return np.bincount(index, weights=weights, minlength=n).astype(float, copy=False)


def _count(index: np.ndarray, n: int, where: np.ndarray | None = None) -> np.ndarray:
    return np.bincount(index if where is None else index[where], minlength=n)


UNIQUE_SPREAD = 4
""":func:`_unique` counts keys in a table (``np.bincount``) instead of sorting them when the
largest key is below this many times their number (plus a constant): O(n + range) for the
(text, label) keys of the label-only scores, which span at most texts × classes."""


def _unique(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted distinct values of an integer array, each element's index among them, and their
    counts (``np.unique`` by sorting: its hash path is slow on millions of keys).

    Keys already strictly increasing (one code per gold span, no alternatives) are their own
    answer; non-negative keys of a small range are counted in a table (:data:`UNIQUE_SPREAD`):
    the same three arrays as the sort gives, without it (docs/performance.md, issue 29).

    >>> [a.tolist() for a in _unique(np.array([5, 2, 5, 9]))]
    [[2, 5, 9], [1, 0, 1, 2], [1, 2, 1]]
    """
    n = len(keys)
    if n and bool(np.all(keys[1:] > keys[:-1])):
        return keys, np.arange(n), np.ones(n, dtype=np.int64)
    if n and int(keys.min()) >= 0 and int(keys.max()) < UNIQUE_SPREAD * n + 1024:
        counts = np.bincount(keys)
        present = counts > 0
        values = np.flatnonzero(present)
        index = np.cumsum(present) - 1
        return values, index[keys], counts[values]
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    first = np.r_[True, ordered[1:] != ordered[:-1]] if len(keys) else np.zeros(0, dtype=bool)
    ids = np.cumsum(first) - 1
    inverse = np.empty(len(keys), dtype=np.int64)
    inverse[order] = ids
    counts = np.diff(np.r_[np.flatnonzero(first), len(keys)])
    return ordered[first], inverse, counts


def _interval_order(doc: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray | None:
    """The stable order of the rows by (document, start, end), ``np.lexsort((end, start,
    doc))``; None when they are in that order already, as a :class:`~core.model.SpanTable`
    keeps its rows (one pass of comparisons instead of a sort: 0.27 s of the 0.5 s of MAFALDA's
    score of 1M gold spans; docs/performance.md, issue 29, eleventh pass).

    >>> _interval_order(np.array([0, 0, 1]), np.array([2, 2, 0]), np.array([3, 5, 1])) is None
    True
    >>> _interval_order(np.array([0, 0, 1]), np.array([2, 2, 0]), np.array([5, 3, 1])).tolist()
    [1, 0, 2]
    """
    if len(doc) > 1:
        same_doc, same_start = doc[1:] == doc[:-1], start[1:] == start[:-1]
        back = (doc[1:] < doc[:-1]) | (same_doc & ((start[1:] < start[:-1])
                                                   | (same_start & (end[1:] < end[:-1]))))
        if back.any():  # comparisons, not differences: no offset can overflow
            return np.lexsort((end, start, doc))
    return None


def _member(keys: np.ndarray, of: np.ndarray, bound: int) -> np.ndarray:
    """``np.isin(keys, of)`` for keys in ``[0, bound)``, by a table of ``bound`` flags instead of
    a sort of both arrays."""
    table = np.zeros(bound, dtype=bool)
    table[of] = True
    return table[keys]


def _distinct_per_doc(doc: np.ndarray, code: np.ndarray, n_docs: int) -> np.ndarray:
    """How many distinct codes each document holds among the (doc, code) rows given."""
    if len(doc) == 0:
        return np.zeros(n_docs, dtype=np.int64)
    keys = _unique(doc * (int(code.max()) + 2) + code + 1)[0]
    return np.bincount(keys // (int(code.max()) + 2), minlength=n_docs)


def _harmonic(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    s = p + r
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(s > 0, 2 * p * r / np.where(s > 0, s, 1.0), 0.0)


def _score_vectorised(gold: AnnotationSet, pred: AnnotationSet, texts: Mapping[str, str | None],
                      tax: Taxonomy, level: int, variant: str,
                      order: Mapping[str, Sequence[Interval]] | None,
                      zero_gold: Mapping[str, Sequence[tuple[int, str]]] | None,
                      zero_pred: Mapping[str, Sequence[tuple[int, str]]] | None,
                      ) -> tuple[PerText, np.ndarray, Sums]:
    """Every text's scores, the indices of the texts where a gold span offers two or more
    fallacy codes at this level (:attr:`MafaldaResult.choice_texts`), and every text's sums
    (:class:`Sums`)."""
    doc_ids = gold.doc_ids
    n_docs = len(doc_ids)
    doc_index = dict(zip(doc_ids, range(n_docs), strict=True))
    n_classes = tax.n_classes[level]

    def project_pred(label: str) -> int:
        return tax.project(0 if label == NOTHING else tax.code(label, file=_place(pred)), level)

    def project_gold(label: str) -> int:
        code = 0 if label == NOTHING else tax.code(label, file=_place(gold),
                                                     allow_unknown=False)
        return (0 if code == 0 else 1) if level == 0 else tax.project(code, level)

    g_labels: dict[str, int] = {}
    g = _span_table(gold, doc_index, g_labels)
    p_labels: dict[str, int] = {}
    pr = _span_table(pred, doc_index, p_labels)
    g_code = _label_codes(list(g_labels), project_gold)[g.label]
    p_doc, p_start, p_end = pr.doc, pr.start, pr.end
    p_code = _label_codes(list(p_labels), project_pred)[pr.label]
    n_p = len(p_doc)

    # Gold spans sharing an interval are one span with alternatives, in first-seen order.
    n_g = len(g.doc)
    if not gold.alternatives:  # every span is its own gold span (AnnotationSet.alt_spans)
        # with its one code: the numbering and code rows below are the identity, not computed
        n_a = n_g
        span_of = np.arange(n_g)
        a_doc, a_start, a_end = g.doc, g.start, g.end
        r_span, r_code = span_of, g_code
    else:
        new = np.ones(n_g, dtype=bool)
        srt = _interval_order(g.doc, g.start, g.end)
        s_doc, s_start, s_end = ((g.doc, g.start, g.end) if srt is None
                                 else (g.doc[srt], g.start[srt], g.end[srt]))
        if n_g:
            new[1:] = ((s_doc[1:] != s_doc[:-1]) | (s_start[1:] != s_start[:-1])
                       | (s_end[1:] != s_end[:-1]))
        group_sorted = np.cumsum(new) - 1
        if srt is None:  # rows in interval order already (a SpanTable's own order):
            # the spans are numbered as they come, the first row of each is in order
            first = np.flatnonzero(new)
            span_of = group_sorted
            a_first = first
        else:
            first = srt[new]
            by_first = np.argsort(first, kind="stable")
            renumber = np.empty(len(first), dtype=np.int64)
            renumber[by_first] = np.arange(len(first))
            span_of = np.empty(n_g, dtype=np.int64)
            span_of[srt] = renumber[group_sorted]
            a_first = first[by_first]
        n_a = len(first)
        a_doc, a_start, a_end = g.doc[a_first], g.start[a_first], g.end[a_first]
        # One row per distinct (span, code): a span's code set.
        width = int(g_code.max(initial=0)) + 2
        rows = _unique(span_of * width + g_code)[0]
        r_span, r_code = rows // width, rows % width
    nonzero = r_code != 0
    kept = nonzero & (r_code - 1 < n_classes)
    a_has0 = _count(r_span, n_a, ~nonzero) > 0
    a_fallacies = _count(r_span, n_a, nonzero)
    a_fallacy = a_fallacies > 0
    # The texts where paper and metrics-py may differ (:func:`derive`): a span offering a choice.
    choice_texts = np.flatnonzero(_count(a_doc, n_docs, a_fallacies >= 2))
    a_skip = _count(r_span, n_a, ~kept) > 0

    # Overlapping (prediction, gold code row) pairs of the same document and fallacy code.
    p_sel = np.flatnonzero(p_code != 0)
    r_sel = np.flatnonzero(nonzero)
    pa = SpanArrays(p_doc[p_sel], p_start[p_sel], p_end[p_sel], p_code[p_sel], [])
    ga = SpanArrays(a_doc[r_span[r_sel]], a_start[r_span[r_sel]], a_end[r_span[r_sel]],
                    r_code[r_sel], [])
    pairs = overlapping_pairs(pa, ga, n_docs, by_label=True)
    pi = p_sel[pairs.pred]
    pspan = r_span[r_sel[pairs.gold]]
    pcode = p_code[pi]
    a_best = _group_max(n_a, pspan, pairs.c_gold)  # max_s C(s, t, |t|) over its labels
    p_best = _group_max(n_p, pi, pairs.c_pred)  # max_t C(s, t, |s|) over spans offering l(s)

    preds_in = _count(p_doc, n_docs)
    fallacy_preds = _count(p_doc, n_docs, p_code != 0)
    num_best = _sum(p_doc, p_best, n_docs)
    not_optional = _count(a_doc, n_docs, ~a_has0)
    # A span without ⊥ offers a fallacy label (every span has one code at least): the mandatory
    # spans of paper and metrics-py are the spans repo-head counts in recall.
    mand = ~a_has0
    sums = Sums(num_best, preds_in, _sum(a_doc[mand], a_best[mand], n_docs), not_optional)
    fallback = np.zeros(n_docs, dtype=bool)
    for extra in (order, zero_gold, zero_pred):
        for d in extra or ():
            if d in doc_index:
                fallback[doc_index[d]] = True

    if variant == "repo-head":
        p, r = _head_columns(sums, None if n_classes == 1 else _uncovered_counts(
            texts, doc_ids, a_doc, a_start, a_end))
    else:
        # Recall: mandatory spans count a_i; optional spans join by prefixes of b descending.
        opt = np.flatnonzero(a_fallacy & a_has0)
        num = sums.recall_numerator.copy()
        den = sums.recall_spans
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.where(den == 0, np.where(preds_in == 0, 1.0, 0.0), num / np.maximum(den, 1))
        o = opt[np.lexsort((-a_best[opt], a_doc[opt]))]
        o_doc = a_doc[o]
        starts = np.flatnonzero(np.r_[True, o_doc[1:] != o_doc[:-1]]) if len(o) else o
        rank = np.arange(len(o)) - np.repeat(starts, np.diff(np.r_[starts, len(o)]))
        for k in range(int(rank.max(initial=-1)) + 1):
            at = rank == k
            docs = o_doc[at]
            num[docs] += a_best[o[at]]
            r[docs] = np.maximum(r[docs], num[docs] / (den[docs] + k + 1))
        # Precision.
        all_optional = np.where(not_optional == 0, 1.0, 0.0)
        if variant == "metrics-py":
            p_num = num_best
        else:
            p_num, coupled = _one_label_numerator(n_docs, n_a, n_p, a_doc, p_doc, pi, pspan,
                                                  pcode, pairs.c_pred, num_best)
            fallback |= coupled
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(fallacy_preds == 0, all_optional,
                         p_num / np.maximum(fallacy_preds, 1))
        # A text whose gold allows no fallacy: 1 only when nothing but ⊥ is predicted.
        none_possible = _count(a_doc, n_docs, a_fallacy) == 0
        silent = np.where(fallacy_preds == 0, 1.0, 0.0)
        p = np.where(none_possible, silent, p)
        r = np.where(none_possible, silent, r)
    f1 = _harmonic(p, r)

    lp, lr, lab_hard = _label_only_vectorised(
        n_docs, "metrics-py" if variant == "repo-head" else variant, n_classes, p_doc, p_code,
        a_doc, r_span, r_code, a_skip)
    lf = _harmonic(lp, lr)
    fallback |= lab_hard

    out = PerText(list(doc_ids), p.tolist(), r.tolist(), f1.tolist(), lp.tolist(), lr.tolist(),
                  lf.tolist())
    hard = np.flatnonzero(fallback)
    if len(hard):
        keep = [doc_ids[i] for i in hard]
        sub_g = AnnotationSet(gold.name, {d: gold.spans[d] for d in keep}, gold.role,
                              gold.alternatives)
        sub_p = AnnotationSet(pred.name, {d: pred.get(d) for d in keep}, pred.role,
                              pred.alternatives)
        for i, (_, t) in zip(hard.tolist(), _texts(sub_g, sub_p, texts, tax, level, order,
                                                    zero_gold, zero_pred), strict=True):
            out.set(i, score_text(t, variant))
    return out, choice_texts, sums


def _one_label_numerator(n_docs: int, n_a: int, n_p: int, a_doc: np.ndarray, p_doc: np.ndarray,
                         pi: np.ndarray, pspan: np.ndarray, pcode: np.ndarray,
                         weight: np.ndarray, num_best: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
    """One-label precision's numerator where no search is needed, and the texts that need one.

    If no gold span can take two of the predicted labels, every span's choice is forced and
    each prediction keeps its best match (``num_best``). If every prediction has at most one
    candidate span, the spans are independent: each takes the label whose predictions it gives
    the most. Otherwise (``coupled``) the per-text variable elimination decides.
    """
    candidates = np.bincount(pi, minlength=n_p)
    width = int(pcode.max(initial=0)) + 1
    keys, inverse, _ = _unique(pspan * width + pcode)
    key_span = keys // width
    domain = np.bincount(key_span, minlength=n_a)
    choice_doc = _count(a_doc, n_docs, domain >= 2) > 0
    shared_doc = _count(p_doc, n_docs, candidates >= 2) > 0
    per_key = _sum(inverse.reshape(-1), weight, len(keys))
    span_best = _group_max(n_a, key_span, per_key)
    independent = _sum(a_doc, span_best, n_docs)
    return np.where(choice_doc, independent, num_best), choice_doc & shared_doc


def _head_columns(sums: Sums, uncovered: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``repo-head``'s span P and R of every text (:func:`_head_scores`) from its :class:`Sums`
    and, at levels 1 and 2, how many uncovered ranges it has (:func:`_uncovered_counts`): the
    direct score and :func:`derive` divide the same floats."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(sums.predictions == 0, 1.0,
                     sums.precision_numerator / np.maximum(sums.predictions, 1))
    den = sums.recall_spans if uncovered is None else sums.recall_spans + uncovered
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(den == 0, 1.0, sums.recall_numerator / np.maximum(den, 1))
    return p, r


def _uncovered_counts(texts: Mapping[str, str | None], doc_ids: list[str],
                      a_doc: np.ndarray, a_start: np.ndarray, a_end: np.ndarray) -> np.ndarray:
    """How many ranges :func:`~core.metrics.mafalda_order.uncovered_ranges` gives each text,
    from its gold intervals (``a_doc`` numbering ``doc_ids``). An interval listed twice (a
    gold table's rows, one per alternative label) adds no range: its second sighting starts
    before the running end."""
    n_docs = len(doc_ids)
    last_end = np.zeros(n_docs, dtype=np.int64)
    np.maximum.at(last_end, a_doc, a_end)
    length = np.fromiter((len(t) if (t := texts.get(d)) is not None else -1 for d in doc_ids),
                         dtype=np.int64, count=n_docs)
    length = np.where(length < 0, last_end, length)
    o = _interval_order(a_doc, a_start, a_end)  # None: in that order already (a table's rows)
    doc, start, end = (a_doc, a_start, a_end) if o is None else (a_doc[o], a_start[o], a_end[o])
    # ``current`` before each interval: the running max of end + 1 over the text's earlier ones.
    big = int(max(end.max(initial=0), 0)) + 2
    running = np.maximum.accumulate(doc * big + end + 1) - doc * big if len(doc) else end
    first = np.r_[True, doc[1:] != doc[:-1]] if len(doc) else np.zeros(0, dtype=bool)
    current = np.where(first, 0, np.r_[0, running[:-1]] if len(doc) else running)
    gaps = _count(doc, n_docs, current < start)
    final = np.zeros(n_docs, dtype=np.int64)
    np.maximum.at(final, doc, running)
    has = _count(doc, n_docs) > 0
    tail = np.where(has, final < length, True)
    return gaps + tail.astype(np.int64)


def _label_only_vectorised(n_docs: int, variant: str, n_classes: int, p_doc: np.ndarray,
                           p_code: np.ndarray, a_doc: np.ndarray, r_span: np.ndarray,
                           r_code: np.ndarray, a_skip: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label-only P and R (:func:`_label_only`) for every text, and the texts (``hard``) whose
    matching or hitting set this does not settle (per-text path).

    Matching: a span offering one predicted label (``L1``: its distinct labels) is matched in
    some maximum matching, so tp = |L1| + a matching of the other spans into the predicted
    labels outside L1; that is their number when those label sets are disjoint, and the number
    of distinct labels when each holds one. Hitting set: the labels of one-label forced spans
    are needed, sets holding one are hit, and the other sets need one label each when they are
    disjoint. Anything else is ``hard``.
    """
    n_a = len(a_doc)
    width = n_classes + 2
    bound = n_docs * width  # every (text, kept code) key is below it
    keep = (p_code != 0) & (p_code - 1 < n_classes)
    y_keys = _unique(p_doc[keep] * width + p_code[keep])[0]
    n_pred = np.bincount(y_keys // width, minlength=n_docs)
    rows = np.flatnonzero((r_code != 0) & (r_code - 1 < n_classes))
    span, code = r_span[rows], r_code[rows]
    doc = a_doc[span]
    key = doc * width + code
    in_y = _member(key, y_keys, bound)
    a_kept = np.bincount(span, minlength=n_a)
    hits = np.bincount(span[in_y], minlength=n_a)
    # matching
    one = in_y & (hits[span] == 1)
    l1 = _unique(key[one])[0]
    rest = in_y & (hits[span] >= 2) & ~_member(key, l1, bound)
    rest_keys, _, rest_n = _unique(key[rest])
    rest_size = np.bincount(span[rest], minlength=n_a)
    shared = _count(rest_keys // width, n_docs, rest_n >= 2) > 0
    multi = _count(a_doc, n_docs, rest_size >= 2) > 0
    rest_spans = _count(a_doc, n_docs, rest_size >= 1)
    tp = (np.bincount(l1 // width, minlength=n_docs)
          + np.where(shared, np.bincount(rest_keys // width, minlength=n_docs), rest_spans))
    hard = shared & multi
    # hitting set over the mandatory spans offering no predicted label
    forced = (a_kept >= 1) & ~a_skip & (hits == 0)
    f1 = _unique(key[forced[span] & (a_kept[span] == 1)])[0]
    hit_free = np.bincount(span[_member(key, f1, bound)], minlength=n_a) > 0
    left = forced & (a_kept >= 2) & ~hit_free
    left_rows = left[span]
    left_keys, _, left_n = _unique(key[left_rows])
    hard |= _count(left_keys // width, n_docs, left_n >= 2) > 0
    missing = np.bincount(f1 // width, minlength=n_docs) + _count(a_doc, n_docs, left)
    skippable = _count(a_doc, n_docs, ~(a_skip | (a_kept == 0))) == 0
    if variant == "metrics-py":  # every label of every span at once
        tp_p = np.bincount(_unique(key[in_y])[0] // width, minlength=n_docs)
    else:
        tp_p = tp
    both_empty = np.where(skippable, 1.0, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(tp == 0, 0.0, tp / np.maximum(tp + missing, 1))
        p = np.where(tp == 0, 0.0, tp_p / np.maximum(n_pred, 1))
    p = np.where(n_pred == 0, both_empty, p)
    r = np.where(n_pred == 0, both_empty, r)
    return p, r, hard & (n_pred > 0) & (tp > 0)


def score(gold: AnnotationSet, pred: AnnotationSet, *, level: int = 2, variant: str = "paper",
          texts: Mapping[str, str | None] | None = None, taxonomy: Taxonomy | None = None,
          gold_order: GoldOrder | None = None, pred_order: GoldOrder | None = None
          ) -> MafaldaResult:
    """Score ``pred`` against ``gold`` (module docstring), averaged over the gold's texts.

    ``texts`` (document id -> text) are needed only by ``repo-head`` for the ranges between gold
    spans; without them the text is taken to end at the last gold span.

    >>> from core.model import Span
    >>> g = AnnotationSet("g", {"a": (Span(0, 40, "ad hominem"),)}, alternatives=True)
    >>> p = AnnotationSet("p", {"a": (Span(0, 10, "ad hominem"), Span(0, 40, "ad hominem"))})
    >>> score(g, p).recall
    1.0
    """
    tax, order, zero_gold, zero_pred = _checked(gold, pred, level, variant, taxonomy, gold_order,
                                                pred_order)
    columns, choice_texts, sums = _score_vectorised(gold, pred, texts or {}, tax, level,
                                                    variant, order, zero_gold, zero_pred)
    return MafaldaResult(variant, level, columns, choice_texts=choice_texts,
                         sums=None if variant == "repo-head" else sums)


DERIVABLE: dict[str, tuple[str, ...]] = {"paper": ("metrics-py",), "metrics-py": ("paper",),
                                         "repo-head": ("metrics-py", "paper")}
"""Variant -> the variants whose result :func:`derive` computes it from, the cheaper first.
``repo-head`` from ``metrics-py`` scores again only the texts read apart (its label-only scores
are ``metrics-py``'s), from ``paper`` the texts offering a choice of labels too; its span
scores come from the result's :class:`Sums`, not from its per-text numbers, which do not
determine them (``docs/mafalda.md``, "Variants from one score"). Nothing is derived from a
``repo-head`` result: its recall leaves out the optional spans that the others may count."""


def _documents(aset: AnnotationSet, keep: Sequence[str], chosen: np.ndarray | None = None
               ) -> AnnotationSet:
    """``aset`` on the documents ``keep`` (in that order; ``chosen``: their positions in its
    table when known), its table's rows taken as they are: no :class:`~core.model.Span` is
    built (building them took 0.3 of the 0.4 s of a :func:`derive` at 100,000 texts)."""
    t = aset.table
    if chosen is None:
        at = {d: i for i, d in enumerate(t.doc_ids)}
        chosen = np.fromiter((at[d] for d in keep), dtype=np.int64, count=len(keep))
    new_index = np.full(len(t.doc_ids), -1, dtype=np.int64)
    new_index[chosen] = np.arange(len(keep))
    rows = np.flatnonzero(new_index[t.doc] >= 0)
    doc = new_index[t.doc[rows]]
    if len(doc) > 1 and bool(np.any(doc[1:] < doc[:-1])):  # ``keep`` not in the table's order
        rows = rows[np.argsort(doc, kind="stable")]
        doc = new_index[t.doc[rows]]
    table = SpanTable.from_columns(keep, doc, t.start[rows], t.end[rows], t.label[rows],
                                   t.labels, sort=False)
    return AnnotationSet(aset.name, table, aset.role, aset.alternatives)


DERIVED: Counter[str] = Counter()
"""What :func:`derive` did in this process: ``results`` derived and ``texts`` scored again in
them (the tests read it: which path ran, not how long it took)."""


def derive(result: MafaldaResult, gold: AnnotationSet, pred: AnnotationSet, *, variant: str,
           level: int | None = None, texts: Mapping[str, str | None] | None = None,
           taxonomy: Taxonomy | None = None, gold_order: GoldOrder | None = None,
           pred_order: GoldOrder | None = None) -> MafaldaResult:
    """:func:`score` under ``variant`` from ``result``, the :func:`score` of the same ``gold``,
    ``pred`` and options under a variant :data:`DERIVABLE` lists for it, scoring again only the
    texts where the two can differ; the same numbers as :func:`score` (a property test holds
    them equal on random corpora).

    ``paper`` and ``metrics-py`` differ in precision only, and only through a gold span that
    offers two or more fallacy labels at the level: ``paper`` picks one of them per
    alternative, ``metrics-py`` any subset, for span precision and label-only precision alike;
    recall is one function in both. A text without such a span gets the same numbers from the
    same arithmetic under both (one-label precision's search has one label to pick per span, so
    each prediction keeps its best match; label-only precision's maximum matching is then
    every predicted label some span offers, the closed form of ``metrics-py``). So only
    :attr:`MafaldaResult.choice_texts` are scored again, with the texts whose gold is read in
    file order (``metrics-py`` and ``repo-head`` only) or holds zero-length spans
    (``gold_order`` / ``pred_order``), by the same path as :func:`score` (a text's values depend
    on that text alone); the others keep ``result``'s values. At 100,000 texts of the bench
    corpus (level 2), 7,498 texts instead of 100,000 (docs/performance.md, issue 29, fourteenth
    pass).

    ``repo-head`` differs from both on almost every text (docs/mafalda.md, "Variants from one
    score"), so no text keeps its numbers; but its span P and R divide sums that the result's
    pass computed for every text (:class:`Sums`: the best matches of the predictions and of the
    spans without ⊥, and their counts), by the number of predictions and of those spans plus,
    at levels 1 and 2, the ranges between gold spans (counted from the gold's intervals).
    Its label-only scores are ``metrics-py``'s. So from ``metrics-py`` only the texts read
    apart are scored again, from ``paper`` the texts offering a choice of labels too
    (label-only precision); the sums of a text read apart are its sorted reading's, never
    used. ``level``, when given, must be the result's.

    >>> from core.model import Span
    >>> g = AnnotationSet("g", {"a": (Span(0, 10, "ad hominem"), Span(0, 10, "appeal to fear")),
    ...                         "b": (Span(0, 5, "ad hominem"),)}, alternatives=True)
    >>> p = AnnotationSet("p", {"a": (Span(0, 10, "ad hominem"), Span(0, 10, "appeal to fear")),
    ...                         "b": (Span(0, 5, "ad hominem"),)})
    >>> paper = score(g, p)
    >>> paper.columns.precision, derive(paper, g, p, variant="metrics-py").columns.precision
    ([0.5, 1.0], [1.0, 1.0])
    >>> texts = {"a": "x" * 10, "b": "x" * 20}
    >>> derive(score(g, p, texts=texts), g, p, variant="repo-head", texts=texts).columns.recall
    [1.0, 0.5]
    """
    if result.variant not in DERIVABLE.get(variant, ()):
        raise ValueError(f"derive: {variant!r} is not derived from a {result.variant!r} result "
                         f"(derivable: {DERIVABLE})")
    if result.choice_texts is None:
        raise ValueError("derive: the result does not say which texts offer a choice of labels "
                         "(a result of score() does)")
    head = variant == "repo-head"
    if head and result.sums is None:
        raise ValueError("derive: the result keeps no per-text sums (a result of score() "
                         "under paper or metrics-py does)")
    if level is not None and level != result.level:
        raise ValueError(f"derive: level {level} asked of a result at level {result.level}")
    level = result.level
    tax, order, zero_gold, zero_pred = _checked(gold, pred, level, variant, taxonomy, gold_order,
                                                pred_order)
    documents = result.columns.documents
    old = result.columns
    if head:
        sums = result.sums
        assert sums is not None  # checked above
        uncovered = None
        if tax.n_classes[level] != 1:  # the ranges between gold spans count at levels 1 and 2
            t = gold.table  # its documents are ``documents``, its rows in interval order
            uncovered = _uncovered_counts(texts or {}, documents, t.doc.astype(np.int64),
                                          t.start, t.end)
        p, r = _head_columns(sums, uncovered)
        columns = PerText(documents, p.tolist(), r.tolist(), _harmonic(p, r).tolist(),
                          list(old.label_precision), list(old.label_recall),
                          list(old.label_f1))
        again = set(result.choice_texts.tolist()) if result.variant == "paper" else set()
    else:
        columns = PerText(documents, list(old.precision), list(old.recall), list(old.f1),
                          list(old.label_precision), list(old.label_recall),
                          list(old.label_f1))
        again = set(result.choice_texts.tolist())
    read_apart = [*(gold_order.intervals if gold_order is not None else ()),
                  *(zero_gold or ()), *(zero_pred or ())]
    if read_apart:
        index = {d: i for i, d in enumerate(documents)}
        again.update(index[d] for d in read_apart if d in index)
    DERIVED["results"] += 1
    DERIVED["texts"] += len(again)
    if again:
        rows = sorted(again)
        keep = [documents[i] for i in rows]
        at = np.array(rows, dtype=np.int64)  # the gold's own order (its table's, ``documents``)
        same = pred.table.doc_ids == gold.table.doc_ids
        part, _, _ = _score_vectorised(_documents(gold, keep, at),
                                       _documents(pred, keep, at if same else None),
                                       texts or {}, tax, level, variant, order, zero_gold,
                                       zero_pred)
        for i, values in zip(rows, zip(*part._columns(), strict=True), strict=True):
            for column, value in zip(columns._columns(), values, strict=True):
                column[i] = value
    return MafaldaResult(variant, level, columns, choice_texts=result.choice_texts,
                         sums=None if head else result.sums)


def _checked(gold: AnnotationSet, pred: AnnotationSet, level: int, variant: str,
             taxonomy: Taxonomy | None, gold_order: GoldOrder | None,
             pred_order: GoldOrder | None
             ) -> tuple[Taxonomy, Mapping[str, Sequence[Interval]] | None,
                        Mapping[str, Sequence[tuple[int, str]]] | None,
                        Mapping[str, Sequence[tuple[int, str]]] | None]:
    """The checks both scorers make, and what they read from the options: the taxonomy, the
    gold's file order (``metrics-py`` and ``repo-head`` only) and the zero-length spans."""
    check_sets("mafalda.score", gold, pred)
    check_choice("variant", "mafalda", variant, VARIANTS)
    check_choice("level", "mafalda", level, LEVELS)
    if gold.doc_ids != pred.doc_ids:  # the same ids in the same order pass the check
        check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name, "identical")
    tax = taxonomy or mafalda()
    order = (gold_order.intervals if gold_order is not None
             and variant in ("metrics-py", "repo-head") else None)
    zero_gold = gold_order.zero_length if gold_order is not None else None
    zero_pred = pred_order.zero_length if pred_order is not None else None
    return tax, order, zero_gold, zero_pred


def _score_reference(gold: AnnotationSet, pred: AnnotationSet, *, level: int = 2,
                     variant: str = "paper", texts: Mapping[str, str | None] | None = None,
                     taxonomy: Taxonomy | None = None, gold_order: GoldOrder | None = None,
                     pred_order: GoldOrder | None = None) -> MafaldaResult:
    """:func:`score` one text at a time in Python (:func:`score_text`): the reference the
    vectorised path is tested against (``tests/mafalda/test_mafalda_vectorised.py``)."""
    tax, order, zero_gold, zero_pred = _checked(gold, pred, level, variant, taxonomy, gold_order,
                                                pred_order)
    rows = [_document_score(doc, score_text(t, variant))
            for doc, t in _texts(gold, pred, texts or {}, tax, level, order, zero_gold,
                                 zero_pred)]
    return MafaldaResult(variant, level, PerText.of_rows(rows))


@dataclass(frozen=True)
class PredictionMatch:
    """What precision takes from one predicted span: the gold span it matched (None: none) and
    C(s,t,|s|); ``counted`` is False for a ⊥ prediction, which leaves precision's denominator
    (except in ``repo-head``). ``label`` is the prediction's class at the level; ``span`` the
    prediction as its set gives it, file label and all, which tells it apart from a prediction
    of another label on the same interval (the command line's JSON leaves it out)."""

    start: int
    end: int
    label: str | None
    matched_gold: tuple[int, int] | None
    matched_label: str | None
    contribution_p: float
    counted: bool
    span: Span

    def to_dict(self) -> dict[str, mr.JSONValue]:
        return {"start": self.start, "end": self.end, "label": self.label,
                "matched_gold": None if self.matched_gold is None else list(self.matched_gold),
                "matched_label": self.matched_label, "contribution_p": self.contribution_p,
                "counted": self.counted}


@dataclass(frozen=True)
class GoldMatch:
    """What recall takes from one gold span: the label the best alternative chose
    (``recall_label``; None = ⊥, not ``counted``), the prediction that best covers it and
    C(s,t,|t|). ``uncovered`` rows are ``repo-head``'s ranges between gold spans.
    ``best_index``: which prediction ``best_prediction`` is, as a position in the explanation's
    ``predictions`` (an interval can hold predictions of several labels; the command line's
    JSON leaves it out)."""

    start: int
    end: int
    alternatives: tuple[str, ...]
    optional: bool
    recall_label: str | None
    best_prediction: tuple[int, int] | None
    contribution_r: float
    counted: bool
    uncovered: bool
    best_index: int | None

    def to_dict(self) -> dict[str, mr.JSONValue]:
        return {"start": self.start, "end": self.end, "alternatives": list(self.alternatives),
                "optional": self.optional, "recall_label": self.recall_label,
                "best_prediction": (None if self.best_prediction is None
                                    else list(self.best_prediction)),
                "contribution_r": self.contribution_r, "counted": self.counted,
                "uncovered": self.uncovered}


@dataclass(frozen=True)
class MafaldaExplanation:
    """One document under MAFALDA: its scores, one :class:`PredictionMatch` per prediction and
    one :class:`GoldMatch` per gold span, all from the pass that scores it."""

    document: str
    variant: str
    level: int
    score: mr.DocumentScore
    predictions: tuple[PredictionMatch, ...]
    gold: tuple[GoldMatch, ...]
    note: str | None = None

    def best_span(self, g: GoldMatch) -> Span | None:
        """The prediction that best covers ``g`` as its set gives it (None: none)."""
        return None if g.best_index is None else self.predictions[g.best_index].span

    def rows(self) -> list[mr.ExplanationRow]:
        """Per prediction its precision match, per gold span its recall match. A prediction is
        named by its span, label included: an interval can hold predictions of several labels,
        which its interval alone would not tell apart (review20)."""
        out: list[mr.ExplanationRow] = []
        for r in self.predictions:
            pred = r.span
            if not r.counted:
                out.append(mr.ExplanationRow(None, pred, {
                    "side": "precision: ⊥ prediction, not counted", "label": r.label,
                    "C(s,t,|s|)": None, "C(s,t,|t|)": None}))
            else:
                out.append(mr.ExplanationRow(r.matched_gold, pred, {
                    "side": "precision: best gold for s", "label": r.label,
                    "C(s,t,|s|)": r.contribution_p, "C(s,t,|t|)": None}))
        for g in self.gold:
            gold = (g.start, g.end)
            alts = " | ".join("⊥" if a == NOTHING else a for a in g.alternatives)
            if g.uncovered:
                out.append(mr.ExplanationRow(gold, self.best_span(g), {
                    "side": "recall: text between gold spans (repo-head)", "label": "None",
                    "C(s,t,|s|)": None, "C(s,t,|t|)": g.contribution_r if g.counted else None}))
            elif not g.counted:
                out.append(mr.ExplanationRow(gold, None, {
                    "side": "recall: ⊥ chosen, not counted", "label": f"⊥ (of {alts})",
                    "C(s,t,|s|)": None, "C(s,t,|t|)": None}))
            else:
                out.append(mr.ExplanationRow(gold, self.best_span(g), {
                    "side": "recall: best prediction for t",
                    "label": f"{g.recall_label} (of {alts})", "C(s,t,|s|)": None,
                    "C(s,t,|t|)": g.contribution_r}))
        return out

    def notes(self) -> list[mr.SpanNote]:
        """In words, what the metric takes from each span (its best match, or why nothing)."""
        out: list[mr.SpanNote] = []
        for r in self.predictions:
            if not r.counted:
                out.append(mr.SpanNote("pred", r.span, (
                    "a ⊥ ('nothing') prediction: MAFALDA leaves it out of precision's "
                    "denominator, so it neither helps nor hurts.")))
            else:
                out.append(mr.SpanNote("pred", r.span, (
                    f"precision takes C(s,t,|s|) = {r.contribution_p:.3f} from its best gold "
                    f"match {mr.PARTNER} (label {r.label})."), r.matched_gold))
        for g in self.gold:
            if g.uncovered:
                continue
            alts = " | ".join("⊥" if a == NOTHING else a for a in g.alternatives)
            if not g.counted:
                text = (f"the best alternative leaves this optional span out (⊥ among {alts}), "
                        "so recall does not count it.")
            else:
                text = (f"recall takes C(s,t,|t|) = {g.contribution_r:.3f} from its best "
                        f"prediction {mr.PARTNER}, with the alternative {g.recall_label} chosen "
                        f"among {alts}.")
            out.append(mr.SpanNote("gold", (g.start, g.end), text, self.best_span(g)))
        return out

    def to_dict(self) -> dict[str, mr.JSONValue]:
        """The command line's JSON object (``python -m core explain --metric mafalda``)."""
        d = self.score
        return {"metric": "mafalda", "variant": self.variant, "level": self.level,
                "document": self.document, "precision": d.precision, "recall": d.recall,
                "f1": d.f1,
                "label_only": {"precision": d.extra["label_precision"],
                               "recall": d.extra["label_recall"], "f1": d.extra["label_f1"]},
                "predictions": [r.to_dict() for r in self.predictions],
                "gold": [g.to_dict() for g in self.gold], "note": self.note}


def _best_index(t: _Text, rec: _RecallRow, codes: frozenset[int]) -> int | None:
    """Which prediction of ``t`` recall's row ``rec`` takes: the first on its interval
    (``rec.where``) of the label it chose (``repo-head``: of any of the span's labels), the
    predictions :func:`_recall` and :func:`_head_scores` take the best C(s,t,|t|) from, all of
    one value. Its interval alone would also name a prediction of another label there."""
    if rec.where is None:
        return None
    return next(k for k, (s, e, c) in enumerate(t.preds) if (s, e) == rec.where
                and (c in codes if rec.code is None else c == rec.code))


def explain(gold: AnnotationSet, pred: AnnotationSet, doc: str, *, level: int = 2,
            variant: str = "paper", texts: Mapping[str, str | None] | None = None,
            taxonomy: Taxonomy | None = None, gold_order: GoldOrder | None = None,
            pred_order: GoldOrder | None = None) -> MafaldaExplanation:
    """What the metric takes from each span of one document, from the pass that scores it.

    The explanation reads the gold sorted, as ``paper`` does: ``gold_order`` and ``pred_order``
    (the files' own order, :mod:`core.metrics.mafalda_order`) are accepted so that the options
    of :func:`score` can be passed unchanged, and their effects are named by :func:`read_order`'s
    warnings instead.

    ``predictions``: per predicted span, the gold span and label it matched for precision, its
    C(s,t,|s|), and whether it counts in precision's denominator (a ⊥ prediction does not,
    except in ``repo-head``); ``gold``: per gold span, its alternatives, the label the recall
    alternative chose (None = ⊥, left out, not ``counted``) and the prediction that best covers
    it with C(s,t,|t|). In ``repo-head`` the rows also list the official evaluator's ranges
    between gold spans (``uncovered``), which count in recall at levels 1 and 2.

    >>> from core.model import Span
    >>> g = AnnotationSet("g", {"a": (Span(0, 40, "ad hominem"),)}, alternatives=True)
    >>> p = AnnotationSet("p", {"a": (Span(0, 10, "ad hominem"),)})
    >>> e = explain(g, p, "a")
    >>> e.gold[0].best_prediction, e.gold[0].contribution_r
    ((0, 10), 0.25)
    """
    check_choice("variant", "mafalda", variant, VARIANTS)
    check_choice("level", "mafalda", level, LEVELS)
    if doc not in gold.spans:
        raise InputError(f"no document {doc!r} in {gold.name}")
    tax = taxonomy or mafalda()
    sub_gold = AnnotationSet(gold.name, {doc: gold.get(doc)}, gold.role, gold.alternatives)
    sub_pred = AnnotationSet(pred.name, {doc: pred.get(doc)}, pred.role, pred.alternatives)
    ((_, t),) = _texts(sub_gold, sub_pred, texts or {}, tax, level)
    ts = score_text(t, variant)
    alts = gold.alt_spans(doc)

    def name(c: int | None) -> str | None:
        if c is None:
            return None
        if level == 1:
            return tax.level1_names.get(c, str(c))
        if level == 0:
            return "no fallacy" if c == 0 else "fallacy"
        return tax.names()[c] if 0 <= c < len(tax.codes) else str(c)

    head = variant == "repo-head"
    predictions = []
    for (s, e, c), m, given in zip(t.preds, ts.matched or (None,) * len(t.preds), pred.get(doc),
                                   strict=True):
        predictions.append(PredictionMatch(
            s, e, name(c), None if m is None else ts.gold[m[0]][:2],
            None if m is None else name(c), 0.0 if m is None else m[1],
            # ⊥ predictions leave precision's denominator, except in repo-head
            c != 0 or head, given))
    gold_rows = []
    for i, ((a, b, codes), rec) in enumerate(zip(ts.gold, ts.recall_rows, strict=True)):
        is_gold = i < len(t.gold)
        label = ("any of its labels" if is_gold else None) if head else name(rec.code)
        gold_rows.append(GoldMatch(
            a, b, tuple(alts[i].labels) if is_gold else ("(between spans)",), 0 in codes,
            label, rec.where, rec.value, rec.counted, not is_gold,
            _best_index(t, rec, codes)))
    return MafaldaExplanation(doc, variant, level, _document_score(doc, ts), tuple(predictions),
                              tuple(gold_rows), ts.note)


def read_order(*, variant: str, gold_records: object, pred_records: object,
               gold: AnnotationSet, pred: AnnotationSet, texts: Mapping[str, str | None],
               labels: Sequence[str] | None = None
               ) -> tuple[AnnotationSet, list[str], dict[str, object]]:
    """What the official MAFALDA code reads from the files' order: the predictions (unchanged),
    warnings naming the documents whose unsorted gold ``metrics-py`` and ``repo-head`` read in file
    order (:mod:`core.metrics.mafalda_order`), and the options ``gold_order`` / ``pred_order``
    for :func:`score` (the file order of the texts it lists unsorted; zero-length spans kept
    under ``--beyond-text official``; none when neither is there,
    :func:`~core.metrics.mafalda_order.what_scores`). ``gold_records`` and ``pred_records`` are
    the readers' records."""
    options: dict[str, object] = {}
    warnings: list[str] = []
    if isinstance(gold_records, GoldOrder):
        warnings.extend(order_warnings(gold_records, texts, variant, gold.name))
    # Only what changes a score: a sorted text passed in file order leaves the vectorised path
    # for the per-text one with the same numbers (what_scores).
    # The predictions' order is never read (a MAFALDA file read as PRED records its order as
    # any file does): only their zero-length spans count.
    if isinstance(pred_records, GoldOrder):
        pred_records = GoldOrder({}, pred_records.zero_length)
    for key, records in (("gold_order", gold_records), ("pred_order", pred_records)):
        kept = what_scores(records) if isinstance(records, GoldOrder) else None
        if kept is not None:
            options[key] = kept
    return pred, warnings, options


def shared_intervals(gold: AnnotationSet
                     ) -> tuple[int, tuple[str, int, int, tuple[str, ...]] | None]:
    """How many intervals of a gold that is not MAFALDA's own carry several labels, and the
    first: the MAFALDA metric reads them as one span with alternative labels (Helwe et al.
    2024, Definition 6), which a scorer of the Da San Martino family counts as several spans.

    >>> from core.model import Span
    >>> g = AnnotationSet("g", {"1": (Span(0, 4, "A"), Span(0, 4, "B"), Span(5, 9, "A"))})
    >>> shared_intervals(g)
    (1, ('1', 0, 4, ('A', 'B')))
    """
    if gold.alternatives:
        return 0, None
    t = gold.table
    if len(t) < 2:
        return 0, None
    order = np.lexsort((t.label, t.end, t.start, t.doc))
    doc, start, end, label = t.doc[order], t.start[order], t.end[order], t.label[order]
    same = ((doc[1:] == doc[:-1]) & (start[1:] == start[:-1]) & (end[1:] == end[:-1])
            & (label[1:] != label[:-1]))
    if not same.any():
        return 0, None
    runs = same & ~np.concatenate(([False], same[:-1]))
    first = int(np.argmax(runs))
    k = first
    labels = [t.labels[label[k]]]
    while k < len(same) and same[k]:
        labels.append(t.labels[label[k + 1]])
        k += 1
    return int(runs.sum()), (t.doc_ids[doc[first]], int(start[first]), int(end[first]),
                             tuple(sorted(set(labels))))

