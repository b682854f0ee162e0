"""Two ``.xmi`` files that the folder layout reads as the same document of the same annotator.
A folder is read as INCEpTION lays an export out, ``<document>/<annotator>.xmi``; the
REDEWIEDERGABE corpus (redewiedergabe/corpus) lays its primary annotations out the other way,
``<annotator>/xmi/<document>.xmi``, so two annotators' files of one text,
``jupiter/xmi/rwk1_digbib_1019-3.xmi`` and ``mars/xmi/rwk1_digbib_1019-3.xmi``, both became
document ``xmi`` of annotator ``rwk1_digbib_1019-3``, and the second silently replaced the
first: one annotator's 739 spans were dropped without a word. The XMI reader now refuses the
second file as the WebAnno TSV reader does, naming both files and the layout it reads; the
same export file twice (a nested zip and its unpacked copy) is still read once, the later copy
(golden case ``xmi-later-file-replaces-earlier``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.formats import load_files
from core.model.errors import FormatError

EXPORT = Path(__file__).resolve().parents[2] / "sample_data" / "formats" / "xmi_export"
XMI = (EXPORT / "speech1.xmi").read_bytes()
TS = (EXPORT / "TypeSystem.xml").read_bytes()


def test_a_second_file_of_one_document_and_annotator_is_refused_not_dropped() -> None:
    with pytest.raises(FormatError, match=(
            r"primary/mars/xmi/speech1\.xmi: a second file for document 'xmi' of annotator "
            r"'speech1' \(first: primary/jupiter/xmi/speech1\.xmi\); a folder is read as "
            r"<document>/<annotator>\.xmi \(INCEpTION's annotation/<document>/<user>\.xmi\): "
            r"read each file on its own or lay them out so")):
        load_files({"jupiter/xmi/speech1.xmi": XMI, "mars/xmi/speech1.xmi": XMI,
                    "TypeSystem.xml": TS}, name="primary")


def test_one_file_per_document_and_annotator_still_reads_every_annotator() -> None:
    loaded = load_files({"speech1/jupiter.xmi": XMI, "speech1/mars.xmi": XMI,
                         "TypeSystem.xml": TS}, name="primary")
    assert [(s.name, len(s.spans["speech1"])) for s in loaded.sets] == [("jupiter", 3),
                                                                          ("mars", 3)]
