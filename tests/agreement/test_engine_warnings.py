"""``agree`` gives the same warnings on both engines (``--engine dask``, core/engines/sharded.py,
and the one-machine default): an annotator missing documents the others have, labels that
differ only in case, counted under the same kinds. The Dask engine gave neither (each shard
saw only its own documents, and no shard put the study's warnings together)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from core.engines.sharded import write_shards
from core.formats.tools import write_sets
from core.model import AnnotationSet, Span

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TOUR = ROOT / "tests" / "data" / "agree_tour"


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as c:
        yield c.scheduler_address


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _both(inputs_single: list[str], inputs_dask: list[str], cluster: str,
          capsys: pytest.CaptureFixture[str], *more: str
          ) -> tuple[dict[str, Any], dict[str, Any]]:
    args = ["--measure", "char-kappa", "--json", "--all-warnings", *more]
    single = _json(["agree", *inputs_single, *args], capsys)
    dask = _json(["agree", *inputs_dask, *args, "--engine", "dask", "--scheduler", cluster],
                 capsys)
    return single, dask


@pytest.mark.parametrize("name", ["missing_doc.csv", "case_variant.csv"])
def test_the_tours_files_warn_alike_on_both_engines(
        name: str, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(TOUR / name)
    single, dask = _both([path], [path], cluster, capsys)
    assert single["warnings"] and "missing-documents" in single["warning_counts"]
    assert dask["warnings"] == single["warnings"]
    assert dask["warning_counts"] == single["warning_counts"]
    assert (dask["annotators"], dask["documents"]) == (single["annotators"], single["documents"])


def _study() -> tuple[dict[str, str | None], list[AnnotationSet]]:
    """Three annotators over twelve documents: 'cy' lacks four of them (in different shards),
    'bo' writes one label in lower case."""
    texts: dict[str, str | None] = {f"d{i:02}": "The quick brown fox jumps. " * 3
                                    for i in range(12)}
    def spans(shift: int, label: str = "Doubt") -> tuple[Span, ...]:
        return (Span(0 + shift, 9, label), Span(10, 19, "Slogans"))

    al = {d: spans(0) for d in texts}
    bo = {d: spans(1, "doubt" if d == "d03" else "Doubt") for d in texts}
    cy = {d: spans(2) for d in texts if d not in ("d01", "d05", "d08", "d11")}
    return texts, [AnnotationSet(n, s, role="annotator")
                   for n, s in (("al", al), ("bo", bo), ("cy", cy))]


def test_a_sharded_study_warns_as_the_whole_study(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The missing documents are spread over the shards: only the client, from every
    shard's documents, can say how many and which come first."""
    texts, sets = _study()
    files = []
    for s in sets:
        write_sets([s], tmp_path / f"{s.name}.json", to="semeval2021", texts=texts)
        files.append(str(tmp_path / f"{s.name}.json"))
    write_shards(sets, texts, tmp_path / "all", shards=4)
    single, dask = _both(files, [str(tmp_path / "all")], cluster, capsys)
    assert single["warning_counts"] == {"label-variants": 1, "missing-documents": 1}
    assert any(w.startswith("cy: lacks 4 of the study's 12 documents") and "'d01', 'd05', "
               "'d08' and 1 more" in w for w in single["warnings"])
    assert dask["warnings"] == single["warnings"]
    assert dask["warning_counts"] == single["warning_counts"]
    # the text output's summary line too
    args = ["--measure", "char-kappa"]
    main(["agree", *files, *args])
    one = capsys.readouterr().out
    main(["agree", str(tmp_path / "all"), *args, "--engine", "dask", "--scheduler", cluster])
    many = capsys.readouterr().out
    line = "warnings: 2 (label-variants 1, missing-documents 1)"
    assert line in one and line in many


