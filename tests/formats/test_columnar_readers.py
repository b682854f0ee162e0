"""The columnar (fast) readers give exactly what the precise readers give.

Same texts, same spans in the same order, the same warnings (messages, fields, lines, order,
counts per kind) on valid files, and the same error on invalid ones: the fast path hands an
invalid file to the precise path, which names file, line and field.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli import main
from core.formats import Loaded, ReadOptions, ptc, semeval2021, spans_csv
from core.model import Span
from core.model.errors import Diagnostic, FormatError, expand_diagnostics

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
FUZZ = ROOT / "tests" / "fuzz" / "test_cli_fuzz.py"
TEXT_CHARS = "ab cd\t\né\u00a0\u2028x\x1c"
LABELS = ["Doubt", "Slogans", "Loaded Language"]


def _fuzz_module() -> Any:
    """The command-line fuzz tests' mutator (tests/fuzz), reused here on the readers."""
    spec = importlib.util.spec_from_file_location("columnar_fuzz_inputs", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


FUZZ_MODULE = _fuzz_module()
Reader = Callable[..., Loaded]


def outcome(reader: Reader, data: bytes, options: ReadOptions, policy: str = "refuse"
            ) -> tuple[str, object]:
    """What a reader gives: its error message, or every value a caller can see."""
    try:
        loaded = reader({"f.json": data}, name="in/f.json",
                        options=dataclasses.replace(options, beyond_text=policy))
    except FormatError as exc:
        return "error", str(exc)
    diags = list(expand_diagnostics(loaded.diagnostics))
    sets = [(s.name, s.role, s.alternatives, list(s.spans.items())) for s in loaded.sets]
    return "ok", (loaded.format, loaded.source, list(loaded.texts.items()), sets, diags)


def same(data: bytes, options: ReadOptions | None = None, policy: str = "refuse") -> str:
    options = options or ReadOptions()
    fast = outcome(semeval2021.read, data, options, policy)
    precise = outcome(semeval2021.read_precise, data, options, policy)
    assert fast == precise
    return fast[0]


@st.composite
def corpora(draw: st.DrawFn) -> bytes:
    """Valid SemEval-2021 files: whitespace at span edges, fragments that match or not,
    duplicate spans, documents without text or labels, one line or indented, with a BOM."""
    docs = []
    for i in range(draw(st.integers(0, 5))):
        text = draw(st.text(TEXT_CHARS, min_size=0, max_size=40)) if draw(st.booleans()) \
            else None
        labels = []
        limit = len(text) if text is not None else 50
        for _ in range(draw(st.integers(0, 6)) if limit > 1 else 0):
            start = draw(st.integers(0, limit - 1))
            end = draw(st.integers(start + 1, limit))
            label: dict[str, object] = {"technique": draw(st.sampled_from(LABELS)),
                                        "start": start, "end": end}
            if text is not None and draw(st.booleans()):
                label["text_fragment"] = (text[start:end] if draw(st.booleans())
                                          else text[start:end] + "x")
            labels.append(label)
            if draw(st.integers(0, 4)) == 0:
                labels.append(dict(label))  # the same span twice
        entry: dict[str, object] = {"id": f"d{i}", "labels": labels}
        if text is not None:
            entry["text"] = text
        docs.append(entry)
    raw = json.dumps(docs, ensure_ascii=draw(st.booleans()),
                     indent=draw(st.sampled_from([None, 1, 2])))
    data = raw.encode("utf-8")
    return b"\xef\xbb\xbf" + data if draw(st.booleans()) else data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_fast_path_equals_precise_path_on_valid_files(data: bytes) -> None:
    assert semeval2021.read_fast(data, name="in/f.json", fname="f.json",
                                 options=ReadOptions()) is not None
    assert same(data) == "ok"


@settings(max_examples=60, deadline=None)
@given(corpora(), st.sampled_from(["clip", "official"]))
def test_fast_path_equals_precise_path_under_every_beyond_text_policy(data: bytes,
                                                                      policy: str) -> None:
    # Spans pushed past their text: refused by default, kept (and reported) otherwise.
    docs = json.loads(data.decode("utf-8-sig"))
    for d in docs:
        for lab in d["labels"]:
            lab["end"] += 3
    raw = json.dumps(docs).encode()
    same(raw, policy=policy)
    past = any(lab["end"] > len(d["text"]) for d in docs if d.get("text") is not None
               for lab in d["labels"])
    assert same(raw) == ("error" if past else "ok")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["system_b.json", "gold.json", "system_a.json"]))
