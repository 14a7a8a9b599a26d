"""``smithtui eval`` against a bare ``model.encode``, cold and warm cache, on the paper's PAWS foils.

For one model (default all-MiniLM-L6-v2) and ``--repeats`` rounds, each in fresh processes:

* bare: load the model with sentence-transformers and ``model.encode`` the file's distinct
  texts (same batch size), timing the encode call and the whole process;
* cold: ``smithtui eval --triples FILE --models NAME`` with an empty cache folder;
* warm: the same command again on the now full cache.

Prints the medians and the ratios. Targets: cold / bare encode ≤ 1.2; warm / cold ≤ 0.10.
(The cold / bare-process ratio, where both sides pay Python start-up, imports and the
model load, is printed too.)

    .venv/bin/python bench/eval.py [--triples FILE] [--model minilm] [--repeats 3]
    .venv/bin/python bench/eval.py --speeds [--n 300]   # load time and sentences/s of every usable embedder
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, SHARED_DATA

BARE = r"""
import json, sys, time
t0 = time.perf_counter()
from sentence_transformers import SentenceTransformer
from core.embed.registry import resolve
from core.evaluate.triples import read_triples
spec = resolve(sys.argv[2])
texts = read_triples(sys.argv[1]).unique_texts()
model = SentenceTransformer(spec.location, device="cpu", local_files_only=True)
t1, c1 = time.perf_counter(), time.process_time()
model.encode(texts, batch_size=int(sys.argv[3]), normalize_embeddings=True, show_progress_bar=False)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"load_s": t1 - t0, "encode_s": t2 - t1, "encode_cpu_s": c2 - c1, "texts": len(texts)}))
"""


def _run(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system, all threads) and stdout of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if out.returncode != 0:
        raise SystemExit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr[-2000:]}")
    return wall, cpu, out.stdout


def speeds(triples: str, n: int, repeats: int) -> int:
    """Load time and encode throughput (after loading) of every usable embedder on ``n`` distinct texts."""
    from core.embed.registry import get_embedder, list_embedders
    from core.evaluate.triples import read_triples

    texts = read_triples(triples).unique_texts()[:n]
    print(f"{len(texts)} distinct texts from {Path(triples).name}; medians of {repeats} encodes after loading")
    for spec in list_embedders():
        if not spec.usable:
            print(f"  {spec.name:22} not usable: {spec.why_not}")
            continue
        emb = get_embedder(spec.name, load=False, shared=False)  # timed from cold
        t0 = time.perf_counter()
        emb.load()
        load = time.perf_counter() - t0
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            emb.encode(texts)
            times.append(time.perf_counter() - t0)
        t = statistics.median(times)
        print(f"  {spec.name:22} load {load:6.1f} s   {len(texts) / t:9.1f} sent/s", flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triples", default=str(SHARED_DATA / "sentencesmith" / "paws_samples_1737x6.csv"))
    ap.add_argument("--model", default="minilm", help="a sentence-transformers embedder name")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--speeds", action="store_true", help="instead: sentences/s of every usable embedder")
    ap.add_argument("--n", type=int, default=300, help="texts for --speeds")
    args = ap.parse_args()
    if not Path(args.triples).exists():
        print(f"triples not found: {args.triples}; set SMITH_SHARED_DATA or pass --triples", file=sys.stderr)
        return 2
    if args.speeds:
        return speeds(args.triples, args.n, args.repeats)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    smithtui = str(Path(sys.executable).with_name("smithtui"))
    rows: dict[str, list[float]] = {
        "bare_process": [], "bare_encode": [], "cold": [], "warm": [], "bare_encode_cpu": [], "cold_cpu": [],
    }  # fmt: skip
    texts = 0
    for r in range(args.repeats):
        wall, _, out = _run([sys.executable, "-c", BARE, args.triples, args.model, str(args.batch_size)])
        bare = json.loads(out.strip().splitlines()[-1])
        texts = bare["texts"]
        rows["bare_process"].append(wall)
        rows["bare_encode"].append(bare["encode_s"])
        rows["bare_encode_cpu"].append(bare["encode_cpu_s"])
        cache = tempfile.mkdtemp(prefix="bench-eval-cache-")
        try:
            cmd = [smithtui, "eval", "--triples", args.triples, "--models", args.model, "--cache-dir", cache,
                   "--set", f"{args.model}.batch_size={args.batch_size}", "--out", str(Path(cache) / "r.json"), "-q"]  # fmt: skip
            cold, cold_cpu, _ = _run(cmd)
            warm, _, _ = _run(cmd)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        rows["cold"].append(cold)
        rows["cold_cpu"].append(cold_cpu)
        rows["warm"].append(warm)
        print(
            f"round {r + 1}: bare encode {bare['encode_s']:.1f} s (process {wall:.1f} s), "
            f"eval cold {cold:.1f} s, warm {warm:.1f} s; cold/bare {cold / bare['encode_s']:.3f}, "
            f"warm/cold {warm / cold:.3f}; CPU s: bare encode {bare['encode_cpu_s']:.1f}, eval cold {cold_cpu:.1f}",
            flush=True,
        )
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"\n{args.model} on {Path(args.triples).name}: {texts} distinct texts, medians of {args.repeats}")
    print(f"  bare model.encode      {med['bare_encode']:7.1f} s  ({texts / med['bare_encode']:.1f} sent/s)")
    print(f"  bare process           {med['bare_process']:7.1f} s  (start-up, imports, load, encode)")
    print(f"  smithtui eval, cold    {med['cold']:7.1f} s")
    print(f"  smithtui eval, warm    {med['warm']:7.1f} s")
    per_round = statistics.median(c / b for c, b in zip(rows["cold"], rows["bare_encode"], strict=True))
    print(f"median of the per-round cold / bare-encode ratios: {per_round:.3f} (rounds run back to back, so less")
    print("exposed to load on a shared machine drifting between rounds)")
    r_cpu = statistics.median(c / b for c, b in zip(rows["cold_cpu"], rows["bare_encode_cpu"], strict=True))
    print(f"median of the per-round CPU-time ratios (eval process / bare encode call): {r_cpu:.3f}")
    r_cold = med["cold"] / med["bare_encode"]
    r_proc = med["cold"] / med["bare_process"]
    r_warm = med["warm"] / med["cold"]
    print(f"\nratio cold / bare encode   {r_cold:.3f}  (target <= 1.2: {'ok' if r_cold <= 1.2 else 'MISSED'})")
    print(f"ratio cold / bare process  {r_proc:.3f}")
    print(f"ratio warm / cold          {r_warm:.3f}  (target <= 0.10: {'ok' if r_warm <= 0.10 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
