"""Sharded foil runs: throughput with 2 Dask workers vs 1, per-worker start-up, streaming memory, bytes per record.

- Throughput: ``--n`` unseen Austen sentences, foils without validation, in shards of ``--shard-size``,
  on a LocalCluster of 1 worker and one of 2 (both warmed up first, so start-up is not in the
  time), alternating 1, 2, 1, 2, ... ``--repeats`` times; prints each run, the medians and the
  ratio (target: 2 workers >= 1.6x one, on a 2-core machine).
- Start-up: per worker, seconds to load spaCy, WordNet and the lexicon tables (one real sentence
  through every stage) and the worker's peak memory; and the seconds to start the cluster itself.
- Memory: peak resident memory of a whole ``smithtui foils --out DIR/`` process (local engine, no
  validation) on the first ``--mem-small`` and ``--mem-large`` rows of one input file of
  ``--mem-file-rows`` (repeated) Austen sentences; target: large <= 1.2x small.
- Bytes per foil record: today's single-file JSONL (provenance in every record) against part
  files (provenance once in manifest.json), without and with round-trip validation.

    .venv/bin/python bench/scale.py [--n 600] [--repeats 3] [--mem-small 1000] [--mem-large 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, book_sentences

BOOKS = ("austen_emma.txt", "austen_persuasion.txt", "austen_prideprejudice.txt", "austen_mansfieldpark.txt")


def write_sentences(path: Path, sentences: list[str]) -> Path:
    path.write_text("\n".join(sentences) + "\n", encoding="utf-8")
    return path


def cpu_seconds() -> float:
    """User + system CPU seconds of this process (run on each worker)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def throughput(args: argparse.Namespace, tmp: Path, sentences: list[str]) -> None:
    from distributed import Client, LocalCluster

    from core.batch import run_foils
    from core.config import Settings
    from core.engines import EngineSpec
    from core.workercache import warm_up

    src = write_sentences(tmp / "throughput.txt", sentences)
    settings = Settings()
    clusters = {}
    print(f"throughput: {len(sentences)} sentences, shards of {args.shard_size}, no validation")
    for n in (1, 2):
        start = time.perf_counter()
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
        up = time.perf_counter() - start
        warm = client.run(warm_up, settings, False)
        clusters[n] = (cluster, client)
        print(f"  start-up, {n}-worker cluster: cluster {up:.1f} s; per worker (load spaCy+WordNet+lexicon, peak RSS):")
        for address, info in sorted(warm.items()):
            print(f"    {address}: {info['seconds']:.1f} s, {info['peak_rss_mb']:.0f} MiB")
    times: dict[int, list[float]] = {1: [], 2: []}
    try:
        for rep in range(args.repeats):
            for n in (1, 2):
                cluster, client = clusters[n]
                out = tmp / f"tp-{n}-{rep}"
                cpu_before = sum(client.run(cpu_seconds).values())
                start = time.perf_counter()
                summary = run_foils(str(src), out, settings=settings, validate=False, shard_size=args.shard_size,
                                    engine=EngineSpec("dask", address=cluster.scheduler_address))  # fmt: skip
                seconds = time.perf_counter() - start
                cpu = sum(client.run(cpu_seconds).values()) - cpu_before
                assert not summary.failed, summary.failed
                assert summary.counts["foils"] > len(sentences), "no foils: is WordNet installed (make wordnet)?"
                times[n].append(seconds)
                print(f"  run {rep + 1}, {n} worker(s): {seconds:.1f} s = {len(sentences) / seconds:.1f} sentences/s; "
                      f"workers used {cpu:.1f} CPU s = {cpu / seconds:.2f} cores, {len(sentences) / cpu:.1f} sent per CPU s")  # fmt: skip
            same = all(
                (tmp / f"tp-1-{rep}" / p.name).read_bytes() == p.read_bytes()
                for p in (tmp / f"tp-2-{rep}").glob("part-*")
            )
            print(f"  run {rep + 1}: 1- and 2-worker part files identical: {same}")
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"  median: 1 worker {len(sentences) / one:.1f} sent/s, 2 workers {len(sentences) / two:.1f} sent/s; "
          f"ratio {one / two:.2f}x (target >= 1.6)")  # fmt: skip


