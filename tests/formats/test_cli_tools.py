"""``python -m core validate`` and ``convert`` on every sample file; exit statuses and messages."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main
from core.formats import load_path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"
BROKEN = Path(__file__).parent / "broken"
MINE = ("propaganda", "figure1", "formats")


def _inputs() -> list[Path]:
    """Every annotation input of the samples this suite owns: files, and folders read whole."""
    out: list[Path] = []
    for corpus in MINE:
        for path in sorted((SAMPLES / corpus).iterdir()):
            if path.suffix in (".md", ".txt"):
                continue  # README and the label list
            out.append(path)
    return out


INPUTS = _inputs()


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_validate_accepts_every_sample_file(path: Path, capsys: pytest.CaptureFixture[str],
                                             ) -> None:
    labels = SAMPLES / "propaganda" / "labels.txt"
    # The NER and INCEpTION samples (issue 19) have labels of their own.
    own = path.name.startswith(("conll_", "spacy_", "inception_", "xmi_"))
    extra = [] if "system_b_si" in path.name or own else ["--labels", str(labels)]
    assert main(["validate", str(path), "--json", *extra]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is True and report["errors"] == []
    assert report["documents"] >= 1 and report["spans"] >= 1
    assert sum(s["spans"] for s in report["sets"].values()) == report["spans"]


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_convert_every_sample_file_to_every_writable_format_keeps_spans(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    source = load_path(path)
    chosen = source.sets[0]
    args = ["--set", chosen.name] if len(source.sets) > 1 else []
    numeric = all(d.isdigit() for d in chosen.spans)
    targets = {"semeval2021": "out.json", "brat": "out_brat", "doccano": "out.jsonl",
               "spans-csv": "out.csv"}
    if numeric:
        targets["ptc"] = "out_ptc"
    for fmt, name in targets.items():
        out = tmp_path / name
        assert main(["convert", str(path), str(out), "--to", fmt, *args]) == 0, fmt
        back = load_path(out).set
        assert dict(back.spans) == dict(chosen.spans), fmt
    err = capsys.readouterr().err
    assert f"as semeval2021 to {tmp_path / 'out.json'}" in err


def test_convert_to_a_single_ptc_tsv_notes_what_it_cannot_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "gold.tsv"
    assert main(["convert", str(SAMPLES / "propaganda" / "gold.json"), str(out),
                 "--to", "ptc"]) == 0
    err = capsys.readouterr().err
    assert "note: the ptc file does not carry the document texts" in err
    assert "note: 1 documents without spans cannot be listed in a single PTC TSV file" in err
    assert out.read_text(encoding="utf-8").count("\n") == 29


def test_convert_of_several_sets_to_a_single_set_format_asks_for_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    src = SAMPLES / "formats" / "spans_annotators.csv"
    assert main(["convert", str(src), str(tmp_path / "x.json"), "--to", "semeval2021"]) == 1
    err = capsys.readouterr().err
    assert "the semeval2021 format holds one annotation set, got 3 (annotator_1, annotator_2, " \
        "annotator_3); choose one with --set NAME" in err
    assert main(["convert", str(src), str(tmp_path / "x.json"), "--to", "semeval2021",
                 "--set", "nobody"]) == 1
    assert "no annotation set named 'nobody'" in capsys.readouterr().err


def test_convert_keeps_every_annotator_in_spans_csv(tmp_path: Path) -> None:
    src = SAMPLES / "formats" / "label_studio_annotators.json"
    out = tmp_path / "all.csv"
    assert main(["convert", str(src), str(out), "--to", "spans-csv"]) == 0
    assert [(s.name, dict(s.spans)) for s in load_path(out).sets] == [
        (s.name, dict(s.spans)) for s in load_path(src).sets]


@pytest.mark.parametrize("name", sorted(p.name for p in BROKEN.iterdir()))
def test_validate_reports_every_broken_file_without_traceback(
    name: str, capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["validate", str(BROKEN / name), "--json"])
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert code == (0 if report["valid"] else 1)
    if not report["valid"]:
        assert err.startswith("error: ") and err.count("\n") == 1
        assert str(BROKEN / name) in err


def test_validate_with_a_label_list_refuses_an_unknown_label(
    capsys: pytest.CaptureFixture[str],
) -> None:
    labels = SAMPLES / "propaganda" / "labels.txt"
    code = main(["validate", str(BROKEN / "unknown_label.json"), "--labels", str(labels)])
    assert code == 1
    assert "expected one of the 20 labels of the label list, got 'Loaded language' " \
        "(did you mean 'Loaded Language'?)" in capsys.readouterr().err


def test_validate_names_the_line_of_a_label_outside_the_files_own_task_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Without --labels the file's own task list decides (task_labels); the refusal names the
    # line, the JSON path and the field as the reader's check does with --labels, and as
    # docs/formats.md ("Bad input") shows, then says which list refused it.
    code = main(["validate", str(BROKEN / "unknown_label.json")])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(
        f"error: {BROKEN / 'unknown_label.json'}:3: [0].labels[0].technique: field 'technique': "
        "expected one of the 20 labels of the label list, got 'Loaded language' "
        "(did you mean 'Loaded Language'?) (the semeval2021 technique list, of the task whose "
        "labels the file uses; pass --labels FILE to allow other labels)"), err


def test_validate_names_the_line_of_a_misspelt_label_in_a_file_of_its_own_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # Most labels are the file's own (allowed); one is a listed technique written differently:
    # the refusal names that label's line, not the first own label's.
    pred = tmp_path / "pred.tsv"
    pred.write_text("1\tMy_label\t0\t4\n1\tOther_label\t5\t9\n1\tloaded_language\t10\t14\n",
                    encoding="utf-8")
    code = main(["validate", str(pred), "--format", "ptc"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"error: {pred}:3:" in err and "'loaded_language'" in err, err
    assert "technique list, of the task whose labels the file uses" in err


def test_command_line_validate_and_convert_run_as_a_module(tmp_path: Path) -> None:
    gold = SAMPLES / "propaganda" / "gold.json"
    ok = subprocess.run([sys.executable, "-m", "core", "validate", str(gold)], cwd=ROOT,
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert "semeval2021" in ok.stdout and "valid" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "core", "validate",
                          str(BROKEN / "start_after_end.tsv")], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert "start_after_end.tsv:3: field 'end': expected an integer greater than start (12), " \
        "got '9'" in bad.stderr
    out = tmp_path / "brat"
    conv = subprocess.run([sys.executable, "-m", "core", "convert", str(gold), str(out),
                           "--to", "brat"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert conv.returncode == 0, conv.stderr
    assert sorted(p.name for p in out.iterdir())[:2] == ["1.ann", "1.txt"]


def test_validate_names_the_detected_format_of_an_invalid_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["validate", str(BROKEN / "duplicate_id.json"), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["format"] == "semeval2021" and report["valid"] is False
    assert "duplicate document id '1'" in report["errors"][0]


def test_validate_of_an_empty_folder_names_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["validate", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"error: {tmp_path}: the folder holds no files\n"


def test_convert_error_names_the_output_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    src = SAMPLES / "formats" / "label_studio_annotators.json"
    out = tmp_path / "one.json"
    assert main(["convert", str(src), str(out), "--to", "semeval2021"]) == 1
    assert capsys.readouterr().err.startswith(f"error: {out}: the semeval2021 format holds one "
                                              "annotation set, got 4")
