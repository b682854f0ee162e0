"""Files and folders opened on the command line: ``spanscope app --data [[NAME:]ROLE=]PATH ...``.

:mod:`core.cli.launch` checks the paths and hands them to the streamlit process in the
``SPANSCOPE_DATA`` environment variable (JSON); this module reads them on the server, once per
server process (``st.cache_resource``), without the browser's upload limit, as the server starts
(:func:`read_early`, called by :mod:`ui.serve`, which ``spanscope app --data`` runs). Visitors of
the app see the files' names, never a box to type a path into.

A value with a role (``gold=PATH``) is one input with that role: a file, or a folder read as one
input (an annotation tool's export); with a name too (``Ayla:annotator=PATH``) its set is called
that name instead of the file's (``NAME:set`` when the input holds several sets). A value
without a role is a file whose role its name suggests (:func:`ui.state.guess_role`, as on the
Data page), a brat collection or a folder of PTC articles with their ``.labels`` read as one
such file (:func:`_one_corpus`, as the command line reads it; the PTC folder is a gold, as the
Data page and ``validate`` guess it), or a folder whose files are each such a file (as a folder
of ``sample_data/``; the files read with another, as a ``.ann``'s ``.txt``, are no inputs of
their own); when files of such a folder guessed systems give one document id different texts,
the folder's guessed systems are read as annotators instead, with a note
(:func:`_exports_of_one_tool`); so are the files and brat collections given one by one without a
role, taken together as one folder's files.

A value may name its format (``PATH#format=FORMAT``, :data:`DataArg.format`); a file that is
refused can also be given one on the Data page (:func:`format_boxes`), for the visitor's
session: the files are read again with it, by the code that reads them first
(:func:`read_reports`), as an upload's Format box does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import json
import logging
import os
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from core.formats import ReadOptions, detect, module, read_file_with_companions, read_folder
from core.formats.ptc import ARTICLE_RE
from core.formats.ptc import FORMAT as PTC
from core.model import ROLES, Role
from core.model.errors import Diagnostic
from core.model.roles import brat_annotator_folders
from core.plugins import load_formats
from ui import file_reports, state, text_policy
from ui.parsing import InChild, guarded_load

DATA_ENV = "SPANSCOPE_DATA"  # core.cli.launch.DATA_ENV (ui must not need core.cli.launch at import)
SOURCE = "cli"
"""Value of :data:`ui.state.K_SOURCE` when the pages show the command line's data."""
PTC_TEXT = re.compile(r"article[0-9]+\.txt")
"""The name of a PTC article text, lower-cased (``article<ID>.txt``, :mod:`core.formats.ptc`)."""


@dataclass(frozen=True)
class DataArg:
    """One ``--data`` value: its role (None: guessed from the name), its absolute path, the
    name its set is given (None: named after the file) and its format (None: detected)."""

    role: Role | None
    path: str
    name: str | None = None
    format: str | None = None


def data_args(environ: Mapping[str, str] | None = None) -> tuple[DataArg, ...]:
    """The ``--data`` values the app was started with (none when started without)."""
    raw = (os.environ if environ is None else environ).get(DATA_ENV, "")
    if not raw:
        return ()
    out = []
    for item in json.loads(raw):
        role, name, fmt = item.get("role"), item.get("name"), item.get("format")
        out.append(DataArg(role if role in ROLES else None, str(item["path"]),
                           str(name) if name else None, str(fmt) if fmt else None))
    return tuple(out)


def _inputs(args: tuple[DataArg, ...]) -> list[tuple[Path, Role, bool]]:
    """``(path, role, read as a folder)`` of every input the values name, in order."""
    return [(path, role, folder) for path, role, folder, _ in _named_inputs(args)]


