"""Tour 5's findings on agreement (docs/agreement.md): a measure on a subset of the documents
says so, a pair's char-κ does not depend on who else is loaded, and the warnings for labels
that differ only in case and for an annotator missing documents."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "agree_tour"
MISSING = str(DATA / "missing_doc.csv")


def agree(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "core", "agree", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_subset_measures_say_how_many_documents_they_read() -> None:
    proc = agree(MISSING, "--measure", "fleiss-kappa", "--measure", "unitizing-alpha",
                 "--measure", "krippendorff-alpha")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    note = "(2 of 3 documents: those all 3 annotators cover)"
    assert next(x for x in lines if x.startswith("fleiss-kappa: ")).endswith(note)
    assert next(x for x in lines if x.startswith("unitizing-alpha: ")).endswith(note)
    # Krippendorff's α reads every document at least two annotators cover: no note.
    assert "documents" not in next(x for x in lines if x.startswith("krippendorff-alpha: "))
    out = json.loads(agree(MISSING, "--measure", "fleiss-kappa", "--json").stdout)
    assert (out["fleiss-kappa"]["documents"], out["fleiss-kappa"]["documents_left_out"]) == (2, 1)


def test_no_note_when_every_document_is_read() -> None:
    proc = agree(str(ROOT / "tests" / "agreement" / "data" / "three_annotators.csv"),
                 "--measure", "fleiss-kappa")
    assert proc.returncode == 0, proc.stderr
    assert "annotators cover" not in proc.stdout
