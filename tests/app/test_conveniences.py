"""Conveniences a newcomer expects (issue 16 item 10): the theme follows the browser, and the
way to serve a class on the local network is documented."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_theme_is_not_pinned_so_the_browser_chooses_light_or_dark() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert "base" not in config.get("theme", {})


def test_serving_a_class_on_the_local_network_is_documented() -> None:
    doc = (ROOT / "docs" / "dashboard.md").read_text(encoding="utf-8")
    section = doc.split("## Teaching a class on the local network", 1)[1].split("\n## ", 1)[0]
    assert "--server.address 0.0.0.0" in section and "http://" in section


def test_learn_and_differences_explain_pooled_delta_nothing_and_alternative(make_app) -> None:
    for page in ("pages/learn.py", "pages/differences.py"):
        at = make_app(page, data="sample")
        assert not at.exception
        if page == "pages/differences.py":  # a lazy expander there: opened, as a click does
            at.session_state["diff_glossary"] = True
            at.session_state["diff_glossary_kept"] = True
            at.run()
            assert not at.exception
        (glossary,) = [e for e in at.expander if "Glossary" in e.label]
        text = "\n".join(m.value for m in glossary.markdown)
        for term in ("pooled", "δ", "⊥", "alternative"):
            assert f"**{term}" in text, (page, term)


def test_download_buttons_sit_in_a_row_not_in_narrow_columns(make_app) -> None:
    at = make_app("pages/documents.py")
    assert not at.exception
    assert len(at.get("download_button")) >= 2
    source = (ROOT / "ui" / "widgets.py").read_text(encoding="utf-8")
    assert "st.container(horizontal=True" in source and "st.columns([1, 1, 6])" not in source


def test_no_origin_may_steer_the_app_through_post_messages() -> None:
    """``client.allowedOrigins`` is empty: Streamlit's default list (Community Cloud domains)
    was checked against each of the app's own messages on every page switch, for nothing
    (docs/performance.md, issue 29, ninth pass)."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["allowedOrigins"] == []
