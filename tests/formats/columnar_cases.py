"""Inputs whose outcomes ``tests/formats/columnar_outcomes.json`` pins (issue 25, section 2).

    python tests/formats/columnar_cases.py --write
    python tests/formats/columnar_cases.py --check

The hot formats (SemEval-2021 JSON, spans CSV and JSON Lines, PTC TSV) have one path that
produces data, their columnar readers. Until issue 25 a second, precise reader also produced
data for the valid values those readers handed over (a numeric id, an offset given as a string,
a quoted CSV cell, texts to check against, ...). Each case below takes one such value, or
several at once, or an invalid one; the outcomes file holds what reading gave, written by the
precise readers of main at 4817788, before they became explain-only, and rewritten only when an
outcome is meant to change (``--write``; read the diff before committing it).
``tests/formats/test_columnar_readers.py`` reads every case again and compares.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.formats import Loaded, ReadOptions, ptc, semeval2021, spans_csv  # noqa: E402
from core.model.errors import FormatError, expand_diagnostics  # noqa: E402

OUTCOMES = Path(__file__).parent / "columnar_outcomes.json"
FILE_NAMES = {"semeval2021": "f.json", "spans-csv": "s.csv", "ptc": "p.tsv"}
Reader = Callable[..., Loaded]
READERS: dict[str, Reader] = {"semeval2021": semeval2021.read, "spans-csv": spans_csv.read,
                              "ptc": ptc.read}
GOLD = {"d1": " ab cd ", "d2": "xy", "10": "  \u00a0hello world ", "1": " ab cd efgh ",
        "22": "xy \u00a0z"}
OPTIONS: dict[str, ReadOptions] = {
    "default": ReadOptions(),
    "gold": ReadOptions(gold_texts=GOLD),
    "gold-clip": ReadOptions(gold_texts=GOLD, beyond_text="clip"),
    "official": ReadOptions(beyond_text="official"),
    "labels": ReadOptions(labels=["Doubt", "Slogans"]),
}


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    fmt: str
    data: bytes
    options: tuple[str, ...] = ("default",)


def _json(docs: object) -> bytes:
    return json.dumps(docs, ensure_ascii=False).encode()


def _s21(name: str, docs: object, *options: str) -> Case:
    return Case(f"s21-{name}", "semeval2021", _json(docs), options or ("default",))


def _lab(start: object, end: object, technique: str = "Doubt", **more: object
         ) -> dict[str, object]:
    return {"technique": technique, "start": start, "end": end, **more}


TEXT = " one two  three "
CASES: list[Case] = [
    # SemEval-2021 JSON: the values the standard library's json reads for msgspec
    _s21("numeric-ids", [{"id": 7, "labels": [_lab(0, 3)]}, {"id": -2, "labels": []},
                         {"id": 2**70, "labels": []}, {"id": "x", "labels": []}]),
    _s21("string-offsets", [{"id": "a", "text": TEXT, "labels": [
        _lab("1", 4), _lab(" 5 ", "+8"), _lab("007", "0000000000000010")]}]),
    _s21("odd-fragments", [{"id": "a", "text": TEXT, "labels": [
        _lab(1, 4, text_fragment=5), _lab(0, 4, text_fragment=[1]),
        _lab(5, 8, text_fragment={"q": 1}), _lab(5, 8, text_fragment=True),
        _lab(1, 4, text_fragment=0.5), _lab(1, 4, text_fragment=None),
        _lab(1, 4, text_fragment="one"), _lab(1, 4, text_fragment="other")]}]),
    _s21("all-warnings-interleaved", [
        {"id": 1, "text": TEXT, "labels": [_lab(0, 4, text_fragment=3), _lab(0, 4),
                                          _lab(1, 4, text_fragment="x"), _lab(8, 10)]},
        {"id": "b", "text": TEXT, "labels": [_lab(4, 9, text_fragment=None), _lab(4, 9)]},
        {"id": 3, "labels": [_lab(0, 4, text_fragment=[])]}], "default", "gold"),
    _s21("gold-texts", [{"id": "d1", "labels": [_lab(0, 3), _lab(1, 3)]},
                        {"id": "d2", "labels": [_lab(0, 2)]}, {"id": "zz", "labels": []}],
         "default", "gold", "gold-clip"),
    _s21("beyond-text", [{"id": "a", "text": "abc", "labels": [_lab(1, 9), _lab("0", "3")]}],
         "default", "official"),
    Case("s21-nan-and-huge-numbers", "semeval2021",
         b'[{"id": "a", "x": NaN, "y": 1e999, "z": ' + b"9" * 1200 + b', "labels": [{'
         b'"technique": "Doubt", "start": 0, "end": 2, "w": -Infinity}], "text": "ab"}]'),
    Case("s21-huge-fragment", "semeval2021",
         b'[{"id": "a", "labels": [{"technique": "Doubt", "start": 0, "end": 2, '
         b'"text_fragment": ' + b"9" * 1200 + b'}], "text": "ab"}]'),
    Case("s21-escaped-backslash-before-u", "semeval2021",
         b'[{"id": "a\\\\ud83d", "labels": [], "text": "\\\\udc00 x"}]'),
    Case("s21-lone-surrogate", "semeval2021", b'[{"id": "a\\ud83d", "labels": []}]'),
    Case("s21-numeric-id-with-a-thousand-digits", "semeval2021",
         b'[{"id": ' + b"7" * 1001 + b', "labels": []}]'),
    _s21("numeric-and-string-id-collide", [{"id": 7, "labels": []}, {"id": "7", "labels": []}]),
    _s21("bad-offset-strings", [{"id": "a", "labels": [_lab("1.0", 3)]}]),
    _s21("offset-string-too-long", [{"id": "a", "labels": [_lab("0", "9" * 13)]}]),
    _s21("labels-list", [{"id": 5, "labels": [_lab("0", 3, "Doubt"), _lab(0, 3, "Slogans")]}],
         "default", "labels"),
    _s21("boolean-id", [{"id": True, "labels": []}]),
    # spans CSV: the csv module's tokenising for pyarrow's
    Case("csv-quoted-cells", "spans-csv",
         b'doc_id,start,end,label\n"d1",0,4,"Doubt, maybe"\nd1,"5","9",Doubt\n"d,2",1,2,"a""b"\n'),
    Case("csv-cells-our-writer-quoted", "spans-csv",
         b"doc_id,start,end,label,annotator\n'=d1,0,4,'=SUM(A1),'@ann\n'-d2,1,3,'+x,b\n"
         b"d3,,,,b\n", ("default", "labels")),
    Case("csv-control-characters-and-odd-spaces", "spans-csv",
         "doc_id,start,end,label\nd\x1c1,0,4,Do\x01ubt\n\u00a0,,,\nd\u20282,1,2,x\x7f\n"
         "d3, 3 ,+5,Doubt\n".encode()),
    Case("csv-lone-carriage-returns", "spans-csv",
         b"doc_id,start,end,label\r1,0,4,Doubt\r2,0,4,Doubt\r\n3,1,2,x\n"),
    Case("csv-offsets-as-written-by-hand", "spans-csv",
         b"doc_id,start,end,label\nd1, 1,4 ,Doubt\nd1,+2,007,Doubt\nd1,0000000000000003,4,X\n"),
    Case("csv-a-column-named-twice", "spans-csv",
         b"doc_id,start,end,label,Doc_ID,note\nx,0,4,Doubt,d1,n\ny,1,3,Doubt,d2,n\n"),
    Case("csv-gold-texts", "spans-csv",
         b"doc_id,start,end,label,annotator\nd1,0,3,Doubt,a\nd2,0,2,X,b\nd1,0,3,Doubt,a\n"
         b"10,0,6,Doubt,b\n10,9,30,Doubt,a\nq,0,1,X,a\n",
         ("default", "gold", "gold-clip")),
    Case("csv-gold-texts-quoted", "spans-csv",
         b'doc_id,start,end,label\n"d1",0,3,Doubt\nd1,"1",3,Doubt\n', ("gold",)),
    Case("csv-bom-blank-rows-and-extra-columns", "spans-csv",
         b"\xef\xbb\xbfDOC_ID , Start,END,label,Note,other\n\n1,0,4,Doubt,x,y\n , , , , ,\n"
         b"2,,,,,\n"),
    Case("csv-rows-without-an-annotator", "spans-csv",
         b"doc_id,start,end,label,annotator\nd1,0,4,Doubt,a\nd1,0,4,Doubt,\n"),
    Case("csv-an-annotator-named-as-the-file", "spans-csv",
         b"doc_id,start,end,label,annotator\nd1,0,4,Doubt,s\n"),
    Case("csv-an-annotator-named-as-the-file-and-another", "spans-csv",
         b"doc_id,start,end,label,annotator\nd1,0,4,Doubt,s\nd1,1,3,Doubt,b\n"),
    Case("csv-rows-without-an-annotator-beside-one-named-as-the-file", "spans-csv",
         b"doc_id,start,end,label,annotator\nd1,0,4,Doubt,s\nd1,1,3,Doubt,\n"),
    Case("jsonl-an-annotator-named-as-the-file", "spans-csv", b"\n".join([
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": "s"}',
        b'{"doc_id": "d1", "start": 1, "end": 2, "label": "Doubt", "annotator": "b"}'])),
    Case("jsonl-rows-without-an-annotator-beside-one-named-as-the-file", "spans-csv",
         b"\n".join([
             b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": "s"}',
             b'{"doc_id": "d1", "start": 1, "end": 2, "label": "Doubt"}'])),
    Case("csv-a-field-over-the-csv-limit", "spans-csv",
         b"doc_id,start,end,label\nd1,0,3," + b"x" * 131_073 + b"\n"),
    Case("csv-a-bad-offset-in-a-quoted-file", "spans-csv",
         b'doc_id,start,end,label\n"d1",0,4,Doubt\nd1,1.5,4,Doubt\n'),
    # spans JSON Lines: the standard library's json for orjson, values read as the precise
    # pass read them
    Case("jsonl-numeric-ids-and-string-offsets", "spans-csv", b"\n".join([
        b'{"doc_id": 10, "start": "0", "end": " 6", "label": "Doubt"}',
        b'{"doc_id": 1180591620717411303424, "start": 1, "end": "+3", "label": "X"}',
        b'{"doc_id": "d2", "start": "", "end": "", "label": ""}',
        b'{"doc_id": "d1"}']), ("default", "gold")),
    Case("jsonl-annotators-of-any-type", "spans-csv", b"\n".join([
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": 5}',
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": false}',
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": [1]}',
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": 1.5}',
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": '
        b'1180591620717411303424}',
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": {"q": 0}}'])),
    Case("jsonl-nan-and-unicode-blank-lines", "spans-csv", "\n".join([
        '{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "x": NaN}', "\u00a0",
        "\x1c", "\r", '{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt"}']).encode(),
         ("default", "gold")),
    Case("jsonl-gold-texts", "spans-csv", b"\n".join([
        b'{"doc_id": "d1", "start": 0, "end": 3, "label": "Doubt", "annotator": "a"}',
        b'{"doc_id": "10", "start": 0, "end": 7, "label": "Doubt", "annotator": "b"}',
        b'{"doc_id": "10", "start": 9, "end": 40, "label": "Doubt", "annotator": "a"}']),
         ("default", "gold", "gold-clip")),
    Case("jsonl-a-boolean-id", "spans-csv", b'{"doc_id": true, "start": 0, "end": 1, '
         b'"label": "X"}'),
    Case("jsonl-a-lone-surrogate", "spans-csv", b'{"doc_id": "\\ud800", "start": 0, "end": 1, '
         b'"label": "X"}'),
    Case("jsonl-after-unicode-whitespace", "spans-csv",
         '\u00a0{"doc_id": "d1", "start": 0, "end": 1, "label": "X"}'.encode()),
    # PTC TSV: str.split for pyarrow's tokenising
    Case("ptc-odd-whitespace-and-offsets", "ptc",
         "1\tDoubt\t+1\t007\n\x1c22\tSlo\x1cgans\t 0\t3\u00a0\n1\tDoubt\t1\t7 \r\n".encode()),
    Case("ptc-gold-texts", "ptc",
         b"1\tDoubt\t0\t3\n1\tDoubt\t0\t3\n22\tX\t1\t4\n1\tDoubt\t4\t6\n9\tX\t0\t2\n"
         b"1\tDoubt\t8\t30\n", ("default", "gold", "gold-clip")),
    Case("ptc-three-columns-with-a-label-list", "ptc", b"1\t0\t3\n1\t2\t5\n",
         ("default", "labels")),
    Case("ptc-lone-carriage-return", "ptc", b"1\tDoubt\t0\t3\r1\tDoubt\t0\t3\n"),
    Case("ptc-carriage-return-in-a-cell", "ptc", b"1\tDo\rubt\t0\t3\r\n1\tDoubt\t\r0\t3\n"),
    Case("ptc-bom-and-quotes", "ptc", b'\xef\xbb\xbf1\t"Doubt"\t0\t3\n'),
    Case("ptc-a-blank-line", "ptc", b"1\tDoubt\t0\t3\n\n1\tDoubt\t0\t3\n"),
]


def outcome(case: Case, option: str) -> dict[str, Any]:
    """What reading ``case`` under ``option`` gives: the error, or every value a caller sees."""
    name = FILE_NAMES[case.fmt]
    try:
        loaded = READERS[case.fmt]({name: case.data}, name=f"in/{name}",
                                   options=OPTIONS[option])
    except FormatError as exc:
        return {"error": str(exc)}
    out: dict[str, Any] = {
        "texts": [[k, v] for k, v in loaded.texts.items()],
        "sets": [[s.name, s.role, [[d, [[x.start, x.end, x.label] for x in spans]]
                                   for d, spans in s.spans.items()]] for s in loaded.sets],
        "named_sets": sorted(loaded.named_sets),
        "warnings": [[d.file, d.message, d.line, d.field, d.path, d.kind]
                     for d in expand_diagnostics(loaded.diagnostics)],
    }
    if loaded.records is not None:
        out["rows"] = [[d, x.start, x.end, x.label]
                       for d, x in loaded.records.rows]  # type: ignore[attr-defined]
    return out


def outcomes() -> dict[str, dict[str, Any]]:
    return {case.name: {option: outcome(case, option) for option in case.options}
            for case in CASES}


def stored() -> Mapping[str, Any]:
    found: Mapping[str, Any] = json.loads(OUTCOMES.read_text(encoding="utf-8"))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the outcomes file")
    parser.add_argument("--check", action="store_true", help="compare, exit 1 on a difference")
    args = parser.parse_args()
    found = outcomes()
    if args.write:
        OUTCOMES.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n",
                            encoding="utf-8")
        return 0
    differ = [name for name, runs in found.items() if stored().get(name) != runs]
    for name in differ:
        print(f"{name}: the outcome differs")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
