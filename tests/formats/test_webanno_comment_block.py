"""WebAnno TSV 3: a block of ``#`` lines without a ``#Text=`` line between the header and the
first sentence (the GUM corpus writes its documents' summaries so: ``#Summary1=...``) is read
as a comment block, skipped with a warning that names its lines, instead of refusing the file
with "expected a token line after the sentence's #Text= line".

The file below has the shape of GUM's ``coref/gum/tsv/GUM_news_iodine.tsv`` (amir-zeldes/gum
@72ce5ac: span layer ``Referent`` with five features, relation layer ``Coref``, summary lines,
stacked entities with ids, lines ending in a TAB); its words are ours.
"""

from __future__ import annotations

import pytest

from core.formats import ReadOptions, load_files
from core.model.errors import FormatError

HEADER = ("#FORMAT=WebAnno TSV 3.2\n"
          "#T_SP=webanno.custom.Referent|entity|infstat|salience|identity|centering\n"
          "#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent\n")
SUMMARIES = ("#Summary1=(human1) Kids in a town lack salt, a study says.\n"
             "#Summary2=(human2) A study finds that kids lack salt.\n")
BODY = ("\n\n#Text=Town kids lack salt\n"
        "1-1\t0-4\tTown\tplace[1]|person[2]\tnew[1]|new[2]\tsn[1]|sn[2]\t_\tcf1[1]|cf1[2]\t"
        "_\t_\t\n"
        "1-2\t5-9\tkids\tperson[2]\tnew[2]\tsn[2]\t_\tcf1[2]\tcoref\t2-1[4_2]\t\n"
        "1-3\t10-14\tlack\t_\t_\t_\t_\t_\t_\t_\t\n"
        "1-4\t15-19\tsalt\tsubstance\tnew\tss\tSalt\tcf2\t_\t_\t\n"
        "\n#Text=They do\n"
        "2-1\t20-24\tThey\tperson\tgiv:act\tsn\t_\tcf1\t_\t_\t\n"
        "2-2\t25-27\tdo\t_\t_\t_\t_\t_\t_\t_\t\n")


def read(content: str):
    return load_files({"gum_like.tsv": content.encode()}, options=ReadOptions())


def test_summary_lines_before_the_first_sentence_are_skipped_with_a_warning() -> None:
    loaded = read(HEADER + SUMMARIES + BODY)
    plain = read(HEADER + BODY)
    assert loaded.texts == plain.texts == {"gum_like": "Town kids lack salt\nThey do\n"}
    spans = sorted((s.start, s.end, s.label) for s in loaded.sets[0].spans["gum_like"])
    assert spans == [(0, 4, "place"), (0, 9, "person"), (15, 19, "substance"),
                     (20, 24, "person")]
    assert spans == sorted((s.start, s.end, s.label) for s in plain.sets[0].spans["gum_like"])
    skipped = [d for d in loaded.diagnostics if "#Summary1=" in d.message]
    assert len(skipped) == 1
    assert skipped[0].line == 4
    assert "lines 4-5" in skipped[0].message and "without a #Text= line" in skipped[0].message


def test_a_sentence_with_text_but_no_tokens_is_still_refused() -> None:
    content = HEADER + "\n\n#Text=Town kids lack salt\n\n#Text=They do\n" + BODY.split(
        "\n#Text=They do\n")[1]
    with pytest.raises(FormatError) as exc:
        read(content)
    assert exc.value.line == 7
    assert "expected a token line after the sentence's #Text= line" in str(exc.value)


def test_a_comment_block_at_the_end_of_the_file_is_skipped_too() -> None:
    loaded = read(HEADER + BODY + "\n#Summary9=(human9) trailing.\n")
    assert loaded.texts["gum_like"] == "Town kids lack salt\nThey do\n"
    assert any("#Summary9=" in d.message for d in loaded.diagnostics)


def test_a_damaged_layer_declaration_is_refused_not_skipped_as_a_comment() -> None:
    damaged = HEADER.replace("#T_RL=", "#T_RL\t")
    with pytest.raises(FormatError) as exc:
        read(damaged + BODY)
    assert exc.value.line == 3
    assert "expected a layer declaration starting '#T_SP=', '#T_CH=' or '#T_RL='" in str(
        exc.value)
