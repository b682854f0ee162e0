"""``agree`` on two annotators' folders that share a name: the amia-18 mutation corpus
(ibm-aur-nlp/amia-18-mutation-corpus) keeps each annotator's agreement set as
``data-preadjudicated/annotator2/IAA`` and ``annotator4/IAA``, and REDEWIEDERGABE its primary
annotations as ``jupiter/xmi/X.xmi`` and ``mars/xmi/X.xmi``. Both inputs' sets were named
``IAA:IAA`` and ``agree`` refused them ("two annotation sets are both named 'IAA:IAA'") with no
way to rename; a set is now named by as much of its path as tells the inputs apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

TEXT = "BRCA1 carries the c.68_69delAG mutation."


def _annotator(folder: Path, spans: str) -> None:
    folder.mkdir(parents=True)
    (folder / "doc.txt").write_text(TEXT)
    (folder / "doc.ann").write_text(spans)


def test_two_folders_of_one_name_are_named_by_their_parents(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _annotator(tmp_path / "annotator2" / "IAA", "T1\tGene 0 5\tBRCA1\n")
    _annotator(tmp_path / "annotator4" / "IAA", "T1\tGene 0 5\tBRCA1\n")
    assert main(["agree", str(tmp_path / "annotator2" / "IAA"),
                 str(tmp_path / "annotator4" / "IAA"), "--measure", "span-f1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "annotator2/IAA:IAA" in json.dumps(out) and "annotator4/IAA:IAA" in json.dumps(out)


def test_only_the_sets_whose_names_collide_are_named_by_their_paths(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two other files that share a base name (``ann1/anno.csv``, ``ann2/anno.csv``, holding
    alice and bob, distinct) do not lengthen the names of the two carols: those stay
    ``s1.csv:carol`` and ``s2.csv:carol``, as before paths were taken into account."""
    rows = "doc_id,start,end,label,annotator\nd1,0,5,Gene,{}\n"
    for folder, name, who in (("ann1", "anno.csv", "alice"), ("ann2", "anno.csv", "bob"),
                              ("x", "s1.csv", "carol"), ("y", "s2.csv", "carol")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / name).write_text(rows.format(who))
    (tmp_path / "texts.jsonl").write_text(json.dumps({"id": "d1", "text": TEXT}) + "\n")
    files = [str(tmp_path / f) for f in ("ann1/anno.csv", "ann2/anno.csv", "x/s1.csv",
                                         "y/s2.csv")]
    assert main(["agree", *files, "--measure", "span-f1", "--json"]) == 0
    out = json.dumps(json.loads(capsys.readouterr().out))
    assert all(n in out for n in ('"alice"', '"bob"', '"s1.csv:carol"', '"s2.csv:carol"'))
    assert "x/s1.csv:carol" not in out
