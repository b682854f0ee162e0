"""The Learn page's scenarios (core.teaching.scenarios) reproduce the seeds' worked examples, scored
through core.metrics; the row parser, the alternative enumeration and the card converter."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import load_path
from core.metrics import mafalda, martino
from core.model import NOTHING, AnnotationSet, Span
from core.teaching import scenarios
from core.teaching.scenarios import DOC, SCENARIOS, evaluate, get, measure

ROOT = Path(__file__).resolve().parents[2]
FIG1 = ROOT / "sample_data" / "figure1"
CASES_FILE = ROOT / "tests" / "data" / "conformance" / "official_cases.json"


def _martino(sid: str, **kw: object) -> martino.MartinoResult:
    sc = get(sid)
    return martino.score(sc.gold_set(), sc.pred_set(), **kw)  # type: ignore[arg-type]


def _conformance_case(name: str) -> dict:
    cases = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
    return next(c for c in cases if c["name"] == name)


# ---- Figure 1 -----------------------------------------------------------------------------------


def test_figure1_scenarios_use_the_sample_data_text_and_offsets() -> None:
    gold = load_path(FIG1 / "gold.json")
    assert gold.texts[DOC] == scenarios.FIGURE1_TEXT
    assert gold.set.get(DOC) == get("figure1-s1").gold
    for sid, file in (("figure1-s1", "pred_s1.json"), ("figure1-s2", "pred_s2.json"),
                      ("figure1-s3s4s5", "pred_s3_s4_s5.json"), ("figure1-t1", "pred_t1.json")):
        assert sorted(load_path(FIG1 / file).set.get(DOC)) == sorted(get(sid).pred), sid


def test_figure1_contribution_of_s1_is_six_sixteenths() -> None:
    sc = get("figure1-s1")
    (row,) = martino.contributions(sc.gold_set(), sc.pred_set(), doc=DOC)
    assert Fraction(row.intersection, row.gold_length) == Fraction(6, 16)
    assert row.contribution_r == pytest.approx(6 / 16)


def test_figure1_contribution_of_s2_is_zero_for_another_label() -> None:
    sc = get("figure1-s2")
    (row,) = martino.contributions(sc.gold_set(), sc.pred_set(), doc=DOC)
    assert row.kind == "pair" and row.intersection > 0 and not row.label_match
    assert row.contribution_r == 0.0


def test_every_contribution_is_written_in_eq1_order_prediction_first() -> None:
    """Da San Martino et al. (2019) Eq. 1 defines C(s, t, h) with s the prediction and t the
    gold; its Figure 1 example writes C(t1, s1, |t1|). Learn keeps Eq. 1's order everywhere and
    names the paper's order where it quotes it."""
    names = {"S1": "s1", "S2": "s2", "T1": "t1"}
    spans = {getattr(scenarios, k): v for k, v in names.items()}
    pairs = [e for sc in SCENARIOS.values() for e in sc.expected if e.kind == "pair"]
    assert pairs
    for e in pairs:
        assert e.pair is not None
        pred, gold = e.pair
        assert e.name.startswith(f"C({spans[pred]}, {spans[gold]}, "), e.name
        assert f"written C({spans[gold]}, {spans[pred]}, " in e.source, e.source
    for sc in SCENARIOS.values():
        assert not re.search(r"C\(t\d, s\d", sc.look_at.replace(
            "the paper writes C(t1, s1", "")), sc.id
        assert "the seed writes" not in sc.look_at


def test_figure1_recall_order_matches_seed() -> None:
    r345 = _martino("figure1-s3s4s5").recall
    r1 = _martino("figure1-s1").recall
    rt1 = _martino("figure1-t1").recall
    assert (r345, r1, rt1) == (pytest.approx(7 / 24), pytest.approx(9 / 24), pytest.approx(1.0))
    assert r345 < r1 < rt1


# ---- MAFALDA ------------------------------------------------------------------------------------


def test_example9_martino_recall_is_1_25_where_mafalda_gives_1() -> None:
    sc = get("mafalda-example9")
    assert sc.level == 1
    tax = sc.taxonomy()
    gold = AnnotationSet("g", {DOC: scenarios.project(sc.gold, 1, tax)})
    pred = AnnotationSet("p", {DOC: scenarios.project(sc.pred, 1, tax)}, "system")
    assert {s.label for s in gold.get(DOC) + pred.get(DOC)} == {"credibility"}
    assert martino.score(gold, pred).recall == pytest.approx(1.25)
    assert mafalda.score(sc.gold_set(), sc.pred_set(), level=1).recall == pytest.approx(1.0)


def test_example9_at_level_2_martino_sees_two_labels() -> None:
    # Without the projection tu quoque does not match ad hominem: R = 10/40.
    assert _martino("mafalda-example9").recall == pytest.approx(0.25)


