"""Every command-line output, byte for byte, in two revisions: the evidence that a refactoring
changed no number, warning or error (issue 25, "Evidence").

Runs a fixed list of ``python -m core`` commands (score, explain, errors, slices, agree,
adjudicate, convert, validate, report, table) on the bundled samples and on generated bench corpora
(``bench_read.py``'s SemEval-2021 generator, 20,000 documents; ``--big`` adds 100,000), and
``agree`` on the Dask engine (one local worker: whole files, folders of shards, spans clipped)
beside the one-machine run (:func:`engine_commands`), once
in the base revision (a ``git worktree`` of ``--base``, its outputs cached in the temporary
folder) and once in ``--tree``, and compares exit code, stdout, stderr and every file a command
wrote. What
differs from run to run anyway (the tree and scratch folders' paths, timings in seconds, the
report's date) is masked (:data:`VOLATILE`) before comparing.

    python bench/outputs.py compare --base REV [--tree .] [--big] [--only NAME,...]
    python bench/outputs.py list

Prints ``identical`` and exits 0, or lists each command whose outputs differ with the first
differing lines and exits 1.
"""

from __future__ import annotations

import argparse
import difflib
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import base_tree

S = "sample_data"
F = f"{S}/formats"
P = f"{S}/propaganda"
M = f"{S}/mafalda"
FIG = f"{S}/figure1"
H = f"{S}/hateval"

WRITABLE = ("semeval2021", "ptc", "mafalda", "brat", "doccano", "hateval", "spans-csv",
            "webanno-tsv", "conll", "spacy", "parquet")

FORMAT_INPUTS = {
    "brat": f"{F}/brat_gold", "brat-annotator": f"{F}/brat_annotator_1",
    "conll-gold": f"{F}/conll_gold.conll", "conll-system": f"{F}/conll_system.conll",
    "doccano-gold": f"{F}/doccano_gold.jsonl",
    "doccano-entities": f"{F}/doccano_system_a_entities.jsonl",
    "inception": f"{F}/inception_export", "label-studio": f"{F}/label_studio_annotators.json",
    "ptc-gold": f"{F}/ptc_gold", "ptc-system": f"{F}/ptc_system_a.tsv",
    "spacy-docs": f"{F}/spacy_docs.spacy", "spacy-ner": f"{F}/spacy_ner.jsonl",
    "spans-csv": f"{F}/spans_annotators.csv", "spans-jsonl": f"{F}/spans_system_b.jsonl",
    "xmi": f"{F}/xmi_export", "mafalda-gold": f"{M}/gold.jsonl",
    "mafalda-llm": f"{M}/system_llm.jsonl", "propaganda-gold": f"{P}/gold.json",
    "hateval-gold": f"{H}/gold.tsv",
}


VOLATILE = ((re.compile(rb'"seconds": [0-9.e-]+'), b'"seconds": <S>'),
            (re.compile(rb"generated \(UTC\)</td><td>[^<]*"), b"generated (UTC)</td><td><T>"),
            (re.compile(rb'"shard_seconds": [0-9.e-]+'), b'"shard_seconds": <S>'),
            (re.compile(rb'"worker_peak_rss_mib": \{[^}]*\}'), b'"worker_peak_rss_mib": <M>'))
"""Parts of an output that differ from run to run (timings, the report's date, the Dask
engine's shard time and its workers' addresses and memory)."""


