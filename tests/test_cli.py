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


def _many_warnings(tmp_path: Path, n: int) -> tuple[Path, Path]:
    """A gold and a prediction whose ``n`` spans each start in whitespace (one warning each)."""
    import json

    text = " word" * (n + 1)
    labels = [{"start": 5 * i, "end": 5 * i + 5, "technique": "Doubt", "text_fragment":
               text[5 * i:5 * i + 5]} for i in range(n)]
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"id": "1", "text": text, "labels": labels}]), encoding="utf-8")
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps([{"id": "1", "text": text, "labels": labels[:1]}]),
                    encoding="utf-8")
    return gold, pred


def test_text_output_summarises_warnings_by_kind(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _many_warnings(tmp_path, 25)
    assert main(["score", str(gold), str(pred), "--metric", "martino"]) == 0
    out = capsys.readouterr().out
    assert "warnings: 26 (whitespace 26)" in out
    assert out.count("warning: ") == 10
    assert "16 more; pass --all-warnings" in out
    assert main(["score", str(gold), str(pred), "--metric", "martino", "--all-warnings"]) == 0
    assert capsys.readouterr().out.count("warning: ") == 26


def test_json_keeps_100_warnings_and_counts_them_all(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import json

    gold, pred = _many_warnings(tmp_path, 120)
    assert main(["score", str(gold), str(pred), "--metric", "martino", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["warnings"]) == 100
    assert out["warning_counts"] == {"whitespace": 121}
    assert main(["score", str(gold), str(pred), "--metric", "martino", "--json",
                 "--all-warnings"]) == 0
    assert len(json.loads(capsys.readouterr().out)["warnings"]) == 121


def test_a_parameter_error_is_a_usage_error_naming_the_flag(
        capsys: pytest.CaptureFixture[str]) -> None:
    sample = ROOT / "sample_data" / "propaganda"
    code = main(["score", str(sample / "gold.json"), str(sample / "system_a.json"),
                 "--metric", "martino", "--fragments-only"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--fragments-only is an option of the nlp4if2019 variant" in err
    assert "fragments_only" not in err


def test_score_help_lists_the_registered_metrics() -> None:
    from core.metrics import registry

    proc = subprocess.run([sys.executable, "-m", "core", "score", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    for name in registry.names():
        assert f"  {name} " in proc.stdout
