"""Documents with three sets or more (bugleft26): the page compares two sets at a time; a line
under the pickers says how many sets and pairs there are and which one is shown, and a button
steps to the next pair."""

from __future__ import annotations

import uuid

from tests.app.conftest import app_on_sets
from tests.app.test_annotators_constant_labels import _sets
from ui import state

PAGE = "pages/documents.py"


def _pair(at) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    return at.selectbox(key=state.K_SET_A).value, at.selectbox(key=state.K_SET_B).value


def test_three_annotators_are_stepped_through_pair_by_pair() -> None:
    sets, texts = _sets()
    at = app_on_sets(sets, texts, PAGE, key=f"test:pairs:{uuid.uuid4().hex}")
    assert not at.exception, [e.value for e in at.exception]
    assert _pair(at) == ("A", "B")
    (line,) = [c.value for c in at.caption if "pairs:" in c.value]
    assert line.startswith("3 annotators, 3 pairs: this is pair 1, A · B.")
    seen = []
    for _ in range(3):
        at.button(key="doc_next_pair").click().run()
        assert not at.exception, [e.value for e in at.exception]
        seen.append(_pair(at))
    assert seen == [("A", "C"), ("B", "C"), ("A", "B")]  # the last pair, then the first again
    (line,) = [c.value for c in at.caption if "pairs:" in c.value]
    assert line.startswith("3 annotators, 3 pairs: this is pair 1, A · B.")
    assert at.button(key="doc_next_pair").label == "Next pair: A · C"


def test_two_sets_have_no_pair_line() -> None:
    sets, texts = _sets()
    at = app_on_sets(sets[:2], texts, PAGE, key=f"test:pairs:{uuid.uuid4().hex}")
    assert not at.exception, [e.value for e in at.exception]
    assert not [c.value for c in at.caption if "pairs:" in c.value]
    assert not [b for b in at.button if b.key == "doc_next_pair"]
