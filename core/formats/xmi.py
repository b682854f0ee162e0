"""UIMA CAS XMI (INCEpTION's lossless export), read with lxml and ``dkpro-cassis``.

A ``.xmi`` file holds the document text (the sofa) and every annotation; its types are declared
in a type system file (``TypeSystem.xml``) that INCEpTION writes beside it. The reader loads the
type system with ``cassis.load_typesystem`` (Klie & Eckart de Castilho, dkpro-cassis). A CAS is
read by :func:`_extract_fast`, which parses the XMI with lxml and keeps only the sofa and the
annotations of the span layers, as cassis would give them (UTF-16 offsets turned into Python
string offsets the same way); a file it does not handle (a second view, float, array or list
features on a span layer, values cassis refuses, ...) is read by ``cassis.load_cas_from_xmi``
instead, which reads it or names what is wrong, and counted in :data:`FALLBACKS` (issue 29:
cassis builds an object for every token and sentence, four times the CPU of the fast path).

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

import itertools
import posixpath
import warnings
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import SpanColumns, duplicates
from core.formats._common import check_label, member_name, span_warnings
from core.formats.archive import check_binary_cas_export
from core.formats.layers import LINGUISTIC, Choice, choose, describe, short_name
from core.formats.webanno import INITIAL_CAS, export_set, layout
from core.model import AnnotationSet, Role, Span, bounds
from core.model.errors import FormatError

FORMAT = "uima-xmi"
_LABEL_TYPES = ("uima.cas.String", "uima.cas.Integer", "uima.cas.Boolean", "uima.cas.Long",
                "uima.cas.Short", "uima.cas.Byte")
_SKIP_TYPES = ("uima.tcas.DocumentAnnotation",)
DOCUMENT_ANNOTATION = "uima.tcas.DocumentAnnotation"
RELATION_FEATURES = ("Governor", "Dependent")
"""Features that make an annotation type a relation layer (INCEpTION's relation layers and
DKPro Core's ``Dependency``): its annotations link two spans rather than mark one."""
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


def _typesystem_for(path: str, files: Mapping[str, bytes],
                    candidates: list[str] | None = None) -> str | None:
    """The type system of the ``.xmi`` at ``path``: ``TypeSystem.xml`` (any case), or the only
    ``.xml``, in its folder or the nearest parent folder that has one. Keys starting with
    ``../`` are type systems found above a single file read from disk
    (:func:`type_system_above`). ``candidates``: the ``.xml`` keys of ``files``, when the caller
    has them."""
    folder = PurePosixPath(path).parent
    if candidates is None:
        candidates = [p for p in files if p.lower().endswith(".xml")]
    while True:
        here = [p for p in candidates if PurePosixPath(p).parent == folder]
        named = [p for p in here if PurePosixPath(p).name.lower() == "typesystem.xml"]
        if named or len(here) == 1:
            return (named or here)[0]
        if folder == folder.parent:
            break
        folder = folder.parent
    above = sorted((p for p in candidates if p.startswith("../")), key=lambda p: p.count("../"))
    return above[0] if above else None


TYPE_SYSTEM_LEVELS = 3
"""How many folders above a single ``.xmi`` file on disk are searched for its type system."""


def type_system_above(path: Path) -> dict[str, bytes]:
    """The type system that belongs to the single ``.xmi`` file ``path`` on disk, keyed by its
    path relative to the ``.xmi``'s folder (``TypeSystem.xml``, ``../TypeSystem.xml``, ...),
    or ``{}``.

    The ``.xmi``'s folder is searched first, then up to :data:`TYPE_SYSTEM_LEVELS` folders
    above it; in each, ``TypeSystem.xml`` (any case) wins, else the only ``.xml`` file that
    declares a type system (``<typeSystemDescription``). INCEpTION writes ``TypeSystem.xml``
    beside every ``.xmi`` it exports.
    """
    folder = path.parent
    for up in range(TYPE_SYSTEM_LEVELS + 1):
        found = _type_system_in(folder)
        if found is not None:
            return {"../" * up + found.name: found.read_bytes()}
        if folder.parent == folder:
            break
        folder = folder.parent
    return {}


def _type_system_in(folder: Path) -> Path | None:
    try:
        xmls = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".xml" and p.is_file())
    except OSError:  # an unreadable folder has no type system for us
        return None
    named = [p for p in xmls if p.name.lower() == "typesystem.xml"]
    if named:
        return named[0]
    declared = []
    for p in xmls:
        with p.open("rb") as f:
            if b"<typeSystemDescription" in f.read(4096):
                declared.append(p)
    return declared[0] if len(declared) == 1 else None


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one ``.xmi`` (with its type system in the same input) or a folder/zip of them.

    cassis says ``UserWarning: Not mapping external offset`` for an offset past the text and
    keeps it; such a span then follows the one policy of :mod:`core.model.bounds` (refused, clipped
    or kept, named in a message), so the library warning, which would be a second line on standard
    error, is silenced.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module=r"cassis(\.|$)")
        return _read(files, name=name, options=options)


