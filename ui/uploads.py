"""The Data page's uploaded files, kept across pages with their format, role and name editable.

Streamlit's file uploader forgets its files when the user opens another page. The bytes of every
uploaded file (or folder) are therefore kept in the session (:data:`K_FILES`), and the Data page
draws one row per kept file from there: format, role, display name and, for MAFALDA model
outputs, the parsing of their answers. Changing any of them reparses that file from the kept
bytes, with no new upload. A file leaves the list when the user removes it from the uploader,
presses its 🗑️ button, or forgets them all.

Each run of the Data page rebuilds the uploaded workspace from the rows (parsing is cached), and
the workspace's key digests every choice, so that a new format choice always gives a new
workspace with the new result or error, never the previous one (issue 16 item 4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import streamlit as st

from core.bounds import Policy
from core.errors import Diagnostic
from core.formats import LlmParsing, detect
from core.formats.mafalda_llm import PARSINGS
from core.model import ROLES, Role
from core.roles import guess_role
from ui import cli_data, folder_upload, state, text_policy
from ui.escape import md

K_FILES = "upload_files"  # session: {name: Upload} of the kept uploads, in upload order
K_SEEN = "upload_seen"  # session: {uploader key: names it held on the Data page's last run}

LLM_FORMAT = "mafalda-llm"
LLM_HELP = (
    "How the model's answers become spans (docs/mafalda.md). paper-2023: the evaluator behind "
    "the paper's tables; it assumes the sentences follow each other with no separator, so spans "
    "drift a little further from the words at each sentence. repo-head: today's evaluator, one "
    "character between sentences.")
DETECT_HINT = "pass it explicitly"
FORMAT_BOX_HINT = "choose it in the Format box"


@dataclass(frozen=True)
class Upload:
    """One kept upload: a file's bytes, or a folder's files (``members``) read as one input."""

    name: str
    data: bytes
    members: tuple[tuple[str, bytes], ...] = ()

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
    """Keep what the uploader ``uploader_key`` holds now (a new file, or new bytes under a
    known name, replaces the kept one).

    ``alive`` says whether the uploader existed on the previous run: only then did a name that
    left it leave because the user removed it; otherwise the user is back from another page and
    the uploader merely forgot its files, which stay kept.
    """
    files = kept()
    seen: dict[str, list[str]] = st.session_state.setdefault(K_SEEN, {})
    names = [u.name for u in current]
    gone = set(seen.get(uploader_key, ())) - set(names) if alive else set()
    seen[uploader_key] = names
    for upload in current:
        files[upload.name] = upload
    if gone and files:
        for name in gone:
            files.pop(name, None)
        if not files:
            forget()  # the last file was removed: back to the sample


def forget(name: str | None = None) -> None:
    """Drop one kept upload, or all of them (``None``), and the batch built from them."""
    files = kept()
    if name is None:
        files.clear()
    else:
        files.pop(name, None)
    if not files:
        st.session_state[state.K_UPLOAD_WS] = None
        st.session_state[state.K_SOURCE] = fallback_source()


def fallback_source() -> str:
    """What the pages show without uploads: the ``--data`` files when the app was started with
    them, else the sample."""
    return cli_data.SOURCE if cli_data.cli_workspace() is not None else "sample"


def detected(upload: Upload) -> str | None:
    """The format detection gives ``upload`` (None when it cannot tell)."""
    try:
        return detect(dict(upload.members) if upload.folder else {upload.name: upload.data},
                      source=upload.name)
    except Exception:  # detection failing is reported by the parse itself
        return None


def for_the_page(diag: Diagnostic | None) -> Diagnostic | None:
    """A reader's error as the Data page says it: the way to name a format here is the Format
    box, not a command-line flag."""
    if diag is None or DETECT_HINT not in diag.message:
        return diag
    return dataclasses.replace(diag, message=diag.message.replace(DETECT_HINT, FORMAT_BOX_HINT))


def is_type_system(upload: Upload) -> bool:
    """Whether ``upload`` is a UIMA type system (``TypeSystem.xml``): not annotations itself,
    but what a ``.xmi`` upload needs to be read."""
    return (not upload.folder and upload.name.lower().endswith(".xml")
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


def _row(upload: Upload, beyond: Policy, companion: Upload | None = None
         ) -> tuple[state.FileReport, str]:
    """Draw one kept upload's row and parse it; ``(report, its choices as text)``.

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
    fmt = c2.selectbox("Format", state.FORMAT_CHOICES, key=state.upload_key("fmt", n),
                       persist_state="session",
                       help="auto: detected from the name and first bytes. Choosing a format "
                       "reads the file again with it.")
    guessed = guess_role(n, folder=upload.folder)
    role: Role = c3.selectbox("Role", ROLES, index=ROLES.index(guessed),
                              key=state.upload_key("role", n), persist_state="session")
    default_name = n if upload.folder else state._display_name(n)
    name = c4.text_input("Display name", value=default_name, key=state.upload_key("name", n),
                         persist_state="session").strip() or default_name
    chosen = None if fmt == "auto" else fmt
    llm: LlmParsing = "paper-2023"
    if (chosen or detected(upload)) == LLM_FORMAT:
        llm = cast(LlmParsing, c2.selectbox("LLM answer parsing", PARSINGS,
                                            key=state.upload_key("llm", n),
                                            persist_state="session", help=LLM_HELP))
    if upload.folder:
        rep = folder_upload.parse_folder(n, tuple(sorted(upload.members)), chosen, role, name,
                                         beyond)
    elif companion is not None:
        rep = folder_upload.parse_folder(n, ((n, upload.data), (companion.name, companion.data)),
                                         chosen, role, name, beyond)
    else:
        rep = state.parse_file(n, upload.data, chosen, role, name, beyond, llm)
    rep = dataclasses.replace(rep, error=text_policy.for_the_page(for_the_page(rep.error)))
    return rep, f"{n}|{fmt}|{llm}"


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
    readers = [u.name for u in everything
               if type_system is not None and not u.folder and u.name.lower().endswith(".xmi")]
    for upload in everything:
        if is_type_system(upload):
            _type_system_row(upload, readers if upload is type_system else [])
            continue
        companion = type_system if upload.name in readers else None
        rep, choice = _row(upload, beyond, companion)
        reports.append(rep)
        if upload.folder:
            contents.append(b"".join(p.encode() + b"\0" + d for p, d in sorted(upload.members)))
        elif companion is not None:
            contents.append(upload.data + b"\0" + companion.name.encode() + b"\0"
                            + companion.data)
        else:
            contents.append(upload.data)
        choices.append(choice)
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
    """The uploader's files as :class:`Upload` values."""
    return [Upload(f.name, f.getvalue()) for f in files or ()]


def uploaded_folder(files: Any) -> list[Upload]:
    """The directory uploader's files as one :class:`Upload` (none when empty)."""
    if not files:
        return []
    folder, by_path = folder_upload.split_folder([(f.name, f.getvalue()) for f in files])
    return [Upload(folder, b"", tuple(sorted(by_path.items())))]
