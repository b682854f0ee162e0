"""What ``bench/bench_app.py`` prints of the server's reading copy with the first load
(:func:`read_stats`): the JSON lines the server appends to ``SPANSCOPE_READ_STATS`` and the
warning lines it writes on its standard error (``ui.cli_data.read_reports``), nothing else;
and the machine's busy CPU it sets the first load beside (:func:`machine_busy_s`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_bench_selectors import _bench_app
from ui import cli_data

ROOT = Path(__file__).resolve().parent.parent


def test_the_copys_lines_and_warnings_are_read_and_nothing_else(tmp_path: Path) -> None:
    bench = _bench_app()
    assert bench.read_stats(tmp_path) == []  # a tree whose server says nothing
    line = {"outcome": "stalled", "stalled_in": "S futex_do_wait", "here_s": 1.2,
            "copy_wait_s": 0.6, "fallback_s": 1.1, "counts": {"forked": 1, "stalled": 1}}
    (tmp_path / "read_stats.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    warning = ("spanscope: the copy of the server that read the last --data files (pid 7) was "
               "asleep (S futex_do_wait) without using CPU and was taken for blocked")
    (tmp_path / "stderr.txt").write_text(
        "  You can now view your Streamlit app in your browser.\n" + warning + "\n",
        encoding="utf-8")
    assert bench.read_stats(tmp_path) == [line, {"stderr": warning}]


def test_the_server_is_told_where_to_write_the_copys_line() -> None:
    # the bench's name for the variable is the server's
    source = (ROOT / "bench" / "bench_app.py").read_text(encoding="utf-8")
    assert f'env["{cli_data.STATS_ENV}"]' in source


def test_the_machines_busy_time_counts_up() -> None:
    bench = _bench_app()
    first = bench.machine_busy_s()  # every core's busy seconds since the boot
    assert first > 0 and bench.machine_busy_s() >= first
