"""Every warning names its own kind where it is made, so that rewording a message cannot count
it under another kind (bugleft18). The phrase table (:data:`core.model.errors.WARNING_KINDS`)
stays only as the fallback for a message read back as text (a JSON list of warnings); here it
is emptied, and the readers' scan and the commands of ``test_warning_kinds.py`` must still
count no warning as ``other``. Each kind of the table is named by an emitter in ``core/``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import core.model.errors as errors
from core.formats import load_path
from core.model.errors import SpanScopeError, expand_diagnostics
from tests.model.test_warning_kinds import CASES, GROUPS, ROOT, _inputs, _kinds

CORE = ROOT / "core"


@pytest.fixture
def no_phrases(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No kind read off a message's words: only the kinds the emitters name."""
    monkeypatch.setattr(errors, "WARNING_KINDS", ())
    yield


@pytest.mark.parametrize("group", GROUPS, ids=[f"{p.parent.name}/{p.name}" for p in GROUPS])
def test_every_reader_warning_names_its_kind(group: Path, no_phrases: None) -> None:
    others = []
    for path in _inputs(group):
        try:
            loaded = load_path(path)
        except (SpanScopeError, OSError):
            continue
        others += [f"{path.relative_to(ROOT)}: {d}" for d in expand_diagnostics(loaded.diagnostics)
                   if d.kind == "other"]
    assert not others, "warnings whose emitter names no kind:\n" + "\n".join(others)


@pytest.mark.parametrize(("command", "build", "kind"), CASES,
                         ids=[f"{c}-{k}" for c, _, k in CASES])
def test_every_commands_warnings_name_their_kinds(
        command: str, build: Callable[[Path], list[str]], kind: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], no_phrases: None) -> None:
    """``warning_counts`` of the JSON, and the ``[kind]`` of the lines of ``convert`` and
    ``report`` (bugleft19)."""
    counts = _kinds(build(tmp_path), capsys)
    assert kind in counts and "other" not in counts, counts


KINDS = sorted({kind for _, kind in errors.WARNING_KINDS})


def _named_kinds() -> set[str]:
    """The kinds ``core/`` names where it makes a warning: ``kind="..."`` (a ``Diagnostic`` or
    ``Loaded.warn``), a :class:`~core.model.errors.KindedText`'s second argument, or a
    module constant such a call uses (``BEYOND = "beyond-text"``)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in CORE.rglob("*.py")
                     if p.name != "errors.py" or p.parent.name != "model")
    named = set(re.findall(r'\bkind="([a-z-]+)"', text))
    for call in re.finditer(r"KindedText\(", text):  # its kind: the first '"kind")' after it
        kind = re.search(r',\s*"([a-z]+(?:-[a-z]+)*)"\s*\)', text[call.end():call.end() + 900])
        named |= {kind.group(1)} if kind else set()
    named |= set(re.findall(r'^[A-Z_]+ = "([a-z]+(?:-[a-z]+)*)"', text, re.M))
    return named


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_named_by_an_emitter(kind: str) -> None:
    assert kind in _named_kinds(), f"no emitter in core/ names the kind {kind!r}"