@dataclass
class _Extract:
    """What the reader needs of one CAS, so that the CAS (the library's objects for every
    token and sentence) is dropped as soon as the next file is read: its text, its span layers
    and, per annotation type that can be a layer, its annotations as ``(begin, end, xmi id,
    feature values)`` in the order of the CAS's index (begin, end, xmi id)."""

    text: str | None
    layers: dict[str, list[str]]
    relations: set[str]
    typesystem: Any
    by_type: dict[str, tuple[tuple[str, ...], list[tuple[int, int, int, tuple[Any, ...]]]]]


class _Skipped:
    """Whether an annotation type is never a span layer: segmentation and metadata types by
    name, and the document annotation with every type that extends it (DKPro Core's
    ``DocumentMetaData``, a project's own), which covers the whole text. Answers are cached
    per type name, since a CAS holds many annotations of few types."""

    def __init__(self, typesystem: Any) -> None:
        self.typesystem = typesystem
        self.known: dict[str, bool] = {}

    def __call__(self, tname: str) -> bool:
        found = self.known.get(tname)
        if found is None:
            found = self.known[tname] = (
                tname in _SKIP_TYPES or short_name(tname) in _SKIP_SHORT
                or bool(self.typesystem.subsumes(DOCUMENT_ANNOTATION, tname)))
        return found


def _extract(cas: Any) -> _Extract:
    by_type: dict[str, tuple[tuple[str, ...], list[tuple[int, int, int, tuple[Any, ...]]]]] = {}
    skipped = _Skipped(cas.typesystem)
    layers: dict[str, list[str]] = {}
    relations: set[str] = set()
    for ann in cas.select_all_annotations():
        tname = ann.type.name
        if skipped(tname):
            continue
        entry = by_type.get(tname)
        if entry is None:
            names = tuple(f.name for f in ann.type.all_features
                          if f.name not in ("begin", "end", "sofa"))
            entry = by_type[tname] = (names, [])
            _add_layer(cas.typesystem, ann.type, layers, relations)  # once per type, in order
        xmi_id = getattr(ann, "xmiID", None)
        entry[1].append((ann.begin, ann.end, xmi_id if xmi_id is not None else id(ann),
                         tuple(getattr(ann, f, None) for f in entry[0])))
    for _, records in by_type.values():
        records.sort(key=lambda r: r[:3])
    # A sofa without a string (UIMA allows it) is a document whose text is unknown.
    return _Extract(cas.sofa_string, layers, relations, cas.typesystem, by_type)


_XMI_ID = "{http://www.omg.org/XMI}id"
_SOFA_TAG = "{http:///uima/cas.ecore}Sofa"
_VIEW_TAG = "{http:///uima/cas.ecore}View"
_SOFA_ATTRIBUTES = frozenset((_XMI_ID, "sofaNum", "sofaID", "mimeType", "sofaString"))
_INTEGERS = ("uima.cas.Integer", "uima.cas.Long", "uima.cas.Short", "uima.cas.Byte")

FALLBACKS: Counter[str] = Counter()
"""Files the fast path (:func:`_extract_fast`) handed to dkpro-cassis, by reason; the guard
test asserts that INCEpTION-style files add nothing to it."""


