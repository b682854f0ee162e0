"""AnnotationSet.from_frame reads a DataFrame without changing what it holds: a fractional
offset or a missing label or document is refused with the row and the column named, never
truncated to an integer or turned into the label 'None' or 'nan'; an integral float (3.0, what
pandas makes of an integer column with a gap) is the integer it stands for."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.model import AnnotationSet, Span


def _frame(**columns: list[object]) -> pd.DataFrame:
    base: dict[str, list[object]] = {"document": ["d", "d"], "start": [0, 5], "end": [4, 9],
                                     "label": ["A", "B"]}
    base.update(columns)
    return pd.DataFrame(base)


@pytest.mark.parametrize(("column", "values", "shown"), [
    ("start", [0, 1.5], "1.5"),
    ("end", [4, 9.9], "9.9"),
    ("start", [0, np.nan], "nan"),
    ("end", [4, None], "nan"),
    ("start", [0, "two"], "'two'"),
    ("end", [4, True], "True"),
])
def test_a_fractional_or_missing_offset_is_refused_naming_row_and_column(
        column: str, values: list[object], shown: str) -> None:
    with pytest.raises(ValueError) as caught:
        AnnotationSet.from_frame(_frame(**{column: values}))
    message = str(caught.value)
    assert message.startswith(f"row 1 of the frame (document 'd'), column '{column}': "), message
    assert "expected an integer offset" in message and shown in message, message


@pytest.mark.parametrize("missing", [None, np.nan, pd.NA])
def test_a_missing_label_is_refused_not_read_as_the_label_none_or_nan(missing: object) -> None:
    with pytest.raises(ValueError, match=r"^row 1 of the frame \(document 'd'\), column "
                                         r"'label': the label is missing"):
        AnnotationSet.from_frame(_frame(label=["A", missing]))


def test_a_missing_document_is_refused_naming_row_and_column() -> None:
    with pytest.raises(ValueError, match=r"^row 0 of the frame, column 'document': the "
                                         r"document id is missing"):
        AnnotationSet.from_frame(_frame(document=[None, "d"]))


def test_integral_floats_and_numpy_integers_are_the_integers_they_stand_for() -> None:
    frame = _frame(start=[0.0, np.int64(5)], end=[np.float32(4.0), 9])
    aset = AnnotationSet.from_frame(frame)
    assert aset.spans["d"] == (Span(0, 4, "A"), Span(5, 9, "B"))
    assert all(type(s.start) is int and type(s.end) is int for s in aset.spans["d"])


def test_a_frame_with_a_gap_in_an_integer_column_reads_its_other_rows_unchanged() -> None:
    # pandas turns an int column into float64 when a value is missing: the rows still read
    frame = pd.DataFrame({"document": ["d", "e"], "start": [3, 7], "end": [8, 12],
                          "label": ["A", "B"]}).astype({"start": "float64"})
    assert AnnotationSet.from_frame(frame).spans == {"d": (Span(3, 8, "A"),),
                                                     "e": (Span(7, 12, "B"),)}


def test_end_not_after_start_still_names_the_row() -> None:
    with pytest.raises(ValueError, match=r"^row 0 of the frame \(document 'd'\): Span end must "
                                         r"be greater than start"):
        AnnotationSet.from_frame(_frame(start=[4, 5]))
