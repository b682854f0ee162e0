"""Why the Da San Martino and MAFALDA span metrics differ, one rule at a time.

Both metrics score a predicted span s against a gold span t with the same partial credit
C(s, t, h) = |s∩t| / h · δ(l(s), l(t)) (Da San Martino et al. 2019, Eq. 1; Helwe et al. 2024,
§5.2.2). They differ by a handful of rules, and :class:`Rules` names each of them, so that one
parameterised computation, :func:`rule_score`, goes from one metric to the other:

``merge``
    NLP4IF-2019 and SemEval-2020 merge overlapping same-label spans (gold always, predictions
    with ``-m``); SemEval-2021 and MAFALDA do not (``docs/martino.md``,
    ``docs/mafalda.md``).
``level``
    MAFALDA scores at level 2 (fallacies), 1 (emotion / logic / credibility) or 0 (fallacy or
    not); labels are projected with the taxonomy (``core.model.taxonomy``) before anything else.
    Projection makes different labels equal, which is how App. D's Example 9 reaches a
    Martino recall of 1.25.
``match``
    ``sum``: Eq. 2 and 3 sum C over *all* same-document pairs; ``best``: each predicted span
    keeps max_t C(s,t,|s|) and each gold span max_s C(s,t,|t|) (MAFALDA §5.2.2, App. D).
``pooling``
    ``micro``: numerators and denominators pooled over the corpus (Martino); ``text``: P, R and
    F1 computed per text, then each averaged over the texts (MAFALDA's ``evaluate``), with
    MAFALDA's conventions for empty sides (:func:`core.metrics.result.prf`, ``empty="mafalda"``).
``alternatives``
    Off: the gold as Martino scores it (:func:`core.metrics.martino.martino_gold_view`: every
    distinct interval and label is a mandatory gold span, ⊥ dropped). On: MAFALDA's gold, a
    disjunction of alternatives (Definition 6) in which ⊥ makes a span optional, and ``nothing``
    predictions leave the precision denominator; P and R are maximised over the alternatives.
    Only MAFALDA's own code does this, so ``alternatives=True`` requires ``match="best"`` and
    ``pooling="text"`` and scores with :func:`core.metrics.mafalda.score` in
    ``mafalda_variant`` (``paper``, ``metrics-py`` or ``repo-head``).

End points: ``Rules()`` is the SemEval-2021 scorer (:func:`core.metrics.martino.score`),
``Rules(merge=True)`` the NLP4IF-2019 scorer with ``-m``, and :func:`mafalda_rules` the MAFALDA
metric. Every intermediate combination is the Martino scorer with ``match="best"`` and/or the
text average of its own per-document sums: the sums of :func:`core.metrics.martino.score`, taken
from one overlap join (:mod:`core.metrics.overlap`) that the rules which merge nothing share, the
same floats (``tests/differences/test_path_shared.py``). :func:`metric_path`
lists the steps the Metric differences page draws as a waterfall; :func:`document_differences`
compares the two metrics text by text and tags each text with the reasons they can differ
there (:data:`REASONS`).

Citation: G. Da San Martino et al., EMNLP-IJCNLP 2019 (and the NLP4IF-2019 / SemEval-2021
evaluation descriptions); C. Helwe et al., MAFALDA, NAACL 2024, §5.2 and Appendix D.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

import numpy as np

from core.metrics import mafalda, martino, registry
from core.metrics.mafalda_order import GoldOrder
from core.metrics.overlap import OverlapPairs, SpanArrays, overlapping_pairs, span_arrays
from core.metrics.result import prf, prf_arrays
from core.model import NOTHING, AltSpan, AnnotationSet, Span, SpanTable
from core.model.errors import InputError, SpanScopeError, check_choice
from core.model.taxonomy import Taxonomy, for_labels

MATCHES = ("sum", "best")
POOLINGS = ("micro", "text")
LEVELS = (0, 1, 2)


@dataclass(frozen=True)
class Rules:
    """One combination of the rules that separate the two metrics (module docstring)."""

    merge: bool = False
    level: int = 2
    match: str = "sum"
    pooling: str = "micro"
    alternatives: bool = False
    mafalda_variant: str = "paper"

    def check(self) -> None:
        check_choice("match", "rule_score", self.match, MATCHES)
        check_choice("pooling", "rule_score", self.pooling, POOLINGS)
        check_choice("level", "rule_score", self.level, LEVELS)
        check_choice("mafalda_variant", "rule_score", self.mafalda_variant, mafalda.VARIANTS)
        if self.alternatives and (self.match, self.pooling, self.merge) != ("best", "text", False):
            raise InputError("gold alternatives are scored by the MAFALDA metric only: they need "
                             "match='best', pooling='text' and no merging")

    def describe(self) -> str:
        """The rules in words, e.g. ``sum over pairs · pooled · level 2 · single gold``."""
        parts = ["merged overlaps" if self.merge else "no merging",
                 "sum over pairs" if self.match == "sum" else "best match per span",
                 "pooled over the corpus" if self.pooling == "micro" else "averaged per text",
                 f"level {self.level}",
                 (f"gold alternatives and ⊥ (MAFALDA {self.mafalda_variant})"
                  if self.alternatives else "single gold")]
        return " · ".join(parts)


MARTINO = Rules()
"""The SemEval-2021 Task 6 scorer."""
MARTINO_MERGED = Rules(merge=True)
"""The NLP4IF-2019 FLC scorer with ``-m`` (same-label overlaps merged on both sides)."""


def mafalda_rules(level: int = 2, variant: str = "paper") -> Rules:
    """The MAFALDA metric at ``level`` in ``variant``."""
    return Rules(level=level, match="best", pooling="text", alternatives=True,
                 mafalda_variant=variant)


@dataclass(frozen=True)
class RuleScore:
    """P, R and F1 under one :class:`Rules`, and each text's values (same order as
    ``documents``; under ``micro`` pooling they are the per-document Martino values)."""

    rules: Rules
    precision: float
    recall: float
    f1: float
    documents: list[str]
    doc_precision: list[float]
    doc_recall: list[float]
    doc_f1: list[float]
    warnings: list[str] = field(default_factory=list)

    def per_document(self) -> dict[str, tuple[float, float, float]]:
        return {d: (p, r, f) for d, p, r, f in zip(self.documents, self.doc_precision,
                                                   self.doc_recall, self.doc_f1, strict=True)}

    @classmethod
    def of_mafalda(cls, rules: Rules, m: mafalda.MafaldaResult) -> RuleScore:
        """The score under MAFALDA's ``rules`` (``alternatives=True``) from the MAFALDA
        metric's result ``m`` at their level and variant: its per-text columns, not its rows (a
        ``DocumentScore`` per text: 0.3 s of CPU at 100,000 texts for the same floats), and
        means that add the same floats in the same order as ``MafaldaResult``'s."""
        if not rules.alternatives or (m.level, m.variant) != (rules.level,
                                                               rules.mafalda_variant):
            raise ValueError(f"a MAFALDA result at level {m.level} ({m.variant}) does not score "
                             f"{rules.describe()}")
        c = m.columns
        ps, rs, fs = list(c.precision), list(c.recall), list(c.f1)
        return cls(rules, _mean(ps), _mean(rs), _mean(fs), list(c.documents), ps, rs, fs,
                   list(m.warnings))


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _taxonomy(gold: AnnotationSet, pred: AnnotationSet, taxonomy: Taxonomy | None) -> Taxonomy:
    return taxonomy or for_labels([*gold.labels(), *pred.labels()])


