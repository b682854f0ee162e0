"""Agreement measures over a :class:`~core.metrics.agreement.study.Study`, with breakdowns.

Pairwise measures return a :class:`PairwiseResult` (one :class:`PairValue` per ordered or
unordered annotator pair: overall, per label, per document); many-annotator measures return a
:class:`ManyResult` (overall, per label, per document). Undefined values are
:class:`~core.metrics.agreement.coefficients.Agreement` objects with ``value=None`` and a reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any

import numpy as np

from core.metrics.agreement import gamma_native as g
from core.metrics.agreement.coefficients import (
    Agreement,
    cohen_kappa_binary,
    fleiss_kappa,
    fleiss_kappa_rows,
    fleiss_kappa_values,
    krippendorff_alpha,
    krippendorff_alpha_from_counts,
    krippendorff_alpha_rows,
    krippendorff_alpha_values,
    undefined,
)
from core.metrics.agreement.study import (
    CharSides,
    Study,
    _rows,
    char_counts,
    doc_label_presence,
)
from core.metrics.agreement.unitizing import (
    UnitizingParts,
    alpha_from_parts,
    category_parts,
    few_parts,
)
from core.model import AnnotationSet, Role, SpanTable, SpanView
from core.model.errors import InputError

Counts = tuple[int, int, int, int]


@dataclass
class PairValue:
    """One annotator pair: the headline value, per label, per document, and extra values."""

    overall: Agreement
    per_label: dict[str, Agreement] = field(default_factory=dict)
    per_document: dict[str, Agreement] = field(default_factory=dict)
    extra: dict[str, Agreement] = field(default_factory=dict)

    def as_dict(self, per_document: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"overall": self.overall.as_dict()}
        out.update({k: v.as_dict() for k, v in self.extra.items()})
        out["per_label"] = {k: v.as_dict() for k, v in self.per_label.items()}
        if per_document:
            out["per_document"] = {k: v.as_dict() for k, v in self.per_document.items()}
        return out


@dataclass
class PairwiseResult:
    """A pairwise measure. ``pairs[(a, b)]``; for asymmetric measures ``a`` is the reference."""

    measure: str
    annotators: list[str]
    pairs: dict[tuple[str, str], PairValue]
    symmetric: bool = True
    params: dict[str, Any] = field(default_factory=dict)

    def matrix(self, key: str | None = None) -> dict[str, dict[str, float | None]]:
        """``m[row][col]``: the headline value (or ``extra[key]``), both triangles filled for a
        symmetric measure, ``None`` on the diagonal and where undefined."""
        m: dict[str, dict[str, float | None]] = {a: dict.fromkeys(self.annotators)
                                                 for a in self.annotators}
        for (a, b), pv in self.pairs.items():
            agr = pv.overall if key is None else pv.extra.get(key, undefined("absent"))
            m[a][b] = agr.value
            if self.symmetric:
                m[b][a] = agr.value
        return m

    def document_ranking(self) -> list[tuple[str, float]]:
        """Documents by mean value over the pairs, lowest (most disagreement) first."""
        acc: dict[str, list[float]] = {}
        for pv in self.pairs.values():
            for doc, agr in pv.per_document.items():
                if agr.value is not None:
                    acc.setdefault(doc, []).append(agr.value)
        # A mean of fewer than 8 values is the left-to-right sum NumPy's np.mean takes (its
        # pairwise sum starts blocks of 8 from there), so plain Python gives the same float.
        return sorted(((d, sum(v) / len(v) if len(v) < 8 else float(np.mean(v)))
                       for d, v in acc.items()), key=lambda dv: dv[1])

    def as_dict(self, per_document: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"measure": self.measure, "kind": "pairwise",
                               "annotators": self.annotators, "symmetric": self.symmetric,
                               "matrix": self.matrix()}
        extras = sorted({k for pv in self.pairs.values() for k in pv.extra})
        for k in extras:
            out[f"matrix_{k}"] = self.matrix(k)
        out.update(self.params)
        out["pairs"] = {f"{a} | {b}": pv.as_dict(per_document) for (a, b), pv in self.pairs.items()}
        if per_document:
            out["document_ranking"] = [{"doc": d, "value": v} for d, v in self.document_ranking()]
        return out


@dataclass
class ManyResult:
    """A many-annotator measure: one value, per label, per document."""

    measure: str
    annotators: list[str]
    overall: Agreement
    per_label: dict[str, Agreement] = field(default_factory=dict)
    per_document: dict[str, Agreement] = field(default_factory=dict)
    extra: dict[str, Agreement] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)

    def document_ranking(self) -> list[tuple[str, float]]:
        """Documents by value, lowest (most disagreement) first; undefined ones left out."""
        vals = [(d, a.value) for d, a in self.per_document.items() if a.value is not None]
        return sorted(vals, key=lambda dv: dv[1])

    def as_dict(self, per_document: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"measure": self.measure, "kind": "many",
                               "annotators": self.annotators, "value": self.overall.value}
        out.update(self.params)
        out["overall"] = self.overall.as_dict()
        out.update({k: v.as_dict() for k, v in self.extra.items()})
        out["per_label"] = {k: v.as_dict() for k, v in self.per_label.items()}
        if per_document:
            out["per_document"] = {k: v.as_dict() for k, v in self.per_document.items()}
            out["document_ranking"] = [{"doc": d, "value": v} for d, v in self.document_ranking()]
        return out


def _need_two(study: Study) -> None:
    if len(study.annotators) < 2:
        raise InputError(f"agreement needs at least two annotators; got {len(study.annotators)}"
                         + (f" ({study.annotators[0]!r})" if study.annotators else ""))


def _sum_counts(rows: Sequence[Counts]) -> Counts:
    a = np.asarray(rows, dtype=np.int64).reshape(-1, 4).sum(axis=0)
    return int(a[0]), int(a[1]), int(a[2]), int(a[3])


def _kappa(c: Counts, what: str) -> Agreement:
    k = cohen_kappa_binary(*c)
    if k.value is None and c[0] + c[1] + c[2] == 0:
        return undefined(f"kappa is undefined for {what}: neither annotator marked it",
                         **k.stats)
    return k


def _jaccard(c: Counts, what: str) -> Agreement:
    union = c[0] + c[1] + c[2]
    stats = {"intersection": c[0], "union": union}
    if union == 0:
        return undefined(f"Jaccard is undefined for {what}: neither annotator marked it", **stats)
    return Agreement(c[0] / union, None, stats)


def _document_kappas(docs: Sequence[str], counts: Sequence[Counts] | np.ndarray[Any, Any]
                     ) -> list[Agreement]:
    """``_kappa(c, f"document {doc!r}")`` of every document, the arithmetic of
    :func:`~core.metrics.agreement.coefficients.cohen_kappa_binary` done elementwise over all of
    them (the same operations in the same order on the same doubles: the same floats); a
    document whose κ is undefined goes through :func:`_kappa` itself."""
    c = np.asarray(counts, dtype=np.int64).reshape(-1, 4)
    a, b, x, d = (c[:, k].astype(float) for k in range(4))
    n = a + b + x + d
    with np.errstate(divide="ignore", invalid="ignore"):
        p_o = (a + d) / n
        p_e = ((a + b) * (a + x) + (x + d) * (b + d)) / (n * n)
        value = (p_o - p_e) / (1.0 - p_e)
    plain = ((n > 0) & ~(np.abs(p_e - 1.0) <= 1e-12)).tolist()
    rows = zip(docs, c.tolist(), plain, value.tolist(), p_o.tolist(), p_e.tolist(), strict=True)
    return [Agreement(v, None, {"p_o": po, "p_e": pe, "items": sum(cs)}) if ok
            else _kappa((cs[0], cs[1], cs[2], cs[3]), f"document {doc!r}")
            for doc, cs, ok, v, po, pe in rows]


def _document_kappa_values(docs: Sequence[str], c: np.ndarray[Any, Any]
                           ) -> tuple[list[float | None], list[str | None]]:
    """The value and reason of each :class:`Agreement` of :func:`_document_kappas` (counts
    ``c``: documents × (n11, n10, n01, n00)), without building them; the same floats."""
    a, b, x, d = (c[:, k].astype(float) for k in range(4))
    n = a + b + x + d
    with np.errstate(divide="ignore", invalid="ignore"):
        p_o = (a + d) / n
        p_e = ((a + b) * (a + x) + (x + d) * (b + d)) / (n * n)
        value: list[float | None] = ((p_o - p_e) / (1.0 - p_e)).tolist()
    reason: list[str | None] = [None] * len(value)
    for i in np.flatnonzero(~((n > 0) & ~(np.abs(p_e - 1.0) <= 1e-12))).tolist():
        cs = c[i].tolist()
        k = _kappa((cs[0], cs[1], cs[2], cs[3]), f"document {docs[i]!r}")
        value[i], reason[i] = k.value, k.reason
    return value, reason


def _document_jaccard_values(docs: Sequence[str], c: np.ndarray[Any, Any]
                             ) -> tuple[list[float | None], list[str | None]]:
    """The value and reason of each :class:`Agreement` of :func:`_document_jaccards`, without
    building them; the same floats."""
    union = c[:, 0] + c[:, 1] + c[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        value: list[float | None] = (c[:, 0].astype(float) / union.astype(float)).tolist()
    reason: list[str | None] = [None] * len(value)
    for i in np.flatnonzero(union == 0).tolist():
        value[i], reason[i] = None, (f"Jaccard is undefined for document {docs[i]!r}: neither "
                                     "annotator marked it")
    return value, reason


def _document_jaccards(docs: Sequence[str], counts: Sequence[Counts] | np.ndarray[Any, Any]
                       ) -> list[Agreement]:
    """``_jaccard(c, f"document {doc!r}")`` of every document, the divisions done at once."""
    c = np.asarray(counts, dtype=np.int64).reshape(-1, 4)
    union = c[:, 0] + c[:, 1] + c[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        value = c[:, 0].astype(float) / union.astype(float)
    rows = zip(docs, c[:, 0].tolist(), union.tolist(), value.tolist(), strict=True)
    return [Agreement(v, None, {"intersection": i, "union": u}) if u
            else undefined(f"Jaccard is undefined for document {doc!r}: neither annotator "
                           "marked it", intersection=i, union=u)
            for doc, i, u, v in rows]


def char_pair_values(per_label: Mapping[str, Counts], position: Counts,
                     per_document: Mapping[str, Counts]) -> tuple[PairValue, PairValue]:
    """κ and Jaccard of one annotator pair from its 2×2 counts (n11, n10, n01, n00) summed over
    the documents both cover: per label, position only, and per document (pooled over labels).

    The counts are sufficient statistics: counts of disjoint document sets add up, so a corpus
    split into shards gives the same values (``core/engines/sharded.py``). No documents: undefined.
    """
    docs = list(per_document)
    counts = np.asarray(list(per_document.values()), dtype=np.int64).reshape(-1, 4)
    return _char_pair(per_label, position, docs, counts)


def _char_pair(per_label: Mapping[str, Counts], position: Counts, docs: Sequence[str],
               doc_counts: np.ndarray[Any, Any], *, documents: tuple[bool, bool] = (True, True)
               ) -> tuple[PairValue, PairValue]:
    """:func:`char_pair_values` from the documents and their counts as an array
    ``(documents, 4)``; ``documents``: whether κ's and Jaccard's per-document values are wanted
    (a value left out stays an empty dictionary; the others are the same)."""
    kp = PairValue(undefined("no document annotated by both"))
    jp = PairValue(undefined("no document annotated by both"))
    if not len(docs):
        return kp, jp
    flat = _sum_counts(list(per_label.values())) if per_label else (0, 0, 0, 0)
    kp.overall = _kappa(flat, "any label")
    kp.per_label = {lab: _kappa(c, repr(lab)) for lab, c in per_label.items()}
    defined = [v.value for v in kp.per_label.values() if v.value is not None]
    kp.extra["macro"] = (Agreement(float(np.mean(defined)), None,
                                   {"labels": len(defined)}) if defined else
                         undefined("no label has a defined kappa"))
    kp.extra["position"] = _kappa(position, "span positions")
    jp.overall = _jaccard(flat, "any label")
    jp.per_label = {lab: _jaccard(c, repr(lab)) for lab, c in per_label.items()}
    jp.extra["position"] = _jaccard(position, "span positions")
    if documents[0]:
        kp.per_document = dict(zip(docs, _document_kappas(docs, doc_counts), strict=True))
    if documents[1]:
        jp.per_document = dict(zip(docs, _document_jaccards(docs, doc_counts), strict=True))
    return kp, jp


DocumentValues = dict[tuple[str, str], tuple[list[str], list[float | None], list[str | None]]]
"""Per annotator pair: the documents of its per-document values, each value and reason (the
:class:`Agreement` s' fields, without the objects)."""


def char_agreement(study: Study, *, per_document: tuple[bool, bool] = (True, True),
                   only: Sequence[tuple[str, str]] | None = None,
                   sides: CharSides | None = None,
                   document_values: tuple[DocumentValues | None, DocumentValues | None] = (
                       None, None)
                   ) -> tuple[PairwiseResult, PairwiseResult]:
    """Character-level Cohen's κ and Jaccard for every pair of annotators.

    Items are characters × labels (docs/agreement.md, the table of measures). Headline κ: the pooled
    ("flat") char × label table; ``macro``: mean of the defined per-label κ; ``position``:
    characters covered by any span vs none. Headline Jaccard: |A ∩ B| / |A ∪ B| over (character,
    label) pairs; ``position``: over covered characters. Per document: the same from that document's
    counts.
    ``per_document``: whether κ's and Jaccard's per-document values are wanted (they are most
    of the time on a large corpus: an object per document and pair); a value left out is an
    empty dictionary, every other value is the same. ``only``: these pairs ``(a, b)`` instead
    of every pair (each the values of the two annotators alone: :func:`char_counts` looks only
    at the documents both list). ``sides``: the study's :class:`CharSides` when the caller
    shares them with other comparisons (``only`` may then name a side it added, as
    :meth:`CharSides.majority`); by default one for these pairs. ``document_values``: κ's and
    Jaccard's; each given is filled with every pair's per-document values and reasons, the
    fields of the :class:`Agreement` s ``per_document`` would hold, without the objects.
    """
    _need_two(study)
    kappas: dict[tuple[str, str], PairValue] = {}
    jaccards: dict[tuple[str, str], PairValue] = {}
    pairs = list(combinations(study.annotators, 2) if only is None else only)
    # each annotator's runs are worth merging when it is in more than one pair
    if sides is None:
        sides = CharSides(study, merge_runs=len(pairs) > 1)
    for a, b in pairs:
        doc_ids, counts = char_counts(study, a, b, sides)  # (documents, labels + position, 4)
        labels = study.labels
        by_label = counts[:, :-1, :]
        per_label = {lab: tuple(c) for lab, c in
                     zip(labels, by_label.sum(axis=0).tolist(), strict=True)}
        position: Counts = tuple(counts[:, -1, :].sum(axis=0).tolist())
        doc_counts = by_label.sum(axis=1)
        kappas[(a, b)], jaccards[(a, b)] = _char_pair(
            per_label, position, doc_ids, doc_counts, documents=per_document)
        if len(doc_ids) and document_values[0] is not None:
            c = np.asarray(doc_counts, dtype=np.int64).reshape(-1, 4)
            document_values[0][(a, b)] = (list(doc_ids), *_document_kappa_values(doc_ids, c))
        if len(doc_ids) and document_values[1] is not None:
            c = np.asarray(doc_counts, dtype=np.int64).reshape(-1, 4)
            document_values[1][(a, b)] = (list(doc_ids), *_document_jaccard_values(doc_ids, c))
    docs = {"documents": len(study.docs)}
    return (PairwiseResult("char-kappa", study.annotators, kappas, params=docs),
            PairwiseResult("char-jaccard", study.annotators, jaccards, params=docs))


def text_kappa(study: Study, *, per_document: bool = True,
               document_values: DocumentValues | None = None) -> PairwiseResult:
    """Text-level Cohen's κ on label sets: items are documents × labels (label present or not).

    Headline: the pooled doc × label table (MAFALDA's "multi-label binary" κ); per label: that
    label's documents; per document: κ over the label universe, with the label-set Jaccard
    (``per_document=False``: without them; every other value is the same).
    ``document_values``: filled with each pair's per-document κ values and reasons instead of
    its ``per_document`` (left empty), without an object per document.
    """
    _need_two(study)
    _, present = doc_label_presence(study)
    row = {d: i for i, d in enumerate(study.docs)}
    who = {a: k for k, a in enumerate(study.annotators)}
    n_labels = len(study.labels)
    pairs: dict[tuple[str, str], PairValue] = {}
    for a, b in combinations(study.annotators, 2):
        docs = study.common_docs([a, b])
        if not docs:
            pairs[(a, b)] = PairValue(undefined("no document annotated by both"))
            continue
        pv = PairValue(undefined("no label"))
        rows = np.fromiter((row[d] for d in docs), dtype=np.int64, count=len(docs))
        xa, xb = present[who[a]][rows], present[who[b]][rows]  # documents × labels
        both = xa & xb
        n11, na, nb = both.sum(axis=0).tolist(), xa.sum(axis=0).tolist(), xb.sum(axis=0).tolist()
        n00 = (~xa & ~xb).sum(axis=0).tolist()
        per_label: dict[str, Counts] = {}
        for j, lab in enumerate(study.labels):
            per_label[lab] = (n11[j], na[j] - n11[j], nb[j] - n11[j], n00[j])
            pv.per_label[lab] = _kappa(per_label[lab], repr(lab))
        if study.labels:
            pv.overall = _kappa(_sum_counts(list(per_label.values())), "any label")
        defined = [v.value for v in pv.per_label.values() if v.value is not None]
        pv.extra["macro"] = (Agreement(float(np.mean(defined)), None, {"labels": len(defined)})
                             if defined else undefined("no label has a defined kappa"))
        if document_values is not None:
            nboth_ = both.sum(axis=1)
            la_, lb_ = xa.sum(axis=1), xb.sum(axis=1)
            c = np.stack([nboth_, la_ - nboth_, lb_ - nboth_, n_labels - (la_ + lb_ - nboth_)],
                         axis=1).astype(np.int64)
            document_values[(a, b)] = (list(docs), *_document_kappa_values(docs, c))
            pairs[(a, b)] = pv
            continue
        if not per_document:
            pairs[(a, b)] = pv
            continue
        # Per document: the label sets' sizes and overlap, as the rows' sums.
        d_both = both.sum(axis=1).tolist()
        d_a, d_b = xa.sum(axis=1).tolist(), xb.sum(axis=1).tolist()
        counts: list[Counts] = [(nboth, la - nboth, lb - nboth, n_labels - (la + lb - nboth))
                                for nboth, la, lb in zip(d_both, d_a, d_b, strict=True)]
        kappas = _document_kappas(docs, counts)
        for d, nboth, la, lb, k in zip(docs, d_both, d_a, d_b, kappas, strict=True):
            union = la + lb - nboth
            jac = nboth / union if union else None
            pv.per_document[d] = Agreement(k.value, k.reason, {**k.stats, "jaccard": jac})
        pairs[(a, b)] = pv
    return PairwiseResult("text-kappa", study.annotators, pairs,
                          params={"documents": len(study.docs)})


def _doc_label_counts(study: Study, docs: Sequence[str]) -> np.ndarray[Any, Any]:
    """``counts[d, l, v]``: coders (among those covering d) with label ``study.labels[l]``
    absent (v=0) / present."""
    covered, present = doc_label_presence(study, docs)
    out = np.zeros((len(docs), len(study.labels), 2))
    # Sums of 0/1 per annotator, as the per-annotator loop added them: exact integers.
    out[:, :, 1] = present.sum(axis=0)
    out[:, :, 0] = (covered[:, :, None] & ~present).sum(axis=0)
    return out


def fleiss_text(study: Study, *, per_document: bool = True) -> ManyResult:
    """Fleiss' κ on documents × labels (present / absent), documents every annotator covers.
    ``per_document=False`` leaves the per-document values out (the corpus and per-label values
    are the same)."""
    _need_two(study)
    docs = study.common_docs()
    left = len(study.docs) - len(docs)
    params = {"documents": len(docs), "documents_left_out": left}
    if not docs or not study.labels:
        why = "no document is annotated by every annotator" if not docs else "no label was used"
        return ManyResult("fleiss-kappa", study.annotators, undefined(f"Fleiss' kappa is "
                          f"undefined: {why}"), params=params)
    counts = _doc_label_counts(study, docs)
    overall = fleiss_kappa(counts.reshape(-1, 2), ["absent", "present"])
    res = ManyResult("fleiss-kappa", study.annotators, overall, params=params)
    for j, lab in enumerate(study.labels):
        res.per_label[lab] = _fleiss_label(fleiss_kappa(counts[:, j, :], ["absent", "present"]),
                                           counts[:, j, :], lab, len(study.annotators))
    if per_document:
        res.per_document = dict(zip(docs, fleiss_kappa_rows(counts, ["absent", "present"]),
                                    strict=True))
    return res


def _fleiss_label(k: Agreement, counts: np.ndarray[Any, Any], label: str, annotators: int
                  ) -> Agreement:
    """Per-label Fleiss' κ, its reason naming why when undefined: all ``annotators`` used
    ``label`` in every document (``counts``: documents × (absent, present)), or none did."""
    if k.value is not None or (counts[:, 0].any() and counts[:, 1].any()):
        return k
    docs = f"{len(counts):,} document{'s' if len(counts) != 1 else ''} all {annotators} cover"
    why = (f"nobody used {label!r} in the {docs}" if not counts[:, 1].any() else
           f"every one of the {annotators} annotators used {label!r} in each of the {docs}")
    return undefined(f"Fleiss' kappa is undefined: {why}, so there is no disagreement to "
                     "measure (expected agreement is 1)", **k.stats)


def document_values(study: Study, measure: str
                    ) -> tuple[list[str], list[float | None], list[str | None]]:
    """The documents of the per-document values of :func:`fleiss_text` or
    :func:`krippendorff_text` (``measure``: ``"fleiss-kappa"`` or ``"krippendorff-alpha"``)
    with each value and reason of those :class:`Agreement` s, without building them (what a
    ranking of documents needs: :func:`~core.metrics.agreement.panel.measure_view` with
    ``lean``); the same floats (``tests/agreement/test_view_lean.py``)."""
    _need_two(study)
    if measure == "fleiss-kappa":
        docs = study.common_docs()
        if not docs or not study.labels:
            return [], [], []
        values, reasons = fleiss_kappa_values(_doc_label_counts(study, docs),
                                              ["absent", "present"])
        return list(docs), values, reasons
    if measure == "krippendorff-alpha":
        docs = study.docs
        if not study.labels:
            return [], [], []
        counts = _doc_label_counts(study, docs)
        values, reasons = krippendorff_alpha_values(counts, ["absent", "present"])
        return list(docs), values, _document_alpha_whys(study, docs, counts, reasons)
    raise ValueError(f"document_values: no per-document values of {measure!r} without objects")


def _numeric(label: str) -> float | None:
    try:
        return float(label)
    except ValueError:
        return None


def _alpha_reason(a: Agreement, counts: np.ndarray[Any, Any], label: str | None,
                  annotators: int) -> Agreement:
    """Krippendorff's α of documents × labels, its reason naming why when the expected
    disagreement is 0: every annotator who covers a document used ``label`` (``None``: every
    label) in it, or nobody did (``counts``: documents × labels × (absent, present)). A label
    every annotator marks in every document has no α here even when their spans differ: this
    measure asks which labels a document has, not where their spans lie."""
    if a.value is not None or "D_e" not in a.stats:
        return a
    coders = counts.sum(axis=2)
    pairable = (coders >= 2).any(axis=1)
    n = int(pairable.sum())
    docs = f"{n:,} document{'s' if n != 1 else ''}"
    what = repr(label) if label is not None else "every label"
    if (coders[pairable] == annotators).all():
        who, where = f"every one of the {annotators} annotators", f"each of the {docs}"
    else:
        who, where = "every annotator", f"each of the {docs} they cover (missing allowed)"
    if not counts[pairable][:, :, 1].any():
        why = f"nobody used {what} in the {docs} at least two annotators cover"
        hint = ""
    else:
        why = f"{who} used {what} in {where}"
        hint = ("; this measure asks which labels a document has, not where its spans lie "
                "(unitizing-alpha, gamma and char-kappa compare the spans)")
    return undefined(f"Krippendorff's alpha is undefined: {why}, so there is no disagreement to "
                     f"measure (expected disagreement is 0){hint}", **a.stats)


def _document_alpha_whys(study: Study, docs: Sequence[str], counts: np.ndarray[Any, Any],
                         reasons: Sequence[str | None]) -> list[str | None]:
    """Each document's α reason (``reasons``, of ``counts[d]``: labels × (absent, present)), an
    undefined one with why in a reader's words rather than the formula's ("no unit has values
    from two coders", "expected disagreement is 0"): one annotator alone has the document
    (named), nobody marked a label in it, or every annotator marked every label. The values
    and statistics are the same; :func:`krippendorff_text` and :func:`document_values` (the
    lean view) give the same words."""
    out: list[str | None] = list(reasons)
    covered: np.ndarray[Any, Any] | None = None
    for i, reason in enumerate(reasons):
        table = counts[i]
        if reason is None or not len(table):
            continue
        coders = int(table[0].sum())
        if coders < 2:
            if covered is None:
                covered = doc_label_presence(study, docs)[0]
            who = [a for k, a in enumerate(study.annotators) if covered[k, i]]
            why = (f"only {who[0]} has this document" if who else "no annotator has this "
                   "document") + (", and α compares the labels two annotators or more give "
                                  "a document (the corpus value leaves it out)")
        elif not table[:, 1].any():
            why = (f"nobody marked any label in this document (its {coders} annotators), so "
                   "there is no disagreement to measure")
        elif not table[:, 0].any():
            both = "both annotators" if coders == 2 else f"all {coders} annotators"
            shown = ", ".join(study.labels[:6]) + (", ..." if len(study.labels) > 6 else "")
            why = (f"{both} marked every label ({shown}) in this document, so there is no "
                   "disagreement to measure (α asks which labels a document has, not where "
                   "their spans lie)")
        else:  # not met with two values (D_e is 0 only when every value is one of them)
            continue
        out[i] = f"Krippendorff's alpha is undefined: {why}"
    return out


def _document_alpha_reasons(study: Study, docs: Sequence[str], counts: np.ndarray[Any, Any],
                            alphas: Sequence[Agreement]) -> dict[str, Agreement]:
    """Each document's α (``alphas``, of ``counts[d]``), an undefined one with why in a
    reader's words (:func:`_document_alpha_whys`)."""
    whys = _document_alpha_whys(study, docs, counts,
                                [None if a.value is not None else a.reason for a in alphas])
    return {doc: a if a.value is not None or why == a.reason else Agreement(None, why, a.stats)
            for doc, a, why in zip(docs, alphas, whys, strict=True)}


def krippendorff_text(study: Study, *, per_document: bool = True) -> ManyResult:
    """Krippendorff's α (nominal) on documents × labels, missing documents allowed
    (``per_document=False``: without the per-document values).

    When every annotator gives each document at most one label and every label is a number (a
    rating), ``levels`` adds α on the document values at the nominal, ordinal, interval and ratio
    levels.
    """
    _need_two(study)
    docs = study.docs
    params: dict[str, Any] = {"documents": len(docs)}
    if not study.labels:
        return ManyResult("krippendorff-alpha", study.annotators,
                          undefined("Krippendorff's alpha is undefined: no label was used"),
                          params=params)
    counts = _doc_label_counts(study, docs)
    values = ["absent", "present"]
    overall = krippendorff_alpha_from_counts(counts.reshape(-1, 2), values)
    res = ManyResult("krippendorff-alpha", study.annotators,
                     _alpha_reason(overall, counts, None, len(study.annotators)), params=params)
    for j, lab in enumerate(study.labels):
        res.per_label[lab] = _alpha_reason(krippendorff_alpha_from_counts(counts[:, j, :], values),
                                           counts[:, j:j + 1, :], lab, len(study.annotators))
    if per_document:
        res.per_document = _document_alpha_reasons(
            study, docs, counts, krippendorff_alpha_rows(counts, values))
    numbers = {lab: _numeric(lab) for lab in study.labels}
    single = all(len({sp.label for sp in v}) <= 1
                 for a in study.annotators for v in study.spans[a].values())
    if single and all(x is not None for x in numbers.values()):
        data = [[(numbers[study.spans[a][d][0].label] if study.spans[a].get(d) else None)
                 for d in docs] for a in study.annotators]
        for level in ("nominal", "ordinal", "interval", "ratio"):
            res.extra[f"level_{level}"] = krippendorff_alpha(data, level=level)
    return res


CONSTANT_KEY = "without_constant_labels"
"""The key of :func:`without_constant_labels` in a Fleiss' κ or Krippendorff's α entry of
``agree --without-constant-labels`` (the entry's other keys are those without the option)."""


def constant_labels(study: Study) -> dict[str, list[str]]:
    """``{measure: labels}``: the labels that every annotator used in every document Fleiss'
    κ (the documents every annotator covers) and Krippendorff's α (those at least two cover)
    read. Their documents × labels units agree whatever the spans, so such a label has no
    value of its own and lifts the corpus value (tour20: on bratiaa's example project LOC, ORG
    and PER, 21 of the 28 units, beside a tile reading 1.000).

    >>> from core.model import Span
    >>> a = AnnotationSet("A", {"d": (Span(0, 2, "x"), Span(3, 4, "y")), "e": (Span(0, 1, "x"),)})
    >>> b = AnnotationSet("B", {"d": (Span(0, 3, "x"),), "e": (Span(1, 2, "x"),)})
    >>> constant_labels(Study.from_sets([a, b]))
    {'fleiss-kappa': ['x'], 'krippendorff-alpha': ['x']}
    """
    covered, present = doc_label_presence(study)
    coders = covered.sum(axis=0)
    out: dict[str, list[str]] = {}
    for name, docs in (("fleiss-kappa", coders == len(study.annotators)),
                       ("krippendorff-alpha", coders >= 2)):
        if not docs.any() or not study.labels:
            out[name] = []
            continue
        # a document an annotator does not cover is no vote against the label
        full = (present[:, docs, :] | ~covered[:, docs, None]).all(axis=(0, 1))
        out[name] = [lab for lab, f in zip(study.labels, full.tolist(), strict=True) if f]
    return out


def without_constant_labels(study: Study, measure: str,
                            constant: Sequence[str] | None = None) -> Agreement:
    """Fleiss' κ (``measure`` ``"fleiss-kappa"``) or Krippendorff's α
    (``"krippendorff-alpha"``) of :func:`fleiss_text` / :func:`krippendorff_text` on the units
    of the labels that vary: the documents × labels units of the labels every annotator used in
    every document (:func:`constant_labels`, or ``constant``) are left out. Those units agree
    whatever the spans, so they raise both the observed agreement and the agreement expected by
    chance (Fleiss 1971, eqs. 2-5: P̄ and P_e; Krippendorff 2011: D_o and D_e are read off the
    same coincidences) and say nothing of where the annotators disagree. The formula is the
    same; only its units change. ``stats``: ``labels_left_out``, ``labels`` (those kept) and
    ``units`` (their units). Undefined, with the reason, when every label is constant.

    >>> from core.model import Span
    >>> a = AnnotationSet("A", {"d": (Span(0, 2, "x"), Span(3, 4, "y")), "e": (Span(0, 1, "x"),)})
    >>> b = AnnotationSet("B", {"d": (Span(0, 3, "x"),), "e": (Span(1, 2, "x"), Span(3, 4, "y"))})
    >>> round(fleiss_text(Study.from_sets([a, b])).overall.value, 4)  # x: 2 of 4 units
    -0.3333
    >>> without_constant_labels(Study.from_sets([a, b]), "fleiss-kappa").value  # y's 2 units
    -1.0
    """
    if measure not in ("fleiss-kappa", "krippendorff-alpha"):
        raise ValueError(f"without_constant_labels: {measure!r} is no document × label measure "
                         "(fleiss-kappa, krippendorff-alpha)")
    _need_two(study)
    left = list(constant_labels(study)[measure] if constant is None else constant)
    keep = [j for j, lab in enumerate(study.labels) if lab not in set(left)]
    docs = study.common_docs() if measure == "fleiss-kappa" else study.docs
    kept = [study.labels[j] for j in keep]
    name = "Fleiss' kappa" if measure == "fleiss-kappa" else "Krippendorff's alpha"
    if not docs or not keep:
        why = ("no document is annotated by every annotator" if not docs else
               "every label was used by every annotator in every document")
        return undefined(f"{name} without the constant labels is undefined: {why}",
                         labels_left_out=left, labels=kept, units=0)
    counts = _doc_label_counts(study, docs)[:, keep, :]
    if measure == "fleiss-kappa":
        value = fleiss_kappa(counts.reshape(-1, 2), ["absent", "present"])
        units = int(counts.shape[0] * counts.shape[1])
    else:
        value = krippendorff_alpha_from_counts(counts.reshape(-1, 2), ["absent", "present"])
        units = int(((counts.sum(axis=2) >= 2)).sum())
    return Agreement(value.value, value.reason,
                     {**value.stats, "labels_left_out": left, "labels": kept, "units": units})


def unitizing(study: Study, *, per_document: bool = True) -> ManyResult:
    """Krippendorff's α_U per label and overall; the corpus is the documents every annotator
    covers, laid end to end in order (see :mod:`core.metrics.agreement.unitizing`).
    ``per_document=False`` skips the per-document values (nine tenths of the time)."""
    _need_two(study)
    docs = study.common_docs()
    params = {"documents": len(docs), "documents_left_out": len(study.docs) - len(docs)}
    offsets: dict[str, int] = {}
    pos = 0
    for d in docs:
        offsets[d] = pos
        pos += study.lengths[d]
    # One pass over each annotator's spans, grouped by label (document order, then span order).
    by_label: dict[str, list[list[tuple[int, int]]]] = {
        lab: [[] for _ in study.annotators] for lab in study.labels}
    for k, a in enumerate(study.annotators):
        for d in docs:
            shift = offsets[d]
            for s in study.get(a, d):
                units = by_label.get(s.label)
                if units is not None:
                    units[k].append((s.start + shift, s.end + shift))
    parts: dict[str, UnitizingParts] = {}
    for lab in study.labels:
        parts[lab] = category_parts(by_label[lab], 0, pos)
    overall, per_label = alpha_from_parts(parts)
    if not study.labels:
        overall = undefined("unitizing alpha is undefined: nobody marked any span")
    res = ManyResult("unitizing-alpha", study.annotators, overall, per_label, params=params)
    if per_document:
        res.per_document = dict(zip(docs, unitizing_documents(study, docs), strict=True))
    return res


def unitizing_document(study: Study, doc: str) -> Agreement:
    """α_U of one document of ``study`` (every label; its own continuum)."""
    dparts = {lab: category_parts([[(s.start, s.end) for s in study.get(a, doc)
                                    if s.label == lab] for a in study.annotators],
                                  0, study.lengths[doc]) for lab in study.labels}
    return alpha_from_parts(dparts)[0] if dparts else undefined("no label")


def unitizing_documents(study: Study, docs: Sequence[str]) -> list[Agreement]:
    """:func:`unitizing_document` of each of ``docs`` (documents every annotator covers), the
    same values, from the annotators' columns.

    The units of all annotators are sorted once by document, label, annotator and start; a
    (document, label) with no unit is left out of that document's sums (its D_o and D_e are
    0.0, which leaves a sum of doubles unchanged), and a category's parts come from
    :func:`~core.metrics.agreement.unitizing.few_parts` when it applies (a few units, none
    dropped), else from :func:`~core.metrics.agreement.unitizing.category_parts`.
    ``tests/agreement/test_unitizing_documents.py`` compares the two float for float."""
    if not study.labels:
        return [undefined("no label") for _ in docs]
    index = {d: i for i, d in enumerate(docs)}
    columns = {lab: j for j, lab in enumerate(study.labels)}
    cols: list[tuple[np.ndarray, ...]] = []
    for k, a in enumerate(study.annotators):
        t = study.table(a)
        if not len(t):
            continue
        rows = _rows(t.doc_ids, docs, index)[t.doc]
        labs = np.fromiter((columns.get(lab, -1) for lab in t.labels), dtype=np.int64,
                           count=len(t.labels))[t.label]
        keep = (rows >= 0) & (labs >= 0)
        cols.append((rows[keep], labs[keep], np.full(int(keep.sum()), k, dtype=np.int64),
                     t.start[keep].astype(np.int64), t.end[keep].astype(np.int64)))
    m = len(study.annotators)
    if cols:
        row, lab, who, start, end = (np.concatenate(c) for c in zip(*cols, strict=True))
    else:
        row = lab = who = start = end = np.zeros(0, dtype=np.int64)
    order = np.lexsort((end, start, who, lab, row))
    row, lab, who = row[order].tolist(), lab[order].tolist(), who[order].tolist()
    units = list(zip(start[order].tolist(), end[order].tolist(), strict=True))
    # per document, the parts of its labels with units, in label order
    found: list[list[UnitizingParts]] = [[] for _ in docs]
    i, n = 0, len(row)
    while i < n:
        r, c = row[i], lab[i]
        j = i
        coders: list[list[tuple[int, int]]] = [[] for _ in range(m)]
        while j < n and row[j] == r and lab[j] == c:
            coders[who[j]].append(units[j])
            j += 1
        length = study.lengths[docs[r]]
        parts = few_parts(coders, length)
        found[r].append(parts if parts is not None else category_parts(coders, 0, length))
        i = j
    out: list[Agreement] = []
    for parts_of in found:
        # alpha_from_parts' overall value: sums in label order, a label without units adds 0.0
        d_o = sum((p.d_o for p in parts_of), 0.0)
        d_e = sum((p.d_e for p in parts_of), 0.0)
        stats = {"D_o": d_o, "D_e": d_e, "units": sum(p.units for p in parts_of),
                 "dropped_self_overlaps": sum(p.dropped for p in parts_of)}
        if d_e == 0:
            out.append(undefined("unitizing alpha is undefined: no coder marked any unit",
                                 **stats))
        else:
            out.append(Agreement(1.0 - d_o / d_e, None, stats))
    return out


# --- gamma -------------------------------------------------------------------------------------

GammaCache = MutableMapping[str, tuple[list[g.DocGamma], list[str]]]
"""Where :func:`gamma` keeps each document's chance alignments between calls (keyed by the
continua's content and the parameters). Core keeps none: the caller that wants reuse (the
dashboard's worker process, γ then γ-cat) passes its own mapping, at most :data:`CACHE_SIZE`
entries are kept in it."""
CACHE_SIZE = 16


def _continua(study: Study, annotators: Sequence[str], docs: Sequence[str]
              ) -> list[g.Continuum]:
    index = {lab: i for i, lab in enumerate(study.labels)}
    out = []
    for d in docs:
        units = [(i, float(s.start), float(s.end), index[s.label])
                 for i, a in enumerate(annotators) for s in study.get(a, d)]
        out.append(g.Continuum.build(units, len(annotators), float(study.lengths[d])))
    return out


@dataclass(frozen=True)
class _GammaJob:
    """What every document's γ computation shares (sent once to each worker process)."""

    diss: g.Dissimilarity
    labels: tuple[str, ...]
    samples: int
    seed: int
    sampler: g.Sampler
    cats: tuple[int | None, ...]

    def __call__(self, chunk: Sequence[tuple[str, g.Continuum]]) -> list[g.DocGamma]:
        return [g.gamma_document(c, self.diss, list(self.labels), samples=self.samples,
                                 seed=self.seed, key=d, sampler=self.sampler,
                                 categories=list(self.cats)) for d, c in chunk]


GAMMA_PARALLEL_MIN = 2000
"""Documents × chance samples from which γ is computed in parallel worker processes."""


def _run_gamma_jobs(job: _GammaJob, items: list[tuple[str, g.Continuum]], workers: int | None,
                    progress: g.Progress | None, total: int) -> list[g.DocGamma]:
    """Each document's γ parts, in document order, on ``workers`` processes (default: one per
    core when the corpus is large enough to pay for starting them).

    Every document's chance samples come from its own seeded generator (``seed``, document id),
    so the result does not depend on the number of workers or on the order of completion.
    """
    import os

    n = workers if workers is not None else (
        min(os.cpu_count() or 1, 8) if len(items) * job.samples >= GAMMA_PARALLEL_MIN else 1)
    n = max(1, min(n, len(items)))
    if n == 1:
        out = []
        for k, item in enumerate(items, 1):
            out.extend(job([item]))
            if progress is not None:
                progress(k * job.samples, total)
        return out
    import multiprocessing as mp
    import threading
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # fork is cheap and safe in a single-threaded process (the command line, the dashboard's
    # worker); a process running other threads (a web server) starts clean interpreters.
    method = "fork" if threading.active_count() == 1 else "spawn"
    chunks = [items[i::n * 8] for i in range(n * 8)]  # interleaved: similar costs per chunk
    results: dict[int, list[g.DocGamma]] = {}
    done = 0
    with ProcessPoolExecutor(n, mp_context=mp.get_context(method)) as pool:
        futures = {pool.submit(job, chunk): i for i, chunk in enumerate(chunks) if chunk}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            done += len(chunks[i]) * job.samples
            if progress is not None:
                progress(done, total)
    by_doc = {dg_doc: dg for i, chunk in enumerate(chunks) if chunk
              for (dg_doc, _), dg in zip(chunk, results[i], strict=True)}
    return [by_doc[d] for d, _ in items]


def _gamma_docs(study: Study, annotators: Sequence[str], *, samples: int, seed: int,
                sampler: g.Sampler, diss: g.Dissimilarity, with_cat: bool,
                progress: g.Progress | None, workers: int | None = None,
                cache: GammaCache | None = None) -> tuple[list[g.DocGamma], list[str]]:
    docs = study.common_docs(annotators)
    continua = _continua(study, annotators, docs)
    cats: list[int | None] = [None, *range(len(study.labels))] if with_cat else []
    key = g.continuum_key(continua, tuple(docs), tuple(study.labels), samples, seed, sampler,
                          diss.key())
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        for dg in hit[0]:
            dg.add_categories(diss, study.labels, cats)
        if progress is not None:
            progress(1, 1)
        return hit
    total = max(1, len(docs) * samples)
    job = _GammaJob(diss, tuple(study.labels), samples, seed, sampler, tuple(cats))
    out = _run_gamma_jobs(job, list(zip(docs, continua, strict=True)), workers,
                          progress, total)
    if cache is not None:
        while len(cache) >= CACHE_SIZE:
            cache.pop(next(iter(cache)))
        cache[key] = (out, docs)
    return out, docs


def gamma(study: Study, *, samples: int = 30, seed: int = 0, sampler: g.Sampler = "statistical",
          dissimilarity: g.Dissimilarity | None = None, categorical: bool = False,
          annotators: Sequence[str] | None = None,
          progress: Callable[[int, int], None] | None = None,
          workers: int | None = None, cache: GammaCache | None = None) -> ManyResult:
    """Corpus γ of all (or the given) annotators; with ``categorical``, γ-cat (the headline of
    the returned result) and γ-k per label instead.

    Pooled over documents every annotator covers (docs/agreement.md, conventions); per document:
    that document's own γ from the same samples. With a ``cache`` mapping (:data:`GammaCache`) the
    chance alignments are kept there and a second call with the same content and parameters
    (γ-cat after γ) reuses them.
    ``workers`` processes share the documents (default: one per core for large corpora); the
    value does not depend on it.
    """
    _need_two(study)
    if samples < 1:
        raise InputError(f"gamma needs at least one chance sample; got samples={samples}")
    who = list(annotators) if annotators is not None else study.annotators
    diss = dissimilarity or g.Dissimilarity()
    t0 = time.perf_counter()
    docs_g, docs = _gamma_docs(study, who, samples=samples, seed=seed, sampler=sampler,
                               diss=diss, with_cat=categorical, progress=progress,
                               workers=workers, cache=cache)
    params = {"samples": samples, "seed": seed, "sampler": sampler, "alpha": diss.alpha,
              "beta": diss.beta, "delta_empty": diss.delta_empty, "documents": len(docs),
              "documents_left_out": len(study.docs) - len(docs), "aggregation": "pooled"}
    n = len(who)
    if not categorical:
        overall = g.gamma_from_docs(docs_g, n, samples)
        res = ManyResult("gamma", who, overall, params=params)
        for d, dg in zip(docs, docs_g, strict=True):
            res.per_document[d] = g.gamma_from_docs([dg], n, samples)
    else:
        overall = g.gamma_cat_from_docs(docs_g, None, samples)
        res = ManyResult("gamma-cat", who, overall, params=params)
        for j, lab in enumerate(study.labels):
            res.per_label[lab] = g.gamma_cat_from_docs(docs_g, j, samples, f"gamma-k({lab!r})")
        for d, dg in zip(docs, docs_g, strict=True):
            res.per_document[d] = g.gamma_cat_from_docs([dg], None, samples)
    res.params["seconds"] = round(time.perf_counter() - t0, 3)
    return res


def gamma_matrix(study: Study, **options: Any) -> PairwiseResult:
    """Two-annotator γ for every pair (the same options as :func:`gamma`)."""
    _need_two(study)
    pairs: dict[tuple[str, str], PairValue] = {}
    for a, b in combinations(study.annotators, 2):
        r = gamma(study, annotators=[a, b], **options)
        pairs[(a, b)] = PairValue(r.overall, r.per_label, r.per_document)
    return PairwiseResult("gamma", study.annotators, pairs)


def gamma_alignment(study: Study, doc_id: str, *, samples: int = 30, seed: int = 0,
                    sampler: g.Sampler = "statistical",
                    dissimilarity: g.Dissimilarity | None = None) -> dict[str, Any]:
    """The best alignment of one document, for drawing: units, unitary alignments, disorders.

    ``units[i] = {annotator, start, end, label}``; ``alignments[k] = {units: {annotator: unit
    index or None}, disorder, pairs: [{a, b, d_pos, d_cat, d}]}``; plus the document's γ (from
    ``samples`` chance samples, the same value the corpus breakdown gives) and its D_o.
    """
    if doc_id not in study.docs:
        raise InputError(f"no document {doc_id!r} in the annotation sets")
    who = study.covering(doc_id)
    if len(who) < 2:
        raise InputError(f"document {doc_id!r} is annotated by fewer than two annotators "
                         f"({', '.join(who) or 'none'})")
    diss = dissimilarity or g.Dissimilarity()
    t0 = time.perf_counter()
    c = _continua(study, who, [doc_id])[0]
    dg = g.gamma_document(c, diss, study.labels, samples=samples, seed=seed, key=doc_id,
                          sampler=sampler)
    cat_m = diss.category_matrix(study.labels)
    units = [{"annotator": who[int(c.ann[i])], "start": int(c.start[i]), "end": int(c.end[i]),
              "label": study.labels[int(c.cat[i])]} for i in range(c.size)]
    rows = []
    for row, cost in zip(dg.observed.tuples, dg.observed.costs, strict=True):
        real = [u for u in row if u >= 0]
        pairs = []
        for u, v in combinations(real, 2):
            dp = diss.positional(c.start[u], c.end[u], c.start[v], c.end[v])
            dc = float(cat_m[c.cat[u], c.cat[v]])
            pairs.append({"a": u, "b": v, "d_pos": dp, "d_cat": dc,
                          "d": diss.alpha * dp + diss.beta * dc})
        rows.append({"units": {who[k]: (u if u >= 0 else None) for k, u in enumerate(row)},
                     "disorder": cost, "pairs": pairs})
    value = g.gamma_from_docs([dg], len(who), samples)
    return {"doc": doc_id, "annotators": who, "units": units, "alignments": rows,
            "observed_disorder": dg.observed.disorder, "gamma": value.as_dict(),
            "samples": samples, "seed": seed, "sampler": sampler,
            "seconds": round(time.perf_counter() - t0, 3)}


# --- span F1 through the other metric modules --------------------------------------------------

def _martino(gold: AnnotationSet, pred: AnnotationSet, per_document: bool = True
             ) -> dict[str, Any]:
    """P/R/F1 of :func:`core.metrics.martino.score` (SemEval-2021 variant) as a plain dict
    (``per_document=False``: without the per-document rows, an object per document)."""
    from core.metrics import martino

    r = martino.score(gold, pred)
    return {"precision": r.precision, "recall": r.recall, "f1": r.f1,
            "per_label": {k: v.to_dict() for k, v in r.per_label().items()},
            "per_document": ({row.document: row.to_dict() for row in r.per_document()}
                             if per_document else {})}


def _mafalda(gold: AnnotationSet, pred: AnnotationSet, per_document: bool = True
             ) -> dict[str, Any]:
    """P/R/F1 of the MAFALDA metric (``core.metrics.mafalda``, paper variant, level 2).

    Labels outside MAFALDA's taxonomy are scored with one class per label
    (:func:`core.model.taxonomy.for_labels`): at level 2 the metric only needs label equality.
    """
    from core.metrics import mafalda
    from core.model.taxonomy import for_labels

    r = mafalda.score(gold, pred, taxonomy=for_labels([*gold.labels(), *pred.labels()]))
    return {"precision": r.precision, "recall": r.recall, "f1": r.f1, "per_label": {},
            "per_document": ({d.document: {"document": d.document, "precision": d.precision,
                                           "recall": d.recall, "f1": d.f1, **d.extra}
                              for d in r.per_document()} if per_document else {})}


_SPAN_SCORERS: dict[str, Callable[[AnnotationSet, AnnotationSet, bool], Mapping[str, Any]]] = {
    "martino": _martino, "mafalda": _mafalda}


def _side(study: Study, annotator: str, docs: list[str], role: Role) -> AnnotationSet:
    """``annotator``'s spans in ``docs``, as one side of a span scorer.

    When ``docs`` are all the annotator's documents in its own order (the usual case) the set
    is made from the study's columns, with the labels numbered in order of first appearance as
    :meth:`SpanTable.from_spans` numbers them: the same set, table and scores as one built
    document by document, without a :class:`Span` object per span (half of span-F1's time at
    10,000 documents)."""
    spans = study.spans[annotator]
    if isinstance(spans, SpanView) and len(spans) == len(docs) and list(spans) == docs:
        t = spans.table
        used, first = np.unique(t.label, return_index=True)
        order = used[np.argsort(first, kind="stable")]
        number = np.zeros(len(t.labels), dtype=np.int32)
        number[order] = np.arange(len(order), dtype=np.int32)
        table = SpanTable(t.doc_ids, tuple(t.labels[i] for i in order.tolist()), t.doc,
                          t.start, t.end, number[t.label], t.offsets)
        return AnnotationSet(annotator, table, role=role)
    return AnnotationSet(annotator, {d: spans[d] for d in docs}, role=role)


def _martino_document_f1(gold: AnnotationSet, pred: AnnotationSet
                         ) -> tuple[dict[str, Any], list[str], list[float]]:
    """:func:`_martino` without its per-document rows, and the documents with the F1 of each
    row (:meth:`MartinoResult.per_document`: :func:`~core.metrics.result.prf`, official empty
    rule), computed on arrays with the same operations on doubles, so the same floats."""
    from core.metrics import martino

    r = martino.score(gold, pred)
    out = {"precision": r.precision, "recall": r.recall, "f1": r.f1,
           "per_label": {k: v.to_dict() for k, v in r.per_label().items()},
           "per_document": {}}
    pn = np.asarray(r.doc_p_num, dtype=float)
    pd_ = np.asarray(r.doc_p_den, dtype=np.int64)
    rn = np.asarray(r.doc_r_num, dtype=float)
    rd = np.asarray(r.doc_r_den, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(pd_ > 0, pn / np.where(pd_ > 0, pd_, 1), 0.0)
        rr = np.where(rd > 0, rn / np.where(rd > 0, rd, 1), 0.0)
        f1 = np.where(p + rr > 0, 2 * p * rr / (p + rr), 0.0)
    f1 = np.where((pd_ == 0) & (rd == 0), 1.0, f1)
    return out, list(r.documents), f1.tolist()


def _mafalda_document_f1(gold: AnnotationSet, pred: AnnotationSet
                         ) -> tuple[dict[str, Any], list[str], list[float]]:
    """:func:`_mafalda` without its per-document dictionaries, and the documents with the F1
    of each of its rows."""
    from core.metrics import mafalda
    from core.model.taxonomy import for_labels

    r = mafalda.score(gold, pred, taxonomy=for_labels([*gold.labels(), *pred.labels()]))
    rows = r.per_document()
    return ({"precision": r.precision, "recall": r.recall, "f1": r.f1, "per_label": {},
             "per_document": {}}, [d.document for d in rows], [d.f1 for d in rows])


def span_f1(study: Study, scorer: str = "martino", *,
            score: Callable[[AnnotationSet, AnnotationSet], Mapping[str, Any]] | None = None,
            only: Sequence[tuple[str, str]] | None = None, per_document: bool = True,
            document_f1: dict[tuple[str, str], tuple[list[str], list[float]]] | None = None
            ) -> PairwiseResult:
    """Pairwise span P/R/F1 with ``scorer`` (``martino`` or ``mafalda``), both directions.

    ``pairs[(a, b)]`` takes a as the reference (gold) and b as the prediction, so P(a, b) =
    R(b, a) for Martino's metric. The headline is F1; ``extra`` holds P and R. The scores come
    from the metric modules themselves (never a second implementation here). ``only`` scores
    just those ordered (reference, prediction) pairs instead of every one.
    ``per_document=False`` leaves the per-document values out (every other value is the same).
    ``document_f1`` (the built-in scorers): filled with each pair's documents and their F1,
    the values of its ``per_document`` as floats (an :class:`Agreement` and a dictionary per
    document and pair left out), which are then left out.
    """
    _need_two(study)
    built_in = _SPAN_SCORERS[scorer]
    floats = document_f1 is not None and score is None

    def fn(gold: AnnotationSet, pred: AnnotationSet) -> Mapping[str, Any]:
        if floats:
            r, docs, f1 = (_martino_document_f1 if scorer == "martino"
                           else _mafalda_document_f1)(gold, pred)
            document_f1[(gold.name, pred.name)] = (docs, f1)  # type: ignore[index]
            return r
        return score(gold, pred) if score is not None else built_in(gold, pred, per_document)

    pairs: dict[tuple[str, str], PairValue] = {}
    for a, b in (permutations(study.annotators, 2) if only is None else only):
        docs = study.common_docs([a, b])
        if not docs:
            pairs[(a, b)] = PairValue(undefined("no document annotated by both"))
            continue
        gold = _side(study, a, docs, "gold")
        pred = _side(study, b, docs, "system")
        r = fn(gold, pred)
        pv = PairValue(Agreement(r.get("f1"), None, {"precision": r.get("precision"),
                                                     "recall": r.get("recall")}))
        pv.extra["precision"] = Agreement(r.get("precision"))
        pv.extra["recall"] = Agreement(r.get("recall"))
        for lab, v in (r.get("per_label") or {}).items():
            f1 = v.get("f1")
            pv.per_label[lab] = (Agreement(f1, None, dict(v)) if f1 is not None else
                                 undefined(f"F1 is undefined for {lab!r}: neither annotator "
                                           "used it", **v))
        for doc, v in ((r.get("per_document") or {}) if per_document else {}).items():
            pv.per_document[doc] = Agreement(v.get("f1"), None, dict(v))
        pairs[(a, b)] = pv
    name = "span-f1" if scorer == "martino" else "mafalda-f1"
    return PairwiseResult(name, study.annotators, pairs, symmetric=False,
                          params={"reference": "row", "scorer": scorer})
