"""Empty annotations (begin = end) of the layer read are skipped with one warning per file: the
REDEWIEDERGABE corpus (redewiedergabe/corpus, UIMA XMI) has about a thousand empty TEI markers
(``<pb/>``, ``<lb/>``) per sample, and ``validate`` on three samples listed 3,264 lines
"an empty TeiType annotation at 5; skipped", one per annotation, before the rarer warnings.
They are now counted in one warning per file with their first offsets; a file with one keeps
the wording it had."""

from __future__ import annotations

from pathlib import Path

from core.formats import load_files
from core.model.errors import warning_total

EXPORT = Path(__file__).resolve().parents[2] / "sample_data" / "formats" / "xmi_export"
XMI = (EXPORT / "speech1.xmi").read_text(encoding="utf-8")
TS = (EXPORT / "TypeSystem.xml").read_bytes()


def _with_empty(count: int) -> bytes:
    """The sample with ``count`` empty Technique annotations at 0, 1, 2, ... added."""
    extra = "".join(f'<custom:Technique xmi:id="{100 + k}" sofa="1" begin="{k}" end="{k}" '
                    f'Technique="Smears"/>' for k in range(count))
    members = " ".join(str(100 + k) for k in range(count))
    return (XMI.replace('<cas:Sofa ', extra + '<cas:Sofa ')
            .replace('members="2 3 4 5"', f'members="2 3 4 5 {members}"').encode())


def _empty_warnings(loaded) -> list[str]:  # type: ignore[no-untyped-def]
    return [d.message for d in loaded.diagnostics if "empty" in d.message]


def test_many_empty_annotations_are_one_warning_per_file_with_their_offsets() -> None:
    loaded = load_files({"a.xmi": _with_empty(7), "b.xmi": _with_empty(2),
                         "TypeSystem.xml": TS}, name="corpus")
    assert _empty_warnings(loaded) == [
        "7 empty Technique annotations (begin = end) skipped, at 0, 1, 2, 3, 4, ...",
        "2 empty Technique annotations (begin = end) skipped, at 0, 1"]
    assert [len(s.spans[d]) for s in loaded.sets for d in s.spans] == [3, 3]
    assert warning_total(loaded.diagnostics) < 10


def test_one_empty_annotation_keeps_its_wording() -> None:
    loaded = load_files({"a.xmi": _with_empty(1), "TypeSystem.xml": TS}, name="corpus")
    assert _empty_warnings(loaded) == ["an empty Technique annotation at 0; skipped"]
