"""The report's charts hold their text: names inside the chart, group names that do not run
into each other, values clear of the whiskers (the layout of :mod:`core.render.svg` follows
:func:`core.render.svg.text_width`). MAFALDA's 24 labels and its released systems' file names
are the case a researcher comparing three systems met (docs/report.md)."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from core.render.svg import GROUP_PX, NAME_PX, VALUE_PX, svg_grouped_bars, svg_stacked_bars
from core.render.svg import text_width as width_of

NS = "{http://www.w3.org/2000/svg}"
LABELS = ["ad hominem", "ad populum", "appeal to (false) authority", "appeal to anger",
          "appeal to fear", "appeal to nature", "appeal to pity",
          "appeal to positive emotion", "appeal to ridicule", "appeal to tradition",
          "appeal to worse problems", "causal oversimplification", "circular reasoning",
          "equivocation", "fallacy of division", "false analogy", "false causality",
          "false dilemma", "guilt by association", "hasty generalization", "slippery slope",
          "straw man", "tu quoque", "unknown"]
SYSTEMS = ["gpt-3.5_level_2_results", "Zephyr_7B_8-bit_level_2_results",
           "Vicuna_13B_8-bit_level_2_results"]


def _svg(text: str) -> tuple[ET.Element, float, float]:
    root = ET.fromstring(text)
    _, _, w, h = (float(v) for v in root.attrib["viewBox"].split())
    return root, w, h


def _label(el: ET.Element) -> str:
    """The text drawn (its tooltip, a title child, left out)."""
    title = el.find(f"{NS}title")
    return (el.text or "") + ("" if title is None else title.tail or "")


def _per_label() -> str:
    series = [(name, [((k * 7 + i * 5) % 10) / 10 for i in range(len(LABELS))],
               [(max(0.0, ((k * 7 + i * 5) % 10) / 10 - 0.2),
                 min(1.0, ((k * 7 + i * 5) % 10) / 10 + 0.25)) for i in range(len(LABELS))])
              for k, name in enumerate(SYSTEMS)]
    return svg_grouped_bars(LABELS, series, title="Martino F1 per label", y_label="F1")


def test_stacked_bar_names_are_whole_and_inside_the_chart() -> None:
    bars = [(f"{name} · {side}", {"correct": 3, "missed": 5})
            for name in SYSTEMS for side in ("reference", "prediction")]
    root, width, _ = _svg(svg_stacked_bars(bars, title="Spans by category",
                                           colours={"correct": "#000", "missed": "#111"}))
    names = root.findall(f".//{NS}text[@class='ss-name']")
    assert [_label(t) for t in names] == [b[0] for b in bars]  # none cut
    for t in names:
        right = float(t.attrib["x"])
        assert right - width_of(_label(t), NAME_PX) >= 0  # the left edge cut them before
        first_bar = min(float(r.attrib["x"]) for r in root.findall(f".//{NS}rect[@class='bar']"))
        assert right < first_bar <= width - 440


def test_a_very_long_stacked_bar_name_is_cut_with_its_whole_name_in_the_tooltip() -> None:
    name = "x" * 300
    root, _, _ = _svg(svg_stacked_bars([(name, {"a": 1})], title="t", colours={"a": "#000"}))
    (t,) = root.findall(f".//{NS}text[@class='ss-name']")
    assert _label(t).endswith("…") and float(t.attrib["x"]) - width_of(_label(t), NAME_PX) >= 0
    assert t.findtext(f"{NS}title") == name


def test_per_label_group_names_are_slanted_apart_and_inside_the_chart() -> None:
    root, _, height = _svg(_per_label())
    names = root.findall(f".//{NS}text[@class='ss-group']")
    assert [n.findtext(f"{NS}title") for n in names] == LABELS
    xs = [float(n.attrib["x"]) for n in names]
    for n, x in zip(names, xs, strict=True):
        assert "rotate(-45" in n.attrib["transform"] and n.attrib["text-anchor"] == "end"
        reach = width_of(_label(n), GROUP_PX) * 0.71  # 45°: as far left as down
        assert x - reach >= 0 and float(n.attrib["y"]) + reach <= height
    # slanted lines 45° apart by (Δx · sin 45°) at least a line of text
    assert min(b - a for a, b in itertools.pairwise(xs)) * 0.71 >= GROUP_PX


def test_names_that_fit_their_group_stay_level_and_whole() -> None:
    root, _, _ = _svg(svg_grouped_bars(["short", "tiny"], [("s", [0.5, 0.2], [None, None])],
                                       title="t", y_label="F1"))
    names = root.findall(f".//{NS}text[@class='ss-group']")
    assert [_label(n) for n in names] == ["short", "tiny"]
    assert all("transform" not in n.attrib for n in names)


@pytest.mark.parametrize("n_groups", [1, 3, 24, 200])
def test_every_value_stands_above_its_whisker_inside_the_chart(n_groups: int) -> None:
    groups = LABELS[:n_groups] if n_groups <= 24 else [f"b{i}" for i in range(n_groups)]
    series = [(name, [0.4] * n_groups, [(0.1, 0.9)] * n_groups) for name in SYSTEMS]
    svg = svg_grouped_bars(groups, series, title="t", y_label="F1")
    root, _, _ = _svg(svg)
    tops = [float(m) for m in re.findall(r'class="ss-whisker" d="M[0-9.]+,[0-9.]+ L[0-9.]+,'
                                         r'([0-9.]+)', svg)]
    values = root.findall(f".//{NS}text[@class='ss-value']")
    assert len(tops) == len(values) == n_groups * len(SYSTEMS)
    for top, v in zip(tops, values, strict=True):
        baseline = float(v.attrib["y"])
        if "transform" in v.attrib:  # upright: the text rises from its baseline point
            assert baseline < top and baseline - width_of(v.text or "", VALUE_PX) >= 0
        else:
            assert baseline < top and baseline - VALUE_PX >= 0
    # level values never wider than their bar: they cannot meet their neighbours'
    level = [v for v in values if "transform" not in v.attrib]
    if level:
        bar = float(root.findall(f".//{NS}rect[@class='bar']")[0].attrib["width"])
        assert all(width_of(v.text or "", VALUE_PX) <= bar + 1 for v in level)


def test_the_legend_wraps_inside_the_chart() -> None:
    names = [f"system number {k} with a long descriptive name" for k in range(6)]
    svg = svg_grouped_bars(["a"], [(n, [0.5], [None]) for n in names], title="t",
                           y_label="F1")
    root, width, _ = _svg(svg)
    swatches = root.findall(f".//{NS}rect[@class='swatch']")
    texts = [t for t in root.findall(f".//{NS}text") if t.text in names]
    assert len(swatches) == len(texts) == 6
    assert all(float(t.attrib["x"]) + width_of(t.text or "", 11) <= width for t in texts)
    assert len({t.attrib["y"] for t in texts}) > 1


def test_a_phones_layout_keeps_every_name_and_bar_inside_its_width() -> None:
    """The report draws each chart a second time 360 px wide for a phone
    (``core.analysis.report.PHONE_WIDTH``): long names are cut (whole in their tooltips) so
    that the bars keep room, and nothing is drawn past the width."""
    bars = [(f"{name} · {side}", {"correct": 3, "missed": 5})
            for name in SYSTEMS for side in ("reference", "prediction")]
    root, width, _ = _svg(svg_stacked_bars(bars, title="Spans by category",
                                           colours={"correct": "#000", "missed": "#111"},
                                           width=360))
    assert width == 360
    for t in root.findall(f".//{NS}text[@class='ss-name']"):
        assert float(t.attrib["x"]) - width_of(_label(t), NAME_PX) >= 0
    rects = root.findall(f".//{NS}rect[@class='bar']")
    assert min(float(r.attrib["x"]) for r in rects) <= width - 180
    assert max(float(r.attrib["x"]) + float(r.attrib["width"]) for r in rects) <= width
    series = [(name, [0.5] * 3, [(0.4, 0.6)] * 3) for name in SYSTEMS[:2]]
    root, width, _ = _svg(svg_grouped_bars(LABELS[:3], series, title="t", y_label="F1",
                                           width=360))
    assert width == 360
    rects = root.findall(f".//{NS}rect[@class='bar']")
    assert max(float(r.attrib["x"]) + float(r.attrib["width"]) for r in rects) <= width


@pytest.mark.parametrize("high", [0.4, 1.0, 1.02, 1.07, 1.25, 1.3, 1.55, 2.6, 7.0])
def test_every_tick_label_names_the_value_of_its_gridline(high: float) -> None:
    """bugleft18: the ticks sat at fifths of the top rounded to a tenth and were written with
    one decimal, so a chart reaching 1.3 (Martino's P exceeds 1 under SemEval-2021) labelled
    its gridlines at 0.26, 0.52, ... as 0.3, 0.5, ...: now the step is 0.1, 0.2, 0.25, 0.5
    (times a power of ten) and each label is written with the decimals its value needs."""
    svg = svg_grouped_bars(["a", "b"], [("s", [0.5, high], [None, None])], title="t",
                           y_label="P")
    root, _, _ = _svg(svg)
    bars = root.findall(f".//{NS}rect[@class='bar']")
    base = float(bars[1].attrib["y"]) + float(bars[1].attrib["height"])
    per_unit = float(bars[1].attrib["height"]) / high
    lines = root.findall(f"{NS}line")
    labels = [t for t in root.findall(f"{NS}text") if t.attrib.get("text-anchor") == "end"
              and "class" not in t.attrib]
    assert len(lines) == len(labels) >= 3
    written = [float(t.text or "") for t in labels]
    for line, value in zip(lines, written, strict=True):
        assert (base - float(line.attrib["y1"])) / per_unit == pytest.approx(
            value, abs=0.2 / per_unit)  # positions are written to 0.1 px
    step = written[1] - written[0]
    assert all(b - a == pytest.approx(step) for a, b in itertools.pairwise(written))
    assert written[0] == 0 and written[-1] >= high and len(written) <= 7
    assert len({t.text for t in labels}) == len(labels)  # no two gridlines with one label
