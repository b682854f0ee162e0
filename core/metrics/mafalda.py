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
not) before scoring (``core.taxonomy``); a prediction ``unknown`` is "no fallacy" at level 0.

Variants (``variant=``), from ``shared/reference/official-scorers.md`` §3.4-§3.7
-------------------------------------------------------------------------------
``paper`` (default)
    Definition 6: every alternative chooses exactly one label per gold span, for precision and
    recall alike. With the ``paper-2023`` parsing of the released model outputs this reproduces
    the paper's Tables 7 and 9-14 (§3.7.6).
``metrics-py``
    The repository's ``src/metrics.py``: precision maximises over alternatives that choose *any
    non-empty subset* of each span's labels (recall: one label). Differs from the paper's prose
    in that a gold span may offer several labels at once to precision.
``repo-head``
    What the repository's evaluator prints today (``src/new_metrics.py``, §3.5): no alternatives;
    a prediction matches a gold span when its label is among the span's labels; spans that hold
    ⊥ leave recall's denominator; the text between gold spans becomes gold spans labelled None,
    which count in recall's denominator at levels 1 and 2 (so an exact match gets R = 0.5); and
    ``nothing`` predictions stay in precision's denominator.

Differences from the paper's prose that all official code shares: P and R are maximised
*independently* (the best alternative for P need not be the best for R); a text whose gold
allows no fallacy at all scores 1 only when nothing but ``nothing`` is predicted; and a
``nothing`` prediction on a text whose only gold span is optional gets R = 0, because the empty
alternative requires |S| = 0 and ``nothing`` spans count in |S| there.

Label-only metric (text level, §3.4): the set of predicted fallacy codes against each
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
every text (``official-scorers.md`` §3.6): say which one a number comes from.

Citation: C. Helwe, T. Calamai, P.-H. Paris, C. Clavel, F. Suchanek. MAFALDA: A Benchmark and
Comprehensive Study of Fallacy Detection and Classification. NAACL 2024.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import InputError, check_choice
from core.formats import ReadOptions, load_path
from core.formats.docsets import check_same_documents
from core.metrics.mafalda_order import GoldOrder, official_reading
from core.metrics.mafalda_order import warnings as order_warnings
from core.model import NOTHING, AnnotationSet
from core.taxonomy import Taxonomy, mafalda

VARIANTS = ("paper", "metrics-py", "repo-head")
LEVELS = (0, 1, 2)
CARD = __doc__

Interval = tuple[int, int]


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


def uncovered_ranges(intervals: Sequence[Interval], text_length: int) -> tuple[Interval, ...]:
    """The official evaluator's "uncovered" gold ranges (``build_ground_truth_spans``, §3.3).

    Inclusive-looking ``(current, start - 1)`` ranges between intervals, the official off-by-one
    included; they matter only to the ``repo-head`` variant.

    >>> uncovered_ranges([(5, 10)], 20)
    ((0, 4), (11, 20))
    >>> uncovered_ranges([], 7)
    ((0, 7),)
    """
    if not intervals:
        return ((0, text_length),)
    out = []
    current = 0
    for start, end in intervals:
        if current < start:
            out.append((current, start - 1))
        current = max(current, end + 1)
    if current < text_length:
        out.append((current, text_length))
    return tuple(out)


def _texts(gold: AnnotationSet, pred: AnnotationSet, texts: Mapping[str, str | None],
           tax: Taxonomy, level: int, order: Mapping[str, Sequence[Interval]] | None = None,
           zero_gold: Mapping[str, Sequence[tuple[int, str]]] | None = None,
           zero_pred: Mapping[str, Sequence[tuple[int, str]]] | None = None,
           ) -> list[tuple[str, _Text]]:
    out = []
    n_classes = tax.n_classes[level]
    # Each distinct label is looked up once (a corpus has few labels and many spans).
    pred_code: dict[str, int] = {}
    gold_code: dict[str, int] = {}

    def project_pred(label: str) -> int:
        if label not in pred_code:
            pred_code[label] = tax.project(0 if label == NOTHING else tax.code(label), level)
        return pred_code[label]

    def project_gold(label: str) -> int:
        if label not in gold_code:
            code = 0 if label == NOTHING else tax.code(label, allow_unknown=False)
            gold_code[label] = (0 if code == 0 else 1) if level == 0 else tax.project(code, level)
        return gold_code[label]

    for doc in gold.doc_ids:
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


