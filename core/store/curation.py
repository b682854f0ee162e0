"""Curation projects and the lead's decisions in the embedded store, written as they are made.

A *project* is one set of inputs: the annotators' sets and their texts. Its key,
:func:`project_key`, is a digest of their content (names, spans, texts), so the same files loaded
again, from another tab, after a restart or from another folder, find the same decisions, and
other inputs start a project of their own. Decisions are keyed by
:attr:`core.analysis.consensus.Decision.key` (document, members, proposal), as in the session and
the decisions CSV, so a project keeps the decisions of every rule set tried on its inputs.

Each decision row carries a ``revision``, taken from a counter of its project that every write
increases (``curation_counters``), so a revision names one state of one decision and is never
given again, even after the row is removed. A writer passes the revision it last read (``None``:
it saw no decision); :func:`write` (and :func:`record`, :func:`forget`) refuses the write with
:class:`Conflict` when the row has changed since, inside one immediate transaction
(:func:`core.store.transaction`), so two tabs never overwrite each other silently.
A batch of decisions (accept every remaining proposal) shares a ``batch`` id that
:func:`undo_batch` removes at once; :func:`last_batch` finds the latest batch still in place, so
a reloaded tab or another session can undo it too.

The lead's single decisions can be taken back one by one, last first (the page's Undo), from
any tab or session on the same inputs: a decision written with ``undoable=True`` keeps, in the
same transaction, what the decision was before (none, or the row as it was, with its revision)
and the revision it wrote, in ``curation_history``; :func:`undo` puts the last one back, with
the revision it had, only while the row still holds the revision that decision wrote. A write
Undo cannot take back (a reset, a batch, decisions loaded from a file) removes the history of
its keys, so Undo never reverts a write it did not record. The history is the project's, not
a tab's (a reloaded tab has no other identity), and keeps the last :data:`UNDO_DEPTH` decisions.
A store written before revisions were counted per project is read as it is; of its Undo
history, which did not say which revision each decision wrote, the entries that provably wrote
the decisions as they are are kept, the others dropped, and a note says so once
(:func:`upgrade_note`).

The proposal itself (:class:`~core.analysis.consensus.Consensus`) is kept too, per project and
rules, as compressed JSON (:func:`save_proposal`, :func:`load_proposal`): γ matching aligns every
document of every annotator, which takes seconds on thousands of documents, and a restarted
server would otherwise do it again before showing a single decision. A stored proposal is used
only when it was made by the same code (:data:`CODE`, a digest of the source of the consensus
module, of this module, and of every ``core`` module they import: :data:`SOURCES`, read when
this module is imported).
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
import sqlite3
import time
import uuid
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.analysis import consensus as _consensus
from core.analysis.consensus import ACTIONS, Consensus, Decision, Override
from core.model import AnnotationSet, Span
from core.model.errors import SpanScopeError
from core.store import connect, ensure_schema, transaction

SCHEMA = "curation"
VERSION = 2
STATEMENTS = (
    "CREATE TABLE IF NOT EXISTS curation_projects (key TEXT PRIMARY KEY, title TEXT NOT NULL, "
    "created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS curation_decisions ("
    "project TEXT NOT NULL REFERENCES curation_projects(key) ON DELETE CASCADE, "
    "key TEXT NOT NULL, decision TEXT NOT NULL CHECK (decision IN ('keep', 'drop')), "
    "start INTEGER NOT NULL, end INTEGER NOT NULL, label TEXT NOT NULL, "
    "action TEXT NOT NULL, batch TEXT, revision INTEGER NOT NULL, updated REAL NOT NULL, "
    "PRIMARY KEY (project, key))",
    "CREATE INDEX IF NOT EXISTS curation_decisions_batch ON curation_decisions(project, batch)",
    "CREATE TABLE IF NOT EXISTS curation_history (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "project TEXT NOT NULL REFERENCES curation_projects(key) ON DELETE CASCADE, "
    "key TEXT NOT NULL, decision TEXT CHECK (decision IN ('keep', 'drop')), start INTEGER, "
    "end INTEGER, label TEXT, action TEXT, batch TEXT, created REAL NOT NULL, "
    "before_revision INTEGER, revision INTEGER)",
    "CREATE INDEX IF NOT EXISTS curation_history_project ON curation_history(project, id)",
    "CREATE TABLE IF NOT EXISTS curation_counters ("
    "project TEXT PRIMARY KEY REFERENCES curation_projects(key) ON DELETE CASCADE, "
    "revision INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS curation_notes ("
    "project TEXT PRIMARY KEY REFERENCES curation_projects(key) ON DELETE CASCADE, "
    "note TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS curation_proposals ("
    "project TEXT NOT NULL REFERENCES curation_projects(key) ON DELETE CASCADE, "
    "rules TEXT NOT NULL, code TEXT NOT NULL, payload BLOB NOT NULL, created REAL NOT NULL, "
    "PRIMARY KEY (project, rules))",
)

_IMPORTS = re.compile(rb"^[ \t]*(?:import[ \t]+(core(?:\.\w+)*)"
                      rb"|from[ \t]+(core(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*))",
                      re.MULTILINE)
"""A ``core`` import, at any indent (function-level ones too): ``import core.x`` or ``from
core.x import a, b`` (the names in parentheses over several lines); a match inside a string
adds a file the digest need not hold, never leaves one out."""


def _sources(*modules: str) -> dict[Path, bytes]:
    """The source of each of ``modules`` and of every ``core`` module it imports, at any depth
    (function-level imports included), by path, sorted: what a proposal
    :mod:`core.analysis.consensus` made depends on (its γ alignment, the study whose warnings it
    keeps, the spans), and how this module stores it. Each file is read once; its imports are
    found by :data:`_IMPORTS` (some 2 ms for the lot, where parsing them took 70)."""
    root = Path(_consensus.__file__).resolve().parents[2]
    found: dict[str, Path] = {}
    read: dict[Path, bytes] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        base = root / name.replace(".", "/")
        path = next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()),
                    None)
        if name in found or path is None:  # an imported name, not a module
            continue
        found[name] = path
        read[path] = source = path.read_bytes()
        for plain, module, names in _IMPORTS.findall(source):
            if plain:
                todo.append(plain.decode())
                continue
            todo.append(module.decode())
            for item in names.strip(b"()").split(b","):
                word = item.split(b"#")[0].split()[:1]
                if word:
                    todo.append(f"{module.decode()}.{word[0].decode()}")
    return {p: read[p] for p in sorted(read)}


def _digest(sources: Mapping[Path, bytes]) -> str:
    root = Path(_consensus.__file__).resolve().parents[2]
    return hashlib.sha256(b"".join(p.relative_to(root).as_posix().encode() + b"\0" + text
                                   for p, text in sources.items())).hexdigest()[:16]


_READ = _sources(_consensus.__name__, __name__)
SOURCES: tuple[Path, ...] = tuple(_READ)
"""The files :data:`CODE` hashes: the consensus module, this module (how a proposal is
encoded and built again) and every ``core`` module either imports."""
CODE: str = _digest(_READ)
"""A digest of :data:`SOURCES` as they were when this module was imported, alongside the code
that runs (read then, once: a file edited or pulled while a server runs must not put the
running code's proposal under the new code's digest), so that a proposal stored by other code
(another wording of a warning it keeps included) is computed again."""
del _READ


UNDO_DEPTH = 200
"""How many of a project's last decisions :func:`undo` can take back (older ones are
forgotten as new ones are made): the last working session's, and the history stays small."""

