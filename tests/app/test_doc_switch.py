"""The Documents page's highlights in the component that swaps them in the browser
(:mod:`ui.doc_switch`, docs/performance.md, issue 29, thirteenth pass): what the page hands it,
and the page without it (a browser whose component runs no script, as ``AppTest``)."""

from __future__ import annotations

from ui import doc_switch, documents, sidebar, state


def _payloads(at) -> list[dict]:
    return [p for el in at.main.get("bidi_component")
            if (p := doc_switch.payload(el)) is not None]


def _html(at) -> list[str]:
    from core.render import highlight
    from ui import plain

    captions = (f'<div class="{plain.CAPTION_CLASS}">', f'<div class="{plain.TEXT_CLASS}">')
    return [h.proto.body for h in at.html  # the highlights' copies, not the page's captions
            if h.proto.body not in (sidebar.SCRIPT, highlight.compact_css())
            and not h.proto.body.startswith(captions)]


def _live(make_app, **kwargs):
    """The page in a session whose browser reported the component's script running."""
    at = make_app("pages/documents.py", **kwargs)
    at.session_state[doc_switch.K_LIVE] = True
    return at.run()


def test_without_the_components_script_the_page_draws_the_highlights_itself(make_app) -> None:
    """Until the component's script reports (never, here), the highlights are an ``st.html``
    element after the component, which is handed the same and asked to report."""
    at = make_app("pages/documents.py", params={"doc": "doc2"})
    assert not at.exception
    (body,) = _html(at)
    assert "Both annotations of document doc2, side by side" in body
    (data,) = _payloads(at)
    assert data["probe"] is True and data["html"] == body and data["doc"] == "doc2"
    assert data["prev"] is None and data["next"] is None  # built once the script reports
    tab = [type(el).__name__ for el in at.main.get("bidi_component")]
    assert tab == ["UnknownElement"]
    # the component comes first, so that it keeps its place when st.html goes
    kinds = [getattr(el, "type", None) for el in at.tabs[0].children.values()]
    assert kinds.index("bidi_component") < kinds.index("html")


def test_the_components_report_hands_it_the_text(make_app) -> None:
    """The state value ``ready`` the script sets runs the page's callback: the next run gives
    the component the text, and no ``st.html`` draws it twice."""
    at = make_app("pages/documents.py", params={"doc": "doc2"})
    plain = _html(at)[0]
    doc_switch._ready()  # what the component's state value ``ready`` calls
    at.session_state[doc_switch.K_LIVE] = True
    at.run()
    (live,) = _payloads(at)
    assert live["doc"] == "doc2" and live["html"] == plain
    assert _html(at) == []
    assert live["keys"] == {"prev": "doc_prev", "next": "doc_next"}


def test_the_component_holds_what_previous_and_next_open(make_app) -> None:
    """The neighbours' highlights are those the stepper's run then draws, byte for byte, so
    the component shows them at the click and does not draw them again; none past the ends."""
    at = _live(make_app, params={"doc": "doc1"})
    (first,) = _payloads(at)
    assert first["prev"] is None and first["next"]["doc"] == "doc2"
    at.button(key="doc_next").click().run()
    (second,) = _payloads(at)
    assert at.selectbox(key=state.K_DOC).value == "doc2"
    assert second["doc"] == "doc2" and second["html"] == first["next"]["html"]
    assert second["prev"]["html"] == first["html"]
    assert second["next"]["doc"] == "doc10"
    at.button(key="doc_next").click().run()
    (third,) = _payloads(at)
    assert third["html"] == second["next"]["html"] and third["next"] is None
    assert not at.exception


def test_a_neighbour_keeps_the_selected_span_as_the_page_does(make_app) -> None:
    """A span selected stays selected on a document holding a span of that id (the selector
    keeps its value) and no other: the neighbour's highlights say the same."""
    at = _live(make_app, params={"doc": "doc1"})
    at.selectbox(key=state.K_SPAN).select("G1").run()
    (before,) = _payloads(at)
    assert 'class="ss-tag ss-on"' in before["html"]
    at.button(key="doc_next").click().run()
    (after,) = _payloads(at)
    assert after["html"] == before["next"]["html"]
    at.button(key="doc_prev").click().run()
    (back,) = _payloads(at)
    assert back["html"] == after["prev"]["html"]
    assert not at.exception


