"""UIMA CAS XMI (INCEpTION's lossless export), read with ``dkpro-cassis``.

A ``.xmi`` file holds the document text (the sofa) and every annotation; its types are declared
in a type system file (``TypeSystem.xml``) that INCEpTION writes beside it. The reader loads the
type system with ``cassis.load_typesystem`` and the CAS with ``cassis.load_cas_from_xmi``
(Klie & Eckart de Castilho, dkpro-cassis), which also turns UIMA's UTF-16 offsets into Python
string offsets.

The type system is the ``.xml`` file beside the ``.xmi`` (in the same folder or a parent folder
of a zip or folder input, named ``TypeSystem.xml`` or ``typesystem.xml``). Span layers are the
types that inherit from ``uima.tcas.Annotation`` and have annotations in the file, except DKPro's
segmentation types (Token, Sentence, ...); the layer and label feature are chosen as for WebAnno
TSV (:mod:`core.formats.layers`, ``--layer``, ``--feature``). Features that can carry a label are
the string, integer and boolean ones.

Folders and zips follow INCEpTION's export layout like WebAnno TSV: ``annotation/<document>/
<user>.xmi`` (or ``<document>/<user>.xmi``) gives one set per annotator.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from core import bounds
from core.errors import FormatError
from core.formats import Loaded, ReadOptions, decode
from core.formats._common import (
    check_label,
    duplicate_span_warnings,
    member_name,
    sorted_spans,
    span_warnings,
)
from core.formats.layers import choose, short_name
from core.formats.webanno import INITIAL_CAS, export_set, layout
from core.model import AnnotationSet, Role, Span

FORMAT = "uima-xmi"
_LABEL_TYPES = ("uima.cas.String", "uima.cas.Integer", "uima.cas.Boolean", "uima.cas.Long",
                "uima.cas.Short", "uima.cas.Byte")
_SKIP_TYPES = ("uima.tcas.DocumentAnnotation",)
# Segmentation and metadata types are in every INCEpTION CAS; they never hold the spans measured.
_SKIP_SHORT = ("Token", "Sentence", "DocumentMetaData", "TagsetDescription")


def sniff(filename: str, head: str) -> int:
    lower = filename.lower()
    if lower.endswith(".xmi"):
        return 95
    if "xmlns:xmi=" in head and "<xmi:XMI" in head:
        return 90
    if lower.endswith(".xml") and "<typeSystemDescription" in head:
        return 15
    return 0


def _import_cassis() -> Any:
    try:
        import cassis
    except ImportError:
        raise FormatError("<options>", "reading UIMA XMI needs dkpro-cassis: "
                          "pip install dkpro-cassis") from None
    return cassis


def _typesystem_for(path: str, files: Mapping[str, bytes]) -> str | None:
    folder = PurePosixPath(path).parent
    candidates = [p for p in files if p.lower().endswith(".xml")]
    while True:
        here = [p for p in candidates if PurePosixPath(p).parent == folder]
        named = [p for p in here if PurePosixPath(p).name.lower() == "typesystem.xml"]
        if named or len(here) == 1:
            return (named or here)[0]
        if folder == folder.parent:
            return None
        folder = folder.parent


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one ``.xmi`` (with its type system in the same input) or a folder/zip of them.

    cassis says ``UserWarning: Not mapping external offset`` for an offset past the text and
    keeps it; such a span then follows the one policy of :mod:`core.bounds` (refused, clipped or
    kept, named in a message), so the library warning, which would be a second line on standard
    error, is silenced.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module=r"cassis(\.|$)")
        return _read(files, name=name, options=options)


def _read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    cassis = _import_cassis()
    loaded = Loaded(FORMAT, name)
    xmis = sorted(p for p in files if p.lower().endswith(".xmi"))
    if not xmis:
        raise FormatError(name, "expected .xmi files with a TypeSystem.xml beside them, found "
                          "no .xmi file")
    typesystems: dict[str, Any] = {}
    cases: dict[str, Any] = {}
    for path in xmis:
        file = name if len(files) == 1 else member_name(name, path)
        ts_path = _typesystem_for(path, files)
        if ts_path is None:
            raise FormatError(file, "no type system: put TypeSystem.xml (INCEpTION writes it "
                              "with every XMI export) beside the .xmi file and read the folder "
                              "or zip")
        if ts_path not in typesystems:
            ts_file = member_name(name, ts_path)
            try:
                typesystems[ts_path] = cassis.load_typesystem(decode(ts_file, files[ts_path]))
            except Exception as exc:  # lxml and cassis raise many types for a bad file
                raise FormatError(ts_file, f"expected a UIMA type system: {type(exc).__name__}: "
                                  f"{str(exc)[:100]}") from None
        try:
            cases[path] = cassis.load_cas_from_xmi(decode(file, files[path]),
                                                   typesystem=typesystems[ts_path])
        except FormatError:
            raise
        except Exception as exc:
            raise FormatError(file, f"expected UIMA CAS XMI: {type(exc).__name__}: "
                              f"{str(exc)[:100]}") from None
    union: dict[str, list[str]] = {}
    for cas in cases.values():
        for layer, feats in _span_layers(cas).items():
            known = union.setdefault(layer, [])
            known.extend(f for f in feats if f not in known)
    choice = choose(union, layer=options.layer, feature=options.feature, source=name)
    if choice is not None and choice.note:
        loaded.warn(choice.note)
    entries = layout([_layout_key(p) for p in xmis], name, loaded)
    per_set: dict[str, dict[str, list[Span]]] = {}
    roles: dict[str, Role] = {}
    for path, entry in zip(xmis, entries, strict=True):
        file = name if len(files) == 1 else member_name(name, path)
        cas = cases[path]
        if entry.user == INITIAL_CAS:
            loaded.warn(f"{path}: INCEpTION's initial state of the document; skipped")
            continue
        set_name, role = export_set(
            entry.user,
            PurePosixPath(name.rstrip("/")).name.removesuffix(".xmi").removesuffix(".zip"),
            options.role)
        roles.setdefault(set_name, role)
        text = cas.sofa_string or ""
        spans: list[Span] = []
        empty = 0
        if choice is not None:
            for ann in cas.select(choice.layer) if choice.layer in union else []:
                label: object = (getattr(ann, choice.feature, None) if choice.feature
                                 else choice.short)
                if label is None or label == "":
                    empty += 1
                    continue
                begin, end = int(ann.begin), int(ann.end)
                if end <= begin:
                    loaded.warn(f"an empty {choice.short} annotation at {begin}; skipped",
                                file=file)
                    continue
                if end > len(text) and options.beyond_text == "refuse":
                    # The one policy for spans past the text (core.bounds), as make_span does.
                    raise FormatError(file, bounds.past_text(len(text), end), field="end")
                span = Span(begin, end, str(label))
                check_label(span.label, options.labels, file, field=choice.feature or "layer")
                for message, _ in span_warnings(span, text):
                    loaded.warn(message, file=file, field=choice.feature)
                spans.append(span)
        if empty:
            loaded.warn(f"{empty} {choice.short if choice else ''} annotations have no value for "
                        f"feature {choice.feature if choice else ''}; skipped", file=file)
        for d in duplicate_span_warnings(spans):
            loaded.warn(f"the span [{d.start}, {d.end}) {d.label!r} occurs more than once; kept",
                        file=file)
        doc_spans = per_set.setdefault(set_name, {})
        doc_spans[entry.doc_id] = spans
        if entry.doc_id in loaded.texts and loaded.texts[entry.doc_id] != text:
            raise FormatError(file, f"the text of document {entry.doc_id!r} differs from another "
                              "annotator's; each file of a document must hold the same text")
        loaded.texts.setdefault(entry.doc_id, text)
    for set_name, spans_by_doc in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, sorted_spans(spans_by_doc), roles[set_name]))
    return loaded


def _layout_key(path: str) -> str:
    """The path that names document and annotator: ``annotation/d/alice/alice.xmi`` (a nested
    zip ``annotation/d/alice.zip`` unpacked) counts as ``annotation/d/alice.tsv``."""
    p = PurePosixPath(path)
    stem = p.name[: -len(".xmi")]
    if p.parent.name == stem and len(p.parts) > 1:
        p = p.parent
    return (p.parent / (stem + ".tsv")).as_posix()


def _span_layers(cas: Any) -> dict[str, list[str]]:
    """Annotation types used in ``cas`` (in first-seen order) and their label features."""
    ts = cas.typesystem
    out: dict[str, list[str]] = {}
    for ann in cas.select_all_annotations():
        tname = ann.type.name
        if tname in out or tname in _SKIP_TYPES or short_name(tname) in _SKIP_SHORT:
            continue
        if not ts.subsumes("uima.tcas.Annotation", tname):
            continue
        feats = []
        for feat in ann.type.all_features:
            if feat.name in ("begin", "end", "sofa"):
                continue
            if feat.rangeType.name in _LABEL_TYPES:
                feats.append(feat.name)
        out[tname] = feats
    return out
