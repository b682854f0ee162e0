"""A warning keeps the kind its emitter named on every path to ``warning_counts`` (bugleft19):
the Dask engine's shards (and their pickling), ``table``'s systems and their dedupe, a message
whose parameters are turned into flags, and the text of ``convert`` and ``report``, which
print each warning's kind as ``[kind]``. The phrase table
(:data:`core.model.errors.WARNING_KINDS`) is emptied, so a kind read off the words would be
``other``."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

import core.model.errors as errors
from core.cli import main
from core.cli.common import flag_message, warning_counts
from core.engines.sharded import ScoreJob, score_shard, write_shards
from core.model import AnnotationSet, Span
from core.model.errors import KindedText, warning_kind

TEXT = "alpha beta gamma delta epsilon zeta"


@pytest.fixture
def no_phrases(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(errors, "WARNING_KINDS", ())
    yield


def _write(path: Path, spans: list[tuple[int, int, str]]) -> Path:
    labels = [{"start": s, "end": e, "technique": lab, "text_fragment": TEXT[s:e]}
              for s, e, lab in spans]
    path.write_text(json.dumps([{"id": "1", "text": TEXT, "labels": labels},
                                {"id": "2", "text": TEXT, "labels": []}]), encoding="utf-8")
    return path


def _overlapping_pair(tmp: Path) -> tuple[Path, Path]:
    """Gold and predictions whose overlapping spans of one technique NLP4IF-2019 merges: the
    metric's own warnings, of kind ``merged``."""
    gold = _write(tmp / "gold.json", [(0, 10, "Doubt"), (6, 16, "Doubt")])
    pred = _write(tmp / "pred.json", [(0, 5, "Doubt"), (3, 10, "Doubt")])
    return gold, pred


MERGED = ["--metric", "martino", "--variant", "nlp4if2019", "--merge-pred", "--json"]


