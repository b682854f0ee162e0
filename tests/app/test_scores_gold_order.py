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
    """MAFALDA JSONL of the first ``len(labels)`` texts."""
    return "".join(json.dumps({"text": t, "labels": ls}) + "\n"
                   for t, ls in zip(TEXTS, labels, strict=False)).encode()


def _cli(tmp_path: Path, variant: str, capsys: pytest.CaptureFixture[str], *,
         texts: int = len(TEXTS)) -> dict[str, Any]:
    """``python -m core score`` of the first ``texts`` texts."""
    (tmp_path / "gold.jsonl").write_bytes(_jsonl(GOLD[:texts]))
    (tmp_path / "pred.jsonl").write_bytes(_jsonl(PRED[:texts]))
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
    page = [str(w.value).replace("\\", "") for w in at.warning]  # the page escapes Markdown
    assert any(warned[0] in text for text in page), page


def test_a_variant_derived_from_another_reads_the_file_order_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``metrics-py`` and ``repo-head`` derived from ``paper`` (:func:`ui.results.derive_pair`,
    what a switch of variant on Scores and the pages' work computed ahead take) give the
    command line's numbers, and so does one document alone (the Documents page)."""
    import weakref

    from ui import results

    ws = _workspace()
    assert set(ws.orders) == {"gold"}  # the gold's file recorded its order; the predictions none
    results.pair_result.clear()
    monkeypatch.setattr(results, "_scored", weakref.WeakValueDictionary())
    paper = results.pair_result(ws.key, ws, "gold", "pred", "mafalda", "paper", 2)
    assert paper.overall["P"] == pytest.approx(_cli(tmp_path, "paper", capsys)["precision"])
    derived = results.derive_pair(ws.key, ws, "gold", "pred", "mafalda", "metrics-py", 2)
    assert derived is not None
    cli = _cli(tmp_path, "metrics-py", capsys)
    assert derived.overall["P"] == pytest.approx(cli["precision"]) != paper.overall["P"]
    # repo-head from paper (metrics-py is not computed here): the file order's uncovered
    # ranges (recall 0.4167 on the unsorted text, not the sorted reading's)
    head = results.derive_pair(ws.key, ws, "gold", "pred", "mafalda", "repo-head", 2)
    assert head is not None
    cli = _cli(tmp_path, "repo-head", capsys)
    for column, key in (("P", "precision"), ("R", "recall"), ("F1", "f1")):
        assert head.overall[column] == pytest.approx(cli[key]), column
    one = results.document_result(ws.key, ws, "gold", "pred", "0", "mafalda", "metrics-py", 2)
    alone = _cli(tmp_path, "metrics-py", capsys, texts=1)  # text "0", the unsorted one
    assert one.overall["P"] == pytest.approx(alone["precision"]) != 1.0


def test_a_sorted_gold_passes_no_order() -> None:
    """The default path stays free: a MAFALDA gold whose labels are sorted records its order,
    and the hook passes none of it on (nothing for the scorer to read apart)."""
    from ui import results, state

    sorted_gold = [sorted(labels) for labels in GOLD]
    files = [("gold.jsonl", _jsonl(sorted_gold), "gold", "gold"),
             ("pred.jsonl", _jsonl(PRED), "system", "pred")]
    reports = [state.parse_bytes(f, data, None, role, name) for f, data, role, name in files]
    ws = state.upload_workspace(reports, [data for _, data, _, _ in files])
    assert results.read_order(ws, "gold", "pred", "mafalda", "metrics-py") == ([], {})
    assert results.order_warnings(ws, "gold", ["pred"], {"mafalda": "repo-head"}) == []


def _workspace_as(gold_role: str, pred_role: str):  # -> ui.state.Workspace
    from ui import state

    files = [("gold.jsonl", _jsonl(GOLD), gold_role, "gold"),
             ("pred.jsonl", _jsonl(PRED), pred_role, "pred")]
    reports = [state.parse_bytes(f, data, None, role, name) for f, data, role, name in files]
    assert all(r.ok for r in reports), [r.error for r in reports]
    return state.upload_workspace(reports, [data for _, data, _, _ in files])


@pytest.mark.parametrize("role", ["system", "annotator"])
@pytest.mark.parametrize("variant", ["metrics-py", "repo-head"])
def test_a_mafalda_file_of_any_role_chosen_as_reference_reads_in_file_order(
        tmp_path: Path, variant: str, role: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The order is the file's: a MAFALDA file uploaded as a system or an annotator and chosen
    as the Scores page's reference is read as ``score FILE PRED`` reads its GOLD, in file order
    (the evaluator reads the order of the gold only: the same file compared against another
    reads as ``score`` reads its PRED)."""
    from ui import results

    cli = _cli(tmp_path, variant, capsys)
    ws = _workspace_as(role, "system")
    page = results.score_pair(ws, "gold", "pred", "mafalda", variant, None)
    assert page.error is None, page.error
    for key, column in (("precision", "P"), ("recall", "R"), ("f1", "F1")):
        assert page.overall[column] == pytest.approx(cli[key]), (variant, role, key)
    warned = [w for w in cli["warnings"] if "gold labels are not sorted" in w]
    assert results.order_warnings(ws, "gold", ["pred"], {"mafalda": variant}) == warned
    # the same file on the compared side: its order is not read (score's PRED)
    (tmp_path / "gold.jsonl").rename(tmp_path / "ref.jsonl")
    capsys.readouterr()
    assert main(["score", str(tmp_path / "pred.jsonl"), str(tmp_path / "ref.jsonl"),
                 "--metric", "mafalda", "--variant", variant, "--json"]) == 0
    swapped = json.loads(capsys.readouterr().out)
    back = results.score_pair(ws, "pred", "gold", "mafalda", variant, None)
    assert back.overall["F1"] == pytest.approx(swapped["f1"]), (variant, role)
