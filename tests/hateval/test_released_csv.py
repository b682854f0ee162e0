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
