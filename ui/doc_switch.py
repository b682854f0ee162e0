"""The Documents page's highlights, swapped in the browser when the stepper moves.

Previous / Next (and the keys P and N) start a run of the document's fragment; whatever it
draws, Streamlit's front end spends about 0.1 s of the browser's main thread on the run itself
before the new text shows (docs/performance.md, issue 29, twelfth pass). This component
(``st.components.v2``: HTML and JavaScript in the page's DOM, no iframe) holds the current
document's highlights and its neighbours' (the documents Previous and Next open, built by the
same cached :func:`ui.documents.highlights_html`), and shows a neighbour's at the click or key,
before that run. The stepper's buttons stay Streamlit's: the click or key still reaches them,
and the run it starts syncs the selector, ``?doc=``, the tabs and the next neighbours; the text
it sends is the one already shown, which the component does not draw again.

A browser whose component does not run its JavaScript (and Streamlit's ``AppTest``) keeps the
page as it was: the highlights in an ``st.html`` element. The component reports that its script
runs once per session (the state value ``ready``); until then the page draws both, the
component's style hiding the ``st.html`` copy once the component shows its own, and from then
on the component alone.

Every HTML string given to the component is built by :mod:`core.render` and
:mod:`ui.documents`, every text of a file escaped by :func:`core.render.html.esc`: the
component puts it into the page as it is (a component is trusted code).
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import streamlit as st

K_LIVE = "doc_switch_live"
"""Session key: the component's script ran in this session's browser (it draws the text)."""
KEY = "doc_switch"
"""Widget key of the component (one instance: kept by the front end across switches)."""
STEPPER = {"prev": "doc_prev", "next": "doc_next"}
"""The stepper's buttons (:func:`ui.documents.stepper`) by direction, by widget key: Streamlit
puts ``st-key-<key>`` on each element's container."""

_JS = """
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  if (!data) return;
  let s = parentElement.__ssSwitch;
  if (data.plain) {  // st.html draws the text: nothing here
    if (s) {
      s.box.replaceChildren();
      s.shown = null;
      s.data = null;
    }
    return;
  }
  // st.html draws the text too until the page knows this script runs: say so
  if (data.probe) setStateValue("ready", true);
  if (!s) {
    const box = document.createElement("div");
    box.className = "ss-switch";
    parentElement.appendChild(box);
    s = { box: box, shown: null, data: null };
    const show = (html, doc) => {
      // The st.html copy drawn until the page knows this script runs: hidden by the style
      // (its first element marked) and without its ids, so that an id names one element;
      // in the same task as this copy is drawn, so that no frame shows two texts or none.
      for (const el of document.querySelectorAll('[data-testid="stHtml"]')) {
        if (!el.querySelector("#left-doc")) continue;
        el.firstElementChild?.classList.add("ss-stale");
        for (const n of el.querySelectorAll("[id]")) n.removeAttribute("id");
      }
      if (s.shown !== html) {
        s.box.innerHTML = html;
        s.shown = html;
      }
      s.box.dataset.doc = doc;
    };
    s.show = show;
    const step = (dir) => {
      const to = s.data && s.data[dir];
      if (to) show(to.html, to.doc);  // the run the button starts syncs the rest
    };
    const button = (dir) => document.querySelector(`.st-key-${data.keys[dir]} button`);
    // Streamlit's shortcuts skip keys typed into a field: the same test here.
    const typing = (t) => t instanceof Element && (t.isContentEditable
      || (t.tagName === "INPUT" && !["checkbox", "radio", "range", "button", "file", "reset",
                                      "submit", "color"].includes(t.type) && !t.readOnly)
      || ((t.tagName === "TEXTAREA" || t.tagName === "SELECT") && !t.readOnly));
    s.onClick = (e) => {
      for (const dir of ["prev", "next"]) {
        const b = button(dir);
        if (b && !b.disabled && e.target instanceof Node && b.contains(e.target)) step(dir);
      }
    };
    s.onKey = (e) => {
      if (e.repeat || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || typing(e.target)) return;
      const dir = { p: "prev", n: "next" }[(e.key || "").toLowerCase()];
      const b = dir && button(dir);
      if (b && !b.disabled) step(dir);
    };
    document.addEventListener("click", s.onClick, true);
    document.addEventListener("keydown", s.onKey, true);
    parentElement.__ssSwitch = s;
  }
  s.data = data;
  s.show(data.html, data.doc);  // the same text as shown: not drawn again
  return () => {
    document.removeEventListener("click", s.onClick, true);
    document.removeEventListener("keydown", s.onKey, true);
    delete parentElement.__ssSwitch;
  };
}
"""

