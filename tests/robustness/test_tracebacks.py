"""Issue 18 §1: the inputs that gave a traceback exit 1 with one line on standard error.

Each test uses the exact input of the issue. ``assert_clean_failure`` checks exit 1, one line,
no traceback and output that encodes as UTF-8.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.formats import load_files
from core.model.errors import SpanScopeError

DEEP = "[" * 100_000 + "]" * 100_000
BIG = "9" * 5000
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("fmt", "first"), [
    ("mafalda", '{"text":"ab","labels":[]}'),
    ("mafalda-llm", '{"text":"ab","labels":[]}'),
    ("doccano", '{"text":"ab","labels":[]}'),
    ("spans-csv", '{"doc_id":"1","start":0,"end":1,"label":"x"}'),
])
def test_deep_nesting_in_json_lines_is_a_format_error(cli, clean_failure, tmp_path: Path, fmt: str,
                                                       first: str) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(first + "\n" + DEEP + "\n", encoding="utf-8")
    run = cli("validate", str(path), "--format", fmt)
    clean_failure(run)
    assert "deep.jsonl:2: malformed JSON: nested too deeply" in run.err


def test_offset_over_python_digit_limit_in_ptc_tsv(cli, clean_failure, tmp_path: Path) -> None:
    path = tmp_path / "pred.tsv"
    path.write_text(f"1\tDoubt\t0\t{BIG}\n", encoding="utf-8")
    run = cli("validate", str(path))
    clean_failure(run)
    assert "pred.tsv:1: field 'end': expected a non-negative integer offset, got a 5000-digit" \
        in run.err


def test_json_number_over_python_digit_limit_in_semeval2021(
    cli, clean_failure, tmp_path: Path,
) -> None:
    path = tmp_path / "pred.json"
    path.write_text('[{"id": "1", "text": "abc", "labels": [{"start": 0, "end": ' + BIG
                    + ', "technique": "Doubt"}]}]', encoding="utf-8")
    run = cli("validate", str(path))
    clean_failure(run)
    assert "[0].labels[0].end: field 'end'" in run.err and "5000-digit number" in run.err


def test_offsets_beyond_any_text_are_refused_before_numpy_sees_them(
    cli, clean_failure, tmp_path: Path,
) -> None:
    path = tmp_path / "pred.tsv"
    path.write_text("1\tDoubt\t0\t99999999999999999999\n", encoding="utf-8")
    clean_failure(cli("validate", str(path)))


def test_hateval_label_over_python_digit_limit(cli, clean_failure, tmp_path: Path) -> None:
    path = tmp_path / "pred.tsv"
    path.write_text(f"1\t{BIG}\n2\t0\n", encoding="utf-8")
    run = cli("validate", str(path), "--format", "hateval")
    clean_failure(run)
    assert "field 'HS': expected an integer label, got a 5000-digit number" in run.err


def test_hateval_label_with_a_control_character(cli, clean_failure, tmp_path: Path) -> None:
    path = tmp_path / "pred.tsv"
    path.write_text("1\t\x1c1\n2\t0\n", encoding="utf-8")
    run = cli("validate", str(path), "--format", "hateval")
    clean_failure(run)
    assert "pred.tsv:1: field 'HS': expected an integer label, got '\\x1c1'" in run.err


SURROGATE_GOLD = ('[{"id": "1", "text": "abcdef", "labels": '
                  '[{"start": 0, "end": 3, "technique": "Do\\udfffubt"}]}]')


@pytest.mark.parametrize("argv", [
    ("validate", "{f}"), ("validate", "{f}", "--json"),
    ("agree", "{f}", "{f}", "--measure", "span-f1"),
    ("agree", "{f}", "{f}", "--measure", "span-f1", "--json"),
    ("convert", "{f}", "{out}", "--to", "spans-csv"),
    ("score", "{f}", "{f}", "--metric", "martino", "--json"),
])
def test_lone_surrogate_in_a_label(
    cli, clean_failure, tmp_path: Path, argv: tuple[str, ...],
) -> None:
    path = tmp_path / "gold.json"
    path.write_text(SURROGATE_GOLD, encoding="utf-8")
    args = [a.format(f=path, out=tmp_path / "out.csv") for a in argv]
    run = cli(*args)
    clean_failure(run)
    assert "lone surrogate" in run.err and "[0].labels[0].technique" in run.err
    assert "Do\\udfffubt" in run.err  # named, escaped


def test_lone_surrogate_in_label_studio_model_version(cli, clean_failure, tmp_path: Path) -> None:
    tasks = json.loads((ROOT / "sample_data/formats/label_studio_annotators.json")
                       .read_text(encoding="utf-8"))
    result = tasks[0]["annotations"][0]["result"]
    tasks[0]["predictions"] = [{"model_version": "@@", "result": result}]
    path = tmp_path / "ls.json"
    path.write_text(json.dumps(tasks).replace('"@@"', '"\\udfff"'), encoding="utf-8")
    for argv in (("validate", str(path), "--json"), ("agree", str(path), "--measure", "span-f1",
                                                     "--json")):
        run = cli(*argv)
        clean_failure(run)
        assert "[0].predictions[0].model_version" in run.err


def test_annotator_name_with_a_newline_keeps_the_message_on_one_line(
    cli, clean_failure, tmp_path: Path,
) -> None:
    path = tmp_path / "spans.csv"
    path.write_text('doc_id,start,end,label,annotator\n1,0,3,Doubt,"ann\nX"\n',
                    encoding="utf-8")
    run = cli("agree", str(path), "--measure", "span-f1")
    clean_failure(run)
    assert "(ann\\nX)" in run.err


def test_validate_text_output_escapes_control_characters_in_names(
    cli, clean_failure, tmp_path: Path,
) -> None:
    path = tmp_path / "spans.csv"
    path.write_text('doc_id,start,end,label,annotator\n1,0,3,Doubt,"ann\nX"\n',
                    encoding="utf-8")
    run = cli("validate", str(path))
    assert run.rc == 0
    assert "ann\\nX" in run.out and "ann\nX" not in run.out


@pytest.mark.parametrize(("name", "data"), [
    ("deep.jsonl", ('{"text":"ab","labels":[]}\n' + DEEP).encode()),
    ("big.tsv", f"1\tDoubt\t0\t{BIG}\n".encode()),
    ("sur.json", SURROGATE_GOLD.encode()),
    ("hev.tsv", b"1\t\x1c1\n2\t0\n"),
])
def test_readers_raise_only_spanscope_errors(name: str, data: bytes) -> None:
    with pytest.raises(SpanScopeError):
        load_files({name: data}, name=name)


def test_option_files_with_bad_bytes_or_huge_numbers_are_format_errors(
    cli, clean_failure, tmp_path: Path,
) -> None:
    labels = tmp_path / "labels.txt"
    labels.write_bytes(b"\xff\xfe bad\n")
    gold = ROOT / "sample_data/propaganda/gold.json"
    pred = ROOT / "sample_data/propaganda/system_a.json"
    run = cli("score", str(gold), str(pred), "--metric", "martino", "--labels", str(labels))
    clean_failure(run)
    assert "labels.txt:1: expected UTF-8 text, found byte 0xff" in run.err
    taxonomy = tmp_path / "taxonomy.json"
    mgold = ROOT / "sample_data/mafalda/gold.jsonl"
    mpred = ROOT / "sample_data/mafalda/system_a.jsonl"
    for text in ('{"level1": ' + BIG + "}", DEEP):
        taxonomy.write_text(text, encoding="utf-8")
        clean_failure(cli("score", str(mgold), str(mpred), "--metric", "mafalda", "--taxonomy",
                          str(taxonomy)))
