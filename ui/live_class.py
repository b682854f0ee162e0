"""A live class on the Learn page: a teacher opens a class on one exercise, students join from
their phones with a nickname and answer it, the teacher's screen follows the answers live and
reveals the solution for everyone.

The class lives in the store (:mod:`core.store.classes`, the SQLite file of ``spanscope app
--store PATH``), so every server thread, tab and phone sees the same class; a page keeps only
its own secret (the teacher key, or the student's token) in its session and in its address, so
a reload, a dropped tab or a restarted server finds it again. The exercise, its
values and the grading come from :mod:`core.teaching.exercises`; the per-question tally from
:mod:`core.teaching.live`. Both screens refresh with ``st.fragment(run_every=...)``: only the
fragment reruns, so a student's half-typed answers are never reset. ``docs/teaching.md``
describes a lesson with it.
"""

from __future__ import annotations

import io
import sqlite3
import time
from collections.abc import Container, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd
import segno
import streamlit as st

from core.model.errors import SpanScopeError
from core.render.palette import ERROR_COLOURS
from core.store import classes, connect, store_path
from core.teaching import exercises, live
from ui import exercise
from ui.escape import md

PARAM = "class"
"""The query parameter that carries a class code: ``/learn?class=CODE``."""
TEACHER_PARAM = "teacher"
"""The query parameter of the teacher's key: the teacher's tab keeps it in its address, so a
reload keeps the teacher's screen (``/learn?class=CODE&teacher=KEY``)."""
STUDENT_PARAM = "student"
"""The query parameter of a student's token: the student's tab keeps it in its address as the
teacher's keeps the teacher key, so a reload, a phone that dropped the tab or a restarted server
brings the student back under their nickname (``/learn?class=CODE&student=TOKEN``). The token
is a secret of that student's: the nickname alone gives nobody the place back."""
K_TEACHER = "live_teacher"  # session: {code: teacher key} of the classes this session opened
K_STUDENT = "live_student"  # session: {code: student token} of the classes this session joined
K_SENT = "live_sent"  # session: {(code, seed): (guesses, time sent)} the store acknowledged
K_NICK = "live_nickname"
REFRESH_S = 1.0
"""How often both screens ask the store for news (seconds): the teacher's counts are at most
this late, plus one script run."""


@contextmanager
def _store() -> Iterator[sqlite3.Connection]:
    """A connection to the dashboard's store for one operation (a connection belongs to one
    thread; Streamlit runs each session in its own)."""
    conn = connect(store_path())
    try:
        yield conn
    finally:
        conn.close()


def code_from_url() -> tuple[str | None, str | None]:
    """The class code of ``?class=`` (None when absent) and a notice when it cannot be one."""
    raw = st.query_params.get(PARAM)
    if raw is None:
        return None, None
    code = classes.normal_code(str(raw))
    if code is None:
        return None, (f"Ignored ?{PARAM}={md(str(raw)[:40])}: a class code is eight letters "
                      "and digits 2-7, as the teacher's screen shows it.")
    return code, None


def start_button(seed: int, length: str) -> None:
    """The "Start a class" button: opens a class on exercise ``seed`` and goes to its page."""
    st.button("👩‍🏫 Start a class", key="live_start", on_click=_start, args=(seed, length),
              help="Open a class on this exercise: students join from their phones with a QR "
              "code or a short link, and your screen shows their answers live.")


def join_box() -> None:
    """"Join a class": a student types the code the teacher's screen shows."""
    with st.popover("🙋 Join a class"):
        st.text_input("Class code", key="live_code", max_chars=12, placeholder="abcd efgh",
                      on_change=_typed_code, help="The eight characters on your teacher's "
                      "screen (spaces do not matter).")
        problem = st.session_state.pop("live_problem", None)
        if problem:
            st.error(md(problem), icon="⚠️")


def _typed_code() -> None:
    code = classes.normal_code(str(st.session_state.get("live_code") or ""))
    if code is not None:
        st.query_params.clear()
        st.query_params[PARAM] = code
    else:
        st.session_state["live_problem"] = ("A class code is eight letters and digits 2-7, as "
                                            "the teacher's screen shows it.")