def _recall(t: _Text) -> tuple[float, dict[int, int | None]]:
    """Max over one-label alternatives; returns R and the label each gold span takes (None: ⊥)."""
    mandatory: list[tuple[int, float, int]] = []
    optional: list[tuple[int, float, int]] = []
    for i, (a, b, codes) in enumerate(t.gold):
        best, best_label = 0.0, None
        for code in sorted(codes - {0}):
            value = max((_ratio(_ov(a, b, s, e), b - a) for s, e, c in t.preds if c == code),
                        default=0.0)
            if best_label is None or value > best:
                best, best_label = value, code
        if best_label is None:
            continue
        (optional if 0 in codes else mandatory).append((i, best, best_label))
    choice: dict[int, int | None] = {i: None for i in range(len(t.gold))}
    for i, _, lab in mandatory:
        choice[i] = lab
    num = sum(v for _, v, _ in mandatory)
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
    for i, _, lab in ranked[:k_best]:
        choice[i] = lab
    return score, choice


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


def _span_scores(t: _Text, variant: str) -> tuple[float, float, dict[str, Any]]:
    if _no_fallacy_possible(t):
        v = 0.0 if any(c != 0 for *_, c in t.preds) else 1.0
        return v, v, {"special": "the gold allows no fallacy in this text"}
    r, r_choice = _recall(t)
    if variant == "metrics-py":
        p, matched = _precision_subset(t)
        p_choice: dict[int, Any] = {i: "all labels" for i in range(len(t.gold))}
    else:
        p, matched, one = _precision_one_label(t)
        p_choice = {i: one.get(i) for i in range(len(t.gold))}
    return p, r, {"recall_choice": r_choice, "precision_choice": p_choice, "matched": matched}


def _head_scores(t: _Text) -> tuple[float, float, dict[str, Any]]:
    gold_all = [(a, b, codes) for a, b, codes in t.gold]
    none_code = 0 if t.n_classes == 1 else -1  # the uncovered {None} set: {0} at level 0
    gold_all += [(a, b, frozenset({none_code})) for a, b in t.uncovered]
    detail: dict[str, Any] = {"uncovered": list(t.uncovered), "gold_all": gold_all}
    if not t.preds and not gold_all:
        return 1.0, 1.0, detail
    matched: list[tuple[int, float] | None] = []
    for s, e, c in t.preds:
        cands = [(i, _ratio(_ov(s, e, a, b), e - s)) for i, (a, b, codes) in enumerate(gold_all)
                 if c != 0 and c in codes]
        matched.append(max(cands, key=lambda x: x[1]) if cands else None)
    detail["matched"] = matched
    p = 1.0 if not t.preds else sum(m[1] for m in matched if m is not None) / len(t.preds)
    recall_best: dict[int, tuple[float, list[int] | None]] = {}
    for i, (a, b, codes) in enumerate(gold_all):
        if 0 not in codes:
            recall_best[i] = max(((_ratio(_ov(s, e, a, b), b - a), [s, e])
                                  for s, e, c in t.preds if c in codes), default=(0.0, None))
    detail["recall_best"] = recall_best
    r = sum(v for v, _ in recall_best.values()) / len(recall_best) if recall_best else 1.0
    return p, r, detail


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
    f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return p, r, f1


# ---- results --------------------------------------------------------------------------------


