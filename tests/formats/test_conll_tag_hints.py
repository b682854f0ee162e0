"""What the CoNLL reader says when the tag column holds no tags: a CoNLL-U MISC cell of
``Key=Value`` pairs (CorefUD's ``Entity=`` spans, as in GUM's ``dep/*.conllu``) and a CoNLL-2012
coreference bracket (``(person-1``, GUM's ``coref/gum/conll/``) were explained as IO tags to be
read with ``--scheme IO``, which fails again. The rows below have the shape of GUM's files
(amir-zeldes/gum@72ce5ac); the words are ours."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, load_files
from core.model.errors import FormatError

CONLLU = (
    "# sent_id = doc-1\n"
    "# text = Town kids\n"
    "1\tTown\ttown\tNOUN\tNN\tNumber=Sing\t2\tcompound\t2:compound\t"
    "Entity=(1-place-new-sn-cf1-1-coref)|MSeg=Town\n"
    "2\tkids\tkid\tNOUN\tNNS\tNumber=Plur\t0\troot\t0:root\tEntity=(2-person-new-sn-cf1-1)\n"
    "\n")
COREF = ("# begin document doc\n"
         "0\tTown\t(place-1\n"
         "1\tkids\tplace-1)\n"
         "\n"
         "# end document\n")


def refusal(name: str, content: str) -> FormatError:
    with pytest.raises(FormatError) as exc:
        load_files({name: content.encode()}, fmt="conll", options=ReadOptions())
    return exc.value


def test_a_conllu_misc_column_is_named_and_no_io_scheme_suggested() -> None:
    exc = refusal("doc.conllu", CONLLU)
    message = str(exc)
    assert exc.line == 3
    assert "--scheme IO" not in message
    assert "CoNLL-U" in message and "Key=Value" in message and "--tag-column" in message


def test_a_coreference_bracket_is_named_as_such() -> None:
    exc = refusal("doc.conll", COREF)
    message = str(exc)
    assert exc.line == 2
    assert "--scheme IO" not in message
    assert "coreference bracket" in message and "CoNLL-2012" in message


def test_a_bare_type_still_suggests_the_io_scheme() -> None:
    exc = refusal("doc.conll", "Town\tplace\nkids\tO\n")
    assert "read IO tags with --scheme IO" in str(exc)


def test_a_long_cell_with_brackets_is_refused_at_once() -> None:
    """The coreference check is tried on a cell already refused: a text column taken as tags
    (a URL in brackets, a long word before '((') must not make it backtrack for hours (its
    repetition split a run of letters in exponentially many ways before the pieces were
    possessive). No clock: at 5,000 characters the old pattern would not end."""
    for cell in ("(" + "a" * 5000 + "((", "(https://example.org/" + "path/" * 1000 + ")"):
        exc = refusal("x.conll", f"Hello\t{cell}\nworld\tO\n")
        assert exc.line == 1


UD = ("# sent_id = 1\n"
      "# text = Ada met Bob.\n"
      "1\tAda\tAda\tPROPN\tNNP\tNumber=Sing\t2\tnsubj\t_\t_\n"
      "2\tmet\tmeet\tVERB\tVBD\tTense=Past\t0\troot\t_\t_\n"
      "3\tBob\tBob\tPROPN\tNNP\tNumber=Sing\t2\tobj\t_\tSpaceAfter=No\n"
      "4\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\n"
      "\n")


def test_a_conllu_file_without_a_format_names_the_reader_and_option_to_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bugleft18: a Universal Dependencies ``.conllu`` file was refused with "could not detect
    the format" and the list of every format; it now says what the file is and which reader
    and option read a column of tags from it."""
    path = tmp_path / "ud.conllu"
    path.write_text(UD, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr()
    message = err.out + err.err
    assert f"{path}: could not detect the format: a CoNLL-U file" in message
    assert "--format conll --tag-column N" in message
    assert "NER=" in message or "MISC" in message


def test_a_conllu_file_read_as_conll_names_its_empty_tag_cell_and_the_option(
        tmp_path: Path) -> None:
    """bugleft18: read with ``--format conll``, the same file was refused at line 3 for its
    tag ``'_'`` and nothing more: the last of CoNLL-U's ten columns (MISC) is empty there."""
    exc = refusal("ud.conllu", UD)
    message = str(exc)
    assert exc.line == 3 and exc.field == "tag"
    assert "got '_'" in message and "empty cell" in message
    assert "CoNLL-U" in message and "--tag-column N" in message
    # a CoNLL file that is no CoNLL-U file is told about the empty cell without CoNLL-U
    other = str(refusal("x.conll", "Ada\tB-PER\nmet\t_\n\n"))
    assert "empty cell" in other and "CoNLL-U" not in other and "--tag-column N" in other
