"""The Data page's side of :mod:`core.model.texts` and :mod:`core.model.bounds`: one text per
document id across the batch, and one policy for spans past their text.

First the texts (:func:`same_texts`): the files are taken gold first, then in upload order, and a
file that gives a document a different text than an earlier file is marked failed, with a
message that names both files, the first such document and where the texts differ (under every
policy: clipping cannot fix spans drawn on another text); a file whose texts differ in whitespace
only (CoNLL, WebAnno TSV: tokens joined by spaces) loads with its spans carried onto the earlier
text and a warning. Then each uploaded file, read under the chosen policy (its own texts), has
every set checked against the texts of the whole batch (a prediction file without texts against
the gold's). Under ``refuse`` every offending file is marked failed with the one message that
names every offending set at once, and the other files load; under ``clip`` and ``official`` the
warnings go to the file's diagnostics, where the Data page lists them. Spans that begin or end
inside a character as it is drawn get the command line's warning (one per set, naming the file,
the set, the first such document and span: :func:`core.model.graphemes.split_warnings`), checked
against the same texts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import streamlit as st

from core.model import AnnotationSet, Corpus, bounds, graphemes
from core.model.alignment import Alignment, align, onto
from core.model.errors import Diagnostic, InputError
from core.model.texts import reconcile
from ui.state import FileReport, Workspace

K_BEYOND_TEXT = "beyond_text"  # Data page (session): spans past the text: refuse | clip | official

CHOICES: dict[bounds.Policy, str] = {
    "refuse": "refuse the file (default)",
    "clip": "clip spans to the text",
    "official": "keep them, as the official scorers do",
}

PAGE_CHOICE = (f"choose '{CHOICES['clip']}' (or '{CHOICES['official']}') under \"Spans that end "
               "past their document's text\" above")
"""The Data page's way to pick another policy, said where the command line names its flags
(:data:`core.model.bounds.CLI_CHOICE`)."""


AGREEMENT_PAGE_CHOICE = (f"choose '{CHOICES['clip']}' under \"Spans that end past their "
                         "document's text\" on the Data page")
"""The Data page's way to clip spans past the text, said on the pages whose measures need every
span inside its text (Annotators, Curation) where the command line names ``--clip-spans``
(:data:`core.model.bounds.AGREEMENT_CHOICE`)."""


def for_agreement_pages(message: str) -> str:
    """An agreement refusal as the Annotators and Curation pages say it: the Data page's choice,
    not the command line's ``--clip-spans``."""
    return message.replace(bounds.AGREEMENT_CHOICE, AGREEMENT_PAGE_CHOICE)


def for_agreement(ws: Workspace) -> tuple[Workspace, list[str]]:
    """``ws`` as the agreement measures and the consensus need it (Annotators, Curation), with
    the warnings to show: the spans that a reader placed past their text (MAFALDA model outputs,
    which Scores keeps as the official evaluator does) clipped to it, one warning per set
    (:func:`core.model.bounds.clip_placed`). ``ws`` itself when nothing is clipped; otherwise a
    workspace of its own key (``<key>|inside``), so that no cache mixes the two."""
    if not ws.placed:
        return ws, []
    return _for_agreement(ws.key, ws)


@st.cache_resource(max_entries=8, show_spinner=False)
def _for_agreement(key: str, _ws: Workspace) -> tuple[Workspace, list[str]]:
    pairs = [(file, _ws.sets[name]) for name, file in _ws.placed.items() if name in _ws.sets]
    kept, warnings = bounds.clip_placed(pairs, _ws.corpus.texts)
    if not warnings:
        return _ws, []
    sets = {**_ws.sets, **{s.name: s for s in kept}}
    corpus = Corpus(dict(_ws.corpus.texts), sets)
    return dataclasses.replace(_ws, key=f"{key}|inside", corpus=corpus), warnings


ANNOTATOR_HINT = (". If the files are annotators' exports of one project (doccano numbers each "
                  "annotator's documents its own way), give them the role annotator: their "
                  "documents are then matched by their text")
"""Said after a refusal of a file that is not an annotator's (core.model.alignment)."""

ALIGNMENT = "alignment"
"""The ``kind`` of the notes :func:`align_annotators` adds (the Data page shows them above the
other warnings)."""


def _annotators(rep: FileReport) -> bool:
    return rep.ok and (rep.role == "annotator" or any(s.role == "annotator" for s in rep.sets))


def _reference(reports: list[FileReport], order: list[int]) -> int | None:
    """The first gold file with texts (not an annotator's): the documents the others are
    matched to by their text."""
    return next((i for i in order if reports[i].ok and reports[i].role == "gold"
                 and not _annotators(reports[i])
                 and any(t is not None for t in reports[i].texts.values())), None)


