"""Rebuild the sample corpora from the definitions below: ``python sample_data/build_samples.py``.

Every text is invented for SpanScope. Spans are written as (fragment, label[, occurrence]) and
turned into character offsets here, so the offsets cannot drift from the texts. The files are
written with SpanScope's own writers, except the Label Studio export (a read-only format) and the
brat folder with a discontinuous annotation, which are written literally.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from core.formats import brat, doccano, ptc, semeval2021, spans_csv  # noqa: E402
from core.model import AnnotationSet, Span  # noqa: E402

TEXTS = {
    "1": "The mayor's reckless plan will bankrupt every family in this city. Critics say the "
         "so-called reform is nothing but a disaster waiting to happen.",
    "2": "Senator Hale, a career liar, claims the new tax is fair. Real patriots know better: "
         "stand with our flag, stand with our workers!",
    "3": "Is the health minister really telling the truth about the vaccine contracts? Many "
         "experts have raised questions that nobody in government wants to answer.",
    "4": "Either we close the borders today or we lose our country forever. There is no middle "
         "ground.",
    "5": "Crime rose after the new library opened, so the library is clearly to blame. Residents "
         "deserve safe streets, not fancy buildings.",
    "6": "What about the opposition's own scandals last year? They have no right to lecture "
         "anyone about honesty.",
    "7": "Everyone is switching to the new party. Join the millions who already support real "
         "change, real jobs, real hope.",
    "8": "The protesters are thugs and vandals. Like the tyrants of the last century, their "
         "leader wants total control.",
    "9": "The company says the spill was minor, just a few barrels. Opponents want to shut down "
         "the whole fishing industry, a spokesman said.",
    "10": "The city council met on Tuesday to approve the budget for road repairs. The vote "
          "passed seven to two.",
}

Spec = tuple[str, str] | tuple[str, str, int]

GOLD: dict[str, list[Spec]] = {
    "1": [("reckless", "Loaded Language"),
          ("will bankrupt every family in this city", "Appeal to fear/prejudice"),
          ("every family in this city", "Exaggeration/Minimisation"),  # nested, other label
          ("so-called reform", "Name calling/Labeling"),
          ("so-called", "Loaded Language"),  # nested, other label
          ("a disaster waiting to happen", "Loaded Language")],
    "2": [("a career liar", "Name calling/Labeling"),
          ("Real patriots know better: stand with our flag", "Flag-waving"),
          ("stand with our flag, stand with our workers!", "Slogans")],  # partial overlap
    "3": [("Is the health minister really telling the truth about the vaccine contracts?",
           "Doubt"),
          ("Many experts have raised questions", "Appeal to authority")],
    "4": [("Either we close the borders today or we lose our country forever",
           "Black-and-white Fallacy/Dictatorship"),
          ("we lose our country forever", "Appeal to fear/prejudice"),  # nested
          ("There is no middle ground", "Thought-terminating cliché")],
    "5": [("Crime rose after the new library opened, so the library is clearly to blame",
           "Causal Oversimplification"),
          ("the library is clearly to blame", "Causal Oversimplification"),  # nested, same label
          ("fancy buildings", "Loaded Language")],
    "6": [("What about the opposition's own scandals last year?", "Whataboutism"),
          ("They have no right to lecture anyone about honesty", "Smears")],
    "7": [("Everyone is switching to the new party", "Bandwagon"),
          ("Join the millions who already support", "Bandwagon"),
          ("real change, real jobs, real hope", "Glittering generalities (Virtue)"),
          ("real change, real jobs, real hope", "Repetition")],  # one interval, two labels
    "8": [("thugs and vandals", "Name calling/Labeling"),
          ("thugs", "Loaded Language"),
          ("vandals", "Loaded Language"),
          ("Like the tyrants of the last century, their leader wants total control",
           "Reductio ad hitlerum")],
    "9": [("the spill was minor, just a few barrels", "Exaggeration/Minimisation"),
          ("Opponents want to shut down the whole fishing industry",
           "Misrepresentation of Someone's Position (Straw Man)")],
    "10": [],  # no propaganda: an empty-gold document
}

# System A: decent. It splits the black-and-white fallacy of document 4 into two pieces,
# predicts "a career liar" twice (a duplicate), and misses the straw man and the smear.
SYSTEM_A: dict[str, list[Spec]] = {
    "1": [("reckless", "Loaded Language"),
          ("will bankrupt every family in this city", "Appeal to fear/prejudice"),
          ("so-called reform", "Name calling/Labeling"),
          ("a disaster waiting to happen", "Loaded Language")],
    "2": [("a career liar", "Name calling/Labeling"),
          ("a career liar", "Name calling/Labeling"),  # duplicate prediction
          ("stand with our flag, stand with our workers!", "Slogans")],
    "3": [("Is the health minister really telling the truth about the vaccine contracts?",
           "Doubt"),
          ("Many experts", "Appeal to authority")],
    "4": [("Either we close the borders today", "Black-and-white Fallacy/Dictatorship"),
          ("or we lose our country forever", "Black-and-white Fallacy/Dictatorship"),
          ("There is no middle ground", "Thought-terminating cliché")],
    "5": [("Crime rose after the new library opened, so the library is clearly to blame",
           "Causal Oversimplification"),
          ("fancy buildings", "Loaded Language")],
    "6": [("What about the opposition's own scandals last year?", "Whataboutism")],
    "7": [("Everyone is switching to the new party", "Bandwagon"),
          ("real change, real jobs, real hope", "Glittering generalities (Virtue)")],
    "8": [("thugs and vandals", "Name calling/Labeling"),
          ("Like the tyrants of the last century", "Reductio ad hitlerum")],
    "9": [("the spill was minor, just a few barrels", "Exaggeration/Minimisation")],
    "10": [],
}

# System B: partial overlaps and wrong labels, and a false alarm on the empty-gold document.
SYSTEM_B: dict[str, list[Spec]] = {
    "1": [("reckless plan will bankrupt", "Loaded Language"),  # partial, label of one part
          ("this city. Critics say the so-called", "Name calling/Labeling"),  # partial
          ("disaster", "Loaded Language")],
    "2": [("Senator Hale, a career liar", "Smears"),  # wrong label, overlapping
          ("Real patriots", "Flag-waving")],
    "3": [("Is the health minister really telling the truth", "Appeal to fear/prejudice"),
          ("experts have raised questions that nobody", "Appeal to authority")],
    "4": [("Either we close the borders today or we lose our country forever",
           "Appeal to fear/prejudice")],  # right span, wrong label
    "5": [("the library is clearly to blame", "Causal Oversimplification"),
          ("safe streets", "Glittering generalities (Virtue)")],
    "6": [("opposition's own scandals", "Smears"),
          ("no right to lecture anyone", "Smears")],
    "7": [("Everyone is switching", "Bandwagon"),
          ("real change, real jobs, real hope", "Slogans")],  # wrong label
    "8": [("The protesters are thugs", "Name calling/Labeling"),
          ("their leader wants total control", "Reductio ad hitlerum")],
    "9": [("minor", "Exaggeration/Minimisation"),
          ("shut down the whole fishing industry", "Appeal to fear/prejudice")],
    "10": [("passed seven to two", "Bandwagon")],  # false alarm on a clean document
}

# Three annotators: close to the gold, with the disagreements annotators really have
# (boundaries, label choice, missed and extra spans).
ANNOTATOR_1: dict[str, list[Spec]] = {
    **GOLD,
    "1": [("reckless plan", "Loaded Language"),
          ("will bankrupt every family in this city", "Appeal to fear/prejudice"),
          ("so-called reform", "Name calling/Labeling"),
          ("a disaster waiting to happen", "Loaded Language")],
    "5": [("Crime rose after the new library opened, so the library is clearly to blame",
           "Causal Oversimplification"),
          ("fancy buildings", "Loaded Language")],
    "7": [("Everyone is switching to the new party", "Bandwagon"),
          ("Join the millions", "Bandwagon"),
          ("real change, real jobs, real hope", "Glittering generalities (Virtue)")],
}
ANNOTATOR_2: dict[str, list[Spec]] = {
    **GOLD,
    "2": [("a career liar", "Smears"),
          ("Real patriots know better", "Flag-waving"),
          ("stand with our flag, stand with our workers!", "Slogans")],
    "4": [("Either we close the borders today or we lose our country forever. There is no "
           "middle ground", "Black-and-white Fallacy/Dictatorship")],
    "6": [("What about the opposition's own scandals last year?", "Whataboutism")],
    "9": [("the spill was minor", "Exaggeration/Minimisation"),
          ("Opponents want to shut down the whole fishing industry",
           "Misrepresentation of Someone's Position (Straw Man)")],
}
ANNOTATOR_3: dict[str, list[Spec]] = {
    **GOLD,
    "3": [("Is the health minister really telling the truth about the vaccine contracts?",
           "Doubt"),
          ("Many experts have raised questions", "Appeal to authority"),
          ("nobody in government wants to answer", "Doubt")],
    "8": [("thugs and vandals", "Name calling/Labeling"),
          ("Like the tyrants of the last century, their leader wants total control",
           "Reductio ad hitlerum")],
    "10": [("approve the budget", "Loaded Language")],
}

# Figure 1 of Da San Martino et al. (2019): one gold span t1 (24 characters, "Loaded Language")
# and four prediction scenarios. |t1| = 24 is the only length consistent with the paper's
# numbers: C(t1, s1, |t1|) = 9/24 = 6/16 and R({s3, s4, s5}, {t1}) = 7/24.
FIG_TEXT = ("The minister called the new rule a stupid and petty stunt by the mayor, and the "
            "council agreed to review it.")
FIG_T1 = ("a stupid and petty stunt", "Loaded Language")
FIGURE1: dict[str, list[Spec]] = {
    "gold": [FIG_T1],
    "pred_s1": [("and petty", "Loaded Language")],  # 9 of t1's 24 characters
    "pred_s2": [("petty stunt", "Name calling/Labeling")],  # overlaps t1, other label
    "pred_s3_s4_s5": [("rule a", "Loaded Language"),  # s3: 1 character of t1 ("a")
                      ("stupid", "Loaded Language"),  # s4: 6 characters
                      ("the mayor", "Loaded Language")],  # s5: none of t1
    "pred_t1": [FIG_T1],
}

LABELS = [
    "Appeal to authority", "Appeal to fear/prejudice", "Black-and-white Fallacy/Dictatorship",
    "Causal Oversimplification", "Doubt", "Exaggeration/Minimisation", "Flag-waving",
    "Glittering generalities (Virtue)", "Loaded Language",
    "Misrepresentation of Someone's Position (Straw Man)", "Name calling/Labeling",
    "Obfuscation, Intentional vagueness, Confusion", "Presenting Irrelevant Data (Red Herring)",
    "Reductio ad hitlerum", "Repetition", "Slogans", "Smears", "Thought-terminating cliché",
    "Whataboutism", "Bandwagon",
]
"""The SemEval-2021 Task 6 subtask 2 technique list (20 names, official order)."""


def locate(text: str, spec: Spec) -> Span:
    fragment, label = spec[0], spec[1]
    occurrence = spec[2] if len(spec) == 3 else 0  # type: ignore[misc]
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(fragment, start + 1)
    return Span(start, start + len(fragment), label)


def build(name: str, specs: dict[str, list[Spec]], texts: dict[str, str],
          role: str = "gold") -> AnnotationSet:
    spans = {doc: tuple(sorted(locate(texts[doc], s) for s in specs.get(doc, [])))
             for doc in texts}
    return AnnotationSet(name, spans, role)  # type: ignore[arg-type]


def put(folder: Path, files: dict[str, str], rename: str | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        target = folder / (rename or rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8", newline="")


def label_studio_export(sets: list[AnnotationSet], model: AnnotationSet) -> str:
    """A Label Studio JSON export written by hand: one task per text, three annotators, one
    model's predictions."""
    tasks = []
    for n, (doc, text) in enumerate(TEXTS.items(), start=1):
        annotations = []
        for k, aset in enumerate(sets, start=1):
            annotations.append({
                "id": 100 * n + k,
                "completed_by": k,
                "was_cancelled": False,
                "result": [
                    {"id": f"r{n}-{k}-{i}", "from_name": "label", "to_name": "text",
                     "type": "labels",
                     "value": {"start": s.start, "end": s.end, "text": text[s.start:s.end],
                               "labels": [s.label]}}
                    for i, s in enumerate(aset.get(doc))
                ],
            })
        predictions = [{
            "model_version": model.name,
            "result": [
                {"from_name": "label", "to_name": "text", "type": "labels",
                 "value": {"start": s.start, "end": s.end, "text": text[s.start:s.end],
                           "labels": [s.label]}}
                for s in model.get(doc)
            ],
        }]
        tasks.append({"id": 1000 + n, "data": {"doc_id": doc, "text": text},
                      "annotations": annotations, "predictions": predictions})
    return json.dumps(tasks, ensure_ascii=False, indent=1) + "\n"


