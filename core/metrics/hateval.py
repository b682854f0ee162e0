"""HatEval 2019 (SemEval-2019 Task 5) evaluation, tasks A and B.

What it measures
----------------
Task A (hate speech detection): accuracy, and precision, recall and F1 macro-averaged over the
classes present in gold and prediction (per class too). Task B (aggressive behaviour and target
classification): for each of HS, TR (target range) and AG (aggressiveness) accuracy and macro
P/R/F1; their mean macro-F1 (the "partial match" score); and the Exact Match Ratio (EMR), the
fraction of texts whose three labels are all right, which ranked task B. Source: the task's
evaluation page (Basile et al. 2019) and the official program (``docs/text-level.md``). The
page writes F1 = (2·P·R)/(P·R); that is a typo for the harmonic mean 2PR/(P+R), implemented here.

Input checks follow the final official program (``scoring_program.zip``), with clear errors
instead of ``sys.exit`` messages or crashes:

1. predicted ids missing from the gold are dropped, with a warning listing them;
2. a different number of texts is an error naming the gold ids without prediction;
3. a predicted value outside the gold column's values is an error naming ids and lines;
4. duplicate ids in either file are an error naming ids and lines (the official program lets a
   duplicate stand in for a missing id, ``hev_a_duplicate_id_replaces_missing_one``).

Where we differ: a single class everywhere is scored (the final program crashes unpacking the
per-class values, ``hev_a_single_class_everywhere_crash``; its macro values would be 1.0 for a
perfect prediction, as the older GitHub program returns); a first id that is not a number is a
data row unless ``header_rule="official"`` (``core.formats.hateval``).

Citation: V. Basile et al., SemEval-2019 Task 5: Multilingual Detection of Hate Speech Against
Immigrants and Women in Twitter, SemEval 2019.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from core.formats.hateval import COLUMNS, LONG_NAMES, HatEvalTable
from core.metrics.classification import multiclass_report
from core.model.errors import InputError, KindedText, format_ids

CARD = __doc__


def _duplicates(table: HatEvalTable) -> None:
    counts = Counter(table.ids)
    dups = [i for i, n in counts.items() if n > 1]
    if dups:
        lines_of = {d: [str(table.lines[k]) for k, x in enumerate(table.ids) if x == d]
                    for d in dups[:5]}
        where = "; ".join(f"{d!r} on lines {', '.join(ls)}" for d, ls in lines_of.items())
        raise InputError(f"{table.file}: duplicate ids ({len(dups)}): {where}; each text must "
                         "appear once (the official program would let a duplicate stand in for "
                         "a missing id)")


def align(gold: HatEvalTable, pred: HatEvalTable, columns: tuple[str, ...]
          ) -> tuple[dict[str, list[int]], dict[str, list[int]], list[str], list[str]]:
    """Check and pair gold and prediction rows; return (gold, pred) columns, ids, warnings."""
    _duplicates(gold)
    _duplicates(pred)
    for col in columns:
        if col not in pred.labels:
            raise InputError(f"{pred.file}: no {LONG_NAMES[col]} column (task B predictions "
                             "have 4 columns: id, HS, TR, AG)")
    warnings: list[str] = []
    gold_ids = set(gold.ids)
    extra = [i for i in pred.ids if i not in gold_ids]
    if extra:
        warnings.append(KindedText(f"{pred.file}: {len(extra)} predicted id(s) not in "
                                   f"{gold.file} dropped, as the official program does: "
                                   f"{format_ids(extra)}", "unknown-ids"))
    keep = [k for k, i in enumerate(pred.ids) if i in gold_ids]
    if len(keep) != len(gold.ids):
        missing = gold_ids - set(pred.ids)
        raise InputError(f"{pred.file} predicts {len(keep)} of the {len(gold.ids)} texts of "
                         f"{gold.file}; missing: {format_ids(missing)}")
    position = {i: k for k, i in enumerate(pred.ids)}
    g_cols: dict[str, list[int]] = {}
    p_cols: dict[str, list[int]] = {}
    for col in columns:
        allowed = set(gold.labels[col])
        values = [pred.labels[col][position[i]] for i in gold.ids]
        bad = [(i, v) for i, v in zip(gold.ids, values, strict=True) if v not in allowed]
        if bad:
            shown = ", ".join(f"{i!r} (line {pred.lines[position[i]]}): {v}" for i, v in bad[:5])
            raise InputError(f"{pred.file}: field '{col}': predicted values must be among the "
                             f"gold's {sorted(allowed)}; got {shown}"
                             + (f" and {len(bad) - 5} more" if len(bad) > 5 else ""))
        g_cols[col] = list(gold.labels[col])
        p_cols[col] = values
    return g_cols, p_cols, list(gold.ids), warnings


def _report(y_true: list[int], y_pred: list[int], col: str) -> dict[str, Any]:
    r = multiclass_report(y_true, y_pred, name=col)
    return {
        "accuracy": r.accuracy,
        "precision_macro": r.precision_macro,
        "recall_macro": r.recall_macro,
        "f1_macro": r.f1_macro,
        "per_class": {str(c): v.to_dict() for c, v in r.per_class.items()},
        "warnings": r.warnings,
    }


def _gold_check(gold: HatEvalTable, columns: tuple[str, ...]) -> None:
    """A gold file has 5 columns (id, text, HS, TR, AG), or a header naming the task's label
    columns (a relabelled release without texts, ``id,HS,TR,AG,...``)."""
    if gold.texts is None and not (gold.named and all(c in gold.labels for c in columns)):
        raise InputError(f"{gold.file}: a HatEval gold file has 5 columns (id, text, HS, TR, AG)"
                         + (", or a header naming id and " + ", ".join(columns)
                            if gold.named else ""))


def _columns_found(table: HatEvalTable) -> str:
    """The columns a file was read with, counted and named: the id, the text when the file has
    one (a gold file's layout), and the label columns (``5 (id, text, HS, TR, AG)``)."""
    names = ("id", *(("text",) if table.texts is not None else ()), *table.columns)
    return f"{len(names)} ({', '.join(names)})"


def evaluate_a(gold: HatEvalTable, pred: HatEvalTable) -> dict[str, Any]:
    """Task A: accuracy, macro and per-class P/R/F1 of HS."""
    _gold_check(gold, ("HS",))
    if pred.columns != ("HS",):
        raise InputError(f"{pred.file}: a task A prediction has 2 columns (id, HS), found "
                         f"{_columns_found(pred)}")
    g, p, ids, warnings = align(gold, pred, ("HS",))
    rep = _report(g["HS"], p["HS"], "HS")
    return {
        "metric": "hateval-a",
        "accuracy": rep["accuracy"],
        "precision_macro": rep["precision_macro"],
        "recall_macro": rep["recall_macro"],
        "f1_macro": rep["f1_macro"],
        "per_class": rep["per_class"],
        "documents": len(ids),
        "warnings": warnings + rep["warnings"],
    }


def evaluate_b(gold: HatEvalTable, pred: HatEvalTable) -> dict[str, Any]:
    """Task B: per-dimension accuracy and macro P/R/F1, their mean macro-F1, and EMR."""
    _gold_check(gold, COLUMNS)
    if pred.columns != COLUMNS:
        raise InputError(f"{pred.file}: a task B prediction has 4 columns (id, HS, TR, AG), "
                         f"found {_columns_found(pred)}")
    g, p, ids, warnings = align(gold, pred, COLUMNS)
    reps = {c: _report(g[c], p[c], c) for c in COLUMNS}
    exact = sum(1 for k in range(len(ids)) if all(g[c][k] == p[c][k] for c in COLUMNS))
    return {
        "metric": "hateval-b",
        "accuracy": {c: reps[c]["accuracy"] for c in COLUMNS},
        "precision_macro": {c: reps[c]["precision_macro"] for c in COLUMNS},
        "recall_macro": {c: reps[c]["recall_macro"] for c in COLUMNS},
        "f1_macro": {c: reps[c]["f1_macro"] for c in COLUMNS},
        "macro_f1": sum(reps[c]["f1_macro"] for c in COLUMNS) / len(COLUMNS),
        "emr": exact / len(ids) if ids else 0.0,
        "per_class": {c: reps[c]["per_class"] for c in COLUMNS},
        "documents": len(ids),
        "warnings": warnings + [w for c in COLUMNS for w in reps[c]["warnings"]],
    }
