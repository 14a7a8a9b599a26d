"""WordNet access for the AR and HS rules: the reader, sense counts, word frequencies, synonyms and set phrases in
context; the searches themselves are :mod:`core.foils.rules.antonyms` and :mod:`core.foils.rules.hypernyms`.

WordNet is read through nltk from, in order: the project-local ``<repo>/.nltk_data`` (filled by
``make wordnet``), the folders in ``$NLTK_DATA``, and nltk's usual locations (so an
``nltk.download('wordnet')`` works too). It is loaded once per process, on first use; every
lookup is cached (the rules call these on the hot path).

Ranking: candidates come from the senses of the source word; a candidate's ``score`` is the
tagged-corpus frequency of the source sense it came from (``Lemma.count()``), and ties keep
WordNet's sense order. Multi-word lemmas are returned with spaces (``delivery boy``).

>>> wn_pos("PROPN"), UNIVERSAL_POS["a"]
('n', 'ADJ')
"""

from __future__ import annotations

import os
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


SENSE_SHARE = 0.25  # besides the first sense, senses at least this share of the top sense's frequency


HYPERNYM_MIN_ZIPF = 3.0  # default of PipelineSettings.hypernym_min_zipf: a hypernym word this common (wordfreq)


SENSE_MARGIN = 0.05
"""AR/HS leave a word alone when the vectors choose its sense by less than this over the runner-up: on the
hand-labelled words of tests/data/senses.tsv the choice is right 61% of the time over all words, 71% over the 48 of
62 words it leads by 0.05 or more (``bench/senses.py --margins``). A wrong sense makes a wrong foil; a word left
alone costs a candidate."""
HYPERNYM_SENSE_MARGIN = 0.35
"""HS needs a clearer lead: a wrong-sense hypernym is a far word ("minister" -> "reverend", "match" -> "lighter").
On the judged HS foils of the development sets (bench/quality.py, after10), a sense chosen by less than 0.1 gave 39%
usable foils, by 0.1-0.2 60%, by more (or a word with one sense) 78%. Raised from 0.2 in the ninth session: on
after29's 725 judged HS foils of seventeen sets, a lead of 0.2-0.35 gave 66% usable foils (73 of 111), 0.35 or more
92%, a word with one sense 86%."""


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


@dataclass(frozen=True)
class LexicalOptions:
    """How the AR/HS rules pick replacements: ``sense_choice`` (``vectors`` | ``prior``, see
    :mod:`core.foils.rules.senses`), ``min_zipf``, the wordfreq Zipf frequency a hypernym word needs, and
    ``sense_margin`` / ``hypernym_sense_margin``, how far the chosen sense must lead the runner-up for AR / HS
    (:data:`SENSE_MARGIN`, :data:`HYPERNYM_SENSE_MARGIN`)."""

    sense_choice: str = "vectors"
    min_zipf: float = HYPERNYM_MIN_ZIPF
    sense_margin: float = SENSE_MARGIN
    hypernym_sense_margin: float = HYPERNYM_SENSE_MARGIN

    def margin(self, rule: str) -> float:
        """The lead the chosen sense needs for ``rule``: :data:`HYPERNYM_SENSE_MARGIN` for HS (never below
        ``sense_margin``), ``sense_margin`` for AR."""
        return max(self.sense_margin, self.hypernym_sense_margin) if rule == "HS" else self.sense_margin

    @classmethod
    def from_settings(cls, settings: Any) -> LexicalOptions:
        """From a :class:`~core.config.PipelineSettings` (fields ``sense_choice``, ``hypernym_min_zipf``,
        ``sense_margin``)."""
        return cls(
            sense_choice=getattr(settings, "sense_choice", cls.sense_choice),
            min_zipf=float(getattr(settings, "hypernym_min_zipf", cls.min_zipf)),
            sense_margin=float(getattr(settings, "sense_margin", cls.sense_margin)),
            hypernym_sense_margin=float(getattr(settings, "hypernym_sense_margin", cls.hypernym_sense_margin)),
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


def named_phrase(adjective: str, noun: str) -> bool:
    """``adjective noun`` is a WordNet noun lemma that is not a kind of the noun: the phrase names something of
    its own, and the noun alone cannot be replaced ("prime minister" is no minister: "prime reverend").

    >>> named_phrase("prime", "minister"), named_phrase("old", "man"), named_phrase("big", "sister")
    (True, False, False)
    """
    return _named_phrase(adjective.lower(), noun.lower())


@lru_cache(maxsize=65536)
def _named_phrase(adjective: str, noun: str) -> bool:
    wn = wordnet()
    with _QUERY_LOCK:
        found = wn.synsets(f"{adjective}_{noun}", pos="n")
        if not found:
            return False
        above = set(found[0].closure(lambda s: s.hypernyms() + s.instance_hypernyms(), depth=6))
        return not above & set(wn.synsets(noun, pos="n"))


SET_PREDICATES = frozenset({("fall", "ill"), ("fall", "asleep"), ("come", "true"), ("go", "wrong"), ("hold", "still")})
"""Verb + adjective idioms, the adjective anywhere after its verb: "a juror fell ill" -> "fell" (US), "fell well"
(AR)."""


def set_predicate(verb_lemma: str, word: str) -> bool:
    """``word`` is the adjective of a verb + adjective idiom with the verb ``verb_lemma`` (:data:`SET_PREDICATES`).

    >>> set_predicate("fall", "ill"), set_predicate("fall", "silent")
    (True, False)
    """
    return (verb_lemma.lower(), word.lower()) in SET_PREDICATES


def adverb_phrase(first: str, second: str) -> bool:
    """``first second`` is a WordNet adverb lemma led by a function word ("at last", "at least", "of course").

    >>> adverb_phrase("at", "last"), adverb_phrase("at", "the")
    (True, False)
    """
    return _adverb_phrase(first.lower(), second.lower())


@lru_cache(maxsize=65536)
def _adverb_phrase(first: str, second: str) -> bool:
    wn = wordnet()
    with _QUERY_LOCK:
        return bool(wn.synsets(f"{first}_{second}", pos="r"))


def clear_cache() -> None:
    """Forget cached lookups (tests; after changing ``nltk.data.path``)."""
    from core.foils.rules import antonyms, hypernyms

    antonyms.clear_cache()
    hypernyms.clear_cache()
    _adverb_phrase.cache_clear()
    _named_phrase.cache_clear()
    _word_frequency_from_synsets.cache_clear()
    _lexicalised.cache_clear()
