"""Drive the running dashboard on a large corpus and time what a user waits for.

Generates a corpus of ``--docs`` documents (default 10,000) with ``--spans`` spans per set
(default 100,000; gold and one system, SemEval-2021 JSON, spans on word boundaries), starts
``streamlit run app.py`` with ``SPANSCOPE_DATA_DIR`` pointing at it, and drives
``/usr/bin/chromium`` with Playwright:

* first load: open ``/documents?sample=bench`` in a fresh server until the document is drawn
  (parsing, scoring what the page shows, rendering), asked for as soon as the server answers
  (Chromium is started first); also the time from the server's start and the server's CPU
  (``--first-only``: this step alone);
* page switches: Documents -> Scores -> Data -> Metric differences -> Labels -> Annotators ->
  Documents through the sidebar (each page's first visit computes and caches what it shows: the
  steps of the first round are reported apart as cold visits);
* document switches: type a document id into the selector (timed apart: the browser filters the
  listed options) and click it;
* warm revisits (``--revisits K``, issue 29 target 3: < 300 ms): after the rounds above, every
  page again through the sidebar, K times, each visit timed apart with the server's CPU time
  (user + system of the server process, ``/proc/PID/stat``; the background worker is another
  process), the time the page's main thread was busy (Chromium's ``TaskDuration``: script,
  style, layout, paint), its CPU time (``ThreadTime``, steadier on a loaded machine) and the
  bytes the server sent over the websocket during the step;
  reported per page (median, max) and over all pages;
* warm interactions (``--interactions K``): on Scores, Labels and Metric differences, the
  widget changes of :data:`INTERACTIONS` (a tab, a table page, a metric, a variant, a view),
  each timed from the click until the browser has drawn the run's last message, with
  the same server CPU, main-thread time and bytes; the first round is reported apart (it may
  compute what the widget asks for the first time), the others as warm interactions.

A step ends when Streamlit has finished the run (the front end's script state is back to
``notRunning``) and the page's own element is visible. Prints a table and writes
``bench/results/bench_app.json``.

Two clocks per step (issue 29, fourteenth pass): the **wall** (the older keys: Python's clock
around Playwright's calls, with Playwright's actionability checks before the click and the waits'
round trips and polling after it) and the **in-page** clock (``*_in_page`` keys,
:data:`_CLOCK_WATCH`): from the step's last input, captured on window before the page's own
handlers, to the second frame after the page's last change (a DOM mutation, a canvas drawn) and
the server's last message. Each step also says what changed last and how much of the wall the
harness spent before the input and after the last frame. ``--trace PAGE FILE`` records the
last warm revisit of PAGE in a DevTools trace and splits its in-page span
(``bench/trace_clock.py``).

What ran beside the warm revisits (issue 29, fifteenth pass): each clocked step's span on the
machine's clock (``t0_epoch``, ``t1_epoch``), to line it up with a sampler of ``/proc`` or a
server's log; each revisit's CPU of the server's background worker
(``background_worker_cpu``) and the revisits' in all (``revisits_background_worker_cpu_s``);
``--idle-before-revisits S`` waits (up to S seconds) for the worker to be idle before them;
``--revisit-pause S`` waits S seconds before each revisit's click, as a reader does (issue 29,
eighteenth pass: work ahead held while the clicks come within a second of each other runs in
such pauses, and the next click's run holds it only once its signal is handled).

The browser's heap around the warm revisits (issue 29, nineteenth pass): each revisit's V8 heap
in use before and after (``revisit_heap``); ``--gc-trace FILE`` records V8's collections over
all the revisits in one light trace (no trace started or stopped between them) and counts each
revisit's major collections, incremental marking and scavenges inside its in-page span and
those between the revisits (``revisit_gc``); ``--heap-sampling`` runs V8's sampling heap
profiler around each revisit: what it allocated, garbage included, by script file (stopping
the profiler collects the heap, so such runs say what is allocated, not when it is collected).

Run: ``python bench/bench_app.py [--docs N] [--spans N] [--repeat K] [--cli] [--corpus DIR]
[--revisits K] [--interactions K]``;
with ``--upload GOLD PRED`` it times uploading two files on the Data page of a fresh server
until their summary shows instead. Targets
(issue 15): first load < 5 s, first visit of every page < 3 s, page or document switch < 1 s
(warm, i.e. once a page has computed its view). ``--cli`` opens the corpus as ``spanscope app
--data`` does; the peak resident memory of the server (``VmHWM``) is recorded after each step.
The tree's modules are compiled to bytecode once before the server starts, as ``pip install``
does for a user (``--bytecode source``: compiled by the server as it imports them, which the
environment's ``PYTHONDONTWRITEBYTECODE=1`` made every run before the twelfth pass of issue 29
measure: about 0.25 s of the first load).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import streamlit.logger  # noqa: E402

streamlit.logger.set_log_level("error")  # ui.state's caches warn outside a running app
from ui.documents import DOC_CHOICES  # noqa: E402  (documents the selector lists)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
LABELS = ["Loaded Language", "Doubt", "Appeal to fear/prejudice", "Name calling/Labeling",
          "Exaggeration/Minimisation", "Flag-waving", "Slogans", "Bandwagon"]
WORDS = ["the", "mayor", "reckless", "plan", "will", "bankrupt", "every", "family", "city",
         "critics", "say", "so-called", "reform", "nothing", "disaster", "waiting", "happen",
         "migrants", "flood", "our", "streets", "tonight"]


def make_corpus(folder: Path, n_docs: int, n_spans: int, seed: int = 0) -> None:
    """Write ``gold.json`` and ``system_a.json`` (SemEval-2021 JSON) into ``folder``."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    docs = []
    for i in range(n_docs):
        words = [rng.choice(WORDS) for _ in range(90)]
        starts, pos = [], 0
        for w in words:
            starts.append((pos, pos + len(w)))
            pos += len(w) + 1
        docs.append((f"doc{i}", " ".join(words), starts))
    per_doc = n_spans // n_docs
    for name in ("gold", "system_a"):
        out = []
        for doc_id, text, bounds in docs:
            labels = []
            for _ in range(per_doc):
                a = rng.randrange(len(bounds) - 6)
                b = a + rng.randrange(0, 6)
                labels.append({"technique": rng.choice(LABELS), "start": bounds[a][0],
                               "end": bounds[b][1]})
            out.append({"id": doc_id, "text": text, "labels": labels})
        (folder / f"{name}.json").write_text(json.dumps(out), encoding="utf-8")


NAV = (# The per-label table: a data grid before the tenth pass; since, up to 12 labels, a
       # Markdown table (ui.small_table.small_table) in the container of the grid's key.
       ("Scores", '[data-testid="stDataFrame"], .st-key-per_label_table'),
       # The Files table, a data grid before the eighth pass; since, a table of a few rows is
       # drawn as Markdown (ui.small_table.small_table) and the Sets table, later on the page, is
       # waited for.
       ("Data", '[data-testid="stDataFrame"], .st-key-sets_table'),
       # Since the seventh pass the category chart has its own tab: the table is drawn first;
       # a data grid until the seventeenth pass, an HTML table (ui.small_table) since.
       ("Errors", ".st-key-err_chart .js-plotly-plot, "
        ".st-key-err_categories [data-testid='stDataFrame'], "
        ".st-key-err_table .ss-page-table"),
       # A plotly chart before the fourteenth pass, a Vega-Lite one since: Vega's own SVG
       # (svg.marks), drawn with the chart. A bare `svg` matched the icon of the chart's
       # toolbar button, which Streamlit draws in the container before Vega draws the chart,
       # and stopped the clock early (tests/test_bench_selectors.py).
       ("Metric differences", ".st-key-diff_waterfall .js-plotly-plot, "
        ".st-key-diff_waterfall svg.marks"),
       # Above ui.labels.MATRIX_AUTO_DOCS a revision that counts the matrix when asked shows
       # its toggle instead.
       ("Labels", ".st-key-lab_chart svg.marks, .st-key-lab_on"),
       # The matrix's own values: grey cells titled "…: computing every pair…" are drawn while
       # the background worker computes them; a chart before the tenth pass, a table since.
       ("Annotators", '.st-key-ann_matrix .gtitle:not(:has-text("computing every pair")), '
        '.st-key-ann_matrix caption:not(:has-text("computing every pair"))'),
       # Above 2,000 documents Curation builds its consensus when asked (its toggle); below,
       # the page ends with its downloads (the proposals table is drawn only with the whole
       # document, off by default, and a data grid without selection has no key class).
       ("Curation", ".st-key-cur_dl_decisions, .st-key-cur_build"),
       ("Overview", "[data-testid='stMain'] [data-testid='stPageLink']"),
       ("Documents", "#left-doc .ss-seg"))
"""Pages visited in each round, with the element that shows the page is drawn. (Above 1,000
documents the Annotators page computes the corpus γ only when asked: it does not start here.)"""


def peak_rss_mib(pid: int) -> float | None:
    """The peak resident memory of process ``pid`` so far (``VmHWM``), in MiB (Linux)."""
    return _status_mib(pid, "VmHWM")


def rss_mib(pid: int) -> float | None:
    """The resident memory of process ``pid`` now (``VmRSS``), in MiB (Linux): beside the
    peak, what the server keeps once a page's temporaries are freed (twentieth pass)."""
    return _status_mib(pid, "VmRSS")


def _status_mib(pid: int, field: str) -> float | None:
    """A ``kB`` field of ``/proc/PID/status`` in MiB; None without it (another system)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def cpu_s(pid: int, children: bool = False) -> float | None:
    """The CPU time process ``pid`` has used so far (user + system, every thread), in seconds
    (Linux); with ``children``, that of its children it has waited for instead (a reader
    process it forked, once reaped)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    at = 13 if children else 11
    return round((int(fields[at]) + int(fields[at + 1])) / os.sysconf("SC_CLK_TCK"), 2)


class CpuTrail:
    """The CPU seconds of process ``pid`` (:func:`cpu_s`) every ``every`` seconds, in a thread,
    each with this process's clock (``time.perf_counter``), until :meth:`stop`: what the server
    had used at a moment the page names after the fact (its first run's end, twentieth pass)."""

    def __init__(self, pid: int, every: float = 0.05) -> None:
        self.samples: list[tuple[float, float]] = []
        self._done = threading.Event()

        def sample() -> None:
            while not self._done.is_set():
                used = cpu_s(pid)
                if used is not None:
                    self.samples.append((time.perf_counter(), used))
                self._done.wait(every)

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()

    def stop(self) -> list[tuple[float, float]]:
        self._done.set()
        self._thread.join()
        return self.samples


def cpu_before(samples: list[tuple[float, float]], at: float) -> float | None:
    """The CPU of the last sample taken at or before ``at`` (:class:`CpuTrail`), None if none."""
    before = [used for t, used in samples if t <= at]
    return before[-1] if before else None


def _summary(times: list[float]) -> dict[str, Any]:
    return {"median": round(statistics.median(times), 3) if times else None,
            "max": round(max(times), 3) if times else None, "n": len(times)}


def chromium(p: Any) -> Any:
    """Debian's Chromium, headless, launched by Playwright's sync API ``p`` (no download)."""
    return p.chromium.launch(executable_path=CHROMIUM,
                             args=["--headless", "--no-sandbox", "--disable-gpu"])


