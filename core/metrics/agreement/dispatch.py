"""Agreement measures by their command-line name (``python -m core agree --measure NAME``).

Its own module so that :mod:`.panel`, which runs any measure by name, and the package
``__init__``, which re-exports both, import it without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable

from core.metrics.agreement.exact import exact_f1
from core.metrics.agreement.measures import (
    GammaCache,
    ManyResult,
    PairwiseResult,
    char_agreement,
    fleiss_text,
    gamma,
    krippendorff_text,
    span_f1,
    text_kappa,
    unitizing,
)
from core.metrics.agreement.study import Study
from core.model.errors import check_choice

MEASURES: tuple[str, ...] = (
    "span-f1", "exact-f1", "mafalda-f1", "char-kappa", "char-jaccard", "text-kappa", "fleiss-kappa",
    "krippendorff-alpha", "unitizing-alpha", "gamma", "gamma-cat",
)
"""Measure names of ``python -m core agree --measure``."""

PAIRWISE = ("span-f1", "exact-f1", "mafalda-f1", "char-kappa", "char-jaccard", "text-kappa")


def compute(study: Study, measure: str, *, seed: int = 0, samples: int = 30,
            progress: Callable[[int, int], None] | None = None,
            cache: GammaCache | None = None, per_document: bool = True
            ) -> PairwiseResult | ManyResult:
    """One measure by its command-line name. ``per_document=False`` leaves the
    per-document values out where that saves time (every measure but γ and γ-cat); every
    other value is the same."""
    check_choice("measure", "agree", measure, MEASURES)
    if measure in ("char-kappa", "char-jaccard"):
        kappa = measure == "char-kappa"
        # only the chosen one's per-document values: an object per document and pair
        pair = char_agreement(study, per_document=(kappa and per_document,
                                                   not kappa and per_document))
        return pair[0] if kappa else pair[1]
    if measure == "exact-f1":
        return exact_f1(study, per_document=per_document)
    if measure == "text-kappa":
        return text_kappa(study, per_document=per_document)
    if measure == "fleiss-kappa":
        return fleiss_text(study, per_document=per_document)
    if measure == "krippendorff-alpha":
        return krippendorff_text(study, per_document=per_document)
    if measure == "unitizing-alpha":
        return unitizing(study, per_document=per_document)
    if measure in ("gamma", "gamma-cat"):
        return gamma(study, samples=samples, seed=seed, categorical=measure == "gamma-cat",
                     progress=progress, cache=cache)
    return span_f1(study, "martino" if measure == "span-f1" else "mafalda",
                   per_document=per_document)
