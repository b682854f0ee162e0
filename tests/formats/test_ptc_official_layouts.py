"""PTC files laid out as the official SemEval-2020 Task 11 and NLP4IF-2019 distributions lay
them out (our own small copies under ``tests/data/formats/ptc/``, invented text).

* ``dev-task-TC.labels`` / ``dev-task-SI.labels``: one gold file for every article;
* ``semeval2020-tc-folder`` / ``-si-folder``: ``article<ID>.txt`` beside
  ``article<ID>.task2-TC.labels`` / ``.task1-SI.labels`` (one article without any span);
* ``nlp4if2019-flc-folder``: ``article<ID>.task-FLC.labels`` with the 18 NLP4IF techniques and
  spans that end in a space, as that gold often does;
* ``nlp4if2019-slc``: sentence labels (``.task-SLC.labels``), which are not spans;
* article 201 starts with a UTF-8 byte order mark, which the corpus's offsets count;
* ``crlf-folder``: article 301 saved with CRLF line endings, its offsets counting each line
  break as one character (Python's universal newlines, as the corpus was read).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, load_path
from core.formats.tools import validate

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "ptc"
ROLES = ("gold", "system", "annotator")


def _validate_cli(path: Path, *args: str) -> tuple[int, dict[str, object], str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["validate", str(path), "--json", *args])
    return rc, json.loads(out.getvalue()), err.getvalue()


def _rows(path: Path) -> Counter[tuple[str, int, int, str]]:
    """The rows as the published format describes them: id, [technique,] begin, end."""
    out: Counter[tuple[str, int, int, str]] = Counter()
    files = sorted(path.glob("*.labels")) if path.is_dir() else [path]
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            cols = line.split("\t")
            label = cols[1] if len(cols) == 4 else "propaganda"
            out[(cols[0], int(cols[-2]), int(cols[-1]), label)] += 1
    return out


@pytest.mark.parametrize(("name", "task"), [
    ("dev-task-TC.labels", "semeval2020-tc"), ("dev-task-SI.labels", None),
    ("semeval2020-tc-folder", "semeval2020-tc"), ("semeval2020-si-folder", None),
    ("nlp4if2019-flc-folder", "nlp4if2019"),
])
def test_official_layouts_are_valid_whatever_the_role(name: str, task: str | None) -> None:
    path = DATA / name
    guessed_rc, guessed, _ = _validate_cli(path)  # the role guessed from the name
    assert guessed_rc == 0 and guessed["technique_list"] == task
    for role in ROLES:
        result = validate(path, role=role)
        assert result["valid"], (role, result["errors"])
        assert result["technique_list"] == task


@pytest.mark.parametrize("name", ["dev-task-TC.labels", "dev-task-SI.labels",
                                  "semeval2020-tc-folder", "semeval2020-si-folder",
                                  "nlp4if2019-flc-folder"])
def test_documents_spans_and_labels_are_read_as_the_format_describes(name: str) -> None:
    path = DATA / name
    aset = load_path(path, fmt="ptc").set
    got = Counter((d, s.start, s.end, s.label) for d, spans in aset for s in spans)
    assert got == _rows(path)
    if path.is_dir():  # an empty .labels file is an article without spans
        assert sorted(aset.doc_ids) == ["201", "202", "203"] and aset.get("203") == ()


def test_a_byte_order_mark_is_the_texts_first_character_as_the_offsets_count_it() -> None:
    loaded = load_path(DATA / "semeval2020-tc-folder", fmt="ptc")
    text = loaded.texts["201"]
    assert text is not None and text.startswith("\ufeffCouncil")
    fragments = {s.label: text[s.start:s.end] for s in loaded.set.get("201")}
    assert fragments["Loaded_Language"] == "a disaster waiting to happen"
    assert fragments["Doubt"] == "the mayor never keeps a promise"
    assert not [d for d in loaded.diagnostics if "whitespace" in str(d)]


CRLF_FRAGMENTS = {"Loaded_Language": "a disaster", "Bandwagon,Reductio_ad_hitlerum":
                  "Everyone knows", "Exaggeration,Minimisation": "ruin this town forever"}


def test_crlf_line_breaks_count_one_character_as_the_ptc_offsets_count_them() -> None:
    folder = DATA / "crlf-folder"
    assert (folder / "article301.txt").read_bytes().count(b"\r\n") == 4
    loaded = load_path(folder, fmt="ptc")
    text = loaded.texts["301"]
    assert text is not None and "\r" not in text
    assert {s.label: text[s.start:s.end] for s in loaded.set.get("301")} == CRLF_FRAGMENTS
    (warning,) = [str(d) for d in loaded.diagnostics]
    assert "article301.txt" in warning
    assert "4 CRLF line breaks read as one character each" in warning
    assert "--line-breaks as-stored" in warning


def test_line_breaks_as_stored_keeps_the_cr_and_the_spans_drift_as_before() -> None:
    loaded = load_path(DATA / "crlf-folder", fmt="ptc",
                       options=ReadOptions(line_breaks="as-stored"))
    text = loaded.texts["301"]
    assert text is not None and text.count("\r\n") == 4
    got = {s.label: text[s.start:s.end] for s in loaded.set.get("301")}
    assert got["Loaded_Language"] == "a disaster"  # before the first line break
    assert got["Bandwagon,Reductio_ad_hitlerum"] == "\r\nEveryone kno"
    assert not [d for d in loaded.diagnostics if "CRLF" in str(d)]
    rc, result, _ = _validate_cli(DATA / "crlf-folder", "--line-breaks", "as-stored")
    assert rc == 0 and result["valid"] and result["warning_counts"] == {"whitespace": 1}
    rc, result, _ = _validate_cli(DATA / "crlf-folder")
    assert rc == 0 and result["warning_counts"] == {"line-breaks": 1}
    assert "4 CRLF line breaks" in str(result["warnings"])


def test_nlp4if_spans_ending_in_a_space_are_read_with_a_warning() -> None:
    loaded = load_path(DATA / "nlp4if2019-flc-folder", fmt="ptc")
    texts = {d: t for d, t in loaded.texts.items() if t is not None}
    assert {texts[d][s.start:s.end] for d, spans in loaded.set for s in spans} >= {"a fool ",
                                                                                   "a disaster "}
    warnings = [str(d) for d in loaded.diagnostics]
    assert sum("ends in whitespace" in w for w in warnings) == 2


def test_a_sentence_level_slc_file_is_refused_with_a_message_naming_it() -> None:
    rc, result, err = _validate_cli(DATA / "nlp4if2019-slc")
    assert rc == 1 and not result["valid"]
    assert "task-SLC.labels:1" in err and "sentence-level (SLC)" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("role", ROLES)
def test_a_misspelt_technique_is_refused_in_every_role(tmp_path: Path, role: str) -> None:
    path = tmp_path / "dev-task-TC.labels"
    path.write_text((DATA / "dev-task-TC.labels").read_text(encoding="utf-8")
                    .replace("Name_Calling,Labeling", "Name_calling,Labeling"), encoding="utf-8")
    result = validate(path, role=role)
    assert not result["valid"] and result["technique_list"] == "semeval2020-tc"
    (error,) = result["errors"]
    assert "'Name_calling,Labeling'" in error and "did you mean 'Name_Calling,Labeling'?" in error


@pytest.mark.parametrize("role", ROLES)
def test_a_label_set_of_ones_own_is_valid_in_every_role(tmp_path: Path, role: str) -> None:
    path = tmp_path / "mine.tsv"
    path.write_text("1\tSarcasm\t0\t5\n1\tIrony\t6\t9\n1\tDoubt\t10\t12\n", encoding="utf-8")
    result = validate(path, role=role)
    assert result["valid"] and result["technique_list"] is None


def test_reading_with_the_gold_texts_keeps_the_prediction_offsets() -> None:
    gold = load_path(DATA / "semeval2020-tc-folder", fmt="ptc")
    pred = load_path(DATA / "dev-task-TC.labels", fmt="ptc",
                     options=ReadOptions(role="system", gold_texts=gold.texts))
    assert not [d for d in pred.diagnostics if "text" in str(d)]
    assert {d: sorted(v) for d, v in pred.set if v} == {d: sorted(v) for d, v in gold.set if v}


def test_one_labels_file_for_all_articles_reads_with_the_texts_beside_it() -> None:
    """The official dev set as distributed: a folder of ``article<ID>.txt`` and one
    ``dev-task-TC.labels`` for all of them (``dev-articles-with-tc-labels``)."""
    folder = DATA / "dev-articles-with-tc-labels"
    loaded = load_path(folder)
    alone = load_path(DATA / "dev-task-TC.labels")
    assert loaded.format == "ptc"
    assert dict(loaded.set.spans) == dict(alone.set.spans)
    assert set(loaded.texts) == {"201", "202"}
    per_article = load_path(DATA / "semeval2020-tc-folder")  # the same texts, BOM kept
    assert all(loaded.texts[doc] == per_article.texts[doc] for doc in ("201", "202"))
    (unused,) = [d for d in loaded.diagnostics if "have no row" in d.message]
    assert unused.message.startswith("1 article texts have no row in dev-task-TC.labels "
                                     "(first: article203.txt)")


def test_an_articles_folder_without_labels_says_how_to_add_them(tmp_path: Path) -> None:
    for doc in ("201", "202"):
        (tmp_path / f"article{doc}.txt").write_text("An article.", encoding="utf-8")
    rc, _out, err = _validate_cli(tmp_path)
    assert rc == 1
    assert "or one .labels file for all its articles (such as dev-task-TC.labels)" in err
