"""``convert --to conll`` writes the input's own tokens when its reader keeps them (WebAnno
TSV, a spaCy DocBin, CoNLL itself), and splits the text at whitespace only when the input has
none (clitour4 F3: an INCEpTION TSV whose ``Alžir,`` is two tokens lost its spans' edges to a
whitespace split, ``Alžir,`` B-LOC). The convert note says which. Our own texts, in the layout
of te-sla/webanno-spacy-converter's ``test_data/output.tsv`` (``tests/data/wild``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, load_path
from core.formats.tools import convert

TSV = """#FORMAT=WebAnno TSV 3.3
#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value


#Text=Alžir, kao zemlja u Africi.
1-1\t0-5\tAlžir\tLOC\t
1-2\t5-6\t,\t_\t
1-3\t7-10\tkao\t_\t
1-4\t11-17\tzemlja\t_\t
1-5\t18-19\tu\t_\t
1-6\t20-26\tAfrici\tLOC\t
1-7\t26-27\t.\t_\t

#Text=Drugi red.
2-1\t28-33\tDrugi\t_\t
2-2\t34-37\tred\t_\t
2-3\t37-38\t.\t_\t
"""

TOKENS = ["Alžir", ",", "kao", "zemlja", "u", "Africi", ".", "", "Drugi", "red", "."]


def _rows(path: Path) -> list[tuple[str, str]]:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[:2] == ["-DOCSTART-\tdoc\tO", ""]
    return [tuple(line.split("\t")) if line else ("", "")  # type: ignore[misc]
            for line in lines[2:-2]]


def test_webanno_tsv_tokens_are_written_and_the_spans_keep_their_edges(tmp_path: Path) -> None:
    src = tmp_path / "doc.tsv"
    src.write_text(TSV, encoding="utf-8")
    out = tmp_path / "doc.conll"
    messages = convert(src, out, to="conll")
    assert [t for t, _ in _rows(out)] == TOKENS
    assert [t for _, t in _rows(out)] == ["B-LOC", "O", "O", "O", "O", "B-LOC", "O", "", "O",
                                         "O", "O"]
    assert not any("widened" in m for m in messages)
    assert "note: the tokens written are the input's own (webanno-tsv, 1 document)" in messages
    gold = load_path(src)
    back = load_path(out)
    spans = [(back.texts["doc"][s.start:s.end], s.label) for s in back.sets[0].spans["doc"]]
    assert spans == [("Alžir", "LOC"), ("Africi", "LOC")]
    assert len(gold.sets[0].spans["doc"]) == 2


def test_score_of_the_tsv_against_its_conll_is_one(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "doc.tsv"
    src.write_text(TSV, encoding="utf-8")
    out = tmp_path / "doc.conll"
    convert(src, out, to="conll")
    assert main(["score", str(src), str(out), "--metric", "martino", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["precision"], result["recall"], result["f1"]) == (1.0, 1.0, 1.0)


def test_conll_tokens_with_a_space_survive_a_round_trip(tmp_path: Path) -> None:
    src = tmp_path / "in.conll"
    src.write_text("New York\tB-LOC\nis\tO\nbig\tO\n\n", encoding="utf-8")
    out = tmp_path / "out.conll"
    messages = convert(src, out, to="conll")
    assert out.read_text(encoding="utf-8").split("\n")[2:5] == [
        "New York\tB-LOC", "is\tO", "big\tO"]
    assert "note: the tokens written are the input's own (conll, 1 document)" in messages


def test_docbin_tokens_are_written(tmp_path: Path) -> None:
    import spacy  # optional for users, in requirements-dev.txt for the tests
    from spacy.tokens import Doc, DocBin

    nlp = spacy.blank("xx")
    doc = Doc(nlp.vocab, words=["Alžir", ",", "kao", "Africi", "."],
              spaces=[False, True, True, False, False])
    doc.ents = [doc.char_span(0, 5, label="LOC"), doc.char_span(11, 17, label="LOC")]
    src = tmp_path / "ex.spacy"
    src.write_bytes(DocBin(docs=[doc]).to_bytes())
    out = tmp_path / "ex.conll"
    messages = convert(src, out, to="conll")
    assert out.read_text(encoding="utf-8").split("\n")[2:7] == [
        "Alžir\tB-LOC", ",\tO", "kao\tO", "Africi\tB-LOC", ".\tO"]
    assert not any("widened" in m for m in messages)
    assert "note: the tokens written are the input's own (spacy, 1 document)" in messages


def test_an_input_without_tokens_is_split_at_whitespace_and_the_note_says_so(
        tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "text": "Alžir, kao.",
                               "spans": [{"start": 0, "end": 5, "label": "LOC"}]}) + "\n",
                   encoding="utf-8")
    out = tmp_path / "out.conll"
    messages = convert(src, out, to="conll")
    assert out.read_text(encoding="utf-8").split("\n")[2:4] == ["Alžir,\tB-LOC", "kao.\tO"]
    assert ("note: the input (spacy) carries no tokens: the tokens written are its text split "
            "at whitespace") in messages
    assert any("widened to whole tokens" in m for m in messages)


def test_readers_keep_tokens_only_when_asked(tmp_path: Path) -> None:
    src = tmp_path / "doc.tsv"
    src.write_text(TSV, encoding="utf-8")
    assert load_path(src).tokens is None
    kept = load_path(src, options=ReadOptions(keep_tokens=True))
    assert kept.tokens is not None
    text = kept.texts["doc"]
    assert [[text[s:e] for s, e in sent] for sent in kept.tokens["doc"]] == [
        TOKENS[:7], TOKENS[8:]]


def test_prodigy_tokens_are_the_tokens_written(tmp_path: Path) -> None:
    # argrecsys/decide-madrid-2019-annotations (tests/data/wild): Prodigy tasks carry the
    # tokens the annotator marked on; the CoNLL writer said "carries no tokens", split the
    # text at whitespace and widened 170 of 196 spans over their final full stop.
    text = "Alžir, kao.\nDa."
    tokens = [(0, 5), (5, 6), (7, 10), (10, 11), (11, 12), (12, 14), (14, 15)]
    task = {"text": text, "_input_hash": 1, "_task_hash": 2, "answer": "accept",
            "tokens": [{"text": text[s:e], "start": s, "end": e, "id": k, "ws": False}
                       for k, (s, e) in enumerate(tokens)],
            "spans": [{"start": 0, "end": 5, "token_start": 0, "token_end": 0, "label": "LOC"},
                      {"start": 7, "end": 10, "token_start": 2, "token_end": 2, "label": "X"}]}
    src = tmp_path / "intra_ivan.jsonl"
    src.write_text(json.dumps(task) + "\n", encoding="utf-8")
    out = tmp_path / "out.conll"
    messages = convert(src, out, to="conll")
    assert out.read_text(encoding="utf-8").split("\n")[2:10] == [
        "Alžir\tB-LOC", ",\tO", "kao\tB-X", ".\tO", "", "Da\tO", ".\tO", ""]
    assert "note: the tokens written are the input's own (spacy, 1 document)" in messages
    assert not any("widened" in m for m in messages)


def test_prodigy_tokens_outside_the_text_are_not_used(tmp_path: Path) -> None:
    # marendtz/LabelNER: a transformer's "<s>" token at [0, 0) and tokens past an edited text
    task = {"text": "Ada, Bob", "_input_hash": 1, "_task_hash": 2, "answer": "accept",
            "tokens": [{"text": "<s>", "start": 0, "end": 0}, {"text": "Ada", "start": 0,
                                                              "end": 3},
                       {"text": ",", "start": 3, "end": 4}, {"text": "Bob", "start": 5,
                                                            "end": 12}],
            "spans": [{"start": 0, "end": 3, "label": "PER"}]}
    src = tmp_path / "t.jsonl"
    src.write_text(json.dumps(task) + "\n", encoding="utf-8")
    out = tmp_path / "out.conll"
    messages = convert(src, out, to="conll")
    assert out.read_text(encoding="utf-8").split("\n")[2:4] == [
        "Ada,\tB-PER", "Bob\tO"]
    assert any("carries no tokens" in m for m in messages)


def test_a_span_trimmed_to_its_tokens_is_not_said_to_be_widened(tmp_path: Path) -> None:
    # mariiaanisimova/UNSCdebates_annotated (tests/data/wild): doccano spans that end in a
    # space were said to be "widened to whole tokens [1046, 1117)" from [1046, 1118).
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "text": "we act together now", "label": [
        [3, 16, "J"], [0, 2, "K"]]}) + "\n", encoding="utf-8")
    messages = convert(src, tmp_path / "out.conll", to="conll")
    (note,) = [m for m in messages if "whole tokens" in m]
    assert note == ("note: 1 spans are fitted to whole tokens (widened, or trimmed of white "
                    "space at their edges) or cut at line breaks, e.g. document '1': the span "
                    "[3, 16) 'J' is trimmed to its tokens [3, 15)")
