"""Docs as tests: every command written in README.md and docs/*.md that uses the bundled sample
data or the test data runs, verbatim, and succeeds.

A command is a line of a code block (fenced or indented) or an inline code span that starts
with ``python -m core``, ``python3 -m core`` or ``spanscope`` (backslash continuations joined,
a trailing ``# comment`` dropped). It uses bundled data when it names a path under
``sample_data/`` or ``tests/data/``; the others hold placeholders (``GOLD PRED``) and cannot run
as written. The commands of one code block run in order in one scratch folder, so that a block
that writes ``consensus.json`` and then validates it works as the reader would type it; every
command of such a block runs, not only those naming bundled data. ``app`` commands start a
server and are left to the launcher tests.

A command in the docs that fails (a renamed option, a moved sample file, a changed default) is
a failing test here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COMMAND = re.compile(r"^(?:\$\s+)?((?:python3? -m core|spanscope)\s.*)$")
BUNDLED = re.compile(r"(?:^|[\s=])(?:sample_data|tests/data)/")
FENCE = re.compile(r"^\s*```")
INLINE = re.compile(r"`((?:python3? -m core|spanscope)\s[^`]*)`")


@dataclass(frozen=True)
class Block:
    """The commands of one code block (or one inline code span), where they are written."""

    doc: str
    line: int
    commands: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def _commands(lines: list[str]) -> tuple[str, ...]:
    """The commands among the lines of one code block."""
    out: list[str] = []
    pending = ""
    for raw in lines:
        line = raw.strip()
        if pending:
            line = pending + " " + line
            pending = ""
        elif not COMMAND.match(line):
            continue
        if line.endswith("\\"):
            pending = line[:-1].rstrip()
            continue
        command = COMMAND.match(line)
        assert command is not None
        out.append(re.sub(r"\s+#\s.*$", "", command.group(1)).strip())
    return tuple(out)


def blocks(path: Path) -> list[Block]:
    """Every code block and inline code span of a Markdown file that holds a command."""
    doc = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            start = i
            i += 1
            while i < len(lines) and not FENCE.match(lines[i]):
                i += 1
            found.append(Block(doc, start + 1, _commands(lines[start + 1:i])))
        elif lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            start = i
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                i += 1
            found.append(Block(doc, start + 1, _commands(lines[start:i])))
            continue
        else:
            # An inline code span may run over a line break: join a paragraph's lines.
            start = i
            para = []
            while (i < len(lines) and lines[i].strip() and not FENCE.match(lines[i])
                   and not lines[i].startswith("    ")):
                para.append(lines[i].strip())
                i += 1
            for match in INLINE.finditer(" ".join(para)):
                found.append(Block(doc, start + 1, (match.group(1),)))
            if i == start:
                i += 1
            continue
        i += 1
    return [b for b in found if b.commands]


def runnable(block: Block) -> bool:
    """Whether the block names bundled or test data (and is not a server start)."""
    return (any(BUNDLED.search(c) for c in block.commands)
            and not any(re.match(r"(?:python3? -m core|spanscope) app\b", c)
                        for c in block.commands))


ALL_BLOCKS = [b for doc in DOCS for b in blocks(doc)]
RUNNABLE = [b for b in ALL_BLOCKS if runnable(b)]


def test_the_docs_commands_are_found() -> None:
    """The extraction finds the commands the docs are known to hold, so that a change in how
    they are written cannot empty the list below without notice."""
    found = {c for b in RUNNABLE for c in b.commands}
    assert ("python -m core validate sample_data/formats/ptc_gold" in found)
    assert any(c.startswith("python -m core adjudicate sample_data/propaganda/annotator_*.json")
               and c.endswith("--decisions decisions.csv") for c in found)
    assert any("tests/data/mafalda/results/gpt-3.5_level_2_results.jsonl" in c for c in found)
    assert any(b.doc.startswith("docs/") for b in RUNNABLE)
    assert len(RUNNABLE) >= 9


@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_a_documented_command_runs_as_written(block: Block, tmp_path: Path) -> None:
    # The scratch folder sees the checkout's data at the same relative paths; what a command
    # writes (a report, a consensus) lands in the scratch folder.
    for name in ("sample_data", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
           "PYTHONPATH": str(ROOT)}
    for command in block.commands:
        proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, (
            f"{block.id}: `{command}` exited {proc.returncode}\n{proc.stderr[-2000:]}")


def test_martino_md_lists_every_json_key_of_score(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from core.cli import main

    text = " ".join((ROOT / "docs" / "martino.md").read_text(encoding="utf-8").split())
    found = re.search(r"\*\*JSON keys\*\* \(`score --json`\): `([^`]+)`", text)
    assert found is not None
    listed = [k.strip() for k in found.group(1).split(",")]
    sample = ROOT / "sample_data" / "propaganda"
    capsys.readouterr()
    assert main(["score", str(sample / "gold.json"), str(sample / "system_a.json"),
                 "--metric", "martino", "--json"]) == 0
    assert listed == list(json.loads(capsys.readouterr().out))
