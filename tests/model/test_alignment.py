"""Documents matched across annotators by their text (core.model.alignment)."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli.loading import load_annotator_sets
from core.model import AnnotationSet, Span
from core.model.alignment import align, onto, text_key

AGREEMENT_DATA = Path(__file__).parents[1] / "agreement" / "data"
SAMPLES = Path(__file__).parents[2] / "sample_data"
EXISTING = [[AGREEMENT_DATA / "three_annotators.csv"],
            [SAMPLES / "formats" / "label_studio_annotators.json"],
            [SAMPLES / "formats" / "brat_gold", SAMPLES / "formats" / "brat_annotator_1"],
            [SAMPLES / "figure1" / "gold.json", SAMPLES / "figure1" / "pred_s1.json",
             SAMPLES / "figure1" / "pred_t1.json"],
            [SAMPLES / "formats" / "doccano_gold.jsonl",
             SAMPLES / "formats" / "doccano_system_a_entities.jsonl"]]

WORDS = st.text(alphabet="abcdefgh ", min_size=1, max_size=12).filter(lambda t: t.strip())


@st.composite
def corpus_and_inputs(draw: st.DrawFn) -> list[dict[str, str | None]]:
    """Inputs whose ids already agree: subsets of one corpus of distinct texts, some texts
    written with other whitespace, some left out (a file without texts)."""
    texts = draw(st.lists(WORDS, min_size=1, max_size=8,
                          unique_by=lambda t: text_key(t)))
    corpus = {f"d{i}": t for i, t in enumerate(texts)}
    n = draw(st.integers(2, 4))
    inputs = []
    for _ in range(n):
        ids = draw(st.lists(st.sampled_from(sorted(corpus)), unique=True))
        inputs.append({d: draw(st.sampled_from([corpus[d], f" {corpus[d]}  ", None]))
                       for d in ids})
    return inputs


@given(corpus_and_inputs())
@settings(max_examples=200, deadline=None)
def test_inputs_whose_ids_agree_are_left_as_they_are(inputs: list[dict[str, str | None]]
                                                     ) -> None:
    result = align(inputs, [f"f{i}" for i in range(len(inputs))])
    assert not result.changed
    for i, texts in enumerate(inputs):
        assert result.texts(i, texts) == texts
        sets = [AnnotationSet("a", {d: (Span(0, 1, "x"),) for d in texts}, "annotator")]
        assert result.sets(i, sets) == sets


@given(corpus_and_inputs())
@settings(max_examples=200, deadline=None)
def test_aligning_twice_changes_nothing_more(inputs: list[dict[str, str | None]]) -> None:
    names = [f"f{i}" for i in range(len(inputs))]
    once = align(inputs, names)
    moved = [once.texts(i, t) for i, t in enumerate(inputs)]
    assert not align(moved, names).changed


@st.composite
def renamed_inputs(draw: st.DrawFn) -> list[dict[str, str | None]]:
    """Every annotator names the documents of one corpus in its own way (doccano numbering:
    ids reused for other texts)."""
    texts = draw(st.lists(WORDS, min_size=1, max_size=8, unique_by=lambda t: text_key(t)))
    inputs = []
    for _ in range(draw(st.integers(2, 4))):
        chosen = draw(st.lists(st.sampled_from(texts), unique=True, min_size=1))
        ids = draw(st.lists(st.sampled_from([str(k) for k in range(12)]), unique=True,
                            min_size=len(chosen), max_size=len(chosen)))
        inputs.append(dict(zip(ids, chosen, strict=True)))
    return inputs


@given(renamed_inputs())
@settings(max_examples=300, deadline=None)
def test_after_alignment_one_id_means_one_text_and_one_text_one_id(
        inputs: list[dict[str, str | None]]) -> None:
    result = align(inputs, [f"f{i}" for i in range(len(inputs))])
    moved = [result.texts(i, t) for i, t in enumerate(inputs)]
    by_id: dict[str, str | None] = {}
    by_text: dict[str | None, str] = {}
    for before, after in zip(inputs, moved, strict=True):
        assert len(after) == len(before)  # no two documents of one input merged
        assert sorted(map(text_key, before.values())) == sorted(map(text_key, after.values()))
        for doc, text in after.items():
            assert by_id.setdefault(doc, text_key(text)) == text_key(text)
            assert by_text.setdefault(text_key(text), doc) == doc
    for i, after in enumerate(moved):
        others = {text_key(t) for j, m in enumerate(moved) if j != i for t in m.values()}
        assert set(result.unmatched[i]) == {d for d, t in after.items()
                                            if text_key(t) not in others}


def test_doccano_numbering_is_matched_by_text_and_a_reused_id_gets_the_file_name() -> None:
    aparna = {"22": "Blue Smoke serves hen.", "23": "Hanon is a new udon shop."}
    ayla = {"43": "Hanon is a new  udon shop.\n", "22": "Cozy Corner, in Memphis."}
    result = align([aparna, ayla], ["aparna.jsonl", "ayla.jsonl"])
    assert result.renamed == ({}, {"43": "23", "22": "22@ayla.jsonl"})
    assert result.unmatched == (("22",), ("22@ayla.jsonl",))
    assert result.notes(["a/aparna.jsonl", "a/ayla.jsonl"]) == [
        "a/aparna.jsonl: 1 document matches no other file's documents ('22'); only this "
        "annotator's spans count there",
        "a/ayla.jsonl: 2 documents renamed, matched to the other files' documents by their "
        "text (or, where another file uses the id for another text, given this file's name) "
        "('43' → '23', '22' → '22@ayla.jsonl')",
        "a/ayla.jsonl: 1 document matches no other file's documents ('22@ayla.jsonl'); only "
        "this annotator's spans count there"]
    assert result.as_dict()["ayla.jsonl"] == {"renamed": {"43": "23", "22": "22@ayla.jsonl"},
                                              "unmatched": ["22@ayla.jsonl"]}


def test_two_documents_swapped_between_files_swap_back() -> None:
    first = {"1": "one text", "2": "two text"}
    second = {"1": "two text", "2": "one text"}
    result = align([first, second], ["a", "b"])
    assert result.renamed[1] == {"1": "2", "2": "1"}
    assert result.unmatched == ((), ())


def test_file_named_documents_take_the_first_files_names() -> None:
    result = align([{"report_ann1.txt": "A report."}, {"report_ann2.txt": "A report."}],
                   ["ann1", "ann2"])
    assert result.renamed == ({}, {"report_ann2.txt": "report_ann1.txt"})


def test_a_document_without_text_is_matched_by_its_id() -> None:
    result = align([{"1": "text"}, {"1": None, "9": None}], ["gold", "pred"])
    assert not result.changed
    assert result.unmatched == ((), ("9",))


def test_bundled_annotator_files_are_read_as_before() -> None:
    for files in EXISTING:
        aligned: list = []
        warnings: list[str] = []
        load_annotator_sets([str(f) for f in files], aligned=aligned, warnings=warnings)
        assert not aligned[0].changed and aligned[0].as_dict() == {}
        assert not any("renamed" in w or "match no other" in w for w in warnings)


@given(corpus_and_inputs())
@settings(max_examples=200, deadline=None)
def test_onto_leaves_an_input_whose_ids_are_the_references(inputs: list[dict[str, str | None]]
                                                          ) -> None:
    """Ids that meet the reference's are never renamed onto it (score reads them as before)."""
    assert onto(inputs[0], {d: t for d, t in inputs[1].items() if d in inputs[0]}) is None


