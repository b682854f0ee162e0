"""Bad input: one hand-made broken file per error class, and the message it must produce.

Every message names the file, the line (or JSON path) and the field, what was expected and what
was found (issue 2, "Bad input"; ``core/model/errors.py``).
"""

from pathlib import Path

import pytest

from core.formats import ReadOptions, load_files, load_path
from core.model.docsets import check_same_documents
from core.model.errors import FormatError, InputError, UsageError

BROKEN = Path(__file__).parent / "broken"
LABELS = ["Doubt", "Loaded Language", "Slogans", "Name calling/Labeling"]


def _error(name: str, **kwargs: object) -> str:
    with pytest.raises(FormatError) as exc:
        load_path(BROKEN / name, **kwargs)  # type: ignore[arg-type]
    return str(exc.value)


def test_start_not_before_end_names_line_field_and_both_offsets() -> None:
    msg = _error("start_after_end.tsv")
    assert msg.endswith(
        "start_after_end.tsv:3: field 'end': expected an integer greater than start (12), got '9'"
    )


def test_start_equal_to_end_is_refused() -> None:
    with pytest.raises(FormatError, match=r"x.tsv:1: field 'end': expected an integer greater "
                       r"than start \(4\), got '4'"):
        load_files({"x.tsv": b"1\tDoubt\t4\t4\n"}, name="x.tsv")


def test_negative_offset_is_refused_with_json_path_and_line() -> None:
    msg = _error("negative_offset.json")
    assert ("negative_offset.json:3: [0].labels[0].start: field 'start': expected a "
            "non-negative integer offset, got -3") in msg


def test_fractional_offset_is_refused_not_truncated() -> None:
    msg = _error("fractional_offset.json")
    assert ("fractional_offset.json:4: [0].labels[1].end: field 'end': expected a "
            "non-negative integer offset, got 10.7") in msg


def test_non_numeric_offset_is_refused() -> None:
    msg = _error("non_numeric_offset.tsv")
    assert msg.endswith(
        "non_numeric_offset.tsv:1: field 'start': expected a non-negative integer offset, "
        "got 'abc'"
    )


def test_boolean_offset_is_refused() -> None:
    msg = _error("boolean_offset.jsonl")
    assert "boolean_offset.jsonl:1: field 'label[0][0]': expected a non-negative integer " \
        "offset, got true" in msg


def test_offset_beyond_known_text_is_refused() -> None:
    msg = _error("beyond_text.json")
    assert ("beyond_text.json:3: [0].labels[0].end: field 'end': expected an offset within the "
            "text (length 11), got 40") in msg


def test_offset_beyond_gold_text_is_refused_for_a_ptc_prediction() -> None:
    with pytest.raises(FormatError, match=r"p.tsv:1: field 'end': expected an offset within "
                       r"the text \(length 5\), got 9"):
        load_files({"p.tsv": b"1\tDoubt\t0\t9\n"}, name="p.tsv",
                   options=ReadOptions(gold_texts={"1": "Short"}))


def test_malformed_json_names_line_and_column() -> None:
    msg = _error("malformed.json")
    assert msg.endswith("malformed.json:3: malformed JSON at column 14: Expecting ',' delimiter")


def test_malformed_json_line_names_line_and_column() -> None:
    msg = _error("malformed.jsonl")
    assert msg.endswith("malformed.jsonl:2: malformed JSON at column 52: Expecting ',' delimiter")


def test_missing_label_field_is_named() -> None:
    msg = _error("missing_end.json")
    assert "missing_end.json:4: [0].labels[1]: field 'end': missing" in msg


def test_missing_labels_key_is_named_with_the_keys_found() -> None:
    msg = _error("missing_labels.json")
    assert "missing_labels.json:3: [1]: field 'labels': missing" in msg
    assert "keys found: 'id', 'text'" in msg


def test_missing_csv_column_is_named() -> None:
    msg = _error("missing_column.csv")
    assert msg.endswith("missing_column.csv:1: the header lacks end; expected "
                        "doc_id,start,end,label[,annotator], got 'doc_id,start,label'")


