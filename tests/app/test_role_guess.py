"""The role the Data page guesses from a name is the one the other pages use: a zip whose name
says ``system_`` is a system as a plain file is, and the Curation page's export uploaded again as
``curated.json`` is the gold that Scores takes as its reference (tour 4, finding 9)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.model.roles import guess_role
from ui import state

ROOT = Path(__file__).resolve().parents[2]
APP_DATA = Path(__file__).resolve().parent / "data"
BRAT = ROOT / "sample_data" / "formats" / "brat_annotator_1"


def _brat_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path in sorted(BRAT.iterdir()):
            zf.writestr(f"brat/{path.name}", path.read_bytes())
    return buf.getvalue()


def _upload(make_app: Callable[..., AppTest], *files: tuple[str, bytes]) -> AppTest:
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(name, data, "application/octet-stream") for name, data in files]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _roles(at: AppTest) -> dict[str, str]:
    return {n: s.role for n, s in at.session_state[state.K_UPLOAD_WS].sets.items()}


@pytest.mark.parametrize(("name", "role"), [("system_brat.zip", "system"),
                                            ("preds.zip", "system"),
                                            ("gold_brat.zip", "gold"),
                                            ("brat_export.zip", "annotator")])
def test_a_zip_of_one_input_takes_the_role_its_name_says(make_app, name: str, role: str) -> None:
    at = _upload(make_app, (name, _brat_zip()))
    assert guess_role(name) == role
    assert list(_roles(at).values()) == [role]
    assert at.selectbox(key=state.upload_key("role", name)).value == role


def test_the_curated_export_uploaded_again_is_the_gold_scores_compares_with(make_app) -> None:
    at = _upload(make_app, ("curated.json", (APP_DATA / "gold.json").read_bytes()),
                 ("run_a.json", (APP_DATA / "system_a.json").read_bytes()))
    assert _roles(at) == {"curated": "gold", "run_a": "system"}
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=state.K_SET_A).value == "curated"
