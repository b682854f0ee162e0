"""The Documents page's highlights, swapped in the browser when the stepper moves.

Previous / Next (and the keys P and N) start a run of the document's fragment; whatever it
draws, Streamlit's front end spends about 0.1 s of the browser's main thread on the run itself
before the new text shows (docs/performance.md, issue 29, twelfth pass). This component
(``st.components.v2``: HTML and JavaScript in the page's DOM, no iframe) holds the current
document's highlights and its neighbours' (the documents Previous and Next open, built by the
same cached :func:`ui.documents.highlights_html`), and shows a neighbour's at a click on a
button or a key Streamlit takes as its shortcut, before that run. The stepper's buttons stay
Streamlit's: the click or key still reaches them, and the run it starts syncs the selector,
``?doc=``, the tabs and the next neighbours; the text it sends is the one already shown, which
the component does not draw again. Every run's data is new (its ``run``): the component shows
the document each run names, whatever it swapped in before, but for the one run that may have
been in flight at a step (a change of metric, then Next at once): a run started before the
step hands over the document left, and the text flickered back to it for a moment before the
step's own run brought the new one again. The component keeps the document it swapped to from
the next run after the last it saw unless that run names it or is a step's (``stepped``).

A document typed into the selector's search is held the same way (docs/performance.md, issue
29, fifteenth pass): once the search rests, the component asks for the first :data:`PICKS`
documents its list shows (the trigger ``want``: one run of the fragment, which hands their
highlights as ``picks``), and a click on one of those options, or Enter on it, shows its text
at once; the selector's own run then hands the same text.

A browser whose component does not run its JavaScript (and Streamlit's ``AppTest``) keeps the
page as it was: the highlights in an ``st.html`` element. The component reports that its script
runs once per session (the state value ``ready``); until then the page draws both, the
component's style hiding the ``st.html`` copy once the component shows its own, and from then
on the component alone.

Every HTML string given to the component is built by :mod:`core.render` and
:mod:`ui.documents`, every text of a file escaped by :func:`core.render.html.esc`. Streamlit does
not sanitise a component's HTML (a component is trusted code): :func:`foreign` refuses HTML
holding anything but the highlights' own elements and attributes (``st.html`` draws it), and the
script parses what it is handed with the browser's parser into an inert template and drops
anything not allowlisted before inserting it, so the two parsers cannot disagree.
"""

from __future__ import annotations

import collections
import hashlib
import json
import re
import threading
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import streamlit as st

K_LIVE = "doc_switch_live"
"""Session key: the component's script ran in this session's browser (it draws the text)."""
KEY = "doc_switch"
"""Widget key of the component (one instance: kept by the front end across switches)."""
WARM_KEY = "doc_switch_warm"
"""Widget key of the component's hidden copy on the Errors page (:func:`warm`)."""
STEPPER = {"prev": "doc_prev", "next": "doc_next"}
SELECTOR = "doc"
"""Widget key of the document selector (:data:`ui.state.K_DOC`), whose search the component
watches for a typed pick."""
"""The stepper's buttons (:func:`ui.documents.stepper`) by direction, by widget key: Streamlit
puts ``st-key-<key>`` on each element's container."""

