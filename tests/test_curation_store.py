"""core.store.curation: one project per set of inputs, every decision written as it is made,
a stale tab's write refused, a batch undone at once, and the store read back after the
connection (the server) is gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.analysis.consensus import Override
from core.model import AnnotationSet, Span
from core.model.errors import SpanScopeError
from core.store import curation as cs

A = AnnotationSet("A", {"d": (Span(0, 4, "x"),)}, "annotator")
B = AnnotationSet("B", {"d": (Span(0, 5, "x"),)}, "annotator")
TEXTS: dict[str, str | None] = {"d": "abcdefgh"}


def test_project_key_follows_the_content_not_the_order() -> None:
    key = cs.project_key([A, B], TEXTS)
    assert cs.project_key([B, A], dict(TEXTS)) == key
    assert cs.project_key([A, B], {"d": "abcdefgX"}) != key
    moved = AnnotationSet("B", {"d": (Span(1, 5, "x"),)}, "annotator")
    assert cs.project_key([A, moved], TEXTS) != key
    renamed = AnnotationSet("C", B.spans, "annotator")
    assert cs.project_key([A, renamed], TEXTS) != key


def test_decisions_survive_a_new_connection_and_projects_stay_apart(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    conn = cs.open_store(path)
    p1, p2 = "p1", "p2"
    cs.ensure_project(conn, p1, "first")
    cs.ensure_project(conn, p2, "second")
    revs = cs.record(conn, p1, {"k": Override("drop", 0, 4, "x", "drop")}, {})
    assert revs == {"k": 1}
    conn.close()  # a killed server: the committed row is on disk
    again = cs.open_store(path)
    got = cs.load(again, p1)
    assert got["k"].override == Override("drop", 0, 4, "x")
    assert (got["k"].override.action, got["k"].revision) == ("drop", 1)
    assert cs.load(again, p2) == {}


def test_a_decision_changed_since_the_tab_read_it_is_refused(tmp_path: Path) -> None:
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    tab1_seen: dict[str, int] = {}
    tab2_seen: dict[str, int] = {}
    tab1_seen.update(cs.record(conn, "p", {"k": Override("keep", 0, 4, "x", "keep")}, tab1_seen))
    with pytest.raises(cs.Conflict) as err:  # tab 2 read "k" undecided
        cs.record(conn, "p", {"k": Override("drop", 0, 4, "x", "drop")}, tab2_seen)
    assert err.value.keys == ("k",)
    assert cs.load(conn, "p")["k"].override.decision == "keep"
    with pytest.raises(cs.Conflict):
        cs.forget(conn, "p", ["k"], tab2_seen)
    tab2_seen = {k: s.revision for k, s in cs.load(conn, "p").items()}  # tab 2 reloads
    assert cs.record(conn, "p", {"k": Override("drop", 0, 4, "x", "drop")}, tab2_seen) == {"k": 2}
    with pytest.raises(cs.Conflict):  # now tab 1 is stale
        cs.record(conn, "p", {"k": Override("keep", 0, 4, "x", "keep")}, tab1_seen)


def test_a_batch_is_undone_at_once_except_what_was_changed_since(tmp_path: Path) -> None:
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    batch = cs.new_batch()
    seen = cs.record(conn, "p", {k: Override("drop", 0, 4, "x", "accept-all") for k in "abc"},
                     {}, batch=batch)
    cs.record(conn, "p", {"b": Override("keep", 0, 4, "x", "keep")}, seen)
    assert cs.undo_batch(conn, "p", batch) == 2
    assert list(cs.load(conn, "p")) == ["b"]


def test_unknown_actions_and_newer_stores_are_refused(tmp_path: Path) -> None:
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    with pytest.raises(SpanScopeError, match="unknown curation action 'maybe'"):
        cs.record(conn, "p", {"k": Override("keep", 0, 4, "x", "maybe")}, {})
    conn.execute("UPDATE schema_versions SET version = 99 WHERE name = 'curation'")
    with pytest.raises(SpanScopeError, match="newer"):
        cs.open_store(tmp_path / "s.sqlite")


def test_a_stored_proposal_is_the_proposal_and_other_code_computes_it_again(
        tmp_path: Path) -> None:
    from core.analysis.consensus import consensus

    sets = [AnnotationSet("A", {"d": (Span(0, 4, "x"), Span(5, 8, "y"))}, "annotator"),
            AnnotationSet("B", {"d": (Span(0, 5, "z"),), "e": (Span(0, 2, "x"),)}, "annotator"),
            AnnotationSet("C", {"d": (Span(1, 4, "x"),)}, "annotator")]
    texts: dict[str, str | None] = {"d": "abcdefgh", "e": "ab"}
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    for match in ("gamma", "overlap", "exact", "char"):
        result = consensus(sets, texts, min_agree=2, match=match, name="curated")
        key = cs.rules_key(["A", "B", "C"], k=2, match=match, boundaries="majority")
        assert cs.load_proposal(conn, "p", key) is None
        cs.save_proposal(conn, "p", key, result)
        back = cs.load_proposal(conn, "p", key)
        assert back == result and [d.key for d in back.decisions] == [
            d.key for d in result.decisions]
    conn.execute("UPDATE curation_proposals SET code = 'older'")
    assert cs.load_proposal(conn, "p", key) is None


def test_undoable_decisions_are_taken_back_last_first_from_a_new_connection(
        tmp_path: Path) -> None:
    """Undo's history is the store's: a new connection (a reloaded tab, a restarted server)
    takes the last decisions back, each to what it was before, its batch included."""
    path = tmp_path / "s.sqlite"
    conn = cs.open_store(path)
    cs.ensure_project(conn, "p", "t")
    cs.ensure_project(conn, "q", "other inputs")
    batch = cs.new_batch()
    seen = cs.record(conn, "p", {"a": Override("drop", 0, 4, "x", "accept-all")}, {},
                     batch=batch)  # not undoable: accept-all has its own undo
    assert cs.undo_depth(conn, "p") == 0
    seen.update(cs.record(conn, "p", {"a": Override("keep", 0, 4, "x", "keep")}, seen,
                          undoable=True))
    seen.update(cs.record(conn, "p", {"b": Override("keep", 1, 4, "x", "bounds")}, seen,
                          undoable=True))
    seen.update(cs.record(conn, "p", {"b": Override("keep", 1, 4, "x", "keep")}, seen,
                          undoable=True))  # the same outcome again: nothing to undo
    cs.record(conn, "q", {"a": Override("drop", 0, 4, "x", "drop")}, {}, undoable=True)
    assert (cs.undo_depth(conn, "p"), cs.undo_depth(conn, "q")) == (2, 1)
    conn.close()
    again = cs.open_store(path)
    seen = {k: s.revision for k, s in cs.load(again, "p").items()}
    first = cs.undo(again, "p", seen)
    assert first == cs.Undone("b", None, None) and "b" not in cs.load(again, "p")
    seen.pop("b")
    second = cs.undo(again, "p", seen)
    assert second is not None and second.key == "a"
    stored = cs.load(again, "p")["a"]
    # back to the batch's decision with the revision it had: a tab that read it then is current
    assert (stored.override.action, stored.batch, stored.revision) == ("accept-all", batch, 1)
    assert second.override == Override("drop", 0, 4, "x") and second.revision == 1
    assert cs.undo(again, "p", {"a": 1}) is None  # nothing left; the other project's stays
    assert cs.undo_depth(again, "q") == 1
    assert cs.undo_batch(again, "p", batch) == 1  # the batch can still be undone at once


def test_undo_is_refused_when_another_tab_changed_the_decision_and_keeps_it(
        tmp_path: Path) -> None:
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    mine = cs.record(conn, "p", {"k": Override("keep", 0, 4, "x", "keep")}, {}, undoable=True)
    other = {k: s.revision for k, s in cs.load(conn, "p").items()}
    cs.record(conn, "p", {"k": Override("drop", 0, 4, "x", "drop")}, other,
              undoable=True)  # another tab, on the same inputs: the project's history
    with pytest.raises(cs.Conflict):
        cs.undo(conn, "p", mine)
    assert cs.load(conn, "p")["k"].override.decision == "drop" and cs.undo_depth(conn, "p") == 2
    back = cs.undo(conn, "p", {"k": 2})  # once it has read it: the other tab's drop goes
    assert back == cs.Undone("k", Override("keep", 0, 4, "x"), 1)


def test_undo_never_reverts_a_batch_written_after_a_reset(tmp_path: Path) -> None:
    """The review's case: keep x (undoable), reset x, accept every remaining proposal (x
    dropped, y kept); Undo must not take back the batch's x, which it never recorded."""
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    seen = cs.record(conn, "p", {"x": Override("keep", 0, 4, "x", "keep")}, {}, undoable=True)
    cs.forget(conn, "p", ["x"], seen)
    batch = cs.new_batch()
    seen = cs.record(conn, "p", {"x": Override("drop", 0, 4, "x", "accept-all"),
                                 "y": Override("keep", 1, 4, "x", "accept-all")}, {},
                     batch=batch)
    assert cs.undo_depth(conn, "p") == 0
    assert cs.undo(conn, "p", seen) is None
    assert {k: s.override.decision for k, s in cs.load(conn, "p").items()} == {
        "x": "drop", "y": "keep"}


