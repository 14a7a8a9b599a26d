"""Does a fluency tier predict the judges' fluency? And what would a stricter fluency policy cost?

For every judged kept foil of ``--label`` on the judged sets (``sample_data/quality*`` with a
``judgements.jsonl``), Δ = mean per-token log-prob of the foil minus its source, per tier. Prints:

- per rule, the AUC of Δ for "as fluent as the source" (fluency 0) against "worse" (fluency ≥ 1);
- per Δ threshold, what a policy dropping the foils below it keeps: the share as fluent, the share usable,
  and the (sentence, rule) cells still covered by a usable foil;
- keeping only the best-Δ foil of each cell, against one foil per cell chosen at random (``--seed``).

    .venv/bin/python bench/fluency_judged.py [--label after25] [--tiers trigram,smollm2] [--sets fresh5,fresh6]

Measured (2026-12-02, after23, 2,213 foils of fresh5-fresh11, docs/quality.md "Seventh session"): SmolLM2 AUC
0.67 (trigram 0.60); reaching 75% as fluent costs a seventh of the covered cells.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from common import ROOT
from fluency import auc
from quality import RULES, key_of, read_foils, read_judgements

THRESHOLDS = (-1.0, -0.75, -0.5, -0.3, -0.2, -0.1, 0.0)


def judged_foils(label: str, sets: Sequence[str]) -> list[dict[str, Any]]:
    """The kept foils of ``label`` that have a judgement, with ``set``, ``fluency`` and ``usable`` added."""
    out = []
    for name in sets:
        data = ROOT / "sample_data" / name
        if not (data / "judgements.jsonl").exists() or not (data / f"foils-{label}.jsonl").exists():
            continue
        judged = read_judgements(data / "judgements.jsonl")
        for foil in read_foils(label, data):
            j = judged.get(key_of(foil))
            if j is not None:
                out.append({**foil, "set": name, "fluency": j.fluency, "usable": j.usable})
    return out


def covered(rows: Iterable[Mapping[str, Any]]) -> int:
    cells: dict[tuple[str, str, str], bool] = defaultdict(bool)
    for r in rows:
        cells[(r["set"], r["source"], r["rule"])] |= r["usable"]
    return sum(cells.values())


def summary(rows: Sequence[Mapping[str, Any]]) -> str:
    fluent = sum(r["fluency"] == 0 for r in rows) / len(rows)
    usable = sum(r["usable"] for r in rows) / len(rows)
    return f"kept {len(rows):5d}  as fluent {fluent:.1%}  usable {usable:.1%}  cells covered {covered(rows)}"


def one_per_cell(rows: Sequence[Mapping[str, Any]], key: Any) -> list[Mapping[str, Any]]:
    best: dict[tuple[str, str, str], Mapping[str, Any]] = {}
    for r in rows:
        cell = (r["set"], r["source"], r["rule"])
        if cell not in best or key(r) > key(best[cell]):
            best[cell] = r
    return list(best.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="after25")
    ap.add_argument("--tiers", default="trigram,smollm2")
    ap.add_argument("--sets", default="", help="comma-separated sample_data folders (default: every judged set)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    from core.foils.fluency import get_scorer

    sets = [s if s.startswith("quality") else f"quality-{s}" for s in args.sets.split(",") if s] or sorted(
        p.name for p in (ROOT / "sample_data").glob("quality*") if (p / "judgements.jsonl").exists()
    )
    rows = judged_foils(args.label, sets)
    if not rows:
        raise SystemExit(f"no judged foils of {args.label!r} in {', '.join(sets)}")
    print(f"{len(rows)} judged foils of {args.label} in {len(sets)} sets; all: {summary(rows)}")
    for tier in args.tiers.split(","):
        scorer = get_scorer(tier)
        texts = sorted({r["source"] for r in rows} | {r["foil"] for r in rows})
        score = dict(zip(texts, scorer.logprob(texts), strict=True))
        for r in rows:
            r["delta"] = score[r["foil"]] - score[r["source"]]
        print(f"\n## {tier}")
        for rule in (*RULES, "all"):
            group = [r for r in rows if rule in ("all", r["rule"])]
            pos = [r["delta"] for r in group if r["fluency"] == 0]
            neg = [r["delta"] for r in group if r["fluency"] > 0]
            if pos and neg:
                print(f"AUC {rule:>3} (n={len(group):4d}): {auc(pos, neg):.3f}")
        for threshold in THRESHOLDS:
            print(f"drop Δ < {threshold:5.2f}: {summary([r for r in rows if r['delta'] >= threshold])}")
        print(f"best Δ per cell   : {summary(one_per_cell(rows, lambda r: r['delta']))}")
        rng = random.Random(args.seed)
        for r in rows:
            r["draw"] = rng.random()
        print(f"random one per cell: {summary(one_per_cell(rows, lambda r: r['draw']))}")


if __name__ == "__main__":
    main()
