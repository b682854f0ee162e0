"""Every figure builder draws text from files (labels, set names, document ids, buckets) as
written: Plotly reads ``<b>``, ``<br>``, ``<a>``, ``<sup>``, ``<span style>``, ``&...;``
entities and ``%{...}`` templates in the strings it draws, so each such string reaches the
figure through :func:`ui.escape.plot`, once (developers' guide: text from files is escaped).

The check imitates what Plotly does with a string it draws: fill its ``%{...}`` fields, read
its tags, turn its entities into characters. A hostile name must come out as its own text, in
every place a builder puts it: titles, tick labels, legend entries, subplot titles, hover and
bar text, and the ``customdata`` fields a hover template shows.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest

from core.metrics.agreement import Study, char_agreement
from core.model import AnnotationSet, Span
from ui import annotators, charts, differences
from ui import errors as err_ui
from ui.escape import plot

HOSTILE = 'x<sup>2</sup> <b>"bold"</b>&amp;<br>%{y}'
"""A name Plotly would draw in bold, superscript, on two lines, with ``&`` for ``&amp;`` and
the point's y in place of ``%{y}``."""
OTHER = "<a href='http://evil.example/'>link</a> <span style='color:red'>r</span> 5%"

_TAG = re.compile(r"<(/?)(b|i|em|sup|sub|br|a|span)\b[^>]*>", re.I)
_FIELD = re.compile(r"%{[^}]*}")
_ENTITY = re.compile(r"&(#\d+|#x[\da-fA-F]+|[a-z]+);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "nbsp": "\u00a0"}


def _decode(match: re.Match[str]) -> str:
    name = match.group(1)
    if name.startswith("#x"):
        return chr(int(name[2:], 16))
    if name.startswith("#"):
        return chr(int(name[1:]))
    return _NAMED.get(name, match.group())


def drawn(text: str, fields: dict[str, str] | None = None) -> list[str]:
    """The lines Plotly draws for ``text``: its ``%{...}`` fields filled (from ``fields``, or
    left empty), its tags read (``<br>`` a new line, other tags dropped), then its entities
    turned into characters, in Plotly's order (plotly.js ``lib/svg_text_utils``)."""
    filled = _FIELD.sub(lambda m: (fields or {}).get(m.group(), ""), text)
    lines = re.split(r"<br\s*/?>", filled, flags=re.I)
    return [_ENTITY.sub(_decode, _TAG.sub("", line)) for line in lines]


def _texts(fig: go.Figure) -> list[str]:
    """Every line of text the figure draws: its title, axis titles, tick labels of its
    categories, subplot titles, legend entries, bar and hover text, and each ``customdata``
    field a hover template shows (filled in as Plotly fills it)."""
    out: list[str] = []
    layout = fig.layout.to_plotly_json()
    for value in layout.values():
        if isinstance(value, dict):
            title = value.get("title")
            text = title.get("text") if isinstance(title, dict) else title
            if isinstance(text, str):
                out += drawn(text)
            out += [line for tick in value.get("ticktext") or () for line in drawn(str(tick))]
    title = layout.get("title")
    if isinstance(title, dict) and isinstance(title.get("text"), str):
        out += drawn(title["text"])
    for note in layout.get("annotations") or ():
        out += drawn(str(note.get("text", "")))
    for trace in fig.data:
        t = trace.to_plotly_json()
        if isinstance(t.get("name"), str):
            out += drawn(t["name"])
        for axis in ("x", "y"):
            values = t.get(axis)
            for value in _flat(values):
                if isinstance(value, str):
                    out += drawn(value)
        for key in ("text", "hovertext"):
            for value in _flat(t.get(key)):
                if isinstance(value, str):
                    out += drawn(value)
        template = t.get("hovertemplate")
        if isinstance(template, str):
            out += drawn(template)
            out += _custom_shown(template, t.get("customdata"))
    return out


def _flat(values: Any) -> list[Any]:
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    if hasattr(values, "tolist"):
        values = values.tolist()
    if not isinstance(values, (list, tuple)):
        return [values]
    return [leaf for v in values for leaf in _flat(v)]


def _custom_shown(template: str, custom: Any) -> list[str]:
    """The ``customdata`` fields ``template`` shows, as drawn: ``%{customdata}`` a whole cell
    (a heatmap's), ``%{customdata[i]}`` field i of each point's row."""
    if custom is None:
        return []
    rows = custom.tolist() if hasattr(custom, "tolist") else list(custom)
    out: list[str] = []
    if "%{customdata}" in template:
        out += [line for leaf in _flat(rows) for line in drawn(str(leaf))]
    for i in {int(i) for i in re.findall(r"%{customdata\[(\d+)\]}", template)}:
        out += [line for row in rows for line in drawn(str(list(row)[i]))]
    return out


BROKEN = ('x2 "bold"', "link r 5%")
"""What :data:`HOSTILE` and :data:`OTHER` become when Plotly reads them as markup."""


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _assert_drawn_as_written(fig: go.Figure, *names: str) -> None:
    """Each of ``names`` drawn as written: on one line, or wrapped over several (a title or a
    tick label on a phone, ``ui.charts.wrapped_title``/``tick_text``: the lines, read in turn
    without the spaces they were cut at, hold it; markup read as such would have lost its
    tags)."""
    lines = _texts(fig)
    for name in names:
        assert (any(name in line for line in lines)
                or _squeezed(name) in _squeezed("".join(lines))), (name, lines)
    read_as_markup = [line for line in lines if any(b in line for b in BROKEN)]
    assert not read_as_markup, read_as_markup


def test_plot_text_comes_back_as_written() -> None:
    for name in (HOSTILE, OTHER, "a<br>b", "&lt;", "100%", "%{x}", "\"q\" 'a'"):
        assert drawn(plot(name)) == [name]
    # Plotly knows no &quot;: html.escape's form would be drawn as written
    assert drawn('&quot;') == ['&quot;']


def test_the_data_pages_chart_draws_labels_and_set_names_as_written() -> None:
    labels = pd.DataFrame({"label": [HOSTILE, "plain"], OTHER: [2, 1], "gold": [1, 0]})
    fig = charts.spans_per_label(labels)
    _assert_drawn_as_written(fig, HOSTILE, OTHER)


def test_the_scores_charts_draw_labels_systems_and_titles_as_written() -> None:
    per_label = pd.DataFrame({"label": [HOSTILE, "B"], "P": [0.5, 1.0], "R": [0.2, 0.4],
                              "F1": [0.3, 0.6]})
    _assert_drawn_as_written(charts.per_label_prf(per_label, title=f"{OTHER}: P, R, F1"),
                             HOSTILE, OTHER)
    systems = pd.DataFrame({"system": [HOSTILE, OTHER], "F1": [0.3, 0.6]})
    _assert_drawn_as_written(
        charts.systems_f1(systems, columns={"F1": "F1"}, title=f"F1 against {HOSTILE}"),
        HOSTILE, OTHER)
    hist = pd.DataFrame({"F1": [0.1, 0.5]})
    _assert_drawn_as_written(charts.doc_scores_hist(hist, "F1", title=HOSTILE), HOSTILE)


def test_the_errors_charts_draw_systems_labels_and_buckets_as_written() -> None:
    cats = pd.DataFrame([{"system": HOSTILE, "category": c, "reference": 2, "prediction": 1}
                         for c in err_ui.CATEGORIES])
    fig = err_ui.category_chart(cats)
    _assert_drawn_as_written(fig, HOSTILE)
    # a click still names the system as read
    assert {c[0] for t in fig.data for c in t.customdata} == {HOSTILE}

    rows = pd.DataFrame([[HOSTILE, OTHER, "reference", "missed", 2],
                         [HOSTILE, "plain", "prediction", "spurious", 1]],
                        columns=err_ui.LABEL_COLUMNS)
    fig = err_ui.label_chart(rows, [HOSTILE])
    _assert_drawn_as_written(fig, HOSTILE, OTHER)
    assert {c[1] for t in fig.data for c in t.customdata} == {OTHER, "plain"}

    frame = pd.DataFrame([{"system": HOSTILE, "bucket": OTHER, "order": 0, "documents": 3,
                           "F1": 0.5, "F1 low": 0.4, "F1 high": 0.6},
                          {"system": HOSTILE, "bucket": "one", "order": 1, "documents": 1,
                           "F1": 0.7, "F1 low": None, "F1 high": None}])
    fig = err_ui.slice_chart(frame, "F1", title=f"F1 per {OTHER} against {HOSTILE}")
    _assert_drawn_as_written(fig, HOSTILE, OTHER)
    assert {tuple(c) for t in fig.data for c in t.customdata} >= {(HOSTILE, OTHER)}


def test_the_differences_scatter_draws_document_ids_as_written() -> None:
    texts = pd.DataFrame({"document": [HOSTILE, OTHER], "Martino F1": [0.5, 0.7],
                          "MAFALDA F1": [0.8, 0.7], "reasons": ["alternative-labels", ""]})
    fig = differences.scatter(texts, level=2, variant="paper")
    _assert_drawn_as_written(fig, HOSTILE, OTHER)
    # a click opens the document as read
    event = {"selection": {"points": [{"customdata": list(fig.data[1].customdata[0])}]}}
    assert differences.selected_document(event, texts) in (HOSTILE, OTHER)


def test_the_annotators_charts_draw_annotator_and_label_names_as_written() -> None:
    sets = [AnnotationSet(n, {"d": (Span(0, 4 + i, "A"),)}, role="annotator")
            for i, n in enumerate((HOSTILE, OTHER, "c"))]
    kappa, _ = char_agreement(Study.from_sets(sets, {"d": "x" * 10}))
    fig = annotators.heatmap(kappa, key=None, title=f"kappa of {HOSTILE}")
    _assert_drawn_as_written(fig, HOSTILE, OTHER)

    table = pd.DataFrame({"annotator": [HOSTILE, OTHER], "F1": [0.5, 0.6],
                          "against": [OTHER, OTHER]})
    _assert_drawn_as_written(annotators.against_bars(table, "F1", title=f"F1 of {HOSTILE}"),
                             HOSTILE, OTHER)

    units = [{"annotator": w, "start": 0, "end": 5, "label": lab}
             for w, lab in ((HOSTILE, OTHER), (OTHER, HOSTILE))]
    al = {"annotators": [HOSTILE, OTHER], "units": units,
          "alignments": [{"units": {HOSTILE: 0, OTHER: 1}}]}
    fig = annotators.alignment_figure(al, {}, title=f"Best alignment of document {HOSTILE}")
    _assert_drawn_as_written(fig, HOSTILE, OTHER, f"Best alignment of document {HOSTILE}")


@pytest.mark.parametrize("name", [HOSTILE, OTHER])
def test_a_hostile_name_unescaped_would_fail_the_check(name: str) -> None:
    """The check itself: the same figure with the name put in raw is caught."""
    fig = go.Figure(go.Bar(x=[name], y=[1], name=name))
    fig.update_layout(title=name)
    with pytest.raises(AssertionError):
        _assert_drawn_as_written(fig, name)
