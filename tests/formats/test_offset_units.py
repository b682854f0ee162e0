"""Offsets counted in UTF-16 code units or UTF-8 bytes, told apart by each span's own text
(core/model/units.py; docs/formats.md, "Offsets in other units")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.formats import load_files, load_path, read_folder
from core.model import units
from core.model.errors import FormatError

DATA = Path(__file__).parent.parent / "data" / "units"


def _spans(loaded):  # type: ignore[no-untyped-def]
    return {s.name: dict(s.spans) for s in loaded.sets}


def _task(text: str, spans: list[tuple[int, int, str]]) -> dict[str, object]:
    result = [{"type": "labels", "from_name": "l", "to_name": "t",
               "value": {"start": s, "end": e, "text": frag, "labels": ["X"]}}
              for s, e, frag in spans]
    return {"id": 1, "data": {"text": text}, "annotations": [{"completed_by": 1,
                                                               "result": result}]}


def _ls(tasks: list[dict[str, object]]) -> dict[str, bytes]:
    return {"ls.json": json.dumps(tasks, ensure_ascii=False).encode()}


def test_label_studio_utf16_export_reads_as_its_code_point_export_with_one_warning() -> None:
    utf16 = load_path(DATA / "ls_utf16.json")
    code_points = load_path(DATA / "ls_codepoints.json")
    assert _spans(utf16) == _spans(code_points)
    said = [str(d) for d in utf16.diagnostics]
    assert len([m for m in said if "UTF-16 code units" in m]) == 1
    assert not any("differs from the text" in m for m in said)
    assert not any("UTF-16" in str(d) for d in code_points.diagnostics)


def test_semeval_text_fragments_in_utf16_are_converted() -> None:
    loaded = load_path(DATA / "semeval_utf16.json")
    text = loaded.texts["ja"]
    assert text is not None
    frags = [text[s.start:s.end] for s in loaded.set.spans["ja"]]
    assert "𠮷野家" in frags
    assert [str(d) for d in loaded.diagnostics if "UTF-16 code units" in str(d)]
    assert not [d for d in loaded.diagnostics if "differs from the text" in str(d)]


def test_brat_text_column_in_utf8_bytes_is_converted() -> None:
    loaded = load_files(read_folder(DATA / "brat_bytes"), fmt="brat", name="brat_bytes")
    text = loaded.texts["emoji"]
    assert text is not None
    assert [text[s.start:s.end] for s in loaded.set.spans["emoji"]][3] == "Paris"
    assert "UTF-8 bytes" in str(loaded.diagnostics[0])
    assert not [d for d in loaded.diagnostics if "differs from the text" in str(d)]


def test_a_file_that_mixes_units_is_refused_without_advising_clip_spans() -> None:
    text = "😀 Paris and 😀 Rome"
    # the spans count UTF-16 units, but the last one fits no unit: the file is read as code
    # points, and the span past the text is refused
    files = _ls([_task(text, [(3, 8, "Paris"), (16, 20, "Rome"), (18, 22, "ome")])])
    with pytest.raises(FormatError) as err:
        load_files(files)
    message = str(err.value)
    assert "read as UTF-16 code units" in message and "[18, 22)" in message
    assert "--clip-spans" not in message


def test_offsets_that_fit_no_unit_name_the_units_tried() -> None:
    files = _ls([_task("😀 Paris", [(3, 30, "Berlin")])])
    with pytest.raises(FormatError) as err:
        load_files(files)
    message = str(err.value)
    assert "code points, UTF-16 code units or UTF-8 bytes" in message
    assert "--clip-spans" in message  # no unit fits: clipping is the user's choice


def test_a_code_point_file_with_one_edited_fragment_stays_in_code_points() -> None:
    text = "Paris 😀 and Rome"
    loaded = load_files(_ls([_task(text, [(0, 5, "Paris"), (12, 16, "Roma")])]))
    assert [(s.start, s.end) for s in loaded.sets[0].spans["1"]] == [(0, 5), (12, 16)]
    said = [str(d) for d in loaded.diagnostics]
    assert any("differs from the text" in m for m in said)
    assert not any("converted" in m for m in said)


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)


@st.composite
def _text_and_span(draw: st.DrawFn) -> tuple[str, int, int]:
    text = draw(_TEXT)
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start + 1, len(text)))
    return text, start, end


@settings(max_examples=300, deadline=None)
@given(_text_and_span(), st.sampled_from(units.OTHERS))
def test_spans_converted_to_another_unit_and_back_are_the_same(
        case: tuple[str, int, int], unit: units.Unit) -> None:
    text, start, end = case
    s, e = units.from_code_points(text, start, end, unit)
    codec, width = ("utf-16-le", 2) if unit == units.UTF16 else ("utf-8", 1)
    assert text.encode(codec)[s * width:e * width].decode(codec) == text[start:end]
    assert units.to_code_points(text, s, e, unit) == (start, end)


@settings(max_examples=60, deadline=None)
@given(_text_and_span(), st.sampled_from(units.OTHERS))
@example(("0\U00010000" + "00", 2, 3), units.UTF16)  # ambiguous: read as code points, 3-4
@example(("\x80", 0, 1), units.UTF8)  # 0-2 in bytes runs past the one code point
def test_a_label_studio_file_in_another_unit_reads_the_spans_of_its_code_points(
        case: tuple[str, int, int], unit: units.Unit) -> None:
    text, start, end = case
    frag = text[start:end]
    if not frag.strip() or frag != frag.strip():
        return  # whitespace at an edge only adds a warning
    s, e = units.from_code_points(text, start, end, unit)
    loaded = load_files(_ls([_task(text, [(s, e, frag)])]))
    # When the converted offsets also cut ``frag`` out of the text as code points ('0𐀀00', the
    # second '0' at 2-3 in code points is at 3-4 in UTF-16, where the third '0' is), the file
    # reads right in both units and code points, the format's own unit, are kept.
    read_as = (s, e) if e <= len(text) and text[s:e] == frag else (start, end)
    assert [(x.start, x.end) for x in loaded.sets[0].spans["1"]] == [read_as]


def test_spans_that_split_a_character_as_drawn_are_warned_once_per_set() -> None:
    from core.model import AnnotationSet, Span, bounds

    text = "Le cafe\u0301 de Zoe\u0308 et 👨\u200d👩\u200d👧 ici."
    pred = AnnotationSet("p", {"1": (Span(3, 7, "X"), Span(12, 15, "Y"), Span(0, 2, "Z"))},
                         "system")
    _, said = bounds.check_sets([("p.csv", pred)], {"1": text})
    assert len(said) == 1 and "2 span(s) begin or end inside a character" in said[0]
    assert "'cafe'" in said[0] and "UTF-16" in said[0]
    whole = AnnotationSet("p", {"1": (Span(3, 8, "X"),)}, "system")
    assert bounds.check_sets([("p.csv", whole)], {"1": text})[1] == []


def test_webanno_tsv_in_code_points_is_named_so() -> None:
    with pytest.raises(FormatError) as err:
        load_path(DATA / "tsv_cp" / "emoji.tsv")
    message = str(err.value)
    assert "look like code points" in message and "UTF-16 code units" in message
    assert "'🇫🇷' is at 24-26" in message
