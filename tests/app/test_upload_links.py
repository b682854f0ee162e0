"""Links made on uploaded files (tour of one shared server, items 3 and 4): the address of a
page showing uploads carries ``?data=upload-<digest>``; whoever opens it without those files (a
colleague, or the same tab after a server restart lost the session's uploads) is told so, sees
the sample, and the parameters naming the uploads' documents and sets are not applied to it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui import state

ROOT = Path(__file__).resolve().parents[2]
MAFALDA = ROOT / "sample_data" / "mafalda"
FILES = [(name, (MAFALDA / name).read_bytes()) for name in ("gold.jsonl", "system_a.jsonl")]


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _params(at: AppTest) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def _uploader(make_app) -> AppTest:
    at = _ok(make_app("pages/data.py", data="sample"))
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(name, data, "application/octet-stream") for name, data in FILES]).run()
    return _ok(at)


def _open(link: dict[str, str], page: str = "pages/documents.py") -> AppTest:
    """A new browser session opening ``link`` on ``page`` (its first run is that page's)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in link.items():
        at.query_params[key] = value
    return _ok(at.switch_page(page).run())


def _notices(at: AppTest) -> list[str]:
    return [w.value.replace("\\", "") for w in at.warning if "uploaded files" in w.value]


def test_a_page_on_uploads_marks_its_address_and_the_uploader_sees_no_notice(make_app) -> None:
    at = _uploader(make_app)
    assert at.session_state[state.K_SOURCE] == "upload"
    mark = _params(at)[state.K_DATA_MARK]
    assert mark.startswith("upload-") and len(mark) == len("upload-") + 16
    _ok(at.switch_page("pages/documents.py").run())
    assert _params(at)[state.K_DATA_MARK] == mark
    assert not _notices(at)
    assert any("opens on the bundled sample corpus" in c.value for c in at.caption)


def test_a_link_on_uploads_opened_without_them_says_so_and_drops_their_document(
        make_app) -> None:
    """Tour finding: /documents?doc=1 made on uploaded MAFALDA files silently showed the
    sample's document "1" to a colleague, and to the same tab after a server restart."""
    link = {**_params(_ok(_uploader(make_app).switch_page("pages/documents.py").run())),
            state.K_DOC: "1", state.K_SET_B: "system_a"}
    other = _open(link)
    (notice,) = _notices(other)
    assert "does not have" in notice and "restarted server" in notice
    assert "sample corpus “propaganda”" in notice
    assert "?doc=1" in notice and "?b=system_a" in notice
    left = _params(other)
    assert state.K_DATA_MARK not in left and state.K_DOC not in left and state.K_SET_B not in left
    _ok(other.run())  # told once: the mark has left the address
    assert not _notices(other)


def test_a_link_on_the_same_uploads_opens_without_notice(make_app) -> None:
    at = _uploader(make_app)
    link = {**_params(at), state.K_DOC: "1"}
    again = _uploader(make_app)  # someone who uploaded the same files
    for key, value in link.items():
        again.query_params[key] = value
    _ok(again.run())
    assert not _notices(again)
    assert _params(again)[state.K_DOC] == "1"


def test_sample_and_command_line_data_carry_no_mark(make_app) -> None:
    at = _ok(make_app("pages/documents.py", data="sample"))
    assert state.K_DATA_MARK not in _params(at)


def test_the_uploader_adding_removing_or_recasting_a_file_sees_no_notice(make_app) -> None:
    """Tour 16: a second upload in the same tab changes the uploads' digest, and the address
    still held the first one's mark: the uploader was told "this browser session does not
    have" the files it had just uploaded. Only another session's mark is news."""
    at = _uploader(make_app)
    first = _params(at)[state.K_DATA_MARK]
    more = [*FILES, ("system_b.jsonl", (MAFALDA / "system_b.jsonl").read_bytes())]
    _ok(at.file_uploader(key=state.K_UPLOADS).set_value(
        [(name, data, "application/octet-stream") for name, data in more]).run())
    second = _params(at)[state.K_DATA_MARK]
    assert second != first
    assert not _notices(at)
    _ok(at.file_uploader(key=state.K_UPLOADS).set_value(
        [(name, data, "application/octet-stream") for name, data in FILES[:1]]).run())
    third = _params(at)[state.K_DATA_MARK]
    assert third not in (first, second)
    assert not _notices(at)
    # the digest holds each file's role, format and name too: a role changed is no news either
    _ok(at.selectbox(key=state.upload_key("role", FILES[0][0])).set_value("annotator").run())
    assert _params(at)[state.K_DATA_MARK] not in (first, second, third)
    assert not _notices(at)
    _ok(at.switch_page("pages/documents.py").run())
    assert not _notices(at)