def test_undo_does_not_bring_back_a_decision_just_reset(tmp_path: Path) -> None:
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    seen = cs.record(conn, "p", {"a": Override("keep", 0, 4, "x", "keep")}, {}, undoable=True)
    seen.update(cs.record(conn, "p", {"b": Override("drop", 0, 4, "x", "drop")}, seen,
                          undoable=True))
    cs.forget(conn, "p", ["b"], seen)  # Reset on b
    seen.pop("b")
    assert cs.undo_depth(conn, "p") == 1
    assert cs.undo(conn, "p", seen) == cs.Undone("a", None, None)  # a, never b
    assert cs.load(conn, "p") == {}


def test_an_entry_changed_behind_undos_back_is_dropped_not_undone(tmp_path: Path) -> None:
    # A row changed without going through write() (an older SpanScope, a hand edit): the
    # history entry no longer names the row's revision, so it is dropped, and Undo goes on.
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    seen = cs.record(conn, "p", {"a": Override("keep", 0, 4, "x", "keep")}, {}, undoable=True)
    seen.update(cs.record(conn, "p", {"b": Override("keep", 0, 4, "x", "keep")}, seen,
                          undoable=True))
    with cs.transaction(conn):
        conn.execute("UPDATE curation_decisions SET decision = 'drop', revision = 99 "
                     "WHERE key = 'b'")
    assert cs.undo(conn, "p", {**seen, "b": 99}) == cs.Undone("a", None, None, skipped=1)
    assert cs.load(conn, "p")["b"].override.decision == "drop"
    assert cs.undo_depth(conn, "p") == 0


