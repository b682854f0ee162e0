"""``python -m core table``: the numbers are ``score``'s, the F1 interval the Scores page's, the
LaTeX compiles (where a TeX engine is installed; its structure is checked everywhere), names are
escaped in every format, the best value of each column is bold."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from core.analysis.table import latex_escape, score_table, to_csv, to_latex, to_markdown
from core.cli import main
from core.formats import ReadOptions, load_path
from core.metrics import registry, stats
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"
MAF = ROOT / "sample_data" / "mafalda"
EVIL = "gpt-3.5_level_2 & 50% #1 {x} $y$ ~a^b"
"""A system name with every LaTeX special character a file name can hold."""
TEX_ENGINES = ("pdflatex", "lualatex", "xelatex", "tectonic")


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(["table", *argv]) == 0
    return capsys.readouterr().out


def _score(gold: Path, pred: Path, metric: str, *extra: str) -> dict:
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert main(["score", str(gold), str(pred), "--metric", metric, "--json", *extra]) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize(("gold", "preds", "metric", "extra"), [
    (PROP / "gold.json", ["system_a.json", "system_b.json"], "martino", []),
    (MAF / "gold.jsonl", ["system_a.jsonl", "system_llm.jsonl"], "mafalda", ["--level", "1"]),
])
def test_values_are_scores_and_f1_interval_is_the_scores_pages(
        capsys: pytest.CaptureFixture[str], gold: Path, preds: list[str], metric: str,
        extra: list[str]) -> None:
    paths = [gold.parent / p for p in preds]
    got = json.loads(_run(capsys, [str(gold), *map(str, paths), "--metric", metric, "--json",
                                   "--samples", "300", "--seed", "7", *extra]))
    assert got["metric"] == metric and got["seed"] == 7 and got["resamples"] == 300
    for path, row in zip(paths, got["systems"], strict=True):
        want = _score(gold, path, metric, *extra)
        assert (row["P"], row["R"], row["F1"]) == pytest.approx(
            (want["precision"], want["recall"], want["f1"]))
        # The Scores page's interval: the score result's own bootstrap table, same seed.
        entry = registry.get(metric)
        g = load_path(gold, options=ReadOptions(role="gold")).set
        p = load_path(path, options=ReadOptions(role="system", gold_doc_ids=g.doc_ids)).set
        level = int(extra[-1]) if extra else None
        result = entry.score_sets(g, p, level=level)
        boot = result.bootstrap_table()
        iv = stats.bootstrap(boot.table, boot.statistic, n_resamples=300, seed=7)
        assert (row["F1 low"], row["F1 high"]) == pytest.approx((iv.low, iv.high))
        assert all(row[f"{m} low"] <= row[f"{m} high"] for m in ("P", "R", "F1"))


def _evil_table(n_resamples: int = 200):  # -> ScoreTable
    gold = AnnotationSet("gold_{ref}", {"d1": (Span(0, 4, "A"), Span(6, 9, "B")),
                                        "d2": (Span(0, 3, "B"),)})
    good = AnnotationSet(EVIL, {"d1": (Span(0, 4, "A"), Span(6, 9, "B")), "d2": ()}, "system")
    bad = AnnotationSet("=cmd|x", {"d1": (Span(0, 4, "B"),), "d2": (Span(0, 3, "B"),)},
                        "system")
    return score_table(gold, [good, bad], metric="martino", n_resamples=n_resamples,
                       command="python -m core table a_b.json")


def _latex_structure(tex: str, n_rows: int) -> list[str]:
    """The checks a TeX engine would make that matter here: booktabs rules in order, balanced
    environments and braces, one row per system with every column, no unescaped special."""
    body = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
    lines = body.splitlines()
    order = [lines.index(r) for r in (r"\toprule", r"\midrule", r"\bottomrule")]
    assert order == sorted(order)
    for env in ("table", "tabular"):
        assert body.count(rf"\begin{{{env}}}") == body.count(rf"\end{{{env}}}") == 1
    unescaped = re.sub(r"\\[{}]", "", body)
    assert unescaped.count("{") == unescaped.count("}")
    rows = lines[order[1] + 1:order[2]]
    assert len(rows) == n_rows
    for row in rows:
        cells = re.split(r"(?<!\\)&", row.removesuffix(r" \\"))
        assert len(cells) == 4, row
        stripped = re.sub(r"\\[a-z]+|\\[&%$#_{}]|[{}]", "", row.removesuffix(r" \\"))
        assert not re.search(r"[%$#_^~]", stripped), row  # every special escaped
    return rows


def test_latex_structure_escaping_bold_and_caption() -> None:
    t = _evil_table()
    tex = to_latex(t)
    rows = _latex_structure(tex, 2)
    assert rows[0].startswith(latex_escape(EVIL) + " & ")
    assert r"gpt-3.5\_level\_2 \& 50\% \#1 \{x\} \$y\$ \textasciitilde{}a\textasciicircum{}b" \
        in rows[0]
    # The perfect system is best in P, R and F1; the other is bold nowhere.
    assert rows[0].count(r"\textbf{") == 3 and r"\textbf{" not in rows[1]
    caption = next(line for line in tex.splitlines() if line.startswith(r"\caption{"))
    for fact in ("Da San Martino", "martino", "variant semeval2021", "no levels",
                 "200 resamples", "seed 0", r"\texttt{gold\_\{ref\}}", "95\\%"):
        assert fact in caption, fact
    assert r"\usepackage{booktabs}" in tex


def test_ties_at_the_printed_precision_are_all_bold() -> None:
    t = _evil_table()
    twin = t.rows[0].__class__("twin", dict(t.rows[0].values), dict(t.rows[0].intervals))
    tied = t.__class__(t.metric, t.variant, t.level, t.reference, t.documents, t.n_resamples,
                       t.seed, t.confidence, (t.rows[0], twin, t.rows[1]))
    assert tied.best("F1", 3) == {EVIL, "twin"}
    assert to_markdown(tied).count("**") == 2 * 2 * 3


def test_latex_compiles_where_a_tex_engine_is_installed(tmp_path: Path) -> None:
    """Compiled with the first TeX engine found; where none is installed (CI has none), the
    structure a compiler would refuse is checked instead (as in every run, above)."""
    tex = to_latex(_evil_table())
    _latex_structure(tex, 2)
    engine = next((e for e in TEX_ENGINES if shutil.which(e)), None)
    if engine is None:
        return
    doc = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
           "\\begin{document}\n" + tex + "\\end{document}\n")
    (tmp_path / "t.tex").write_text(doc, encoding="utf-8")
    argv = ([engine, "t.tex"] if engine == "tectonic"
            else [engine, "-interaction=nonstopmode", "-halt-on-error", "t.tex"])
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "t.pdf").stat().st_size > 0


def test_markdown_escapes_names_and_has_a_caption() -> None:
    md = to_markdown(_evil_table())
    lines = md.splitlines()
    assert lines[0] == "| System | P | R | F1 |" and lines[1] == "|:---|---:|---:|---:|"
    assert lines[3].startswith(r"| =cmd\|x | ")  # the | of the name does not end the cell
    assert len(re.split(r"(?<!\\)\|", lines[3])) == 6
    assert lines[2].count("**") == 6
    assert lines[-1].startswith("Table: P, R and F1 of each system under Da San Martino")
    assert "seed 0" in lines[-1] and r"gold\_{ref}" in lines[-1]


def test_csv_is_tidy_full_precision_and_inert() -> None:
    t = _evil_table()
    rows = list(csv.DictReader(io.StringIO(to_csv(t))))
    assert [r["system"] for r in rows] == [EVIL, "'=cmd|x"]  # a formula made inert
    assert float(rows[0]["F1"]) == t.rows[0].values["F1"]
    assert float(rows[1]["F1 low"]) == t.rows[1].intervals["F1"][0]
    assert rows[0]["best"] == "P;R;F1" and rows[1]["best"] == ""
    assert {r["metric"] for r in rows} == {"martino"} and rows[0]["seed"] == "0"


def test_cli_writes_the_file_and_names_it(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    evil = tmp_path / f"{EVIL}.json"
    shutil.copy(PROP / "system_b.json", evil)
    out = tmp_path / "t.tex"
    assert main(["table", str(PROP / "gold.json"), str(PROP / "system_a.json"), str(evil),
                 "--metric", "martino", "--to", "latex", "--samples", "100",
                 "--output", str(out)]) == 0
    assert capsys.readouterr().out == ""
    tex = out.read_text(encoding="utf-8")
    rows = _latex_structure(tex, 2)
    assert rows[1].startswith(latex_escape(EVIL) + " & ")
    assert "seed 0" in tex and "100 resamples" in tex


def test_same_seed_same_table_and_bad_options_exit_with_a_message(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(PROP / "gold.json"), str(PROP / "system_a.json"), "--metric", "martino",
            "--to", "markdown", "--samples", "100", "--seed", "3"]
    assert _run(capsys, argv) == _run(capsys, argv)
    assert main(["table", *argv[:-4], "--samples", "0"]) == 1
    assert "--samples must be positive" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["table", *argv[:2], "--metric", "nervaluate"])
    assert exit_.value.code == 2
    assert main(["table", *argv[:2], "--metric", "martino", "--variant", "mega"]) == 2
    assert "variant" in capsys.readouterr().err


def test_the_command_line_comment_names_level_only_for_a_metric_with_levels() -> None:
    import argparse

    from core.cli.table import command_line

    base = {"gold": "g.json", "preds": ["p.json"], "variant": None, "level": 2,
            "samples": 10, "seed": 3}
    assert "--level" not in command_line(argparse.Namespace(**base, metric="martino"))
    assert "--level 2" in command_line(argparse.Namespace(**base, metric="mafalda"))


FIGURE1 = ROOT / "sample_data" / "figure1"


def test_one_document_has_no_interval_in_any_form_and_a_note(
        capsys: pytest.CaptureFixture[str]) -> None:
    """One document: every resample is that document, so no interval (— as on the Scores page,
    null bounds in JSON, as ``score --json`` writes an undefined value), and a note."""
    argv = [str(FIGURE1 / "gold.json"), str(FIGURE1 / "pred_s1.json"), "--metric", "martino",
            "--samples", "50"]
    assert main(["table", *argv, "--to", "markdown"]) == 0
    out, err = capsys.readouterr()
    row = out.splitlines()[2]
    assert row == "| pred\\_s1 | **1.000** [—] | **0.375** [—] | **0.545** [—] |"
    assert err.splitlines() == [
        "note: only 1 document: no interval (—), every bootstrap resample is that document"]
    rows = _latex_structure(_run(capsys, argv), 1)
    assert rows[0].count(r"{\scriptsize[---]}") == 3 and "[1.000, 1.000]" not in rows[0]
    csv_row = next(csv.DictReader(io.StringIO(_run(capsys, [*argv, "--to", "csv"]))))
    assert [csv_row[f"{m} {s}"] for m in ("P", "R", "F1") for s in ("low", "high")] == [""] * 6
    got = json.loads(_run(capsys, [*argv, "--json"]))
    system = got["systems"][0]
    assert got["documents"] == 1
    assert [system[f"{m} {s}"] for m in ("P", "R", "F1") for s in ("low", "high")] == [None] * 6
    assert "(1 document);" in _run(capsys, argv) and "1 documents" not in _run(capsys, argv)
    want = _score(FIGURE1 / "gold.json", FIGURE1 / "pred_s1.json", "martino")
    assert (system["P"], system["R"], system["F1"]) == (
        want["precision"], want["recall"], want["f1"])


def test_three_documents_keep_their_intervals_and_get_a_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("gold.json", "system_a.json"):
        docs = json.loads((PROP / name).read_text(encoding="utf-8"))
        (tmp_path / name).write_text(json.dumps(docs[:3]), encoding="utf-8")
    argv = [str(tmp_path / "gold.json"), str(tmp_path / "system_a.json"), "--metric",
            "martino", "--samples", "200", "--to", "markdown"]
    assert main(["table", *argv]) == 0
    out, err = capsys.readouterr()
    assert re.search(r"\*?\*?\d\.\d{3}\*?\*? \[\d\.\d{3}, \d\.\d{3}\]", out.splitlines()[2])
    assert "—" not in out and "(3 documents)" in out
    assert err.splitlines()[-1] == (
        "note: only 3 documents (fewer than 20): the bootstrap resamples documents, so the "
        "intervals say little")
    system = json.loads(_run(capsys, [*argv, "--json"]))["systems"][0]
    assert all(system[f"{m} low"] <= system[m] <= system[f"{m} high"] for m in ("P", "R", "F1"))
    assert system["F1 low"] < system["F1 high"]


def test_twenty_documents_print_no_note() -> None:
    from core.analysis.table import few_documents_note

    assert few_documents_note(stats.FEW_DOCUMENTS) is None
    assert few_documents_note(stats.FEW_DOCUMENTS - 1) is not None


def test_sort_orders_the_rows_by_a_measure_and_keeps_every_number(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--sort f1``: highest F1 first, the same rows and comparisons as in the given order,
    the option in the command the table names (docs/report.md)."""
    argv = [str(MAF / "gold.jsonl"), str(MAF / "system_b.jsonl"), str(MAF / "system_a.jsonl"),
            str(MAF / "system_llm.jsonl"), "--metric", "mafalda", "--level", "1",
            "--samples", "200", "--json", "--compare"]
    given = json.loads(_run(capsys, argv))
    ranked = json.loads(_run(capsys, [*argv, "--sort", "f1"]))
    f1 = [r["F1"] for r in ranked["systems"]]
    assert f1 == sorted(f1, reverse=True)
    assert [r["system"] for r in given["systems"]] != [r["system"] for r in ranked["systems"]]
    assert sorted(map(json.dumps, given["systems"])) == sorted(map(json.dumps, ranked["systems"]))
    assert ranked["comparison"]["against"] == given["comparison"]["against"]
    against = ranked["comparison"]["against"]
    order = [r["system"] for r in ranked["systems"] if r["system"] != against]
    assert [c["system"] for c in ranked["comparison"]["systems"]] == order
    assert sorted(map(json.dumps, given["comparison"]["systems"])) == sorted(
        map(json.dumps, ranked["comparison"]["systems"]))
    latex = _run(capsys, [*argv[:-2], "--sort", "p"])
    assert "--sort p" in latex.splitlines()[0]
    assert "--sort" not in _run(capsys, argv[:-2]).splitlines()[0]  # given: as before
