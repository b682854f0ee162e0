"""A reader reads its ``options`` argument and nothing else (issue 25, §3).

A reader called directly, ``module(fmt).read(files, name=..., options=ReadOptions(...))``, keeps
or refuses what :func:`core.formats.load_files` keeps or refuses with the same options: the
policy for spans past the text (:mod:`core.model.bounds`) is ``ReadOptions.beyond_text``, and the
options of the annotation-tool formats (``--layer`` ... ``--text-column``, ``--labels``'s label
ids) are fields that the command line fills in, never defaults taken from the caller's context.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from core.formats import ReadOptions, load_files, module, write_files
from core.formats.parquet import write_tables
from core.model import AnnotationSet, Span
from core.model.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
XMI = ROOT / "tests" / "data" / "formats" / "inception" / "xmi_relation"

TEXTS = {"1": "hello world", "2": "short"}
GOLD = AnnotationSet("gold", {"1": (Span(0, 5, "Doubt"), Span(6, 15, "Doubt")),
                              "2": (Span(0, 5, "Doubt"),)}, "gold")
"""One span of document 1 ends past its text (11 characters)."""


def _written(fmt: str) -> dict[str, bytes]:
    files = write_files(fmt, TEXTS, [GOLD])
    return {k: v.encode() if isinstance(v, str) else v for k, v in files.items()}


def _label_studio() -> dict[str, bytes]:
    tasks = [{"id": 1, "data": {"text": TEXTS["1"]}, "annotations": [{"result": [
        {"type": "labels", "from_name": "label", "to_name": "text",
         "value": {"start": 6, "end": 15, "labels": ["Doubt"]}}]}]}]
    return {"tasks.json": json.dumps(tasks).encode()}


def _xmi() -> dict[str, bytes]:
    xmi = (XMI / "crossing.xmi").read_text(encoding="utf-8")
    past = xmi.replace('begin="25" end="30" value="island"', 'begin="25" end="60" value="island"')
    assert past != xmi
    return {"crossing.xmi": past.encode(), "TypeSystem.xml": (XMI / "TypeSystem.xml").read_bytes()}


INPUTS: dict[str, tuple[str, dict[str, bytes], ReadOptions]] = {
    "semeval2021": ("semeval2021", _written("semeval2021"), ReadOptions()),
    "ptc": ("ptc", _written("ptc"), ReadOptions()),
    "brat": ("brat", _written("brat"), ReadOptions()),
    "doccano": ("doccano", _written("doccano"), ReadOptions()),
    "spacy": ("spacy", _written("spacy"), ReadOptions()),
    "spans-csv": ("spans-csv", _written("spans-csv"), ReadOptions(gold_texts=TEXTS)),
    "parquet": ("parquet", write_tables(TEXTS, [GOLD], "gold"), ReadOptions()),
    "label-studio": ("label-studio", _label_studio(), ReadOptions()),
    "uima-xmi": ("uima-xmi", _xmi(), ReadOptions(layer="Place")),
}


def _spans(sets: list[AnnotationSet]) -> list[tuple[str, str, tuple[Span, ...]]]:
    return sorted((s.name, d, tuple(v)) for s in sets for d, v in s.spans.items())


def _read(fmt: str, files: Mapping[str, bytes], options: ReadOptions) -> list[AnnotationSet]:
    return module(fmt).read(dict(files), name="in", options=options).sets


@pytest.mark.parametrize("case", sorted(INPUTS))
def test_a_reader_called_directly_follows_the_policy_of_its_options(case: str) -> None:
    fmt, files, base = INPUTS[case]
    official = dataclasses.replace(base, beyond_text="official")
    kept = load_files(files, fmt=fmt, name="in", options=official).sets
    assert any(s.end > 11 for _, d, spans in _spans(kept) if d in ("1", "crossing")
               for s in spans)
    assert _spans(_read(fmt, files, official)) == _spans(kept)
    _read(fmt, files, dataclasses.replace(base, beyond_text="clip"))  # not refused either
    with pytest.raises(FormatError, match="expected an offset within the text"):
        _read(fmt, files, base)
    with pytest.raises(FormatError, match="expected an offset within the text"):
        load_files(files, fmt=fmt, name="in", options=base)


def test_semeval2021_read_keeps_what_load_files_keeps_the_issue_example() -> None:
    from core.formats import semeval2021

    files = _written("semeval2021")
    options = ReadOptions(beyond_text="official")
    read = semeval2021.read(files, name="in", options=options)
    assert _spans(read.sets) == _spans(load_files(files, name="in", options=options).sets)
    with pytest.raises(FormatError, match="please report"):  # explains refusals only
        semeval2021.explain(files, name="in", options=options)


def test_mafalda_keeps_zero_length_spans_under_official_when_called_directly() -> None:
    line = {"id": "1", "text": "hello world",
            "labels": [[3, 3, "ad hominem"], [0, 5, "ad hominem"]]}
    files = {"annotations.jsonl": (json.dumps(line) + "\n").encode()}
    options = ReadOptions(role="system", beyond_text="official")
    direct = module("mafalda").read(files, name="in", options=options)
    loaded = load_files(files, fmt="mafalda", name="in", options=options)
    assert direct.records == loaded.records  # the zero-length span, kept for scoring
    assert [str(d) for d in direct.diagnostics] == [str(d) for d in loaded.diagnostics]
    assert any("zero-length span [3, 3)" in str(d) for d in direct.diagnostics)
    assert _spans(direct.sets) == _spans(loaded.sets)


def test_read_options_have_plain_defaults() -> None:
    """Every field's default is a value, not a function of the caller's context: two
    ``ReadOptions()`` are equal wherever they are built."""
    for f in dataclasses.fields(ReadOptions):
        assert f.default_factory is dataclasses.MISSING, f.name  # type: ignore[misc]
    options = ReadOptions()
    assert (options.layer, options.feature, options.span_group, options.scheme,
            options.text_column, options.label_ids) == (None,) * 6


DOCCANO = ROOT / "tests" / "data" / "formats" / "doccano"


def test_the_command_line_builds_complete_reader_options() -> None:
    from core.cli import build_parser
    from core.cli.common import read_options, tool_options

    args = build_parser().parse_args(
        ["score", "g.json", "p.json", "--metric", "martino", "--layer", "NamedEntity",
         "--feature", "value", "--span-group", "ents", "--scheme", "IOB2", "--text-column", "2",
         "--labels", str(DOCCANO / "label_config.json")])
    tools = tool_options(args)
    assert (tools.layer, tools.feature, tools.span_group, tools.scheme, tools.text_column,
            tools.label_ids) == ("NamedEntity", "value", "ents", "IOB2", 2, None)
    options = read_options(args, role="system", beyond_text="clip")
    assert options == dataclasses.replace(
        tools, role="system", beyond_text="clip",
        label_ids={4: "Person", 5: "Place", 6: "Organisation", 7: "Date"})
    assert read_options(build_parser().parse_args(["validate", "f.json"])) == ReadOptions()


def test_a_shard_job_carries_the_reader_options_to_its_worker() -> None:
    from core.engines.sharded import ScoreJob, score_shard
    from core.formats.tools import read_label_file

    path = str(DOCCANO / "v1.0_annotations_one_user.jsonl")
    ids = read_label_file(DOCCANO / "label_config.json").ids
    bare = score_shard(ScoreJob(metric="martino", gold=path, pred=path))
    named = score_shard(ScoreJob(metric="martino", gold=path, pred=path,
                                 options=ReadOptions(label_ids=ids)))
    assert bare.error is None and bare.used_labels == ["4", "5", "6", "7"]
    assert named.error is None and named.used_labels == ["Date", "Organisation", "Person",
                                                         "Place"]


def test_validate_and_convert_take_the_reader_options(tmp_path: Path) -> None:
    from core.formats.tools import convert, validate

    export = ROOT / "sample_data" / "formats" / "xmi_export"
    default = validate(export)
    named = validate(export, options=ReadOptions(layer="NamedEntity"))
    assert default["valid"] and named["valid"]
    assert [set(s["labels"]) for s in named["sets"].values()] == [{"ORG"}]
    assert named["sets"] != default["sets"]
    convert(export, tmp_path / "ne.csv", to="spans-csv", options=ReadOptions(layer="NamedEntity"))
    assert "ORG" in (tmp_path / "ne.csv").read_text(encoding="utf-8")
