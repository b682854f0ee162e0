"""``slices`` text output never cuts a set or bucket name (issue 26, §5); short names keep the
columns they always had."""

from __future__ import annotations

from core.cli.render import render_slices


def _result(system: str, bucket: str) -> dict[str, object]:
    row = {"system": system, "bucket": bucket, "documents": 3, "reference spans": 10,
           "predicted spans": 8, "P": 0.5, "R": 0.4, "F1": 0.444, "F1 low": 0.2, "F1 high": 0.6}
    return {"dimension": "length", "metric": "martino", "samples": 100, "seed": 0,
            "buckets": [row]}


def test_a_long_set_name_is_printed_whole() -> None:
    name = "test_sets_conll_sharp_conll_sharp_system_a"
    out = render_slices(_result(name, "very long bucket name, 120 to 480 characters"))
    assert name in out and "very long bucket name, 120 to 480 characters" in out
    header, row = out.splitlines()[1:3]
    assert header.index("docs") == row.index("3") - 3  # the columns still line up


def test_short_names_keep_the_old_layout() -> None:
    lines = render_slices(_result("system_a", "short")).splitlines()
    assert lines[1] == ("  system          bucket                  docs  #ref #pred       P"
                        "       R      F1  interval")
    assert lines[2] == ("  system_a        short                      3    10     8   0.500"
                        "   0.400   0.444  [0.200, 0.600]")
