"""The first page's run at 100,000 documents does less (docs/performance.md, issue 29, twelfth
pass): the labels of a set counted rather than sorted (:func:`ui.set_labels.label_names`), the
workspace's document ids gathered without their order (:func:`ui.state.doc_id_set`), the same
values as before; and ``bench/bench_app.py`` times the server with the tree's bytecode
compiled once, as an installed app has it, or from source when asked (which way, not a clock).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model import AnnotationSet, Corpus, Span
from core.model.table import SpanTable
from ui import results, state
from ui.set_labels import label_names

ROOT = Path(__file__).resolve().parents[2]
LABELS = ["Doubt", "Slogans", "Flag-waving", "Loaded Language", "b", "a"]


def _sets() -> st.SearchStrategy[dict[str, tuple[Span, ...]]]:
    span = st.builds(lambda a, n, lab: Span(a, a + n, lab), st.integers(0, 50),
                     st.integers(1, 9), st.sampled_from(LABELS))
    return st.dictionaries(st.sampled_from([f"d{i}" for i in range(8)]),
                           st.lists(span, max_size=6).map(tuple), max_size=8)


@settings(max_examples=80, deadline=None)
@given(_sets())
def test_label_names_are_the_sets_labels(spans: dict[str, tuple[Span, ...]]) -> None:
    aset = AnnotationSet("g", spans)
    assert label_names(aset) == aset.labels()


def test_label_names_leave_out_a_label_no_span_keeps() -> None:
    # a table whose label list names labels of no row, in an order that is not sorted
    table = SpanTable.from_columns(["d1", "d2"], [0, 0], [0, 4], [3, 9], [3, 1],
                                   ["Unused", "Slogans", "Also unused", "Doubt"])
    part = AnnotationSet("p", table)
    assert label_names(part) == part.labels() == ["Doubt", "Slogans"]
    assert label_names(AnnotationSet("e", {"d1": ()})) == []


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


def test_the_taxonomy_and_the_colours_count_the_labels(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Neither the colours' labels nor the taxonomy sort a set's label column any more: a spy
    on :meth:`AnnotationSet.labels` sees no call, and the values are those it gives."""
    ws = _workspace()
    calls: list[str] = []
    real = AnnotationSet.labels

    def spy(self: AnnotationSet) -> list[str]:
        calls.append(self.name)
        return real(self)

    expected = sorted({*real(ws.sets["gold"]), *real(ws.sets["pred"])})
    monkeypatch.setattr(AnnotationSet, "labels", spy)
    assert state.all_labels.__wrapped__(ws.key, ws) == expected  # type: ignore[attr-defined]
    tax = results._taxonomy.__wrapped__(ws.key, ws, ("gold", "pred"))  # type: ignore[attr-defined]
    assert calls == []
    from core.model.taxonomy import resolve

    assert tax == resolve(lab for name in ("gold", "pred") for lab in real(ws.sets[name]))


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
