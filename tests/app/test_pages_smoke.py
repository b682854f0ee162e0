"""Every page runs without an exception on hand-made data, on an empty start and on the sample."""

from __future__ import annotations

import pytest

PAGES = ["pages/home.py", "pages/data.py", "pages/scores.py", "pages/documents.py"]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("data", ["handmade", "empty"])
def test_page_runs_without_exception(make_app, page: str, data: str) -> None:
    at = make_app(page, data=data)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, "every page shows a title"


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_on_the_bundled_sample(make_app, has_sample: bool, page: str) -> None:
    if not has_sample:
        pytest.skip("no sample_data/ in this checkout")
    at = make_app(page, data="sample")
    assert not at.exception, [e.value for e in at.exception]


def test_empty_start_points_to_the_data_page(make_app) -> None:
    at = make_app("pages/documents.py", data="empty")
    assert any("No annotation set" in i.value for i in at.info)
    assert any("data" in str(p.proto.page).lower() for p in at.get("page_link"))
