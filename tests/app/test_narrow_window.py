"""An 800 px window (the sidebar open leaves the page about 470 px): the Annotators page's five
tiles keep their labels whole, and the Labels heatmap shows its missed column without
scrolling sideways (issue 29's newcomer tour, 50_800_annotators_matrix and 51_800_labels)."""

from __future__ import annotations

import time

from core.metrics import labels as core_labels
from tests.app.conftest import annotator_tiles, corpus
from ui import annotators as ann
from ui import labels as lab_ui

TILE_CHARS = 9
"""The longest label a tile of 90 px shows whole beside its ⓘ (\"Fleiss' κ\" was never cut)."""


def test_the_many_annotator_tiles_have_short_labels_and_name_the_measure_in_help(
        make_app) -> None:
    at = make_app("pages/annotators.py")
    deadline = time.time() + 120
    while any(value == "…" for value, _, _ in annotator_tiles(at).values()):
        assert time.time() < deadline, "the measures did not finish"
        time.sleep(0.3)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    tiles = annotator_tiles(at)
    assert list(tiles) == [ann.TILE_NAMES[n] for n in ann.MANY_NAMES]
    for name, full in ann.MANY_NAMES.items():
        label, (_, help_, _) = ann.TILE_NAMES[name], tiles[ann.TILE_NAMES[name]]
        assert len(label) <= TILE_CHARS, label
        assert full.split()[0] in help_ or ann.MEASURE_HELP[name] in help_, name


def test_the_heatmap_draws_the_missed_column_first() -> None:
    _texts, sets = corpus()
    m = core_labels.confusion(sets[0], sets[1])
    assert m.columns[-1] == core_labels.MISSED  # the matrix itself keeps it last
    spec = lab_ui.heatmap(lab_ui.cell_frame(m, "counts"), rows=m.rows, columns=m.columns,
                          totals=m.row_totals, row_title="gold", column_title="predicted")
    order = spec["layer"][0]["encoding"]["x"]["sort"]
    assert order[0] == core_labels.MISSED
    assert sorted(order) == sorted(lab_ui.shown(c) for c in m.columns)
