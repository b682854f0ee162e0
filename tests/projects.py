"""Folders of sample data laid out as ``spanscope app --data FOLDER`` gets them, for the tests
of the start-up output and of the Data page that read one (one layout, so that the two agree
on what they are shown)."""

from __future__ import annotations

import shutil
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def data_folder(parent: Path) -> Path:
    """``parent/proj``: a gold file (``gold.json``), an INCEpTION export in a sub-folder whose
    name states no role (``inception_export/``), a brat gold whose name does (``brat_gold/``),
    and a hidden folder (``.cache/``) that is no input."""
    folder = parent / "proj"
    folder.mkdir()
    shutil.copy(SAMPLES / "propaganda" / "gold.json", folder / "gold.json")
    shutil.copytree(SAMPLES / "formats" / "inception_export", folder / "inception_export")
    shutil.copytree(SAMPLES / "formats" / "brat_gold", folder / "brat_gold")
    (folder / ".cache").mkdir()
    return folder
