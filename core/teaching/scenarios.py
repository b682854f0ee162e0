"""Worked examples of the span metrics, as data, for the Learn page and its tests.

Each :class:`Scenario` is one short text with gold spans and predictions taken from a seed
document (the papers and the official scorers), plus the numbers the seed states for it, each
with its source (:class:`Expected`). :func:`evaluate` scores a scenario, or an edited copy of its
predictions, under every Da San Martino variant the Learn page shows and under MAFALDA, calling
:mod:`core.metrics.martino` and :mod:`core.metrics.mafalda` and nothing else; :func:`measure`
reads one expected quantity back from that evaluation, so "the seed says / we compute" is one
comparison.

Scenarios
---------
``figure1-s1``, ``figure1-s2``, ``figure1-s3s4s5``, ``figure1-t1``
    Figure 1 of Da San Martino et al. (2019) / SemEval-2021 Task 6 subtask 2 (Eq. 1-4), built in
    ``sample_data/figure1`` (same text and offsets): C(s1, t1, |t1|) = 6/16,
    C(s2, t1, |t1|) = 0, and R({s3, s4, s5}, {t1}) = 7/24 < R({s1}, {t1}) = 9/24 <
    R({t1}, {t1}) = 1. C(s, t, h) keeps Eq. 1's order (s the prediction, t the gold); the
    paper's example writes the pairs C(t1, s1, |t1|) and C(t1, s2, |t1|), the same values since
    |s ∩ t| and δ do not depend on the order. Its 6/16 and its 9/24 are one value (3/8) in
    different counts; the example is built with the recall's (|t1| = 24, |s1 ∩ t1| = 9).
``mafalda-example9``
    MAFALDA App. D.1 Example 9 at level 1: Martino's recall is 1.25, MAFALDA's is 1.
``mafalda-example5``
    MAFALDA §5.2 Example 5: a gold standard with alternatives and ⊥, four alternatives T1-T4 of
    four spans each; every alternative is a valid answer.
``duplicates``
    Official conformance case ``s21_duplicate_overlapping_predictions_recall_above_one``: three
    same-label predictions over one gold span give the 2021 scorer R = 2.5, F1 = 1.428571.
``per-technique-recall-bug``
    Official conformance case ``s21_per_technique_recall_uses_precision_numerator``
    (``docs/martino.md``): overall R = 0.25, F1 = 0.4, but the official
    per-technique line prints R = 1, F1 = 1.0.

Every scenario is one document with id ``"1"``; offsets are ``[start, end)``.
"""

from __future__ import annotations

import inspect
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from core.metrics import mafalda as maf
from core.metrics import martino
from core.metrics.differences import Step, metric_path
from core.model import NOTHING, AltSpan, AnnotationSet, Span
from core.model.errors import SpanScopeError
from core.model.taxonomy import Taxonomy, for_labels, mafalda

DOC = "1"
"""The document id of every scenario."""

Kind = Literal["martino", "pair", "mafalda", "per-label", "official-per-label", "alternatives",
               "alternative-size"]


@dataclass(frozen=True)
class Expected:
    """One number a seed states (or that we computed by hand from its equations) for a scenario.

    ``kind`` says where :func:`measure` reads it: ``martino`` (``variant``'s overall P/R/F1),
    ``pair`` (the C value of the pair ``pair`` = (prediction, gold) under the 2021 variant),
    ``mafalda`` (paper variant at the scenario's level), ``per-label`` / ``official-per-label``
    (the correct and the official scorer's per-technique P/R/F1 of ``label``),
    ``alternatives`` (how many alternatives the gold has) and ``alternative-size`` (the size
    |T_i| shared by all of them). ``quantity`` is ``P``, ``R``, ``F1``, ``C(s,t,|s|)``,
    ``C(s,t,|t|)`` or ``count``. ``quoted`` is True when the seed prints the number, False when it
    follows from the seed's equations by hand (the source then says so).
    """

    name: str
    kind: Kind
    quantity: str
    value: float
    shown: str
    source: str
    variant: str = "semeval2021"
    pair: tuple[Span, Span] | None = None
    label: str | None = None
    quoted: bool = True


