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


def test_semeval2021_offsets_past_a_present_text_follow_the_one_policy(tmp_path: Path,
                                                                       cli) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text('[{"id": "1", "text": "hello world", "labels": [{"start": 0, "end": 5, '
                    '"technique": "Doubt"}]}]', encoding="utf-8")
    pred = tmp_path / "pred.json"
    pred.write_text('[{"id": "1", "text": "hello world", "labels": [{"start": 0, "end": 50, '
                    '"technique": "Doubt"}]}]', encoding="utf-8")
    refused = cli("score", str(gold), str(pred), "--metric", "martino")
    assert refused.rc == 1 and "expected an offset within the text (length 11)" in refused.err
    official = cli("score", str(gold), str(pred), "--metric", "martino", "--beyond-text",
                   "official", "--json")
    out = json.loads(official.out)
    assert out["precision"] == 5 / 50  # the official scorer's number: the span as it is
    assert any("scored as it is" in w for w in out["warnings"])
    clipped = json.loads(cli("score", str(gold), str(pred), "--metric", "martino",
                             "--clip-spans", "--json").out)
    assert clipped["precision"] == 5 / 11


def test_flc_gold_past_its_article_text_follows_the_one_policy(tmp_path: Path, cli) -> None:
    folder = tmp_path / "gold"
    folder.mkdir()
    (folder / "article1.txt").write_text("hello world", encoding="utf-8")
    (folder / "article1.task-FLC.labels").write_text("1\tDoubt\t0\t40\n", encoding="utf-8")
    pred = tmp_path / "pred.tsv"
    pred.write_text("1\tDoubt\t0\t5\n", encoding="utf-8")
    base = ["score", str(folder), str(pred), "--metric", "martino", "--variant", "nlp4if2019"]
    refused = cli(*base)
    assert refused.rc == 1 and "within the text (length 11)" in refused.err
    official = cli(*base, "--beyond-text", "official", "--json")
    assert official.rc == 0, official.err
    assert json.loads(official.out)["recall"] == 5 / 40


CASES = json.loads((Path(__file__).resolve().parents[1] / "data" / "official_behaviour.json")
                   .read_text(encoding="utf-8"))["cases"]


def _jsonl(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def test_official_behaviour_cases_are_reproduced(tmp_path: Path, cli) -> None:
    for case in CASES:
        if case["scorer"] == "mafalda":
            gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
            gold.write_text(_jsonl(case["gold"]), encoding="utf-8")
            pred.write_text(_jsonl(case["pred"]), encoding="utf-8")
            for key, want in case["expected"].items():
                variant = key.split("@")[0]
                run = cli("score", str(gold), str(pred), "--metric", "mafalda", "--variant",
                          variant, "--level", str(want["level"]), "--gold-format", "mafalda",
                          "--pred-format", "mafalda", "--json", *case.get("options", []))
                got = json.loads(run.out)
                for measure in ("precision", "recall", "f1"):
                    if measure in want:
                        assert abs(got[measure] - want[measure]) < 1e-9, (case["name"], key)
                warning = case.get("warning", "not sorted by start")
                assert any(warning in w for w in got["warnings"]), case["name"]
        elif case["scorer"] == "semeval2020-tc":
            gold, pred = tmp_path / "gold.tsv", tmp_path / "pred.tsv"
            gold.write_text(case["gold_tsv"], encoding="utf-8")
            pred.write_text(case["pred_tsv"], encoding="utf-8")
            for variant, want in case["expected"].items():
                run = cli("score", str(gold), str(pred), "--metric", "martino", "--variant",
                          variant, "--json")
                got = json.loads(run.out)
                assert got["f1"] == want["f1"], (case["name"], variant)
                assert bool(got["warnings"]) == case.get("warns", True), case["name"]
        else:
            gold, pred = tmp_path / "gold.tsv", tmp_path / "pred.tsv"
            gold.write_text(case["gold_tsv"], encoding="utf-8")
            pred.write_text(case["pred_tsv"], encoding="utf-8")
            for rule, want in case["expected"].items():
                run = cli("score", str(gold), str(pred), "--metric", "hateval-a",
                          "--hateval-header", rule, "--json")
                got = json.loads(run.out)
                for key, value in want.items():
                    assert abs(got[key] - value) < 1e-9, (case["name"], rule, key)


def test_sorted_mafalda_gold_gets_no_order_warning(tmp_path: Path, cli) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(_jsonl([{"text": "abcd", "labels": [[0, 1, "straw man"],
                                                         [2, 4, "ad hominem"]]}]))
    run = cli("score", str(gold), str(gold), "--metric", "mafalda", "--variant", "repo-head",
              "--gold-format", "mafalda", "--pred-format", "mafalda", "--json")
    assert not any("not sorted" in w for w in json.loads(run.out)["warnings"])


def test_mafalda_zero_length_spans_are_refused_by_default(tmp_path: Path, cli,
                                                          clean_failure) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(_jsonl([{"text": "abcdefghij", "labels": [[2, 2, "ad hominem"]]}]))
    run = cli("score", str(gold), str(gold), "--metric", "mafalda", "--gold-format", "mafalda",
              "--pred-format", "mafalda")
    clean_failure(run)
    assert "expected an integer greater than start (2)" in run.err
    assert "--beyond-text official" in run.err


def test_mafalda_explain_runs_on_every_official_case(tmp_path: Path, cli) -> None:
    """``explain`` reads what ``score`` reads (unsorted gold, zero-length spans under
    ``--beyond-text official``) and explains the sorted gold, in every variant, without a
    traceback."""
    for case in CASES:
        if case["scorer"] != "mafalda":
            continue
        gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
        gold.write_text(_jsonl(case["gold"]), encoding="utf-8")
        pred.write_text(_jsonl(case["pred"]), encoding="utf-8")
        for variant in ("paper", "metrics-py", "repo-head"):
            run = cli("explain", str(gold), str(pred), "--metric", "mafalda", "--variant",
                      variant, "--doc", "0", "--gold-format", "mafalda", "--pred-format",
                      "mafalda", "--json", *case.get("options", []))
            assert run.rc == 0, (case["name"], variant, run.err)
            assert json.loads(run.out)["document"] == "0"
