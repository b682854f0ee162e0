"""Benchmark of the agreement measures: 3 annotators over 200 texts with about five spans each.

Synthetic corpus (``docs/agreement.md``, Measured): documents of 600–1,500 characters,
Poisson(5) gold spans of 20–200 characters, 10 labels; each annotator keeps a gold span with
p = 0.85, jitters both ends by N(0, 5), flips the label with p = 0.2, adds a second label with
p = 0.1 and one spurious span with p = 0.3.

    python bench/bench_agreement.py [--docs 200] [--samples 30] [--repeat 3]

Prints the time of each measure (best of ``--repeat``), their total without corpus gamma, corpus
gamma with its sample count, one document's alignment, and the values.

``--views`` instead times what the dashboard's background worker does for the Annotators page
(issue 29, targets 3 and 5): for each measure of ``--measures``, the CPU of
``measure_view`` of three annotators with the gold (the corpus of
``bench_annotators_page.py``: this synthetic design with four sets, the first the gold), then
the CPU of pickling what the worker sends back and of unpickling it in the server
(``ui.gamma_worker.for_the_page`` where the checkout has it, else the whole view). With
``--tree PATH,PATH`` each checkout runs in its own process importing its own ``core`` and
``ui``, ``--repeat`` rounds interleaved; the corpus is built once and handed over pickled.
The measures run one after the other in one process, as the worker runs them, with what the
worker keeps between them (``core.metrics.agreement.panel.Shared``) and the page's lean view
(``measure_view(..., lean=True)``, which the page's jobs ask for) where the checkout has
them. ``--in-page``: as the page computes a switch itself while the worker is busy
(``ui.annotators.run_here_if_busy``): the full view with nothing kept where the checkout has no
lean view, else the lean view with the page's study kept (``ui.annotators.page_shared``).
``--corpus DIR`` takes the pair of ``bench_app.py --corpus DIR`` instead (the page's
default view of a pair: both sets, the gold first). The load average is printed with every run.

    python bench/bench_agreement.py --views --docs 100000 --measures char-kappa --tree /tmp/base,.
    python bench/bench_agreement.py --views --corpus /tmp/lead100k --tree /tmp/base,.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.metrics.agreement import (
    Study,
    char_agreement,
    fleiss_text,
    gamma,
    gamma_alignment,
    krippendorff_text,
    text_kappa,
    unitizing,
)
from core.model import AnnotationSet, Span


def synthetic(n_docs: int, n_annotators: int = 3, seed: int = 1
              ) -> tuple[list[AnnotationSet], dict[str, str]]:
    rng = np.random.default_rng(seed)
    labels = [f"L{i}" for i in range(10)]
    texts: dict[str, str] = {}
    gold: dict[str, list[tuple[int, int, str]]] = {}
    for d in range(n_docs):
        length = int(rng.integers(600, 1501))
        doc = f"doc{d:04d}"
        texts[doc] = "x" * length
        spans = []
        for _ in range(rng.poisson(5)):
            ln = int(rng.integers(20, 201))
            s = int(rng.integers(0, max(1, length - ln)))
            spans.append((s, min(length, s + ln), str(rng.choice(labels))))
        gold[doc] = spans
    sets = []
    for a in range(n_annotators):
        per: dict[str, tuple[Span, ...]] = {}
        for doc, spans in gold.items():
            length = len(texts[doc])
            out: set[Span] = set()
            for s, e, lab in spans:
                if rng.random() > 0.85:
                    continue
                s2 = int(np.clip(s + round(rng.normal(0, 5)), 0, length - 1))
                e2 = int(np.clip(e + round(rng.normal(0, 5)), s2 + 1, length))
                lab2 = str(rng.choice(labels)) if rng.random() < 0.2 else lab
                out.add(Span(s2, e2, lab2))
                if rng.random() < 0.1:
                    out.add(Span(s2, e2, str(rng.choice(labels))))
            if rng.random() < 0.3:
                ln = int(rng.integers(20, 201))
                s = int(rng.integers(0, max(1, length - ln)))
                out.add(Span(s, min(length, s + ln), str(rng.choice(labels))))
            per[doc] = tuple(sorted(out))
        sets.append(AnnotationSet(f"ann{a + 1}", per, role="annotator"))
    return sets, texts


def best_of(fn, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


VIEW_CHILD = """
import pickle, sys, time
from core.metrics.agreement import measure_view
try:
    from ui.gamma_worker import for_the_page
except ImportError:  # a checkout before it: the worker sent the whole view
    def for_the_page(view):
        return view
import inspect
with open(sys.argv[1], "rb") as f:
    sets, texts = pickle.load(f)
gold = sets[0]
# the page's default view: the annotators against the gold; a pair (--corpus): both sets
annotators = sets if len(sets) == 2 else sets[1:]
lean = "lean" in inspect.signature(measure_view).parameters
try:  # what the worker keeps between views (panel.Shared), where the checkout has it
    from core.metrics.agreement.panel import Shared
    kept = {"shared": Shared()}
except ImportError:
    kept = {}
if sys.argv[3] == "page":  # a switch the page computes itself (ui.annotators.run_here_if_busy)
    from core.metrics.agreement import Study
    if lean:  # the lean view, with the page's study kept (ui.annotators.page_shared)
        study = Study.from_sets(annotators, texts)
        kept["shared"].get(("study", *annotators, texts, None), lambda: study)
    else:  # the full view, nothing kept
        kept = {}
if lean:  # the page's view, as the page's jobs ask for it
    kept["lean"] = True
