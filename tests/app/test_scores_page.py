"""Scores page: the numbers shown are those core.metrics computes for the same sets."""

from __future__ import annotations

import pandas as pd
import pytest

from core.metrics import martino
from core.model.errors import InputError
from tests.app.conftest import app_on_sets, tables
from ui import scores as scores_ui
from ui import state
from ui.small_table import SMALL_TABLE_ROWS

SHOWN = 5e-5
"""How close a checked score must be: a table drawn as Markdown (``ui.small_table``) shows four
decimals."""


def test_overview_shows_martino_scores_of_every_system(make_app, handmade, frame) -> None:
    at = make_app("pages/scores.py")
    assert not at.exception, [e.value for e in at.exception]
    _, sets = handmade
    gold = sets[0]
    shown = frame(at, "system", "DSM F1").set_index("system")
    for system in sets[1:]:
        try:
            res = martino.score(gold, system)
        except InputError as exc:  # system_b lacks doc10: the table says why it has no score
            assert shown.loc[system.name, "DSM error"] == str(exc)
            continue
        assert shown.loc[system.name, "DSM P"] == pytest.approx(res.precision, abs=SHOWN)
        assert shown.loc[system.name, "DSM R"] == pytest.approx(res.recall, abs=SHOWN)
        assert shown.loc[system.name, "DSM F1"] == pytest.approx(res.f1, abs=SHOWN)