class _Types:
    """Per type system, what :func:`_extract_fast` needs of each element tag: why the file is
    cassis's (``"types"``: a type the type system lacks; ``"features"``: a span layer with a
    feature of another kind than those below), ``()`` for a feature structure that is no
    ``uima.tcas.Annotation``, the attributes allowed on an annotation never read (segmentation
    and metadata types), else the type name, its features with their kinds (``s``tring,
    ``i``nteger, ``b``oolean, ``r``eference to one feature structure, which is no label and is
    kept as None) and the attributes it allows."""

    def __init__(self, typesystem: Any) -> None:
        self.typesystem = typesystem
        self.skipped = _Skipped(typesystem)
        self.by_tag: dict[str, Any] = {}

    def __getitem__(self, tag: str) -> Any:
        found = self.by_tag.get(tag, False)
        if found is False:
            found = self.by_tag[tag] = self._describe(tag)
        return found

    def _describe(self, tag: str) -> Any:
        # The type name of an element, as cassis's deserializer derives it from the tag.
        tname = tag[9:].replace("/", ".").replace("ecore}", "").strip()
        if tname.startswith("uima.noNamespace."):
            tname = tname[17:]
        ts = self.typesystem
        if not ts.contains_type(tname):
            return "types"
        if not ts.subsumes("uima.tcas.Annotation", tname):
            return ()
        if self.skipped(tname):
            return frozenset((_XMI_ID, *(f.name for f in ts.get_type(tname).all_features)))
        kinds: dict[str, str | None] = {}
        for feat in ts.get_type(tname).all_features:
            if feat.name in ("begin", "end", "sofa"):
                continue
            rname = feat.rangeType.name
            kinds[feat.name] = (
                "s" if rname == "uima.cas.String" else "i" if rname in _INTEGERS
                else "b" if rname == "uima.cas.Boolean"
                else None if ts.is_primitive(feat.rangeType) or any(
                    ts.subsumes(base, rname) for base in ("uima.cas.ArrayBase",
                                                          "uima.cas.ListBase"))
                else "r")
        if any(k is None for k in kinds.values()) or "type" in kinds or "self" in kinds:
            return "features"  # a float, array or list feature, or a renamed one: cassis's
        allowed = frozenset((_XMI_ID, "begin", "end", "sofa", *kinds))
        return tname, tuple(kinds), tuple(kinds.values()), allowed


def _value(kind: str, raw: str | None, ids: set[str | None]) -> Any:
    """A feature's value as cassis parses it (ValueError when it would refuse it); a reference
    is only checked (it is never a label)."""
    if raw is None or kind == "s":
        return raw
    if kind == "i":
        return int(raw)
    if kind == "r":
        if raw not in ids:
            raise ValueError(raw)
        return None
    if raw in ("true", "false"):
        return raw == "true"
    raise ValueError(raw)


def _python_offsets(text: str | None) -> dict[int, int] | None:
    """UIMA's offsets count UTF-16 code units; for a text with characters beyond the Basic
    Multilingual Plane (two units each), the string offset of each unit offset that starts a
    character, as cassis maps them (an offset inside such a character, or past the text, is
    kept as it is); None when the two agree."""
    if not text or max(text) <= "\uffff":
        return None
    units = [0, *itertools.accumulate(2 if c > "\uffff" else 1 for c in text)]
    return dict(zip(units, range(len(units)), strict=True))


def _elements(root: Any, types: _Types
              ) -> tuple[Any, Any, set[str | None], dict[str, tuple[Any, Any]]] | str:
    """The sofa, the view, every xmi:id, and the elements of the types read (by xmi:id) of an
    XMI's root, or why the file is left to cassis."""
    sofa: Any = None
    view: Any = None
    ids: set[str | None] = set()
    read: dict[str, tuple[Any, Any]] = {}
    for el in root:
        tag = el.tag
        if tag in (_SOFA_TAG, _VIEW_TAG):
            if (sofa if tag == _SOFA_TAG else view) is not None:
                return "views"
            if tag == _SOFA_TAG:
                sofa = el
            else:
                view = el
            continue
        if not isinstance(tag, str):
            return "markup"
        described = types[tag]
        if isinstance(described, str):
            return described
        xmi_id = el.get(_XMI_ID)
        if xmi_id is None or xmi_id in ids:
            return "ids"
        ids.add(xmi_id)
        if isinstance(described, frozenset):  # a token, sentence, ...: checked, not read
            if not described.issuperset(el.keys()):
                return "features"
            begin, end = el.get("begin", "0"), el.get("end", "0")
            if not (begin.isdecimal() and end.isdecimal()):
                return "values"
        elif described:
            if len(el) or not described[3].issuperset(el.keys()):
                return "features"
            read[xmi_id] = (described, el)
    return sofa, view, ids, read


