"""Annotators page: γ's seed and chance samples sit beside the measure only when γ is chosen;
with κ (or any other measure) they are folded in a closed expander, still setting the γ values
shown below (issue 16 item 9)."""

from __future__ import annotations

import pytest

from ui import annotators as ann

PAGE = "pages/annotators.py"


def _in_expander(at, key: str) -> bool:
    return any(key in {w.key for w in e.number_input} for e in at.expander)


@pytest.mark.parametrize(("measure", "folded"), [("char-kappa", True), ("span-f1", True),
                                                 ("gamma", False), ("gamma-cat", False)])
def test_gamma_settings_beside_the_measure_only_for_gamma(make_app, measure: str,
                                                          folded: bool) -> None:
    at = make_app(PAGE, data="sample", params={ann.K_ANN_MEASURE: measure})
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key=ann.K_ANN_SEED).value == 0
    assert _in_expander(at, ann.K_ANN_SEED) is folded
    assert _in_expander(at, ann.K_ANN_SAMPLES) is folded
    if folded:
        box = next(e for e in at.expander if "γ settings" in e.label)
        assert not box.proto.expanded


def test_a_seed_set_under_gamma_is_kept_when_kappa_is_chosen(make_app) -> None:
    at = make_app(PAGE, data="sample", params={ann.K_ANN_MEASURE: "gamma"})
    at.number_input(key=ann.K_ANN_SEED).set_value(7).run()
    at.selectbox(key=ann.K_ANN_MEASURE).set_value("char-kappa").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key=ann.K_ANN_SEED).value == 7
