"""One document id, two texts (core/model/texts.py): inputs that reuse ids for other documents are
refused on every command, naming both files, the number of such documents, the first one and
where its texts differ; texts that differ in whitespace only (a CoNLL prediction rebuilds its
text from tokens) are one document, its spans carried onto the reference text with a warning.

The files of ``tests/data/formats/conflicts/`` are our own: three annotators' doccano exports of
one review project (annotator 2's export numbers other reviews 1 and 2), a SemEval-2021 gold whose
text is not single-spaced and the same document as a CoNLL prediction, and an unrelated CoNLL
file whose one document is numbered 1 too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.engines.sharded import AgreeJob, char_shard
from core.model import AnnotationSet, Span
from core.model.errors import InputError
from core.model.texts import carry, differing, excerpt, first_difference, reconcile

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "conflicts"
ANN1, ANN2, ANN3 = (DATA / f"reviews_ann{i}.jsonl" for i in (1, 2, 3))
GOLD, PRED = DATA / "harbour_gold.json", DATA / "harbour_pred.conll"
FERRY = DATA / "ferry_timetable.conll"
LABELS = ("--labels", str(DATA / "labels.txt"))
OWN_LLM = Path(__file__).resolve().parents[1] / "data" / "formats" / "mafalda_llm"


# ---- the core function --------------------------------------------------------------------------


def test_differing_lists_only_documents_whose_known_texts_differ_with_the_first_position() -> None:
    reference = {"1": "Dated was the word", "2": "same", "3": None, "4": "only here"}
    texts = {"1": "Data was the word", "2": "same", "3": "no reference text", "5": "new",
             "4": None}
    (c,) = differing(reference, texts)
    assert (c.doc, c.at, c.there, c.here) == ("1", 3, "Dated was the word", "Data was the word")
    assert not c.same_characters


def test_first_difference_of_prefixes_and_of_long_texts() -> None:
    assert first_difference("abc", "abc def") == 3
    assert first_difference("x" * 10_000 + "a", "x" * 10_000 + "b") == 10_000
    assert first_difference("", "a") == 0


def test_excerpt_is_one_line_shortened_and_escaped() -> None:
    text = "A" * 40 + "\nline two\ttab " + "B" * 40
    quoted = excerpt(text, 40)
    assert quoted == "'…AAAAAAAAAAAA\\nline two\\ttab BBBBBBBBBB…'"
    assert "\n" not in quoted and "\t" not in quoted


def test_whitespace_only_differences_are_one_document_and_spans_move_onto_the_reference() -> None:
    there = "Harbour  master Ines Okafor spoke.\nThe Lumen  ferry  left."
    here = "Harbour master Ines Okafor spoke.\nThe Lumen ferry left."
    pred = AnnotationSet("p", {"1": (Span(15, 26, "PER"), Span(38, 49, "ORG"),
                                     Span(26, 27, "X"))}, "system")
    (c,) = differing({"1": there}, {"1": here})
    assert c.same_characters
    moved, n_moved, dropped = carry(pred, [c])
    assert moved.spans["1"] == (Span(16, 27, "PER"), Span(39, 51, "ORG"))
    assert [there[s.start:s.end] for s in moved.spans["1"]] == ["Ines Okafor", "Lumen  ferry"]
    assert (n_moved, dropped) == (2, 1)  # the span of one space covers no character


def test_texts_that_differ_only_in_trailing_whitespace_keep_every_offset() -> None:
    pred = AnnotationSet("p", {"1": (Span(0, 3, "X"),)}, "system")
    sets, why = reconcile({"1": "abc def"}, {"1": "abc def\n"}, [pred], here="p", there="g")
    assert sets[0].spans == pred.spans
    assert why == ["p: 1 document holds the text of g with other whitespace (as formats that "
                   "rebuild the text from tokens write it: CoNLL, WebAnno TSV); no span moved "
                   "(the same offsets); first: document '1', from character 7: 'abc def' in g, "
                   "'abc def\\n' here"]


def test_reconcile_refuses_other_characters_naming_both_files_the_count_and_the_first() -> None:
    pred = AnnotationSet("p", {"1": (), "2": ()}, "system")
    with pytest.raises(InputError) as err:
        reconcile({"1": "Dated was the word", "2": "x", "3": "y"},
                  {"1": "More than a year ago", "2": "z", "3": "y "}, [pred],
                  here="b.jsonl", there={"1": "a.jsonl", "2": "a.jsonl"})
    assert str(err.value) == (
        "b.jsonl: document '1' and 1 more document have a different text than in a.jsonl (from "
        "character 0: 'Dated was the word' in a.jsonl, 'More than a year ago' here); the two "
        "files do not describe the same documents: one id, two texts (use inputs of one corpus, "
        "or give their documents distinct ids)")


# ---- score, explain, errors, slices, report -----------------------------------------------------


def test_score_refuses_a_prediction_that_reuses_the_gold_ids_for_other_texts(
        cli, clean_failure) -> None:
    run = cli("score", str(ANN1), str(ANN2), "--metric", "martino", *LABELS)
    clean_failure(run)
    assert run.err.startswith(
        f"error: {ANN2}: document '1' and 1 more document have a different text than in {ANN1} "
        "(from character 0: 'The noodle bar on Elm St…' in")
    assert "'Our waiter at Casa Lumen…' here" in run.err
    assert "ends past the text" not in run.err and "--clip-spans" not in run.err


@pytest.mark.parametrize("first, second", [(FERRY, PRED), (PRED, FERRY)])
def test_two_unrelated_conll_files_are_refused_in_either_order(cli, clean_failure,
                                                               first: Path, second: Path) -> None:
    """CoNLL numbers its documents 1, 2, ...: two unrelated files share the id '1'. Before, one
    order scored two texts as one document, the other said the spans end past the text."""
    run = cli("score", str(first), str(second), "--metric", "martino", *LABELS)
    clean_failure(run)
    assert f"{second}: document '1' has a different text than in {first}" in run.err
    assert "ends past the text" not in run.err


@pytest.mark.parametrize("command", [
    ["explain", str(ANN1), str(ANN2), "--doc", "1", "--metric", "martino", *LABELS],
    ["errors", str(ANN1), str(ANN2)],
    ["slices", str(ANN1), str(ANN2), "--dimension", "label"],
    ["report", str(ANN1), str(ANN2), "-o", "{tmp}/report.html"],
])
def test_every_command_that_reads_a_gold_and_predictions_refuses_them(
        cli, clean_failure, tmp_path: Path, command: list[str]) -> None:
    run = cli(*[a.replace("{tmp}", str(tmp_path)) for a in command])
    clean_failure(run)
    assert f"{ANN2}: document '1' and 1 more document have a different text than in {ANN1}" \
        in run.err
    assert not (tmp_path / "report.html").exists()


def test_a_conll_prediction_of_the_gold_document_is_scored_on_the_gold_text(cli) -> None:
    """The CoNLL reader rebuilds the text (tokens joined by one space); the gold's text has
    double spaces. Same characters: the prediction's spans are carried onto the gold's text,
    where they are exactly the gold's spans."""
    run = cli("score", str(GOLD), str(PRED), "--metric", "martino", *LABELS, "--json")
    assert run.rc == 0, run.err
    out = json.loads(run.out)
    assert (out["precision"], out["recall"], out["f1"]) == (1.0, 1.0, 1.0)
    (warning,) = out["warnings"]
    assert warning.startswith(f"{PRED}: 1 document holds the text of {GOLD} with other "
                              "whitespace (as formats that rebuild the text from tokens write "
                              f"it: CoNLL, WebAnno TSV); 2 spans moved onto the text of {GOLD}")
    assert out["warning_counts"] == {"text-whitespace": 1}


