"""Metric differences page: the waterfall's end points are the Scores page's numbers, the
per-text table is core's, and picking a text opens it on the Documents page."""

from __future__ import annotations

import time
from typing import Any

import pytest

from core.metrics import differences
from tests.app.conftest import tables
from ui import differences as diff
from ui import state

SHOWN = 5e-5
"""The steps table is Markdown: its scores are read back at the four decimals it shows."""


def _steps(frame, at, measure: str = "F1"):  # -> DataFrame indexed by step
    return frame(at, "step", "official metric", measure, "rules").set_index("step")


def _steps_shown(at) -> bool:
    return any("official metric" in t.columns for t in tables(at))

def _spy_on_the_path(monkeypatch) -> tuple[list[str], list[bool], object, list]:
    """The hand-made corpus made "large" (its path computed in the background); the parts the
    page asks the worker for, whether it took MAFALDA's steps from the pair's scores, the
    real ``path_job``, and the steps tables the page drew (at full precision: the Markdown
    shows four decimals)."""
    monkeypatch.setattr(diff, "PATH_BACKGROUND_DOCS", 0)
    parts: list[str] = []
    real_job = diff.path_job
    monkeypatch.setattr(diff, "path_job", lambda *a: (parts.append(a[-1]), real_job(*a))[1])
    reused: list[bool] = []
    real_with = diff.with_mafalda
    monkeypatch.setattr(diff, "with_mafalda", lambda *a: (reused.append(True), real_with(*a))[1])
    drawn: list = []
    real_markdown = diff.steps_markdown
    monkeypatch.setattr(diff, "steps_markdown",
                        lambda t, m: (drawn.append(t), real_markdown(t, m))[1])
    return parts, reused, real_job, drawn


def _shown_steps(frame, at) -> list[float]:
    """The recall of each step the page shows, once the path in the background is done."""
    deadline = time.time() + 120
    while not _steps_shown(at):
        assert time.time() < deadline, "the path did not finish"
        time.sleep(0.3)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return list(_steps(frame, at, "R")["R"])



@pytest.mark.parametrize("data", ["handmade", "sample", "empty"])
def test_the_page_runs_on_every_start(make_app, data: str) -> None:
    at = make_app("pages/differences.py", data=data)
    assert not at.exception, [e.value for e in at.exception]
    if data == "empty":
        assert at.info and "at least two sets" in at.info[0].value


@pytest.mark.slow
@pytest.mark.parametrize("level", ["2", "0"])
def test_waterfall_end_points_equal_the_scores_page(make_app, frame, level: str) -> None:
    params = {"b": "system_a", "level": level}
    scores = make_app("pages/scores.py", params=params)
    assert not scores.exception, [e.value for e in scores.exception]
    shown = frame(scores, "system", "DSM F1", "MAFALDA F1").set_index("system")
    diff = make_app("pages/differences.py", params=params)
    assert not diff.exception, [e.value for e in diff.exception]
    steps = _steps(frame, diff)
    # the systems table shows four decimals (ui.small_table.small_table)
    assert steps.loc["Martino, SemEval-2021", "F1"] == pytest.approx(
        shown.loc["system_a", "DSM F1"], abs=5e-5)
    # the hand-made labels have no levels (ui.levels): both pages leave the URL's level out
    assert steps.loc["MAFALDA, level 2", "F1"] == pytest.approx(
        shown.loc["system_a", "MAFALDA F1"], abs=5e-5)
    assert list(steps["official metric"]).count("✓ official") == 3


def test_every_step_is_core_rule_score(make_app, frame, handmade) -> None:
    _, sets = handmade
    gold, system = sets[0], sets[1]
    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R"})
    steps = _steps(frame, at, "R")
    for key, title, _, rules, _ in differences.path_rules(2, "paper"):
        want = differences.rule_score(gold, system, rules).recall
        assert steps.loc[title, "R"] == pytest.approx(want, abs=SHOWN), key


def test_per_text_table_is_core_document_differences(make_app, frame, handmade) -> None:
    _, sets = handmade
    at = make_app("pages/differences.py", params={"b": "system_a"})
    table = frame(at, "document", "Martino F1", "MAFALDA F1", "reasons")
    rows = differences.document_differences(sets[0], sets[1])
    assert list(table["document"]) == [r.document for r in rows]
    assert list(table["MAFALDA F1"]) == pytest.approx([r.mafalda[2] for r in rows])
    assert list(table["reasons"]) == [", ".join(r.reasons) for r in rows]


