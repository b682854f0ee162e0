"""Is A really better than B: approximate randomization and the paired bootstrap over documents
(``core.analysis.significance``) against an exact enumeration by hand and scipy's permutation
test, and ``python -m core table --compare`` on the released MAFALDA outputs."""

from __future__ import annotations

import csv
import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from core.analysis.significance import compare, randomization_p
from core.analysis.table import score_table, to_csv, to_latex, to_markdown, with_comparisons
from core.cli import main
from core.metrics import registry
from core.metrics.stats import FEW_DOCUMENTS, martino_f1
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parents[2]
MAF = ROOT / "tests" / "data" / "mafalda"
GOLD = MAF / "datasets" / "gold_standard_dataset.jsonl"
GPT = MAF / "results" / "gpt-3.5_level_2_results.jsonl"
RANDOM = MAF / "results" / "base-random_level_2_results.jsonl"
SILENT = MAF / "results" / "base-silent_level_2_results.jsonl"
PROP = ROOT / "sample_data" / "propaganda"


def _martino_tables(gold: AnnotationSet, *systems: AnnotationSet):  # -> list[DocumentTable]
    entry = registry.get("martino")
    return [entry.document_table(entry.statistics(entry.gold_view(gold), s, per_document=True,
                                                  **entry.keywords()))
            for s in systems]


def _small_corpus(n: int = 8) -> tuple[AnnotationSet, AnnotationSet, AnnotationSet]:
    """``n`` documents (eight: exact p = 1/8); A and B each better on some (pooled sums)."""
    gold = {f"d{i}": (Span(0, 10, "X"), Span(20, 30, "Y")) for i in range(n)}
    a = {f"d{i}": (Span(0, 10, "X"), Span(20, 26 + i % 3, "Y")) for i in range(n)}
    b = {f"d{i}": ((Span(0, 10, "X"), Span(20, 30, "Y")) if i % 2
                   else (Span(0, 4, "Y"), Span(40, 50, "X"))) for i in range(n)}
    return (AnnotationSet("gold", gold), AnnotationSet("a", a, "system"),
            AnnotationSet("b", b, "system"))


def _exact_p(a: np.ndarray, b: np.ndarray) -> float:
    """The randomization test by hand: every one of the 2^n swaps of the documents' rows, the
    share whose |F1(A') − F1(B')| reaches the observed one."""
    observed = abs(martino_f1(a.sum(0)[None])[0] - martino_f1(b.sum(0)[None])[0])
    hits = 0
    swaps = list(itertools.product((0, 1), repeat=len(a)))
    for swap in swaps:
        s = np.array(swap, dtype=bool)[:, None]
        a2, b2 = np.where(s, b, a), np.where(s, a, b)
        d = abs(martino_f1(a2.sum(0)[None])[0] - martino_f1(b2.sum(0)[None])[0])
        hits += d >= observed - 1e-12
    return hits / len(swaps)


def test_randomization_p_equals_the_exact_enumeration_and_scipys_permutation_test() -> None:
    gold, a, b = _small_corpus()
    ta, tb = _martino_tables(gold, a, b)
    assert ta.documents == tb.documents
    exact = _exact_p(ta.table, tb.table)
    # scipy's paired ("samples") permutation test enumerates the same 2^8 swaps exactly.
    stacked = np.vstack([ta.table, tb.table])
    n = len(ta.table)

    def gap(x: np.ndarray, y: np.ndarray) -> float:
        return abs(martino_f1(stacked[x].sum(0)[None])[0]
                   - martino_f1(stacked[y].sum(0)[None])[0])

    ref = scipy_stats.permutation_test((np.arange(n), np.arange(n, 2 * n)), gap,
                                       permutation_type="samples", alternative="greater",
                                       vectorized=False, n_resamples=10_000)
    assert ref.pvalue == pytest.approx(exact)
    assert exact == 1 / 8  # a case where the test has something to say
    rounds = 20_000
    got = randomization_p(ta.table, tb.table, {"F1": martino_f1}, n_rounds=rounds, seed=3)["F1"]
    assert abs(got - exact) < 4 * np.sqrt(exact * (1 - exact) / rounds) + 1 / rounds


@pytest.mark.parametrize("n", [8, FEW_DOCUMENTS])
def test_identical_systems_give_p_one_and_no_difference(n: int) -> None:
    """Below FEW_DOCUMENTS documents the bootstrap gives no p-value (anti-conservative)."""
    gold, a, _ = _small_corpus(n)
    ta, same = _martino_tables(gold, a, a)
    for c in compare("a", ta, "a2", same, n_resamples=200, seed=0):
        assert c.difference == 0 and c.p_randomization == 1
        assert c.p_bootstrap == (1 if n >= FEW_DOCUMENTS else None)
        assert c.low == c.high == 0


