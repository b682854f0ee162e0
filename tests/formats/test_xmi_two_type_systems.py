"""A folder holding two type systems, each for some of its ``.xmi`` files (wild11 tour).

catalpa-cl/cas-visualizer@c5def7f's ``data/`` holds ``hagen.txt.xmi`` with the
``TypeSystem.xml`` it was written with, and two learner texts of the DAKODA project
(``SWI01_fD_Es145_p.xmi``, ``SWI03_fD_Mo107_c.xmi``) with theirs, ``dakoda_typesystem.xml``.
``TypeSystem.xml`` was read for every file, so the folder, and each DAKODA file on its own,
was refused: "its <dakoda:Stage> elements have the type org.dakoda.Stage, which the type system
TypeSystem.xml does not declare". A file that ``TypeSystem.xml`` does not describe is now read
with the other type system beside it that does, and a warning says which. The files below are
ours, written by dkpro-cassis.
"""

from __future__ import annotations

from pathlib import Path

import cassis
import pytest

from core.formats import ReadOptions, load_files, load_path
from core.model.errors import FormatError

TEXT = "Der Hund bellt laut."


def _typesystem(name: str, feature: str) -> cassis.TypeSystem:
    ts = cassis.TypeSystem()
    ts.create_feature(ts.create_type(name), feature, "uima.cas.String")
    return ts


def _xmi(ts: cassis.TypeSystem, name: str, feature: str, label: str) -> bytes:
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = TEXT
    cas.add(ts.get_type(name)(begin=4, end=8, **{feature: label}))
    return cas.to_xmi().encode()


def _folder() -> dict[str, bytes]:
    claims = _typesystem("webanno.custom.Claim", "value")
    stages = _typesystem("org.dakoda.Stage", "name")
    return {"hagen.txt.xmi": _xmi(claims, "webanno.custom.Claim", "value", "Animal"),
            "SWI01.xmi": _xmi(stages, "org.dakoda.Stage", "name", "SVO"),
            "TypeSystem.xml": claims.to_xml().encode(),
            "dakoda_typesystem.xml": stages.to_xml().encode()}


def test_each_file_is_read_with_the_type_system_beside_it_that_describes_it() -> None:
    loaded = load_files(_folder(), name="data", options=ReadOptions(layer="Stage"))
    spans = {doc: [(s.start, s.end, s.label) for s in found]
             for doc, found in loaded.sets[0].spans.items()}
    assert spans == {"SWI01": [(4, 8, "SVO")], "hagen.txt": []}
    notes = [str(d) for d in loaded.diagnostics if "type system" in d.message]
    assert notes == ["data/SWI01.xmi: read with the type system dakoda_typesystem.xml "
                     "beside it (TypeSystem.xml lacks some of its types)"]


def test_one_file_read_from_disk_finds_the_other_type_system_beside_it(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    for key, data in _folder().items():
        (tmp_path / "data" / key).write_bytes(data)
    loaded = load_path(tmp_path / "data" / "SWI01.xmi", options=ReadOptions())
    assert [(s.start, s.end, s.label) for s in loaded.sets[0].spans["SWI01"]] == [
        (4, 8, "SVO")]


def test_a_file_no_type_system_beside_it_describes_is_still_refused() -> None:
    files = _folder()
    other = _typesystem("org.other.Thing", "kind")
    files["SWI01.xmi"] = _xmi(other, "org.other.Thing", "kind", "x")
    with pytest.raises(FormatError) as exc:
        load_files(files, name="data", options=ReadOptions())
    assert "the type org.other.Thing, which the type system data/TypeSystem.xml does " \
           "not declare" in str(exc.value)
