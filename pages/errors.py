"""Errors: what kind of mistakes each system makes, on which labels, and where (slices)."""

import hashlib

import pandas as pd
import streamlit as st

from core.analysis.slices import (
    META_PREFIX,
    META_RULE,
    METRICS,
    SPAN_DIMENSIONS,
    dimensions,
    meta_plan,
    parse_meta_csv,
)
from core.errors import FormatError
from core.metrics import registry
from ui import errors as err_ui
from ui import results, state
from ui.current import workspace_or_stop
from ui.escape import md
from ui.widgets import download_buttons, paginate

st.title("🔍 Errors")
ws = workspace_or_stop(2, "Error analysis needs a reference set and at least one other set.",
                       needs_spans=True)

names = list(ws.sets)
default_a, _ = state.default_pair(ws)
c1, c2 = st.columns([3, 1])
ref = c1.selectbox("Reference (gold)", names, index=names.index(default_a) if default_a else 0,
                   key=state.K_SET_A, bind="query-params")
level = int(c2.selectbox("Level", state.LEVELS, key=state.K_LEVEL, bind="query-params",
                         help="Labels are compared at this MAFALDA level: 2 as annotated, 1 "
                         "emotion / logic / credibility, 0 fallacy or not."))
systems = tuple(state.compared_sets(ws, ref))
if not systems:
    st.info("Only the reference set is loaded: add a system or annotator file.", icon="ℹ️")
    st.stop()
st.caption("Every reference span and every prediction gets one category from its best "
           "overlapping pair (docs/errors.md): " + "; ".join(
               f"**{c}**: {h}" for c, h in err_ui.CATEGORY_HELP.items()) + ".")

# Above err_ui.FILTER_AUTO_DOCS documents the schemas and slices are computed when asked.
n_docs = max(len(ws.sets[n].spans) for n in (ref, *systems))

# ---- categories ---------------------------------------------------------------------------------
st.subheader("Error categories, every system")
cats = err_ui.category_frame(ws.key, ws, ref, systems, level)
for row in cats[cats["category"] == "error"].itertuples():
    st.error(f"{md(row.system)} cannot be compared with {md(ref)}: "
             f"{md(row.note)}", icon="❌")
ok = cats[cats["category"] != "error"].reset_index(drop=True)
picked = st.dataframe(ok, hide_index=True, key=err_ui.K_ERR_TABLE, on_select="rerun",
                      selection_mode="single-row", placeholder="—")
st.caption("Select a row, or click a bar segment, to open the Documents page on the documents "
           "holding spans of that category.")
download_buttons(ok, "error_categories", key="dl_err_categories")
fig = err_ui.category_chart(ok)
event = st.plotly_chart(fig, key=err_ui.K_ERR_CHART, on_select="rerun",
                        selection_mode=("points",), config=err_ui.PLOTLY_CONFIG)
err_ui.chart_downloads(fig, "error_categories", key="dl_err_chart")

rows = picked["selection"]["rows"]
if rows:
    record = ok.iloc[rows[0]]
    err_ui.open_documents(ws, ref=ref, system=str(record["system"]), level=level,
                          category=str(record["category"]),
                          marker=("table", str(record["system"]), str(record["category"])))
hit = err_ui.clicked(event)
if hit:
    system, _, category = hit[:3]
    err_ui.open_documents(ws, ref=ref, system=str(system), level=level, category=str(category),
                          marker=("chart", *map(str, hit)))

with st.expander("SemEval-2013 schemas (strict, exact, partial, type), as nervaluate counts "
                 "them"):
    st.caption("One-to-one greedy alignment (docs/errors.md): COR correct, INC incorrect, PAR "
               "partial, MIS missed, SPU spurious; POS = COR+INC+PAR+MIS, ACT = "
               "COR+INC+PAR+SPU; partial and type give PAR half credit. `python -m core score "
               "--metric nervaluate` prints the same, per label too.")
    # Code in a collapsed expander runs all the same: on a large corpus the counts wait for
    # their toggle.
    if n_docs <= err_ui.FILTER_AUTO_DOCS or st.toggle(
            f"Count the schemas of all {n_docs:,} documents", key="err_schemas_on",
            persist_state="session"):
        schemas = err_ui.schema_frame(ws.key, ws, ref, systems)
        st.dataframe(schemas, hide_index=True, key="err_schema_table", placeholder="—")
        download_buttons(schemas, "semeval2013_schemas", key="dl_err_schemas")

