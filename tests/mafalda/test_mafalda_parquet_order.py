"""The gold labels' file order survives ``convert --to parquet`` and back: MAFALDA's official
evaluator walks unsorted gold in file order (``repo-head``, ``metrics-py``;
:mod:`core.metrics.mafalda_order`), so the order is data its numbers use (review11, older item:
recall 0.3333 from the JSONL, 0.3357 from its Parquet conversion). A format that cannot keep
the order says so when written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main

TEXTS = ["kappa beta epsilon beta theta theta theta lambda.",
         "epsilon alpha eta iota lambda beta gamma lambda mu epsilon beta mu zeta.",
         "delta iota iota delta eta iota."]
GOLD = [[[13, 17, "false analogy"], [13, 17, "false analogy"], [0, 23, "false analogy"],
         [0, 23, "appeal to fear"]],
        [[64, 71, "appeal to fear"], [64, 71, "false analogy"], [51, 65, "appeal to fear"]],
        [[27, 30, "false analogy"], [19, 31, "appeal to anger"]]]
PRED = [[[13, 17, "false analogy"], [0, 23, "false analogy"], [17, 21, "appeal to pity"]],
        [[64, 71, "appeal to anger"], [2, 12, "false analogy"]],
        [[0, 3, "false analogy"]]]


def _jsonl(path: Path, labels: list[list[list[Any]]]) -> Path:
    path.write_text("".join(json.dumps({"text": t, "labels": ls}) + "\n"
                            for t, ls in zip(TEXTS, labels, strict=True)), encoding="utf-8")
    return path


def _score(gold: Path, pred: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["score", str(gold), str(pred), "--metric", "mafalda", "--variant",
                 "repo-head", "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _order_warnings(result: dict[str, Any]) -> list[str]:
    """The warnings of unsorted gold, without the gold set's name (the file's stem)."""
    return [w.split(": ", 1)[1] for w in result["warnings"] if "gold labels are not sorted" in w]


@pytest.mark.parametrize("shards", [None, 2], ids=["one file", "two shards"])
def test_repo_head_scores_the_parquet_conversion_as_the_jsonl(
        tmp_path: Path, shards: int | None, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _jsonl(tmp_path / "gold.jsonl", GOLD)
    pred = _jsonl(tmp_path / "pred.jsonl", PRED)
    target = tmp_path / ("gold.parquet" if shards is None else "gold")
    more = [] if shards is None else ["--shards", str(shards)]
    assert main(["convert", str(gold), str(target), "--to", "parquet", *more]) == 0
    capsys.readouterr()
    jsonl = _score(gold, pred, capsys)
    parquet = _score(target, pred, capsys)
    assert len(_order_warnings(jsonl)) == 3  # every document is unsorted
    assert _order_warnings(parquet) == _order_warnings(jsonl)
    for key in ("precision", "recall", "f1"):
        assert parquet[key] == pytest.approx(jsonl[key], abs=0), key
    # and back: the Parquet gold written again as MAFALDA JSONL keeps its documents' order
    back = tmp_path / "back.jsonl"
    assert main(["convert", str(target), str(back), "--to", "mafalda"]) == 0
    again = _score(back, pred, capsys)
    assert _order_warnings(again) == _order_warnings(jsonl)
    assert again["recall"] == pytest.approx(jsonl["recall"], abs=0)


def test_a_format_that_cannot_keep_the_order_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _jsonl(tmp_path / "gold.jsonl", GOLD)
    capsys.readouterr()
    assert main(["convert", str(gold), str(tmp_path / "gold.json"), "--to", "semeval2021"]) == 0
    out = capsys.readouterr()
    assert ("note: 3 documents list their gold labels unsorted (first: '0'); semeval2021 "
            "keeps no file order, which MAFALDA's repo-head and metrics-py variants read: "
            "convert to mafalda or parquet to keep it") in out.out + out.err


def test_the_rows_order_is_each_documents_intervals_by_first_sighting() -> None:
    """:func:`core.formats.parquet._file_order` (whole columns) against a loop over the rows."""
    import numpy as np

    from core.formats.parquet import _file_order

    rng = np.random.default_rng(5)
    n = 400
    doc, start = rng.integers(0, 7, n), rng.integers(0, 30, n)
    end = start + rng.integers(1, 4, n)
    names = [f"d{k}" for k in range(7)]
    expected: dict[str, dict[tuple[int, int], None]] = {}
    for d, a, b in zip(doc.tolist(), start.tolist(), end.tolist(), strict=True):
        expected.setdefault(names[d], {})[(a, b)] = None
    found = _file_order(names, doc, start, end)
    assert list(found) == list(expected)
    assert found == {k: tuple(v) for k, v in expected.items()}
    assert _file_order(names, doc[:0], start[:0], end[:0]) == {}
