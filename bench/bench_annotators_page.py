"""Benchmark of the Annotators page: what it computes, and how long a user waits for it.

Synthetic corpus of ``bench_agreement.py`` (reference §4 design) with a gold and three annotators
over ``--docs`` texts (default 200). Times, best of ``--repeat``:

* core: the majority set, each measure's view as the page builds it (pairwise matrix, each
  annotator against the gold and against the majority, documents ranked), every measure but γ;
* γ: the many-annotator job (γ then γ-cat, cold cache, with progress) and the γ view (two-annotator
  γ for every pair, against the gold and the majority) that runs in the background;
* one document's alignment (``gamma_alignment``) plus its figure and lanes (target < 0.5 s);
* the page in ``streamlit.testing`` (AppTest, the script runs without a browser): first run,
  time until γ is shown, a rerun, a change of measure.

Run: ``python bench/bench_annotators_page.py [--docs 200] [--samples 30] [--repeat 3]``.
Writes ``bench/results/bench_annotators_page.json``.

``--browser`` instead times what a user waits for in Chromium (issue 29, targets 3 and 5): the
corpus is written as SemEval-2021 JSON (the gold and three annotators) and opened with
``spanscope app --data NAME:ROLE=PATH``; Playwright drives ``/usr/bin/chromium``. Each round
starts a fresh server and times the first load (Overview drawn), the Annotators page's first visit
(the page answers: its heading and the measure menu; then until the default measure's matrix is
drawn), and measure switches, each from the click on the menu option until the heatmap of the new
measure is visible: at once after the first visit (the worker still computing the other measures
ahead), then, after ``--settle`` seconds, to the others. ``--tree PATH,PATH`` runs the rounds in
several checkouts, interleaved (before/after on the same machine in the same minutes); the load
average is printed with every round, and with every switch the CPU seconds of the server and
of its background worker meanwhile (``CPU server+worker``), Chromium's renderer main-thread
CPU and the DOM mutations by where they happen (which elements a switch draws again);
``--port`` pins the server's port. Writes ``bench/results/bench_annotators_browser_<docs>.json``.

    python bench/bench_annotators_page.py --browser --docs 10000 --rounds 2 --tree /tmp/base,.

``--switch-cpu`` times the server side of a warm measure switch (issue 29, target 5): the page
in AppTest, every measure of ``ui.annotators.PREFETCHED`` computed by the worker first, then
``--repeat`` rounds of switches, each with its wall and CPU time and the CPU of each page section
(``ui.annotators`` functions wrapped with a thread-CPU timer). With ``--tree PATH,PATH`` each
checkout runs in its own process, interleaved, importing its own ``core`` and ``ui``.

    python bench/bench_annotators_page.py --switch-cpu --docs 10000 --tree /tmp/base,/tmp/tree
"""

from __future__ import annotations

import argparse
import html
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_agreement import best_of, synthetic  # noqa: E402

from core.metrics.agreement import (  # noqa: E402
    MEASURES,
    Study,
    gamma,
    gamma_alignment,
    majority_set,
    measure_view,
)
from core.model import AnnotationSet  # noqa: E402


