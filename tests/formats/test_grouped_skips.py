"""Lines and results that carry no span (brat relations and attributes, Label Studio relations)
are the body of many real exports: each kind is one grouped warning that counts them, and
``--all-warnings`` still lists every one, in file order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats import load_files
from core.model.errors import expand, warning_total

TEXT = "Aspirin eases headache and fever."
ANN = ("T1\tDrug 0 7\tAspirin\nA1\tCertainty T1 High\nT2\tSymptom 14 22\theadache\n"
       "R1\tTreats Arg1:T1 Arg2:T2\nA2\tCertainty T2 Low\n#1\tAnnotatorNotes T1\tcommon\n")


def _brat() -> dict[str, bytes]:
    return {"a.ann": ANN.encode(), "a.txt": TEXT.encode(),
            "b.ann": ANN.replace("A2\t", "A9\t").encode(), "b.txt": TEXT.encode()}


def test_brat_skipped_lines_are_one_warning_per_file_and_kind_with_their_count() -> None:
    loaded = load_files(_brat(), name="corpus")
    skipped = [d for d in loaded.diagnostics if "only T lines carry spans" in d.message]
    assert [(d.file, d.line, d.message) for d in skipped] == [
        (f"corpus/{f}.ann", line, message) for f in "ab" for line, message in [
            (2, "skipped 2 attribute lines (only T lines carry spans), on lines 2, 5; the "
                "first: 'A1\\tCertainty T1 High'"),
            (4, "skipped a relation line (only T lines carry spans): "
                "'R1\\tTreats Arg1:T1 Arg2:T2'"),
            (6, "skipped a note line (only T lines carry spans): "
                "'#1\\tAnnotatorNotes T1\\tcommon'")]]
    assert warning_total(loaded.diagnostics) == len(list(expand(loaded.diagnostics))) == 6


def test_brat_skipped_lines_leave_a_rarer_warning_in_sight(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    relations = "".join(f"R{k}\tTreats Arg1:T1 Arg2:T2\n" for k in range(1, 40))
    (tmp_path / "a.ann").write_text("T1\tDrug 0 7\tAspirin\n" + relations
                                    + "T2\tSymptom 13 22\t headache\n")
    (tmp_path / "a.txt").write_text(TEXT)
    assert main(["validate", str(tmp_path / "a.ann"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["warning_counts"] == {"skipped": 1, "whitespace": 1}
    assert len(out["warnings"]) == 2 and "skipped 39 relation lines" in out["warnings"][1]
    assert "begins or ends in whitespace" in out["warnings"][0]


def test_label_studio_relation_results_are_one_grouped_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    span = {"type": "labels", "value": {"start": 0, "end": 7, "text": "Aspirin",
                                        "labels": ["Drug"]}}
    relation = {"type": "relation", "from_id": "a", "to_id": "b"}
    tasks = [{"id": i, "data": {"text": TEXT},
              "annotations": [{"completed_by": 1, "result": [span, relation, relation]}]}
             for i in range(3)]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks))
    assert main(["validate", str(path), "--json", "--all-warnings"]) == 0
    out = json.loads(capsys.readouterr().out)
    relations = [w for w in out["warnings"] if "a relation result" in w]
    assert len(relations) == 6
    assert main(["validate", str(path), "--json"]) == 0
    grouped = json.loads(capsys.readouterr().out)
    assert sum(grouped["warning_counts"].values()) == 6
