"""What ``bench/bench_app.py`` prints of the server's reading copy with the first load
(:func:`read_stats`): the JSON lines the server appends to ``SPANSCOPE_READ_STATS`` and the
warning lines it writes on its standard error (``ui.cli_data.read_reports``), nothing else;
and the machine's busy CPU it sets the first load beside (:func:`machine_busy_s`)."""

from __future__ import annotations

import itertools
import json
import os
import time
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


def test_a_kept_server_log_gets_a_new_folder_per_run(tmp_path: Path) -> None:
    # --keep-server-log: each run's server writes into a folder of its own under DIR, which
    # the bench does not delete (its temporary folder is), so a run that waited can be read
    bench = _bench_app()
    first = bench.server_log_dir(tmp_path / "logs")
    second = bench.server_log_dir(tmp_path / "logs")
    assert first.is_dir() and second.is_dir() and first != second
    assert first.parent == second.parent == tmp_path / "logs"
    assert list(first.iterdir()) == []


def test_the_kept_folder_is_where_the_server_writes() -> None:
    source = (ROOT / "bench" / "bench_app.py").read_text(encoding="utf-8")
    assert "server_dir = server_log_dir(keep_server_log) if keep_server_log else Path(tmp)" \
        in source
    assert "start_server(data, cli, tree, server_dir)" in source
    assert "read_stats(server_dir)" in source


def test_the_resident_memory_now_is_read_beside_its_peak() -> None:
    # the settled RSS (VmRSS) the bench prints beside the peak (VmHWM) after each page
    bench = _bench_app()
    now, peak = bench.rss_mib(os.getpid()), bench.peak_rss_mib(os.getpid())
    assert now is not None and peak is not None and 0 < now <= peak
    assert bench.rss_mib(2**22 + 1) is None  # no such process: no number


def test_the_servers_cpu_at_a_moment_is_the_last_sample_before_it() -> None:
    # the first load's CPU at its run's end: the trail's last sample at or before that moment
    bench = _bench_app()
    samples = [(10.0, 1.0), (10.05, 1.2), (10.1, 1.5)]
    assert bench.cpu_before(samples, 10.07) == 1.2
    assert bench.cpu_before(samples, 10.1) == 1.5
    assert bench.cpu_before(samples, 9.0) is None
    trail = bench.CpuTrail(os.getpid(), every=0.01)
    while len(trail.samples) < 2:
        time.sleep(0.01)  # this process's own CPU, sampled by the trail's thread
    samples = trail.stop()
    assert [t for t, _ in samples] == sorted(t for t, _ in samples)
    assert all(a <= b for (_, a), (_, b) in itertools.pairwise(samples))  # never goes back
    assert len(trail.stop()) == len(samples)  # stopped: no more samples
