"""Label Studio's CSV and TSV exports: one row per annotation, the task's data fields and each
control tag's values (as JSON) in columns. ``tests/data/formats/label-studio/converter_*`` are
our own tasks (``converter_tasks.json``, a full export) put through Label Studio's converter
(label-studio-converter 0.0.59, ``Converter.convert`` to CSV, TSV and JSON_MIN): the three
exports read to the sets, documents and texts of the full export, and every bad cell, row or
header is an error naming the file, the line and the column.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from core.formats import Loaded, ReadOptions, detect, load_files
from core.formats.label_studio import sniff, table_header
from core.model.errors import FormatError

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "label-studio"
EXPORTS = ("converter_export.csv", "converter_export.tsv", "converter_export_min.json")


def _read(name: str, options: ReadOptions | None = None) -> Loaded:
    return load_files({name: (DATA / name).read_bytes()}, options=options or ReadOptions())


def _spans(loaded: Loaded) -> dict[str, dict[str, list[tuple[int, int, str]]]]:
    return {s.name: {d: [(x.start, x.end, x.label) for x in v] for d, v in s.spans.items()}
            for s in loaded.sets}


def _rows(name: str) -> list[list[str]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter="\t" if name.endswith(
        ".tsv") else ","))


def _write(rows: list[list[str]], delimiter: str = ",") -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, quoting=csv.QUOTE_NONNUMERIC).writerows(rows)
    return out.getvalue().encode("utf-8")


@pytest.mark.parametrize("name", EXPORTS)
def test_the_converters_exports_read_as_the_full_export(name: str) -> None:
    files = {name: (DATA / name).read_bytes()}
    assert detect(files) == "label-studio"
    loaded = load_files(files)
    full = _read("converter_tasks.json")
    assert _spans(loaded) == _spans(full) == {
        "annotator 1": {"11": [(4, 11, "Loaded Language"), (21, 36, "Exaggeration"),
                               (62, 72, "Loaded Language"), (62, 72, "Name Calling")],
                        "12": [(0, 22, "Exaggeration")]},
        "annotator ana@example.org": {"11": [(62, 72, "Name Calling")], "12": []}}
    # task 13, which nobody annotated, is a document with its text in no set, as in the full
    # export (the converter writes a row with an empty annotator and annotation_id for it)
    assert loaded.texts == full.texts
    assert set(loaded.texts) == {"11", "12", "13"}
    assert all(s.role == "annotator" for s in loaded.sets)
    (warning,) = loaded.diagnostics  # the choices of the 'tone' tag
    assert warning.field == "tone" and "holds values that are not span labels" in warning.message


@pytest.mark.parametrize("name", EXPORTS[:2])
def test_a_tables_warnings_name_its_line_and_column(name: str) -> None:
    (warning,) = _read(name).diagnostics
    assert (warning.line, warning.field) == (3, "tone")
    assert str(warning).startswith(f"{name}:3: field 'tone': 'tone' holds values")


def test_the_header_decides_detection_whatever_the_name() -> None:
    head = (DATA / "converter_export.tsv").read_text(encoding="utf-8")
    found = table_header(head)
    assert found is not None and found[1] == "\t"
    assert sniff("export.tsv", head) == 95
    assert sniff("project-3-at-2024", head) == 85
    assert sniff("x.csv", "doc_id,start,end,label\nd1,0,4,X\n") == 0
    assert sniff("x.csv", '"annotation_id","id","text"\n1,2,"a"\n') == 0  # no annotator


def test_a_cell_of_span_values_that_does_not_parse_names_line_and_column() -> None:
    rows = _rows("converter_export.csv")
    rows[2][5] = rows[2][5].replace('"end":11', '"end" 11')
    with pytest.raises(FormatError) as err:
        load_files({"export.csv": _write(rows)})
    assert str(err.value).startswith(
        "export.csv:3: field 'label': expected the JSON list of a control tag's values "
        "({start, end, text, labels}), got a cell that does not parse: Expecting ':'")


def test_a_span_value_without_start_names_line_column_and_index() -> None:
    rows = _rows("converter_export.csv")
    rows[2][5] = rows[2][5].replace('{"start":21,', '{')
    with pytest.raises(FormatError) as err:
        load_files({"export.csv": _write(rows)})
    assert str(err.value) == "export.csv:3: label[1]: field 'start': missing"


def test_a_span_past_its_text_names_line_and_column() -> None:
    rows = _rows("converter_export.tsv")
    rows[4][5] = rows[4][5].replace('"end":22', '"end":220')
    with pytest.raises(FormatError) as err:
        load_files({"export.tsv": _write(rows, "\t")})
    assert str(err.value).startswith("export.tsv:5: label[0].end: field 'end': expected an "
                                     "offset within the text (length 69), got 220")


def test_a_row_with_another_number_of_cells_is_refused_on_its_line() -> None:
    rows = _rows("converter_export.csv")
    rows[3] = rows[3][:-1]
    with pytest.raises(FormatError) as err:
        load_files({"export.csv": _write(rows)})
    assert str(err.value) == "export.csv:4: expected 11 cells as in the header, got 10"


def test_a_header_without_annotator_is_refused_naming_the_column() -> None:
    rows = [[c for i, c in enumerate(r) if i != 1] for r in _rows("converter_export.csv")]
    with pytest.raises(FormatError) as err:
        load_files({"export.csv": _write(rows)}, fmt="label-studio")
    assert str(err.value).startswith("export.csv:1: field 'annotator': missing column")


def test_two_rows_of_one_annotator_for_one_task_are_refused_with_both_lines() -> None:
    rows = _rows("converter_export.csv")
    rows[1][1] = "1"  # ana's row of task 11 now says annotator 1, as line 3 does
    with pytest.raises(FormatError) as err:
        load_files({"export.csv": _write(rows)})
    assert str(err.value) == ("export.csv:3: annotator 1 has two records for task '11': lines "
                              "2 and 3; keep one")


def test_quoted_line_breaks_and_blank_lines_keep_the_line_numbers() -> None:
    """A text cell may hold line breaks; a converter run on Windows writes a blank line after
    each row. Lines are the file's lines, as an editor shows them."""
    rows = _rows("converter_export.csv")
    for row in rows[1:3]:  # the two rows of task 11
        row[8] = row[8].replace("The council", "The\ncouncil")
    rows[4][5] = rows[4][5].replace('"end":22', '"end":2')  # task 12, annotator 1: "Ti"
    data = _write(rows).replace(b"\r\n", b"\r\n\r\n")
    loaded = load_files({"export.csv": data})
    assert (loaded.texts["11"] or "").startswith("The\ncouncil")
    (fragment,) = [d for d in loaded.diagnostics if d.field == "text"]
    # header on line 1, rows on lines 3-4, 6-7, 9 and 11, each followed by a blank line
    assert (fragment.line, fragment.path) == (11, "label[0]")