def _extract_fast(data: bytes, types: _Types) -> _Extract | str:
    """The :class:`_Extract` of one XMI parsed with lxml alone, or why it is left to
    dkpro-cassis (the same result, slower: cassis builds an object for every token and
    sentence). Handled: one sofa (``_InitialView``), at most one view, and annotations
    of the span layers whose features are strings, integers and booleans held as attributes.
    Annotations the reader never reads (tokens, sentences, metadata, ...) are checked for their
    type, xmi:id, attributes and offsets (digits only: anything else, which cassis may still
    read, goes to it), other feature structures for their type and xmi:id only; anything else
    goes to cassis, which reads it or says what is wrong."""
    from lxml import etree

    try:
        root = etree.fromstring(data, etree.XMLParser(huge_tree=False))
    except etree.XMLSyntaxError:
        return "syntax"
    if root.tag != "{http://www.omg.org/XMI}XMI":
        return "markup"
    found = _elements(root, types)
    if isinstance(found, str):
        return found
    sofa, view, ids, read = found
    if sofa is None or sofa.get("sofaID") != "_InitialView" or not _SOFA_ATTRIBUTES.issuperset(
            sofa.keys()):
        return "sofa"
    text = sofa.get("sofaString")
    at = _python_offsets(text)
    sofa_id = sofa.get(_XMI_ID)
    members = (view.get("members") or "").split() if view is not None else []
    if (view is not None and view.get("sofa") != sofa_id) or len(set(members)) != len(members):
        return "views"
    by_type: dict[str, tuple[tuple[str, ...], list[tuple[int, int, int, tuple[Any, ...]]]]] = {}
    layers: dict[str, list[str]] = {}
    relations: set[str] = set()
    try:
        for member in members:
            element = read.get(member)
            if element is None:
                if member not in ids:
                    return "ids"
                continue
            (tname, names, kinds, _), el = element
            if el.get("sofa") != sofa_id:
                return "sofa"
            entry = by_type.get(tname)
            if entry is None:
                entry = by_type[tname] = (names, [])
                _add_layer(types.typesystem, types.typesystem.get_type(tname), layers, relations)
            begin, end = int(el.get("begin")), int(el.get("end"))
            if at is not None:
                begin, end = at.get(begin, begin), at.get(end, end)
            entry[1].append((begin, end, int(member),
                             tuple(_value(k, el.get(n), ids) for n, k in zip(names, kinds,
                                                                       strict=True))))
    except (ValueError, TypeError):  # what cassis refuses, or a missing begin or end
        return "values"
    for _, records in by_type.values():
        records.sort(key=lambda r: r[:3])
    return _Extract(text, layers, relations, types.typesystem, by_type)


def _select(ex: _Extract, layer: str, feature: str | None, short: str, load: Any
            ) -> list[tuple[object, Any, Any]]:
    """``(label, begin, end)`` of ``cas.select(layer)`` (the type and its subtypes, in the
    library's order). A layer that subsumes a type left out of the extract (``Token``, ...)
    is selected from the CAS loaded again by ``load()``; the document annotation (and any type
    extending it) is never a span, even under ``uima.tcas.Annotation``."""
    types = {t.name for t in ex.typesystem.get_type(layer).descendants}
    skipped = _Skipped(ex.typesystem)
    if any(skipped(t) for t in types):
        whole = {t for t in types if ex.typesystem.subsumes(DOCUMENT_ANNOTATION, t)}
        return [(getattr(ann, feature, None) if feature else short, ann.begin, ann.end)
                for ann in load().select(layer) if ann.type.name not in whole]
    out: list[tuple[object, Any, Any]] = []
    for tname in types:
        names, records = ex.by_type.get(tname, ((), []))
        at = names.index(feature) if feature in names else -1
        for begin, end, _, values in records:
            out.append(((values[at] if at >= 0 else None) if feature else short, begin, end))
    return out