def test_fuzzed_files_give_the_precise_paths_error_or_result(data: st.DataObject,
                                                              sample: str) -> None:
    path = ROOT / "sample_data" / "propaganda" / sample
    mutated = FUZZ_MODULE.mutate(path.read_bytes(), FUZZ_MODULE.Picker(draw=data.draw))
    same(mutated)


@pytest.mark.parametrize("path", sorted((HERE / "broken").glob("*.json")), ids=lambda p: p.name)
def test_broken_files_give_the_same_error(path: Path) -> None:
    same(path.read_bytes())


def _semeval_files() -> list[Path]:
    found = sorted((ROOT / "sample_data").rglob("*.json")) + sorted(
        (ROOT / "tests" / "data").rglob("*.json"))
    return [p for p in found
            if semeval2021.sniff(p.name, p.read_bytes()[:4096].decode("utf-8", "replace")) >= 50]


SEMEVAL_FILES = _semeval_files()


def test_the_repository_holds_semeval_files_to_compare() -> None:
    assert len(SEMEVAL_FILES) >= 6


@pytest.mark.parametrize("path", SEMEVAL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_files_read_the_same(path: Path) -> None:
    same(path.read_bytes())


def test_label_lists_and_gold_texts_are_applied_as_the_precise_path_does() -> None:
    text = "one two  three"
    docs = [{"id": "1", "labels": [{"technique": "Doubt", "start": 3, "end": 9}]},
            {"id": "2", "text": text, "labels": [{"technique": "Slogans", "start": 0,
                                                   "end": 4}]}]
    data = json.dumps(docs).encode()
    assert same(data, ReadOptions(labels=["Doubt", "Slogans"])) == "ok"
    assert same(data, ReadOptions(labels=["Doubt"])) == "error"
    gold_texts: Mapping[str, str | None] = {"1": text, "2": None}
    assert same(data, ReadOptions(gold_texts=gold_texts)) == "ok"
    loaded = semeval2021.read({"f.json": data}, name="f.json",
                              options=ReadOptions(gold_texts=gold_texts))
    assert loaded.texts == {"1": text, "2": text}
    assert [d.message for d in loaded.diagnostics] == [
        "the span [3, 9) begins and ends in whitespace: ' two  '"]


@pytest.mark.parametrize("value", ['"7"', "true", "7.0", "-1", "null", "1e400", "[7]",
                                   "99999999999999999999999", '"\\ud800"', '"10"'])
def test_unusual_offsets_go_through_the_precise_path(value: str) -> None:
    raw = ('[{"id": "1", "text": "hello world", "labels": [{"technique": "Doubt", '
           f'"start": 0, "end": {value}}}]}}]').encode()
    assert semeval2021.read_fast(raw, name="f", fname="f", options=ReadOptions()) is None
    same(raw)


def test_numeric_ids_duplicate_ids_and_bad_fragments_go_through_the_precise_path() -> None:
    for docs in ([{"id": 7, "labels": []}], [{"id": "a", "labels": []}, {"id": "a", "labels": []}],
                 [{"id": "a", "text": "abc", "labels": [{"technique": "X", "start": 0, "end": 1,
                                                          "text_fragment": 5}]}]):
        raw = json.dumps(docs).encode()
        assert semeval2021.read_fast(raw, name="f", fname="f", options=ReadOptions()) is None
        same(raw)


@pytest.mark.parametrize("raw", [
    # two equal keys: the last one counts, in both paths
    b'[{"id": "a", "id": "b", "text": "hello world", "labels": [{"technique": "X", '
    b'"start": 0, "start": 6, "end": 11}]}]',
    # keys written with escapes, a fragment among them
    b'[{"i\\u0064": "a", "text": "hello world", "labels": [{"technique": "X", "start": 0, '
    b'"end": 5, "text_\\u0066ragment": "other"}]}]',
    # keys the format does not define, holding any JSON value
    b'[{"id": "a", "extra": [1, {"q": null}], "labels": [{"technique": "X", "start": 0, '
    b'"end": 5, "score": 0.5}], "text": "hello world"}]',
    # NaN and huge numbers are JSON only to the standard library
    b'[{"id": "a", "extra": NaN, "labels": []}]',
    b'[{"id": "a", "extra": 1e999, "labels": []}]',
    b'[{"id": "a", "labels": [{"technique": "X", "start": -0, "end": 5}], "text": null}]',
    b'[{"id": "a", "labels": [{"technique": "X", "start": 0, "end": 5, '
    b'"text_fragment": null}], "text": "hello world"}]',
    b'[{"id": "a", "labels": [{"technique": "X", "start": 0, "end": 5, '
    b'"text_fragment": ""}], "text": "hello world"}]',
    b'[]', b' [ ] ', b'\xef\xbb\xbf[]', b'[]\n\x00', b'{}', b'[{"id": "a", "labels": []},]',
    b'[{"id": "a", "labels": [], "text": "\xff"}]',
    # an undecodable byte in a value msgspec skips (a key the format does not define)
    b'[{"id": "a", "extra": "\x80", "labels": []}]',
])
def test_decoder_corner_cases_read_as_the_precise_path_reads_them(raw: bytes) -> None:
    same(raw)


def _mixed_warnings(tmp_path: Path, n: int) -> tuple[Path, Path]:
    """A gold with ``n`` spans at whitespace, fragment mismatches between them and duplicates;
    pretty-printed so that every warning has its own line number."""
    text = " word" * (n + 1)
    labels: list[dict[str, object]] = []
    for i in range(n):
        lab: dict[str, object] = {"start": 5 * i, "end": 5 * i + 5, "technique": "Doubt"}
        if i % 3 == 0:
            lab["text_fragment"] = "other"
        labels.append(lab)
        if i % 7 == 0:
            labels.append(dict(lab))
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"id": "1", "text": text, "labels": labels}], indent=2),
                    encoding="utf-8")
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps([{"id": "1", "text": text, "labels": labels[:3]}]),
                    encoding="utf-8")
    return gold, pred