Seen = Mapping[str, int]
"""The revision of each decision a tab last read (a key it saw undecided is absent)."""


class Conflict(SpanScopeError):
    """A decision changed in the store since this tab read it (another tab decided it)."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = tuple(keys)
        super().__init__(f"{len(self.keys)} decision(s) changed in another tab or session since "
                         "this one read them; nothing was written")

    def __reduce__(self) -> tuple[type[Conflict], tuple[tuple[str, ...]]]:
        return (type(self), (self.keys,))  # the default passes the message as the keys


@dataclass(frozen=True)
class Stored:
    """A decision as the store holds it."""

    override: Override
    revision: int
    batch: str | None


def project_key(sets: Iterable[AnnotationSet], texts: Mapping[str, str | None]) -> str:
    """A digest of the inputs' content: each set's name and spans (sorted by name), then each
    document's id and text; the order the files were loaded in does not matter."""
    h = hashlib.sha256(b"spanscope-curation-1\0")
    for aset in sorted(sets, key=lambda a: a.name):
        h.update(b"S" + aset.name.encode("utf-8") + b"\0")
        for doc, spans in sorted(aset):
            h.update(b"D" + doc.encode("utf-8") + b"\0")
            for s in spans:
                h.update(f"{s.start},{s.end},{s.label}\0".encode())
    for doc in sorted(texts):
        text = texts[doc]
        h.update(b"T" + doc.encode("utf-8") + b"\0"
                 + (b"\1" if text is None else text.encode("utf-8")) + b"\0")
    return h.hexdigest()[:32]


