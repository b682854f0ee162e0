"""Annotators page: it runs on every kind of start, and every number it shows is the one
core.metrics.agreement computes (matrix cells, many-annotator values, γ with its seed and
samples, each annotator against the gold and the majority, the document ranking); lanes are one
per annotator and escaped; injected selections drive the drawing and the link."""

from __future__ import annotations

import html
import json
import re
import threading
import time
import uuid
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from core.metrics.agreement import (
    Study,
    against,
    against_majority,
    fleiss_text,
    gamma,
    krippendorff_text,
    pairwise,
    rank_documents,
    unitizing,
)
from core.model import AnnotationSet
from tests.app.conftest import annotator_tiles
from ui import annotators as ann
from ui import sidebar, state
from ui.escape import md

PAGE = "pages/annotators.py"
APP = Path(__file__).resolve().parents[2] / "app.py"


def _html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT)


def _figures(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(e.proto.spec) for e in at.get("plotly_chart")]


def _matrix(at: AppTest) -> str:
    """The pairwise matrix's HTML table (ui.annotators.matrix_html); '' when none is drawn."""
    return next((h.proto.body for h in at.html if 'class="ann-matrix"' in h.proto.body), "")


def _title(at: AppTest) -> str:
    """The title of the matrix (its table's caption)."""
    found = re.search(r"<caption>(.*?)</caption>", _matrix(at))
    return html.unescape(found.group(1)) if found else ""


def _cells(at: AppTest) -> list[list[str]]:
    """The attributes and text of each cell of the matrix, row by row (`<td ...>text`)."""
    body = _matrix(at).split("<tbody>", 1)[1]
    return [re.findall(r"<td([^>]*)>([^<]*)</td>", row)
            for row in re.findall(r"<tr>(.*?)</tr>", body)]


def _heatmap_z(at: AppTest) -> list[list[float | None]]:
    """The matrix's values (``data-value``, the full float), None for an undefined cell."""
    return [[float(m.group(1)) if (m := re.search(r'data-value="([^"]+)"', attrs)) else None
             for attrs, _ in row] for row in _cells(at)]


def _metric(at: AppTest, label: str) -> str:
    """The value of the many-annotator tile ``label``."""
    return annotator_tiles(at)[label][0]


def _custom_app(sets: list[AnnotationSet], texts: dict[str, str | None],
                params: dict[str, Any] | None = None) -> AppTest:
    """The app on a workspace of ``sets`` (injected as an upload), on this page."""
    report = state.FileReport("custom.json", "test", "gold", "custom", texts, tuple(sets))
    ws = state.build_workspace([report], key=f"test:custom:{uuid.uuid4().hex}", title="custom",
                               shareable=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    return at.switch_page(PAGE).run()


def _wait_for_gamma(at: AppTest, timeout: float = 90) -> AppTest:
    """Rerun until the background γ is shown (AppTest does not run the polling fragment)."""
    deadline = time.time() + timeout
    while _metric(at, "γ") == "…":
        assert time.time() < deadline, "γ did not finish"
        time.sleep(0.3)
        at.run()
    return at

def _wait_for_matrix(at: AppTest, timeout: float = 120) -> AppTest:
    """Rerun until the matrix's values replace its "computing every pair" placeholder."""
    deadline = time.time() + timeout
    while "computing every pair" in _title(at):
        assert time.time() < deadline
        time.sleep(0.3)
        at.run()
    return at


def _tab(at: AppTest, tab: int) -> AppTest:
    """Open the page's tab ``ann.TABS[tab]`` (lazy tabs: only the open one is drawn)."""
    at.session_state[ann.K_ANN_TAB] = ann.TABS[tab]
    return at.run()


def _values_table(at: AppTest) -> AppTest:
    """Open the lazy expander with the table of the sets-together values."""
    at.session_state[ann.K_ANN_MORE] = True
    return at.run()


def _ws(at: AppTest):  # -> state.Workspace
    if at.session_state[state.K_SOURCE] == "upload":
        return at.session_state[state.K_UPLOAD_WS]
    return state.load_sample(state.DEFAULT_SAMPLE)


# ---- starts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", ["handmade", "sample"])
def test_page_runs_without_exception(make_app, data: str) -> None:
    at = make_app(PAGE, data=data)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "👥 Annotators"
    # Lazy tabs: the first draws the matrix and the tiles only; the bars and the ranking, the
    # lanes and the alignment wait for their tabs (issue 29, target 5).
    # The matrix is a table; its chart waits in a closed lazy expander (tenth pass).
    assert _title(at) == "char-kappa, every pair"
    assert not _figures(at)
    assert list(annotator_tiles(at)) == [ann.TILE_NAMES[n] for n in ann.MANY_NAMES]
    assert not [d for d in at.dataframe if d.key == ann.K_ANN_RANK_TABLE]
    at = _tab(at, 1)
    assert not at.exception, [e.value for e in at.exception]
    assert [f["layout"]["title"]["text"] for f in _figures(at)] == ["char-kappa of each annotator"]
    assert not annotator_tiles(at)
    at = _tab(at, 2)
    assert not at.exception, [e.value for e in at.exception]
    assert at.dataframe(key=ann.K_ANN_RANK_TABLE).value is not None
    assert 'id="lane-majority"' in _html(at)


def test_empty_start_points_to_the_data_page(make_app) -> None:
    at = make_app(PAGE, data="empty")
    assert not at.exception
    assert any("at least two annotation sets" in i.value for i in at.info)
    assert any("data" in str(p.proto.page).lower() for p in at.main.get("page_link"))


def test_fewer_than_two_chosen_sets_gives_the_info_message(make_app) -> None:
    at = make_app(PAGE, params={ann.K_ANN_SETS: "gold"})
    assert not at.exception
    assert at.multiselect(key=ann.K_ANN_SETS).value == ["gold"]
    assert any("Pick at least two annotation sets" in i.value for i in at.info)
    assert not at.get("plotly_chart")


def test_a_single_loaded_set_gives_the_info_message(handmade) -> None:
    texts, sets = handmade
    at = _custom_app(sets[:1], texts)
    assert not at.exception
    assert any("at least two annotation sets" in i.value for i in at.info)


def test_the_sample_defaults_to_its_annotators_and_its_gold(make_app) -> None:
    at = make_app(PAGE, data="sample")
    assert at.multiselect(key=ann.K_ANN_SETS).value == [
        "annotator_1", "annotator_2", "annotator_3"]
    assert at.selectbox(key=ann.K_ANN_GOLD).value == "gold"
    assert at.selectbox(key=ann.K_ANN_MEASURE).value == "char-kappa"


# ---- numbers equal core -------------------------------------------------------------------------


def test_matrix_cells_are_the_pairwise_values_core_computes(make_app, handmade) -> None:
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "span-f1", ann.K_ANN_CELL: "recall"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key=ann.K_ANN_CELL).value == "recall"
    texts, sets = handmade
    expected = pairwise(Study.from_sets(sets, texts), "span-f1").matrix("recall")
    names = [s.name for s in sets]
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    # how to read the cells: a sentence of the table's element, not a caption element
    assert '<p class="ann-note">Row = reference' in _matrix(at)
    assert not any("Row = reference" in c.value for c in at.caption)