@dataclass(frozen=True)
class Scenario:
    """A worked example: text, gold (with alternatives when ``alternatives``), predictions.

    ``level`` is the MAFALDA level the example is stated at; the Martino metric is scored on the
    labels projected to that level too (App. D.1 does so for Example 9). ``label_set`` picks the
    labels a prediction may take: ``propaganda`` (the SemEval-2021 technique list) or ``mafalda``
    (the 23 MAFALDA fallacies). ``family`` groups scenarios that share a text (Figure 1).
    ``paper_alternatives`` are the alternatives T_i as the seed lists them, by name.
    """

    id: str
    title: str
    text: str
    gold: tuple[Span, ...]
    pred: tuple[Span, ...]
    look_at: str
    source: str
    expected: tuple[Expected, ...]
    level: int = 2
    alternatives: bool = False
    label_set: Literal["propaganda", "mafalda"] = "propaganda"
    family: str = ""
    paper_alternatives: tuple[tuple[str, tuple[Span, ...]], ...] = ()

    def gold_set(self) -> AnnotationSet:
        """The gold as an annotation set (alternatives grouped by interval when flagged)."""
        return AnnotationSet("gold", {DOC: self.gold}, "gold", alternatives=self.alternatives)

    def pred_set(self, pred: Sequence[Span] | None = None) -> AnnotationSet:
        """``pred`` (default: the scenario's own predictions) as a system's annotation set."""
        spans = tuple(self.pred if pred is None else pred)
        return AnnotationSet("prediction", {DOC: spans}, "system")

    def label_choices(self) -> list[str]:
        """The labels a prediction may take, in the order a menu shows them."""
        if self.label_set == "mafalda":
            tax = mafalda()
            return [tax.display.get(c) or n for n, c in tax.codes.items()
                    if c not in (0, tax.unknown_code)]
        return list(martino.technique_list("semeval2021") or [])

    def taxonomy(self, pred: Sequence[Span] = ()) -> Taxonomy:
        """MAFALDA's taxonomy for MAFALDA labels, else one class per label."""
        labels = [*self.label_choices(), *(s.label for s in self.gold), *(s.label for s in pred)]
        return for_labels(labels)


# ---- the scenarios ------------------------------------------------------------------------------

LL = "Loaded Language"
NC = "Name calling/Labeling"
FIGURE1_TEXT = ("The minister called the new rule a stupid and petty stunt by the mayor, and the "
                "council agreed to review it.")
T1 = Span(33, 57, LL)  # "a stupid and petty stunt", 24 characters
S1 = Span(42, 51, LL)  # "and petty": 9 of t1's characters
S2 = Span(46, 57, NC)  # "petty stunt": overlaps t1 with another label
S3, S4, S5 = Span(28, 34, LL), Span(35, 41, LL), Span(61, 70, LL)  # overlaps of 1, 6 and 0
SEED_2021 = "SemEval-2021 Task 6 subtask 2 evaluation, Figure 1"
RECALL_ORDER = "R({s3,s4,s5},{t1}) = 7/24 < R({s1},{t1}) = 9/24 < R({t1},{t1}) = 1"


def _figure1(suffix: str, title: str, pred: tuple[Span, ...], look_at: str,
             expected: tuple[Expected, ...]) -> Scenario:
    return Scenario(
        id=f"figure1-{suffix}", title=f"Figure 1: {title}", text=FIGURE1_TEXT, gold=(T1,),
        pred=pred, look_at=look_at,
        source=f"{SEED_2021}; the example is built in sample_data/figure1 (its README says "
               "how; the Learn page offers the folder as a zip).",
        expected=expected, family="figure1")


def _hand(name: str, kind: Kind, quantity: str, value: float, shown: str, how: str,
          **kw: Any) -> Expected:
    return Expected(name, kind, quantity, value, shown, f"by hand: {how}", quoted=False, **kw)


