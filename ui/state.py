"""Session state shared by the pages: shared keys, defaults, the loaded data and the caches.

The keys every page reads (which data, document, sets compared, metric, variant, level) are
spelled once here with their defaults. A key one page alone uses belongs to that page's module
(``K_ANN_*`` in :mod:`ui.annotators`, ``K_CUR_*`` in :mod:`ui.curation`, the Learn page's in
:mod:`ui.learn`, ...), beside the code that reads it. Keys that define a *view* (which sample
corpus, document, sets compared, metric, variant, level) are bound to URL query parameters by the
widgets that own them (``bind="query-params"``), so that a link reproduces the view; the data
itself never travels in a link. Uploaded data therefore cannot be shared by URL (pages say so,
see :data:`UPLOAD_LINK_NOTE`).

Public API (stable; the part-2 pages import it)
-----------------------------------------------
``K_*`` constants and :data:`DEFAULTS`
    Shared session-state keys and their defaults. :func:`init_state` fills the missing ones.
:class:`FileReport`, :class:`Workspace`
    What one input file gave (sets, diagnostics, error; defined in :mod:`ui.file_reports`) and
    the data the pages work on (a :class:`core.model.Corpus` plus the file reports).
``ui.current.workspace()``
    The current workspace: the uploaded files when the user chose them on the Data page, else the
    bundled sample corpus selected by ``?sample=`` (default ``propaganda``). It lives in
    :mod:`ui.current` because it needs :mod:`ui.cli_data` and :mod:`ui.curation`, which import
    this module.
:func:`sample_names`, :func:`load_sample`
    The bundled corpora under ``sample_data/`` and a cached loader.
:func:`parse_file`, :func:`build_workspace`
    Cached parsing of one uploaded file and assembly of a workspace from file reports.
:func:`set_options`, :func:`default_pair`, :func:`compared_sets`
    Annotation-set names for selectors, by role, the default (gold, system) pair, the sets
    scored against a reference.
:func:`variant_key`, :func:`metric_defaults`
    The key of each registered metric's variant widget and the defaults the registry gives.

Metric results as tables are in :mod:`ui.results`, the Documents list in :mod:`ui.documents`,
data summaries in :mod:`ui.summaries`, background jobs in :mod:`ui.jobs`.

Caching: parsed corpora and metric results are immutable values that can hold 100,000 spans;
``st.cache_resource`` shares them without the pickling round-trip that ``st.cache_data`` does on
every read (seconds at that size). Functions that take a workspace take its :attr:`Workspace.key`
(hashed) and the workspace itself as ``_ws`` (not hashed), so a rerun hashes a short string,
never the corpus. Tables derived for display are small and use ``st.cache_data``.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from core.formats import FORMATS, LlmParsing, ReadOptions, read_folder
from core.metrics import registry
from core.model import ROLES, AnnotationSet, Corpus, Role
from core.model.bounds import Policy
from core.model.roles import guess_role
from core.plugins import load_formats
from ui.file_reports import FileReport
from ui.file_reports import report as _report
from ui.parsing import guarded_load

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
K_METRIC = "metric"  # a span metric of core.metrics.registry (Scores, Documents)
K_VARIANT = "variant"  # Martino variant (variant_key("martino"))
K_MAF_VARIANT = "mvariant"  # MAFALDA variant (variant_key("mafalda"))
K_LEVEL = "level"  # taxonomy level (MAFALDA), 0/1/2
K_SYS1 = "sys1"  # paired comparison: first system
K_SYS2 = "sys2"  # paired comparison: second system
# Session only.
K_SOURCE = "source"  # "sample" | "upload" | "cli" (--data, ui.cli_data): which data pages show
K_UPLOADS = "uploads"  # st.file_uploader key
K_UPLOAD_WS = "upload_ws"  # Workspace built from the last uploaded batch (Data page)
K_DOC_QUERY = "doc_query"  # Documents: search text
K_DOC_SORT = "doc_sort"  # Documents: order of the document list
K_SPAN = "span"  # Documents: selected span id ("G3", "P1")
K_BOOT_N = "boot_n"  # bootstrap resamples
K_SEED = "seed"  # bootstrap seed (Scores; the URL's ?seed=)
K_SLICE_SEED = "slice_seed"  # bootstrap seed of the Errors slices (its own: not the Scores seed)
K_DATA_MARK = "data"  # the URL's ?data=upload-<digest>: the page shows uploads (ui.query)
K_SET_NAMES = "set_names"  # {workspace key: {set name as loaded: name given on the Data page}}


def upload_key(kind: str, filename: str) -> str:
    """Key of the per-file widget ``kind`` ("fmt", "role", "name") for an uploaded file."""
    return f"upload_{kind}::{filename}"


VARIANT_KEYS: dict[str, str] = {"martino": K_VARIANT, "mafalda": K_MAF_VARIANT}
"""URL keys of the metrics' variant widgets that links already use; any other registered metric
keeps its variant under ``variant_<name>`` (:func:`variant_key`)."""


def variant_key(metric: str) -> str:
    """Session-state (and URL) key of ``metric``'s variant."""
    return VARIANT_KEYS.get(metric, f"variant_{metric}")