def open_store(path: str | Path) -> sqlite3.Connection:
    """A connection to the store at ``path`` with the curation tables in place."""
    conn = connect(path)
    ensure_schema(conn, SCHEMA, VERSION, STATEMENTS)
    _upgrade_history(conn)
    return conn


def _upgrade_history(conn: sqlite3.Connection) -> None:
    """Give a history table of version 1 its revision columns, keeping what Undo can still
    take back.

    A version-1 entry kept what its decision replaced, not the revision it wrote; but that
    decision wrote its row and its entry with one timestamp. So the last entry of a span whose
    row still carries that timestamp wrote the row as it is: it is kept, with the row's
    revision (undone, the row gets a new revision). Every other entry (replaced since by a
    write version 1 did not drop the history of: a reset, an accept-all, a loaded file; an
    older entry of a span, whose revision nothing recorded) cannot be checked and is dropped.
    Each project's revision counter starts above every revision of the old store, so no
    revision is given twice once its highest decision is undone. What was kept and dropped
    is a note of the project (:func:`upgrade_note`)."""
    with transaction(conn):
        columns = {r[1] for r in conn.execute("PRAGMA table_info(curation_history)")}
        if "revision" in columns:
            return
        conn.execute("ALTER TABLE curation_history ADD COLUMN before_revision INTEGER")
        conn.execute("ALTER TABLE curation_history ADD COLUMN revision INTEGER")
        totals = dict(conn.execute("SELECT project, count(*) FROM curation_history "
                                   "GROUP BY project").fetchall())
        # the last entry of each span, when its row carries the entry's timestamp
        conn.execute(
            "UPDATE curation_history SET revision = (SELECT d.revision FROM curation_decisions "
            "d WHERE d.project = curation_history.project AND d.key = curation_history.key "
            "AND d.updated = curation_history.created) WHERE id IN (SELECT max(id) FROM "
            "curation_history GROUP BY project, key)")
        conn.execute("DELETE FROM curation_history WHERE revision IS NULL")
        kept = dict(conn.execute("SELECT project, count(*) FROM curation_history "
                                 "GROUP BY project").fetchall())
        conn.execute("INSERT INTO curation_counters (project, revision) SELECT project, "
                     "max(revision) FROM curation_decisions GROUP BY project "
                     "ON CONFLICT(project) DO UPDATE SET revision = "
                     "max(revision, excluded.revision)")
        for project, total in totals.items():
            conn.execute("INSERT OR REPLACE INTO curation_notes (project, note) VALUES (?, ?)",
                         (project, _upgrade_words(kept.get(project, 0), total)))


