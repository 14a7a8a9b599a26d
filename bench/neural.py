"""Batching pays: batched vs one-at-a-time throughput of amrlib parse, amrlib generate and NLI.

Runs on the tiny self-built models of tests/tiny_models.py (built once into .cache/tiny-models),
so it measures the backends' batching, not model quality. Prints items/second (medians of
``--repeats`` runs) for each stage batched (``--batch-size``) and one item per call, and the
ratio batched / one-at-a-time. Target: every ratio > 1.

    .venv/bin/python bench/neural.py [--n 48] [--batch-size 16] [--threads 1]
"""

from __future__ import annotations

import argparse
import sys

from common import ROOT, median_time

sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=48, help="items per stage")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--models", default=str(ROOT / ".cache" / "tiny-models"), help="where the tiny models are built")
    args = ap.parse_args()

    import penman
    import torch
    from tiny_models import FIXTURES, NLI_PAIRS, build_tiny_models

    from core.foils.neural.amrlib import AmrlibGenerator, AmrlibParser
    from core.foils.neural.nli import NLIValidator

    torch.set_num_threads(args.threads)
    tiny = build_tiny_models(args.models)
    sentences = [FIXTURES[i % len(FIXTURES)][0] for i in range(args.n)]
    graphs = [penman.decode(FIXTURES[i % len(FIXTURES)][1]) for i in range(args.n)]
    premises = [NLI_PAIRS[i % len(NLI_PAIRS)][0] for i in range(args.n)]
    hypotheses = [NLI_PAIRS[i % len(NLI_PAIRS)][1] for i in range(args.n)]

    def parser(bs: int) -> AmrlibParser:
        return AmrlibParser(str(tiny.parse_dir), tokenizer=str(tiny.tokenizer_dir), batch_size=bs, num_beams=4)

    def generator(bs: int) -> AmrlibGenerator:
        return AmrlibGenerator(str(tiny.generate_dir), batch_size=bs, num_beams=4, num_ret_seq=1)

    def nli(bs: int) -> NLIValidator:
        return NLIValidator(str(tiny.nli_dir), batch_size=bs)

    stages = {
        "parse": (parser, lambda b: b.parse(sentences), lambda b: [b.parse([s]) for s in sentences]),
        "generate": (
            generator,
            lambda b: b.generate_graphs(graphs),
            lambda b: [b.generate_graphs([g]) for g in graphs],
        ),
        "nli": (
            nli,
            lambda b: b.predict(premises, hypotheses),
            lambda b: [b.predict([p], [h]) for p, h in zip(premises, hypotheses, strict=True)],
        ),
    }
    print(f"tiny models in {tiny.root}; n={args.n} items per stage; torch threads={args.threads}")
    print(f"{'stage':<9} {'batched/s':>10} {'single/s':>10} {'ratio':>7}   (batch size {args.batch_size})")
    worst = float("inf")
    for name, (make, batched, single) in stages.items():
        many, one = make(args.batch_size), make(1)
        single(one)  # warm up: load weights, first-call overheads
        batched(many)
        t_batched, _ = median_time(lambda b=many, f=batched: f(b), args.repeats)
        t_single, _ = median_time(lambda b=one, f=single: f(b), args.repeats)
        ratio = t_single / t_batched
        worst = min(worst, ratio)
        print(f"{name:<9} {args.n / t_batched:>10.1f} {args.n / t_single:>10.1f} {ratio:>7.2f}")
    verdict = "PASS" if worst > 1 else "FAIL"
    print(f"{verdict}: smallest batched/one-at-a-time ratio {worst:.2f} (target > 1)")
    return 0 if worst > 1 else 1


if __name__ == "__main__":
    sys.exit(main())
