"""Writers and readers are inverse: write, read back, and get the same spans and texts."""

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.cli import main
from core.formats import ReadOptions, brat, doccano, load_files, ptc, semeval2021, spans_csv
from core.model import AnnotationSet, Role, Span

Writer = Callable[[Mapping[str, str | None], Sequence[AnnotationSet]], dict[str, str]]

# Labels as people write them: words, spaces, punctuation and non-ASCII letters.
LABEL = st.text(
    alphabet=st.sampled_from([*list("abcXYZ é/-()'"), "ü", "ç"]), min_size=1, max_size=12
).map(str.strip).filter(bool)
# Texts include newlines, tabs and characters that str.splitlines() would break on.
TEXT = st.text(
    alphabet=st.sampled_from([*list("ab c.\n\t"), "\u2028", "\x85", "é", "😀", "\r"]),
    min_size=1, max_size=40,
)


@st.composite
def corpora(draw: st.DrawFn, numeric_ids: bool = False, with_texts: bool = True,
            ) -> tuple[dict[str, str | None], AnnotationSet]:
    n = draw(st.integers(0, 4))
    ids = (draw(st.lists(st.integers(0, 999).map(str), min_size=n, max_size=n, unique=True))
           if numeric_ids else
           draw(st.lists(st.from_regex(r"[a-z0-9_]{1,6}", fullmatch=True), min_size=n,
                         max_size=n, unique=True)))
    texts: dict[str, str | None] = {}
    spans: dict[str, tuple[Span, ...]] = {}
    for doc in ids:
        text = draw(TEXT) if with_texts and draw(st.booleans()) else None
        length = len(text) if text is not None else 60
        k = draw(st.integers(0, 4))
        doc_spans = []
        for _ in range(k):
            start = draw(st.integers(0, length - 1))
            end = draw(st.integers(start + 1, length))
            doc_spans.append(Span(start, end, draw(LABEL)))
        texts[doc] = text
        spans[doc] = tuple(sorted(doc_spans))
    return texts, AnnotationSet("runs", spans, "system")


def _read(files: dict[str, str], fmt: str, name: str = "runs", role: Role = "system",
          **options: Any) -> tuple[dict[str, str | None], list[AnnotationSet]]:
    data = {k: v.encode("utf-8") for k, v in files.items()}
    loaded = load_files(data, fmt=fmt, name=name, options=ReadOptions(role=role, **options))
    return loaded.texts, loaded.sets


def _check(writer: Writer, fmt: str, texts: dict[str, str | None], aset: AnnotationSet,
           keep_texts: bool = True, **options: Any) -> None:
    files = writer(texts, [aset])
    got_texts, sets = _read(files, fmt, **options)
    assert len(sets) == 1
    assert dict(sets[0].spans) == dict(aset.spans)
    if keep_texts:
        assert got_texts == texts


@settings(deadline=None, max_examples=60)
@given(corpora())
def test_semeval2021_roundtrip_keeps_spans_and_texts(
    corpus: tuple[dict[str, str | None], AnnotationSet],
) -> None:
    _check(semeval2021.write, "semeval2021", *corpus)


@settings(deadline=None, max_examples=60)
@given(corpora(numeric_ids=True))
def test_ptc_folder_roundtrip_keeps_spans_texts_and_empty_articles(
    corpus: tuple[dict[str, str | None], AnnotationSet],
) -> None:
    texts, aset = corpus
    if not aset.spans:
        return  # an empty folder is not an input
    # the texts as written: by default a PTC reader counts a CR LF or a lone CR as one
    # character, as the task's offsets do (--line-breaks universal)
    _check(ptc.write, "ptc", texts, aset, line_breaks="as-stored")
    if not any("\r" in (t or "") for t in texts.values()):
        _check(ptc.write, "ptc", texts, aset)


@settings(deadline=None, max_examples=40)
@given(corpora(numeric_ids=True, with_texts=False))
def test_ptc_tsv_roundtrip_keeps_the_spans_of_annotated_articles(
    corpus: tuple[dict[str, str | None], AnnotationSet],
) -> None:
    texts, aset = corpus
    (content,) = ptc.write_tsv(texts, [aset]).values()
    _, sets = _read({"runs.tsv": content}, "ptc")
    assert dict(sets[0].spans) == {d: s for d, s in aset.spans.items() if s}


@settings(deadline=None, max_examples=60)
@given(corpora())
def test_brat_roundtrip_keeps_spans_and_texts(
    corpus: tuple[dict[str, str | None], AnnotationSet],
) -> None:
    texts, aset = corpus
    assume(aset.spans)
    _check(brat.write, "brat", texts, aset)


@settings(deadline=None, max_examples=60)
@given(corpora(numeric_ids=True))
def test_doccano_roundtrip_keeps_spans_and_texts(
    corpus: tuple[dict[str, str | None], AnnotationSet],
) -> None:
    texts, aset = corpus
    assume(aset.spans)  # an empty JSONL file holds no document
    _check(doccano.write, "doccano", texts, aset)


@settings(deadline=None, max_examples=60)
@given(corpora(with_texts=False), st.sampled_from(["csv", "jsonl"]))
def test_spans_csv_roundtrip_keeps_spans_and_empty_documents(
    corpus: tuple[dict[str, str | None], AnnotationSet], flavour: str,
) -> None:
    texts, aset = corpus
    writer = spans_csv.write if flavour == "csv" else spans_csv.write_jsonl
    assume(aset.spans or flavour == "csv")  # an empty JSONL file holds no document
    (content,) = writer(texts, [aset]).values()
    _, sets = _read({f"runs.{flavour}": content}, "spans-csv")
    assert dict(sets[0].spans) == dict(aset.spans)


@settings(deadline=None, max_examples=30)
@given(st.lists(corpora(with_texts=False), min_size=2, max_size=3))
def test_spans_csv_roundtrip_keeps_one_set_per_annotator(
    corpora_: list[tuple[dict[str, str | None], AnnotationSet]],
) -> None:
    sets = [AnnotationSet(f"ann{i}", c[1].spans, "annotator") for i, c in enumerate(corpora_)]
    sets = [s for s in sets if s.spans]
    assume(sets)
    (content,) = spans_csv.write({}, sets).values()
    _, got = _read({"runs.csv": content}, "spans-csv")
    assert [(s.name, s.role, dict(s.spans)) for s in got] == [
        (s.name, "annotator", dict(s.spans)) for s in sets]


def test_a_ptc_folder_of_texts_with_carriage_returns_is_noted_and_reads_back_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A text with CR LF written to a PTC folder: convert says how to read it back, and read
    with --line-breaks as-stored its spans are where they were (by default a CR LF is one
    character, as the task's offsets count it)."""
    src = tmp_path / "crlf.json"
    src.write_text('[{"id": "1", "text": "a\\r\\nbig dog", "labels": [{"start": 3, "end": 6, '
                   '"technique": "X", "text_fragment": "big"}]}]', encoding="utf-8")
    assert main(["convert", str(src), str(tmp_path / "ptc"), "--to", "ptc"]) == 0
    assert "1 texts hold carriage returns" in capsys.readouterr().err
    files = {p.name: p.read_bytes() for p in (tmp_path / "ptc").iterdir()}
    loaded = load_files(files, fmt="ptc", name="ptc", options=ReadOptions(line_breaks="as-stored"))
    (aset,) = loaded.sets
    assert [(s.start, s.end) for s in aset.get("1")] == [(3, 6)]