def _named_inputs(args: tuple[DataArg, ...], annotators: frozenset[str] = frozenset()
                  ) -> list[tuple[Path, Role, bool, str | None]]:
    """:func:`_inputs` with the set name each value gives (None: the file's name); in the
    folders of ``annotators``, and as a file of ``annotators`` given without a role, a file
    guessed a system is an annotator (:func:`_exports_of_one_tool`)."""
    out: list[tuple[Path, Role, bool, str | None]] = []
    for arg in args:
        path = Path(arg.path)
        if arg.role is not None:
            out.append((path, arg.role, path.is_dir(), arg.name))
        elif path.is_dir() and _one_corpus(path):  # one input, as a file given alone
            role = _folder_role(path)
            if role == "system" and arg.path in annotators:
                role = "annotator"
            out.append((path, role, True, None))
        elif path.is_dir():
            children = sorted(path.iterdir())
            names = frozenset(c.name.lower() for c in children)
            # one brat folder per annotator: annotators, as the command line reads the folder
            project = frozenset(brat_annotator_folders(path))
            for child in children:
                if child.name.startswith(".") or _is_note(child) or _is_type_system(child) \
                        or (_is_companion(child.name, names) and child.is_file()):
                    continue
                role = ("annotator" if child in project
                        else _folder_role(child) if child.is_dir() and _ptc_articles(child)
                        else state.guess_role(child.name))
                if role == "system" and arg.path in annotators:
                    role = "annotator"
                out.append((child, role, child.is_dir(), None))
        else:
            role = state.guess_role(path.name)
            if role == "system" and arg.path in annotators:
                role = "annotator"
            out.append((path, role, False, None))
    return out


def _is_note(path: Path) -> bool:
    """A file of a folder that is no annotation set: the label inventory, a README, a licence,
    a script."""
    return (path.name.lower() in state.NOT_ANNOTATIONS or path.suffix in (".py", ".md")
            or path.name.lower() == "readme")


def _is_companion(name: str, names: frozenset[str]) -> bool:
    """Whether the file ``name`` of a folder whose files are ``names`` (lower-cased) is read with
    another file beside it, never an input of its own: a brat ``.ann``'s ``.txt``, a Parquet
    spans table's ``.texts.parquet`` (:func:`core.formats.read_file_with_companions`), brat's
    ``annotation.conf`` and other configuration files (which :func:`core.formats.brat.sniff`
    recognises)."""
    lower = name.lower()
    if lower.endswith(".txt"):
        return lower[: -len(".txt")] + ".ann" in names
    if lower.endswith(".texts.parquet"):
        return lower[: -len(".texts.parquet")] + ".parquet" in names
    return lower.endswith(".conf") and module("brat").sniff(lower, "") > 0


def _children(path: Path) -> list[tuple[str, bool]]:
    """``(name, is a folder)`` of the entries of the folder ``path`` that are no notes."""
    with os.scandir(path) as entries:
        return [(e.name, e.is_dir()) for e in entries
                if not e.name.startswith(".") and not _is_note(Path(e.name))]


def _one_corpus(path: Path) -> bool:
    """Whether the folder ``path`` is one brat collection (no sub-folder, at least one
    ``.ann``, and beside the ``.ann`` files only their companions, :func:`_is_companion`, and
    notes) or one folder of PTC articles (:func:`_ptc_articles`). The command line reads such
    a folder as one input (:func:`core.formats.load_path`: the brat reader takes its ``.ann``
    files as one set's documents, the PTC reader its ``.labels`` files), so ``--data`` does
    too, instead of one set per ``.ann`` with every ``.txt`` refused. Names and entry types
    only (``os.scandir``): it runs on every page run, through :func:`fingerprint`."""
    children = _children(path)
    if any(is_dir for _, is_dir in children):
        return False
    names = frozenset(n.lower() for n, _ in children)
    return (any(n.endswith(".ann") for n in names) and all(
        n.endswith(".ann") or _is_companion(n, names) for n in names)) or _ptc_articles(path)


def _ptc_articles(path: Path) -> bool:
    """Whether the folder ``path`` holds PTC articles with their labels, as the shared tasks
    give a gold (:mod:`core.formats.ptc`): no sub-folder, at least one ``.labels`` file named
    after an article (``article<ID>*.labels``), and beside them only ``article<ID>.txt``
    texts and notes. Names only, as :func:`_one_corpus`."""
    children = _children(path)
    if any(is_dir for _, is_dir in children):
        return False
    names = [n.lower() for n, _ in children]
    labels = [n for n in names if n.endswith(".labels")]
    return bool(labels) and all(ARTICLE_RE.search(n) for n in labels) and all(
        n.endswith(".labels") or PTC_TEXT.fullmatch(n) for n in names)