FIGURE1 = (
    _figure1(
        "s1", "prediction s1, 9 of t1's 24 characters", (S1,),
        "s1 covers 9 of t1's 24 characters with the same label, so the pair table shows "
        "C(s1, t1, |t1|) = |s1 ∩ t1| / |t1| = 9/24 = 0.375; with one gold span that is also "
        "the recall, R({s1}, {t1}) = 9/24. The paper gives this one value twice: as 9/24 in "
        "its recall order, and beside Eq. 1, where the paper writes C(t1, s1, |t1|) = 6/16. "
        "Both fractions "
        "are 3/8 = 0.375, but they are not the same counts (6 shared characters of 16 cannot "
        "also be 9 of 24); the argument order changes nothing, since the overlap and δ do not "
        "depend on it. We do not have the figure's drawing, only its numbers, so the example "
        "is built with the recall's counts (t1 of 24 characters, 9 of them in s1): the pair table "
        "shows them as |s∩t| = 9 and |t| = 24, and the scores write the value reduced, "
        "0.375 (3/8). Precision is 1: every character of s1 is "
        "inside t1. Drag s1's end to the right and watch both numbers move.",
        (Expected("C(s1, t1, |t1|)", "pair", "C(s,t,|t|)", 6 / 16, "6/16",
                  f"{SEED_2021}, Eq. 1, written C(t1, s1, |t1|) there",
                  pair=(S1, T1)),
         Expected("R({s1}, {t1})", "martino", "R", 9 / 24, "9/24",
                  f"{SEED_2021}, Eq. 3: {RECALL_ORDER}"),
         _hand("P({s1}, {t1})", "martino", "P", 1.0, "9/9", "Eq. 2, |s1 ∩ t1| / |s1| = 9/9"))),
    _figure1(
        "s2", "prediction s2, another label", (S2,),
        "s2 overlaps t1 but carries another label (Name calling/Labeling), so δ = 0: the pair "
        "is listed with C = 0 and every score is 0. Change its label to Loaded Language in the "
        "table and the overlap starts to count.",
        (Expected("C(s2, t1, |t1|)", "pair", "C(s,t,|t|)", 0.0, "0",
                  f"{SEED_2021}, Eq. 1, written C(t1, s2, |t1|) there",
                  pair=(S2, T1)),
         _hand("R({s2}, {t1})", "martino", "R", 0.0, "0", "Eq. 3, δ = 0 for the only pair"))),
    _figure1(
        "s3s4s5", "predictions s3, s4, s5", (S3, S4, S5),
        "Three predictions overlap t1 by 1, 6 and 0 characters: Martino sums every pair, "
        "R = (1 + 6 + 0)/24 = 7/24, below s1's 9/24 because together they cover fewer of t1's "
        "characters (7 against 9). MAFALDA takes only the best prediction for t1 (6/24). "
        "Precision divides by |S| = 3: (1/6 + 6/6 + 0)/3 = 7/18.",
        (Expected("R({s3, s4, s5}, {t1})", "martino", "R", 7 / 24, "7/24",
                  f"{SEED_2021}, Eq. 3: {RECALL_ORDER}"),
         _hand("P({s3, s4, s5}, {t1})", "martino", "P", 7 / 18, "7/18",
               "Eq. 2, (1/6 + 6/6 + 0/9) / 3"),
         _hand("MAFALDA R", "mafalda", "R", 6 / 24, "6/24",
               "MAFALDA App. D, best match: max(1/24, 6/24, 0)"))),
    _figure1(
        "t1", "prediction t1, exact", (T1,),
        "Predicting t1 exactly gives C(t1, t1, |t1|) = 1: P = R = F1 = 1 under every variant "
        "and under MAFALDA, the top of the paper's recall order.",
        (Expected("R({t1}, {t1})", "martino", "R", 1.0, "1", f"{SEED_2021}, Eq. 3: {RECALL_ORDER}"),
         _hand("F1({t1}, {t1})", "martino", "F1", 1.0, "1", "Eq. 4 with P = R = 1"))),
)

EXAMPLE9_TEXT = "You are a liar. Therefore you are wrong."
MAFALDA_D1 = "MAFALDA (Helwe et al. 2024), App. D.1, Example 9"
EXAMPLE9 = Scenario(
    id="mafalda-example9",
    title="MAFALDA Example 9: Martino's recall 1.25 against MAFALDA's 1",
    text=EXAMPLE9_TEXT,
    gold=(Span(0, 40, "ad hominem"),),
    pred=(Span(0, 10, "ad hominem"), Span(0, 40, "tu quoque")),
    level=1, alternatives=True, label_set="mafalda",
    look_at=(
        "At level 1 both predictions are fallacies of credibility, like the gold span. "
        "Martino sums both pairs: R = 10/40 + 40/40 = 1.25, a recall above 1. MAFALDA keeps the "
        "best match of the gold span: R = max(10/40, 40/40) = 1. The 2019 and 2020 variants "
        "refuse the two overlapping same-label predictions unless they are merged. Offsets are "
        "the paper's."),
    source=f"{MAFALDA_D1}: T = [(0, 40, CREDIBILITY)], S = [(0, 10, CREDIBILITY), "
           "(0, 40, CREDIBILITY)].",
    expected=(
        Expected("Martino R at level 1", "martino", "R", 1.25, "1.25",
                 f"{MAFALDA_D1}: (1/1)·(10/40·1 + 40/40·1) = 1.25"),
        Expected("MAFALDA R at level 1", "mafalda", "R", 1.0, "1",
                 f"{MAFALDA_D1}: (1/1)·max(10/40, 40/40) = 1"),
    ),
)

EXAMPLE5_TEXT = "Sentence1. Sentence2. Sentence3. Sentence4. Sentence5."


def _sentence(i: int) -> tuple[int, int]:
    """Offsets of ``Sentence<i>.`` in :data:`EXAMPLE5_TEXT`.

    >>> EXAMPLE5_TEXT[slice(*_sentence(4))]
    'Sentence4.'
    """
    return (11 * (i - 1), 11 * (i - 1) + 10)


_S12 = (_sentence(1)[0], _sentence(2)[1])
AH, FEAR, ANGER, TRAD = "ad hominem", "appeal to fear", "appeal to anger", "appeal to tradition"
MAFALDA_EX5 = "MAFALDA (Helwe et al. 2024), §5.2, Definition 6 and Example 5"


