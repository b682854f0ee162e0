"""One result shape for every span metric, and one P/R/F1 helper.

Counts first, ratios last (scikit-learn's ``precision_recall_fscore_support``): a metric keeps
its sufficient statistics (numerators and denominators, per document and per label) and
:func:`prf` divides once. What happens when a denominator is 0 is a *convention* that differs
between the official scorers, so it is an explicit parameter, never a silent default:

========== ======================= ======================= ===================================
``empty``  P when nothing predicted R when no gold          F1 when P + R = 0
========== ======================= ======================= ===================================
official   0                       0                       1 if both sides are empty, else 0
mafalda    1 if both empty, else 0 1 if both empty, else 0 0
zero       0                       0                       0
========== ======================= ======================= ===================================

``official`` is the Da San Martino scorers' ``compute_prec_rec_f1`` (NLP4IF-2019, SemEval-2020
Task 11, SemEval-2021 Task 6): P = R = 0 and F1 = 1 when both sides are empty. ``mafalda`` is one
text of Helwe et al. (2024, §5.2.2): an empty text scores P = R = F1 = 1. ``zero`` is
scikit-learn's ``zero_division=0`` (per-class scores of technique classification, text-level
label sets, HatEval). F1 is always the harmonic mean 2PR/(P+R) (:func:`harmonic`).

The result protocol
-------------------
:class:`SpanResult` is what :mod:`core.metrics.martino` and :mod:`core.metrics.mafalda` return
and what the command line, the dashboard and the common tests read: overall P/R/F1 with the
numerators and denominators they come from, :meth:`~SpanResult.per_document` and
:meth:`~SpanResult.per_label` (lists and mappings of the frozen rows below), the per-document
table the bootstrap resamples (:class:`BootstrapTable`), ``to_dict`` (the command line's JSON)
and ``per_document_frame`` (a pandas DataFrame for notebooks).

A metric pooled over the corpus (Martino) reports the pooled sums; a metric averaged over texts
(MAFALDA) reports Σ of the per-text values over the number of texts, so for both the
per-document numerators and denominators add up to the overall ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol, runtime_checkable

import numpy as np

from core.model import Span
from core.model.errors import check_choice

if TYPE_CHECKING:  # pragma: no cover - pandas is imported only when a frame is asked for
    import pandas as pd

EmptyRule = Literal["official", "mafalda", "zero"]
EMPTY_RULES: tuple[EmptyRule, ...] = ("official", "mafalda", "zero")
Statistic = Callable[[np.ndarray], np.ndarray]
JSONValue = object
"""A value ``json.dumps`` accepts (str, int, float, bool, None, lists and dicts of them)."""


class PRF(NamedTuple):
    precision: float
    recall: float
    f1: float


def harmonic(p: float, r: float) -> float:
    """F1 = 2PR/(P+R), 0 when P + R = 0.

    >>> harmonic(1.0, 0.25)
    0.4
    >>> harmonic(0.0, 0.0)
    0.0
    """
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def prf(p_num: float, p_den: float, r_num: float, r_den: float, *,
        empty: EmptyRule) -> PRF:
    """P = p_num/p_den, R = r_num/r_den and their F1, with an explicit empty-input convention.

    ``empty`` is one of ``official``, ``mafalda`` or ``zero`` (module docstring). Nothing is
    clamped: Martino's 2021 variant gives R > 1 when duplicate predictions overlap one gold span.

    >>> prf(0.0, 0, 0.0, 0, empty="official")
    PRF(precision=0.0, recall=0.0, f1=1.0)
    >>> prf(0.0, 0, 0.0, 0, empty="mafalda")
    PRF(precision=1.0, recall=1.0, f1=1.0)
    >>> prf(0.0, 0, 0.0, 0, empty="zero")
    PRF(precision=0.0, recall=0.0, f1=0.0)
    >>> prf(1.0, 1, 0.25, 1, empty="official")
    PRF(precision=1.0, recall=0.25, f1=0.4)
    >>> prf(2.0, 2, 2.5, 1, empty="official").recall
    2.5
    """
    if empty == "mafalda":
        both = 1.0 if p_den == 0 and r_den == 0 else 0.0
        p = p_num / p_den if p_den else both
        r = r_num / r_den if r_den else both
        return PRF(p, r, harmonic(p, r))
    if empty not in EMPTY_RULES:
        check_choice("empty", "prf", empty, EMPTY_RULES)
    p = p_num / p_den if p_den > 0 else 0.0
    r = r_num / r_den if r_den > 0 else 0.0
    if empty == "official" and p_den == 0 and r_den == 0:
        return PRF(p, r, 1.0)
    return PRF(p, r, harmonic(p, r))


def prf_arrays(sums: np.ndarray, *, empty: EmptyRule) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
    """:func:`prf` on many rows at once: columns (p_num, p_den, r_num, r_den) -> P, R, F1.

    The bootstrap calls it on one row per resample; it agrees with :func:`prf` row by row.

    >>> p, r, f = prf_arrays(np.array([[0.0, 0, 0, 0], [1, 1, 0.25, 1]]), empty="official")
    >>> f.tolist()
    [1.0, 0.4]
    """
    check_choice("empty", "prf_arrays", empty, EMPTY_RULES)
    p_num, p_den, r_num, r_den = (sums[:, i] for i in range(4))
    both = (p_den == 0) & (r_den == 0)
    fill = np.where(both, 1.0, 0.0) if empty == "mafalda" else np.zeros(len(sums))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(p_den > 0, p_num / np.where(p_den > 0, p_den, 1), fill)
        r = np.where(r_den > 0, r_num / np.where(r_den > 0, r_den, 1), fill)
        f1 = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    if empty == "official":
        f1 = np.where(both, 1.0, f1)
    return p, r, f1


def pooled_f1(sums: np.ndarray) -> np.ndarray:
    """F1 of pooled sums (columns p_num, p_den, r_num, r_den), official convention."""
    return prf_arrays(sums, empty="official")[2]


def mean_of(column: int, n_docs: int) -> Statistic:
    """The mean of a per-document value (column ``column``) over ``n_docs`` resampled documents."""
    def statistic(sums: np.ndarray) -> np.ndarray:
        return np.asarray(sums[:, column] / n_docs)
    return statistic


# ---- rows ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentScore:
    """One document's scores and the sums they come from.

    ``extra`` holds a metric's further per-document values (MAFALDA's label-only P/R/F1).
    """

    document: str
    precision: float
    recall: float
    f1: float
    precision_numerator: float
    precision_denominator: float
    recall_numerator: float
    recall_denominator: float
    extra: Mapping[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, JSONValue]:
        return {"document": self.document, "precision": self.precision, "recall": self.recall,
                "f1": self.f1, "precision_numerator": self.precision_numerator,
                "precision_denominator": self.precision_denominator,
                "recall_numerator": self.recall_numerator,
                "recall_denominator": self.recall_denominator, **self.extra}


@dataclass(frozen=True)
class LabelScore:
    """One label's scores; ``f1`` is None when the label occurs on neither side."""

    label: str
    precision: float
    recall: float
    f1: float | None
    precision_numerator: float
    precision_denominator: int
    recall_numerator: float
    recall_denominator: int

    def to_dict(self) -> dict[str, JSONValue]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "pred_count": self.precision_denominator,
                "gold_count": self.recall_denominator}


