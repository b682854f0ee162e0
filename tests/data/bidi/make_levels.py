"""Write ``fribidi_levels.jsonl``: the embedding levels GNU FriBidi computes for a corpus of
mixed-direction lines, the oracle of ``tests/render/test_bidi_oracle.py``.

Run once, by hand, where the system library ``libfribidi.so.0`` is installed (it is not needed
to run the tests)::

    python tests/data/bidi/make_levels.py

FriBidi is called through ctypes: ``fribidi_get_bidi_types``, ``fribidi_get_bracket_types``
(rule N0) and ``fribidi_get_par_embedding_levels_ex`` with the paragraph direction forced to
the line's (``FRIBIDI_PAR_LTR`` or ``FRIBIDI_PAR_RTL``). The corpus: the lines the first
comparison used (``LINES``, the texts of ``tests/data/rtl/``), then seeded random mixes of
Hebrew, Arabic, Latin, digits, brackets, punctuation, spaces, marks and, in some, explicit
embeddings, overrides and isolates. A character goes into the random pools only if FriBidi's
Unicode data gives it the bidirectional type Python's ``unicodedata`` gives it (FriBidi 1.0.8
carries Unicode 10.0.0, Python 3.11 Unicode 14.0.0).
"""

from __future__ import annotations

import ctypes
import functools
import json
import random
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SEED = 20261126
N_RANDOM = 400

LINES = [
    "abc", "אבג", "אב 12", "ab אב 12", "123 שלום world", "hello שלום", "ולד في 1990 في حيفا",
    "ولد في 1990 في حيفا", "see אבגד now", "ab אב", "ب 1,234.56 ج", "قيمة 50% من $30",
    "a (ب) c", "אב (גד) הו", "x \u202bאב\u202c y", "x \u2067אב\u2069 y", "עברית: 3.14-2",
    "مرحبا، كيف حالك؟ 2024/05/01", "A1 ב2 c3", "שלום\u0591 עולם", "تعلم\u064e العربية 123",
    "1-2-3 אבג", "(a) [ב] {c}", "שלום (hello) עולם", "hello (שלום) world!", "ג (b) a",
    "אב cd(ef) גה", "ab (גד!) ef", 'מחיר: (12) ש"ח', "a\u200fb", "אב\u200e12",
]

POOLS = {
    "hebrew": "אבגדהוזחטיכלמנסעפצקרשת",
    "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "latin": "abcdefghijklmnopqrstuvwxyzABC",
    "digit": "0123456789",
    "arabic_digit": "٠١٢٣٤٥٦٧٨٩",  # AN
    "persian_digit": "۰۱۲۳۴۵۶۷۸۹",  # EN
    "bracket": "()[]{}()[]()⟨⟩«»〈〉〈〉「」﴾﴿",
    "separator": "+-,.:/،",
    "terminator": "%$#°€",
    "other": "!?\"'*&@;=_~…–—",
    "space": "  \t",
    "mark": "\u05b4\u05bc\u064e\u0650\u0651\u0301",  # NSM
    "invisible": "\u200c\u200d\u00ad\u200e\u200f\u061c",  # BN, LRM, RLM, ALM
    "explicit": "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
}
WORDS = ("hebrew", "arabic", "latin", "digit", "arabic_digit", "persian_digit")

PAR_LTR, PAR_RTL = 0x110, 0x111
_U32 = ctypes.c_uint32
_NAMES = {"LTR": "L", "RTL": "R", "SS": "S", "BS": "B"}  # FriBidi's names that differ


@functools.cache
def _fribidi() -> ctypes.CDLL:
    """The system's FriBidi, loaded when first needed (pytest imports this file for its
    doctests, where FriBidi need not be installed)."""
    lib = ctypes.CDLL("libfribidi.so.0")
    lib.fribidi_get_bidi_types.argtypes = [ctypes.POINTER(_U32), ctypes.c_int,
                                           ctypes.POINTER(_U32)]
    lib.fribidi_get_bracket_types.argtypes = [ctypes.POINTER(_U32), ctypes.c_int,
                                              ctypes.POINTER(_U32), ctypes.POINTER(_U32)]
    lib.fribidi_get_par_embedding_levels_ex.argtypes = [
        ctypes.POINTER(_U32), ctypes.POINTER(_U32), ctypes.c_int, ctypes.POINTER(_U32),
        ctypes.POINTER(ctypes.c_int8)]
    lib.fribidi_get_par_embedding_levels_ex.restype = ctypes.c_int8
    lib.fribidi_get_bidi_type_name.argtypes = [_U32]
    lib.fribidi_get_bidi_type_name.restype = ctypes.c_char_p
    return lib


