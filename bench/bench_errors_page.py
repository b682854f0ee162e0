"""Errors -> Documents in the browser, and the warm interactions of both pages (issue 29, target 5).

The issue measured "an Errors row -> filtered Documents" at 2-3 s in the browser; the server's
part is 0.08-0.09 s (``bench_pages_server.py --interactions``). This bench times what a user
waits for, in Chromium driven by Playwright, on the generated pair of ``bench_app.py``
(``--docs`` documents, ``--spans`` spans per set, opened with ``spanscope app --data``):

* **Errors first visit**: a fresh server opened on ``/errors`` until the category table and
  chart are drawn and the run is over;
* **Errors -> Documents**: a click on a category's link button (``link``, one per system and
  category, since the fifth pass), until the Documents page shows the list filtered to that
  category (the document table and the "Document (N of M)" selector drawn; ``list_s``) and
  until its run is over with the document drawn (``done_s``). The times are taken in the page
  (``performance.now()`` from the ``click`` event, the mouse button's release; each condition
  checked every animation frame), so Playwright's round trips do not count. Each click is
  followed by a return to Errors through the sidebar (timed too). The categories cycle through
  :data:`CLICKS`: the first click of a server is Documents' first run; a category clicked again
  is warm. The Errors page has had the links alone since the seventeenth pass, its category
  table an HTML table; two older ways are kept to time revisions before it, each skipped
  where the checkout's ``ui/errors.py`` lacks it: a click on a row of the category table (the
  data grid's selection cell, ``row``, until the seventeenth pass) and on its column of
  documents buttons (``button``, sixth to sixteenth pass);
* **back to Errors** through the sidebar: Playwright's wall time from its click until the
  category chart is drawn and the run over (``s``), and the same in the page (``page_s``, from
  the ``click`` event; since the sixth pass);
* **document switch** on Documents (the "Next" button), until the next document is drawn;
* **the Errors page's own warm interactions**: the category charts' view (all spans / errors
  only), then the list of one category's spans (its toggle above 2,000 documents, timed apart:
  it builds the list), a change of its category and its paging.

Every step also records the server's CPU (``/proc/PID/stat``, user + system) and the load
average. ``--tree PATH,PATH`` runs the rounds in several checkouts (a frozen copy of ``main``
and this tree), alternating which goes first; the summary counts the clicks under 300 ms.

    python bench/bench_errors_page.py --docs 10000 --spans 100000 --rounds 3 --hows link \\
        --tree /tmp/base,. --corpus /tmp/corpus10k

Writes ``bench/results/bench_errors_page_<docs>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

CLICKS = ("missed", "spurious", "label", "missed", "spurious", "label")
"""Category rows clicked, in order: three new ones, then the same again (warm)."""
CATEGORY_ORDER = ("correct", "label", "boundary", "boundary+label", "missed", "spurious",
                  "optional")
"""Rows of the category table for one system (``core.analysis.errors.CATEGORIES``)."""
TARGET_S = 0.3
LIST = ".st-key-err_list_page input"
"""The span list's pager: the list is drawn (a table without selection has no key class)."""

