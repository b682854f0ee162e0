"""The Data page's uploaded files, kept across pages with their format, role and name editable.

Streamlit's file uploader forgets its files when the user opens another page. The bytes of every
uploaded file (or folder) are therefore kept in the session (:data:`K_FILES`), and the Data page
draws one row per kept file from there: format, role, display name and, for MAFALDA model
outputs, the parsing of their answers. Changing any of them reparses that file from the kept
bytes, with no new upload. A file leaves the list when the user removes it from the uploader,
presses its 🗑️ button, or forgets them all. Uploads are known by the uploader's file id, not
by name: two files of one name are both kept, the second as ``name (2)``.

Each run of the Data page rebuilds the uploaded workspace from the rows (parsing is cached), and
the workspace's key digests every choice, so that a new format choice always gives a new
workspace with the new result or error, never the previous one (issue 16 item 4).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import streamlit as st

from core.formats import LlmParsing, detect
from core.formats.archive import unpack_zips
from core.formats.mafalda import DOCCANO_WAY
from core.formats.mafalda_llm import PARSINGS
from core.formats.ptc import ARTICLE_RE
from core.model import ROLES, Role
from core.model.bounds import Policy
from core.model.errors import Diagnostic, FormatError
from core.model.roles import guess_role
from ui import cli_data, folder_upload, state, text_policy
from ui.escape import md
from ui.parsing import guarded_load

K_FILES = "upload_files"  # session: {name: Upload} of the kept uploads, in upload order
K_SEEN = "upload_seen"  # session: {uploader key: file ids it held on the Data page's last run}
K_IDS = "upload_ids"  # session: {uploader's file id: the kept upload's name}
K_REMOVED = "upload_removed"  # session: file ids removed with 🗑️ while the uploader held them
K_ROLE_CHOSEN = "upload_role_chosen"  # session: kept uploads whose role box the user changed

LLM_FORMAT = "mafalda-llm"
LLM_HELP = (
    "How the model's answers become spans (docs/mafalda.md). paper-2023: the evaluator behind "
    "the paper's tables; it assumes the sentences follow each other with no separator, so spans "
    "drift a little further from the words at each sentence. repo-head: today's evaluator, one "
    "character between sentences.")
DETECT_HINT = "pass it explicitly"
FORMAT_BOX_HINT = "choose it in the Format box"
DOCCANO_BOX_HINT = "choose doccano in the Format box"


@dataclass(frozen=True)
class Upload:
    """One kept upload: a file's bytes, or a folder's files (``members``) read as one input.

    ``name`` is unique among the kept uploads: the file's own name, or ``annotations.jsonl
    (2)`` for a second upload of that name (:func:`sync`); ``filename`` is the name the
    browser gave, with which the file is read (detection looks at its extension).
    ``file_id`` is the uploader's id of the file (for a folder, of its files).
    """

    name: str
    data: bytes
    members: tuple[tuple[str, bytes], ...] = ()
    filename: str = ""
    file_id: str = ""

    @property
    def original(self) -> str:
        """The name the browser gave the file (or folder)."""
        return self.filename or self.name

    @property
    def copy_suffix(self) -> str:
        """`` (2)`` for the second upload of a name, else empty."""
        return self.name[len(self.original):] if self.name.startswith(self.original) else ""

    @property
    def folder(self) -> bool:
        return bool(self.members)

    @property
    def size(self) -> int:
        return len(self.data) if not self.members else sum(len(d) for _, d in self.members)


def kept() -> dict[str, Upload]:
    """The kept uploads (name -> :class:`Upload`), created empty on first use."""
    files = st.session_state.get(K_FILES)
    if not isinstance(files, dict):
        files = {}
        st.session_state[K_FILES] = files
    return files


def sync(uploader_key: str, alive: bool, current: Sequence[Upload]) -> None:
    """Keep what the uploader ``uploader_key`` holds now, every file under a name of its own.

    A file is known by its uploader id: it keeps its name (and so its format, role and name
    choices) from run to run. A new file whose name a kept upload already has becomes
    ``name (2)`` (``(3)``...), so that two files of one name (``a/annotations.jsonl`` and
    ``b/annotations.jsonl``) are both kept; the same bytes under the same name uploaded again
    (back from another page) are the kept upload, not a copy.

    ``alive`` says whether the uploader existed on the previous run: only then did a file that
    left it leave because the user removed it; otherwise the user is back from another page and
    the uploader merely forgot its files, which stay kept.
    """
    files = kept()
    seen: dict[str, list[str]] = st.session_state.setdefault(K_SEEN, {})
    ids: dict[str, str] = st.session_state.setdefault(K_IDS, {})
    removed: set[str] = st.session_state.setdefault(K_REMOVED, set())
    now = [u.file_id or u.name for u in current]
    dropped = False
    if alive:
        for gone in set(seen.get(uploader_key, ())) - set(now):
            removed.discard(gone)
            name = ids.pop(gone, None)
            if name is not None and name in files:
                del files[name]
                dropped = True
    seen[uploader_key] = now
    claimed: set[str] = set()
    for upload, file_id in zip(current, now, strict=True):
        if file_id in removed:  # removed with 🗑️ while the uploader still shows it
            continue
        name = ids.get(file_id)
        if name is None or name not in files or name in claimed:
            name = _same_upload(files, upload, claimed) or _free_name(files, upload, claimed)
            ids[file_id] = name
        claimed.add(name)
        files[name] = dataclasses.replace(upload, name=name, filename=upload.original,
                                          file_id=file_id)
    if dropped and not files:
        forget()  # the last file was removed: back to the sample


def _same_upload(files: dict[str, Upload], upload: Upload, claimed: set[str]) -> str | None:
    """The kept upload that ``upload`` is again (same name, same bytes), if any."""
    for name, old in files.items():
        if (name not in claimed and old.original == upload.original and old.data == upload.data
                and old.members == upload.members):
            return name
    return None


def _free_name(files: dict[str, Upload], upload: Upload, claimed: set[str]) -> str:
    """``upload``'s own name, or ``name (2)``, ``(3)``... when a kept upload has it."""
    name, n = upload.original, 2
    while name in files or name in claimed:
        name, n = f"{upload.original} ({n})", n + 1
    return name


