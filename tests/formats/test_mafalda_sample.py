"""The MAFALDA-style sample (``sample_data/mafalda/``): every file reads as MAFALDA's layout, the
gold encodes alternatives, ⊥ and the paper's Examples 5 and 9, and the two span metrics differ on
it for the reasons the sample's README names (hand-computed per text)."""

import importlib.util
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from core.cli import main
from core.formats import ReadOptions, detect, load_path
from core.metrics import mafalda, martino
from core.model import NOTHING, AnnotationSet, Span
from core.model.taxonomy import mafalda as mafalda_taxonomy

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "mafalda"
BUILDER = ROOT / "sample_data" / "build_mafalda_sample.py"
N_TEXTS = 11

# file -> (format, role it is read with, spans)
FILES = {
    "gold.jsonl": ("mafalda", "gold", 22),
    "system_a.jsonl": ("mafalda", "system", 19),
    "system_b.jsonl": ("mafalda", "system", 20),
    "annotator_1.jsonl": ("mafalda", "annotator", 19),
    "annotator_2.jsonl": ("mafalda", "annotator", 15),
    "annotator_3.jsonl": ("mafalda", "annotator", 20),
    "system_llm.jsonl": ("mafalda-llm", "system", 28),
}
SPAN_FILES = [name for name, (fmt, _, _) in FILES.items() if fmt == "mafalda"]


def _read(name: str, role: str = "system", **options: object) -> AnnotationSet:
    return load_path(SAMPLE / name, options=ReadOptions(role=role, **options)).set  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def gold() -> AnnotationSet:
    return _read("gold.jsonl", "gold")


@pytest.fixture(scope="module")
def texts() -> dict[str, str | None]:
    return load_path(SAMPLE / "gold.jsonl").texts


def _sentences(doc: int) -> list[tuple[int, int]]:
    """Sentence intervals of a gold text, from the keys of its ``sentences_with_labels``."""
    row = _lines("gold.jsonl")[doc]
    out, cursor = [], 0
    for sentence in json.loads(row["sentences_with_labels"]):
        start = row["text"].index(sentence, cursor)
        cursor = start + len(sentence)
        out.append((start, cursor))
    return out


def _lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (SAMPLE / name).read_text(encoding="utf-8").splitlines()]


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_mafalda_sample", BUILDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- the files -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(FILES))
def test_each_file_is_detected_and_read_with_its_span_count(name: str) -> None:
    fmt, role, n_spans = FILES[name]
    path = SAMPLE / name
    assert detect({name: path.read_bytes()}) == fmt
    loaded = load_path(path, options=ReadOptions(role=role))  # type: ignore[arg-type]
    assert loaded.format == fmt
    aset = loaded.set
    assert aset.doc_ids == [str(i) for i in range(N_TEXTS)]
    assert aset.span_count() == n_spans
    assert aset.alternatives is (role == "gold")
    assert all(isinstance(t, str) and t.endswith("\n") for t in loaded.texts.values())


def test_every_file_holds_the_same_texts_in_the_same_order(texts: dict[str, str | None]) -> None:
    for name, (_, role, _) in FILES.items():
        loaded = load_path(SAMPLE / name, options=ReadOptions(role=role))  # type: ignore[arg-type]
        assert loaded.texts == texts, name


@pytest.mark.parametrize("name", SPAN_FILES)
def test_lines_have_mafaldas_four_fields_and_sentences_with_labels_agrees_with_labels(
    name: str,
) -> None:
    for row in _lines(name):
        assert list(row) == ["text", "labels", "comments", "sentences_with_labels"]
        assert isinstance(row["comments"], list)
        sentences = json.loads(row["sentences_with_labels"])
        text = row["text"]
        cursor = 0
        for sentence, groups in sentences.items():
            start = text.index(sentence, cursor)  # sentences appear in text order
            end = cursor = start + len(sentence)
            touching = sorted(lab for s, e, lab in row["labels"]
                              if min(e, end) > max(s, start) and lab != "to clean")
            listed = sorted(lab for group in groups for lab in group)
            assert listed == (touching or ["nothing"]), (name, sentence)


