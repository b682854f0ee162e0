"""Checks that a gold standard and a prediction cover compatible document sets.

The official scorers differ here (``docs/formats.md``): SemEval-2021
Task 6 requires *identical* id sets; NLP4IF-2019 FLC and SemEval-2020 SI accept a submission
whose articles are a subset of the gold articles (missing articles still count in the recall
denominator) but crash on an article that is not in the gold. Here both cases are an
:class:`~core.model.errors.InputError` whose message lists up to five ids on each side.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Literal

from core.model.errors import InputError, check_choice, format_ids

DocSetPolicy = Literal["identical", "pred-subset-of-gold"]
POLICIES: tuple[DocSetPolicy, ...] = ("identical", "pred-subset-of-gold")


def check_same_documents(
    gold_ids: Iterable[str],
    pred_ids: Iterable[str],
    gold_name: str,
    pred_name: str,
    policy: DocSetPolicy = "identical",
) -> None:
    """Raise :class:`InputError` unless the document sets satisfy ``policy``.

    ``identical``: every id on one side is on the other (SemEval-2021 Task 6).
    ``pred-subset-of-gold``: every predicted id is a gold id (NLP4IF-2019, SemEval-2020).

    >>> check_same_documents(["1", "2"], ["2", "1"], "gold.json", "pred.json")
    >>> check_same_documents(["1", "2"], ["1", "3"], "gold.json", "pred.json")
    Traceback (most recent call last):
    ...
    core.model.errors.InputError: pred.json and gold.json must cover the same documents: 1 only in
    pred.json ('3'); 1 only in gold.json ('2')
    >>> check_same_documents(["1", "2"], ["1"], "gold", "pred", "pred-subset-of-gold")
    """
    check_choice("policy", "check_same_documents", policy, POLICIES)
    gold = set(gold_ids)
    pred = set(pred_ids)
    only_pred = pred - gold
    only_gold = gold - pred
    if policy == "pred-subset-of-gold":
        if only_pred:
            raise InputError(
                f"every document of {pred_name} must be in {gold_name}: "
                f"{len(only_pred)} only in {pred_name} ({format_ids(only_pred)})"
            )
        return
    if only_pred or only_gold:
        parts = []
        if only_pred:
            parts.append(f"{len(only_pred)} only in {pred_name} ({format_ids(only_pred)})")
        if only_gold:
            parts.append(f"{len(only_gold)} only in {gold_name} ({format_ids(only_gold)})")
        raise InputError(
            f"{pred_name} and {gold_name} must cover the same documents: " + "; ".join(parts)
        )


def check_sets(owner: str, gold: object, pred: object) -> None:
    """Raise ``TypeError`` unless ``gold`` and ``pred`` are annotation sets, naming the
    parameter (a path is read with :func:`core.formats.load_path` first).

    >>> check_sets("martino.score", "gold.json", "pred.json")
    Traceback (most recent call last):
    ...
    TypeError: The 'gold' parameter of martino.score must be an AnnotationSet. Got str \
'gold.json' instead; read a file first: core.formats.load_path('gold.json').set
    """
    from core.model.sets import AnnotationSet

    for param, value in (("gold", gold), ("pred", pred)):
        if not isinstance(value, AnnotationSet):
            hint = (f"; read a file first: core.formats.load_path({str(value)!r}).set"
                    if isinstance(value, str | os.PathLike) else "")
            raise TypeError(f"The {param!r} parameter of {owner} must be an AnnotationSet. Got "
                            f"{type(value).__name__} {_short(value)} instead{hint}")


def _short(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."
