"""The vectorised character counts and study construction equal the per-span implementations
they replaced (issue 15, target 2), kept here as reference functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement import char_agreement
from core.metrics.agreement.study import POSITION, Study, char_tables, merge_intervals
from core.model import NOTHING, AnnotationSet, Span, SpanTable, SpanView

Counts = tuple[int, int, int, int]


def reference_spans(sets: Sequence[AnnotationSet], label: str | None, unit_set: bool
                    ) -> tuple[dict[str, dict[str, tuple[Span, ...]]], list[str], list[str]]:
    """The per-document loop ``Study.from_sets`` ran before: spans kept, documents, warnings."""
    spans: dict[str, dict[str, tuple[Span, ...]]] = {}
    docs: dict[str, None] = {}
    warnings: list[str] = []
    for aset in sets:
        per_doc: dict[str, tuple[Span, ...]] = {}
        optional = 0
        for doc_id, doc_spans in aset.spans.items():
            if aset.alternatives:
                optional += sum(1 for s in doc_spans if s.label == NOTHING)
                doc_spans = tuple(s for s in doc_spans if s.label != NOTHING)
            kept = doc_spans if label is None else tuple(s for s in doc_spans if s.label == label)
            dup = len(kept) - len(set(kept))
            if dup:
                first = next(sp for sp in kept if kept.count(sp) > 1)
                # what each measure does with it (fixrev14b item 3: not "kept as separate
                # units" by every measure)
                how = ("counted once (--unit-set)" if unit_set else
                       "counted twice by span-f1, mafalda-f1, gamma, gamma-cat (--unit-set "
                       "counts it once, as pygamma-agreement does); counted once by exact-f1, "
                       "unitizing-alpha; no change to char-kappa, char-jaccard, text-kappa, "
                       "fleiss-kappa, krippendorff-alpha, which read characters or texts")
                warnings.append(f"{aset.name}: document {doc_id!r} has {dup} exact duplicate "
                                f"span(s), e.g. [{first.start}, {first.end}) {first.label!r}: "
                                f"{how}")
                if unit_set:
                    kept = tuple(set(kept))
            per_doc[doc_id] = tuple(sorted(kept))
            docs[doc_id] = None
        spans[aset.name] = per_doc
        if optional:
            warnings.append(f"{aset.name}: {optional} '{NOTHING}' alternative(s) (optional "
                            "span markers) are not agreement labels and were left out")
    return spans, list(docs), warnings


def _intersection(x: Sequence[tuple[int, int]], y: Sequence[tuple[int, int]]) -> int:
    i = j = total = 0
    while i < len(x) and j < len(y):
        lo, hi = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        if hi > lo:
            total += hi - lo
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return total


def reference_tables(study: Study, a: str, b: str) -> dict[str, dict[str, Counts]]:
    """The interval-merging ``char_tables`` of before, one document and label at a time."""
    out: dict[str, dict[str, Counts]] = {}
    for doc_id in study.common_docs([a, b]):
        length = study.lengths[doc_id]
        per: dict[str, Counts] = dict.fromkeys(study.labels, (0, 0, 0, length))
        by: list[dict[str, list[tuple[int, int]]]] = []
        for who in (a, b):
            d: dict[str, list[tuple[int, int]]] = {POSITION: []}
            for sp in study.get(who, doc_id):
                d.setdefault(sp.label, []).append((sp.start, sp.end))
                d[POSITION].append((sp.start, sp.end))
            by.append(d)
        for lab in [*sorted(by[0].keys() | by[1].keys()), POSITION]:
            ua, ub = merge_intervals(by[0].get(lab, ())), merge_intervals(by[1].get(lab, ()))
            n11 = _intersection(ua, ub)
            n10 = sum(e - s for s, e in ua) - n11
            n01 = sum(e - s for s, e in ub) - n11
            per[lab] = (n11, n10, n01, length - n11 - n10 - n01)
        out[doc_id] = per
    return out


span = st.tuples(st.integers(0, 30), st.integers(1, 12), st.sampled_from(["A", "B", "C", NOTHING]))
doc = st.lists(span, max_size=6)
annotator = st.tuples(st.dictionaries(st.sampled_from(["d1", "d2", "d3", "d4"]), doc, max_size=4),
                      st.booleans(), st.booleans())


def _set(name: str, docs: Mapping[str, list[tuple[int, int, str]]], alternatives: bool,
         lazy: bool) -> AnnotationSet:
    spans = {d: tuple(Span(s, s + n, lab) for s, n, lab in items) for d, items in docs.items()}
    if lazy:  # columns first, as the fast readers give them (sorted)
        table = SpanTable.from_spans(spans)
        table = SpanTable.from_columns(table.doc_ids, table.doc, table.start, table.end,
                                       table.label, table.labels)
        return AnnotationSet(name, SpanView(table), role="annotator", alternatives=alternatives)
    return AnnotationSet(name, spans, role="annotator", alternatives=alternatives)


@settings(max_examples=300, deadline=None)
@given(st.lists(annotator, min_size=2, max_size=3), st.sampled_from([None, "A", "C"]),
       st.booleans(), st.booleans())
def test_char_counts_equal_the_per_span_reference(annotators: list, label: str | None,
                                                  unit_set: bool, texts_known: bool) -> None:
    sets = [_set(f"a{i}", docs, alt, lazy) for i, (docs, alt, lazy) in enumerate(annotators)]
    texts = {d: "x" * 50 for d in ("d1", "d2", "d3")} if texts_known else None
    study = Study.from_sets(sets, texts, label=label, unit_set=unit_set)
    spans, docs, warnings = reference_spans(sets, label, unit_set)
    assert study.docs == docs
    assert study.warnings == warnings
    for a in study.annotators:
        if unit_set:  # a set of units: the order of equal ones does not matter
            assert {d: sorted(v) for d, v in study.spans[a].items()} == {
                d: sorted(v) for d, v in spans[a].items()}
        else:
            assert dict(study.spans[a]) == spans[a]
    far = {d: max((sp.end for a in study.annotators for sp in spans[a].get(d, ())), default=0)
           for d in docs}
    assert study.lengths == {d: (50 if texts and d in texts else far[d]) for d in docs}
    labels = [label] if label else sorted({sp.label for v in spans.values()
                                           for items in v.values() for sp in items})
    assert study.labels == labels
    for i, a in enumerate(study.annotators):
        for b in study.annotators[i + 1:]:
            assert char_tables(study, a, b) == reference_tables(study, a, b)
    reference = Study(study.annotators, study.docs, study.lengths,
                      {a: dict(study.spans[a]) for a in study.annotators}, study.labels,
                      study.length_known, study.warnings)
    got, ref = char_agreement(study), char_agreement(reference)
    for x, y in zip(got, ref, strict=True):
        assert x.as_dict(True) == y.as_dict(True)
