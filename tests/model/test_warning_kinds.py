"""Every warning a reader or a command gives on the test data has a kind of its own
(:data:`core.model.errors.WARNING_KINDS`, or the kind its reader names), never ``other``: the
kind is what ``warning_counts`` of the JSON output, the text's ``warnings:`` line and the
dashboard count warnings under, so ``other`` says nothing of what went wrong.

A registry, not one case: every file and folder of ``sample_data/`` and ``tests/data/`` read by
the reader its format detects, every golden case of ``tests/formats/golden/`` read again under
its options, and every command of :data:`core.cli.COMMAND_NAMES` (the dashboard's launcher
aside) run on inputs that make it warn. A new warning message without its kind fails here.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from core.cli import COMMAND_NAMES, main
from core.formats import load_path
from core.model.errors import SpanScopeError, expand_diagnostics, warning_kind

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"
DATA = ROOT / "tests" / "data"
GOLDEN = ROOT / "tests" / "formats" / "golden"
SKIPPED_SUFFIXES = (".md", ".py", ".toml")
"""Documentation and code beside the data, not inputs."""


def _golden_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_kinds", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _inputs(folder: Path) -> list[Path]:
    """``folder`` and everything under it that a user may give a command (a file or a folder)."""
    return [folder, *(p for p in sorted(folder.rglob("*")) if p.suffix not in SKIPPED_SUFFIXES)]


GROUPS = sorted([*(p for p in SAMPLES.iterdir() if p.is_dir()),
                 *(p for p in DATA.iterdir() if p.is_dir())])


def _others(path: Path) -> tuple[int, list[str]]:
    """How many warnings reading ``path`` gave, and those of kind ``other``."""
    try:
        loaded = load_path(path)
    except (SpanScopeError, OSError):
        return 0, []  # a refusal is an error, not a warning
    found = list(expand_diagnostics(loaded.diagnostics))
    return len(found), [f"{path.relative_to(ROOT)}: {d}" for d in found if d.kind == "other"]


@pytest.mark.parametrize("group", GROUPS, ids=[f"{p.parent.name}/{p.name}" for p in GROUPS])
def test_every_reader_warning_on_the_test_data_has_a_kind(group: Path) -> None:
    others = [o for p in _inputs(group) for o in _others(p)[1]]
    assert not others, "warnings of kind 'other' (give them a kind in WARNING_KINDS):\n" + \
        "\n".join(others)


def test_the_readers_scan_meets_warnings() -> None:
    """The scan above reads inputs that warn (it would pass on nothing otherwise)."""
    assert sum(_others(p)[0] for p in _inputs(SAMPLES / "formats")) >= 10


def test_every_golden_case_warns_with_a_kind() -> None:
    script = _golden_script()
    seen, others = 0, []
    for path in sorted(GOLDEN.glob("*.json")):
        stored = json.loads(path.read_text(encoding="utf-8"))
        for run in script.read_case(stored):
            outcome = run["outcome"]
            for d in [*outcome.get("diagnostics", ()), *outcome.get("expanded", ())]:
                seen += 1
                if d["kind"] == "other":
                    others.append(f"{path.name}: {d['message']}")
    assert seen > 100
    assert not others, "\n".join(others)


# ---- commands --------------------------------------------------------------------------------


def _ptc_missing_text(tmp: Path) -> Path:
    """A PTC labels file with its article texts, one article of the file without its text."""
    folder = tmp / "ptc_missing_text"
    shutil.copytree(DATA / "formats" / "ptc" / "dev-articles-with-tc-labels", folder)
    with (folder / "dev-task-TC.labels").open("a", encoding="utf-8") as f:
        f.write("204\tDoubt\t0\t5\n")
    return folder


def _tc_reordered(tmp: Path) -> Path:
    """The same labels as the gold's, its articles in another order (the official scorer
    compares the rows of the two files one by one)."""
    rows = (DATA / "formats" / "ptc" / "dev-articles-with-tc-labels" / "dev-task-TC.labels"
            ).read_text(encoding="utf-8").splitlines()
    out = tmp / "tc_pred.labels"
    out.write_text("\n".join([r for r in rows if r.startswith("201")]
                             + [r for r in rows if not r.startswith("201")]) + "\n",
                   encoding="utf-8")
    return out


def _hateval_no_positive(tmp: Path) -> Path:
    """A HatEval task A prediction that never says HS=1: its precision is ill-defined."""
    gold = (SAMPLES / "hateval" / "gold.tsv").read_text(encoding="utf-8").splitlines()[1:]
    out = tmp / "never_hateful.tsv"
    out.write_text("id\tHS\n" + "".join(f"{r.split(chr(9))[0]}\t0\n" for r in gold),
                   encoding="utf-8")
    return out


def _fewer_documents(tmp: Path) -> Path:
    """System A without its last document (``errors`` counts it as unpredicted)."""
    records = json.loads((SAMPLES / "propaganda" / "system_a.json").read_text(encoding="utf-8"))
    out = tmp / "system_a_short.json"
    out.write_text(json.dumps(records[:-1]), encoding="utf-8")
    return out


PROP = SAMPLES / "propaganda"
TOUR = DATA / "agree_tour"
TC_GOLD = DATA / "formats" / "ptc" / "dev-articles-with-tc-labels"

Case = tuple[str, Callable[[Path], list[str]], str]
"""A command's arguments (built in a scratch folder) and a kind its warnings must include."""

