"""INCEpTION / WebAnno TSV 3, UIMA CAS XMI, CoNLL and spaCy: one hand-made case per rule.

The TSV cases follow the INCEpTION user guide ("WebAnno TSV 3.3 File format"): its examples
for stacked and multi-token annotations (``PER[1]|PERpart[2]``), sub-tokens (``1-3.1``), UTF-16
offsets (an emoji counts 2), reserved-character escapes, ``_`` and ``*``, and its text rebuilding
rule (a gap between sentences is padded with spaces).
"""

from __future__ import annotations

import builtins
import io
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import ReadOptions, detect, load_files, load_path, write_files
from core.model import AnnotationSet, Span
from core.model.errors import FormatError
from tests.cli_runs import core_main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data" / "formats"
HEAD = ("#FORMAT=WebAnno TSV 3.3\n"
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS|PosValue\n"
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n")


def _tsv(body: str, head: str = HEAD, **options: Any) -> tuple[str, list[Span]]:
    loaded = load_files({"d.tsv": (head + body).encode()}, options=ReadOptions(**options))
    assert loaded.format == "webanno-tsv"
    text = loaded.texts["d"]
    assert text is not None
    return text, list(loaded.sets[0].spans["d"])


def _frag(text: str, spans: list[Span]) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in spans]


# ---- WebAnno TSV ------------------------------------------------------------------------------

def test_tsv_multi_token_and_stacked_annotations_as_in_the_user_guide() -> None:
    text, spans = _tsv("#Text=Ms. Haag plays\n1-1\t0-3\tMs.\tNNP\tPER[1]|PERpart[2]\n"
                       "1-2\t4-8\tHaag\tNNP\tPER[1]\n1-3\t9-14\tplays\tVBD\t_\n")
    assert text == "Ms. Haag plays\n"
    assert _frag(text, spans) == [("Ms.", "PERpart"), ("Ms. Haag", "PER")]


def test_tsv_default_layer_is_named_entity_value_and_layer_option_picks_pos() -> None:
    body = "#Text=Ms. Haag\n1-1\t0-3\tMs.\tNNP\tPER[1]\n1-2\t4-8\tHaag\tNNP\tPER[1]\n"
    assert _tsv(body)[1] == [Span(0, 8, "PER")]
    assert _tsv(body, layer="POS")[1] == [Span(0, 3, "NNP"), Span(4, 8, "NNP")]
    assert _tsv(body, layer="de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS",
                feature="PosValue")[1] == [Span(0, 3, "NNP"), Span(4, 8, "NNP")]


def test_tsv_unknown_layer_or_feature_lists_what_the_file_holds() -> None:
    body = "#Text=Ms.\n1-1\t0-3\tMs.\tNNP\tPER\n"
    with pytest.raises(FormatError, match=r"d.tsv: field 'layer': no span layer 'Technique'; "
                       r"the input holds .*pos.POS \(features: PosValue\); "
                       r".*NamedEntity \(features: value\)"):
        _tsv(body, layer="Technique")
    with pytest.raises(FormatError, match=r"field 'feature': layer .*NamedEntity has no feature "
                       r"'identifier'; its features: value"):
        _tsv(body, feature="identifier")


def test_tsv_custom_layer_is_preferred_and_the_choice_is_reported() -> None:
    head = HEAD.replace("\n\n\n", "\n#T_SP=webanno.custom.Technique|Technique|comment\n\n\n")
    loaded = load_files({"d.tsv": (head + "#Text=lies\n1-1\t0-4\tlies\tNN\t_\tDoubt\tx\n")
                         .encode()})
    assert loaded.sets[0].spans["d"] == (Span(0, 4, "Doubt"),)
    assert "read layer webanno.custom.Technique, feature Technique" in str(loaded.diagnostics[0])


def test_tsv_placeholders_underscore_none_and_star_without_value_is_skipped_with_warning() -> None:
    loaded = load_files({"d.tsv": (HEAD + "#Text=a b\n1-1\t0-1\ta\t_\t*\n1-2\t2-3\tb\t_\t_\n")
                         .encode()})
    assert loaded.sets[0].spans["d"] == ()
    assert "no value for feature value ('*'); skipped" in str(loaded.diagnostics[0])


