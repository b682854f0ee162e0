"""``--engine dask`` against a scheduler without workers (``core.engines.sharded.run_jobs``):
Dask waits for a worker to join for ever, and ``score --engine dask --scheduler ADDRESS`` never
returned when none did. The client now gives up with an error naming the cause once the
scheduler has had no worker for ``NO_WORKER_S`` while shards wait, and cancels the shards; a
scheduler with a worker computes them as before (docs/robustness.md, "Waits that end")."""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import pytest

from core.engines import sharded
from core.model.errors import InputError


def _shard(x: int) -> Any:
    return types.SimpleNamespace(error=None, value=x * 2)


@pytest.fixture
def no_worker() -> Iterator[Any]:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster, \
            Client(cluster.scheduler_address, timeout="20s") as client:
        yield client, cluster


def test_a_scheduler_without_workers_is_an_error_not_a_wait_for_ever(
        no_worker: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, _ = no_worker
    monkeypatch.setattr(sharded, "NO_WORKER_S", 0.3)
    monkeypatch.setattr(sharded, "WORKERS_LOOK_S", 0.1)
    with pytest.raises(InputError, match=r"no worker for 0\.3 s with 3 shard jobs waiting"):
        sharded.run_jobs(client, _shard, [1, 2, 3])


def test_the_shards_run_once_a_worker_is_there(
        no_worker: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, cluster = no_worker
    monkeypatch.setattr(sharded, "WORKERS_LOOK_S", 0.1)
    cluster.scale(1)
    client.wait_for_workers(1, timeout=30)
    assert [o.value for o in sharded.run_jobs(client, _shard, [1, 2, 3])] == [2, 4, 6]
