"""MAFALDA keeps its per-text scores as columns and builds the rows when asked: the means, sums,
rows, bootstrap table and JSON are the ones the rows give, float for float (issue 29)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.mafalda import _score_reference, score
from core.model import NOTHING
from core.model.taxonomy import mafalda
from tests.mafalda.test_mafalda_vectorised import NAMES, _set, spans


@settings(max_examples=150, deadline=None)
@given(spans([*NAMES, NOTHING]), spans([*NAMES, NOTHING]), st.booleans(),
       st.sampled_from([0, 1, 2]), st.sampled_from(["paper", "metrics-py", "repo-head"]))
def test_means_and_tables_are_the_rows_sums_exactly(gold_docs: dict, pred_docs: dict,
                                                    alternatives: bool, level: int,
                                                    variant: str) -> None:
    gold = _set("gold", gold_docs, alternatives=alternatives, lazy=True)
    pred = _set("pred", pred_docs, alternatives=False, lazy=False)
    for result in (score(gold, pred, level=level, variant=variant),
                   _score_reference(gold, pred, level=level, variant=variant)):
        rows = result.rows
        n = len(rows)
        assert n == len(gold.doc_ids) and result.document_ids == [d.document for d in rows]
        # the sums the rows gave before the columns: a generator over the rows, in order
        assert result.precision == sum(d.precision for d in rows) / n
        assert result.recall == sum(d.recall for d in rows) / n
        assert result.f1 == sum(d.f1 for d in rows) / n
        assert result.precision_numerator == sum(d.precision for d in rows)
        assert result.recall_numerator == sum(d.recall for d in rows)
        assert result.label_only == {k: sum(d.extra[f"label_{k}"] for d in rows) / n
                                     for k in ("precision", "recall", "f1")}
        for d in rows:
            assert (d.precision_numerator, d.precision_denominator, d.recall_numerator,
                    d.recall_denominator) == (d.precision, 1, d.recall, 1)
        boot = result.bootstrap_table()
        assert boot.documents == tuple(d.document for d in rows)
        assert np.array_equal(boot.table[:, 0], np.array([d.f1 for d in rows], dtype=float))
        per_doc = result.to_dict(per_document=True)["per_document"]
        assert per_doc == [{"document": d.document, "precision": d.precision,
                            "recall": d.recall, "f1": d.f1, **d.extra} for d in rows]


def test_the_vectorised_and_reference_rows_agree_on_a_text_needing_the_search() -> None:
    # One prediction over two gold spans that each offer two predicted labels: the per-text
    # search decides (the columns take its values for that text).
    a, b = NAMES[0], NAMES[1]
    gold = _set("gold", {"t1": [(0, 10, a), (0, 10, b), (8, 10, a), (8, 10, b)]},
                alternatives=True, lazy=False)
    pred = _set("pred", {"t1": [(0, 12, a), (5, 12, b)]}, alternatives=False, lazy=False)
    got = score(gold, pred, level=2, variant="paper", taxonomy=mafalda())
    want = _score_reference(gold, pred, level=2, variant="paper", taxonomy=mafalda())
    assert got.rows == want.rows and got.f1 == want.f1