def test_tsv_layer_without_features_gives_its_name_as_label() -> None:
    head = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Quote|\n\n\n"
    _, spans = _tsv("#Text=a b\n1-1\t0-1\ta\t*[1]\n1-2\t2-3\tb\t*[1]\n", head=head)
    assert spans == [Span(0, 3, "Quote")]


def test_tsv_escaped_values_and_text() -> None:
    head = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.L|v\n\n\n"
    text, spans = _tsv("#Text=a\\tb \\\\c\n1-1\t0-3\ta\\tb\ta\\|b\\_\\*\\[1\\]\n"
                       "1-2\t4-6\t\\\\c\t_\n", head=head)
    assert text == "a\tb \\c\n"
    assert spans == [Span(0, 3, "a|b_*[1]")]


def test_tsv_utf16_offsets_count_an_emoji_twice() -> None:
    text, spans = _tsv("#Text=I like it 😊 .\n1-1\t0-1\tI\t_\t_\n1-2\t2-6\tlike\t_\t_\n"
                       "1-3\t7-9\tit\t_\t_\n1-4\t10-12\t😊\t_\tEMO\n1-5\t13-14\t.\t_\tEND\n")
    assert _frag(text, spans) == [("😊", "EMO"), (".", "END")]


def test_tsv_sub_tokens_carry_their_own_offsets() -> None:
    text, spans = _tsv("#Text=plays\n1-1\t0-5\tplays\t_\t_\n1-1.1\t0-4\tplay\t_\tLEMMA\n"
                       "1-1.2\t4-5\ts\t_\t_\n")
    assert _frag(text, spans) == [("play", "LEMMA")]


def test_tsv_text_rebuilt_with_padding_and_multi_line_sentences() -> None:
    text, spans = _tsv("#Text=One.\n1-1\t0-4\tOne.\t_\tA\n\n#Text=Two\n#Text=lines\n"
                       "2-1\t7-10\tTwo\t_\tB[1]\n2-2\t11-16\tlines\t_\tB[1]\n")
    assert text == "One.\n  Two\nlines\n"
    assert _frag(text, spans) == [("One.", "A"), ("Two\nlines", "B")]


def test_tsv_relation_and_chain_columns_are_skipped() -> None:
    head = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type."
            "NamedEntity|value\n#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type."
            "CoreferenceLink|referenceType|referenceRelation\n#T_RL=webanno.custom.Rel|value|"
            "BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity\n\n\n")
    _, spans = _tsv("#Text=He said\n1-1\t0-2\tHe\tPER\tpr[1]\tcoref->1-1\tx\t1-2\n"
                    "1-2\t3-7\tsaid\tX\t_\t_\t_\t_\n", head=head)
    assert spans == [Span(0, 2, "PER"), Span(3, 7, "X")]


