"""The Label Studio reader's fast paths against the paths they stand in for (issue 29).

The JSON and JSON-MIN exports are decoded one element at a time, without the number hooks when
no run of digits could make a number too long; a span value that needs no message is read
without building a ``Span`` (:func:`~core.formats.label_studio._plain_spans`); the line locator
takes the elements' offsets from the decoding and counts newlines from the nearest line asked
before. Each is held here to what the slower path gives: the same values, the same spans with no
warning, the same lines, and the whole reader to the same texts, sets, warnings and errors as
with every fast path turned off (the whole file decoded first, as before). The bench's corpora
take every fast path (a guard without a clock, as ``test_fast_path_guard.py`` is for
SemEval-2021).
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.formats import Loaded, ReadOptions, label_studio
from core.formats._common import JsonLocator
from core.model.errors import FormatError, expand_diagnostics
from core.model.textsafe import MAX_DIGITS, HugeNumber

BENCH = Path(__file__).resolve().parents[2] / "bench"
TEXT = "The council  promised cheaper ferries;\nthe islanders call it a fairy tale. "

offsets = st.one_of(st.integers(-3, len(TEXT) + 3), st.just(10**12), st.just(10**12 - 1),
                    st.booleans(), st.none(), st.sampled_from(["3", " 7", "x", 2.0]))
labels: st.SearchStrategy[Any] = st.one_of(
    st.lists(st.one_of(st.sampled_from(["PER", "LOC", " ", "", "Doubt "]), st.integers(0, 2)),
             max_size=3),
    st.sampled_from(["PER", None, {}]))


@st.composite
def span_values(draw: st.DrawFn) -> object:
    if draw(st.integers(0, 20)) == 0:
        return draw(st.sampled_from([[], "x", None, 3]))
    value: dict[str, Any] = {}
    for key, strategy in (("start", offsets), ("end", offsets), ("labels", labels)):
        if draw(st.integers(0, 9)):
            value[key] = draw(strategy)
    start, end = value.get("start"), value.get("end")
    if draw(st.booleans()) and type(start) is int and type(end) is int and 0 <= start <= end:
        value["text"] = TEXT[start:end]  # the fragment the text holds
    elif draw(st.booleans()):
        value["text"] = draw(st.one_of(st.text("ab ", max_size=4), st.integers(0, 3)))
    return value


@settings(max_examples=400, deadline=None)
@given(span_values(), st.sampled_from([TEXT, None, TEXT[:20]]),
       st.sampled_from([None, ("PER", "LOC"), ("PER",)]),
       st.sampled_from(["refuse", "clip", "official"]))
def test_plain_spans_are_what_span_value_reads_without_a_word(
        value: object, text: str | None, allowed: tuple[str, ...] | None, beyond: Any) -> None:
    plain = label_studio._plain_spans(value, text, allowed)
    if plain is None:
        return  # read by _span_value, as every value was before
    loaded = Loaded("label-studio", "f.json")
    options = ReadOptions(labels=allowed, beyond_text=beyond)
    assert label_studio._span_value(value, "f.json", {"path": "[0]"}, text, options,
                                    loaded) == plain
    assert loaded.diagnostics == []


def test_plain_spans_take_the_common_values_and_leave_the_rest() -> None:
    value = {"start": 4, "end": 11, "text": "council", "labels": ["PER", "LOC"]}
    assert label_studio._plain_spans(value, TEXT, None) == [(4, 11, "PER"), (4, 11, "LOC")]
    assert label_studio._plain_spans(value, None, ("PER", "LOC")) == [(4, 11, "PER"),
                                                                      (4, 11, "LOC")]
    for other in ({**value, "text": "Council"}, {**value, "end": 12}, {**value, "start": True},
                  {**value, "labels": ["PER", " "]}, {**value, "end": 4}):
        assert label_studio._plain_spans(other, TEXT, None) is None  # a warning or an error
    assert label_studio._plain_spans(value, TEXT, ("PER",)) is None  # not in the label list
    assert label_studio._plain_spans({**value, "end": 99}, TEXT[:20], None) is None


def _typed(value: object) -> object:
    """``value`` with the type of every leaf, so that ``1 == 1.0 == True`` tell apart."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value.text if isinstance(value, HugeNumber) else value)


