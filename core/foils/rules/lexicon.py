"""WordNet access for the AR and HS rules: antonyms and hypernyms, ranked by sense frequency.

WordNet is read through nltk from, in order: the project-local ``<repo>/.nltk_data`` (filled by
``make wordnet``), the folders in ``$NLTK_DATA``, and nltk's usual locations (so an
``nltk.download('wordnet')`` works too). It is loaded once per process, on first use; every
lookup is cached (the rules call these on the hot path).

Ranking: candidates come from the senses of the source word; a candidate's ``score`` is the
tagged-corpus frequency of the source sense it came from (``Lemma.count()``), and ties keep
WordNet's sense order. Multi-word lemmas are returned with spaces (``delivery boy``).

>>> [c.lemma for c in antonyms("happy", "ADJ")]
['unhappy']
>>> hypernyms("cat", "NOUN")[0].lemma
'feline'
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.errors import ModelMissingError

PROJECT_NLTK_DATA = Path(__file__).resolve().parents[1] / ".nltk_data"

WORDNET_FIX = (
    "run 'make wordnet' (Debian: apt-get install -y --no-install-recommends wordnet-base wordnet-sense-index, "
    'then python -m core.foils.rules.wordnet_setup --target .nltk_data), or online: python -c "import nltk; '
    "nltk.download('wordnet')\""
)

# Universal POS (spaCy) and WordNet letters -> WordNet POS letter.
_POS = {
    "ADJ": "a", "NOUN": "n", "PROPN": "n", "VERB": "v", "AUX": "v", "ADV": "r",
    "a": "a", "s": "a", "n": "n", "v": "v", "r": "r",
}  # fmt: skip
UNIVERSAL_POS = {"a": "ADJ", "n": "NOUN", "v": "VERB", "r": "ADV"}

# Hypernyms too abstract to make a readable foil ("The entity chased the mouse."): walked through, never offered.
ABSTRACT_SYNSETS = frozenset(
    {
        "entity.n.01", "physical_entity.n.01", "abstraction.n.06", "object.n.01", "whole.n.02",
        "thing.n.12", "thing.n.08", "matter.n.03", "causal_agent.n.01", "psychological_feature.n.01",
        "attribute.n.02", "relation.n.01", "living_thing.n.01", "organism.n.01", "measure.n.02",
        "communication.n.02", "event.n.01", "act.n.02", "state.n.02", "group.n.01", "artifact.n.01",
        "instrumentality.n.03", "location.n.01", "cognition.n.01", "content.n.05", "part.n.01",
        "unit.n.01", "being.n.01", "ability.n.02", "process.n.06", "quality.n.01", "property.n.02",
        # issue 12: top categories a reader never accepts as a replacement ("cousin -> person", "hurricane ->
        # atmospheric phenomenon", "team -> group", "fire -> happening")
        "person.n.01", "people.n.01", "phenomenon.n.01", "natural_phenomenon.n.01", "physical_phenomenon.n.01",
        "atmospheric_phenomenon.n.01", "unit.n.03", "social_group.n.01", "collection.n.01", "happening.n.01",
        "activity.n.01", "action.n.01", "condition.n.01", "situation.n.01", "quantity.n.01", "kind.n.01",
        "equipment.n.01", "game_equipment.n.01", "physical_object.n.01", "substance.n.01", "body.n.01",
        "social_relation.n.01", "feeling.n.01", "concept.n.01", "idea.n.01",
        # a person by sex alone reads as a slur or a police report ("The little male", "two females")
        "male.n.02", "female.n.02",
    }
)  # fmt: skip
# Abstract synsets still offered as a *direct* hypernym (none since issue 12 named "group" and "unit" abstract).
_ALLOWED_DIRECT: frozenset[str] = frozenset()

HYPERNYM_LEVELS = 2  # readable ancestors offered per sense (the nearest first)
HYPERNYM_MAX_STEPS = 4  # how far up to walk through rare or abstract synsets
SENSE_SHARE = 0.25  # besides the first sense, senses at least this share of the top sense's frequency
HYPERNYM_MIN_ZIPF = 3.0  # default of PipelineSettings.hypernym_min_zipf: a hypernym word this common (wordfreq)
MULTIWORD_EXTRA_ZIPF = 1.0  # a multi-word hypernym lemma must be this much more common than a single word
NOUN_MIN_DEPTH = 4
"""A noun hypernym at least this deep in WordNet (``min_depth``; entity is 0): the synsets 3 steps below the top
are categories no reader accepts in place of a word ("bay -> water", "story -> message", "island -> land",
"network -> system", all depth 3 on the PAWS originals)."""
SENSE_MARGIN = 0.05
"""AR/HS leave a word alone when the vectors choose its sense by less than this over the runner-up: on the
hand-labelled words of tests/data/senses.tsv the choice is right 61% of the time over all words, 71% over the 48 of
62 words it leads by 0.05 or more (``bench/senses.py --margins``). A wrong sense makes a wrong foil; a word left
alone costs a candidate."""
HYPERNYM_SENSE_SHARE = 0.25
"""A hypernym word must carry the hypernym's sense on its own: in WordNet's tagged corpus that sense of the word is
seen at least this share as often as the word's most frequent sense (for a word never seen there: it is one of its
first two senses). A reader takes a word in its usual sense: "museum -> deposit" (a depository, the word's 5th
sense), "side -> part" (region, seen 15 times against 113), "title -> head" (heading, never seen)."""
PHRASE_MIN_LOG10 = -2.5
"""A multi-word hypernym must be a set phrase: each next word at least this likely (log10) after the one before it
in CMU's trigram LM ("ball game" -1.5 and "body part" -2.3 pass, "natural object" -5.1 and "time unit" -5.3 do not); without the
LM (the fluency extra missing) no multi-word hypernym is offered. See docs/foil-rules.md."""


@dataclass(frozen=True)
class Candidate:
    """A replacement word: ``lemma`` (spaces for multi-word), its ``synset`` name, and ``score``
    (the corpus frequency of the source sense it came from; higher is more typical); ``indirect`` marks an
    antonym of the head a satellite adjective is similar to ("wonderful" -> "ordinary"), not of the word."""

    lemma: str
    synset: str
    score: int
    indirect: bool = False


_LOCK = threading.Lock()
_QUERY_LOCK = threading.RLock()
"""nltk's WordNet reader seeks and reads shared file handles: two threads querying at once read each
other's lines (seen in the workbench: a parse worker and a generate worker). Every query holds this."""
_WN: Any = None


