"""Facts about words that the role-swap, deletion and substitution rules read from WordNet.

- :func:`lexname`: the semantic class of a word's most frequent sense (``noun.person``, ``noun.artifact``);
  RS swaps an agent with a recipient only when both are persons, animals or groups;
  :func:`synset_lexname` is the same for one sense (HS replaces concrete nouns by default);
- :func:`sense_gender`: whether a person sense is male or female (an AR gender antonym must not strand a pronoun);
- :func:`verb_frames`: a verb's sentence frames (an AR verb antonym must take the source's complements).
- :func:`in_three_word_lemma`: three neighbouring words WordNet lists as one lemma ("up-to-date"), left whole.
- :func:`object_optional`: whether a verb's frequent senses are used without an object ("she drinks",
  "he finished"); US drops a verb's object only then (WordNet's verb frames play the part of the
  PropBank frames' optional arguments, which the frames file does not mark).

Both are cached per word and read under :mod:`core.foils.rules.lexicon`'s query lock.

>>> lexname("teacher", "n"), lexname("knife", "n")
('noun.person', 'noun.artifact')
>>> 14 in verb_frames("lend"), 14 in verb_frames("borrow"), sorted(verb_frames("borrow"))
(True, False, [8, 16])
>>> sense_gender("daughter.n.01"), sense_gender("nephew.n.01"), sense_gender("teacher.n.01")
('female', 'male', None)
>>> synset_lexname("dollar.n.01"), synset_lexname("no.such.sense")
('noun.quantity', '')
>>> object_optional("drink"), object_optional("examine")
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from core.foils.rules.lexicon import _QUERY_LOCK, sense_count, wordnet

INTRANSITIVE_FRAMES = frozenset({1, 2})  # "Something ----s", "Somebody ----s"
IMPERSONAL_FRAME = 3  # "It is ----ing": a weather verb ("It rained all weekend")
OBJECT_SENSE_SHARE = 0.2
"""A verb counts as used without an object when senses with an intransitive frame carry at least this share
of its tagged-corpus frequency (rare intransitive senses, "examine" as "take an exam", do not count)."""


def _first_sense(lemma: str, pos: str) -> Any:
    """``lemma``'s most frequent ``pos`` synset, or None for an unknown word."""
    wn = wordnet()
    with _QUERY_LOCK:
        synsets = wn.synsets(lemma.replace(" ", "_").replace("-", "_"), pos=pos)
    return synsets[0] if synsets else None


@lru_cache(maxsize=8192)
def lexname(lemma: str, pos: str = "n") -> str:
    """The lexicographer file of ``lemma``'s most frequent ``pos`` sense ("" for an unknown word)."""
    sense = _first_sense(lemma, pos)
    return sense.lexname() if sense is not None else ""


@lru_cache(maxsize=8192)
def synset_lexname(name: str) -> str:
    """The lexicographer file of the synset ``name`` ("" for an unknown name)."""
    sense = _synset(name)
    return sense.lexname() if sense is not None else ""


def _synset(name: str) -> Any:
    """The synset ``name``, or None for a malformed or unknown name."""
    wn = wordnet()
    with _QUERY_LOCK:
        try:
            return wn.synset(name)
        except Exception:  # nltk raises WordNetError or ValueError for a malformed or unknown name
            return None


_GENDERS = {"male.n.02": "male", "kinsman.n.01": "male", "female.n.02": "female", "kinswoman.n.01": "female"}


@lru_cache(maxsize=8192)
def sense_gender(name: str) -> str | None:
    """``male`` or ``female`` for a person sense below WordNet's male, female, kinsman or kinswoman ("son",
    "niece"), else None."""
    sense = _synset(name)
    if sense is None or sense.lexname() != "noun.person":
        return None
    with _QUERY_LOCK:
        above = {s.name() for s in sense.closure(lambda s: s.hypernyms() + s.instance_hypernyms())}
    return next((gender for synset, gender in _GENDERS.items() if synset in above), None)


@lru_cache(maxsize=8192)
def verb_frames(lemma: str) -> frozenset[int]:
    """WordNet's sentence frames of the verb ``lemma`` over all its senses (``8``: "Somebody ----s something",
    ``14``: "Somebody ----s somebody something", ...; one sense's list is often incomplete); empty when unknown."""
    wn = wordnet()
    key = lemma.lower().replace(" ", "_")
    with _QUERY_LOCK:
        return frozenset(f for lem in wn.lemmas(key, pos="v") for f in lem.frame_ids())


