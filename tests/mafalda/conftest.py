"""Paths for the MAFALDA tests: the conformance cases and the MAFALDA data under ``tests/data/``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data"
CASES_FILE = DATA / "conformance" / "official_cases.json"
MAFALDA_DATA = DATA / "mafalda"
GOLD_FILE = MAFALDA_DATA / "datasets" / "gold_standard_dataset.jsonl"


def mafalda_cases() -> list[dict[str, Any]]:
    return [c for c in json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
            if c["scorer"] == "mafalda"]


def write_case(case: dict[str, Any], tmp: Path) -> tuple[Path, Path]:
    """The case's gold as MAFALDA JSONL and its prediction in the same layout."""
    gold = tmp / "gold.jsonl"
    if "documents_ref" in case["gold"]:
        gold.write_bytes(GOLD_FILE.read_bytes())
        texts = [json.loads(line)["text"] for line in GOLD_FILE.read_text(encoding="utf-8")
                 .splitlines() if line.strip()]
        ids = [str(i) for i in range(len(texts))]
    else:
        docs = case["gold"]["documents"]
        gold.write_text("".join(json.dumps({"id": d["id"], "text": d["text"],
                                            "labels": d["labels"]}) + "\n" for d in docs),
                        encoding="utf-8")
        ids = [d["id"] for d in docs]
    preds = {d["id"]: d["spans"] for d in case["pred"]["documents"]}
    pred = tmp / "pred.jsonl"
    pred.write_text("".join(json.dumps({"id": i, "labels": [[s["start"], s["end"], s["label"]]
                                                            for s in preds.get(i, [])]}) + "\n"
                            for i in ids), encoding="utf-8")
    return gold, pred
