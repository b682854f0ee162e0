"""Writes official conformance cases in the official scorers' own file formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "conformance" / "official_cases.json"
SPAN_SCORERS = ("semeval2021_task6_subtask2", "nlp4if2019_flc", "semeval2020_task11_si",
                "semeval2020_task11_tc")
VARIANT_OF = {"semeval2021_task6_subtask2": "semeval2021", "nlp4if2019_flc": "nlp4if2019",
              "semeval2020_task11_si": "semeval2020-si", "semeval2020_task11_tc": "semeval2020-tc"}


def load_cases() -> list[dict[str, Any]]:
    data = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return [c for c in data["cases"] if c["scorer"] in SPAN_SCORERS]


def technique_list(case: dict[str, Any]) -> list[str] | None:
    ref = case.get("techniques")
    if not ref:
        return None
    data = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return list(data["meta"]["technique_lists"][ref.split(".")[-1]])


def _s21_entries(side: dict[str, Any], with_text: bool) -> list[Any]:
    out = []
    for doc in side["documents"]:
        if "raw" in doc:
            out.append(doc["raw"])
            continue
        entry: dict[str, Any] = {"id": doc["id"], "labels": [
            {"technique": s["label"], "start": s["start"], "end": s["end"]} for s in doc["spans"]
        ]}
        if with_text and "text" in doc:
            entry["text"] = doc["text"]
        out.append(entry)
    return out


def _tsv_rows(doc_id: str, spans: list[dict[str, Any]], three_columns: bool) -> str:
    rows = []
    for s in spans:
        rid = s.get("article_id_override", doc_id)
        if three_columns:
            rows.append(f"{rid}\t{s['start']}\t{s['end']}\n")
        else:
            rows.append(f"{rid}\t{s['label']}\t{s['start']}\t{s['end']}\n")
    return "".join(rows)


def write_case(case: dict[str, Any], where: Path) -> tuple[Path, Path]:
    """Write a case's gold and prediction as the official scorer reads them; return the paths."""
    scorer = case["scorer"]
    if scorer == "semeval2021_task6_subtask2":
        gold = where / "gold.json"
        pred = where / "pred.json"
        gold.write_text(json.dumps(_s21_entries(case["gold"], True)), encoding="utf-8")
        pred.write_text(json.dumps(_s21_entries(case["pred"], False)), encoding="utf-8")
        return gold, pred
    three = scorer == "semeval2020_task11_si"
    pred = where / "pred.tsv"
    if "raw_lines" in case["pred"]:
        pred.write_text(case["pred"]["raw_lines"], encoding="utf-8")
    else:
        pred.write_text("".join(_tsv_rows(d["id"], d["spans"], three)
                                for d in case["pred"]["documents"]), encoding="utf-8")
    if scorer == "semeval2020_task11_tc":
        gold = where / "gold.labels"
        gold.write_text("".join(_tsv_rows(d["id"], d["spans"], False)
                                for d in case["gold"]["documents"]), encoding="utf-8")
        return gold, pred
    gold = where / "gold"
    gold.mkdir()
    for d in case["gold"]["documents"]:
        (gold / f"article{d['id']}.labels").write_text(_tsv_rows(d["id"], d["spans"], three),
                                                       encoding="utf-8")
    return gold, pred
