"""Foil pipeline throughput on real sentences, against spaCy's own nlp.pipe.

Measures what ``smithtui foils`` runs: :meth:`FoilPipeline.run` (parse, enumerate edits, sample,
realize, retry refused edits, build the JSON records), without validation, on sentences the
process has not seen, and compares it with bare ``nlp.pipe`` on the same sentences.

- A warm-up chunk loads everything that loads once (spaCy, WordNet, lemminflect); its time is
  printed as "first run" (what a fresh process pays on its first 600 sentences).
- Then ``--chunks`` further chunks of ``--n`` unseen sentences each: per chunk, nlp.pipe time and
  pipeline time; stage times come from timing the pipeline's own stage methods during the run.
- Validation (round-trip re-parse) is timed on the first measured chunk, in a separate run.
- "again" re-runs the first measured chunk (warm WordNet caches for exactly these words).

Prints medians over the chunks and the ratio of the pipeline without validation (parse, rules,
realize: the stages the issue names) to bare nlp.pipe (target: <= 2.0 with sense choice and the default fluency tier, issue #12; it was <= 1.5 before them), and, beside it, the
end-to-end ratio that also counts building the JSON records (two PENMAN graphs per foil).

    .venv/bin/python bench/foils.py [--n 600] [--chunks 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

from common import book_sentences

STAGES = ("parse", "edits", "sample", "realize", "validate")


def timed_pipeline(settings: Any = None) -> Any:
    """A FoilPipeline whose stage methods add their wall time to ``pipe.timings``; building the JSON
    records (``core.foils.pipeline.foil_record``) is timed as ``records`` (the bench's only hooks)."""
    import core.foils.pipeline
    from core.foils.pipeline import FoilPipeline

    class TimedPipeline(FoilPipeline):
        timings: defaultdict[str, float]

    pipe = TimedPipeline.from_settings(settings)
    pipe.timings = defaultdict(float)
    for stage in STAGES:
        inner = getattr(pipe, stage)

        def wrapper(*args: Any, _inner: Any = inner, _stage: str = stage, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return _inner(*args, **kwargs)
            finally:
                pipe.timings[_stage] += time.perf_counter() - start

        setattr(pipe, stage, wrapper)
    make_record = core.foils.pipeline.foil_record

    def timed_record(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return make_record(*args, **kwargs)
        finally:
            pipe.timings["records"] += time.perf_counter() - start

    core.foils.pipeline.foil_record = timed_record
    return pipe


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=600, help="sentences per chunk")
    ap.add_argument("--chunks", type=int, default=5, help="measured chunks of unseen sentences")
    args = ap.parse_args()

    from core.inputs import InputRow

    sentences = book_sentences(n=args.n * (args.chunks + 1))
    if len(sentences) < args.n * (args.chunks + 1):
        raise SystemExit(f"only {len(sentences)} sentences; lower --n or --chunks")
    chunks = [sentences[i * args.n : (i + 1) * args.n] for i in range(args.chunks + 1)]

    def rows(chunk: list[str]) -> list[InputRow]:
        return [InputRow(id=str(i), sentence=s) for i, s in enumerate(chunk)]

    pipe = timed_pipeline()
    nlp = pipe.parser.nlp  # the same loaded spaCy pipeline the foil parser runs
    list(nlp.pipe(chunks[0][:50]))

    start = time.perf_counter()
    first = list(pipe.run(rows(chunks[0]), validate=False))
    t_first = time.perf_counter() - start
    t_first_spacy = _time(lambda: list(nlp.pipe(chunks[0], batch_size=64)))

    per_chunk: list[dict[str, float]] = []
    for chunk in chunks[1:]:
        t_spacy = _time(lambda chunk=chunk: list(nlp.pipe(chunk, batch_size=64)))
        pipe.timings.clear()
        start = time.perf_counter()
        out = list(pipe.run(rows(chunk), validate=False))
        t_run = time.perf_counter() - start
        stages = dict(pipe.timings)
        records = stages.get("records", 0)
        per_chunk.append(
            {
                "spacy": t_spacy,
                "run": t_run,
                "parse": stages.get("parse", 0),
                # everything else the run does: enumerate, sample, realize, replace refused edits
                "rules": t_run - stages.get("parse", 0) - records,
                "records": records,
                "foils": sum(1 for r in out if r.get("foil") and not r.get("error")),
                "slots": sum(1 for r in out if r.get("rule")),
            }
        )

    again_spacy = _time(lambda: list(nlp.pipe(chunks[1], batch_size=64)))
    again = _time(lambda: list(pipe.run(rows(chunks[1]), validate=False)))

    pipe.timings.clear()
    validated = list(pipe.run(rows(chunks[1]), validate=True))
    t_valid = pipe.timings["validate"]
    n_checked = sum(1 for r in validated if r.get("validated") is not None)
    n_passed = sum(1 for r in validated if r.get("validated") is True)

    def med(key: str) -> float:
        return statistics.median(c[key] for c in per_chunk)

    n = args.n
    ratios = [(c["parse"] + c["rules"]) / c["spacy"] for c in per_chunk]
    ratio = statistics.median(ratios)
    end_to_end = statistics.median(c["run"] / c["spacy"] for c in per_chunk)
    print(f"sentences: {args.chunks} chunks x {n} unseen (Austen's Emma, 5-30 words) after a {n}-sentence warm-up")
    print(f"foils per chunk: {med('foils'):.0f} realized of {med('slots'):.0f} sampled slots (median)")
    print(f"spaCy nlp.pipe          {n / med('spacy'):8.1f} sent/s   ({med('spacy'):.2f} s, median)")
    print(f"parse (graph + spaCy)   {n / med('parse'):8.1f} sent/s   ({med('parse'):.2f} s)")
    print(f"rules + realize         {n / med('rules'):8.1f} sent/s   ({med('rules'):.2f} s; with sampling and retries)")
    print(f"records (JSON, PENMAN)  {n / med('records'):8.1f} sent/s   ({med('records'):.2f} s)")
    print(f"validation (round-trip) {n / t_valid:8.1f} sent/s   ({t_valid:.2f} s; {n_checked / t_valid:.1f} foils/s)")
    print(f"round-trip pass rate    {n_passed / max(1, n_checked):.1%}")
    print(f"first run (loads WordNet etc.): {t_first:.2f} s = {t_first / t_first_spacy:.2f} x nlp.pipe ({len(first)} records)")
    print(f"same chunk again (warm caches): {again:.2f} s = {again / again_spacy:.2f} x nlp.pipe")
    print(f"end to end, records included: {end_to_end:.2f} x nlp.pipe (median over chunks)")
    print("per-chunk ratios: " + ", ".join(f"{r:.2f}" for r in ratios))
    print(
        f"RATIO pipeline-without-validation (parse + rules + realize) / nlp.pipe = {ratio:.2f} (median over chunks)"
        f"  (target <= 2.0: {'OK' if ratio <= 2.0 else 'MISSED'})"
    )


def _time(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
