"""WebAnno TSV 3: the one-match reading of a token line's id and offsets (issue 29) accepts
exactly the lines the cell-by-cell checks accept, with the same numbers, and a refused line gets
the cell-by-cell message."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import webanno
from core.model.errors import FormatError


def by_cells(line: str, ncols: int) -> tuple[int, int, bool] | None:
    cells = line.split("\t")
    if len(cells) < ncols + 3:
        return None
    idm = webanno._ID_RE.match(cells[0])
    om = webanno._OFFSETS_RE.match(cells[1])
    if idm is None or om is None:
        return None
    return int(om.group(1)), int(om.group(2)), idm.group(3) is not None


def by_head(line: str, ncols: int) -> tuple[int, int, bool] | None:
    head = webanno._TOKEN_HEAD.match(line)
    if head is None or line.count("\t") < ncols + 2:
        return None
    return int(head[4]), int(head[5]), head[3] is not None


CELL = st.text(alphabet=st.sampled_from(list("0123456789-._\t|x٣ ")), max_size=8)


@settings(max_examples=1500, deadline=None)
@given(st.lists(CELL, min_size=1, max_size=6).map("\t".join), st.integers(0, 3))
def test_one_match_accepts_what_the_cells_accept(line: str, ncols: int) -> None:
    assert by_head(line, ncols) == by_cells(line, ncols)


@pytest.mark.parametrize(("line", "ncols", "message"), [
    ("1-1\t0-4\tword", 1, "expected 4 TAB-separated columns"),
    ("1-x\t0-4\tword\t_", 1, "expected a sentence-token id such as 1-3 or 1-3.1, got '1-x'"),
    ("1-1\t0_4\tword\t_", 1, "expected begin-end offsets such as 4-8, got '0_4'"),
    ("1-1.2\t٣-4\tword\t_", 1, "expected begin-end offsets such as 4-8, got '٣-4'"),
])
def test_a_refused_line_gets_the_cell_by_cell_message(line: str, ncols: int,
                                                      message: str) -> None:
    assert by_head(line, ncols) is None
    with pytest.raises(FormatError, match=message):
        webanno._refuse_token_line("f.tsv", line, 7, ncols)
