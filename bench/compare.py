"""The key benchmarks in two revisions side by side: CPU time of whole processes, interleaved,
their ratio (issue 29, "a guard").

A change to a hot path is measured against the revision before it, on the same machine in the
same minutes, so that the other jobs of a shared machine weigh on both sides alike. The base
revision is checked out as a ``git worktree`` (detached, in the temporary folder, reused when it
exists); each command then runs as ``python -m core ...`` with the checkout as its working
directory, once in the base and once in the tree per round, the order alternating between
rounds, after one warm-up run on each side (bytecode written, files in the page cache). For
each command it prints the medians of CPU time (user + system of the child, read with
``getrusage(RUSAGE_CHILDREN)`` in a tiny parent per run), wall time and peak RSS on both sides,
the CPU ratio tree / base, and whether both printed the same bytes.

    python bench/compare.py REV [--tree .] [--repeat 5] [--docs 20000] [--only NAME,...]
    python bench/compare.py REV --docs 100000 --only martino,mafalda,errors,char-kappa

The corpora are ``bench_scale.py``'s (``bench_read.py``'s generator: ~950 characters per
document, 10 spans per document and side, 20 labels, MAFALDA copies with and without
alternatives) and a copy of the pair whose texts carry emoji written as escaped surrogate pairs,
written once into ``--out``. ``--list`` prints the command names. A command that fails on one
side is reported and skipped; pick the others with ``--only``. Other benchmarks compare with
external tools (``bench_read.py --official``, ``bench_nervaluate.py``,
``bench_mafalda_levels.py --official``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_read import _CHILD, CHILD_ENV
from bench_scale import commands as scale_commands
from bench_scale import write_corpus


def write_emoji_pair(folder: Path) -> tuple[Path, Path]:
    """``gold.json``/``pred.json`` again, every tenth text ending in an emoji (``json.dumps``
    writes it as an escaped surrogate pair, ``\\ud83d\\ude00``), offsets unchanged."""
    out = []
    for name in ("gold", "pred"):
        docs = json.loads((folder / f"{name}.json").read_bytes())
        for i, doc in enumerate(docs):
            if i % 10 == 0:
                doc["text"] = doc["text"][:-1] + "\U0001F600"
        path = folder / f"{name}_emoji.json"
        path.write_text(json.dumps(docs), encoding="ascii")
        out.append(path)
    return out[0], out[1]


def all_commands(folder: Path) -> dict[str, list[str]]:
    """Name -> arguments of ``python -m core``."""
    g, p = str(folder / "gold.json"), str(folder / "pred.json")
    cmds = {name: argv[3:] for name, argv in scale_commands(folder).items()}
    cmds["martino-2021"] = ["score", g, p, "--metric", "martino", "--variant", "semeval2021",
                            "--json"]
    cmds["emoji"] = ["score", str(folder / "gold_emoji.json"), str(folder / "pred_emoji.json"),
                     "--metric", "martino", "--variant", "semeval2021", "--json"]
    cmds["nervaluate"] = ["score", g, p, "--metric", "nervaluate", "--json"]
    # the clitour's slow commands at 10k (issue 29, ninth pass): every span as JSON, slices
    # per label, the overlap consensus (its file written into the temporary folder)
    cmds["errors-spans"] = ["errors", g, p, "--json", "--spans"]
    cmds["slices-label"] = ["slices", g, p, "--dimension", "label"]
    cmds["adjudicate-overlap"] = ["adjudicate", g, p, "--min-agree", "2", "--match", "overlap",
                                  "-o", str(Path(tempfile.gettempdir()) / "compare-consensus.json"),
                                  "--to", "semeval2021"]
    return cmds


def base_tree(rev: str, repo: Path, prefix: str = "compare-base") -> Path:
    """A detached worktree of ``rev`` in the temporary folder, named ``<prefix>-<sha>``
    (reused when it exists); ``outputs.py`` uses it too."""
    sha = subprocess.run(["git", "rev-parse", rev], cwd=repo, capture_output=True, text=True,
                         check=True).stdout.strip()
    path = Path(tempfile.gettempdir()) / f"{prefix}-{sha[:10]}"
    if not (path / "core").is_dir():
        subprocess.run(["git", "worktree", "add", "--detach", str(path), sha], cwd=repo,
                       check=True, capture_output=True)
    return path


def run(checkout: Path, args: list[str]) -> tuple[float, float, float, bytes]:
    """CPU time, wall time and peak RSS (MiB) of one ``python -m core`` run, and its stdout."""
    argv = [sys.executable, "-c", _CHILD, sys.executable, "-m", "core", *args]
    proc = subprocess.run(argv, cwd=checkout, capture_output=True, env=CHILD_ENV)
    if proc.returncode:
        raise RuntimeError(f"{checkout}: python -m core {' '.join(args)} failed:\n"
                           f"{proc.stderr.decode()[-1500:]}")
    lines = proc.stdout.rstrip(b"\n").split(b"\n")
    info = json.loads(lines[-1])
    return info["cpu"], info["wall"], info["maxrss_mib"], b"\n".join(lines[:-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the git revision to compare against (e.g. main, a commit)")
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="the changed checkout (default: this one)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds (medians of this many)")
    ap.add_argument("--docs", type=int, default=20_000, help="documents of the corpus")
    ap.add_argument("--out", type=Path, default=None,
                    help="corpus folder (default: TMPDIR/spanscope-compare-DOCS)")
    ap.add_argument("--only", default="", help="comma-separated command names")
    ap.add_argument("--list", action="store_true", help="print the command names and stop")
    args = ap.parse_args()
    folder = args.out or Path(tempfile.gettempdir()) / f"spanscope-compare-{args.docs}"
    cmds = all_commands(folder)
    if args.list:
        print("\n".join(f"{k}: python -m core {' '.join(v)}" for k, v in cmds.items()))
        return
    if args.only:
        wanted = args.only.split(",")
        unknown = sorted(set(wanted) - set(cmds))
        if unknown:
            raise SystemExit(f"unknown command names {unknown}; --list shows them")
        cmds = {k: cmds[k] for k in wanted}
    if not (folder / "gold_emoji.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        write_corpus(folder, args.docs, 10)
        write_emoji_pair(folder)
    tree = args.tree.resolve()
    base = base_tree(args.rev, tree)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree,
                          capture_output=True, text=True).stdout.strip()
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    print(f"base {args.rev} ({base.name}), tree {tree} at {head}; {args.docs} documents; "
          f"{args.repeat} interleaved rounds; load average {load}", flush=True)
    print(f"{'command':<13} {'base CPU':>9} {'tree CPU':>9} {'ratio':>6}  {'base wall':>9} "
          f"{'tree wall':>9}  {'base RSS':>8} {'tree RSS':>8}  output")
    started = time.perf_counter()
    for name, argv in cmds.items():
        sides = {"base": base, "tree": tree}
        samples: dict[str, list[tuple[float, float, float]]] = {"base": [], "tree": []}
        outputs = {}
        try:
            for side, checkout in sides.items():
                outputs[side] = run(checkout, argv)[3]  # warm-up
            for k in range(args.repeat):
                order = ("base", "tree") if k % 2 == 0 else ("tree", "base")
                for side in order:
                    cpu, wall, rss, _ = run(sides[side], argv)
                    samples[side].append((cpu, wall, rss))
        except RuntimeError as exc:
            print(f"{name:<13} failed: {str(exc).splitlines()[0]}", flush=True)
            continue
        med = {side: [statistics.median(x[i] for x in samples[side]) for i in range(3)]
               for side in sides}
        same = "same" if outputs["base"] == outputs["tree"] else "DIFFERENT"
        print(f"{name:<13} {med['base'][0]:8.2f}s {med['tree'][0]:8.2f}s "
              f"{med['tree'][0] / med['base'][0]:5.2f}x  {med['base'][1]:8.2f}s "
              f"{med['tree'][1]:8.2f}s  {med['base'][2]:6.0f}Mi {med['tree'][2]:6.0f}Mi  {same}",
              flush=True)
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    print(f"({time.perf_counter() - started:.0f} s; load average {load}; ratio = tree CPU / base "
          "CPU, below 1 is faster)")


if __name__ == "__main__":
    main()
