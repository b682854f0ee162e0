"""The rule path's shared work gives the floats of scoring each step on its own.

:func:`core.metrics.differences.metric_path` projects labels once per level on the sets'
columns, joins the unmerged sets once per level and reduces that join for every step
(``_Scorer``). The reference here scores each step as the path did before: the labels projected
span by span, :func:`core.metrics.martino.score` per rule set, its ``per_document`` rows and a
Python mean. Every value must be the same float (``==``, not approximately), every error the
same text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import ReadOptions, load_path
from core.metrics import mafalda as mafalda_metric
from core.metrics import martino
from core.metrics.differences import (
    Rules,
    RuleScore,
    Step,
    joined,
    metric_path,
    path_rules,
    project,
    with_mafalda,
)
from core.metrics.result import prf
from core.model import NOTHING, AnnotationSet, Span
from core.model.errors import SpanScopeError
from core.model.taxonomy import Taxonomy, for_labels, mafalda

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "propaganda"
MAFALDA_DATA = ROOT / "tests" / "data" / "mafalda"


def _project_spans(aset: AnnotationSet, taxonomy: Taxonomy, level: int, *,
                   gold: bool) -> AnnotationSet:
    """The projection span by span (what :func:`project` computes on columns)."""
    if level == 2:
        return aset
    spans: dict[str, tuple[Span, ...]] = {}
    for doc, items in aset.spans.items():
        out = []
        for s in items:
            code = 0 if s.label == NOTHING else taxonomy.code(s.label, allow_unknown=not gold)
            projected = taxonomy.project(code, level)
            if gold and projected == 0:
                continue
            out.append(Span(s.start, s.end, taxonomy.label_name(projected, level)))
        spans[doc] = tuple(out)
    return AnnotationSet(aset.name, spans, aset.role, alternatives=False)


def _reference(gold: AnnotationSet, pred: AnnotationSet, rules: Rules,
               tax: Taxonomy) -> RuleScore:
    """One rule set scored on its own (the Martino rules; MAFALDA's step is mafalda.score in
    both)."""
    g = _project_spans(martino.martino_gold_view(gold), tax, rules.level, gold=True)
    p = _project_spans(AnnotationSet(pred.name, pred.spans, "system"), tax, rules.level,
                       gold=False)
    res = martino.score(g, p, variant="nlp4if2019" if rules.merge else "semeval2021",
                        merge_pred=rules.merge, match=rules.match)
    rows = res.per_document()
    if rules.pooling == "micro":
        values = [(r.precision, r.recall, r.f1) for r in rows]
        overall = (res.precision, res.recall, res.f1)
    else:
        values = [prf(r.precision_numerator, r.precision_denominator, r.recall_numerator,
                      r.recall_denominator, empty="mafalda") for r in rows]
        n = len(values)
        p_, r_, f_ = (sum(v[k] for v in values) / n if n else 0.0 for k in range(3))
        overall = (p_, r_, f_)
    return RuleScore(rules, *overall, [r.document for r in rows], [v[0] for v in values],
                     [v[1] for v in values], [v[2] for v in values], list(res.warnings))


def _reference_mafalda(gold: AnnotationSet, pred: AnnotationSet, rules: Rules, tax: Taxonomy,
                       texts: dict[str, str | None] | None) -> RuleScore:
    """MAFALDA's step from :func:`core.metrics.mafalda.score`'s ``per_document`` rows, as the
    path read it before it took the result's columns (issue 29, eighth pass)."""
    res = mafalda_metric.score(gold.as_alternatives(), pred, level=rules.level,
                               variant=rules.mafalda_variant, texts=texts, taxonomy=tax)
    rows = res.per_document()
    ps, rs, fs = ([r.precision for r in rows], [r.recall for r in rows], [r.f1 for r in rows])
    n = len(rows)
    return RuleScore(rules, sum(ps) / n if n else 0.0, sum(rs) / n if n else 0.0,
                     sum(fs) / n if n else 0.0, [r.document for r in rows], ps, rs, fs,
                     list(res.warnings))


