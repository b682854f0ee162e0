"""SemEval-2020 Task 11 TC: how the official scorer pairs gold and predicted labels.

The official ``task-TC_scorer.py`` (Da San Martino et al. 2020; our summary in
``docs/martino.md``) reads both files, groups their rows by article in order of first appearance
and sorts each article's spans by start (a stable sort: file order among equal starts). It
checks that both files hold the same articles, the same number of spans per article and, row by
row, the same spans. Then, article by article, its ``align_annotations`` step swaps rows so that
equal labels of *identical* spans line up, and finally it compares the two files' label columns
**row by row**, the gold's articles in the gold's order against the prediction's in the
prediction's order. Three things follow:

* articles listed in another order are compared with each other: gold ``1 Doubt 0 5`` /
  ``1 Slogans 0 5`` / ``2 Doubt 0 4`` against ``2 Doubt 0 4`` / ``1 Slogans 0 5`` /
  ``1 Doubt 0 5`` scores 1/3;
* identical spans that are not adjacent after the sort by start are never lined up: gold
  ``1 Name_Calling,Labeling 3 4`` / ``1 Appeal_to_Authority 3 7`` / ``1 Doubt 3 4`` against
  ``1 Doubt 3 4`` / ``1 Appeal_to_Authority 3 7`` / ``1 Name_Calling,Labeling 3 4`` scores 1/3;
* in the scorer released with the task's data (the "Data V2" ``tools/``), a span whose label
  matches none of its identical spans makes the loop skip ahead *into the next group* of
  identical spans, which then stays unaligned but for its last row. The organisers' later
  scorer (the ``propaganda-techniques-scorer`` repository, crediting Anton Cherniavskii) skips
  only the rest of the current group.

``--variant semeval2020-tc`` reproduces the released scorer, ``semeval2020-tc-fixed`` the later
one; ``semeval2020-tc-by-article`` pairs each gold span with a predicted span of its own article
and lines up equal labels among *all* identical spans, which is what the alignment step says it
does ("the matching between annotations' labels ... is maximised"). A file the official scorer
refuses only because spans with one start are listed in another order is scored article by
article by every variant, with a warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from core.model import AnnotationSet, Span
from core.model.errors import KindedText

RELEASED = "semeval2020-tc"
FIXED = "semeval2020-tc-fixed"
BY_ARTICLE = "semeval2020-tc-by-article"
OFFICIAL = (RELEASED, FIXED)
"""The variants that pair rows as an official scorer does."""
TC_VARIANTS = (RELEASED, BY_ARTICLE, FIXED)
"""Every technique-classification variant (labels of given spans, micro-F1 = accuracy)."""

Pair = tuple[str, Span, Span]
"""(gold article, gold span, predicted span) of one compared row."""


@dataclass(frozen=True)
class RowOrder:
    """The ``(article, span)`` rows of one PTC TSV file, in file order."""

    rows: Sequence[tuple[str, Span]]


def is_tc(variant: str) -> bool:
    """Whether ``variant`` is one of the technique-classification variants."""
    return variant in TC_VARIANTS


def rows_of(records: object) -> RowOrder | None:
    """The reader's records when they are a file's row order."""
    return records if isinstance(records, RowOrder) else None


def rows_of_set(aset: AnnotationSet) -> RowOrder:
    """A set's spans as rows, in its own order (the order when no file order is known)."""
    return RowOrder(tuple((doc, s) for doc, spans in aset.spans.items() for s in spans))


def on_documents(order: RowOrder, documents: Iterable[str]) -> RowOrder:
    """``order``'s rows of ``documents`` only, in file order: the rows the official scorer reads
    from files holding those articles alone. A caller that scores some articles of a file (the
    dashboard's one document) pairs them with each other, not with the other articles' rows.
    ``order`` itself when it names no other article.

    >>> o = RowOrder((("1", Span(0, 4, "A")), ("2", Span(0, 4, "B")), ("1", Span(5, 9, "C"))))
    >>> [(d, s.label) for d, s in on_documents(o, ["1"]).rows]
    [('1', 'A'), ('1', 'C')]
    >>> on_documents(o, ["1", "2"]) is o
    True
    """
    keep = set(documents)
    kept = [row for row in order.rows if row[0] in keep]
    return order if len(kept) == len(order.rows) else RowOrder(tuple(kept))


def articles(order: RowOrder) -> dict[str, list[Span]]:
    """Rows grouped by article in order of first appearance, each article's spans sorted by
    start with a stable sort, as the official scorer holds them before it compares them."""
    out: dict[str, list[Span]] = {}
    for doc, span in order.rows:
        out.setdefault(doc, []).append(span)
    for spans in out.values():
        spans.sort(key=lambda s: s.start)
    return out


def refuses(gold: Mapping[str, list[Span]], pred: Mapping[str, list[Span]]) -> list[str]:
    """Articles on which the official checks fail although both sides hold the same spans:
    after the sort by start, spans with one start are in another order (the official scorer
    refuses the file). Other mismatches are errors found before (``martino._align_tc``)."""
    return [doc for doc, g in gold.items()
            if [s.interval for s in g] != [s.interval for s in pred.get(doc, [])]]


def _matching(pred: list[Span], gold: list[Span], i: int) -> tuple[int, int]:
    """The first (prediction, gold) positions from ``i`` on, within the group of spans identical
    to row ``i``, whose labels are equal; (-1, -1) when there is none."""
    j2 = i
    while j2 < len(gold) and gold[j2].interval == gold[i].interval:
        j1 = i
        while j1 < len(pred) and pred[j1].interval == pred[i].interval:
            if pred[j1] == gold[j2]:
                return j1, j2
            j1 += 1
        j2 += 1
    return -1, -1


