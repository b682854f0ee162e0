"""The Learn page's tables, built from one :class:`core.teaching.scenarios.Evaluation`.

Every number comes from ``core`` (the scenario's evaluation: Martino runs, the pair table of
:func:`core.metrics.martino.contributions`, MAFALDA's typed explanation, the alternatives); these
functions only lay them out with the span ids the page draws (``G1``, ``P2``). Streamlit-free:
the page (:mod:`ui.learn`) and the exercise (:mod:`ui.exercise`) both use them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import pandas as pd

from core.model import NOTHING, Span
from core.teaching import scenarios
from ui.results import MERGE_HINT

Valid = Sequence[tuple[int, Span]]
"""The editor's valid prediction rows: (row id, span)."""


def fmt(value: float | None) -> str:
    """A score with its exact fraction when it has a short one (``0.375 (3/8)``)."""
    if value is None:
        return "—"
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    frac = scenarios.fraction_text(value)
    return f"{text} ({frac})" if "/" in frac else text


@dataclass(frozen=True)
class ScoreRow:
    """One metric run of the scenario (``P``, ``R``, ``F1`` None: the metric refused it)."""

    metric: str
    variant: str
    P: float | None
    R: float | None
    F1: float | None
    p_sum: str
    r_sum: str
    note: str
    labels: str = "as written"

    def record(self) -> dict[str, str | float | None]:
        return {"metric": self.metric, "variant": self.variant, "labels": self.labels,
                "P": self.P, "R": self.R,
                "F1": self.F1, "P = Σ C(s,t,|s|) / |S|": self.p_sum,
                "R = Σ C(s,t,|t|) / |T|": self.r_sum, "note": self.note}


MERGE_HINT_LEARN = ("the command line merges overlapping predictions first with --merge-pred "
                    "(-m), as the “nlp4if2019 -m” row does here; or edit the predictions so that "
                    "none overlaps another")
"""What Learn says in place of the metric's ``merge_pred=True (-m)`` (a Python parameter): the
command-line option and what to do on this page (:data:`ui.results.MERGE_HINT`)."""


def _martino_row(run: scenarios.VariantScore) -> ScoreRow:
    res = run.result
    if res is None:
        return ScoreRow("Da San Martino", run.name, None, None, None, "", "",
                        f"refused: {(run.error or '').replace(MERGE_HINT, MERGE_HINT_LEARN)}")
    return ScoreRow("Da San Martino", run.name, res.precision, res.recall, res.f1,
                    f"{res.p_num:.4g} / {res.p_den}", f"{res.r_num:.4g} / {res.r_den}",
                    "; ".join(res.warnings))


def score_rows(ev: scenarios.Evaluation, sc: scenarios.Scenario) -> list[ScoreRow]:
    """One row per Martino variant the scenario runs, and one for MAFALDA; ``labels`` says the
    setting every row is scored at (the level-1 groups for a level-1 scenario)."""
    labels = "as written" if sc.level == 2 else f"level {sc.level} groups"
    rows = [replace(_martino_row(run), labels=labels) for run in ev.runs]
    maf = ev.mafalda
    rows.append(ScoreRow(
        "MAFALDA", f"paper, level {sc.level}", None if maf is None else maf.precision,
        None if maf is None else maf.recall, None if maf is None else maf.f1,
        "best gold match per prediction, best alternative",
        "best prediction per gold span, ⊥ left out", ev.mafalda_error or "", labels))
    return rows


def seed_table(ev: scenarios.Evaluation, sc: scenarios.Scenario) -> pd.DataFrame:
    """Each number the published source states (``stated``; "seed" is the random seed's word
    elsewhere, bugleft20), the value computed now and whether they match."""
    rows = []
    for exp in sc.expected:
        value = scenarios.measure(ev, exp)
        rows.append({"quantity": exp.name, "stated": exp.shown, "computed now": fmt(value),
                     "match": "—" if value is None else
                     ("✅" if scenarios.matches(value, exp) else "❌"),
                     "stated by": "the source" if exp.quoted else "hand computation",
                     "source": exp.source})
    return pd.DataFrame(rows)


def recall_order_table(sc: scenarios.Scenario,
                       evaluate: Callable[[scenarios.Scenario], scenarios.Evaluation]
                       ) -> pd.DataFrame:
    """Recall of every scenario of ``sc``'s family with its own predictions, and the source's."""
    order = []
    for member in (s for s in scenarios.SCENARIOS.values() if s.family == sc.family):
        run = evaluate(member).run("semeval2021")
        stated = next((e for e in member.expected if e.kind == "martino" and e.quantity == "R"
                     and e.quoted), None)
        order.append({"scenario": member.id,
                      "predictions": ", ".join(f"[{s.start}, {s.end}) {s.label}"
                                               for s in member.pred),
                      "R (computed)": None if run is None or run.result is None
                      else run.result.recall,
                      "R (stated)": stated.shown if stated else "—"})
    return pd.DataFrame(order)


def pred_id_queue(valid: Valid) -> dict[tuple[int, int], list[str]]:
    """Prediction ids by interval (duplicates share an interval)."""
    queue: dict[tuple[int, int], list[str]] = defaultdict(list)
    for rid, s in valid:
        queue[s.interval].append(f"P{rid}")
    return queue


