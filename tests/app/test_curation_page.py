"""Curation page: it shows what core.analysis.consensus proposes, the lead's accept / reject /
relabel / re-bound decisions change the curated set, persist across page changes, make the
``curated`` set of every page, and round-trip through the decisions file; text is escaped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from core.analysis.consensus import Override, consensus, curated_set, read_decisions
from core.metrics.agreement import Study, against
from core.model import AnnotationSet, Span
from ui import curation as cur
from ui import sidebar, state
from ui.escape import md

PAGE = "pages/curation.py"
APP = Path(__file__).resolve().parents[2] / "app.py"
XSS = '<script>alert("x")</script>'
TEXTS: dict[str, str | None] = {
    "d1": "The quick brown fox jumps over the lazy dog near the river bank today.",
    "d2": f"Fear sells: {XSS} they will take everything you own unless you act now!",
}
SETS = [
    AnnotationSet("ann1", {"d1": (Span(4, 19, "Loaded"), Span(35, 43, "Doubt")),
                           "d2": (Span(0, 10, "Fear"),)}, "annotator"),
    AnnotationSet("ann2", {"d1": (Span(4, 15, "Loaded"),),
                           "d2": (Span(0, 10, "Fear"), Span(12, 41, "Smear"))}, "annotator"),
    AnnotationSet("ann3", {"d1": (Span(4, 19, "Loaded"), Span(35, 43, "Fear")),
                           "d2": (Span(0, 10, "Fear"),)}, "annotator"),
]


def _app() -> AppTest:
    report = state.FileReport("panel.json", "test", "annotator", "panel", TEXTS, tuple(SETS))
    ws = state.build_workspace([report], key="test:curation", title="panel", shareable=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    return at.switch_page(PAGE).run()


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _expected() -> tuple:
    r = consensus(SETS, TEXTS, min_agree=2, match="gamma", boundaries="majority",
                  name="curated")
    return r, r.disputed()


def _html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT)


def test_page_shows_the_core_proposal_and_progress() -> None:
    at = _app()
    assert not at.exception
    r, disputed = _expected()
    assert at.multiselect(key=cur.K_CUR_SETS).value == ["ann1", "ann2", "ann3"]
    assert at.number_input(key=cur.K_CUR_K).value == 2
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"
    assert _metric(at, "Proposed spans") == str(len(r.decisions))
    assert _metric(at, "Curated spans") == str(r.set.span_count())
    card = _html(at)
    first = disputed[0]
    assert f"<b>{first.id}</b>" in card and f"{len(first.annotators)} of 3 annotators" in card
    # around the disputed span: one lane per annotator, then the proposal and the curated set
    for dom in ("cur-ctx-lane-0", "cur-ctx-lane-1", "cur-ctx-lane-2", "cur-ctx-proposed",
                "cur-ctx-curated"):
        assert f'id="{dom}"' in card
    # the whole document and its proposals table on demand
    assert 'id="cur-document"' not in card
    assert not any("dispute" in df.value.columns for df in at.dataframe)
    at.toggle(key=cur.K_CUR_WHOLE).set_value(True).run()
    whole = _html(at)
    for dom in ("cur-lane-0", "cur-lane-1", "cur-lane-2", "cur-proposed", "cur-curated"):
        assert f'id="{dom}"' in whole
    assert f"<b>{first.id}</b>" in whole  # the card stays
    assert any("dispute" in df.value.columns for df in at.dataframe)



def test_the_tiles_say_why_proposed_and_curated_spans_differ_before_any_decision() -> None:
    """Tour 17: on the sample "Proposed spans 31" stood beside "Curated spans 29" with nothing
    decided; the 31 count the rule's drop proposals too. Each tile's help says what it counts,
    with the rule's keep and drop counts."""
    at = _app()
    assert not at.exception
    r, _ = _expected()
    help_of = {m.label: m.proto.help for m in at.metric}
    keep = sum(d.decision == "keep" for d in r.decisions)
    drop = len(r.decisions) - keep
    assert drop > 0 and keep == r.set.span_count()  # the case the tiles must explain
    assert f"{keep:,} it proposes to keep and {drop:,} to drop" in help_of["Proposed spans"]
    assert "marked identically by every annotator" in help_of["Unanimous"]
    assert "kept proposals" in help_of["Curated spans"]

