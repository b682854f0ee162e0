"""The Curation page's automatic consensus, while the lead has decided nothing, is no loaded set:
the Annotators page neither picks it as an annotator nor as the gold by default, names it for
what it is, and the sidebar does not count it (tour 4, finding 1). Numbers do not depend on
whether the Curation page was opened first."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from core.model.sets import Role
from tests.app.conftest import annotator_tiles
from ui import annotators as ann
from ui import state

APP = Path(__file__).resolve().parents[2] / "app.py"
TEXTS: dict[str, str | None] = {
    "d1": "The quick brown fox jumps over the lazy dog near the river bank today.",
    "d2": "Fear sells: they will take everything you own unless you act now!",
}


def _app(roles: tuple[Role, Role, Role]) -> AppTest:
    sets = (AnnotationSet("a", {"d1": (Span(4, 19, "Loaded"), Span(35, 43, "Doubt")),
                                "d2": (Span(0, 10, "Fear"),)}, roles[0]),
            AnnotationSet("b", {"d1": (Span(4, 15, "Loaded"),),
                                "d2": (Span(0, 10, "Fear"), Span(12, 41, "Smear"))}, roles[1]),
            AnnotationSet("c", {"d1": (Span(4, 19, "Loaded"),),
                                "d2": (Span(0, 10, "Fear"),)}, roles[2]))
    report = state.FileReport("three.json", "test", roles[0], "three", TEXTS, sets)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = state.build_workspace(
        [report], key=f"test:undecided:{'-'.join(roles)}", title="three", shareable=False)
    at.run()
    return at


def _seen(at: AppTest) -> tuple[list[str], str, dict[str, str]]:
    return (list(at.multiselect(key=ann.K_ANN_SETS).value),
            str(at.selectbox(key=ann.K_ANN_GOLD).value),
            {label: value for label, (value, _, _) in annotator_tiles(at).items()
             if not label.startswith("γ")})  # γ: background


def _sidebar(at: AppTest) -> str:
    return "\n".join(c.value for c in at.sidebar.caption)


def _annotators(roles: tuple[Role, Role, Role], *, curation_first: bool) -> AppTest:
    """The Annotators page as a new visitor sees it, having opened Curation (deciding nothing)
    first or not."""
    at = _app(roles)
    if curation_first:
        at.switch_page("pages/curation.py").run()
        assert not at.exception
    return at.switch_page("pages/annotators.py").run()


def test_gold_and_systems_keep_their_defaults_and_values_after_curation() -> None:
    at = _annotators(("gold", "system", "system"), curation_first=False)
    assert not at.exception
    before, sidebar_before = _seen(at), _sidebar(at)
    assert before[0] == ["a", "b", "c"]
    at = _annotators(("gold", "system", "system"), curation_first=True)
    assert not at.exception
    assert _seen(at) == before
    assert "curated" in at.multiselect(key=ann.K_ANN_SETS).options[-1]  # offered, unchosen
    assert any("undecided" in c.value for c in at.main.caption)
    assert _sidebar(at) == sidebar_before and "(3 set(s)" in sidebar_before


def test_annotators_get_no_undecided_gold_after_curation() -> None:
    before = _seen(_annotators(("annotator",) * 3, curation_first=False))
    assert before[1] == ann.ANN_NO_GOLD
    at = _annotators(("annotator",) * 3, curation_first=True)
    assert not at.exception
    assert _seen(at) == before