def _ex5(*picks: tuple[tuple[int, int], str]) -> tuple[Span, ...]:
    return tuple(Span(a, b, lab) for (a, b), lab in picks)


EXAMPLE5 = Scenario(
    id="mafalda-example5",
    title="MAFALDA Example 5: a gold standard with four alternatives",
    text=EXAMPLE5_TEXT,
    gold=_ex5((_S12, AH), (_sentence(1), FEAR), (_sentence(1), ANGER), (_sentence(4), TRAD),
              (_sentence(5), AH), (_sentence(5), NOTHING)),
    pred=_ex5((_S12, AH), (_sentence(1), FEAR), (_sentence(4), TRAD), (_sentence(5), AH)),
    level=2, alternatives=True, label_set="mafalda",
    look_at=(
        "Sentence1 and Sentence2 are an ad hominem; Sentence1 is also an appeal to fear *or* to "
        "anger; Sentence4 is an appeal to tradition; Sentence5 is an ad hominem *or* ⊥ (no "
        "fallacy). The four alternatives below each have four spans. The prediction is T1, so "
        "MAFALDA gives 1. Martino has no alternatives: it wants fear *and* anger and the "
        "optional Sentence5, so its recall is 4/5. Delete P4 (Sentence5): MAFALDA still gives 1 "
        "(T4 leaves Sentence5 as ⊥), Martino's recall falls to 3/5."),
    source=f"{MAFALDA_EX5}; ⊥ is the label 'nothing'.",
    paper_alternatives=(
        ("T1", _ex5((_S12, AH), (_sentence(1), FEAR), (_sentence(4), TRAD), (_sentence(5), AH))),
        ("T2", _ex5((_S12, AH), (_sentence(1), ANGER), (_sentence(4), TRAD), (_sentence(5), AH))),
        ("T3", _ex5((_S12, AH), (_sentence(1), ANGER), (_sentence(4), TRAD),
                    (_sentence(5), NOTHING))),
        ("T4", _ex5((_S12, AH), (_sentence(1), FEAR), (_sentence(4), TRAD),
                    (_sentence(5), NOTHING))),
    ),
    expected=(
        Expected("number of alternatives", "alternatives", "count", 4, "4",
                 f"{MAFALDA_EX5}: 𝒯 = {{T1, T2, T3, T4}}"),
        Expected("|T1| = |T2| = |T3| = |T4|", "alternative-size", "count", 4, "4",
                 f"{MAFALDA_EX5}: 'Please note that |T1| = |T2| = |T3| = |T4| = 4'"),
        _hand("MAFALDA P", "mafalda", "P", 1.0, "1",
              "Definition 6: T1 is a valid annotation, so predicting it exactly scores 1"),
        _hand("MAFALDA R", "mafalda", "R", 1.0, "1",
              "Definition 6: T1 is a valid annotation, so predicting it exactly scores 1"),
        _hand("Martino R", "martino", "R", 4 / 5, "4/5",
              "Eq. 3 on the gold without alternatives: 5 distinct labelled spans, ⊥ dropped, "
              "4 predicted exactly"),
    ),
)

CONFORMANCE_TEXT = "They are nothing but corrupt crooks and liars, everyone knows it. Wake up!"
DUP_CASE = ("official SemEval-2021 scorer on conformance case "
            "s21_duplicate_overlapping_predictions_recall_above_one (docs/martino.md)")
DUPLICATES = Scenario(
    id="duplicates",
    title="Duplicate predictions push the 2021 scorer's recall above 1",
    text=CONFORMANCE_TEXT,
    gold=(Span(0, 20, LL),),
    pred=(Span(0, 20, LL), Span(0, 20, LL), Span(5, 15, LL)),
    look_at=(
        "The same gold span is predicted twice, plus a shorter span inside it. The 2021 scorer "
        "sums every pair: R = (20/20 + 20/20 + 10/20)/1 = 2.5 and F1 = 1.43, both above 1. "
        "nlp4if2019 with -m merges the overlapping predictions first (one span, R = 1); "
        "semeval2020-si refuses them. MAFALDA's best match keeps R at 1. Delete a duplicate "
        "row and watch the recall fall."),
    source=DUP_CASE,
    expected=(
        Expected("P", "martino", "P", 1.0, "3/3 = 1", DUP_CASE),
        Expected("R", "martino", "R", 2.5, "2.5/1 = 2.5", DUP_CASE),
        Expected("F1", "martino", "F1", 1.428571, "1.428571", DUP_CASE),
        _hand("nlp4if2019 -m R", "martino", "R", 1.0, "1",
              "the merged prediction [0, 20) equals the gold span", variant="nlp4if2019"),
        _hand("MAFALDA R", "mafalda", "R", 1.0, "1", "MAFALDA App. D, best match max(1, 1, 1/2)"),
    ),
)