_JS = """
export default function (component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  if (!data) return parentElement.__ssSwitch?.cleanup;
  let s = parentElement.__ssSwitch;
  if (s) s.want = setTriggerValue;
  // The hidden copy on the Errors page (warm): this script's module and the component's first
  // mount made there, and the page told in an idle moment that the script runs; no box drawn.
  // Not while a run is under way (a click's: its report would rerun the page the click opens),
  // nor once the copy has left the page.
  if (data.warm) {
    const later = (f) => (window.requestIdleCallback
      ? window.requestIdleCallback(f, {timeout: 2000}) : window.setTimeout(f, 200));
    const report = () => {
      if (!parentElement.isConnected) return;
      const app = document.querySelector('[data-testid="stApp"]');
      if (app?.getAttribute("data-test-script-state") === "running") {
        window.setTimeout(() => later(report), 100);
        return;
      }
      setStateValue("ready", true);
    };
    later(report);
    return;
  }
  if (data.plain) {  // st.html draws the text: nothing here
    if (s) {
      s.box.replaceChildren();
      s.shown = null;
      s.data = null;
      return s.cleanup;
    }
    return;
  }
  // st.html draws the text too until the page knows this script runs: say so
  if (data.probe) setStateValue("ready", true);
  if (!s) {
    const box = document.createElement("div");
    box.className = "ss-switch";
    parentElement.appendChild(box);
    s = { box: box, shown: null, data: null, want: setTriggerValue, asked: null };
    // The HTML parsed by the browser's own parser into an inert template, and whatever is not
    // the highlights' own (TAGS, ATTRIBUTES, a style without a URL) dropped before it is put
    // into the page: the vetting in Python (foreign) and the browser cannot read it apart.
    const TAGS = new Set(%(tags)s), ATTRIBUTES = new Set(%(attributes)s);
    const BAD_STYLE = new RegExp(%(bad_style)s, "i");
    const XHTML = "http://www.w3.org/1999/xhtml";
    const clean = (html) => {
      const t = document.createElement("template");
      t.innerHTML = html;
      const walk = document.createTreeWalker(t.content,
        NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_PROCESSING_INSTRUCTION);
      const drop = [];
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (n.nodeType !== Node.ELEMENT_NODE || n.namespaceURI !== XHTML
            || !TAGS.has(n.localName)) { drop.push(n); continue; }
        for (const a of [...n.attributes]) {
          const ok = ATTRIBUTES.has(a.name) || /^(data|aria)-[a-z0-9_.-]*$/.test(a.name);
          if (!ok || (a.name === "style" && BAD_STYLE.test(a.value))) n.removeAttribute(a.name);
        }
      }
      for (const n of drop) n.remove();
      return t.content;
    };
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
        s.box.replaceChildren(clean(html));
        s.shown = html;
      }
      // written only when it changes: the same document handed again is no change to the page
      if (s.box.dataset.doc !== doc) s.box.dataset.doc = doc;
    };
    s.show = show;
    const step = (dir) => {
      const to = s.data && s.data[dir];
      if (!to) return;
      show(to.html, to.doc);  // the run the button starts syncs the rest
      // A run under way at the step (a change of metric: started before it) may still hand
      // over the document left: that one run (the next after the last seen) is not shown
      // unless it names the document swapped to; the step's own run (``stepped``) and any
      // later one are.
      s.pending = { doc: to.doc, run: s.data.run + 1 };
    };
    const button = (dir) => document.querySelector(`.st-key-${data.keys[dir]} button`);
    // The document selector's search field, and the option of its list ``el`` names (its
    // text is the document's id: the selector has no format_func), or null.
    const search = () => document.querySelector(`.st-key-${data.selector} input[role="combobox"]`);
    const option = (el) => {
      const input = search(), o = el instanceof Element && el.closest('[role="option"]');
      const list = o && o.closest('[role="listbox"]');
      return input && list && list.id === input.getAttribute("aria-controls") ? o : null;
    };
    // A typed pick (an option clicked, or Enter on the option the search put first): the
    // document's highlights at once when the run its search asked for brought them
    // (``picks``); the selector's own run then hands over the same text.
    const pick = (o) => {
      const doc = o && o.textContent.trim();
      const html = doc && s.data && s.data.picks && s.data.picks[doc];
      if (!html || doc === s.data.doc) return;
      show(html, doc);
      s.pending = { doc: doc, run: s.data.run + 1 };
    };
    // A click on a button (the mouse, Enter or Space on it) starts its run.
    s.onClick = (e) => {
      for (const dir of ["prev", "next"]) {
        const b = button(dir);
        if (b && !b.disabled && e.target instanceof Node && b.contains(e.target)) step(dir);
      }
      pick(option(e.target));
    };
    // The search narrowed the selector's list: once it rests (%(rest)d ms), the first
    // %(picks)d documents it lists are asked for (a trigger: one run of this fragment, which
    // hands their highlights as ``picks``), unless held already.
    s.onInput = (e) => {
      const input = search();
      if (!input || e.target !== input) return;
      clearTimeout(s.timer);
      s.timer = setTimeout(() => {
        if (!input.isConnected || !input.value.trim()
            || input.getAttribute("aria-expanded") !== "true") return;
        const list = document.getElementById(input.getAttribute("aria-controls") || "");
        const held = (d) => d === (s.data && s.data.doc)
                            || Boolean(s.data && s.data.picks && d in s.data.picks);
        const want = [...(list ? list.querySelectorAll('[role="option"]') : [])]
          .slice(0, %(picks)d).map((o) => o.textContent.trim());
        const key = JSON.stringify(want);
        if (!want.length || want.every(held) || key === s.asked) return;
        s.asked = key;
        s.want("want", want);
      }, %(rest)d);
    };
    // The keys P and N: Streamlit's shortcut handler dispatches no click; it calls
    // preventDefault on the keydown it takes (and on no other), on the document, where this
    // listener on the window hears the event after it. A key Streamlit skips (typed into or
    // pressed on an INPUT, TEXTAREA, SELECT or editable element, a radio's too) steps nothing.
    const field = (e) => (e.composedPath ? e.composedPath() : [e.target]).some(
      (t) => t instanceof Element && (["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName)
                                      || t.isContentEditable
                                      || t.getAttribute("contenteditable") === "true"));
    // Enter in the search picks the option it marks (heard capturing: before the list
    // closes).
    s.onEnter = (e) => {
      const input = search();
      if (e.key === "Enter" && !e.repeat && input && e.target === input
          && input.getAttribute("aria-expanded") === "true")
        pick(option(document.getElementById(input.getAttribute("aria-activedescendant") || "")));
    };
    s.onKey = (e) => {
      if (!e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey
          || field(e)) return;
      const dir = { p: "prev", n: "next" }[(e.key || "").toLowerCase()];
      const b = dir && button(dir);
      if (b && !b.disabled) step(dir);
    };
    document.addEventListener("click", s.onClick, true);
    document.addEventListener("input", s.onInput, true);
    window.addEventListener("keydown", s.onEnter, true);
    window.addEventListener("keydown", s.onKey);
    // Streamlit keeps what each call returns as the component's cleanup: every path returns
    // this one, or a call that returned nothing would leave the listeners behind on unmount.
    s.cleanup = () => {
      document.removeEventListener("click", s.onClick, true);
      document.removeEventListener("input", s.onInput, true);
      window.removeEventListener("keydown", s.onEnter, true);
      window.removeEventListener("keydown", s.onKey);
      clearTimeout(s.timer);
      delete parentElement.__ssSwitch;
    };
    parentElement.__ssSwitch = s;
  }
  const pending = s.pending;
  s.pending = null;
  if (pending && !data.stepped && data.run <= pending.run && data.doc !== pending.doc) {
    // the run in flight at the step: its document would flicker back for a moment
    s.pending = pending;
    return s.cleanup;
  }
  s.data = data;
  // Every run hands a new data (its ``run``): the document it names is shown, whatever was
  // swapped in before (the same text as shown: not drawn again).
  s.show(data.html, data.doc);
  return s.cleanup;
}
"""

