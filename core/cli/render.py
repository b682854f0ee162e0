"""Text reports of the commands' results (the JSON objects ``--json`` prints).

One renderer per registered metric that has its own layout (:data:`RENDERERS`); any other
metric gets :func:`~core.cli.common.render_generic`. The ``agree``, ``errors`` and ``slices``
commands have their own renderers here too. Warnings are summarised by
:func:`core.cli.common.emit`, not here. The renderers read the JSON-ready dicts, whose values are
plain JSON (so ``Any`` is the honest type of a value here).
"""

from __future__ import annotations

import re
from typing import Any

from core.analysis.errors import PREDICTION_CATEGORIES, REFERENCE_CATEGORIES
from core.cli.common import Renderer, render_generic
from core.formats.hateval import COLUMNS, LONG_NAMES
from core.metrics.nervaluate import SCHEMAS
from core.model.textsafe import one_line

SNIPPET = 40
"""Longest span text fragment a report quotes (longer ones end in an ellipsis)."""


def cells(text: str) -> int:
    """The columns ``text`` (one line, no control character) takes in a terminal: two for a
    CJK character or an emoji, none for a combining mark (``wcwidth``).

    >>> cells("地名"), cells("Emoji 😀"), cells("cafe\u0301")
    (4, 8, 4)
    """
    if text.isascii():
        return len(text)
    import wcwidth  # not for plain ASCII: its package imports secrets (tests/cli lazy imports)

    width = wcwidth.wcswidth(text)
    return len(text) if width < 0 else width


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` terminal columns (:func:`cells`), on the right
    (``align="<"``) or the left (``">"``): a table's columns stay straight under CJK labels.

    >>> pad("地名", 6) + "|", pad("ab", 4, ">")
    ('地名  |', '  ab')
    """
    fill = " " * max(0, width - cells(text))
    return text + fill if align == "<" else fill + text


def cut(text: str, width: int) -> str:
    """``text`` on one line, shortened to ``width`` terminal columns with an ellipsis when
    wider (a grapheme cluster, such as an emoji sequence, is never split).

    >>> cut("Name calling/Labeling", 12), cut("Doubt", 12), cut("地名地名地名", 7)
    ('Name callin…', 'Doubt', '地名地…')
    """
    text = one_line(text)
    if cells(text) <= width:
        return text
    if text.isascii():
        return text[:width - 1] + "…"
    import wcwidth

    out, used = [], 0
    for cluster in wcwidth.iter_graphemes(text):
        used += cells(cluster)
        if used > width - 1:
            break
        out.append(cluster)
    return "".join(out) + "…"


def snippet(text: Any, width: int = SNIPPET) -> str:
    r"""A span's text quoted for a terminal: control characters escaped (a file's text can hold
    escape sequences), shortened with an ellipsis; ``""`` when the text is unknown.

    >>> snippet("a stupid and\npetty stunt"), snippet(None)
    ('“a stupid and\\npetty stunt”', '')
    """
    return "" if not isinstance(text, str) else f"“{cut(text, width)}”"


def render_martino(result: dict[str, Any]) -> str:
    """A readable report of a score or an explanation."""
    lines: list[str] = []
    head = f"Da San Martino span metric, variant {result['variant']}"
    if "document" in result:
        head += f", document {result['document']!r}"
    lines.append(head)
    lines.append(
        f"  P = {result['precision_numerator']:.6f} / {result['precision_denominator']} = "
        f"{result['precision']:.6f}"
    )
    lines.append(
        f"  R = {result['recall_numerator']:.6f} / {result['recall_denominator']} = "
        f"{result['recall']:.6f}"
    )
    lines.append(f"  F1 = {result['f1']:.6f}")
    if "rows" in result:
        lines.append("")
        lines.append(f"  {'kind':<15}{'pred':<28}{'gold':<28}{'|s∩t|':>6}{'|s|':>5}{'|t|':>5}"
                     f"{'δ':>3}{'C(s,t,|s|)':>12}{'C(s,t,|t|)':>12}")
        for r in result["rows"]:
            pred = (f"[{r['pred_start']},{r['pred_end']}) {r['pred_label']}"
                    if r["pred_start"] is not None else "-")
            gold = (f"[{r['gold_start']},{r['gold_end']}) {r['gold_label']}"
                    if r["gold_start"] is not None else "-")
            lines.append(f"  {r['kind']:<15}{pad(cut(pred, 27), 28)}{pad(cut(gold, 27), 28)}"
                         f"{r['intersection']:>6}{r['pred_length']:>5}{r['gold_length']:>5}"
                         f"{int(r['label_match']):>3}{r['contribution_p']:>12.6f}"
                         f"{r['contribution_r']:>12.6f}")
            texts = [f"{who} {snippet(r.get(key))}" for who, key in
                     (("pred", "pred_text"), ("gold", "gold_text")) if r.get(key) is not None]
            if texts:
                lines.append("  " + " " * 15 + "   ".join(texts))
    per_label = result.get("per_label") or {}
    if per_label:
        official = result.get("per_label_official") or {}
        # Without a technique list there are no official per-technique lines: a column of
        # blanks under "F1 (official)" was left unexplained (tour 18).
        off_head = f"{'F1 (official)':>15}" if official else ""
        lines.append("")
        lines.append(f"  {'label':<52}{'P':>9}{'R':>9}{'F1':>9}{'#pred':>7}{'#gold':>7}"
                     f"{off_head}")
        for lab, v in per_label.items():
            f1 = "-" if v["f1"] is None else f"{v['f1']:.6f}"
            off = official.get(lab)
            off_cell = (f"{'' if off is None else f'{off:.6f}':>15}" if official else "")
            lines.append(f"  {pad(cut(lab, 51), 52)}{v['precision']:>9.4f}"
                         f"{v['recall']:>9.4f}{f1:>9}"
                         f"{v['pred_count']:>7}{v['gold_count']:>7}{off_cell}")
        if not official and result.get("variant") == "semeval2020-si":
            lines.append("  (span identification: the official scorer prints no per-technique "
                         "lines)")
        elif not official and "per_label_official" in result:
            lines.append("  (no F1 (official) column: the official scorer prints its "
                         "per-technique lines for a technique list, and the gold's labels are "
                         "not all on the variant's; --labels FILE gives one)")
        elif "accuracy" in result:  # the TC scorer: sklearn's per-class F1
            lines.append("  (F1 official: as the official scorer prints it; sklearn's per-class "
                         "F1, 0 for a technique on neither side)")
        else:
            lines.append("  (F1 official: as the official scorer prints it; its per-technique "
                         "recall reuses the precision numerator)")
    if not per_label and "per_label" in result and not result.get("precision_denominator") \
            and not result.get("recall_denominator"):
        lines.append("")
        lines.append("  no spans in either file: no per-label scores (--labels FILE lists a "
                     "label set)")
    above = _above_one(result)
    if above:
        lines.append("")
        lines.append(f"  Above 1 ({', '.join(above)}): not an error; the metric adds every "
                     "overlap of a span with the same-label spans of the other side, so "
                     "overlapping same-label reference spans raise P and overlapping "
                     f"predictions raise R{_merging_variant(result)} (docs/martino.md, "
                     "\"Above 1\")")
    return "\n".join(lines)


def _merging_variant(result: dict[str, Any]) -> str:
    """The variant that merges overlapping same-label spans before scoring, and so keeps every
    value at most 1, as the end of the "Above 1" line names it (empty for a variant that
    merges already): ``semeval2020-si`` when every label is ``propaganda`` (PTC span
    identification), else ``nlp4if2019`` with ``--merge-pred``."""
    if result.get("variant") in ("nlp4if2019", "semeval2020-si"):
        return ""
    if set(result.get("per_label") or {}) == {"propaganda"}:
        return ("; --variant semeval2020-si --merge-pred (span identification: labels "
                "ignored) merges overlaps on both sides first, as the SemEval-2020 SI scorer "
                "does, and keeps every value at most 1")
    return ("; --variant nlp4if2019 --merge-pred merges same-label overlaps on both sides "
            "first, as the NLP4IF-2019 scorer does, and keeps every value at most 1")


def _above_one(result: dict[str, Any]) -> list[str]:
    """The overall scores (P, R, F1) above 1, then ``per label`` when a label's are: what the
    note under :func:`render_martino`'s report names (the dashboard marks the same values,
    ``ui/above_one.py``)."""
    def over(value: Any) -> bool:
        return isinstance(value, (int, float)) and value > 1 + 1e-12

    names = [name for name, key in (("P", "precision"), ("R", "recall"), ("F1", "f1"))
             if over(result.get(key))]
    per_label = result.get("per_label") or {}
    if any(over(v.get(key)) for v in per_label.values() if isinstance(v, dict)
           for key in ("precision", "recall", "f1")):
        names.append("per label")
    return names


_FLAT = re.compile(r"^(?P<name>.*): one class per label \((?P<n>[\d,]+) labels?, no grouping\)$")


def taxonomy_at(description: str, level: int) -> str:
    """The ``taxonomy`` key (:func:`core.model.taxonomy.describe`) as the text output of
    ``level`` says it: what the level compares (``docs/mafalda.md``). Level 2 and the labels of
    the data at level 1 (where each label stays its own class) as they are.

    >>> taxonomy_at("labels of the data: one class per label (18 labels, no grouping)", 0)
    'labels of the data (18 labels): any label or none at level 0'
    >>> taxonomy_at("MAFALDA (23 fallacies in 3 groups)", 1)
    'MAFALDA (23 fallacies in 3 groups): the group of each label at level 1'
    """
    flat = _FLAT.match(description)
    if level == 0:
        head = description if not flat else (f"{flat['name']} ({flat['n']} "
                                             f"label{'' if flat['n'] == '1' else 's'})")
        return f"{head}: {'any label' if flat else 'a fallacy'} or none at level 0"
    if level == 1 and not flat:
        return f"{description}: the group of each label at level 1"
    return description


def render_mafalda(result: dict[str, Any]) -> str:
    head = f"MAFALDA metric, variant {result['variant']}, level {result['level']}"
    if "document" in result:
        head += f", document {result['document']!r}"
    lines = [head,
             f"  span        P {result['precision']:.4f}  R {result['recall']:.4f}  "
             f"F1 {result['f1']:.4f}",
             f"  label only  P {result['label_only']['precision']:.4f}  "
             f"R {result['label_only']['recall']:.4f}  F1 {result['label_only']['f1']:.4f}"]
    if "documents" in result:
        lines.append(f"  averaged over {result['documents']} texts")
    if result.get("taxonomy"):
        lines.append(f"  taxonomy: {taxonomy_at(str(result['taxonomy']), result['level'])}")
    preds, golds = result.get("predictions") or [], result.get("gold") or []
    # The label precision's best alternative reads each matched gold span as (Definition 6:
    # one label per gold span), to say why a prediction with another of its labels gets 0.
    read_as = {tuple(r["matched_gold"]): r["matched_label"] for r in preds
               if r.get("matched_gold") is not None and r.get("matched_label") is not None}
    for row in preds:
        lines.append(f"  pred [{row['start']},{row['end']}) {one_line(str(row['label']))}: "
                     f"{_pred_match(row, golds, read_as)} C(s,t,|s|)={row['contribution_p']:.4f}"
                     + (f" {snippet(row.get('text'))}" if row.get("text") is not None else ""))
    for row in golds:
        alts = one_line(" | ".join(row["alternatives"]))
        if row["recall_label"] is None and not row.get("counted", True):
            takes = "⊥ (optional: left out of recall)"
        else:
            takes = one_line(str(row["recall_label"] or "⊥"))
        lines.append(f"  gold [{row['start']},{row['end']}) {alts}: "
                     f"recall takes {takes}, best prediction "
                     f"{_interval(row['best_prediction'], 'none')} "
                     f"C(s,t,|t|)={row['contribution_r']:.4f}"
                     + (f" {snippet(row.get('text'))}" if row.get("text") is not None else ""))
    if result.get("note"):
        lines.append(f"  note: {result['note']}")
    return "\n".join(lines)


def _interval(span: Any, missing: str) -> str:
    """A span's offsets as the other rows write them, ``[start,end)`` (end-exclusive), or
    ``missing``: the JSON's ``[0, 49]`` read as a closed interval, ``None`` as Python.

    >>> _interval([0, 49], "none"), _interval(None, "none")
    ('[0,49)', 'none')
    """
    return missing if span is None else f"[{span[0]},{span[1]})"


def _pred_match(row: dict[str, Any], golds: list[dict[str, Any]],
                read_as: dict[tuple[int, int], str]) -> str:
    """What precision credits a MAFALDA prediction with: its best gold span and the label it
    is read as, or why none: no overlap, or an overlapping gold span that lists the
    prediction's label but that precision's best alternative reads as another label."""
    if row.get("matched_gold") is not None:
        label = row.get("matched_label")
        return (f"best gold {_interval(row['matched_gold'], 'none')}"
                + (f" as {one_line(str(label))}," if label is not None else ""))
    if not row.get("counted", True):
        return "not counted (a ⊥ prediction leaves precision's denominator),"
    for g in golds:
        key = (g["start"], g["end"])
        if (min(g["end"], row["end"]) > max(g["start"], row["start"])
                and row["label"] in g["alternatives"] and key in read_as
                and read_as[key] != row["label"]):
            return (f"no gold span: precision's best alternative reads "
                    f"{_interval(key, 'none')} as {one_line(str(read_as[key]))} (one label per "
                    "gold span),")
    return "no gold span,"


def render_hateval(result: dict[str, Any]) -> str:
    lines = [f"HatEval 2019 task {result['metric'][-1].upper()} ({result['documents']} texts)"]
    if result["metric"] == "hateval-a":
        lines.append(f"  accuracy {result['accuracy']:.4f}  macro P {result['precision_macro']:.4f}"
                     f"  R {result['recall_macro']:.4f}  F1 {result['f1_macro']:.4f}")
        for c, v in result["per_class"].items():
            lines.append(f"  HS={c}: P {v['precision']:.4f}  R {v['recall']:.4f}  "
                         f"F1 {v['f1']:.4f}  support {v['support']}")
    else:
        lines.append(f"  {'':<16}{'accuracy':>10}{'P macro':>10}{'R macro':>10}{'F1 macro':>10}")
        for c in COLUMNS:
            lines.append(f"  {LONG_NAMES[c]:<16}{result['accuracy'][c]:>10.4f}"
                         f"{result['precision_macro'][c]:>10.4f}{result['recall_macro'][c]:>10.4f}"
                         f"{result['f1_macro'][c]:>10.4f}")
        lines.append(f"  mean macro-F1 {result['macro_f1']:.4f}   EMR {result['emr']:.4f}")
    return "\n".join(lines)


def render_text_labels(result: dict[str, Any]) -> str:
    lines = [f"Text-level label sets ({result['documents']} texts, {len(result['labels'])} labels)",
             f"  micro P {result['micro']['precision']:.4f}  R {result['micro']['recall']:.4f}  "
             f"F1 {result['micro']['f1']:.4f}",
             f"  macro P {result['macro']['precision']:.4f}  R {result['macro']['recall']:.4f}  "
             f"F1 {result['macro']['f1']:.4f}",
             f"  exact match ratio {result['emr']:.4f}   Hamming loss {result['hamming']:.4f}",
             "",
             f"  {'label':<46}{'P':>8}{'R':>8}{'F1':>8}{'tp':>5}{'fp':>5}{'fn':>5}{'tn':>5}"]
    for lab, v in result["per_label"].items():
        lines.append(f"  {pad(cut(lab, 45), 46)}{v['precision']:>8.4f}{v['recall']:>8.4f}"
                     f"{v['f1']:>8.4f}"
                     f"{v['tp']:>5}{v['fp']:>5}{v['fn']:>5}{v['tn']:>5}")
    return "\n".join(lines)


def _fmt(v: Any) -> str:
    return "—" if v is None else (f"{v:.4f}" if isinstance(v, float) else str(v))


def _matrix_lines(who: list[str], matrix: dict[str, dict[str, Any]]) -> list[str]:
    w = max(8, *(cells(a) for a in who))
    lines = [" " * (w + 2) + "".join(pad(a, w + 2, ">") for a in who)]
    for a in who:
        lines.append(f"  {pad(a, w)}" + "".join(f"{_fmt(matrix[a][b]):>{w + 2}}" for b in who))
    return lines


def _subset_note(r: dict[str, Any]) -> str:
    """`` (29 of 227 documents: those all 7 annotators cover)`` when a many-annotator measure
    left documents out (Fleiss' κ, α_U and γ read only the documents every annotator covers)."""
    left = r.get("documents_left_out") or 0
    if not left:
        return ""
    return (f" ({r['documents']} of {r['documents'] + left} documents: those all "
            f"{len(r['annotators'])} annotators cover)")


PAIR_NOTES = {
    "span-f1": "Da San Martino et al. 2019, SemEval-2021 variant: a span overlapping spans of "
               "its label earns the share |s∩t|/|s| it covers, so it is not exact-match F1: one "
               "long span over two short ones scores close to 1",
    "mafalda-f1": "Helwe et al. 2024 (MAFALDA): partial credit for overlap, gold alternatives",
    "exact-f1": "exact-match (instance) F1, 2|A∩B| / (|A| + |B|) (Hripcsak & Rothschild 2005): "
                "a span agrees only with a span of the same start, end and label; a duplicate "
                "counts once; position: labels ignored",
}
"""What a pairwise F1 of ``agree`` measures, under its matrix: an annotation lead who compares
it with an exact-match (instance) F1, such as bratiaa's, must see why the two differ."""


def render_agree(result: dict[str, Any]) -> str:
    """Readable rendering: a matrix per pairwise measure, a value per many-annotator measure."""
    from core.metrics.agreement import MEASURES

    lines = [f"annotators: {', '.join(result['annotators'])}; documents: {result['documents']}; "
             f"labels: {len(result['labels'])}"]
    for m in MEASURES:
        r = result.get(m)
        if r is None:
            continue
        lines.append("")
        if r["kind"] == "pairwise":
            note = "" if r["symmetric"] else " (row = reference, column = compared)"
            lines.append(f"{m}{note}:")
            if m in PAIR_NOTES:
                lines.append(f"  ({PAIR_NOTES[m]})")
            lines.extend(_matrix_lines(r["annotators"], r["matrix"]))
            for key in sorted(k for k in r if k.startswith("matrix_")):
                who = r["annotators"]
                if r["symmetric"]:
                    vals = [f"{a}|{b}={_fmt(r[key][a][b])}" for i, a in enumerate(who)
                            for b in who[i + 1:]]
                    lines.append(f"  {key[7:]}: " + ", ".join(vals))
                else:
                    lines.append(f"  {key[7:]}:")
                    lines.extend("  " + x for x in _matrix_lines(who, r[key]))
            reasons = {p["overall"].get("reason") for p in r["pairs"].values()} - {None}
            lines.extend(f"  undefined: {why}" for why in sorted(reasons))
        else:
            extra = ""
            if m.startswith("gamma"):
                extra = (f"  (samples {r['samples']}, seed {r['seed']}, sampler {r['sampler']}, "
                         f"documents {r['documents']})")
                sd = r["overall"].get("gamma_mc_sd")
                if sd is not None:
                    extra = f" ± {2 * sd:.4f}" + extra
            lines.append(f"{m}: {_fmt(r['value'])}{_subset_note(r)}{extra}")
            if r["overall"].get("reason"):
                lines.append(f"  undefined: {r['overall']['reason']}")
            if (wc := r.get("without_constant_labels")) is not None:
                left = ", ".join(wc.get("labels_left_out", [])) or "none"
                lines.append(f"  without the labels every annotator used in every document "
                             f"({left}): {_fmt(wc['value'])}"
                             + (f"  ({wc['reason']})" if wc.get("reason") else ""))
            for lab, v in r["per_label"].items():
                why = f"  ({v['reason']})" if v.get("reason") else ""
                lines.append(f"  {lab}: {_fmt(v['value'])}{why}")
        ranking = r.get("document_ranking")
        if ranking:
            lines.append("  most disagreement: " + ", ".join(
                f"{x['doc']}={_fmt(x['value'])}" for x in ranking[:10]))
    return "\n".join(lines)


def render_nervaluate(result: dict[str, Any]) -> str:
    """The four schemas as a table, then per label."""
    labels = list(result["strict"]["per_label"])
    width = max(9, *(cells(lab) + 2 for lab in labels)) if labels else 9
    head = (f"{'schema':<{width}}{'COR':>6}{'INC':>6}{'PAR':>6}{'MIS':>6}{'SPU':>6}{'POS':>6}"
            f"{'ACT':>6}{'P':>9}{'R':>9}{'F1':>9}")
    lines = ["SemEval-2013 Task 9.1 schemas (nervaluate)", head]

    def row(name: str, v: dict[str, Any]) -> str:
        return (f"{pad(name, width)}{v['correct']:>6}{v['incorrect']:>6}{v['partial']:>6}"
                f"{v['missed']:>6}{v['spurious']:>6}{v['possible']:>6}{v['actual']:>6}"
                f"{v['precision']:>9.4f}{v['recall']:>9.4f}{v['f1']:>9.4f}")

    for schema in SCHEMAS:
        lines.append(row(schema, result[schema]))
    for schema in SCHEMAS:
        if not labels:
            break
        lines.append("")
        lines.append(f"per label, {schema}:")
        lines.append(head.replace("schema", "label "))
        for lab in labels:
            lines.append(row(lab, result[schema]["per_label"][lab]))
    lines.append(f"documents: {result['documents']}")
    return "\n".join(lines)


def render_errors(result: dict[str, Any]) -> str:
    """The overall table (reference and prediction columns), then one row per label."""
    ref, pred = result["overall"]["reference"], result["overall"]["prediction"]
    lines = [f"Error categories of {result['system']} against {result['reference']} "
             f"(level {result['level']}, {result['documents']} documents)",
             f"  {'category':<16}{'reference':>10}{'prediction':>12}"]
    for cat in result["categories"]:
        r = ref.get(cat, "-")
        p = pred.get(cat, "-")
        lines.append(f"  {cat:<16}{r!s:>10}{p!s:>12}")
    lines.append(f"  {'total':<16}{ref['total']:>10}{pred['total']:>12}")
    dup = result["duplicates"]
    if dup["reference"] or dup["prediction"]:
        lines.append(f"  duplicates (counted above too): reference {dup['reference']}, "
                     f"prediction {dup['prediction']}")
    if result["per_label"]:
        cats = list(result["categories"])
        width = max(12, *(len(lab) for lab in result["per_label"])) + 2
        lines.append("")
        lines.append("per label (reference/prediction):")
        lines.append("  " + f"{'label':<{width}}" + "".join(f"{c:>16}" for c in cats))
        for lab, v in result["per_label"].items():
            cells = []
            for c in cats:
                r = v["reference"].get(c) if c in REFERENCE_CATEGORIES else None
                p = v["prediction"].get(c) if c in PREDICTION_CATEGORIES else None
                cells.append(f"{'-' if r is None else r}/{'-' if p is None else p}")
            lines.append("  " + f"{lab[:width - 1]:<{width}}" + "".join(f"{x:>16}" for x in cells))
    if "spans" in result:
        lines.append("")
        lines.extend(_error_span_lines(result["spans"]))
    return "\n".join(lines)


def _error_span_lines(spans: list[dict[str, Any]]) -> list[str]:
    """``errors --spans``: one line per span (document, side, span, label, category, then the
    span of the other side that decided it, as in ``docs/errors.md``); names are never cut."""
    def span(start: Any, end: Any) -> str:
        return f"[{start}, {end})"

    rows = [(one_line(str(s["document"])), s["side"], span(s["start"], s["end"]),
             one_line(s["label"]), s["category"] + (" (duplicate)" if s["duplicate"] else ""),
             "" if s["partner_start"] is None else
             f"{span(s['partner_start'], s['partner_end'])} "
             f"{one_line(' | '.join(s['partner_labels']))}, overlap {s['overlap']}")
            for s in spans]
    head = ("document", "side", "span", "label", "category", "decided by")
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head[:-1])]
    def line(cells: tuple[str, ...]) -> str:
        padded = (f"{c:<{w}}" for c, w in zip(cells[:-1], widths, strict=True))
        return ("  " + "  ".join(padded) + "  " + cells[-1]).rstrip()

    return [f"spans ({len(rows)}):", line(head), *(line(r) for r in rows)]


def render_slices(result: dict[str, Any]) -> str:
    """One row per system and bucket: counts, P/R/F1 and the F1 interval."""
    lines = [f"Scores per {result['dimension']} bucket ({result['metric']}); [low, high]: 95% "
             f"bootstrap interval of F1 ({result['samples']} resamples, seed {result['seed']})"]
    # columns as wide as the longest name: a set name is never cut (issue 26)
    sw = max([16, *(len(r["system"]) + 1 for r in result["buckets"])])
    bw = max([22, *(len(r["bucket"]) + 1 for r in result["buckets"])])
    lines.append(f"  {'system':<{sw}}{'bucket':<{bw}}{'docs':>6}{'#ref':>6}{'#pred':>6}{'P':>8}"
                 f"{'R':>8}{'F1':>8}  interval")
    for r in result["buckets"]:
        iv = (f"[{r['F1 low']:.3f}, {r['F1 high']:.3f}]" if r.get("F1 low") is not None
              else "—" if "F1 low" in r else "")  # "—": one document, no interval
        lines.append(f"  {r['system']:<{sw}}{r['bucket']:<{bw}}{r['documents']:>6}"
                     f"{r['reference spans']:>6}{r['predicted spans']:>6}{r['P']:>8.3f}"
                     f"{r['R']:>8.3f}{r['F1']:>8.3f}  {iv}")
    if any(r.get("F1 low") is None and "F1 low" in r for r in result["buckets"]):
        lines[0] += "; —: a bucket of one document, no interval"
    return "\n".join(lines)




ADJUDICATE_SHOWN = 20
"""Spans dropped below k that ``adjudicate``'s text output lists (the JSON lists every one)."""


def render_adjudicate(result: dict[str, Any]) -> str:
    """The consensus in three lines, the spans dropped because fewer than k annotators marked
    them (who did), then every tie and conflict with its reason."""
    lines = [f"consensus of {', '.join(result['annotators'])}: k={result['min_agree']}, "
             f"match={result['match']}, boundaries={result['boundaries']}",
             f"{result['kept']} kept, {result['dropped']} dropped of {result['decisions']} "
             f"proposed spans in {result['documents']} documents; {result['disputed']} disputed",
             f"wrote {result['spans']} spans as {result['format']} to {result['output']}"
             + (f"; decisions to {result['decisions_file']}" if result["decisions_file"]
                else "")]
    if result.get("undecided_ties"):
        lines[-1] += (f"; {result['undecided_ties']} span(s) with tied labels left undecided, "
                      "not written (listed under ties"
                      + (" and in the decisions file" if result["decisions_file"] else "")
                      + "; --ties keep-all writes each tied label)")
    below = result.get("dropped_below_k") or []
    lines.append("")
    lines.append(f"dropped, marked by fewer than k={result['min_agree']} ({len(below)}):" if below
                 else f"dropped, marked by fewer than k={result['min_agree']}: none")
    lines.extend(f"  {r['id']} [{r['start']}, {r['end']}) {r['label']}: "
                 f"{', '.join(r['annotators'])}" for r in below[:ADJUDICATE_SHOWN])
    if len(below) > ADJUDICATE_SHOWN:
        lines.append(f"  {len(below) - ADJUDICATE_SHOWN} more (with --json, or --decisions "
                     "FILE: every one)")
    for kind in ("ties", "conflicts"):
        rows = result[kind]
        lines.append("")
        lines.append(f"{kind} ({len(rows)}):" if rows else f"{kind}: none")
        lines.extend(f"  {r['id']} [{r['start']}, {r['end']}) {r['label']}: {r['decision']} "
                     f"({', '.join(r['flags'])}) - {r['why']}" for r in rows)
    return "\n".join(lines)

RENDERERS: dict[str, Renderer] = {
    "martino": render_martino,
    "mafalda": render_mafalda,
    "hateval-a": render_hateval,
    "hateval-b": render_hateval,
    "text-labels": render_text_labels,
    "nervaluate": render_nervaluate,
}
"""Metric name -> its text report (others: :func:`render_generic`)."""


def renderer_for(metric: str) -> Renderer:
    return RENDERERS.get(metric, render_generic)
