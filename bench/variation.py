"""Benchmark: semantic variation on the largest Austen novel, blocked analysis vs. the full-matrix approach.

Prints, for one book and at least four models: embedding time per model (cold cache unless
``--cache-dir``), then the analysis step (SSM statistics, Pearson maps, PAF/NAF/DDAF) timed and
memory-profiled both ways: the blocked path (``core.variation.agreement.analyse_blocked``) and the
plain full-matrix computation (``agreement_full``: every model's ``N×N`` matrix in memory), when
it fits. Peak memory is measured with ``tracemalloc`` (numpy reports its buffers to it), from
the moment the analysis starts, with the embeddings already in memory. Medians over
``--repeat`` runs; ratios blocked/full. Targets: peak memory ≤ 25 % and time ≤ 1.5×.

    .venv/bin/python bench/variation.py [--book PATH] [--models a,b,c,d] [--repeat 3] [--max-sentences N]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402

from core.variation.agreement import MATRICES, agreement_full, analyse_blocked  # noqa: E402
from core.variation.books import read_book  # noqa: E402
from core.variation.run import RegistrySource  # noqa: E402

BOOKS = ROOT.parent / "shared" / "data" / "books"
DEFAULT_MODELS = "paraphrase-minilm-l3,static-64,spacy-md,bow,tfidf"


def _measure(fn):
    gc.collect()
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        result = fn()
        elapsed = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, elapsed, peak


def _mem_available() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 << 30


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--book", help="default: the largest austen_*.txt in ../shared/data/books")
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-sentences", type=int, default=None)
    ap.add_argument("--memory-mb", type=float, default=128.0)
    ap.add_argument("--cache-dir", help="reuse an embedding cache (embedding times then measure lookups)")
    ap.add_argument("--skip-full", action="store_true", help="do not run the full-matrix reference")
    args = ap.parse_args()

    if args.book:
        book_path = Path(args.book)
    else:
        candidates = sorted(BOOKS.glob("austen_*.txt"), key=lambda p: p.stat().st_size, reverse=True)
        if not candidates:
            print(f"no books under {BOOKS}; pass --book", file=sys.stderr)
            return 2
        book_path = candidates[0]
    models = [m.strip() for m in args.models.split(",") if m.strip()]

    t0 = time.perf_counter()
    book = read_book(book_path, max_sentences=args.max_sentences)
    t_split = time.perf_counter() - t0
    n = len(book)
    print(f"book: {book_path.name}  sentences: {n}  split: {t_split:.1f} s  models: {', '.join(models)}")

    cache_dir = args.cache_dir or tempfile.mkdtemp(prefix="bench-variation-cache-")
    source = RegistrySource(cache_dir)
    source.check(models)
    embeddings = {}
    print("\nembedding (cold cache)" if not args.cache_dir else "\nembedding (given cache)")
    total_embed = 0.0
    for m in models:
        t0 = time.perf_counter()
        emb = source._get(m)
        if hasattr(emb, "load"):
            emb.load()  # the weights, once (lexical baselines have none)
        t_load = time.perf_counter() - t0
        t0 = time.perf_counter()
        embeddings[m] = source.encode(m, book.texts)
        dt = time.perf_counter() - t0
        total_embed += dt
        shape = embeddings[m].shape
        print(f"  {m:<22} load {t_load:6.1f} s  encode {dt:8.1f} s  {n / dt:8.1f} sent/s  shape {shape[0]}x{shape[1]}")
    print(f"  total encode {total_embed:.1f} s")

    print(f"\nanalysis: {len(models)} models, N={n}, pairs={n * (n - 1) // 2:,}")
    blocked_runs = [_measure(lambda: analyse_blocked(embeddings, memory_mb=args.memory_mb)) for _ in range(args.repeat)]
    b_time = statistics.median(r[1] for r in blocked_runs)
    b_peak = statistics.median(r[2] for r in blocked_runs)
    blocked = blocked_runs[0][0].agreement
    print(f"  blocked   median {b_time:7.2f} s   peak {b_peak / 2**20:8.1f} MiB   block rows {blocked.block_rows}")

    full_estimate = len(models) * n * (n - 1) // 2 * 8 * 2 + 2 * n * n * 8
    if args.skip_full or full_estimate > 0.6 * _mem_available():
        why = "--skip-full" if args.skip_full else f"needs ~{full_estimate / 2**30:.1f} GiB"
        print(f"  full      skipped ({why})")
        return 0
    full_runs = [_measure(lambda: agreement_full(embeddings)) for _ in range(args.repeat)]
    f_time = statistics.median(r[1] for r in full_runs)
    f_peak = statistics.median(r[2] for r in full_runs)
    full = full_runs[0][0]
    print(f"  full      median {f_time:7.2f} s   peak {f_peak / 2**20:8.1f} MiB")
    worst = max(float(np.nanmax(np.abs(full.matrix(k) - blocked.matrix(k)))) for k in MATRICES)
    print(f"  max |blocked - full| over all matrices: {worst:.2e}")
    mem_ratio, time_ratio = b_peak / f_peak, b_time / f_time
    print(
        f"\nratios blocked/full: peak memory {mem_ratio:.3f} (target <= 0.25: {'ok' if mem_ratio <= 0.25 else 'MISSED'}), "
        f"time {time_ratio:.2f} (target <= 1.5: {'ok' if time_ratio <= 1.5 else 'MISSED'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
