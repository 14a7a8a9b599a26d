"""HS usable rate by sense lead and first-sense share, on the judged quality sets (issue 12, twelfth session).

Regenerates HS alone with no sense lead (``pipeline.hypernym_sense_margin = 0``) over every
``sample_data/quality*`` set that has judgements, joins each kept foil to its judgement by
``(source, rule, foil)``, and prints the usable rate per bucket of the chosen sense's lead over the runner-up
(``one`` for a word with one sense) and of the lemma's first-sense share of WordNet's tagged uses. It answers
whether a dominant first sense could stand in for a clear context (it cannot: docs/quality.md, "Twelfth session").

    NLTK_DATA=.nltk_data .venv/bin/python bench/hs_margins.py
"""

from __future__ import annotations

from collections import defaultdict

from common import ROOT
from quality import read_judgements, read_sentences


def _lead_bucket(details: dict) -> str:
    runner = details.get("sense_runner_up_score")
    if runner is None:
        return "one sense"
    lead = details["sense_score"] - runner
    return ">=0.35" if lead >= 0.35 else "0.2-0.35" if lead >= 0.2 else "0.1-0.2" if lead >= 0.1 else "<0.1"


def _share_bucket(lemma: str) -> str:
    from core.foils.rules.lexicon import _source_lemmas, sense_count, wordnet

    counts = [sense_count(lem) for lem in _source_lemmas(wordnet(), lemma, "n")]
    share = max(counts) / sum(counts) if counts and sum(counts) else 0.0
    return ">=0.9" if share >= 0.9 else "0.75-0.9" if share >= 0.75 else "<0.75"


def main() -> None:
    from core.config import Settings, apply_overrides
    from core.foils.pipeline import FoilPipeline
    from core.inputs import InputRow

    settings = apply_overrides(
        Settings(), {"pipeline.rules": "HS", "pipeline.hypernym_sense_margin": "0.0", "pipeline.per_rule": "20"}
    )
    pipe = FoilPipeline.from_settings(settings)
    buckets: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # kept, judged, usable
    for folder in sorted((ROOT / "sample_data").glob("quality*")):
        judged = read_judgements(folder / "judgements.jsonl")
        if not judged:
            continue
        rows = [InputRow(id=f"{folder.name}:{sid}", sentence=text) for _, sid, text in read_sentences(folder)]
        for rec in pipe.run(rows, validate=True):
            if not (rec.get("kept") and rec.get("foil")):
                continue
            key = (_lead_bucket(rec["details"]), _share_bucket(rec["details"]["old_lemma"]))
            cell = buckets[key]
            cell[0] += 1
            j = judged.get((rec["source"], "HS", rec["foil"]))
            if j is not None:
                cell[1] += 1
                cell[2] += j.usable
    print("| sense lead | first-sense share | kept | judged | usable |\n|---|---|---|---|---|")
    for (lead, share), (kept, n, usable) in sorted(buckets.items()):
        rate = f"{100 * usable / n:.0f}%" if n else "-"
        print(f"| {lead} | {share} | {kept} | {n} | {rate} |")


if __name__ == "__main__":
    main()
