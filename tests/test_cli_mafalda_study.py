"""``score`` on the MAFALDA user study's shape (``tests/data/formats/mafalda_study``, our own
texts): a gold without ids (numbered by line) against an annotator's doccano export of the same
texts under its own ids. The documents are matched to the gold's by their text
(:func:`core.model.alignment.onto`), as ``agree`` and the dashboard match them, with a warning
that says so; a file with another text is refused as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

STUDY = Path(__file__).parent / "data" / "formats" / "mafalda_study"
GOLD = str(STUDY / "gold.jsonl")


@pytest.mark.parametrize("metric", ["mafalda", "martino", "nervaluate"])
def test_score_matches_an_annotators_documents_to_the_golds_by_their_text(
        metric: str, capsys: pytest.CaptureFixture[str]) -> None:
    # annotator 2 numbers the documents 4662-4664, in another order, one text with a double space
    assert main(["score", "--metric", metric, GOLD, str(STUDY / "annotator2.jsonl"),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (note,) = [w for w in out["warnings"] if "renamed" in w]
    assert note.endswith("annotator2.jsonl: 3 documents renamed, matched to the other files' "
                         "documents by their text (or, where another file uses the id for "
                         "another text, given this file's name) ('4664' → '2', '4662' → '0', "
                         "'4663' → '1')")
    if metric == "mafalda":  # the same spans and labels as the gold: a perfect score
        assert out["f1"] == out["label_only"]["f1"] == 1.0 and out["documents"] == 3


def test_score_of_another_annotator_counts_its_other_label(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--metric", "mafalda", GOLD, str(STUDY / "annotator1.jsonl"),
                 "--json"]) == 0
    ann1 = json.loads(capsys.readouterr().out)
    assert ann1["label_only"]["f1"] < 1.0  # annotator 1 calls the second text another fallacy


def test_score_still_refuses_a_file_of_other_texts(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rows = [json.loads(line) for line in (STUDY / "annotator1.jsonl").read_text().splitlines()]
    rows[1]["text"] = "Another text altogether.\n"
    rows[1]["label"] = []
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["score", "--metric", "mafalda", GOLD, str(other)]) == 1
    err = capsys.readouterr().err
    assert "must cover the same documents" in err and "'4642'" in err


def test_errors_and_slices_match_them_the_same_way(capsys: pytest.CaptureFixture[str]) -> None:
    pred = [str(STUDY / "annotator1.jsonl"), str(STUDY / "annotator2.jsonl")]
    assert main(["errors", GOLD, pred[0], "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["documents"] == 3
    assert any("annotator1.jsonl: 3 documents renamed" in w for w in out["warnings"])
    assert main(["slices", GOLD, *pred, "--dimension", "span_length", "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert sum("3 documents renamed" in w for w in warnings) == 2