def same_name_note() -> str | None:
    """The caption that says which kept uploads share a file name and how they are listed
    (None when every name is distinct)."""
    by_original: dict[str, list[str]] = {}
    for up in kept().values():
        by_original.setdefault(up.original, []).append(up.name)
    shared = {o: names for o, names in by_original.items() if len(names) > 1}
    if not shared:
        return None
    parts = [f"{len(names)} files are named **{md(o)}**: they are listed as "
             + ", ".join(f"**{md(n)}**" for n in names) for o, names in shared.items()]
    return ("; ".join(parts) + ". Each keeps its own row and sets (display names "
            "with the same number); rename them below.")


def forget(name: str | None = None) -> None:
    """Drop one kept upload, or all of them (``None``), and the batch built from them.

    A file removed with its 🗑️ button while the uploader still shows it stays out until it
    leaves the uploader."""
    files = kept()
    ids: dict[str, str] = st.session_state.setdefault(K_IDS, {})
    if name is None:
        files.clear()
        st.session_state.setdefault(K_REMOVED, set()).update(ids)
    else:
        files.pop(name, None)
        st.session_state.setdefault(K_REMOVED, set()).update(
            i for i, n in ids.items() if n == name)
    if not files:
        st.session_state[state.K_UPLOAD_WS] = None
        st.session_state[state.K_SOURCE] = fallback_source()


def fallback_source() -> str:
    """What the pages show without uploads: the ``--data`` files when the app was started with
    them, else the sample."""
    return cli_data.SOURCE if cli_data.cli_workspace() is not None else "sample"


def detected(upload: Upload) -> str | None:
    """The format detection gives ``upload`` (None when it cannot tell), once per upload:
    detection unpacks a zip, which the Data page would otherwise repeat on every visit."""
    key = upload.file_id or hashlib.sha256(
        b"".join(d for _, d in upload.members) if upload.folder else upload.data).hexdigest()
    return _detected(key, upload.original, upload.size, upload)


