"""Issue 18 §4: mutated sample files never make the command line print a traceback.

Each sample file of every format (``sample_data/``) is mutated (byte flips, cuts, inserted pieces
such as huge or negative numbers, deep nesting, lone-surrogate escapes, control characters, a
BOM, CRLF line ends, values swapped for other JSON types) and given to ``validate``, ``score``,
``convert`` and ``agree``, run in-process through :func:`core.cli.main`. Every run must exit 0 or
1 (2 only for a usage error, which these argument lists never are), never raise, print exactly
one line on standard error when it exits 1, print exactly one JSON object with ``--json`` when
it exits 0, and produce output that encodes as UTF-8.

The example budget is fixed (``EXAMPLES`` per format) so that this runs in CI in well under a
minute; ``bench/fuzz.py`` runs the same checks on thousands of inputs per format.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import tempfile
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"
EXAMPLES = 12
INCEPTION = SAMPLES / "formats/inception_export/annotation/speech1.txt"
FUZZ = ROOT / "tests/data/fuzz"
T = TypeVar("T")


@dataclass(frozen=True)
class Case:
    """A sample file of one format and how each command uses it."""

    fmt: str
    path: Path
    gold: Path  # what the mutated file is scored against
    metric: str
    convert_to: str
    measure: str = "span-f1"


CASES = {
    "semeval2021": Case("semeval2021", SAMPLES / "propaganda/system_b.json",
                        SAMPLES / "propaganda/gold.json", "martino", "spans-csv"),
    "ptc": Case("ptc", SAMPLES / "formats/ptc_system_a.tsv", SAMPLES / "formats/ptc_gold",
                "martino", "spans-csv"),
    "mafalda": Case("mafalda", SAMPLES / "mafalda/system_a.jsonl", SAMPLES / "mafalda/gold.jsonl",
                    "mafalda", "spans-csv", "mafalda-f1"),
    "mafalda-llm": Case("mafalda-llm", SAMPLES / "mafalda/system_llm.jsonl",
                        SAMPLES / "mafalda/gold.jsonl", "mafalda", "spans-csv", "mafalda-f1"),
    "brat": Case("brat", SAMPLES / "formats/brat_gold/1.ann", SAMPLES / "formats/brat_gold/1.ann",
                 "martino", "spans-csv"),
    "doccano": Case("doccano", SAMPLES / "formats/doccano_gold.jsonl",
                    SAMPLES / "formats/doccano_gold.jsonl", "martino", "semeval2021"),
    "label-studio": Case("label-studio", SAMPLES / "formats/label_studio_annotators.json",
                         SAMPLES / "formats/label_studio_annotators.json", "martino",
                         "spans-csv"),
    "hateval": Case("hateval", SAMPLES / "hateval/system_task_a.tsv", SAMPLES / "hateval/gold.tsv",
                    "hateval-a", "hateval", "text-kappa"),
    "spans-csv": Case("spans-csv", SAMPLES / "formats/spans_annotators.csv",
                      SAMPLES / "formats/spans_annotators.csv", "martino", "ptc"),
    "spans-jsonl": Case("spans-csv", SAMPLES / "formats/spans_system_b.jsonl",
                        SAMPLES / "propaganda/gold.json", "martino", "brat"),
    "webanno-tsv": Case("webanno-tsv", INCEPTION / "alice.tsv", INCEPTION / "bob.tsv",
                        "martino", "spans-csv"),
    "webanno-tsv2": Case("webanno-tsv2", ROOT / "tests/data/formats/inception/tsv2_ner.tsv",
                         ROOT / "tests/data/formats/inception/tsv2_ner.tsv", "martino",
                         "spans-csv"),
    # UIMA XMI needs its TypeSystem.xml beside it: the export zipped, the zip mutated.
    "uima-xmi": Case("uima-xmi", ROOT / "tests/data/fuzz/xmi_export.zip",
                     SAMPLES / "formats/xmi_export", "martino", "spans-csv"),
    "conll": Case("conll", SAMPLES / "formats/conll_system.conll",
                  SAMPLES / "formats/conll_gold.conll", "martino", "spans-csv"),
    "spacy-jsonl": Case("spacy", SAMPLES / "formats/spacy_ner.jsonl",
                        SAMPLES / "formats/spacy_ner.jsonl", "martino", "spans-csv"),
    "spacy-docbin": Case("spacy", SAMPLES / "formats/spacy_docs.spacy",
                         SAMPLES / "formats/spacy_docs.spacy", "martino", "spans-csv"),
    # A zipped folder (core/formats/archive.py): mutated archive bytes, read as brat inside.
    "zip": Case("brat", FUZZ / "brat_gold.zip", FUZZ / "brat_gold.zip", "martino", "spans-csv"),
    # Issue 28: the readers the first campaign did not reach.
    "zip-nested": Case("brat", FUZZ / "nested.zip", FUZZ / "brat_gold.zip", "martino",
                       "spans-csv"),
    "inception-zip": Case("webanno-tsv", FUZZ / "inception_export.zip", INCEPTION / "alice.tsv",
                          "martino", "spans-csv"),
    "parquet": Case("parquet", FUZZ / "spans.parquet", SAMPLES / "propaganda/gold.json",
                    "martino", "spans-csv"),
    # UIMA CAS JSON (the seventeenth pass's reader; review18 found four crashes by mutation):
    # dkpro-cassis's JSON CAS 0.4 reference file, scored against itself.
    "uima-json": Case("uima-json", ROOT / "tests/data/formats/uima_json/cassis_emoji/data.json",
                      ROOT / "tests/data/formats/uima_json/cassis_emoji/data.json", "martino",
                      "spans-csv"),
}

DEEP = "[" * 50_000 + "]" * 50_000
PIECES = [
    "-1", "-0", "0", "1e400", "1.5", "9" * 5000, "99999999999999999999", "NaN", "null", "true",
    "[]", "{}", '""', '"x"', "\\udfff", "\\ud800\\u0041", "\\u0000", "\x00", "\x1c", "\x85",
    "\u2028", "\r\n", "\n", "\t", ",", ";", '"', "'", "\ufeff", "é", "\U0001f600", DEEP,
    "<script>alert(1)</script>", "![](http://127.0.0.1:9/x.png)", " " * 3, "T9\tX 0 5\tabc",
    '=HYPERLINK("http://127.0.0.1:9","x")', "+1+1", "@SUM(1+1)*cmd|'/C calc'!A0", "'=1",
    "x" * 140_000,  # over the csv module's field limit
    "\r",  # a line ending in CR alone
]


class Picker:
    """Choices for :func:`mutate`: from hypothesis here, from :mod:`random` in ``bench/fuzz.py``."""

    def __init__(self, draw: Callable[[Any], Any] | None = None,
                 rng: random.Random | None = None) -> None:
        self.draw, self.rng = draw, rng

    def int(self, low: int, high: int) -> int:
        if self.draw is not None:
            return int(self.draw(st.integers(low, high)))
        assert self.rng is not None
        return self.rng.randint(low, high)

    def one(self, items: Sequence[T]) -> T:
        if self.draw is not None:
            return self.draw(st.sampled_from(items))  # type: ignore[no-any-return]
        assert self.rng is not None
        return self.rng.choice(items)


def mutate(data: bytes, pick: Picker) -> bytes:
    """One to four mutations of ``data``, chosen by ``pick``."""
    raw = bytearray(data)
    for _ in range(pick.int(1, 4)):
        kind = pick.one(["flip", "cut", "insert", "replace_number", "retype",
                                     "truncate", "bom", "crlf", "duplicate_line"])
        at = pick.int(0, max(0, len(raw) - 1))
        if kind == "flip" and raw:
            raw[at] = pick.int(0, 255)
        elif kind == "cut":
            del raw[at : at + pick.int(1, 40)]
        elif kind == "insert":
            raw[at:at] = pick.one(PIECES).encode("utf-8", "surrogatepass")
        elif kind == "truncate":
            del raw[at:]
        elif kind == "bom":
            raw[0:0] = b"\xef\xbb\xbf"
        elif kind == "crlf":
            raw = bytearray(bytes(raw).replace(b"\n", b"\r\n"))
        elif kind == "duplicate_line":
            lines = bytes(raw).split(b"\n")
            i = pick.int(0, max(0, len(lines) - 1))
            lines.insert(i, lines[i] if lines else b"")
            raw = bytearray(b"\n".join(lines))
        elif kind in ("replace_number", "retype"):
            text = bytes(raw).decode("utf-8", "surrogateescape")
            numbers = list(re.finditer(r"-?[0-9]+", text)) if kind == "replace_number" else \
                list(re.finditer(r'-?[0-9]+|"[^"\\\n]{0,40}"|\btrue\b|\bnull\b', text))
            if numbers:
                m = numbers[pick.int(0, len(numbers) - 1)]
                new = pick.one(PIECES if kind == "replace_number" else
                                           ['"7"', "7", "[7]", '{"a": 7}', "null", "true",
                                            "-7", "7.5", '"\\udfff"', '""', "[]"])
                text = text[: m.start()] + new + text[m.end():]
                raw = bytearray(text.encode("utf-8", "surrogateescape"))
    return bytes(raw)


@dataclass
class Run:
    argv: list[str]
    rc: int
    out: str
    err: str
    python_warnings: int = 0


def run(argv: list[str]) -> Run:
    """Run the command line in-process; a Python warning (which ``python -m core`` would print
    on standard error) is added to ``err`` as the interpreter would show it."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rc = main(argv)
        except SystemExit as exc:
            rc = int(exc.code) if isinstance(exc.code, int) else 2
    shown = "".join(f"{w.filename}:{w.lineno}: {w.category.__name__}: {w.message}\n"
                    for w in caught)
    return Run(argv, rc, out.getvalue(), shown + err.getvalue(), len(caught))


