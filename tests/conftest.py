"""Suite-wide hooks: the order in which pytest-xdist hands the tests out (docs/dashboard.md,
"Tests")."""

from __future__ import annotations

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
