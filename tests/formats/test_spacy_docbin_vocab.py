"""A DocBin is read into a bare ``Vocab``, not a blank pipeline's (wild13 tour).

Timing the wild13 tour's reads, pavanprak/FYP's ``training_data.spacy`` (4 KB, 100 one-word
documents) took 0.3-0.6 s on a loaded machine and ProjectBEAMI's ``dev.spacy`` (40 KB) 1.0 s:
nearly all of it ``spacy.blank("xx")``, which builds a tokenizer and its special cases only to
hand its ``Vocab`` to ``DocBin.get_docs``. The documents need only the strings the DocBin
carries; a ``Vocab()`` takes microseconds. The read is the same: texts, ids and spans.
Our own documents, built with spaCy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.formats import load_path


def _docbin(path: Path) -> Path:
    import spacy  # optional for users, in requirements-dev.txt for the tests
    from spacy.tokens import Doc, DocBin, Span

    nlp = spacy.blank("en")
    docs = []
    for words, ents in ((["Paracetamol", "eases", "fever", "."], [(0, 1, "MEDICINE"),
                                                                   (2, 3, "DISEASE")]),
                        (["Aspirin"], [(0, 1, "MEDICINE")]), (["Ça", "va", "?"], [])):
        doc = Doc(nlp.vocab, words=words)
        doc.ents = [Span(doc, s, e, label) for s, e, label in ents]
        docs.append(doc)
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def test_a_docbin_is_read_without_building_a_pipeline(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import spacy

    src = _docbin(tmp_path / "training_data.spacy")

    def no_pipeline(*args: object, **kwargs: object) -> None:
        raise AssertionError("spacy.blank called to read a DocBin")

    monkeypatch.setattr(spacy, "blank", no_pipeline)
    loaded = load_path(src, fmt="spacy")
    texts = [loaded.texts[d] for d in sorted(loaded.texts)]
    assert texts == ["Paracetamol eases fever . ", "Aspirin ", "Ça va ? "]  # spaces=True
    spans = sorted((d, s.start, s.end, s.label) for d, ss in loaded.sets[0].spans.items()
                   for s in ss)
    ids = sorted(loaded.texts)
    assert spans == [(ids[0], 0, 11, "MEDICINE"), (ids[0], 18, 23, "DISEASE"),
                     (ids[1], 0, 7, "MEDICINE")]


def test_document_ids_are_read_without_srsly_s_decoder_registry_per_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # menon92/BanglaNER's val.spacy (999 documents, ids in user data) took 0.46 s of CPU, two
    # thirds of it srsly.msgpack_loads asking its decoder registry (the installed packages'
    # entry points) once per document for each document's user data
    import spacy
    from spacy.tokens import Doc, DocBin, Span
    from srsly.msgpack import msgpack_decoders

    nlp = spacy.blank("en")
    docs = []
    for i in range(40):
        doc = Doc(nlp.vocab, words=["Dhaka", "city"], spaces=[True, False])
        doc.ents = [Span(doc, 0, 1, "LOC")]
        doc.user_data["id"] = f"bn-{i}"
        docs.append(doc)
    src = tmp_path / "val.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(src)
    calls = []
    real = msgpack_decoders.get_all

    def counted() -> object:
        calls.append(1)
        return real()

    monkeypatch.setattr(msgpack_decoders, "get_all", counted)
    loaded = load_path(src, fmt="spacy")
    assert sorted(loaded.texts) == sorted(f"bn-{i}" for i in range(40))
    assert loaded.sets[0].span_count() == 40
    assert len(calls) <= 1