def test_a_neighbour_keeps_the_filters_marks(make_app) -> None:
    """The spans behind an error filter are marked in the neighbours' highlights as in the
    page's own."""
    at = _live(make_app, params={"doc": "doc1", "ecat": "missed"})
    (before,) = _payloads(at)
    assert 'class="ss-cap">Dashed outline' in before["html"]
    assert 'class="ss-cap">Dashed outline' in before["next"]["html"]
    at.button(key="doc_next").click().run()
    (after,) = _payloads(at)
    assert after["html"] == before["next"]["html"]
    assert not at.exception


def test_the_component_gets_escaped_html_only(make_app) -> None:
    """The hand-made corpus's hostile text and label reach the component escaped, in the
    current document's highlights and in a neighbour's."""
    at = _live(make_app, params={"doc": "doc2"})
    (data,) = _payloads(at)
    assert data["next"]["doc"] == "doc10"
    for html in (data["html"], data["next"]["html"], data["prev"]["html"]):
        assert "<script" not in html and "<img" not in html and "<b>bold" not in html
    assert "&lt;script&gt;" in data["next"]["html"]


def test_a_long_text_has_no_neighbour_to_show() -> None:
    """A text drawn a passage at a time picks its passage on arrival: the component is given
    no highlights for it, and the stepper's run draws it (its first passage)."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from core.model import AnnotationSet, Span
    from core.render.passages import PASSAGE_CHARS

    long = "lorem ipsum dolor sit amet " * (3 * PASSAGE_CHARS // 27)
    texts = {"a": "A short text.", "b": long}
    gold = AnnotationSet("gold", {"a": (Span(0, 7, "X"),), "b": (Span(0, 5, "X"),)})
    pred = AnnotationSet("system_a", {"a": (Span(2, 7, "X"),), "b": (Span(0, 5, "X"),)},
                         role="system")
    report = state.FileReport("two.json", "test", "gold", "two", texts, (gold, pred))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"),
                           default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = state.build_workspace(
        [report], key="test:two", title="a short and a long text", shareable=False)
    at.session_state[doc_switch.K_LIVE] = True
    at.run()
    at.switch_page("pages/documents.py").run()
    (data,) = _payloads(at)
    assert data["doc"] == "a" and data["next"] is None
    at.button(key="doc_next").click().run()
    (data,) = _payloads(at)
    assert data["doc"] == "b" and data["prev"]["doc"] == "a"
    assert at.selectbox(key=f"{documents.K_PASSAGE}/b").value == 0
    assert not at.exception


def test_the_vetting_names_what_the_highlights_never_hold() -> None:
    """The component puts its HTML into the page unsanitised: anything but the highlights'
    own elements and attributes is named (and sends the HTML to ``st.html``)."""
    from core.render.html import esc

    assert doc_switch.foreign('<p class="ss-cap"><strong>a</strong> '
                              + esc('<img src=x onerror=alert(1)>') + "</p>") == ()
    assert doc_switch.foreign('<img src=x onerror=alert(1)>') == ("img", "img src",
                                                                  "img onerror")
    assert doc_switch.foreign('<span onclick="x">a</span><script>alert(1)</script>') == (
        "span onclick", "script", "/script")
    assert doc_switch.foreign('<span style="background:url(//x)">a</span>') == ("span style",)
    assert doc_switch.foreign("<!-- x --><div>a</div>") == ("<!", "<!--")


def test_markup_a_browser_reads_otherwise_than_the_vetting_is_refused() -> None:
    """HTMLParser reads ``<![CDATA[ x ><img ...>]]>`` as one declaration, a browser as a bogus
    comment ending at the first ``>``, then an ``img`` whose ``onerror`` runs: every ``<`` that
    opens no tag is refused, and each parser's callback for such markup names it too."""
    img = "<img src=x onerror=alert(1)>"
    cases = {f"<![CDATA[ x >{img}]]>": ("<!", "<!["),
             f"<!x>{img}": ("<!", "<!--"),
             f"<?x >{img}": ("<?", "<?"),
             "<!DOCTYPE html><p>a</p>": ("<!", "<!"),
             f"</ x>{img}": ("</", "/x")}
    for html, first in cases.items():
        assert doc_switch.foreign(html)[:2] == first, html
    # each refusal stands alone: the parser's callbacks without the ``<`` test
    for html, name in ((f"<![CDATA[ x >{img}]]>", "<!["), ("<!x>", "<!--"), ("<?x >", "<?"),
                       ("<!DOCTYPE html>", "<!"), ("</script>", "/script")):
        vet = doc_switch._Vetter()
        vet.feed(html)
        vet.close()
        assert name in vet.foreign, html