def align(pred: list[Span], gold: list[Span], *, released: bool) -> None:
    """The official ``align_annotations`` of one article, in place on both lists.

    ``released``: the scorer released with the task's data, which advances past a row without a
    match *before* skipping the rows identical to the one it lands on (so it skips into the next
    group); the later scorer skips the rest of the current group, then advances.
    """
    i = 0
    while i < len(pred):
        j1, j2 = _matching(pred, gold, i)
        if j1 > i:
            pred[i], pred[j1] = pred[j1], pred[i]
        if j2 > i:
            gold[i], gold[j2] = gold[j2], gold[i]
        if released:
            i += 1
        if j1 == -1:
            while i + 1 < len(pred) and pred[i].interval == pred[i + 1].interval:
                i += 1
        if not released:
            i += 1


def official_pairs(gold: RowOrder, pred: RowOrder, *, released: bool) -> list[Pair] | None:
    """The rows the official scorer compares, or None when it refuses the files.

    Both files must hold the same articles with the same spans row by row (after the sort by
    start); each article is aligned (:func:`align`), then the gold's rows, articles in the
    gold's order, are zipped with the prediction's, articles in the prediction's order.
    """
    g, p = articles(gold), articles(pred)
    if set(g) != set(p) or any(len(g[d]) != len(p[d]) for d in g) or refuses(g, p):
        return None
    for doc in g:
        align(p[doc], g[doc], released=released)
    g_rows = [(doc, s) for doc, spans in g.items() for s in spans]
    p_rows = [s for spans in p.values() for s in spans]
    return [(doc, gs, ps) for (doc, gs), ps in zip(g_rows, p_rows, strict=True)]


def best_matches(gold: Sequence[Span], pred: Sequence[Span]) -> int:
    """How many equal labels identical spans can line up at most (``by-article``'s count)."""
    g = Counter((s.interval, s.label) for s in gold)
    p = Counter((s.interval, s.label) for s in pred)
    return sum((g & p).values())


def _aligned_matches(gold: list[Span], pred: list[Span], *, released: bool) -> int:
    g, p = list(gold), list(pred)
    align(p, g, released=released)
    return sum(a.label == b.label for a, b in zip(g, p, strict=True))


def differences(gold: RowOrder, pred: RowOrder, variant: str, pred_name: str) -> list[str]:
    """Warnings where the official scorer's pairing and the by-article one give different
    numbers, saying why and which variant gives the other reading."""
    g, p = articles(gold), articles(pred)
    if set(g) != set(p) or any(len(g[d]) != len(p[d]) for d in g):
        return []  # refused before scoring (martino._align_tc names the problem)
    refused = refuses(g, p)
    if refused:
        return [f"{pred_name}: article(s) {_names(refused)} list spans with the same start in "
                "another order than the gold; the official scorer refuses such a file; "
                "scored here article by article, every identical span lined up"]
    out: list[str] = []
    crossed = sum(1 for (dg, _), (dp, _) in zip(
        ((d, s) for d, spans in g.items() for s in spans),
        ((d, s) for d, spans in p.items() for s in spans), strict=True) if dg != dp)
    if crossed:
        how = ("this variant compares them as the official scorer does; --variant "
               f"{BY_ARTICLE} pairs each span with its own article's"
               if variant in OFFICIAL else
               "this variant pairs each span with its own article's; --variant "
               f"{RELEASED} reproduces the official comparison")
        out.append(KindedText(f"{pred_name}: {crossed} row(s) are compared with a row of another "
                              "article (articles listed in another order than in the gold): the "
                              "official scorer compares the two files' label columns row by row; "
                              f"{how}", "file-order"))
    best, fixed, released = Counter[str](), Counter[str](), Counter[str]()
    for doc in g:
        best[doc] = best_matches(g[doc], p[doc])
        fixed[doc] = _aligned_matches(g[doc], p[doc], released=False)
        released[doc] = _aligned_matches(g[doc], p[doc], released=True)
    not_adjacent = [d for d in g if fixed[d] < best[d]]
    skipped = [d for d in g if released[d] < fixed[d]]
    if variant == FIXED:
        skipped = []
    if not_adjacent or skipped:
        why = []
        if not_adjacent:
            why.append(f"in article(s) {_names(not_adjacent)} identical spans are not adjacent "
                       "after its sort by start, and it lines up labels only among adjacent "
                       "identical spans")
        if skipped:
            why.append(f"in article(s) {_names(skipped)} a span whose label matches none of "
                       "its identical spans makes the released scorer skip the next group of "
                       f"identical spans (--variant {FIXED}: the organisers' later scorer)")
        lined = (fixed if variant == FIXED else released).total()
        head = (f"{pred_name}: the official scorer's alignment lines up {lined} of the "
                f"{best.total()} equal labels that identical spans allow: " + "; ".join(why))
        out.append(KindedText(head + (
            "; this variant lines up every identical span" if variant == BY_ARTICLE
            else f"; this variant reproduces it; --variant {BY_ARTICLE} lines up every "
            "identical span"), "file-order"))
    return out


def _names(docs: Sequence[str]) -> str:
    shown = ", ".join(repr(d) for d in docs[:5])
    return shown + (f" and {len(docs) - 5} more" if len(docs) > 5 else "")


__all__: Sequence[str] = ("BY_ARTICLE", "FIXED", "OFFICIAL", "RELEASED", "TC_VARIANTS", "Pair",
                          "RowOrder", "align", "articles", "best_matches", "differences",
                          "is_tc", "official_pairs", "on_documents", "refuses", "rows_of",
                          "rows_of_set")