def test_without_a_text_column_the_fragments_choose_it_and_a_warning_says_which() -> None:
    rows = _rows("converter_export.csv")
    rows[0][8] = "body"
    loaded = load_files({"export.csv": _write(rows)})
    assert loaded.texts == _read("converter_tasks.json").texts
    (chosen,) = [d for d in loaded.diagnostics if d.field == "body"]
    assert chosen.line == 2
    assert "data has no 'text'; 'body' is read as the text (of its 3 strings" in chosen.message


def test_text_column_names_the_column_of_the_text() -> None:
    rows = _rows("converter_export.csv")
    rows[0][8] = "body"
    for row in rows[1:]:
        row[7] = row[8]  # 'source' holds the text too: the fragments cannot tell them apart
    loaded = load_files({"export.csv": _write(rows)}, options=ReadOptions(text_column=9))
    assert not [d for d in loaded.diagnostics if "read as the text" in d.message]
    assert loaded.texts == _read("converter_tasks.json").texts
    with pytest.raises(FormatError) as err:
        load_files({"export.csv": _write(rows)}, options=ReadOptions(text_column=12))
    assert str(err.value) == "export.csv:1: --text-column 12: the header has 11 columns"


def test_a_data_field_that_looks_like_json_stays_a_string() -> None:
    """'keywords' holds the strings ``[]`` and ``["fares", "harbour"]`` in the task data: the
    CSV cannot tell them from a control tag's JSON, JSON-MIN keeps them as strings, and so does
    the CSV reader (no 'skipped' warning for them)."""
    loaded = _read("converter_export.csv")
    assert not [d for d in loaded.diagnostics if d.field == "keywords"]