def corpus(n_docs: int) -> tuple[list[AnnotationSet], dict[str, str | None]]:
    """The synthetic design with four sets: the first becomes the gold."""
    sets, texts = synthetic(n_docs, n_annotators=4)
    gold = AnnotationSet("gold", sets[0].spans, role="gold")
    return [gold, *sets[1:]], dict(texts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-apptest", action="store_true", help="skip the page (AppTest) timings")
    ap.add_argument("--browser", action="store_true",
                    help="time the page in Chromium instead (first visit, measure switches)")
    ap.add_argument("--tree", default=str(ROOT),
                    help="--browser: comma-separated checkouts to run the server in, interleaved")
    ap.add_argument("--rounds", type=int, default=1, help="--browser: rounds per checkout")
    ap.add_argument("--settle", type=float, default=30.0,
                    help="--browser: seconds before the second series of switches")
    ap.add_argument("--port", type=int, default=0,
                    help="--browser: the server's port (default: a free one)")
    ap.add_argument("--first-visit", action="store_true",
                    help="--browser: the first load and visit only, no switches")
    ap.add_argument("--switch-cpu", action="store_true",
                    help="time a warm measure switch's page run, section by section (AppTest)")
    ap.add_argument("--in-tree", help=argparse.SUPPRESS)  # --switch-cpu: one checkout's process
    args = ap.parse_args()
    if args.switch_cpu:
        if args.in_tree:
            switch_cpu(Path(args.in_tree), args.docs, args.repeat)
        else:
            switch_cpu_trees(args.docs, [Path(t).resolve() for t in args.tree.split(",")],
                             args.repeat)
        return
    if args.browser:
        browser(args.docs, [Path(t).resolve() for t in args.tree.split(",")], args.rounds,
                args.settle, switches=not args.first_visit, port=args.port)
        return

    import os

    os.environ.setdefault("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false")
    import logging

    logging.getLogger("streamlit").setLevel(logging.ERROR)
    from core.render import highlight
    from ui import annotators as ann
    from ui import state

    sets, texts = corpus(args.docs)
    gold, annotators = sets[0], sets[1:]
    report = state.FileReport("bench.json", "bench", "gold", "bench", texts, tuple(sets))
    ws = state.build_workspace([report], key=f"bench:{args.docs}", title="bench",
                               shareable=False)
    print(f"corpus: {args.docs} texts, gold + {len(annotators)} annotators, spans "
          f"{[s.span_count() for s in sets]}")
    out: dict[str, Any] = {"docs": args.docs, "samples": args.samples, "core_ms": {}}

    study = Study.from_sets(annotators, texts)
    t, maj = best_of(lambda: majority_set(annotators), args.repeat)
    out["core_ms"]["majority_set"] = t * 1000
    print(f"  majority_set                        {t * 1000:8.1f} ms  ({maj.span_count()} spans)")
    for m in MEASURES:
        if m in ann.GAMMA_MEASURES:
            continue
        t, _ = best_of(lambda m=m: measure_view(annotators, texts, measure=m, gold=gold),
                       args.repeat)
        out["core_ms"][f"view {m}"] = t * 1000
        print(f"  view {m:<30} {t * 1000:8.1f} ms")
    total = sum(v for k, v in out["core_ms"].items() if k.startswith("view"))
    print(f"  every non-γ view                    {total:8.1f} ms")

    ticks: list[tuple[int, int]] = []
    t0 = time.perf_counter()
    g = gamma(study, samples=args.samples, seed=0, progress=lambda d, n: ticks.append((d, n)))
    t_g = time.perf_counter() - t0
    t0 = time.perf_counter()
    gc = gamma(study, samples=args.samples, seed=0, categorical=True)
    t_gc = time.perf_counter() - t0
    sd = g.overall.stats.get("gamma_mc_sd") or 0.0
    out.update(gamma_s=t_g, gamma_cat_s=t_gc, gamma=g.overall.value, gamma_progress=len(ticks))
    print(f"γ job: γ {g.overall.value:.4f} ± {2 * sd:.4f} in {t_g:.2f} s ({len(ticks)} progress "
          f"calls), then γ-cat {gc.overall.value:.4f} in {t_gc:.2f} s")
    calls: list[tuple[int, int]] = []
    t0 = time.perf_counter()
    measure_view(annotators, texts, measure="gamma", gold=gold, samples=args.samples,
                 progress=lambda d, n: calls.append((d, n)))
    t_view = time.perf_counter() - t0
    out["gamma_view_s"] = t_view
    print(f"γ view (pairs, against gold and majority, ranking): {t_view:.2f} s, "
          f"{len(calls)} progress calls")

    doc = study.docs[0]
    colours = highlight.label_colours(sorted({s.label for a in sets for v in a.spans.values()
                                              for s in v}))

    t_al, al = best_of(lambda: gamma_alignment(study, doc, samples=args.samples, seed=0),
                       args.repeat)
    t_fig, _ = best_of(lambda: (ann.alignment_figure(al, colours, title=doc).to_json(),
                                ann.alignment_table(al)), args.repeat)
    t_lanes, _ = best_of(lambda: [highlight.render_lanes(
        texts[doc], highlight.span_items(a, doc, "A"), colours) for a in [gold, *annotators, maj]],
        args.repeat)
    out["alignment_ms"] = {"gamma_alignment": t_al * 1000, "figure+table": t_fig * 1000,
                           "5 lanes": t_lanes * 1000}
    print(f"one document ({doc}, {len(al['units'])} units): gamma_alignment {t_al * 1000:.0f} ms"
          f" + figure and table {t_fig * 1000:.0f} ms + 5 lanes {t_lanes * 1000:.0f} ms = "
          f"{(t_al + t_fig + t_lanes) * 1000:.0f} ms (target 500)")

    if not args.no_apptest:
        out["apptest_s"] = apptest(ws, args.samples)
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "bench_annotators_page.json").write_text(json.dumps(out, indent=1))


