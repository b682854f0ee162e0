"""What every page pays on a cold start: the modules ``app.py`` imports, and the Learn page's,
leave scipy unimported (about 0.5 s); only γ (the Curation page's consensus, the Annotators
page's measures) imports it, when it runs (``docs/performance.md``, issues 26 and 27)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_app_and_learn_modules_do_not_import_scipy() -> None:
    code = ("import sys; import ui.cli_data, ui.current, ui.query, ui.sidebar, ui.state, "
            "ui.uploads, ui.learn, ui.curation, core.analysis.consensus; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_gamma_still_imports_scipy_when_it_runs() -> None:
    code = ("import sys; from core.metrics.agreement.gamma_native import Continuum, "
            "Dissimilarity, best_alignment; "
            "c = Continuum.build([(0, 0, 10, 0), (1, 0, 10, 0)], 2); "
            "a = best_alignment(c, Dissimilarity(), ['x']); "
            "print(a.tuples, 'scipy.optimize' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[[0, 1]] True"