def test_duplicate_document_id_is_refused_naming_both_positions() -> None:
    msg = _error("duplicate_id.json")
    assert ("duplicate_id.json:4: [2].id: field 'id': duplicate document id '1': first at [0] "
            "(line 2), again at [2] (line 4)") in msg


def test_label_outside_the_label_list_is_refused_with_a_suggestion() -> None:
    msg = _error("unknown_label.json", options=ReadOptions(labels=LABELS))
    assert ("unknown_label.json:3: [0].labels[0].technique: field 'technique': expected one of "
            "the 4 labels of the label list, got 'Loaded language' (did you mean "
            "'Loaded Language'?)") in msg


def test_label_outside_the_label_list_is_refused_in_ptc() -> None:
    with pytest.raises(FormatError, match=r"p.tsv:2: field 'technique': expected one of the 4 "
                       r"labels of the label list, got 'Flag_Waving'"):
        load_files({"p.tsv": b"1\tDoubt\t0\t4\n1\tFlag_Waving\t5\t9\n"}, name="p.tsv",
                   options=ReadOptions(labels=LABELS))


def test_gold_and_prediction_document_sets_differ_lists_ids_on_each_side() -> None:
    gold = [str(i) for i in range(1, 11)]
    pred = [str(i) for i in range(4, 18)]
    with pytest.raises(InputError) as exc:
        check_same_documents(gold, pred, "gold.json", "pred.json", "identical")
    msg = str(exc.value)
    assert ("7 only in pred.json ('11', '12', '13', '14', '15' and 2 more); "
            "3 only in gold.json ('1', '2', '3')") in msg


def test_prediction_subset_policy_accepts_missing_and_refuses_extra_documents() -> None:
    check_same_documents(["1", "2", "3"], ["2"], "gold", "pred", "pred-subset-of-gold")
    with pytest.raises(InputError, match=r"every document of pred must be in gold: 1 only in "
                       r"pred \('9'\)"):
        check_same_documents(["1", "2"], ["2", "9"], "gold", "pred", "pred-subset-of-gold")


def test_unknown_document_set_policy_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="The 'policy' parameter"):
        check_same_documents([], [], "g", "p", "loose")  # type: ignore[arg-type]


def test_text_fragment_mismatch_is_a_warning_showing_both_strings() -> None:
    loaded = load_path(BROKEN / "fragment_mismatch.json")
    messages = [str(d) for d in loaded.diagnostics]
    assert any(
        "fragment_mismatch.json:3: [0].labels[0]: field 'text_fragment': the fragment given, "
        "'corrupt crook', differs from the text at [9, 23), 'corrupt crooks'" in m
        for m in messages
    )


def test_span_beginning_in_whitespace_is_a_warning_showing_the_fragment() -> None:
    loaded = load_path(BROKEN / "fragment_mismatch.json")
    messages = [str(d) for d in loaded.diagnostics]
    assert any("[0].labels[1]: the span [8, 16) begins in whitespace: ' corrupt'" in m
               for m in messages)
    assert loaded.set.get("1")[0].label == "Name calling/Labeling"  # kept, not dropped


def test_numeric_document_id_is_read_as_string_with_a_warning() -> None:
    loaded = load_path(BROKEN / "numeric_id.json")
    assert loaded.set.doc_ids == ["7"]
    assert "a numeric id 7 is read as the string '7'" in str(loaded.diagnostics[0])


def test_ptc_blank_line_is_refused_clearly() -> None:
    msg = _error("blank_line.tsv")
    assert msg.endswith("blank_line.tsv:2: blank line: a PTC file has one annotation per line "
                        "and no blank lines (the official scorer rejects them too)")


def test_ptc_final_newline_is_not_a_blank_line() -> None:
    loaded = load_files({"p.tsv": b"1\tDoubt\t0\t4\n"}, name="p.tsv")
    assert loaded.set.spans == {"1": (loaded.set.get("1")[0],)}


def test_ptc_row_with_spaces_instead_of_tabs_is_refused() -> None:
    msg = _error("spaces_not_tabs.tsv")
    assert "spaces_not_tabs.tsv:2: expected 3 or 4 TAB-separated columns" in msg
    assert "got 1 (columns must be separated by TAB characters)" in msg


