"""Where a UIMA XMI corpus keeps its type system. INCEpTION writes ``TypeSystem.xml`` beside each
``.xmi``; DKPro corpora published by others keep it elsewhere. The REDEWIEDERGABE corpus
(redewiedergabe/corpus, DKPro/ATHEN XMI) keeps two in a ``resources/`` folder beside the
``.xmi`` files (``data/main/xmi/resources/rwTypesystem.xml`` and the wider
``rwTypesystem_stwrview.xml``), and its primary annotations one folder up
(``data/additional/primary/resources_xmi/``). Both layouts were refused ("no type system"),
though the type system was in the input. A type system found away from the ``.xmi`` is now
used and named in a warning; of several, the one that declares every type and feature of the
others (the minimal REDEWIEDERGABE one lacks a feature its own files use); when none does, the
error names them all. The file read is the project's own sample export
(``sample_data/formats/xmi_export``), laid out as those corpora are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.formats import load_files, load_path
from core.model.errors import FormatError

EXPORT = Path(__file__).resolve().parents[2] / "sample_data" / "formats" / "xmi_export"
XMI = (EXPORT / "speech1.xmi").read_bytes()
FULL = (EXPORT / "TypeSystem.xml").read_bytes()
# The same type system without the custom layer: the sample's Technique annotations need it.
NAMED_ENTITY_ONLY = re.sub(rb"<typeDescription><name>webanno\.custom\.Technique.*?"
                           rb"</typeDescription>", b"", FULL)
TECHNIQUE_ONLY = re.sub(rb"<typeDescription><name>de\.tudarmstadt.*?</typeDescription>", b"",
                        FULL)
EXPECTED = [("a fool", "Name calling"), ("They always lie", "Doubt"),
            ("everyone knows it", "Bandwagon")]


def _spans(loaded) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    text = loaded.texts["speech1"]
    return [(text[s.start:s.end], s.label) for s in loaded.sets[0].spans["speech1"]]


def test_a_type_system_in_a_resources_folder_beside_the_xmi_is_read() -> None:
    assert NAMED_ENTITY_ONLY != FULL and TECHNIQUE_ONLY != FULL
    loaded = load_files({"speech1.xmi": XMI, "resources/rwTypesystem.xml": FULL}, name="xmi")
    assert _spans(loaded) == EXPECTED
    notes = [d.message for d in loaded.diagnostics if "type system" in d.message]
    assert notes == ["type system read from resources/rwTypesystem.xml (none beside the .xmi "
                     "files)"]


def test_of_two_type_systems_the_one_declaring_the_others_is_used() -> None:
    # REDEWIEDERGABE: rwTypesystem.xml (minimal) and rwTypesystem_stwrview.xml (its superset)
    loaded = load_files({"speech1.xmi": XMI,
                         "resources_xmi/rwTypesystem.xml": NAMED_ENTITY_ONLY,
                         "resources_xmi/rwTypesystem_stwrview.xml": FULL}, name="primary")
    assert _spans(loaded) == EXPECTED
    assert any("type system read from resources_xmi/rwTypesystem_stwrview.xml (none beside "
               "the .xmi files; it declares every type and feature of the other, "
               "resources_xmi/rwTypesystem.xml)" in d.message for d in loaded.diagnostics)


def test_two_type_systems_neither_wider_are_named_in_the_error() -> None:
    with pytest.raises(FormatError, match=r"primary/speech1\.xmi: no type system beside "
                       r"the \.xmi file, and 2 elsewhere in the input, none declaring every "
                       r"type of the others: resources/a\.xml, resources/b\.xml; put the one "
                       r"that belongs to the \.xmi files beside them as TypeSystem\.xml"):
        load_files({"speech1.xmi": XMI, "resources/a.xml": NAMED_ENTITY_ONLY,
                    "resources/b.xml": TECHNIQUE_ONLY}, name="primary")


def test_a_single_xmi_file_finds_the_type_system_of_its_corpus_folders(tmp_path: Path) -> None:
    # data/main/xmi/X.xmi with data/main/xmi/resources/*.xml
    main = tmp_path / "main" / "xmi"
    (main / "resources").mkdir(parents=True)
    (main / "speech1.xmi").write_bytes(XMI)
    (main / "resources" / "rwTypesystem.xml").write_bytes(NAMED_ENTITY_ONLY)
    (main / "resources" / "rwTypesystem_stwrview.xml").write_bytes(FULL)
    assert _spans(load_path(main / "speech1.xmi")) == EXPECTED
    # data/additional/primary/jupiter/xmi/X.xmi with data/additional/primary/resources_xmi/
    primary = tmp_path / "primary"
    (primary / "jupiter" / "xmi").mkdir(parents=True)
    (primary / "resources_xmi").mkdir()
    (primary / "jupiter" / "xmi" / "speech1.xmi").write_bytes(XMI)
    (primary / "resources_xmi" / "rwTypesystem_stwrview.xml").write_bytes(FULL)
    assert _spans(load_path(primary / "jupiter" / "xmi" / "speech1.xmi")) == EXPECTED


def test_a_type_system_beside_the_xmi_still_wins_without_a_note() -> None:
    loaded = load_files({"speech1.xmi": XMI, "TypeSystem.xml": FULL,
                         "resources/other.xml": NAMED_ENTITY_ONLY}, name="xmi")
    assert _spans(loaded) == EXPECTED
    assert not [d for d in loaded.diagnostics if "type system" in d.message]


def test_no_type_system_anywhere_is_still_the_error_it_was() -> None:
    with pytest.raises(FormatError, match=r"no type system: put TypeSystem\.xml"):
        load_files({"speech1.xmi": XMI, "docs/notes.xml": b"<notes/>"}, name="xmi")


def test_a_sibling_projects_type_system_is_not_taken(tmp_path: Path) -> None:
    """corp/projA/speech1.xmi without a type system, beside corp/projB/ which holds its own
    documents and TypeSystem.xml, and corp/notes/ with a type system: neither is this
    file's (a folder not named as resources, or one holding documents, is another's)."""
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "TypeSystem.xml").write_bytes(FULL)
    (tmp_path / "projA").mkdir()
    (tmp_path / "projB").mkdir()
    (tmp_path / "projA" / "speech1.xmi").write_bytes(XMI)
    (tmp_path / "projB" / "other.xmi").write_bytes(XMI)
    (tmp_path / "projB" / "TypeSystem.xml").write_bytes(FULL)
    with pytest.raises(FormatError, match=r"no type system"):
        load_path(tmp_path / "projA" / "speech1.xmi")
    # the same folder named as a corpus's resources is read (REDEWIEDERGABE's resources_xmi/)
    (tmp_path / "notes").rename(tmp_path / "resources_xmi")
    assert _spans(load_path(tmp_path / "projA" / "speech1.xmi")) == EXPECTED