@dataclass(frozen=True)
class BootstrapTable:
    """Per-document sufficient statistics (one row per document) and the statistic that turns
    their (weighted) column sums into the metric's F1 (``core.metrics.stats.bootstrap``)."""

    documents: tuple[str, ...]
    table: np.ndarray
    statistic: Statistic


SpanRef = Span | tuple[int, int]
"""A span an explanation row points at: a labelled span, or a bare interval (a MAFALDA gold span
with several alternative labels, or a range between gold spans)."""


@dataclass(frozen=True)
class ExplanationRow:
    """One row of a metric's explanation of one document, ready for a table.

    ``gold`` and ``pred`` are the spans the row is about (None when it has none); ``values`` are
    the metric's own columns, in order (see the metric's ``explain``)."""

    gold: SpanRef | None
    pred: SpanRef | None
    values: Mapping[str, JSONValue]


PARTNER = "{partner}"
"""Placeholder in a :class:`SpanNote`'s text for the span it pairs with (a table shows its id)."""


@dataclass(frozen=True)
class SpanNote:
    """What a metric takes from one span, in words (``side`` is ``gold`` or ``pred``).

    ``text`` may hold :data:`PARTNER` where the span it was matched with (``partner``, None when
    there is none) is named; :meth:`render` fills it in."""

    side: Literal["gold", "pred"]
    span: SpanRef
    text: str
    partner: SpanRef | None = None

    def render(self, partner_name: str) -> str:
        return self.text.replace(PARTNER, partner_name)


@runtime_checkable
class Explanation(Protocol):
    """Per-span explanation of one document, built by the pass that scores it."""

    @property
    def document(self) -> str: ...

    def rows(self) -> list[ExplanationRow]: ...

    def notes(self) -> list[SpanNote]: ...

    def to_dict(self) -> dict[str, JSONValue]: ...


@runtime_checkable
class SpanResult(Protocol):
    """What every registered span metric's ``score`` returns (module docstring)."""

    metric: str
    variant: str
    warnings: list[str]
    pooled: bool
    """True when numerators and denominators are pooled sums (Martino), False when the overall
    scores are means of per-document values (MAFALDA: a document's numerator is its value and
    its denominator 1)."""

    @property
    def precision(self) -> float: ...

    @property
    def recall(self) -> float: ...

    @property
    def f1(self) -> float: ...

    @property
    def precision_numerator(self) -> float: ...

    @property
    def precision_denominator(self) -> float: ...

    @property
    def recall_numerator(self) -> float: ...

    @property
    def recall_denominator(self) -> float: ...

    @property
    def document_ids(self) -> list[str]: ...

    def per_document(self) -> list[DocumentScore]: ...

    def per_label(self) -> dict[str, LabelScore]: ...

    def summary(self) -> dict[str, float]: ...

    def bootstrap_table(self) -> BootstrapTable: ...

    def to_dict(self, *, per_document: bool = False) -> dict[str, JSONValue]: ...

    def per_document_frame(self) -> pd.DataFrame: ...


def document_frame(rows: Sequence[DocumentScore]) -> pd.DataFrame:
    """One row per document (``document`` and every field of :class:`DocumentScore`)."""
    import pandas as pd

    columns = ["document", "precision", "recall", "f1", "precision_numerator",
               "precision_denominator", "recall_numerator", "recall_denominator"]
    extra = list(dict.fromkeys(k for r in rows for k in r.extra))
    return pd.DataFrame([r.to_dict() for r in rows], columns=columns + extra)
