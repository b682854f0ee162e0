"""The ``parquet`` spans format (core/formats/parquet.py): round trips through ``convert`` with
every writable format, documents without spans, several sets, shards, and every refusal naming
file, row and column."""

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli import main
from core.formats import WRITABLE, ReadOptions, detect, load_files, load_path
from core.model import AnnotationSet, Span
from core.model.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"

# (source file, target file name) per writable format, from a sample that format can hold.
TARGETS = {
    "semeval2021": (SAMPLES / "propaganda" / "gold.json", "x.json"),
    "ptc": (SAMPLES / "formats" / "ptc_gold", "x_ptc"),
    "mafalda": (SAMPLES / "mafalda" / "gold.jsonl", "x.jsonl"),
    "brat": (SAMPLES / "formats" / "brat_gold", "x_brat"),
    "doccano": (SAMPLES / "formats" / "doccano_gold.jsonl", "x.jsonl"),
    "spans-csv": (SAMPLES / "formats" / "spans_annotators.csv", "x.csv"),
    "webanno-tsv": (SAMPLES / "formats" / "inception_export", "x_tsv"),
    "conll": (SAMPLES / "formats" / "conll_gold.conll", "x.conll"),
    "spacy": (SAMPLES / "formats" / "spacy_ner.jsonl", "x.jsonl"),
}


def _same(a: list[AnnotationSet], b: list[AnnotationSet], *, names: bool) -> None:
    assert len(a) == len(b)
    for x, y in zip(sorted(a, key=lambda s: s.name), sorted(b, key=lambda s: s.name),
                    strict=True):
        assert dict(x.spans) == dict(y.spans)
        if names:
            assert (x.name, x.role) == (y.name, y.role)


def test_every_writable_span_format_is_covered() -> None:
    assert set(TARGETS) == set(WRITABLE) - {"hateval"}  # HatEval holds text labels, no spans


@pytest.mark.parametrize("fmt", sorted(TARGETS))
def test_convert_roundtrip_through_parquet_keeps_spans_texts_and_sets(fmt: str,
                                                                      tmp_path: Path) -> None:
    source, name = TARGETS[fmt]
    original = load_path(source)
    multi = ["--set", original.sets[0].name] if len(original.sets) > 1 and fmt in (
        "semeval2021", "ptc", "mafalda", "brat", "doccano", "conll", "spacy") else []
    # 1. the format's own file, written by convert
    first = tmp_path / name
    assert main(["convert", str(source), str(first), "--to", fmt, *multi]) == 0
    expected = load_path(first)
    # 2. that file -> parquet: same sets (names and roles of several sets), texts, documents
    table = tmp_path / "t.parquet"
    assert main(["convert", str(first), str(table), "--to", "parquet"]) == 0
    assert (tmp_path / "t.texts.parquet").is_file()
    got = load_path(table)
    assert got.format == "parquet"
    _same(got.sets, expected.sets, names=len(expected.sets) > 1)
    assert got.texts == expected.texts
    # 3. parquet -> the format again: what the format held comes back
    second = tmp_path / ("y" + name[1:])
    assert main(["convert", str(table), str(second), "--to", fmt]) == 0
    again = load_path(second)
    _same(again.sets, expected.sets, names=len(expected.sets) > 1)
    assert again.texts == expected.texts


def test_documents_without_spans_survive_with_and_without_texts(tmp_path: Path) -> None:
    from core.formats.tools import write_sets

    aset = AnnotationSet("runs", {"a": (Span(0, 3, "X"),), "empty": (), "b": ()}, "system")
    for texts in ({"a": "abc def", "empty": "nothing here", "b": None},
                  {"a": None, "empty": None, "b": None}):
        out = tmp_path / "runs.parquet"
        write_sets([aset], out, to="parquet", texts=texts)
        back = load_path(out, options=ReadOptions(role="system"))
        assert dict(back.set.spans) == dict(aset.spans)
        assert back.set.doc_ids == ["a", "empty", "b"]
        assert back.texts == texts
        # without the texts table the declaration rows alone keep the empty documents
        (tmp_path / "runs.texts.parquet").unlink()
        alone = load_path(out, options=ReadOptions(role="system"))
        assert dict(alone.set.spans) == dict(aset.spans)


def test_one_file_holds_gold_and_predictions_with_their_roles(tmp_path: Path) -> None:
    from core.formats.tools import write_sets

    gold = AnnotationSet("gold", {"d": (Span(0, 4, "A"),), "e": ()}, "gold")
    pred = AnnotationSet("pred", {"d": (Span(1, 4, "A"), Span(1, 4, "B"))}, "system")
    out = tmp_path / "both.parquet"
    write_sets([gold, pred], out, to="parquet", texts={"d": "abcdef", "e": "xyz"})
    back = load_path(out)
    assert [(s.name, s.role) for s in back.sets] == [("gold", "gold"), ("pred", "system")]
    assert dict(back.sets[0].spans) == dict(gold.spans)
    assert dict(back.sets[1].spans) == dict(pred.spans)  # pred does not cover "e"
    assert pq.read_table(out).column_names == ["doc_id", "start", "end", "label", "set"]


