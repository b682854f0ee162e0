"""Annotators page, agreement numbers a lead can trust (issue 26, §4 and §5): the
document-level tiles warn when they rest on few documents, counting the units; one sentence says
why they differ from char-κ; documents that only one chosen set covers are listed."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.cli.launch import DATA_ENV
from core.metrics.agreement import Study
from core.model import AnnotationSet, Span
from tests.app.conftest import annotator_tiles, app_on_sets
from ui import annotators as ann

PAGE = "pages/annotators.py"
APP = Path(__file__).resolve().parents[2] / "app.py"


def _app(sets: list[AnnotationSet], texts: dict[str, str | None]) -> AppTest:
    return app_on_sets(sets, texts, PAGE, key=f"test:trust:{uuid.uuid4().hex}")


def _why_they_differ(at: AppTest) -> bool:
    """The sentence on why the values differ is the tiles' element's last paragraph, once."""
    import html

    bodies = [h.proto.body for h in at.html if 'class="ann-tiles"' in h.proto.body]
    return (len(bodies) == 1 and bodies[0].endswith(
        f'<p class="ann-why">{html.escape(ann.WHY_THEY_DIFFER)}</p>')
        and ann.WHY_THEY_DIFFER not in [c.value for c in at.caption])


def _two_documents() -> tuple[list[AnnotationSet], dict[str, str | None]]:
    texts: dict[str, str | None] = {"d1": "Fear sells papers.", "d2": "Vote now, or else."}
    a = AnnotationSet("ann_a", {"d1": (Span(0, 4, "Fear"),), "d2": (Span(0, 8, "Slogan"),)},
                      "annotator")
    b = AnnotationSet("ann_b", {"d1": (Span(0, 10, "Fear"),), "d2": ()}, "annotator")
    c = AnnotationSet("ann_c", {"d1": (), "d2": (Span(0, 4, "Slogan"), Span(10, 17, "Fear"))},
                      "annotator")
    return [a, b, c], texts


def test_document_level_tiles_on_two_documents_warn_and_count_the_units() -> None:
    sets, texts = _two_documents()
    at = _app(sets, texts)
    tiles = annotator_tiles(at)
    # 2 documents × 2 labels
    note = "⚠️ only 2 documents (4 units): one more or less moves the value a lot"
    assert [label for label, (_, _, notes) in tiles.items() if note in notes] == [
        "Fleiss' κ", "Kripp. α"]  # not α_U nor γ
    assert "4 present/absent units" in tiles["Fleiss' κ"][1]  # its help counts them
    assert _why_they_differ(at)
    assert ann.document_units(Study.from_sets(sets, texts)) == {
        "fleiss-kappa": (2, 4), "krippendorff-alpha": (2, 4)}


def test_no_warning_from_twenty_documents_on() -> None:
    texts: dict[str, str | None] = {f"d{i}": "Fear sells papers." for i in range(20)}
    a = AnnotationSet("ann_a", {d: (Span(0, 4, "Fear"),) for d in texts}, "annotator")
    b = AnnotationSet("ann_b", {d: (Span(0, 4, "Fear"),) if i % 2 else ()
                                for i, d in enumerate(texts)}, "annotator")
    at = _app([a, b], texts)
    assert not any("moves the value a lot" in n for _, _, notes in annotator_tiles(at).values()
                   for n in notes)
    assert _why_they_differ(at)


def test_documents_only_one_set_covers_are_listed() -> None:
    texts: dict[str, str | None] = {"d1": "Fear sells papers.", "d2": "Vote now, or else.",
                                    "d3": "Only one annotator saw this."}
    a = AnnotationSet("ann_a", {"d1": (Span(0, 4, "Fear"),), "d2": ()}, "annotator")
    b = AnnotationSet("ann_b", {"d1": (Span(0, 4, "Fear"),), "d2": (), "d3": ()}, "annotator")
    at = _app([a, b], texts)
    (exp,) = [e for e in at.expander if "in one chosen set only" in e.label]
    assert exp.label.startswith("⚠️ 1 document of 3 is in one chosen set only")
    # Closed and lazy: its table is drawn once the reader opens it
    assert not any("only in" in df.value.columns for df in at.dataframe)
    at.session_state[f"{ann.K_ANN_ALONE}_kept"] = True  # what its on_change keeps
    at.run()
    table = next(df.value for df in at.dataframe if "only in" in df.value.columns)
    assert table.to_dict("records") == [{"document": "d3", "only in": "ann_b"}]


def test_the_data_page_says_which_documents_were_matched_by_their_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Our own doccano exports (tests/data/formats/conflicts): annotator 2 numbers other reviews
    1 and 2; as annotators, the three files load and the Data page says what was renamed."""
    conflicts = Path(__file__).resolve().parents[1] / "data" / "formats" / "conflicts"
    monkeypatch.setenv(DATA_ENV, json.dumps(
        [{"role": "annotator", "path": str(conflicts / f"reviews_ann{i}.jsonl")}
         for i in (1, 2, 3)]))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    (info,) = [i.value.replace("\\", "") for i in at.info
               if "Documents matched by their text" in i.value]
    assert "reviews_ann2.jsonl: 2 documents renamed" in info
    # "@" is followed by a word joiner (U+2060) so that markdown draws no e-mail link.
    assert "'1' → '1@\u2060reviews_ann2.jsonl'" in info
    assert "2 documents match no other file's documents" in info


def test_coverage_from_the_columns_is_each_documents_covering_sets() -> None:
    x = (Span(0, 2, "x"),)
    a = AnnotationSet("A", {"d1": x, "d2": (), "d3": x, "d5": x}, role="annotator")
    b = AnnotationSet("B", {"d2": x, "d3": (), "d4": x}, role="annotator")
    c = AnnotationSet("C", {"d3": x, "d4": (), "d6": ()}, role="annotator")
    s = Study.from_sets([a, b, c])
    want = [(d, s.covering(d)[0]) for d in s.docs if len(s.covering(d)) == 1]
    assert ann.single_documents(s) == want == [("d1", "A"), ("d5", "A"), ("d6", "C")]
    labels = len(s.labels)
    assert ann.document_units(s) == {
        "fleiss-kappa": (len(s.common_docs()), len(s.common_docs()) * labels),
        "krippendorff-alpha": (3, 3 * labels)}