CASES: list[Case] = [
    ("score", lambda t: ["score", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                         "--metric", "martino", "--json"], "duplicate-span"),
    ("score", lambda t: ["score", str(TC_GOLD), str(_tc_reordered(t)), "--metric", "martino",
                         "--variant", "semeval2020-tc", "--json"], "file-order"),
    ("score", lambda t: ["score", str(SAMPLES / "hateval" / "gold.tsv"),
                         str(_hateval_no_positive(t)), "--metric", "hateval-a", "--json"],
     "ill-defined"),
    ("score", lambda t: ["score", str(SAMPLES / "mafalda" / "gold.jsonl"),
                         str(SAMPLES / "mafalda" / "system_llm.jsonl"), "--metric", "mafalda",
                         "--json"], "ignored"),
    ("explain", lambda t: ["explain", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                           "--metric", "martino", "--doc", "1", "--json"], "duplicate-span"),
    ("validate", lambda t: ["validate", str(_ptc_missing_text(t)), "--json"], "missing-texts"),
    ("agree", lambda t: ["agree", str(TOUR / "case_variant.csv"), "--measure", "fleiss-kappa",
                         "--json"], "label-variants"),
    ("agree", lambda t: ["agree", str(TOUR / "missing_doc.csv"), "--measure", "fleiss-kappa",
                         "--json"], "missing-documents"),
    ("errors", lambda t: ["errors", str(PROP / "gold.json"), str(_fewer_documents(t)),
                          "--json"], "absent-documents"),
    ("slices", lambda t: ["slices", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                          "--dimension", "label", "--json"], "duplicate-span"),
    ("table", lambda t: ["table", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                         "--metric", "martino", "--json"], "duplicate-span"),
    ("adjudicate", lambda t: ["adjudicate", str(TOUR / "missing_doc.csv"), "--min-agree", "2",
                              "-o", str(t / "adjudicated.json"), "--to", "semeval2021",
                              "--json"], "missing-documents"),
    ("convert", lambda t: ["convert", str(PROP / "system_a.json"), str(t / "out.csv"),
                           "--to", "spans-csv"], "duplicate-span"),
    ("report", lambda t: ["report", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                          "-o", str(t / "report.html")], "duplicate-span"),
]
"""Commands without ``--json`` (``convert``, ``report``) print each warning as a ``warning:
[kind]`` line (``core.cli.common.kinded_line``): the kind is read off the line."""

NOT_RUN = {"app": "starts the dashboard (its warnings are the readers', read above)"}


def _kinds(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    if "--json" in argv:
        counts: dict[str, int] = json.loads(out.out)["warning_counts"]
        return counts
    kinds: dict[str, int] = {}
    for line in (out.out + out.err).splitlines():
        if line.startswith("warning: "):
            named = re.match(r"warning: \[([a-z-]+)\] ", line)
            assert named, f"a warning line without its kind: {line}"
            kinds[named.group(1)] = kinds.get(named.group(1), 0) + 1
    return kinds


@pytest.mark.parametrize(("command", "build", "kind"), CASES,
                         ids=[f"{c}-{k}" for c, _, k in CASES])
def test_every_commands_warnings_have_a_kind(command: str, build: Callable[[Path], list[str]],
                                             kind: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    argv = build(tmp_path)
    assert argv[0] == command
    counts = _kinds(argv, capsys)
    assert kind in counts, counts
    assert "other" not in counts, counts


def test_the_cases_run_every_command() -> None:
    assert {c for c, _, _ in CASES} | set(NOT_RUN) == set(COMMAND_NAMES)


SPOOF = "x documents (other annotators have them)"


def test_a_label_or_a_file_name_cannot_claim_another_warnings_kind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review13: the missing-documents phrase was matched first, so a label-variant warning
    about a label of those words became missing-documents; the emitters name their kinds."""
    path = tmp_path / "spoof.csv"
    path.write_text("doc_id,start,end,label,annotator\n"
                    f"t1,0,10,{SPOOF},ann1\n"
                    f"t1,0,10,{SPOOF.upper()},ann2\n")
    counts = _kinds(["agree", str(path), "--measure", "fleiss-kappa", "--json"], capsys)
    assert counts == {"label-variants": 1}
    # a reader's whitespace warning quoting a file of those words stays a whitespace warning
    quoting = f"{SPOOF}.csv: the span [0, 3) ends in whitespace: 'ab '"
    assert warning_kind(quoting) == "whitespace"


def test_a_quoted_fragment_or_label_cannot_claim_another_warnings_kind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review13: a whitespace warning quotes the span's text and a beyond-text warning its
    label, after the phrases of other kinds; a span reading 'it appears twice ' was counted as
    a duplicate. The emitters name their kinds (``KindedText``)."""
    (tmp_path / "d1.txt").write_text("it appears twice here", encoding="utf-8")
    (tmp_path / "d1.ann").write_text("T1\tClaim 0 17\tit appears twice \n", encoding="utf-8")
    counts = _kinds(["validate", str(tmp_path / "d1.ann"), "--json"], capsys)
    assert counts == {"whitespace": 1}
    # a span past its text, in a file whose name holds another kind's phrase
    (tmp_path / "it appears twice.txt").write_text("short", encoding="utf-8")
    (tmp_path / "it appears twice.ann").write_text("T1\tClaim 0 9\tshort\n", encoding="utf-8")
    counts = _kinds(["validate", str(tmp_path / "it appears twice.ann"), "--beyond-text", "clip",
                     "--json"], capsys)
    assert counts == {"beyond-text": 1}