def _two_files(folder: Path) -> list[str]:
    """Two annotators' doccano files: one text under two ids (matched by its text on one
    machine), and a document each that the other lacks."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = {"c": [("d1", "abcdefghij", [[0, 4, "x"]]), ("d2", "second doc text", [[0, 6, "x"]])],
            "e": [("x1", "abcdefghij", [[0, 5, "x"]]), ("d3", "another one", [[0, 6, "x"]])]}
    out = []
    for name, docs in rows.items():
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps({"id": i, "text": t, "label": lab}) + "\n"
                                for i, t, lab in docs), encoding="utf-8")
        out.append(str(path))
    return out


def test_whole_files_give_what_one_machine_gives(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    # bugleft15 item 6: whole files were refused ("must hold shards of the same names") or, of
    # one name in two folders, named alike ("two annotation sets are both named"); read as one
    # study on a worker, they are matched by text, named and warned of as on one machine
    files = _two_files(tmp_path)
    single, dask = _both(files, files, cluster, capsys)
    assert any("1 document matches no other file's documents ('d2')" in w
               for w in single["warnings"]), single["warnings"]
    assert single["alignment"] == {"c.jsonl": {"renamed": {}, "unmatched": ["d2"]},
                                   "e.jsonl": {"renamed": {"x1": "d1"}, "unmatched": ["d3"]}}
    for key in ("warnings", "warning_counts", "annotators", "documents", "alignment",
                "char-kappa"):
        assert dask[key] == single[key], key
    for name, path in zip("AB", files, strict=True):  # one file name in two folders
        (tmp_path / name).mkdir()
        Path(path).rename(tmp_path / name / "ann.jsonl")
    files = [str(tmp_path / n / "ann.jsonl") for n in "AB"]
    single, dask = _both(files, files, cluster, capsys)
    assert single["annotators"] == ["A/ann.jsonl:ann", "B/ann.jsonl:ann"]
    for key in ("warnings", "warning_counts", "annotators", "documents", "alignment",
                "char-kappa"):
        assert dask[key] == single[key], key


def test_folders_of_shards_say_which_documents_match_no_other_input(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    # bugleft15 item 6: one folder per annotator, documents matched by id (a shard step): the
    # documents of one folder that no other folder holds are said as one machine says them
    texts: dict[str, str | None] = {f"d{i}": f"Document {i}: the quick brown fox."
                                    for i in range(6)}
    al = AnnotationSet("al", {d: (Span(0, 9, "x"),) for d in texts if d != "d4"}, "annotator")
    bo = AnnotationSet("bo", {d: (Span(1, 9, "x"),) for d in texts if d not in ("d1", "d5")},
                       "annotator")
    folders = []
    for s in (al, bo):
        write_shards([s], {d: texts[d] for d in s.spans}, tmp_path / s.name, shards=2)
        folders.append(str(tmp_path / s.name))
    single, dask = _both(folders, folders, cluster, capsys)
    said = [w for w in single["warnings"] if "match no other file's documents" in w
            or "matches no other file's documents" in w]
    assert len(said) == 2, single["warnings"]
    for key in ("warnings", "warning_counts", "annotators", "documents", "alignment"):
        assert dask[key] == single[key], key


def test_clipped_spans_are_said_on_both_engines(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    # fixrev14b item 1: with --clip-spans the reader clips a span past its text and says so; the
    # Dask engine's shard read the files without the readers' diagnostics and said nothing
    rows = {"h1": [[0, 4, "x"], [5, 20, "x"]], "h2": [[0, 5, "x"]]}
    files = []
    for name, spans in rows.items():
        (tmp_path / name).mkdir()
        path = tmp_path / name / "part-0.jsonl"  # a folder of shards: one name in each
        path.write_text(json.dumps({"id": "d1", "text": "abcdefghij", "label": spans}) + "\n",
                        encoding="utf-8")
        files.append(str(path))
    for inputs in (files, [str(Path(f).parent) for f in files]):  # whole files, then folders
        single, dask = _both(inputs, inputs, cluster, capsys, "--clip-spans")
        assert single["warning_counts"] == {"beyond-text": 1}, single["warnings"]
        assert any("span [5, 20) 'x' ends past the text (10 characters); clipped to [5, 10)"
                   in w for w in single["warnings"]), single["warnings"]
        for key in ("warnings", "warning_counts", "annotators", "char-kappa"):
            assert dask[key] == single[key], key
