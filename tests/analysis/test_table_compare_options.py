"""``table``'s comparison options: the p-value at the floor of its rounds is printed as a bound
that holds, and ``--test``/``--alpha`` without ``--compare`` are named, not silently ignored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.analysis.table import _p_text
from core.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"
SYSTEMS = [str(PROP / "gold.json"), str(PROP / "system_a.json"), str(PROP / "system_b.json"),
           "--metric", "martino"]


@pytest.mark.parametrize(("rounds", "text"), [(300, "p ≤ 0.0034"), (1000, "p ≤ 0.001"),
                                              (999, "p ≤ 0.001"), (200, "p ≤ 0.005")])
def test_p_at_the_floor_prints_a_bound_that_holds(rounds: int, text: str) -> None:
    """p = 1/(R + 1) is the floor itself: "p < 0.0033" said less than it (1/301 = 0.00332)."""
    floor = 1 / (rounds + 1)
    assert _p_text(floor, rounds) == text
    assert float(text.split()[-1]) >= floor


def test_p_above_the_floor_prints_its_value() -> None:
    assert _p_text(0.0123, 300) == "p = 0.012"
    assert _p_text(None, 300) == "p —"


@pytest.mark.parametrize(("extra", "named"), [
    (["--test", "bootstrap"], "--test ignored: it marks"),
    (["--alpha", "0.01"], "--alpha ignored: it marks"),
    (["--test", "bootstrap", "--alpha", "0.01"], "--test and --alpha ignored: they mark")])
def test_test_and_alpha_without_compare_are_named(
        capsys: pytest.CaptureFixture[str], extra: list[str], named: str) -> None:
    assert main(["table", *SYSTEMS, "--samples", "50", "--to", "markdown", *extra]) == 0
    captured = capsys.readouterr()
    assert f"warning: {named} the differences of --compare, which was not given" in captured.err
    assert main(["table", *SYSTEMS, "--samples", "50", "--to", "markdown"]) == 0
    assert capsys.readouterr().out == captured.out  # the table itself is unchanged


def test_no_warning_with_compare_or_without_the_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", *SYSTEMS, "--samples", "50", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert not any("--compare" in w for w in plain.get("warnings", []))
    assert main(["table", *SYSTEMS, "--samples", "50", "--json", "--compare", "--test",
                 "bootstrap", "--alpha", "0.1"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert not any("ignored" in w for w in compared.get("warnings", []))
    assert compared["comparison"]["test"] == "bootstrap"


@pytest.mark.parametrize("to", ["markdown", "latex"])
def test_bootstrap_on_few_documents_says_why_there_is_no_p(
        capsys: pytest.CaptureFixture[str], to: str) -> None:
    """Ten documents under ``--test bootstrap``: no p-value and no dagger, and the table says
    why instead of an unexplained ``p —``."""
    assert main(["table", *SYSTEMS, "--samples", "300", "--to", to, "--compare", "--test",
                 "bootstrap"]) == 0
    out = capsys.readouterr().out
    assert "no p-value with fewer than 20 documents, where the bootstrap's is" in out
    assert out.count("†" if to == "markdown" else r"$^\dagger$") == 1  # the caption's only
    assert main(["table", *SYSTEMS, "--samples", "300", "--to", to, "--compare"]) == 0
    assert "no p-value" not in capsys.readouterr().out  # randomization: a p-value on any corpus
