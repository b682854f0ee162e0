"""``spanscope app`` / ``python -m core app``: start the dashboard on the bundled sample data.

The dashboard is a Streamlit script (``app.py`` beside ``pages/``, ``ui/`` and ``sample_data/``),
so it is started as ``python -m streamlit run app.py`` in a process of its own; ``core`` itself
never imports streamlit. Where ``app.py`` is:

* in a checkout (also after ``pip install -e .``): the folder that holds ``core/``;
* after ``pip install .``: the installed package ``spanscope_dashboard``, which holds ``app.py``,
  ``pages/``, ``sample_data/`` and ``.streamlit/config.toml`` (the wheel maps it to the
  repository's root, see ``setup.py``).

Streamlit runs in that folder, so the project's ``.streamlit/config.toml`` applies, and
``SPANSCOPE_DATA_DIR`` points the app at the bundled ``sample_data/`` unless it is set already.

``--data`` opens files or folders from the disk of the machine that starts the app (read by the
server, so without the browser's upload limit; visitors of the app never get a path box):

* ``--data ROLE=PATH`` (repeatable; ROLE one of :data:`DATA_ROLES`, ``pred`` meaning ``system``):
  a file, or a folder read as one input (an annotation tool's export: INCEpTION, brat, CoNLL);
* ``--data NAME:ROLE=PATH``: the same, its set named ``NAME`` on every page (a file that
  holds several sets gives ``NAME:set``), instead of the file's name;
* ``PATH#format=FORMAT`` (after any of these forms): the file is read in that format instead of
  the one detected (:data:`FORMAT_MARK`; a path that exists as written is always a path, ``#``
  and all), as ``--format`` does for the other commands and the Format box for an upload;
* ``--data PATH [PATH ...]`` without a role: a file's role is guessed from its name as on the
  Data page (``gold`` / ``annotator`` in the name, else a system); a folder's files are each
  such a file, as in a folder of ``sample_data/``.

The choices travel to the streamlit process as JSON in :data:`DATA_ENV` (``ui.cli_data`` reads
it). With ``--data`` the process runs ``python -m ui.serve run app.py`` (:data:`EARLY_RUNNER`),
Streamlit's command line with a thread that starts reading the files as the server starts,
before the browser's first request.

``--store PATH`` names the SQLite file that keeps curation decisions and live classes as they are
made (:mod:`core.store`); without it the store sits beside the first ``--data`` path when that
folder is writable, else in the per-user data folder. It travels in
:data:`core.store.STORE_ENV`. Every other argument goes to ``streamlit run`` untouched.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

from core import store
from core.model import ROLES
from core.model.errors import SpanScopeError, UsageError
from core.model.roles import role_notes

DATA_ENV = "SPANSCOPE_DATA"
"""Environment variable that hands the ``--data`` choices to the dashboard: a JSON list of
``{"role": ROLE or null, "path": absolute path}``, with ``"name"`` when the value names its
set and ``"format"`` when it names its format."""

FORMAT_MARK = "#format="
"""What ends a ``--data`` value that names its input's format: ``gold=g.txt#format=doccano``."""

DATA_ROLES: dict[str, str] = {**{r: r for r in ROLES}, "pred": "system", "prediction": "system",
                              "predictions": "system", "system": "system"}
"""Role words accepted before ``=`` in ``--data ROLE=PATH`` and the role each means."""


def split_data_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(data values, the other arguments)``: every value given with ``--data``.

    ``--data A B`` takes values up to the next argument that starts with ``-``; ``--data=A``
    takes one. Raises :class:`UsageError` for a ``--data`` without a value.

    >>> split_data_args(["--data", "gold=g.json", "p.json", "--server.port", "8600"])
    (['gold=g.json', 'p.json'], ['--server.port', '8600'])
    """
    values: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("--data="):
            if not arg[len("--data="):]:
                raise UsageError("--data= needs a path (--data [ROLE=]PATH ...)")
            values.append(arg[len("--data="):])
        elif arg == "--data":
            j = i + 1
            while j < len(argv) and not argv[j].startswith("-"):
                values.append(argv[j])
                j += 1
            if j == i + 1:
                raise UsageError("--data needs at least one path (--data [ROLE=]PATH ...)")
            i = j
            continue
        else:
            rest.append(arg)
        i += 1
    return values, rest


def split_store_arg(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``(the --store path or None, the other arguments)``; the last ``--store`` wins.

    >>> split_store_arg(["--store", "s.sqlite", "--server.port", "8600"])
    ('s.sqlite', ['--server.port', '8600'])
    """
    found: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("--store="):
            found = arg[len("--store="):]
        elif arg == "--store":
            if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
                raise UsageError("--store needs a path (--store PATH)")
            found = argv[i + 1]
            i += 1
        else:
            rest.append(arg)
        i += 1
    if found == "":
        raise UsageError("--store= needs a path (--store PATH)")
    return found, rest