@st.cache_data(max_entries=256, show_spinner=False)
def _detected(key: str, original: str, size: int, _upload: Upload) -> str | None:
    del key, original, size  # the cache key: the uploader's file id (or the bytes' digest)
    try:
        return detect(dict(_upload.members) if _upload.folder
                      else {_upload.original: _upload.data}, source=_upload.original)
    except Exception:  # detection failing is reported by the parse itself
        return None


def for_the_page(diag: Diagnostic | None) -> Diagnostic | None:
    """A reader's error as the Data page says it: the way to name a format here is the Format
    box, not a command-line flag (the undetected format's hint, and the MAFALDA reader's of
    doccano)."""
    if diag is None:
        return diag
    message = diag.message
    for said, here in ((DETECT_HINT, FORMAT_BOX_HINT), (DOCCANO_WAY, DOCCANO_BOX_HINT)):
        message = message.replace(said, here)
    return diag if message == diag.message else dataclasses.replace(diag, message=message)


def is_type_system(upload: Upload) -> bool:
    """Whether ``upload`` is a UIMA type system (``TypeSystem.xml``): not annotations itself,
    but what a ``.xmi`` upload needs to be read."""
    return (not upload.folder and upload.original.lower().endswith(".xml")
            and b"<typeSystemDescription" in upload.data[:4096])


def type_system_for(uploads: Sequence[Upload]) -> Upload | None:
    """The type system that single ``.xmi`` uploads are read with: the uploaded
    ``TypeSystem.xml`` (any case), else the only uploaded type system (None when there is none,
    or several and none of them named so)."""
    found = [u for u in uploads if is_type_system(u)]
    named = [u for u in found if u.name.lower() == "typesystem.xml"]
    if len(named) == 1:
        return named[0]
    return found[0] if len(found) == 1 else None


def _type_system_row(upload: Upload, readers: Sequence[str]) -> None:
    """A type system's row: what it is and which ``.xmi`` uploads it is read with."""
    c1, c2 = st.columns([3, 7])
    c1.markdown(f"**{md(upload.name)}**  \n{upload.size:,} bytes")
    if c1.button("🗑️ Remove", key=state.upload_key("remove", upload.name),
                 help=f"Forget {upload.name}"):
        forget(upload.name)
        st.rerun()
    if readers:
        c2.caption(f"UIMA type system, read with {md(', '.join(readers))}.")
    else:
        c2.caption("UIMA type system: upload the .xmi files it describes with it (or a zip of "
                   "both), and they are read with it.")


AS_READ = "as read"
"""The role choice of a file that names its own sets: each keeps the role it is read with."""
AS_READ_HELP = (
    "as read: each set keeps the name and the role the file gives it, as `python -m core "
    "validate` lists them: Label Studio annotators and models (system), doccano users, Prodigy "
    "annotators, a spans CSV's annotator column, an INCEpTION or WebAnno export's annotators "
    "and its curation (the gold). A role chosen here goes to every set of the file, except "
    "that among several sets the file's own gold (an INCEpTION curation) stays the gold, and "
    "gold makes the other sets annotators.")
SET_NAME_HELP = (
    "Empty: the sets keep the names the file gives them (a name that another file's set also "
    "has gets this file's name in front). A name typed here names the file's only set, or goes "
    "in front of each set's name (name:set).")


def _parse(upload: Upload, fmt: str | None, role: Role, name: str, beyond: Policy,
           llm: LlmParsing, companion: Upload | None, *, as_read: bool, keep_names: bool
           ) -> state.FileReport:
    """Read ``upload`` (cached) under its own file name, reported under its kept name."""
    src = upload.original
    if upload.folder:
        rep = folder_upload.parse_folder(src, tuple(sorted(upload.members)), fmt, role, name,
                                         beyond, as_read=as_read, keep_names=keep_names)
    elif companion is not None:
        rep = folder_upload.parse_folder(
            src, ((src, upload.data), (companion.original, companion.data)), fmt, role, name,
            beyond, as_read=as_read, keep_names=keep_names)
    else:
        rep = state.parse_file(src, upload.data, fmt, role, name, beyond, llm, as_read=as_read,
                               keep_names=keep_names)
    return _relabel(rep, src, upload.name)


