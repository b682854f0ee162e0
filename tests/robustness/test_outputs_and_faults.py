"""Issue 28 §2-§4: bombs, CSV formulas and faults while writing.

Outputs are written whole or not at all (``core.formats.atomic``); CSV cells a spreadsheet
would run are quoted and read back as they were (``core.formats.csvsafe``); an interrupt ends a
command with one line and exit 130; the dashboard reads Parquet under a budget and zips under
one budget across nesting.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from core.formats import ReadOptions, TableBudget, archive, load_files
from core.formats.atomic import commit
from core.model.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "propaganda"
ANNOTATORS = [str(SAMPLE / f"annotator_{i}.json") for i in (1, 2, 3)]
THREE = ROOT / "tests" / "analysis" / "data" / "three.csv"
FORMULAS = ['=HYPERLINK("http://example.org","x")', "+1+1", "@SUM(1+1)*cmd|'/C calc'!A0",
            "-2", "\tx"]


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---- CSV formulas ----------------------------------------------------------------------------


def _formula_csv(tmp_path: Path) -> Path:
    path = tmp_path / "evil.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["doc_id", "start", "end", "label"])
        for i, value in enumerate(FORMULAS):
            w.writerow([value, 0, 1, value])
            w.writerow([f"d{i}", 0, 1, value])
    return path


def _cells(path: Path) -> list[str]:
    with path.open(encoding="utf-8", newline="") as f:
        return [c for row in csv.reader(f) for c in row]


def test_convert_to_spans_csv_quotes_every_formula_cell(cli, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    assert cli("convert", str(_formula_csv(tmp_path)), str(out), "--to", "spans-csv").rc == 0
    cells = _cells(out)
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")
                or (c.startswith("-") and not c.lstrip("-").isdigit())]
    assert "'=HYPERLINK(\"http://example.org\",\"x\")" in cells


def test_a_value_that_starts_with_a_quoted_formula_survives_the_round_trip(cli,
                                                                         tmp_path: Path) -> None:
    """A label read from JSON as ``'=a`` is written ``''=a`` and read back as ``'=a``."""
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"doc_id": "1", "start": 0, "end": 1, "label": "'=a"}) + "\n",
                      encoding="utf-8")
    out = tmp_path / "out.csv"
    assert cli("convert", str(source), str(out), "--to", "spans-csv").rc == 0
    assert "''=a" in _cells(out)
    assert {s.label for _, spans in load_files({"out.csv": out.read_bytes()}).set
            for s in spans} == {"'=a"}


def test_spans_csv_round_trip_gives_back_the_values_as_read(cli, tmp_path: Path) -> None:
    out, again = tmp_path / "out.csv", tmp_path / "again.csv"
    assert cli("convert", str(_formula_csv(tmp_path)), str(out), "--to", "spans-csv").rc == 0
    assert cli("convert", str(out), str(again), "--to", "spans-csv").rc == 0
    assert out.read_bytes() == again.read_bytes()
    loaded = load_files({"out.csv": out.read_bytes()})
    labels = {s.label for _, spans in loaded.set for s in spans}
    assert labels == set(FORMULAS)


def test_csv_raw_writes_the_cells_as_they_are(cli, tmp_path: Path) -> None:
    out = tmp_path / "raw.csv"
    assert cli("convert", str(_formula_csv(tmp_path)), str(out), "--to", "spans-csv",
               "--csv-raw").rc == 0
    assert set(FORMULAS) <= set(_cells(out))


def test_adjudicate_quotes_the_consensus_csv(cli, tmp_path: Path) -> None:
    source = tmp_path / "three.csv"
    source.write_text(THREE.read_text("utf-8").replace("Doubt", "=1+1"), encoding="utf-8")
    out = tmp_path / "consensus.csv"
    run = cli("adjudicate", str(source), "--min-agree", "2", "--match", "exact", "-o", str(out),
              "--to", "spans-csv")
    assert run.rc == 0, run.err
    assert "'=1+1" in _cells(out) and "=1+1" not in _cells(out)


def test_adjudicate_quotes_the_decisions_csv_unless_raw(cli, tmp_path: Path) -> None:
    source = tmp_path / "three.csv"
    source.write_text(THREE.read_text("utf-8").replace("Doubt", "=1+1"), encoding="utf-8")
    for raw in (False, True):
        dec = tmp_path / f"dec{raw}.csv"
        run = cli("adjudicate", str(source), "--min-agree", "2", "--match", "exact", "-o",
                  str(tmp_path / f"c{raw}.csv"), "--to", "spans-csv", "--decisions", str(dec),
                  *(["--csv-raw"] if raw else []))
        assert run.rc == 0, run.err
        assert ("=1+1" in _cells(dec)) is raw and ("'=1+1" in _cells(dec)) is not raw


def test_dashboard_csv_downloads_quote_formula_cells() -> None:
    import pandas as pd

    from ui.widgets import safe_csv

    df = pd.DataFrame({"document": FORMULAS, "F1": [-0.5] * len(FORMULAS),
                       "=label": ["ok"] * len(FORMULAS)})
    rows = list(csv.reader(io.StringIO(safe_csv(df))))
    assert rows[0] == ["document", "F1", "'=label"]
    assert [r[0] for r in rows[1:]] == ["'" + v for v in FORMULAS]
    assert {r[1] for r in rows[1:]} == {"-0.5"}  # numbers stay numbers


# ---- outputs written whole or not at all -------------------------------------------------------


def test_disk_full_names_the_file(cli, clean_failure) -> None:
    run = cli("convert", str(SAMPLE / "gold.json"), "/dev/full", "--to", "semeval2021")
    clean_failure(run)
    assert run.err == "error: /dev/full: cannot write it: No space left on device\n"


@pytest.mark.parametrize(("to", "name"), [("semeval2021", "out.json"), ("spans-csv", "out.csv"),
                                          ("parquet", "out.parquet"), ("brat", "out")])
def test_a_failed_write_leaves_neither_output_nor_temporary(cli, clean_failure, monkeypatch,
                                                            tmp_path: Path, to: str,
                                                            name: str) -> None:
    import core.formats.atomic as atomic

    real = atomic._write
    calls = []

    def full(path: Path, content: str | bytes, *, exclusive: bool = True) -> None:
        calls.append(path)
        real(path, content[: len(content) // 2], exclusive=exclusive)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "_write", full)
    run = cli("convert", str(SAMPLE / "gold.json"), str(tmp_path / name), "--to", to)
    clean_failure(run)
    assert f"{tmp_path / name}: cannot write it: No space left on device" in run.err
    assert calls and os.listdir(tmp_path) == []


def test_an_existing_output_is_kept_when_the_new_one_fails(monkeypatch, tmp_path: Path) -> None:
    import core.formats.atomic as atomic

    out = tmp_path / "out.json"
    out.write_text("previous", encoding="utf-8")

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", fail)
    with pytest.raises(FormatError, match=r"out\.json: cannot write it"):
        commit({out: "new"})
    assert out.read_text("utf-8") == "previous" and _leftovers(tmp_path) == []


def test_an_existing_folder_keeps_its_other_files(tmp_path: Path) -> None:
    out = tmp_path / "brat"
    out.mkdir()
    (out / "mine.txt").write_text("keep", encoding="utf-8")
    commit({out: {"1.ann": "T1\tX 0 1\ta\n", "sub/2.ann": ""}})
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "1.ann", "mine.txt", "sub/2.ann"]
    assert _leftovers(tmp_path) == []


def test_adjudicate_checks_every_output_before_computing(cli, clean_failure, monkeypatch,
                                                         tmp_path: Path) -> None:
    import core.analysis.consensus as consensus

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the consensus was computed")

    monkeypatch.setattr(consensus, "consensus", never)
    out = tmp_path / "c.json"
    run = cli("adjudicate", *ANNOTATORS, "--min-agree", "2", "-o", str(out), "--to",
              "semeval2021", "--decisions", "/proc/nope/dec.csv")
    clean_failure(run)
    assert run.err.startswith("error: /proc/nope/dec.csv: cannot write it")
    assert not out.exists()


def test_adjudicate_writes_all_outputs_or_none(cli, clean_failure, monkeypatch,
                                               tmp_path: Path) -> None:
    import core.formats.atomic as atomic

    real = atomic._place

    def fail_second(out: Path, temp: Path | None, content: object) -> None:
        if out.suffix == ".csv":
            raise OSError(5, "Input/output error")
        real(out, temp, content)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic, "_place", fail_second)
    run = cli("adjudicate", *ANNOTATORS, "--min-agree", "2", "--match", "exact", "-o",
              str(tmp_path / "c.json"), "--to", "semeval2021", "--decisions",
              str(tmp_path / "d.csv"))
    clean_failure(run)
    # the consensus was renamed before the failure; the decisions were not: the temporaries
    # are gone, and the failure is named
    assert "d.csv: cannot write it: Input/output error" in run.err
    assert _leftovers(tmp_path) == []


def test_ctrl_c_is_one_line_and_exit_130(cli, monkeypatch, tmp_path: Path) -> None:
    import core.analysis.consensus as consensus

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(consensus, "consensus", interrupted)
    run = cli("adjudicate", *ANNOTATORS, "--min-agree", "2", "-o", str(tmp_path / "c.json"),
              "--to", "semeval2021", "--decisions", str(tmp_path / "d.csv"))
    assert run.rc == 130 and run.err.count("\n") == 1 and "Traceback" not in run.err
    assert os.listdir(tmp_path) == []


def test_sigterm_while_adjudicate_writes_leaves_no_partial_output(tmp_path: Path) -> None:
    """A real SIGTERM, sent while the decisions CSV is being written (after the consensus
    file's temporary is complete)."""
    script = textwrap.dedent("""
        import sys, time
        import core.formats.atomic as atomic
        real = atomic._write
        def slow(path, content, *, exclusive=True):
            if str(path).endswith(".tmp") and ".d.csv." in str(path):
                print("writing", flush=True)
                time.sleep(60)
            real(path, content, exclusive=exclusive)
        atomic._write = slow
        from core.cli import main
        sys.exit(main(sys.argv[1:]))
    """)
    proc = subprocess.Popen(
        [sys.executable, "-c", script, "adjudicate", *ANNOTATORS, "--min-agree", "2", "--match",
         "exact", "-o", str(tmp_path / "c.json"), "--to", "semeval2021", "--decisions",
         str(tmp_path / "d.csv")], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline() == "writing\n"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "error: interrupted; no output was left half written\n"
    assert os.listdir(tmp_path) == []


def test_report_checks_its_output_before_computing(cli, clean_failure, tmp_path: Path) -> None:
    run = cli("report", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"), "-o",
              "/proc/nope/r.html")
    clean_failure(run)
    assert run.err.startswith("error: /proc/nope/r.html: cannot write it")


@pytest.mark.parametrize("command", [
    ["report", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"), "-o", "{out}/r.html"],
    ["convert", str(SAMPLE / "gold.json"), "{out}/x.jsonl", "--to", "doccano"],
    ["convert", str(SAMPLE / "gold.json"), "{out}/brat", "--to", "brat"],
    ["convert", str(SAMPLE / "gold.json"), "{out}/shards", "--to", "parquet", "--shards", "2"],
    ["adjudicate", *ANNOTATORS, "--min-agree", "2", "-o", "{out}/c.json", "--to",
     "semeval2021"],
    ["adjudicate", *ANNOTATORS, "--min-agree", "2", "-o", str(SAMPLE / "c.json"), "--to",
     "semeval2021", "--decisions", "{out}/d.csv"],
    ["table", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"), "--metric", "martino",
     "-o", "{out}/t.tex"],
])
def test_an_output_in_a_missing_folder_is_refused_not_created(cli, clean_failure, command,
                                                              tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "deeper"
    run = cli(*(a.replace("{out}", str(missing)) for a in command))
    clean_failure(run)
    target = next(a for a in command if a.startswith("{out}")).replace("{out}", str(missing))
    assert run.err == (f"error: {target}: cannot write it: the folder {missing} does not "
                       "exist (create it first)\n")
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("command", [
    ["table", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"), "--metric", "martino",
     "-o", "{out}/t.tex"],
    ["report", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"), "-o", "{out}/r.html"],
    ["adjudicate", *ANNOTATORS, "--min-agree", "2", "-o", "{out}/c.json", "--to",
     "semeval2021"],
])
def test_an_unwritable_output_is_refused_before_anything_is_read(cli, clean_failure, monkeypatch,
                                                                 command,
                                                                 tmp_path: Path) -> None:
    """The output is checked before the inputs are read (and long before the bootstrap or the
    consensus), by the one check every command's output options go through."""
    import core.cli.adjudicate
    import core.cli.report
    import core.cli.table

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the inputs were read")

    for module, name in ((core.cli.table, "load_span_inputs"), (core.cli.report, "load_systems"),
                         (core.cli.adjudicate, "load_annotator_sets")):
        monkeypatch.setattr(module, name, never)
    missing = tmp_path / "typo"
    run = cli(*(a.replace("{out}", str(missing)) for a in command))
    clean_failure(run)
    assert run.err.startswith(f"error: {missing}/")
    assert f"cannot write it: the folder {missing} does not exist (create it first)" in run.err


def test_every_output_option_of_every_command_is_checked_before_it_runs() -> None:
    """A file a command writes is declared with ``add_output`` (core.cli.common), which
    ``main`` checks before the command runs: no command writes through an option it did not
    declare so."""
    import argparse

    from core.cli import COMMAND_NAMES, build_parser

    declared: dict[str, set[str]] = {}
    for name in COMMAND_NAMES:
        if name == "app":
            continue
        parser = build_parser(only=name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        command = sub.choices[name]
        declared[name] = {dest for dest, _, _ in command.get_default("outputs") or ()}
        writers = {a.dest for a in command._actions
                   if a.dest in ("output", "decisions") or "-o" in a.option_strings}
        assert writers <= declared[name], (name, writers - declared[name])
    assert {name: dests for name, dests in declared.items() if dests} == {
        "convert": {"output"}, "report": {"output"}, "table": {"output"},
        "adjudicate": {"output", "decisions"}}


def test_two_outputs_of_one_command_cannot_be_the_same_file(cli, tmp_path: Path) -> None:
    out = tmp_path / "c.csv"
    run = cli("adjudicate", *ANNOTATORS, "--min-agree", "2", "-o", str(out), "--to",
              "spans-csv", "--decisions", str(tmp_path / "." / "c.csv"))
    assert run.rc == 2, run.err
    assert (f"error: --decisions {tmp_path / '.' / 'c.csv'} is the file -o/--output writes "
            "too; give each output its own file") in run.err
    assert not out.exists()


def test_table_writes_its_file_whole_or_not_at_all(cli, monkeypatch, tmp_path: Path) -> None:
    import core.formats.atomic as atomic

    out = tmp_path / "t.tex"
    out.write_text("previous", encoding="utf-8")

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", fail)
    run = cli("table", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"), "--metric",
              "martino", "--samples", "20", "-o", str(out))
    assert run.rc == 1
    assert run.err.endswith(f"error: {out}: cannot write it: No space left on device\n")
    assert out.read_text("utf-8") == "previous" and _leftovers(tmp_path) == []


def test_a_folder_output_is_created_one_level_deep(cli, tmp_path: Path) -> None:
    run = cli("convert", str(SAMPLE / "gold.json"), str(tmp_path / "brat"), "--to", "brat")
    assert run.rc == 0, run.err
    assert sorted(p.suffix for p in (tmp_path / "brat").iterdir())[:1] == [".ann"]


# ---- bombs -------------------------------------------------------------------------------------


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_one_budget_covers_every_nested_zip(monkeypatch) -> None:
    """Three inner zips, each under the cap, together over it (the issue's 3 × 500 MB, scaled
    down: the cap is 1 MiB here)."""
    monkeypatch.setattr(archive, "MAX_TOTAL_BYTES", 2**20)
    inner = _zip({"doc.ann": b"T1\tX 0 1\ta\n" + b" " * 400_000})
    outer = _zip({f"part{i}.zip": inner for i in range(3)})
    assert len(archive.unpack_zips({"one.zip": _zip({"part0.zip": inner})}, "one.zip")) == 1
    with pytest.raises(FormatError, match=r"unpack to more than 1 MiB \(nested zips counted "
                       r"together\)"):
        archive.unpack_zips({"bomb.zip": outer}, "bomb.zip")


def test_a_zip_nested_two_levels_deep_is_refused() -> None:
    deep = _zip({"inner.zip": _zip({"deeper.zip": _zip({"a.ann": b""})})})
    with pytest.raises(FormatError, match=r"'deeper\.zip' is nested more than one level deep"):
        load_files({"deep.zip": deep})


def _rows_parquet(rows: int) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"doc_id": pa.array(["1"] * rows), "start": pa.array([0] * rows),
                      "end": pa.array([1] * rows), "label": pa.array(["x"] * rows)})
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


def test_the_dashboard_reads_parquet_under_a_budget_checked_before_reading() -> None:
    from ui.parsing import guarded_load

    data = _rows_parquet(1000)
    budget = TableBudget(rows=999, bytes=2**30)
    with pytest.raises(FormatError, match=r"hold 1,000 rows \(at most 999\), more than this "
                       r"server reads; its operator sets the limit \(SPANSCOPE_MAX_TABLE_ROWS"):
        load_files({"t.parquet": data}, options=ReadOptions(table_budget=budget))
    assert load_files({"t.parquet": data}).set.span_count() == 1000  # the command line: no budget
    loaded, error = guarded_load({"t.parquet": data}, name="t.parquet")
    assert error is None and loaded is not None


def test_the_parquet_budget_is_set_by_whoever_starts_the_server(monkeypatch) -> None:
    from ui.parsing import guarded_load

    monkeypatch.setenv("SPANSCOPE_MAX_TABLE_ROWS", "500")
    loaded, error = guarded_load({"t.parquet": _rows_parquet(1000)}, name="t.parquet")
    assert loaded is None and error is not None and "1,000 rows (at most 500)" in error.message
    monkeypatch.setenv("SPANSCOPE_MAX_TABLE_ROWS", "lots")
    _, error = guarded_load({"t.parquet": _rows_parquet(10)}, name="t.parquet")
    assert error is not None and str(error) == ("SPANSCOPE_MAX_TABLE_ROWS: expected a positive "
                                                "whole number, got 'lots'")


def test_the_budget_default_refuses_the_issues_parquet_bomb() -> None:
    """2M identical rows in about 31 KB read to 1.2 GB; the default budget refuses them from
    the footer."""
    data = _rows_parquet(2_000_000)
    assert len(data) < 100_000
    with pytest.raises(FormatError, match="2,000,000 rows"):
        load_files({"bomb.parquet": data},
                   options=ReadOptions(table_budget=TableBudget.from_env({})))


def test_json_of_budget_is_not_needed_for_the_command_line(cli, tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    path.write_bytes(_rows_parquet(10))
    run = cli("validate", str(path), "--json")
    assert run.rc == 0 and json.loads(run.out)["spans"] == 10
