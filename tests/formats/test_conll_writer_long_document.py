"""The CoNLL writer on one long document: each span's tokens are looked up between the token
that holds its start and the first token at or after its end, not scanned to the end of the
document (that made a 118,000-token INCEpTION export of classical Arabic, 15,000 spans, take
minutes to ``convert --to conll``; ``bench/bench_conll_writer.py`` measures it). The tags must
be those of the rule itself: a token is in a span when they overlap, the first token of a span
(or of its part in a sentence) is B-, the others I-."""

from __future__ import annotations

import random

from core.formats import load_files, write_files
from core.model import AnnotationSet, Span


def _document(seed: int) -> tuple[str, list[Span], list[str]]:
    """A text of 400 lines of words, spans over runs of one to three words of a line, and
    the tag of every token by the rule."""
    rnd = random.Random(seed)
    words = ["qala", "haddathana", "ibn", "malik", "an", "abi", "hurayra", "rasul", "allah"]
    lines, spans, tags, pos = [], [], [], 0
    for _ in range(400):
        row = [rnd.choice(words) for _ in range(rnd.randint(3, 12))]
        offsets = []
        for w in row:
            offsets.append((pos, pos + len(w)))
            pos += len(w) + 1
        k = 0
        while k < len(row):
            width = rnd.randint(1, 3)
            if rnd.random() < 0.3 and k + width <= len(row):
                label = rnd.choice(["SND", "PER"])
                spans.append(Span(offsets[k][0], offsets[k + width - 1][1], label))
                tags += [f"B-{label}"] + [f"I-{label}"] * (width - 1)
                k += width
            else:
                tags.append("O")
                k += 1
        lines.append(" ".join(row))
    return "\n".join(lines), spans, tags


def test_a_long_document_is_tagged_by_the_rule_and_reads_back() -> None:
    text, spans, expected = _document(7)
    assert len(spans) > 300 and len(text.split()) > 2500
    aset = AnnotationSet("g", {"d": tuple(sorted(spans))}, "gold")
    [(name, body)] = write_files("conll", {"d": text}, [aset]).items()
    tags = [line.split()[-1] for line in body.splitlines()
            if line.strip() and not line.startswith("-DOCSTART-")]
    assert tags == expected
    back = load_files({name: body.encode()}, fmt="conll", name=name)
    assert sum(len(v) for v in back.sets[0].spans.values()) == len(spans)
