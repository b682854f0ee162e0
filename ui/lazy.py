"""An expander whose content is drawn only when it is open: used by the pages and by
:mod:`ui.set_names`, which :mod:`ui.widgets` imports (so it lives below both)."""

from __future__ import annotations

from typing import Any

import streamlit as st


def lazy_expander(label: str, *, key: str, opened: bool = False) -> Any:
    """An expander whose content the caller draws only when it is open (``.open`` is not
    False): closed, it costs the browser next to nothing on a visit, where a data grid costs
    about 45 ms of its main thread each time (docs/performance.md, issue 29, seventh pass).
    It opens expanded when ``opened`` or when the reader left it open before (kept in the
    session under ``<key>_kept``: a widget's own state is dropped when its page is left)."""
    kept = f"{key}_kept"

    def keep() -> None:
        st.session_state[kept] = bool(st.session_state.get(key))

    return st.expander(label, expanded=opened or bool(st.session_state.get(kept)), key=key,
                       on_change=keep)