def _free_port() -> int:
    """A free port, or ``SPANSCOPE_BENCH_PORT`` when set (a port the caller was given)."""
    if os.environ.get("SPANSCOPE_BENCH_PORT"):
        return int(os.environ["SPANSCOPE_BENCH_PORT"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _process_tree() -> dict[int, list[tuple[int, float]]]:
    """Each process's children with their CPU seconds so far (Linux ``/proc``)."""
    children: dict[int, list[tuple[int, float]]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            children.setdefault(int(fields[1]), []).append((int(entry), cpu))
    return children


def _below_cpu_s(root: int, skip: int | None = None) -> float:
    """CPU seconds so far of every process below ``root``, but ``skip`` and its children."""
    children = _process_tree()
    total, todo = 0.0, [root]
    while todo:
        for child, cpu in children.get(todo.pop(), []):
            if child != skip:
                total += cpu
                todo.append(child)
    return total


def descendants_cpu_s(pid: int) -> float:
    """CPU seconds so far of every process below ``pid`` (the server's background worker, and
    γ's pool when it runs): the other core's share of the server's work, which competes with
    the browser drawing the page (Linux ``/proc``)."""
    return round(_below_cpu_s(pid), 2)


def _await_idle(server: int, at_most: float, idle_for: float = 1.0,
               below: float = 0.05) -> dict[str, Any]:
    """Wait until the processes below ``server`` (its background worker) have spent less than
    ``below`` CPU seconds in ``idle_for`` seconds, or ``at_most`` seconds have passed: how long
    it waited and whether they went idle."""
    start = time.perf_counter()
    last = descendants_cpu_s(server)
    while time.perf_counter() - start < at_most:
        time.sleep(idle_for)
        now = descendants_cpu_s(server)
        if now - last < below:
            return {"waited_s": round(time.perf_counter() - start, 1), "idle": True}
        last = now
    return {"waited_s": round(time.perf_counter() - start, 1), "idle": False}


def browser_cpu_s(server: int) -> float:
    """CPU seconds so far of every process this one started but ``server`` and its children:
    Playwright's driver and Chromium's browser, renderer and GPU processes (Linux ``/proc``;
    CPU time is steadier than wall time on a shared machine)."""
    return _below_cpu_s(os.getpid(), skip=server)


BYTECODE = {
    "compiled": "the tree's modules compiled to bytecode once before timing, as `pip install` "
                "does (what a user's server has)",
    "source": "the tree's modules compiled from source by every server start "
              "(PYTHONDONTWRITEBYTECODE=1 and no __pycache__: the measure before the twelfth pass)",
}
"""What ``--bytecode`` chooses (docs/performance.md, issue 29, twelfth pass)."""

PROJECT = ("app.py", "core", "ui", "pages")
"""What the server and its worker import from the tree (the rest is installed packages)."""


def prepare_bytecode(tree: Path, how: str) -> str:
    """Make the tree's bytecode what ``how`` says (:data:`BYTECODE`) and return its sentence:
    ``compiled``, every module of :data:`PROJECT` compiled once (``compileall``, which writes
    bytecode whatever ``PYTHONDONTWRITEBYTECODE`` says; a module whose bytecode is current is
    left as it is); ``source``, their ``__pycache__`` folders removed, so that a server started
    with ``PYTHONDONTWRITEBYTECODE=1`` (the environment of these benchmarks) compiles every
    module from source as it imports it. Installed packages keep the bytecode pip wrote."""
    if how == "compiled":
        subprocess.run([sys.executable, "-m", "compileall", "-q", *PROJECT], cwd=tree,
                       check=True, stdout=subprocess.DEVNULL)
    else:
        for cache in [p for part in PROJECT[1:] for p in (tree / part).rglob("__pycache__")]:
            shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(tree / "__pycache__", ignore_errors=True)
    return BYTECODE[how]


def machine_busy_s() -> float:
    """CPU seconds every core of the machine has been busy so far, whoever's (``/proc/stat``:
    user, nice, system, irq, softirq, steal), or 0.0 without ``/proc``."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return 0.0
    busy = sum(int(fields[i]) for i in (1, 2, 3, 6, 7, 8))
    return busy / os.sysconf("SC_CLK_TCK")


def ours_cpu_s(server: int) -> float:
    """CPU seconds so far of this process, every process below it (the server, its worker, the
    browser) and the children the server has reaped (its reading copy)."""
    return ((cpu_s(os.getpid()) or 0.0) + _below_cpu_s(os.getpid())
            + (cpu_s(server, children=True) or 0.0))


def read_stats(server_dir: Path) -> list[dict[str, Any]]:
    """What the tree's server said of its reading copies (``SPANSCOPE_READ_STATS``, one JSON
    line per read that forked one: ``taken``, ``stalled`` or ``failed`` and the seconds of each
    part; ``ui.cli_data.read_reports``), and each warning line it wrote on its standard error
    (``{"stderr": LINE}``). Empty for a tree whose server writes neither."""
    lines: list[dict[str, Any]] = []
    with contextlib.suppress(OSError):
        for line in (server_dir / "read_stats.jsonl").read_text(encoding="utf-8").splitlines():
            lines.append(json.loads(line))
    with contextlib.suppress(OSError):
        for line in (server_dir / "stderr.txt").read_text(encoding="utf-8").splitlines():
            if line.startswith("spanscope:"):
                lines.append({"stderr": line})
    return lines


def server_log_dir(keep: Path) -> Path:
    """A new folder under ``keep`` for one run's server: its standard error and its reading
    copies' lines (:func:`read_stats`), kept after the run (``--keep-server-log``), where the
    bench's own temporary folder is deleted. Named by the time and the bench's PID, so runs
    in a row or side by side never share one."""
    name = f"server-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
    for n in range(1000):
        folder = keep / (name if n == 0 else f"{name}-{n}")
        with contextlib.suppress(FileExistsError):
            folder.mkdir(parents=True)
            return folder
    raise SystemExit(f"{keep}: no new folder for the server's log")


def start_server(data_dir: Path, cli: bool = False, tree: Path = ROOT,
                 server_dir: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Streamlit on ``data_dir``: as a sample corpus folder (``SPANSCOPE_DATA_DIR``), or with
    ``cli`` opened by ``python -m core app --data gold=... --data pred=...`` (the launcher execs
    streamlit, so the PID is the server's either way). ``tree``: the checkout whose app runs.
    ``server_dir``: a folder for the server's standard error and its reading copies' line
    (:func:`read_stats`)."""
    port = _free_port()
    env = dict(os.environ, SPANSCOPE_DATA_DIR=str(data_dir))
    if server_dir is not None:
        env["SPANSCOPE_READ_STATS"] = str(server_dir / "read_stats.jsonl")
    options = ["--server.headless=true", "--server.address=127.0.0.1", f"--server.port={port}",
               "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"]
    if cli:
        corpus = data_dir / "bench"
        cmd = [sys.executable, "-m", "core", "app", "--data", f"gold={corpus / 'gold.json'}",
               f"pred={corpus / 'system_a.json'}", *options]
    else:
        cmd = [sys.executable, "-m", "streamlit", "run", str(tree / "app.py"), *options]
    with contextlib.ExitStack() as stack:
        err = (stack.enter_context((server_dir / "stderr.txt").open("wb"))
               if server_dir is not None else subprocess.DEVNULL)
        proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=err)
    return proc, healthy(proc, port, 60)


def healthy(proc: subprocess.Popen[bytes], port: int, seconds: float) -> str:
    """The URL of the server ``proc`` started on ``port``, once Streamlit's health check
    answers (the server is killed if it does not within ``seconds``)."""
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                return url
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("streamlit did not become healthy")


def _settled(page: Any, selector: str, timeout: float = 120_000) -> None:
    """Wait until the script run has finished and ``selector`` is drawn.

    The run's end is read from the ``data-test-script-state`` attribute that Streamlit's
    front end keeps on ``stApp`` ("running" until the server says the run is over); the status
    widget is not enough: it shows only once a run has lasted a while, so a fast check can
    miss a run that is still going (its time then lands on the next step)."""
    page.locator(selector).first.wait_for(timeout=timeout)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stApp\"]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'", timeout=timeout)
    page.locator(selector).first.wait_for(timeout=timeout)


_REACT_COMMITS = """(() => {
  // React's commits (renders that reached the page), counted through the hook React DOM looks
  // for at its start (the one React's developer tools install): a production build calls its
  // onCommitFiberRoot once per commit and nothing else of it. Issue 29, twenty-first pass: the
  // same page's warm revisit commits 5 to 55 times as its run's messages arrive, and its main
  // thread's CPU follows that count.
  if (window.__REACT_DEVTOOLS_GLOBAL_HOOK__) return;
  window.__ssCommits = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, isDisabled: false, renderers: new Map(),
    inject() { return 1; }, checkDCE() {},
    onCommitFiberRoot() { window.__ssCommits++; },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}};
})();"""
"""Installed before the page's scripts: ``window.__ssCommits`` counts React's commits."""


_WS_WATCH = """(() => {
  const Native = window.WebSocket;
  window.__ssMsgs = 0; window.__ssLastMsg = 0; window.__ssPainted = 0;
  // the last times the page sent to the server and heard from it (a step's split, sixteenth
  // pass: the input to its first message sent, to the server's first answer)
  window.__ssSent = []; window.__ssHeard = [];
  // the server's "script finished" messages (a run's or a fragment's end, seventeenth pass):
  // the time each arrived and the second frame after it
  window.__ssFinished = []; window.__ssFinishedPainted = 0;
  const keep = (list, t) => { list.push(t); if (list.length > 400) list.splice(0, 200); };
  // A ForwardMsg's top-level fields read from its protobuf bytes: the value of field 6
  // (script_finished, an enum: 0 the run, 3 a fragment's run, 2 ended early for a rerun) or
  // null when the message is another kind (a delta, a session status, ...).
  const finished = (data) => {
    if (!(data instanceof ArrayBuffer)) return null;
    const b = new Uint8Array(data);
    let i = 0;
    const varint = () => {
      let v = 0, shift = 0, x = 0x80;
      while (x & 0x80 && i < b.length) { x = b[i++]; v += (x & 0x7f) * 2 ** shift; shift += 7; }
      return v;
    };
    while (i < b.length) {
      const tag = varint(), field = Math.floor(tag / 8), wire = tag % 8;
      if (wire === 0) { const v = varint(); if (field === 6) return v; }
      else if (wire === 2) { const n = varint(); i += n; }  // (not i += varint(): i read first)
      else if (wire === 1) i += 8;
      else if (wire === 5) i += 4;
      else return null;
    }
    return null;
  };
  window.WebSocket = class extends Native {
    send(data) {
      keep(window.__ssSent, performance.now());
      return super.send(data);
    }
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        window.__ssMsgs++;
        const now = window.__ssLastMsg = performance.now();
        keep(window.__ssHeard, now);
        performance.mark('ss-msg');  // for a trace (bench/trace_clock.py)
        const status = finished(e.data);
        if (status !== null) keep(window.__ssFinished, {t: now, status});
        requestAnimationFrame(() => requestAnimationFrame(() => {
          const t = performance.now();
          window.__ssPainted = Math.max(window.__ssPainted, t);
          if (status !== null) window.__ssFinishedPainted = Math.max(window.__ssFinishedPainted, t);
        }));
      });
    }
  };
})()"""
"""Installed before the page loads: counts the server's messages, the time of the last one and
the time of the second frame after it (what it sent is drawn), and the "script finished" ones
(a run's end, read from the message's protobuf: field 6 of Streamlit's ``ForwardMsg``). The
script-state attribute is no clock for a widget's run: a run shorter than one React commit never
shows "running"."""

