"""HTML of spans over a document: label colours, lanes, legend, the merged view, a whole page.

Overlapping and nested spans are drawn as *lanes*: the text is cut at every span boundary
(:func:`core.render.segments.segments`) and each piece carries one coloured stripe per covering
span, at
the height of that span's lane (:func:`core.render.segments.assign_lanes`), so no span hides
another. A
gold span with alternative labels (MAFALDA) is one span whose stripe is split into its labels'
colours and whose tag lists them, ⊥ included: alternatives, not conflicts.

Every piece of text and every label is passed through :func:`core.render.html.esc` before it
reaches the markup, so a document containing ``<script>`` shows those characters and runs
nothing (the pages also render through ``st.html``, which sanitises again).

Public API (stable; the part-2 pages import it)
-----------------------------------------------
:func:`label_colours`
    Label -> colour, stable for a given label list.
:func:`span_items`
    One document's spans of one set as :class:`SpanItem` (id such as ``G3``, interval, labels).
:func:`render_lanes`
    The document text with the items drawn in lanes; returns an HTML string.
:func:`render_merged`
    The document text with each character coloured by its merged status (matched, partial...).
:func:`legend`, :func:`status_legend`
    HTML legends for label colours and merged statuses.
:func:`document_html`
    One document as a standalone HTML page (lanes, merged view, span tables; no script).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from core.model import NOTHING, AltSpan, AnnotationSet
from core.render.html import esc, xml_text
from core.render.palette import (
    CATEGORY,
    FILTER_OUTLINE,
    NOTHING_COLOUR,
    STATUS_COLOURS,
    STATUS_LINES,
    STATUS_TEXT,
    ink_on,
)
from core.render.segments import STATUS_HELP, STATUSES, Status, assign_lanes, char_status, segments

PALETTE = CATEGORY
"""Label colours: Okabe–Ito, then colours kept apart under simulated colour blindness (see
:mod:`core.render.palette`); labels beyond 20 reuse them (every label is also named in its
tag and tooltip)."""

STATUS_NAMES: dict[str, str] = {
    "matched": "matched",
    "partial": "partially matched",
    "mismatch": "label mismatch",
    "missed": "missed (gold only)",
    "spurious": "spurious (prediction only)",
    "optional": "optional gold (⊥)",
}

LANE_PX = 6  # vertical step between lanes
STRIPE_PX = 4  # stripe thickness
MARK_BACKGROUND = "#ffffff"
"""Behind an error category's mark (✓, L, B…): its ``STATUS_TEXT`` ink on white reads on the
light and the dark theme alike (on the dark theme's page it was about 1.2:1)."""


KEEP_COLOURS = "forced-color-adjust:none;"
"""On every container of marks (lanes, merged view, legends): under forced colours (Windows'
contrast themes) the browser replaced every background with the theme's, so the stripes, the
tags' label colours and the swatches were gone and a matched span kept no cue at all. The marks
keep the colours they are drawn in (each tag's ink has 4.5:1 on its colour, the merged view's
text is dark on its tints); the text outside them keeps the theme's colours."""


def label_colours(labels: Iterable[str]) -> dict[str, str]:
    """Colour of each label: sorted labels take the palette in order; ⊥ is grey.

    >>> label_colours(["b", "a", "nothing"])
    {'a': '#E69F00', 'b': '#56B4E9', 'nothing': '#8c8c8c'}
    """
    out: dict[str, str] = {}
    i = 0
    for label in sorted(set(labels)):
        if label == NOTHING:
            out[label] = NOTHING_COLOUR
        else:
            out[label] = PALETTE[i % len(PALETTE)]
            i += 1
    return out


@dataclass(frozen=True, slots=True)
class SpanItem:
    """One drawable span: ``id`` (``G1``, ``P2``…), interval and labels (several = alternatives)."""

    id: str
    start: int
    end: int
    labels: tuple[str, ...]

    @property
    def interval(self) -> tuple[int, int]:
        return (self.start, self.end)

    @property
    def label_text(self) -> str:
        """Labels as shown: alternatives joined by `` | ``, ⊥ for ``nothing``."""
        return " | ".join("⊥" if lab == NOTHING else lab for lab in self.labels)

    def as_alt(self) -> AltSpan:
        return AltSpan(self.start, self.end, self.labels)


def span_items(aset: AnnotationSet | None, doc_id: str, prefix: str) -> list[SpanItem]:
    """The document's spans in ``aset`` as items numbered ``prefix1``… in text order.

    A set with ``alternatives`` groups spans on one interval into one item (MAFALDA gold).
    """
    if aset is None:
        return []
    alts = sorted(aset.alt_spans(doc_id), key=lambda a: (a.start, -a.end, a.labels))
    return [SpanItem(f"{prefix}{i}", a.start, a.end, a.labels) for i, a in enumerate(alts, 1)]


def relabel(items: Sequence[SpanItem], mapping: Mapping[str, str], *,
            drop_nothing: bool = False) -> list[SpanItem]:
    """``items`` with labels renamed through ``mapping`` (e.g. to their class at a MAFALDA
    level; unmapped labels stay), duplicates within an item removed; with ``drop_nothing``,
    items whose only label is ⊥ are left out.

    >>> relabel([SpanItem("P1", 0, 4, ("anger",)), SpanItem("P2", 5, 9, ("nothing",))],
    ...         {"anger": "emotion"}, drop_nothing=True)
    [SpanItem(id='P1', start=0, end=4, labels=('emotion',))]
    """
    out = []
    for it in items:
        labels = tuple(dict.fromkeys(mapping.get(lab, lab) for lab in it.labels))
        if drop_nothing and labels == (NOTHING,):
            continue
        out.append(SpanItem(it.id, it.start, it.end, labels))
    return out


def _stripes(
    covering: Sequence[int], items: Sequence[SpanItem], lanes: Sequence[int],
    colours: Mapping[str, str], marked: Collection[str], compact: bool = False,
) -> tuple[list[str], bool]:
    layers: list[str] = []
    is_selected = False
    for idx in covering:
        item = items[idx]
        is_selected = is_selected or item.id in marked
        bottom = lanes[idx] * LANE_PX
        thick = STRIPE_PX + (2 if item.id in marked else 0)
        n = len(item.labels)
        for k, label in enumerate(item.labels):
            colour = colours.get(label, "#444444")
            # Alternatives split the stripe horizontally: each label gets a share of its width.
            width = 100 / n
            if compact:  # the same layer, shorter: one colour stop at both ends
                layers.append(
                    f"linear-gradient({colour} 0 0) "
                    f"{k * width / (1 - 1 / n) if n > 1 else 0:.0f}% calc(100% - {bottom}px)/"
                    f"{width:.1f}% {thick}px no-repeat")
                continue
            layers.append(
                f"linear-gradient({colour},{colour}) {k * width / (1 - 1 / n) if n > 1 else 0:.0f}%"
                f" calc(100% - {bottom}px) / {width:.1f}% {thick}px no-repeat"
            )
    return layers, is_selected


def _tag(it: SpanItem, colour: str, shown: str, *, on: bool, kept: bool,
         note: tuple[str, str, str] | None, split: tuple[str, str] | None,
         compact: bool) -> list[str]:
    """A span's tag (its id, and its labels when ``shown`` holds them), then its category mark
    (``note``) and its split mark (``split``), as :func:`render_lanes` draws them."""
    out = []
    if compact:
        cls = "ss-tag" + (" ss-on" if on else "") + (" ss-kept" if kept else "")
        out.append(
            f'<span class="{cls}" dir="ltr" data-span="{esc(it.id)}" '
            f'title="{esc(it.label_text)}" style="background:{colour};'
            f'color:{ink_on(colour)}">{shown}</span>')
        if note is not None:
            mark, note_colour, category = note
            out.append(
                f'<span class="ss-cat" dir="ltr" data-span="{esc(it.id)}" '
                f'data-category="{esc(category)}" title="{esc(it.id)}: {esc(category)}" '
                f'style="border-color:{esc(note_colour)}">{esc(mark)}</span>')
    else:
        weight = "800" if on else "600"
        underline = "text-decoration:underline dashed;" if kept else ""
        out.append(
            f'<span class="ss-tag" dir="ltr" data-span="{esc(it.id)}" '
            f'title="{esc(it.label_text)}" '
            f'style="font-size:0.68em;font-weight:{weight};background:{colour};'
            f"color:{ink_on(colour)};border-radius:3px;padding:0 2px;{underline}"
            f'vertical-align:super;margin:0 1px;unicode-bidi:isolate">{shown}</span>'
        )
        if note is not None:
            mark, note_colour, category = note
            out.append(
                f'<span class="ss-cat" dir="ltr" data-span="{esc(it.id)}" '
                f'data-category="{esc(category)}" '
                f'title="{esc(it.id)}: {esc(category)}" style="font-size:0.6em;font-weight:700;'
                f"color:{STATUS_TEXT};background:{MARK_BACKGROUND};"
                f"border:2px solid {esc(note_colour)};"
                f"border-radius:3px;padding:0 2px;vertical-align:super;margin-right:2px;"
                f'unicode-bidi:isolate">'
                f"{esc(mark)}</span>"
            )
    if split is not None:
        out.append(_split_mark(it.id, *split, compact=compact))
    return out


def render_lanes(
    text: str | None,
    items: Sequence[SpanItem],
    colours: Mapping[str, str],
    *,
    selected: str | None = None,
    dom_id: str = "spans",
    partners: Collection[str] = (),
    notes: Mapping[str, tuple[str, str, str]] | None = None,
    matched: Collection[str] = (),
    theme: str = "light",
    compact: bool = False,
    labelled: bool = False,
    splits: Mapping[str, tuple[str, str]] | None = None,
) -> str:
    """The text with every span drawn as a stripe in its lane; a tag marks where each starts.

    ``selected`` (a span id) and its ``partners`` (ids of the spans it forms pairs with) are
    drawn thicker with a tinted background. ``matched`` (ids of the spans a filter keeps, such
    as an error category) get another cue: a dashed outline, in the colour of the page's
    ``theme`` (``"light"`` or ``"dark"``, :data:`~core.render.palette.FILTER_OUTLINE`), and an
    underlined tag. ``notes``
    (span id -> (mark, colour, title)) adds a small boxed mark after a span's tag, such as its
    error category (``ui.errors``). Without a text (formats that carry offsets only) the spans
    are listed instead.

    ``compact``: the same marks with classes instead of inline styles, for a page that draws
    :func:`compact_css` once (the Documents page: less HTML to send, sanitise and parse per
    document switch; docs/performance.md, issue 29, tenth pass). Each span keeps its colour,
    lane, tag, tooltip and cues; ``theme`` is then :func:`compact_css`'s.

    ``labelled``: each tag also shows its span's labels after its id (``G4 ad hominem | ⊥``,
    past :data:`TAG_LABEL_CHARS` characters cut with … and whole in the tooltip), so that a
    span's label is read without hovering and without telling colours apart (the Documents page,
    under either metric).

    ``splits`` (span id -> (mark, title)): a boxed mark after the span's tag and category, with
    a dotted border, such as ``÷2`` on a gold span several predictions cover and ``÷`` on each
    of them (:func:`split_pieces`).
    """
    splits = splits or {}
    notes = notes or {}
    if text is None:
        rows = "".join(
            f"<li><b>{esc(it.id)}</b> [{it.start}, {it.end}) {esc(it.label_text)}"
            f"{' · ' + esc(notes[it.id][2]) if it.id in notes else ''}</li>"
            for it in items
        )
        return (f'<div id="{esc(dom_id)}" class="ss-doc"><i>No text is available for this '
                f"document; its spans:</i><ul>{rows}</ul></div>")
    marked = {x for x in (selected, *partners) if x is not None}
    outline_colour = FILTER_OUTLINE.get(theme, FILTER_OUTLINE["light"])
    intervals = [it.interval for it in items]
    lanes = assign_lanes(intervals)
    n_lanes = max(lanes, default=-1) + 1
    starts: dict[int, list[int]] = {}
    for i, it in enumerate(items):
        starts.setdefault(min(it.start, len(text)), []).append(i)
    pad = n_lanes * LANE_PX + 2
    parts: list[str] = []
    for seg in segments(intervals, len(text)):
        # Tags go inside the segment so that the stripes of enclosing spans run on beneath them.
        tags = []
        for i in starts.get(seg.start, ()):
            it = items[i]
            tags += _tag(it, colours.get(it.labels[0], "#444444"),
                         esc(it.id) + (tag_label(it.label_text) if labelled else ""),
                         on=it.id in marked, kept=it.id in matched, note=notes.get(it.id),
                         split=splits.get(it.id), compact=compact)
        fragment = "".join(tags) + esc(text[seg.start : seg.end])
        if not seg.covering:
            parts.append(fragment)
            continue
        layers, is_selected = _stripes(seg.covering, items, lanes, colours, marked, compact)
        title = "; ".join(f"{items[i].id} {items[i].label_text}" for i in seg.covering)
        if compact:
            kept = matched and any(items[i].id in matched for i in seg.covering)
            parts.append(
                f'<span class="ss-seg{" ss-kept" if kept else ""}" title="{esc(title)}" '
                f'style="background:{",".join(layers)}'
                f'{",rgba(255,220,0,0.35)" if is_selected else ""}">{fragment}</span>')
            continue
        outline = (f"outline:1px dashed {outline_colour};outline-offset:-1px;"
                   if matched and any(items[i].id in matched for i in seg.covering) else "")
        parts.append(
            f'<span class="ss-seg" title="{esc(title)}" style="{outline}padding-bottom:{pad}px;'
            f'background:{", ".join(layers)}'
            f'{", rgba(255,220,0,0.35)" if is_selected else ""}">{fragment}</span>'
        )
    line_height = 1.55 * 16 + pad
    if compact:
        return (f'<div id="{esc(dom_id)}" class="ss-doc ss-c ss-lanes" dir="auto" '
                f'style="--ss-pad:{pad}px;line-height:{line_height:.0f}px">{"".join(parts)}</div>')
    return (
        f'<div id="{esc(dom_id)}" class="ss-doc" dir="auto" '
        f'style="{KEEP_COLOURS}white-space:pre-wrap;'
        f"line-height:{line_height:.0f}px;font-size:16px;padding:6px 8px;border:1px solid #ddd;"
        f'border-radius:6px;max-height:520px;overflow-y:auto">{"".join(parts)}</div>'
    )


def split_pieces(gold: Sequence[SpanItem], pred: Sequence[SpanItem]) -> dict[str, tuple[str, ...]]:
    """Each gold span covered by several predictions of one of its labels (a prediction split in
    pieces, or several predictions over one span): gold id -> the ids of those predictions, in
    text order. ⊥ is no label here. Labels are compared as given: pass the items at the level
    the metric compares (:func:`relabel`). The Da San Martino metric sums the pieces'
    contributions to the span's recall, MAFALDA takes the best one (the ``split-prediction``
    reason of :func:`core.metrics.differences.difference_reasons`).

    >>> g = [SpanItem("G1", 0, 40, ("a",)), SpanItem("G2", 50, 60, ("b", NOTHING))]
    >>> p = [SpanItem("P1", 0, 10, ("a",)), SpanItem("P2", 20, 45, ("a",)),
    ...      SpanItem("P3", 50, 55, ("b",)), SpanItem("P4", 55, 60, ("c",))]
    >>> split_pieces(g, p)
    {'G1': ('P1', 'P2')}
    """
    out: dict[str, tuple[str, ...]] = {}
    for g in gold:
        labels = {lab for lab in g.labels if lab != NOTHING}
        pieces = tuple(p.id for p in sorted(pred, key=lambda x: (x.start, x.end))
                       if p.start < g.end and g.start < p.end and labels & set(p.labels))
        if len(pieces) > 1:
            out[g.id] = pieces
    return out


TAG_LABEL_CHARS = 32
"""The most characters of a span's labels a labelled tag shows (:func:`render_lanes`); a longer
name ("Misrepresentation of Someone's Position (Straw Man)") is cut with … and stays whole in
the tag's tooltip."""


def tag_label(label_text: str) -> str:
    """The labels a labelled tag shows after its id, as escaped HTML in a span of their own
    (lighter than the id).

    >>> tag_label("ad hominem | ⊥")
    '<span class="ss-lab"> ad hominem | ⊥</span>'
    >>> tag_label("<b>" + "x" * 40)
    '<span class="ss-lab"> &lt;b&gt;xxxxxxxxxxxxxxxxxxxxxxxxxxxx…</span>'
    """
    cut = (label_text if len(label_text) <= TAG_LABEL_CHARS
           else label_text[: TAG_LABEL_CHARS - 1].rstrip() + "…")
    return f'<span class="ss-lab"> {esc(cut)}</span>'


SPLIT_STYLE = (f"font-size:.6em;font-weight:700;color:{STATUS_TEXT};background:{MARK_BACKGROUND};"
               "border:2px dotted #555555;border-radius:3px;padding:0 2px;vertical-align:super;"
               "margin-right:2px;unicode-bidi:isolate;white-space:nowrap")
"""How :func:`render_lanes` draws a split mark: boxed, dotted (the category marks are solid),
dark text on a light ground whatever the theme."""


def _split_mark(span_id: str, mark: str, title: str, *, compact: bool) -> str:
    style = "" if compact else f' style="{SPLIT_STYLE}"'
    return (f'<span class="ss-split" dir="ltr" data-span="{esc(span_id)}" '
            f'title="{esc(title)}"{style}>{esc(mark)}</span>')


def status_style(status: str, *, also_missed: bool = False) -> str:
    """Inline CSS of a merged-view status: its tint, fixed dark text and its underline style
    (the second cue next to colour, :data:`core.render.palette.STATUS_LINES`). ``also_missed``
    draws the *missed* underline instead, for characters that also lie in a missed gold span."""
    line = STATUS_LINES["missed"] if also_missed else STATUS_LINES[status]
    border = "" if line == "none" else f"border-bottom:{line};"
    return (f"background:{STATUS_COLOURS[status]};color:{STATUS_TEXT};{border}"
            "border-radius:2px")


def missed_intervals(gold: Sequence[SpanItem], pred: Sequence[SpanItem]) -> list[tuple[int, int]]:
    """Gold spans that no prediction sharing one of their labels overlaps (⊥ alternatives
    excepted): missed even where another, matched gold span covers the same characters."""
    out = []
    for g in gold:
        if NOTHING in g.labels:
            continue
        if not any(p.start < g.end and g.start < p.end and set(p.labels) & set(g.labels)
                   for p in pred):
            out.append(g.interval)
    return out


def render_merged(
    text: str | None, gold: Sequence[SpanItem], pred: Sequence[SpanItem], *,
    dom_id: str = "merged", compact: bool = False,
) -> str:
    """The text with each character's background showing its merged status (see
    :func:`core.render.segments.char_status`) and its underline style as a second cue.

    One character has one status, so a missed gold span overlapping a matched one would vanish
    under the *matched* tint: its characters keep the tint but get the *missed* underline and
    say so in their tooltip. ``compact``: the tint and underline come from the classes of
    :func:`compact_css` (see :func:`render_lanes`)."""
    if text is None:
        return f'<div id="{esc(dom_id)}"><i>No text is available for this document.</i></div>'
    runs = char_status([g.as_alt() for g in gold], [p.as_alt() for p in pred], len(text))
    missed = missed_intervals(gold, pred)
    parts = []
    for run in runs:
        if run.status == "none":
            parts.append(esc(text[run.start : run.end]))
            continue
        pieces = _cut(run.start, run.end, missed)
        for start, end, in_missed in pieces:
            hidden = in_missed and run.status != "missed"
            title = STATUS_NAMES[run.status] + ("; also inside a missed gold span" if hidden
                                                 else "")
            cls = f"ss-{run.status}" + (" ss-hidden-missed" if hidden else "")
            if compact:
                parts.append(f'<span class="{cls}" title="{esc(title)}">'
                             f"{esc(text[start:end])}</span>")
                continue
            parts.append(
                f'<span class="{cls}" title="{esc(title)}" '
                f'style="{status_style(run.status, also_missed=hidden)}">'
                f"{esc(text[start:end])}</span>"
            )
    if compact:
        return (f'<div id="{esc(dom_id)}" class="ss-doc ss-c ss-mv" dir="auto">'
                f'{"".join(parts)}</div>')
    return (
        f'<div id="{esc(dom_id)}" class="ss-doc" dir="auto" '
        f'style="{KEEP_COLOURS}white-space:pre-wrap;line-height:1.7;'
        f"font-size:16px;padding:6px 8px;border:1px solid #ddd;border-radius:6px;"
        f'max-height:420px;overflow-y:auto">{"".join(parts)}</div>'
    )


def _cut(start: int, end: int, intervals: Sequence[tuple[int, int]]) -> list[tuple[int, int, bool]]:
    """``[start, end)`` cut where ``intervals`` begin or end: (start, end, inside any)."""
    cuts = {start, end}
    for a, b in intervals:
        for x in (a, b):
            if start < x < end:
                cuts.add(x)
    points = sorted(cuts)
    return [(a, b, any(x < b and a < y for x, y in intervals))
            for a, b in itertools.pairwise(points)]


def status_counts(text: str | None, gold: Sequence[SpanItem], pred: Sequence[SpanItem]) -> dict[
    str, int
]:
    """Characters per merged status (for the caption under the merged view)."""
    if text is None:
        return {}
    counts: dict[str, int] = dict.fromkeys(STATUSES, 0)
    for run in char_status([g.as_alt() for g in gold], [p.as_alt() for p in pred], len(text)):
        if run.status != "none":
            counts[run.status] += run.end - run.start
    return counts


def _chip(colour: str, name: str, title: str = "", *, line: str = "none") -> str:
    border = "" if line == "none" else f"border-bottom:{line};"
    return (
        f'<span title="{esc(title)}" style="display:inline-block;margin:2px 10px 2px 0;'
        f'white-space:nowrap"><span style="display:inline-block;width:18px;height:12px;'
        f'background:{colour};{border}border-radius:2px;margin-right:4px;'
        f'vertical-align:middle"></span>{esc(name)}</span>'
    )


def _chip_compact(colour: str, name: str, title: str = "", *, line: str = "none") -> str:
    """One element per chip: its swatch is the ``::before`` of :func:`compact_css`."""
    border = "" if line == "none" else f";--l:{line}"
    return (f'<span class="ss-chip" title="{esc(title)}" style="--c:{colour}{border}">'
            f"{esc(name)}</span>")


def legend(colours: Mapping[str, str], used: Iterable[str] | None = None, *,
           compact: bool = False) -> str:
    """Legend of label colours (only ``used`` labels when given); ``compact``: one element per
    label, styled by :func:`compact_css`."""
    shown = [lab for lab in colours if used is None or lab in set(used)]
    chip = _chip_compact if compact else _chip
    chips = "".join(
        chip(colours[lab], "⊥ (nothing)" if lab == NOTHING else lab) for lab in shown
    )
    if compact:
        return f'<div class="ss-legend ss-c">{chips}</div>'
    return f'<div class="ss-legend" style="{KEEP_COLOURS}font-size:0.85em">{chips}</div>'


def status_legend(statuses: Iterable[Status] = STATUSES, *, compact: bool = False) -> str:
    """Legend of the merged view's statuses, each with its definition as a tooltip;
    ``compact``: as :func:`legend`'s."""
    chip = _chip_compact if compact else _chip
    chips = "".join(chip(STATUS_COLOURS[s], STATUS_NAMES[s], STATUS_HELP[s],
                         line=STATUS_LINES[s]) for s in statuses)
    if compact:
        return f'<div class="ss-legend ss-c">{chips}</div>'
    return f'<div class="ss-legend" style="{KEEP_COLOURS}font-size:0.85em">{chips}</div>'


def compact_css(theme: str = "light") -> str:
    """The one ``<style>`` block that :func:`render_lanes`, :func:`render_merged`,
    :func:`legend` and :func:`status_legend` with ``compact=True`` need: what their inline
    styles carry otherwise, once per page instead of once per span. ``theme``
    (``"light"``/``"dark"``): the colour of the dashed outline of the spans a filter keeps
    (:data:`~core.render.palette.FILTER_OUTLINE`). The same text for the same theme, so a page
    that draws it on every run draws an element that does not change."""
    outline = FILTER_OUTLINE.get(theme, FILTER_OUTLINE["light"])
    statuses = "".join(
        f".ss-c .ss-{s}{{background:{STATUS_COLOURS[s]};color:{STATUS_TEXT};border-radius:2px"
        + ("" if STATUS_LINES[s] == "none" else f";border-bottom:{STATUS_LINES[s]}") + "}"
        for s in STATUSES)
    return (
        "<style>"
        ".ss-doc.ss-c{white-space:pre-wrap;font-size:16px;padding:6px 8px;border:1px solid #ddd;"
        "border-radius:6px;overflow-y:auto}"
        ".ss-c.ss-lanes{max-height:520px}.ss-c.ss-mv{line-height:1.7;max-height:420px}"
        ".ss-c .ss-seg{padding-bottom:var(--ss-pad)}"
        f".ss-c .ss-seg.ss-kept{{outline:1px dashed {outline};outline-offset:-1px}}"
        ".ss-c .ss-tag{font-size:.68em;font-weight:600;border-radius:3px;padding:0 2px;"
        "vertical-align:super;margin:0 1px;unicode-bidi:isolate;white-space:nowrap}"
        ".ss-c .ss-tag.ss-on{font-weight:800}"
        ".ss-c .ss-lab{font-weight:400}"
        f".ss-c .ss-split{{{SPLIT_STYLE}}}"
        ".ss-c .ss-tag.ss-kept{text-decoration:underline dashed}"
        f".ss-c .ss-cat{{font-size:.6em;font-weight:700;color:{STATUS_TEXT};"
        f"background:{MARK_BACKGROUND};border:2px solid;"
        "border-radius:3px;padding:0 2px;vertical-align:super;margin-right:2px;"
        "unicode-bidi:isolate}"
        f"{statuses}"
        f".ss-c .ss-hidden-missed{{border-bottom:{STATUS_LINES['missed']}}}"
        ".ss-legend.ss-c{font-size:.85em}"
        f".ss-doc.ss-c,.ss-legend.ss-c{{{KEEP_COLOURS.rstrip(';')}}}"
        ".ss-c .ss-chip{display:inline-block;margin:2px 10px 2px 0;white-space:nowrap}"
        ".ss-c .ss-chip::before{content:'';display:inline-block;width:18px;height:12px;"
        "background:var(--c);border-bottom:var(--l,none);border-radius:2px;margin-right:4px;"
        "vertical-align:middle}"
        # The Documents page's one element of highlights, side by side and merged: its
        # headings, captions and set names, and the two sets side by side, one above the other
        # on a narrow screen (where Streamlit stacks its columns).
        ".ss-head,.ss-set{margin:0 0 .5rem}"
        ".ss-cap{margin:0 0 .5rem;font-size:.875rem;opacity:.75}"
        ".ss-pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;"
        "margin:.5rem 0}"
        "@media (max-width:640px){.ss-pair{grid-template-columns:minmax(0,1fr)}}"
        "</style>")


# ---- one document as a standalone HTML page (the Documents page's download) ---------------------

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f1f1f;
background:#fff;max-width:980px;margin:24px auto;padding:0 16px}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}
.ss-doc{max-height:none !important;overflow:visible !important}
table{border-collapse:collapse;font-size:0.9em}td,th{border:1px solid #ddd;padding:3px 8px;
text-align:left;vertical-align:top}
td[dir=auto]{text-align:start}
footer{margin-top:2em;color:#666;font-size:0.85em}
"""


Notes = Mapping[str, tuple[str, str, str]]

"""Span id -> (mark, colour, category): what :func:`render_lanes` writes after a span's tag."""


def notes_legend(*notes: Notes) -> str:
    """Legend of the marks in ``notes`` (each category once, in order of first use), boxed as
    :func:`render_lanes` draws them; "" when there is none."""
    seen: dict[str, tuple[str, str]] = {}
    for side in notes:
        for mark, colour, category in side.values():
            seen.setdefault(category, (mark, colour))
    if not seen:
        return ""
    chips = "".join(
        f'<span style="display:inline-block;margin:2px 10px 2px 0;white-space:nowrap">'
        f'<span class="ss-cat" style="border:2px solid {xml_text(colour)};color:'
        f"{STATUS_TEXT};background:{MARK_BACKGROUND};border-radius:3px;padding:0 3px;"
        "font-weight:700;font-size:0.8em;"
        f'margin-right:4px">{xml_text(mark)}</span>{xml_text(category)}</span>'
        for category, (mark, colour) in seen.items())
    return (f'<div class="ss-legend ss-cat-legend" style="{KEEP_COLOURS}font-size:0.85em">'
            'Categories: '
            f"{chips}</div>")


def _span_table(items: Sequence[SpanItem], text: str | None, notes: Notes) -> str:
    rows = "".join(
        f"<tr><td>{xml_text(it.id)}</td><td>{it.start}</td><td>{it.end}</td>"
        f"<td>{xml_text(it.label_text)}</td>"
        + (f"<td>{xml_text(notes[it.id][0] + ' ' + notes[it.id][2]) if it.id in notes else ''}"
           "</td>" if notes else "")
        + f"<td dir=\"auto\">{'' if text is None else xml_text(text[it.start:it.end])}</td></tr>"
        for it in items)
    return ("<table><thead><tr><th>span</th><th>start</th><th>end</th><th>label</th>"
            + ("<th>category</th>" if notes else "")
            + f"<th>text</th></tr></thead><tbody>{rows}</tbody></table>")


def document_html(doc_id: str, text: str | None, gold: Sequence[SpanItem],
                  pred: Sequence[SpanItem], colours: Mapping[str, str], *, gold_name: str,
                  pred_name: str, merged: tuple[Sequence[SpanItem], Sequence[SpanItem]]
                  | None = None, notes: tuple[Notes, Notes] | None = None) -> str:
    """A standalone HTML page: the legend, both annotations in lanes, the merged view
    (``merged``: the items as the metric compares them; default ``gold`` and ``pred``) and the
    spans of each side in a table. ``notes`` (gold's, then pred's; :func:`render_lanes`) keeps
    the marks the Documents page shows after each tag (the error categories ✓, L, B, ...), with
    their legend and a category column in the span tables. No script; every file-derived
    string escaped."""
    used = {lab for it in (*gold, *pred) for lab in it.labels}
    m_gold, m_pred = merged if merged is not None else (gold, pred)
    n_gold, n_pred = notes if notes is not None else ({}, {})
    body = [
        f"<h1>Document {xml_text(doc_id)}</h1>",
        f"<p><b>{xml_text(gold_name)}</b> ({len(gold)} spans) and <b>{xml_text(pred_name)}</b> "
        f"({len(pred)} spans). Offsets are characters, [start, end).</p>",
        legend(colours, used),
        notes_legend(n_gold, n_pred),
        f"<h2>{xml_text(gold_name)}</h2>",
        render_lanes(text, gold, colours, dom_id="export-gold", notes=n_gold),
        f"<h2>{xml_text(pred_name)}</h2>",
        render_lanes(text, pred, colours, dom_id="export-pred", notes=n_pred),
        "<h2>Merged view</h2>",
        status_legend(),
        render_merged(text, m_gold, m_pred, dom_id="export-merged"),
        f"<h2>Spans of {xml_text(gold_name)}</h2>",
        _span_table(gold, text, n_gold),
        f"<h2>Spans of {xml_text(pred_name)}</h2>",
        _span_table(pred, text, n_pred),
        "<footer>Exported by SpanScope. A span tagged <code>A | B</code> may be matched by "
        "either label; ⊥ means it may be left unannotated.</footer>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>SpanScope: document {xml_text(doc_id)}</title><style>{_CSS}</style>"
            f"</head><body><main>{''.join(body[:-1])}</main>{body[-1]}</body></html>\n")
