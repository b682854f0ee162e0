"""A JSON Lines file whose first record is longer than 1 MiB (one long document, a book
chapter) is detected and read like any other: detection reads as far as that record ends, up
to :data:`core.formats._sniff.HEAD_RECORD_MAX` (64 MiB); a file with no line break in reach
(a minified JSON value that is none of our formats, a record past the bound) says why it is not
detected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.formats import detect
from core.formats._sniff import HEAD_MAX, HEAD_RECORD_MAX, head_of
from core.model.errors import FormatError
from tests.robustness.conftest import run_cli

CHAPTER = "Call me Ishmael. Some years ago, never mind how long precisely. " * 40_000
"""About 2.4 MiB of one document's text, more than the 1 MiB a head of other files holds."""


def _doccano(path: Path, first_spans: list[list[object]], *, newline: bool = True) -> Path:
    records = [{"id": 1, "text": CHAPTER, "label": first_spans},
               {"id": 2, "text": "A short review.", "label": [[2, 7, "Doubt"]]}]
    body = "\n".join(json.dumps(r) for r in records)
    path.write_text(body + ("\n" if newline else ""), encoding="utf-8")
    return path


def test_the_head_of_a_long_first_record_is_that_whole_record() -> None:
    first = json.dumps({"id": 1, "text": CHAPTER, "label": []}) + "\n"
    assert len(first) > HEAD_MAX
    assert head_of((first + '{"id": 2}\n').encode()) == first
    alone = first.rstrip("\n").encode()  # one record, no line break at all: the whole file
    assert head_of(b"\xef\xbb\xbf  " + alone) == "  " + alone.decode()
    # not a JSON object: the head still stops at 1 MiB, as before
    assert len(head_of(b'["' + b"x" * (2 * HEAD_MAX) + b'"]')) == HEAD_MAX


def test_a_doccano_file_whose_first_record_passes_1_mib_is_detected(tmp_path: Path) -> None:
    path = _doccano(tmp_path / "chapter.jsonl", [[0, 4, "Doubt"]])
    assert detect({path.name: path.read_bytes()}) == "doccano"
    path = _doccano(tmp_path / "one_line.jsonl", [[0, 4, "Doubt"]], newline=False)
    assert detect({path.name: path.read_bytes()[: path.read_bytes().index(b"\n")]}) == "doccano"


def test_validate_and_score_read_it_as_they_read_it_with_its_format_given(tmp_path: Path
                                                                           ) -> None:
    gold = _doccano(tmp_path / "gold.jsonl", [[0, 4, "Doubt"], [8, 15, "Smears"]])
    pred = _doccano(tmp_path / "pred.jsonl", [[0, 4, "Doubt"], [20, 25, "Smears"]])
    run = run_cli("validate", str(gold))
    assert run.rc == 0, run.err
    assert "format          doccano" in run.out and "spans           3" in run.out
    detected = run_cli("score", str(gold), str(pred), "--metric", "martino", "--json")
    given = run_cli("score", str(gold), str(pred), "--metric", "martino", "--json",
                    "--gold-format", "doccano", "--pred-format", "doccano")
    assert detected.rc == given.rc == 0, (detected.err, given.err)
    assert json.loads(detected.out) == json.loads(given.out)
    assert json.loads(detected.out)["recall_denominator"] == 3


def test_a_minified_json_object_that_is_no_format_says_it_was_read_whole(tmp_path: Path
                                                                          ) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"settings": {"text": CHAPTER}}), encoding="utf-8")
    run = run_cli("validate", str(path))
    assert run.rc == 1 and "Traceback" not in run.err
    assert ("config.json: could not detect the format: its first line (2.4 MiB, the whole "
            "file), read whole, is no record of a known format; pass it explicitly") in run.err


@pytest.mark.parametrize(("data", "said"), [
    (b'{"id": 1, "text": "' + b"x" * (HEAD_RECORD_MAX + 10) + b'"}\n',
     "the first line is longer than 64 MiB, the most detection reads of a JSON record, so it "
     "sees no whole record; pass it explicitly"),
    (b'["' + b"x" * (2 * HEAD_MAX) + b'"]',
     "the first line is longer than 1 MiB, the most detection reads, so it sees no whole "
     "record; pass it explicitly"),
])
def test_a_line_past_what_detection_reads_says_how_far_it_reads(data: bytes, said: str) -> None:
    with pytest.raises(FormatError) as caught:
        detect({"long.jsonl": data})
    assert f"long.jsonl: could not detect the format: {said}" in str(caught.value)
