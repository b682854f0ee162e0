"""What a span metric's inputs go through once read: one path for the command line
(:mod:`core.cli.loading`) and for each shard of the Dask engine (:mod:`core.engines.sharded`).

Reading itself differs (command-line arguments against a shard job, one file against a set
column), so the callers read; from the read gold and predictions on, the steps are these, in
this order: refuse text-label files, refuse predictions whose texts are not the gold's (or carry
their spans onto the gold's text when the two differ in whitespace only, :mod:`core.model.texts`),
apply the one policy for spans past the text (:mod:`core.model.bounds`), the metric's prediction
warnings, its official file-order reading, and the one taxonomy rule
(:func:`core.model.taxonomy.resolve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from core.formats import LlmParsing, Loaded, ReadOptions
from core.metrics.registry import Metric
from core.model import AnnotationSet, bounds, texts
from core.model.alignment import Alignment, align, onto
from core.model.bounds import Policy
from core.model.errors import Diagnostic, InputError, KindedText, expand_diagnostics
from core.model.taxonomy import Taxonomy, outside
from core.model.taxonomy import resolve as resolve_taxonomy


def matched_to_gold(gold: Loaded, pred: Loaded, source: str) -> tuple[Loaded, list[str]]:
    """``pred`` with its documents renamed to the gold's that hold the same text
    (:func:`core.model.alignment.onto`), and the note that says so, when their ids
    do not meet but their texts do (a MAFALDA gold without ids, numbered by line, and an
    annotator's doccano export: ``4642`` is the gold's ``0``). Only when every document of
    ``pred`` has a text and lands on a gold document of that text, whitespace aside: otherwise
    ``pred`` as it is (and the metric refuses other documents as before). A file whose reader
    keeps records by document id (an official order) is left as it is too. The command line
    matches the whole files; the Dask engine each shard pair (``docs/scale.md``)."""
    moves = None if pred.records is not None else onto(gold.texts, pred.texts)
    if moves is None:
        return pred, []
    alignment = Alignment((source,), (moves,), ((),))
    extents = pred.assumed_extents
    pred = replace(pred, texts=alignment.texts(0, pred.texts), sets=alignment.sets(0, pred.sets),
                   assumed_extents=None if extents is None
                   else {alignment.rename(0, d): n for d, n in extents.items()})
    return pred, alignment.notes()


def pred_read_options(*, labels: Sequence[str] | None, gold: AnnotationSet,
                      policy: Policy, llm_parsing: LlmParsing | None, options: ReadOptions
                      ) -> ReadOptions:
    """How the predictions are read: ``options`` (the command line's reader options) with the
    gold's label list and document ids, the policy, and the LLM-answer parsing.

    The parsing is how the ``mafalda-llm`` reader turns model answers into spans, whatever metric
    then scores them: ``score --metric martino --llm-parsing repo-head`` reads the answers as
    ``slices`` and ``report`` do under any metric (it was ignored unless the metric was
    MAFALDA's)."""
    if llm_parsing is not None:
        return replace(options, labels=labels, role="system", gold_doc_ids=gold.doc_ids,
                       llm_parsing=llm_parsing, beyond_text=policy)
    return replace(options, labels=labels, role="system", gold_doc_ids=gold.doc_ids,
                   beyond_text=policy)


def assumed_of(source: str, loaded: Loaded) -> dict[str, dict[str, int]] | None:
    """``{source: extents}`` when ``loaded``'s reader placed its spans itself (the ``assumed``
    argument of :func:`core.model.bounds.check_sets`), else None."""
    return None if loaded.assumed_extents is None else {source: loaded.assumed_extents}


def not_spans(gold: Loaded, pred: Loaded, metric: str) -> None:
    """Refuse a HatEval file (text labels, no spans) given to a span metric."""
    for loaded in (gold, pred):
        if loaded.format == "hateval":
            raise InputError(f"{loaded.source}: a HatEval file holds text labels, not spans; the "
                             f"{metric} metric cannot apply: use --metric hateval-a or hateval-b")


def same_texts(gold: Loaded, pred: Loaded, pred_set: AnnotationSet, pred_source: str
               ) -> tuple[AnnotationSet, list[str]]:
    """``pred_set`` (read from ``pred_source``) checked against the gold's texts
    (:func:`core.model.texts.reconcile`): refused when a document's text differs from the gold's in
    more than whitespace, its spans carried onto the gold's text (one warning) when it differs
    in whitespace only."""
    (out,), warnings = texts.reconcile(gold.texts, pred.texts, [pred_set], here=pred_source,
                                       there=gold.source)
    return out, warnings


@dataclass
class Checked:
    """The predictions after the checks, what the metric's hooks added, and the warnings."""

    pred: AnnotationSet
    taxonomy: Taxonomy | None
    extra: dict[str, object] = field(default_factory=dict)
    warnings: list[Diagnostic | str] = field(default_factory=list)


def check_pair(metric: Metric, *, gold: AnnotationSet, pred: AnnotationSet, pred_source: str,
               gold_loaded: Loaded, pred_loaded: Loaded, policy: Policy, variant: str,
               labels: Sequence[str] | None, taxonomy_path: str | Path | None,
               say_outside: bool = True) -> Checked:
    """The steps of the module docstring for ``pred`` (read from ``pred_source``) against
    ``gold``; ``variant`` is the metric's resolved variant. ``say_outside``: add the warning
    of labels outside MAFALDA's taxonomy (:func:`outside_warning`); a shard leaves it to the
    client, which knows every shard's labels."""
    not_spans(gold_loaded, pred_loaded, metric.name)
    pred, carried = same_texts(gold_loaded, pred_loaded, pred, pred_source)
    (pred,), warnings = bounds.check_sets([(pred_source, pred)], gold_loaded.texts, policy,
                                          assumed=assumed_of(pred_source, pred_loaded),
                                          owners=gold_loaded.source)
    out = Checked(pred, None, warnings=[*carried,
                                        *bounds.unseen(warnings, pred_loaded.diagnostics)])
    if metric.pred_warnings is not None:
        out.warnings.extend(metric.pred_warnings(pred, gold_loaded.texts))
    if metric.read_order is not None:
        out.pred, why, out.extra = metric.read_order(
            variant=variant, gold_records=gold_loaded.records, pred_records=pred_loaded.records,
            gold=gold, pred=pred, texts=gold_loaded.texts, labels=labels)
        out.warnings.extend(why)
    if "taxonomy" in metric.options:
        # MAFALDA's taxonomy when it knows every label of both sets, else one class per label
        # (the dashboard's rule too); said in the result's "taxonomy" key.
        used = [*gold.labels(), *out.pred.labels()]
        out.taxonomy = resolve_taxonomy(used, taxonomy_path)
        if say_outside:
            out.warnings.extend(outside_warning(out.taxonomy, used))
    return out


def outside_warning(taxonomy: Taxonomy, used: Sequence[str]) -> list[str]:
    """The warning that ``taxonomy``, resolved on the labels ``used`` (both sets'), gave up
    MAFALDA's groups for labels it does not know (:func:`core.model.taxonomy.outside`); a
    sharded run says it once, from the labels of every shard."""
    strays = outside(taxonomy, used)
    if not strays:
        return []
    return [KindedText(f"labels outside the MAFALDA taxonomy ({', '.join(map(repr, strays))}): "
                       "one class per label, no grouping at levels 1 and 0; pass --taxonomy FILE "
                       "to group them", "outside-taxonomy")]


def aligned_inputs(files: Sequence[str], every: Sequence[Loaded]
                   ) -> tuple[list[Loaded], Alignment]:
    """Annotators' files (``every``, read from ``files``) with their documents matched by their
    text (:func:`core.model.alignment.align`: files that name one document differently), and
    the alignment. ``agree`` and ``adjudicate`` on one machine and ``agree --engine dask`` on
    whole files (one worker reads the study) take this one path."""
    alignment = align([loaded.texts for loaded in every], [Path(p).name for p in files])
    out = []
    for i, loaded in enumerate(every):
        if alignment.renamed[i]:
            extents = loaded.assumed_extents
            loaded = replace(loaded, texts=alignment.texts(i, loaded.texts),
                             sets=alignment.sets(i, loaded.sets),
                             assumed_extents=None if extents is None
                             else {alignment.rename(i, d): n for d, n in extents.items()})
        out.append(loaded)
    return out, alignment


def read_annotators(files: Sequence[str], every: Sequence[Loaded], policy: Policy, *,
                    names: Sequence[str | None] | None = None
                    ) -> tuple[list[tuple[str, AnnotationSet]], dict[str, str | None], list[str]]:
    """Annotators' files (``every``, read from ``files`` and matched by their text) as the
    agreement measures need them: each file's ``(path, set)`` pairs, the documents' texts, and
    the warnings. ``agree`` and ``adjudicate`` on one machine and every shard of
    ``agree --engine dask`` take this one path; ``names``: per file, the annotator's name to give
    its one set (a shard of one folder), or None to keep the set's.

    The readers' warnings of spans past the text come first (a reader's note that placed spans
    are scored as they are is left out unless ``policy`` clips them: here they are clipped).
    Files must agree on the text of a document (:func:`core.model.texts.reconcile`: refused when
    they differ in more than whitespace, spans carried onto the earlier text when they differ in
    whitespace only). A file without texts is checked against the texts of the others, every
    offending set named at once (:mod:`core.model.bounds`); spans a reader placed past the text
    (MAFALDA model outputs) are clipped, since agreement and consensus need every span inside
    its text (scoring keeps them); what the readers said already is not said twice."""
    found: list[tuple[str, AnnotationSet]] = []
    known: dict[str, str | None] = {}  # the documents' texts
    owner: dict[str, str] = {}  # the file each text came from
    assumed: dict[str, dict[str, int]] = {}
    said: list[Diagnostic] = []
    warnings: list[str] = []
    for i, (path, loaded) in enumerate(zip(files, every, strict=True)):
        assumed.update(assumed_of(path, loaded) or {})
        said.extend(d for d in loaded.diagnostics if d.kind == "beyond-text")
        # a group of another kind (60,000 spans in whitespace) holds no such message: not
        # expanded one by one
        placed_note = loaded.assumed_extents is not None and policy != "clip"
        past = [d for d in loaded.diagnostics
                if not (placed_note and d.kind == "beyond-text")
                and (d.more is None or "past the text" in d.message
                     or d.kind in ("beyond-text", "other"))]
        warnings.extend(str(d) for d in expand_diagnostics(past)
                        if "past the text" in d.message)
        sets, carried = texts.reconcile(known, loaded.texts, loaded.sets, here=path, there=owner)
        warnings.extend(carried)
        texts.adopt(known, owner, loaded.texts, path)
        name = None if names is None else names[i]
        found.extend((path, s if name is None else s.with_role("annotator", name))
                     for s in sets)
    kept, more = bounds.check_sets(found, known, policy, assumed=assumed, placed="clip",
                                   owners=owner)
    warnings.extend(bounds.unseen(more, said))
    return [(p, s) for (p, _), s in zip(found, kept, strict=True)], known, warnings


def annotator_sets(found: Sequence[tuple[str, AnnotationSet]]) -> list[AnnotationSet]:
    """Each ``(path, set)`` read as an annotator; only the sets whose names collide are named
    by their paths (``a.json:gold``), told apart among themselves (:func:`distinct_paths`)."""
    names = [s.name for _, s in found]
    shown = distinct_paths([p for p, s in found if names.count(s.name) > 1])
    return [AnnotationSet(s.name if names.count(s.name) == 1 else f"{shown[p]}:{s.name}",
                          s.spans, "annotator", s.alternatives) for p, s in found]


def distinct_paths(paths: list[str]) -> dict[str, str]:
    """Each input path by its name, or by as many of its last folders as tell it apart from
    the others (``annotator2/IAA`` and ``annotator4/IAA``: two annotators' folders of one
    name, as the amia-18 mutation corpus keeps them)."""
    parts = {p: Path(p).parts for p in dict.fromkeys(paths)}
    longest = max((len(v) for v in parts.values()), default=1)
    for depth in range(1, longest + 1):
        shown = {p: "/".join(v[-depth:]) for p, v in parts.items()}
        if len(set(shown.values())) == len(shown):
            return shown
    return {p: p for p in parts}
