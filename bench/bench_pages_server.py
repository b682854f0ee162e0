"""Server-side time of every dashboard page on a large corpus, and which ``core`` call costs it.

Complements ``bench/bench_app.py`` (which times what a user waits for in Chromium): this runs the
app in-process with ``streamlit.testing.v1.AppTest`` on the corpus ``bench_app.py`` generates,
opened as ``spanscope app --data`` opens it (``SPANSCOPE_DATA``), visits every page twice
(first visit computes and caches; second is the warm rerun), profiles each first visit with
``cProfile`` (unless ``--no-profile``) and prints the slowest ``core``/``ui`` functions by
cumulative time, the wall and CPU time (``time.process_time``: every thread of the process, not
the background worker of :mod:`ui.jobs`) of each visit, the load average, and the peak resident
memory of the process after each page.

With ``--interactions`` it then times issue 29's target 5 (:func:`interactions`).

Run: ``python bench/bench_pages_server.py [--docs N] [--spans N] [--top K] [--no-profile]
[--interactions] [--open-only] [--first PAGE] [--corpus DIR] [--pause S] [--pages A,B]``;
writes ``bench/results/bench_pages_server_<docs>.json``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import streamlit.logger  # noqa: E402

streamlit.logger.set_log_level("error")
from bench_app import make_corpus  # noqa: E402

PAGES = ("data", "scores", "documents", "errors", "differences", "labels", "annotators",
         "curation", "home")


_PROFILES: list[cProfile.Profile] | None = None
_thread_run = threading.Thread.run


def _profiled_run(self: threading.Thread) -> None:
    """``Thread.run`` under cProfile while :data:`_PROFILES` collects (AppTest runs the script
    in a thread of its own, which a profiler of the main thread does not see)."""
    if _PROFILES is None:
        _thread_run(self)
        return
    prof = cProfile.Profile()
    _PROFILES.append(prof)
    prof.enable()
    try:
        _thread_run(self)
    finally:
        prof.disable()


threading.Thread.run = _profiled_run  # type: ignore[method-assign]


def _rss_mib() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _top(profs: list[cProfile.Profile], k: int) -> list[tuple[str, float]]:
    if not profs:
        return []
    stats = pstats.Stats(profs[0])
    for prof in profs[1:]:
        stats.add(prof)
    rows = []
    for (file, line, func), (_, _, _, cum, _) in stats.stats.items():  # type: ignore[attr-defined]
        rel = file.replace(str(ROOT) + "/", "")
        if rel.startswith(("core/", "ui/")):
            rows.append((f"{rel}:{line} {func}", round(cum, 2)))
    return sorted(rows, key=lambda r: -r[1])[:k]


def run(n_docs: int, n_spans: int, top: int, profile: bool = True,
        with_interactions: bool = False, open_only: bool = False,
        corpus: Path | None = None, start_page: str | None = None,
        pause: float = 0.0, pages: tuple[str, ...] = PAGES) -> dict[str, Any]:
    from streamlit.testing.v1 import AppTest

    global _PROFILES
    with tempfile.TemporaryDirectory() as tmp:
        folder = corpus or Path(tmp) / "bench"
        if not ((folder / "gold.json").exists() and (folder / "system_a.json").exists()):
            make_corpus(folder, n_docs, n_spans)
        os.environ["SPANSCOPE_DATA"] = json.dumps([
            {"role": "gold", "path": str(folder / "gold.json")},
            {"role": "system", "path": str(folder / "system_a.json")}])
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=3600)
        if start_page:  # a deep link: the first run is this page's (bench_app.py: /documents)
            at.switch_page(f"pages/{start_page}.py")
        _PROFILES = [] if profile else None
        t, c = time.perf_counter(), time.process_time()
        at.run()  # the Overview page (or ``start_page``): reads the files
        out: dict[str, Any] = {"documents": n_docs, "spans_per_set": n_spans, "first": start_page,
                               "load": os.getloadavg()[0],
                               "open_s": round(time.perf_counter() - t, 2),
                               "open_cpu_s": round(time.process_time() - c, 2),
                               "rss_after_open_mib": _rss_mib(), "pages": {}}
        profs, _PROFILES = _PROFILES or [], None
        out["open_slowest"] = _top(profs, top)
        print("open", out["open_s"], out["open_cpu_s"], out["rss_after_open_mib"], flush=True)
        if pause and not open_only:
            # A reader looks at the first page: what the server computes ahead meanwhile
            # (ui.results.score_ahead) is then not counted in the next page's time.
            t, c = time.perf_counter(), time.process_time()
            time.sleep(pause)
            out["pause"] = {"s": pause, "cpu_s": round(time.process_time() - c, 2)}
            print("pause", pause, "s, CPU of the process meanwhile", out["pause"]["cpu_s"],
                  flush=True)
        for page in () if open_only else pages:
            _PROFILES = [] if profile else None
            t, c = time.perf_counter(), time.process_time()
            at.switch_page(f"pages/{page}.py").run()
            first, first_cpu = time.perf_counter() - t, time.process_time() - c
            profs, _PROFILES = _PROFILES or [], None
            errors = [str(e.value)[:200] for e in at.exception]
            _PROFILES = [] if profile else None
            t, c = time.perf_counter(), time.process_time()
            at.run()
            warm, warm_cpu = time.perf_counter() - t, time.process_time() - c
            warm_profs, _PROFILES = _PROFILES or [], None
            out["pages"][page] = {"first_s": round(first, 2), "first_cpu_s": round(first_cpu, 2),
                                  "warm_s": round(warm, 2), "warm_cpu_s": round(warm_cpu, 2),
                                  "rss_mib": _rss_mib(), "exceptions": errors,
                                  "slowest": _top(profs, top),
                                  "slowest_warm": _top(warm_profs, top)}
            row = out["pages"][page]
            print(page, row["first_s"], row["first_cpu_s"], row["warm_s"], row["warm_cpu_s"],
                  row["rss_mib"], errors[:1], flush=True)
        if with_interactions:
            out["interactions"] = interactions(at)
            out["rss_end_mib"] = _rss_mib()
    return out


def _timed(action: Any) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    action()
    return round(time.perf_counter() - t, 3), round(time.process_time() - c, 3)


def interactions(at: Any) -> dict[str, Any]:
    """Issue 29's target 5 on the open app: the Annotators page's measure switch (the page's
    answer, and when the switched measure's matrix is drawn: above ``BACKGROUND_DOCS`` it comes
    from the background worker, whose CPU this process does not count) and an Errors category
    row that opens the Documents page filtered to it (the Errors rerun, the switch and the
    Documents run, one ``at.run()``).

    The measure switch is timed twice: at once after the page's first visit (``measure_switch``:
    the worker is still busy with what that visit queued), and after the worker has finished it
    (``measure_switch_settled``, to measures not shown yet: a reader looks at the page for a few
    seconds first; ``worker_busy_s`` is how long the worker took to finish)."""
    from core.metrics.agreement import Study
    from ui import annotators as ann
    from ui import errors as err_ui
    from ui import jobs

    out: dict[str, Any] = {"measure_switch": [], "measure_switch_settled": [],
                           "errors_to_documents": []}

    def switch(measure: str, into: str) -> None:
        wall, cpu = _timed(lambda: at.selectbox(key=ann.K_ANN_MEASURE).set_value(measure).run())
        t = time.perf_counter()
        titles = (f"{measure}, every pair", f"{measure} (F1), every pair")
        while not any(x in e.proto.spec for e in at.get("plotly_chart") for x in titles):
            if time.perf_counter() - t > 600:
                break
            time.sleep(0.2)
            at.run()
        out[into].append({"measure": measure, "answer_s": wall, "answer_cpu_s": cpu,
                          "matrix_drawn_s": round(wall + time.perf_counter() - t, 2)})
        print(into.replace("_", " "), out[into][-1], flush=True)

    at.switch_page("pages/annotators.py").run()
    for measure in ("char-jaccard", "span-f1", "char-kappa", "char-jaccard"):
        switch(measure, "measure_switch")
    # Jobs run in the order they were queued within their kind: when a job queued now behind
    # everything (``later``) is done, so is all the page queued.
    t = time.perf_counter()
    tiny = Study.from_sets([], {})
    wait: jobs.Job[object] = jobs.Job("bench: wait", "many", {"study": tiny})
    try:
        jobs.submit(wait, later=True)
    except TypeError:  # a revision before later jobs: one queue, in order
        jobs.submit(wait)
    assert wait.future is not None
    wait.future.exception()  # waits; an empty study's error, if any, does not matter
    out["worker_busy_s"] = round(time.perf_counter() - t, 2)
    print("worker busy", out["worker_busy_s"], flush=True)
    for measure in ("text-kappa", "mafalda-f1", "krippendorff-alpha"):
        switch(measure, "measure_switch_settled")
    at.switch_page("pages/errors.py").run()
    # The links under the category table, one per system and error category (the table's rows
    # were selectable until the seventeenth pass of issue 29; the links open the same).
    links = [b.key for b in at.button if str(b.key).startswith("err_open_")]
    for key in (*links[:3], *links[:1]):
        category = key.rsplit("_", 1)[1]
        at.switch_page("pages/errors.py").run()
        at.session_state[err_ui.K_ERR_OPENED] = None
        at.button(key=key).click()
        wall, cpu = _timed(at.run)
        opened = any(t.value.startswith("📄 Documents") for t in at.title)
        out["errors_to_documents"].append({"category": category, "s": wall, "cpu_s": cpu,
                                           "opened": opened})
        print("errors -> documents", out["errors_to_documents"][-1], flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--spans", type=int, default=100_000, help="spans per set")
    ap.add_argument("--top", type=int, default=6, help="functions listed per page")
    ap.add_argument("--no-profile", action="store_true",
                    help="time without cProfile (which adds a third to twice the time)")
    ap.add_argument("--open-only", action="store_true",
                    help="time opening the corpus (the first load) only, not the pages")
    ap.add_argument("--interactions", action="store_true",
                    help="then time the Annotators measure switch and Errors -> Documents")
    ap.add_argument("--first", choices=PAGES, default=None,
                    help="open the app on this page (a deep link) instead of the Overview")
    ap.add_argument("--corpus", type=Path, default=None,
                    help="folder of the generated pair, kept between runs (generated if absent)")
    ap.add_argument("--pause", type=float, default=0.0,
                    help="seconds to wait after the open before the first page (a reader "
                    "looking at it); the process's CPU meanwhile is reported")
    ap.add_argument("--pages", default=",".join(PAGES),
                    help="comma-separated pages visited after the open, in order (default: all)")
    args = ap.parse_args()
    pages = tuple(p for p in args.pages.split(",") if p)
    if unknown := [p for p in pages if p not in PAGES]:
        ap.error(f"unknown pages {unknown}; choose among {', '.join(PAGES)}")
    result = run(args.docs, args.spans, args.top, profile=not args.no_profile,
                 with_interactions=args.interactions, open_only=args.open_only,
                 corpus=args.corpus, start_page=args.first, pause=args.pause, pages=pages)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"bench_pages_server_{args.docs}.json").write_text(json.dumps(result, indent=1),
                                                               encoding="utf-8")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
