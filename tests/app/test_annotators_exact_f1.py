"""The Annotators page with exact-match (instance) F1 (``exact-f1``): its place in the measure
menu, the sentence that says how it differs from span-F1, a matrix and comparisons that are
core's values, and its matrix computed in the page while its view is in flight on a large
corpus (a cheap matrix: 0.02 s of CPU at 10,000 documents)."""

from __future__ import annotations

import pytest

from core.metrics.agreement import Study, against, against_majority, exact_f1
from tests.app.test_annotators_page import (
    PAGE,
    _heatmap_z,
    _matrix,
    _tab,
    _title,
    _view_in_flight,
)
from ui import annotators as ann


def test_exact_f1_is_offered_beside_span_f1_with_a_sentence_on_the_difference(make_app
                                                                              ) -> None:
    at = make_app(PAGE)
    options = list(at.selectbox(key=ann.K_ANN_MEASURE).options)
    assert options.index("exact-f1") == options.index("span-f1") + 1
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("exact-f1").run()
    assert not at.exception, [e.value for e in at.exception]
    captions = [c.value for c in at.caption]
    assert any(c.startswith("**exact-f1**: ") and "same start, end and label" in c
               and "span-f1 would give a near miss partial credit" in c for c in captions)


def test_the_matrix_is_core_exact_f1_symmetric_without_a_cells_choice(make_app,
                                                                      handmade) -> None:
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "exact-f1"})
    assert not at.exception, [e.value for e in at.exception]
    texts, sets = handmade
    expected = exact_f1(Study.from_sets(sets, texts)).matrix()
    names = [s.name for s in sets]
    assert _title(at) == "exact-f1, every pair"
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    assert all(row == [r[i] for r in _heatmap_z(at)] for i, row in enumerate(_heatmap_z(at)))
    # no precision / recall choice (one value both ways); the label-blind form beside it
    assert list(at.radio(key=ann.K_ANN_BLIND).options) == list(ann.BLIND_CELLS)
    assert at.radio(key=ann.K_ANN_BLIND).value == ann.BLIND_CELLS[0]
    assert "one character off is a miss on both sides" in _matrix(at)


@pytest.mark.parametrize("measure", ["exact-f1", "char-kappa", "char-jaccard"])
def test_the_label_blind_form_is_offered_in_the_cells_choice(make_app, handmade, frame,
                                                             measure: str) -> None:
    # bugleft15 item 4: exact-f1's label-blind `position` was the command line's only; the
    # page now offers it, and char-κ's and char-Jaccard's, as span-F1 offers P and R: in the
    # matrix's "Cells show", bound to the URL, and in the matrix's download
    from core.metrics.agreement import pairwise

    at = make_app(PAGE, params={ann.K_ANN_MEASURE: measure,
                                ann.K_ANN_BLIND: ann.BLIND_CELLS[1]})
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key=ann.K_ANN_BLIND).value == ann.BLIND_CELLS[1]
    texts, sets = handmade
    expected = pairwise(Study.from_sets(sets, texts), measure).matrix("position")
    names = [s.name for s in sets]
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    assert _title(at) == f"{measure} (positions only), every pair"
    assert "labels ignored" in _matrix(at)


def test_against_the_gold_and_the_majority_are_core(make_app, handmade, frame) -> None:
    at = _tab(make_app(PAGE, params={ann.K_ANN_MEASURE: "exact-f1"}), 1)
    assert not at.exception, [e.value for e in at.exception]
    texts, sets = handmade
    gold, others = sets[0], sets[1:]
    vs_gold = against(Study.from_sets([gold, *others], texts), "gold", measure="exact-f1")
    vs_maj = against_majority(sets, texts, measure="exact-f1")
    table = frame(at, "annotator", "against", "exact-f1")
    assert len(table) == len(others) + len(sets)
    for _, row in table.iterrows():
        pv = (vs_gold if row["against"] == "gold" else vs_maj)[row["annotator"]]
        assert row["exact-f1"] == pytest.approx(pv.overall.value)


def test_its_matrix_in_flight_is_computed_in_the_page_at_once(make_app, handmade,
                                                              monkeypatch) -> None:
    assert "exact-f1" in ann.MATRIX_CHEAP and "exact-f1" in ann.PREFETCHED
    texts, sets = handmade
    at, in_flight, bars = _view_in_flight(make_app, handmade, monkeypatch, "exact-f1")
    waited: list[object] = []
    monkeypatch.setattr(ann, "futures_wait", lambda fs, timeout: waited.append(timeout))
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("exact-f1").run()
    assert not at.exception, [e.value for e in at.exception]
    assert waited == [] and in_flight[0].future.running()
    expected = exact_f1(Study.from_sets(sets, texts)).matrix()
    names = [a.name for a in sets]
    assert _title(at) == "exact-f1, every pair"
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    assert ("exact-f1 of every pair", ann.VIEW_POLL) in bars  # the rest still computed


def test_touching_spans_everyone_marked_agree_with_the_pages_majority(frame) -> None:
    # bugleft15 item 5: against a character majority (touching runs joined into one span that
    # nobody marked) three annotators in full agreement scored exact-f1 0; the page scores and
    # draws exact-f1's majority of instances, and says what it is
    from core.model import AnnotationSet, Span
    from tests.app.test_annotators_page import _custom_app

    texts: dict[str, str | None] = {"d": "aaaa bbbb cccc"}
    two = (Span(0, 4, "x"), Span(4, 9, "x"))
    sets = [AnnotationSet(n, {"d": two}, "annotator") for n in "ABC"]
    at = _tab(_custom_app(sets, texts, {ann.K_ANN_MEASURE: "exact-f1"}), 1)
    assert not at.exception, [e.value for e in at.exception]
    table = frame(at, "annotator", "against", "exact-f1")
    assert list(table[table["against"] == "majority"]["exact-f1"]) == [1.0, 1.0, 1.0]
    assert any("the same start, end and label, exact-f1's instances" in c.value
               for c in at.caption)
