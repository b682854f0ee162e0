"""HatEval 2019 (SemEval-2019 Task 5) TSV files: ``id, text, HS, TR, AG`` or ``id, HS[, TR, AG]``.

Gold files have five columns (id, text, HS, TR, AG); prediction files two (task A: id, HS) or
four (task B: id, HS, TR, AG). Labels are integers (0/1 in the task). A header line is optional.
The scoring program reads tab-separated files; the organisers' public release of the data
(``hateval2019_en_train.csv``, ``..._dev.csv``, ``..._test.csv``) is comma-separated with CSV
quoting and the header ``id,text,HS,TR,AG``: a file whose first line is that header is read as
CSV. A header that names its columns in another order or beside others (a relabelled release:
``id,HS,TR,AG,HS_original``, no text) is read by name; a file without header by position.

Header rule. The official program (``docs/text-level.md``) treats the first
line as a header when its first field does not parse as a float, so a first id such as ``x101``
silently drops that data row (conformance case ``hev_a_non_numeric_first_id_treated_as_header``).
We name two rules and default to the safe one:

``auto`` (default)
    the first line is a header when its label fields are not integers (``HS``, ``TR``, ``AG``).
``official``
    the official rule, to reproduce official numbers on such files; the dropped row is reported.

The reader returns :class:`HatEvalTable` in :attr:`Loaded.records` (no spans).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.formats import Loaded, ReadOptions, decode
from core.formats._common import set_name_of
from core.model import AnnotationSet
from core.model.errors import FormatError
from core.model.textsafe import MAX_OFFSET_DIGITS, describe_digits, one_line

FORMAT = "hateval"
COLUMNS = ("HS", "TR", "AG")
LONG_NAMES = {"HS": "HS", "TR": "TargetRange", "AG": "Aggressiveness"}
HEADER_RULES = ("auto", "official")
_INT = re.compile(r"-?[0-9]+\Z")
NAMES = ("id", "text", "hs", "tr", "ag")  # a header's column names, read case-insensitively
_POSITIONAL = (["id", "hs"], ["id", "hs", "tr", "ag"], ["id", "text", "hs", "tr", "ag"])


@dataclass
class HatEvalTable:
    """Rows of a HatEval file: ids in file order, label columns, source lines, texts if any."""

    file: str
    ids: list[str]
    labels: dict[str, list[int]]  # column ("HS", "TR", "AG") -> values, aligned with ids
    lines: list[int]
    texts: list[str] | None = None
    dropped_header_row: str | None = None
    columns: tuple[str, ...] = field(default=("HS",))
    header_note: str | None = None  # auto and official read the first line differently, or
    # the header named columns that are not read
    named: bool = False  # a header named the columns (read by name, not by position)

    @property
    def is_gold(self) -> bool:
        return self.texts is not None


def _is_float(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def sniff(filename: str, head: str) -> int:
    """Tab-separated rows of 2, 4 or 5 fields whose label fields are integers (or a HS header)."""
    lines = [ln for ln in head.splitlines() if ln.strip()][:20]
    if len(lines) > 1 and not head.endswith("\n"):
        lines = lines[:-1]  # the last line of the head may be cut
    if not lines:
        return 0
    if is_csv_header(lines[0]):
        return 90
    first = lines[0].split("\t")
    header = "HS" in (f.strip() for f in first)
    rows = lines[1:] if header else lines
    good = 0
    for ln in rows:
        fields = ln.split("\t")
        label_at = {5: 2, 2: 1, 4: 1}.get(len(fields))
        if label_at is not None and all(_INT.match(f.strip()) for f in fields[label_at:]):
            good += 1
    if header and (good == len(rows)):
        return 90
    if rows and good == len(rows):
        # 4 integer columns could also be a PTC span file; PTC's third and fourth columns are
        # offsets, HatEval's are 0/1 labels.
        small = all(f.strip() in ("0", "1", "2") for ln in rows for f in ln.split("\t")[1:])
        return 60 if small or len(lines[0].split("\t")) in (2, 5) else 10
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions,
         header_rule: str = "auto") -> Loaded:
    """Read one HatEval TSV file (gold or prediction)."""
    if len(files) != 1:
        raise FormatError(name, f"a HatEval input is one TSV file, got a folder of {len(files)}")
    ((_, data),) = files.items()
    text = decode(name, data)
    loaded = Loaded(FORMAT, name)
    table = parse(name, text, header_rule=header_rule)
    if table.dropped_header_row is not None:
        loaded.warn(f"the first line ({table.dropped_header_row!r}) was skipped as a header by "
                    "the official rule (its first field is not a number); it may be a data row",
                    line=1, kind="skipped")
    if table.header_note is not None:
        loaded.warn(table.header_note, line=1)
    loaded.records = table
    if table.texts is not None:
        loaded.texts = dict(zip(table.ids, table.texts, strict=True))
    # No spans: an empty set per document lets the corpus list the documents.
    loaded.sets.append(AnnotationSet(set_name_of(name), {i: () for i in table.ids}, options.role))
    return loaded


def is_csv_header(line: str) -> bool:
    """Whether ``line`` is the header of the released HatEval data (``id,text,HS,TR,AG``, comma
    separated: the organisers' public release, unlike the TSV the scoring program reads), its
    names bare or quoted."""
    if len(line) > 256:
        return False  # a header is short; a long first line is data (or another format)
    # Read as CSV: a copy saved again by R's write.csv or pandas' QUOTE_ALL quotes the
    # header's names too ("id","text","HS","TR","AG").
    try:
        fields = [f.strip().lower() for f in next(csv.reader([line.rstrip("\r")]), [])]
    except csv.Error:
        return False
    while fields and not fields[-1]:  # a spreadsheet's empty trailing columns
        fields.pop()
    return "\t" not in line and 2 <= len(fields) <= 32 and "id" in fields and "hs" in fields


def _named_columns(file: str, fields: list[str], sep: str) -> tuple[list[int], str | None] | None:
    """Where the columns id, [text,] HS[, TR, AG] are, when the first line is a header naming
    them in another order or with other columns (``id,HS,TR,AG,HS_original``), and a note on
    the columns not read; ``None`` for the positional layouts (the official files) and a first
    line that names no id and HS. A header naming TR without AG (or the reverse), or a column
    twice, is refused."""
    names = [f.strip().lower() for f in fields]
    if names in _POSITIONAL or "id" not in names or "hs" not in names:
        return None
    for name in NAMES:
        if names.count(name) > 1:
            raise FormatError(file, f"the header names the column {name!r} twice", line=1,
                              field=name)
    if ("tr" in names) != ("ag" in names):
        have, lack = ("TR", "AG") if "tr" in names else ("AG", "TR")
        raise FormatError(file, f"the header names {have} but no {lack} column; task B files "
                          "have both (id, HS, TR, AG)", line=1, field=lack)
    order = [names.index(n) for n in NAMES if n in names]
    extra = [fields[k].strip() for k, n in enumerate(names) if n not in NAMES]
    note = None
    if extra:
        note = (f"{len(extra)} {sep} column(s) not read: "
                f"{', '.join(one_line(repr(e))[:40] for e in extra[:10])}; the columns are read "
                f"by the header's names ({', '.join(fields[k].strip() for k in order)})")
    return order, note


def _rows(file: str, text: str) -> tuple[list[tuple[int, list[str]]], str]:
    """The rows of a HatEval file with the line each starts on, and how its columns are
    separated: tabs (the scoring program's files), or commas with CSV quoting when the first
    line is the released data's header (a quoted text may hold commas and line breaks)."""
    raw = text.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    if not raw or not is_csv_header(raw[0]):
        return [(i + 1, ln.rstrip("\r").split("\t")) for i, ln in enumerate(raw)], "tab-separated"
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, list[str]]] = []
    start = 1
    width = 0
    try:
        for fields in reader:
            if not rows:
                width = len(fields)
                while width and not fields[width - 1].strip():
                    width -= 1
            if len(fields) > width and not any(f.strip() for f in fields[width:]):
                # Columns a spreadsheet added after the named ones, empty on this row.
                fields = fields[:width]
            rows.append((start, fields if fields else [""]))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise FormatError(file, f"expected comma-separated values: {exc}",
                          line=reader.line_num) from None
    return rows, "comma-separated"


