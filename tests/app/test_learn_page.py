"""Learn page: each scenario shows its published source's numbers as core computes them; edits
made through the prediction table (injected editor state), the sliders and the reset button
change them."""

from __future__ import annotations

import pytest

from core.metrics import mafalda, martino
from core.model import Span
from core.teaching import scenarios
from ui import learn as learn_ui
from ui import learn_tables, results

PAGE = "pages/learn.py"


def _editor_key(sid: str, gen: int = 0) -> str:
    return f"learn_editor::{sid}::{gen}"


def _open(make_app, sid: str, data: str = "handmade"):
    at = make_app(PAGE, data=data, params={learn_ui.K_SCENARIO: sid})
    assert not at.exception, [e.value for e in at.exception]
    return at


def _edit(at, sid: str, *, edited=None, added=(), deleted=(), gen: int = 0):
    at.session_state[_editor_key(sid, gen)] = {
        "edited_rows": edited or {}, "added_rows": list(added), "deleted_rows": list(deleted)}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _scores(frame, at):
    df = frame(at, "metric", "variant", "P", "R", "F1")
    return {row["variant"]: row for row in df.to_dict("records")}


def _seed(frame, at):
    return frame(at, "quantity", "stated", "computed now", "match")


@pytest.mark.parametrize("data", ["handmade", "empty", "sample"])
def test_page_runs_whatever_data_is_loaded(make_app, data: str) -> None:
    at = make_app(PAGE, data=data)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "🎓 Learn"
    assert at.selectbox(key=learn_ui.K_SCENARIO).value == learn_ui.OPENING_SCENARIO


@pytest.mark.parametrize("sid", list(scenarios.SCENARIOS))
def test_each_scenario_shows_the_seeds_numbers(make_app, frame, sid: str) -> None:
    at = _open(make_app, sid)
    assert at.selectbox(key=learn_ui.K_SCENARIO).value == sid
    sc = scenarios.get(sid)
    ev = scenarios.evaluate(sc)
    seed = _seed(frame, at)
    assert list(seed["quantity"]) == [e.name for e in sc.expected]
    assert list(seed["match"]) == ["✅"] * len(sc.expected)
    for exp, shown in zip(sc.expected, seed["computed now"], strict=True):
        assert float(shown.split()[0]) == pytest.approx(scenarios.measure(ev, exp), abs=5e-5)
    scores = _scores(frame, at)
    for run in ev.runs:
        row = scores[run.name]
        if run.result is None:
            # the metric's own words, its Python parameter put as the dashboard's words
            assert row["note"] == "refused: " + (run.error or "").replace(
                results.MERGE_HINT, learn_tables.MERGE_HINT_LEARN)
        else:
            assert (row["P"], row["R"], row["F1"]) == pytest.approx(
                (run.result.precision, run.result.recall, run.result.f1))
    maf_row = scores[f"paper, level {sc.level}"]
    assert (maf_row["P"], maf_row["R"]) == pytest.approx((ev.mafalda.precision,
                                                          ev.mafalda.recall))


def test_figure1_recall_order_is_shown_with_the_seed_values(make_app, frame) -> None:
    at = _open(make_app, "figure1-s3s4s5")
    order = frame(at, "scenario", "R (computed)", "R (stated)").set_index("scenario")
    assert order.loc["figure1-s3s4s5", "R (computed)"] == pytest.approx(7 / 24)
    assert order.loc["figure1-s1", "R (computed)"] == pytest.approx(9 / 24)
    assert order.loc["figure1-t1", "R (computed)"] == pytest.approx(1.0)
    assert list(order.loc[["figure1-s3s4s5", "figure1-s1", "figure1-t1"], "R (stated)"]) == [
        "7/24", "9/24", "1"]


@pytest.mark.parametrize("sid", ["figure1-s3s4s5", "mafalda-example9"])
def test_the_published_source_is_not_called_a_seed(make_app, frame, sid: str) -> None:
    """"Seed" is the bootstrap's (Scores) and an exercise's random seed; a worked example's
    paper or scorer documentation is its published source (bugleft20)."""
    from tests.app.conftest import tables

    at = _open(make_app, sid)
    said = [e.value for kind in ("header", "subheader", "caption", "markdown", "info")
            for e in getattr(at, kind)]
    said += [str(c) for df in tables(at) for c in df.columns]
    said += [str(v) for df in tables(at) for c in ("stated by", "source") if c in df.columns
             for v in df[c]]
    assert not [s for s in said if "seed" in s.lower()], [s for s in said
                                                          if "seed" in s.lower()]


