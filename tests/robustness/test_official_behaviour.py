"""Issue 18 §5: where the official programs read unusual files differently, we say so and offer
their reading as an option."""

from __future__ import annotations

import json
from pathlib import Path


def test_hateval_auto_header_warns_when_the_official_rule_differs(tmp_path: Path, cli) -> None:
    gold = tmp_path / "gold.tsv"
    gold.write_text("x101\ttext a\t1\t0\t0\n102\ttext b\t0\t0\t0\n103\ttext c\t1\t0\t0\n",
                    encoding="utf-8")
    pred = tmp_path / "pred.tsv"
    pred.write_text("x101\t1\n102\t0\n103\t0\n", encoding="utf-8")
    auto = cli("score", str(gold), str(pred), "--metric", "hateval-a", "--json")
    assert auto.rc == 0
    out = json.loads(auto.out)
    assert out["accuracy"] == 2 / 3
    assert sum("the official program skips it as a header" in w for w in out["warnings"]) == 2
    official = cli("score", str(gold), str(pred), "--metric", "hateval-a", "--json",
                   "--hateval-header", "official")
    assert json.loads(official.out)["accuracy"] == 0.5


def test_no_header_warning_when_both_rules_agree(tmp_path: Path, cli) -> None:
    gold = tmp_path / "gold.tsv"
    gold.write_text("id\ttext\tHS\tTR\tAG\n101\ta\t1\t0\t0\n102\tb\t0\t0\t0\n",
                    encoding="utf-8")
    pred = tmp_path / "pred.tsv"
    pred.write_text("id\tHS\n101\t1\n102\t0\n", encoding="utf-8")
    run = cli("score", str(gold), str(pred), "--metric", "hateval-a", "--json")
    assert not any("official program" in w for w in json.loads(run.out)["warnings"])


def test_gamma_duplicate_units_warn_and_unit_set_counts_them_once(tmp_path: Path, cli) -> None:
    spans = tmp_path / "spans.csv"
    spans.write_text("doc_id,start,end,label,annotator\nd1,0,5,Smears,a\nd1,0,5,Smears,a\n"
                     "d1,0,5,Smears,b\nd1,6,9,Smears,a\nd1,6,9,Smears,b\n", encoding="utf-8")
    kept = json.loads(cli("agree", str(spans), "--measure", "gamma", "--samples", "10",
                          "--json").out)
    assert any("exact duplicate" in w and "[0, 5) 'Smears'" in w for w in kept["warnings"])
    assert kept["gamma"]["overall"]["value"] < 1.0
    as_set = json.loads(cli("agree", str(spans), "--measure", "gamma", "--samples", "10",
                            "--unit-set", "--json").out)
    assert as_set["gamma"]["overall"]["value"] == 1.0  # the two annotators then agree exactly
    assert as_set["gamma"]["overall"]["units"] == 4