BUG_CASE = ("official SemEval-2021 scorer on conformance case "
            "s21_per_technique_recall_uses_precision_numerator (docs/martino.md)")
PER_TECHNIQUE_BUG = Scenario(
    id="per-technique-recall-bug",
    title="The official per-technique recall bug",
    text=CONFORMANCE_TEXT,
    gold=(Span(0, 40, LL),),
    pred=(Span(0, 10, LL),),
    look_at=(
        "The prediction covers a quarter of the gold span: overall R = 10/40 = 0.25 and "
        "F1 = 0.4. The official scorers print, per technique, a recall whose numerator is the "
        "*precision* sum (10/10), so Loaded Language shows R = 1 and F1 = 1.0. Compare the two "
        "per-label tables below; techniques absent from both sides print F1 = 1.0 too."),
    source=BUG_CASE,
    expected=(
        Expected("overall R", "martino", "R", 0.25, "0.25", BUG_CASE),
        Expected("overall F1", "martino", "F1", 0.4, "0.4", BUG_CASE),
        Expected("official per-technique R (Loaded Language)", "official-per-label", "R", 1.0,
                 "1", BUG_CASE, label=LL),
        Expected("official per-technique F1 (Loaded Language)", "official-per-label", "F1", 1.0,
                 "1.0", BUG_CASE, label=LL),
        _hand("correct per-label R (Loaded Language)", "per-label", "R", 0.25, "0.25",
              "R_L = Σ C(s,t,|t|) / |T_L| (docs/martino.md)", label=LL),
        _hand("correct per-label F1 (Loaded Language)", "per-label", "F1", 0.4, "0.4",
              "2·1·0.25/(1 + 0.25)", label=LL),
    ),
)

SCENARIOS: dict[str, Scenario] = {s.id: s for s in (*FIGURE1, EXAMPLE9, EXAMPLE5, DUPLICATES,
                                                    PER_TECHNIQUE_BUG)}
"""Every scenario by id, in the order the Learn page lists them."""


def get(scenario_id: str) -> Scenario:
    """The scenario with this id; a KeyError lists the valid ids.

    >>> get("duplicates").pred[0]
    Span(start=0, end=20, label='Loaded Language')
    """
    try:
        return SCENARIOS[scenario_id]
    except KeyError:
        raise KeyError(f"no scenario {scenario_id!r}; scenarios: {', '.join(SCENARIOS)}") from None


# ---- helpers ------------------------------------------------------------------------------------


def alternatives(spans: Sequence[AltSpan]) -> list[tuple[Span, ...]]:
    """Every alternative T_i of a small gold (MAFALDA Definition 6): one label per span.

    The Cartesian product of the spans' label lists, ⊥ (``nothing``) kept as a label, in the
    order of ``spans``. For display only: :mod:`core.metrics.mafalda` never enumerates.

    >>> alts = alternatives(EXAMPLE5.gold_set().alt_spans(DOC))
    >>> len(alts), {len(a) for a in alts}
    (4, {4})
    >>> [a[1].label for a in alts]
    ['appeal to fear', 'appeal to fear', 'appeal to anger', 'appeal to anger']
    """
    choices = [[Span(a.start, a.end, lab) for lab in a.labels] for a in spans]
    return [tuple(pick) for pick in itertools.product(*choices)]


def project(spans: Sequence[Span], level: int, tax: Taxonomy) -> tuple[Span, ...]:
    """Spans with their labels projected to ``level`` (level 2: unchanged; ⊥ stays ⊥).

    >>> project((Span(0, 10, "tu quoque"), Span(0, 5, "nothing")), 1, mafalda())
    (Span(start=0, end=10, label='credibility'), Span(start=0, end=5, label='nothing'))
    """
    if level == 2:
        return tuple(spans)
    out = []
    for s in spans:
        if s.label == NOTHING:
            out.append(s)
            continue
        name = tax.label_name(tax.project(tax.code(s.label), level), level)
        out.append(Span(s.start, s.end, name))
    return tuple(out)