def _version() -> tuple[str, str]:
    """FriBidi's version line and the Unicode version of its data."""
    lib = _fribidi()
    version = ctypes.c_char_p.in_dll(lib, "fribidi_version_info").value or b""
    unicode = ctypes.c_char_p.in_dll(lib, "fribidi_unicode_version").value or b""
    return version.decode().splitlines()[0], unicode.decode()


def _types(text: str) -> ctypes.Array[ctypes.c_uint32]:
    chars = (_U32 * len(text))(*map(ord, text))
    types = (_U32 * len(text))()
    _fribidi().fribidi_get_bidi_types(chars, len(text), types)
    return types


def fribidi_levels(text: str, *, rtl: bool) -> list[int]:
    """FriBidi's embedding level of each character of ``text``, one paragraph."""
    n = len(text)
    chars = (_U32 * n)(*map(ord, text))
    types, brackets, levels = _types(text), (_U32 * n)(), (ctypes.c_int8 * n)()
    _fribidi().fribidi_get_bracket_types(chars, n, types, brackets)
    base = _U32(PAR_RTL if rtl else PAR_LTR)
    if not _fribidi().fribidi_get_par_embedding_levels_ex(types, brackets, n,
                                                          ctypes.byref(base), levels):
        raise RuntimeError(f"FriBidi failed on {text!r}")
    return list(levels)


def _same_type(ch: str) -> bool:
    name = _fribidi().fribidi_get_bidi_type_name(_types(ch)[0]).decode()
    return _NAMES.get(name, name) == unicodedata.bidirectional(ch)


def _random_line(rng: random.Random, pools: dict[str, str], *, explicit: bool) -> str:
    parts: list[str] = []
    for _ in range(rng.randint(1, 14)):
        kind = rng.choice([*WORDS, *WORDS, "bracket", "bracket", "separator", "terminator",
                           "other", "space", "space", "mark", "invisible",
                           *(["explicit"] * 3 if explicit else [])])
        size = rng.randint(1, 6) if kind in WORDS else 1
        parts.append("".join(rng.choice(pools[kind]) for _ in range(size)))
        if rng.random() < 0.4:
            parts.append(" ")
    return "".join(parts)


def corpus() -> list[tuple[str, bool]]:
    """The lines and each one's paragraph direction: the fixed lines in both directions, then
    the random ones in a random direction."""
    lines = list(LINES)
    for name in ("rtl_gold.jsonl", "rtl_system.jsonl"):
        for row in (ROOT / "tests" / "data" / "rtl" / name).read_text("utf-8").splitlines():
            lines.extend(p for p in json.loads(row)["text"].split("\n") if p not in lines)
    out = [(line, rtl) for line in lines for rtl in (False, True)]
    pools = {k: "".join(ch for ch in v if _same_type(ch)) for k, v in POOLS.items()}
    dropped = {k: sorted(set(v) - set(pools[k])) for k, v in POOLS.items() if pools[k] != v}
    if dropped:
        print("left out (FriBidi's type differs):", dropped)
    rng = random.Random(SEED)
    for k in range(N_RANDOM):
        out.append((_random_line(rng, pools, explicit=k % 4 == 3), rng.random() < 0.5))
    return out


def fribidi_lines(text: str, lines: list[tuple[int, int]], *, rtl: bool) -> list[list[int]]:
    """FriBidi's columns of each line ``text[a:b]`` of one paragraph: the levels resolved on
    the whole paragraph, then ``fribidi_reorder_line`` on each line (rule L1 on the line, then
    L2; flags 0: marks are not moved after their base, L3 is not applied)."""
    n = len(text)
    chars = (_U32 * n)(*map(ord, text))
    types, brackets, levels = _types(text), (_U32 * n)(), (ctypes.c_int8 * n)()
    lib = _fribidi()
    lib.fribidi_get_bracket_types(chars, n, types, brackets)
    base = _U32(PAR_RTL if rtl else PAR_LTR)
    if not lib.fribidi_get_par_embedding_levels_ex(types, brackets, n, ctypes.byref(base),
                                                   levels):
        raise RuntimeError(f"FriBidi failed on {text!r}")
    lib.fribidi_reorder_line.argtypes = [_U32, ctypes.POINTER(_U32), ctypes.c_int, ctypes.c_int,
                                         _U32, ctypes.POINTER(ctypes.c_int8),
                                         ctypes.POINTER(_U32), ctypes.POINTER(ctypes.c_int)]
    mapping = (ctypes.c_int * n)(*range(n))  # mapping[visual position] = logical index
    out = []
    for a, b in lines:
        if b > a and not lib.fribidi_reorder_line(0, types, b - a, a, base, levels, None,
                                                  mapping):
            raise RuntimeError(f"FriBidi could not reorder {text[a:b]!r}")
        columns = [0] * (b - a)
        for col in range(b - a):
            columns[mapping[a + col] - a] = col
        out.append(columns)
    return out


