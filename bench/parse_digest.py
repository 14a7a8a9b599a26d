"""The dependency parser's output as one digest: the acceptance test of a refactor of the graph builder.

Parses the distinct PAWS originals (first column of the shared ``paws_samples_1737x6.csv``, ~1,800
sentences) with ``core.foils.parse.dep.DependencyParser`` and prints a SHA-256 over their PENMAN strings,
a second one over PENMAN + alignments + metadata + errors (everything the builder decides), and the
count. Same digests before and after a change = byte-identical parses. ``--out`` writes the PENMAN
strings (one block per sentence) so two runs can be diffed.

    python bench/parse_digest.py [--limit N] [--paraphrases] [--frames FILE] [--out parses.txt]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
import time

from common import SHARED_DATA  # also puts the project on sys.path and sets HF_HUB_OFFLINE

from core.foils.parse.dep import DependencyParser

PAWS = SHARED_DATA / "sentencesmith" / "paws_samples_1737x6.csv"


def paws_originals(limit: int | None = None, *, paraphrases: bool = False) -> list[str]:
    """The distinct first-column sentences of the PAWS sample, in file order (and its paraphrases after them)."""
    with PAWS.open(encoding="utf-8", newline="") as fh:
        rows = csv.DictReader(fh)
        table = [row for row in rows if row.get("original_sentence")]
    seen = dict.fromkeys(row["original_sentence"] for row in table)
    if paraphrases:
        seen.update(dict.fromkeys(row["paraphrase"] for row in table if row.get("paraphrase")))
    out = list(seen)
    return out[:limit] if limit else out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="first N distinct sentences (0 = all)")
    ap.add_argument("--frames", default=None, help="PropBank frames file (default: none, as the pipeline default)")
    ap.add_argument("--out", default=None, help="write the PENMAN strings here")
    ap.add_argument("--paraphrases", action="store_true", help="also parse the distinct paraphrases (more coverage)")
    args = ap.parse_args()
    if not PAWS.exists():
        print(f"shared data not found at {PAWS}; set SMITH_SHARED_DATA (nothing to digest)")
        return 0
    sentences = paws_originals(args.limit or None, paraphrases=args.paraphrases)
    parser = DependencyParser(frames_file=args.frames)
    start = time.perf_counter()
    parsed = parser.parse(sentences)
    seconds = time.perf_counter() - start
    penman_digest, full_digest = hashlib.sha256(), hashlib.sha256()
    blocks = []
    for p in parsed:
        penman_digest.update(p.penman.encode("utf-8") + b"\n\n")
        extra = {"alignment": p.alignment, "metadata": p.metadata, "error": p.error}
        full_digest.update(p.penman.encode("utf-8") + json.dumps(extra, sort_keys=True, default=str).encode() + b"\n")
        blocks.append(p.penman)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write("\n\n".join(blocks) + "\n")
    print(f"sentences: {len(parsed)}")
    print(f"penman sha256: {penman_digest.hexdigest()}")
    print(f"penman+alignment+metadata sha256: {full_digest.hexdigest()}")
    print(f"parse seconds: {seconds:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
