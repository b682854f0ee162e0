"""The dashboard on the bundled MAFALDA-style sample (``?sample=mafalda``): every page runs, the
folder loads with the right roles and formats, and the Documents page shows gold alternatives,
⊥ and the per-document numbers core computes."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.formats import ReadOptions, load_path
from ui import documents, sidebar, state

PAGES = ["pages/home.py", "pages/data.py", "pages/scores.py", "pages/documents.py"]
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "mafalda"


def _html(at) -> str:
    return "\n".join(h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT)


def test_mafalda_sample_is_listed_and_loads_every_file_with_its_role() -> None:
    assert "mafalda" in state.sample_names()
    reports = state.sample_reports("mafalda")
    assert all(r.ok for r in reports), [r.error for r in reports if not r.ok]
    roles = {r.name: (r.format, r.role) for r in reports}
    assert roles == {
        "gold": ("mafalda", "gold"),
        "system_a": ("mafalda", "system"), "system_b": ("mafalda", "system"),
        "system_llm": ("mafalda-llm", "system"),
        "annotator_1": ("mafalda", "annotator"), "annotator_2": ("mafalda", "annotator"),
        "annotator_3": ("mafalda", "annotator"),
    }
    ws = state.build_workspace(reports, key="test:mafalda", title="mafalda", shareable=True)
    assert state.default_pair(ws) == ("gold", "system_a")
    assert ws.sets["gold"].alternatives


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_on_the_mafalda_sample(make_app, page: str) -> None:
    at = make_app(page, data="sample", params={"sample": "mafalda"})
    assert not at.exception, [e.value for e in at.exception]


def test_documents_page_draws_alternatives_and_bottom_for_the_example5_text(make_app) -> None:
    at = make_app("pages/documents.py", data="sample",
                  params={"sample": "mafalda", "doc": "0", "metric": "mafalda"})
    assert not at.exception, [e.value for e in at.exception]
    body = _html(at)
    assert "appeal to anger | appeal to fear" in body
    assert "ad hominem | ⊥" in body
    assert "alternatives, not conflicts" in body


def test_documents_page_shows_the_per_document_scores_core_computes(make_app, frame) -> None:
    from core.metrics import mafalda, martino

    at = make_app("pages/documents.py", data="sample",
                  params={"sample": "mafalda", "doc": "3", "metric": "mafalda",
                          documents.K_DOC_TAB: documents.DOC_TABS[2]})  # lazy tabs: the scores
    assert not at.exception, [e.value for e in at.exception]
    shown = frame(at, "metric", "F1")
    gold = load_path(SAMPLE / "gold.jsonl").set
    pred = load_path(SAMPLE / "system_a.jsonl", options=ReadOptions(role="system")).set
    m_row = next(r for r in martino.score(gold, pred).per_document() if r.document == "3")
    f_row = next(d for d in mafalda.score(gold, pred).per_document() if d.document == "3")
    by_metric = dict(zip(shown["metric"], shown["R"], strict=True))
    martino_r = next(v for k, v in by_metric.items() if k.startswith("Da San Martino"))
    mafalda_r = next(v for k, v in by_metric.items() if k.startswith("MAFALDA"))
    # The duplicate prediction of text 3: recall 2 under Martino, 1 under MAFALDA.
    assert (martino_r, mafalda_r) == pytest.approx((m_row.recall, f_row.recall))
    assert (martino_r, mafalda_r) == pytest.approx((2.0, 1.0))


def _merged_caption(at) -> str:
    """The merged view's counts (a caption of the Documents page's element of highlights, after
    the merged text and before the export's caption; none when every count is 0)."""
    body = _html(at)
    start = body.index("</div>", body.index('id="merged"'))
    return body[start:body.index("Export this document", start)]


@pytest.mark.slow
def test_merged_view_compares_classes_at_the_chosen_level(make_app) -> None:
    # Text 1 is Example 9: (s1, ad hominem) + (whole text, tu quoque) against the whole text
    # labelled ad hominem. At level 2 part of the text is a label mismatch; at level 1 both
    # predictions are credibility fallacies, so every character matches.
    base = {"sample": "mafalda", "doc": "1", "metric": "mafalda"}
    at2 = make_app("pages/documents.py", data="sample", params={**base, "level": "2"})
    at1 = make_app("pages/documents.py", data="sample", params={**base, "level": "1"})
    assert not at1.exception and not at2.exception
    assert "label mismatch" not in _merged_caption(at1)
    assert "labels compared at level 1" in _html(at1)


@pytest.mark.slow
def test_a_nothing_prediction_is_not_counted_by_mafalda(make_app, frame) -> None:
    # Text 9 has no fallacy; system A predicts a sentence as 'nothing' (⊥): MAFALDA ignores it.
    at = make_app("pages/documents.py", data="sample",
                  params={"sample": "mafalda", "doc": "9", "metric": "mafalda"})
    assert not at.exception, [e.value for e in at.exception]
    assert "spurious" not in _merged_caption(at)  # merged view
    at.session_state[documents.K_DOC_TAB] = documents.DOC_TABS[1]  # lazy tabs: contributions
    at.run()
    rows = frame(at, "side", "C(s,t,|s|)")
    assert list(rows["side"]) == ["precision: ⊥ prediction, not counted"]


def test_under_martino_the_alternatives_caption_says_how_martino_reads_them(make_app) -> None:
    """tour19: under the Da San Martino metric the caption said only MAFALDA's reading ("may be
    matched by either label, ⊥ ... left unpredicted") while the recall beside it counted an
    unpredicted ``ad hominem | ⊥`` span as missed. Under martino it now says how that metric
    reads the gold, which is what core scores it as (every label a span, ⊥ dropped); under
    mafalda the caption is as before."""
    from core.metrics.martino import martino_gold_view
    from core.model import NOTHING

    gold = load_path(SAMPLE / "gold.jsonl").set
    plain = martino_gold_view(gold).spans["0"]
    assert NOTHING not in {s.label for s in plain}  # ⊥ dropped
    both = {s.label for s in plain if (s.start, s.end) == (0, 126)}
    assert {"appeal to fear", "appeal to anger"} <= both  # each label a gold span of its own

    at = make_app("pages/documents.py", data="sample",
                  params={"sample": "mafalda", "doc": "0", "metric": "martino"})
    assert not at.exception, [e.value for e in at.exception]
    body = _html(at)
    assert "The Da San Martino metric shown here reads each label of such a span as a gold span" \
        " of its own and drops ⊥: it needs every label" in body
    assert "These are alternatives, not conflicts." not in body
    at = make_app("pages/documents.py", data="sample",
                  params={"sample": "mafalda", "doc": "0", "metric": "mafalda"})
    body = _html(at)
    assert "These are alternatives, not conflicts." in body
    assert "The Da San Martino metric shown here" not in body
