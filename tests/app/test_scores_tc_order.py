"""SemEval-2020 Task 11 TC files on the Scores and Documents pages: the official variants
(``semeval2020-tc``, ``semeval2020-tc-fixed``) read the files' row order as ``python -m core
score`` does (:mod:`core.metrics.tc_order`). Before, the dashboard scored the sets' sorted
order: identical spans listed apart in the files were lined up, and the page showed 1.0 where
the command line and the official scorer give 0.5.

Article 1 lists three rows on ``[3, 4)`` and ``[3, 7)`` in another order in each file (the
example of the module docstring of :mod:`core.metrics.tc_order`): after its sort by start the
official scorer lines up only adjacent identical spans, so one of article 1's three labels
matches; article 2's one row matches (CLI: 2/4 = 0.5; by article 1.0)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from tests.app.conftest import app_on_workspace, frame_of

GOLD = [("1", "Name_Calling,Labeling", 3, 4), ("1", "Appeal_to_Authority", 3, 7),
        ("1", "Doubt", 3, 4), ("2", "Doubt", 0, 4)]
PRED = [("1", "Doubt", 3, 4), ("1", "Appeal_to_Authority", 3, 7),
        ("1", "Name_Calling,Labeling", 3, 4), ("2", "Doubt", 0, 4)]


def _tsv(rows: list[tuple[str, str, int, int]]) -> bytes:
    return "".join(f"{a}\t{lab}\t{s}\t{e}\n" for a, lab, s, e in rows).encode()


def _cli(tmp_path: Path, variant: str, capsys: pytest.CaptureFixture[str],
         gold: bytes = _tsv(GOLD), pred: bytes = _tsv(PRED)) -> dict[str, Any]:
    (tmp_path / "gold.tsv").write_bytes(gold)
    (tmp_path / "pred.tsv").write_bytes(pred)
    capsys.readouterr()
    assert main(["score", str(tmp_path / "gold.tsv"), str(tmp_path / "pred.tsv"),
                 "--metric", "martino", "--variant", variant, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _workspace():  # -> ui.state.Workspace
    from ui import state

    files = [("gold.tsv", _tsv(GOLD), "gold", "gold"), ("pred.tsv", _tsv(PRED), "system", "pred")]
    reports = [state.parse_bytes(f, data, None, role, name) for f, data, role, name in files]
    assert all(r.ok for r in reports), [r.error for r in reports]
    return state.upload_workspace(reports, [data for _, data, _, _ in files])


@pytest.mark.parametrize("variant", ["semeval2020-tc", "semeval2020-tc-fixed",
                                     "semeval2020-tc-by-article"])
def test_scores_page_reads_tc_rows_in_file_order_as_the_cli(
        tmp_path: Path, variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    from ui import state

    cli = _cli(tmp_path, variant, capsys)
    assert cli["f1"] == (1.0 if variant.endswith("by-article") else 0.5)
    at = app_on_workspace(_workspace(), "pages/scores.py")
    at.session_state[state.variant_key("martino")] = variant
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = frame_of(at, "system", "DSM F1").set_index("system")
    for key, column in (("precision", "DSM P"), ("recall", "DSM R"),
                        ("f1", "DSM F1")):
        assert shown.loc["pred", column] == pytest.approx(cli[key], abs=5e-5), (variant, key)


@pytest.mark.parametrize("variant", ["semeval2020-tc", "semeval2020-tc-fixed"])
def test_one_tc_article_alone_is_the_cli_on_that_article(
        tmp_path: Path, variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The Documents page scores one article alone (:func:`ui.results.document_result`): the
    files' rows of that article, in their order, as the command line reads files holding that
    article only (the other article's rows are not compared with it)."""
    from ui import results

    ws = _workspace()
    for doc in ("1", "2"):
        cli = _cli(tmp_path, variant, capsys, _tsv([r for r in GOLD if r[0] == doc]),
                   _tsv([r for r in PRED if r[0] == doc]))
        alone = results.document_result(ws.key, ws, "gold", "pred", doc, "martino", variant,
                                        None)
        assert alone.error is None, alone.error
        assert alone.overall["F1"] == pytest.approx(cli["f1"]), (doc, variant)
    assert alone.overall["F1"] == 1.0  # article 2 alone: its one row matches
