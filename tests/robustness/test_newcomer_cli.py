"""Issue 16 item 1 on the command line: ``validate`` guesses the role as the Data page does and
prints each error once; ``score --metric mafalda`` uses the dashboard's taxonomy rule and says
which taxonomy it used."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.model import taxonomy
from ui import state

ROOT = Path(__file__).resolve().parents[2]
PROPAGANDA = ROOT / "sample_data" / "propaganda"
MAFALDA = ROOT / "sample_data" / "mafalda"


def test_validate_prints_an_error_once(tmp_path: Path, cli, clean_failure) -> None:
    bad = tmp_path / "pred.json"
    bad.write_text('[{"id": "1", "text": "ab",}]', encoding="utf-8")
    run = cli("validate", str(bad))
    clean_failure(run)
    message = "malformed JSON at column 27"
    assert (run.out + run.err).count(message) == 1, (run.out, run.err)
    assert re.search(r"^errors\s+1$", run.out, re.M)  # the report counts it, stderr says it


@pytest.mark.parametrize(("name", "role"), [("system_b.jsonl", "system"),
                                            ("annotator_1.jsonl", "annotator"),
                                            ("gold.jsonl", "gold")])
def test_validate_guesses_the_role_from_the_name_as_the_data_page(cli, name: str,
                                                                 role: str) -> None:
    run = cli("validate", str(MAFALDA / name), "--json")
    assert run.rc == 0, run.err
    assert json.loads(run.out)["role"] == role == state.guess_role(name)


def test_validate_reads_a_prediction_named_so_as_a_prediction(cli) -> None:
    # MAFALDA's 'unknown' is a prediction's label: refused in a gold, accepted in system_b.
    assert cli("validate", str(MAFALDA / "system_b.jsonl")).rc == 0
    assert cli("validate", str(MAFALDA / "system_b.jsonl"), "--role", "gold").rc == 1


def test_score_mafalda_scores_propaganda_labels_one_class_each_and_says_so(cli) -> None:
    run = cli("score", str(PROPAGANDA / "gold.json"), str(PROPAGANDA / "system_a.json"),
              "--metric", "mafalda", "--level", "1", "--json")
    assert run.rc == 0, run.err
    out = json.loads(run.out)
    assert out["taxonomy"].startswith("labels of the data: one class per label")
    text = cli("score", str(PROPAGANDA / "gold.json"), str(PROPAGANDA / "system_a.json"),
               "--metric", "mafalda")
    assert "taxonomy: labels of the data: one class per label" in text.out
    maf = cli("score", str(MAFALDA / "gold.jsonl"), str(MAFALDA / "system_a.jsonl"), "--metric",
              "mafalda", "--json")
    assert json.loads(maf.out)["taxonomy"] == "MAFALDA (23 fallacies in 3 groups)"


def test_a_misspelt_fallacy_is_said_not_silent(tmp_path: Path, cli) -> None:
    # The MAFALDA reader refuses a misspelt label; other formats reach the taxonomy rule.
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"id": "d1", "text": "He is a liar, so he is wrong.", "labels": [
        {"start": 0, "end": 12, "technique": "ad hominem"},
        {"start": 14, "end": 28, "technique": "appeal to anger"}]}]), encoding="utf-8")
    pred = tmp_path / "pred.csv"
    pred.write_text("doc_id,start,end,label\nd1,0,12,ad hominen\nd1,14,28,appeal to anger\n",
                    encoding="utf-8")
    run = cli("score", str(gold), str(pred), "--metric", "mafalda", "--json")
    assert run.rc == 0, run.err
    out = json.loads(run.out)
    assert out["taxonomy"].startswith("labels of the data")
    assert any("labels outside the MAFALDA taxonomy ('ad hominen')" in w
               for w in out["warnings"])


def _scores_page(sample: str, system: str) -> list[str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params.update({"metric": "mafalda", "level": "1", "b": system, "sample": sample})
    at.run()
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    # One caption may hold several paragraphs (the overall line and the taxonomy share one).
    return [p for c in at.caption for p in c.value.replace("\\", "").split("\n\n")]


def _cli_line(cli, gold: Path, pred: Path) -> dict:
    run = cli("score", str(gold), str(pred), "--metric", "mafalda", "--level", "1", "--json")
    assert run.rc == 0, run.err
    out: dict = json.loads(run.out)
    out["line"] = f"P {out['precision']:.3f} · R {out['recall']:.3f} · F1 {out['f1']:.3f}"
    return out


def test_the_dashboard_names_the_taxonomy_the_command_line_uses(cli) -> None:
    """The Scores page says which taxonomy the MAFALDA metric's levels used, in the words of
    ``score``'s ``taxonomy`` key, and on MAFALDA data shows the same numbers."""
    for sample, gold, pred in (("mafalda", MAFALDA / "gold.jsonl", MAFALDA / "system_a.jsonl"),
                               ("propaganda", PROPAGANDA / "gold.json",
                                PROPAGANDA / "system_a.json")):
        out = _cli_line(cli, gold, pred)
        captions = _scores_page(sample, "system_a")
        shown = [c for c in captions if c.startswith("Taxonomy (MAFALDA metric, levels):")]
        assert len(shown) == 1 and out["taxonomy"] in shown[0], (out["taxonomy"], shown)
        if sample == "mafalda":
            assert out["line"] in captions, (out["line"], captions)


def test_the_dashboard_and_the_command_line_score_propaganda_alike(cli) -> None:
    # Both read the gold as MAFALDA does (Definition 6: labels sharing an interval are
    # alternatives), through the registry entry's gold_view.
    out = _cli_line(cli, PROPAGANDA / "gold.json", PROPAGANDA / "system_a.json")
    assert out["line"] in _scores_page("propaganda", "system_a")


def test_one_rule_resolves_the_taxonomy() -> None:
    labels = (PROPAGANDA / "labels.txt").read_text(encoding="utf-8").splitlines()
    assert taxonomy.resolve(labels).name == "labels of the data"
    assert taxonomy.resolve(["ad hominem", "nothing"]) is taxonomy.mafalda()
