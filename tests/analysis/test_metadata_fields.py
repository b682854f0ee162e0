"""Which metadata fields become slices: categories with few values, numbers in quantile buckets;
lists, objects, free text and identifiers are skipped and named (the report on the released
MAFALDA gold had 200 one-document buckets of ``sentences_with_labels``, bars of negative width,
and weighed 1.3 MB)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.analysis.report import svg_grouped_bars
from core.analysis.slices import (
    META_RULE,
    MISSING,
    check_dimension,
    dimensions,
    meta_plan,
    record_metadata,
    slice_scores,
)
from core.cli import main
from core.model import AnnotationSet, Span
from core.model.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
MAFALDA = ROOT / "tests" / "data" / "mafalda"
GOLD = MAFALDA / "datasets" / "gold_standard_dataset.jsonl"
GPT = MAFALDA / "results" / "gpt-3.5_level_2_results.jsonl"
DOCS = [str(i) for i in range(20)]


def _plan(meta: dict[str, dict[str, str]]) -> dict[str, tuple[str, str]]:
    return {f.name: (f.kind, f.why) for f in meta_plan(meta, DOCS)}


def test_the_released_gold_offers_no_metadata_slice_and_says_why() -> None:
    meta = record_metadata(GOLD)
    plan = {f.name: (f.kind, f.why) for f in meta_plan(meta, [str(i) for i in range(200)])}
    assert plan == {"comments": ("skipped", "its values are JSON lists, not categories"),
                    "sentences_with_labels": ("skipped",
                                              "its values are JSON objects, not categories")}
    assert not [d for d in dimensions(meta) if d.startswith("meta:")]


def test_categories_numbers_and_the_fields_that_are_skipped() -> None:
    meta = {d: {"source": ("blog", "news", "forum")[i % 3],
                "score": f"{i / 7:.4f}",
                "year": str(2019 + i % 2),
                "note": f"written by hand, number {i}",
                "tags": json.dumps(["a", str(i % 2)]),
                "serial": f"s{i}" if i < 12 else ""}
            for i, d in enumerate(DOCS)}
    plan = _plan(meta)
    assert plan["source"] == ("categories", "")
    assert plan["year"] == ("categories", "")
    assert plan["score"] == ("numeric", "")
    assert plan["note"] == ("skipped", "free text or identifiers: 20 distinct values over 20 "
                            "documents (at most 12 are sliced)")
    assert plan["tags"] == ("skipped", "its values are JSON lists, not categories")
    # 12 identifiers and 8 documents without one: 13 values
    assert plan["serial"][0] == "skipped"
    few = {d: {"serial": f"s{i}"} for i, d in enumerate(DOCS[:5])}
    assert _plan({**few, **{d: {} for d in DOCS[5:]}})["serial"] == ("categories", "")
    alone = {d: {"serial": f"s{i}"} for i, d in enumerate(DOCS[:5])}
    assert [(f.kind, f.why) for f in meta_plan(alone, DOCS[:5])] == [
        ("skipped", "an identifier: each of the 5 documents has its own value")]


def _corpus() -> tuple[AnnotationSet, AnnotationSet]:
    gold = AnnotationSet("g", {d: (Span(0, 4, "X"),) for d in DOCS})
    pred = AnnotationSet("p", {d: (Span(0, 4, "X"),) if int(d) % 2 else () for d in DOCS},
                         role="system")
    return gold, pred


def test_a_numeric_field_is_cut_into_quantile_buckets() -> None:
    gold, pred = _corpus()
    meta = {d: {"score": f"{int(d) / 20:.2f}"} for d in DOCS[:16]}  # 4 documents without
    buckets = slice_scores(gold, pred, dimension="meta:score", metadata=meta, n_resamples=0)
    assert [(b.bucket, b.documents) for b in buckets] == [
        ("< 0.188", ("0", "1", "2", "3")), ("[0.188, 0.375)", ("4", "5", "6", "7")),
        ("[0.375, 0.562)", ("8", "9", "10", "11")), ("≥ 0.562", ("12", "13", "14", "15")),
        (MISSING, ("16", "17", "18", "19"))]
    whole = {d: {"words": str(10 * int(d))} for d in DOCS}
    named = [b.bucket for b in slice_scores(gold, pred, dimension="meta:words", metadata=whole,
                                            n_resamples=0)]
    assert named == ["< 48", "48-94", "95-142", "≥ 143"]


def test_few_numbers_are_categories_in_numeric_order() -> None:
    gold, pred = _corpus()
    meta = {d: {"grade": ("9", "10", "11")[int(d) % 3]} for d in DOCS}
    buckets = slice_scores(gold, pred, dimension="meta:grade", metadata=meta, n_resamples=0)
    assert [b.bucket for b in buckets] == ["9", "10", "11"]


def test_asking_for_a_skipped_field_names_the_reason() -> None:
    gold, pred = _corpus()
    meta = {d: {"note": f"free text {d}"} for d in DOCS}
    with pytest.raises(InputError) as exc:
        slice_scores(gold, pred, dimension="meta:note", metadata=meta, n_resamples=0)
    assert str(exc.value) == ("meta:note cannot be sliced: free text or identifiers: 20 distinct "
                              f"values over 20 documents (at most 12 are sliced); {META_RULE}")
    with pytest.raises(InputError, match=r"metadata fields not sliced: note\)$"):
        check_dimension("meta:other", meta, DOCS)


def test_slices_command_refuses_a_skipped_field_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["slices", str(GOLD), str(GPT), "--dimension", "meta:sentences_with_labels",
                 "--samples", "0"]) == 1
    err = capsys.readouterr().err
    # the file the field comes from (here the reference's own records) starts the message
    assert err == (f"error: {GOLD}: meta:sentences_with_labels cannot be sliced: its values "
                   f"are JSON objects, not categories; {META_RULE}\n")


def test_report_on_the_released_gold_is_small_and_draws_no_negative_bar(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(GOLD), str(GPT), "-o", str(out), "--samples", "100"]) == 0
    err = capsys.readouterr().err
    assert ("warning: [skipped] metadata field 'sentences_with_labels' is not sliced: its "
            "values are JSON objects, not categories") in err
    html = out.read_text(encoding="utf-8")
    assert out.stat().st_size < 400_000  # 1.3 MB with 200 one-document buckets
    assert "<h3>meta:" not in html
    assert "<li><b>sentences_with_labels</b>: its values are JSON objects" in html
    widths = [float(w) for w in re.findall(r'width="(-?[0-9.]+)"', html)]
    assert widths and min(widths) > 0


def test_grouped_bars_keep_a_positive_width_however_many_groups() -> None:
    groups = [f"b{i}" for i in range(200)]
    series = [(f"s{k}", [0.5] * 200, [None] * 200) for k in range(3)]
    svg = svg_grouped_bars(groups, series, title="t", y_label="F1")
    widths = [float(w) for w in re.findall(r'<rect class="bar"[^>]* width="(-?[0-9.]+)"', svg)]
    assert len(widths) == 600 and min(widths) > 0
