"""Errors page: the tables are what core computes; a click opens Documents filtered to it; the
Documents page filters by category and label and marks each span's category on the text."""

from __future__ import annotations

import threading

import pandas as pd
import pytest

from core.analysis.errors import categorise
from core.analysis.slices import slice_scores
from core.model.errors import InputError
from tests.app.conftest import page_tables, tables
from ui import errors as err_ui
from ui import sidebar, state
from ui.escape import plot


def _ws(at):  # -> state.Workspace
    return at.session_state[state.K_UPLOAD_WS]


def _html(at) -> str:
    return "\n".join(h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT)


def _tab(at, tab: int):  # -> AppTest
    """Open the page's tab ``err_ui.TABS[tab]`` (lazy tabs: only the open one is drawn)."""
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[tab]
    return at.run()


@pytest.mark.parametrize("data", ["handmade", "empty", "sample"])
def test_page_runs_on_every_start(make_app, data: str) -> None:
    at = make_app("pages/errors.py", data=data)
    assert not at.exception, [e.value for e in at.exception]
    assert any("Errors" in t.value for t in at.title)
    for tab in range(1, len(err_ui.TABS)):
        _tab(at, tab)
        assert not at.exception, (err_ui.TABS[tab], [e.value for e in at.exception])


def test_only_the_open_tab_is_drawn_and_a_slice_link_opens_the_slices(make_app) -> None:
    # Lazy tabs: a return to the page draws the category table, not every chart of the page
    # (the category chart has its own tab since the seventh pass).
    at = make_app("pages/errors.py")
    assert at.session_state[err_ui.K_ERR_TAB] == err_ui.TABS[0]
    assert not at.get("plotly_chart")
    assert [d for d in tables(at) if "prediction" in d.columns]  # the category table
    assert not [b for b in at.get("download_button") if "HTML report" in b.proto.label]
    _tab(at, 1)
    assert len(at.get("plotly_chart")) == 1 and at.radio(key=err_ui.K_ERR_SCALE)
    assert not [d for d in tables(at) if "prediction" in d.columns]  # no category table
    _tab(at, 2)
    assert len(at.get("plotly_chart")) == 1
    assert not [d for d in tables(at) if "prediction" in d.columns]  # no category table
    # A link that names a slice dimension and no tab opens the slices' tab.
    at = make_app("pages/errors.py", params={"edim": "label"})
    assert at.session_state[err_ui.K_ERR_TAB] == err_ui.TABS[4]
    assert at.selectbox(key=err_ui.K_ERR_DIM).value == "label"
    # A return to the page (here through the sidebar) opens the tab it was left on.
    at = _tab(make_app("pages/errors.py"), 2)
    at.switch_page("pages/documents.py").run()
    at.switch_page("pages/errors.py").run()
    assert at.session_state[err_ui.K_ERR_TAB] == err_ui.TABS[2]
    assert len(at.get("plotly_chart")) == 1 and at.radio(key=err_ui.K_ERR_VIEW)
    # The URL carries the open tab.
    at = make_app("pages/errors.py", params={err_ui.K_ERR_TAB: err_ui.TABS[3]})
    assert at.session_state[err_ui.K_ERR_TAB] == err_ui.TABS[3]
    # It opens on the error category with the most spans (tour 7).
    assert at.selectbox(key="err_list_category").value == err_ui.biggest_error(
        _ws(at), "gold", "system_a", 2)


def test_category_table_is_core_categorise_for_every_system(make_app, frame) -> None:
    at = make_app("pages/errors.py")
    table = frame(at, "system", "category", "reference", "prediction")
    ws = _ws(at)
    for system in ("system_a", "system_b"):
        expected = categorise(ws.sets["gold"], ws.sets[system]).table()
        got = table[table["system"] == system]
        assert list(got["category"]) == [r["category"] for r in expected]
        for row, exp in zip(got.to_dict("records"), expected, strict=True):
            for side in ("reference", "prediction"):
                value = row[side]
                assert (value is None or value != value) if exp[side] is None \
                    else int(value) == exp[side]


def test_slice_table_is_core_slice_scores(make_app, frame) -> None:
    at = make_app("pages/errors.py", params={"edim": "label", "b": "system_a"})
    table = frame(at, "system", "bucket", "F1 low")
    ws = _ws(at)
    expected = slice_scores(ws.sets["gold"], ws.sets["system_a"], dimension="label",
                            texts=ws.corpus.texts, n_resamples=1000, seed=0)
    got = table[table["system"] == "system_a"]
    assert list(got["bucket"]) == [b.bucket for b in expected]
    assert list(got["F1"]) == pytest.approx([b.f1 for b in expected])
    # a bucket of one document has no interval (None, shown —), as `slices --json` says
    assert list(got["F1 low"]) == [b.as_row(one_document_bounds=False)["F1 low"]
                                   for b in expected]
    assert [len(b.documents) for b in expected] == [1] * len(expected)  # every label, here