def problems(r: Run) -> list[str]:
    """What is wrong with one run (empty when it kept the contract)."""
    found: list[str] = []
    if r.rc not in (0, 1):
        found.append(f"exit {r.rc}")
    if "Traceback" in r.err or "Traceback" in r.out:
        found.append("traceback")
    if r.python_warnings:
        found.append(f"Python warning on stderr: {r.err.splitlines()[0][:300]!r}")
    if r.rc == 1 and (r.err.count("\n") != 1 or not r.err.endswith("\n")):
        found.append(f"{r.err.count(chr(10))} lines on stderr: {r.err[:300]!r}")
    for name, text in (("stdout", r.out), ("stderr", r.err)):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            found.append(f"{name} does not encode as UTF-8: {exc}")
    if r.rc == 0 and "--json" in r.argv and r.argv[0] != "convert":
        try:
            value = json.loads(r.out)
        except ValueError as exc:
            found.append(f"--json output is not one JSON object: {exc}")
        else:
            if not isinstance(value, dict):
                found.append("--json output is not an object")
    return found


def commands(case: Case, path: Path, out_dir: Path, explicit: bool) -> list[list[str]]:
    """The four commands on a mutated file (``explicit``: name its format)."""
    fmt = ["--format", case.fmt] if explicit else []
    pfmt = ["--pred-format", case.fmt] if explicit else []
    out = out_dir / ("out" + {"hateval": ".tsv", "spans-csv": ".csv", "semeval2021": ".json",
                              "ptc": ".tsv", "brat": ""}[case.convert_to])
    return [
        ["validate", str(path), *fmt, "--json"],
        ["validate", str(path), *fmt],
        ["score", str(case.gold), str(path), "--metric", case.metric, *pfmt, "--json"],
        ["convert", str(path), str(out), "--to", case.convert_to,
         *(["--from", case.fmt] if explicit else [])],
        ["agree", str(case.gold), str(path), "--measure", case.measure, *fmt, "--json"],
    ]


