"""Live class on the Learn page (issue 27): "Start a class" opens a class in the store and shows
its QR code and link; a student joins with a nickname and sends answers; the teacher's screen
counts them per question with the grader's diagnosis and reveals the solution to everyone."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from core.store import STORE_ENV, classes, connect
from core.teaching import exercises
from ui import live_class

PAGE = "pages/learn.py"
SEED = 3


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "store.sqlite"
    monkeypatch.setenv(STORE_ENV, str(path))
    return path


def _ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


def _teacher(make_app):
    at = _ok(make_app(PAGE, params={"exercise": str(SEED)}))
    at.button(key="live_start").click()
    _ok(at.run())
    code = at.query_params[live_class.PARAM]
    code = code[0] if isinstance(code, list) else code
    return at, code


def _student(make_app, code: str, name: str):
    at = _ok(make_app(PAGE, params={live_class.PARAM: code}))
    at.text_input(key=live_class.K_NICK).input(name)
    at.button[[b.label for b in at.button].index("Join")].click()
    return _ok(at.run())


def _send(at, code: str, guesses: dict[tuple[str, str], str]):
    for (metric, q), text in guesses.items():
        at.text_input(key=f"live_{q.lower()}::{code}::{SEED}::{metric}").input(text)
    at.button(key=f"live_send::{SEED}").click()
    return _ok(at.run())


def _tally(frame, at):
    return frame(at, "question", "answered", "answers given", "value", "right")


def test_start_a_class_shows_qr_link_and_code(make_app, store: Path) -> None:
    at, code = _teacher(make_app)
    assert classes.normal_code(code) == code
    with connect(store) as conn:
        cls = classes.get_class(conn, code)
    assert cls is not None and (cls.seed, cls.length, cls.revealed) == (SEED, "short", False)
    assert len(at.get("image")) == 1  # the QR code
    # Its text alternative names what it encodes (axe-core's image-alt, WCAG 2.1 SC 1.1.1: the
    # image had no alt, so a screen reader said nothing of it, or read the media file's name).
    alts = [img.alt for el in at.get("image") for img in el.proto.imgs]
    assert alts == [f"QR code of the class link, {live_class.spaced(code)}"]
    links = [c.value for c in at.code]
    assert any(v.endswith(f"/learn?class={code}") for v in links)
    assert any(live_class.spaced(code) in s.value for s in at.header)
    assert [m.value for m in at.metric][:2] == ["0", "0"]


def test_qr_code_encodes_the_link() -> None:
    png = live_class.qr_png("http://10.0.0.2:8501/learn?class=abcdefgh")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 200


def test_student_answers_reach_the_teacher_and_the_reveal_reaches_the_student(
        make_app, frame, store: Path) -> None:
    teacher, code = _teacher(make_app)
    sol = exercises.solve(exercises.generate(SEED))
    r21 = f"{sol.truths['semeval2021'].recall:.4f}"
    ada = _student(make_app, code, "Ada")
    assert any("You are **Ada**" in m.value for m in ada.markdown)
    assert {t.key for t in ada.text_input if t.key.startswith("live_")} == {
        f"live_{q}::{code}::{SEED}::{m}" for m in exercises.LENGTHS["short"] for q in "pr"}
    ada = _send(ada, code, {("mafalda", "R"): r21, ("semeval2021", "R"): r21})
    assert ada.success and "Received at" in ada.success[0].value
    bob = _student(make_app, code, "Bob")
    _send(bob, code, {("mafalda", "R"): r21})

    _ok(teacher.run())
    assert [m.value for m in teacher.metric][:2] == ["2", "2"]
    table = _tally(frame, teacher).set_index("question")
    maf_r = table.loc["MAFALDA recall"]
    assert maf_r["answered"] == 2 and maf_r["value"] == "hidden"
    assert "×2" in maf_r["answers given"]

    teacher.button(key="live_reveal").click()
    _ok(teacher.run())
    table = _tally(frame, teacher).set_index("question")
    maf_r = table.loc["MAFALDA recall"]
    assert maf_r["right"] == 0.0 and "ladder step" in maf_r["most common mistake"]
    assert "(2 of 2)" in maf_r["most common mistake"]
    assert table.loc["SemEval-2021 recall", "right"] == 1.0

    _ok(ada.run())
    assert any("The answers" in s.value for s in ada.header)
    graded = frame(ada, "metric", "score", "your answer", "right", "why")
    assert list(graded["right"]).count("✅") == 1
    assert not [t for t in ada.text_input if t.key.startswith("live_p")]  # answers closed


def test_taken_nickname_and_closed_class_are_named(make_app, store: Path) -> None:
    teacher, code = _teacher(make_app)
    _student(make_app, code, "Ada")
    again = _student(make_app, code, "ada")
    assert again.error and "is taken" in again.error[0].value
    teacher.button(key="live_close").click()
    _ok(teacher.run())
    with connect(store) as conn:
        assert classes.get_class(conn, code) is None
    gone = _ok(make_app(PAGE, params={live_class.PARAM: code}))
    assert gone.error and "No open class" in gone.error[0].value


def test_bad_class_code_in_the_link_is_named(make_app, store: Path) -> None:
    at = _ok(make_app(PAGE, params={live_class.PARAM: "<b>x</b>"}))
    assert at.warning and "a class code is eight letters" in at.warning[0].value
    assert "<b>" not in at.warning[0].value


def test_next_exercise_moves_every_student(make_app, store: Path) -> None:
    teacher, code = _teacher(make_app)
    ada = _student(make_app, code, "Ada")
    assert any(s.value == f"📝 Exercise {SEED}" for s in ada.header)
    teacher.button(key="live_next").click()
    _ok(teacher.run())
    nxt = exercises.next_seed(SEED)
    with connect(store) as conn:
        cls = classes.get_class(conn, code)
    assert cls is not None and (cls.seed, cls.revealed) == (nxt, False)
    _ok(ada.run())
    assert any(s.value == f"📝 Exercise {nxt}" for s in ada.header)
    assert any(t.key.startswith(f"live_p::{code}::{nxt}::") for t in ada.text_input)


def test_typed_code_opens_the_join_form(make_app, store: Path) -> None:
    _, code = _teacher(make_app)
    at = _ok(make_app(PAGE))
    at.text_input(key="live_code").input(live_class.spaced(code).upper())
    _ok(at.run())
    assert at.query_params[live_class.PARAM] in (code, [code])
    assert any(f"Join class {live_class.spaced(code)}" in s.value for s in at.header)
    wrong = _ok(make_app(PAGE))
    wrong.text_input(key="live_code").input("abc 1")
    _ok(wrong.run())
    assert wrong.error and "eight letters" in wrong.error[0].value


def test_a_reload_of_the_teachers_tab_keeps_the_teachers_screen(make_app, store: Path) -> None:
    teacher, code = _teacher(make_app)
    params = {k: (v[0] if isinstance(v, list) else v) for k, v in teacher.query_params.items()}
    assert params[live_class.PARAM] == code and live_class.TEACHER_PARAM in params
    # a reload: a new session with the tab's address, nothing in session state
    reloaded = _ok(make_app(PAGE, params=params))
    assert any(s.value.startswith("👩‍🏫 Class") for s in reloaded.header)
    assert not any("Join class" in s.value for s in reloaded.header)
    student = _ok(make_app(PAGE, params={live_class.PARAM: code}))  # the students' link
    assert any(f"Join class {live_class.spaced(code)}" in s.value for s in student.header)


def test_the_tally_draws_right_in_the_colour_of_correct_and_gives_value_room(make_app) -> None:
    """Tour 7 item 5: the "right" bar of a question everyone got right was the theme's red, and
    the value column cut ``0.75 (3/4)``."""
    import json

    from core.render.palette import ERROR_COLOURS

    teacher, _code = _teacher(make_app)
    (config,) = [c for c in (json.loads(d.proto.columns or "{}") for d in teacher.dataframe)
                  if "right" in c]
    assert config["right"]["type_config"]["color"] == ERROR_COLOURS["correct"]
    assert config["value"]["width"] == live_class.VALUE_WIDTH >= 7 * len("0.75 (3/4)")


def _params(at) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_a_reload_of_a_students_tab_keeps_the_student_and_their_answers(
        make_app, frame, store: Path) -> None:
    """Tour finding: F5, a dropped phone tab or a restarted server lost the student's token
    (session only), and their own nickname was then refused as taken."""
    teacher, code = _teacher(make_app)
    ada = _student(make_app, code, "Ada")
    params = _params(ada)
    assert params[live_class.PARAM] == code and live_class.STUDENT_PARAM in params
    ada = _send(ada, code, {("mafalda", "R"): "1/2"})
    # a reload (or a restarted server): a new session with the tab's address, nothing else
    back = _ok(make_app(PAGE, params=params))
    assert any("You are **Ada**" in m.value for m in back.markdown)
    assert not any("Join class" in s.value for s in back.header)
    assert back.success and "Received at" in back.success[0].value
    assert back.text_input(key=f"live_r::{code}::{SEED}::mafalda").value == "1/2"
    back = _send(back, code, {("mafalda", "P"): "1"})  # answers again under the same student
    _ok(teacher.run())
    assert [m.value for m in teacher.metric][:2] == ["1", "1"]  # one student, not two
    with connect(store) as conn:
        roster = classes.roster(conn, code, SEED)
    assert list(roster.joined.values()) == ["Ada"]
    assert roster.answers[params[live_class.STUDENT_PARAM]][("mafalda", "R")] == "1/2"


def test_nobody_takes_a_students_place_without_their_address(make_app, store: Path) -> None:
    _, code = _teacher(make_app)
    ada = _student(make_app, code, "Ada")
    assert live_class.STUDENT_PARAM in _params(ada)
    other = _student(make_app, code, "Ada")  # the class link and the same nickname
    assert other.error and "is taken" in other.error[0].value
    assert "address of the tab you joined from" in other.error[0].value
    forged = _ok(make_app(PAGE, params={live_class.PARAM: code,
                                        live_class.STUDENT_PARAM: "not-a-token"}))
    assert any(f"Join class {live_class.spaced(code)}" in s.value for s in forged.header)
    assert live_class.STUDENT_PARAM not in _params(forged)
    assert forged.error and "not in this class" in forged.error[0].value


@pytest.mark.parametrize("page_url, link", [
    ("http://127.0.0.1:8911/spanscope/learn", "http://127.0.0.1:8911/spanscope/learn?class=c"),
    ("https://uni.example/a/b/learn/", "https://uni.example/a/b/learn?class=c"),
    ("http://10.0.0.2:8501/learn", "http://10.0.0.2:8501/learn?class=c"),
])
def test_students_link_keeps_the_path_prefix_of_a_proxy(page_url: str, link: str) -> None:
    """Tour finding: behind ``--server.baseUrlPath spanscope`` the link and the QR code
    dropped ``/spanscope`` and led to a 404."""
    assert live_class.link_from(page_url, "c") == link


def test_students_link_without_a_browser_address_uses_base_url_path(
        make_app, store: Path) -> None:
    from streamlit import config

    before = config.get_option("server.baseUrlPath")
    config.set_option("server.baseUrlPath", "spanscope")
    try:
        _, code = _teacher(make_app)
        assert live_class.student_link(code) == f"/spanscope/learn?class={code}"
    finally:
        config.set_option("server.baseUrlPath", before)


def test_each_nickname_in_the_teachers_list_is_isolated_from_its_neighbours(
        make_app, store: Path) -> None:
    """A right-to-left nickname took the marks around it into its own run: with מרים 2 (answered)
    beside דוד (not yet), the browser drew "דוד ,✅ 2 מרים …", so the teacher read דוד as having
    answered. Each nickname is a bidi isolate (U+2068 … U+2069, Unicode UAX #9), so its mark
    stays beside it whatever script it is written in."""
    teacher, code = _teacher(make_app)
    miriam = _student(make_app, code, "מרים 2")
    _send(miriam, code, {("mafalda", "R"): "1"})
    _student(make_app, code, "דוד")
    _student(make_app, code, "<b>x</b>")
    _ok(teacher.run())
    line = next(c.value for c in teacher.caption if c.value.startswith("Students ("))
    assert line.endswith("\u2068מרים 2\u2069 ✅, \u2068דוד\u2069 …, \u2068\\<b\\>x\\</b\\>\u2069 …")


def test_a_student_who_sent_nothing_before_the_reveal_is_not_graded_on_blanks(
        make_app, frame, store: Path) -> None:
    """A late student who had sent nothing saw "0 of 4 right. Each wrong answer says which step
    of the ladder below it missed." and four "❌ … No answer." lines, as if they had answered
    and missed every step. They are told that nothing was sent, and see the solution."""
    teacher, code = _teacher(make_app)
    late = _student(make_app, code, "Late")
    teacher.button(key="live_reveal").click()
    _ok(teacher.run())
    _ok(late.run())
    assert any("The answers" in s.value for s in late.header)
    assert not any("right" in i.value for i in late.info)
    assert any("sent no answers" in i.value for i in late.info)
    table = frame(late, "metric", "score", "value")
    assert "your answer" not in table.columns
    assert not any("❌" in m.value for m in late.markdown)


def _off_now(text: str, zone: str) -> float:
    """How far (seconds, either way round the clock) the time written in ``text`` as
    ``HH:MM:SS <zone>`` is from now in that zone."""
    found = re.search(r"(\d\d):(\d\d):(\d\d) " + re.escape(zone), text)
    assert found is not None, text
    now = datetime.now(ZoneInfo(zone))
    off = (int(found[1]) * 3600 + int(found[2]) * 60 + int(found[3])
           - (now.hour * 3600 + now.minute * 60 + now.second)) % 86400
    return min(off, 86400 - off)


def test_the_times_shown_name_their_zone_not_the_servers(
        make_app, store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """bugleft18: "Updated 09:14:02" (teacher) and "Received at 09:14:02" (student) were the
    server's local time, unnamed: a class on a server abroad read another hour. Without the
    browser's time zone (Streamlit gives it, ``st.context.timezone``) they are UTC, and say so."""
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")  # 14 h from UTC: any slip shows
    time.tzset()
    try:
        teacher, code = _teacher(make_app)
        updated = [c.value for c in teacher.caption if c.value.startswith("Updated ")]
        assert len(updated) == 1
        assert _off_now(updated[0], "UTC") < 120
        ada = _student(make_app, code, "Ada")
        ada = _send(ada, code, {("mafalda", "R"): "0.5"})
        assert _off_now(ada.success[0].value, "UTC") < 120
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_time_is_written_in_the_browsers_zone_when_it_is_known() -> None:
    at = datetime(2026, 3, 1, 12, 30, 5, tzinfo=UTC).timestamp()
    assert live_class.clock(at, "Europe/Paris") == "13:30:05 Europe/Paris"
    assert live_class.clock(at, "Asia/Kolkata") == "18:00:05 Asia/Kolkata"
    assert live_class.clock(at, None) == "12:30:05 UTC"
    assert live_class.clock(at, "Not/AZone") == "12:30:05 UTC"  # a zone this machine lacks
    assert live_class.clock(at, "../../etc/passwd") == "12:30:05 UTC"