TAGS = frozenset({"p", "div", "span", "strong", "b", "i", "em", "code", "br", "small", "sup",
                  "sub"})
"""Elements the highlights are made of (:mod:`core.render.highlight`, :mod:`ui.documents`)."""
ATTRIBUTES = frozenset({"class", "id", "dir", "title", "style", "lang", "role"})
"""Their attributes, besides ``data-*`` and ``aria-*``. No event handler, no attribute holding
a URL (``src``, ``href``), and no style that can (:data:`BAD_STYLE`)."""
BAD_STYLE = ("url", "image-set", "expression", "@", "\\")
"""What a ``style`` attribute may not hold, in any case: a URL (``url(``, ``image-set(``,
``@import``), a script (``expression(``), or a CSS escape (``\\``) that could spell either."""
_BAD_STYLE_RE = "|".join(re.escape(b) for b in BAD_STYLE)
_MARKUP = re.compile(r"<(?!/?[A-Za-z])")
"""A ``<`` that opens no start or end tag: ``<!`` (a comment, ``<![CDATA[``, a declaration),
``<?``, ``</`` followed by no letter. Escaped text holds no ``<``: the highlights hold none of
these, and HTMLParser and a browser read them apart (a browser's bogus comment ends at the
first ``>``), so they are refused whole."""

