"""Annotators page: a document-level tile (Fleiss' κ, Krippendorff's α) says which labels every
annotator used in every document (tour20). On bratiaa's example project (Lisa, Maria, Max;
seven CoNLL-2002 documents) LOC, ORG and PER are in every document for all three, so 21 of the
28 documents × labels units agree whatever the spans: the tiles read "1.000" beside exact-f1
of 0.82-0.95, and the per-label table showed "—" for those labels with no reason."""

from __future__ import annotations

import uuid

import pytest

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
    # bugleft26: the cell names the measures, the reasons are in a list below the table, which
    # wraps (the column cut them at its edge); the download keeps the whole text
    assert rows["LOC"]["undefined"] == "Fleiss' κ, Krippendorff's α: why below"
    assert rows["MISC"]["undefined"] == ""
    (listed,) = [h.proto.body for h in at.html if 'class="ann-reasons"' in h.proto.body]
    assert ("<li><b>LOC, Fleiss&#x27; κ</b>: Fleiss&#x27; kappa is undefined: every one of the "
            "3 annotators used &#x27;LOC&#x27;") in listed
    assert ("<li><b>LOC, Krippendorff&#x27;s α</b>: Krippendorff&#x27;s alpha is undefined: "
            "every one") in listed
    from core.metrics.agreement.measures import fleiss_text, krippendorff_text

    study = Study.from_sets(sets, texts)
    values = {"fleiss-kappa": fleiss_text(study), "krippendorff-alpha": krippendorff_text(study)}
    full = {r["label"]: r for r in ann.per_label_table(values).to_dict("records")}  # the CSV's
    why = full["LOC"]["undefined because"]
    assert why.startswith("Fleiss' kappa is undefined: every one of the 3 annotators used 'LOC'")
    assert " · Krippendorff's alpha is undefined: every one of the 3 annotators used 'LOC'" in why


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


def test_the_document_level_tiles_give_the_value_without_the_constant_labels() -> None:
    """bugleft26: beside the note, each tile gives its measure on the units of the labels that
    vary. By hand, without LOC (MISC and ORG, 3 documents: 6 units of 3 annotators): Fleiss' κ
    P̄ = (1 + 1/3 + 1 + 1 + 1 + 1/3) / 6 = 7/9, 'present' 5 of 18 ratings, P_e = (5² + 13²) / 18²
    = 194/324, κ = (7/9 − 194/324) / (1 − 194/324) = 58/130 = 0.446 (0.703 with LOC);
    Krippendorff's α = 1 − (n − 1) o_pa / (n_p n_a) = 1 − 17 · 2 / (5 · 13) = 31/65 = 0.477
    (0.714 with LOC)."""
    sets, texts = _sets()
    s = Study.from_sets(sets, texts)
    from core.metrics.agreement.measures import without_constant_labels

    fleiss = without_constant_labels(s, "fleiss-kappa")
    alpha = without_constant_labels(s, "krippendorff-alpha")
    assert fleiss.value == pytest.approx(58 / 130) and alpha.value == pytest.approx(31 / 65)
    assert fleiss.stats["labels_left_out"] == ["LOC"] and fleiss.stats["units"] == 6
    at = app_on_sets(sets, texts, PAGE, key=f"test:constant:{uuid.uuid4().hex}")
    assert not at.exception, [e.value for e in at.exception]
    tiles = annotator_tiles(at)
    assert tiles["Fleiss' κ"][0] == "0.703"
    assert "without LOC: 0.446 (MISC, ORG: 6 units)" in tiles["Fleiss' κ"][2]
    assert "without LOC: 0.477 (MISC, ORG: 6 units)" in tiles["Kripp. α"][2]
    assert "κ = (P̄ − P_e) / (1 − P_e)" in tiles["Fleiss' κ"][1]
    assert "α = 1 − D_o / D_e" in tiles["Kripp. α"][1]
    assert not any(n.startswith("without") for n in tiles["α_U"][2])


def test_no_value_without_constant_labels_when_every_label_varies() -> None:
    sets, texts = _sets()
    b = AnnotationSet("B", {**sets[1].spans, "d3": ()}, "annotator")
    at = app_on_sets([sets[0], b, sets[2]], texts, PAGE, key=f"test:constant:{uuid.uuid4().hex}")
    tiles = annotator_tiles(at)
    assert not any(n.startswith("without") for _, _, notes in tiles.values() for n in notes)


def test_the_jobs_are_given_the_corpus_texts_not_copies() -> None:
    """bugleft26: ``_view_args`` copied the corpus's texts and ``_resident_study_args`` copied
    them again (a job's arguments hold them while it is queued, one job per measure): both give
    the workspace's dict itself, which is filled once as the workspace is built and only read
    after."""
    from ui import state

    sets, texts = _sets()
    report = state.FileReport("custom.json", "test", "annotator", "custom", texts, tuple(sets))
    ws = state.build_workspace([report], key=f"test:copies:{uuid.uuid4().hex}", title="custom",
                               shareable=False)
    names = ("A", "B", "C")
    assert ann._view_args(ws, names, None, "char-kappa", None, False)["texts"] is ws.corpus.texts
    assert ann._resident_study_args(ws, names, None)["texts"].value is ws.corpus.texts
    resident = ann._resident_view_args(ws, names, None, "char-kappa", None, False)
    assert resident["texts"].value is ws.corpus.texts and ws.corpus.texts == texts


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
