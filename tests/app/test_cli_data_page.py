"""The app started with ``spanscope app --data ...``: the files given open on every page, the
Data page and the sidebar name them, and the Data page states the upload limit it enforces.

The launcher hands the values to streamlit in ``SPANSCOPE_DATA`` (tests/test_launch_data.py
checks that it does); here the variable is set for the AppTest, which runs the script in this
process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from core.cli.launch import DATA_ENV
from tests.app.conftest import frame_of, plain_texts
from ui import cli_data, state

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def _app(monkeypatch: pytest.MonkeyPatch, data: list[dict[str, str | None]],
         page: str | None = None) -> AppTest:
    monkeypatch.setenv(DATA_ENV, json.dumps(data))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_files_with_roles_open_and_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(monkeypatch, [{"role": "gold", "path": str(DATA / "gold.json")},
                            {"role": "system", "path": str(DATA / "system_b.json")}],
              "pages/data.py")
    assert at.session_state[state.K_SOURCE] == cli_data.SOURCE
    ws = cli_data.cli_workspace()
    assert ws is not None and [(n, s.role) for n, s in ws.sets.items()] == [
        ("gold", "gold"), ("system_b", "system")]
    info = " ".join(i.value for i in at.info).replace("\\", "")  # names are shown escaped
    assert "--data" in info and "gold.json (gold)" in info and "system_b.json (system)" in info
    sidebar = " ".join(plain_texts(at.sidebar))  # plain HTML (ui.plain), not escaped Markdown
    assert "files from the command line" in sidebar and "system_b.json (system)" in sidebar
    assert at.radio(key=state.K_SOURCE).value == "cli"
    assert at.metric[0].value == f"{len(ws.corpus.texts):,}"  # the summary is of these files


def test_a_folder_without_role_guesses_each_files_role(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(monkeypatch, [{"role": None, "path": str(DATA)}], "pages/scores.py")
    ws = cli_data.cli_workspace()
    assert ws is not None
    assert {n: s.role for n, s in ws.sets.items()} == {
        "gold": "gold", "system_a": "system", "system_b": "system"}
    bad = [r for r in ws.reports if not r.ok]
    assert [r.file for r in bad] == ["broken.json"]  # reported, the others load
    # Scores scores the folder's systems
    assert "system_a" in frame_of(at, "system", "role")["system"].to_list()


def test_the_pages_can_switch_back_to_the_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(monkeypatch, [{"role": "gold", "path": str(DATA / "gold.json")}], "pages/data.py")
    at.radio(key=state.K_SOURCE).set_value("sample").run()
    assert at.session_state[state.K_SOURCE] == "sample"
    assert "Sample corpus" in [s.label for s in at.sidebar.selectbox]


def test_the_data_page_states_the_upload_limit_it_enforces(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.delenv(DATA_ENV, raising=False)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/data.py").run()
    limit = st.get_option("server.maxUploadSize")
    note = " ".join(c.value for c in at.caption)
    assert f"up to **{limit:,} MB**" in note and "spanscope app --data" in note
    assert at.session_state[state.K_SOURCE] == "sample"


def test_the_config_suits_large_corpora() -> None:
    """The SemEval-2021 pair of issue 15 (58 MB) and more fit, and no full garbage collection
    runs after every script run (seconds with GBs cached): docs/performance.md measures."""
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == 200
    assert config["runner"]["postScriptGC"] is False


def test_an_xmi_given_alone_or_in_a_folder_is_read_with_its_type_system() -> None:
    folder = Path(__file__).resolve().parents[1] / "data" / "formats" / "inception"
    single = cli_data.read_reports((cli_data.DataArg("gold", str(folder / "xmi_nested" / "docs"
                                                                  / "waiting.xmi")),))
    in_folder = cli_data.read_reports((cli_data.DataArg(None, str(folder / "xmi_relation")),))
    for reports, name in ((single, "waiting.xmi"), (in_folder, "crossing.xmi")):
        assert [(r.file, r.ok, r.sets[0].span_count()) for r in reports] == [(name, True, 2)]


def test_an_export_given_with_a_role_keeps_its_curation_as_the_gold(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    export = ROOT / "tests" / "data" / "dashboard" / "as_read" / "inception_export"
    _app(monkeypatch, [{"role": "system", "path": str(export)}], "pages/data.py")
    ws = cli_data.cli_workspace()
    assert ws is not None
    # as `python -m core validate --role system` reads it: the annotators as systems, scored
    # against the curation
    assert {n: s.role for n, s in ws.sets.items()} == {
        "maria": "system", "tomas": "system", "curation": "gold"}


def _doccano(path: Path, texts: list[str]) -> None:
    path.write_text("".join(json.dumps({"id": i, "text": t, "label": [[0, 4, "FOOD"]]}) + "\n"
                            for i, t in enumerate(texts, 1)), encoding="utf-8")


def test_a_refused_file_is_on_the_overview_with_the_command_lines_syntax(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a file guessed "system" that gives the gold's document ids other texts: one id, two texts;
    # refused (no other file guessed a system disagrees with it: no annotators' exports here)
    _doccano(tmp_path / "gold.jsonl", ["Soup was cold.", "Nice bread here."])
    _doccano(tmp_path / "june.jsonl", ["Nice bread here.", "Soup was cold."])
    at = _app(monkeypatch, [{"role": None, "path": str(tmp_path / "gold.jsonl")},
                            {"role": None, "path": str(tmp_path / "june.jsonl")}])
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "june.jsonl" in errors and "refused" in " ".join(w.value for w in at.warning)
    assert f"--data annotator={tmp_path / 'june.jsonl'}" in errors  # no role box for --data
    assert "Annotation sets" in [m.label for m in at.metric]
    sidebar = " ".join(plain_texts(at.sidebar))  # plain HTML (ui.plain), not escaped Markdown
    assert "gold.jsonl (gold)" in sidebar and "june.jsonl (system)" not in sidebar
    assert "refused: june.jsonl" in sidebar


def test_a_folder_of_one_tools_exports_is_read_as_annotators(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same two exports as a folder without a role (the tour's doccano restaurant_reviews):
    # systems of one corpus never give one id two texts, annotators' exports do
    _doccano(tmp_path / "ayla.jsonl", ["Soup was cold.", "Nice bread here."])
    _doccano(tmp_path / "june.jsonl", ["Nice bread here.", "Soup was cold."])
    at = _app(monkeypatch, [{"role": None, "path": str(tmp_path)}])
    ws = cli_data.cli_workspace()
    assert ws is not None and all(r.ok for r in ws.reports)
    assert {n: s.role for n, s in ws.sets.items()} == {"ayla": "annotator", "june": "annotator"}
    assert all(any(d.message == cli_data.GUESSED_ANNOTATOR for d in r.diagnostics)
               for r in ws.reports)
    assert not at.error and len(ws.corpus.texts) == 2  # documents matched by their text


def test_files_of_one_tool_given_one_by_one_are_read_as_annotators_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the tour's finding: `--data ayla.jsonl --data june.jsonl` refused june.jsonl where
    # `--data FOLDER` of the same two files read both as annotators; now both paths agree
    _doccano(tmp_path / "ayla.jsonl", ["Soup was cold.", "Nice bread here."])
    _doccano(tmp_path / "june.jsonl", ["Nice bread here.", "Soup was cold."])
    at = _app(monkeypatch, [{"role": None, "path": str(tmp_path / "ayla.jsonl")},
                            {"role": None, "path": str(tmp_path / "june.jsonl")}])
    ws = cli_data.cli_workspace()
    assert ws is not None and all(r.ok for r in ws.reports)
    assert {n: s.role for n, s in ws.sets.items()} == {"ayla": "annotator", "june": "annotator"}
    assert all(any(d.message == cli_data.GUESSED_ANNOTATOR for d in r.diagnostics)
               for r in ws.reports)
    assert not at.error and len(ws.corpus.texts) == 2  # documents matched by their text
    sidebar = " ".join(plain_texts(at.sidebar))  # plain HTML (ui.plain), not escaped Markdown
    assert "ayla.jsonl (annotator)" in sidebar and "june.jsonl (annotator)" in sidebar


@pytest.mark.parametrize("given", ["folder", "one by one"])
def test_a_prediction_of_other_texts_than_the_gold_stays_a_refused_system(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    # one guessed system that disagrees with the gold alone is no annotators' export: it is
    # not read as an annotator (the folder did so before), and the refusal stands
    _doccano(tmp_path / "gold.jsonl", ["Soup was cold.", "Nice bread here."])
    _doccano(tmp_path / "pred.jsonl", ["Nice bread here.", "Soup was cold."])
    data: list[dict[str, str | None]] = (
        [{"role": None, "path": str(tmp_path)}] if given == "folder" else
        [{"role": None, "path": str(tmp_path / n)} for n in ("gold.jsonl", "pred.jsonl")])
    _app(monkeypatch, data)
    ws = cli_data.cli_workspace()
    assert ws is not None
    pred = next(r for r in ws.reports if r.file == "pred.jsonl")
    assert pred.role == "system" and pred.error is not None
    assert "one id, two texts" in pred.error.message
    assert not any(d.message == cli_data.GUESSED_ANNOTATOR for d in pred.diagnostics)


EXPORT = ROOT / "tests" / "data" / "formats" / "doccano" / "one_project_three_annotators"


@pytest.mark.parametrize("given", ["folder", "one by one"])
def test_one_projects_exports_match_their_documents_by_text_however_given(
        monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    # Three annotators' doccano exports of one project, as the tour's restaurant_reviews:
    # each file numbers its documents its own way (bo's id 1 is amal's text 4), one copy of a
    # text ends in a space, and the annotators labelled overlapping subsets: 6 texts, one
    # labelled by all three, two by each pair.
    files = ("amal.jsonl", "bo.jsonl", "chen.jsonl")
    # the folder and its files given one by one have one fingerprint (the same files, the same
    # guessed roles): read each way afresh, not from the other's cache
    cli_data._load.clear()
    data: list[dict[str, str | None]] = (
        [{"role": None, "path": str(EXPORT)}] if given == "folder" else
        [{"role": None, "path": str(EXPORT / n)} for n in files])
    at = _app(monkeypatch, data, "pages/data.py")
    ws = cli_data.cli_workspace()
    assert ws is not None and all(r.ok for r in ws.reports)
    assert {n: s.role for n, s in ws.sets.items()} == dict.fromkeys(
        ("amal", "bo", "chen"), "annotator")
    assert len(ws.corpus.texts) == 6
    docs = {n: set(s.spans) for n, s in ws.sets.items()}
    assert len(docs["amal"] & docs["bo"] & docs["chen"]) == 1
    assert [len(docs[a] & docs[b]) for a, b in (("amal", "bo"), ("amal", "chen"),
                                                ("bo", "chen"))] == [2, 2, 2]
    text = "The soup at Kiko was cold but the bread was warm."
    shared = next(d for d, t in ws.corpus.texts.items() if t == text)
    assert all(shared in got for got in docs.values())  # chen's copy with its trailing space
    # the Data page names how many documents of each file were matched by their text
    notes = " ".join(i.value for i in at.info).replace("\\", "")
    assert "Documents matched by their text" in notes
    assert "bo.jsonl: 3 documents renamed" in notes and "chen.jsonl: 4 documents renamed" in notes


def _brat(folder: Path, docs: dict[str, tuple[str, list[tuple[int, int, str]]]]) -> Path:
    """A brat collection of our own: ``name.ann`` and ``name.txt`` per document, brat's
    ``annotation.conf`` and a README beside them, as the tour's brat exports have."""
    folder.mkdir(parents=True)
    for name, (text, spans) in docs.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
        (folder / f"{name}.ann").write_text("".join(
            f"T{i}\t{label} {s} {e}\t{text[s:e]}\n" for i, (s, e, label) in enumerate(spans, 1)),
            encoding="utf-8")
    (folder / "annotation.conf").write_text("[entities]\nGene\nDisease\n", encoding="utf-8")
    (folder / "README").write_text("Two abstracts, annotated with brat.\n", encoding="utf-8")
    return folder