NAME = "spanscope_doc_switch"
"""The component's name (one per app)."""
_CSS = """
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > .ss-stale),
.st-key-WARM_KEY {
  display: none;
}
""".replace("WARM_KEY", WARM_KEY)
"""While a page still draws ``st.html`` beside the component (:func:`draw`), that copy is hidden
once the component shows the same highlights: one text on the screen, no frame without one."""
PICKS = 3
"""Most documents a search of the selector asks for at once: the first it lists (its best
matches), held for a typed pick (docs/performance.md, issue 29, fifteenth pass)."""
REST_MS = 80
"""How long the search must rest before its documents are asked for (a person typing an id
asks once, not once per character)."""
_component = st.components.v2.component(
    NAME, js=_JS % {"tags": json.dumps(sorted(TAGS)), "attributes": json.dumps(sorted(ATTRIBUTES)),
                    "bad_style": json.dumps(_BAD_STYLE_RE), "picks": PICKS, "rest": REST_MS},
    css=_CSS, isolate_styles=False)


class _Vetter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.foreign: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.foreign.append(tag)
        for name, value in attrs:
            if (name not in ATTRIBUTES and not name.startswith(("data-", "aria-"))) or (
                    name == "style" and value
                    and any(b in value.lower() for b in BAD_STYLE)):
                self.foreign.append(f"{tag} {name}")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag not in TAGS:
            self.foreign.append(f"/{tag}")

    # Comments (bogus ones too), declarations, marked sections and processing instructions:
    # none is part of the highlights (and :data:`_MARKUP` refuses their ``<`` before).
    def handle_comment(self, data: str) -> None:
        self.foreign.append("<!--")

    def handle_decl(self, decl: str) -> None:
        self.foreign.append("<!")

    def unknown_decl(self, data: str) -> None:
        self.foreign.append("<![")

    def handle_pi(self, data: str) -> None:
        self.foreign.append("<?")


_VETTED: collections.OrderedDict[bytes, tuple[str, ...]] = collections.OrderedDict()
""":func:`foreign`'s answers by a digest of the HTML (the last 64): the HTML itself stays in
:func:`ui.documents.highlights_html`'s cache alone."""
_VETTED_SIZE = 64
_VETTED_LOCK = threading.Lock()


def foreign(html: str) -> tuple[str, ...]:
    """The elements and attributes of ``html`` outside :data:`TAGS` and :data:`ATTRIBUTES`
    (none for highlights whose every text went through :func:`core.render.html.esc`), and any
    ``<`` that opens no tag (:data:`_MARKUP`). The component puts its HTML into the page
    after its script has dropped whatever is not the highlights' own, where ``st.html``
    sanitises it: HTML with anything else is drawn by ``st.html`` instead (a second defence,
    as ``st.html``'s is)."""
    key = hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    with _VETTED_LOCK:
        if key in _VETTED:
            _VETTED.move_to_end(key)
            return _VETTED[key]
    found = [html[m.start():m.start() + 2] for m in _MARKUP.finditer(html)][:1]
    vet = _Vetter()
    vet.feed(html)
    vet.close()
    answer = tuple(found + vet.foreign)
    with _VETTED_LOCK:
        _VETTED[key] = answer
        while len(_VETTED) > _VETTED_SIZE:
            _VETTED.popitem(last=False)
    return answer


FALLBACKS: collections.Counter[str] = collections.Counter()
"""Highlights the component refused (:func:`foreign`), drawn by ``st.html``: tests read it."""


K_RUN = "doc_switch_run"
"""Session key: the runs that handed the component data, counted (its data's ``run``)."""


K_WANT = "doc_switch_want"
"""Session key: the documents the selector's search asked for (the component's ``want``
trigger), taken by the run it starts (:func:`draw`)."""
PREFETCHED: collections.Counter[str] = collections.Counter()
"""Documents whose highlights a run handed the component for a typed pick (``picks``), and the
runs that did: tests read it."""


def _ready() -> None:
    st.session_state[K_LIVE] = True


def _want() -> None:
    """The search narrowed the selector's list: keep the documents it asks for (a trigger's
    value lasts one run; the run it starts takes them)."""
    value = st.session_state.get(KEY)
    want = value.get("want") if value is not None and hasattr(value, "get") else None
    if isinstance(want, list):
        st.session_state[K_WANT] = [str(d) for d in want[:PICKS]]