_ANIMATE_KINDS = {"noun.person": "person"}  # animals and groups: see animate_kind


@lru_cache(maxsize=8192)
def animate_kind(name: str) -> str:
    """What the synset ``name`` is as an actor: "person", "group" (of people or animals, :data:`_ACTOR_GROUPS`) or
    "animal" (a creature: WordNet files an animal's parts and its genus under noun.animal too, "foreleg", "hoof",
    "Canis"); "" for anything else.

    >>> animate_kind("dog.n.01"), animate_kind("foreleg.n.01"), animate_kind("police.n.01"), animate_kind("pair.n.01")
    ('animal', '', 'group', '')
    >>> animate_kind("meeting.n.01"), animate_kind("crowd.n.01")
    ('', 'group')
    """
    sense = _synset(name)
    if sense is None:
        return ""
    if sense.lexname() in ("noun.animal", "noun.group"):
        with _QUERY_LOCK:
            above = {sense.name()} | {s.name() for s in sense.closure(lambda s: s.hypernyms())}
        if sense.lexname() == "noun.group":
            return "group" if above & _ACTOR_GROUPS and not above & _OCCASIONS else ""
        return "animal" if "organism.n.01" in above else ""
    return _ANIMATE_KINDS.get(sense.lexname(), "")


_ACTOR_GROUPS = frozenset(
    {"social_group.n.01", "people.n.01", "animal_group.n.01", "gathering.n.01", "citizenry.n.01", "body.n.02"}
)
"""Groups that act, of people or animals ("police", "the jury", "a herd", "the electorate"); WordNet files a set of
things under noun.group too ("We bought three pairs of shoes" -> "Three pairs of shoes bought us")."""


_OCCASIONS = frozenset({"meeting.n.01", "social_gathering.n.01", "fair.n.02", "rally.n.01"})
"""Gatherings that are occasions, not actors: what happens, not who acts ("The weekly meeting moved my manager",
"a meeting cancelled the manager", "the party was invited to us": none of 6 judged swaps of a meeting or a party
was usable). A crowd, an audience or an assembly still acts ("the crowd cheered the players")."""


@lru_cache(maxsize=8192)
def first_animate_kind(noun: str) -> str:
    """:func:`animate_kind` of the noun's most frequent sense ("" for an unknown word)."""
    sense = _first_sense(noun, "n")
    return animate_kind(sense.name()) if sense is not None else ""


@lru_cache(maxsize=8192)
def animate_share(noun: str) -> float | None:
    """The share of the noun's tagged uses (WordNet sense counts) in a person, animal or group sense
    (:func:`animate_kind`); when none of its senses is tagged, the share of its senses ("neighbour", spelt the British
    way: 1 of 2; "van": 2 of 5, the vanguard senses, so "council vans" are not people); None for an unknown word.

    >>> animate_share("neighbor") > 0.5, animate_share("flight") < 0.5, animate_share("neighbour"), animate_share("van")
    (True, True, 0.5, 0.4)
    """
    wn = wordnet()
    key = noun.lower().replace(" ", "_")
    with _QUERY_LOCK:
        counts = [(sense_count(lem), lem.synset().name()) for lem in wn.lemmas(key, pos="n")]
    total = sum(c for c, _ in counts)
    if not total:
        return sum(bool(animate_kind(name)) for _, name in counts) / len(counts) if counts else None
    return sum(c for c, name in counts if animate_kind(name)) / total


CLOSE_KINDS = 0.8
"""Wu-Palmer similarity of two nouns' first senses at or above which they are kinds of one thing ("truck" and
"car" 0.92, "tea" and "coffee" 0.89); two artifacts in general are not ("windmill" and "sack" 0.60, "car" and
"garage" 0.50)."""


@lru_cache(maxsize=8192)
def close_kinds(first: str, second: str) -> bool:
    """The two nouns' first WordNet senses are close kinds (:data:`CLOSE_KINDS`): things that can trade places in
    a role swap ("The truck hit the car" -> "The car hit the truck"), unlike a windmill that grinds a sack of flour.

    >>> close_kinds("truck", "car"), close_kinds("windmill", "sack"), close_kinds("car", "unknownword")
    (True, False, False)
    """
    a, b = _first_sense(first, "n"), _first_sense(second, "n")
    if a is None or b is None:
        return False
    with _QUERY_LOCK:
        return (a.wup_similarity(b) or 0.0) >= CLOSE_KINDS