def test_accept_reject_relabel_and_rebound_change_the_curated_set_as_core_says() -> None:
    at = _app()
    r, disputed = _expected()
    at.button(key="cur_accept").click().run()
    at.button(key="cur_drop").click().run()
    expected = {disputed[0].key: Override.accept(disputed[0]),
                disputed[1].key: Override("drop", *disputed[1].span.interval,
                                          disputed[1].span.label)}
    assert _metric(at, "Decided") == f"2 / {len(disputed)}"
    assert at.session_state[cur.K_CUR_POS] == 2  # accept and reject move on
    assert _metric(at, "Curated spans") == str(curated_set(r, expected).span_count())
    # relabel the third, re-bound it, then reset it: back to the rule
    third = disputed[2]
    at.selectbox(key=cur.K_CUR_LABEL).set_value("Doubt")
    at.button(key="cur_relabel").click().run()
    assert at.session_state[cur.K_CUR_OVERRIDES]["test:curation"][third.key].label == "Doubt"
    at.number_input(key=cur.K_CUR_START).set_value(third.span.start + 1)
    at.button(key="cur_bounds_btn").click().run()
    o = at.session_state[cur.K_CUR_OVERRIDES]["test:curation"][third.key]
    assert (o.decision, o.start, o.end, o.label) == ("keep", third.span.start + 1,
                                                      third.span.end, "Doubt")
    assert _metric(at, "Decided") == f"3 / {len(disputed)}"
    at.button(key="cur_reset").click().run()
    assert _metric(at, "Decided") == f"2 / {len(disputed)}"


def test_undo_takes_back_the_last_decision_after_the_card_moved_on() -> None:
    at = _app()
    _, disputed = _expected()
    assert at.button(key="cur_undo").disabled  # nothing decided yet
    at.button(key="cur_accept").click().run()
    at.button(key="cur_drop").click().run()
    assert at.session_state[cur.K_CUR_POS] == 2 and not at.button(key="cur_undo").disabled
    assert at.button(key="cur_reset").disabled  # the span shown is undecided
    at.button(key="cur_undo").click().run()  # the drop of the second span, card back on it
    assert _metric(at, "Decided") == f"1 / {len(disputed)}"
    assert at.session_state[cur.K_CUR_POS] == 1
    # a relabel then new bounds: undo takes back the bounds and keeps the relabel
    second = disputed[1]
    assert second.span.label == "Doubt"  # so relabelling it to Fear changes it
    at.selectbox(key=cur.K_CUR_LABEL).set_value("Fear")
    at.button(key="cur_relabel").click().run()
    at.number_input(key=cur.K_CUR_START).set_value(second.span.start + 1)
    at.button(key="cur_bounds_btn").click().run()
    at.button(key="cur_undo").click().run()
    o = at.session_state[cur.K_CUR_OVERRIDES]["test:curation"][second.key]
    assert (o.label, o.start) == ("Fear", second.span.start)
    at.button(key="cur_undo").click().run()
    at.button(key="cur_undo").click().run()  # and the accept of the first
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"
    assert at.session_state[cur.K_CUR_POS] == 0 and at.button(key="cur_undo").disabled


def test_undo_reaches_the_last_decisions_after_a_reload() -> None:
    """The history of decisions lived in the session: a lead who reloaded the tab (or opened
    the page again, or after a restart) could not undo the last decisions. It is kept in the
    store with the decisions, so a new session undoes them, last first, card back on each."""
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_accept").click().run()
    at.button(key="cur_drop").click().run()
    fresh = _app()  # a reload: a new session on the same store
    assert _metric(fresh, "Decided") == f"2 / {len(disputed)}"
    assert not fresh.button(key="cur_undo").disabled
    fresh.button(key="cur_undo").click().run()  # the drop of the second span
    assert _metric(fresh, "Decided") == f"1 / {len(disputed)}"
    assert fresh.session_state[cur.K_CUR_POS] == 1
    assert disputed[1].key not in fresh.session_state[cur.K_CUR_OVERRIDES]["test:curation"]
    again = _app()  # reloaded once more: the accept of the first is still within reach
    again.button(key="cur_undo").click().run()
    assert _metric(again, "Decided") == f"0 / {len(disputed)}"
    assert again.session_state[cur.K_CUR_POS] == 0 and again.button(key="cur_undo").disabled
    assert _metric(_app(), "Decided") == f"0 / {len(disputed)}"  # undone in the store too


def test_relabel_or_bounds_that_change_nothing_record_nothing_and_say_so() -> None:
    """L and B pressed without a new label or new bounds used to record a "relabel" / "bounds"
    decision that changed nothing (and the card said "kept the span with another label")."""
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_relabel").click().run()
    assert not at.exception
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"
    assert disputed[0].key not in at.session_state[cur.K_CUR_OVERRIDES]["test:curation"]
    assert any("label is unchanged" in t.value for t in at.toast)
    at.button(key="cur_bounds_btn").click().run()
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"
    assert any("bounds are unchanged" in t.value for t in at.toast)
    assert "another label" not in _html(at) and "other boundaries" not in _html(at)
    assert at.button(key="cur_undo").disabled  # nothing to undo either
    # the legend says what the keys do, not that they open an editor
    assert any("**L** keep it with the label chosen" in c.value for c in at.caption)


def test_bounds_past_the_text_are_refused() -> None:
    at = _app()
    _, disputed = _expected()
    at.number_input(key=cur.K_CUR_END).set_value(10_000)
    at.button(key="cur_bounds_btn").click().run()
    assert not at.exception
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"
    assert at.number_input(key=cur.K_CUR_END).value == disputed[0].span.end


