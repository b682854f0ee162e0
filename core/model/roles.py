"""The role a file's annotations play, guessed from its name: one rule for every path.

The Data page presets each uploaded file's role with :func:`guess_role`, the bundled samples are
read with it, and ``python -m core validate`` and ``spanscope app --data`` use it when no role is
given, so that a file is checked the same way wherever it is loaded. Where the guess depends on
the input's format (:func:`format_decides`), each detects the format first and passes it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path, PurePath

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


FOLDER_GOLD_FORMATS = frozenset({"ptc"})
"""Formats whose folder is a gold's layout: a PTC folder of ``article<ID>*.labels`` files
(with the ``article<ID>.txt`` texts) is how the shared tasks give their gold (Da San Martino et
al. 2019, SemEval-2020 Task 11); a system's predictions come as one file."""


LABELS_SUFFIX = ".labels"
"""The PTC annotation file's extension (Da San Martino et al. 2019; SemEval-2020 Task 11)."""
TASK_GOLD_NAME = re.compile(r"(?:^|[.\-_])task\d*-(?:si|tc|slc|flc)(?:-(?:si|tc|slc|flc))*"
                            + re.escape(LABELS_SUFFIX) + "$")
"""The end of the lower-cased name of a shared task's gold ``.labels`` file: ``task``, the
task's number if any, then its subtasks' codes (SemEval-2020 Task 11: ``dev-task-TC.labels``,
``train-task2-TC.labels``, ``article<ID>.task1-SI.labels``; NLP4IF-2019:
``article<ID>.task-FLC.labels``, ``.task-SLC.labels``). Any other ``.labels`` name with
``task`` in it (a team's ``task2_team1.labels``) is an annotation like ``ana.labels``
(review20: every name with ``task`` in it was read as a gold)."""


def guess_role(filename: str, *, folder: bool = False, fmt: str | None = None) -> Role:
    """The role a file name suggests: ``gold`` / ``annotator`` / ``system`` hints, else
    ``system``. ``curated`` is a gold: the Curation page's export of the curated set, uploaded
    again, is the reference it was made to be (docs/dashboard.md).

    A folder, or a ``.zip`` of one, read as one input comes from an annotation tool (an
    INCEpTION export, a brat collection) and holds annotators, unless its name gives a role
    (``gold``, ``annotator``, ``curated``, ``system``, ``pred``: ``system_ptc.zip`` is a system,
    as ``system_ptc.txt`` is); a folder of separate files (gold and systems) is read as those
    files, each role guessed from its own name (:func:`ui.uploads.separate_inputs`, ``--data
    FOLDER``). A folder read as one input in a gold's layout (``fmt`` in
    :data:`FOLDER_GOLD_FORMATS`: PTC articles with their ``.labels``) is a gold unless its name
    gives a role.

    >>> guess_role("data/gold_dev.json"), guess_role("ann_2.tsv"), guess_role("run3.jsonl")
    ('gold', 'annotator', 'system')
    >>> guess_role("inception_export.zip"), guess_role("export", folder=True)
    ('annotator', 'annotator')
    >>> guess_role("system_ptc.zip"), guess_role("preds", folder=True), guess_role("curated.json")
    ('system', 'system', 'gold')
    >>> guess_role("articles", folder=True, fmt="ptc"), guess_role("run", folder=True, fmt="ptc")
    ('gold', 'gold')
    >>> guess_role("tc.zip", fmt="ptc"), guess_role("system_tc", folder=True, fmt="ptc")
    ('gold', 'system')

    A single PTC ``.labels`` file is an annotation, not a prediction: the shared tasks write
    their gold in that format, named after the task (``dev-task-TC.labels``,
    ``train-task2-TC.labels``, ``article<ID>.task-FLC.labels``: a gold), and an annotation
    campaign's files in it are its annotators' (``ana.labels``: an annotator, as ``python -m
    core agree`` reads them). A system's ``.labels`` output says so in its name (``pred``,
    ``system``) or gets its role in the Data page's Role box (``--data system=PATH``). Tour 18
    found three annotators' ``.labels`` guessed systems, so the Annotators page compared the
    gold with them.

    >>> guess_role("ana.labels"), guess_role("run.labels", fmt="ptc")
    ('annotator', 'annotator')
    >>> guess_role("dev-task-TC.labels"), guess_role("system_run.labels"), guess_role("run.txt")
    ('gold', 'system', 'system')
    >>> guess_role("article7.task2-TC.labels"), guess_role("task2_team1.labels")
    ('gold', 'annotator')

    """
    lower = PurePath(filename).name.lower()
    named = role_word(lower)
    if named is not None:
        return named
    if lower.endswith(LABELS_SUFFIX) and not folder and fmt in (None, "ptc"):
        return "gold" if TASK_GOLD_NAME.search(lower) else "annotator"
    if (folder or lower.endswith(".zip")) and fmt in FOLDER_GOLD_FORMATS:
        return "gold"
    return "annotator" if folder or lower.endswith(".zip") else "system"


def role_word(filename: str) -> Role | None:
    """The role a name states with one of :data:`ROLE_HINTS` (``gold``, ``annotator``,
    ``ann_``, ``ann-``, ``curated``, ``system``, ``pred``), or None when it states none; the
    other answers of :func:`guess_role` are guesses from the kind of input.

    >>> role_word("gold_dev.json"), role_word("preds"), role_word("inception_export")
    ('gold', 'system', None)

    """
    lower = PurePath(filename).name.lower()
    for hint, role in ROLE_HINTS:
        if hint in lower:
            return role
    return None