@pytest.mark.parametrize("flags", [["--json"], ["--json", "--all-warnings"], [],
                                   ["--all-warnings"]])
def test_score_prints_the_same_warnings_as_the_precise_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        flags: list[str]) -> None:
    gold, pred = _mixed_warnings(tmp_path, 150)
    argv = ["score", str(gold), str(pred), "--metric", "martino", *flags]
    assert main(argv) == 0
    fast = capsys.readouterr().out
    monkeypatch.setattr(semeval2021, "read_fast", lambda *a, **k: None)
    assert main(argv) == 0
    assert capsys.readouterr().out == fast
    if "--json" in flags:
        out = json.loads(fast)
        # gold: 172 spans (150 and 22 copies) at whitespace, 58 fragments that differ, 22
        # copies; pred: 3 spans, 2 fragments that differ, 1 copy.
        assert out["warning_counts"] == {"whitespace": 175, "fragment-mismatch": 60,
                                         "duplicate-span": 23}
        assert len(out["warnings"]) == (258 if "--all-warnings" in flags else 100)


def test_warnings_are_grouped_per_kind_with_the_first_occurrence_and_a_count(
        tmp_path: Path) -> None:
    gold, _ = _mixed_warnings(tmp_path, 150)
    data = gold.read_bytes()
    loaded = semeval2021.read({"gold.json": data}, name="gold.json", options=ReadOptions())
    precise = semeval2021.read_precise({"gold.json": data}, name="gold.json",
                                       options=ReadOptions())
    assert [(d.kind, d.count) for d in loaded.diagnostics] == [
        ("fragment-mismatch", 58), ("whitespace", 172), ("duplicate-span", 22)]
    by_kind: dict[str, list[Diagnostic]] = {}
    for d in precise.diagnostics:
        by_kind.setdefault(d.kind, []).append(d)
    for group in loaded.diagnostics:
        first = by_kind[group.kind][0]
        assert (group.file, group.message, group.line, group.field, group.path) == (
            first.file, first.message, first.line, first.field, first.path)
        assert group.more is not None
        assert [d for _, d in group.more.produce()] == by_kind[group.kind]
    assert Counter(d.kind for d in precise.diagnostics) == {
        d.kind: d.count for d in loaded.diagnostics}