def _renamed(rep: FileReport, one: Alignment) -> FileReport:
    """``rep`` under the ids of ``one`` (its only input), with its notes."""
    notes = tuple(Diagnostic(rep.file, n.removeprefix(f"{rep.file}: "), kind=ALIGNMENT)
                  for n in one.notes())
    if not notes:
        return rep
    extents = rep.assumed_extents
    return dataclasses.replace(
        rep, texts=one.texts(0, rep.texts), sets=tuple(one.sets(0, rep.sets)),
        assumed_extents=None if extents is None
        else {one.rename(0, d): n for d, n in extents.items()},
        diagnostics=rep.diagnostics + notes)


def align_annotators(reports: list[FileReport], order: list[int] | None = None
                     ) -> list[FileReport]:
    """``reports`` with the documents of the annotator files matched by their text
    (:func:`core.model.alignment.align`, in ``order``, the first gold file with texts first):
    every annotator's export of one project can name a document differently (doccano ids, file
    names), and a MAFALDA gold without ids numbers its documents by line. A file whose
    documents were renamed gets notes saying which, and which of its documents match no other
    file's. The gold keeps its ids; a system file keeps its own unless none of them meets the
    gold's and every one of its texts is a gold document's
    (:func:`core.model.alignment.onto`): a prediction of other texts is refused as before."""
    order = list(range(len(reports))) if order is None else order
    ref = _reference(reports, order)
    chosen = [i for i in order if _annotators(reports[i])]
    out = list(reports)
    if ref is not None and chosen:
        chosen = [ref, *chosen]
    if len(chosen) >= 2:
        result = align([reports[i].texts for i in chosen], [reports[i].file for i in chosen])
        for k, i in enumerate(chosen):
            if i != ref and result.changed:
                one = Alignment((reports[i].file,), (result.renamed[k],),
                                (result.unmatched[k],))
                out[i] = _renamed(reports[i], one)
    if ref is None:
        return out
    for i in order:
        rep = out[i]
        if i == ref or not rep.ok or _annotators(rep) or rep.records is not None:
            continue
        moves = onto(reports[ref].texts, rep.texts)
        if moves is not None:
            out[i] = _renamed(rep, Alignment((rep.file,), (moves,), ((),)))
    return out


def same_texts(reports: list[FileReport]) -> list[FileReport]:
    """``reports`` with one text per document id (:func:`core.model.texts.reconcile`): gold files
    first, then the others in upload order, each checked against the texts of the files before
    it, once the annotator files' documents are matched by their text
    (:func:`align_annotators`). A file that gives a document another text is marked failed
    (its sets and texts left out), naming the earlier file; one whose texts differ in
    whitespace only keeps its sets, carried onto the earlier texts (which replace its own),
    with a warning."""
    order = sorted(range(len(reports)), key=lambda i: reports[i].role != "gold")
    reports = align_annotators(reports, order)
    seen: dict[str, str] = {}
    owner: dict[str, str] = {}
    out = list(reports)
    for i in order:
        rep = reports[i]
        if not rep.ok:
            continue
        sets: list[AnnotationSet] = list(rep.sets)
        carried: list[str] = []
        if seen:  # the first file's texts have nothing to differ from: reconcile finds nothing
            try:
                sets, carried = reconcile(seen, rep.texts, rep.sets, here=rep.file, there=owner)
            except InputError as exc:
                hint = "" if _annotators(rep) else ANNOTATOR_HINT
                error = Diagnostic(rep.file, str(exc).removeprefix(f"{rep.file}: ") + hint,
                                   severity="error")
                out[i] = dataclasses.replace(rep, sets=(), texts={}, error=error)
                continue
        if carried:
            own = {d: t if t is None or seen.get(d) is None else seen[d]
                   for d, t in rep.texts.items()}
            notes = tuple(Diagnostic(rep.file, w.removeprefix(f"{rep.file}: ")) for w in carried)
            out[i] = rep = dataclasses.replace(rep, sets=tuple(sets), texts=own,
                                               diagnostics=rep.diagnostics + notes)
        _adopt(seen, owner, rep.texts, rep.file)
    return out


def _adopt(seen: dict[str, str], owner: dict[str, str], texts: Mapping[str, str | None],
           file: str) -> None:
    """Add to ``seen`` (every text known, never None) the documents of ``texts`` that it does
    not know and ``texts`` gives a text, with ``file`` as their ``owner``, in the order of
    ``texts``. A file of the documents known already (a prediction after its gold) adds
    nothing, said by comparing the key views in C; the others' texts are gathered by a
    comprehension (at 100,000 documents 0.02 s against the loop's 0.05 s, on the first
    load's path; docs/performance.md, issue 29, seventeenth pass).

    >>> seen, owner = {"a": "Hi."}, {"a": "g.json"}
    >>> _adopt(seen, owner, {"b": "Yo.", "a": "Ho.", "c": None}, "p.json")
    >>> seen, owner
    ({'a': 'Hi.', 'b': 'Yo.'}, {'a': 'g.json', 'b': 'p.json'})
    """
    if texts.keys() <= seen.keys():
        return
    new = {doc: text for doc, text in texts.items() if text is not None and doc not in seen}
    seen.update(new)
    owner.update(dict.fromkeys(new, file))


