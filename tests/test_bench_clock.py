"""The in-page clock of ``bench/bench_app.py`` (docs/performance.md, issue 29, fourteenth pass).

On a tiny static page in Chromium: the clock starts at the step's last input (captured on window
before the page's own handlers) and ends after the page's last change (a DOM mutation, or a
canvas drawn, which no mutation announces); inputs before the step is armed are not the step's;
a multi-input step (a select box opened, then its option) starts at the option, and a popover
holding the box is a step of its own. No clock is asserted against a bound: only which events
the clock took and their order.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bench_scripts import bench_module

pytestmark = pytest.mark.e2e

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

PAGE = """<!doctype html><html><body>
<button id="go">Go</button><div id="out">before</div>
<div class="st-key-variants_menu"><button>Variants</button></div>
<div id="menu"></div><canvas id="grid" width="40" height="20"></canvas>
<script>
  window.seen = {};
  const out = document.getElementById('out');
  document.getElementById('go').addEventListener('click', () => {
    window.seen.click = performance.now();
    // the change lands later than the click, as a script run's does
    setTimeout(() => { out.textContent = 'after'; window.seen.changed = performance.now(); }, 40);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'n') return;
    window.seen.key = performance.now();
    setTimeout(() => { out.textContent = 'next'; window.seen.changed = performance.now(); }, 40);
  });
  // a grid drawn on a canvas, as a data grid draws its cells: pixels, no DOM mutation
  document.getElementById('grid').addEventListener('click', () => {
    window.seen.canvasClick = performance.now();
    setTimeout(() => {
      document.getElementById('grid').getContext('2d').fillRect(0, 0, 10, 10);
      window.seen.changed = performance.now();
    }, 40);
    // then, as a data grid does, its accessible fallback inside the canvas: not drawn
    setTimeout(() => {
      document.getElementById('grid').textContent = 'a cell';
      window.seen.fallback = performance.now();
    }, 80);
  });
  // a popover holding a select box: the box opens a list of options, an option is picked
  document.querySelector('.st-key-variants_menu button').addEventListener('click', () => {
    window.seen.popover = performance.now();
    document.getElementById('menu').innerHTML =
      '<div class="st-key-mvariant"><input readonly value="paper"></div>';
    document.querySelector('.st-key-mvariant input').addEventListener('click', () => {
      window.seen.box = performance.now();
      const list = document.createElement('ul');
      list.innerHTML = '<li role="option">metrics-py</li>';
      document.getElementById('menu').append(list);
      list.querySelector('li').addEventListener('click', () => {
        window.seen.option = performance.now();
        setTimeout(() => {
          document.querySelector('.st-key-mvariant input').value = 'metrics-py';
          list.remove();
          window.seen.changed = performance.now();
        }, 40);
      });
    });
  });
