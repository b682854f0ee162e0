"""The Documents page scores one document alone; its numbers must be the corpus run's row."""

from __future__ import annotations

import math

import pytest

from core.metrics import mafalda
from ui import results, state

CASES = [(sample, metric, variant)
         for sample in ("propaganda", "mafalda", "figure1")
         for metric, variants in (("martino", ("semeval2021", "nlp4if2019")),
                                  ("mafalda", mafalda.VARIANTS))
         for variant in variants]


@pytest.mark.parametrize(("sample", "metric", "variant"), CASES)
def test_one_document_scored_alone_equals_its_row_of_the_corpus_run(
        sample: str, metric: str, variant: str) -> None:
    ws = state.load_sample(sample)
    gold, system = state.default_pair(ws)
    assert gold and system
    level = 2 if metric == "martino" else 1
    corpus = results.pair_result(ws.key, ws, gold, system, metric, variant, level)
    if corpus.error:
        pytest.skip(corpus.error)
    rows = corpus.per_doc.set_index("document")
    assert len(rows) >= (1 if sample == "figure1" else 2)
    for doc, row in rows.iterrows():
        alone = results.document_result(ws.key, ws, gold, system, str(doc), metric, variant, level)
        assert alone.error is None
        (one,) = alone.per_doc.to_dict("records")
        for col in ("P", "R", "F1"):
            want, got = row[col], one[col]
            assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(want), (
                doc, col)


def test_a_metric_that_refuses_the_document_says_why_in_a_note_column() -> None:
    # SemEval-2020 TC scores labels of the gold spans only; figure 1's prediction moves them.
    ws = state.load_sample("figure1")
    gold, system = state.default_pair(ws)
    assert gold and system
    doc = next(iter(ws.sets[gold].spans))
    table = results.document_scores(ws.key, ws, gold, system, doc,
                                    variants={"martino": "semeval2020-tc", "mafalda": "paper"},
                                    level=1)
    assert list(table.columns) == ["metric", "P", "R", "F1", "note"]
    martino_row, mafalda_row = table.to_dict("records")
    assert "do not match the gold" in martino_row["note"]
    assert mafalda_row["metric"].startswith("MAFALDA") and mafalda_row["F1"] >= 0