st.markdown("**The spans of one category**")
l1, l2 = st.columns(2)
list_system = l1.selectbox("System", systems, key="err_list_system")
list_category = l2.selectbox("Category", [err_ui.ALL, *err_ui.CATEGORY_STYLE],
                             index=1 + list(err_ui.CATEGORY_STYLE).index("missed"),
                             key="err_list_category")
spans = err_ui.span_frame(ws.key, ws, ref, list_system, level, list_category)
st.dataframe(paginate(spans, key="err_list_page"), hide_index=True, key="err_span_table",
             column_config={"text": st.column_config.TextColumn(width="large")}, placeholder="—")
download_buttons(spans, f"spans_{list_category}_{list_system}", key="dl_err_spans")

# ---- per label ----------------------------------------------------------------------------------
st.subheader("Per label")
labels = err_ui.label_frame(ws.key, ws, ref, systems, level)
if len(labels):
    fig = err_ui.label_chart(labels, systems)
    event = st.plotly_chart(fig, key=err_ui.K_ERR_LABEL_CHART, on_select="rerun",
                            selection_mode=("points",), config=err_ui.PLOTLY_CONFIG)
    err_ui.chart_downloads(fig, "error_categories_per_label", key="dl_err_label_chart")
    # "label" is also a category: the label column is named "span label" here.
    wide = labels.rename(columns={"label": "span label"}).pivot_table(
        index=["system", "span label", "side"], columns="category", values="count",
        fill_value=0).reset_index()
    wide.columns.name = None
    st.dataframe(paginate(wide, key="err_label_page"), hide_index=True, key="err_label_table",
                 placeholder="—")
    download_buttons(labels, "error_categories_per_label", key="dl_err_labels")
    hit = err_ui.clicked(event)
    if hit:
        system, label, category = map(str, hit[:3])
        err_ui.open_documents(ws, ref=ref, system=system, level=level, category=category,
                              label=label, marker=("label", *map(str, hit)))
else:
    st.caption("No span to count.")

# ---- slices -------------------------------------------------------------------------------------
st.subheader("Slices: scores per bucket")
meta_file = st.file_uploader("Document metadata (CSV: an id column and any fields)",
                             type=["csv"], key=err_ui.K_ERR_META)
metadata, meta_key = None, ""
if meta_file is not None:
    data = meta_file.getvalue()
    try:
        metadata = parse_meta_csv(data.decode("utf-8-sig"), meta_file.name)
        meta_key = hashlib.sha256(data).hexdigest()
    except (FormatError, UnicodeDecodeError) as exc:
        st.error(f"{md(meta_file.name)}: {md(exc)}", icon="❌")
s1, s2, s3, s4, s5 = st.columns([2, 3, 1, 1, 1])
metric = s1.radio("Metric", list(METRICS), key=err_ui.K_ERR_METRIC, bind="query-params",
                  horizontal=True,
                  help="; ".join(f"{m}: {registry.get(m).description}" for m in METRICS))
entry = registry.get(metric)
ref_docs = ws.sets[ref].doc_ids
options = dimensions(metadata, ref_docs)
not_sliced = [f for f in meta_plan(metadata, ref_docs) if f.kind == "skipped"]
if not_sliced:
    st.caption(f"Metadata fields not sliced ({META_RULE}): "
               + "; ".join(f"**{md(f.name)}** ({md(f.why)})" for f in not_sliced) + ".")


def _dimension_name(d: str) -> str:
    if d.startswith(META_PREFIX):
        return f"metadata: {d[len(META_PREFIX):]}"
    return err_ui.DIMENSION_NAMES.get(d, d)