def check_one(case: Case, data: bytes, explicit: bool) -> list[str]:
    """Run every command on ``data`` (a mutated ``case.path``); the broken promises, if any."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / case.path.name
        path.write_bytes(data)
        found = []
        for argv in commands(case, path, Path(tmp), explicit):
            try:
                r = run(argv)
            except Exception as exc:  # the contract: never an exception out of main
                found.append(f"{' '.join(argv[:1])}: {type(exc).__name__}: {exc}"[:300])
                continue
            found.extend(f"{argv[0]}: {p}" for p in problems(r))
        return found


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_sample_keeps_the_command_line_contract(name: str, data: st.DataObject) -> None:
    case = CASES[name]
    mutated = mutate(case.path.read_bytes(), Picker(data.draw))
    explicit = data.draw(st.booleans())
    assert check_one(case, mutated, explicit) == []


def test_the_mutator_reaches_every_kind_of_damage() -> None:
    """The pieces cover what the issue's fuzzing run used (a guard against a silent shrink)."""
    joined = "".join(PIECES)
    for needle in ("\\udfff", "9" * 5000, "[" * 1000, "\x1c", "\r\n", "\ufeff", "-1", "1e400"):
        assert needle in joined


OPTION_FILES = {
    "--labels": (SAMPLES / "propaganda/labels.txt",
                 ["score", str(SAMPLES / "propaganda/gold.json"),
                  str(SAMPLES / "propaganda/system_a.json"), "--metric", "martino", "--json"]),
    "--taxonomy": (ROOT / "core/data/mafalda_taxonomy.json",
                   ["score", str(SAMPLES / "mafalda/gold.jsonl"),
                    str(SAMPLES / "mafalda/system_a.jsonl"), "--metric", "mafalda", "--json"]),
    "--meta": (FUZZ / "meta.csv",
               ["slices", str(SAMPLES / "propaganda/gold.json"),
                str(SAMPLES / "propaganda/system_a.json"), "--dimension", "meta:source",
                "--samples", "0", "--json"]),
}
"""Option files: each mutated copy is given to the command after the option."""


