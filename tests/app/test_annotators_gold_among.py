"""Annotators page: when the set scored against (the gold) is also one of the sets compared, a
caption says so (tour 18: three annotators' PTC files are guessed systems, so the page compared
every set, the gold articles too, and "all 4 sets together" counted the gold as an annotator
without a word)."""

from __future__ import annotations

from ui import annotators as ann

PAGE = "pages/annotators.py"


def _notes(at) -> list[str]:
    return [c.value for c in at.caption if "is also one of the sets compared" in c.value]


def test_the_gold_among_the_compared_sets_is_said(make_app) -> None:
    at = make_app(PAGE)  # gold, system_a, system_b: no annotator role, every set compared
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key=ann.K_ANN_SETS).value == ["gold", "system_a", "system_b"]
    assert at.selectbox(key=ann.K_ANN_GOLD).value == "gold"
    assert _notes(at) == [ann.gold_among_note("gold")]
    assert "Take it out of Annotation sets" in _notes(at)[0]


def test_no_caption_once_the_gold_is_taken_out(make_app) -> None:
    at = make_app(PAGE)
    at.multiselect(key=ann.K_ANN_SETS).set_value(["system_a", "system_b"]).run()
    assert not at.exception
    assert _notes(at) == []


def test_no_caption_for_the_sample_whose_annotators_are_the_default(make_app) -> None:
    at = make_app(PAGE, data="sample")
    assert "gold" not in at.multiselect(key=ann.K_ANN_SETS).value
    assert _notes(at) == []


def test_no_caption_for_the_gold_and_one_annotator(make_app) -> None:
    at = make_app(PAGE, params={ann.K_ANN_SETS: ["gold", "system_a"]})
    assert at.multiselect(key=ann.K_ANN_SETS).value == ["gold", "system_a"]
    assert _notes(at) == []
