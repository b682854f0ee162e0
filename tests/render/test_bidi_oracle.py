"""``core.render.bidi`` against GNU FriBidi and against rules of UAX #9 worked by hand.

``tests/data/bidi/fribidi_levels.jsonl`` holds the embedding levels FriBidi 1.0.8 computed
(once, by ``tests/data/bidi/make_levels.py``) for the lines of the first comparison, the texts
of ``tests/data/rtl/`` and seeded random mixes of Hebrew, Arabic, Latin, digits, brackets,
punctuation, spaces, marks, explicit embeddings, overrides and isolates, each line in a given
paragraph direction. Ours must equal them on every line: no exceptions.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from core.render import bidi

ORACLE = Path(__file__).resolve().parents[1] / "data" / "bidi" / "fribidi_levels.jsonl"


def _oracle() -> tuple[dict[str, object], list[dict[str, object]]]:
    header, *rows = (json.loads(line) for line in
                     ORACLE.read_text(encoding="utf-8").splitlines())
    return header, rows


def test_levels_equal_fribidi_on_every_line_of_the_corpus() -> None:
    header, rows = _oracle()
    assert header["fribidi"] == "(GNU FriBidi) 1.0.8"
    texts = "".join(str(r["text"]) for r in rows)
    # The corpus exercises what the rules are about, not only plain text.
    assert len(rows) >= 400
    for kind in ("R", "AL", "L", "EN", "AN", "ES", "ET", "CS", "NSM", "BN", "S", "WS", "ON",
                 "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"):
        assert any(unicodedata.bidirectional(ch) == kind for ch in texts), kind
    assert sum(1 for r in rows if r["rtl"]) > 100 and sum(1 for r in rows if not r["rtl"]) > 100
    differ = [(r["text"], r["rtl"], bidi.levels(str(r["text"]), rtl=bool(r["rtl"])), r["levels"])
              for r in rows if bidi.levels(str(r["text"]), rtl=bool(r["rtl"])) != r["levels"]]
    assert differ == [], f"{len(differ)} of {len(rows)} lines differ from FriBidi: {differ[:3]}"


@pytest.mark.parametrize(("line", "rtl", "expected"), [
    # N0 b/c: "b" (L) inside is opposite to the paragraph's R; the context before "(" is R
    # (ג), so the pair takes R, and the space after ")" sits between R and L: R too.
    ("ג (b) a", True, [1, 1, 1, 2, 1, 1, 2]),
    # N0 c.1: the paragraph is R, "ef" (L) inside is opposite and so is the context before
    # "(", "cd": the pair takes L and joins the Latin run.
    ("אב cd(ef) גה", True, [1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 1]),
    # N0 b: Hebrew inside a pair in an L paragraph; the context "ab" is L: the pair is L.
    ("ab (גד) א", False, [0, 0, 0, 0, 1, 1, 0, 0, 1]),
    # BD16: "(" and "]" are no pair: N1 alone places them.
    ("א (b] c", True, [1, 1, 1, 2, 2, 2, 2]),
    # BD16 with canonical equivalents: U+2329 pairs with U+3009, U+3008 with U+232A.
    ("א \u2329b\u3009 c", True, [1, 1, 1, 2, 1, 1, 2]),
    ("א \u3008b\u232a c", True, [1, 1, 1, 2, 1, 1, 2]),
    # X2/X7: an RLE ... PDF embedding inside an L paragraph (the controls take the level
    # before them, the space inside the embedding its level 1).
    ("x \u202bאב\u202c y", False, [0, 0, 0, 1, 1, 1, 0, 0]),
    # X5a/X6a: an RLI isolate at level 3 in an R paragraph: its Latin text at level 4.
    ("\u2067abc\u2069 אב", True, [1, 4, 4, 4, 1, 1, 1, 1]),
    # X4: an RLO override makes Latin letters R; the PDF at the end of the line (removed by
    # X9) and the trailing space are reset by L1.
    ("a \u202ebc\u202c ", False, [0, 0, 0, 1, 1, 0, 0]),
])
def test_levels_follow_the_rules_worked_by_hand(line: str, rtl: bool,
                                               expected: list[int]) -> None:
    assert bidi.levels(line, rtl=rtl) == expected


def test_a_bracket_pair_shows_its_latin_text_inside_hebrew_as_one_block() -> None:
    """"ג (b) a" in an RTL paragraph: the brackets belong to the Hebrew run, so "(b)" is shown
    as ")b(" right of "a" (columns 2-4), not "b) a" as one Latin block."""
    assert bidi.visual_columns("ג (b) a", rtl=True) == [6, 5, 4, 3, 2, 1, 0]


def test_the_bracket_table_is_unicodes_rule_in_pythons_unicode_data() -> None:
    """BidiBrackets.txt derives its pairs from gc=Ps/Pe, bc=ON and Bidi_Mirrored=Y (U+FD3E/
    U+FD3F excepted): the table holds exactly such characters, as many as Python's Unicode
    data has."""
    opening, closing = bidi._OPENING, bidi._CLOSING
    assert len(opening) == len(closing) == 64
    for ch in opening:
        assert (unicodedata.category(ch), unicodedata.bidirectional(ch)) == ("Ps", "ON")
        assert unicodedata.mirrored(ch)
    for ch in closing:
        assert (unicodedata.category(ch), unicodedata.bidirectional(ch)) == ("Pe", "ON")
        assert unicodedata.mirrored(ch)
    every = {chr(c) for c in range(0x110000)
             if unicodedata.category(chr(c)) in ("Ps", "Pe")
             and unicodedata.bidirectional(chr(c)) == "ON" and unicodedata.mirrored(chr(c))}
    assert every == set(opening) | set(closing)
    assert opening["\u2329"] == opening["\u3008"] == closing["\u232a"] == closing["\u3009"]


WRAPPED = ORACLE.with_name("fribidi_wrapped.jsonl")
UNASSIGNED = ORACLE.with_name("fribidi_unassigned.json")


def test_wrapped_paragraphs_are_reordered_line_by_line_as_fribidi_does() -> None:
    """UAX #9 section 3.4: the levels are resolved on the whole paragraph, then each line is
    reset (L1) and reordered (L2) alone. FriBidi's ``fribidi_reorder_line`` does so on 203
    paragraphs cut at spaces (three of them with a bracket pair the cut splits); ours must give
    every line's columns as it does."""
    header, *rows = (json.loads(line) for line in
                     WRAPPED.read_text(encoding="utf-8").splitlines())
    assert header["fribidi"] == "(GNU FriBidi) 1.0.8" and len(rows) == 203
    differ = []
    for row in rows:
        lines = [(a, b) for a, b in row["lines"]]
        ours = [bidi.reorder(lv) for lv in bidi.line_levels(row["text"], lines,
                                                            rtl=row["rtl"])]
        if ours != row["columns"]:
            differ.append((row["text"], row["rtl"], lines))
    assert differ == [], f"{len(differ)} of {len(rows)} paragraphs differ: {differ[:2]}"


