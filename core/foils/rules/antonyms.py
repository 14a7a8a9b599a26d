"""WordNet antonyms for AR: of a word (its frequent senses) or of one sense, best first (``Candidate.score`` is the
tagged-corpus frequency of the source sense; ties keep WordNet's order).

>>> [c.lemma for c in antonyms("happy", "ADJ")]
['unhappy']
>>> [c.lemma for c in sense_antonyms("old.a.02", "old")]
['new']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from core.foils.rules.lexicon import (
    _QUERY_LOCK,
    SENSE_SHARE,
    Candidate,
    _acceptable,
    _by_name,
    _key,
    _lemma_in,
    _query,
    _ranked,
    _readable,
    _source_lemmas,
    sense_count,
    wn_pos,
    word_frequency,
    wordnet,
)


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


def _written(name: str) -> bool:
    """The antonym is a word people use: seen in the tagged corpus ("bloodless" is not, and reads oddly)."""
    return word_frequency(name) > 0


def _coined(name: str, pos: str) -> bool:
    """A noun antonym made with "non-" ("driver" -> "nondriver", "resident" -> "nonresident"): fluency 2 by the
    protocol's decided case (fresh30), 0 of the 5 judged since."""
    return pos == "n" and name.lower().startswith("non")


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
        if _acceptable(name, key) and _written(name) and not _coined(name, pos):
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
            if not _acceptable(name, key) or name in own or not _written(name) or _coined(name, synset.pos()):
                continue  # a lemma of the sense is a synonym
            if all(c.lemma != _readable(name) for c in ranked):
                ranked.append(Candidate(_readable(name), ant.synset().name(), score, indirect=tier is tiers[2]))
        if ranked:
            return tuple(ranked)  # the first tier with an antonym decides
    return ()


def clear_cache() -> None:
    """Forget cached antonym lookups (:func:`core.foils.rules.lexicon.clear_cache` calls this)."""
    _antonyms.cache_clear()
    _sense_antonyms.cache_clear()
    _has_antonyms.cache_clear()
