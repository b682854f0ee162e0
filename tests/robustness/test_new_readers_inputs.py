"""Issue 28 §1: the inputs of the new readers and option files that gave a traceback exit 1
with one line naming the file, the line and the field.

Each test builds the issue's input (from a sample file where the input is a damaged copy of
one) and checks ``assert_clean_failure``: exit 1, one line, no traceback.
"""

from __future__ import annotations

import copy
import io
import json
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import srsly

from core.analysis.slices import parse_meta_bytes
from core.formats import load_files
from core.model.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"
DOCBIN = SAMPLES / "formats/spacy_docs.spacy"
PROPAGANDA = [str(SAMPLES / "propaganda/gold.json"), str(SAMPLES / "propaganda/system_a.json")]


def test_webanno_tsv_offset_of_5000_digits(cli, clean_failure, tmp_path: Path) -> None:
    path = tmp_path / "a.tsv"
    path.write_text("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.X|label\n\n\n"
                    f"#Text=Hello world\n1-1\t{'9' * 5000}-5\tHello\t_\n", encoding="utf-8")
    run = cli("validate", str(path))
    clean_failure(run)
    assert "a.tsv:6: field 'offsets': expected a non-negative integer offset, got a 5000-digit" \
        in run.err


def test_webanno_tsv_sentence_far_past_the_previous_one_is_refused(cli, clean_failure,
                                                                   tmp_path: Path) -> None:
    """An offset of 12 digits passes parse_offset; padding the gap to it would fill memory."""
    path = tmp_path / "a.tsv"
    path.write_text("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.X|label\n\n\n"
                    "#Text=Hello\n1-1\t0-5\tHello\t_\n\n"
                    "#Text=world\n2-1\t900000000000-900000000005\tworld\t_\n", encoding="utf-8")
    run = cli("validate", str(path))
    clean_failure(run)
    assert "a.tsv:9: field 'offsets': the sentence starts at 900000000000" in run.err


def _docbin(tmp_path: Path, name: str, change: Any) -> Path:
    data = srsly.msgpack_loads(zlib.decompress(DOCBIN.read_bytes()))
    data = copy.deepcopy(data)
    change(data)
    path = tmp_path / f"{name}.spacy"
    path.write_bytes(zlib.compress(srsly.msgpack_dumps(data)))
    return path


def _first_length_zero(data: dict[str, Any]) -> None:
    lengths = np.frombuffer(data["lengths"], dtype="int32").copy()
    lengths[0] = 0
    data["lengths"] = lengths.tobytes()


@pytest.mark.parametrize(("name", "change", "error"), [
    ("length0", _first_length_zero, "IndexError: [E035]"),
    ("strings_cut", lambda d: d.update(strings=d["strings"][:3]), "KeyError"),
    ("strings_changed", lambda d: d.update(strings=[s + "x" for s in d["strings"]]), "KeyError"),
    ("strings_numbers", lambda d: d.update(strings=[1, 2, 3]), "KeyError"),
])
def test_damaged_docbin_is_a_format_error(cli, clean_failure, tmp_path: Path, name: str,
                                          change: Any, error: str) -> None:
    path = _docbin(tmp_path, name, change)
    run = cli("validate", str(path))
    clean_failure(run)
    assert f"{name}.spacy: expected a spaCy DocBin (.spacy) file, but it cannot be read " \
        "(document 1)" in run.err and error in run.err