def test_many_annotator_values_are_core_values(make_app, handmade, frame) -> None:
    at = _values_table(_wait_for_gamma(make_app(PAGE)))
    texts, sets = handmade
    s = Study.from_sets(sets, texts)
    shown = frame(at, "measure", "value", "± 2 sd").set_index("measure")["value"]
    assert shown["fleiss-kappa"] == pytest.approx(fleiss_text(s).overall.value)
    assert shown["krippendorff-alpha"] == pytest.approx(krippendorff_text(s).overall.value)
    assert shown["unitizing-alpha"] == pytest.approx(unitizing(s).overall.value)
    assert shown["gamma"] == pytest.approx(gamma(s, samples=30, seed=0).overall.value)
    assert _metric(at, "Fleiss' κ") == f"{fleiss_text(s).overall.value:.3f}"


def test_gamma_finishes_and_shows_its_seed_and_sample_count(make_app, handmade, frame) -> None:
    at = make_app(PAGE, params={ann.K_ANN_SEED: "3", ann.K_ANN_SAMPLES: "7"})
    at = _wait_for_gamma(at)
    texts, sets = handmade
    s = Study.from_sets(sets, texts)
    g = gamma(s, samples=7, seed=3)
    assert _metric(at, "γ") == f"{g.overall.value:.3f}"
    sd = 2 * g.overall.stats["gamma_mc_sd"]
    assert annotator_tiles(at)["γ"][2][0] == f"± {sd:.3f} · 7 samples · seed 3"
    row = frame(_values_table(at), "measure", "samples", "seed").set_index("measure").loc["gamma"]
    assert (row["samples"], row["seed"]) == (7, 3)


def test_gamma_measure_matrix_comes_from_the_background_job(make_app, handmade) -> None:
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "gamma", ann.K_ANN_SAMPLES: "5"})
    deadline = time.time() + 120
    while not _title(at).startswith("gamma ("):
        assert time.time() < deadline
        time.sleep(0.3)
        at.run()
    assert not at.exception
    texts, sets = handmade
    expected = pairwise(Study.from_sets(sets, texts), "gamma", samples=5, seed=0).matrix()
    names = [s.name for s in sets]
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    assert "5 samples, seed 0" in _title(at)


def test_each_annotator_against_gold_and_majority_is_core(make_app, handmade, frame) -> None:
    at = _tab(make_app(PAGE, params={ann.K_ANN_MEASURE: "span-f1"}), 1)
    texts, sets = handmade
    gold, others = sets[0], sets[1:]
    vs_gold = against(Study.from_sets([gold, *others], texts), "gold", measure="span-f1")
    vs_maj = against_majority(sets, texts, measure="span-f1")
    table = frame(at, "annotator", "against", "P", "R", "F1")
    for _, row in table.iterrows():
        pv = (vs_gold if row["against"] == "gold" else vs_maj)[row["annotator"]]
        assert row["P"] == pytest.approx(pv.extra["precision"].value)
        assert row["R"] == pytest.approx(pv.extra["recall"].value)
        assert row["F1"] == pytest.approx(pv.overall.value)
    assert sorted(table[table["against"] == "gold"]["annotator"]) == ["system_a", "system_b"]
    assert len(table[table["against"] == "majority"]) == 3


def test_leave_one_out_majority_is_core(make_app, handmade, frame) -> None:
    at = _tab(make_app(PAGE, params={ann.K_ANN_MEASURE: "char-jaccard", ann.K_ANN_LOO: "true"}),
             1)
    assert at.toggle(key=ann.K_ANN_LOO).value is True
    texts, sets = handmade
    vs_maj = against_majority(sets, texts, measure="char-jaccard", leave_one_out=True)
    table = frame(at, "annotator", "against", "char-jaccard")
    maj = table[table["against"] == "majority"].set_index("annotator")["char-jaccard"]
    for name, pv in vs_maj.items():
        assert maj[name] == pytest.approx(pv.overall.value)


def test_ranking_is_core_rank_documents(make_app, handmade, frame) -> None:
    at = _tab(make_app(PAGE, params={ann.K_ANN_MEASURE: "char-kappa"}), 2)
    texts, sets = handmade
    rows = rank_documents(pairwise(Study.from_sets(sets, texts), "char-kappa"))
    table = frame(at, "rank", "document", "char-kappa", "least agreeing pair")
    assert list(table["document"]) == [r.doc for r in rows]
    assert list(table["char-kappa"]) == pytest.approx([r.value for r in rows])


def test_label_filter_reaches_every_measure(make_app, handmade, frame) -> None:
    at = _values_table(make_app(PAGE, params={ann.K_ANN_LABEL: "Fear"}))
    assert at.selectbox(key=ann.K_ANN_LABEL).value == "Fear"
    texts, sets = handmade
    s = Study.from_sets(sets, texts, label="Fear")
    shown = frame(at, "measure", "value", "± 2 sd").set_index("measure")["value"]
    assert shown["fleiss-kappa"] == pytest.approx(fleiss_text(s).overall.value)
    at = _tab(at, 2)
    assert "Loaded" not in _html(at).split('class="ss-legend"')[1].split("</div>")[0]


def test_undefined_cells_show_their_reason(handmade, frame) -> None:
    texts, sets = handmade
    empty = {d: () for d in texts}
    blank = [AnnotationSet("e1", empty, "annotator"), AnnotationSet("e2", empty, "annotator")]
    at = _custom_app([sets[0], *blank], texts, {ann.K_ANN_SETS: ["e1", "e2", "gold"]})
    assert not at.exception, [e.value for e in at.exception]
    why = frame(at, "pair", "undefined because")
    assert list(why["pair"]) == ["e1 · e2"]
    assert "neither annotator marked it" in why["undefined because"].iloc[0]
    attrs, text = _cells(at)[0][1]  # e1 · e2
    assert text == "n/a" and "background:#eeeeee" in attrs  # grey, and written n/a
    assert "neither annotator marked it" in html.unescape(attrs)  # the reason on hover


# ---- lanes, selection, links --------------------------------------------------------------------


def test_one_lane_per_annotator_plus_gold_and_majority(make_app) -> None:
    at = make_app(PAGE, data="sample", params={ann.K_ANN_DOC: "4"})
    assert at.selectbox(key=ann.K_ANN_DOC).value == "4"
    body = _html(at)
    for dom_id in ("lane-gold", "lane-0", "lane-1", "lane-2", "lane-majority"):
        assert f'id="{dom_id}"' in body
    assert 'id="lane-3"' not in body
    names = [m.value for m in at.markdown if m.value.startswith("**")]
    assert [n.split("**")[1].replace("\\", "") for n in names[:5]] == [
        "gold", "annotator_1", "annotator_2", "annotator_3", "majority"]


def test_markup_in_text_and_labels_stays_text_in_the_lanes(make_app) -> None:
    at = make_app(PAGE, params={ann.K_ANN_DOC: "doc10"})
    body = _html(at)
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in body
    assert "<script" not in body and "<img" not in body
    assert "&lt;b&gt;bold&lt;/b&gt;" in body