def _reference_path(gold: AnnotationSet, pred: AnnotationSet, level: int, variant: str,
                    tax: Taxonomy, texts: dict[str, str | None] | None = None
                    ) -> list[tuple[str, RuleScore | None, str | None]]:
    out: list[tuple[str, RuleScore | None, str | None]] = []
    for key, _, _, rules, _ in path_rules(level, variant):
        try:
            score = (_reference_mafalda(gold, pred, rules, tax, texts) if rules.alternatives
                     else _reference(gold, pred, rules, tax))
            out.append((key, score, None))
        except SpanScopeError as exc:
            out.append((key, None, str(exc)))
    return out


def _same(steps: list[Step], reference: list[tuple[str, RuleScore | None, str | None]]) -> None:
    assert [s.key for s in steps] == [k for k, _, _ in reference]
    for step, (_, score, error) in zip(steps, reference, strict=True):
        assert step.error == error, step.key
        assert step.score == score, step.key  # every float, exactly


LABELS = mafalda().names()[1:9]


@st.composite
def corpora(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    """Gold (with ⊥, alternatives and overlaps) and predictions (duplicates, overlaps,
    'nothing', a label of no taxonomy), sometimes over different documents."""
    gold: dict[str, tuple[Span, ...]] = {}
    pred: dict[str, tuple[Span, ...]] = {}
    for d in range(draw(st.integers(1, 4))):
        for side, labels in ((gold, [*LABELS, NOTHING]), (pred, [*LABELS, NOTHING, "made up"])):
            spans: list[Span] = []
            for _ in range(draw(st.integers(0, 5))):
                a = draw(st.integers(0, 30))
                spans.append(Span(a, a + draw(st.integers(1, 12)), draw(st.sampled_from(labels))))
            duplicate = draw(st.booleans())
            if spans and duplicate:
                spans.append(spans[0])
            side[f"d{d}"] = tuple(sorted(spans))
    if draw(st.booleans()):
        pred.pop("d0")
    return (AnnotationSet("gold", gold, alternatives=draw(st.booleans())),
            AnnotationSet("pred", pred, role="system"))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(corpora(), st.sampled_from([0, 1, 2]), st.sampled_from(["paper", "repo-head"]))
def test_the_shared_path_is_each_step_scored_alone(
        pair: tuple[AnnotationSet, AnnotationSet], level: int, variant: str) -> None:
    gold, pred = pair
    tax = mafalda()
    _same(metric_path(gold, pred, level=level, mafalda_variant=variant, taxonomy=tax),
          _reference_path(gold, pred, level, variant, tax))


@pytest.mark.parametrize("level", [0, 1, 2])
def test_the_shared_path_on_the_sample(level: int) -> None:
    g = load_path(SAMPLE / "gold.json")
    p = load_path(SAMPLE / "system_a.json", options=ReadOptions(role="system"))
    tax = for_labels([*g.set.labels(), *p.set.labels()])
    _same(metric_path(g.set, p.set, level=level, taxonomy=tax, texts=dict(g.texts)),
          _reference_path(g.set, p.set, level, "paper", tax, dict(g.texts)))


@pytest.mark.parametrize("level", [0, 1, 2])
def test_the_shared_path_on_the_released_mafalda_outputs(level: int) -> None:
    g = load_path(MAFALDA_DATA / "datasets" / "gold_standard_dataset.jsonl")
    p = load_path(MAFALDA_DATA / "results" / "gpt-3.5_level_2_results.jsonl", fmt="mafalda-llm",
                  options=ReadOptions(role="system", gold_doc_ids=g.set.doc_ids))
    tax = mafalda()
    steps = metric_path(g.set, p.set, level=level, mafalda_variant="metrics-py", taxonomy=tax,
                        texts=dict(g.texts))
    _same(steps, _reference_path(g.set, p.set, level, "metrics-py", tax, dict(g.texts)))
    assert all(s.score is not None for s in steps)


@settings(max_examples=80, deadline=None)
@given(corpora(), st.sampled_from([0, 1]), st.booleans())
def test_projection_on_columns_is_the_projection_span_by_span(
        pair: tuple[AnnotationSet, AnnotationSet], level: int, gold_side: bool) -> None:
    gold, pred = pair
    tax = mafalda()
    aset = martino.martino_gold_view(gold) if gold_side else pred
    try:
        expected = _project_spans(aset, tax, level, gold=gold_side)
    except SpanScopeError as exc:
        with pytest.raises(SpanScopeError) as raised:
            project(aset, tax, level, gold=gold_side)
        assert str(raised.value) == str(exc)
        return
    got = project(aset, tax, level, gold=gold_side)
    assert got == expected
    assert got.table.labels == expected.table.labels  # numbered in order of first appearance


@pytest.mark.parametrize("variant", ["paper", "metrics-py"])
def test_only_repo_head_reads_the_texts(variant: str) -> None:
    """The dashboard's background job sends the texts for ``repo-head`` only."""
    g = load_path(MAFALDA_DATA / "datasets" / "gold_standard_dataset.jsonl")
    p = load_path(MAFALDA_DATA / "results" / "gpt-3.5_level_2_results.jsonl", fmt="mafalda-llm",
                  options=ReadOptions(role="system", gold_doc_ids=g.set.doc_ids))
    for level in (0, 1, 2):
        with_texts = metric_path(g.set, p.set, level=level, mafalda_variant=variant,
                                 taxonomy=mafalda(), texts=dict(g.texts))
        without = metric_path(g.set, p.set, level=level, mafalda_variant=variant,
                              taxonomy=mafalda())
        assert [s.score for s in without] == [s.score for s in with_texts]
    head = metric_path(g.set, p.set, mafalda_variant="repo-head", taxonomy=mafalda(),
                       texts=dict(g.texts))
    head_blind = metric_path(g.set, p.set, mafalda_variant="repo-head", taxonomy=mafalda())
    assert head[-1].score != head_blind[-1].score  # why repo-head gets them


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(-3, 2**40), st.integers(0, 9)),
                max_size=30), st.booleans())
