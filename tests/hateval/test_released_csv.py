"""The organisers' public release of the HatEval 2019 data is comma-separated
(``hateval2019_en_dev.csv``: header ``id,text,HS,TR,AG``, CSV quoting), not the tab-separated
files the scoring program reads. Both read to the same table and the same scores.

The rows are our own texts, in the release's layout: a quoted text holding commas, doubled
quotes and a line break, a UTF-8 byte order mark, CRLF line ends, and (as a spreadsheet saves
it) empty columns after the named ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats import detect, load_files
from core.model.errors import FormatError

ROWS = [("101", 'Boats, "again", at the\nharbour', 1, 0, 1),
        ("102", "a calm morning", 0, 0, 0),
        ("103", "they should all leave", 1, 1, 0)]


def _csv(trailing: str = "") -> bytes:
    def quote(text: str) -> str:
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text
    lines = ["id,text,HS,TR,AG" + trailing]
    lines += [f"{i},{quote(t)},{hs},{tr},{ag}{trailing}" for i, t, hs, tr, ag in ROWS]
    return ("\ufeff" + "\r\n".join(lines) + "\r\n").encode()


def _tsv() -> bytes:
    rows = ["id\ttext\tHS\tTR\tAG"] + [f"{i}\t{t.replace(chr(10), ' ')}\t{hs}\t{tr}\t{ag}"
                                        for i, t, hs, tr, ag in ROWS]
    return ("\n".join(rows) + "\n").encode()


@pytest.mark.parametrize("trailing", ["", ",,,,,"])
def test_released_csv_reads_the_same_rows_as_the_tsv(trailing: str) -> None:
    files = {"hateval2019_en_dev.csv": _csv(trailing)}
    assert detect(files) == "hateval"
    table = load_files(files).records
    tsv = load_files({"en.tsv": _tsv()}).records
    assert table.ids == tsv.ids == ["101", "102", "103"]
    assert table.labels == tsv.labels == {"HS": [1, 0, 1], "TR": [0, 0, 1], "AG": [1, 0, 0]}
    assert table.texts[0] == 'Boats, "again", at the\nharbour'
    assert table.lines == [2, 4, 5]  # the first row's quoted text runs over two lines


def test_released_csv_scores_as_the_tsv_gold(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gold.csv").write_bytes(_csv(",,,"))
    (tmp_path / "gold.tsv").write_bytes(_tsv())
    (tmp_path / "en_b.tsv").write_text("101\t1\t0\t0\n102\t0\t0\t0\n103\t1\t1\t1\n")
    results = []
    for gold in ("gold.csv", "gold.tsv"):
        assert main(["score", str(tmp_path / gold), str(tmp_path / "en_b.tsv"),
                     "--metric", "hateval-b", "--json"]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0]["emr"] == results[1]["emr"] == pytest.approx(1 / 3)
    assert {k: v for k, v in results[0].items() if k != "gold"} == {
        k: v for k, v in results[1].items() if k != "gold"}


def test_a_damaged_row_of_the_csv_names_its_line_and_column() -> None:
    data = _csv(",,").replace(b"102,a calm morning,0,0,0,,", b"102,a calm, morning,0,0,0,")
    with pytest.raises(FormatError) as exc:
        load_files({"hateval2019_en_train.csv": data})
    assert str(exc.value) == ("hateval2019_en_train.csv:4: expected 5 comma-separated columns "
                              "like the first line, found 7")


# A relabelled release (header ``id,HS,TR,AG,HS_original``, no text column): read by the
# header's names. Read by position it was a gold file whose "text" was HS, so every label
# shifted one column and a prediction of its own HS scored 0.79 instead of 1.0.
RELABELLED = ("id,HS,TR,AG,HS_original\r\n101,1,0,1,0\r\n102,0,0,0,0\r\n103,1,1,0,1\r\n"
              "104,0,0,0,1\r\n")


def test_a_header_naming_other_columns_is_read_by_name() -> None:
    loaded = load_files({"relabelled_dev.csv": RELABELLED.encode()})
    table = loaded.records
    assert table.ids == ["101", "102", "103", "104"]
    assert table.labels == {"HS": [1, 0, 1, 0], "TR": [0, 0, 1, 0], "AG": [1, 0, 0, 0]}
    assert table.texts is None and table.named
    assert [(w.line, w.message) for w in loaded.diagnostics] == [(1, (
        "1 comma-separated column(s) not read: 'HS_original'; the columns are read by the "
        "header's names (id, HS, TR, AG)"))]


def test_columns_in_another_order_are_read_by_name() -> None:
    data = b"AG\tTR\ttext\tHS\tId\n1\t0\tboats\t1\t7\n0\t1\tsea\t1\t8\n"
    table = load_files({"shuffled.tsv": data}, fmt="hateval").records
    assert table.ids == ["7", "8"] and table.texts == ["boats", "sea"]
    assert table.labels == {"HS": [1, 1], "TR": [0, 1], "AG": [1, 0]}


@pytest.mark.parametrize("metric, pred", [
    ("hateval-a", "101\t1\n102\t0\n103\t1\n104\t0\n"),
    ("hateval-b", "101\t1\t0\t1\n102\t0\t0\t0\n103\t1\t1\t0\n104\t0\t0\t0\n")])
def test_a_prediction_of_the_relabelled_gold_scores_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], metric: str, pred: str) -> None:
    (tmp_path / "gold.csv").write_text(RELABELLED, newline="")
    (tmp_path / "pred.tsv").write_text(pred)
    assert main(["score", str(tmp_path / "gold.csv"), str(tmp_path / "pred.tsv"),
                 "--metric", metric, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["emr" if metric == "hateval-b" else "accuracy"] == 1.0


def test_a_named_gold_without_the_task_b_columns_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gold.csv").write_text("id,HS,HS_original\n101,1,0\n102,0,0\n")
    (tmp_path / "pred.tsv").write_text("101\t1\t0\t0\n102\t0\t0\t0\n")
    assert main(["score", str(tmp_path / "gold.csv"), str(tmp_path / "pred.tsv"),
                 "--metric", "hateval-b"]) != 0
    assert "a header naming id and HS, TR, AG" in capsys.readouterr().err


@pytest.mark.parametrize("header, field", [("id,HS,TR,HS_original", "AG"),
                                           ("id,HS,AG,text", "TR"), ("id,HS,hs,TR,AG", "hs")])
def test_a_header_lacking_a_needed_column_is_refused(header: str, field: str) -> None:
    data = (header + "\n" + ",".join(["1"] * len(header.split(","))) + "\n").encode()
    with pytest.raises(FormatError) as exc:
        load_files({"bad.csv": data}, fmt="hateval")
    assert (exc.value.line, exc.value.field) == (1, field)
    assert str(exc.value).startswith("bad.csv:1:")


def _quoted_csv() -> bytes:
    """The release as R's ``write.csv`` or pandas' ``to_csv(quoting=QUOTE_ALL)`` saves it
    again: every field quoted, the header too (a real copy: hatEvalTask-5's
    ``hateval2019_en_train_output.csv``)."""
    def quote(value: object) -> str:
        return '"' + str(value).replace('"', '""') + '"'
    lines = [",".join(quote(c) for c in ("id", "text", "HS", "TR", "AG"))]
    lines += [",".join(quote(c) for c in row) for row in ROWS]
    return ("\n".join(lines) + "\n").encode()


def test_release_saved_with_every_field_quoted_reads_as_the_release(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {"hateval2019_en_train_output.csv": _quoted_csv()}
    assert detect(files) == "hateval"
    table = load_files(files).records
    assert table.ids == ["101", "102", "103"]
    assert table.labels == {"HS": [1, 0, 1], "TR": [0, 0, 1], "AG": [1, 0, 0]}
    assert table.texts[0] == 'Boats, "again", at the\nharbour'
    (tmp_path / "gold.csv").write_bytes(_quoted_csv())
    assert main(["validate", str(tmp_path / "gold.csv"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["format"], report["documents"], report["errors"]) == ("hateval", 3, [])