def _upgrade_words(kept: int, total: int) -> str:
    head = ("This store was written by an earlier SpanScope, whose Undo history did not "
            "record which revision each decision wrote: ")
    tail = " (the decisions themselves are all kept)."
    if not kept:
        return (head + ("its 1 entry could not be checked against the decisions as they "
                        "are now and was dropped" if total == 1 else
                        f"its {total:,} entries could not be checked against the decisions "
                        "as they are now and were dropped")
                + ", so Undo starts from the decisions made from now on" + tail)
    dropped = total - kept
    return (head + (f"1 of its {total:,} entries wrote a decision as it is now and Undo can "
                    "take it back" if kept == 1 else
                    f"{kept:,} of its {total:,} entries wrote the decisions as they are now "
                    "and Undo can take them back")
            + ("" if not dropped else f"; the other {dropped:,} could not be checked and "
               f"{'was' if dropped == 1 else 'were'} dropped") + tail)


def upgrade_note(conn: sqlite3.Connection, project: str) -> str | None:
    """What the upgrade of an earlier store kept of ``project``'s Undo history and what it
    dropped (:func:`_upgrade_history`), once: the note is removed as it is read. None when
    there is none (or it was read)."""
    if conn.execute("SELECT 1 FROM curation_notes WHERE project = ?",
                    (project,)).fetchone() is None:
        return None  # the usual case, without a write
    with transaction(conn):
        row = conn.execute("SELECT note FROM curation_notes WHERE project = ?",
                           (project,)).fetchone()
        conn.execute("DELETE FROM curation_notes WHERE project = ?", (project,))
    return None if row is None else str(row[0])


def ensure_project(conn: sqlite3.Connection, project: str, title: str) -> None:
    with transaction(conn):
        conn.execute("INSERT INTO curation_projects (key, title, created) VALUES (?, ?, ?) "
                     "ON CONFLICT(key) DO NOTHING", (project, title, time.time()))


def load(conn: sqlite3.Connection, project: str) -> dict[str, Stored]:
    """Every decision of ``project``."""
    rows = conn.execute("SELECT key, decision, start, end, label, action, batch, revision "
                        "FROM curation_decisions WHERE project = ?", (project,)).fetchall()
    return {r["key"]: Stored(Override(r["decision"], r["start"], r["end"], r["label"],
                                      r["action"]), r["revision"], r["batch"]) for r in rows}


def _changed(conn: sqlite3.Connection, project: str, keys: Iterable[str], seen: Seen
             ) -> list[str]:
    out = []
    for key in keys:
        row = conn.execute("SELECT revision FROM curation_decisions WHERE project = ? AND "
                           "key = ?", (project, key)).fetchone()
        if (None if row is None else row[0]) != seen.get(key):
            out.append(key)
    return out


def record(conn: sqlite3.Connection, project: str, decisions: Mapping[str, Override],
           seen: Seen, *, batch: str | None = None, undoable: bool = False) -> dict[str, int]:
    """Write ``decisions`` (all or none) and return their new revisions (:func:`write`).

    ``undoable``: each decision that changes its row is also kept in the project's history
    (what the row was before), which :func:`undo` takes back, last first.

    Raises :class:`Conflict` when any of them changed since ``seen`` was read.
    """
    return {k: int(v) for k, v in write(conn, project, decisions, seen, batch=batch,
                                        undoable=undoable).items() if v is not None}


def write(conn: sqlite3.Connection, project: str, changes: Mapping[str, Override | None],
          seen: Seen, *, batch: str | None = None, undoable: bool = False
          ) -> dict[str, int | None]:
    """Write ``changes`` (a decision, or None: remove it, back to the rule's proposal) in one
    transaction, all or none, and return each key's new revision (None: removed).

    ``undoable``: each decision that changes its row is kept in the project's history, which
    :func:`undo` takes back, last first. Any other write (a removal, a batch, a decision that
    is not undoable) removes the history of its keys: Undo takes back only what it recorded.

    Raises :class:`Conflict` when any of them changed since ``seen`` was read.
    """
    for o in changes.values():
        if o is not None and o.action not in ACTIONS:
            raise SpanScopeError(f"unknown curation action {o.action!r}; expected one of "
                                 f"{', '.join(ACTIONS)}")
    now = time.time()
    with transaction(conn):
        changed = _changed(conn, project, changes, seen)
        if changed:
            raise Conflict(changed)
        out: dict[str, int | None] = {}
        for key, o in changes.items():
            if o is None:
                conn.execute("DELETE FROM curation_decisions WHERE project = ? AND key = ?",
                             (project, key))
                _drop_history(conn, project, key)
                out[key] = None
                continue
            rev = _next_revision(conn, project)
            if undoable:
                _remember(conn, project, key, o, batch, rev, now)
            else:
                _drop_history(conn, project, key)
            _put(conn, project, key, o, batch, rev, now)
            out[key] = rev
        if undoable:
            _trim_history(conn, project)
    return out


