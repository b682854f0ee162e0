"""Curation to the end and across a killed server, in a real browser, each on a server of its
own with its own store (``spanscope app --store PATH``): "accept every remaining proposal" gives
every disputed span its proposal, and a server killed mid-way (SIGKILL, no shutdown) and started
again on the same store shows every decision made before the kill."""

from __future__ import annotations

import csv
import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.servers import running

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
VIEWPORT = {"width": 1500, "height": 1900}


def _server(store: Path, home: Path) -> Any:
    import os

    env = dict(os.environ, HOME=str(home))
    env.pop("SPANSCOPE_STORE", None)
    return running([sys.executable, "-m", "core", "app", "--store", str(store)], cwd=ROOT,
                   env=env, timeout=90)


def _metric(page: Any, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(has_text=label).first
    return str(box.get_by_test_id("stMetricValue").inner_text()).strip()


def _open(page: Any, url: str, st_ui: Any) -> int:
    """Open the Curation page; the number of disputed spans."""
    st_ui.open_page(page, url, "curation")
    page.locator("#cur-card").wait_for(timeout=90_000)
    st_ui.wait_idle(page)
    return int(_metric(page, "Decided").split("/")[1])


def _decisions(page: Any, st_ui: Any, path: Path) -> list[dict[str, str]]:
    st_ui.download(page, page.get_by_role("button", name="Decisions (CSV)")).save_as(str(path))
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_accept_every_remaining_proposal_gives_every_span_its_proposal(
        browser: Any, st_ui: Any, tmp_path: Path) -> None:
    with (_server(tmp_path / "store.sqlite", tmp_path) as server,
          st_ui.session(browser, VIEWPORT) as page):
        total = _open(page, server.url, st_ui)
        assert total >= 3 and page.get_by_test_id("stMultiSelect").first.inner_text().count(
            "annotator_") == 3  # the sample's three annotators
        st_ui.click(page, page.get_by_role("button", name=re.compile(r"Accept the proposal")),
                    page.get_by_text(f"1 of {total} disputed spans decided"))
        st_ui.wait_idle(page)
        st_ui.click(page, page.get_by_role(
            "button", name=f"✓✓ Accept every remaining proposal ({total - 1})"),
                    page.get_by_text(f"{total} of {total} disputed spans decided"))
        st_ui.wait_idle(page)
        assert page.get_by_role("button", name=re.compile(r"Accept every remaining proposal "
                                                           r"\(0\)")).is_disabled()
        assert page.get_by_role("button", name=f"↶ Undo accepting {total - 1} proposals"
                                ).is_visible()
        st_ui.shot(page, "curation_accept_all")
        rows = _decisions(page, st_ui, tmp_path / "decisions.csv")
        disputed = [r for r in rows if r["flags"]]
        assert len(disputed) == total
        for r in disputed:  # every decision is its proposal, and says which button made it
            assert r["source"] == "lead", r
            assert (r["decision"], r["start"], r["end"], r["label"]) == (
                r["proposed_decision"], r["proposed_start"], r["proposed_end"],
                r["proposed_label"]), r
        assert sorted({r["action"] for r in disputed}) == ["accept", "accept-all"]
        assert any(r["decision"] == "drop" for r in disputed)  # the bug: drops stay drops
        assert st_ui.app_errors(page) == []


def test_a_killed_server_loses_no_decision(browser: Any, st_ui: Any, tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    made: list[dict[str, str]]
    with _server(store, tmp_path) as server, st_ui.session(browser, VIEWPORT) as page:
        total = _open(page, server.url, st_ui)
        for i, key in enumerate(["a", "x", "k", "x"], 1):  # accept, drop, keep, drop
            page.get_by_role("heading", name="Disputed spans").click()  # focus off fields
            page.keyboard.press(key)
            page.get_by_text(f"{i} of {total} disputed spans decided").wait_for(timeout=30_000)
            st_ui.wait_idle(page)
        made = [r for r in _decisions(page, st_ui, tmp_path / "before.csv")
                if r["source"] == "lead"]
        assert [r["action"] for r in made] == ["accept", "drop", "keep", "drop"]
        server.process.kill()  # SIGKILL: no shutdown, no flush, nothing downloaded
        server.process.wait(timeout=30)
    with _server(store, tmp_path) as again, st_ui.session(browser, VIEWPORT) as page:
        assert _open(page, again.url, st_ui) == total
        assert _metric(page, "Decided") == f"4 / {total}"
        after = [r for r in _decisions(page, st_ui, tmp_path / "after.csv")
                 if r["source"] == "lead"]
        assert after == made
        st_ui.shot(page, "curation_after_restart")
        assert st_ui.app_errors(page) == []
