"""The Martino metric on the seeds' worked examples, hand-computed cases and invariants."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.cli import main
from core.formats import load_path
from core.metrics.martino import (
    contributions,
    martino_gold_view,
    merge_overlaps,
    score,
    technique_list,
)
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parents[2]
FIG1 = ROOT / "sample_data" / "figure1"


def _set(name: str, spans: dict[str, list[Span]], **kw: object) -> AnnotationSet:
    return AnnotationSet(name, {d: tuple(v) for d, v in spans.items()}, **kw)  # type: ignore[arg-type]


def _fig1(pred: str) -> tuple[AnnotationSet, AnnotationSet]:
    return load_path(FIG1 / "gold.json").set, load_path(FIG1 / pred).set


def test_contribution_matches_seed_figure1() -> None:
    gold, pred = _fig1("pred_s1.json")
    (row,) = [r for r in contributions(gold, pred) if r.kind == "pair"]
    assert Fraction(row.intersection, row.gold_length) == Fraction(6, 16)
    assert row.contribution_r == pytest.approx(6 / 16)
    gold, pred = _fig1("pred_s2.json")
    (row,) = [r for r in contributions(gold, pred) if r.kind == "pair"]
    assert not row.label_match and row.contribution_r == 0.0


def test_recall_matches_seed_figure1() -> None:
    r345 = score(*_fig1("pred_s3_s4_s5.json")).recall
    r1 = score(*_fig1("pred_s1.json")).recall
    rt1 = score(*_fig1("pred_t1.json")).recall
    assert r345 == pytest.approx(7 / 24)
    assert r1 == pytest.approx(9 / 24)
    assert rt1 == 1.0
    assert r345 < r1 < rt1


def test_martino_recall_exceeds_one_on_mafalda_example9() -> None:
    # MAFALDA App. D.1, Example 9: T = [(0, 40, CREDIBILITY)], S = [(0, 10, CREDIBILITY),
    # (0, 40, CREDIBILITY)]; Martino sums both pairs: R = 10/40 + 40/40 = 1.25.
    gold = _set("gold", {"1": [Span(0, 40, "credibility")]})
    pred = _set("pred", {"1": [Span(0, 10, "credibility"), Span(0, 40, "credibility")]},
                role="system")
    assert score(gold, pred).recall == pytest.approx(1.25)


def test_duplicate_predictions_push_2021_recall_above_one_but_not_2019() -> None:
    gold = _set("gold", {"1": [Span(0, 10, "Doubt")]})
    pred = _set("pred", {"1": [Span(0, 10, "Doubt"), Span(0, 10, "Doubt")]}, role="system")
    assert score(gold, pred).recall == 2.0
    merged = score(gold, pred, variant="nlp4if2019", merge_pred=True)
    assert merged.recall == 1.0 and merged.p_den == 1


def test_per_label_official_reuses_the_precision_numerator() -> None:
    gold = _set("gold", {"1": [Span(0, 40, "Doubt")]})
    pred = _set("pred", {"1": [Span(0, 10, "Doubt")]}, role="system")
    r = score(gold, pred, labels=technique_list("semeval2021"))
    assert r.recall == 0.25
    assert r.per_label()["Doubt"].recall == 0.25
    assert r.per_label_official_detail()["Doubt"]["recall"] == 1.0
    assert r.to_dict()["per_label_official"]["Slogans"] == 1.0  # absent on both sides
    assert r.per_label()["Slogans"].f1 is None


def test_empty_gold_and_prediction_give_f1_one() -> None:
    r = score(_set("g", {"1": []}), _set("p", {"1": []}, role="system"))
    assert (r.precision, r.recall, r.f1) == (0.0, 0.0, 1.0)


def test_gold_with_alternatives_is_scored_as_distinct_spans_without_nothing() -> None:
    gold = _set("gold", {"1": [Span(0, 5, "ad hominem"), Span(0, 5, "nothing"),
                               Span(0, 5, "ad populum"), Span(10, 20, "straw man")]},
                alternatives=True)
    view = martino_gold_view(gold)
    assert view.get("1") == (Span(0, 5, "ad hominem"), Span(0, 5, "ad populum"),
                             Span(10, 20, "straw man"))


def test_merge_keeps_touching_spans_apart() -> None:
    assert merge_overlaps([Span(0, 10, "A"), Span(10, 20, "A")]) == (
        Span(0, 10, "A"), Span(10, 20, "A"))


def test_explain_command_rows_sum_to_the_document_numerators(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explain", str(FIG1 / "gold.json"), str(FIG1 / "pred_s3_s4_s5.json"),
                 "--doc", "1", "--metric", "martino", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert sum(r["contribution_r"] for r in out["rows"]) == pytest.approx(out["recall_numerator"])
    assert sum(r["contribution_p"] for r in out["rows"]) == pytest.approx(
        out["precision_numerator"])
    assert {r["kind"] for r in out["rows"]} == {"pair", "unmatched-pred"}
    assert main(["explain", str(FIG1 / "gold.json"), str(FIG1 / "pred_s1.json"),
                 "--doc", "1", "--metric", "martino"]) == 0
    assert "C(s,t,|t|)" in capsys.readouterr().out


def test_score_command_on_the_sample_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    prop = ROOT / "sample_data" / "propaganda"
    code = main(["score", str(prop / "gold.json"), str(prop / "system_a.json"),
                 "--metric", "martino", "--json", "--per-document"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metric"] == "martino" and out["variant"] == "semeval2021"
    assert len(out["per_document"]) == out["documents"]
    assert main(["score", str(prop / "gold.json"), str(prop / "system_a.json"),
                 "--metric", "martino"]) == 0
    assert "Da San Martino" in capsys.readouterr().out


# ---- properties ------------------------------------------------------------------------------

LABELS = ["A", "B", "C"]


@st.composite
def spans_st(draw: st.DrawFn, max_spans: int = 6) -> list[Span]:
    out = []
    for _ in range(draw(st.integers(0, max_spans))):
        start = draw(st.integers(0, 60))
        out.append(Span(start, start + draw(st.integers(1, 25)), draw(st.sampled_from(LABELS))))
    return out


@st.composite
def corpus_st(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    n = draw(st.integers(1, 4))
    gold = {str(i): draw(spans_st()) for i in range(n)}
    pred = {str(i): draw(spans_st()) for i in range(n)}
    return _set("gold", gold), _set("pred", pred, role="system")


def _disjoint(spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for s in sorted(spans):
        if not out or s.start >= out[-1].end:
            out.append(s)
    return out


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(corpus_st())
def test_perfect_prediction_scores_one_in_every_variant_without_overlaps(
        sets: tuple[AnnotationSet, AnnotationSet]) -> None:
    gold = _set("gold", {d: _disjoint(list(v)) for d, v in sets[0].spans.items()})
    assume(gold.span_count() > 0)
    pred = gold.with_role("system", "pred")
    for variant in ("semeval2021", "nlp4if2019", "semeval2020-si", "semeval2020-tc"):
        r = score(gold, pred, variant=variant)
        assert (r.precision, r.recall, r.f1) == pytest.approx((1.0, 1.0, 1.0)), variant


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(corpus_st(), st.randoms(use_true_random=False))
def test_permuting_documents_or_spans_changes_nothing(
        sets: tuple[AnnotationSet, AnnotationSet], rnd: object) -> None:
    gold, pred = sets
    import random

    assert isinstance(rnd, random.Random)
    def shuffled(aset: AnnotationSet) -> AnnotationSet:
        docs = list(aset.spans.items())
        rnd.shuffle(docs)  # type: ignore[attr-defined]
        return AnnotationSet(aset.name, {d: tuple(rnd.sample(list(v), len(v))) for d, v in docs},
                             aset.role)
    a = score(gold, pred)
    b = score(shuffled(gold), shuffled(pred))
    assert (a.p_num, a.r_num, a.p_den, a.r_den) == pytest.approx((b.p_num, b.r_num, b.p_den,
                                                                   b.r_den))


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(corpus_st())
def test_per_label_numerators_and_explanation_rows_sum_to_the_totals(
        sets: tuple[AnnotationSet, AnnotationSet]) -> None:
    gold, pred = sets
    r = score(gold, pred)
    assert sum(r.label_p_num.values()) == pytest.approx(r.p_num)
    assert sum(r.label_r_num.values()) == pytest.approx(r.r_num)
    assert sum(r.label_p_den.values()) == r.p_den and sum(r.label_r_den.values()) == r.r_den
    rows = contributions(gold, pred)
    assert sum(x.contribution_p for x in rows) == pytest.approx(r.p_num)
    assert sum(x.contribution_r for x in rows) == pytest.approx(r.r_num)
    assert float(r.doc_p_num.sum()) == pytest.approx(r.p_num)


@settings(deadline=None, max_examples=150)
@given(corpus_st())
def test_interval_arithmetic_equals_character_sets(
        sets: tuple[AnnotationSet, AnnotationSet]) -> None:
    gold, pred = sets
    p_num = r_num = 0.0
    for doc, gspans in gold.spans.items():
        for s in pred.get(doc):
            for t in gspans:
                if s.label == t.label:
                    inter = len(set(range(s.start, s.end)) & set(range(t.start, t.end)))
                    p_num += inter / s.length
                    r_num += inter / t.length
    r = score(gold, pred)
    assert (r.p_num, r.r_num) == pytest.approx((p_num, r_num))