def _write(path: Path, columns: dict[str, pa.Array], texts: dict[str, list] | None = None
           ) -> Path:
    pq.write_table(pa.table(columns), path)
    if texts is not None:
        pq.write_table(pa.table(texts), path.with_name(path.stem + ".texts.parquet"))
    return path


def test_a_hand_made_table_with_a_texts_table_needs_no_declaration_rows(tmp_path: Path) -> None:
    path = _write(tmp_path / "g.parquet",
                  {"doc_id": pa.array(["d2", "d1", "d2"]), "start": pa.array([5, 0, 0]),
                   "end": pa.array([9, 4, 3], pa.int32()), "label": pa.array(["B", "A", "A"])},
                  {"doc_id": ["d1", "d2", "d3"], "text": ["abcd", "abc  defgh", None]})
    loaded = load_path(path)
    assert loaded.set.name == "g" and loaded.set.role == "gold"
    assert dict(loaded.set.spans) == {"d2": (Span(0, 3, "A"), Span(5, 9, "B")),
                                      "d1": (Span(0, 4, "A"),), "d3": ()}
    assert loaded.texts == {"d2": "abc  defgh", "d1": "abcd", "d3": None}
    assert detect({"g.parquet": path.read_bytes()}) == "parquet"
    assert detect({"noext": path.read_bytes()}) == "parquet"


def test_a_folder_of_shards_reads_as_one_set_and_refuses_a_document_in_two(tmp_path: Path
                                                                           ) -> None:
    shards = tmp_path / "gold"
    shards.mkdir()
    _write(shards / "part-0.parquet", {"doc_id": pa.array(["a"]), "start": pa.array([0]),
                                       "end": pa.array([2]), "label": pa.array(["X"])},
           {"doc_id": ["a"], "text": ["hello"]})
    _write(shards / "part-1.parquet", {"doc_id": pa.array(["b"]), "start": pa.array([1]),
                                       "end": pa.array([3]), "label": pa.array(["Y"])})
    loaded = load_path(shards)
    assert loaded.set.name == "gold"
    assert dict(loaded.set.spans) == {"a": (Span(0, 2, "X"),), "b": (Span(1, 3, "Y"),)}
    assert loaded.texts == {"a": "hello", "b": None}
    _write(shards / "part-2.parquet", {"doc_id": pa.array(["a"]), "start": pa.array([0]),
                                       "end": pa.array([1]), "label": pa.array(["X"])})
    with pytest.raises(FormatError, match=r"part-2.parquet: field 'doc_id': document 'a' of "
                       r"set 'gold' is also in .*part-0.parquet"):
        load_path(shards)


def test_numeric_ids_are_read_as_strings_with_a_warning_and_duplicates_warned(tmp_path: Path
                                                                              ) -> None:
    path = _write(tmp_path / "n.parquet",
                  {"doc_id": pa.array([7, 7]), "start": pa.array([0, 0]),
                   "end": pa.array([2, 2]), "label": pa.array(["X", "X"])})
    loaded = load_path(path)
    assert dict(loaded.set.spans) == {"7": (Span(0, 2, "X"), Span(0, 2, "X"))}
    messages = [str(d) for d in loaded.diagnostics]
    assert any("numeric document ids" in m for m in messages)
    assert any("more than once; kept" in m for m in messages)


SPANS = {"doc_id": pa.array(["a", "b", "c"]), "start": pa.array([0, 4, 2]),
         "end": pa.array([3, 8, 5]), "label": pa.array(["X", "Y", "Z"])}