def _relabel(rep: state.FileReport, src: str, name: str) -> state.FileReport:
    """``rep`` of a file read as ``src`` but kept as ``name`` (``annotations.jsonl (2)``): its
    messages name the upload as the page lists it."""
    if src == name:
        return rep

    def fix(d: Diagnostic) -> Diagnostic:
        if d.file == src or d.file.startswith(src + "/"):
            return dataclasses.replace(d, file=name + d.file[len(src):])
        return d

    return dataclasses.replace(rep, file=name, diagnostics=tuple(map(fix, rep.diagnostics)),
                               error=fix(rep.error) if rep.error is not None else None)


GUESSED_ANNOTATOR = ("read as an annotator's export: among the uploaded files whose role box "
                     "is left at its guess, files guessed systems gave one document id "
                     "different texts, as annotators' exports of one tool do (doccano numbers "
                     "each annotator's documents its own way); a role chosen in the file's Role "
                     "box (system too, chosen again) reads it with that role")
"""The note on each upload :func:`rows` reads as an annotator (``cli_data.GUESSED_ANNOTATOR``
on the Data page, where a role box replaces ``--data ROLE=PATH``)."""


def _chose_role(name: str) -> None:
    st.session_state.setdefault(K_ROLE_CHOSEN, set()).add(name)


def _row(upload: Upload, beyond: Policy, companion: Upload | None = None
         ) -> tuple[state.FileReport, str, Callable[[], state.FileReport] | None]:
    """Draw one kept upload's row and parse it; ``(report, its choices as text, a reading as an
    annotator's export)``, the last None unless the role box is left at a guessed system
    (:func:`rows`).

    A file that names its own sets (annotators, models, an INCEpTION curation) is read "as
    read" by default: every set keeps its name and role (:data:`AS_READ_HELP`); the role box
    offers that choice before the three roles, and its display name is empty.

    ``companion``: the type system a single ``.xmi`` upload is read with (one input of two
    files, as ``python -m core validate doc.xmi`` reads the ``TypeSystem.xml`` beside it)."""
    n = upload.name
    c1, c2, c3, c4 = st.columns([3, 2, 2, 3])
    kind = f"(folder)  \n{len(upload.members):,} files" if upload.folder else \
        f"  \n{upload.size:,} bytes"
    c1.markdown(f"**{md(n)}{'/' if upload.folder else ''}** {kind}")
    if c1.button("🗑️ Remove", key=state.upload_key("remove", n), help=f"Forget {n}"):
        forget(n)
        st.rerun()
    fmt = c2.selectbox("Format", state.format_choices(), key=state.upload_key("fmt", n),
                       persist_state="session",
                       help="auto: detected from the name and first bytes. Choosing a format "
                       "reads the file again with it.")
    chosen = None if fmt == "auto" else fmt
    llm: LlmParsing = "paper-2023"
    fmt_read = chosen or detected(upload)
    if fmt_read == LLM_FORMAT:
        llm = cast(LlmParsing, c2.selectbox("LLM answer parsing", PARSINGS,
                                            key=state.upload_key("llm", n),
                                            persist_state="session", help=LLM_HELP))
    guessed = guess_role(upload.original, folder=upload.folder, fmt=fmt_read)
    default_name = _default_name(upload)
    # Read once with the role the name suggests: that tells whether the file names its sets.
    as_read = _parse(upload, chosen, guessed, default_name, beyond, llm, companion,
                     as_read=True, keep_names=True)
    if as_read.own_names:
        choice = c3.selectbox("Role", (AS_READ, *ROLES), key=state.upload_key("setroles", n),
                              persist_state="session", help=AS_READ_HELP,
                              on_change=_chose_role, args=(n,))
        typed = c4.text_input("Display name", value="", placeholder="as read",
                              key=state.upload_key("setname", n), persist_state="session",
                              help=SET_NAME_HELP).strip()
        if choice == AS_READ and not typed:
            rep = as_read
        else:
            rep = _parse(upload, chosen, guessed if choice == AS_READ else cast(Role, choice),
                         typed or default_name, beyond, llm, companion,
                         as_read=choice == AS_READ, keep_names=not typed)
    else:
        choice = c3.selectbox("Role", ROLES, index=ROLES.index(guessed),
                              key=state.upload_key("role", n), persist_state="session",
                              on_change=_chose_role, args=(n,))
        typed = c4.text_input("Display name", value=default_name,
                              key=state.upload_key("name", n), persist_state="session").strip()
        rep = _parse(upload, chosen, choice, typed or default_name, beyond, llm,
                     companion, as_read=True, keep_names=True)
    # a file its reader refused keeps the format it was read as (the Files table shows it)
    rep = dataclasses.replace(rep, format=rep.format or fmt_read, error=lone_article(
        upload, text_policy.for_the_page(for_the_page(rep.error))))
    reread = None
    if guessed == "system" and n not in st.session_state.get(K_ROLE_CHOSEN, ()):
        own = as_read.own_names

        def reread() -> state.FileReport:
            again = _parse(upload, chosen, "annotator", typed or default_name, beyond, llm,
                           companion, as_read=True, keep_names=not (own and typed))
            return dataclasses.replace(again, error=text_policy.for_the_page(
                for_the_page(again.error)), diagnostics=(*again.diagnostics, Diagnostic(
                    again.file, GUESSED_ANNOTATOR, kind="role")))
    return rep, f"{n}|{fmt}|{llm}|{choice}|{typed}", reread


