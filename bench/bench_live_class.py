"""A live class under load: N students (40 by default) answer at once, one teacher watches.

A fresh ``streamlit run app.py`` on loopback with a store of its own; a class opened in that
store (:func:`core.store.classes.open_class`) on exercise ``--seed``. The teacher is a real
Chromium page on ``/learn?class=CODE&teacher=KEY``. Each student is a session of its own driven
through **Streamlit's websocket protocol** (``/_stcore/stream``, the ``BackMsg`` /
``ForwardMsg`` protobufs of the installed Streamlit), as the browser front end drives it: it
opens ``/learn?class=CODE``, fills the nickname form and joins, then, like a phone, reruns the
page's live fragment every time the server's ``auto_rerun`` asks (the answers page polls the
class every second). Forty Chromium contexts would measure Chromium on this 2-core machine
shared with other work, not the server; the server sees the same script runs either way.

When every student has joined, all send their answers at the same moment (the worst case: one
burst). Measured:

* **ack latency**: from a student's "Send my answers" to the end of that script run, whose page
  says "Received at ..." (the store has committed the answers);
* **teacher refresh delay**: from the last acknowledgement to the moment the teacher's page
  shows every answer (its "Answered" count reaches N);
* **server RSS**: the server process's resident memory (``/proc/PID/status``), sampled every
  0.25 s, before the students and at its peak.

The issue's bounds: RSS < 4 GB, each answer acknowledged < 1 s, the teacher's view ≤ 2 s after
the last answer. The machine's load average is printed with the results. Bounded in time
(``--timeout``), loopback only.

Run: ``python bench/bench_live_class.py [--students 40] [--seed 3] [--shot PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from core.store import classes, connect  # noqa: E402
from core.teaching import exercises  # noqa: E402
from tests.servers import running  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Student:
    """One student's websocket session: the widget ids the server sent, the values it holds (the
    front end sends every widget's value on every rerun) and the runs it waits for."""

    name: str
    url: str
    query: str
    ws: Any = None
    ids: dict[str, str] = field(default_factory=dict)  # widget key -> widget id
    values: dict[str, str] = field(default_factory=dict)  # widget id -> text
    fragments: dict[str, float] = field(default_factory=dict)  # fragment id -> interval
    finished: asyncio.Queue[tuple[float, int, list[str]]] = field(
        default_factory=asyncio.Queue)
    texts: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    polls: int = 0

    async def open(self) -> None:
        import websockets

        host = self.url.split("//", 1)[1]
        self.ws = await websockets.connect(f"ws://{host}/_stcore/stream",
                                           subprotocols=["streamlit"],  # type: ignore[list-item]
                                           origin=self.url, max_size=None)  # type: ignore[arg-type]
        asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        async for raw in self.ws:
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                sub = getattr(el, el.WhichOneof("type") or "empty", None)
                wid = getattr(sub, "id", "")
                if wid and "-" in wid:
                    self.ids[wid.split("-", 2)[2]] = wid
                for attr in ("body",):
                    if getattr(sub, attr, ""):
                        self.texts.append(getattr(sub, attr))
            elif kind == "auto_rerun":
                self.fragments[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
            elif kind == "script_finished":
                await self.finished.put((time.perf_counter(), msg.script_finished, self.texts))
                self.texts = []

    async def run(self, triggers: tuple[str, ...] = (), fragment: str = "",
                  expect: str = "") -> float:
        """One rerun (the whole page, or ``fragment``) with every held value and ``triggers``
        pressed; returns the seconds until its script run finished (and fails when the page
        does not show ``expect``)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        async with self.lock:  # one run at a time per session, as the front end does
            msg = BackMsg()
            state = msg.rerun_script
            state.query_string = self.query
            state.page_name = "learn"
            if fragment:
                state.fragment_id = fragment
                state.is_auto_rerun = True
            for wid, text in self.values.items():
                w = state.widget_states.widgets.add()
                w.id, w.string_value = wid, text
            for wid in triggers:
                w = state.widget_states.widgets.add()
                w.id, w.trigger_value = wid, True
            while not self.finished.empty():
                self.finished.get_nowait()
            t0 = time.perf_counter()
            await self.ws.send(msg.SerializeToString())
            while True:
                t1, status, texts = await self.finished.get()
                if status != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    break
            if expect and not any(expect in t for t in texts):
                raise AssertionError(f"{self.name}: the page did not say {expect!r}: "
                                     f"{[t[:80] for t in texts]}")
            return t1 - t0

    async def poll(self, stop: asyncio.Event) -> None:
        """Rerun the live fragment at the interval the server asked for, as a phone does."""
        while not stop.is_set():
            interval = min(self.fragments.values(), default=1.0)
            await asyncio.sleep(interval)
            for frag in list(self.fragments):
                if not stop.is_set():
                    await self.run(fragment=frag)
                    self.polls += 1


async def scenario(url: str, code: str, key: str, seed: int, n: int, pid: int,
                   shot: str | None) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    sol = exercises.solve(exercises.generate(seed))
    choices = {(m, q): [exercises.fraction_text(v).split(" ")[0]
                        for v in {sol.truths[k].value(q) for k in exercises.LENGTHS["long"]}
                        if v is not None]
               for m in exercises.LENGTHS["short"] for q in exercises.QUANTITIES
               if sol.truths[m].value(q) is not None}
    rss: list[float] = []
    stop = asyncio.Event()

    async def sample() -> None:
        while not stop.is_set():
            rss.append(rss_mb(pid))
            await asyncio.sleep(0.25)

    sampler = asyncio.create_task(sample())
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM,
                                          args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = await (await browser.new_context(viewport={"width": 1440, "height": 1000})
                      ).new_page()
        await page.goto(f"{url}/learn?class={code}&teacher={key}")
        await page.get_by_text("The class's answers").first.wait_for(timeout=90_000)
        rss_before = rss_mb(pid)

        students = [Student(f"student {i + 1:02d}", url, f"class={code}") for i in range(n)]
        await asyncio.gather(*(s.open() for s in students))
        await asyncio.gather(*(s.run() for s in students))  # the join form
        for s in students:
            s.values = {s.ids["live_nickname"]: s.name}
        await asyncio.gather(*(s.run((s.ids["FormSubmitter:live_join-Join"],))
                               for s in students))
        for s in students:
            s.values = {}
        pollers = [asyncio.create_task(s.poll(stop)) for s in students]
        t_polls = time.perf_counter()
        rng = random.Random(seed)
        sends = []
        for s in students:
            for (m, q), options in choices.items():
                s.values[s.ids[f"live_{q.lower()}::{code}::{seed}::{m}"]] = rng.choice(options)
            sends.append(s.run((s.ids[f"live_send::{seed}"],), expect="Received at"))
        await asyncio.sleep(3)  # every phone polling, as in class while students think
        t_burst = time.perf_counter()
        acks = await asyncio.gather(*sends)
        t_last_ack = t_burst + max(acks)
        answered = page.locator('[data-testid="stMetric"]').nth(1)
        await page.wait_for_function(
            "(n) => { const m = document.querySelectorAll('[data-testid=\"stMetricValue\"]');"
            " return m.length > 1 && m[1].textContent.trim() === String(n); }", arg=n,
            polling=50, timeout=60_000)
        refresh = time.perf_counter() - t_last_ack
        shown = await answered.inner_text()
        if shot:
            await page.screenshot(path=shot, full_page=True)
        stop.set()
        for task in pollers:
            task.cancel()
        await browser.close()
    sampler.cancel()
    polled = time.perf_counter() - t_polls
    return {"students": n, "teacher_shows": shown.split()[-1],
            "student_fragment_reruns_per_s": round(sum(s.polls for s in students) / polled, 1),
            "ack_s": {"median": round(statistics.median(acks), 3),
                      "p90": round(sorted(acks)[int(0.9 * (n - 1))], 3),
                      "max": round(max(acks), 3)},
            "teacher_refresh_after_last_ack_s": round(refresh, 3),
            "server_rss_mb": {"before_students": round(rss_before, 1),
                              "peak": round(max(rss), 1)}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300, help="seconds for the whole run")
    ap.add_argument("--shot", help="save the teacher's page at the end (PNG)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store.sqlite"
        conn = connect(store)
        cls, key = classes.open_class(conn, args.seed, "short")
        conn.close()
        env = dict(os.environ, SPANSCOPE_STORE=str(store))
        load0 = os.getloadavg()[0]
        with running([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")],
                     cwd=ROOT, env=env, timeout=90) as server:
            result = asyncio.run(asyncio.wait_for(
                scenario(server.url, cls.code, key, args.seed, args.students,
                         server.process.pid, args.shot), args.timeout))
    result["load_average_1min"] = {"before": round(load0, 2),
                                   "after": round(os.getloadavg()[0], 2)}
    result["cores"] = os.cpu_count()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
