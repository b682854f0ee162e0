"""Learn: the seeds' worked examples as a playground; edit the predictions, every score follows."""

from collections import defaultdict
from typing import Any

import pandas as pd
import streamlit as st

from core import scenarios
from core.metrics import mafalda, martino
from core.model import NOTHING, Span
from ui import highlight, state
from ui.escape import md
from ui.widgets import download_buttons

state.init_state()  # a first deep link to /learn must still be served through app.py
st.title("🎓 Learn")
st.caption("Worked examples from the papers and the official scorers. Edit the predictions — add, "
           "delete, move a span, change its label — and every pair contribution C(s,t,h) and "
           "every score below is recomputed at once. The gold spans stay fixed.")

# ---- scenario -----------------------------------------------------------------------------------
ids = list(scenarios.SCENARIOS)
c1, c2 = st.columns([1, 2])
sid = c1.selectbox("Scenario", ids, key=state.K_SCENARIO, bind="query-params",
                   help="\n".join(f"- `{s.id}`: {s.title}" for s in scenarios.SCENARIOS.values()))
sc = scenarios.get(sid)
with c2:
    st.markdown(f"**{sc.title}**")
    st.caption(f"Source: {sc.source}")
st.info(sc.look_at, icon="👀")
if sc.level != 2:
    st.caption(f"This example is stated at MAFALDA level {sc.level}: labels are projected to "
               "their level-1 group (emotion, logic, credibility) before scoring, for the Da San "
               "Martino metric too (as App. D.1 does).")


# ---- predictions: committed rows, the editor, the sliders ---------------------------------------
def _scenario_rows(scenario: scenarios.Scenario) -> list[dict[str, Any]]:
    return [{"id": i, "start": s.start, "end": s.end, "label": s.label}
            for i, s in enumerate(scenario.pred, 1)]


def _bump(scenario_id: str) -> None:
    gens = st.session_state.setdefault(state.K_LEARN_GEN, {})
    gens[scenario_id] = gens.get(scenario_id, 0) + 1


def _moved(scenario_id: str, row_id: int, slider_key: str) -> None:
    """Fold the editor's current rows, with the moved span, into the committed rows."""
    start, end = st.session_state[slider_key]
    rows = [dict(r) for r in st.session_state[state.K_LEARN_SHOWN][scenario_id]]
    for r in rows:
        if r["id"] == row_id:
            r["start"], r["end"] = int(start), int(end)
    st.session_state[state.K_LEARN_ROWS][scenario_id] = rows
    st.session_state[state.K_LEARN_SHOWN][scenario_id] = rows
    _bump(scenario_id)


def _reset(scenario_id: str) -> None:
    st.session_state[state.K_LEARN_ROWS].pop(scenario_id, None)
    st.session_state[state.K_LEARN_SHOWN].pop(scenario_id, None)
    _bump(scenario_id)


committed = st.session_state.setdefault(state.K_LEARN_ROWS, {})
rows = committed[sid] if sid in committed else _scenario_rows(sc)
gen = st.session_state.setdefault(state.K_LEARN_GEN, {}).get(sid, 0)
editor_key = f"learn_editor::{sid}::{gen}"
last_shown = st.session_state.setdefault(state.K_LEARN_SHOWN, {}).get(sid)
if editor_key not in st.session_state and last_shown is not None and last_shown != rows:
    # The table was off screen (another scenario or page) and Streamlit dropped its edits; the
    # rows it last showed keep them.
    committed[sid] = rows = [dict(r) for r in last_shown]
choices = sc.label_choices()
n_chars = len(sc.text)

st.subheader("✏️ Predictions")
left, right = st.columns([3, 2])
with left:
    base = pd.DataFrame(rows, columns=["id", "start", "end", "label"]).set_index("id")
    base.index = base.index.astype("int64")
    edited = st.data_editor(
        base, key=editor_key, num_rows="dynamic", width="stretch",
        hide_index=False,
        column_config={
            "_index": st.column_config.NumberColumn("span", format="P%d", disabled=True),
            "start": st.column_config.NumberColumn(
                "start", min_value=0, max_value=n_chars - 1, step=1, required=True,
                help="Offset of the first character (0-based)."),
            "end": st.column_config.NumberColumn(
                "end", min_value=1, max_value=n_chars, step=1, required=True,
                help="Offset one past the last character (end-exclusive)."),
            "label": st.column_config.SelectboxColumn("label", options=choices, required=True),
        })
    st.caption(f"Offsets are characters of the {n_chars}-character text, `[start, end)`. Add a "
               "row with ➕ below the table, delete one by ticking it and pressing 🗑️.")
