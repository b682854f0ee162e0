"""Inter-annotator agreement for character-offset spans with labels.

Definitions, conventions and measured costs: ``shared/reference/agreement.md`` and
``docs/agreement.md``. Every value is an :class:`Agreement` (``value``, or ``None`` with a
``reason`` when the measure is undefined: it never raises for a label nobody used or an annotator
without spans); every measure has a per-document breakdown for ranking documents by disagreement.

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
    r = gamma(study, samples=30, seed=0, progress=lambda done, total: ...)  # cached
    r.overall.value, r.overall.stats["gamma_mc_sd"], r.per_document, r.document_ranking()
    gamma(study, categorical=True)     # γ-cat overall, γ-k in per_label
    gamma_matrix(study)                # pairwise two-annotator γ
    gamma_alignment(study, doc_id)     # units, unitary alignments, dissimilarities (< 0.5 s)
    span_f1(study, "martino"), span_f1(study, "mafalda")    # P/R/F1, row = reference
    result.as_dict(per_document=True)  # JSON-ready
    majority_set(sets)                 # the spans a strict majority marked, per label (panel.py)
    pairwise(study, "gamma")           # any measure as a pairwise matrix
    against(study, "gold", measure="span-f1"), against_majority(sets, measure="char-kappa")
    rank_documents(pairwise_result, many_result)   # documents, most disagreement first
    measure_view(sets, texts, measure="gamma", gold=gold_set)   # all of it for one measure

Lower-level functions: :mod:`.coefficients` (Cohen's κ, Fleiss' κ, Krippendorff's α at four
levels, on tables), :mod:`.unitizing` (α_U on one continuum), :mod:`.gamma_native`
(dissimilarities, best alignment, samplers).

Command line: ``python -m core agree FILE [FILE ...] --measure NAME [...] [--json]`` through
:func:`cli_agree` and :func:`render_text`.

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

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core import bounds
from core.bounds import Policy
from core.errors import InputError, UsageError
from core.formats import ReadOptions, load_path
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
from core.metrics.agreement.gamma_native import Dissimilarity
from core.metrics.agreement.measures import (
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
    majority_set,
    measure_view,
    pairwise,
    rank_documents,
    sub_study,
)
from core.metrics.agreement.study import POSITION, Study
from core.metrics.agreement.unitizing import unitizing_alpha
from core.model import AnnotationSet

__all__ = [
    "LEVELS", "MEASURES", "POSITION", "Agreement", "Dissimilarity", "DocDisagreement",
    "ManyResult", "MeasureView", "PairValue", "PairwiseResult", "Study", "against",
    "against_majority",
    "char_agreement", "cli_agree", "cohen_kappa",
    "cohen_kappa_binary", "cohen_kappa_from_table", "compute", "fleiss_kappa",
    "fleiss_kappa_from_ratings", "fleiss_text", "gamma", "gamma_alignment", "gamma_matrix",
    "krippendorff_alpha", "krippendorff_text", "load_study", "majority_set", "measure_view",
    "pairwise",
    "rank_documents", "render_text", "span_f1", "sub_study", "text_kappa", "undefined",
    "unitizing", "unitizing_alpha",
]

MEASURES: tuple[str, ...] = (
    "span-f1", "mafalda-f1", "char-kappa", "char-jaccard", "text-kappa", "fleiss-kappa",
    "krippendorff-alpha", "unitizing-alpha", "gamma", "gamma-cat",
)
"""Measure names of ``python -m core agree --measure``."""

PAIRWISE = ("span-f1", "mafalda-f1", "char-kappa", "char-jaccard", "text-kappa")


def load_study(files: list[str], *, fmt: str | None = None, label: str | None = None,
               beyond_text: Policy = "refuse", warnings: list[str] | None = None,
               unit_set: bool = False) -> Study:
    """Read annotation files (a file may hold several annotators) into one study.

    Set names that repeat across files get the file name in front (``a.json:gold``).
    """
    sets: list[tuple[str, AnnotationSet]] = []
    texts: dict[str, str | None] = {}
    for path in files:
        loaded = load_path(path, fmt=fmt, options=ReadOptions(beyond_text=beyond_text))
        if warnings is not None:
            warnings.extend(str(d) for d in loaded.diagnostics if "past the text" in d.message)
        for doc, text in loaded.texts.items():
            if text is not None and texts.get(doc) not in (None, text):
                raise InputError(f"{path}: document {doc!r} has a different text than in an "
                                 "earlier file; agreement needs the same texts")
            if text is not None or doc not in texts:
                texts[doc] = text
        sets.extend((path, s) for s in loaded.sets)
    # A file without texts is checked against the texts of the others: every offending set is
    # named at once (core.bounds), before any measure runs.
    kept, more = bounds.check_sets(sets, texts, beyond_text)
    sets = [(p, s) for (p, _), s in zip(sets, kept, strict=True)]
    if warnings is not None:
        warnings.extend(more)
    names = [s.name for _, s in sets]
    renamed = [s if names.count(s.name) == 1 else
               AnnotationSet(f"{Path(p).name}:{s.name}", s.spans, "annotator", s.alternatives)
               for p, s in sets]
    if len(renamed) < 2:
        raise InputError(f"agreement needs at least two annotation sets; the input holds "
                         f"{len(renamed)} ({', '.join(s.name for s in renamed) or 'none'})")
    return Study.from_sets(renamed, texts, label=label, unit_set=unit_set)


def compute(study: Study, measure: str, *, seed: int = 0, samples: int = 30,
            progress: Callable[[int, int], None] | None = None
            ) -> PairwiseResult | ManyResult:
    """One measure by its command-line name."""
    from core.errors import check_choice

    check_choice("measure", "agree", measure, MEASURES)
    if measure in ("char-kappa", "char-jaccard"):
        kappa, jac = char_agreement(study)
        return kappa if measure == "char-kappa" else jac
    if measure == "text-kappa":
        return text_kappa(study)
    if measure == "fleiss-kappa":
        return fleiss_text(study)
    if measure == "krippendorff-alpha":
        return krippendorff_text(study)
    if measure == "unitizing-alpha":
        return unitizing(study)
    if measure in ("gamma", "gamma-cat"):
        return gamma(study, samples=samples, seed=seed, categorical=measure == "gamma-cat",
                     progress=progress)
    return span_f1(study, "martino" if measure == "span-f1" else "mafalda")


def cli_agree(args: argparse.Namespace) -> dict[str, Any]:
    """``python -m core agree``: one JSON-ready object keyed by measure."""
    measures = list(dict.fromkeys(args.measure))
    from core.errors import check_choice

    for m in measures:
        check_choice("measure", "agree", m, MEASURES)
    if args.samples < 1:
        raise UsageError(f"The 'samples' parameter of agree must be at least 1. "
                         f"Got {args.samples!r} instead.")
    read_warnings: list[str] = []
    study = load_study(list(args.files), fmt=args.format, label=args.label,
                       beyond_text=bounds.from_args(args),
                       warnings=read_warnings, unit_set=bool(getattr(args, "unit_set", False)))
    out: dict[str, Any] = {"annotators": study.annotators, "documents": len(study.docs),
                           "labels": study.labels,
                           "warnings": read_warnings + list(study.warnings)}
    per_doc = bool(getattr(args, "per_document", False))
    for m in measures:
        out[m] = compute(study, m, seed=args.seed, samples=args.samples).as_dict(per_doc)
    return out


def _fmt(v: Any) -> str:
    return "—" if v is None else (f"{v:.4f}" if isinstance(v, float) else str(v))


def _matrix_lines(who: list[str], matrix: dict[str, dict[str, Any]]) -> list[str]:
    w = max(8, *(len(a) for a in who))
    lines = [" " * (w + 2) + "".join(f"{a:>{w + 2}}" for a in who)]
    for a in who:
        lines.append(f"  {a:<{w}}" + "".join(f"{_fmt(matrix[a][b]):>{w + 2}}" for b in who))
    return lines


def render_text(result: dict[str, Any]) -> str:
    """Readable rendering: a matrix per pairwise measure, a value per many-annotator measure."""
    lines = [f"annotators: {', '.join(result['annotators'])}; documents: {result['documents']}; "
             f"labels: {len(result['labels'])}"]
    for m in MEASURES:
        r = result.get(m)
        if r is None:
            continue
        lines.append("")
        if r["kind"] == "pairwise":
            note = "" if r["symmetric"] else " (row = reference, column = compared)"
            lines.append(f"{m}{note}:")
            lines.extend(_matrix_lines(r["annotators"], r["matrix"]))
            for key in sorted(k for k in r if k.startswith("matrix_")):
                who = r["annotators"]
                if r["symmetric"]:
                    vals = [f"{a}|{b}={_fmt(r[key][a][b])}" for i, a in enumerate(who)
                            for b in who[i + 1:]]
                    lines.append(f"  {key[7:]}: " + ", ".join(vals))
                else:
                    lines.append(f"  {key[7:]}:")
                    lines.extend("  " + x for x in _matrix_lines(who, r[key]))
            reasons = {p["overall"].get("reason") for p in r["pairs"].values()} - {None}
            lines.extend(f"  undefined: {why}" for why in sorted(reasons))
        else:
            extra = ""
            if m.startswith("gamma"):
                extra = (f"  (samples {r['samples']}, seed {r['seed']}, sampler {r['sampler']}, "
                         f"documents {r['documents']})")
                sd = r["overall"].get("gamma_mc_sd")
                if sd is not None:
                    extra = f" ± {2 * sd:.4f}" + extra
            lines.append(f"{m}: {_fmt(r['value'])}{extra}")
            if r["overall"].get("reason"):
                lines.append(f"  undefined: {r['overall']['reason']}")
            for lab, v in r["per_label"].items():
                why = f"  ({v['reason']})" if v.get("reason") else ""
                lines.append(f"  {lab}: {_fmt(v['value'])}{why}")
        ranking = r.get("document_ranking")
        if ranking:
            lines.append("  most disagreement: " + ", ".join(
                f"{x['doc']}={_fmt(x['value'])}" for x in ranking[:10]))
    warnings = result.get("warnings") or []
    if warnings:
        lines.append("")
        lines.append(f"warnings ({len(warnings)}):")
        lines.extend(f"  {w}" for w in warnings)
    return "\n".join(lines)