@pytest.mark.slow
def test_a_picked_ranking_row_draws_that_document_and_links_to_documents(make_app) -> None:
    at = _tab(make_app(PAGE, params={ann.K_ANN_MEASURE: "char-kappa"}), 2)
    at.session_state[ann.K_ANN_RANK_TABLE] = {
        "selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    ws = _ws(at)
    sets = [ws.sets[n] for n in ("gold", "system_a", "system_b")]
    top = rank_documents(pairwise(Study.from_sets(sets, ws.corpus.texts), "char-kappa"))[0]
    assert at.selectbox(key=ann.K_ANN_DOC).value == top.doc
    links = [p.proto for p in at.main.get("page_link")]
    link = next(p for p in links if "documents" in p.page)
    shown = link.label.replace("\\", "")  # set names are shown Markdown-escaped
    assert f"Open {top.doc} on the Documents page: {top.pair[0]} vs {top.pair[1]}" in shown
    assert f"doc={top.doc}" in link.query_string
    assert f"a={top.pair[0]}" in link.query_string and f"b={top.pair[1]}" in link.query_string


def test_a_document_some_set_does_not_list_gets_its_own_gamma(handmade) -> None:
    from core.metrics.agreement import gamma_alignment

    texts, sets = handmade
    # system_b does not list doc10: its γ is computed for the two sets that do.
    at = _custom_app(sets, texts, {ann.K_ANN_DOC: "doc10", ann.K_ANN_SAMPLES: "9"})
    al = gamma_alignment(Study.from_sets(sets, texts), "doc10", samples=9, seed=0)
    assert any(f"γ of this document = {al['gamma']['value']:.3f} (9 samples" in c.value
               for c in at.caption)
    assert any("does not list this document" in m.value for m in at.markdown)


def test_alignment_of_the_document_is_core_gamma_alignment(make_app, handmade, frame) -> None:
    from core.metrics.agreement import gamma_alignment

    at = make_app(PAGE, params={ann.K_ANN_DOC: "doc1"})  # a link to a document: its tab
    assert at.session_state[ann.K_ANN_TAB] == ann.TABS[2]
    at = _tab(_wait_for_gamma(_tab(at, 0)), 2)
    texts, sets = handmade
    # The document's γ comes from the corpus γ's breakdown: the value gamma_alignment gives.
    al = gamma_alignment(Study.from_sets(sets, texts), "doc1", samples=30, seed=0)
    table = frame(at, "#", "disorder")
    assert list(table["disorder"]) == pytest.approx([r["disorder"] for r in al["alignments"]])
    assert any(f"γ of this document = {al['gamma']['value']:.3f} (30 samples, seed 0" in c.value
               for c in at.caption)


def test_the_per_label_table_says_what_gamma_k_is(make_app) -> None:
    """Tour 17: the per-label table's last column, "γ-k", was named nowhere on the page (the
    tiles say γ and γ-cat); a caption says what each column measures for one label."""
    at = _values_table(_wait_for_gamma(make_app(PAGE, data="sample")))
    assert not at.exception, [e.value for e in at.exception]
    table = next(d.value for d in at.dataframe if "γ-k" in d.value.columns)
    assert list(table.columns) == ["label", "Fleiss' κ", "Krippendorff's α", "unitizing α_U",
                                   "γ-k", "undefined"]  # the reasons below it
    (note,) = [c.value for c in at.caption if c.value.startswith("Each label alone")]
    assert "γ-k: γ-cat of this label's units" in note and "Mathet 2018" in note


def test_the_alignment_names_its_document_as_a_document(make_app) -> None:
    """Tour 17: "γ alignment of 10" on the sample read as ten of something; the heading and the
    chart's title say "document 10"."""
    at = make_app(PAGE, data="sample", params={ann.K_ANN_DOC: "10"})
    at = _tab(_wait_for_gamma(_tab(at, 0)), 2)
    assert not at.exception, [e.value for e in at.exception]
    assert any(m.value == "**γ alignment of document 10**" for m in at.markdown)
    (chart,) = [f for f in _figures(at) if "alignment" in str(f.get("layout", {}).get("title"))]
    assert "Best alignment of document 10" in str(chart["layout"]["title"])


# ---- background jobs ----------------------------------------------------------------------------


def test_jobs_a_run_no_longer_shows_are_cancelled_unless_started(handmade) -> None:
    from concurrent.futures import Future

    from ui import annotators as ann

    memory: dict[str, Any] = {}
    old, new = ann.Job("old"), ann.Job("new")
    old.future, new.future = Future(), Future()
    ann.shown([old], memory=memory)
    ann.shown([new, None], memory=memory)
    assert old.future.cancelled() and not new.future.cancelled()
    assert not old.done()  # a cancelled job is not "done": the page would wait for it
    started = ann.Job("started")
    started.future = Future()
    started.future.set_running_or_notify_cancel()
    ann.shown([started], memory=memory)
    ann.shown([new], memory=memory)
    assert not started.future.cancelled()
    # Asked for again, a cancelled job is queued again and finishes with core's value.
    texts, sets = handmade
    s = Study.from_sets(sets, texts)
    job = ann.Job("γ", "gamma", {"study": s, "samples": 3, "seed": 1})
    job.future = Future()
    job.future.cancel()
    ann.shown([job], memory=memory)
    assert job.future.result(timeout=120)["gamma"].overall.value == pytest.approx(
        gamma(s, samples=3, seed=1).overall.value)
    assert job.done() and job.error() is None


def test_on_a_large_corpus_gamma_waits_for_its_toggle(make_app, handmade,
                                                      monkeypatch) -> None:
    from ui import annotators as ann

    texts, sets = handmade
    monkeypatch.setattr(ann, "GAMMA_AUTO_DOCS", len(texts) - 1)  # the hand-made corpus is "large"
    at = make_app(PAGE, params={ann.K_ANN_SAMPLES: "4", ann.K_ANN_SEED: "11"})
    assert not at.exception, [e.value for e in at.exception]
    assert _metric(at, "γ") == "off" and _metric(at, "γ-cat") == "off"
    s = Study.from_sets(sets, texts)
    assert _metric(at, "Fleiss' κ") == f"{fleiss_text(s).overall.value:.3f}"  # the others stay
    assert "γ of this document = " in " ".join(c.value for c in _tab(at, 2).caption)
    at = _tab(at, 0)
    at.toggle(key=ann.K_ANN_GAMMA_ON).set_value(True).run()
    at = _wait_for_gamma(at)
    assert _metric(at, "γ") == f"{gamma(s, samples=4, seed=11).overall.value:.3f}"


def test_a_small_corpus_computes_gamma_without_a_toggle(make_app) -> None:
    at = make_app(PAGE)
    assert not [t for t in at.toggle if t.key == ann.K_ANN_GAMMA_ON]
    assert _metric(at, "γ") != "off"


def test_on_a_large_corpus_the_measures_come_from_the_background(make_app, handmade,
                                                                 monkeypatch) -> None:
    texts, sets = handmade
    monkeypatch.setattr(ann, "BACKGROUND_DOCS", len(texts) - 1)  # the hand-made corpus is "large"
    monkeypatch.setattr(ann, "GAMMA_AUTO_DOCS", len(texts) - 1)  # γ off: the other measures only
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "char-jaccard"})
    assert not at.exception, [e.value for e in at.exception]
    deadline = time.time() + 120
    while _metric(at, "Fleiss' κ") == "…" or "every pair…" in _title(at):
        assert time.time() < deadline, "the measures did not finish"
        time.sleep(0.3)
        at.run()
    s = Study.from_sets(sets, texts)
    assert _metric(at, "Fleiss' κ") == f"{fleiss_text(s).overall.value:.3f}"
    assert _metric(at, "Kripp. α") == f"{krippendorff_text(s).overall.value:.3f}"
    expected = pairwise(s, "char-jaccard").matrix()
    names = [a.name for a in sets]
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]


