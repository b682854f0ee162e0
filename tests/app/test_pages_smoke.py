"""Every page runs without an exception on hand-made data, on an empty start and on the sample."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py"))
SAMPLES = sorted(p.name for p in (ROOT / "sample_data").iterdir()
                 if p.is_dir() and p.name not in ("formats",) and not p.name.startswith((".", "_")))


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("data", ["handmade", "empty"])
def test_page_runs_without_exception(make_app, page: str, data: str) -> None:
    at = make_app(page, data=data)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, "every page shows a title"


def test_every_page_file_is_in_the_navigation() -> None:
    app = (ROOT / "app.py").read_text(encoding="utf-8")
    assert all(f'"{page}"' in app for page in PAGES)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_page_runs_on_every_bundled_sample(make_app, page: str, sample: str) -> None:
    at = make_app(page, data="sample", params={"sample": sample})
    assert not at.exception, [e.value for e in at.exception]
    assert at.title


def test_empty_start_points_to_the_data_page(make_app) -> None:
    at = make_app("pages/documents.py", data="empty")
    assert any("No annotation set" in i.value for i in at.info)
    assert any("data" in str(p.proto.page).lower() for p in at.main.get("page_link"))


def test_where_next_links_every_other_page_in_the_sidebars_order() -> None:
    from ui.home import NEXT

    app = (ROOT / "app.py").read_text(encoding="utf-8")
    order = sorted((p for p in PAGES if p != "pages/home.py"), key=lambda p: app.index(f'"{p}"'))
    assert [page for page, *_ in NEXT] == order  # Errors and Curation were left out