def sample_commands() -> dict[str, list[str]]:
    """Name -> arguments of ``python -m core`` (``{OUT}`` is the command's scratch folder)."""
    cmds: dict[str, list[str]] = {}
    for pred in ("pred_s1", "pred_s2", "pred_s3_s4_s5", "pred_t1"):
        for variant in ("semeval2021", "semeval2020", "nlp4if2019"):
            cmds[f"fig1-{pred}-{variant}"] = [
                "score", f"{FIG}/gold.json", f"{FIG}/{pred}.json", "--metric", "martino",
                "--variant", variant, "--json", "--per-document"]
        cmds[f"fig1-{pred}-mafalda"] = ["score", f"{FIG}/gold.json", f"{FIG}/{pred}.json",
                                        "--metric", "mafalda", "--json"]
        cmds[f"fig1-{pred}-explain"] = ["explain", f"{FIG}/gold.json", f"{FIG}/{pred}.json",
                                        "--metric", "martino", "--doc", "1", "--json"]
    for system in ("system_a", "system_b"):
        for metric in ("martino", "mafalda", "nervaluate"):
            cmds[f"prop-{system}-{metric}"] = ["score", f"{P}/gold.json", f"{P}/{system}.json",
                                               "--metric", metric, "--json"]
        cmds[f"prop-{system}-text"] = ["score", f"{P}/gold.json", f"{P}/{system}.json",
                                       "--metric", "text-labels", "--json"]
        cmds[f"prop-{system}-errors"] = ["errors", f"{P}/gold.json", f"{P}/{system}.json",
                                         "--json", "--spans"]
        cmds[f"prop-{system}-slices"] = ["slices", f"{P}/gold.json", f"{P}/{system}.json",
                                         "--dimension", "label", "--json", "--seed", "1",
                                         "--samples", "50"]
        cmds[f"prop-{system}-slices-len"] = ["slices", f"{P}/gold.json", f"{P}/{system}.json",
                                             "--dimension", "span-length", "--metric",
                                             "mafalda", "--json", "--samples", "50"]
    cmds["prop-report"] = ["report", f"{P}/gold.json", f"{P}/system_a.json",
                           f"{P}/system_b.json", "-o", "{OUT}/report.html", "--samples", "50",
                           "--seed", "3"]
    for system in ("system_a", "system_b", "system_llm"):
        for level in ("0", "1", "2"):
            cmds[f"maf-{system}-{level}"] = ["score", f"{M}/gold.jsonl", f"{M}/{system}.jsonl",
                                             "--metric", "mafalda", "--level", level, "--json",
                                             "--per-document"]
        cmds[f"maf-{system}-martino"] = ["score", f"{M}/gold.jsonl", f"{M}/{system}.jsonl",
                                         "--metric", "martino", "--json"]
        cmds[f"maf-{system}-text"] = ["score", f"{M}/gold.jsonl", f"{M}/{system}.jsonl",
                                      "--metric", "text-labels", "--json"]
    cmds["maf-llm-repo-head"] = ["score", f"{M}/gold.jsonl", f"{M}/system_llm.jsonl", "--metric",
                                 "mafalda", "--llm-parsing", "repo-head", "--json"]
    cmds["maf-report"] = ["report", f"{M}/gold.jsonl", f"{M}/system_a.jsonl", "-o",
                          "{OUT}/report.html", "--samples", "50", "--level", "1"]
    for task in ("a", "b"):
        cmds[f"hateval-{task}"] = ["score", f"{H}/gold.tsv", f"{H}/system_task_{task}.tsv",
                                   "--metric", f"hateval-{task}", "--json"]
    measures = ("span-f1", "exact-f1", "mafalda-f1", "char-kappa", "char-jaccard",
                "text-kappa", "fleiss-kappa", "krippendorff-alpha", "unitizing-alpha",
                "gamma-cat")
    for corpus, files in (("prop", [f"{P}/annotator_{i}.json" for i in (1, 2, 3)]),
                          ("maf", [f"{M}/annotator_{i}.jsonl" for i in (1, 2, 3)])):
        for measure in measures:
            cmds[f"agree-{corpus}-{measure}"] = ["agree", *files, "--measure", measure,
                                                 "--json", "--samples", "50", "--seed", "2"]
        cmds[f"agree-{corpus}-gamma"] = ["agree", *files[:2], "--measure", "gamma", "--json",
                                         "--samples", "20", "--seed", "2"]
        # the options agree gained since the list was written: per-document values, units read
        # as a set, one label, the scheme's labels, several measures in one text output (the
        # duplicate-span warning then says what each measure does)
        cmds[f"agree-{corpus}-per-document"] = ["agree", *files, "--measure", "exact-f1",
                                                "--measure", "char-kappa", "--measure",
                                                "text-kappa", "--per-document", "--json"]
        cmds[f"agree-{corpus}-unit-set"] = ["agree", *files, "--measure", "unitizing-alpha",
                                            "--measure", "exact-f1", "--unit-set", "--json"]
        cmds[f"agree-{corpus}-text"] = ["agree", *files, "--measure", "exact-f1", "--measure",
                                        "span-f1", "--measure", "krippendorff-alpha"]
        for match in ("overlap", "exact", "char"):
            cmds[f"adjudicate-{corpus}-{match}"] = [
                "adjudicate", *files, "--min-agree", "2", "--match", match, "-o",
                "{OUT}/consensus.json", "--to", "semeval2021", "--decisions",
                "{OUT}/decisions.csv", "--json"]
    cmds["agree-prop-label"] = ["agree", *(f"{P}/annotator_{i}.json" for i in (1, 2, 3)),
                                "--measure", "exact-f1", "--measure", "char-kappa", "--label",
                                "Loaded Language", "--json"]
    cmds["agree-prop-label-set"] = ["agree", *(f"{P}/annotator_{i}.json" for i in (1, 2, 3)),
                                    "--measure", "char-kappa", "--measure", "exact-f1",
                                    "--label-set", f"{P}/labels.txt", "--json"]
    for to in ("latex", "markdown", "csv"):
        cmds[f"table-prop-{to}"] = ["table", f"{P}/gold.json", f"{P}/system_a.json",
                                    f"{P}/system_b.json", "--metric", "martino", "--to", to,
                                    "--samples", "50", "--seed", "1"]
    cmds["table-prop-compare"] = ["table", f"{P}/gold.json", f"{P}/system_a.json",
                                  f"{P}/system_b.json", "--metric", "martino", "--compare",
                                  "--samples", "50", "--seed", "1", "--json"]
    cmds["table-maf-level-1"] = ["table", f"{M}/gold.jsonl", f"{M}/system_a.jsonl",
                                 f"{M}/system_b.jsonl", "--metric", "mafalda", "--level", "1",
                                 "--samples", "50", "--seed", "1"]
    cmds["agree-label-studio"] = ["agree", f"{F}/label_studio_annotators.json", "--measure",
                                  "char-kappa", "--json"]
    cmds["agree-spans-csv"] = ["agree", f"{F}/spans_annotators.csv", "--measure", "span-f1",
                               "--json"]
    for name, path in FORMAT_INPUTS.items():
        cmds[f"validate-{name}"] = ["validate", path, "--json", "--all-warnings"]
        every = name in ("propaganda-gold", "brat", "inception", "mafalda-gold")
        for fmt in WRITABLE if every else ("semeval2021", "spans-csv"):
            suffix = {"parquet": "out.parquet", "spacy": "out.spacy"}.get(fmt, "out")
            cmds[f"convert-{name}-{fmt}"] = ["convert", path, f"{{OUT}}/{suffix}", "--to", fmt]
    pairs = {"brat": ("brat", "brat-annotator"), "conll": ("conll-gold", "conll-system"),
             "doccano": ("doccano-gold", "doccano-entities"),
             "ptc": ("ptc-gold", "ptc-system"), "spacy": ("spacy-docs", "spacy-ner"),
             "inception-xmi": ("inception", "xmi")}
    for name, (gold, pred) in pairs.items():
        for metric in ("martino", "mafalda", "nervaluate"):
            cmds[f"pair-{name}-{metric}"] = ["score", FORMAT_INPUTS[gold], FORMAT_INPUTS[pred],
                                             "--metric", metric, "--json", "--all-warnings"]
        cmds[f"pair-{name}-errors"] = ["errors", FORMAT_INPUTS[gold], FORMAT_INPUTS[pred],
                                       "--json"]
    cmds["pair-ptc-si-martino"] = ["score", FORMAT_INPUTS["ptc-gold"],
                                   f"{F}/ptc_system_b_si.tsv", "--metric", "martino", "--json"]
    for variant in ("semeval2020-tc", "semeval2020-tc-fixed"):
        cmds[f"pair-ptc-{variant}"] = ["score", FORMAT_INPUTS["ptc-gold"],
                                       FORMAT_INPUTS["ptc-system"], "--metric", "martino",
                                       "--variant", variant, "--json"]
    # errors the user sees: refusals, bad options
    cmds["refuse-missing"] = ["score", f"{P}/gold.json", f"{P}/nope.json", "--metric",
                              "martino"]
    cmds["refuse-level"] = ["score", f"{P}/gold.json", f"{P}/system_a.json", "--metric",
                            "martino", "--level", "1"]
    cmds["refuse-format"] = ["score", f"{P}/gold.json", f"{H}/gold.tsv", "--metric", "martino"]
    cmds["refuse-mafalda-labels"] = ["score", f"{P}/gold.json", f"{P}/system_a.json",
                                     "--metric", "mafalda", "--level", "2"]
    return cmds