_CLOCK_WATCH = """(() => {
  // The in-page clock of a step (docs/performance.md, issue 29, fourteenth pass): installed
  // before the page loads, as a listener on window in the capturing phase (before the page's
  // own handlers). While armed it records every input (click, keydown, input) with its time;
  // a MutationObserver on the whole document and the 2D canvases' drawing calls record the
  // last change and the second frame after it (what changed is drawn).
  const c = window.__ssClock = {inputs: [], armed: false, mutSeq: 0, lastMut: 0,
                                lastMutWhat: '', painted: 0, paintedSeq: 0};
  const describe = (n) => {
    if (!n) return '';
    const el = n.nodeType === 1 ? n : n.parentElement;
    if (!el) return n.nodeName;
    const owner = el.closest('[data-testid], [class*="st-key-"]');
    const key = owner && [...owner.classList].find((k) => k.startsWith('st-key-'));
    return el.tagName.toLowerCase() + (owner ? ' in ' + (key || owner.dataset.testid) : '');
  };
  const onInput = (e) => {
    if (!c.armed) return;
    c.inputs.push({type: e.type, t: performance.now(), what: describe(e.target)});
    performance.mark('ss-input-' + e.type);
  };
  for (const type of ['click', 'keydown', 'input']) {
    window.addEventListener(type, onInput, {capture: true});
  }
  // A change: a DOM mutation, or a 2D canvas drawn (a data grid's cells, a heatmap: pixels
  // no mutation announces). t1 waits for the second frame after the last change.
  let pending = false;
  const settle = () => {
    const seq = c.mutSeq;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (c.mutSeq !== seq) { settle(); return; }
      pending = false; c.painted = performance.now(); c.paintedSeq = seq;
      performance.mark('ss-drawn');
    }));
  };
  const touch = (what, node) => {
    c.mutSeq++; c.lastMut = performance.now(); c.lastMutWhat = what; c.lastMutNode = node;
    if (!pending) { pending = true; settle(); }
  };
  // What is inside a canvas is not drawn (a data grid keeps an accessible table there, which it
  // updates after its pixels): a mutation there is no change a person sees, but the canvas's
  // own attributes (its size) are.
  const unseen = (r) => {
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    const inCanvas = el && el.closest && el.closest('canvas');
    return inCanvas && !(r.type === 'attributes' && el.tagName === 'CANVAS');
  };
  new MutationObserver((records) => {
    const r = [...records].reverse().find((x) => !unseen(x));
    if (!r) return;
    touch(describe(r.target) + (r.type === 'attributes' ? ` [${r.attributeName}]` : ''), null);
  }).observe(document, {subtree: true, childList: true, attributes: true,
                        characterData: true});
  const ctx = window.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype;
  for (const name of ['fillRect', 'fillText', 'strokeText', 'drawImage', 'clearRect',
                      'putImageData', 'fill', 'stroke', 'strokeRect']) {
    const native = ctx && ctx[name];
    if (!native) continue;
    ctx[name] = function (...args) {
      touch(null, this.canvas);  // described when read: a grid draws thousands of cells
      return native.apply(this, args);
    };
  }
  // Transitions and animations that end change pixels too; kept apart (a hover's fade after
  // the click is no part of the step), reported beside t1.
  c.lastTransition = 0; c.lastTransitionWhat = '';
  for (const type of ['transitionend', 'animationend']) {
    window.addEventListener(type, (e) => {
      c.lastTransition = performance.now();
      c.lastTransitionWhat = `${e.type} ${e.propertyName || e.animationName} ${describe(e.target)}`;
    }, {capture: true});
  }
  c.describeLast = () => c.lastMutWhat ?? ('canvas drawn ' + describe(c.lastMutNode));
  c.arm = () => {
    c.inputs = []; c.armed = true; performance.clearMarks(); performance.mark('ss-armed');
  };
})()"""
"""The in-page clock of a step, installed before the page loads: ``t0`` is the time of the
step's last input (the click or key that starts it; the option picked, not the box opened),
``t1`` the second frame after the last change of the page (a DOM mutation or a 2D canvas
drawn: a data grid draws its cells with no mutation) and after the server's last message
(:data:`_WS_WATCH`), once neither has moved for a while (:func:`_clock`). Unlike the
harness's wall (Python's clock around Playwright's calls: its actionability checks before the
click, every wait's round trip and polling), ``t1 - t0`` is what a person waits for from the
click to the last frame that changes."""


def _arm(page: Any) -> None:
    """Start a step's in-page clock: inputs before this are not the step's."""
    page.evaluate("() => window.__ssClock.arm()")


CLOCK_QUIET_MS = [150]
"""How long the page must not change before a step's in-page clock is read (``--clock-quiet``):
a change later than this after the last one is not the step's."""


RUN_LATE_S = 10.0
"""With ``run=True``: how long :func:`_clock` waits, once the page is quiet, for the end of a
run after the step's start; a step whose run's end never comes is reported with no time."""


def _clock(page: Any, timeout: float = 120_000, quiet_ms: int | None = None,
           run: bool = False, start: str = "last") -> dict[str, Any]:
    """The in-page clock of the step armed last (:data:`_CLOCK_WATCH`), once the step has had an
    input, the page has changed since, has not changed for ``quiet_ms`` and its last change is
    drawn, and the
    server's last message is drawn: ``in_page_s`` (from the last input to the second frame after
    the last change or message), the inputs, and what changed last and when (seconds after
    the input), for the report; ``t0_ms`` and ``t1_ms`` are the page's ``performance.now()``.

    It must follow the step's own wait (its wall: the script state ``notRunning`` and the
    step's selector drawn), as every caller does: alone it would end at the first quiet
    ``quiet_ms`` after any change, e.g. an attribute set at the click before the run's
    result arrives.

    ``start``: "last" (the step's last input: a select box opened, then its option) or "first"
    (the first input since the clock was armed: a step armed just before its one click, whose
    page may dispatch more inputs of its own after it). ``run``: the step starts a script run,
    and it is over only when the server's "script finished" message after the start has come
    and been drawn (:data:`_WS_WATCH`); the clock waits for it (at most :data:`RUN_LATE_S`
    once the page is quiet) and reads ``run_finished_after_s`` (the run's end, seconds after
    the start) and ``finished_statuses``. A step whose run's end never came has ``in_page_s``
    None and ``no_run_seen`` True: it is reported as such, never read short."""
    quiet_ms = CLOCK_QUIET_MS[0] if quiet_ms is None else quiet_ms
    pick = "c.inputs[0].t" if start == "first" else "c.inputs[c.inputs.length - 1].t"
    page.wait_for_function(
        f"() => {{ const c = window.__ssClock; return c.inputs.length > 0"
        f" && c.lastMut > {pick}"
        f" && performance.now() - c.lastMut > {quiet_ms} && c.paintedSeq === c.mutSeq"
        f" && performance.now() - window.__ssLastMsg > {quiet_ms}"
        " && window.__ssPainted >= window.__ssLastMsg; }", timeout=timeout)
    no_run = False
    if run:
        ended = (f"() => {{ const c = window.__ssClock, t0 = {pick};"
                 " const f = window.__ssFinished.filter((x) => x.t > t0);"
                 " return f.length > 0 && window.__ssFinishedPainted > f[f.length - 1].t"
                 f" && performance.now() - window.__ssLastMsg > {quiet_ms}"
                 f" && performance.now() - c.lastMut > {quiet_ms} && c.paintedSeq === c.mutSeq"
                 " && window.__ssPainted >= window.__ssLastMsg; }")
        try:
            page.wait_for_function(ended, timeout=RUN_LATE_S * 1000)
        except Exception as exc:  # Playwright's TimeoutError: the run's end never came
            if "Timeout" not in type(exc).__name__:
                raise
            no_run = True
    got = page.evaluate(f"""() => {{
      const c = window.__ssClock; c.armed = false;
      const t0 = {pick};
      const fin = window.__ssFinished.filter((x) => x.t > t0);
      return {{t0, origin: performance.timeOrigin,
              finished: fin.length ? fin[fin.length - 1].t : 0,
              statuses: fin.map((x) => x.status),
              painted: c.painted, msgPainted: window.__ssPainted, lastMut: c.lastMut,
              lastMsg: window.__ssLastMsg, what: c.describeLast(),
              sent: window.__ssSent.find((t) => t >= t0) ?? 0,
              heard: window.__ssHeard.find((t) => t >= t0) ?? 0,
              transition: c.lastTransition, transitionWhat: c.lastTransitionWhat,
              inputs: c.inputs.map((i) => `${{i.type}} ${{i.what}}`)}}; }}""")
    t0 = got["t0"]
    t1 = max(got["painted"], got["msgPainted"])
    return {"in_page_s": round((t1 - t0) / 1000, 4) if t1 > t0 and not no_run else None,
            **({"no_run_seen": no_run,
                "run_finished_after_s": round((got["finished"] - t0) / 1000, 4)
                if got["finished"] else None,
                "finished_statuses": got["statuses"]} if run else {}),
            "last_change_after_s": round((got["lastMut"] - t0) / 1000, 4)
            if got["lastMut"] > t0 else None,
            "last_change": got["what"] if got["lastMut"] > t0 else None,
            "last_message_after_s": round((got["lastMsg"] - t0) / 1000, 4)
            if got["lastMsg"] > t0 else None,
            # the input to the page's first message to the server (its own handling of the
            # input), and to the server's first message after it
            "first_sent_after_s": round((got["sent"] - t0) / 1000, 4) if got["sent"] else None,
            "first_message_after_s": round((got["heard"] - t0) / 1000, 4)
            if got["heard"] else None,
            "last_transition_after_s": round((got["transition"] - t0) / 1000, 4)
            if got["transition"] > t0 else None,
            "last_transition": got["transitionWhat"] if got["transition"] > t0 else None,
            "inputs": got["inputs"], "t0_ms": t0, "t1_ms": t1,
            # the same instants on the machine's clock (seconds since the epoch), to line a
            # step up with what other processes did in it (a sampler of /proc, a server's log)
            "t0_epoch": round((got["origin"] + t0) / 1000, 4),
            "t1_epoch": round((got["origin"] + t1) / 1000, 4)}