def resolve_store(given: str | None, data: Sequence[Mapping[str, str | None]],
                  cwd: Path | None = None) -> Path:
    """The store file: ``given`` made absolute, else :func:`core.store.default_path` beside
    the first ``--data`` path. Raises :class:`SpanScopeError` naming the path when ``given``
    is a folder."""
    if given is None:
        return store.default_path([str(d["path"]) for d in data])
    path = Path(given).expanduser()
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    if path.is_dir():
        raise SpanScopeError(f"{given}: is a folder; --store names a file (e.g. "
                             f"{Path(given) / 'spanscope.sqlite'})")
    return path


def parse_data_value(value: str, cwd: Path | None = None) -> dict[str, str | None]:
    """``{"role": ..., "path": ...}`` of one ``--data`` value, the path made absolute, and
    ``"name"`` when the value names the set (``NAME:ROLE=PATH``) and ``"format"`` when it
    names the format (``PATH#format=FORMAT``, :data:`FORMAT_MARK`).

    A prefix before ``=`` that is neither a role word nor ``NAME:`` and a role word belongs to
    the path (``a=b.json`` is a file name), and so does a ``#format=`` suffix when the path
    exists with it. Raises :class:`SpanScopeError` naming the path when it does not exist,
    :class:`UsageError` for a format that is none of :data:`core.formats.FORMATS`.

    >>> parse_data_value("pred=/tmp")
    {'role': 'system', 'path': '/tmp'}
    >>> parse_data_value("Ayla R.:annotator=/tmp")
    {'role': 'annotator', 'path': '/tmp', 'name': 'Ayla R.'}

    ``PATH#format=FORMAT`` reads the file in that format (one of :data:`core.formats.FORMATS`)
    instead of detecting it, when the value as written is no file:

    >>> parse_data_value("gold=/tmp#format=doccano")
    {'role': 'gold', 'path': '/tmp', 'format': 'doccano'}
    """
    role: str | None = None
    name: str | None = None
    path = value
    head, sep, tail = value.partition("=")
    named, colon, word = head.rpartition(":")
    if sep and colon and word.lower() in DATA_ROLES:
        if not named.strip():
            raise UsageError(f"--data {value}: no set name before ':{word}=' "
                             "(--data NAME:ROLE=PATH)")
        name, head = named.strip(), word
    if sep and head.lower() in DATA_ROLES:
        role, path = DATA_ROLES[head.lower()], tail
        if not path:
            raise UsageError(f"--data {value}: no path after '{head}='")
    full = _absolute(path, cwd)
    fmt: str | None = None
    if not full.exists() and FORMAT_MARK in path:
        from core.formats import FORMATS  # with the plugins' formats (core.cli.build_parser)

        path, _, fmt = path.rpartition(FORMAT_MARK)
        if fmt not in FORMATS:
            raise UsageError(f"--data {value}: unknown format {fmt!r} after '{FORMAT_MARK}' "
                             f"(one of: {', '.join(FORMATS)})")
        full = _absolute(path, cwd)
    if not full.exists():
        raise SpanScopeError(f"{path}: no such file or folder (--data)")
    out: dict[str, str | None] = {"role": role, "path": str(full.resolve())}
    if name is not None:
        out["name"] = name
    if fmt is not None:
        out["format"] = fmt
    return out


def _absolute(path: str, cwd: Path | None) -> Path:
    full = Path(path).expanduser()
    return full if full.is_absolute() else (cwd or Path.cwd()) / full

DASHBOARD_PACKAGE = "spanscope_dashboard"
"""The installed package that holds the dashboard's files after ``pip install .``."""


def _is_dashboard(folder: Path) -> bool:
    return (folder / "app.py").is_file() and (folder / "pages").is_dir()


def dashboard_root() -> Path:
    """The folder that holds ``app.py``, ``pages/`` and ``sample_data/``.

    A checkout wins over an installed copy, so that ``python -m core app`` in a checkout shows
    that checkout's dashboard. Raises :class:`~core.model.errors.SpanScopeError` when neither
    exists.
    """
    checkout = Path(__file__).resolve().parent.parent.parent
    if _is_dashboard(checkout):
        return checkout
    spec = importlib.util.find_spec(DASHBOARD_PACKAGE)
    for location in (spec.submodule_search_locations or []) if spec else []:
        if _is_dashboard(Path(location)):
            return Path(location)
    raise SpanScopeError(f"the dashboard's app.py was found neither beside {checkout / 'core'} "
                         f"nor in an installed {DASHBOARD_PACKAGE!r} package; reinstall SpanScope")


EARLY_RUNNER = "ui.serve"
"""The module that runs ``streamlit run`` when there are ``--data`` files: Streamlit's own
command line, plus a thread that reads the files as the server starts instead of when the
first page runs (the dashboard's ``ui/serve.py``; named, never imported here)."""