def parse(file: str, text: str, *, header_rule: str = "auto") -> HatEvalTable:
    """Parse HatEval TSV text; raise :class:`FormatError` naming the line and field."""
    if header_rule not in HEADER_RULES:
        raise FormatError(file, f"unknown header rule {header_rule!r}; one of {HEADER_RULES}")
    rows, sep = _rows(file, text)
    if not rows:
        raise FormatError(file, "the file is empty; expected TSV rows 'id, HS[, TR, AG]' or "
                          "'id, text, HS, TR, AG'")
    named = _named_columns(file, rows[0][1], sep)
    if named is not None:
        rows = _by_name(file, rows, named[0], sep)
    width = len(rows[0][1])
    if width not in (2, 4, 5):
        raise FormatError(file, f"expected 2 (task A prediction), 4 (task B prediction) or 5 "
                          f"(gold: id, text, HS, TR, AG) {sep} columns, found {width}",
                          line=1)
    label_at = 2 if width == 5 else 1
    dropped = None
    first_fields = rows[0][1]
    if header_rule == "official":
        if not _is_float(first_fields[0].strip()):
            dropped = "\t".join(first_fields)
            rows = rows[1:]
    elif not all(_INT.match(f.strip()) for f in first_fields[label_at:]):
        rows = rows[1:]
    official_header = not _is_float(first_fields[0].strip())
    auto_header = not all(_INT.match(f.strip()) for f in first_fields[label_at:])
    note = None
    if header_rule == "auto" and official_header != auto_header:
        shown = one_line(repr("\t".join(first_fields)))[:80]
        note = (f"the first line {shown} is read as a data row, but the official program skips "
                "it as a header (its id is not a number): --hateval-header official reproduces "
                "the official numbers" if official_header else
                f"the first line {shown} is skipped as a header, but the official program reads "
                "it as a data row (its id is a number)")
    columns = COLUMNS[: width - label_at]
    ids: list[str] = []
    texts: list[str] = []
    labels: dict[str, list[int]] = {c: [] for c in columns}
    lines: list[int] = []
    for number, fields in rows:
        _check_row(file, number, fields, width, sep)
        doc_id = fields[0].strip()
        if not doc_id:
            raise FormatError(file, "empty id", line=number, field="id")
        for col, value in zip(columns, fields[label_at:], strict=True):
            # Strip spaces only: str.strip() also drops \x1c-\x1f, which int() refuses.
            digits = value.strip(" ")
            if not _INT.match(digits) or len(digits.lstrip("-0")) > MAX_OFFSET_DIGITS:
                shown = (describe_digits(digits) if _INT.match(digits)
                         else one_line(repr(value)))
                raise FormatError(file, f"expected an integer label, got {shown}",
                                  line=number, field=col)
            labels[col].append(int(digits))
        ids.append(doc_id)
        lines.append(number)
        if width == 5:
            texts.append(fields[1])
    if named is not None and named[1] is not None:
        note = named[1]
    return HatEvalTable(file, ids, labels, lines, texts if width == 5 else None, dropped,
                        columns, note, named is not None)