WRAP_SEED = 20261127
N_WRAPPED = 200
WRAPPED = [  # a bracket pair that the wrap splits, each way round
    ("x אב (" + "גד " * 8 + "cd) הו", [(0, 14), (15, 31)], False),
    ("אב cd(" + "ef " * 8 + "גה) וז", [(0, 14), (15, 31)], True),
    ("ab (גד " + "xy " * 8 + ") ef", [(0, 16), (17, 32)], False),
]


_ISOLATES = "\u2066\u2067\u2068\u2069"
_TRAILING = _ISOLATES + "\u202a\u202b\u202c\u202d\u202e \t\u200c\u200d\u00ad"


def _isolate_at_line_end(text: str, lines: list[tuple[int, int]]) -> bool:
    """Whether a line ends in a run of whitespace and controls holding an isolate control:
    UAX #9 rule L1 resets such a run to the paragraph level, isolate controls included, and
    FriBidi 1.0.8's ``fribidi_reorder_line`` leaves the isolate controls out (its paragraph
    L1 does not), so such paragraphs are not in the corpus."""
    for a, b in lines:
        k = b
        while k > a and text[k - 1] in _TRAILING:
            k -= 1
        if any(ch in _ISOLATES for ch in text[k:b]):
            return True
    return False


def wrapped_corpus(pools: dict[str, str]) -> list[tuple[str, list[tuple[int, int]], bool]]:
    """Paragraphs of three to six random mixes, each cut at random spaces into lines (those
    :func:`_isolate_at_line_end` finds left out, until ``N_WRAPPED`` are kept)."""
    rng = random.Random(WRAP_SEED)
    out = list(WRAPPED)
    k = 0
    while len(out) < len(WRAPPED) + N_WRAPPED:
        k += 1
        text = " ".join(_random_line(rng, pools, explicit=k % 4 == 3)
                        for _ in range(rng.randint(3, 6)))
        spaces = [i for i, ch in enumerate(text) if ch == " "]
        cuts = sorted(rng.sample(spaces, min(len(spaces), rng.randint(1, 4))))
        lines, start = [], 0
        for cut in cuts:
            lines.append((start, cut))
            start = cut + 1
        lines.append((start, len(text)))
        rtl = rng.random() < 0.5
        if not _isolate_at_line_end(text, lines):
            out.append((text, lines, rtl))
    return out


def fribidi_unassigned() -> list[list[object]]:
    """FriBidi's type of every code point that Python's Unicode data leaves unassigned (no
    surrogates), as runs ``[first, last, type]`` over those code points in order (a run may
    span assigned ones, which it does not describe)."""
    codes = [c for c in range(0x110000)
             if not unicodedata.bidirectional(chr(c)) and not 0xD800 <= c <= 0xDFFF]
    types = _types("".join(map(chr, codes)))
    lib = _fribidi()
    runs: list[list[object]] = []
    for code, kind in zip(codes, types, strict=True):
        name = lib.fribidi_get_bidi_type_name(kind).decode()
        name = _NAMES.get(name, name)
        if runs and runs[-1][2] == name:
            runs[-1][1] = code
        else:
            runs.append([code, code, name])
    return runs


def main() -> None:
    version, unicode = _version()
    rows = [{"text": text, "rtl": rtl, "levels": fribidi_levels(text, rtl=rtl)}
            for text, rtl in corpus()]
    with (HERE / "fribidi_levels.jsonl").open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"fribidi": version, "unicode": unicode, "seed": SEED}) + "\n")
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} lines, {version}, Unicode {unicode}")
    pools = {k: "".join(ch for ch in v if _same_type(ch)) for k, v in POOLS.items()}
    wrapped = [{"text": text, "rtl": rtl, "lines": lines,
                "columns": fribidi_lines(text, lines, rtl=rtl)}
               for text, lines, rtl in wrapped_corpus(pools)]
    with (HERE / "fribidi_wrapped.jsonl").open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"fribidi": version, "unicode": unicode, "seed": WRAP_SEED}) + "\n")
        for row in wrapped:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(wrapped)} wrapped paragraphs")
    runs = fribidi_unassigned()
    (HERE / "fribidi_unassigned.json").write_text(json.dumps(
        {"fribidi": version, "unicode": unicode, "python_unicode": unicodedata.unidata_version,
         "runs": runs}) + "\n", encoding="utf-8")
    print(f"{len(runs)} runs of unassigned code points")


if __name__ == "__main__":
    main()