@dataclass
class DocScore:
    document: str
    precision: float
    recall: float
    f1: float
    label_precision: float
    label_recall: float
    label_f1: float
    detail: dict[str, Any] = field(default_factory=dict, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {"document": self.document, "precision": self.precision, "recall": self.recall,
                "f1": self.f1, "label_precision": self.label_precision,
                "label_recall": self.label_recall, "label_f1": self.label_f1}


@dataclass
class MafaldaResult:
    variant: str
    level: int
    per_document: list[DocScore]
    warnings: list[str] = field(default_factory=list)

    def _mean(self, attr: str) -> float:
        n = len(self.per_document)
        return sum(getattr(d, attr) for d in self.per_document) / n if n else 0.0

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
    def label_only(self) -> dict[str, float]:
        return {"precision": self._mean("label_precision"), "recall": self._mean("label_recall"),
                "f1": self._mean("label_f1")}

    def to_dict(self, *, per_document: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"metric": "mafalda", "variant": self.variant, "level": self.level,
                               "precision": self.precision, "recall": self.recall, "f1": self.f1,
                               "label_only": self.label_only,
                               "documents": len(self.per_document),
                               "warnings": list(self.warnings)}
        if per_document:
            out["per_document"] = [d.as_dict() for d in self.per_document]
        return out


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def score_text(t: _Text, variant: str) -> tuple[float, float, float, float, float, float,
                                                 dict[str, Any]]:
    """Span P, R, F1 and label-only P, R, F1 of one text."""
    if variant == "repo-head":
        p, r, detail = _head_scores(t)
    else:
        p, r, detail = _span_scores(t, variant)
    lp, lr, lf = _label_only(t, "metrics-py" if variant == "repo-head" else variant)
    return p, r, _f1(p, r), lp, lr, lf, detail


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
    check_choice("variant", "mafalda", variant, VARIANTS)
    check_choice("level", "mafalda", level, LEVELS)
    check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name, "identical")
    tax = taxonomy or mafalda()
    rows = []
    order = (gold_order.intervals if gold_order is not None
             and variant in ("metrics-py", "repo-head") else None)
    zero_gold = gold_order.zero_length if gold_order is not None else None
    zero_pred = pred_order.zero_length if pred_order is not None else None
    for doc, t in _texts(gold, pred, texts or {}, tax, level, order, zero_gold, zero_pred):
        p, r, f1, lp, lr, lf, detail = score_text(t, variant)
        rows.append(DocScore(doc, p, r, f1, lp, lr, lf, detail))
    return MafaldaResult(variant, level, rows)


def explain(gold: AnnotationSet, pred: AnnotationSet, doc: str, *, level: int = 2,
            variant: str = "paper", texts: Mapping[str, str | None] | None = None,
            taxonomy: Taxonomy | None = None) -> dict[str, Any]:
    """What the metric takes from each span of one document, from the same code as the score.

    ``predictions``: per predicted span, the gold span and label it matched for precision, its
    C(s,t,|s|), and whether it counts in precision's denominator (a ⊥ prediction does not,
    except in ``repo-head``); ``gold``: per gold span, its alternatives, the label the recall
    alternative chose (None = ⊥, left out, not ``counted``) and the prediction that best covers
    it with C(s,t,|t|). In ``repo-head`` the rows also list the official evaluator's ranges
    between gold spans (``uncovered``), which count in recall at levels 1 and 2.
    """
    check_choice("variant", "mafalda", variant, VARIANTS)
    if doc not in gold.spans:
        raise InputError(f"no document {doc!r} in {gold.name}")
    tax = taxonomy or mafalda()
    sub_gold = AnnotationSet(gold.name, {doc: gold.get(doc)}, gold.role, gold.alternatives)
    sub_pred = AnnotationSet(pred.name, {doc: pred.get(doc)}, pred.role, pred.alternatives)
    ((_, t),) = _texts(sub_gold, sub_pred, texts or {}, tax, level)
    p, r, f1, lp, lr, lf, detail = score_text(t, variant)
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
    gold_all = detail.get("gold_all") or list(t.gold)
    pred_rows = []
    matched = detail.get("matched") or [None] * len(t.preds)
    for k, (s, e, c) in enumerate(t.preds):
        m = matched[k]
        pred_rows.append({"start": s, "end": e, "label": name(c),
                          "matched_gold": None if m is None else list(gold_all[m[0]][:2]),
                          "matched_label": None if m is None else name(c),
                          "contribution_p": 0.0 if m is None else m[1],
                          # ⊥ predictions leave precision's denominator, except in repo-head
                          "counted": c != 0 or head})
    gold_rows = []
    r_choice = detail.get("recall_choice") or {}
    recall_best = detail.get("recall_best") or {}
    for i, (a, b, codes) in enumerate(gold_all):
        is_gold = i < len(t.gold)
        if head:
            chosen_name = "any of its labels" if is_gold else None
            value, where = recall_best.get(i, (0.0, None))
            counted = i in recall_best
        else:
            chosen = r_choice.get(i)
            chosen_name = name(chosen)
            value, where = max(((_ratio(_ov(a, b, s, e), b - a), [s, e]) for s, e, c in t.preds
                                if chosen is not None and c == chosen), default=(0.0, None))
            counted = chosen is not None and "special" not in detail
        gold_rows.append({"start": a, "end": b,
                          "alternatives": list(alts[i].labels) if is_gold else ["(between spans)"],
                          "optional": 0 in codes, "recall_label": chosen_name,
                          "best_prediction": where, "contribution_r": value,
                          "counted": counted, "uncovered": not is_gold})
    return {"metric": "mafalda", "variant": variant, "level": level, "document": doc,
            "precision": p, "recall": r, "f1": f1,
            "label_only": {"precision": lp, "recall": lr, "f1": lf},
            "predictions": pred_rows, "gold": gold_rows,
            "note": detail.get("special")}


