"""Label taxonomies with levels, as data: MAFALDA's by default, any grouping from a small file.

MAFALDA (Helwe et al. 2024, §3 and Table 1): 23 level-2 fallacies in three level-1 groups,
emotion (Pathos), logic (Logos) and credibility (Ethos); level 0 says fallacy or not. ``nothing``
(⊥) is the no-fallacy label of the gold standard and ``unknown`` what the LLM pipeline predicts
when an answer names no fallacy. The numeric codes are those of the repository's evaluator
(``src/evaluate.py``; ``docs/mafalda.md``): level 2 ``0`` = nothing, ``1``–``23``
fallacies, ``24`` = unknown; level 1 ``0`` nothing, ``1`` emotion, ``2`` logic,
``3`` credibility, ``4`` unknown; level 0 ``0`` no fallacy (nothing and unknown), ``1`` fallacy.

Another taxonomy is a JSON file of the same shape as ``core/data/mafalda_taxonomy.json``::

    {"name": "...", "nothing": "nothing", "unknown": "unknown",
     "level1": [{"name": "group", "code": 1, "labels": ["a", "b"]}, ...]}

(codes of level-2 labels are then numbered in file order from 1). Names match
case-insensitively.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.model.errors import FormatError

DATA = Path(__file__).resolve().parent.parent / "data" / "mafalda_taxonomy.json"
FLAT_SOURCE = "one class per label found in the data (no grouping)"
NOTHING_CODE = 0


@dataclass(frozen=True)
class Taxonomy:
    """Level-2 labels with codes, their level-1 groups, and the projections between levels."""

    name: str
    codes: dict[str, int]  # lower-cased level-2 name -> code (nothing 0, unknown last)
    level1_of: dict[int, int]  # level-2 code -> level-1 code
    level1_names: dict[int, str]
    unknown_code: int
    source: str = ""
    display: dict[int, str] = field(default_factory=dict)  # level-2 code -> name as written

    @property
    def n_classes(self) -> dict[int, int]:
        """Number of fallacy classes per level (MAFALDA: 1, 3, 23)."""
        n1 = len({c for c in self.level1_names if c not in (0, self.level1_unknown)})
        return {0: 1, 1: n1, 2: self.unknown_code - 1}

    @property
    def level1_unknown(self) -> int:
        return self.level1_of[self.unknown_code]

    def names(self) -> list[str]:
        return sorted(self.codes, key=self.codes.__getitem__)

    def code(self, label: str, *, file: str = "<labels>", line: int | None = None,
             field: str | None = "label", allow_unknown: bool = True) -> int:
        """The level-2 code of a name (case-insensitive); a FormatError lists the valid names."""
        key = label.strip().lower()
        code = self.codes.get(key)
        if code is None or (code == self.unknown_code and not allow_unknown):
            valid = [n for n in self.names() if allow_unknown or self.codes[n] != self.unknown_code]
            raise FormatError(file, f"expected a label of the {self.name} taxonomy, got "
                              f"{label!r}; valid names: {', '.join(valid)}", line=line,
                              field=field)
        return code

    def project(self, code: int, level: int) -> int:
        """A level-2 code at level 2, 1 or 0 (predictions: unknown is 'no fallacy' at level 0)."""
        if level == 2:
            return code
        if level == 1:
            return self.level1_of[code]
        return 0 if code in (NOTHING_CODE, self.unknown_code) else 1

    def label_name(self, code: int, level: int) -> str:
        if level == 2:
            return self.display.get(code) or self.names()[code]
        if level == 1:
            return self.level1_names[code]
        return "fallacy" if code == 1 else "no fallacy"


def _build(data: dict[str, Any], source: str) -> Taxonomy:
    try:
        nothing = str(data.get("nothing", "nothing")).lower()
        unknown = str(data.get("unknown", "unknown")).lower()
        codes = {nothing: 0}
        level1_of = {0: 0}
        level1_names = {0: nothing}
        for group in data["level1"]:
            gcode = int(group["code"])
            level1_names[gcode] = str(group["name"])
            for lab in group["labels"]:
                key = str(lab).lower()
                if key in codes:
                    raise FormatError(source, f"label {lab!r} is listed twice", field="labels")
                codes[key] = len(codes)
                level1_of[codes[key]] = gcode
        if "level2_codes" in data:
            if not isinstance(data["level2_codes"], dict):
                raise FormatError(source, "expected an object of label -> code, got "
                                  f"{type(data['level2_codes']).__name__}", field="level2_codes")
            given = {str(k).lower(): int(v) for k, v in data["level2_codes"].items()}
            given.pop(unknown, None)
            if given != codes:
                raise FormatError(source, "level2_codes disagree with the order of level1 labels",
                                  field="level2_codes")
        unknown_code = len(codes)
        codes[unknown] = unknown_code
        unknown_l1 = max(level1_names) + 1
        level1_of[unknown_code] = unknown_l1
        level1_names[unknown_l1] = unknown
    except FormatError:  # already names the field (a FormatError is a ValueError too)
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # AttributeError: a value of another JSON type than expected (a list for an object)
        raise FormatError(source, f"expected a taxonomy object with 'level1' groups of "
                          f"'name', 'code' and 'labels': {exc}") from None
    return Taxonomy(str(data.get("name", "custom")), codes, level1_of, level1_names,
                    unknown_code, str(data.get("source", "")))


@lru_cache(maxsize=1)
def mafalda() -> Taxonomy:
    """MAFALDA's taxonomy.

    >>> t = mafalda()
    >>> t.code("Appeal to Ridicule"), t.project(5, 1), t.project(24, 0), t.n_classes
    (5, 1, 0, {0: 1, 1: 3, 2: 23})
    """
    return _build(json.loads(DATA.read_text(encoding="utf-8")), str(DATA))


def load(path: str | Path | None) -> Taxonomy:
    """MAFALDA's taxonomy, or the one in a JSON file."""
    if path is None:
        return mafalda()
    from core.formats import decode
    from core.formats._common import load_json

    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise FormatError(str(p), f"cannot read the taxonomy: {exc.strerror}") from None
    # The readers' JSON path: bad UTF-8, deep nesting, huge numbers are FormatErrors too.
    data = load_json(str(p), decode(str(p), raw))
    if not isinstance(data, dict):
        raise FormatError(str(p), "expected a JSON object")
    return _build(data, str(p))