def _start(seed: int, length: str) -> None:
    with _store() as conn:
        cls, key = classes.open_class(conn, seed, length)
    st.session_state.setdefault(K_TEACHER, {})[cls.code] = key
    st.query_params.clear()
    st.query_params[PARAM] = cls.code
    st.query_params[TEACHER_PARAM] = key  # a reload of this tab keeps the teacher's screen


def student_link(code: str) -> str:
    """The link students open: this server's address as the browser sees it, ``/learn?class=``
    (:func:`link_from`)."""
    return link_from(str(st.context.url or ""), code,
                     str(st.get_option("server.baseUrlPath") or ""))


def link_from(page_url: str, code: str, base_path: str = "") -> str:
    """The students' link to class ``code`` made from ``page_url``, the Learn page's address
    as the teacher's browser sees it (``st.context.url``): its scheme, host and path prefix are
    kept, so behind a reverse proxy that serves the app under ``/spanscope``
    (``--server.baseUrlPath spanscope``) the link is ``…/spanscope/learn?class=``. Without an
    address (no browser), the path is ``base_path`` (``server.baseUrlPath``).

    >>> link_from("https://uni.example/spanscope/learn", "abcdefgh")
    'https://uni.example/spanscope/learn?class=abcdefgh'
    >>> link_from("http://10.0.0.2:8501/learn", "abcdefgh")
    'http://10.0.0.2:8501/learn?class=abcdefgh'
    >>> link_from("", "abcdefgh", "spanscope/")
    '/spanscope/learn?class=abcdefgh'
    """
    url = urlsplit(page_url)
    if url.scheme and url.netloc:
        prefix = url.path.rstrip("/")
        prefix = prefix.rsplit("/", 1)[0] if prefix.endswith("/learn") else prefix
        base = f"{url.scheme}://{url.netloc}{prefix}"
    else:
        base = "/" + base_path.strip("/") if base_path.strip("/") else ""
    return f"{base}/learn?{PARAM}={code}"


def qr_png(link: str) -> bytes:
    """The link as a QR code (PNG, error correction M, a quiet zone of 4 modules)."""
    buf = io.BytesIO()
    segno.make(link, error="m").save(buf, kind="png", scale=8, border=4)
    return buf.getvalue()


def spaced(code: str) -> str:
    """A code in two groups of four, easier to read off a projector: ``abcd efgh``."""
    return f"{code[:4]} {code[4:]}"


def render(code: str) -> None:
    """The class page of ``code``: the teacher's screen for the session that opened the class
    (or whose teacher link this is), else a student's."""
    with _store() as conn:
        cls = classes.get_class(conn, code)
        key = st.session_state.get(K_TEACHER, {}).get(code)
        given = st.query_params.get(TEACHER_PARAM)
        if key is None and given and classes.is_teacher(conn, code, str(given)):
            key = str(given)
            st.session_state.setdefault(K_TEACHER, {})[code] = key
        if key is not None and given != key:
            st.query_params[TEACHER_PARAM] = key  # kept in the address for a reload
    if cls is None:
        st.error(f"No open class has the code **{spaced(code)}**: the teacher has closed it, or "
                 "the code is mistyped.", icon="🚪")
        st.page_link("pages/learn.py", label="Open Learn without a class", icon="🎓")
        return
    if key is not None:
        teacher(cls, key)
    else:
        student(cls)


# ---- the teacher's screen -----------------------------------------------------------------------


