"""The embedded store (core.store) and ``spanscope app --store``: the file is created where
asked, transactions commit or roll back as a whole, a newer schema is refused, and the default
sits beside the data when its folder is writable."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core import store
from core.cli import launch
from core.model.errors import SpanScopeError, UsageError


def test_connect_creates_the_file_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "s.sqlite"
    conn = store.connect(path)
    assert path.is_file()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_connect_names_the_file_that_is_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(SpanScopeError, match=r"bad\.sqlite"):
        store.connect(bad)


def test_a_transaction_is_all_or_nothing(tmp_path: Path) -> None:
    conn = store.connect(tmp_path / "s.sqlite")
    store.ensure_schema(conn, "t", 1, ["CREATE TABLE IF NOT EXISTS t (x INTEGER)"])
    with pytest.raises(RuntimeError), store.transaction(conn):
        conn.execute("INSERT INTO t VALUES (1)")
        raise RuntimeError("stop")
    with store.transaction(conn):
        conn.execute("INSERT INTO t VALUES (2)")
    other = store.connect(tmp_path / "s.sqlite")
    assert [r[0] for r in other.execute("SELECT x FROM t")] == [2]


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    conn = store.connect(tmp_path / "s.sqlite")
    store.ensure_schema(conn, "t", 3, [])
    store.ensure_schema(conn, "t", 3, [])  # the same version again is fine
    with pytest.raises(SpanScopeError, match="version 3"):
        store.ensure_schema(conn, "t", 2, [])


def test_two_connections_see_each_others_commits(tmp_path: Path) -> None:
    a, b = store.connect(tmp_path / "s.sqlite"), store.connect(tmp_path / "s.sqlite")
    store.ensure_schema(a, "t", 1, ["CREATE TABLE IF NOT EXISTS t (x INTEGER)"])
    with store.transaction(a):
        a.execute("INSERT INTO t VALUES (7)")
    assert b.execute("SELECT x FROM t").fetchone()[0] == 7
    b.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError):  # a second writer waits, then gives up
        a.execute("PRAGMA busy_timeout=50")
        a.execute("BEGIN IMMEDIATE")
    b.execute("ROLLBACK")


def test_default_path_beside_the_data_or_in_the_user_folder(tmp_path: Path) -> None:
    data = tmp_path / "corpus"
    data.mkdir()
    (data / "gold.json").write_text("{}", encoding="utf-8")
    assert store.default_path([data / "gold.json"]) == data / store.FILE_NAME
    assert store.default_path([data]) == data / store.FILE_NAME
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    assert store.default_path([], env) == tmp_path / "xdg" / "spanscope" / "store.sqlite"
    assert store.store_path({store.STORE_ENV: "/x/y.sqlite"}) == Path("/x/y.sqlite")


def test_a_data_folder_that_is_not_writable_falls_back_to_the_user_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "corpus"
    data.mkdir()
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    user = tmp_path / "xdg" / "spanscope" / "store.sqlite"
    assert store.default_path([tmp_path / "missing" / "gold.json"], env) == user
    # os.access, not chmod: the tests may run as root, for whom every folder is writable
    monkeypatch.setattr(store.os, "access", lambda path, mode: False)
    assert store.default_path([data], env) == user
    conn = store.connect(store.default_path([data], env))  # the fallback opens cleanly
    conn.close()
    assert user.is_file() and not (data / store.FILE_NAME).exists()
    assert store.where(user, env).startswith("store.sqlite in the per-user data folder")
    assert store.where(data / store.FILE_NAME, env).endswith("beside the data (in the folder "
                                                             "of the first --data path)")


def test_launch_splits_store_and_hands_it_to_the_app(tmp_path: Path) -> None:
    assert launch.split_store_arg(["--store", "a.sqlite", "--data", "g.json"]) == (
        "a.sqlite", ["--data", "g.json"])
    assert launch.split_store_arg(["--store=b.sqlite"]) == ("b.sqlite", [])
    assert launch.split_store_arg(["--server.port", "1"]) == (None, ["--server.port", "1"])
    with pytest.raises(UsageError, match="--store"):
        launch.split_store_arg(["--store"])
    with pytest.raises(UsageError, match="--store"):
        launch.split_store_arg(["--store="])
    assert launch.resolve_store("s.sqlite", [], tmp_path) == tmp_path / "s.sqlite"
    with pytest.raises(SpanScopeError, match="is a folder"):
        launch.resolve_store(str(tmp_path), [], tmp_path)
    data = [{"role": "gold", "path": str(tmp_path / "g.json")}]
    assert launch.resolve_store(None, data, tmp_path) == tmp_path / store.FILE_NAME
    env = launch.app_environment(tmp_path, {"HOME": "/h"}, store_file=tmp_path / "s.sqlite")
    assert env[store.STORE_ENV] == str(tmp_path / "s.sqlite")
