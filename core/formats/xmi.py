"""UIMA CAS XMI (INCEpTION's lossless export), read with lxml; ``dkpro-cassis`` loads the type
system and explains the files refused.

A ``.xmi`` file holds the document text (the sofa) and every annotation; its types are declared
in a type system file (``TypeSystem.xml``) that INCEpTION writes beside it. The reader loads the
type system with ``cassis.load_typesystem`` (Klie & Eckart de Castilho, dkpro-cassis). Each CAS
is read by one path, :func:`_extract_fast`: lxml parses the XMI, every element is checked as
cassis's ``load_cas_from_xmi`` checks it (types, attributes, values, references, views), and
the text and the annotations of the span layers are kept as cassis gives them: the
``_InitialView`` sofa and the members of its view (other views are checked, not read), UTF-16
offsets turned into string offsets by the text of each view that lists an annotation. Float,
array, list and reference features are checked, never labels. A file it refuses (a reason of
:data:`REFUSALS`, counted in :data:`FALLBACKS`) is parsed by ``cassis.load_cas_from_xmi`` only to
say what is wrong, in cassis's words; cassis's reading is never used (issue 25 §2: one path
gives the data), and a file cassis reads that the reader refuses is an error saying that it is
SpanScope's bug, but for a feature of one String written as several child elements, which
cassis reads as a list (:func:`_children`). ``tests/formats/test_xmi_fast_path.py`` and
``test_xmi_generated.py`` compare the two on hand-made, generated and damaged files. Speed
(issue 29, target 6): cassis builds an object for every token and sentence;
``bench/bench_xmi.py`` measures both.

The type system is the ``.xml`` file beside the ``.xmi`` (in the same folder or a parent folder
of a zip or folder input, named ``TypeSystem.xml`` or ``typesystem.xml``). Span layers are the
types that inherit from ``uima.tcas.Annotation`` and have annotations in the file, except DKPro's
segmentation types (Token, Sentence, ...); the layer and label feature are chosen as for WebAnno
TSV (:mod:`core.formats.layers`, ``--layer``, ``--feature``). Features that can carry a label are
the string, integer and boolean ones.

With ``ReadOptions.keep_tokens`` (``convert --to conll``) the CAS's own ``Token`` annotations
are kept by ``Sentence`` (:func:`_token_sentences`), read in a second pass with the segmentation
types, so that scoring never pays for them.

Folders and zips follow INCEpTION's export layout like WebAnno TSV: ``annotation/<document>/
<user>.xmi`` (or ``<document>/<user>.xmi``) gives one set per annotator.
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
import re
import warnings
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, NoReturn

from core.formats import Loaded, ReadOptions, Sentences, decode
from core.formats._columns import SpanColumns, duplicates
from core.formats._common import check_label, member_name, span_warnings
from core.formats._sniff import UIMA_JSON_HINT, why_undetected_cas_json
from core.formats.archive import check_binary_cas_export
from core.formats.layers import LINGUISTIC, Choice, choose, describe, short_name
from core.formats.webanno import INITIAL_CAS, export_set, layout
from core.model import AnnotationSet, Role, Span, bounds
from core.model.errors import FormatError
from core.model.textsafe import MAX_OFFSET_DIGITS, one_line

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
    # A type system in a folder above (``../TypeSystem.xml``); one in a folder beside those
    # (``../resources_xmi/x.xml``) is left to _elsewhere, which chooses among several.
    above = sorted((p for p in candidates
                    if p.startswith("../") and "/" not in p.replace("../", "")),
                   key=lambda p: p.count("../"))
    return above[0] if above else None


TYPE_SYSTEM_LEVELS = 3
"""How many folders above a single ``.xmi`` file on disk are searched for its type system."""
ELSEWHERE = "\0elsewhere"
"""The key, among folders, of the type system found away from the ``.xmi`` files."""


def type_system_above(path: Path) -> dict[str, bytes]:
    """The type system that belongs to the single ``.xmi`` file ``path`` on disk, keyed by its
    path relative to the ``.xmi``'s folder (``TypeSystem.xml``, ``../TypeSystem.xml``, ...),
    or ``{}``.

    The ``.xmi``'s folder is searched first, then up to :data:`TYPE_SYSTEM_LEVELS` folders
    above it; in each, ``TypeSystem.xml`` (any case) wins, else the only ``.xml`` file that
    declares a type system (``<typeSystemDescription``). INCEpTION writes ``TypeSystem.xml``
    beside every ``.xmi`` it exports. When none is found so, the type systems in the folders
    just below those (a corpus's ``resources/``, keyed ``resources/x.xml`` or
    ``../resources_xmi/x.xml``) are returned, the nearest level's all: the reader picks among
    them (:func:`_elsewhere`). Only folders named as a corpus keeps its type systems are
    searched so (:func:`_resources_folder`), and one that holds ``.xmi`` files of its own is
    another project's or annotator's: its type system is not taken.
    """
    folder = path.parent
    chain = []
    for up in range(TYPE_SYSTEM_LEVELS + 1):
        chain.append(folder)
        found = _type_system_in(folder)
        if found is not None:
            # The folder's other type systems too, for a file that TypeSystem.xml does not
            # describe (_type_system_beside).
            return {"../" * up + p.name: p.read_bytes()
                    for p in [found, *(d for d in _declared_in(folder) if d != found)]}
        if folder.parent == folder:
            break
        folder = folder.parent
    for up, folder in enumerate(chain):
        below = {}
        for sub in _subfolders(folder):
            if not _resources_folder(sub) or (sub not in chain and _holds_xmi(sub)):
                continue  # another project's or annotator's documents: its type system is its own
            for xml in _declared_in(sub):
                below["../" * up + f"{sub.name}/{xml.name}"] = xml.read_bytes()
        if below:
            return below
    return {}


def _resources_folder(folder: Path) -> bool:
    """Whether ``folder`` is named as a corpus keeps its type systems (``resources/``,
    ``resources_xmi/``, ``typesystem/``): any other folder beside the ``.xmi``'s ancestors is
    another project's, or not a corpus's at all."""
    name = folder.name.lower()
    return name.startswith("resource") or "typesystem" in name


def _holds_xmi(folder: Path) -> bool:
    """Whether ``folder`` holds ``.xmi`` files of its own (documents, not a resources folder)."""
    try:
        return any(p.suffix.lower() == ".xmi" for p in folder.iterdir())
    except OSError:
        return False


def _subfolders(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError:  # an unreadable folder has no type system for us
        return []


def _declared_in(folder: Path) -> list[Path]:
    """The ``.xml`` files of ``folder`` that declare a UIMA type system."""
    try:
        xmls = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".xml" and p.is_file())
    except OSError:  # an unreadable folder has no type system for us
        return []
    declared = []
    for p in xmls:
        with p.open("rb") as f:
            if b"<typeSystemDescription" in f.read(4096):
                declared.append(p)
    return declared


def _type_system_in(folder: Path) -> Path | None:
    try:
        xmls = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".xml" and p.is_file())
    except OSError:  # an unreadable folder has no type system for us
        return None
    named = [p for p in xmls if p.name.lower() == "typesystem.xml"]
    if named:
        return named[0]
    declared = _declared_in(folder)
    return declared[0] if len(declared) == 1 else None


def _elsewhere(cassis: Any, files: Mapping[str, bytes], xmls: list[str], name: str,
               first: str) -> tuple[str, str] | None:
    """A type system away from the ``.xmi`` files (none beside them or in a folder above): the
    input's ``.xml`` files that declare one (a corpus's ``resources/``), and the note that says
    which was read. Of several, the one whose types and features include every other's (the
    REDEWIEDERGABE corpus ships a minimal type system and a wider one that its files need);
    when none does, an error names them all. None: the input declares no type system."""
    found = sorted(p for p in xmls if b"<typeSystemDescription" in files[p][:4096])
    if not found:
        return None
    if len(found) == 1:
        return found[0], f"type system read from {found[0]} (none beside the .xmi files)"
    declared: dict[str, set[tuple[str, str]] | None] = {}
    for p in found:
        try:
            ts = cassis.load_typesystem(decode(member_name(name, p), files[p]))
        except Exception:  # a broken one is no candidate; it is named if none is chosen
            declared[p] = None
            continue
        pairs = {(t.name, f.name) for t in ts.get_types() for f in t.all_features}
        declared[p] = pairs | {(t.name, "") for t in ts.get_types()}

    def covers(p: str) -> bool:
        mine = declared[p]
        return mine is not None and all((other := declared[q]) is not None and other <= mine
                                        for q in found)

    wide = [p for p in found if covers(p)]
    if not wide:
        raise FormatError(first, f"no type system beside the .xmi file, and {len(found)} "
                          "elsewhere in the input, none declaring every type of the others: "
                          f"{', '.join(found)}; put the one that belongs to the .xmi files "
                          "beside them as TypeSystem.xml")
    others = [p for p in found if p != wide[0]]
    return wide[0], (f"type system read from {wide[0]} (none beside the .xmi files; it "
                     f"declares every type and feature of the other{'s' if len(others) > 1 else ''}"
                     f", {', '.join(others)})")


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one ``.xmi`` (with its type system in the same input) or a folder/zip of them.

    cassis's warnings (``UserWarning``: a feature named ``self`` or ``type`` renamed while the
    type system loads, an offset past the text while it explains a refused file) would be
    second lines on standard error beside the reader's own messages, so they are silenced; a
    span past its text follows the one policy of :mod:`core.model.bounds` (refused, clipped or
    kept, named in a message).
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


_XMI_ID = "{http://www.omg.org/XMI}id"
_XMI_TAG = "{http://www.omg.org/XMI}XMI"
_SOFA_TAG = "{http:///uima/cas.ecore}Sofa"
_VIEW_TAG = "{http:///uima/cas.ecore}View"
_SOFA_ATTRIBUTES = frozenset((_XMI_ID, "sofaNum", "sofaID", "mimeType", "sofaString", "sofaURI",
                              "sofaArray"))
_INITIAL_VIEW = "_InitialView"
_INTEGERS = ("uima.cas.Integer", "uima.cas.Long", "uima.cas.Short", "uima.cas.Byte")
_FLOATS = ("uima.cas.Float", "uima.cas.Double")
_ARRAYS = {"uima.cas.IntegerArray": "i", "uima.cas.ShortArray": "i", "uima.cas.LongArray": "i",
           "uima.cas.FloatArray": "f", "uima.cas.DoubleArray": "f", "uima.cas.BooleanArray": "b",
           "uima.cas.ByteArray": "x", "uima.cas.StringArray": "e"}
_LISTS = {"uima.cas.IntegerList": "i", "uima.cas.FloatList": "f", "uima.cas.StringList": "s"}

REFUSALS = {
    "syntax": "it is not well-formed XML",
    "markup": "an element where UIMA XMI has none (a root other than xmi:XMI, nested "
              "elements, a sofa or view with content)",
    "types": "an element whose type the type system lacks",
    "features": "an attribute or child element that is no feature of the element's type",
    "values": "a feature value of the wrong kind (a number, boolean, offset or xmi:id that "
              "does not parse, a value of a restricted string type)",
    "ids": "a missing or unknown xmi:id (an element's, a reference's or a view member's)",
    "sofa": "a sofa without xmi:id, sofaNum or sofaID, or an annotation whose sofa is no sofa",
    "views": "two views of one name",
    "single": "a feature of one value written as several child elements, or a number or "
              "boolean written as one",
}
"""Why :func:`_extract_fast` refuses a file, by the reason it returns (the keys of
:data:`FALLBACKS`)."""

FALLBACKS: Counter[str] = Counter()
"""Files :func:`_extract_fast` refused, by reason (:data:`REFUSALS`): each is then given to
``cassis.load_cas_from_xmi`` only for its error message. The guard tests assert that valid
files add nothing to it."""


@dataclass(frozen=True)
class _Kind:
    """What :func:`_extract_fast` needs of one element type: its name; whether it is a
    ``uima.tcas.Annotation`` (``span``: offsets) and one read as a span (``read``: not a
    segmentation or metadata type, or, in ``every`` mode, any but the document annotation);
    ``attributes``: each allowed XMI attribute with the check of its value (:func:`_check`);
    ``children``: the features that may be written as child elements, with theirs; and, for
    the types read, every feature (but begin, end and sofa) with its XMI attribute and its
    label kind (``s``tring, ``i``nteger, ``b``oolean, else None). ``sofa``: it has a sofa
    feature, which cassis requires (an ``uima.cas.AnnotationBase``)."""

    name: str
    span: bool
    read: bool
    sofa: bool
    attributes: dict[str, str]
    children: dict[str, str]
    names: tuple[str, ...] = ()
    xml: tuple[str, ...] = ()
    kinds: tuple[str | None, ...] = ()
    plans: dict[tuple[str, ...], tuple[tuple[str, str], ...] | str] = field(
        default_factory=dict)
    """Per list of attributes an element of this type has, those whose value is checked with
    their check, or why such an element is refused (cached: elements of a type look alike)."""

    def plan(self, keys: tuple[str, ...]) -> tuple[tuple[str, str], ...] | str:
        found = self.plans.get(keys)
        if found is None:
            checked = []
            for name in keys:
                code = self.attributes.get(name)
                if code is None:
                    return "features"
                # strings need no check; the offsets of an annotation are read below
                if code not in ("s", "id") and not (self.span and name in ("begin", "end")):
                    checked.append((name, code))
            found = self.plans[keys] = (
                "sofa" if self.sofa and "sofa" not in keys else tuple(checked))
        return found


class _Types:
    """Per type system, the :class:`_Kind` of each element tag (cached: a CAS holds many
    elements of few types), or why an element is refused (``"types"``: the type system lacks
    its type). ``every``: the types of segmentation and metadata annotations (Token, Sentence,
    ...) are read too, for a ``--layer`` that subsumes them (:func:`_select`)."""

    def __init__(self, typesystem: Any, every: bool = False) -> None:
        self.typesystem = typesystem
        self.every = every
        self.skipped = _Skipped(typesystem)
        self.by_tag: dict[str, _Kind | str] = {}

    def __getitem__(self, tag: str) -> _Kind | str:
        found = self.by_tag.get(tag)
        if found is None:
            found = self.by_tag[tag] = self._describe(tag)
        return found

    def _describe(self, tag: str) -> _Kind | str:
        # The type name of an element, as cassis's deserializer derives it from the tag.
        tname = tag[9:].replace("/", ".").replace("ecore}", "").strip()
        if tname.startswith("uima.noNamespace."):
            tname = tname[17:]
        ts = self.typesystem
        if not ts.contains_type(tname):
            return "types"
        atype = ts.get_type(tname)
        if tname == "uima.cas.StringArray":  # cassis keeps its elements as they are
            return _Kind(tname, False, False, False, {_XMI_ID: "id", "elements": ""},
                         {"elements": ""})
        if tname in _ARRAYS:
            code = "a" + _ARRAYS[tname]
            return _Kind(tname, False, False, False, {_XMI_ID: "id", "elements": code},
                         {"elements": code})
        if tname == "uima.cas.FSArray":
            return _Kind(tname, False, False, False, {_XMI_ID: "id", "elements": "R"}, {})
        span = bool(ts.subsumes("uima.tcas.Annotation", tname))
        read = span and (not self.skipped(tname) or (
            self.every and not ts.subsumes(DOCUMENT_ANNOTATION, tname)))
        attributes = {_XMI_ID: "id"}
        children: dict[str, str] = {}
        names, xml, kinds = [], [], []
        for feat in atype.all_features:
            # cassis renames the features ``self`` and ``type`` (Python names) to ``self_``...
            attr = feat.name[:-1] if getattr(feat, "_has_reserved_name", False) else feat.name
            code, child = _codes(ts, feat)
            attributes[attr] = code
            if child is not None:
                children[feat.name] = child
            if feat.name not in ("begin", "end", "sofa"):
                rname = feat.rangeType.name
                names.append(feat.name)
                xml.append(attr)
                kinds.append("s" if rname == "uima.cas.String" else "i" if rname in _INTEGERS
                             else "b" if rname == "uima.cas.Boolean" else None)
        return _Kind(tname, span, read, "sofa" in attributes, attributes, children,
                     tuple(names), tuple(xml), tuple(kinds))


def _codes(ts: Any, feat: Any) -> tuple[str, str | None]:
    """How cassis parses a feature's value: as an attribute (``S``ofa reference,
    ``s``tring, ``i``nteger, ``f``loat, ``b``oolean, ``n``o value allowed (a restricted string
    type, which cassis refuses), an inline array ``a*`` or list ``l*`` of those, a reference
    ``r`` or references ``R``) and as child elements (None: not allowed)."""
    rtype = feat.rangeType
    rname = rtype.name
    single = not feat.multipleReferencesAllowed
    if feat.name == "sofa":
        return "S", None
    if ts.is_primitive(rtype):
        return ("s" if rname == "uima.cas.String" else "i" if rname in _INTEGERS
                else "f" if rname in _FLOATS else "b" if rname == "uima.cas.Boolean"
                else "n"), None
    if rname in _ARRAYS and single:
        code = "a" + _ARRAYS[rname]
        return code, ""  # child elements are kept as they are
    if rname in _LISTS and single:
        code = "l" + _LISTS[rname]
        return code, code
    if rname == "uima.cas.FSArray" and single:
        return "R", None
    if rname == "uima.cas.FSList" and single:
        return "R", "R"
    return "r", None


def _boolean(raw: str) -> bool:
    if raw == "true":
        return True
    if raw == "false":
        return False
    raise ValueError(raw)


def _check(code: str, raw: Any, refs: list[str]) -> None:
    """Check one value (an attribute's text, or the texts of child elements) as cassis parses
    it: ValueError or TypeError where it would refuse it; references are kept in ``refs``
    (checked once every xmi:id is known)."""
    if not code or code == "s":
        return
    if code in ("i", "f", "b"):
        (int if code == "i" else float if code == "f" else _boolean)(raw)
    elif code in ("r", "S"):
        refs.append(raw)
    elif code == "R":
        refs.extend(raw.split() if isinstance(raw, str) else raw)
    elif code == "n":
        raise ValueError(raw)
    else:  # an array or list of primitives
        items = raw.split() if isinstance(raw, str) else raw
        kind = code[1]
        if kind == "x":
            bytearray.fromhex(raw)
        elif kind == "e":
            if items:  # cassis wants a string array's elements as child elements
                raise ValueError(raw)
        elif kind != "s" and (code[0] == "l" or raw):
            for item in items:
                _check(kind, item, refs)


def _canonical(raw: str | None) -> bool:
    """An xmi:id as UIMA writes it (digits, no leading zero): such ids are equal as text
    exactly when cassis's ``int()`` of them are."""
    return raw is not None and raw.isascii() and raw.isdigit() and (raw == "0" or raw[0] != "0")


_MEMBERS = re.compile(r"((0|[1-9][0-9]*)( (0|[1-9][0-9]*))*)?", re.ASCII)
"""A view's members as UIMA writes them (ids without leading zeros, one space apart)."""
_IDS = re.compile("((0|[1-9][0-9]*)(\0(0|[1-9][0-9]*))*)?", re.ASCII)
"""xmi:ids as UIMA writes them, joined by NUL (which no XML 1.0 attribute holds)."""


def _key(raw: str | None) -> str:
    """An xmi:id (or a reference to one) as the key cassis gives it (``int()``: ``"07"`` and
    ``"7"`` are one id), written as UIMA writes ids; ValueError or TypeError when cassis would
    refuse it."""
    return raw if raw is not None and _canonical(raw) else str(int(raw))  # type: ignore[arg-type]


def _python_offsets(text: str | None) -> dict[int, int] | None:
    """UIMA's offsets count UTF-16 code units; for a text with characters beyond the Basic
    Multilingual Plane (two units each), the string offset of each unit offset that starts a
    character, as cassis maps them (an offset inside such a character, or past the text, is
    kept as it is); None when the two agree."""
    if not text or max(text) <= "\uffff":
        return None
    units = [0, *itertools.accumulate(2 if c > "\uffff" else 1 for c in text)]
    return dict(zip(units, range(len(units)), strict=True))


@dataclass
class _Parsed:
    """The parts of one XMI: its sofas by xmi:id in file order (sofaID, sofaString), each
    view's members by the xmi:id of its sofa, the xmi:id of every feature structure, and the
    annotations of the types read by xmi:id (kind, element, begin, end)."""

    sofas: dict[str, tuple[str, str | None]]
    views: dict[str, list[str]]
    ids: set[str]
    read: dict[str, tuple[_Kind, Any, int, int]]


def _parse(root: Any, types: _Types, written: bool = True) -> _Parsed | str:
    """Every element of an XMI's root checked as cassis's deserializer checks it, or why the
    file is refused (:data:`REFUSALS`). ``written``: take the elements' xmi:ids as UIMA writes
    them (checked at the end, all at once: else the file is parsed again, each id read as
    cassis reads it)."""
    parsed = _Parsed({}, {}, set(), {})
    refs: list[str] = []
    sofa_refs: set[str] = set()
    try:
        for el in root:
            tag = el.tag
            if not isinstance(tag, str):  # a comment or processing instruction
                continue
            if tag in (_SOFA_TAG, _VIEW_TAG):
                reason = _sofa_or_view(el, parsed)
            else:
                kind = types.by_tag.get(tag) or types[tag]
                reason = (kind if isinstance(kind, str)
                          else _feature_structure(el, kind, parsed, refs, sofa_refs, written))
            if reason is not None:
                return reason
        if written and not _IDS.fullmatch("\0".join(parsed.ids)):
            return _parse(root, types, written=False)
        if not parsed.ids.issuperset(refs) and not parsed.ids.issuperset(map(_key, refs)):
            return "ids"
        sofas = parsed.sofas
        if not sofa_refs.issubset(sofas) and not sofas.keys() >= set(map(_key, sofa_refs)):
            return "sofa"
    except (ValueError, TypeError):  # what cassis refuses
        return "values"
    names = [sofa_id for sofa_id, _ in parsed.sofas.values() if sofa_id != _INITIAL_VIEW]
    if len(set(names)) != len(names):
        return "views"
    return parsed


def _sofa_or_view(el: Any, parsed: _Parsed) -> str | None:
    """A ``cas:Sofa`` or ``cas:View`` element kept in ``parsed``, or why it is refused."""
    if any(isinstance(c.tag, str) for c in el):
        return "markup"
    if el.tag == _VIEW_TAG:
        listed = el.get("members") or ""
        members = listed.split()
        if not _MEMBERS.fullmatch(listed) and not all(map(_canonical, members)):
            members = [_key(m) for m in members]
        parsed.views[_key(el.get("sofa"))] = members
        return None
    xmi_id, sofa_id, number = el.get(_XMI_ID), el.get("sofaID"), el.get("sofaNum")
    if (not _SOFA_ATTRIBUTES.issuperset(el.keys()) or xmi_id is None or sofa_id is None
            or number is None):
        return "sofa"
    int(number)
    parsed.sofas[_key(xmi_id)] = (sofa_id, el.get("sofaString"))
    return None


def _feature_structure(el: Any, kind: _Kind, parsed: _Parsed, refs: list[str],
                       sofa_refs: set[str], written: bool) -> str | None:
    """A feature structure's element checked (its references kept in ``refs`` and
    ``sofa_refs``), and kept in ``parsed`` when its type is read; or why it is refused."""
    xmi_id = el.get(_XMI_ID)
    if xmi_id is None:
        return "ids"
    if not written:
        xmi_id = _key(xmi_id)
    if xmi_id in parsed.ids:  # as in cassis, the last element of an xmi:id is the one
        parsed.read.pop(xmi_id, None)
    parsed.ids.add(xmi_id)
    keys = tuple(el.keys())
    plan = kind.plans.get(keys) or kind.plan(keys)
    if isinstance(plan, str):
        return plan
    for name, code in plan:
        if code == "S":
            sofa_refs.add(el.get(name))
        else:
            _check(code, el.get(name), refs)
    if len(el):
        reason = _children(el, kind, refs)
        if reason is not None:
            return reason
    if kind.span:
        begin, end = int(el.get("begin", 0)), int(el.get("end", 0))
        if kind.read:
            parsed.read[xmi_id] = (kind, el, begin, end)
    return None


class _OneValue(str):
    """The reason ``"single"`` (:data:`REFUSALS`) with where it is: the line of the first
    child element, the feature, its type, how many child elements it has and the kind of its
    value (:func:`_codes`)."""

    line: int | None
    feature: str
    type_name: str
    elements: int
    code: str

    def __new__(cls, child: Any, kind: _Kind, count: int, code: str) -> _OneValue:
        self = super().__new__(cls, "single")
        self.line, self.feature, self.type_name = child.sourceline, child.tag, kind.name
        self.elements, self.code = count, code
        return self

    def message(self) -> str:
        what = {"s": "String", "i": "integer", "f": "floating-point number",
                "b": "Boolean"}[self.code]
        owner = self.type_name.rsplit(".", 1)[-1]
        if self.elements > 1:
            return (f"{owner} holds one {what} in this feature, written here as {self.elements} "
                    f"child elements <{self.feature}>; UIMA XMI allows one (dkpro-cassis reads "
                    f'them as a list): keep one, or write {self.feature}="..." as an attribute')
        return (f"{owner} holds one {what} in this feature, written here as a child element "
                f"<{self.feature}>; UIMA XMI writes numbers and booleans as attributes "
                f'(dkpro-cassis refuses this one): write {self.feature}="..."')


_CHILD_VALUES = ("s", "i", "f", "b")
"""The kinds of single values (:func:`_codes`) that may be written as a child element."""


def _children(el: Any, kind: _Kind, refs: list[str]) -> str | None:
    """The child elements of a feature structure (an array or list feature written as one
    element per item) checked, or why they are refused.

    A String feature written as one child element (``<value>ORG</value>``) is read as the
    attribute ``value="ORG"``: UIMA's ``XmiCasDeserializer`` reads a single-valued feature's
    child element so and refuses two of them (``multiple_values_unexpected``); dkpro-cassis
    keeps the element's text in a one-element list. Two child elements (which cassis keeps as
    a list), or one for a number or a boolean (which cassis refuses), are refused with a
    message that names the line and the feature (:class:`_OneValue`)."""
    texts: dict[str, list[str | None]] = {}
    first: dict[str, Any] = {}
    for child in el:
        if not isinstance(child.tag, str):
            continue
        if any(isinstance(c.tag, str) for c in child):
            return "markup"
        texts.setdefault(child.tag, []).append(child.text)
        first.setdefault(child.tag, child)
    for name, values in texts.items():
        code = kind.children.get(name)
        if code is None and name not in el.attrib and kind.attributes.get(name) in _CHILD_VALUES \
                and not (kind.span and name in ("begin", "end")):
            single = kind.attributes[name]
            if single != "s" or len(values) > 1:
                return _OneValue(first[name], kind, len(values), single)
            el.set(name, values[0] or "")
            continue
        if code is None or name in el.attrib:
            return "features"
        _check(code, values, refs)
    return None


def _extract_fast(data: bytes, types: _Types) -> _Extract | str:
    """The :class:`_Extract` of one XMI parsed with lxml, as dkpro-cassis's
    ``load_cas_from_xmi`` and ``select_all_annotations`` give it, or why the file is refused
    (:data:`REFUSALS`): a file cassis refuses is refused. The tests compare the two on
    hand-made, generated and damaged files (``tests/formats/test_xmi_*.py``).

    Every element is checked as cassis checks it (types, attributes, child elements, values,
    references, views), but only the annotations of the types read become records. As in
    cassis, the text is that of the sofa named ``_InitialView`` (the last one, None when there
    is none), its annotations are the members of that sofa's view, in their order, a member
    listed twice counts twice, and each annotation's offsets are turned from UTF-16 code units
    into string offsets by the text of every view that lists it, one view after the other in
    the order of the sofas."""
    from lxml import etree

    try:
        root = etree.fromstring(data, etree.XMLParser(huge_tree=False))
    except etree.XMLSyntaxError:
        return "syntax"
    if root.tag != _XMI_TAG:
        return "markup"
    parsed = _parse(root, types)
    if isinstance(parsed, str):
        return parsed
    text: str | None = None
    members: list[str] = []
    moved: dict[str, tuple[int, int]] = {}  # offsets some view's text has mapped
    read = parsed.read
    for sofa_xmi_id, (sofa_id, sofa_text) in parsed.sofas.items():
        listed = parsed.views.get(sofa_xmi_id, [])
        if not parsed.ids.issuperset(listed):
            return "ids"
        at = _python_offsets(sofa_text)
        if at is not None:
            for member in listed:
                found = read.get(member)
                if found is not None:
                    begin, end = moved.get(member, found[2:])
                    moved[member] = (at.get(begin, begin), at.get(end, end))
        if sofa_id == _INITIAL_VIEW:
            text = sofa_text
            members.extend(listed)
    by_type: dict[str, tuple[tuple[str, ...], list[tuple[int, int, int, tuple[Any, ...]]]]] = {}
    layers: dict[str, list[str]] = {}
    relations: set[str] = set()
    ts = types.typesystem
    for member in members:
        found = read.get(member)
        if found is None:
            continue
        kind, el, begin, end = found
        if moved:
            begin, end = moved.get(member, (begin, end))
        entry = by_type.get(kind.name)
        if entry is None:
            entry = by_type[kind.name] = (kind.names, [])
            if not types.skipped(kind.name):
                _add_layer(ts, ts.get_type(kind.name), layers, relations)
        entry[1].append((begin, end, int(member), tuple(
            _value(k, el.get(x)) for x, k in zip(kind.xml, kind.kinds, strict=True))))
    for _, records in by_type.values():
        records.sort(key=lambda r: r[:3])
    return _Extract(text, layers, relations, ts, by_type)


def _value(kind: str | None, raw: str | None) -> Any:
    """A label feature's value as cassis gives it (checked already); None for a feature
    that is no label."""
    if raw is None or kind is None or kind == "s":
        return raw if kind == "s" else None
    return int(raw) if kind == "i" else raw == "true"


def _select(ex: _Extract, layer: str, feature: str | None, short: str, again: Any
            ) -> list[tuple[object, Any, Any]]:
    """``(label, begin, end)`` of ``cas.select(layer)`` (the type and its subtypes, in the
    library's order). A layer that subsumes a type left out of the extract (``Token``, ...)
    is selected from the extract of the file parsed again with those types (``again()``);
    the document annotation (and any type extending it) is never a span, even under
    ``uima.tcas.Annotation``. A file whose type system lacks the layer (another file's, read
    with another type system) has none of its annotations."""
    if not ex.typesystem.contains_type(layer):
        return []
    types = {t.name for t in ex.typesystem.get_type(layer).descendants}
    skipped = _Skipped(ex.typesystem)
    if any(skipped(t) for t in types):
        ex = again()
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
        cas_json = [p for p, data in files.items() if why_undetected_cas_json(data)]
        raise FormatError(name, "expected .xmi files with a TypeSystem.xml beside them, found "
                          "no .xmi file" + (f"; {cas_json[0]} is {UIMA_JSON_HINT}" if cas_json
                                            else ""))
    # One .xmi read from disk with its type system (core.formats.read_file_with_companions):
    # messages name the real files, not members of a folder.
    single = len(xmis) == 1 and PurePosixPath(name).name == PurePosixPath(xmis[0]).name
    notes: list[tuple[str, str | None]] = []
    cases, loaders = _load_cases(cassis, files, xmis, name, single, notes)
    for note, about in notes:
        loaded.warn(note, file=about)
    return read_cases(loaded, cases, loaders, name=name, options=options,
                      one_file=single or len(files) == 1)


def read_cases(loaded: Loaded, cases: Mapping[str, _Extract], loaders: Mapping[str, Any], *,
               name: str, options: ReadOptions, one_file: bool) -> Loaded:
    """The sets, texts and warnings of the CASes ``cases`` (one extract per file path, in the
    order of the paths; ``loaders[path]()`` gives the file's extract with the segmentation
    types) added to ``loaded``: the layer chosen over all of them, one set per annotator of
    INCEpTION's export layout. Shared by the XMI reader and the UIMA CAS JSON reader
    (:mod:`core.formats.uima_json`). ``one_file``: the input is one file, which messages name
    as ``name``."""
    paths = list(cases)
    choice, union = _choose_layer(cases, name, options, loaded)
    entries = layout([_layout_key(p) for p in paths], name, loaded)
    per_set: dict[str, SpanColumns] = {}
    roles: dict[str, Role] = {}
    first_of: dict[tuple[str, str], tuple[str, str]] = {}
    for path, entry in zip(paths, entries, strict=True):
        file = name if one_file else member_name(name, path)
        ex = cases[path]
        if entry.user == INITIAL_CAS:
            loaded.warn(f"{path}: INCEpTION's initial state of the document; skipped",
                        kind="skipped")
            continue
        set_name, role = export_set(
            entry.user,
            _input_stem(name),
            options.role)
        roles.setdefault(set_name, role)
        if entry.user is not None:
            loaded.named_sets.add(set_name)
        text = ex.text
        spans = _document_spans(ex, choice, union, loaders[path], file, options, loaded)
        if options.keep_tokens and text is not None and entry.doc_id not in (loaded.tokens or {}):
            sentences = _token_sentences(loaders[path](), text)
            if sentences:
                loaded.keep_tokens(entry.doc_id, sentences)
        columns = per_set.setdefault(set_name, SpanColumns())
        again = entry.doc_id in columns
        if again and first_of[(set_name, entry.doc_id)][1] != _layout_key(path):
            # Two different files read as one document of one annotator (two annotators laid
            # out as <annotator>/<folder>/<document>.xmi): never one in place of the other.
            raise FormatError(file, f"a second file for document {entry.doc_id!r} of annotator "
                              f"{set_name!r} (first: {first_of[(set_name, entry.doc_id)][0]}); a "
                              "folder is read as <document>/<annotator>.xmi (INCEpTION's "
                              "annotation/<document>/<user>.xmi): read each file on its own "
                              "or lay them out so")
        first_of[(set_name, entry.doc_id)] = (file, _layout_key(path))
        index = columns.document(entry.doc_id)
        if again:  # the same export file twice (a nested zip and its unpacked copy): the later
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


def _token_sentences(ex: _Extract, text: str) -> Sentences:
    """The CAS's own tokens (DKPro Core's ``Token`` annotations) by sentence (its ``Sentence``
    annotations), as ``(start, end)`` string offsets in ``text``: a token belongs to the
    sentence that covers it; tokens outside every sentence (or a CAS without sentences) are
    grouped by line of the text. ``ex`` is an extract with the segmentation types
    (``_Types(every=True)``). Empty when the CAS holds no tokens."""
    def records(short: str) -> list[tuple[int, int]]:
        found = sorted({(b, e) for tname, (_, recs) in ex.by_type.items()
                        if short_name(tname) == short for b, e, _, _ in recs})
        return [(b, e) for b, e in found if 0 <= b < e <= len(text)]

    tokens = records("Token")
    if not tokens:
        return []
    sentences = records("Sentence")
    out: Sentences = []
    current: tuple[str, int] | None = None  # the sentence, or the line, of the last token
    for begin, end in tokens:
        at = bisect.bisect_right(sentences, (begin, len(text) + 1)) - 1
        where = (("sentence", at) if at >= 0 and sentences[at][1] >= end
                 else ("line", text.rfind("\n", 0, begin)))
        if where != current:
            out.append([])
            current = where
        out[-1].append((begin, end))
    return out


def _load_cases(cassis: Any, files: Mapping[str, bytes], xmis: list[str], name: str,
                single: bool, notes: list[tuple[str, str | None]]
                ) -> tuple[dict[str, _Extract], dict[str, Any]]:
    """Each ``.xmi`` parsed with its type system (each type system parsed once): its extract,
    and a function that parses it again with the segmentation and metadata types
    (:func:`_select` needs them for a layer that subsumes them). A type system found away
    from the ``.xmi`` files (:func:`_elsewhere`), or beside a file that the folder's
    ``TypeSystem.xml`` does not describe (:func:`_type_system_beside`), adds its note to
    ``notes`` (with the file it is about, None for the input)."""
    typesystems: dict[str, Any] = {}
    described: dict[str, tuple[_Types, _Types]] = {}
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
            if ELSEWHERE not in ts_of_folder:  # looked up once: it depends on the input only
                away = _elsewhere(cassis, files, xmls, name, file)
                ts_of_folder[ELSEWHERE] = None if away is None else away[0]
                if away is not None:
                    notes.append((away[1], None))
            ts_path = ts_of_folder[ELSEWHERE]
        if ts_path is None:
            raise FormatError(file, "no type system: put TypeSystem.xml (INCEpTION writes it "
                              "with every XMI export) beside the .xmi file and read the folder "
                              "or zip")
        ts_file = (posixpath.normpath(posixpath.join(posixpath.dirname(name), ts_path))
                   if single else member_name(name, ts_path))
        if ts_path not in typesystems:
            try:
                typesystems[ts_path] = cassis.load_typesystem(decode(ts_file, files[ts_path]))
            except Exception as exc:  # lxml and cassis raise many types for a bad file
                raise FormatError(ts_file, f"expected a UIMA type system: {type(exc).__name__}: "
                                  f"{str(exc)[:100]}") from None

        if ts_path not in described:
            described[ts_path] = (_Types(typesystems[ts_path]),
                                  _Types(typesystems[ts_path], every=True))
        data = decode(file, files[path]).encode("utf-8")
        fast = _extract_fast(data, described[ts_path][0])
        if fast == "types":
            beside = _type_system_beside(cassis, files, xmls, ts_path, data, name, described)
            if beside is not None:
                notes.append((f"read with the type system {posixpath.basename(beside)} beside "
                              f"it ({posixpath.basename(ts_path)} lacks some of its types)",
                              file))
                ts_path = beside
                fast = _extract_fast(data, described[ts_path][0])
        if isinstance(fast, str):
            _refused(cassis, data, typesystems[ts_path], fast, file, ts_file)
        cases[path] = fast

        def again(data: bytes = data, types: _Types = described[ts_path][1]) -> _Extract:
            found = _extract_fast(data, types)
            assert isinstance(found, _Extract)  # the same checks passed
            return found

        loaders[path] = again
    return cases, loaders


def _type_system_beside(cassis: Any, files: Mapping[str, bytes], xmls: list[str], chosen: str,
                        data: bytes, name: str,
                        described: dict[str, tuple[_Types, _Types]]) -> str | None:
    """Another type system in the folder of ``chosen`` (the one read, which lacks a type of
    the ``.xmi`` file ``data``) under which the file reads, or None. A folder may hold the type
    systems of several pipelines (catalpa-cl/cas-visualizer's ``data/``: ``TypeSystem.xml`` and
    ``dakoda_typesystem.xml``); ``TypeSystem.xml`` is tried first, then the others by name.
    Each is loaded once (``described``); a broken one is passed over."""
    folder = posixpath.dirname(chosen)
    for other in sorted(p for p in xmls if p != chosen and posixpath.dirname(p) == folder
                        and b"<typeSystemDescription" in files[p][:4096]):
        if other not in described:
            try:
                ts = cassis.load_typesystem(decode(member_name(name, other), files[other]))
            except Exception:  # lxml and cassis raise many types for a bad file
                continue
            described[other] = (_Types(ts), _Types(ts, every=True))
        if isinstance(_extract_fast(data, described[other][0]), _Extract):
            return other
    return None


def _refused(cassis: Any, data: bytes, typesystem: Any, reason: str, file: str,
             ts_file: str) -> NoReturn:
    """Raise the error for a file :func:`_extract_fast` refused: counted in :data:`FALLBACKS`,
    then parsed by ``cassis.load_cas_from_xmi`` only to say what is wrong, in its words (the
    CAS it builds is never read). A file cassis reads is a file SpanScope should read too:
    the error says so, and that it is a bug of SpanScope's, rather than give cassis's reading
    (issue 25: one path gives the data)."""
    FALLBACKS[reason] += 1
    if isinstance(reason, _OneValue):
        # cassis reads several Strings as a list and refuses a number or boolean with a
        # message that names neither the feature nor the line: say both
        raise FormatError(file, reason.message(), line=reason.line, field=reason.feature)
    try:
        cassis.load_cas_from_xmi(data.decode("utf-8"), typesystem=typesystem)
    except Exception as exc:  # lxml and cassis raise many types for a bad file
        undeclared = re.fullmatch(r"Type with name \[([^\]]+)\] not found!", str(exc))
        if type(exc).__name__ == "TypeNotFoundError" and undeclared is not None:
            _undeclared_type(data, undeclared.group(1), file, ts_file)
        raise FormatError(file, f"expected UIMA CAS XMI: {type(exc).__name__}: "
                          f"{str(exc)[:100]}") from None
    raise FormatError(file, f"SpanScope's XMI reader refused this file ({REFUSALS[reason]}), "
                      "but dkpro-cassis reads it: this is a bug in SpanScope; please report it "
                      "with the file and its type system")


def _undeclared_type(data: bytes, type_name: str, file: str, ts_file: str) -> NoReturn:
    """Refuse a file using a type its type system does not declare, naming the type, the line
    of its first element and the type system read. The usual cause is a type system that is not
    the one the file was written with: a folder of XMI files from several pipelines beside one
    ``TypeSystem.xml`` (linguistic-features-in-text's ``py_lift/data``, whose MATE-parsed files
    use ``custom.bohnet.POS``), or a file copied without its own."""
    package, _, short = type_name.rpartition(".")
    namespace = "http:///" + package.replace(".", "/") + ".ecore"
    line = None
    element = short
    prefix = re.search(rb'xmlns:([\w.-]+)="' + re.escape(namespace.encode()) + rb'"', data)
    if prefix is not None:
        element = f"{prefix.group(1).decode()}:{short}"
        first = re.search(rb"<" + re.escape(element.encode()) + rb"[\s/>]", data)
        if first is not None:
            line = data.count(b"\n", 0, first.start()) + 1
    raise FormatError(file, f"its <{one_line(element)[:80]}> elements have the type "
                      f"{one_line(type_name)[:120]}, which the type system {ts_file} does not "
                      "declare; put the TypeSystem.xml the file was written with beside it "
                      "(INCEpTION and DKPro write the two together), or add the type to "
                      f"{ts_file}", line=line)


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
                    "INCEpTION sets to those of its Dependent", kind="layer-choice")
    elif options.layer is None:
        linking = {k: v for k, v in union.items() if k in relations
                   and short_name(k) not in LINGUISTIC}
        if linking:
            loaded.warn(f"relation layers skipped (they link two spans): {describe(linking)}; "
                        "name one with --layer to read its annotations as spans", kind="skipped")
    return choice, union


