"""BMES tags (Chinese NER: MSRA, Resume, Weibo): IOBES with M for I (docs/formats.md, "BMES")."""

from __future__ import annotations

import pytest

from core.formats import ReadOptions, load_files
from core.model.errors import FormatError

# Our own sentence, one character per line as LatticeLSTM's data lays such files out.
BMES = "\n".join([
    "北 B-ORG", "京 M-ORG", "大 M-ORG", "学 E-ORG", "的 O", "张 B-PER", "三 E-PER",
    "在 O", "沪 S-GPE", "。 O", "",
]).encode()
IOBES = BMES.replace(b"M-", b"I-")


def _spans(options: ReadOptions | None = None) -> list[tuple[int, int, str]]:
    loaded = load_files({"dev.char": BMES}, fmt="conll", options=options)
    return [(s.start, s.end, s.label) for s in loaded.set.spans["1"]]


def test_bmes_reads_as_iobes_with_one_warning_naming_the_m_prefix() -> None:
    loaded = load_files({"dev.char": BMES}, fmt="conll")
    iobes = load_files({"dev.char": IOBES}, fmt="conll")
    assert dict(loaded.set.spans) == dict(iobes.set.spans)
    text = loaded.texts["1"]
    assert text is not None
    assert [text[s.start:s.end] for s in loaded.set.spans["1"]] == ["北 京 大 学", "张 三", "沪"]
    said = [str(d) for d in loaded.diagnostics]
    assert len(said) == 1 and "'M-ORG'" in said[0] and "read as I-" in said[0]


def test_scheme_bmes_reads_strict_iobes_without_the_warning() -> None:
    loaded = load_files({"dev.char": BMES}, fmt="conll", options=ReadOptions(scheme="BMES"))
    assert not loaded.diagnostics
    assert _spans(ReadOptions(scheme="BMES")) == _spans()


def test_bmes_is_detected_as_conll() -> None:
    assert load_files({"dev.char": BMES}).format == "conll"


def test_scheme_io_refuses_bmes_naming_it_and_the_way_out() -> None:
    with pytest.raises(FormatError, match="without --scheme IO"):
        load_files({"dev.char": BMES}, fmt="conll", options=ReadOptions(scheme="IO"))


def test_an_unknown_prefix_is_not_called_an_io_tag() -> None:
    with pytest.raises(FormatError) as err:
        load_files({"x.conll": b"a X-ORG\nb O\n"}, fmt="conll")
    assert "X- is no prefix" in str(err.value) and "--scheme IO" not in str(err.value)
