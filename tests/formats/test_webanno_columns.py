"""WebAnno TSV 3: the body read as arrays over many files at once (``parse_many``, issue 29)
and the cells read with one scan (``spans_of``) give what the line-by-line reading gives, on
files our writer makes and on the same files damaged: the same documents, spans and warnings,
or the same error (file, line, field) for the first file that is refused."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import webanno
from core.formats.layers import Choice
from core.model import Span
from core.model.errors import FormatError

WORDS = ["harbour", "board", "é", "😀x", "a|b", "c_d", "e\\f", "[g]", "*", "->h", "Okafor", "."]
LABELS = ["A", "B|C", "x_y", "\\z", "[1]", "*", "->", "lié"]
CHOICE = Choice(webanno.LAYER, webanno.FEATURE)


@st.composite
def rendered(draw: Any) -> str:
    """A file our writer makes: sentences of words (some with the format's reserved
    characters, some beyond the BMP), spans over one or more tokens, some stacked."""
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
        lines.append(" ".join(words) + draw(st.sampled_from(["", " ", "  "])))
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    starts = [i for i, ch in enumerate(text)
              if ch not in " \n" and (i == 0 or text[i - 1] in " \n")]
    spans = []
    for _ in range(draw(st.integers(0, 5))):
        a = draw(st.sampled_from(starts))
        rest = [s for s in starts if s > a]
        stop = draw(st.sampled_from(rest)) - 1 if rest and draw(st.booleans()) else len(text)
        end = a + 1 + len(text[a + 1:stop].rstrip(" \n"))
        spans.append(Span(a, max(end, a + 1), draw(st.sampled_from(LABELS))))
    return webanno.render(text, sorted(set(spans)))


def damaged(draw: Any, content: str) -> str:
    """``content`` with up to three of the changes a damaged or hand-edited file shows."""
    lines = content.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(0, len(lines) - 1))
        line = lines[k]
        how = draw(st.sampled_from(["drop", "twice", "blank", "comment", "digit", "subtoken",
                                    "cr", "stack", "tab", "version", "gap", "id"]))
        if how == "drop":
            del lines[k]
        elif how == "twice":
            lines.insert(k, line)
        elif how == "blank":
            lines.insert(k, "")
        elif how == "comment":
            lines.insert(k, "#Comment=x")
        elif how == "digit" and any(c.isdigit() for c in line):
            at = draw(st.sampled_from([i for i, c in enumerate(line) if c.isdigit()]))
            lines[k] = line[:at] + draw(st.sampled_from("0123456789")) + line[at + 1:]
        elif how == "subtoken" and line[:1].isdigit() and line.count("\t") >= 2:
            ident, offsets = line.split("\t")[:2]
            begin, _, end = offsets.partition("-")
            stop = draw(st.sampled_from([begin, end, str(int(begin) + 1) if begin.isdigit()
                                         else end]))
            lines.insert(k + 1, f"{ident}.1\t{begin}-{stop}\tx\tA[99]\t")
        elif how == "cr":
            lines[k] = line + "\r"
        elif how == "stack" and line.endswith("_\t"):
            lines[k] = line[:-2] + draw(st.sampled_from(["A[7]|B\t", "*\t", "Q[x]\t", "\t"]))
        elif how == "tab":
            lines[k] = line.replace("\t", "", 1)
        elif how == "version":
            lines[0] = "#FORMAT=WebAnno TSV 3.1"
        elif how == "gap" and line.startswith("#Text="):
            lines[k] = line + draw(st.sampled_from([" ", "\\t", "x😀"]))
        elif how == "id" and line[:1].isdigit():
            lines[k] = draw(st.sampled_from(["1-x", "-1", "1-1.", "1.1-1"])) + line[
                line.find("\t"):]
    return "\n".join(lines)


def outcome(read: Any) -> Any:
    """What reading gives: the documents' fields, or the error's file, line, field, message."""
    try:
        docs = read()
    except FormatError as exc:
        d = exc.diagnostic
        return ("error", d.file, d.line, d.field, d.message)
    return [(d.file, d.version, d.text, list(d.unit_line), list(d.unit_at), list(d.unit_stop),
             list(d.unit_begin), list(d.unit_end), d.warnings) for d in docs]


def spans(doc: webanno.TsvDocument, by_columns: bool) -> Any:
    try:
        got, warnings = webanno.spans_of(doc, CHOICE, by_columns=by_columns)
    except FormatError as exc:
        return ("error", exc.diagnostic.line, exc.diagnostic.field, exc.diagnostic.message)
    return got, [(str(m), line) for m, line in warnings]


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_columns_read_what_lines_read(data: Any) -> None:
    files = [(f"f{i}.tsv", damaged(data.draw, data.draw(rendered())))
             for i in range(data.draw(st.integers(1, 4)))]
    batch = data.draw(st.sampled_from([1, 10_000_000]))  # one file a batch, or all together
    fast = outcome(lambda: webanno.parse_many(files, batch=batch))
    slow = outcome(lambda: [webanno.parse(f, c, columns_first=False) for f, c in files])
    assert fast == slow
    if fast[0] == "error":
        return
    for (f, c) in files:
        doc = webanno.parse(f, c)
        assert spans(doc, True) == spans(doc, False)


def test_a_clean_export_is_read_by_columns() -> None:
    """The counters: generated files (escapes, stacked and multi-token spans, characters
    beyond the BMP) go through the arrays; a carriage return, or a block of '#' lines without
    a #Text= line, sends its file (only that one) line by line."""
    text = "Okafor said é 😀 a|b\nand c_d e\\f left .\n"
    spans_ = [Span(0, 6, "A"), Span(0, 11, "B|C"), Span(14, 15, "x_y"), Span(24, 27, "*")]
    clean = webanno.render(text, spans_)
    assert "[1]" in clean and "\\|" in clean and "\\_" in clean
    crlf = clean.replace("\n", "\r\n")
    comment = clean.replace("\n\n\n", "\n\n\n#Summary=about a ferry\n\n", 1)
    docs = webanno.parse_many([("a.tsv", clean), ("b.tsv", crlf), ("c.tsv", comment),
                               ("d.tsv", clean)])
    assert [d.read_by for d in docs] == ["columns", "lines", "lines", "columns"]
    # escaped tokens are compared in spans_of, not while parsing
    assert [d.tokens_match for d in docs] == [False, False, False, False]
    plain = webanno.parse_many([("p.tsv", webanno.render("Okafor said é\n", spans_[:2]))])
    assert plain[0].tokens_match and plain[0].read_by == "columns"
    assert docs[0].text == text and docs[3].text == text
    assert [d.text for d in docs[1:3]] == [text, text]
    got = [webanno.spans_of(d, CHOICE) for d in docs]
    assert [d.spans_read_by for d in docs] == ["columns", "lines", "columns", "columns"]
    assert got[0][0] == [(s.start, s.end, s.label) for s in spans_]
    assert got[0] == got[1] == got[3]
    assert got[2][0] == got[0][0]
    assert [str(m) for m, _ in got[2][1]] == [
        "line 5: '#' lines without a #Text= line (the first: '#Summary=about a ferry') hold no "
        "sentence; skipped as comments"]