def for_the_page(diag: Diagnostic | None) -> Diagnostic | None:
    """A message about spans past the text as the Data page says it: its choice above, not the
    command line's ``--clip-spans`` / ``--beyond-text``."""
    if diag is None or bounds.CLI_CHOICE not in diag.message:
        return diag
    return dataclasses.replace(diag, message=diag.message.replace(bounds.CLI_CHOICE,
                                                                  PAGE_CHOICE))


def apply(reports: list[FileReport], policy: bounds.Policy) -> list[FileReport]:
    """``reports`` with the policy applied across the batch (texts: first non-empty wins).

    A file that gives a document another text than an earlier file is refused first
    (:func:`same_texts`). A file whose reader placed its spans (MAFALDA model outputs) is never
    refused for them: one warning says that they are scored as the official evaluator scores
    them."""
    own_texts = [dict(rep.texts) for rep in reports]  # before same_texts carries any
    reports = same_texts(reports)
    texts: dict[str, str | None] = {}
    for rep in reports:
        for doc, text in rep.texts.items():
            if texts.get(doc) is None:
                texts[doc] = text
    owners: dict[str, str] = {}  # the file each text was first given by, gold first (same_texts)
    for rep in sorted(reports, key=lambda r: r.role != "gold"):
        for doc, text in rep.texts.items():
            if text is not None:
                owners.setdefault(doc, rep.file)
    pairs = [(rep.file, s) for rep in reports if rep.ok for s in rep.sets]
    # A warning names another file only for a document whose text this file did not give
    # (none, or one carried onto the earlier file's text); the same text is the file's own.
    reports = [_split_characters(rep, texts, {
        doc: file for doc, file in owners.items()
        if file != rep.file and own.get(doc) != texts.get(doc)})
        for rep, own in zip(reports, own_texts, strict=True)]
    offenders = bounds.find(pairs, texts)
    if not offenders:
        return reports
    assumed = {rep.file: rep.assumed_extents for rep in reports
               if rep.ok and rep.assumed_extents is not None}
    outcome = bounds.decide(offenders, policy, texts, assumed)
    refused = {o.source for o in outcome.refused}
    message = bounds.refusal(outcome.refused).replace(bounds.CLI_CHOICE, PAGE_CHOICE) \
        if refused else ""
    out = []
    for rep in reports:
        if rep.file in refused:
            error = Diagnostic(rep.file, message, severity="error")
            rep = dataclasses.replace(rep, sets=(), error=error)
        elif rep.ok:
            mine = [w for src, w in outcome.warnings if src == rep.file]
            before = rep.diagnostics
            if mine and rep.file in assumed:
                # The batch's texts supersede the file's own: its reader's warning (under its
                # set's first name) says the same, once.
                before = tuple(d for d in before if d.kind != "beyond-text")
            warnings = tuple(Diagnostic(rep.file, w.removeprefix(f"{rep.file}: "))
                             for w in bounds.unseen(mine, before))
            sets = tuple(bounds.clipped(s, texts) if (rep.file, s.name) in outcome.clip else s
                         for s in rep.sets)
            rep = dataclasses.replace(rep, sets=sets, diagnostics=before + warnings)
        out.append(rep)
    return out


def _split_characters(rep: FileReport, texts: dict[str, str | None], owners: dict[str, str]
                      ) -> FileReport:
    """``rep`` with a warning for each of its sets whose spans begin or end inside a character
    as drawn (the command line's words, :func:`core.model.graphemes.split_warnings`) added to
    its diagnostics, once: a warning the file has already is not repeated. Each report is
    checked with its own sets, so a warning belongs to the report it was made for: not to
    another of the same name (two uploads of ``pred.csv``) nor to one whose name starts like
    it, as when warnings were matched to a file by the prefix ``"<file>: "``. A warning read on
    another file's text names that file (``owners``: the gold's text, onto which a file's spans
    were carried when its own differs in whitespace only, :func:`same_texts`)."""
    if not rep.ok or not rep.sets:
        return rep
    prefix = f"{rep.file}: "
    have = {d.message for d in rep.diagnostics}
    mine = tuple(Diagnostic(rep.file, message) for w in graphemes.split_warnings(
                     [(rep.file, s) for s in rep.sets], texts, owners)
                 if (message := w.removeprefix(prefix)) not in have)
    return dataclasses.replace(rep, diagnostics=rep.diagnostics + mine) if mine else rep