def test_row_ids_are_numpy_s_row_ranks(rows: list[tuple[int, int, int]], wide: bool) -> None:
    """The packed-key row ids equal ``np.unique(..., axis=0)``'s inverse (also where the
    columns do not pack: negative or too wide)."""
    import numpy as np

    from core.metrics.differences import _ids

    cols = [np.array([r[k] for r in rows], dtype=np.int64) for k in range(3)]
    if wide:
        cols.append(cols[1] << 22)  # 40 + 62 bits: no packing
    expected = (np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)[1].reshape(-1)
                if rows else np.zeros(0, dtype=np.int64))
    assert _ids(*cols).tolist() == expected.tolist()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3), st.integers(-2, 50),
                          st.integers(0, 50), st.integers(0, 4)), max_size=40),
       st.sampled_from([0, 20, 60]))
def test_packed_order_is_lexsort(rows: list[tuple[int, ...]], shift: int) -> None:
    """The merge step's one sort of packed keys (``martino._packed_order``) is ``np.lexsort``'s
    permutation, ties kept in row order; None (the caller lexsorts) where a key is negative or
    the keys need more than 63 bits (``shift``: a start column 20 or 60 bits wider)."""
    import numpy as np

    from core.metrics.martino import _packed_order

    keys = [np.array([r[k] for r in rows], dtype=np.int64) for k in range(5)]
    keys[3] = keys[3] << shift
    order = _packed_order(*keys)
    fits = bool(rows) and min(int(k.min()) for k in keys) >= 0 and sum(
        int(k.max()).bit_length() for k in keys) <= 63
    if not fits:
        assert order is None
        return
    assert order is not None
    assert order.tolist() == np.lexsort(tuple(reversed(keys))).tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 30), st.integers(1, 12),
                          st.sampled_from(["b", "a", "c"])), max_size=25), st.booleans())
def test_merging_on_columns_is_merge_overlaps(rows: list[tuple[int, int, int, str]],
                                              by_label: bool) -> None:
    """Each document merged on the table's columns (``martino._merged``, whose sort is now the
    packed one) is :func:`core.metrics.martino.merge_overlaps` of its spans."""
    from core.metrics.martino import _merged, merge_overlaps
    from core.model import SpanTable

    docs = ["d0", "d1", "d2", "d3"]
    spans = {d: tuple(Span(s, s + n, lab) for i, s, n, lab in rows if docs[i] == d)
             for d in docs}
    merged, _ = _merged(SpanTable.from_spans(spans), by_label=by_label)
    for i, d in enumerate(docs):
        expected = merge_overlaps(spans[d], by_label=by_label)
        assert merged.spans_at(i) == tuple(expected), d


