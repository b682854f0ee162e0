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
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from core.errors import Diagnostic, SpanScopeError
from core.formats import FORMATS, Loaded, ReadOptions, load_files, read_folder
from core.model import ROLES, AnnotationSet, Corpus, Role

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = ROOT / "sample_data"

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
K_DOC_QUERY = "doc_query"  # Documents: search text
K_DOC_SORT = "doc_sort"  # Documents: order of the document list
K_SPAN = "span"  # Documents: selected span id ("G3", "P1")
K_DOC_PAGE = "doc_page"  # Documents: page of the document list
K_BOOT_N = "boot_n"  # bootstrap resamples
K_SEED = "seed"  # bootstrap seed
K_TABLE_PAGE = "table_page"  # Scores: page of the per-document table


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


def init_state() -> None:
    """Put every default into ``st.session_state`` that is not there yet (call once per run)."""
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
    )


def parse_bytes(
    filename: str, data: bytes, fmt: str | None, role: Role, name: str
) -> FileReport:
    """Parse one file's bytes into a :class:`FileReport`; a ``FormatError`` becomes its error.

    Uncached and streamlit-free, so tests and the benchmark can call it directly.
    """
    try:
        loaded = load_files({filename: data}, fmt=fmt or None, name=filename,
                            options=ReadOptions(role=role))
    except SpanScopeError as exc:
        diag = getattr(exc, "diagnostic", None) or Diagnostic(filename, str(exc), severity="error")
        return _report(filename, None, role, name, diag)
    return _report(filename, loaded, role, name, None)


@st.cache_resource(max_entries=64, show_spinner="Parsing…")
def parse_file(filename: str, data: bytes, fmt: str | None, role: Role, name: str) -> FileReport:
    """Cached :func:`parse_bytes` (keyed by the bytes and the chosen format, role and name)."""
    return parse_bytes(filename, data, fmt, role, name)


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


def sample_names() -> list[str]:
    """Bundled corpora: the folders of ``sample_data/`` (``propaganda`` first)."""
    if not SAMPLE_DIR.is_dir():
        return []
    names = sorted(p.name for p in SAMPLE_DIR.iterdir() if p.is_dir() and p.name[0] not in "._")
    return sorted(names, key=lambda n: n != DEFAULT_SAMPLE)


def sample_reports(name: str) -> list[FileReport]:
    """Parse every annotation file of ``sample_data/<name>/`` (role guessed from its name).

    A sub-folder (e.g. a PTC article folder) is read as one input.
    """
    folder = SAMPLE_DIR / name
    reports: list[FileReport] = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name.lower() in {"readme.md", "source.md", "license"}:
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
        else:
            reports.append(parse_bytes(path.name, path.read_bytes(), None, role, display))
    return reports


@st.cache_resource(max_entries=8, show_spinner="Loading the sample corpus…")
def load_sample(name: str) -> Workspace:
    """The bundled corpus ``sample_data/<name>/``, parsed once per server process."""
    return build_workspace(sample_reports(name), key=f"sample:{name}", title=name, shareable=True)


def upload_workspace(reports: list[FileReport], contents: list[bytes]) -> Workspace:
    """Workspace of uploaded files; its key digests every file's bytes, format, role and name."""
    digest = hashlib.sha256()
    for rep, data in zip(reports, contents, strict=True):
        digest.update(hashlib.sha256(data).digest())
        digest.update(f"|{rep.file}|{rep.format}|{rep.role}|{rep.name}|".encode())
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