def _default_name(upload: Upload) -> str:
    """The name a kept upload's "Display name" box starts with (the file's set name)."""
    return upload.name if upload.folder else \
        state._display_name(upload.original) + upload.copy_suffix


def renamed_boxes() -> dict[str, tuple[str, str, str]]:
    """The "Display name" boxes of the kept uploads that rename their file's sets now: box key
    -> (the box's value as loaded, the name the sets had as loaded, the name given). A name box
    starts with the file's name (an empty one means it too); a box of a file that names its own
    sets starts empty ("as read")."""
    out: dict[str, tuple[str, str, str]] = {}
    for upload in kept().values():
        default = _default_name(upload)
        for kind, start, was in (("name", default, default), ("setname", "", "as read")):
            key = state.upload_key(kind, upload.name)
            typed = str(st.session_state.get(key) or "").strip()
            if typed and typed != start:
                out[key] = (start, was, typed)
    return out


def rows(beyond: Policy) -> tuple[list[state.FileReport], list[bytes], str]:
    """Every kept upload's row: the reports (under the policy for spans past the text, checked
    across the batch), their bytes, and the batch's choices as text (for the workspace key).

    A UIMA type system is no input of its own: single ``.xmi`` uploads are read with it (its
    bytes count in theirs), and its row says so."""
    reports: list[state.FileReport] = []
    contents: list[bytes] = []
    choices: list[str] = [f"beyond={beyond}"]
    everything = list(kept().values())
    type_system = type_system_for(everything)
    readers = [u.name for u in everything if type_system is not None and not u.folder
               and u.original.lower().endswith(".xmi")]
    guessed: dict[int, Callable[[], state.FileReport]] = {}
    for upload in everything:
        if is_type_system(upload):
            _type_system_row(upload, readers if upload is type_system else [])
            continue
        companion = type_system if upload.name in readers else None
        rep, choice, reread = _row(upload, beyond, companion)
        if reread is not None:
            guessed[len(reports)] = reread
        reports.append(rep)
        if upload.folder:
            contents.append(b"".join(p.encode() + b"\0" + d for p, d in sorted(upload.members)))
        elif companion is not None:
            contents.append(upload.data + b"\0" + companion.name.encode() + b"\0"
                            + companion.data)
        else:
            contents.append(upload.data)
        choices.append(choice)
    # The rule of --data for files given without a role (cli_data.one_tools_exports): uploads
    # whose role box is left at a guessed system that give one document id two texts are
    # annotators' exports of one tool, read as annotators (their documents matched by text).
    if sum(reports[i].ok for i in guessed) >= 2:
        checked = text_policy.same_texts(reports)
        if cli_data.one_tools_exports([checked[i] for i in guessed],
                                      [reports[i] for i in guessed]):
            for i, reread in guessed.items():
                reports[i] = reread()
            names = ", ".join(f"**{md(reports[i].file)}**" for i in guessed)
            st.info(f"Read as annotators' exports of one tool: {names}. Their Role boxes, left "
                    "at the guess (system), gave one document id different texts, as "
                    "annotators' exports do; a role chosen in a box reads its file with it.",
                    icon="👥")
    return text_policy.apply(reports, beyond), contents, "\n".join(choices)