def _read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    cassis = _import_cassis()
    loaded = Loaded(FORMAT, name)
    xmis = sorted(p for p in files if p.lower().endswith(".xmi"))
    if not xmis:
        check_binary_cas_export(files, name)
        raise FormatError(name, "expected .xmi files with a TypeSystem.xml beside them, found "
                          "no .xmi file")
    # One .xmi read from disk with its type system (core.formats.read_file_with_companions):
    # messages name the real files, not members of a folder.
    single = len(xmis) == 1 and PurePosixPath(name).name == PurePosixPath(xmis[0]).name
    cases, loaders = _load_cases(cassis, files, xmis, name, single)
    choice, union = _choose_layer(cases, name, options, loaded)
    entries = layout([_layout_key(p) for p in xmis], name, loaded)
    per_set: dict[str, SpanColumns] = {}
    roles: dict[str, Role] = {}
    for path, entry in zip(xmis, entries, strict=True):
        file = name if single or len(files) == 1 else member_name(name, path)
        ex = cases[path]
        if entry.user == INITIAL_CAS:
            loaded.warn(f"{path}: INCEpTION's initial state of the document; skipped")
            continue
        set_name, role = export_set(
            entry.user,
            PurePosixPath(name.rstrip("/")).name.removesuffix(".xmi").removesuffix(".zip"),
            options.role)
        roles.setdefault(set_name, role)
        if entry.user is not None:
            loaded.named_sets.add(set_name)
        text = ex.text
        spans = _document_spans(ex, choice, union, loaders[path], file, options, loaded)
        columns = per_set.setdefault(set_name, SpanColumns())
        again = entry.doc_id in columns
        index = columns.document(entry.doc_id)
        if again:  # a second file of this document and annotator replaces the first
            columns.clear(index)
        for s, e, lab in spans:
            columns.add(index, s, e, lab)
        if entry.doc_id in loaded.texts and loaded.texts[entry.doc_id] != text:
            raise FormatError(file, f"the text of document {entry.doc_id!r} differs from another "
                              "annotator's; each file of a document must hold the same text")
        loaded.texts.setdefault(entry.doc_id, text)
    for set_name, columns in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, columns.spans(), roles[set_name]))
    return loaded


def _load_cases(cassis: Any, files: Mapping[str, bytes], xmis: list[str], name: str,
                single: bool) -> tuple[dict[str, _Extract], dict[str, Any]]:
    """Each ``.xmi`` parsed with its type system (each type system parsed once): its extract,
    and a function that parses it again in full (:func:`_select` needs it for skipped types)."""
    typesystems: dict[str, Any] = {}
    described: dict[str, _Types] = {}
    cases: dict[str, _Extract] = {}
    loaders: dict[str, Any] = {}
    # The answer depends on the folder only: looked up once per folder, not once per file
    # against every file (500 files: 250,000 comparisons).
    xmls = [p for p in files if p.lower().endswith(".xml")]
    ts_of_folder: dict[str, str | None] = {}
    for path in xmis:
        file = name if single or len(files) == 1 else member_name(name, path)
        folder = posixpath.dirname(path)
        if folder not in ts_of_folder:
            ts_of_folder[folder] = _typesystem_for(path, files, xmls)
        ts_path = ts_of_folder[folder]
        if ts_path is None:
            raise FormatError(file, "no type system: put TypeSystem.xml (INCEpTION writes it "
                              "with every XMI export) beside the .xmi file and read the folder "
                              "or zip")
        if ts_path not in typesystems:
            ts_file = (posixpath.normpath(posixpath.join(posixpath.dirname(name), ts_path))
                       if single else member_name(name, ts_path))
            try:
                typesystems[ts_path] = cassis.load_typesystem(decode(ts_file, files[ts_path]))
            except Exception as exc:  # lxml and cassis raise many types for a bad file
                raise FormatError(ts_file, f"expected a UIMA type system: {type(exc).__name__}: "
                                  f"{str(exc)[:100]}") from None

        def load(file: str = file, path: str = path, ts: Any = typesystems[ts_path]) -> Any:
            return cassis.load_cas_from_xmi(decode(file, files[path]), typesystem=ts)

        if ts_path not in described:
            described[ts_path] = _Types(typesystems[ts_path])
        fast = _extract_fast(decode(file, files[path]).encode("utf-8"), described[ts_path])
        if isinstance(fast, _Extract):
            cases[path] = fast
            loaders[path] = load
            continue
        FALLBACKS[fast] += 1
        try:
            cases[path] = _extract(load())
        except FormatError:
            raise
        except Exception as exc:
            raise FormatError(file, f"expected UIMA CAS XMI: {type(exc).__name__}: "
                              f"{str(exc)[:100]}") from None
        loaders[path] = load
    return cases, loaders


