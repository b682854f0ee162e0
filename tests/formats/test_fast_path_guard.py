"""The guard of the SemEval-2021 reader's speed that does not depend on a clock (issue 29).

A valid file that ``msgspec``'s strict records do not take is tokenised again by the standard
library's ``json`` (several times slower), and an invalid one goes to the explaining pass; a
change that sends ordinary files either way (as a look-behind surrogate pattern once did)
keeps every output the same and is seen only by a benchmark. Instead, these tests count the
files refused (:data:`core.formats.semeval2021.FALLBACKS`) and tokenised again
(:data:`~core.formats.semeval2021.RETOKENISED`) on the corpora the benchmarks write
(``bench/bench_scale.py``, which uses ``bench/bench_read.py``'s generator) and on files whose
emoji ``json.dumps`` wrote as escaped surrogate pairs, and assert that both stay 0.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from core.formats import ReadOptions, load_path, ptc, semeval2021, spans_csv
from core.model.errors import FormatError

BENCH = Path(__file__).resolve().parents[2] / "bench"


def read(path: Path) -> None:
    loaded = load_path(str(path), fmt="semeval2021")
    assert sum(s.span_count() for s in loaded.sets) > 0


def test_the_bench_corpora_take_the_fast_path(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.delitem(sys.modules, "bench_read", raising=False)
    monkeypatch.delitem(sys.modules, "bench_scale", raising=False)
    bench_scale = importlib.import_module("bench_scale")
    bench_scale.write_corpus(tmp_path, 60, 10)
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == ["gold.json", "gold_mafalda.json", "gold_mafalda_alt.json",
                                       "pred.json", "pred_mafalda.json"]
    before = dict(semeval2021.FALLBACKS), dict(semeval2021.RETOKENISED)
    for path in files:
        read(path)
    assert (dict(semeval2021.FALLBACKS), dict(semeval2021.RETOKENISED)) == before


def test_the_bench_spans_and_ptc_files_are_tokenised_by_the_c_parsers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # bench/bench_read.py's spans CSV, spans JSONL and PTC TSV: pyarrow and orjson read them,
    # neither the csv module nor json nor str.split (counted), and no file is refused.
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.delitem(sys.modules, "bench_read", raising=False)
    bench_read = importlib.import_module("bench_read")
    _, gold, _ = bench_read.generate(40, 5)
    paths = bench_read.write_other_formats(tmp_path, gold, 2)
    counters = (spans_csv.FALLBACKS, spans_csv.RETOKENISED, ptc.FALLBACKS, ptc.RETOKENISED)
    before = [dict(c) for c in counters]
    for fmt, path in paths.items():
        loaded = load_path(str(path), fmt="spans-csv" if fmt.startswith("spans") else fmt)
        assert sum(s.span_count() for s in loaded.sets) == 400
    assert [dict(c) for c in counters] == before


def test_escaped_surrogate_pairs_take_the_fast_path_and_a_lone_one_is_counted() -> None:
    docs = [{"id": str(i), "text": f"Fear \U0001F631 sells \U0001F4B0 {i}.",
             "labels": [{"technique": "Loaded Language \U0001F525", "start": 0, "end": 4}]}
            for i in range(50)]
    raw = json.dumps(docs).encode()
    assert raw.count(b"\\ud83d") == 150
    before = dict(semeval2021.FALLBACKS)
    retokenised = dict(semeval2021.RETOKENISED)
    loaded = semeval2021.read({"f.json": raw}, name="f.json", options=ReadOptions())
    assert loaded.texts["0"] == docs[0]["text"]
    assert dict(semeval2021.FALLBACKS) == before
    assert dict(semeval2021.RETOKENISED) == retokenised
    # the counter does count: a lone high half in a value nobody reads
    lone = raw.replace(b'"0"', b'"0", "note": "\\ud83d x"', 1)
    with pytest.raises(FormatError, match="surrogate"):
        semeval2021.read({"f.json": lone}, name="f.json", options=ReadOptions())
    assert semeval2021.FALLBACKS["lone surrogate"] == before.get("lone surrogate", 0) + 1


@pytest.mark.parametrize(("data", "lone"), [
    (b'"\\ud83d\\ude31"', False),
    (b'"\\uD83D\\uDE31 \\ud800\\udfff"', False),
    (b'"\\ud83d"', True),
    (b'"\\ude31"', True),
    (b'"\\ud83d\\ud83d\\ude31"', True),
    (b'"\\ud83d\\ude31\\ude31"', True),
    (b'"\\ud83d x \\ude31"', True),
    (b'"\\u00e9\\ud7ff\\ue000"', False),  # escapes around the surrogate block
])
def test_lone_surrogate_scan_pairs_each_high_half_with_the_next_escape(data: bytes,
                                                                        lone: bool) -> None:
    assert semeval2021._has_lone_surrogate(data) is lone
    try:
        json.loads(data.decode()).encode("utf-8")
        valid = True
    except UnicodeEncodeError:
        valid = False
    assert valid is not lone