def project(aset: AnnotationSet, taxonomy: Taxonomy, level: int, *, gold: bool) -> AnnotationSet:
    """``aset`` with every label replaced by its level-``level`` class name.

    Gold spans whose class is "no fallacy" (⊥) are dropped; predicted ones are kept under that
    name, as Martino keeps any predicted label. ``level=2`` returns ``aset`` itself. On the
    set's columns: each label used is projected once (in order of first appearance, so an
    unknown gold label is refused at its first span) and the rows keep their order.
    """
    if level == 2:
        return aset
    t = aset.table
    code = np.zeros(len(t.labels), dtype=np.int64)
    for name in t.used_labels():
        c = 0 if name == NOTHING else taxonomy.code(name, allow_unknown=not gold)
        code[t.labels.index(name)] = taxonomy.project(c, level)
    projected = code[t.label] if len(t) else np.zeros(0, dtype=np.int64)
    keep = projected != 0 if gold else np.ones(len(t), dtype=bool)
    kept = projected[keep]
    # Class names numbered in order of first appearance, as a table built from spans numbers them.
    used, first = np.unique(kept, return_index=True)
    used = used[np.argsort(first, kind="stable")]
    renumber = np.zeros(int(code.max(initial=0)) + 1, dtype=np.int32)
    index: dict[str, int] = {}
    for c in used.tolist():
        renumber[c] = index.setdefault(taxonomy.label_name(c, level), len(index))
    table = SpanTable.from_columns(t.doc_ids, t.doc[keep], t.start[keep], t.end[keep],
                                   renumber[kept], list(index), sort=False)
    return AnnotationSet(aset.name, table, aset.role, alternatives=False)


def rule_score(gold: AnnotationSet, pred: AnnotationSet, rules: Rules = MARTINO, *,
               taxonomy: Taxonomy | None = None,
               texts: Mapping[str, str | None] | None = None,
               gold_order: GoldOrder | None = None,
               pred_order: GoldOrder | None = None) -> RuleScore:
    """Score ``pred`` against ``gold`` under ``rules`` (module docstring). ``gold_order`` and
    ``pred_order``: what the files' order makes MAFALDA read (:func:`core.metrics.mafalda.score`'s
    options of the same names, from its ``read_order`` hook), for the rules with alternatives.

    >>> g = AnnotationSet("g", {"d": (Span(0, 40, "ad hominem"),)})
    >>> p = AnnotationSet("p", {"d": (Span(0, 10, "ad hominem"), Span(0, 40, "tu quoque"))})
    >>> rule_score(g, p, Rules(level=1)).recall   # App. D Example 9: 10/40 + 40/40
    1.25
    >>> rule_score(g, p, Rules(level=1, match="best")).recall
    1.0
    """
    rules.check()
    return _Scorer(gold, pred, _taxonomy(gold, pred, taxonomy), texts,
                   (gold_order, pred_order)).score(rules)


@dataclass(frozen=True)
class _Sums:
    """Martino's sums under one rule set (:class:`core.metrics.martino.MartinoResult`'s
    ``p_num``, ``p_den``, ``r_num``, ``r_den``), pooled and per document."""

    p_num: float
    p_den: int
    r_num: float
    r_den: int
    documents: list[str]
    doc: np.ndarray  # one row per document: p_num, p_den, r_num, r_den
    warnings: list[str]

    @classmethod
    def of(cls, res: martino.MartinoResult) -> _Sums:
        return cls(res.p_num, res.p_den, res.r_num, res.r_den, res.documents,
                   _doc_sums(res.doc_p_num, res.doc_p_den, res.doc_r_num, res.doc_r_den),
                   list(res.warnings))


