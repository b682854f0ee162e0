"""The charts' library loaded ahead of the first chart (:mod:`ui.chart_library`): the chunk it
imports is the installed Streamlit's own, under the name Streamlit's lazy loader imports (the
same module URL, so the first chart finds it evaluated), and the script rides in the sidebar's
element on every page. ``tests/e2e/test_chart_library_browser.py`` checks it in a browser."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit

from ui import chart_library, sidebar

STATIC = Path(streamlit.__file__).parent / "static"


def test_the_chunk_is_the_installed_streamlits_plotly_chunk() -> None:
    name = chart_library.chunk_name()
    assert name is not None and re.fullmatch(r"PlotlyChart\.[\w-]+\.js", name)
    assert (STATIC / "static" / "js" / name).is_file()


def test_streamlits_loader_imports_the_chunk_beside_its_index_script() -> None:
    """The preload resolves the chunk against the ``index`` script's URL, as Vite's loader does
    with ``import.meta.url``: the same URL, one module."""
    name = chart_library.chunk_name()
    index_html = (STATIC / "index.html").read_text(encoding="utf-8")
    src = re.search(r'<script type="module"[^>]*src="([^"]+)"', index_html)
    assert src is not None and "/static/js/index." in src.group(1)  # the script's selector
    index_js = (STATIC / src.group(1).lstrip("./")).read_text(encoding="utf-8")
    assert f"import(`./{name}`)" in index_js
    vega = chart_library.chunk_name(stem="ArrowVegaLiteChart")
    assert vega is not None and f"import(`./{vega}`)" in index_js
    grid = chart_library.chunk_name(stem="DataFrame")  # st.dataframe's grid, before plotly.js
    assert grid is not None and f"import(`./{grid}`)" in index_js
    assert chart_library.chunk_names()[0] == name
    assert chart_library.chunk_names(stems=chart_library.FIRST)[0] == grid


def test_the_vega_chunks_are_the_ones_streamlits_vega_loader_imports() -> None:
    """``loadVegaEmbed`` imports ``embed`` and the expression interpreter beside itself: the
    preload's names are those, found once each, after plotly.js."""
    names = chart_library.chunk_names()
    assert [n.split(".")[0] for n in names] == list(chart_library.CHUNKS)
    loader = chart_library.chunk_name(stem="loadVegaEmbed")
    assert loader is not None
    text = (STATIC / "static" / "js" / loader).read_text(encoding="utf-8")
    for stem in ("embed", "vega-interpreter"):
        assert f"import(`./{chart_library.chunk_name(stem=stem)}`)" in text


def test_no_chunk_or_two_chunks_preload_nothing(tmp_path: Path) -> None:
    assert chart_library.chunk_name(tmp_path) is None
    assert chart_library.script(None) == ""
    (tmp_path / "PlotlyChart.a1.js").write_text("", encoding="utf-8")
    assert chart_library.chunk_name(tmp_path) == "PlotlyChart.a1.js"
    (tmp_path / "PlotlyChart.b2.js").write_text("", encoding="utf-8")
    assert chart_library.chunk_name(tmp_path) is None


def test_the_script_imports_the_chunk_once_after_the_first_run_when_idle() -> None:
    js = chart_library.script("PlotlyChart.a1.js")
    assert js.startswith("<script>") and js.endswith("</script>") and js.count("<script") == 1
    assert '["PlotlyChart.a1.js"].map((c) => new URL(c, index.src).href)' in js
    assert ".then(() => Promise.all(step.urls.map((u) => import(u))))" in js
    assert js.count("import(") == 1
    assert 'link.rel = "modulepreload"' in js  # fetched ahead, evaluated in a quiet moment
    two = chart_library.script(["PlotlyChart.a1.js", "embed.b2.js"])
    assert '["PlotlyChart.a1.js", "embed.b2.js"]' in two  # in order, the next when idle
    assert "load(i + 1);" in two
    assert chart_library.script([]) == ""
    assert "if (w.__spanscopeCharts) return;" in js  # once per tab
    assert "const w = window;" in js  # the realm of Streamlit's own modules, not a parent's
    assert '"notRunning"' in js and "requestIdleCallback" in js
    assert "--tries > 0" in js and '"no state"' in js  # no endless polling without the state
    assert f"timeout: {chart_library.IDLE_WAIT_MS}" in js


