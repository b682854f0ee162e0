"""Every reader on the real files of ``sample_data/``: the same corpus read from every format
gives the same spans, and the sample data encodes the cases it claims to."""

from fractions import Fraction
from pathlib import Path

import pytest

from core.formats import detect, load_path, read_folder
from core.model import AnnotationSet, Span

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
PROP = SAMPLES / "propaganda"
FMT = SAMPLES / "formats"
FIG = SAMPLES / "figure1"


def _set(path: Path) -> AnnotationSet:
    return load_path(path).set


def _spans(aset: AnnotationSet) -> dict[str, tuple[Span, ...]]:
    return dict(aset.spans)


@pytest.fixture(scope="module")
def gold() -> AnnotationSet:
    return _set(PROP / "gold.json")


@pytest.mark.parametrize(("path", "fmt"), [
    (PROP / "gold.json", "semeval2021"),
    (FMT / "ptc_gold", "ptc"),
    (FMT / "ptc_system_a.tsv", "ptc"),
    (FMT / "brat_gold", "brat"),
    (FMT / "doccano_gold.jsonl", "doccano"),
    (FMT / "doccano_system_a_entities.jsonl", "doccano"),
    (FMT / "label_studio_annotators.json", "label-studio"),
    (FMT / "spans_annotators.csv", "spans-csv"),
    (FMT / "spans_system_b.jsonl", "spans-csv"),
])
def test_sample_files_are_detected_as_their_format(path: Path, fmt: str) -> None:
    files = read_folder(path) if path.is_dir() else {path.name: path.read_bytes()}
    assert detect(files) == fmt


def test_propaganda_gold_has_ten_documents_one_empty_and_all_texts(gold: AnnotationSet) -> None:
    loaded = load_path(PROP / "gold.json")
    assert gold.doc_ids == [str(i) for i in range(1, 11)]
    assert gold.get("10") == ()
    assert all(isinstance(t, str) and t for t in loaded.texts.values())
    assert loaded.diagnostics == []  # every text_fragment matches, no whitespace edges


def test_propaganda_gold_has_nested_and_overlapping_spans(gold: AnnotationSet) -> None:
    doc1 = gold.get("1")
    nested = [(a, b) for a in doc1 for b in doc1
              if a != b and a.start <= b.start and b.end <= a.end]
    assert nested, "document 1 has nested spans with different labels"
    doc2 = gold.get("2")
    flag, slogan = (next(s for s in doc2 if s.label == lab) for lab in ("Flag-waving", "Slogans"))
    assert 0 < flag.overlap(slogan) < min(flag.length, slogan.length)  # partial overlap
    doc7 = gold.get("7")
    same = [s for s in doc7 if s.interval == doc7[-1].interval]
    assert len({s.label for s in same}) == 2  # one interval, two labels


def test_system_a_splits_one_gold_span_and_has_one_duplicate(gold: AnnotationSet) -> None:
    system_a = _set(PROP / "system_a.json")
    target = next(s for s in gold.get("4") if s.label.startswith("Black-and-white"))
    pieces = [s for s in system_a.get("4") if s.label == target.label]
    assert len(pieces) == 2
    assert sum(p.overlap(target) for p in pieces) == target.length - 1  # the space between
    doc2 = system_a.get("2")
    assert len(doc2) - len(set(doc2)) == 1


def test_system_b_has_wrong_labels_partial_overlaps_and_a_false_alarm(gold: AnnotationSet,
                                                                      ) -> None:
    system_b = _set(PROP / "system_b.json")
    exact_wrong = [p for p in system_b.get("4") for g in gold.get("4")
                   if p.interval == g.interval and p.label != g.label]
    assert exact_wrong
    partial = [p for p in system_b.get("1") for g in gold.get("1")
               if p.label == g.label and 0 < p.overlap(g) < max(p.length, g.length)]
    assert partial
    assert gold.get("10") == () and system_b.get("10") != ()


def test_every_format_of_the_gold_gives_the_same_spans_and_texts(gold: AnnotationSet) -> None:
    reference = load_path(PROP / "gold.json")
    for path in (FMT / "ptc_gold", FMT / "brat_gold", FMT / "doccano_gold.jsonl"):
        loaded = load_path(path)
        assert _spans(loaded.set) == _spans(gold), path.name
        assert loaded.texts == reference.texts, path.name