def _doc_sums(p_num: np.ndarray, p_den: np.ndarray, r_num: np.ndarray,
              r_den: np.ndarray) -> np.ndarray:
    return np.column_stack([p_num, p_den, r_num, r_den]).astype(float).reshape(len(p_num), 4)


@dataclass(frozen=True)
class _Join:
    """The overlapping same-label pairs of a gold and a prediction that merge nothing (the
    SemEval-2021 rules at one level), enumerated once by :mod:`core.metrics.overlap`: the sum
    over pairs and the best match per span are two reductions of the same pairs."""

    documents: list[str]
    pred: SpanArrays
    gold: SpanArrays
    pairs: OverlapPairs
    warnings: list[str]  # martino.score's, for labels the two sets do not share

    @classmethod
    def of(cls, gold: AnnotationSet, pred: AnnotationSet) -> _Join:
        # What martino.score checks and reads for semeval2021 (its _prepare), on sets that are
        # plain gold and predictions already.
        martino.check_documents_2021(gold, pred)
        documents = list(gold.doc_ids)
        doc_index = {d: i for i, d in enumerate(documents)}
        label_index: dict[str, int] = {}
        ga = span_arrays(gold.table, doc_index, label_index)
        pa = span_arrays(pred.table, doc_index, label_index)
        pairs = overlapping_pairs(pa, ga, len(documents), ignore_labels=False, by_label=True)
        return cls(documents, pa, ga, pairs, martino.disjoint_labels(gold, pred))

    def sums(self, match: str) -> _Sums:
        """:func:`core.metrics.martino.score`'s sums with ``match`` (the same arrays, added in
        the same order, so the same floats: ``tests/differences``)."""
        pa, ga, pairs, n_docs = self.pred, self.gold, self.pairs, len(self.documents)
        if match == "best":
            p_weight = np.zeros(len(pa.doc))
            np.maximum.at(p_weight, pairs.pred, pairs.c_pred)
            r_weight = np.zeros(len(ga.doc))
            np.maximum.at(r_weight, pairs.gold, pairs.c_gold)
            p_doc, r_doc = pa.doc, ga.doc
        else:
            p_doc = r_doc = pa.doc[pairs.pred]
            p_weight, r_weight = pairs.c_pred, pairs.c_gold
        doc = _doc_sums(np.bincount(p_doc, weights=p_weight, minlength=n_docs),
                        np.bincount(pa.doc, minlength=n_docs),
                        np.bincount(r_doc, weights=r_weight, minlength=n_docs),
                        np.bincount(ga.doc, minlength=n_docs))
        return _Sums(float(p_weight.sum()), len(pa.doc), float(r_weight.sum()), len(ga.doc),
                     self.documents, doc, list(self.warnings))


class _Scorer:
    """:func:`rule_score` for one pair, keeping what several rule sets share: each set's labels
    projected to a level (once per level), the overlap join of the unmerged sets (once per
    level) and its sums (once per match). :func:`metric_path` scores every step with one."""

    def __init__(self, gold: AnnotationSet, pred: AnnotationSet, taxonomy: Taxonomy,
                 texts: Mapping[str, str | None] | None,
                 orders: tuple[GoldOrder | None, GoldOrder | None] = (None, None)) -> None:
        self.gold, self.pred, self.taxonomy, self.texts = gold, pred, taxonomy, texts
        self.gold_order, self.pred_order = orders  # MAFALDA's reading of the files' order
        self._sets: dict[int, tuple[AnnotationSet, AnnotationSet]] = {}
        self._joins: dict[int, _Join] = {}
        self._sums: dict[tuple[bool, int, str], _Sums] = {}
        self._mafalda: dict[tuple[int, str], mafalda.MafaldaResult] = {}

    def sets(self, level: int) -> tuple[AnnotationSet, AnnotationSet]:
        """Martino's gold and the predictions, labels at ``level``."""
        if level not in self._sets:
            g = project(martino.martino_gold_view(self.gold), self.taxonomy, level, gold=True)
            p = project(AnnotationSet(self.pred.name, self.pred.spans, "system"), self.taxonomy,
                        level, gold=False)
            self._sets[level] = (g, p)
        return self._sets[level]

    def sums(self, rules: Rules) -> _Sums:
        key = (rules.merge, rules.level, rules.match)
        if key not in self._sums:
            g, p = self.sets(rules.level)
            if rules.merge:
                self._sums[key] = _Sums.of(martino.score(g, p, variant="nlp4if2019",
                                                         merge_pred=True, match=rules.match))
            else:
                if rules.level not in self._joins:
                    self._joins[rules.level] = _Join.of(g, p)
                self._sums[key] = self._joins[rules.level].sums(rules.match)
        return self._sums[key]

    def mafalda(self, level: int, variant: str) -> mafalda.MafaldaResult:
        """:func:`core.metrics.mafalda.score` at ``level`` under ``variant``, derived from a
        result of another variant the path computed already when the registry's entry derives
        it from that one (:meth:`~core.metrics.registry.Metric.derived_from`: the chosen
        variant's last step from the paper's), scoring again only the texts where they can
        differ; the same numbers (``core.metrics.mafalda.derive``)."""
        key = (level, variant)
        if key not in self._mafalda:
            gold = self.gold.as_alternatives()
            done = [self._mafalda[(level, v)] for v in registry.get("mafalda").derived_from(
                variant) if (level, v) in self._mafalda]
            self._mafalda[key] = (
                mafalda.derive(done[0], gold, self.pred, variant=variant, level=level,
                               texts=self.texts, taxonomy=self.taxonomy,
                               gold_order=self.gold_order, pred_order=self.pred_order)
                if done else
                mafalda.score(gold, self.pred, level=level, variant=variant, texts=self.texts,
                              taxonomy=self.taxonomy, gold_order=self.gold_order,
                              pred_order=self.pred_order))
        return self._mafalda[key]

    def score(self, rules: Rules) -> RuleScore:
        if rules.alternatives:
            # MAFALDA reads the gold by its Definition 6 (spans sharing an interval are
            # alternatives), as the registry's entry does on the Scores page and the command
            # line.
            return RuleScore.of_mafalda(rules, self.mafalda(rules.level, rules.mafalda_variant))
        s = self.sums(rules)
        if rules.pooling == "micro":
            # MartinoResult's per-document and pooled values (prf_arrays agrees with prf).
            p, r, f = prf_arrays(s.doc, empty="official")
            overall = prf(s.p_num, s.p_den, s.r_num, s.r_den, empty="official")
            return RuleScore(rules, *overall, list(s.documents), p.tolist(), r.tolist(),
                             f.tolist(), list(s.warnings))
        p, r, f = prf_arrays(s.doc, empty="mafalda")
        ps, rs, fs = p.tolist(), r.tolist(), f.tolist()
        return RuleScore(rules, _mean(ps), _mean(rs), _mean(fs), list(s.documents), ps, rs, fs,
                         list(s.warnings))


