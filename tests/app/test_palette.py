"""Colour-blind safety of the dashboard's palettes (core.render.palette) and their use in the views.

Colour-vision deficiencies are simulated with ``colorspacious`` (Machado et al. 2009, severity
100: dichromacy); distances are CAM02-UCS ΔE, where about 1 is just noticeable and colours of
one legend should be well apart (we ask 12 for statuses, 10 between a label and a status).
"""

from __future__ import annotations

import html
import itertools
from typing import Any

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE

from core.model import NOTHING
from core.render import highlight, palette

VISIONS = (None, "deuteranomaly", "protanomaly")
"""Normal vision, then deuteranopia and protanopia (severity 100)."""


def _rgb(hex_colour: str) -> np.ndarray:
    h = hex_colour.lstrip("#")
    return np.array([int(h[i : i + 2], 16) for i in (0, 2, 4)]) / 255


def _seen(hex_colour: str, vision: str | None) -> np.ndarray:
    rgb = _rgb(hex_colour)
    if vision is None:
        return rgb
    cvd = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
    return np.clip(cspace_convert(rgb, cvd, "sRGB1"), 0, 1)


def _delta(a: str, b: str, vision: str | None) -> float:
    return float(deltaE(_seen(a, vision), _seen(b, vision), input_space="sRGB1"))


def _contrast_with_dark_text(hex_colour: str) -> float:
    def lum(c: np.ndarray) -> float:
        c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])

    return (lum(_rgb(hex_colour)) + 0.05) / (lum(_rgb(palette.STATUS_TEXT)) + 0.05)


@pytest.mark.parametrize("vision", VISIONS, ids=["normal", "deuteranopia", "protanopia"])
def test_every_pair_of_status_colours_stays_apart_under_simulated_colour_blindness(
    vision: str | None,
) -> None:
    pairs = itertools.combinations(palette.STATUS_COLOURS.items(), 2)
    too_close = [(a, b, round(d, 1)) for (a, ca), (b, cb) in pairs
                 if (d := _delta(ca, cb, vision)) < 12]
    assert too_close == []


def test_the_old_matched_missed_optional_tints_fail_the_check_the_new_ones_pass() -> None:
    # The tints the issue reported (green / pink / grey) collapse under deuteranopia.
    old = {"matched": "#b7e4b0", "missed": "#f4a6a6", "optional": "#e2e2e2"}
    assert min(_delta(a, b, "deuteranomaly") for a, b in itertools.combinations(
        old.values(), 2)) < 12
    new = [palette.STATUS_COLOURS[k] for k in old]
    assert min(_delta(a, b, "deuteranomaly") for a, b in itertools.combinations(new, 2)) >= 12


def test_dark_text_stays_readable_on_every_status_tint() -> None:
    assert all(_contrast_with_dark_text(c) >= 4.5 for c in palette.STATUS_COLOURS.values())


CVD = ("deuteranomaly", "protanomaly", "tritanomaly")
"""The three dichromacies (severity 100): deuteranopia, protanopia, tritanopia."""
BESIDE = {**palette.STATUS_COLOURS, "nothing": palette.NOTHING_COLOUR}
"""The tints a label's colour is drawn beside: the merged view's status tints under the text,
and ⊥'s grey among the labels."""


def _too_close_to_a_tint(colours: tuple[str, ...], least: float) -> list[tuple[Any, ...]]:
    return [(c, name, vision, round(d, 1)) for c in colours for name, tint in BESIDE.items()
            for vision in CVD if (d := _delta(c, tint, vision)) < least]


def test_every_label_colour_stays_apart_from_the_tints_beside_it_for_every_dichromacy() -> None:
    """bugleft22: #A5D269, the 19th label colour, was 2.1 from the *mismatch* tint under
    deuteranopia (CIEDE2000 1.6) and #78B469 4.5 from *missed*: a label's tag beside a
    status's tint read as one colour. Every label colour now stays 5 or more from each tint
    under each of the three simulated dichromacies."""
    assert _too_close_to_a_tint(palette.CATEGORY, 5) == []
    old = _too_close_to_a_tint(("#A5D269", "#78B469"), 5)
    assert ("#A5D269", "mismatch", "deuteranomaly", 2.1) in old
    assert ("#78B469", "missed", "deuteranomaly", 4.5) in old


def test_label_colours_do_not_reuse_a_status_colour() -> None:
    close = [(lab, st, round(d, 1)) for lab in palette.CATEGORY
             for st, sc in palette.STATUS_COLOURS.items() if (d := _delta(lab, sc, None)) < 10]
    assert close == []


def test_categories_start_with_okabe_ito_and_labels_take_them_in_order() -> None:
    assert palette.CATEGORY[:7] == palette.OKABE_ITO[:7]
    assert "#000000" not in palette.CATEGORY  # invisible on the dark theme
    assert len(set(palette.CATEGORY)) == len(palette.CATEGORY)
    colours = highlight.label_colours(["b", "a", NOTHING])
    assert colours == {"a": palette.OKABE_ITO[0], "b": palette.OKABE_ITO[1],
                       NOTHING: palette.NOTHING_COLOUR}