TARGET_S = 0.3
"""Issue 29, target 5: a measure switch drawn within this many seconds (the summary counts
the switches under it)."""

SWITCH_NOW = ("char-jaccard", "text-kappa", "fleiss-kappa", "span-f1")
"""Switches timed right after the first visit (the page opens on char-κ), down the menu and
back up."""
SWITCH_SETTLED = ("krippendorff-alpha", "mafalda-f1", "char-kappa")
"""Switches timed after ``--settle`` seconds, to measures not shown yet (and back to char-κ)."""


def write_corpus(folder: Path, n_docs: int) -> list[str]:
    """:func:`corpus` as SemEval-2021 JSON files in ``folder``; returns the ``--data``
    arguments (the gold, then three annotators)."""
    sets, texts = corpus(n_docs)
    folder.mkdir(parents=True, exist_ok=True)
    args = []
    for k, aset in enumerate(sets):
        rows = [{"id": doc, "text": texts[doc],
                 "labels": [{"technique": sp.label, "start": sp.start, "end": sp.end}
                            for sp in aset.spans[doc]]} for doc in aset.spans]
        path = folder / f"{aset.name}.json"
        path.write_text(json.dumps(rows), encoding="utf-8")
        role = "gold" if k == 0 else "annotator"
        args += ["--data", f"{aset.name}:{role}={path}"]
    return args


def _server(tree: Path, data: list[str], port: int = 0) -> tuple[Any, str]:
    import subprocess

    from bench_app import _free_port, healthy

    port = port or _free_port()
    cmd = [sys.executable, "-m", "core", "app", *data, "--server.headless=true",
           "--server.address=127.0.0.1", f"--server.port={port}",
           "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"]
    proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    return proc, healthy(proc, port, 120)


MATRIX_TITLE = """(m) => {
  const t = document.querySelector('.st-key-ann_matrix .gtitle, .st-key-ann_matrix caption');
  return !!t && (t.textContent.startsWith(m + ',') || t.textContent.startsWith(m + ' ('));
}"""
"""Whether the pairwise matrix drawn is measure ``m``'s (its title starts with the name: the
chart's title before the tenth pass, the table's caption since)."""


