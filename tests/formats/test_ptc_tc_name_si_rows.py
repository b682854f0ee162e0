"""A PTC labels file named for technique classification whose rows are span identification
(``article_id, start, end``) is read as SI, every span 'propaganda', with one warning naming
the file and the layout found (clitour5: andreakiro/nlpropaganda keeps SI rows under
``article000.task-flc-tc.labels``). Our own texts."""

from __future__ import annotations

import pytest

from core.formats import load_files

TEXT = "Only a traitor would vote for this shameful bill."
SI = b"000\t7\t14\n000\t38\t46\n"
TC = b"000\tName_Calling,Labeling\t7\t14\n"
NOTE = ("is named for technique classification (TC/FLC: article_id, technique, start, end), "
        "but the rows have 3 columns, the span identification layout (SI: article_id, start, "
        "end): every span is read as 'propaganda', no technique")


def test_a_single_file_named_tc_with_si_rows_is_warned_about_by_name() -> None:
    loaded = load_files({"article000.task-flc-tc.labels": SI}, fmt="ptc")
    assert [s.label for s in loaded.set.get("000")] == ["propaganda", "propaganda"]
    (warning,) = loaded.diagnostics
    assert warning.file == "article000.task-flc-tc.labels"
    assert warning.message == f"article000.task-flc-tc.labels {NOTE}"


def test_a_folder_of_such_files_gives_one_warning_counting_them() -> None:
    files = {"article000.txt": TEXT.encode(), "article000.task-flc-tc.labels": SI,
             "article001.txt": TEXT.encode(), "article001.task-flc-tc.labels": b"001\t0\t4\n"}
    loaded = load_files(files, fmt="ptc", name="gold")
    assert loaded.set.span_count() == 3
    (warning,) = loaded.diagnostics
    assert warning.file == "gold/article000.task-flc-tc.labels"
    assert warning.message == f"2 .labels files are named (first: article000.task-flc-tc" \
        f".labels) {NOTE.removeprefix('is named ')}"


@pytest.mark.parametrize(("name", "data"), [
    ("article000.task-flc-tc.labels", TC),  # the name and the rows agree
    ("train-task1-SI.labels", SI),  # an SI name
    ("etc-notes.labels", SI),  # "tc" inside a word is no marker
])
def test_no_warning_when_name_and_rows_agree(name: str, data: bytes) -> None:
    assert load_files({name: data}, fmt="ptc").diagnostics == []