shown = [{k: (None if pd.isna(v) else v) for k, v in r.items()}
         for r in edited.reset_index(names="id").to_dict("records")]
st.session_state[state.K_LEARN_SHOWN][sid] = shown
valid, problems = scenarios.spans_from_rows(shown, text_length=n_chars)
if problems:
    st.warning("Rows left out of the scores until they are fixed:\n\n"
               + "\n".join(f"- {md(p)}" for p in problems), icon="⚠️")
pred_ids = [f"P{rid}" for rid, _ in valid]

with right:
    selected = None
    if valid:
        selected = st.selectbox("Move a prediction", pred_ids, key=state.K_LEARN_MOVE,
                                help="Drag its start and end; the table follows.")
        rid, span = valid[pred_ids.index(selected)]
        slider_key = f"learn_slider::{sid}::{gen}::{rid}::{span.start}::{span.end}"
        st.slider(f"{selected}: start and end", 0, n_chars, (span.start, span.end), step=1,
                  key=slider_key, on_change=_moved, args=(sid, rid, slider_key))
        st.caption(f"{selected} = [{span.start}, {span.end}) {md(span.label)}: "
                   f"“{md(sc.text[span.start:span.end])}” ({span.length} characters)")
    else:
        st.caption("No valid prediction to move: fix or add a row in the table.")
    st.button("↺ Reset the predictions", key="learn_reset", on_click=_reset, args=(sid,),
              help="Back to the scenario's own predictions.")


@st.cache_data(max_entries=256, show_spinner=False)
def evaluate(scenario_id: str, pred: tuple[tuple[int, int, str], ...]) -> scenarios.Evaluation:
    """Every score of the scenario for these predictions (core.scenarios.evaluate)."""
    return scenarios.evaluate(scenarios.get(scenario_id), [Span(*p) for p in pred])


def _key(spans: Any) -> tuple[tuple[int, int, str], ...]:
    return tuple((s.start, s.end, s.label) for s in spans)


ev = evaluate(sid, _key(s for _, s in valid))
original = evaluate(sid, _key(sc.pred))

# ---- the text -----------------------------------------------------------------------------------
gold_items = highlight.span_items(sc.gold_set(), scenarios.DOC, "G")
pred_items = [highlight.SpanItem(f"P{rid}", s.start, s.end, (s.label,)) for rid, s in valid]
gold_id = {it.interval: it.id for it in gold_items}
colours = highlight.label_colours([*choices, *(lab for it in gold_items for lab in it.labels),
                                   *(s.label for _, s in valid)])
sel_span = valid[pred_ids.index(selected)][1] if selected else None
partners = sorted({gold_id.get(r.gold.interval, "") for r in ev.pairs
                   if sel_span is not None and r.pred is not None and r.gold is not None
                   and r.pred.interval == sel_span.interval} - {""})
used = {lab for it in gold_items + pred_items for lab in it.labels}
st.html(highlight.legend(colours, used))
st.markdown(f"**Gold** · {len(gold_items)} span(s)")
st.html(highlight.render_lanes(sc.text, gold_items, colours, dom_id="learn-gold",
                               partners=partners))
if sc.alternatives:
    st.caption("A gold span tagged `A | B` may be matched by either label; ⊥ means it may also "
               "be left unpredicted (MAFALDA's alternatives).")
st.markdown(f"**Predictions** · {len(pred_items)} span(s)"
            + (f" · {selected} and the gold spans it overlaps are highlighted" if selected else ""))
st.html(highlight.render_lanes(sc.text, pred_items, colours, selected=selected,
                               dom_id="learn-pred"))


# ---- scores -------------------------------------------------------------------------------------
def _fmt(value: float | None) -> str:
    if value is None:
        return "—"
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    frac = scenarios.fraction_text(value)
    return f"{text} ({frac})" if "/" in frac else text


def _martino_row(run: scenarios.VariantScore) -> dict[str, Any]:
    row: dict[str, Any] = {"metric": "Da San Martino", "variant": run.name}
    res = run.result
    if res is None:
        return {**row, "P": None, "R": None, "F1": None, "P = Σ C(s,t,|s|) / |S|": "",
                "R = Σ C(s,t,|t|) / |T|": "", "note": f"refused: {run.error}"}
    return {**row, "P": res.precision, "R": res.recall, "F1": res.f1,
            "P = Σ C(s,t,|s|) / |S|": f"{res.p_num:.4g} / {res.p_den}",
            "R = Σ C(s,t,|t|) / |T|": f"{res.r_num:.4g} / {res.r_den}",
            "note": "; ".join(res.warnings)}