def _folder_role(path: Path) -> Role:
    """The role of the folder ``path`` read as one input and given without a role: its name's
    hint, else a gold when it holds PTC articles (:func:`core.model.roles.guess_role` with
    the format, as the Data page guesses an uploaded folder), else the role a file of that name
    would get (a brat collection is read as one such file)."""
    if _ptc_articles(path):
        return state.guess_role(path.name, folder=True, fmt=PTC)
    return state.guess_role(path.name)


def _is_type_system(path: Path) -> bool:
    """A UIMA ``TypeSystem.xml`` is no input of its own: the ``.xmi`` files beside it are read
    with it (:func:`core.formats.read_file_with_companions`)."""
    if path.suffix.lower() != ".xml" or not path.is_file():
        return False
    with path.open("rb") as f:
        return b"<typeSystemDescription" in f.read(4096)


FORK_MIN_BYTES = 16 << 20
"""The fewest bytes of files that :func:`read_reports` reads in a forked copy of the server
(:class:`ui.parsing.InChild`): below it, the fork, the pickling and the unpickling cost more
than the read they take off the server (a sample corpus is read in this process)."""

forked = threading.Event()
"""Set once :func:`read_reports` has forked its copy (or chosen not to), and by
:func:`read_early`'s thread once it has the workspace: :mod:`ui.serve` imports ``app.py``'s
modules after it, so that no other thread of the server is importing at the fork."""

_forks = 0
"""How many times :func:`read_reports` has read files in a forked copy (:func:`fork_count`)."""
COPIES: Counter[str] = Counter()
"""What became of :func:`read_reports`'s forked copies, by outcome: ``forked``, and one of
``taken`` (its reports used), ``stalled`` (killed as blocked, :data:`ui.parsing.STALL_S`) or
``failed`` (it raised, or was killed from outside); in the last two the server read the copy's
files itself (:func:`copy_counts`). Updated under :data:`_copies_lock`."""
_copies_lock = threading.Lock()
STATS_ENV = "SPANSCOPE_READ_STATS"
"""Environment variable naming a file to which :func:`read_reports` appends one JSON line per
read that forked a copy: its outcome, where a copy killed as blocked slept, and the seconds
each part took (the benchmark prints it with the first load, ``bench/bench_app.py``)."""


def fork_count() -> int:
    """How many times :func:`read_reports` has read some of its files in a forked copy of this
    process and taken their reports from it (a count of which path ran, for the tests)."""
    return _forks


def copy_counts() -> dict[str, int]:
    """:data:`COPIES` as it is now (a copy of it)."""
    with _copies_lock:
        return dict(COPIES)