def flat(labels: Iterable[str], *, name: str = "labels of the data") -> Taxonomy:
    """A taxonomy in which every label is its own class at levels 2 and 1.

    For span labels outside MAFALDA's taxonomy (propaganda techniques, any label set): the
    MAFALDA metric at level 2 only needs label equality, so it applies unchanged; level 1 equals
    level 2 here, and level 0 asks "any label or none". ``nothing`` and ``unknown`` keep their
    MAFALDA meaning. Names match case-insensitively; :meth:`Taxonomy.label_name` gives them back
    as first written.

    >>> t = flat(["Doubt", "Slogans", "doubt"])
    >>> t.code("DOUBT"), t.label_name(2, 2), t.n_classes
    (1, 'Slogans', {0: 1, 1: 2, 2: 2})
    """
    written: dict[str, str] = {}
    for lab in labels:
        key = lab.strip().lower()
        if key and key not in ("nothing", "unknown"):
            written.setdefault(key, lab.strip())
    keys = sorted(written)
    data = {"name": name, "level1": [{"name": written[k], "code": i, "labels": [k]}
                                     for i, k in enumerate(keys, start=1)]}
    tax = _build(data, "<labels>")
    display = {tax.codes[k]: written[k] for k in keys}
    return Taxonomy(tax.name, tax.codes, tax.level1_of, tax.level1_names, tax.unknown_code,
                    FLAT_SOURCE, display)


def for_labels(labels: Iterable[str]) -> Taxonomy:
    """MAFALDA's taxonomy when it knows every label (case-insensitively), else :func:`flat`.

    >>> for_labels(["Ad Hominem", "nothing"]).name, for_labels(["Doubt"]).name
    ('MAFALDA', 'labels of the data')
    """
    labels = list(labels)
    known = mafalda().codes
    if all(lab.strip().lower() in known for lab in labels):
        return mafalda()
    return flat(labels)


