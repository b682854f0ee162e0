"""Data page: uploads of several files, a broken one reported while the others load, and the
summary numbers equal the counts of the loaded sets."""

from __future__ import annotations

from pathlib import Path

from ui import data as data_ui
from ui import state
from ui.escape import md


def _upload(make_app, data_dir: Path, *names: str):
    at = make_app("pages/data.py", data="empty")
    files = [(f"{n}.json", (data_dir / f"{n}.json").read_bytes(), "application/json")
             for n in names]
    at.file_uploader(key=state.K_UPLOADS).set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_broken_file_shows_its_error_while_the_others_load(
    make_app, data_dir: Path, frame
) -> None:
    at = _upload(make_app, data_dir, "gold", "system_a", "broken")
    lines = (data_dir / "broken.json").read_text().splitlines()
    bad_line = next(i for i, line in enumerate(lines, 1) if '"end": 2' in line)
    errors = [e.value.replace("\\", "") for e in at.error]  # file names are shown escaped
    assert any(f"broken.json:{bad_line}:" in e and "field 'end'" in e for e in errors), errors
    ws = at.session_state[state.K_UPLOAD_WS]
    assert list(ws.sets) == ["gold", "system_a"]
    assert at.session_state[state.K_SOURCE] == "upload"
    diags = frame(at, "severity", "message")
    assert set(diags["file"]) >= {"broken.json", "gold.json"}
    broken = diags[diags["file"] == "broken.json"].iloc[0]
    assert (broken["severity"], broken["line"], broken["field"]) == ("error", bad_line, "end")


def test_roles_are_guessed_from_file_names_and_can_be_changed(
    make_app, data_dir: Path, frame
) -> None:
    at = _upload(make_app, data_dir, "gold", "system_a")
    assert at.selectbox(key=state.upload_key("role", "gold.json")).value == "gold"
    assert at.selectbox(key=state.upload_key("role", "system_a.json")).value == "system"
    at.selectbox(key=state.upload_key("role", "system_a.json")).select("annotator").run()
    at.text_input(key=state.upload_key("name", "system_a.json")).input("Ann").run()
    ws = at.session_state[state.K_UPLOAD_WS]
    assert ws.sets["Ann"].role == "annotator"


def test_summary_counts_equal_the_loaded_sets(make_app, data_dir: Path, handmade, frame) -> None:
    at = _upload(make_app, data_dir, "gold", "system_a", "system_b")
    texts, sets = handmade
    shown = frame(at, "set", "role", "spans").set_index("set")
    for aset in sets:
        assert shown.loc[aset.name, "spans"] == aset.span_count()
        assert shown.loc[aset.name, "documents"] == len(aset.spans)
    assert not [df for df in at.dataframe if "label" in df.value.columns]  # closed at first
    _open(at, data_ui.K_LABELS_LIST)
    labels = frame(at, "label", "gold").set_index("label")
    assert labels.loc["Loaded", "gold"] == 2
    assert labels.loc["Fear", "system_a"] == 1
    missing = frame(at, "set", "document")
    assert missing.to_dict("records") == [{"set": "system_b", "document": "doc10"}]
    assert [m.value for m in at.metric][:1] == [f"{len(texts)}"]


def test_format_override_reports_a_wrong_format_as_an_error(
    make_app, data_dir: Path, frame
) -> None:
    at = _upload(make_app, data_dir, "gold")
    at.selectbox(key=state.upload_key("fmt", "gold.json")).select("ptc").run()
    assert not at.exception
    assert any("gold.json" in e.value.replace("\\", "") for e in at.error)