def _sample_labels() -> list[str]:
    from pathlib import Path

    from core.formats import load_path

    folder = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"
    labels: set[str] = set()
    for path in sorted(folder.glob("*.json")):
        labels |= set(load_path(path).set.labels())
    return sorted(labels)


@pytest.mark.parametrize("vision", VISIONS, ids=["normal", "deuteranopia", "protanopia"])
def test_the_propaganda_samples_labels_stay_apart_under_simulated_colour_blindness(
    vision: str | None,
) -> None:
    """The sample's 18 labels each take a colour of their own, every pair 11 apart or more
    for each vision (bugleft20: the 15-colour palette gave Bandwagon and Whataboutism one
    green, Glittering generalities a green 9.9 from it, and under deuteranopia Exaggeration
    and Glittering generalities 3.6 apart)."""
    labels = _sample_labels()
    assert len(labels) >= 14, labels
    colours = highlight.label_colours(labels)
    assert len(set(colours.values())) == len(labels), colours
    too_close = [(a, b, round(d, 1)) for a, b in itertools.combinations(labels, 2)
                 if (d := _delta(colours[a], colours[b], vision)) < 11]
    assert too_close == []


@pytest.mark.parametrize("vision", VISIONS, ids=["normal", "deuteranopia", "protanopia"])
def test_every_pair_of_category_colours_stays_apart(vision: str | None) -> None:
    too_close = [(a, b, round(d, 1)) for a, b in itertools.combinations(palette.CATEGORY, 2)
                 if (d := _delta(a, b, vision)) < 11]
    assert too_close == []


def test_the_added_category_colours_stay_in_sight_on_either_theme() -> None:
    low = [(c, theme) for c in palette.CVD_EXTRA
           for theme, bg in palette.THEME_BACKGROUNDS.items()
           if palette.contrast_ratio(c, bg) < 1.6]
    assert low == []


def test_every_label_is_named_beside_its_colour_in_the_legend() -> None:
    """The second cue: colour is never the only way to tell two labels apart."""
    labels = _sample_labels()
    legend = highlight.legend(highlight.label_colours(labels))
    assert all(html.escape(lab) in legend for lab in labels)


def test_missed_and_spurious_differ_by_line_style_too() -> None:
    lines = palette.STATUS_LINES
    assert "solid" in lines["missed"] and "dashed" in lines["spurious"]
    drawn = [v for v in lines.values() if v != "none"]
    assert len(set(drawn)) == len(drawn)
    gold = [highlight.SpanItem("G1", 0, 4, ("A",))]
    pred = [highlight.SpanItem("P1", 6, 9, ("A",))]
    markup = highlight.render_merged("abcdefghij", gold, pred)
    assert "border-bottom:2px solid" in markup and "border-bottom:2px dashed" in markup
    legend = highlight.status_legend()
    assert all(v in legend for v in drawn)


def test_value_maps_are_perceptually_uniform_not_red_to_green() -> None:
    import plotly.graph_objects as go

    from ui import annotators, charts

    assert palette.SEQUENTIAL == "cividis"
    import pandas as pd

    fig = charts.spans_per_label(pd.DataFrame({"label": ["A"], "gold": [3]}))
    scale = fig.data[0].colorscale
    assert scale == go.Heatmap(colorscale="cividis").colorscale
    from pathlib import Path

    source = Path(annotators.__file__).read_text(encoding="utf-8")
    assert "RdYlGn" not in source and "RdBu" not in source


