"""Text-level multi-label scores over derived label sets: hand-computed values and invariants."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.cli import main
from core.metrics.text_labels import score
from core.model import AnnotationSet, Span
from core.model.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def _sets(gold: dict[str, set[str]], pred: dict[str, set[str]]) -> tuple[AnnotationSet, ...]:
    def build(name: str, data: dict[str, set[str]]) -> AnnotationSet:
        return AnnotationSet(name, {d: tuple(Span(i, i + 1, lab) for i, lab in
                                             enumerate(sorted(labs))) for d, labs in data.items()})
    return build("gold", gold), build("pred", pred)


def test_hand_computed_scores() -> None:
    # doc 1: gold {A, B}, pred {A}; doc 2: gold {B}, pred {B, C}; doc 3: gold {}, pred {}.
    gold, pred = _sets({"1": {"A", "B"}, "2": {"B"}, "3": set()},
                       {"1": {"A"}, "2": {"B", "C"}, "3": set()})
    r = score(gold, pred)
    per = r.per_label()
    assert per["A"]["precision"] == 1.0 and per["A"]["recall"] == 1.0 and per["A"]["support"] == 1
    assert per["B"]["precision"] == 1.0 and per["B"]["recall"] == 0.5
    assert per["B"]["f1"] == pytest.approx(2 / 3)
    assert per["C"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 0,
                        "tp": 0, "fp": 1, "fn": 0, "tn": 2}
    # tp: A in 1, B in 2; fp: C in 2; fn: B in 1.
    assert r.micro() == pytest.approx({"precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3})
    assert r.macro()["f1"] == pytest.approx((1 + 2 / 3 + 0) / 3)
    assert r.emr == pytest.approx(1 / 3)
    assert r.hamming == pytest.approx(2 / 9)
    assert any("recall of C is ill-defined" in w for w in r.warnings())


def test_alternatives_gold_is_sent_to_the_mafalda_label_only_metric() -> None:
    gold = AnnotationSet("g", {"1": (Span(0, 2, "A"), Span(0, 2, "nothing"))}, alternatives=True)
    with pytest.raises(InputError, match="label-only scores of the mafalda metric"):
        score(gold, AnnotationSet("p", {"1": ()}))


def test_cli_keys_on_the_sample_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    prop = ROOT / "sample_data" / "propaganda"
    assert main(["score", str(prop / "gold.json"), str(prop / "system_b.json"),
                 "--metric", "text-labels", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"per_label", "micro", "macro", "emr", "hamming"} <= set(out)


label_sets = st.dictionaries(st.sampled_from(["1", "2", "3", "4", "5"]),
                             st.sets(st.sampled_from(["A", "B", "C", "D"])), min_size=1)


@settings(deadline=None, max_examples=200)
@given(label_sets)
def test_perfect_prediction_gives_one_everywhere(gold_sets: dict[str, set[str]]) -> None:
    gold, pred = _sets(gold_sets, gold_sets)
    r = score(gold, pred)
    assert r.emr == 1.0 and r.hamming == 0.0
    if r.labels:
        assert r.micro() == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
        assert r.macro() == {"precision": 1.0, "recall": 1.0, "f1": 1.0}


@settings(deadline=None, max_examples=200)
@given(st.integers(1, 4), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))
def test_macro_equals_micro_when_every_label_has_the_same_counts(
        n_labels: int, tp: int, fp: int, fn: int) -> None:
    gold_sets: dict[str, set[str]] = {}
    pred_sets: dict[str, set[str]] = {}
    labels = [f"L{i}" for i in range(n_labels)]
    k = 0
    for kind, n in (("tp", tp), ("fp", fp), ("fn", fn)):
        for _ in range(n):
            k += 1
            gold_sets[str(k)] = set(labels) if kind in ("tp", "fn") else set()
            pred_sets[str(k)] = set(labels) if kind in ("tp", "fp") else set()
    assume(gold_sets)
    r = score(*_sets(gold_sets, pred_sets), labels=labels)
    assert r.macro() == pytest.approx(r.micro())


@pytest.mark.slow
@settings(deadline=None, max_examples=100)
@given(label_sets, label_sets)
def test_values_equal_scikit_learn(gold_sets: dict[str, set[str]],
                                   pred_sets: dict[str, set[str]]) -> None:
    from sklearn import metrics as sklearn  # pinned in requirements-dev.txt: never skipped
    docs = sorted(gold_sets)
    pred_sets = {d: pred_sets.get(d, set()) for d in docs}
    r = score(*_sets(gold_sets, pred_sets))
    assume(len(r.labels) >= 2)  # one label column is a binary target to scikit-learn
    y = [[int(lab in gold_sets[d]) for lab in r.labels] for d in docs]
    yh = [[int(lab in pred_sets[d]) for lab in r.labels] for d in docs]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, rec, f1, _ = sklearn.precision_recall_fscore_support(y, yh, average="micro",
                                                                zero_division=0)
        assert (p, rec, f1) == pytest.approx(tuple(r.micro().values()))
        p, rec, f1, _ = sklearn.precision_recall_fscore_support(y, yh, average="macro",
                                                                zero_division=0)
        assert (p, rec, f1) == pytest.approx(tuple(r.macro().values()))
        assert sklearn.hamming_loss(y, yh) == pytest.approx(r.hamming)
        assert sklearn.accuracy_score(y, yh) == pytest.approx(r.emr)


@settings(deadline=None, max_examples=200)
@given(label_sets, label_sets, st.booleans())
def test_columnar_counts_equal_the_per_text_sets(gold_sets: dict[str, set[str]],
                                                 pred_sets: dict[str, set[str]],
                                                 reverse: bool) -> None:
    # The counts come from (text, label) keys of the columns; the definition is per text.
    # The prediction may list the texts in another order, and repeat a label in a text.
    docs = sorted(gold_sets)
    order = docs[::-1] if reverse else docs
    gold = AnnotationSet("gold", {d: tuple(Span(i, i + 1, lab) for i, lab in
                                           enumerate(sorted(gold_sets[d]) * 2)) for d in docs})
    pred = AnnotationSet("pred", {d: tuple(Span(i, i + 1, lab) for i, lab in
                                           enumerate(sorted(pred_sets.get(d, set()))))
                                  for d in order})
    r = score(gold, pred)
    want_g = {d: frozenset(gold_sets[d]) for d in docs}
    want_p = {d: frozenset(pred_sets.get(d, set())) for d in docs}
    assert r.gold_sets == want_g and r.pred_sets == want_p
    for lab in r.labels:
        tp = sum(lab in want_g[d] and lab in want_p[d] for d in docs)
        fp = sum(lab in want_p[d] and lab not in want_g[d] for d in docs)
        fn = sum(lab in want_g[d] and lab not in want_p[d] for d in docs)
        assert r.counts[lab] == {"tp": tp, "fp": fp, "fn": fn, "tn": len(docs) - tp - fp - fn}
        assert all(type(v) is int for v in r.counts[lab].values())  # JSON-ready
    assert r.emr == sum(want_g[d] == want_p[d] for d in docs) / len(docs)
    cells = len(docs) * len(r.labels)
    wrong = sum(len(want_g[d] ^ want_p[d]) for d in docs)
    assert r.hamming == (wrong / cells if cells else 0.0)
    assert [row["document"] for row in r.per_document()] == docs
