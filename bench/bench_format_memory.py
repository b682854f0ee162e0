"""Benchmark: peak memory and time of reading every span format, each in a fresh process.

Writes one generated corpus (documents of 20 sentences x 12 words, one word-aligned span per
sentence, three labels, a few spans that begin or end in whitespace so that warnings are
made) in every format that reads spans, each at about ``--target-mb`` megabytes (the
per-document formats as a folder: brat, WebAnno TSV, UIMA XMI), then reads each with
``core.formats.load_path`` in a fresh ``python`` process and records wall time, CPU time (user
+ system, from ``os.wait4``) and peak resident set (the child's own ``VmHWM``: ``ru_maxrss``
of a child forked from a large parent starts at the parent's size), and the peak
divided by the input's size (issue 15, target 1: under 10x for every format).

Run: ``python bench/bench_format_memory.py [--target-mb 25] [--only brat,conll]
[--out /tmp/bench_fmtmem]``. ``--child FMT PATH`` is the child's own mode (one read).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = ["harbour", "board", "always", "lies", "and", "everyone", "knows", "it", "Okafor",
         "reform", "disaster", "waiting", "to", "happen", "critics", "say", "."]
LABELS = ["Loaded_language", "Doubt", "Name_calling"]
TS_XML = (
    "<?xml version='1.0' encoding='utf-8'?>\n<typeSystemDescription xmlns=\"http://uima.apache."
    "org/resourceSpecifier\"><types>"
    "<typeDescription><name>de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token</name>"
    "<supertypeName>uima.tcas.Annotation</supertypeName></typeDescription>"
    "<typeDescription><name>de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence</name>"
    "<supertypeName>uima.tcas.Annotation</supertypeName></typeDescription>"
    "<typeDescription><name>webanno.custom.Technique</name><supertypeName>uima.tcas.Annotation"
    "</supertypeName><features><featureDescription><name>Technique</name><rangeTypeName>"
    "uima.cas.String</rangeTypeName></featureDescription></features></typeDescription>"
    "</types></typeSystemDescription>\n")


def corpus(n_docs: int, seed: int = 0
           ) -> tuple[dict[str, str | None], dict[str, list[tuple[int, int, str]]],
                      dict[str, list[tuple[int, int]]]]:
    """Texts, spans and tokens by document id ("1", "2", ...)."""
    rng = random.Random(seed)
    texts: dict[str, str | None] = {}
    spans: dict[str, list[tuple[int, int, str]]] = {}
    tokens: dict[str, list[tuple[int, int]]] = {}
    for d in range(1, n_docs + 1):
        lines, out, toks, pos = [], [], [], 0
        for _ in range(20):
            words = [rng.choice(WORDS) for _ in range(12)]
            starts = []
            for w in words:
                starts.append(pos)
                toks.append((pos, pos + len(w)))
                pos += len(w) + 1
            i = rng.randrange(0, 10)
            out.append((starts[i], starts[i + 1] + len(words[i + 1]), rng.choice(LABELS)))
            lines.append(" ".join(words))
        texts[str(d)] = "\n".join(lines)
        spans[str(d)] = out
        tokens[str(d)] = toks
    return texts, spans, tokens


def _aset(spans: dict[str, list[tuple[int, int, str]]], name: str = "gold") -> object:
    from core.model import AnnotationSet, Span

    return AnnotationSet(name, {d: tuple(sorted(Span(*t) for t in v)) for d, v in spans.items()})


def _write_text_files(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content, encoding="utf-8")


def _label_studio(texts: dict[str, str | None], spans: dict[str, list[tuple[int, int, str]]]
                  ) -> str:
    tasks = []
    for d, text in texts.items():
        assert text is not None
        result = [{"type": "labels", "from_name": "label", "to_name": "text",
                   "value": {"start": s, "end": e, "text": text[s:e], "labels": [lab]}}
                  for s, e, lab in spans[d]]
        tasks.append({"id": int(d), "data": {"text": text},
                      "annotations": [{"completed_by": 1, "result": result}],
                      "predictions": []})
    return json.dumps(tasks, ensure_ascii=False)


def _xmi(text: str, spans: list[tuple[int, int, str]], tokens: list[tuple[int, int]]) -> str:
    from xml.sax.saxutils import quoteattr

    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<xmi:XMI xmlns:xmi="http://www.omg.org/XMI"'
             ' xmlns:cas="http:///uima/cas.ecore" xmlns:custom="http:///webanno/custom.ecore"'
             ' xmlns:type="http:///de/tudarmstadt/ukp/dkpro/core/api/segmentation/type.ecore"'
             ' xmi:version="2.0"><cas:NULL xmi:id="0"/>']
    ids = []
    n = 2
    pos = 0
    for line in text.split("\n"):
        parts.append(f'<type:Sentence xmi:id="{n}" sofa="1" begin="{pos}" '
                     f'end="{pos + len(line)}"/>')
        ids.append(n)
        n += 1
        pos += len(line) + 1
    for b, e in tokens:
        parts.append(f'<type:Token xmi:id="{n}" sofa="1" begin="{b}" end="{e}"/>')
        ids.append(n)
        n += 1
    for s, e, lab in spans:
        parts.append(f'<custom:Technique xmi:id="{n}" sofa="1" begin="{s}" end="{e}" '
                     f'Technique={quoteattr(lab)}/>')
        ids.append(n)
        n += 1
    parts.append(f'<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" '
                 f'sofaString={quoteattr(text)}/>')
    parts.append(f'<cas:View sofa="1" members="{" ".join(map(str, ids))}"/></xmi:XMI>')
    return "".join(parts)


def write_format(fmt: str, n_docs: int, out: Path) -> Path:
    """Write the corpus of ``n_docs`` documents in ``fmt`` under ``out``; the path to read."""
    from core.formats import write_files
    from core.formats.parquet import write_tables
    from core.formats.spacy_docs import docbin_bytes
    from core.formats.spans_csv import write_jsonl

    texts, spans, tokens = corpus(n_docs)
    # A few spans that end in whitespace (one per 50 documents), so readers make warnings.
    for d in list(spans)[::50]:
        s, e, lab = spans[d][0]
        spans[d][0] = (s, e + 1, lab)
    aset = _aset(spans)
    out.mkdir(parents=True, exist_ok=True)
    def one(files: dict[str, str], name: str) -> Path:
        (content,) = files.values()
        p = out / name
        p.write_text(content, encoding="utf-8")
        return p

    if fmt == "semeval2021":
        return one(write_files(fmt, texts, [aset]), "gold.json")  # type: ignore[list-item]
    if fmt == "spans-csv":
        return one(write_files(fmt, texts, [aset]), "gold.csv")  # type: ignore[list-item]
    if fmt == "spans-jsonl":
        return one(write_jsonl(texts, [aset]), "gold.jsonl")  # type: ignore[list-item]
    if fmt == "ptc":
        from core.formats.ptc import write_tsv

        return one(write_tsv(texts, [aset]), "gold.tsv")  # type: ignore[list-item]
    if fmt in ("doccano", "conll"):
        suffix = {"doccano": "jsonl", "conll": "conll"}[fmt]
        return one(write_files(fmt, texts, [aset]), f"gold.{suffix}")  # type: ignore[list-item]
    if fmt == "spacy-jsonl":
        return one(write_files("spacy", texts, [aset]), "gold.jsonl")  # type: ignore[list-item]
    if fmt == "spacy-docbin":
        p = out / "gold.spacy"
        p.write_bytes(docbin_bytes(texts, aset))  # type: ignore[arg-type]
        return p
    if fmt in ("brat", "webanno-tsv"):
        folder = out / "gold"
        _write_text_files(folder, write_files(fmt, texts, [aset]))  # type: ignore[list-item]
        return folder
    if fmt == "label-studio":
        p = out / "gold.json"
        p.write_text(_label_studio(texts, spans), encoding="utf-8")
        return p
    if fmt == "uima-xmi":
        folder = out / "gold"
        files = {f"{d}.xmi": _xmi(t or "", spans[d], tokens[d]) for d, t in texts.items()}
        files["TypeSystem.xml"] = TS_XML
        _write_text_files(folder, files)
        return folder
    if fmt == "parquet":
        for fname, data in write_tables(texts, [aset], "gold").items():  # type: ignore[list-item]
            (out / fname).write_bytes(data)
        return out / "gold.parquet"
    raise SystemExit(f"unknown format {fmt}")


READER = {"spans-jsonl": "spans-csv", "spacy-jsonl": "spacy", "spacy-docbin": "spacy"}
FORMATS = ("semeval2021", "spans-csv", "spans-jsonl", "ptc", "webanno-tsv", "uima-xmi", "brat",
           "doccano", "label-studio", "conll", "spacy-jsonl", "spacy-docbin", "parquet")


def size_of(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    size = path.stat().st_size
    if path.name.endswith(".parquet"):
        texts = path.with_name(path.name[: -len(".parquet")] + ".texts.parquet")
        size += texts.stat().st_size if texts.exists() else 0
    return size


def child(fmt: str, path: str) -> None:
    from core.formats import load_path

    loaded = load_path(path, fmt=READER.get(fmt, fmt))
    spans = sum(s.span_count() for s in loaded.sets)
    warnings = sum(getattr(d, "count", 1) or 1 for d in loaded.diagnostics)
    status = Path("/proc/self/status").read_text()
    hwm = next(int(ln.split()[1]) for ln in status.splitlines() if ln.startswith("VmHWM:"))
    print(json.dumps({"spans": spans, "docs": len(loaded.texts), "warnings": warnings,
                      "hwm_kib": hwm}))


def measure(fmt: str, path: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--child", fmt, str(path)],
                            stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{fmt}: the child failed ({proc.returncode})")
    info = json.loads(out)
    return {**info, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss_mib": info["hwm_kib"] / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target-mb", type=float, default=25.0)
    parser.add_argument("--only", default=",".join(FORMATS))
    parser.add_argument("--out", default="/tmp/bench_fmtmem")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--child", nargs=2, metavar=("FMT", "PATH"))
    parser.add_argument("--reuse", action="store_true", help="keep files already written")
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    out = Path(args.out)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}", flush=True)
    print("| format | input | spans | wall | CPU | peak RSS | RSS / input |")
    print("|---|---|---|---|---|---|---|")
    for fmt in args.only.split(","):
        where = out / fmt
        marker = where / "path.txt"
        if args.reuse and marker.exists():
            path = Path(marker.read_text())
        else:
            probe = size_of(write_format(fmt, 100, out / "probe" / fmt))
            n_docs = max(100, int(args.target_mb * 1e6 / probe * 100))
            path = write_format(fmt, n_docs, where)
            marker.write_text(str(path))
        size = size_of(path)
        runs = [measure(fmt, path) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["cpu"])
        rss = max(r["rss_mib"] for r in runs)
        print(f"| {fmt} | {size / 2**20:.1f} MiB | {int(best['spans']):,} | "
              f"{min(r['wall'] for r in runs):.2f} s | {best['cpu']:.2f} s | {rss:.0f} MiB | "
              f"{rss * 2**20 / size:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