def _document_spans(ex: _Extract, choice: Choice | None, union: Mapping[str, list[str]], load: Any,
                    file: str, options: ReadOptions, loaded: Loaded
                    ) -> list[tuple[int, int, str]]:
    """The spans of one file's chosen layer, checked (empty, past the text, labels list,
    whitespace), with a warning for the annotations without a value and for duplicates."""
    text = ex.text
    spans: list[tuple[int, int, str]] = []
    empty = 0
    zero_width: list[int] = []
    if choice is not None:
        selected = (_select(ex, choice.layer, choice.feature, choice.short, load)
                    if choice.layer in union else [])
        for label, raw_begin, raw_end in selected:
            if label is None or label == "":
                empty += 1
                continue
            begin, end = int(raw_begin), int(raw_end)
            if end <= begin:
                zero_width.append(begin)
                continue
            if end >= 10**MAX_OFFSET_DIGITS:  # a CAS without text: nothing else bounds it
                raise FormatError(file, f"expected an offset of at most {MAX_OFFSET_DIGITS} "
                                  f"digits, got {end}", field="end")
            if text is not None and end > len(text) and options.beyond_text == "refuse":
                # The one policy for spans past the text (core.model.bounds), as make_span does.
                raise FormatError(file, bounds.past_text(len(text), end), field="end")
            span = Span(begin, end, str(label))
            check_label(span.label, options.labels, file, field=choice.feature or "layer")
            for message, _ in span_warnings(span, text):
                loaded.warn(message, file=file, field=choice.feature)
            spans.append((span.start, span.end, span.label))
    if len(zero_width) == 1 and choice is not None:
        loaded.warn(f"an empty {choice.short} annotation at {zero_width[0]}; skipped", file=file,
                    kind="skipped")
    elif zero_width and choice is not None:
        # One warning per file: a TEI-derived corpus has a thousand empty markers per text.
        at = ", ".join(str(b) for b in zero_width[:5]) + (", ..." if len(zero_width) > 5 else "")
        loaded.warn(f"{len(zero_width)} empty {choice.short} annotations (begin = end) "
                    f"skipped, at {at}", file=file, kind="skipped")
    if empty:
        loaded.warn(f"{empty} {choice.short if choice else ''} annotations have no value for "
                    f"feature {choice.feature if choice else ''}; skipped", file=file,
                    kind="skipped")
    for s, e, lab in duplicates(spans):
        loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once; kept", file=file,
                    kind="duplicate-span")
    return spans


def _input_stem(name: str) -> str:
    """The input's name without its folder and its ``.xmi``, ``.json`` or ``.zip`` suffix."""
    base = PurePosixPath(name.rstrip("/")).name
    for suffix in (".xmi", ".json"):
        if base.lower().endswith(suffix):
            base = base[: -len(suffix)]
            break
    return base.removesuffix(".zip")


def _layout_key(path: str) -> str:
    """The path that names document and annotator: ``annotation/d/alice/alice.xmi`` (a nested
    zip ``annotation/d/alice.zip`` unpacked) counts as ``annotation/d/alice.tsv``, and so does
    ``annotation/d/alice.json`` (a UIMA CAS JSON export)."""
    p = PurePosixPath(path)
    stem = p.stem
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
