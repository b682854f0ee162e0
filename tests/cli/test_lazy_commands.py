"""The command line builds (and imports) only the command it runs, and says the same.

``core.cli.main`` parses a command's arguments with a parser that holds that command alone
(``build_parser(prog, only=NAME)``); its help, usage and the flag names its messages use must be
those of the whole parser, and ``score`` must not import the other commands.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

import core.cli as cli
from core.cli.common import parser_flags

ROOT = Path(__file__).resolve().parents[2]


def _sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub: argparse.ArgumentParser = action.choices[name]
    return sub


@pytest.mark.parametrize("name", cli.COMMAND_NAMES)
def test_a_command_alone_has_the_help_and_flags_of_the_whole_parser(name: str) -> None:
    whole = cli.build_parser()
    alone = cli.build_parser(only=name)
    assert _sub(alone, name).format_help() == _sub(whole, name).format_help()
    assert _sub(alone, name).format_usage() == _sub(whole, name).format_usage()
    assert alone.format_usage() == whole.format_usage()
    every = parser_flags(whole)
    own = parser_flags(alone)
    assert {k: every[k] for k in own} == own  # a message names the same flag


def test_commands_are_the_modules_in_help_order() -> None:
    assert [c.NAME for c in cli.COMMANDS] == list(cli.COMMAND_NAMES)


def test_score_does_not_import_the_other_commands(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text('[{"id": "1", "text": "ab cd", "labels": '
                    '[{"technique": "Doubt", "start": 0, "end": 2}]}]', encoding="utf-8")
    probe = ("import sys, io, contextlib\n"
             "from core.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    status = main(['score', {str(gold)!r}, {str(gold)!r}, '--metric', 'martino',"
             " '--json'])\n"
             "print(status, sorted(m for m in sys.modules if m.startswith('core.cli.')"
             " or m in ('core.analysis.report', 'core.analysis.slices', 'core.cli.render')))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    status, loaded = out.split(" ", 1)
    assert status == "0"
    for other in ("report", "slices", "adjudicate", "agree", "errors", "validate", "convert",
                  "render"):
        assert f"'core.cli.{other}'" not in loaded
    assert "core.analysis.report" not in loaded


SCORE_NEVER_IMPORTS = (
    "pandas", "scipy", "pyarrow", "dask", "streamlit", "plotly",  # heavy libraries
    "zipfile",  # only when an input holds a zip (core.formats.archive)
    "secrets", "hmac",  # temporary names come from os.urandom (core.formats.atomic)
    "core.analysis", "core.render", "core.engines.sharded",
    "core.metrics.agreement", "core.metrics.differences", "core.metrics.labels",
    "core.metrics.stats",  # core.metrics imports its submodules on first use
    # the registry names the other metrics' functions without importing them (Deferred)
    "core.metrics.mafalda", "core.metrics.hateval", "core.metrics.nervaluate",
    "core.metrics.text_labels", "core.metrics.additive",
    # detection imports only the format modules that could recognise the file (MAY_SNIFF)
    "core.formats.ptc", "core.formats.mafalda", "core.formats.mafalda_llm", "core.formats.brat",
    "core.formats.hateval", "core.formats.spans_csv", "core.formats.webanno",
    "core.formats.webanno_tsv2", "core.formats.xmi", "core.formats.conll",
    "core.formats.spacy_docs", "core.formats.parquet", "core.formats.layers",
)
"""What ``score --metric martino`` on a SemEval-2021 pair must not import: start-up is most of
the gap between the command and ``json.load`` of its files (docs/performance.md, issue 29,
target 1), so the command pays only for the modules scoring uses."""


def test_score_imports_only_what_scoring_uses() -> None:
    sample = ROOT / "sample_data" / "propaganda"
    probe = ("import sys, io, contextlib\n"
             "from core.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    status = main(['score', {str(sample / 'gold.json')!r}, "
             f"{str(sample / 'system_a.json')!r}, '--metric', 'martino', '--json'])\n"
             "from core import plugins\n"
             "print(status, bool(plugins._declared_groups()))\n"
             "print(*sorted(sys.modules), sep='\\n')\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[0].split()[0] == "0"
    loaded = set(out[1:])
    assert "core.metrics.martino" in loaded and "numpy" in loaded  # the probe scored
    found = sorted(m for m in loaded
                   if any(m == n or m.startswith(n + ".") for n in SCORE_NEVER_IMPORTS))
    assert found == []
    if out[0].split()[1] == "False":  # no installed plugin: entry points are never looked up
        assert "importlib.metadata" not in loaded


def test_listing_the_metrics_imports_none_of_them() -> None:
    probe = ("import sys\n"
             "from core.metrics import registry\n"
             "from core.cli.score import metrics_epilog\n"
             "text = metrics_epilog()\n"
             "print(sorted(m for m in sys.modules if m.startswith('core.metrics.')))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "['core.metrics.registry', 'core.metrics.result']"


def test_the_registry_names_what_the_metric_modules_define() -> None:
    import pickle

    from core.metrics import mafalda, martino, registry

    assert registry.MARTINO_VARIANTS == martino.VARIANTS
    assert registry.MAFALDA_VARIANTS == mafalda.VARIANTS
    assert registry.MAFALDA_DERIVABLE == mafalda.DERIVABLE
    for entry in registry.entries():
        for hook in (entry.score, entry.explain, entry.default_labels, entry.read_order,
                     entry.additive, entry.derive):
            if isinstance(hook, registry.Deferred):
                assert hook.target() is not None  # the module defines the name
                assert pickle.loads(pickle.dumps(hook)) == hook
    score = registry.get("martino").score
    assert isinstance(score, registry.Deferred) and score.target() is martino.score
    assert registry.get("mafalda").protocol.statistics is not None
