"""Learn's first visit as a user waits for it: a fresh ``streamlit run app.py``, Chromium opens
``/learn`` and waits until the score tiles are drawn and the script has finished.

Two visits per server: **cold** (the server's first request: imports, the sample corpus, every
cache empty) and **warm** (a new browser session on the same server: what the next student
waits for). For each visit the wall time and the server's CPU time (user + system, from
``/proc/PID/stat``) are reported. ``--root`` names trees to compare (e.g. ``/work/main`` before,
this tree after); the runs are interleaved (tree A, tree B, tree A, ...) so that a change in the
machine's load hits both alike. The machine's load average is printed with the results: the
issue's 2 s are for a quiet machine.

Run: ``python bench/bench_learn.py [--runs 3] [--root PATH ...]``; loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import running  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
READY = ('[data-testid="stApp"][data-test-script-state="notRunning"] '
         '[data-testid="stMainBlockContainer"] h1')


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def visit(browser: Any, url: str, pid: int) -> dict[str, float]:
    """Open ``url`` in a new browser session; wall and server CPU seconds until Learn is drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    page.goto(url)
    page.wait_for_selector(READY, timeout=120_000)
    page.wait_for_function("() => document.querySelector('[data-testid=\"stApp\"]')"
                           ".getAttribute('data-test-script-state') === 'notRunning'")
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    context.close()
    return {"wall_s": round(wall, 3), "server_cpu_s": round(cpu, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--page", default="learn", help="the page to open (a baseline: 'data')")
    ap.add_argument("--root", action="append", default=[],
                    help="a SpanScope tree to serve (repeat to compare; default: this one)")
    args = ap.parse_args()
    roots = [Path(r).resolve() for r in args.root] or [ROOT]
    from playwright.sync_api import sync_playwright

    results: dict[str, list[dict[str, dict[str, float]]]] = {str(r): [] for r in roots}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        for _ in range(args.runs):
            for root in roots:
                env = dict(os.environ, SPANSCOPE_STORE=str(Path("/tmp") /
                                                          f"bench_learn_{os.getpid()}.sqlite"))
                with running([sys.executable, "-m", "streamlit", "run", str(root / "app.py")],
                             cwd=root, env=env, timeout=90) as server:
                    url = f"{server.url}/{args.page}"
                    cold = visit(browser, url, server.process.pid)
                    warm = visit(browser, url, server.process.pid)
                results[str(root)].append({"cold": cold, "warm": warm})
        browser.close()
    print(f"load average after the runs: {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.cpu_count()} cores")
    summary = {}
    for tree, runs in results.items():
        summary[tree] = {kind: {m: statistics.median(r[kind][m] for r in runs)
                                for m in ("wall_s", "server_cpu_s")}
                         for kind in ("cold", "warm")}
        print(tree)
        for kind in ("cold", "warm"):
            s = summary[tree][kind]
            print(f"  {kind}: wall {s['wall_s']:.2f} s, server CPU {s['server_cpu_s']:.2f} s "
                  f"(median of {len(runs)})")
    print(json.dumps({"runs": results, "median": summary}, indent=1))


if __name__ == "__main__":
    main()
