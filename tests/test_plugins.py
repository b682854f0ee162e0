"""Metrics and formats from other packages (core/plugins.py): the toy plugin of
``tests/data/plugin`` (a metric, ``plugin-exact``, and a format, ``toy-tsv``) reaches
``score --help``, ``score``, ``--engine dask``, ``slices --metric``, ``report`` and the dashboard's
metric choice, and the format is detected and offered by the dashboard's Data page; a broken
plugin is named in a warning and the command line still runs.

The fast tests fake the entry points in this process; the slow one installs the plugin package
into a fresh virtual environment (the way tests/test_package.py builds one, offline).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from core import plugins
from core.cli import main
from core.formats import FORMATS
from core.metrics import registry
from core.metrics.checks import check_metric

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = Path(__file__).resolve().parent / "data" / "plugin"
SAMPLE = ROOT / "sample_data" / "propaganda"
NAME = "plugin-exact"


def _points(group: str, *pairs: tuple[str, str]) -> list[EntryPoint]:
    return [EntryPoint(name, value, group) for name, value in pairs]


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[EntryPoint]]]:
    """Entry points as if packages declared them (fill the returned dict by group); the
    registry and the formats are restored afterwards."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    declared: dict[str, list[EntryPoint]] = {}
    monkeypatch.setattr(plugins, "entry_points", lambda group: declared.get(group, []))
    before = dict(FORMATS)
    plugins.reset()
    try:
        yield declared
    finally:
        registry.unregister(NAME)
        FORMATS.clear()
        FORMATS.update(before)
        plugins.reset()


def _toy(declared: dict[str, list[EntryPoint]]) -> None:
    declared[plugins.METRICS_GROUP] = _points(plugins.METRICS_GROUP,
                                              (NAME, "spanscope_toy:METRIC"))
    declared[plugins.FORMATS_GROUP] = _points(plugins.FORMATS_GROUP,
                                              ("toy-tsv", "spanscope_toy.toy_tsv"))


