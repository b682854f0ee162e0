"""Spans the reader placed (MAFALDA model outputs) past their text are scored by default as the
official evaluator scores them, with one warning per file; offsets a file states are still
refused, and every refusal names the choices (``--clip-spans``, ``--beyond-text``, or the Data
page's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.formats import ReadOptions, load_path
from core.model import bounds
from ui import state, text_policy

ROOT = Path(__file__).resolve().parents[2]
MAFALDA = ROOT / "tests" / "data" / "mafalda"
GOLD = MAFALDA / "datasets" / "gold_standard_dataset.jsonl"
RELEASED = [MAFALDA / "results" / f"{m}_level_2_results.jsonl"
            for m in ("gpt-3.5", "base-silent", "base-random")]
OWN = ROOT / "tests" / "data" / "formats" / "mafalda_llm"
VALUES = ("precision", "recall", "f1", "label_only")


def _score(cli, gold: Path, pred: Path, *extra: str) -> dict:
    run = cli("score", str(gold), str(pred), "--metric", "mafalda", "--pred-format",
              "mafalda-llm", "--json", *extra)
    assert run.rc == 0, run.err
    return json.loads(run.out)


def test_the_command_of_docs_mafalda_scores_the_released_gpt35_outputs(cli) -> None:
    out = _score(cli, GOLD, RELEASED[0])
    past = [w for w in out["warnings"] if "past the text" in w]
    assert len(past) == 1 and out["warning_counts"]["beyond-text"] == 1
    assert "document '23': span [0, 276) 'unknown' ends past the text (234 characters)" in past[0]
    assert "in 21 of 200 texts the sentences joined by spaces are not as long" in past[0]
    assert (out["precision"], out["recall"], out["f1"]) == pytest.approx(
        (0.147, 0.195, 0.160), abs=5e-4)  # docs/mafalda.md, gpt-3.5 level 2


@pytest.mark.parametrize("level", ("0", "1", "2"))
def test_the_default_gives_exactly_the_numbers_of_beyond_text_official(cli, level: str) -> None:
    for results in RELEASED:
        default = _score(cli, GOLD, results, "--level", level)
        official = _score(cli, GOLD, results, "--level", level, "--beyond-text", "official")
        assert {k: default[k] for k in VALUES} == {k: official[k] for k in VALUES}, results.name
        assert default["warnings"] == official["warnings"]  # one warning, said once


def test_a_whole_text_answer_past_the_text_is_kept_as_it_is(cli) -> None:
    out = _score(cli, OWN / "gold.jsonl", OWN / "silent_results.jsonl")
    (warning,) = out["warnings"]
    assert "silent_results: the file states no offsets" in warning
    assert "1 of 3 texts" in warning
    assert "span [0, 125) 'unknown' ends past the text (107 characters)" in warning
    pred = load_path(OWN / "silent_results.jsonl", options=ReadOptions(role="system"))
    assert pred.set.spans["0"][0].end == 125
    assert pred.assumed_extents == {"0": 125, "1": 83, "2": 21}


def test_clip_spans_still_clips_spans_the_reader_placed(cli) -> None:
    out = _score(cli, OWN / "gold.jsonl", OWN / "repeated_sentence_results.jsonl", "--clip-spans")
    assert out["warnings"] == [
        f"{OWN / 'repeated_sentence_results.jsonl'}: repeated_sentence_results: document '0': "
        "span [64, 123) 'unknown' ends past the text (107 characters); clipped to [64, 107)"]


def test_a_span_whose_offsets_the_file_states_is_still_refused(tmp_path: Path, cli,
                                                               clean_failure) -> None:
    pred = tmp_path / "pred.jsonl"
    text = json.loads((OWN / "gold.jsonl").read_text(encoding="utf-8").splitlines()[2])["text"]
    pred.write_text(json.dumps({"text": text, "labels": [[0, 40, "ad hominem"]]}) + "\n",
                    encoding="utf-8")
    run = cli("validate", str(pred), "--role", "system")
    clean_failure(run)
    assert run.err.rstrip().endswith(
        "field 'end': expected an offset within the text (length 21), got 40; fix the offsets, "
        "or pass --clip-spans to clip them to the text (or --beyond-text official to score them "
        "as the official scorers do)")


def test_every_refusal_names_the_same_choices(tmp_path: Path, cli) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"id": "d1", "text": "hello world", "labels": []}]),
                    encoding="utf-8")
    cross = tmp_path / "cross.csv"  # a span past the gold's text
    cross.write_text("doc_id,start,end,label\nd1,0,40,Doubt\n", encoding="utf-8")
    reader = bounds.past_text(11, 40)
    across = cli("score", str(gold), str(cross), "--metric", "martino").err
    assert reader.endswith(bounds.CLI_CHOICE) and across.rstrip().endswith(bounds.CLI_CHOICE)


def test_the_data_page_keeps_placed_spans_and_names_its_own_choice() -> None:
    gold = state.parse_bytes("gold.jsonl", (OWN / "gold.jsonl").read_bytes(), None, "gold", "gold")
    placed = state.parse_bytes("silent_results.jsonl", (OWN / "silent_results.jsonl").read_bytes(),
                               None, "system", "silent")
    stated = state.parse_bytes("pred.csv", b"doc_id,start,end,label\n0,0,500,x\n", None,
                               "system", "pred")
    out = text_policy.apply([gold, placed, stated], "refuse")
    assert out[0].ok and out[1].ok and not out[2].ok
    assert [d.message for d in out[1].diagnostics if d.kind == "beyond-text"] == [
        m.removeprefix("silent_results.jsonl: ") for m in bounds.check_sets(
            [("silent_results.jsonl", placed.sets[0])], gold.texts,
            assumed={"silent_results.jsonl": dict(placed.assumed_extents or {})})[1]]
    assert out[2].error is not None
    message = out[2].error.message
    assert "--clip-spans" not in message and "--beyond-text" not in message
    assert message.endswith("fix the offsets, or choose 'clip spans to the text' (or 'keep them, "
                            "as the official scorers do') under \"Spans that end past their "
                            "document's text\" above")
