"""A warning about a span's edges quotes the span's text: the REDEWIEDERGABE corpus
(redewiedergabe/corpus, UIMA XMI) has TEI annotations (``TEI``, ``text``, ``body``) over whole
samples, so ``validate`` printed warnings of 3,600 characters, the whole text between quotes,
burying every other line. A fragment longer than 80 characters is now shown by its two ends
and its length (:func:`core.model.textsafe.fragment_repr`), in every reader's wording."""

from __future__ import annotations

import json

from core.formats import load_files
from core.model.textsafe import fragment_repr

TEXT = " " + "Es war eine herrliche Mondnacht. " * 30 + "\n"


def _whitespace(loaded) -> list[str]:  # type: ignore[no-untyped-def]
    return [d.message for d in loaded.diagnostics if "in whitespace" in d.message]


def test_a_long_fragment_is_shown_by_its_ends_and_length() -> None:
    shown = fragment_repr(TEXT)
    assert shown == (repr(TEXT[:40]) + " … " + repr(TEXT[-40:]) + f" ({len(TEXT)} characters)")
    assert len(shown) < 120 and fragment_repr("ab ") == "'ab '"


def test_brat_and_xmi_style_readers_quote_a_long_span_briefly() -> None:
    ann = f"T1\tBody 0 {len(TEXT)}\tx\n".encode()
    loaded = load_files({"d.ann": ann, "d.txt": TEXT.encode()}, name="c")
    [message] = _whitespace(loaded)
    assert message == (f"the span [0, {len(TEXT)}) begins or ends in whitespace: "
                       f"{fragment_repr(TEXT)}")
    doccano = json.dumps({"text": TEXT, "label": [[0, len(TEXT), "Body"]]}).encode()
    [message] = _whitespace(load_files({"d.jsonl": doccano}, fmt="doccano", name="d.jsonl"))
    assert message.endswith(f"begins and ends in whitespace: {fragment_repr(TEXT)}")


def test_the_columnar_readers_quote_a_long_span_briefly() -> None:
    semeval = json.dumps([{"id": "1", "text": TEXT, "labels": [
        {"technique": "Smears", "start": 0, "end": len(TEXT)}]}]).encode()
    [message] = _whitespace(load_files({"g.json": semeval}, fmt="semeval2021", name="g.json"))
    assert message.endswith(f"begins and ends in whitespace: {fragment_repr(TEXT)}")