def test_errors_reads_the_carried_prediction_as_correct(cli) -> None:
    run = cli("errors", str(GOLD), str(PRED), "--json")
    assert run.rc == 0, run.err
    out = json.loads(run.out)
    assert out["warning_counts"] == {"text-whitespace": 1}
    assert out["overall"]["reference"]["correct"] == out["overall"]["reference"]["total"] == 2


# ---- agree and adjudicate -----------------------------------------------------------------------


def test_agree_matches_documents_by_text_and_reports_an_annotator_whose_ids_name_other_texts(
        cli) -> None:
    # core.model.alignment: the documents are matched by their text, not refused (issue 26)
    run = cli("agree", str(ANN1), str(ANN3), str(ANN2), "--measure", "char-kappa", "--json")
    assert run.rc == 0, run.err
    out = json.loads(run.out)
    assert out["alignment"] == {"reviews_ann2.jsonl": {
        "renamed": {"1": "1@reviews_ann2.jsonl", "2": "2@reviews_ann2.jsonl"},
        "unmatched": ["1@reviews_ann2.jsonl", "2@reviews_ann2.jsonl"]}}
    pairs = out["char-kappa"]["pairs"]
    assert pairs["reviews_ann1 | reviews_ann2"]["overall"]["reason"] == \
        "no document annotated by both"
    alone = cli("agree", str(ANN1), str(ANN3), "--measure", "char-kappa", "--json")
    without = json.loads(alone.out)["char-kappa"]["pairs"]["reviews_ann1 | reviews_ann3"]
    both = pairs["reviews_ann1 | reviews_ann3"]
    assert (without["position"], without["per_label"]["Venue"]) == \
        (both["position"], both["per_label"]["Venue"])