def test_the_majority_lane_of_one_document_is_the_corpus_majority_there(handmade) -> None:
    from core.metrics.agreement import majority_set

    texts, sets = handmade
    report = state.FileReport("custom.json", "test", "gold", "custom", texts, tuple(sets))
    ws = state.build_workspace([report], key="test:majority", title="custom", shareable=False)
    names = tuple(a.name for a in sets)
    corpus = majority_set(sets)
    for doc in texts:
        one = ann.document_majority(ws.key, ws, names, None, doc)
        assert one.get(doc) == corpus.get(doc)
        assert (doc in one.spans) == (doc in corpus.spans)


def test_the_majority_lane_is_computed_once_for_every_measure_of_the_majority_set(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    # fixrev14b item 8: the measure was part of the lane's cache key, so each measure of the
    # same majority (char-kappa, span-f1, ...) computed and kept its own copy of the lane
    calls: list[str] = []
    real = ann.majority_set

    def counted(sets, **kwargs):  # type: ignore[no-untyped-def]
        calls.append("majority")
        return real(sets, **kwargs)

    monkeypatch.setattr(ann, "majority_set", counted)
    ann.document_majority.clear()
    at = _tab(make_app(PAGE), 2)
    assert not at.exception, [e.value for e in at.exception]
    assert 'id="lane-majority"' in _html(at) and calls == ["majority"]
    for measure in ("span-f1", "text-kappa", "char-kappa"):
        at.selectbox(key=ann.K_ANN_MEASURE).set_value(measure).run()
        assert not at.exception, [e.value for e in at.exception]
        assert 'id="lane-majority"' in _html(at)
    assert calls == ["majority"]


def _duplicate_spans(n: int) -> tuple[dict[str, str | None], AnnotationSet, AnnotationSet]:
    """``n`` texts, annotator ``a`` with one span twice in each (a warning per text), ``b``
    with it once."""
    from core.model import Span

    texts: dict[str, str | None] = {f"d{i}": "some words here" for i in range(n)}
    dup = AnnotationSet("a", {d: (Span(0, 4, "x"), Span(0, 4, "x")) for d in texts},
                        role="annotator")
    other = AnnotationSet("b", {d: (Span(0, 4, "x"),) for d in texts}, role="annotator")
    return texts, dup, other


def test_many_warnings_show_the_first_and_list_the_rest_when_asked(frame) -> None:

    texts, dup, other = _duplicate_spans(8)
    at = _custom_app([dup, other], texts)
    assert not at.exception, [e.value for e in at.exception]
    warnings = Study.from_sets([dup, other], texts, **ann.DUPLICATES_COUNTED).warnings
    assert len(warnings) == 8
    shown = [c.value for c in at.caption if c.value.startswith("⚠️") and "duplicate" in c.value]
    assert shown == [f"⚠️ {md(w)}" for w in warnings[:ann.WARNINGS_FIRST]]
    # The others in a closed expander whose table is not drawn until it is opened (a grid
    # costs the browser some 25 ms per visit, closed or not)
    labels = [e.label for e in at.expander]
    assert f"⚠️ {8 - ann.WARNINGS_FIRST} more warnings" in labels
    assert not any("warning" in df.value.columns for df in at.dataframe)
    at.session_state[f"{ann.K_ANN_WARNINGS}_kept"] = True  # what its on_change keeps
    at.run()
    assert list(frame(at, "warning")["warning"]) == warnings[ann.WARNINGS_FIRST:]


def test_the_duplicate_warning_says_what_each_measure_does_with_it() -> None:
    # bugleft15 item 3: the page's warning pointed to --unit-set for every measure, though
    # exact-f1, which the page offers, counts a duplicate once whatever the option;
    # fixrev14b item 3: it said every other measure kept two units (char-kappa, text-kappa,
    # ... give the same values) and pointed to --unit-set, which the page lacks
    texts, dup, other = _duplicate_spans(1)
    at = _custom_app([dup, other], texts)
    assert not at.exception, [e.value for e in at.exception]
    shown = [c.value for c in at.caption if c.value.startswith("⚠️") and "duplicate" in c.value]
    assert shown == [md("⚠️ a: document 'd0' has 1 exact duplicate span(s), e.g. [0, 4) 'x': "
                        "counted twice by span-f1, mafalda-f1, gamma, gamma-cat; counted once "
                        "by exact-f1, unitizing-alpha; no change to char-kappa, char-jaccard, "
                        "text-kappa, fleiss-kappa, krippendorff-alpha, which read characters "
                        "or texts")]


def test_a_few_warnings_are_all_captions() -> None:

    texts, dup, other = _duplicate_spans(ann.WARNINGS_SHOWN)
    at = _custom_app([dup, other], texts)
    assert not at.exception, [e.value for e in at.exception]
    warnings = Study.from_sets([dup, other], texts, **ann.DUPLICATES_COUNTED).warnings
    assert len(warnings) == ann.WARNINGS_SHOWN
    shown = [c.value for c in at.caption if c.value.startswith("⚠️") and "duplicate" in c.value]
    assert shown == [f"⚠️ {md(w)}" for w in warnings]
    assert not any("more warnings" in e.label for e in at.expander)


def test_on_a_large_corpus_the_other_measures_are_ready_before_the_switch(make_app, handmade,
                                                                          monkeypatch) -> None:
    # Issue 29, target 5: the worker computes the measures not chosen yet behind the page's
    # jobs, so a switch draws its matrix in the run that answers it, with the same numbers.
    from ui import jobs

    texts, sets = handmade
    monkeypatch.setattr(ann, "BACKGROUND_DOCS", len(texts) - 1)
    monkeypatch.setattr(ann, "GAMMA_AUTO_DOCS", len(texts) - 1)
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "char-jaccard"})
    assert not at.exception, [e.value for e in at.exception]
    s = Study.from_sets(sets, texts)
    # Later jobs run in the order they were queued: once this one is done, so are the page's.
    jobs.submit(jobs.Job("sentinel", "many", {"study": s}), later=True).future.result(
        timeout=120)
    names = [a.name for a in sets]
    for measure in ("span-f1", "text-kappa", "char-jaccard"):
        at.selectbox(key=ann.K_ANN_MEASURE).set_value(measure).run()
        assert not at.exception, [e.value for e in at.exception]
        assert not at.get("progress"), f"{measure} was not computed ahead"
        expected = pairwise(s, measure).matrix()
        assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                                   else None for b in names] for a in names]


def test_measures_computed_ahead_survive_a_worker_that_dies(make_app, handmade,
                                                            monkeypatch) -> None:
    # Issue 28 with issue 29's prefetch: the jobs queued ahead fail with the worker; the next
    # page run queues them again instead of leaving "the computation stopped" for a later switch.
    from ui import jobs

    texts, sets = handmade
    monkeypatch.setattr(ann, "BACKGROUND_DOCS", len(texts) - 1)
    monkeypatch.setattr(ann, "GAMMA_AUTO_DOCS", len(texts) - 1)
    s = Study.from_sets(sets, texts)
    # A long γ holds the worker, so that the page's jobs are still queued when it is killed.
    long = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 5000, "seed": 3}))
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "char-jaccard"})
    deadline = time.monotonic() + 60
    while long.started is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert long.started is not None and not long.done()
    jobs._worker().process.kill()
    with pytest.raises(jobs.WorkerDied):
        long.future.result(timeout=120)
    at.run()  # a new worker; the page's jobs and the ones ahead are queued again
    assert not at.exception, [e.value for e in at.exception]
    jobs.submit(jobs.Job("sentinel", "many", {"study": s}), later=True).future.result(
        timeout=120)
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("text-kappa").run()
    assert not at.exception, [e.value for e in at.exception]
    assert jobs.STOPPED not in [e.value for e in at.error]
    # The view's own bar: the many-annotator values the page showed as stopped are queued
    # again by this run (ann.many_later), so their bar may be up; the matrix must not wait.
    waiting = [p.proto.text for p in at.get("progress") if "of every pair" in p.proto.text]
    assert not waiting, f"text-kappa was not computed ahead again: {waiting}"
    expected = pairwise(s, "text-kappa").matrix()
    names = [a.name for a in sets]
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]


