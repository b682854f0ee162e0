"""``answer_codes`` (ASCII answers cleaned by a byte table) equals the evaluator's steps written
plainly with the regular expression, on the sample's answers and on random text; ``read`` parses
each distinct answer once and reads what it read before (issue 29)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import ReadOptions, mafalda_llm
from core.formats.mafalda_llm import answer_codes, answer_part, cleaned_codes
from core.model.errors import FormatError

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "mafalda" / "system_llm.jsonl"


def plain(answer: str, parsing: str) -> frozenset[int]:
    """The evaluator's steps with its regular expression for the cleaning the byte table does."""
    return cleaned_codes(re.sub(r"[^\w\s]", " ", answer_part(answer)), parsing)


def sample_answers() -> list[str]:
    return [a for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()
            for a in json.loads(line)["prediction"].values()]


@pytest.mark.parametrize("parsing", ["paper-2023", "repo-head"])
def test_sample_answers_give_the_plain_steps_codes(parsing: str) -> None:
    answers = [*sample_answers(), "No.", "Slippery-slope!", "STRAW\x1cman", "ad_hominem",
               "Output: none\tof them", "Fear, İstanbul; émotion"]
    for answer in answers:
        assert answer_codes(answer, parsing) == plain(answer, parsing), answer


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcdefghilmnoprstuvwy _-.,;:!?'\"()\t\n\x1c\x85"
                                             "ÉéİßK\u00a0")) | st.characters(), max_size=80),
       st.sampled_from(["paper-2023", "repo-head"]))
def test_random_answers_give_the_plain_steps_codes(answer: str, parsing: str) -> None:
    assert answer_codes(answer, parsing) == plain(answer, parsing)


def test_a_repeated_answer_reads_as_it_did_and_a_bad_one_still_fails() -> None:
    lines = [{"text": "A b. C d.", "prediction": {"A b.": "Fear!", "C d.": "Fear!"}},
             {"text": "E f.", "prediction": {"E f.": "no fallacy"}}]
    data = "\n".join(json.dumps(x) for x in lines).encode()
    loaded = mafalda_llm.read({"r.jsonl": data}, name="r.jsonl", options=ReadOptions())
    spans = dict(loaded.sets[0].spans.items())
    assert [s.label for s in spans["0"]] == ["appeal to fear"]
    assert (spans["0"][0].start, spans["0"][0].end) == (0, 9)
    bad = data + b'\n{"text": "G.", "prediction": {"G.": 3}}'
    with pytest.raises(FormatError, match="expected the answer as a string, got int"):
        mafalda_llm.read({"r.jsonl": bad}, name="r.jsonl", options=ReadOptions())
