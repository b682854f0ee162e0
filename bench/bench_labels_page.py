"""The Labels page on a large corpus, in two revisions side by side: the server's CPU and wall
time of its first visit, a warm rerun, opening a cell and the steps after (issue 29, target 3:
every first visit < 3 s, every warm interaction < 300 ms at 100,000 documents).

Each measurement is one process (a child running the checkout's ``app.py`` in
``streamlit.testing.v1.AppTest``, the script without a browser, on ``bench_app.py``'s corpus
opened as ``spanscope app --data`` opens it), once in a ``git worktree`` of ``--base`` and once
in ``--tree`` per round, the order alternating between rounds (``bench/compare.py``'s rules).
The child times, with ``time.perf_counter`` and ``time.process_time`` (every thread of the
process: AppTest runs the script in a thread of its own):

* ``open``: the Overview page, which reads the files (not the Labels page's cost; for scale);
* ``first``: the first visit of the Labels page (the confusion matrix, as the URL opens it);
  ``drawn``: until the heatmap is there (the same run in this tree; in a revision that waits for
  a toggle above a size, plus the run that turns it on);
* ``warm``: the same page again (nothing new asked);
* ``cell``: a click on the diagonal cell of the most frequent label (its span pairs listed),
  ``missed``: a click on that label's *missed* cell, ``page2``: the second page of its pairs;
* ``view``: the switch to co-occurrence within the reference, ``scope``: to its ``overlap``
  scope, then ``view_cell``: a click on one of its cells.

Run: ``python bench/bench_labels_page.py [--base main] [--docs 10000] [--spans N]
[--repeat 3]``; prints medians per side and the ratio tree / base; writes
``bench/results/bench_labels_page_<docs>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

STEPS = ("open", "first", "drawn", "warm", "cell", "missed", "page2", "view", "scope",
         "view_cell")

_CHILD = r"""
import json, os, sys, time
sys.path.insert(0, os.getcwd())
import streamlit.logger
streamlit.logger.set_log_level("error")
from streamlit.testing.v1 import AppTest
from ui import labels as lab

out = {}
def timed(name, action):
    t, c = time.perf_counter(), time.process_time()
    action()
    out[name] = [round(time.perf_counter() - t, 3), round(time.process_time() - c, 3)]
    if at.exception:
        raise SystemExit(f"{name}: {at.exception[0].value}")

def click(row, column):
    at.session_state[lab.K_LAB_CHART] = {"selection": {lab.CELL_PARAM: [
        {"row": row, "column": column}]}}
    at.run()

at = AppTest.from_file("app.py", default_timeout=3600)
timed("open", at.run)
timed("first", lambda: at.switch_page("pages/labels.py").run())
def draw():
    if not at.get("vega_lite_chart"):
        at.toggle(key="lab_on").set_value(True).run()
t, c = time.perf_counter(), time.process_time()
draw()
out["drawn"] = [round(out["first"][0] + time.perf_counter() - t, 3),
                round(out["first"][1] + time.process_time() - c, 3)]
assert at.get("vega_lite_chart"), "no heatmap"
timed("warm", at.run)
label = sys.argv[1]
timed("cell", lambda: click(label, label))
assert any("span pair(s) listed" in m.value for m in at.markdown), "no pairs listed"
timed("missed", lambda: click(label, "missed"))
timed("page2", lambda: at.number_input(key="lab_pairs_page").set_value(2).run())
timed("view", lambda: at.radio(key=lab.K_LAB_VIEW).set_value("within reference").run())
timed("scope", lambda: at.radio(key=lab.K_LAB_SCOPE).set_value("overlap").run())
timed("view_cell", lambda: click(label, sys.argv[2]))
import resource
out["maxrss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
print(json.dumps(out))
"""
"""The child: one visit of the Labels page and its interactions, timed (``argv``: the label
whose cells are opened, and the label it is paired with in the co-occurrence view)."""


def child(checkout: Path, folder: Path) -> dict[str, Any]:
    from bench_read import CHILD_ENV

    env = dict(CHILD_ENV)
    env["SPANSCOPE_DATA"] = json.dumps([
        {"role": "gold", "path": str(folder / "gold.json")},
        {"role": "system", "path": str(folder / "system_a.json")}])
    proc = subprocess.run([sys.executable, "-c", _CHILD, "Loaded Language", "Doubt"],
                          cwd=checkout, capture_output=True, env=env)
    lines = proc.stdout.decode().strip().splitlines()
    if proc.returncode or not lines:
        raise SystemExit(f"{checkout}: {proc.stderr.decode()[-2000:]}")
    return dict(json.loads(lines[-1]))


def main() -> None:
    from bench_app import make_corpus
    from compare import base_tree

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="the revision to compare against")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the changed checkout")
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--spans", type=int, default=None, help="spans per set (10 per document)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (medians of this many)")
    args = ap.parse_args()
    spans = args.spans or 10 * args.docs
    folder = Path(tempfile.gettempdir()) / f"spanscope-labels-{args.docs}-{spans}"
    if not (folder / "system_a.json").exists():
        make_corpus(folder, args.docs, spans)
    tree = args.tree.resolve()
    sides = {"base": base_tree(args.base, tree), "tree": tree}
    load = os.getloadavg()
    print(f"{args.docs:,} documents, {spans:,} spans per set; base {args.base} "
          f"({sides['base'].name}), tree {tree}; {args.repeat} interleaved rounds; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "tree": []}
    for r in range(args.repeat):
        for side in ("base", "tree") if r % 2 == 0 else ("tree", "base"):
            runs[side].append(child(sides[side], folder))
            print(side, json.dumps(runs[side][-1]), flush=True)
    result: dict[str, Any] = {"documents": args.docs, "spans_per_set": spans,
                              "load_before": load, "load_after": os.getloadavg(),
                              "base": args.base, "runs": runs, "median": {}}
    print(f"{'step':<10} {'base CPU':>9} {'tree CPU':>9} {'ratio':>6}  {'base wall':>9} "
          f"{'tree wall':>9}")
    for step in STEPS:
        med = {side: [statistics.median(run[step][k] for run in runs[side]) for k in (0, 1)]
               for side in runs}
        result["median"][step] = med
        ratio = med["tree"][1] / med["base"][1] if med["base"][1] else float("nan")
        print(f"{step:<10} {med['base'][1]:>9.3f} {med['tree'][1]:>9.3f} {ratio:>6.2f}  "
              f"{med['base'][0]:>9.3f} {med['tree'][0]:>9.3f}", flush=True)
    rss = {side: statistics.median(run["maxrss_mib"] for run in runs[side]) for side in runs}
    result["maxrss_mib"] = rss
    print(f"peak RSS MiB: base {rss['base']:.0f}, tree {rss['tree']:.0f}; load average after "
          f"{result['load_after'][0]:.2f}")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"bench_labels_page_{args.docs}.json").write_text(json.dumps(result, indent=1),
                                                              encoding="utf-8")


if __name__ == "__main__":
    main()
