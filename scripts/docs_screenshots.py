"""Take every screenshot a page of the docs shows, on the bundled sample data.

    python scripts/docs_screenshots.py PORT [--only NAME,...] [--out DIR]

Starts the dashboard (``streamlit run app.py``, headless, on 127.0.0.1:PORT, with a store of
its own in a temporary folder), drives Debian's ``/usr/bin/chromium`` through Playwright
(headless; ``CHROMIUM_PATH`` overrides the path) and writes ``docs/screenshots/<name>.png``
for each entry of :data:`SHOTS`: the page, the data (the propaganda sample unless the caption
names another) and the viewport each caption describes (phone shots at 390 × 844). Every
screenshot the README and ``docs/*.md`` reference is one entry (``tests/test_docs_images.py``
checks that each referenced image exists and each PNG there is referenced). It runs
unattended in about two minutes on 2 cores, then stops the server and the browser; a shot that
fails is named on standard error, the others are still written, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote_plus

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402 - the repository's root is on the path from here on
from tests.servers import running  # noqa: E402

SAMPLE = ROOT / "sample_data" / "propaganda"
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
EXERCISE_SEED = 3  # the exercise the Learn captions show (gold "ad hominem | ⊥" ...)


# ---- the server and the page helpers -------------------------------------------------------


@contextlib.contextmanager
def server(port: int, store: Path, timeout: float = 90) -> Iterator[str]:
    """``streamlit run app.py`` on ``port`` until the block ends (stopped by its own PID)."""
    env = dict(os.environ, SPANSCOPE_STORE=str(store), HOME=str(store.parent))
    with running([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")], cwd=ROOT,
                 env=env, timeout=timeout, port=port, fail=_stop) as started:
        yield started.url


def _stop(why: str) -> NoReturn:
    raise SystemExit(f"the dashboard did not start: {why}")


def wait_idle(page: Any) -> None:
    """Wait until the script run the last action started has ended (a minute at most: the
    shots run on a loaded machine)."""
    servers.wait_idle(page, timeout=60_000)


def open_page(page: Any, url: str, path: str) -> None:
    page.goto(f"{url}/{path.lstrip('/')}")
    wait_idle(page)
    servers.wait_handed_over(page, timeout=60_000)


def settle(page: Any) -> None:
    """No pointer over the page (no tooltip or toolbar), the last redraw finished."""
    page.mouse.move(2, 2)
    wait_idle(page)
    page.wait_for_timeout(500)


def go(page: Any, title: str) -> None:
    """Another page through the sidebar (the same session, as a person goes)."""
    page.get_by_test_id("stSidebar").get_by_test_id("stPageLink").get_by_text(
        title, exact=True).click()
    wait_idle(page)


@dataclass
class Run:
    """What a shot function gets: the browser, the app's address, where PNGs go."""

    browser: Any
    url: str
    out: Path
    scratch: Path

    @contextlib.contextmanager
    def page(self, viewport: dict[str, int]) -> Iterator[Any]:
        context = self.browser.new_context(viewport=viewport, accept_downloads=True)
        try:
            yield context.new_page()
        finally:
            context.close()

    def save(self, page: Any, name: str) -> None:
        settle(page)
        page.screenshot(path=str(self.out / f"{name}.png"))


# ---- the shots -------------------------------------------------------------------------------


def documents(run: Run) -> None:
    """Documents page: gold and system side by side, lanes, merged view, the tabs."""
    with run.page({"width": 1440, "height": 1700}) as page:
        open_page(page, run.url, "documents?b=system_a&doc=1")
        page.locator("#merged").wait_for(timeout=60_000)
        run.save(page, "documents")