def test_a_style_that_could_load_or_run_anything_is_refused() -> None:
    """In a ``style``, in any case: ``url``, ``image-set``, ``@``, ``expression`` and the CSS
    escape ``\\`` (that could spell them); character references are read first, as a browser
    does. The highlights' own styles pass."""
    for style in ("background:URL(//x)", "background:image-set('x' 1x)", "@import 'x'",
                  "width:eXpression(alert(1))", "background:\\75 rl(//x)",
                  "background:u&#114;l(//x)", "background:u&#x72;l(//x)"):
        assert doc_switch.foreign(f'<span style="{style}">a</span>') == ("span style",), style
    assert doc_switch.foreign('<span style="background:linear-gradient(#fff,#000);'
                              '--ss-pad:2px;line-height:20px">a</span>') == ()


def test_the_vetting_remembers_digests_not_the_html() -> None:
    """The answers are kept by a 16-byte digest of the HTML, the last 64: a large text is
    kept by the highlights' own cache alone, and an answer evicted is found again."""
    big = '<p class="ss-cap">' + "a" * 200_000 + "</p>"
    assert doc_switch.foreign(big) == ()
    for i in range(100):
        assert doc_switch.foreign(f"<b>{i}</b><img src={i}>") == ("img", "img src")
    assert len(doc_switch._VETTED) == 64
    assert all(isinstance(k, bytes) and len(k) == 16 for k in doc_switch._VETTED)
    assert all(len("".join(v)) < 100 for v in doc_switch._VETTED.values())
    assert doc_switch.foreign(big) == () and doc_switch.foreign("<b>0</b><img src=0>") == (
        "img", "img src")


def test_every_run_hands_the_component_new_data_naming_its_document(make_app) -> None:
    """The front end calls the component's script when its data changes: each run's data
    has a new ``run``, so that the script shows the document that run names even when the
    text is the one it handed before (a swap in the browser no run followed)."""
    at = _live(make_app, params={"doc": "doc2"})
    (first,) = _payloads(at)
    at.run()
    (again,) = _payloads(at)
    assert again["doc"] == first["doc"] == "doc2" and again["html"] == first["html"]
    assert again["run"] > first["run"]
    at.button(key="doc_next").click().run()
    (moved,) = _payloads(at)
    assert moved["doc"] == "doc10" and moved["run"] > again["run"]
    assert not at.exception


def test_highlights_the_vetting_refuses_are_drawn_by_st_html(make_app, monkeypatch) -> None:
    """A live session whose highlights hold a foreign element: ``st.html`` (which sanitises)
    draws them, the component draws nothing, and the refusal is counted; a neighbour refused
    alone is not offered."""
    at = _live(make_app, params={"doc": "doc2"})
    built = documents.highlights_html
    monkeypatch.setattr(documents, "highlights_html",
                        lambda ws, v, s: built(ws, v, s) + ('<img src=x>' if s.doc == "doc2"
                                                            else ""))
    before = doc_switch.FALLBACKS["foreign"]
    at.run()
    assert _payloads(at) == [{"plain": True}]
    (body,) = _html(at)
    assert "Both annotations of document doc2" in body and "<img src=x>" in body
    assert doc_switch.FALLBACKS["foreign"] == before + 1
    at.button(key="doc_next").click().run()  # doc10: its own HTML is clean, its prev is not
    (data,) = _payloads(at)
    assert data["doc"] == "doc10" and data["prev"] is None
    assert not at.exception


def test_a_document_picked_otherwise_than_by_a_step_holds_no_neighbours(make_app) -> None:
    """A document typed into the selector (or a row, or a link) is handed without its
    neighbours, so that the switch sends one document's highlights, not three; the step that
    follows is drawn by its run and hands them on, and a step then holds them again."""
    at = _live(make_app, params={"doc": "doc1"})
    (first,) = _payloads(at)
    assert first["next"]["doc"] == "doc2"  # a page opened on a document holds them
    at.selectbox(key=state.K_DOC).set_value("doc10").run()
    (typed,) = _payloads(at)
    assert typed["doc"] == "doc10" and typed["prev"] is None and typed["next"] is None
    at.button(key="doc_prev").click().run()
    (stepped,) = _payloads(at)
    assert stepped["doc"] == at.selectbox(key=state.K_DOC).value == "doc2"
    assert stepped["prev"]["doc"] == "doc1" and stepped["next"]["doc"] == "doc10"
    assert not at.exception


