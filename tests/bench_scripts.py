"""The scripts of ``bench/`` imported as modules, for the tests of their pure parts."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench_module(name: str) -> Any:
    """``bench/<name>.py`` imported (``bench/`` is on ``sys.path`` only meanwhile, as the
    scripts import one another by name)."""
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))