# --- spans CSV ------------------------------------------------------------------------------

def csv_outcome(reader: Reader, data: bytes, options: ReadOptions) -> tuple[str, object]:
    try:
        loaded = reader({"s.csv": data}, name="in/s.csv", options=options)
    except FormatError as exc:
        return "error", str(exc)
    diags = list(expand_diagnostics(loaded.diagnostics))
    sets = [(s.name, s.role, list(s.spans.items())) for s in loaded.sets]
    return "ok", (list(loaded.texts.items()), sets, diags)


def same_csv(data: bytes, options: ReadOptions | None = None) -> str:
    options = options or ReadOptions()
    fast = csv_outcome(spans_csv.read, data, options)
    assert fast == csv_outcome(spans_csv.read_precise, data, options)
    return fast[0]


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    """Valid spans CSV: declared documents, copies of a span, annotators, extra columns, blank
    rows, CRLF line ends, labels in any script."""
    annotators = draw(st.booleans())
    extra = draw(st.booleans())
    header = ["doc_id", "start", "end", "label"] + (["annotator"] if annotators else []) + (
        ["Note"] if extra else [])
    header = draw(st.permutations(header))
    lines = [",".join(h.upper() if draw(st.booleans()) else h for h in header)]
    previous: dict[str, str] | None = None
    for _ in range(draw(st.integers(0, 25))):
        if previous is not None and draw(st.integers(0, 5)) == 0:
            row = dict(previous)  # the same span again
        else:
            start = draw(st.integers(0, 40))
            row = {"doc_id": draw(st.sampled_from(["d1", "d2", "10", "é3"])),
                   "start": str(start), "end": str(start + draw(st.integers(1, 9))),
                   "label": draw(st.sampled_from([*LABELS, "Étiquette"])),
                   "annotator": draw(st.sampled_from(["ann1", "ann2"])), "Note": "x"}
            if draw(st.integers(0, 6)) == 0:
                row.update(start="", end="", label="")  # declares a document
        previous = row
        lines.append(",".join(row.get(h.lower(), "") for h in header))
        if draw(st.integers(0, 8)) == 0:
            lines.append("")
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    return (eol.join(lines) + (eol if draw(st.booleans()) else "")).encode("utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_files())
def test_csv_fast_path_equals_precise_path_on_valid_files(data: bytes) -> None:
    assert spans_csv.read_csv_fast(data, name="in/s.csv", options=ReadOptions()) is not None
    assert same_csv(data) == "ok"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_files(), st.data())
def test_fuzzed_csv_gives_the_precise_paths_error_or_result(valid: bytes,
                                                            data: st.DataObject) -> None:
    same_csv(FUZZ_MODULE.mutate(valid, FUZZ_MODULE.Picker(draw=data.draw)))


@pytest.mark.parametrize("path", [*sorted((HERE / "broken").glob("*.csv")),
                                  ROOT / "sample_data" / "formats" / "spans_annotators.csv"],
                         ids=lambda p: p.name)
def test_csv_repository_files_read_the_same(path: Path) -> None:
    same_csv(path.read_bytes())


