"""Suite-wide hooks and fixtures: the order in which pytest-xdist hands the tests out
(docs/dashboard.md, "Tests"), and one Playwright driver per test process."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the tests marked ``slow`` first, each file's in its order.

    ``--dist loadgroup`` (``scripts/test.sh``) hands out the xdist groups first, the largest
    first (the browser files: ``tests/e2e/conftest.py``), then the other tests one at a time
    in this order. A slow test handed out last (the fresh-venv install, the set-up commands
    with Debian's Python: a minute or two each) would keep one worker busy that long while
    the other has nothing left to run; handed out early, the short tests even the two
    workers out at the end. A serial run keeps the files' order."""
    if not hasattr(config, "workerinput"):
        return
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """The one Playwright driver of this test process, for every browser a test launches.

    Playwright's sync API refuses to start a second driver while one runs in the same thread
    ("using Playwright Sync API inside the asyncio loop"): a worker that had run a browser file
    (its session's chromium, :func:`tests.e2e.conftest.browser`) and then the bench clock's
    tests, which started their own, failed them all."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p
