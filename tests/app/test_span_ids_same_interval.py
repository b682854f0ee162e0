"""The Documents page's span ids under a metric that names spans by their interval (MAFALDA):
two predictions on one interval with different labels (a multi-label fragment, common in the
propaganda corpora) are two spans, not two copies of one (review20).

Since review19 a span its set gives more than once has one id per copy (``P1``, ``P2``), and
each copy's note says "Its copies: P1, P2, each with rows of its own". MAFALDA names a
prediction by its interval alone, so ``[4, 19) Doubt`` and ``[4, 19) Loaded`` were taken for
two copies: both ids were given the last note written (Loaded's, 1.000 from G1) with that
sentence, and P1, the Doubt prediction whose row says it takes 0, read as taking 1.000."""

from __future__ import annotations

import re

import pytest

from core.model import AnnotationSet, Span
from ui import results, state

TEXT = "The quick brown fox jumps over the lazy dog near the river bank today."


def _workspace(gold_spans: tuple[Span, ...], pred_spans: tuple[Span, ...],
               key: str) -> state.Workspace:
    """The gold ``gold_spans`` and the system ``system_two``'s ``pred_spans`` on ``doc1``."""
    gold = AnnotationSet("gold", {"doc1": gold_spans}, "gold")
    pred = AnnotationSet("system_two", {"doc1": pred_spans}, "system")
    report = state.FileReport("two.json", "test", "gold", "two", {"doc1": TEXT}, (gold, pred))
    return state.build_workspace([report], key=f"test:r20:{key}",
                                 title="one interval, two labels", shareable=False)


def _explained(pred_spans: tuple[Span, ...], metric: str, variant: str | None,
               level: int | None, gold_spans: tuple[Span, ...] = (Span(4, 19, "Loaded"),),
               key: str | None = None) -> results.Explained:
    ws = _workspace(gold_spans, pred_spans, key or f"{metric}:{len(pred_spans)}")
    return results.explain_document(ws.key, ws, "gold", "system_two", "doc1", metric, variant,
                                    level)


def test_two_labels_on_one_interval_are_not_called_copies_under_mafalda() -> None:
    e = _explained((Span(4, 19, "Doubt"), Span(4, 19, "Loaded")), "mafalda", "paper", 2)
    assert e.error is None
    rows = e.pairs[e.pairs["side"].str.startswith("precision")]
    assert sorted(rows["pred"]) == ["P1", "P2"]
    for _, row in rows.iterrows():
        note = e.best[row["pred"]]
        assert "copies" not in note, note
        # each id's note is its own prediction's: the label and the share its row gives
        assert f"(label {row['label']})" in note, (row["pred"], row["label"], note)
        taken = float(re.search(r"= (\d\.\d{3})", note).group(1))
        assert taken == row["C(s,t,|s|)"], (row["pred"], note)


def test_a_prediction_given_twice_under_mafalda_is_still_two_copies() -> None:
    e = _explained((Span(4, 19, "Loaded"), Span(4, 19, "Loaded")), "mafalda", "paper", 2)
    assert e.error is None
    for name in ("P1", "P2"):
        assert "Its copies: P1, P2" in e.best[name], e.best


def test_a_gold_span_of_two_labels_gives_its_one_note_to_both_ids_under_mafalda() -> None:
    """A plain gold with two labels on one interval is one MAFALDA span (``A | B``), with one
    note: both of the page's ids for it show that note, which calls them no copies."""
    e = _explained((Span(4, 19, "Loaded"),), "mafalda", "paper", 2,
                   gold_spans=(Span(4, 19, "Doubt"), Span(4, 19, "Loaded")), key="gold2")
    assert e.error is None
    assert e.best["G1"] == e.best["G2"] and "copies" not in e.best["G1"], e.best