def _by_name(file: str, rows: list[tuple[int, list[str]]], order: list[int], sep: str
             ) -> list[tuple[int, list[str]]]:
    """The rows with their columns in the positional layout ``order`` gives (a header read by
    name); a row with another number of columns than the header is refused."""
    width = len(rows[0][1])
    out = []
    for number, fields in rows:
        _check_row(file, number, fields, width, sep)
        out.append((number, [fields[k] for k in order]))
    return out


def _check_row(file: str, number: int, fields: list[str], width: int, sep: str) -> None:
    """Refuse a blank line, or a row with another number of columns than the first line."""
    if fields == [""]:
        raise FormatError(file, "blank line: every line must be a row", line=number)
    if len(fields) != width:
        raise FormatError(file, f"expected {width} {sep} columns like the first "
                          f"line, found {len(fields)}", line=number)


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """HatEval files hold no spans; write them from a :class:`HatEvalTable` with :func:`render`."""
    raise FormatError("<output>", "HatEval files hold text labels, not spans: convert a HatEval "
                      "file to hateval only (use core.formats.hateval.render)")


def render(table: HatEvalTable, *, header: bool = True) -> str:
    """The TSV text of a table (gold with texts, or a prediction)."""
    cols = list(table.labels)
    out = []
    if header:
        out.append("\t".join(["id", *(["text"] if table.texts is not None else []), *cols]))
    for i, doc_id in enumerate(table.ids):
        row = [doc_id]
        if table.texts is not None:
            row.append(table.texts[i])
        row.extend(str(table.labels[c][i]) for c in cols)
        out.append("\t".join(row))
    return "\n".join(out) + "\n"
