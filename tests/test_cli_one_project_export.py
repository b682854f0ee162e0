"""The command line on three annotators' doccano exports of one project whose files number the
documents each their own way (``tests/data/formats/doccano/one_project_three_annotators``, our
own texts shaped like the tour's restaurant_reviews export): ``agree`` and ``adjudicate`` match
the documents by their text (:mod:`core.model.alignment`) and say so in their JSON's
``alignment`` key, as the dashboard does for ``--data`` (tests/app/test_cli_data_page.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

EXPORT = Path(__file__).parent / "data" / "formats" / "doccano" / "one_project_three_annotators"
FILES = [str(EXPORT / n) for n in ("amal.jsonl", "bo.jsonl", "chen.jsonl")]
ALIGNMENT = {
    "amal.jsonl": {"renamed": {}, "unmatched": ["4"]},
    "bo.jsonl": {"renamed": {"1": "1@bo.jsonl", "2": "1", "5": "2"}, "unmatched": []},
    "chen.jsonl": {"renamed": {"2": "3", "3": "3@chen.jsonl", "7": "1", "8": "1@bo.jsonl"},
                   "unmatched": ["3@chen.jsonl"]},
}


def test_agree_matches_the_three_exports_documents_by_their_text(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", *FILES, "--measure", "span-f1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["documents"] == 6  # six texts, however many ids
    assert out["alignment"] == ALIGNMENT
    matrix = out["span-f1"]["matrix"]
    # amal and chen marked the same spans in the two texts they share, one of which chen's
    # copy ends with a space: matched, so they agree fully
    assert matrix["amal"]["chen"] == matrix["chen"]["amal"] == 1.0
    assert any("chen.jsonl: 4 documents renamed, matched to the other files' documents by "
               "their text" in w for w in out["warnings"])


def test_adjudicate_matches_them_the_same_way(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    assert main(["adjudicate", *FILES, "--min-agree", "1", "-o", str(tmp_path / "c.json"),
                 "--to", "semeval2021", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["alignment"] == ALIGNMENT
