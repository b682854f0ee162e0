"""The report compares its systems: which F1 differences are real (the tests of ``table
--compare``) and the documents where the systems disagree most, drawn side by side."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.analysis.report import ReportInputs, build_report
from core.cli import main
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parents[2]
MAF = ROOT / "tests" / "data" / "mafalda"
GOLD = MAF / "datasets" / "gold_standard_dataset.jsonl"
GPT = MAF / "results" / "gpt-3.5_level_2_results.jsonl"
RANDOM = MAF / "results" / "base-random_level_2_results.jsonl"
PROP = ROOT / "sample_data" / "propaganda"


def _section(html: str, name: str) -> str:
    start = html.index(f"<section id='{name}'>")
    return html[start:html.index("</section>", start)]


def _cells(section: str) -> list[list[str]]:
    body = section[section.index("<tbody>"):section.index("</tbody>")]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in body.split("<tr>")[1:]]


def test_the_report_tests_each_system_against_the_best_as_table_compare_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    argv = [str(GOLD), str(GPT), str(RANDOM), "--samples", "200", "--seed", "4"]
    assert main(["report", *argv, "-o", str(out), "--level", "1"]) == 0
    capsys.readouterr()
    section = _section(out.read_text(encoding="utf-8"), "compare")
    assert "approximate randomization" in section and "200 rounds, seed 4" in section
    rows = _cells(section)
    assert [r[:3] for r in rows] == [
        ["Martino", "base-random_level_2_results", "gpt-3.5_level_2_results"],
        ["MAFALDA", "base-random_level_2_results", "gpt-3.5_level_2_results"]]
    for row, metric, level in zip(rows, ("martino", "mafalda"), ([], ["--level", "1"]),
                                  strict=True):
        assert main(["table", str(GOLD), str(GPT), str(RANDOM), "--metric", metric, *level,
                     "--samples", "200", "--seed", "4", "--compare", "--json"]) == 0
        want = json.loads(capsys.readouterr().out)["comparison"]["systems"][0]
        got = [float(x) for x in row[3:8]]
        assert got == pytest.approx([want["F1 difference"], want["F1 difference low"],
                                     want["F1 difference high"], want["F1 p randomization"],
                                     want["F1 p bootstrap"]], abs=5e-5)  # 4 decimals shown


def test_the_documents_the_systems_disagree_on_come_first_by_the_spread_of_their_f1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                 str(PROP / "system_b.json"), "-o", str(out), "--samples", "50"]) == 0
    capsys.readouterr()
    per_doc = {}
    for name in ("system_a", "system_b"):
        assert main(["score", str(PROP / "gold.json"), str(PROP / f"{name}.json"),
                     "--metric", "martino", "--per-document", "--json"]) == 0
        per_doc[name] = {d["document"]: d["f1"]
                         for d in json.loads(capsys.readouterr().out)["per_document"]}
    spread = {d: abs(per_doc["system_a"][d] - per_doc["system_b"][d])
              for d in per_doc["system_a"]}
    want = sorted((d for d in spread if spread[d] > 0), key=lambda d: -spread[d])
    section = _section(out.read_text(encoding="utf-8"), "disagree")
    shown = re.findall(r"<h3>Document <bdi>(.*?)</bdi> · Martino F1 from", section)
    assert shown and len(shown) == min(10, len(want))
    assert [spread[d] for d in shown] == sorted((spread[d] for d in shown), reverse=True)
    assert spread[shown[0]] == max(spread.values())
    assert section.count("<article class='worst'>") == len(shown)


def test_one_system_has_nothing_to_compare_and_names_are_escaped() -> None:
    texts: dict[str, str | None] = {"<b>d</b>": "one two three four", "d2": "five six seven"}
    gold = AnnotationSet("g", {"<b>d</b>": (Span(0, 3, "A"),), "d2": (Span(0, 4, "A"),)})
    a = AnnotationSet("<svg onload=alert(1)>", {"<b>d</b>": (Span(0, 3, "A"),),
                                                 "d2": (Span(5, 8, "A"),)}, role="system")
    b = AnnotationSet("b", {"<b>d</b>": (), "d2": (Span(0, 4, "A"),)}, role="system")
    one = build_report(ReportInputs(gold, [a], texts, n_resamples=20), command="x")
    assert "id='compare'" not in one and "id='disagree'" not in one
    two = build_report(ReportInputs(gold, [a, b], texts, n_resamples=20), command="x")
    assert "<svg onload" not in two and "<b>d</b>" not in two
    assert "&lt;svg onload=alert(1)&gt;" in _section(two, "compare")
    assert "&lt;b&gt;d&lt;/b&gt;" in _section(two, "disagree")


def test_the_header_counts_a_gold_with_alternatives_in_spans_as_the_categories_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """MAFALDA's gold: 268 labels (alternatives and ⊥ included) on 203 spans; the categories
    count 203 reference spans, so the header said 268 spans for the same 203 (the Martino score
    counts 254: every distinct label but ⊥)."""
    out = tmp_path / "r.html"
    assert main(["report", str(GOLD), str(GPT), "-o", str(out), "--samples", "20"]) == 0
    capsys.readouterr()
    html = out.read_text(encoding="utf-8")
    assert ("(200 documents, 203 spans; 268 labels counting alternatives and ⊥)"
            in html)
    reference = [int(x) for x in re.findall(
        r"<tr><td>gpt-3.5_level_2_results</td><td>[a-z+]+</td><td class='num'>(\d+)</td>",
        _section(html, "categories"))]
    assert sum(reference) == 203
    plain = tmp_path / "p.html"
    assert main(["report", str(PROP / "gold.json"), str(PROP / "system_a.json"), "-o",
                 str(plain), "--samples", "20"]) == 0
    assert re.search(r"\(10 documents, \d+ spans\);", plain.read_text(encoding="utf-8"))