def test_a_clearly_better_system_has_the_smallest_p_and_an_interval_above_zero() -> None:
    rng = np.random.default_rng(4)
    gold = {str(i): (Span(0, 10, "A"),) for i in range(150)}
    good = {d: ((Span(0, 10, "A"),) if rng.random() < 0.9 else (Span(20, 30, "A"),))
            for d in gold}
    bad = {d: ((Span(0, 10, "A"),) if rng.random() < 0.3 else (Span(20, 30, "A"),))
           for d in gold}
    sets = (AnnotationSet("gold", gold), AnnotationSet("good", good, "system"),
            AnnotationSet("bad", bad, "system"))
    tg, tb = _martino_tables(*sets)
    f1 = {c.measure: c for c in compare("good", tg, "bad", tb, n_resamples=500, seed=1)}["F1"]
    assert f1.p_randomization == pytest.approx(1 / 501)
    # Floored as the randomization's: 500 resamples cannot show less than 1/501.
    assert f1.p_bootstrap == pytest.approx(1 / 501) and 0 < f1.low <= f1.difference <= f1.high


def test_bootstrap_p_is_below_alpha_exactly_when_the_interval_excludes_zero() -> None:
    gold, a, b = _small_corpus(FEW_DOCUMENTS + 4)
    ta, tb = _martino_tables(gold, a, b)
    for seed in range(5):
        for c in compare("a", ta, "b", tb, n_resamples=400, seed=seed):
            assert c.p_bootstrap is not None and c.low is not None and c.high is not None
            excludes = c.low > 0 or c.high < 0
            assert (c.p_bootstrap < 0.05) == excludes or c.p_bootstrap == pytest.approx(0.05,
                                                                                         abs=0.01)


def test_same_seed_same_p_and_document_order_does_not_matter() -> None:
    gold, a, b = _small_corpus()
    ta, tb = _martino_tables(gold, a, b)
    first = compare("a", ta, "b", tb, n_resamples=300, seed=9)
    assert first == compare("a", ta, "b", tb, n_resamples=300, seed=9)
    reordered = type(tb)(tb.documents[::-1], tb.table[::-1], tb.references[::-1],
                         tb.predictions[::-1], tb.pooled)
    assert compare("a", ta, "b", reordered, n_resamples=300, seed=9) == first


def test_one_document_gives_a_difference_and_no_test() -> None:
    gold = AnnotationSet("gold", {"d": (Span(0, 4, "A"),)})
    a = AnnotationSet("a", {"d": (Span(0, 4, "A"),)}, "system")
    b = AnnotationSet("b", {"d": (Span(0, 2, "A"),)}, "system")
    ta, tb = _martino_tables(gold, a, b)
    f1 = compare("a", ta, "b", tb)[2]
    assert f1.difference > 0 and f1.p_randomization is f1.p_bootstrap is f1.low is None