def test_decisions_persist_across_pages_and_curated_is_a_gold_everywhere() -> None:
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_drop").click().run()
    at.switch_page("pages/scores.py").run()
    assert not at.exception
    reference = at.selectbox(key=state.K_SET_A)
    assert "curated" in reference.options
    at.switch_page(PAGE).run()
    assert _metric(at, "Decided") == f"1 / {len(disputed)}"
    assert at.session_state[cur.K_CUR_POS] == 1


def test_agreement_table_is_core_against_the_curated_set(frame) -> None:
    at = _app()
    r, _ = _expected()
    shown = frame(at, "annotator", "span F1", "char κ")
    study = Study.from_sets([r.set, *SETS], TEXTS)
    f1 = against(study, "curated", measure="span-f1")
    kappa = against(study, "curated", measure="char-kappa")
    for _, row in shown.iterrows():
        assert row["span F1"] == f1[row["annotator"]].overall.value
        assert row["char κ"] == kappa[row["annotator"]].overall.value


def test_decisions_file_restores_the_same_set() -> None:
    r, disputed = _expected()
    decided = {disputed[0].key: Override("keep", *disputed[0].span.interval, "Doubt"),
               disputed[1].key: Override("drop", *disputed[1].span.interval,
                                         disputed[1].span.label)}
    text = cur.decisions_file(r, decided)
    back, notes = read_decisions(text, r)
    assert back == decided and notes == []
    assert curated_set(r, back) == curated_set(r, decided)


def test_text_and_labels_are_escaped() -> None:
    at = _app()
    assert "d2" in {d.doc for d in _expected()[1]}
    while "Around d2#" not in _html(at):  # the neighbourhood of a span of d2
        at.button(key="cur_next").click().run()
    body = _html(at)
    assert "<script>" not in body
    assert "&lt;script&gt;" in body
    at.toggle(key=cur.K_CUR_WHOLE).set_value(True).run()
    at.selectbox(key=cur.K_CUR_DOC).set_value("d2").run()
    body = _html(at)
    assert "<script>" not in body
    assert "&lt;script&gt;" in body


def test_navigation_previous_next_and_next_undecided() -> None:
    at = _app()
    _, disputed = _expected()
    at.toggle(key=cur.K_CUR_WHOLE).set_value(True).run()  # the document picker follows
    at.button(key="cur_accept").click().run()  # decides 0, shows 1
    at.button(key="cur_prev").click().run()
    assert at.session_state[cur.K_CUR_POS] == 0
    assert at.selectbox(key=cur.K_CUR_DOC).value == disputed[0].doc
    at.button(key="cur_todo").click().run()
    assert at.session_state[cur.K_CUR_POS] == 1
    at.button(key="cur_next").click().run()
    assert at.session_state[cur.K_CUR_POS] == 2
    assert at.selectbox(key=cur.K_CUR_DOC).value == disputed[2].doc
    assert at.number_input(key=cur.K_CUR_START).value == disputed[2].span.start


def test_step_through_only_ties_and_conflicts() -> None:
    at = _app()
    _, disputed = _expected()
    at.selectbox(key=cur.K_CUR_FOCUS).set_value("ties and conflicts only").run()
    wanted = [d for d in disputed if "label" in " ".join(d.flags)
              or "tie" in " ".join(d.flags) or "no-common" in " ".join(d.flags)]
    assert wanted, "the panel has a label dispute"
    assert f"of {len(wanted)}**" in " ".join(c.value for c in at.caption)
    assert f"<b>{wanted[0].id}</b>" in _html(at)
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"  # progress counts every dispute


def test_fewer_sets_than_k_falls_back_to_the_default_k() -> None:
    at = _app()
    at.number_input(key=cur.K_CUR_K).set_value(3).run()
    assert at.number_input(key=cur.K_CUR_K).value == 3
    at.multiselect(key=cur.K_CUR_SETS).set_value(["ann1", "ann2"]).run()
    assert not at.exception and not at.warning
    assert at.number_input(key=cur.K_CUR_K).value == 2
    r = consensus(SETS[:2], TEXTS, min_agree=2, match="gamma")
    assert _metric(at, "Proposed spans") == str(len(r.decisions))


def test_decision_effect_is_core_span_f1_with_the_span_kept_and_dropped(frame) -> None:
    at = _app()
    r, disputed = _expected()
    d = disputed[0]
    assert not any("span F1 if kept" in df.value.columns for df in at.dataframe)  # off at first
    at.toggle(key=cur.K_CUR_EFFECT).set_value(True).run()
    shown = frame(at, "span F1 if kept", "span F1 if dropped")
    for verdict, column in (("keep", "span F1 if kept"), ("drop", "span F1 if dropped")):
        cur_set = curated_set(r, {d.key: Override(verdict, *d.span.interval, d.span.label)})
        gold = AnnotationSet("g", {d.doc: cur_set.get(d.doc)})
        others = [AnnotationSet(a.name, {d.doc: a.get(d.doc)}) for a in SETS]
        res = against(Study.from_sets([gold, *others], {d.doc: TEXTS[d.doc]}), "g",
                      measure="span-f1")
        for _, row in shown.iterrows():
            assert row[column] == res[row["annotator"]].overall.value
    assert (shown["marked it"] != "no").sum() == d.votes


