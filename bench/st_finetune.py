"""Fine-tune the packaged all-MiniLM-L6-v2 on foil hard negatives; held-out TACC/AUC/HM before and after.

The paper's PAWS foils (shared data) are split by source sentence with a fixed seed: training
triplets (anchor, positive, negative) go to ``MultipleNegativesRankingLoss``; the held-out foils
are scored by ``FoilTripletEvaluator`` (the same numbers as ``smithtui eval``) before and after.
A measured example for the README, not a unit test: quality, not wiring, is what it shows.

    .venv/bin/python bench/st_finetune.py [--train 0.7] [--epochs 1] [--max-steps N] [--batch 16] [--seed 13]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time

from common import SHARED_DATA


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=float, default=0.7, help="share of source sentences used for training")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--max-steps", type=int, default=-1, help="stop after this many steps (-1: the whole epochs)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()

    import datasets
    import torch
    from sentence_transformers import (
        SentenceTransformer,
        SentenceTransformerTrainer,
        SentenceTransformerTrainingArguments,
    )
    from sentence_transformers.losses import MultipleNegativesRankingLoss

    from core.embed import packaged
    from core.evaluate.triples import TripleSet, read_triples
    from core.st_bridge import FoilTripletEvaluator

    path = SHARED_DATA / "sentencesmith" / "paws_samples_1737x6.csv"
    if not path.exists():
        raise SystemExit(f"shared data not found at {path}; set SMITH_SHARED_DATA")
    ts = read_triples(path)
    sources = sorted({t.source for t in ts.triples})
    random.Random(args.seed).shuffle(sources)
    train_sources = set(sources[: int(len(sources) * args.train)])
    train = [t for t in ts.triples if t.source in train_sources]
    held = TripleSet(tuple(t for t in ts.triples if t.source not in train_sources), path=str(path))
    torch.manual_seed(args.seed)

    model = SentenceTransformer(str(packaged.minilm_dir()), device="cpu", local_files_only=True)
    evaluator = FoilTripletEvaluator(held, name="held_out")
    t0 = time.perf_counter()
    before = evaluator(model)
    t_eval = time.perf_counter() - t0
    data = datasets.Dataset.from_list([{"anchor": t.source, "positive": t.paraphrase, "negative": t.foil} for t in train])
    with tempfile.TemporaryDirectory() as tmp:
        training = SentenceTransformerTrainingArguments(
            output_dir=tmp, num_train_epochs=args.epochs, max_steps=args.max_steps, per_device_train_batch_size=args.batch,
            learning_rate=args.lr, seed=args.seed, report_to=[], save_strategy="no", logging_strategy="no",
            eval_strategy="no", use_cpu=True, dataloader_num_workers=0,
        )  # fmt: skip
        trainer = SentenceTransformerTrainer(
            model=model, args=training, train_dataset=data, loss=MultipleNegativesRankingLoss(model)
        )
        t1 = time.perf_counter()
        trainer.train()
        t_train = time.perf_counter() - t1
    after = evaluator(model)
    steps = trainer.state.global_step
    print(f"PAWS foils: {len(train)} training triplets ({len(train_sources)} sentences), {len(held)} held out; "
          f"seed {args.seed}, {steps} steps of batch {args.batch} (MNRL), lr {args.lr}")  # fmt: skip
    print(f"train {t_train:.1f} s, one held-out evaluation {t_eval:.1f} s")
    print(f"{'metric':14} {'before':>8} {'after':>8} {'change':>8}")
    for key in before:
        print(f"{key.removeprefix('held_out_'):14} {before[key]:8.3f} {after[key]:8.3f} {after[key] - before[key]:+8.3f}")


if __name__ == "__main__":
    main()
