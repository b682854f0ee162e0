"""CoNLL tags beyond BIO: bare BILOU prefixes (``L``, ``U``: type ``_``) and suffix-style tags
(``PER-B``), read as ``seqeval`` reads them (our own files in ``tests/data/formats/conll/``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval import scheme as sq
from seqeval.metrics.sequence_labeling import get_entities

from core.formats import ReadOptions, load_files, load_path
from core.formats.conll import SCHEMES
from core.model.errors import FormatError

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "conll"
SEQEVAL_SCHEMES = {"IOB1": sq.IOB1, "IOB2": sq.IOB2, "IOE1": sq.IOE1, "IOE2": sq.IOE2,
                   "IOBES": sq.IOBES, "BILOU": sq.BILOU}


def _tags(path: Path) -> list[list[str]]:
    sentences: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("-DOCSTART-"):
            if sentences[-1]:
                sentences.append([])
            continue
        sentences[-1].append(line.split()[-1])
    return [s for s in sentences if s]


def _chunks(path: Path, scheme: str | None) -> tuple[list[tuple[str, int, int]], list[str]]:
    """Our chunks as (type, first token, last token + 1) over the sentences in a row, and the
    reader's warnings."""
    loaded = load_path(path, fmt="conll", options=ReadOptions(scheme=scheme))
    text = next(t for t in loaded.texts.values() if t is not None)
    starts = [i for i, c in enumerate(text) if c not in " \n" and (i == 0 or text[i - 1] in " \n")]
    ends = [i + 1 for i, c in enumerate(text) if c not in " \n" and (i + 1 == len(text)
                                                                    or text[i + 1] in " \n")]
    out = [(s.label, starts.index(s.start), ends.index(s.end) + 1)
           for _, spans in loaded.set for s in spans]
    return sorted(out, key=lambda c: c[1]), [str(d) for d in loaded.diagnostics]


