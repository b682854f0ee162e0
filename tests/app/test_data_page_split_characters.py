"""The Data page warns of spans that begin or end inside a character as it is drawn (between a
letter and its combining accent, inside an emoji sequence), in the command line's words, once
per set of the file that holds them (bugleft12 item 3; :mod:`core.model.graphemes`)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.cli import main
from ui import data as data_ui
from ui import state, text_policy

TEXT = "Le cafe\u0301 de Zoe\u0308 et ici."  # "café", "Zoë": letters and combining marks
GOLD = json.dumps([{"id": "d1", "text": TEXT, "labels": [
    {"start": 3, "end": 8, "technique": "Doubt"}]}], ensure_ascii=False).encode()
PRED = b"doc_id,start,end,label\nd1,3,7,Doubt\nd1,12,15,Doubt\n"  # [3, 7) cuts "cafe" + accent


def _cli_warning(tmp_path: Path, capsys) -> str:
    (tmp_path / "gold.json").write_bytes(GOLD)
    (tmp_path / "pred.csv").write_bytes(PRED)
    assert main(["score", str(tmp_path / "gold.json"), str(tmp_path / "pred.csv"),
                 "--metric", "martino"]) == 0
    said = capsys.readouterr()
    (line,) = [w for w in (said.out + said.err).splitlines() if "inside a character" in w]
    # the command line names the gold by its path, the Data page by its name
    return line.removeprefix(f"warning: {tmp_path / 'pred.csv'}: ").replace(
        str(tmp_path / "gold.json"), "gold.json")


def test_the_policy_adds_the_command_lines_warning_to_the_file(tmp_path: Path, capsys) -> None:
    cli = _cli_warning(tmp_path, capsys)
    assert cli.startswith("pred: 2 span(s) begin or end inside a character as it is drawn")
    assert "first: document 'd1' [3, 7) 'Doubt', 'cafe'" in cli
    reports = [state.parse_bytes("gold.json", GOLD, None, "gold", "gold"),
               state.parse_bytes("pred.csv", PRED, None, "system", "pred")]
    for policy in ("refuse", "clip", "official"):
        gold, pred = text_policy.apply(reports, policy)
        assert not [d for d in gold.diagnostics if d.kind == "split-character"]
        (said,) = [d for d in pred.diagnostics if d.kind == "split-character"]
        assert (said.file, said.message) == ("pred.csv", cli)
    # applied again (another rerun), it is not said twice
    again = text_policy.apply(text_policy.apply(reports, "refuse"), "refuse")
    assert len([d for d in again[1].diagnostics if d.kind == "split-character"]) == 1


def test_the_data_page_lists_the_warning_with_file_document_and_span(frame) -> None:
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"),
                           default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.run()
    at.switch_page("pages/data.py").run()
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [("gold.json", GOLD, "application/json"), ("pred.csv", PRED, "text/csv")]).run()
    assert not at.exception, [e.value for e in at.exception]
    at.session_state[data_ui.K_DIAG_LIST] = True  # the list of every warning, opened
    at.run()
    diags = frame(at, "severity", "message")
    split = diags[diags["message"].str.contains("inside a character as it is drawn")]
    assert list(split["file"]) == ["pred.csv"]
    (message,) = split["message"]
    assert "document 'd1' [3, 7) 'Doubt'" in message and "UTF-16" in message


GOOD = b"doc_id,start,end,label\nd1,3,8,Doubt\n"  # [3, 8) keeps the accent with its letter


def _split(rep: state.FileReport) -> list[str]:
    return [d.message for d in rep.diagnostics if d.kind == "split-character"]


def test_each_file_gets_its_own_warning_whatever_the_names() -> None:
    """The warnings were matched to a file by a name prefix (``"pred.csv: "``): two files of
    one name each got both files' warnings, and a file named ``pred.csv: v2.csv`` gave its
    warning to ``pred.csv`` too. Each file now gets the warnings of its own sets."""
    gold = state.parse_bytes("gold.json", GOLD, None, "gold", "gold")
    bad = state.parse_bytes("pred.csv", PRED, None, "system", "pred")
    good = state.parse_bytes("pred.csv", GOOD, None, "system", "pred")
    _, said, quiet = text_policy.apply([gold, bad, good], "refuse")
    assert len(_split(said)) == 1 and _split(quiet) == []
    _, quiet, said = text_policy.apply([gold, good, bad], "clip")
    assert len(_split(said)) == 1 and _split(quiet) == []
    other = state.parse_bytes("pred.csv: v2.csv", PRED, None, "system", "pred v2")
    _, quiet, said = text_policy.apply([gold, good, other], "refuse")
    assert _split(quiet) == []
    (message,) = _split(said)
    assert message.startswith("pred v2: 2 span(s) begin or end inside a character")


def test_two_uploads_of_one_name_each_list_their_own_warning(frame) -> None:
    """Two uploads named pred.csv (from two folders): the one that cuts a character is warned
    of, the other is not (uploads are kept as ``pred.csv`` and ``pred.csv (2)``)."""
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"),
                           default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.run()
    at.switch_page("pages/data.py").run()
    for order, warned in (((PRED, GOOD), "pred.csv"), ((GOOD, PRED), "pred.csv (2)")):
        at.file_uploader(key=state.K_UPLOADS).set_value(
            [("gold.json", GOLD, "application/json"), ("pred.csv", order[0], "text/csv"),
             ("pred.csv", order[1], "text/csv")]).run()
        assert not at.exception, [e.value for e in at.exception]
        reports = {r.file: r for r in at.session_state[state.K_UPLOAD_WS].reports}
        assert sorted(reports) == ["gold.json", "pred.csv", "pred.csv (2)"]
        assert [f for f, r in reports.items() if _split(r)] == [warned]
        at.session_state[data_ui.K_DIAG_LIST] = True  # the list of every warning, opened
        at.run()
        diags = frame(at, "severity", "message")
        split = diags[diags["message"].str.contains("inside a character as it is drawn")]
        assert list(split["file"]) == [warned]
        at.file_uploader(key=state.K_UPLOADS).set_value([]).run()


SPACED = TEXT.replace("Le ", "Le  ")  # the gold's text with one more space: carried onto it
PRED_OWN_TEXT = json.dumps([{"id": "d1", "text": SPACED, "labels": [
    {"start": 4, "end": 8, "technique": "Doubt"}]}], ensure_ascii=False).encode()  # "cafe"


def test_a_warning_read_on_another_files_text_names_that_file(tmp_path: Path, capsys) -> None:
    """Two files give document d1 a text (the prediction's with one more space): the
    prediction's spans are carried onto the gold's text and checked there, so its warning
    quotes the gold's offsets ([3, 7), not the file's [4, 8)) and the gold's text; it said so
    nowhere, as if it read the prediction's own text. It names the gold file now, on the Data
    page and on the command line alike; the gold's own warning names no other file."""
    (tmp_path / "gold.json").write_bytes(GOLD)
    (tmp_path / "pred.json").write_bytes(PRED_OWN_TEXT)
    assert main(["score", str(tmp_path / "gold.json"), str(tmp_path / "pred.json"),
                 "--metric", "martino"]) == 0
    said = capsys.readouterr()
    (line,) = [w for w in (said.out + said.err).splitlines() if "inside a character" in w]
    gold_path = str(tmp_path / "gold.json")
    assert f"first: document 'd1' [3, 7) 'Doubt', 'cafe' on the text of {gold_path})" in line
    reports = [state.parse_bytes("pred.json", PRED_OWN_TEXT, None, "system", "pred"),
               state.parse_bytes("gold.json", GOLD, None, "gold", "gold")]  # uploaded first
    pred, gold = text_policy.apply(reports, "refuse")
    assert not _split(gold)
    (message,) = _split(pred)
    assert "first: document 'd1' [3, 7) 'Doubt', 'cafe' on the text of gold.json)" in message
    assert message == line.removeprefix(f"warning: {tmp_path / 'pred.json'}: ").replace(
        gold_path, "gold.json")


