"""The SemEval-2021 writer (``core.formats.semeval2021.write``) writes the bytes of
``json.dumps(documents, ensure_ascii=False, indent=2)``, piece by piece (docs/performance.md,
issue 29, tenth pass): compared here with the standard library on generated documents, texts
and labels that need escaping (quotes, backslashes, control characters, line separators, lone
surrogates, emoji), documents without spans and without text, and an empty set."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import semeval2021
from core.model import AnnotationSet, Span

HOSTILE = '"\\/\x00\x1f\x7f\u2028\u2029\ud800\udfff😀é\t\r\n<script>'


def _reference(texts: dict[str, str | None], aset: AnnotationSet) -> str:
    """The writer as it was: a structure and ``json.dumps(..., indent=2)``."""
    out: list[dict[str, object]] = []
    for doc_id in aset.spans:
        text = texts.get(doc_id)
        labels: list[dict[str, object]] = []
        for span in aset.get(doc_id):
            item: dict[str, object] = {"start": span.start, "end": span.end,
                                       "technique": span.label}
            if text is not None:
                item["text_fragment"] = text[span.start : span.end]
            labels.append(item)
        entry: dict[str, object] = {"id": doc_id}
        if text is not None:
            entry["text"] = text
        entry["labels"] = labels
        out.append(entry)
    return json.dumps(out, ensure_ascii=False, indent=2) + "\n"


def _written(texts: dict[str, str | None], aset: AnnotationSet) -> str:
    (content,) = semeval2021.write(texts, [aset]).values()
    return content


def test_hand_picked_documents_are_written_as_json_dumps_writes_them() -> None:
    texts: dict[str, str | None] = {"a": HOSTILE * 2, "b": None, HOSTILE: "plain text",
                                    "empty": "no spans here"}
    spans = {"a": (Span(0, 5, HOSTILE), Span(3, 30, "Doubt"), Span(3, 30, "Loaded")),
             "b": (Span(1, 4, "x"),), HOSTILE: (Span(0, 5, "é"),), "empty": ()}
    aset = AnnotationSet("consensus", spans, "gold")
    assert _written(texts, aset) == _reference(texts, aset)
    assert _written({}, AnnotationSet("none", {}, "gold")) == "[]\n"
    json.loads(_written(texts, aset))  # and it reads back


characters = st.text(alphabet=st.characters(codec=None, min_codepoint=0,
                                            max_codepoint=0x1F64F), max_size=40)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(characters, st.one_of(st.none(), characters),
                          st.lists(st.tuples(st.integers(0, 50), st.integers(1, 20), characters),
                                   max_size=4)),
                max_size=5, unique_by=lambda d: d[0]))
def test_generated_documents_are_written_as_json_dumps_writes_them(docs) -> None:
    texts: dict[str, str | None] = {}
    spans: dict[str, tuple[Span, ...]] = {}
    for doc_id, text, items in docs:
        texts[doc_id] = text
        spans[doc_id] = tuple(sorted({Span(s, s + n, lab) for s, n, lab in items}))
    aset = AnnotationSet("s", spans, "gold")
    assert _written(texts, aset) == _reference(texts, aset)
