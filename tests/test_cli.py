"""The command-line contract: exit statuses, one clear message, no traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "a.json"])
    assert exc.value.code == 2
    assert "required" in capsys.readouterr().err


def test_unknown_metric_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "a.json", "b.json", "--metric", "bleu"])
    assert exc.value.code == 2
    assert "invalid choice: 'bleu'" in capsys.readouterr().err


def test_missing_input_file_exits_1_with_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    proc = subprocess.run(
        [sys.executable, "-m", "core", "validate", str(missing)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert str(missing) in proc.stderr
    assert "no such file or folder" in proc.stderr


def test_every_subcommand_has_help() -> None:
    for command in ("score", "explain", "convert", "validate", "agree"):
        proc = subprocess.run(
            [sys.executable, "-m", "core", command, "--help"],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert "usage: python -m core " + command in proc.stdout