def _interact(page: Any, action: Any, timeout: float = 120_000, quiet_ms: int = 150
              ) -> tuple[float, dict[str, Any]]:
    """Seconds from ``action(page)`` (a click that reruns the script) until the browser has
    drawn the last message of that run (two frames after it), once the script state is
    ``notRunning`` and the server has sent nothing for ``quiet_ms`` (the harness's wall,
    measured from before Playwright's call), and the step's in-page clock (:func:`_clock`:
    from the action's last input to the last frame that changes). An action marked
    :func:`_local` starts no run: its wall ends when what it opens is visible."""
    sent, start = page.evaluate("() => [window.__ssMsgs, performance.now()]")
    _arm(page)
    t = time.perf_counter()
    action(page)
    if getattr(action, "shows", None):
        page.locator(action.shows).first.wait_for(timeout=timeout)
        wall = time.perf_counter() - t
        after = page.evaluate("performance.now()")
        return wall, _harness(_clock(page, timeout), start, after)
    page.wait_for_function(
        f"() => window.__ssMsgs > {sent} && performance.now() - window.__ssLastMsg > {quiet_ms}"
        " && window.__ssPainted >= window.__ssLastMsg"
        " && document.querySelector('[data-testid=\"stApp\"]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'", timeout=timeout)
    painted = page.evaluate("window.__ssPainted")
    wall = float(painted - start) / 1000
    return wall, _harness(_clock(page, timeout), start, painted)


def _local(act: Any, shows: str, needed: str) -> Any:
    """A step the front end draws alone (no script run: a popover opened): done once
    ``shows`` is visible; skipped (not timed) while ``needed`` is already on the page."""
    act.shows, act.needed = shows, needed
    return act


def _radio(key: str, option: str) -> Any:
    return lambda page: page.locator(f".st-key-{key}").get_by_text(option, exact=True).click()


def _select(key: str, option: str) -> Any:
    """Open the select box of ``key`` and pick ``option``: two inputs, the step's clock starts
    at the second (the option); a popover holding the box is opened by a step of its own
    (:func:`_popover`)."""
    def act(page: Any) -> None:
        box = page.locator(f".st-key-{key} input")
        box.first.click()
        page.get_by_role("option", name=option, exact=True).click()
    return act


def _popover(key: str, inside: str) -> Any:
    """Open the popover of ``key`` (Scores' metric variants, ui.scores) until the widget
    ``inside`` shows: a step of the front end alone, skipped when the popover is open."""
    return _local(lambda page: page.locator(f".st-key-{key} button").first.click(),
                  f".st-key-{inside} input", f".st-key-{inside} input")


def _tab(name: str) -> Any:
    return lambda page: page.get_by_role("tab", name=re.compile(re.escape(name))).click()


def _step_up(key: str) -> Any:
    return lambda page: page.locator(
        f".st-key-{key} [data-testid=stNumberInputStepUp]").click()


INTERACTIONS: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (
    ("Scores", (("detail tab: per document", _tab("Per document")),
                ("per-document table: next page", _step_up("table_page")),
                ("detail tab: per label", _tab("Per label")),
                ("metric: mafalda", _radio("metric", "mafalda")),
                ("metric: martino", _radio("metric", "martino")),
                # Before the fourteenth pass the variant steps opened the popover in the same
                # timed step (their wall included it); since, it is a step of its own. Since
                # the fifteenth pass the first switch is to repo-head (from paper, the default),
                # then to metrics-py: each computed (or derived) the first time.
                ("variants popover: open", _popover("variants_menu", "mvariant")),
                ("MAFALDA variant: repo-head (first time: computed)",
                 _select("mvariant", "repo-head")),
                ("variants popover: open again", _popover("variants_menu", "mvariant")),
                ("MAFALDA variant: metrics-py (first time: computed)",
                 _select("mvariant", "metrics-py")),
                ("variants popover: open a third time", _popover("variants_menu", "mvariant")),
                ("MAFALDA variant: paper (computed before)", _select("mvariant", "paper")))),
    ("Labels", (("values: row-normalised", _radio("lvalues", "row-normalised")),
                ("values: counts", _radio("lvalues", "counts")),
                ("view: within reference", _radio("lview", "within reference")),
                ("view: confusion", _radio("lview", "confusion")))),
    ("Metric differences", (("score: P", _radio("measure", "P")),
                            ("score: F1", _radio("measure", "F1")))),
)
"""Warm widget interactions (``--interactions K``): on each page, steps that rerun it, each a
change of a widget whose result the page has computed before (the one step marked "first
time" computes; its return is the warm step). The bench pair has one system, so no pair
change."""

HEADINGS = {"Overview": "SpanScope"}
"""Pages whose title (h1) is not their name in the sidebar."""


def _nav(page: Any, title: str, selector: str, timeout: float = 120_000) -> float:
    """Click ``title`` in the sidebar: seconds until the page's heading and ``selector`` are
    drawn and its run has ended (the harness's wall; no in-page clock needed: other benches
    call this on pages without :data:`_CLOCK_WATCH`)."""
    t = time.perf_counter()
    _go(page, title, selector, timeout)
    return time.perf_counter() - t


def _go(page: Any, title: str, selector: str, timeout: float) -> None:
    page.get_by_test_id("stSidebar").get_by_text(title, exact=True).click()
    heading = HEADINGS.get(title, title)
    # The page's own title (its icon, then the name): a heading that merely contains the name
    # (Documents' "This document's scores") is still on screen when the click has not yet
    # started the new run, and the step then ended before the page ran.
    title_re = re.compile(rf"^\W*{re.escape(heading)}\s*$")
    page.get_by_role("heading", name=title_re).first.wait_for(timeout=timeout)
    _settled(page, selector, timeout)


def _nav_clocked(page: Any, title: str, selector: str, timeout: float = 120_000
                 ) -> tuple[float, dict[str, Any]]:
    """:func:`_nav` and the step's in-page clock (:func:`_clock`, waited for after the wall is
    taken), with where the wall goes beside it (:func:`_harness`)."""
    _arm(page)
    before = page.evaluate("performance.now()")
    t = time.perf_counter()
    _go(page, title, selector, timeout)
    wall = time.perf_counter() - t
    after = page.evaluate("performance.now()")
    return wall, _harness(_clock(page, timeout), before, after)


def _harness(clock: dict[str, Any], before: float, after: float | None) -> dict[str, Any]:
    """``clock`` with where the harness's wall goes beside it: ``harness_before_input_s``, from
    the page's time just before Playwright's click or key is called until the input event
    (Playwright's actionability checks and the dispatch); ``harness_after_last_frame_s``, from
    the clock's end until the page's time just after the wall ended (the waits' polling and
    round trips; negative when the page changed after the wall ended)."""
    clock["harness_before_input_s"] = round((clock["t0_ms"] - before) / 1000, 4)
    clock["harness_after_last_frame_s"] = (round((after - clock["t1_ms"]) / 1000, 4)
                                           if after is not None else None)
    return clock


def _task_s(cdp: Any) -> float:
    """Seconds Chromium's renderer main thread has spent on tasks so far (``TaskDuration`` of
    the DevTools ``Performance`` domain): the browser's own work, less noisy than wall time on a
    shared machine."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def _thread_s(cdp: Any) -> float:
    """CPU seconds of Chromium's renderer main thread so far (``ThreadTime``): unlike
    ``TaskDuration`` (wall time of its tasks), not lengthened when other processes take the
    machine's cores (docs/performance.md, issue 29, seventh pass)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "ThreadTime"))


def _heap_mib(cdp: Any) -> float:
    """MiB of V8's heap in use in the page now (``JSHeapUsedSize``): before and after a revisit,
    what it left on the heap (issue 29, nineteenth pass)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "JSHeapUsedSize")) / 2**20


HEAP_SAMPLING_BYTES = 16_384
"""``--heap-sampling``: V8's sampling heap profiler takes one allocation in this many bytes on
average, the collected ones kept (what a revisit allocates, garbage included)."""


ELEMENT_COUNTS_JS = """() => {
  const n = (sel) => document.querySelectorAll(sel).length;
  const kinds = {markdown: "[data-testid='stMarkdownContainer']",
                 caption: "[data-testid='stCaptionContainer']",
                 html: "[data-testid='stHtml']", grid: "[data-testid='stDataFrame']",
                 plotly: ".js-plotly-plot", vega: "[data-testid='stVegaLiteChart']",
                 page_link: "[data-testid='stPageLink-NavLink']"};
  const out = {};
  for (const [where, root] of [["main", "[data-testid='stMain']"],
                               ["sidebar", "[data-testid='stSidebar']"]]) {
    for (const [kind, sel] of Object.entries(kinds)) {
      out[`${where}_${kind}`] = n(`${root} ${sel}`);
    }
  }
  return out;
}"""
"""``--heap-sampling``: after each revisit, how many elements of each kind the page and the
sidebar hold (a Markdown container: a widget's or a page link's label, a heading, ``st.markdown``;
a caption, parsed as Markdown too; an ``st.html`` element, a data grid, a plotly or Vega chart, a
page link): what the revisit's allocation by script file is spread over (issue 29, twentieth
pass)."""


def _start_heap_sampling(cdp: Any) -> None:
    cdp.send("HeapProfiler.startSampling", {
        "samplingInterval": HEAP_SAMPLING_BYTES, "includeObjectsCollectedByMajorGC": True,
        "includeObjectsCollectedByMinorGC": True})


def _stop_heap_sampling(cdp: Any) -> dict[str, Any]:
    """What was allocated since :func:`_start_heap_sampling`: ``allocated_mib`` and its MiB by
    the script file of the allocation's nearest frame with a URL (``by_file_mib``, the eight
    largest; :func:`trace_clock._file_of` names)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from trace_clock import _file_of

    profile = cdp.send("HeapProfiler.stopSampling")["profile"]
    return allocated_by_file(profile, _file_of)


def allocated_by_file(profile: dict[str, Any], file_of: Any) -> dict[str, Any]:
    """A sampling heap profile's samples summed (MiB), in all and by the file of each sample's
    nearest frame with a URL (a built-in's allocation goes to its caller's file)."""
    files: dict[int, str] = {}
    stack = [(profile["head"], "(no script)")]
    while stack:
        node, inherited = stack.pop()
        url = node["callFrame"].get("url") or ""
        here = file_of(url) if url else inherited
        files[node["id"]] = here
        stack.extend((child, here) for child in node.get("children", ()))
    by_file: dict[str, float] = {}
    for sample in profile.get("samples", ()):
        name = files.get(sample["nodeId"], "(no script)")
        by_file[name] = by_file.get(name, 0.0) + sample["size"] / 2**20
    top = sorted(by_file.items(), key=lambda kv: -kv[1])[:8]
    return {"allocated_mib": round(sum(by_file.values()), 2),
            "by_file_mib": {k: round(v, 2) for k, v in top}}