def test_every_call_of_the_component_returns_its_cleanup() -> None:
    """Streamlit 1.67 keeps what a component call returns as its unmount cleanup: a call that
    returned nothing (a run set aside as in flight at a step, a document drawn by st.html, no
    data) left the capturing click listener on ``document`` and the keydown listener on
    ``window`` behind when the component unmounted (a page left before the step's run came),
    and an old handler could later act on a page that no longer had the component."""
    js = doc_switch._JS
    assert js.count("s.cleanup = () => {") == 1
    assert "return () =>" not in js
    assert js.count("return s.cleanup;") == 3  # the set-aside run, st.html's text, a shown run
    assert "if (!data) return parentElement.__ssSwitch?.cleanup;" in js


def test_a_search_of_the_selector_gets_its_documents_highlights_once(make_app) -> None:
    """The documents the selector's search asked for (the component's ``want``, kept by its
    callback) are handed in the run it starts, among those the selector can open, but the one
    shown; the run that a pick then starts draws the very text held, and hands none again."""
    at = _live(make_app, params={"doc": "doc1"})
    before = dict(doc_switch.PREFETCHED)
    at.session_state[doc_switch.K_WANT] = ["doc10", "doc1", "no-such-doc"]
    at.run()
    (asked,) = _payloads(at)
    assert sorted(asked["picks"]) == ["doc10"]
    # the person is leaving doc1: its neighbours are not built for this run
    assert asked["prev"] is None and asked["next"] is None
    assert "Both annotations of document doc10, side by side" in asked["picks"]["doc10"]
    assert asked["doc"] == "doc1" and asked["selector"] == state.K_DOC
    assert doc_switch.PREFETCHED["runs"] == before.get("runs", 0) + 1
    assert doc_switch.PREFETCHED["documents"] == before.get("documents", 0) + 1
    at.selectbox(key=state.K_DOC).set_value("doc10").run()
    (picked,) = _payloads(at)
    assert picked["doc"] == "doc10" and picked["html"] == asked["picks"]["doc10"]
    assert "picks" not in picked  # asked once, handed once
    assert doc_switch.PREFETCHED["runs"] == before.get("runs", 0) + 1
    assert not at.exception


def test_a_held_pick_keeps_the_selected_span_and_the_filters_marks(make_app) -> None:
    """A document held for a typed pick is drawn as the selector's run draws it: the span
    selected stays selected where the document holds a span of that id, and the spans behind
    an error filter keep their mark."""
    at = _live(make_app, params={"doc": "doc1", "ecat": "missed"})
    at.selectbox(key=state.K_SPAN).select("G1").run()
    at.session_state[doc_switch.K_WANT] = ["doc2"]
    at.run()
    (asked,) = _payloads(at)
    held = asked["picks"]["doc2"]
    assert 'class="ss-cap">Dashed outline' in held
    at.selectbox(key=state.K_DOC).set_value("doc2").run()
    (picked,) = _payloads(at)
    assert picked["html"] == held
    assert not at.exception


def test_a_search_asks_for_a_few_documents_at_most(make_app, monkeypatch) -> None:
    """The component's ``want`` is kept as strings, at most :data:`PICKS` of them; a value that
    is no list asks for nothing; nothing is handed before the script reports."""
    fake: dict = {doc_switch.KEY: {"want": ["a", 2, "c", "d", "e"]}}
    monkeypatch.setattr(doc_switch.st, "session_state", fake)
    doc_switch._want()
    assert fake[doc_switch.K_WANT] == ["a", "2", "c"][:doc_switch.PICKS]
    fake = {doc_switch.KEY: {"want": None}}
    monkeypatch.setattr(doc_switch.st, "session_state", fake)
    doc_switch._want()
    assert doc_switch.K_WANT not in fake
    monkeypatch.undo()
    at = make_app("pages/documents.py", params={"doc": "doc1"})
    at.session_state[doc_switch.K_WANT] = ["doc10"]
    at.run()
    (probe,) = _payloads(at)
    assert probe["probe"] is True and "picks" not in probe
    assert not at.exception