def store_batch(ws: state.Workspace) -> bool:
    """Make ``ws`` the uploaded workspace when it is new; True when the caller must rerun (the
    sidebar, drawn before the page, still shows the previous data).

    A batch in which no file loaded leaves the pages on the sample (or the ``--data`` files): a
    failed upload never switches them to an empty "uploaded files".
    """
    old = st.session_state.get(state.K_UPLOAD_WS)
    if old is not None and old.key == ws.key:
        return False
    st.session_state[state.K_UPLOAD_WS] = ws
    before = st.session_state.get(state.K_SOURCE)
    st.session_state[state.K_SOURCE] = "upload" if not ws.empty else fallback_source()
    return before != st.session_state[state.K_SOURCE] or before == "upload"


def sidebar_caption(ws: state.Workspace) -> str:
    """What the sidebar says under uploaded data: how many files, which, how many sets."""
    names = [r.file for r in ws.reports if r.ok and r.sets]
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    failed = sum(1 for r in ws.reports if not r.ok)
    tail = f"; {failed} file(s) with errors" if failed else ""
    return (f"📤 Showing **uploaded files**: {md(shown) or 'none loaded'} "
            f"({len(ws.sets)} set(s){tail}). Change on 📂 Data.")


def llm_note(ws: state.Workspace, *set_names: str) -> str | None:
    """The Documents page's note when one of ``set_names`` comes from MAFALDA model outputs
    read with the ``paper-2023`` parsing (why its spans start and end mid-word), else None."""
    files = [r.file for r in ws.reports if r.ok and r.llm_parsing == "paper-2023"
             and any(s.name in set_names for s in r.sets)]
    if not files:
        return None
    return (f"Spans of {md(', '.join(files))} come from model answers per sentence, read with "
            "the **paper-2023** parsing of MAFALDA's evaluator (the one behind the paper's "
            "tables). It places each sentence right after the previous one, with no space "
            "between them, so every sentence's spans start a little earlier than its words: by "
            "one character per sentence before it. That is why they begin and end mid-word. "
            "The repo-head parsing (choose it per file on 📂 Data) puts one character between "
            "sentences; see docs/mafalda.md.")


def uploaded(files: Any) -> list[Upload]:
    """The uploader's files as :class:`Upload` values (two files may share a name); a ``.zip``
    whose files are separate inputs is those inputs (:func:`separate_inputs`); brat files
    uploaded one by one are one input, as in a folder (:func:`brat_group`), and so are PTC
    articles uploaded with their ``.labels`` files (:func:`ptc_group`)."""
    loose = [Upload(f.name, f.getvalue(), filename=f.name, file_id=str(f.file_id))
             for f in files or ()]
    groups = [g for g in (brat_group(loose), ptc_group(loose)) if g is not None]
    first = {g.file_id.split("|")[0]: g for g in groups}
    grouped = {i for g in groups for i in g.file_id.split("|")}
    out: list[Upload] = []
    for upload in loose:
        if upload.file_id in grouped:
            if upload.file_id in first:
                out.append(first[upload.file_id])  # where its first file was
            continue
        out.extend(separate_inputs(upload) if upload.name.lower().endswith(".zip")
                   else (upload,))
    return out