def group_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) of the server process ``pid`` and of its live children
    (the background worker, which runs in a session of its own), from ``/proc`` (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    server = others = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu = (int(fields[11]) + int(fields[12])) / tick
        if stat.parent.name == str(pid):
            server += cpu
        elif int(fields[1]) == pid:  # fields[1]: the parent
            others += cpu
    return server, others


MUTATIONS = """(() => {
  window.__annMut = {};
  window.__annDots = 0;
  const where = (node) => {
    for (let e = node; e; e = e.parentElement) {
      const key = [...e.classList].find((c) => c.startsWith('st-key-'));
      if (key) return key.slice(7);
      const id = e.dataset && e.dataset.testid;
      if (id === 'stElementContainer') {
        const c = e.firstElementChild;
        return (c && c.dataset && c.dataset.testid) || 'element';
      }
      if (id && id !== 'stMarkdownContainer') return id + ' (block)';
    }
    return 'document';
  };
  new MutationObserver((records) => {
    for (const r of records) {
      const at = where(r.target.nodeType === 1 ? r.target : r.target.parentElement);
      const m = window.__annMut[at] ||= {added: 0, removed: 0, attributes: 0, text: 0};
      if (r.type === 'childList') {
        const size = (n) => 1 + (n.querySelectorAll ? n.querySelectorAll('*').length : 0);
        for (const n of r.addedNodes) {
          m.added += size(n);
          if ((n.textContent || '').includes('computing every pair')) window.__annDots++;
        }
        for (const n of r.removedNodes) m.removed += size(n);
      } else if (r.type === 'attributes') m.attributes++;
      else m.text++;
    }
  }).observe(document, {subtree: true, childList: true, attributes: true,
                             characterData: true});
})()"""
"""Installed before the page loads: counts the DOM mutations of the page by where they happen
(the keyed element, else the element's test id, else the block): nodes added and removed (each
with its subtree), attribute and text changes; and in ``window.__annDots`` the nodes added that
say the matrix is being computed (its cells drawn as "…" while the page waits for the worker).
``window.__annMut = {}; window.__annDots = 0`` resets them."""

IDLE = """() => document.querySelector('[data-testid="stApp"]')
  ?.getAttribute('data-test-script-state') === 'notRunning'"""


def browser_round(tree: Path, data: list[str], settle: float, switches: bool = True,
                  timeout: float = 600_000, port: int = 0) -> dict[str, Any]:
    """One fresh server in ``tree``: first load, first visit, measure switches (seconds;
    without ``switches`` the first visit only). With each switch: the server's and the
    worker's CPU, Chromium's renderer main-thread CPU from the click until the run has ended
    and the page has been quiet for 0.3 s, and the DOM mutations meanwhile (:data:`MUTATIONS`)."""
    import os
    import signal

    from bench_app import _settled, _thread_s, chromium, peak_rss_mib
    from playwright.sync_api import sync_playwright

    proc, url = _server(tree, data, port)
    out: dict[str, Any] = {"tree": str(tree), "load_before": os.getloadavg()[0]}
    try:
        with sync_playwright() as p:
            browser = chromium(p)
            page = browser.new_page(viewport={"width": 1500, "height": 1600})
            page.add_init_script(MUTATIONS)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            t = time.perf_counter()
            page.goto(url)
            _settled(page, "[data-testid='stMain'] [data-testid='stPageLink']", timeout)
            out["first_load_s"] = time.perf_counter() - t
            t = time.perf_counter()
            page.get_by_test_id("stSidebar").get_by_text("Annotators", exact=True).click()
            page.get_by_role("heading", name="Annotators").first.wait_for(timeout=timeout)
            _settled(page, ".st-key-ann_measure", timeout)
            out["first_visit_answer_s"] = time.perf_counter() - t
            page.wait_for_function(MATRIX_TITLE, arg="char-kappa", timeout=timeout)
            out["first_visit_matrix_s"] = time.perf_counter() - t

            def switch(measure: str) -> float:
                box = page.get_by_test_id("stSelectbox").filter(has_text="Measure").first
                for attempt in range(4):  # a chart drawn late moves the page and closes it
                    box.click()
                    option = page.get_by_role("option").get_by_text(measure, exact=True).first
                    try:
                        option.wait_for(timeout=5_000)
                        break
                    except Exception:
                        if attempt == 3:
                            raise
                        page.keyboard.press("Escape")
                page.wait_for_function(IDLE, timeout=timeout)
                time.sleep(0.3)  # the menu's own redraw is not the switch's
                page.evaluate("window.__annMut = {}; window.__annDots = 0")
                cpu0 = group_cpu(proc.pid)
                thread0 = _thread_s(cdp)
                t0 = time.perf_counter()
                option.click()
                page.wait_for_function(MATRIX_TITLE, arg=measure, timeout=timeout)
                took = time.perf_counter() - t0
                cpu1 = group_cpu(proc.pid)
                page.wait_for_function(IDLE, timeout=timeout)
                time.sleep(0.3)
                thread[measure] = round(_thread_s(cdp) - thread0, 3)
                mutations[measure] = page.evaluate("window.__annMut")
                dots[measure] = bool(page.evaluate("window.__annDots"))
                cpu[measure] = (round(cpu1[0] - cpu0[0], 2), round(cpu1[1] - cpu0[1], 2))
                return took

            cpu: dict[str, tuple[float, float]] = {}
            thread: dict[str, float] = {}
            mutations: dict[str, Any] = {}
            dots: dict[str, bool] = {}
            out["switch_now_s"] = {m: switch(m) for m in SWITCH_NOW} if switches else {}
            out["switch_now_dots"], dots = dots, {}
            out["switch_now_cpu_s"], cpu = cpu, {}
            out["switch_now_main_thread_cpu_s"], thread = thread, {}
            out["switch_now_mutations"], mutations = mutations, {}
            if switches:
                time.sleep(settle)
            out["switch_settled_s"] = {m: switch(m) for m in SWITCH_SETTLED} if switches else {}
            out["switch_settled_cpu_s"] = cpu
            out["switch_settled_main_thread_cpu_s"] = thread
            out["switch_settled_mutations"] = mutations
            out["switch_settled_dots"] = dots
            out["server_peak_rss_mib"] = peak_rss_mib(proc.pid)
            browser.close()
    finally:
        out["load_after"] = os.getloadavg()[0]
        os.killpg(proc.pid, signal.SIGTERM)  # the server and its worker
        proc.wait(timeout=30)
    return out


def _mutated(counts: dict[str, dict[str, int]]) -> str:
    """The DOM mutations of one switch, shortest first: ``where +added/-removed ~attributes
    'text``."""
    return ", ".join(f"{at} +{m['added']}/-{m['removed']} ~{m['attributes']} '{m['text']}"
                     for at, m in sorted(counts.items(), key=lambda kv: -sum(kv[1].values())))


def browser(n_docs: int, trees: list[Path], rounds: int, settle: float,
            switches: bool = True, port: int = 0) -> None:
    import statistics
    import tempfile

    results: list[dict[str, Any]] = []  # one per round
    with tempfile.TemporaryDirectory() as tmp:
        data = write_corpus(Path(tmp), n_docs)
        for r in range(rounds):
            for tree in trees if r % 2 == 0 else trees[::-1]:
                res = browser_round(tree, data, settle, switches, port=port)
                results.append(res)
                for series in ("now", "settled"):
                    for m, counts in res.get(f"switch_{series}_mutations", {}).items():
                        print(f"  {series} {m}: main-thread CPU "
                              f"{res[f'switch_{series}_main_thread_cpu_s'][m]:.3f} s; DOM: "
                              f"{_mutated(counts)}", flush=True)
                at_once = " ".join(
                    f"{m} {v:.2f}{' …' if res['switch_now_dots'][m] else ''} "
                    f"(CPU {res['switch_now_cpu_s'][m][0]:.2f}"
                    f"+{res['switch_now_cpu_s'][m][1]:.2f})"
                    for m, v in res["switch_now_s"].items())
                settled = " ".join(
                    f"{m} {v:.2f}{' …' if res['switch_settled_dots'][m] else ''} "
                    f"(CPU {res['switch_settled_cpu_s'][m][0]:.2f}"
                    f"+{res['switch_settled_cpu_s'][m][1]:.2f})"
                    for m, v in res["switch_settled_s"].items())
                print(f"{tree}: load {res['load_before']:.1f}->{res['load_after']:.1f}; first "
                      f"load {res['first_load_s']:.2f} s; Annotators answers "
                      f"{res['first_visit_answer_s']:.2f} s, matrix "
                      f"{res['first_visit_matrix_s']:.2f} s; switch at once: {at_once}; after "
                      f"{settle:.0f} s: {settled}; server peak RSS {res['server_peak_rss_mib']} "
                      "MiB", flush=True)
    for tree in trees:
        mine = [r for r in results if r["tree"] == str(tree)]
        now: list[float] = [v for r in mine for v in r["switch_now_s"].values()]
        later: list[float] = [v for r in mine for v in r["switch_settled_s"].values()]
        answer: list[float] = [r["first_visit_answer_s"] for r in mine]
        matrix: list[float] = [r["first_visit_matrix_s"] for r in mine]
        dots_now = sum(v for r in mine for v in r.get("switch_now_dots", {}).values())
        thread_now = [v for r in mine for v in r.get("switch_now_main_thread_cpu_s", {}).values()]
        thread_later = [v for r in mine
                        for v in r.get("switch_settled_main_thread_cpu_s", {}).values()]
        print(f"{tree}: medians over {len(mine)} rounds: first visit answers "
              f"{statistics.median(answer):.2f} s, matrix {statistics.median(matrix):.2f} s"
              + (f"; switch at once {statistics.median(now):.2f} s (max {max(now):.2f}), "
                 f"settled {statistics.median(later):.2f} s (max {max(later):.2f}); under "
                 f"{TARGET_S * 1000:.0f} ms: {sum(v < TARGET_S for v in now)} of {len(now)} at "
                 f"once, {sum(v < TARGET_S for v in later)} of {len(later)} settled; drew "
                 f"'…' first: {dots_now} of {len(now)} at once"
                 if now else "")
              + (f"; main-thread CPU at once {statistics.median(thread_now):.3f} s, settled "
                 f"{statistics.median(thread_later):.3f} s" if thread_later else ""))
    results_dir = ROOT / "bench" / "results"
    results_dir.mkdir(parents=True, exist_ok=True)
    (results_dir / f"bench_annotators_browser_{n_docs}.json").write_text(
        json.dumps({"docs": n_docs, "settle_s": settle, "rounds": results}, indent=1))


SWITCH_CYCLE = ("char-jaccard", "text-kappa", "span-f1", "char-kappa")
"""The warm switches of ``--switch-cpu``, one round (the page opens on char-κ)."""

SECTIONS = ("choose", "compute", "pairwise_matrix", "together", "against_reference",
            "documents_by_disagreement", "document_lanes", "document_alignment", "heatmap",
            "against_bars", "alignment_figure", "ranking_table")
"""The ``ui.annotators`` functions whose CPU ``--switch-cpu`` reports (those a checkout has)."""


def switch_cpu_trees(n_docs: int, trees: list[Path], rounds: int) -> None:
    """:func:`switch_cpu` in each checkout's own process, the checkouts interleaved (reversed
    every other round); prints each process's lines."""
    import os
    import subprocess

    for r in range(rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            print(f"{tree}: load {os.getloadavg()[0]:.1f}", flush=True)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--switch-cpu",
                            "--docs", str(n_docs), "--repeat", "1", "--in-tree", str(tree)],
                           check=True, cwd=tree)


