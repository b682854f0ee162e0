"""Benchmark: the SVG export's bidirectional levels (``core/render/bidi.py``), base against tree.

Loads ``core/render/bidi.py`` of a base revision (``git show REV:core/render/bidi.py``) and of
the working tree side by side in one process and measures, in interleaved rounds (the order
alternating), medians of ``--repeat`` of the CPU time (``time.process_time``) and wall time of:

- ``levels``: ``levels(line, rtl=False)`` 20 times on one mixed line of 9,600 characters (Latin,
  Hebrew, Arabic, numbers with separators; the first comparison with FriBidi measured it);
- ``levels-brackets``: the same with parentheses round each Hebrew word (rule N0's work);
- ``svg-rtl``: ``core.render.svg.document_svg`` of a long right-to-left document (the texts of
  ``tests/data/rtl/`` repeated to ``--chars`` characters, their spans repeated with them), the
  module's ``is_rtl``, ``line_levels`` and ``reorder`` taken from the side measured (a base
  without them: each line resolved alone by its ``levels``).

It checks that both sides give the same levels on the lines measured where the base has no
rule the tree adds (the plain line) and prints the ratio tree / base.

Run: ``python bench/bench_bidi.py [--base HEAD] [--repeat 7] [--chars 100000]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.render import highlight, svg  # noqa: E402

LINE = "the harbour board said שלום 1,234 times في 1990 " * 200
BRACKETS = "the harbour board said (שלום) 1,234 times في 1990 " * 192


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _document(chars: int) -> tuple[str, list[highlight.SpanItem]]:
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "data" / "rtl" / "rtl_gold.jsonl").read_text("utf-8").splitlines()]
    text, at = "", 0
    items: list[highlight.SpanItem] = []
    while len(text) < chars:
        for row in rows:
            for start, end, label in row["label"]:
                items.append(highlight.SpanItem(f"G{len(items) + 1}", at + start, at + end,
                                                (label,)))
            text += row["text"] + " "
            at = len(text)
    return text, items


def _measure(run: Callable[[ModuleType], object], module: ModuleType) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    run(module)
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="HEAD")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--chars", type=int, default=100_000)
    args = parser.parse_args()
    source = subprocess.run(["git", "show", f"{args.base}:core/render/bidi.py"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        base_path = Path(tmp) / "bidi_base.py"
        base_path.write_text(source, encoding="utf-8")
        sides = {"base": _load(base_path, "bidi_base"),
                 "tree": _load(ROOT / "core" / "render" / "bidi.py", "bidi_tree")}
    assert sides["base"].levels(LINE, rtl=False) == sides["tree"].levels(LINE, rtl=False)
    text, items = _document(args.chars)
    colours = highlight.label_colours(sorted({lab for it in items for lab in it.labels}))

    def svg_export(module: ModuleType) -> str:
        # A base without line_levels (before the paragraph was resolved whole) resolves each
        # line alone, as its SVG export did; L2 (reorder) is the same rule on both sides.
        svg.is_rtl = module.is_rtl
        svg.line_levels = getattr(module, "line_levels", None) or (
            lambda para, lines, *, rtl: [module.levels(para[a:b], rtl=rtl) for a, b in lines])
        svg.reorder = getattr(module, "reorder", sides["tree"].reorder)
        return svg.document_svg("long", text, items, items, colours, gold_name="gold",
                                pred_name="system")

    cases: dict[str, Callable[[ModuleType], object]] = {
        "levels": lambda m: [m.levels(LINE, rtl=False) for _ in range(20)],
        "levels-brackets": lambda m: [m.levels(BRACKETS, rtl=False) for _ in range(20)],
        "svg-rtl": svg_export,
    }
    print(f"base {args.base}; line {len(LINE):,} characters; document {len(text):,} characters, "
          f"{len(items):,} spans per side; {args.repeat} interleaved rounds")
    for name, case in cases.items():
        times: dict[str, list[tuple[float, float]]] = {"base": [], "tree": []}
        for side in ("base", "tree"):  # warm-up
            case(sides[side])
        for k in range(args.repeat):
            for side in (("base", "tree") if k % 2 == 0 else ("tree", "base")):
                times[side].append(_measure(case, sides[side]))
        cpu = {s: statistics.median(c for c, _ in t) for s, t in times.items()}
        wall = {s: statistics.median(w for _, w in t) for s, t in times.items()}
        print(f"{name:16} CPU base {cpu['base']:.3f} s, tree {cpu['tree']:.3f} s "
              f"(tree/base {cpu['tree'] / cpu['base']:.2f}); wall base {wall['base']:.3f} s, "
              f"tree {wall['tree']:.3f} s")


if __name__ == "__main__":
    main()
