"""The word a page uses for the sets it compares with a reference: "annotators" when every one
of them was read as an annotator (brat annotator folders, ``agree``'s inputs), "systems" when
every one is a system, "sets" when they are mixed. The Errors and Overview pages called three
annotators "systems" (bugleft26)."""

from __future__ import annotations

from collections.abc import Iterable

from ui.state import Workspace


def set_noun(ws: Workspace, names: Iterable[str], *, plural: bool = False) -> str:
    """The role's word for the sets ``names`` of ``ws``: "annotator", "system" (also when no
    role is known), or "set" for a mix; ``plural`` adds the "s".

    >>> from core.model import AnnotationSet
    >>> from ui.state import FileReport, build_workspace
    >>> sets = (AnnotationSet("A", {}, "annotator"), AnnotationSet("B", {}, "annotator"))
    >>> ws = build_workspace([FileReport("f.json", "t", "annotator", "custom", {}, sets)],
    ...                      key="doc:role_words", title="t", shareable=False)
    >>> set_noun(ws, ["A", "B"], plural=True), set_noun(ws, [])
    ('annotators', 'system')
    """
    roles = {ws.sets[n].role for n in names if n in ws.sets}
    word = ("annotator" if roles == {"annotator"} else
            "system" if roles <= {"system"} else "set")
    return word + ("s" if plural else "")
