"""UIMA CAS JSON: the JSON serialization of a UIMA CAS, read as the XMI reader reads a CAS.

Two layouts are in use, and both are read:

* the UIMA JSON CAS format 0.4 (keys ``%TYPES``, ``%FEATURE_STRUCTURES``, ``%VIEWS``), which
  INCEpTION exports as "UIMA CAS JSON" and UIMA 3's ``uimaj-io-jsoncas`` and dkpro-cassis
  write. It is loaded with ``cassis.load_cas_from_json`` (Klie & Eckart de Castilho,
  dkpro-cassis), with the type system the file embeds under ``%TYPES``; cassis turns the
  offsets, which count UTF-16 code units as Java does, into string offsets.
* the older layout of UIMA 2's ``JsonCasSerializer`` (keys ``_context``, ``_views``,
  ``_referenced_fss``), which WebAnno 3 and DKPro Core export as "UIMA CAS JSON". No library
  reads it back (the Java serializer has no deserializer), so it is read here: the sofa text
  is the ``sofaString`` of the ``_InitialView`` sofa in ``_referenced_fss``; the annotations
  are the feature structures of the ``_InitialView`` view, grouped by their type's short name,
  each an object or the id of one in ``_referenced_fss``; a ``begin`` (or ``end``) of 0 is
  left out of the file, as every feature at its default is; the types that extend
  ``Annotation`` are those below it in the ``_subtypes`` of ``_context``, or, when the
  context is left out, those whose records have an ``end``; a type's full name is its
  ``_id`` in the context, else the one its ``TagsetDescription`` names (WebAnno writes one
  per layer), else its short name. Offsets count UTF-16 code units, as in XMI. Features that
  can carry a label are those whose values are strings, integers or booleans (the context
  lists only the features that hold references or arrays, as ``_ref`` or ``_array``).

Span layers, their default and ``--layer`` / ``--feature``, segmentation types, relation
layers, the export layout (``annotation/<document>/<user>.json`` gives one set per annotator),
empty and duplicate annotations and spans past the text are those of the XMI reader
(:func:`core.formats.xmi.read_cases`), so that an XMI and a JSON of one CAS read to the same
spans (``tests/formats/test_uima_json.py``).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Mapping
from typing import Any

from core.formats import Loaded, ReadOptions, decode
from core.formats._common import member_name
from core.formats._sniff import is_cas_json
from core.formats.archive import check_binary_cas_export
from core.formats.xmi import (
    _LABEL_TYPES,
    DOCUMENT_ANNOTATION,
    _add_layer,
    _Extract,
    _import_cassis,
    _python_offsets,
    _Skipped,
    read_cases,
)
from core.model.errors import FormatError
from core.model.textsafe import MAX_OFFSET_DIGITS, one_line

FORMAT = "uima-json"
_INITIAL_VIEW = "_InitialView"
_ANNOTATION = "uima.tcas.Annotation"
_OFFSETS = ("sofa", "begin", "end")
_NEW_KEYS = ("%TYPES", "%FEATURE_STRUCTURES", "%VIEWS")
_LABEL_VALUES = {str: "uima.cas.String", int: "uima.cas.Integer", bool: "uima.cas.Boolean"}
_SAFE_NAME = re.compile(r"[A-Za-z_][\w.]*", re.ASCII)

Records = list[tuple[int, int, int, tuple[Any, ...]]]


def sniff(filename: str, head: str) -> int:
    """95 for a file whose first key is a UIMA CAS JSON key (:func:`is_cas_json`)."""
    return 95 if is_cas_json(head) else 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one UIMA CAS JSON file, or a folder or zip of them (INCEpTION's export layout).

    cassis's warnings (an offset inside a character, a feature named ``self`` or ``type``
    renamed) are silenced as in the XMI reader; spans past the text follow
    :mod:`core.model.bounds`."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module=r"cassis(\.|$)")
        return _read(files, name=name, options=options)


def _read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    paths = sorted(p for p, data in files.items()
                   if p.lower().endswith(".json") and is_cas_json(_text_head(data)))
    if not paths:
        check_binary_cas_export(files, name)
        raise FormatError(name, "expected UIMA CAS JSON files (first key %TYPES, "
                          "%FEATURE_STRUCTURES, _context or _views), found none")
    one_file = len(files) == 1
    cases: dict[str, _Extract] = {}
    for path in paths:
        file = name if one_file else member_name(name, path)
        cases[path] = extract(decode(file, files[path]), file)
    loaders = {path: (lambda ex=ex: ex) for path, ex in cases.items()}
    return read_cases(Loaded(FORMAT, name), cases, loaders, name=name, options=options,
                      one_file=one_file)


def _text_head(data: bytes) -> str:
    return data[:4096].decode("utf-8", "replace")


def extract(text: str, file: str) -> _Extract:
    """The :class:`~core.formats.xmi._Extract` of one UIMA CAS JSON file's text: its sofa text,
    its span layers and the annotations of every annotation type, offsets in characters."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(file, f"expected UIMA CAS JSON: {exc.msg}", line=exc.lineno) from None
    if not isinstance(data, dict):
        raise FormatError(file, f"expected UIMA CAS JSON, an object; got a JSON "
                          f"{type(data).__name__}")
    if any(key in data for key in _NEW_KEYS):
        return _from_cas(_load_json_cas(text, data, file), file)
    return _Legacy(data, file).extract()