def spans_from_rows(rows: Sequence[Mapping[str, Any]], *, text_length: int
                    ) -> tuple[list[tuple[Any, Span]], list[str]]:
    """Spans from editable table rows (``id``, ``start``, ``end``, ``label``), and the problems.

    A row that cannot be a span (empty cell, non-whole number, ``end <= start``, past the text)
    is left out and reported, named by its ``id``; the message of a bad span is the one
    :class:`~core.model.Span` raises.

    >>> ok, bad = spans_from_rows([{"id": 1, "start": 0, "end": 4.0, "label": "A"},
    ...                            {"id": 2, "start": 5, "end": 3, "label": "A"},
    ...                            {"id": 3, "start": 1, "end": None, "label": "A"}],
    ...                           text_length=10)
    >>> ok
    [(1, Span(start=0, end=4, label='A'))]
    >>> bad
    ['P2: Span end must be greater than start: start=5, end=3', 'P3: end is empty']
    """
    spans: list[tuple[Any, Span]] = []
    problems: list[str] = []
    for i, row in enumerate(rows, 1):
        rid = row.get("id", i)
        values: dict[str, int] = {}
        for key in ("start", "end"):
            v = row.get(key)
            if v is None or (isinstance(v, float) and math.isnan(v)):
                problems.append(f"P{rid}: {key} is empty")
                break
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            if not isinstance(v, int) or isinstance(v, bool):
                problems.append(f"P{rid}: {key} must be a whole number of characters, got {v!r}")
                break
            values[key] = v
        else:
            label = row.get("label")
            if not isinstance(label, str) or not label.strip():
                problems.append(f"P{rid}: choose a label")
                continue
            try:
                span = Span(values["start"], values["end"], label)
            except ValueError as exc:
                problems.append(f"P{rid}: {exc}")
                continue
            if span.end > text_length:
                problems.append(f"P{rid}: end={span.end} is past the end of the text "
                                f"({text_length} characters)")
                continue
            spans.append((rid, span))
    return spans, problems


def fraction_text(value: float | None, *, max_denominator: int = 100) -> str:
    """``value`` as a small fraction when it is one (7/24), else ``""``.

    >>> fraction_text(7 / 24), fraction_text(1.25), fraction_text(1.0), fraction_text(0.1234567)
    ('7/24', '5/4', '1', '')
    """
    if value is None or not math.isfinite(value):
        return ""
    frac = Fraction(value).limit_denominator(max_denominator)
    return str(frac) if abs(float(frac) - value) < 1e-9 else ""


# ---- evaluation ---------------------------------------------------------------------------------

MARTINO_RUNS: tuple[tuple[str, str, bool], ...] = (
    ("semeval2021", "semeval2021", False),
    ("nlp4if2019 (-m)", "nlp4if2019", True),
    ("semeval2020-si", "semeval2020-si", False),
)
"""(name shown, variant, merge_pred) of the Martino runs the Learn page compares: the 2021 scorer
as is, the 2019 scorer with ``-m`` (it refuses overlapping predictions otherwise), and span
identification (labels ignored) as the 2020 scorer runs by default."""


@dataclass(frozen=True)
class VariantScore:
    """One Martino run: its result, or the message of the InputError it refused the input with."""

    name: str
    variant: str
    merge_pred: bool
    result: martino.MartinoResult | None
    error: str | None = None


@dataclass(frozen=True)
class AlternativeScore:
    """Precision(S, T_i) and Recall(S, T_i) against one alternative T_i (MAFALDA §5.2.2)."""

    name: str
    spans: tuple[Span, ...]
    precision: float
    recall: float

    @property
    def size(self) -> int:
        """|T_i| (⊥ spans included, as the paper counts them)."""
        return len(self.spans)

    @property
    def mandatory(self) -> int:
        """|T_i⁻|: the spans recall divides by (⊥ left out)."""
        return sum(1 for s in self.spans if s.label != NOTHING)


@dataclass(frozen=True)
class Evaluation:
    """Everything the Learn page shows for a scenario and a list of predictions, from core.

    ``pairs`` are :func:`core.metrics.martino.contributions` under the 2021 variant (no merging)
    on labels at the scenario's level; ``official`` is the 2021 run with the technique list,
    whose ``per_label_official_detail()`` is what the official scorer prints (None when a label
    is outside that list: ``official_note`` says why).
    """

    scenario: Scenario
    pred: tuple[Span, ...]
    runs: tuple[VariantScore, ...]
    pairs: tuple[martino.Contribution, ...]
    pairs_error: str | None
    mafalda: maf.MafaldaResult | None
    mafalda_error: str | None
    explain: maf.MafaldaExplanation | None
    official: martino.MartinoResult | None
    official_note: str
    alternatives: tuple[AlternativeScore, ...] = field(default=())

    def run(self, name_or_variant: str) -> VariantScore | None:
        """The Martino run with this shown name or variant."""
        for run in self.runs:
            if name_or_variant in (run.name, run.variant):
                return run
        return None

    @property
    def edited(self) -> bool:
        """Whether the predictions differ from the scenario's own."""
        return sorted(self.pred) != sorted(self.scenario.pred)


MAX_ALTERNATIVES = 64
"""Alternatives are enumerated for display only up to this many."""