def test_a_bracket_pair_split_by_the_wrap_keeps_the_direction_the_pair_resolves_to() -> None:
    """"x אב (גד גד ... cd) הו" in an L paragraph, cut inside the brackets: the pair holds
    "cd" (L), so N0 makes "(" L and it stays left of the Hebrew that follows; resolved alone,
    the first line would see "(" between two Hebrew words and reverse it into them."""
    text = "x אב (" + "גד " * 8 + "cd) הו"
    lines = [(0, 14), (15, len(text))]
    first, _ = bidi.line_levels(text, lines, rtl=False)
    assert first[5] == 0 and bidi.levels(text[:14], rtl=False)[5] == 1


# The blocks whose Bidi_Class default FriBidi 1.0.8's Unicode 10.0.0 data does not have
# (DerivedBidiClass.txt's @missing lines of later versions, which Python's 14.0.0 follows):
# Syriac Supplement's tail and Arabic Extended-B (AL), the currency symbols (ET), the
# right-to-left blocks from Hanifi Rohingya to Sogdian, and those of plane 1 from Mende Kikakui
# on (R and AL; FriBidi leaves even the unassigned Arabic Mathematical Alphabetic Symbols L).
NEWER_DEFAULTS = [(0x0860, 0x08FF), (0x20A0, 0x20CF), (0x10D00, 0x10FFF), (0x1E800, 0x1EFFF)]


def test_unassigned_code_points_take_their_blocks_default_as_fribidi_gives_it() -> None:
    """A code point Python leaves unassigned is typed by its block (``R`` in the Hebrew block,
    ``AL`` in the Arabic ones, ``BN`` for noncharacters, else ``L``), never ``ON``: ours equal
    FriBidi's on every one of them outside the blocks whose default came after its data."""
    data = json.loads(UNASSIGNED.read_text(encoding="utf-8"))
    assert data["python_unicode"] == unicodedata.unidata_version
    checked, differ = 0, []
    for first, last, kind in data["runs"]:
        for code in range(first, last + 1):
            ch = chr(code)
            if unicodedata.bidirectional(ch) or 0xD800 <= code <= 0xDFFF:
                continue
            if any(a <= code <= b for a, b in NEWER_DEFAULTS):
                continue
            checked += 1
            if bidi.bidi_class(ch) != kind:
                differ.append((hex(code), kind, bidi.bidi_class(ch)))
    assert checked > 800_000 and differ == []
    # inside the newer blocks, DerivedBidiClass.txt's defaults
    assert [bidi.bidi_class(chr(c)) for c in (0x0892, 0x20CF, 0x10D3F, 0x10EC0, 0x1EC70,
                                              0x1EE04, 0x1EF00)] == [
        "AL", "ET", "AL", "AL", "AL", "AL", "R"]


def test_an_unassigned_hebrew_code_point_reads_right_to_left() -> None:
    """U+05FF is unassigned in the Hebrew block: R, so a line starting with it is RTL and it
    joins the Hebrew run (it was ON, a neutral that took the Latin direction after it)."""
    assert bidi.is_rtl("\u05ff abc")
    assert bidi.levels("ab \u05ffא cd", rtl=False) == [0, 0, 0, 1, 1, 0, 0, 0]