def test_example9_shows_martino_1_25_and_mafalda_1_side_by_side(make_app, frame) -> None:
    at = _open(make_app, "mafalda-example9")
    scores = _scores(frame, at)
    assert scores["semeval2021"]["R"] == pytest.approx(1.25)
    assert scores["paper, level 1"]["R"] == pytest.approx(1.0)
    assert scores["semeval2020-si"]["note"].startswith("refused: ")
    tiles = {m.label: m.value for m in at.metric}
    assert tiles["semeval2021, level 1 — recall"] == "1.25 (5/4)"
    assert tiles["MAFALDA paper, level 1 — recall"] == "1"


def test_example9_each_recall_names_its_setting(make_app, frame) -> None:
    """Issue 27: the labels as written (recall 0.25) and at level 1 (1.25) are two settings of
    one metric: each says its own, and no label stands beside two numbers. The ladder's first
    bar scores the labels as written; its SemEval-2021 bar is the tile's 1.25 (bugleft27)."""
    at = _open(make_app, "mafalda-example9")
    tiles = {m.label: m.value for m in at.metric}
    assert "semeval2021 — recall" not in tiles
    steps = frame(at, "step", "official metric", "change")
    recall = steps.columns[2]
    values = dict(zip(steps["step"], steps[recall], strict=True))
    assert values["Martino, merged (NLP4IF-2019 / SemEval-2020 -m) · labels as written"] == \
        pytest.approx(0.25)
    assert values["labels at level 1"] == pytest.approx(1.0)
    assert values["Martino, SemEval-2021, level 1"] == pytest.approx(1.25)
    assert "Martino, SemEval-2021" not in values
    labels = {}
    for label, value in [*tiles.items(), *values.items()]:
        labels.setdefault(label, set()).add(value)
    assert all(len(v) == 1 for v in labels.values())
    assert set(_scores(frame, at)["semeval2021"]["labels"].split()) >= {"level", "1"}


LADDER_OF_TILE = {"semeval2021": "martino", "nlp4if2019 (-m)": "merged"}
"""The ladder step (``core.metrics.differences.path_rules``) of each Martino tile; MAFALDA's is
``mafalda``; SemEval-2020 span identification ignores the labels and has none."""


def _tiles_and_bars(frame, at) -> list[tuple[str, float | None, float | None]]:
    """(tile, the tile's R, the R of the ladder's grey bar of that metric) for every tile with
    a bar: what the page's score table and the ladder's table say."""
    rows = _scores(frame, at)
    steps = frame(at, "step", "official metric", "change")
    recall = steps.columns[2]
    official = {k: v for k, v, o in zip(steps["step"], steps[recall], steps["official metric"],
                                        strict=True) if o}
    out = []
    for variant, row in rows.items():
        key = "mafalda" if row["metric"] == "MAFALDA" else LADDER_OF_TILE.get(variant)
        if key is None:
            continue
        titles = [t for t in official if t.startswith(
            {"martino": "Martino, SemEval-2021", "merged": "Martino, merged",
             "mafalda": "MAFALDA"}[key]) and "as written" not in t]
        assert len(titles) == 1, (variant, list(official))
        bar = official[titles[0]]
        out.append((variant, None if row["R"] != row["R"] else row["R"],
                    None if bar != bar else bar))
    return out


@pytest.mark.parametrize("sid", list(scenarios.SCENARIOS))
def test_every_tile_is_its_grey_bar_on_the_ladder(make_app, frame, sid: str) -> None:
    """bugleft27: Learn's tiles and its ladder disagreed at level 1 (Example 9): the tiles
    scored Martino at the example's level (nlp4if2019 -m 1, semeval2021 1.25) while the ladder's
    grey bars of the same metrics scored the labels as written (0.25 and 0.25), and the 1 of the
    merged tile stood on no bar at all. Each tile's recall is now its metric's grey bar."""
    at = _open(make_app, sid)
    pairs = _tiles_and_bars(frame, at)
    assert {p[0] for p in pairs} >= {"semeval2021", "nlp4if2019 (-m)"}
    for variant, tile, bar in pairs:
        assert (tile is None) == (bar is None), variant
        if tile is not None:
            assert tile == pytest.approx(bar), (sid, variant)