MAIN_SENSE_SHARE = 0.25  # a main sense is tagged at least this share as often as the verb's top sense


@lru_cache(maxsize=8192)
def main_sense_frames(lemma: str) -> frozenset[int]:
    """WordNet's sentence frames of the verb's main senses (:data:`MAIN_SENSE_SHARE`; every sense when none is
    tagged): what the verb usually allows, not what a rare sense does ("the ground gave", "the thing ate").

    >>> 11 in main_sense_frames("destroy"), 11 in main_sense_frames("eat")
    (True, False)
    """
    wn = wordnet()
    key = lemma.lower().replace(" ", "_")
    with _QUERY_LOCK:
        lemmas = wn.lemmas(key, pos="v")
        top = max((sense_count(lem) for lem in lemmas), default=0)
        floor = max(1.0, MAIN_SENSE_SHARE * top) if top else 0.0
        return frozenset(f for lem in lemmas if sense_count(lem) >= floor for f in lem.frame_ids())


_FRAME_PREPOSITIONS = {15: "to", 16: "from", 17: "with", 18: "of", 19: "on", 31: "with"}
"""WordNet's frames with a phrase after the object: 15 "Somebody ----s something to somebody", 16 "... something from
somebody", 17 "... somebody with something", 18 "... somebody of something", 19 "... something on somebody", 31
"... something with something"."""


def verb_prepositions(lemma: str) -> frozenset[str]:
    """The prepositions whose phrase follows the object in one of the verb's WordNet frames.

    >>> sorted(verb_prepositions("accuse"))
    ['of']
    """
    return frozenset(_FRAME_PREPOSITIONS[f] for f in verb_frames(lemma) if f in _FRAME_PREPOSITIONS)


@lru_cache(maxsize=8192)
def object_optional(verb: str) -> bool:
    """True when ``verb`` is commonly used without an object (WordNet verb frames, weighted by sense frequency)."""
    wn = wordnet()
    with _QUERY_LOCK:
        total = without = 0.0
        for synset in wn.synsets(verb.replace(" ", "_"), pos="v"):
            for lemma in synset.lemmas():
                if lemma.name().lower() != verb.lower().replace(" ", "_"):
                    continue
                weight = sense_count(lemma) + 0.5  # unseen senses still count a little
                total += weight
                if INTRANSITIVE_FRAMES & set(lemma.frame_ids()):
                    without += weight
        return total > 0 and without / total >= OBJECT_SENSE_SHARE


@lru_cache(maxsize=8192)
def sense_words(lemma: str, pos: str, senses: int = 2) -> frozenset[str]:
    """The lemma names of ``lemma``'s ``senses`` most frequent ``pos`` synsets, readable ("elder" -> older, sr.):
    the words a reader takes it to mean.

    >>> "older" in sense_words("elder", "a")
    True
    """
    wn = wordnet()
    with _QUERY_LOCK:
        synsets = wn.synsets(lemma.lower().replace(" ", "_"), pos=pos)[:senses]
        return frozenset(name.replace("_", " ").lower() for s in synsets for name in s.lemma_names())


def in_three_word_lemma(words: Sequence[str], index: int) -> bool:
    """The word at ``index`` belongs to three neighbouring words that WordNet lists as one lemma ("up-to-date",
    "in the end", "by and large"): a substitute or a drop breaks the phrase ("up to date" -> "down to date").

    >>> in_three_word_lemma("check that jabs are up to date".split(), 4)
    True
    """
    return any(start <= index < start + 3 for start in three_word_lemmas(words))


def three_word_lemmas(words: Sequence[str]) -> tuple[int, ...]:
    """Where three neighbouring words that WordNet lists as one lemma start ("jabs are up to date": 2)."""
    return _three_word_starts(tuple(w.lower() for w in words))


@lru_cache(maxsize=4096)
def _three_word_starts(low: tuple[str, ...]) -> tuple[int, ...]:
    windows = [(i, low[i : i + 3]) for i in range(len(low) - 2)]
    return tuple(i for i, words in windows if all(w.isalpha() for w in words) and _three_word_lemma(words))


@lru_cache(maxsize=65536)
def _three_word_lemma(words: tuple[str, ...]) -> bool:
    wn = wordnet()
    with _QUERY_LOCK:
        return any(wn.lemmas(joiner.join(words)) for joiner in ("_", "-"))