def _search_path() -> list[str]:
    """Where to look for nltk data: the project folder, then $NLTK_DATA, then nltk's defaults."""
    import nltk

    wanted = [str(PROJECT_NLTK_DATA)]
    wanted += [p for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    for entry in reversed(wanted):
        if entry in nltk.data.path:
            nltk.data.path.remove(entry)
        nltk.data.path.insert(0, entry)
    return list(nltk.data.path)


def wordnet() -> Any:
    """The loaded nltk WordNet reader; raises :class:`ModelMissingError` when WordNet is absent."""
    global _WN
    if _WN is not None:
        return _WN
    with _LOCK:
        if _WN is None:
            try:
                import nltk  # noqa: F401  (the import error below names the fix)
            except ImportError:
                raise ModelMissingError("nltk is not installed", hint="pip install 'nltk>=3.9,<3.11'") from None
            searched = _search_path()
            from nltk.corpus import wordnet as wn

            try:
                wn.ensure_loaded()
            except (LookupError, OSError) as exc:
                first = str(exc).strip().splitlines()
                detail = next((line.strip() for line in first if line.strip() and "*" not in line), "")
                raise ModelMissingError(
                    f"WordNet is not installed (searched {', '.join(searched[:3])}, ...){': ' + detail if detail else ''}",
                    hint=WORDNET_FIX,
                ) from None
            from core.collector import freeze_loaded

            freeze_loaded("WordNet")
            _WN = wn
    return _WN


def wordnet_available() -> bool:
    """True when WordNet can be loaded (loads it)."""
    try:
        wordnet()
    except ModelMissingError:
        return False
    return True


def lexicon_info() -> dict[str, str]:
    """Provenance: the WordNet version and where it was read from."""
    wn = wordnet()
    root = getattr(wn, "root", None) or getattr(wn, "_root", "")
    return {"wordnet_version": str(wn.get_version()), "wordnet_path": str(root)}


def wn_pos(pos: str) -> str | None:
    """WordNet's letter for a universal or WordNet POS (``ADJ`` -> ``a``); None when WordNet has no such POS.

    >>> wn_pos("ADJ"), wn_pos("AUX"), wn_pos("DET")
    ('a', 'v', None)
    """
    return _POS.get(pos) or _POS.get(pos.upper())


def _by_name(items: Any) -> list[Any]:
    """nltk returns some relations in set order (varies with PYTHONHASHSEED): sort them for determinism."""
    return sorted(items, key=lambda x: (x.synset().name(), x.name()) if hasattr(x, "synset") else x.name())


def _up(synset: Any) -> list[Any]:
    return _by_name(synset.hypernyms() + synset.instance_hypernyms())


def _key(lemma: str) -> str:
    return "_".join(lemma.strip().lower().split())


def _readable(name: str) -> str:
    return name.replace("_", " ")


def _acceptable(name: str, source: str) -> bool:
    """A usable replacement: not the source word, lowercase (no proper names), letters, spaces, hyphens."""
    if name.lower() == source or name != name.lower():
        return False
    return all(ch.isalpha() or ch in "_-" for ch in name)


def _source_lemmas(wn: Any, lemma: str, pos: str) -> list[Any]:
    """The WordNet Lemma objects of ``lemma`` for ``pos``, in sense order (also tries ``-`` -> ``_``)."""
    key = _key(lemma)
    found = wn.lemmas(key, pos)
    if not found and "-" in key:
        found = wn.lemmas(key.replace("-", "_"), pos)
    return found


_COUNTS: dict[str, int] | None = None  # sense key -> tagged-corpus count
_WORD_COUNTS: dict[str, int] | None = None  # lemma name -> counts summed over its senses (None: no index.sense)


def _sense_keys(reader: Any) -> set[str] | None:
    """Every sense key of this WordNet (from ``index.sense``), or None when the file is missing."""
    keys: set[str] = set()
    try:
        with reader.open("index.sense") as fh:
            for raw in fh:
                line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
                keys.add(line.partition(" ")[0])
    except OSError:
        return None
    return keys


def _load_counts() -> dict[str, int]:
    """Read ``cntlist.rev`` once into :data:`_COUNTS` (and :data:`_WORD_COUNTS`)."""
    global _COUNTS, _WORD_COUNTS
    if _COUNTS is None:
        counts: dict[str, int] = {}
        words: dict[str, int] = {}  # filled only from keys index.sense knows
        reader = wordnet()  # takes _LOCK itself: load it before taking the lock here
        with _LOCK:
            if _COUNTS is not None:
                return _COUNTS
            try:
                with reader.open("cntlist.rev") as fh:
                    for raw in fh:
                        line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
                        key, _, rest = line.partition(" ")
                        if rest:
                            counts[key] = int(rest.rsplit(" ", 1)[-1])
            except OSError:  # no count file: every sense counts 0, as nltk would say
                pass
            senses = _sense_keys(reader)
            if senses is not None:
                # Only keys of existing senses, as nltk writes them: cntlist.rev also holds keys with
                # adjective markers ("some(a)") and stale keys, which Lemma.count() never matches.
                for key, n in counts.items():
                    if key in senses:
                        word = key.partition("%")[0]
                        words[word] = words.get(word, 0) + n
            _WORD_COUNTS = words if senses is not None else None
            _COUNTS = counts
    return _COUNTS


def sense_count(lemma: Any) -> int:
    """Tagged-corpus count of one WordNet sense (what ``Lemma.count()`` returns), from a dict.

    nltk answers ``Lemma.count()`` with a binary search over ``cntlist.rev`` on every call; the
    rules ask for thousands of counts per batch, so the file is read into a dict once.

    >>> sense_count(wordnet().lemma("dog.n.01.dog")) > 0
    True
    """
    counts = _COUNTS if _COUNTS is not None else _load_counts()
    if getattr(lemma, "_lang", "eng") != "eng":
        return 0
    return counts.get(lemma.key(), 0)


def _query(lemma: str, pos: str, lookup: Callable[[str, str], tuple[Candidate, ...]]) -> list[Candidate]:
    """Run a cached WordNet ``lookup(key, wordnet_pos)`` under the query lock; [] for no POS or no word."""
    p = wn_pos(pos)
    if p is None or not lemma.strip():
        return []
    wordnet()  # load outside the query lock
    with _QUERY_LOCK:
        return list(lookup(_key(lemma), p))


def word_frequency(word: str) -> int:
    """Tagged-corpus frequency of a word form over all its senses and POS (0 = rare in WordNet's corpus).

    The sum of :func:`sense_count` over ``wordnet().lemmas(word)``, read from a per-word table built
    with the sense counts: asking nltk would load every synset of the word (most of the cost of a
    first lookup).

    >>> word_frequency("feline") > 0, word_frequency("diapsid")
    (True, 0)
    """
    if _COUNTS is None:
        _load_counts()
    if _WORD_COUNTS is None:  # no index.sense to build the table from: ask nltk
        return _word_frequency_from_synsets(_key(word))
    return _WORD_COUNTS.get(_key(word), 0)


@lru_cache(maxsize=65536)
def _word_frequency_from_synsets(key: str) -> int:
    wn = wordnet()
    with _QUERY_LOCK:
        return sum(sense_count(lem) for lem in wn.lemmas(key))


# --------------------------------------------------------------------------- antonyms


def antonyms(lemma: str, pos: str) -> list[Candidate]:
    """Antonyms of ``lemma`` as ``pos`` (universal tag or WordNet letter), best first.

    Tiers, each used only when the ones before found nothing: (1) direct antonyms of the word's
    senses (``good -> bad, evil``); (2) for adjectives, antonyms of the head adjective a
    satellite sense is similar to (``huge -> small``); (3) derivational antonyms: through a
    derivationally related form or pertainym, its antonym, and back to the original POS
    (``quickly`` has a direct one, but e.g. an adverb reaches ``slowly`` through ``quick -> slow``).

    >>> [c.lemma for c in antonyms("old", "ADJ")]
    ['young', 'new']
    >>> [c.lemma for c in antonyms("win", "VERB")][:1]
    ['lose']
    >>> antonyms("chase", "VERB")
    []
    """
    return _query(lemma, pos, _antonyms)


def _frequent_senses(sources: list[Any]) -> list[tuple[int, Any]]:
    """(sense index, Lemma) of the senses worth using: the most frequent one and those with at least
    :data:`SENSE_SHARE` of its corpus count (all senses when the corpus has none of them)."""
    top = max((sense_count(s) for s in sources), default=0)
    if top == 0:
        return list(enumerate(sources))
    return [(i, s) for i, s in enumerate(sources) if sense_count(s) > 0 and sense_count(s) >= SENSE_SHARE * top]


# Head adjectives whose cluster antonym is no antonym of the satellite ("red" is not the opposite of "achromatic").
_NO_CLUSTER_ANTONYM = frozenset({"chromatic.a.03", "colored.a.01"})


@lru_cache(maxsize=65536)
def _antonyms(key: str, pos: str) -> tuple[Candidate, ...]:
    wn = wordnet()
    sources = _source_lemmas(wn, key, pos)
    senses = _frequent_senses(sources)
    found: list[tuple[int, int, int, Candidate]] = []  # (tier, -score, sense index, candidate)

    def add(tier: int, index: int, score: int, target: Any) -> None:
        name = target.name()
        if _acceptable(name, key) and word_frequency(name) > 0:  # a rare antonym (bloodless) reads oddly
            found.append((tier, -score, index, Candidate(_readable(name), target.synset().name(), score)))

    for i, src in senses:
        for ant in _by_name(src.antonyms()):
            add(0, i, sense_count(src), ant)
    if not found and pos == "a":
        for i, src in senses:
            if src.synset().pos() != "s":
                continue
            for head in _by_name(src.synset().similar_tos()):
                if head.name() in _NO_CLUSTER_ANTONYM:
                    continue
                for head_lemma in head.lemmas():
                    for ant in _by_name(head_lemma.antonyms()):
                        add(1, i, sense_count(src), ant)
    if not found:
        for i, src in senses:
            for ant in _derivational_antonyms(wn, src, pos, key):
                add(2, i, sense_count(src), ant)
    return _ranked(found)


def _derivational_antonyms(wn: Any, src: Any, pos: str, key: str) -> list[Any]:
    """Antonyms reached through a related word of another POS and back (``winner`` <- ``win``/``lose`` -> ``loser``).

    Back-derivation keeps only words of the original POS that end like the source word (its
    last two letters), so ``quickly`` maps to ``slowly`` and not to ``slowness``.
    """
    related = _by_name(src.derivationally_related_forms()) + _by_name(src.pertainyms())
    out = []
    for rel in related:
        for ant in _by_name(rel.antonyms()):
            back = _by_name(ant.derivationally_related_forms())
            if pos == "r":  # adverbs point at adjectives through pertainyms, not the reverse
                back += [lem for lem in wn.lemmas(ant.name() + "ly", "r") if ant in lem.pertainyms()]
            out.extend(
                b for b in back if b.synset().pos() in (pos, "s" if pos == "a" else pos) and b.name().endswith(key[-2:])
            )
    return out


# --------------------------------------------------------------------------- hypernyms


# Verbs too light or too vague to stand in for another verb ("The cat went the mouse", "made a visit" -> "acted").
LIGHT_VERBS = frozenset(
    {
        "be", "have", "do", "make", "get", "go", "change", "act", "cause", "interact", "travel", "move", "use",
        "take", "give", "come", "put", "set", "let", "become", "hold", "keep", "happen", "occur", "exist",
    }
)  # fmt: skip
VERB_MIN_FREQUENCY = 10  # a verb hypernym must be this frequent in the tagged corpus (readable, common)
VERB_MAX_STEPS = 2  # verb hierarchies are shallow and get vague fast
# WordNet verb frames with a direct object ("Somebody ----s something", ...) and without one.
TRANSITIVE_FRAMES = frozenset({8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 30, 31})
INTRANSITIVE_FRAMES = frozenset({1, 2, 3, 4, 7, 12, 13, 22, 23, 27})


def _verb_fits(synset: Any, name: str, transitive: bool | None) -> bool:
    """A verb hypernym can replace the source verb: common, not a light verb, and (when the sentence
    says) taking an object exactly when the source verb does (WordNet's verb frames)."""
    if name in LIGHT_VERBS or word_frequency(name) < VERB_MIN_FREQUENCY:
        return False
    if transitive is None:
        return True
    frames = {f for lem in synset.lemmas() if lem.name() == name for f in lem.frame_ids()}
    return bool(frames & (TRANSITIVE_FRAMES if transitive else INTRANSITIVE_FRAMES))


def hypernyms(lemma: str, pos: str, transitive: bool | None = None) -> list[Candidate]:
    """Readable hypernyms of ``lemma``'s most frequent senses, best first.

    Senses: the first sense, plus senses whose frequency is at least a quarter of the top
    sense's. For each sense the walk goes up through (instance) hypernyms, nearest first, skipping
    over-abstract synsets (entity, object, whole, abstraction, ...) and *rare* synsets, whose best
    lemma never occurs in WordNet's tagged corpus (``word_frequency == 0``; a multi-word lemma is
    readable when each of its words occurs: ``snake -> diapsid`` is walked through to ``reptile``);
    it offers up to two readable ancestors per sense within four steps. A synset's lemma is the one
    most frequent in that sense, then the most frequent word form, then single words first.

    >>> [c.lemma for c in hypernyms("snake", "NOUN")][:1]
    ['reptile']
    >>> [c.lemma for c in hypernyms("team", "NOUN")][:1]
    ['organization']
    >>> hypernyms("happy", "ADJ")
    []
    """
    return _query(lemma, pos, lambda key, p: _hypernyms(key, p, transitive if p == "v" else None))


def _best_lemma(synset: Any, source: str) -> tuple[str, bool] | None:
    """The synset's most readable lemma and whether it is readable at all, or None when none is acceptable.

    Lemmas rank by their frequency in this sense, then by word-form frequency, then single words
    first. Readable: the word form occurs in the tagged corpus, or (multi-word) every word does.
    """
    best = None
    for lem in synset.lemmas():
        name = lem.name()
        if not _acceptable(name, source):
            continue
        rank = (sense_count(lem), word_frequency(name), "_" not in name)
        if best is None or rank > best[0]:
            best = (rank, name)
    if best is None:
        return None
    name = best[1]
    readable = best[0][1] > 0 or ("_" in name and all(word_frequency(w) > 0 for w in name.split("_")))
    return name, readable


@lru_cache(maxsize=65536)
def _hypernyms(key: str, pos: str, transitive: bool | None = None) -> tuple[Candidate, ...]:
    wn = wordnet()
    sources = _source_lemmas(wn, key, pos)
    if not sources:
        return ()
    ranked_senses = sorted(enumerate(sources), key=lambda item: (-sense_count(item[1]), item[0]))
    top_count = sense_count(ranked_senses[0][1])
    senses = [ranked_senses[0]] + [
        (i, s) for i, s in ranked_senses[1:] if sense_count(s) > 0 and sense_count(s) >= SENSE_SHARE * top_count
    ]
    found: list[tuple[int, int, int, Candidate]] = []  # (-score, sense index, depth, candidate)
    for index, src in senses:
        score = sense_count(src)
        offered = 0
        frontier = [(h, 1) for h in _up(src.synset())]
        seen: set[str] = set()
        while frontier and offered < HYPERNYM_LEVELS:
            synset, depth = frontier.pop(0)
            name = synset.name()
            if name in seen or depth > (VERB_MAX_STEPS if pos == "v" else HYPERNYM_MAX_STEPS):
                continue
            seen.add(name)
            abstract = name in ABSTRACT_SYNSETS and not (depth == 1 and name in _ALLOWED_DIRECT)
            best = None if abstract else _best_lemma(synset, key)
            if best is not None and best[1] and (pos != "v" or _verb_fits(synset, best[0], transitive)):
                found.append((-score, index, depth, Candidate(_readable(best[0]), name, score)))
                offered += 1
            if name in {"entity.n.01", "physical_entity.n.01", "abstraction.n.06"}:
                continue
            frontier.extend((h, depth + 1) for h in _up(synset))
    return _ranked(found)


def _ranked(found: list[tuple[Any, Any, Any, Candidate]]) -> tuple[Candidate, ...]:
    """The candidates in order of their three sort keys, each lemma once (its best place).

    >>> a, b = Candidate("cold", "cold.a.01", 1), Candidate("cool", "cool.a.01", 1)
    >>> [c.lemma for c in _ranked([(1, 0, 0, a), (0, 0, 0, b), (2, 0, 0, a)])]
    ['cool', 'cold']
    """
    found.sort(key=lambda item: item[:3])
    seen: set[str] = set()
    ranked = []
    for *_, cand in found:
        if cand.lemma not in seen:
            seen.add(cand.lemma)
            ranked.append(cand)
    return tuple(ranked)


# --------------------------------------------------------------------------- one chosen sense (the rules)


@dataclass(frozen=True)
class LexicalOptions:
    """How the AR/HS rules pick replacements: ``sense_choice`` (``vectors`` | ``prior``, see
    :mod:`core.foils.rules.senses`), ``min_zipf``, the wordfreq Zipf frequency a hypernym word needs, and
    ``sense_margin``, how far the chosen sense must lead the runner-up (:data:`SENSE_MARGIN`)."""

    sense_choice: str = "vectors"
    min_zipf: float = HYPERNYM_MIN_ZIPF
    sense_margin: float = SENSE_MARGIN

    @classmethod
    def from_settings(cls, settings: Any) -> LexicalOptions:
        """From a :class:`~core.config.PipelineSettings` (fields ``sense_choice``, ``hypernym_min_zipf``,
        ``sense_margin``)."""
        return cls(
            sense_choice=getattr(settings, "sense_choice", cls.sense_choice),
            min_zipf=float(getattr(settings, "hypernym_min_zipf", cls.min_zipf)),
            sense_margin=float(getattr(settings, "sense_margin", cls.sense_margin)),
        )


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """wordfreq's Zipf frequency of an English word or phrase (``_`` or spaces; 0 = unknown, 7 = "the").

    >>> zipf("reptile") > 3 > zipf("diapsid")
    True
    """
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        raise ModelMissingError("wordfreq is not installed", hint="pip install wordfreq==3.1.1") from None
    return float(zipf_frequency(_readable(word), "en"))


def _lemma_in(synset: Any, key: str) -> Any | None:
    """The Lemma of ``key`` in ``synset`` (case-insensitive; ``-`` and ``_`` alike), or None."""
    for lem in synset.lemmas():
        name = lem.name().lower()
        if name == key or name.replace("_", "-") == key or name == key.replace("-", "_"):
            return lem
    return None


def is_synonym(old: str, new: str, synset_name: str | None, pos: str | None = None) -> str | None:
    """The synset in which ``new`` means what ``old`` means, or None: ``new`` is a lemma of the chosen
    sense ``synset_name`` or of an adjective it is similar to (``chilly`` -> ``cold``). Without a chosen
    sense, any sense ``old`` (as ``pos``) shares with ``new``.

    >>> is_synonym("car", "automobile", "car.n.01")
    'car.n.01'
    >>> is_synonym("old", "young", "old.a.01") is None
    True
    """
    old_key, new_key = _key(old), _key(new)
    if not old_key or not new_key or old_key == new_key:
        return None
    wn = wordnet()
    with _QUERY_LOCK:
        if synset_name:
            try:
                chosen = [wn.synset(synset_name)]
            except (ValueError, LookupError):  # nltk raises WordNetError (a ValueError subclass)
                return None
        else:
            p = wn_pos(pos) if pos else None
            chosen = [lem.synset() for lem in _source_lemmas(wn, old_key, p)] if p else wn.synsets(old_key)
        for synset in chosen:
            for near in [synset, *_by_name(synset.similar_tos())]:
                if _lemma_in(near, new_key) is not None:
                    return near.name()
    return None


def sense_antonyms(synset_name: str, lemma: str) -> list[Candidate]:
    """Antonyms of ``lemma`` in one sense, best first: the word's own antonyms in it, then those of the
    sense's other lemmas (``hard`` in difficult.a.01 -> ``easy``), then (satellite adjectives) those of
    the head it is similar to, then derivational antonyms of the word in that sense.

    >>> [c.lemma for c in sense_antonyms("old.a.02", "old")]
    ['new']
    >>> [c.lemma for c in sense_antonyms("difficult.a.01", "hard")]
    ['easy']
    """
    wordnet()
    with _QUERY_LOCK:
        return list(_sense_antonyms(synset_name, _key(lemma)))


def has_antonyms(lemma: str, pos: str) -> bool:
    """Whether any sense of ``lemma`` (as ``pos``) has an antonym (:func:`sense_antonyms`): AR asks this
    before choosing the word's sense, which most nouns would not repay.

    >>> has_antonyms("old", "ADJ"), has_antonyms("castle", "NOUN")
    (True, False)
    """
    p = wn_pos(pos)
    if p is None or not lemma.strip():
        return False
    wordnet()
    with _QUERY_LOCK:
        return _has_antonyms(_key(lemma), p)


@lru_cache(maxsize=65536)
def _has_antonyms(key: str, pos: str) -> bool:
    return any(_sense_antonyms(lem.synset().name(), key) for lem in _source_lemmas(wordnet(), key, pos))


@lru_cache(maxsize=65536)
def _sense_antonyms(synset_name: str, key: str) -> tuple[Candidate, ...]:
    wn = wordnet()
    synset = wn.synset(synset_name)
    src = _lemma_in(synset, key)
    score = sense_count(src) if src is not None else 0
    own = set(synset.lemma_names())
    tiers: list[list[Any]] = [[], [], [], []]
    if src is not None:
        tiers[0] = _by_name(src.antonyms())
    tiers[1] = [ant for lem in synset.lemmas() if lem is not src for ant in _by_name(lem.antonyms())]
    if synset.pos() == "s":
        tiers[2] = [
            ant
            for head in _by_name(synset.similar_tos())
            if head.name() not in _NO_CLUSTER_ANTONYM
            for head_lemma in head.lemmas()
            for ant in _by_name(head_lemma.antonyms())
        ]
    if src is not None:
        tiers[3] = _derivational_antonyms(wn, src, synset.pos() if synset.pos() != "s" else "a", key)
    for tier in tiers:
        ranked: list[Candidate] = []
        for ant in tier:
            name = ant.name()
            if not _acceptable(name, key) or name in own or word_frequency(name) == 0:
                continue  # a rare antonym (bloodless) reads oddly; a lemma of the sense is a synonym
            if all(c.lemma != _readable(name) for c in ranked):
                ranked.append(Candidate(_readable(name), ant.synset().name(), score, indirect=tier is tiers[2]))
        if ranked:
            return tuple(ranked)  # the first tier with an antonym decides
    return ()


def lexicalised_pair(text_a: str, lemma_a: str, pos_a: str, text_b: str, lemma_b: str, pos_b: str) -> bool:
    """Two neighbouring words form a WordNet multi-word lemma ("drawing room", "fall asleep", "great deal").
    With an adjective first, only when that lemma names another kind of thing than its noun does (WordNet
    lexicographer file: "hot dog" is food, a dog an animal; "old man" stays a man).

    >>> lexicalised_pair("drawing", "drawing", "NOUN", "room", "room", "NOUN")
    True
    >>> lexicalised_pair("great", "great", "ADJ", "deal", "deal", "NOUN"), lexicalised_pair("old", "old", "ADJ", "man", "man", "NOUN")
    (True, False)
    """
    if pos_a not in ("NOUN", "VERB", "ADJ", "PROPN") or pos_b not in ("NOUN", "ADV", "ADJ", "ADP", "PART"):
        return False
    return _lexicalised(lemma_a.lower(), text_a.lower(), pos_a, lemma_b.lower(), text_b.lower(), pos_b)


@lru_cache(maxsize=65536)
def _lexicalised(lemma_a: str, text_a: str, pos_a: str, lemma_b: str, text_b: str, pos_b: str) -> bool:
    wn = wordnet()
    with _QUERY_LOCK:
        wpos = ("v", "n") if pos_a == "VERB" else ("n",)  # "fell asleep"; "circulating library"
        for first in dict.fromkeys((lemma_a, text_a)):
            for second in dict.fromkeys((lemma_b, text_b)):
                found = [lem for p in wpos for lem in wn.lemmas(f"{first}_{second}", p)]
                if not found:
                    continue
                if pos_a != "ADJ":
                    return True
                kinds = {lem.synset().lexname() for lem in wn.lemmas(lemma_b, "n")[:1]}
                if found[0].synset().lexname() not in kinds:
                    return True
    return False


def carries_sense(lemma: Any) -> bool:
    """The Lemma's word, read alone, most likely means this sense (:data:`HYPERNYM_SENSE_SHARE`).

    >>> wn = wordnet()
    >>> carries_sense(wn.lemma("depository.n.01.deposit")), carries_sense(wn.lemma("organ.n.01.organ"))
    (False, True)
    """
    synset = lemma.synset()
    pos = "a" if synset.pos() == "s" else synset.pos()
    senses = _source_lemmas(wordnet(), lemma.name(), pos)
    names = [s.synset().name() for s in senses]
    if synset.name() not in names:
        return False
    counts = [sense_count(s) for s in senses]
    top = max(counts)
    if top == 0:
        return names.index(synset.name()) < 2
    return counts[names.index(synset.name())] >= HYPERNYM_SENSE_SHARE * top


def set_phrase(name: str) -> bool:
    """A multi-word lemma (``_`` or ``-`` between words) that the trigram LM knows as a phrase
    (:data:`PHRASE_MIN_LOG10`); a single word is always True.

    >>> set_phrase("vehicle"), set_phrase("ball_game"), set_phrase("natural_object")
    (True, True, False)
    """
    parts = [w for w in re.split(r"[_-]", name.lower()) if w]
    if len(parts) < 2:
        return True
    if len(parts) > 2:
        return False  # "black and white", "man of letters": no parser reads them back as one concept either
    from core.foils.fluency import phrase_log10_prob

    prob = phrase_log10_prob(parts)
    return prob is not None and prob >= PHRASE_MIN_LOG10


_CONCRETE_LEXNAMES = frozenset(
    {"noun.artifact", "noun.object", "noun.location", "noun.food", "noun.substance", "noun.plant", "noun.animal",
     "noun.body", "noun.person", "noun.group"}
)  # fmt: skip


def gerund_concept(synset: Any) -> bool:
    """The synset is named by a gerund and is no concrete thing: an activity or a state ("getting", "writing",
    "ordering", "meaning"), which a reader does not take as a kind of the noun it replaces ("the acquisition" ->
    "the getting"); "building" and "clothing" are things, and stay.

    >>> wn = wordnet()
    >>> gerund_concept(wn.synset("acquiring.n.01")), gerund_concept(wn.synset("building.n.01"))
    (True, False)
    """
    head = synset.lemmas()[0].name().lower()
    if synset.pos() != "n" or not head.endswith("ing") or synset.lexname() in _CONCRETE_LEXNAMES:
        return False
    stem = head[:-3]
    wn = wordnet()
    return any(wn.synsets(verb, "v") for verb in {stem, stem + "e", stem[:-1]} if verb)


def _common_lemma(synset: Any, key: str, min_zipf: float) -> tuple[str, float] | None:
    """The synset's most common acceptable lemma (single words first) and its Zipf frequency, or None
    when none reaches ``min_zipf`` (a multi-word lemma needs :data:`MULTIWORD_EXTRA_ZIPF` more and must be a
    :func:`set_phrase`), or when the word would be read in another sense (:func:`carries_sense`)."""
    best: tuple[tuple[bool, float], str] | None = None
    if gerund_concept(synset) and not key.endswith("ing"):
        return None
    for lem in synset.lemmas():
        name = lem.name()
        if not _acceptable(name, key):
            continue
        single = "_" not in name and "-" not in name
        freq = zipf(name)
        if freq < min_zipf + (0.0 if single else MULTIWORD_EXTRA_ZIPF):
            continue
        if not carries_sense(lem) or not set_phrase(name):
            continue
        if best is None or (single, freq) > best[0]:
            best = ((single, freq), name)
    return (best[1], best[0][1]) if best else None


def sense_hypernyms(
    synset_name: str, lemma: str, transitive: bool | None = None, min_zipf: float = HYPERNYM_MIN_ZIPF
) -> list[Candidate]:
    """Hypernyms of one sense, most common word first: its direct hypernyms, or (only when none of
    them is usable) their hypernyms; never an abstract top category (:data:`ABSTRACT_SYNSETS`), a
    word rarer than ``min_zipf``, or a lemma of the sense itself. Verbs also need :func:`_verb_fits`.

    >>> [c.lemma for c in sense_hypernyms("hurricane.n.01", "hurricane")]
    ['cyclone']
    >>> [c.lemma for c in sense_hypernyms("cousin.n.01", "cousin")]
    ['relative']
    """
    wordnet()
    with _QUERY_LOCK:
        return list(_sense_hypernyms(synset_name, _key(lemma), transitive, float(min_zipf)))


@lru_cache(maxsize=65536)
def _sense_hypernyms(synset_name: str, key: str, transitive: bool | None, min_zipf: float) -> tuple[Candidate, ...]:
    wn = wordnet()
    synset = wn.synset(synset_name)
    src = _lemma_in(synset, key)
    score = sense_count(src) if src is not None else 0
    own = set(synset.lemma_names())
    verb = synset.pos() == "v"
    level = _up(synset)
    for _depth in (1, 2):
        found: list[tuple[float, Candidate]] = []
        for hyp in level:
            if hyp.name() in ABSTRACT_SYNSETS or (not verb and hyp.min_depth() < NOUN_MIN_DEPTH):
                continue
            best = _common_lemma(hyp, key, min_zipf)
            if best is None or best[0] in own or (verb and not _verb_fits(hyp, best[0], transitive)):
                continue
            if all(c.lemma != _readable(best[0]) for _, c in found):
                found.append((-best[1], Candidate(_readable(best[0]), hyp.name(), score)))
        if found:
            return tuple(c for _, c in sorted(found, key=lambda item: item[0]))
        if verb and _depth >= VERB_MAX_STEPS:
            break
        level = [h for s in level for h in _up(s)]
    return ()


def clear_cache() -> None:
    """Forget cached lookups (tests; after changing ``nltk.data.path``)."""
    _antonyms.cache_clear()
    _hypernyms.cache_clear()
    _sense_antonyms.cache_clear()
    _has_antonyms.cache_clear()
    _sense_hypernyms.cache_clear()
    _word_frequency_from_synsets.cache_clear()
    _lexicalised.cache_clear()