rows_scores = [_martino_row(run) for run in ev.runs]
maf = ev.mafalda
rows_scores.append({
    "metric": "MAFALDA", "variant": f"paper, level {sc.level}",
    "P": None if maf is None else maf.precision, "R": None if maf is None else maf.recall,
    "F1": None if maf is None else maf.f1,
    "P = Σ C(s,t,|s|) / |S|": "best gold match per prediction, best alternative",
    "R = Σ C(s,t,|t|) / |T|": "best prediction per gold span, ⊥ left out",
    "note": ev.mafalda_error or ""})
scores_df = pd.DataFrame(rows_scores)

st.subheader("📏 Scores")
st.caption("Recall under three Da San Martino variants and under MAFALDA, with P and F1 below"
           + (" (arrows: the change from the scenario's own predictions)." if ev.edited
              else "."))
tiles = st.columns(len(rows_scores))
before = [*original.runs, None]
for tile, row, run0 in zip(tiles, rows_scores, before, strict=True):
    name = row["variant"] if row["metric"] != "MAFALDA" else f"MAFALDA {row['variant']}"
    if row["R"] is None:
        tile.metric(name, "refused" if row["metric"] != "MAFALDA" else "—")
        tile.caption(row["note"].split(";")[0] + "; the reason in full is in the table.")
        continue
    r0 = (original.mafalda.recall if original.mafalda else None) if run0 is None else (
        run0.result.recall if run0.result is not None else None)
    delta = None
    if ev.edited and r0 is not None and abs(row["R"] - r0) > 1e-12:
        delta = f"{row['R'] - r0:+.4f}".rstrip("0").rstrip(".")
    tile.metric(f"{name} — recall", _fmt(row["R"]), delta=delta)
    tile.caption(f"P {_fmt(row['P'])} · F1 {_fmt(row['F1'])}")
st.dataframe(scores_df, hide_index=True, key="learn_scores", column_config={
    k: st.column_config.NumberColumn(k, format="%.4f") for k in ("P", "R", "F1")})
download_buttons(scores_df, f"scores_{sid}", key="dl_learn_scores")

# ---- the seed's numbers -------------------------------------------------------------------------
st.subheader("📖 What the seed says")
seed_rows = []
for exp in sc.expected:
    value = scenarios.measure(ev, exp)
    seed_rows.append({"quantity": exp.name, "seed": exp.shown, "computed now": _fmt(value),
                      "match": "—" if value is None else
                      ("✅" if scenarios.matches(value, exp) else "❌"),
                      "stated by": "the seed" if exp.quoted else "hand computation",
                      "source": exp.source})
seed_df = pd.DataFrame(seed_rows)
if ev.edited:
    st.caption("You have edited the predictions: the seed's numbers are for the scenario's own "
               "predictions (press ↺ Reset to see them match again).")
st.dataframe(seed_df, hide_index=True, key="learn_seed", column_config={
    "quantity": st.column_config.TextColumn(width="medium"),
    "source": st.column_config.TextColumn(width="large")})
download_buttons(seed_df, f"seed_{sid}", key="dl_learn_seed")

if sc.family:
    family = [s for s in scenarios.SCENARIOS.values() if s.family == sc.family]
    order = []
    for member in family:
        run = evaluate(member.id, _key(member.pred)).run("semeval2021")
        seed = next((e for e in member.expected if e.kind == "martino" and e.quantity == "R"
                     and e.quoted), None)
        order.append({"scenario": member.id,
                      "predictions": ", ".join(f"[{s.start}, {s.end}) {s.label}"
                                               for s in member.pred),
                      "R (computed)": None if run is None or run.result is None
                      else run.result.recall,
                      "R (seed)": seed.shown if seed else "—"})
    order_df = pd.DataFrame(order)
    st.markdown(f"**The seed's recall order** (each Figure 1 prediction set as given): "
                f"{scenarios.RECALL_ORDER}")
    st.dataframe(order_df, hide_index=True, key="learn_order", column_config={
        "R (computed)": st.column_config.NumberColumn(format="%.4f")})
    download_buttons(order_df, "figure1_recall_order", key="dl_learn_order")


# ---- pairs and best matches ---------------------------------------------------------------------
def _span_text(span: Span | None) -> str:
    if span is None:
        return ""
    return f"[{span.start}, {span.end}) {span.label}: “{sc.text[span.start:span.end]}”"