def test_a_switch_back_draws_the_kept_figures_and_tables(make_app, monkeypatch) -> None:
    # Issue 29, target 5: a switch to a measure already shown builds no figure and no ranking
    # table again (each copied plotly's template: 10-75 ms a figure), and draws the same ones.
    built: list[str] = []
    for name in ("heatmap", "against_bars", "alignment_figure", "ranking_table"):
        original = getattr(ann, name)

        def counted(*a: Any, _name: str = name, _f: Any = original, **k: Any) -> Any:
            built.append(_name)
            return _f(*a, **k)

        monkeypatch.setattr(ann, name, counted)
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "char-kappa"})
    assert not at.exception, [e.value for e in at.exception]
    at.session_state[ann.K_ANN_CHART] = True  # the matrix's chart, in its lazy expander,
    at.session_state[f"{ann.K_ANN_CHART}_kept"] = True  # kept open (what its on_change keeps)
    first = {tab: _figures(_tab(at, tab)) for tab in (0, 1, 2)}  # the tab 2 is still open
    ranking = at.dataframe(key=ann.K_ANN_RANK_TABLE).value
    assert [len(f) for f in first.values()] == [1, 1, 1]  # matrix; bars; alignment
    for tab in (2, 1, 0):
        at = _tab(at, tab)
        at.selectbox(key=ann.K_ANN_MEASURE).set_value("span-f1").run()
        if tab == 2:  # the ranking is the measure's; the alignment is γ's
            assert "span-f1" in at.dataframe(key=ann.K_ANN_RANK_TABLE).value.columns
        else:
            assert _figures(at)[0]["layout"]["title"]["text"].startswith(("span-f1", "F1"))
        built.clear()
        at.selectbox(key=ann.K_ANN_MEASURE).set_value("char-kappa").run()
        assert not at.exception, [e.value for e in at.exception]
        assert built == []
        assert _figures(at) == first[tab]
        if tab == 2:
            assert at.dataframe(key=ann.K_ANN_RANK_TABLE).value.equals(ranking)


def _page_behind_a_busy_worker(make_app, handmade, monkeypatch, measure: str
                               ) -> tuple[Any, Study, Any]:
    """The page drawn on ``measure`` with every job it queued done, then a long γ job holding
    the background worker and the views' cache cleared: what the page, its worker and the
    running γ (to cancel) are; a view the page asks for next waits behind that γ."""
    from ui import jobs

    texts, sets = handmade
    monkeypatch.setattr(ann, "BACKGROUND_DOCS", len(texts) - 1)
    monkeypatch.setattr(ann, "GAMMA_AUTO_DOCS", len(texts) - 1)
    s = Study.from_sets(sets, texts)
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: measure})
    jobs.submit(jobs.Job("sentinel", "many", {"study": s}), later=True).future.result(
        timeout=120)  # the page's jobs and the ones ahead done
    at.run()
    ahead = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 3000, "seed": 7}),
                        later=True)
    deadline = time.monotonic() + 60
    while ahead.started is None and time.monotonic() < deadline:
        time.sleep(0.01)
    ann.view_job.clear()
    return at, s, ahead


def test_a_switch_while_the_worker_computes_ahead_is_computed_in_the_page(make_app, handmade,
                                                                          monkeypatch) -> None:
    # Issue 29, target 5: a measure the prefetch order put last waited for the job in flight
    # as well as for itself (13-14 s at a load of 10); the page now computes it in its run
    # (since the eleventh pass its matrix alone while the matrix's tab is open; the whole
    # view when another tab is open, as here: test_a_switch_while_the_worker_is_busy_computes_
    # the_matrix_alone).
    from ui import jobs

    _, sets = handmade
    at, s, ahead = _page_behind_a_busy_worker(make_app, handmade, monkeypatch, "char-kappa")
    at = _tab(at, 1)
    # The span-F1 view is queued behind the γ the worker holds: not computed yet.
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("span-f1").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not ahead.done(), "the γ ahead finished first: the test proves nothing"
    assert not at.get("progress")
    at = _tab(at, 0)
    expected = pairwise(s, "span-f1").matrix()
    names = [a.name for a in sets]
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    # The next switch in the page builds no study again (page_shared keeps them), and its
    # view is the one the worker sends: the full view without its per-document values.
    from core.metrics.agreement import measure_view
    from core.metrics.agreement.panel import lean_view

    computed: list[tuple[dict[str, Any], Any]] = []
    original = ann.core_measure_view

    def spy(**kwargs: Any) -> Any:
        computed.append((kwargs, original(**kwargs)))
        return computed[-1][1]

    monkeypatch.setattr(ann, "core_measure_view", spy)
    built: list[object] = []
    from_sets = Study.from_sets
    monkeypatch.setattr(Study, "from_sets", classmethod(
        lambda cls, *a, **k: built.append(a) or from_sets(*a, **k)))
    at = _tab(at, 1)
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("fleiss-kappa").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not ahead.done(), "the γ ahead finished first: the test proves nothing"
    ((kwargs, view),) = computed
    assert kwargs["lean"] and built == []
    full = {k: v for k, v in kwargs.items() if k not in ("lean", "shared")}
    monkeypatch.setattr(Study, "from_sets", from_sets)
    assert repr(view) == repr(lean_view(measure_view(**full)))
    ahead.future.cancel()
    jobs._worker().stop()  # the γ of 3,000 samples is not waited for


def test_the_matrix_waiting_for_its_values_is_grey_cells_of_the_same_annotators() -> None:
    # Drawn while the worker computes the view, in the place and layout of the values.
    body = ann.matrix_html(None, ["a", "b", "c"], key=None,
                           title="char-jaccard: computing every pair…")
    assert "<caption>char-jaccard: computing every pair…</caption>" in body
    # An empty corner is a data cell (axe-core: no empty header); the matrix scrolls by keyboard.
    assert "<thead><tr><td></td>" in body and 'tabindex="0" role="region"' in body
    assert re.findall(r'<th scope="col">([^<]*)</th>', body) == ["a", "b", "c"]
    assert re.findall(r'<th scope="row">([^<]*)</th>', body) == ["a", "b", "c"]
    cells = re.findall(r"<td([^>]*)>([^<]*)</td>", body.split("<tbody>", 1)[1])
    assert [t for _, t in cells] == ["—", "…", "…", "…", "—", "…", "…", "…", "—"]
    assert all("background:#eeeeee" in attrs for attrs, _ in cells)
    assert "data-value" not in body and 'class="scale"' not in body  # no value, no scale


