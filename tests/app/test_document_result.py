"""The Documents page scores one document alone; its numbers must be the corpus run's row."""

from __future__ import annotations

import math

import pytest

from core.metrics import mafalda
from ui import results, state

# NLP4IF-2019 refuses overlapping same-technique predictions, which these samples hold.
REFUSED = [("propaganda", "martino", "nlp4if2019"), ("mafalda", "martino", "nlp4if2019")]
CASES = [(sample, metric, variant)
         for sample in ("propaganda", "mafalda", "figure1")
         for metric, variants in (("martino", ("semeval2021", "nlp4if2019")),
                                  ("mafalda", mafalda.VARIANTS))
         for variant in variants if (sample, metric, variant) not in REFUSED]


@pytest.mark.parametrize(("sample", "metric", "variant"), CASES)
def test_one_document_scored_alone_equals_its_row_of_the_corpus_run(
        sample: str, metric: str, variant: str) -> None:
    ws = state.load_sample(sample)
    gold, system = state.default_pair(ws)
    assert gold and system
    level = 2 if metric == "martino" else 1
    corpus = results.pair_result(ws.key, ws, gold, system, metric, variant, level)
    assert corpus.error is None
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


@pytest.mark.parametrize(("sample", "metric", "variant"), REFUSED)
def test_a_refused_corpus_run_says_which_option_would_accept_it(
        sample: str, metric: str, variant: str) -> None:
    ws = state.load_sample(sample)
    gold, system = state.default_pair(ws)
    assert gold and system
    corpus = results.pair_result(ws.key, ws, gold, system, metric, variant, 2)
    assert corpus.error is not None and "merge_pred=True" in corpus.error


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
    assert mafalda_row["metric"].startswith("MAFALDA")
    assert list(ws.sets[gold].spans) == [doc]  # one document: its score is the corpus score
    want = mafalda.score(ws.sets[gold], ws.sets[system], level=1, variant="paper",
                         texts=ws.corpus.texts, taxonomy=results.taxonomy_for(ws, gold, system))
    assert mafalda_row["F1"] == pytest.approx(want.f1)
