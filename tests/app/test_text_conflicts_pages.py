"""Data, Annotators and Curation pages: files that give one document id different texts, and
spans a reader placed past the text (issues of the newcomer tour with real exports, items 1
and 6).

A file whose texts are not those of an earlier file is refused naming both files and the first
document, under every choice for spans past the text (clipping cannot fix spans drawn on another
text), while the files that agree still load; the Annotators and Curation pages clip the spans a
MAFALDA model output places past the text (Scores keeps them) with one warning, and any refusal
there names the Data page's choice. Our own files: ``tests/data/formats/conflicts/`` (see
``tests/robustness/test_text_conflicts.py``) and ``tests/data/formats/mafalda_llm/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui import data as data_ui
from ui import state, text_policy, uploads

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
CONFLICTS = DATA / "conflicts"
LLM = DATA / "mafalda_llm"


def _upload(make_app, *paths: Path, policy: str | None = None, chosen: bool = False
            ) -> AppTest:
    """``paths`` uploaded on the Data page; ``chosen``: their role boxes count as chosen (the
    guess, system, kept on purpose, as ``--data system=PATH``), not left at their guess, which
    reads guessed systems that give one id two texts as annotators
    (:data:`ui.uploads.GUESSED_ANNOTATOR`)."""
    at = make_app("pages/data.py", data="empty")
    if chosen:
        at.session_state[uploads.K_ROLE_CHOSEN] = {p.name for p in paths}
    if policy is not None:
        at.radio(key=text_policy.K_BEYOND_TEXT).set_value(policy).run()
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(p.name, p.read_bytes(), "application/octet-stream") for p in paths]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _errors(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error]  # names are shown escaped


def _loaded(at: AppTest) -> list[str]:
    return list(at.session_state[state.K_UPLOAD_WS].sets)


@pytest.mark.parametrize("policy", ["refuse", "clip", "official"])
def test_an_annotator_export_that_reuses_ids_for_other_texts_is_refused_naming_both(
        make_app, policy: str) -> None:
    at = _upload(make_app, *(CONFLICTS / f"reviews_ann{i}.jsonl" for i in (1, 2, 3)),
                 policy=policy, chosen=True)
    (error,) = _errors(at)
    assert error.startswith("reviews_ann2.jsonl: document '1' and 1 more document have a "
                            "different text than in reviews_ann1.jsonl (from character 0: "
                            "'The noodle bar on Elm St…' in reviews_ann1.jsonl, 'Our waiter at "
                            "Casa Lumen…' here)")
    assert "past the text" not in error and "clip" not in error and "keep them" not in error
    assert _loaded(at) == ["reviews_ann1", "reviews_ann3"]


def test_two_unrelated_conll_files_do_not_merge_and_the_first_still_loads(make_app) -> None:
    at = _upload(make_app, CONFLICTS / "ferry_timetable.conll", CONFLICTS / "harbour_pred.conll",
                 chosen=True)
    (error,) = _errors(at)
    assert error.startswith("harbour_pred.conll: document '1' has a different text than in "
                            "ferry_timetable.conll")
    assert "ends past the text" not in error
    assert _loaded(at) == ["ferry_timetable"]


def test_a_gold_uploaded_after_a_prediction_is_the_reference(make_app) -> None:
    """Gold files are checked first: the prediction is the file named as different."""
    at = _upload(make_app, CONFLICTS / "ferry_timetable.conll", CONFLICTS / "harbour_gold.json")
    (error,) = _errors(at)
    assert error.startswith("ferry_timetable.conll: document '1' has a different text than in "
                            "harbour_gold.json")
    assert _loaded(at) == ["harbour_gold"]


def test_a_conll_prediction_of_the_gold_text_loads_on_the_gold_text_with_a_warning(
        make_app, frame) -> None:
    at = _upload(make_app, CONFLICTS / "harbour_gold.json", CONFLICTS / "harbour_pred.conll")
    assert _errors(at) == []
    ws = at.session_state[state.K_UPLOAD_WS]
    assert ws.sets["harbour_pred"].spans == ws.sets["harbour_gold"].spans  # on the gold's text
    at.session_state[data_ui.K_DIAG_LIST] = True  # warnings only: their table's expander, opened
    at.run()
    diags = frame(at, "severity", "message")
    (message,) = diags[diags["message"].str.contains("other whitespace")]["message"]
    assert message.startswith("1 document holds the text of harbour_gold.json with other "
                              "whitespace")


def _mafalda_pages(make_app, page: str, policy: str | None = None) -> AppTest:
    at = _upload(make_app, LLM / "gold.jsonl", LLM / "silent_results.jsonl", policy=policy)
    assert _errors(at) == []
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _captions(at: AppTest) -> str:
    return " ".join(c.value.replace("\\", "") for c in at.caption)


@pytest.mark.parametrize("page", ["pages/annotators.py", "pages/curation.py"])
def test_spans_a_model_output_places_past_the_text_are_clipped_for_agreement(make_app,
                                                                             page: str) -> None:
    at = _mafalda_pages(make_app, page)
    assert _errors(at) == []
    said = _captions(at)
    assert "silent_results: the file states no offsets" in said
    assert "it is clipped to the text here, since agreement needs every span inside its text" \
        in said


def test_scores_still_keeps_them_as_the_official_evaluator_does(make_app) -> None:
    at = _mafalda_pages(make_app, "pages/annotators.py")
    at.switch_page("pages/scores.py").run()
    assert not at.exception
    ws = at.session_state[state.K_UPLOAD_WS]
    assert max(s.end for s in ws.sets["silent_results"].spans["0"]) == 125  # text of 107


@pytest.mark.parametrize("page", ["pages/annotators.py", "pages/curation.py"])
def test_a_refusal_of_stated_offsets_past_the_text_names_the_data_page_choice(
        make_app, tmp_path: Path, page: str) -> None:
    """Kept on the Data page ("keep them, as the official scorers do"), a span whose offsets
    its file states cannot enter agreement: the page says which choice clips it."""
    a = tmp_path / "ann_a.json"
    a.write_text(json.dumps([{"id": "d1", "text": "hello world", "labels": [
        {"technique": "Doubt", "start": 0, "end": 40}]}]), encoding="utf-8")
    b = tmp_path / "ann_b.json"
    b.write_text(json.dumps([{"id": "d1", "text": "hello world", "labels": [
        {"technique": "Doubt", "start": 0, "end": 5}]}]), encoding="utf-8")
    at = _upload(make_app, a, b, policy="official")
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    (error,) = _errors(at)
    assert error.endswith("agreement needs every span inside its text: fix the offsets, or "
                          "choose 'clip spans to the text' under \"Spans that end past their "
                          "document's text\" on the Data page")
    assert "--clip-spans" not in error
    assert any("data" in str(link.proto.page).lower() for link in at.main.get("page_link"))


def test_files_given_with_data_on_the_command_line_follow_the_same_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from core.cli.launch import DATA_ENV
    from ui import cli_data

    monkeypatch.setenv(DATA_ENV, json.dumps(
        [{"role": "annotator", "path": str(CONFLICTS / f"reviews_ann{i}.jsonl")}
         for i in (1, 2, 3)]))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"),
                           default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    ws = cli_data.cli_workspace()
    # annotators' documents are matched by their text (core.model.alignment, issue 26):
    # annotator 2's reviews are other texts, so its ids get its file name and it loads
    assert ws is not None and list(ws.sets) == ["reviews_ann1", "reviews_ann2", "reviews_ann3"]
    assert all(r.ok for r in ws.reports)
    assert sorted(ws.sets["reviews_ann2"].spans) == ["1@reviews_ann2.jsonl",
                                                      "2@reviews_ann2.jsonl"]
    (ann2,) = [r for r in ws.reports if r.file == "reviews_ann2.jsonl"]
    assert any("match no other file's documents" in d.message for d in ann2.diagnostics)


def test_annotator_exports_that_number_documents_apart_load_once_given_the_annotator_role(
        make_app) -> None:
    """Issue 26: the refusal says how to load them; with the role annotator their documents are
    matched by their text (core.model.alignment). Left at their guess (system), their role boxes
    give the same: guessed systems that give one id two texts are annotators' exports of one
    tool, as ``--data`` reads them (:func:`ui.cli_data.one_tools_exports`)."""
    paths = [CONFLICTS / f"reviews_ann{i}.jsonl" for i in (1, 2, 3)]
    at = _upload(make_app, *paths, chosen=True)
    (error,) = _errors(at)
    assert "give them the role annotator" in error
    for p in paths:
        at.selectbox(key=state.upload_key("role", p.name)).set_value("annotator")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert _errors(at) == []
    assert _loaded(at) == ["reviews_ann1", "reviews_ann2", "reviews_ann3"]
    chosen = at.session_state[state.K_UPLOAD_WS]
    assert sorted(chosen.sets["reviews_ann2"].spans) == [
        "1@reviews_ann2.jsonl", "2@reviews_ann2.jsonl"]
    guessed = _upload(make_app, *paths)
    assert _errors(guessed) == []
    ws = guessed.session_state[state.K_UPLOAD_WS]
    assert {n: (s.role, s.spans) for n, s in ws.sets.items()} == {
        n: (s.role, s.spans) for n, s in chosen.sets.items()}
    assert all(any(d.message == uploads.GUESSED_ANNOTATOR for d in r.diagnostics)
               for r in ws.reports)


def test_two_unrelated_conll_files_left_at_their_guess_load_apart_as_annotators(
        make_app) -> None:
    """Two guessed systems that give document '1' two texts: read as annotators (the rule of
    ``--data``), each document matched by its text, so they still do not merge."""
    at = _upload(make_app, CONFLICTS / "ferry_timetable.conll", CONFLICTS / "harbour_pred.conll")
    assert _errors(at) == []
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {n: s.role for n, s in ws.sets.items()} == {"ferry_timetable": "annotator",
                                                       "harbour_pred": "annotator"}
    assert not set(ws.sets["ferry_timetable"].spans) & set(ws.sets["harbour_pred"].spans)
