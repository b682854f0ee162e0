"""``slices`` and ``report`` read the files as ``score`` and ``table`` do: ``--llm-parsing``,
``--labels`` and ``--taxonomy`` are the same options (one definition,
:func:`core.cli.common.add_label_options`, :func:`core.cli.common.add_llm_parsing`) with the same
meaning, so MAFALDA's numbers in its repository-head parsing are reproduced per slice."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from core.cli import build_parser, main
from core.model.taxonomy import mafalda

ROOT = Path(__file__).resolve().parents[2]
MAF = ROOT / "tests" / "data" / "mafalda"
GOLD = MAF / "datasets" / "gold_standard_dataset.jsonl"
GPT = MAF / "results" / "gpt-3.5_level_2_results.jsonl"
PROP = ROOT / "sample_data" / "propaganda"
OPTIONS = ("--labels", "--taxonomy", "--llm-parsing")


def _json(capsys: pytest.CaptureFixture[str], command: str, *argv: str) -> dict:
    assert main([command, *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _whole(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    """``slices`` with one bucket of every document: the whole corpus's P, R, F1."""
    (row,) = _json(capsys, "slices", str(GOLD), str(GPT), "--dimension", "doc_length",
                   "--buckets", "1", "--samples", "0", *argv)["buckets"]
    return row


def _actions(command: str) -> dict[str, argparse.Action]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {flag: a for a in sub.choices[command]._actions for flag in a.option_strings}


def test_the_four_commands_define_the_options_alike() -> None:
    every = {c: _actions(c) for c in ("score", "table", "slices", "report")}
    for flag in OPTIONS:
        seen = {(a.dest, a.default, tuple(a.choices or ()), a.help, a.metavar)
                for a in (every[c][flag] for c in every)}
        assert len(seen) == 1, flag


@pytest.mark.parametrize("parsing", ["paper-2023", "repo-head"])
def test_slices_reads_model_answers_as_score_does(capsys: pytest.CaptureFixture[str],
                                                   parsing: str) -> None:
    score = _json(capsys, "score", str(GOLD), str(GPT), "--metric", "mafalda", "--level", "1",
                  "--llm-parsing", parsing)
    row = _whole(capsys, "--metric", "mafalda", "--level", "1", "--llm-parsing", parsing)
    assert (row["P"], row["R"], row["F1"]) == pytest.approx(
        (score["precision"], score["recall"], score["f1"]), abs=1e-12)


@pytest.mark.parametrize("parsing", ["paper-2023", "repo-head"])
def test_the_parsing_applies_under_every_metric(capsys: pytest.CaptureFixture[str],
                                                parsing: str) -> None:
    """The answers' parsing is the reader's: ``score --metric martino`` honours it as ``slices``
    does (it was silently ignored outside MAFALDA's metric)."""
    score = _json(capsys, "score", str(GOLD), str(GPT), "--metric", "martino",
                  "--llm-parsing", parsing)
    row = _whole(capsys, "--metric", "martino", "--llm-parsing", parsing)
    assert (row["P"], row["R"], row["F1"]) == pytest.approx(
        (score["precision"], score["recall"], score["f1"]), abs=1e-12)


def test_the_parsing_changes_martino_scores(capsys: pytest.CaptureFixture[str]) -> None:
    paper, head = (_json(capsys, "score", str(GOLD), str(GPT), "--metric", "martino",
                         "--llm-parsing", p)["f1"] for p in ("paper-2023", "repo-head"))
    assert paper != pytest.approx(head)


def test_repo_head_parsing_changes_the_label_slices(capsys: pytest.CaptureFixture[str]) -> None:
    """The repository's parsing reads most of GPT-3.5's answers as fallacies: its 'unknown'
    bucket shrinks from 180 documents to 4 (the numbers MAFALDA's code prints)."""
    def unknown(parsing: str) -> int:
        rows = _json(capsys, "slices", str(GOLD), str(GPT), "--dimension", "label",
                     "--metric", "mafalda", "--level", "1", "--samples", "0",
                     "--llm-parsing", parsing)["buckets"]
        return next(r["documents"] for r in rows if r["bucket"] == "unknown")

    assert (unknown("paper-2023"), unknown("repo-head")) == (180, 4)


