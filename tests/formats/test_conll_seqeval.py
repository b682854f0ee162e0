"""CoNLL chunks equal seqeval's, in its default mode and in strict mode for every scheme.

A differential test against the pinned ``seqeval`` package (requirements-dev.txt): random tag
sequences over all prefixes (O, B, I, E, S, L, U; bare and typed), so invalid transitions
(``I-X`` after ``O``, ``B-X I-Y``, an ``E`` without its start, prefixes outside the scheme) are
common. Then whole files: the entity-level P/R/F1 of exact span + label matches computed from
our character spans equals ``seqeval.metrics`` on the same files.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval import scheme as sq
from seqeval.metrics import classification_report, f1_score, precision_score, recall_score
from seqeval.metrics.sequence_labeling import get_entities

from core.formats import ReadOptions, load_files
from core.formats.conll import SCHEMES, chunks_default, chunks_strict, first_invalid

TYPED = st.builds(lambda p, t: f"{p}-{t}", st.sampled_from("BIESLU"),
                  st.sampled_from(["PER", "LOC", "ORG-X"]))
TAG = st.one_of(st.just("O"), st.just("O"), TYPED,
                st.sampled_from(["B", "I", "E", "S", "L", "U"]))
SEQ = st.lists(TAG, max_size=12)
SEQEVAL_SCHEMES = {"IOB1": sq.IOB1, "IOB2": sq.IOB2, "IOE1": sq.IOE1, "IOE2": sq.IOE2,
                   "IOBES": sq.IOBES, "BILOU": sq.BILOU}


@settings(max_examples=600, deadline=None)
@given(SEQ)
def test_default_mode_chunks_equal_seqeval_get_entities(tags: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval warns about bare prefixes
        theirs = [(t, s, e + 1) for t, s, e in get_entities(tags)]
    assert chunks_default(tags) == theirs


def _strict(name: str) -> None:
    @settings(max_examples=600, deadline=None)
    @given(SEQ)
    def check(tags: list[str]) -> None:
        try:
            theirs = [(e.tag, e.start, e.end)
                      for e in sq.Tokens(tags, SEQEVAL_SCHEMES[name]).entities]
        except ValueError:  # a prefix outside the scheme
            assert first_invalid(tags, SCHEMES[name]) is not None
            return
        assert first_invalid(tags, SCHEMES[name]) is None
        assert chunks_strict(tags, SCHEMES[name]) == theirs

    check()


@pytest.mark.parametrize("name", sorted(SEQEVAL_SCHEMES))
def test_strict_mode_chunks_equal_seqeval_tokens_entities(name: str) -> None:
    _strict(name)


@pytest.mark.parametrize("name", sorted(SEQEVAL_SCHEMES))
@settings(max_examples=500, deadline=None)
@given(data=st.data())
def test_strict_mode_on_valid_sequences_of_the_scheme(name: str, data: st.DataObject) -> None:
    # Sequences built only from the scheme's own prefixes, so that no case ends in the error path.
    allowed = SCHEMES[name].allowed
    tag = st.one_of(st.just("O"), st.builds(lambda p, t: f"{p}-{t}",
                                            st.sampled_from([p for p in allowed if p != "O"]),
                                            st.sampled_from(["PER", "LOC"])))
    tags = data.draw(st.lists(tag, max_size=12))
    theirs = [(e.tag, e.start, e.end) for e in sq.Tokens(tags, SEQEVAL_SCHEMES[name]).entities]
    assert chunks_strict(tags, SCHEMES[name]) == theirs


def test_2000_seeded_random_sequences_per_mode_and_scheme() -> None:
    # A fixed count on top of hypothesis's search: every mode and scheme sees 2,000 sequences.
    import random

    rng = random.Random(19)
    tags = ["O", *"BIESLU", *(f"{p}-{t}" for p in "BIESLU" for t in ("PER", "LOC"))]
    for _ in range(2000):
        seq = [rng.choice(tags) for _ in range(rng.randint(0, 15))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert chunks_default(seq) == [(t, s, e + 1) for t, s, e in get_entities(seq)]
        for name, cls in SEQEVAL_SCHEMES.items():
            try:
                theirs = [(e.tag, e.start, e.end) for e in sq.Tokens(seq, cls).entities]
            except ValueError:
                assert first_invalid(seq, SCHEMES[name]) is not None
                continue
            assert chunks_strict(seq, SCHEMES[name]) == theirs, (name, seq)
    # And 2,000 per scheme from its own prefixes only: all compared, none in the error path,
    # with invalid transitions (I after O, E without B, a type change inside a chunk) common.
    for name, cls in SEQEVAL_SCHEMES.items():
        own = ["O", *(f"{p}-{t}" for p in SCHEMES[name].allowed if p != "O"
                      for t in ("PER", "LOC"))]
        for _ in range(2000):
            seq = [rng.choice(own) for _ in range(rng.randint(0, 15))]
            theirs = [(e.tag, e.start, e.end) for e in sq.Tokens(seq, cls).entities]
            assert chunks_strict(seq, SCHEMES[name]) == theirs, (name, seq)


# ---- whole files: entity-level P/R/F1 --------------------------------------------------------

WORDS = ["EU", "rejects", "German", "call", "to", "boycott", "British", "lamb", "."]


def _file(sentences: list[list[str]]) -> bytes:
    lines = ["-DOCSTART- -X- -X- O", ""]
    for tags in sentences:
        lines.extend(f"{WORDS[i % len(WORDS)]} NN O {tag}" for i, tag in enumerate(tags))
        lines.append("")
    return "\n".join(lines).encode()


def _spans(data: bytes, scheme: str | None) -> set[tuple[str, int, int, str]]:
    loaded = load_files({"x.conll": data}, fmt="conll", options=ReadOptions(scheme=scheme))
    return {(d, s.start, s.end, s.label) for d, spans in loaded.sets[0] for s in spans}


def _prf(gold: set[object], pred: set[object]) -> tuple[float, float, float]:
    tp = len(gold & pred)
    p = tp / len(pred) if pred else 0.0
    r = tp / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


SENTENCES = st.lists(st.lists(TAG.filter(lambda t: t[0] in "OBIES"), min_size=1, max_size=9),
                     min_size=1, max_size=5)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_default_mode_prf_equals_seqeval_metrics(data: st.DataObject) -> None:
    gold = data.draw(SENTENCES)
    pred = [data.draw(st.lists(TAG.filter(lambda t: t[0] in "OBIES"), min_size=len(s),
                               max_size=len(s))) for s in gold]
    ours = _prf(_spans(_file(gold), None), _spans(_file(pred), None))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = (precision_score(gold, pred), recall_score(gold, pred), f1_score(gold, pred))
    assert ours == pytest.approx(theirs, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["IOB2", "IOE2", "IOBES", "BILOU"]), st.data())
def test_strict_mode_prf_equals_seqeval_classification_report(name: str,
                                                              data: st.DataObject) -> None:
    allowed = [p for p in SCHEMES[name].allowed if p != "O"]
    tag = st.one_of(st.just("O"), st.builds(lambda p, t: f"{p}-{t}", st.sampled_from(allowed),
                                            st.sampled_from(["PER", "LOC"])))
    gold = data.draw(st.lists(st.lists(tag, min_size=1, max_size=9), min_size=1, max_size=5))
    pred = [data.draw(st.lists(tag, min_size=len(s), max_size=len(s))) for s in gold]
    g, p = _spans(_file(gold), name), _spans(_file(pred), name)
    ours = _prf(g, p)
    cls = SEQEVAL_SCHEMES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = classification_report(gold, pred, mode="strict", scheme=cls, output_dict=True,
                                       zero_division=0)
        theirs = (precision_score(gold, pred, mode="strict", scheme=cls, zero_division=0),
                  recall_score(gold, pred, mode="strict", scheme=cls, zero_division=0),
                  f1_score(gold, pred, mode="strict", scheme=cls, zero_division=0))
    assert ours == pytest.approx(theirs, abs=1e-12)
    if g or p:
        micro = report["micro avg"]
        assert ours == pytest.approx((micro["precision"], micro["recall"], micro["f1-score"]))
        for label in {s[3] for s in g | p}:
            assert _prf({s for s in g if s[3] == label}, {s for s in p if s[3] == label}) == \
                pytest.approx((report[label]["precision"], report[label]["recall"],
                               report[label]["f1-score"]))


def test_sample_files_score_as_seqeval() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "sample_data" / "formats"
    gold_b = (root / "conll_gold.conll").read_bytes()
    pred_b = (root / "conll_system.conll").read_bytes()

    def tags(data: bytes) -> list[list[str]]:
        out: list[list[str]] = [[]]
        for line in data.decode().split("\n"):
            if not line.strip() or line.startswith("-DOCSTART-"):
                if out[-1]:
                    out.append([])
                continue
            out[-1].append(line.split()[-1])
        return [s for s in out if s]

    ours = _prf(_spans(gold_b, "IOB2"), _spans(pred_b, "IOB2"))
    gold, pred = tags(gold_b), tags(pred_b)
    theirs = (precision_score(gold, pred, mode="strict", scheme=sq.IOB2),
              recall_score(gold, pred, mode="strict", scheme=sq.IOB2),
              f1_score(gold, pred, mode="strict", scheme=sq.IOB2))
    assert ours == pytest.approx(theirs)
    assert 0 < ours[2] < 1  # the sample has hits and misses
