"""The role a file's annotations play, guessed from its name: one rule for every path.

The Data page presets each uploaded file's role with :func:`guess_role`, the bundled samples are
read with it, and ``python -m core validate`` uses it when ``--role`` is not given, so that a
file is checked the same way wherever it is loaded.
"""

from __future__ import annotations

from pathlib import PurePath

from core.model import Role

ROLE_HINTS: tuple[tuple[str, Role], ...] = (
    ("gold", "gold"),
    ("annotator", "annotator"),
    ("ann_", "annotator"),
    ("ann-", "annotator"),
    ("curated", "gold"),
    ("system", "system"),
    ("pred", "system"),
)
"""(substring of the lower-cased file name, role): the first hint found wins."""


def guess_role(filename: str, *, folder: bool = False) -> Role:
    """The role a file name suggests: ``gold`` / ``annotator`` / ``system`` hints, else
    ``system``. ``curated`` is a gold: the Curation page's export of the curated set, uploaded
    again, is the reference it was made to be (docs/dashboard.md).

    A folder, or a ``.zip`` of one, read as one input comes from an annotation tool (an
    INCEpTION export, a brat collection) and holds annotators, unless its name gives a role
    (``gold``, ``annotator``, ``curated``, ``system``, ``pred``: ``system_ptc.zip`` is a system,
    as ``system_ptc.txt`` is); a folder of separate files (gold and systems) is read as those
    files, each role guessed from its own name (:func:`ui.uploads.separate_inputs`, ``--data
    FOLDER``).

    >>> guess_role("data/gold_dev.json"), guess_role("ann_2.tsv"), guess_role("run3.jsonl")
    ('gold', 'annotator', 'system')
    >>> guess_role("inception_export.zip"), guess_role("export", folder=True)
    ('annotator', 'annotator')
    >>> guess_role("system_ptc.zip"), guess_role("preds", folder=True), guess_role("curated.json")
    ('system', 'system', 'gold')
    """
    lower = PurePath(filename).name.lower()
    for hint, role in ROLE_HINTS:
        if hint in lower:
            return role
    return "annotator" if folder or lower.endswith(".zip") else "system"
