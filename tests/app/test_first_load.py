"""The first page's run at 100,000 documents does less (docs/performance.md, issue 29, twelfth
pass): the labels of a set counted rather than sorted, once per set
(:attr:`core.model.table.SpanTable.sorted_labels`, behind :meth:`AnnotationSet.labels` since
the thirteenth pass, so the command line counts them too), the workspace's document ids
gathered without their order (:func:`ui.state.doc_id_set`), the same values as before; and
``bench/bench_app.py`` times the server with the tree's bytecode compiled once, as an
installed app has it, or from source when asked (which way, not a clock).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model import AnnotationSet, Corpus, Span
from core.model import table as table_module
from core.model.table import SpanTable
from ui import results, state

ROOT = Path(__file__).resolve().parents[2]
LABELS = ["Doubt", "Slogans", "Flag-waving", "Loaded Language", "b", "a"]


def _sets() -> st.SearchStrategy[dict[str, tuple[Span, ...]]]:
    span = st.builds(lambda a, n, lab: Span(a, a + n, lab), st.integers(0, 50),
                     st.integers(1, 9), st.sampled_from(LABELS))
    return st.dictionaries(st.sampled_from([f"d{i}" for i in range(8)]),
                           st.lists(span, max_size=6).map(tuple), max_size=8)


@settings(max_examples=80, deadline=None)
@given(_sets())
def test_the_labels_are_the_sorted_labels_of_the_spans(spans: dict[str, tuple[Span, ...]]
                                                       ) -> None:
    aset = AnnotationSet("g", spans)
    expected = sorted({s.label for items in spans.values() for s in items})
    assert aset.labels() == expected == sorted(aset.table.used_labels())
    assert aset.labels() == expected  # the kept count gives the same list again


def test_the_labels_leave_out_a_label_no_span_keeps() -> None:
    # a table whose label list names labels of no row, in an order that is not sorted
    table = SpanTable.from_columns(["d1", "d2"], [0, 0], [0, 4], [3, 9], [3, 1],
                                   ["Unused", "Slogans", "Also unused", "Doubt"])
    part = AnnotationSet("p", table)
    assert part.labels() == ["Doubt", "Slogans"]
    assert AnnotationSet("e", {"d1": ()}).labels() == []


def test_a_caller_changing_the_labels_list_leaves_the_set_alone() -> None:
    aset = AnnotationSet("g", {"d1": (Span(0, 3, "Doubt"),)})
    aset.labels().append("Slogans")
    assert aset.labels() == ["Doubt"]


def test_the_kept_count_travels_with_a_pickled_set_and_leaves_equality_alone() -> None:
    import pickle

    aset = AnnotationSet("g", {"d1": (Span(0, 3, "Doubt"), Span(4, 6, "Slogans"))})
    fresh = AnnotationSet("g", {"d1": (Span(0, 3, "Doubt"), Span(4, 6, "Slogans"))})
    assert aset.labels() == ["Doubt", "Slogans"]
    back = pickle.loads(pickle.dumps(aset))
    assert back == aset == fresh and back.labels() == ["Doubt", "Slogans"]


def _workspace() -> state.Workspace:
    gold = AnnotationSet("gold", {"d1": (Span(0, 3, "Doubt"),), "d2": ()}, "gold")
    pred = AnnotationSet("pred", {"d2": (Span(0, 2, "Slogans"),), "d9": ()}, "system")
    corpus = Corpus({"d1": "abc def", "d2": "xy", "d3": "only a text"},
                    {"gold": gold, "pred": pred})
    return state.Workspace("first-load-test", "t", corpus)


def test_doc_id_set_is_the_corpus_ids() -> None:
    ws = _workspace()
    ids = state.doc_id_set.__wrapped__(ws.key, ws)  # type: ignore[attr-defined]
    assert ids == frozenset(ws.corpus.doc_ids) == {"d1", "d2", "d3", "d9"}


def test_the_first_run_counts_each_sets_labels_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The colours' labels (:func:`ui.state.all_labels`), the taxonomy, its note and the level
    map all ask for the sets' labels: a spy on the count behind :meth:`AnnotationSet.labels`
    sees one count per set, and the values are those of the spans."""
    ws = _workspace()
    counted: list[int] = []
    real = SpanTable.__dict__["sorted_labels"].func

    def spy(self: SpanTable) -> tuple[str, ...]:
        counted.append(id(self))
        return real(self)

    kept = table_module.cached_property(spy)
    kept.__set_name__(SpanTable, "sorted_labels")
    monkeypatch.setattr(SpanTable, "sorted_labels", kept)
    assert state.all_labels.__wrapped__(ws.key, ws) == ["Doubt", "Slogans"]  # type: ignore[attr-defined]
    tax = results._taxonomy.__wrapped__(ws.key, ws, ("gold", "pred"))  # type: ignore[attr-defined]
    results.taxonomy_note(ws, "gold", ["pred"])
    results.level_label_map(ws, "gold", "pred", 0)
    assert sorted(counted) == sorted(id(ws.sets[n].table) for n in ("gold", "pred"))
    from core.model.taxonomy import resolve

    assert tax == resolve(["Doubt", "Slogans"])


