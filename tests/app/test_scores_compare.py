"""The Scores page's paired comparison and paper table test two systems as ``python -m core
table --compare`` does (:func:`core.analysis.significance.compare`): both tests, two-sided
p-values named as such, the same numbers on the same files, resamples and seed; the Errors
page says what the report holds."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from core.cli import main
from ui import errors as err_ui
from ui import results, state
from ui import scores as scores_ui

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"


def _table_compare(*argv: str) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["table", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                     str(PROP / "system_b.json"), *argv, "--json"]) == 0
    return json.loads(out.getvalue())


def test_the_paired_comparison_is_table_compare(make_app) -> None:
    at = make_app("pages/scores.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    ws = state.load_sample("propaganda")
    got = results.paired_comparison(ws.key, ws, "gold", "system_a", "system_b", "martino",
                                    "semeval2021", None, 1000, 0)
    assert got is not None and "rows" in got
    want = _table_compare("--metric", "martino", "--compare", "system_b", "--samples", "1000",
                          "--seed", "0")
    (other,) = want["comparison"]["systems"]
    assert other["system"] == "system_a"
    rows = {r["measure"]: r for r in got["rows"]}
    assert list(rows) == ["P", "R", "F1"]
    for m, row in rows.items():
        assert (row["difference"], row["low"], row["high"],
                row["p randomization (two-sided)"], row["p bootstrap (two-sided)"]) == (
            pytest.approx(other[f"{m} difference"], abs=1e-12),
            pytest.approx(other[f"{m} difference low"], abs=1e-12),
            pytest.approx(other[f"{m} difference high"], abs=1e-12),
            pytest.approx(other[f"{m} p randomization"], abs=1e-12),
            pytest.approx(other[f"{m} p bootstrap"], abs=1e-12))
    # The page: the sentence names both tests as two-sided, the table holds the three rows.
    text = next(m.value.replace("\\", "") for m in at.markdown
                if "F1(system_a) − F1(system_b)" in m.value.replace("\\", ""))
    assert "two-sided" in text and "approximate randomization" in text
    assert "paired bootstrap" in text and "share of resamples" not in text
    shown = next(df.value for df in at.dataframe if "p bootstrap (two-sided)" in df.value)
    assert list(shown.columns) == list(results.PAIRED_COLUMNS)
    assert list(shown["measure"]) == ["P", "R", "F1"]
    assert shown["p randomization (two-sided)"].tolist() == pytest.approx(
        [rows[m]["p randomization (two-sided)"] for m in ("P", "R", "F1")])


def test_one_document_gives_a_difference_and_no_test() -> None:
    assert scores_ui.paired_sentence("M", "a", "b", {
        "F1 difference": 0.25, "low": None, "high": None, "p randomization": None,
        "p bootstrap": None, "resamples": 10, "seed": 0}).endswith(
        "= **+0.250** (one document: no interval and no test).")
    said = scores_ui.paired_sentence("M", "a", "b", {
        "F1 difference": 0.25, "low": 0.1, "high": 0.4, "p randomization": 1 / 11,
        "p bootstrap": 0.5, "resamples": 10, "seed": 3})
    assert "p < 0.091 (approximate randomization, 10 rounds)" in said
    assert "p = 0.5 (paired bootstrap, 10 resamples)" in said


def test_the_paper_table_marks_what_table_compare_marks(make_app) -> None:
    at = make_app("pages/scores.py", data="sample")
    assert "paper_compare" not in [s.key for s in at.selectbox]  # closed: not drawn
    at.session_state[scores_ui.K_PAPER_OPEN] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    marks = at.selectbox(key="paper_compare")
    assert marks.options[:2] == [scores_ui.PAPER_NO_COMPARE, scores_ui.PAPER_BEST]
    assert marks.value == scores_ui.PAPER_NO_COMPARE  # as before unless asked
    ws = state.load_sample("propaganda")
    systems = ("system_a", "system_b")

    def text(to: str, against: str | None) -> str:
        return scores_ui.paper_table_text(ws.key, ws, "gold", systems, "mafalda", "paper", 2,
                                          200, 1, to, against)

    plain = text("csv", None)
    assert "against" not in plain.splitlines()[0]
    marked = text("csv", "system_b")
    cli = _table_compare("--metric", "mafalda", "--compare", "system_b", "--samples", "200",
                         "--seed", "1")
    (other,) = cli["comparison"]["systems"]
    row = next(line for line in marked.splitlines() if line.startswith("system_a"))
    header = marked.splitlines()[0].split(",")
    cells = dict(zip(header, row.split(","), strict=True))
    assert cells["against"] == "system_b"
    assert float(cells["F1 p randomization"]) == pytest.approx(other["F1 p randomization"],
                                                               abs=1e-3)
    assert ("$^\\dagger$" in text("latex", "system_b")) == any(
        other[f"{m} significant"] for m in ("P", "R", "F1"))
    best = text("markdown", scores_ui.PAPER_BEST)
    assert "ΔF1" in best  # the differences' table, against the best F1
    marks.set_value("system_b").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("†: differs from system" in c.value.replace("\\", "") for c in at.caption)


def test_the_errors_page_says_the_report_holds_the_comparisons(make_app) -> None:
    err_ui.report_job.clear()
    at = make_app("pages/errors.py")
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[4]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = next(c.value for c in at.caption if c.value.startswith("One HTML file"))
    assert "which differences are real" in said and "two-sided p-values" in said
    assert "disagree" in said and "worst documents" in said


def test_a_bootstrap_p_not_given_says_why_in_the_sentence_and_the_caption(make_app) -> None:
    """Tour 16: on the bundled sample (10 documents) the paired comparison said "p —
    (paired bootstrap, 1,000 resamples)" and its table's bootstrap column was all dashes,
    with no word why (fewer than FEW_DOCUMENTS documents: the bootstrap's p is
    anti-conservative there, as ``table --compare`` says)."""
    from core.metrics.stats import FEW_DOCUMENTS

    said = scores_ui.paired_sentence("M", "a", "b", {
        "F1 difference": 0.25, "low": 0.1, "high": 0.4, "p randomization": 1 / 11,
        "p bootstrap": None, "resamples": 10, "seed": 3})
    assert "p —" not in said
    assert "p < 0.091 (approximate randomization, 10 rounds)" in said
    assert f"no paired-bootstrap p with fewer than {FEW_DOCUMENTS} documents" in said
    at = make_app("pages/scores.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    text = next(m.value.replace("\\", "") for m in at.markdown
                if "F1(system_a) − F1(system_b)" in m.value.replace("\\", ""))
    assert "p —" not in text and "anti-conservative" in text
    shown = next(df.value for df in at.dataframe if "p bootstrap (two-sided)" in df.value)
    assert shown["p bootstrap (two-sided)"].isna().all()  # 10 documents: drawn as —
    assert any(f"— in the bootstrap column: fewer than {FEW_DOCUMENTS} documents" in c.value
               for c in at.caption)