def corpus_commands(folder: Path, tag: str) -> dict[str, list[str]]:
    """Commands on one generated corpus (``bench_scale.py``'s files in ``folder``)."""
    g, p = str(folder / "gold.json"), str(folder / "pred.json")
    mg, mp = str(folder / "gold_mafalda.json"), str(folder / "pred_mafalda.json")
    return {
        f"{tag}-martino": ["score", g, p, "--metric", "martino", "--json", "--per-document"],
        f"{tag}-mafalda": ["score", mg, mp, "--metric", "mafalda", "--json"],
        f"{tag}-mafalda-alt": ["score", str(folder / "gold_mafalda_alt.json"), mp, "--metric",
                               "mafalda", "--json"],
        f"{tag}-errors": ["errors", g, p, "--json"],
        f"{tag}-char-kappa": ["agree", g, p, "--measure", "char-kappa", "--json"],
        f"{tag}-exact-f1": ["agree", g, p, "--measure", "exact-f1", "--json"],
        f"{tag}-slices": ["slices", g, p, "--dimension", "label", "--json", "--samples", "20"],
        f"{tag}-convert-csv": ["convert", g, "{OUT}/spans.csv", "--to", "spans-csv"],
        f"{tag}-validate": ["validate", p, "--json"],
        # the consensus and the SemEval-2021 writer at scale (issue 29, tenth pass)
        f"{tag}-adjudicate-overlap": ["adjudicate", g, p, "--min-agree", "2", "--match",
                                      "overlap", "-o", "{OUT}/consensus.json", "--to",
                                      "semeval2021", "--decisions", "{OUT}/decisions.csv",
                                      "--json"],
        f"{tag}-adjudicate-exact-union": ["adjudicate", g, p, "--min-agree", "1", "--match",
                                          "exact", "--boundaries", "union", "-o",
                                          "{OUT}/consensus.json", "--to", "semeval2021"],
        f"{tag}-convert-semeval2021": ["convert", g, "{OUT}/gold.json", "--to", "semeval2021"],
    }


