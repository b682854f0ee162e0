"""The bootstrap's inputs read the same on every page that draws them, "Bootstrap resamples" and
"Bootstrap seed", each with a help that says what it does (bugleft21: Scores said "Seed" and the
Errors slices "Resamples" and "Seed")."""

from __future__ import annotations

import pytest

from ui import errors as err_ui
from ui import results, state


def _bootstrap_inputs(at) -> dict[str, tuple[str, str]]:
    return {w.key: (w.label, w.help) for w in at.number_input
            if w.key in (state.K_BOOT_N, state.K_SEED, state.K_SLICE_SEED)}


@pytest.mark.parametrize(("page", "tab", "seed_key"), [
    ("pages/scores.py", None, state.K_SEED),
    ("pages/errors.py", err_ui.TABS.index("🧩 Slices and report"), state.K_SLICE_SEED)])
def test_the_bootstrap_inputs_name_the_bootstrap_and_say_what_they_do(
        make_app, page: str, tab: int | None, seed_key: str) -> None:
    at = make_app(page)
    if tab is not None:
        at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[tab]
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    inputs = _bootstrap_inputs(at)
    assert set(inputs) == {state.K_BOOT_N, seed_key}
    assert inputs[state.K_BOOT_N] == ("Bootstrap resamples", results.BOOT_N_HELP)
    label, help_ = inputs[seed_key]
    assert label == "Bootstrap seed" and help_.startswith(results.BOOT_SEED_HELP)
    assert "same intervals" in help_ and "95% interval" in results.BOOT_N_HELP
    no_bare = [w.label for w in at.number_input if w.label in ("Seed", "Resamples")]
    assert no_bare == []
