"""A folder of PTC articles with their ``.labels`` given without a role is a gold on the command
line as on the Data page (``guess_role(..., fmt="ptc")``): ``validate FOLDER``, ``validate
FOLDER.zip`` and ``spanscope app --data FOLDER`` detect the format first, then guess."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from core.cli import main
from ui import cli_data

ROOT = Path(__file__).resolve().parents[2]
PTC_GOLD = ROOT / "sample_data" / "formats" / "ptc_gold"


@pytest.fixture
def articles(tmp_path: Path) -> Path:
    """The sample PTC gold folder under a name that gives no role."""
    folder = tmp_path / "articles"
    shutil.copytree(PTC_GOLD, folder)
    return folder


def _validate(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["validate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_validate_guesses_a_ptc_folder_gold(articles: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = _validate(capsys, str(articles))
    assert out["format"] == "ptc" and out["role"] == "gold"
    assert out["sets"]["articles"]["role"] == "gold"  # type: ignore[index]


def test_validate_guesses_a_zip_of_ptc_articles_gold(articles: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "tc.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for f in sorted(articles.iterdir()):
            z.write(f, f"articles/{f.name}")
    assert _validate(capsys, str(archive))["role"] == "gold"


def test_a_name_still_wins_over_the_format(articles: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    run = articles.rename(tmp_path / "system_tc")
    assert _validate(capsys, str(run))["role"] == "system"
    assert _validate(capsys, str(run), "--role", "annotator")["role"] == "annotator"


def test_validate_keeps_another_tools_folder_annotators(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    export = ROOT / "sample_data" / "formats" / "inception_export"
    assert _validate(capsys, str(export))["role"] == "annotator"


def test_app_data_reads_a_ptc_folder_as_one_gold(articles: Path) -> None:
    (report,) = cli_data.read_reports((cli_data.DataArg(None, str(articles)),))
    assert (report.name, report.role, report.error) == ("articles", "gold", None)
    assert report.format == "ptc" and len(report.texts) == 10  # each article with its text


def test_app_data_reads_a_ptc_sub_folder_as_one_gold(articles: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    articles.rename(corpus / "articles")
    shutil.copy(ROOT / "sample_data" / "formats" / "ptc_system_a.tsv", corpus / "run.tsv")
    reports = cli_data.read_reports((cli_data.DataArg(None, str(corpus)),))
    assert [(r.name, r.role, r.error) for r in reports] == [
        ("articles", "gold", None), ("run", "system", None)]


def test_a_folder_of_ptc_and_other_files_is_still_split(articles: Path) -> None:
    shutil.copy(ROOT / "sample_data" / "formats" / "ptc_system_a.tsv", articles / "run.tsv")
    assert not cli_data._ptc_articles(articles)
