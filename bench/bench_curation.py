"""Time the Curation page in a real browser: opening it, and a key press until the view shows
its effect (issue 26 §2), before and after, interleaved.

Generates three annotators' sets of ``--docs`` documents (SemEval-2021 JSON, spans on word
boundaries: one shared base with per-annotator drops, boundary shifts, relabels and extra
spans, so a few disputes per document, as in real panels), then starts the dashboard from each
checkout given (``--root``, default this one; e.g. ``--root /path/to/main --root .`` for before
and after) as ``python -m core app --data annotator=... --store <temp>`` and drives
``/usr/bin/chromium`` with Playwright, taking turns between the checkouts on every repetition:

* ``open (cold)``: a fresh server, ``/curation`` until the disputed span's card is drawn and the
  run has ended (the consensus is built: the first visit after a start);
* ``open (warm)``: a new tab on that server (what a lead waits for on every visit);
* ``open Overview``: the Overview page in that tab, for scale (what any page costs);
* ``open (restarted server)``: the first visit after the server is started again on the same
  store (``--store``);
* ``key A`` / ``key X`` / ``key N``: a key press (accept the proposal, drop, next) until the
  card shows the next disputed span (the updated view), and apart (``(run end)``) until the
  run it started has ended (what the page still redraws after the card);
* ``Shift+N then A``: next undecided then accept, per dispute (the issue's 1.76 s);
* ``decisions CSV``: the download button until the browser has the file (a click that starts
  nothing, as one landing while the page redraws does, is made again and not timed).

The keys are timed in the page's default view (the card and the disputed span's
neighbourhood); ``--whole-document`` turns on "Show the whole document" first (every lane over
the whole document and its proposals table: what a tree without that toggle always draws).

For each step: the median wall time in the browser, and the median CPU time (user + system,
``/proc/PID/stat``) the server process and the browser's processes used for it, which the load
of other processes on the machine disturbs less than wall time.
Prints a table and writes ``bench/results/bench_curation_<docs>.json``.

Run: ``python bench/bench_curation.py [--docs 231] [--repeat 5] [--root DIR ...]
[--whole-document]``.
Targets (issue 26): a decision or a move < 200 ms, open < 2 s at 231 documents and < 3 s at
2,000, downloads < 1 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
LABELS = ["PER", "ORG", "LOC", "MISC"]
WORDS = ["the", "mayor", "of", "Paris", "met", "Acme", "Corp", "officials", "in", "Berlin",
         "on", "Monday", "said", "Reuters", "reported", "that", "talks", "with", "Siemens",
         "ended", "early", "after", "a", "dispute", "over", "prices"]
CLK_TCK = os.sysconf("SC_CLK_TCK")
WORDS_PER_DOC, SPANS_PER_DOC = 350, 24
"""About a CoNLL-2003 test document (231 documents, 5,648 entities, ~46,000 tokens)."""


def make_panel(folder: Path, n_docs: int, seed: int = 0) -> list[Path]:
    """Write ``annotator_1.json`` .. ``annotator_3.json``; their paths."""
    rng = random.Random(seed)
    docs = []
    for i in range(n_docs):
        words = [rng.choice(WORDS) for _ in range(WORDS_PER_DOC)]
        bounds, pos = [], 0
        for w in words:
            bounds.append((pos, pos + len(w)))
            pos += len(w) + 1
        base = []
        for a in sorted(rng.sample(range(0, len(words) - 3, 4), SPANS_PER_DOC)):
            b = a + rng.randrange(0, 3)
            base.append((a, b, rng.choice(LABELS)))
        docs.append((f"doc{i}", " ".join(words), bounds, base))
    paths = []
    for n in (1, 2, 3):
        out = []
        for doc_id, text, bounds, base in docs:
            labels = []
            for a, b, lab in base:
                r = rng.random()
                if r < 0.01:
                    continue  # this annotator missed it
                if r < 0.02:
                    b = min(b + 1, len(bounds) - 1)  # a word more
                elif r < 0.025:
                    lab = rng.choice(LABELS)
                labels.append({"technique": lab, "start": bounds[a][0], "end": bounds[b][1]})
            if rng.random() < 0.05:
                a = rng.randrange(len(bounds) - 2)
                labels.append({"technique": rng.choice(LABELS), "start": bounds[a][0],
                               "end": bounds[a + 1][1]})
            out.append({"id": doc_id, "text": text, "labels": labels})
        path = folder / f"annotator_{n}.json"
        path.write_text(json.dumps(out), encoding="utf-8")
        paths.append(path)
    return paths


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` and its waited-for children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / CLK_TCK


def browser_cpu_seconds() -> float:
    """CPU time of every descendant of this process except the servers (Playwright's driver
    and Chromium's processes), alive ones only."""
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if b"streamlit" in cmd or b"core\0app" in cmd:
            continue
        stats[int(proc.name)] = fields
        children.setdefault(int(fields[1]), []).append(int(proc.name))
    total, todo = 0.0, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        total += sum(int(f) for f in stats[pid][11:13]) / CLK_TCK
        todo.extend(children.get(pid, []))
    return total


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def server(root: Path, data: list[Path], store: Path, home: Path) -> Iterator[tuple[str, int]]:
    """``python -m core app`` of checkout ``root`` on ``data``; (url, pid) once healthy."""
    port = _free_port()
    args = [sys.executable, "-m", "core", "app", "--store", str(store)]
    for p in data:
        args += ["--data", f"annotator={p}"]
    args += ["--server.headless=true", "--server.address=127.0.0.1", f"--server.port={port}",
             "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"]
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(root))
    env.pop("SPANSCOPE_STORE", None)
    proc = subprocess.Popen(args, cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            with contextlib.suppress(OSError):
                if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                    break
            time.sleep(0.2)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


WHOLE_DOCUMENT = False
"""Time the keys with the whole document drawn (``--whole-document``)."""
DISPUTES: set[str] = set()
"""The number of disputed spans the page showed (the "Decided" tile)."""
IDLE = ("() => document.querySelector('[data-testid=\"stApp\"]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'"
        " && !document.querySelector('[data-testid=\"stStatusWidget\"]')")


def card_id(page: Any) -> str:
    return str(page.evaluate("() => document.querySelector('#cur-card b')?.textContent || ''"))


Sample = tuple[float, float, float]
"""(wall seconds, server CPU seconds, browser CPU seconds) of one step."""


def timed(pid: int, step: Callable[[], None]) -> Sample:
    """The :data:`Sample` of ``step``."""
    c0, b0, t0 = cpu_seconds(pid), browser_cpu_seconds(), time.perf_counter()
    step()
    return time.perf_counter() - t0, cpu_seconds(pid) - c0, browser_cpu_seconds() - b0


def open_page(page: Any, url: str) -> None:
    page.goto(url + "/curation")
    page.locator("#cur-card").wait_for(timeout=600_000)
    page.wait_for_function(IDLE, timeout=600_000)


def press_until_moved(page: Any, keys: list[str]) -> None:
    """Press ``keys`` in turn, each until the card shows another disputed span (the updated
    view; the run may still be sending the rest of the page)."""
    for key in keys:
        before = card_id(page)
        page.keyboard.press(key)
        page.wait_for_function(f"() => (document.querySelector('#cur-card b')?.textContent "
                               f"|| '') !== {json.dumps(before)}", timeout=60_000)


def measure(root: Path, data: list[Path], tmp: Path, browser: Any, keys_per_step: int
            ) -> dict[str, list[Sample]]:
    """One repetition on a fresh server of checkout ``root``: {step: [(wall, cpu), ...]}."""
    out: dict[str, list[Sample]] = {}
    store = tmp / f"store-{time.time_ns()}.sqlite"
    with server(root, data, store, tmp) as (url, pid):
        ctx = browser.new_context(viewport={"width": 1500, "height": 1900},
                                  accept_downloads=True)
        page = ctx.new_page()
        out["open (cold)"] = [timed(pid, lambda: open_page(page, url))]
        DISPUTES.add(page.get_by_test_id("stMetricValue").first.inner_text().split("/")[-1]
                     .strip())
        page2 = ctx.new_page()
        out["open (warm)"] = [timed(pid, lambda: open_page(page2, url))]

        def overview() -> None:
            page2.goto(url + "/")
            page2.get_by_role("heading").first.wait_for(timeout=60_000)
            page2.wait_for_function(IDLE, timeout=60_000)

        out["open Overview"] = [timed(pid, overview)]  # what any page costs: the baseline
        page2.close()
        if WHOLE_DOCUMENT:
            toggle = page.get_by_text("Show the whole document, annotator by annotator")
            if toggle.count():  # a tree that draws it on demand
                toggle.click()
                page.locator("#cur-document").wait_for(timeout=60_000)
                page.wait_for_function(IDLE, timeout=60_000)
        page.get_by_role("heading", name="Disputed spans").click()  # focus off any field
        steps = {"key A": ["a"], "key X": ["x"], "key N": ["n"],
                 "Shift+N then A": ["Shift+N", "a"]}
        for name, keys in steps.items():
            for _ in range(keys_per_step):
                c0, b0, t0 = cpu_seconds(pid), browser_cpu_seconds(), time.perf_counter()
                press_until_moved(page, keys)
                shown = time.perf_counter() - t0
                page.wait_for_function(IDLE, timeout=60_000)  # the card changed: it started
                ended = time.perf_counter() - t0
                cpu, bcpu = cpu_seconds(pid) - c0, browser_cpu_seconds() - b0
                out.setdefault(name, []).append((shown, cpu, bcpu))
                out.setdefault(f"{name} (run end)", []).append((ended, cpu, bcpu))
        button = page.get_by_role("button", name="Decisions (CSV)")
        button.scroll_into_view_if_needed()
        page.wait_for_function(IDLE, timeout=60_000)

        def download() -> None:
            with page.expect_download(timeout=30_000) as info:
                button.click()
            info.value.path()

        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for attempt in (1, 2, 3):  # a click that lands while the page redraws starts nothing
            try:
                out["decisions CSV"] = [timed(pid, download)]
                break
            except PlaywrightTimeout:
                if attempt == 3:
                    raise
                page.wait_for_function(IDLE, timeout=60_000)
        ctx.close()
    with server(root, data, store, tmp) as (url, pid):  # a restart on the same store
        ctx = browser.new_context(viewport={"width": 1500, "height": 1900})
        page = ctx.new_page()
        out["open (restarted server)"] = [timed(pid, lambda: open_page(page, url))]
        ctx.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=231)
    ap.add_argument("--repeat", type=int, default=3, help="fresh servers per checkout")
    ap.add_argument("--keys", type=int, default=5, help="presses of each key per server")
    ap.add_argument("--root", action="append", type=Path,
                    help="a checkout to time (repeat for before/after); default this one")
    ap.add_argument("--whole-document", action="store_true",
                    help="time the keys with “Show the whole document” on")
    args = ap.parse_args(argv)
    global WHOLE_DOCUMENT
    WHOLE_DOCUMENT = args.whole_document
    roots = [r.resolve() for r in (args.root or [ROOT])]
    from playwright.sync_api import sync_playwright

    results: dict[str, dict[str, list[Sample]]] = {str(r): {} for r in roots}
    with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as p:
        tmp = Path(tmp_name)
        data = make_panel(tmp, args.docs)
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        for _ in range(args.repeat):
            for root in roots:  # interleaved: the machine's load falls on every checkout
                for step, values in measure(root, data, tmp, browser, args.keys).items():
                    results[str(root)].setdefault(step, []).extend(values)
        browser.close()
    summary: dict[str, dict[str, dict[str, float]]] = {}
    print(f"Curation page, {args.docs:,} documents, 3 annotators, {args.repeat} server(s) per "
          f"checkout, {'/'.join(sorted(DISPUTES))} disputed spans, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
          f"{', keys with the whole document shown' if WHOLE_DOCUMENT else ''}")
    for root, steps in results.items():
        print(f"\n{root}\n{'step':<26} {'n':>3} {'wall median s':>14} "
              f"{'server CPU s':>13} {'browser CPU s':>14}")
        summary[root] = {}
        for step, values in steps.items():
            wall = statistics.median(v[0] for v in values)
            cpu = statistics.median(v[1] for v in values)
            bcpu = statistics.median(v[2] for v in values)
            summary[root][step] = {"n": len(values), "wall_median_s": wall,
                                   "server_cpu_median_s": cpu, "browser_cpu_median_s": bcpu}
            print(f"{step:<26} {len(values):>3} {wall:>14.3f} {cpu:>13.3f} {bcpu:>14.3f}")
    out = ROOT / "bench" / "results" / (f"bench_curation_{args.docs}"
                                        f"{'_whole' if WHOLE_DOCUMENT else ''}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"docs": args.docs, "repeat": args.repeat,
                               "loadavg": os.getloadavg(), "results": summary}, indent=1),
                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
