"""``spanscope app --data [ROLE=]PATH ...``: the command line that opens files from disk.

Unit tests of :mod:`core.cli.launch`'s parsing, of the environment handed to streamlit, and of the
exit statuses; the slow test starts ``python -m core app --data ...`` and reads the server
process's own environment, so the values reach the app (the pages' side: tests/app/
test_cli_data_page.py and tests/e2e/test_scale_browser.py).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from core.cli import launch, main
from core.model.errors import SpanScopeError, UsageError
from tests.servers import running

ROOT = Path(__file__).resolve().parents[1]
PROP = ROOT / "sample_data" / "propaganda"


def test_split_takes_every_value_up_to_the_next_option() -> None:
    values, rest = launch.split_data_args(
        ["--server.port=8600", "--data", "gold=g.json", "p.json", "--data=x", "--theme.base",
         "dark"])
    assert values == ["gold=g.json", "p.json", "x"]
    assert rest == ["--server.port=8600", "--theme.base", "dark"]


def test_split_without_data_hands_everything_to_streamlit() -> None:
    assert launch.split_data_args(["--server.port", "8600"]) == ([], ["--server.port", "8600"])


@pytest.mark.parametrize("argv", [["--data"], ["--data", "--server.port=1"], ["--data="]])
def test_data_without_a_path_is_a_usage_error(argv: list[str]) -> None:
    with pytest.raises(UsageError, match="--data"):
        launch.split_data_args(argv)


@pytest.mark.parametrize(("value", "role"), [
    ("gold=gold.json", "gold"), ("pred=gold.json", "system"), ("PRED=gold.json", "system"),
    ("system=gold.json", "system"), ("prediction=gold.json", "system"),
    ("annotator=gold.json", "annotator"), ("gold.json", None)])
def test_role_prefix_is_read_and_the_path_made_absolute(value: str, role: str | None) -> None:
    assert launch.parse_data_value(value, PROP) == {"role": role, "path": str(PROP / "gold.json")}


def test_an_equals_sign_that_is_no_role_belongs_to_the_path(tmp_path: Path) -> None:
    (tmp_path / "run=3.json").write_text("[]")
    assert launch.parse_data_value("run=3.json", tmp_path) == {
        "role": None, "path": str(tmp_path / "run=3.json")}


def test_a_missing_path_is_named() -> None:
    with pytest.raises(SpanScopeError, match=r"nowhere\.json: no such file or folder"):
        launch.parse_data_value("gold=nowhere.json", PROP)


@pytest.mark.parametrize(("value", "expected"), [
    ("gold=gold.json#format=doccano", {"role": "gold", "format": "doccano"}),
    ("Ayla:annotator=gold.json#format=spans-csv", {"role": "annotator", "name": "Ayla",
                                                   "format": "spans-csv"}),
    ("gold.json#format=semeval2021", {"role": None, "format": "semeval2021"})])
def test_a_format_after_the_path_is_read_and_the_path_kept_without_it(
        value: str, expected: dict[str, str | None]) -> None:
    assert launch.parse_data_value(value, PROP) == {"path": str(PROP / "gold.json"), **expected}


def test_a_path_that_exists_with_its_format_suffix_stays_a_path(tmp_path: Path) -> None:
    (tmp_path / "odd#format=ptc").write_text("[]")
    assert launch.parse_data_value("odd#format=ptc", tmp_path) == {
        "role": None, "path": str(tmp_path / "odd#format=ptc")}


def test_an_unknown_format_is_a_usage_error_naming_the_formats() -> None:
    with pytest.raises(UsageError, match=r"unknown format 'docano'.*doccano"):
        launch.parse_data_value("gold=gold.json#format=docano", PROP)
    with pytest.raises(SpanScopeError, match=r"nowhere\.json: no such file"):
        launch.parse_data_value("gold=nowhere.json#format=doccano", PROP)


def test_role_without_path_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no path"):
        launch.parse_data_value("gold=", PROP)


def test_environment_carries_the_data_as_json() -> None:
    data = [{"role": "gold", "path": "/a/g.json"}, {"role": None, "path": "/a/p.json"}]
    env = launch.app_environment(ROOT, {"HOME": "/h"}, data=data)
    assert json.loads(env[launch.DATA_ENV]) == data
    assert env["SPANSCOPE_DATA_DIR"] == str(ROOT / "sample_data")


def test_environment_without_data_drops_an_inherited_value() -> None:
    env = launch.app_environment(ROOT, {launch.DATA_ENV: "[]", "HOME": "/h"})
    assert launch.DATA_ENV not in env


def test_cli_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["app", "--data", str(PROP / "nowhere.json")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nowhere.json: no such file or folder" in err
    assert main(["app", "--data"]) == 2
    assert "--data needs at least one path" in capsys.readouterr().err


@pytest.mark.slow
def test_python_m_core_app_data_reaches_the_streamlit_process(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != launch.DATA_ENV}
    with running([sys.executable, "-m", "core", "app", "--data", "gold=gold.json",
                  "system_a.json"], cwd=PROP,
                 env=dict(env, HOME=str(tmp_path), PYTHONPATH=str(ROOT))) as server:
        # The launcher exec'd streamlit's command line (through ui.serve, which reads the files
        # as the server starts): this PID is the server, and its environment is the one the
        # app's ui.cli_data reads.
        pid = server.process.pid
        environ = dict(item.split("=", 1) for item in Path(f"/proc/{pid}/environ")
                       .read_text().split("\0") if "=" in item)
        cmdline = Path(f"/proc/{pid}/cmdline").read_text().split("\0")
        assert cmdline[1:4] == ["-m", launch.EARLY_RUNNER, "run"]
        assert f"--server.port={server.port}" in cmdline
        assert "--data" not in cmdline
        assert json.loads(environ[launch.DATA_ENV]) == [
            {"role": "gold", "path": str(PROP / "gold.json")},
            {"role": None, "path": str(PROP / "system_a.json")}]


def test_app_help_names_data_and_store_then_streamlits_options() -> None:
    import subprocess

    out = subprocess.run([sys.executable, "-m", "core", "app", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    ours, _, theirs = out.partition("Streamlit's options follow.")
    assert ours.startswith("usage: spanscope app [--data")  # was Streamlit's help alone
    assert "--data [[NAME:]ROLE=]PATH" in ours and "--store PATH" in ours
    assert "annotator=" in ours and "--server.port" in theirs  # Streamlit's own, after ours
    assert "PATH[#format=FORMAT]" in ours and "#format=doccano" in ours and "webanno-tsv" in ours