def test_revisions_never_restart_after_a_row_is_removed(tmp_path: Path) -> None:
    """The review's case: tab A keeps x (revision 1), tab B reads it; A undoes (the row goes)
    and drops x; B's relabel, made on what it read, is refused rather than overwriting A."""
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    a_seen = cs.record(conn, "p", {"x": Override("keep", 0, 4, "x", "keep")}, {},
                       undoable=True)
    b_seen = {k: s.revision for k, s in cs.load(conn, "p").items()}
    assert cs.undo(conn, "p", a_seen) == cs.Undone("x", None, None)
    a_seen = cs.record(conn, "p", {"x": Override("drop", 0, 4, "x", "drop")}, {},
                       undoable=True)
    assert a_seen["x"] != b_seen["x"]
    with pytest.raises(cs.Conflict):
        cs.record(conn, "p", {"x": Override("keep", 0, 4, "y", "relabel")}, b_seen,
                  undoable=True)
    assert cs.load(conn, "p")["x"].override.decision == "drop"
    cs.forget(conn, "p", ["x"], a_seen)  # a reset, then a new decision: a new revision too
    assert cs.record(conn, "p", {"x": Override("keep", 0, 4, "x", "keep")}, {})["x"] > a_seen["x"]


def test_write_removes_and_records_in_one_transaction(tmp_path: Path) -> None:
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    seen = cs.record(conn, "p", {"a": Override("keep", 0, 4, "x", "keep")}, {})
    stale = dict(seen)  # "b" read undecided, and decided by another tab since
    cs.record(conn, "p", {"b": Override("keep", 0, 4, "x", "keep")}, {})
    with pytest.raises(cs.Conflict):
        cs.write(conn, "p", {"a": None, "b": Override("drop", 0, 4, "x", "drop")}, stale)
    assert sorted(cs.load(conn, "p")) == ["a", "b"]  # the removal of "a" did not happen alone
    got = cs.write(conn, "p", {"a": None}, seen)
    assert got == {"a": None} and sorted(cs.load(conn, "p")) == ["b"]


