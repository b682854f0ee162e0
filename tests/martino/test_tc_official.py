"""SemEval-2020 Task 11 TC: the variants reproduce the official scorer's pairing of labels.

``tests/data/tc_differential.json`` holds what the two versions of the official
``task-TC_scorer.py`` computed on each case (its ``about`` says where they came from); the
scorers themselves are not needed here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.formats import ReadOptions, load_files
from core.metrics.martino import MartinoResult, score, technique_list
from core.metrics.tc_order import RowOrder

DATA = Path(__file__).resolve().parents[1] / "data" / "tc_differential.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
TECHNIQUES = technique_list("semeval2020-tc")
OFFICIAL = ("semeval2020-tc", "semeval2020-tc-fixed")


def _score(gold_tsv: str, pred_tsv: str, variant: str) -> MartinoResult:
    gold = load_files({"gold.labels": gold_tsv.encode()}, fmt="ptc",
                      options=ReadOptions(role="gold"))
    pred = load_files({"pred.tsv": pred_tsv.encode()}, fmt="ptc",
                      options=ReadOptions(role="system"))
    assert isinstance(gold.records, RowOrder) and isinstance(pred.records, RowOrder)
    return score(gold.set, pred.set, variant=variant, labels=TECHNIQUES,
                 gold_order=gold.records, pred_order=pred.records)


def _case(name: str) -> dict[str, Any]:
    return next(c for c in CASES if c["name"] == name)


def test_articles_listed_in_another_order_are_compared_row_by_row() -> None:
    case = _case("issue_articles_in_another_order")
    for variant in OFFICIAL:
        result = _score(case["gold"], case["pred"], variant)
        assert result.f1 == case[variant]["f1"] == 1 / 3
        assert any("compared with a row of another article" in w and "as the official scorer "
                   "does" in w for w in result.warnings)
    by_article = _score(case["gold"], case["pred"], "semeval2020-tc-by-article")
    assert by_article.f1 == 1.0
    assert any("--variant semeval2020-tc reproduces the official comparison" in w
               for w in by_article.warnings)


def test_identical_spans_apart_after_the_sort_by_start_are_not_lined_up() -> None:
    case = _case("issue_identical_spans_not_adjacent")
    for variant in OFFICIAL:
        result = _score(case["gold"], case["pred"], variant)
        assert result.f1 == case[variant]["f1"] == 1 / 3
        (warning,) = result.warnings
        assert "lines up 1 of the 3 equal labels" in warning and "not adjacent" in warning
        assert "this variant reproduces it" in warning
    assert _score(case["gold"], case["pred"], "semeval2020-tc-by-article").f1 == 1.0


def test_released_scorer_skips_the_group_after_a_span_without_a_match() -> None:
    case = _case("released_scorer_skips_the_next_group")
    released = _score(case["gold"], case["pred"], "semeval2020-tc")
    assert released.f1 == case["semeval2020-tc"]["f1"] == 0.0
    assert any("--variant semeval2020-tc-fixed" in w for w in released.warnings)
    fixed = _score(case["gold"], case["pred"], "semeval2020-tc-fixed")
    assert fixed.f1 == case["semeval2020-tc-fixed"]["f1"] == 2 / 3
    assert not fixed.warnings
    assert _score(case["gold"], case["pred"], "semeval2020-tc-by-article").f1 == 2 / 3


def test_without_file_order_the_sets_order_stands_for_the_files() -> None:
    case = _case("issue_identical_spans_not_adjacent")
    gold = load_files({"gold.labels": case["gold"].encode()}, fmt="ptc").set
    pred = load_files({"pred.tsv": case["pred"].encode()}, fmt="ptc").set
    # The readers sort each document's spans, which puts identical spans side by side.
    assert score(gold, pred, variant="semeval2020-tc").f1 == 1.0


@pytest.mark.parametrize("variant", OFFICIAL)
def test_every_recorded_case_matches_the_official_scorer(variant: str) -> None:
    """Micro F1 exactly, every per-class F1 exactly, and a warning where it refuses."""
    assert len(CASES) > 250
    for case in CASES:
        want = case[variant]
        result = _score(case["gold"], case["pred"], variant)
        if want["status"] == "refused":
            assert any("the official scorer refuses such a file" in w
                       for w in result.warnings), case["name"]
            continue
        assert result.f1 == result.precision == result.recall == want["f1"], case["name"]
        per_class = {k: v["f1"] for k, v in result.per_label_official_detail().items()}
        assert per_class == {t: want["per_class_f1"].get(t, 0.0) for t in TECHNIQUES}, \
            case["name"]


def test_recorded_cases_cover_every_kind() -> None:
    kinds = {c["kind"] for c in CASES}
    assert kinds == {"hand", "refused", "released_differs", "articles_reordered",
                     "not_adjacent", "plain"}
