"""Which span layer and which feature of it become span labels (WebAnno TSV and UIMA XMI).

An INCEpTION project can have many span layers (named entities, a custom layer per task,
linguistic layers such as POS or Lemma), each with several features. SpanScope reads one layer
and takes one of its features as the label:

* ``--layer NAME``: the full type name (``webanno.custom.Technique``) or its short name
  (``Technique``, case-insensitive when unambiguous). Default: the first ``webanno.custom.*``
  layer (the layers a project defines itself), else a ``NamedEntity`` layer, else the first span
  layer of the file. When the reader can show the values, a default whose label feature holds
  only integers, URLs or identifiers (an MWE id, a Wikidata link) gives way to another span
  layer whose values read as labels, ``NamedEntity`` first; the warning says why.
* ``--feature NAME``: default ``value`` when the layer has it (NamedEntity), else the layer's
  first feature. A layer without features gives its short name as the label.

A name that matches nothing is an error that lists every layer and its features.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from core.model.errors import FormatError, KindedText

# Layers that annotate tokens one by one for linguistics, never the spans a project measures.
LINGUISTIC = ("Lemma", "POS", "Stem", "MorphologicalFeatures", "Token", "Sentence",
              "DocumentMetaData", "TagsetDescription", "Dependency", "PdfPage")
# A value that identifies rather than labels: an integer, a URL or URI, a Wikidata-style id.
_IDENTIFIER = re.compile(r"-?[0-9]+|[A-Za-z][A-Za-z0-9+.-]*:\S+|[QPL][0-9]+", re.ASCII)
Values = Callable[[str, "str | None"], list[str]]
"""A sample of the values of a layer's feature (``values(layer, feature)``), for the default."""


@dataclass(frozen=True)
class Choice:
    """The chosen layer, its feature (None: the layer has none; label = ``short``), and a note
    to show when the choice was a default among several candidates."""

    layer: str
    feature: str | None
    note: str | None = None

    @property
    def short(self) -> str:
        return short_name(self.layer)


def short_name(layer: str) -> str:
    return layer.rsplit(".", 1)[-1]


def describe(layers: Mapping[str, Sequence[str]]) -> str:
    """``A (features: x, y); B (no features)`` for messages."""
    if not layers:
        return "no span layers"
    parts = []
    for name, feats in layers.items():
        parts.append(f"{name} (features: {', '.join(feats)})" if feats
                     else f"{name} (no features)")
    return "; ".join(parts)


def choose(
    layers: Mapping[str, Sequence[str]],
    *,
    layer: str | None,
    feature: str | None,
    source: str,
    values: Values | None = None,
) -> Choice | None:
    """Pick the layer and feature (None when the input holds no span layer and none was named).

    ``layers`` maps each span layer, in file order, to its features that can carry a label.
    ``values``: a sample of a layer's values, to pass over a default that holds identifiers.
    """
    why = None
    if layer is not None:
        chosen = _match(layers, layer)
        if chosen is None:
            raise FormatError(source, f"no span layer {layer!r}; the input holds "
                              f"{describe(layers)}", field="layer")
    else:
        if not layers:
            if feature is not None:
                raise FormatError(source, f"no span layer with a feature {feature!r}; the "
                                  "input holds no span layers", field="feature")
            return None
        chosen = _default_layer(layers)
        if values is not None:
            chosen, why = _labels_over_identifiers(layers, chosen, values)
    feats = list(layers[chosen])
    if feature is not None:
        if feature not in feats:
            lowered = [f for f in feats if f.lower() == feature.lower()]
            if len(lowered) != 1:
                raise FormatError(source, f"layer {chosen} has no feature {feature!r}; its "
                                  f"features: {', '.join(feats) or 'none'} (all layers: "
                                  f"{describe(layers)})", field="feature")
            feature = lowered[0]
        return Choice(chosen, feature)
    feat = "value" if "value" in feats else (feats[0] if feats else None)
    note = None
    others = [n for n in layers if n != chosen and short_name(n) not in LINGUISTIC]
    if layer is None and others:
        note = KindedText(f"read layer {chosen}, feature "
                          f"{feat or '(none: the layer name is the label)'}"
                          f"{f' ({why})' if why else ''}; the input also holds "
                          f"{describe({n: layers[n] for n in others})}; choose with --layer and "
                          "--feature", "layer-choice")
    elif len(feats) > 1:
        note = KindedText(f"read feature {feat} of layer {chosen}; it also has "
                          f"{', '.join(f for f in feats if f != feat)}; choose with --feature",
                          "layer-choice")
    return Choice(chosen, feat, note)


def _match(layers: Mapping[str, Sequence[str]], name: str) -> str | None:
    if name in layers:
        return name
    for test in (lambda n: short_name(n) == name,
                 lambda n: short_name(n).lower() == name.lower() or n.lower() == name.lower()):
        found = [n for n in layers if test(n)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise FormatError("<options>", f"layer name {name!r} is ambiguous: "
                              f"{', '.join(found)}; give the full name", field="layer")
    return None


def _default_layer(layers: Mapping[str, Sequence[str]]) -> str:
    names = list(layers)
    for name in names:
        if name.startswith("webanno.custom.") or name.startswith("custom."):
            return name
    for name in names:
        if short_name(name) == "NamedEntity":
            return name
    for name in names:
        if short_name(name) not in LINGUISTIC:
            return name
    return names[0]


def _default_feature(feats: Sequence[str]) -> str | None:
    return "value" if "value" in feats else (feats[0] if feats else None)


def identifiers_only(sample: Sequence[str]) -> bool:
    """Whether every value of a (non-empty) sample is an integer, a URL or an identifier."""
    return bool(sample) and all(_IDENTIFIER.fullmatch(v.strip()) for v in sample)


def _labels_over_identifiers(layers: Mapping[str, Sequence[str]], chosen: str, values: Values
                             ) -> tuple[str, str | None]:
    """``chosen``, or another span layer (``NamedEntity`` first) whose default feature's values
    read as labels when those of ``chosen`` are all identifiers, with the reason."""
    feat = _default_feature(layers[chosen])
    if feat is None:
        return chosen, None
    sample = values(chosen, feat)
    if not identifiers_only(sample):
        return chosen, None
    others = [n for n in layers if n != chosen and short_name(n) not in LINGUISTIC]
    others.sort(key=lambda n: short_name(n) != "NamedEntity")
    for other in others:
        other_feat = _default_feature(layers[other])
        if other_feat is None:
            continue
        other_sample = values(other, other_feat)
        if other_sample and not identifiers_only(other_sample):
            shown = ", ".join(repr(v[:60]) for v in list(dict.fromkeys(sample))[:3])
            kind = ("integers" if all(v.strip().lstrip("-").isdigit() for v in sample)
                    else "URLs" if all("://" in v for v in sample)
                    else "integers, URLs or identifiers")
            return other, (f"not {chosen}: its feature {feat} holds only {kind} such as "
                           f"{shown}, no labels")
    return chosen, None
