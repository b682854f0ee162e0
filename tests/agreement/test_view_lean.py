"""Issue 29: the page's view of a measure (``measure_view(..., lean=True)``) equals the full
view without its per-document values (:func:`lean_view`, which the dashboard's worker sent
before), float for float: every measure but γ, γ-cat and α_U ranks the documents from
per-document floats rather than an ``Agreement`` per document and pair; and the rows of
values of :mod:`coefficients` equal the objects' values."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from core.metrics.agreement import measure_view, measures, panel
from core.metrics.agreement.coefficients import (
    fleiss_kappa_rows,
    fleiss_kappa_values,
    krippendorff_alpha_rows,
    krippendorff_alpha_values,
)
from core.metrics.agreement.measures import (
    document_values,
    fleiss_text,
    krippendorff_text,
)
from core.metrics.agreement.panel import Shared, lean_view
from core.metrics.agreement.study import Study
from tests.agreement.test_view_shared import _set, annotator
from ui.gamma_worker import for_the_page


@settings(max_examples=300, deadline=None)
@given(hnp.arrays(np.int64, st.tuples(st.integers(0, 6), st.integers(1, 4), st.just(2)),
                  elements=st.integers(0, 6)),
       st.lists(st.integers(0, 5), min_size=6, max_size=6))
def test_row_values_equal_the_rows_values(counts: np.ndarray, raters: list[int]) -> None:
    t = counts.astype(float)
    rows = krippendorff_alpha_rows(t, ["absent", "present"])
    assert repr(krippendorff_alpha_values(t, ["absent", "present"])) == repr(
        ([r.value for r in rows], [r.reason for r in rows]))
    # Fleiss' κ: every subject of a table rated by as many raters (0 to 5)
    n = np.array(raters[:len(t)], dtype=float)[:, None]
    t[:, :, 0] = np.minimum(t[:, :, 0], n)
    t[:, :, 1] = n - t[:, :, 0]
    rows = fleiss_kappa_rows(t, ["absent", "present"])
    assert repr(fleiss_kappa_values(t, ["absent", "present"])) == repr(
        ([r.value for r in rows], [r.reason for r in rows]))


@settings(max_examples=150, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=4), st.sampled_from([None, "A"]),
       st.sampled_from(["fleiss-kappa", "krippendorff-alpha"]))
def test_document_values_equal_the_per_document_values(annotators: list, label: str | None,
                                                       measure: str) -> None:
    study = Study.from_sets([_set(f"a{i}", docs) for i, docs in enumerate(annotators)],
                            label=label)
    full = (fleiss_text if measure == "fleiss-kappa" else krippendorff_text)(study)
    docs, values, reasons = document_values(study, measure)
    assert docs == list(full.per_document)
    assert repr((values, reasons)) == repr(
        ([a.value for a in full.per_document.values()],
         [a.reason for a in full.per_document.values()]))


@settings(max_examples=300, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=5), annotator,
       st.sampled_from([None, "A", "C"]),
       st.sampled_from(["fleiss-kappa", "krippendorff-alpha", "text-kappa", "span-f1",
                        "exact-f1", "mafalda-f1", "char-kappa", "char-jaccard"]),
       st.sampled_from(["first", "apart", "second", "none"]), st.booleans(), st.booleans())
def test_the_lean_view_equals_the_full_view_without_its_documents(
        annotators: list, gold_docs: dict, label: str | None, measure: str, gold_where: str,
        texts_known: bool, leave_one_out: bool) -> None:
    sets = [_set(f"a{i}", docs) for i, docs in enumerate(annotators)]
    texts = {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None
    gold = {"first": sets[0], "second": sets[1], "none": None,
            "apart": _set("gold", gold_docs, role="gold")}[gold_where]
    kwargs = dict(sets=sets, texts=texts, measure=measure, label=label, gold=gold,
                  leave_one_out=leave_one_out)
    want = repr(lean_view(measure_view(**kwargs)))  # type: ignore[arg-type]
    assert repr(measure_view(**kwargs, lean=True)) == want  # type: ignore[arg-type]
    # with what the worker (or the page) keeps between views, twice
    shared = Shared()
    for _ in range(2):
        got = measure_view(**kwargs, lean=True, shared=shared)  # type: ignore[arg-type]
        assert repr(got) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=4), annotator,
       st.sampled_from([None, "A", "C"]), st.sampled_from(["first", "apart", "second", "none"]),
       st.booleans(), st.booleans())
def test_the_second_character_measure_counts_no_pair_again(
        annotators: list, gold_docs: dict, label: str | None, gold_where: str,
        texts_known: bool, kappa_first: bool) -> None:
    """char-κ and char-Jaccard come from the same counts: with one ``Shared``, the lean view of
    the second counts no pair again (``panel._char_pairs``), in either order, and each view
    is the one computed alone (with the general way's against the gold)."""
    sets = [_set(f"a{i}", docs) for i, docs in enumerate(annotators)]
    texts: dict[str, str | None] | None = (
        {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None)
    gold = {"first": sets[0], "second": sets[1], "none": None,
            "apart": _set("gold", gold_docs, role="gold")}[gold_where]
    order = ["char-kappa", "char-jaccard"] if kappa_first else ["char-jaccard", "char-kappa"]
    want = [repr(lean_view(measure_view(sets, texts, measure=m, label=label, gold=gold)))
            for m in order]
    shared = Shared()
    counted: list[int] = []
    real = measures.char_counts

    def counting(*args: object, **kwargs: object) -> object:
        counted.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    got = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(measures, "char_counts", counting)
        for m in order:
            counted.clear()
            got.append(repr(measure_view(sets, texts, measure=m, label=label, gold=gold,
                                         lean=True, shared=shared)))
    assert got == want
    assert not counted  # the second view: every pair's counts were kept


def test_the_lean_view_is_what_the_worker_sent() -> None:
    """``lean_view`` leaves out what ``ui.gamma_worker.for_the_page`` leaves out, and a lean
    view goes through it unchanged; five annotators (ten pairs) take the general way."""
    sets = [_set(f"a{i}", {"d1": [(i, 5, "A")], "d2": [(0, 3 + i, "B"), (8, 4, "A")],
                           "d3": [(2 * i, 6, "A")]}) for i in range(5)]
    for measure in ("fleiss-kappa", "krippendorff-alpha", "span-f1", "char-kappa", "text-kappa"):
        full = measure_view(sets, measure=measure, gold=sets[0])
        lean = measure_view(sets, measure=measure, gold=sets[0], lean=True)
        assert repr(for_the_page(full)) == repr(lean_view(full)) == repr(lean)
        assert repr(for_the_page(lean)) == repr(lean)
        assert lean.ranking and all(not pv.per_document for pv in lean.pairwise.pairs.values())


def test_fleiss_and_alpha_build_no_object_per_document_and_pair(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Three annotators: the lean view of Fleiss' κ or α never builds the per-document rows."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("per-document objects built")

    sets = [_set(f"a{i}", {f"d{k}": [(k + i, 5, "AB"[k % 2])] for k in range(1, 6)})
            for i in range(3)]
    want = {m: repr(lean_view(measure_view(sets, measure=m))) for m in
            ("fleiss-kappa", "krippendorff-alpha")}
    monkeypatch.setattr(measures, "fleiss_kappa_rows", refuse)
    monkeypatch.setattr(measures, "krippendorff_alpha_rows", refuse)
    monkeypatch.setattr(panel, "_rank_documents_loop", refuse)
    monkeypatch.setattr(panel, "rank_documents", refuse)
    for m, text in want.items():
        assert repr(measure_view(sets, measure=m, lean=True)) == text


def test_span_f1_builds_no_row_per_document_and_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lean view of span-F1 takes each pair's per-document F1 from the scorer's arrays:
    no row of Martino's per-document scores, and the same view."""
    from core.metrics.martino import MartinoResult

    sets = [_set(f"a{i}", {f"d{k}": [(k + i, 5, "AB"[k % 2]), (20, 3 + i, "A")]
                           for k in range(1, 6)}) for i in range(3)]
    want = repr(lean_view(measure_view(sets, measure="span-f1", gold=sets[0])))

    def refuse(self: object) -> None:
        raise AssertionError("per-document rows built")

    monkeypatch.setattr(MartinoResult, "per_document", refuse)
    monkeypatch.setattr(panel, "rank_documents", refuse)
    assert repr(measure_view(sets, measure="span-f1", gold=sets[0], lean=True)) == want
