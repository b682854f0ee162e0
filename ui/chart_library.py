"""The charts' and the data grid's libraries loaded by the browser ahead of their first use.

Streamlit's front end loads plotly.js (its ``PlotlyChart`` chunk, 4.7 MB of JavaScript) when a
page first draws a Plotly chart, not before: the browser then parses, compiles and runs it
before it draws the chart. On the Metric differences page opened right after the first load at
100,000 documents that was 0.6-1.4 s of the browser's main thread between the waterfall's
arrival and its drawing, the largest part of what the page waited for once the server had its
steps (docs/performance.md, issue 29, fourteenth pass). The first page a session opens (the
Documents page, with ``--data``) draws no chart.

:data:`SCRIPT` imports that chunk in the background, once per browser tab, after the page's
first run has ended and when the browser's main thread is idle (``requestIdleCallback``): the
module Streamlit's lazy loader asks for later is the same URL, so it is then evaluated already,
and the first chart costs the chart's own drawing alone. It is the chunk Streamlit itself would
load (the file of this Streamlit's static folder, resolved beside the front end's ``index``
script as Streamlit's loader resolves it); nothing is drawn and nothing is sent to the server.
A Streamlit without the chunk, or a page without Streamlit's ``index`` script, preloads nothing.
The script rides in the sidebar's one element of our own (:data:`ui.sidebar.SCRIPT`).

The data grid (``st.dataframe``'s ``DataFrame`` chunk) is preloaded the same way (after
plotly.js until the nineteenth pass, before it since, below): since the Errors page's category
table is an HTML table (issue 29, seventeenth pass), a session opened on Errors drew no grid
before its first Errors → Documents click, and the Documents page's list then paid for the
grid's script (0.3-0.4 s more for that click, docs/performance.md).

Since the waterfall of Metric differences and the Labels heatmap are Vega-Lite charts, the first
of those pays for Vega's chunks the same way (``embed``, 0.8 MB, and the expression interpreter,
which Streamlit's ``loadVegaEmbed`` imports, and the ``ArrowVegaLiteChart`` element): they are
imported after plotly.js, one after the other, each when the main thread is idle.

The Documents page's elements that the Errors page does not draw (a radio, a text input, a
toggle, a cache's spinner, the highlights' component, :data:`ELEMENTS`) are chunks of their own
too, which React asked for one by one as the first Errors → Documents click's messages arrived,
each a fetch before the element and the ones after it were drawn; and the grid's style sheet
(:data:`STYLES`) was fetched only once the list's grid was asked for, the grid waiting for it
(docs/performance.md, issue 29, eighteenth pass). They are small (some 40 KB in all): imported
with plotly.js, in the same idle moment (fetched side by side, not one idle moment later each),
and the style sheet linked there, under the URL Vite's loader looks for, so that the first grid
finds it.

Since the nineteenth pass the grid's chunk is among those (:data:`FIRST`), and they are imported
**before** plotly.js, which follows at once: the first Errors -> Documents click of a tab opened
on Errors met the grid's module evaluated in its own run (0.25-1.6 s of the main thread in the
traces, the preload's second step not reached, or Streamlit's loader asking for it when the list
arrived), where the Documents page's first screen needs the grid and no chart. A tab opened on
Documents has drawn all of :data:`FIRST` already (those imports resolve at once), so plotly.js
starts as early as before. And no step begins while a page run is under way (a person's click or
key, or a page switch): its evaluation, one long task, would land in the run's drawing.

Since the twentieth pass the order follows the page the tab is on when each step begins
(:data:`SCREEN_FIRST`): on Errors the first screen, then plotly.js, each in a quiet moment, as
above; on any other page plotly.js first, evaluated as soon as it is fetched when it is the
first step (as before the nineteenth pass; a later step waits for a quiet moment on any page),
then the first screen. A tab opened on Documents (the first page with
``--data``) evaluated plotly.js only in a quiet moment after the nineteenth pass, and Scores
opened right after the first load at 100,000 documents more often waited for that evaluation
itself (its first visit 1.46-2.61 s against 1.22-1.66 s, docs/performance.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import streamlit

IDLE_WAIT_MS = 3000
"""At most this long after the first run's end before the chunks' files are fetched even if the
main thread has had no idle moment (``requestIdleCallback``'s ``timeout``); their evaluation
waits for an idle moment with no page run under way, with no such bound."""


CHUNKS = ("PlotlyChart", "embed", "vega-interpreter", "ArrowVegaLiteChart")
"""The chunks preloaded after :data:`FIRST`, in this order: plotly.js (most pages' charts, at
once after :data:`FIRST`), then Vega-Lite's, each when the main thread is idle. The grid was
second here until the nineteenth pass; it is in :data:`FIRST` now, imported with no idle
moment between it and plotly.js (an idle moment between them put plotly.js's import later, and
Scores opened right after the first load at 100,000 documents waited for it: its first visit
2.0-2.7 s against 1.5-1.7 s, docs/performance.md, issue 29, seventeenth pass)."""


ELEMENTS = ("Radio", "TextInput", "Checkbox", "Spinner", "BidiComponent")
"""Chunks of elements the Documents page draws and the Errors page does not (the metric's
radio, the search, the filter's toggle, the spinner of a cache computing, the highlights'
component, :mod:`ui.doc_switch`)."""
FIRST = ("DataFrame", *ELEMENTS)
"""What the Documents page's first screen needs and a page without a grid has not loaded: the
data grid (0.5 MB: Documents' list, also Scores' systems and the grids of Metric differences,
Annotators and Curation) and :data:`ELEMENTS`; imported side by side in the preload's first
step, before plotly.js (the Documents page draws no chart)."""
SCREEN_FIRST = ("errors",)
"""The pages (the last part of their address, ``app.PAGES``) on which the preload's next step
is :data:`FIRST` (the Documents page's first screen), evaluated in a quiet moment, and plotly.js
after it, also in a quiet moment: the Errors page, whose category links open that screen with no
chart (issue 29, nineteenth pass). On any other page plotly.js comes first and is evaluated as
soon as it is fetched when it is the preload's first step, whether a page run is under way or
not (later it waits for a quiet moment, on any page): Overview, Data, Curation and
Learn draw no chart on their first screen and have chart pages one click away, and a tab opened
on Documents has drawn :data:`FIRST` itself (issue 29, twentieth pass: Scores' first visit
after the first load waited for plotly.js's evaluation when it waited for a quiet moment)."""
STYLES = ("DataFrame",)
"""Style sheets of :data:`CHUNKS` that Vite's loader fetches before it imports the chunk, and
that the chunk's first element waits for (the grid's), linked with the first of
:data:`CHUNKS`."""


def chunk_name(static: Path | None = None, stem: str = "PlotlyChart", ext: str = "js"
               ) -> str | None:
    """The file name of Streamlit's chunk ``stem`` (``PlotlyChart``, ``embed``...) in its static
    folder (``static``, else the installed Streamlit's ``static/js``; ``ext`` "css": its
    ``static/css``), or None when there is not exactly one."""
    folder = static or Path(streamlit.__file__).parent / "static" / "static" / ext
    found = sorted(p.name for p in folder.glob(f"{stem}.*.{ext}"))
    return found[0] if len(found) == 1 else None


def chunk_names(static: Path | None = None, stems: tuple[str, ...] = CHUNKS,
                ext: str = "js") -> list[str]:
    """The chunks of ``stems`` (:data:`CHUNKS`) this Streamlit has (each found exactly once),
    in order."""
    return [name for stem in stems if (name := chunk_name(static, stem, ext)) is not None]


def script(chunks: str | list[str] | None, together: list[str] | None = None,
           styles: list[str] | None = None) -> str:
    """The ``<script>`` that imports ``chunks`` (one name or several, in order, each when the
    main thread is idle and no page run is under way) once per tab, after the first run;
    ``together``: chunks imported side by side before the first, which follows them at once;
    ``styles``: style sheets (names in Streamlit's ``static/css``) linked then. Empty when there
    is no chunk."""
    if isinstance(chunks, str):
        chunks = [chunks]
    if not chunks:
        return ""
    return """
<script>
(() => {
  // This document's window: Streamlit's own modules are loaded here (st.html runs the script
  // in the page, no frame), also when the app is embedded in another page.
  const w = window;
  if (w.__spanscopeCharts) return;
  w.__spanscopeCharts = "waiting";
  const index = w.document.querySelector('script[type="module"][src*="/static/js/index."]');
  if (!index) { w.__spanscopeCharts = "no index"; return; }
  const urls = CHUNKS.map((c) => new URL(c, index.src).href);
  const together = TOGETHER.map((c) => new URL(c, index.src).href);
  // Vite's loader skips a style sheet that a link element of the same URL already loads.
  const styles = STYLES.map((c) => new URL("../css/" + c, index.src).href);
  const idle = w.requestIdleCallback
    ? (f) => w.requestIdleCallback(f, {timeout: IDLE_WAIT_MS})
    : (f) => w.setTimeout(f, 200);
  const app = () => w.document.querySelector('[data-testid="stApp"]');
  const running = () => app()?.getAttribute("data-test-script-state") === "running";
  // f once the page is quiet: no run under way and an idle period of the main thread (no
  // timeout: one under load began an evaluation in the middle of a click's drawing).
  const quiet = (f) => {
    if (!w.requestIdleCallback) { w.setTimeout(() => (running() ? quiet(f) : f()), 200); return; }
    w.requestIdleCallback(() => (running() ? w.setTimeout(() => quiet(f), 100) : f()));
  };
  // The modules fetched (and compiled) ahead, not evaluated: a module preload link each.
  const fetched = (hrefs) => Promise.all(hrefs.map((href) => new Promise((ok) => {
    const link = w.document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    link.onload = ok;
    link.onerror = ok;  // the import below then fetches it, or fails
    w.document.head.appendChild(link);
  })));
  // The steps: the Documents page's first screen (its modules side by side), then each chunk
  // alone, plotly.js the first of them. Which comes next follows the page the tab is on
  // (its address's last part) when the step begins: on Errors (whose links open Documents'
  // first screen; the pages named below) the first screen, else plotly.js (the next page a person
  // opens from a page without a chart may draw one, and a tab opened on Documents has drawn
  // the first screen already), then the rest in order.
  const page = () => w.location.pathname.split("/").filter(Boolean).pop() || "home";
  const screenFirst = () => SCREEN_FIRST_PAGES.includes(page());
  const steps = [];
  if (together.length) steps.push({name: "first screen", urls: together});
  for (const u of urls) steps.push({name: u.split("/").pop().split(".")[0], urls: [u]});
  const chart = steps.find((s) => s.name === "PlotlyChart");
  const screen = steps.find((s) => s.name === "first screen");
  // The steps' names as each began and as each was evaluated, for the tests and the traces.
  w.__spanscopeOrder = [];
  w.__spanscopeDone = [];
  const next = () => {
    const want = screenFirst() ? screen : chart;
    const k = want ? steps.indexOf(want) : -1;
    return steps.splice(k >= 0 ? k : 0, 1)[0];
  };
  // Each step's files fetched first (module preload links), the first two steps' side by side
  // from the start; then evaluated in a quiet moment: a fetch under way when a click came no
  // longer evaluates its module in the middle of that click's page. But plotly.js as the
  // first step (a tab opened on a page where it comes first) is evaluated once fetched, quiet
  // or not (a run then under way is most likely the next page's, which may draw a chart:
  // Scores' first visit waited for it). Later, it waits for a quiet moment wherever the tab
  // is: after the first screen on Errors, the page is often the Documents page a link just
  // opened, and plotly.js evaluated then landed in that click's drawing (traced, twentieth pass).
  const ahead = new Map();
  const fetchStep = (s) => {
    if (!ahead.has(s)) ahead.set(s, fetched(s.urls));
    return ahead.get(s);
  };
  const calm = () => new Promise((ok) => quiet(ok));
  const load = (i = 0) => {
    if (!steps.length) { w.__spanscopeCharts = "loaded"; return; }
    w.__spanscopeCharts = "loading";
    if (i === 0) {
      for (const href of styles) {
        const link = w.document.createElement("link");
        link.rel = "stylesheet";
        link.href = href;
        w.document.head.appendChild(link);
      }
      for (const s of [screen, chart]) if (s) fetchStep(s);
    }
    const step = next();
    w.__spanscopeOrder.push(step.name);
    const now = step === chart && i === 0;
    fetchStep(step)
      .then(() => (now ? null : calm()))
      .then(() => Promise.all(step.urls.map((u) => import(u))))
      .then(() => {
        w.__spanscopeDone.push(step.name);
        load(i + 1);
      }, () => { w.__spanscopeCharts = "failed"; });
  };
  // After the page's first run (its drawing is what the user waits for then), when idle.
  // A Streamlit that no longer marks its runs' state preloads nothing: give up after a minute.
  let tries = 300;
  const wait = () => {
    if (app()?.getAttribute("data-test-script-state") === "notRunning") idle(() => load());
    else if (--tries > 0) w.setTimeout(wait, 200);
    else w.__spanscopeCharts = "no state";
  };
  w.setTimeout(wait, 200);
})();
</script>
""".replace("CHUNKS", json.dumps(chunks)).replace("TOGETHER", json.dumps(together or [])).replace(
        "STYLES", json.dumps(styles or [])).replace("IDLE_WAIT_MS", str(IDLE_WAIT_MS)).replace(
        "SCREEN_FIRST_PAGES", json.dumps(list(SCREEN_FIRST))).strip()


SCRIPT = script(chunk_names(), chunk_names(stems=FIRST), chunk_names(stems=STYLES, ext="css"))
"""The preload of the installed Streamlit's chunks (empty if it has none)."""