# ---- the path from one metric to the other ---------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One bar of the path: the rules after this step, its score (or why it cannot be scored),
    and whether it is an official metric (an end point drawn as a total)."""

    key: str
    title: str
    explanation: str
    rules: Rules
    score: RuleScore | None
    error: str | None = None
    official: bool = False

    def value(self, which: str = "f1") -> float | None:
        return None if self.score is None else float(getattr(self.score, which))


MERGED_TITLE = "Martino, merged (NLP4IF-2019 / SemEval-2020 -m)"
MERGED_TEXT = ("Overlapping same-label spans merged into their union, gold and predictions, as "
               "the 2019 and 2020 scorers do (predictions with -m).")
LEVEL_TEXT = ("Labels projected to level {level} of the taxonomy: different labels of one group "
              "now match each other.")


def path_rules(level: int = 2, mafalda_variant: str = "paper", *, level_first: bool = False
               ) -> list[tuple[str, str, str, Rules, bool]]:
    """The steps of :func:`metric_path` as (key, title, explanation, rules, official).

    ``level_first`` (a level other than 2): the labels are projected before the Martino
    metrics, as Learn's score tiles score every metric at the example's level (App. D.1 of
    MAFALDA does so for Martino's recall): a first bar scores the labels as written
    (``written``), the level step projects them, and the Martino bars that follow (``merged``,
    ``martino``) are the tiles' numbers. Without it (the Metric differences page, whose Scores
    page scores Martino on the labels as written) the level step follows the Martino bars."""
    first = level_first and level != 2
    at = level if first else 2
    steps: list[tuple[str, str, str, Rules, bool]] = []
    if first:
        steps += [
            ("written", f"{MERGED_TITLE} · labels as written",
             MERGED_TEXT + " The labels as the files write them (level 2).", MARTINO_MERGED,
             True),
            ("level", f"labels at level {level}", LEVEL_TEXT.format(level=level),
             replace(MARTINO_MERGED, level=level), False)]
    suffix = f", level {level}" if first else ""
    steps += [
        ("merged", MERGED_TITLE + suffix, MERGED_TEXT, replace(MARTINO_MERGED, level=at), True),
        ("merge", "no merging",
         "SemEval-2021 keeps every span: duplicate or overlapping same-label spans each count, "
         "so P and R can exceed 1.", replace(MARTINO, level=at), False),
        ("martino", "Martino, SemEval-2021" + suffix, "The SemEval-2021 Task 6 scorer.",
         replace(MARTINO, level=at), True),
    ]
    rules = replace(MARTINO, level=at)
    if level != 2 and not first:
        rules = replace(rules, level=level)
        steps.append(("level", f"labels at level {level}", LEVEL_TEXT.format(level=level),
                      rules, False))
    rules = replace(rules, match="best")
    steps.append(("match", "best match per span",
                  "Each span keeps only its best-matching partner instead of the sum over all "
                  "pairs: duplicates and pieces no longer add up.", rules, False))
    rules = replace(rules, pooling="text")
    steps.append(("pooling", "averaged per text",
                  "P, R and F1 computed per text and averaged (every text weighs the same, an "
                  "empty text scores 1) instead of pooled over the corpus.", rules, False))
    paper = mafalda_rules(level, "paper")
    steps.append(("alternatives", "gold alternatives and ⊥",
                  "The gold becomes a choice among alternatives: a span with several labels "
                  "needs one of them, ⊥ makes it optional, and 'nothing' predictions leave the "
                  "precision denominator.", paper, False))
    steps.append(("mafalda", f"MAFALDA, level {level}", "The MAFALDA metric (Definition 6).",
                  paper, True))
    if mafalda_variant != "paper":
        final = mafalda_rules(level, mafalda_variant)
        steps.append(("variant", f"{mafalda_variant} code",
                      f"Instead of the paper's reading, {mafalda_variant} is "
                      + registry.get("mafalda").variant_note(mafalda_variant), final, False))
        steps.append(("mafalda-variant", f"MAFALDA {mafalda_variant}, level {level}",
                      f"The MAFALDA metric as the repository's {mafalda_variant} computes it.",
                      final, True))
    return steps


PARTS = ("all", "martino", "mafalda")
"""What :func:`metric_path` scores: every step, the steps without gold alternatives (Martino's
scorer and its reductions) or the steps with them (the MAFALDA scorer)."""


def metric_path(gold: AnnotationSet, pred: AnnotationSet, *, level: int = 2,
                mafalda_variant: str = "paper", taxonomy: Taxonomy | None = None,
                texts: Mapping[str, str | None] | None = None, part: str = "all",
                gold_order: GoldOrder | None = None, pred_order: GoldOrder | None = None,
                level_first: bool = False) -> list[Step]:
    """The path from the Martino score to the MAFALDA score, one rule per step.

    Every step is :func:`rule_score` under the rules reached so far; a step whose inputs the
    rules refuse (for example documents missing from the prediction) carries the error instead.
    The steps share their work (:class:`_Scorer`): labels are projected once per level, the
    unmerged sets joined once per level, and the sum over pairs and the best match per span,
    pooled or averaged per text, are reductions of that one join; the merged step and MAFALDA
    are their own scorers. At 100,000 documents this is about 1.6 s of CPU (4.5 s scoring each
    step alone, 2.6 s before issue 29's eighth pass: ``docs/performance.md``).

    ``part`` (:data:`PARTS`): ``"martino"`` scores only the steps without gold alternatives and
    ``"mafalda"`` only those with them, leaving the other steps without score or error; the
    two parts are put together by :func:`joined`, or the Martino part with MAFALDA results
    computed elsewhere by :func:`with_mafalda` (the dashboard's Scores computes the same
    result ahead: ``ui/differences.py``).

    ``gold_order`` and ``pred_order`` (:func:`rule_score`): a MAFALDA gold whose labels are not
    sorted by start is read in file order by ``metrics-py`` and ``repo-head``, as ``python -m
    core score`` and the Scores page read it; without them the MAFALDA steps read it sorted.

    ``level_first`` (:func:`path_rules`): the labels projected to ``level`` before the Martino
    bars, after a first bar on the labels as written (Learn's ladder).
    """
    check_choice("part", "metric_path", part, PARTS)
    scorer = _Scorer(gold, pred, _taxonomy(gold, pred, taxonomy), texts,
                     (gold_order, pred_order))
    cache: dict[Rules, tuple[RuleScore | None, str | None]] = {}
    out = []
    for key, title, text, rules, official in path_rules(level, mafalda_variant,
                                                        level_first=level_first):
        if part != "all" and rules.alternatives != (part == "mafalda"):
            out.append(Step(key, title, text, rules, None, None, official))
            continue
        if rules not in cache:
            try:
                rules.check()
                cache[rules] = (scorer.score(rules), None)
            except SpanScopeError as exc:
                cache[rules] = (None, str(exc))
        score, error = cache[rules]
        out.append(Step(key, title, text, rules, score, error, official))
    return out


def joined(martino_part: Sequence[Step], mafalda_part: Sequence[Step]) -> list[Step]:
    """The whole path from :func:`metric_path`'s two parts for the same pair and arguments:
    each step from the part that scores it (its rules with gold alternatives: MAFALDA's)."""
    if [s.key for s in martino_part] != [s.key for s in mafalda_part]:
        raise ValueError("the two parts are not of the same path")
    return [m if s.rules.alternatives else s for s, m in zip(martino_part, mafalda_part,
                                                              strict=True)]


def with_mafalda(martino_part: Sequence[Step], results: Mapping[str, mafalda.MafaldaResult]
                 ) -> list[Step]:
    """The whole path from its Martino part (:func:`metric_path` with ``part="martino"``) and
    the MAFALDA metric's results by variant (:func:`core.metrics.mafalda.score` of the same
    gold read as alternatives, predictions, taxonomy and texts, at the path's level: the
    caller's to guarantee), as :meth:`RuleScore.of_mafalda` reads the path's own scoring of
    them. A variant the path needs and ``results`` lacks is a ``KeyError``."""
    scores: dict[Rules, RuleScore] = {}
    out = []
    for s in martino_part:
        if not s.rules.alternatives:
            out.append(s)
            continue
        if s.rules not in scores:
            scores[s.rules] = RuleScore.of_mafalda(s.rules, results[s.rules.mafalda_variant])
        out.append(replace(s, score=scores[s.rules], error=None))
    return out


# ---- text by text --------------------------------------------------------------------------

REASONS: dict[str, str] = {
    "duplicate-prediction": "the same span predicted twice: Martino sums both (recall can pass "
                            "1), MAFALDA's recall takes one",
    "split-prediction": "a gold span covered by several pieces: Martino adds the pieces up, "
                        "MAFALDA takes the best piece",
    "prediction-over-several-gold": "one prediction over several gold spans of its label: "
                                    "Martino adds every overlap to precision, MAFALDA the best",
    "overlapping-gold": "overlapping gold spans of one label: Martino's precision adds both "
                        "(can pass 1), MAFALDA takes the best",
    "overlapping-predictions": "overlapping predictions of one label: summed by Martino, best "
                               "match in MAFALDA",
    "alternative-labels": "a gold span with alternative labels: Martino needs every label, "
                          "MAFALDA one of them",
    "optional-span": "an optional gold span (⊥): Martino requires its other labels, MAFALDA "
                     "may leave it out",
    "nothing-prediction": "'nothing' predictions: counted in Martino's precision denominator, "
                          "left out by MAFALDA",
    "labels-grouped": "labels grouped at the chosen level: different level-2 labels match",
    "empty": "no span on either side: Martino's F1 is 1 with P = R = 0 and the text adds "
             "nothing to pooled sums; MAFALDA scores it 1 and averages it like any text",
    "no-gold": "no gold span: every prediction is spurious on both metrics",
    "no-prediction": "no prediction: nothing found on both metrics",
}
"""Tags of :func:`difference_reasons` and what each does to the two metrics."""


def _overlap(a: Any, b: Any) -> bool:
    return min(a.end, b.end) > max(a.start, b.start)


def difference_reasons(gold: Sequence[AltSpan], pred: Sequence[Span], *,
                       level_labels: Mapping[str, str] | None = None) -> list[str]:
    """Tags (keys of :data:`REASONS`) for one text: the features that make the metrics differ.

    ``gold`` are the text's gold spans with their alternatives (``AnnotationSet.alt_spans``),
    ``pred`` its predictions; ``level_labels`` maps each label to its class at the scored level
    (the structural tags are computed on those classes, and ``labels-grouped`` says that two
    overlapping spans match only there).

    >>> g = (AltSpan(0, 40, ("ad hominem",)),)
    >>> p = (Span(0, 10, "ad hominem"), Span(0, 10, "ad hominem"), Span(5, 30, "ad hominem"))
    >>> difference_reasons(g, p)
    ['duplicate-prediction', 'split-prediction', 'overlapping-predictions']
    """
    def cls(label: str) -> str:
        return level_labels.get(label, label) if level_labels else label

    if not gold and not pred:
        return ["empty"]
    tags: list[str] = []
    real = [s for s in pred if s.label != NOTHING]
    if any(n > 1 for n in Counter((s.start, s.end, s.label) for s in pred).values()):
        tags.append("duplicate-prediction")
    flat_gold = [(a, lab) for a in gold for lab in a.labels if lab != NOTHING]
    tags += _matching_tags(flat_gold, list(dict.fromkeys(real)), cls)
    tags += _gold_tags(gold)
    if len(real) < len(pred):
        tags.append("nothing-prediction")
    if level_labels and any(s.label != lab and cls(s.label) == cls(lab) and _overlap(s, a)
                            for s in real for a, lab in flat_gold):
        tags.append("labels-grouped")
    if not flat_gold:
        tags.append("no-gold")
    elif not real:
        tags.append("no-prediction")
    return tags


def _matching_tags(flat_gold: Sequence[tuple[AltSpan, str]], distinct_pred: Sequence[Span],
                   cls: Callable[[str], str]) -> list[str]:
    """The tags of several overlapping spans of one class, where Martino sums every pair and
    MAFALDA takes the best match (:func:`difference_reasons`, in its order)."""
    tags: list[str] = []
    if any(sum(1 for s in distinct_pred if cls(s.label) == cls(lab) and _overlap(s, a)) > 1
           for a, lab in flat_gold):
        tags.append("split-prediction")
    if any(len({(a.start, a.end) for a, lab in flat_gold
                if cls(lab) == cls(s.label) and _overlap(s, a)}) > 1 for s in distinct_pred):
        tags.append("prediction-over-several-gold")
    if any(cls(l1) == cls(l2) and _overlap(a1, a2)
           for (a1, l1), (a2, l2) in combinations(flat_gold, 2) if a1 != a2):
        tags.append("overlapping-gold")
    if any(cls(s.label) == cls(t.label) and _overlap(s, t)
           for s, t in combinations(distinct_pred, 2)):
        tags.append("overlapping-predictions")
    return tags


def _gold_tags(gold: Sequence[AltSpan]) -> list[str]:
    """The tags of MAFALDA's Definition 6 in the gold: alternative labels and ⊥."""
    tags: list[str] = []
    if any(sum(1 for lab in a.labels if lab != NOTHING) > 1 for a in gold):
        tags.append("alternative-labels")
    if any(a.optional for a in gold):
        tags.append("optional-span")
    return tags


def _same_group_pairs(gx: np.ndarray, gy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j) of an X row and a Y row with the same group key."""
    order = np.argsort(gy, kind="stable")
    sorted_gy = gy[order]
    lo = np.searchsorted(sorted_gy, gx, side="left")
    counts = np.searchsorted(sorted_gy, gx, side="right") - lo
    total = int(counts.sum())
    i = np.repeat(np.arange(len(gx)), counts)
    step = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    return i, order[np.repeat(lo, counts) + step]


def _ids(*cols: np.ndarray) -> np.ndarray:
    """One integer per distinct row of the columns (equal rows, equal ids): the rank of the row
    among the distinct rows in lexicographic order, as ``np.unique(..., axis=0)`` numbers them.
    Non-negative columns that fit in 63 bits together are packed into one key first (one sort
    of integers instead of a sort of rows: 10× faster on a million rows)."""
    if not len(cols[0]):
        return np.zeros(0, dtype=np.int64)
    widths = [max(int(c.max()), 0).bit_length() for c in cols]
    if min(int(c.min()) for c in cols) >= 0 and sum(widths) <= 63:
        key = np.zeros(len(cols[0]), dtype=np.int64)
        for c, w in zip(cols, widths, strict=True):
            key = (key << w) | c.astype(np.int64)
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        new = np.ones(len(key), dtype=bool)
        new[1:] = ordered[1:] != ordered[:-1]
        ids = np.empty(len(key), dtype=np.int64)
        ids[order] = np.cumsum(new) - 1
        return ids
    return np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)[1].reshape(-1)


def corpus_difference_reasons(gold: AnnotationSet, pred: AnnotationSet, docs: Sequence[str], *,
                              level_labels: Mapping[str, str] | None = None
                              ) -> list[tuple[str, ...]]:
    """:func:`difference_reasons` of every text of ``docs`` at once, from the sets' columns.

    The gold's spans are read as :func:`document_differences` reads them (spans sharing an
    interval are one span with alternatives when ``gold.alternatives``, else each span is its
    own); the overlapping pairs of one document and (level) class are enumerated for the whole
    corpus, and each tag is a per-document test on them. Equal to calling
    :func:`difference_reasons` text by text (``tests/differences/test_reasons_corpus.py``).
    """
    n_docs = len(docs)
    where = {d: i for i, d in enumerate(docs)}
    names: dict[str, int] = {}

    def columns(aset: AnnotationSet) -> tuple[np.ndarray, ...]:
        t = aset.table
        doc_map = np.fromiter((where.get(d, -1) for d in t.doc_ids), dtype=np.int64,
                              count=len(t.doc_ids))
        lab_map = np.fromiter((names.setdefault(x, len(names)) for x in t.labels),
                              dtype=np.int64, count=len(t.labels))
        doc = doc_map[t.doc] if len(t) else np.zeros(0, dtype=np.int64)
        lab = lab_map[t.label] if len(t) else np.zeros(0, dtype=np.int64)
        keep = doc >= 0
        return doc[keep], t.start[keep].astype(np.int64), t.end[keep].astype(np.int64), lab[keep]

    gd, gs, ge, gl = columns(gold)
    pd_, ps, pe, pl = columns(pred)
    label_names = list(names)
    nothing = names.get(NOTHING, -1)
    classes: dict[str, int] = {}
    cls_of = np.fromiter(
        (classes.setdefault(level_labels.get(x, x) if level_labels else x, len(classes))
         for x in label_names), dtype=np.int64, count=len(label_names))
    n_cls = max(len(classes), 1)

    def flag(doc: np.ndarray) -> np.ndarray:
        out = np.zeros(n_docs, dtype=bool)
        out[doc] = True
        return out

    def overlap(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> np.ndarray:
        return np.minimum(e1, e2) > np.maximum(s1, s2)

    # gold: one row per (span, label) as the per-text function's ``flat_gold`` (labels of one
    # interval deduplicated when the gold has alternatives); ``alt`` tells gold spans apart
    if gold.alternatives and len(gd):
        first = np.unique(np.stack([gd, gs, ge, gl], axis=1), axis=0, return_index=True)[1]
        first.sort()
        gd, gs, ge, gl = gd[first], gs[first], ge[first], gl[first]
        alt = _ids(gd, gs, ge)
        labels_per_alt = np.bincount(alt[gl != nothing], minlength=int(alt.max(initial=-1)) + 1)
        alternative_labels = flag(gd[labels_per_alt[alt] > 1])
    else:
        alt = _ids(gd, gs, ge, gl)
        alternative_labels = np.zeros(n_docs, dtype=bool)
    has_gold = np.bincount(gd, minlength=n_docs) > 0
    optional_span = flag(gd[gl == nothing])
    real_g = gl != nothing
    fd, fs, fe, fl, falt = gd[real_g], gs[real_g], ge[real_g], gl[real_g], alt[real_g]
    f_interval = _ids(fd, fs, fe)
    has_flat = np.bincount(fd, minlength=n_docs) > 0
    # predictions: all of them, the real ones, and the real ones once each
    has_pred = np.bincount(pd_, minlength=n_docs) > 0
    p_ids = _ids(pd_, ps, pe, pl)
    duplicate = flag(pd_[np.bincount(p_ids, minlength=len(p_ids))[p_ids] > 1]) if len(p_ids) \
        else np.zeros(n_docs, dtype=bool)
    real_p = pl != nothing
    nothing_prediction = flag(pd_[~real_p])
    has_real = np.bincount(pd_[real_p], minlength=n_docs) > 0
    once = np.zeros(len(pd_), dtype=bool)
    if len(pd_):
        once[np.unique(p_ids, return_index=True)[1]] = True
    once &= real_p
    rd, rs, re_, rl = pd_[once], ps[once], pe[once], pl[once]
    r_group = rd * n_cls + cls_of[rl] if len(rd) else rd
    f_group = fd * n_cls + cls_of[fl] if len(fd) else fd
    # distinct real predictions against gold rows of their class
    i, j = _same_group_pairs(f_group, r_group)
    hit = overlap(fs[i], fe[i], rs[j], re_[j])
    i, j = i[hit], j[hit]
    split = flag(fd[np.bincount(i, minlength=len(fd)) > 1])
    several = np.zeros(n_docs, dtype=bool)
    if len(i):
        pairs = np.unique(np.stack([j, f_interval[i]], axis=1), axis=0)
        per_pred = np.bincount(pairs[:, 0], minlength=len(rd))
        several = flag(rd[per_pred > 1])
    grouped = (flag(fd[i[fl[i] != rl[j]]]) if level_labels
               else np.zeros(n_docs, dtype=bool))
    # gold rows of different gold spans, and distinct predictions, overlapping in a class
    a, b = _same_group_pairs(f_group, f_group)
    keep = (falt[a] != falt[b]) & overlap(fs[a], fe[a], fs[b], fe[b])
    overlapping_gold = flag(fd[a[keep]])
    a, b = _same_group_pairs(r_group, r_group)
    keep = (a != b) & overlap(rs[a], re_[a], rs[b], re_[b])
    overlapping_predictions = flag(rd[a[keep]])

    tests = (("duplicate-prediction", duplicate), ("split-prediction", split),
             ("prediction-over-several-gold", several), ("overlapping-gold", overlapping_gold),
             ("overlapping-predictions", overlapping_predictions),
             ("alternative-labels", alternative_labels), ("optional-span", optional_span),
             ("nothing-prediction", nothing_prediction), ("labels-grouped", grouped))
    table = np.stack([v for _, v in tests], axis=1) if n_docs else np.zeros((0, len(tests)))
    tags = [t for t, _ in tests]
    empty = (~has_gold & ~has_pred).tolist()
    no_gold = (~has_flat).tolist()
    no_prediction = (has_flat & ~has_real).tolist()
    out: list[tuple[str, ...]] = []
    for k, row in enumerate(table.tolist()):
        if empty[k]:
            out.append(("empty",))
            continue
        found = [t for t, on in zip(tags, row, strict=True) if on]
        if no_gold[k]:
            found.append("no-gold")
        elif no_prediction[k]:
            found.append("no-prediction")
        out.append(tuple(found))
    return out


@dataclass(frozen=True)
class DocDifference:
    """One text under both metrics: Martino's per-document P/R/F1 (SemEval-2021 rules, level-2
    labels), MAFALDA's per-text P/R/F1, the difference of the F1s, the reasons, and the text's
    weight in each aggregate (its share of the pooled span counts against 1/N)."""

    document: str
    martino: tuple[float, float, float]
    mafalda: tuple[float, float, float]
    reasons: tuple[str, ...]
    pooled_weight: float
    average_weight: float

    @property
    def difference(self) -> float:
        return self.mafalda[2] - self.martino[2]

    def to_dict(self) -> dict[str, Any]:
        return {"document": self.document,
                "Martino P": self.martino[0], "Martino R": self.martino[1],
                "Martino F1": self.martino[2],
                "MAFALDA P": self.mafalda[0], "MAFALDA R": self.mafalda[1],
                "MAFALDA F1": self.mafalda[2], "F1 difference": self.difference,
                "reasons": ", ".join(self.reasons),
                "weight pooled": self.pooled_weight, "weight averaged": self.average_weight}


def document_differences(gold: AnnotationSet, pred: AnnotationSet, *, level: int = 2,
                         mafalda_variant: str = "paper", taxonomy: Taxonomy | None = None,
                         texts: Mapping[str, str | None] | None = None,
                         gold_order: GoldOrder | None = None,
                         pred_order: GoldOrder | None = None) -> list[DocDifference]:
    """Each text's Martino and MAFALDA scores and the reasons they differ, most different first.

    Martino is the SemEval-2021 scorer on the level-2 labels (the Scores page's per-document
    values); MAFALDA is :func:`core.metrics.mafalda.score` at ``level`` in ``mafalda_variant``.
    Both come from :func:`rule_score`, so they equal the end points of :func:`metric_path`
    (``gold_order`` and ``pred_order``: MAFALDA's, as there).
    """
    tax = _taxonomy(gold, pred, taxonomy)
    dsm = rule_score(gold, pred, MARTINO, taxonomy=tax, texts=texts)
    maf = rule_score(gold, pred, mafalda_rules(level, mafalda_variant), taxonomy=tax,
                     texts=texts, gold_order=gold_order, pred_order=pred_order)
    maf_docs = maf.per_document()
    level_labels = None
    if level != 2:
        level_labels = {}
        for lab in {*gold.labels(), *pred.labels()}:
            code = 0 if lab == NOTHING else tax.code(lab)
            level_labels[lab] = tax.label_name(tax.project(code, level), level)
    # Each text's spans on both sides, counted from the tables' offsets (no Span is built).
    sizes = [dict(zip(t.doc_ids, np.diff(t.offsets).tolist(), strict=True))
             for t in (martino.martino_gold_view(gold).table, pred.table)]
    counts = {d: sizes[0].get(d, 0) + sizes[1].get(d, 0) for d in dsm.documents}
    total = sum(counts.values())
    n = len(dsm.documents)
    out = []
    per_doc = dsm.per_document()
    # The reasons read the gold as the MAFALDA metric does (rule_score: as_alternatives), so
    # spans sharing an interval are one span with alternative labels.
    reasons = corpus_difference_reasons(gold.as_alternatives(), pred, list(per_doc),
                                        level_labels=level_labels)
    for (d, values), why in zip(per_doc.items(), reasons, strict=True):
        out.append(DocDifference(
            d, values, maf_docs.get(d, (0.0, 0.0, 0.0)), why,
            counts[d] / total if total else 0.0, 1 / n if n else 0.0))
    out.sort(key=lambda x: -abs(x.difference))
    return out
