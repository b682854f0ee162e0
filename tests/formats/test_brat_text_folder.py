"""brat: the texts in one folder, the annotations in another (wild15 tour).

florbrunello/SPG-Extended-Corpus@9e103a0 keeps 448 documents as ``txt/<id>.txt`` and
``brat/<id>.ann``. Read as a folder, every ``.ann`` was read without its text (no check of
the fragments, no text on the Documents page) and every text got its own warning, "a text
without a .ann file; ignored" (448 of them). When no ``.ann`` has a ``.txt`` beside it and the
two folders hold the same names, each ``.ann`` is now read with the ``.txt`` of its name, with
one warning. Our own texts, in that layout.
"""

from __future__ import annotations

from core.formats import load_files

TEXT1 = "Paciente: Emilia García López, DNI 12345678A.\n"
TEXT2 = "Médico: Juan Pérez.\n"


def _corpus() -> dict[str, bytes]:
    return {"txt/0001.txt": TEXT1.encode(), "txt/0002.txt": TEXT2.encode(),
            "brat/0001.ann": "T1\tNOMBRE 10 29\tEmilia García López\nT2\tID 35 44\t12345678A\n"
                             .encode(),
            "brat/0002.ann": "T1\tNOMBRE 8 18\tJuan Pérez\n".encode()}


def test_each_ann_is_read_with_the_text_of_its_name_from_the_text_folder() -> None:
    loaded = load_files(_corpus(), name="spg")
    assert loaded.format == "brat"
    assert loaded.texts == {"brat/0001": TEXT1, "brat/0002": TEXT2}
    frame = loaded.sets[0].to_frame()
    fragments = [loaded.texts[d][s:e] for d, s, e in  # type: ignore[index]
                 zip(frame["document"], frame["start"], frame["end"], strict=True)]
    assert sorted(fragments) == ["12345678A", "Emilia García López", "Juan Pérez"]
    assert [str(d) for d in loaded.diagnostics] == [
        "spg: the texts are in the folder txt/, the annotations in brat/: each .ann is read "
        "with the .txt of its name there (2 pairs)"]


def test_a_name_missing_from_the_text_folder_pairs_nothing() -> None:
    files = _corpus()
    del files["txt/0002.txt"]
    loaded = load_files(files, name="spg")
    assert set(loaded.texts.values()) == {None}
    assert any("a text without a .ann file" in str(d) for d in loaded.diagnostics)
