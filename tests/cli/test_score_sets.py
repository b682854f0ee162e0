"""``--gold-set`` / ``--pred-set`` pick an annotation set by name with the default engine:
two annotators of one Label Studio export (our own two tasks,
``tests/data/formats/label-studio/two_annotators.json``) scored one against the other by
``score``, ``explain`` and ``errors``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

EXPORT = str(Path(__file__).resolve().parents[1] / "data" / "formats" / "label-studio"
             / "two_annotators.json")
ANA, BEN = "annotator ana@example.org", "annotator ben@example.org"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_score_compares_two_annotators_of_one_export(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "score", EXPORT, EXPORT, "--metric", "martino", "--gold-set", ANA,
                      "--pred-set", BEN, "--json")
    assert rc == 0
    result = json.loads(out)
    # Ben's 5 spans against Ana's 4: Time and Place exact, Person 'Lee' inside 'Officer Lee'
    # (recall 3/11), Firearm 'a rifle' holding 'rifle' (precision 5/7), Vehicle spurious.
    assert (result["precision_denominator"], result["recall_denominator"]) == (5, 4)
    assert result["precision_numerator"] == pytest.approx(3 + 5 / 7)
    assert result["recall_numerator"] == pytest.approx(3 + 3 / 11)
    rc, out, _ = _run(capsys, "score", EXPORT, EXPORT, "--metric", "martino", "--gold-set", BEN,
                      "--pred-set", ANA, "--json")
    swapped = json.loads(out)
    assert rc == 0 and swapped["precision_denominator"] == 4
    assert swapped["f1"] == pytest.approx(result["f1"])


def test_without_a_set_name_the_error_names_the_option(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    rc, _, err = _run(capsys, "score", EXPORT, EXPORT, "--metric", "martino")
    assert rc == 1
    assert f"expected exactly one annotation set, found 2 ({ANA}, {BEN}); pick one by name " \
           "with --gold-set" in err
    rc, _, err = _run(capsys, "score", EXPORT, EXPORT, "--metric", "martino", "--gold-set", ANA,
                      "--pred-set", "annotator nobody")
    assert rc == 1 and "no annotation set named 'annotator nobody' (--pred-set)" in err


def test_explain_and_errors_take_the_same_options(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "explain", EXPORT, EXPORT, "--metric", "martino", "--doc", "2",
                      "--gold-set", ANA, "--pred-set", BEN, "--json")
    assert rc == 0
    assert {row["pred_text"] for row in json.loads(out)["rows"]} >= {"Elm Street", "red car"}
    rc, out, _ = _run(capsys, "errors", EXPORT, EXPORT, "--gold-set", ANA, "--pred-set", BEN,
                      "--json")
    assert rc == 0
    counts = json.loads(out)["overall"]
    assert counts["prediction"]["spurious"] == 1 and counts["reference"]["correct"] == 2