def _contrast(a: str, b: str) -> float:
    def lum(c: np.ndarray) -> float:
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])

    hi, lo = sorted((lum(_rgb(a)), lum(_rgb(b))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_span_tag_is_readable_whatever_its_label_colour() -> None:
    # Yellow (#F0E442) written as text on white has a contrast of 1.2: a tag nobody can read.
    assert _contrast(palette.OKABE_ITO[3], "#ffffff") < 1.5
    inks = {c: palette.ink_on(c) for c in (*palette.CATEGORY, palette.NOTHING_COLOUR)}
    # WCAG 2.1 SC 1.4.3 (level AA) asks 4.5:1 of a tag's small text on every label colour;
    # vermillion and Tol's rose reached 4.1 and 4.3 with the dark grey ink (axe-core's
    # color-contrast rule on an exported document), black reaches 5.4 and 5.7 on them.
    assert all(_contrast(c, ink) >= 4.5 for c, ink in inks.items()), inks
    items = [highlight.SpanItem("G1", 0, 3, ("yellow label",))]
    markup = highlight.render_lanes("abcdef", items, {"yellow label": palette.OKABE_ITO[3]},
                                    notes={"G1": ("BL", palette.OKABE_ITO[0], "boundary+label")})
    tag = markup[markup.index('class="ss-tag"'):]
    assert f"background:{palette.OKABE_ITO[3]};color:{palette.STATUS_TEXT}" in tag
    note = markup[markup.index('class="ss-cat"'):]
    # The mark's ink on a background of its own, not the page's (the dark theme's is ~1.2:1).
    assert (f"color:{palette.STATUS_TEXT};background:{highlight.MARK_BACKGROUND};"
            f"border:2px solid {palette.OKABE_ITO[0]}") in note


def test_grouped_bars_and_scatter_groups_have_a_second_cue_besides_colour() -> None:
    import pandas as pd

    from ui import annotators, charts, differences

    scores = pd.DataFrame({"label": ["A", "B"], "P": [0.5, 1.0], "R": [0.2, 0.4],
                           "F1": [0.3, 0.6]})
    systems = pd.DataFrame({"system": ["a", "b"], "P": [0.5, 1.0], "F1": [0.3, 0.6]})
    against = pd.DataFrame({"annotator": ["x", "y", "x", "y"], "F1": [0.5, 0.6, 0.7, 0.8],
                            "against": ["gold", "gold", "majority", "majority"]})
    for fig in (charts.per_label_prf(scores, title="t"),
                charts.systems_f1(systems, columns={"P": "P", "F1": "F1"}, title="t"),
                annotators.against_bars(against, "F1", title="t")):
        shapes = [bar.marker.pattern.shape or "" for bar in fig.data]
        assert len(shapes) >= 2 and len(set(shapes)) == len(shapes)
    texts = pd.DataFrame({"document": ["1", "2", "3"], "Martino F1": [0.5, 0.7, 1.0],
                          "MAFALDA F1": [0.8, 0.7, 1.0],
                          "reasons": ["alternative-labels", "", "nothing-label"]})
    fig = differences.scatter(texts, level=2, variant="paper")
    symbols = [t.marker.symbol for t in fig.data if t.mode == "markers"]
    assert len(symbols) == 3 and len(set(symbols)) == 3


SELECTED_TINT = (255, 220, 0, 0.35)
"""The tint under the selected span and its partners (core.render.highlight.render_lanes)."""


def _over(tint: tuple[int, int, int, float], background: str) -> str:
    """``tint`` (r, g, b, alpha) composited over an ``#rrggbb`` background."""
    *rgb, alpha = tint
    bg = _rgb(background) * 255
    mixed = [round(alpha * c + (1 - alpha) * b) for c, b in zip(rgb, bg, strict=True)]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def test_the_filter_outline_keeps_3_to_1_on_either_theme() -> None:
    """WCAG 2.1 SC 1.4.11 asks 3:1 of a graphic against what is next to it: the dashed outline
    of the spans a filter keeps stands on the page's background, or on the selected span's
    tint over it. The old fixed #555555 is 2.4:1 on Streamlit 1.67's dark #171614 (2.5:1 on the
    #0e1117 of its older dark theme)."""
    assert palette.THEME_BACKGROUNDS == {"light": "#ffffff", "dark": "#171614"}
    assert palette.contrast_ratio("#555555", palette.THEME_BACKGROUNDS["dark"]) < 3
    for theme, background in palette.THEME_BACKGROUNDS.items():
        outline = palette.FILTER_OUTLINE[theme]
        assert palette.contrast_ratio(outline, background) >= 4.5, theme
        assert palette.contrast_ratio(outline, _over(SELECTED_TINT, background)) >= 3, theme
    assert palette.contrast_ratio("#ffffff", "#000000") == pytest.approx(21)
    assert palette.contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_filter_outline_is_dashed_in_the_theme_colour(theme: str) -> None:
    items = [highlight.SpanItem("G1", 0, 5, ("A",)), highlight.SpanItem("G2", 6, 9, ("B",))]
    html = highlight.render_lanes("Hello you", items, {"A": "#E69F00", "B": "#56B4E9"},
                                  matched={"G1"}, theme=theme)
    assert html.count(f"outline:1px dashed {palette.FILTER_OUTLINE[theme]}") == 1
    assert "rgba(255,220,0,0.35)" in highlight.render_lanes(
        "Hello you", items, {"A": "#E69F00"}, selected="G1", theme=theme)
    assert SELECTED_TINT == (255, 220, 0, 0.35)  # the tint the contrast test composites


def test_theme_type_follows_the_browser_or_a_configured_background(monkeypatch) -> None:
    from types import SimpleNamespace

    from ui import theme

    for background, reported, expected in ((None, "dark", "dark"), (None, "light", "light"),
                                           ("#171614", "light", "dark"),
                                           ("#0e1117", "light", "dark"),
                                           ("#fdf6e3", "dark", "light"),
                                           ("darkblue", "dark", "dark")):
        monkeypatch.setattr(theme, "st", SimpleNamespace(
            get_option=lambda name, bg=background: bg,
            context=SimpleNamespace(theme=SimpleNamespace(type=reported))))
        assert theme.theme_type() == expected, (background, reported)