def evaluate(scenario: Scenario, pred: Sequence[Span] | None = None) -> Evaluation:
    """Score ``pred`` (default: the scenario's predictions) under every run the page shows.

    Martino (Eq. 1-4) is scored on the gold without alternatives (``martino_gold_view``) with
    labels projected to the scenario's level; MAFALDA with its paper variant at that level. A
    variant that refuses the input (overlapping predictions without ``-m``) gives its message.

    >>> ev = evaluate(get("duplicates"))
    >>> ev.run("semeval2021").result.recall, ev.mafalda.recall
    (2.5, 1.0)
    >>> ev.run("semeval2020-si").error.split(";")[0]
    "prediction: in document '1' the prediction [0,20) overlaps [0,20) of another span"
    """
    spans = tuple(scenario.pred if pred is None else pred)
    tax = scenario.taxonomy(spans)
    gold = scenario.gold_set()
    level = scenario.level
    m_gold = AnnotationSet("gold", {DOC: project(gold.get(DOC), level, tax)}, "gold",
                           alternatives=scenario.alternatives)
    m_pred = AnnotationSet("prediction", {DOC: project(spans, level, tax)}, "system")
    runs = []
    for name, variant, merge in MARTINO_RUNS:
        try:
            runs.append(VariantScore(name, variant, merge,
                                     martino.score(m_gold, m_pred, variant=variant,
                                                   merge_pred=merge)))
        except SpanScopeError as exc:
            runs.append(VariantScore(name, variant, merge, None, str(exc)))
    pairs: tuple[martino.Contribution, ...] = ()
    pairs_error = None
    try:
        pairs = tuple(martino.contributions(m_gold, m_pred, doc=DOC, variant="semeval2021"))
    except SpanScopeError as exc:
        pairs_error = str(exc)
    pred_set = scenario.pred_set(spans)
    texts = {DOC: scenario.text}
    m_result, m_error, explained = None, None, None
    try:
        m_result = maf.score(gold, pred_set, level=level, variant="paper", texts=texts,
                             taxonomy=tax)
        explained = maf.explain(gold, pred_set, DOC, level=level, variant="paper", texts=texts,
                                taxonomy=tax)
    except SpanScopeError as exc:
        m_error = str(exc)
    techniques = martino.technique_list("semeval2021") or []
    outside = sorted({s.label for s in m_gold.get(DOC) + m_pred.get(DOC) if s.label != NOTHING}
                     - set(techniques))
    official, note = None, ""
    if outside:
        note = ("the official scorer prints one line per SemEval-2021 technique, and "
                f"{', '.join(repr(x) for x in outside)} "
                f"{'is not one' if len(outside) == 1 else 'are not techniques'} of that list")
    else:
        try:
            official = martino.score(m_gold, m_pred, variant="semeval2021", labels=techniques)
        except SpanScopeError as exc:
            note = str(exc)
    return Evaluation(scenario, spans, tuple(runs), pairs, pairs_error, m_result, m_error,
                      explained, official, note,
                      _alternative_scores(scenario, pred_set, tax, texts))


def _alternative_scores(scenario: Scenario, pred: AnnotationSet, tax: Taxonomy,
                        texts: Mapping[str, str | None]) -> tuple[AlternativeScore, ...]:
    if not scenario.alternatives:
        return ()
    alts = scenario.gold_set().alt_spans(DOC)
    if not any(len(a.labels) > 1 for a in alts) or math.prod(len(a.labels) for a in alts) > \
            MAX_ALTERNATIVES:
        return ()
    named = {frozenset(spans): name for name, spans in scenario.paper_alternatives}
    out = []
    for i, alt in enumerate(alternatives(alts), 1):
        # One alternative is a gold without choices: MAFALDA's score against it is
        # Precision(S, T_i) and Recall(S, T_i) of §5.2.2 (a ⊥ span only leaves recall's |T⁻|).
        one = AnnotationSet("T", {DOC: alt}, "gold", alternatives=True)
        res = maf.score(one, pred, level=scenario.level, variant="paper", texts=texts,
                        taxonomy=tax)
        out.append(AlternativeScore(named.get(frozenset(alt), f"A{i}"), alt, res.precision,
                                    res.recall))
    if len(named) == len(out) and all(a.name in named.values() for a in out):
        out.sort(key=lambda a: a.name)  # the seed's numbering
    return tuple(out)


def ladder(scenario: Scenario, pred: Sequence[Span] | None = None) -> list[Step]:
    """The Martino → MAFALDA ladder of ``pred`` (default: the scenario's predictions): one step
    per rule that separates the metrics, at the scenario's level
    (:func:`core.metrics.differences.metric_path`, the Metric differences page's waterfall).

    Its ends are the NLP4IF-2019 scorer with ``-m`` and MAFALDA. At a level other than 2 the
    labels are projected first, as :func:`evaluate` projects them for every metric: a first bar
    scores them as written, the level step projects them, and each official bar that follows is
    the number Learn's tile of that metric shows (before, the Martino bars scored the labels as
    written while the tiles above them projected them: Example 9's SemEval-2021 recall was 0.25 on
    the ladder and 1.25 on its tile).

    >>> steps = ladder(get("mafalda-example9"))
    >>> [(s.key, s.value("recall")) for s in steps if s.official]
    [('written', 0.25), ('merged', 1.0), ('martino', 1.25), ('mafalda', 1.0)]
    """
    spans = tuple(scenario.pred if pred is None else pred)
    return metric_path(scenario.gold_set(), scenario.pred_set(spans), level=scenario.level,
                       taxonomy=scenario.taxonomy(spans), texts={DOC: scenario.text},
                       level_first=True)