def test_example5_enumerates_the_papers_four_alternatives() -> None:
    sc = get("mafalda-example5")
    alts = scenarios.alternatives(sc.gold_set().alt_spans(DOC))
    paper = {frozenset(spans) for _, spans in sc.paper_alternatives}
    assert {frozenset(a) for a in alts} == paper
    assert len(alts) == 4 and {len(a) for a in alts} == {4}
    assert [name for name, _ in sc.paper_alternatives] == ["T1", "T2", "T3", "T4"]


@pytest.mark.parametrize("name", ["T1", "T2", "T3", "T4"])
def test_example5_predicting_any_alternative_scores_one(name: str) -> None:
    # Definition 6: every T_i is a valid annotation; ⊥ spans are simply not predicted.
    sc = get("mafalda-example5")
    spans = dict(sc.paper_alternatives)[name]
    pred = sc.pred_set([s for s in spans if s.label != NOTHING])
    r = mafalda.score(sc.gold_set(), pred)
    assert (r.precision, r.recall, r.f1) == (1.0, 1.0, 1.0)


def test_example5_alternative_table_scores_the_prediction_against_each_alternative() -> None:
    ev = evaluate(get("mafalda-example5"))
    by_name = {a.name: a for a in ev.alternatives}
    assert [a.name for a in ev.alternatives] == ["T1", "T2", "T3", "T4"]
    # The prediction is T1: T2 differs on Sentence1 (anger), T4 leaves Sentence5 as ⊥.
    assert (by_name["T1"].precision, by_name["T1"].recall) == (1.0, 1.0)
    assert (by_name["T2"].precision, by_name["T2"].recall) == (0.75, 0.75)
    assert (by_name["T4"].precision, by_name["T4"].recall, by_name["T4"].mandatory) == (
        0.75, 1.0, 3)
    assert by_name["T3"].recall == pytest.approx(2 / 3)


# ---- the official scorers -----------------------------------------------------------------------


def test_duplicates_scenario_is_the_conformance_case_and_gives_its_numbers() -> None:
    case = _conformance_case("s21_duplicate_overlapping_predictions_recall_above_one")
    sc = get("duplicates")
    (gdoc,), (pdoc,) = case["gold"]["documents"], case["pred"]["documents"]
    assert gdoc["text"] == sc.text
    assert sorted(Span(s["start"], s["end"], s["label"]) for s in gdoc["spans"]) == list(sc.gold)
    assert sorted(Span(s["start"], s["end"], s["label"]) for s in pdoc["spans"]) == sorted(sc.pred)
    r = _martino("duplicates")
    out = case["official_output"]
    assert (r.precision, r.recall) == (pytest.approx(out["precision"]),
                                        pytest.approx(out["recall"]))
    assert r.f1 == pytest.approx(1.428571, abs=5e-7) and r.recall > 1


def test_duplicates_are_merged_by_nlp4if2019_and_refused_by_span_identification() -> None:
    ev = evaluate(get("duplicates"))
    assert ev.run("nlp4if2019").result.recall == pytest.approx(1.0)
    assert ev.run("semeval2020-si").result is None
    assert "overlaps" in ev.run("semeval2020-si").error
    assert ev.mafalda.recall == 1.0


def test_per_technique_recall_bug_official_vs_correct() -> None:
    r = _martino("per-technique-recall-bug", labels=martino.technique_list("semeval2021"))
    assert (r.recall, r.f1) == (pytest.approx(0.25), pytest.approx(0.4))
    official = r.per_label_official_detail()[scenarios.LL]
    assert (official["recall"], official["f1"]) == (pytest.approx(1.0), pytest.approx(1.0))
    correct = r.per_label()[scenarios.LL]
    assert (correct.recall, correct.f1) == (pytest.approx(0.25), pytest.approx(0.4))


# ---- every stated number ------------------------------------------------------------------------

EXPECTED = [(sid, e) for sid, sc in SCENARIOS.items() for e in sc.expected]


@pytest.mark.parametrize(("sid", "exp"), EXPECTED,
                         ids=[f"{sid}:{e.name}" for sid, e in EXPECTED])
def test_every_scenario_gives_the_seeds_numbers_exactly(sid: str, exp: scenarios.Expected
                                                         ) -> None:
    value = measure(evaluate(get(sid)), exp)
    assert value == pytest.approx(exp.value, abs=5e-7)
    assert scenarios.matches(value, exp)


def test_every_scenario_states_at_least_one_number_quoted_from_its_seed() -> None:
    for sc in SCENARIOS.values():
        assert any(e.quoted for e in sc.expected), sc.id
        assert sc.title and sc.look_at and sc.source


def test_scenario_predictions_use_the_labels_the_editor_offers() -> None:
    for sc in SCENARIOS.values():
        assert {s.label for s in sc.pred} <= set(sc.label_choices()), sc.id