VERSION_1 = (
    "CREATE TABLE schema_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL)",
    "INSERT INTO schema_versions VALUES ('curation', 1)",
    "CREATE TABLE curation_projects (key TEXT PRIMARY KEY, title TEXT NOT NULL, "
    "created REAL NOT NULL)",
    "CREATE TABLE curation_decisions (project TEXT NOT NULL REFERENCES curation_projects(key) "
    "ON DELETE CASCADE, key TEXT NOT NULL, decision TEXT NOT NULL CHECK (decision IN ('keep', "
    "'drop')), start INTEGER NOT NULL, end INTEGER NOT NULL, label TEXT NOT NULL, action TEXT "
    "NOT NULL, batch TEXT, revision INTEGER NOT NULL, updated REAL NOT NULL, "
    "PRIMARY KEY (project, key))",
    "CREATE TABLE curation_history (id INTEGER PRIMARY KEY AUTOINCREMENT, project TEXT NOT NULL "
    "REFERENCES curation_projects(key) ON DELETE CASCADE, key TEXT NOT NULL, decision TEXT "
    "CHECK (decision IN ('keep', 'drop')), start INTEGER, end INTEGER, label TEXT, action TEXT, "
    "batch TEXT, created REAL NOT NULL)",
    "INSERT INTO curation_projects VALUES ('p', 't', 0)",
    "INSERT INTO curation_decisions VALUES ('p', 'a', 'keep', 0, 4, 'x', 'keep', NULL, 3, 0)",
    "INSERT INTO curation_history (project, key, created) VALUES ('p', 'a', 0)",
)


def _version_1(path: Path, *rows: str) -> None:
    import sqlite3

    with sqlite3.connect(path) as old:  # the tables as SpanScope wrote them before
        for statement in (*VERSION_1[:-2], *rows):
            old.execute(statement)
    old.close()


