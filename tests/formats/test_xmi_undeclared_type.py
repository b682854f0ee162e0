"""An XMI file using a type its type system does not declare. linguistic-features-in-text
(zesch/linguistic-features-in-text, ``py_lift/py_lift/data``) keeps four DKPro XMI files
beside one ``TypeSystem.xml``; two of them, parsed by MATE, hold ``<bohnet:POS>`` elements
whose type ``custom.bohnet.POS`` that type system lacks. dkpro-cassis and UIMA refuse such a
file, and so do we; but the error was cassis's words alone ("TypeNotFoundError: Type with name
[custom.bohnet.POS] not found!"), naming neither the type system read nor what to do. It now
names the element, its line, the type, the type system and the remedy.

The file here is the project's own sample export read beside its type system without the
custom layer, the same shape."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.cli import main
from core.formats import load_files

EXPORT = Path(__file__).resolve().parents[2] / "sample_data" / "formats" / "xmi_export"
XMI = (EXPORT / "speech1.xmi").read_bytes()
FULL = (EXPORT / "TypeSystem.xml").read_bytes()
WITHOUT_TECHNIQUE = re.sub(rb"<typeDescription><name>webanno\.custom\.Technique.*?"
                           rb"</typeDescription>", b"", FULL)
# One element a line, as UIMA Java and DKPro write them (the sample holds one long line).
XMI_LINES = XMI.replace(b"/><", b"/>\n<")
FIRST_TECHNIQUE_LINE = XMI_LINES[:XMI_LINES.find(b"<custom:Technique")].count(b"\n") + 1


def test_an_undeclared_type_is_named_with_its_line_and_the_type_system() -> None:
    assert WITHOUT_TECHNIQUE != FULL and FIRST_TECHNIQUE_LINE > 1
    with pytest.raises(Exception) as caught:
        load_files({"speech1.xmi": XMI_LINES, "TypeSystem.xml": WITHOUT_TECHNIQUE},
                   name="export")
    assert str(caught.value) == (
        f"export/speech1.xmi:{FIRST_TECHNIQUE_LINE}: its <custom:Technique> elements have the "
        "type webanno.custom.Technique, which the type system export/TypeSystem.xml does not "
        "declare; put the TypeSystem.xml the file was written with beside it (INCEpTION and "
        "DKPro write the two together), or add the type to export/TypeSystem.xml")


def test_validate_names_the_undeclared_type(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "speech1.xmi").write_bytes(XMI_LINES)
    (tmp_path / "TypeSystem.xml").write_bytes(WITHOUT_TECHNIQUE)
    assert main(["validate", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert (f"speech1.xmi:{FIRST_TECHNIQUE_LINE}: its <custom:Technique> elements have the type "
            "webanno.custom.Technique") in out
    assert "TypeNotFoundError" not in out


def test_the_same_file_beside_its_own_type_system_reads() -> None:
    loaded = load_files({"speech1.xmi": XMI_LINES, "TypeSystem.xml": FULL}, name="export")
    assert loaded.sets[0].span_count() == 3
