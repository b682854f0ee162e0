"""CoNLL files whose columns are not token first, tag last: GermEval 2014's layout (index,
token, outer entity, inner entity, with ``#`` source lines; our own two sentences in
``tests/data/formats/conll/germeval2014.tsv``), an index column, and ``--tag-column``."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, detect, load_files, load_path
from core.model.errors import FormatError

GERMEVAL = Path(__file__).resolve().parents[1] / "data" / "formats" / "conll" / "germeval2014.tsv"


def _fragments(path: Path, **options: object) -> tuple[list[tuple[str, str]], list[str]]:
    loaded = load_path(path, options=ReadOptions(**options))  # type: ignore[arg-type]
    assert loaded.format == "conll"
    text = loaded.texts["1"]
    assert text is not None
    return ([(text[s.start:s.end], s.label) for s in loaded.set.get("1")],
            [str(d) for d in loaded.diagnostics])


def test_germeval_2014_is_detected_and_read_with_its_outer_entities() -> None:
    assert detect({GERMEVAL.name: GERMEVAL.read_bytes()}) == "conll"
    spans, warnings = _fragments(GERMEVAL)
    assert spans == [("Anna Meyer", "PER"), ("Universität Hamburg", "ORG"),
                     ("Hamburger", "LOCderiv")]
    layout, comments = warnings
    assert "germeval2014.tsv:2: read as GermEval 2014" in layout
    assert "tokens from column 2, tags from column 3" in layout and "--tag-column 4" in layout
    assert "germeval2014.tsv:1: 2 comment line(s) skipped" in comments


def test_tag_column_4_reads_the_inner_entities() -> None:
    spans, warnings = _fragments(GERMEVAL, text_column=2, tag_column=4)
    assert spans == [("Hamburg", "LOC")]
    assert len(warnings) == 1 and "comment line(s) skipped" in warnings[0]


def test_the_command_line_takes_tag_column() -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["validate", str(GERMEVAL), "--json", "--text-column", "2",
                   "--tag-column", "4"])
    report = json.loads(out.getvalue())
    assert rc == 0 and report["format"] == "conll" and report["spans"] == 1


def test_a_tag_column_outside_the_line_is_refused_naming_line_and_column() -> None:
    with pytest.raises(FormatError) as err:
        load_path(GERMEVAL, options=ReadOptions(tag_column=5))
    assert str(err.value).startswith(f"{GERMEVAL}:2: field 'column 5': expected the token "
                                     "in column 1 and the tag in column 5, but the line has 4")


def test_an_index_column_is_not_read_as_the_tokens() -> None:
    data = b"1\tAnna\tB-PER\n2\tlacht\tO\n\n1\tBerlin\tB-LOC\n"
    loaded = load_files({"index.conll": data})
    assert loaded.texts["1"] == "Anna lacht\nBerlin"
    assert [s.label for s in loaded.set.get("1")] == ["PER", "LOC"]
    (warning,) = [str(d) for d in loaded.diagnostics]
    assert "column 1 numbers the tokens (1, 2, 3, ...): tokens read from column 2, tags " \
           "from column 3" in warning


def test_a_hash_token_with_a_tag_is_a_token_not_a_comment() -> None:
    loaded = load_files({"tweet.conll": b"#\tO\nParis\tB-LOC\n"})
    assert loaded.texts["1"] == "# Paris" and not loaded.diagnostics


@pytest.mark.parametrize("head", [
    b"#\thttps://example.org/1\t[2024-03-01]\t\n1\tHallo\tO\tO\n",
    b"1\tAnna\tO\tO\n2\tMeyer\tO\tO\n",
])
def test_a_tsv_with_comments_or_tags_is_never_read_as_ptc(head: bytes) -> None:
    """Not PTC (whose reader would say 'expected a numeric article id, got #'): CoNLL when
    the head shows a typed tag, else not detected."""
    try:
        fmt = detect({"plain.tsv": head})
    except FormatError as exc:
        assert "could not detect the format" in str(exc)
    else:
        assert fmt != "ptc"


def test_a_lone_byte_order_mark_line_is_refused_naming_it() -> None:
    data = "Paris\tB-LOC\n\n\ufeff\nRome\tB-LOC\n".encode()
    with pytest.raises(FormatError) as err:
        load_files({"joined.conll": data})
    assert str(err.value) == ("joined.conll:3: field 'tag': expected a token and a tag "
                              "separated by a TAB or spaces, got '\\ufeff'; it holds a byte "
                              "order mark (U+FEFF), as where two files were joined: remove it")
