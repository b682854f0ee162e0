"""SemEval-2020 Task 11 TC: the official scorer pairs labels by position in the files.

The official ``task-TC_scorer.py`` (Da San Martino et al. 2020; our summary in
``docs/martino.md``) checks that both files hold the same articles, the same number of spans per
article and, after sorting each article's spans by start, the same spans; it then compares the
two files' label columns **row by row, in file order**. When the prediction lists the articles
in another order than the gold, row *i* of one file is compared with row *i* of the other, which
may belong to another article: gold ``1 Doubt 0 5`` / ``2 Slogans 0 4`` against the prediction
``2 Doubt 0 4`` / ``1 Slogans 0 5`` scores 1.0 officially and 0.0 article by article.

``--variant semeval2020-tc`` reproduces the official pairing (with a warning when the order
matters); ``--variant semeval2020-tc-by-article`` pairs each gold span with the predicted span at
the same place of the same article. Spans with one start listed in another order inside an
article make the official scorer refuse the file (its sort by start keeps file order among equal
starts); we score them and warn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.model import AnnotationSet, Span

BY_ARTICLE = "semeval2020-tc-by-article"


@dataclass(frozen=True)
class RowOrder:
    """The ``(article, span)`` rows of one PTC TSV file, in file order."""

    rows: tuple[tuple[str, Span], ...]


def official_rows(order: RowOrder) -> list[tuple[str, Span]]:
    """Rows as the official scorer lines them up: grouped by article in order of first
    appearance, each article's spans sorted by start (a stable sort: file order among equal
    starts)."""
    articles: dict[str, list[Span]] = {}
    for doc, span in order.rows:
        articles.setdefault(doc, []).append(span)
    return [(doc, s) for doc, spans in articles.items()
            for s in sorted(spans, key=lambda s: s.start)]


def positional(gold: RowOrder, pred: RowOrder, pred_set: AnnotationSet) -> AnnotationSet:
    """The prediction as the official scorer reads it: row *i*'s label on gold row *i*'s span."""
    spans: dict[str, list[Span]] = {doc: [] for doc in pred_set.spans}
    for (doc, g), (_, p) in zip(official_rows(gold), official_rows(pred), strict=False):
        spans.setdefault(doc, []).append(Span(g.start, g.end, p.label))
    return AnnotationSet(pred_set.name, {d: tuple(sorted(v)) for d, v in spans.items()},
                         pred_set.role, pred_set.alternatives)


def official_refuses(gold: RowOrder, pred: RowOrder) -> list[str]:
    """Articles whose spans with one start are listed in another order than in the gold (the
    official scorer's check of sorted spans fails there: it refuses the file)."""
    out = []
    for doc in dict.fromkeys(d for d, _ in gold.rows):
        g = sorted((s for d, s in gold.rows if d == doc), key=lambda s: s.start)
        p = sorted((s for d, s in pred.rows if d == doc), key=lambda s: s.start)
        if [s.interval for s in g] != [s.interval for s in p] and sorted(
                s.interval for s in g) == sorted(s.interval for s in p):
            out.append(doc)
    return out


def order_warnings(gold: RowOrder, pred: RowOrder, variant: str, pred_name: str) -> list[str]:
    """Warnings when the row order changes the pairing, and for same-start spans in another
    order inside an article (which the official scorer refuses)."""
    out = []
    moved = sum(1 for (dg, g), (dp, p) in zip(official_rows(gold), official_rows(pred),
                                             strict=False)
                if dg != dp or g.interval != p.interval)
    if moved:
        how = ("this variant pairs them as the official scorer does; --variant "
               f"{BY_ARTICLE} pairs each span with its own article's"
               if variant != BY_ARTICLE else
               "this variant pairs each span with its own article's; --variant semeval2020-tc "
               "reproduces the official pairing")
        out.append(f"{pred_name}: {moved} row(s) are not in the gold's order (articles listed "
                   "in another order): the official scorer compares the label columns row by "
                   f"row, so row i of the prediction is scored against row i of the gold; {how}")
    refused = official_refuses(gold, pred)
    if refused:
        return [f"{pred_name}: article(s) {', '.join(repr(d) for d in refused[:5])} list spans "
                "with the same start in another order than the gold; the official scorer "
                "refuses such a file; scored here span by span, article by article"]
    return out


def variants_pair(variant: str) -> bool:
    """Whether ``variant`` is one of the two TC pairings."""
    return variant in ("semeval2020-tc", BY_ARTICLE)


def rows_of(records: object) -> RowOrder | None:
    return records if isinstance(records, RowOrder) else None


__all__: Sequence[str] = ("BY_ARTICLE", "RowOrder", "official_rows", "order_warnings",
                          "positional", "rows_of", "variants_pair")
