"""brat: a project with one folder per annotator holding the same documents (the layout of
bratiaa, kldtz/bratiaa ``example-files/example-project/{Lisa,Maria,Max,Peter}/``, and of the
AMIA-18 mutation corpus's ``data-preadjudicated/annotator2/``) is one annotation set per folder,
role ``annotator``, over the documents named without the folder. It was one set whose documents
were each annotator's copy (``Lisa/doc1``, ``Maria/doc1``): ``agree`` found one set, and the
Documents page showed every text once per annotator. Folders that hold other documents
(``train/``, ``dev/``), or the same name with another text, stay one set."""

from __future__ import annotations

import contextlib
import io
import json
import zipfile
from pathlib import Path

import pytest

from core.cli import main
from core.cli.loading import load_study
from core.formats import ReadOptions, load_files, load_path
from core.metrics.agreement import exact_f1

TEXT1 = "Lisa met Maria in Madrid.\n"
TEXT2 = "Peter works at Acme.\n"


def project(prefix: str = "") -> dict[str, bytes]:
    return {
        f"{prefix}annotation.conf": b"[entities]\nPER\nLOC\nORG\n",
        f"{prefix}Lisa/doc1.txt": TEXT1.encode(),
        f"{prefix}Lisa/doc1.ann": (b"T1\tPER 0 4\tLisa\nT2\tPER 9 14\tMaria\n"
                                   b"T3\tLOC 18 24\tMadrid\n"),
        f"{prefix}Lisa/doc2.txt": TEXT2.encode(),
        f"{prefix}Lisa/doc2.ann": b"T1\tPER 0 5\tPeter\n",
        f"{prefix}Maria/doc1.txt": TEXT1.encode(),
        f"{prefix}Maria/doc1.ann": b"T1\tPER 0 4\tLisa\nT2\tORG 18 24\tMadrid\n",
        f"{prefix}Maria/doc2.txt": TEXT2.encode(),
        f"{prefix}Maria/doc2.ann": b"T1\tPER 0 5\tPeter\nT2\tORG 15 19\tAcme\n",
    }


def spans(loaded, name: str, doc: str) -> list[tuple[int, int, str]]:
    aset = next(s for s in loaded.sets if s.name == name)
    return sorted((s.start, s.end, s.label) for s in aset.spans[doc])


def test_one_folder_per_annotator_is_one_set_each() -> None:
    loaded = load_files(project(), options=ReadOptions(), name="example-project")
    assert loaded.format == "brat"
    assert [(s.name, s.role) for s in loaded.sets] == [("Lisa", "annotator"),
                                                      ("Maria", "annotator")]
    assert loaded.named_sets == {"Lisa", "Maria"}
    assert loaded.texts == {"doc1": TEXT1, "doc2": TEXT2}
    assert spans(loaded, "Maria", "doc1") == [(0, 4, "PER"), (18, 24, "ORG")]
    assert spans(loaded, "Lisa", "doc2") == [(0, 5, "PER")]
    assert any("one annotator each" in d.message for d in loaded.diagnostics)


def test_the_layout_is_found_inside_a_zip_with_a_top_folder(tmp_path) -> None:
    archive = tmp_path / "project.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for name, data in project("example-project/").items():
            z.writestr(name, data)
    loaded = load_path(archive, options=ReadOptions())
    assert [s.name for s in loaded.sets] == ["Lisa", "Maria"]
    assert set(loaded.texts) == {"doc1", "doc2"}


def test_agree_compares_the_annotator_folders(tmp_path) -> None:
    for name, data in project().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["agree", str(tmp_path), "--measure", "exact-f1", "--json"])
    assert status == 0
    result = json.loads(out.getvalue())
    assert "Lisa" in json.dumps(result) and "Maria" in json.dumps(result)


def test_folders_of_other_documents_stay_one_set() -> None:
    files = {"train/a.txt": TEXT1.encode(), "train/a.ann": b"T1\tPER 0 4\tLisa\n",
             "dev/b.txt": TEXT2.encode(), "dev/b.ann": b"T1\tPER 0 5\tPeter\n"}
    loaded = load_files(files, options=ReadOptions(), name="corpus")
    assert [s.name for s in loaded.sets] == ["corpus"]
    assert set(loaded.texts) == {"train/a", "dev/b"}