def test_system_files_agree_across_formats() -> None:
    system_a = _set(PROP / "system_a.json")
    assert _spans(_set(FMT / "doccano_system_a_entities.jsonl")) == _spans(system_a)
    # A single TSV cannot list a document without spans (document 10).
    tsv = _spans(_set(FMT / "ptc_system_a.tsv"))
    assert tsv == {d: s for d, s in system_a.spans.items() if s}
    system_b = _set(PROP / "system_b.json")
    assert _spans(_set(FMT / "spans_system_b.jsonl")) == _spans(system_b)
    si = _set(FMT / "ptc_system_b_si.tsv")
    assert {d: [(s.start, s.end) for s in spans] for d, spans in si} == {
        d: [(s.start, s.end) for s in spans] for d, spans in system_b}
    assert si.labels() == ["propaganda"]


def test_annotator_files_agree_across_formats() -> None:
    files = [_set(PROP / f"annotator_{k}.json") for k in (1, 2, 3)]
    csv_sets = load_path(FMT / "spans_annotators.csv").sets
    assert [s.name for s in csv_sets] == ["annotator_1", "annotator_2", "annotator_3"]
    assert all(s.role == "annotator" for s in csv_sets)
    assert [_spans(s) for s in csv_sets] == [_spans(s) for s in files]
    studio = load_path(FMT / "label_studio_annotators.json")
    by_name = {s.name: s for s in studio.sets}
    assert [by_name[f"annotator {k}"].role for k in (1, 2, 3)] == ["annotator"] * 3
    assert [_spans(by_name[f"annotator {k}"]) for k in (1, 2, 3)] == [_spans(s) for s in files]
    assert by_name["model system_a"].role == "system"
    assert _spans(by_name["model system_a"]) == _spans(_set(PROP / "system_a.json"))


def test_brat_annotator_folder_splits_its_discontinuous_annotation_and_reports_extras() -> None:
    loaded = load_path(FMT / "brat_annotator_1")
    base = _set(PROP / "annotator_1.json")
    extra = sorted(set(loaded.set.get("8")) - set(base.get("8")))
    assert [(s.start, s.end, s.label) for s in extra] == [
        (19, 24, "Name calling/Labeling"), (29, 36, "Name calling/Labeling")]
    kinds = " ".join(str(d) for d in loaded.diagnostics)
    assert "discontinuous" in kinds and "a relation line" in kinds and "a note line" in kinds


def test_label_list_holds_the_twenty_semeval2021_techniques() -> None:
    labels = (PROP / "labels.txt").read_text(encoding="utf-8").split("\n")
    assert len([x for x in labels if x]) == 20
    used = set()
    for path in PROP.glob("*.json"):
        used.update(_set(path).labels())
    assert used <= set(labels)


def _c(s: Span, t: Span, h: int) -> Fraction:
    """C(s, t, h) of Da San Martino et al. (2019), Eq. (1)."""
    return Fraction(s.overlap(t), h) * (s.label == t.label)


def _recall(pred: AnnotationSet, gold: AnnotationSet) -> Fraction:
    """R(S, T), Eq. (3), on the single Figure 1 document."""
    t_spans, s_spans = gold.get("1"), pred.get("1")
    return sum((_c(s, t, t.length) for s in s_spans for t in t_spans), Fraction(0)) / len(t_spans)


def test_figure1_sample_reproduces_the_seed_numbers() -> None:
    gold = _set(FIG / "gold.json")
    text = load_path(FIG / "gold.json").texts["1"]
    (t1,) = gold.get("1")
    assert t1.length == 24 and "stupid and petty" in t1.fragment(text or "")
    (s1,) = _set(FIG / "pred_s1.json").get("1")
    assert _c(t1, s1, t1.length) == Fraction(6, 16)
    (s2,) = _set(FIG / "pred_s2.json").get("1")
    assert s2.overlap(t1) > 0 and _c(t1, s2, t1.length) == 0
    r345 = _recall(_set(FIG / "pred_s3_s4_s5.json"), gold)
    r1 = _recall(_set(FIG / "pred_s1.json"), gold)
    rt1 = _recall(_set(FIG / "pred_t1.json"), gold)
    assert (r345, r1, rt1) == (Fraction(7, 24), Fraction(9, 24), Fraction(1))
    assert r345 < r1 < rt1


@pytest.mark.parametrize("head", [
    "id\ttext\tHS\tTR\tAG\n101\tsome tweet\t1\t0\t0\n",  # HatEval gold
    "101\t1\n102\t0\n",  # HatEval task A prediction
    "101\t1\t0\t1\n102\t0\t0\t0\n",  # HatEval task B prediction
])
def test_ptc_sniffer_leaves_hateval_shaped_tsv_alone(head: str) -> None:
    from core.formats import ptc

    assert ptc.sniff("en_a.tsv", head) == 0
