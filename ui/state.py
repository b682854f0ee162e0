"""Session state of the dashboard in one place: keys, defaults, the loaded data and the caches.

Every page imports its keys from here, so a key is spelled once and its default lives beside it.
Keys that define a *view* (which sample corpus, document, sets compared, metric, variant, level)
are bound to URL query parameters by the widgets that own them (``bind="query-params"``), so that
a link reproduces the view; the data itself never travels in a link. Uploaded data therefore
cannot be shared by URL (pages say so, see :data:`UPLOAD_LINK_NOTE`).

Public API (stable; the part-2 pages import it)
-----------------------------------------------
``K_*`` constants and :data:`DEFAULTS`
    Session-state keys and their defaults. :func:`init_state` fills the missing ones.
:class:`FileReport`, :class:`Workspace`
    What one input file gave (sets, diagnostics, error) and the data the pages work on (a
    :class:`core.model.Corpus` plus the file reports).
:func:`workspace`
    The current workspace: the uploaded files when the user chose them on the Data page, else the
    bundled sample corpus selected by ``?sample=`` (default ``propaganda``).
:func:`sample_names`, :func:`load_sample`
    The bundled corpora under ``sample_data/`` and a cached loader.
:func:`parse_file`, :func:`build_workspace`
    Cached parsing of one uploaded file and assembly of a workspace from file reports.
:func:`set_options`, :func:`default_pair`
    Annotation-set names for selectors, by role, and the default (gold, system) pair.

Caching: parsed corpora and metric results are immutable values that can hold 100,000 spans;
``st.cache_resource`` shares them without the pickling round-trip that ``st.cache_data`` does on
every read (seconds at that size). Functions that take a workspace take its :attr:`Workspace.key`
(hashed) and the workspace itself as ``_ws`` (not hashed), so a rerun hashes a short string,
never the corpus. Tables derived for display are small and use ``st.cache_data``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from core.bounds import Policy
from core.errors import Diagnostic, SpanScopeError
from core.formats import FORMATS, Loaded, ReadOptions, load_files, read_folder
from core.model import ROLES, AnnotationSet, Corpus, Role

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = Path(os.environ.get("SPANSCOPE_DATA_DIR") or ROOT / "sample_data")
"""Folder of bundled corpora, one sub-folder each; ``SPANSCOPE_DATA_DIR`` points the app at
server-side corpora instead (links to them work like links to the samples)."""

# ---- keys ---------------------------------------------------------------------------------------
# Bound to the URL (a link restores them).
K_SAMPLE = "sample"  # which bundled corpus (folder name under sample_data/)
K_DOC = "doc"  # document id on the Documents page
K_SET_A = "a"  # reference set (gold by default)
K_SET_B = "b"  # compared set (first system by default)
K_METRIC = "metric"  # "martino" | "mafalda" on the Documents page
K_VARIANT = "variant"  # Martino variant
K_MAF_VARIANT = "mvariant"  # MAFALDA variant
K_LEVEL = "level"  # MAFALDA level, 0/1/2
K_SYS1 = "sys1"  # paired comparison: first system
K_SYS2 = "sys2"  # paired comparison: second system
# Session only.
K_SOURCE = "source"  # "sample" | "upload": which data the pages show
K_UPLOADS = "uploads"  # st.file_uploader key
K_UPLOAD_WS = "upload_ws"  # Workspace built from the last uploaded batch (Data page)
K_BEYOND_TEXT = "beyond_text"  # Data page: spans past the text: refuse | clip | official
K_DOC_QUERY = "doc_query"  # Documents: search text
K_DOC_SORT = "doc_sort"  # Documents: order of the document list
K_SPAN = "span"  # Documents: selected span id ("G3", "P1")
K_DOC_PAGE = "doc_page"  # Documents: page of the document list
K_BOOT_N = "boot_n"  # bootstrap resamples
K_SEED = "seed"  # bootstrap seed
K_TABLE_PAGE = "table_page"  # Scores: page of the per-document table
# Labels page (view keys bound to the URL; the level is K_LEVEL, the sets K_SET_A / K_SET_B)
K_LAB_VIEW = "lview"  # "confusion" | "within reference" | "within compared"
K_LAB_SCOPE = "lscope"  # co-occurrence scope: "span" | "overlap" | "text"
K_LAB_VALUES = "lvalues"  # "counts" | "row-normalised"
K_LAB_ALT = "lalt"  # gold alternatives in the confusion: "match" | "joined" | "each"
K_LAB_CELL = "lab_cell"  # session only: the selected (row, column) cell
K_LAB_CHART = "lab_chart"  # the heatmap's selection state (st.altair_chart key)
K_LAB_PAIRS = "lab_pairs"  # the span-pair table's row selection (st.dataframe key)
K_LAB_CLICKED = "lab_clicked"  # session: the last cell the heatmap reported (a new one wins)
K_LAB_OPENED = "lab_opened"  # session: (table key, row) of the last pair opened on Documents
# Learn page
K_SCENARIO = "scenario"  # bound to the URL: which worked example (core.scenarios id)
K_LEARN_ROWS = "learn_rows"  # {scenario id: prediction rows} after the last move or reset
K_LEARN_GEN = "learn_gen"  # {scenario id: n}: a move or reset starts editor generation n + 1
K_LEARN_SHOWN = "learn_shown"  # {scenario id: rows} as the editor returned them on the last run
K_LEARN_MOVE = "learn_move"  # which prediction the sliders move ("P2")
# Metric differences page.
K_DIFF_MEASURE = "measure"  # bound: which score the waterfall shows (f1, precision, recall)
K_DIFF_SCATTER = "diff_scatter"  # selection state of the per-text scatter
K_DIFF_DRAW = "diff_draw"  # the scatter is drawn on a large corpus (toggle)
K_DIFF_TABLE = "diff_table"  # selection state of the per-text table
K_DIFF_PAGE = "diff_page"  # page of the per-text table
# Annotators page (bound to the URL unless marked session).
K_ANN_SETS = "ann_sets"  # the annotation sets compared (two or more)
K_ANN_MEASURE = "ann_measure"  # agreement measure, a name of `python -m core agree --measure`
K_ANN_LABEL = "ann_label"  # label filter; ANN_ALL_LABELS = none
K_ANN_CELL = "ann_cell"  # span-F1 measures: F1 | precision | recall in the matrix
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
ANN_ALL_LABELS = "(all labels)"
ANN_NO_GOLD = "(none)"


def upload_key(kind: str, filename: str) -> str:
    """Key of the per-file widget ``kind`` ("fmt", "role", "name") for an uploaded file."""
    return f"upload_{kind}::{filename}"


MARTINO_VARIANTS = ("semeval2021", "nlp4if2019", "semeval2020-si", "semeval2020-tc")
MAFALDA_VARIANTS = ("paper", "metrics-py", "repo-head")
LEVELS = (2, 1, 0)
DEFAULT_SAMPLE = "propaganda"

DEFAULTS: dict[str, Any] = {
    K_SOURCE: "sample",
    K_VARIANT: MARTINO_VARIANTS[0],
    K_MAF_VARIANT: MAFALDA_VARIANTS[0],
    K_LEVEL: 2,
    K_METRIC: "martino",
    K_DOC_QUERY: "",
    K_DOC_SORT: "id",
    K_BOOT_N: 1000,
    K_SEED: 0,
}
"""Defaults of the keys that have one. Widget-owned keys use these as the widget default."""

UPLOAD_LINK_NOTE = (
    "Links carry the view (document, sets, metric, variant, level) but not data: a link to "
    "uploaded files opens on the bundled sample corpus for whoever receives it."
)

ROLE_HINTS: tuple[tuple[str, Role], ...] = (
    ("gold", "gold"),
    ("annotator", "annotator"),
    ("ann_", "annotator"),
    ("ann-", "annotator"),
)


def ensure_app_navigation() -> None:
    """Make sure ``app.py``'s ``st.navigation`` runs the app, then carry on.

    Streamlit decides once per server process, before any script has run, whether the app uses
    the legacy ``pages/`` folder: when the very first request a fresh server gets is a deep link
    (``/documents?doc=3``), it finds ``pages/`` and runs that page file on its own, without
    ``app.py`` (no frame, wrong sidebar). Clearing that flag and rerunning hands the same URL,
    query parameters included, to ``app.py``'s navigation. ``PagesManager`` is internal API
    (Streamlit 1.67); if it moves, this does nothing and only that first deep link is affected.
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a future Streamlit without the legacy mode
        return
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def init_state() -> None:
    """Put every default into ``st.session_state`` that is not there yet (call once per run).

    Also calls :func:`ensure_app_navigation`, so every page that reads the state is served
    through ``app.py``.
    """
    ensure_app_navigation()
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = list(value) if isinstance(value, list) else value


