"""Rebuild the MAFALDA-style fallacy sample: ``python sample_data/build_mafalda_sample.py``.

Every text and annotation is invented for SpanScope (MAFALDA's own texts are not used); only the
*layout* is MAFALDA's (Helwe et al. 2024, ``datasets/gold_standard_dataset.jsonl``): one JSON
object per line, ``{"text", "labels": [[start, end, name], ...], "comments": [...],
"sentences_with_labels": "<a JSON string: sentence -> list of label groups>"}``. Labels are the
level-2 names of ``core/data/mafalda_taxonomy.json``.

A text is a list of sentences joined by single spaces (plus the final newline MAFALDA's texts
end with). A span is given as a sentence range ``S(i, j)`` (sentences i..j, inclusive: MAFALDA
spans are whole sentences, Definition 3) or as a text fragment that occurs once; offsets are
computed here, so they cannot drift from the texts. In the gold, a tuple of labels is a
disjunction of alternatives (written as the same interval repeated), and ``nothing`` among them
is ⊥ (the span is optional). The model-output file ``system_llm.jsonl`` is in the layout of the
released ``results/*_level_2_results.jsonl``: ``{"text", "prediction": {sentence: raw answer}}``.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parent / "mafalda"
NOTHING = "nothing"
TO_CLEAN = "to clean"

Where = tuple[int, int] | str
Labels = str | tuple[str, ...]
Spec = tuple[Where, Labels]


def S(i: int, j: int | None = None) -> tuple[int, int]:
    """Sentences i..j (inclusive) of a text; ``S(i)`` is sentence i alone."""
    return (i, i if j is None else j)


# ---- the texts (ids are line numbers, 0-based, as the MAFALDA reader numbers them) -------------

SENTENCES: list[list[str]] = [
    # 0: a forum post with the structure of the paper's Example 5.
    ["Councillor Reyes has never run so much as a lemonade stand, and if she gets her way, gangs "
     "will rule our streets by Christmas.",
     "She is a washed-up TV presenter who should go back to reading the weather.",
     "The council votes on the new parking rules next Thursday.",
     "This town has closed the market square to cars every Sunday since 1950, so it must stay "
     "closed.",
     "Besides, nobody listens to someone who moved here from the capital two years ago."],
    # 1: the paper's Example 9 in other words; sentence 0 is exactly a quarter of the text.
    ["Mr Hart is a liar.",
     "Therefore his report on the river pollution is wrong."],
    # 2: a forum post (title + post, as MAFALDA's Reddit texts): two partly overlapping spans.
    ["TITLE: New phone rule at Hillside School POST:",
     "First the school lets pupils keep their phones at lunch.",
     "Next they will be texting during exams, and within a year nobody in that building will "
     "be able to read a map.",
     "Do you really want your children to grow up unable to think for themselves?"],
    # 3: a debate snippet; the span starts after the speaker tag.
    ["MODERATOR: Should the city build the new tram line?",
     "CANDIDATE: Either we build the tram this year or our children will breathe poison for the "
     "rest of their lives.",
     "I have lived here for forty years and I know what this town needs."],
    # 4: a news comment whose gold offers two fallacies as alternatives (the paper's Example 3).
    ["Since the new mayor took office, the number of empty shops downtown has doubled.",
     "The mayor is single-handedly destroying our high street.",
     "I miss the bakery on the corner."],
    # 5: a forum post with a span the annotators marked "to clean".
    ["My dentist says the moon landing was filmed in a studio, and he has a doctorate, so I "
     "believe him.",
     "He has been right about my teeth for twenty years.",
     "Honestly, the footage looks like a school play."],
    # 6: a news comment.
    ["The opposition wants to hire fifty more tax inspectors.",
     "So they basically want an army of officials going through every family's kitchen "
     "drawers.",
     "Thousands of children go to bed hungry in this country, and they are worried about tax "
     "fraud?"],
    # 7: a debate snippet.
    ["Nine out of ten people in this hall already agree with me, so the plan is obviously "
     "right.",
     "Think of the poor pensioners who will sit in the cold this winter if we wait.",
     "My opponent has not offered a plan of his own."],
    # 8: a forum post.
    ["I saw two cyclists run a red light yesterday.",
     "Cyclists simply do not care about the rules.",
     "And the cycling club is sponsored by the same company that was fined for dumping waste "
     "in the river."],
    # 9: a news comment without any fallacy.
    ["The library on Elm Street reopens on Monday after repairs to its roof.",
     "Opening hours stay the same, and the reading room now has step-free access."],
    # 10: a product review; its second span is optional (ad populum or ⊥); "€" is one code point.
    ["This blender is the best on the market because no other blender is as good.",
     "Everyone in my building has bought one.",
     "It costs €89 in most shops."],
]

TEXTS = [" ".join(sentences) + "\n" for sentences in SENTENCES]

FD = ("Either we build the tram this year or our children will breathe poison for the rest of "
      "their lives.")  # text 3's false dilemma, without the speaker tag

GOLD: list[list[Spec]] = [
    [(S(0, 1), "ad hominem"),
     (S(0), ("appeal to fear", "appeal to anger")),
     (S(3), "appeal to tradition"),
     (S(4), ("ad hominem", NOTHING))],
    [(S(0, 1), "ad hominem")],
    [(S(1, 2), "slippery slope"),
     (S(2, 3), "appeal to fear")],
    [(FD, "false dilemma")],
    [(S(0, 1), ("false causality", "causal oversimplification"))],
    [(S(0, 1), "appeal to (false) authority"),
     (S(2), TO_CLEAN)],
    [(S(0, 1), "straw man"),
     (S(2), "appeal to worse problems")],
    [(S(0), "ad populum"),
     (S(1), "appeal to pity")],
    [(S(0, 1), "hasty generalization"),
     (S(2), "guilt by association")],
    [],
    [(S(0), "circular reasoning"),
     (S(1), ("ad populum", NOTHING))],
]

COMMENTS: list[list[str]] = [
    ["Ad hominem: P1 = Councillor Reyes, A = P1 never ran a business and was a TV presenter, "
     "Y = P1's proposals are bad",
     "Appeal to fear or appeal to anger: gangs ruling the streets is meant to frighten the "
     "reader, or to make them angry; we did not agree which",
     "Appeal to tradition: X = the square has been closed on Sundays since 1950, Y = it must "
     "stay closed",
     "Ad hominem or nothing: her recent arrival is held against her, but the sentence may only "
     "report what people think"],
    ["Ad hominem: P1 = Mr Hart, A = P1 is a liar, Y = P1's report is wrong. The whole two-"
     "sentence argument is the fallacy"],
    ["Slippery slope: A = phones at lunch, B = texting during exams, C = nobody can read a map",
     "Appeal to fear: the reader is asked to imagine children unable to think"],
    ["False dilemma: X = build the tram this year, Y = children breathe poison forever; "
     "other options (a later tram, buses) are ignored"],
    ["False causality: A = the mayor took office, B = shops closed, so A caused B",
     "Causal oversimplification: rents and online shopping are ignored"],
    ["Appeal to (false) authority: P1 = my dentist, X = the landing was staged; P1 is an "
     "expert in teeth, not in space flight",
     "to clean: could be an appeal to ridicule; compare with the other ridicule examples "
     "before deciding"],
    ["Straw man: P1 = the opposition, X = hire fifty inspectors, Y = search every kitchen "
     "drawer",
     "Appeal to worse problems: hungry children are used to dismiss tax fraud"],
    ["Ad populum: X = most people in the hall agree, Y = the plan is right",
     "Appeal to pity: cold pensioners"],
    ["Hasty generalization: S = two cyclists, P = run a red light, C = all cyclists",
     "Guilt by association: the club is tied to a company fined for dumping waste"],
    [],
    ["Circular reasoning: X = it is the best, because nothing is better",
     "Ad populum or nothing: 'everyone in my building' may only be a report, not an argument"],
]

# System A: a decent system. Split, duplicate, one alternative, a ⊥ prediction, Example 9.
SYSTEM_A: list[list[Spec]] = [
    [(S(0, 1), "ad hominem"), (S(0), "appeal to anger"), (S(3), "appeal to tradition")],
    [(S(0), "ad hominem"), (S(0, 1), "tu quoque")],  # the paper's Example 9 model output
    [(S(1), "slippery slope"), (S(2), "slippery slope"),  # one gold span split in two
     (S(3), "appeal to fear")],
    [(FD, "false dilemma"), (FD, "false dilemma")],  # a duplicate prediction
    [(S(0, 1), "causal oversimplification")],  # one of the two alternatives
    [(S(0), "appeal to (false) authority")],  # shorter than the gold span
    [(S(1), "straw man"), (S(2), "appeal to worse problems")],
    [(S(0), "ad populum")],
    [(S(0, 1), "hasty generalization"), (S(2), "guilt by association")],  # exact
    [(S(0), NOTHING)],  # an explicit "no fallacy" on the text without fallacy
    [(S(0), "circular reasoning")],  # leaves out the optional span
]

# System B: wrong labels in the right group, an "unknown", a false alarm, both alternatives.
SYSTEM_B: list[list[Spec]] = [
    [(S(0, 1), "ad hominem"), (S(0), "appeal to ridicule"), (S(4), "ad hominem")],
    [(S(0, 1), "ad hominem")],
    [(S(1, 3), "slippery slope")],  # longer than the gold span
    [(FD, "false dilemma"), (S(2), "appeal to (false) authority")],
    [(S(0, 1), "false causality"), (S(0, 1), "causal oversimplification")],  # both alternatives
    [(S(0, 1), "appeal to (false) authority"),
     (S(2), "Appeal to Ridicule")],  # on the "to clean" span; capitalised as in MAFALDA's file
    [(S(0, 1), "false analogy"),  # straw man in the gold: another logic fallacy
     (S(2), "unknown")],  # what the LLM pipeline predicts when an answer names no fallacy
    [(S(0), "ad populum"), (S(1), "appeal to fear")],  # pity in the gold: another emotion
    [(S(1), "hasty generalization"),
     (S(2), "ad hominem")],  # guilt by association in the gold: another credibility fallacy
    [(S(1), "appeal to positive emotion")],  # a false alarm on the text without fallacy
    [(S(0), "circular reasoning"), (S(1), "ad populum")],
]

# Three annotators, one label per span. The gold's alternatives are where they disagreed.
ANNOTATOR_1: list[list[Spec]] = [
    [(S(0, 1), "ad hominem"), (S(0), "appeal to fear"), (S(3), "appeal to tradition"),
     (S(4), "ad hominem")],
    [(S(0, 1), "ad hominem")],
    [(S(1, 2), "slippery slope"), (S(2, 3), "appeal to fear")],
    [(FD, "false dilemma")],
    [(S(0, 1), "false causality")],
    [(S(0, 1), "appeal to (false) authority"), (S(2), "appeal to ridicule")],
    [(S(0, 1), "straw man"), (S(2), "appeal to worse problems")],
    [(S(0), "ad populum"), (S(1), "appeal to pity")],
    [(S(0, 1), "hasty generalization"), (S(2), "guilt by association")],
    [],
    [(S(0), "circular reasoning"), (S(1), "ad populum")],
]
ANNOTATOR_2: list[list[Spec]] = [
    [(S(0, 1), "ad hominem"), (S(0), "appeal to anger"), (S(3), "appeal to tradition")],
    [(S(0, 1), "ad hominem")],
    [(S(1, 2), "slippery slope")],
    [(FD, "false dilemma")],
    [(S(0, 1), "causal oversimplification")],
    [(S(0, 1), "appeal to (false) authority")],
    [(S(0, 1), "straw man"), (S(2), "appeal to worse problems")],
    [(S(0), "ad populum"), (S(1), "appeal to pity")],
    [(S(1), "hasty generalization"), (S(2), "guilt by association")],
    [],
    [(S(0), "circular reasoning")],
]
ANNOTATOR_3: list[list[Spec]] = [
    [(S(0), "ad hominem"), (S(1), "ad hominem"), (S(0), "appeal to fear"),
     (S(3), "appeal to tradition"), (S(4), "ad hominem")],
    [(S(0), "ad hominem")],
    [(S(1, 3), "slippery slope"), (S(3), "appeal to fear")],
    [(FD, "false dilemma"), (S(2), "appeal to (false) authority")],
    [(S(0, 1), "false causality")],
    [(S(0), "appeal to (false) authority")],
    [(S(1), "straw man"), (S(2), "appeal to worse problems")],
    [(S(0), "ad populum"), (S(1), "appeal to fear")],
    [(S(0, 1), "hasty generalization"), (S(2), "ad hominem")],
    [],
    [(S(0), "circular reasoning"), (S(1), "ad populum")],
]

# An LLM's raw answers, one per sentence (results/*_level_2_results.jsonl layout).
NOT_PART = "This sentence is not part of a fallacious argument."
LLM_ANSWERS: list[list[str]] = [
    ["The sentence is part of a fallacious argument. The fallacy is an ad hominem.",
     "The sentence is part of a fallacious argument. The fallacy is an ad hominem.",
     NOT_PART, "Appeal to tradition.", ""],
    ["Ad hominem: the speaker attacks Mr Hart, not his report.", "Ad hominem."],
    [NOT_PART, "Slippery slope.", "Slippery slope, and an appeal to fear.", "Appeal to fear."],
    ["Not fallacious.", "False dilemma: only two outcomes are offered.",
     "Appeal to authority (the speaker's own experience)."],
    ["False causality: the mayor is blamed for every closed shop.",
     "Causal oversimplification.", NOT_PART],
    ["Appeal to authority.", "Appeal to authority."],  # the "to clean" sentence has no key
    [NOT_PART, "Straw man.", "Appeal to worse problems."],
    ["Ad populum.", "Appeal to pity.", "None."],
    ["Hasty generalization.",
     "This is a dangerous generalization about cyclists.",  # "dangerous" holds "anger"
     "Guilt by association."],
    ["No fallacy.", "No fallacy."],
    ["Circular reasoning.", "Ad populum.", ""],
]


# ---- building ----------------------------------------------------------------------------------


def sentence_offsets(sentences: list[str]) -> list[tuple[int, int]]:
    out, pos = [], 0
    for s in sentences:
        out.append((pos, pos + len(s)))
        pos += len(s) + 1
    return out


def locate(doc: int, where: Where) -> tuple[int, int]:
    """Offsets ``[start, end)`` of a sentence range or of a fragment that occurs exactly once."""
    text = TEXTS[doc]
    if isinstance(where, str):
        start = text.find(where)
        if start < 0 or text.find(where, start + 1) >= 0:
            raise ValueError(f"text {doc}: fragment {where!r} must occur exactly once")
        return start, start + len(where)
    offsets = sentence_offsets(SENTENCES[doc])
    i, j = where
    return offsets[i][0], offsets[j][1]


def expand(doc: int, specs: list[Spec]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Each spec as ``(start, end, labels)``, in text order (alternatives stay together)."""
    out = []
    for where, labels in specs:
        start, end = locate(doc, where)
        out.append((start, end, (labels,) if isinstance(labels, str) else labels))
    return sorted(out, key=lambda x: (x[0], x[1]))