def test_the_category_table_is_plain_html_and_its_links_open_every_error_row(make_app
                                                                           ) -> None:
    # Issue 29, seventeenth pass: no data grid and no row selection; one escaped HTML table
    # (same rows, same order) and one link button per row that holds documents of an error
    # category, which opens the Documents page filtered to that system and category.
    from core.analysis.errors import ERRORS

    at = make_app("pages/errors.py")
    ws = _ws(at)
    assert not [d for d in at.dataframe if "prediction" in d.value.columns]
    (caption, table, marked), = [t for t in page_tables(at) if "prediction" in t[1].columns]
    assert list(table.columns) == ["system", "category", "reference", "prediction",
                                   "documents", "note"]
    assert caption.startswith(f"{len(table)} rows") and not marked
    linked = [(r.system, r.category) for r in table.itertuples() if r.documents == r.documents]
    assert linked and all(c in ERRORS for _, c in linked)
    assert sorted(b.key for b in at.button if b.key.startswith("err_open_")) == sorted(
        f"err_open_{system}_{category}" for system, category in linked)
    for system, category in (linked[0], linked[-1]):
        at = make_app("pages/errors.py")
        at.button(key=f"err_open_{system}_{category}").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert any(t.value.startswith("📄 Documents") for t in at.title)
        expected = categorise(ws.sets["gold"], ws.sets[system]).documents_with(category=category)
        assert at.selectbox(key=err_ui.K_ERR_CATEGORY).value == category
        assert at.selectbox(key=state.K_SET_B).value == system
        assert sorted(at.selectbox(key=state.K_DOC).options) == sorted(expected)
        if category == "missed":  # its spans are marked on the text with their category
            assert 'data-category="missed"' in _html(at)


def test_clicking_a_label_bar_filters_by_category_and_label(make_app) -> None:
    at = make_app("pages/errors.py")
    at.session_state[err_ui.K_ERR_LABEL_CHART] = {"selection": {"points": [
        {"customdata": ["system_a", "Fear", "correct", "reference"]}]}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=err_ui.K_ERR_LABEL).value == "Fear"
    assert at.selectbox(key=state.K_DOC).options == ["doc2"]