def _load_json_cas(text: str, data: dict[str, Any], file: str) -> Any:
    """The CAS of a UIMA JSON CAS 0.4 file, loaded by dkpro-cassis with its embedded types."""
    if not isinstance(data.get("%TYPES"), dict):
        raise FormatError(file, "expected UIMA CAS JSON 0.4 with its type system under %TYPES "
                          "(INCEpTION and dkpro-cassis write it); this file has none",
                          field="%TYPES")
    # cassis reads these two without a look at their shape: its messages name no field
    views, structures = data.get("%VIEWS"), data.get("%FEATURE_STRUCTURES")
    if not isinstance(views, dict):
        got = "nothing" if views is None else f"a JSON {type(views).__name__}"
        raise FormatError(file, f"expected an object (each view's sofa and members), got {got}",
                          field="%VIEWS")
    if structures is not None and not isinstance(structures, list):
        raise FormatError(file, "expected a list of feature structures, got a JSON "
                          f"{type(structures).__name__}", field="%FEATURE_STRUCTURES")
    cassis = _import_cassis()
    try:
        return cassis.load_cas_from_json(text)
    except Exception as exc:  # cassis raises many types for a bad file
        # cassis sorts and hashes the annotations by their offsets as it loads them: an offset
        # that is a string, null, a list raised its TypeError here, naming no field (review19)
        _check_offsets(structures or [], file)
        raise FormatError(file, f"expected UIMA CAS JSON: {type(exc).__name__}: "
                          f"{one_line(str(exc))[:160]}") from None


def _from_cas(cas: Any, file: str) -> _Extract:
    """The extract of a cassis CAS: the ``_InitialView``'s text and the annotations of every
    annotation type in it, with the values of the features that can carry a label. cassis
    takes a ``begin`` or ``end`` as the file gives it: one that is no whole number of 0 or more
    is refused here, naming the feature structure by its ``%ID``."""
    ts = cas.typesystem
    view = cas.get_view(_INITIAL_VIEW)
    skipped = _Skipped(ts)
    by_type: dict[str, tuple[tuple[str, ...], Records]] = {}
    layers: dict[str, list[str]] = {}
    relations: set[str] = set()
    for fs in view.select_all_annotations():
        tname = fs.type.name
        # The document annotation covers the whole text: never a span, as in the XMI reader.
        if not ts.subsumes(_ANNOTATION, tname) or ts.subsumes(DOCUMENT_ANNOTATION, tname):
            continue
        entry = by_type.get(tname)
        if entry is None:
            feats = [f for f in fs.type.all_features
                     if f.name not in _OFFSETS and f.rangeType.name in _LABEL_TYPES]
            entry = by_type[tname] = (tuple(f.name for f in feats), [])
            if not skipped(tname):
                _add_layer(ts, fs.type, layers, relations)
        for key in ("begin", "end"):
            _check_offset(getattr(fs, key), file, f"%FEATURE_STRUCTURES[%ID {fs.xmiID}].{key}")
        entry[1].append((fs.begin, fs.end, fs.xmiID, tuple(fs.get(f) for f in entry[0])))
    for _, records in by_type.values():
        records.sort(key=lambda r: r[:3])
    return _Extract(view.sofa_string, layers, relations, ts, by_type)


