"""WebAnno TSV 2: the export of WebAnno 2, which INCEpTION still imports (``ctsv``).

Layout, as WebAnno 2's ``WebannoTsv2Writer`` writes it and INCEpTION's ``WebannoTsv2Reader``
reads it (there is no other specification):

* line 1, the header:
  `` # <layer> | <feature> | <feature> # <layer> | <feature> | AttachTo=<type>``.
  Each ``#`` starts a layer (its full UIMA type name), each ``|`` one of its features, and
  each feature is one column. ``AttachTo=`` marks a relation layer (e.g. ``Dependency``): its
  feature columns are followed by one more column, the governor's token id.
* per sentence ``#id=<n>``, ``#text=<sentence>`` and one line per token
  ``<sentence>-<token><TAB><token><TAB><one column per feature><TAB>``, then an empty line.
  There are no offsets.
* a cell is ``_`` or ``O`` (no annotation), a plain value (an annotation on this token only),
  ``B-<value>`` (an annotation starts) or ``I-<value>`` (the annotation at the same place in
  the cell continues to this token). Stacked annotations are separated by ``|``; a cell's
  n-th entry continues the n-th entry of the token before, and ``B-_``, ``I-_``, ``O-_`` keep
  a place without an annotation. A value that is the layer's type name followed by ``_`` is an
  annotation without a value. Nothing is escaped.

How we read it, as INCEpTION's reader does: the document text is rebuilt from the token column,
tokens joined by one space and a line break after each sentence (the ``#text=`` lines are not
used, so offsets are those of the rebuilt text); an annotation spans from its first to its last
token. A ``_`` or ``O`` entry ends every open annotation of the column; an ``I-`` entry with no
open annotation at its place (INCEpTION's reader fails on it) starts one, with a warning.
Relation layers carry no spans and are never chosen. The layer and label feature are chosen as
for TSV 3 (:mod:`core.formats.layers`, ``--layer``, ``--feature``).

Folders and zips follow the export layout of :mod:`core.formats.webanno` (one set per annotator
under ``annotation/<document>/<user>.tsv``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.formats import Loaded, ReadOptions, Sentences
from core.formats._common import check_label
from core.formats.archive import check_binary_cas_export
from core.formats.layers import Choice
from core.formats.webanno import assemble, looks_like_tsv1, looks_like_tsv2, tsv_members
from core.model.errors import FormatError, KindedText

FORMAT = "webanno-tsv2"
_ID_RE = re.compile(r"[0-9]+-[0-9]+\Z")


@dataclass(frozen=True)
class Layer:
    name: str
    features: tuple[str, ...]
    relation: bool


@dataclass
class Tsv2Document:
    """One parsed file: its layers, its rebuilt text and, per token, its offsets, line number
    and cells (the feature columns)."""

    file: str
    layers: list[Layer]
    text: str = ""
    tokens: list[tuple[int, int, int, list[str]]] = field(default_factory=list)
    warnings: list[tuple[str, int]] = field(default_factory=list)

    def span_layers(self) -> dict[str, list[str]]:
        """Span layers in header order with their features (a layer without features has no
        column and no annotations, and is left out)."""
        return {lay.name: list(lay.features) for lay in self.layers
                if not lay.relation and lay.features}

    def column(self, layer: str, feature: str | None) -> int | None:
        """The index among the feature columns of ``layer``'s ``feature`` (None: absent)."""
        at = 0
        for lay in self.layers:
            for feat in lay.features:
                if lay.name == layer and not lay.relation and feat == feature:
                    return at
                at += 1
            at += lay.relation  # the governor column
        return None

    def token_sentences(self) -> Sentences:
        """The tokens of each sentence (a line of the rebuilt text), as ``(start, end)``."""
        out: Sentences = []
        last = None
        for begin, end, _, _ in self.tokens:
            if last is None or "\n" in self.text[last:begin]:
                out.append([])
            out[-1].append((begin, end))
            last = end
        return out

    @property
    def width(self) -> int:
        return sum(len(lay.features) + lay.relation for lay in self.layers)


def sniff(filename: str, head: str) -> int:
    if looks_like_tsv2(head):
        return 95 if filename.lower().endswith(".tsv") else 90
    if looks_like_tsv1(head):
        return 60  # named, not read: the reader says so
    return 0


def parse_header(file: str, line: str) -> list[Layer]:
    """The layers of a header line `` # type | feature # type | feature | AttachTo=type``."""
    layers: list[Layer] = []
    for decl in line.strip().split("#"):
        parts = [p.strip() for p in decl.split("|")]
        if not parts[0]:
            if any(parts[1:]):
                raise FormatError(file, f"expected a layer name after '#', got {decl!r}",
                                  line=1, field="header")
            continue
        feats = tuple(p for p in parts[1:] if p and not p.startswith("AttachTo="))
        layers.append(Layer(parts[0], feats, any(p.startswith("AttachTo=") for p in parts)))
    if not layers:
        raise FormatError(file, "expected a header ' # <layer> | <feature> ...' on line 1",
                          line=1, field="header")
    return layers