def brat_with_extras(annotator: AnnotationSet) -> dict[str, str]:
    """Annotator 1 as brat files, plus what brat files carry beyond spans: a discontinuous
    annotation (split into its fragments on reading), a relation and a note (skipped with a
    warning each)."""
    files = brat.write(TEXTS, [annotator])
    text = TEXTS["8"]
    a = text.index("thugs")
    b = text.index("vandals")
    extra = (f"T90\tName calling/Labeling {a} {a + 5};{b} {b + 7}\tthugs vandals\n"
             "R1\tSupports Arg1:T1 Arg2:T2\n"
             "#1\tAnnotatorNotes T1\tunsure about the boundary\n")
    files["8.ann"] = files["8.ann"] + extra
    return files


def main() -> None:
    gold = build("gold", GOLD, TEXTS)
    system_a = build("system_a", SYSTEM_A, TEXTS, "system")
    system_b = build("system_b", SYSTEM_B, TEXTS, "system")
    annotators = [build(f"annotator_{k}", spec, TEXTS, "annotator")
                  for k, spec in enumerate((ANNOTATOR_1, ANNOTATOR_2, ANNOTATOR_3), start=1)]

    prop = ROOT / "propaganda"
    for aset in [gold, system_a, system_b, *annotators]:
        put(prop, semeval2021.write(TEXTS, [aset]))
    (prop / "labels.txt").write_text("\n".join(LABELS) + "\n", encoding="utf-8")

    fmt = ROOT / "formats"
    put(fmt / "ptc_gold", ptc.write(TEXTS, [gold]))
    put(fmt, ptc.write_tsv(TEXTS, [system_a]), "ptc_system_a.tsv")
    si = AnnotationSet("system_b_si", {d: tuple(sorted(Span(s.start, s.end, "propaganda")
                                                       for s in spans))
                                       for d, spans in system_b}, "system")
    put(fmt, ptc.write_tsv(TEXTS, [si]), "ptc_system_b_si.tsv")
    put(fmt / "brat_gold", brat.write(TEXTS, [gold]))
    put(fmt / "brat_annotator_1", brat_with_extras(annotators[0]))
    put(fmt, doccano.write(TEXTS, [gold]), "doccano_gold.jsonl")
    lines = []
    for doc, spans in system_a:
        lines.append(json.dumps({
            "id": int(doc), "text": TEXTS[doc],
            "entities": [{"id": i, "start_offset": s.start, "end_offset": s.end,
                          "label": s.label} for i, s in enumerate(spans)],
        }, ensure_ascii=False) + "\n")
    (fmt / "doccano_system_a_entities.jsonl").write_text("".join(lines), encoding="utf-8")
    put(fmt, spans_csv.write(TEXTS, annotators), "spans_annotators.csv")
    put(fmt, spans_csv.write_jsonl(TEXTS, [system_b]), "spans_system_b.jsonl")
    (fmt / "label_studio_annotators.json").write_text(
        label_studio_export(annotators, system_a), encoding="utf-8")

    fig = ROOT / "figure1"
    texts = {"1": FIG_TEXT}
    for name, specs in FIGURE1.items():
        put(fig, semeval2021.write(texts, [build(name, {"1": specs}, texts)]))


if __name__ == "__main__":
    main()