class _Legacy:
    """One file of UIMA 2's ``JsonCasSerializer`` layout (WebAnno 3's "UIMA CAS JSON")."""

    def __init__(self, data: dict[str, Any], file: str) -> None:
        self.file = file
        self.context = self._object(self._object(data.get("_context"), "_context").get(
            "_types"), "_context._types")
        self.views = self._object(data.get("_views"), "_views")
        self.referenced = self._object(data.get("_referenced_fss"), "_referenced_fss")

    def _object(self, found: Any, field: str) -> dict[str, Any]:
        """``found`` when it is a JSON object, ``{}`` when it is missing, else an error."""
        if found is None:
            return {}
        if not isinstance(found, dict):
            raise FormatError(self.file, f"expected an object, got a JSON {type(found).__name__}",
                              field=field)
        return found

    def extract(self) -> _Extract:
        text = self._sofa_text()
        view = self._object(self.views.get(_INITIAL_VIEW), "_views._InitialView")
        records = {short: self._records(short, fss) for short, fss in view.items()}
        annotations = self._annotation_types(records)
        full = self._full_names(records)
        cassis = _import_cassis()
        ts = cassis.TypeSystem()
        by_type: dict[str, tuple[tuple[str, ...], Records]] = {}
        at = _python_offsets(text)
        for short, fss in records.items():
            if annotations.get(short, DOCUMENT_ANNOTATION) == DOCUMENT_ANNOTATION:
                continue  # not an annotation, or the document annotation (never a span)
            names = _label_features(fss, self._non_labels(short))
            tname, declared = self._declare(ts, full[short], names, fss)
            rows: Records = []
            for index, fs in enumerate(fss):
                begin, end = self._offsets(fs, short, index)
                if at is not None:
                    begin, end = at.get(begin, begin), at.get(end, end)
                rows.append((begin, end, index, tuple(fs.get(n) for n in names)))
            rows.sort(key=lambda r: r[:3])
            by_type[tname] = (declared, rows)
        skipped = _Skipped(ts)
        layers: dict[str, list[str]] = {}
        relations: set[str] = set()
        for tname in by_type:
            if not skipped(tname):
                _add_layer(ts, ts.get_type(tname), layers, relations)
        return _Extract(text, layers, relations, ts, by_type)

    def _sofa_text(self) -> str | None:
        """The ``sofaString`` of the ``_InitialView`` sofa (the only sofa, when none is named)."""
        sofas = [fs for fs in self.referenced.values()
                 if isinstance(fs, dict) and fs.get("_type") == "Sofa"]
        named = [fs for fs in sofas if fs.get("sofaID") == _INITIAL_VIEW]
        chosen = named or (sofas if len(sofas) == 1 else [])
        if not chosen:
            return None
        text = chosen[-1].get("sofaString")
        if text is not None and not isinstance(text, str):
            raise FormatError(self.file, f"expected a string, got a JSON {type(text).__name__}",
                              field="_referenced_fss.sofaString")
        return text

    def _records(self, short: str, fss: Any) -> list[dict[str, Any]]:
        """The feature structures of one type in the view: inline objects, or ids of objects
        in ``_referenced_fss``."""
        if not isinstance(fss, list):
            raise FormatError(self.file, f"expected a list, got a JSON {type(fss).__name__}",
                              field=f"_views._InitialView.{short}")
        out = []
        for index, fs in enumerate(fss):
            if isinstance(fs, int) and not isinstance(fs, bool):
                fs = self.referenced.get(str(fs))
            if not isinstance(fs, dict):
                raise FormatError(self.file, "expected a feature structure (an object or the id "
                                  "of one in _referenced_fss), got "
                                  f"{one_line(json.dumps(fs))[:60]}",
                                  field=f"_views._InitialView.{short}[{index}]")
            out.append(fs)
        return out

    def _ancestors(self, short: str) -> set[str]:
        """The types above ``short`` in the context's ``_subtypes`` lists."""
        parents: dict[str, str] = {}
        for name, info in self.context.items():
            subs = info.get("_subtypes") if isinstance(info, dict) else None
            if subs is not None and not isinstance(subs, list):
                raise FormatError(self.file, "expected a list of type names, got a JSON "
                                  f"{type(subs).__name__}",
                                  field=f"_context._types.{name}._subtypes")
            for sub in subs or []:
                parents.setdefault(str(sub), name)
        found: set[str] = set()
        while short in parents and parents[short] not in found:
            short = parents[short]
            found.add(short)
        return found

    def _annotation_types(self, records: Mapping[str, list[dict[str, Any]]]) -> dict[str, str]:
        """The annotation types among the view's types, each with the UIMA type it extends
        (the document annotation, or ``uima.tcas.Annotation``)."""
        out = {}
        for short, fss in records.items():
            above = self._ancestors(short)
            if "DocumentAnnotation" in above or short == "DocumentAnnotation":
                out[short] = DOCUMENT_ANNOTATION
            elif "Annotation" in above or (not above and any("end" in fs for fs in fss)):
                out[short] = _ANNOTATION
        return out

    def _full_names(self, records: Mapping[str, list[dict[str, Any]]]) -> dict[str, str]:
        """Each type's full name: ``_id`` in the context, else the layer a
        ``TagsetDescription`` names with that short name (when one only), else the short
        name; a full name another type of the view took already leaves the short name (two
        types under one name lost the first's annotations)."""
        tagsets: dict[str, set[str]] = {}
        for fs in records.get("TagsetDescription", []):
            layer = fs.get("layer")
            if isinstance(layer, str) and _SAFE_NAME.fullmatch(layer):
                tagsets.setdefault(layer.rsplit(".", 1)[-1], set()).add(layer)
        out: dict[str, str] = {}
        for short in records:
            info = self.context.get(short)
            given = info.get("_id") if isinstance(info, dict) else None
            if isinstance(given, str) and _SAFE_NAME.fullmatch(given):
                full = given
            elif len(tagsets.get(short, ())) == 1:
                (full,) = tagsets[short]
            else:
                full = short
            out[short] = short if full != short and full in out.values() else full
        return out

    def _non_labels(self, short: str) -> set[str]:
        """The features the context types as references or arrays (``_ref``, ``_array``)."""
        info = self.context.get(short)
        types = info.get("_feature_types") if isinstance(info, dict) else None
        return set(types) if isinstance(types, dict) else set()

    def _offsets(self, fs: dict[str, Any], short: str, index: int) -> tuple[int, int]:
        begin, end = fs.get("begin", 0), fs.get("end", 0)
        for key, value in (("begin", begin), ("end", end)):
            _check_offset(value, self.file, f"_views._InitialView.{short}[{index}].{key}")
        return begin, end

    def _declare(self, ts: Any, tname: str, names: list[str], fss: list[dict[str, Any]]
                 ) -> tuple[str, tuple[str, ...]]:
        """Declare the annotation type ``tname`` with its label features ``names`` in ``ts``;
        returns its name and the features' names as cassis gave them (a feature named
        ``type`` or ``self`` is ``type_`` / ``self_`` there, as the XMI reader reads it: the
        layer's features are the type system's, so the records take those names)."""
        if ts.contains_type(tname):
            return str(tname), tuple(names)
        atype = ts.create_type(tname, _ANNOTATION)
        declared = []
        for feat in names:
            kinds = {type(fs[feat]) for fs in fss if fs.get(feat) is not None}
            range_type = _LABEL_VALUES[kinds.pop()] if len(kinds) == 1 else "uima.cas.String"
            declared.append(str(ts.create_feature(atype, feat, range_type).name))
        return str(tname), tuple(declared)