@st.fragment
def _warm() -> None:
    if not live():
        _component(key=WARM_KEY, data={"warm": True}, on_ready_change=_ready)


def warm() -> None:
    """On the Errors page, whose category links open the Documents page: until this session
    knows that the component's script runs (:func:`live`), a copy of the component drawing
    nothing, hidden (``display: none``, :data:`_CSS`), at the end of the page. Its script reports
    ``ready`` in an idle moment of the browser, in a run of this fragment alone (a few messages;
    the copy then goes). The first Errors -> Documents click of a session then finds the
    component's script loaded and the session live: its page draws the highlights once, by the
    component, without the ``st.html`` copy, and no run follows for the report
    (docs/performance.md, issue 29, twentieth pass)."""
    if not live():
        _warm()


def live() -> bool:
    """Whether the component draws the highlights in this session."""
    return bool(st.session_state.get(K_LIVE))


def draw(doc: str, html: str,
         neighbours: Callable[[], dict[str, tuple[str, str] | None]],
         picks: Callable[[list[str]], dict[str, str]] | None = None) -> None:
    """The highlights ``html`` of ``doc``: by the component once its script has run in this
    session, with ``neighbours()``, called only then (direction ``prev`` / ``next`` -> the
    document that button opens and its highlights, or None where the button opens nothing the
    component can show), and in the run the selector's search started, ``picks(asked)`` (the
    documents it asked for that the selector can open -> their highlights), which the
    component shows at once when one of them is picked (that run holds no neighbours: the
    person is leaving the document);
    until then, the component drawing the same and asking its script to report, then an
    ``st.html`` element, which a browser without the script keeps. HTML with an element or
    attribute the highlights never hold (:func:`foreign`) is drawn by ``st.html`` alone."""
    if foreign(html):
        if live():
            FALLBACKS["foreign"] += 1
        _component(key=KEY, data={"plain": True}, on_ready_change=_ready,
                   on_want_change=_want)
        st.html(html)
        return
    # A new ``run`` each run: the front end calls the script again even when the text is the
    # same, and the script shows the document this run names, whatever it swapped in before
    # (a swap no run followed, a run that ended elsewhere).
    asked = st.session_state.pop(K_WANT, None)
    st.session_state[K_RUN] = run = st.session_state.get(K_RUN, 0) + 1
    # ``stepped``: this run is a step's (Previous, Next, P, N), whose document the component
    # shows even while it keeps the one it swapped to from a run that was in flight then
    stepped = any(bool(st.session_state.get(k)) for k in STEPPER.values())
    data: dict[str, Any] = {"doc": doc, "html": html, "keys": STEPPER, "selector": SELECTOR,
                            "run": run, "stepped": stepped}
    if live():
        if asked:  # the search's run: the person is leaving this document, not stepping on
            data.update({"prev": None, "next": None})
        else:
            data.update({d: (None if n is None or foreign(n[1])
                             else {"doc": n[0], "html": n[1]})
                         for d, n in neighbours().items()})
        if asked and picks is not None:
            held = {d: h for d, h in picks(asked).items() if d != doc and not foreign(h)}
            if held:
                data["picks"] = held
                PREFETCHED["runs"] += 1
                PREFETCHED["documents"] += len(held)
        _component(key=KEY, data=data, on_ready_change=_ready, on_want_change=_want)
        return
    # Until the script reports: the component first (it draws the same text, and its style
    # hides this copy as soon as it has), then st.html, which a browser without the script
    # keeps. The component first, so that it keeps its place when st.html goes. No
    # neighbours: the run the report starts brings them.
    _component(key=KEY, data={**data, "prev": None, "next": None, "probe": True},
               on_ready_change=_ready, on_want_change=_want)
    st.html(html)


def payload(element: Any) -> dict[str, Any] | None:
    """The data an ``AppTest`` element of the component carries (None for another element):
    what the page handed the browser."""
    import json

    proto: Any = getattr(element, "proto", None)
    if getattr(proto, "component_name", None) != NAME:
        return None
    return json.loads(proto.json) if proto.json else None
