"""AR/HS coverage: how many sentences get at least one antonym (AR) and one hypernym (HS) edit.

Sentences: the sample_data sentences (sentences.txt, the sources of pairs.csv and
workbench_sentences.txt, deduplicated) and the first ``--n`` Emma sentences of the shared data (5-30 words).
Also counts, over all AR/HS edits, those whose replacement is an abstract top category or a synonym
of the word in its chosen sense (both should be 0), and prints a few example edits with ``-v``.

    .venv/bin/python bench/lexical_coverage.py [--n 300] [-v]
"""

from __future__ import annotations

import argparse
import csv

from common import ROOT, SHARED_DATA, book_sentences


def sample_sentences() -> list[str]:
    """The project's own sample sentences (sources only), in file order, deduplicated."""
    folder = ROOT / "sample_data"
    out = [s.strip() for s in (folder / "sentences.txt").read_text(encoding="utf-8").splitlines() if s.strip()]
    with (folder / "pairs.csv").open(encoding="utf-8") as fh:
        out += [row["sentence"] for row in csv.DictReader(fh)]
    for line in (folder / "workbench_sentences.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            out.append(line.split("\t")[0].strip())
    return list(dict.fromkeys(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300, help="Emma sentences")
    ap.add_argument("-v", "--verbose", action="store_true", help="print example edits")
    args = ap.parse_args()

    from core.foils.pipeline import FoilPipeline
    from core.foils.rules.edits import ar_edits, hs_edits
    from core.foils.rules.hypernyms import ABSTRACT_SYNSETS

    try:
        from core.foils.rules.lexicon import is_synonym
    except ImportError:  # before sense choice: no synonym check to count with
        is_synonym = None

    pipe = FoilPipeline.from_settings(None)
    sets = {"sample_data": sample_sentences()}
    if (SHARED_DATA / "books" / "austen_emma.txt").exists():
        sets[f"Emma ({args.n})"] = book_sentences(n=args.n)
    for name, sentences in sets.items():
        parsed = [p for p in pipe.parse(sentences) if p.ok]
        with_ar = with_hs = n_edits = abstract = synonyms = 0
        for p in parsed:
            ar, hs = ar_edits(p), hs_edits(p)
            with_ar += bool(ar)
            with_hs += bool(hs)
            for e in ar + hs:
                n_edits += 1
                abstract += e.rule == "HS" and e.details["synset"] in ABSTRACT_SYNSETS
                if is_synonym is not None:
                    sense = e.details.get("sense")
                    synonyms += (
                        is_synonym(e.details["old_lemma"], e.details["new_lemma"], sense, e.details["pos"]) is not None
                    )
            if args.verbose and p is parsed[0]:
                print("  ", p.text, "|", "; ".join(e.description for e in ar + hs))
        n = len(parsed)
        print(
            f"{name:16s} {n:4d} sentences: AR {with_ar:4d} ({with_ar / n:.0%})  HS {with_hs:4d} ({with_hs / n:.0%})"
            f"  edits {n_edits}, abstract hypernyms {abstract}, synonyms {synonyms if is_synonym else 'n/a'}"
        )


if __name__ == "__main__":
    main()