def _counts(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    counts: dict[str, int] = json.loads(out.out)["warning_counts"]
    return counts


def test_the_metrics_merge_warnings_name_their_kind(tmp_path: Path, no_phrases: None,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """One machine: the flags put into the message (``--merge-pred``) keep its kind."""
    gold, pred = _overlapping_pair(tmp_path)
    assert _counts(["score", str(gold), str(pred), *MERGED], capsys) == {"merged": 2}


def test_a_flagged_warning_keeps_its_kind(no_phrases: None) -> None:
    said = KindedText("p: 2 overlapping prediction(s) merged (merge_pred=True)", "merged")
    flagged = flag_message(said, {"merge_pred": "--merge-pred"})
    assert flagged == "p: 2 overlapping prediction(s) merged (--merge-pred)"
    assert warning_counts([flagged]) == {"merged": 1}


def test_table_counts_each_systems_warnings_under_their_kind(
        tmp_path: Path, no_phrases: None, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _overlapping_pair(tmp_path)
    other = _write(tmp_path / "other.json", [(0, 5, "Doubt"), (3, 12, "Doubt")])
    counts = _counts(["table", str(gold), str(pred), str(other), *MERGED, "--samples", "20"],
                     capsys)
    # the gold's merge is said once (the dedupe by text), each system's own once
    assert counts == {"merged": 3}


def _shard_job(tmp: Path) -> ScoreJob:
    gold, pred = _overlapping_pair(tmp)
    return ScoreJob(metric="martino", gold=str(gold), pred=str(pred), variant="nlp4if2019",
                    merge_pred=True)


def test_a_shards_warnings_keep_their_kinds_through_pickling(tmp_path: Path,
                                                             no_phrases: None) -> None:
    """What a worker sends back: the metric's warnings counted under their kind, and the
    warnings themselves carry it across the cluster (pickled as Dask sends them)."""
    out = score_shard(_shard_job(tmp_path))
    assert out.error is None
    assert out.warning_counts == {"merged": 2}
    back = pickle.loads(pickle.dumps(out))
    assert [warning_kind(w) for w in back.warnings] == ["merged", "merged"]


def test_the_dask_engine_counts_the_metrics_warnings_under_their_kind(
        tmp_path: Path, no_phrases: None, capsys: pytest.CaptureFixture[str]) -> None:
    """``score --engine dask`` on a cluster of threads (the emptied phrase table is theirs
    too): the JSON counts what the single machine counts, and so does the text."""
    from distributed import LocalCluster

    texts = {"1": TEXT, "2": TEXT}
    gold = AnnotationSet("gold", {"1": (Span(0, 10, "Doubt"), Span(6, 16, "Doubt")), "2": ()},
                         "gold")
    pred = AnnotationSet("pred", {"1": (Span(0, 5, "Doubt"), Span(3, 10, "Doubt")), "2": ()},
                         "system")
    write_shards([gold], texts, tmp_path / "gold", shards=2)
    write_shards([pred], texts, tmp_path / "pred", shards=2)
    with LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster:
        argv = ["score", str(tmp_path / "gold"), str(tmp_path / "pred"), *MERGED,
                "--engine", "dask", "--scheduler", cluster.scheduler_address]
        assert _counts(argv, capsys) == {"merged": 2}
        assert main([a for a in argv if a != "--json"]) == 0
    text = capsys.readouterr().out
    assert "warnings: 2 (merged 2)" in text
    assert "warning: part-00000: 1 overlapping prediction(s) merged (--merge-pred)" in text


def test_report_and_convert_print_each_warnings_kind(
        tmp_path: Path, no_phrases: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The commands without ``--json`` say each warning's kind where the JSON would count it."""
    gold = _write(tmp_path / "gold.json", [(0, 5, "Doubt"), (0, 5, "Doubt")])
    pred = _write(tmp_path / "pred.json", [(0, 6, "Doubt")])  # ends in whitespace
    assert main(["report", str(gold), str(pred), "-o", str(tmp_path / "r.html"),
                 "--samples", "20"]) == 0
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("warning: ")]
    assert lines and all(x.startswith("warning: [") for x in lines), err
    assert any(x.startswith("warning: [duplicate-span] ") for x in lines), err
    assert any(x.startswith("warning: [whitespace] ") for x in lines), err
    assert main(["convert", str(pred), str(tmp_path / "out.csv"), "--to", "spans-csv"]) == 0
    err = capsys.readouterr().err
    assert "warning: [whitespace] " in err, err


def _grouped_docs(technique: str = "Doubt") -> list[dict[str, object]]:
    """Six SemEval-2021 records, each with a span given twice and one ending in whitespace
    (labelled ``technique``): the reader groups each kind's 6 warnings in one diagnostic."""
    return [{"id": str(i), "text": TEXT, "labels": [
        {"start": 0, "end": 5, "technique": "Doubt", "text_fragment": "alpha"},
        {"start": 0, "end": 5, "technique": "Doubt", "text_fragment": "alpha"},
        {"start": 6, "end": 11, "technique": technique, "text_fragment": "beta "}]}
        for i in range(6)]


def test_convert_to_shards_lists_every_warning_as_convert_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``convert --shards`` says each of the reader's warnings, as ``convert`` does: a reader
    groups the warnings of one kind in one diagnostic, which ``convert`` lists one by one
    (``expand_diagnostics``); ``--shards`` printed each group's first warning only, with no
    count of the others, even with ``--all-warnings`` (review17: 2 lines of 12)."""
    src = tmp_path / "dup.json"
    src.write_text(json.dumps(_grouped_docs()), encoding="utf-8")

    def warned(*extra: str, out: str) -> list[str]:
        assert main(["convert", str(src), str(tmp_path / out), "--to", "semeval2021",
                     "--all-warnings", *extra]) == 0
        return [x for x in capsys.readouterr().err.splitlines() if x.startswith("warning: ")]

    one = warned(out="one.json")
    assert len(one) == 12  # per document: a duplicate span, a span ending in whitespace
    assert warned("--shards", "2", out="shards") == one


def test_a_shard_counts_a_readers_grouped_warnings_one_by_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reader groups its warnings of one kind in one diagnostic (``count`` of them): a shard
    counts each, as ``warning_counts`` on one machine does, and lists them one by one (it
    counted and listed the group as one: 2 warnings where one machine says 12; review17)."""
    gold, pred = tmp_path / "gold.json", tmp_path / "pred.json"
    for path in (gold, pred):
        path.write_text(json.dumps(_grouped_docs()), encoding="utf-8")
    alone = _counts(["score", str(gold), str(pred), "--metric", "martino", "--json"], capsys)
    assert alone == {"duplicate-span": 12, "whitespace": 12}  # the gold's and the predictions'
    out = score_shard(ScoreJob(metric="martino", gold=str(gold), pred=str(pred),
                               all_warnings=True))
    assert out.error is None
    assert out.warning_counts == alone
    assert len(out.warnings) == sum(alone.values())
    assert out.gold_warnings == 12


def test_table_and_report_list_a_readers_grouped_warnings_one_by_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``table`` and ``report``, which list every warning on standard error, list each of a
    reader's grouped warnings (``expand``), as ``score`` counts and lists them, and ``table``'s
    text names the command's flags as its JSON does (review17: 4 lines for 24 warnings, and
    "pass labels=[...]" where ``--labels FILE`` is meant)."""
    gold, pred = tmp_path / "gold.json", tmp_path / "pred.json"
    for path in (gold, pred):  # a label outside the technique list too ("Doubt ")
        path.write_text(json.dumps(_grouped_docs("Doubt ")), encoding="utf-8")
    assert main(["table", str(gold), str(pred), "--metric", "martino", "--samples", "20"]) == 0
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("warning: ")]
    assert sum("ends in whitespace" in x for x in lines) == 12, err
    assert sum("more than once" in x for x in lines) == 12, err
    outside = [x for x in lines if "technique list" in x]
    assert len(outside) == 1 and "--labels FILE" in outside[0] and "labels=[" not in outside[0]
    assert main(["report", str(gold), str(pred), "-o", str(tmp_path / "r.html"),
                 "--samples", "20"]) == 0
    lines = [x for x in capsys.readouterr().err.splitlines() if x.startswith("warning: ")]
    assert sum(x.startswith("warning: [whitespace] ") for x in lines) == 12, lines
    assert sum(x.startswith("warning: [duplicate-span] ") for x in lines) == 12, lines


def test_table_says_the_golds_warnings_once_and_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``table`` reads the gold once per system and says each of its warnings once, in the
    order of one read: the gold's first, then each system's (the gold's came after the first
    system's; review17)."""
    def one(name: str, start: int, end: int) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps([{"id": "1", "text": TEXT, "labels": [
            {"start": start, "end": end, "technique": "Doubt",
             "text_fragment": TEXT[start:end]}]}]), encoding="utf-8")
        return path

    paths = [one("g.json", 0, 6), one("s1.json", 6, 11), one("s2.json", 11, 17)]  # a space each
    argv = ["table", *map(str, paths), "--metric", "martino", "--samples", "20"]
    assert main(argv) == 0
    said = [x for x in capsys.readouterr().err.splitlines() if x.startswith("warning: ")]
    assert [x.split(":")[1].rsplit("/", 1)[-1] for x in said] == ["g.json", "s1.json", "s2.json"]
    assert main([*argv, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["warnings"]
    assert [x.split(":")[0].rsplit("/", 1)[-1] for x in listed] == ["g.json", "s1.json",
                                                                    "s2.json"]