@given(st.lists(WORDS, min_size=1, max_size=8, unique_by=text_key), st.randoms())
@settings(max_examples=200, deadline=None)
def test_onto_gives_every_document_the_id_of_the_reference_with_its_text(
        texts: list[str], rng: random.Random) -> None:
    """A gold numbered by line and an annotator's export of the same texts in another order,
    under other ids and other whitespace: every document lands on the gold's of its text."""
    gold = {str(i): t for i, t in enumerate(texts)}
    order = list(range(len(texts)))
    rng.shuffle(order)
    export = {str(4642 + i): f" {texts[i]} " for i in order}
    moves = onto(gold, export)
    assert moves is not None
    assert {new: text_key(export[old]) for old, new in moves.items()} == {
        d: text_key(t) for d, t in gold.items()}


def test_onto_never_guesses() -> None:
    gold = {"0": "Blue Smoke.", "1": "Cozy Corner.", "2": "Blue  Smoke."}
    assert onto(gold, {"7": "Cozy Corner."}) == {"7": "1"}
    assert onto(gold, {"8": "Blue Smoke."}) is None  # two gold documents hold this text
    assert onto(gold, {"7": "Cozy Corner.", "9": "Hanon."}) is None  # a text the gold lacks
    assert onto(gold, {"7": "Cozy Corner.", "9": None}) is None  # a document without text
    assert onto(gold, {}) is None