def test_the_sidebars_element_carries_it_on_every_page() -> None:
    assert chart_library.SCRIPT
    assert chart_library.script(
        chart_library.chunk_names(), chart_library.chunk_names(stems=chart_library.FIRST),
        chart_library.chunk_names(stems=chart_library.STYLES, ext="css")) == chart_library.SCRIPT
    assert sidebar.SCRIPT.endswith(chart_library.SCRIPT)
    assert sidebar.SCRIPT.count(chart_library.SCRIPT) == 1


def test_the_documents_pages_elements_come_with_plotly_and_the_grids_style_sheet_is_linked(
) -> None:
    """The Documents page's element chunks that the Errors page does not load (issue 29,
    eighteenth pass) are the installed Streamlit's, each one its ``index`` script imports
    lazily, imported in the first step beside plotly.js (not an idle moment each before it);
    the grid's style sheet is the one Vite's loader fetches for the grid's chunk, linked under
    the URL the loader compares (``static/css`` beside ``static/js``)."""
    assert chart_library.ELEMENTS == ("Radio", "TextInput", "Checkbox", "Spinner",
                                      "BidiComponent")
    elements = chart_library.chunk_names(stems=chart_library.ELEMENTS)
    assert [n.split(".")[0] for n in elements] == list(chart_library.ELEMENTS)
    index_html = (STATIC / "index.html").read_text(encoding="utf-8")
    src = re.search(r'<script type="module"[^>]*src="([^"]+)"', index_html)
    assert src is not None
    index_js = (STATIC / src.group(1).lstrip("./")).read_text(encoding="utf-8")
    for name in elements:
        assert f"import(`./{name}`)" in index_js
    styles = chart_library.chunk_names(stems=chart_library.STYLES, ext="css")
    assert len(styles) == 1 and styles[0].startswith("DataFrame.")
    assert (STATIC / "static" / "css" / styles[0]).is_file()
    grid = chart_library.chunk_name(stem="DataFrame")
    # The grid's chunk lists the sheet among its dependencies in Vite's map of the index script.
    assert f'"./{grid}"' in index_js and f'"../css/{styles[0]}"' in index_js
    js = chart_library.SCRIPT
    assert json.dumps([grid, *elements]) in js and json.dumps(styles) in js
    assert 'new URL("../css/" + c, index.src).href' in js and 'link.rel = "stylesheet"' in js
    assert chart_library.script(["a.js"]).count('"Radio') == 0  # none unless asked for
    # Streamlit's sanitiser (DOMPurify) drops a script whose text holds "<" and a letter, "/"
    # or "!" (a tag in a comment): the whole preload would be gone.
    body = js.removeprefix("<script>").removesuffix("</script>")
    assert not re.search(r"<[/\w!]", body)