def test_a_store_of_version_1_is_read_and_its_unverifiable_history_dropped(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    # a's entry was written at 5.0, its row later (at 0.0 here: another write, not the entry's)
    _version_1(path, "INSERT INTO curation_decisions VALUES ('p', 'a', 'keep', 0, 4, 'x', "
               "'keep', NULL, 3, 0)",
               "INSERT INTO curation_history (project, key, created) VALUES ('p', 'a', 5)")
    conn = cs.open_store(path)
    stored = cs.load(conn, "p")
    assert stored["a"].override == Override("keep", 0, 4, "x") and stored["a"].revision == 3
    assert cs.undo_depth(conn, "p") == 0  # its entry did not write the row as it is
    assert cs.undo(conn, "p", {"a": 3}) is None and "a" in cs.load(conn, "p")
    assert cs.upgrade_note(conn, "p") == (
        "This store was written by an earlier SpanScope, whose Undo history did not record "
        "which revision each decision wrote: its 1 entry could not be checked against the "
        "decisions as they are now and was dropped, so Undo starts from the decisions made "
        "from now on (the decisions themselves are all kept).")
    assert cs.upgrade_note(conn, "p") is None  # said once
    seen = cs.record(conn, "p", {"b": Override("drop", 0, 4, "x", "drop")}, {"a": 3},
                     undoable=True)
    assert seen == {"b": 4}  # above every revision the old store gave
    assert cs.undo(conn, "p", seen) == cs.Undone("b", None, None)
    conn.close()
    assert cs.load(cs.open_store(path), "p")["a"].revision == 3  # opened again: no change


def test_an_upgrade_from_version_1_keeps_what_undo_can_still_take_back(tmp_path: Path) -> None:
    """bugleft15 item 2: the upgrade dropped every entry of a version-1 history. A version-1
    decision wrote its row and its history entry with one timestamp, so the last entry of a
    span whose row still carries that timestamp wrote the row as it is: Undo can take it back.
    The others (an entry a later write replaced, a reset's span, an older entry of a span) are
    dropped, and the page says so once."""
    path = tmp_path / "old.sqlite"
    _version_1(
        path,
        # a: decided at 10 (undecided before), untouched since: recoverable
        "INSERT INTO curation_decisions VALUES ('p', 'a', 'keep', 0, 4, 'x', 'keep', NULL, 1, "
        "10.5)",
        "INSERT INTO curation_history (project, key, created) VALUES ('p', 'a', 10.5)",
        # b: kept at 11, dropped at 12: the drop is recoverable (back to the keep), not the keep
        "INSERT INTO curation_decisions VALUES ('p', 'b', 'drop', 0, 4, 'x', 'drop', NULL, 7, "
        "12.25)",
        "INSERT INTO curation_history (project, key, created) VALUES ('p', 'b', 11)",
        "INSERT INTO curation_history (project, key, decision, start, end, label, action, "
        "created) VALUES ('p', 'b', 'keep', 0, 4, 'x', 'keep', 12.25)",
        # c: decided at 13, then rewritten by an accept-all at 14 (not recorded): dropped
        "INSERT INTO curation_decisions VALUES ('p', 'c', 'keep', 0, 4, 'x', 'accept-all', "
        "'B1', 2, 14)",
        "INSERT INTO curation_history (project, key, created) VALUES ('p', 'c', 13)",
        # d: decided at 15, then reset (the row is gone): dropped
        "INSERT INTO curation_history (project, key, created) VALUES ('p', 'd', 15)")
    conn = cs.open_store(path)
    assert (cs.undo_depth(conn, "p"), cs.stale_history(conn, "p")) == (2, 0)
    assert cs.upgrade_note(conn, "p") == (
        "This store was written by an earlier SpanScope, whose Undo history did not record "
        "which revision each decision wrote: 2 of its 5 entries wrote the decisions as they "
        "are now and Undo can take them back; the other 3 could not be checked and were "
        "dropped (the decisions themselves are all kept).")
    seen = {k: s.revision for k, s in cs.load(conn, "p").items()}
    first = cs.undo(conn, "p", seen)
    assert first is not None and first.key == "b" and first.override == Override(
        "keep", 0, 4, "x") and first.revision == 8  # a new revision, above the old store's
    seen["b"] = 8
    assert cs.undo(conn, "p", seen) == cs.Undone("a", None, None)
    assert cs.undo(conn, "p", seen) is None
    # the counter starts above every revision of the old store, even once its highest
    # decision is undone: a tab that read b at 7 is refused
    assert cs.record(conn, "p", {"e": Override("keep", 0, 4, "x", "keep")}, {}) == {"e": 9}
    with pytest.raises(cs.Conflict):
        cs.record(conn, "p", {"b": Override("keep", 0, 4, "y", "relabel")}, {"b": 7})


def test_the_history_keeps_the_last_decisions_only(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cs, "UNDO_DEPTH", 3)
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    for k in "abcde":
        cs.record(conn, "p", {k: Override("keep", 0, 4, "x", "keep")}, {}, undoable=True)
    assert cs.undo_depth(conn, "p") == 3
    seen = {k: s.revision for k, s in cs.load(conn, "p").items()}
    undone = [cs.undo(conn, "p", seen) for _ in range(4)]
    assert [u.key if u else None for u in undone] == ["e", "d", "c", None]
    assert sorted(cs.load(conn, "p")) == ["a", "b"]


def test_the_proposals_digest_hashes_every_core_module_the_consensus_runs() -> None:
    # bugleft15 item 7: CODE hashed consensus.py and gamma_native.py only, while a stored
    # proposal keeps warnings worded by core/metrics/agreement/study.py (and builds on the
    # model's spans): a change of those served a stale proposal.
    import ast

    from core.analysis import consensus
    from core.metrics.agreement import study

    root = Path(consensus.__file__).resolve().parents[2]
    hashed = {p.resolve() for p in cs.SOURCES}
    assert {Path(consensus.__file__).resolve(), Path(study.__file__).resolve(),
            root / "core/metrics/agreement/gamma_native.py", root / "core/model/span.py",
            root / "core/formats/csvsafe.py"} <= hashed
    # closed under the imports of core modules, function-level ones included
    for path in hashed:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("core.") \
                    and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names if a.name.startswith("core.")]
            else:
                continue
            for module in modules:
                target = root / module.replace(".", "/")
                assert (target.with_suffix(".py") in hashed
                        or target / "__init__.py" in hashed), (path, module)
    import hashlib

    digest = hashlib.sha256()
    for p in cs.SOURCES:
        digest.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    assert digest.hexdigest()[:16] == cs.CODE