def test_ptc_header_row_is_refused_with_a_hint() -> None:
    msg = _error("header_row.tsv")
    assert msg.endswith("header_row.tsv:1: field 'article_id': expected a numeric article id, "
                        "got 'article_id'; PTC files have no header row")


def test_ptc_row_id_differing_from_file_name_id_is_refused() -> None:
    msg = _error("ptc_id_mismatch")
    assert msg.endswith("ptc_id_mismatch/article2.labels:2: field 'article_id': expected the "
                        "article id of the file name (2), got '3'")


def test_ptc_gold_file_name_without_article_id_is_refused() -> None:
    msg = _error("ptc_bad_name")
    assert "ptc_bad_name/gold_one.labels: expected a file name with an article id" in msg
    assert "got 'gold_one.labels'" in msg


def test_label_studio_two_annotations_by_one_annotator_are_refused() -> None:
    msg = _error("two_annotations_same_person.json")
    assert ("two_annotations_same_person.json:5: [0].annotations[1]: annotator 4 has two "
            "annotations for task '1'") in msg


def test_skipped_records_are_reported_one_by_one() -> None:
    loaded = load_path(BROKEN / "cancelled_and_choices.json")
    messages = [str(d) for d in loaded.diagnostics]
    assert messages == [
        f"{BROKEN / 'cancelled_and_choices.json'}:4: [0].annotations[0]: a cancelled "
        "annotation; skipped",
        f"{BROKEN / 'cancelled_and_choices.json'}:6: [0].annotations[1].result[0]: a choices "
        "result, not a span label; skipped",
    ]
    assert [s.name for s in loaded.sets] == ["annotator 5"]


def test_brat_discontinuous_annotation_becomes_separate_spans_with_a_warning() -> None:
    loaded = load_path(BROKEN / "discontinuous.ann")
    spans = loaded.set.get("discontinuous")
    assert [(s.start, s.end) for s in spans] == [(0, 5), (10, 15)]
    messages = [str(d) for d in loaded.diagnostics]
    assert "discontinuous.ann:1: T1 is discontinuous (0 5;10 15); each of its 2 fragments " \
        "becomes a separate span" in messages[0]
    assert "discontinuous.ann:2: skipped an attribute line" in messages[1]


def test_undetectable_format_asks_for_an_explicit_one() -> None:
    msg = _error("unknown_format.dat")
    assert "unknown_format.dat: could not detect the format; pass it explicitly" in msg


def test_invalid_utf8_names_the_line_and_byte() -> None:
    with pytest.raises(FormatError, match=r"p.tsv:2: expected UTF-8 text, found byte 0xff"):
        load_files({"p.tsv": b"1\tDoubt\t0\t4\n1\t\xff\t5\t9\n"}, name="p.tsv", fmt="ptc")


def test_duplicate_span_is_kept_with_a_warning_naming_both_lines() -> None:
    loaded = load_files({"p.tsv": b"1\tDoubt\t0\t4\n1\tSlogans\t5\t9\n1\tDoubt\t0\t4\n"},
                        name="p.tsv")
    assert len(loaded.set.get("1")) == 3  # both copies count in the Martino sums
    assert [str(d) for d in loaded.diagnostics] == [
        "p.tsv:3: article 1 has the span [0, 4) 'Doubt' again (first on line 1); kept (each "
        "copy counts in the scores)"]


def test_json_locator_finds_lines_of_any_element_and_one_line_files_are_line_1() -> None:
    import json

    from core.formats._common import JsonLocator

    records = [{"id": str(i), "labels": [{"start": i, "end": i + 1}]} for i in range(50)]
    pretty = json.dumps(records, indent=1)
    loc = JsonLocator(pretty)
    for i in (0, 7, 49):
        line = loc.line_of(f"[{i}].labels[0].end")
        assert line is not None and f'"end": {i + 1}' in pretty.splitlines()[line - 1]
    assert loc.line_of("[7].nosuchkey") == loc.line_of("[7]")  # a missing key: its parent
    assert JsonLocator(json.dumps(records) + "\n").line_of("[40].labels[0].start") == 1
    obj = json.dumps({"a": {"b": [1, 2]}}, indent=2)
    assert JsonLocator(obj).line_of("a.b[1]") == 5
