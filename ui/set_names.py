"""Set names on the Data page: the rename control (issue 26, §5).

Sets are named after their files (``test_sets_conll_sharp_conll_sharp_gold``) or by what the
file says (a doccano user, an INCEpTION annotator). The control renames any set of the data the
pages show, for this session: the names go to :data:`ui.state.K_SET_NAMES`, keyed by the
workspace as loaded, and :func:`ui.current.workspace` gives every page the renamed sets
(:func:`ui.state.renamed`). On the command line the same is ``spanscope app --data
NAME:ROLE=PATH``.
"""

from __future__ import annotations

import streamlit as st

from ui import state
from ui.escape import md
from ui.lazy import lazy_expander

K_RENAME_SET = "rename_set"  # Data page: the set to rename
K_RENAME_TO = "rename_to"  # Data page: its new name
K_RENAME_ERROR = "rename_error"  # session: why the last rename was refused
K_RENAME_OPEN = "rename_open"  # Data page: the control's expander (lazy)


def _apply(loaded_key: str, ws: state.Workspace) -> None:
    old = st.session_state.get(K_RENAME_SET)
    new = str(st.session_state.get(K_RENAME_TO) or "").strip()
    if old is None:
        return
    problem = (f"No set is named {old!r} now; choose the set again." if old not in ws.sets
               else state.rename_problem(ws, old, new))
    st.session_state[K_RENAME_ERROR] = problem
    if problem is not None:
        return
    names = dict(st.session_state.get(state.K_SET_NAMES) or {})
    given = dict(names.get(loaded_key) or {})
    box = _display_name_box(ws, given, old)
    if box is not None:  # the set is an uploaded file's only set: its display name is renamed
        st.session_state[box] = new
        names[loaded_key] = {a: b for a, b in given.items() if b != old}
        st.session_state[state.K_SET_NAMES] = names
    else:
        names[loaded_key] = state.add_rename(names.get(loaded_key) or {}, old, new)
        st.session_state[state.K_SET_NAMES] = names
    st.session_state[K_RENAME_TO] = ""
    st.session_state[K_RENAME_SET] = new  # the picker shows the set under its new name


def _display_name_box(ws: state.Workspace, given: dict[str, str], name: str) -> str | None:
    """The session key of the Data page's "Display name" box that names the set ``name`` (as
    the pages show it; ``given``: the renames so far) when that set is an uploaded file's only
    set named by that box, else None. Renaming goes through the box, so that the file's row,
    the Files table and every page say one name (the box's name is the set's)."""
    loaded = next((a for a, b in given.items() if b == name), name)
    for rep in ws.reports:
        if len(rep.sets) == 1 and rep.sets[0].name == loaded and not rep.own_names:
            key = state.upload_key("name", rep.file)
            return key if key in st.session_state else None
    return None


def rename_control(loaded: state.Workspace, ws: state.Workspace) -> None:
    """A set picker, a name box and a button that renames the set on every page (``loaded``:
    the workspace as loaded, whose key keeps the names; ``ws``: as the pages show it)."""
    names = list(ws.sets)
    if not names:
        return
    if st.session_state.get(K_RENAME_SET) not in (None, *names):
        del st.session_state[K_RENAME_SET]

    # Lazy: closed, its picker, box, buttons and captions are not drawn (five elements the
    # browser mounted on every visit of the Data page, hidden; docs/performance.md, issue 29)
    box = lazy_expander("✏️ Rename a set", key=K_RENAME_OPEN,
                        opened=bool(st.session_state.get(K_RENAME_ERROR)))
    if box.open is False:
        return
    with box:
        st.caption("The new name shows on every page (and in downloads) for this session. "
                   "From the command line: `spanscope app --data NAME:ROLE=PATH`.")
        c1, c2, c3 = st.columns([3, 3, 1], vertical_alignment="bottom")
        c1.selectbox("Set", names, key=K_RENAME_SET,
                     help=full_name_help(K_RENAME_SET, names[0], "The set to rename, as named "
                                         "now."))
        c2.text_input("New name", key=K_RENAME_TO, max_chars=200)
        c3.button("Rename", key="rename_set_button", on_click=_apply, args=(loaded.key, ws))
        problem = st.session_state.get(K_RENAME_ERROR)
        if problem:
            st.error(md(problem), icon="❌")
        given = (st.session_state.get(state.K_SET_NAMES) or {}).get(loaded.key) or {}
        boxes = _renamed_boxes(loaded)
        if given or boxes:
            st.caption("Renamed: " + "; ".join(
                [f"{md(a)} → **{md(b)}**" for a, b in given.items()]
                + [f"{md(was)} → **{md(now)}** (its file's Display name)"
                   for _, was, now in boxes.values()]))
            st.button("Restore the loaded names", key="rename_reset", on_click=_restore,
                      args=(loaded,))


def _renamed_boxes(loaded: state.Workspace) -> dict[str, tuple[str, str, str]]:
    """The uploads' "Display name" boxes that rename sets of ``loaded``, when it is the
    uploaded files' workspace (:func:`ui.uploads.renamed_boxes`), else none."""
    if not loaded.key.startswith("upload:"):
        return {}
    from ui import uploads  # the Data page's rows; not needed to rename other data

    return uploads.renamed_boxes()


def _restore(loaded: state.Workspace) -> None:
    """Every set under the name it was loaded with: the renames of "Rename a set" dropped, and
    each upload's "Display name" box back to its start (a rename made in the box, or by "Rename
    a set" through it). A callback, so that the boxes are set before they are drawn."""
    boxes = _renamed_boxes(loaded)
    # the uploads' workspace as loaded changes with its boxes: the renames kept under its
    # earlier keys would come back with them
    uploaded = loaded.key.startswith("upload:")
    st.session_state[state.K_SET_NAMES] = {
        k: v for k, v in (st.session_state.get(state.K_SET_NAMES) or {}).items()
        if k != loaded.key and not (uploaded and k.startswith("upload:"))}
    for key, (start, _, _) in boxes.items():
        st.session_state[key] = start


LONG_NAME = 20
"""Set names longer than this can be cut by a narrow selectbox (with an ellipsis and no way to
read the rest): their pickers carry the full name in their tooltip (:func:`full_name_help`)."""


def full_name_help(key: str, default: str | list[str] | None = None,
                   help: str | None = None) -> str | None:
    """The ``help=`` of a set picker bound to ``key``: ``help`` and, when the chosen set's name
    (or one of the chosen sets' names, for a multiselect) is longer than :data:`LONG_NAME`,
    the full name, so that a name the box cuts can always be read in full. The choice is read
    from the session (the widget's last value), else the URL, else ``default``.

    >>> full_name_help("no_such_key", "test_sets_conll_sharp_conll_sharp_gold")
    'Full name: **test\\\\_sets\\\\_conll\\\\_sharp\\\\_conll\\\\_sharp\\\\_gold**'
    >>> full_name_help("no_such_key", "gold", help="The reference.")
    'The reference.'
    """
    chosen: object = st.session_state.get(key)
    if chosen is None:
        chosen = st.query_params.get_all(key) if isinstance(default, list) \
            else st.query_params.get(key)
        chosen = chosen or default
    names = [str(n) for n in (chosen if isinstance(chosen, list | tuple) else [chosen])
             if n is not None]
    long = [n for n in names if len(n) > LONG_NAME]
    if not long:
        return help
    full = ("Full name: " if len(long) == 1 else "Full names: ") + "; ".join(
        f"**{md(n)}**" for n in long)
    return f"{help}\n\n{full}" if help else full
