"""The tokens a WebAnno TSV 3 document keeps for ``convert --to conll`` (wild12 tour).

``TsvDocument.token_sentences`` turned each token's UTF-16 offsets into string indices one
token at a time, with a table of every character of the text built again on each call, and
read each token's row id with a search of its own; the units' offsets in code points are
computed once (``_unit_offsets``, which ``spans_of`` uses too) and are now shared. The tokens
must be the same: offsets after a character beyond the Basic Multilingual Plane (an emoji, two
UTF-16 units) moved back by one, sub-tokens (``1-2.1``) left out, a sentence per row number.
The document below is ours, made as INCEpTION writes TSV 3.3.
"""

from __future__ import annotations

import time

from core.formats import ReadOptions, load_files

TSV = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n"
    "\n\n"
    "#Text=Hi \U0001F600 Anna.\n"
    "1-1\t0-2\tHi\t_\t\n"
    "1-2\t3-5\t\U0001F600\t_\t\n"
    "1-3\t6-10\tAnna\tPER\t\n"
    "1-3.1\t6-8\tAn\t_\t\n"
    "1-4\t10-11\t.\t_\t\n"
    "\n"
    "#Text=Bye Bob\n"
    "2-1\t12-15\tBye\t_\t\n"
    "2-2\t16-19\tBob\tPER\t\n"
)


def _read(tsv: str) -> tuple[str, list[list[tuple[int, int]]], list[tuple[int, int, str]]]:
    loaded = load_files({"doc.tsv": tsv.encode()}, fmt="webanno-tsv",
                        options=ReadOptions(keep_tokens=True))
    ((doc_id, text),) = loaded.texts.items()
    assert loaded.tokens is not None
    (aset,) = loaded.sets
    return text or "", loaded.tokens[doc_id], [(s.start, s.end, s.label)
                                               for s in aset.spans[doc_id]]


def test_tokens_after_an_emoji_are_counted_in_code_points_and_sub_tokens_left_out() -> None:
    text, sentences, spans = _read(TSV)
    assert text == "Hi \U0001F600 Anna.\nBye Bob\n"
    assert [[text[b:e] for b, e in sentence] for sentence in sentences] == [
        ["Hi", "\U0001F600", "Anna", "."], ["Bye", "Bob"]]
    assert [(text[b:e], lab) for b, e, lab in spans] == [("Anna", "PER"), ("Bob", "PER")]


def test_a_long_document_with_an_emoji_keeps_its_tokens_quickly() -> None:
    rows = ["#FORMAT=WebAnno TSV 3.3",
            "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value", "", ""]
    at = 0
    for s in range(1, 2001):
        words = ["\U0001F600", *[f"w{s}x{k}" for k in range(1, 25)]]
        rows.append("#Text=" + " ".join(words))
        for k, word in enumerate(words, start=1):
            width = 2 if word.startswith("\U0001F600") else len(word)
            rows.append(f"{s}-{k}\t{at}-{at + width}\t{word}\t_\t")
            at += width + 1
        rows.append("")
    started = time.perf_counter()
    text, sentences, _ = _read("\n".join(rows) + "\n")
    elapsed = time.perf_counter() - started
    assert len(sentences) == 2000 and all(len(s) == 25 for s in sentences)
    assert text[slice(*sentences[-1][-1])] == "w2000x24"
    assert elapsed < 10  # 50,000 tokens; about 1 s on a loaded 2-core machine
