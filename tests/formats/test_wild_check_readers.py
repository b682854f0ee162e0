"""``scripts/wild_check.py``'s independent readers follow the formats' rules where SpanScope
documents them: a CoNLL line starting with ``#`` is a comment only when its tag cell holds no
tag (the Broad Twitter Corpus and WNUT17 have ``#`` and ``#hashtag`` tokens), and spaCy-style
JSONL spans may be under ``entities``. Our own tokens."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _wild_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wild_check", ROOT / "scripts" / "wild_check.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("wild_check", mod)
    spec.loader.exec_module(mod)
    return mod


Documents = list[tuple[str | None, list[tuple[int, int, str]]]]
"""Each document's text (None when the input has none) and its spans."""


def _both_conll(path: Path, options: dict[str, Any] | None = None
                ) -> tuple[Documents, Documents]:
    """The CoNLL file's documents, texts and spans, as the independent reader of
    ``scripts/wild_check.py`` reads them and as ours does, with the same ``options``."""
    from core.formats import ReadOptions, load_path

    theirs = [(t, list(s)) for t, s in _wild_check().ind_conll(path, options or {}).docs]
    loaded = load_path(path, fmt="conll", options=ReadOptions(**(options or {})))
    ours = [(loaded.texts[d], [(s.start, s.end, s.label) for s in spans])
            for d, spans in loaded.sets[0].spans.items()]
    return theirs, ours


def test_a_hash_token_with_a_tag_is_a_token_and_a_comment_line_is_not(tmp_path: Path) -> None:
    path = tmp_path / "btc.conll"
    path.write_text("# text = a comment line\n#\tO\n#Rome\tB-LOC\nis\tO\nold\tO\n\n"
                    "#\tB-MISC\nParis\tB-LOC\n\n", encoding="utf-8")
    theirs, ours = _both_conll(path)
    assert theirs == ours
    assert ours == [("# #Rome is old\n# Paris", [(2, 7, "LOC"), (15, 16, "MISC"),
                                                  (17, 22, "LOC")])]


def test_the_independent_conll_reader_takes_the_columns_named(tmp_path: Path) -> None:
    """A GermEval 2014 file (index, token, outer tag, inner tag), as DKPro Core's test file:
    with ``--text-column 2 --tag-column 3`` both readers read the tokens and the outer tags
    (the last column holds the inner ones, and the first the indexes)."""
    path = tmp_path / "germeval.conll"
    path.write_text("#\tsource line\n1\tIn\tO\tO\n2\tBonn\tB-LOC\tO\n3\t„\tO\tO\n"
                    "4\tTroia\tB-OTH\tB-LOC\n5\tTraum\tI-OTH\tO\n6\t“\tO\tO\n\n",
                    encoding="utf-8")
    wild = _wild_check()
    options = wild.cli_options(["--text-column", "2", "--tag-column", "3"])
    assert options == {"text_column": 2, "tag_column": 3}
    theirs, ours = _both_conll(path, options)
    assert theirs == ours
    assert ours == [("In Bonn „ Troia Traum “", [(3, 7, "LOC"), (10, 21, "OTH")])]


def test_entities_objects_are_read_by_the_independent_spacy_reader(tmp_path: Path) -> None:
    path = tmp_path / "dev.jsonl"
    path.write_text('{"id": "a", "text": "call asha", "entities": [{"start": 5, "end": 9, '
                    '"label": "PER"}]}\n', encoding="utf-8")
    theirs = _wild_check().ind_spacy(path, {})
    assert theirs.docs == [("call asha", ((5, 9, "PER"),))]


def _agree(path: Path, fmt: str) -> tuple[object, object]:
    """SpanScope's and the independent reader's readings of ``path``, compared as the script
    compares them (an empty list: they agree)."""
    wild = _wild_check()
    ours, _ = wild.spanscope(path, fmt, {})
    theirs = wild.INDEPENDENT[fmt](path, {})
    return wild.compare(ours, theirs), theirs


def test_a_zip_made_on_a_mac_is_read_without_its_resource_forks(tmp_path: Path) -> None:
    """The AAE 2.0 brat zip holds ``__MACOSX/._essay001.ann`` (binary): the script's reader
    failed on it; both readers skip it, as SpanScope's own zip reader does."""
    import zipfile

    path = tmp_path / "brat-project-final.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("brat-project-final/essay001.txt", "Cats rule.")
        zf.writestr("brat-project-final/essay001.ann", "T1\tClaim 0 4\tCats\n")
        zf.writestr("__MACOSX/brat-project-final/._essay001.ann", b"\x00\x05\x16\x07\x89\xff")
        zf.writestr("brat-project-final/._essay001.txt", b"\x00\x05\x16\x07\x89\xff")
    problems, theirs = _agree(path, "brat")
    assert problems == []
    assert theirs.docs == [("Cats rule.", ((0, 4, "Claim"),))]  # type: ignore[attr-defined]


