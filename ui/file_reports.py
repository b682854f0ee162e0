"""What one input gave the dashboard: :class:`FileReport`, and how a read input's sets are named
and given roles (:func:`report`).

A set the file names itself (``core.formats.Loaded.named_sets``: an annotator, a doccano user, a
model, an INCEpTION curation) keeps the name and role it is read with, as ``python -m core
validate`` lists it; the user's role for the whole file overrides the roles
(:func:`override_role`). Kept apart from :mod:`ui.state`, which re-exports :class:`FileReport`,
so that module stays about the session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from core.formats import Loaded
from core.model import AnnotationSet, Role
from core.model.errors import Diagnostic, expand_diagnostics


@dataclass(frozen=True)
class FileReport:
    """What one input gave: its sets (possibly none), its diagnostics, and its error if it failed.

    ``error`` is the :class:`~core.model.errors.Diagnostic` of the ``FormatError`` that stopped the
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
    llm_parsing: str | None = None  # how a mafalda-llm file's answers became spans
    assumed_extents: Mapping[str, int] | None = None  # Loaded.assumed_extents (core.model.bounds)
    as_read: bool = True  # each set has the role its reader gave it (else ``role`` overrides)
    own_names: frozenset[str] = frozenset()  # sets named as the file names them (annotators...)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def order(self) -> object:
        """What the reader recorded of the file's order, for its one set: a MAFALDA file's
        :class:`~core.metrics.mafalda_order.GoldOrder` or a PTC file's
        :class:`~core.metrics.tc_order.RowOrder`, which the metrics' ``read_order`` hooks read
        as ``python -m core score`` does (:attr:`ui.state.Workspace.orders`,
        :func:`ui.results.read_order`); None otherwise. The official SemEval-2020 TC scorer
        pairs the two files' rows in file order; a page that scores one article alone reads
        that article's rows only (:func:`core.metrics.tc_order.on_documents`)."""
        from core.metrics.mafalda_order import GoldOrder
        from core.metrics.tc_order import RowOrder

        return self.records if isinstance(self.records, (GoldOrder, RowOrder)) \
            and len(self.sets) == 1 else None

    @cached_property  # the Files table asks on every rerun; a report never changes
    def documents(self) -> int:
        """Distinct documents of the file, over its sets and texts (what ``validate`` counts
        and the Summary adds up), not one count per set."""
        ids = set(self.texts)
        for aset in self.sets:
            ids.update(aset.spans)
        return len(ids)

    @property
    def spans(self) -> int:
        return sum(aset.span_count() for aset in self.sets)

    @property
    def roles(self) -> str:
        """The role column of the Files table: the chosen role, or the roles the sets were read
        with (``as read: annotator, gold``) when the file names its own sets."""
        if self.as_read and self.own_names:
            return "as read: " + ", ".join(dict.fromkeys(s.role for s in self.sets))
        return self.role


def report(
    filename: str, loaded: Loaded | None, role: Role, name: str, error: Diagnostic | None,
    llm_parsing: str = "paper-2023", *, as_read: bool = True, keep_names: bool = True,
) -> FileReport:
    """The report of one read input, its sets named and given roles for the pages.

    A set the file names itself (:attr:`core.formats.Loaded.named_sets`: an annotator, a
    doccano user, a model, an INCEpTION curation) keeps that name unless ``keep_names`` is
    False; any other set takes the display name ``name`` (``name:set`` when there are
    several). ``as_read``: every set keeps the role its reader gave it (the file read with
    ``role``, as ``python -m core validate --role`` reads it); otherwise every set takes
    ``role`` (:func:`override_role`).
    """
    if loaded is None:
        return FileReport(filename, None, role, name, error=error, as_read=as_read)
    sets = []
    own: set[str] = set()
    several = len(loaded.sets) > 1
    for i, aset in enumerate(loaded.sets):
        named = aset.name in loaded.named_sets
        if named and keep_names:
            set_name = aset.name
            own.add(set_name)
        else:
            set_name = f"{name}:{aset.name or i}" if several else name
        set_role = aset.role if as_read else override_role(aset, role, several=several,
                                                           named=named)
        sets.append(AnnotationSet(set_name, aset.spans, set_role, aset.alternatives))
    return FileReport(
        filename,
        loaded.format,
        role,
        name,
        dict(loaded.texts),
        tuple(sets),
        tuple(expand_diagnostics(loaded.diagnostics)),  # one per warning, grouped or not
        None,
        loaded.records,
        llm_parsing if loaded.format == "mafalda-llm" else None,
        loaded.assumed_extents,
        as_read,
        frozenset(own),
    )


def override_role(aset: AnnotationSet, role: Role, *, several: bool, named: bool) -> Role:
    """The role a set gets when the user chooses ``role`` for its whole file.

    A lone set takes it. Among several sets, the one the file itself reads as its gold (an
    INCEpTION curation, ``core.formats.webanno.export_set``) stays the gold, as
    ``python -m core validate`` reads it with any ``--role``; choosing ``gold`` makes the
    others annotators (a file of several annotators holds no single gold).
    """
    if not several:
        return role
    if named and aset.role == "gold":
        return "gold"
    return "annotator" if role == "gold" else role
