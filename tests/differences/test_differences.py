"""The parameterised path between the two metrics: its end points are the official metrics, its
intermediate rules are consistent with MAFALDA's own code, and the reasons name what differs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import ReadOptions, load_path
from core.metrics import mafalda, martino
from core.metrics.differences import (
    MARTINO,
    MARTINO_MERGED,
    REASONS,
    Rules,
    difference_reasons,
    document_differences,
    mafalda_rules,
    metric_path,
    rule_score,
)
from core.model import AltSpan, AnnotationSet, Span
from core.model.errors import InputError
from core.model.taxonomy import flat

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "propaganda"
MAFALDA_DATA = ROOT / "tests" / "data" / "mafalda"


def _sample() -> tuple[AnnotationSet, AnnotationSet, dict[str, str | None]]:
    g = load_path(SAMPLE / "gold.json")
    p = load_path(SAMPLE / "system_a.json", options=ReadOptions(role="system"))
    return g.set, p.set, dict(g.texts)


def test_martino_end_points_equal_the_official_scorers() -> None:
    gold, pred, _ = _sample()
    for rules, kwargs in ((MARTINO, {"variant": "semeval2021"}),
                          (MARTINO_MERGED, {"variant": "nlp4if2019", "merge_pred": True})):
        ours = rule_score(gold, pred, rules)
        official = martino.score(gold, pred, **kwargs)
        assert (ours.precision, ours.recall, ours.f1) == (official.precision, official.recall,
                                                          official.f1)


@pytest.mark.parametrize("variant", mafalda.VARIANTS)
@pytest.mark.parametrize("level", [0, 1, 2])
def test_mafalda_end_point_equals_the_mafalda_metric_on_the_released_outputs(
        variant: str, level: int) -> None:
    g = load_path(MAFALDA_DATA / "datasets" / "gold_standard_dataset.jsonl")
    p = load_path(MAFALDA_DATA / "results" / "gpt-3.5_level_2_results.jsonl", fmt="mafalda-llm",
                  options=ReadOptions(role="system", gold_doc_ids=g.set.doc_ids))
    ours = rule_score(g.set, p.set, mafalda_rules(level, variant), texts=g.texts)
    official = mafalda.score(g.set, p.set, level=level, variant=variant, texts=g.texts)
    assert (ours.precision, ours.recall, ours.f1) == (official.precision, official.recall,
                                                      official.f1)
    steps = metric_path(g.set, p.set, level=level, mafalda_variant=variant, texts=g.texts)
    assert steps[-1].official and steps[-1].value() == official.f1
    assert [s.key for s in steps if s.official][:2] == ["merged", "martino"]


def test_example9_walks_from_recall_125_to_1() -> None:
    # MAFALDA App. D, Example 9: T = [(0, 40, credibility)], S = [(0, 10), (0, 40)] at level 1.
    gold = AnnotationSet("g", {"9": (Span(0, 40, "ad hominem"),)}, alternatives=True)
    pred = AnnotationSet("p", {"9": (Span(0, 10, "ad hominem"), Span(0, 40, "tu quoque"))},
                         role="system")
    steps = {s.key: s for s in metric_path(gold, pred, level=1)}
    assert steps["level"].value("recall") == pytest.approx(1.25)
    assert steps["match"].value("recall") == pytest.approx(1.0)
    assert steps["mafalda"].value("recall") == pytest.approx(1.0)
    assert steps["martino"].value("recall") == pytest.approx(10 / 40)  # different level-2 labels


def test_alternatives_need_the_mafalda_rules() -> None:
    gold, pred, _ = _sample()
    with pytest.raises(InputError, match="MAFALDA metric only"):
        rule_score(gold, pred, Rules(alternatives=True))


def test_a_step_the_inputs_refuse_carries_the_error() -> None:
    gold, pred, _ = _sample()
    short = AnnotationSet(pred.name, {d: pred.get(d) for d in list(pred.spans)[:3]}, "system")
    steps = metric_path(gold, short)
    assert steps[1].score is None and "document" in (steps[1].error or "")


LABELS = ["a", "b"]


@st.composite
def single_label_corpus(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    gold, pred = {}, {}
    for d in range(draw(st.integers(1, 4))):
        spans = []
        for _ in range(draw(st.integers(0, 4))):
            a = draw(st.integers(0, 30))
            spans.append(Span(a, a + draw(st.integers(1, 12)), draw(st.sampled_from(LABELS))))
        gold[str(d)] = tuple(spans)
        spans = []
        for _ in range(draw(st.integers(0, 4))):
            a = draw(st.integers(0, 30))
            spans.append(Span(a, a + draw(st.integers(1, 12)), draw(st.sampled_from(LABELS))))
        pred[str(d)] = tuple(spans)
    return AnnotationSet("g", gold), AnnotationSet("p", pred, "system")


@pytest.mark.slow
@settings(deadline=None, max_examples=300)
@given(single_label_corpus())
def test_best_match_averaged_per_text_is_mafalda_on_single_gold(
        corpus: tuple[AnnotationSet, AnnotationSet]) -> None:
    """Only the gold alternatives and ⊥ separate the last intermediate step from MAFALDA: with
    one label per gold span, no ⊥ and no 'nothing' prediction they coincide text by text."""
    gold, pred = corpus
    ours = rule_score(gold, pred, Rules(match="best", pooling="text"))
    official = mafalda.score(gold, pred, taxonomy=flat(LABELS))
    assert [d.precision for d in official.per_document()] == pytest.approx(ours.doc_precision)
    assert [d.recall for d in official.per_document()] == pytest.approx(ours.doc_recall)
    assert [d.f1 for d in official.per_document()] == pytest.approx(ours.doc_f1)
    assert (ours.precision, ours.recall, ours.f1) == pytest.approx(
        (official.precision, official.recall, official.f1))


@settings(deadline=None, max_examples=200)
@given(single_label_corpus())
def test_best_match_never_exceeds_one_and_sum_never_falls_below_it(
        corpus: tuple[AnnotationSet, AnnotationSet]) -> None:
    gold, pred = corpus
    summed = rule_score(gold, pred, MARTINO)
    best = rule_score(gold, pred, Rules(match="best"))
    assert best.precision <= 1 + 1e-12 and best.recall <= 1 + 1e-12
    assert summed.precision >= best.precision - 1e-12
    assert summed.recall >= best.recall - 1e-12


def test_reasons_name_the_features_of_each_text() -> None:
    g = (AltSpan(0, 10, ("ad hominem", "nothing")), AltSpan(20, 30, ("appeal to fear",
                                                                      "appeal to anger")))
    assert difference_reasons(g, (Span(0, 10, "nothing"),)) == [
        "alternative-labels", "optional-span", "nothing-prediction", "no-prediction"]
    assert difference_reasons((), ()) == ["empty"]
    assert difference_reasons((), (Span(0, 3, "x"),)) == ["no-gold"]
    labels = {"appeal to fear": "emotion", "appeal to anger": "emotion"}
    grouped = difference_reasons((AltSpan(0, 10, ("appeal to fear",)),),
                                 (Span(0, 10, "appeal to anger"),), level_labels=labels)
    assert grouped == ["labels-grouped"]
    assert set(REASONS) >= {t for t in ["labels-grouped", "empty", "no-gold"]}


def test_document_differences_rank_the_sample_and_tag_its_cases() -> None:
    gold, pred, texts = _sample()
    rows = document_differences(gold, pred, texts=texts)
    by_doc = {r.document: r for r in rows}
    assert abs(rows[0].difference) == max(abs(r.difference) for r in rows)
    assert "duplicate-prediction" in by_doc["2"].reasons  # 'a career liar' predicted twice
    assert "split-prediction" in by_doc["4"].reasons  # the black-and-white fallacy in pieces
    assert "overlapping-gold" in by_doc["5"].reasons  # nested same-label gold
    # [78, 111) carries two labels, alternatives to MAFALDA (as_alternatives), as `explain` says
    assert by_doc["7"].difference and "alternative-labels" in by_doc["7"].reasons
    assert by_doc["10"].reasons == ("empty",) and by_doc["10"].martino == (0.0, 0.0, 1.0)
    assert sum(r.pooled_weight for r in rows) == pytest.approx(1.0)
    dsm = martino.score(gold, pred).per_document()
    assert {r.document: r.f1 for r in dsm} == {r.document: r.martino[2] for r in rows}