ABSTRACTS = {"101": ("BRCA1 mutations cause breast cancer.", [(0, 5, "Gene"), (23, 36, "Disease")]),
             "102": ("TP53 is mutated in glioma.", [(0, 4, "Gene"), (18, 24, "Disease")])}


def test_a_brat_folder_without_role_is_one_set_as_the_command_line_reads_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the tour's amia18 and rured2 folders: one set per .ann, every .txt and annotation.conf
    # refused ("could not detect the format"), a 48 x 48 kappa matrix of single documents;
    # `python -m core validate FOLDER` reads each folder as one corpus, and so does --data now
    one = _brat(tmp_path / "annotator1", ABSTRACTS)
    two = _brat(tmp_path / "annotator2", {"101": (ABSTRACTS["101"][0], [(0, 5, "Gene")]),
                                          "102": ABSTRACTS["102"]})
    other = _brat(tmp_path / "rured", {"7": ("Gazprom bought Sibneft.", [(0, 7, "Org")])})
    cli_data._load.clear()
    at = _app(monkeypatch, [{"role": None, "path": str(p)} for p in (one, two, other)],
              "pages/data.py")
    ws = cli_data.cli_workspace()
    assert ws is not None
    assert [(r.file, r.ok) for r in ws.reports] == [
        ("annotator1", True), ("annotator2", True), ("rured", True)]  # nothing refused
    assert {n: (s.role, s.span_count()) for n, s in ws.sets.items()} == {
        "annotator1": ("annotator", 4), "annotator2": ("annotator", 3), "rured": ("system", 1)}
    assert len(ws.corpus.texts) == 3
    sidebar = " ".join(plain_texts(at.sidebar))  # plain HTML (ui.plain), not escaped Markdown
    assert "refused" not in sidebar and "annotator1 (annotator)" in sidebar


