"""``ui.curation.index`` keeps at most 64 proposals' indexes in a dict the sessions' script
threads share; its eviction and insertion run under a lock (a review of the twentieth pass: two
threads evicting at once could pop the same key, a ``KeyError`` on a page, or leave 65)."""

from __future__ import annotations

import threading

from core.analysis.consensus import Consensus
from core.model import AnnotationSet
from tests.racing import race
from ui import curation


def _proposal(n: int) -> Consensus:
    return Consensus(AnnotationSet(f"consensus-{n}", {}, "gold"), (), ("a", "b"))


def test_indexes_built_by_many_threads_at_once_stay_within_the_bound() -> None:
    curation._INDEX.clear()
    proposals = [_proposal(n) for n in range(400)]
    start = threading.Barrier(8)
    failed: list[BaseException] = []

    def build(part: list[Consensus]) -> None:
        start.wait()
        try:
            for p in part:
                assert curation.index(p).by_key == {}
        except BaseException as exc:  # reported below, on the test's thread
            failed.append(exc)

    race([threading.Thread(target=build, args=(proposals[i::8],)) for i in range(8)])
    assert failed == []
    assert len(curation._INDEX) <= 64
    last = proposals[-1]  # still held: found again, not rebuilt
    assert curation.index(last) is curation.index(last)