def test_csv_label_lists_are_applied_as_the_precise_path_does() -> None:
    data = b"doc_id,start,end,label\n1,0,4,Doubt\n1,0,4,Doubt\n2,,,\n"
    assert same_csv(data, ReadOptions(labels=["Doubt"])) == "ok"
    assert same_csv(data, ReadOptions(labels=["Slogans"])) == "error"
    loaded = spans_csv.read({"s.csv": data}, name="s.csv", options=ReadOptions())
    assert list(loaded.texts) == ["1", "2"]
    assert [(d.kind, d.count) for d in loaded.diagnostics] == [("duplicate-span", 1)]


# --- PTC TSV --------------------------------------------------------------------------------

def ptc_outcome(data: bytes, *, fast: bool, monkeypatch: pytest.MonkeyPatch
                ) -> tuple[str, object]:
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(ptc, "read_tsv_fast", lambda *a, **k: None)
        try:
            loaded = ptc.read({"p.tsv": data}, name="in/p.tsv", options=ReadOptions())
        except FormatError as exc:
            return "error", str(exc)
    diags = list(expand_diagnostics(loaded.diagnostics))
    sets = [(s.name, s.role, list(s.spans.items())) for s in loaded.sets]
    return "ok", (list(loaded.texts.items()), sets, diags, loaded.records)


def same_ptc(data: bytes, monkeypatch: pytest.MonkeyPatch) -> str:
    fast = ptc_outcome(data, fast=True, monkeypatch=monkeypatch)
    assert fast == ptc_outcome(data, fast=False, monkeypatch=monkeypatch)
    return fast[0]