def _pick_doc(page: Any, doc_id: str, pid: int | None = None, cdp: Any = None
              ) -> tuple[float, float, float, float, float, dict[str, Any], dict[str, Any]]:
    """Type ``doc_id`` into the document selector, then click it: (seconds until the filtered
    option shows, seconds from the click until the new document is drawn, CPU seconds the
    server process ``pid`` spent meanwhile, seconds of Chromium's main thread meanwhile, CPU
    seconds of the browser's processes meanwhile, the in-page clocks of the typing and of the
    click (:func:`_clock`; the typing's input event starts the first, the option's click the
    second))."""
    _arm(page)
    worker = descendants_cpu_s(pid) if pid else 0.0
    t = time.perf_counter()
    box = page.get_by_test_id("stSelectbox").filter(has_text="Document (").first
    box.locator("input").fill(doc_id)
    option = page.get_by_role("option").get_by_text(doc_id, exact=True).first
    option.wait_for(timeout=120_000)
    typed = time.perf_counter() - t
    typed_clock = _clock(page)
    # the server's background worker (the work ahead) while the typing and the switch ran
    worker_mid = descendants_cpu_s(pid) if pid else 0.0
    typed_clock["worker_cpu_s"] = round(worker_mid - worker, 3)
    cpu = (cpu_s(pid) or 0.0) if pid else 0.0
    task = _task_s(cdp) if cdp else 0.0
    browser = browser_cpu_s(pid) if pid else 0.0
    page.evaluate(_SEEN_WATCH, doc_id)  # when the new text shows (fifteenth pass)
    _arm(page)
    before = page.evaluate("performance.now()")
    t = time.perf_counter()
    option.click()
    page.wait_for_function(
        f"() => location.search.includes('doc={doc_id}')", timeout=120_000)
    # The URL changes at the click, before the run starts: wait for the new document's own
    # heading (its contributions' before the Documents page's tabs, its highlights' since),
    # then for the run's end.
    page.get_by_text(re.compile(rf"^(Every pair of document {re.escape(doc_id)}|Both annotations "
                                rf"of document {re.escape(doc_id)}, side by side)$")
                     ).first.wait_for(timeout=120_000)
    _settled(page, "#left-doc")
    wall = time.perf_counter() - t
    # From the click (the first input since the clock was armed, just before it), until the
    # run it started has sent its end and every change is drawn (seventeenth pass).
    clock = _harness(_clock(page, run=True, start="first"), before,
                     page.evaluate("performance.now()"))
    seen = page.evaluate("window.__ssStep.seen")  # the click to the frame after its heading
    clock["text_visible_s"] = None if seen is None else round(float(seen) / 1000, 4)
    clock["worker_cpu_s"] = round((descendants_cpu_s(pid) if pid else 0.0) - worker_mid, 3)
    return (typed, wall, ((cpu_s(pid) or 0.0) - cpu) if pid else 0.0,
            (_task_s(cdp) - task) if cdp else 0.0, (browser_cpu_s(pid) - browser) if pid else 0.0,
            typed_clock, clock)


