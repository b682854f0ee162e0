"""WebAnno TSV 3: a multi-unit annotation ends where the last unit carrying its id ends, as
INCEpTION's reader (``Tsv3XDeserializer.getOrCreateSpanAnnotation``: "Extend the span of the
existing annotation" sets its end to each further unit's end) reads it.

A TSV library's test input (neuged/webanno_tsv, ``test/resources/test_input_v3.3.tsv``, a
letter edition) marks "Bernhard" inside the token "Bernhardischen" by giving the id ``[3]`` to
the token row and to its sub-token row ``2-31.1 212-220``. INCEpTION reads that annotation as
212-220, "Bernhard"; SpanScope kept the wider end (212-226, "Bernhardischen"). INCEpTION's own
files never put an id on a token and on a sub-token that ends before it, so they read the same
either way (its test suite's ``testStackedSubMultiTokenSpanWithFeatureValue`` shape below).

The files are our own, in those shapes."""

from __future__ import annotations

from core.formats import load_files

HEADER = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Entity|value\n\n\n"


def _spans(tsv: str) -> list[tuple[str, str]]:
    loaded = load_files({"letter.tsv": (HEADER + tsv).encode()})
    text = loaded.texts["letter"]
    return sorted((text[s.start:s.end], s.label) for s in loaded.sets[0].spans["letter"])


def test_an_id_on_a_token_and_its_subtoken_ends_where_the_subtoken_ends() -> None:
    tsv = ("#Text=die erscheinenden Bernhardischen Suidas\n"
           "1-1\t0-3\tdie\t_\t\n"
           "1-2\t4-17\terscheinenden\t_\t\n"
           "1-3\t18-32\tBernhardischen\tLIT[2]|per[3]\t\n"
           "1-3.1\t18-26\tBernhard\tper[3]\t\n"
           "1-4\t33-39\tSuidas\tLIT[2]\t\n")
    assert _spans(tsv) == [("Bernhard", "per"), ("Bernhardischen Suidas", "LIT")]


def test_inception_multi_unit_spans_over_subtokens_read_as_before() -> None:
    tsv = ("#Text=aaaaaa bbbbbb cccccc\n"
           "1-1\t0-6\taaaaaa\tA[1]\t\n"
           "1-1.1\t3-6\taaa\tB[2]\t\n"
           "1-2\t7-13\tbbbbbb\tB[2]\t\n"
           "1-2.1\t7-10\tbbb\tA[1]\t\n"
           "1-3\t14-20\tcccccc\t_\t\n"
           "1-3.1\t14-17\tccc\tB[2]\t\n")
    assert _spans(tsv) == [("aaa bbbbbb ccc", "B"), ("aaaaaa bbb", "A")]
