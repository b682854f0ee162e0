"""``--engine dask`` (core/engines/sharded.py): a sharded corpus scored on a
``distributed.LocalCluster``
with two worker processes gives the single-machine numbers to 1e-12, for Da San Martino,
MAFALDA and character κ / Jaccard; the command line against a running cluster's address
(``--scheduler``) and with a cluster of its own; no process left behind."""

from __future__ import annotations

import contextlib
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from core.cli import main
from core.engines.sharded import pair_shards, write_shards
from core.formats import load_path
from core.metrics.martino import technique_list
from core.model import AnnotationSet, Span

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_data"
TOL = 1e-12


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """One cluster for the module: two worker processes, one thread each (2 cores)."""
    from distributed import LocalCluster

    before = _workers()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as c:
        yield c.scheduler_address
    _, alive = psutil.wait_procs(_workers() - before, timeout=10)
    assert not alive, f"worker processes left behind: {alive}"


def _workers() -> set[psutil.Process]:
    """Worker processes started by this process (multiprocessing's resource tracker, which
    ends with its parent, is not one)."""
    found = set()
    for p in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if any("spawn_main" in part for part in p.cmdline()):
                found.add(p)
    return found


def _corpus(seed: int, docs: int, sets: list[str], *, labels: list[str]
            ) -> tuple[dict[str, str | None], list[AnnotationSet]]:
    """Random texts and spans: overlaps, duplicates, empty documents, rare labels."""
    rng = random.Random(seed)
    texts: dict[str, str | None] = {}
    out: dict[str, dict[str, tuple[Span, ...]]] = {s: {} for s in sets}
    for i in range(docs):
        doc = f"doc{i:03d}"
        text = " ".join(rng.choice(["alpha", "beta", "gamma", "delta", "x"])
                        for _ in range(rng.randint(3, 30)))
        texts[doc] = text
        for name in sets:
            spans = []
            for _ in range(rng.choice([0, 0, 1, 2, 3, 5])):
                s = rng.randrange(len(text) - 1)
                e = rng.randint(s + 1, min(len(text), s + 25))
                # a few labels are rare, so that some shards never see them
                lab = rng.choice(labels[:3]) if rng.random() < 0.9 else rng.choice(labels)
                spans.append(Span(s, e, lab))
            if spans and rng.random() < 0.1:
                spans.append(spans[0])  # a duplicate counts twice in Martino
            out[name][doc] = tuple(sorted(spans))
    return texts, [AnnotationSet(n, v, "gold" if n == "gold" else "system") for n, v in
                   out.items()]


