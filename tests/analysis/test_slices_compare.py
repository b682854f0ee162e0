"""``slices --compare [SYSTEM]``: per bucket, each system's F1 against one system's, with the
paired tests of ``table --compare`` over the bucket's documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parents[2]
MAF = ROOT / "tests" / "data" / "mafalda"
GOLD = MAF / "datasets" / "gold_standard_dataset.jsonl"
GPT = MAF / "results" / "gpt-3.5_level_2_results.jsonl"
RANDOM = MAF / "results" / "base-random_level_2_results.jsonl"
PROP = ROOT / "sample_data" / "propaganda"
KEYS = ("F1 difference", "F1 difference low", "F1 difference high", "F1 p randomization",
        "F1 p bootstrap")


def _json(capsys: pytest.CaptureFixture[str], command: str, *argv: str) -> dict:
    assert main([command, *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("metric", "extra"), [("martino", []), ("mafalda", ["--level", "1"])])
def test_one_bucket_of_every_document_is_table_compare(
        capsys: pytest.CaptureFixture[str], metric: str, extra: list[str]) -> None:
    """``doc_length`` with one bucket is the whole corpus: the test is ``table --compare``'s."""
    common = ["--metric", metric, *extra, "--samples", "150", "--seed", "5", "--compare",
              str(GPT)]
    got = _json(capsys, "slices", str(GOLD), str(GPT), str(RANDOM), "--dimension",
                "doc_length", "--buckets", "1", *common)
    want = _json(capsys, "table", str(GOLD), str(GPT), str(RANDOM), *common)
    compared = want["comparison"]["systems"][0]
    (ref_row, row) = got["buckets"]
    assert got["compare"] == "gpt-3.5_level_2_results"
    assert all(ref_row.get(k) is None for k in KEYS)
    assert [row[k] for k in KEYS] == pytest.approx(
        [compared[k.replace("F1 p ", "F1 p ")] for k in KEYS])


def test_each_label_bucket_difference_is_the_rows_difference(
        capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, "slices", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                str(PROP / "system_b.json"), "--dimension", "label", "--samples", "100",
                "--compare")
    rows = got["buckets"]
    f1 = {(r["system"], r["bucket"]): r["F1"] for r in rows}
    against = got["compare"]
    assert against in {"system_a", "system_b"}
    other = ({"system_a", "system_b"} - {against}).pop()
    checked = 0
    for r in rows:
        if r["system"] != other:
            assert all(r.get(k) is None for k in KEYS)
            continue
        if (against, r["bucket"]) not in f1:
            assert r["F1 difference"] is None  # a bucket the other system has no span in
            continue
        assert r["F1 difference"] == pytest.approx(r["F1"] - f1[(against, r["bucket"])])
        assert r["F1 p randomization"] is None or 1 / 101 <= r["F1 p randomization"] <= 1
        checked += 1
    assert checked >= 3
    assert main(["slices", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                 str(PROP / "system_b.json"), "--dimension", "label", "--samples", "100",
                 "--compare", "system_b"]) == 0
    text = capsys.readouterr().out
    assert "F1 minus system_b's" in text and "approximate randomization" in text


def test_without_compare_the_rows_are_as_before_and_one_system_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(PROP / "gold.json"), str(PROP / "system_a.json"), str(PROP / "system_b.json"),
            "--dimension", "position", "--samples", "50"]
    plain = _json(capsys, "slices", *argv)
    assert "compare" not in plain and all("F1 difference" not in r for r in plain["buckets"])
    assert main(["slices", *argv[:2], "--dimension", "position", "--compare"]) == 1
    assert "--compare needs two systems or more" in capsys.readouterr().err
    assert main(["slices", *argv, "--compare", "nobody"]) == 1
    assert "no system named 'nobody'" in capsys.readouterr().err


def test_mafalda_span_length_buckets_share_the_compared_systems_edges(
        capsys: pytest.CaptureFixture[str]) -> None:
    """MAFALDA's reference terms depend on the alternatives a system matched, so each system's
    own length quantiles differ (no bucket would be shared, nothing compared): ``--compare``
    cuts every system's spans at the compared system's edges."""
    common = [str(GOLD), str(GPT), str(RANDOM), "--metric", "mafalda", "--dimension",
              "span_length", "--samples", "50"]
    alone = _json(capsys, "slices", *common)
    own = {r["system"]: [] for r in alone["buckets"]}
    for r in alone["buckets"]:
        own[r["system"]].append(r["bucket"])
    assert own["gpt-3.5_level_2_results"] != own["base-random_level_2_results"]  # the defect
    got = _json(capsys, "slices", *common, "--compare", str(GPT))
    reference = [r for r in got["buckets"] if r["system"] == "gpt-3.5_level_2_results"]
    other = [r for r in got["buckets"] if r["system"] == "base-random_level_2_results"]
    assert [r["bucket"] for r in reference] == own["gpt-3.5_level_2_results"]
    assert [r["bucket"] for r in other] == own["gpt-3.5_level_2_results"]
    assert all(r["F1 difference"] is not None for r in other)
    f1 = {r["bucket"]: r["F1"] for r in reference}
    assert [r["F1 difference"] for r in other] == pytest.approx(
        [r["F1"] - f1[r["bucket"]] for r in other])