def test_gold_has_alternatives_optional_spans_and_an_empty_text(gold: AnnotationSet) -> None:
    alternatives = {doc: [set(a.labels) for a in gold.alt_spans(doc) if len(a.labels) > 1]
                    for doc in gold.doc_ids}
    assert alternatives["0"] == [{"appeal to fear", "appeal to anger"}, {"ad hominem", NOTHING}]
    assert alternatives["4"] == [{"false causality", "causal oversimplification"}]
    assert alternatives["10"] == [{"ad populum", NOTHING}]
    optional = [doc for doc in gold.doc_ids if any(a.optional for a in gold.alt_spans(doc))]
    assert optional == ["0", "10"]
    assert gold.get("9") == ()
    assert _lines("gold.jsonl")[9]["labels"] == []


def test_gold_has_nested_and_partly_overlapping_spans(gold: AnnotationSet) -> None:
    doc0 = gold.alt_spans("0")
    assert any(a != b and a.start <= b.start and b.end <= a.end and a.length > b.length
               for a in doc0 for b in doc0)  # sentence 1 inside the two-sentence ad hominem
    slope, fear = gold.alt_spans("2")
    assert 0 < slope.end - fear.start < min(slope.length, fear.length)


def test_to_clean_label_is_dropped_with_one_warning() -> None:
    loaded = load_path(SAMPLE / "gold.jsonl")
    assert [(s.start, s.end, s.label) for s in loaded.set.get("5")] == [
        (0, 149, "appeal to (false) authority")]
    raw = _lines("gold.jsonl")[5]["labels"]
    assert [150, 197, "to clean"] in raw
    (warning,) = loaded.diagnostics
    assert "'to clean'" in str(warning) and ":6:" in str(warning)


def test_gold_text_0_has_the_structure_of_the_papers_example_5(gold: AnnotationSet,
                                                                texts: dict[str, str | None],
                                                                ) -> None:
    """Helwe et al. (2024) §5.2.1, Example 5: s1+s2 ad hominem, s1 fear OR anger, s3 none,
    s4 tradition, s5 ad hominem OR ⊥ (four alternatives of four spans each)."""
    s = _sentences(0)
    assert len(s) == 5 and all((texts["0"] or "")[e - 1] == "." for _, e in s)
    assert [(a.start, a.end, set(a.labels)) for a in gold.alt_spans("0")] == [
        (s[0][0], s[0][1], {"appeal to fear", "appeal to anger"}),
        (s[0][0], s[1][1], {"ad hominem"}),
        (s[3][0], s[3][1], {"appeal to tradition"}),
        (s[4][0], s[4][1], {"ad hominem", NOTHING}),
    ]
    assert not any(a.start < s[2][1] and s[2][0] < a.end for a in gold.alt_spans("0"))


def test_gold_text_1_reproduces_example_9_with_a_first_sentence_a_quarter_long(
    gold: AnnotationSet, texts: dict[str, str | None],
) -> None:
    text = texts["1"] or ""
    (whole,) = gold.get("1")
    first = text.index(".") + 1
    assert (whole.start, whole.end, whole.label) == (0, len(text) - 1, "ad hominem")
    assert Fraction(first, whole.length) == Fraction(1, 4)
    assert text.startswith("Mr Hart is a liar. Therefore")


def test_system_a_has_a_split_a_duplicate_and_a_nothing_prediction(gold: AnnotationSet) -> None:
    loaded = load_path(SAMPLE / "system_a.jsonl", options=ReadOptions(role="system"))
    system_a = loaded.set
    slope = next(s for s in gold.get("2") if s.label == "slippery slope")
    pieces = [p for p in system_a.get("2") if p.label == "slippery slope"]
    assert len(pieces) == 2 and sum(p.overlap(slope) for p in pieces) == slope.length - 1
    doc3 = system_a.get("3")
    assert len(doc3) == 2 and doc3[0] == doc3[1]
    assert any("appears twice" in str(d) for d in loaded.diagnostics)
    assert [s.label for s in system_a.get("9")] == [NOTHING]
    assert [s.label for s in system_a.get("1")] == ["ad hominem", "tu quoque"]


