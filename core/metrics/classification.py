"""Precision, recall and F1 from counts, shared by the text-level metrics.

Counts first, ratios last (as scikit-learn's ``precision_recall_fscore_support``): each function
takes true-positive, predicted and true counts and divides once. An ill-defined ratio (0/0) is
0 and produces a warning that names the value used, as scikit-learn's ``zero_division="warn"``.

F1 is the harmonic mean 2PR/(P+R). The HatEval 2019 evaluation page writes it
``(2·P·R)/(P·R)``, a typo (Basile et al. 2019; ``docs/text-level.md``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from core.metrics.result import prf
from core.model.errors import KindedText


@dataclass(frozen=True)
class Counts:
    """tp, the number predicted and the number true for one class."""

    tp: int
    pred: int
    true: int


@dataclass
class PRF:
    precision: float
    recall: float
    f1: float
    support: int
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, float | int]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "support": self.support}


def prf_from_counts(c: Counts, *, name: str = "") -> PRF:
    """P = tp/pred, R = tp/true, F1 = 2PR/(P+R); an undefined ratio is 0 with a warning.

    >>> round(prf_from_counts(Counts(tp=2, pred=3, true=4)).f1, 12)  # 2·(2/3)·(1/2)/(7/6) = 4/7
    0.571428571429
    >>> prf_from_counts(Counts(0, 0, 2), name="HS=1").warnings
    ['precision of HS=1 is ill-defined (no prediction): set to 0']
    """
    warnings: list[str] = []
    if not c.pred:
        warnings.append(KindedText(f"precision of {name or 'a class'} is ill-defined (no "
                                   "prediction): set to 0", "ill-defined"))
    if not c.true:
        warnings.append(KindedText(f"recall of {name or 'a class'} is ill-defined (no true "
                                   "instance): set to 0", "ill-defined"))
    p, r, f1 = prf(c.tp, c.pred, c.tp, c.true, empty="zero")
    return PRF(p, r, f1, c.true, warnings)


def class_counts(y_true: Sequence[Hashable], y_pred: Sequence[Hashable]) -> dict[Hashable, Counts]:
    """Per-class counts over the classes present in ``y_true`` ∪ ``y_pred`` (sorted)."""
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true and y_pred differ in length: {len(y_true)} != {len(y_pred)}")
    classes = sorted(set(y_true) | set(y_pred), key=repr)
    out = {}
    for c in classes:
        tp = sum(1 for t, p in zip(y_true, y_pred, strict=True) if t == p == c)
        out[c] = Counts(tp, sum(1 for p in y_pred if p == c), sum(1 for t in y_true if t == c))
    return out


@dataclass
class MulticlassReport:
    """Accuracy, per-class and macro-averaged P/R/F1 of a single-label classification."""

    accuracy: float
    per_class: dict[Hashable, PRF]
    precision_macro: float
    recall_macro: float
    f1_macro: float
    warnings: list[str]


def multiclass_report(y_true: Sequence[Hashable], y_pred: Sequence[Hashable], *,
                      name: str = "") -> MulticlassReport:
    """Accuracy and macro P/R/F1 over the classes present in gold ∪ prediction.

    Equals scikit-learn's ``precision_recall_fscore_support(average="macro")`` with its default
    zero division (0, with a warning); the macro F1 is the mean of per-class F1s.

    >>> r = multiclass_report([1, 0, 1, 1], [1, 1, 0, 1])
    >>> round(r.accuracy, 3), round(r.f1_macro, 3)
    (0.5, 0.333)
    """
    counts = class_counts(y_true, y_pred)
    per = {c: prf_from_counts(k, name=f"{name}={c}" if name else str(c))
           for c, k in counts.items()}
    n = len(y_true)
    acc = sum(1 for t, p in zip(y_true, y_pred, strict=True) if t == p) / n if n else 0.0
    k = len(per) or 1
    warnings = [w for v in per.values() for w in v.warnings]
    return MulticlassReport(
        acc, per,
        sum(v.precision for v in per.values()) / k,
        sum(v.recall for v in per.values()) / k,
        sum(v.f1 for v in per.values()) / k,
        warnings,
    )