def test_the_documents_page_gives_each_label_of_one_interval_its_own_note() -> None:
    """The page, under MAFALDA: the Doubt prediction P1, selected, shows its own note (0 from
    G1, label doubt), not the Loaded prediction's 1.000 with "Its copies: P1, P2"."""
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP
    from ui import documents

    ws = _workspace((Span(4, 19, "Loaded"),), (Span(4, 19, "Doubt"), Span(4, 19, "Loaded")),
                    "page")
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in {"doc": "doc1", "b": "system_two", "metric": "mafalda",
                       documents.K_DOC_TAB: documents.DOC_TABS[1]}.items():
        at.query_params[key] = value
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    said = {}
    for span_id in ("P1", "P2"):
        at.selectbox(key=state.K_SPAN).select(span_id).run()
        assert not at.exception, [e.value for e in at.exception]
        (said[span_id],) = [m.value.replace("\\", "") for m in at.markdown
                            if "takes from it" in m.value]
    assert "(label doubt)" in said["P1"] and "= 0.000" in said["P1"], said
    assert "(label loaded)" in said["P2"] and "= 1.000" in said["P2"], said
    assert not any("copies" in s for s in said.values()), said


def test_the_recall_row_names_the_best_prediction_of_its_label() -> None:
    """MAFALDA's rows named a prediction by its interval, and the page told the predictions
    of one interval apart by their partner only: the recall row named P2 (appeal to anger)
    where the note and the metric take P1 (ad hominem). The rows now carry the prediction's
    span, label included."""
    e = _explained((Span(4, 19, "ad hominem"), Span(4, 19, "appeal to anger")), "mafalda",
                   "paper", 2, gold_spans=(Span(4, 19, "ad hominem"),), key="recall")
    recall = e.pairs[e.pairs["side"].str.startswith("recall")]
    assert list(recall["pred"]) == ["P1"]  # P1 is [4, 19) ad hominem, the one G1 takes
    assert "best prediction P1" in e.best["G1"]


@pytest.mark.parametrize(("variant", "level", "gold_label", "other"), [
    ("paper", 2, "appeal to anger", "ad hominem"),
    ("metrics-py", 2, "appeal to anger", "ad hominem"),
    ("repo-head", 2, "appeal to anger", "ad hominem"),
    # at level 1 appeal to pity reads as emotion, the gold's appeal to fear too
    ("paper", 1, "appeal to fear", "ad hominem"),
])
def test_the_recall_row_and_note_name_the_second_prediction_of_an_interval_when_it_is_taken(
        variant: str, level: int, gold_label: str, other: str) -> None:
    """P1 [4, 19) ad hominem, P2 [4, 19) of the gold's class: recall takes P2, and both the row
    and G1's note say P2 (the note named the interval's first id, P1, whatever recall took)."""
    taken = "appeal to pity" if level == 1 else gold_label
    e = _explained((Span(4, 19, other), Span(4, 19, taken)), "mafalda", variant, level,
                   gold_spans=(Span(4, 19, gold_label),), key=f"second:{variant}:{level}")
    assert e.error is None
    recall = e.pairs[e.pairs["side"].str.startswith("recall: best")]
    assert list(recall["pred"]) == ["P2"], e.pairs
    assert list(recall["C(s,t,|t|)"]) == [1.0]
    assert "best prediction P2" in e.best["G1"], e.best


def test_precision_rows_and_notes_follow_the_prediction_not_the_files_order() -> None:
    """The page numbers the spans of one interval by label (Doubt P1, Loaded P2); a file
    listing Loaded first had its rows and notes named in the file's order: P1's row and note
    were Loaded's (1.000 from G1) and P2's Doubt's."""
    gold = (Span(4, 19, "Loaded"), Span(10, 15, "Doubt"))
    e = _explained((Span(4, 15, "Loaded"), Span(4, 15, "Doubt")), "mafalda", "paper", 2,
                   gold_spans=gold, key="file-order")
    assert e.error is None
    rows = e.pairs[e.pairs["side"].str.startswith("precision")]
    assert dict(zip(rows["pred"], rows["label"], strict=True)) == {"P2": "loaded",
                                                                    "P1": "doubt"}
    assert e.best["P1"].endswith("= 0.455 from its best gold match G2 (label doubt)."), e.best
    assert e.best["P2"].endswith("= 1.000 from its best gold match G1 (label loaded)."), e.best
    recall = e.pairs[e.pairs["side"].str.startswith("recall")].set_index("gold")
    assert recall.loc["G1", "pred"] == "P2" and recall.loc["G2", "pred"] == "P1"
