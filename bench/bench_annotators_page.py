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
"""

from __future__ import annotations

import argparse
import json
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
from core.metrics.agreement import measures as _measures  # noqa: E402
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
    args = ap.parse_args()

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

    _measures._GAMMA_CACHE.clear()
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


def apptest(ws: Any, samples: int) -> dict[str, float]:
    """The page's script times in AppTest (no browser), γ computing in the background."""
    from streamlit.testing.v1 import AppTest

    from core.metrics.agreement import measures as m
    from ui import annotators as ann
    from ui import state

    m._GAMMA_CACHE.clear()
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
