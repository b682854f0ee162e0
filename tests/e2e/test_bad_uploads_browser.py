"""Issue 28 in a real browser: every dashboard-side bad input of the issue is uploaded where a
visitor would upload it, the page says what is wrong with the file, and it keeps working (no
"This app has encountered an error", the page's own content still drawn, and the next upload
still read).

The inputs: the Errors page's "Document metadata" with lines ending in CR alone (read), a field
over 128 KiB and a Latin-1 byte (refused with the line); the Curation page's "Resume" with the
same two CSV shapes; the Data page with zips nested three deep and over the unpacking budget
together, and a Parquet file of 2M identical rows (over the server's budget of rows).
"""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote_plus

import pytest

from ui.errors import K_ERR_TAB, TABS

pytestmark = pytest.mark.e2e
CRASH = "This app has encountered an error"
BOMB_RUN_MS = 120_000
"""How long the run that reads the Data page's bombs may take (a page's ordinary run: 30 s)."""


def _uploader(page: Any, label: str) -> Any:
    return (page.get_by_test_id("stFileUploader").filter(has_text=label).first
            .locator('input[type="file"]'))


def _meta_files(tmp_path: Path) -> dict[str, Path]:
    files = {"cr_only.csv": b"id,source\r1,blog\r2,news\r3,blog\r4,news\r5,blog\r6,news\r",
             "big_field.csv": b"id,source\n1," + b"x" * 200_000 + b"\n",
             "latin1.csv": b"id,source\n1,caf\xe9\n"}
    out = {}
    for name, data in files.items():
        out[name] = tmp_path / name
        out[name].write_bytes(data)
    return out


def _kept_working(page: Any, st_ui: SimpleNamespace) -> None:
    assert page.get_by_text(CRASH).count() == 0
    assert page.get_by_test_id("stException").count() == 0
    assert st_ui.app_errors(page) == []


def test_errors_page_metadata_upload_of_bad_csvs(app_url: str, page: Any,
                                                 st_ui: SimpleNamespace,
                                                 tmp_path: Path) -> None:
    files = _meta_files(tmp_path)
    # The uploader is on the tab of the slices (lazy tabs), which the URL opens.
    st_ui.open_page(page, app_url, f"errors?sample=propaganda&{K_ERR_TAB}={quote_plus(TABS[4])}")
    page.locator(".st-key-err_slice_chart .js-plotly-plot").wait_for(timeout=60_000)
    for name, message in (("big_field.csv", "big_field.csv:2: a field is longer than the CSV "
                                             "reader's limit (131,072 characters)"),
                          ("latin1.csv", "latin1.csv:2: expected UTF-8 text, found byte 0xe9")):
        _uploader(page, "Document metadata").set_input_files(str(files[name]))
        st_ui.wait_idle(page)
        page.get_by_text(message).wait_for(timeout=30_000)
        st_ui.shot(page, f"bad_upload_errors_{name.removesuffix('.csv')}")
        _kept_working(page, st_ui)
        # the page under the message is still drawn, and a rerun keeps it so
        page.locator(".st-key-err_slice_chart .js-plotly-plot").wait_for(timeout=60_000)
        page.get_by_role("heading", name="Slices: scores per bucket").click()
    _uploader(page, "Document metadata").set_input_files(str(files["cr_only.csv"]))
    st_ui.wait_idle(page)
    page.locator(".st-key-err_slice_chart .js-plotly-plot").wait_for(timeout=60_000)
    assert page.get_by_text("expected UTF-8").count() == 0
    _kept_working(page, st_ui)


def test_curation_resume_upload_of_bad_csvs(app_url: str, page: Any, st_ui: SimpleNamespace,
                                            tmp_path: Path) -> None:
    header = (b"document,start,end,label,decision,members,proposed_start,proposed_end,"
              b"proposed_label,proposed_decision")
    bad = {"cr_only.csv": header + b"\r1,0,1,x,keep,a,0,1,x,keep\r",
           "big_field.csv": header + b"\n1,0,1," + b"x" * 200_000 + b",keep,a,0,1,x,keep\n"}
    st_ui.open_page(page, app_url, "curation")
    page.locator("#cur-card").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    page.get_by_text("Resume: upload a decisions file").click()
    for name, data in bad.items():
        path = tmp_path / name
        path.write_bytes(data)
        _uploader(page, "Decisions file").set_input_files(str(path))
        st_ui.wait_idle(page)
        message = {"cr_only.csv": "malformed CSV: new-line character seen in unquoted field",
                   "big_field.csv": "a field is longer than the CSV reader's limit"}[name]
        page.get_by_text(f"{name}: {message}").first.wait_for(timeout=30_000)
        st_ui.shot(page, f"bad_upload_curation_{name.removesuffix('.csv')}")
        _kept_working(page, st_ui)
        page.locator("#cur-card").wait_for(timeout=60_000)
        page.get_by_role("button", name="✓ Accept the proposal").click()  # still works
        st_ui.wait_idle(page)
        _kept_working(page, st_ui)


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def _declaring(data: bytes, size: int) -> bytes:
    """``data`` (a zip of one member) with the member's uncompressed size in the central
    directory set to ``size``: what the budget reads before unpacking anything."""
    out = bytearray(data)
    at = out.rfind(b"PK\x01\x02")
    out[at + 24:at + 28] = struct.pack("<I", size)
    return bytes(out)


def _parquet_bomb() -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 2_000_000
    table = pa.table({"doc_id": pa.array(["1"] * rows), "start": pa.array([0] * rows),
                      "end": pa.array([1] * rows), "label": pa.array(["x"] * rows)})
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


def test_data_page_upload_of_bombs(app_url: str, page: Any, st_ui: SimpleNamespace,
                                   tmp_path: Path) -> None:
    inner = _declaring(_zip({"doc.ann": b"T1\tX 0 1\ta\n"}), 200 * 2**20)
    nested = tmp_path / "nested.zip"
    nested.write_bytes(_zip({f"part{i}.zip": inner for i in range(3)}, zipfile.ZIP_STORED))
    bomb = tmp_path / "bomb.parquet"
    bomb.write_bytes(_parquet_bomb())
    st_ui.open_page(page, app_url, "data")
    page.locator("input[type=file]").first.set_input_files([str(nested), str(bomb)])
    # the run reads both bombs up to their budgets: over 30 s on a 2-core machine under load
    st_ui.wait_idle(page, BOMB_RUN_MS)
    page.get_by_text("unpack to more than 512 MiB (nested zips counted together)").first \
        .wait_for(timeout=60_000)
    page.get_by_text("hold 2,000,000 rows (at most 1,000,000)").first.wait_for(timeout=60_000)
    st_ui.shot(page, "bad_upload_data_bombs")
    _kept_working(page, st_ui)
    good = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda" / "gold.json"
    page.locator("input[type=file]").first.set_input_files([str(nested), str(bomb), str(good)])
    st_ui.wait_idle(page, BOMB_RUN_MS)
    page.get_by_text("gold.json").first.wait_for(timeout=60_000)
    _kept_working(page, st_ui)