@pytest.fixture()
def bench_app(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    monkeypatch.delitem(sys.modules, "bench_app", raising=False)
    return importlib.import_module("bench_app")


def _tree(tmp_path: Path) -> Path:
    for part in ("core", "ui", "pages"):
        (tmp_path / part).mkdir()
        (tmp_path / part / "mod.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "app.py").write_text("Y = 2\n", encoding="utf-8")
    return tmp_path


def test_the_bench_compiles_the_trees_bytecode_once(tmp_path: Path, bench_app) -> None:  # type: ignore[no-untyped-def]
    tree = _tree(tmp_path)
    said = bench_app.prepare_bytecode(tree, "compiled")
    assert said == bench_app.BYTECODE["compiled"]
    for part in ("core", "ui", "pages"):
        assert list((tree / part / "__pycache__").glob("mod.*.pyc"))
    assert list((tree / "__pycache__").glob("app.*.pyc"))


def test_the_bench_measures_from_source_when_asked(tmp_path: Path, bench_app) -> None:  # type: ignore[no-untyped-def]
    tree = _tree(tmp_path)
    bench_app.prepare_bytecode(tree, "compiled")
    said = bench_app.prepare_bytecode(tree, "source")
    assert said == bench_app.BYTECODE["source"]
    assert not list(tree.rglob("__pycache__"))
    assert (tree / "core" / "mod.py").exists()  # the sources stay


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([f"d{i}" for i in range(9)]), unique=True),
       st.lists(st.lists(st.sampled_from([f"d{i}" for i in range(12)]), unique=True),
                max_size=3))
def test_the_corpus_ids_keep_the_first_seen_order(texts: list[str], sets: list[list[str]]
                                                  ) -> None:
    corpus = Corpus(dict.fromkeys(texts, "t"),
                    {f"s{k}": AnnotationSet(f"s{k}", dict.fromkeys(ids, ()))
                     for k, ids in enumerate(sets)})
    expected: dict[str, None] = dict.fromkeys(texts)
    for ids in sets:
        for d in ids:
            expected.setdefault(d)
    assert corpus.doc_ids == list(expected)


def test_the_server_skips_streamlits_check_for_a_run_outside_streamlit_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m ui.serve`` is ``streamlit run``: the check that would find out with
    ``inspect.stack()`` (in the first page's run) is marked done before the server starts, so
    the first element drawn does not call it."""
    from streamlit import delta_generator, env_util
    from streamlit.web import cli

    from ui import serve

    monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
    monkeypatch.delenv(serve.DATA_ENV, raising=False)
    monkeypatch.setattr(serve, "lean_memory", lambda: None)
    started: list[str] = []
    monkeypatch.setattr(cli, "main", lambda prog_name: started.append(prog_name))
    serve.main()
    assert started == ["streamlit"]
    assert delta_generator._use_warning_has_been_displayed is True
    asked: list[bool] = []

    def is_repl() -> bool:
        asked.append(True)
        return False

    monkeypatch.setattr(env_util, "is_repl", is_repl)
    delta_generator._maybe_print_use_warning()
    assert asked == []
    # without the skip, the first element asks
    monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
    delta_generator._maybe_print_use_warning()
    assert asked == [True]


def test_the_read_collects_its_young_garbage_then_freezes(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``--data`` read runs with the collector off, so what it leaves unreachable is young:
    the collection before ``gc.freeze`` is of the young generations, not a full one, and a
    cycle the read drops is freed by it."""
    import gc
    import weakref

    from ui import cli_data

    gold = tmp_path / "gold.json"
    gold.write_text('[{"id": "d1", "text": "Vote no.", "labels": '
                    '[{"start": 0, "end": 4, "technique": "Slogans"}]}]', encoding="utf-8")
    calls: list[tuple[str, int]] = []
    real_collect = gc.collect
    dropped: list[weakref.ref[object]] = []

    class Node:
        pass

    def read_reports(args: tuple[cli_data.DataArg, ...], *more: Any, **options: Any
                     ) -> list[state.FileReport]:
        cycle = Node()
        cycle.me = cycle  # type: ignore[attr-defined]  # garbage only a collection frees
        dropped.append(weakref.ref(cycle))
        return real_read(args, *more, **options)

    real_read = cli_data.read_reports
    monkeypatch.setattr(cli_data, "read_reports", read_reports)
    def collect(generation: int = 2) -> int:
        calls.append(("collect", generation))
        return real_collect(generation)

    def freeze() -> None:
        calls.append(("freeze", -1))

    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(gc, "freeze", freeze)
    args = (cli_data.DataArg("gold", str(gold)),)
    ws = cli_data._load.__wrapped__("young-garbage-test", args)  # type: ignore[attr-defined]
    assert calls == [("collect", 1), ("freeze", -1)]
    assert dropped and dropped[0]() is None
    assert list(ws.sets) and ws.corpus.texts == {"d1": "Vote no."}