def _table_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["table", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_compare_on_the_released_mafalda_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    """GPT-3.5 against the released baselines (Helwe et al. 2024): far better at level 2 than
    the random baseline; each difference is the rows' difference, each p-value in (0, 1]."""
    argv = [str(GOLD), str(GPT), str(RANDOM), str(SILENT), "--metric", "mafalda", "--level",
            "2", "--samples", "400", "--seed", "2"]
    got = _table_json(capsys, *argv, "--json", "--compare")
    comparison = got["comparison"]
    assert comparison["against"] == "gpt-3.5_level_2_results"  # the best F1
    assert comparison["test"] == "randomization" and comparison["alpha"] == 0.05
    values = {r["system"]: r for r in got["systems"]}
    rows = comparison["systems"]
    assert [r["system"] for r in rows] == ["base-random_level_2_results",
                                           "base-silent_level_2_results"]
    for row in rows:
        for m in ("P", "R", "F1"):
            want = values[row["system"]][m] - values["gpt-3.5_level_2_results"][m]
            assert row[f"{m} difference"] == pytest.approx(want)
            assert 1 / 401 <= row[f"{m} p randomization"] <= 1
            assert row[f"{m} difference low"] <= row[f"{m} difference"] <= row[
                f"{m} difference high"]
        assert row["F1 p randomization"] == pytest.approx(1 / 401)  # never as far when shuffled
        assert row["F1 significant"] is True
    # Without --compare the object is as before.
    assert "comparison" not in _table_json(capsys, *argv, "--json")
    # The same seed, the same tests.
    assert _table_json(capsys, *argv, "--json", "--compare") == got


def test_cli_compare_against_a_named_system_and_marks_in_every_form(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(PROP / "gold.json"), str(PROP / "system_a.json"), str(PROP / "system_b.json"),
            "--metric", "martino", "--samples", "300", "--compare", "system_b"]
    got = _table_json(capsys, *argv, "--json")
    assert got["comparison"]["against"] == "system_b"
    assert [r["system"] for r in got["comparison"]["systems"]] == ["system_a"]
    compared = got["comparison"]["systems"][0]
    f1_p = compared["F1 p randomization"]
    marked = sum(compared[f"{m} p randomization"] < 0.05 for m in ("P", "R", "F1"))
    assert marked == sum(compared[f"{m} significant"] for m in ("P", "R", "F1"))
    assert main(["table", *argv, "--to", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "system\\_b" in md and "approximate randomization" in md
    assert md.splitlines()[2].startswith("| system\\_a |")
    assert md.splitlines()[2].count("†") == marked
    assert "| System | ΔP | ΔR | ΔF1 |" in md
    assert main(["table", *argv, "--to", "latex"]) == 0
    tex = capsys.readouterr().out
    assert tex.count(r"$^\dagger$") == marked + 1  # the cells, and the caption's key
    assert main(["table", *argv, "--to", "csv"]) == 0
    row = next(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["against"] == "system_b" and float(row["F1 p randomization"]) == f1_p
    assert main(["table", *argv[:-1], "nobody"]) == 1
    assert "--compare: no system named 'nobody'" in capsys.readouterr().err


def test_marks_follow_the_p_values_and_the_caption_says_the_test() -> None:
    gold = AnnotationSet("gold", {f"d{i}": (Span(0, 10, "A"),) for i in range(60)})
    good = AnnotationSet("good", {f"d{i}": (Span(0, 10, "A"),) for i in range(60)}, "system")
    bad = AnnotationSet("bad", {f"d{i}": (Span(0, 10, "A") if i % 4 else Span(20, 30, "A"),)
                                for i in range(60)}, "system")
    t = with_comparisons(score_table(gold, [good, bad], metric="martino", n_resamples=300),
                         against=None, test="randomization", alpha=0.05)
    assert t.against == "good"
    tex = to_latex(t)
    bad_row = next(line for line in tex.splitlines() if line.startswith("bad & "))
    assert bad_row.count(r"$^\dagger$") == 3
    # What a TeX engine would refuse (none is installed in CI): the dagger is the only math,
    # every row has four cells, braces balance.
    body = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
    plain = body.replace(r"$^\dagger$", "").replace(r"$P$", "").replace(r"$R$", "")
    plain = plain.replace(r"$F_1$", "").replace(r"\$", "")
    assert "$" not in plain and plain.count("{") == plain.count("}")
    assert all(len(line.split(" & ")) == 4 for line in body.splitlines() if " & " in line)
    assert r"$^\dagger$" not in next(line for line in tex.splitlines()
                                     if line.startswith("good & "))
    assert "approximate randomization" in tex and r"\texttt{good}" in tex
    md = to_markdown(t)
    assert md.splitlines()[3].count("†") == 3
    rows = list(csv.DictReader(io.StringIO(to_csv(t))))
    assert rows[0]["F1 difference"] == "" and float(rows[1]["F1 difference"]) < 0
    t_boot = with_comparisons(t, against="good", test="bootstrap", alpha=0.05)
    assert "paired bootstrap" in to_latex(t_boot)


def test_the_differences_docs_report_md_shows_are_what_the_command_prints(
        capsys: pytest.CaptureFixture[str]) -> None:
    page = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    shown = next(block for block in page.split("```") if "| System | ΔP | ΔR | ΔF1 |" in block)
    assert main(["table", str(GOLD), str(GPT), str(RANDOM), "--metric", "mafalda", "--level",
                 "1", "--to", "markdown", "--compare"]) == 0
    assert shown.strip() in capsys.readouterr().out


def test_cli_compare_takes_a_pred_path_and_refuses_one_system(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A reader may name the system by the PRED path it gave; one system has nothing to be
    compared with, which is said instead of an empty table of differences."""
    gold, a, b = (str(PROP / f) for f in ("gold.json", "system_a.json", "system_b.json"))
    by_path = _table_json(capsys, gold, a, b, "--metric", "martino", "--samples", "100",
                          "--json", "--compare", b)
    by_name = _table_json(capsys, gold, a, b, "--metric", "martino", "--samples", "100",
                          "--json", "--compare", "system_b")
    assert by_path["comparison"] == by_name["comparison"]
    assert main(["table", gold, a, "--metric", "martino", "--compare"]) == 1
    assert ("--compare needs two systems or more; got one: system_a"
            in capsys.readouterr().err)


def test_a_measure_asked_alone_has_the_numbers_it_has_among_all_three() -> None:
    gold, a, b = _small_corpus()
    ta, tb = _martino_tables(gold, a, b)
    every = compare("a", ta, "b", tb, n_resamples=300, seed=2)
    assert compare("a", ta, "b", tb, n_resamples=300, seed=2, measures=("F1",)) == every[2:]
    with pytest.raises(ValueError, match="unknown measures"):
        compare("a", ta, "b", tb, measures=("F2",))