@pytest.mark.parametrize(("change", "message"), [
    ({"start": pa.array([0.0, 4.0, 2.0])},
     r"bad.parquet: field 'start': expected an integer column, got double \(cast it"),
    ({"label": pa.array([1, 2, 3])}, r"bad.parquet: field 'label': expected a string column, "
                                      r"got int64"),
    ({"doc_id": pa.array([1.5, 2.5, 3.5])},
     r"bad.parquet: field 'doc_id': expected a string column, got double"),
    ({"start": pa.array([0, 4, -2])},
     r"bad.parquet: row 2: field 'start': expected a non-negative integer offset, got -2"),
    ({"end": pa.array([3, 4, 5])},
     r"bad.parquet: row 1: field 'end': expected an integer greater than start \(4\), got '4'"),
    ({"label": pa.array(["X", None, "Z"])},
     r"bad.parquet: row 1: field 'label': missing \(a row is a span"),
    ({"label": pa.array(["X", "Y", " "])},
     r"bad.parquet: row 2: field 'label': expected a non-empty label string, got ' '"),
    ({"doc_id": pa.array(["a", None, "c"])},
     r"bad.parquet: row 1: field 'doc_id': missing \(every row needs a document id\)"),
    ({"end": None}, r"bad.parquet: the table lacks the column\(s\) end; expected doc_id, start"),
    ({"set": pa.array(["g", None, "g"])}, r"bad.parquet: row 1: field 'set': missing"),
])
def test_a_bad_value_is_refused_naming_file_row_and_column(
        change: dict, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    columns = {k: v for k, v in {**SPANS, **change}.items() if v is not None}
    path = _write(tmp_path / "bad.parquet", columns)
    with pytest.raises(FormatError, match=message):
        load_path(path)
    capsys.readouterr()
    assert main(["convert", str(path), str(tmp_path / "o.json"), "--to", "semeval2021"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_span_past_its_text_and_a_repeated_text_id_are_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "bad.parquet", SPANS,
                  {"doc_id": ["a", "b", "c"], "text": ["abc", "abcd", "abcdef"]})
    with pytest.raises(FormatError, match=r"bad.parquet: row 1: field 'end': expected an offset "
                       r"within the text \(length 4\), got 8"):
        load_path(path)
    kept = load_path(path, options=ReadOptions(beyond_text="official"))
    assert kept.set.spans["b"] == (Span(4, 8, "Y"),)
    assert any("past the text" in str(d) for d in kept.diagnostics)
    _write(tmp_path / "bad.parquet", SPANS,
           {"doc_id": ["a", "b", "a"], "text": ["abc", "abcdefgh", "abc"]})
    with pytest.raises(FormatError, match=r"bad.texts.parquet: row 2: field 'doc_id': duplicate "
                       r"document id 'a': first at row 0, again at row 2"):
        load_path(path)


def test_labels_outside_the_list_and_files_that_are_not_parquet(tmp_path: Path) -> None:
    path = _write(tmp_path / "g.parquet", SPANS)
    with pytest.raises(FormatError, match=r"g.parquet: row 2: field 'label': expected one of"):
        load_path(path, options=ReadOptions(labels=["X", "Y"]))
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 this is not really parquet")
    with pytest.raises(FormatError, match=r"broken.parquet: expected a Parquet file"):
        load_path(broken)


def _valid_bytes() -> bytes:
    import io

    buf = io.BytesIO()
    pq.write_table(pa.table(SPANS), buf)
    return buf.getvalue()


VALID = _valid_bytes()


@settings(deadline=None, max_examples=80)
@given(st.data())
def test_a_damaged_table_raises_only_format_errors(data: st.DataObject) -> None:
    raw = bytearray(VALID)
    for _ in range(data.draw(st.integers(1, 8))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(8, len(raw)))
    try:
        loaded = load_files({"x.parquet": bytes(raw[:cut])}, fmt="parquet")
    except FormatError as exc:
        assert str(exc).startswith("x.parquet")  # names the file, one line
        assert "\n" not in str(exc)
    else:  # a byte that did not matter (statistics, padding): the spans are valid spans
        assert all(isinstance(sp, Span) for s in loaded.sets for v in s.spans.values()
                   for sp in v)


def test_dictionary_columns_and_narrow_integers_are_read(tmp_path: Path) -> None:
    # what pandas writes for a categorical column, and offsets as small unsigned integers
    path = _write(tmp_path / "c.parquet", {
        "doc_id": pa.array(["a", "a", "b"]).dictionary_encode(),
        "start": pa.array([0, 1, 2], pa.uint16()), "end": pa.array([3, 4, 5], pa.int8()),
        "label": pa.array(["X", "Y", "X"]).dictionary_encode(),
        "set": pa.array(["g", "g", "p"]).dictionary_encode()})
    loaded = load_path(path)
    assert [(s.name, s.role, dict(s.spans)) for s in loaded.sets] == [
        ("g", "annotator", {"a": (Span(0, 3, "X"), Span(1, 4, "Y"))}),
        ("p", "annotator", {"b": (Span(2, 5, "X"),)})]


def test_tables_without_spans_read_and_more_shards_than_documents(tmp_path: Path) -> None:
    from core.engines.sharded import write_shards

    only_empty = AnnotationSet("g", {"a": (), "b": ()})
    write_shards([only_empty], {"a": "x", "b": None}, tmp_path / "empty", shards=3)
    loaded = load_path(tmp_path / "empty")
    assert dict(loaded.set.spans) == {"a": (), "b": ()}
    assert load_path(tmp_path / "empty" / "part-00002.parquet").set.spans == {}
    source = load_path(SAMPLES / "propaganda" / "gold.json")
    write_shards(source.sets, source.texts, tmp_path / "many", shards=14)
    many = load_path(tmp_path / "many")
    assert dict(many.set.spans) == dict(source.set.spans) and many.texts == source.texts


TEXT = st.text(alphabet=st.sampled_from([*list("ab c.\n\t"), "\u2028", "é", "😀", "\r"]),
               min_size=1, max_size=30)
LABEL = st.text(alphabet=st.sampled_from([*list("abXY é/-()'"), "ü"]), min_size=1,
                max_size=8).map(str.strip).filter(bool)


@st.composite
def _corpora(draw: st.DrawFn) -> tuple[dict[str, str | None], list[AnnotationSet]]:
    ids = draw(st.lists(st.from_regex(r"[a-z0-9_]{1,5}", fullmatch=True), max_size=4,
                        unique=True))
    texts: dict[str, str | None] = {d: draw(st.none() | TEXT) for d in ids}
    sets = []
    names = draw(st.lists(st.sampled_from(["gold", "sys", "ann 1", "ann/2"]), min_size=1,
                          max_size=3, unique=True))
    for name in names:
        spans: dict[str, tuple[Span, ...]] = {}
        for d in ids:
            if len(names) > 1 and not draw(st.booleans()):
                continue  # a set that does not cover every document
            length = len(texts[d] or "x" * 50)
            items = []
            for _ in range(draw(st.integers(0, 3))):
                start = draw(st.integers(0, length - 1))
                items.append(Span(start, draw(st.integers(start + 1, length)), draw(LABEL)))
            spans[d] = tuple(sorted(items))
        role = draw(st.sampled_from(["gold", "system", "annotator"]))
        sets.append(AnnotationSet(name, spans, role, draw(st.booleans())))
    return texts, sets


@settings(deadline=None, max_examples=60)
@given(_corpora())
def test_write_then_read_gives_the_same_sets_roles_and_texts(
        corpus: tuple[dict[str, str | None], list[AnnotationSet]]) -> None:
    from core.formats import parquet

    texts, sets = corpus
    loaded = load_files(parquet.write_tables(texts, sets, "x"), fmt="parquet", name="x.parquet",
                        options=ReadOptions(role=sets[0].role))
    assert loaded.texts == {**texts, **{d: None for s in sets for d in s.spans
                                       if d not in texts}}
    assert len(loaded.sets) == len(sets)
    for got, want in zip(sorted(loaded.sets, key=lambda s: s.name),
                         sorted(sets, key=lambda s: s.name), strict=True):
        assert (got.role, got.alternatives) == (want.role, want.alternatives)
        if len(sets) > 1 or want.role == "annotator":
            assert got.name == want.name
        assert dict(got.spans) == dict(want.spans)


def test_duplicate_spans_name_their_rows_and_columns(tmp_path: Path) -> None:
    # every other reader names file, line and field of a repeated span; a Parquet table has
    # rows (0-based, as df.iloc counts them) and columns
    path = _write(tmp_path / "dup.parquet",
                  {"doc_id": pa.array(["a", "b", "a", "a", "b"]),
                   "start": pa.array([0, 1, 4, 0, 1]), "end": pa.array([2, 3, 6, 2, 3]),
                   "label": pa.array(["X", "Y", "X", "X", "Y"]),
                   "set": pa.array(["gold"] * 5)})
    loaded = load_path(path)
    assert [(d.path, d.field, d.kind) for d in loaded.diagnostics] == [
        ("row 3", "set, doc_id, start, end, label", "duplicate-span"),
        ("row 4", "set, doc_id, start, end, label", "duplicate-span")]
    assert str(loaded.diagnostics[0]) == (
        f"{path}: row 3: field 'set, doc_id, start, end, label': gold: document 'a' has the span "
        "[0, 2) 'X' more than once; kept (each copy counts in the scores; first at row 0, "
        "rows counted from 0 as df.iloc counts them)")
    assert "first at row 1," in str(loaded.diagnostics[1])
    assert dict(loaded.sets[0].spans)["a"] == (Span(0, 2, "X"), Span(0, 2, "X"),
                                               Span(4, 6, "X"))
    # without a set column the field names the four columns
    plain = _write(tmp_path / "plain.parquet", {"doc_id": pa.array(["a", "a"]),
                                                "start": pa.array([0, 0]),
                                                "end": pa.array([2, 2]),
                                                "label": pa.array(["X", "X"])})
    (warning,) = load_path(plain).diagnostics
    assert (warning.path, warning.field) == ("row 1", "doc_id, start, end, label")