def document_export(run: Run) -> None:
    """The SVG the Documents page's "SVG" button downloads, opened on its own."""
    with run.page({"width": 1440, "height": 900}) as page:
        open_page(page, run.url, "documents?b=system_a&doc=1")
        page.locator("#merged").wait_for(timeout=60_000)
        button = page.get_by_test_id("stDownloadButton").filter(has_text="SVG").first
        button.scroll_into_view_if_needed()
        with page.expect_download(timeout=60_000) as info:
            button.click()
        target = run.scratch / info.value.suggested_filename
        info.value.save_as(target)
        page.goto(target.as_uri())
        page.locator("svg").first.screenshot(path=str(run.out / "document_export.png"))


def errors(run: Run) -> None:
    """Errors page on the sample: every system's spans by category, the page's tabs."""
    with run.page({"width": 1440, "height": 1300}) as page:
        open_page(page, run.url, "errors")
        page.get_by_test_id("stDataFrame").first.wait_for(timeout=60_000)
        run.save(page, "errors")


def errors_only(run: Run) -> None:
    """Errors only, both systems as bars, the legend under the plot: desktop and phone."""
    from ui.errors import K_ERR_TAB, TABS

    for viewport, name in ((DESKTOP, "errors_only"), (PHONE, "errors_only_phone")):
        with run.page(viewport) as page:
            open_page(page, run.url, f"errors?eview=errors+only&{K_ERR_TAB}="
                      f"{quote_plus(TABS[1])}")
            plot = page.locator(".st-key-err_chart .js-plotly-plot")
            plot.wait_for(timeout=60_000)
            plot.scroll_into_view_if_needed()
            run.save(page, name)


def differences(run: Run) -> None:
    """Metric differences: the waterfall from Martino to MAFALDA, the texts that differ."""
    with run.page({"width": 1440, "height": 1600}) as page:
        open_page(page, run.url, "differences?b=system_a")
        page.locator(".st-key-diff_waterfall svg.marks").wait_for(timeout=60_000)
        run.save(page, "differences")


def labels(run: Run) -> None:
    """Labels: gold against system_a, a clicked cell and its span pairs."""
    from ui.labels import shown

    with run.page({"width": 1440, "height": 1700}) as page:
        open_page(page, run.url, "labels?b=system_a")
        chart = page.get_by_test_id("stVegaLiteChart").first
        chart.locator("path[aria-label]").first.wait_for(timeout=60_000)
        label = (f"predicted label in system_a: {shown('Name calling/Labeling')}; "
                 f"gold label in gold: {shown('Loaded Language')} (")
        chart.locator(f'path[aria-label^="{label}"]').first.click()
        wait_idle(page)
        page.get_by_text("span pair(s) listed", exact=False).first.wait_for(timeout=60_000)
        run.save(page, "labels")


def annotators(run: Run) -> None:
    """Annotators: pairwise agreement, the many-annotator values and γ."""
    with run.page({"width": 1440, "height": 1500}) as page:
        open_page(page, run.url, "annotators")
        page.locator(".st-key-ann_matrix").first.wait_for(timeout=90_000)
        # γ is computed in the background; the page shows it when done
        page.get_by_text("computing in the background", exact=False).first.wait_for(
            state="detached", timeout=120_000)
        run.save(page, "annotators")


def curation(run: Run) -> None:
    """Curation: a disputed span, the annotators in lanes, the proposal, the curated set."""
    with run.page({"width": 1440, "height": 2200}) as page:
        open_page(page, run.url, "curation")
        page.locator("#cur-card").wait_for(timeout=90_000)
        run.save(page, "curation")


def learn(run: Run) -> None:
    """Learn: MAFALDA's Example 9, the editable predictions and offsets."""
    with run.page({"width": 1440, "height": 1900}) as page:
        open_page(page, run.url, "learn?scenario=mafalda-example9")
        page.locator(".st-key-learn_waterfall svg.marks").wait_for(timeout=60_000)
        run.save(page, "learn")