def test_a_label_studio_csv_export_is_read_by_the_independent_reader() -> None:
    path = ROOT / "tests" / "data" / "formats" / "label-studio" / "converter_export.csv"
    problems, theirs = _agree(path, "label-studio")
    assert problems == []
    assert theirs.span_count > 0  # type: ignore[attr-defined]


def test_predictions_listed_by_id_are_read_from_the_embedded_prediction(tmp_path: Path) -> None:
    import json

    span = {"type": "labels", "value": {"start": 0, "end": 3, "text": "Ada", "labels": ["P"]}}
    tasks = [{"id": 1, "data": {"text": "Ada runs."}, "predictions": [11, 12],
              "annotations": [{"completed_by": 2, "result": [span],
                               "prediction": {"id": 11, "model_version": "m",
                                              "result": [span]}}]}]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    problems, theirs = _agree(path, "label-studio")
    assert problems == []
    assert theirs.sets == 2 and theirs.span_count == 2  # type: ignore[attr-defined]


def test_prodigy_answers_of_several_annotators_agree_with_spanscope() -> None:
    path = ROOT / "tests" / "data" / "formats" / "prodigy" / "three_annotators.jsonl"
    problems, theirs = _agree(path, "spacy")
    assert problems == []
    assert theirs.sets == 3 and len(theirs.docs) == 8  # type: ignore[attr-defined]


def test_the_independent_xmi_reader_finds_the_type_systems_corpora_keep() -> None:
    # WebAnno 3 wrote typesystem.xml in lower case (SENTiVENT's document exports);
    # REDEWIEDERGABE keeps its type systems in resources/ beside the .xmi files.
    import tempfile

    mod = _wild_check()
    sample = ROOT / "sample_data" / "formats" / "xmi_export"
    for place in ("typesystem.xml", "resources/rwTypesystem_stwrview.xml"):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / place).parent.mkdir(parents=True, exist_ok=True)
            (folder / place).write_bytes((sample / "TypeSystem.xml").read_bytes())
            (folder / "speech1.xmi").write_bytes((sample / "speech1.xmi").read_bytes())
            layers = mod.xmi_layers(folder / "speech1.xmi")
            technique = layers[("webanno.custom.Technique", "Technique")]
            assert technique.span_count == 3, place


def test_the_independent_xmi_reader_reads_a_layer_held_only_as_its_subtypes(
        tmp_path: Path) -> None:
    # linguistic-features-in-text's DKPro XMI: essay_en.txt.xmi holds POS only as POS_NOUN,
    # POS_VERB, ... and news_de.txt.xmi some plain POS too; the layer POS was found in the second
    # file only, so the first read as having none, and SpanScope's --layer POS (subtypes
    # included, as cassis's select includes them) seemed to differ.
    mod = _wild_check()
    sample = ROOT / "sample_data" / "formats" / "xmi_export"
    ts = (sample / "TypeSystem.xml").read_text(encoding="utf-8")
    subtype = ("<typeDescription><name>webanno.custom.Doubt</name><description/>"
               "<supertypeName>webanno.custom.Technique</supertypeName></typeDescription>")
    (tmp_path / "TypeSystem.xml").write_text(
        ts.replace("</types>", subtype + "</types>"), encoding="utf-8")
    xmi = (sample / "speech1.xmi").read_text(encoding="utf-8")
    (tmp_path / "a.xmi").write_text(xmi, encoding="utf-8")
    (tmp_path / "b.xmi").write_text(xmi.replace("custom:Technique ", "custom:Doubt "),
                                    encoding="utf-8")
    technique = mod.xmi_layers(tmp_path)[("webanno.custom.Technique", "Technique")]
    assert [len(spans) for _, spans in technique.docs] == [3, 3]
    ours, _ = mod.spanscope(tmp_path, "uima-xmi", {"layer": "webanno.custom.Technique"})
    assert mod.compare(ours, technique) == []


def test_the_independent_conll_reader_starts_a_document_at_doc_start(tmp_path: Path) -> None:
    """vtner's ``DOC-START<TAB>Np<TAB>O`` rows (wild12): a document each, no token."""

    path = tmp_path / "dev.conll"
    path.write_text("DOC-START\tNp\tO\nHà_Nội\tNp\tB-LOC\n\nDOC-START\tNp\tO\nAnh\tN\tO\n"
                    "Nam\tNp\tB-PER\n\n", encoding="utf-8")
    theirs, ours = _both_conll(path)
    assert theirs == ours == [
        ("Hà_Nội", [(0, 6, "LOC")]), ("Anh Nam", [(4, 7, "PER")])]