def test_a_revisit_rebuilds_no_chart(make_app, monkeypatch) -> None:
    """Issue 29 (a warm revisit < 300 ms): the spans-per-label chart of the loaded sets is built
    once, then drawn again on every visit."""
    from ui import charts

    at = make_app("pages/data.py")
    assert not at.exception, [e.value for e in at.exception]
    assert not at.get("plotly_chart")  # the chart's tab is closed: not drawn
    _open_chart(at)
    specs = [e.proto.spec for e in at.get("plotly_chart")]
    assert specs
    built: list[int] = []
    real = charts.spans_per_label
    monkeypatch.setattr(charts, "spans_per_label", lambda df: (built.append(len(df)), real(df))[1])
    at.switch_page("pages/scores.py").run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    _open_chart(at)
    assert built == []
    assert [e.proto.spec for e in at.get("plotly_chart")] == specs


def _open(at, key: str) -> None:
    """Opens the lazy expander ``key`` (:func:`ui.lazy.lazy_expander`), as a click does."""
    at.session_state[key] = True
    at.session_state[f"{key}_kept"] = True  # what its on_change keeps
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _open_chart(at) -> None:
    """Open the "Chart" tab of the spans per label (lazy: only the open tab runs)."""
    _open(at, data_ui.K_LABELS_LIST)
    at.session_state[data_ui.K_LABELS_TAB] = data_ui.TAB_CHART
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_the_first_screen_holds_the_files_and_the_sets_and_the_rest_one_click_away(
        make_app, data_dir: Path, frame) -> None:
    # Issue 29, seventh pass (docs/performance.md): a visit draws the files' and the sets'
    # tables; the warnings' table and the spans per label wait in closed expanders that say
    # what they hold (a grid costs the browser about 45 ms on every visit).
    at = _upload(make_app, data_dir, "gold", "system_a", "system_b")
    assert frame(at, "file", "status") is not None and frame(at, "set", "spans") is not None
    assert not [df for df in at.dataframe if {"severity", "label"} & set(df.value.columns)]
    labels = next(e for e in at.expander if e.proto.label.startswith("📊 Spans per label"))
    assert "label(s)" in labels.proto.label
    warnings = [e for e in at.expander if e.proto.label.startswith("📋 Every error")]
    for key in (data_ui.K_LABELS_LIST, data_ui.K_DIAG_LIST if warnings else None):
        if key is not None:
            assert at.session_state[key] is False
    _open(at, data_ui.K_LABELS_LIST)
    at.switch_page("pages/scores.py").run()
    at.switch_page("pages/data.py").run()  # an opened expander stays open on a return
    assert frame(at, "label", "gold") is not None


def test_a_file_left_out_opens_the_table_of_errors(make_app, data_dir: Path, frame) -> None:
    at = _upload(make_app, data_dir, "gold", "broken")
    assert at.session_state[data_ui.K_DIAG_LIST] is True
    assert "error" in set(frame(at, "severity", "message")["severity"])


def test_the_page_names_the_store_file_and_how_it_was_chosen(make_app, store: Path,
                                                             monkeypatch) -> None:
    at = make_app("pages/data.py")
    assert any(f"saved in {md(store.name + ' (named by --store)')}" in c.value
               for c in at.caption)
    # started without --store (streamlit run app.py): the per-user file, said so
    monkeypatch.delenv("SPANSCOPE_STORE")
    monkeypatch.setenv("XDG_DATA_HOME", str(store.parent / "xdg"))
    at = make_app("pages/data.py")
    assert any(f"saved in {md('store.sqlite in the per-user data folder')}" in c.value
               for c in at.caption)


def test_the_summary_says_in_one_line_that_no_set_misses_a_document(make_app, data_dir: Path
                                                                     ) -> None:
    """Issue 29, tenth pass: the heading and the ✅ sentence are one element (each element is
    mounted again on every visit); the store note shares the page's caption."""
    at = _upload(make_app, data_dir, "gold", "system_a")
    said = [m.value for m in at.markdown if "Documents missing from a set" in m.value]
    assert said == [f"**Documents missing from a set**: none. {data_ui.COVERED}"]
    assert not at.success
    assert at.caption[0].value.startswith(data_ui.PAGE_CAPTION)
    assert "Curation decisions and live classes are saved in" in at.caption[0].value
