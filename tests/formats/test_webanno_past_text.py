"""WebAnno TSV 3: an offset past the end of a text that holds a character beyond the Basic
Multilingual Plane (an emoji, two UTF-16 units) is refused as past the text, not as "falls
inside a character outside the Basic Multilingual Plane" (review19: the UTF-16 conversion
looked for offsets inside such a character and outside the text at once, and named every one
as inside). The document is ours, made as INCEpTION writes TSV 3.3."""

from __future__ import annotations

from array import array

import pytest

from core.formats import ReadOptions, load_files, webanno
from core.model.errors import FormatError

HEAD = ("#FORMAT=WebAnno TSV 3.3\n"
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n")
GOOD = (HEAD + "#Text=Hi \U0001F600 Anna.\n"
        "1-1\t0-2\tHi\t_\t\n"
        "1-2\t3-5\t\U0001F600\t_\t\n"
        "1-3\t6-10\tAnna\tPER\t\n"
        "1-4\t10-11\t.\t_\t\n")


def test_the_file_reads_and_its_offsets_count_utf16_units() -> None:
    loaded = load_files({"doc.tsv": GOOD.encode()}, fmt="webanno-tsv", options=ReadOptions())
    (aset,) = loaded.sets
    assert [(loaded.texts["doc"][s.start:s.end], s.label) for s in aset.spans["doc"]] == [
        ("Anna", "PER")]


@pytest.mark.parametrize("columns_first", [True, False])
def test_a_token_past_the_sentence_in_a_text_with_an_emoji_is_past_the_text(
        columns_first: bool) -> None:
    tsv = GOOD.replace("1-4\t10-11\t.", "1-4\t10-14\t.")
    with pytest.raises(FormatError) as err:
        webanno.parse("doc.tsv", tsv, columns_first=columns_first)
    assert str(err.value) == ("doc.tsv:9: field 'offsets': the offsets 10-14 pass the end of "
                              "the sentence text (11)")


def test_the_conversion_names_an_offset_past_the_text_before_one_inside_an_emoji() -> None:
    """The conversion to code points, on its own (the sentence checks above come first in a
    file read): a unit ending past the text is named so, even after a unit inside the emoji."""
    doc = webanno.parse("doc.tsv", GOOD)
    doc.unit_end = array("q", [*doc.unit_end[:-1], 14])
    with pytest.raises(FormatError) as err:
        webanno._unit_offsets(doc)
    assert str(err.value) == ("doc.tsv:9: field 'offsets': the offsets 10-14 pass the end of "
                              "the text (12)")
    inside = webanno.parse("doc.tsv", GOOD)
    inside.unit_begin = array("q", [0, 4, *inside.unit_begin[2:]])  # 4: inside the emoji
    with pytest.raises(FormatError, match="the offset 4 falls inside a character outside"):
        webanno._unit_offsets(inside)
