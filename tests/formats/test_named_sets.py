"""``Loaded.named_sets``: the sets an input names itself (annotators, doccano users, models, an
INCEpTION curation) keep their names and roles whatever role the caller asks for; a set named
after the input takes the caller's role. The Data page reads every set "as read" from it.

Every input is our own invented text in each tool's layout.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.formats import ReadOptions, load_files, parquet, read_folder
from core.formats.spans_csv import explain
from core.model import AnnotationSet, Span
from core.model.errors import FormatError

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
TSV_HEAD = ("#FORMAT=WebAnno TSV 3.3\n"
            "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n")


def _tsv(*tokens: tuple[str, str]) -> bytes:
    text = " ".join(t for t, _ in tokens)
    lines, at = [], 0
    for i, (token, label) in enumerate(tokens, 1):
        lines.append(f"1-{i}\t{at}-{at + len(token)}\t{token}\t{label}")
        at += len(token) + 1
    return (TSV_HEAD + f"#Text={text}\n" + "\n".join(lines) + "\n").encode()


def _roles(sets: list[AnnotationSet]) -> dict[str, str]:
    return {s.name: s.role for s in sets}


@pytest.mark.parametrize("role", ["gold", "system", "annotator"])
def test_label_studio_annotators_and_models_are_named_whatever_the_role(role) -> None:
    result = [{"from_name": "label", "to_name": "text", "type": "labels",
               "value": {"start": 0, "end": 5, "labels": ["PLACE"]}}]
    task = {"id": 7, "data": {"text": "Leeds is rainy."},
            "annotations": [{"completed_by": 3, "result": result}],
            "predictions": [{"model_version": "tagger-2", "result": result}]}
    loaded = load_files({"export.json": json.dumps([task]).encode()},
                        options=ReadOptions(role=role))
    assert loaded.format == "label-studio"
    assert loaded.named_sets == {s.name for s in loaded.sets}
    assert sorted(_roles(loaded.sets).values()) == ["annotator", "system"]


def test_doccano_users_are_named_and_one_user_is_the_file() -> None:
    two = load_files({"v1.jsonl": (DATA / "doccano" / "v1.0_annotations.jsonl").read_bytes()},
                     options=ReadOptions(role="system"))
    assert two.named_sets == {"user 1", "user 2"}
    assert set(_roles(two.sets).values()) == {"annotator"}
    one = load_files({"v1.jsonl": (DATA / "doccano" / "v1.0_annotations_one_user.jsonl")
                      .read_bytes()}, options=ReadOptions(role="system"))
    assert one.named_sets == set()
    assert _roles(one.sets) == {"v1": "system"}


def test_inception_export_names_its_annotators_and_its_curation() -> None:
    doc = _tsv(("Anna", "PER"), ("sails", "_"))
    export = {"annotation/d1.txt/maria.tsv": doc, "annotation/d1.txt/tomas.tsv": doc,
              "curation/d1.txt/CURATION_USER.tsv": _tsv(("Anna", "_"), ("sails", "_"))}
    loaded = load_files(export, name="export.zip", options=ReadOptions(role="annotator"))
    assert loaded.named_sets == {"maria", "tomas", "curation"}
    assert _roles(loaded.sets) == {"maria": "annotator", "tomas": "annotator",
                                   "curation": "gold"}
    lone = load_files({"d1.tsv": doc}, options=ReadOptions(role="system"))
    assert lone.named_sets == set() and _roles(lone.sets) == {"d1": "system"}


def test_an_export_holding_only_its_curation_keeps_the_set_curation() -> None:
    # INCEpTION's "curated" project exports can hold no annotator TSV at all
    export = {"curation/d1.txt/CURATION_USER.tsv": _tsv(("Anna", "PER"), ("sails", "_")),
              "source/d1.txt": b"Anna sails"}
    loaded = load_files(export, name="Curated+project.zip",
                        options=ReadOptions(role="annotator"))
    assert loaded.named_sets == {"curation"}
    assert _roles(loaded.sets) == {"curation": "gold"}


def test_xmi_export_names_its_annotator_and_a_lone_xmi_does_not() -> None:
    nested = DATA / "inception" / "xmi_nested"
    loaded = load_files(read_folder(nested), name="xmi_nested")
    assert loaded.named_sets == {s.name for s in loaded.sets} == {"waiting"}
    plain = DATA / "inception" / "xmi_plain"
    assert load_files(read_folder(plain), name="xmi_plain").named_sets == set()


CSV = b"doc_id,start,end,label,annotator\nd1,0,4,PER,ines\nd1,0,9,PER,omar\n"


def test_spans_csv_annotator_column_names_its_sets() -> None:
    files = {"spans.csv": CSV}
    options = ReadOptions(role="gold")
    loaded = load_files(files, options=options)
    assert loaded.named_sets == {"ines", "omar"}
    plain = {"spans.csv": b"doc_id,start,end,label\nd1,0,4,PER\n"}
    assert load_files(plain, options=options).named_sets == set()
    with pytest.raises(FormatError, match="please report"):  # explains refusals, reads nothing
        explain(files, name="spans.csv", options=options)


def test_spans_jsonl_annotator_field_names_its_sets() -> None:
    rows = [{"doc_id": "d1", "start": 0, "end": 4, "label": "PER", "annotator": "ines"},
            {"doc_id": "d1", "start": 0, "end": 9, "label": "PER", "annotator": "omar"}]
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    loaded = load_files({"spans.jsonl": data}, fmt="spans-csv")
    assert loaded.named_sets == {"ines", "omar"}


def test_prodigy_annotators_are_named() -> None:
    tasks = [{"text": "Oslo hums", "spans": [{"start": 0, "end": 4, "label": "LOC"}],
              "meta": {"id": "a"}, "answer": "accept", "_annotator_id": who}
             for who in ("db-ines", "db-omar")]
    loaded = load_files({"db-out.jsonl": "".join(json.dumps(t) + "\n" for t in tasks)
                         .encode()}, options=ReadOptions(role="system"))
    assert loaded.named_sets == {"db-ines", "db-omar"}


def test_parquet_with_a_set_column_names_its_sets() -> None:
    sets = [AnnotationSet("ines", {"d1": (Span(0, 4, "PER"),)}, "annotator"),
            AnnotationSet("omar", {"d1": (Span(0, 9, "PER"),)}, "gold")]
    loaded = load_files(parquet.write_tables({"d1": "Anna sails"}, sets, "x"), fmt="parquet",
                        name="x.parquet", options=ReadOptions(role="system"))
    assert loaded.named_sets == {"ines", "omar"}
    assert _roles(loaded.sets) == {"ines": "annotator", "omar": "gold"}
