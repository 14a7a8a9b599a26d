"""Lay out Debian's WordNet 3.0 files where nltk can read them, with no download.

nltk refuses ``/usr/share/wordnet`` directly (it lacks the ``lexnames`` file), so
the files are copied into ``<target>/corpora/wordnet/`` and ``lexnames`` is
written from the table of lexicographer files (``man 5 lexnames``).

    python -m core.foils.rules.wordnet_setup --target .nltk_data
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

DEBIAN_WORDNET = Path("/usr/share/wordnet")

# (number, name, syntactic category: 1 noun, 2 verb, 3 adjective, 4 adverb); from lexnames(5WN).
LEXNAMES: tuple[str, ...] = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling",
    "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object", "noun.person",
    "noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity", "noun.relation",
    "noun.shape", "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition",
    "verb.communication", "verb.competition", "verb.consumption", "verb.contact", "verb.creation",
    "verb.emotion", "verb.motion", "verb.perception", "verb.possession", "verb.social", "verb.stative",
    "verb.weather", "adj.ppl",
)  # fmt: skip
_SYNCAT = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


def lexnames_text() -> str:
    """The 45-line ``lexnames`` file.

    >>> lexnames_text().splitlines()[5]
    '05\\tnoun.animal\\t1'
    >>> len(lexnames_text().splitlines())
    45
    """
    return "".join(f"{n:02d}\t{name}\t{_SYNCAT[name.split('.')[0]]}\n" for n, name in enumerate(LEXNAMES))


def install(target: Path, source: Path = DEBIAN_WORDNET) -> Path:
    """Copy WordNet into ``target/corpora/wordnet`` and write ``lexnames``; returns that folder."""
    if not (source / "data.noun").exists():
        raise SystemExit(
            f"WordNet is not installed at {source}.\n"
            "  fix: apt-get install -y --no-install-recommends wordnet-base wordnet-sense-index\n"
            "  or, online: python -c \"import nltk; nltk.download('wordnet')\""
        )
    dest = target / "corpora" / "wordnet"
    dest.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        if item.is_file():
            shutil.copyfile(item.resolve(), dest / item.name)  # real files, not links
    (dest / "lexnames").write_text(lexnames_text(), encoding="ascii")
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default=".nltk_data", help="NLTK data folder to fill")
    parser.add_argument("--source", default=str(DEBIAN_WORDNET), help="Debian WordNet folder")
    args = parser.parse_args(argv)
    dest = install(Path(args.target), Path(args.source))
    print(f"WordNet ready in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