def test_the_independent_document_start_rule_is_its_own_not_spanscopes() -> None:
    """The checker's rule is written from the CoNLL-2003 description, not copied from SpanScope's
    reader (bugleft23: it had become the reader's regular expression, so it checked nothing):
    the word DOCSTART however hyphenated, on a line that marks no entity. Where the two rules
    would part (a marker spelt otherwise, a marker tagged as an entity), a disagreement shows in
    the check instead of being copied into it."""
    import inspect

    mod = _wild_check()
    starts = mod._starts_document
    assert starts(["-DOCSTART-", "-X-", "-X-", "O"])  # CoNLL-2003's own line
    assert starts(["-DOCSTART-"]) and starts(["DOC-START", "Np", "O"])
    assert starts(["docstart", "O"])
    assert not starts(["-DOCSTART-", "B-MISC"]) and not starts(["DOCSTARTER", "O"])
    assert not starts(["Hà_Nội", "Np", "B-LOC"])
    source = inspect.getsource(mod)
    assert "DOC-?START" not in source and "_DOCSTART_LIKE" not in source
    assert "core.formats.conll" not in source


def test_the_independent_label_studio_reader_reads_a_completions_folder(tmp_path: Path) -> None:
    import json

    folder = tmp_path / "completions"
    folder.mkdir()
    for k, text in enumerate(["The council met.", "A council rose."]):
        start = text.index("council")
        task = {"id": k, "data": {"text": text}, "completions": [{"result": [
            {"id": "r", "from_name": "ner", "to_name": "text", "type": "labels",
             "value": {"start": start, "end": start + 7, "text": "council",
                       "labels": ["Org"]}}]}]}
        (folder / f"{k}.json").write_text(json.dumps(task, indent=2), encoding="utf-8")
    theirs = _wild_check().ind_label_studio(folder, {})
    assert sorted(theirs.docs) == [("A council rose.", ((2, 9, "Org"),)),
                                   ("The council met.", ((4, 11, "Org"),))]


def test_an_entry_refused_at_detection_is_checked_by_detection(tmp_path: Path) -> None:
    path = tmp_path / "tsv" / "statements.tsv"
    path.parent.mkdir()
    path.write_text("subject_id\tproperty\tobject_id\tsnippet\nQ1\tP36\tQ2\tSome words.\n",
                    encoding="utf-8")
    entry = {"file": "tsv/statements.tsv", "format": "ptc", "refused_by": "detect",
             "expect_error": "not an annotation export"}
    row = _wild_check().check(entry, tmp_path)
    assert row["ok"] and row["refused"].endswith(
        "could not detect the format: not an annotation export: a table whose header "
        "(subject_id, property, object_id, snippet) names no character offsets (start, end) "
        "and no token tags, which every span format SpanScope reads gives")


def test_time_prints_a_bench_line_per_entry_read(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = tmp_path / "doccano" / "admin.jsonl"
    path.parent.mkdir()
    path.write_text('{"id": 1, "text": "Ann met Bob.", "label": [[0, 3, "PER"]]}\n',
                    encoding="utf-8")
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"file": "doccano/admin.jsonl", "format": "doccano",
                                    "expected": {"documents": 1, "spans": 1}}) + "\n")
    assert _wild_check().main([str(tmp_path), "--manifest", str(manifest), "--time"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith("time ")]
    assert len(lines) == 1 and "doccano/admin.jsonl" in lines[0]
    assert lines[0].split()[-1] == "MiB/s" and lines[0].split()[3] == "MiB"


def test_the_independent_spacy_reader_reads_training_tuples(tmp_path: Path) -> None:
    """spaCy's training tuples, bare and as the NER Annotator's export (wild14): both readers
    find the same texts and spans."""
    import json

    pairs = [["Ann met Bob.", {"entities": [[0, 3, "PER"], [8, 11, "PER"]]}],
             ["Rain.", {"entities": []}]]
    for name, value in (("tuples.json", pairs),
                        ("export.json", {"classes": ["PER"], "annotations": pairs})):
        path = tmp_path / name
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")
        problems, theirs = _agree(path, "spacy")
        assert problems == []
        assert theirs.docs == [  # type: ignore[attr-defined]
            ("Ann met Bob.", ((0, 3, "PER"), (8, 11, "PER"))), ("Rain.", ())]