def _bug_case() -> tuple:
    """A disputed proposal the rule drops (the issue's Shift+N then Accept case)."""
    r, disputed = _expected()
    drops = [i for i, d in enumerate(disputed) if d.decision == "drop"]
    assert drops, "the panel has a disputed span the rule drops"
    return r, disputed, drops[0]


def test_accepting_a_proposal_to_drop_drops_the_span() -> None:
    at = _app()
    r, disputed, i = _bug_case()
    at.session_state[cur.K_CUR_POS] = i
    at.run()
    assert at.button(key="cur_accept").label == "✓ Accept the proposal (drop)"
    at.button(key="cur_accept").click().run()
    o = at.session_state[cur.K_CUR_OVERRIDES]["test:curation"][disputed[i].key]
    assert (o.decision, o.action) == ("drop", "accept")
    assert _metric(at, "Curated spans") == str(r.set.span_count())  # the proposal, unchanged


def test_accept_every_remaining_proposal_then_undo_it() -> None:
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_keep").click().run()  # one decision of the lead's own first
    button = at.button(key="cur_accept_all")
    assert button.label == f"✓✓ Accept every remaining proposal ({len(disputed) - 1})"
    button.click().run()
    decided = at.session_state[cur.K_CUR_OVERRIDES]["test:curation"]
    assert _metric(at, "Decided") == f"{len(disputed)} / {len(disputed)}"
    assert decided[disputed[0].key].action == "keep"
    for d in disputed[1:]:
        assert decided[d.key] == Override.accept(d) and decided[d.key].action == "accept-all"
    assert at.button(key="cur_accept_all").disabled
    at.button(key="cur_undo_all").click().run()
    assert _metric(at, "Decided") == f"1 / {len(disputed)}"
    assert list(at.session_state[cur.K_CUR_OVERRIDES]["test:curation"]) == [disputed[0].key]


def test_decisions_are_in_the_store_and_a_new_session_resumes_them(store: Path) -> None:
    from core.store import curation as cs

    at = _app()
    _, disputed = _expected()
    at.button(key="cur_drop").click().run()
    at.button(key="cur_accept").click().run()
    conn = cs.open_store(store)
    (proj,) = [row[0] for row in conn.execute("SELECT key FROM curation_projects")]
    assert proj == cs.project_key(SETS, TEXTS)
    stored = cs.load(conn, proj)
    assert [stored[d.key].override.action for d in disputed[:2]] == ["drop", "accept"]
    fresh = _app()  # a new tab, or the same after a server restart
    assert _metric(fresh, "Decided") == f"2 / {len(disputed)}"
    assert fresh.session_state[cur.K_CUR_OVERRIDES]["test:curation"] == {
        k: v.override for k, v in stored.items()}


def test_a_new_session_opens_at_the_first_undecided_disputed_span() -> None:
    """A reload (or a restarted server) resumes the work where it stands: the lead who decided
    the first two disputed spans lands on the third, not back on the first."""
    at = _app()
    _, disputed = _expected()
    assert len(disputed) >= 3
    at.button(key="cur_drop").click().run()
    at.button(key="cur_accept").click().run()
    fresh = _app()
    assert fresh.session_state[cur.K_CUR_POS] == 2
    assert f"<b>{disputed[2].id}</b>" in _html(fresh)
    assert "Disputed span **3 of" in "".join(c.value for c in fresh.caption)
    fresh.button(key="cur_prev").click().run()  # the decided ones are still one key away
    assert fresh.session_state[cur.K_CUR_POS] == 1


def test_a_new_session_with_every_span_decided_opens_at_the_first() -> None:
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_accept_all").click().run()
    fresh = _app()
    assert _metric(fresh, "Decided") == f"{len(disputed)} / {len(disputed)}"
    assert fresh.session_state[cur.K_CUR_POS] == 0


def test_a_decision_changed_in_another_tab_is_refused_with_a_message() -> None:
    first, second = _app(), _app()
    _, disputed = _expected()
    first.button(key="cur_keep").click().run()
    second.button(key="cur_drop").click().run()  # second still shows it undecided
    assert any("another tab changed this decision" in w.value for w in second.warning)
    decided = second.session_state[cur.K_CUR_OVERRIDES]["test:curation"]
    assert decided[disputed[0].key].decision == "keep"  # the first tab's, not overwritten
    assert (cur.K_CUR_POS not in second.session_state
            or second.session_state[cur.K_CUR_POS] == 0)  # not moved on
    second.button(key="cur_drop").click().run()  # now it has read it: allowed
    assert second.session_state[cur.K_CUR_OVERRIDES]["test:curation"][
        disputed[0].key].decision == "drop"


