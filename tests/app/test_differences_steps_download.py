"""Metric differences: the steps' download names the pair it measures, its level, MAFALDA's
variant and the measure (tour19: ``metric_path_system_a.csv`` named the system alone, so the
file on a slide did not say against what)."""

from __future__ import annotations

from typing import Any

import pytest

from ui import differences as diff
from ui import widgets


def test_the_steps_download_names_the_reference_level_variant_and_measure(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, str, dict[str, Any] | None]] = []
    real = diff.download_menu

    def spy(df: Any, name: str, *, key: str, settings: dict[str, Any] | None = None) -> None:
        seen.append((key, name, settings))
        real(df, name, key=key, settings=settings)

    monkeypatch.setattr(diff, "download_menu", spy)
    at = make_app("pages/differences.py", params={"b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    ((name, settings),) = [(n, s) for k, n, s in seen if k == "dl_diff_steps"]
    assert settings is not None
    file = f"{name}_{widgets.settings_name(settings)}"
    c = diff.Choice("gold", "system_a", settings["level"], settings["mafalda"],
                    settings["measure"])
    assert settings == diff.steps_settings(c)
    assert file == (f"metric_path_system_a_ref-gold_L{c.level}_mafalda-{c.mvariant}_"
                    f"measure-{c.measure}")