def teacher(cls: classes.LiveClass, key: str) -> None:
    """Join instructions (QR code, short link), the exercise, the live tally and the controls."""
    link = student_link(cls.code)
    st.header(f"👩‍🏫 Class {spaced(cls.code)}")
    left, right = st.columns([1, 2], vertical_alignment="center")
    # Room above the QR code for its full-screen button, which Streamlit draws above the image:
    # on a phone (the columns stacked) it covered the class code's last letters (tour 7 item 6).
    left.space("medium")
    left.image(qr_png(link), caption="Students scan this with their phone camera", width=240,
               alt=f"QR code of the class link, {spaced(cls.code)}")
    with right:
        st.markdown("Students open")
        st.code(link, language=None, wrap_lines=True)
        st.markdown(f"or open **Learn** and type the code **`{spaced(cls.code)}`**. They choose "
                    "a nickname; nothing else is asked.")
        host = urlsplit(link).hostname or ""
        if host in ("localhost", "127.0.0.1", "::1", ""):
            st.warning("This address only works on this computer. For phones on the same "
                       "network, start the dashboard with `spanscope app --server.address "
                       "0.0.0.0` and open it here by the computer's network address.",
                       icon="📶")
        with st.expander("Teacher link (keep it private)"):
            st.caption("Opens this teacher screen again from another tab or after a restart; "
                       "this tab's address holds it too, so reloading keeps you the teacher. "
                       "Do not project it (project the page, not the address bar: F11 shows "
                       "the page full screen): it lets its holder reveal and close the class.")
            st.code(f"{link}&{TEACHER_PARAM}={key}", language=None, wrap_lines=True)
    sol = exercise.solve(cls.seed)
    with st.expander(f"The exercise students see (exercise {cls.seed}, "
                     f"{'long' if cls.length == 'long' else 'short'})", expanded=False):
        exercise.example(sol)
    _teacher_live(cls.code, key, cls.seed, cls.revealed)
    if cls.revealed:
        exercise.reveal(sol, None, cls.length, key="live_teacher")


@st.fragment(run_every=REFRESH_S)
def _teacher_live(code: str, key: str, seed: int, revealed: bool) -> None:
    """The counts and the tally, redrawn every :data:`REFRESH_S` seconds; a reveal, another
    exercise or the class's end reruns the whole page."""
    with _store() as conn:
        cls = classes.get_class(conn, code)
        if cls is None or cls.seed != seed or cls.revealed != revealed:
            st.rerun(scope="app")
        roster = classes.roster(conn, code, cls.seed)
    sol = exercise.solve(cls.seed)
    tallies = live.tally(sol, roster.answers, cls.length)
    a, b, c = st.columns(3)
    a.metric("Joined", len(roster.joined))
    b.metric("Answered", roster.answered)
    c.metric("Status", "solution shown" if cls.revealed else "answering")
    st.caption(f"Updated {clock(time.time(), st.context.timezone)} · every answer sent "
               f"appears here within about {REFRESH_S:g} s.")
    st.markdown("**The class's answers, question by question**")
    st.dataframe(tally_table(tallies, cls.revealed), hide_index=True, key="live_tally",
                 column_config={
                     "right": st.column_config.ProgressColumn(
                         "right", help="Share of the answers that are right",
                         min_value=0.0, max_value=1.0, format="percent", color=RIGHT_COLOUR),
                     "value": st.column_config.TextColumn(width=VALUE_WIDTH),
                     "answers given": st.column_config.TextColumn(
                         width="medium", help="The values the class sent, most frequent first "
                         "(value ×how many)"),
                     "most common mistake": st.column_config.TextColumn(width="large")},
                 placeholder="—")
    st.caption("**most common mistake** is the step of the Martino → MAFALDA ladder the wrong "
               "answers land on (the grader's diagnosis, as each student sees it after the "
               "reveal). The values appear only after the reveal, so the screen can be "
               "projected.")
    if roster.joined:
        st.caption(roster_line(roster.joined, roster.answers))
    b1, b2, b3 = st.columns(3)
    b1.button("👁️ Reveal the solution", key="live_reveal", type="primary",
              disabled=cls.revealed, on_click=_reveal, args=(code, key))
    b2.button("➡️ Next exercise", key="live_next", on_click=_next, args=(code, key, cls.seed),
              help="Everyone moves to the next exercise; these answers stay until the class "
              "is closed.")
    with b3.popover("🚪 Close the class"):
        st.markdown("Closing deletes the class, its nicknames and every answer.")
        st.button("Close and delete", key="live_close", on_click=_close, args=(code, key))


def clock(at: float, zone: str | None) -> str:
    """The time ``at`` (seconds since the epoch) as ``HH:MM:SS`` and the zone it is in: the
    browser's (``zone``, the IANA name Streamlit reads from it, ``st.context.timezone``), else
    UTC; never the server's own zone, which the page cannot name and a class on a server
    elsewhere would read as its own.

    >>> clock(0.0, None), clock(0.0, "America/New_York")
    ('00:00:00 UTC', '19:00:00 America/New_York')
    """
    try:
        tz: tzinfo = ZoneInfo(zone) if zone else UTC
    except (ZoneInfoNotFoundError, ValueError):  # a name this machine lacks, or no name
        tz, zone = UTC, None
    return datetime.fromtimestamp(at, tz).strftime("%H:%M:%S ") + (zone if zone else "UTC")


