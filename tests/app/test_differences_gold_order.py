"""Metric differences on a MAFALDA gold whose labels are not sorted by start: the path's MAFALDA
steps and the per-text comparison read the gold in file order under ``metrics-py`` and
``repo-head``, as the Scores page and ``python -m core score`` do (docs/mafalda.md, "Gold whose
labels are not sorted by start"). Before, the path scored the sorted reading (metrics-py P 1.0
where Scores and the command line say 0.75), and on a large corpus, where the path reuses the
Scores page's results (``ui.differences.mafalda_ahead``), the file order's: one page, two
numbers, by corpus size and visiting order.

The corpus is ``tests/app/test_scores_gold_order.py``'s: text "0" lists ``[10, 20)`` before
``[0, 9)``."""

from __future__ import annotations

import pytest

from core.metrics.differences import metric_path
from tests.app.test_scores_gold_order import _workspace


@pytest.mark.parametrize("variant", ["metrics-py", "repo-head", "paper"])
def test_the_path_ends_on_the_scores_pages_mafalda_numbers(variant: str) -> None:
    from ui import differences, results

    ws = _workspace()
    scored = results.score_pair(ws, "gold", "pred", "mafalda", variant, 2)
    want = (scored.overall["P"], scored.overall["R"], scored.overall["F1"])
    differences.path.clear()
    steps = differences.path(ws.key, ws, "gold", "pred", 2, variant)
    last = steps[-1].score
    assert last is not None, steps[-1].error
    assert (last.precision, last.recall, last.f1) == pytest.approx(want), variant
    # the worker's two parts (a large corpus) give the same steps as the page's one call
    options = results.read_order(ws, "gold", "pred", "mafalda", variant)[1]
    part = metric_path(ws.sets["gold"], ws.sets["pred"], level=2, mafalda_variant=variant,
                       taxonomy=results.taxonomy_for(ws, "gold", "pred"), texts=ws.corpus.texts,
                       part="mafalda", **options)  # type: ignore[arg-type]
    assert part[-1].score == last


def test_the_unsorted_text_is_read_in_file_order_by_the_per_text_comparison() -> None:
    from ui import differences, results

    ws = _workspace()
    one = results.document_result(ws.key, ws, "gold", "pred", "0", "mafalda", "metrics-py", 2)
    differences.documents.clear()
    rows = {d.document: d
            for d in differences.documents(ws.key, ws, "gold", "pred", 2, "metrics-py")}
    assert rows["0"].mafalda[0] == pytest.approx(one.overall["P"]) != 1.0