# ---- the path in two parts (issue 29, eighth pass: MAFALDA's steps from the pair's scores) ------


def _dashboard_mafalda(gold: AnnotationSet, pred: AnnotationSet, level: int, variant: str,
                       tax: Taxonomy, texts: dict[str, str | None] | None
                       ) -> mafalda_metric.MafaldaResult:
    """MAFALDA as the dashboard's Scores computes it (``ui.results.score_pair``): the registry's
    entry, the system read as a plain system."""
    from core.metrics import registry

    result = registry.get("mafalda").score_sets(
        gold, AnnotationSet(pred.name, pred.spans, "system", False), variant=variant,
        level=level, texts=texts, taxonomy=tax)
    assert isinstance(result, mafalda_metric.MafaldaResult)
    return result


def _assert_parts_make_the_path(gold: AnnotationSet, pred: AnnotationSet, level: int,
                                variant: str, tax: Taxonomy,
                                texts: dict[str, str | None] | None = None) -> None:
    kw = dict(level=level, mafalda_variant=variant, taxonomy=tax, texts=texts)
    whole = metric_path(gold, pred, **kw)  # type: ignore[arg-type]
    ours = metric_path(gold, pred, part="martino", **kw)  # type: ignore[arg-type]
    theirs = metric_path(gold, pred, part="mafalda", **kw)  # type: ignore[arg-type]
    for part, scored in ((ours, False), (theirs, True)):
        for s in part:  # a part leaves the other part's steps unscored, without an error
            if s.rules.alternatives != scored:
                assert (s.score, s.error) == (None, None), s.key
    assert joined(ours, theirs) == whole
    assert repr(joined(ours, theirs)) == repr(whole)  # what bench_differences.py hashes
    if any(s.error for s in whole if s.rules.alternatives):
        return  # the dashboard takes MAFALDA's results only when it scored the pair
    results = {v: _dashboard_mafalda(gold, pred, level, v, tax, texts)
               for v in dict.fromkeys(("paper", variant))}
    reused = with_mafalda(ours, results)
    assert reused == whole
    assert repr(reused) == repr(whole)


@settings(max_examples=120, deadline=None)
@given(corpora(), st.sampled_from([0, 1, 2]),
       st.sampled_from(["paper", "metrics-py", "repo-head"]))
def test_the_path_in_two_parts_is_the_path(pair: tuple[AnnotationSet, AnnotationSet],
                                           level: int, variant: str) -> None:
    gold, pred = pair
    _assert_parts_make_the_path(gold, pred, level, variant, mafalda())


@pytest.mark.parametrize("level", [0, 1, 2])
def test_the_path_in_two_parts_on_the_released_mafalda_outputs(level: int) -> None:
    g = load_path(MAFALDA_DATA / "datasets" / "gold_standard_dataset.jsonl")
    p = load_path(MAFALDA_DATA / "results" / "gpt-3.5_level_2_results.jsonl", fmt="mafalda-llm",
                  options=ReadOptions(role="system", gold_doc_ids=g.set.doc_ids))
    for variant in ("paper", "repo-head"):
        _assert_parts_make_the_path(g.set, p.set, level, variant, mafalda(), dict(g.texts))


def test_a_mafalda_result_of_another_level_or_variant_is_refused() -> None:
    gold = AnnotationSet("g", {"d": (Span(0, 40, LABELS[0]),)})
    pred = AnnotationSet("p", {"d": (Span(0, 10, LABELS[0]),)}, role="system")
    ours = metric_path(gold, pred, level=1, part="martino")
    at_two = _dashboard_mafalda(gold, pred, 2, "paper", mafalda(), None)
    with pytest.raises(ValueError, match="level 2"):
        with_mafalda(ours, {"paper": at_two})
    with pytest.raises(KeyError):  # the variant the path needs is missing
        with_mafalda(metric_path(gold, pred, mafalda_variant="repo-head", part="martino"),
                     {"paper": at_two})
    with pytest.raises(SpanScopeError, match="part"):
        metric_path(gold, pred, part="both")
    with pytest.raises(ValueError, match="same path"):
        joined(ours, metric_path(gold, pred, part="mafalda"))