ENGINE = ("--engine", "dask", "--workers", "1")
"""A local Dask cluster of one worker (``docs/scale.md``)."""


def engine_commands(folder: Path) -> dict[str, list[str]]:
    """``agree`` on the Dask engine (``ENGINE``) and, beside it, on one machine: whole files
    (the propaganda annotators), spans past the text clipped (``--clip-spans``) in whole files
    and in folders of shards, and folders of shards (:func:`make_engine_inputs` in
    ``folder``)."""
    prop = [f"{P}/annotator_{i}.json" for i in (1, 2, 3)]
    past = [str(folder / "h1.jsonl"), str(folder / "h2.jsonl")]
    shards = [str(folder / "A"), str(folder / "B")]
    clipped = [str(folder / "C"), str(folder / "D")]
    args = ["--measure", "char-kappa", "--measure", "char-jaccard", "--json", "--all-warnings"]
    cmds: dict[str, list[str]] = {}
    for tag, engine in (("dask", list(ENGINE)), ("one", [])):
        cmds[f"agree-{tag}-whole"] = ["agree", *prop, *args, *engine]
        cmds[f"agree-{tag}-clip"] = ["agree", *past, *args, "--clip-spans", *engine]
        cmds[f"agree-{tag}-shards"] = ["agree", *shards, *args, *engine]
        cmds[f"agree-{tag}-shards-clip"] = ["agree", *clipped, *args, "--clip-spans", *engine]
    cmds["agree-dask-refuse-past"] = ["agree", *past, *args, *ENGINE]
    return cmds