def _warm_payloads(at) -> list[dict]:
    return [p for el in at.main.get("bidi_component")
            if (p := doc_switch.payload(el)) is not None and p.get("warm")]


def test_the_errors_page_ends_with_a_hidden_copy_until_the_session_is_live(make_app) -> None:
    """Issue 29, twentieth pass: the Errors page's last element is the component's warm copy
    (no text, no document), until the session knows that the script runs; the copy's report
    is the same state value ``ready`` and callback as the Documents page's; the page the first
    link opens then counts as reached by a jump (the component holds no document yet)."""
    at = make_app("pages/errors.py")
    assert not at.exception
    (warm,) = _warm_payloads(at)
    assert warm == {"warm": True}
    last = list(at.main.children.values())[-1]
    assert [doc_switch.payload(el) for el in _walk(last)
            if getattr(el, "type", None) == "bidi_component"] == [{"warm": True}]
    assert at.session_state[documents.K_HELD] == ""
    doc_switch._ready()  # what the copy's state value ``ready`` calls
    at.session_state[doc_switch.K_LIVE] = True
    at.run()
    assert _warm_payloads(at) == []  # live: no copy on any later run
    assert not at.exception


def _walk(node) -> list:
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        return [node]
    return [node, *[n for c in children.values() for n in _walk(c)]]


def test_the_warm_copy_draws_nothing_and_reports_in_an_idle_moment() -> None:
    """Its script returns before any box is made, reporting ``ready`` from an idle callback;
    its container is hidden (``display: none``): nothing on the Errors page moves."""
    js = doc_switch._JS
    warm = js.index("if (data.warm) {")
    assert warm < js.index("if (data.plain)") < js.index('document.createElement("div")')
    branch = js[warm:js.index("later(report);\n    return;", warm) + len("later(report);")]
    assert "window.requestIdleCallback(f, {timeout: 2000})" in branch and "later(report);" in branch
    # never while a run is under way (a click's), nor once the copy has left the page
    assert "if (!parentElement.isConnected) return;" in branch
    assert 'getAttribute("data-test-script-state") === "running"' in branch
    assert branch.index('=== "running"') < branch.index('setStateValue("ready", true)')
    assert "appendChild" not in branch and "innerHTML" not in branch
    assert ".st-key-doc_switch_warm {\n  display: none;\n}" in doc_switch._CSS.replace(
        ",\n.st-key", "\n.st-key")
    assert doc_switch.WARM_KEY == "doc_switch_warm" != doc_switch.KEY


def test_a_documents_page_a_warm_session_opens_holds_no_neighbours(make_app) -> None:
    """After the Errors page's warm copy (the component holds no document, the session live),
    the Documents page a link opens hands the component its document alone, as every later
    link does: the click's run builds one document's highlights, not three; no ``st.html``."""
    at = make_app("pages/errors.py")
    assert at.session_state[documents.K_HELD] == ""
    at.session_state[doc_switch.K_LIVE] = True  # the copy's report
    at.switch_page("pages/documents.py").run()
    (data,) = _payloads(at)
    assert data["doc"] and data["prev"] is None and data["next"] is None
    assert "probe" not in data and _html(at) == []
    assert not at.exception


def test_the_counters_count_every_addition_of_many_threads() -> None:
    """bugleft26: FALLBACKS and PREFETCHED were added to with ``counter[key] += n`` by the page
    runs of every session, each in a thread of its own: a read and a write that nothing keeps
    together. Every addition goes through :func:`ui.doc_switch.tally`, under one lock; sixteen
    threads adding at once, with the interpreter switching threads as often as it can, lose
    none."""
    import collections
    import inspect
    import threading

    from tests.racing import race

    counter: collections.Counter[str] = collections.Counter()
    race([threading.Thread(target=lambda: [doc_switch.tally(counter, runs=1, documents=3)
                                            for _ in range(2_000)])
          for _ in range(16)])
    assert counter == {"runs": 32_000, "documents": 96_000}
    source = inspect.getsource(doc_switch)
    for name in ("FALLBACKS", "PREFETCHED"):
        assert f"{name}[" not in source  # no addition of its own beside tally
