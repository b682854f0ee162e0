"""The first load's path after the reading copy (docs/performance.md, issue 29, seventeenth
pass): :func:`ui.text_policy.same_texts` skips the check of the first file's texts (nothing to
differ from) and adds a file's texts with a comprehension, or not at all when it knows no new
document, with the same reports as the rule before (a differential test against it); and
:class:`ui.parsing.InChild` hands its result back through a file in memory, mapped, instead of
a pipe: the same values, the file closed, ``None`` for a child that dies while it writes
(which path ran, by its ``transport``, never a clock)."""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model import AnnotationSet, Span
from core.model.errors import Diagnostic, InputError
from core.model.texts import reconcile
from ui import text_policy
from ui.parsing import InChild
from ui.state import FileReport

TEXTS = ["Mayor Ines spoke.", "Mayor  Ines spoke.", "Mayor Ines spoke!", "Blue Smoke.", None]
DOCS = [f"d{i}" for i in range(5)]


def _same_texts_before(reports: list[FileReport]) -> list[FileReport]:
    """The rule as it was before this pass: every file reconciled, the texts added one by one."""
    order = sorted(range(len(reports)), key=lambda i: reports[i].role != "gold")
    reports = text_policy.align_annotators(reports, order)
    seen: dict[str, str | None] = {}
    owner: dict[str, str] = {}
    out = list(reports)
    for i in order:
        rep = reports[i]
        if not rep.ok:
            continue
        try:
            sets, carried = reconcile(seen, rep.texts, rep.sets, here=rep.file, there=owner)
        except InputError as exc:
            error = Diagnostic(rep.file, str(exc).removeprefix(f"{rep.file}: ")
                               + text_policy.ANNOTATOR_HINT, severity="error")
            out[i] = dataclasses.replace(rep, sets=(), texts={}, error=error)
            continue
        if carried:
            own = {d: t if t is None or seen.get(d) is None else seen[d]
                   for d, t in rep.texts.items()}
            notes = tuple(Diagnostic(rep.file, w.removeprefix(f"{rep.file}: ")) for w in carried)
            out[i] = rep = dataclasses.replace(rep, sets=tuple(sets), texts=own,
                                               diagnostics=rep.diagnostics + notes)
        for doc, text in rep.texts.items():
            if text is not None and seen.get(doc) is None:
                seen[doc], owner[doc] = text, rep.file
    return out


def _report(k: int, role: str, texts: dict[str, str | None]) -> FileReport:
    spans = {d: (Span(6, 10, "PER"),) for d, t in texts.items() if t is not None}
    return FileReport(f"f{k}.json", "json", role, f"f{k}",  # type: ignore[arg-type]
                      texts=texts, sets=(AnnotationSet(f"f{k}", spans, role),))  # type: ignore[arg-type]


def _files() -> st.SearchStrategy[list[FileReport]]:
    one = st.tuples(st.sampled_from(["gold", "system"]),
                    st.dictionaries(st.sampled_from(DOCS), st.sampled_from(TEXTS), max_size=5))
    return st.lists(one, min_size=1, max_size=4).map(
        lambda files: [_report(k, role, texts) for k, (role, texts) in enumerate(files)])


def _seen(reports: list[FileReport]) -> list[tuple[Any, ...]]:
    return [(r.file, dict(r.texts), r.error, r.diagnostics,
             [(s.name, {d: tuple(v) for d, v in s.spans.items()}) for s in r.sets])
            for r in reports]


@settings(max_examples=300, deadline=None)
@given(_files())
def test_same_texts_gives_the_reports_of_the_rule_before(reports: list[FileReport]) -> None:
    assert _seen(text_policy.same_texts(reports)) == _seen(_same_texts_before(reports))


def test_a_prediction_of_the_gold_texts_adds_none_and_one_of_another_text_is_refused() -> None:
    gold = _report(0, "gold", {"d0": "Mayor Ines spoke.", "d1": None})
    same = _report(1, "system", {"d0": "Mayor Ines spoke.", "d1": "Blue Smoke."})
    other = _report(2, "system", {"d0": "Mayor Ines spoke!"})
    spaced = _report(3, "system", {"d0": "Mayor  Ines spoke."})
    out = text_policy.same_texts([same, other, gold, spaced])
    assert [r.ok for r in out] == [True, False, True, True]
    assert "a different text than in f0.json" in out[1].error.message  # type: ignore[union-attr]
    assert out[3].texts == {"d0": "Mayor Ines spoke."}  # carried onto the gold's text
    assert out[3].sets[0].spans["d0"] == (Span(6, 9, "PER"),)  # " Ine" carried: " In"
    seen: dict[str, str] = {"d0": "Mayor Ines spoke."}
    owner = {"d0": "f0.json"}
    text_policy._adopt(seen, owner, {"d0": "Mayor Ines spoke."}, "f1.json")  # nothing new
    assert (seen, owner) == ({"d0": "Mayor Ines spoke."}, {"d0": "f0.json"})


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="memfd_create is Linux's")
def test_in_child_hands_a_large_result_back_through_a_file_in_memory() -> None:
    # far over a pipe's 64 KiB
    value: dict[str, Any] = {"texts": {f"doc{i}": "é" * i for i in range(2000)},
             "starts": np.arange(300_000, dtype=np.int64), "text": "x" * 1_000_000}
    before = _open_fds()
    child = InChild(lambda: value)
    assert child.transport == "memfd"
    back: Any = child.result()
    assert back is not None and back["texts"] == value["texts"] and back["text"] == value["text"]
    assert np.array_equal(back["starts"], value["starts"])
    back["starts"][0] = 7  # the array owns its memory: writable, the map closed
    assert _open_fds() == before  # the file closed


def test_in_child_falls_back_to_a_temporary_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "memfd_create", raising=False)
    before = _open_fds()
    child = InChild(lambda: ["a", b"b" * 200_000, np.ones(3)])
    assert child.transport == "tempfile"
    back: Any = child.result()
    assert back is not None and back[:2] == ["a", b"b" * 200_000]
    assert np.array_equal(back[2], np.ones(3))
    assert _open_fds() == before


class _DiesWhilePickled:
    def __reduce__(self) -> Any:
        os._exit(3)  # the child dies with part of its result written


def test_in_child_that_dies_while_it_writes_gives_none_and_a_cancel_closes_the_file() -> None:
    before = _open_fds()
    assert InChild(lambda: ["x" * 3_000_000, _DiesWhilePickled()]).result() is None
    assert _open_fds() == before
    child = InChild(lambda: os.read(os.pipe()[0], 1))  # never returns
    child.cancel()
    assert _open_fds() == before


def test_in_child_whose_fork_fails_closes_its_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.fork`` refused (EAGAIN: too many processes; ENOMEM) raised out of ``InChild`` with
    the result file open, once per load (review18); the caller's error is the fork's."""
    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    before = _open_fds()
    monkeypatch.setattr(os, "fork", refused)
    with pytest.raises(BlockingIOError):
        InChild(lambda: 1)
    assert _open_fds() == before