def test_the_curated_count_and_other_pages_follow_every_decision() -> None:
    at = _app()
    r, _ = _expected()
    at.button(key="cur_drop").click().run()
    at.session_state[cur.K_CUR_LABEL] = "Doubt"
    at.button(key="cur_relabel").click().run()
    decided = dict(at.session_state[cur.K_CUR_OVERRIDES]["test:curation"])
    expected = curated_set(r, decided, name="curated")
    assert cur.curated_count(r, decided) == expected.span_count()
    assert _metric(at, "Curated spans") == str(expected.span_count())
    at.switch_page("pages/scores.py").run()
    assert not at.exception
    result, live, name = at.session_state[cur.K_CUR_CURATED]["test:curation"]
    assert curated_set(result, live, name=name) == expected  # what every page adds


def test_a_store_that_cannot_be_opened_is_said_and_decisions_stay_in_the_tab(
        tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "a folder, not a file"
    folder.mkdir()
    monkeypatch.setenv("SPANSCOPE_STORE", str(folder))
    at = _app()
    _, disputed = _expected()
    assert not at.exception
    assert any("kept in this browser tab only" in w.value for w in at.warning)
    at.button(key="cur_drop").click().run()
    assert _metric(at, "Decided") == f"1 / {len(disputed)}"
    at.button(key="cur_undo").click().run()  # the tab keeps the history then
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"
    assert at.button(key="cur_undo").disabled


def test_a_restarted_server_reads_the_proposal_from_the_store(monkeypatch) -> None:
    import core.analysis.consensus as consensus_module

    r, disputed = _expected()
    cur.proposal.clear()  # computed by an earlier test of this process, with another store
    first = _app()
    first.button(key="cur_keep").click().run()  # the first decision makes the store
    first.button(key="cur_undo").click().run()
    cur.proposal.clear()  # what a restart forgets
    _app()  # computed once more, now kept in the store
    cur.proposal.clear()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the proposal was computed again")

    monkeypatch.setattr(cur, "consensus", refuse)
    monkeypatch.setattr(consensus_module, "consensus", refuse)
    at = _app()
    assert not at.exception
    assert _metric(at, "Decided") == f"0 / {len(disputed)}"
    assert _metric(at, "Proposed spans") == str(len(r.decisions))


def test_the_neighbourhood_is_cut_at_spaces_and_keeps_the_documents_span_ids() -> None:
    from core.render import highlight
    from ui import curation_lanes as lanes

    text = "word " * 200  # 1,000 characters
    far, near = Span(0, 4, "Fear"), Span(500, 509, "Doubt")
    items = highlight.span_items(AnnotationSet("a", {"d": (far, near)}), "d", "A")
    a, b = lanes.context_window(text, [near.interval])
    assert 0 < a < near.start and near.end < b < len(text)
    assert text[a - 1] == " " and text[b] == " "  # whole words only
    assert near.start - a <= lanes.CONTEXT_CHARS and b - near.end <= lanes.CONTEXT_CHARS
    shown = lanes.window_items(items, a, b)
    assert [(it.id, it.start, it.end) for it in shown] == [("A2", 500 - a, 509 - a)]
    block = lanes.lanes_html(text, [lanes.Lane("<b>a</b>", "2 span(s)", items, ["A2"], "x")],
                             highlight.label_colours(["Fear", "Doubt"]), window=(a, b))
    assert ">A2<" in block and ">A1<" not in block  # A1 is outside the window
    assert "&lt;b&gt;a&lt;/b&gt;" in block  # the set's name escaped
    assert f"Characters {a:,}–{b:,} of 1,000" in block


def test_building_the_consensus_replaces_the_note_before_its_spinner(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The tour's finding: once "Build the consensus" was turned on, the spinner of the
    # proposal drew over the last run's faded "built when asked" note (Streamlit anchors a
    # spinner at the next element's place, over what the last run left there). An empty slot
    # now takes that place first and the spinner is drawn in it.
    monkeypatch.setattr(cur, "CONSENSUS_AUTO_DOCS", 1)  # this panel's 2 documents ask first
    at = _app()
    assert any("built when asked" in i.value for i in at.info)
    built: list[Any] = []
    real = cur.proposal

    def watched(*args: Any) -> Any:
        import streamlit as st

        built.append(st._main._active_dg._cursor)  # where the spinner is anchored
        return real(*args)

    monkeypatch.setattr(cur, "proposal", watched)
    at.toggle(key=cur.K_CUR_BUILD).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("built when asked" in i.value for i in at.info)
    # the spinner's anchor: the slot of an empty element right after the toggle, which the
    # note held in the run before
    assert len(built) == 1 and type(built[0]).__name__ == "LockedCursor"
    place = built[0].delta_path[-1]
    assert at.main.children[place].type == "empty"
    assert getattr(at.main.children[place - 1], "key", None) == cur.K_CUR_BUILD
    assert _metric(at, "Decided") == f"0 / {len(_expected()[1])}"


def test_new_bounds_with_whitespace_at_an_edge_are_set_with_the_loaders_warning() -> None:
    """Tour 4 item 11d: bounds that take in a space are recorded, with the warning the loaders
    give such a span (core.formats._common.span_warnings)."""
    at = _app()
    _, disputed = _expected()
    first = disputed[0]
    text = TEXTS[first.doc]
    assert text is not None and text[first.span.start - 1] == " "
    at.number_input(key=cur.K_CUR_START).set_value(first.span.start - 1)
    at.button(key="cur_bounds_btn").click().run()
    assert not at.exception, [e.value for e in at.exception]
    o = at.session_state[cur.K_CUR_OVERRIDES]["test:curation"][first.key]
    assert (o.start, o.end) == (first.span.start - 1, first.span.end)
    assert any(f"[{first.span.start - 1}, {first.span.end}) begins in whitespace" in t.value
               for t in at.toast), [t.value for t in at.toast]


def test_the_scores_link_opens_scores_with_the_curated_set_as_reference() -> None:
    # tour 5, #3: the link named the curated set but Scores opened on the first annotator
    at = _app()
    link = next(p.proto for p in at.main.get("page_link") if "Scores page" in p.proto.label)
    assert "scores" in link.page
    assert link.query_string == f"{state.K_SET_A}=curated"
    scores = _app().switch_page("pages/scores.py")
    scores.query_params[state.K_SET_A] = "curated"
    scores.run()
    assert next(s for s in scores.selectbox if s.label == "Reference (gold)").value == "curated"


def test_a_visit_makes_no_store_file_until_a_decision_is_written(store: Path) -> None:
    # tour 5, minor c: the store landed in an annotator's export folder on a mere visit
    cur.proposal.clear()
    at = _app()
    at.switch_page("pages/scores.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert not store.exists()
    at.button(key="cur_drop").click().run()
    assert store.exists()
    from core.store import curation as cs

    conn = cs.open_store(store)
    (proj,) = [row[0] for row in conn.execute("SELECT key FROM curation_projects")]
    assert list(cs.load(conn, proj)) == [_expected()[1][0].key]


@pytest.mark.parametrize(("page", "label"), [("pages/documents.py", "Left (reference)"),
                                             ("pages/labels.py", "Reference (gold)"),
                                             ("pages/errors.py", "Reference (gold)")])
def test_a_curation_visit_leaves_the_default_pair_of_other_pages_as_it_was(
        page: str, label: str) -> None:
    # every set is an annotator: the undecided consensus must not become the default reference
    report = state.FileReport("panel.json", "test", "annotator", "panel", TEXTS, tuple(SETS))
    ws = state.build_workspace([report], key="test:curation", title="panel", shareable=False)
    before = AppTest.from_file(str(APP), default_timeout=60)
    before.session_state[state.K_SOURCE] = "upload"
    before.session_state[state.K_UPLOAD_WS] = ws
    before.run()
    before.switch_page(page).run()
    pair = [s.value for s in before.selectbox if s.key in (state.K_SET_A, state.K_SET_B)]
    at = _app()  # a Curation visit, nothing decided
    assert "curated" in at.session_state[cur.K_CUR_CURATED]["test:curation"][2]
    at.switch_page(page).run()
    assert not at.exception
    after = [s.value for s in at.selectbox if s.key in (state.K_SET_A, state.K_SET_B)]
    assert pair and after == pair and "curated" not in pair  # Errors: the reference only
    assert any(s.label == label for s in at.selectbox)
    assert "curated" in next(s for s in at.selectbox if s.key == state.K_SET_A).options


def _app_from(fmt: str) -> AppTest:
    report = state.FileReport("panel", fmt, "annotator", "panel", TEXTS, tuple(SETS))
    ws = state.build_workspace([report], key=f"test:curation:{fmt}", title="panel",
                               shareable=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    return at.switch_page(PAGE).run()


@pytest.mark.parametrize(("read_as", "written_as"), [
    ("brat", "brat"), ("doccano", "doccano"), ("webanno-tsv", "webanno-tsv"),
    ("uima-xmi", "webanno-tsv"),  # INCEpTION imports WebAnno TSV 3 as it imports its XMI
    ("label-studio", "semeval2021"),  # no writer: the first format, as before
])
def test_the_curated_set_downloads_in_the_annotators_own_format(read_as: str,
                                                                 written_as: str) -> None:
    """Annotators read from brat folders get the curated set back as brat, not as SemEval-2021
    JSON the lead must remember to switch away from."""
    at = _app_from(read_as)
    assert not at.exception
    assert at.selectbox(key=cur.K_CUR_FORMAT).value == written_as
    assert any(b.label == f"⬇️ Curated set ({written_as})" for b in at.get("download_button"))


def test_source_format_needs_one_format_shared_by_the_chosen_annotators() -> None:
    a = state.FileReport("a", "brat", "annotator", "a", TEXTS, (SETS[0],))
    b = state.FileReport("b", "doccano", "annotator", "b", TEXTS, (SETS[1],))
    ws = state.build_workspace([a, b], key="k", title="t", shareable=False)
    assert cur.source_format(ws, ["ann1"]) == "brat"
    assert cur.source_format(ws, ["ann1", "ann2"]) is None  # two formats: no guess
    assert cur.source_format(ws, ["nobody"]) is None


def test_the_keys_caption_says_how_annotator_tags_are_numbered() -> None:
    """An annotator's tag counts that annotator's own spans (D3 is Peter's third span, which
    may be the proposal P4): the caption must not say every tag is a proposals-table row."""
    at = _app()
    keys = next(c.value for c in at.caption if c.value.startswith("Keys:"))
    assert "number = row #" not in keys
    assert "A3: the first annotator's 3rd span in the document" in keys
    assert "P3 and ✓3: row 3 of the document's proposals table" in keys
    # the lanes number as the caption says: ann1's second span of d1 is A2, ann2's first B1
    card = _html(at)
    assert ">A2<" in card and ">B1<" in card


def test_the_batch_undo_reaches_the_last_accept_all_after_a_reload() -> None:
    """"Undo accepting N proposals" lived in the session: a reloaded tab (or another, or after
    a restart) had the batch's decisions and no way to take them back at once. The batch is
    the store's: a new session offers its undo and takes back only the batch."""
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_keep").click().run()  # one decision of the lead's own first
    at.button(key="cur_accept_all").click().run()
    assert _metric(at, "Decided") == f"{len(disputed)} / {len(disputed)}"
    fresh = _app()  # a reload: a new session on the same store
    assert fresh.button(key="cur_undo_all").label == \
        f"↶ Undo accepting {len(disputed) - 1} proposals"
    fresh.button(key="cur_undo_all").click().run()
    assert not fresh.exception
    assert _metric(fresh, "Decided") == f"1 / {len(disputed)}"
    assert list(fresh.session_state[cur.K_CUR_OVERRIDES]["test:curation"]) == \
        [disputed[0].key]
    assert not [b for b in fresh.button if b.key == "cur_undo_all"]  # nothing left to undo
    again = _app()  # undone in the store too, and no batch offered
    assert _metric(again, "Decided") == f"1 / {len(disputed)}"
    assert not [b for b in again.button if b.key == "cur_undo_all"]


def test_a_batch_decision_changed_since_stays_when_the_batch_is_undone() -> None:
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_accept_all").click().run()
    at.button(key="cur_drop").click().run()  # the card shows the first span: changed after
    fresh = _app()
    assert fresh.button(key="cur_undo_all").label == \
        f"↶ Undo accepting {len(disputed) - 1} proposals"
    fresh.button(key="cur_undo_all").click().run()
    decided = fresh.session_state[cur.K_CUR_OVERRIDES]["test:curation"]
    assert len(decided) == 1 and next(iter(decided.values())).action == "drop"


def test_an_annotator_without_some_documents_is_named_on_the_page() -> None:
    """An annotator with no annotation for documents the others have was not mentioned: the
    page named no one, and the consensus there counted only the others."""
    sets = [*SETS[:2], AnnotationSet("ann3", {"d1": SETS[2].spans["d1"]}, "annotator")]
    report = state.FileReport("panel.json", "test", "annotator", "panel", TEXTS, tuple(sets))
    ws = state.build_workspace([report], key="test:curation-missing", title="panel",
                               shareable=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    captions = [c.value.replace("\\", "") for c in at.caption if "lacks" in c.value]  # md
    assert len(captions) == 1
    assert "ann3: lacks 1 of the study's 2 documents (other annotators have them): 'd2'" in \
        captions[0] and "ann3 has no vote in them" in captions[0]


def _rewrite_behind_undo(store: Path, key: str) -> None:
    """What a write Undo did not record does to a decision (an older SpanScope on the same
    store, a hand edit): the row holds another revision than its history entry wrote."""
    import sqlite3

    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE curation_decisions SET revision = revision + 100 WHERE key = ?",
                     (key,))
    conn.close()


def test_undo_with_only_decisions_changed_since_is_disabled_and_says_why(store: Path) -> None:
    # bugleft15 item 1: Undo stayed enabled, and a press dropped the entries and undid nothing,
    # saying nothing.
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_accept").click().run()
    _rewrite_behind_undo(store, disputed[0].key)
    fresh = _app()
    undo = fresh.button(key="cur_undo")
    assert undo.disabled
    assert "1 decision Undo kept was changed since" in undo.help, undo.help


def test_undo_says_which_decisions_it_could_not_take_back(store: Path) -> None:
    at = _app()
    _, disputed = _expected()
    at.button(key="cur_accept").click().run()
    at.button(key="cur_drop").click().run()
    _rewrite_behind_undo(store, disputed[1].key)  # the last decision, behind Undo's back
    at.run()  # the page reads the store again on its next run
    assert not at.button(key="cur_undo").disabled
    at.button(key="cur_undo").click().run()  # the accept of the first is taken back
    assert _metric(at, "Decided") == f"1 / {len(disputed)}"
    assert at.session_state[cur.K_CUR_POS] == 0
    said = [t.value for t in at.toast]
    assert any("1 later decision could not be undone" in t for t in said), said
    assert at.button(key="cur_undo").disabled


def test_a_store_of_an_earlier_spanscope_keeps_its_last_decision_undoable_and_says_so(
        store: Path) -> None:
    # bugleft15 item 2: the upgrade of a version-1 store dropped its whole Undo history without
    # a word; the entry that provably wrote the decision as it is stays undoable, the page says
    # what was kept and dropped, in the session that opened it
    import sqlite3

    from tests.test_curation_store import VERSION_1

    at = _app()
    _, disputed = _expected()
    proj = at.session_state[cur.K_CUR_PROJECT]["test:curation"]
    store.unlink(missing_ok=True)
    cur._SCHEMA_READY.discard(str(store))
    with sqlite3.connect(store) as old:
        for statement in VERSION_1[:2]:
            old.execute(statement)
        for statement in VERSION_1[2:5]:
            old.execute(statement.replace("IF NOT EXISTS ", ""))
        old.execute("INSERT INTO curation_projects VALUES (?, 'panel', 0)", (proj,))
        for key, created in ((disputed[0].key, 1.5), (disputed[1].key, 2.5)):
            old.execute("INSERT INTO curation_decisions VALUES (?, ?, 'drop', 0, 4, 'Fear', "
                        "'drop', NULL, 1, 2.5)", (proj, key))
            old.execute("INSERT INTO curation_history (project, key, created) VALUES "
                        "(?, ?, ?)", (proj, key, created))
    old.close()
    fresh = _app()
    said = [i.value for i in fresh.info if "earlier SpanScope" in i.value]
    assert said == [md(
        "This store was written by an earlier SpanScope, whose Undo history did not record "
        "which revision each decision wrote: 1 of its 2 entries wrote a decision as it is "
        "now and Undo can take it back; the other 1 could not be checked and was dropped (the "
        "decisions themselves are all kept).")]
    assert _metric(fresh, "Decided") == f"2 / {len(disputed)}"
    fresh.button(key="cur_undo").click().run()  # the second's decision, the one kept
    assert _metric(fresh, "Decided") == f"1 / {len(disputed)}"
    assert fresh.button(key="cur_undo").disabled
    # said once (fixrev14b item 6: it came back on every rerun of the session): not after the
    # click's rerun, nor in another session
    assert not any("earlier SpanScope" in i.value for i in fresh.info)
    assert not any("earlier SpanScope" in i.value for i in _app().info)


def test_annotators_read_from_uima_cas_json_get_the_curated_set_as_webanno_tsv() -> None:
    """wild11: INCEpTION's UIMA CAS JSON export (``uima-json``, read only) goes back as WebAnno
    TSV 3, as its XMI does (INCEpTION imports both)."""
    a = state.FileReport("a", "uima-json", "annotator", "a", TEXTS, (SETS[0],))
    ws = state.build_workspace([a], key="k", title="t", shareable=False)
    assert cur.source_format(ws, ["ann1"]) == "webanno-tsv"


def test_the_lanes_draw_their_names_above_the_text_in_a_narrow_block() -> None:
    from core.render import highlight
    from ui import curation_lanes as lanes

    # bugleft21: beside the text, a name's column of 7 em left a phone's lane two or three words
    # a line; a container query on the block stacks them below STACK_BELOW_REM
    text = "The mayor's reckless plan will bankrupt every family."
    items = highlight.span_items(AnnotationSet("a", {"d": (Span(12, 20, "Fear"),)}), "d", "A")
    block = lanes.lanes_html(text, [lanes.Lane("a", "1 span(s)", items, [], "x"),
                                    lanes.Lane("b", "0 span(s)", [], [], "y")],
                             highlight.label_colours(["Fear"]))
    assert block.startswith(lanes.LANES_CSS)
    assert 'class="cur-lanes-box"' in block and block.count('class="cur-lane-name"') == 2
    assert "container-type:inline-size" in lanes.LANES_CSS
    assert (f"@container (max-width:{lanes.STACK_BELOW_REM}rem)"
            "{.cur-lanes{grid-template-columns:1fr") in lanes.LANES_CSS
    assert "grid-template-columns:minmax(7em,11em) 1fr" in lanes.LANES_CSS  # wide: beside