def _json(capsys: pytest.CaptureFixture[str], argv: Sequence[str]) -> Any:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_a_plugin_metric_is_listed_scored_sliced_and_reported(
        installed: dict[str, list[EntryPoint]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    _toy(installed)
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert NAME in capsys.readouterr().out
    assert NAME in registry.names() and NAME in [m.name for m in registry.span_metrics()]
    check_metric(registry.get(NAME))

    gold, pred = str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json")
    out = _json(capsys, ["score", gold, gold, "--metric", NAME, "--json"])
    assert out["metric"] == NAME and out["f1"] == 1.0
    single = _json(capsys, ["score", gold, pred, "--metric", NAME, "--json"])
    for dim in ("doc_length", "label"):
        sliced = _json(capsys, ["slices", gold, pred, "--metric", NAME, "--dimension", dim,
                                "--samples", "20", "--json"])
        assert sliced["metric"] == NAME and sliced["buckets"]
    assert main(["report", gold, pred, "-o", str(tmp_path / "r.html"), "--samples", "20"]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Toy exact match F1" in html

    shards = tmp_path / "shards"
    shards.mkdir()  # an output's folder must exist; the shard folders in it are made
    for name, src in (("gold", gold), ("pred", pred)):
        assert main(["convert", src, str(shards / name), "--to", "parquet", "--shards",
                     "3"]) == 0
    capsys.readouterr()
    sharded = _sharded(shards / "gold", shards / "pred")
    assert sharded["metric"] == NAME
    assert [sharded[k] for k in ("precision", "recall", "f1")] == pytest.approx(
        [single[k] for k in ("precision", "recall", "f1")], abs=1e-12)


class _Ready:
    """A Dask future already computed (``result`` as run_jobs waits on it)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self, timeout: float | None = None) -> Any:
        return self.value


class _InProcess:
    """A Dask client's map, gather and scheduler_info, run here (the registry of this process,
    with the fake entry points, is the workers')."""

    def map(self, func: Any, jobs: list[Any], pure: bool = False) -> list[Any]:
        return [_Ready(func(job)) for job in jobs]

    def gather(self, futures: list[Any]) -> list[Any]:
        return [f.value for f in futures]

    def nthreads(self) -> dict[str, int]:
        return {"here": 1}

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {"here": {}}}


def _sharded(gold: Path, pred: Path) -> dict[str, Any]:
    from core.engines.sharded import score_sharded

    return score_sharded(gold, pred, metric=NAME, client=_InProcess()).result  # type: ignore[arg-type]


def test_a_plugin_format_is_a_format_choice_and_is_read(
        installed: dict[str, list[EntryPoint]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    _toy(installed)
    gold = tmp_path / "gold.toytsv"
    gold.write_text("a\t0\t4\tX\na\t10\t30\tY\nb\t2\t5\tX\n", encoding="utf-8")
    pred = tmp_path / "pred.toytsv"
    pred.write_text("a\t0\t4\tX\nb\t2\t6\tX\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    assert "toy-tsv" in capsys.readouterr().out
    out = _json(capsys, ["score", str(gold), str(pred), "--metric", NAME, "--json"])
    assert (out["precision"], out["recall"]) == (0.5, pytest.approx(1 / 3))


def test_a_broken_plugin_is_named_in_a_warning_and_left_out(
        installed: dict[str, list[EntryPoint]], capsys: pytest.CaptureFixture[str]) -> None:
    installed[plugins.METRICS_GROUP] = _points(
        plugins.METRICS_GROUP, ("gone", "no_such_spanscope_plugin:METRIC"),
        ("not-a-metric", "spanscope_toy:NAME"))
    with pytest.warns(plugins.PluginWarning) as caught:
        assert "gone" not in registry.names()
    messages = [str(w.message) for w in caught]
    assert messages[0].startswith("the spanscope.metrics plugin 'gone' "
                                  "(no_such_spanscope_plugin:METRIC) could not be loaded")
    assert "ModuleNotFoundError" in messages[0]
    assert "expected a core.metrics.registry.Metric (or a function returning one), got str" \
        in messages[1]
    gold = str(SAMPLE / "gold.json")
    assert main(["score", gold, gold, "--metric", "martino", "--json"]) == 0  # loaded once
    assert json.loads(capsys.readouterr().out)["metric"] == "martino"


def test_a_plugin_metric_reaches_the_dashboards_metric_choice(
        installed: dict[str, list[EntryPoint]]) -> None:
    _toy(installed)  # declared before the dashboard's modules ask the registry
    from streamlit.testing.v1 import AppTest

    from ui import state

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state[state.K_SOURCE] = "sample"
    at.run()
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    radio = next(r for r in at.radio if r.key == state.K_METRIC)
    assert NAME in radio.options


def test_a_plugin_format_is_detected_and_offered_on_the_dashboards_data_page(
        installed: dict[str, list[EntryPoint]]) -> None:
    _toy(installed)
    from streamlit.testing.v1 import AppTest

    from ui import state

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.run()
    at.switch_page("pages/data.py").run()
    data = b"a\t0\t4\tX\na\t10\t30\tY\nb\t2\t5\tX\n"
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [("gold.toytsv", data, "text/tab-separated-values")]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    box = at.selectbox(key=state.upload_key("fmt", "gold.toytsv"))
    assert box.value == "auto" and "toy-tsv" in box.options
    ws = at.session_state[state.K_UPLOAD_WS]
    assert [(s.role, s.span_count()) for s in ws.sets.values()] == [("gold", 3)]


@pytest.mark.parametrize("hash_format", [False, True], ids=["detected", "hash-format"])
def test_a_plugin_format_given_with_data_is_read_as_the_server_starts(
        installed: dict[str, list[EntryPoint]], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path, hash_format: bool) -> None:
    """``spanscope app --data gold=gold.toytsv`` (and ``...#format=toy-tsv``): the early read
    of ``ui.cli_data`` starts before any page has loaded the plugins' formats, yet reads the
    files, and the Data page shows the sets, not a refusal."""
    _toy(installed)
    from streamlit.testing.v1 import AppTest

    from core.cli.launch import DATA_ENV
    from ui import cli_data, state

    files = {"gold": "a\t0\t4\tX\na\t10\t30\tY\nb\t2\t5\tX\n", "system": "a\t0\t4\tX\n"}
    data = []
    for role, text in files.items():
        path = tmp_path / f"{role}.toytsv"
        path.write_text(text, encoding="utf-8")
        data.append({"role": role, "path": str(path),
                     "format": "toy-tsv" if hash_format else None})
    monkeypatch.setenv(DATA_ENV, json.dumps(data))
    assert "toy-tsv" not in FORMATS  # nothing has loaded the plugins yet
    reader = cli_data.read_early()
    assert reader is not None
    reader.join(60)
    ws = cli_data.cli_workspace()
    assert ws is not None and all(r.ok for r in ws.reports), [r.error for r in ws.reports]
    assert [(s.role, s.span_count()) for s in ws.sets.values()] == [("gold", 3), ("system", 1)]

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.session_state[state.K_SOURCE] == cli_data.SOURCE
    assert not any("refused" in str(w.value) for w in at.warning), [w.value for w in at.warning]


def test_a_broken_plugin_is_named_on_the_dashboards_data_page(
        installed: dict[str, list[EntryPoint]]) -> None:
    installed[plugins.METRICS_GROUP] = _points(plugins.METRICS_GROUP,
                                               ("gone", "no_such_spanscope_plugin:METRIC"))
    installed[plugins.FORMATS_GROUP] = _points(plugins.FORMATS_GROUP,
                                               ("half", "spanscope_toy"))
    from streamlit.testing.v1 import AppTest

    from ui import state

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state[state.K_SOURCE] = "sample"
    with pytest.warns(plugins.PluginWarning):
        at.run()
        at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [w.value.replace("\\", "") for w in at.warning]  # markdown escapes dropped
    assert any("'gone' (no_such_spanscope_plugin:METRIC) could not be loaded" in w
               and "ModuleNotFoundError" in w for w in shown), shown
    assert any("'half' (spanscope_toy) could not be loaded" in w
               and "a format module needs sniff and read()" in w for w in shown), shown
    at.switch_page("pages/scores.py").run()  # the sample still scores without them
    assert not at.exception, [e.value for e in at.exception]
    assert "gone" not in next(r for r in at.radio if r.key == state.K_METRIC).options


# ---- installed for real, in a fresh virtual environment ------------------------------------------


@pytest.mark.slow
def test_an_installed_plugin_reaches_score_dask_slices_and_report(tmp_path: Path) -> None:
    from tests.test_package import _env, _see_these_packages

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    _see_these_packages(py)
    src = tmp_path / "plugin"
    shutil.copytree(PLUGIN, src)
    pip = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps",
                          "--no-build-isolation", str(src)], capture_output=True, text=True,
                         env=_env())
    assert pip.returncode == 0, pip.stdout + pip.stderr
    shutil.rmtree(src)  # the installed copy is what runs

    def core(*args: str) -> subprocess.CompletedProcess[str]:
        # From the checkout, so that `core` is this tree; the plugin is in the venv only.
        return subprocess.run([str(py), "-m", "core", *args], cwd=ROOT, capture_output=True,
                              text=True, env=_env(), timeout=600)

    gold, pred = str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json")
    helped = core("score", "--help")
    assert helped.returncode == 0 and NAME in helped.stdout, helped.stderr
    single = core("score", gold, pred, "--metric", NAME, "--json")
    assert single.returncode == 0, single.stderr
    shards = tmp_path / "shards"
    shards.mkdir()  # an output's folder must exist; the shard folders in it are made
    for name, path in (("gold", gold), ("pred", pred)):
        assert core("convert", path, str(shards / name), "--to", "parquet", "--shards",
                    "2").returncode == 0
    dask = core("score", str(shards / "gold"), str(shards / "pred"), "--metric", NAME,
                "--engine", "dask", "--workers", "1", "--json")
    assert dask.returncode == 0, dask.stderr
    want, got = json.loads(single.stdout), json.loads(dask.stdout)
    assert got["engine"]["name"] == "dask"
    assert got["f1"] == pytest.approx(want["f1"], abs=1e-12)
    sliced = core("slices", gold, pred, "--metric", NAME, "--dimension", "label", "--samples",
                  "20", "--json")
    assert sliced.returncode == 0 and json.loads(sliced.stdout)["buckets"], sliced.stderr
    report = core("report", gold, pred, "-o", str(tmp_path / "r.html"), "--samples", "20")
    assert report.returncode == 0, report.stderr
    assert "Toy exact match F1" in (tmp_path / "r.html").read_text(encoding="utf-8")
    (tmp_path / "g.toytsv").write_text("a\t0\t4\tX\n", encoding="utf-8")
    read = core("score", str(tmp_path / "g.toytsv"), str(tmp_path / "g.toytsv"), "--metric",
                NAME, "--json")
    assert read.returncode == 0 and json.loads(read.stdout)["f1"] == 1.0, read.stderr


def test_a_plugin_metrics_columns_lead_the_scores_table_and_chart(
        installed: dict[str, list[EntryPoint]]) -> None:
    """A user who installed a metric looks for it: its columns come first in the Scores
    page's table of every system, right after the system and its role, and its F1 first in
    the chart, before the built-in metrics' (they were the last span columns, right of ten
    built-in ones; bugleft12 item 5)."""
    _toy(installed)
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import frame_of
    from ui import results, state

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[state.K_SOURCE] = "sample"
    at.run()
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    table = frame_of(at, "system", "role")
    short = results.abbreviation(registry.get(NAME))
    assert list(table.columns[:7]) == ["system", "role", f"{short} P", f"{short} R",
                                       f"{short} F1", f"{short} F1 low", f"{short} F1 high"]
    assert list(table.columns[7:10]) == ["DSM P", "DSM R", "DSM F1"]
    captions = " ".join(c.value for c in at.caption)
    assert f"Metrics from installed plugins come first: {registry.get(NAME).title}" in captions
