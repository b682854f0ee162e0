"""The embedded store: one SQLite file that keeps what people do in the dashboard (curation
decisions, live-class answers) as they do it, so that a closed tab or a restarted server loses
nothing.

The file is named by ``spanscope app --store PATH``; without it, :func:`default_path` picks one
beside the data. Each feature keeps its tables in its own module of this package and declares
them with :func:`ensure_schema`; this module only opens the file and runs transactions.

* :func:`connect` opens a connection in autocommit mode with write-ahead logging (readers never
  wait for a writer; a killed process loses at most the transaction in flight), a busy timeout
  (two browser tabs, two sessions, one file) and foreign keys on. A connection belongs to one
  thread: Streamlit runs each session in a thread of its own, so open one per operation (cheap)
  rather than sharing one.
* :func:`transaction` runs a block as one ``BEGIN IMMEDIATE`` transaction: it takes the write
  lock before it reads, so a check-then-write (is this decision still the one the tab saw?)
  cannot interleave with another writer's.

SQLite's guarantees are documented at https://www.sqlite.org/atomiccommit.html and
https://www.sqlite.org/wal.html.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from core.model.errors import SpanScopeError

STORE_ENV = "SPANSCOPE_STORE"
"""Environment variable that hands ``spanscope app --store PATH`` to the dashboard."""

FILE_NAME = ".spanscope-store.sqlite"
"""Name of the default store file (:func:`default_path`)."""

BUSY_TIMEOUT_MS = 5_000


def connect(path: str | Path) -> sqlite3.Connection:
    """A new connection to the store at ``path`` (created, with its folder, when missing).

    Raises :class:`~core.model.errors.SpanScopeError` naming the file when it cannot be
    opened or is not an SQLite database.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    except (OSError, sqlite3.Error) as exc:
        raise SpanScopeError(f"{path}: cannot open the store ({exc})") from exc
    conn.row_factory = sqlite3.Row
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the block as one immediate transaction: committed when it ends, rolled back when
    it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def ensure_schema(conn: sqlite3.Connection, name: str, version: int,
                  statements: Iterable[str]) -> None:
    """Create feature ``name``'s tables (``statements``, each idempotent: ``CREATE TABLE IF
    NOT EXISTS ...``) and record ``version``.

    A store written by a newer SpanScope (a higher version for ``name``) is refused rather
    than misread.
    """
    with transaction(conn):
        conn.execute("CREATE TABLE IF NOT EXISTS schema_versions "
                     "(name TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        row = conn.execute("SELECT version FROM schema_versions WHERE name = ?",
                           (name,)).fetchone()
        if row is not None and row[0] > version:
            raise SpanScopeError(f"the store holds {name!r} tables of version {row[0]}, newer "
                                 f"than this SpanScope's {version}: upgrade SpanScope")
        for statement in statements:
            conn.execute(statement)
        conn.execute("INSERT INTO schema_versions (name, version) VALUES (?, ?) "
                     "ON CONFLICT(name) DO UPDATE SET version = excluded.version",
                     (name, version))


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def user_folder(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user data folder (``$XDG_DATA_HOME/spanscope``, else
    ``~/.local/share/spanscope``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "spanscope"


def default_path(data_paths: Sequence[str | Path] = (),
                 environ: Mapping[str, str] | None = None) -> Path:
    """Where the store lives when ``--store`` is not given.

    Beside the data: in the folder of the first ``--data`` path (the folder itself when it is
    one), when that folder is writable; else in the per-user data folder (:func:`user_folder`),
    which also serves the bundled sample data. Beside the data so that the decisions follow
    the corpus they were made on: a data folder copied to a colleague or kept on a shared drive
    carries its curation, and the decisions already saved there are found again on the next
    ``spanscope app --data`` of that folder. The Data page says which file is used
    (:func:`where`; ``docs/dashboard.md``).
    """
    for raw in data_paths[:1]:
        path = Path(raw)
        folder = path if path.is_dir() else path.parent
        if _writable(folder):
            return folder / FILE_NAME
    return user_folder(environ) / "store.sqlite"


def where(path: Path, environ: Mapping[str, str] | None = None) -> str:
    """Which store ``path`` is, in words a page can show without naming the server's folders.

    >>> where(Path("/srv/corpus") / FILE_NAME)
    '.spanscope-store.sqlite beside the data (in the folder of the first --data path)'
    >>> where(Path("/x/y.sqlite"))
    'y.sqlite (named by --store)'
    """
    if path.name == FILE_NAME:
        return f"{FILE_NAME} beside the data (in the folder of the first --data path)"
    if path == user_folder(environ) / "store.sqlite":
        return ("store.sqlite in the per-user data folder ($XDG_DATA_HOME/spanscope, else "
                "~/.local/share/spanscope)")
    return f"{path.name} (named by --store)"


def store_path(environ: Mapping[str, str] | None = None) -> Path:
    """The store the dashboard uses: :data:`STORE_ENV` when set, else :func:`default_path`
    without data."""
    env = os.environ if environ is None else environ
    return Path(env[STORE_ENV]) if env.get(STORE_ENV) else default_path((), env)