for measure in sys.argv[2].split(","):
    t = time.process_time()
    view = measure_view(annotators, texts, measure=measure, gold=gold, **kept)
    cpu = time.process_time() - t
    t = time.process_time()
    blob = pickle.dumps(for_the_page(view), protocol=pickle.HIGHEST_PROTOCOL)
    dump = time.process_time() - t
    t = time.process_time()
    pickle.loads(blob)
    load = time.process_time() - t
    print(f"{measure}\t{cpu:.2f}\t{dump:.2f}\t{load:.2f}\t{len(blob) / 1e6:.1f}", flush=True)
"""


def views(docs: int, measures: str, trees: list[str], repeat: int,
          pair: Path | None = None, in_page: bool = False) -> None:
    """``--views``: each checkout's worker-side CPU per measure, interleaved; ``pair``: the
    folder of ``bench_app.py --corpus`` (``bench/gold.json``, ``bench/system_a.json``)."""
    if pair is not None:
        from core.formats import ReadOptions, load_path

        gold = load_path(pair / "bench" / "gold.json", options=ReadOptions(role="gold"))
        pred = load_path(pair / "bench" / "system_a.json", options=ReadOptions(role="system"))
        sets, texts = [gold.sets[0], pred.sets[0]], dict(gold.texts)
        docs = len(texts)
    else:
        from bench_annotators_page import corpus

        sets, texts = corpus(docs)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.pkl")
        with open(path, "wb") as f:
            pickle.dump((sets, texts), f, protocol=pickle.HIGHEST_PROTOCOL)
        del sets, texts
        print(f"{docs:,} documents; measure_view CPU, then pickling what the worker sends: "
              "dump CPU, load CPU, MB")
        for r in range(repeat):
            for tree in trees:
                load = os.getloadavg()[0]
                out = subprocess.run([sys.executable, "-c", VIEW_CHILD, path, measures,
                                      "page" if in_page else "worker"],
                                     cwd=tree, capture_output=True, text=True, check=True)
                for line in out.stdout.splitlines():
                    m, cpu, dump, unpickle, mb = line.split("\t")
                    print(f"round {r + 1} {tree} (load {load:.1f}): {m}: view {cpu} s, "
                          f"dump {dump} s, load {unpickle} s, {mb} MB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--views", action="store_true",
                    help="time the Annotators page's worker per measure (measure_view, pickling)")
    ap.add_argument("--measures", default="char-kappa",
                    help="--views: comma-separated measures")
    ap.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent),
                    help="--views: comma-separated checkouts, interleaved")
    ap.add_argument("--in-page", action="store_true",
                    help="--views: as the page computes a switch itself when the worker is busy")
    ap.add_argument("--corpus", type=Path, default=None,
                    help="--views: the gold and system pair of bench_app.py --corpus DIR "
                    "(the Annotators page's default view of a pair) instead of --docs")
    args = ap.parse_args()
    if args.views:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        views(args.docs, args.measures, args.tree.split(","), args.repeat, args.corpus,
              args.in_page)
        return
    sets, texts = synthetic(args.docs)
    n_spans = [s.span_count() for s in sets]
    print(f"corpus: {args.docs} documents, 3 annotators, spans per annotator {n_spans}")
    t_study, study = best_of(lambda: Study.from_sets(sets, texts), args.repeat)
    timings = {"study": t_study}
    values = {}
    for name, fn in [("char-kappa+char-jaccard", lambda: char_agreement(study)),
                     ("text-kappa", lambda: text_kappa(study)),
                     ("fleiss-kappa", lambda: fleiss_text(study)),
                     ("krippendorff-alpha", lambda: krippendorff_text(study)),
                     ("unitizing-alpha", lambda: unitizing(study))]:
        t, r = best_of(fn, args.repeat)
        timings[name] = t
        values[name] = r
    for name, t in timings.items():
        print(f"  {name:<26} {t * 1000:8.1f} ms")
    print(f"  {'total (no gamma)':<26} {sum(timings.values()) * 1000:8.1f} ms")
    kappa, jac = values["char-kappa+char-jaccard"]  # type: ignore[misc]
    print("values: char-kappa", kappa.matrix(), "\n  char-jaccard", jac.matrix())
    for name in ("fleiss-kappa", "krippendorff-alpha", "unitizing-alpha"):
        print(f"  {name}: {values[name].overall.value:.4f}")  # type: ignore[attr-defined]

    ticks: list[tuple[int, int]] = []
    doc = study.docs[0]
    t0 = time.perf_counter()
    al = gamma_alignment(study, doc, samples=args.samples)
    print(f"one document's alignment ({doc}, {len(al['units'])} units, {args.samples} samples): "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms, gamma {al['gamma']['value']:.4f}")
    cache: dict = {}  # the dashboard keeps one per session (core.metrics.agreement.measures)
    t0 = time.perf_counter()
    r = gamma(study, samples=args.samples, seed=0, progress=lambda d, t: ticks.append((d, t)),
              cache=cache)
    t_gamma = time.perf_counter() - t0
    sd = r.overall.stats.get("gamma_mc_sd") or 0.0
    print(f"corpus gamma: {r.overall.value:.4f} ± {2 * sd:.4f} (2 sd), {args.samples} samples, "
          f"{t_gamma:.2f} s, {len(ticks)} progress calls")
    t0 = time.perf_counter()
    gamma(study, samples=args.samples, seed=0, cache=cache)
    print(f"corpus gamma again (cached): {(time.perf_counter() - t0) * 1000:.1f} ms")
    t0 = time.perf_counter()
    rc = gamma(study, samples=args.samples, seed=0, categorical=True)
    print(f"corpus gamma-cat: {rc.overall.value:.4f}, {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
