"""Live classes in the store (core/store/classes.py) and their tally (core/teaching/live.py):
one class per code, codes of 40 random bits, nickname only, answers kept until the teacher
closes the class; the tally counts what the exercise grader says."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core.model.errors import SpanScopeError
from core.store import classes, connect
from core.teaching import exercises, live


@pytest.fixture
def conn(tmp_path: Path):
    c = connect(tmp_path / "store.sqlite")
    yield c
    c.close()


def test_code_is_40_bits_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def token_bytes(n: int) -> bytes:
        asked.append(n)
        return bytes([0b11111, 0, 0, 0, 1])

    monkeypatch.setattr(classes.secrets, "token_bytes", token_bytes)
    code = classes.new_code()
    assert asked == [5] and classes.CODE_BITS == 40
    assert code == "d4aaaaab" and classes.normal_code(code.upper()) == code
    codes = {c for c in (classes.new_code() for _ in range(10))}
    assert len(codes) == 1  # every bit of the code comes from secrets.token_bytes


def test_codes_differ_and_read_back(conn: sqlite3.Connection) -> None:
    codes = {classes.open_class(conn, 3)[0].code for _ in range(50)}
    assert len(codes) == 50
    assert all(classes.normal_code(c) == c for c in codes)
    assert classes.normal_code("abcd-ef2") is None  # 7 characters: 35 bits, not a code


def test_a_class_from_open_to_close(conn: sqlite3.Connection) -> None:
    cls, key = classes.open_class(conn, 3, "short", now=100.0)
    assert classes.get_class(conn, cls.code) == cls
    ada = classes.join(conn, cls.code, "  Ada  ")
    bob = classes.join(conn, cls.code, "Bob")
    assert classes.nickname(conn, cls.code, ada) == "Ada"
    with pytest.raises(SpanScopeError, match="'ada' is taken"):
        classes.join(conn, cls.code, "ada")
    classes.submit(conn, cls.code, ada, 3, {("semeval2021", "P"): "1"})
    classes.submit(conn, cls.code, ada, 3, {("semeval2021", "P"): "0.5",
                                             ("mafalda", "R"): "4/7"})  # replaces the first
    roster = classes.roster(conn, cls.code, 3)
    assert roster.joined == {ada: "Ada", bob: "Bob"}
    assert roster.answers == {ada: {("semeval2021", "P"): "0.5", ("mafalda", "R"): "4/7"}}
    assert roster.answered == 1
    with pytest.raises(SpanScopeError, match="only its teacher"):
        classes.reveal(conn, cls.code, "not-the-key")
    classes.reveal(conn, cls.code, key)
    assert classes.get_class(conn, cls.code).revealed
    with pytest.raises(SpanScopeError, match="answers are closed"):
        classes.submit(conn, cls.code, bob, 3, {("semeval2021", "P"): "1"})
    classes.next_exercise(conn, cls.code, key, 4)
    moved = classes.get_class(conn, cls.code)
    assert (moved.seed, moved.revealed) == (4, False)
    with pytest.raises(SpanScopeError, match="moved on to exercise 4"):
        classes.submit(conn, cls.code, bob, 3, {("semeval2021", "P"): "1"})
    assert classes.roster(conn, cls.code, 3).answered == 1  # kept until the class is closed
    classes.close(conn, cls.code, key)
    assert classes.get_class(conn, cls.code) is None
    for table in ("live_classes", "live_students", "live_answers"):
        assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0
    with pytest.raises(SpanScopeError, match="no such class"):
        classes.join(conn, cls.code, "Cy")


def test_only_a_nickname_is_kept(conn: sqlite3.Connection) -> None:
    cls, _ = classes.open_class(conn, 1)
    classes.join(conn, cls.code, "Ada")
    columns = {r[1] for r in conn.execute("PRAGMA table_info(live_students)")}
    assert columns == {"code", "student", "nickname", "nickname_key", "joined"}


@pytest.mark.parametrize("name, why", [("", "choose a nickname"), ("x" * 25, "at most 24"),
                                       ("a\x00b", "control characters")])
def test_bad_nicknames_are_named(conn: sqlite3.Connection, name: str, why: str) -> None:
    cls, _ = classes.open_class(conn, 1)
    with pytest.raises(SpanScopeError, match=f"nickname: .*{why}"):
        classes.join(conn, cls.code, name)


def test_unknown_length_is_refused(conn: sqlite3.Connection) -> None:
    with pytest.raises(SpanScopeError, match="'length' parameter of open_class"):
        classes.open_class(conn, 1, "medium")


def test_tally_counts_the_graders_verdicts() -> None:
    seed = 3
    sol = exercises.solve(exercises.generate(seed))
    r21 = sol.truths["semeval2021"].recall
    maf = sol.truths["mafalda"].recall
    assert r21 is not None and maf is not None and abs(r21 - maf) > 0.01
    answers = {"a": {("mafalda", "R"): f"{r21:.4f}"}, "b": {("mafalda", "R"): f"{r21:.4f}"},
               "c": {("mafalda", "R"): f"{maf:.4f}", ("semeval2021", "P"): "1"}, "d": {}}
    tallies = {(t.metric, t.quantity): t for t in live.tally(sol, answers, "short")}
    assert set(tallies) == {(m, q) for m in exercises.LENGTHS["short"] for q in "PR"}
    t = tallies[("mafalda", "R")]
    assert (t.answered, t.right, t.wrong) == (3, 1, 2)
    assert t.values[0] == (round(float(f"{r21:.4f}"), 4), 2)
    want = exercises.grade(answers["a"], sol.truths, sol.steps, unlabelled=sol.unlabelled,
                           metrics=exercises.LENGTHS["short"]).check("mafalda", "R")
    assert want is not None and t.reasons == ((live.reason_head(want.feedback), 2),)
    assert "ladder step" in t.reasons[0][0]
    assert tallies[("semeval2021", "R")].answered == 0


def test_a_student_comes_back_by_token_not_by_nickname(conn: sqlite3.Connection) -> None:
    cls, _ = classes.open_class(conn, 3)
    ada = classes.join(conn, cls.code, "Ada")
    assert classes.sent(conn, cls.code, ada, 3) is None
    classes.submit(conn, cls.code, ada, 3, {("mafalda", "R"): "4/7"}, now=50.0)
    assert classes.sent(conn, cls.code, ada, 3) == ({("mafalda", "R"): "4/7"}, 50.0)
    assert classes.nickname(conn, cls.code, ada) == "Ada"  # the token gives the place back
    assert classes.nickname(conn, cls.code, "x" * 500) is None
    assert classes.nickname(conn, cls.code, "") is None
    with pytest.raises(SpanScopeError, match=r"is taken.*the tab you joined from"):
        classes.join(conn, cls.code, "ADA")
    assert list(classes.roster(conn, cls.code, 3).joined.values()) == ["Ada"]
