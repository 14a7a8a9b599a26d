"""WordNet hypernyms for HS: of a word (its frequent senses) or of one sense, readable ones only (never an abstract
top category, a rare word, a lemma read in another sense, a phrase that is not set), best first.

>>> hypernyms("cat", "NOUN")[0].lemma
'feline'
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from core.foils.rules.lexicon import (
    _QUERY_LOCK,
    HYPERNYM_MIN_ZIPF,
    SENSE_SHARE,
    Candidate,
    _acceptable,
    _key,
    _lemma_in,
    _query,
    _ranked,
    _readable,
    _source_lemmas,
    _up,
    sense_count,
    word_frequency,
    wordnet,
    zipf,
)

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


# Hypernyms the judged rounds (issue 12; sample_data/quality*/judgements.jsonl) found far, technical or no
# less specific in ordinary use, whatever the word below them: "farmers -> creators", "museum -> repository",
# "bread -> solid food", "milk -> dairy product", "economists -> scientists", "valley -> depression",
# "wind -> weather", "house -> home", "visitors -> travelers", "spokesperson -> advocate", "doctor -> caregiver",
# "dog -> domestic animal", "head -> body part" (shook her body part), "stair -> device", "fingers -> extremities",
# "strangers -> intruders" (0 of 5 usable), "coast -> shore" (says the same), "a yellow card -> a yellow paper",
# "ranchers -> farmers", "the angry customer -> consumer", "sheep on four farms -> workplaces" (0 of 2 each);
# eighth session: "in the attic -> in the floor" (0 of 3), "council members -> associates" (1 of 4), "my brother ->
# my member" (0 of 4), "ceramic tiles -> slabs" (0 of 3), "typewriter -> printing machine", "headmaster -> head
# teacher", "the second floor -> surface", "jewellery -> decoration", "archaeologists -> anthropologists",
# "shipment -> product", "wheel -> mechanical device", "flatmate -> friend", "finger -> extremity" (0 of 2 each);
# "intern -> doctor" (1 of 5), "donors -> helpers", "rival -> contestant" (0 of 2 each, on two sets each), "hat ->
# clothing" (0 of 3); ninth session, each on two or more sets: "coach -> trainer" (3 of 9: the same person),
# "pensioners -> beneficiaries" (0 of 4), "buyers -> customers" (1 of 4), "thermostat -> regulator"; tenth
# session, none usable, each on two or more sets: "fridge -> refrigerator" (the same thing), "mist -> fog",
# "apprentice -> novice", "firefighter/warden -> guardian", "accountant -> businessperson", "towel -> piece";
# after35: "campaigners -> politicians" (WordNet knows only the candidate sense; 0 of 3), "towel -> fabric" (a
# piece of cloth is no fabric; 0 of 2); after38: "freezer -> fridge" (a co-hyponym in use), "sentinel -> watchman"
# (the same person; 0 of 2 each, on two sets each); "hospital/clinic -> building" (the institution, not its
# building; 0 of 4, on four sets), "sky -> gas" through the atmosphere (0 of 2; "oxygen -> gas" stays).
# Never offered, and not walked through (their own hypernyms are farther).
FAR_SYNSETS = frozenset(
    {
        "food.n.02", "dairy_product.n.01", "commodity.n.01", "creator.n.02", "depository.n.01", "scientist.n.01",
        "natural_depression.n.01", "structure.n.01", "dwelling.n.01", "corridor.n.01", "visionary.n.02",
        "physicist.n.01", "deliveryman.n.01", "weather.n.01", "covering.n.02", "tract.n.01", "point.n.02",
        "section.n.03", "leader.n.01", "payer.n.01", "patron.n.03", "electronic_equipment.n.01", "flavorer.n.01",
        "hosiery.n.01", "antigen.n.01", "advocate.n.01", "traveler.n.01", "representation.n.02", "conduit.n.01",
        "output.n.02", "facility.n.01", "protective_covering.n.01", "sense_organ.n.01", "thigh.n.01", "critic.n.02",
        "area.n.01", "space.n.03", "health_professional.n.01", "domestic_animal.n.01", "body_part.n.01",
        "external_body_part.n.01", "device.n.01", "extremity.n.05", "intruder.n.01", "shore.n.01", "paper.n.01",
        "farmer.n.01", "consumer.n.01", "workplace.n.01", "floor.n.02", "associate.n.01", "member.n.01", "slab.n.01",
        "printer.n.03", "principal.n.02", "surface.n.01", "decoration.n.01", "anthropologist.n.01",
        "merchandise.n.01", "mechanical_device.n.01", "friend.n.01", "extremity.n.01", "doctor.n.01",
        "benefactor.n.01", "contestant.n.01", "clothing.n.01", "trainer.n.01", "beneficiary.n.01", "customer.n.01",
        "regulator.n.01", "refrigerator.n.01", "fog.n.01", "novice.n.02", "defender.n.01", "businessperson.n.01",
        "piece.n.01", "politician.n.02", "piece_of_cloth.n.01", "electric_refrigerator.n.01", "watchman.n.01",
        "medical_building.n.01", "atmosphere.n.05",
    }
)  # fmt: skip


NOT_CALLED = frozenset(
    {
        ("minister", "reverend"), ("boiler", "container"), ("wallet", "container"),
        ("doorstep", "sill"), ("youth", "juvenile"), ("milk", "beverage"), ("mistress", "woman"), ("wife", "woman"),
        ("horse", "equine"), ("bedroom", "room"), ("vase", "jar"), ("gamekeeper", "custodian"),
        ("plumber", "artisan"), ("landlord", "landowner"), ("street", "road"), ("grandparent", "ancestor"),
        ("kitten", "young"), ("sandwich", "dish"), ("motorway", "highway"), ("receptionist", "secretary"),
        ("cook", "worker"), ("lawn", "field"), ("pond", "lake"), ("curator", "custodian"),
        ("hedge", "fence"), ("hedgerow", "fence"), ("arm", "limb"), ("violin", "string"), ("retailer", "distributor"),
        ("gravel", "rock"), ("coachman", "worker"), ("hunter", "worker"), ("landlady", "landlord"),
        ("baronet", "blue blood"),
    }
)  # fmt: skip
"""(word, hypernym) pairs that people do not say of the thing, though the hypernym serves other words: a minister is
not "the reverend" (the government sense, or the same clergyman), a boiler or a wallet not "the container" (a box
or a jar is), a doorstep not "the sill"; each judged usable 0 times of 2 or more over all rounds ("wife -> woman"
1 of 7: "his woman"). Thirteenth session, after43's notes: a horse is not "the equine" (0 of 3; a cat is "the
feline", 13 of 14), "the spare bedroom" not "the spare room" (1 of 3: the same room), a vase not "a jar" (1 of 3),
a gamekeeper not "the custodian" (0 of 2). Fourteenth session, the held-out rounds since fresh19 (stricter than
the first ones): a plumber is not "the artisan" (0 of 7 there, 6 of 6 before), a tenant's landlord not "the
landowner" (1 of 8 since fresh23), a street not "the road" (0 of 5 since fresh26: "the end of the road" says the
same), living grandparents not "their ancestors" (0 of 2); after fresh32: a kitten is not "the young" (0 of 2), a
sandwich not "a dish" (0 of 2), a motorway not "the highway" (1 of 3: the same road), a receptionist not "the
secretary" (0 of the last 3), a cook not "the worker" (0 of the last 2); after fresh33: a lawn not "the field" (0 of
2); after fresh36: a pond not "the lake" (1 of 4), a curator not "the custodian" (0 of 2), a hedge not "the
fence" (2 of 4; the protocol's sibling-in-use case since fresh36). Fifteenth session: an arm is not "the limb"
(0 of 2: "bit her on the limb", "offered her his limb"), a violin not "the string" (0 of 2), a retailer not "the
distributor" (0 of 2: a wholesaler), gravel not "the rock" (1 of 3), a coachman not "the worker" (1 of 4), a
hunter not "the worker" (1 of 3; in a novel most hunters are horses, which WordNet does not list), a landlady not
"the landlord" (the male counterpart, as the protocol's sibling case); after fresh39: a baronet not "the blue
blood" (1 of 4). Checked on the word's lemma and the
hypernym's."""


NOT_KIND_LINKS = frozenset({("wheeled_vehicle.n.01", "container.n.01")})
"""WordNet links from a synset to a second parent that names no kind the thing is called by: a wheeled vehicle is
filed under container too ("gave her son a new container for his birthday" for a bicycle; bicycle, car and
carriage -> container: 0 of 4 judged usable). Not walked."""


def _parents(synset: Any) -> list[Any]:
    """The synset's (instance) hypernyms, less :data:`NOT_KIND_LINKS`."""
    return [h for h in _up(synset) if (synset.name(), h.name()) not in NOT_KIND_LINKS]


INFORMAL_VARIANT = re.compile(r"\binformal (?:term|terms|words|names?|abbreviation)\b (?:for|of)\b")
"""A WordNet gloss that names a register variant, not a kind ("dad: an informal term for a father", "mom: informal
terms for a mother"): its hypernym is the same thing, so the sense offers no hypernym ("Dad -> Father", "Mom ->
Mother": neither judged usable)."""


def informal_variant(synset: Any) -> bool:
    """The sense is an informal word for its own hypernym (:data:`INFORMAL_VARIANT`).

    >>> wn = wordnet()
    >>> informal_variant(wn.synset("dad.n.01")), informal_variant(wn.synset("father.n.01"))
    (True, False)
    """
    return bool(INFORMAL_VARIANT.search(synset.definition()))


# Abstract synsets still offered as a *direct* hypernym (none since issue 12 named "group" and "unit" abstract).
_ALLOWED_DIRECT: frozenset[str] = frozenset()


HYPERNYM_LEVELS = 2  # readable ancestors offered per sense (the nearest first)


HYPERNYM_MAX_STEPS = 4  # how far up to walk through rare or abstract synsets


MULTIWORD_EXTRA_ZIPF = 1.0  # a multi-word hypernym lemma must be this much more common than a single word


NOUN_MIN_DEPTH = 4
"""A noun hypernym at least this deep in WordNet (``min_depth``; entity is 0): the synsets 3 steps below the top
are categories no reader accepts in place of a word ("bay -> water", "story -> message", "island -> land",
"network -> system", all depth 3 on the PAWS originals)."""


HYPERNYM_SENSE_SHARE = 0.25
"""A hypernym word must carry the hypernym's sense on its own: in WordNet's tagged corpus that sense of the word is
seen at least this share as often as the word's most frequent sense (for a word never seen there: it is one of its
first two senses). A reader takes a word in its usual sense: "museum -> deposit" (a depository, the word's 5th
sense), "side -> part" (region, seen 15 times against 113), "title -> head" (heading, never seen)."""


PHRASE_MIN_LOG10 = -2.5
"""A multi-word hypernym must be a set phrase: each next word at least this likely (log10) after the one before it
in CMU's trigram LM ("ball game" -1.5 and "body part" -2.3 pass, "natural object" -5.1 and "time unit" -5.3 do not); without the
LM (the fluency extra missing) no multi-word hypernym is offered. See docs/foil-rules.md."""


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
        if informal_variant(src.synset()):
            continue
        score = sense_count(src)
        offered = 0
        frontier = [(h, 1) for h in _parents(src.synset())]
        seen: set[str] = set()
        while frontier and offered < HYPERNYM_LEVELS:
            synset, depth = frontier.pop(0)
            name = synset.name()
            if name in seen or depth > (VERB_MAX_STEPS if pos == "v" else HYPERNYM_MAX_STEPS):
                continue
            seen.add(name)
            if name in FAR_SYNSETS:
                continue
            abstract = name in ABSTRACT_SYNSETS and not (depth == 1 and name in _ALLOWED_DIRECT)
            best = None if abstract else _best_lemma(synset, key)
            if best is not None and (key, _readable(best[0]).lower()) in NOT_CALLED:
                break  # what lies above it is farther still
            if best is not None and best[1] and (pos != "v" or _verb_fits(synset, best[0], transitive)):
                found.append((-score, index, depth, Candidate(_readable(best[0]), name, score)))
                offered += 1
            if name in {"entity.n.01", "physical_entity.n.01", "abstraction.n.06"}:
                continue
            frontier.extend((h, depth + 1) for h in _parents(synset))
    return _ranked(found)


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
    """The synset's most common acceptable lemma (single words first, then words attested in this sense) and its
    Zipf frequency, or None when none reaches ``min_zipf`` (a multi-word lemma needs :data:`MULTIWORD_EXTRA_ZIPF`
    more and must be a :func:`set_phrase`), or when the word would be read in another sense (:func:`carries_sense`)."""
    best: tuple[tuple[bool, bool, float], str] | None = None
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
        rank = (single, sense_count(lem) > 0, freq)  # attested in this sense: "clothing", not the verb-ish "wear"
        if best is None or rank > best[0]:
            best = (rank, name)
    return (best[1], best[0][2]) if best else None


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
    if informal_variant(synset):
        return ()
    level = _parents(synset)
    for _depth in (1, 2):
        found: list[tuple[float, Candidate]] = []
        refused = False
        for hyp in level:
            if hyp.name() in ABSTRACT_SYNSETS or hyp.name() in FAR_SYNSETS:
                continue
            if not verb and hyp.min_depth() < NOUN_MIN_DEPTH:
                continue
            best = _common_lemma(hyp, key, min_zipf)
            if best is None or best[0] in own or (verb and not _verb_fits(hyp, best[0], transitive)):
                continue
            if (key, _readable(best[0]).lower()) in NOT_CALLED:
                refused = True  # and not replaced by a farther hypernym: "milk -> beverage", never "-> liquid"
                continue
            if all(c.lemma != _readable(best[0]) for _, c in found):
                found.append((-best[1], Candidate(_readable(best[0]), hyp.name(), score)))
        if found:
            return tuple(c for _, c in sorted(found, key=lambda item: item[0]))
        if refused or (verb and _depth >= VERB_MAX_STEPS):
            break
        level = [h for s in level if s.name() not in FAR_SYNSETS for h in _parents(s)]
    return ()


def clear_cache() -> None:
    """Forget cached hypernym lookups (:func:`core.foils.rules.lexicon.clear_cache` calls this)."""
    _hypernyms.cache_clear()
    _sense_hypernyms.cache_clear()
