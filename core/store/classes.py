"""Live classes in the store: one class per code, its students (a chosen nickname, nothing else)
and their answers, kept until the teacher closes the class.

A teacher opens a class on one exercise (:func:`open_class`); students join with a nickname
(:func:`join`) and send their guesses (:func:`submit`, which replaces the student's earlier
guesses for that exercise); the teacher reads them (:func:`answers`), reveals the solution
(:func:`reveal`), moves the class to another exercise (:func:`next_exercise`) and finally closes
it (:func:`close`), which deletes the class with its students and answers.

The code is drawn from :mod:`secrets` (:data:`CODE_BITS` bits, base32 without padding): it is
the only thing a student needs, so it must not be guessable. The teacher's actions need a second
secret, the teacher key, that only the teacher's page holds. Tables are declared with
:func:`core.store.ensure_schema` under the feature name ``live_class``
(``docs/teaching.md``).
"""

from __future__ import annotations

import base64
import secrets
import sqlite3
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from core.model.errors import SpanScopeError
from core.store import ensure_schema, transaction

FEATURE = "live_class"
VERSION = 1
CODE_BITS = 40
"""Entropy of a class code: 40 bits, eight base32 characters (about 10^12 codes)."""
TEACHER_KEY_BYTES = 16
NICKNAME_MAX = 24
LENGTHS = ("short", "long")

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS live_classes ("
    " code TEXT PRIMARY KEY, teacher_key TEXT NOT NULL, seed INTEGER NOT NULL,"
    " length TEXT NOT NULL, revealed INTEGER NOT NULL DEFAULT 0, opened REAL NOT NULL,"
    " changed REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS live_students ("
    " code TEXT NOT NULL REFERENCES live_classes(code) ON DELETE CASCADE,"
    " student TEXT NOT NULL, nickname TEXT NOT NULL, nickname_key TEXT NOT NULL,"
    " joined REAL NOT NULL, PRIMARY KEY (code, student), UNIQUE (code, nickname_key))",
    "CREATE TABLE IF NOT EXISTS live_answers ("
    " code TEXT NOT NULL, student TEXT NOT NULL, seed INTEGER NOT NULL,"
    " metric TEXT NOT NULL, quantity TEXT NOT NULL, guess TEXT NOT NULL, at REAL NOT NULL,"
    " PRIMARY KEY (code, student, seed, metric, quantity),"
    " FOREIGN KEY (code, student) REFERENCES live_students(code, student) ON DELETE CASCADE)",
)


@dataclass(frozen=True)
class LiveClass:
    """A class as the store keeps it: which exercise (``seed``, ``length``), whether its
    solution is revealed, and when it last changed (students' pages follow ``changed``)."""

    code: str
    seed: int
    length: str
    revealed: bool
    opened: float
    changed: float


_ENSURED: set[str] = set()


def ensure(conn: sqlite3.Connection) -> None:
    """Create the live-class tables when missing (once per store file and process: forty
    phones asking every second must not each take the write lock to check)."""
    row = conn.execute("PRAGMA database_list").fetchone()
    path = str(row[2]) if row is not None and row[2] else ""
    if path and path in _ENSURED:
        return
    ensure_schema(conn, FEATURE, VERSION, SCHEMA)
    if path:
        _ENSURED.add(path)


