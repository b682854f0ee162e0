"""The Errors slices and the Scores page each keep their own bootstrap seed: changing one never
changes the other's intervals (tour finding 16)."""

from __future__ import annotations

from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from ui import errors, state


def test_the_slice_seed_leaves_the_scores_seed_alone(make_app: Callable[..., AppTest]) -> None:
    at = make_app("pages/errors.py", params={"seed": "5"})
    at.session_state[errors.K_ERR_TAB] = errors.TABS[-1]  # the slices (lazy tabs)
    at.run()
    assert not at.exception
    assert at.number_input(key=state.K_SLICE_SEED).value == 0
    at.number_input(key=state.K_SLICE_SEED).set_value(7).run()
    assert not at.exception
    assert any("seed 7" in c.value for c in at.caption)
    at.switch_page("pages/scores.py").run()
    assert not at.exception
    assert at.number_input(key=state.K_SEED).value == 5  # the URL's seed, untouched
    assert any("seed 5" in c.value for c in at.caption)
    assert not any("seed 7" in c.value for c in at.caption)
