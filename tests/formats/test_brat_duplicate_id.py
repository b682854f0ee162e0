"""A brat ``.ann`` file giving two annotations one id. An argumentation project on HatEval
tweets (LMartinezEXEX/brat-annotations-argumentation-schemes,
``data/HateEval/agreement_tests/jose/hate_tweet_642.ann``) has ``T6`` twice, on two different
spans. brat's own server refuses to open such a document (``DuplicateAnnotationIdError``), and
so do we: an attribute, relation or note naming ``T6`` could mean either. The error named the
file, line and id but not what to do; it now says, with an id the file does not use.

The file here is our own, in that file's shape (attributes and a note between the T lines)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main
from core.formats import load_files
from core.model.errors import FormatError

TEXT = "Refugees again at the border. We cannot afford it. Let others deal with it."
ANN = ("T1\tPremise 0 29\tRefugees again at the border.\n"
       "T6\tPremise 30 50\tWe cannot afford it.\n"
       "A1\tKind T1 fact\n"
       "T2\tConclusion 51 75\tLet others deal with it.\n"
       "T6\tConclusion 30 50\tWe cannot afford it.\n"
       "#1\tAnnotatorNotes T2\ta note\n")


def test_a_duplicate_id_is_refused_with_what_to_do() -> None:
    with pytest.raises(FormatError) as caught:
        load_files({"tweet_642.txt": TEXT.encode(), "tweet_642.ann": ANN.encode()},
                   name="jose")
    assert str(caught.value) == (
        "jose/tweet_642.ann:5: field 'id': duplicate annotation id 'T6' (first on line 2); "
        "brat itself refuses to open such a document: give one of the two an id no other line "
        "uses (such as 'T3') and change the attributes, relations and notes that mean it")


def test_validate_names_the_file_line_and_a_free_id(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "tweet_642.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "tweet_642.ann").write_text(ANN, encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert ("tweet_642.ann:5: field 'id': duplicate annotation id 'T6' (first on line 2)"
            in captured.out + captured.err)
    assert "(such as 'T3')" in captured.out + captured.err


def test_every_file_giving_an_id_twice_is_named(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """InstituteForIndustrialEconomics/rured@a566675's annotation_files.zip: 5 of 527 ``.ann``
    files give an id twice (two annotation rounds pasted together: 14044.ann has T3 on lines 2
    and 30). validate named only the first; whoever repairs the corpus had to run it five
    times. Every such file is named now, with its line and id. The files here are our own,
    in that shape: four documents, three of them with a duplicate id."""
    good = "T1\tPremise 0 8\tRefugees\n"
    twice = {"14044": "T1\tOrg 0 8\tRefugees\nT3\tOrg 9 14\tagain\nR1\tRel Arg1:T1 Arg2:T3\n"
                      "T3\tOrg 22 28\tborder\n",
             "15002": "T2\tOrg 0 8\tRefugees\nT2\tOrg 0 8\tRefugees\n",
             "17810": "T1\tOrg 0 8\tRefugees\nT5\tOrg 9 14\tagain\nT6\tOrg 15 17\tat\n"
                      "T5\tOrg 22 28\tborder\nT6\tOrg 9 14\tagain\n"}
    for stem, ann in [("10001", good), *twice.items()]:
        (tmp_path / f"{stem}.txt").write_text(TEXT, encoding="utf-8")
        (tmp_path / f"{stem}.ann").write_text(ann, encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "14044.ann:4: field 'id': duplicate annotation id 'T3' (first on line 2)" in err
    assert ("2 more .ann files give an id twice: 15002.ann:2 'T2' (first on line 1); "
            "17810.ann:4 'T5' (first on line 2), 17810.ann:5 'T6' (first on line 3)") in err
    assert "10001.ann" not in err


def test_a_later_file_that_cannot_be_decoded_leaves_the_duplicate_id_error_as_it_is() -> None:
    files = {"a.txt": TEXT.encode(), "a.ann": ANN.encode(),
             "b.txt": TEXT.encode(), "b.ann": b"T1\tPremise 0 8\tRefugees\xff\n"}
    with pytest.raises(FormatError) as caught:
        load_files(files, name="jose")
    assert str(caught.value).startswith("jose/a.ann:5: field 'id': duplicate annotation id 'T6'")
    assert "b.ann" not in str(caught.value)


def test_one_more_file_is_said_in_the_singular() -> None:
    files = {"a.txt": TEXT.encode(), "a.ann": ANN.encode(),
             "b.txt": TEXT.encode(), "b.ann": ANN.encode()}
    with pytest.raises(FormatError) as caught:
        load_files(files, name="jose")
    assert str(caught.value).endswith(
        "; 1 more .ann file gives an id twice: b.ann:5 'T6' (first on line 2)")


def test_a_file_with_many_duplicate_ids_leaves_the_other_files_named() -> None:
    """The list stops after 30 lines: a first file with 40 duplicate lines took them all, and
    the other file was counted but not named ("1 more .ann file give an id twice:  and 11 more
    such lines"), the one file that the list is there to name (review19)."""
    many = "T1\tPremise 0 8\tRefugees\n" + "T1\tPremise 0 8\tRefugees\n" * 40
    files = {"a.txt": TEXT.encode(), "a.ann": many.encode(),
             "b.txt": TEXT.encode(), "b.ann": ANN.encode()}
    with pytest.raises(FormatError) as caught:
        load_files(files, name="jose")
    said = str(caught.value)
    assert "1 more .ann file gives an id twice: b.ann:5 'T6' (first on line 2)" in said
    assert ":  " not in said
    # 39 more lines of a.ann and b.ann's one: 40, of which 30 are listed
    listed = said.count("(first on line ") - 1  # the error's own line says it too
    assert listed == 30
    assert said.endswith(f" and {40 - listed} more such lines")