SHARDS = """
import sys
from core.engines.sharded import write_shards
from core.model import AnnotationSet, Span
texts = {f"d{i}": f"Document {i}: the quick brown fox jumps over the dog." for i in range(6)}
for name, shift, past in (("A", 0, 0), ("B", 2, 0), ("C", 0, 1), ("D", 2, 0)):
    spans = {d: (Span(shift, 9 + shift, "x"), Span(12, 20, "y" if i % 2 else "x"))
             + ((Span(40, 90, "x"),) if past and i == 4 else ()) for i, d in enumerate(texts)}
    write_shards([AnnotationSet(name, spans, "annotator")], texts, f"{sys.argv[1]}/{name}",
                 shards=2)
"""
"""Folders of shards (:func:`core.engines.sharded.write_shards`, Parquet, two shards of six
documents): one annotator a folder, ``A`` and ``B``; ``C`` and ``D`` alike, a span of ``C``
past its text."""


def make_engine_inputs(folder: Path) -> None:
    """The inputs of :func:`engine_commands` (once): two doccano files of one document, a span
    of ``h1`` past its text, and the folders of :data:`SHARDS`, written by this checkout's
    ``core`` (both revisions then read the same files)."""
    import json

    if (folder / "D").exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    for name, spans in (("h1", [[0, 4, "x"], [5, 20, "x"]]), ("h2", [[0, 5, "x"]])):
        (folder / f"{name}.jsonl").write_text(
            json.dumps({"id": "d1", "text": "abcdefghij", "label": spans}) + "\n",
            encoding="utf-8")
    subprocess.run([sys.executable, "-c", SHARDS, str(folder)], check=True,
                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})


def make_corpus(folder: Path, docs: int) -> None:
    """Write ``bench_scale.py``'s corpus of ``docs`` documents into ``folder`` (once)."""
    if (folder / "gold_mafalda_alt.json").exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(Path(__file__).parent / "bench_scale.py"), "--docs",
                    str(docs), "--out", str(folder), "--only", "none"], check=True,
                   stdout=subprocess.DEVNULL)


def run_one(tree: Path, name: str, argv: list[str], out_root: Path) -> dict[str, bytes]:
    """Exit code, stdout, stderr and written files of one command, paths normalised."""
    out = out_root / name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    args = [a.replace("{OUT}", str(out)) for a in argv]
    # One BLAS thread: a multi-threaded OpenBLAS product (the bootstrap's resample sums) can
    # differ in the last bits with the arrays' place in memory, which no code change decides.
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0", "COLUMNS": "100",
           "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-m", "core", *args], cwd=tree, env=env,
                          capture_output=True, timeout=1800)

    def norm(data: bytes) -> bytes:
        data = data.replace(str(out).encode(), b"<OUT>").replace(str(tree).encode(), b"<TREE>")
        for pattern, fixed in VOLATILE:
            data = pattern.sub(fixed, data)
        return data

    result = {"rc": str(proc.returncode).encode(), "stdout": norm(proc.stdout),
              "stderr": norm(proc.stderr)}
    for path in sorted(out.rglob("*")):
        if path.is_file():
            result[f"file:{path.relative_to(out)}"] = norm(path.read_bytes())
    shutil.rmtree(out)
    return result


