"""Detection asks only the format modules that could recognise a file
(:data:`core.formats._sniff.MAY_SNIFF`), and answers as asking every module did.

Each built-in module's ``sniff`` is run on the repository's files (under several names) and on
generated heads: whenever it answers more than 0, its ``MAY_SNIFF`` test must hold, and
:func:`core.formats.detect` must pick the format that the best score of every module picks.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import FORMATS, detect
from core.formats._sniff import (
    CONLL_SUFFIXES,
    MAY_SNIFF,
    PARQUET_MAGIC,
    SPANS_CSV_COLUMNS,
    head_of,
)
from core.model.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = [ROOT / "tests" / "data", ROOT / "tests" / "formats", ROOT / "sample_data"]
NAMES = ("x.json", "x.jsonl", "x.tsv", "x.txt", "x.csv", "x.labels", "article1.txt", "x.ann",
         "annotation.conf", "x.xmi", "x.xml", "x.conll", "x.bio", "x.spacy", "x.parquet", "x")
BUILT_IN = {fmt: path for fmt, path in FORMATS.items() if path in MAY_SNIFF}


def _files() -> list[Path]:
    found = [p for folder in FOLDERS for p in sorted(folder.rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"]
    assert len(found) > 200  # the repository's inputs are there
    return found


def _every_score(name: str, head: str) -> dict[str, int]:
    return {fmt: int(importlib.import_module(path).sniff(name, head))
            for fmt, path in BUILT_IN.items()}


def _check(name: str, head: str) -> None:
    for fmt, score in _every_score(name, head).items():
        if score > 0:
            assert MAY_SNIFF[FORMATS[fmt]](name, head), (fmt, name, head[:200])


def test_every_built_in_format_has_a_test() -> None:
    assert set(BUILT_IN) == set(FORMATS) - {f for f, p in FORMATS.items()
                                            if not p.startswith("core.formats.")}
    assert len(BUILT_IN) == 16


def test_the_constants_are_the_modules() -> None:
    from core.formats import conll, parquet, spans_csv

    assert CONLL_SUFFIXES == conll.SUFFIXES
    assert SPANS_CSV_COLUMNS == spans_csv.REQUIRED
    assert PARQUET_MAGIC == parquet.MAGIC


def test_a_module_that_answers_has_its_test_true_on_the_repositorys_files() -> None:
    for path in _files():
        head = head_of(path.read_bytes())
        for name in (path.name, *NAMES):
            _check(name, head)


def _reference(files: dict[str, bytes]) -> str | None:
    """The format the best score of every module gives (None: none recognises the files)."""
    heads = [(fname, head_of(data)) for fname, data in files.items()]
    scores = {fmt: max(int(importlib.import_module(path).sniff(f, h)) for f, h in heads)
              for fmt, path in FORMATS.items()}
    best = max(scores, key=lambda f: scores[f])
    return best if scores[best] > 0 else None


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".tsv", ".txt", ".csv", ".conll"])
def test_detect_picks_what_every_module_picks(suffix: str) -> None:
    for path in _files():
        data = path.read_bytes()
        if data[:2] == b"PK":  # a zip is unpacked first
            continue
        files = {path.stem + suffix: data}
        expected = _reference(files)
        if expected is None:
            with pytest.raises(FormatError, match="could not detect the format"):
                detect(files)
        else:
            assert detect(files) == expected, path


PIECES = ["[", "{", "]", "}", "\t", ",", "\n", " ", "\r\n", ":", '"', "HS", "hs", "id", "text",
          "doc_id", "start", "end", "label", '"labels"', '"technique"', '"id"', '"text"',
          "#FORMAT=WebAnno TSV 3", "#FORMAT=WebAnno TSV 3.3", "#id=1", "#text=a b",
          " # de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity | value", "xmlns:xmi=",
          "<xmi:XMI", "<typeSystemDescription", "PAR1", "-DOCSTART-", "B-PER", "I-ORG", "O",
          "PER-B", "0", "1", "2", "42", "article1", '"prediction"', '"sentences_with_labels"',
          '"ents": [', '"spans": {', '"data": {}', '"annotations": []', '"predictions": []',
          '"entities": []', '"label": [[0, 2, "X"]]', '"labels": [[0, 2, "X"]]', "\ufeff",
          '{"id": 1, "text": "a b", "labels": [[0, 1, "X"]]}',
          '[{"id": "1", "text": "a", "labels": [{"technique": "T", "start": 0, "end": 1}]}]',
          '{"data": {"text": "a"}, "annotations": [{"result": []}]}']


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=14),
       name=st.sampled_from(NAMES))
def test_a_module_that_answers_has_its_test_true_on_generated_heads(pieces: list[str],
                                                                     name: str) -> None:
    _check(name, "".join(pieces))