def roster_line(joined: Mapping[str, str], answered: Container[str]) -> str:
    """The teacher's list of students, each nickname escaped (:func:`ui.escape.md`) and a bidi
    isolate (U+2068 … U+2069, Unicode UAX #9) followed by its mark: without the isolates a
    right-to-left nickname took the marks and commas around it into its own run, and the browser
    drew "מרים 2 ✅, דוד …" as "דוד ,✅ 2 מרים …", the mark beside the other student.

    >>> roster_line({"a": "Ada", "b": "דוד"}, {"a"})
    'Students (✅ answered, … not yet): \u2068Ada\u2069 ✅, \u2068דוד\u2069 …'
    """
    names = [f"\u2068{md(name)}\u2069 {'✅' if student in answered else '…'}"
             for student, name in joined.items()]
    return "Students (✅ answered, … not yet): " + ", ".join(names)


RIGHT_COLOUR = ERROR_COLOURS["correct"]
"""The tally's "right" bar: the colour of a correct span (Okabe–Ito bluish green), not the
theme's primary red, which read as "wrong" on a question everyone got right (tour 7 item 5)."""
VALUE_WIDTH = 120
"""Pixels of the tally's "value" column: room for ``0.75 (3/4)`` (Streamlit's automatic width
cut it to ``0.75 (3/4`` at 1400 px)."""

SHORT_NAMES = {"nlp4if2019 (-m)": "NLP4IF-2019 (-m)", "semeval2020-si": "SemEval-2020 SI",
               "semeval2021": "SemEval-2021", "mafalda": "MAFALDA"}
"""Short metric names for the teacher's table (the exercise spells them out in full)."""


def tally_table(tallies: list[live.QuestionTally], revealed: bool) -> pd.DataFrame:
    """One row per question: answered, share right, the answers given and the most common
    mistake; the value and the right share only after the reveal."""
    rows = []
    for t in tallies:
        values = ", ".join(f"{exercises.fraction_text(v).split(' ')[0]} ×{n}"
                           for v, n in t.values[:5])
        top = t.reasons[0] if t.reasons else None
        rows.append({
            "question": f"{SHORT_NAMES.get(t.metric, t.title)} "
                        f"{'precision' if t.quantity == 'P' else 'recall'}",
            "answered": t.answered,
            "answers given": values,
            "value": exercises.fraction_text(t.value) if revealed else "hidden",
            "right": (t.right / t.answered if t.answered else None) if revealed else None,
            "most common mistake": (f"{top[0]} ({top[1]} of {t.wrong})" if top and revealed
                                    else ""),
        })
    return pd.DataFrame(rows, columns=["question", "answered", "answers given", "value",
                                       "right", "most common mistake"])


def _reveal(code: str, key: str) -> None:
    with _store() as conn:
        classes.reveal(conn, code, key)


def _next(code: str, key: str, seed: int) -> None:
    with _store() as conn:
        classes.next_exercise(conn, code, key, exercises.next_seed(seed))


def _close(code: str, key: str) -> None:
    with _store() as conn:
        classes.close(conn, code, key)
    st.session_state.get(K_TEACHER, {}).pop(code, None)
    st.query_params.clear()


# ---- a student's screen -------------------------------------------------------------------------