def test_brat_folders_without_role_whose_texts_differ_are_annotators_as_files_are(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # two brat collections named after no role, numbering the same two abstracts their own way:
    # the files' rule (guessed systems giving one id two texts are annotators' exports)
    ayla = _brat(tmp_path / "ayla", ABSTRACTS)
    june = _brat(tmp_path / "june", {"101": ABSTRACTS["102"], "102": ABSTRACTS["101"]})
    cli_data._load.clear()
    _app(monkeypatch, [{"role": None, "path": str(ayla)}, {"role": None, "path": str(june)}])
    ws = cli_data.cli_workspace()
    assert ws is not None and all(r.ok for r in ws.reports)
    assert {n: s.role for n, s in ws.sets.items()} == {"ayla": "annotator", "june": "annotator"}
    assert all(any(d.message == cli_data.GUESSED_ANNOTATOR for d in r.diagnostics)
               for r in ws.reports)
    assert len(ws.corpus.texts) == 2  # documents matched by their text


def test_a_folder_of_brat_folders_and_a_brat_files_companions_are_no_inputs_of_their_own(
        tmp_path: Path) -> None:
    # the tour's brat-wnut20 (gold/, crf/): one set per collection; in a folder of sets
    # of several formats, a .ann's .txt and annotation.conf are read with it, never refused
    _brat(tmp_path / "wnut" / "gold", ABSTRACTS)
    _brat(tmp_path / "wnut" / "crf", {"101": (ABSTRACTS["101"][0], [(0, 5, "Gene")])})
    reports = cli_data.read_reports((cli_data.DataArg(None, str(tmp_path / "wnut")),))
    assert [(r.file, r.role, r.ok) for r in reports] == [
        ("crf", "system", True), ("gold", "gold", True)]
    mixed = _brat(tmp_path / "mixed", {"gold": ABSTRACTS["101"]})
    _doccano(mixed / "pred.jsonl", [ABSTRACTS["101"][0]])
    reports = cli_data.read_reports((cli_data.DataArg(None, str(mixed)),))
    assert [(r.file, r.role, r.ok) for r in reports] == [
        ("gold.ann", "gold", True), ("pred.jsonl", "system", True)]


def _same_workspace(a: state.Workspace, b: state.Workspace) -> None:
    """``a`` and ``b`` hold the same sets (names, roles, spans) and the same texts."""
    assert {n: s.role for n, s in a.sets.items()} == {n: s.role for n, s in b.sets.items()}
    assert {n: s.spans for n, s in a.sets.items()} == {n: s.spans for n, s in b.sets.items()}
    assert a.corpus.texts == b.corpus.texts


@pytest.mark.parametrize("files", [("amal.jsonl", "bo.jsonl", "chen.jsonl"),
                                   ("gold.jsonl", "ayla.jsonl", "june.jsonl")])
def test_uploads_follow_the_annotator_rule_of_data_and_give_its_workspace(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[str, ...]) -> None:
    # The same files uploaded on the Data page and given one by one without a role to --data:
    # guessed systems that give one id two texts are annotators' exports of one tool, read as
    # annotators (cli_data.one_tools_exports, one function for both paths)
    from ui import uploads

    if files[0] == "gold.jsonl":
        _doccano(tmp_path / "gold.jsonl", ["Soup was cold.", "Nice bread here."])
        _doccano(tmp_path / "ayla.jsonl", ["Soup was cold.", "Nice bread here."])
        _doccano(tmp_path / "june.jsonl", ["Nice bread here.", "Soup was cold.", "Tea."])
        paths = [tmp_path / n for n in files]
    else:
        paths = [EXPORT / n for n in files]
    cli_data._load.clear()
    _app(monkeypatch, [{"role": None, "path": str(p)} for p in paths])
    cli_ws = cli_data.cli_workspace()
    assert cli_ws is not None and all(r.ok for r in cli_ws.reports)
    assert "annotator" in {s.role for s in cli_ws.sets.values()}
    monkeypatch.delenv(DATA_ENV)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.run()
    at.switch_page("pages/data.py").run()
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(p.name, p.read_bytes(), "application/octet-stream") for p in paths]).run()
    assert not at.exception, [e.value for e in at.exception]
    up_ws = at.session_state[state.K_UPLOAD_WS]
    assert not at.error and all(r.ok for r in up_ws.reports)
    _same_workspace(up_ws, cli_ws)
    assert any(i.value.startswith("Read as annotators' exports of one tool") for i in at.info)
    guessed = [r.file for r in up_ws.reports
               if any(d.message == uploads.GUESSED_ANNOTATOR for d in r.diagnostics)]
    assert guessed == [r.file for r in cli_ws.reports
                       if any(d.message == cli_data.GUESSED_ANNOTATOR for d in r.diagnostics)]
    # a role chosen in the box is the user's, as --data ROLE=PATH is: systems, one refused
    for p in paths[-2:]:
        for role in ("annotator", "system"):  # the box shows the guess, system: choose it again
            at.selectbox(key=state.upload_key("role", p.name)).select(role).run()
    up_ws = at.session_state[state.K_UPLOAD_WS]
    assert [r.role for r in up_ws.reports][-2:] == ["system", "system"]
    assert any("one id, two texts" in e.value for e in at.error)