def _seqeval_default(sentences: list[list[str]], *, suffix: bool = False
                     ) -> list[tuple[str, int, int]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval warns about tags it does not know
        return [(t, s, e + 1) for t, s, e in get_entities(sentences, suffix=suffix)]


def _seqeval_strict(sentences: list[list[str]], scheme: str, *, suffix: bool = False
                    ) -> list[tuple[str, int, int]]:
    out, offset = [], 0
    for seq in sentences:
        out += [(e.tag, offset + e.start, offset + e.end) for e in
                sq.Tokens(seq, SEQEVAL_SCHEMES[scheme], suffix=suffix).entities]
        offset += len(seq)
    return out


def _flat(chunks: list[tuple[str, int, int]], sentences: list[list[str]]
          ) -> list[tuple[str, int, int]]:
    """seqeval's default mode counts the ``O`` it puts between sentences: drop it."""
    breaks = [sum(len(s) + 1 for s in sentences[: k + 1]) - 1 for k in range(len(sentences))]

    def token(i: int) -> int:
        return i - sum(1 for b in breaks if b < i)

    return [(t, token(s), token(e - 1) + 1) for t, s, e in chunks]


def test_bare_l_and_u_are_type_underscore_chunks_in_strict_bilou() -> None:
    path = DATA / "bilou_bare.conll"
    ours, _ = _chunks(path, "BILOU")
    assert ours == _seqeval_strict(_tags(path), "BILOU") == [("_", 1, 3), ("_", 5, 6),
                                                             ("_", 7, 8)]


def test_bare_l_and_u_in_default_mode_read_as_seqeval_with_a_warning() -> None:
    path = DATA / "bilou_bare.conll"
    ours, warned = _chunks(path, None)
    # seqeval's default mode does not know L and U: with type '_' (the type of O) the chunk
    # that B starts is never closed, and the U tokens continue it.
    assert ours == _flat(_seqeval_default(_tags(path)), _tags(path))
    (warning,) = [w for w in warned if "BILOU" in w]
    assert "bilou_bare.conll" in warning and "--scheme BILOU" in warning
    assert "3 chunk(s)" in warning


def test_typed_bilou_reads_alike_in_both_modes_without_a_warning() -> None:
    path = DATA / "bilou_typed.conll"
    default, warned = _chunks(path, None)
    strict, _ = _chunks(path, "BILOU")
    assert default == strict == _seqeval_strict(_tags(path), "BILOU")
    assert default == _flat(_seqeval_default(_tags(path)), _tags(path))
    assert {c[0] for c in default} == {"ORG", "LOC", "PER"}
    assert not [w for w in warned if "BILOU" in w]


@pytest.mark.parametrize("scheme", [None, "IOB2", "IOB1"])
def test_suffix_style_tags_read_as_seqeval_suffix_mode(scheme: str | None) -> None:
    path = DATA / "suffix.conll"
    ours, warned = _chunks(path, scheme)
    sentences = _tags(path)
    theirs = (_flat(_seqeval_default(sentences, suffix=True), sentences) if scheme is None
              else _seqeval_strict(sentences, scheme, suffix=True))
    assert ours == theirs
    if scheme != "IOB1":  # in IOB1 a B- after O starts nothing: LOC and FAC-X are dropped
        assert {c[0] for c in ours} == {"ORG", "PER", "LOC", "FAC-X"}
    assert not warned


def test_prefix_and_suffix_styles_in_one_file_are_refused_naming_both() -> None:
    with pytest.raises(FormatError) as info:
        load_path(DATA / "mixed_styles.conll", fmt="conll")
    message = str(info.value)
    assert "mixed_styles.conll:5" in message and "'PER-B'" in message
    assert "'B-ORG' (line 2)" in message and "suffix" in message


def test_a_suffix_style_file_is_detected_as_conll() -> None:
    from core.formats import detect

    data = (DATA / "suffix.conll").read_bytes()
    assert detect({"ner.txt": data}) == "conll"


TYPES = ["PER", "LOC", "ORG-X"]
SUFFIX_TAG = st.one_of(st.just("O"), st.just("O"),
                       st.builds(lambda t, p: f"{t}-{p}", st.sampled_from(TYPES),
                                 st.sampled_from("BIESLU")))


def _file(sentences: list[list[str]]) -> bytes:
    lines: list[str] = []
    for tags in sentences:
        lines += [f"w{i}\t{tag}" for i, tag in enumerate(tags)] + [""]
    return "\n".join(lines).encode()


def _read(sentences: list[list[str]], scheme: str | None) -> list[tuple[str, int, int]]:
    loaded = load_files({"x.conll": _file(sentences)}, fmt="conll",
                        options=ReadOptions(scheme=scheme))
    text = loaded.texts["1"] or ""
    starts = [0] + [i + 1 for i, c in enumerate(text) if c in " \n"]
    ends = [i for i, c in enumerate(text) if c in " \n"] + [len(text)]
    return sorted(((s.label, starts.index(s.start), ends.index(s.end) + 1)
                   for s in loaded.set.get("1")), key=lambda c: (c[1], c[2]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(SUFFIX_TAG, min_size=1, max_size=8), min_size=1, max_size=4))
def test_random_suffix_files_chunk_as_seqeval_default_mode(sentences: list[list[str]]) -> None:
    if all(t == "O" for s in sentences for t in s):
        return  # no typed tag: nothing says the file is suffix-style
    theirs = _flat(_seqeval_default(sentences, suffix=True), sentences)
    assert _read(sentences, None) == sorted(theirs, key=lambda c: (c[1], c[2]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(SEQEVAL_SCHEMES)), st.data())
def test_random_suffix_files_chunk_as_seqeval_strict_mode(name: str,
                                                         data: st.DataObject) -> None:
    allowed = [p for p in SCHEMES[name].allowed if p != "O"]
    tag = st.one_of(st.just("O"), st.builds(lambda t, p: f"{t}-{p}", st.sampled_from(TYPES),
                                            st.sampled_from(allowed)))
    sentences = data.draw(st.lists(st.lists(tag, min_size=1, max_size=8), min_size=1,
                                   max_size=4))
    if all(t == "O" for s in sentences for t in s):
        return
    theirs = _seqeval_strict(sentences, name, suffix=True)
    assert _read(sentences, name) == sorted(theirs, key=lambda c: (c[1], c[2]))