def test_the_proposals_digest_hashes_how_the_store_encodes_a_proposal() -> None:
    # fixrev14b item 5: _encode and _build (how a proposal is stored and built again) were not
    # in the digest: a change of them read old payloads with the new code
    assert Path(cs.__file__).resolve() in {p.resolve() for p in cs.SOURCES}


def test_the_proposals_digest_is_the_code_imported_not_the_files_edited_since(
        tmp_path: Path) -> None:
    # fixrev14b item 4: CODE was computed when first asked for, from the files on disk: a file
    # edited (or pulled) while a server ran stored the running, old code's proposal under the
    # new code's digest. It is the digest of the sources as they were at import.
    import shutil
    import subprocess
    import sys

    root = Path(cs.__file__).resolve().parents[2]
    shutil.copytree(root / "core", tmp_path / "core",
                    ignore=shutil.ignore_patterns("__pycache__"))
    script = (
        "from pathlib import Path\n"
        "import core.store.curation as cs\n"
        "path = Path('core/analysis/consensus.py')\n"
        "path.write_text(path.read_text(encoding='utf-8') + '# edited\\n', encoding='utf-8')\n"
        "print(cs.CODE)\n"
        "print(cs._digest(cs._sources('core.analysis.consensus', 'core.store.curation')))\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
                         check=False)
    assert run.returncode == 0, run.stderr
    code, edited = run.stdout.split()
    assert code == cs.CODE != edited


def test_undo_counts_only_what_it_can_take_back_and_says_what_it_skipped(
        tmp_path: Path) -> None:
    # bugleft15 item 1: with every entry changed since (rows rewritten outside write(): an
    # older SpanScope, a hand edit), undo_depth said 2, the page kept Undo enabled, and a
    # press dropped both entries and undid nothing, saying nothing.
    conn = cs.open_store(tmp_path / "s.sqlite")
    cs.ensure_project(conn, "p", "t")
    seen = cs.record(conn, "p", {"a": Override("keep", 0, 4, "x", "keep")}, {}, undoable=True)
    seen.update(cs.record(conn, "p", {"a": Override("drop", 0, 4, "x", "drop")}, seen,
                          undoable=True))
    seen.update(cs.record(conn, "p", {"b": Override("keep", 0, 4, "x", "keep")}, seen,
                          undoable=True))
    assert (cs.undo_depth(conn, "p"), cs.stale_history(conn, "p")) == (3, 0)
    with cs.transaction(conn):
        conn.execute("UPDATE curation_decisions SET revision = revision + 90 WHERE key = 'b'")
    seen["b"] += 90
    # b's entry can never be undone; a's two can, last first
    assert (cs.undo_depth(conn, "p"), cs.stale_history(conn, "p")) == (2, 1)
    got = cs.undo(conn, "p", seen)
    assert got == cs.Undone("a", Override("keep", 0, 4, "x"), seen["a"] - 1, skipped=1)
    assert (cs.undo_depth(conn, "p"), cs.stale_history(conn, "p")) == (1, 0)
    with cs.transaction(conn):  # now a's remaining entry is changed behind Undo's back too
        conn.execute("UPDATE curation_decisions SET revision = 77 WHERE key = 'a'")
    assert (cs.undo_depth(conn, "p"), cs.stale_history(conn, "p")) == (0, 1)
    assert cs.undo(conn, "p", {**seen, "a": 77}) == cs.Undone(None, None, None, skipped=1)
    assert cs.undo(conn, "p", {**seen, "a": 77}) is None  # nothing left at all
    assert cs.load(conn, "p")["a"].revision == 77  # nothing undone