def app_command(streamlit_args: Sequence[str], root: Path, *,
                read_early: bool = False) -> list[str]:
    """``python -m streamlit run <root>/app.py [streamlit_args...]``; with ``read_early``
    (there are ``--data`` files), ``python -m ui.serve run ...``: the same, with the files read
    as the server starts (:data:`EARLY_RUNNER`)."""
    runner = EARLY_RUNNER if read_early else "streamlit"
    return [sys.executable, "-m", runner, "run", str(root / "app.py"), *streamlit_args]


def app_environment(root: Path, environ: Mapping[str, str] | None = None,
                    data: Sequence[Mapping[str, str | None]] = (),
                    store_file: Path | None = None) -> dict[str, str]:
    """``environ`` (default: this process's) with ``SPANSCOPE_DATA_DIR`` defaulting to the
    bundled ``sample_data/``, the ``--data`` choices (:func:`parse_data_value`) in
    :data:`DATA_ENV` when there are any (else an inherited value is dropped, so that a nested
    launch never shows stale files), and the store file in :data:`core.store.STORE_ENV` when
    given."""
    env = dict(os.environ if environ is None else environ)
    env.setdefault("SPANSCOPE_DATA_DIR", str(root / "sample_data"))
    env.pop(DATA_ENV, None)
    if data:
        env[DATA_ENV] = json.dumps([dict(d) for d in data])
    if store_file is not None:
        env[store.STORE_ENV] = str(store_file)
    return env


def app_help(prog: str = "spanscope") -> str:
    """What ``spanscope app --help`` prints before Streamlit's own help: this command's options
    (``--data``, ``--store``), then that Streamlit's options pass through."""
    from core.formats import FORMATS

    roles = ", ".join(sorted(DATA_ROLES))
    pad = " " * 8
    return (
        f"usage: {prog} app [--data [[NAME:]ROLE=]PATH[#format=FORMAT] ...] [--store PATH]\n"
        "       [streamlit run options]\n\n"
        "Start the SpanScope dashboard: on the bundled sample data, or on files and folders\n"
        "from this machine's disk.\n\n"
        "options:\n"
        "  --data [[NAME:]ROLE=]PATH[#format=FORMAT] ...\n"
        "        open files or folders (repeatable; read by the server, without the browser's\n"
        f"        upload limit). ROLE is one of {roles};\n"
        "        a folder with a role is one input (an annotation tool's export). Without a "
        "role a\n"
        "        file's name says its role (gold / annotator in the name, else a system) and a\n"
        "        folder's files are each such a file (a folder of brat .ann/.txt files is one\n"
        "        such file). NAME names the set instead of the file. #format=FORMAT after the\n"
        "        path reads it in that format instead of the one detected (as --format does\n"
        "        for the other commands), one of:\n"
        f"{textwrap.fill(', '.join(FORMATS), 88, initial_indent=pad, subsequent_indent=pad)}\n"
        "        Example: --data gold=gold.json --data pred=run1.json\n"
        "                 --data Ayla:annotator=ayla.jsonl --data Bo:annotator=bo.jsonl\n"
        "                 --data gold=export.txt#format=doccano\n"
        "  --store PATH\n"
        "        the SQLite file that keeps curation decisions and live classes (default: beside\n"
        "        the first --data path when that folder is writable, else the per-user data\n"
        "        folder)\n\n"
        "Every other option goes to `streamlit run` untouched, e.g. --server.port 8600 or\n"
        "--server.address 0.0.0.0. Streamlit's options follow.\n"
    )


def run_app(args: Sequence[str]) -> int:
    """Start the dashboard with ``args`` (``--data`` values, then streamlit's); return
    streamlit's exit status.

    On POSIX the process *becomes* streamlit (``exec``), so a signal sent to ``spanscope app``
    (Ctrl-C, ``kill PID``) reaches the server itself and leaves no orphan behind.
    """
    if "--help" in args or "-h" in args:
        print(app_help(), flush=True)  # ours first; Streamlit's own help follows
    given, args = split_store_arg(args)
    values, streamlit_args = split_data_args(args)
    cwd = Path.cwd()
    data = [parse_data_value(v, cwd) for v in values]
    for note in role_notes([(v["role"], v["path"]) for v in data]):
        print(note, file=sys.stderr, flush=True)
    inherited = given is None and os.environ.get(store.STORE_ENV)
    store_file = None if inherited else resolve_store(given, data, cwd)
    root = dashboard_root()
    cmd = app_command(streamlit_args, root, read_early=bool(data))
    env = app_environment(root, data=data, store_file=store_file)
    os.chdir(root)
    if os.name == "posix":  # pragma: no cover - replaces the process; tested through the CLI
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, cmd, env)
    return subprocess.call(cmd, env=env)
