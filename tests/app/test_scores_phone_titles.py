"""Scores page: the charts' titles wrap to fit a phone (390 px: a chart of 358 px), in a top
margin below Plotly's toolbar, the legend at the figure's foot, and the per-label chart lies on
its side, each label beside its bars, as tall as its labels need (bugleft27; bugleft24: at 390
px "system_a: P, R, F1 per label (Da San Martino)" ran past the chart's edge, a longer set name
much further, and "Misrepresentation of Someone's Position (Straw Man)", drawn upright below
the bars, was cut at the chart's foot)."""

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
    labels = {*gold.labels(), *system_a.labels()}
    assert per_label["height"] >= charts.GROUP_PX * len(labels) + charts.AXIS_PX
    (bars,) = {json.dumps(t.get("orientation")) for t in _per_label_traces(at)}
    assert bars == '"h"'  # horizontal: each label's name beside its bars (bugleft27)


def _per_label_traces(at: AppTest) -> list[dict]:
    figs = [json.loads(e.proto.spec) for e in at.get("plotly_chart")]
    (fig,) = [f for f in figs if "per label" in f["layout"]["title"]["text"]]
    return list(fig["data"])


def test_the_per_label_chart_lies_on_its_side_and_grows_with_its_labels() -> None:
    """bugleft27: at 390 px the upright per-label chart gave each label's group of three bars
    about 120 px of width and drew its name upright below them. Its bars now lie on their side,
    one row of three a label in the table's order, each label wrapped beside them at
    LABEL_CHARS and whole in the hover, and the chart grows by at least GROUP_PX a label."""
    import pandas as pd

    names = ["Misrepresentation of Someone's Position (Straw Man)", "Doubt", "<b>x</b>",
             *(f"label {i}" for i in range(17))]
    df = pd.DataFrame({"label": names, "P": 0.5, "R": 0.25, "F1": 1 / 3})
    fig = charts.per_label_prf(df, title="t")
    assert [t.orientation for t in fig.data] == ["h", "h", "h"]
    assert [t.name for t in fig.data] == ["P", "R", "F1"]
    ticks = list(fig.data[0].y)
    assert ticks[0] == "Misrepresentation of<br>Someone's Position<br>(Straw Man)"
    assert ticks[2] == "&lt;b&gt;x&lt;/b&gt;"  # escaped, as every label a chart draws
    assert all(len(line) <= charts.LABEL_CHARS for t in ticks for line in t.split("<br>"))
    assert fig.data[0].customdata[0] == names[0]  # the hover's name whole
    assert fig.layout.yaxis.autorange == "reversed"  # the table's first label at the top
    few = charts.per_label_prf(df.head(4), title="t")
    assert fig.layout.height - few.layout.height >= charts.GROUP_PX * 16
    assert fig.layout.height >= charts.GROUP_PX * len(names) + charts.AXIS_PX


def test_a_short_title_stays_on_one_line() -> None:
    import pandas as pd

    fig = charts.systems_f1(pd.DataFrame({"system": ["a"], "F1": [0.5]}),
                            columns={"F1": "F1"}, title="F1 against gold")
    assert fig.layout.title.text == "F1 against gold"
    assert fig.layout.margin.t == charts.TOOLBAR_PX + charts.LINE_PX + charts.TITLE_GAP
    assert fig.layout.height == 360