def test_adjudicate_matches_them_the_same_way(cli, tmp_path: Path) -> None:
    run = cli("adjudicate", str(ANN1), str(ANN2), "--min-agree", "1", "-o",
              str(tmp_path / "c.json"), "--to", "semeval2021", "--json")
    assert run.rc == 0, run.err
    assert json.loads(run.out)["alignment"]["reviews_ann2.jsonl"]["unmatched"] == [
        "1@reviews_ann2.jsonl", "2@reviews_ann2.jsonl"]
    assert any("2 documents match no other file's documents" in w
               for w in json.loads(run.out)["warnings"])


def test_agree_compares_a_conll_annotator_with_the_original_text(cli) -> None:
    run = cli("agree", str(GOLD), str(PRED), "--measure", "span-f1", "--json")
    assert run.rc == 0, run.err
    out = json.loads(run.out)
    assert out["warning_counts"] == {"text-whitespace": 1}
    assert out["span-f1"]["matrix"]["harbour_gold"]["harbour_pred"] == 1.0


def test_a_shard_of_the_dask_agreement_refuses_the_same_way() -> None:
    out = char_shard(AgreeJob((str(ANN1), str(ANN2)), ("a", "b")))
    assert out.error is not None
    assert f"{ANN2}: document '1' and 1 more document have a different text than in {ANN1}" \
        in out.error


# ---- spans a reader placed: agreement clips them ------------------------------------------------


def test_agree_clips_the_spans_a_mafalda_model_output_places_past_the_text(cli) -> None:
    gold, placed = OWN_LLM / "gold.jsonl", OWN_LLM / "silent_results.jsonl"
    run = cli("agree", str(gold), str(placed), "--measure", "char-kappa", "--json")
    assert run.rc == 0, run.err
    warnings = json.loads(run.out)["warnings"]
    past = [w for w in warnings if "past the" in w]
    assert past == [
        f"{placed}: silent_results: the file states no offsets; the reader placed these spans "
        "by the lengths of the sentences, as the official evaluator does, and 1 span in 1 text "
        "runs past the end; it is clipped to the text here, since agreement needs every span "
        "inside its text (scores keep it as the official evaluator does) (document '0': span "
        "[0, 125) 'unknown' ends past the text (107 characters))"]



def test_adjudicate_clips_them_too(cli, tmp_path: Path) -> None:
    gold, placed = OWN_LLM / "gold.jsonl", OWN_LLM / "silent_results.jsonl"
    out = tmp_path / "consensus.json"
    run = cli("adjudicate", str(gold), str(placed), "--min-agree", "1", "-o", str(out), "--to",
              "semeval2021")
    assert run.rc == 0, run.err
    assert "it is clipped to the text here" in run.err + run.out
    texts = {d["id"]: d for d in json.loads(out.read_text(encoding="utf-8"))}
    assert all(lab["end"] <= len(d["text"]) for d in texts.values() for lab in d["labels"])


def test_an_agreement_refusal_of_spans_past_the_text_names_the_way_out(cli, clean_failure,
                                                                         tmp_path: Path) -> None:
    a = tmp_path / "a.json"
    a.write_text(json.dumps([{"id": "d1", "text": "hello world", "labels": [
        {"technique": "Doubt", "start": 0, "end": 40}]}]), encoding="utf-8")
    b = tmp_path / "b.csv"
    b.write_text("doc_id,start,end,label\nd1,0,5,Doubt\n", encoding="utf-8")
    run = cli("agree", str(a), str(b), "--measure", "char-kappa", "--beyond-text", "official")
    clean_failure(run)
    assert run.err.rstrip().endswith(
        "a span ends at 40, after the end of the text (11 characters); agreement needs every "
        "span inside its text: fix the offsets, or pass --clip-spans to clip them to the text")


# ---- carrying spans across whitespace: a property ---------------------------------------------

_WORDS = st.lists(st.text("abcé,.", min_size=1, max_size=5), min_size=1, max_size=8)
_GAPS = st.sampled_from([" ", "  ", "\n", " \n ", "\t"])


@settings(max_examples=60, derandomize=True, deadline=None)
@given(words=_WORDS, data=st.data())
def test_a_carried_span_covers_the_same_characters_on_the_reference_text(
        words: list[str], data: st.DataObject) -> None:
    here = " ".join(words)  # tokens joined by one space, as CoNLL rebuilds a text
    lead = data.draw(st.sampled_from(["", " ", "\n"]))
    there = lead + "".join(w + data.draw(_GAPS) for w in words)  # other whitespace
    i = data.draw(st.integers(0, len(words) - 1))
    j = data.draw(st.integers(i, len(words) - 1))
    start = sum(len(w) + 1 for w in words[:i])
    end = sum(len(w) + 1 for w in words[:j]) + len(words[j])
    pred = AnnotationSet("p", {"1": (Span(start, end, "X"),)}, "system")
    (moved,), why = reconcile({"1": there}, {"1": here}, [pred], here="p", there="g")
    (span,) = moved.spans["1"]
    assert there[span.start:span.end].split() == here[start:end].split() == words[i:j + 1]
    assert len(why) == (here != there)