WATCH = """() => {
  // Times (ms since the last click event, i.e. the button's release, or Enter) at which the
  // Documents page first shows its filtered list and at which its run is over with the
  // document drawn; and, for any interaction, when the script state turned "running" and
  // then back to "notRunning".
  if (window.__ssWatch) return;
  window.__ssWatch = true;
  window.__ssT0 = null;
  const start = () => { window.__ssT0 = performance.now(); window.__ssSeen = {}; };
  document.addEventListener('click', start, true);
  document.addEventListener('keydown', (e) => { if (e.key === 'Enter') start(); }, true);
  const app = () => document.querySelector('[data-testid="stApp"]');
  const state = () => {
    if (window.__ssT0 === null) return;
    const seen = window.__ssSeen, now = performance.now() - window.__ssT0;
    const running = app()?.getAttribute('data-test-script-state') === 'running';
    if (running && seen.ran === undefined) seen.ran = now;
    if (!running && seen.ran !== undefined && seen.idle === undefined) seen.idle = now;
  };
  new MutationObserver(state).observe(document, {subtree: true, attributes: true,
                                                 attributeFilter: ['data-test-script-state']});
  const tick = () => {
    if (window.__ssT0 !== null) {
      state();
      const seen = window.__ssSeen, now = performance.now() - window.__ssT0;
      const onDocs = location.pathname.endsWith('/documents');
      if (onDocs && seen.documents === undefined) seen.documents = now;
      const picker = [...document.querySelectorAll('[data-testid="stSelectbox"]')]
        .some(b => b.textContent.includes('Document ('));
      const list = onDocs && picker
        && document.querySelector('.st-key-doc_table [data-testid="stDataFrame"]');
      if (list && seen.list === undefined) seen.list = now;
      const idle = app()?.getAttribute('data-test-script-state') === 'notRunning';
      if (list && idle && document.querySelector('#left-doc') && seen.done === undefined)
        seen.done = now;
      // Back on Errors (the sidebar): its first tab drawn (the category chart; since the
      // seventh pass the category table, the chart having its own tab) and the run over.
      if (location.pathname.endsWith('/errors') && idle && seen.errors === undefined
          && document.querySelector('.st-key-err_chart .js-plotly-plot .main-svg, '
                                    + '.st-key-err_categories [data-testid="stDataFrame"], '
                                    + '.st-key-err_table .ss-page-table'))
        seen.errors = now;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def server_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _server(tree: Path, corpus: Path) -> tuple[subprocess.Popen[bytes], str]:
    from bench_app import _free_port, healthy

    port = _free_port()
    cmd = [sys.executable, "-m", "core", "app", "--data", f"gold={corpus / 'gold.json'}",
           "--data", f"pred={corpus / 'system_a.json'}", "--server.headless=true",
           "--server.address=127.0.0.1", f"--server.port={port}",
           "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"]
    proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    return proc, healthy(proc, port, 120)


def _idle(page: Any, timeout: float) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stApp\"]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'", timeout=timeout)


ERRORS_DRAWN = (".st-key-err_chart .js-plotly-plot, "
                ".st-key-err_categories [data-testid='stDataFrame'], "
                ".st-key-err_table .ss-page-table")
"""The Errors page's first tab is drawn: its category chart, or (since the seventh pass, the
chart in its own tab) its category table (an HTML table since the seventeenth pass)."""
CHART_TAB = "📈 Category chart"
"""The Errors page's tab of the category chart (``ui.errors.TABS``; none before the seventh
pass)."""
SPANS_TAB = "📋 Spans of one category"
"""The Errors page's tab of the span list (``ui.errors.TABS``; none before the sixth pass)."""
LINKS = "[class*='st-key-err_open_']"
"""The Errors page's link buttons to Documents, one per system and category."""


def _click(page: Any, how: str, category: str, cpu: Any, timeout: float) -> dict[str, Any]:
    """Click ``category``'s link button (``how`` "link") on the Errors page, or, on a revision
    before the seventeenth pass, its row of the category table's grid ("row") or its documents
    button there ("button"); times from the click, taken in the page."""
    import re

    if how in ("row", "button"):
        grid = page.locator(".st-key-err_table")
        grid.scroll_into_view_if_needed()
        page.wait_for_timeout(300)  # the grid settles after the scroll
        box = grid.bounding_box()
        assert box is not None
        row = CATEGORY_ORDER.index(category)
        c = cpu()
        # The row's selection cell, or its documents button (the first column, left-aligned).
        page.mouse.click(box["x"] + (18 if how == "row" else 70), box["y"] + 35 + 35 * row + 17)
    else:
        link = page.locator(LINKS).filter(has_text=re.compile(f"^{re.escape(category)} \\("))
        link = link.first.locator("button").first
        link.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        c = cpu()
        link.click()
    page.wait_for_function("() => window.__ssSeen && window.__ssSeen.done !== undefined",
                           timeout=timeout)
    seen = page.evaluate("() => window.__ssSeen")
    assert f"ecat={category}" in page.url, page.url
    return {"how": how, "category": category, "documents_s": seen["documents"] / 1000,
            "list_s": seen["list"] / 1000, "done_s": seen["done"] / 1000, "cpu_s": cpu() - c,
            "load": os.getloadavg()[0]}


def _idle_after(page: Any, wait: float = 30_000) -> float | None:
    """Seconds from the last click (or Enter) until the run it started was over, as the page
    saw it; None when no run was seen starting within ``wait`` ms (a run too short for the
    front end to show it running: left out of the counts)."""
    try:
        page.wait_for_function("() => window.__ssSeen && window.__ssSeen.idle !== undefined",
                               timeout=wait)
    except Exception:  # Playwright's TimeoutError
        return None
    return float(page.evaluate("() => window.__ssSeen.idle")) / 1000


