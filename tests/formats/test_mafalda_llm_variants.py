"""MAFALDA model-output files as the repository releases them (own small files of the same
structure): a sentence listed twice, a silent baseline, answers to the level-1 prompt."""

from __future__ import annotations

from pathlib import Path

from core.formats import ReadOptions, load_path
from core.model.errors import expand_diagnostics

OWN = Path(__file__).resolve().parents[1] / "data" / "formats" / "mafalda_llm"


def _read(name: str):  # -> core.formats.Loaded
    gold = load_path(OWN / "gold.jsonl")
    return load_path(OWN / name, options=ReadOptions(role="system",
                                                     gold_doc_ids=gold.set.doc_ids))


def test_a_sentence_listed_twice_places_spans_past_the_text() -> None:
    loaded = _read("repeated_sentence_results.jsonl")
    assert loaded.format == "mafalda-llm"
    assert loaded.set.spans["0"] == tuple(sorted(loaded.set.spans["0"]))
    assert [(s.start, s.end, s.label) for s in loaded.set.spans["0"]] == [
        (0, 34, "unknown"), (34, 64, "hasty generalization"), (64, 123, "unknown")]
    assert loaded.assumed_extents == {"0": 125, "1": 83, "2": 21}


def test_answers_to_the_level_1_prompt_are_read_with_the_level_2_keywords() -> None:
    loaded = _read("model_level_1_results.jsonl")
    # "not part of a fallacious argument" (paper-2023 never reads the negation) and "a fallacy
    # of logic" are both unknown: one run; "appeal to emotion" is a level-2 fallacy
    assert [(s.start, s.end, s.label) for s in loaded.set.spans["1"]] == [
        (0, 49, "unknown"), (48, 81, "appeal to positive emotion")]
    (first, *_) = [d.message for d in expand_diagnostics(loaded.diagnostics)]
    assert first.startswith("the file name says these are answers to MAFALDA's level-1 prompt")
    level_2 = _read("repeated_sentence_results.jsonl")
    assert not [d for d in level_2.diagnostics if "level-1" in d.message]