def brat_group(loose: Sequence[Upload]) -> Upload | None:
    """The brat files among the uploader's ``loose`` files as one folder upload: every ``.ann``
    whose ``.txt`` (same stem) is uploaded too, those ``.txt`` files and brat's configuration
    (``annotation.conf``), which a folder of them holds as companions of the ``.ann`` files
    (:func:`ui.cli_data._is_companion`, the rule of ``--data`` and :func:`separate_inputs`).
    The brat reader then reads them as one set's documents, each ``.ann`` with its text (tour
    4 item 2), instead of one text-less set per ``.ann`` and every ``.txt`` refused. Named
    ``brat``, or the ``.ann``'s stem when there is one. None when no ``.ann`` has its ``.txt``;
    files whose name two uploads share stay as they are."""
    counts: dict[str, int] = {}
    for u in loose:
        counts[u.original.lower()] = counts.get(u.original.lower(), 0) + 1
    names = frozenset(n for n, c in counts.items() if c == 1)
    texts = [u for u in loose if u.original.lower() in names
             and u.original.lower().endswith(".txt") and cli_data._is_companion(u.original, names)]
    if not texts:
        return None
    stems = {u.original.lower()[: -len(".txt")] for u in texts}

    def member(u: Upload) -> bool:
        lower = u.original.lower()
        if lower not in names:
            return False
        if lower.endswith(".ann"):
            return lower[: -len(".ann")] in stems
        return u in texts or (lower.endswith(".conf") and cli_data._is_companion(lower, names))

    members = [u for u in loose if member(u)]
    anns = [u for u in members if u.original.lower().endswith(".ann")]
    name = anns[0].original[: -len(".ann")] if len(anns) == 1 else "brat"
    return Upload(name, b"", tuple(sorted((u.original, u.data) for u in members)), filename=name,
                  file_id="|".join(u.file_id for u in members))


PTC_TEXT = re.compile(r"article[0-9]+\.txt", re.IGNORECASE)
"""The name of a PTC article text (``article<ID>.txt``, :mod:`core.formats.ptc`)."""
PTC_GROUP = "articles"
"""The name of the input that PTC articles uploaded with their labels become."""


def ptc_group(loose: Sequence[Upload]) -> Upload | None:
    """The PTC articles among the uploader's ``loose`` files with their labels, as one folder
    upload, read as the PTC reader reads a gold folder (tour 7 item 1): every
    ``article<ID>.txt`` with the ``article<ID>*.labels`` files (of any article), or, when no
    such file is uploaded, with the one ``.labels`` file for all articles (the SemEval-2020
    dev set's ``dev-task-TC.labels``; among several such files, the one whose name says gold).
    Other ``.labels`` files (a system's predictions, ``system_run.labels``) stay inputs of
    their own. Named ``articles``. None when no article text pairs with a labels file; files
    whose name two uploads share stay as they are."""
    counts: dict[str, int] = {}
    for u in loose:
        counts[u.original.lower()] = counts.get(u.original.lower(), 0) + 1
    single = [u for u in loose if counts[u.original.lower()] == 1]
    texts = [u for u in single if PTC_TEXT.fullmatch(u.original)]
    labels = [u for u in single if u.original.lower().endswith(".labels")]
    if not texts or not labels:
        return None
    per_article = [u for u in labels if ARTICLE_RE.search(u.original) is not None]
    if not per_article:
        combined = [u for u in labels if guess_role(u.original) == "gold"] \
            if len(labels) > 1 else labels
        if len(combined) != 1:
            return None
        per_article = combined
    members = [u for u in loose if u in texts or u in per_article]
    return Upload(PTC_GROUP, b"", tuple(sorted((u.original, u.data) for u in members)),
                  filename=PTC_GROUP, file_id="|".join(u.file_id for u in members))


