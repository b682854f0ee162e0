"""Annotators page, tour 5: a tile whose measure left documents out says how many it read; the
warnings for labels that differ only in case and for an annotator missing documents."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from tests.app.conftest import annotator_tiles, app_on_sets
from ui.annotators import TILE_NAMES

PAGE = "pages/annotators.py"
APP = Path(__file__).resolve().parents[2] / "app.py"


def _app(sets: list[AnnotationSet], texts: dict[str, str | None]) -> AppTest:
    return app_on_sets(sets, texts, PAGE, key=f"test:tour5:{uuid.uuid4().hex}")


def _one_missing() -> tuple[list[AnnotationSet], dict[str, str | None]]:
    texts: dict[str, str | None] = {"d1": "Fear sells papers.", "d2": "Vote now, or else.",
                                    "d3": "They are coming."}
    a = AnnotationSet("ann_a", {"d1": (Span(0, 4, "Fear"),), "d2": (Span(0, 8, "Slogan"),),
                                "d3": (Span(0, 4, "Fear"),)}, "annotator")
    b = AnnotationSet("ann_b", {"d1": (Span(0, 4, "Fear"),), "d2": (Span(0, 8, "Slogan"),),
                                "d3": (Span(0, 4, "Fear"),)}, "annotator")
    c = AnnotationSet("ann_c", {"d1": (Span(0, 4, "Fear"),), "d2": (Span(0, 8, "Slogan"),)},
                      "annotator")
    return [a, b, c], texts


def _settled(at: AppTest) -> dict[str, tuple[str, str, list[str]]]:
    """The tiles once none is computing ("…"): on three documents the corpus γ is on and queued
    in the background, so a first run shows γ and γ-cat either still "…" (no notes) or done
    (their notes), as the worker's timing falls; AppTest does not poll, so rerun until done."""
    deadline = time.time() + 90
    tiles = annotator_tiles(at)
    while any(value == "…" for value, _, _ in tiles.values()):
        assert time.time() < deadline, f"the measures did not finish: {tiles}"
        time.sleep(0.3)
        at.run()
        tiles = annotator_tiles(at)
    assert not at.exception, [e.value for e in at.exception]
    return tiles


def test_tiles_of_measures_on_a_subset_say_how_many_documents() -> None:
    tiles = _settled(_app(*_one_missing()))
    note = "2 of 3 documents: those all 3 annotators cover"
    # The measures that read only the documents every annotator covers say so; Krippendorff's
    # α reads a missing document as missing values, all 3 of them (not a subset).
    subset = {TILE_NAMES[n] for n in ("fleiss-kappa", "unitizing-alpha", "gamma", "gamma-cat")}
    assert {label for label, (_, _, notes) in tiles.items() if note in notes} == subset, tiles
    assert all(notes.count(note) <= 1 for _, _, notes in tiles.values()), tiles


def test_the_page_warns_of_a_missing_document_and_labels_differing_in_case() -> None:
    sets, texts = _one_missing()
    c = sets[2]
    sets[2] = AnnotationSet(c.name, {"d1": (Span(0, 4, "fear"),), "d2": c.spans["d2"]},
                            "annotator")
    at = _app(sets, texts)
    captions = [x.value.replace("\\", "") for x in at.caption]  # md() escapes
    assert any("ann_c: lacks 1 of the study's 3 documents" in x and "'d3'" in x
               for x in captions), captions
    assert any("labels 'Fear' (ann_a, ann_b) and 'fear' (ann_c) differ only in case" in x
               for x in captions), captions
