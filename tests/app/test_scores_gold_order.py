"""A MAFALDA gold whose labels are not sorted by start, on the Scores page: ``metrics-py`` and
``repo-head`` read it in file order as the official evaluator does and as ``python -m core
score`` does (docs/mafalda.md, "Gold whose labels are not sorted by start";
:mod:`core.metrics.mafalda_order`), with the command line's warning per document. Before, the
dashboard passed no ``gold_order`` and showed the sorted reading's numbers under every variant.

Text "0" lists ``[10, 20)`` before ``[0, 9)``: walked in file order, the uncovered range
``(0, 9)`` before ``[10, 20)`` overwrites the gold span ``[0, 9)``, so the prediction on it
matches nothing (CLI: metrics-py P 0.75, repo-head R 0.4167, paper 1.0)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from tests.app.conftest import app_on_workspace, frame_of

TEXTS = ["alpha beta gamma delta epsilon zeta eta theta.", "iota kappa lambda mu nu xi omicron."]
GOLD = [[[10, 20, "ad hominem"], [0, 9, "appeal to fear"]], [[0, 10, "false analogy"]]]
PRED = [[[0, 9, "appeal to fear"], [10, 20, "ad hominem"]], [[0, 10, "false analogy"]]]


def _jsonl(labels: list[list[list[Any]]]) -> bytes:
    return "".join(json.dumps({"text": t, "labels": ls}) + "\n"
                   for t, ls in zip(TEXTS, labels, strict=True)).encode()


def _cli(tmp_path: Path, variant: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    (tmp_path / "gold.jsonl").write_bytes(_jsonl(GOLD))
    (tmp_path / "pred.jsonl").write_bytes(_jsonl(PRED))
    capsys.readouterr()
    assert main(["score", str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"),
                 "--metric", "mafalda", "--variant", variant, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _workspace():  # -> ui.state.Workspace
    from ui import state

    files = [("gold.jsonl", _jsonl(GOLD), "gold", "gold"),
             ("pred.jsonl", _jsonl(PRED), "system", "pred")]
    reports = [state.parse_bytes(f, data, None, role, name) for f, data, role, name in files]
    assert all(r.ok for r in reports), [r.error for r in reports]
    return state.upload_workspace(reports, [data for _, data, _, _ in files])


@pytest.mark.parametrize("variant", ["metrics-py", "repo-head", "paper"])
def test_scores_page_reads_unsorted_gold_in_file_order_as_the_cli(
        tmp_path: Path, variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    from ui import state

    cli = _cli(tmp_path, variant, capsys)
    warned = [w for w in cli["warnings"] if "gold labels are not sorted" in w]
    assert len(warned) == 1
    at = app_on_workspace(_workspace(), "pages/scores.py")
    at.session_state[state.variant_key("mafalda")] = variant
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = frame_of(at, "system", "MAFALDA F1").set_index("system")
    for key, column in (("precision", "MAFALDA P"), ("recall", "MAFALDA R"),
                        ("f1", "MAFALDA F1")):
        assert shown.loc["pred", column] == pytest.approx(cli[key], abs=5e-5), (variant, key)
    page = [str(w.value) for w in at.warning]
    assert any(warned[0] in text for text in page), page