NAME = "spanscope_doc_switch"
"""The component's name (one per app)."""
_CSS = """
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > .ss-stale) {
  display: none;
}
"""
"""While a page still draws ``st.html`` beside the component (:func:`draw`), that copy is hidden
once the component shows the same highlights: one text on the screen, no frame without one."""
_component = st.components.v2.component(NAME, js=_JS, css=_CSS, isolate_styles=False)


TAGS = frozenset({"p", "div", "span", "strong", "b", "i", "em", "code", "br", "small", "sup",
                  "sub"})
"""Elements the highlights are made of (:mod:`core.render.highlight`, :mod:`ui.documents`)."""
ATTRIBUTES = frozenset({"class", "id", "dir", "title", "style", "lang", "role"})
"""Their attributes, besides ``data-*`` and ``aria-*``. No event handler, no URL."""


class _Vetter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.foreign: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.foreign.append(tag)
        for name, value in attrs:
            if (name not in ATTRIBUTES and not name.startswith(("data-", "aria-"))) or (
                    name == "style" and value and ("url(" in value.lower()
                                                   or "expression(" in value.lower())):
                self.foreign.append(f"{tag} {name}")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_comment(self, data: str) -> None:
        self.foreign.append("<!--")

    def handle_decl(self, decl: str) -> None:
        self.foreign.append("<!")

    def handle_pi(self, data: str) -> None:
        self.foreign.append("<?")


@functools.lru_cache(maxsize=64)
def foreign(html: str) -> tuple[str, ...]:
    """The elements and attributes of ``html`` outside :data:`TAGS` and :data:`ATTRIBUTES`
    (none for highlights whose every text went through :func:`core.render.html.esc`). The
    component puts its HTML into the page as it is, where ``st.html`` sanitises it: HTML with
    anything else is drawn by ``st.html`` instead (a second defence, as ``st.html``'s is)."""
    vet = _Vetter()
    vet.feed(html)
    vet.close()
    return tuple(vet.foreign)


FALLBACKS: collections.Counter[str] = collections.Counter()
"""Highlights the component refused (:func:`foreign`), drawn by ``st.html``: tests read it."""


def _ready() -> None:
    st.session_state[K_LIVE] = True


def live() -> bool:
    """Whether the component draws the highlights in this session."""
    return bool(st.session_state.get(K_LIVE))


def draw(doc: str, html: str,
         neighbours: Callable[[], dict[str, tuple[str, str] | None]]) -> None:
    """The highlights ``html`` of ``doc``: by the component once its script has run in this
    session, with ``neighbours()``, called only then (direction ``prev`` / ``next`` -> the
    document that button opens and its highlights, or None where the button opens nothing the
    component can show);
    until then, the component drawing the same and asking its script to report, then an
    ``st.html`` element, which a browser without the script keeps. HTML with an element or
    attribute the highlights never hold (:func:`foreign`) is drawn by ``st.html`` alone."""
    if foreign(html):
        if live():
            FALLBACKS["foreign"] += 1
        _component(key=KEY, data={"plain": True}, on_ready_change=_ready)
        st.html(html)
        return
    data: dict[str, Any] = {"doc": doc, "html": html, "keys": STEPPER}
    if live():
        data.update({d: (None if n is None or foreign(n[1]) else {"doc": n[0], "html": n[1]})
                     for d, n in neighbours().items()})
        _component(key=KEY, data=data, on_ready_change=_ready)
        return
    # Until the script reports: the component first (it draws the same text, and its style
    # hides this copy as soon as it has), then st.html, which a browser without the script
    # keeps. The component first, so that it keeps its place when st.html goes. No
    # neighbours: the run the report starts brings them.
    _component(key=KEY, data={**data, "prev": None, "next": None, "probe": True},
               on_ready_change=_ready)
    st.html(html)


def payload(element: Any) -> dict[str, Any] | None:
    """The data an ``AppTest`` element of the component carries (None for another element):
    what the page handed the browser."""
    import json

    proto: Any = getattr(element, "proto", None)
    if getattr(proto, "component_name", None) != NAME:
        return None
    return json.loads(proto.json) if proto.json else None