def test_parquet_schema_metadata_nested_too_deeply(cli, clean_failure, tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "deep.parquet"
    table = pa.table({"doc_id": ["1"], "start": [0], "end": [1], "label": ["x"]})
    pq.write_table(table.replace_schema_metadata(
        {b"spanscope.sets": b"[" * 100_000 + b"]" * 100_000}), path)
    run = cli("validate", str(path))
    clean_failure(run)
    assert "deep.parquet: field 'spanscope.sets': expected the schema metadata as JSON, got " \
        "JSON nested too deeply" in run.err


def _damaged_deflate() -> bytes:
    """A zip whose headers are valid and whose deflate stream is not."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("1.ann", "T1\tX 0 5\thello\n" * 50)
        z.writestr("1.txt", "hello world " * 50)
    data = bytearray(buf.getvalue())
    start = 30 + len("1.ann")  # the first member's data, after its local header
    data[start:start + 8] = b"\xff" * 8
    return bytes(data)


def test_zip_with_a_damaged_deflate_stream(cli, clean_failure, tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    path.write_bytes(_damaged_deflate())
    run = cli("validate", str(path), "--format", "brat")
    clean_failure(run)
    assert "export.zip: cannot unpack '1.ann': its compressed data is damaged (Error -3 " \
        "while decompressing data" in run.err


def test_taxonomy_with_level2_codes_as_a_list(cli, clean_failure, tmp_path: Path) -> None:
    taxonomy = json.loads((ROOT / "core/data/mafalda_taxonomy.json").read_text("utf-8"))
    taxonomy["level2_codes"] = []
    path = tmp_path / "tax.json"
    path.write_text(json.dumps(taxonomy), encoding="utf-8")
    run = cli("score", str(SAMPLES / "mafalda/gold.jsonl"), str(SAMPLES / "mafalda/system_a.jsonl"),
              "--metric", "mafalda", "--taxonomy", str(path))
    clean_failure(run)
    assert "tax.json: field 'level2_codes': expected an object of label -> code, got list" \
        in run.err


@pytest.mark.parametrize("command", ["slices", "report"])
@pytest.mark.parametrize(("content", "expected"), [
    (b"id,source\n1," + b"x" * 200_000 + b"\n",
     "meta.csv:2: a field is longer than the CSV reader's limit (131,072 characters)"),
    (b"id,source\n1,caf\xe9\n", "meta.csv:2: expected UTF-8 text, found byte 0xe9"),
], ids=["field-over-128KiB", "latin-1"])
def test_meta_csv_with_a_big_field_or_latin1(cli, clean_failure, tmp_path: Path, command: str,
                                             content: bytes, expected: str) -> None:
    meta = tmp_path / "meta.csv"
    meta.write_bytes(content)
    extra = (["--dimension", "label", "--samples", "0"] if command == "slices"
             else ["-o", str(tmp_path / "r.html"), "--samples", "1"])
    run = cli(command, *PROPAGANDA, "--meta", str(meta), *extra)
    clean_failure(run)
    assert expected in run.err
    assert not (tmp_path / "r.html").exists()


def test_meta_csv_with_lines_ending_in_cr_alone_is_read() -> None:
    assert parse_meta_bytes(b"id,source\r1,blog\r2,news\r", "meta.csv") == {
        "1": {"source": "blog"}, "2": {"source": "news"}}


@pytest.mark.parametrize("to", ["brat", "webanno-tsv"])
def test_convert_of_a_document_id_holding_nul(cli, clean_failure, tmp_path: Path,
                                              to: str) -> None:
    source = tmp_path / "in.json"
    source.write_text(json.dumps([{"id": "a\u0000b", "text": "hello world",
                                   "labels": [{"start": 0, "end": 5, "technique": "Doubt"}]}]),
                      encoding="utf-8")
    out = tmp_path / "out"
    run = cli("convert", str(source), str(out), "--to", to)
    clean_failure(run)
    assert "a file name cannot hold a NUL character (give the document another id)" in run.err
    assert str(out) in run.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.json"]  # no folder left behind


def test_label_outside_the_taxonomy_names_its_file(cli, clean_failure) -> None:
    llm = SAMPLES / "mafalda/system_llm.jsonl"
    run = cli("score", str(llm), str(SAMPLES / "mafalda/system_a.jsonl"), "--metric", "mafalda",
              "--gold-format", "mafalda-llm")
    clean_failure(run)
    assert run.err.startswith(f"error: {llm}: field 'label': expected a label of the MAFALDA")


def test_format_errors_of_the_library_keep_their_type() -> None:
    """The readers' promise as the Python API sees it: FormatError, nothing else."""
    with pytest.raises(FormatError, match="cannot unpack"):
        load_files({"export.zip": _damaged_deflate()}, fmt="brat")


def test_parquet_label_that_is_not_utf8(cli, clean_failure, tmp_path: Path) -> None:
    """Found by the fuzz campaign: Parquet does not check its strings, Arrow fails only when
    one becomes Python text (UnicodeDecodeError)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "bad.parquet"
    table = pa.table({"doc_id": ["1"], "start": [0], "end": [1], "label": ["QQlabelQQ"]})
    pq.write_table(table, path, compression="none", use_dictionary=False,
                   write_statistics=False)
    data = path.read_bytes()
    assert b"QQlabelQQ" in data
    path.write_bytes(data.replace(b"QQlabelQQ", b"\x90QlabelQQ"))
    run = cli("validate", str(path))
    clean_failure(run)
    assert "bad.parquet: field 'label': expected UTF-8 text: Invalid UTF8" in run.err


def test_meta_column_named_as_its_dimension_is_not_prefixed_twice(cli, clean_failure,
                                                                   tmp_path: Path) -> None:
    meta = tmp_path / "meta.csv"
    meta.write_text("id,meta:source\n" + "".join(f"{i},{'blog' if i % 2 else 'news'}\n"
                                                 for i in range(1, 11)), encoding="utf-8")
    run = cli("slices", *PROPAGANDA, "--meta", str(meta), "--dimension", "meta:zzz",
              "--samples", "0")
    clean_failure(run)
    assert "or meta:source" in run.err and "meta:meta:" not in run.err
    assert f"{meta}: unknown dimension 'meta:zzz'" in run.err  # the file the fields come from
    assert cli("slices", *PROPAGANDA, "--meta", str(meta), "--dimension", "meta:source",
               "--samples", "0").rc == 0


def test_meta_value_of_json_nested_too_deeply_is_text(cli, tmp_path: Path) -> None:
    """Found by the fuzz campaign: a metadata value that looks like JSON is parsed to tell
    lists and objects (never sliced) from text; nesting too deep to parse is text."""
    meta = tmp_path / "meta.csv"
    meta.write_text("id,source,year\n1,blog," + "[" * 100_000 + "\n2,news,2001\n",
                    encoding="utf-8")
    run = cli("slices", *PROPAGANDA, "--meta", str(meta), "--dimension", "meta:source",
              "--samples", "0", "--json")
    assert run.rc == 0 and "Traceback" not in run.err
    assert json.loads(run.out)["dimension"] == "meta:source"