def test_the_matrix_is_a_table_and_its_chart_is_drawn_when_asked(make_app) -> None:
    # Tenth pass: the heatmap chart cost Chromium 50-60 ms on every visit; the first screen
    # holds the same values as a table, the chart waits in a lazy expander and stays open.
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "char-kappa"})
    assert not at.exception, [e.value for e in at.exception]
    assert not _figures(at)
    table = _heatmap_z(at)
    assert at.expander(key=ann.K_ANN_CHART).proto.expanded is False
    at.session_state[ann.K_ANN_CHART] = True
    at.run()
    (fig,) = _figures(at)
    assert fig["layout"]["title"]["text"] == _title(at) == "char-kappa, every pair"
    assert fig["data"][1]["z"] == table  # the same values, cell for cell
    assert _heatmap_z(at) == table  # the table stays above it


def test_the_document_drawn_first_is_the_rankings_first(make_app) -> None:
    # Tour finding 16: "Documents by disagreement" listed doc10 first while the drawing below
    # opened doc1, the corpus's first; with no row picked, the drawing opens the ranking's top.
    at = _tab(make_app(PAGE, params={ann.K_ANN_MEASURE: "char-kappa"}), 2)
    assert not at.exception, [e.value for e in at.exception]
    ws = _ws(at)
    sets = [ws.sets[n] for n in ("gold", "system_a", "system_b")]
    top = rank_documents(pairwise(Study.from_sets(sets, ws.corpus.texts), "char-kappa"))[0]
    assert top.doc != "doc1"  # else this test proves nothing
    assert at.selectbox(key=ann.K_ANN_DOC).value == top.doc


def test_a_character_measure_computed_in_the_page_brings_the_other(make_app, handmade,
                                                                   monkeypatch) -> None:
    # Issue 29, eighth pass: char-κ and char-Jaccard come from the same counts, so the page
    # that computes one itself (the worker busy) computes the other from the counts it kept,
    # and the switch to it computes nothing: neither the page nor the worker counts again.
    from ui import jobs

    _, sets = handmade
    at, s, ahead = _page_behind_a_busy_worker(make_app, handmade, monkeypatch, "text-kappa")
    # Neither character measure is computed yet.
    ann.page_shared.clear()
    computed: list[str] = []
    original = ann.core_measure_view

    def spy(**kwargs: Any) -> Any:
        computed.append(kwargs["measure"])
        return original(**kwargs)

    monkeypatch.setattr(ann, "core_measure_view", spy)
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("char-jaccard").run()
    assert not at.exception, [e.value for e in at.exception]
    assert computed == ["char-jaccard", "char-kappa"]
    computed.clear()
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("char-kappa").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not ahead.done(), "the γ ahead finished first: the test proves nothing"
    assert computed == [] and not at.get("progress")
    expected = pairwise(s, "char-kappa").matrix()
    names = [a.name for a in sets]
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    ahead.future.cancel()
    jobs._worker().stop()  # the γ of 3,000 samples is not waited for


def test_the_many_annotator_values_wait_behind_the_measures_computed_ahead(
        make_app, handmade, monkeypatch) -> None:
    # Issue 29, target 5: the values of all the sets together (α_U: 0.65 s of the worker at
    # 10,000 documents) were queued before the measures computed ahead, so the first switches
    # of measure waited for them. Now: the chosen measure, the others in prefetch_order, then
    # them (their tiles are below the matrix).
    from ui import jobs

    texts, sets = handmade
    monkeypatch.setattr(ann, "BACKGROUND_DOCS", len(texts) - 1)
    monkeypatch.setattr(ann, "GAMMA_AUTO_DOCS", len(texts) - 1)
    s = Study.from_sets(sets, texts)
    # a worker of this test's own: an earlier test of the process may have left jobs queued
    jobs._worker().stop()
    jobs._worker.clear()
    hold: jobs.Job[Any] = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 3000,
                                                            "seed": 11}))
    deadline = time.monotonic() + 60
    while hold.started is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert hold.started is not None and not hold.done()
    ann.view_job.clear()
    ann.many_job.clear()
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "text-kappa"})
    assert not at.exception, [e.value for e in at.exception]
    queued: list[jobs.Job[Any]] = []
    for *_, job in sorted(jobs._worker().tasks.queue, key=lambda e: (e[0], e[1])):
        future = job.future
        if (future is not None and not future.running() and not future.done()
                and all(job is not j for j in queued)):
            queued.append(job)
    titles = [j.title for j in queued]
    many = [t for t in titles if t.startswith("Fleiss' κ, Krippendorff's α and α_U")]
    assert len(many) == 1 and titles[-1] == many[0], titles
    # text-κ's matrix was computed in the page (the worker is busy, the matrix's tab open); its
    # view, for the other tabs, waits first, then the others in order
    assert [t.split(" of every pair")[0] for t in titles[:-1]] == [
        "text-kappa", *ann.prefetch_order("text-kappa")], titles
    assert _title(at) == "text-kappa, every pair"
    # The tiles wait for their values, and say so
    assert [v for v, _, _ in annotator_tiles(at).values()][:3] == ["…", "…", "…"]
    assert hold.future is not None
    hold.future.cancel()
    jobs._worker().stop()  # the γ of 3,000 samples is not waited for


@pytest.mark.parametrize("measure", ["char-kappa", "text-kappa", "span-f1"])
def test_the_first_screens_headings_are_in_the_matrix_and_tiles_elements(
        make_app, measure: str) -> None:
    # Issue 29, tenth pass, second cut: "Pairwise agreement" is the matrix element's heading for
    # every measure, char-kappa's default first screen too (fixrev14b item 2: a control had put
    # it back into a header of its own); a "Cells show" control comes after the table; "All 3
    # sets together" and why the values differ are the tiles element's; no header or caption
    # drawn for them.
    at = _wait_for_matrix(make_app(PAGE, params={ann.K_ANN_MEASURE: measure}))
    assert not at.exception, [e.value for e in at.exception]
    headers = [s.value for s in at.header]
    matrix = next(h.proto.body for h in at.html if 'class="ann-matrix"' in h.proto.body)
    tiles = next(h.proto.body for h in at.html if 'class="ann-tiles"' in h.proto.body)
    assert '<h2 class="ann-h">Pairwise agreement</h2>' in matrix
    assert "Pairwise agreement" not in headers
    assert '<h2 class="ann-h">All 3 sets together</h2>' in tiles
    assert "All 3 sets together" not in headers
    assert ann.WHY_THEY_DIFFER not in [c.value for c in at.caption]
    if measure in ann.ASYMMETRIC:
        assert at.radio(key=ann.K_ANN_CELL).value == "F1"
    elif measure in ann.BLIND_MEASURES:  # a label-blind form to offer (bugleft15 item 4)
        assert at.radio(key=ann.K_ANN_BLIND).value == ann.BLIND_CELLS[0]
    if measure != "text-kappa":  # the table first, the control after it
        inner = next(node for _, node in _walk(at._tree)
                     if getattr(node, "key", None) == "ann_matrix")
        kinds = [node.type for node in inner.children.values()]
        assert kinds[:2] == ["html", "radio"], kinds


# ---- a switch of measure changes the cells, not the page's shape --------------------------------


def _walk(node: Any, path: tuple[int, ...] = ()) -> Any:
    for i, child in getattr(node, "children", {}).items():
        yield (*path, i), child
        yield from _walk(child, (*path, i))