def switch_cpu(tree: Path, n_docs: int, rounds: int) -> None:
    """The warm switches of :data:`SWITCH_CYCLE` in AppTest on ``tree``'s page: wall and CPU
    of each page run and the thread CPU of each section of :data:`SECTIONS` (milliseconds)."""
    import functools
    import logging
    import os

    sys.path.insert(0, str(tree))  # this checkout's core and ui
    for name in [m for m in sys.modules if m == "ui" or m.startswith(("ui.", "core."))]:
        del sys.modules[name]
    os.environ.setdefault("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false")
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    from streamlit.testing.v1 import AppTest

    from ui import annotators as ann
    from ui import state

    sets, texts = corpus(n_docs)
    report = state.FileReport("bench.json", "bench", "gold", "bench", texts, tuple(sets))
    ws = state.build_workspace([report], key=f"bench:{n_docs}", title="bench", shareable=False)
    spent: dict[str, float] = {}

    def timed(name: str) -> None:
        f = getattr(ann, name)

        @functools.wraps(f)
        def run(*a: Any, **k: Any) -> Any:
            t = time.thread_time()
            try:
                return f(*a, **k)
            finally:
                spent[name] = spent.get(name, 0.0) + time.thread_time() - t

        setattr(ann, name, run)

    for name in SECTIONS:
        if hasattr(ann, name):
            timed(name)
    at = AppTest.from_file(str(tree / "app.py"), default_timeout=600)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page("pages/annotators.py").run()

    def drawn(m: str) -> bool:
        """Whether the matrix shown is measure ``m``'s (not the grey cells drawn meanwhile)."""
        starts = (m + ",", m + " (")
        return any(getattr(c, "key", None) == "ann_matrix"
                   and json.loads(c.proto.spec)["layout"]["title"]["text"].startswith(starts)
                   for c in at.get("plotly_chart")) or any(
                       f"<caption>{html.escape(s)}" in h.proto.body
                       for h in at.html for s in starts)  # a table since the tenth pass

    t0 = time.perf_counter()
    for m in ann.PREFETCHED:  # every measure computed and shown once: the switches are warm
        at.selectbox(key=ann.K_ANN_MEASURE).select(m).run()
        while not drawn(m):
            time.sleep(1.0)
            at.run()
    print(f"  {tree}: every measure computed and shown once in {time.perf_counter() - t0:.1f} s",
          flush=True)
    for _ in range(rounds):
        for m in SWITCH_CYCLE:
            spent.clear()
            t, c = time.perf_counter(), time.process_time()
            at.selectbox(key=ann.K_ANN_MEASURE).select(m).run()
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            assert drawn(m) and not at.exception, m
            parts = " ".join(f"{k} {v * 1000:.0f}" for k, v in spent.items() if v >= 0.0005)
            print(f"  switch to {m:<13} wall {wall * 1000:4.0f} ms, CPU {cpu * 1000:4.0f} ms "
                  f"(sections, CPU ms: {parts})", flush=True)


def apptest(ws: Any, samples: int) -> dict[str, float]:
    """The page's script times in AppTest (no browser), γ computing in the background."""
    from streamlit.testing.v1 import AppTest

    from ui import annotators as ann
    from ui import state

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params[ann.K_ANN_SAMPLES] = str(samples)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    at.switch_page("pages/annotators.py").run()
    times["first run"] = time.perf_counter() - t0
    assert not at.exception, [e.value for e in at.exception]

    def gamma_shown() -> bool:
        return any(x.label == "γ" and x.value != "…" for x in at.metric)

    while not gamma_shown():
        # A whole-page rerun per poll (the app's fragment reruns only the progress bar), so poll
        # once a second: more often slows the γ thread down.
        time.sleep(1.0)
        at.run()
    times["until γ shown"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    at.run()
    times["rerun (cached)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    at.selectbox(key=ann.K_ANN_MEASURE).select("span-f1").run()
    times["measure -> span-f1"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    at.selectbox(key=ann.K_ANN_DOC).select(ws.corpus.doc_ids[5]).run()
    times["another document"] = time.perf_counter() - t0
    for k, v in times.items():
        print(f"  page (AppTest) {k:<22} {v:6.2f} s")
    return times


if __name__ == "__main__":
    main()
