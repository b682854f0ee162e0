"""The Annotators page's cached computations, background jobs, tables and figures.

Every number comes from :mod:`core.metrics.agreement` (the measures, and
:mod:`core.metrics.agreement.panel` for the majority set, any measure over pairs, each annotator
against a reference, the document ranking and :func:`~core.metrics.agreement.measure_view`, all
of it for one measure); this module caches those results per workspace and turns them into
tables and plotly figures.

γ and γ-cat sample chance continua and take seconds on a corpus (``docs/agreement.md``), so they
run in the background: :func:`gamma_job` and, for the γ measures, :func:`view_job` return a
:class:`Job` at once, kept per (workspace key, sets, label, seed, samples) with
``st.cache_resource``. The work runs in one worker *process* (:mod:`ui.jobs`,
:mod:`ui.gamma_worker`: a thread would hold the interpreter lock against every page run, and two
cores are shared by everyone, so jobs queue rather than compete), which reports progress. The
page shows a
:func:`progress` fragment that polls the job and reruns the page when it is done; the rest of
the page stays usable meanwhile. Every other measure takes well under a second and is computed
in the script run (:func:`measure_view`), up to :data:`BACKGROUND_DOCS` documents; above it
they run in the worker too, and the measures not chosen yet are queued behind the page's jobs
(:func:`prefetch`), so that a switch of measure finds its matrix computed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import plotly.colors as pcolors
import plotly.graph_objects as go
import streamlit as st

from core.metrics.agreement import (
    MEASURES,
    DocDisagreement,
    ManyResult,
    MeasureView,
    PairwiseResult,
    Study,
    fleiss_text,
    gamma_alignment,
    krippendorff_text,
    majority_set,
    unitizing,
)
from core.metrics.agreement import measure_view as core_measure_view
from core.metrics.agreement import pairwise as core_pairwise
from core.metrics.agreement.coefficients import Agreement
from core.metrics.agreement.measures import constant_labels, without_constant_labels
from core.metrics.agreement.panel import (
    ASYMMETRIC,
    INSTANCE_MAJORITY,
    MANY_MEASURES,
    Shared,
    char_counted,
    instance_majority,
)
from core.metrics.agreement.study import (
    doc_coverage,
    label_variants,
    missing_documents,
)
from core.model import AnnotationSet
from core.model.errors import SpanScopeError
from core.render import highlight
from core.render.highlight import PALETTE
from core.render.palette import FILL_PATTERNS, MARKER_SYMBOLS, SEQUENTIAL, ink_on
from core.render.segments import assign_lanes
from ui import above_one, current, doc_picker, state, text_policy
from ui.curation import undecided
from ui.escape import md, plot
from ui.escape import shown as escape  # names and labels as md shows them (review21)
from ui.jobs import Job, Resident, progress, submit
from ui.jobs import ahead as jobs_ahead
from ui.jobs import busy_elsewhere as jobs_busy_elsewhere
from ui.jobs import run_here as jobs_run_here
from ui.jobs import shown as jobs_shown
from ui.jobs import wanted as jobs_wanted
from ui.lazy import lazy_expander
from ui.set_names import full_name_help
from ui.state import Workspace
from ui.widgets import download_buttons, paginate

# ---- keys (this page's, bound to the URL unless marked session; the shared ones are in ui.state)
K_ANN_SETS = "ann_sets"  # the annotation sets compared (two or more)
K_ANN_MEASURE = "ann_measure"  # agreement measure, a name of `python -m core agree --measure`
K_ANN_LABEL = "ann_label"  # label filter; ANN_ALL_LABELS = none
K_ANN_CELL = "ann_cell"  # span-F1 measures: F1 | precision | recall in the matrix
K_ANN_BLIND = "ann_blind"  # measures with a label-blind form: BLIND_CELLS in the matrix
K_ANN_GOLD = "ann_gold"  # the gold set each annotator is scored against
K_ANN_LOO = "ann_loo"  # leave each annotator out of the majority it is scored against
K_ANN_SEED = "ann_seed"  # gamma's seed
K_ANN_SAMPLES = "ann_samples"  # gamma's chance samples
K_ANN_GAMMA_ON = "ann_gamma_on"  # corpus γ computed on a large corpus (toggle)
K_ANN_DOC = "ann_doc"  # the document drawn with one lane per annotator
K_ANN_RANK_TABLE = "ann_rank_table"  # session: selection state of the ranking table
K_ANN_RANK_PAGE = "ann_rank_page"  # session: page of the ranking table
K_ANN_PICKED = "ann_picked"  # session: (document, measure) of the last ranking row picked
K_ANN_JOBS = "ann_jobs"  # session: the background γ jobs the last run showed
K_ANN_AHEAD = "ann_ahead"  # session: the choice and measure the prefetch order was set for
K_ANN_MANY = "ann_many_job"  # session: the many-annotator values' job the last run showed
K_ANN_TAB = "ann_tab"  # the open tab (who agrees with whom, against the gold, documents)
K_ANN_MORE = "ann_more"  # session: the expander with the table of the sets-together values
K_ANN_WARNINGS = "ann_more_warnings"  # session: the expander of the warnings' table
K_ANN_ALONE = "ann_alone"  # session: the expander of the documents in one set only
K_ANN_CHART = "ann_chart"  # session: the expander of the matrix drawn as a chart
K_ANN_HERE = "ann_matrix_here"  # session: the last choices whose matrix the page computed
ANN_ALL_LABELS = "(all labels)"
TABS = ("👥 Who agrees with whom", "🎯 Against the gold and the majority",
        "📄 Documents by disagreement")
"""The page's tabs below the menus; only the open one is drawn (``st.tabs`` with
``on_change="rerun"``), so a switch of measure redraws the matrix and the values of all the sets
together, not the ranking of every document, the bars and the document drawn
(docs/performance.md, "Issue 29, fifth pass")."""
ANN_NO_GOLD = "(none)"

GAMMA_MEASURES = ("gamma", "gamma-cat")
GAMMA_SEED, GAMMA_SAMPLES = 0, 30  # γ's seed and chance samples unless set
SPAN_CELLS = ("F1", "precision", "recall")
"""What a span-F1 matrix cell shows (radio options as shown, so the URL carries them)."""
BLIND_MEASURES = ("exact-f1", "char-kappa", "char-jaccard")
"""The pairwise measures with a label-blind form (``PairwiseResult.matrix("position")``, the
``position:`` line of ``agree``'s text output and ``matrix_position`` of its JSON)."""
BLIND_CELLS = ("with labels", "positions only")
"""What the matrix of a :data:`BLIND_MEASURES` measure shows: its value, or its label-blind
form (labels ignored)."""
BLIND_NOTES: dict[str, str] = {
    "exact-f1": "Positions only, labels ignored: a span agrees with a span of the same start "
                "and end whatever the labels (two labels on one span are one instance).",
    "char-kappa": "Positions only, labels ignored: Cohen's κ of whether each character is "
                  "covered by any span of the annotator.",
    "char-jaccard": "Positions only, labels ignored: |A ∩ B| / |A ∪ B| of the characters the two "
                    "annotators covered with any span.",
}

MEASURE_HELP: dict[str, str] = {
    "span-f1": "Da San Martino et al. (2019) span P/R/F1 (SemEval-2021 variant): partial-overlap "
               "credit; the row annotator is the reference.",
    "exact-f1": "Exact-match F1: a span counts as agreed only when the other annotator marked "
                "the same start, end and label; span-f1 would give a near miss partial credit.",
    "mafalda-f1": "MAFALDA (Helwe et al. 2024) span P/R/F1 (paper variant, level 2): best match "
                  "per span; the row annotator is the reference.",
    "char-kappa": "Cohen's κ (1960) over characters × labels: is each character covered by a "
                  "span of each label?",
    "char-jaccard": "|A ∩ B| / |A ∪ B| of the (character, label) pairs the two annotators marked.",
    "text-kappa": "Cohen's κ over documents × labels (is the label present in the text?), "
                  "MAFALDA's multi-label binary κ.",
    "fleiss-kappa": "Fleiss' κ (1971) over documents × labels (present/absent); for one pair it "
                    "is Scott's π.",
    "krippendorff-alpha": "Krippendorff's α (2011, nominal) over documents × labels, missing "
                          "documents allowed.",
    "unitizing-alpha": "Krippendorff's α_U (1995) per label, the documents laid end to end: "
                       "positions and lengths of the units.",
    "gamma": "Mathet et al. (2015) γ: the best alignment of the units against chance continua "
             "(positional and categorical dissimilarity).",
    "gamma-cat": "Mathet (2018) γ-cat: the categorical part of γ over the aligned units.",
}

MANY_NAMES: dict[str, str] = {
    "fleiss-kappa": "Fleiss' κ", "krippendorff-alpha": "Krippendorff's α",
    "unitizing-alpha": "unitizing α_U", "gamma": "γ", "gamma-cat": "γ-cat",
}
TILE_NAMES: dict[str, str] = {**MANY_NAMES, "krippendorff-alpha": "Kripp. α",
                              "unitizing-alpha": "α_U"}
"""The tiles' labels: five tiles side by side are 90 px wide in an 800 px window, where
"Krippendorff's α" and "unitizing α_U" were cut; each tile's help names the measure."""

_LAYOUT = dict(margin=dict(l=10, r=10, t=60, b=10), template="plotly_white")

FEW_DOCUMENTS = 20
"""Below this many documents the document-level measures (Fleiss' κ, Krippendorff's α) get a
warning on their tiles: each document is one present/absent judgement per label, so one
document more or less moves the value by several hundredths (``docs/agreement.md``)."""

WHY_THEY_DIFFER = (
    "Why the values differ: char-κ and the pairwise matrix judge every character of every pair "
    "of annotators, while Fleiss' κ and Krippendorff's α judge only whether each label occurs "
    "somewhere in each whole document, so they rest on far fewer units (documents × labels) "
    "and can disagree with char-κ, even in sign.")
"""The one sentence under the tiles that says why document-level and character-level measures
disagree (issue 26: "Fleiss' κ −0.091 next to pairwise char-κ of 0.17–0.71 on 2 documents")."""


def document_units(study: Study) -> dict[str, tuple[int, int]]:
    """``{measure: (documents, units)}`` that Fleiss' κ and Krippendorff's α rest on: Fleiss'
    κ takes the documents every annotator covers, Krippendorff's α those that at least two
    cover; a unit is one (document, label) pair."""
    labels = len(study.labels)
    coders = doc_coverage(study).sum(axis=0)  # one pass over the columns, not per document
    fleiss = int((coders == len(study.annotators)).sum())
    kripp = int((coders >= 2).sum())
    return {"fleiss-kappa": (fleiss, fleiss * labels),
            "krippendorff-alpha": (kripp, kripp * labels)}


def constant_note(labels: Sequence[str], documents: int, units: int) -> str | None:
    """The tile's note naming :func:`constant_labels` (``labels``) and the units they hold,
    else None (no such label, or every label is one: then the value is undefined and says
    why).

    >>> constant_note(["LOC", "ORG", "PER"], 7, 28)
    "⚠️ LOC, ORG, PER: every annotator used each in every document, so 21 of the 28 units \
agree whatever the spans; only the other labels' 7 can disagree"
    """
    if not labels or documents * len(labels) >= units:
        return None
    shown = ", ".join(labels[:6]) + (f" and {len(labels) - 6:,} more" if len(labels) > 6
                                     else "")
    fixed = documents * len(labels)
    return (f"⚠️ {shown}: every annotator used {'it' if len(labels) == 1 else 'each'} in every "
            f"document, so {fixed:,} of the {units:,} units agree whatever the spans; only the "
            f"other labels' {units - fixed:,} can disagree")


VARYING_FORMULA = {
    "fleiss-kappa": "κ = (P̄ − P_e) / (1 − P_e), P̄ the units' mean agreement and P_e the "
                    "agreement expected from how often 'present' and 'absent' occur (Fleiss "
                    "1971)",
    "krippendorff-alpha": "α = 1 − D_o / D_e, the disagreement observed over the one expected "
                          "from how often 'present' and 'absent' occur (Krippendorff 2011)"}
"""The formula of the document-level measures, for :func:`varying_note`'s help."""


def varying_note(name: str, varying: Agreement | None) -> tuple[str, str] | None:
    """The tile's line naming the value of ``name`` (Fleiss' κ, Krippendorff's α) without the
    labels every annotator used in every document (``varying``:
    :func:`core.metrics.agreement.measures.without_constant_labels`), and its help: the same
    formula on the units of the other labels, and why. None when no label is left out.

    >>> from core.metrics.agreement.coefficients import Agreement
    >>> varying_note("fleiss-kappa", Agreement(0.4462, None, {"labels_left_out": ["LOC"],
    ...              "labels": ["MISC", "ORG"], "units": 6}))[0]
    'without LOC: 0.446 (MISC, ORG: 6 units)'
    """
    if varying is None or not varying.stats.get("labels_left_out"):
        return None
    left = varying.stats["labels_left_out"]
    kept = varying.stats.get("labels", [])
    shown = ", ".join(left[:3]) + (f" and {len(left) - 3:,} more" if len(left) > 3 else "")
    others = ", ".join(kept[:3]) + (f" and {len(kept) - 3:,} more" if len(kept) > 3 else "")
    value = "n/a" if varying.value is None else f"{varying.value:.3f}"
    line = f"without {shown}: {value} ({others}: {varying.stats.get('units', 0):,} units)"
    help_ = (f"Without {shown}: {VARYING_FORMULA[name]}, computed on the units of the labels "
             f"that vary ({others}) alone. The units of {shown} agree whatever the spans and "
             "raise the observed and the expected agreement alike, which pulls the value "
             "towards 1 without saying anything of where the annotators disagree; left out, "
             "the value measures the labels they could disagree on (agree "
             "--without-constant-labels).")
    if varying.value is None and varying.reason:
        help_ += f" {varying.reason}."
    return line, help_


def few_units_note(documents: int, units: int) -> str | None:
    """The tile's warning when a document-level measure rests on fewer than
    :data:`FEW_DOCUMENTS` documents, else None.

    >>> few_units_note(2, 14)
    '⚠️ only 2 documents (14 units): one more or less moves the value a lot'
    >>> few_units_note(20, 140) is None
    True
    """
    if documents >= FEW_DOCUMENTS:
        return None
    noun = "document" if documents == 1 else "documents"
    return f"⚠️ only {documents:,} {noun} ({units:,} units): one more or less moves the value a lot"


def subset_note(res: ManyResult) -> str | None:
    """The tile's caption when its measure left documents out (Fleiss' κ, α_U and γ read only
    the documents every annotator covers), else None; the ``agree`` text says the same.

    >>> from core.metrics.agreement.coefficients import Agreement
    >>> r = ManyResult("fleiss-kappa", list("abcdefg"), Agreement(0.8),
    ...                params={"documents": 29, "documents_left_out": 198})
    >>> subset_note(r)
    '29 of 227 documents: those all 7 annotators cover'
    """
    left = res.params.get("documents_left_out") or 0
    if not left:
        return None
    docs = res.params["documents"]
    return (f"{docs:,} of {docs + left:,} documents: those all {len(res.annotators)} "
            "annotators cover")


def single_documents(study: Study) -> list[tuple[str, str]]:
    """``(document, annotator)`` for the documents only one of the chosen sets covers: no
    measure compares anything there (their ids match no other set's, ``core.model.alignment``)."""
    covered = doc_coverage(study)
    alone = np.flatnonzero(covered.sum(axis=0) == 1)
    who = covered[:, alone].argmax(axis=0).tolist()
    return [(study.docs[i], study.annotators[k]) for i, k in zip(alone.tolist(), who,
                                                                 strict=True)]


def _span_counts(aset: AnnotationSet) -> dict[str, int]:
    """Document -> how many spans the set gives there, documents without a span left out, from
    the set's columns (no span built)."""
    table = aset.table
    counts = np.diff(table.offsets)
    held = np.flatnonzero(counts)
    return dict(zip([table.doc_ids[i] for i in held.tolist()], counts[held].tolist(),
                    strict=True))


def _same_spans(a: AnnotationSet, b: AnnotationSet) -> bool:
    """Whether ``a`` and ``b`` give the same spans (start, end, label) in every document (a
    document without a span counts as absent): the documents and their counts of spans from the
    columns first, then the spans document by document, stopped at the first that differs. Two
    sets that differ almost always differ there, so few spans are read, where hashing every
    span of both read 1M spans a set (2.4 s each at 100,000 documents, on every first visit of
    the page; twentieth pass)."""
    counts = _span_counts(a)
    if counts != _span_counts(b):
        return False
    for doc in counts:
        if (sorted((x.start, x.end, x.label) for x in a.spans[doc])
                != sorted((x.start, x.end, x.label) for x in b.spans[doc])):
            return False
    return True


@st.cache_resource(max_entries=64, show_spinner=False)
def _identical(ws_key: str, _ws: Workspace, names: tuple[str, ...]) -> list[tuple[str, ...]]:
    """:func:`identical_sets`, once per workspace and choice of sets (sets that are the same
    are compared to their last span)."""
    groups = []
    left = list(dict.fromkeys(names))
    while len(left) > 1:
        first = left[0]
        group = [first, *(n for n in left[1:] if _same_spans(_ws.sets[first], _ws.sets[n]))]
        if len(group) > 1:
            groups.append(tuple(group))
        left = [n for n in left if n not in group]
    return groups


def identical_sets(ws: Workspace, names: Sequence[str]) -> list[tuple[str, ...]]:
    """The groups of two or more of ``names`` that give the same spans (start, end, label) in
    every document: the same file loaded twice (the second is named ``name (2)``), or one set
    under two names. Their agreement is 1 on every measure, that of a set with itself."""
    return _identical(ws.key, ws, tuple(names))


def identical_note(group: Sequence[str], chosen: Sequence[str], gold: str | None) -> str:
    """The warning above the values when :func:`identical_sets` found ``group`` among the
    ``chosen`` sets and the ``gold``: a perfect agreement there is no finding (bugleft24: the
    matrix showed 1.000 for a gold loaded twice, in the colour of the best agreement, and
    nothing said why).

    >>> print(identical_note(["g", "g2"], ["g", "g2", "a"], "g"))
    **g** and **g2** give the same spans in every document: the same file loaded twice, or one
    set under two names. Their agreement is 1 on every measure (1.000 between them in the
    matrix): that of a set with itself, not agreement between annotators; all sets together
    count it 2 times. Against the gold **g**, **g2** scores 1: the gold against itself. Keep one
    of them in Annotation sets or choose another gold.
    """
    names = ", ".join(f"**{md(n)}**" for n in group[:-1]) + f" and **{md(group[-1])}**"
    compared = [n for n in group if n in chosen]
    said = [f"{names} give the same spans in every document: the same file loaded twice, or "
            "one set under two names."]
    if len(compared) > 1:
        said.append("Their agreement is 1 on every measure (1.000 between them in the "
                    "matrix): that of a set with itself, not agreement between annotators; "
                    f"all sets together count it {len(compared)} times.")
    if gold in group:
        said.append(f"Against the gold **{md(gold)}**, "
                    + ", ".join(f"**{md(n)}**" for n in compared if n != gold)
                    + " scores 1: the gold against itself.")
    said.append("Keep one of them in Annotation sets" + (" or choose another gold."
                                                          if gold in group else "."))
    return " ".join(said)


@st.cache_resource(max_entries=16, show_spinner=False)
def coverage(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
             ) -> tuple[list[tuple[str, str]], dict[str, tuple[int, int]]]:
    """:func:`single_documents` and :func:`document_units` of :func:`study`, cached (each
    reads every set's document list: 0.1 s at 100,000 documents, 1.1 s when it asked each
    document which sets list it)."""
    s = study(ws_key, _ws, sets, label)
    return single_documents(s), document_units(s)


@st.cache_resource(max_entries=16, show_spinner=False)
def constant_labels_of(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
                       ) -> dict[str, list[str]]:
    """:func:`constant_labels` of :func:`study`, cached."""
    return constant_labels(study(ws_key, _ws, sets, label))


@st.cache_resource(max_entries=16, show_spinner=False)
def varying_of(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
               ) -> dict[str, Agreement]:
    """Fleiss' κ and Krippendorff's α of :func:`study` without the labels every annotator used
    in every document (:func:`core.metrics.agreement.measures.without_constant_labels`),
    cached; asked for only when there are such labels."""
    s = study(ws_key, _ws, sets, label)
    constant = constant_labels_of(ws_key, _ws, sets, label)
    return {m: without_constant_labels(s, m, constant[m]) for m in constant}


@st.cache_resource(max_entries=16, show_spinner=False)
def study_warnings(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
                   ) -> list[str]:
    """Labels that differ only in case or surrounding spaces, and each annotator missing
    documents others have (the warnings of ``agree``), cached."""
    s = study(ws_key, _ws, sets, label)
    return [*label_variants(s), *missing_documents(s)]


# ---- background jobs (ui.jobs) ------------------------------------------------------------------


def shown(jobs: Sequence[Job[MeasureView] | Job[dict[str, ManyResult]] | None], *,
          memory: MutableMapping[str, object] | None = None) -> None:
    """:func:`ui.jobs.shown` with the Annotators page's key (``memory``: the session state)."""
    jobs_shown(jobs, memory=memory if memory is not None else st.session_state, key=K_ANN_JOBS)


# ---- cached computations ------------------------------------------------------------------------


def _sets(ws: Workspace, names: Sequence[str]) -> list[AnnotationSet]:
    return [ws.sets[n] for n in names]


DUPLICATES_COUNTED: dict[str, Any] = {"measures": None, "option": None}
"""What the page's study tells of an annotator's duplicate span (:meth:`Study.from_sets`): the
page offers every measure, so its warning says what each does with it (which count it twice,
which once, which read characters or texts); it names no command-line option (the page has
no ``--unit-set``)."""


@st.cache_resource(max_entries=16, show_spinner=False)
def study(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None) -> Study:
    """The agreement study of ``sets`` (only ``label`` when given); raises ``InputError``."""
    return Study.from_sets(_sets(_ws, sets), _ws.corpus.texts, label=label,
                           **DUPLICATES_COUNTED)


@st.cache_resource(max_entries=64, show_spinner=False)
def document_majority(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
                      doc: str, instances: bool = False) -> AnnotationSet:
    """:func:`core.metrics.agreement.majority_set` of ``sets`` (strict majority, per label) on
    one document: a document's majority depends on that document alone (the sets that list it
    vote), so its lane needs no majority of the whole corpus. ``instances``: the measure is
    scored against the majority of instances (exact-f1, ``INSTANCE_MAJORITY``):
    :func:`~core.metrics.agreement.instance_majority`. A flag, not the measure, so that every
    other measure shares one cached majority."""
    one = [AnnotationSet(s.name, {doc: s.spans[doc]} if doc in s.spans else {}, s.role,
                         s.alternatives) for s in _sets(_ws, sets)]
    if instances:
        return instance_majority(one, label=label)
    return majority_set(one, label=label)


@st.cache_resource(max_entries=16, show_spinner="Fleiss' κ, Krippendorff's α, α_U…")
def many_values(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
                ) -> dict[str, ManyResult]:
    """The many-annotator measures that take about a second or less (every one but γ); corpus
    values only (the ranking of documents comes from :func:`measure_view`)."""
    s = study(ws_key, _ws, sets, label)
    return {"fleiss-kappa": fleiss_text(s, per_document=False),
            "krippendorff-alpha": krippendorff_text(s, per_document=False),
            "unitizing-alpha": unitizing(s, per_document=False)}


WARNINGS_SHOWN = 5
"""Up to this many warnings of the study are all shown as captions; more are
:data:`WARNINGS_FIRST` captions and a table of the others in a closed expander."""

WARNINGS_FIRST = 1
"""The warnings shown as captions when there are more than :data:`WARNINGS_SHOWN` (an example
of what the table below lists)."""

BACKGROUND_DOCS = 2000
"""Above this many documents every measure runs in the background like γ (:func:`many_job`,
:func:`view_job`): the whole-corpus κ, α and α_U take tens of seconds at 100,000 documents
(docs/performance.md), which the page would otherwise wait for on its first visit and on every
change of measure; meanwhile it shows progress bars and stays usable."""


@st.cache_resource(max_entries=16, show_spinner=False)
def many_job(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
             ) -> Job[dict[str, ManyResult]]:
    """:func:`many_values` in the background (for a corpus of more than
    :data:`BACKGROUND_DOCS` documents), queued behind the chosen measure's view and the measures
    computed ahead (:func:`many_later`)."""
    s = study(ws_key, _ws, sets, label)
    return submit(Job(f"Fleiss' κ, Krippendorff's α and α_U of {len(s.docs):,} documents",
                      "many", _resident_study_args(_ws, sets, label)), later=True)


def many_later(ws: Workspace, sets: tuple[str, ...], label: str | None
               ) -> Job[dict[str, ManyResult]]:
    """:func:`many_job`, queued as a later job (:func:`ui.jobs.submit`): after the chosen
    measure's view and after the measures :func:`prefetch` queues ahead of the other later jobs,
    so that it never holds back a switch of measure. Its values are the tiles below the matrix,
    not on the page's first screen, and they take the worker longest of all (α_U: 0.65 s of
    the 0.69 s at 10,000 documents, where each measure ahead takes 0.04–0.5 s); the first
    visit queued it before them (docs/performance.md, "Issue 29, ninth pass: the Annotators
    page"). It is not :func:`ui.jobs.shown`, which would run it next; so this does what that
    does for it: the job of the sets the previous run showed is cancelled if it has not started
    (another choice of sets or label), and this one queued again when a previous run cancelled
    it, or when its worker died and the page said so."""
    job = many_job(ws.key, ws, sets, label)
    future = job.future
    if future is not None and (future.cancelled() or (job.stop_shown and job.stopped())):
        submit(job, later=True)
    previous = st.session_state.get(K_ANN_MANY)
    if isinstance(previous, Job) and previous is not job and previous.future is not None:
        previous.future.cancel()  # a no-op once the worker has taken it
    st.session_state[K_ANN_MANY] = job
    return job


GAMMA_AUTO_DOCS = 1000
"""Above this many documents the Annotators page computes the corpus γ only when asked
(docs/agreement.md: ≈ 40 ms a document on two cores, so minutes for ten thousand)."""


@st.cache_resource(max_entries=32, show_spinner=False)
def gamma_job(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
              seed: int, samples: int) -> Job[dict[str, ManyResult]]:
    """Corpus γ and γ-cat of ``sets`` in the background: ``{"gamma": …, "gamma-cat": …}``."""
    return submit(Job(f"γ of {len(sets)} annotators, {samples} samples, seed {seed}", "gamma",
                      {**_resident_study_args(_ws, sets, label), "samples": samples,
                       "seed": seed}))


def _view_args(ws: Workspace, sets: tuple[str, ...], label: str | None, measure: str,
               gold: str | None, leave_one_out: bool) -> dict[str, Any]:
    """The arguments of :func:`core.metrics.agreement.measure_view`. The corpus's texts
    themselves, not a copy: a workspace's texts are filled once, as it is built
    (:func:`ui.state.build_workspace`), and only read after, here, in the study and by the
    pickling of a job's arguments (bugleft26: each call copied the dict, a second copy for the
    worker's jobs, held by every job queued)."""
    return {"sets": _sets(ws, sets), "texts": ws.corpus.texts, "measure": measure,
            "label": label, "gold": ws.sets[gold] if gold is not None else None,
            "leave_one_out": leave_one_out}


def _resident_study_args(ws: Workspace, sets: tuple[str, ...], label: str | None
                         ) -> dict[str, Any]:
    """What the worker builds the study of ``sets`` from (:func:`ui.gamma_worker.study_of`):
    the sets and the texts as the view jobs send them (:func:`_resident_view_args`: resident,
    sent with the corpus's first job only) and the label. The worker keeps one study of them
    for every job, the views' (:class:`~core.metrics.agreement.panel.Shared`) and the
    many-annotator values' and γ's; these were sent the page's study, pickled (a corpus's
    documents and spans once more over the socket), and the worker then held two studies of
    the same sets (docs/performance.md, "Issue 29, tenth pass")."""
    return {"sets": [Resident(f"{ws.key}|set|{n}", ws.sets[n]) for n in sets],
            "texts": Resident(f"{ws.key}|texts", ws.corpus.texts), "label": label}


def _resident_view_args(ws: Workspace, sets: tuple[str, ...], label: str | None, measure: str,
                        gold: str | None, leave_one_out: bool) -> dict[str, Any]:
    """:func:`_view_args` for the worker: each set and the texts as
    :class:`~ui.gamma_worker.Resident` values, sent with the corpus's first job only (one
    job per measure, so a switch of measure sends no corpus)."""
    args = {**_view_args(ws, sets, label, measure, gold, leave_one_out),
            **_resident_study_args(ws, sets, label)}
    if gold is not None:
        args["gold"] = Resident(f"{ws.key}|set|{gold}", ws.sets[gold])
    return args


@st.cache_resource(max_entries=32, show_spinner="Computing agreement…")
def measure_view(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
                 measure: str, gold: str | None, leave_one_out: bool) -> MeasureView:
    """:func:`core.metrics.agreement.measure_view` of a measure other than γ (computed in the
    script run)."""
    return core_measure_view(**_view_args(_ws, sets, label, measure, gold, leave_one_out))


@st.cache_resource(max_entries=32, show_spinner=False)
def view_job(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
             measure: str, gold: str | None, leave_one_out: bool, seed: int, samples: int,
             _later: bool = False) -> Job[MeasureView]:
    """:func:`core.metrics.agreement.measure_view` in the background: γ or γ-cat, or any
    measure on a corpus of more than :data:`BACKGROUND_DOCS` documents. ``_later``: queued
    behind the jobs the page shows (:func:`prefetch`; not part of the cache key, so the page
    asking for the measure finds this job and moves it ahead)."""
    chance = f" ({samples} samples, seed {seed})" if measure in GAMMA_MEASURES else ""
    return submit(Job(f"{measure} of every pair and against the gold and the majority{chance}",
                      "view",
                      {**_resident_view_args(_ws, sets, label, measure, gold,
                                             leave_one_out),
                       # the view the worker sends (for_the_page), computed as such
                       "samples": samples, "seed": seed, "lean": True}), later=_later)


PREFETCH_DOCS = 20_000
"""Up to this many documents (and above :data:`BACKGROUND_DOCS`) the worker computes the
measures of :data:`PREFETCHED` while the page is open, behind the jobs it shows, so that a switch
of measure finds its matrix ready: each takes about a second of the worker's core at 10,000
documents (0.7–1.5 s CPU, ``docs/performance.md``), which no page run can spare, and a switch
to a measure still queued runs it next. Above it they would take minutes of a shared core for
measures nobody may open."""

PREFETCHED = ("char-kappa", "char-jaccard", "span-f1", "exact-f1", "mafalda-f1", "text-kappa",
              "fleiss-kappa", "krippendorff-alpha")
"""The measures :func:`prefetch` computes ahead (in :func:`prefetch_order`): all but γ and γ-cat
(seconds to minutes, with their own settings) and α_U (7 s CPU at 10,000 documents)."""

FAMILIES: tuple[tuple[str, ...], ...] = (
    ("span-f1", "exact-f1", "mafalda-f1"), ("char-kappa", "char-jaccard"),
    ("text-kappa", "fleiss-kappa", "krippendorff-alpha"))
"""Measures of the same items (spans, characters, documents × labels): the one a user compares
a value with first."""


def prefetch_order(measure: str) -> list[str]:
    """The measures of :data:`PREFETCHED` other than ``measure``, the likeliest next choice
    first: ``measure``'s own family (:data:`FAMILIES`, the same items judged another way), then
    the menu read downwards from it, then the measures above it, the nearest first. From the
    page's default, char-κ, that is the order a user reading the menu switches in (and the
    browser bench's), and MAFALDA F1, the dearest (0.6 s of the worker's CPU at 10,000
    documents), no longer holds back text-κ and Fleiss' κ (docs/performance.md, "Issue 29,
    eighth pass").

    >>> prefetch_order("char-kappa")  # doctest: +NORMALIZE_WHITESPACE
    ['char-jaccard', 'text-kappa', 'fleiss-kappa', 'krippendorff-alpha', 'mafalda-f1',
     'exact-f1', 'span-f1']
    >>> prefetch_order("gamma")[:2]
    ['krippendorff-alpha', 'fleiss-kappa']
    >>> prefetch_order("span-f1")[:3]
    ['exact-f1', 'mafalda-f1', 'char-kappa']
    """
    family = next((f for f in FAMILIES if measure in f), ())
    at = MEASURES.index(measure)

    def distance(m: str) -> tuple[bool, bool, int]:
        d = MEASURES.index(m) - at
        return m not in family, d < 0, abs(d)

    return sorted((m for m in PREFETCHED if m != measure), key=distance)


def prefetch(ws: Workspace, c: Choice, documents: int) -> list[Job[MeasureView]]:
    """The background views of the measures of :data:`PREFETCHED` other than the chosen one,
    queued behind the page's jobs (:func:`view_job` with ``_later``), for a corpus of
    :data:`BACKGROUND_DOCS` to :data:`PREFETCH_DOCS` documents, in :func:`prefetch_order` of the
    chosen measure (after a switch, those not computed yet are queued again in the new order,
    :func:`ui.jobs.ahead`); the jobs are kept per choice like the chosen measure's, so
    switching back and forth costs nothing after the first time.
    A job cancelled before it ran (the page showed it, then another measure) or whose worker
    died is queued again, so that a switch never finds a failure it did not see happen."""
    if not BACKGROUND_DOCS < documents <= PREFETCH_DOCS:
        return []
    ahead = [view_job(ws.key, ws, c.sets, c.label, m, c.gold, c.leave_one_out, 0, 30,
                      _later=True) for m in prefetch_order(c.measure)]
    for job in ahead:
        if job.future is not None and (job.future.cancelled() or job.stopped()):
            submit(job, later=True)
    ordered_for = (ws.key, c.sets, c.label, c.gold, c.leave_one_out, c.measure)
    if st.session_state.get(K_ANN_AHEAD) != ordered_for:
        st.session_state[K_ANN_AHEAD] = ordered_for
        jobs_ahead(ahead)
    return ahead


def default_view(ws: Workspace) -> Callable[[], None] | None:
    """Before the page is visited (:func:`ui.ahead.start`, once a page is drawn): the
    work of its first visit on a large corpus, as a function for a background thread, or None
    when the user has already chosen something on this page. The thread builds the study the
    page would build for its default choice (:func:`choose`: the annotators, else every set;
    char-κ; every label; the first gold; no leave-one-out) and queues that view as a later job
    (:func:`view_job`), which the page's own request then finds computed or moves ahead. Read
    in the page run (the session), so the thread needs none."""
    keys = (K_ANN_SETS, K_ANN_MEASURE, K_ANN_LABEL, K_ANN_GOLD, K_ANN_LOO)
    if any(k in st.session_state for k in keys):
        return None
    sets = state.set_options(ws, "annotator")
    if len(sets) < 2:
        sets = list(ws.sets)
    golds = state.set_options(ws, "gold")
    chosen, gold = tuple(sets), (golds[0] if golds else None)
    if len(chosen) < 2:
        return None

    def work() -> None:
        if len(study(ws.key, ws, chosen, None).docs) > BACKGROUND_DOCS:
            job = view_job(ws.key, ws, chosen, None, "char-kappa", gold, False, 0, 30,
                           _later=True)
            job.holdable = False  # the first visit's work: not held by other pages' runs

    return work


MATRIX_FIRST = ("span-f1", "exact-f1", "mafalda-f1", "text-kappa", "fleiss-kappa",
                "krippendorff-alpha")
"""Measures whose pairwise matrix alone is a small part of their view at 10,000 documents
(span-F1 0.13 of 0.39-0.47 s of CPU, MAFALDA F1 0.25 of 0.55 s, text-κ 0.02 of 0.20 s, Fleiss'
κ and Krippendorff's α 0.08 of 0.35 s: the rest is each annotator against the gold and the
majority, and the documents' ranking; exact F1 0.02 of 0.3 s): when the
worker is busy and the matrix's tab is open, :func:`matrix_here` computes the matrix in the
page and leaves the rest to the worker (docs/performance.md, "Issue 29, eleventh pass"); since
the twelfth pass also while the worker computes that very view (:func:`matrix_here`)."""

MATRIX_CHEAP = ("exact-f1", "text-kappa", "fleiss-kappa", "krippendorff-alpha")
"""Measures of :data:`MATRIX_FIRST` whose matrix alone takes the page less than 0.1 s of CPU at
10,000 documents (text-κ and exact F1 0.02 s, Fleiss' κ and Krippendorff's α 0.08 s): a
switch to one whose view the worker is computing computes the matrix at once rather than wait
for the view (:func:`wait_in_flight`), whose rest may be most of its 0.4 s."""


def _matrix_tab_open() -> bool:
    """Whether the run draws the matrix's tab (the first): the tab the user left open, or, on
    a first visit, none named by the link (a link to a tab, or to a document, opens another)."""
    tab = st.session_state.get(K_ANN_TAB)
    if tab is None:
        return K_ANN_TAB not in st.query_params and K_ANN_DOC not in st.query_params
    return bool(tab == TABS[0])


MATRIX_KEPT = 32
"""How many matrices :func:`matrix_only` keeps, and how many choices :func:`matrix_here`
remembers computing (the oldest forgotten first: a forgotten matrix is one the cache dropped)."""


@st.cache_resource(max_entries=MATRIX_KEPT, show_spinner=False)
def matrix_only(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
                measure: str) -> PairwiseResult:
    """:func:`core.metrics.agreement.pairwise` of ``measure`` without the per-document values:
    the pairwise matrix of the view (:func:`core.metrics.agreement.measure_view`; the same
    values, ``tests/app/test_annotators_page.py``), computed in the page run."""
    return core_pairwise(study(ws_key, _ws, sets, label), measure, per_document=False)


def matrix_here(ws: Workspace, c: Choice, job: Job[MeasureView], documents: int
                ) -> PairwiseResult | None:
    """The pairwise matrix of a measure of :data:`MATRIX_FIRST`, computed in the page run while
    its view's job waits for the worker (busy with another job: :func:`ui.jobs.busy_elsewhere`)
    or is being computed (by the worker: its future is running, and :func:`wait_in_flight` did
    not see it end) and the matrix's tab is open, or computed so before for this choice (a
    rerun while the worker then computes the view draws it again rather than "…"); None
    otherwise. The job stays queued, first (:func:`ui.jobs.shown`), or in the worker's hands:
    the other tabs' values come from the worker.
    Where :func:`run_here_if_busy` would compute the whole view here (0.39 s of CPU for
    span-F1 at 10,000 documents), a switch then waits for the matrix alone (0.13 s)."""
    if (c.measure not in MATRIX_FIRST or not BACKGROUND_DOCS < documents <= PREFETCH_DOCS
            or job.done() or not _matrix_tab_open()):
        return None

    def busy() -> bool:
        future = job.future
        return jobs_busy_elsewhere(job) or (future is not None and future.running())

    if not computed_here((ws.key, c.sets, c.label, c.measure), busy):
        return None
    return matrix_only(ws.key, ws, c.sets, c.label, c.measure)


IN_FLIGHT_WAIT = 0.2
"""Seconds a page run waits for the chosen measure's view while the worker computes it
(:func:`wait_in_flight`)."""

VIEW_POLL = 0.1
"""Seconds between two looks of the chosen measure's progress bar at its view's job, for a
corpus of up to :data:`PREFETCH_DOCS` documents (where a view takes the worker 0.1-0.7 s of
CPU at 10,000 documents); the other jobs' bars, and every bar on a larger corpus, look every
0.5 s (:func:`ui.jobs.progress`'s default)."""


def wait_in_flight(c: Choice, job: Job[MeasureView], documents: int) -> bool:
    """Wait up to :data:`IN_FLIGHT_WAIT` for the chosen measure's view when the worker is
    computing it (or another page run is: its future is running) on a corpus of up to
    :data:`PREFETCH_DOCS` documents, for a measure of :data:`PREFETCHED`; whether it is done.

    A switch of measure right after the first visit most often finds its view in flight (the
    worker computes the measures ahead in the order a user switches in, :func:`prefetch_order`)
    and a few tenths of a second from done. Without the wait the run drew the cells as "…" and
    a progress bar, whose fragment looked at the job every 0.5 s and then reran the whole page:
    the switch took the job's rest, up to 0.5 s more and two runs, both drawn by the browser
    (docs/performance.md, "Issue 29, twelfth pass"). A job queued behind another is not waited
    for (:func:`matrix_here`, :func:`run_here_if_busy`), nor γ and γ-cat (seconds to
    minutes); a measure of :data:`MATRIX_CHEAP` is not waited for either: the page computes its
    matrix (:func:`matrix_here`). Past the wait, a measure of :data:`MATRIX_FIRST` has its
    matrix computed in the page too, and the others show "…" and a progress bar that looks at
    the job every :data:`VIEW_POLL` seconds."""
    future = job.future
    if (future is None or c.measure not in PREFETCHED or c.measure in MATRIX_CHEAP
            or not BACKGROUND_DOCS < documents <= PREFETCH_DOCS or not future.running()):
        return False
    jobs_wanted(job)  # computed ahead, now waited for: the worker must not hold it
    futures_wait([future], timeout=IN_FLIGHT_WAIT)
    return future.done()


def computed_here(key: tuple[Any, ...], busy: Callable[[], bool]) -> bool:
    """Whether the page computes the matrix of the choice ``key``: it did before, or the worker
    is ``busy``; remembered for the session, the last :data:`MATRIX_KEPT` choices only (the
    set grew by one per workspace, sets, label and measure for the whole session)."""
    done: dict[tuple[Any, ...], None] = st.session_state.setdefault(K_ANN_HERE, {})
    if key not in done and not busy():
        return False
    done.pop(key, None)
    done[key] = None  # the newest last
    while len(done) > MATRIX_KEPT:
        del done[next(iter(done))]
    return True


def run_here_if_busy(ws: Workspace, c: Choice, job: Job[MeasureView], documents: int) -> None:
    """Compute the chosen measure's view in this page run when the worker is busy with another
    job (:func:`ui.jobs.busy_elsewhere`: a measure computed ahead, the many-annotator values,
    γ) and the chosen one is one of :data:`PREFETCHED` (a second or two of CPU at up to
    :data:`PREFETCH_DOCS` documents): a switch then waits for its own measure only, not for the
    job in flight and the jobs queued before it as well (a measure the prefetch order put last
    took 13–14 s at a load of 10: docs/performance.md, "Issue 29, fifth pass"). The job takes
    the result, so the worker skips it and every later run finds it done. A character measure
    computed here brings the other one (:data:`CHAR_SIBLING`) from the same counts, when they
    were kept (:func:`~core.metrics.agreement.panel.char_counted`): the first switch after a
    first visit is most often between them (docs/performance.md, "Issue 29, eighth pass")."""
    if (c.measure not in PREFETCHED or not BACKGROUND_DOCS < documents <= PREFETCH_DOCS
            or not jobs_busy_elsewhere(job)):
        return
    # The page's view (lean: what the worker sends, ui.gamma_worker.for_the_page), with the
    # studies and the majority kept between the switches (page_shared)
    args = {**_view_args(ws, c.sets, c.label, c.measure, c.gold, c.leave_one_out),
            "lean": True,
            "shared": page_shared(ws.key, ws, c.sets, c.label)}
    with st.spinner(f"Computing {c.measure} (the background worker is busy with another "
                    "job)…"):
        if not jobs_run_here(job, lambda: core_measure_view(**args)):
            return
        sibling = CHAR_SIBLING.get(c.measure)
        if sibling is None or not char_counted(args["shared"], args["sets"], args["texts"],
                                               c.label):
            return
        # The other character measure comes from the counts just kept (0.04 s at 10,000
        # documents): computed here too, its switch finds it ready rather than waiting for
        # the worker to count every pair again (it has none of this run's counts).
        later = view_job(ws.key, ws, c.sets, c.label, sibling, c.gold, c.leave_one_out, 0, 30,
                         _later=True)
        jobs_run_here(later, lambda: core_measure_view(**{**args, "measure": sibling}))


CHAR_SIBLING = {"char-kappa": "char-jaccard", "char-jaccard": "char-kappa"}
"""The character measure whose view :func:`run_here_if_busy` computes with the chosen one (the
same counts, ``core.metrics.agreement.panel._char_pairs``)."""


@st.cache_resource(max_entries=4, show_spinner=False)
def page_shared(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
                ) -> Shared:
    """What :func:`run_here_if_busy` keeps between the views it computes on one choice of sets
    (:class:`core.metrics.agreement.panel.Shared`: the studies, the majority and the character
    runs), starting with the page's own study (:func:`study`, built from the same sets and
    texts), so a switch computed in the page builds none of them again (0.1–0.3 s of CPU at
    10,000 documents, docs/performance.md, "Issue 29, seventh pass")."""
    shared = Shared()
    chosen = _sets(_ws, sets)
    shared.get(("study", *chosen, _ws.corpus.texts, label),
               lambda: study(ws_key, _ws, sets, label))
    return shared


@st.cache_data(max_entries=64, show_spinner="Aligning…")
def alignment(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None, doc: str,
              seed: int, samples: int) -> dict[str, Any]:
    """:func:`core.metrics.agreement.gamma_alignment` of one document (raises ``InputError``
    when fewer than two annotators list it)."""
    return gamma_alignment(study(ws_key, _ws, sets, label), doc, samples=samples, seed=seed)


def document_gamma(al: Mapping[str, Any], corpus: ManyResult | None, *, from_corpus: bool
                   ) -> tuple[str, str | None]:
    """One document's γ as shown, and why it is undefined.

    ``from_corpus``: the value is the document's entry in the corpus γ (``corpus``; "…" while
    that runs), which is the value :func:`gamma_alignment` gives with the same samples and seed
    (``docs/agreement.md``); otherwise the alignment's own γ (computed with the samples).
    """
    if from_corpus:
        if corpus is None:
            return "… (computing with the corpus γ)", None
        agr = corpus.per_document.get(al["doc"])
        if agr is None:
            return "n/a", "not in the corpus γ"
        return ("n/a" if agr.value is None else f"{agr.value:.3f}"), agr.reason
    g = al["gamma"]
    return ("n/a" if g["value"] is None else f"{g['value']:.3f}"), g.get("reason")


# ---- tables -------------------------------------------------------------------------------------


def cell_key(measure: str, cell: str) -> str | None:
    """``PairwiseResult.matrix`` key of what the matrix shows (None: the headline value)."""
    if measure in ASYMMETRIC and cell in ("precision", "recall"):
        return cell
    if measure in BLIND_MEASURES and cell == BLIND_CELLS[1]:
        return "position"
    return None


def _cell(result: PairwiseResult, a: str, b: str, key: str | None) -> tuple[float | None, str]:
    """Value and reason of the (row a, column b) cell; the reason is '' when defined."""
    pv = result.pairs.get((a, b))
    if pv is None and result.symmetric:
        pv = result.pairs.get((b, a))
    if pv is None:
        return None, "same annotator" if a == b else "not computed"
    agr = pv.overall if key is None else pv.extra.get(key, pv.overall)
    if agr.value is None:
        return None, agr.reason or "undefined"
    return agr.value, ""


def matrix_table(result: PairwiseResult, key: str | None = None) -> pd.DataFrame:
    """One row per ordered cell (row, column, value, why undefined), diagonal left out."""
    rows = []
    for a in result.annotators:
        for b in result.annotators:
            if a == b:
                continue
            value, why = _cell(result, a, b, key)
            rows.append({"row (reference)" if not result.symmetric else "row": a,
                         "column": b, "value": value, "undefined because": why})
    return pd.DataFrame(rows)


def undefined_cells(result: PairwiseResult, key: str | None = None) -> pd.DataFrame:
    """The off-diagonal cells without a value and why (unordered pairs once when symmetric)."""
    rows = []
    for (a, b), _ in result.pairs.items():
        value, why = _cell(result, a, b, key)
        if value is None:
            rows.append({"pair": f"{a} · {b}", "undefined because": why})
    return pd.DataFrame(rows, columns=["pair", "undefined because"])


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def many_table(values: Mapping[str, ManyResult]) -> pd.DataFrame:
    """One row per many-annotator measure: value, its Monte-Carlo spread (γ), documents, samples
    and seed (γ), and why it is undefined."""
    rows = []
    for name, res in values.items():
        sd = res.overall.stats.get("gamma_mc_sd") if name == "gamma" else None
        rows.append({
            "measure": name, "shown as": MANY_NAMES.get(name, name), "value": res.overall.value,
            "± 2 sd": 2 * sd if sd is not None else None,
            "documents": res.params.get("documents"),
            "documents left out": res.params.get("documents_left_out", 0),
            "samples": res.params.get("samples"), "seed": res.params.get("seed"),
            "undefined because": res.overall.reason or "",
        })
    return pd.DataFrame(rows)


def per_label_table(values: Mapping[str, ManyResult]) -> pd.DataFrame:
    """Label × measure values of the many-annotator measures that break down by label."""
    labels: dict[str, dict[str, float | None]] = {}
    why: dict[str, list[str]] = {}
    for name, res in values.items():
        shown = "γ-k" if name == "gamma-cat" else MANY_NAMES.get(name, name)
        for lab, agr in res.per_label.items():
            labels.setdefault(lab, {})[shown] = agr.value
            if agr.value is None and agr.reason:
                why.setdefault(lab, []).append(agr.reason)
    # A "—" says why, as the pairwise tables' "undefined because" do (tour20: LOC, ORG and PER
    # of bratiaa's example project had "—" under Fleiss' κ and α with nothing to say why).
    return pd.DataFrame([{"label": lab, **vals, "undefined because": " · ".join(why.get(lab, []))}
                         for lab, vals in sorted(labels.items())])


def undefined_reasons(values: Mapping[str, ManyResult]) -> list[tuple[str, str, str]]:
    """``(label, measure as shown, reason)`` of every per-label value that is undefined, in the
    order of :func:`per_label_table`'s rows: what its "undefined because" column joins."""
    out = []
    for name, res in values.items():
        shown = "γ-k" if name == "gamma-cat" else MANY_NAMES.get(name, name)
        out += [(lab, shown, agr.reason) for lab, agr in res.per_label.items()
                if agr.value is None and agr.reason]
    order = {lab: i for i, lab in enumerate(sorted({lab for lab, _, _ in out}))}
    return sorted(out, key=lambda x: order[x[0]])


def short_reasons(table: pd.DataFrame, reasons: Sequence[tuple[str, str, str]]) -> pd.DataFrame:
    """:func:`per_label_table` as the page shows it: its "undefined because", a paragraph or
    two per label that a column of the table cut at its edge (bugleft26: at 1,440 px only the
    tooltip and the CSV held the whole), becomes "undefined" naming the measures with no value
    and pointing to the list below the table (:func:`reasons_html`), which wraps. The download
    keeps the whole text."""
    if "undefined because" not in table.columns:
        return table
    which: dict[str, list[str]] = {}
    for lab, shown, _ in reasons:
        which.setdefault(lab, []).append(shown)
    out = table.drop(columns=["undefined because"])
    out["undefined"] = [f"{', '.join(which[lab])}: why below" if lab in which else ""
                        for lab in table["label"]]
    return out


REASONS_CSS = ("<style>ul.ann-reasons{font-size:.875rem;margin:.25rem 0 0;padding-left:1.2rem}"
               "ul.ann-reasons li{overflow-wrap:anywhere;margin:.15rem 0}</style>")


def reasons_html(reasons: Sequence[tuple[str, str, str]]) -> str:
    """The per-label values' reasons (:func:`undefined_reasons`) as a list under the table,
    wrapping at the page's width (text escaped): "LOC, Fleiss' κ: Fleiss' kappa is undefined:
    ...".

    >>> reasons_html([("<b>", "Fleiss' κ", "nobody used it")]).split("</style>")[1]
    '<ul class="ann-reasons"><li><b>&lt;b&gt;, Fleiss&#x27; κ</b>: nobody used it</li></ul>'
    """
    items = "".join(f"<li><b>{escape(lab)}, {escape(shown)}</b>: {escape(why)}</li>"
                    for lab, shown, why in reasons)
    return f'{REASONS_CSS}<ul class="ann-reasons">{items}</ul>'


def against_table(view: MeasureView) -> pd.DataFrame:
    """Each annotator's value against the gold and against the majority (P and R as well for the
    span-F1 measures)."""
    rows = []
    for ref_name, results in (("gold", view.gold), ("majority", view.majority)):
        if results is None:
            continue
        for annotator, pv in results.items():
            row: dict[str, Any] = {"annotator": annotator, "against": ref_name}
            if view.measure in ASYMMETRIC:
                row["P"] = pv.extra["precision"].value if "precision" in pv.extra else None
                row["R"] = pv.extra["recall"].value if "recall" in pv.extra else None
                row["F1"] = pv.overall.value
            else:
                row[view.measure] = pv.overall.value
            row["undefined because"] = pv.overall.reason or ""
            rows.append(row)
    return pd.DataFrame(rows)


def ranking_table(rows: Sequence[DocDisagreement], measure: str) -> pd.DataFrame:
    """Documents, most disagreement first: value, least-agreeing pair and its value (for the
    asymmetric span-F1 measures written ``reference → compared``)."""
    sep = " → " if measure in ASYMMETRIC else " · "
    return pd.DataFrame([{
        "rank": i, "document": r.doc, measure: r.value,
        "least agreeing pair": sep.join(r.pair) if r.pair else None,
        "pair value": r.pair_value, "pairs defined": r.pairs, "undefined because": r.reason or "",
    } for i, r in enumerate(rows, 1)], columns=["rank", "document", measure,
                                                  "least agreeing pair", "pair value",
                                                  "pairs defined", "undefined because"])


def alignment_table(al: Mapping[str, Any]) -> pd.DataFrame:
    """One row per unitary alignment: each annotator's unit (∅ when it has none), disorder."""
    units = al["units"]
    rows = []
    for k, row in enumerate(al["alignments"], 1):
        rec: dict[str, Any] = {"#": k}
        for who in al["annotators"]:
            u = row["units"].get(who)
            rec[who] = ("∅" if u is None else
                        f"[{units[u]['start']}, {units[u]['end']}) {units[u]['label']}")
        rec["disorder"] = row["disorder"]
        rows.append(rec)
    return pd.DataFrame(rows)


def restricted(aset: AnnotationSet, doc: str, label: str | None) -> AnnotationSet:
    """``aset`` reduced to one document (and one label when given), for drawing."""
    spans = aset.get(doc)
    if label is not None:
        spans = tuple(s for s in spans if s.label == label)
    return AnnotationSet(aset.name, {doc: spans}, aset.role, aset.alternatives)


# ---- figures ------------------------------------------------------------------------------------


def heatmap(result: PairwiseResult, *, key: str | None, title: str) -> go.Figure:
    """The pairwise matrix as a heatmap, every value written in its cell; undefined cells grey
    with "n/a" and their reason on hover, the diagonal "—"."""
    who = result.annotators
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    grey: list[list[float | None]] = []
    grey_text: list[list[str]] = []
    why: list[list[str]] = []
    for a in who:
        zr, tr, gr, gt, wr = [], [], [], [], []
        for b in who:
            value, reason = _cell(result, a, b, key)
            zr.append(value)
            tr.append(_fmt(value) if value is not None else "")
            gr.append(None if value is not None else 0.0)
            gt.append("" if value is not None else ("—" if a == b else "n/a"))
            wr.append(reason)
        z.append(zr)
        text.append(tr)
        grey.append(gr)
        grey_text.append(gt)
        why.append(wr)
    values = [v for r in z for v in r if v is not None]
    zmin = min(0.0, *values) if values else 0.0
    names = [plot(a) for a in who]
    fig = go.Figure()
    fig.add_heatmap(z=grey, x=names, y=names, text=grey_text, texttemplate="%{text}",
                    customdata=[[plot(w) for w in row] for row in why],
                    colorscale=[[0, "#eeeeee"], [1, "#eeeeee"]],
                    showscale=False, zmin=0, zmax=1, xgap=2, ygap=2, hoverongaps=False,
                    hovertemplate="%{y} · %{x}<br>%{customdata}<extra></extra>")
    fig.add_heatmap(z=z, x=names, y=names, text=text, texttemplate="%{text}",
                    textfont=dict(size=15),
                    colorscale=SEQUENTIAL, zmin=zmin, zmax=1.0, xgap=2, ygap=2, hoverongaps=False,
                    colorbar=dict(thickness=12, len=0.8),
                    hovertemplate=("row %{y} (reference)" if not result.symmetric else "%{y}")
                    + " · %{x}: %{z:.4f}<extra></extra>")
    n = len(who)
    fig.update_layout(title=plot(title), height=max(300, 70 * n + 160), **_LAYOUT)
    fig.update_yaxes(autorange="reversed", title="reference (row)" if not result.symmetric
                     else None, type="category")
    fig.update_xaxes(side="bottom", title="compared (column)" if not result.symmetric else None,
                     type="category")
    return fig


MATRIX_CSS = (
    "<style>.ann-matrix{overflow-x:auto;max-width:100%}"
    ".ann-matrix table{border-collapse:separate;border-spacing:2px;margin:0}"
    ".ann-matrix caption{caption-side:top;text-align:left;font-weight:600;padding:0 0 .3rem}"
    ".ann-matrix th{font-weight:400;padding:.2rem .5rem;border:none;background:none}"
    ".ann-matrix thead th{text-align:center}.ann-matrix tbody th{text-align:right}"
    ".ann-matrix td{min-width:4.5rem;height:2.6rem;text-align:center;font-size:15px;"
    "font-variant-numeric:tabular-nums;border:none;padding:.2rem .5rem}"
    ".ann-matrix .scale{display:flex;align-items:center;gap:.4rem;font-size:.8rem;"
    "margin-top:.3rem}.ann-matrix .bar{width:8rem;height:.6rem}"
    ".ann-matrix p.ann-note{font-size:.875rem;opacity:.6;margin:0 0 .5rem}</style>")
"""The style of :func:`matrix_html` (one ``<style>`` per table: the element carries it)."""

HEADING_CSS = (
    "<style>h2.ann-h{font-size:1.75rem;font-weight:600;line-height:1.2;margin:0;"
    "padding:.5rem 0 .75rem}p.ann-why{font-size:.875rem;opacity:.6;margin:.6rem 0 0}</style>")
"""The style of a section's heading and note drawn inside its HTML element
(:func:`matrix_html`, :func:`tiles_html`) as a section header (``st.header``, sized by
:data:`ui.sidebar.HEADING_CSS`) and a caption would look."""


def _heading(text: str | None) -> str:
    """``text`` as the section's ``<h2>`` (escaped), or nothing."""
    return "" if text is None else f'{HEADING_CSS}<h2 class="ann-h">{escape(text)}</h2>'


def _scale_colour(t: float) -> str:
    """The :data:`~core.render.palette.SEQUENTIAL` colour at ``t`` in [0, 1], as ``#rrggbb``
    (the colour the heatmap's trace gives the same value)."""
    rgb = pcolors.sample_colorscale(pcolors.get_colorscale(SEQUENTIAL), [min(1.0, max(0.0, t))])
    r, g, b = (round(float(x)) for x in rgb[0][4:-1].split(","))
    return f"#{r:02x}{g:02x}{b:02x}"


def matrix_html(result: PairwiseResult | None, annotators: Sequence[str], *, key: str | None,
                title: str, heading: str | None = None, note: str | None = None) -> str:
    """The pairwise matrix as an HTML table, one element where the heatmap chart cost Chromium
    50-60 ms of its main thread on every visit (docs/performance.md, "Issue 29, tenth pass").

    Every value is written in its cell (three decimals; the full value in ``data-value`` and
    on hover), on the colour the heatmap gives it (:data:`~core.render.palette.SEQUENTIAL`
    from min(0, lowest value) to 1, the text in :func:`~core.render.palette.ink_on`), so the
    colour is never the only cue; an undefined cell is grey, written "n/a" and titled with its
    reason, the diagonal "—". Row and column headers are table headers (``scope``), the title
    its caption, so a screen reader reads each cell with its pair. ``result`` None: the
    matrix while it is computed, every cell "…". ``heading``: the section's heading above the
    table, in the same element (one element less than a subheader); ``note``: a sentence
    between them, styled as a caption (how to read the cells of an asymmetric or a
    many-annotator measure), where a caption element would change the page's shape with the
    measure. Names and note are escaped."""
    who = list(annotators)
    values: dict[tuple[str, str], tuple[float | None, str]] = {
        (a, b): (_cell(result, a, b, key) if result is not None
                 else (None, "same annotator" if a == b else "computing"))
        for a in who for b in who}
    defined = [v for v, _ in values.values() if v is not None]
    zmin = min(0.0, *defined) if defined else 0.0
    asymmetric = result is not None and not result.symmetric
    corner = "row: reference · column: compared" if asymmetric else ""
    said = "" if note is None else f'<p class="ann-note">{escape(note)}</p>'
    # The matrix scrolls sideways on a phone: focusable and named, so the keyboard can scroll
    # it (axe-core's scrollable-region-focusable); an empty corner is a data cell, not a header.
    head = f'<th scope="col">{corner}</th>' if corner else "<td></td>"
    rows = [f'<div class="ann-matrix" tabindex="0" role="region" '
            f'aria-label="{escape(title)}">{_heading(heading)}{MATRIX_CSS}{said}'
            f"<table><caption>{escape(title)}</caption>",
            f"<thead><tr>{head}"
            + "".join(f'<th scope="col">{escape(b)}</th>' for b in who) + "</tr></thead><tbody>"]
    for a in who:
        cells = [f'<th scope="row">{escape(a)}</th>']
        for b in who:
            value, why = values[(a, b)]
            pair = f"{'row ' + a + ' (reference)' if asymmetric else a} · {b}"
            if value is None:
                mark = "—" if a == b else ("…" if result is None else "n/a")
                cells.append(f'<td style="background:#eeeeee;color:{ink_on("#eeeeee")}" '
                             f'title="{escape(pair)}: {escape(why)}">{mark}</td>')
                continue
            t = (value - zmin) / (1.0 - zmin) if zmin < 1.0 else 1.0
            fill = _scale_colour(t)
            cells.append(f'<td style="background:{fill};color:{ink_on(fill)}" '
                         f'title="{escape(pair)}: {value:.4f}" data-value="{value!r}">'
                         f"{_fmt(value)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    rows.append("</tbody></table>")
    if defined:
        stops = ",".join(_scale_colour(i / 4) for i in range(5))
        rows.append(f'<div class="scale" aria-hidden="true"><span>{_fmt(zmin)}</span>'
                    f'<span class="bar" style="background:linear-gradient(to right,{stops})">'
                    "</span><span>1.000</span></div>")
    rows.append("</div>")
    return "".join(rows)


def against_bars(table: pd.DataFrame, column: str, *, title: str) -> go.Figure:
    """Grouped bars: each annotator's ``column`` against the gold and against the majority, told
    apart by colour and by fill pattern."""
    fig = go.Figure()
    for i, (ref, part) in enumerate(table.groupby("against", sort=False)):
        fig.add_bar(x=[plot(a) for a in part["annotator"]], y=part[column],
                    name=plot(f"against {ref}"),
                    marker_color=PALETTE[i % len(PALETTE)],
                    marker_pattern_shape=FILL_PATTERNS[i % len(FILL_PATTERNS)],
                    text=[_fmt(v) if pd.notna(v) else "n/a" for v in part[column]],
                    textposition="outside")
    fig.update_layout(barmode="group", title=plot(title), height=340,
                      yaxis_title=plot(column),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1,
                                  xanchor="right"), **_LAYOUT)
    return fig


def alignment_figure(al: Mapping[str, Any], colours: Mapping[str, str], *, title: str
                     ) -> go.Figure:
    """The best alignment of one document: one band per annotator, each unit a bar coloured by
    its label and marked in its middle with the label's symbol (:data:`MARKER_SYMBOLS`, the
    second cue: colour never tells the labels apart alone; the symbol in the ink that reads on
    the colour, :func:`~core.render.palette.ink_on`), an annotator's overlapping units on
    separate lines of its band, the units of one unitary alignment joined by a dotted grey
    line."""
    who: list[str] = list(al["annotators"])
    units = al["units"]
    # y of each unit: its annotator's band (top to bottom in annotator order) plus its lane.
    lane = [0] * len(units)
    depth: dict[str, int] = {}
    for w in who:
        idx = [i for i, u in enumerate(units) if u["annotator"] == w]
        lanes = assign_lanes([(units[i]["start"], units[i]["end"]) for i in idx])
        for i, ln in zip(idx, lanes, strict=True):
            lane[i] = ln
        depth[w] = max(lanes, default=0) + 1
    base: dict[str, float] = {}
    y = 0.0
    for w in who:
        base[w] = y
        y -= depth[w] * 0.45 + 0.8
    ys = [base[u["annotator"]] - 0.45 * lane[i] for i, u in enumerate(units)]
    fig = go.Figure()
    links_x: list[float | None] = []
    links_y: list[float | None] = []
    for row in al["alignments"]:
        members = [row["units"][w] for w in who if row["units"].get(w) is not None]
        if len(members) < 2:
            continue
        for u in members:
            links_x.append((units[u]["start"] + units[u]["end"]) / 2)
            links_y.append(ys[u])
        links_x.append(None)
        links_y.append(None)
    if links_x:
        fig.add_scatter(x=links_x, y=links_y, mode="lines", name="aligned units",
                        line=dict(color="#777777", width=1.5, dash="dot"), hoverinfo="skip")
    by_label: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        by_label.setdefault(u["label"], []).append(i)
    for k, (lab, idx) in enumerate(sorted(by_label.items())):
        xs: list[float | None] = []
        yv: list[float | None] = []
        hover: list[str | None] = []
        size: list[int] = []
        for i in idx:
            u = units[i]
            desc = plot(f"{u['annotator']}: [{u['start']}, {u['end']}) {lab}")
            xs += [u["start"], (u["start"] + u["end"]) / 2, u["end"], None]
            yv += [ys[i], ys[i], ys[i], None]
            hover += [desc, desc, desc, None]
            size += [0, 9, 0, 0]  # the label's mark in the middle of each unit
        colour = colours.get(lab, "#444444")
        fig.add_scatter(x=xs, y=yv, mode="lines+markers", name=plot(lab), text=hover,
                        hoverinfo="text", line=dict(color=colour, width=12),
                        marker=dict(symbol=MARKER_SYMBOLS[k % len(MARKER_SYMBOLS)], size=size,
                                    color=ink_on(colour), line=dict(width=0)))
    rows = sum(depth.values())
    fig.update_layout(title=plot(title), height=150 + 34 * rows + 30 * len(who),
                      xaxis_title="character offset", showlegend=True,
                      legend=dict(orientation="h", yanchor="top", y=-0.3, x=0,
                                  itemsizing="constant"), **_LAYOUT)
    fig.update_yaxes(tickvals=[base[w] for w in who], ticktext=[plot(w) for w in who],
                     zeroline=False,
                     range=[y + 0.4, 0.5], showgrid=False)
    return fig


# ---- what a rerun draws again, cached ----------------------------------------------------------
# A switch of measure reruns the whole page; what it draws for a measure already computed was
# rebuilt on every run: three plotly figures (each copies the plotly_white template when built:
# 10–75 ms a figure on a loaded machine) and the 10,000-row ranking table (20–40 ms). They are
# kept per view instead (docs/performance.md, "the measure switch, fourth round"); the chart
# element copies its figure (``Figure.to_dict``) before sending it, so a kept figure is never
# changed.


def view_key(ws: Workspace, c: Choice) -> tuple[Any, ...]:
    """What a measure's view depends on (the key of :func:`view_job` and :func:`measure_view`;
    the seed and samples only for the γ measures)."""
    chance = (c.seed, c.samples) if c.measure in GAMMA_MEASURES else (0, 30)
    return (ws.key, c.sets, c.label, c.measure, c.gold, c.leave_one_out, *chance)


@st.cache_resource(max_entries=64, show_spinner=False)
def heatmap_of(key: tuple[Any, ...], cell: str | None, title: str, _result: PairwiseResult
               ) -> go.Figure:
    """:func:`heatmap` of the view :func:`view_key` ``key`` names, kept."""
    return heatmap(_result, key=cell, title=title)


@st.cache_resource(max_entries=64, show_spinner=False)
def against_of(key: tuple[Any, ...], _view: MeasureView) -> tuple[pd.DataFrame, go.Figure | None]:
    """:func:`against_table` of the view ``key`` names and its :func:`against_bars` (None for an
    empty table), kept."""
    table = against_table(_view)
    if not len(table):
        return table, None
    column = "F1" if _view.measure in ASYMMETRIC else _view.measure
    return table, against_bars(table, column, title=f"{column} of each annotator")


@st.cache_resource(max_entries=64, show_spinner=False)
def ranking_of(key: tuple[Any, ...], _view: MeasureView) -> tuple[pd.DataFrame, bool]:
    """:func:`ranking_table` of the view ``key`` names and whether a score in it exceeds 1
    (:func:`ui.above_one.any_above_one`), kept."""
    table = ranking_table(_view.ranking, _view.measure)
    return table, above_one.any_above_one(table)


@st.cache_resource(max_entries=64, show_spinner=False)
def alignment_figure_of(key: tuple[Any, ...], colours: tuple[tuple[str, str], ...], title: str,
                        _al: Mapping[str, Any]) -> go.Figure:
    """:func:`alignment_figure` of the alignment :func:`alignment` computes for ``key`` (its
    arguments), kept."""
    return alignment_figure(_al, dict(colours), title=title)


__all__ = [
    "ASYMMETRIC", "GAMMA_MEASURES", "MANY_MEASURES", "MEASURES", "MEASURE_HELP", "SPAN_CELLS",
    "Job", "MeasureView",
    "against_bars", "against_table", "alignment", "alignment_figure", "alignment_table",
    "cell_key", "document_gamma", "document_majority", "gamma_job", "heatmap", "many_job",
    "many_table", "many_values", "matrix_table", "measure_view", "per_label_table", "progress",
    "ranking_table", "restricted", "shown", "study", "undefined_cells", "view_job",
]


# ---- the page's sections, in the order pages/annotators.py draws them --------------------------


def data() -> tuple[Workspace, list[str]]:
    """The workspace with spans past their text clipped (:func:`ui.text_policy.for_agreement`)
    and the notes saying so; stops the page when fewer than two sets are loaded."""
    ws, clipped = text_policy.for_agreement(current.workspace())
    if ws.empty or len(ws.sets) < 2:
        st.info("Agreement needs at least two annotation sets (annotators, or a gold and "
                "systems).", icon="ℹ️")
        st.page_link("pages/data.py", label="Load data on the Data page", icon="📂")
        st.stop()
    if not ws.shareable:
        st.caption("🔗 " + state.UPLOAD_LINK_NOTE)
    return ws, clipped


@dataclass(frozen=True)
class Choice:
    """What the user chose to compare, and how."""

    sets: tuple[str, ...]
    measure: str
    label: str | None
    gold: str | None
    leave_one_out: bool
    seed: int
    samples: int
    labels: list[str]
    """Every label of the workspace (the colour map's domain)."""


def _drop_stale(ws: Workspace, label_options: list[str], gold_options: list[str]) -> None:
    """Values left from another corpus (the sidebar switches corpora) are dropped before the
    widgets are drawn, so a widget never holds a value it does not offer."""
    for widget, options in ((K_ANN_LABEL, label_options), (K_ANN_GOLD, gold_options)):
        if st.session_state.get(widget) not in (None, *options):
            del st.session_state[widget]
    if any(n not in ws.sets for n in st.session_state.get(K_ANN_SETS) or ()):
        del st.session_state[K_ANN_SETS]


def _undecided_name(auto: str | None, name: str) -> str:
    """``name`` as the set widgets show it: the undecided consensus ``auto`` says so."""
    return f"{name} (undecided consensus)" if name == auto else name


def _kept(key: str, default: int) -> int:
    """γ's setting ``key`` while its input is not drawn: a link's value (``ui.query`` checked
    it), else the value the input had (kept for the session), else ``default``."""
    if key in st.query_params:
        return int(st.query_params[key])
    value = st.session_state.get(key)
    return default if value is None else int(value)


def gamma_settings(measure: str) -> tuple[int, int]:
    """γ's seed and chance samples: two inputs beside the measure when γ is chosen; otherwise
    not drawn, their values kept (``persist_state="session"``, or a link's ``?ann_seed=`` and
    ``?ann_samples=``) for the γ tiles and the alignment. Two number inputs in a closed
    expander cost the browser part of every visit (docs/performance.md, "Issue 29, tenth pass:
    the Annotators page's first screen, second cut")."""
    # A slot (an empty element, not drawn) whatever the measure: the inputs drawn in it
    # under γ do not move the elements below them, which the browser would otherwise mount
    # again (docs/performance.md, "Issue 29, eleventh pass").
    slot = st.empty()
    if measure not in GAMMA_MEASURES:
        return _kept(K_ANN_SEED, GAMMA_SEED), _kept(K_ANN_SAMPLES, GAMMA_SAMPLES)
    g1, g2, _ = slot.container().columns([1, 1, 4])
    seed = int(g1.number_input("γ seed", min_value=0, max_value=2**31 - 1, value=GAMMA_SEED,
                               step=1, key=K_ANN_SEED, bind="query-params",
                               persist_state="session"))
    samples = int(g2.number_input("γ chance samples", min_value=1, max_value=1000,
                                  value=GAMMA_SAMPLES, step=10, key=K_ANN_SAMPLES,
                                  bind="query-params", persist_state="session",
                                  help="Chance continua γ is compared with; more samples: a "
                                  "smaller Monte-Carlo spread, a longer wait."))
    return seed, samples


def gold_among_note(gold: str) -> str:
    """The caption when the set scored against (the gold) is also one of the sets compared:
    files whose names state no role (a PTC ``ana.labels``) are all systems, so the page
    compares every set, the gold too, and "all sets together" counted it as one more annotator
    unsaid (tour 18).
    """
    return (f"ℹ️ **{md(gold)}**, the gold, is also one of the sets compared: the matrix and the "
            "values of all sets together count it as one more annotator. Take it out of "
            "Annotation sets to compare the annotators alone.")


def no_annotators_note(ws: Workspace, chosen: Sequence[str]) -> str | None:
    """The note when fewer than two sets have the annotator role and the sets compared are not
    all annotators: the page then compares every set by default, a gold with predictions, which
    is a system's agreement with the gold, not agreement between annotators; it says which
    sets are which and where roles are given. None otherwise."""
    if len(state.set_options(ws, "annotator")) >= 2:
        return None
    by_role = {role: [n for n in chosen if ws.sets[n].role == role]
               for role in ("gold", "system", "annotator")}
    if not by_role["gold"] and not by_role["system"]:
        return None
    words = {"gold": ("the gold", "the golds"), "system": ("the system", "the systems"),
             "annotator": ("the annotator", "the annotators")}
    parts = [f"{words[role][len(names) > 1]} " + ", ".join(f"**{md(n)}**" for n in names)
             for role, names in by_role.items() if names]
    which = ("compares every set loaded" if set(chosen) >= set(ws.sets)
             else "compares the sets chosen")  # a choice of some is not all (review20)
    return (f"Fewer than two sets have the annotator role, so the page {which}: "
            f"{' with '.join(parts)}. Agreement with a gold is a system's score seen as "
            "agreement, not agreement between annotators. To compare annotators, give their "
            "files the annotator role (the Role box on the Data page, or a name with "
            "`annotator` or `ann_` in it).")


def choose(ws: Workspace) -> Choice:
    """The sets, measure, label, gold, majority and γ widgets; stops below two sets."""
    names = list(ws.sets)
    # the Curation page's automatic consensus, nothing decided yet: offered, never a default
    auto = undecided(ws)
    default_sets = state.set_options(ws, "annotator")
    if len(default_sets) < 2:
        default_sets = [n for n in names if n != auto]
    labels = state.all_labels(ws.key, ws)
    label_options = [ANN_ALL_LABELS, *labels]
    gold_options = [ANN_NO_GOLD, *names]
    golds = [n for n in state.set_options(ws, "gold") if n != auto]
    _drop_stale(ws, label_options, gold_options)
    chosen = st.multiselect("Annotation sets", names, default=default_sets, key=K_ANN_SETS,
                            bind="query-params", format_func=partial(_undecided_name, auto),
                            help=full_name_help(K_ANN_SETS, list(default_sets), "Two or more "
                                                "sets. By default the sets with the annotator "
                                                "role (with fewer than two, every set: the gold "
                                                "and the systems too)."))
    if auto is not None:
        st.caption(f"“{md(auto)}” is the Curation page's automatic consensus of these sets, "
                   "nothing decided yet (undecided): offered, never chosen by default.")
    # Three menus a row; the toggle on a line of its own: in a fourth column a 1280 px window
    # cut its label to "Leave-one-out majo…" (at 150 % zoom to "Leave-…").
    c1, c2, c3 = st.columns(3)
    measure = c1.selectbox("Measure", MEASURES, index=MEASURES.index("char-kappa"),
                           key=K_ANN_MEASURE, bind="query-params",
                           help="The names of `python -m core agree --measure`.")
    label_shown = c2.selectbox("Label", label_options, key=K_ANN_LABEL, bind="query-params",
                               help="Keep only one label's spans in every measure and drawing.")
    gold = c3.selectbox("Gold (to score each annotator against)", gold_options,
                        index=gold_options.index(golds[0]) if golds else 0, key=K_ANN_GOLD,
                        bind="query-params", format_func=partial(_undecided_name, auto),
                        help=full_name_help(K_ANN_GOLD, golds[0] if golds else None))
    leave_one_out = st.toggle("Leave-one-out majority", key=K_ANN_LOO, bind="query-params",
                              help="Off: the majority of all chosen sets (it includes the "
                              "annotator scored, which flatters it). On: the majority of the "
                              "others.")
    seed, samples = gamma_settings(measure)
    st.caption(f"**{measure}**: {MEASURE_HELP[measure]}")
    said = no_annotators_note(ws, chosen)
    if said is not None and len(chosen) >= 2:
        st.info(said, icon="👥")
    if gold != ANN_NO_GOLD and gold in chosen and len(chosen) > 2:
        st.caption(gold_among_note(gold))
    for group in identical_sets(ws, [*chosen, *([gold] if gold != ANN_NO_GOLD else [])]):
        st.warning(identical_note(group, chosen, None if gold == ANN_NO_GOLD else gold),
                   icon="🪞")
    if len(chosen) < 2:
        st.info("Pick at least two annotation sets above to compare them.", icon="ℹ️")
        st.page_link("pages/data.py", label="Load more sets on the Data page", icon="📂")
        st.stop()
    return Choice(tuple(chosen), measure, None if label_shown == ANN_ALL_LABELS else label_shown,
                  None if gold == ANN_NO_GOLD else gold, leave_one_out, seed, samples, labels)


@dataclass(frozen=True)
class Computed:
    """The study and the measures of a choice: ``view`` is None while its γ job runs or when it
    failed (``view_error``); ``gamma`` is None when the corpus γ is off."""

    study: Study
    gamma: Job[dict[str, ManyResult]] | None
    view_job: Job[MeasureView] | None
    view: MeasureView | None
    view_error: str | None
    many: Job[dict[str, ManyResult]] | None = None
    """The many-annotator measures' job on a large corpus (None: computed in the run)."""
    matrix: PairwiseResult | None = None
    """The pairwise matrix while ``view`` is None, computed in the page (:func:`matrix_here`)."""


def compute(ws: Workspace, c: Choice, clipped: Sequence[str]) -> Computed:
    """The study, the corpus γ job and the measure's view (a job for the γ measures); stops the
    page on sets that cannot be compared, and shows the study's warnings."""
    sets, label = c.sets, c.label
    try:
        st_ = study(ws.key, ws, sets, label)
        # The corpus γ takes minutes on thousands of documents (and a core meanwhile): above
        # GAMMA_AUTO_DOCS it is computed when asked for; otherwise it is queued first.
        many_docs = len(st_.docs) > GAMMA_AUTO_DOCS
        gamma_on = not many_docs or st.toggle(
            f"Compute γ and γ-cat of all {len(st_.docs):,} documents", key=K_ANN_GAMMA_ON,
            persist_state="session",
            help=f"Off by default above {GAMMA_AUTO_DOCS:,} documents: γ aligns every document "
            "with chance samples, which takes minutes here (in the background, one core).")
        gjob = gamma_job(ws.key, ws, sets, label, c.seed, c.samples) if gamma_on else None
        background = len(st_.docs) > BACKGROUND_DOCS
        vjob: Job[MeasureView] | None
        if c.measure in GAMMA_MEASURES or background:
            # seed and samples are γ's: other measures keep one job whatever they are
            seed, samples = (c.seed, c.samples) if c.measure in GAMMA_MEASURES else (0, 30)
            vjob = view_job(ws.key, ws, sets, label, c.measure, c.gold, c.leave_one_out, seed,
                            samples)
            wait_in_flight(c, vjob, len(st_.docs))
            matrix = matrix_here(ws, c, vjob, len(st_.docs))
            if matrix is None:
                run_here_if_busy(ws, c, vjob, len(st_.docs))
            view = vjob.result() if vjob.done() and vjob.error() is None else None
            view_error = vjob.error()
        else:
            vjob, view_error, matrix = None, None, None
            view = measure_view(ws.key, ws, sets, label, c.measure, c.gold, c.leave_one_out)
        shown([gjob, vjob])
        # After shown(): the chosen measure's job is queued first, the others behind it, and
        # the many-annotator values last (many_later).
        mjob = many_later(ws, sets, label) if background else None
        prefetch(ws, c, len(st_.docs))
    except SpanScopeError as exc:
        st.error("These sets cannot be compared: "
                 f"{md(text_policy.for_agreement_pages(str(exc)))}", icon="❌")
        st.page_link("pages/data.py", label="Change the choice on the Data page", icon="📂")
        st.stop()
    warnings = [*clipped, *st_.warnings, *study_warnings(ws.key, ws, sets, label)]
    # Up to WARNINGS_SHOWN warnings are captions; more (one per document with a duplicate span:
    # thousands on a large corpus) are the first and a table of the others, in a closed lazy
    # expander: five captions pushed the matrix below the first screen, and the table's grid
    # cost the browser some 25 ms on every visit though closed (docs/performance.md, "Issue 29,
    # ninth pass: the Annotators page").
    captions = warnings if len(warnings) <= WARNINGS_SHOWN else warnings[:WARNINGS_FIRST]
    for warning in captions:
        st.caption(f"⚠️ {md(warning)}")
    if len(warnings) > len(captions):
        rest = pd.DataFrame({"warning": warnings[len(captions):]})
        more = lazy_expander(f"⚠️ {len(rest):,} more warnings", key=K_ANN_WARNINGS)
        if more.open is not False:
            with more:
                st.dataframe(paginate(rest, key="ann_warnings_page"), hide_index=True,
                             key="ann_warnings", placeholder="—")
    alone, _ = coverage(ws.key, ws, sets, label)
    if alone:
        noun = "document" if len(alone) == 1 else "documents"
        verb = "is" if len(alone) == 1 else "are"
        listed = lazy_expander(f"⚠️ {len(alone):,} {noun} of {len(st_.docs):,} {verb} in one "
                               "chosen set only: nothing is compared there", key=K_ANN_ALONE)
        if listed.open is not False:
            with listed:
                st.caption("Their text matches no other chosen set's documents (sets whose ids "
                           "differ are matched by text on the Data page; see each file's "
                           "notes).")
                st.dataframe(pd.DataFrame(alone, columns=["document", "only in"]),
                             hide_index=True, key="ann_single_docs")
    return Computed(st_, gjob, vjob, view, view_error, mjob,
                    matrix if view is None and view_error is None else None)


def wait_or_error(job: Job[Any] | None, error: str | None) -> None:
    """The input error that stopped a job, or a note that it is running (its progress bar is
    above the tabs: :func:`progress_bars`)."""
    if error:
        st.error(md(error), icon="❌")
    elif job is not None and not job.done():
        st.caption(f"⏳ {md(job.title)}: computing in the background (progress above).")


def progress_bars(r: Computed) -> None:
    """A progress bar for each background job of the choice still running (the measure's view,
    the many-annotator values, γ), above the tabs: each reruns the page when its job is done,
    whichever tab is open."""
    jobs: tuple[Job[Any] | None, ...] = (r.view_job, r.many, r.gamma)
    running = [job for job in jobs if job is not None and not job.done()]
    # In a slot (an empty element while none runs): the bars that come and go do not move the
    # tabs, which the browser would otherwise mount again with all they hold.
    slot = st.empty()
    # The chosen measure's view on a corpus whose views take tenths of a second (not γ's):
    # its bar looks at the job more often, so the page reruns sooner after it is done.
    quick = (r.view_job is not None and r.view_job.kwargs.get("measure") in PREFETCHED
             and BACKGROUND_DOCS < len(r.study.docs) <= PREFETCH_DOCS)
    if running:
        with slot.container():
            for job in running:
                if job is r.view_job and quick:
                    progress(job, every=VIEW_POLL)
                else:
                    progress(job)


def tabs() -> tuple[Any, Any, Any]:
    """The tabs of :data:`TABS` (lazy: a closed tab's ``open`` is False and the page skips
    it), bound to the URL so that a link opens the same tab; a link that names a document
    (``ann_doc``) and no tab opens the documents' tab, where that document is drawn."""
    if (K_ANN_DOC in st.query_params and K_ANN_TAB not in st.query_params
            and K_ANN_TAB not in st.session_state):
        # Once, before the widget: a default that changed between runs would make it another
        # widget, whose state undoes the user's next click on a tab.
        st.session_state[K_ANN_TAB] = TABS[2]
    who, against, docs = st.tabs(list(TABS), key=K_ANN_TAB, on_change="rerun",
                                 bind="query-params")
    return who, against, docs


def pairwise_matrix(ws: Workspace, c: Choice, r: Computed) -> None:
    """The measure for every pair of sets, as a table (a heatmap once asked for; the undefined
    cells' reasons); the section's heading is the table's element's for every measure (one
    element less on every visit), a "Cells show" control comes after the table.

    A switch of measure changes the cells, not the page's shape: what comes and goes with the
    measure (span-F1's "Cells show" control, the undefined cells' reasons, the note
    that the view is computed) is inside the matrix's container, how to read the cells is a
    sentence of the table's element, and the chart's expander and the downloads are inside
    the section's container, so the tiles and the other elements after them keep their
    places and the browser redraws the matrix alone (docs/performance.md, "Issue 29, eleventh
    pass")."""
    with st.container(key="ann_pairwise"):
        _pairwise(ws, c, r)


def _pairwise(ws: Workspace, c: Choice, r: Computed) -> None:
    view, measure = r.view, c.measure
    pw = view.pairwise if view is not None else r.matrix
    heading = "Pairwise agreement"
    if pw is None:
        # The matrix's cells while they are computed ("…"), under the same heading and
        # headers as the values that replace them; the note that they are computed below.
        with st.container(key="ann_matrix"):
            if r.view_error is None:
                st.html(matrix_html(None, c.sets, key=None,
                                    title=f"{measure}: computing every pair…", heading=heading))
            else:
                st.header(heading)
            wait_or_error(r.view_job, r.view_error)
        return
    cell, note = "F1", None
    with st.container(key="ann_matrix"):
        # The table (and its heading) first, the "Cells show" control after it: the control is
        # read before the table is drawn into its slot, so the heading stays the table's
        # element's for every measure (docs/performance.md, "Issue 29, tenth pass").
        table = st.empty()
        if measure in ASYMMETRIC:
            cell = st.radio("Cells show", SPAN_CELLS, key=K_ANN_CELL, bind="query-params",
                            horizontal=True)
            note = ("Row = reference (treated as gold), column = compared: P(row, column) = "
                    "R(column, row). Martino's F1 is the same both ways."
                    + (" In its SemEval-2021 variant P and R can exceed 1: every overlapping "
                       "same-label pair counts, as in the official scorer."
                       if measure == "span-f1" else ""))
        elif measure in BLIND_MEASURES:
            # the label-blind form, as span-F1's P and R
            cell = st.radio("Cells show", BLIND_CELLS, key=K_ANN_BLIND, bind="query-params",
                            horizontal=True, help="Positions only: the measure with every "
                            "label ignored (agree's `position:` line and `matrix_position`).")
            if cell == BLIND_CELLS[1]:
                note = BLIND_NOTES[measure]
            elif measure == "exact-f1":
                note = ("A span agrees only with a span of the same start, end and label (one "
                        "character off is a miss on both sides); an annotator's duplicate "
                        "spans count once. The same both ways: 2 × matches / (spans of both).")
        elif measure in MANY_MEASURES:
            note = (f"{measure} is a many-annotator measure: each cell is its value for that "
                    "pair alone.")
        key_of = cell_key(measure, cell)
        title = (f"{measure} ({cell})" if measure in ASYMMETRIC
                 else f"{measure} ({cell})" if key_of == "position" else measure)
        if c.label is not None:  # the matrix (and its PNG) of one label says so (tour20)
            title = title.replace(measure, f"{measure} of label {c.label}", 1)
        if measure in GAMMA_MEASURES:
            title += f" ({c.samples} samples, seed {c.seed})"
        # The matrix as a table (one HTML element, some 50-60 ms less of Chromium's main
        # thread on every visit than the chart); the chart, with its hover and PNG/SVG
        # download, when its lazy expander is opened (docs/performance.md, "Issue 29, tenth
        # pass").
        table.html(matrix_html(pw, pw.annotators, key=key_of, title=f"{title}, every pair",
                               heading=heading, note=note))
        undefined = undefined_cells(pw, key_of)
        if len(undefined):
            st.caption(f"{len(undefined)} cell(s) are undefined (grey, n/a); why:")
            st.dataframe(undefined, hide_index=True, key="ann_undefined", placeholder="—")
    chart = lazy_expander("📈 The matrix as a chart (hover, PNG or SVG download)",
                          key=K_ANN_CHART)
    if chart.open is not False:
        with chart:
            st.plotly_chart(heatmap_of(view_key(ws, c), key_of, f"{title}, every pair", pw),
                            key="ann_matrix_chart", width="stretch")
    download_buttons(matrix_table(pw, key_of), "pairwise", key="dl_ann_matrix",
                     settings={"measure": measure,
                               "cells": cell if measure in ASYMMETRIC or measure in
                               BLIND_MEASURES else None,
                               "label": c.label, "sets": list(c.sets),
                               **({"samples": c.samples, "seed": c.seed}
                                  if measure in GAMMA_MEASURES else {})})


TILES_CSS = (
    "<style>dl.ann-tiles{display:flex;flex-wrap:wrap;gap:.6rem 1.2rem;margin:0;"
    "padding:0 !important}"
    ".ann-tile{flex:1 1 7rem;min-width:7rem;margin:0;padding:0}"
    ".ann-tile dt{font-size:.875rem;font-weight:400;margin:0;padding:0}"
    ".ann-tile dd{margin:0;padding:0}.ann-tile .value{font-size:2.25rem;line-height:1.3}"
    ".ann-tile .note,.ann-tile summary{font-size:.8rem;opacity:.8;margin:.1rem 0 0}"
    ".ann-tile summary{cursor:pointer;text-decoration:underline dotted}"
    ".ann-tile details p{font-size:.8rem;margin:.2rem 0 0}</style>")
"""The style of :func:`tiles_html`."""


def tile(name: str, res: ManyResult | None, gamma_off: bool,
         units: tuple[int, int] | None = None, constant: Sequence[str] = (),
         varying: Agreement | None = None) -> tuple[str, str, str, list[str]]:
    """What the tile of the many-annotator measure ``name`` shows: its label
    (:data:`TILE_NAMES`), its value ("off" while the corpus γ is off, "…" while it is computed,
    "n/a" when undefined), its help (the measure, or why it is undefined) and its notes (γ's
    spread, samples and seed; why undefined; the documents it read; too few documents; the
    labels ``constant`` that every annotator used in every document, :func:`constant_labels`,
    and ``varying``, the value without them, :func:`varying_note`)."""
    label = TILE_NAMES[name]
    if res is None and gamma_off:
        return label, "off", f"{MANY_NAMES[name]}: turn on the γ toggle above to compute it.", []
    if res is None:
        return label, "…", f"{MANY_NAMES[name]}: computing in the background (progress above)", []
    value = res.overall.value
    help_ = (f"{MANY_NAMES[name]}: {res.overall.reason}" if res.overall.reason
             else MEASURE_HELP[name]
             + (" ± is twice the Monte-Carlo standard deviation of γ." if name == "gamma"
                else ""))
    notes = []
    if name in GAMMA_MEASURES:
        sd = res.overall.stats.get("gamma_mc_sd")
        spread = f"± {2 * sd:.3f} · " if name == "gamma" and sd is not None else ""
        notes.append(f"{spread}{res.params['samples']} samples · seed {res.params['seed']}")
    elif value is None:
        notes.append(res.overall.reason or "undefined")
    if (subset := subset_note(res)) is not None:
        notes.append(subset)
    if units is not None and (note := few_units_note(*units)) is not None:
        notes.append(note)
        help_ += (f" Computed over {units[0]:,} documents × the labels = {units[1]:,} "
                  f"present/absent units. {WHY_THEY_DIFFER}")
    if (units is not None and value is not None
            and (fixed := constant_note(constant, *units)) is not None):
        notes.append(fixed)
        help_ += f" {fixed.removeprefix('⚠️ ')}."
        if (more := varying_note(name, varying)) is not None:
            notes.append(more[0])
            help_ += f" {more[1]}"
    return label, "n/a" if value is None else f"{value:.3f}", help_, notes


def tiles_html(tiles: Sequence[tuple[str, str, str, list[str]]], *, heading: str | None = None,
               note: str | None = None) -> str:
    """The many-annotator values (:func:`tile`) as one HTML element, where five ``st.metric``
    in five columns cost Chromium some 20 ms of its main thread on every visit
    (docs/performance.md, "Issue 29, tenth pass"): a description list, one term (the label)
    and its value and notes per measure, side by side and wrapping in a narrow window; the help
    under "about", which opens in place (``<details>``: a keyboard and a screen reader reach
    it, where a hover title would not). ``heading`` above them and ``note`` below, in the same
    element (where a subheader and a caption were two more). Text escaped."""
    parts = [f'{_heading(heading)}{TILES_CSS}<dl class="ann-tiles">']
    for label, value, help_, notes in tiles:
        parts.append(
            f'<div class="ann-tile"><dt>{escape(label)}</dt>'
            f'<dd class="value">{escape(value)}</dd>'
            + "".join(f'<dd class="note">{escape(n)}</dd>' for n in notes)
            + f'<dd><details><summary aria-label="About {escape(label)}">about</summary>'
            f"<p>{escape(help_)}</p></details></dd></div>")
    parts.append("</dl>")
    if note is not None:
        parts.append(f'<p class="ann-why">{escape(note)}</p>')
    return "".join(parts)


def many_results(ws: Workspace, c: Choice, r: Computed) -> dict[str, ManyResult]:
    """The many-annotator values of all the chosen sets computed so far (γ once its job is
    done; none of the background ones while they run)."""
    mjob = r.many
    if mjob is None:
        values = dict(many_values(ws.key, ws, c.sets, c.label))
    else:
        values = dict(mjob.result()) if mjob.done() and mjob.error() is None else {}
    gjob = r.gamma
    if gjob is not None and gjob.done() and gjob.error() is None:
        values.update(gjob.result())
    return values


def together(ws: Workspace, c: Choice, r: Computed, values: Mapping[str, ManyResult]) -> None:
    """The many-annotator values of all the chosen sets as tiles; their table (documents,
    samples, seed) and the values per label in a lazy expander."""
    gjob = r.gamma
    _, units = coverage(ws.key, ws, c.sets, c.label)
    constant = constant_labels_of(ws.key, ws, c.sets, c.label)
    varying = varying_of(ws.key, ws, c.sets, c.label) if any(constant.values()) else {}
    # The heading, the tiles and why they differ in one element: a subheader and a caption
    # were two more for the browser to mount on every visit (docs/performance.md, "Issue 29,
    # tenth pass: the Annotators page's first screen, second cut").
    with st.container(key="ann_tiles"):
        st.html(tiles_html([tile(name, values.get(name), gjob is None and name in GAMMA_MEASURES,
                                 units.get(name), constant.get(name, ()), varying.get(name))
                            for name in MANY_NAMES],
                           heading=f"All {len(c.sets)} sets together"
                           + ("" if c.label is None else f", label {c.label}"),
                           note=WHY_THEY_DIFFER))
    # The notes of the jobs still running (or failed) in a slot: as they go, the expander below
    # keeps its place.
    waiting = [job for job in (r.many, gjob)
               if job is not None and (job.error() is not None or not job.done())]
    slot = st.empty()
    if waiting:
        with slot.container():
            for job in waiting:
                wait_or_error(job, job.error())
    more = st.expander("The values as a table: documents, samples, seed; per label",
                       key=K_ANN_MORE, on_change="rerun")
    if more.open is False:
        return
    with more:
        many = many_table(values)
        st.dataframe(many, hide_index=True, key="ann_many", placeholder="—")
        download_buttons(many, "many_annotators", key="dl_ann_many")
        per_label = per_label_table(values)
        if len(per_label) and c.label is None:
            st.markdown("**Per label**")
            st.caption("Each label alone: Fleiss' κ and Krippendorff's α of whether the label "
                       "occurs in each document, unitizing α_U of its spans' positions; γ-k: "
                       "γ-cat of this label's units (Mathet 2018: in γ's best alignment, only the "
                       "aligned pairs where one unit carries the label count, so it says how "
                       "often the others give that unit the same label). γ itself has no "
                       "per-label value.")
            reasons = undefined_reasons(values)
            st.dataframe(short_reasons(per_label, reasons), hide_index=True,
                         key="ann_per_label", placeholder="—")
            if reasons:
                st.html(reasons_html(reasons))
            download_buttons(per_label, "many_annotators_per_label", key="dl_ann_per_label")


def against_reference(ws: Workspace, c: Choice, r: Computed) -> None:
    """Each annotator scored against the gold and against the majority."""
    st.header("Each annotator against the gold and the majority")
    st.caption(("Majority: the spans (the same start, end and label, exact-f1's instances) "
                "that more than half of the chosen sets marked; a character majority would join "
                "two touching spans into one that nobody marked" if c.measure in INSTANCE_MAJORITY
                else "Majority: the characters (per label) that more than half of the chosen "
                "sets marked, as maximal runs")
               + "; a tie of an even panel is no majority"
               + (" (each annotator left out of its own majority)." if c.leave_one_out else "."))
    if r.view is None:
        wait_or_error(r.view_job, r.view_error)
        return
    if c.gold is None:
        st.caption("No gold chosen: only the majority is shown.")
    table, bars = against_of(view_key(ws, c), r.view)
    if bars is not None:
        st.dataframe(above_one.mark(table), hide_index=True, key="ann_against", placeholder="—")
        above_one.note(table, key="ann_against")
        download_buttons(table, f"against_gold_and_majority_{c.measure}", key="dl_ann_against")
        st.plotly_chart(bars, key="ann_against_chart", width="stretch")


def documents_by_disagreement(ws: Workspace, c: Choice, r: Computed) -> None:
    """The documents ranked by the measure; a picked row draws its document below and links to
    it on the Documents page."""
    st.header("Documents by disagreement")
    view, measure = r.view, c.measure
    if view is None:
        wait_or_error(r.view_job, r.view_error)
        return
    ranking, above = ranking_of(view_key(ws, c), view)
    st.caption(f"Lowest {measure} first"
               + (" (the value of all sets together; the pair is the one that agrees least)."
                  if view.many is not None else " (mean over the pairs; the pair is the one "
                  "that agrees least).") + " Select a row to draw that document below and to "
               "open it on the Documents page.")
    page_rows = paginate(ranking, key=K_ANN_RANK_PAGE)
    if above:
        above_one.note(ranking, key="ann_ranking")
    picked = st.dataframe(above_one.mark(page_rows), hide_index=True, key=K_ANN_RANK_TABLE,
                          on_select="rerun", selection_mode="single-row", placeholder="—")
    download_buttons(ranking, f"documents_by_{measure}", key="dl_ann_ranking")
    rows = picked["selection"]["rows"]
    if not rows:
        return
    row = view.ranking[int(page_rows.iloc[rows[0]]["rank"]) - 1]
    if st.session_state.get(K_ANN_PICKED) != (row.doc, measure):
        # A newly picked row moves the drawing below to its document (once, so the selector
        # stays free to choose another).
        st.session_state[K_ANN_PICKED] = (row.doc, measure)
        st.session_state[K_ANN_DOC] = row.doc
    pair = row.pair or (c.sets[0], c.sets[1])
    st.page_link("pages/documents.py", icon="📄",
                 label=f"Open {md(row.doc)} on the Documents page: {md(pair[0])} vs "
                 f"{md(pair[1])}",
                 query_params={state.K_DOC: row.doc, state.K_SET_A: pair[0],
                               state.K_SET_B: pair[1],
                               **({state.K_METRIC: "mafalda"} if measure == "mafalda-f1"
                                  else {})})


def document_lanes(ws: Workspace, c: Choice, r: Computed) -> tuple[str, dict[str, str]]:
    """One document, every chosen set (the gold first, the majority last) in its own lane;
    returns the document and the colour map."""
    st.header("One document, every annotator")
    docs = r.study.docs
    shown_doc = st.session_state.get(K_ANN_DOC) or st.query_params.get(K_ANN_DOC)
    if shown_doc not in docs:
        st.session_state.pop(K_ANN_DOC, None)
        if r.view is not None and r.view.ranking and r.view.ranking[0].doc in docs:
            # Nothing picked yet: the ranking's first, as the table above lists it (tour
            # finding 16), not the corpus's first.
            st.session_state[K_ANN_DOC] = r.view.ranking[0].doc
    doc = doc_picker.pick_document(ws, docs, key=K_ANN_DOC, bind="query-params")
    text = ws.corpus.texts.get(doc)
    colours = highlight.label_colours(c.labels)
    # (name, set, what it is, DOM id, span-id prefix): the gold first when it is not a chosen
    # set, then every chosen set, then their majority.
    drawn: list[tuple[str, AnnotationSet, str, str, str]] = [
        (n, ws.sets[n], ws.sets[n].role, f"lane-{i}", chr(65 + i % 26))
        for i, n in enumerate(c.sets)]
    if c.gold is not None and c.gold not in c.sets:
        drawn.insert(0, (c.gold, ws.sets[c.gold], "gold, not a chosen set", "lane-gold", "G"))
    drawn.append(("majority", document_majority(ws.key, ws, c.sets, c.label, doc,
                                                    c.measure in INSTANCE_MAJORITY),
                  "strict majority of the chosen sets", "lane-majority", "M"))
    used = {s.label for _, aset, *_ in drawn
            for s in restricted(aset, doc, c.label).get(doc)}
    st.html(highlight.legend(colours, used))
    for name, aset, what, dom_id, prefix in drawn:
        items = highlight.span_items(restricted(aset, doc, c.label), doc, prefix)
        listed = "" if doc in aset.spans else " · does not list this document"
        st.markdown(f"**{md(name)}** ({what}) · {len(items)} span(s){listed}")
        st.html(highlight.render_lanes(text, items, colours, dom_id=dom_id))
    return doc, colours


def document_alignment(ws: Workspace, c: Choice, r: Computed, values: Mapping[str, ManyResult],
                       doc: str, colours: Mapping[str, str]) -> None:
    """γ's best alignment of the document drawn, as a figure and a table."""
    st.markdown(f"**γ alignment of document {md(doc)}**")
    # A document every chosen set lists has its γ in the corpus γ's breakdown (same chance
    # samples, same value, computed in the background): the alignment needs no chance sample.
    everyone = r.gamma is not None and len(r.study.covering(doc)) == len(c.sets)
    try:
        al = alignment(ws.key, ws, c.sets, c.label, doc, c.seed, 1 if everyone else c.samples)
    except SpanScopeError as exc:
        st.info(f"No alignment: {md(exc)}", icon="ℹ️")
        return
    shown_gamma, why = document_gamma(al, values.get("gamma") if everyone else None,
                                      from_corpus=everyone)
    st.caption(f"γ of this document = {shown_gamma} ({c.samples} samples, seed {c.seed}; "
               f"observed disorder {al['observed_disorder']:.3f}; aligned in "
               f"{al['seconds'] * 1000:.0f} ms). Each unitary alignment groups at most one unit "
               "per annotator; ∅ marks an annotator without a unit there."
               + (f" Undefined: {md(why)}" if why else ""))
    if al["units"]:
        drawn = (ws.key, c.sets, c.label, doc, c.seed, 1 if everyone else c.samples)
        st.plotly_chart(alignment_figure_of(drawn, tuple(sorted(colours.items())),
                                            f"Best alignment of document {doc}", al),
                        key="ann_alignment_chart", width="stretch")
    align = alignment_table(al)
    st.dataframe(paginate(align, key="ann_align_page"), hide_index=True, key="ann_alignment",
                 placeholder="—")
    download_buttons(align, f"alignment_{doc}", key="dl_ann_alignment")
