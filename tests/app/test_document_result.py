"""The Documents page scores one document alone; its numbers must be the corpus run's row."""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest

from core.metrics import mafalda
from core.metrics.result import DocumentScore
from core.model import AnnotationSet
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
    assert corpus.error is not None and "--merge-pred" in corpus.error  # ui.results.for_dashboard


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


def _row_by_row(result: object) -> pd.DataFrame:
    """The per-document table as it was built before, one dict per document (the reference)."""
    rows = result.per_document()  # type: ignore[attr-defined]
    extra = list(dict.fromkeys(k for r in rows for k in r.extra))
    pooled = results.POOLED_COLUMNS if result.pooled else {}  # type: ignore[attr-defined]
    columns = ["document", "P", "R", "F1", *pooled.values(), *map(results.column_name, extra)]
    records = [{"document": r.document, "P": r.precision, "R": r.recall, "F1": r.f1,
                **{name: getattr(r, attr) for attr, name in pooled.items()},
                **{results.column_name(k): v for k, v in r.extra.items()}} for r in rows]
    return pd.DataFrame(records, columns=columns)


@pytest.mark.parametrize(("sample", "metric", "variant"), CASES)
def test_the_per_document_table_built_by_columns_equals_the_rows(
        sample: str, metric: str, variant: str) -> None:
    ws = state.load_sample(sample)
    gold, system = state.default_pair(ws)
    assert gold and system
    corpus = results.pair_result(ws.key, ws, gold, system, metric, variant, 1)
    assert corpus.raw is not None
    pd.testing.assert_frame_equal(corpus.per_doc, _row_by_row(corpus.raw), check_exact=True)


def test_a_document_without_an_extra_value_has_nan_there() -> None:
    ws = state.load_sample("mafalda")
    gold, system = state.default_pair(ws)
    assert gold and system
    raw = results.pair_result(ws.key, ws, gold, system, "mafalda", "paper", 2).raw
    assert raw is not None
    rows = raw.per_document()
    assert len(rows) >= 2 and rows[0].extra
    rows[0] = replace(rows[0], extra={})
    is_pooled = raw.pooled

    class Partial:
        pooled = is_pooled

        def per_document(self) -> list[DocumentScore]:
            return rows

    got = results._per_document_table(Partial())  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(got, _row_by_row(Partial()), check_exact=True)
    assert got.iloc[0].drop(["document", "P", "R", "F1"]).isna().all()


@pytest.mark.parametrize(("sample", "metric", "variant"), CASES + REFUSED)
def test_the_listed_documents_f1_equals_the_corpus_rows(
        sample: str, metric: str, variant: str) -> None:
    # The Documents page's list scores its documents alone, as the page's own scores of the
    # document shown do: a corpus refused for a document not listed does not empty the column.
    ws = state.load_sample(sample)
    gold, system = state.default_pair(ws)
    assert gold and system
    level = 2 if metric == "martino" else 1
    corpus = results.per_doc_f1(ws.key, ws, gold, system, metric, variant, level)
    listed = tuple(ws.corpus.doc_ids)[::-1][:3]
    got = results.listed_f1(ws.key, ws, gold, system, listed, metric, variant, level)
    if (sample, metric, variant) in REFUSED:
        assert corpus == {}
        for d in listed:
            alone = results.document_result(ws.key, ws, gold, system, d, metric, variant, level)
            assert got.get(d) == (None if alone.error else _f1_of_one(alone)), d
        return
    want = {d: corpus[d] for d in listed if d in corpus}
    assert want and set(got) == set(want)
    for d, f1 in want.items():
        assert (math.isnan(f1) and math.isnan(got[d])) or got[d] == pytest.approx(f1), d


def test_the_listed_documents_of_sets_covering_different_documents_are_the_corpus_rows() -> None:
    sample = state.load_sample("propaganda")
    gold, system = state.default_pair(sample)
    assert gold and system
    pred = sample.sets[system]
    docs = list(pred.spans)
    fewer = AnnotationSet(pred.name, {d: pred.spans[d] for d in docs[1:]}, pred.role)
    ws = replace(sample, key=sample.key + "-fewer", corpus=replace(
        sample.corpus, sets={**sample.sets, system: fewer}))
    ws_key = ws.key
    corpus = results.per_doc_f1(ws_key, ws, gold, system, "martino", "semeval2021", 2)
    got = results.listed_f1(ws_key, ws, gold, system, tuple(docs[:3]), "martino",
                            "semeval2021", 2)
    assert got == {d: corpus[d] for d in docs[:3] if d in corpus}


def _f1_of_one(scores: results.PairScores) -> float:
    (row,) = scores.per_doc.to_dict("records")
    return float(row["F1"])


def test_the_overall_caption_writes_counts_with_thousands_separators() -> None:
    o = {"P": 0.5, "R": 0.25, "F1": 1 / 3, "P numerator": 50_000.0,
         "predicted spans": 100_000.0, "R numerator": 25_000.5, "gold spans": 100_002.0}
    caption = results.overall_caption(results.PairScores(o, pd.DataFrame(), None, None))
    assert "50,000.000 / 100,000 predicted spans" in caption  # was "100000 predicted spans"
    assert "25,000.500 / 100,002 gold spans" in caption
