"""The closed forms and variable elimination equal brute-force enumeration of the alternatives,
as the official ``metrics.py`` enumerates them (docs/mafalda.md); and the paper's worked
examples (Example 5, Example 9)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli import main
from core.metrics.mafalda import _Text, score, score_text
from core.metrics.martino import score as martino_score
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parents[2]


def _ov(a: int, b: int, c: int, d: int) -> int:
    return max(0, min(b, d) - max(a, c))


def _subsets(codes: frozenset[int]) -> list[frozenset[int]]:
    items = sorted(codes)
    return [frozenset(c) for k in range(1, len(items) + 1)
            for c in itertools.combinations(items, k)]


def _alternatives(t: _Text, subsets: bool) -> list[list[tuple[int, int, int]]]:
    spans = [(a, b, codes) for a, b, codes in t.gold if codes]
    choices = [(_subsets(codes) if subsets else [frozenset({c}) for c in codes])
               for _, _, codes in spans]
    out = []
    for pick in itertools.product(*choices):
        alt = [(a, b, c) for (a, b, _), chosen in zip(spans, pick, strict=True)
               for c in sorted(chosen) if c != 0]
        out.append(alt)
    return out


def brute_force(t: _Text, variant: str) -> tuple[float, float, float, float]:
    """Span P, R and label-only P, R by enumerating every alternative (the official way)."""
    rec_alts = _alternatives(t, subsets=False)
    prec_alts = _alternatives(t, subsets=(variant == "metrics-py"))
    preds = t.preds
    if all(not alt for alt in rec_alts):
        v = 0.0 if any(c != 0 for *_, c in preds) else 1.0
        p = r = v
    else:
        den = sum(1 for *_, c in preds if c != 0)
        ps = []
        for alt in prec_alts:
            num = sum(max((_ov(s, e, a, b) / (e - s) for a, b, c in alt if c == pc), default=0.0)
                      for s, e, pc in preds if pc != 0)
            ps.append(num / den if den else (1.0 if not alt else 0.0))
        p = max(ps)
        rs = []
        for alt in rec_alts:
            num = sum(max((_ov(s, e, a, b) / (b - a) for s, e, pc in preds if pc == c),
                          default=0.0) for a, b, c in alt)
            rs.append(num / len(alt) if alt else (1.0 if not preds else 0.0))
        r = max(rs)

    def keep(c: int) -> bool:
        return c != 0 and c - 1 < t.n_classes
    y_pred = {c for *_, c in preds if keep(c)}

    def prf(y_true: set[int]) -> tuple[float, float]:
        tp = len(y_pred & y_true)
        if tp == 0:
            both = 1.0 if not y_pred and not y_true else 0.0
            return both, both
        return tp / len(y_pred), tp / len(y_true)
    lp = max(prf({c for *_, c in alt if keep(c)})[0] for alt in prec_alts)
    lr = max(prf({c for *_, c in alt if keep(c)})[1] for alt in rec_alts)
    return p, r, lp, lr


GOLD_CODES = [0, 1, 2, 3, 4, 5, 6]
CODES = [0, 1, 2, 3, 4, 5, 6, 24]


@st.composite
def texts(draw: st.DrawFn) -> _Text:
    gold = []
    for _ in range(draw(st.integers(0, 4))):
        a = draw(st.integers(0, 30))
        codes = frozenset(draw(st.sets(st.sampled_from(GOLD_CODES), min_size=1, max_size=3)))
        gold.append((a, a + draw(st.integers(1, 15)), codes))
    preds = []
    for _ in range(draw(st.integers(0, 5))):
        a = draw(st.integers(0, 30))
        preds.append((a, a + draw(st.integers(1, 15)), draw(st.sampled_from(CODES))))
    # distinct intervals, as the reader groups them
    seen: dict[tuple[int, int], frozenset[int]] = {}
    for a, b, codes in gold:
        seen[(a, b)] = seen.get((a, b), frozenset()) | codes
    # n_classes 5 leaves codes 6 and 24 outside the label-only classes, as level 1 does with 4
    n_classes = draw(st.sampled_from([23, 5]))
    return _Text(tuple((a, b, c) for (a, b), c in seen.items()), (), tuple(preds), n_classes)


@pytest.mark.slow
@settings(deadline=None, max_examples=2000)
@given(texts(), st.sampled_from(["paper", "metrics-py"]))
def test_every_variant_equals_brute_force_enumeration(t: _Text, variant: str) -> None:
    ts = score_text(t, variant)
    p, r, lp, lr = ts.precision, ts.recall, ts.label_precision, ts.label_recall
    assert (p, r, lp, lr) == pytest.approx(brute_force(t, variant), abs=1e-12)


def test_forty_spans_of_three_labels_are_scored_without_enumeration() -> None:
    # 3^40 alternatives; predictions overlap one or two gold spans each.
    gold = tuple((20 * i, 20 * i + 15, frozenset({1 + i % 3, 1 + (i + 1) % 3, 4 + i % 5}))
                 for i in range(40))
    preds = tuple((20 * i + 10, 20 * i + 25, 1 + (i * 7) % 3) for i in range(40))
    t = _Text(gold, (), preds, 23)
    for variant in ("paper", "metrics-py", "repo-head"):
        ts = score_text(t, variant)
        p, r = ts.precision, ts.recall
        assert 0 < p <= 1 and 0 < r <= 1


def test_mafalda_recall_is_one_on_example9_where_martino_gives_1_25() -> None:
    # App. D.1, Example 9 at level 1: T = [(0, 40, credibility)], S = [(0, 10), (0, 40)].
    gold = AnnotationSet("gold", {"9": (Span(0, 40, "ad hominem"),)}, alternatives=True)
    pred = AnnotationSet("pred", {"9": (Span(0, 10, "ad hominem"), Span(0, 40, "tu quoque"))},
                         role="system")
    assert score(gold, pred, level=1).recall == 1.0
    projected = AnnotationSet("pred", {"9": (Span(0, 10, "credibility"),
                                             Span(0, 40, "credibility"))})
    martino_gold = AnnotationSet("gold", {"9": (Span(0, 40, "credibility"),)})
    assert martino_score(martino_gold, projected).recall == pytest.approx(1.25)


EXAMPLE5_TEXT = "Sentence1. Sentence2. Sentence3. Sentence4. Sentence5."
S = {i: (11 * (i - 1), 11 * (i - 1) + 10) for i in range(1, 6)}


def _example5_gold() -> AnnotationSet:
    spans = [Span(S[1][0], S[2][1], "ad hominem"), Span(*S[1], "appeal to fear"),
             Span(*S[1], "appeal to anger"), Span(*S[4], "appeal to tradition"),
             Span(*S[5], "ad hominem"), Span(*S[5], "nothing")]
    return AnnotationSet("gold", {"5": tuple(sorted(spans))}, alternatives=True)


def test_example5_has_four_alternatives_of_four_spans() -> None:
    gold = _example5_gold()
    alts = gold.alt_spans("5")
    counts = [len([lab for lab in a.labels]) for a in alts]
    assert sorted(counts) == [1, 1, 2, 2]  # s1+s2, s4 fixed; s1 fear|anger; s5 ad hominem|⊥
    assert len(list(itertools.product(*(a.labels for a in alts)))) == 4


def test_example5_predictions_score_against_the_best_alternative() -> None:
    gold = _example5_gold()
    # Predicting T2 exactly (anger on s1, ad hominem on s5) is perfect, and so is predicting
    # T3 (s5 left out, as ⊥ allows).
    t2 = AnnotationSet("p", {"5": (Span(S[1][0], S[2][1], "ad hominem"),
                                   Span(*S[1], "appeal to anger"),
                                   Span(*S[4], "appeal to tradition"),
                                   Span(*S[5], "ad hominem"))})
    t3 = AnnotationSet("p", {"5": t2.get("5")[:3]})
    for pred in (t2, t3):
        r = score(gold, pred)
        assert (r.precision, r.recall, r.f1) == (1.0, 1.0, 1.0)


def test_cli_explain_names_the_alternative_recall_took(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "5", "text": EXAMPLE5_TEXT, "labels": [
        [s.start, s.end, s.label] for s in _example5_gold().get("5")]}) + "\n", encoding="utf-8")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "5", "labels": [[0, 10, "appeal to anger"]]}) + "\n",
                    encoding="utf-8")
    assert main(["explain", str(gold), str(pred), "--doc", "5", "--metric", "mafalda",
                 "--pred-format", "mafalda", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    by_interval = {(g["start"], g["end"]): g for g in out["gold"]}
    assert by_interval[S[1]]["recall_label"] == "appeal to anger"
    assert by_interval[S[5]]["recall_label"] is None  # ⊥ chosen: fewer spans to recall
    assert out["predictions"][0]["contribution_p"] == 1.0