def student(cls: classes.LiveClass) -> None:
    """Join with a nickname, then the exercise, the answer form and (after the reveal) the
    solution with the student's own answers graded."""
    token, name = _student_token(cls.code)
    if token is None:
        _join_form(cls.code)
        return
    st.markdown(f"🙋 You are **{md(name or '')}** in class **{spaced(cls.code)}**.")
    st.caption("This page's address keeps your place: reloading it, or opening it again, "
               "brings you back as yourself. Do not share it.")
    sol = exercise.solve(cls.seed)
    exercise.example(sol)
    sent = st.session_state.get(K_SENT, {}).get((cls.code, cls.seed))
    if sent is None:  # a reload or a restarted server: what the store kept of this student's
        with _store() as conn:
            sent = classes.sent(conn, cls.code, token, cls.seed)
        if sent is not None:
            st.session_state.setdefault(K_SENT, {})[(cls.code, cls.seed)] = sent
            for (metric, q), text in sent[0].items():  # the boxes show what was sent
                st.session_state.setdefault(
                    f"live_{q.lower()}::{cls.code}::{cls.seed}::{metric}", text)
    if not cls.revealed:
        with st.container(border=True, key="live_form"):
            keys = exercise.guess_inputs(sol, cls.length, f"{cls.code}::{cls.seed}",
                                         prefix="live")
            st.button("📨 Send my answers", key=f"live_send::{cls.seed}", type="primary",
                      on_click=_send, args=(cls.code, token, cls.seed, keys))
            if sent is not None:
                st.success(f"Received at {clock(sent[1], st.context.timezone)}: "
                           "you can change them and send again until the teacher shows the "
                           "solution.", icon="📬")
            problem = st.session_state.pop("live_problem", None)
            if problem:
                st.error(md(problem), icon="⚠️")
    _student_live(cls.code, cls.seed, cls.revealed)
    if cls.revealed:
        if sent is None:  # graded on blanks it read "0 of 4 right", four times "No answer."
            st.info("You sent no answers before your teacher showed the solution: here it is, "
                    "with the ladder and the pairs the values come from.", icon="📭")
        exercise.reveal(sol, sent[0] if sent else None, cls.length, key="live_student")


def _student_token(code: str) -> tuple[str | None, str | None]:
    """The student's token for class ``code`` and their nickname: the session's, else the
    address's (a reload, a restarted server); (None, None) when this page has not joined. The
    token is kept in both, so the next reload finds it too."""
    mine = st.session_state.get(K_STUDENT, {}).get(code)
    given = st.query_params.get(STUDENT_PARAM)
    with _store() as conn:
        for token in (mine, given):
            name = classes.nickname(conn, code, str(token)) if token else None
            if name is not None:
                break
        else:
            token = None
    if token is None:
        if given is not None:
            del st.query_params[STUDENT_PARAM]
            st.session_state["live_problem"] = (
                "The address named a student who is not in this class (the teacher closed "
                "the class since, or the address is not whole): join with a nickname.")
        return None, None
    st.session_state.setdefault(K_STUDENT, {})[code] = str(token)
    if given != token:
        st.query_params[STUDENT_PARAM] = str(token)  # kept in the address for a reload
    return str(token), name


def _join_form(code: str) -> None:
    st.header(f"🙋 Join class {spaced(code)}")
    with st.form("live_join"):
        st.text_input("Your nickname", key=K_NICK, max_chars=classes.NICKNAME_MAX,
                      placeholder="e.g. Ada", help="Any name your teacher will recognise. "
                      "Nothing else is asked, and the class is deleted when the teacher "
                      "closes it.")
        st.form_submit_button("Join", type="primary", on_click=_join, args=(code,))
    problem = st.session_state.pop("live_problem", None)
    if problem:
        st.error(md(problem), icon="⚠️")


def _join(code: str) -> None:
    try:
        with _store() as conn:
            token = classes.join(conn, code, st.session_state.get(K_NICK, ""))
    except SpanScopeError as exc:
        st.session_state["live_problem"] = str(exc)
        return
    st.session_state.setdefault(K_STUDENT, {})[code] = token
    st.query_params[STUDENT_PARAM] = token  # a reload of this tab keeps the student's place


def _send(code: str, token: str, seed: int, keys: dict[tuple[str, str], str]) -> None:
    guesses = {k: str(st.session_state.get(key, "") or "") for k, key in keys.items()}
    try:
        with _store() as conn:
            classes.submit(conn, code, token, seed, guesses)
    except SpanScopeError as exc:
        st.session_state["live_problem"] = str(exc)
        return
    st.session_state.setdefault(K_SENT, {})[(code, seed)] = (guesses, time.time())


@st.fragment(run_every=REFRESH_S)
def _student_live(code: str, seed: int, revealed: bool) -> None:
    """Follow the class: a reveal, another exercise or the class's end reruns the page."""
    with _store() as conn:
        cls = classes.get_class(conn, code)
    if cls is None or cls.seed != seed or cls.revealed != revealed:
        st.rerun(scope="app")
    if not revealed:
        st.caption("⏳ The solution appears here when your teacher shows it.")
