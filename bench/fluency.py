"""Fluency tiers: how well each separates disfluent foils from fluent ones, and how fast it is.

For each scorer of :mod:`core.foils.fluency` (``--tiers``, default trigram and smollm2):

- **contrasts** (``tests/data/fluency_contrasts.csv``): 7 hand-made (source, disfluent foil, fluent foil)
  triples, one per failure kind the issue names; Δ = mean per-token log-prob of foil minus source.
  Prints how many bad foils and how many good foils fall below each threshold, and in how many
  triples the bad foil scores below the good one.
- **hand-check** (``docs/hardness_handcheck.md``): 50 PAWS foils of the default pipeline judged by hand
  (fluent as the source: yes / worse / no). Prints the AUC of -Δ for "worse or no" against "yes", and per
  threshold the share of fluent foils a ``fluency`` policy would drop and the share of disfluent ones it would.
- **speed**: scoring sentences/s (median of 3), and the foil pipeline (no validation, ranking on) on
  ``--n`` unseen Austen sentences with this tier: foils/s, and the ratio to spaCy's ``nlp.pipe``.

    .venv/bin/python bench/fluency.py [--tiers trigram,smollm2] [--n 200] [--n-neural 30]
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import statistics
import time
from typing import Any

from common import ROOT, book_sentences, median_time

THRESHOLDS = (-0.25, -0.5, -0.75, -1.0, -1.5)


def contrasts() -> list[dict[str, str]]:
    with open(ROOT / "tests" / "data" / "fluency_contrasts.csv", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def handcheck() -> list[dict[str, str]]:
    """The 50 judged foils: rule, source, foil, fluent ('yes' | 'worse' | 'no')."""
    out = []
    for line in (ROOT / "docs" / "hardness_handcheck.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 7 and cells[0].isdigit():
            out.append({"rule": cells[1].split()[0], "source": cells[2], "foil": cells[3], "fluent": cells[5]})
    return out


def auc(pos: list[float], neg: list[float]) -> float:
    """P(a positive scores above a negative), ties half."""
    pairs = [(p > n) + 0.5 * (p == n) for p in pos for n in neg]
    return sum(pairs) / len(pairs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiers", default="trigram,smollm2")
    ap.add_argument("--n", type=int, default=200, help="sentences for the pipeline speed run (fast tiers)")
    ap.add_argument("--n-neural", type=int, default=30, help="sentences for the pipeline speed run (smollm2)")
    args = ap.parse_args()

    from core.foils.fluency import get_scorer

    cs, hc = contrasts(), handcheck()
    sentences = book_sentences(n=max(args.n, args.n_neural) * 2)
    warm, unseen = sentences[: len(sentences) // 2], sentences[len(sentences) // 2 :]
    for tier in [t.strip() for t in args.tiers.split(",") if t.strip()]:
        start = time.perf_counter()
        scorer = get_scorer(tier)
        load = time.perf_counter() - start
        print(f"== {tier}: {scorer.info().get('model', '')} (load {load:.1f} s)")
        if tier != "none":  # "none" scores nothing: only its pipeline speed is measured (the baseline)
            separation(scorer, cs, hc)
        speed(tier, warm, unseen, args.n_neural if tier == "smollm2" else args.n)


def separation(scorer: Any, cs: list[dict[str, str]], hc: list[dict[str, str]]) -> None:
    """How the scorer's deltas separate the contrasts and the hand-checked foils; its scoring speed."""
    from core.foils.fluency import relative_fluency

    src = [c["source"] for c in cs]
    bad = [f["delta"] for f in relative_fluency(scorer, src, [c["bad"] for c in cs])]
    good = [f["delta"] for f in relative_fluency(scorer, src, [c["good"] for c in cs])]
    print("contrasts Δ bad/good: " + ", ".join(f"{b:+.2f}/{g:+.2f}" for b, g in zip(bad, good, strict=True)))
    print(f"contrasts: bad below good in {sum(b < g for b, g in zip(bad, good, strict=True))}/7")
    for th in THRESHOLDS:
        print(f"  Δ < {th:+.2f}: bad flagged {sum(b < th for b in bad)}/7, good flagged {sum(g < th for g in good)}/7")
    deltas = [f["delta"] for f in relative_fluency(scorer, [h["source"] for h in hc], [h["foil"] for h in hc])]
    fluent = [d for d, h in zip(deltas, hc, strict=True) if h["fluent"] == "yes"]
    worse = [d for d, h in zip(deltas, hc, strict=True) if h["fluent"] != "yes"]
    print(
        f"hand-check ({len(fluent)} fluent, {len(worse)} worse or broken): AUC {auc([-d for d in worse], [-d for d in fluent]):.3f}; "
        f"median Δ fluent {statistics.median(fluent):+.2f}, worse {statistics.median(worse):+.2f}"
    )
    for th in THRESHOLDS:
        print(
            f"  Δ < {th:+.2f}: drops {sum(d < th for d in fluent)}/{len(fluent)} fluent,"
            f" {sum(d < th for d in worse)}/{len(worse)} worse or broken"
        )
    texts = [h["foil"] for h in hc]
    t_score, _ = median_time(lambda texts=texts, scorer=scorer: scorer.logprob(texts))
    print(f"scoring: {len(texts) / t_score:.1f} sentences/s (median of 3, {len(texts)} PAWS sentences)")


def speed(tier: str, warm: list[str], unseen: list[str], n: int) -> None:
    """The foil pipeline (no validation, ranking on) with this tier: foils/s and the ratio to nlp.pipe."""
    from core.config import PipelineSettings
    from core.foils.pipeline import FoilPipeline
    from core.inputs import InputRow

    pipe = FoilPipeline.from_settings(dataclasses.replace(PipelineSettings(), fluency=tier))
    nlp = pipe.parser.nlp
    list(pipe.run([InputRow(str(i), s) for i, s in enumerate(warm[:n])], validate=False))
    rows = [InputRow(str(i), s) for i, s in enumerate(unseen[:n])]
    t_spacy, _ = median_time(lambda nlp=nlp, texts=unseen[:n]: list(nlp.pipe(texts, batch_size=64)))
    repeats = 1 if tier == "smollm2" else 3
    t_run, recs = median_time(lambda pipe=pipe, rows=rows: list(pipe.run(rows, validate=False)), repeats=repeats)
    foils = sum(1 for r in recs if r.get("foil") and not r.get("error"))
    print(
        f"pipeline (no validation, ranking {'off' if tier == 'none' else 'on'}): {n} sentences, {foils} foils in {t_run:.2f} s = "
        f"{foils / t_run:.1f} foils/s, {n / t_run:.1f} sentences/s, {t_run / t_spacy:.2f} x nlp.pipe"
    )


if __name__ == "__main__":
    main()