def test_the_preloads_steps_follow_the_page_each_evaluated_in_a_quiet_moment() -> None:
    """Issue 29, nineteenth and twentieth passes: the steps are the Documents page's first
    screen (the grid, then the elements, side by side) and each chunk alone (plotly.js, then
    Vega-Lite's); the first step fetches the first screen's modules and plotly.js side by side
    without evaluating them (module preload links). Which step comes next follows the page the
    tab is on when the step begins: on the pages of ``SCREEN_FIRST`` (Errors) the first screen,
    elsewhere plotly.js; then the rest in order. Each step is evaluated in a quiet moment (an
    idle period of the main thread, no timeout, no page run under way), except plotly.js as
    the first step: evaluated as soon as it is fetched."""
    assert ("DataFrame", *chart_library.ELEMENTS) == chart_library.FIRST
    assert chart_library.CHUNKS == ("PlotlyChart", "embed", "vega-interpreter",
                                    "ArrowVegaLiteChart")
    assert "DataFrame" not in chart_library.CHUNKS  # not imported twice
    assert chart_library.SCREEN_FIRST == ("errors",)
    first = chart_library.chunk_names(stems=chart_library.FIRST)
    assert [n.split(".")[0] for n in first] == list(chart_library.FIRST)
    js = chart_library.SCRIPT
    assert f"const together = {json.dumps(first)}" in js
    assert f"const urls = {json.dumps(chart_library.chunk_names())}" in js
    # The page: the last part of the address (Overview at "/"), read when each step begins.
    assert ('const page = () => w.location.pathname.split("/").filter(Boolean).pop() || "home";'
            in js)
    assert 'const screenFirst = () => ["errors"].includes(page());' in js
    # The steps, by name: the first screen, then each chunk by its file's stem.
    assert 'if (together.length) steps.push({name: "first screen", urls: together});' in js
    assert ('for (const u of urls) steps.push({name: u.split("/").pop().split(".")[0], '
            "urls: [u]});") in js
    assert 'const chart = steps.find((s) => s.name === "PlotlyChart");' in js
    picks = js[js.index("const next = "):js.index("const ahead = ")]
    assert "const want = screenFirst() ? screen : chart;" in picks
    assert "return steps.splice(k >= 0 ? k : 0, 1)[0];" in picks  # else the next in order
    body = js[js.index("const load = "):js.index("let tries")]
    # The first step fetches the first screen's files and plotly.js's side by side, first.
    fetch_at = body.index("for (const s of [screen, chart]) if (s) fetchStep(s);")
    step_at = body.index("const step = next();")
    # Evaluated in a quiet moment, but plotly.js as the first step, once fetched (as a later
    # step it waits: after the first screen on Errors the tab is often on the Documents page a
    # link opened, whose drawing it would land in).
    assert "const now = step === chart && i === 0;" in body
    eval_at = body.index("fetchStep(step)\n      .then(() => (now ? null : calm()))\n"
                         "      .then(() => Promise.all(step.urls.map((u) => import(u))))")
    assert fetch_at < step_at < eval_at
    assert "w.__spanscopeOrder.push(step.name);" in body  # what a test or a trace reads
    assert "w.__spanscopeDone.push(step.name);" in body
    assert "const calm = () => new Promise((ok) => quiet(ok));" in js
    # Quiet: an idle period (no timeout there) with no run under way, else a look again.
    quiet = js[js.index("const quiet = "):js.index("const fetched = ")]
    assert ("w.requestIdleCallback(() => (running() ? w.setTimeout(() => quiet(f), 100) : f()))"
            in quiet)
    assert "timeout" not in quiet
    assert ('const running = () => app()?.getAttribute("data-test-script-state") === "running";'
            in js)
    # A module preload link per file, not evaluated; a failed fetch leaves it to the import.
    fetched = js[js.index("const fetched = "):js.index("const page = ")]
    assert 'link.rel = "modulepreload"' in fetched and "link.onerror = ok;" in fetched
    assert "import(" not in fetched
    # The first step still starts after the first run, when idle (the fetch, bounded).
    assert ('if (app()?.getAttribute("data-test-script-state") === "notRunning") '
            "idle(() => load());") in js


def test_the_screen_first_pages_are_pages_of_the_app() -> None:
    """The pages named in ``SCREEN_FIRST`` are addresses of the app's pages (a renamed page
    would silently drop the order): the Errors page."""
    import ast

    tree = ast.parse((Path(__file__).resolve().parents[2] / "app.py").read_text(encoding="utf-8"))
    pages = next(ast.literal_eval(node.value) for node in ast.walk(tree)
                 if isinstance(node, ast.Assign)
                 and any(getattr(t, "id", None) == "PAGES" for t in node.targets))
    paths = {url for _file, _title, _icon, url in pages}
    assert set(chart_library.SCREEN_FIRST) <= paths


CHUNK_OF = {"dataframe": "DataFrame", "radio": "Radio", "text_input": "TextInput",
            "checkbox": "Checkbox", "bidi_component": "BidiComponent"}
"""AppTest's element types whose front-end chunk is one of :data:`ui.chart_library.FIRST`."""
CHARTS = ("plotly_chart", "arrow_vega_lite_chart", "vega_lite_chart")


def _types(node: Any, seen: set[str]) -> set[str]:
    seen.add(str(getattr(node, "type", "")))
    children = getattr(node, "children", None)
    for child in children.values() if isinstance(children, dict) else ():
        _types(child, seen)
    return seen


def test_the_documents_first_screen_an_errors_link_opens_needs_no_chart_and_its_chunks_come_first(
    make_app: Callable[..., Any],
) -> None:
    """Issue 29, nineteenth pass: the Documents page as an Errors link opens it (filtered to a
    category) draws no chart, so plotly.js is not on its path, and each of its elements that
    has a lazily loaded chunk of its own (the list's grid, the radio, the search, the
    highlights' component) is in :data:`ui.chart_library.FIRST`, evaluated before plotly.js."""
    at = make_app(page="pages/documents.py", params={"ecat": "missed"})
    assert not at.exception
    drawn = _types(at._tree, set())
    assert not drawn & set(CHARTS)
    lazy = {CHUNK_OF[t] for t in drawn if t in CHUNK_OF}
    assert {"DataFrame", "Radio", "TextInput", "BidiComponent"} <= lazy  # the page as read
    assert lazy <= set(chart_library.FIRST)
