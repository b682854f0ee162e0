"""Scores page: the charts' titles wrap to fit a phone (390 px: a chart of 358 px), in a top
margin below Plotly's toolbar, the legend at the figure's foot, and the per-label chart is tall
enough for its longest label drawn upright below the bars (bugleft24: at 390 px "system_a: P,
R, F1 per label (Da San Martino)" ran past the chart's edge, a longer set name much further,
and "Misrepresentation of Someone's Position (Straw Man)" was cut at the chart's foot)."""

from __future__ import annotations

import json
import uuid

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet
from tests.app.conftest import APP, corpus
from ui import charts, state
from ui import scores as scores_ui

LONG = "predictions_roberta_large_finetuned_seed_3_run_2"


def _charts(at: AppTest) -> dict[str, dict]:
    figs = [json.loads(e.proto.spec) for e in at.get("plotly_chart")]
    return {"".join(f["layout"]["title"]["text"].split("<br>")): f["layout"] for f in figs}


def test_the_scores_charts_titles_wrap_in_room_of_their_own() -> None:
    texts, (gold, system_a, _) = corpus()
    long = AnnotationSet(LONG, system_a.spans, "system")
    report = state.FileReport("long.json", "test", "gold", "long", texts, (gold, long))
    ws = state.build_workspace([report], key=f"test:phone-titles:{uuid.uuid4().hex}",
                               title="long", shareable=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in {"b": LONG, scores_ui.K_SYSTEMS_TAB: scores_ui.TAB_F1_CHART,
                       scores_ui.K_DETAIL_TAB: scores_ui.TAB_LABEL_CHART}.items():
        at.query_params[key] = value
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    layouts = [json.loads(e.proto.spec)["layout"] for e in at.get("plotly_chart")]
    assert len(layouts) == 2
    for layout in layouts:
        lines = layout["title"]["text"].split("<br>")
        assert all(len(line) <= charts.TITLE_CHARS for line in lines), lines
        # below the toolbar, then a row for the legend above the plot
        assert layout["margin"]["t"] == (charts.TOOLBAR_PX + charts.LINE_PX * len(lines)
                                         + charts.TITLE_GAP)
        # the title's middle below the toolbar's row by half its lines; the legend at the foot
        middle = (1 - layout["title"]["y"]) * layout["height"]
        assert abs(middle - (charts.TOOLBAR_PX + charts.LINE_PX * len(lines) / 2)) < 1e-6
        assert layout["legend"]["yref"] == "container" and layout["legend"]["y"] == 0
    per_label = next(x for x in layouts if "per label" in x["title"]["text"])
    lines = per_label["title"]["text"].split("<br>")
    assert len(lines) == 2 and "".join(lines).startswith(LONG)  # the name alone is 48
    longest = max(len(lab) for lab in {*gold.labels(), *system_a.labels()})
    assert per_label["height"] >= 260 + charts.TICK_PX * longest


def test_a_short_title_stays_on_one_line() -> None:
    import pandas as pd

    fig = charts.systems_f1(pd.DataFrame({"system": ["a"], "F1": [0.5]}),
                            columns={"F1": "F1"}, title="F1 against gold")
    assert fig.layout.title.text == "F1 against gold"
    assert fig.layout.margin.t == charts.TOOLBAR_PX + charts.LINE_PX + charts.TITLE_GAP
    assert fig.layout.height == 360