def _choose_layer(cases: Mapping[str, _Extract], name: str, options: ReadOptions,
                  loaded: Loaded) -> tuple[Choice | None, dict[str, list[str]]]:
    """The layer and feature read as spans (:func:`choose`) among the layers of every file,
    with its notes and the warning about relation layers; and every layer with its features."""
    union: dict[str, list[str]] = {}
    relations: set[str] = set()
    for ex in cases.values():
        relations |= ex.relations
        for layer, feats in ex.layers.items():
            known = union.setdefault(layer, [])
            known.extend(f for f in feats if f not in known)
    # Relation layers are never the default (as in WebAnno TSV, where they are no span
    # layers); --layer may still name one.
    spans_only = {k: v for k, v in union.items() if k not in relations}
    choice = choose(union if options.layer is not None else spans_only, layer=options.layer,
                    feature=options.feature, source=name)
    if choice is not None and choice.note:
        loaded.warn(choice.note)
    if choice is not None and choice.layer in relations:
        loaded.warn(f"layer {choice.layer} is a relation layer (features Governor and "
                    "Dependent): each span is the relation annotation's own offsets, which "
                    "INCEpTION sets to those of its Dependent")
    elif options.layer is None:
        linking = {k: v for k, v in union.items() if k in relations
                   and short_name(k) not in LINGUISTIC}
        if linking:
            loaded.warn(f"relation layers skipped (they link two spans): {describe(linking)}; "
                        "name one with --layer to read its annotations as spans")
    return choice, union


def _document_spans(ex: _Extract, choice: Choice | None, union: Mapping[str, list[str]], load: Any,
                    file: str, options: ReadOptions, loaded: Loaded
                    ) -> list[tuple[int, int, str]]:
    """The spans of one file's chosen layer, checked (empty, past the text, labels list,
    whitespace), with a warning for the annotations without a value and for duplicates."""
    text = ex.text
    spans: list[tuple[int, int, str]] = []
    empty = 0
    if choice is not None:
        selected = (_select(ex, choice.layer, choice.feature, choice.short, load)
                    if choice.layer in union else [])
        for label, raw_begin, raw_end in selected:
            if label is None or label == "":
                empty += 1
                continue
            begin, end = int(raw_begin), int(raw_end)
            if end <= begin:
                loaded.warn(f"an empty {choice.short} annotation at {begin}; skipped",
                            file=file)
                continue
            if text is not None and end > len(text) and options.beyond_text == "refuse":
                # The one policy for spans past the text (core.model.bounds), as make_span does.
                raise FormatError(file, bounds.past_text(len(text), end), field="end")
            span = Span(begin, end, str(label))
            check_label(span.label, options.labels, file, field=choice.feature or "layer")
            for message, _ in span_warnings(span, text):
                loaded.warn(message, file=file, field=choice.feature)
            spans.append((span.start, span.end, span.label))
    if empty:
        loaded.warn(f"{empty} {choice.short if choice else ''} annotations have no value for "
                    f"feature {choice.feature if choice else ''}; skipped", file=file)
    for s, e, lab in duplicates(spans):
        loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once; kept", file=file)
    return spans


def _layout_key(path: str) -> str:
    """The path that names document and annotator: ``annotation/d/alice/alice.xmi`` (a nested
    zip ``annotation/d/alice.zip`` unpacked) counts as ``annotation/d/alice.tsv``."""
    p = PurePosixPath(path)
    stem = p.name[: -len(".xmi")]
    if p.parent.name == stem and len(p.parts) > 1:
        p = p.parent
    return (p.parent / (stem + ".tsv")).as_posix()


def _add_layer(ts: Any, atype: Any, layers: dict[str, list[str]], relations: set[str]) -> None:
    """An annotation type met for the first time in a CAS (not a skipped one): when it is a
    ``uima.tcas.Annotation``, a span layer (``layers``, in first-seen order) with its label
    features, and a relation layer too when it has :data:`RELATION_FEATURES`."""
    tname = atype.name
    if not ts.subsumes("uima.tcas.Annotation", tname):
        return
    feats = []
    names = set()
    for feat in atype.all_features:
        names.add(feat.name)
        if feat.name in ("begin", "end", "sofa"):
            continue
        if feat.rangeType.name in _LABEL_TYPES:
            feats.append(feat.name)
    layers[tname] = feats
    if names.issuperset(RELATION_FEATURES):
        relations.add(tname)
