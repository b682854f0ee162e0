"""Annotators page, its downloads: the pairwise matrix's file says what produced it (tour 4
item 5)."""

from __future__ import annotations

from ui import annotators as ann

PAGE = "pages/annotators.py"


def test_the_pairwise_download_names_and_holds_its_settings(make_app, monkeypatch) -> None:
    """Tour 4 item 5: the pairwise matrix's download says its measure, cells, label filter and
    sets, in its file name (short) and in every JSON record's "settings"."""
    from ui import widgets

    calls: dict[str, tuple[str, dict]] = {}
    real = widgets.download_buttons

    def record(df, name, *, key, settings=None):  # -> None
        calls[key] = (name, dict(settings or {}))
        real(df, name, key=key, settings=settings)

    monkeypatch.setattr(ann, "download_buttons", record)
    at = make_app(PAGE, params={ann.K_ANN_MEASURE: "span-f1", ann.K_ANN_CELL: "recall",
                                ann.K_ANN_LABEL: "Fear"})
    assert not at.exception, [e.value for e in at.exception]
    name, settings = calls["dl_ann_matrix"]
    assert settings == {"measure": "span-f1", "cells": "recall", "label": "Fear",
                        "sets": list(at.multiselect(key=ann.K_ANN_SETS).value)}
    assert (name, widgets.settings_name(settings)) == (
        "pairwise", "measure-span-f1_cells-recall_label-Fear")
