"""A toy format from another package: ``*.toytsv`` files of ``document<TAB>start<TAB>end<TAB>label``
lines (no texts). Registered through the entry point ``spanscope.formats``."""

from __future__ import annotations

from collections.abc import Mapping

from core.formats import Loaded, ReadOptions, decode
from core.model import AnnotationSet, Span
from core.model.errors import FormatError


def sniff(filename: str, head: str) -> int:
    return 100 if filename.endswith(".toytsv") else 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    spans: dict[str, list[Span]] = {}
    for file, data in sorted(files.items()):
        for number, line in enumerate(decode(file, data).splitlines(), start=1):
            if not line.strip():
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                raise FormatError(file, f"expected 4 tab-separated fields, got {len(fields)}",
                                  line=number)
            doc, start, end, label = fields
            spans.setdefault(doc, []).append(Span(int(start), int(end), label))
    sets = [AnnotationSet(name, {d: tuple(s) for d, s in spans.items()}, options.role)]
    return Loaded(format="toy-tsv", source=name, texts=dict.fromkeys(spans), sets=sets)
