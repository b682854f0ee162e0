"""Metrics and formats from other packages, found through entry points (as pytest finds its
plugins): a package declares them in its ``pyproject.toml``

.. code-block:: toml

    [project.entry-points."spanscope.metrics"]
    toy-exact = "spanscope_toy:METRIC"          # a registry Metric, or a function returning one
    [project.entry-points."spanscope.formats"]
    toy-tsv = "spanscope_toy.toy_tsv"           # a module with sniff and read

and, once installed, its metric is listed by ``score --help``, runs under ``--engine dask``,
``slices --metric``, ``report`` and the dashboard's metric choice, and its format is read by every
command (``docs/python-api.md``, "Plugins", and "What a plugin must provide" for the required and
optional attributes). Metrics are loaded once, the first time the registry
is asked for its names (:func:`core.metrics.registry.load_plugins`); formats when the command
line starts (:func:`load_formats`). A plugin that fails to load is reported with a
:class:`PluginWarning` naming it, and left out; it never stops the command.

Looking entry points up with :mod:`importlib.metadata` costs about 0.05 s (its imports, then a
read of every installed distribution), more than a command's own start-up budget
(``docs/performance.md``); so the distributions' ``entry_points.txt`` files are first searched
for the group's name, and only a group that some installed package declares is looked up.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

METRICS_GROUP = "spanscope.metrics"
FORMATS_GROUP = "spanscope.formats"


class PluginWarning(UserWarning):
    """An installed plugin could not be loaded (the message names it and says why)."""


_DECLARED: set[str] | None = None
_LOADED: dict[str, list[str]] = {}


def _declared_groups() -> set[str]:
    """The ``spanscope.*`` groups that some distribution on ``sys.path`` declares."""
    global _DECLARED
    if _DECLARED is None:
        found: set[str] = set()
        for folder in sys.path:
            try:
                entries = list(os.scandir(folder or "."))
            except OSError:
                continue
            for entry in entries:
                if not entry.name.endswith((".dist-info", ".egg-info")):
                    continue
                try:
                    with open(os.path.join(entry.path, "entry_points.txt"),
                              encoding="utf-8") as f:
                        text = f.read()
                except OSError:
                    continue
                found.update(g for g in (METRICS_GROUP, FORMATS_GROUP) if f"[{g}]" in text)
        _DECLARED = found
    return _DECLARED


def entry_points(group: str) -> list[Any]:
    """The entry points of ``group`` that installed packages declare (``importlib.metadata``)."""
    if group not in _declared_groups():
        return []
    from importlib.metadata import entry_points as declared

    return list(declared(group=group))


def load(group: str, use: Callable[[str, Any], None]) -> list[str]:
    """Load every entry point of ``group`` once and hand ``(name, object)`` to ``use``; the
    messages of those that failed (each also a :class:`PluginWarning`)."""
    if group in _LOADED:
        return _LOADED[group]
    failed: list[str] = []
    _LOADED[group] = failed
    for ep in entry_points(group):
        try:
            use(ep.name, ep.load())
        except Exception as exc:  # any error of a plugin is reported, never raised
            message = (f"the {group} plugin {ep.name!r} ({ep.value}) could not be loaded and is "
                       f"left out: {type(exc).__name__}: {exc}")
            failed.append(message)
            warnings.warn(message, PluginWarning, stacklevel=2)
    return failed


def _add_format(name: str, module: Any) -> None:
    from core.formats import FORMATS

    missing = [f for f in ("sniff", "read") if not callable(getattr(module, f, None))]
    if missing:
        raise TypeError(f"a format module needs {' and '.join(missing)}()")
    if name in FORMATS and FORMATS[name] != module.__name__:
        raise ValueError(f"a format named {name!r} already exists")
    FORMATS[name] = module.__name__


def load_formats() -> list[str]:
    """Add the formats of the ``spanscope.formats`` entry points to
    :data:`core.formats.FORMATS` (once); the messages of those that failed to load."""
    return load(FORMATS_GROUP, _add_format)


def reset() -> None:
    """Forget what was found and loaded (tests that install a fake plugin)."""
    global _DECLARED
    _DECLARED = None
    _LOADED.clear()
