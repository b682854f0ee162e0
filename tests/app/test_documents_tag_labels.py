"""Documents page: each span's tag shows its id and its labels, under either metric (bugleft27).

Under the Da San Martino view and the MAFALDA view the tags read alike (``G1 ad hominem``,
``G4 ad hominem | ⊥``): a span's label is read without hovering and without telling the
stripe's colour from the legend's, and a label from a file is escaped."""

from __future__ import annotations

import html
import re

import pytest

from tests.app.conftest import XSS_LABEL
from ui import sidebar

TAG = re.compile(r'<span class="ss-tag[^"]*" dir="ltr" data-span="([^"]+)" title="([^"]*)" '
                 r'style="[^"]*">(.*?)</span></span>')
LABEL = re.compile(r'^([^<]+)<span class="ss-lab"> (.*)$')


def _html(at) -> str:
    return "\n".join(h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT)


def _tags(at) -> dict[str, tuple[str, str]]:
    """Span id -> (its tooltip, the labels the tag shows), unescaped, of the side-by-side view."""
    out = {}
    for span, title, inner in TAG.findall(_html(at)):
        shown = LABEL.match(inner)
        assert shown is not None, inner
        assert html.unescape(shown.group(1)) == html.unescape(span)
        out[html.unescape(span)] = (html.unescape(title), html.unescape(shown.group(2)))
    return out


@pytest.mark.parametrize("doc", ["0", "3"])
def test_martino_and_mafalda_views_tag_each_span_with_its_id_and_labels(make_app, doc) -> None:
    views = {}
    for metric in ("martino", "mafalda"):
        at = make_app("pages/documents.py", data="sample",
                      params={"sample": "mafalda", "doc": doc, "metric": metric})
        assert not at.exception, [e.value for e in at.exception]
        views[metric] = _tags(at)
    assert views["martino"] == views["mafalda"]
    tags = views["martino"]
    assert {k[0] for k in tags} == {"G", "P"} and len(tags) >= 3
    for title, shown in tags.values():
        assert shown == title  # short labels whole
    if doc == "0":
        assert tags["G4"][1] == "ad hominem | ⊥"
        assert tags["G2"][1] == "appeal to anger | appeal to fear"


def test_a_label_from_a_file_is_escaped_in_its_tag(make_app) -> None:
    at = make_app("pages/documents.py", params={"doc": "doc10"})
    assert not at.exception, [e.value for e in at.exception]
    body = _html(at)
    assert "<script" not in body.lower().replace("&lt;script", "")
    tags = _tags(at)
    want = XSS_LABEL if len(XSS_LABEL) <= 32 else XSS_LABEL[:31].rstrip() + "…"
    assert tags["G1"] == (XSS_LABEL, want)


def test_a_long_label_is_cut_in_its_tag_and_whole_in_its_tooltip() -> None:
    from core.render import highlight

    label = "Misrepresentation of Someone's Position (Straw Man)"
    item = highlight.SpanItem("P1", 0, 4, (label,))
    markup = highlight.render_lanes("text", [item], {label: "#E69F00"}, compact=True,
                                    labelled=True)
    ((span, title, inner),) = TAG.findall(markup)
    assert span == "P1"
    assert html.unescape(title) == label
    assert html.unescape(LABEL.match(inner).group(2)) == "Misrepresentation of Someone's…"
    plain = highlight.render_lanes("text", [item], {label: "#E69F00"}, compact=True)
    assert "ss-lab" not in plain  # other callers (Learn, the exports) keep the id alone
