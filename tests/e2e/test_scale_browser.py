"""Real browser on a corpus of 3,000 documents opened with ``python -m core app --data``: the
sidebar names the files, the per-text scatter draws a seeded random sample and says so, and a
long table is paginated with a pager that moves through it. Screenshots at 1440×900."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.e2e.conftest import new_page
from tests.servers import running

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
N_DOCS = 3000
LABELS = ("Loaded Language", "Doubt", "Flag-waving", "Slogans")


def _write_corpus(folder: Path) -> tuple[Path, Path]:
    """SemEval-2021 JSON gold and prediction of N_DOCS documents, 6 spans each per side."""
    rng = random.Random(0)
    sides: dict[str, list[dict[str, Any]]] = {"gold": [], "pred": []}
    for i in range(N_DOCS):
        text = f"document {i}: " + " ".join(rng.choice(("the", "plan", "will", "ruin", "us"))
                                             for _ in range(40))
        for side in sides.values():
            labels = []
            for _ in range(6):
                a = rng.randrange(0, len(text) - 30)
                labels.append({"start": a, "end": a + rng.randrange(2, 30),
                               "technique": rng.choice(LABELS)})
            side.append({"id": f"doc{i}", "text": text, "labels": labels})
    paths = folder / "big_gold.json", folder / "big_pred.json"
    for path, name in zip(paths, ("gold", "pred"), strict=True):
        path.write_text(json.dumps(sides[name]), encoding="utf-8")
    return paths


@pytest.fixture(scope="module")
def big_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app started as a user starts it on files from disk: ``python -m core app --data``."""
    folder = tmp_path_factory.mktemp("big")
    gold, pred = _write_corpus(folder)
    env = {k: v for k, v in os.environ.items() if k != "SPANSCOPE_DATA"}
    env["HOME"] = str(folder)
    with running([sys.executable, "-m", "core", "app", "--data", f"gold={gold}",
                  f"pred={pred}"], cwd=ROOT, env=env) as server:
        yield server.url


@pytest.fixture
def wide(browser: Any) -> Iterator[Any]:
    context, pg = new_page(browser, {"width": 1440, "height": 900})
    yield pg
    context.close()


def test_the_sidebar_and_data_page_name_the_command_lines_files(
    big_url: str, wide: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(wide, big_url, "data")
    wide.get_by_test_id("stMetricValue").get_by_text("3,000").first.wait_for(timeout=120_000)
    st_ui.wait_idle(wide, timeout=60_000)
    sidebar = wide.get_by_test_id("stSidebar")
    sidebar.get_by_text("files from the command line").wait_for(timeout=30_000)
    assert "big_gold.json (gold)" in sidebar.inner_text()
    assert "big_pred.json (system)" in sidebar.inner_text()
    main = wide.get_by_test_id("stMain").inner_text()
    assert "MB" in main and "spanscope app --data" in main  # the upload limit, and beyond it
    # The warnings (duplicate spans) wait in a closed expander; opened, their table is paginated.
    box = wide.get_by_test_id("stExpander").filter(has_text="Every error and warning")
    st_ui.click(wide, box.locator("summary"), box.get_by_test_id("stDataFrame"))
    st_ui.wait_idle(wide, timeout=60_000)
    assert "Rows 1–50 of" in wide.get_by_test_id("stMain").inner_text()
    st_ui.shot(wide, "scale_data_cli")
    assert st_ui.app_errors(wide) == []


def test_the_scatter_is_a_sample_with_its_size_in_the_caption(
    big_url: str, wide: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(wide, big_url, "differences")
    wide.locator(".st-key-diff_waterfall g.mark-rect path").first.wait_for(timeout=180_000)
    wide.get_by_text("Draw the scatter (2,000 points, a random sample of the 3,000 texts)"
                     ).click()
    st_ui.wait_idle(wide, timeout=120_000)
    wide.locator(".st-key-diff_scatter .js-plotly-plot").wait_for(timeout=60_000)
    caption = wide.get_by_text("Showing 2,000 of 3,000 texts (random sample, seed 0).")
    caption.wait_for(timeout=30_000)
    # calcdata: the points plotly.js drew per trace (after the dashed diagonal, trace 0).
    markers = wide.evaluate("() => document.querySelector('.st-key-diff_scatter .js-plotly-plot')"
                            ".calcdata.slice(1).reduce((n, trace) => n + trace.length, 0)")
    assert markers == 2000
    caption.scroll_into_view_if_needed()
    st_ui.shot(wide, "scale_differences_scatter_sample")
    assert st_ui.app_errors(wide) == []


def test_the_per_document_table_pages_through_every_row(
    big_url: str, wide: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(wide, big_url, "scores")
    wide.get_by_role("tab", name="📄 Per document").click(timeout=180_000)
    rows = wide.get_by_text("Rows 1–20 of 3,000.")
    rows.wait_for(timeout=180_000)
    pager = wide.get_by_label("Page (of 150, 20 rows each)")
    pager.fill("150")
    pager.press("Enter")
    st_ui.wait_idle(wide, timeout=60_000)
    wide.get_by_text("Rows 2,981–3,000 of 3,000.").wait_for(timeout=30_000)
    wide.get_by_text("Rows 2,981–3,000 of 3,000.").scroll_into_view_if_needed()
    st_ui.shot(wide, "scale_scores_pager")
    assert st_ui.app_errors(wide) == []
