"""Issue 18 §2 / issue 16 item 1: one policy for spans past the text, on every path."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui import state, text_policy

ROOT = Path(__file__).resolve().parents[2]
GOLD = [{"id": "d1", "text": "hello world", "labels": [
    {"start": 0, "end": 5, "technique": "Doubt"}]}]


def _files(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(GOLD), encoding="utf-8")
    pred = tmp_path / "pred.csv"
    pred.write_text("doc_id,start,end,label\nd1,0,5000,Doubt\n", encoding="utf-8")
    return gold, pred


def test_prediction_without_text_past_the_gold_text_is_refused_by_score_and_agree(
    tmp_path: Path, cli, clean_failure
) -> None:
    gold, pred = _files(tmp_path)
    for argv in (("score", str(gold), str(pred), "--metric", "martino"),
                 ("score", str(gold), str(pred), "--metric", "mafalda"),
                 ("agree", str(gold), str(pred), "--measure", "span-f1")):
        run = cli(*argv)
        clean_failure(run)
        assert "pred.csv: document 'd1' span [0, 5000) 'Doubt' ends past the text (11 " \
            "characters)" in run.err
        assert "--clip-spans" in run.err


def test_clip_spans_clips_with_a_warning_per_span(tmp_path: Path, cli) -> None:
    gold, pred = _files(tmp_path)
    run = cli("score", str(gold), str(pred), "--metric", "martino", "--clip-spans", "--json")
    assert run.rc == 0, run.err
    out = json.loads(run.out)
    assert any("clipped to [0, 11)" in w for w in out["warnings"])
    assert out["recall"] == 1.0  # [0, 11) covers the gold [0, 5) with the same label


def test_official_keeps_the_span_as_the_official_scorer(tmp_path: Path, cli) -> None:
    gold, pred = _files(tmp_path)
    run = cli("score", str(gold), str(pred), "--metric", "martino", "--beyond-text", "official",
              "--json")
    assert run.rc == 0
    out = json.loads(run.out)
    assert out["precision"] == 5 / 5000
    assert any("as the official scorers do" in w for w in out["warnings"])


def test_brat_ann_is_validated_with_the_txt_beside_it(tmp_path: Path, cli, clean_failure
                                                      ) -> None:
    (tmp_path / "1.ann").write_text("T1\tDoubt 0 500\tx\n", encoding="utf-8")
    (tmp_path / "1.txt").write_text("hello world", encoding="utf-8")
    single = cli("validate", str(tmp_path / "1.ann"))
    folder = cli("validate", str(tmp_path))
    clean_failure(single)
    clean_failure(folder)
    assert "expected an offset within the text (length 11), got 500" in single.err


def test_every_offending_set_is_listed_at_once(tmp_path: Path, cli) -> None:
    gold, pred = _files(tmp_path)
    other = tmp_path / "other.csv"
    other.write_text("doc_id,start,end,label\nd1,3,40,Doubt\n", encoding="utf-8")
    run = cli("agree", str(gold), str(pred), str(other), "--measure", "span-f1")
    assert run.rc == 1
    assert "in 2 set(s)" in run.err and "pred.csv" in run.err and "other.csv" in run.err


def test_hateval_files_cannot_be_scored_by_a_span_metric(cli, clean_failure) -> None:
    gold = ROOT / "sample_data/hateval/gold.tsv"
    pred = ROOT / "sample_data/hateval/system_task_a.tsv"
    for metric in ("martino", "mafalda"):
        run = cli("score", str(gold), str(pred), "--metric", metric)
        clean_failure(run)
        assert "holds text labels, not spans" in run.err and "hateval-a" in run.err


def test_data_page_policy_refuses_names_and_clips(tmp_path: Path) -> None:
    gold_bytes = json.dumps(GOLD).encode()
    pred_bytes = b"doc_id,start,end,label\nd1,0,5000,Doubt\n"
    reports = [state.parse_bytes("gold.json", gold_bytes, None, "gold", "gold"),
               state.parse_bytes("pred.csv", pred_bytes, None, "system", "pred")]
    refused = text_policy.apply(reports, "refuse")
    assert refused[0].ok and not refused[1].ok
    assert refused[1].error is not None
    assert "document 'd1' span [0, 5000)" in refused[1].error.message
    clipped = text_policy.apply(reports, "clip")
    assert clipped[1].ok and clipped[1].sets[0].spans["d1"][0].end == 11
    assert any("clipped to [0, 11)" in d.message for d in clipped[1].diagnostics)


def test_data_page_offers_the_choice() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/data.py").run()
    assert not at.exception
    radio = at.radio(key=text_policy.K_BEYOND_TEXT)
    assert list(radio.options) == list(text_policy.CHOICES.values())


def test_validate_refuses_a_prediction_label_that_score_refuses(tmp_path: Path, cli,
                                                                clean_failure) -> None:
    pred = tmp_path / "pred.json"
    pred.write_text('[{"id": "1", "text": "hello world", "labels": [{"start": 0, "end": 5, '
                    '"technique": "Loaded language"}]}]', encoding="utf-8")
    gold = ROOT / "sample_data/propaganda/gold.json"
    score = cli("score", str(gold), str(pred), "--metric", "martino")
    clean_failure(score)
    run = cli("validate", str(pred), "--role", "system")
    clean_failure(run)
    assert "'Loaded language'" in run.err and "did you mean 'Loaded Language'?" in run.err
    labels = tmp_path / "labels.txt"
    labels.write_text("Loaded language\n", encoding="utf-8")
    assert cli("validate", str(pred), "--role", "system", "--labels", str(labels)).rc == 0


def test_uima_xmi_follows_the_same_policy(tmp_path: Path, cli, clean_failure) -> None:
    """cassis keeps an offset past the sofa string (with a Python warning); the reader refuses
    it by default and clips or keeps it on request, with nothing but the one line on stderr."""
    export = ROOT / "sample_data/formats/xmi_export"
    folder = tmp_path / "xmi"
    folder.mkdir()
    (folder / "TypeSystem.xml").write_bytes((export / "TypeSystem.xml").read_bytes())
    xmi = (export / "speech1.xmi").read_text(encoding="utf-8")
    assert 'begin="73" end="90"' in xmi
    (folder / "speech1.xmi").write_text(xmi.replace('begin="73" end="90"', 'begin="73" end="190"'),
                                        encoding="utf-8")
    refused = cli("validate", str(folder))
    clean_failure(refused)
    assert "expected an offset within the text (length 90), got 190" in refused.err
    clipped = cli("validate", str(folder), "--clip-spans", "--json")
    assert clipped.rc == 0 and "Warning" not in clipped.err
    assert any("clipped to [72, 90)" in w for w in json.loads(clipped.out)["warnings"])
    kept = cli("validate", str(folder), "--beyond-text", "official", "--json")
    assert kept.rc == 0
    assert any("as the official scorers do" in w for w in json.loads(kept.out)["warnings"])