def test_an_edited_prediction_changes_the_scores() -> None:
    sc = get("figure1-s1")
    ev = evaluate(sc, [Span(42, 57, scenarios.LL)])  # s1's end moved to t1's end
    assert ev.edited and not evaluate(sc).edited
    assert ev.run("semeval2021").result.recall == pytest.approx(15 / 24)
    assert measure(ev, sc.expected[0]) is None  # the seed's pair (s1, t1) is gone


# ---- properties ---------------------------------------------------------------------------------

TEXT_LEN = len(scenarios.FIGURE1_TEXT)


@st.composite
def predictions(draw: st.DrawFn, labels: list[str], length: int) -> list[Span]:
    out = []
    for _ in range(draw(st.integers(0, 4))):
        a = draw(st.integers(0, length - 1))
        b = draw(st.integers(a + 1, length))
        out.append(Span(a, b, draw(st.sampled_from(labels))))
    return out


@settings(deadline=None, max_examples=150)
@given(predictions([scenarios.LL, scenarios.NC], TEXT_LEN))
def test_pair_table_sums_to_the_2021_numerators(pred: list[Span]) -> None:
    ev = evaluate(get("figure1-s1"), pred)
    res = ev.run("semeval2021").result
    assert sum(r.contribution_p for r in ev.pairs) == pytest.approx(res.p_num)
    assert sum(r.contribution_r for r in ev.pairs) == pytest.approx(res.r_num)
    assert ev.mafalda.recall <= 1.0 + 1e-12


EX5 = get("mafalda-example5")


@settings(deadline=None, max_examples=100)
@given(predictions(["ad hominem", "appeal to fear", "appeal to anger", "appeal to tradition"],
                   len(scenarios.EXAMPLE5_TEXT)))
def test_mafalda_is_the_best_alternative_for_precision_and_recall(pred: list[Span]) -> None:
    # §5.2.2: Precision(S, 𝒯) = max_T Precision(S, T), Recall(S, 𝒯) = max_T Recall(S, T).
    ev = evaluate(EX5, pred)
    assert ev.mafalda.precision == pytest.approx(max(a.precision for a in ev.alternatives))
    assert ev.mafalda.recall == pytest.approx(max(a.recall for a in ev.alternatives))


ROW_VALUES = st.one_of(st.none(), st.integers(-3, 80), st.floats(allow_nan=True),
                       st.text(max_size=3))


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(st.lists(st.fixed_dictionaries({"start": ROW_VALUES, "end": ROW_VALUES,
                                        "label": st.one_of(st.none(), st.just("A"))}),
                max_size=6))
def test_every_row_is_either_a_span_or_a_reported_problem(rows: list[dict]) -> None:
    rows = [{"id": i, **r} for i, r in enumerate(rows, 1)]
    spans, problems = scenarios.spans_from_rows(rows, text_length=60)
    assert len(spans) + len(problems) == len(rows)
    for _, s in spans:
        assert 0 <= s.start < s.end <= 60
    reported = {int(re.match(r"P(\d+):", p).group(1)) for p in problems}
    assert reported.isdisjoint({rid for rid, _ in spans})


@pytest.mark.parametrize(("row", "message"), [
    ({"start": 9, "end": 4, "label": "A"}, "P1: Span end must be greater than start"),
    ({"start": 2, "end": 2, "label": "A"}, "P1: Span end must be greater than start"),
    ({"start": 2.5, "end": 4, "label": "A"}, "P1: start must be a whole number"),
    ({"start": float("nan"), "end": 4, "label": "A"}, "P1: start is empty"),
    ({"start": 0, "end": 4, "label": None}, "P1: choose a label"),
    ({"start": 0, "end": 99, "label": "A"}, "P1: end=99 is past the end of the text"),
])
def test_invalid_rows_are_reported_with_their_reason(row: dict, message: str) -> None:
    spans, problems = scenarios.spans_from_rows([{"id": 1, **row}], text_length=60)
    assert spans == [] and problems[0].startswith(message)


# ---- metric cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("module", [martino, mafalda])
def test_metric_cards_are_the_module_docstrings_as_markdown(module: object) -> None:
    card = module.CARD  # type: ignore[attr-defined]
    md = scenarios.card_markdown(card)
    underlined = re.findall(r"^(\S.*)\n-{3,}$", card, flags=re.M)
    assert [h for h in md.splitlines() if h.startswith("### ")] == [
        "### " + re.sub(r"``([^`]+)``", r"`\1`", h) for h in underlined]
    assert not re.search(r"(?<!`)``(?!`)", md)  # reST literals became Markdown code
    assert ":func:" not in md and ":class:" not in md
    assert not re.search(r"^-{3,}$", md, flags=re.M)
    assert md.count("```text") == card.count("::\n")
    # Every sentence of the docstring survives (no second copy, nothing dropped).
    for sentence in ("What it measures", "Citation", "Helwe" if module is mafalda else "Barrón"):
        assert sentence in md
