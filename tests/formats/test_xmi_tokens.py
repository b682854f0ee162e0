"""``convert --to conll`` of UIMA XMI writes the CAS's own ``Token`` annotations, grouped by
its ``Sentence`` annotations (as for WebAnno TSV, a spaCy DocBin and CoNLL), instead of the
text split at whitespace, which glued ``Hessen.`` into one token and widened the span on
``Hessen`` to it. The file is a real INCEpTION export: ``relation_test.xmi`` and its
``TypeSystem.xml`` from inception-project/inception (Apache-2.0; provenance in
``tests/data/README.md``), read here as the zip INCEpTION's export gives."""

from __future__ import annotations

import zipfile
from pathlib import Path

from core.formats import ReadOptions, load_path
from core.formats.tools import convert

EXPORT = Path(__file__).resolve().parents[1] / "data" / "formats" / "inception" / "xmi_stringmatch"
TOKENS = [["Darmstadt", "is", "in", "Hessen", "."],
          ["Hannover", "is", "in", "Lower", "Saxony", "."]]


def _zip(tmp_path: Path) -> Path:
    out = tmp_path / "export.zip"
    with zipfile.ZipFile(out, "w") as zf:
        for name in ("TypeSystem.xml", "relation_test.xmi"):
            zf.write(EXPORT / name, name)
    return out


def test_xmi_tokens_and_sentences_are_kept_when_asked(tmp_path: Path) -> None:
    src = _zip(tmp_path)
    assert load_path(src).tokens is None
    kept = load_path(src, options=ReadOptions(keep_tokens=True))
    text = kept.texts["relation_test"]
    assert text is not None and kept.tokens is not None
    assert [[text[s:e] for s, e in sent] for sent in kept.tokens["relation_test"]] == TOKENS


def test_xmi_to_conll_writes_the_cas_tokens_and_the_spans_keep_their_edges(
        tmp_path: Path) -> None:
    src = _zip(tmp_path)
    out = tmp_path / "out.conll"
    messages = convert(src, out, to="conll")
    lines = out.read_text(encoding="utf-8").split("\n")
    assert lines[:2] == ["-DOCSTART-\trelation_test\tO", ""]
    rows = [line.split("\t") for line in lines[2:] if line]
    assert [r[0] for r in rows] == TOKENS[0] + TOKENS[1]
    assert [r[1] for r in rows] == ["B-city", "O", "O", "B-state", "O",
                                    "B-city", "O", "O", "B-state", "I-state", "O"]
    assert lines[7] == ""  # the CAS's two sentences are two CoNLL sentences
    assert "note: the tokens written are the input's own (uima-xmi, 1 document)" in messages
    assert not any("widened" in m for m in messages)
    gold, back = load_path(src), load_path(out)
    spans = [(back.texts["relation_test"][s.start:s.end], s.label)  # type: ignore[index]
             for s in back.sets[0].spans["relation_test"]]
    assert spans == [("Darmstadt", "city"), ("Hessen", "state"), ("Hannover", "city"),
                     ("Lower Saxony", "state")]
    text = gold.texts["relation_test"]
    assert [(text[s.start:s.end], s.label)  # type: ignore[index]
            for s in gold.sets[0].spans["relation_test"]] == spans


def test_xmi_tokens_outside_every_sentence_are_grouped_by_line(tmp_path: Path) -> None:
    xmi = (EXPORT / "relation_test.xmi").read_text(encoding="utf-8")
    without = "\n".join(line for line in xmi.split("\n") if ":Sentence " not in line)
    without = without.replace(' members="8 19 24 ', ' members="8 ')
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "TypeSystem.xml").write_bytes((EXPORT / "TypeSystem.xml").read_bytes())
    (folder / "relation_test.xmi").write_text(without, encoding="utf-8")
    kept = load_path(folder, options=ReadOptions(keep_tokens=True))
    text = kept.texts["relation_test"]
    assert text is not None and kept.tokens is not None
    assert [[text[s:e] for s, e in sent] for sent in kept.tokens["relation_test"]] == TOKENS
