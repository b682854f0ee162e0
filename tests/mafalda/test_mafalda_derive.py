"""MAFALDA's ``metrics-py`` derived from a ``paper`` result and back, and ``repo-head`` from
either (:func:`core.metrics.mafalda.derive`), equals the variant scored directly, number for
number, on random corpora with alternatives, ⊥, ``nothing`` and ``unknown`` predictions,
file-order gold, zero-length spans and empty texts, at every level; only the texts whose gold
offers a choice of fallacy labels (and those read apart) are scored again (docs/performance.md,
issue 29, fourteenth and fifteenth passes)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics import mafalda as m
from core.metrics import registry
from core.metrics.mafalda import DERIVABLE, LEVELS, derive, score
from core.metrics.mafalda_order import GoldOrder
from core.model import NOTHING, AnnotationSet, Span
from core.model.errors import ParameterError
from core.model.taxonomy import mafalda

NAMES = mafalda().names()[1:24]
# Few labels and short texts, so that spans overlap and offer several alternatives; three of
# them in one level-1 class (emotion: NAMES[0], NAMES[1], NAMES[5]), so that a level can merge a
# span's choice into one class.
GOLD_LABELS = [*NAMES[:2], NAMES[5], NAMES[17], NOTHING]
PRED_LABELS = [*GOLD_LABELS, "unknown"]

Case = tuple[AnnotationSet, AnnotationSet, dict[str, str | None], GoldOrder | None,
             GoldOrder | None]


@st.composite
def corpora(draw: st.DrawFn) -> Case:
    n_docs = draw(st.integers(1, 6))
    gold: dict[str, tuple[Span, ...]] = {}
    pred: dict[str, tuple[Span, ...]] = {}
    texts: dict[str, str | None] = {}
    intervals: dict[str, tuple[tuple[int, int], ...]] = {}
    zero_gold: dict[str, tuple[tuple[int, str], ...]] = {}
    zero_pred: dict[str, tuple[tuple[int, str], ...]] = {}
    for d in range(n_docs):
        doc = f"d{d}"
        g: list[Span] = []
        for _ in range(draw(st.integers(0, 5))):
            start = draw(st.integers(0, 30))
            end = start + draw(st.integers(1, 15))
            for lab in draw(st.lists(st.sampled_from(GOLD_LABELS), min_size=1, max_size=3)):
                g.append(Span(start, end, lab))
        if draw(st.integers(0, 5)) == 0:  # unsorted, an uncovered range may overwrite [0, 1)
            g += [Span(2, 4, draw(st.sampled_from(GOLD_LABELS))),
                  Span(0, 1, draw(st.sampled_from(GOLD_LABELS)))]
        p: list[Span] = []
        for _ in range(draw(st.integers(0, 5))):
            start = draw(st.integers(0, 30))
            p.append(Span(start, start + draw(st.integers(1, 15)),
                          draw(st.sampled_from(PRED_LABELS))))
        in_file = tuple(draw(st.permutations(g)))
        gold[doc], pred[doc] = in_file, tuple(p)
        texts[doc] = draw(st.sampled_from([None, "", "x" * 20, "x" * 60]))
        if draw(st.booleans()):  # the gold's file order, as the MAFALDA reader records it
            intervals[doc] = tuple(dict.fromkeys((s.start, s.end) for s in in_file))
        if draw(st.integers(0, 4)) == 0:  # zero-length spans (--beyond-text official)
            zero_gold[doc] = tuple((draw(st.integers(0, 30)), lab) for lab in draw(
                st.lists(st.sampled_from(GOLD_LABELS), min_size=1, max_size=2)))
        if draw(st.integers(0, 4)) == 0:
            zero_pred[doc] = ((draw(st.integers(0, 30)), draw(st.sampled_from(PRED_LABELS))),)
    gold_order = (GoldOrder(intervals, zero_gold) if intervals or zero_gold
                  else None) if draw(st.booleans()) else None
    pred_order = GoldOrder({}, zero_pred) if zero_pred and draw(st.booleans()) else None
    return (AnnotationSet("gold", gold, alternatives=draw(st.booleans())),
            AnnotationSet("pred", pred, role="system"), texts, gold_order, pred_order)


def _values(result: m.MafaldaResult) -> list[tuple[object, ...]]:
    c = result.columns
    return list(zip(c.documents, c.precision, c.recall, c.f1, c.label_precision,
                    c.label_recall, c.label_f1, strict=True))


PAIRS = sorted((variant, source) for variant, sources in DERIVABLE.items()
               for source in sources)


@settings(max_examples=500, deadline=None)
@given(corpora(), st.sampled_from(PAIRS), st.sampled_from(LEVELS))
def test_a_derived_variant_equals_the_variant_scored(case: Case, pair: tuple[str, str],
                                                     level: int) -> None:
    variant, source_variant = pair
    gold, pred, texts, gold_order, pred_order = case
    options = {"level": level, "texts": texts, "gold_order": gold_order,
               "pred_order": pred_order}
    source = score(gold, pred, variant=source_variant, **options)  # type: ignore[arg-type]
    want = score(gold, pred, variant=variant, **options)  # type: ignore[arg-type]
    got = derive(source, gold, pred, variant=variant, **options)  # type: ignore[arg-type]
    assert got.variant == variant and got.level == level
    assert _values(got) == _values(want)  # exactly: the same floats
    assert got.to_dict(per_document=True) == want.to_dict(per_document=True)
    assert got.choice_texts is not None and want.choice_texts is not None
    assert got.choice_texts.tolist() == want.choice_texts.tolist()
    if variant == "repo-head":  # nothing is derived from it
        assert got.sums is None and want.sums is None
        return
    # and back again: derivation chains, and repo-head from a derived result
    back = derive(got, gold, pred, variant=source_variant, **options)  # type: ignore[arg-type]
    assert _values(back) == _values(source)
    head = derive(got, gold, pred, variant="repo-head", **options)  # type: ignore[arg-type]
    assert _values(head) == _values(score(gold, pred, variant="repo-head",
                                          **options))  # type: ignore[arg-type]


def _choice_corpus() -> tuple[AnnotationSet, AnnotationSet]:
    a, b, c = NAMES[0], NAMES[17], NAMES[5]  # emotion, credibility, emotion
    gold = AnnotationSet("g", {
        "choice": (Span(0, 10, a), Span(0, 10, b)),  # one span, two fallacy labels
        "merged": (Span(0, 10, a), Span(0, 10, c)),  # two labels of one level-1 class
        "optional": (Span(0, 10, a), Span(0, 10, NOTHING)),  # one fallacy label or ⊥
        "plain": (Span(0, 10, a), Span(12, 20, c)),
        "empty": ()}, alternatives=True)
    pred = AnnotationSet("p", {
        "choice": (Span(0, 10, a), Span(0, 10, b)), "merged": (Span(0, 10, a), Span(2, 8, c)),
        "optional": (Span(0, 5, a),),
        "plain": (Span(0, 10, b), Span(12, 20, c)), "empty": (Span(0, 3, a),)}, role="system")
    return gold, pred


def test_only_the_texts_offering_a_choice_of_labels_are_scored_again() -> None:
    gold, pred = _choice_corpus()
    paper = score(gold, pred)
    assert paper.choice_texts is not None
    assert [paper.columns.documents[i] for i in paper.choice_texts] == ["choice", "merged"]
    before = dict(m.DERIVED)
    derived = derive(paper, gold, pred, variant="metrics-py")
    assert m.DERIVED["results"] - before.get("results", 0) == 1
    assert m.DERIVED["texts"] - before.get("texts", 0) == 2
    direct = score(gold, pred, variant="metrics-py")
    assert _values(derived) == _values(direct)
    # The text with the choice is where they differ: paper credits one of the two predictions.
    assert (paper.columns.precision[0], direct.columns.precision[0]) == (0.5, 1.0)
    assert paper.columns.label_precision[0] == 0.5 and direct.columns.label_precision[0] == 1.0
    assert paper.columns.precision[2:] == direct.columns.precision[2:]
    # At level 1 "choice" offers two classes still, "merged" one; at level 0 none does.
    assert score(gold, pred, level=1).choice_texts.tolist() == [0]  # type: ignore[union-attr]
    assert score(gold, pred, level=0).choice_texts.tolist() == []  # type: ignore[union-attr]


def test_file_order_and_zero_length_texts_are_scored_again() -> None:
    """metrics-py reads the gold in file order, paper sorted: gold ``[2, 4)`` then ``[0, 1)`` on
    ``abcd`` loses the second span to an uncovered range (:mod:`core.metrics.mafalda_order`),
    so a text without a choice of labels differs too, and is scored again."""
    a, b = NAMES[0], NAMES[17]
    gold, pred = _choice_corpus()
    gold = AnnotationSet("g", {**gold.spans, "lost": (Span(2, 4, a), Span(0, 1, b))},
                         alternatives=True)
    pred = AnnotationSet("p", {**pred.spans, "lost": (Span(0, 1, b),)}, role="system")
    texts: dict[str, str | None] = {"lost": "abcd"}
    order = GoldOrder({"plain": ((12, 20), (0, 10)), "lost": ((2, 4), (0, 1))},
                      {"empty": ((2, NAMES[0]),)})
    paper = score(gold, pred, gold_order=order, texts=texts)
    direct = score(gold, pred, variant="metrics-py", gold_order=order, texts=texts)
    lost = paper.columns.documents.index("lost")
    assert (paper.columns.precision[lost], direct.columns.precision[lost]) == (1.0, 0.0)
    before = m.DERIVED["texts"]
    derived = derive(paper, gold, pred, variant="metrics-py", gold_order=order, texts=texts)
    # choice and merged (a choice), plain and lost (file order), empty (zero-length)
    assert m.DERIVED["texts"] - before == 5
    assert _values(derived) == _values(direct)
    assert _values(derive(direct, gold, pred, variant="paper", gold_order=order,
                          texts=texts)) == _values(paper)


def test_derive_refuses_what_it_cannot_derive() -> None:
    gold, pred = _choice_corpus()
    paper = score(gold, pred)
    head = score(gold, pred, variant="repo-head")
    with pytest.raises(ValueError, match="not derived from a 'paper' result"):
        derive(paper, gold, pred, variant="paper")
    with pytest.raises(ValueError, match="not derived from a 'repo-head' result"):
        derive(head, gold, pred, variant="metrics-py")
    with pytest.raises(ValueError, match="level 1 asked of a result at level 2"):
        derive(paper, gold, pred, variant="metrics-py", level=1)
    with pytest.raises(ValueError, match="which texts offer a choice"):
        derive(m._score_reference(gold, pred), gold, pred, variant="metrics-py")
    no_sums = dataclasses.replace(paper, sums=None)
    with pytest.raises(ValueError, match="keeps no per-text sums"):
        derive(no_sums, gold, pred, variant="repo-head")


def test_the_registry_derives_each_variant_from_the_others_cheaper_first() -> None:
    entry = registry.get("mafalda")
    assert {v: entry.derived_from(v) for v in entry.variants} == {
        "paper": ("metrics-py",), "metrics-py": ("paper",), "repo-head": ("metrics-py", "paper")}
    assert registry.get("martino").derived_from("semeval2021") == ()
    gold, pred = _choice_corpus()
    paper = entry.score_sets(gold, pred, variant="paper", level=1)
    for variant in ("metrics-py", "repo-head"):
        got = entry.derive_sets(paper, gold, pred, variant=variant, level=1)
        want = entry.score_sets(gold, pred, variant=variant, level=1)
        assert (got.precision, got.recall, got.f1) == (want.precision, want.recall, want.f1)
    with pytest.raises(ParameterError, match="derives no result under 'semeval2021'"):
        registry.get("martino").derive_sets(paper, gold, pred, variant="semeval2021")


def test_repo_head_is_not_a_function_of_the_paper_scores_but_of_their_sums() -> None:
    """No text's paper or metrics-py numbers give its repo-head ones: its recall counts the
    text between gold spans, so two texts with the same paper and metrics-py numbers (one exact
    match) get different repo-head recalls when one text is longer (docs/mafalda.md). The sums
    those numbers divide (the best matches and their counts) and the ranges between the gold
    spans give them: derived, no text is scored again."""
    g = AnnotationSet("g", {d: (Span(0, 10, NAMES[0]),) for d in ("short", "long")},
                      alternatives=True)
    p = AnnotationSet("p", {d: (Span(0, 10, NAMES[0]),) for d in ("short", "long")},
                      role="system")
    texts: dict[str, str | None] = {"short": "x" * 10, "long": "x" * 20}
    for variant in ("paper", "metrics-py"):
        same = score(g, p, variant=variant, texts=texts)
        assert _values(same) == [(d, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0) for d in ("short", "long")]
        before = m.DERIVED["texts"]
        head = derive(same, g, p, variant="repo-head", texts=texts)
        assert m.DERIVED["texts"] == before  # nothing scored again
        assert head.columns.recall == [1.0, 0.5]
        assert _values(head) == _values(score(g, p, variant="repo-head", texts=texts))


def _head_case(gold: dict[str, tuple[Span, ...]], pred: tuple[Span, ...], text: str,
               level: int = 2) -> tuple[tuple[float, ...], tuple[float, ...],
                                        tuple[float, ...]]:
    """(P, R, label-only P) of one text under paper, metrics-py and repo-head."""
    g = AnnotationSet("g", gold, alternatives=True)
    p = AnnotationSet("p", {d: pred for d in gold}, role="system")
    out = []
    for variant in ("paper", "metrics-py", "repo-head"):
        c = score(g, p, variant=variant, level=level, texts={d: text for d in gold}).columns
        out.append((c.precision[0], c.recall[0], c.label_precision[0]))
    return out[0], out[1], out[2]


A, B = NAMES[0], NAMES[17]


@pytest.mark.parametrize(("case", "gold", "pred", "text", "level", "want"), [
    # repo-head's precision keeps ⊥ predictions in its denominator
    ("a nothing prediction", (Span(0, 10, A),), (Span(0, 10, A), Span(12, 20, NOTHING)),
     "x" * 10, 0, ((1.0, 1.0, 1.0), (1.0, 1.0, 1.0), (0.5, 1.0, 1.0))),
    # nothing predicted: repo-head's P is 1, paper's 0 (a span was mandatory)
    ("no prediction", (Span(0, 10, A),), (), "x" * 10, 0,
     ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0))),
    # the ranges between gold spans count in repo-head's recall at levels 1 and 2
    ("text around the span", (Span(0, 10, A),), (Span(0, 10, A),), "x" * 20, 2,
     ((1.0, 1.0, 1.0), (1.0, 1.0, 1.0), (1.0, 0.5, 1.0))),
    # an optional span may count in paper's recall, never in repo-head's
    ("an optional span", (Span(0, 10, A), Span(0, 10, NOTHING), Span(20, 30, B)),
     (Span(0, 10, A),), "x" * 30, 0, ((1.0, 0.5, 1.0), (1.0, 0.5, 1.0), (1.0, 0.0, 1.0))),
    # a gold that allows no fallacy: 1 for the silent system under paper; repo-head's recall
    # counts the uncovered text at level 2 (an empty text has one empty range)
    ("no fallacy possible", (), (), "", 2, ((1.0, 1.0, 1.0), (1.0, 1.0, 1.0), (1.0, 0.0, 1.0))),
    # a choice of labels: paper's precision picks one, metrics-py's and repo-head's take both
    ("a choice of labels", (Span(0, 10, A), Span(0, 10, B)), (Span(0, 10, A), Span(0, 10, B)),
     "x" * 10, 0, ((1.0, 1.0, 1.0), (1.0, 1.0, 1.0), (1.0, 1.0, 1.0))),
    ("a choice of labels", (Span(0, 10, A), Span(0, 10, B)), (Span(0, 10, A), Span(0, 10, B)),
     "x" * 10, 2, ((0.5, 1.0, 0.5), (1.0, 1.0, 1.0), (1.0, 1.0, 1.0))),
])
def test_where_repo_head_differs_from_paper_and_metrics_py(
        case: str, gold: tuple[Span, ...], pred: tuple[Span, ...], text: str, level: int,
        want: tuple[tuple[float, ...], ...]) -> None:
    """The minimal examples of docs/mafalda.md ("Variants from one score"): on which texts
    repo-head's per-text terms differ from paper's and metrics-py's."""
    assert _head_case({"d": gold}, pred, text, level) == want, case


def test_a_derivable_entry_given_one_source_as_a_string_keeps_it_whole() -> None:
    """``derivable`` maps a variant to the variants it is derived from, a tuple since
    ``repo-head`` has two; an entry written with one source as a string (the previous shape: a
    plugin's) means that one variant, not its letters one by one (it was refused naming
    ``'p'``)."""
    import dataclasses

    entry = registry.get("mafalda")
    old = dataclasses.replace(entry, name="mafalda-old", derivable={"metrics-py": "paper"})
    assert old.derived_from("metrics-py") == ("paper",)
    with pytest.raises(ParameterError, match="Got 'pape' instead"):
        dataclasses.replace(entry, name="bad", derivable={"metrics-py": "pape"})