def run_all(tree: Path, cmds: dict[str, list[str]], out_root: Path, jobs: int,
            cache: Path | None = None) -> dict[str, dict[str, bytes]]:
    """Outputs of every command; with ``cache``, a command's outputs are kept there (keyed by
    its arguments) and reused, which is how the base revision runs once for many compares."""
    done: dict[str, dict[str, bytes]] = {}
    todo = dict(cmds)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        for name, argv in cmds.items():
            path = cache / f"{name}.pickle"
            if path.exists():
                stored_argv, outputs = pickle.loads(path.read_bytes())
                if stored_argv == argv:
                    done[name] = outputs
                    del todo[name]
    with ThreadPoolExecutor(jobs) as pool:
        futures = {name: pool.submit(run_one, tree, name, argv, out_root)
                   for name, argv in todo.items()}
        for name, future in futures.items():
            done[name] = future.result()
            if cache is not None:
                part = cache / f"{name}.pickle.{os.getpid()}"
                part.write_bytes(pickle.dumps((todo[name], done[name])))
                part.replace(cache / f"{name}.pickle")
    return done


def first_difference(a: bytes, b: bytes) -> str:
    lines = list(difflib.unified_diff(a.decode("utf-8", "replace").splitlines(),
                                      b.decode("utf-8", "replace").splitlines(),
                                      "base", "tree", lineterm="", n=1))
    return "\n".join(lines[:12]) or f"(binary: {len(a)} vs {len(b)} bytes)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    cmp = sub.add_parser("compare", help="run every command in --base and --tree and diff")
    cmp.add_argument("--base", required=True, help="a git revision")
    cmp.add_argument("--tree", type=Path, default=Path.cwd(), help="the changed checkout")
    cmp.add_argument("--big", action="store_true", help="also the 100,000-document corpus")
    cmp.add_argument("--no-corpus", action="store_true", help="samples only")
    cmp.add_argument("--only", default="", help="comma-separated name prefixes")
    cmp.add_argument("--jobs", type=int, default=2)
    sub.add_parser("list", help="the command names")
    args = ap.parse_args()
    scratch = Path(tempfile.gettempdir()) / "spanscope-outputs"
    cmds = sample_commands()
    engine = scratch / "corpora" / "engine"
    cmds.update(engine_commands(engine))
    if args.command == "compare":
        make_engine_inputs(engine)
    if args.command == "compare" and not args.no_corpus:
        sizes = {"c20k": 20_000, **({"c100k": 100_000} if args.big else {})}
        for tag, docs in sizes.items():
            folder = scratch / "corpora" / tag
            make_corpus(folder, docs)
            cmds.update(corpus_commands(folder, tag))
    if args.command == "list":
        print("\n".join(cmds))
        return
    if args.only:
        prefixes = tuple(args.only.split(","))
        cmds = {k: v for k, v in cmds.items() if k.startswith(prefixes)}
    tree = args.tree.resolve()
    base = base_tree(args.base, tree, prefix="outputs-base")
    print(f"{len(cmds)} commands; base {args.base} in {base}; tree {tree}", flush=True)
    before = run_all(base, cmds, scratch / f"base-{os.getpid()}", args.jobs,
                     cache=scratch / "cache" / base.name)
    after = run_all(tree, cmds, scratch / f"tree-{os.getpid()}", args.jobs)
    differing = 0
    for name in cmds:
        a, b = before[name], after[name]
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                differing += 1
                print(f"DIFFERS {name} [{key}]: python -m core {' '.join(cmds[name])}")
                print(first_difference(a.get(key, b""), b.get(key, b"")))
    if differing:
        print(f"{differing} outputs differ")
        sys.exit(1)
    codes = sorted({int(v["rc"]) for v in after.values()})
    print(f"identical ({len(cmds)} commands; exit codes {codes})")


if __name__ == "__main__":
    main()