def test_an_edited_prediction_keeps_tiles_and_ladder_together(make_app, frame) -> None:
    """An edit recomputes both alike: Example 9 with P2 cut to [0, 20) at level 1."""
    sid = "mafalda-example9"
    at = _edit(_open(make_app, sid), sid, edited={1: {"end": 20}})
    pairs = _tiles_and_bars(frame, at)
    assert dict((v, t) for v, t, _ in pairs)["semeval2021"] == pytest.approx(10 / 40 + 20 / 40)
    for variant, tile, bar in pairs:
        assert tile == pytest.approx(bar), variant


def test_example5_lists_the_four_alternatives_scored_by_core(make_app, frame) -> None:
    at = _open(make_app, "mafalda-example5")
    alts = frame(at, "alternative", "spans", "Precision(S, T)", "Recall(S, T)")
    assert list(alts["alternative"]) == ["T1", "T2", "T3", "T4"]
    assert set(alts["|T|"]) == {4}
    ev = scenarios.evaluate(scenarios.get("mafalda-example5"))
    assert list(alts["Precision(S, T)"]) == pytest.approx([a.precision for a in ev.alternatives])
    assert list(alts["Recall(S, T)"]) == pytest.approx([a.recall for a in ev.alternatives])
    assert "G4 ⊥" in alts.iloc[2]["spans"]  # T3 leaves Sentence5 as ⊥


@pytest.mark.slow
def test_bug_scenario_shows_official_and_correct_per_label_tables(make_app, frame) -> None:
    at = _open(make_app, "per-technique-recall-bug")
    labels = frame(at, "label", "R (correct)", "R (official scorer)").set_index("label")
    row = labels.loc[scenarios.LL]
    assert (row["R (correct)"], row["F1 (correct)"]) == pytest.approx((0.25, 0.4))
    assert (row["R (official scorer)"], row["F1 (official scorer)"]) == pytest.approx((1.0, 1.0))
    assert any("19 techniques absent" in c.value for c in at.caption)


def test_pairs_table_is_martino_contributions(make_app, frame) -> None:
    at = _open(make_app, "figure1-s3s4s5")
    sc = scenarios.get("figure1-s3s4s5")
    rows = martino.contributions(sc.gold_set(), sc.pred_set(), doc=scenarios.DOC)
    pairs = frame(at, "pred", "gold", "|s∩t|", "C(s,t,|t|)")
    assert sorted(pairs["C(s,t,|t|)"]) == pytest.approx(sorted(r.contribution_r for r in rows))
    assert sorted(pairs["|s∩t|"]) == sorted(r.intersection for r in rows)
    assert set(pairs["pred"]) == {"P1", "P2", "P3"}


def test_editing_a_span_end_in_the_table_changes_the_scores(make_app, frame) -> None:
    at = _open(make_app, "figure1-s1")
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(9 / 24)
    _edit(at, "figure1-s1", edited={0: {"end": 57}})  # s1 = [42, 57): 15 of t1's characters
    scores = _scores(frame, at)
    assert scores["semeval2021"]["R"] == pytest.approx(15 / 24)
    assert scores["paper, level 2"]["R"] == pytest.approx(15 / 24)
    seed = _seed(frame, at).set_index("quantity")
    assert seed.loc["R({s1}, {t1})", "match"] == "❌"
    assert seed.loc["C(s1, t1, |t1|)", "match"] == "—"  # that pair no longer exists
    assert any("You have edited the predictions" in c.value for c in at.caption)
    tiles = {m.label: m for m in at.metric}
    assert tiles["semeval2021 — recall"].value == "0.625 (5/8)"


def test_changing_a_label_makes_the_overlap_count(make_app, frame) -> None:
    at = _open(make_app, "figure1-s2")
    assert _scores(frame, at)["semeval2021"]["R"] == 0.0
    _edit(at, "figure1-s2", edited={0: {"label": scenarios.LL}})
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(11 / 24)


@pytest.mark.slow
def test_deleting_and_adding_rows_change_the_2021_recall(make_app, frame) -> None:
    at = _open(make_app, "duplicates")
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(2.5)
    _edit(at, "duplicates", deleted=[1])
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(1.5)
    _edit(at, "duplicates", deleted=[1], added=[{"start": 0, "end": 20, "label": scenarios.LL}])
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(2.5)


@pytest.mark.slow
def test_invalid_rows_are_reported_and_left_out(make_app, frame) -> None:
    at = _open(make_app, "duplicates")
    _edit(at, "duplicates", edited={0: {"end": 0}},
          added=[{"start": 3, "end": 9, "label": None}])
    (warning,) = at.warning
    shown = warning.value.replace("\\", "")  # the problems are shown Markdown-escaped
    assert "P1: Span end must be greater than start: start=0, end=0" in shown
    assert "P4: choose a label" in shown
    # P2 = [0, 20) and P3 = [5, 15) are still scored: R = (1 + 0.5) / 1.
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(1.5)