def test_system_b_reads_unknown_and_capitalised_labels() -> None:
    system_b = _read("system_b.jsonl")
    assert [s.label for s in system_b.get("6")] == ["false analogy", "unknown"]
    assert "appeal to ridicule" in [s.label for s in system_b.get("5")]  # "Appeal to Ridicule"
    assert system_b.get("9") != ()  # a false alarm on the text without fallacy


def test_annotators_disagree_where_the_gold_lists_alternatives() -> None:
    a1, a2 = _read("annotator_1.jsonl", "annotator"), _read("annotator_2.jsonl", "annotator")
    first = {(s.start, s.end): s.label for s in a1.get("0")}
    second = {(s.start, s.end): s.label for s in a2.get("0")}
    sentence0 = min(first, key=lambda iv: iv[1])
    assert (first[sentence0], second[sentence0]) == ("appeal to fear", "appeal to anger")
    assert [s.label for s in a1.get("4")] == ["false causality"]
    assert [s.label for s in a2.get("4")] == ["causal oversimplification"]


def test_llm_outputs_pair_with_the_gold_by_position_and_use_its_sentences() -> None:
    """As in MAFALDA's released results (docs/mafalda.md): line i answers gold line i,
    its keys are the gold line's ``sentences_with_labels`` keys."""
    gold_rows, llm_rows = _lines("gold.jsonl"), _lines("system_llm.jsonl")
    assert len(gold_rows) == len(llm_rows)
    for g, p in zip(gold_rows, llm_rows, strict=True):
        assert list(p) == ["text", "prediction"]
        assert p["text"] == g["text"]
        assert list(p["prediction"]) == list(json.loads(g["sentences_with_labels"]))


def test_llm_parsings_differ_on_the_no_fallacy_answers(gold: AnnotationSet,
                                                      texts: dict[str, str | None]) -> None:
    """docs/mafalda.md: paper-2023 reads "No fallacy." as unknown, repo-head as ⊥;
    paper-2023 offsets assume no space between sentences, repo-head one."""
    ids = gold.doc_ids
    paper = _read("system_llm.jsonl", gold_doc_ids=ids)
    head = _read("system_llm.jsonl", gold_doc_ids=ids, llm_parsing="repo-head")
    whole9 = (0, len(texts["9"] or "") - 1)
    assert [(s.start, s.end, s.label) for s in paper.get("9")] == [(*whole9, "unknown")]
    assert [(s.start, s.end, s.label) for s in head.get("9")] == [(*whole9, NOTHING)]
    # Sentence 3 of text 0 (tradition) starts 3 characters early in paper-2023, exactly in
    # repo-head: the official offsets are assumed from sentence lengths, never looked up.
    start3 = _sentences(0)[3][0]
    starts = [next(s.start for s in aset.get("0") if s.label == "appeal to tradition")
              for aset in (paper, head)]
    assert starts == [start3 - 3, start3]
    # "dangerous" contains "anger": a keyword match the official parser makes.
    assert "appeal to anger" in {s.label for s in head.get("8")}


def test_files_are_what_the_generator_writes() -> None:
    builder = _builder()
    expected = {
        "gold.jsonl": builder.mafalda_lines(builder.GOLD, builder.COMMENTS),
        "system_a.jsonl": builder.mafalda_lines(builder.SYSTEM_A),
        "system_b.jsonl": builder.mafalda_lines(builder.SYSTEM_B),
        "annotator_1.jsonl": builder.mafalda_lines(builder.ANNOTATOR_1),
        "annotator_2.jsonl": builder.mafalda_lines(builder.ANNOTATOR_2),
        "annotator_3.jsonl": builder.mafalda_lines(builder.ANNOTATOR_3),
        "system_llm.jsonl": builder.llm_lines(),
    }
    assert set(expected) == set(FILES)
    for name, content in expected.items():
        assert (SAMPLE / name).read_text(encoding="utf-8") == content, name


# ---- command line --------------------------------------------------------------------------------

def _role(name: str) -> str:
    return "gold" if "gold" in name else "annotator" if "annotator" in name else "system"


