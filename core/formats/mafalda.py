"""MAFALDA JSON Lines: ``{text, labels: [[start, end, label]], comments, sentences_with_labels}``.

The layout of ``datasets/gold_standard_dataset.jsonl`` (Helwe et al. 2024; ``docs/formats.md``).
One text per line; the document id is the line's ``id`` field when present, else the
0-based line index as a string (the convention of the conformance cases), so a results file
paired by position gets the same ids.

Gold (``ReadOptions.role == "gold"``): the same interval listed several times lists
*alternatives* (a disjunction), ``nothing`` is ⊥ and makes the span optional, and a label
containing ``to clean`` is ignored with a warning, as the official evaluator does. The set has
``alternatives=True``. Predictions may use the same layout (one label per span, ``unknown``
allowed); their set has ``alternatives=False``.

Labels are matched case-insensitively against the taxonomy (``core.model.taxonomy``) and stored as
its lower-case level-2 names; an unknown name is a FormatError that lists the valid names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import SpanBuilder
from core.formats._common import (
    DuplicateIds,
    iter_jsonl,
    make_span,
    set_name_of,
)
from core.formats._sniff import is_triples, json_head
from core.model import NOTHING, AnnotationSet, Span
from core.model.bounds import Policy
from core.model.errors import FormatError
from core.model.taxonomy import Taxonomy, mafalda

FORMAT = "mafalda"
TO_CLEAN = "to clean"
DOCCANO_WAY = "pass the format doccano"
"""How :data:`DOCCANO_HINT` and :data:`DOCCANO_HINT_ASKED` say to read the file as doccano (the
command line's ``--format doccano``; the Data page says its own way, ``ui.uploads``)."""
DOCCANO_HINT = ("Read as MAFALDA JSON Lines, the format detected (most of its labels are "
                "MAFALDA's); doccano JSON Lines has the same layout and keeps any label: "
                f"{DOCCANO_WAY} to read the file so, its spans as listed (no alternatives, no ⊥)")
"""Said after a label outside the taxonomy when the format was detected: a MAFALDA file with
one label of its own was read as doccano without a word, its alternatives and ⊥ lost (tour19);
it is now read as MAFALDA, which refuses the label, and this names the reading that takes it."""
DOCCANO_HINT_ASKED = ("Read as MAFALDA JSON Lines, the format asked for, which takes only the "
                      "taxonomy's labels; doccano JSON Lines has the same layout and keeps any "
                      f"label: {DOCCANO_WAY} instead to read the file so, its spans as listed "
                      "(no alternatives, no ⊥)")
"""Said instead of :data:`DOCCANO_HINT` when the MAFALDA format was asked for: the file's labels
need not be mostly MAFALDA's then, and the person chose the format."""


def sniff(filename: str, head: str) -> int:
    """Decided on the first records' keys: ``sentences_with_labels`` is MAFALDA's own;
    ``labels`` triples (doccano 1.0 writes them too) count when their labels are MAFALDA names.
    The ``.jsonl`` suffix only adds to a score the content gave."""
    found = json_head(head)
    records = found.records if found.kind == "lines" else ()
    score = 0
    if not records:
        first = head.lstrip().split("\n", 1)[0]
        if first.startswith("{") and '"sentences_with_labels"' in first:
            score = 95  # a first record longer than the head
    elif any("sentences_with_labels" in rec for rec in records):
        score = 95
    else:
        lists = [rec["labels"] for rec in records
                 if "text" in rec and is_triples(rec.get("labels"))]
        if lists:
            items = [item[2] for items in lists for item in items]
            ours = sum(_mafalda_name(label) for label in items)
            # All MAFALDA names: 70; most of them (a label of its own, a typo): 60, above an
            # unmarked doccano record's 50, so that the MAFALDA reader names the label and
            # the line (with DOCCANO_HINT) where doccano took the file without a word.
            score = 70 if ours == len(items) else 60 if 2 * ours > len(items) else 20
    if score and PurePosixPath(filename).suffix.lower() == ".jsonl":
        score += 3
    return min(score, 100)


def _mafalda_name(label: object) -> bool:
    """Whether a label is one MAFALDA files use: a taxonomy name (any case), ``unknown``, or
    one the official evaluator drops (``to clean``)."""
    if not isinstance(label, str):
        return False
    key = label.strip().lower()
    return key in mafalda().codes or key == "unknown" or TO_CLEAN in key


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions,
         taxonomy: Taxonomy | None = None) -> Loaded:
    """Read a MAFALDA JSONL file (gold with alternatives, or predictions in the same layout)."""
    if len(files) != 1:
        raise FormatError(name, f"a MAFALDA input is one JSONL file, got a folder of {len(files)}")
    (data,) = files.values()
    tax = taxonomy or mafalda()
    gold = options.role == "gold"
    loaded = Loaded(FORMAT, name)
    spans = SpanBuilder()
    zero: dict[str, list[tuple[int, str]]] = {}
    order: dict[str, list[tuple[int, int]]] = {}
    ids = DuplicateIds(name)
    no_text: list[int] = []
    for index, (line, obj) in enumerate(iter_jsonl(name, decode(name, data))):
        if not isinstance(obj, dict):
            raise FormatError(name, f"expected a JSON object, got {type(obj).__name__}", line=line)
        doc_id = str(obj["id"]) if "id" in obj else str(index)
        ids.add(doc_id, f"line {line}", line=line)
        text, labels = _text_and_labels(obj, name, line)
        if text is None:
            no_text.append(line)
        loaded.texts[doc_id] = text
        position = spans.document(doc_id)
        line_zero: list[tuple[int, str]] = []
        line_order: list[tuple[int, int]] = []
        for k, item in enumerate(labels):
            span = _label(item, f"labels[{k}]", (name, line, text), tax, gold, loaded,
                          line_zero, line_order, options.beyond_text,
                          detected=options.detected)
            if span is not None:
                spans.add(position, span.start, span.end, span.label)
        if line_zero:
            zero.setdefault(doc_id, []).extend(line_zero)
        if line_order:
            order.setdefault(doc_id, []).extend(line_order)
    if order or zero:
        # The official evaluator reads unsorted gold in file order (core.metrics.mafalda_order).
        # A file of another role records what of its order can change a score (what_scores:
        # its texts listed unsorted, its zero-length spans): it may be the reference of a
        # comparison (the dashboard's Scores page), and the metric reads the order of its gold
        # side only. A gold keeps every text's order, which convert's writers follow.
        from core.metrics.mafalda_order import GoldOrder, what_scores

        recorded = GoldOrder({doc: tuple(dict.fromkeys(items)) for doc, items in order.items()},
                             {doc: tuple(items) for doc, items in zero.items()})
        loaded.records = recorded if gold else what_scores(recorded)
    sets_spans = spans.spans()
    if not gold:
        for doc, items in sets_spans.items():
            seen: set[Span] = set()
            for s in items:
                if s in seen:
                    loaded.warn(f"document {doc!r}: span [{s.start}, {s.end}) {s.label!r} "
                                "appears twice; both are scored", kind="duplicate-span")
                seen.add(s)
    if no_text:
        loaded.warn(f"{len(no_text)} lines have no 'text' (first: line {no_text[0]}): those "
                    "documents have no text, and their offsets are not checked against one",
                    line=no_text[0], field="text", kind="missing-texts")
    loaded.sets.append(AnnotationSet(set_name_of(name), sets_spans, options.role,
                                     alternatives=gold))
    return loaded