def folders_without_role(folder: Path) -> list[Path]:
    """The sub-folders of ``folder`` (given without a role: ``spanscope app --data FOLDER``)
    whose names state no role (:func:`role_word`), hidden ones left out. Each is read as one
    input (an annotation tool's export, a brat collection), and nothing in its name says
    whether it holds a gold, systems or annotators: the command line's start-up output and
    the Data page name them (:func:`no_role_note`). Empty for a file or an unreadable folder.
    """
    try:
        children = sorted(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return []
    return [c for c in children if c.is_dir() and not c.name.startswith(".")
            and role_word(c.name) is None]


def _brat_documents(folder: Path) -> set[str]:
    """The documents of the brat folder ``folder`` (``<doc>.ann`` with its ``<doc>.txt``, no
    sub-folder), by name; empty for any other folder."""
    try:
        with os.scandir(folder) as entries:
            found = [(e.name, e.is_dir()) for e in entries if not e.name.startswith(".")]
    except OSError:
        return set()
    if any(is_dir for _, is_dir in found):
        return set()
    names = {n for n, _ in found}
    return {n[: -len(".ann")] for n in names if n.endswith(".ann")
            and n[: -len(".ann")] + ".txt" in names}


def brat_annotator_folders(folder: Path) -> list[Path]:
    """The sub-folders of ``folder`` whose names state no role (:func:`folders_without_role`)
    that are one brat project laid out one folder per annotator (bratiaa's layout, Kolditz
    2019), as :mod:`core.formats.brat` reads ``folder`` as one input (`validate`, `agree`):
    two or more brat folders, each sharing at least half of its documents (``.ann`` with its
    ``.txt``, by name) with another. ``spanscope app --data FOLDER`` reads them as annotators
    (tour20: Lisa/, Maria/ and Max/ were three systems there, three annotators on the command
    line). Names only: it runs with every page run. Empty for any other layout (a train/dev
    split shares no document)."""
    docs = {c: d for c in folders_without_role(folder) if (d := _brat_documents(c))}
    out = [c for c, d in docs.items()
           if any(2 * len(d & e) >= len(d) for o, e in docs.items() if o != c)]
    return out if len(out) >= 2 else []


def annotator_folders_note(folders: list[Path], given: str, *, paths: bool = True) -> str:
    """The note on :func:`brat_annotator_folders` of the ``--data`` value ``given``: read as
    annotators, as the command line reads the folder, and the option that gives another role
    (``paths`` as in :func:`no_role_note`)."""
    names = ", ".join(f"{f.name}/" for f in folders)
    example = folders[0] if paths else PurePath(PurePath(given).name, folders[0].name)
    given = given if paths else PurePath(given).name
    return (f"note: --data {given}: the folders {names} hold the same brat documents, one "
            "folder per annotator: read as annotators, as the command line reads the folder "
            f"(validate, agree); another role: --data system={example} (or gold=), one folder "
            "each")


def no_role_note(folders: list[Path], given: str, *, paths: bool = True) -> str:
    """The note on the sub-folders of the ``--data`` value ``given`` whose names state no role
    (:func:`folders_without_role`): which they are, the words a name may state a role with, and
    the option that gives a role. ``paths``: name the folders by their paths (the command
    line's output, for whoever started the app), else by their names only (the Data page,
    whose visitors never see the server's paths).

    >>> note = no_role_note([Path("/d/export")], "/d")
    >>> note[:70]
    'note: --data /d: the folder export/ names no role (no gold, annotator,'
    >>> note[-69:]
    'give it its role, e.g. --data annotator=/d/export (or gold=, system=)'

    """
    words = [hint for hint, _ in ROLE_HINTS]
    names = ", ".join(f"{f.name}/" for f in folders)
    one = len(folders) == 1
    example = folders[0] if paths else PurePath(PurePath(given).name, folders[0].name)
    given = given if paths else PurePath(given).name
    return (f"note: --data {given}: the folder{'' if one else 's'} {names} name"
            f"{'s' if one else ''} no role (no {', '.join(words[:-1])} or {words[-1]} in "
            f"{'its' if one else 'their'} name{'' if one else 's'}), so SpanScope cannot tell "
            f"whether {'it holds' if one else 'they hold'} a gold, systems or annotators; give "
            f"{'it its' if one else 'each its'} role, e.g. --data annotator={example} (or "
            "gold=, system=)")


def role_notes(values: Iterable[tuple[str | None, str | None]], *, paths: bool = True
               ) -> list[str]:
    """The notes on the ``--data`` values ``(role, path)`` given without a role whose
    sub-folders' names state no role (:func:`folders_without_role`, :func:`no_role_note`):
    ``spanscope app`` prints them at start-up, and the Data page shows them with the folders'
    names only (``paths=False``)."""
    notes = []
    for role, path in values:
        if role is None and path is not None:
            annotators = brat_annotator_folders(Path(path))
            if annotators:
                notes.append(annotator_folders_note(annotators, path, paths=paths))
            unnamed = [f for f in folders_without_role(Path(path)) if f not in annotators]
            if unnamed:
                notes.append(no_role_note(unnamed, path, paths=paths))
    return notes


def format_decides(filename: str, *, folder: bool = False) -> bool:
    """Whether :func:`guess_role` may answer differently once the input's format is known: a
    folder or ``.zip`` whose name gives no role (a PTC folder of articles is a gold, another
    tool's export annotators). Callers detect the format only then, since detecting reads the
    files.

    >>> format_decides("articles", folder=True), format_decides("gold_tc", folder=True)
    (True, False)
    >>> format_decides("tc.zip"), format_decides("run.labels")
    (True, False)

    """
    return any(guess_role(filename, folder=folder, fmt=fmt) != guess_role(filename, folder=folder)
               for fmt in FOLDER_GOLD_FORMATS)
