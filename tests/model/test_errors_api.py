"""The errors a Python user meets are typed as Python code expects: a missing file is also a
``FileNotFoundError``, an invalid input also a ``ValueError``, a wrong ``fmt`` names the
parameter, a path handed to a scorer is a ``TypeError`` naming ``AnnotationSet``, a label outside
the MAFALDA taxonomy names its set, and a span past its text names the reader option; the
command line keeps its own words (its options, the file names)."""

from __future__ import annotations

import errno
import pickle
from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, load_files, load_path
from core.metrics import mafalda, martino
from core.model import AnnotationSet, Span
from core.model.errors import (
    FormatError,
    InputError,
    MissingFileError,
    ParameterError,
    SpanScopeError,
)

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "sample_data" / "propaganda" / "gold.json"
PAST = b'[{"id": "d", "text": "abc", "labels": [{"start": 0, "end": 40, "technique": "Doubt"}]}]'


def test_a_missing_file_is_a_file_not_found_error_and_a_format_error(tmp_path: Path) -> None:
    where = tmp_path / "nope.json"
    with pytest.raises(FileNotFoundError) as caught:
        load_path(where)
    err = caught.value
    assert isinstance(err, FormatError) and isinstance(err, MissingFileError)
    assert (err.errno, err.filename, err.file) == (errno.ENOENT, str(where), str(where))
    assert str(err) == f"{where}: no such file or folder"
    again = pickle.loads(pickle.dumps(err))  # a Dask worker sends errors back pickled
    assert type(again) is MissingFileError and str(again) == str(err)


def test_the_command_line_still_names_a_missing_file_in_its_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = tmp_path / "nowhere.json"
    assert main(["score", str(where), str(GOLD), "--metric", "martino"]) == 1
    assert capsys.readouterr().err == f"error: {where}: no such file or folder\n"


def test_input_errors_are_value_errors() -> None:
    assert issubclass(SpanScopeError, ValueError)
    assert issubclass(FormatError, ValueError) and issubclass(InputError, ValueError)
    g = AnnotationSet("gold", {"a": (Span(0, 4, "Doubt"),)})
    p = AnnotationSet("pred", {"b": (Span(0, 4, "Doubt"),)}, "system")
    with pytest.raises(ValueError, match="must cover the same documents"):
        martino.score(g, p)


def test_an_unknown_fmt_blames_the_parameter() -> None:
    with pytest.raises(ParameterError) as caught:
        load_path(GOLD, fmt="semeval")
    assert caught.value.param == "fmt"
    assert str(caught.value).startswith("The 'fmt' parameter of load_path must be one of {")
    assert str(caught.value).endswith("Got 'semeval' instead.")
    assert "'semeval2021'" in str(caught.value)


@pytest.mark.parametrize("score", [martino.score, mafalda.score])
def test_a_scorer_given_paths_says_it_takes_annotation_sets(score: object) -> None:
    owner = f"{score.__module__.rsplit('.', 1)[1]}.score"  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=rf"^The 'gold' parameter of {owner} must be an "
                                        r"AnnotationSet\. Got str 'gold\.json' instead; read a "
                                        r"file first: core\.formats\.load_path\('gold\.json'\)"):
        score("gold.json", "pred.json")  # type: ignore[operator]
    gold = load_path(GOLD).set
    with pytest.raises(TypeError, match=r"The 'pred' parameter .* Got PosixPath"):
        score(gold, Path("pred.json"))  # type: ignore[operator]


def test_a_label_outside_the_mafalda_taxonomy_names_its_set() -> None:
    g = AnnotationSet("gold", {"d": (Span(0, 4, "ad hominem"),)})
    p = AnnotationSet("mine", {"d": (Span(0, 4, "Banana"),)}, "system")
    with pytest.raises(FormatError, match=r"^the system set 'mine': field 'label': expected a "
                                          r"label of the MAFALDA taxonomy, got 'Banana'"):
        mafalda.score(g, p)
    with pytest.raises(FormatError, match=r"^the gold set 'g2': field 'label'"):
        mafalda.score(AnnotationSet("g2", {"d": (Span(0, 4, "Doubt"),)}), p)


def test_a_span_past_its_text_names_the_reader_option_for_python_users() -> None:
    with pytest.raises(FormatError) as caught:
        load_files({"a.json": PAST}, fmt="semeval2021")
    assert "pass --clip-spans" in str(caught.value)  # the command line's words, unchanged
    assert any("ReadOptions(beyond_text='clip')" in n for n in caught.value.__notes__)
    clipped = load_files({"a.json": PAST}, fmt="semeval2021",
                         options=ReadOptions(beyond_text="clip"))
    assert clipped.set.spans["d"] == (Span(0, 3, "Doubt"),)  # the note's advice works


def test_every_error_with_fields_of_its_own_pickles_back_as_itself() -> None:
    """The dashboard's background worker sends a job's error back pickled, and so does a Dask
    worker: an error whose ``__init__`` takes other arguments than the message it keeps did
    not unpickle (``FormatError.__init__() missing 1 required positional argument:
    'message'``), which killed the thread that read the worker's answers (twentieth pass)."""
    from core.store.curation import Conflict

    fmt = FormatError("gold.json", "expected an integer, got 'x'", line=3, field="start",
                      path="labels[0].start")
    again = pickle.loads(pickle.dumps(fmt))
    assert type(again) is FormatError and str(again) == str(fmt)
    assert (again.file, again.line, again.field, again.diagnostic) == (
        "gold.json", 3, "start", fmt.diagnostic)
    param = ParameterError("variant", "The 'variant' parameter of martino must be one of "
                           "['semeval2021']. Got 'semeval'.", value="semeval",
                           choices=["semeval2021"])
    again = pickle.loads(pickle.dumps(param))
    assert type(again) is ParameterError and str(again) == str(param)
    assert (again.param, again.value, again.choices) == ("variant", "semeval", ["semeval2021"])
    assert again.suggestion() == param.suggestion() == "did you mean 'semeval2021'?"
    conflict = Conflict(["k1", "k2"])
    again = pickle.loads(pickle.dumps(conflict))
    assert type(again) is Conflict and again.keys == ("k1", "k2")
    assert str(again) == str(conflict)
