"""A brat collection whose tool keeps a ``<document>.ann.labels`` file beside each ``.ann``
(mmxgn/aesop-brat-annotation-data@615f6f3: one folder per annotator assignment, each document
with ``.ann``, ``.txt``, ``.ann.labels`` holding one ``0`` per line, ``.ann.pl``, ``.txt.lem``)
was detected as PTC, because of the ``.labels`` files alone, and refused ("found 324 .labels
files of which 324 name no article"). A ``.labels`` file is PTC's when its name holds an article
id, it is empty (an article without propaganda) or its rows are PTC rows; else it is someone
else's sidecar and the ``.ann`` files decide. The files below have that shape; the words are
ours."""

from __future__ import annotations

import pytest

from core.formats import ReadOptions, detect, load_files
from core.model.errors import FormatError

TEXT = "The lion slept in the forest.\n"
ANN = "T1\tCharacter 4 8\tlion\nA1\tGender T1 Male\nT2\tPlace 22 28\tforest\n"


def collection() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for folder, doc in (("au1", "the_lion"), ("au2", "the_fox")):
        files[f"{folder}/{doc}.txt"] = TEXT.encode()
        files[f"{folder}/{doc}.ann"] = ANN.encode()
        files[f"{folder}/{doc}.ann.labels"] = b"0\n0\n0\n"
        files[f"{folder}/{doc}.txt.lem"] = b"the lion sleep in the forest .\n"
    return files


def test_a_brat_folder_with_ann_labels_sidecars_is_detected_as_brat() -> None:
    assert detect(collection()) == "brat"


def test_a_brat_folder_with_ann_labels_sidecars_is_read_with_them_ignored() -> None:
    loaded = load_files(collection(), name="aesop", options=ReadOptions())
    assert loaded.format == "brat"
    (only,) = loaded.sets
    assert {doc: [(s.start, s.end, s.label) for s in spans]
            for doc, spans in only.spans.items()} == {
        "au1/the_lion": [(4, 8, "Character"), (22, 28, "Place")],
        "au2/the_fox": [(4, 8, "Character"), (22, 28, "Place")]}
    ignored = [d.message for d in loaded.diagnostics if d.kind == "ignored"]
    assert any("au1/the_lion.ann.labels: not a brat .ann, .txt or .conf file" in m
               for m in ignored)


@pytest.mark.parametrize("name, content", [
    ("article111111114.task1-SI.labels", b"other\trows\n"),  # an article id: the row is named
    ("dev-task-TC.labels", b""),                               # empty: an article without spans
    ("dev-task-SI.labels", b"730093263\t123\t128\n"),           # PTC rows
])
def test_ptc_labels_files_are_still_detected_as_ptc(name: str, content: bytes) -> None:
    assert detect({name: content}) == "ptc"


def test_a_folder_of_sidecar_labels_alone_is_still_refused_by_the_ptc_reader() -> None:
    with pytest.raises(FormatError, match="name no article"):
        load_files({"a/x.ann.labels": b"0\n", "a/y.ann.labels": b"0\n"}, name="a",
                   options=ReadOptions())
