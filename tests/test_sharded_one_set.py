"""``--engine dask`` says what the default engine says: ``agree`` on one annotator's set split into
shards refuses it (a shard without a ``set`` column holds one set named after its folder,
docs/scale.md, so the folder is one annotation set, never one annotator per shard), and
``score`` warns of disjoint labels once, for the corpus, not for a shard whose labels happen to
be disjoint. The workers run in this process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from core.engines.sharded import agree_sharded, write_shards
from core.formats import load_path
from core.model.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
ANNOTATOR = ROOT / "sample_data" / "propaganda" / "annotator_1.json"


class _Ready:
    """A Dask future already computed (``result`` as run_jobs waits on it)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self, timeout: float | None = None) -> Any:
        return self.value


class _InProcess:
    """A Dask client's map and gather, run in this process."""

    def map(self, func: Any, jobs: list[Any], pure: bool = False) -> list[Any]:
        return [_Ready(func(job)) for job in jobs]

    def gather(self, futures: list[Any]) -> list[Any]:
        return [f.value for f in futures]

    def nthreads(self) -> dict[str, int]:
        return {"here": 1}

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {"here": {}}}


@pytest.mark.parametrize(("role", "named"), [("gold", "ann_shards"), ("annotator", "annotator_1")],
                         ids=["no-set-column", "set-column"])
def test_one_annotator_in_shards_is_refused_by_both_engines_alike(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], role: str, named: str) -> None:
    # `convert annotator_1.json ann_shards --to parquet --shards 2` writes no `set` column (the
    # file's set is read as gold); an annotator's set is written with one
    loaded = load_path(ANNOTATOR)
    folder = tmp_path / "ann_shards"
    write_shards([loaded.set.with_role(role)], loaded.texts, folder,  # type: ignore[arg-type]
                 shards=2)
    assert main(["agree", str(folder), "--measure", "char-kappa"]) == 1
    default = capsys.readouterr().err.strip()
    assert default == ("error: agreement needs at least two annotation sets; the input holds 1 "
                       f"({named})")
    with pytest.raises(InputError) as caught:
        agree_sharded([folder], client=_InProcess())  # type: ignore[arg-type]
    assert f"error: {caught.value}" == default


def test_two_annotators_one_folder_each_keep_their_folders_names(tmp_path: Path) -> None:
    sets = [load_path(ROOT / "sample_data" / "propaganda" / f"annotator_{i}.json")
            for i in (1, 2)]
    for i, x in enumerate(sets, start=1):
        write_shards([x.set.with_role("annotator")], x.texts, tmp_path / f"ann{i}", shards=2)
    _, kappa, _ = agree_sharded([tmp_path / "ann1", tmp_path / "ann2"],
                                client=_InProcess())  # type: ignore[arg-type]
    assert kappa.annotators == ["ann1", "ann2"]


def test_disjoint_labels_are_warned_once_for_the_corpus_not_per_shard(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Labels outside the technique list: both engines score the labels that occur. Shard 1's
    # gold has only 'Apple' and its predictions only 'Banana'; the corpus shares 'Banana'.
    from core.engines.sharded import score_sharded
    from core.model import AnnotationSet, Span

    texts = {f"d{i}": "abcdefghij" for i in range(4)}
    gold = AnnotationSet("gold", {"d0": (Span(0, 4, "Banana"),), "d1": (Span(0, 4, "Banana"),),
                                  "d2": (Span(0, 4, "Apple"),), "d3": (Span(0, 4, "Apple"),)})
    for name, labels in (("shared", ["Banana"] * 4), ("disjoint", ["Cherry"] * 4)):
        pred = AnnotationSet("pred", {f"d{i}": (Span(0, 4, x),) for i, x in enumerate(labels)},
                             "system")
        write_shards([gold], texts, tmp_path / name / "gold", shards=2)
        write_shards([pred], texts, tmp_path / name / "pred", shards=2)
        folders = [str(tmp_path / name / side) for side in ("gold", "pred")]
        assert main(["score", *folders, "--metric", "martino", "--json"]) == 0
        # the command line names its option where the library names the parameter
        default = [w.replace("--labels FILE", "labels=[...]")
                   for w in json.loads(capsys.readouterr().out)["warnings"]]
        dask = score_sharded(*folders, metric="martino", client=_InProcess())  # type: ignore[arg-type]
        assert [w for w in dask.warnings if "no predicted label" in w] == [
            w for w in default if "no predicted label" in w]
        assert sum("no predicted label" in w for w in default) == (name == "disjoint")


def test_the_golds_warnings_come_before_the_predictions_as_on_one_machine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from core.engines.sharded import score_sharded
    from core.model import AnnotationSet, Span

    texts = {f"d{i}": "abcdefghij" for i in range(4)}
    twice = {f"d{i}": (Span(0, 4, "Doubt"), Span(0, 4, "Doubt")) for i in range(4)}
    for aset in (AnnotationSet("gold", twice), AnnotationSet("pred", twice, "system")):
        write_shards([aset], texts, tmp_path / aset.name, shards=2)
    folders = [str(tmp_path / "gold"), str(tmp_path / "pred")]
    assert main(["score", *folders, "--metric", "martino", "--json"]) == 0
    default = json.loads(capsys.readouterr().out)["warnings"]
    dask = score_sharded(*folders, metric="martino", client=_InProcess())  # type: ignore[arg-type]
    sides = [Path(w.split(":", 1)[0]).parent.name for w in dask.warnings]
    assert sides == ["gold"] * 4 + ["pred"] * 4, dask.warnings
    assert dask.warnings == default


def test_a_doccano_shard_folder_is_one_set_on_both_engines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``convert --to doccano --shards N`` writes files of disjoint documents, which doccano's
    reader took for a project's per-user files (one annotator per shard: part-00000, ...), so
    ``score`` on one machine refused the folder ("expected exactly one annotation set") and
    ``agree`` compared shards with each other, while ``--engine dask`` read one set. Files
    that share no document are pieces of one set, on both engines."""
    from core.engines.sharded import score_sharded

    folders = []
    for name in ("gold", "system_a"):
        loaded = load_path(ROOT / "sample_data" / "propaganda" / f"{name}.json")
        folder = tmp_path / name
        write_shards([loaded.set], loaded.texts, folder, shards=2, to="doccano")
        assert sorted(p.name for p in folder.iterdir()) == ["part-00000.jsonl",
                                                             "part-00001.jsonl"]
        folders.append(str(folder))
    read = load_path(folders[0])
    assert [(s.name, s.role) for s in read.sets] == [("gold", "gold")]
    assert main(["score", *folders, "--metric", "martino", "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    dask = score_sharded(*folders, metric="martino", client=_InProcess())  # type: ignore[arg-type]
    whole = load_path(ROOT / "sample_data" / "propaganda" / "gold.json")
    assert read.set.spans == whole.set.spans
    for key in ("precision", "recall", "f1"):
        assert dask.result[key] == pytest.approx(default[key]), key
    assert main(["agree", folders[0], "--measure", "char-kappa"]) == 1
    assert capsys.readouterr().err.strip() == (
        "error: agreement needs at least two annotation sets; the input holds 1 (gold)")