def check_option(option: str, data: bytes) -> list[str]:
    """Run the command of ``option`` with a mutated option file; the broken promises."""
    source, argv = OPTION_FILES[option]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / source.name
        path.write_bytes(data)
        try:
            return problems(run([*argv, option, str(path)]))
        except Exception as exc:  # the contract: never an exception out of main
            return [f"{option}: {type(exc).__name__}: {exc}"[:300]]


_DECISIONS: list[tuple[Any, bytes]] = []


def decisions_sample() -> tuple[Any, bytes]:
    """The consensus of the three sample annotators and its decisions CSV (built once)."""
    if not _DECISIONS:
        from core.analysis.consensus import consensus, decisions_csv
        from core.cli.loading import load_annotator_sets

        sets, texts = load_annotator_sets(
            [str(SAMPLES / f"propaganda/annotator_{i}.json") for i in (1, 2, 3)], fmt=None,
            purpose="adjudication")
        result = consensus(sets, texts, min_agree=2, match="exact")
        _DECISIONS.append((result, decisions_csv(result).encode("utf-8")))
    return _DECISIONS[0]


def check_decisions(data: bytes) -> list[str]:
    """Read a mutated decisions CSV as the Curation page's "Resume" does
    (:func:`ui.curation.apply_upload`): a :class:`FormatError` (or the csv module's error, which
    that page names with the file) is a refusal; anything else is a broken promise."""
    import csv

    from core.analysis.consensus import read_decisions
    from core.formats import decode
    from core.model.errors import FormatError

    result, _ = decisions_sample()
    try:
        read_decisions(decode("decisions.csv", data), result, file="decisions.csv")
    except (FormatError, csv.Error):
        return []
    except Exception as exc:
        return [f"decisions CSV: {type(exc).__name__}: {exc}"[:300]]
    return []


@pytest.mark.parametrize("option", sorted(OPTION_FILES))
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_option_file_keeps_the_command_line_contract(option: str,
                                                            data: st.DataObject) -> None:
    source, _ = OPTION_FILES[option]
    assert check_option(option, mutate(source.read_bytes(), Picker(data.draw))) == []


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_decisions_csv_is_refused_with_a_message(data: st.DataObject) -> None:
    _, original = decisions_sample()
    assert check_decisions(mutate(original, Picker(data.draw))) == []
