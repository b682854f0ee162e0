"""Issue 18 §3: the server stops within 5 s of SIGTERM after opening a large corpus.

Before ``ui/shutdown.py`` the interpreter's finalisation freed the corpus caches object by
object after the server had stopped (5-6 s for 20,000 documents on the development machine,
more on a busy one). The corpus here is generated (10,000 documents, 100,000 spans per set);
the Annotators page is opened, which parses, scores and queues agreement work.

The 5 s are the server's CPU time from SIGTERM to its end (what freeing the caches cost, and
what an idle machine's clock shows): on a 2-core machine shared with other work the wall time of
the same shutdown is that CPU time stretched by the load, so the wall clock only bounds a server
that waits for something (30 s).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.servers import running

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.e2e, pytest.mark.slow]

WORDS = ["the", "mayor", "reckless", "plan", "will", "bankrupt", "every", "family", "city",
         "critics", "say", "reform", "nothing", "disaster", "waiting", "happen"]
LABELS = ["Loaded Language", "Doubt", "Flag-waving", "Slogans"]
VISIT_MS = 240_000
"""How long a visit of the large corpus may take (parsed and scored on a cold cache)."""


def _corpus(folder: Path, n_docs: int, per_doc: int) -> None:
    rng = random.Random(0)
    folder.mkdir(parents=True)
    texts = [" ".join(rng.choice(WORDS) for _ in range(80)) for _ in range(n_docs)]
    for name in ("gold", "system_a", "annotator_1", "annotator_2"):
        docs = []
        for i, text in enumerate(texts):
            labels = []
            for _ in range(per_doc):
                start = rng.randrange(len(text) - 30)
                labels.append({"technique": rng.choice(LABELS), "start": start,
                               "end": start + rng.randrange(1, 30)})
            docs.append({"id": f"d{i}", "text": text, "labels": labels})
        (folder / f"{name}.json").write_text(json.dumps(docs), encoding="utf-8")


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system, every thread) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _reap(pid: int, timeout_s: float) -> tuple[float, float]:
    """Wait for child ``pid`` to end; its CPU seconds in all (user and system, its waited-for
    children's included) and the wall seconds waited. Fails after ``timeout_s``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        done, _status, usage = os.wait4(pid, os.WNOHANG)
        if done == pid:
            return usage.ru_utime + usage.ru_stime, time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"the server had not stopped {timeout_s:.0f} s after SIGTERM")


def test_server_stops_within_5_s_of_sigterm_on_a_large_corpus(
    browser: Any, tmp_path: Path, st_ui: SimpleNamespace
) -> None:
    _corpus(tmp_path / "data" / "big", 10_000, 10)
    env = dict(os.environ, SPANSCOPE_DATA_DIR=str(tmp_path / "data"), HOME=str(tmp_path))
    with running([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")], cwd=ROOT,
                 env=env, timeout=60) as server, \
            st_ui.session(browser, {"width": 1400, "height": 1000}) as page:
        page.goto(server.url + "/scores?sample=big")
        page.get_by_test_id("stDataFrame").first.wait_for(timeout=VISIT_MS)
        page.goto(server.url + "/annotators?sample=big")
        page.get_by_role("heading", name="Pairwise agreement").first.wait_for(timeout=VISIT_MS)
        st_ui.wait_idle(page, VISIT_MS)  # the visit's run has computed what it computes
        before = _cpu_s(server.process.pid)
        server.process.send_signal(signal.SIGTERM)
        cpu, wall = _reap(server.process.pid, 30)  # the fixture's own wait then finds it gone
        assert cpu - before < 5.0, (f"the server spent {cpu - before:.1f} s of CPU stopping "
                                    f"after SIGTERM ({wall:.1f} s of wall time)")