</script></body></html>"""


@pytest.fixture(scope="module")
def bench_app() -> Any:
    yield bench_module("bench_app")


@contextlib.contextmanager
def watched_page(html: Path, bench_app: Any, playwright_driver: Any) -> Iterator[Any]:
    """The page ``html`` in a headless chromium, with the bench's two watches installed before
    it loads, as the bench installs them."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no system chromium at {CHROMIUM}: apt-get install chromium")
    browser = playwright_driver.chromium.launch(
        executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
    try:
        pg = browser.new_page()
        pg.add_init_script(bench_app._WS_WATCH)
        pg.add_init_script(bench_app._CLOCK_WATCH)
        pg.goto(html.as_uri())
        yield pg
    finally:
        browser.close()


@pytest.fixture()
def page(tmp_path: Path, bench_app: Any, playwright_driver: Any) -> Iterator[Any]:
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    with watched_page(tmp_path / "page.html", bench_app, playwright_driver) as pg:
        yield pg


def test_the_clock_runs_from_a_click_to_the_frame_after_the_change(page: Any,
                                                                     bench_app: Any) -> None:
    page.click("#go")  # before the step is armed: not the step's input
    page.wait_for_function("document.getElementById('out').textContent === 'after'")
    page.evaluate("document.getElementById('out').textContent = 'before'")
    bench_app._arm(page)
    before = time.time()
    page.click("#go")
    clock = bench_app._clock(page)
    after = time.time()
    seen = page.evaluate("window.seen")
    assert clock["inputs"] == ["click button"]
    # the same instants on the machine's clock, to line the step up with other processes' logs
    # (the page's time origin is read to the millisecond: a second's slack, no bound on time)
    assert before - 1 <= clock["t0_epoch"] <= clock["t1_epoch"] <= after + 1
    assert abs((clock["t1_epoch"] - clock["t0_epoch"]) - clock["in_page_s"]) < 0.002
    t0 = clock["t0_ms"]
    # captured on window before the button's own handler, and ended after the change was made
    assert t0 <= seen["click"]
    assert clock["in_page_s"] == round((clock["t1_ms"] - t0) / 1000, 4)
    assert clock["t1_ms"] > seen["changed"]
    assert clock["last_change"] == "div"
    assert clock["last_change_after_s"] * 1000 >= seen["changed"] - t0 - 1
    assert clock["last_message_after_s"] is None  # no server here
    assert clock["first_sent_after_s"] is None and clock["first_message_after_s"] is None


def test_the_clock_starts_at_a_key(page: Any, bench_app: Any) -> None:
    bench_app._arm(page)
    page.locator("body").press("n")
    clock = bench_app._clock(page)
    seen = page.evaluate("window.seen")
    assert clock["inputs"] == ["keydown body"]
    assert clock["t0_ms"] <= seen["key"]
    assert clock["t1_ms"] > seen["changed"]


def test_a_canvas_drawn_is_a_change(page: Any, bench_app: Any) -> None:
    bench_app._arm(page)
    page.click("#grid")
    clock = bench_app._clock(page)
    seen = page.evaluate("window.seen")
    assert clock["inputs"] == ["click canvas"]
    assert clock["t0_ms"] <= seen["canvasClick"]
    assert clock["t1_ms"] > seen["changed"]
    assert clock["last_change"] == "canvas drawn canvas"
    # the fallback content changed after the pixels, unseen: the last change is the pixels
    page.wait_for_function("window.seen.fallback !== undefined")
    page.wait_for_timeout(50)  # the observer's callback has run
    assert page.evaluate("window.__ssClock.describeLast()") == "canvas drawn canvas"


def test_a_multi_input_step_starts_at_its_last_input_and_the_popover_is_its_own(
        page: Any, bench_app: Any) -> None:
    scores = dict(bench_app.INTERACTIONS)["Scores"]
    names = [name for name, _ in scores]
    # every variant pick follows a step that opens the popover, timed apart
    for i, name in enumerate(names):
        if name.startswith("MAFALDA variant"):
            assert names[i - 1].startswith("variants popover: open")
            opener = scores[i - 1][1]
            assert opener.shows == opener.needed == ".st-key-mvariant input"
    popover = next(action for name, action in scores if name == "variants popover: open")
    wall, clock = bench_app._interact(page, popover)
    seen = page.evaluate("window.seen")
    assert clock["inputs"] == ["click button in st-key-variants_menu"]
    assert clock["t0_ms"] <= seen["popover"]
    # the harness's share before the input: from the page's time before Playwright's click
    assert clock["harness_before_input_s"] >= 0
    assert page.locator(popover.needed).count() == 1  # the run loop then skips the opener
    assert wall > 0

    pick = bench_app._select("mvariant", "metrics-py")
    bench_app._arm(page)
    pick(page)
    clock = bench_app._clock(page)
    seen = page.evaluate("window.seen")
    # two inputs, the box and the option: the clock starts at the option
    assert clock["inputs"] == ["click input in st-key-mvariant", "click li"]
    assert seen["box"] < clock["t0_ms"] <= seen["option"]
    assert clock["t1_ms"] > seen["changed"]
    assert page.locator(".st-key-mvariant input").input_value() == "metrics-py"


def test_the_wait_for_an_idle_background_ends_when_the_server_has_none(bench_app: Any) -> None:
    # --idle-before-revisits: a "server" with no worker below it is idle at the first look
    server = subprocess.Popen(["sleep", "30"])
    try:
        waited = bench_app._await_idle(server.pid, at_most=30, idle_for=0.1)
    finally:
        server.kill()
        server.wait()
    assert waited["idle"] is True


@contextlib.contextmanager
def websocket_server(answer: Any) -> Iterator[int]:
    """A websocket server on a free port of 127.0.0.1 whose handler calls ``answer(handler,
    message)`` for each message the page sends (on the server's loop)."""
    import asyncio
    import socket
    import threading

    import tornado.web
    import tornado.websocket

    class Handler(tornado.websocket.WebSocketHandler):
        def check_origin(self, origin: str) -> bool:
            return True  # the page is a file

        def on_message(self, message: str | bytes) -> None:
            answer(self, message)

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ready = threading.Event()
    loop = asyncio.new_event_loop()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        tornado.web.Application([(r"/ws", Handler)]).listen(port, address="127.0.0.1")
        ready.set()
        loop.run_forever()

    threading.Thread(target=serve, daemon=True).start()
    assert ready.wait(30)
    try:
        yield port
    finally:
        loop.call_soon_threadsafe(loop.stop)


def ws_page(port: int, then: str = "") -> str:
    """A page that sends on a click of #go, as a widget's change does, and writes each answer
    of the server into #out (then runs ``then`` in the click's handler)."""
    return f"""<!doctype html><html><body><button id="go">Go</button><div id="out">-</div>
<input id="box">
<script>
  const ws = new WebSocket('ws://127.0.0.1:{port}/ws');
  ws.binaryType = 'arraybuffer';
  window.answers = [];
  ws.addEventListener('open', () => {{ window.open_ = true; }});
  ws.addEventListener('message', () => {{
    window.answers.push(performance.now());
    document.getElementById('out').textContent = 'x' + window.answers.length; }});
  document.getElementById('go').addEventListener('click', () => {{
    window.clicked = performance.now(); ws.send('run'); {then} }});
</script></body></html>"""


def test_the_clock_splits_a_step_at_its_first_message_and_the_servers_first_answer(
        tmp_path: Path, bench_app: Any, playwright_driver: Any) -> None:
    """A page that sends on a click and changes when a websocket server answers: the clock says
    when the page sent (after the click) and when the first answer came (after that), as the
    typed switch's split reads them (sixteenth pass)."""
    with websocket_server(lambda handler, message: handler.write_message(message)) as port:
        (tmp_path / "ws.html").write_text(ws_page(port), encoding="utf-8")
        with watched_page(tmp_path / "ws.html", bench_app, playwright_driver) as pg:
            pg.wait_for_function("window.open_ === true")
            bench_app._arm(pg)
            pg.click("#go")
            clock = bench_app._clock(pg)
            clicked = pg.evaluate("window.clicked")
    assert clock["inputs"] == ["click button"]
    sent, heard = clock["first_sent_after_s"], clock["first_message_after_s"]
    assert sent is not None and heard is not None
    assert (clicked - clock["t0_ms"]) / 1000 <= sent + 0.0001  # sent by the click's handler
    assert sent <= heard <= clock["last_message_after_s"]  # the answer after the message


def forward_msgs() -> tuple[bytes, bytes]:
    """Two of Streamlit's own ``ForwardMsg``s as its server serializes them: a delta (an
    element drawn) and a fragment run's "script finished"."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    delta = ForwardMsg()
    delta.hash = "a" * 32
    delta.metadata.delta_path[:] = [0, 3]
    delta.delta.new_element.markdown.body = "Both annotations of document doc7, side by side"
    done = ForwardMsg()
    done.hash = "b" * 32
    done.metadata.delta_path[:] = [0]
    done.script_finished = ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    return delta.SerializeToString(), done.SerializeToString()


def test_a_switch_ends_when_its_runs_end_is_drawn_and_starts_at_its_click(
        tmp_path: Path, bench_app: Any, playwright_driver: Any) -> None:
    """The document switch's clock (seventeenth pass): its start is the click, not an input the
    page dispatches after it (here an input event 0.4 s later, after the server's answers,
    which the clock's last input would take, leaving no message after it); its end is the
    frame after the server's "script finished" message, which comes 0.3 s after the element
    the page drew first, not the first quiet moment after that element."""
    import asyncio

    delta, done = forward_msgs()

    def answer(handler: Any, message: str | bytes) -> None:
        loop = asyncio.get_event_loop()
        handler.write_message(delta, binary=True)
        # the run goes on without a change of the page, then ends
        loop.call_later(0.3, lambda: handler.write_message(done, binary=True))

    # an input the page dispatches of itself after the run (as a select box may)
    late_input = ("setTimeout(() => document.getElementById('box').dispatchEvent("
                  "new Event('input', {bubbles: true})), 400);")
    with websocket_server(answer) as port:
        (tmp_path / "run.html").write_text(ws_page(port, late_input), encoding="utf-8")
        with watched_page(tmp_path / "run.html", bench_app, playwright_driver) as pg:
            pg.wait_for_function("window.open_ === true")
            bench_app._arm(pg)
            pg.click("#go")
            pg.wait_for_function("window.answers.length === 2")
            pg.wait_for_timeout(200)  # the late input has come
            clock = bench_app._clock(pg, run=True, start="first")
            clicked, answers = pg.evaluate("[window.clicked, window.answers]")
            finished = pg.evaluate("window.__ssFinished")
            inputs = pg.evaluate("window.__ssClock.inputs.map((i) => i.t)")
    assert clock["inputs"] == ["click button", "input input"]
    # the last input came after the run's end: a clock started there saw no message after it
    assert inputs[1] > answers[1]
    assert clock["t0_ms"] <= clicked  # the click, captured before the page's handler
    # one "script finished" message read out of the two, with its status (3: a fragment's run)
    assert [f["status"] for f in finished] == [3] and clock["finished_statuses"] == [3]
    assert abs(finished[0]["t"] - answers[1]) < 5
    assert clock["no_run_seen"] is False
    assert clock["run_finished_after_s"] == round((finished[0]["t"] - clock["t0_ms"]) / 1000, 4)
    # the end: after the run's end is drawn, not at the first answer's frame
    assert clock["t1_ms"] > answers[1] > answers[0]
    assert clock["in_page_s"] == round((clock["t1_ms"] - clock["t0_ms"]) / 1000, 4)
    assert clock["first_message_after_s"] is not None


def test_a_switch_whose_run_never_ends_is_reported_with_no_time(
        tmp_path: Path, bench_app: Any, playwright_driver: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that answers with a delta and never says the run finished: the clock gives no
    time and says so (``no_run_seen``), where it used to read the span to the delta's frame."""
    delta, _done = forward_msgs()
    monkeypatch.setattr(bench_app, "RUN_LATE_S", 1.0)
    with websocket_server(lambda handler, message: handler.write_message(delta, binary=True)
                          ) as port:
        (tmp_path / "norun.html").write_text(ws_page(port), encoding="utf-8")
        with watched_page(tmp_path / "norun.html", bench_app, playwright_driver) as pg:
            pg.wait_for_function("window.open_ === true")
            bench_app._arm(pg)
            pg.click("#go")
            pg.wait_for_function("window.answers.length === 1")
            clock = bench_app._clock(pg, run=True, start="first")
            bench_app._arm(pg)
            pg.click("#go")
            pg.wait_for_function("window.answers.length === 2")
            plain = bench_app._clock(pg)  # a step that starts no run: read as before
    assert clock["no_run_seen"] is True and clock["in_page_s"] is None
    assert clock["run_finished_after_s"] is None and clock["finished_statuses"] == []
    assert clock["last_message_after_s"] is not None  # the delta came, and is not the end
    assert plain["in_page_s"] is not None and "no_run_seen" not in plain
    summary = bench_app._clocked([clock, plain], [0.5, 0.4])
    assert summary["no_run_seen"] == 1 and summary["in_page_s"]["n"] == 1
    assert [e["no_run_seen"] for e in summary["each"]] == [True, None]