def browser_round(tree: Path, corpus: Path, doc_switches: int, pages: int,
                  hows: tuple[str, ...] = ("link",),
                  timeout: float = 120_000) -> dict[str, Any]:
    """One fresh server in ``tree``: the steps of the module docstring (seconds)."""
    from bench_app import _nav, _settled, chromium, peak_rss_mib
    from playwright.sync_api import sync_playwright

    proc, url = _server(tree, corpus)
    # The category table's column of documents buttons (sixth to sixteenth pass): drawn on the
    # grid's canvas, so the checkout's source says whether it is there.
    source = (tree / "ui" / "errors.py").read_text(encoding="utf-8")
    has_buttons = "ButtonColumn" in source
    # A data grid with row selection until the seventeenth pass; an HTML table since, whose
    # rows are opened by the links alone.
    has_grid = "selection_mode=\"single-row\"" in source
    out: dict[str, Any] = {"tree": str(tree), "load_before": os.getloadavg()[0],
                           "clicks": [], "back_to_errors_s": [], "doc_switch": [],
                           "errors_warm": []}

    def cpu() -> float:
        return server_cpu_s(proc.pid)

    try:
        with sync_playwright() as p:
            browser = chromium(p)
            page = browser.new_page(viewport={"width": 1500, "height": 1600})
            page.add_init_script(f"({WATCH})()")
            t, c = time.perf_counter(), cpu()
            page.goto(f"{url}/errors")
            _settled(page, ERRORS_DRAWN, timeout)
            out["errors_first_visit"] = {"s": time.perf_counter() - t, "cpu_s": cpu() - c}
            for how in hows:
                if how == "link" and not page.locator(LINKS).count():
                    break  # a revision without the links
                if how == "button" and not has_buttons:
                    continue  # a revision without the table's documents buttons
                if how == "row" and not has_grid:
                    continue  # a revision whose table has no row selection
                for k, category in enumerate(CLICKS):
                    click = _click(page, how, category, cpu, timeout)
                    click["repeat"] = category in CLICKS[:k]
                    out["clicks"].append(click)
                    print(f"  {how} {category}{' (again)' if click['repeat'] else ''}: list "
                          f"{click['list_s']:.3f} s, done {click['done_s']:.3f} s, server CPU "
                          f"{click['cpu_s']:.3f} s", file=sys.stderr, flush=True)
                    c = cpu()
                    s = _nav(page, "Errors", ERRORS_DRAWN, timeout)
                    page.wait_for_function(
                        "() => window.__ssSeen && window.__ssSeen.errors !== undefined",
                        timeout=timeout)
                    in_page = float(page.evaluate("() => window.__ssSeen.errors")) / 1000
                    out["back_to_errors_s"].append({"s": s, "page_s": in_page,
                                                    "cpu_s": cpu() - c})
            page.get_by_test_id("stSidebar").get_by_text("Documents", exact=True).click()
            _settled(page, "#left-doc", timeout)
            # Document switches on the filtered Documents page ("Next", key N).
            for _ in range(doc_switches):
                before = page.url
                c = cpu()
                page.get_by_role("button", name="Next ▶").click()
                page.wait_for_function("(u) => location.href !== u", arg=before,
                                       timeout=timeout)
                idle = _idle_after(page)
                _settled(page, "#left-doc", timeout)
                out["doc_switch"].append({"s": idle, "cpu_s": cpu() - c})
                print(f"  Next: {idle} s", file=sys.stderr, flush=True)
            _nav(page, "Errors", ERRORS_DRAWN, timeout)

            def timed(name: str, action: Any, selector: str) -> None:
                """``action`` (a click, or Enter) until the run it starts is over and
                ``selector`` is drawn, timed in the page."""
                c = cpu()
                action()
                idle = _idle_after(page)
                _settled(page, selector, timeout)
                out["errors_warm"].append({"step": name, "s": idle, "cpu_s": cpu() - c})
                print(f"  {name}: {out['errors_warm'][-1]['s']} s", file=sys.stderr,
                      flush=True)

            chart_tab = page.get_by_role("tab", name=CHART_TAB)
            if chart_tab.count():  # since the seventh pass the chart has its own (lazy) tab
                timed("tab: the category chart", chart_tab.click,
                      ".st-key-err_chart .js-plotly-plot")
            views = page.locator(".st-key-eview")
            for view in ("errors only", "all spans"):
                timed(f"view: {view}", lambda v=view: views.get_by_text(v, exact=True).click(),
                      ".st-key-err_chart .js-plotly-plot")
            tab = page.get_by_role("tab", name=SPANS_TAB)
            if tab.count():  # since the sixth pass the span list has its own (lazy) tab
                timed("tab: the spans of one category", tab.click, ".st-key-err_list_category")
            toggle = page.locator(".st-key-err_list_on")
            if toggle.count():
                timed("list toggle on (builds the list)", lambda: toggle.locator("label").click(),
                      LIST)
            box = page.get_by_test_id("stSelectbox").filter(has_text="Category").first
            for category in ("spurious", "label", "missed"):
                def choose(cat: str = category) -> None:
                    box.click()
                    page.get_by_role("option").get_by_text(cat, exact=True).first.click()
                timed(f"list category: {category}", choose,
                      LIST)
            pager = page.locator(".st-key-err_list_page input")
            for number in range(2, 2 + pages):
                def turn(n: int = number) -> None:
                    pager.fill(str(n))
                    pager.press("Enter")
                timed(f"list page {number}", turn,
                      LIST)
            out["server_peak_rss_mib"] = peak_rss_mib(proc.pid)
            page.screenshot(path=str(ROOT / "bench" / "results" / "bench_errors_page_end.png"))
            browser.close()
    finally:
        out["load_after"] = os.getloadavg()[0]
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    return out


