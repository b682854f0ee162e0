"""SpanScope's colours (dashboard, HTML report, exported documents), chosen to stay
distinguishable with a colour-vision deficiency. Each colour is written here once.

Three kinds of colour, kept apart so that one never reads as another:

``CATEGORY``
    Categorical colours (labels, systems, bars): the Okabe & Ito (2008) palette "Color Universal
    Design" first, then colours picked to stay apart under simulated deuteranopia and
    protanopia as well (:data:`CVD_EXTRA`).
``STATUS_COLOURS``
    The merged view's character statuses (matched, partial…). Light tints, so dark text stays
    readable on them (contrast with ``#222222`` ≥ 4.5, WCAG AA), chosen so that every pair stays
    apart (CAM02-UCS ΔE ≥ 12) under simulated deuteranopia and protanopia (Machado et al. 2009, as
    implemented by ``colorspacious``); ``tests/app/test_palette.py`` checks both. Colour is never
    the only cue: every status also has its own underline style (:data:`STATUS_LINES`), so
    *missed* (solid) and *spurious* (dashed) differ in grey scale too.
``ERROR_COLOURS`` / ``ERROR_MARKS``
    The error categories of :mod:`core.analysis.errors` (correct, label, boundary...): an
    Okabe–Ito colour and a short mark each, the same in the report and on the Errors page.
``SEQUENTIAL`` / ``DIVERGING``
    Values (scores, agreement, counts): perceptually uniform maps (cividis, Nuñez et al. 2018),
    never red-to-green.
"""

from __future__ import annotations

OKABE_ITO: tuple[str, ...] = (
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
)
"""Okabe & Ito (2008): orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple,
black."""

CVD_EXTRA: tuple[str, ...] = (
    "#780F00", "#871E5A", "#2DE1A5", "#0F1EB4", "#B40F3C", "#3CE1E1", "#6987FF", "#5A7878",
    "#4B00FF", "#2D5A78", "#96B469", "#0A6441", "#C31E0F",
)
"""Thirteen colours after Okabe–Ito's first seven, each from an sRGB grid (18 steps a channel;
the twelfth from one of 52 steps), chosen far from the others under normal vision, deuteranopia
and protanopia alike (the least CAM02-UCS ΔE over the three, dichromacy simulated as Machado et al.
2009 do, severity 100), kept 10 or more from every status tint and ⊥'s grey and 30 or more from
both themes' backgrounds under normal vision, and 5 or more from every status tint and ⊥'s grey
under simulated deuteranopia, protanopia and tritanopia (a label's colour is drawn beside those
tints in the merged view). The eleventh and twelfth were #78B469 and #A5D269 (bugleft20):
#A5D269 came 2.1 from the *mismatch* tint under deuteranopia (CIEDE2000 1.6), #78B469 4.5 from
*missed*; #96B469 and #0A6441 come no closer than 5.8 and 16.3 (bugleft22). All twenty stay
11.2 apart or more for each of the three visions, at a contrast of 1.6:1 or more with both
backgrounds (a swatch that stays in sight); the 15-colour palette before (Okabe–Ito and Paul
Tol's "muted" scheme) fell to 3.6 under deuteranopia, and the propaganda sample's 18 labels
repeated three of its colours (bugleft20)."""


CATEGORY: tuple[str, ...] = OKABE_ITO[:7] + CVD_EXTRA
"""Categorical palette: 20 colours (Okabe–Ito's black left out: it vanishes on the dark theme's
background); a 21st category reuses the first (labels are always named next to their colour
as well)."""

ERROR_COLOURS: dict[str, str] = {
    "correct": OKABE_ITO[2], "label": OKABE_ITO[0], "boundary": OKABE_ITO[1],
    "boundary+label": OKABE_ITO[6], "missed": OKABE_ITO[5], "spurious": OKABE_ITO[4],
    "optional": "#999999",
}
"""Colour of each error category (:data:`core.analysis.errors.CATEGORIES`, in that order);
``optional`` (a reference span offering ⊥ that nothing overlaps, not an error) is grey."""

ERROR_MARKS: dict[str, str] = {
    "correct": "✓", "label": "L", "boundary": "B", "boundary+label": "BL", "missed": "M",
    "spurious": "S", "optional": "⊥",
}
"""Short mark of each error category, written on the text next to its colour."""