@pytest.mark.parametrize("name", list(FILES))
def test_validate_accepts_every_file(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(SAMPLE / name), "--role", _role(name), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is True and report["errors"] == []
    assert report["format"] == FILES[name][0] and report["documents"] == N_TEXTS


@pytest.mark.parametrize("system", ["system_a.jsonl", "system_b.jsonl", "system_llm.jsonl"])
@pytest.mark.parametrize("metric", ["martino", "mafalda"])
def test_score_runs_on_every_system_with_both_metrics(system: str, metric: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", str(SAMPLE / "gold.jsonl"), str(SAMPLE / system), "--metric", metric,
                 "--json", "--per-document"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metric"] == metric and out["f1"] > 0
    assert len(out["per_document"]) == N_TEXTS


@pytest.mark.slow
def test_score_runs_as_a_module_at_every_mafalda_level() -> None:
    base = [sys.executable, "-m", "core", "score", str(SAMPLE / "gold.jsonl"),
            str(SAMPLE / "system_a.jsonl"), "--json"]
    f1 = {}
    for level in ("2", "1", "0"):
        run = subprocess.run([*base, "--metric", "mafalda", "--level", level], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        f1[level] = json.loads(run.stdout)["f1"]
    assert f1["2"] < f1["1"] <= f1["0"]  # Example 9's tu quoque is right at level 1
    run = subprocess.run([*base, "--metric", "martino"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["recall"] > 0


# ---- the metrics differ for the named reasons (hand-computed) ------------------------------------


def _one(aset: AnnotationSet, doc: str) -> AnnotationSet:
    return AnnotationSet(aset.name, {doc: aset.get(doc)}, aset.role, aset.alternatives)


def _martino(gold: AnnotationSet, pred: AnnotationSet, doc: str) -> tuple[float, float]:
    r = martino.score(_one(gold, doc), _one(pred, doc))
    return r.precision, r.recall


def _mafalda(gold: AnnotationSet, pred: AnnotationSet, doc: str, level: int = 2,
             variant: str = "paper") -> tuple[float, float]:
    r = mafalda.score(_one(gold, doc), _one(pred, doc), level=level, variant=variant)
    return r.precision, r.recall


def _level1(aset: AnnotationSet) -> AnnotationSet:
    """Labels replaced by their MAFALDA level-1 group names (emotion, logic, credibility)."""
    tax = mafalda_taxonomy()
    spans = {d: tuple(sorted(Span(s.start, s.end, tax.level1_names[tax.project(tax.code(s.label),
                                                                                1)])
                             for s in v)) for d, v in aset.spans.items()}
    return AnnotationSet(aset.name, spans, aset.role, aset.alternatives)


@pytest.fixture(scope="module")
def system_a() -> AnnotationSet:
    return _read("system_a.jsonl")


@pytest.fixture(scope="module")
def system_b() -> AnnotationSet:
    return _read("system_b.jsonl")


def test_martino_recall_exceeds_one_on_example9_at_level1_where_mafalda_gives_one(
    gold: AnnotationSet, system_a: AnnotationSet,
) -> None:
    """App. D, Example 9: gold (0, 72, credibility); predictions (0, 18) and (0, 72), both
    credibility at level 1: Martino R = 18/72 + 72/72 = 1.25, MAFALDA R = max = 1."""
    assert _martino(_level1(gold), _level1(system_a), "1") == (1.0, 1.25)
    assert _mafalda(gold, system_a, "1", level=1) == (1.0, 1.0)
    # At level 2 tu quoque is simply wrong and both metrics agree: P = 1/2, R = 18/72.
    assert _martino(gold, system_a, "1") == (0.5, 0.25)
    assert _mafalda(gold, system_a, "1") == (0.5, 0.25)


def test_split_prediction_keeps_martino_recall_near_one_but_mafalda_takes_the_best_piece(
    gold: AnnotationSet, system_a: AnnotationSet,
) -> None:
    """Text 2: slippery slope over sentences of 56 and 109 characters (166 with the space),
    predicted as the two sentences; appeal to fear over 109 + 1 + 75 = 185, predicted on 75."""
    fear = Fraction(75, 185)
    p, r = _martino(gold, system_a, "2")
    assert (p, r) == (1.0, pytest.approx(float((Fraction(56 + 109, 166) + fear) / 2)))
    p, r = _mafalda(gold, system_a, "2")
    assert (p, r) == (1.0, pytest.approx(float((Fraction(109, 166) + fear) / 2)))


def test_duplicate_prediction_doubles_martino_recall_only(gold: AnnotationSet,
                                                          system_a: AnnotationSet) -> None:
    assert _martino(gold, system_a, "3") == (1.0, 2.0)
    assert _mafalda(gold, system_a, "3") == (1.0, 1.0)


def test_one_alternative_is_full_recall_for_mafalda_and_half_for_martino(
    gold: AnnotationSet, system_a: AnnotationSet, system_b: AnnotationSet,
) -> None:
    """Text 4: false causality OR causal oversimplification. Martino sees two gold spans."""
    assert _martino(gold, system_a, "4") == (1.0, 0.5)
    assert _mafalda(gold, system_a, "4") == (1.0, 1.0)
    # Predicting both labels: Martino R = 1; MAFALDA's alternative keeps one label (P = 1/2),
    # the repository's metrics.py offers both at once to precision (P = 1).
    assert _martino(gold, system_b, "4") == (1.0, 1.0)
    assert _mafalda(gold, system_b, "4") == (0.5, 1.0)
    assert _mafalda(gold, system_b, "4", variant="metrics-py") == (1.0, 1.0)


def test_optional_spans_leave_mafalda_recall_but_count_for_martino(
    gold: AnnotationSet, system_a: AnnotationSet,
) -> None:
    """Texts 0 and 10: ⊥ makes the span optional; Martino keeps it (and both fear and anger)."""
    assert _mafalda(gold, system_a, "10") == (1.0, 1.0)
    assert _martino(gold, system_a, "10") == (1.0, 0.5)
    assert _mafalda(gold, system_a, "0") == (1.0, 1.0)
    assert _martino(gold, system_a, "0") == (1.0, pytest.approx(3 / 5))


def test_nothing_prediction_on_the_clean_text_is_perfect_for_mafalda_and_zero_for_martino(
    gold: AnnotationSet, system_a: AnnotationSet, system_b: AnnotationSet,
) -> None:
    assert _mafalda(gold, system_a, "9") == (1.0, 1.0)
    assert _martino(gold, system_a, "9") == (0.0, 0.0)
    assert _mafalda(gold, system_b, "9") == (0.0, 0.0)  # the false alarm: zero for both
    assert _martino(gold, system_b, "9") == (0.0, 0.0)


def test_wrong_label_in_the_right_group_scores_only_from_level_1(
    gold: AnnotationSet, system_b: AnnotationSet,
) -> None:
    """Text 6: straw man predicted as false analogy (both logic), worse problems as unknown.
    Level 2: nothing matches. Level 1: the logic span matches (R = 1/2), unknown stays a
    false positive (P = 1/2). Level 0: unknown is "no fallacy" and leaves precision (P = 1)."""
    assert _mafalda(gold, system_b, "6", level=2) == (0.0, 0.0)
    assert _mafalda(gold, system_b, "6", level=1) == (0.5, 0.5)
    assert _mafalda(gold, system_b, "6", level=0) == (1.0, 0.5)
    assert _martino(gold, system_b, "6") == (0.0, 0.0)
    # Text 7: pity predicted as fear (both emotion).
    assert _mafalda(gold, system_b, "7", level=2) == (0.5, 0.5)
    assert _mafalda(gold, system_b, "7", level=1) == (1.0, 1.0)


def test_validate_as_gold_refuses_the_prediction_label_unknown(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(SAMPLE / "system_b.jsonl"), "--role", "gold", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is False and "'unknown'" in report["errors"][0]
    # Without --role the name says "system", as on the Data page: 'unknown' is a prediction.
    assert main(["validate", str(SAMPLE / "system_b.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["role"] == "system"