def test_slider_moves_the_selected_span(make_app, frame) -> None:
    at = _open(make_app, "figure1-s1")
    (slider,) = at.slider
    assert slider.value == (42, 51)
    slider.set_range(33, 57).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(1.0)
    # The table shows the moved span (a new editor generation starts from the moved rows).
    editor = at.data_editor[0].value
    assert (int(editor["start"].iloc[0]), int(editor["end"].iloc[0])) == (33, 57)
    assert at.slider[0].value == (33, 57)


def test_slider_keeps_the_edits_made_in_the_table(make_app, frame) -> None:
    at = _open(make_app, "duplicates")
    _edit(at, "duplicates", deleted=[2])  # P3 [5, 15) removed
    at.slider[0].set_range(0, 10).run()  # P1 moved to [0, 10)
    assert not at.exception, [e.value for e in at.exception]
    # P1 [0,10) + P2 [0,20): R = 10/20 + 20/20.
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(1.5)
    assert len(at.data_editor[0].value) == 2


@pytest.mark.slow
def test_reset_restores_the_scenario_and_its_numbers(make_app, frame) -> None:
    at = _open(make_app, "figure1-s1")
    at.slider[0].set_range(0, 10).run()
    assert _scores(frame, at)["semeval2021"]["R"] == 0.0
    at.button(key="learn_reset").click().run()
    assert not at.exception
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(9 / 24)
    assert list(_seed(frame, at)["match"]) == ["✅"] * len(scenarios.get("figure1-s1").expected)


def test_edits_are_kept_per_scenario(make_app, frame) -> None:
    at = _open(make_app, "figure1-s1")
    at.slider[0].set_range(33, 57).run()
    at.selectbox(key=learn_ui.K_SCENARIO).select("duplicates").run()
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(2.5)
    at.selectbox(key=learn_ui.K_SCENARIO).select("figure1-s1").run()
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(1.0)


@pytest.mark.slow
def test_table_edits_survive_a_visit_to_another_scenario_and_page(make_app, frame) -> None:
    at = _open(make_app, "duplicates")
    _edit(at, "duplicates", deleted=[0, 1])  # only P3 [5, 15) left: R = 0.5
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(0.5)
    at.selectbox(key=learn_ui.K_SCENARIO).select("figure1-t1").run()
    at.selectbox(key=learn_ui.K_SCENARIO).select("duplicates").run()
    assert not at.exception, [e.value for e in at.exception]
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(0.5)
    assert len(at.data_editor[0].value) == 1
    at.switch_page("pages/scores.py").run()
    at.switch_page(PAGE).run()
    assert _scores(frame, at)["semeval2021"]["R"] == pytest.approx(0.5)


def test_selected_prediction_and_its_gold_partner_are_marked(make_app) -> None:
    at = _open(make_app, "figure1-s1")
    body = "\n".join(h.proto.body for h in at.html)
    assert 'id="learn-gold"' in body and 'id="learn-pred"' in body
    assert 'data-span="P1" title="Loaded Language" style="font-size:0.68em;font-weight:800' in body
    assert 'data-span="G1" title="Loaded Language" style="font-size:0.68em;font-weight:800' in body


def test_metric_cards_render_the_module_docstrings(make_app) -> None:
    at = _open(make_app, "figure1-s1")
    shown = {m.value.strip() for m in at.markdown}
    assert scenarios.card_markdown(martino.CARD).strip() in shown
    assert scenarios.card_markdown(mafalda.CARD).strip() in shown


@pytest.mark.slow
def test_scores_are_what_core_computes_for_the_edited_predictions(make_app, frame) -> None:
    at = _open(make_app, "mafalda-example5")
    _edit(at, "mafalda-example5", deleted=[3])  # Sentence5 left unpredicted
    sc = scenarios.get("mafalda-example5")
    ev = scenarios.evaluate(sc, [s for s in sc.pred if s != Span(44, 54, "ad hominem")])
    scores = _scores(frame, at)
    assert scores["semeval2021"]["R"] == pytest.approx(ev.run("semeval2021").result.recall)
    assert scores["semeval2021"]["R"] == pytest.approx(3 / 5)
    assert scores["paper, level 2"]["R"] == pytest.approx(1.0)  # T4: Sentence5 as ⊥