def resolve(labels: Iterable[str], path: str | Path | None = None) -> Taxonomy:
    """The taxonomy the MAFALDA metric and its levels use, on every path (command line and
    dashboard): the one in ``path`` when given (``--taxonomy FILE``), else
    :func:`for_labels` of the labels of both compared sets.

    >>> resolve(["Loaded Language", "Doubt"]).name, resolve(["ad hominem"]).name
    ('labels of the data', 'MAFALDA')
    """
    return load(path) if path is not None else for_labels(labels)


def describe(tax: Taxonomy) -> str:
    """One line naming a taxonomy, for the ``taxonomy`` key of ``score`` and the dashboard.

    >>> describe(mafalda())
    'MAFALDA (23 fallacies in 3 groups)'
    >>> describe(flat(["Doubt", "Slogans"]))
    'labels of the data: one class per label (2 labels, no grouping)'
    """
    if tax.source == FLAT_SOURCE:
        return f"{tax.name}: one class per label ({tax.n_classes[2]} labels, no grouping)"
    return f"{tax.name} ({tax.n_classes[2]} fallacies in {tax.n_classes[1]} groups)"


def same_classes(a: Taxonomy, b: Taxonomy, labels: Iterable[str]) -> bool:
    """Whether ``a`` and ``b`` sort ``labels`` into the same classes at every level, so that the
    MAFALDA metric gives the same numbers on spans of these labels under either: the same
    labels share a class, ``nothing`` and ``unknown`` are themselves in both, and a level has
    one fallacy class in both or in neither (the metric reads a one-class level as level 0).
    A shard of a sharded run resolves its taxonomy on its own labels
    (``core/engines/sharded.py``); it is scored again only when this is false.

    >>> same_classes(flat(["Doubt", "Slogans"]), flat(["Doubt", "Slogans", "Smears"]),
    ...              ["Doubt", "slogans"])
    True
    >>> same_classes(mafalda(), flat(["ad hominem", "ad populum", "Doubt"]),
    ...              ["ad hominem", "ad populum"])
    False
    >>> same_classes(flat(["Doubt"]), flat(["Doubt", "Slogans"]), ["Doubt"])
    False
    """
    keys = sorted({lab.strip().lower() for lab in labels})
    for level in (1, 2):
        if (a.n_classes[level] == 1) != (b.n_classes[level] == 1):
            return False
        seen: tuple[dict[int, int], dict[int, int]] = ({}, {})
        for key in keys:
            marks = []
            for tax, first in zip((a, b), seen, strict=True):
                code = tax.codes.get(key)
                if code is None:
                    return False
                if code == NOTHING_CODE or code == tax.unknown_code:
                    marks.append(-1 if code == NOTHING_CODE else -2)
                else:
                    marks.append(first.setdefault(tax.project(code, level), len(first)))
            if marks[0] != marks[1]:
                return False
    return True


def outside(tax: Taxonomy, labels: Iterable[str]) -> list[str]:
    """The labels that made :func:`for_labels` give up MAFALDA's taxonomy although some labels
    are MAFALDA's (a misspelt fallacy, say): empty unless ``tax`` is the flat one and the
    labels are mostly MAFALDA's, so that such a fallback is said rather than silent.

    >>> outside(for_labels(["ad hominem", "ad hominen"]), ["ad hominem", "ad hominen"])
    ['ad hominen']
    >>> outside(for_labels(["Doubt", "Causal Oversimplification"]), ["Doubt", "Slogans",
    ...         "Causal Oversimplification"])
    []
    """
    if tax.source != FLAT_SOURCE:
        return []
    known = mafalda().codes
    keys = {lab.strip().lower(): lab for lab in labels}
    keys.pop("nothing", None)
    keys.pop("unknown", None)
    strays = sorted(lab for k, lab in keys.items() if k not in known)
    # Mostly other labels (propaganda techniques, of which one is also a fallacy): no slip.
    return strays if len(strays) <= len(keys) - len(strays) else []
