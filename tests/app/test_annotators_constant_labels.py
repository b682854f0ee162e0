"""Annotators page: a document-level tile (Fleiss' κ, Krippendorff's α) says which labels every
annotator used in every document (tour20). On bratiaa's example project (Lisa, Maria, Max;
seven CoNLL-2002 documents) LOC, ORG and PER are in every document for all three, so 21 of the
28 documents × labels units agree whatever the spans: the tiles read "1.000" beside exact-f1
of 0.82-0.95, and the per-label table showed "—" for those labels with no reason."""

from __future__ import annotations

import uuid

from core.metrics.agreement import Study
from core.model import AnnotationSet, Span
from tests.app.conftest import annotator_tiles, app_on_sets
from ui import annotators as ann

PAGE = "pages/annotators.py"


def _sets() -> tuple[list[AnnotationSet], dict[str, str | None]]:
    """Three annotators over three documents: LOC in every document for everyone (their spans
    differ), MISC in d1 for everyone and in d2 for A alone, ORG nowhere but in A's d3."""
    texts: dict[str, str | None] = {"d1": "Paris and the Tour de France.",
                                    "d2": "Lyon beat Nice at the Euro.",
                                    "d3": "Rome and the UN."}
    a = AnnotationSet("A", {"d1": (Span(0, 5, "LOC"), Span(10, 28, "MISC")),
                            "d2": (Span(0, 4, "LOC"), Span(22, 26, "MISC")),
                            "d3": (Span(0, 4, "LOC"), Span(13, 15, "ORG"))}, "annotator")
    b = AnnotationSet("B", {"d1": (Span(0, 5, "LOC"), Span(14, 28, "MISC")),
                            "d2": (Span(10, 14, "LOC"),),
                            "d3": (Span(0, 4, "LOC"),)}, "annotator")
    c = AnnotationSet("C", {"d1": (Span(0, 9, "LOC"), Span(14, 28, "MISC")),
                            "d2": (Span(0, 4, "LOC"), Span(10, 14, "LOC")),
                            "d3": (Span(0, 4, "LOC"),)}, "annotator")
    return [a, b, c], texts


def test_labels_every_annotator_used_in_every_document_are_named() -> None:
    sets, texts = _sets()
    s = Study.from_sets(sets, texts)
    assert ann.constant_labels(s) == {"fleiss-kappa": ["LOC"], "krippendorff-alpha": ["LOC"]}


def test_the_document_level_tiles_say_which_units_agree_whatever_the_spans() -> None:
    sets, texts = _sets()
    at = app_on_sets(sets, texts, PAGE, key=f"test:constant:{uuid.uuid4().hex}")
    assert not at.exception, [e.value for e in at.exception]
    tiles = annotator_tiles(at)
    note = ("⚠️ LOC: every annotator used it in every document, so 3 of the 9 units agree "
            "whatever the spans; only the other labels' 6 can disagree")
    assert [label for label, (_, _, notes) in tiles.items() if note in notes] == [
        "Fleiss' κ", "Kripp. α"]
    # the note is in the tile's help as well (the help says what the tile's value rests on)
    assert "LOC: every annotator used it in every document" in tiles["Fleiss' κ"][1]


def test_no_note_when_every_label_varies() -> None:
    sets, texts = _sets()
    # B leaves LOC out of d3: LOC varies too
    b = AnnotationSet("B", {**sets[1].spans, "d3": ()}, "annotator")
    at = app_on_sets([sets[0], b, sets[2]], texts, PAGE, key=f"test:constant:{uuid.uuid4().hex}")
    tiles = annotator_tiles(at)
    assert not any("whatever the spans" in n for _, _, notes in tiles.values() for n in notes)


def test_the_per_label_table_says_why_a_label_has_no_value() -> None:
    sets, texts = _sets()
    at = app_on_sets(sets, texts, PAGE, key=f"test:constant:{uuid.uuid4().hex}")
    at.session_state[ann.K_ANN_MORE] = True
    at.run()
    table = next(df.value for df in at.dataframe if "label" in df.value.columns
                 and "Fleiss' κ" in df.value.columns)
    rows = {r["label"]: r for r in table.to_dict("records")}
    why = rows["LOC"]["undefined because"]
    assert why.startswith("Fleiss' kappa is undefined: every one of the 3 annotators used 'LOC'")
    assert " · Krippendorff's alpha is undefined: every one of the 3 annotators used 'LOC'" in why
    assert rows["MISC"]["undefined because"] == ""


def test_a_label_filter_is_named_above_the_matrix_and_the_tiles() -> None:
    """Tour20: with Label = LOC the matrix read "char-kappa, every pair" and the tiles "All 3
    sets together", as with every label: a lead comparing the two (or the matrix's PNG on a
    slide) could not tell the LOC values from the pooled ones."""
    import html
    import re

    sets, texts = _sets()
    at = app_on_sets(sets, texts, PAGE, key=f"test:constant:{uuid.uuid4().hex}")
    at.session_state[ann.K_ANN_LABEL] = "LOC"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    matrix = next(h.proto.body for h in at.html if 'class="ann-matrix"' in h.proto.body)
    found = re.search(r"<caption>(.*?)</caption>", matrix)
    assert found and html.unescape(found.group(1)) == "char-kappa of label LOC, every pair"
    tiles = next(h.proto.body for h in at.html if 'class="ann-tiles"' in h.proto.body)
    assert '<h2 class="ann-h">All 3 sets together, label LOC</h2>' in tiles
    # every label: no label named
    at.session_state[ann.K_ANN_LABEL] = ann.ANN_ALL_LABELS
    at.run()
    matrix = next(h.proto.body for h in at.html if 'class="ann-matrix"' in h.proto.body)
    assert "<caption>char-kappa, every pair</caption>" in matrix


def test_a_label_or_name_with_a_bidi_override_is_spelt_out_in_the_tiles_and_the_matrix() -> None:
    """The tiles' notes and heading and the matrix's names are HTML built from labels and set
    names (``html.escape``): a right-to-left override in a label drew the rest of the constant
    label's note right to left ("... units agree whatever the spans" mirrored) and, under a
    label filter, the heading; in a set name, that name. Spelt out as the captions and Markdown
    show it (``\\u202e``, review21)."""
    rlo = "\u202e"
    label = f"LOC{rlo}x"
    note = ann.constant_note([label], 3, 9)
    assert note is not None
    tiles = ann.tiles_html([("Fleiss' κ", "0.500", f"help {label}", [note])],
                           heading=f"All 3 sets together, label {label}")
    assert rlo not in tiles
    assert "LOC\\u202ex: every annotator used it" in tiles
    assert "label LOC\\u202ex</h2>" in tiles
    matrix = ann.matrix_html(None, ["A", f"B{rlo}txt"], key=None,
                             title=f"char-kappa of label {label}, every pair")
    assert rlo not in matrix and "B\\u202etxt</th>" in matrix