def test_learn_opens_on_a_scenario_where_the_metrics_disagree() -> None:
    ev = scenarios.evaluate(scenarios.get(learn_ui.OPENING_SCENARIO))
    run = ev.run("semeval2021")
    assert run is not None and run.result is not None and ev.mafalda is not None
    martino_recall = run.result.r_num / run.result.r_den
    assert martino_recall == 1.25
    assert martino_recall != ev.mafalda.recall


def test_typing_an_offset_moves_the_prediction(make_app) -> None:
    at = _open(make_app, "figure1-s1")
    starts = [n for n in at.number_input if n.label == "start"]
    assert starts
    before = int(starts[0].value)
    at.number_input(key=starts[0].key).set_value(before + 1).run()
    assert not at.exception
    rows = at.session_state[learn_ui.K_LEARN_ROWS]["figure1-s1"]
    assert rows[0]["start"] == before + 1


def test_the_published_source_is_explained_where_it_appears(make_app) -> None:
    at = make_app(PAGE)
    assert any("The published source of this example is the paper" in c.value
               for c in at.caption)


def test_a_prediction_made_invalid_in_the_mover_stays_picked_to_be_fixed(make_app) -> None:
    """Typing a start past the end used to switch the mover to P2, so P1 could only be fixed in
    the table."""
    sid = "mafalda-example9"
    at = _open(make_app, sid)
    assert at.selectbox(key=learn_ui.K_LEARN_MOVE).value == "P1"
    (start,) = [n for n in at.number_input if n.label == "start"]
    (end,) = [n for n in at.number_input if n.label == "end"]
    bad = int(end.value) + 5
    at.number_input(key=start.key).set_value(bad).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=learn_ui.K_LEARN_MOVE).value == "P1"
    assert any("P1: Span end must be greater than start" in w.value.replace("\\", "")
               for w in at.warning)
    (start,) = [n for n in at.number_input if n.label == "start"]
    assert int(start.value) == bad  # the box still edits P1, as typed
    at.number_input(key=start.key).set_value(0).run()  # and P1 is fixed where it broke
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=learn_ui.K_LEARN_MOVE).value == "P1"
    assert at.session_state[learn_ui.K_LEARN_ROWS][sid][0]["start"] == 0
    assert not any("P1:" in w.value for w in at.warning)


def test_a_refusal_names_the_command_line_option_not_a_python_parameter(make_app, frame) -> None:
    at = _open(make_app, "mafalda-example9")
    df = frame(at, "variant", "note")
    (text,) = df.loc[df["variant"] == "semeval2020-si", "note"]
    assert text.startswith("refused: ")
    assert "merge_pred" not in text and "--merge-pred (-m)" in text
    assert "edit the predictions" in text


def test_the_scores_json_download_has_the_csvs_full_precision() -> None:
    """pandas' to_json rounds to 10 digits: the JSON said 1.1111111111 where the CSV said
    1.1111111111111112."""
    import csv
    import io
    import json

    import pandas as pd

    from ui.widgets import records_json, safe_csv

    sc = scenarios.get("duplicates")
    df = pd.DataFrame([r.record() for r in learn_tables.score_rows(
        scenarios.evaluate(sc, list(sc.pred)), sc)])
    from_json = json.loads(records_json(df))
    from_csv = list(csv.DictReader(io.StringIO(safe_csv(df))))
    checked = 0
    for j, c in zip(from_json, from_csv, strict=True):
        for k in ("P", "R", "F1"):
            if j[k] is None:
                assert c[k] == ""
                continue
            assert j[k] == float(c[k]) and repr(j[k]) == c[k]
            checked += 1
    assert checked >= 6
    assert any(j["F1"] is not None and len(repr(j["F1"])) > 12 for j in from_json)


def test_pair_table_puts_the_contributions_before_the_span_texts(make_app, frame) -> None:
    """Figure 1's point is C(s1, t1, |t1|) = 9/24: with the two quoted span texts before it, the
    C columns were cut off at the right edge of a 1,400 px screen (a student saw |s∩t|, |s|, |t|
    and had to scroll sideways for the number the example is about). The counts and the
    contributions come first, the long texts last."""
    at = _open(make_app, "figure1-s1")
    pairs = frame(at, "pred", "C(s,t,|t|)", "pred span")
    assert list(pairs.columns) == ["pred", "gold", "|s∩t|", "|s|", "|t|", "δ", "C(s,t,|s|)",
                                   "C(s,t,|t|)", "pred span", "gold span"]
    assert pairs.iloc[0]["C(s,t,|t|)"] == pytest.approx(9 / 24)


