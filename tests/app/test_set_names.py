"""Set names a user chooses (issue 26, §5): ``spanscope app --data NAME:ROLE=PATH`` and the Data
page's rename control, seen on the other pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.cli import launch
from core.model.errors import SpanScopeError, UsageError
from tests.app.conftest import app_on_workspace, open_rename, tables
from ui import cli_data, set_names, state

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
PROP = ROOT / "sample_data" / "propaganda"


# ---- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "name", "role"), [
    ("Reference:gold=gold.json", "Reference", "gold"),
    ("Ayla R.:annotator=gold.json", "Ayla R.", "annotator"),
    ("model 2:pred=gold.json", "model 2", "system"),
    ("a:b:GOLD=gold.json", "a:b", "gold")])
def test_a_name_before_the_role_names_the_set(value: str, name: str, role: str) -> None:
    assert launch.parse_data_value(value, PROP) == {
        "role": role, "path": str(PROP / "gold.json"), "name": name}


def test_every_older_form_is_read_as_before(tmp_path: Path) -> None:
    (tmp_path / "run=3.json").write_text("[]")
    (tmp_path / "x:y=z.json").write_text("[]")  # no role word after the colon: a file name
    assert launch.parse_data_value("run=3.json", tmp_path) == {
        "role": None, "path": str(tmp_path / "run=3.json")}
    assert launch.parse_data_value("x:y=z.json", tmp_path) == {
        "role": None, "path": str(tmp_path / "x:y=z.json")}
    assert launch.parse_data_value("gold=gold.json", PROP) == {
        "role": "gold", "path": str(PROP / "gold.json")}


def test_an_empty_name_or_path_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no set name"):
        launch.parse_data_value(" :gold=gold.json", PROP)
    with pytest.raises(UsageError, match="no path"):
        launch.parse_data_value("Reference:gold=", PROP)
    with pytest.raises(SpanScopeError, match=r"nowhere\.json"):
        launch.parse_data_value("Reference:gold=nowhere.json", PROP)


def test_the_dashboard_names_the_sets_as_the_command_line_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = [launch.parse_data_value(v, PROP) for v in
            ("Reference:gold=gold.json", "Ayla:annotator=annotator_1.json",
             "annotator=annotator_2.json")]
    monkeypatch.setenv(cli_data.DATA_ENV, json.dumps(data))
    args = cli_data.data_args()
    assert [a.name for a in args] == ["Reference", "Ayla", None]
    ws = state.build_workspace(cli_data.read_reports(args), key="t", title="t", shareable=True)
    assert list(ws.sets) == ["Reference", "Ayla", "annotator_2"]
    assert ws.sets["Reference"].role == "gold"
    unnamed = cli_data.fingerprint(tuple(cli_data.DataArg(a.role, a.path) for a in args))
    assert cli_data.fingerprint(args) != unnamed  # a new name is new data for the cache


# ---- the Data page ------------------------------------------------------------------------------


def _sample_app() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _rename(at: AppTest, old: str, new: str) -> AppTest:
    open_rename(at)
    at.selectbox(key=set_names.K_RENAME_SET).set_value(old)
    at.text_input(key=set_names.K_RENAME_TO).set_value(new)
    at.button(key="rename_set_button").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_set_renamed_on_the_data_page_has_its_new_name_on_the_annotators_page() -> None:
    at = _rename(_sample_app(), "annotator_1", "Aparna")
    sets = next(df for df in tables(at) if "set" in df.columns and "role" in df.columns)
    assert "Aparna" in list(sets["set"]) and "annotator_1" not in list(sets["set"])
    at.switch_page("pages/annotators.py").run()
    assert not at.exception, [e.value for e in at.exception]
    chosen = at.multiselect(key="ann_sets")
    assert "Aparna" in chosen.options and "Aparna" in chosen.value
    assert "annotator_1" not in chosen.options


def test_renaming_twice_and_back_keeps_one_entry_per_loaded_set() -> None:
    at = _rename(_rename(_sample_app(), "annotator_1", "Aparna"), "Aparna", "Aparna D.")
    given = at.session_state[state.K_SET_NAMES]
    assert list(given.values()) == [{"annotator_1": "Aparna D."}]
    at = _rename(at, "Aparna D.", "annotator_1")
    assert list(at.session_state[state.K_SET_NAMES].values()) == [{}]


def test_a_name_another_set_has_is_refused_with_a_message() -> None:
    at = _rename(_sample_app(), "annotator_1", "gold")
    # shown escaped (ui.escape.md)
    assert [e.value.replace("\\", "") for e in at.error] == [
        "Another set is named 'gold' already."]
    assert not any((at.session_state[state.K_SET_NAMES] or {}).values()) \
        if state.K_SET_NAMES in at.session_state else True


def test_the_rename_control_draws_its_widgets_only_when_open() -> None:
    """Issue 29, tenth pass: closed, "Rename a set" draws no picker, box or button (hidden
    elements the browser mounted on every visit); a refused name keeps it open on a return,
    its message in sight."""
    at = _sample_app()
    assert [e.proto.label for e in at.expander if "Rename" in e.proto.label] == [
        "✏️ Rename a set"]
    assert not [w for w in at.selectbox if w.key == set_names.K_RENAME_SET]
    assert not [b for b in at.button if b.key == "rename_set_button"]
    at = _rename(at, "annotator_1", "gold")
    at.session_state[f"{set_names.K_RENAME_OPEN}_kept"] = False  # as if closed before
    at.switch_page("pages/scores.py").run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value.replace("\\", "") for e in at.error] == [
        "Another set is named 'gold' already."]
    assert [w for w in at.selectbox if w.key == set_names.K_RENAME_SET]


# ---- long names are never cut without a tooltip ------------------------------------------------


LONG_GOLD = "test_sets_conll_sharp_conll_sharp_gold"
LONG_SYSTEM = "test_sets_conll_sharp_conll_sharp_system_a"


def _long_named_app(page: str) -> AppTest:
    from core.model import AnnotationSet, Span

    texts: dict[str, str | None] = {"d1": "Fear sells papers."}
    sets = (AnnotationSet(LONG_GOLD, {"d1": (Span(0, 4, "Fear"),)}, "gold"),
            AnnotationSet(LONG_SYSTEM, {"d1": (Span(0, 4, "Fear"),)}, "system"),
            AnnotationSet("ann_b", {"d1": ()}, "annotator"))
    report = state.FileReport("long.json", "test", "gold", "long", texts, sets)
    ws = state.build_workspace([report], key="test:long-names", title="long", shareable=False)
    at = app_on_workspace(ws, page)
    return at


def _unescaped(text: str | None) -> str:
    return (text or "").replace("\\", "")


@pytest.mark.parametrize("page", ["pages/scores.py", "pages/labels.py", "pages/errors.py"])
def test_a_long_set_name_is_in_full_in_its_pickers_tooltip(page: str) -> None:
    at = _long_named_app(page)
    ref = at.selectbox(key=state.K_SET_A)
    assert ref.value == LONG_GOLD
    assert f"Full name: **{LONG_GOLD}**" in _unescaped(ref.help)


def test_the_annotators_pickers_name_the_long_sets_in_full() -> None:
    at = _long_named_app("pages/annotators.py")
    chosen = at.multiselect(key="ann_sets")
    assert LONG_GOLD in _unescaped(chosen.help) and LONG_SYSTEM in _unescaped(chosen.help)
    assert at.selectbox(key="ann_gold").value == LONG_GOLD
    assert f"Full name: **{LONG_GOLD}**" in _unescaped(at.selectbox(key="ann_gold").help)


def test_a_short_name_keeps_its_picker_as_it_was() -> None:
    assert set_names.full_name_help("nowhere", "gold") is None