def lone_article(upload: Upload, error: Diagnostic | None) -> Diagnostic | None:
    """The error of a PTC article text uploaded without its labels: what it is and how to
    upload it, instead of the PTC reader's complaint that its lines are no labels rows."""
    if error is None or upload.folder or not PTC_TEXT.fullmatch(upload.original):
        return error
    stem = upload.original[: -len(".txt")]
    return dataclasses.replace(error, file=upload.name, line=None, field=None, message=(
        f"this is a PTC article text ({stem}.txt), not a labels file: upload it together "
        f"with its {stem}….labels file (select both in the uploader, or use \"Upload a whole "
        "folder\" or a .zip of the folder), and it is read as that article's text"))


def uploaded_folder(files: Any) -> list[Upload]:
    """The directory uploader's files as one :class:`Upload` (none when empty), or as the
    separate inputs they are (:func:`separate_inputs`)."""
    if not files:
        return []
    folder, by_path = folder_upload.split_folder([(f.name, f.getvalue()) for f in files])
    ids = "|".join(sorted(str(f.file_id) for f in files))
    return list(separate_inputs(Upload(folder, b"", tuple(sorted(by_path.items())),
                                       filename=folder, file_id=f"folder:{ids}")))


TOOL_EXPORTS = ("brat", "webanno-tsv", "webanno-tsv2", "uima-xmi", "uima-json")
"""Formats whose folder is one input even when it cannot be read: a tool's export whose error
says more than its files read one by one would."""


def separate_inputs(upload: Upload) -> tuple[Upload, ...]:
    """A folder (or ``.zip``) upload as the inputs ``spanscope app --data FOLDER`` reads in it.

    A folder that reads as one input (an INCEpTION or WebAnno export, a brat collection, a
    doccano project's per-user files, a UIMA XMI folder with its ``TypeSystem.xml``) stays one
    upload, as does one detected as such a tool's export. Otherwise, when it holds two inputs
    or more (``gold.json`` and ``system_b.json``), each is an upload of its own, its role
    guessed from its name (:func:`core.model.roles.guess_role`), chosen as
    :mod:`ui.cli_data` chooses a folder's inputs: notes, type systems and companion files
    (a ``.ann``'s ``.txt``) are no inputs, a sub-folder is one. Cached per upload id."""
    return _separate(upload.file_id or upload.name, upload)


@st.cache_resource(max_entries=64, show_spinner=False)
def _separate(key: str, _upload: Upload) -> tuple[Upload, ...]:
    del key  # the cache key: the uploader's file id
    up = _upload
    try:
        files = unpack_zips(dict(up.members) if up.folder else {up.original: up.data},
                            up.original)
    except FormatError:
        return (up,)  # reading it says why
    while len({p.partition("/")[0] for p in files}) == 1 and all("/" in p for p in files):
        files = {p.partition("/")[2]: d for p, d in files.items()}  # a zip of one folder
    tops: dict[str, dict[str, bytes]] = {}
    for path, data in files.items():
        top, _, rest = path.partition("/")
        tops.setdefault(top, {})[rest] = data
    names = frozenset(t.lower() for t in tops)
    inputs = [t for t, inner in tops.items()
              if not (list(inner) == [""] and (
                  t.startswith(".") or cli_data._is_note(Path(t))
                  or cli_data._is_companion(t, names)
                  or is_type_system(Upload(t, inner[""], filename=t))))]
    if len(inputs) < 2:
        return (up,)
    fmt = _detected_name(files, up.original)
    if fmt in TOOL_EXPORTS:  # one input, read once by its row (an export may be large)
        return (up,)
    if fmt is not None and guarded_load(files, fmt=fmt, name=up.original)[0] is not None:
        return (up,)  # a format that reads the files together (a doccano project's users)
    out = []
    for t in sorted(inputs):
        inner = tops[t]
        part = (Upload(t, inner[""], filename=t) if list(inner) == [""] else
                Upload(t, b"", tuple(sorted(inner.items())), filename=t))
        out.append(dataclasses.replace(part, file_id=f"{up.file_id or up.name}/{t}"))
    return tuple(out)


def _detected_name(files: dict[str, bytes], source: str) -> str | None:
    try:
        return detect(files, source=source)
    except Exception:  # no format, or a reader's sniff failing: not a tool's export
        return None