def _landmarks(at: AppTest, measure: str) -> dict[str, tuple[tuple[int, ...], str]]:
    """Where (the element's path in the page, as the browser's tree addresses it) and what
    each element of the page is that a switch of measure should leave in place: the keyed
    ones (the widgets, the tabs, the matrix's and tiles' containers, the expanders and
    downloads) and the measure's caption; and how many elements the page's main block and the
    first tab hold."""
    found: dict[str, tuple[tuple[int, ...], str]] = {}
    for path, node in _walk(at._tree):
        key = getattr(node, "key", None)
        if path[0] != 0:
            continue
        if key:
            found[key] = (path, node.type)
        elif node.type == "caption" and node.value.startswith(f"**{measure}**"):
            found["the measure's caption"] = (path, node.type)
    main = at._tree.children[0]
    tab = next(node for _, node in _walk(main) if node.type == "tab")
    found["main block"] = ((len(main.children),), "count")
    found["first tab"] = ((len(tab.children),), "count")
    return found


def test_a_switch_of_measure_keeps_every_element_outside_the_matrix_in_its_place(
        make_app) -> None:
    # Issue 29, eleventh pass: span-F1's heading and "Cells show", a many-annotator measure's
    # note, γ's inputs, the progress bars and the notes of running jobs came and went with
    # the measure and moved every element after them, which the browser then mounted again
    # (the tiles, the expanders, the tabs). Now each has a fixed place: the matrix's
    # container, the table's element, or a slot that is an empty element when unused.
    at = make_app(PAGE)
    shapes = {}
    for measure in ("char-kappa", "span-f1", "krippendorff-alpha", "gamma", "mafalda-f1",
                    "text-kappa", "char-kappa"):
        _wait_for_matrix(at.selectbox(key=ann.K_ANN_MEASURE).set_value(measure).run())
        assert not at.exception, [e.value for e in at.exception]
        assert _title(at).startswith(measure)
        shape = _landmarks(at, measure)
        # the keys drawn for one measure only (its own control, γ's inputs) are inside the
        # matrix's container or γ's slot, whose place is the same
        shapes[measure] = {k: v for k, v in shape.items()
                           if k not in (ann.K_ANN_CELL, ann.K_ANN_BLIND, ann.K_ANN_SEED,
                                        ann.K_ANN_SAMPLES)}
        inner = {k: v[0] for k, v in shape.items()}
        if measure in ann.ASYMMETRIC:
            assert inner[ann.K_ANN_CELL][:len(inner["ann_matrix"])] == inner["ann_matrix"]
        if measure in ann.BLIND_MEASURES:
            assert inner[ann.K_ANN_BLIND][:len(inner["ann_matrix"])] == inner["ann_matrix"]
        if measure in ann.GAMMA_MEASURES:
            assert inner[ann.K_ANN_SEED][0] == 0 and inner[ann.K_ANN_SEED] < inner["ann_tab"]
    first = shapes["char-kappa"]
    for measure, shape in shapes.items():
        assert shape == first, measure
    assert {"ann_tab", "ann_pairwise", "ann_matrix", "ann_chart", "dl_ann_matrix_csv",
            "ann_tiles", "ann_more", "the measure's caption"} <= set(first)


@pytest.mark.parametrize("measure", ["krippendorff-alpha", "mafalda-f1"])
def test_how_to_read_the_cells_is_a_sentence_of_the_matrix_element(make_app,
                                                                     measure: str) -> None:
    # A many-annotator measure's cells are its value for the pair alone; an asymmetric one's
    # rows are the reference: said between the heading and the table, in the same element.
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: measure})
    assert not at.exception, [e.value for e in at.exception]
    matrix = _matrix(at)
    said = ("is a many-annotator measure: each cell is its value for that pair alone"
            if measure in ann.MANY_MEASURES else "Row = reference (treated as gold)")
    assert matrix.index('<p class="ann-note">') < matrix.index(said) < matrix.index("<table>")
    assert not any(said in c.value for c in at.caption)
    headings = [s.value for s in at.header]
    # the heading is the table element's for every measure (a control comes after the table)
    assert "Pairwise agreement" not in headings


# ---- the matrix alone in the page while the worker is busy (eleventh pass) ----------------------


@pytest.mark.parametrize("measure", ann.MATRIX_FIRST)
def test_the_matrix_computed_alone_is_the_views_matrix(handmade, measure: str) -> None:
    # matrix_only's values are those of the view the worker sends (measure_view, lean).
    from core.metrics.agreement import measure_view

    texts, sets = handmade
    view = measure_view(sets, texts, measure=measure, gold=None, lean=True)
    alone = pairwise(Study.from_sets(sets, texts), measure, per_document=False)
    assert alone.pairs.keys() == view.pairwise.pairs.keys()
    for cell in (ann.SPAN_CELLS if measure in ann.ASYMMETRIC else ("F1",)):
        key = ann.cell_key(measure, cell)
        assert ann.matrix_table(alone, key).equals(ann.matrix_table(view.pairwise, key))
        assert ann.matrix_html(alone, alone.annotators, key=key, title="t") == ann.matrix_html(
            view.pairwise, view.pairwise.annotators, key=key, title="t")