@pytest.mark.parametrize(("body", "message"), [
    ("#Text=a\n1-1\t0-1\ta\n", r"d.tsv:7: expected 5 TAB-separated columns .* got 3"),
    ("#Text=a\n1-1\t0-x\ta\t_\t_\n", r"d.tsv:7: field 'offsets': expected begin-end offsets"),
    ("#Text=a\n1.1\t0-1\ta\t_\t_\n", r"d.tsv:7: field 'id': expected a sentence-token id"),
    ("#Text=ab\n1-1\t1-1\ta\t_\t_\n", r"d.tsv:7: field 'offsets': expected an end offset "
     r"greater than begin \(1\), got 1"),
    ("#Text=a\n1-1\t0-5\ta\t_\t_\n", r"d.tsv:7: field 'offsets': the offsets 0-5 pass the end"),
    ("1-1\t0-1\ta\t_\t_\n", r"d.tsv:6: expected a #Text= line"),
    ("#Text=a\n", r"d.tsv:7: expected a token line after the sentence's #Text= line"),
    ("#Text=a\n1-1\t0-1\ta\t_\t_\n#Text=b\n2-1\t2-3\tb\t_\t_\n",
     r"d.tsv:8: expected an empty line before the next sentence's #Text= line"),
    ("#Text=a b\n1-1\t0-1\ta\t_\tX[y]\n1-2\t2-3\tb\t_\t_\n",
     r"d.tsv:7: field 'NamedEntity\|value': expected a numeric disambiguation id"),
])
def test_tsv_bad_input_names_file_line_and_field(body: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        _tsv(body)


def test_tsv_bad_header_is_an_error_on_line_1() -> None:
    with pytest.raises(FormatError, match=r"x.tsv:1: field '#FORMAT': expected the header"):
        load_files({"x.tsv": b"#FORMAT=WebAnno TSV 2\n"}, fmt="webanno-tsv")


def test_inception_export_folder_gives_one_set_per_annotator() -> None:
    loaded = load_path(SAMPLES / "inception_export")
    assert loaded.format == "webanno-tsv"
    assert [(s.name, s.role) for s in loaded.sets] == [
        ("alice", "annotator"), ("bob", "annotator"), ("chloe", "annotator")]
    alice = loaded.sets[0]
    text = loaded.texts["speech1.txt"]
    assert text is not None
    assert [(text[s.start:s.end], s.label) for s in alice.spans["speech1.txt"]] == [
        ("a fool", "Name calling"), ("They always lie", "Doubt"),
        ("They always lie", "Exaggeration")]
    assert any("INITIAL_CAS" in str(d) for d in loaded.diagnostics)


def test_inception_export_zip_reads_like_the_folder() -> None:
    buf = io.BytesIO()
    folder = SAMPLES / "inception_export"
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(folder.rglob("*.tsv")):
            zf.write(p, p.relative_to(folder).as_posix())
        zf.writestr("exportedproject1.json", "{}")
        zf.writestr("source/speech1.txt", "x")
    zipped = load_files({"project.zip": buf.getvalue()}, name="project.zip")
    plain = load_path(folder)
    assert [s.spans for s in zipped.sets] == [s.spans for s in plain.sets]
    assert zipped.texts == plain.texts


def test_doc_per_folder_layout_without_annotation_prefix() -> None:
    one = (HEAD + "#Text=a\n1-1\t0-1\ta\t_\tX\n").encode()
    loaded = load_files({"doc1/ann1.tsv": one, "doc1/ann2.tsv": one}, name="proj")
    assert [s.name for s in loaded.sets] == ["ann1", "ann2"]
    assert loaded.sets[1].spans == {"doc1": (Span(0, 1, "X"),)}


def test_export_with_different_texts_for_one_document_is_refused() -> None:
    a = (HEAD + "#Text=a\n1-1\t0-1\ta\t_\tX\n").encode()
    b = (HEAD + "#Text=b\n1-1\t0-1\tb\t_\tX\n").encode()
    with pytest.raises(FormatError, match="the text of document 'doc1' differs"):
        load_files({"annotation/doc1/x.tsv": a, "annotation/doc1/y.tsv": b}, name="p")


TEXT = st.text(alphabet=st.sampled_from([*"ab c.\n\t|_*[]\\", "é", "😀", "\r"]), min_size=1,
               max_size=40)
LABEL = st.text(alphabet=st.sampled_from([*"abX _|*[]\\;-é>"]), min_size=1,
                max_size=8).filter(lambda s: s.strip() == s and s != "")


@st.composite
def _docs(draw: st.DrawFn) -> tuple[dict[str, str | None], AnnotationSet]:
    texts: dict[str, str | None] = {}
    spans: dict[str, tuple[Span, ...]] = {}
    for doc in draw(st.lists(st.from_regex(r"[a-z0-9]{1,5}", fullmatch=True), max_size=3,
                             unique=True)):
        text = draw(TEXT)
        cuts = [i for i in range(len(text) + 1)]
        out = []
        for _ in range(draw(st.integers(0, 4))):
            s = draw(st.sampled_from(cuts[:-1]))
            e = draw(st.sampled_from([c for c in cuts if c > s]))
            frag = text[s:e]
            if frag.strip() and frag == frag.strip():  # TSV trims whitespace edges
                out.append(Span(s, e, draw(LABEL)))
        texts[doc] = text
        spans[doc] = tuple(sorted(out))
    return texts, AnnotationSet("runs", spans, "system")


def _lead(text: str) -> str:
    # Whitespace before a line's first token is padding in TSV; only its length survives.
    lines = text.split("\n")
    return "\n".join(" " * (len(ln) - len(ln.lstrip())) + ln.lstrip() for ln in lines)


@settings(max_examples=150, deadline=None)
@given(_docs())
def test_webanno_tsv_round_trip(case: tuple[dict[str, str | None], AnnotationSet]) -> None:
    texts, aset = case
    files = write_files("webanno-tsv", texts, [aset])
    if not aset.spans:
        assert files == {}
        return
    loaded = load_files({k: v.encode() for k, v in files.items()}, fmt="webanno-tsv",
                        name="runs")
    assert dict(loaded.sets[0].spans) == dict(aset.spans)
    for doc, text in texts.items():
        assert text is not None
        back = loaded.texts[doc]
        assert back is not None
        if text.strip():
            first = len(text) - len(text.lstrip())
            assert back[first:].rstrip("\n") in (text[first:].rstrip("\n"),
                                                  _lead(text)[first:].rstrip("\n"))


def test_webanno_tsv_export_layout_round_trip_of_several_sets() -> None:
    plain = load_path(SAMPLES / "inception_export")
    files = write_files("webanno-tsv", plain.texts, plain.sets)
    assert "annotation/speech1.txt/alice.tsv" in files
    back = load_files({k: v.encode() for k, v in files.items()}, name="out")
    assert [(s.name, s.spans) for s in back.sets] == [(s.name, s.spans) for s in plain.sets]


# ---- UIMA CAS XMI -----------------------------------------------------------------------------

def test_xmi_folder_with_type_system_reads_custom_layer_with_utf16_conversion() -> None:
    loaded = load_path(SAMPLES / "xmi_export")
    assert loaded.format == "uima-xmi"
    text = loaded.texts["speech1"]
    assert text is not None and "🙄" in text
    assert [(text[s.start:s.end], s.label) for s in loaded.sets[0].spans["speech1"]] == [
        ("a fool", "Name calling"), ("They always lie", "Doubt"),
        ("everyone knows it", "Bandwagon")]
    ne = load_path(SAMPLES / "xmi_export", options=ReadOptions(layer="NamedEntity"))
    assert [(text[s.start:s.end], s.label) for s in ne.sets[0].spans["speech1"]] == [
        ("the harbour board", "ORG")]


def test_xmi_without_type_system_says_what_is_missing() -> None:
    data = (SAMPLES / "xmi_export" / "speech1.xmi").read_bytes()
    with pytest.raises(FormatError, match=r"no type system: put TypeSystem\.xml"):
        load_files({"speech1.xmi": data})


def test_xmi_unknown_layer_lists_layers() -> None:
    with pytest.raises(FormatError, match=r"no span layer 'Nope'; the input holds "
                       r"webanno.custom.Technique \(features: Technique\)"):
        load_path(SAMPLES / "xmi_export", options=ReadOptions(layer="Nope"))


def test_xmi_export_layout_one_set_per_annotator() -> None:
    folder = SAMPLES / "xmi_export"
    xmi = (folder / "speech1.xmi").read_bytes()
    ts = (folder / "TypeSystem.xml").read_bytes()
    loaded = load_files({"annotation/speech1/ann1.xmi": xmi, "annotation/speech1/ann2.xmi": xmi,
                         "TypeSystem.xml": ts}, name="proj")
    assert [s.name for s in loaded.sets] == ["ann1", "ann2"]


# ---- spaCy ------------------------------------------------------------------------------------

def test_spacy_jsonl_dict_and_list_forms_and_ids() -> None:
    loaded = load_path(SAMPLES / "spacy_ner.jsonl")
    assert loaded.format == "spacy"
    assert loaded.sets[0].spans["harbour-2"] == (Span(4, 19, "ORG"), Span(24, 36, "PER"))
    assert loaded.sets[0].spans["harbour-3"] == ()


def test_spacy_jsonl_span_group_choice_and_error_lists_groups() -> None:
    line = b'{"text": "ab cd", "spans": {"sc": [[0, 2, "A"]], "x": [[3, 5, "B"]]}}\n'
    with pytest.raises(FormatError, match=r"several span groups \(sc, x\) and no entities; "
                       "choose one with --span-group"):
        load_files({"s.jsonl": line})
    got = load_files({"s.jsonl": line}, options=ReadOptions(span_group="x"))
    assert got.sets[0].spans == {"1": (Span(3, 5, "B"),)}
    with pytest.raises(FormatError, match=r"field 'span-group': no span group 'y'"):
        load_files({"s.jsonl": line}, options=ReadOptions(span_group="y"))


def test_spacy_jsonl_bad_span_names_line_and_path() -> None:
    data = b'{"text": "ab", "ents": [{"start": 0, "end": 9, "label": "A"}]}\n'
    with pytest.raises(FormatError, match=r"s.jsonl:1: ents\[0\].end: field 'end': expected an "
                       r"offset within the text \(length 2\), got 9"):
        load_files({"s.jsonl": data})


def test_spacy_docbin_ents_and_span_group() -> None:
    loaded = load_path(SAMPLES / "spacy_docs.spacy")
    assert loaded.sets[0].spans["harbour-2"] == (Span(4, 19, "ORG"), Span(24, 36, "PER"))
    events = load_path(SAMPLES / "spacy_docs.spacy", options=ReadOptions(span_group="events"))
    assert events.sets[0].spans["harbour-2"] == (Span(0, 46, "EVENT"), Span(4, 36, "MEETING"))


def test_missing_spacy_gives_one_line_naming_the_package(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    real_import = builtins.__import__

    def no_spacy(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError("No module named 'spacy'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_spacy)
    with pytest.raises(FormatError) as exc:
        load_path(SAMPLES / "spacy_docs.spacy")
    assert str(exc.value) == "<options>: reading .spacy files needs spaCy: pip install spacy"
    # JSONL needs no spaCy.
    assert load_path(SAMPLES / "spacy_ner.jsonl").format == "spacy"


def test_spacy_docbin_writer_reads_back() -> None:
    from core.formats.spacy_docs import docbin_bytes

    src = load_path(SAMPLES / "spacy_ner.jsonl")
    data = docbin_bytes(src.texts, src.sets[0], group="ents")
    back = load_files({"x.spacy": data})
    assert dict(back.sets[0].spans) == dict(src.sets[0].spans)


@settings(max_examples=100, deadline=None)
@given(_docs())
def test_spacy_jsonl_round_trip(case: tuple[dict[str, str | None], AnnotationSet]) -> None:
    texts, aset = case
    files = write_files("spacy", texts, [aset])
    loaded = load_files({k: v.encode() for k, v in files.items()}, fmt="spacy")
    assert dict(loaded.sets[0].spans) == dict(aset.spans)
    assert loaded.texts == texts


# ---- CoNLL ------------------------------------------------------------------------------------

def _conll(data: str, **options: Any) -> Any:
    return load_files({"x.conll": data.encode()}, options=ReadOptions(**options))


def test_conll_text_rule_docstart_and_sentences() -> None:
    loaded = _conll("-DOCSTART- -X- -X- O\n\nEU B-ORG\nrejects O\n\nPeter B-PER\nBlackburn "
                    "I-PER\n-DOCSTART- -X- -X- O\nLondon B-LOC\n")
    assert loaded.texts == {"1": "EU rejects\nPeter Blackburn", "2": "London"}
    assert loaded.sets[0].spans["1"] == (Span(0, 2, "ORG"), Span(11, 26, "PER"))


def test_conll_text_column_and_tab_separated_tokens_with_spaces() -> None:
    loaded = _conll("1\tNew York\tNNP\tB-LOC\n2\tis\tVBZ\tO\n", text_column=2)
    assert loaded.texts == {"1": "New York is"}
    assert loaded.sets[0].spans["1"] == (Span(0, 8, "LOC"),)


def test_conll_companion_text_gives_real_offsets() -> None:
    loaded = load_files({"a.conll": b"Hi\tO\nAnn\tB-PER\n.\tO\n", "a.txt": b"Hi\n\n  Ann."},
                        name="dir")
    assert loaded.texts == {"a": "Hi\n\n  Ann."}
    assert loaded.sets[0].spans == {"a": (Span(6, 9, "PER"),)}


def test_conll_companion_text_mismatch_names_the_token_line() -> None:
    with pytest.raises(FormatError, match=r"dir/a.conll:2: field 'token': token 'Ann' is not "
                       "the next word of dir/a.txt"):
        load_files({"a.conll": b"Hi\tO\nAnn\tB-PER\n", "a.txt": b"Hi Bob"}, name="dir")


def test_conll_strict_scheme_refuses_foreign_prefix_with_line() -> None:
    with pytest.raises(FormatError, match=r"x.conll:2: field 'tag': expected a IOB2 tag "
                       r"\(prefixes I, O, B\), got 'E-PER'"):
        _conll("a B-PER\nb E-PER\n", scheme="IOB2")


@pytest.mark.parametrize(("line", "message"), [
    ("word\n", r"x.conll:1: field 'tag': expected a token and a tag"),
    ("word X-PER\n", r"x.conll:1: field 'tag': expected a tag such as O, B-PER"),
    ("word B--PER\n", r"x.conll:1: field 'tag': expected a tag such as O"),
    ("word PER\n", r"x.conll:1: field 'tag': expected a tag such as O, B-PER"),
])
def test_conll_bad_lines(line: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        _conll(line)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_conll_round_trip(data: st.DataObject) -> None:
    words = st.text(alphabet=st.sampled_from([*"abcé.,😀"]), min_size=1, max_size=5)
    docs: dict[str, str | None] = {}
    spans: dict[str, tuple[Span, ...]] = {}
    for n, doc in enumerate(data.draw(st.lists(st.from_regex(r"[a-z]{1,4}", fullmatch=True),
                                               max_size=3, unique=True))):
        sentences = data.draw(st.lists(st.lists(words, min_size=1, max_size=6), min_size=1,
                                       max_size=3))
        text = "\n".join(" ".join(s) for s in sentences)
        out: list[Span] = []
        pos = 0
        for sent in sentences:  # chunks stay inside a sentence (one line)
            toks = []
            for w in sent:
                toks.append((pos, pos + len(w)))
                pos += len(w) + 1
            i = 0
            while i < len(toks):
                if data.draw(st.booleans()):
                    j = data.draw(st.integers(i, min(i + 2, len(toks) - 1)))
                    label = data.draw(st.sampled_from(["PER", "LOC"]))
                    out.append(Span(toks[i][0], toks[j][1], label))
                    i = j + 1
                else:
                    i += 1
        docs[doc] = text
        spans[doc] = tuple(out)
        assert n < 3
    aset = AnnotationSet("runs", spans, "system")
    files = write_files("conll", docs, [aset])
    for scheme in (None, "IOB2"):
        loaded = load_files({k: v.encode() for k, v in files.items()}, fmt="conll",
                            options=ReadOptions(scheme=scheme))
        assert dict(loaded.sets[0].spans) == spans
        assert loaded.texts == docs


def test_conll_writer_cuts_a_span_at_a_line_break_and_says_so() -> None:
    from core.formats.conll import losses

    aset = AnnotationSet("s", {"d": (Span(3, 8, "A"),)})
    files = write_files("conll", {"d": "ab cd\nef"}, [aset])
    assert files["s.conll"].split("\n")[2:7] == ["ab\tO", "cd\tB-A", "", "ef\tB-A", ""]
    assert "cut at line breaks" in losses({"d": "ab cd\nef"}, [aset])[0]


def test_conll_writer_refuses_overlapping_spans() -> None:
    aset = AnnotationSet("s", {"d": (Span(0, 5, "A"), Span(3, 8, "B"))})
    with pytest.raises(FormatError, match="share a token"):
        write_files("conll", {"d": "ab cd ef"}, [aset])


# ---- detection and the command line -----------------------------------------------------------

@pytest.mark.parametrize(("path", "fmt"), [
    ("inception_export", "webanno-tsv"), ("xmi_export", "uima-xmi"),
    ("conll_gold.conll", "conll"), ("spacy_ner.jsonl", "spacy"),
    ("spacy_docs.spacy", "spacy")])
def test_detection_from_name_and_content(path: str, fmt: str) -> None:
    p = SAMPLES / path
    files = ({q.relative_to(p).as_posix(): q.read_bytes() for q in p.rglob("*") if q.is_file()}
             if p.is_dir() else {p.name: p.read_bytes()})
    assert detect(files) == fmt
    if not p.is_dir():  # content alone, under a neutral name
        assert detect({"upload.txt" if fmt != "spacy" or path.endswith(".jsonl")
                       else "x.spacy": p.read_bytes()}) == fmt


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m core ARGS``, run in process (:func:`tests.cli_runs.core_main`)."""
    return core_main(*args)


def test_cli_validate_layer_flag_and_error_exit() -> None:
    ok = _cli("validate", str(SAMPLES / "inception_export"), "--layer", "NamedEntity", "--json")
    assert ok.returncode == 0, ok.stderr
    assert '"alice": {"role": "annotator", "documents": 2, "spans": 2' in ok.stdout
    bad = _cli("validate", str(SAMPLES / "inception_export"), "--layer", "Nope")
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1 and "no span layer 'Nope'" in bad.stderr


def test_cli_convert_conll_to_spacy_and_webanno_and_back(tmp_path: Path) -> None:
    out = _cli("convert", str(SAMPLES / "conll_gold.conll"), str(tmp_path / "g.jsonl"), "--to",
               "spacy", "--scheme", "IOB2")
    assert out.returncode == 0, out.stderr
    wa = _cli("convert", str(tmp_path / "g.jsonl"), str(tmp_path / "wa"), "--to", "webanno-tsv")
    assert wa.returncode == 0, wa.stderr
    back = _cli("convert", str(tmp_path / "wa"), str(tmp_path / "b.conll"), "--to", "conll")
    assert back.returncode == 0, back.stderr
    a = load_path(SAMPLES / "conll_gold.conll")
    b = load_path(tmp_path / "b.conll")
    assert [sorted(v) for v in a.sets[0].spans.values()] == \
        [sorted(v) for v in b.sets[0].spans.values()]


# ---- label lists and malformed files ----------------------------------------------------------

def test_label_list_is_checked_with_line_and_field_in_tsv_and_conll() -> None:
    body = "#Text=Ms. Haag\n1-1\t0-3\tMs.\tNNP\tPER[1]\n1-2\t4-8\tHaag\tNNP\tPER[1]\n"
    with pytest.raises(FormatError, match=r"d.tsv:7: field 'NamedEntity\|value': expected one of "
                       r"the 2 labels of the label list, got 'PER' \(did you mean 'PERS'\?\)"):
        _tsv(body, labels=["PERS", "LOC"])
    with pytest.raises(FormatError, match=r"x.conll:2: field 'tag': expected one of the 1 labels "
                       r"of the label list, got 'ORG'"):
        _conll("a O\nb B-ORG\n", labels=["PER"])
    with pytest.raises(FormatError, match=r"field 'Technique': expected one of the 1 labels"):
        load_path(SAMPLES / "xmi_export", options=ReadOptions(labels=["Doubt"]))


def test_validate_with_labels_reports_the_bad_label(tmp_path: Path) -> None:
    labels = tmp_path / "labels.txt"
    labels.write_text("PER\nLOC\nORG\n", encoding="utf-8")
    res = _cli("validate", str(SAMPLES / "conll_system.conll"), "--labels", str(labels))
    assert res.returncode == 1
    assert "conll_system.conll:32: field 'tag': expected one of the 3 labels of the label list, " \
           "got 'MISC'" in res.stderr


def test_malformed_xmi_and_type_system_are_errors_naming_the_file() -> None:
    ts = (SAMPLES / "xmi_export" / "TypeSystem.xml").read_bytes()
    with pytest.raises(FormatError, match=r"dir/a.xmi: expected UIMA CAS XMI: "):
        load_files({"a.xmi": b"<xmi:XMI xmlns:xmi='http://www.omg.org/XMI'><broken",
                    "TypeSystem.xml": ts}, name="dir")
    with pytest.raises(FormatError, match=r"dir/TypeSystem.xml: expected a UIMA type system"):
        load_files({"a.xmi": b"<x/>", "TypeSystem.xml": b"<nope"}, name="dir")


def test_corrupt_docbin_and_zip_are_errors() -> None:
    with pytest.raises(FormatError, match=r"x.spacy: expected a spaCy DocBin \(.spacy\) file"):
        load_files({"x.spacy": b"\x00\x01garbage"})
    with pytest.raises(FormatError, match=r"p.zip: expected a zip archive, but it cannot be "
                       "opened"):
        load_files({"p.zip": b"PK-not-really"}, name="p.zip")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("../evil.tsv", "x")
    with pytest.raises(FormatError, match=r"unsafe path in the zip: '../evil.tsv'"):
        load_files({"p.zip": buf.getvalue()}, name="p.zip")


def test_convert_to_a_spacy_docbin_file_reads_back(tmp_path: Path) -> None:
    res = _cli("convert", str(SAMPLES / "spacy_ner.jsonl"), str(tmp_path / "out.spacy"), "--to",
               "spacy")
    assert res.returncode == 0, res.stderr
    back = load_path(tmp_path / "out.spacy")
    assert dict(back.sets[0].spans) == dict(load_path(SAMPLES / "spacy_ner.jsonl").sets[0].spans)


def test_xmi_project_zip_with_one_zip_per_annotator_document() -> None:
    # INCEpTION zips a document export made of several files (.xmi + TypeSystem.xml).
    folder = SAMPLES / "xmi_export"
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as zf:
        for user in ("alice", "bob"):
            inner = io.BytesIO()
            with zipfile.ZipFile(inner, "w") as iz:
                iz.writestr(f"{user}.xmi", (folder / "speech1.xmi").read_bytes())
                iz.writestr("TypeSystem.xml", (folder / "TypeSystem.xml").read_bytes())
            zf.writestr(f"annotation/speech1.txt/{user}.zip", inner.getvalue())
    loaded = load_files({"project.zip": outer.getvalue()}, name="project.zip")
    assert loaded.format == "uima-xmi"
    assert [s.name for s in loaded.sets] == ["alice", "bob"]
    assert list(loaded.sets[0].spans) == ["speech1.txt"]
    assert len(loaded.sets[1].spans["speech1.txt"]) == 3


def test_export_curation_is_a_gold_set_and_other_files_are_ignored() -> None:
    one = (HEAD + "#Text=a\n1-1\t0-1\ta\t_\tX\n").encode()
    loaded = load_files({"annotation/doc1/ann1.tsv": one,
                         "curation/doc1/CURATION_USER.tsv": one,
                         "source/doc1.tsv": one,
                         "annotation_ser/doc1/ann1.ser": b"\x00binary"}, name="proj")
    assert [(s.name, s.role) for s in loaded.sets] == [("ann1", "annotator"), ("curation", "gold")]
    assert any("1 TSV files outside annotation/ and curation/ ignored" in str(d)
               for d in loaded.diagnostics)


def test_tsv_writer_refuses_a_nested_document_id_and_says_what_keeps_it() -> None:
    # ScienceNLP-Lab/DiMB-RE's brat_v2 (tests/data/wild): documents in sub-folders of a brat
    # folder ('results/PMC3869907-RESULT'); a WebAnno TSV folder reads a sub-folder as one
    # document's annotators (INCEpTION's layout), so the id cannot become a path there.
    aset = AnnotationSet("a", {"results/PMC1": [Span(0, 3, "X")]}, "gold")
    with pytest.raises(FormatError) as info:
        write_files("webanno-tsv", {"results/PMC1": "Abc def."}, [aset])
    assert str(info.value) == (
        "<output>: document id 'results/PMC1' cannot be a file name in a WebAnno TSV folder "
        "(a sub-folder there holds one document's annotators, as in INCEpTION's exports); "
        "write doccano, brat or spans-csv, which keep such ids")
