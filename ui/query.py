"""Query parameters of a link, checked before any page reads them.

A link carries the view (``?doc=``, ``?level=``, the sets compared...), never the data, so a
link can name a document or a set that the data loaded now does not hold, or carry a value no
widget accepts (``?level=99``, ``?boot_n=-5``, ``?doc=../../etc/passwd``). Each such parameter
is removed from the URL and named in a notice ("ignored ..."), so the address bar never shows a
setting that the page is not using. Parameters this module does not know (other pages bind
their own) are left to their widgets. Settings that are not bound to the URL but have a valid
value (``?boot_n=2000``) are applied to the session and then removed.

A page showing uploaded files marks its address with ``?data=upload-<digest>`` (the
workspace's digest of the files' bytes, :func:`ui.state.upload_workspace`): whoever opens that
link without those files (a colleague, or the same tab after a server restart, which lost the
session's uploads) is told so, and the parameters that name the uploads' documents and sets
are dropped rather than applied to the sample corpus shown instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import streamlit as st

from core.analysis.slices import METRICS as SLICE_METRICS
from core.metrics import registry
from ui import annotators, curation, current, state
from ui import errors as err_ui
from ui.escape import md


def _int_in(low: int, high: int) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        text = value.strip()
        return (text.isdigit() and len(text) <= 12 and low <= int(text) <= high)
    return check


def _one_of(values: Iterable[object]) -> Callable[[str], bool]:
    allowed = {str(v) for v in values}
    return lambda value: value in allowed


SESSION_NUMBERS: dict[str, tuple[int, int]] = {
    state.K_BOOT_N: (100, 10000),
    state.K_SEED: (0, 2**31 - 1),
}
"""Session settings (not bound to the URL) that a link may still set once: key -> range."""


def _validators(ws: state.Workspace) -> dict[str, tuple[Callable[[str], bool], str]]:
    doc_ids = state.doc_id_set(ws.key, ws)
    sets = set(ws.sets)
    is_doc = (doc_ids.__contains__, "no such document in the data loaded now")
    is_set = (sets.__contains__, "no annotation set of that name is loaded")
    metrics = [m.name for m in registry.span_metrics()]
    return {
        state.K_DOC: is_doc,
        annotators.K_ANN_DOC: is_doc,
        state.K_SET_A: is_set,
        state.K_SET_B: is_set,
        state.K_SYS1: is_set,
        state.K_SYS2: is_set,
        annotators.K_ANN_SETS: is_set,
        curation.K_CUR_SETS: is_set,
        annotators.K_ANN_GOLD: (_one_of([*sets, annotators.ANN_NO_GOLD]),
                                "no annotation set of that name is loaded"),
        state.K_LEVEL: (_one_of(state.LEVELS), "the level is 0, 1 or 2"),
        **{state.variant_key(m.name): (_one_of(m.variants), "one of " + ", ".join(m.variants))
           for m in registry.span_metrics() if m.variants},
        state.K_METRIC: (_one_of(metrics), "one of " + ", ".join(metrics)),
        err_ui.K_ERR_METRIC: (_one_of(SLICE_METRICS), "one of " + ", ".join(SLICE_METRICS)),
        err_ui.K_ERR_MEASURE: (_one_of(err_ui.MEASURES), "one of "
                               + ", ".join(err_ui.MEASURES)),
        annotators.K_ANN_SEED: (_int_in(0, 2**31 - 1), "a seed is a whole number from 0"),
        annotators.K_ANN_SAMPLES: (_int_in(1, 1000), "a whole number from 1 to 1000"),
        **{key: (_int_in(lo, hi), f"a whole number from {lo} to {hi}")
           for key, (lo, hi) in SESSION_NUMBERS.items()},
    }


def check_query_params() -> list[str]:
    """Remove the invalid or unknown parameters of the current URL; the notices to show.

    Called by ``app.py`` on every run before the page, so no bound widget ever reads an invalid
    value. The sample corpus is checked first: the other checks need the data it selects.
    """
    params = st.query_params
    notices: list[str] = []

    def drop(key: str, value: str, why: str) -> None:
        del params[key]
        notices.append(f"Ignored ?{md(key)}={md(value[:80])} from the link: {why}.")

    samples = state.sample_names()
    if state.K_SAMPLE in params and params[state.K_SAMPLE] not in samples:
        drop(state.K_SAMPLE, params[state.K_SAMPLE], "no bundled corpus of that name")
    ws = current.workspace()
    notices += _check_data_mark(current.loaded_workspace())
    checks = _validators(ws)
    for key in list(params.keys()):
        values = params.get_all(key)
        if key not in checks:
            continue
        ok, why = checks[key]
        good = [v for v in values if ok(v)]
        if len(good) == len(values):
            continue
        bad = next(v for v in values if not ok(v))
        if good and key in (annotators.K_ANN_SETS, curation.K_CUR_SETS):
            params[key] = good  # keep the sets that exist
            notices.append(f"Ignored ?{md(key)}={md(bad[:80])} from the link: {why}.")
        else:
            drop(key, bad, why)
        if st.session_state.get(key) is not None and str(st.session_state.get(key)) == bad:
            del st.session_state[key]
    for key in SESSION_NUMBERS:
        if key in params:  # valid (checked above): apply once, then keep the URL clean
            st.session_state[key] = int(params[key])
            del params[key]
    return notices


UPLOAD_PREFIX = "upload:"
"""How :func:`ui.state.upload_workspace` begins the key of uploaded data."""
K_OWN_MARKS = "_own_data_marks"  # the ?data= marks of this session's own uploads, so far

NAMES_DATA = (state.K_DOC, annotators.K_ANN_DOC, state.K_SET_A, state.K_SET_B, state.K_SYS1,
              state.K_SYS2, annotators.K_ANN_SETS, annotators.K_ANN_GOLD, curation.K_CUR_SETS)
"""Parameters that name a document or a set of the data: meaningless on other data."""


def data_mark(ws: state.Workspace) -> str | None:
    """The ``?data=`` value of uploaded data (``upload-`` and the digest of its files), None for
    data every visitor of the server has (a sample corpus, the command line's files)."""
    if ws.shareable or not ws.key.startswith(UPLOAD_PREFIX):
        return None
    return "upload-" + ws.key.removeprefix(UPLOAD_PREFIX)


def page_link_params() -> dict[str, str]:
    """The parameters of the sidebar's page links: those that name the data on view, so that
    a page link copied or opened in a new tab shows the same data (``?sample=`` of a bundled
    corpus other than the first, which a bare address opens; ``?data=upload-...`` of uploads,
    whose page then says when the files are not in that session); none for the first corpus
    or the command line's files, which every visitor gets without them."""
    ws = current.loaded_workspace()
    mark = data_mark(ws)
    if mark is not None:
        return {state.K_DATA_MARK: mark}
    names = state.sample_names()
    name = ws.key.removeprefix("sample:")
    if ws.key.startswith("sample:") and names and name != names[0]:
        return {state.K_SAMPLE: name}
    return {}


def _check_data_mark(ws: state.Workspace) -> list[str]:
    """The notice for a link made on uploaded files this session does not hold (its document
    and set parameters are dropped); then the mark of this session's own data is put in the
    address, or removed. A mark of this session's earlier uploads (the address before a file
    was added or removed) is no news: the uploader is not told the files are missing."""
    mine = data_mark(ws)
    own: set[str] = st.session_state.setdefault(K_OWN_MARKS, set())
    if mine is not None:
        own.add(mine)
    given = st.query_params.get(state.K_DATA_MARK)
    notices: list[str] = []
    if given is not None and given not in own:
        dropped = [f"?{k}={st.query_params[k][:40]}" for k in NAMES_DATA if k in st.query_params]
        for key in NAMES_DATA:
            if key in st.query_params:
                del st.query_params[key]
                st.session_state.pop(key, None)
        showing = ("other uploaded files" if mine is not None
                   else f"the bundled sample corpus “{ws.title}”" if ws.key.startswith("sample:")
                   else f"“{ws.title}”")
        notices.append(
            f"This address was made on **uploaded files** that this browser session does not "
            f"have (?{state.K_DATA_MARK}={md(given[:40])}): uploads stay with the session that "
            "uploaded them, so a link does not pass them on, and a restarted server has lost "
            f"them. The pages show {md(showing)} instead"
            + (f"; ignored {md(', '.join(dropped))}, which named their documents or sets"
               if dropped else "")
            + ". Upload the files again on 📂 Data to see them.")
    if mine is not None:
        st.query_params[state.K_DATA_MARK] = mine
    elif state.K_DATA_MARK in st.query_params:
        del st.query_params[state.K_DATA_MARK]
    return notices
