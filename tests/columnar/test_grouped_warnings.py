"""Grouped warnings: one Diagnostic standing for N occurrences, listed and counted as N."""

from __future__ import annotations

from collections.abc import Iterator

from core.cli.common import warning_counts, warning_summary
from core.model.errors import Diagnostic, Occurrences, Position, expand, warning_total


def _group(token: object, kind_word: str, positions: list[int]) -> Diagnostic:
    def produce() -> Iterator[tuple[Position, Diagnostic]]:
        for p in positions:
            yield (p,), Diagnostic("f.json", f"span {p} {kind_word}", p)

    first = next(produce())[1]
    return Diagnostic(first.file, first.message, first.line, kind=first.kind,
                      count=len(positions), more=Occurrences(token, produce))


def test_groups_of_one_file_are_listed_in_file_order_between_other_warnings() -> None:
    token = object()
    ws = _group(token, "ends in whitespace", [1, 4, 5])
    dup = _group(token, "more than once", [2, 6])
    warnings: list[Diagnostic | str] = ["before", ws, dup, "after"]
    listed = [w if isinstance(w, str) else w.message for w in expand(warnings)]
    assert listed == ["before", "span 1 ends in whitespace", "span 2 more than once",
                      "span 4 ends in whitespace", "span 5 ends in whitespace",
                      "span 6 more than once", "after"]
    assert warning_total(warnings) == 7
    assert warning_counts(warnings) == {"whitespace": 3, "duplicate-span": 2, "other": 2}


def test_groups_of_different_files_keep_their_order() -> None:
    a = _group(object(), "ends in whitespace", [5, 6])
    b = _group(object(), "ends in whitespace", [1, 2])
    assert [d.line for d in expand([a, b])] == [5, 6, 1, 2]  # type: ignore[union-attr]


def test_the_summary_counts_every_occurrence_and_lists_the_first_ones() -> None:
    group = _group(object(), "ends in whitespace", list(range(1, 26)))
    lines = warning_summary([group], all_warnings=False)
    assert lines[0] == "warnings: 25 (whitespace 25)"
    assert lines[1] == "warning: f.json:1: span 1 ends in whitespace"
    assert lines[-1] == "15 more; pass --all-warnings to list them all"
    assert len(warning_summary([group], all_warnings=True)) == 26
    assert group == Diagnostic("f.json", "span 1 ends in whitespace", 1, kind="whitespace",
                               count=25)  # ``more`` takes no part in equality