pred_id_queue: dict[tuple[int, int], list[str]] = defaultdict(list)
for rid, s in valid:
    pred_id_queue[s.interval].append(f"P{rid}")
taken: dict[tuple[tuple[int, int], tuple[int, int] | None], int] = defaultdict(int)


def _pred_id(span: Span | None, gold: Span | None) -> str:
    """Duplicates share an interval: give each pair with one gold span the next of their ids."""
    if span is None:
        return ""
    ids_here = pred_id_queue.get(span.interval) or ["P?"]
    k = (span.interval, None if gold is None else gold.interval)
    pid = ids_here[min(taken[k], len(ids_here) - 1)]
    taken[k] += 1
    return pid


st.subheader("🔍 Where the numbers come from")
st.markdown("**Da San Martino: every overlapping pair counts** (Eq. 1-3; 2021 variant, no "
            "merging)")
if ev.pairs_error:
    st.error(ev.pairs_error, icon="❌")
pairs_df = pd.DataFrame([{
    "pred": _pred_id(r.pred, r.gold),
    "gold": "" if r.gold is None else gold_id.get(r.gold.interval, "merged"),
    "pred span": _span_text(r.pred), "gold span": _span_text(r.gold),
    "|s∩t|": r.intersection, "|s|": r.pred_length or None, "|t|": r.gold_length or None,
    "δ": int(r.label_match), "C(s,t,|s|)": r.contribution_p, "C(s,t,|t|)": r.contribution_r,
} for r in ev.pairs], columns=["pred", "gold", "pred span", "gold span", "|s∩t|", "|s|", "|t|",
                               "δ", "C(s,t,|s|)", "C(s,t,|t|)"])
st.dataframe(pairs_df, hide_index=True, key="learn_pairs", column_config={
    c: st.column_config.NumberColumn(format="%.4f") for c in ("C(s,t,|s|)", "C(s,t,|t|)")})
run21 = ev.run("semeval2021")
if run21 is not None and run21.result is not None:
    res = run21.result
    st.caption(f"P = Σ C(s,t,|s|) / |S| = {res.p_num:.4g} / {res.p_den} = {_fmt(res.precision)}; "
               f"R = Σ C(s,t,|t|) / |T| = {res.r_num:.4g} / {res.r_den} = {_fmt(res.recall)}. "
               "Spans that overlap nothing are listed with 0; a pair whose labels differ has "
               "δ = 0.")
download_buttons(pairs_df, f"pairs_{sid}", key="dl_learn_pairs")

st.markdown(f"**MAFALDA: only the best match counts** (§5.2.2, App. D; paper variant, level "
            f"{sc.level})")
written = {lab.lower(): lab for lab in [*choices, *(s.label for s in sc.gold)]}


def _name(label: str | None) -> str:
    """The label as the scenario writes it (the taxonomy lower-cases names)."""
    return "⊥ (left out)" if label is None else written.get(label.lower(), label)


if ev.mafalda_error or ev.explain is None:
    st.error(ev.mafalda_error or "MAFALDA cannot score this input.", icon="❌")
else:
    best_p = pd.DataFrame([{
        "pred": pred_ids[k] if k < len(pred_ids) else "", "label": _name(r["label"]),
        "best gold": "" if r["matched_gold"] is None
        else gold_id.get(tuple(r["matched_gold"]), str(r["matched_gold"])),
        "C(s,t,|s|)": r["contribution_p"],
    } for k, r in enumerate(ev.explain["predictions"])],
        columns=["pred", "label", "best gold", "C(s,t,|s|)"])
    best_r = pd.DataFrame([{
        "gold": gold_id.get((r["start"], r["end"]), ""),
        "alternatives": " | ".join("⊥" if a == NOTHING else a for a in r["alternatives"]),
        "label recall takes": _name(r["recall_label"]),
        "best prediction": "" if r["best_prediction"] is None
        else (pred_id_queue.get(tuple(r["best_prediction"])) or ["?"])[0],
        "C(s,t,|t|)": r["contribution_r"],
    } for r in ev.explain["gold"]],
        columns=["gold", "alternatives", "label recall takes", "best prediction", "C(s,t,|t|)"])
    st.caption("Precision: each prediction's best gold span, max over t of C(s,t,|s|).")
    st.dataframe(best_p, hide_index=True, key="learn_best_p", column_config={
        "C(s,t,|s|)": st.column_config.NumberColumn(format="%.4f")})
    download_buttons(best_p, f"mafalda_precision_{sid}", key="dl_learn_best_p")
    caption = ("Recall: each gold span's best prediction, max over s of C(s,t,|t|), with the "
               "label the best alternative picks for it.")
    if any(r["optional"] and r["recall_label"] is None for r in ev.explain["gold"]):
        caption += (" An optional span (⊥ among its alternatives) is left out when counting it "
                    "would lower the recall.")
    st.caption(caption)
    st.dataframe(best_r, hide_index=True, key="learn_best_r", column_config={
        "C(s,t,|t|)": st.column_config.NumberColumn(format="%.4f")})
    download_buttons(best_r, f"mafalda_recall_{sid}", key="dl_learn_best_r")
    if maf is not None:
        st.caption(f"P = {_fmt(maf.precision)}, R = {_fmt(maf.recall)}, F1 = {_fmt(maf.f1)} "
                   "(one text, so nothing is averaged).")