def sentences_with_labels(doc: int, spans: list[tuple[int, int, tuple[str, ...]]]) -> str:
    """MAFALDA's ``sentences_with_labels``: per sentence, one label group per span touching it.

    As in MAFALDA's file: a sentence no span touches gets ``[["nothing"]]``, ⊥ comes first in
    its group, and a sentence covered only by a "to clean" span is left out.
    """
    out: dict[str, list[list[str]]] = {}
    for sentence, (a, b) in zip(SENTENCES[doc], sentence_offsets(SENTENCES[doc]), strict=True):
        touching = [labels for s, e, labels in spans if min(b, e) > max(a, s)]
        groups = [sorted(labels, key=lambda x: x != NOTHING) for labels in touching
                  if TO_CLEAN not in labels]
        if touching and not groups:
            continue
        out[sentence] = groups or [[NOTHING]]
    return json.dumps(out, ensure_ascii=False)


def mafalda_lines(specs: list[list[Spec]], comments: list[list[str]] | None = None) -> str:
    if len(specs) != len(TEXTS):
        raise ValueError(f"expected {len(TEXTS)} texts, got {len(specs)}")
    lines = []
    for doc, doc_specs in enumerate(specs):
        spans = expand(doc, doc_specs)
        labels = [[s, e, lab] for s, e, alts in spans
                  for lab in sorted(alts, key=lambda x: x == NOTHING)]
        lines.append(json.dumps({
            "text": TEXTS[doc],
            "labels": labels,
            "comments": comments[doc] if comments else [],
            "sentences_with_labels": sentences_with_labels(doc, spans),
        }, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def llm_lines() -> str:
    """One line per text; the sentences are the keys of the gold's ``sentences_with_labels``,
    as in MAFALDA's released results (a "to clean" sentence has none)."""
    lines = []
    for doc, answers in enumerate(LLM_ANSWERS):
        sentences = list(json.loads(sentences_with_labels(doc, expand(doc, GOLD[doc]))))
        if len(answers) != len(sentences):
            raise ValueError(f"text {doc}: {len(sentences)} sentences, {len(answers)} answers")
        lines.append(json.dumps({"text": TEXTS[doc],
                                 "prediction": dict(zip(sentences, answers, strict=True))},
                                ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def main() -> None:
    for doc, sentences in enumerate(SENTENCES):
        if len(set(sentences)) != len(sentences):  # sentences are JSON object keys
            raise ValueError(f"text {doc}: a sentence occurs twice")
    OUT.mkdir(exist_ok=True)
    files = {
        "gold.jsonl": mafalda_lines(GOLD, COMMENTS),
        "system_a.jsonl": mafalda_lines(SYSTEM_A),
        "system_b.jsonl": mafalda_lines(SYSTEM_B),
        "annotator_1.jsonl": mafalda_lines(ANNOTATOR_1),
        "annotator_2.jsonl": mafalda_lines(ANNOTATOR_2),
        "annotator_3.jsonl": mafalda_lines(ANNOTATOR_3),
        "system_llm.jsonl": llm_lines(),
    }
    for name, content in files.items():
        (OUT / name).write_text(content, encoding="utf-8", newline="")


if __name__ == "__main__":
    main()
