"""Real-browser fixtures: ``streamlit run app.py`` on a free port and Debian's chromium.

The recipe of ``docs/dashboard.md`` (Tests): the server is polled on
``/_stcore/health`` until ready and terminated by the PID this fixture started; Playwright drives
``/usr/bin/chromium`` (its own browsers are never downloaded). Tests skip when chromium or
Playwright is missing. Screenshots go to ``test-artifacts/screenshots/`` (gitignored).
"""

from __future__ import annotations

import contextlib
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import RunWatch, running, wait_handed_over, wait_idle

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``, as ``scripts/test.sh`` runs the suite) the
    browser tests of one file run in one worker, in the file's order (xdist group
    ``browser-<file>``), and the files are shared out among the workers: both workers run
    browser tests, each with one streamlit server and one chromium of its own (the session
    fixtures :func:`app_url` and :func:`browser`) for all the files it is given, not one per
    test or per file. A test may therefore rely on what an earlier test of its own file did
    to the shared server, never on another file's."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.xdist_group(f"browser-{item.path.stem}"))


@pytest.fixture(scope="session")
def app_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store file of the shared server (:func:`app_url`): curation decisions and live
    classes of every browser test that uses that server."""
    return tmp_path_factory.mktemp("store") / "store.sqlite"


@pytest.fixture
def fresh_curation(app_store: Path) -> None:
    """Forget every curation decision the shared server's store holds (an earlier test may
    have decided on the same files), so that a test starts at "0 decided"."""
    from core import store

    if app_store.exists():
        conn = store.connect(app_store)
        try:
            with store.transaction(conn):
                conn.execute("DELETE FROM curation_decisions")
        finally:
            conn.close()


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory, app_store: Path) -> Iterator[str]:
    env = dict(os.environ, HOME=str(tmp_path_factory.mktemp("home")),
               SPANSCOPE_STORE=str(app_store))
    with running([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")], cwd=ROOT,
                 env=env, timeout=60) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser(playwright_driver: Any) -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):  # a missing browser fails: scripts/test.sh installs it
        pytest.fail(f"no system chromium at {CHROMIUM}: apt-get install chromium "
                    "(scripts/test.sh does)")
    b = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
    b.page_pool = []  # the pages tests take turns with (:func:`reused_page`)
    yield b
    b.close()


ACTION_TIMEOUT_MS = 60_000
"""How long a page's action (a click, a file set on an input, a locator's wait without a
timeout of its own) may wait for its element: Playwright's default of 30 s was too short for a
file input on a 2-core machine under load (the renderer busy with the run before)."""
EXPECT_TIMEOUT_MS = 30_000
"""How long an ``expect(...)`` assertion retries by default (Playwright's own: 5 s)."""


def pytest_configure(config: pytest.Config) -> None:
    """``expect(...)`` without a timeout of its own retries :data:`EXPECT_TIMEOUT_MS`: what a
    person would wait for on a busy machine, not a pass or fail decided by the load."""
    with contextlib.suppress(ImportError):  # a missing Playwright fails in the fixtures
        from playwright.sync_api import expect

        expect.set_options(timeout=EXPECT_TIMEOUT_MS)


def new_page(browser: Any, viewport: dict[str, int] | None = None,
             **options: Any) -> tuple[Any, Any]:
    """A browser context and a page at ``viewport`` (Playwright's 1280×720 when None) whose
    console errors are collected in ``page.console_errors`` and whose script runs
    :func:`wait_idle` follows on the websocket (``page.run_watch``,
    :class:`tests.servers.RunWatch`); actions wait up to :data:`ACTION_TIMEOUT_MS` by default;
    ``options`` go to ``browser.new_context`` (``color_scheme``, ``forced_colors``,
    ``offline``, ``accept_downloads``); close the context when done.

    The page prefers reduced motion (``reduced_motion="reduce"``) unless ``options`` say
    otherwise: chromium then skips the front end's animations (spinners, skeletons, transitions),
    which took a quarter of its CPU time per page visit (docs/performance.md, "The suite's
    length: chromium's time per page visit"); no test looks at an animation."""
    options.setdefault("reduced_motion", "reduce")
    context = browser.new_context(**({"viewport": viewport} if viewport else {}), **options)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    pg = context.new_page()
    RunWatch.attach(pg)
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.console_errors = errors
    return context, pg


@contextlib.contextmanager
def session(browser: Any, viewport: dict[str, int] | None = None,
            **options: Any) -> Iterator[Any]:
    """A page of its own: a new Streamlit session (no cookies, no storage, nothing of the
    test's other pages), what a second person or a fresh tab sees, or a browser with a colour
    scheme, forced colours or a viewport of its own (Playwright's 1280×720 when None).

    With no options but ``color_scheme`` (emulated on the page) and ``accept_downloads=True``
    (Playwright's default), a page of the worker's pool that no one is using, reset for the
    test (:func:`reused_page`); with others (``forced_colors``, ``offline``), a browser context
    of its own made by :func:`new_page` and closed on leaving, also when the test failed."""
    scheme = options.pop("color_scheme", None)
    if options.pop("accept_downloads", True) is not True or options:
        context, pg = new_page(browser, viewport, **options,
                               **({"color_scheme": scheme} if scheme else {}))
        try:
            yield pg
        finally:
            context.close()
        return
    with reused_page(browser, viewport or {"width": 1280, "height": 720}, None) as pg:
        if scheme:
            pg.emulate_media(color_scheme=scheme)
        yield pg


VIEWPORTS = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
"""The two widths issue 16 asks every visible fix to be checked at."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Mark a test whose set-up or call failed (``item.browser_failed``): :func:`reused_page`
    then closes its page instead of handing it to the next test."""
    outcome = yield
    if outcome.get_result().failed:
        item.browser_failed = True  # type: ignore[attr-defined]


_RESET_STORAGE = """() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"""


HISTORY_ROOM = 30
"""A pooled page's history entries past which it is closed rather than handed on (Chromium
keeps 50 a tab, and ``history.length`` stops growing there)."""


_LASTING = ("add_init_script", "route", "route_from_har", "expose_function", "expose_binding",
            "set_extra_http_headers")
"""The page's methods whose effect outlives the test and cannot be undone one by one."""


def _tainting(pg: Any, method: Any) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        pg.tainted = True
        return method(*args, **kwargs)

    return call


@contextlib.contextmanager
def reused_page(browser: Any, viewport: dict[str, int],
                node: pytest.Item | None) -> Iterator[Any]:
    """A page of the worker's pool (``browser.page_pool``) that no one is using (a new one when
    all are), at ``viewport`` and as a fresh page would be for the test.

    A browser context per test cost chromium a new renderer, which parses and compiles the
    front end's scripts again: about 2.5 s of CPU time for a page's first visit, against
    1.1-1.5 s for the same visit in a page that has loaded the app before (docs/performance.md,
    "The suite's length: a page per worker, reused"). Every test's first ``goto`` starts a new
    Streamlit session, as in a fresh page; what a test could leave in the page is undone here:
    the page is sent to ``about:blank`` after the test (the app's session ends, its timers
    stop), the origin's local and session storage and the context's cookies are cleared, the
    listeners the test added (``page.on``) are removed, the viewport and the colour scheme are
    set back, and the console errors and the :class:`RunWatch` start empty. A page whose test
    failed (``node.browser_failed``, or an exception out of the ``with`` block), that could not
    be reset, whose history is long (:data:`HISTORY_ROOM`), or that was given something that
    outlasts the test (:data:`_LASTING`: an init script, a route), is closed instead: the next
    test gets a new one."""
    pool: list[tuple[Any, Any]] = browser.page_pool
    free = [entry for entry in pool if not entry[1].in_use and not entry[1].is_closed()]
    if free:
        context, pg = free[0]
        pg.set_viewport_size(viewport)
    else:
        context, pg = new_page(browser, viewport)
        added: list[tuple[str, Any]] = []
        on = pg.on

        def tracked_on(event: str, handler: Any) -> None:
            added.append((event, handler))
            on(event, handler)

        pg.on = tracked_on
        pg.test_listeners = added
        for name in _LASTING:  # what stays with the page: it is not handed on after them
            if hasattr(pg, name):
                setattr(pg, name, _tainting(pg, getattr(pg, name)))
        pool.append((context, pg))
    pg.tainted = False
    pg.in_use = True
    pg.console_errors.clear()
    pg.run_watch.reset()
    whole = False
    try:
        yield pg
        whole = True
    finally:
        whole = whole and not pg.tainted and not getattr(node, "browser_failed", False)
        if whole:
            try:
                for event, handler in pg.test_listeners:
                    pg.remove_listener(event, handler)
                pg.test_listeners.clear()
                if pg.url.startswith("http"):
                    pg.evaluate(_RESET_STORAGE)
                pg.goto("about:blank")
                # Chromium keeps at most 50 entries of a tab's history; a test counting them
                # (test_history_browser) needs room: a page that has made 30 is not handed on.
                if pg.evaluate("history.length") > HISTORY_ROOM:
                    whole = False
                context.clear_cookies()
                pg.emulate_media(color_scheme="light", reduced_motion="reduce")
            except Exception:  # a page that cannot be reset is not handed on
                whole = False
        pg.in_use = False
        if not whole:
            pool.remove((context, pg))
            with contextlib.suppress(Exception):
                context.close()


@pytest.fixture(params=list(VIEWPORTS))
def vpage(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page at one of :data:`VIEWPORTS` (``vpage.viewport_name``), console errors collected
    in ``vpage.console_errors``: a page of the worker's pool (:func:`reused_page`)."""
    with reused_page(browser, VIEWPORTS[request.param], request.node) as pg:
        pg.viewport_name = request.param
        yield pg


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A tall page (Streamlit scrolls inside its own container, so height matters) whose
    console errors are collected in ``page.console_errors``: a page of the worker's pool, reset
    for the test (:func:`reused_page`)."""
    with reused_page(browser, {"width": 1500, "height": 1900}, request.node) as pg:
        pg.viewport_name = "desktop"
        yield pg


SHOTS = ROOT / "test-artifacts" / "screenshots"
# Console messages that are not app errors (docs/dashboard.md): deep links probe
# /<page>/_stcore/... and get a 404.
BENIGN = ("_stcore/health", "_stcore/host-config", "Failed to load resource: the server "
          "responded with a status of 404")


def app_errors(page: Any) -> list[str]:
    """Console errors of ``page`` except the benign ones listed in :data:`BENIGN`."""
    return [e for e in page.console_errors if not any(b in e for b in BENIGN)]


def shot(page: Any, name: str) -> Path:
    """Save a screenshot of ``page`` as ``test-artifacts/screenshots/<name>.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def selectbox(page: Any, label: str) -> Any:
    """The selectbox whose label contains ``label``."""
    return page.get_by_test_id("stSelectbox").filter(has_text=label).first


def value(page: Any, label: str) -> str:
    """The value a selectbox shows (kept in its combobox input)."""
    return str(selectbox(page, label).locator("input").input_value())


def choose(page: Any, label: str, option: str, *, exact: bool = True) -> None:
    """Open the selectbox labelled ``label`` and click ``option`` (or the first option
    containing it when not ``exact``)."""
    selectbox(page, label).click()
    options = page.get_by_role("option")
    target = (options.get_by_text(option, exact=True) if exact
              else options.filter(has_text=option)).first
    target.click()
    wait_idle(page)


def download(page: Any, button: Any, timeout: float = 45_000) -> Any:
    """Click the download ``button`` (a locator) and return Playwright's ``Download``.

    Streamlit builds a lazy download's file on the server when the button is clicked, and a
    click that lands while the page redraws the button (a rerun still finishing on a loaded
    machine) starts nothing, as it would for a person, who clicks again: so does this, once,
    after the page is idle again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in (1, 2):
        wait_idle(page)
        button.scroll_into_view_if_needed()
        try:
            with page.expect_download(timeout=timeout) as info:
                button.click()
            return info.value
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def click(page: Any, target: Any, until: Any, timeout: float = 30_000) -> None:
    """Click ``target`` (a locator) and wait until ``until`` (a locator) is visible.

    A click that lands while the front end redraws after a script run (a rerun still
    finishing on a loaded machine) can hit the element being replaced and do nothing, as it
    would for a person, who clicks again. So does this, once: only when the page is idle and
    ``until`` has still not appeared, so a click that did register is never repeated."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wait_idle(page)
    target.click()
    try:
        until.first.wait_for(timeout=min(timeout, 10_000))
        return
    except PlaywrightTimeout:
        wait_idle(page, timeout)
        if until.first.is_visible():
            return
    target.click()
    until.first.wait_for(timeout=timeout)


OPEN_TIMEOUT_MS = 90_000
"""How long a page's first run may take in :func:`open_page`: the first visit of a session
computes on a cold cache (the sample scored, the charts built), which took over 30 s on a
2-core machine under load."""


def open_page(page: Any, app_url: str, path: str = "") -> None:
    """Go to ``app_url/path`` (``app_url`` itself when ``path`` is empty: a link copied whole)
    and wait until the script has run (on the Documents page, until the highlights are the
    component's: :func:`tests.servers.wait_handed_over`)."""
    page.goto(f"{app_url}/{path.lstrip('/')}" if path else app_url)
    wait_idle(page, OPEN_TIMEOUT_MS)
    wait_handed_over(page)


def sidebar(page: Any) -> Any:
    """The sidebar, opened first when it is collapsed (a phone)."""
    expand = page.get_by_test_id("stExpandSidebarButton")
    if expand.count() and expand.first.is_visible():
        expand.first.click()
    bar = page.get_by_test_id("stSidebar")
    bar.get_by_test_id("stPageLink").first.wait_for(timeout=10_000)
    return bar


def go(page: Any, title: str) -> None:
    """Open another page through the sidebar's navigation (the same session, as a user does:
    uploads live in it); on a phone the sidebar, which covers the page, is closed again."""
    sidebar(page).get_by_test_id("stPageLink").get_by_text(title, exact=True).click()
    wait_idle(page)
    collapse = page.get_by_test_id("stSidebarCollapseButton")
    if page.viewport_name == "phone" and collapse.count() and collapse.first.is_visible():
        collapse.first.click()


def upload_then_documents(page: Any, app_url: str, files: list[str]) -> None:
    """Upload ``files`` on the Data page, wait until they are the data on view, then open the
    Documents page through the sidebar, as a person does (the uploads live in this session)."""
    open_page(page, app_url, "data")
    page.locator("input[type=file]").set_input_files(files)
    page.get_by_text("the uploaded files").first.wait_for(timeout=30_000)
    wait_idle(page)
    click(page, page.get_by_test_id("stSidebar").get_by_text("Documents", exact=True),
          page.locator("#left-doc"))
    wait_idle(page)


@pytest.fixture
def st_ui() -> types.SimpleNamespace:
    """The helpers above, for test modules (test files cannot import each other here):
    ``st_ui.wait_idle(page)``, ``st_ui.shot(page, name)``, ``st_ui.app_errors(page)``,
    ``st_ui.choose(page, label, option)``, ``st_ui.value(page, label)``,
    ``st_ui.selectbox(page, label)``, ``st_ui.open_page(page, app_url, path)``,
    ``st_ui.download(page, button)``, ``st_ui.click(page, target, until)``,
    ``st_ui.sidebar(page)``, ``st_ui.go(page, title)``,
    ``st_ui.upload_then_documents(page, app_url, files)``,
    ``with st_ui.session(browser, viewport, **options) as page:``."""
    return types.SimpleNamespace(app_errors=app_errors, shot=shot, wait_idle=wait_idle,
                                 selectbox=selectbox, value=value, choose=choose,
                                 open_page=open_page, download=download, click=click,
                                 session=session, sidebar=sidebar, go=go,
                                 upload_then_documents=upload_then_documents, SHOTS=SHOTS)