def _close(a: Any, b: Any, where: str = "") -> None:
    """Equal, floats to 1e-12 (relative for large sums)."""
    if isinstance(a, float) or isinstance(b, float):
        assert a is not None and b is not None, where
        assert math.isclose(a, b, rel_tol=TOL, abs_tol=TOL), f"{where}: {a} != {b}"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), where
        for k in a:
            _close(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(argv) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _same_numbers(sharded: dict[str, Any], single: dict[str, Any]) -> None:
    assert set(single) <= set(sharded)  # the same keys, plus "engine"
    assert sharded["engine"]["name"] == "dask"
    for key in single:
        if key not in ("warnings", "warning_counts"):
            _close(sharded[key], single[key], key)


@pytest.fixture(scope="module")
def martino_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from core.formats.tools import write_sets

    root = tmp_path_factory.mktemp("martino")
    texts, (gold, pred) = _corpus(1, 90, ["gold", "pred"], labels=technique_list("semeval2021"))
    write_sets([gold], root / "gold.json", to="semeval2021", texts=texts)
    write_sets([pred], root / "pred.json", to="semeval2021", texts=texts)
    write_shards([gold], texts, root / "gold", shards=7)
    write_shards([pred], texts, root / "pred", shards=7)
    write_shards([gold, pred], texts, root / "both", shards=5)
    return root


@pytest.mark.parametrize("variant", ["semeval2021", "nlp4if2019", "semeval2020-si"])
def test_martino_on_two_workers_equals_the_single_machine_run(
        variant: str, martino_corpus: Path, cluster: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    root = martino_corpus
    extra = ["--merge-pred"] if variant != "semeval2021" else []
    common = ["--metric", "martino", "--variant", variant, "--per-document", "--json", *extra]
    single = _json(["score", str(root / "gold.json"), str(root / "pred.json"), *common], capsys)
    sharded = _json(["score", str(root / "gold"), str(root / "pred"), *common,
                     "--engine", "dask", "--scheduler", cluster], capsys)
    _same_numbers(sharded, single)
    assert sharded["engine"]["shards"] == 7 and sharded["engine"]["workers"] == 2
    assert single["documents"] == 90
    assert bool(single["per_label_official"]) == (variant == "semeval2021")  # technique list
    # one folder whose shards hold both sets in a set column
    both = _json(["score", str(root / "both"), str(root / "both"), *common, "--engine", "dask",
                  "--scheduler", cluster, "--gold-set", "gold", "--pred-set", "pred"], capsys)
    _same_numbers(both, single)


def test_predictions_matched_by_text_score_alike_on_both_engines(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Prediction ids that never meet the gold's, texts that all do: ``score`` matches the
    documents by their text (core.engines.inputs.matched_to_gold), on one machine for the whole
    files and on Dask for each shard pair, and both give the same numbers."""
    from core.formats.tools import write_sets

    texts, (gold, pred) = _corpus(4, 50, ["gold", "pred"],
                                  labels=technique_list("semeval2021"))
    ids = {d: f"item-{len(texts) - i}" for i, d in enumerate(texts)}
    pred = AnnotationSet("pred", {ids[d]: v for d, v in pred.spans.items()}, "system")
    pred_texts = {ids[d]: t for d, t in texts.items()}
    write_sets([gold], tmp_path / "gold.json", to="semeval2021", texts=texts)
    write_sets([pred], tmp_path / "pred.json", to="semeval2021",
               texts=dict(reversed(pred_texts.items())))
    write_shards([gold], texts, tmp_path / "gold", shards=4)
    write_shards([pred], pred_texts, tmp_path / "pred", shards=4)  # in the gold's order
    common = ["--metric", "martino", "--per-document", "--json"]
    single = _json(["score", str(tmp_path / "gold.json"), str(tmp_path / "pred.json"), *common],
                   capsys)
    assert any("by their text" in w for w in single["warnings"])
    sharded = _json(["score", str(tmp_path / "gold"), str(tmp_path / "pred"), *common,
                     "--engine", "dask", "--scheduler", cluster], capsys)
    _same_numbers(sharded, single)
    assert {r["document"] for r in sharded["per_document"]} == set(texts)
    assert 0 < single["f1"] < 1
    # a text twice in the gold, in two shards: each shard pair alone would match, the whole
    # files do not (never a guess between two documents), so both engines refuse
    last = list(texts)[-1]
    texts[last] = texts["doc000"]
    gold = AnnotationSet("gold", {**gold.spans, last: ()}, "gold")
    pred = AnnotationSet("pred", {**pred.spans, ids[last]: ()}, "system")
    write_shards([gold], texts, tmp_path / "gold2", shards=4)
    write_shards([pred], {ids[d]: t for d, t in texts.items()}, tmp_path / "pred2", shards=4)
    capsys.readouterr()
    assert main(["score", str(tmp_path / "gold2"), str(tmp_path / "pred2"), *common,
                 "--engine", "dask", "--scheduler", cluster]) == 1
    assert f"gold document {last!r} shares its text with 1 other" in capsys.readouterr().err


def test_mafalda_jsonl_shards_equal_the_single_machine_run(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    gold_file = SAMPLES / "mafalda" / "gold.jsonl"
    pred_file = SAMPLES / "mafalda" / "system_a.jsonl"
    gold = load_path(gold_file)
    pred = load_path(pred_file)
    write_shards(gold.sets, gold.texts, tmp_path / "gold", shards=3, to="mafalda")
    write_shards(pred.sets, pred.texts, tmp_path / "pred", shards=3, to="mafalda")
    assert [p.name for p, _ in pair_shards(tmp_path / "gold", tmp_path / "pred")] == [
        "part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl"]
    # the same corpus as Parquet shards (gold alternatives kept in the tables' metadata)
    write_shards(gold.sets, gold.texts, tmp_path / "gold_pq", shards=4)
    write_shards(pred.sets, pred.texts, tmp_path / "pred_pq", shards=4)
    for level in ("2", "0"):
        for variant in ("paper", "metrics-py"):
            common = ["--metric", "mafalda", "--level", level, "--variant", variant,
                      "--per-document", "--json"]
            single = _json(["score", str(gold_file), str(pred_file), *common], capsys)
            for g, p in (("gold", "pred"), ("gold_pq", "pred_pq")):
                sharded = _json(["score", str(tmp_path / g), str(tmp_path / p), *common,
                                 "--engine", "dask", "--scheduler", cluster], capsys)
                _same_numbers(sharded, single)
            assert single["documents"] == len(gold.texts) > 3


def _agree_single(files: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    return _json(["agree", *files, "--measure", "char-kappa", "--measure", "char-jaccard",
                  "--per-document", "--json"], capsys)


def test_char_kappa_on_shards_equals_the_single_machine_study(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    from core.formats.tools import write_sets

    texts, sets = _corpus(7, 60, ["ann_a", "ann_b", "ann_c"], labels=list("PQRSTUVW"))
    sets = [s.with_role("annotator") for s in sets]
    files = []
    for s in sets:
        write_sets([s], tmp_path / f"{s.name}.json", to="semeval2021", texts=texts)
        files.append(str(tmp_path / f"{s.name}.json"))
        write_shards([s], texts, tmp_path / s.name, shards=6)
    write_shards(sets, texts, tmp_path / "all", shards=4)
    single = _agree_single(files, capsys)
    args = ["--measure", "char-kappa", "--measure", "char-jaccard", "--per-document", "--json",
            "--engine", "dask", "--scheduler", cluster]
    # one folder per annotator (shards paired by name), and one folder with a set column
    for inputs in ([str(tmp_path / s.name) for s in sets], [str(tmp_path / "all")]):
        sharded = _json(["agree", *inputs, *args], capsys)
        _same_numbers(sharded, single)
    # one label only (--label): the study has that label even where a shard never saw it
    for label in ("P", "W"):
        single_l = _json(["agree", *files, "--measure", "char-kappa", "--label", label,
                          "--per-document", "--json"], capsys)
        sharded_l = _json(["agree", str(tmp_path / "all"), "--measure", "char-kappa",
                           "--label", label, "--per-document", "--json", "--engine", "dask",
                           "--scheduler", cluster], capsys)
        _same_numbers(sharded_l, single_l)
    # the propaganda annotators of the samples, in one set-column folder
    names = [str(SAMPLES / "propaganda" / f"annotator_{i}.json") for i in (1, 2, 3)]
    loaded = [load_path(n) for n in names]
    write_shards([x.set.with_role("annotator") for x in loaded], loaded[0].texts,
                 tmp_path / "sample", shards=3)
    _same_numbers(_json(["agree", str(tmp_path / "sample"), *args], capsys),
                  _agree_single(names, capsys))


def test_technique_classification_by_article_on_shards(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    from core.formats.tools import write_sets

    texts, (gold,) = _corpus(3, 40, ["gold"], labels=technique_list("semeval2020-tc"))
    rng = random.Random(5)
    pred = AnnotationSet("pred", {d: tuple(sorted(
        Span(s.start, s.end, s.label if rng.random() < 0.6 else rng.choice(
            technique_list("semeval2020-tc"))) for s in v)) for d, v in gold.spans.items()},
        "system")
    for aset in (gold, pred):
        write_sets([aset], tmp_path / f"{aset.name}.json", to="semeval2021", texts=texts)
        write_shards([aset], texts, tmp_path / aset.name, shards=4)
    common = ["--metric", "martino", "--variant", "semeval2020-tc-by-article", "--json",
              "--per-document"]
    single = _json(["score", str(tmp_path / "gold.json"), str(tmp_path / "pred.json"), *common],
                   capsys)
    sharded = _json(["score", str(tmp_path / "gold"), str(tmp_path / "pred"), *common,
                     "--engine", "dask", "--scheduler", cluster], capsys)
    _same_numbers(sharded, single)
    assert single["accuracy"] == sharded["accuracy"] < 1


def test_score_starts_its_own_local_cluster_without_scheduler(
        martino_corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _workers()
    root = martino_corpus
    single = _json(["score", str(root / "gold.json"), str(root / "pred.json"), "--metric",
                    "martino", "--json"], capsys)
    sharded = _json(["score", str(root / "gold"), str(root / "pred"), "--metric", "martino",
                     "--json", "--engine", "dask", "--workers", "2"], capsys)
    _same_numbers(sharded, single)
    assert sharded["engine"]["scheduler"] == "local"
    capsys.readouterr()
    assert main(["score", str(root / "gold"), str(root / "pred"), "--metric", "martino",
                 "--engine", "dask", "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert f"{single['f1']:.6f}" in text and "engine: dask (local), 1 worker, 7 shards" in text
    assert len(sharded["engine"]["worker_peak_rss_mib"]) >= 1
    _, alive = psutil.wait_procs(_workers() - before, timeout=10)
    assert not alive


def test_shard_errors_name_file_row_and_field_and_usage_errors_exit_2(
        tmp_path: Path, martino_corpus: Path, cluster: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    root = martino_corpus
    bad = tmp_path / "pred"
    bad.mkdir()
    for f in sorted((root / "pred").iterdir()):
        (bad / f.name).write_bytes(f.read_bytes())
    pq.write_table(pa.table({"doc_id": ["doc000"], "start": [5], "end": [2], "label": ["Doubt"]}),
                   bad / "part-00000.parquet")
    capsys.readouterr()
    dask = ["--engine", "dask", "--scheduler", cluster]
    assert main(["score", str(root / "gold"), str(bad), "--metric", "martino", *dask]) == 1
    err = capsys.readouterr().err
    assert "part-00000.parquet: row 0: field 'end': expected an integer greater than start (5)" \
        in err and err.count("\n") == 1
    (bad / "part-00001.parquet").unlink()
    assert main(["score", str(root / "gold"), str(bad), "--metric", "martino", *dask]) == 1
    assert "1 only in" in capsys.readouterr().err
    assert main(["score", str(root / "gold"), str(root / "pred"), "--metric", "nervaluate",
                 *dask]) == 2
    assert main(["score", str(root / "gold.json"), str(root / "pred.json"), "--metric",
                 "martino", "--scheduler", cluster]) == 2
    assert "apply to --engine dask only" in capsys.readouterr().err
    # a prediction label outside the technique list the gold's labels select
    (bad / "part-00001.parquet").write_bytes((root / "pred" / "part-00001.parquet").read_bytes())
    pq.write_table(pa.table({"doc_id": ["doc000"], "start": [0], "end": [2],
                             "label": ["Not a technique"]}), bad / "part-00000.parquet")
    assert main(["score", str(root / "gold"), str(bad), "--metric", "martino", *dask]) == 1
    err = capsys.readouterr().err
    assert "part-00000.parquet: field 'label': expected one of the 20 labels" in err
    # a document in two shards
    dup = tmp_path / "dup"
    write_shards([load_path(root / "gold.json").set], {}, dup, shards=2)
    (dup / "part-00001.parquet").write_bytes((dup / "part-00000.parquet").read_bytes())
    assert main(["score", str(dup), str(dup), "--metric", "martino", *dask]) == 1
    assert "is in two shards" in capsys.readouterr().err


def test_mafalda_on_propaganda_parquet_shards_equals_the_single_machine_run(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/scale.md's three commands on labels outside MAFALDA's taxonomy: each shard holds a
    # few of the corpus's 18 techniques, so alone it resolves to a flat taxonomy of fewer
    # labels; the classes are the same (one per label), so are the numbers.
    gold_file = SAMPLES / "propaganda" / "gold.json"
    pred_file = SAMPLES / "propaganda" / "system_a.json"
    for src, out in ((gold_file, "gold_shards"), (pred_file, "pred_shards")):
        assert main(["convert", str(src), str(tmp_path / out), "--to", "parquet",
                     "--shards", "4"]) == 0
    common = ["--metric", "mafalda", "--json"]
    single = _json(["score", str(gold_file), str(pred_file), *common], capsys)
    sharded = _json(["score", str(tmp_path / "gold_shards"), str(tmp_path / "pred_shards"),
                     *common, "--engine", "dask", "--scheduler", cluster], capsys)
    _same_numbers(sharded, single)
    assert (round(sharded["precision"], 4), round(sharded["recall"], 4),
            round(sharded["f1"], 4)) == (1.0, 0.656, 0.7761)
    assert single["taxonomy"].startswith("labels of the data") and "18 labels" in single[
        "taxonomy"]


@pytest.mark.parametrize("sample", ["propaganda", "mafalda"])
def test_mafalda_every_level_and_variant_on_shards_equals_the_single_machine_run(
        sample: str, tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    from core.metrics import registry

    ext = "json" if sample == "propaganda" else "jsonl"
    gold_file = SAMPLES / sample / f"gold.{ext}"
    pred_file = SAMPLES / sample / f"system_a.{ext}"
    gold, pred = load_path(gold_file), load_path(pred_file)
    write_shards(gold.sets, gold.texts, tmp_path / "gold", shards=4)
    write_shards(pred.sets, pred.texts, tmp_path / "pred", shards=4)
    entry = registry.get("mafalda")
    for level in entry.levels:
        for variant in entry.variants:
            common = ["--metric", "mafalda", "--level", str(level), "--variant", variant,
                      "--per-document", "--json"]
            single = _json(["score", str(gold_file), str(pred_file), *common], capsys)
            sharded = _json(["score", str(tmp_path / "gold"), str(tmp_path / "pred"), *common,
                             "--engine", "dask", "--scheduler", cluster], capsys)
            _same_numbers(sharded, single)


def test_a_shard_of_mafalda_fallacies_in_a_corpus_of_other_labels_scores_as_one_machine(
        tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    # One shard holds two fallacies of one MAFALDA group (alone: MAFALDA's taxonomy, which
    # groups them at level 1), another a label MAFALDA does not know (the corpus: one class per
    # label). The first shard is scored again with the corpus's taxonomy, as one machine does.
    from core.formats.tools import write_sets

    texts: dict[str, str | None] = {"d0": "one two three four five six",
                                    "d1": "seven eight nine ten eleven"}
    gold = AnnotationSet("gold", {"d0": (Span(0, 3, "ad hominem"), Span(8, 13, "ad populum")),
                                  "d1": (Span(0, 5, "Doubt"),)}, "gold")
    pred = AnnotationSet("pred", {"d0": (Span(0, 3, "ad populum"), Span(8, 13, "ad hominem")),
                                  "d1": (Span(0, 5, "Doubt"),)}, "system")
    write_sets([gold], tmp_path / "gold.json", to="semeval2021", texts=texts)
    write_sets([pred], tmp_path / "pred.json", to="semeval2021", texts=texts)
    write_shards([gold], texts, tmp_path / "gold", shards=2)
    write_shards([pred], texts, tmp_path / "pred", shards=2)
    for level in ("2", "1", "0"):
        common = ["--metric", "mafalda", "--level", level, "--per-document", "--json"]
        single = _json(["score", str(tmp_path / "gold.json"), str(tmp_path / "pred.json"),
                        *common], capsys)
        sharded = _json(["score", str(tmp_path / "gold"), str(tmp_path / "pred"), *common,
                         "--engine", "dask", "--scheduler", cluster], capsys)
        _same_numbers(sharded, single)
        # the corpus's labels are mostly MAFALDA's: the fallback is said once, as one machine
        # says it, though no shard holds both kinds (review11 item 3)
        outside = [w for w in single["warnings"] if "outside the MAFALDA taxonomy" in w]
        assert outside and "'Doubt'" in outside[0]
        assert [w for w in sharded["warnings"] if "outside the MAFALDA taxonomy" in w] == outside
        # level 1: MAFALDA would put both fallacies in one group (recall 1); one class per
        # label does not
        if level == "1":
            assert single["recall"] < 1.0


def test_the_taxonomy_of_a_sharded_run_is_the_corpus_s() -> None:
    from core.engines.sharded import ShardOutcome, finish_taxonomy

    plain = ShardOutcome("a.parquet", used_labels=["ad hominem"])
    stray = ShardOutcome("b.parquet", used_labels=["ad hominem", "Loaded Language"])
    assert finish_taxonomy([plain], None)[0].startswith("MAFALDA")
    assert finish_taxonomy([stray], None)[0].startswith("labels of the data")
    assert finish_taxonomy([plain, stray], None)[0] == (
        "labels of the data: one class per label (2 labels, no grouping)")
    assert finish_taxonomy([plain], None)[1] == []
    # the warning of the corpus's strays, as one machine gives it for the whole corpus
    slip = ShardOutcome("c.parquet", used_labels=["ad populum", "ad hominen"])
    assert finish_taxonomy([plain, slip], None)[1] == [
        "labels outside the MAFALDA taxonomy ('ad hominen'): one class per label, no grouping "
        "at levels 1 and 0; pass --taxonomy FILE to group them"]
    other = ShardOutcome("d.parquet", used_labels=["Doubt", "Slogans"])
    assert finish_taxonomy([plain, other], None)[1] == []  # mostly other labels: no slip
