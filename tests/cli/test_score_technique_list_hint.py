"""``score --metric martino`` on SemEval-2020 Task 11 files under the default variant
(semeval2021), tour 18: the warning that the gold's labels are outside the semeval2021 list now
names the shipped list that holds them all (SemEval-2020 Task 11's, with its file, which
``--labels`` takes), and the per-label table no longer prints an "F1 (official)" column of
blanks without a word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.model.techniques import DATA

TC = Path(__file__).resolve().parents[1] / "data" / "formats" / "ptc" / "semeval2020-tc-folder"
TEXT = ("Everyone knows the radical left wants open borders.\n"
        "What about the failures of the previous government?\n")
GOLD_ROWS = [("Bandwagon,Reductio_ad_hitlerum", 0, 50), ("Name_Calling,Labeling", 19, 31),
             ("Whataboutism,Straw_Men,Red_Herring", 52, 103)]


def _gold(tmp_path: Path) -> Path:
    """A SemEval-2020 Task 11 gold folder: one article and its TC labels, techniques of the 2020
    list only (a merged name such as 'Bandwagon,Reductio_ad_hitlerum' is on no other list)."""
    folder = tmp_path / "dev-articles"
    folder.mkdir()
    (folder / "article700000001.txt").write_text(TEXT, encoding="utf-8")
    (folder / "article700000001.task2-TC.labels").write_text(
        "".join(f"700000001\t{t}\t{s}\t{e}\n" for t, s, e in GOLD_ROWS), encoding="utf-8")
    return folder


def _pred(tmp_path: Path) -> Path:
    """A system's TC-format predictions: the gold's rows, the last one labelled Doubt."""
    rows = [*GOLD_ROWS[:-1], ("Doubt", 52, 103)]
    path = tmp_path / "pred-TC.txt"
    path.write_text("".join(f"700000001\t{t}\t{s}\t{e}\n" for t, s, e in rows),
                    encoding="utf-8")
    return path


def test_the_warning_names_the_semeval2020_list_and_its_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(_gold(tmp_path)), str(_pred(tmp_path)), "--metric", "martino",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (said,) = out["warnings"]
    listed = DATA / "semeval2020-tc.txt"
    assert "labels outside the semeval2021 technique list" in said
    assert said.endswith("(pass --labels FILE to fix the list; all of them are on the "
                         "SemEval-2020 Task 11 list (14 techniques): "
                         "core/data/techniques/semeval2020-tc.txt in SpanScope's package)")
    # named by its place in the package, the same on every install (no path of this machine)
    assert listed.is_file() and listed.parts[-4:] == (
        "core", "data", "techniques", "semeval2020-tc.txt")
    assert str(DATA.parent.parent.parent) not in said
    assert out["warning_counts"] == {"outside-technique-list": 1}
    assert out["per_label_official"] == {}


def test_the_named_file_given_to_labels_ends_the_warning_and_fills_the_official_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _gold(tmp_path), _pred(tmp_path)
    assert main(["score", str(gold), str(pred), "--metric", "martino", "--json"]) == 0
    without = json.loads(capsys.readouterr().out)
    assert main(["score", str(gold), str(pred), "--metric", "martino", "--json",
                 "--labels", str(DATA / "semeval2020-tc.txt")]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["warnings"] == []
    assert len(listed["per_label_official"]) == 14
    assert (listed["precision"], listed["recall"]) == (without["precision"], without["recall"])


def test_no_blank_official_column_without_a_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _gold(tmp_path), _pred(tmp_path)
    assert main(["score", str(gold), str(pred), "--metric", "martino"]) == 0
    text = capsys.readouterr().out
    head = next(line for line in text.splitlines() if line.strip().startswith("label"))
    assert "F1 (official)" not in head
    assert ("(no F1 (official) column: the official scorer prints its per-technique lines for "
            "a technique list, and the gold's labels are not all on the variant's; --labels "
            "FILE gives one)") in text
    assert main(["score", str(gold), str(pred), "--metric", "martino",
                 "--labels", str(DATA / "semeval2020-tc.txt")]) == 0
    text = capsys.readouterr().out
    head = next(line for line in text.splitlines() if line.strip().startswith("label"))
    assert head.rstrip().endswith("F1 (official)")
    assert "no F1 (official) column" not in text


def test_labels_on_no_shipped_list_get_no_list_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.tsv"
    gold.write_text("1\tBanana\t0\t4\n", encoding="utf-8")
    assert main(["score", str(gold), str(gold), "--metric", "martino", "--json"]) == 0
    (said,) = json.loads(capsys.readouterr().out)["warnings"]
    assert said.endswith("(pass --labels FILE to fix the list)")


def test_span_identification_says_why_it_has_no_official_column(
        capsys: pytest.CaptureFixture[str]) -> None:
    si = TC.parent / "semeval2020-si-folder"
    assert main(["score", str(si), str(si), "--metric", "martino", "--variant",
                 "semeval2020-si", "--merge-pred"]) == 0
    text = capsys.readouterr().out
    assert "(span identification: the official scorer prints no per-technique lines)" in text
    assert "F1 (official)" not in text


def test_a_tc_prediction_need_not_name_a_gold_article_without_spans(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """article203 of the folder has no spans, so no TC row can name it: a prediction that is
    the gold's rows was refused ("must cover the same documents"); it scores 1."""
    rows = "".join(f.read_text(encoding="utf-8") for f in sorted(TC.glob("*.labels")))
    assert "203\t" not in rows
    pred = tmp_path / "pred-TC.txt"
    pred.write_text(rows, encoding="utf-8")
    for variant in ("semeval2020-tc", "semeval2020-tc-fixed", "semeval2020-tc-by-article"):
        assert main(["score", str(TC), str(pred), "--metric", "martino", "--variant", variant,
                     "--json"]) == 0, capsys.readouterr().err
        out = json.loads(capsys.readouterr().out)
        assert (out["precision"], out["recall"], out["accuracy"]) == (1.0, 1.0, 1.0)
    # an article with spans that the prediction lacks is still refused, naming it
    pred.write_text("".join(r + "\n" for r in rows.splitlines() if not r.startswith("202")),
                    encoding="utf-8")
    assert main(["score", str(TC), str(pred), "--metric", "martino", "--variant",
                 "semeval2020-tc"]) == 1
    assert "'202'" in capsys.readouterr().err


def test_the_default_variant_says_how_to_score_a_prediction_that_lacks_documents(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A TSV prediction cannot list an article it predicts nothing on; the semeval2021 refusal
    names the variant that scores it, which then does."""
    rows = "".join(f.read_text(encoding="utf-8") for f in sorted(TC.glob("*.labels")))
    pred = tmp_path / "pred-TC.txt"
    pred.write_text(rows, encoding="utf-8")
    assert main(["score", str(TC), str(pred), "--metric", "martino"]) == 1
    err = capsys.readouterr().err
    assert "must cover the same documents: 1 only in semeval2020-tc-folder ('203')" in err
    assert "(--variant nlp4if2019)" in err and "\n" not in err.rstrip("\n")
    assert main(["score", str(TC), str(pred), "--metric", "martino", "--variant",
                 "nlp4if2019", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["f1"] == 1.0
