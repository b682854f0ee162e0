"""A CoNLL token that is a no-break space (U+00A0) is a token (wild11 tour).

A Vietnamese NER corpus (dungdx34/vtner@38bd858, ``data/dev.conll``: token, POS and tag
columns separated by tabs) has rows whose token is one U+00A0, a character its tokenizer kept
(``\\u00a0\\tN\\tO``). ``str.strip()`` counts U+00A0 as whitespace, so the row was taken for
an empty token column and the whole file refused ("expected a token, got an empty column").
Only the ASCII blanks around a tab-separated token are taken off now. The rows below are ours.
"""

from __future__ import annotations

import pytest

from core.formats import ReadOptions, load_files
from core.model.errors import FormatError

ROWS = ["Anh\tN\tO", "Tân\tNp\tB-PER", "\u00a0\tN\tO", "ở\tE\tO", "Hà_Nội\tNp\tB-LOC", ""]


def _read(rows: list[str]) -> tuple[str, list[tuple[int, int, str]]]:
    loaded = load_files({"dev.conll": "\n".join(rows).encode()}, fmt="conll",
                        options=ReadOptions())
    (doc, spans), = loaded.sets[0].spans.items()
    text = loaded.texts[doc]
    assert text is not None
    return text, [(s.start, s.end, s.label) for s in spans]


def test_a_no_break_space_token_is_read_and_the_spans_after_it_are_right() -> None:
    text, spans = _read(ROWS)
    assert text == "Anh Tân \u00a0 ở Hà_Nội"
    assert [(text[s:e], lab) for s, e, lab in spans] == [("Tân", "PER"), ("Hà_Nội", "LOC")]


def test_a_token_column_of_blanks_is_still_refused() -> None:
    with pytest.raises(FormatError) as exc:
        _read(["Anh\tN\tO", " \tN\tO", ""])
    assert str(exc.value) == ("dev.conll:2: field 'column 1': expected a token, got an empty "
                              "column")