def _copy_ended(child: InChild[list[state.FileReport]], outcome: str, here_s: float,
                fallback_s: float) -> None:
    """Count the copy's ``outcome`` (:data:`COPIES`), warn on the server's standard error when
    the copy did not deliver (a person who finds the first load slow can see why), and append
    the read's line to the :data:`STATS_ENV` file when one is named. ``here_s``: the seconds
    this process read its own files; ``fallback_s``: those it then read the copy's."""
    with _copies_lock:
        COPIES[outcome] += 1
    if outcome == "stalled":
        print(f"spanscope: the copy of the server that read the last --data files (pid "
              f"{child.pid}) was asleep ({child.stalled_in}) without using CPU and was taken "
              f"for blocked: killed, and its files read by the server "
              f"({fallback_s:.2f} s)", file=sys.stderr, flush=True)
    elif outcome == "failed":
        print(f"spanscope: the copy of the server that read the last --data files (pid "
              f"{child.pid}) failed: its files read by the server ({fallback_s:.2f} s)",
              file=sys.stderr, flush=True)
    stats = os.environ.get(STATS_ENV)
    if stats:
        line = {"outcome": outcome, "stalled_in": child.stalled_in,
                "here_s": round(here_s, 3), "copy_wait_s": round(child.waited_s, 3),
                "fallback_s": round(fallback_s, 3), "counts": copy_counts()}
        with contextlib.suppress(OSError), open(stats, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")


def read_reports(args: tuple[DataArg, ...], annotators: frozenset[str] = frozenset(),
                 formats: Mapping[str, str] | None = None) -> list[state.FileReport]:
    """Parse every input of ``args`` into a file report (a bad file becomes its error), each in
    the format ``formats`` gives its path (the Data page's choice), else its value's
    (``#format=``), else the one detected; installed plugins' formats too, loaded first here
    because :func:`read_early` reads before any page has loaded them (``core/plugins.py``).

    Inputs that are files of :data:`FORK_MIN_BYTES` or more are shared with a forked copy of
    the process (:func:`_fork_from`): it reads the last ones, about half of the bytes, on the
    other core while this process reads the first ones, and sends their reports back pickled
    (at 100,000 documents, the second file of two: about 1 s of the server's CPU off the first
    load; docs/performance.md, issue 29, sixteenth pass). Should the copy fail, this process
    reads them itself: the reports are the same either way."""
    global _forks
    load_formats()
    inputs = [(*one, arg.format) for arg in args for one in _named_inputs((arg,), annotators)]

    def report(path: Path, role: Role, is_folder: bool, name: str | None,
               fmt: str | None) -> state.FileReport:
        files = read_folder(path) if is_folder else read_file_with_companions(path)
        fmt = (formats or {}).get(str(path)) or fmt
        loaded, error = guarded_load(files, name=path.name, options=ReadOptions(role=role),
                                     fmt=fmt)
        if error is not None and fmt is None and "could not detect the format" in error.message:
            # the file's name only: visitors of the app never see the server's paths
            error = dataclasses.replace(error, message=error.message + "; on the command line: "
                                        f"--data {role}={path.name}#format=FORMAT")
        # a name given on the command line wins over the names the file gives its sets
        return file_reports.report(path.name, loaded, role,
                                   name or state._display_name(path.name), error,
                                   keep_names=name is None)

    split = _fork_from(inputs, formats or {})
    child = None
    if split < len(inputs):
        rest = inputs[split:]
        try:
            child = InChild(lambda: [report(*one) for one in rest])
            with _copies_lock:
                COPIES["forked"] += 1
        except OSError:  # the system refused the fork (EAGAIN, ENOMEM): all read here
            split = len(inputs)
    forked.set()
    began = time.monotonic()
    try:
        reports = [report(*one) for one in inputs[:split]]
    except BaseException:
        if child is not None:
            child.cancel()
        raise
    if child is not None:
        here = time.monotonic() - began
        theirs = child.result()
        if theirs is not None:
            _forks += 1
            _copy_ended(child, "taken", here, 0.0)
            return reports + theirs
        began = time.monotonic()
        reports += [report(*one) for one in inputs[split:]]
        _copy_ended(child, "stalled" if child.stalled else "failed", here,
                    time.monotonic() - began)
    return reports


def _fork_from(inputs: list[tuple[Path, Role, bool, str | None, str | None]],
               formats: Mapping[str, str]) -> int:
    """The index of the first input that a forked copy reads (:func:`read_reports`), or
    ``len(inputs)`` when this process reads them all: a copy reads the last inputs, files only,
    from the one at which about half of the bytes are read, when they hold
    :data:`FORK_MIN_BYTES` or more, on Linux. Their formats' modules are imported
    here first (detected from each file's head), so that the copy imports nothing: a module
    another thread was importing at the fork would stay locked in it."""
    if len(inputs) < 2 or not sys.platform.startswith("linux"):
        # macOS forks a threaded process unsafely once system frameworks are loaded (Python's
        # multiprocessing spawns there), Windows does not fork
        return len(inputs)
    try:
        sizes = [-1 if folder else path.stat().st_size for path, _, folder, _, _ in inputs]
    except OSError:  # the read says which file
        return len(inputs)
    total, done, split = sum(sizes), 0, 1
    for split in range(1, len(inputs)):
        done += sizes[split - 1]
        if 2 * done >= total:
            break
    if min(sizes[split:]) < 0 or sum(sizes[split:]) < FORK_MIN_BYTES:
        return len(inputs)
    for path, _, _, _, fmt in inputs[split:]:
        fmt = formats.get(str(path)) or fmt
        try:
            if fmt is not None:
                module(fmt)
            else:
                with path.open("rb") as f:
                    detect({path.name: f.read(1 << 16)}, source=path.name)
        except Exception:  # the read reports it
            pass
    return split


GUESSED_ANNOTATOR = ("read as an annotator's export: among the files given without a role (in "
                     "a folder, or one by one), files guessed systems gave one document id "
                     "different texts, as annotators' exports of one tool do (doccano numbers "
                     "each annotator's documents its own way); give each file its role with "
                     "--data ROLE=PATH to choose otherwise")
"""The note on each file :func:`_exports_of_one_tool` reads as annotators."""


def _exports_of_one_tool(reports: list[state.FileReport], args: tuple[DataArg, ...],
                         raw: list[state.FileReport]) -> frozenset[str]:
    """The folders given without a role in which a file guessed a system was refused for
    giving a document another text than another file guessed a system (one id, two texts), and
    the files (and brat collections, :func:`_one_corpus`) given one by one without a role when
    one of them was (they are one folder's files given apart: ``--data a --data b`` reads them
    as ``--data DIR`` would). Predictions of one
    corpus never do that; annotators' exports of one tool do, and they load as annotators,
    their documents matched by their text (:func:`ui.text_policy.align_annotators`). A file
    refused for another text than the gold's only is a prediction of other texts: it stays a
    refused system. ``reports`` are ``raw`` (as read) after :func:`ui.text_policy.same_texts`."""
    out: set[str] = set()
    loose: dict[str, int] = {}  # the files given one by one without a role: their input
    i = 0
    for arg in args:
        n = len(_named_inputs((arg,)))
        if arg.role is None and Path(arg.path).is_dir() and not _one_corpus(Path(arg.path)):
            if one_tools_exports(reports[i:i + n], raw[i:i + n]):
                out.add(arg.path)
        elif arg.role is None:
            loose[arg.path] = i
        i += n
    if one_tools_exports([reports[j] for j in loose.values()], [raw[j] for j in loose.values()]):
        out.update(loose)
    return frozenset(out)


def one_tools_exports(reports: list[state.FileReport], raw: list[state.FileReport]) -> bool:
    """Whether files given without a role (``raw`` as read, ``reports`` the same files after
    :func:`ui.text_policy.same_texts` of every input) are annotators' exports of one tool: one
    guessed a system was refused for giving a document another text, and one guessed a system
    gives a document another text than another of them (:func:`_systems_disagree`). The rule
    of ``--data`` (:func:`_exports_of_one_tool`) and of the Data page's uploads whose role box
    was left at its guess (:func:`ui.uploads.rows`)."""
    refused = any(r.role == "system" and r.error is not None
                  and text_policy.ANNOTATOR_HINT in r.error.message for r in reports)
    return refused and _systems_disagree(raw)


def _systems_disagree(raw: list[state.FileReport]) -> bool:
    """Whether, of the files ``raw`` (as read), one guessed a system gives a document another
    text than one before it (:func:`ui.text_policy.same_texts` among them alone)."""
    systems = [r for r in raw if r.ok and r.role == "system"]
    return any(r.error is not None and text_policy.ANNOTATOR_HINT in r.error.message
               for r in text_policy.same_texts(systems))


def _hint_for_the_command_line(reports: list[state.FileReport], args: tuple[DataArg, ...]
                               ) -> list[state.FileReport]:
    """``reports`` with the refusal's advice to give annotators' exports the role annotator said
    as the command line takes it (``--data annotator=PATH``): files given with ``--data`` have
    no role to choose on the Data page."""
    paths = {path.name: path for path, _, _, _ in _named_inputs(args)}
    out = []
    for rep in reports:
        if rep.error is not None and text_policy.ANNOTATOR_HINT in rep.error.message:
            path = paths.get(rep.file, Path(rep.file))
            hint = (". If the files are annotators' exports of one project (doccano numbers each "
                    "annotator's documents its own way), start the app with the role annotator "
                    f"for each of them: `spanscope app --data annotator={path} ...` (one "
                    "`--data annotator=PATH` per file); their documents are then matched by "
                    "their text")
            error = dataclasses.replace(rep.error, message=rep.error.message.replace(
                text_policy.ANNOTATOR_HINT, hint))
            rep = dataclasses.replace(rep, error=error)
        out.append(rep)
    return out


def fingerprint(args: tuple[DataArg, ...]) -> str:
    """A short key of the inputs: every path with its size and modification time (never the
    bytes: hashing gigabytes on every run would be the slow part)."""
    digest = hashlib.sha256()
    for arg in args:
        if arg.format is not None:
            digest.update(f"format|{arg.path}|{arg.format}\n".encode())
    for path, role, _, name in _named_inputs(args):
        if name is not None:
            digest.update(f"name|{name}\n".encode())
        paths = sorted(path.rglob("*")) if path.is_dir() else [path]
        for p in paths:
            st_ = p.stat()
            digest.update(f"{p}|{role}|{st_.st_size}|{st_.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


_reads = 0
"""How many times :func:`_load` has read the inputs in this process (:func:`read_count`)."""


def read_count() -> int:
    """How many times the ``--data`` inputs have been read in this process: one per server
    however many sessions ask and whether :func:`read_early` or a page asks first (a count,
    not a clock, for the tests)."""
    return _reads


@st.cache_resource(max_entries=2, show_spinner="Reading the files given on the command line…")
def _load(key: str, _args: tuple[DataArg, ...], _formats: tuple[tuple[str, str], ...] = ()
          ) -> state.Workspace:
    global _reads
    _reads += 1
    # Reading allocates millions of objects, which start the cycle collector's passes over
    # everything alive; it waits until the end instead, where the collection below takes any
    # garbage at once (0.03 to 0.14 s of the 2 s read at 100,000 documents;
    # docs/performance.md, issue 29).
    enabled = gc.isenabled()
    gc.disable()
    try:
        # one text per document id across the inputs, as on the Data page (core.model.texts)
        formats = dict(_formats)
        raw = read_reports(_args, formats=formats)
        reports = text_policy.same_texts(raw)
        tools = _exports_of_one_tool(reports, _args, raw)
        if tools:  # read again, their files as annotators, each with a note saying so
            changed = [new[1] != old[1] for new, old in
                       zip(_named_inputs(_args, tools), _named_inputs(_args), strict=True)]
            reports = [dataclasses.replace(r, diagnostics=(*r.diagnostics, Diagnostic(
                           r.file, GUESSED_ANNOTATOR, kind="role"))) if guessed else r
                       for r, guessed in zip(text_policy.same_texts(
                           read_reports(_args, tools, formats)), changed, strict=True)]
        reports = _hint_for_the_command_line(reports, _args)
        ws = state.build_workspace(reports,
                                   key=f"cli:{key}", title="files from the command line",
                                   shareable=True)
    finally:
        if enabled:
            gc.enable()
    # The corpus lives as long as the server: moved out of the garbage collector's reach, so
    # that full collections stop walking millions of spans (gc.freeze; the garbage of reading
    # is collected first, so nothing unreachable is frozen with it). The collector was off
    # while reading, so that garbage is all young: a collection of the young generations finds
    # what a full one finds (345 objects at 100,000 documents, both ways) without walking
    # Streamlit's and numpy's old objects (0.03 against 0.08-0.09 s; issue 29, thirteenth pass).
    gc.collect(1)
    gc.freeze()
    return ws


def cli_workspace() -> state.Workspace | None:
    """The workspace of the ``--data`` inputs, parsed once per server process; None without.

    Shareable: every visitor of this server sees the same files, so links carry the view. A
    format chosen on the Data page (:func:`format_boxes`) reads the files again, for the
    sessions that chose it.
    """
    args = data_args()
    if not args:
        return None
    chosen = chosen_formats(args)
    key = fingerprint(args) + "".join(f"|{path}#{fmt}" for path, fmt in chosen)
    return _load(key, args, chosen)


K_FORMAT = "cli_fmt::"
"""Prefix of the key of the Data page's Format box of a ``--data`` input (its absolute path
follows)."""


def chosen_formats(args: tuple[DataArg, ...]) -> tuple[tuple[str, str], ...]:
    """``(input path, format)`` of every ``--data`` input whose Format box (:func:`format_boxes`)
    this session set to a format; none outside a page's run (:func:`read_early`'s thread)."""
    if get_script_run_ctx(suppress_warning=True) is None:
        return ()
    out = []
    for path, _, _, _ in _named_inputs(args):
        fmt = st.session_state.get(K_FORMAT + str(path))
        if fmt and fmt != "auto":
            out.append((str(path), str(fmt)))
    return tuple(out)


def format_boxes(ws: state.Workspace) -> None:
    """A Format box for each ``--data`` input that was refused or whose format this session
    chose: choosing one reads the files again with it (:func:`cli_workspace`), as an upload's
    Format box does; the value's ``#format=`` does the same for every visitor."""
    args = data_args()
    reports = {r.file: r for r in ws.reports}
    shown = [(path, reports[path.name]) for path, _, _, _ in _named_inputs(args)
             if path.name in reports and (not reports[path.name].ok
                                          or K_FORMAT + str(path) in st.session_state)]
    for path, rep in shown:
        st.selectbox(
            f"Format of {rep.file}", state.format_choices(), key=K_FORMAT + str(path),
            persist_state="session",
            help="auto: detected from the name and first bytes. Choosing a format reads the "
            "file again with it, in this browser tab; to read it so for everyone, start the app "
            f"with `--data ROLE={path}#format=FORMAT`.")


READ_EARLY_THREAD = "spanscope-read-early"
"""Name of the thread of :func:`read_early`."""


class _EarlyQuiet(logging.Filter):
    """Drops Streamlit's "missing ScriptRunContext" warning for the thread of
    :func:`read_early`: it has no page to draw the cache's spinner into, on purpose."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.threadName != READ_EARLY_THREAD


logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    _EarlyQuiet())


def read_early(then: Callable[[state.Workspace | None], None] | None = None
               ) -> threading.Thread | None:
    """Start reading the ``--data`` inputs in a background thread, into the cache the pages
    read (:func:`cli_workspace`); returns the thread, or None when the app was started without
    ``--data``. ``then``: called in the thread with the workspace read (:mod:`ui.serve` passes
    :func:`ui.ahead.early`, which starts the background worker); not called when the read
    raised.

    Called as the server starts (:mod:`ui.serve`, which ``spanscope app --data`` runs), so that
    reading overlaps the seconds in which the server starts and the browser loads the page and
    connects, instead of starting with the first page's run (2 s at 100,000 documents,
    docs/performance.md, issue 29). One read either way: a page that asks while the thread
    reads waits for that read (Streamlit's caches compute each key once), and a thread that
    starts after a page's read finds it cached (:func:`read_count`). A file's error is its
    report's, as when a page reads it (the Data page shows it); an exception that escapes the
    reader, or ``then``, is left to the page, which meets it again when it reads."""
    args = data_args()
    if not args:
        return None

    def work() -> None:
        try:
            ws = cli_workspace()
            forked.set()  # read before (cached), or the read raised before its fork
            if then is not None:
                then(ws)
        except Exception:  # the page that reads the files meets it and shows it
            logging.getLogger(__name__).debug("reading --data ahead failed", exc_info=True)
        finally:
            forked.set()

    thread = threading.Thread(target=work, name=READ_EARLY_THREAD, daemon=True)
    thread.start()
    return thread


def _roles_read(r: state.FileReport) -> str:
    """The role a file was given, or, when it names its own sets and they keep the roles they
    were read with, how many of each (``7 annotators``: a Label Studio export given without a
    role is no "system", whatever its name suggests)."""
    if not (r.as_read and r.own_names):
        return r.role
    counts = Counter(s.role for s in r.sets)
    return ", ".join(f"{n} {role}{'' if n == 1 else 's'}" for role, n in counts.items())


def describe(ws: state.Workspace) -> str:
    """``gold.json (gold), ayla.jsonl as Ayla (annotator)``: the files loaded, the set name
    given to each (``--data NAME:ROLE=PATH``) and their roles, for captions, then the files
    refused (Overview and Data say why)."""
    loaded = ", ".join(f"{r.file}{'' if r.name == state._display_name(r.file) else f' as {r.name}'}"
                       f" ({_roles_read(r)})" for r in ws.reports if r.ok)
    refused = ", ".join(r.file for r in ws.reports if not r.ok)
    return "; ".join(part for part in (loaded, refused and f"refused: {refused}") if part)


def upload_limit_mb() -> int:
    """The largest upload this server accepts, in MB (``server.maxUploadSize``, read at run time
    so that the page never states another number than the one enforced)."""
    return int(st.get_option("server.maxUploadSize"))


def upload_limit_note() -> str:
    """The Data page's sentence on the upload limit and what to do beyond it."""
    return (f"Each uploaded file may be up to **{upload_limit_mb():,} MB** (this server's "
            "`server.maxUploadSize`). Larger files: whoever starts the app opens them from disk, "
            "without this limit: `spanscope app --data gold=GOLD_FILE --data pred=PRED_FILE` "
            "(or `--data FOLDER`, roles guessed from the file names).")


SOURCE_LABELS = {"cli": "💻 the files given on the command line",
                 "sample": "📦 the bundled sample corpus", "upload": "📤 the uploaded files"}
"""Choices of the Data page's "Pages show" radio."""