digit_counts = st.one_of(st.integers(1, 20), st.integers(MAX_DIGITS - 3, MAX_DIGITS + 3),
                         st.integers(MAX_DIGITS // 2 - 2, MAX_DIGITS // 2 + 2))
numbers = st.builds(lambda sign, n, frac, exp: sign + "7" * n + frac + exp,
                    st.sampled_from(["", "-"]), digit_counts,
                    st.one_of(st.just(""), digit_counts.map(lambda n: "." + "3" * n)),
                    st.one_of(st.just(""), digit_counts.map(lambda n: "e-" + "1" * min(n, 3))))
leaves = st.one_of(numbers, st.integers(0, 10**6).map(str),
                   digit_counts.map(lambda n: json.dumps("a" + "9" * n)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(leaves, max_size=4), min_size=1, max_size=5), st.integers(0, 600))
def test_without_a_long_digit_run_the_plain_decoder_gives_the_hooks_values(
        rows: list[list[str]], pad: int) -> None:
    content = " " * pad + "[" + ", ".join("[" + ", ".join(r) + "]" for r in rows) + "]"
    long_number = any(len(part) > MAX_DIGITS for r in rows for leaf in r if leaf[0] != '"'
                      for part in leaf.lstrip("-").replace("e", ".").split("."))
    if long_number:
        assert label_studio._long_digit_run(content)
    if not label_studio._long_digit_run(content):
        plain = label_studio._PLAIN.decode(content)
        assert _typed(plain) == _typed(label_studio._HOOKED.decode(content))
    # the reader's decoding, whichever decoder it picks, gives what the hooks give
    assert _typed([v for _, v in label_studio._each_task(content, [])]) == _typed(
        label_studio._HOOKED.decode(content))


def _paths(value: object, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            yield from _paths(v, (*prefix, k))


records = st.lists(st.dictionaries(st.sampled_from(["id", "text", "label", "n"]),
                                   st.one_of(st.integers(0, 9), st.text("a\n", max_size=3),
                                             st.lists(st.integers(0, 9), max_size=3)),
                                   max_size=4), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(records, st.sampled_from([None, 0, 1, 2]), st.text(" \n\t\r", max_size=3),
       st.randoms(use_true_random=False))
def test_the_locator_given_the_offsets_finds_the_lines_it_finds_alone(
        value: list[dict[str, Any]], indent: int | None, lead: str, rnd: Any) -> None:
    content = lead + json.dumps(value, indent=indent) + "\n"
    starts: list[int] = []
    assert [v for _, v in label_studio._each_task(content, starts)] == value
    seeded, alone = JsonLocator(content), JsonLocator(content)
    seeded.items_found(starts)
    paths = [p for p in _paths(value) if p]
    rnd.shuffle(paths)
    for path in paths:  # asked in any order; each answer as a fresh locator gives it
        expected = JsonLocator(content).line(*path)
        assert expected is not None
        assert seeded.line(*path) == alone.line(*path) == expected


@contextmanager
def _slow_paths() -> Iterator[None]:
    """The reader as it was: the whole file decoded first (with the hooks), every span value
    read by ``_span_value``, the locator indexing the file itself."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(label_studio, "_streamable", lambda content: False)
        mp.setattr(label_studio, "_plain_spans", lambda value, text, allowed: None)
        mp.setattr(label_studio, "_long_digit_run", lambda content: True)
        mp.setattr(JsonLocator, "items_found", lambda self, starts: None)
        yield


def _outcome(raw: bytes, options: ReadOptions) -> object:
    name = "export.json" if raw[:1] in (b"[", b"{") else "export.csv"
    try:
        loaded = label_studio.read({name: raw}, name=name, options=options)
    except FormatError as exc:
        return str(exc)
    return (sorted(loaded.texts.items()),
            [(s.name, s.role, sorted((d, tuple(v)) for d, v in s.spans.items()))
             for s in loaded.sets],
            [(d.message, d.line, d.field, d.path) for d in expand_diagnostics(loaded.diagnostics)])


def _csv(records: list[dict[str, Any]]) -> str:
    """JSON-MIN records as Label Studio's CSV export writes them (sorted columns, strings
    quoted, numbers not, a control tag's values as compact JSON)."""
    header = sorted({key for record in records for key in record})
    out = io.StringIO(newline="")
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(header)
    writer.writerows(["" if key not in record else json.dumps(record[key], separators=(",", ":"))
                      if isinstance(record[key], (list, dict)) else record[key]
                      for key in header] for record in records)
    return out.getvalue()


@st.composite
def exports(draw: st.DrawFn) -> bytes:
    """A JSON, JSON-MIN or CSV export of a few tasks, with values that warn or fail now and
    then."""
    texts = draw(st.lists(st.sampled_from([TEXT, "Tickets doubled again.", " a b "]),
                          min_size=1, max_size=4))
    valid = st.builds(
        lambda t, s, n, lab: {"start": s, "end": s + n, "text": t[s:s + n], "labels": [lab]},
        st.sampled_from(texts), st.integers(0, 5), st.integers(1, 6),
        st.sampled_from(["PER", "LOC"]))
    value = st.integers(0, 11).flatmap(lambda k: span_values() if k == 0 else valid)
    full = draw(st.booleans())
    tasks: list[dict[str, Any]] = []
    for t, text in enumerate(texts):
        people = draw(st.lists(st.sampled_from([1, 2, "ann@example.org"]), min_size=1, max_size=3,
                               unique=True))
        if full:
            annotations = [{"completed_by": who, "was_cancelled": draw(st.integers(0, 9)) == 0,
                            "result": [{"type": draw(st.sampled_from(["labels", "choices"])),
                                        "value": v} for v in draw(st.lists(value, max_size=4))]}
                           for who in people]
            tasks.append({"id": t + 1, "data": {"text": text}, "annotations": annotations})
        else:
            tasks.extend({"text": text, "id": t + 1, "label": draw(st.lists(value, max_size=4)),
                          "annotator": who, "annotation_id": 10 * t + k, "lead_time": 1.5}
                         for k, who in enumerate(people))
    as_csv = draw(st.booleans())
    if not full and tasks and as_csv:
        raw = _csv(tasks)
    else:
        raw = json.dumps(tasks, indent=draw(st.sampled_from([None, 1, 2])))
    if draw(st.integers(0, 7)) == 0:  # a damaged file: cut short, or a huge number in it
        raw = draw(st.sampled_from([raw[:len(raw) * 2 // 3],
                                    raw.replace('"id": 1,', '"id": ' + "9" * 1200 + ",", 1)]))
    return raw.encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exports(), st.sampled_from([ReadOptions(), ReadOptions(labels=("PER", "LOC")),
                                   ReadOptions(beyond_text="clip")]))
def test_the_fast_paths_read_every_export_as_the_slow_ones(raw: bytes,
                                                           options: ReadOptions) -> None:
    fast = _outcome(raw, options)
    with _slow_paths():
        assert _outcome(raw, options) == fast


def test_the_bench_exports_take_every_fast_path(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.delitem(sys.modules, "bench_tool_formats", raising=False)
    bench = importlib.import_module("bench_tool_formats")
    paths = bench.label_studio_exports(bench.label_studio_tasks(60, 600), tmp_path)
    slow: list[str] = []
    given_offsets: list[int] = []

    class Refused:
        def raw_decode(self, content: str, i: int) -> Any:
            slow.append("hooked decoder")
            return json.JSONDecoder(parse_int=label_studio.parse_json_int,
                                    parse_float=label_studio.parse_json_float).raw_decode(
                content, i)

    original_span_value, original_items_found = label_studio._span_value, JsonLocator.items_found

    def span_value(*args: Any) -> list[tuple[int, int, str]]:
        slow.append("span value")
        return original_span_value(*args)

    def items_found(self: JsonLocator, starts: list[int]) -> None:
        given_offsets.append(len(starts))
        original_items_found(self, starts)

    monkeypatch.setattr(label_studio, "_HOOKED", Refused())
    monkeypatch.setattr(label_studio, "_span_value", span_value)
    monkeypatch.setattr(JsonLocator, "items_found", items_found)
    spans = {}
    for fmt, path in paths.items():
        loaded = label_studio.read({path.name: path.read_bytes()}, name=path.name,
                                   options=ReadOptions())
        spans[fmt] = sum(s.span_count() for s in loaded.sets)
    assert slow == []
    assert spans["json-min"] == spans["csv"] > 0
    records = json.loads(paths["json-min"].read_bytes())
    assert given_offsets == [60, len(records)]  # the JSON and JSON-MIN exports
