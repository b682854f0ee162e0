"""Learn, Figure 1 (tour 5): the page explains the paper's 6/16 beside its 9/24 with the right
arithmetic, and offers the example's files (sample_data/figure1) as a download."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from fractions import Fraction

from streamlit.testing.v1 import AppTest

from core.teaching import scenarios
from ui import learn as learn_ui

PAGE = "pages/learn.py"


def test_figure1_s1_explains_six_sixteenths_and_offers_the_files(
        make_app: Callable[..., AppTest]) -> None:
    at = make_app(PAGE, data="handmade", params={learn_ui.K_SCENARIO: "figure1-s1"})
    assert not at.exception, [e.value for e in at.exception]
    (hint,) = [x.value for x in at.info if "C(s1, t1, |t1|)" in x.value]
    assert "|s1 ∩ t1| / |t1| = 9/24 = 0.375" in hint
    assert "C(t1, s1, |t1|) = 6/16" in hint and "3/8 = 0.375" in hint
    assert "not the same counts" in hint
    # the arithmetic the hint states
    assert Fraction(9, 24) == Fraction(6, 16) == Fraction(3, 8) == Fraction(0.375)
    t1, s1 = scenarios.T1, scenarios.S1
    assert (t1.end - t1.start, min(t1.end, s1.end) - max(t1.start, s1.start)) == (24, 9)
    (button,) = [b for b in at.get("download_button") if "example's files" in b.proto.label]
    assert button.proto.url  # served by the page's media store
    data = learn_ui.figure1_zip(str(learn_ui.FIGURE1_DIR))
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {"figure1/README.md", "figure1/gold.json", "figure1/pred_s1.json"} <= set(names)


def test_other_scenarios_offer_no_figure1_files(make_app: Callable[..., AppTest]) -> None:
    at = make_app(PAGE, data="handmade", params={learn_ui.K_SCENARIO: "duplicates"})
    assert not at.exception, [e.value for e in at.exception]
    assert not [b for b in at.get("download_button") if "example's files" in b.proto.label]
