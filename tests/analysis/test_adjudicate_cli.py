"""``python -m core adjudicate``: the round trip adjudicate → validate → score, every writable
format, the decisions CSV, and the exit-status contract."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from core.analysis.consensus import DECISION_COLUMNS, consensus
from core.formats import WRITABLE, load_path
from core.metrics import martino
from tests.cli_runs import core_main as core
from tests.cli_runs import python_m_core

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "propaganda"
ANNOTATORS = [str(SAMPLE / f"annotator_{i}.json") for i in (1, 2, 3)]
DATA = Path(__file__).parent / "data"


def test_round_trip_adjudicate_validate_score(tmp_path: Path) -> None:
    out, dec = tmp_path / "consensus.json", tmp_path / "decisions.csv"
    proc = python_m_core("adjudicate", *ANNOTATORS, "--min-agree", "2", "--match", "gamma",
                         "-o", str(out), "--to", "semeval2021", "--decisions", str(dec),
                         "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)  # exactly one JSON object
    # the file holds what the core function computes
    sets = [load_path(p).set.with_role("annotator", f"annotator_{i}")
            for i, p in enumerate(ANNOTATORS, 1)]
    texts = load_path(ANNOTATORS[0]).texts
    expected = consensus(sets, texts, min_agree=2, match="gamma")
    assert result["spans"] == expected.set.span_count() == result["kept"]
    assert result["annotators"] == ["annotator_1", "annotator_2", "annotator_3"]
    assert [c["id"] for c in result["conflicts"]] == [d.id for d in expected.conflicts()]

    valid = python_m_core("validate", str(out), "--json")
    assert valid.returncode == 0, valid.stderr
    assert json.loads(valid.stdout)["spans"] == expected.set.span_count()

    score = python_m_core("score", str(SAMPLE / "gold.json"), str(out), "--metric", "martino",
                          "--json")
    assert score.returncode == 0, score.stderr
    gold = load_path(SAMPLE / "gold.json").set
    direct = martino.score(gold, expected.set.with_role("system"))
    assert json.loads(score.stdout)["f1"] == pytest.approx(direct.f1)

    with dec.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == DECISION_COLUMNS
    assert len(rows) == len(expected.decisions)
    assert {r["decision"] for r in rows} == {"keep", "drop"}
    assert all(r["why"] and r["annotators"] for r in rows)
    assert sum(r["decision"] == "keep" for r in rows) == expected.set.span_count()


# hateval holds text labels; the mafalda reader accepts only MAFALDA's taxonomy (these labels
# are propaganda techniques), though its writer writes any label; token formats are made of the
# text, which a spans CSV does not carry.
NEEDS_TEXT = ("webanno-tsv", "conll", "spacy")


@pytest.mark.parametrize("fmt", NEEDS_TEXT)
def test_a_token_format_refuses_a_consensus_without_texts(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"out.{fmt}"
    proc = core("adjudicate", str(DATA / "three.csv"), "--min-agree", "2", "--match",
                "exact", "-o", str(out), "--to", fmt)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "document '1' has no text" in proc.stderr


@pytest.mark.parametrize("fmt", [f for f in WRITABLE
                                 if f not in ("hateval", "mafalda", *NEEDS_TEXT)])
def test_every_span_format_writes_a_file_that_reads_back(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / ("out" if fmt in ("brat", "ptc") else f"out.{fmt}")
    proc = core("adjudicate", str(DATA / "three.csv"), "--min-agree", "2", "--match",
                "exact", "-o", str(out), "--to", fmt)
    assert proc.returncode == 0, proc.stderr
    back = load_path(out, fmt=fmt).sets
    spans = {(d, s.start, s.end, s.label) for aset in back for d, v in aset for s in v}
    assert spans == {("1", 0, 10, "Doubt"), ("1", 20, 35, "Slogans"),
                     ("2", 5, 25, "Loaded Language")}


def test_text_output_lists_ties_and_conflicts(tmp_path: Path) -> None:
    proc = core("adjudicate", str(DATA / "three.csv"), "--min-agree", "2", "--match", "gamma",
                "-o", str(tmp_path / "c.csv"), "--to", "spans-csv")
    assert proc.returncode == 0, proc.stderr
    assert "ties (2):" in proc.stdout
    assert "3#1 [0, 8) Doubt: drop (partial, label-tie)" in proc.stdout
    assert "3#2 [0, 8) Slogans: drop (partial, label-tie)" in proc.stdout
    assert "conflicts (1):" in proc.stdout
    # the tie is written once as nothing, and the summary says so (tour 5, #2)
    assert "1 span(s) with tied labels left undecided, not written" in proc.stdout
    assert "\n3,0," not in (tmp_path / "c.csv").read_text()
    keep = core("adjudicate", str(DATA / "three.csv"), "--min-agree", "2", "--match", "gamma",
                "--ties", "keep-all", "-o", str(tmp_path / "k.csv"), "--to", "spans-csv",
                "--json")
    assert keep.returncode == 0, keep.stderr
    got = json.loads(keep.stdout)
    assert (got["tie_rule"], got["undecided_ties"]) == ("keep-all", 0)
    assert (tmp_path / "k.csv").read_text().count("\n3,0,8,") == 2


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--min-agree", "0"], 2,
     "argument --min-agree: expected a number of annotators from 1 (1 = union), got 0\n"),
    (["--min-agree", "-3"], 2,
     "argument --min-agree: expected a number of annotators from 1 (1 = union), got -3\n"),
    (["--min-agree", "two"], 2,
     "argument --min-agree: expected a whole number of annotators (1, 2, ...), got 'two'\n"),
    (["--min-agree", "1.5"], 2,
     "argument --min-agree: expected a whole number of annotators (1, 2, ...), got '1.5'\n"),
    (["--min-agree", "4"], 2, "--min-agree 4 is more than the 3 annotators given"),
    (["--min-agree", "2", "--match", "fuzzy"], 2, "invalid choice: 'fuzzy'"),
    (["--min-agree", "2", "--to", "hateval"], 2,
     "argument --to: hateval holds text-level labels, not spans; choose one of semeval2021,"),
    (["--min-agree", "2", "--name", " "], 2,
     "argument --name: expected a name for the consensus set, got an empty one\n"),
    (["--min-agree", "2", "--name", "a\nb"], 2,
     "argument --name: expected a name on one line, got 'a\\nb'\n"),
])
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    base = [str(DATA / "three.csv"), "-o", str(tmp_path / "c.json")]
    if "--to" not in args:
        base += ["--to", "semeval2021"]
    proc = core("adjudicate", *base, *args)
    assert proc.returncode == code
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    # our wording, never a library's: no parameter names of Python functions
    assert "parameter" not in proc.stderr and "invalid int value" not in proc.stderr


def test_bad_option_values_are_refused_before_anything_is_read(monkeypatch, capsys,
                                                               tmp_path: Path) -> None:
    """At parse time: no file is read, no output checked, no consensus computed."""
    import core.cli.adjudicate as adjudicate
    from core.cli import main

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the files were read")

    monkeypatch.setattr(adjudicate, "load_annotator_sets", never)
    for bad in (["--min-agree", "0"], ["--min-agree", "x"], ["--to", "hateval"],
                ["--name", ""]):
        argv = {"--min-agree": "2", "--to": "semeval2021", "--name": "consensus"}
        argv[bad[0]] = bad[1]
        with pytest.raises(SystemExit) as exit_:
            main(["adjudicate", str(DATA / "three.csv"), "-o", str(tmp_path / "c.json"),
                  *(x for pair in argv.items() for x in pair)])
        assert exit_.value.code == 2
        assert f"argument {bad[0]}: expected" in capsys.readouterr().err or bad[1] == "hateval"


def test_invalid_input_exits_1_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("doc_id,start,end,label,annotator\nt1,5,2,Doubt,a\n", encoding="utf-8")
    # exit 1 from a process of its own (the contract), the rest in this process
    proc = python_m_core("adjudicate", str(bad), str(DATA / "three.csv"), "--min-agree", "2",
                         "-o", str(tmp_path / "c.json"), "--to", "semeval2021")
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
    assert "bad.csv:2" in proc.stderr
    one = core("adjudicate", ANNOTATORS[0], "--min-agree", "1", "-o", str(tmp_path / "c.json"),
               "--to", "semeval2021")
    assert one.returncode == 1 and "at least two annotation sets" in one.stderr


def test_spans_dropped_below_k_are_listed_with_who_marked_them(tmp_path: Path) -> None:
    """A lead who runs adjudicate without --decisions must still see what the consensus left
    out: the span only A marked is listed (with A), the tied interval is not (it is a tie,
    listed under ties), and the JSON keeps every earlier key."""
    spans = tmp_path / "four.csv"
    spans.write_text("doc_id,start,end,label,annotator\n"
                     "d,0,5,x,A\nd,0,5,x,B\nd,0,5,y,C\nd,0,5,y,D\nd,10,15,x,A\n"
                     "d,20,25,x,A\nd,20,25,x,B\nd,20,25,x,C\n", encoding="utf-8")
    out = tmp_path / "consensus.jsonl"
    proc = core("adjudicate", str(spans), "--min-agree", "2", "-o", str(out), "--to",
                "spans-csv", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert [(r["start"], r["end"], r["label"], r["annotators"])
            for r in result["dropped_below_k"]] == [(10, 15, "x", ["A"])]
    assert {(r["start"], r["label"]) for r in result["ties"]} == {(0, "x"), (0, "y")}
    assert result["kept"] == 1 and result["dropped"] == 3
    text = core("adjudicate", str(spans), "--min-agree", "2", "-o", str(out), "--to",
                "spans-csv").stdout
    alone = result["dropped_below_k"][0]["id"]
    assert f"dropped, marked by fewer than k=2 (1):\n  {alone} [10, 15) x: A\n" in text


def test_an_annotator_without_some_documents_is_named(tmp_path: Path) -> None:
    """An annotator with no entry for documents the others have was not mentioned: the
    consensus there silently counted only the others. The warning names who, how many and the
    first ids (kind ``missing-documents``); ``missing_documents`` lists them in the JSON."""
    rows = ["doc_id,start,end,label,annotator"]
    for d in range(8):
        rows += [f"t{d},0,5,Doubt,ann1", f"t{d},0,5,Doubt,ann2"]
        if d not in (1, 4, 6, 7):
            rows.append(f"t{d},0,5,Doubt,ann3")
    src = tmp_path / "three.csv"
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "consensus.json"
    proc = core("adjudicate", str(src), "--min-agree", "2", "-o", str(out), "--to",
                "semeval2021", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["missing_documents"] == {"ann3": {"documents": 4,
                                                    "first": ["t1", "t4", "t6", "t7"]}}
    assert result["warning_counts"] == {"missing-documents": 1}
    (warning,) = result["warnings"]
    assert warning.startswith("ann3: lacks 4 of the study's 8 documents (other annotators "
                              "have them): 't1', 't4', 't6' and 1 more; ann3 has no vote")
    text = core("adjudicate", str(src), "--min-agree", "2", "-o", str(out), "--to",
                "semeval2021")
    assert text.returncode == 0, text.stderr
    assert "warnings: 1 (missing-documents 1)" in text.stdout
    assert "ann3: lacks 4 of the study's 8 documents" in text.stdout
    # every annotator lists every document: no warning, an empty mapping
    full = core("adjudicate", *ANNOTATORS, "--min-agree", "2", "-o", str(out), "--to",
                "semeval2021", "--json")
    assert json.loads(full.stdout)["missing_documents"] == {}
