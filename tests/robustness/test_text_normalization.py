"""Texts that differ in Unicode normalization only (NFC/NFD), and quotes that show what prints as
nothing (core/model/texts.py, core/model/textsafe.py; docs/robustness.md)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model import AnnotationSet, Span
from core.model.errors import InputError
from core.model.texts import excerpt, reconcile

NFC = "Le café de Zoë à Málaga est fermé."
NFD = unicodedata.normalize("NFD", NFC)


def _pred(*spans: tuple[int, int]) -> AnnotationSet:
    return AnnotationSet("p", {"1": tuple(Span(s, e, "X") for s, e in spans)}, "system")


def test_spans_on_an_nfc_text_are_carried_onto_the_nfd_reference_with_one_warning() -> None:
    words = [(NFC.index(w), NFC.index(w) + len(w)) for w in ("café", "Zoë", "Málaga")]
    sets, why = reconcile({"1": NFD}, {"1": NFC}, [_pred(*words)], here="p.json",
                          there="g.json")
    got = [NFD[s.start:s.end] for s in sets[0].spans["1"]]
    assert [unicodedata.normalize("NFC", g) for g in got] == ["café", "Zoë", "Málaga"]
    assert len(why) == 1 and "Unicode normalization" in why[0]
    assert "cafe\\u0301" in why[0]  # the combining accent shown, not drawn on the e


def test_a_span_ending_between_a_letter_and_its_accent_is_refused_naming_normalization() -> None:
    e = NFD.index("cafe") + 4  # after the e, before its combining accent
    with pytest.raises(InputError) as err:
        reconcile({"1": NFC}, {"1": NFD}, [_pred((3, e))], here="p.json", there="g.json")
    message = str(err.value)
    assert "Unicode normalization" in message and "[3, 7)" in message
    assert "combining mark" in message


def test_other_texts_are_still_refused() -> None:
    with pytest.raises(InputError, match="different text"):
        reconcile({"1": NFC}, {"1": "Le cafe de Zoe"}, [_pred((0, 2))], here="p", there="g")


def test_quotes_escape_what_prints_as_nothing() -> None:
    assert excerpt("\ufeffFirst", 0) == "'\\ufeffFirst'"
    assert excerpt("a\u00a0b\u200bc", 0) == "'a\\u00a0b\\u200bc'"
    assert excerpt("हिंदी", 0) == "'हिंदी'"  # vowel signs kept unless normalization is named


_WORDS = st.lists(st.sampled_from(["café", "Zoë", "naïve", "Ångström", "x", "ñandú", "a"]),
                  min_size=1, max_size=8)


@settings(max_examples=100, deadline=None)
@given(_WORDS, st.data())
def test_carrying_across_normalization_keeps_every_span_on_the_same_letters(
        words: list[str], data: st.DataObject) -> None:
    nfc = " ".join(words)
    nfd = unicodedata.normalize("NFD", nfc)
    starts = [0] + [k + 1 for k, ch in enumerate(nfc) if ch == " "]
    ends = [k for k, ch in enumerate(nfc) if ch == " "] + [len(nfc)]
    picks = data.draw(st.lists(st.integers(0, len(words) - 1), min_size=1, unique=True))
    spans = [(starts[i], ends[i]) for i in picks]
    sets, _ = reconcile({"1": nfd}, {"1": nfc}, [_pred(*spans)], here="p", there="g")
    got = sorted(unicodedata.normalize("NFC", nfd[s.start:s.end]) for s in sets[0].spans["1"])
    assert got == sorted(nfc[s:e] for s, e in spans)