# ---- alternatives -------------------------------------------------------------------------------
if ev.alternatives:
    st.subheader("🔀 The gold's alternatives")
    alt_df = pd.DataFrame([{
        "alternative": a.name,
        "spans": " · ".join(
            f"{gold_id.get(s.interval, '?')} {'⊥' if s.label == NOTHING else s.label}"
            for s in a.spans),
        "|T|": a.size, "|T⁻| (⊥ left out)": a.mandatory,
        "Precision(S, T)": a.precision, "Recall(S, T)": a.recall,
    } for a in ev.alternatives])
    st.dataframe(alt_df, hide_index=True, key="learn_alts", column_config={
        c: st.column_config.NumberColumn(format="%.4f")
        for c in ("Precision(S, T)", "Recall(S, T)")})
    if maf is not None:
        st.caption(f"MAFALDA takes the best alternative for precision and for recall "
                   f"separately: P = max = {_fmt(maf.precision)}, R = max = {_fmt(maf.recall)}. "
                   "Each row is scored by core.metrics.mafalda against that alternative alone; "
                   "the metric itself never enumerates them.")
    download_buttons(alt_df, f"alternatives_{sid}", key="dl_learn_alts")

# ---- per label ----------------------------------------------------------------------------------
st.subheader("🏷️ Per label: correct vs the official scorer")
if run21 is None or run21.result is None:
    st.info(f"The 2021 variant refused this input: {run21.error if run21 else ''}", icon="ℹ️")
else:
    correct = run21.result.per_label()
    official = ev.official.per_label_official_detail() if ev.official is not None else {}
    label_rows = [{"label": lab, "gold spans": v["gold_count"], "predicted spans": v["pred_count"],
                   "P": v["precision"], "R (correct)": v["recall"], "F1 (correct)": v["f1"],
                   "R (official scorer)": official.get(lab, {}).get("recall"),
                   "F1 (official scorer)": official.get(lab, {}).get("f1")}
                  for lab, v in correct.items() if v["gold_count"] or v["pred_count"]]
    label_df = pd.DataFrame(label_rows, columns=[
        "label", "gold spans", "predicted spans", "P", "R (correct)", "F1 (correct)",
        "R (official scorer)", "F1 (official scorer)"])
    if not official:
        label_df = label_df.drop(columns=["R (official scorer)", "F1 (official scorer)"])
    st.dataframe(label_df, hide_index=True, key="learn_labels", column_config={
        c: st.column_config.NumberColumn(format="%.4f")
        for c in label_df.columns if c == "P" or c.startswith(("R (", "F1 ("))})
    if official:
        absent = [lab for lab in official if lab not in set(label_df["label"])]
        st.caption("The official scorers' per-technique recall divides the *precision* sum "
                   "Σ C(s,t,|s|) by |T_L| (official-scorers.md §2.1); the correct one divides "
                   f"Σ C(s,t,|t|). The {len(absent)} techniques absent from both sides print "
                   "F1 = 1.0 in the official output.")
    else:
        st.caption(f"No official per-technique column: {ev.official_note}.")
    download_buttons(label_df, f"per_label_{sid}", key="dl_learn_labels")

# ---- metric cards -------------------------------------------------------------------------------
st.subheader("📘 Metric cards")
st.caption("The module docstrings of core/metrics/martino.py and core/metrics/mafalda.py, the same "
           "text that documents the code.")
with st.expander("Da San Martino et al. (2019) span metric", expanded=False):
    st.markdown(scenarios.card_markdown(martino.CARD))
with st.expander("MAFALDA metric (Helwe et al. 2024)", expanded=False):
    st.markdown(scenarios.card_markdown(mafalda.CARD))