def test_clicking_a_bucket_lists_its_documents(make_app) -> None:
    at = make_app("pages/errors.py", params={"edim": "doc_length"})
    table = None
    for df in at.dataframe:
        if "bucket" in df.value.columns:
            table = df.value
    assert table is not None
    first = table.iloc[0]
    at.session_state[err_ui.K_ERR_SLICE_CHART] = {"selection": {"points": [
        {"customdata": [first["system"], first["bucket"]]}]}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    bucket = at.session_state[err_ui.K_ERR_DOCS]
    assert len(bucket["documents"]) == int(first["documents"])
    assert sorted(at.selectbox(key=state.K_DOC).options) == sorted(bucket["documents"])


def test_documents_filters_and_category_legend(make_app) -> None:
    at = make_app("pages/documents.py", params={"ecat": "boundary", "b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    ws = _ws(at)
    expected = categorise(ws.sets["gold"], ws.sets["system_a"]).documents_with(
        category="boundary")
    assert sorted(at.selectbox(key=state.K_DOC).options) == sorted(expected)
    body = _html(at)
    assert "ss-cat-legend" in body and 'data-category="boundary"' in body
    # Full-text search combines with the filter.
    at.text_input(key=state.K_DOC_QUERY).input("nothing like this").run()
    assert any("No document matches" in w.value for w in at.warning)


def test_markup_in_labels_stays_escaped_on_the_errors_page(make_app) -> None:
    at = make_app("pages/errors.py", params={"edim": "label"})
    for tab in range(len(err_ui.TABS)):
        _tab(at, tab)
        assert not at.exception
        assert "<b>bold</b>" not in _html(at)


def _report_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "spanscope-report"]


def test_report_is_written_in_the_background_with_its_step_then_offered(make_app,
                                                                       monkeypatch) -> None:
    err_ui.report_job.clear()  # a report another test wrote for the same data is offered at once
    at = _tab(make_app("pages/errors.py"), 4)
    assert not at.exception
    assert not [b for b in at.get("download_button") if "HTML report" in b.proto.label]
    # The writer waits at its sixth step until the test lets it go, so the page is seen while
    # the report is being written: a progress bar that names the step, no download yet.
    going, release = threading.Event(), threading.Event()
    written = err_ui.write_report

    reports: list[str] = []

    def slow(*args, **kwargs):  # -> str: the page passes the progress callback last
        args[-1]("slices: label (2 of 6)", 5, 12)
        going.set()
        assert release.wait(60)
        reports.append(written(*args, **kwargs))
        return reports[-1]

    monkeypatch.setattr(err_ui, "write_report", slow)
    at.button(key="err_report_write").click().run()
    assert going.wait(60) and not at.exception
    (bar,) = at.get("progress")
    assert ("Writing the report: slices: label (2 of 6) · step 6 of 12 ·"
            in bar.proto.text.replace("\\", ""))  # escaped markdown
    assert bar.proto.value == int(100 * 5 / 12)  # 5 of 12 steps done
    assert not [b for b in at.get("download_button") if "HTML report" in b.proto.label]
    release.set()
    for thread in _report_threads():
        thread.join(120)
    at.run()
    assert not at.exception
    buttons = [b for b in at.get("download_button") if "HTML report" in b.proto.label]
    assert len(buttons) == 1 and not at.get("progress")
    assert "err_report_write" not in [b.key for b in at.button]
    (html,) = reports  # core.analysis.report.build_report of the page's view, escaped
    assert "id='worst'" in html and "system_b" in html and "Errors page" in html
    assert "<script" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html


def test_report_job_keeps_the_report_or_the_input_error_and_may_retry() -> None:
    job = err_ui.ReportJob()
    job.start(lambda progress: (progress("scores of a", 1, 4), "<html/>")[1])
    for thread in _report_threads():
        thread.join(60)
    assert (job.html, job.error, job.running) == ("<html/>", None, False)
    assert job.status() == (0.25, job.status()[1]) and "scores of a" in job.status()[1]
    # An input error is the job's message, and the job may be started again.
    failing = err_ui.ReportJob()

    def refuse(progress):  # -> str
        raise InputError("no spans to report")

    failing.start(refuse)
    for thread in _report_threads():
        thread.join(60)
    assert failing.html is None and "no spans" in (failing.error or "")
    failing.start(lambda progress: "<p/>")
    for thread in _report_threads():
        thread.join(60)
    assert (failing.html, failing.error) == ("<p/>", None)


def test_figures_draw_what_the_tables_hold(make_app) -> None:
    at = make_app("pages/errors.py", params={"edim": "label"})
    ws = _ws(at)
    cats = err_ui.category_frame(ws.key, ws, "gold", ("system_a",), 2)
    fig = err_ui.category_chart(cats)
    missed = next(t for t in fig.data if t.name == "missed")
    expected = categorise(ws.sets["gold"], ws.sets["system_a"]).counts("reference")["missed"]
    assert list(missed.y) == [expected]
    assert list(missed.customdata[0]) == ["system_a", "reference", "missed", expected]
    assert missed.marker.pattern.shape == err_ui.CATEGORY_STYLE["missed"][1]  # a second cue
    frame, _, _ = err_ui.slice_frame(ws.key, ws, "gold", ("system_a",), "martino",
                                     "semeval2021", 2, "label", 200, 0, "", None)
    sfig = err_ui.slice_chart(frame, "F1", title="t")
    (bars,) = [t for t in sfig.data if t.type == "bar"]
    assert list(bars.y) == pytest.approx(list(frame["F1"]))
    # every label of this sample is in one document: no interval, so no whisker at all
    assert frame["F1 low"].isna().all() and bars.error_y.array is None


def test_a_bucket_of_one_document_is_a_labelled_marker_not_a_zero_length_whisker(
        make_app) -> None:
    """Every resample of a one-document bucket is that document: its "interval" was low = high,
    drawn as a flat whisker that read as certainty. It has no interval (None in the table, as
    ``slices --json`` writes it), no whisker, and a marker labelled so."""
    at = make_app("pages/errors.py", params={"edim": "span_length"})
    ws = _ws(at)
    frame, _, _ = err_ui.slice_frame(ws.key, ws, "gold", ("system_a",), "martino",
                                     "semeval2021", 2, "span_length", 200, 0, "", None)
    # a second system (the same rows, renamed) to see each marker over its own bar
    frame = pd.concat([frame, frame.assign(system="system_c")], ignore_index=True)
    one = frame[frame["documents"] == 1]
    many = frame[frame["documents"] > 1]
    assert len(one) and len(many)  # the sample has both kinds of bucket
    assert one[["F1 low", "F1 high", "P low", "R high"]].isna().all().all()
    assert many["F1 low"].notna().all()
    fig = err_ui.slice_chart(frame, "F1", title="t")
    bars = [t for t in fig.data if t.type == "bar"]
    marks = [t for t in fig.data if t.type == "scatter"]
    assert [b.name for b in bars] == ["system_a", "system_c"]
    for bar in bars:
        # the buckets as read (the axis draws them escaped for Plotly: "&lt; 9")
        read = [c[1] for c in bar.customdata]
        assert list(bar.x) == [plot(b) for b in read]
        sub = frame[frame["system"] == bar.name].set_index("bucket").reindex(read)
        whiskers = dict(zip(read, bar.error_y.array, strict=True))
        for bucket, n in sub["documents"].items():
            assert (whiskers[bucket] != whiskers[bucket]) == (n == 1), bucket  # NaN: none
        mark = next(m for m in marks if m.offsetgroup == bar.offsetgroup)
        singles = sub[sub["documents"] == 1]
        assert list(mark.x) == [plot(b) for b in singles.index]
        assert list(mark.y) == pytest.approx(list(singles["F1"]))
        assert list(mark.text) == [f"{v:.2f}" for v in singles["F1"]]
        assert "one document: no interval" in mark.hovertemplate
        assert [list(c) for c in mark.customdata] == [[bar.name, b] for b in singles.index]
        # the value is written once: over the marker, not over the bar too
        assert [t for b, t in zip(read, bar.text, strict=True) if b in singles.index] == [
            ""] * len(singles)
    # one legend entry names the marker for every system
    assert [m.name for m in marks if m.showlegend] == ["one document: no interval"]
    assert fig.layout.scattermode == "group"  # each marker over its own system's bar


def test_schema_table_is_core_nervaluate(make_app, frame) -> None:
    from core.metrics import nervaluate

    at = make_app("pages/errors.py")
    # A lazy expander: closed, it draws nothing (issue 29, seventeenth pass); opened, the table.
    assert not [t for t in tables(at) if "schema" in t.columns]
    assert not [c for c in at.caption if "One-to-one greedy alignment" in c.value]
    at.session_state[err_ui.K_ERR_SCHEMAS_OPEN] = True
    at.run()
    table = frame(at, "schema", "COR", "POS")
    ws = _ws(at)
    expected = nervaluate.score(ws.sets["gold"], ws.sets["system_a"]).to_dict()
    got = table[table["system"] == "system_a"].set_index("schema")
    for schema in nervaluate.SCHEMAS:
        assert got.loc[schema, "F1"] == pytest.approx(expected[schema]["f1"])
        assert int(got.loc[schema, "SPU"]) == expected[schema]["spurious"]


def test_clicking_a_span_bucket_marks_its_spans_on_documents(make_app) -> None:
    at = make_app("pages/errors.py", params={"edim": "span_length"})
    ws = _ws(at)
    buckets = slice_scores(ws.sets["gold"], ws.sets["system_a"], dimension="span_length",
                           texts=ws.corpus.texts, n_resamples=0)
    first = buckets[0]
    at.session_state[err_ui.K_ERR_SLICE_CHART] = {"selection": {"points": [
        {"customdata": ["system_a", first.bucket]}]}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    held = at.session_state[err_ui.K_ERR_DOCS]
    assert set(held["spans"]) == set(first.spans)
    assert sorted(at.selectbox(key=state.K_DOC).options) == sorted(first.documents)
    assert "outline:1px dashed #555555" in _html(at)  # the bucket's spans are marked


def test_the_marked_spans_outline_follows_the_dark_theme(make_app, monkeypatch) -> None:
    """On the dark theme the dashed outline is light (palette.FILTER_OUTLINE): #555 was 2.4:1
    on its background (Streamlit 1.67's #171614)."""
    import ui.documents
    from core.render import palette

    monkeypatch.setattr(ui.documents, "theme_type", lambda: "dark")
    at = make_app("pages/errors.py", params={"edim": "span_length"})
    ws = _ws(at)
    first = slice_scores(ws.sets["gold"], ws.sets["system_a"], dimension="span_length",
                         texts=ws.corpus.texts, n_resamples=0)[0]
    at.session_state[err_ui.K_ERR_SLICE_CHART] = {"selection": {"points": [
        {"customdata": ["system_a", first.bucket]}]}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    html = _html(at)
    assert f"outline:1px dashed {palette.FILTER_OUTLINE['dark']}" in html
    assert "dashed #555555" not in html


def test_span_list_shows_the_spans_of_a_category_with_their_text(make_app, frame) -> None:
    at = _tab(make_app("pages/errors.py"), 3)
    table = frame(at, "decided by", "text")
    ws = _ws(at)
    t = categorise(ws.sets["gold"], ws.sets["system_a"])
    shown = at.selectbox(key="err_list_category").value
    assert shown == err_ui.biggest_error(ws, "gold", "system_a", 2)
    spans = [s for s in t.spans if s.category == shown]
    assert len(table) == len(spans)
    assert set(table["text"]) == {ws.corpus.texts[s.document][s.start:s.end] for s in spans}


def test_an_uploaded_metadata_csv_slices_its_categories_and_names_the_rest(make_app) -> None:
    at = _tab(make_app("pages/errors.py"), 4)
    csv = (b"id,source,note\ndoc1,blog,first text by hand\ndoc2,blog,second one\n"
           b"doc10,news,the third\n")
    at.file_uploader(key=err_ui.K_ERR_META).set_value([("meta.csv", csv, "text/csv")]).run()
    assert not at.exception, [e.value for e in at.exception]
    options = list(at.selectbox(key=err_ui.K_ERR_DIM).options)
    assert "metadata: source" in options and "metadata: note" not in options
    notes = [c.value.replace("\\", "") for c in at.caption if "not sliced" in c.value]
    assert len(notes) == 1
    assert "**note** (an identifier: each of the 3 documents has its own value)" in notes[0]


def test_errors_only_leaves_out_correct_and_share_adds_to_100(make_app) -> None:
    import json

    from core.analysis.errors import ERRORS

    at = make_app("pages/errors.py", params={"eview": "errors only", "escale": "share"})
    assert not at.exception, [e.value for e in at.exception]
    (cats,) = [json.loads(e.proto.spec) for e in _tab(at, 1).get("plotly_chart")]
    _tab(at, 2)  # the per-label chart draws the same view
    assert at.radio(key=err_ui.K_ERR_VIEW).value == "errors only"
    (labels,) = [json.loads(e.proto.spec) for e in at.get("plotly_chart")]
    assert [t["name"] for t in cats["data"]] == list(ERRORS)
    assert all(t["name"] in ERRORS for t in labels["data"])
    ws = _ws(at)
    table = categorise(ws.sets["gold"], ws.sets["system_a"])
    errors = {side: {c: n for c, n in table.counts(side).items() if c in ERRORS}
              for side in ("reference", "prediction")}
    missed = next(t for t in cats["data"] if t["name"] == "missed")
    point = [i for i, d in enumerate(missed["customdata"]) if d[:2] == ["system_a", "reference"]]
    assert missed["customdata"][point[0]][3] == errors["reference"]["missed"]
    assert missed["y"][point[0]] == pytest.approx(
        100 * errors["reference"]["missed"] / sum(errors["reference"].values()))
    bars: dict[tuple[str, str], float] = {}
    for t in cats["data"]:
        for data, y in zip(t["customdata"], t["y"], strict=True):
            bars[(data[0], data[1])] = bars.get((data[0], data[1]), 0) + y
    assert bars and all(v == pytest.approx(100) or v == 0 for v in bars.values())


def test_counts_chart_is_the_default_and_counts_every_span(make_app) -> None:
    import json

    at = _tab(make_app("pages/errors.py"), 1)
    (cats, *_) = [json.loads(e.proto.spec) for e in at.get("plotly_chart")]
    assert cats["data"][0]["name"] == "correct"
    ws = _ws(at)
    table = categorise(ws.sets["gold"], ws.sets["system_a"])
    correct = cats["data"][0]
    assert correct["y"][0] == table.counts("reference")["correct"]


def _image_options(at) -> list[dict]:
    import json

    return [json.loads(c.proto.config)["toImageButtonOptions"] for c in at.get("plotly_chart")]


def test_chart_images_are_drawn_by_the_browser_in_the_format_picked(make_app) -> None:
    # Issue 29: no server-side Kaleido button; the modebar camera exports PNG or SVG.
    at = make_app("pages/errors.py", params={"edim": "label"})
    options = []
    for tab in (1, 2, 4):
        _tab(at, tab)
        assert not at.exception
        assert not [b for b in at.get("download_button")
                    if b.proto.label in ("⬇️ SVG", "⬇️ PNG")]
        options += _image_options(at)
    assert [o["filename"] for o in options] == ["error_categories", "error_categories_per_label",
                                                "slices_label"]
    assert {o["format"] for o in options} == {"png"}
    _tab(at, 2)
    at.segmented_control(key="dl_err_label_chart").set_value("SVG").run()
    assert not at.exception
    assert [o["format"] for o in _image_options(at)] == ["svg"]
    _tab(at, 1)
    assert [o["format"] for o in _image_options(at)] == ["png"]


def test_on_a_large_corpus_the_span_list_waits_for_its_toggle(make_app, frame,
                                                              monkeypatch) -> None:
    monkeypatch.setattr(err_ui, "FILTER_AUTO_DOCS", 0)  # the hand-made corpus is "large"
    at = _tab(make_app("pages/errors.py"), 3)
    assert not at.exception, [e.value for e in at.exception]
    assert not [d for d in at.dataframe if "decided by" in d.value.columns]
    at.toggle(key="err_list_on").set_value(True).run()
    ws = _ws(at)
    shown = at.selectbox(key="err_list_category").value
    spans = [s for s in categorise(ws.sets["gold"], ws.sets["system_a"]).spans
             if s.category == shown]
    assert len(frame(at, "decided by", "text")) == len(spans)


def test_span_list_from_the_columns_is_the_table_of_span_objects(make_app) -> None:
    # Issue 29, fifth pass: the list is built from the error table's columns, for the rows of
    # the category only; every value and dtype is what the SpanCategory objects gave.
    import pandas as pd

    at = make_app("pages/errors.py")
    ws = _ws(at)
    ref = next(iter(ws.sets))
    for system in [n for n in ws.sets if n != ref][:2]:
        table, _ = err_ui.error_table(ws.key, ws, ref, system, 2)
        assert table is not None
        texts = ws.corpus.texts
        for category in (err_ui.ALL, *err_ui.CATEGORY_STYLE):
            rows = [{"document": s.document, "side": s.side, "category": s.category,
                     "start": s.start, "end": s.end, "label": s.label,
                     "text": (texts[s.document][s.start:s.end]
                              if texts.get(s.document) is not None else ""),
                     "decided by": ("" if s.partner is None else f"[{s.partner[0]}, "
                                    f"{s.partner[1]}) {' | '.join(s.partner_labels)}"),
                     "overlap": s.overlap, "duplicate": s.duplicate}
                    for s in table.spans if category == err_ui.ALL or s.category == category]
            expected = pd.DataFrame(rows, columns=["document", "side", "category", "start",
                                                   "end", "label", "text", "decided by",
                                                   "overlap", "duplicate"])
            got = err_ui.span_frame(ws.key, ws, ref, system, 2, category)
            pd.testing.assert_frame_equal(got, expected)


def test_links_name_the_documents_of_each_category_and_open_them(make_app) -> None:
    at = make_app("pages/errors.py")
    ws = _ws(at)
    table = categorise(ws.sets["gold"], ws.sets["system_a"])
    links = {b.key: b.label for b in at.button if b.key.startswith("err_open_system_a_")}
    missed = table.documents_with(category="missed")
    assert links["err_open_system_a_missed"] == f"missed ({len(missed)})"
    for key, label in links.items():
        category = key.removeprefix("err_open_system_a_")
        assert label == f"{category} ({len(table.documents_with(category=category))})"
    key = next(b.key for b in at.button if b.key.startswith("err_open_system_b_"))
    category = key.removeprefix("err_open_system_b_")
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(t.value.startswith("📄 Documents") for t in at.title)
    assert at.selectbox(key=err_ui.K_ERR_CATEGORY).value == category
    assert at.selectbox(key=state.K_SET_B).value == "system_b"
    expected = categorise(ws.sets["gold"], ws.sets["system_b"]).documents_with(
        category=category)
    assert sorted(at.selectbox(key=state.K_DOC).options) == sorted(expected)


def test_the_tables_documents_column_counts_the_documents_of_each_error_category(
        make_app, frame) -> None:
    # Each row's documents: how many documents its link opens (the links' counts); none for
    # correct and optional spans or a category no document holds.
    from core.analysis.errors import ERRORS

    at = make_app("pages/errors.py")
    ws = _ws(at)
    table = frame(at, "documents", "system", "category")
    assert table["documents"].notna().any()
    for row in table.itertuples(index=False):
        held = categorise(ws.sets["gold"], ws.sets[row.system]).documents_with(
            category=row.category)
        if row.category in ERRORS and held:
            assert row.documents == len(held), row
            assert at.button(key=f"err_open_{row.system}_{row.category}").label == \
                f"{row.category} ({len(held)})"
        else:
            assert row.documents != row.documents, row  # "—"
    cats = err_ui.category_frame(ws.key, ws, "gold", ("system_a", "system_b"), 2)
    assert list(cats[cats["category"] != "error"]["category"]) == list(table["category"])


def test_a_link_clicked_again_after_coming_back_opens_documents_again(make_app) -> None:
    at = make_app("pages/errors.py")
    for _ in range(2):
        at.button(key="err_open_system_a_missed").click().run()
        assert any(t.value.startswith("📄 Documents") for t in at.title)
        assert at.selectbox(key=err_ui.K_ERR_CATEGORY).value == "missed"
        at.switch_page("pages/errors.py").run()  # back through the sidebar
        assert any(t.value.startswith("🔍 Errors") for t in at.title)


def test_kept_figures_are_the_ones_drawn_for_the_view(make_app) -> None:
    # The category and per-label figures are kept per view; switching the view away and
    # back draws the same figures, and a fresh build equals what the page shows.
    def specs(at) -> list[str]:  # the category chart, then the per-label chart (their tabs)
        drawn = [e.proto.spec for e in _tab(at, 1).get("plotly_chart")]
        drawn += [e.proto.spec for e in _tab(at, 2).get("plotly_chart")]
        return drawn

    at = make_app("pages/errors.py")
    first = specs(at)
    at.radio(key=err_ui.K_ERR_VIEW).set_value("errors only").run()  # in the per-label tab
    other = specs(at)
    at.radio(key=err_ui.K_ERR_VIEW).set_value("all spans").run()
    again = specs(at)
    assert len(first) == 2 and again == first
    assert other[0] != first[0] and other[1] != first[1]
    ws = _ws(at)
    cats = err_ui.category_frame(ws.key, ws, "gold", ("system_a", "system_b"), 2)
    fresh = err_ui.category_chart(cats[cats["category"] != "error"].reset_index(drop=True))
    import json

    assert json.loads(first[0])["data"] == json.loads(fresh.to_json())["data"]


def test_the_report_scores_in_the_variant_chosen_on_the_page(make_app, monkeypatch) -> None:
    """Tour 4 item 6: with Da San Martino's nlp4if2019 chosen, the page writes the report in
    it (``write_report`` gets the session's variants, the report names the variant) and needs
    no note; with the defaults the report is the default report."""
    from core.metrics import registry
    from ui import results

    err_ui.report_job.clear()
    at = _tab(make_app("pages/errors.py"), 4)
    assert not [i for i in at.info if "The report" in i.value]
    at.session_state[results.variant_key("martino")] = "nlp4if2019"
    at = _tab(at, 4)
    assert not at.exception, [e.value for e in at.exception]
    assert not [i for i in at.info if "The report" in i.value]  # the variant applies
    calls: list[dict[str, object]] = []
    written: list[str] = []
    real = err_ui.write_report

    def spy(*a, **k):  # -> str
        calls.append(k)
        written.append(real(*a, **k))
        return written[-1]

    monkeypatch.setattr(err_ui, "write_report", spy)
    at.button(key="err_report_write").click().run()
    for thread in _report_threads():
        thread.join(120)
    (html,) = written
    assert calls[0]["variants"] == {"martino": "nlp4if2019",
                                    "mafalda": registry.get("mafalda").default_variant}
    scores = html[html.index("<section id='scores'>"):html.index("<section id='categories'>")]
    assert "variant <b>nlp4if2019</b> (chosen; the default is semeval2021)" in scores
    assert "Martino scores (variant <b>nlp4if2019</b>) per bucket" in html
    assert "variants Da San Martino nlp4if2019" in html  # the page's "command"
    assert "not in the" not in html and "The report:" not in html


def test_the_report_says_its_slices_are_martinos_when_the_page_slices_with_mafalda(
        make_app) -> None:
    """The one choice the report cannot follow: it slices with Da San Martino's metric alone,
    so with MAFALDA chosen for the slices the page says so (and the report's command line)."""
    err_ui.report_job.clear()
    at = _tab(make_app("pages/errors.py"), 4)
    at.radio(key=err_ui.K_ERR_METRIC).set_value("mafalda").run()
    assert not at.exception, [e.value for e in at.exception]
    (info,) = [i.value.replace("\\", "") for i in at.info if "The report" in i.value]
    assert "its slices score Da San Martino (semeval2021), not MAFALDA (paper) as the " \
        "slices above" in info


def test_the_page_report_groups_each_system_as_the_page_does(make_app) -> None:
    """The report written from the page groups each system's labels by the taxonomy the page
    uses for that system (``results.taxonomy_for(ws, ref, system)``): a second system with a
    label outside MAFALDA's taxonomy leaves system_a's level-1 fallacy groups as the page shows
    them. The page runs on that workspace, the report's call is the page's."""
    from core.metrics.labels import confusion
    from core.model import AnnotationSet, Span
    from ui import results

    base = state.build_workspace(state.sample_reports("mafalda"), key="sample:mafalda",
                                 title="mafalda", shareable=True)
    a = base.sets["system_a"]
    stray = AnnotationSet("stray", {d: tuple(Span(s.start, s.end, "Doubt") for s in a.get(d))
                                    for d in a.doc_ids}, "system")
    report = state.FileReport("stray.json", "test", "system", "stray", dict(base.corpus.texts),
                              (stray,))
    ws = state.build_workspace([*state.sample_reports("mafalda"), report],
                               key="test:mafalda-stray", title="mafalda and a stray label",
                               shareable=False)
    at = make_app()
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.switch_page("pages/errors.py").run()
    assert not at.exception, [e.value for e in at.exception]
    page = confusion(ws.sets["gold"], ws.sets["system_a"], level=1,
                     taxonomy=results.taxonomy_for(ws, "gold", "system_a"))
    html = err_ui.write_report(ws, "gold", ("system_a", "stray"), 1, 20, 0, "", None)
    conf = html[html.index("id='confusion'"):html.index("id='worst'")]
    mine = conf[conf.index("<h3>system_a</h3>"):conf.index("<h3>stray</h3>")]
    assert "credibility" in page.columns
    for column in page.columns:
        assert f"<th class='col'>{column}</th>" in mine


def test_the_category_tables_downloads_come_before_the_links_in_page_order(make_app) -> None:
    """Tour 4 item 11a: under the table, its CSV/JSON downloads, then the links that open the
    documents: the order the keyboard walks is the order on the page."""
    at = make_app("pages/errors.py")
    assert not at.exception, [e.value for e in at.exception]
    order = [getattr(node, "key", None) or getattr(getattr(node, "proto", None), "id", "")
             for node in at.main]
    keys = [str(k) for k in order if k]
    downloads = [i for i, k in enumerate(keys) if "dl_err_categories" in k]
    links = [i for i, k in enumerate(keys) if k.startswith("err_open_")]
    assert downloads and links and max(downloads) < min(links), keys


def test_the_slice_charts_whiskers_take_the_themes_ink_and_stand_out_on_the_dark_theme(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plotly's default whisker colour (a dark navy) hid on the dark theme's background: the
    whiskers and the bars' outlines are the theme's text colour, 3:1 or more on its background
    (WCAG 2.1 SC 1.4.11), and the one-document ◇ keeps 3:1 on either theme."""
    import json

    from core.render.palette import THEME_BACKGROUNDS, contrast_ratio
    from ui.theme import DARK_INK, EITHER_GREY, LIGHT_INK

    backgrounds = {LIGHT_INK: THEME_BACKGROUNDS["light"], DARK_INK: THEME_BACKGROUNDS["dark"]}
    assert backgrounds[DARK_INK] == "#171614"  # Streamlit 1.67's dark theme, not the old #0e1117
    monkeypatch.setattr(err_ui, "theme_ink", lambda: DARK_INK)
    at = make_app("pages/errors.py", params={"edim": "span_length"})
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    (spec,) = [c for c in charts if any(t.get("error_y") for t in c["data"])]
    bars = [t for t in spec["data"] if t["type"] == "bar"]
    assert bars and all(t["error_y"]["color"] == DARK_INK for t in bars)
    assert all(t["marker"]["line"]["color"] == DARK_INK for t in bars)
    ws = _ws(at)
    frame, _, _ = err_ui.slice_frame(ws.key, ws, "gold", ("system_a",), "martino",
                                     "semeval2021", 2, "span_length", 200, 0, "", None)
    for ink, background in backgrounds.items():
        fig = err_ui.slice_chart(frame, "F1", title="t", ink=ink)
        (bar,) = [t for t in fig.data if t.type == "bar"]
        assert bar.error_y.color == ink and contrast_ratio(ink, background) >= 3
        (mark,) = [t for t in fig.data if t.type == "scatter"]
        assert mark.marker.symbol == "diamond-open"  # the second cue: shape and legend entry
        assert contrast_ratio(mark.marker.color, background) >= 3
    assert mark.marker.color == EITHER_GREY


def test_category_chart_numbers_share_one_size_and_leave_out_what_does_not_fit() -> None:
    # Tour: system_a's one "label" span drew a "1" that the plot area cut at the axis. Each
    # number is drawn at one readable size or not at all (the hover and the table keep it).
    cats = pd.DataFrame({"system": ["a", "a", "a"], "category": ["label", "boundary", "missed"],
                         "reference": [1, 40, 3], "prediction": [0, 40, None]})
    for view in err_ui.VIEWS:
        for scale in err_ui.SCALES:
            fig = err_ui.category_chart(cats, view=view, scale=scale)
            assert fig.layout.uniformtext.mode == "hide"
            assert fig.layout.uniformtext.minsize == err_ui.UNIFORM_TEXT >= 10
            assert all(t.textposition == "inside" and t.textangle == 0 for t in fig.data)
            label = next(t for t in fig.data if t.name == "label")
            assert list(label.customdata[0]) == ["a", "reference", "label", 1]