def _summary(label: str, seen: list[float | None]) -> str:
    values = [v for v in seen if v is not None]
    if not values:
        return f"{label}: -"
    under = sum(v < TARGET_S for v in values)
    return (f"{label}: median {statistics.median(values):.3f} s, max {max(values):.3f} s, "
            f"{under} of {len(values)} < {TARGET_S * 1000:.0f} ms")


def main() -> None:
    from bench_app import make_corpus

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--spans", type=int, default=100_000, help="spans per set")
    ap.add_argument("--rounds", type=int, default=2, help="fresh servers per checkout")
    ap.add_argument("--doc-switches", type=int, default=4)
    ap.add_argument("--pages", type=int, default=3, help="page turns of the span list")
    ap.add_argument("--tree", default=str(ROOT), help="checkouts, comma-separated")
    ap.add_argument("--hows", default="link",
                    help="which clicks open Documents, in this order (comma-separated): "
                    "'link' (the category's link button, the Errors page's only way since the "
                    "seventeenth pass), 'row' (the category table's row selection, until the "
                    "seventeenth pass) or 'button' (its documents buttons, sixth to sixteenth "
                    "pass); a way the checkout lacks is skipped. The first way's first click "
                    "is the fresh server's first")
    ap.add_argument("--corpus", type=Path, default=None,
                    help="folder whose bench/ holds the generated pair, kept between runs")
    args = ap.parse_args()
    trees = [Path(t).resolve() for t in args.tree.split(",")]
    (ROOT / "bench" / "results").mkdir(parents=True, exist_ok=True)
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = (args.corpus or Path(tmp)) / "bench"
        if not ((data / "gold.json").exists() and (data / "system_a.json").exists()):
            make_corpus(data, args.docs, args.spans)
        for r in range(args.rounds):
            for tree in trees if r % 2 == 0 else trees[::-1]:
                print(f"{tree}: round {r + 1}, load {os.getloadavg()[0]:.1f}", file=sys.stderr,
                      flush=True)
                try:
                    results.append(browser_round(tree, data, args.doc_switches, args.pages,
                                                 tuple(args.hows.split(","))))
                except Exception as exc:  # one round's failure does not lose the others
                    print(f"{tree}: round {r + 1} failed: {exc!r}"[:400], file=sys.stderr,
                          flush=True)
    for tree in trees:
        mine = [r for r in results if r["tree"] == str(tree)]
        loads = [x for r in mine for x in (r["load_before"], r["load_after"])]
        print(f"{tree} ({len(mine)} rounds, load {min(loads):.1f}-{max(loads):.1f}):")
        print("  " + _summary("Errors first visit", [r["errors_first_visit"]["s"]
                                                     for r in mine]))
        for how in ("row", "button", "link"):
            clicks = [c for r in mine for c in r["clicks"] if c.get("how", "row") == how]
            if not clicks:
                continue
            first = [c for r in mine for c in r["clicks"][:1] if c.get("how", "row") == how]
            new = [c for c in clicks if not c["repeat"] and c not in first]
            again = [c for c in clicks if c["repeat"]]
            for name, group in ((f"{how} -> list, first (Documents' first run)", first),
                                (f"{how} -> list, a new category", new),
                                (f"{how} -> list, a category again", again),
                                (f"{how} -> list, all", clicks)):
                if not group:
                    continue
                print("  " + _summary(name, [c["list_s"] for c in group]))
                print("    " + _summary("... run over", [c["done_s"] for c in group])
                      + "; server CPU median "
                      f"{statistics.median([c['cpu_s'] for c in group]):.3f} s")
        back = [b for r in mine for b in r["back_to_errors_s"]]
        print("  " + _summary("back to Errors (sidebar), from Playwright's click", [b["s"]
                                                                             for b in back]))
        print("    " + _summary("... in the page", [b.get("page_s") for b in back])
              + (f"; server CPU median {statistics.median([b['cpu_s'] for b in back]):.3f} s"
                 if back else ""))
        print("  " + _summary("Documents: Next", [d["s"] for r in mine for d in r["doc_switch"]]))
        steps = sorted({w["step"] for r in mine for w in r["errors_warm"]})
        for step in steps:
            print("  " + _summary(f"Errors {step}", [w["s"] for r in mine
                                                     for w in r["errors_warm"]
                                                     if w["step"] == step]))
    (ROOT / "bench" / "results" / f"bench_errors_page_{args.docs}.json").write_text(
        json.dumps({"docs": args.docs, "spans": args.spans, "rounds": results}, indent=1),
        encoding="utf-8")


if __name__ == "__main__":
    main()
