"""Inter-annotator agreement for character-offset spans with labels.

Definitions, conventions and measured costs: ``docs/agreement.md``. Every value is an
:class:`Agreement` (``value``, or ``None`` with a ``reason`` when the measure is undefined: it
never raises for a label nobody used or an annotator without spans); every measure has a
per-document breakdown for ranking documents by disagreement.

Python API (what the dashboard's Annotators page calls)
-------------------------------------------------------
Build a study once, then ask for measures::

    study = Study.from_sets(annotation_sets, texts)          # texts optional, label= optional
    kappa, jaccard = char_agreement(study)                   # PairwiseResult x 2
    kappa.matrix()              # {row: {col: κ}}; kappa.matrix("position"), ("macro")
    kappa.pairs[("A", "B")].per_label["Doubt"]               # Agreement
    kappa.document_ranking()    # [(doc, mean κ over pairs)], most disagreement first
    text_kappa(study)                                        # PairwiseResult
    fleiss_text(study), krippendorff_text(study), unitizing(study)   # ManyResult
    r = gamma(study, samples=30, seed=0, progress=lambda done, total: ..., cache=my_dict)
    r.overall.value, r.overall.stats["gamma_mc_sd"], r.per_document, r.document_ranking()
    gamma(study, categorical=True)     # γ-cat overall, γ-k in per_label
    gamma_matrix(study)                # pairwise two-annotator γ
    gamma_alignment(study, doc_id)     # units, unitary alignments, dissimilarities (< 0.5 s)
    span_f1(study, "martino"), span_f1(study, "mafalda")    # P/R/F1, row = reference
    exact_f1(study)                    # exact-match (instance) F1, symmetric (exact.py)
    result.as_dict(per_document=True)  # JSON-ready
    majority_set(sets)                 # the spans a strict majority marked, per label (panel.py)
    instance_majority(sets)            # the same offsets and label a strict majority marked
    pairwise(study, "gamma")           # any measure as a pairwise matrix
    against(study, "gold", measure="span-f1"), against_majority(sets, measure="char-kappa")
    rank_documents(pairwise_result, many_result)   # documents, most disagreement first
    measure_view(sets, texts, measure="gamma", gold=gold_set)   # all of it for one measure

Lower-level functions: :mod:`.coefficients` (Cohen's κ, Fleiss' κ, Krippendorff's α at four
levels, on tables), :mod:`.unitizing` (α_U on one continuum), :mod:`.gamma_native`
(dissimilarities, best alignment, samplers).

Command line: ``python -m core agree FILE [FILE ...] --measure NAME [...] [--json]``
(:mod:`core.cli.agree` reads the files and draws the report).

>>> from core.model import AnnotationSet, Span
>>> a = AnnotationSet("A", {"d": (Span(0, 10, "x"),)}, role="annotator")
>>> b = AnnotationSet("B", {"d": (Span(0, 10, "x"), Span(12, 20, "y"))}, role="annotator")
>>> s = Study.from_sets([a, b], {"d": "0123456789 0123456789"})
>>> k, j = char_agreement(s)
>>> round(j.matrix()["A"]["B"], 4), k.pairs[("A", "B")].per_label["y"].value
(0.5556, 0.0)
>>> unitizing(s).per_label["x"].value
1.0
"""

from __future__ import annotations

from core.metrics.agreement.coefficients import (
    LEVELS,
    Agreement,
    cohen_kappa,
    cohen_kappa_binary,
    cohen_kappa_from_table,
    fleiss_kappa,
    fleiss_kappa_from_ratings,
    krippendorff_alpha,
    undefined,
)
from core.metrics.agreement.dispatch import MEASURES, compute
from core.metrics.agreement.exact import exact_f1
from core.metrics.agreement.gamma_native import Dissimilarity
from core.metrics.agreement.measures import (
    GammaCache,
    ManyResult,
    PairValue,
    PairwiseResult,
    char_agreement,
    fleiss_text,
    gamma,
    gamma_alignment,
    gamma_matrix,
    krippendorff_text,
    span_f1,
    text_kappa,
    unitizing,
)
from core.metrics.agreement.panel import (
    DocDisagreement,
    MeasureView,
    against,
    against_majority,
    instance_majority,
    majority_set,
    measure_view,
    pairwise,
    rank_documents,
    sub_study,
)
from core.metrics.agreement.study import POSITION, Study
from core.metrics.agreement.unitizing import unitizing_alpha

__all__ = [
    "LEVELS",
    "MEASURES",
    "POSITION",
    "Agreement",
    "Dissimilarity",
    "DocDisagreement",
    "GammaCache",
    "ManyResult",
    "MeasureView",
    "PairValue",
    "PairwiseResult",
    "Study",
    "against",
    "against_majority",
    "char_agreement",
    "cohen_kappa",
    "cohen_kappa_binary",
    "cohen_kappa_from_table",
    "compute",
    "exact_f1",
    "fleiss_kappa",
    "fleiss_kappa_from_ratings",
    "fleiss_text",
    "gamma",
    "gamma_alignment",
    "gamma_matrix",
    "instance_majority",
    "krippendorff_alpha",
    "krippendorff_text",
    "majority_set",
    "measure_view",
    "pairwise",
    "rank_documents",
    "span_f1",
    "sub_study",
    "text_kappa",
    "undefined",
    "unitizing",
    "unitizing_alpha",
]