def _check_offsets(structures: list[Any], file: str) -> None:
    """Refuse the first ``begin`` or ``end`` of the file's feature structures that is no whole
    number of 0 or more (:func:`_check_offset`), naming it by its ``%ID``: asked once cassis has
    failed on the file, so that its error names the field when an offset is the cause."""
    for fs in structures:
        if isinstance(fs, dict):
            for key in ("begin", "end"):
                if key in fs:
                    _check_offset(fs[key], file,
                                  f"%FEATURE_STRUCTURES[%ID {fs.get('%ID')}].{key}")


def _check_offset(value: Any, file: str, field: str) -> None:
    """Refuse an offset that is no whole number of 0 or more, or one no span's column holds
    (:data:`~core.model.textsafe.MAX_OFFSET_DIGITS` digits at most: a CAS without text has
    nothing else to bound it), naming ``field``."""
    if (not isinstance(value, int) or isinstance(value, bool) or value < 0
            or value >= 10**MAX_OFFSET_DIGITS):
        # a value of the file, or what cassis made of one (a feature structure, by its type)
        try:
            shown = json.dumps(value)
        except (TypeError, ValueError):
            shown = type(value).__name__
        raise FormatError(file, f"expected a whole number of 0 or more with at most "
                          f"{MAX_OFFSET_DIGITS} digits, got {one_line(shown)[:40]}", field=field)


def _label_features(fss: list[dict[str, Any]], non_labels: set[str]) -> list[str]:
    """The features of a type's records that can carry a label, in first-seen order: those
    whose values are strings, integers or booleans (not references, arrays or numbers with a
    fraction)."""
    seen: dict[str, bool] = {}
    for fs in fss:
        for key, value in fs.items():
            if key in _OFFSETS or key.startswith("_") or key in non_labels:
                continue
            ok = value is None or type(value) in _LABEL_VALUES
            seen[key] = seen.get(key, True) and ok
    return [k for k, ok in seen.items() if ok and _SAFE_NAME.fullmatch(k)]