def test_the_same_name_with_another_text_stays_one_set() -> None:
    files = {"results/a.txt": TEXT1.encode(), "results/a.ann": b"T1\tPER 0 4\tLisa\n",
             "abstracts/a.txt": TEXT2.encode(), "abstracts/a.ann": b"T1\tPER 0 5\tPeter\n"}
    loaded = load_files(files, options=ReadOptions(), name="corpus")
    assert [s.name for s in loaded.sets] == ["corpus"]
    assert set(loaded.texts) == {"results/a", "abstracts/a"}


def test_a_split_with_one_leaked_document_stays_one_set() -> None:
    """train/dev/test sharing one document (a leak, common in real corpora) are no annotators:
    each folder must share at least half of its documents with another."""
    files = {"train/a.txt": TEXT1.encode(), "train/a.ann": b"T1\tPER 0 4\tLisa\n",
             "train/c.txt": b"Other text.\n", "train/c.ann": b"",
             "dev/b.txt": TEXT2.encode(), "dev/b.ann": b"T1\tPER 0 5\tPeter\n",
             "test/a.txt": TEXT1.encode(), "test/a.ann": b"T1\tPER 0 4\tLisa\n",
             "test/d.txt": b"Yet another.\n", "test/d.ann": b""}
    loaded = load_files(files, options=ReadOptions(), name="split")
    assert [(s.name, s.role) for s in loaded.sets] == [("split", "gold")]
    assert not any("one annotator each" in d.message for d in loaded.diagnostics)


def test_two_copies_of_one_corpus_stay_one_set() -> None:
    """Folders whose shared .ann files are all byte for byte the same are copies (a backup,
    'brat_gold (copy)'), not annotators in perfect agreement."""
    one = {k: v for k, v in project().items() if k.startswith("Lisa/")}
    files = {**one, **{k.replace("Lisa/", "Lisa (copy)/"): v for k, v in one.items()}}
    loaded = load_files(files, options=ReadOptions(), name="copies")
    assert [s.name for s in loaded.sets] == ["copies"]


def test_the_bratiaa_project_read_whole_gives_bratiaa_values() -> None:
    # tests/data/agreement/exact_f1_brat is laid out as bratiaa expects (A/, B/, C/ and
    # annotation.conf); bratiaa 0.1.4's instance F1 on it is in bratiaa_0.1.4.json.
    project = Path(__file__).resolve().parents[1] / "data" / "agreement" / "exact_f1_brat"
    want = json.loads((project / "bratiaa_0.1.4.json").read_text(encoding="utf-8"))["pairs"]
    whole = exact_f1(load_study([str(project)]))
    assert sorted(whole.pairs) == [("A", "B"), ("A", "C"), ("B", "C")]
    for pair, values in want.items():
        a, b = pair.split(" | ")
        got = whole.pairs.get((a, b)) or whole.pairs[(b, a)]
        assert got.overall.value == pytest.approx(values["corpus"], abs=1e-12)


def test_several_sets_are_written_one_folder_each_and_read_back(tmp_path) -> None:
    for name, data in project().items():
        (tmp_path / "in" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / name).write_bytes(data)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main(["convert", str(tmp_path / "in"), "--to", "brat", str(tmp_path / "out")])
    assert status == 0, out.getvalue()
    assert "one folder each" in out.getvalue()
    assert sorted(p.relative_to(tmp_path / "out").as_posix()
                  for p in (tmp_path / "out").rglob("*.ann")) == [
        "Lisa/doc1.ann", "Lisa/doc2.ann", "Maria/doc1.ann", "Maria/doc2.ann"]
    before = load_path(tmp_path / "in", options=ReadOptions())
    after = load_path(tmp_path / "out", options=ReadOptions())
    assert [(s.name, s.role) for s in after.sets] == [(s.name, s.role) for s in before.sets]
    for b, a in zip(before.sets, after.sets, strict=True):
        assert {d: sorted(v) for d, v in a.spans.items()} == {
            d: sorted(v) for d, v in b.spans.items()}
    assert after.texts == before.texts
