"""Dependency parser: throughput against bare spaCy ``nlp.pipe``, and Smatch on the Little Prince gold.

Prints sentences/second of ``DependencyParser.parse`` and of ``nlp.pipe`` on the same sentences
(median of 3 runs each, interleaved), their ratio, the graph-building share, and corpus Smatch
(precision/recall/F1, seed 0, 4 restarts) on all 800 gold graphs with and without the frames file.

    .venv/bin/python bench/parse_smatch.py [--n 600] [--no-smatch] [--limit N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import SHARED_DATA, book_sentences

from core.foils.amr.smatch import score_parser
from core.foils.parse.build import GraphBuilder
from core.foils.parse.dep import DependencyParser, load_spacy

FRAMES = SHARED_DATA / "amr" / "propbank-amr-frames-arg-descr.txt"
GOLD = SHARED_DATA / "amr" / "little_prince_v3_dev.txt"


def throughput(n: int, repeats: int = 3) -> None:
    sentences = book_sentences("austen_emma.txt", n=n)
    nlp = load_spacy()
    parser = DependencyParser(frames_file=FRAMES)
    parser.parse(sentences[:20])  # warm caches (frames index, vocab)
    pipe_times, parse_times = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        docs = list(nlp.pipe(sentences, batch_size=parser.batch_size))
        pipe_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        parsed = parser.parse(sentences)
        parse_times.append(time.perf_counter() - start)
    start = time.perf_counter()
    for doc in docs:
        GraphBuilder(doc, parser.frames).build()
    build = time.perf_counter() - start
    pipe, parse = statistics.median(pipe_times), statistics.median(parse_times)
    errors = sum(1 for p in parsed if not p.ok)
    print(f"sentences: {len(sentences)} from austen_emma.txt ({errors} not parsed)")
    print(f"nlp.pipe:        {len(sentences) / pipe:8.1f} sentences/s  (median {pipe:.2f}s of {repeats})")
    print(f"parser.parse:    {len(sentences) / parse:8.1f} sentences/s  (median {parse:.2f}s of {repeats})")
    print(
        f"ratio parse / nlp.pipe: {parse / pipe:.2f}   (graph building alone: {build:.2f}s, {build / pipe:.0%} of nlp.pipe)"
    )


def smatch(limit: int | None) -> None:
    for label, frames in (("with frames", FRAMES), ("without frames", None)):
        start = time.perf_counter()
        s = score_parser(DependencyParser(frames_file=frames), GOLD, limit=limit)
        took = time.perf_counter() - start
        print(
            f"smatch {label:<15} n={s['n']}  P={s['precision']:.4f}  R={s['recall']:.4f}  F1={s['f1']:.4f}"
            f"  ({s['parse_errors']} not parsed, {took:.1f}s)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=600, help="sentences for the throughput runs (default 600)")
    ap.add_argument("--no-smatch", action="store_true", help="skip the Smatch scores")
    ap.add_argument("--limit", type=int, help="score only the first N gold graphs")
    args = ap.parse_args()
    throughput(args.n)
    if not args.no_smatch:
        smatch(args.limit)


if __name__ == "__main__":
    main()
