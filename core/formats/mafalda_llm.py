"""MAFALDA model outputs: ``{text, prediction: {sentence: raw answer}}`` per line -> spans.

The released results files (``results/<model>_level_2_results.jsonl``) hold one raw LLM answer
per sentence, not spans. The MAFALDA evaluator (its ``src/evaluate.py``; ``docs/mafalda.md``)
turns them into spans in three steps, implemented here from their description:

1. each answer becomes a set of level-2 codes by keyword matching (:func:`answer_codes`);
2. runs of consecutive sentences sharing a code become one span, at offsets *assumed* from the
   sentence lengths, never looked up in the text (:func:`sentence_spans`);
3. labels are projected to levels 1 and 0 at scoring time (``core.model.taxonomy``).

Two parsings (``ReadOptions.llm_parsing``):

``paper-2023`` (default; ``src/evaluate.py`` of Dec 2023, behind the paper's tables)
    the no-fallacy test looks at the *first character* of the cleaned answer only, so it never
    fires; sentences are assumed to follow each other with no separator.
``repo-head`` (the repository's evaluator since Jan 2024)
    the test looks at the whole cleaned answer (a word ``no``, ``none``, ``not``, ``false`` or
    ``nothing`` adds code 0); sentences are assumed one character apart.

Lines pair with the gold by position (line i with gold document i), as in the official code; a
file whose line count differs from the gold's is refused (the official ``zip`` would silently
score the shorter prefix). The official Dec-2023 code crashes on an empty answer; here an empty
answer names no fallacy and becomes ``unknown``.

The repository also holds answers to its level-1 prompt (``<model>_level_1_results.jsonl``:
emotion, logic or credibility). Its evaluation (``cli.py --models_eval``) reads every results
file with the level-2 keywords, so "emotion" becomes *appeal to positive emotion* and an answer
that names only logic or credibility becomes ``unknown``; so does this reader, with a warning
when the file name says level 1 (the repository's ``evaluate_level_1``, which reads the three
classes, is never called).

Offsets are the reader's, not the file's: where the sentences joined by spaces are longer than
the text (a sentence listed twice, as in the released outputs' text 23), a span runs past the
end. The official evaluator scores it as it is, and so does SpanScope by default, with one
warning per file (``Loaded.assumed_extents``, :mod:`core.model.bounds`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import SpanBuilder
from core.formats._common import iter_jsonl, set_name_of
from core.model import NOTHING, AnnotationSet
from core.model.errors import FormatError
from core.model.taxonomy import mafalda

FORMAT = "mafalda-llm"
PARSINGS = ("paper-2023", "repo-head")
UNKNOWN_CODE = 24

KEYWORDS: dict[str, int] = {
    "emotion": 1, "anger": 2, "fear": 3, "pity": 4, "ridicule": 5, "worse": 6, "problems": 6,
    "oversimplification": 7, "circular": 8, "equivocation": 9, "analogy": 10, "causality": 11,
    "dilemma": 12, "generalization": 13, "slippery": 14, "slope": 14, "straw": 15,
    "division": 16, "hominem": 17, "populum": 18, "authority": 19, "nature": 20,
    "tradition": 21, "association": 22, "quoque": 23,
}
"""Keyword -> level-2 code (substring test, no word boundaries), as the evaluator lists them."""

LEVEL_1_NAME = re.compile(r"_level_1_results\.jsonl$", re.IGNORECASE)
"""The repository's name for answers to its level-1 prompt (``cli.py``'s results paths)."""

NEGATIONS = frozenset({"no", "none", "not", "false", "nothing"})
_NON_WORD = re.compile(r"[^\w\s]")
_ASCII_NON_WORD = bytes.maketrans(
    bytes(range(128)), bytes(32 if _NON_WORD.match(chr(c)) else c for c in range(128)))
"""``_NON_WORD.sub(" ", a)`` for an ASCII answer, as a byte table (built from the pattern
itself): five times faster than the substitution."""


def answer_codes(answer: str, parsing: str = "paper-2023") -> frozenset[int]:
    """The set of level-2 codes a raw answer names (the evaluator's steps 1-11).

    >>> sorted(answer_codes("The sentence is not part of a fallacious argument.", "repo-head"))
    [0]
    >>> sorted(answer_codes("The sentence is not part of a fallacious argument.", "paper-2023"))
    [24]
    >>> sorted(answer_codes("false dilemma", "repo-head"))
    [0, 12]
    """
    if parsing not in PARSINGS:
        raise ValueError(f"The 'llm_parsing' parameter must be one of {PARSINGS}. "
                         f"Got {parsing!r} instead.")
    a = answer_part(answer)
    a = (a.encode("ascii").translate(_ASCII_NON_WORD).decode("ascii") if a.isascii()
         else _NON_WORD.sub(" ", a))
    return cleaned_codes(a, parsing)


def answer_part(answer: str) -> str:
    """The part of a raw answer the evaluator reads (from ``Output:``, up to the echoed next
    prompt), lower-cased: its steps before punctuation becomes spaces."""
    a = answer
    if "Output:" in a:
        a = a[a.index("Output:"):]
    marker = "Based on the above text, determine"
    if marker in a:
        a = a[: a.index(marker)]
    return a.lower()


def cleaned_codes(a: str, parsing: str) -> frozenset[int]:
    """The codes of an :func:`answer_part` whose punctuation is spaces: the evaluator's steps
    after that (keywords as substrings, then the negation test of ``parsing``)."""
    if "based on the above" in a:
        a = a[: a.index("based on the above")]
    codes = {code for word, code in KEYWORDS.items() if word in a}
    probe = a if parsing == "repo-head" else a[:1]
    if any(token in NEGATIONS for token in probe.split()):
        codes.add(0)
    return frozenset(codes or {UNKNOWN_CODE})


def sentence_spans(sentences: Sequence[str], codes: Sequence[frozenset[int]],
                   parsing: str = "paper-2023") -> list[tuple[int, int, int]]:
    """Spans ``(start, end, code)`` from per-sentence codes (the evaluator's span building).

    >>> sentence_spans(["Ab.", "Cde.", "F."], [{7}, {7, 13}, {24}], "repo-head")
    [(0, 8, 7), (4, 8, 13), (9, 11, 24)]
    >>> sentence_spans(["Ab.", "Cde.", "F."], [{7}, {7, 13}, {24}], "paper-2023")
    [(0, 8, 7), (3, 7, 13), (7, 9, 24)]
    """
    gap = 1 if parsing == "repo-head" else 0
    starts = []
    pos = 0
    for s in sentences:
        starts.append(pos)
        pos += len(s) + gap
    left = [set(c) for c in codes]
    out = []
    n = len(sentences)
    for i in range(n):
        for code in sorted(left[i]):
            k = i
            while k + 1 < n and code in left[k + 1]:
                k += 1
                left[k].discard(code)
            length = sum(len(sentences[j]) for j in range(i, k + 1)) + (k - i)
            out.append((starts[i], starts[i] + length, code))
    return out


def sniff(filename: str, head: str) -> int:
    first = head.lstrip().split("\n", 1)[0]
    if first.startswith("{") and '"prediction"' in first[:4096]:
        return 90
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read a results file into predicted spans labelled with MAFALDA level-2 names."""
    if len(files) != 1:
        raise FormatError(name, f"a MAFALDA results input is one JSONL file, got {len(files)}")
    (data,) = files.values()
    parsing = options.llm_parsing
    names = mafalda().names()
    rows = iter_jsonl(name, decode(name, data))
    ids = list(options.gold_doc_ids) if options.gold_doc_ids is not None else None
    if ids is not None and len(ids) != len(rows):
        raise FormatError(name, f"expected one line per gold text ({len(ids)} lines), found "
                          f"{len(rows)}; lines pair with the gold by position")
    loaded = Loaded(FORMAT, name)
    loaded.assumed_extents = {}
    if LEVEL_1_NAME.search(name):
        loaded.warn("the file name says these are answers to MAFALDA's level-1 prompt (emotion, "
                    "logic, credibility); they are read with the level-2 keywords, as the "
                    "repository's evaluation reads every results file: 'emotion' becomes "
                    "'appeal to positive emotion', and an answer naming only logic or "
                    "credibility becomes 'unknown'", kind="file-name")
    spans = SpanBuilder()
    # An answer read before is not parsed again: models repeat themselves (GPT-3.5's 940
    # answers to MAFALDA hold 449 distinct ones, the baselines' 24 and 1).
    known: dict[str, frozenset[int]] = {}
    for index, (line, obj) in enumerate(rows):
        if not isinstance(obj, dict):
            raise FormatError(name, f"expected a JSON object, got {type(obj).__name__}",
                              line=line)
        prediction = obj.get("prediction")
        if not isinstance(prediction, dict):
            raise FormatError(name, "expected an object {sentence: answer}"
                              + ("" if prediction is None else
                                 f", got {type(prediction).__name__}")
                              + (" (missing)" if prediction is None else ""),
                              line=line, field="prediction")
        doc_id = ids[index] if ids is not None else str(index)
        sentences = list(prediction)
        answers = []
        for answer in prediction.values():
            codes = known.get(answer) if isinstance(answer, str) else None
            if codes is None:
                if not isinstance(answer, str):
                    raise FormatError(name, f"expected the answer as a string, got "
                                      f"{type(answer).__name__}", line=line, field="prediction")
                codes = known[answer] = answer_codes(answer, parsing)
            answers.append(codes)
        again = doc_id in spans
        doc = spans.document(doc_id)
        if again:  # a later line of the same document replaces the earlier one
            spans.clear(doc)
        for start, end, code in sentence_spans(sentences, answers, parsing):
            if end <= start:
                loaded.warn(f"document {doc_id!r}: an empty sentence gives an empty span for "
                            f"code {code}; skipped", line=line, field="prediction", kind="skipped")
                continue
            label = NOTHING if code == 0 else names[code]
            spans.add(doc, start, end, label)
        # Where an answer for the whole text would end: every sentence, one space between.
        loaded.assumed_extents[doc_id] = sum(map(len, sentences)) + max(len(sentences) - 1, 0)
        text = obj.get("text")
        if text is not None and not isinstance(text, str):
            raise FormatError(name, f"expected the text as a string, got {type(text).__name__}",
                              line=line, field="text")
        loaded.texts[doc_id] = text
    loaded.sets.append(AnnotationSet(set_name_of(name), spans.spans(), options.role))
    return loaded
