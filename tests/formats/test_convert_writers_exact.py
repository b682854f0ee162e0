"""Writers that ``convert`` uses keep what their format can hold, and say what it cannot.

Found by a command-line tour: a DocBin widened every span of unspaced Chinese to its whole
sentence without a word, MAFALDA files were written with labels the MAFALDA reader then refused,
WebAnno TSV added a newline to each text, and a mistyped output folder was created silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import load_files
from core.formats.tools import convert
from core.model import AnnotationSet, Span

CJK = "公諱浩，建炎、紹興間來寓四明。公字浩然，曾祖德安，杭州助教。"
EMOJI = "I 💖 NY!🎉 great"
ENGLISH = "Left ventricle shows focal thickening."


def _docbin_round_trip(texts: dict[str, str], spans: dict[str, tuple[Span, ...]]
                       ) -> dict[str, tuple[Span, ...]]:
    from core.formats.spacy_docs import docbin_bytes

    data = docbin_bytes(dict(texts), AnnotationSet("a", spans, "gold"))
    back = load_files({"x.spacy": data})
    assert back.texts == texts
    return dict(back.sets[0].spans)


@pytest.mark.parametrize(("text", "spans"), [
    (CJK, (Span(0, 1, "P"), Span(2, 3, "P"), Span(5, 7, "T"), Span(10, 14, "L"))),
    (EMOJI, (Span(2, 3, "E"), Span(5, 7, "LOC"), Span(7, 8, "E"))),
    (ENGLISH, (Span(0, 4, "Pos"), Span(21, 25, "Val"), Span(15, 24, "X"))),
])
def test_docbin_keeps_every_span_exactly_in_cjk_emoji_and_english(
        text: str, spans: tuple[Span, ...]) -> None:
    assert _docbin_round_trip({"d": text}, {"d": tuple(sorted(spans))}) == {
        "d": tuple(sorted(spans))}


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_docbin_round_trip_is_exact_for_any_spans(data: st.DataObject) -> None:
    text = data.draw(st.text(st.sampled_from(list("ab 公諱,.\n💖-")), min_size=1, max_size=20))
    pairs = data.draw(st.lists(st.tuples(st.integers(0, len(text) - 1),
                                         st.integers(1, len(text))), max_size=4))
    spans = tuple(sorted({Span(min(s, e - 1), e, "L") for s, e in pairs if e > 0}))
    assert _docbin_round_trip({"d": text}, {"d": spans}) == {"d": spans}


def _doccano(path: Path, rows: list[tuple[str, list[list[object]]]]) -> Path:
    path.write_text("".join(json.dumps({"id": i + 1, "text": t, "label": lab},
                                       ensure_ascii=False) + "\n"
                            for i, (t, lab) in enumerate(rows)), encoding="utf-8")
    return path


def test_convert_to_docbin_notes_the_cut_tokens_and_scores_one(tmp_path: Path) -> None:
    src = _doccano(tmp_path / "in.jsonl", [(CJK, [[0, 1, "P"], [5, 7, "T"]]),
                                          (ENGLISH, [[21, 25, "Val"]])])
    messages = convert(src, tmp_path / "out.spacy", to="spacy")
    notes = [m for m in messages if "cut at span edges" in m]
    assert len(notes) == 1
    assert notes[0].startswith("note: 2 tokens of spaCy's blank English tokenizer are cut")
    assert "one token per sentence" in notes[0]
    back = load_files({"out.spacy": (tmp_path / "out.spacy").read_bytes()})
    assert dict(back.sets[0].spans) == {"1": (Span(0, 1, "P"), Span(5, 7, "T")),
                                        "2": (Span(21, 25, "Val"),)}


def test_docbin_names_the_spans_it_cannot_place() -> None:
    from core.formats.spacy_docs import docbin_notes

    aset = AnnotationSet("a", {"d": (Span(1, 3, "A"), Span(3, 40, "B"))}, "gold")
    notes = docbin_notes({"d": "abc def"}, aset)
    assert notes == ["note: 1 tokens of spaCy's blank English tokenizer are cut at span edges "
                     "so that every span keeps its exact offsets (unspaced text, such as "
                     "Chinese or Japanese, is one token per sentence); the longest: document "
                     "'d', 'abc' cut into 2 tokens",
                     "warning: 1 spans end beyond their document's text and are left out of "
                     "the DocBin: document 'd' [3, 40) 'B'"]


def test_mafalda_writer_refuses_labels_its_reader_refuses(tmp_path: Path) -> None:
    from core.formats import load_path
    from core.model.errors import FormatError

    src = _doccano(tmp_path / "in.jsonl", [("They lie. Everyone knows it.",
                                            [[0, 8, "Loaded Language"], [9, 28, "ad populum"]])])
    with pytest.raises(FormatError) as exc:
        convert(src, tmp_path / "out.jsonl", to="mafalda")
    message = str(exc.value)
    assert message.startswith(f"{tmp_path / 'out.jsonl'}: 1 labels are not names of the "
                              "MAFALDA taxonomy: 'Loaded Language'; a MAFALDA file holds only "
                              "these: nothing, ")
    assert message.endswith("Rename the labels to MAFALDA's names first, or write a format "
                            "that takes any label (doccano, spacy, spans-csv)")
    assert not (tmp_path / "out.jsonl").exists()
    # MAFALDA names in any case are written, and read back.
    _doccano(src, [("They lie. Everyone knows it.", [[9, 28, "Ad Populum"]])])
    convert(src, tmp_path / "out.jsonl", to="mafalda")
    back = load_path(tmp_path / "out.jsonl")
    assert back.format == "mafalda"
    assert dict(back.sets[0].spans) == {"1": (Span(9, 28, "ad populum"),)}


def test_webanno_tsv_notes_the_line_break_it_cannot_leave_out(tmp_path: Path) -> None:
    from core.formats import load_path

    src = _doccano(tmp_path / "in.jsonl", [("Alice met Bob.", [[0, 5, "PER"]]),
                                          ("Carol left.\n", [[0, 5, "PER"]])])
    messages = convert(src, tmp_path / "out", to="webanno-tsv")
    assert ("note: 1 document texts do not end with a line break; WebAnno TSV cannot hold such "
            "a text (a reader ends every #Text= line with one), so they are read back one line "
            "break longer, offsets unchanged, e.g. '1'") in messages
    back = load_path(tmp_path / "out")
    assert back.texts == {"1": "Alice met Bob.\n", "2": "Carol left.\n"}
    assert dict(back.sets[0].spans) == {"1": (Span(0, 5, "PER"),), "2": (Span(0, 5, "PER"),)}
    # Texts that end with a line break come back equal, and nothing is noted.
    _doccano(src, [("Alice met Bob.\n", [[0, 5, "PER"]]), ("Carol\nleft.\n\n", [])])
    messages = convert(src, tmp_path / "out2", to="webanno-tsv")
    assert not [m for m in messages if m.startswith("note")]
    assert load_path(tmp_path / "out2").texts == {"1": "Alice met Bob.\n",
                                                  "2": "Carol\nleft.\n\n"}


def test_conll_refusal_says_unspaced_text_is_one_token(tmp_path: Path) -> None:
    from core.model.errors import FormatError

    src = _doccano(tmp_path / "in.jsonl", [(CJK, [[2, 4, "W1"], [10, 12, "W2"]])])
    with pytest.raises(FormatError) as exc:
        convert(src, tmp_path / "out.conll", to="conll")
    assert str(exc.value) == (
        f"{tmp_path / 'out.conll'}: document '1': spans [2, 4) 'W1' and [10, 12) 'W2' share a "
        "token; a CoNLL tag column holds one label per token (the token is 30 characters long: "
        "the text has no spaces between words, so a whole sentence is one token; webanno-tsv "
        "and spacy (OUT.spacy) cut tokens at span edges instead)")


def test_adjudicate_min_agree_above_the_annotators_shows_its_own_usage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from core.cli import main

    src = _doccano(tmp_path / "a.jsonl", [(ENGLISH, [[0, 4, "X"]])])
    status = main(["adjudicate", str(src), str(src), "--min-agree", "3", "-o",
                   str(tmp_path / "c.jsonl"), "--to", "doccano"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("usage: python -m core adjudicate [-h] --min-agree K")
    assert err.endswith("\npython -m core adjudicate: error: --min-agree 3 is more than the 2 "
                        "annotators given (each annotation set is one annotator)\n")
    assert not (tmp_path / "c.jsonl").exists()