dimension = s2.selectbox("Bucket by", options, key=err_ui.K_ERR_DIM, bind="query-params",
                         format_func=_dimension_name)
measure = s3.radio("Show", err_ui.MEASURES, key=err_ui.K_ERR_MEASURE, bind="query-params")
n_boot = int(s4.number_input("Resamples", min_value=100, max_value=10000, step=100,
                             key=state.K_BOOT_N, persist_state="session"))
seed = int(s5.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1, key=state.K_SEED,
                           persist_state="session"))
variant = results.chosen_variant(entry)
slices_on = n_docs <= err_ui.FILTER_AUTO_DOCS or st.toggle(
    f"Score the slices: {n_boot:,} bootstrap resamples of {n_docs:,} documents per bucket",
    key="err_slices_on", persist_state="session",
    help=f"Off by default above {err_ui.FILTER_AUTO_DOCS:,} documents: the intervals rescore "
    "every bucket once per resample.")
if slices_on:
    slices, bucket_docs, refused = err_ui.slice_frame(
        ws.key, ws, ref, systems, metric, variant, level if entry.levels else 2, dimension,
        n_boot, seed, meta_key, metadata)
else:
    slices, bucket_docs, refused = pd.DataFrame(), {}, {}
for system, error in refused.items():
    st.error(f"{entry.title} ({variant}) cannot score {md(system)}: "
             f"{md(error)}", icon="❌")
rule = ("a span bucket holds the reference spans (recall) and predictions (precision) that "
        "fall in it" if dimension in SPAN_DIMENSIONS else
        "a document bucket holds whole documents: the metric on that sub-corpus")
if slices_on:
    st.caption(f"{entry.title} ({variant}"
               + (f", level {level}" if entry.levels else "") + f"); {rule}. Whiskers: 95% "
               f"bootstrap interval over documents ({n_boot:,} resamples, seed {seed}). Click a "
               "bar to open the documents behind it.")
if len(slices):
    title = f"{measure} per {_dimension_name(dimension)} against {ref}"
    fig = err_ui.slice_chart(slices, measure, title=title)
    event = st.plotly_chart(fig, key=err_ui.K_ERR_SLICE_CHART, on_select="rerun",
                            selection_mode=("points",), config=err_ui.PLOTLY_CONFIG)
    err_ui.chart_downloads(fig, f"slices_{dimension.replace(':', '_')}", key="dl_err_slices")
    shown = slices.drop(columns=["order", "dimension"])
    st.dataframe(paginate(shown, key="err_slice_page"), hide_index=True, key="err_slice_table",
                 placeholder="—")
    download_buttons(shown, f"slices_{dimension.replace(':', '_')}", key="dl_err_slice_table")
    hit = err_ui.clicked(event)
    if hit:
        system, bucket = map(str, hit[:2])
        held = bucket_docs.get((system, bucket)) or {"documents": (), "spans": ()}
        if dimension == "label":
            err_ui.open_documents(ws, ref=ref, system=system, level=level, label=bucket,
                                  marker=("slice", dimension, system, bucket))
        else:
            err_ui.open_documents(ws, ref=ref, system=system, level=level,
                                  documents=held["documents"], spans=held["spans"],
                                  what=f"{_dimension_name(dimension)}: {bucket}",
                                  marker=("slice", dimension, system, bucket))
elif slices_on:
    st.caption("No bucket holds a span.")

# ---- report -------------------------------------------------------------------------------------
st.subheader("Report")
st.caption("One HTML file that opens anywhere without a network: every system's scores with "
           "intervals, the error categories, the slices, the label confusion and the 20 worst "
           "documents side by side (the same as `python -m core report`).")
st.download_button(
    "⬇️ HTML report",
    lambda: err_ui.report_html(ws.key, ws, ref, systems, level, n_boot, seed, meta_key,
                               metadata),
    file_name=f"spanscope_report_{ref}.html", mime="text/html", key="dl_err_report",
    on_click="ignore")