NOTHING_COLOUR = "#8c8c8c"
"""⊥ (nothing): a neutral grey, darker than the *optional* status tint."""

STATUS_COLOURS: dict[str, str] = {
    "matched": "#6cc4a4",   # light bluish green
    "partial": "#fff3b0",   # pale yellow
    "mismatch": "#f4b870",  # light orange
    "missed": "#e0705a",    # light vermillion
    "spurious": "#9ccbf2",  # light blue
    "optional": "#e4e4e4",  # light grey
}

STATUS_LINES: dict[str, str] = {
    "matched": "none",
    "partial": "2px dotted #222222",
    "mismatch": "3px double #222222",
    "missed": "2px solid #222222",
    "spurious": "2px dashed #222222",
    "optional": "none",
}
"""Second cue for each status: the CSS ``border-bottom`` drawn under its characters."""

STATUS_TEXT = "#222222"
"""Text colour on a status tint (fixed, so the dark theme's light text does not land on it)."""

FILL_PATTERNS: tuple[str, ...] = ("", "/", "\\", "x", "-", "|", "+", ".")
"""Plotly bar fill patterns (``marker.pattern.shape``): the second cue of a chart's series next to
its colour, the *i*-th series taking the *i*-th pattern, so that grouped bars stay apart in grey
scale and for every colour vision."""

MARKER_SYMBOLS: tuple[str, ...] = (
    "circle", "square", "diamond", "triangle-up", "x", "cross", "triangle-down", "star",
)
"""Plotly marker symbols: the second cue of a scatter's groups next to their colour."""


def _luminance(hex_colour: str) -> float:
    """WCAG 2.1 relative luminance of an ``#rrggbb`` colour."""
    h = hex_colour.lstrip("#")
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio of two ``#rrggbb`` colours, from 1 (none) to 21.

    >>> round(contrast_ratio("#555555", "#ffffff"), 2), round(contrast_ratio("#555", "#171614"), 2)
    (7.46, 2.43)
    """
    def full(colour: str) -> str:
        h = colour.lstrip("#")
        return "".join(c * 2 for c in h) if len(h) == 3 else h

    la, lb = sorted((_luminance(full(a)), _luminance(full(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


THEME_BACKGROUNDS: dict[str, str] = {"light": "#ffffff", "dark": "#171614"}
"""The page background of Streamlit's light and dark themes (Streamlit 1.67: its front end's
``bgColor``, what Chromium draws; the dark one was ``#0e1117`` before)."""

FILTER_OUTLINE: dict[str, str] = {"light": "#555555", "dark": "#bbbbbb"}
"""The dashed outline of the spans a filter keeps (the Errors page's bucket, the error filters),
per theme: 7.5:1 on white and 9.4:1 on the dark theme's ``#171614``, and 3:1 at least on the
selected span's yellow tint over either (WCAG 2.1 SC 1.4.11 asks 3:1 of graphics). One fixed
``#555555`` was 2.4:1 on the dark theme. The dashes are the second cue; colour alone marks
nothing."""


def ink_on(hex_colour: str) -> str:
    """Text colour readable on a ``hex_colour`` background: :data:`STATUS_TEXT` or white,
    whichever has the higher WCAG 2.1 contrast ratio with it, and black where neither reaches
    4.5 (level AA for small text, SC 1.4.3): vermillion and Tol's rose reach 4.1 and 4.3 with
    either, 5.4 and 5.7 with black. A label colour as text on white reaches 1.2 for yellow.

    >>> ink_on("#F0E442"), ink_on("#0072B2"), ink_on("#000"), ink_on("#CC6677")
    ('#222222', '#ffffff', '#ffffff', '#000000')
    """
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6 or any(c not in "0123456789abcdefABCDEF" for c in h):
        return STATUS_TEXT  # not a colour we can measure: the dark ink of every tint
    bg = _luminance(h)
    dark = (bg + 0.05) / (_luminance(STATUS_TEXT) + 0.05)
    light = 1.05 / (bg + 0.05)
    if max(dark, light) < 4.5:
        return "#000000"  # the most any ink reaches on a mid-luminance colour
    return STATUS_TEXT if dark >= light else "#ffffff"


SEQUENTIAL = "cividis"
"""Plotly / Vega name of the map for values in [0, 1] (scores, agreement, counts)."""