def test_a_token_unlike_its_text_is_read_line_by_line() -> None:
    """A token cell that differs from the text at its offsets gets the warning the
    line-by-line loop gives (the one-scan reading gives way to it)."""
    clean = webanno.render("ferry board\n", [Span(0, 5, "A")])
    changed = clean.replace("\tboard\t", "\tbored\t")
    doc = webanno.parse_many([("a.tsv", changed)])[0]
    assert doc.read_by == "columns" and not doc.tokens_match
    got, warnings = webanno.spans_of(doc, CHOICE)
    assert doc.spans_read_by == "lines"
    assert got == [(0, 5, "A")]
    assert [(str(m), line) for m, line in warnings] == [
        ("the token column 'bored' differs from the text at 6-11, 'board'; the offsets are "
         "used", 7)]


def test_the_first_refused_file_raises_in_a_batch() -> None:
    """In a batch, the first file in order that is refused raises its own error, whether its
    header or its body is what is wrong."""
    clean = webanno.render("ferry board\n", [Span(0, 5, "A")])
    body = clean.replace("1-2\t6-11", "1-2\t4-11")  # overlaps the token before it
    head = "#FORMAT=Something else\n" + clean.split("\n", 1)[1]
    for files, where in (([("a", clean), ("b", body), ("c", head)], ("b", 7)),
                         ([("a", clean), ("c", head), ("b", body)], ("c", 1))):
        try:
            webanno.parse_many(files)
        except FormatError as exc:
            assert (exc.diagnostic.file, exc.diagnostic.line) == where
        else:
            raise AssertionError("no error")


def test_a_file_longer_than_the_bound_is_read_line_by_line(monkeypatch: Any) -> None:
    """A file longer than COLUMNS_MAX characters is read line by line (no copy of it and no
    arrays over its characters), to the same document; shorter ones in its batch by columns."""
    short = webanno.render("ferry board\n", [Span(0, 5, "A")])
    long = webanno.render("ferry board left the harbour\n" * 3, [Span(6, 11, "B")])
    monkeypatch.setattr(webanno, "COLUMNS_MAX", len(short))
    docs = webanno.parse_many([("a.tsv", short), ("b.tsv", long)])
    assert [d.read_by for d in docs] == ["columns", "lines"]
    assert outcome(lambda: docs[1:]) == outcome(lambda: [webanno.parse("b.tsv", long,
                                                                       columns_first=False)])