def new_code() -> str:
    """A fresh class code: :data:`CODE_BITS` random bits from :mod:`secrets`, as lower-case
    base32 (eight characters from a-z and 2-7, easy to type on a phone).

    >>> len(new_code()), new_code() != new_code()
    (8, True)
    """
    raw = secrets.token_bytes(CODE_BITS // 8)
    return base64.b32encode(raw).decode("ascii").rstrip("=").lower()


def normal_code(text: str) -> str | None:
    """``text`` as a class code (spaces, dashes and case ignored), None when it cannot be one.

    >>> normal_code(" ABCD-EF23 "), normal_code("abc"), normal_code("abcdef01")
    ('abcdef23', None, None)
    """
    code = "".join(text.split()).replace("-", "").lower()
    alphabet = set("abcdefghijklmnopqrstuvwxyz234567")
    return code if len(code) == CODE_BITS // 5 and set(code) <= alphabet else None


def normal_nickname(text: str) -> str:
    """The nickname as shown (spaces collapsed); raises :class:`SpanScopeError` saying what is
    wrong with it (empty, too long, control characters)."""
    name = " ".join(str(text).split())
    if not name:
        raise SpanScopeError("nickname: choose a nickname (any name your teacher will "
                             "recognise; nothing else is asked)")
    if len(name) > NICKNAME_MAX:
        raise SpanScopeError(f"nickname: at most {NICKNAME_MAX} characters, got {len(name)}")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise SpanScopeError("nickname: control characters are not allowed")
    return name


def _row(row: sqlite3.Row) -> LiveClass:
    return LiveClass(row["code"], int(row["seed"]), row["length"], bool(row["revealed"]),
                     float(row["opened"]), float(row["changed"]))


def open_class(conn: sqlite3.Connection, seed: int, length: str = "short",
               now: float | None = None) -> tuple[LiveClass, str]:
    """Open a class on the exercise ``seed`` (``length``: one of :data:`LENGTHS`); returns it
    with its teacher key."""
    if length not in LENGTHS:
        raise SpanScopeError(f"The 'length' parameter of open_class must be one of "
                             f"{set(LENGTHS)}. Got {length!r} instead.")
    ensure(conn)
    at = time.time() if now is None else now
    key = secrets.token_urlsafe(TEACHER_KEY_BYTES)
    with transaction(conn):
        while True:  # a collision is one chance in 10^12 per open class: draw again
            code = new_code()
            if conn.execute("SELECT 1 FROM live_classes WHERE code = ?",
                            (code,)).fetchone() is None:
                break
        conn.execute("INSERT INTO live_classes (code, teacher_key, seed, length, revealed, "
                     "opened, changed) VALUES (?, ?, ?, ?, 0, ?, ?)",
                     (code, key, seed, length, at, at))
    return LiveClass(code, seed, length, False, at, at), key


def get_class(conn: sqlite3.Connection, code: str) -> LiveClass | None:
    """The open class of ``code``, None when there is none (never opened, or closed)."""
    ensure(conn)
    row = conn.execute("SELECT * FROM live_classes WHERE code = ?", (code,)).fetchone()
    return None if row is None else _row(row)


def is_teacher(conn: sqlite3.Connection, code: str, key: str) -> bool:
    """Whether ``key`` is the teacher key of class ``code`` (compared in constant time)."""
    ensure(conn)
    return _is_teacher(conn, code, key)


def _is_teacher(conn: sqlite3.Connection, code: str, key: str) -> bool:
    row = conn.execute("SELECT teacher_key FROM live_classes WHERE code = ?",
                       (code,)).fetchone()
    return row is not None and secrets.compare_digest(str(row[0]), str(key))


def _teacher(conn: sqlite3.Connection, code: str, key: str) -> None:
    if not _is_teacher(conn, code, key):
        raise SpanScopeError(f"class {code}: only its teacher can do this (closed, or a wrong "
                             "teacher key)")


def join(conn: sqlite3.Connection, code: str, nickname: str,
         now: float | None = None) -> str:
    """Join class ``code`` as ``nickname``; returns the student's token (kept by the student's
    page, in its session and its address, it is what later answers are filed under and what
    brings the student back after a reload: :func:`nickname`). A nickname already taken in the
    class (case ignored) is refused, so the teacher's list is unambiguous and nobody takes
    another student's place: the token, not the nickname, is what gives it back."""
    name = normal_nickname(nickname)
    ensure(conn)
    student = secrets.token_urlsafe(12)
    with transaction(conn):
        if conn.execute("SELECT 1 FROM live_classes WHERE code = ?", (code,)).fetchone() is None:
            raise SpanScopeError(f"class {code}: no such class (closed, or a mistyped code)")
        taken = conn.execute("SELECT 1 FROM live_students WHERE code = ? AND nickname_key = ?",
                             (code, name.casefold())).fetchone()
        if taken is not None:
            raise SpanScopeError(f"nickname: {name!r} is taken in this class; choose another "
                                 "(if it is yours, open the address of the tab you joined "
                                 "from: it brings you back)")
        conn.execute("INSERT INTO live_students (code, student, nickname, nickname_key, joined) "
                     "VALUES (?, ?, ?, ?, ?)",
                     (code, student, name, name.casefold(), time.time() if now is None else now))
    return student


TOKEN_MAX = 64
"""A student token is 16 characters (:func:`secrets.token_urlsafe` of 12 bytes); a value from an
address longer than this is not looked up."""


def nickname(conn: sqlite3.Connection, code: str, student: str) -> str | None:
    """The nickname of ``student`` in class ``code`` (None when unknown: the class was closed,
    or the token is not one of its students')."""
    if not student or len(student) > TOKEN_MAX:
        return None
    ensure(conn)
    row = conn.execute("SELECT nickname FROM live_students WHERE code = ? AND student = ?",
                       (code, student)).fetchone()
    return None if row is None else str(row[0])


def submit(conn: sqlite3.Connection, code: str, student: str, seed: int,
           guesses: Mapping[tuple[str, str], str], now: float | None = None) -> None:
    """Record ``student``'s guesses ``{(metric, "P" | "R"): text}`` for exercise ``seed``,
    replacing earlier ones. Refused once the solution is revealed, when the class has moved to
    another exercise, or when the class or the student is unknown."""
    ensure(conn)
    at = time.time() if now is None else now
    with transaction(conn):
        row = conn.execute("SELECT seed, revealed FROM live_classes WHERE code = ?",
                           (code,)).fetchone()
        if row is None:
            raise SpanScopeError(f"class {code}: no such class (the teacher closed it)")
        if int(row["seed"]) != seed:
            raise SpanScopeError(f"class {code}: the class has moved on to exercise "
                                 f"{row['seed']}; answers for exercise {seed} are closed")
        if row["revealed"]:
            raise SpanScopeError(f"class {code}: the solution is revealed; answers are closed")
        if conn.execute("SELECT 1 FROM live_students WHERE code = ? AND student = ?",
                        (code, student)).fetchone() is None:
            raise SpanScopeError(f"class {code}: join with a nickname first")
        conn.execute("DELETE FROM live_answers WHERE code = ? AND student = ? AND seed = ?",
                     (code, student, seed))
        conn.executemany(
            "INSERT INTO live_answers (code, student, seed, metric, quantity, guess, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(code, student, seed, m, q, str(g)[:64], at) for (m, q), g in guesses.items()])
        conn.execute("UPDATE live_classes SET changed = ? WHERE code = ?", (at, code))


def sent(conn: sqlite3.Connection, code: str, student: str, seed: int
         ) -> tuple[dict[tuple[str, str], str], float] | None:
    """What ``student`` last sent for exercise ``seed`` of class ``code`` and when (None when
    nothing was sent): a student's page that lost its session (a reload, a restarted server)
    shows and grades these."""
    ensure(conn)
    rows = conn.execute("SELECT metric, quantity, guess, at FROM live_answers "
                        "WHERE code = ? AND student = ? AND seed = ?",
                        (code, student, seed)).fetchall()
    if not rows:
        return None
    return ({(str(r[0]), str(r[1])): str(r[2]) for r in rows}, max(float(r[3]) for r in rows))


@dataclass(frozen=True)
class Roster:
    """Who joined class ``code`` and what each sent for the current exercise."""

    joined: dict[str, str]  # student token -> nickname
    answers: dict[str, dict[tuple[str, str], str]]  # student token -> guesses
    last_answer: float | None

    @property
    def answered(self) -> int:
        return len(self.answers)


def roster(conn: sqlite3.Connection, code: str, seed: int) -> Roster:
    """The students of class ``code`` and their guesses for exercise ``seed``."""
    ensure(conn)
    joined = {str(r[0]): str(r[1]) for r in conn.execute(
        "SELECT student, nickname FROM live_students WHERE code = ? ORDER BY joined",
        (code,))}
    out: dict[str, dict[tuple[str, str], str]] = {}
    last: float | None = None
    for r in conn.execute("SELECT student, metric, quantity, guess, at FROM live_answers "
                          "WHERE code = ? AND seed = ?", (code, seed)):
        out.setdefault(str(r[0]), {})[(str(r[1]), str(r[2]))] = str(r[3])
        last = float(r[4]) if last is None else max(last, float(r[4]))
    return Roster(joined, out, last)


def reveal(conn: sqlite3.Connection, code: str, key: str, now: float | None = None) -> None:
    """Reveal the solution of the current exercise to every student (answers close)."""
    ensure(conn)
    with transaction(conn):
        _teacher(conn, code, key)
        conn.execute("UPDATE live_classes SET revealed = 1, changed = ? WHERE code = ?",
                     (time.time() if now is None else now, code))


def next_exercise(conn: sqlite3.Connection, code: str, key: str, seed: int,
                  length: str | None = None, now: float | None = None) -> None:
    """Move the class to exercise ``seed`` (hidden again); earlier answers stay until the class
    is closed."""
    ensure(conn)
    if length is not None and length not in LENGTHS:
        raise SpanScopeError(f"The 'length' parameter of next_exercise must be one of "
                             f"{set(LENGTHS)}. Got {length!r} instead.")
    with transaction(conn):
        _teacher(conn, code, key)
        conn.execute("UPDATE live_classes SET seed = ?, length = COALESCE(?, length), "
                     "revealed = 0, changed = ? WHERE code = ?",
                     (seed, length, time.time() if now is None else now, code))


def close(conn: sqlite3.Connection, code: str, key: str) -> None:
    """Close class ``code``: the class, its students and every answer are deleted."""
    ensure(conn)
    with transaction(conn):
        _teacher(conn, code, key)
        conn.execute("DELETE FROM live_answers WHERE code = ?", (code,))
        conn.execute("DELETE FROM live_students WHERE code = ?", (code,))
        conn.execute("DELETE FROM live_classes WHERE code = ?", (code,))