def test_picking_a_row_opens_the_text_on_the_documents_page(make_app, frame) -> None:
    at = make_app("pages/differences.py", params={"b": "system_a"})
    first = frame(at, "document", "reasons").iloc[0]["document"]
    at.session_state[diff.K_DIFF_TABLE] = {"selection": {"rows": [0], "columns": [],
                                                          "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state.K_DOC] == first
    assert any(t.value.startswith("📄 Documents") for t in at.title)


def _large_workspace(n_docs: int):  # -> ui.state.Workspace
    from core.model import AnnotationSet, Span

    texts = {f"d{i}": "word " * 40 for i in range(n_docs)}
    gold = AnnotationSet("gold", {d: (Span(0, 20, "A"), Span(10, 30, "A")) for d in texts})
    pred = AnnotationSet("system_a", {d: (Span(0, 10 + i % 20, "A"),)
                                      for i, d in enumerate(texts)}, "system")
    report = state.FileReport("large.json", "test", "gold", "large", texts, (gold, pred))
    return state.build_workspace([report], key=f"test:large{n_docs}", title="large",
                                 shareable=False)


def test_on_a_large_corpus_the_scatter_is_drawn_only_when_asked(frame) -> None:
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP

    n = diff.SCATTER_AUTO + 1
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = _large_workspace(n)
    at.run()
    at.switch_page("pages/differences.py").run()
    assert not at.exception, [e.value for e in at.exception]
    # the waterfall only, a Vega-Lite chart: no plotly chart on the page
    assert not at.get("plotly_chart") and len(at.get("vega_lite_chart")) == 1
    assert any(f"off for {n:,} texts" in c.value for c in at.caption)
    assert len(frame(at, "document", "F1 difference")) > 0  # the table is there regardless
    at.toggle(key=diff.K_DIFF_DRAW).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.get("plotly_chart")) == 1  # the scatter
    assert not any("off for" in c.value for c in at.caption)


def test_a_small_corpus_draws_the_scatter_without_a_toggle(make_app) -> None:
    at = make_app("pages/differences.py")
    assert len(at.get("plotly_chart")) == 1 and len(at.get("vega_lite_chart")) == 1
    assert not [t for t in at.toggle if t.key == diff.K_DIFF_DRAW]


def test_a_system_missing_documents_gets_a_warning_not_a_crash(make_app) -> None:
    # system_b has no entry for doc10: the SemEval-2021 end point refuses it, the page says so
    # and keeps the path above (a crash with an uncaught InputError before).
    at = make_app("pages/differences.py", params={"b": "system_b"})
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(w.value for w in at.warning)
    assert "cannot be compared one by one" in shown and "doc10" in shown
    assert _steps_shown(at), "the steps table is still shown"


def test_waterfall_axis_fits_small_values_and_keeps_one_in_view() -> None:
    low = diff.axis_range(["absolute", "relative", "total"], [0.16, -0.04, 0.12])
    assert low == pytest.approx((0.0, 0.16 * 1.3))  # 0.16 fills most of the width
    past = diff.axis_range(["absolute", "relative", "total"], [0.9, 0.35, 1.25])
    assert past[0] == 0 and past[1] > 1.25 > 1  # the largest value and 1 both shown
    assert diff.axis_range(["absolute"], [0.0]) == (0.0, 1.0)


def _waterfall(at) -> tuple[dict, Any]:
    """The waterfall's Vega-Lite spec as the page drew it (the page's one Vega-Lite chart) and
    the rows it drew (its dataset, sent as Arrow)."""
    import json

    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    (element,) = at.get("vega_lite_chart")
    (data,) = [d for d in element.proto.datasets if d.name == diff.WATERFALL_DATA]
    return json.loads(element.proto.spec), convert_arrow_bytes_to_pandas_df(data.data.data)


def test_drawn_waterfall_is_core_s_path(make_app) -> None:
    """Each bar is a step of :func:`core.metrics.differences.metric_path` as the page's path
    computed it: official metrics from 0 to their score, each rule from the score before it to
    the score after it, up or down by its sign; the text beside a bar is that score or that
    change, signed (the cue beside the colour); the hover names the step and its score."""
    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R"})
    spec, rows = _waterfall(at)
    ws = at.session_state[state.K_UPLOAD_WS]
    steps = [s for s in diff.path(ws.key, ws, "gold", "system_a", 2, "paper")
             if s.value("recall") is not None]
    assert list(rows["step"]) == [s.title for s in steps]
    before = None
    for s, row in zip(steps, rows.to_dict("records"), strict=True):
        value = s.value("recall")
        assert row["end"] == pytest.approx(value)
        if s.official or before is None:
            assert (row["kind"], row["start"], row["text"]) == (diff.OFFICIAL, 0, f"{value:.3f}")
        else:
            assert row["start"] == pytest.approx(before)
            assert row["kind"] == (diff.UP if value >= before else diff.DOWN)
            assert row["text"] == f"{value - before:+.3f}"
        before = value
    bars = spec["layer"][0]
    assert bars["encoding"]["color"]["scale"] == {
        "domain": [diff.OFFICIAL, diff.UP, diff.DOWN],
        "range": ["#777777", diff.OKABE_ITO[4], diff.OKABE_ITO[5]]}
    assert [t["field"] for t in bars["encoding"]["tooltip"]] == ["step", "score", "change",
                                                                "kind"]
    assert spec["title"]["text"][0].startswith("R, one rule at a time")


def test_drawn_waterfall_axis_is_fitted(make_app) -> None:
    spec, rows = _waterfall(make_app("pages/differences.py", params={"b": "system_a"}))
    bars, _text, *rule = spec["layer"]
    low, high = bars["encoding"]["x"]["scale"]["domain"]
    top = float(rows["end"].max())
    assert low == 0 and high == pytest.approx(top * 1.3)
    assert bool(rule) == (top > 1)  # the dashed line at 1 only past 1


def test_drawn_waterfall_names_keep_their_room_on_the_axis(make_app) -> None:
    """The names' room on the axis is set from the names (``minExtent``, no measuring pass):
    at 5.6 px a character, the widest Streamlit's font draws these names, the longest line
    fits; each row is high enough for the most lines a name wraps to."""
    spec, _ = _waterfall(make_app("pages/differences.py", params={"b": "system_a"}))
    axis = spec["layer"][0]["encoding"]["y"]["axis"]
    names = spec["layer"][0]["encoding"]["y"]["sort"]
    lines = [line for name in names for line in name.split("\n")]
    longest = max(map(len, lines))  # "best match per span"
    assert longest == 19
    assert axis["minExtent"] >= 5.6 * longest + 8
    assert axis["labelExpr"] == "split(datum.label, '\\n')"  # a name's lines, one below another
    most = max(name.count("\n") + 1 for name in names)
    assert spec["height"]["step"] >= diff.LINE_PX * most + 8
    assert diff.names_margin(["a<br>bcd", "ab"]) == round(diff.NAME_PAD + 3 * diff.NAME_PX)
    assert diff.names_margin([]) == diff.NAME_PAD


def test_on_a_large_corpus_the_path_runs_in_the_background(make_app, frame, handmade,
                                                           monkeypatch) -> None:
    _, sets = handmade
    monkeypatch.setattr(diff, "PATH_BACKGROUND_DOCS", 0)  # the hand-made corpus is "large"
    monkeypatch.setattr(diff, "TEXTS_AUTO", 0)
    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R"})
    assert not at.exception, [e.value for e in at.exception]
    # the text-by-text comparison waits for its toggle
    assert not [d for d in at.dataframe if "MAFALDA F1" in d.value.columns]
    deadline = time.time() + 120
    while not _steps_shown(at):
        assert time.time() < deadline, "the path did not finish"
        time.sleep(0.3)
        at.run()
    steps = _steps(frame, at, "R")
    for key, title, _, rules, _ in differences.path_rules(2, "paper"):
        want = differences.rule_score(sets[0], sets[1], rules).recall
        assert steps.loc[title, "R"] == pytest.approx(want, abs=SHOWN), key
    # what the toggle turns on is in its help, with no caption below it (eleventh pass)
    assert "opens it on the 📄 Documents page" in at.toggle(key=diff.K_DIFF_TEXTS).help
    assert not [c for c in at.caption if "Turn on the comparison" in c.value]
    at.toggle(key=diff.K_DIFF_TEXTS).set_value(True).run()
    rows = differences.document_differences(sets[0], sets[1])
    assert list(frame(at, "document", "MAFALDA F1")["document"]) == [r.document for r in rows]


def test_a_measure_switched_back_rebuilds_no_waterfall_and_no_text_table(make_app,
                                                                          monkeypatch) -> None:
    """Issue 29 (warm interactions < 300 ms): the waterfall of a path and measure already drawn
    is the same figure, and the text-by-text table the same rows, not built again."""
    at = make_app("pages/differences.py", params={"b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    first = [e.proto.spec for e in at.get("vega_lite_chart")]
    at.radio(key=diff.K_DIFF_MEASURE).set_value("P").run()
    built: list[str] = []
    real = diff.waterfall_spec
    monkeypatch.setattr(diff, "waterfall_spec",
                        lambda *a, **k: (built.append(a[1]), real(*a, **k))[1])
    real_table = diff.documents_table
    monkeypatch.setattr(diff, "documents_table", lambda rows: (built.append("texts"),
                                                                real_table(rows))[1])
    at.radio(key=diff.K_DIFF_MEASURE).set_value("F1").run()
    assert not at.exception, [e.value for e in at.exception]
    assert built == []  # neither the waterfall nor the text-by-text table built again
    assert at.dataframe(key=diff.K_DIFF_TABLE).value.shape[0] > 0
    assert [e.proto.spec for e in at.get("vega_lite_chart")] == first
    at.radio(key=diff.K_DIFF_MEASURE).set_value("R").run()  # another measure, another chart
    assert [e.proto.spec for e in at.get("vega_lite_chart")] != first


def test_on_a_large_corpus_mafalda_s_steps_come_from_the_pair_s_scores(make_app, frame,
                                                                       monkeypatch) -> None:
    """Issue 29, eighth pass: the worker scores the path's Martino part; its MAFALDA steps are
    the pair's MAFALDA scores when these are computed (``ui.results.scored_pair``), else a
    second job's. Both ways give the path's own steps."""
    from ui import results

    parts, reused, _, drawn = _spy_on_the_path(monkeypatch)

    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R"})
    ws = at.session_state[state.K_UPLOAD_WS]
    ref = state.default_pair(ws)[0]
    whole = differences.metric_path(ws.sets[ref], ws.sets["system_a"],
                                    taxonomy=results.taxonomy_for(ws, ref, "system_a"),
                                    texts=ws.corpus.texts)
    want = [s.value("recall") for s in whole]
    # Not computed (a fresh process, whose scores ahead are still running): the page asks the
    # worker for both parts, and puts them together.
    monkeypatch.setattr(diff, "scored_pair", lambda *a: None)
    parts.clear()
    reused.clear()
    at.run()
    assert parts[:2] == ["martino", "mafalda"], parts  # (then ui.ahead asks for the first)
    assert _shown_steps(frame, at) == pytest.approx(want, abs=SHOWN)
    assert list(drawn[-1]["R"]) == want  # the same numbers, not merely close
    assert not reused
    # The pair's MAFALDA scores computed (as Scores, or the scores computed ahead, compute
    # them): the page asks for the Martino part only and takes MAFALDA's steps from them.
    monkeypatch.setattr(diff, "scored_pair", results.scored_pair)
    results.pair_result.clear()
    results.pair_result(ws.key, ws, ref, "system_a", "mafalda", "paper", 2)
    assert results.scored_pair(ws.key, ref, "system_a", "mafalda", "paper", 2) is not None
    parts.clear()
    at.run()
    assert set(parts) == {"martino"}, parts
    assert _shown_steps(frame, at) == pytest.approx(want, abs=SHOWN)
    assert list(drawn[-1]["R"]) == want
    assert reused


def test_mafalda_s_steps_still_coming_from_the_pair_s_scores_are_waited_for(make_app, frame,
                                                                             monkeypatch) -> None:
    """Issue 29, ninth pass: opened while the thread that scores the pair ahead is still to
    compute MAFALDA (``ui.results.coming_pair``), the page asks the worker for the Martino part
    only and waits for that thread's result, then shows the path's own steps; a thread that gets
    past it without a result (``coming`` false, nothing scored) leaves it to a second job."""
    from ui import results

    parts, reused, real_job, drawn = _spy_on_the_path(monkeypatch)
    coming = [True]  # nothing scored while it is coming
    monkeypatch.setattr(diff, "coming_pair", lambda *a: coming[0])
    monkeypatch.setattr(diff, "scored_pair",
                        lambda *a: None if coming[0] else results.scored_pair(*a))

    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R"})
    ws = at.session_state[state.K_UPLOAD_WS]
    ref = state.default_pair(ws)[0]
    assert ref is not None
    whole = differences.metric_path(ws.sets[ref], ws.sets["system_a"],
                                    taxonomy=results.taxonomy_for(ws, ref, "system_a"),
                                    texts=ws.corpus.texts)
    want = [s.value("recall") for s in whole]
    parts.clear()
    at.run()
    assert set(parts) == {"martino"}, parts  # the page's and ui.ahead's: the same job
    # The Martino part done, MAFALDA's still coming: the page keeps waiting, asks for no more.
    deadline = time.time() + 120
    while not real_job(ws.key, ws, ref, "system_a", 2, "paper", "martino").done():
        assert time.time() < deadline, "the Martino part did not finish"
        time.sleep(0.3)
    at.run()
    assert not _steps_shown(at)
    assert set(parts) == {"martino"} and not reused, parts
    assert any("come with the pair's scores" in bar.proto.text for bar in at.get("progress"))
    # The thread gets there: the page takes its result.
    results.pair_result(ws.key, ws, ref, "system_a", "mafalda", "paper", 2)
    coming[0] = False
    assert _shown_steps(frame, at) == pytest.approx(want, abs=SHOWN)
    assert list(drawn[-1]["R"]) == want
    assert reused and set(parts) == {"martino"}, parts
    # Past it without a result (a thread that failed): the worker scores MAFALDA's part.
    results.pair_result.clear()
    monkeypatch.setattr(diff, "scored_pair", lambda *a: None)
    reused.clear()
    parts.clear()
    coming[0] = True
    at.run()
    assert set(parts) == {"martino"}, parts
    coming[0] = False
    assert _shown_steps(frame, at) == pytest.approx(want, abs=SHOWN)
    assert list(drawn[-1]["R"]) == want
    assert "mafalda" in parts and not reused, parts


def test_mafalda_s_job_is_done_for_the_page_once_the_pair_s_scores_have_it() -> None:
    """The progress bar of MAFALDA's job reruns the page when the job is done or when the pair's
    scores computed ahead have the result first (``ui.differences._OrScored``)."""
    from ui.jobs import Job

    job: Job[list[differences.Step]] = Job("MAFALDA for system_a", "path", {})
    ready = [False]
    polled = diff._OrScored(job, lambda: ready[0])
    assert not polled.done() and polled.title == job.title and polled.started is None
    ready[0] = True
    assert polled.done() and not job.done()


def test_the_line_at_one_follows_the_theme(make_app, monkeypatch) -> None:
    """The dashed line at 1 (a value past 1 is shown against it) is drawn in the theme's text
    colour the page passes (``ui.theme.theme_ink``): a fixed #555555 was 2.5:1 on the dark
    theme's background. Without one it is a grey readable on either theme."""
    from types import SimpleNamespace
    from typing import Any, cast

    from ui import theme

    def step(title: str, value: float, official: bool) -> differences.Step:
        score = cast(Any, SimpleNamespace(f1=value, recall=value, precision=value))
        return differences.Step(title, title, "", cast(Any, None), score, official=official)

    steps = [step("a", 0.9, True), step("b", 1.3, False), step("c", 1.3, True)]

    for ink in ("#fafafa", theme.EITHER_GREY):
        spec = diff.waterfall_spec(steps, "recall", title="t", ink=ink)
        (rule,) = [layer for layer in spec["layer"] if layer["mark"]["type"] == "rule"]
        assert rule["mark"]["color"] == ink and rule["data"]["values"] == [{"one": 1}]
        assert spec["layer"][0]["encoding"]["y"]["axis"]["labelColor"] == ink
    below = [step("a", 0.5, True), step("b", 0.4, False), step("c", 0.4, True)]
    assert [layer["mark"]["type"] for layer in diff.waterfall_spec(
        below, "recall", title="t")["layer"]] == ["bar", "text"]

    for kind, ink in (("dark", theme.DARK_INK), ("light", theme.LIGHT_INK)):
        monkeypatch.setattr(theme, "st", SimpleNamespace(
            get_option=lambda name: None,
            context=SimpleNamespace(theme=SimpleNamespace(type=kind))))
        assert theme.theme_ink() == ink
    monkeypatch.undo()

    inks: list[str] = []
    real = diff.waterfall_of

    def spy(*args):  # -> go.Figure
        inks.append(args[-1])
        return real(*args)

    monkeypatch.setattr(diff, "theme_ink", lambda: theme.DARK_INK)  # as a dark browser says
    monkeypatch.setattr(diff, "waterfall_of", spy)
    at = make_app("pages/differences.py", params={"b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert inks == [theme.DARK_INK]


def test_drawn_scatter_title_is_wrapped_below_the_toolbar_to_fit_a_phone(make_app) -> None:
    """On a phone (390 px, a chart of 358 px) the scatter's title ran on one line under Plotly's
    toolbar and was cut ("...against MAFAL"): it is wrapped as the waterfall's, each line at
    most :data:`ui.differences.TITLE_CHARS` characters (about 7 px each in Plotly's bold title
    font), in a top margin that leaves the toolbar its own room."""
    import json

    at = make_app("pages/differences.py", params={"b": "system_a"})
    figs = [json.loads(e.proto.spec) for e in at.get("plotly_chart")]
    (scatter,) = [f for f in figs if f["layout"].get("xaxis", {}).get("title", {}).get("text")
                  == "Martino F1"]
    lines = scatter["layout"]["title"]["text"].split("<br>")
    assert len(lines) == 2 and " ".join(lines).startswith("Per text: Martino F1")
    assert "MAFALDA F1 (paper, level 2)" in lines[-1]
    assert all(len(line) <= diff.TITLE_CHARS for line in lines)
    assert diff.TITLE_CHARS * 7 <= 358 - 20  # a line fits the phone's chart and its margins
    assert scatter["layout"]["margin"]["t"] >= 40 + 20 * len(lines)
    # the waterfall's title by the same rule
    wf_lines = _waterfall(at)[0]["title"]["text"]
    # (three lines since it names the pair, level and variant: tour19)
    assert len(wf_lines) >= 2 and all(len(line) <= diff.TITLE_CHARS for line in wf_lines)


def test_the_steps_table_is_markdown_and_its_downloads_one_click_further(make_app,
                                                                         frame) -> None:
    """Issue 29, eleventh pass: no data grid on the page's first screen (the steps are a
    Markdown table in the container keyed ``diff_steps``, the score at four decimals, the
    change signed, an official metric marked in words), the CSV and JSON behind one
    "⬇️ CSV / JSON" popover, and the glossary's list drawn only once it is opened."""
    from ui import learn, widgets

    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R"})
    assert not at.exception, [e.value for e in at.exception]
    assert not [d for d in at.dataframe if "official metric" in d.value.columns]  # no grid
    steps = _steps(frame, at, "R")
    shown = next(m.value for m in at.markdown if str(m.value).startswith("| step |"))
    assert "| ✓ official |" in shown
    changes = [c for c in steps["change"] if isinstance(c, float) and c == c]
    assert changes and all(
        f"| {c:+.4f} |" in shown for c in changes if abs(c) >= 5e-5)
    popovers = [p for p in at.get("popover") if p.proto.popover.label == widgets.DOWNLOAD_MENU]
    assert len(popovers) == 1
    keys = [b.proto.id for b in at.get("download_button")]
    assert any("dl_diff_steps_csv" in k for k in keys) and any("dl_diff_steps_json" in k
                                                            for k in keys)
    (box,) = [e for e in at.expander if e.label == learn.GLOSSARY_TITLE]
    assert not box.markdown  # closed: the list is not drawn


def test_the_mafalda_variant_sits_in_a_popover_and_a_link_still_sets_it(make_app, frame,
                                                                        handmade) -> None:
    """Issue 29, eleventh pass: the MAFALDA variant's selectbox is inside the "⚙️ MAFALDA
    variant" popover; it runs all the same, so a link's ``?mvariant=`` sets the path's last
    steps, and the path's heading names the variant."""
    _, sets = handmade
    at = make_app("pages/differences.py",
                  params={"b": "system_a", "measure": "R", "mvariant": "metrics-py"})
    assert not at.exception, [e.value for e in at.exception]
    (menu,) = [p for p in at.get("popover") if p.proto.popover.label == diff.VARIANT_MENU]
    assert [c.key for c in menu.children.values()] == [state.K_MAF_VARIANT]
    assert at.selectbox(key=state.K_MAF_VARIANT).value == "metrics-py"
    assert any(h.value.startswith("From Martino to MAFALDA (metrics\\-py):")
               for h in at.header), [h.value for h in at.header]
    steps = _steps(frame, at, "R")
    want = differences.metric_path(sets[0], sets[1], mafalda_variant="metrics-py")
    assert len(steps) == len(want)
    assert list(steps["R"]) == pytest.approx([s.value("recall") for s in want], abs=SHOWN)


@pytest.mark.parametrize("measure", ["F1", "P", "R"])
def test_the_steps_table_sits_in_a_container_of_its_measure_named_by_the_phone_cards(
        make_app, measure: str) -> None:
    # bugleft21: on a phone the steps are cards (ui.sidebar.STEPS_CSS) whose score is named
    # by the container's key
    from ui import sidebar

    at = make_app("pages/differences.py", params={"b": "system_a", "measure": measure})
    assert not at.exception, [e.value for e in at.exception]
    attr = diff.SHOWN_MEASURES[measure]
    keys: list[str] = []

    def walk(node: Any) -> None:  # every block's id ends with its key
        if type(node).__name__ == "Block":
            keys.append(str(node.proto.id))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    assert [k for k in keys if "-diff_steps_" in k] == [k for k in keys
                                                      if k.endswith("-diff_steps_" + attr)]
    assert len([k for k in keys if k.endswith("-diff_steps_" + attr)]) == 1
    assert any(str(m.value).startswith("| step |") for m in at.markdown)
    assert (f".st-key-diff_steps_{attr} td:nth-child(3)::before{{content:'{measure} '"
            in sidebar.STEPS_CSS)
    assert sidebar.STEPS_CSS in sidebar.SCRIPT
    assert set(diff.MEASURES) == {"f1", "precision", "recall"}  # the style names each one
    # from one table: the page's options and the cards' names were two copies (bugleft23)
    from ui import results

    assert diff.MEASURES is results.MEASURES
    assert all(f".st-key-diff_steps_{key} td:nth-child(3)::before{{content:'{shown} '"
               in sidebar.STEPS_CSS for key, shown in results.MEASURES.items())


def test_why_the_texts_differ_is_read_in_full_with_the_count_of_these_texts(make_app,
                                                                            frame) -> None:
    """tour19: the reasons' legend was a data grid whose "what it does" column was cut at the
    column's edge at 1,440 px and on a phone. It is a Markdown table (no grid), every
    explanation in full, with how many of these texts carry each reason, those first."""
    at = make_app("pages/differences.py", data="sample",
                  params={"sample": "mafalda", "b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert not [d for d in at.dataframe if "what it does" in d.value.columns]  # no grid
    legend = frame(at, "reason", "texts", "what it does")
    assert list(legend["what it does"]) == [differences.REASONS[r] for r in legend["reason"]]
    per_text = frame(at, "document", "reasons")
    want = {r: sum(r in str(tags).split(", ") for tags in per_text["reasons"])
            for r in differences.REASONS}
    assert {r: int(n) for r, n in zip(legend["reason"], legend["texts"], strict=True)} == {
        r: n for r, n in want.items() if n}  # the reasons of these texts, with their counts
    counts = [int(n) for n in legend["texts"]]
    assert counts == sorted(counts, reverse=True) and len(counts) >= 3  # most texts first
    (others,) = [e for e in at.expander if e.label.startswith("The other reasons")]
    rest = [t for t in tables(at) if list(t.columns) == ["reason", "what it does"]]
    assert len(rest) == 1 and sorted(rest[0]["reason"]) == sorted(r for r, n in want.items()
                                                                   if not n)
    assert f"({len(rest[0])}, in none of these texts)" in others.label


def test_the_waterfall_s_title_names_the_pair_level_and_variant_for_its_png(make_app) -> None:
    """tour19: the waterfall's PNG (its toolbar's download) went on a slide saying only "F1,
    one rule at a time": the pair, the level and the variant were in the page's heading, which
    the PNG leaves out. Its title (wrapped, drawn in the PNG) names them."""
    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R",
                                                  "mvariant": "metrics-py"})
    assert not at.exception, [e.value for e in at.exception]
    spec, _ = _waterfall(at)
    title = " ".join(spec["title"]["text"])
    assert title == ("R, one rule at a time: system_a against gold, level 2, MAFALDA "
                     "metrics-py (grey: the official metrics)")
    assert all(len(line) <= diff.TITLE_CHARS for line in spec["title"]["text"])