def test_the_ladder_is_the_metric_differences_waterfall(make_app) -> None:
    """Learn's ladder is drawn by the Metric differences page's one builder
    (``ui.differences.waterfall_spec``, Vega-Lite), not a second plotly chart: its rows are the
    ladder's steps (the first bar says that it scores the labels as written), its title is
    Learn's, and MAFALDA Example 9's recall of 1.25 stands against the
    dashed line at 1."""
    import json

    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    from ui import differences as diff

    sid = "mafalda-example9"
    at = _open(make_app, sid)
    assert at.radio(key="learn_ladder_measure").value == "R"
    assert not at.get("plotly_chart")
    (element,) = at.get("vega_lite_chart")
    spec = json.loads(element.proto.spec)
    (data,) = [d for d in element.proto.datasets if d.name == diff.WATERFALL_DATA]
    drawn = convert_arrow_bytes_to_pandas_df(data.data.data)
    sc = scenarios.get(sid)
    steps = scenarios.ladder(sc, list(sc.pred))
    want = diff.waterfall_rows(steps, "recall")
    assert list(drawn["step"]) == list(want["step"]) and len(drawn) >= 2
    assert list(drawn["end"]) == pytest.approx(list(want["end"]))
    assert list(drawn["kind"]) == list(want["kind"])
    assert " ".join(spec["title"]["text"]) == "R of these predictions (grey: the metrics)"
    assert max(drawn["end"]) == pytest.approx(1.25)
    (rule,) = [layer for layer in spec["layer"] if layer["mark"]["type"] == "rule"]
    assert rule["mark"]["strokeDash"] and rule["data"]["values"] == [{"one": 1}]


def test_a_step_keeps_the_mover_widgets_so_the_keyboard_keeps_its_place(make_app) -> None:
    """Tour 17: each step of the end box (or of the slider's thumb) by the keyboard made new
    widgets (their keys held the editor's generation and the offsets), so the browser dropped the
    focus to the page after every character and a keyboard user tabbed back ~30 stops per step.
    The same keys after a step are the same widgets in the browser: the focus stays."""
    sid = "figure1-s1"
    at = _open(make_app, sid)

    def mover_keys(at):
        keys = [n.key for n in at.number_input if n.label in ("start", "end")]
        return keys, at.slider[0].key

    before = mover_keys(at)
    (end,) = [n for n in at.number_input if n.label == "end"]
    at.number_input(key=end.key).set_value(int(end.value) + 1).run()  # [42, 52)
    assert not at.exception, [e.value for e in at.exception]
    assert mover_keys(at) == before
    assert at.slider[0].value == (42, 52)  # the slider follows the box
    at.slider(key=before[1]).set_range(42, 53).run()
    assert not at.exception, [e.value for e in at.exception]
    assert mover_keys(at) == before
    assert [int(n.value) for n in at.number_input if n.label in ("start", "end")] == [42, 53]
    at.button(key="learn_reset").click().run()  # and a reset puts both back
    assert mover_keys(at) == before
    assert at.slider[0].value == (42, 51)
    assert [int(n.value) for n in at.number_input if n.label in ("start", "end")] == [42, 51]


def test_mafalda_recall_names_the_prediction_of_its_label_on_a_shared_interval(
        make_app, frame) -> None:
    """Example 5 with Sentence4 predicted twice, ad hominem (P3) then appeal to tradition (P5):
    recall takes P5 for the gold's appeal to tradition; the table named P3, the first
    prediction of that interval, whatever its label (review20)."""
    sid = "mafalda-example5"
    at = _open(make_app, sid)
    s4 = scenarios.get(sid).pred[2]
    assert s4.label == "appeal to tradition"
    _edit(at, sid, edited={2: {"label": "ad hominem"}},
          added=[{"start": s4.start, "end": s4.end, "label": s4.label}])
    best_r = frame(at, "gold", "label recall takes", "best prediction")
    row = best_r[best_r["label recall takes"] == "appeal to tradition"]
    assert list(row["best prediction"]) == ["P5"], best_r
    assert list(row["C(s,t,|t|)"]) == [1.0]
    best_p = frame(at, "pred", "label", "best gold").set_index("pred")
    assert best_p.loc["P3", "C(s,t,|s|)"] == 0.0 and best_p.loc["P5", "C(s,t,|s|)"] == 1.0