@pytest.mark.parametrize("variant", ["semeval2021", "nlp4if2019"])
def test_per_label_and_per_document_tables_equal_core(make_app, handmade, frame,
                                                      variant: str) -> None:
    at = make_app("pages/scores.py", params={"variant": variant, "b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    _, sets = handmade
    res = martino.score(sets[0], sets[1], variant=variant)
    labels = frame(at, "label", "P", "R", "F1").set_index("label")
    for lab, v in res.per_label().items():
        if v.recall_denominator or v.precision_denominator:
            assert labels.loc[lab, "R"] == pytest.approx(v.recall, abs=SHOWN)
            assert labels.loc[lab, "P"] == pytest.approx(v.precision, abs=SHOWN)
    assert not _document_tables(at)  # the closed tab is not computed
    _open_per_document(at)
    docs = frame(at, "document", "F1").set_index("document")
    for row in res.per_document():
        assert docs.loc[row.document, "F1"] == pytest.approx(row.f1, abs=SHOWN)


def _document_tables(at) -> list[pd.DataFrame]:
    return [df for df in tables(at) if "document" in df.columns and "F1" in df.columns]


def _open_per_document(at) -> None:
    """Click the "Per document" tab (lazy: only the open tab runs)."""
    at.session_state[scores_ui.K_DETAIL_TAB] = "📄 Per document"
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _open_charts(at) -> None:
    """Open the tabs of the systems' F1 chart and of the per-label chart."""
    at.session_state[scores_ui.K_SYSTEMS_TAB] = scores_ui.TAB_F1_CHART
    at.session_state[scores_ui.K_DETAIL_TAB] = scores_ui.TAB_LABEL_CHART
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_an_input_the_metric_refuses_is_reported_not_raised(make_app) -> None:
    # system_b lacks doc10, and the 2021 variant requires the same documents on both sides.
    at = make_app("pages/scores.py", params={"b": "system_b", "metric": "martino"})
    assert not at.exception, [e.value for e in at.exception]
    shown = [e.value.replace("\\", "") for e in at.error]  # unescape Markdown
    assert any("system_b" in e and "doc10" in e for e in shown), shown


def test_every_table_has_csv_and_json_downloads(make_app) -> None:
    at = make_app("pages/scores.py")
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels.count("⬇️ CSV") == labels.count("⬇️ JSON") >= 2


def test_bootstrap_interval_and_paired_difference_equal_core_stats(make_app, frame) -> None:
    import numpy as np

    from core.metrics import stats
    from core.model import AnnotationSet

    at = make_app("pages/scores.py", data="sample")
    assert at.session_state[state.K_SOURCE] == "sample"
    ws = state.load_sample(state.sample_names()[0])
    gold, a, b = ws.sets["gold"], ws.sets["system_a"], ws.sets["system_b"]

    def table(system: AnnotationSet) -> np.ndarray:
        r = martino.score(gold, system)
        return np.column_stack([r.doc_p_num, r.doc_p_den, r.doc_r_num, r.doc_r_den]).astype(float)

    shown = frame(at, "system", "DSM F1 low").set_index("system")
    iv = stats.bootstrap(table(a), stats.martino_f1, n_resamples=1000, seed=0)
    assert (shown.loc["system_a", "DSM F1 low"], shown.loc["system_a", "DSM F1 high"]) == (
        pytest.approx(iv.low, abs=SHOWN), pytest.approx(iv.high, abs=SHOWN))
    paired = stats.paired_bootstrap(table(a), table(b), stats.martino_f1, n_resamples=1000,
                                    seed=0)
    text = next(m.value.replace("\\", "") for m in at.markdown  # set names are escaped
                if "F1(system_a) − F1(system_b)" in m.value.replace("\\", ""))
    assert text.startswith("Da San Martino (semeval2021)")
    assert f"**{paired.difference:+.3f}**" in text
    assert f"[{paired.low:+.3f}, {paired.high:+.3f}]" in text


def test_mafalda_interval_and_paired_difference_resample_the_per_text_f1s(make_app,
                                                                           frame) -> None:
    import numpy as np

    from core.metrics import mafalda, stats
    from core.model.taxonomy import for_labels

    # the propaganda sample's labels have no levels (ui.levels): level 2, whatever the URL says
    at = make_app("pages/scores.py", data="sample", params={"metric": "mafalda", "level": "1"})
    assert not at.exception, [e.value for e in at.exception]
    ws = state.load_sample(state.sample_names()[0])
    gold, a, b = ws.sets["gold"], ws.sets["system_a"], ws.sets["system_b"]
    tax = for_labels([*gold.labels(), *a.labels(), *b.labels()])

    def f1s(system):  # -> (n, 1) array of per-text F1
        # MAFALDA reads the gold by Definition 6 (labels sharing an interval are alternatives)
        r = mafalda.score(gold.as_alternatives(), system, level=2, texts=ws.corpus.texts,
                          taxonomy=tax)
        return np.array([[d.f1] for d in r.per_document()])

    mean = stats.mean_of(0, len(gold.doc_ids))
    shown = frame(at, "system", "MAFALDA F1 low").set_index("system")
    iv = stats.bootstrap(f1s(a), mean, n_resamples=1000, seed=0)
    assert shown.loc["system_a", "MAFALDA F1 low"] == pytest.approx(iv.low, abs=SHOWN)
    assert shown.loc["system_a", "MAFALDA F1 high"] == pytest.approx(iv.high, abs=SHOWN)
    paired = stats.paired_bootstrap(f1s(a), f1s(b), mean, n_resamples=1000, seed=0)
    text = next(m.value.replace("\\", "") for m in at.markdown  # set names are escaped
                if "F1(system_a) − F1(system_b)" in m.value.replace("\\", ""))
    assert text.startswith("MAFALDA (paper, level 2)")
    assert f"**{paired.difference:+.3f}**" in text


def test_text_level_scores_of_a_gold_with_alternatives_are_mafalda_label_only(make_app,
                                                                               frame) -> None:
    from core.metrics import mafalda
    from core.model.taxonomy import mafalda as mafalda_taxonomy

    at = make_app("pages/scores.py", data="sample", params={"sample": "mafalda", "level": "1"})
    assert not at.exception, [e.value for e in at.exception]
    ws = state.load_sample("mafalda")
    shown = frame(at, "system", "text F1").set_index("system")
    assert "text error" not in shown.columns
    res = mafalda.score(ws.sets["gold"], ws.sets["system_a"], level=1, texts=ws.corpus.texts,
                        taxonomy=mafalda_taxonomy())
    assert shown.loc["system_a", "text F1"] == pytest.approx(res.label_only["f1"], abs=SHOWN)


def test_hateval_sample_shows_the_official_task_a_and_b_numbers(make_app, frame) -> None:
    from core.formats import load_path
    from core.metrics import hateval

    at = make_app("pages/scores.py", data="sample", params={"sample": "hateval"})
    assert not at.exception, [e.value for e in at.exception]
    folder = state.SAMPLE_DIR / "hateval"
    gold = load_path(folder / "gold.tsv").records
    a = hateval.evaluate_a(gold, load_path(folder / "system_task_a.tsv").records)
    b = hateval.evaluate_b(gold, load_path(folder / "system_task_b.tsv").records)
    task_a = frame(at, "system", "accuracy", "F1 macro").set_index("system")
    assert task_a.loc["system_task_a", "F1 macro"] == pytest.approx(a["f1_macro"])
    assert task_a.loc["system_task_a", "accuracy"] == pytest.approx(a["accuracy"])
    task_b = frame(at, "system", "EMR").set_index("system")
    assert task_b.loc["system_task_b", "EMR"] == pytest.approx(b["emr"])
    assert task_b.loc["system_task_b", "mean macro-F1"] == pytest.approx(b["macro_f1"])
    assert task_b.loc["system_task_b", "AG F1 macro"] == pytest.approx(b["f1_macro"]["AG"])
    assert not any("DSM" in str(df.columns) for df in tables(at))  # no span metrics


@pytest.mark.parametrize("page", ["pages/differences.py", "pages/labels.py"])
def test_span_pages_say_a_corpus_without_spans_has_nothing_to_show(make_app, page: str) -> None:
    at = make_app(page, data="sample", params={"sample": "hateval"})
    assert not at.exception, [e.value for e in at.exception]
    assert any("holds a span" in i.value for i in at.info)


def test_the_documents_link_opens_the_first_row_of_the_per_document_table(make_app) -> None:
    at = make_app("pages/scores.py")
    assert not at.exception
    _open_per_document(at)
    table = _document_tables(at)[0]
    first = str(table.iloc[0]["document"])
    links = [str(el.proto) for el in at.get("page_link") if "first document" in str(el.proto)]
    assert links and f"doc={first}" in links[0]


def test_paper_table_download_is_core_table_with_the_pages_f1_interval(make_app, frame) -> None:
    import csv
    import io

    from core.analysis.table import system_row
    from ui import scores as scores_ui

    at = make_app("pages/scores.py")
    assert not at.exception, [e.value for e in at.exception]
    labels = [b.proto.label for b in at.get("download_button")]
    assert "⬇️ LaTeX table" not in labels  # closed: its widgets are not drawn
    at.session_state[scores_ui.K_PAPER_OPEN] = True  # open "Table for a paper"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    labels = [b.proto.label for b in at.get("download_button")]
    assert "⬇️ LaTeX table" in labels
    # system_b lacks a document the 2021 variant needs: it is named as left out.
    assert any("Left out" in c.value and "system_b" in c.value.replace("\\", "")
               for c in at.caption)
    ws = at.session_state[state.K_UPLOAD_WS]
    systems = tuple(state.compared_sets(ws, "gold"))
    text = scores_ui.paper_table_text(ws.key, ws, "gold", systems, "martino", "semeval2021", 2,
                                      1000, 0, "csv")
    rows = {r["system"]: r for r in csv.DictReader(io.StringIO(text))}
    assert "system_b" not in rows and "system_a" in rows
    want = system_row(ws.sets["gold"], ws.sets["system_a"], metric="martino",
                      options={"texts": ws.corpus.texts}, n_resamples=1000, seed=0)
    assert float(rows["system_a"]["R"]) == pytest.approx(want.values["R"])
    shown = frame(at, "system", "DSM F1 low").set_index("system")
    assert float(rows["system_a"]["F1 low"]) == pytest.approx(shown.loc["system_a", "DSM F1 low"],
                                                        abs=SHOWN)
    assert float(rows["system_a"]["F1 high"]) == pytest.approx(
        shown.loc["system_a", "DSM F1 high"], abs=SHOWN)
    tex = scores_ui.paper_table_text(ws.key, ws, "gold", systems, "martino", "semeval2021", 2,
                                     1000, 0, "latex")
    assert r"\toprule" in tex and "seed 0" in tex and r"system\_a" in tex


def test_on_a_large_corpus_the_intervals_wait_for_their_toggle(make_app, frame,
                                                                monkeypatch) -> None:
    from ui import scores as scores_ui

    monkeypatch.setattr(scores_ui, "BOOTSTRAP_AUTO_DOCS", 0)  # the sample is "large"
    at = make_app("pages/scores.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    table = frame(at, "system", "DSM F1")
    assert "DSM F1 low" not in table.columns
    # without its intervals the systems table is Markdown, its headers on one line (eleventh
    # pass); with them a grid (below)
    assert not [d for d in at.dataframe if "DSM F1" in d.value.columns]
    assert not any("F1(" in m.value for m in at.markdown)  # no paired comparison yet
    shown_f1 = table.set_index("system")["DSM F1"]
    at.toggle(key=scores_ui.K_INTERVALS).set_value(True).run()
    after = frame(at, "system", "DSM F1 low").set_index("system")
    # the scores stay what they were (without intervals a Markdown table: four decimals)
    assert after["DSM F1"].round(4).to_dict() == shown_f1.to_dict()
    assert not [d for d in at.dataframe if "DSM F1" in d.value.columns and "DSM F1 low"
                not in d.value.columns]
    assert any("F1(" in m.value for m in at.markdown)


def test_a_revisit_rebuilds_no_figure_and_walks_no_label(make_app, monkeypatch) -> None:
    """Issue 29 (a warm revisit < 300 ms): back on the page, its figures and taxonomy note are
    the first visit's, drawn again without building them again."""
    from ui import charts, results

    scores_ui.per_label_chart.clear()  # the variant below is built here, not in another test
    at = make_app("pages/scores.py", params={"b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert not at.get("plotly_chart")  # both charts wait behind their tabs
    _open_charts(at)
    specs = [e.proto.spec for e in at.get("plotly_chart")]
    assert len(specs) == 2  # the systems' F1 and the per-label P, R, F1
    at.switch_page("pages/documents.py").run()
    calls: list[str] = []
    for module, name in ((charts, "systems_f1"), (charts, "per_label_prf"),
                         (results, "taxonomy_note")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: (
            calls.append(_name), _real(*a, **k))[1])
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    _open_charts(at)
    assert calls == []
    assert [e.proto.spec for e in at.get("plotly_chart")] == specs
    # Another variant is another figure.
    at.selectbox(key=state.variant_key("martino")).set_value("nlp4if2019").run()
    assert not at.exception, [e.value for e in at.exception]
    assert calls.count("per_label_prf") == 1


def test_the_chart_tabs_open_from_the_url(make_app) -> None:
    """Issue 29: the charts wait behind lazy tabs, and a link with the tabs in its query
    parameters opens them (the tabs are bound to the URL like the page's other settings)."""
    at = make_app("pages/scores.py", params={"b": "system_a",
                                             scores_ui.K_SYSTEMS_TAB: scores_ui.TAB_F1_CHART,
                                             scores_ui.K_DETAIL_TAB: scores_ui.TAB_LABEL_CHART})
    assert not at.exception, [e.value for e in at.exception]
    titles = [e.proto.spec for e in at.get("plotly_chart")]
    assert len(titles) == 2
    assert "F1 against gold" in titles[0] and "P, R, F1 per label" in titles[1]
    assert not _document_tables(at)  # the per-document tab stays closed


def test_downloads_name_and_hold_the_settings_that_produced_them(make_app, monkeypatch
                                                                  ) -> None:
    """Tour 4 item 5: the systems, per-label and paired downloads carry the reference, the
    variants, the level and taxonomy, the resamples and seed in their file names (short) and in
    every JSON record's "settings"; the CSV's first line stays its header."""
    import io
    import json

    from ui import widgets

    calls: dict[str, tuple[str, dict]] = {}
    real = widgets.download_buttons

    def record(df, name, *, key, settings=None):  # -> None
        calls[key] = (name, dict(settings or {}), df)
        real(df, name, key=key, settings=settings)

    monkeypatch.setattr(scores_ui, "download_menu",
                        lambda df, name, *, key, settings=None: widgets.download_menu(
                            df, name, key=key, settings=settings))
    monkeypatch.setattr(widgets, "download_buttons", record)
    at = make_app("pages/scores.py", data="sample",
                  params={"mvariant": "metrics-py", "metric": "martino"})
    assert not at.exception, [e.value for e in at.exception]
    name, settings, df = calls["dl_overview"]
    assert settings == {"reference": "gold", "martino": "semeval2021", "mafalda": "metrics-py",
                        "level": 2, "taxonomy": settings["taxonomy"], "resamples": 1000,
                        "seed": 0}
    assert isinstance(settings["taxonomy"], str)
    assert name == "systems" and widgets.settings_name(settings) == (
        "ref-gold_martino-semeval2021_mafalda-metrics-py_L2_b1000_seed0")
    records = json.loads(widgets.records_json(df, settings))
    assert records and all(r["settings"] == settings for r in records)
    assert set(records[0]) == {*map(str, df.columns), "settings"}  # a key added, none changed
    assert list(pd.read_csv(io.StringIO(widgets.safe_csv(df))).columns) == list(df.columns)
    assert calls["dl_per_label"][1] == {"reference": "gold", "martino": "semeval2021"}
    assert calls["dl_paired"][1] == {"reference": "gold", "martino": "semeval2021",
                                     "resamples": 1000, "seed": 0}


def test_a_metric_without_per_label_scores_draws_no_empty_table_and_no_downloads(
        make_app) -> None:
    """Tour 4 item 10: MAFALDA averages per text; its per-label tab is the explanation alone."""
    at = make_app("pages/scores.py", params={"metric": "mafalda", "b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert any("no per-label decomposition" in c.value for c in at.caption)
    assert "per_label_table" not in [d.key for d in at.dataframe]
    assert not [t for t in tables(at) if "label" in t.columns]  # nor a Markdown table
    assert not [b for b in at.get("download_button") if "dl_per_label" in b.proto.id]
    assert [b for b in at.get("download_button") if "dl_overview" in b.proto.id]


def test_on_a_large_corpus_the_resamples_and_seed_wait_with_the_intervals(make_app,
                                                                          monkeypatch) -> None:
    """Issue 29, tenth pass: above BOOTSTRAP_AUTO_DOCS, with the intervals off, the resamples
    and seed are not drawn at the page's top (nothing there uses them) but in the table for a
    paper, which bootstraps; the values set there are the ones the intervals then use."""
    monkeypatch.setattr(scores_ui, "BOOTSTRAP_AUTO_DOCS", 0)  # the sample is "large"
    at = make_app("pages/scores.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    assert not [w for w in at.number_input if w.key in (state.K_BOOT_N, state.K_SEED)]
    at.session_state[scores_ui.K_PAPER_OPEN] = True  # open "Table for a paper"
    at.run()
    at.number_input(key=state.K_BOOT_N).set_value(200).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("200 resamples" in c.value for c in at.caption)  # the paper table's caption
    at.toggle(key=scores_ui.K_INTERVALS).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    inputs = [w for w in at.number_input if w.key in (state.K_BOOT_N, state.K_SEED)]
    assert [w.value for w in inputs] == [200, 0]  # now at the top, once, as they were set
    assert any("200 resamples" in c.value for c in at.caption)  # the systems table's note


def test_up_to_twelve_labels_the_per_label_table_is_markdown(make_app) -> None:
    """Issue 29, tenth pass: a per-label table of a few labels is drawn as Markdown (a data
    grid costs the browser some 20 ms on every visit), scores above 1 still bold on a tint
    with their ``above 1`` column (``ui.small_table``); the overall scores and the taxonomy
    note share one caption."""
    at = make_app("pages/scores.py", params={"b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert not [d for d in at.dataframe if "label" in d.value.columns]
    per_label = [t for t in tables(at) if list(t.columns[:4]) == ["label", "P", "R", "F1"]]
    assert len(per_label) == 1 and len(per_label[0]) <= SMALL_TABLE_ROWS
    at.radio(key=state.K_METRIC).set_value("mafalda").run()  # a metric with a taxonomy
    assert not at.exception, [e.value for e in at.exception]
    overall = next(c.value for c in at.caption if c.value.startswith("P "))
    assert "\n\nTaxonomy" in overall  # one element: the scores, then the taxonomy note
    assert not [c for c in at.caption if c.value.startswith("Taxonomy")]


def test_downloads_sit_one_click_further_and_one_system_draws_no_paired_heading(
        handmade) -> None:
    """Issue 29, eleventh pass: each table's CSV and JSON sit in a "⬇️ CSV / JSON" popover (one
    button on the page, the two inside, their keys as before); with one system the paired
    comparison is one caption, no heading above it."""
    from ui import widgets

    texts, sets = handmade
    at = app_on_sets(sets[:2], texts, "pages/scores.py", key="scores-one-system",
                     role="annotator")
    assert not at.exception, [e.value for e in at.exception]
    menus = [p for p in at.get("popover") if p.proto.popover.label == widgets.DOWNLOAD_MENU]
    assert len(menus) == 2  # the systems table's and the per-label table's
    keys = [b.proto.id for b in at.get("download_button")]
    for key in ("dl_overview_csv", "dl_overview_json", "dl_per_label_csv", "dl_per_label_json"):
        assert any(key in k for k in keys), key
    assert "Paired comparison" not in [h.value for h in at.header]
    assert any(c.value.startswith("**Paired comparison**: load a second system")
               for c in at.caption)


def test_the_metric_variants_sit_in_a_popover_and_a_link_still_sets_them(make_app) -> None:
    """Issue 29, eleventh pass: the variant selectboxes are inside the "⚙️ Metric variants"
    popover (closed, the browser mounts one button); they run all the same, so a link's
    ``?variant=`` and ``?mvariant=`` set the scores, and the systems table's caption names the
    variants chosen."""
    at = make_app("pages/scores.py", params={"variant": "nlp4if2019", "mvariant": "metrics-py"})
    assert not at.exception, [e.value for e in at.exception]
    (menu,) = [p for p in at.get("popover") if p.proto.popover.label == scores_ui.VARIANTS_MENU]
    inside = {c.key for c in menu.children.values()}
    assert inside == {state.variant_key("martino"), state.variant_key("mafalda")}
    assert at.selectbox(key=state.variant_key("martino")).value == "nlp4if2019"
    assert at.selectbox(key=state.variant_key("mafalda")).value == "metrics-py"
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Variants (⚙️ above): Da San Martino nlp4if2019; MAFALDA "
                            "metrics\\-py.") for c in captions), captions
    shown = next(df for df in tables(at) if "DSM F1" in df.columns)
    at.selectbox(key=state.variant_key("martino")).set_value("semeval2021").run()
    assert not at.exception
    again = next(df for df in tables(at) if "DSM F1" in df.columns)
    assert list(shown["DSM F1"]) != list(again["DSM F1"])  # the variant scores the table