@st.composite
def ptc_files(draw: st.DrawFn) -> bytes:
    """Valid PTC TSV: 3 or 4 columns, repeated spans, spaces around cells, CRLF, a final
    newline or not."""
    four = draw(st.booleans())
    lines = []
    previous: str | None = None
    for _ in range(draw(st.integers(0, 25))):
        if previous is not None and draw(st.integers(0, 4)) == 0:
            lines.append(previous)
            continue
        start = draw(st.integers(0, 40))
        cells = [draw(st.sampled_from(["1", "22", "007"]))]
        if four:
            cells.append(draw(st.sampled_from([*LABELS, "Étiquette"])))
        cells += [str(start), str(start + draw(st.integers(1, 9)))]
        pad = " " if draw(st.integers(0, 5)) == 0 else ""
        previous = "\t".join(pad + c for c in cells) + pad
        lines.append(previous)
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    return (eol.join(lines) + (eol if lines and draw(st.booleans()) else "")).encode()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=ptc_files())
def test_ptc_fast_path_equals_precise_path_on_valid_files(
        data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (not data or ptc.read_tsv_fast(data, name="p.tsv", set_name="p",
                                          options=ReadOptions()) is not None)
    assert same_ptc(data, monkeypatch) == "ok"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(valid=ptc_files(), data=st.data())
def test_fuzzed_ptc_gives_the_precise_paths_error_or_result(
        valid: bytes, data: st.DataObject, monkeypatch: pytest.MonkeyPatch) -> None:
    same_ptc(FUZZ_MODULE.mutate(valid, FUZZ_MODULE.Picker(draw=data.draw)), monkeypatch)


@pytest.mark.parametrize("path", [*sorted((HERE / "broken").glob("*.tsv")),
                                  *sorted((ROOT / "sample_data" / "formats").glob("ptc_*.tsv"))],
                         ids=lambda p: p.name)
def test_ptc_repository_files_read_the_same(path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    same_ptc(path.read_bytes(), monkeypatch)


def test_ptc_row_order_is_kept_as_columns() -> None:
    data = b"2\tDoubt\t0\t5\n1\tSlogans\t3\t9\n2\tDoubt\t0\t5\n"
    loaded = ptc.read({"p.tsv": data}, name="p.tsv", options=ReadOptions())
    assert isinstance(loaded.records.rows, ptc.RowColumns)  # type: ignore[attr-defined]
    assert list(loaded.records.rows) == [  # type: ignore[attr-defined]
        ("2", Span(0, 5, "Doubt")), ("1", Span(3, 9, "Slogans")), ("2", Span(0, 5, "Doubt"))]
    assert [str(d) for d in loaded.diagnostics] == [
        "p.tsv:3: article 2 has the span [0, 5) 'Doubt' again (first on line 1); kept (each "
        "copy counts in the scores)"]


# --- spans JSONL ------------------------------------------------------------------------------

@st.composite
def jsonl_files(draw: st.DrawFn) -> bytes:
    """Valid spans JSONL, from the same rows as :func:`csv_files`."""
    lines = draw(csv_files()).decode().replace("\r\n", "\n").split("\n")
    header = [h.lower() for h in lines[0].split(",")]
    out = []
    for line in lines[1:]:
        if not line:
            out.append(draw(st.sampled_from(["", "  "])))
            continue
        row: dict[str, object] = dict(zip(header, line.split(","), strict=True))
        if row["start"] != "":
            row["start"], row["end"] = int(str(row["start"])), int(str(row["end"]))
        elif draw(st.booleans()):
            del row["start"], row["end"], row["label"]
        out.append(json.dumps(row, ensure_ascii=draw(st.booleans())))
    return "\n".join(out).encode()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(jsonl_files())
def test_jsonl_fast_path_equals_precise_path_on_valid_files(data: bytes) -> None:
    if data.strip():
        assert spans_csv.read_jsonl_fast(data, name="in/s.csv", options=ReadOptions()) is not None
    same_csv(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(jsonl_files(), st.data())
def test_fuzzed_jsonl_gives_the_precise_paths_error_or_result(valid: bytes,
                                                              data: st.DataObject) -> None:
    same_csv(FUZZ_MODULE.mutate(valid, FUZZ_MODULE.Picker(draw=data.draw)))


@pytest.mark.parametrize("path", [*sorted((HERE / "broken").glob("*.jsonl")),
                                  ROOT / "sample_data" / "formats" / "spans_system_b.jsonl"],
                         ids=lambda p: p.name)
def test_jsonl_repository_files_read_the_same(path: Path) -> None:
    same_csv(path.read_bytes())


@pytest.mark.parametrize("data", [b"doc_id,st\rart,end,label\n1,0,4,Doubt\n",
                                  b"doc_id,start,end,label\n1,0,4,Doubt\r2,0,4,Doubt\n",
                                  b"doc_id,start,end,label\r\n1,0,4,Doubt\r\n"])
def test_csv_carriage_returns_are_read_as_the_csv_module_reads_them(data: bytes) -> None:
    same_csv(data)


def test_escaped_surrogate_pairs_stay_on_the_fast_path_and_lone_ones_do_not() -> None:
    # json.dumps writes an emoji as a \\ud83d\\ude00 pair: the fast path reads such files.
    text = "Fear \U0001F631 sells, they say \U0001F4B0."
    docs = [{"id": "1", "text": text, "labels": [
        {"technique": "Loaded Language \U0001F525", "start": 0, "end": 6,
         "text_fragment": text[0:6]}]}]
    raw = json.dumps(docs).encode()
    assert b"\\ud83d\\ude31" in raw
    fast = semeval2021.read_fast(raw, name="f", fname="f", options=ReadOptions())
    assert fast is not None and fast.texts == {"1": text}
    assert same(raw) == "ok"
    for lone in (b'"\\ud83d"', b'"\\ude31"', b'"\\ud83d\\ud83d\\ude31"',
                 b'"\\ud83d\\ude31\\ude31"', b'"\\\\ud83d\\ude31"'):
        broken = raw.replace(b'"1"', lone, 1)
        assert semeval2021.read_fast(broken, name="f", fname="f", options=ReadOptions()) is None
        assert same(broken) == "error"


def test_a_csv_field_longer_than_the_csv_modules_limit_reads_as_the_precise_path_reads_it() -> None:
    # pyarrow reads any field; the csv module refuses one over field_size_limit (131,072).
    import csv

    long_label = "x" * (csv.field_size_limit() + 1)
    data = f"doc_id,start,end,label\nd1,0,3,{long_label}\nd1,4,6,ok\n".encode()
    assert spans_csv.read_csv_fast(data, name="f.csv", options=ReadOptions()) is None
    assert same_csv(data) == "error"
