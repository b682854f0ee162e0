"""Where each character of a line of text is drawn when the text mixes directions.

A browser lays out right-to-left text (Arabic, Hebrew) by the Unicode Bidirectional Algorithm
(UAX #9, https://www.unicode.org/reports/tr9/): it resolves an embedding level per character and
reverses the runs of odd levels. The HTML view leaves this to the browser (``dir="auto"``); the
SVG export draws a stripe under each span at the column its characters are shown in, so it has
to know those columns itself. :func:`visual_columns` implements the algorithm for one line of
plain text taken as one paragraph: the paragraph level of rule P2/P3 (as ``dir="auto"`` takes
it, :func:`is_rtl`), the explicit embeddings, overrides and isolates X1-X10 (U+202A-U+202E,
U+2066-U+2069), the weak types W1-W7, the paired brackets N0 (BD14-BD16), the neutrals N1/N2,
the implicit levels I1/I2, the reset of separators and trailing whitespace L1 and the
reordering L2. The characters X9 removes (embedding controls, ``BN`` such as U+200C or the soft
hyphen) take the level of the character before them, as the UAX #9 reference implementation
(and GNU FriBidi) assigns them.

A paragraph longer than a line is resolved whole and only then cut into lines (UAX #9 section
3.4, "Reordering Resolved Levels": L1 and L2 apply per line to the levels resolved on the
paragraph): :func:`line_levels`, so a bracket pair that the wrap splits keeps the direction the
pair resolves to. A code point that Python's Unicode data leaves unassigned takes the
Bidi_Class default of its block (:func:`bidi_class`: ``R`` in the Hebrew block, ``AL`` in the
Arabic one, ``BN`` for a noncharacter, ..., else ``L``), as ``DerivedBidiClass.txt`` states.

``tests/data/bidi/`` holds the levels GNU FriBidi computes for a corpus of mixed lines, and its
line-by-line reordering of wrapped paragraphs; the tests compare ours with them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

_STRONG_RTL = frozenset({"R", "AL"})
_ISOLATE_INITIATORS = frozenset({"LRI", "RLI", "FSI"})
# Removed by X9: not part of any level run; each takes the level of the character before it.
_REMOVED = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "BN"})
_EXPLICIT = _REMOVED | _ISOLATE_INITIATORS | {"PDI", "B"}
# L1: a run of these before a separator (S, B) or at the end of the line is reset.
_TRAILING = _REMOVED | _ISOLATE_INITIATORS | {"PDI", "WS"}
_MAX_DEPTH = 125  # BD2
_MAX_BRACKET_DEPTH = 63  # BD16

# Bidi_Paired_Bracket and Bidi_Paired_Bracket_Type (Open, Close), from the Unicode Character
# Database file BidiBrackets.txt (Unicode 7.0.0, with the four pairs U+2E55-U+2E5C that Unicode
# 14.0.0 added: Python's unicodedata is 14.0.0). Each entry is an opening bracket and its
# closing one; a fact table, (c) Unicode, Inc., used under the Unicode terms of use
# (https://www.unicode.org/terms_of_use.html).
_BRACKET_PAIRS = """
0028 0029  005B 005D  007B 007D  0F3A 0F3B  0F3C 0F3D  169B 169C  2045 2046  207D 207E
208D 208E  2308 2309  230A 230B  2329 232A  2768 2769  276A 276B  276C 276D  276E 276F
2770 2771  2772 2773  2774 2775  27C5 27C6  27E6 27E7  27E8 27E9  27EA 27EB  27EC 27ED
27EE 27EF  2983 2984  2985 2986  2987 2988  2989 298A  298B 298C  298D 2990  298F 298E
2991 2992  2993 2994  2995 2996  2997 2998  29D8 29D9  29DA 29DB  29FC 29FD  2E22 2E23
2E24 2E25  2E26 2E27  2E28 2E29  2E55 2E56  2E57 2E58  2E59 2E5A  2E5B 2E5C  3008 3009
300A 300B  300C 300D  300E 300F  3010 3011  3014 3015  3016 3017  3018 3019  301A 301B
FE59 FE5A  FE5B FE5C  FE5D FE5E  FF08 FF09  FF3B FF3D  FF5B FF5D  FF5F FF60  FF62 FF63
"""


def _bracket_tables() -> tuple[dict[str, str], dict[str, str]]:
    """Each opening bracket and each closing one mapped to its pair's key (the opening bracket;
    U+2329/U+232A are canonically equivalent to U+3008/U+3009, and BD16 matches them so)."""
    codes = [chr(int(c, 16)) for c in _BRACKET_PAIRS.split()]
    opening, closing = {}, {}
    for o, c in zip(codes[::2], codes[1::2], strict=True):
        key = unicodedata.normalize("NFC", o)
        opening[o], closing[c] = key, key
    return opening, closing


_OPENING, _CLOSING = _bracket_tables()
_BRACKET_RE = re.compile("[" + re.escape("".join([*_OPENING, *_CLOSING])) + "]")
# What a resolved type counts as in N0-N2 and I1/I2: L, R, a number (D, an R for the neutral
# rules, two levels up in an L embedding) or a neutral (N).
_CLASS = {"L": "L", "R": "R", "EN": "D", "AN": "D"}

# The Bidi_Class of an unassigned code point (Unicode Character Database, extracted/
# DerivedBidiClass.txt, its @missing lines and the unassigned code points listed as BN: the
# noncharacters and Default_Ignorable_Code_Point), checked against every code point that
# Python's Unicode 14.0.0 data leaves unassigned; every other code point defaults to L. A fact
# table, (c) Unicode, Inc., used under the Unicode terms of use
# (https://www.unicode.org/terms_of_use.html). First code point, last one, class.
_DEFAULTS = """
0590 05FF R  0600 07BF AL  07C0 085F R  0860 08FF AL  2065 2065 BN  20A0 20CF ET
FB1D FB4F R  FB50 FDCF AL  FDD0 FDEF BN  FDF0 FDFF AL  FE70 FEFF AL  FFF0 FFF8 BN
10800 10CFF R  10D00 10D3F AL  10D40 10EBF R  10EC0 10EFF AL  10F00 10F2F R  10F30 10F6F AL
10F70 10FFF R  1E800 1EC6F R  1EC70 1ECBF AL  1ECC0 1ECFF R  1ED00 1ED4F AL  1ED50 1EDFF R
1EE00 1EEFF AL  1EF00 1EFFF R  E0000 E0FFF BN
"""


def _default_table() -> list[tuple[int, int, str]]:
    fields = _DEFAULTS.split()
    return [(int(a, 16), int(b, 16), kind)
            for a, b, kind in zip(fields[::3], fields[1::3], fields[2::3], strict=True)]


_DEFAULT_RANGES = _default_table()


def bidi_class(ch: str) -> str:
    """The Bidi_Class of ``ch``: Python's Unicode data, and for a code point it leaves
    unassigned the default of its block (UAX #9 section 3.2 and ``DerivedBidiClass.txt``):
    ``R`` or ``AL`` in the right-to-left blocks, ``ET`` among the currency symbols, ``BN`` for a
    noncharacter (U+FDD0-U+FDEF, the last two of each plane) or an unassigned default
    ignorable, ``L`` elsewhere.

    >>> bidi_class("a"), bidi_class("\u05ff"), bidi_class("\u07bb"), bidi_class("\U0010ffff")
    ('L', 'R', 'AL', 'BN')
    >>> bidi_class("\u0378")  # unassigned in the Greek block
    'L'
    """
    kind = unicodedata.bidirectional(ch)
    if kind:
        return kind
    code = ord(ch)
    if code & 0xFFFE == 0xFFFE:
        return "BN"
    for first, last, default in _DEFAULT_RANGES:
        if first <= code <= last:
            return default
    return "L"


def is_rtl(text: str) -> bool:
    """Whether ``text`` reads right to left: its first strong character is right-to-left (rules
    P2/P3, what ``dir="auto"`` decides in a browser); a text without one reads left to right.

    >>> is_rtl("123 שלום world"), is_rtl("hello שלום"), is_rtl("12 ...")
    (True, False, False)
    """
    for ch in text:
        kind = bidi_class(ch)
        if kind == "L":
            return False
        if kind in _STRONG_RTL:
            return True
    return False


def _runs(types: list[str], kind: str) -> Iterator[tuple[int, int]]:
    """The maximal runs ``types[i:j]`` of ``kind``, left to right (a caller may rewrite the run
    it is given, as W5 does, but not what follows it).

    >>> list(_runs(["N", "L", "N", "N"], "N"))
    [(0, 1), (2, 4)]
    """
    i = 0
    while i < len(types):
        if types[i] != kind:
            i += 1
            continue
        j = i
        while j < len(types) and types[j] == kind:
            j += 1
        yield i, j
        i = j


def _weak(types: list[str], sos: str) -> list[str]:
    """Rules W1-W7 on one isolating run sequence's types (rewritten in place), then each
    character's class for the neutral rules: ``L``, ``R``, ``D`` (a number) or ``N``."""
    prev = sos
    for i, t in enumerate(types):  # W1: a mark takes the type before it (ON after an isolate)
        if t == "NSM":
            types[i] = prev
        else:
            prev = "ON" if t in _ISOLATE_INITIATORS or t == "PDI" else t
    strong = sos  # W2: a European number after Arabic letters is an Arabic number
    for i, t in enumerate(types):
        if t in ("L", "R", "AL"):
            strong = t
        elif t == "EN" and strong == "AL":
            types[i] = "AN"
    for i, t in enumerate(types):  # W3
        if t == "AL":
            types[i] = "R"
    for i in range(1, len(types) - 1):  # W4: one separator between two numbers of a kind
        left, mid, right = types[i - 1], types[i], types[i + 1]
        if left == right == "EN" and mid in ("ES", "CS"):
            types[i] = "EN"
        elif left == right == "AN" and mid == "CS":
            types[i] = "AN"
    if "ET" in types:
        for i, j in _runs(types, "ET"):  # W5: terminators (%, $, °) next to a European number
            if (i > 0 and types[i - 1] == "EN") or (j < len(types) and types[j] == "EN"):
                types[i:j] = ["EN"] * (j - i)
    strong = sos  # W7 (W6: other separators are neutral): a number after L text is L
    out: list[str] = []
    for t in types:
        if t == "L" or t == "R":
            strong = t
            out.append(t)
        elif t == "EN":
            out.append("L" if strong == "L" else "D")
        else:
            out.append(_CLASS.get(t, "N"))
    return out


def _brackets(chars: str, types: list[str]) -> list[tuple[int, int]]:
    """BD16: the bracket pairs of a sequence (``types`` after W1-W7, a bracket only while
    ``ON``), sorted by their opening brackets."""
    stack: list[tuple[str, int]] = []
    pairs: list[tuple[int, int]] = []
    for m in _BRACKET_RE.finditer(chars):
        i, ch = m.start(), m.group()
        if types[i] != "ON":
            continue
        if ch in _OPENING:
            if len(stack) == _MAX_BRACKET_DEPTH:
                break
            stack.append((_OPENING[ch], i))
            continue
        key = _CLOSING.get(ch)
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == key:
                pairs.append((stack[depth][1], i))
                del stack[depth:]
                break
    pairs.sort()
    return pairs


def _resolve(chars: str, types: list[str], level: int, sos: str, eos: str) -> list[int]:
    """The levels of one isolating run sequence (its characters and their types after X1-X9,
    at embedding ``level``, between ``sos`` and ``eos``): W1-W7, N0, N1/N2, I1/I2."""
    # N0 needs to know which characters were marks before W1 (without any, nothing to copy)
    original = types.copy() if "NSM" in types else types
    cls = _weak(types, sos)
    e = "R" if level % 2 else "L"
    if _BRACKET_RE.search(chars):  # N0: a bracket pair takes a direction found inside it
        for o, c in _brackets(chars, types):
            inside = cls[o + 1:c]
            found = ""
            if e in inside or (e == "R" and "D" in inside):
                found = e
            elif "L" in inside or "R" in inside or "D" in inside:
                before = sos
                for k in range(o - 1, -1, -1):
                    if cls[k] != "N":
                        before = "R" if cls[k] == "D" else cls[k]
                        break
                found = before  # the opposite direction if the context has it, else e
            if found:
                for k in (o, c):  # the marks after a bracket follow it
                    end = k + 1
                    while end < len(cls) and original[end] == "NSM":
                        end += 1
                    cls[k:end] = [found] * (end - k)
    for i, j in _runs(cls, "N"):  # N1/N2: neutrals between two agreeing directions take it
        before = sos if i == 0 else ("R" if cls[i - 1] == "D" else cls[i - 1])
        after = eos if j == len(cls) else ("R" if cls[j] == "D" else cls[j])
        cls[i:j] = [before if before == after else e] * (j - i)
    if level % 2:  # I1/I2
        up = {"R": level, "L": level + 1, "D": level + 1}
    else:
        up = {"L": level, "R": level + 1, "D": level + 2}
    return [up[c] for c in cls]


def _isolate_matches(types: list[str]) -> dict[int, int]:
    """BD9: each isolate initiator's matching PDI (a paragraph separator ends them all)."""
    open_: list[int] = []
    matches: dict[int, int] = {}
    for i, t in enumerate(types):
        if t in _ISOLATE_INITIATORS:
            open_.append(i)
        elif t == "PDI" and open_:
            matches[open_.pop()] = i
        elif t == "B":
            open_.clear()
    return matches


def _first_strong_rtl(types: list[str], start: int, end: int, matches: dict[int, int]) -> bool:
    """P2/P3 on ``types[start:end]``, skipping isolates: whether it reads right to left."""
    i = start
    while i < end:
        t = types[i]
        if t == "L":
            return False
        if t in _STRONG_RTL:
            return True
        i = matches.get(i, end) + 1 if t in _ISOLATE_INITIATORS else i + 1
    return False


def _explicit(types: list[str], base: int, matches: dict[int, int]) -> list[int]:
    """X1-X8: each character's explicit embedding level; ``types`` of the characters under an
    override are rewritten to ``L`` or ``R`` in place."""
    n = len(types)
    stack = [(base, "", False)]  # (level, override L/R or "", opened by an isolate initiator)
    overflow_isolates = overflow_embeddings = valid_isolates = 0
    out = [base] * n
    for i, t in enumerate(types):
        level, override, _ = stack[-1]
        if t in ("RLE", "LRE", "RLO", "LRO"):  # X2-X5
            new = (level + 1) | 1 if t[0] == "R" else (level + 2) & ~1
            out[i] = level
            if new <= _MAX_DEPTH and not overflow_isolates and not overflow_embeddings:
                stack.append((new, {"RLO": "R", "LRO": "L"}.get(t, ""), False))
            elif not overflow_isolates:
                overflow_embeddings += 1
        elif t in _ISOLATE_INITIATORS:  # X5a-X5c
            out[i] = level
            if override:
                types[i] = override
            rtl = (t == "RLI" or (t == "FSI" and _first_strong_rtl(
                types, i + 1, matches.get(i, n), matches)))
            new = (level + 1) | 1 if rtl else (level + 2) & ~1
            if new <= _MAX_DEPTH and not overflow_isolates and not overflow_embeddings:
                valid_isolates += 1
                stack.append((new, "", True))
            else:
                overflow_isolates += 1
        elif t == "PDI":  # X6a
            if overflow_isolates:
                overflow_isolates -= 1
            elif valid_isolates:
                overflow_embeddings = 0
                while not stack[-1][2]:
                    stack.pop()
                stack.pop()
                valid_isolates -= 1
            level, override, _ = stack[-1]
            out[i] = level
            if override:
                types[i] = override
        elif t == "PDF":  # X7
            out[i] = level
            if overflow_isolates:
                pass
            elif overflow_embeddings:
                overflow_embeddings -= 1
            elif not stack[-1][2] and len(stack) > 1:
                stack.pop()
        elif t == "B":  # X8: a paragraph separator ends every embedding
            out[i] = base
            stack[1:] = []
            overflow_isolates = overflow_embeddings = valid_isolates = 0
        else:  # X6 (BN too: removed by X9, its level set afterwards)
            out[i] = level
            if override and t != "BN":
                types[i] = override
    return out


def _sequences(kept: list[int], levels: list[int], types: list[str],
               matches: dict[int, int]) -> list[list[int]]:
    """X10 (BD13): the isolating run sequences, as lists of indices in ``kept`` (the characters
    X9 leaves): level runs, a run ending at an isolate initiator continued by the run that
    starts at its matching PDI."""
    runs: list[list[int]] = []
    for i in kept:
        if runs and levels[runs[-1][-1]] == levels[i]:
            runs[-1].append(i)
        else:
            runs.append([i])
    by_start = {run[0]: run for run in runs}
    sequences: list[list[int]] = []
    continued: set[int] = set()
    for run in runs:
        if types[run[0]] == "PDI" and run[0] in continued:
            continue
        seq = list(run)
        while types[seq[-1]] in _ISOLATE_INITIATORS and seq[-1] in matches:
            pdi = matches[seq[-1]]
            nxt = by_start.get(pdi)
            if nxt is None:
                break
            continued.add(pdi)
            seq.extend(nxt)
        sequences.append(seq)
    return sequences


def levels(line: str, *, rtl: bool) -> list[int]:
    """The embedding level of each character of ``line``, a paragraph of the given direction
    shown on one line (rules X1-X10, W1-W7, N0-N2, I1/I2, L1).

    >>> levels("ab אב 12", rtl=False)
    [0, 0, 0, 1, 1, 1, 2, 2]
    >>> levels("ג (b) a", rtl=True)  # N0: the pair takes the Hebrew before it, not "a" after
    [1, 1, 1, 2, 1, 1, 2]
    """
    return _reset_line(line, _types(line), _resolved(line, rtl=rtl), 1 if rtl else 0)


def line_levels(paragraph: str, lines: Sequence[tuple[int, int]], *, rtl: bool
                ) -> list[list[int]]:
    """The levels of each line ``paragraph[a:b]`` of a paragraph wrapped into ``lines``:
    resolved on the whole paragraph (X1-I2), then L1 on each line (UAX #9 section 3.4), so that
    the wrap changes no direction, only where the lines end.

    >>> text = "x אב (" + "גד " * 3 + "cd)"
    >>> line_levels(text, [(0, 8), (9, len(text))], rtl=False)[0]  # "(" follows the pair: L
    [0, 0, 1, 1, 0, 0, 1, 1]
    >>> levels(text[:8], rtl=False)  # alone on its line, "(" stood between Hebrew letters
    [0, 0, 1, 1, 1, 1, 1, 1]
    """
    types = _types(paragraph)
    resolved = _resolved(paragraph, rtl=rtl, types=types)
    base = 1 if rtl else 0
    return [_reset_line(paragraph[a:b], types[a:b], resolved[a:b], base) for a, b in lines]


def _types(text: str) -> list[str]:
    """Each character's Bidi_Class (:func:`bidi_class`)."""
    types = list(map(unicodedata.bidirectional, text))
    if "" in types:  # unassigned code points: their block's default
        types = [t or bidi_class(ch) for t, ch in zip(types, text, strict=True)]
    return types


def _resolved(line: str, *, rtl: bool, types: list[str] | None = None) -> list[int]:
    """The levels of a paragraph after rules X1-X10, W1-W7, N0-N2 and I1/I2 (L1 not yet)."""
    base = 1 if rtl else 0
    original = _types(line) if types is None else types
    kinds = set(original)
    edge = "R" if rtl else "L"
    if not kinds & _EXPLICIT:  # one level run: the whole line, at the paragraph's level
        out = _resolve(line, original.copy(), base, edge, edge)
    else:
        types = original.copy()
        matches = _isolate_matches(types)
        explicit = _explicit(types, base, matches)
        kept = [i for i, t in enumerate(original) if t not in _REMOVED]
        out = list(explicit)
        position = {i: k for k, i in enumerate(kept)}
        for seq in _sequences(kept, explicit, original, matches):
            level = explicit[seq[0]]
            k0, k1 = position[seq[0]], position[seq[-1]]
            before = explicit[kept[k0 - 1]] if k0 else base
            last = seq[-1]
            after = (base if k1 + 1 == len(kept) or original[last] in _ISOLATE_INITIATORS
                     else explicit[kept[k1 + 1]])
            sos = "R" if max(before, level) % 2 else "L"
            eos = "R" if max(after, level) % 2 else "L"
            chars = "".join(line[i] for i in seq)
            for i, v in zip(seq, _resolve(chars, [types[i] for i in seq], level, sos, eos),
                            strict=True):
                out[i] = v
        for i, t in enumerate(original):  # X9's removed characters: the level before them
            if t in _REMOVED:
                out[i] = out[i - 1] if i else base
    return out


def _reset_line(line: str, original: Sequence[str], out: list[int], base: int) -> list[int]:
    """Rule L1 on one line (``out``, its resolved levels, rewritten): separators, and the
    whitespace before them or at the end of the line, at the paragraph's level ``base``."""
    n = len(line)
    if "S" in original or "B" in original:
        reset = True
        for i in range(n - 1, -1, -1):
            t = original[i]
            if t == "S" or t == "B":
                out[i] = base
                reset = True
            elif reset and t in _TRAILING:
                out[i] = base
            else:
                reset = False
    else:
        i = n - 1
        while i >= 0 and original[i] in _TRAILING:
            out[i] = base
            i -= 1
    return out


def visual_columns(line: str, *, rtl: bool) -> list[int]:
    """The column, counted from the left, at which each character of ``line`` is shown (rule
    L2: from the highest level down to the lowest odd one, every run at that level or above is
    reversed; a right-to-left paragraph is one such run).

    >>> visual_columns("abc", rtl=False), visual_columns("אבג", rtl=True)
    ([0, 1, 2], [2, 1, 0])
    >>> visual_columns("אב 12", rtl=True)  # the number still reads left to right
    [4, 3, 2, 0, 1]
    """
    return reorder(levels(line, rtl=rtl))


def reorder(lv: Sequence[int]) -> list[int]:
    """Rule L2 on one line's levels ``lv``: the column, counted from the left, of each
    character.

    >>> reorder([0, 0, 1, 1, 2, 2])
    [0, 1, 5, 4, 2, 3]
    """
    order = list(range(len(lv)))  # order[column] = logical index
    if not lv:
        return []
    lowest_odd = min((v for v in lv if v % 2), default=None)
    if lowest_odd is None:
        return order
    for level in range(max(lv), lowest_odd - 1, -1):
        col = 0
        while col < len(order):
            if lv[order[col]] < level:
                col += 1
                continue
            end = col
            while end < len(order) and lv[order[end]] >= level:
                end += 1
            order[col:end] = order[col:end][::-1]
            col = end
    columns = [0] * len(lv)
    for col, index in enumerate(order):
        columns[index] = col
    return columns
