"""A table whose header names no offsets is refused as no annotation export (wild12 tour).

MiMoText/inception_themes@09cba41's ``statements/Baasner_1988a.tsv`` is a table of Wikibase
statements extracted from INCEpTION annotations: a header ``subject_id, subject_snippet,
property, object_id, object_label, object_snippet, snippet`` (and an empty eighth cell), then
one statement per row, with the annotated words as text snippets and no character offset. It
was read as a PTC file and refused with "expected 3 or 4 TAB-separated columns (article_id,
[technique,] start, end), got 7", as if a PTC file had a bad row; nothing about the file is a
PTC file. The rows below are made the same way (shortened, our own snippets).
"""

from __future__ import annotations

import pytest

from core.formats import detect
from core.model.errors import FormatError

HEADER = ("subject_id\tsubject_snippet\tproperty\tobject_id\tobject_label\tobject_snippet\t"
          "snippet\t\n")
ROW = ("https://data.mimotext.uni-trier.de/entity/Q1441\tFloricourt\tP36\t"
       "http://data.mimotext.uni-trier.de/entity/Q3084\tséduction\tVerführung\t"
       "Die Erzählung Floricourt beschreibt eine Verführung.\t\n")


def test_a_statements_table_is_named_as_no_annotation_export() -> None:
    data = (HEADER + ROW * 3).encode()
    with pytest.raises(FormatError) as exc:
        detect({"Baasner_1988a.tsv": data})
    message = str(exc.value)
    assert message.startswith("Baasner_1988a.tsv: could not detect the format: ")
    assert "not an annotation export" in message
    assert "(subject_id, subject_snippet, property, object_id, object_label, ...)" in message
    assert "no character offsets" in message
    assert "article_id" not in message  # no PTC column message
    assert "pass it explicitly" not in message  # no format would read it


def test_a_ptc_file_with_a_header_is_still_read_as_ptc_to_name_its_bad_line() -> None:
    data = b"article_id\ttechnique\tstart\tend\n111\tDoubt\t0\t12\n"
    assert detect({"train.tsv": data}) == "ptc"


def test_a_statements_table_written_by_pandas_with_its_index_is_named_too() -> None:
    """The same repository's ``output/haas_uber-diderots-religieuse_tokenized.tsv`` (at
    3310c9d) was written by pandas with its index: the header starts with an empty cell."""
    data = ("\t" + HEADER.rstrip("\t\n") + "\n" + "".join(
        f"{k}\t{ROW.rstrip(chr(10)).rstrip(chr(9))}\n" for k in range(3))).encode()
    with pytest.raises(FormatError) as exc:
        detect({"haas_tokenized.tsv": data})
    assert "not an annotation export: a table whose header (subject_id, subject_snippet," \
        in str(exc.value)


def test_semeval2021_toxic_spans_csv_is_named_with_what_to_do() -> None:
    """ipavlopoulos/toxic_spans@beaf170 ``SemEval2021/data/tsd_trial.csv`` (wild15 tour): the
    task's CSV lists, per post, the offset of every toxic character; it got "could not detect
    the format; pass it explicitly (one of: ...)". Our own posts, in that shape."""
    data = (b'spans,text\n"[4, 5, 6, 7, 8]",You idiot.\n[],"Fine, thanks."\n'
            b'"[0, 1, 2, 3, 4, 14, 15, 16, 17]","Loser, go away, trash."\n')
    with pytest.raises(FormatError) as exc:
        detect({"tsd_trial.csv": data})
    message = str(exc.value)
    assert "pass it explicitly" not in message
    assert ("could not detect the format: SemEval-2021 task 5's Toxic Spans CSV (spans,text: "
            "per post, the offsets of its toxic characters, one by one): no format SpanScope "
            "reads; make each run of consecutive offsets a span") in message