def test_slices_groups_labels_by_the_taxonomy_file(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    fallacies = [lab for lab in mafalda().codes if lab not in ("nothing", "unknown")]
    path = tmp_path / "one_group.json"
    path.write_text(json.dumps({"level1": [{"code": 1, "name": "fallacy",
                                            "labels": fallacies}]}), encoding="utf-8")
    argv = ["--metric", "mafalda", "--level", "1", "--taxonomy", str(path)]
    score = _json(capsys, "score", str(GOLD), str(GPT), *argv)
    assert _whole(capsys, *argv)["F1"] == pytest.approx(score["f1"], abs=1e-12)
    assert score["f1"] != pytest.approx(_whole(capsys, *argv[:4])["F1"])  # it matters
    rows = _json(capsys, "slices", str(GOLD), str(GPT), "--dimension", "label",
                 "--samples", "0", *argv)["buckets"]
    assert {r["bucket"] for r in rows} <= {"fallacy", "unknown"}


def test_a_label_list_refuses_what_score_refuses(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    labels = tmp_path / "labels.txt"
    labels.write_text("Loaded_Language\n", encoding="utf-8")
    files = [str(PROP / "gold.json"), str(PROP / "system_a.json")]
    assert main(["score", *files, "--metric", "martino", "--labels", str(labels)]) == 1
    refused = capsys.readouterr().err.strip().splitlines()[-1]
    assert main(["slices", *files, "--dimension", "label", "--labels", str(labels)]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == refused
    assert main(["report", *files, "-o", str(tmp_path / "r.html"), "--labels",
                 str(labels)]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == refused


def test_the_report_reads_model_answers_as_score_does_and_says_how(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    score = _json(capsys, "score", str(GOLD), str(GPT), "--metric", "mafalda",
                  "--llm-parsing", "repo-head")
    out = tmp_path / "r.html"
    assert main(["report", str(GOLD), str(GPT), "-o", str(out), "--samples", "50",
                 "--llm-parsing", "repo-head"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "--llm-parsing repo-head" in html
    cells = re.findall(r"<td[^>]*>([0-9.]+)</td>", html.split("<section id='scores'>")[1]
                       .split("</section>")[0])
    assert f"{score['f1']:.4f}" in cells
    default = tmp_path / "d.html"
    assert main(["report", str(GOLD), str(GPT), "-o", str(default), "--samples", "50"]) == 0
    assert "--llm-parsing" not in default.read_text(encoding="utf-8")  # as before


def test_mafalda_label_slices_say_the_reference_counts_differ_by_system(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A gold span with alternatives counts under the label each system matched: the #ref of a
    label bucket differs between systems, and slices says so (text and JSON), for the label
    dimensions under MAFALDA only."""
    random = MAF / "results" / "base-random_level_2_results.jsonl"
    argv = [str(GOLD), str(GPT), str(random), "--dimension", "label", "--metric", "mafalda",
            "--level", "1", "--samples", "0"]
    got = _json(capsys, "slices", *argv)
    refs: dict[str, set[int]] = {}
    for r in got["buckets"]:
        refs.setdefault(r["bucket"], set()).add(r["reference spans"])
    assert any(len(v) > 1 for v in refs.values())
    assert "counts under the label each system matched" in got["note"]
    assert main(["slices", *argv]) == 0
    assert "note: MAFALDA per label:" in capsys.readouterr().out
    for other in (["--dimension", "span_length"], ["--metric", "martino"]):
        assert "note" not in _json(capsys, "slices", *argv, *other)