def forget(conn: sqlite3.Connection, project: str, keys: Sequence[str], seen: Seen) -> None:
    """Remove the decisions ``keys`` (back to the rule's proposal; :func:`write`);
    :class:`Conflict` when any changed since ``seen`` was read."""
    write(conn, project, dict.fromkeys(keys), seen)


def _next_revision(conn: sqlite3.Connection, project: str) -> int:
    """The project's next revision: above every revision it has given (a store of version 1,
    without a counter, starts above its decisions' revisions)."""
    row = conn.execute("SELECT revision FROM curation_counters WHERE project = ?",
                       (project,)).fetchone()
    if row is None:
        row = conn.execute("SELECT max(revision) FROM curation_decisions WHERE project = ?",
                           (project,)).fetchone()
    rev = int(row[0] or 0) + 1
    conn.execute("INSERT INTO curation_counters (project, revision) VALUES (?, ?) "
                 "ON CONFLICT(project) DO UPDATE SET revision = excluded.revision",
                 (project, rev))
    return rev


def _drop_history(conn: sqlite3.Connection, project: str, key: str) -> None:
    conn.execute("DELETE FROM curation_history WHERE project = ? AND key = ?", (project, key))


def _put(conn: sqlite3.Connection, project: str, key: str, o: Override, batch: str | None,
         rev: int, now: float) -> None:
    conn.execute(
        "INSERT INTO curation_decisions (project, key, decision, start, end, label, "
        "action, batch, revision, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(project, key) DO UPDATE SET decision = excluded.decision, "
        "start = excluded.start, end = excluded.end, label = excluded.label, "
        "action = excluded.action, batch = excluded.batch, "
        "revision = excluded.revision, updated = excluded.updated",
        (project, key, o.decision, o.start, o.end, o.label, o.action, batch, rev, now))