def peak_rss_of_run(src: Path, out: Path, limit: int) -> tuple[float, float]:
    """Peak RSS (MiB) and seconds of one ``smithtui foils`` process on the first ``limit`` rows of ``src``."""
    code = (
        "import resource, sys; from smithtui.cli import main; rc = main(sys.argv[1:]); "
        "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(rc)"
    )
    cmd = [sys.executable, "-c", code, "foils", "--input", str(src), "--out", f"{out}/", "--no-validate",
           "--limit", str(limit), "--shard-size", "500"]  # fmt: skip
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    seconds = time.perf_counter() - start
    peak_kib = int(next(line for line in done.stdout.splitlines() if line.startswith("PEAK")).split()[1])
    return peak_kib / 1024, seconds


def memory(args: argparse.Namespace, tmp: Path, pool: list[str]) -> None:
    rows = [pool[i % len(pool)] for i in range(args.mem_file_rows)]
    src = write_sentences(tmp / "memory.txt", rows)
    print(f"memory: one input file of {len(rows)} rows ({src.stat().st_size / 1e6:.1f} MB, {len(pool)} distinct "
          f"sentences repeated); smithtui foils --out DIR/ --no-validate --limit N, local engine")  # fmt: skip
    peaks = {}
    for n in (args.mem_small, args.mem_large):
        peak, seconds = peak_rss_of_run(src, tmp / f"mem-{n}", n)
        peaks[n] = peak
        print(f"  N = {n}: peak RSS {peak:.0f} MiB ({seconds:.0f} s, {n / seconds:.1f} sent/s)")
    small, large = peaks[args.mem_small], peaks[args.mem_large]
    print(f"  ratio {args.mem_large} / {args.mem_small}: {large / small:.3f} (target <= 1.2)")


def record_bytes(args: argparse.Namespace, tmp: Path, sentences: list[str]) -> None:
    from core.batch import run_foils
    from core.foils.pipeline import FoilPipeline
    from core.inputs import iter_input_rows
    from core.shards import read_parts
    from core.textio import json_default

    src = write_sentences(tmp / "bytes.txt", sentences)
    pipe = FoilPipeline.from_settings()
    print(f"bytes per foil record ({len(sentences)} sentences): today's single-file JSONL vs part files")
    for validate in (False, True):
        before = [json.dumps(r, ensure_ascii=False, default=json_default) + "\n"
                  for r in pipe.run(iter_input_rows(src), validate=validate)]  # fmt: skip
        out = tmp / f"bytes-{validate}"
        run_foils(str(src), out, validate=validate, shard_size=100)
        parts = sum(p.stat().st_size for p in out.glob("part-*"))
        manifest = (out / "manifest.json").stat().st_size
        n = len(before)
        b, a = sum(len(x.encode()) for x in before) / n, parts / n
        restored = [{**{k: v for k, v in r.items() if k != "run"}, "provenance": pipe.provenance()} for r in read_parts(out)]
        lossless = restored == [json.loads(x) for x in before]
        print(f"  validate={validate}: {n} records; before {b:.0f} B/record, after {a:.0f} B/record "
              f"({100 * (1 - a / b):.0f}% smaller; + one manifest of {manifest} B); nothing lost: {lossless}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=600, help="sentences for the throughput runs")
    ap.add_argument("--shard-size", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--mem-small", type=int, default=1000)
    ap.add_argument("--mem-large", type=int, default=10000)
    ap.add_argument("--mem-file-rows", type=int, default=100000)
    ap.add_argument("--bytes-n", type=int, default=100)
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: throughput,memory,bytes")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    pool = [s for book in BOOKS for s in book_sentences(book, n=20000)]
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmpdir:
        tmp = Path(tmpdir)
        if "bytes" not in skip:
            record_bytes(args, tmp, pool[-args.bytes_n :])
        if "throughput" not in skip:
            throughput(args, tmp, pool[: args.n])
        if "memory" not in skip:
            memory(args, tmp, pool)
    print(f"bench peak RSS (this process): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