# ---- command line --------------------------------------------------------------------------


def _load(args: argparse.Namespace) -> tuple[AnnotationSet, AnnotationSet,
                                            dict[str, str | None], Taxonomy, list[str], str]:
    from core.taxonomy import load as load_taxonomy

    tax = load_taxonomy(getattr(args, "taxonomy", None))
    from core import bounds
    from core.metrics.martino import not_spans

    policy = bounds.from_args(args)
    gold_l = load_path(args.gold, fmt=args.gold_format,
                       options=ReadOptions(role="gold", beyond_text=policy))
    gold = gold_l.set
    if not gold.alternatives:
        gold = AnnotationSet(gold.name, gold.spans, gold.role, alternatives=True)
    pred_l = load_path(args.pred, fmt=args.pred_format,
                       options=ReadOptions(role="system", llm_parsing=args.llm_parsing,
                                           gold_texts=None, gold_doc_ids=gold.doc_ids,
                                           beyond_text=policy))
    warnings = [str(d) for d in gold_l.diagnostics + pred_l.diagnostics]
    not_spans(gold_l, pred_l, "mafalda")
    (pred,), more = bounds.check_sets([(str(args.pred), pred_l.set)], gold_l.texts, policy)
    if isinstance(gold_l.records, GoldOrder):
        more += order_warnings(gold_l.records, gold_l.texts, getattr(args, "variant", None)
                               or "paper", gold.name)
        args.gold_order = gold_l.records
    if isinstance(pred_l.records, GoldOrder):
        args.pred_order = pred_l.records
    return gold, pred, gold_l.texts, tax, warnings + more, pred_l.format


def cli_score(args: argparse.Namespace) -> dict[str, Any]:
    """``python -m core score GOLD PRED --metric mafalda [--variant V] [--level L]``."""
    variant = args.variant or "paper"
    check_choice("variant", "mafalda", variant, VARIANTS)
    gold, pred, texts, tax, warnings, pred_format = _load(args)
    result = score(gold, pred, level=args.level, variant=variant, texts=texts, taxonomy=tax,
                   gold_order=getattr(args, "gold_order", None),
                   pred_order=getattr(args, "pred_order", None))
    out = result.to_dict(per_document=args.per_document)
    out["llm_parsing"] = args.llm_parsing if pred_format == "mafalda-llm" else None
    out["warnings"] = warnings + out["warnings"]
    return out


def cli_explain(args: argparse.Namespace) -> dict[str, Any]:
    variant = args.variant or "paper"
    gold, pred, texts, tax, warnings, _ = _load(args)
    out = explain(gold, pred, args.doc, level=args.level, variant=variant, texts=texts,
                  taxonomy=tax)
    out["warnings"] = warnings
    return out


def render_text(result: dict[str, Any]) -> str:
    head = f"MAFALDA metric, variant {result['variant']}, level {result['level']}"
    if "document" in result:
        head += f", document {result['document']!r}"
    lines = [head,
             f"  span        P {result['precision']:.4f}  R {result['recall']:.4f}  "
             f"F1 {result['f1']:.4f}",
             f"  label only  P {result['label_only']['precision']:.4f}  "
             f"R {result['label_only']['recall']:.4f}  F1 {result['label_only']['f1']:.4f}"]
    if "documents" in result:
        lines.append(f"  averaged over {result['documents']} texts")
    for row in result.get("predictions") or []:
        lines.append(f"  pred [{row['start']},{row['end']}) {row['label']}: matched "
                     f"{row['matched_gold']} C(s,t,|s|)={row['contribution_p']:.4f}")
    for row in result.get("gold") or []:
        lines.append(f"  gold [{row['start']},{row['end']}) {' | '.join(row['alternatives'])}: "
                     f"recall takes {row['recall_label'] or '⊥'}, best prediction "
                     f"{row['best_prediction']} C(s,t,|t|)={row['contribution_r']:.4f}")
    if result.get("note"):
        lines.append(f"  note: {result['note']}")
    for w in result.get("warnings") or []:
        lines.append(f"warning: {w}")
    return "\n".join(lines)
