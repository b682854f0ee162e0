"""Threads run against each other as often as the interpreter can switch between them."""

from __future__ import annotations

import sys
import threading


def race(threads: list[threading.Thread]) -> None:
    """Start ``threads`` and wait for them all, with the interpreter's switch interval at its
    smallest (1 µs) meanwhile, so that an unlocked read-modify-write has every chance to lose
    an update; the interval is put back however the threads end."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
