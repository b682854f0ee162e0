"""Annotators page: γ's seed and chance samples sit beside the measure only when γ is chosen
(issue 16 item 9); with κ (or any other measure) they are not drawn at all, their values kept
for the γ values shown below: the value the inputs had, or a link's (issue 29, tenth pass)."""

from __future__ import annotations

import time

import pytest

from tests.app.conftest import annotator_tiles
from ui import annotators as ann

PAGE = "pages/annotators.py"


def _gamma_notes(at) -> str:
    """The γ tile's notes once the background γ is shown (AppTest does not poll)."""
    deadline = time.time() + 90
    while annotator_tiles(at)["γ"][0] == "…":
        assert time.time() < deadline, "γ did not finish"
        time.sleep(0.3)
        at.run()
    return " ".join(annotator_tiles(at)["γ"][2])


def _drawn(at, key: str) -> bool:
    return key in {w.key for w in at.number_input}


@pytest.mark.parametrize(("measure", "drawn"), [("char-kappa", False), ("span-f1", False),
                                                ("gamma", True), ("gamma-cat", True)])
def test_gamma_settings_drawn_only_for_gamma(make_app, measure: str, drawn: bool) -> None:
    at = make_app(PAGE, data="sample", params={ann.K_ANN_MEASURE: measure})
    assert not at.exception, [e.value for e in at.exception]
    assert _drawn(at, ann.K_ANN_SEED) is drawn
    assert _drawn(at, ann.K_ANN_SAMPLES) is drawn
    assert not any("γ settings" in e.label for e in at.expander)
    if drawn:
        assert at.number_input(key=ann.K_ANN_SEED).value == ann.GAMMA_SEED
        assert at.number_input(key=ann.K_ANN_SAMPLES).value == ann.GAMMA_SAMPLES


def test_a_seed_set_under_gamma_is_kept_when_kappa_is_chosen(make_app) -> None:
    at = make_app(PAGE, data="sample", params={ann.K_ANN_MEASURE: "gamma"})
    at.number_input(key=ann.K_ANN_SEED).set_value(7).run()
    at.number_input(key=ann.K_ANN_SAMPLES).set_value(12).run()
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("char-kappa").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not _drawn(at, ann.K_ANN_SEED)
    # the γ tile, computed with the kept settings, says which
    assert "12 samples · seed 7" in _gamma_notes(at)
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("gamma-cat").run()
    assert at.number_input(key=ann.K_ANN_SEED).value == 7
    assert at.number_input(key=ann.K_ANN_SAMPLES).value == 12


def test_a_links_gamma_settings_apply_under_kappa_and_fill_the_inputs(make_app) -> None:
    at = make_app(PAGE, data="sample", params={ann.K_ANN_MEASURE: "char-kappa",
                                               ann.K_ANN_SEED: "5", ann.K_ANN_SAMPLES: "9"})
    assert not at.exception, [e.value for e in at.exception]
    assert not _drawn(at, ann.K_ANN_SEED)
    assert "9 samples · seed 5" in _gamma_notes(at)
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("gamma").run()
    assert at.number_input(key=ann.K_ANN_SEED).value == 5
    assert at.number_input(key=ann.K_ANN_SAMPLES).value == 9
