"""Aligned realizer on PAWS sources: speed against the parse, and how close foils stay to their source.

Prints (medians of 3 runs) the realizer's time per edit and its share of the parse time, the
realization rate per rule, and the lexical-closeness target: word Jaccard(source, foil) >=
Jaccard(source, paraphrase) in >= 60% of PAWS rows (one sampled foil per row, seed 0), next to the
same figure for the paper's released foils.

    .venv/bin/python bench/realize.py [--n 200]
"""

from __future__ import annotations

import argparse
import csv
import random
import re
from collections import Counter

from common import SHARED_DATA, median_time


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def jaccard(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    return len(wa & wb) / len(wa | wb) if wa | wb else 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="PAWS source sentences")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    path = SHARED_DATA / "sentencesmith" / "paws_samples_1737x6.csv"
    if not path.exists():
        raise SystemExit(f"shared data not found at {path}; set SMITH_SHARED_DATA")
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    paraphrase: dict[str, str] = {}
    paper_close = []
    for row in rows:
        paraphrase.setdefault(row["original_sentence"], row["paraphrase"])
        paper_close.append(
            jaccard(row["original_sentence"], row["modified_sentence"])
            >= jaccard(row["original_sentence"], row["paraphrase"])
        )
    sources = list(paraphrase)[: args.n]

    from core.foils.parse.dep import DependencyParser
    from core.foils.realize.aligned import AlignedRealizer
    from core.foils.rules.edits import enumerate_edits

    parser, realizer = DependencyParser(), AlignedRealizer()
    parser.parse(sources[:20])  # warm spaCy
    t_parse, parsed = median_time(lambda: parser.parse(sources), args.repeats)
    edits = [e for p in parsed if p.ok for es in enumerate_edits(p).values() for e in es]
    realizer.generate(edits[:50])  # warm lemminflect
    t_real, results = median_time(lambda: realizer.generate(edits), args.repeats)

    done, total = Counter(), Counter()
    by_source: dict[str, list[str]] = {}
    for edit, res in zip(edits, results, strict=True):
        total[edit.rule] += 1
        if res.error is None:
            done[edit.rule] += 1
            by_source.setdefault(edit.source.text, []).append(res.text)
    rng = random.Random(0)
    close = [
        jaccard(src, foil) >= jaccard(src, paraphrase[src])
        for src, foils in by_source.items()
        for foil in [rng.choice(foils)]
    ]
    per_parse = len(edits) / max(1, len(sources))
    print(f"sources: {len(sources)} PAWS sentences; edits: {len(edits)} ({per_parse:.1f} per sentence)")
    print(f"parse          {1000 * t_parse / len(sources):8.2f} ms/sentence (median of {args.repeats})")
    print(f"realize        {1000 * t_real / max(1, len(edits)):8.3f} ms/edit")
    share = t_real / max(1, len(edits)) / (t_parse / len(sources))
    print(f"RATIO one realization / one parse = {share:.3f}  (target: a small fraction, <= 0.05)")
    for rule in total:
        print(f"  {rule}: realized {done[rule]}/{total[rule]} ({done[rule] / total[rule]:.0%})")
    ours = sum(close) / max(1, len(close))
    paper = sum(paper_close) / max(1, len(paper_close))
    print(
        f"Jaccard(source, foil) >= Jaccard(source, paraphrase): ours {ours:.1%} of {len(close)} rows; "
        f"paper's foils {paper:.1%} of {len(paper_close)}  (target >= 60%: {'OK' if ours >= 0.6 else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