def _switch_to_span_f1(at: AppTest, ahead: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Switch the measure to span-F1 while the worker computes ``ahead`` (a γ); the measures
    whose whole view the page then computes itself."""
    views: list[str] = []
    original = ann.core_measure_view
    monkeypatch.setattr(ann, "core_measure_view",
                        lambda **kw: views.append(kw["measure"]) or original(**kw))
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("span-f1").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not ahead.done(), "the γ ahead finished first: the test proves nothing"
    return views


def test_a_switch_while_the_worker_is_busy_computes_the_matrix_alone(make_app, handmade,
                                                                     monkeypatch) -> None:
    # Issue 29, eleventh pass: span-F1's view is 0.39-0.47 s of CPU at 10,000 documents, its
    # matrix 0.13 s; with the matrix's tab open the page computes the matrix and the worker the
    # rest (each annotator against the gold and the majority, the ranking).
    from ui import jobs

    _, sets = handmade
    at, s, ahead = _page_behind_a_busy_worker(make_app, handmade, monkeypatch, "char-kappa")
    views = _switch_to_span_f1(at, ahead, monkeypatch)
    assert views == []  # no view computed in the page
    expected = pairwise(s, "span-f1").matrix()
    names = [a.name for a in sets]
    z = [[pytest.approx(expected[a][b]) if expected[a][b] is not None else None
          for b in names] for a in names]
    assert _heatmap_z(at) == z and _title(at) == "span-f1 (F1), every pair"
    assert at.radio(key=ann.K_ANN_CELL).value == "F1"
    assert len(at.get("download_button")) == 2  # its downloads, as settled
    # the view's job waits for the worker, first, and says so above the tabs
    waiting = [j for *_, j in jobs._worker().tasks.queue
               if j.future is not None and not j.future.done()]
    assert [j.title for j in waiting if j.title.startswith("span-f1 of every pair")]
    assert any("span-f1 of every pair" in p.proto.text.replace("\\", "")
               for p in at.get("progress"))  # md() escapes
    # a rerun meanwhile draws the same matrix, not "…", and computes nothing again
    built: list[object] = []
    monkeypatch.setattr(ann, "core_pairwise", lambda *a, **k: built.append(a))
    at.run()
    assert _heatmap_z(at) == z and built == [] and views == []
    ahead.future.cancel()
    jobs._worker().stop()  # the γ of 3,000 samples is not waited for


def test_a_switch_on_another_tab_computes_the_whole_view_here(make_app, handmade,
                                                              monkeypatch) -> None:
    # The other tabs need the whole view (against the gold and the majority, the ranking):
    # computed in the page as before when the worker is busy.
    from ui import jobs

    at, _, ahead = _page_behind_a_busy_worker(make_app, handmade, monkeypatch, "char-kappa")
    at = _tab(at, 1)
    views = _switch_to_span_f1(at, ahead, monkeypatch)
    assert views == ["span-f1"] and not at.get("progress")
    ahead.future.cancel()
    jobs._worker().stop()


# ---- a switch to the measure the worker is computing (twelfth pass) -----------------------------


def _view_in_flight(make_app, handmade, monkeypatch, measure: str
                    ) -> tuple[AppTest, list[Any], list[tuple[str, float]]]:
    """The page drawn on char-κ with every job it queued done, then ``view_job`` giving
    ``measure``'s view as a job the worker has taken (its future running, completed by the
    test): the page, that job (a list the fake fills), and the progress bars drawn
    (``(title, every)``)."""
    from ui import jobs

    texts, sets = handmade
    monkeypatch.setattr(ann, "BACKGROUND_DOCS", len(texts) - 1)
    monkeypatch.setattr(ann, "GAMMA_AUTO_DOCS", len(texts) - 1)
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "char-kappa"})
    jobs.submit(jobs.Job("sentinel", "many", {"study": Study.from_sets(sets, texts)}),
                later=True).future.result(timeout=120)
    _wait_for_matrix(at)
    original = ann.view_job
    in_flight: list[Any] = []

    def fake(ws_key, _ws, sets_, label, m, gold, loo, seed, samples, _later=False):
        if m != measure or _later:
            return original(ws_key, _ws, sets_, label, m, gold, loo, seed, samples,
                            _later=_later)
        if not in_flight:
            job = jobs.Job(f"{m} of every pair", "view", {"measure": m})
            job.future = Future()
            job.future.set_running_or_notify_cancel()  # as the worker's loop takes it
            job.report(-1, 0)
            job.args = ann._view_args(_ws, sets_, label, m, gold, loo)  # type: ignore[attr-defined]
            in_flight.append(job)
        return in_flight[0]

    monkeypatch.setattr(ann, "view_job", fake)
    bars: list[tuple[str, float]] = []
    real_progress = ann.progress
    monkeypatch.setattr(ann, "progress", lambda job, every=0.5: bars.append(
        (job.title, every)) or real_progress(job, every=every))
    return at, in_flight, bars


def test_a_switch_to_the_view_in_flight_waits_for_it(make_app, handmade, monkeypatch) -> None:
    # Issue 29, target 5: a switch right after the first visit most often finds its view in
    # the worker's hands; the run waits for it (IN_FLIGHT_WAIT) and draws its matrix, where it
    # drew "…" and a progress bar whose fragment reran the page up to 0.5 s after the job.
    from core.metrics.agreement import measure_view

    at, in_flight, bars = _view_in_flight(make_app, handmade, monkeypatch, "span-f1")
    monkeypatch.setattr(ann, "IN_FLIGHT_WAIT", 120.0)  # the test's thread decides, not a clock
    matrices: list[object] = []
    monkeypatch.setattr(ann, "core_pairwise", lambda *a, **k: matrices.append(a))

    def finish() -> None:
        while not in_flight:
            time.sleep(0.01)
        job = in_flight[0]
        job.future.set_result(measure_view(**job.args, lean=True))

    thread = threading.Thread(target=finish)
    thread.start()
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("span-f1").run()
    thread.join(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    view = in_flight[0].result()
    names = list(view.pairwise.annotators)
    expected = view.pairwise.matrix()
    assert _title(at) == "span-f1 (F1), every pair"
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    # drawn from the worker's view in this run: no progress bar, no matrix computed here
    assert not any(title.startswith("span-f1") for title, _ in bars)
    assert matrices == []


def test_a_cheap_matrix_in_flight_is_computed_in_the_page_at_once(make_app, handmade,
                                                                   monkeypatch) -> None:
    # text-κ's matrix alone is 0.02 s of CPU at 10,000 documents: not waited for, computed in
    # the page while the worker finishes the view (the other tabs' values).
    texts, sets = handmade
    at, in_flight, bars = _view_in_flight(make_app, handmade, monkeypatch, "text-kappa")
    waited: list[object] = []
    monkeypatch.setattr(ann, "futures_wait", lambda fs, timeout: waited.append(timeout))
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("text-kappa").run()
    assert not at.exception, [e.value for e in at.exception]
    assert waited == [] and in_flight[0].future.running()
    expected = pairwise(Study.from_sets(sets, texts), "text-kappa").matrix()
    names = [a.name for a in sets]
    assert _title(at) == "text-kappa, every pair"
    assert _heatmap_z(at) == [[pytest.approx(expected[a][b]) if expected[a][b] is not None
                               else None for b in names] for a in names]
    assert ("text-kappa of every pair", ann.VIEW_POLL) in bars  # the rest still computed


def test_a_view_still_in_flight_is_drawn_waiting_and_looked_at_often(make_app, handmade,
                                                                     monkeypatch) -> None:
    # Past the wait, the run draws the cells as "…" and the view's progress bar, which looks
    # at the job every VIEW_POLL seconds (the many-annotator values' bar, every 0.5 s).
    at, in_flight, bars = _view_in_flight(make_app, handmade, monkeypatch, "char-jaccard")
    monkeypatch.setattr(ann, "IN_FLIGHT_WAIT", 0.0)
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("char-jaccard").run()
    assert not at.exception, [e.value for e in at.exception]
    assert in_flight[0].future.running()  # still the worker's: the page did not take it
    assert _title(at) == "char-jaccard: computing every pair…"
    assert ("char-jaccard of every pair", ann.VIEW_POLL) in bars
    assert ann.VIEW_POLL < 0.5
    assert all(every == 0.5 for title, every in bars if not title.startswith("char-jaccard"))


def test_a_queued_view_or_gamma_is_not_waited_for(monkeypatch) -> None:
    # Only a view the worker holds is waited for, of a measure computed ahead, on a corpus
    # where views take tenths of a second.
    from ui import jobs

    waited: list[object] = []
    monkeypatch.setattr(ann, "futures_wait", lambda fs, timeout: waited.append(timeout))
    queued = jobs.Job("queued", "view")
    queued.future = Future()
    held = jobs.Job("held", "view")
    held.future = Future()
    held.future.set_running_or_notify_cancel()
    docs = ann.BACKGROUND_DOCS + 1

    def choice(measure: str) -> ann.Choice:
        return ann.Choice(sets=("A", "B"), measure=measure, label=None, gold=None,
                          leave_one_out=False, seed=0, samples=30, labels=[])

    assert not ann.wait_in_flight(choice("span-f1"), queued, docs)
    assert not ann.wait_in_flight(choice("gamma"), held, docs)
    assert not ann.wait_in_flight(choice("text-kappa"), held, docs)  # MATRIX_CHEAP
    assert not ann.wait_in_flight(choice("span-f1"), held, ann.BACKGROUND_DOCS)
    assert not ann.wait_in_flight(choice("span-f1"), held, ann.PREFETCH_DOCS + 1)
    assert waited == []
    assert not ann.wait_in_flight(choice("span-f1"), held, docs)  # waited, not done
    assert waited == [ann.IN_FLIGHT_WAIT]
    held.future.set_result(None)
