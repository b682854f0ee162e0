"""The cycle collector's policy (ui.memory.paused, long_lived, settle): a block that builds what
stays runs without the collector's passes, then the garbage is collected once and what is alive
frozen; the worker runs each job so, and the server unpickles the worker's messages paused and
settles after a result (docs/performance.md, issue 29, twelfth pass)."""

from __future__ import annotations

import gc
import tempfile
import threading
import weakref
from collections.abc import Iterator
from multiprocessing import Pipe
from pathlib import Path

import pytest

from tests.servers import worker_client
from ui import gamma_worker, jobs, memory


class _Node:
    """An object that can sit in a reference cycle (reference counting alone never frees it)."""

    def __init__(self) -> None:
        self.other: _Node | None = None


class _CollectorState:
    """Unpickles as whether the cycle collector is on at that moment."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return gc.isenabled, ()


def _frozen(obj: object) -> bool:
    """Whether ``obj`` is out of the collector's generations (frozen): gc.get_objects lists the
    three generations, not the permanent one."""
    return gc.is_tracked(obj) and not any(o is obj for o in gc.get_objects())


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    """Each test starts with the collector on and gives back what it froze."""
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    if not was:
        gc.disable()


def test_a_long_lived_block_runs_without_the_collector_then_frees_cycles_and_freezes_the_rest(
        ) -> None:
    before = memory.settled()["count"]
    seen: list[bool] = []
    with memory.long_lived():
        seen.append(gc.isenabled())
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a cycle, dropped below: only the collector frees it
        dead = weakref.ref(a)
        kept = [_Node() for _ in range(1_000)]
        del a, b
        seen.append(dead() is not None)  # nothing collected it inside the block
    assert seen == [False, True]
    assert gc.isenabled()
    assert dead() is None  # the settle's collection freed the cycle
    assert memory.settled()["count"] == before + 1
    assert memory.settled()["frozen"] >= len(kept) and gc.get_freeze_count() >= len(kept)
    assert all(_frozen(x) for x in (kept, kept[0], kept[-1]))


def test_paused_leaves_the_collector_off_inside_and_freezes_nothing() -> None:
    before = memory.settled()["count"]
    with memory.paused():
        assert not gc.isenabled()
        kept = [_Node()]
    assert gc.isenabled()
    assert memory.settled()["count"] == before
    assert not _frozen(kept)


def test_an_inner_block_leaves_the_collector_and_the_settle_to_the_outer_one() -> None:
    before = memory.settled()["count"]
    with memory.long_lived():
        with memory.long_lived():
            pass
        assert not gc.isenabled()  # the inner block did not turn it back on
        assert memory.settled()["count"] == before  # nor settled
    assert gc.isenabled()
    assert memory.settled()["count"] == before + 1


def test_a_collector_turned_off_before_stays_off() -> None:
    gc.disable()
    with memory.long_lived():
        pass
    assert not gc.isenabled()


def test_the_server_unpickles_paused_and_freezes_nothing() -> None:
    here, there = Pipe()
    before = memory.settled()["count"]
    there.send(("progress", 7, _CollectorState(), 10))
    assert jobs._received(here) == ("progress", 7, False, 10)  # unpickled with it off
    assert gc.isenabled() and memory.settled()["count"] == before  # a progress: no settle
    result = {"rows": [_Node() for _ in range(100)], "on": _CollectorState()}
    there.send(("done", 7, result))
    kind, job, got = jobs._received(here)
    assert (kind, job, got["on"], len(got["rows"])) == ("done", 7, False, 100)
    # no freeze in the server: other sessions' page runs are alive meanwhile, and a cycle
    # among them, frozen, would outlive them (a server up for days would grow per result)
    assert gc.isenabled() and memory.settled()["count"] == before
    assert not _frozen(got["rows"][0])


def test_a_session_alive_while_results_arrive_is_freed_once_dropped() -> None:
    """What a page run holds while a worker result arrives (a cycle, as Streamlit's reruns
    leave) is collected once dropped: a server up for days does not keep it."""
    here, there = Pipe()
    session = _Node()
    session.other = _Node()
    session.other.other = session
    gone = weakref.ref(session)
    for job in range(3):
        there.send(("done", job, {"rows": [_Node() for _ in range(10)]}))
        jobs._received(here)
    del session
    gc.collect()
    assert gone() is None


def test_the_worker_runs_each_job_long_lived(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamma_worker, "_QUEUE", None)  # serve() sets it; given back after
    key = b"k" * 32
    with tempfile.TemporaryDirectory() as tmp:
        address = str(Path(tmp) / "socket")
        worker = threading.Thread(target=gamma_worker.serve, args=(address, key), daemon=True)
        worker.start()
        before = memory.settled()["count"]
        with worker_client(address, key) as conn:

            def answer() -> tuple[object, ...]:
                """The job's answer, after its progress messages ("started" among them)."""
                while (message := conn.recv())[0] == "progress":
                    pass
                return message

            conn.send((1, "hold", {"imports": ["json"]}, []))
            assert answer() == ("done", 1, None)
            conn.send((2, "no such task", {}, []))
            kind, job, exc = answer()
            assert (kind, job) == ("error", 2) and "unknown background task" in str(exc)
            # each job's answer is sent first, its settle follows: the first job's is done
            # once the second job is answered, the second's once serve() has returned
            assert memory.settled()["count"] >= before + 1
        worker.join(timeout=30)
        assert memory.settled()["count"] == before + 2  # a failed job settles too
        assert not worker.is_alive()  # the connection closed: serve() returned