def pairs_table(ev: scenarios.Evaluation, sc: scenarios.Scenario, valid: Valid,
                gold_id: Mapping[tuple[int, int], str]) -> pd.DataFrame:
    """Martino's pair table (2021 variant) with the page's span ids and fragments: the counts
    and the contributions first, the quoted spans last, so the numbers stay in view on a laptop
    screen (the long texts before them pushed C(s,t,|t|) past its right edge)."""
    queue = pred_id_queue(valid)
    taken: dict[tuple[tuple[int, int], tuple[int, int] | None], int] = defaultdict(int)

    def pred_id(span: Span | None, gold: Span | None) -> str:
        """Duplicates share an interval: each pair with one gold span takes the next id."""
        if span is None:
            return ""
        ids_here = queue.get(span.interval) or ["P?"]
        k = (span.interval, None if gold is None else gold.interval)
        pid = ids_here[min(taken[k], len(ids_here) - 1)]
        taken[k] += 1
        return pid

    def span_text(span: Span | None) -> str:
        if span is None:
            return ""
        return f"[{span.start}, {span.end}) {span.label}: “{sc.text[span.start:span.end]}”"

    return pd.DataFrame([{
        "pred": pred_id(r.pred, r.gold),
        "gold": "" if r.gold is None else gold_id.get(r.gold.interval, "merged"),
        "pred span": span_text(r.pred), "gold span": span_text(r.gold),
        "|s∩t|": r.intersection, "|s|": r.pred_length or None, "|t|": r.gold_length or None,
        "δ": int(r.label_match), "C(s,t,|s|)": r.contribution_p,
        "C(s,t,|t|)": r.contribution_r,
    } for r in ev.pairs], columns=["pred", "gold", "|s∩t|", "|s|", "|t|", "δ", "C(s,t,|s|)",
                                   "C(s,t,|t|)", "pred span", "gold span"])


def mafalda_tables(ev: scenarios.Evaluation, valid: Valid,
                   gold_id: Mapping[tuple[int, int], str],
                   name: Callable[[str | None], str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """MAFALDA's precision rows (each prediction's best gold span) and recall rows (each gold
    span's best prediction and the label the best alternative takes), from its explanation."""
    assert ev.explain is not None
    pred_ids = [f"P{rid}" for rid, _ in valid]
    best_p = pd.DataFrame([{
        "pred": pred_ids[k] if k < len(pred_ids) else "", "label": name(r.label),
        "best gold": "" if r.matched_gold is None
        else gold_id.get(r.matched_gold, str(list(r.matched_gold))),
        "C(s,t,|s|)": r.contribution_p,
    } for k, r in enumerate(ev.explain.predictions)],
        columns=["pred", "label", "best gold", "C(s,t,|s|)"])
    best_r = pd.DataFrame([{
        "gold": gold_id.get((r.start, r.end), ""),
        "alternatives": " | ".join("⊥" if a == NOTHING else a for a in r.alternatives),
        "label recall takes": name(r.recall_label),
        # by its index: an interval can hold predictions of several labels (review20)
        "best prediction": "" if r.best_index is None or r.best_index >= len(pred_ids)
        else pred_ids[r.best_index],
        "C(s,t,|t|)": r.contribution_r,
    } for r in ev.explain.gold],
        columns=["gold", "alternatives", "label recall takes", "best prediction", "C(s,t,|t|)"])
    return best_p, best_r


def alternatives_table(ev: scenarios.Evaluation,
                       gold_id: Mapping[tuple[int, int], str]) -> pd.DataFrame:
    """Each alternative of the gold scored alone (what MAFALDA maximises over)."""
    return pd.DataFrame([{
        "alternative": a.name,
        "spans": " · ".join(
            f"{gold_id.get(s.interval, '?')} {'⊥' if s.label == NOTHING else s.label}"
            for s in a.spans),
        "|T|": a.size, "|T⁻| (⊥ left out)": a.mandatory,
        "Precision(S, T)": a.precision, "Recall(S, T)": a.recall,
    } for a in ev.alternatives])


def label_table(ev: scenarios.Evaluation) -> pd.DataFrame:
    """Per label: the correct P/R/F1 of the 2021 variant and, when the scenario has an official
    technique list, what the official scorer prints (its recall reuses the precision sum)."""
    run21 = ev.run("semeval2021")
    assert run21 is not None and run21.result is not None
    official = ev.official.per_label_official_detail() if ev.official is not None else {}
    rows = [{"label": lab, "gold spans": v.recall_denominator,
             "predicted spans": v.precision_denominator,
             "P": v.precision, "R (correct)": v.recall, "F1 (correct)": v.f1,
             "R (official scorer)": official.get(lab, {}).get("recall"),
             "F1 (official scorer)": official.get(lab, {}).get("f1")}
            for lab, v in run21.result.per_label().items()
            if v.recall_denominator or v.precision_denominator]
    table = pd.DataFrame(rows, columns=[
        "label", "gold spans", "predicted spans", "P", "R (correct)", "F1 (correct)",
        "R (official scorer)", "F1 (official scorer)"])
    if not official:
        table = table.drop(columns=["R (official scorer)", "F1 (official scorer)"])
    return table
