"""CLSD evaluation speed: rows/second and total time over the bare embedding time (target <= 1.2).

*Bare* is the model alone embedding the distinct texts of the rows (length-sorted chunks of 256,
what the cache does). *Total* is ``run_clsd`` from a cold cache: reading the file, lining up
the pivot, de-duplicating, embedding through the on-disk cache, scoring every direction and
condition (P@1, pooled recall@1, Levenshtein bins, overlaps) and provenance. Model loading is
excluded from both. The POS breakdown is timed apart (tagger loading dominates; once per run).

    python bench/clsd.py [--model use-v3] [--rows 60] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

from common import SHARED_DATA  # also puts the project on sys.path and sets HF_HUB_OFFLINE

from core.clsd.data import check_pivot, limit_rows, read_clsd, read_dataset
from core.clsd.run import registry_model, run_clsd
from core.clsd.tasks import PIVOT
from core.config import Settings, apply_overrides
from core.embed.registry import get_embedder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="use-v3")
    ap.add_argument("--rows", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    data_path = SHARED_DATA / "clsd" / "CLSD_wmt2019_adversarial_dataset.csv"
    pivot_path = SHARED_DATA / "clsd" / "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv"
    if not data_path.exists():
        print(f"shared data not found at {data_path}; set SMITH_SHARED_DATA")
        return 0

    emb = get_embedder(args.model)  # loaded once, outside both timings
    data = limit_rows(read_dataset(data_path), args.rows)
    pivot = check_pivot(data, read_clsd(pivot_path, condition=PIVOT))
    texts: list[str] = []
    for d in (data, pivot):
        for task in d.tasks.values():
            texts.extend(task.texts())
    unique = sorted(dict.fromkeys(texts), key=len, reverse=True)

    def bare() -> None:
        for start in range(0, len(unique), 256):
            emb.encode(unique[start : start + 256])

    def total() -> None:
        with tempfile.TemporaryDirectory() as cache:
            settings = apply_overrides(Settings(), {"models.cache_dir": cache})
            d = limit_rows(read_dataset(data_path), args.rows)
            p = check_pivot(d, read_clsd(pivot_path, condition=PIVOT))
            run_clsd(d, [registry_model(args.model, settings)], pivot=p, settings=settings, pos=False)

    bare_times, total_times = [], []
    for _ in range(args.repeats):  # interleaved, so machine load hits both alike
        t0 = time.perf_counter()
        bare()
        bare_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        total()
        total_times.append(time.perf_counter() - t0)
    b, t = statistics.median(bare_times), statistics.median(total_times)

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache:
        settings = apply_overrides(Settings(), {"models.cache_dir": cache})
        run_clsd(data, [registry_model("bow", settings)], pivot=pivot, settings=settings, pos=True,
                 directions=["fr-de"])
    pos_seconds = time.perf_counter() - t0

    print(f"model {args.model}: {args.rows} rows x 2 directions x (direct + pivot), {len(unique)} distinct texts")
    print(f"bare embedding   median {b:7.2f} s  ({len(unique) / b:6.1f} texts/s)")
    print(f"full evaluation  median {t:7.2f} s  ({args.rows / t:6.2f} rows/s, cold cache)")
    print(f"ratio total/bare {t / b:7.3f}  (target <= 1.2) {'OK' if t / b <= 1.2 else 'OVER'}")
    print(f"POS breakdown (German, HanTa; bow model, incl. tagger load) {pos_seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