def test_a_file_whose_format_is_not_detected_names_the_way_and_reads_in_the_format_given(
        tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("Rome O\nis O\nold O\n", encoding="utf-8")  # only O tags: not detected
    (report,) = cli_data.read_reports((cli_data.DataArg("gold", str(tokens)),))
    assert not report.ok and report.error is not None
    assert report.error.message.endswith(
        "; on the command line: --data gold=tokens.txt#format=FORMAT")
    (report,) = cli_data.read_reports((cli_data.DataArg("gold", str(tokens), format="conll"),))
    assert report.ok and report.format == "conll"
    assert cli_data.fingerprint((cli_data.DataArg("gold", str(tokens)),)) != \
        cli_data.fingerprint((cli_data.DataArg("gold", str(tokens), format="conll"),))


def _long_first_line(path: Path) -> None:
    """A doccano JSONL file whose first record is over 1 MiB, named ``.txt``: detection reads
    1 MiB and sees no whole record, so it refuses to guess ("pass it explicitly")."""
    rows = [{"id": 1, "text": "word " * 220_000 + "end", "label": [[0, 4, "W"]]},
            {"id": 2, "text": "Soup was cold.", "label": [[0, 4, "FOOD"]]}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _undetected_conll(path: Path) -> None:
    """A CoNLL file whose tags are all ``O``, named ``.txt``: nothing in it says CoNLL (a
    first record over 1 MiB is detected now), so detection refuses to guess."""
    path.write_text("Rome O\nis O\nold O\n\nSoup O\nwas O\ncold O\n", encoding="utf-8")


def test_a_data_file_whose_format_is_not_detected_gets_a_format_box_that_reads_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("gold.txt", "pred.txt"):
        _undetected_conll(tmp_path / name)
    gold, pred = tmp_path / "gold.txt", tmp_path / "pred.txt"
    at = _app(monkeypatch, [{"role": "gold", "path": str(gold)},
                            {"role": "system", "path": str(pred)}], "pages/data.py")
    errors = " ".join(e.value for e in at.error)
    assert errors.count("could not detect the format") == 2
    boxes = {b.key: b for b in at.selectbox if b.key and b.key.startswith(cli_data.K_FORMAT)}
    assert set(boxes) == {cli_data.K_FORMAT + str(gold), cli_data.K_FORMAT + str(pred)}
    assert boxes[cli_data.K_FORMAT + str(gold)].value == "auto"
    at.selectbox(key=cli_data.K_FORMAT + str(gold)).set_value("conll").run()
    at.selectbox(key=cli_data.K_FORMAT + str(pred)).set_value("conll").run()
    assert not at.exception
    assert "could not detect" not in " ".join(e.value for e in at.error)
    info = " ".join(i.value for i in at.info).replace("\\", "")
    assert "gold.txt (gold)" in info and "pred.txt (system)" in info and "refused" not in info
    # the boxes stay, to change the choice back; the workspace holds the files read as CoNLL
    assert at.selectbox(key=cli_data.K_FORMAT + str(gold)).value == "conll"
    args, chosen = cli_data.data_args(), ((str(gold), "conll"), (str(pred), "conll"))
    ws = cli_data._load(cli_data.fingerprint(args) + "".join(f"|{p}#{f}" for p, f in chosen),
                        args, chosen)  # what the session that chose the formats reads
    assert ws is not None and [r.format for r in ws.reports] == ["conll", "conll"]
    assert {n: s.role for n, s in ws.sets.items()} == {"gold": "gold", "pred": "system"}


def test_a_data_value_that_names_its_format_is_read_in_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `--data gold=gold.txt#format=doccano` (core.cli.launch.parse_data_value) gives "format"
    _long_first_line(tmp_path / "gold.txt")
    at = _app(monkeypatch, [{"role": "gold", "path": str(tmp_path / "gold.txt"),
                             "format": "doccano"}], "pages/data.py")
    assert not at.error
    assert not [b for b in at.selectbox if b.key and b.key.startswith(cli_data.K_FORMAT)]
    ws = cli_data.cli_workspace()
    assert ws is not None and [(n, s.role) for n, s in ws.sets.items()] == [("gold", "gold")]
    assert [r.format for r in ws.reports] == ["doccano"]


def test_brat_folders_of_one_project_without_role_are_annotators_as_the_command_line_reads_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tour20: bratiaa's layout (Lisa/, Maria/, Max/: one brat folder per annotator, the same
    documents and texts) given as ``--data FOLDER``: `validate` and `agree` read the folder as
    three annotators, the app read three systems ("Lisa (system)") and said it could not tell."""
    project = tmp_path / "lead"
    _brat(project / "Lisa", ABSTRACTS)
    _brat(project / "Maria", {"101": (ABSTRACTS["101"][0], [(0, 5, "Gene")]),
                              "102": ABSTRACTS["102"]})
    _brat(project / "Max", ABSTRACTS)
    cli_data._load.clear()
    at = _app(monkeypatch, [{"role": None, "path": str(project)}], "pages/data.py")
    ws = cli_data.cli_workspace()
    assert ws is not None and all(r.ok for r in ws.reports)
    assert {n: s.role for n, s in ws.sets.items()} == {
        "Lisa": "annotator", "Maria": "annotator", "Max": "annotator"}
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert not [w for w in warnings if "name no role" in w]
    (note,) = [w for w in warnings if "one folder per annotator" in w]
    assert note.startswith("--data lead: the folders Lisa/, Maria/, Max/ hold the same brat "
                           "documents, one folder per annotator: read as annotators")