_QUANTITY = {"P": "precision", "R": "recall", "F1": "f1"}


def measure(ev: Evaluation, exp: Expected) -> float | None:
    """The value of ``exp`` in the evaluation ``ev`` (None when it cannot be read: the variant
    refused the input, the pair's prediction was edited away, no alternatives).

    >>> ev = evaluate(get("figure1-s1"))
    >>> [round(measure(ev, e), 4) for e in ev.scenario.expected]
    [0.375, 0.375, 1.0]
    """
    q = exp.quantity
    if exp.kind == "martino":
        run = ev.run(exp.variant)
        if run is None or run.result is None:
            return None
        return float(getattr(run.result, _QUANTITY[q]))
    if exp.kind == "pair":
        assert exp.pair is not None
        s, t = exp.pair
        if s not in ev.pred or ev.pairs_error:
            return None
        attr = "contribution_r" if q == "C(s,t,|t|)" else "contribution_p"
        return float(sum(getattr(r, attr) for r in ev.pairs if r.pred == s and r.gold == t))
    if exp.kind == "mafalda":
        return None if ev.mafalda is None else float(getattr(ev.mafalda, _QUANTITY[q]))
    if exp.kind == "per-label":
        run = ev.run("semeval2021")
        if run is None or run.result is None or exp.label not in run.result.per_label():
            return None
        value = getattr(run.result.per_label()[exp.label], _QUANTITY[q])
        return None if value is None else float(value)
    if exp.kind == "official-per-label":
        if ev.official is None:
            return None
        row = ev.official.per_label_official_detail().get(exp.label or "")
        return None if row is None else float(row[_QUANTITY[q]])
    if exp.kind == "alternatives":
        return float(len(ev.alternatives)) if ev.alternatives else None
    if exp.kind == "alternative-size":
        sizes = {a.size for a in ev.alternatives}
        return float(sizes.pop()) if len(sizes) == 1 else None
    raise ValueError(f"The 'kind' parameter of measure must be one of {Kind}. "
                     f"Got {exp.kind!r} instead.")


def matches(value: float | None, exp: Expected) -> bool:
    """Whether a measured value equals the expected one (to the 6 decimals the scorers print).

    >>> matches(10 / 7, Expected("F1", "martino", "F1", 1.428571, "1.428571", "seed"))
    True
    """
    return value is not None and abs(value - exp.value) <= 5e-7


# ---- metric cards -------------------------------------------------------------------------------

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def _inline(line: str) -> str:
    return _LITERAL.sub(r"`\1`", _ROLE.sub(r"`\1`", line))


def card_markdown(doc: str | None) -> str:
    """A module docstring (numpydoc-style reST) as Markdown, for the metric cards.

    Section titles underlined with ``---`` become ``###`` headings (the Learn page shows a card
    under its "Metric cards" section, an ``h2``: no level skipped), a paragraph ending in ``::``
    introduces a code block, indented lines under a term (a definition list) become a bullet
    ``term: text``, and ``` ``code`` ``` and ``:func:`name``` become inline code.

    >>> print(card_markdown('''Title.
    ...
    ... Section
    ... -------
    ... The formula::
    ...
    ...     P = 1/|S|
    ...
    ... ``term`` (default)
    ...     What it does,
    ...     on two lines. See :func:`score`.
    ... '''))
    Title.
    <BLANKLINE>
    ### Section
    The formula:
    <BLANKLINE>
    ```text
    P = 1/|S|
    ```
    <BLANKLINE>
    - **`term` (default)**: What it does, on two lines. See `score`.
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        stripped = nxt.strip()
        if line.strip() and not line.startswith(" ") and len(stripped) >= 3 and \
                set(stripped) == {"-"} and not nxt.startswith(" "):
            out.append(f"### {_inline(line.strip())}")
            i += 2
            continue
        if line.rstrip().endswith("::"):
            head = line.rstrip()[:-2].rstrip()
            if head:
                out.append(_inline(head) + ":")
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("    ")):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            out.extend(["", "```text", *block, "```", ""])
            continue
        if line.strip() and not line.startswith(" ") and nxt.startswith("    "):
            body = []
            i += 1
            while i < len(lines) and lines[i].startswith("    "):
                body.append(lines[i].strip())
                i += 1
            out.append(f"- **{_inline(line.strip())}**: {_inline(' '.join(body))}")
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out).strip() + "\n"