_SEEN_WATCH = """(want) => {
  // The time from the click or key (a listener on window, capturing: before the page's own)
  // to the first frame after a heading "Both annotations of document <want>, side by side"
  // is in the page: when a person sees the new text.
  window.__ssStep = {t0: null, seen: null};
  const st = window.__ssStep;
  const start = () => { if (st.t0 === null) st.t0 = performance.now(); };
  window.addEventListener('click', start, {capture: true, once: true});
  window.addEventListener('keydown', start, {capture: true, once: true});
  const head = `Both annotations of document ${want}, side by side`;
  const check = () => {
    if (st.seen !== null || st.t0 === null) return;
    for (const h of document.querySelectorAll('.ss-head')) {
      if (h.textContent === head) {
        obs.disconnect();
        requestAnimationFrame(() => { st.seen = performance.now() - st.t0; });
        return;
      }
    }
  };
  const obs = new MutationObserver(check);
  obs.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _step_doc(page: Any, key: str | None, doc_id: str, pid: int | None = None, cdp: Any = None
              ) -> tuple[float, float, float, float, dict[str, Any]]:
    """Step to ``doc_id`` with the stepper: a click on Next (``key`` None) or the key ``key``:
    (seconds until its highlights' heading is drawn, measured in the page from the click or
    key to the next frame; seconds until the run it started has ended and the selector shows
    it; server CPU seconds meanwhile; CPU seconds of Chromium's main thread meanwhile; the
    in-page clock until the page is complete, :func:`_clock`)."""
    # The key goes to the page, not to a field holding the focus (the selector's, after the
    # typing): as a person clicks beside the fields first.
    page.evaluate("() => document.activeElement?.blur()")
    page.evaluate(_SEEN_WATCH, doc_id)
    _arm(page)
    before = page.evaluate("performance.now()")
    cpu = (cpu_s(pid) or 0.0) if pid else 0.0
    thread = _thread_s(cdp) if cdp else 0.0
    t = time.perf_counter()
    if key is None:
        page.get_by_role("button", name="Next ▶").click()
    else:
        page.locator("body").press(key)
    page.wait_for_function("() => window.__ssStep.seen !== null", timeout=120_000)
    seen = float(page.evaluate("window.__ssStep.seen")) / 1000
    box = page.get_by_test_id("stSelectbox").filter(has_text="Document (").first
    page.wait_for_function(
        "([el, want]) => el.value === want", arg=[box.locator("input").element_handle(), doc_id],
        timeout=120_000)
    _settled(page, "#left-doc")
    wall = time.perf_counter() - t
    thread = (_thread_s(cdp) - thread) if cdp else 0.0
    clock = _harness(_clock(page, run=True, start="first"), before,
                     page.evaluate("performance.now()"))
    return (seen, wall, ((cpu_s(pid) or 0.0) - cpu) if pid else 0.0, thread, clock)


def run(n_docs: int, n_spans: int, repeat: int, cli: bool = False, doc_switches: int = 2,
        timeout: float = 120_000, corpus: Path | None = None, pause: float = 0.0,
        nav: tuple[tuple[str, str], ...] = NAV, revisits: int = 0,
        interactions: int = 0, tree: Path = ROOT, bytecode: str = "compiled",
        doc_steps: int = 0, trace: tuple[str, Path] | None = None,
        idle_before: float = 0.0, revisit_pause: float = 0.0, gc_trace: Path | None = None,
        heap_sampling: bool = False, keep_server_log: Path | None = None) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    compiled = prepare_bytecode(tree, bytecode)
    print(f"bytecode: {compiled}", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        data = corpus or Path(tmp)
        t = time.perf_counter()
        if not ((data / "bench" / "gold.json").exists()
                and (data / "bench" / "system_a.json").exists()):
            make_corpus(data / "bench", n_docs, n_spans)
        gen = time.perf_counter() - t
        rss_after: dict[str, float | None] = {}
        rss_now: dict[str, float | None] = {}  # VmRSS where rss_after has VmHWM
        with sync_playwright() as p:
            # The browser is up before the server starts and asks for the page as soon as the
            # server answers (as `spanscope app` opens a tab): work a server starts on its own
            # (the --data files read as it starts) gets no more time than a user's browser
            # gives it.
            browser = chromium(p)
            page = browser.new_page(viewport={"width": 1500, "height": 1600})
            page.add_init_script(_REACT_COMMITS)
            page.add_init_script(_WS_WATCH)
            page.add_init_script(_CLOCK_WATCH)
            received = [0]  # bytes the server sent over the websocket
            page.on("websocket", lambda ws: ws.on(
                "framereceived", lambda frame: received.__setitem__(
                    0, received[0] + len(frame))))
            load_at_start = os.getloadavg()
            launched = time.perf_counter()
            busy_at_start = machine_busy_s()
            server_dir = server_log_dir(keep_server_log) if keep_server_log else Path(tmp)
            proc, url = start_server(data, cli, tree, server_dir)
            ours_at_start = ours_cpu_s(proc.pid)
            up = time.perf_counter() - launched
            cpu_at: dict[str, float | None] = {"healthy": cpu_s(proc.pid)}
            trail = CpuTrail(proc.pid)
            try:
                t = time.perf_counter()
                # the bench's step timeout, not Playwright's 30 s: at load 40 the page's load
                # event came later than that once (twentieth pass), a failed run, not a wait
                page.goto(f"{url}/documents" + ("" if cli else "?sample=bench"), timeout=timeout)
                _settled(page, "#left-doc .ss-seg", timeout)
                first = time.perf_counter() - t
                from_launch = time.perf_counter() - launched
                cpu_at["first load"] = cpu_s(proc.pid)
                # the server's CPU when its last run's "script finished" reached the page: the
                # rest, to the draw, is work started as the run ended (the pair's scores
                # ahead) on the browser's drawing time, which the load moves (twentieth pass)
                ended, page_now = page.evaluate(
                    "() => [window.__ssFinished.length ? "
                    "window.__ssFinished[window.__ssFinished.length - 1].t : null, "
                    "performance.now()]")
                now = time.perf_counter()
                cpu_at["first load, at its run's end"] = (
                    cpu_before(trail.stop(), now - (page_now - ended) / 1000)
                    if ended is not None else None)
                cpu_at["first load, its children"] = cpu_s(proc.pid, children=True)
                cpu_at["first load, its worker"] = descendants_cpu_s(proc.pid)
                # the machine's other processes: every core's busy time from the launch to the
                # first draw, but this bench's (a slow first load on a shared machine)
                others = round(machine_busy_s() - busy_at_start
                               - (ours_cpu_s(proc.pid) - ours_at_start), 2)
                copies = read_stats(server_dir)
                run_end = cpu_at["first load, at its run's end"]
                print(f"first load: {first:.2f} s (server healthy {up:.2f} s after its start, "
                      f"first draw {from_launch:.2f} s after it; server CPU "
                      f"{cpu_at['first load']} s (at its run's end {run_end} s), its children's "
                      f"{cpu_at['first load, its children']} s, its worker's "
                      f"{cpu_at['first load, its worker']} s; load average at the start "
                      f"{load_at_start[0]:.2f}, the machine's other processes' CPU "
                      f"{others} s)", file=sys.stderr, flush=True)
                said = copies or "nothing said (no copy, or a tree that does not say)"
                print(f"first load, the reading copy: {said}", file=sys.stderr, flush=True)
                rss_after["first load"] = peak_rss_mib(proc.pid)
                rss_now["first load"] = rss_mib(proc.pid)
                time.sleep(pause)  # a reader looks at the first page before the first click
                pages: list[float] = []
                steps: list[tuple[str, float]] = []
                docs: list[float] = []
                docs_cpu: list[float] = []
                docs_task: list[float] = []
                docs_browser: list[float] = []
                docs_thread: list[float] = []  # main-thread CPU, typing and switch
                docs_bytes: list[int] = []  # bytes received, typing and switch
                typing: list[float] = []
                steps_seen: list[float] = []  # the stepper: until the new text is drawn
                steps_wall: list[float] = []  # ... until the run has ended
                steps_cpu: list[float] = []
                steps_thread: list[float] = []
                steps_clock: list[dict[str, Any]] = []  # the stepper: in-page, until complete
                docs_clock: list[dict[str, Any]] = []  # typed switch: in-page, from the click
                typing_clock: list[dict[str, Any]] = []
                pages_clock: list[tuple[str, dict[str, Any]]] = []
                revisit_clock: dict[str, list[dict[str, Any]]] = {}
                acted_clock: dict[str, list[dict[str, Any]]] = {}
                rng = random.Random(1)
                revisit: dict[str, list[float]] = {}
                revisit_cpu: dict[str, list[float]] = {}
                revisit_browser: dict[str, list[float]] = {}
                revisit_thread: dict[str, list[float]] = {}
                revisit_bytes: dict[str, list[int]] = {}
                revisit_worker: dict[str, list[float]] = {}  # the server's worker's CPU
                revisit_heap: list[dict[str, Any]] = []  # V8's heap around each (19th pass)
                idle_wait: dict[str, Any] = {}
                revisits_below = 0.0
                acted: dict[str, list[tuple[float, float, float, int]]] = {}
                acted_thread: dict[str, list[float]] = {}  # main-thread CPU per step
                cdp = page.context.new_cdp_session(page)
                cdp.send("Performance.enable")

                busy = lambda: _task_s(cdp)  # noqa: E731
                try:
                    for _ in range(repeat):
                        for title, sel in nav:
                            # where the libraries' preload was (ui.chart_library; the steps it
                            # had evaluated since the twentieth pass)
                            clock_preload = page.evaluate(
                                "() => [window.__spanscopeCharts || null, "
                                "window.__spanscopeDone || null]")
                            took, clock = _nav_clocked(page, title, sel, timeout)
                            clock["preload_at_click"] = clock_preload
                            pages.append(took)
                            pages_clock.append((title, clock))
                            steps.append((title, round(pages[-1], 3)))
                            print(f"{title}: {pages[-1]:.2f} s (in page {clock.get('in_page_s')}"
                                  f" s; the preload at the click {clock_preload}), server peak "
                                  f"RSS {peak_rss_mib(proc.pid)} MiB (now {rss_mib(proc.pid)} MiB)",
                                  file=sys.stderr, flush=True)
                            rss_after.setdefault(title, peak_rss_mib(proc.pid))
                            rss_now.setdefault(title, rss_mib(proc.pid))
                        for _ in range(doc_switches):
                            # The selector lists the first DOC_CHOICES documents (search finds
                            # others).
                            pick = rng.randrange(min(n_docs, DOC_CHOICES))
                            thread0, bytes0 = _thread_s(cdp), received[0]
                            typed, switched, cpu, task, browser_cpu, tclock, clock = _pick_doc(
                                page, f"doc{pick}", proc.pid, cdp)
                            typing_clock.append(tclock)
                            docs_clock.append(clock)
                            # the typing's share too: both are the switch's main-thread CPU
                            # and bytes, the same in base and tree
                            docs_thread.append(_thread_s(cdp) - thread0)
                            docs_bytes.append(received[0] - bytes0)
                            docs_browser.append(browser_cpu)
                            typing.append(typed)
                            docs.append(switched)
                            docs_cpu.append(cpu)
                            docs_task.append(task)
                            print(f"document switch: wall {switched:.3f} s, in page "
                                  f"{clock['in_page_s']} s, text visible "
                                  f"{clock['text_visible_s']} s, server CPU {cpu:.3f} s, "
                                  f"browser main thread {task:.3f} s, browser CPU "
                                  f"{browser_cpu:.3f} s, main-thread CPU with the typing "
                                  f"{docs_thread[-1]:.3f} s, {docs_bytes[-1]:,} bytes "
                                  "received with the typing; the click to the page's first "
                                  f"message {clock['first_sent_after_s']} s, to the server's "
                                  f"first {clock['first_message_after_s']} s, last "
                                  f"{clock['last_message_after_s']} s, the run's end "
                                  f"{clock['run_finished_after_s']} s "
                                  f"{clock['finished_statuses']}"
                                  f"{' (NO RUN SEEN)' if clock['no_run_seen'] else ''}; "
                                  f"inputs {clock['inputs']}; typed filter in page "
                                  f"{tclock['in_page_s']} s (last change "
                                  f"{tclock['last_change_after_s']} s: "
                                  f"{tclock['last_change']}; at {tclock['t0_epoch']:.3f}–"
                                  f"{tclock['t1_epoch']:.3f}); switch at "
                                  f"{clock['t0_epoch']:.3f}–{clock['t1_epoch']:.3f}; the "
                                  "background worker's CPU in the typing "
                                  f"{tclock['worker_cpu_s']} s, in the switch "
                                  f"{clock['worker_cpu_s']} s",
                                  file=sys.stderr, flush=True)
                        # Then the stepper, forward: Next clicked, then the key N, in turn.
                        box = page.get_by_test_id("stSelectbox").filter(
                            has_text="Document (").first
                        for i in range(doc_steps):
                            shown = box.locator("input").input_value()
                            target = f"doc{int(shown[3:]) + 1}"
                            seen, wall, cpu, thread, clock = _step_doc(
                                page, None if i % 2 == 0 else "n", target, proc.pid, cdp)
                            steps_clock.append(clock)
                            steps_seen.append(seen)
                            steps_wall.append(wall)
                            steps_cpu.append(cpu)
                            steps_thread.append(thread)
                            print(f"document step ({'Next' if i % 2 == 0 else 'key N'}): "
                                  f"text visible {seen:.3f} s, settled {wall:.3f} s (wall), "
                                  f"complete in page {clock['in_page_s']} s, server "
                                  f"CPU {cpu:.3f} s, main-thread CPU {thread:.3f} s",
                                  file=sys.stderr, flush=True)
                    traced: dict[str, Any] = {}
                    traced_all: list[dict[str, Any]] = []
                    if revisits and idle_before:
                        idle_wait = _await_idle(proc.pid, idle_before)
                        print(f"background idle after {idle_wait['waited_s']} s "
                              f"(idle: {idle_wait['idle']})", file=sys.stderr, flush=True)
                    below0 = descendants_cpu_s(proc.pid)
                    if revisits and gc_trace is not None:  # one light trace over them all
                        browser.start_tracing(page=page, path=str(gc_trace),
                                              categories=GC_TRACE_CATEGORIES)
                        sys.path.insert(0, str(ROOT / "bench"))
                        from trace_clock import GC_SYNC_MARK

                        page.evaluate(f"performance.mark('{GC_SYNC_MARK}')")
                    if revisits and heap_sampling:
                        cdp.send("HeapProfiler.enable")
                    for round_ in range(revisits):
                        for title, sel in nav:
                            every = trace is not None and trace[0] == TRACE_ALL
                            tracing = (trace is not None and (every or title == trace[0])
                                       and (every or round_ == revisits - 1))
                            traced_to = (None if trace is None else trace[1] / (
                                f"{round_ + 1}-{title.replace(' ', '_')}.json") if every
                                else trace[1])
                            if revisit_pause:  # a reader looks at the page, then clicks
                                time.sleep(revisit_pause)
                            if tracing and traced_to is not None:  # traced
                                browser.start_tracing(page=page, path=str(traced_to),
                                                      categories=TRACE_CATEGORIES)
                            cpu0, task0, bytes0 = cpu_s(proc.pid), busy(), received[0]
                            thread0 = _thread_s(cdp)
                            worker0 = descendants_cpu_s(proc.pid)
                            heap0 = _heap_mib(cdp)
                            commits0 = page.evaluate("window.__ssCommits ?? 0")
                            if heap_sampling:
                                _start_heap_sampling(cdp)
                            took, clock = _nav_clocked(page, title, sel, timeout)
                            cpu1, task = cpu_s(proc.pid), busy() - task0
                            thread = _thread_s(cdp) - thread0
                            heap = {"round": round_ + 1, "page": title,
                                    "heap_before_mib": round(heap0, 1),
                                    "heap_after_mib": round(_heap_mib(cdp), 1),
                                    "span_ms": (clock["t0_ms"], clock["t1_ms"]),
                                    # React's commits from the click to the page drawn
                                    "react_commits": page.evaluate("window.__ssCommits ?? 0")
                                    - commits0}
                            if heap_sampling:
                                heap.update(_stop_heap_sampling(cdp))
                                heap["elements"] = page.evaluate(ELEMENT_COUNTS_JS)
                            revisit_heap.append(heap)
                            worker = round(descendants_cpu_s(proc.pid) - worker0, 2)
                            revisit_worker.setdefault(title, []).append(worker)
                            if tracing and traced_to is not None:
                                browser.stop_tracing()
                                traced = {"page": title, "trace": str(traced_to),
                                          "clock": clock, "wall_s": round(took, 3),
                                          "server_cpu_s": round((cpu1 or 0.0) - (cpu0 or 0.0), 3),
                                          "background_worker_cpu_s": worker,
                                          "bytes": received[0] - bytes0}
                                if every:
                                    traced_all.append({**traced, "round": round_ + 1})
                            revisit_clock.setdefault(title, []).append(clock)
                            revisit_thread.setdefault(title, []).append(thread)
                            cpu = 0.0 if cpu0 is None or cpu1 is None else cpu1 - cpu0
                            revisit.setdefault(title, []).append(took)
                            revisit_cpu.setdefault(title, []).append(cpu or 0.0)
                            revisit_browser.setdefault(title, []).append(task)
                            revisit_bytes.setdefault(title, []).append(received[0] - bytes0)
                            print(f"revisit {title}: wall {took:.3f} s, in page "
                                  f"{clock['in_page_s']} s (at {clock['t0_epoch']:.3f}–"
                                  f"{clock['t1_epoch']:.3f}; last change "
                                  f"{clock['last_change_after_s']} s: {clock['last_change']}) "
                                  "(server CPU "
                                  f"{cpu if cpu is None else round(cpu, 3)} s, browser main "
                                  f"thread {task:.3f} s (CPU {thread:.3f} s), "
                                  f"{received[0] - bytes0:,} bytes "
                                  f"received, background worker CPU {worker:.2f} s, JS heap "
                                  f"{heap['heap_before_mib']} → {heap['heap_after_mib']} MiB, "
                                  f"{heap['react_commits']} React commits"
                                  + (f", allocated {heap['allocated_mib']} MiB"
                                     if heap_sampling else "") + ")",
                                  file=sys.stderr, flush=True)
                    if revisits:
                        revisits_below = round(descendants_cpu_s(proc.pid) - below0, 2)
                    if revisits and gc_trace is not None:
                        browser.stop_tracing()
                        _gc_per_revisit(gc_trace, revisit_heap)
                    known = dict(NAV)
                    for _ in range(interactions):
                        for title, actions in INTERACTIONS:
                            _nav(page, title, known[title], timeout)
                            for name, action in actions:
                                needed = getattr(action, "needed", None)
                                if needed and page.locator(needed).count():
                                    continue  # the popover is open already
                                cpu0, task0, bytes0 = cpu_s(proc.pid), busy(), received[0]
                                thread0 = _thread_s(cdp)
                                took, clock = _interact(page, action, timeout)
                                acted_clock.setdefault(f"{title}: {name}", []).append(clock)
                                cpu1, task = cpu_s(proc.pid), busy() - task0
                                thread = _thread_s(cdp) - thread0
                                acted_thread.setdefault(f"{title}: {name}", []).append(thread)
                                cpu = 0.0 if cpu0 is None or cpu1 is None else cpu1 - cpu0
                                row = acted.setdefault(f"{title}: {name}", [])
                                row.append((took, cpu, task, received[0] - bytes0))
                                print(f"{title}: {name}: wall {took:.3f} s, in page "
                                      f"{clock['in_page_s']} s (server CPU {cpu:.3f} s, "
                                      f"browser main thread {task:.3f} s (CPU {thread:.3f} s), "
                                      f"{received[0] - bytes0:,} bytes received)",
                                      file=sys.stderr, flush=True)
                except Exception:
                    shot = ROOT / "bench" / "results" / "bench_app_failure.png"
                    shot.parent.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(shot))
                    print(f"failed; screenshot in {shot}", file=sys.stderr)
                    if keep_server_log:
                        print(f"the server's standard error: {server_dir / 'stderr.txt'}",
                              file=sys.stderr)
                    raise
                rss_after["end"] = peak_rss_mib(proc.pid)
                rss_now["end"] = rss_mib(proc.pid)
                cpu_at["end"] = cpu_s(proc.pid)
            finally:
                trail.stop()
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=20)
            browser.close()
    cold = steps[:len(nav)]
    warm = [t for (_, t) in steps[len(nav):]]  # after each page's first (cold-cache) visit
    return {
        "page_switch_warm_s": {"median": round(statistics.median(warm), 3) if warm else None,
                               "max": round(max(warm), 3) if warm else None},
        "documents": n_docs, "spans_per_set": n_spans, "generate_s": round(gen, 2),
        "opened_with": "spanscope app --data" if cli else "SPANSCOPE_DATA_DIR",
        "server_log": str(server_dir) if keep_server_log else None,
        "server_peak_rss_mib_after": rss_after,
        "server_rss_mib_after": rss_now,
        "first_load_s": round(first, 2), "pause_s": pause, "revisit_pause_s": revisit_pause,
        "first_load_reading_copy": copies, "load_average_at_start": load_at_start,
        "others_cpu_first_load_s": others,
        "server_healthy_after_start_s": round(up, 2),
        "first_draw_after_start_s": round(from_launch, 2), "server_cpu_s_at": cpu_at,
        "page_switch_s": {"median": round(statistics.median(pages), 3) if pages else None,
                          "max": round(max(pages), 3) if pages else None, "n": len(pages)},
        "document_switch_s": {"median": round(statistics.median(docs), 3) if docs else None,
                              "max": round(max(docs), 3) if docs else None, "n": len(docs)},
        "document_step": {
            "n": len(steps_seen),
            "text_visible_s": [round(x, 3) for x in steps_seen],
            "settled_s": [round(x, 3) for x in steps_wall],
            "server_cpu_s": [round(x, 3) for x in steps_cpu],
            "main_thread_cpu_s": [round(x, 3) for x in steps_thread]},
        "document_switch_server_cpu_s": {
            "median": round(statistics.median(docs_cpu), 3) if docs_cpu else None,
            "each": [round(c, 3) for c in docs_cpu]},
        "document_switch_browser_task_s": {
            "median": round(statistics.median(docs_task), 3) if docs_task else None,
            "each": [round(c, 3) for c in docs_task]},
        "document_switch_browser_cpu_s": {
            "median": round(statistics.median(docs_browser), 3) if docs_browser else None,
            "each": [round(c, 3) for c in docs_browser]},
        "document_switch_each_s": [round(d, 3) for d in docs],
        "document_switch_main_thread_cpu_with_typing_s": [round(c, 3) for c in docs_thread],
        "document_switch_bytes_with_typing": docs_bytes,
        "tree": str(tree), "bytecode": bytecode,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "document_typed_filter_s": {"median": round(statistics.median(typing), 3)
                                    if typing else None,
                                    "max": round(max(typing), 3) if typing else None},
        "page_first_visit_s": cold,
        "page_steps_s": steps,
        # The in-page clock (_CLOCK_WATCH) beside each wall above, under keys of their own.
        "in_page_clock": IN_PAGE,
        "page_steps_in_page_s": [(t, c["in_page_s"]) for t, c in pages_clock],
        "document_switch_in_page": _clocked(docs_clock, docs),
        "document_typed_filter_in_page": _clocked(typing_clock, typing),
        "document_step_in_page": _clocked(steps_clock, steps_wall),
        **({"page_revisit_warm_in_page": {
            "all": _clocked([c for cs in revisit_clock.values() for c in cs],
                            [t for ts in revisit.values() for t in ts]),
            "pages": {title: _clocked(cs, revisit[title]) for title, cs in revisit_clock.items()}}}
           if revisits else {}),
        **({"traced_revisit": _traced(traced)} if revisits and trace
           and trace[0] != TRACE_ALL else {}),
        **({"traced_revisits": [_traced(t) for t in traced_all]} if traced_all else {}),
        # What the server's background worker (its descendants) spent while the revisits ran,
        # and the wait for it to go idle before them (--idle-before-revisits).
        **({"revisits_background_worker_cpu_s": revisits_below,
            "revisits_waited_for_idle": idle_wait} if revisits else {}),
        # V8's heap around each revisit, what it allocated (--heap-sampling) and the
        # collections inside it (--gc-trace): issue 29, nineteenth pass.
        **({"revisit_heap": revisit_heap} if revisits else {}),
        **({"revisit_gc": _gc_summary(revisit_heap)} if revisits and gc_trace else {}),
        **({"interactions_in_page": {
            name: {"first": _clocked(cs[:1], [r[0] for r in acted[name][:1]]),
                   "warm": _clocked(cs[1:], [r[0] for r in acted[name][1:]])}
            for name, cs in acted_clock.items()}} if interactions else {}),
        **({"page_revisit_warm_s": {
            "all": _summary([t for ts in revisit.values() for t in ts]),
            "under_300ms": sum(t < 0.3 for ts in revisit.values() for t in ts),
            "pages": {title: {**_summary(ts),
                              "server_cpu_median": round(statistics.median(revisit_cpu[title]),
                                                         3),
                              "browser_busy_median": round(
                                  statistics.median(revisit_browser[title]), 3),
                              "browser_main_thread_cpu_median": round(
                                  statistics.median(revisit_thread[title]), 3),
                              "bytes_received_median": statistics.median(revisit_bytes[title]),
                              "background_worker_cpu": revisit_worker[title],
                              "runs": [round(t, 3) for t in ts]}
                      for title, ts in revisit.items()}}} if revisits else {}),
        # The first round may compute (a tab's table, a metric's per-label rows): apart.
        **({"interactions_first_s": {name: round(rows[0][0], 3)
                                     for name, rows in acted.items()},
            "interactions_warm_s": {
            name: {**_summary([r[0] for r in rows[1:]]),
                   "server_cpu_median": round(statistics.median(r[1] for r in rows[1:]), 3),
                   "browser_busy_median": round(statistics.median(r[2] for r in rows[1:]), 3),
                   "bytes_received_median": statistics.median(r[3] for r in rows[1:]),
                   "browser_main_thread_cpu_median": round(
                       statistics.median(acted_thread[name][1:]), 3),
                   "runs": [round(r[0], 3) for r in rows[1:]]}
            for name, rows in acted.items() if len(rows) > 1}}  # a step skipped once: no warm
           if interactions > 1 else {}),
    }


IN_PAGE = ("in_page_s: from the step's last input (the click or key, captured on window before "
           "the page's handlers) to the second frame after the page's last DOM change and the "
           "server's last message (the page complete); wall_s: the harness's clock, Python's "
           "around Playwright's calls (actionability checks, waits and their polling), the "
           "figure of the older keys. A document switch or step starts at its click or key "
           "(the first input) and ends only once the server's 'script finished' message of "
           "the run it started is drawn: one whose run's end never came has in_page_s null and "
           "no_run_seen true")
"""What the ``*_in_page`` keys of the result measure, beside the older walls."""


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline",
                    "disabled-by-default-devtools.timeline.frame", "blink.user_timing",
                    "toplevel", "v8.execute", "latencyInfo", "benchmark",
                    "disabled-by-default-v8.cpu_profiler", "v8", "disabled-by-default-v8.gc"]
"""What ``--trace`` records (a DevTools performance trace with user timing marks, and V8's
sampled CPU profile: :func:`trace_clock.analyse` splits the script's time by the file it ran
in)."""

GC_TRACE_CATEGORIES = ["disabled-by-default-v8.gc", "blink.user_timing"]
"""What ``--gc-trace`` records over all the warm revisits at once: V8's collections and the
user timing marks (the in-page clock's and :data:`trace_clock.GC_SYNC_MARK`), little enough
that the revisits run as untraced (no trace started or stopped between them)."""

def _gc_per_revisit(path: Path, heaps: list[dict[str, Any]]) -> None:
    """Each revisit's collections (:func:`trace_clock.gc_in_spans`) into its entry of
    ``heaps``; the collections between the revisits into the last entry's ``gc_after``."""
    sys.path.insert(0, str(ROOT / "bench"))
    from trace_clock import gc_in_spans

    events = json.loads(path.read_text(encoding="utf-8"))["traceEvents"]
    found = gc_in_spans(events, [tuple(h["span_ms"]) for h in heaps])
    for heap, gc in zip(heaps, found["spans"], strict=True):
        heap["gc"] = gc
    heaps[-1]["gc_between_revisits"] = found["outside"]


def _gc_summary(heaps: list[dict[str, Any]]) -> dict[str, Any]:
    """The revisits' major collections: how many revisits had one, on which pages, and those
    that ran between the revisits (where a person was not waiting)."""
    with_major = [(h["page"], h["gc"]["major_ms"]) for h in heaps if h.get("gc", {}).get("major_n")]
    between = heaps[-1].get("gc_between_revisits", {}) if heaps else {}
    return {"revisits": len(heaps), "revisits_with_major_gc": len(with_major),
            "major_gc_pages_ms": with_major, "major_gcs_between_revisits": between.get("major_n"),
            "scavenges_inside": sum(h.get("gc", {}).get("scavenge_n", 0) for h in heaps)}


TRACE_ALL = "all"
"""``--trace all DIR``: every warm revisit traced, each into ``DIR/ROUND-PAGE.json``."""


def _trace_arg(trace: list[str] | None) -> tuple[str, Path] | None:
    """``--trace PAGE FILE`` as (PAGE, resolved FILE); with ``all`` FILE is a folder, made."""
    if not trace:
        return None
    where = Path(trace[1]).resolve()
    if trace[0] == TRACE_ALL:
        where.mkdir(parents=True, exist_ok=True)
    return trace[0], where


def _traced(traced: dict[str, Any]) -> dict[str, Any]:
    """The traced revisit (``--trace``) beside what :mod:`trace_clock` reads in its trace."""
    if not traced:
        return {}
    sys.path.insert(0, str(ROOT / "bench"))
    from trace_clock import analyse

    return {**traced, "analysis": analyse(Path(traced["trace"]), traced["clock"])}


def _clocked(clocks: list[dict[str, Any]], walls: list[float]) -> dict[str, Any]:
    """The in-page clocks of some steps beside their harness walls (:data:`IN_PAGE`): each
    step's figures, their summaries and how many are under 300 ms on either clock."""
    inside = [c["in_page_s"] for c in clocks if c["in_page_s"] is not None]
    return {"in_page_s": _summary(inside), "wall_s": _summary(walls),
            "in_page_under_300ms": sum(t < 0.3 for t in inside),
            # steps that start a run whose end the clock never saw: no time, counted apart
            "no_run_seen": sum(bool(c.get("no_run_seen")) for c in clocks),
            "wall_under_300ms": sum(t < 0.3 for t in walls),
            "each": [{"in_page_s": c["in_page_s"], "wall_s": round(w, 3),
                      "harness_before_input_s": c.get("harness_before_input_s"),
                      "harness_after_last_frame_s": c.get("harness_after_last_frame_s"),
                      "text_visible_s": c.get("text_visible_s"),
                      "last_change_after_s": c["last_change_after_s"],
                      "last_change": c["last_change"],
                      "last_message_after_s": c["last_message_after_s"],
                      "first_sent_after_s": c.get("first_sent_after_s"),
                      "first_message_after_s": c.get("first_message_after_s"),
                      "run_finished_after_s": c.get("run_finished_after_s"),
                      "worker_cpu_s": c.get("worker_cpu_s"),
                      "no_run_seen": c.get("no_run_seen"), "inputs": c.get("inputs"),
                      "t0_epoch": c.get("t0_epoch"), "t1_epoch": c.get("t1_epoch")}
                     for c, w in zip(clocks, walls, strict=True)]}


def upload(gold: Path, pred: Path, repeat: int, timeout: float = 120_000) -> dict[str, Any]:
    """Upload ``gold`` and ``pred`` on the Data page of a fresh server (one per run, so nothing
    is cached), timing from handing the files to the browser until the page has read both and
    shows their summary (issue 15, target 1: < 3 s for the 20,000-document pair)."""
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    peaks: list[float | None] = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            proc, url = start_server(Path(tmp))
            try:
                with sync_playwright() as p:
                    browser = chromium(p)
                    page = browser.new_page(viewport={"width": 1500, "height": 1600})
                    page.goto(f"{url}/data")
                    _settled(page, "[data-testid=stFileUploader]", timeout)
                    t = time.perf_counter()
                    page.locator("input[type=file]").first.set_input_files([str(gold),
                                                                            str(pred)])
                    page.get_by_test_id("stSidebar").get_by_text(
                        "Showing uploaded files", exact=False).first.wait_for(timeout=timeout)
                    _settled(page, "h2:has-text('Summary')", timeout)
                    times.append(time.perf_counter() - t)
                    peaks.append(peak_rss_mib(proc.pid))
                    print(f"upload: {times[-1]:.2f} s", file=sys.stderr, flush=True)
                    browser.close()
            finally:
                proc.terminate()
                proc.wait(timeout=20)
    size = (gold.stat().st_size + pred.stat().st_size) / 1e6
    return {"upload_mb": round(size, 1), "upload_to_summary_s": [round(x, 2) for x in times],
            "median_s": round(statistics.median(times), 2), "server_peak_rss_mib": peaks}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--spans", type=int, default=100_000, help="spans per set")
    ap.add_argument("--repeat", type=int, default=3, help="rounds of page/document switches")
    ap.add_argument("--doc-switches", type=int, default=2, help="document switches per round")
    ap.add_argument("--doc-steps", type=int, default=0,
                    help="then per round this many steps with the stepper (Next clicked, the "
                    "key N, in turn), each timed until its text is drawn and until its run "
                    "has ended")
    ap.add_argument("--timeout", type=float, default=120, help="seconds a step may take")
    ap.add_argument("--cli", action="store_true",
                    help="open the corpus with `python -m core app --data` (else as a sample)")
    ap.add_argument("--upload", type=Path, nargs=2, metavar=("GOLD", "PRED"),
                    help="instead: time uploading these two files on the Data page until "
                    "their summary shows (a fresh server per run; --repeat runs)")
    ap.add_argument("--corpus", type=Path, default=None,
                    help="folder whose bench/ holds the generated pair, kept between runs "
                    "(generated if absent)")
    ap.add_argument("--pause", type=float, default=0.0,
                    help="seconds between the first load and the first click (a reader "
                    "looking at the page; the server may compute ahead meanwhile)")
    ap.add_argument("--revisits", type=int, default=0,
                    help="after the rounds, visit every page again this many times, each "
                    "visit timed apart with the server's CPU (warm revisits, target < 300 ms)")
    ap.add_argument("--interactions", type=int, default=0,
                    help="then this many rounds of the widget interactions of Scores, Labels "
                    "and Metric differences (INTERACTIONS), each timed apart; the first "
                    "round is reported apart (it may compute), so at least 2")
    ap.add_argument("--first-only", action="store_true",
                    help="time the first load alone (no page or document switch): what "
                    "--pages and --repeat would visit is skipped")
    ap.add_argument("--pages", default=None,
                    help="comma-separated page titles visited in each round, in this order "
                    f"(default: all, {', '.join(t for t, _ in NAV)}); the document switches "
                    "run on the last, so end with Documents (or pass --doc-switches 0)")
    ap.add_argument("--tree", type=Path, default=ROOT,
                    help="checkout whose app the server runs (default: this one), to compare "
                    "another revision with the same driver")
    ap.add_argument("--bytecode", choices=list(BYTECODE), default="compiled",
                    help="compiled (default): the tree's modules compiled once before timing, "
                    "as an installed app has them; source: compiled by every server start, as "
                    "every run measured before the twelfth pass of issue 29")
    ap.add_argument("--trace", nargs=2, metavar=("PAGE", "FILE"), default=None,
                    help="record a DevTools trace of the last warm revisit of PAGE into FILE "
                    "and split its in-page span (bench/trace_clock.py); `--trace all DIR`: "
                    "every warm revisit, each into DIR/ROUND-PAGE.json")
    ap.add_argument("--idle-before-revisits", type=float, default=0.0, metavar="S",
                    help="before the warm revisits, wait (at most S seconds) until the "
                    "server's background worker has been idle for a second: the revisits "
                    "then run with no work ahead beside them (issue 29, fifteenth pass)")
    ap.add_argument("--revisit-pause", type=float, default=0.0, metavar="S",
                    help="wait S seconds before each warm revisit's click, as a reader looks "
                    "at a page before the next (issue 29, eighteenth pass: after a pause of "
                    "more than a second the work ahead is no longer held when the click comes)")
    ap.add_argument("--gc-trace", type=Path, default=None, metavar="FILE",
                    help="record V8's collections over all the warm revisits in one light trace "
                    "(FILE) and count them in each revisit's in-page span and between them "
                    "(issue 29, nineteenth pass)")
    ap.add_argument("--heap-sampling", action="store_true",
                    help="V8's sampling heap profiler around each warm revisit: what it "
                    "allocated (garbage included) and by which script file")
    ap.add_argument("--keep-server-log", type=Path, default=None, metavar="DIR",
                    help="keep the server's standard error and its reading copies' lines in a "
                         "new folder under DIR (printed with the result): a run that waits or "
                         "fails can be read after it")
    ap.add_argument("--clock-quiet", type=int, default=CLOCK_QUIET_MS[0], metavar="MS",
                    help="milliseconds the page must not change before a step's in-page clock "
                    "is read (a later change is not the step's)")
    args = ap.parse_args()
    CLOCK_QUIET_MS[0] = args.clock_quiet
    nav: tuple[tuple[str, str], ...] = NAV
    if args.pages:
        known = dict(NAV)
        titles = [t.strip() for t in args.pages.split(",") if t.strip()]
        if unknown := [t for t in titles if t not in known]:
            ap.error(f"unknown pages {unknown}; choose among {', '.join(known)}")
        nav = tuple((t, known[t]) for t in titles)
    if args.first_only:
        nav, args.doc_switches, args.revisits, args.interactions = (), 0, 0, 0
        args.doc_steps = 0
    if args.upload:
        timed = upload(args.upload[0], args.upload[1], args.repeat, args.timeout * 1000)
        print(json.dumps(timed, indent=1))
        return
    result = run(args.docs, args.spans, args.repeat, args.cli, args.doc_switches,
                 args.timeout * 1000, args.corpus, args.pause, nav, args.revisits,
                 args.interactions, args.tree.resolve(), args.bytecode, args.doc_steps,
                 _trace_arg(args.trace),
                 args.idle_before_revisits, args.revisit_pause,
                 args.gc_trace.resolve() if args.gc_trace else None, args.heap_sampling,
                 args.keep_server_log.resolve() if args.keep_server_log else None)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"bench_app_{args.docs}.json").write_text(json.dumps(result, indent=1),
                                                     encoding="utf-8")
    print(json.dumps(result, indent=1))
    ok = (result["first_load_s"] < 5 and (result["page_switch_warm_s"]["max"] or 0) < 1
          and max((t for _, t in result["page_first_visit_s"]), default=0) < 3
          and (result["document_switch_s"]["max"] or 0) < 1)
    print("targets (first load < 5 s, first visits < 3 s, switches < 1 s):",
          "met" if ok else "NOT met")
    if "page_revisit_warm_s" in result:
        warm = result["page_revisit_warm_s"]
        slow = {t: v["median"] for t, v in warm["pages"].items() if v["max"] >= 0.3}
        print(f"warm revisits < 300 ms (harness wall): {warm['under_300ms']} of "
              f"{warm['all']['n']}" + (f"; over it (median): {slow}" if slow else ""))
        clocked = result["page_revisit_warm_in_page"]
        slow = {t: v["in_page_s"]["median"] for t, v in clocked["pages"].items()
                if (v["in_page_s"]["max"] or 0) >= 0.3}
        print(f"warm revisits < 300 ms (in page, input to last frame): "
              f"{clocked['all']['in_page_under_300ms']} of {clocked['all']['in_page_s']['n']}"
              + (f"; over it (median): {slow}" if slow else ""))
    if result.get("revisit_heap"):
        commits: dict[str, list[int]] = {}
        for seen in result["revisit_heap"]:
            commits.setdefault(seen["page"], []).append(seen.get("react_commits", 0))
        print(f"React commits per warm revisit, by page: {commits}")
    if "revisit_gc" in result:
        gc = result["revisit_gc"]
        print(f"major collections inside the warm revisits: {gc['revisits_with_major_gc']} of "
              f"{gc['revisits']} revisits {gc['major_gc_pages_ms']}; between them: "
              f"{gc['major_gcs_between_revisits']}")
    if "interactions_warm_s" in result:
        acts = result["interactions_warm_s"]
        slow = {n: v["median"] for n, v in acts.items()
                if v["max"] >= 0.3 and "first time" not in n}
        print(f"warm interactions over 300 ms (harness wall, median): {slow or 'none'}")
        acts = result["interactions_in_page"]
        slow = {n: v["warm"]["in_page_s"]["median"] for n, v in acts.items()
                if (v["warm"]["in_page_s"]["max"] or 0) >= 0.3 and "first time" not in n}
        print(f"warm interactions over 300 ms (in page, median): {slow or 'none'}")
        first = {n: (v["first"]["wall_s"]["max"], v["first"]["in_page_s"]["max"])
                 for n, v in acts.items()}
        print("interactions' first round (harness wall, in page):", first)
    if result.get("document_switch_in_page", {}).get("each"):
        seen = [e["text_visible_s"] for e in result["document_switch_in_page"]["each"]
                if e.get("text_visible_s") is not None]
        print(f"typed document switch, its text visible < 300 ms: "
              f"{sum(t < 0.3 for t in seen)} of {len(seen)} (median "
              f"{statistics.median(seen) if seen else None} s)")
    for key, what in (("document_switch_in_page", "typed document switch (from the click)"),
                      ("document_step_in_page", "document step (Next, key N), complete")):
        if result[key]["wall_s"]["n"]:
            print(f"{what} < 300 ms: harness wall {result[key]['wall_under_300ms']}, in page "
                  f"{result[key]['in_page_under_300ms']} of {result[key]['wall_s']['n']}"
                  + (f" ({result[key]['no_run_seen']} with no run's end seen: not timed)"
                     if result[key]["no_run_seen"] else "")
                  + "; each in page: "
                  + ", ".join(str(e["in_page_s"]) for e in result[key]["each"]))


if __name__ == "__main__":
    main()
