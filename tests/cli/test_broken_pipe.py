"""Output piped into a reader that stops early (``| head``): the command stops as Unix tools
do, with no message on standard error and exit status 141 (128 + SIGPIPE, what a shell reports
for a tool the closed pipe ended), for the text output (many writes) and ``--json`` (one)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def big_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """3,000 documents: ``score --per-document`` prints far more than a pipe's buffer holds."""
    root = tmp_path_factory.mktemp("pipe")
    spans = [{"start": 0, "end": 5, "technique": "Doubt", "text_fragment": "alpha"},
             {"start": 6, "end": 10, "technique": "Slogans", "text_fragment": "beta"}]
    docs = [{"id": str(i), "text": "alpha beta gamma delta " * 5, "labels": spans}
            for i in range(3000)]
    (root / "gold.json").write_text(json.dumps(docs), encoding="utf-8")
    for d in docs:
        d["labels"] = spans[:1]
    (root / "pred.json").write_text(json.dumps(docs), encoding="utf-8")
    return root / "gold.json", root / "pred.json"


@pytest.mark.parametrize("extra", [[], ["--json"]], ids=["text", "json"])
def test_a_reader_that_closes_the_pipe_gets_no_error_message(
        big_pair: tuple[Path, Path], extra: list[str], tmp_path: Path) -> None:
    gold, pred = big_pair
    err = tmp_path / "stderr.txt"
    with err.open("wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "core", "score", str(gold), str(pred),
                                 "--metric", "martino", "--per-document", *extra],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr)
        assert proc.stdout is not None
        # the reader is gone before the command writes (it reads and scores first): every
        # write meets a closed pipe, as after `head` has read its lines and exited
        proc.stdout.close()
        status = proc.wait(timeout=120)
    assert err.read_text(encoding="utf-8") == ""
    assert status == 141


def test_the_command_line_starts_where_the_platform_has_no_sigpipe() -> None:
    """Windows has no ``signal.SIGPIPE``: ``python -m core`` still starts, and a closed pipe
    still ends it with 141, the status a Unix shell reports (review11 item 4)."""
    code = ("import signal; del signal.SIGPIPE; import core.cli; print(core.cli.PIPE_CLOSED); "
            "raise SystemExit(core.cli.main(['validate', 'sample_data/propaganda/gold.json']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "141"