def _remember(conn: sqlite3.Connection, project: str, key: str, new: Override,
              batch: str | None, rev: int, now: float) -> None:
    """Keep what decision ``key`` is before ``new`` replaces it at revision ``rev``. When
    ``new`` changes nothing (the same outcome again, by another action), there is nothing to
    take back: the entry that wrote the row follows it to ``rev`` instead."""
    row = conn.execute("SELECT decision, start, end, label, action, batch, revision FROM "
                       "curation_decisions WHERE project = ? AND key = ?",
                       (project, key)).fetchone()
    if row is not None and row["batch"] == batch and Override(
            row["decision"], row["start"], row["end"], row["label"], row["action"]) == new:
        conn.execute("UPDATE curation_history SET revision = ? WHERE project = ? AND key = ? "
                     "AND revision = ?", (rev, project, key, row["revision"]))
        return
    values = (None,) * 7 if row is None else tuple(row)
    conn.execute("INSERT INTO curation_history (project, key, decision, start, end, label, "
                 "action, batch, before_revision, revision, created) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (project, key, *values, rev, now))


def _trim_history(conn: sqlite3.Connection, project: str) -> None:
    conn.execute("DELETE FROM curation_history WHERE project = ? AND id <= (SELECT id FROM "
                 "curation_history WHERE project = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                 (project, project, UNDO_DEPTH))


def _history(conn: sqlite3.Connection, project: str) -> list[tuple[sqlite3.Row, bool]]:
    """The project's history, last first, each entry with whether :func:`undo` can take it
    back: the presses of Undo played in advance, without writing. An entry is in reach when
    its row holds the revision it wrote once the entries after it on that key are undone;
    one whose row was changed since by a write Undo did not record is not (undo drops it)."""
    rows = conn.execute(
        "SELECT h.id, h.key, h.decision, h.start, h.end, h.label, h.action, h.batch, "
        "h.before_revision, h.revision, d.revision AS now FROM curation_history h "
        "LEFT JOIN curation_decisions d ON d.project = h.project AND d.key = h.key "
        "WHERE h.project = ? ORDER BY h.id DESC", (project,)).fetchall()
    now: dict[str, int | None] = {r["key"]: r["now"] for r in rows}
    out = []
    for r in rows:
        live = now[r["key"]] is not None and now[r["key"]] == r["revision"]
        if live:  # undone, the row goes back to what it was before
            now[r["key"]] = None if r["decision"] is None else r["before_revision"]
        out.append((r, live))
    return out


def undo_depth(conn: sqlite3.Connection, project: str) -> int:
    """How many decisions of ``project`` :func:`undo` can take back now (last first; entries
    changed since are not counted: :func:`stale_history`)."""
    return sum(live for _, live in _history(conn, project))


def stale_history(conn: sqlite3.Connection, project: str) -> int:
    """How many entries of ``project``'s history :func:`undo` can no longer take back: their
    decision was changed since by a write Undo did not record (an older SpanScope, a hand
    edit of the store). The next :func:`undo` drops them and says how many."""
    return sum(not live for _, live in _history(conn, project))


@dataclass(frozen=True)
class Undone:
    """What :func:`undo` did: decision ``key`` is back to ``override`` (None: undecided), at
    ``revision`` (None when its row was removed); ``skipped``: the entries after it in the
    history that could no longer be undone (changed since), dropped on the way. ``key`` is
    None when nothing was taken back, only ``skipped`` entries dropped."""

    key: str | None
    override: Override | None
    revision: int | None
    skipped: int = 0


def undo(conn: sqlite3.Connection, project: str, seen: Seen) -> Undone | None:
    """Take back the project's last undoable decision still in place (:func:`write`): its row
    goes back to what it was before, with the revision it had then, and leaves the history.
    An entry whose row no longer holds the revision it wrote (changed since by a write Undo
    did not record) is dropped, not undone, and counted in :attr:`Undone.skipped`. None when
    the history is empty.

    Raises :class:`Conflict` (and undoes nothing) when that decision changed since ``seen``
    was read (another tab decided it since).
    """
    with transaction(conn):
        skipped = 0
        for row, live in _history(conn, project):
            if not live:  # changed since: not Undo's to revert
                conn.execute("DELETE FROM curation_history WHERE id = ?", (row["id"],))
                skipped += 1
                continue
            key = row["key"]
            if _changed(conn, project, [key], seen):
                raise Conflict([key])
            conn.execute("DELETE FROM curation_history WHERE id = ?", (row["id"],))
            if row["decision"] is None:
                conn.execute("DELETE FROM curation_decisions WHERE project = ? AND key = ?",
                             (project, key))
                return Undone(key, None, None, skipped)
            before = Override(row["decision"], row["start"], row["end"], row["label"],
                              row["action"])
            rev = (_next_revision(conn, project) if row["before_revision"] is None
                   else int(row["before_revision"]))
            _put(conn, project, key, before, row["batch"], rev, time.time())
            return Undone(key, before, rev, skipped)
    return Undone(None, None, None, skipped) if skipped else None


def new_batch() -> str:
    return uuid.uuid4().hex


def last_batch(conn: sqlite3.Connection, project: str) -> tuple[str, list[str]] | None:
    """The batch of the project written last whose decisions are still in place (some may
    have been changed since: they carry no batch then), and the keys of those decisions; None
    when no decision of a batch is left."""
    row = conn.execute("SELECT batch FROM curation_decisions WHERE project = ? AND batch IS NOT "
                       "NULL ORDER BY updated DESC, rowid DESC LIMIT 1", (project,)).fetchone()
    if row is None:
        return None
    keys = [r["key"] for r in conn.execute(
        "SELECT key FROM curation_decisions WHERE project = ? AND batch = ? ORDER BY key",
        (project, row["batch"]))]
    return str(row["batch"]), keys


def undo_batch(conn: sqlite3.Connection, project: str, batch: str) -> int:
    """Remove the decisions batch ``batch`` wrote and nobody changed since; how many."""
    with transaction(conn):
        cur = conn.execute("DELETE FROM curation_decisions WHERE project = ? AND batch = ?",
                           (project, batch))
        return int(cur.rowcount)


def rules_key(sets: Sequence[str], **rules: object) -> str:
    """The rules of a proposal as one text (the annotators' set names, then each rule)."""
    return json.dumps({"sets": list(sets), **rules}, sort_keys=True)


def _encode(result: Consensus) -> bytes:
    doc = {
        "name": result.set.name, "role": result.set.role,
        "set": {d: [[s.start, s.end, s.label] for s in spans] for d, spans in result.set},
        "decisions": [[d.id, d.doc, d.span.start, d.span.end, d.span.label,
                       [[a, s.start, s.end, s.label] for a, s in d.members], d.n, d.k,
                       d.decision, list(d.flags), d.why, d.group] for d in result.decisions],
        "annotators": list(result.annotators), "params": result.params,
        "warnings": list(result.warnings),
        "missing": {a: list(docs) for a, docs in result.missing.items()}}
    return zlib.compress(json.dumps(doc, ensure_ascii=False).encode("utf-8"), 6)


def _decode(payload: bytes) -> Consensus:
    gc_was_on = gc.isenabled()
    gc.disable()  # 50,000 decisions are a million new objects and no cycle: no collection
    try:
        return _build(json.loads(zlib.decompress(payload).decode("utf-8")))
    finally:
        if gc_was_on:
            gc.enable()


def _build(doc: dict[str, Any]) -> Consensus:
    """The :class:`Consensus` of a decoded payload."""
    spans: dict[tuple[int, int, str], Span] = {}

    def span(s: int, e: int, lab: str) -> Span:
        # One Span per distinct (start, end, label): a proposal repeats its members' spans (2,000
        # documents: 240,000 spans, a third of them distinct), and each Span checks its fields.
        key = (s, e, lab)
        got = spans.get(key)
        if got is None:
            got = spans[key] = Span(s, e, lab)
        return got

    aset = AnnotationSet(doc["name"], {d: tuple(span(*s) for s in ss)
                                       for d, ss in doc["set"].items()}, doc["role"])
    decisions = tuple(
        Decision(i, d, span(s, e, lab), tuple((a, span(ms, me, ml)) for a, ms, me, ml in mem),
                 n, k, verdict, tuple(flags), why, group)
        for i, d, s, e, lab, mem, n, k, verdict, flags, why, group in doc["decisions"])
    return Consensus(aset, decisions, tuple(doc["annotators"]), doc["params"],
                     tuple(doc["warnings"]),
                     {a: tuple(docs) for a, docs in doc.get("missing", {}).items()})


def save_proposal(conn: sqlite3.Connection, project: str, rules: str, result: Consensus
                  ) -> None:
    """Keep ``result``, the proposal of ``rules`` on ``project``'s inputs."""
    payload = _encode(result)
    with transaction(conn):
        conn.execute("INSERT INTO curation_proposals (project, rules, code, payload, created) "
                     "VALUES (?, ?, ?, ?, ?) ON CONFLICT(project, rules) DO UPDATE SET "
                     "code = excluded.code, payload = excluded.payload, "
                     "created = excluded.created",
                     (project, rules, CODE, payload, time.time()))


def load_proposal(conn: sqlite3.Connection, project: str, rules: str) -> Consensus | None:
    """The stored proposal of ``rules`` on ``project``'s inputs, or None (none stored, or
    stored by other consensus code)."""
    row = conn.execute("SELECT code, payload FROM curation_proposals WHERE project = ? AND "
                       "rules = ?", (project, rules)).fetchone()
    if row is None or row["code"] != CODE:
        return None
    return _decode(row["payload"])