def parse(file: str, content: str) -> Tsv2Document:
    """Parse one TSV 2 file: header, tokens (offsets in the rebuilt text) and cells."""
    lines = content.split("\n")
    first = lines[0].strip()
    if not first.startswith("#") or first.startswith(("#id=", "#text=", "#FORMAT=")):
        if looks_like_tsv1(content[:4096]):
            raise FormatError(file, "this is WebAnno TSV 1 (WebAnno 1's export: no layer "
                              "header, ten fixed columns), which SpanScope does not read; "
                              "import it into INCEpTION and export it as WebAnno TSV 3",
                              line=1, field="header")
        raise FormatError(file, f"expected the WebAnno TSV 2 header ' # <layer> | <feature> "
                          f"...', got {first[:40]!r}", line=1, field="header")
    doc = Tsv2Document(file, parse_header(file, first))
    width = doc.width
    parts: list[str] = []
    sentence: list[str] = []
    length = 0
    for number, raw in enumerate(lines[1:], start=2):
        # INCEpTION's reader trims each line, so trailing TABs (one more than the columns, or
        # several) are not columns.
        line = raw.strip()
        if not line:
            if sentence:
                piece = " ".join(sentence) + "\n"
                parts.append(piece)
                length += len(piece)
                sentence = []
            continue
        if line.startswith("#"):
            if line.startswith(("#id=", "#text=")):
                continue
            raise FormatError(file, "expected '#id=' or '#text=' (the layer header is line 1 "
                              f"only), got {line[:40]!r}", line=number)
        cells = line.split("\t")
        if not _ID_RE.match(cells[0]):
            doc.warnings.append((f"not a token line (it does not start with a "
                                 f"sentence-token id such as 1-3): {line[:40]!r}; ignored",
                                 number))
            continue
        if len(cells) != width + 2:
            raise FormatError(file, f"expected {width + 2} TAB-separated columns (id, token and "
                              f"{width} from the header), got {len(cells)}", line=number)
        token = cells[1]
        if not token:
            raise FormatError(file, "expected a token, got an empty column", line=number,
                              field="token")
        begin = length + sum(len(t) + 1 for t in sentence)
        sentence.append(token)
        doc.tokens.append((begin, begin + len(token), number, cells[2:]))
    if sentence:
        parts.append(" ".join(sentence) + "\n")
    doc.text = "".join(parts)
    return doc


def spans_of(doc: Tsv2Document, choice: Choice | None, labels: Sequence[str] | None = None
             ) -> tuple[list[tuple[int, int, str]], list[tuple[str, int]]]:
    """The spans ``(start, end, label)`` of the chosen layer and feature, and warnings."""
    warnings = list(doc.warnings)
    at = None if choice is None else doc.column(choice.layer, choice.feature)
    if choice is None or at is None:
        return [], warnings
    no_value = choice.layer + "_"
    fname = f"{choice.short}|{choice.feature}"
    found: list[list[object]] = []  # [begin, end, label or None, line]
    open_at: dict[int, list[object]] = {}  # place in the cell -> annotation it continues
    for begin, end, line, cells in doc.tokens:
        for place, entry in enumerate(cells[at].split("|")):
            if entry in ("B-_", "I-_", "O-_"):
                continue
            if entry in ("_", "O") or entry.startswith("O-"):
                open_at.clear()
                continue
            if entry.startswith("I-"):
                current = open_at.get(place)
                if current is not None:
                    current[1] = end
                    continue
                warnings.append((KindedText(f"{entry!r} continues no annotation at place "
                                            f"{place + 1} of the cell; read as the start of one",
                                            "tag-scheme"), line))
            value = entry[2:] if entry.startswith(("B-", "I-")) else entry
            annotation: list[object] = [begin, end, None if value in ("", no_value) else value,
                                        line]
            found.append(annotation)
            if entry.startswith(("B-", "I-")):
                open_at[place] = annotation
    spans: list[tuple[int, int, str]] = []
    empty: list[int] = []
    for a_begin, a_end, a_label, a_line in found:
        assert isinstance(a_begin, int) and isinstance(a_end, int) and isinstance(a_line, int)
        if a_label is None:
            empty.append(a_line)
            continue
        assert isinstance(a_label, str)
        check_label(a_label, labels, doc.file, field=fname, line=a_line)
        spans.append((a_begin, a_end, a_label))
    if empty:
        warnings.append((KindedText(f"{len(empty)} annotations of layer {choice.layer} have no "
                                    f"value for feature {choice.feature}; skipped (first on line "
                                    f"{empty[0]})", "skipped"), empty[0]))
    return spans, warnings


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one TSV 2 file, a folder of them, or a WebAnno / INCEpTION project export."""
    loaded = Loaded(FORMAT, name)
    single = len(files) == 1
    docs: dict[str, Tsv2Document] = {}
    for path, file, content in tsv_members(files, name, loaded):
        if not single and not looks_like_tsv2(content[:4096]):
            version = "WebAnno TSV 3" if content.startswith("#FORMAT=") else "no TSV 2 header"
            loaded.warn(f"{path}: {version}; ignored", kind="ignored")
            continue
        docs[path] = parse(file, content)
    if not docs:
        check_binary_cas_export(files, name)
        raise FormatError(name, "expected WebAnno TSV 2 files (a first line ' # <layer> | "
                          "<feature> ...'), found none")
    return assemble(docs, spans_of, name=name, options=options, loaded=loaded)