def metric_defaults() -> dict[str, Any]:
    """Each registered span metric's default variant under its key, the default level and
    metric (the first span metric of :mod:`core.metrics.registry`)."""
    spans = registry.span_metrics()
    out: dict[str, Any] = {variant_key(m.name): m.default_variant for m in spans if m.variants}
    levels = [m.default_level for m in spans if m.levels]
    out[K_LEVEL] = levels[0] if levels else 2
    out[K_METRIC] = spans[0].name if spans else ""
    return out


LEVELS = (2, 1, 0)
"""Taxonomy levels (``core.model.taxonomy``): 2 the labels, 1 their groups, 0 fallacy or not."""
DEFAULT_SAMPLE = "propaganda"

DEFAULTS: dict[str, Any] = {
    K_SOURCE: "sample",
    **metric_defaults(),
    K_DOC_QUERY: "",
    K_DOC_SORT: "id",
    K_BOOT_N: 1000,
    K_SEED: 0,
    K_SLICE_SEED: 0,
}
"""Defaults of the keys that have one. Widget-owned keys use these as the widget default."""

UPLOAD_LINK_NOTE = (
    "Links carry the view (document, sets, metric, variant, level) but not data: a link to "
    "uploaded files opens on the bundled sample corpus for whoever receives it, with a notice "
    "that it was made on uploaded files."
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


def restore_view_on_back(*, shared: tuple[str, ...] = (K_SAMPLE, K_DATA_MARK)) -> None:
    """Give a page its last view back when the browser's Back or Forward lands on its bare URL.

    Leaving a page through the sidebar makes Streamlit (1.67) push two history entries: the
    page's own path without its query (its widgets are gone), then the next page. Back lands
    on the first one, and on a history navigation every widget bound to the URL takes what the
    URL says, here nothing, so the view fell back to its defaults (tour finding: Documents →
    Errors → Back). ``app.py`` calls this on every page's run, before the sidebar and the page
    draw their widgets (Documents, Labels, Errors' tab, Scores' choices: every page whose view
    is in its URL). On such a run, this reruns the page
    as the sidebar link would run it: the widgets take the values the session kept, and
    Streamlit writes them back into the URL, replacing the bare entry (no entry is added, so
    Forward still works). ``shared`` are the parameters the frame (``app.py``) binds on every
    page (the sample corpus, and :mod:`ui.query`'s mark of uploaded data); a URL with only
    those is bare. Parameters of another page's widgets (``?doc=7``, which
    ``st.switch_page`` to a document first writes on this page's entry) are not this page's:
    Streamlit leaves them out of ``st.query_params``, and they leave the URL here. A URL with a
    query of the page's own is left as it is: a link or an earlier entry that asks for a view
    gets that view.
    """
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:  # pragma: no cover - internal API of Streamlit 1.67, see above
        return
    ctx = get_script_run_ctx()
    if ctx is None or not getattr(ctx, "is_history_navigation", False):
        return
    if set(st.query_params) <= set(shared):
        st.query_params.update()  # the rerun's URL is the one seen here, without them
        st.rerun()


def init_state() -> None:
    """Put every default into ``st.session_state`` that is not there yet (call once per run).

    Also calls :func:`ensure_app_navigation`, so every page that reads the state is served
    through ``app.py``, and loads the formats of installed plugins (``core/plugins.py``).
    """
    ensure_app_navigation()
    load_formats()  # formats of installed plugins join detection and the format choice (once)
    defaults = {**metric_defaults(), **DEFAULTS}
    if os.environ.get("SPANSCOPE_DATA"):  # started with `--data` (ui.cli_data): those files
        defaults[K_SOURCE] = "cli"
    for key, value in defaults.items():
        if key not in st.session_state:
            st.session_state[key] = list(value) if isinstance(value, list) else value


# ---- data ---------------------------------------------------------------------------------------


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
    placed: Mapping[str, str] = field(default_factory=dict)
    """Set name -> file, for the sets whose reader placed the spans itself (MAFALDA model
    outputs, ``FileReport.assumed_extents``): scores keep such spans past the text, agreement
    clips them (:func:`ui.text_policy.for_agreement`)."""
    undecided: str | None = None
    """The Curation page's curated set while the lead has decided nothing (the automatic
    consensus, :func:`ui.curation.with_curated`): never a default reference."""
    orders: Mapping[str, object] = field(default_factory=dict)  # FileReport.order per set

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


def _display_name(filename: str) -> str:
    name = Path(filename).name
    for suffix in (".jsonl", ".json", ".tsv", ".txt", ".csv", ".ann", ".zip", ".conll", ".spacy",
                   ".xmi", ".parquet"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def parse_bytes(
    filename: str, data: bytes, fmt: str | None, role: Role, name: str,
    beyond_text: Policy = "refuse", llm_parsing: LlmParsing = "paper-2023", *,
    as_read: bool = True, keep_names: bool = True,
) -> FileReport:
    """Parse one file's bytes into a :class:`FileReport`; a ``FormatError`` becomes its error.

    Uncached and streamlit-free, so tests and the benchmark can call it directly; a reader bug
    becomes an error saying so (:mod:`ui.parsing`), never a traceback. ``llm_parsing`` is how
    a ``mafalda-llm`` file's answers become spans (``docs/mafalda.md``); ``as_read`` and
    ``keep_names`` as in :func:`ui.file_reports.report`.
    """
    options = ReadOptions(role=role, beyond_text=beyond_text, llm_parsing=llm_parsing)
    loaded, error = guarded_load({filename: data}, fmt=fmt, name=filename, options=options)
    return _report(filename, loaded, role, name, error, llm_parsing, as_read=as_read,
                   keep_names=keep_names)


@st.cache_resource(max_entries=64, show_spinner="Parsing…")
def parse_file(filename: str, data: bytes, fmt: str | None, role: Role, name: str,
               beyond_text: Policy = "refuse", llm_parsing: LlmParsing = "paper-2023", *,
               as_read: bool = True, keep_names: bool = True) -> FileReport:
    """Cached :func:`parse_bytes` (keyed by the bytes and every choice)."""
    return parse_bytes(filename, data, fmt, role, name, beyond_text, llm_parsing,
                       as_read=as_read, keep_names=keep_names)


def build_workspace(
    reports: list[FileReport] | tuple[FileReport, ...], *, key: str, title: str,
    shareable: bool,
) -> Workspace:
    """Assemble a workspace from file reports: texts merged (first non-empty wins), sets added.

    A set named as its file names it (an annotator) whose name another file's set also has
    gets its file's display name in front (``a:annotator 1``), as ``python -m core agree``
    puts the file name in front of names that repeat across files. Two sets with one name
    still get ``name (2)``, ``name (3)``... rather than one replacing the other.
    """
    corpus = Corpus()
    placed: dict[str, str] = {}
    orders: dict[str, object] = {}
    count = Counter(aset.name for rep in reports for aset in rep.sets)
    for rep in reports:
        for doc_id, text in rep.texts.items():
            if corpus.texts.get(doc_id) is None:
                corpus.texts[doc_id] = text
        for aset in rep.sets:
            base = (f"{rep.name}:{aset.name}" if aset.name in rep.own_names
                    and count[aset.name] > 1 else aset.name)
            name, n = base, 2
            while name in corpus.sets:
                name, n = f"{base} ({n})", n + 1
            corpus.add_set(AnnotationSet(name, aset.spans, aset.role, aset.alternatives))
            if rep.assumed_extents is not None:
                placed[name] = rep.file
            orders.update({name: rep.order} if rep.order is not None else {})
    return Workspace(key, title, corpus, tuple(reports), shareable, placed, orders=orders)



@st.cache_resource(max_entries=16, show_spinner=False)
def doc_id_set(ws_key: str, _ws: Workspace) -> frozenset[str]:
    """Every document id of the workspace, cached: :attr:`core.model.Corpus.doc_ids` walks every
    set on each call, a tenth of a second of every page run at 100,000 documents; the set is
    made of the tables' ids, not of that list (20 ms against 75 ms; issue 29, twelfth pass)."""
    return frozenset(_ws.corpus.texts).union(*(s.table.doc_ids for s in _ws.sets.values()))


def rename_problem(ws: Workspace, old: str, new: str) -> str | None:
    """Why ``old`` cannot be called ``new`` in ``ws`` (None when it can): an empty name, or
    the name of another set.

    >>> sets = {"a": AnnotationSet("a", {}), "b": AnnotationSet("b", {})}
    >>> ws = Workspace("k", "t", Corpus({}, sets))
    >>> rename_problem(ws, "a", " "), rename_problem(ws, "a", "b"), rename_problem(ws, "a", "c")
    ('A set name cannot be empty.', "Another set is named 'b' already.", None)
    """
    if not new.strip():
        return "A set name cannot be empty."
    if new != old and new in ws.sets:
        return f"Another set is named {new!r} already."
    return None


def add_rename(names: Mapping[str, str], old: str, new: str) -> dict[str, str]:
    """``names`` (set name as loaded -> name given) with the set now called ``old`` (``names``
    applied) called ``new``; a set renamed back to its loaded name leaves the map.

    >>> add_rename({"gold": "Reference"}, "Reference", "Gold v2")
    {'gold': 'Gold v2'}
    >>> add_rename({"gold": "Reference"}, "Reference", "gold"), add_rename({}, "a", "b")
    ({}, {'a': 'b'})
    """
    loaded = next((k for k, v in names.items() if v == old), old)
    out = {k: v for k, v in names.items() if k != loaded}
    if new.strip() != loaded:
        out[loaded] = new.strip()
    return out


def renamed(ws: Workspace, names: Mapping[str, str]) -> Workspace:
    """``ws`` with its sets renamed (``names``: set name as loaded -> new name; names of sets
    that ``ws`` does not hold are ignored), under a key of its own so that no cache mixes the
    two; ``ws`` itself when nothing applies. The Data page's rename control fills ``names``
    (:data:`K_SET_NAMES`); every page then shows the new names."""
    moves = {old: new for old, new in names.items() if old in ws.sets and new != old}
    if not moves:
        return ws
    return _renamed(f"{ws.key}|names:" + hashlib.sha256(
        repr(sorted(moves.items())).encode()).hexdigest()[:12], ws, tuple(moves.items()))


@st.cache_resource(max_entries=8, show_spinner=False)
def _renamed(key: str, _ws: Workspace, moves: tuple[tuple[str, str], ...]) -> Workspace:
    to = dict(moves)
    sets = {to.get(n, n): AnnotationSet(to.get(n, n), s.spans, s.role, s.alternatives)
            for n, s in _ws.sets.items()}
    corpus = Corpus(_ws.corpus.texts, sets)  # the texts are shared, never copied
    placed = {to.get(n, n): f for n, f in _ws.placed.items()}
    orders = {to.get(n, n): r for n, r in _ws.orders.items()}
    return Workspace(key, _ws.title, corpus, _ws.reports, _ws.shareable, placed, orders=orders)


def with_given_names(ws: Workspace) -> Workspace:
    """``ws`` with the names given on the Data page for it (:data:`K_SET_NAMES`)."""
    given = (st.session_state.get(K_SET_NAMES) or {}).get(ws.key) or {}
    return renamed(ws, given)


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
        role = guess_role(path.name, folder=path.is_dir())
        display = _display_name(path.name)
        if path.is_dir():
            loaded, error = guarded_load(read_folder(path), name=path.name,
                                         options=ReadOptions(role=role))
            reports.append(_report(path.name, loaded, role, display, error))
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
        # the names and roles the sets got (as read, or the file's role over them)
        digest.update("".join(f"{s.name}\0{s.role}\0" for s in rep.sets).encode())
    digest.update(settings.encode())  # batch-wide reading choices (spans past the text)
    return build_workspace(reports, key="upload:" + digest.hexdigest()[:16], title="uploaded files",
                           shareable=False)


def empty_workspace() -> Workspace:
    return Workspace("empty", "no data", Corpus(), (), True)


def set_options(ws: Workspace, *roles: Role) -> list[str]:
    """Names of the workspace's sets with one of ``roles`` (all roles if none given), in order."""
    wanted = roles or ROLES
    return [name for name, s in ws.sets.items() if s.role in wanted]


def default_pair(ws: Workspace) -> tuple[str | None, str | None]:
    """The default compared pair: the first gold set and the first other set; the undecided
    consensus of the Curation page (:attr:`Workspace.undecided`) is never the reference."""
    gold = [n for n in set_options(ws, "gold") if n != ws.undecided]
    a = gold[0] if gold else next((n for n in ws.sets if n != ws.undecided),
                                  next(iter(ws.sets), None))
    others = [n for n in ws.sets if n != a]
    systems = [n for n in set_options(ws, "system") if n != a]
    b = systems[0] if systems else (others[0] if others else None)
    return a, b


def format_choices() -> tuple[str, ...]:
    """Choices of the per-file format override (``auto`` = detect): every format of
    :data:`core.formats.FORMATS`, with those of installed plugins (:func:`init_state` loads
    them, as the command line does when it starts; ``core/plugins.py``)."""
    return ("auto", *FORMATS)


def compared_sets(ws: Workspace, ref: str | None) -> list[str]:
    """The sets scored against ``ref``: its systems, or every other set when there is none."""
    systems = [n for n in set_options(ws, "system") if n != ref]
    return systems or [n for n in ws.sets if n != ref]


@st.cache_data(max_entries=16, show_spinner=False)
def all_labels(ws_key: str, _ws: Workspace) -> list[str]:
    """Every label of every set of the workspace (sorted): the domain of the colour map."""
    return sorted({lab for aset in _ws.sets.values() for lab in aset.labels()})