def learn_exercise(run: Run) -> None:
    """Learn's exercise: the answers (one wrong) checked, the ladder."""
    from core.teaching import exercises

    sol = exercises.solve(exercises.generate(EXERCISE_SEED))
    with run.page({"width": 1440, "height": 2600}) as page:
        open_page(page, run.url, f"learn?exercise={EXERCISE_SEED}")
        form = page.locator(".st-key-exercise_form")
        inputs = form.get_by_test_id("stTextInput")
        inputs.first.wait_for(timeout=60_000)
        asked = [(k, q) for k, _ in exercises.questions("short") for q in "PR"
                 if sol.truths[k].value(q) is not None]
        for i, (k, q) in enumerate(asked):
            value = sol.truths[k].value(q)
            text = "0" if i == len(asked) - 1 else exercises.fraction_text(value).split(" ")[0]
            box = inputs.nth(i).locator("input")
            box.fill(text)
            box.press("Tab")
            wait_idle(page)
        page.get_by_role("button", name="Check my answers").click()
        wait_idle(page)
        page.locator(".st-key-exercise_waterfall g.mark-rect path").first.wait_for(timeout=60_000)
        run.save(page, "learn_exercise")


def data_uploads(run: Run) -> None:
    """Data page after an upload, back from another page, the second file's role changed."""
    with run.page(DESKTOP) as page:
        open_page(page, run.url, "data")
        page.locator("input[type=file]").first.set_input_files(
            [str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json")])
        wait_idle(page)
        go(page, "Scores")
        go(page, "Data")
        boxes = page.get_by_test_id("stSelectbox").filter(has_text="Role")
        boxes.first.wait_for(timeout=60_000, state="attached")
        boxes.nth(1).scroll_into_view_if_needed()
        boxes.nth(1).click()
        page.get_by_role("option").get_by_text("annotator", exact=True).first.click()
        wait_idle(page)
        go(page, "Overview")
        go(page, "Data")
        page.get_by_text("Files stay here when you visit other pages").first.wait_for(
            timeout=60_000)
        boxes = page.get_by_test_id("stSelectbox").filter(has_text="Role")
        boxes.first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.mouse.wheel(0, -120)  # the files' names above the role boxes
        run.save(page, "data-uploads")


def report_phone(run: Run) -> None:
    """The HTML report on a 390 px phone, at its error categories."""
    from core.analysis.report import ReportInputs, build_report
    from core.formats import ReadOptions, load_path

    gold = load_path(SAMPLE / "gold.json")
    systems = [load_path(SAMPLE / f"{n}.json", options=ReadOptions(role="system")).set
               for n in ("system_a", "system_b")]
    html = build_report(ReportInputs(gold.set, systems, gold.texts, n_resamples=200),
                        command="python -m core report sample_data/propaganda/gold.json "
                        "sample_data/propaganda/system_a.json sample_data/propaganda/"
                        "system_b.json -o report.html")
    path = run.scratch / "report.html"
    path.write_text(html, encoding="utf-8")
    with run.page(PHONE) as page:
        page.goto(path.as_uri())
        page.evaluate("document.getElementById('categories').scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(run.out / "report_phone.png"))


def live_class(run: Run) -> None:
    """A live class: the teacher on a desktop, a student on a phone, one answer wrong."""
    from core.teaching import exercises

    sol = exercises.solve(exercises.generate(EXERCISE_SEED))
    with run.page(DESKTOP) as teacher, run.page(PHONE) as student:
        open_page(teacher, run.url, f"learn?exercise={EXERCISE_SEED}")
        teacher.get_by_role("button", name="Start a class").click()
        wait_idle(teacher)
        teacher.wait_for_url("**class=*", timeout=60_000)
        code = teacher.url.split("class=")[1][:8]
        teacher.get_by_test_id("stImage").first.wait_for(timeout=60_000)
        run.save(teacher, "live_class_teacher")

        open_page(student, run.url, f"learn?class={code}")
        student.get_by_label("Your nickname", exact=True).fill("Ada")
        student.get_by_label("Your nickname", exact=True).press("Tab")
        wait_idle(student)
        run.save(student, "live_class_student_join_phone")
        student.get_by_role("button", name="Join").click()
        wait_idle(student)
        student.get_by_text("You are").first.wait_for(timeout=60_000)
        form = student.locator(".st-key-live_form")
        inputs = form.get_by_test_id("stTextInput")
        asked = [(k, q) for k, _ in exercises.questions("short") for q in "PR"
                 if sol.truths[k].value(q) is not None]
        for i, (k, q) in enumerate(asked):
            value = sol.truths[k].value(q)
            text = "0" if i == len(asked) - 1 else exercises.fraction_text(value).split(" ")[0]
            box = inputs.nth(i).locator("input")
            box.fill(text)
            box.press("Tab")
            wait_idle(student)
        form.get_by_role("button", name="Send my answers").click()
        wait_idle(student)
        student.get_by_text("Received at").first.wait_for(timeout=60_000)
        run.save(student, "live_class_student_answer_phone")

        teacher.wait_for_function(
            "() => { const m = document.querySelectorAll('[data-testid=\"stMetricValue\"]');"
            " return m.length > 1 && m[1].textContent.trim() === '1'; }", timeout=60_000)
        teacher.get_by_role("button", name="Reveal the solution").click()
        wait_idle(teacher)
        teacher.get_by_text("solution shown").first.wait_for(timeout=60_000)
        run.save(teacher, "live_class_teacher_reveal")
        student.locator("h2", has_text="The answers").first.wait_for(timeout=60_000)
        student.locator("h2", has_text="The answers").first.scroll_into_view_if_needed()
        run.save(student, "live_class_student_reveal_phone")


SHOTS: dict[str, tuple[tuple[str, ...], Callable[[Run], None]]] = {
    "documents": (("documents",), documents),
    "document_export": (("document_export",), document_export),
    "errors": (("errors",), errors),
    "errors_only": (("errors_only", "errors_only_phone"), errors_only),
    "differences": (("differences",), differences),
    "labels": (("labels",), labels),
    "annotators": (("annotators",), annotators),
    "curation": (("curation",), curation),
    "learn": (("learn",), learn),
    "learn_exercise": (("learn_exercise",), learn_exercise),
    "data-uploads": (("data-uploads",), data_uploads),
    "report_phone": (("report_phone",), report_phone),
    "live_class": (("live_class_teacher", "live_class_student_join_phone",
                    "live_class_student_answer_phone", "live_class_teacher_reveal",
                    "live_class_student_reveal_phone"), live_class),
}
"""Shot name -> (the PNGs it writes, without ``.png``; the function that takes them)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int, help="the dashboard's port (127.0.0.1)")
    parser.add_argument("--only", default="", help="comma-separated shot names: "
                        + ", ".join(SHOTS))
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the PNGs")
    args = parser.parse_args(argv)
    chosen = [s for s in args.only.split(",") if s] or list(SHOTS)
    unknown = [s for s in chosen if s not in SHOTS]
    if unknown:
        parser.error(f"unknown shot(s) {', '.join(unknown)}; shots: {', '.join(SHOTS)}")
    if not Path(CHROMIUM).exists():
        parser.error(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright
    from streamlit.logger import set_log_level

    set_log_level("error")  # the ui modules' caches warn "no runtime" outside a server

    args.out.mkdir(parents=True, exist_ok=True)
    failed = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="spanscope-shots-") as tmp:
        scratch = Path(tmp)
        with server(args.port, scratch / "store.sqlite") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
            try:
                for name in chosen:
                    pngs, take = SHOTS[name]
                    t0 = time.perf_counter()
                    try:
                        take(Run(browser, url, args.out, scratch))
                    except Exception as exc:  # one failed shot does not stop the others
                        failed.append(name)
                        print(f"FAILED {name}: {type(exc).__name__}: {exc}".splitlines()[0],
                              file=sys.stderr)
                        continue
                    print(f"{time.perf_counter() - t0:5.1f} s  "
                          + ", ".join(f"{args.out / p}.png" for p in pngs))
            finally:
                browser.close()
    print(f"{len(chosen) - len(failed)} of {len(chosen)} shots in "
          f"{time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