def test_a_warning_read_on_the_files_own_text_names_no_other_file() -> None:
    own = json.dumps([{"id": "d1", "text": TEXT, "labels": [
        {"start": 3, "end": 7, "technique": "Doubt"}]}], ensure_ascii=False).encode()
    (rep,) = text_policy.apply([state.parse_bytes("gold.json", own, None, "gold", "gold")],
                               "refuse")
    (message,) = _split(rep)
    assert "first: document 'd1' [3, 7) 'Doubt', 'cafe')" in message
    assert "on the text of" not in message


def test_a_file_giving_the_same_text_as_the_gold_is_read_on_its_own() -> None:
    """A prediction that gives document d1 exactly the gold's text is checked on it as on its
    own: its warning names no other file (it said "on the text of gold.json", which is for
    spans carried onto another file's text; review14c)."""
    same = json.dumps([{"id": "d1", "text": TEXT, "labels": [
        {"start": 3, "end": 7, "technique": "Doubt"}]}], ensure_ascii=False).encode()
    reports = [state.parse_bytes("gold.json", GOLD, None, "gold", "gold"),
               state.parse_bytes("pred.json", same, None, "system", "pred")]
    gold, pred = text_policy.apply(reports, "refuse")
    assert not _split(gold)
    (message,) = _split(pred)
    assert "first: document 'd1' [3, 7) 'Doubt', 'cafe')" in message
    assert "on the text of" not in message