# ---- data ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileReport:
    """What one input gave: its sets (possibly none), its diagnostics, and its error if it failed.

    ``error`` is the :class:`~core.errors.Diagnostic` of the ``FormatError`` that stopped the
    file; ``diagnostics`` are the reader's warnings. A failed file has no sets; other files of the
    same batch load regardless.
    """

    file: str
    format: str | None
    role: Role
    name: str
    texts: Mapping[str, str | None] = field(default_factory=dict)
    sets: tuple[AnnotationSet, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    error: Diagnostic | None = None
    records: Any = None  # non-span data the reader returned (a HatEval table)

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Workspace:
    """The data every page works on: a corpus and the reports of the files it came from.

    ``key`` identifies the content (sample name, or a digest of the uploaded bytes and settings)
    and is what cached functions hash. ``shareable`` is False for uploaded data.
    """

    key: str
    title: str
    corpus: Corpus
    reports: tuple[FileReport, ...] = ()
    shareable: bool = True

    @property
    def sets(self) -> dict[str, AnnotationSet]:
        return self.corpus.sets

    def texts(self) -> dict[str, str | None]:
        return self.corpus.texts

    def by_role(self, role: Role) -> list[str]:
        return [s.name for s in self.corpus.by_role(role)]

    @property
    def empty(self) -> bool:
        return not self.corpus.sets

    @property
    def has_spans(self) -> bool:
        """Whether any set holds a span (HatEval files hold text labels only)."""
        return any(aset.span_count() for aset in self.corpus.sets.values())

    def records(self, kind: type) -> dict[str, Any]:
        """Set name -> the non-span records of type ``kind`` its file held (e.g. HatEval
        tables), for the files that loaded."""
        return {r.sets[0].name: r.records for r in self.reports
                if r.ok and r.sets and isinstance(r.records, kind)}


def guess_role(filename: str) -> Role:
    """Role suggested by a file name: ``gold`` / ``annotator`` hints, else ``system``."""
    lower = Path(filename).name.lower()
    for hint, role in ROLE_HINTS:
        if hint in lower:
            return role
    return "system"


def _display_name(filename: str) -> str:
    name = Path(filename).name
    for suffix in (".jsonl", ".json", ".tsv", ".txt", ".csv", ".ann", ".zip"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _report(
    filename: str, loaded: Loaded | None, role: Role, name: str, error: Diagnostic | None
) -> FileReport:
    if loaded is None:
        return FileReport(filename, None, role, name, error=error)
    sets = []
    for i, aset in enumerate(loaded.sets):
        # A file that names several annotators keeps their names; a single set takes the
        # display name the user chose.
        set_name = name if len(loaded.sets) == 1 else f"{name}:{aset.name or i}"
        set_role: Role = role if len(loaded.sets) == 1 or role != "gold" else "annotator"
        sets.append(AnnotationSet(set_name, aset.spans, set_role, aset.alternatives))
    return FileReport(
        filename,
        loaded.format,
        role,
        name,
        dict(loaded.texts),
        tuple(sets),
        tuple(loaded.diagnostics),
        None,
        loaded.records,
    )


def parse_bytes(
    filename: str, data: bytes, fmt: str | None, role: Role, name: str,
    beyond_text: Policy = "refuse",
) -> FileReport:
    """Parse one file's bytes into a :class:`FileReport`; a ``FormatError`` becomes its error.

    Uncached and streamlit-free, so tests and the benchmark can call it directly.
    """
    try:
        loaded = load_files({filename: data}, fmt=fmt or None, name=filename,
                            options=ReadOptions(role=role, beyond_text=beyond_text))
    except SpanScopeError as exc:
        diag = getattr(exc, "diagnostic", None) or Diagnostic(filename, str(exc), severity="error")
        return _report(filename, None, role, name, diag)
    except Exception as exc:  # a reader bug must not become a traceback box for a visitor
        return _report(filename, None, role, name, bug_diagnostic(filename, exc))
    return _report(filename, loaded, role, name, None)


def bug_diagnostic(filename: str, exc: BaseException) -> Diagnostic:
    """The error shown when reading raised something other than ``SpanScopeError``: a bug in
    SpanScope (the readers promise ``FormatError`` for every bad input), said as such."""
    return Diagnostic(
        filename,
        f"SpanScope failed to read this file ({type(exc).__name__}); this is a bug in "
        "SpanScope, not necessarily in your file: please report it with the file",
        severity="error",
    )


@st.cache_resource(max_entries=64, show_spinner="Parsing…")
def parse_file(filename: str, data: bytes, fmt: str | None, role: Role, name: str,
               beyond_text: Policy = "refuse") -> FileReport:
    """Cached :func:`parse_bytes` (keyed by the bytes and the chosen format, role, name and
    policy for spans past the text)."""
    return parse_bytes(filename, data, fmt, role, name, beyond_text)


def build_workspace(
    reports: list[FileReport] | tuple[FileReport, ...], *, key: str, title: str,
    shareable: bool,
) -> Workspace:
    """Assemble a workspace from file reports: texts merged (first non-empty wins), sets added.

    Two sets with one display name get ``name (2)``, ``name (3)``... rather than one replacing the
    other.
    """
    corpus = Corpus()
    for rep in reports:
        for doc_id, text in rep.texts.items():
            if corpus.texts.get(doc_id) is None:
                corpus.texts[doc_id] = text
        for aset in rep.sets:
            name, n = aset.name, 2
            while name in corpus.sets:
                name, n = f"{aset.name} ({n})", n + 1
            corpus.add_set(AnnotationSet(name, aset.spans, aset.role, aset.alternatives))
    return Workspace(key, title, corpus, tuple(reports), shareable)


NOT_ANNOTATIONS = {"labels.txt", "license", "readme.txt"}
"""Files of a sample folder that are not annotation sets (the label inventory, notes)."""

NOT_SAMPLES = {"formats"}
"""Folders of ``sample_data/`` that are not corpora to score: ``formats`` holds the propaganda
corpus once per file format, to exercise the readers."""


def sample_names() -> list[str]:
    """Bundled corpora: the folders of ``sample_data/`` (``propaganda`` first)."""
    if not SAMPLE_DIR.is_dir():
        return []
    names = sorted(p.name for p in SAMPLE_DIR.iterdir()
                   if p.is_dir() and p.name[0] not in "._" and p.name not in NOT_SAMPLES)
    return sorted(names, key=lambda n: n != DEFAULT_SAMPLE)


def sample_reports(name: str) -> list[FileReport]:
    """Parse every annotation file of ``sample_data/<name>/`` (role guessed from its name).

    A sub-folder (e.g. a PTC article folder) is read as one input.
    """
    folder = SAMPLE_DIR / name
    reports: list[FileReport] = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name.lower() in NOT_ANNOTATIONS or path.suffix in (
            ".py", ".md"
        ):
            continue
        role = guess_role(path.name)
        display = _display_name(path.name)
        if path.is_dir():
            files = read_folder(path)
            try:
                loaded = load_files(files, name=path.name, options=ReadOptions(role=role))
                reports.append(_report(path.name, loaded, role, display, None))
            except SpanScopeError as exc:
                diag = getattr(exc, "diagnostic", None) or Diagnostic(path.name, str(exc),
                                                                       severity="error")
                reports.append(_report(path.name, None, role, display, diag))
            except Exception as exc:  # a reader bug: say so instead of a traceback
                reports.append(_report(path.name, None, role, display,
                                       bug_diagnostic(path.name, exc)))
        else:
            reports.append(parse_bytes(path.name, path.read_bytes(), None, role, display))
    return sorted(reports, key=lambda r: ROLES.index(r.role))


@st.cache_resource(max_entries=8, show_spinner="Loading the sample corpus…")
def load_sample(name: str) -> Workspace:
    """The bundled corpus ``sample_data/<name>/``, parsed once per server process."""
    return build_workspace(sample_reports(name), key=f"sample:{name}", title=name, shareable=True)


def upload_workspace(reports: list[FileReport], contents: list[bytes], settings: str = ""
                     ) -> Workspace:
    """Workspace of uploaded files; its key digests every file's bytes, format, role and name."""
    digest = hashlib.sha256()
    for rep, data in zip(reports, contents, strict=True):
        digest.update(hashlib.sha256(data).digest())
        digest.update(f"|{rep.file}|{rep.format}|{rep.role}|{rep.name}|".encode())
    digest.update(settings.encode())  # batch-wide reading choices (spans past the text)
    return build_workspace(reports, key="upload:" + digest.hexdigest()[:16], title="uploaded files",
                           shareable=False)


def empty_workspace() -> Workspace:
    return Workspace("empty", "no data", Corpus(), (), True)


def workspace() -> Workspace:
    """The data the pages show now: uploads when chosen on the Data page, else the sample."""
    init_state()
    if st.session_state.get(K_SOURCE) == "upload":
        uploaded = st.session_state.get(K_UPLOAD_WS)
        return uploaded if isinstance(uploaded, Workspace) else empty_workspace()
    names = sample_names()
    if not names:
        return empty_workspace()
    chosen = st.session_state.get(K_SAMPLE) or st.query_params.get(K_SAMPLE) or names[0]
    if chosen not in names:
        chosen = names[0]
    return load_sample(chosen)


def set_options(ws: Workspace, *roles: Role) -> list[str]:
    """Names of the workspace's sets with one of ``roles`` (all roles if none given), in order."""
    wanted = roles or ROLES
    return [name for name, s in ws.sets.items() if s.role in wanted]


def default_pair(ws: Workspace) -> tuple[str | None, str | None]:
    """The default compared pair: the first gold set and the first other set."""
    gold = set_options(ws, "gold")
    a = gold[0] if gold else (next(iter(ws.sets), None))
    others = [n for n in ws.sets if n != a]
    systems = [n for n in set_options(ws, "system") if n != a]
    b = systems[0] if systems else (others[0] if others else None)
    return a, b


FORMAT_CHOICES: tuple[str, ...] = ("auto", *FORMATS)
"""Choices of the per-file format override (``auto`` = detect)."""


# ---- summaries of the loaded data (counts, not metrics) -----------------------------------------


@st.cache_data(max_entries=16, show_spinner=False)
def summary_tables(ws_key: str, _ws: Workspace) -> dict[str, Any]:
    """Tables of the Data page, cached per workspace.

    ``sets``: one row per set (role, documents, spans, labels, documents missing from it);
    ``labels``: spans per label (rows) and set (columns); ``missing``: one row per (set, document)
    for every document of the corpus that the set does not cover; ``n_docs``: corpus size.
    """
    import pandas as pd

    corpus = _ws.corpus
    all_ids = corpus.doc_ids
    set_rows, label_counts, missing_rows = [], {}, []
    for name, aset in corpus.sets.items():
        covered = aset.spans
        missing = [d for d in all_ids if d not in covered]
        counts: dict[str, int] = {}
        for spans in covered.values():
            for span in spans:
                counts[span.label] = counts.get(span.label, 0) + 1
        label_counts[name] = counts
        set_rows.append({
            "set": name, "role": aset.role, "documents": len(covered),
            "spans": aset.span_count(), "labels": len(counts),
            "alternatives": aset.alternatives, "missing documents": len(missing),
        })
        missing_rows += [{"set": name, "document": d} for d in missing]
    labels = pd.DataFrame(label_counts).fillna(0).astype(int).sort_index()
    labels.index.name = "label"
    return {
        "n_docs": len(all_ids),
        "n_texts": sum(1 for t in corpus.texts.values() if t is not None),
        "sets": pd.DataFrame(set_rows),
        "labels": labels.reset_index() if len(labels) else pd.DataFrame(columns=["label"]),
        "missing": pd.DataFrame(missing_rows, columns=["set", "document"]),
    }


def diagnostics_table(reports: tuple[FileReport, ...] | list[FileReport]) -> Any:
    """Every error and warning of the reports: severity, file, line, field, message."""
    import pandas as pd

    rows = []
    for rep in reports:
        diags = ([rep.error] if rep.error else []) + list(rep.diagnostics)
        for d in diags:
            rows.append({"severity": d.severity, "file": d.file, "line": d.line,
                         "field": d.field or (d.path or ""), "message": d.message})
    return pd.DataFrame(rows, columns=["severity", "file", "line", "field", "message"])


# ---- documents ----------------------------------------------------------------------------------

DOC_SORTS: dict[str, str] = {
    "id": "by id",
    "disagreement": "most disagreement first",
    "score": "lowest score first",
    "spans": "most spans first",
}
"""Orders of the Documents page's list (``disagreement``: :func:`core.segments.disagreement`)."""


@st.cache_data(max_entries=16, show_spinner=False)
def all_labels(ws_key: str, _ws: Workspace) -> list[str]:
    """Every label of every set of the workspace (sorted): the domain of the colour map."""
    return sorted({lab for aset in _ws.sets.values() for lab in aset.labels()})


def _doc_length(ws: Workspace, doc_id: str, *sets: AnnotationSet) -> int:
    text = ws.corpus.texts.get(doc_id)
    if text is not None:
        return len(text)
    return max((s.end for aset in sets for s in aset.get(doc_id)), default=0)


@st.cache_data(max_entries=16, show_spinner="Ranking documents…")
def disagreements(ws_key: str, _ws: Workspace, set_a: str, set_b: str) -> dict[str, float]:
    """Per document, :func:`core.segments.disagreement` between two sets."""
    from core.segments import disagreement

    a, b = _ws.sets[set_a], _ws.sets[set_b]
    return {
        d: disagreement(a.alt_spans(d), b.alt_spans(d), _doc_length(_ws, d, a, b))
        for d in _ws.corpus.doc_ids
    }


@st.cache_data(max_entries=32, show_spinner="Sorting documents…")
def document_order(
    ws_key: str, _ws: Workspace, set_a: str, set_b: str, sort: str, metric: str, variant: str,
    level: int,
) -> list[str]:
    """Document ids in the order ``sort`` (see :data:`DOC_SORTS`); ties keep corpus order.

    ``score`` uses the per-document F1 of ``metric`` (documents it cannot score go last) and falls
    back to ``id`` when the metric is unavailable.
    """
    ids = _ws.corpus.doc_ids
    if sort == "disagreement":
        dis = disagreements(ws_key, _ws, set_a, set_b)
        return sorted(ids, key=lambda d: -dis.get(d, 0.0))
    if sort == "spans":
        a, b = _ws.sets[set_a], _ws.sets[set_b]
        return sorted(ids, key=lambda d: -(len(a.get(d)) + len(b.get(d))))
    if sort == "score":
        scores = per_doc_f1(ws_key, _ws, set_a, set_b, metric, variant, level)
        if scores:
            return sorted(ids, key=lambda d: (d not in scores, scores.get(d, 0.0)))
    return sorted(ids, key=_natural_key)


def _natural_key(doc_id: str) -> tuple[Any, ...]:
    """Sort ``doc2`` before ``doc10``: digit runs compare as numbers."""
    import re

    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", doc_id))


@st.cache_data(max_entries=32, show_spinner=False)
def search_documents(ws_key: str, _ws: Workspace, order: tuple[str, ...], query: str) -> list[str]:
    """The ids of ``order`` whose id or text contains ``query`` (case-insensitive)."""
    q = query.strip().lower()
    if not q:
        return list(order)
    texts = _ws.corpus.texts
    return [d for d in order if q in d.lower() or q in (texts.get(d) or "").lower()]


DOC_WINDOW = 200
"""Most documents the Documents page's selector lists at once."""


def document_window(ids: list[str], current: str | None) -> list[str]:
    """The first :data:`DOC_WINDOW` of ``ids``, plus ``current`` when it matches but lies beyond
    (so a deep link to any document works).

    >>> document_window([f"d{i}" for i in range(600)], "d550")[-2:]
    ['d199', 'd550']
    """
    window = ids[:DOC_WINDOW]
    if current is not None and current not in window and current in set(ids):
        window = [*window, current]
    return window


def doc_label_func(
    ws_key: str, ws: Workspace, set_a: str, set_b: str, sort: str, metric: str, variant: str,
    level: int,
) -> Any:
    """``format_func`` of the document selector: the id plus the value it is sorted by."""
    if sort == "disagreement":
        dis = disagreements(ws_key, ws, set_a, set_b)
        return lambda d: f"{d} · disagreement {dis.get(d, 0.0):.2f}"
    if sort == "score":
        scores = per_doc_f1(ws_key, ws, set_a, set_b, metric, variant, level)
        return lambda d: f"{d} · F1 {scores[d]:.3f}" if d in scores else str(d)
    return str


# ---- metrics (every number comes from core.metrics; nothing is recomputed here) ----------------

METRIC_NAMES: dict[str, str] = {"martino": "Da San Martino", "mafalda": "MAFALDA"}
"""Span metrics the Scores and Documents pages offer, by module name under ``core.metrics``.

Widgets show the module names (``martino``, ``mafalda``) because a widget bound to the URL writes
the value it *shows* into the link."""

METRIC_HELP = ("martino: Da San Martino et al. (2019), partial overlap credit C(s,t,h) summed "
               "over all pairs; mafalda: Helwe et al. (2024), best match per span, alternative "
               "gold labels and ⊥.")


def metric_module(name: str) -> Any:
    """``core.metrics.<name>`` for a span metric of :data:`METRIC_NAMES`."""
    from core.metrics import mafalda, martino

    return {"martino": martino, "mafalda": mafalda}[name]


@dataclass(frozen=True)
class Explained:
    """One document's explanation under one metric: ``pairs`` (one row per gold/pred pair that
    overlaps, with ``gold``/``pred`` span ids) and ``best`` (span id -> text describing the best
    match the MAFALDA metric takes from it)."""

    pairs: Any
    best: Mapping[str, str]
    error: str | None = None


def per_doc_f1(
    ws_key: str, ws: Workspace, set_a: str, set_b: str, metric: str, variant: str, level: int
) -> dict[str, float]:
    """Per-document F1 of ``set_b`` against ``set_a`` under ``metric`` ({} if unavailable)."""
    df = pair_result(ws_key, ws, set_a, set_b, metric, variant, level).per_doc
    return dict(zip(df["document"], df["F1"], strict=True))


@dataclass(frozen=True)
class PairScores:
    """One (reference, compared) pair under one metric, as tables for display.

    ``overall``: dict with P, R, F1 (and whatever counts the metric reports); ``per_label`` and
    ``per_doc``: DataFrames with columns label/document, P, R, F1; ``raw``: the metric's result.
    ``error``: why the metric refused these inputs (an InputError message), tables then empty.
    """

    overall: Mapping[str, Any]
    per_label: Any
    per_doc: Any
    raw: Any
    error: str | None = None


@st.cache_resource(max_entries=64, show_spinner="Scoring…")
def pair_result(
    ws_key: str, _ws: Workspace, set_a: str, set_b: str, metric: str, variant: str, level: int
) -> PairScores:
    """Score ``set_b`` against ``set_a`` with ``core.metrics.<metric>``."""
    return _adapt(metric, metric_module(metric), _ws, set_a, set_b, variant, level)


def explain_document(
    ws_key: str, ws: Workspace, set_a: str, set_b: str, doc: str, metric: str, variant: str,
    level: int,
) -> Explained:
    """The metric's contribution rows for one document."""
    return _explain(metric, metric_module(metric), ws, set_a, set_b, doc, variant, level)


def rows_for_span(explained: Explained, span_id: str) -> Any:
    """The contribution rows in which span ``span_id`` (``G…`` or ``P…``) takes part."""
    df = explained.pairs
    column = "gold" if span_id.startswith("G") else "pred"
    return df[df[column] == span_id]


def best_match_for_span(explained: Explained, span_id: str) -> str | None:
    return explained.best.get(span_id)


@st.cache_resource(max_entries=256, show_spinner=False)
def document_result(
    ws_key: str, _ws: Workspace, set_a: str, set_b: str, doc: str, metric: str, variant: str,
    level: int,
) -> PairScores:
    """``set_b`` against ``set_a`` on one document only (see :func:`_restrict`)."""
    return _adapt(metric, metric_module(metric), _ws, set_a, set_b, variant, level, (doc,))


def document_scores(
    ws_key: str, ws: Workspace, set_a: str, set_b: str, doc: str, *, variant: str,
    mvariant: str, level: int,
) -> Any:
    """One row per span metric: the document's P, R and F1 under it (or why it has none)."""
    import pandas as pd

    rows = []
    for metric, var, lev in (("martino", variant, 2), ("mafalda", mvariant, level)):
        label = f"{METRIC_NAMES[metric]} ({var}" + (f", level {lev})" if metric == "mafalda"
                                                    else ")")
        result = document_result(ws_key, ws, set_a, set_b, doc, metric, var, lev)
        if result.error:
            rows.append({"metric": label, "note": result.error})
        for rec in result.per_doc.to_dict("records"):
            rows.append({"metric": label, **{k: rec[k] for k in ("P", "R", "F1") if k in rec}})
    return pd.DataFrame(rows, columns=["metric", "P", "R", "F1", *(
        ["note"] if any("note" in r for r in rows) else [])])


def compared_sets(ws: Workspace, ref: str | None) -> list[str]:
    """The sets scored against ``ref``: its systems, or every other set when there is none."""
    systems = [n for n in set_options(ws, "system") if n != ref]
    return systems or [n for n in ws.sets if n != ref]


@dataclass(frozen=True)
class Overview:
    """The Scores page's table of every system: ``table`` (one row per system) and
    ``f1_columns`` (chart name -> F1 column)."""

    table: Any
    f1_columns: Mapping[str, str]


@st.cache_data(max_entries=32, show_spinner="Scoring every system…")
def systems_overview(
    ws_key: str, _ws: Workspace, ref: str, systems: tuple[str, ...], variant: str,
    mvariant: str, level: int, n_boot: int, seed: int,
) -> Overview:
    """Every system against ``ref``: P/R/F1 under both span metrics and the text-level scores,
    with the F1's 95% bootstrap interval over documents when ``n_boot`` > 0. The text-level
    scores are micro P/R/F1 and EMR of each text's label set (``core.metrics.text_labels``), or,
    for a gold with alternatives, MAFALDA's label-only P/R/F1 at the chosen level."""
    import pandas as pd

    rows: list[dict[str, Any]] = [{"system": s, "role": _ws.sets[s].role} for s in systems]
    f1_columns: dict[str, str] = {}
    for metric, var, lev in (("martino", variant, 2), ("mafalda", mvariant, level)):
        short = "DSM" if metric == "martino" else "MAFALDA"
        f1_columns[f"{METRIC_NAMES[metric]} F1"] = f"{short} F1"
        for row in rows:
            result = pair_result(ws_key, _ws, ref, row["system"], metric, var, lev)
            if result.error:
                row[f"{short} error"] = result.error
                continue
            for k in ("P", "R", "F1"):
                row[f"{short} {k}"] = result.overall.get(k)
            if n_boot > 0:
                ci = bootstrap_ci(ws_key, _ws, ref, row["system"], metric, var, lev, n_boot,
                                  seed)
                if ci is not None:
                    row[f"{short} F1 low"], row[f"{short} F1 high"] = ci
    f1_columns["text-level F1"] = "text F1"
    for row in rows:
        if _ws.sets[ref].alternatives:
            # Label sets with alternatives: MAFALDA's label-only metric, not a second one.
            result = pair_result(ws_key, _ws, ref, row["system"], "mafalda", mvariant, level)
            scores = {"error": result.error} if result.error else {
                k: result.overall[f"label-only {k}"] for k in ("P", "R", "F1")}
        else:
            scores = text_scores(ws_key, _ws, ref, row["system"])
        if "error" in scores:
            row["text error"] = scores["error"]
        else:
            for k in ("P", "R", "F1", "EMR"):
                if k in scores:
                    row[f"text {k}"] = scores[k]
    return Overview(pd.DataFrame(rows), f1_columns)


@st.cache_data(max_entries=64, show_spinner=False)
def text_scores(ws_key: str, _ws: Workspace, ref: str, system: str) -> dict[str, Any]:
    """Text-level micro P/R/F1 and EMR of ``system`` against ``ref`` (``core.metrics.
    text_labels``), or ``{"error": message}`` for inputs it refuses."""
    return _text_adapt(_ws, ref, system)


@st.cache_data(max_entries=64, show_spinner="Bootstrapping…")
def bootstrap_ci(
    ws_key: str, _ws: Workspace, ref: str, system: str, metric: str, variant: str, level: int,
    n_boot: int, seed: int,
) -> tuple[float, float] | None:
    """95% bootstrap interval of F1 over documents (``core.stats``); None when the metric
    refused the inputs or there is no document."""
    result = pair_result(ws_key, _ws, ref, system, metric, variant, level)
    return _bootstrap_adapt(metric, result, n_boot, seed)


@st.cache_data(max_entries=64, show_spinner="Comparing…")
def paired_comparison(
    ws_key: str, _ws: Workspace, ref: str, sys1: str, sys2: str, metric: str, variant: str,
    level: int, n_boot: int, seed: int,
) -> dict[str, Any] | None:
    """F1(sys1) − F1(sys2) and its 95% paired bootstrap interval (``core.stats``); None when
    the metric refused either system's inputs."""
    r1 = pair_result(ws_key, _ws, ref, sys1, metric, variant, level)
    r2 = pair_result(ws_key, _ws, ref, sys2, metric, variant, level)
    return _paired_adapt(metric, r1, r2, n_boot, seed)


# ---- adapters: each metric's result type -> the tables above -----------------------------------


def _item_ids(
    ws: Workspace, set_name: str, doc: str, prefix: str
) -> dict[tuple[int, int, str], str]:
    """(start, end, label) -> span id as the Documents page numbers them (ui.highlight)."""
    from ui.highlight import span_items

    ids: dict[tuple[int, int, str], str] = {}
    for item in span_items(ws.sets[set_name], doc, prefix):
        for label in item.labels:
            ids.setdefault((item.start, item.end, label), item.id)
    return ids


def _span_id(ids: Mapping[tuple[int, int, str], str], span: Any) -> str:
    if span is None:
        return ""
    # A span the variant merged (nlp4if2019 unions overlapping same-label gold) has no id.
    return ids.get((span.start, span.end, span.label), f"merged [{span.start}, {span.end})")


def _restrict(aset: AnnotationSet, docs: tuple[str, ...] | None) -> AnnotationSet:
    """``aset`` on ``docs`` only (the documents it covers among them); all of it for None.

    Per-document values of both span metrics depend on that document alone, so one document
    is scored without scoring the corpus."""
    if docs is None:
        return aset
    return AnnotationSet(aset.name, {d: aset.spans[d] for d in docs if d in aset.spans},
                         aset.role, aset.alternatives)


def _martino_sets(ws: Workspace, set_a: str, set_b: str, docs: tuple[str, ...] | None = None
                  ) -> tuple[AnnotationSet, AnnotationSet]:
    from core.metrics.martino import martino_gold_view

    gold = martino_gold_view(_restrict(ws.sets[set_a], docs))
    pred = _restrict(ws.sets[set_b], docs)
    return gold, AnnotationSet(pred.name, pred.spans, "system", False)


def _adapt(metric: str, mod: Any, ws: Workspace, set_a: str, set_b: str, variant: str,
           level: int, docs: tuple[str, ...] | None = None) -> PairScores:
    import pandas as pd

    try:
        if metric == "martino":
            gold, pred = _martino_sets(ws, set_a, set_b, docs)
            res = mod.score(gold, pred, variant=variant)
            overall = {"P": res.precision, "R": res.recall, "F1": res.f1,
                       "P numerator": res.p_num, "predicted spans": res.p_den,
                       "R numerator": res.r_num, "gold spans": res.r_den}
            per_label = pd.DataFrame([
                {"label": lab, "P": v["precision"], "R": v["recall"], "F1": v["f1"],
                 "gold spans": v["gold_count"], "predicted spans": v["pred_count"]}
                for lab, v in res.per_label().items() if v["gold_count"] or v["pred_count"]
            ], columns=["label", "P", "R", "F1", "gold spans", "predicted spans"])
            per_doc = pd.DataFrame([
                {"document": r["document"], "P": r["precision"], "R": r["recall"], "F1": r["f1"],
                 "P numerator": r["precision_numerator"],
                 "predicted spans": r["precision_denominator"],
                 "R numerator": r["recall_numerator"], "gold spans": r["recall_denominator"]}
                for r in res.per_document()
            ], columns=["document", "P", "R", "F1", "P numerator", "predicted spans",
                        "R numerator", "gold spans"])
            return PairScores(overall, per_label, per_doc, res)
        if metric == "mafalda":
            gold, pred = _restrict(ws.sets[set_a], docs), _restrict(ws.sets[set_b], docs)
            res = mod.score(gold, AnnotationSet(pred.name, pred.spans, "system", False),
                            level=level, variant=variant, texts=ws.corpus.texts,
                            taxonomy=taxonomy_for(ws, set_a, set_b))
            lab = res.label_only
            overall = {"P": res.precision, "R": res.recall, "F1": res.f1,
                       "label-only P": lab["precision"], "label-only R": lab["recall"],
                       "label-only F1": lab["f1"], "texts": len(res.per_document)}
            per_doc = pd.DataFrame([
                {"document": d.document, "P": d.precision, "R": d.recall, "F1": d.f1,
                 "label-only P": d.label_precision, "label-only R": d.label_recall,
                 "label-only F1": d.label_f1} for d in res.per_document
            ], columns=["document", "P", "R", "F1", "label-only P", "label-only R",
                        "label-only F1"])
            # MAFALDA averages per text and has no per-label decomposition (Helwe et al. 2024).
            per_label = pd.DataFrame(columns=["label", "P", "R", "F1"])
            return PairScores(overall, per_label, per_doc, res)
    except SpanScopeError as exc:
        return PairScores({}, pd.DataFrame(), pd.DataFrame(columns=["document", "F1"]), None,
                          error=str(exc))
    raise RuntimeError(f"no adapter for core.metrics.{metric}")


def _explain(metric: str, mod: Any, ws: Workspace, set_a: str, set_b: str, doc: str,
             variant: str, level: int) -> Explained:
    import pandas as pd

    if metric == "martino":
        gold, pred = _martino_sets(ws, set_a, set_b, (doc,))
        try:
            rows = mod.contributions(gold, pred, doc=doc, variant=variant)
        except SpanScopeError as exc:
            return Explained(pd.DataFrame(), {}, error=str(exc))
        gids, pids = _item_ids(ws, set_a, doc, "G"), _item_ids(ws, set_b, doc, "P")
        table = pd.DataFrame([{
            "gold": _span_id(gids, r.gold), "pred": _span_id(pids, r.pred), "kind": r.kind,
            "gold span": _span_text(r.gold), "pred span": _span_text(r.pred),
            "|s∩t|": r.intersection, "|s|": r.pred_length, "|t|": r.gold_length,
            "label match": r.label_match, "C(s,t,|s|)": r.contribution_p,
            "C(s,t,|t|)": r.contribution_r,
        } for r in rows], columns=["gold", "pred", "kind", "gold span", "pred span", "|s∩t|",
                                   "|s|", "|t|", "label match", "C(s,t,|s|)", "C(s,t,|t|)"])
        return Explained(table, {})
    if metric == "mafalda":
        return _explain_mafalda(mod, ws, set_a, set_b, doc, variant, level)
    raise RuntimeError(f"no adapter for core.metrics.{metric}")


def _explain_mafalda(mod: Any, ws: Workspace, set_a: str, set_b: str, doc: str, variant: str,
                     level: int) -> Explained:
    """Rows of :func:`core.metrics.mafalda.explain`: per prediction its precision match, per
    gold span its recall match (the best-covering prediction of the label the best alternative
    chose); ``best`` says in words what the metric takes from each span."""
    import pandas as pd

    from ui.highlight import span_items

    gold, pred = ws.sets[set_a], ws.sets[set_b]
    try:
        out = mod.explain(gold, AnnotationSet(pred.name, pred.spans, "system", False), doc,
                          level=level, variant=variant, texts=ws.corpus.texts,
                          taxonomy=taxonomy_for(ws, set_a, set_b))
    except SpanScopeError as exc:
        return Explained(pd.DataFrame(), {}, error=str(exc))
    gids = {it.interval: it.id for it in span_items(gold, doc, "G")}
    pids: dict[tuple[int, int], str] = {}
    for it in span_items(pred, doc, "P"):
        pids.setdefault(it.interval, it.id)

    def gid(iv: Any) -> str:
        return "" if iv is None else gids.get(tuple(iv), f"[{iv[0]}, {iv[1]})")

    def pid(iv: Any) -> str:
        return "" if iv is None else pids.get(tuple(iv), f"[{iv[0]}, {iv[1]})")

    rows, best = [], {}
    for r in out["predictions"]:
        p = pid((r["start"], r["end"]))
        g = gid(r["matched_gold"])
        if not r["counted"]:
            rows.append({"gold": "", "pred": p, "side": "precision: ⊥ prediction, not counted",
                         "label": r["label"], "C(s,t,|s|)": None, "C(s,t,|t|)": None})
            best[p] = ("a ⊥ ('nothing') prediction: MAFALDA leaves it out of precision's "
                       "denominator, so it neither helps nor hurts.")
            continue
        rows.append({"gold": g, "pred": p, "side": "precision: best gold for s",
                     "label": r["label"], "C(s,t,|s|)": r["contribution_p"], "C(s,t,|t|)": None})
        best[p] = (f"precision takes C(s,t,|s|) = {r['contribution_p']:.3f} from its best gold "
                   f"match {g or '(none)'} (label {r['label']}).")
    for r in out["gold"]:
        g = gid((r["start"], r["end"]))
        p = pid(r["best_prediction"])
        if r.get("uncovered"):
            rows.append({"gold": g, "pred": p, "side": "recall: text between gold spans "
                         "(repo-head)", "label": "None", "C(s,t,|s|)": None,
                         "C(s,t,|t|)": r["contribution_r"] if r["counted"] else None})
            continue
        alts = " | ".join("⊥" if a == "nothing" else a for a in r["alternatives"])
        if not r["counted"]:
            rows.append({"gold": g, "pred": "", "side": "recall: ⊥ chosen, not counted",
                         "label": f"⊥ (of {alts})", "C(s,t,|s|)": None, "C(s,t,|t|)": None})
            best[g] = (f"the best alternative leaves this optional span out (⊥ among {alts}), "
                       "so recall does not count it.")
            continue
        chosen = r["recall_label"]
        rows.append({"gold": g, "pred": p, "side": "recall: best prediction for t",
                     "label": f"{chosen} (of {alts})", "C(s,t,|s|)": None,
                     "C(s,t,|t|)": r["contribution_r"]})
        best[g] = (f"recall takes C(s,t,|t|) = {r['contribution_r']:.3f} from its best prediction "
                   f"{p or '(none)'}, with the alternative {chosen} chosen among {alts}.")
    table = pd.DataFrame(rows, columns=["gold", "pred", "side", "label", "C(s,t,|s|)",
                                        "C(s,t,|t|)"])
    return Explained(table, best)


def taxonomy_for(ws: Workspace, *set_names: str) -> Any:
    """The label taxonomy of these sets: MAFALDA's when it knows every label, else one class
    per label (:func:`core.taxonomy.for_labels`); cached per workspace and sets."""
    return _taxonomy(ws.key, ws, tuple(set_names))


@st.cache_resource(max_entries=64, show_spinner=False)
def _taxonomy(ws_key: str, _ws: Workspace, set_names: tuple[str, ...]) -> Any:
    from core.taxonomy import for_labels

    return for_labels(lab for name in set_names for lab in _ws.sets[name].labels())


def level_label_map(ws: Workspace, set_a: str, set_b: str, level: int) -> dict[str, str]:
    """Each label of the two sets -> its class at MAFALDA ``level`` (``nothing`` for "no
    fallacy"); empty at level 2, where labels are compared as they are."""
    from core.model import NOTHING

    if level == 2:
        return {}
    tax = taxonomy_for(ws, set_a, set_b)
    out = {}
    for lab in {*ws.sets[set_a].labels(), *ws.sets[set_b].labels()}:
        code = tax.project(0 if lab == NOTHING else tax.code(lab), level)
        out[lab] = NOTHING if code == 0 else tax.label_name(code, level)
    return out


def _span_text(span: Any) -> str:
    return "" if span is None else f"[{span.start}, {span.end}) {span.label}"


def _text_adapt(ws: Workspace, ref: str, system: str) -> dict[str, Any]:
    """Micro P/R/F1 and EMR of :func:`core.metrics.text_labels.score`; an input it refuses
    (gold with alternatives, different documents) gives ``{"error": message}``."""
    from core.metrics import text_labels

    gold, pred = ws.sets[ref], ws.sets[system]
    try:
        res = text_labels.score(gold, AnnotationSet(pred.name, pred.spans, "system", False))
    except SpanScopeError as exc:
        return {"error": str(exc)}
    micro = res.micro()
    return {"P": micro["precision"], "R": micro["recall"], "F1": micro["f1"], "EMR": res.emr}


def _doc_table(metric: str, result: PairScores) -> tuple[Any, Any]:
    """Per-document sufficient statistics and the statistic core.stats resamples.

    Martino: columns (p_num, p_den, r_num, r_den), F1 from their pooled sums; MAFALDA: each
    text's F1, averaged (``core.stats.mean_of``).
    """
    import numpy as np

    from core import stats

    raw = result.raw
    if metric == "martino":
        table = np.column_stack([raw.doc_p_num, raw.doc_p_den, raw.doc_r_num,
                                 raw.doc_r_den]).astype(float)
        return table, stats.martino_f1
    f1 = np.array([d.f1 for d in raw.per_document], dtype=float)[:, None]
    return f1, stats.mean_of(0, len(f1))


def _doc_ids(metric: str, result: PairScores) -> list[str]:
    raw = result.raw
    return list(raw.documents) if metric == "martino" else [d.document for d in
                                                             raw.per_document]


def _bootstrap_adapt(metric: str, result: PairScores, n_boot: int,
                     seed: int) -> tuple[float, float] | None:
    from core import stats

    if result.raw is None or not _doc_ids(metric, result):
        return None
    table, statistic = _doc_table(metric, result)
    iv = stats.bootstrap(table, statistic, n_resamples=n_boot, seed=seed)
    return (iv.low, iv.high)


def _paired_adapt(metric: str, r1: PairScores, r2: PairScores, n_boot: int,
                  seed: int) -> dict[str, Any] | None:
    from core import stats

    if r1.raw is None or r2.raw is None:
        return None
    if _doc_ids(metric, r1) != _doc_ids(metric, r2):
        return {"error": "the two systems were scored on different documents"}
    (t1, statistic), (t2, _) = _doc_table(metric, r1), _doc_table(metric, r2)
    iv = stats.paired_bootstrap(t1, t2, statistic, n_resamples=n_boot, seed=seed)
    return {"F1 difference": iv.difference, "low": iv.low, "high": iv.high,
            "confidence": iv.confidence, "resamples": iv.n_resamples, "seed": iv.seed,
            "share of resamples where system 1 is not better": iv.p_not_better}


def overall_caption(result: PairScores) -> str:
    """One line with the pooled scores and the sums they come from."""
    o = result.overall
    parts = [f"P {o['P']:.3f} · R {o['R']:.3f} · F1 {o['F1']:.3f}"]
    if "P numerator" in o:
        parts.append(f"P = {o['P numerator']:.3f} / {o['predicted spans']} predicted spans, "
                     f"R = {o['R numerator']:.3f} / {o['gold spans']} gold spans")
    return " — ".join(parts)


def partners_of(explained: Explained, span_id: str) -> tuple[str, ...]:
    """Ids of the spans that form a pair with ``span_id`` in the explanation (any overlap)."""
    if explained.error or not len(explained.pairs):
        return ()
    rows = rows_for_span(explained, span_id)
    other = "pred" if span_id.startswith("G") else "gold"
    return tuple(x for x in rows[other] if x)