def _text_and_labels(obj: Mapping[str, Any], name: str, line: int
                     ) -> tuple[str | None, list[Any]]:
    """A line's ``text`` (None when absent) and its ``labels`` list, checked."""
    text = obj.get("text")
    if text is not None and not isinstance(text, str):
        raise FormatError(name, f"expected a string, got {type(text).__name__}", line=line,
                          field="text")
    labels = obj.get("labels")
    if labels is None:
        raise FormatError(name, "missing (every line needs 'labels', a list of "
                          "[start, end, label])", line=line, field="labels")
    if not isinstance(labels, list):
        raise FormatError(name, f"expected a list of [start, end, label], got "
                          f"{type(labels).__name__}", line=line, field="labels")
    return text, labels


def _label(item: object, where: str, at: tuple[str, int, str | None], tax: Taxonomy,
           gold: bool, loaded: Loaded, zero: list[tuple[int, str]],
           order: list[tuple[int, int]], beyond_text: Policy, *, detected: bool) -> Span | None:
    """One ``[start, end, label]`` of a line (``at``: file, line, text) as a span, with its
    label made canonical; None for a "to clean" label (dropped, as the official evaluator
    does) and for a zero-length span kept under ``--beyond-text official`` (added to ``zero``).
    ``order`` gets each interval in file order. ``detected``: the format was detected, not
    asked for (the hint after a label outside the taxonomy says which)."""
    name, line, text = at
    if not isinstance(item, list) or len(item) != 3 or not isinstance(item[2], str):
        raise FormatError(name, f"expected [start, end, label], got {json.dumps(item)}",
                          line=line, field=where)
    start, end, label = item
    if TO_CLEAN in label.lower():
        loaded.warn(f"label {label!r} on [{start}, {end}) ignored (the official "
                    "evaluator drops 'to clean' labels)", line=line, field=where, kind="ignored")
        return None
    try:
        code = tax.code(label, file=name, line=line, field=where, allow_unknown=not gold)
    except FormatError as exc:
        # The layout is doccano's too: name the other reading, which keeps any label.
        d = exc.diagnostic
        hint = DOCCANO_HINT if detected else DOCCANO_HINT_ASKED
        raise FormatError(d.file, f"{d.message}. {hint}", line=d.line, field=d.field) from None
    canonical = NOTHING if code == 0 else tax.names()[code]
    if (start == end and isinstance(start, int) and not isinstance(start, bool)
            and start >= 0 and beyond_text == "official"):
        # The official evaluator scores [s, s) (ratio 0, counted in the denominator).
        zero.append((start, canonical))
        order.append((start, end))
        loaded.warn(f"zero-length span [{start}, {end}) {canonical!r} kept and scored as "
                    "the official evaluator does (it adds 0 and counts 1)", line=line,
                    field=where, kind="zero-length")
        return None
    try:
        span = make_span(start, end, canonical, name, line=line, text=text, path=where,
                         beyond_text=beyond_text)
    except FormatError as exc:
        if start != end:
            raise
        raise FormatError(name, exc.diagnostic.message + "; the official evaluator "
                          "scores zero-length spans: --beyond-text official does too",
                          line=line, field=exc.field, path=exc.diagnostic.path) from None
    order.append((span.start, span.end))
    return span


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet], *,
          order: object = None) -> dict[str, str]:
    """One JSONL line per document: ``{id, text, labels}`` (alternatives as repeated intervals).
    ``order``: the reader's records of the input; the labels keep the gold labels' file order
    they give (:func:`core.metrics.mafalda_order.in_file_order`), which MAFALDA's official
    evaluator reads, else they are sorted."""
    from core.metrics.mafalda_order import in_file_order

    if len(sets) != 1:
        raise FormatError("<output>", f"the mafalda format holds one annotation set, got "
                          f"{len(sets)}; pick one with --set")
    aset = sets[0]
    foreign = sorted({s.label for _, items in aset for s in items
                      if not _mafalda_name(s.label)})
    if foreign:
        # The reader refuses them (docs/mafalda.md), so the file could not be read back.
        shown = ", ".join(repr(lab) for lab in foreign[:5])
        more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        raise FormatError("<output>", f"{len(foreign)} labels are not names of the MAFALDA "
                          f"taxonomy: {shown}{more}; a MAFALDA file holds only these: "
                          f"{', '.join(mafalda().names())}. Rename the labels to MAFALDA's "
                          "names first, or write a format that takes any label (doccano, "
                          "spacy, spans-csv)")
    lines = []
    for doc, items in aset.spans.items():
        lines.append(json.dumps({"id": doc, "text": texts.get(doc),
                                 "labels": [[s.start, s.end, s.label]
                                            for s in in_file_order(doc, items, order)]},
                                ensure_ascii=False))
    for doc, text in texts.items():
        if doc not in aset.spans:
            lines.append(json.dumps({"id": doc, "text": text, "labels": []}, ensure_ascii=False))
    return {"annotations.jsonl": "".join(line + "\n" for line in lines)}
