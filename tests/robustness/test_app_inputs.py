"""Issue 18 §1.6 and §3: the dashboard shows errors (never tracebacks), escapes file-derived
names, and names and removes invalid link parameters."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.formats import spans_csv
from core.model import AnnotationSet, Span
from ui import escape, state

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"


def test_served_app_shows_no_error_details() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorDetails"] == "none"


def test_a_reader_bug_becomes_an_error_that_says_it_is_a_bug(monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(spans_csv, "read", broken)
    report = state.parse_bytes("x.csv", b"doc_id,start,end,label\n1,0,1,a\n", "spans-csv",
                               "system", "x")
    assert not report.ok and report.error is not None
    assert "bug in SpanScope" in report.error.message
    assert "ZeroDivisionError" in report.error.message


@pytest.mark.parametrize(("text", "shown"), [
    ("![](http://127.0.0.1:9999/evil.png)",
     "\\!\\[\\]\\(http\\:/\u2060/127\\.0\\.0\\.1\\:9999/evil\\.png\\)"),
    ("see www.example.org", "see www\u2060\\.example\\.org"),
    ("[x](javascript:alert(1))", "\\[x\\]\\(javascript\\:alert\\(1\\)\\)"),
    ("<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert\\(1\\)\\>"),
    ("a\nb", "a b"),
    (":red[x] $x$", "\\:red\\[x\\] \\$x\\$"),
])
def test_md_escapes_markdown_syntax(text: str, shown: str) -> None:
    assert escape.md(text) == shown


def test_code_span_survives_backticks() -> None:
    assert escape.code("a``b") == "``` a``b ```"
    assert escape.code("plain") == "`plain`"


EVIL_DOC = "![](http://127.0.0.1:9999/evil.png)"
EVIL_SET = "[x](javascript:alert(1))![](http://127.0.0.1:9999/set.png)"


def _evil_workspace():
    texts = {EVIL_DOC: "Some text <script>alert(1)</script> here and more words."}
    gold = AnnotationSet("gold", {EVIL_DOC: (Span(0, 9, "<svg onload=alert(1)>"),)}, "gold")
    pred = AnnotationSet(EVIL_SET, {EVIL_DOC: (Span(0, 4, "<svg onload=alert(1)>"),)},
                         "system")
    report = state.FileReport("e.json", "test", "gold", "e", texts, (gold, pred))
    return state.build_workspace([report], key="test:evil", title=EVIL_SET, shareable=False)


@pytest.mark.parametrize("page", ["pages/home.py", "pages/documents.py", "pages/scores.py",
                                  "pages/differences.py", "pages/labels.py", "pages/data.py"])
def test_file_derived_names_reach_markdown_escaped(page: str) -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = _evil_workspace()
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    bodies = [m.value for kind in ("markdown", "caption", "header", "subheader", "title", "info",
                                   "error", "warning", "success") for m in at.get(kind)]
    for body in bodies:
        assert "](http" not in body and "](javascript" not in body, body
        # A tag only as ui.escape.md writes it: "\\<svg" shows the text, never an element.
        assert not re.search(r"(?<!\\)<(svg|script)", body), body


@pytest.mark.parametrize(("params", "notice"), [
    ({"doc": "999999"}, "Ignored ?doc=999999 from the link: no such document"),
    ({"doc": "../../etc/passwd"}, "Ignored ?doc=../../etc/passwd from the link: no such document"),
    ({"boot_n": "-5"}, "Ignored ?boot_n=-5 from the link: a whole number from 100 to 10000"),
    ({"level": "99"}, "Ignored ?level=99 from the link: the level is 0, 1 or 2"),
])
def test_invalid_link_parameters_are_named_and_removed(params: dict[str, str],
                                                       notice: str) -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [w.value.replace("\\", "") for w in at.warning]
    assert any(notice in w for w in shown), shown
    assert not set(params) & set(at.query_params), dict(at.query_params)


def test_valid_link_parameters_stay() -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params["doc"] = "1"
    at.query_params["level"] = "1"
    at.run()
    assert not at.warning
    assert at.query_params["doc"] == ["1"] or at.query_params["doc"] == "1"


def test_a_valid_bootstrap_count_in_a_link_is_applied_and_removed() -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params["boot_n"] = "2000"
    at.run()
    assert at.session_state[state.K_BOOT_N] == 2000
    assert "boot_n" not in at.query_params
