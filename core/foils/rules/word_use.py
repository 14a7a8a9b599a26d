"""How a word is used in its sentence, where WordNet's antonym of the word would misread it: set patterns ("a little
apart", "fell ill", "no good", "the late artist"), an adjective standing as a noun ("Little was said"), a verb in the
middle voice ("A painting sold for £1.2 million"). AR leaves such words alone (:func:`set_use`). And where a
hypernym loses what the noun says in its sentence: a relation ("the vicar's wife", :func:`loses_relation`) or an
office of a named place ("the mayor of Corvale", :func:`office_of_place`).
"""

from __future__ import annotations

from core.foils.rules.index import dependents, governor, little_degree
from core.foils.rules.lexicon import set_predicate
from core.types import ParsedSentence, Token


def set_use(parsed: ParsedSentence, tok: Token) -> bool:
    """A word used as part of a set pattern WordNet does not list: "a little apart" (somewhat; "a much apart"), "slept
    but little" (only a little; "but much"), "no good", "no more", "eggs left" (remaining; "eggs arrived"), "fell
    ill", "hidden in" (a place, not an act), a verb in the middle voice ("sold for £1.2 million")."""
    before = parsed.tokens[tok.i - 1].text.lower() if tok.i > 0 else ""
    verb = governor(parsed, tok)
    if little_degree(parsed, tok) or (verb is not None and set_predicate(verb.lemma, tok.text)):
        return True  # "fell ill" -> "fell well"
    if tok.lemma.lower() == "late" and _the_late(parsed, tok):
        return True  # "the late artist Mabel Quarrie", "her late husband": dead, not tardy ("the early artist")
    if tok.lemma.lower() == "hide" and tok.tag == "VBN":
        return True  # where a thing lies, not an act: "a phone hidden in his shoe" -> "a phone shown in his shoe"
    if tok.lemma.lower() == "little" and _used_as_noun(parsed, tok):
        return True  # "not much": "Little was said" -> "Big was said", "learned ... very little" -> "very big"
    if before == "no" and tok.tag in ("JJ", "JJR", "RBR"):
        return True  # an adjective as a noun after "no" is a set phrase: "come to no good", "would hear no more of it"
    if tok.lemma.lower() in ("sell", "buy") and not dependents(parsed, tok, "dobj", "auxpass", "nsubjpass"):
        return True  # the middle voice: "A painting sold for £1.2 million" -> "A painting bought for"
    if tok.lemma.lower() == "recall" and _takes_a_thing(parsed, tok):
        return True  # a product recall: "recalled 30,000 jars" -> "forgot 30,000 jars" (0 of 5 judged usable)
    if before == "at" and tok.lemma.lower() in ("least", "most") and not _before_a_number(parsed, tok):
        return True  # "but at least it never jams" -> "but at most it never jams": a comment, not a bound
    if tok.lemma.lower() == "night" and _time_adverbial(parsed, tok):
        return True  # "last night" -> "last day" (the final one): 0 of 5 usable; "every night" stays
    if tok.lemma.lower() == "local" and _of_a_person(parsed, tok):
        return True  # from the area, not a scope: "local farmers" -> "national farmers" (1 of 10 usable since fresh19)
    if tok.lemma.lower() == "day" and _counted(parsed, tok):
        return True  # a day counted is 24 hours, not daytime: "for three days" -> "for three nights" (0 of 4)
    return tok.text.lower() == "left" and tok.dep in ("acl", "amod", "advcl") and tok.tag == "VBN"


def _of_a_person(parsed: ParsedSentence, tok: Token) -> bool:
    """The adjective modifies a noun whose first sense is a person ("local anglers"; "local charities" stay)."""
    from core.foils.rules.wordnet_facts import first_animate_kind

    noun = governor(parsed, tok)
    return tok.dep == "amod" and noun is not None and first_animate_kind(noun.lemma.lower()) == "person"


def _before_a_number(parsed: ParsedSentence, tok: Token) -> bool:
    nxt = parsed.tokens[tok.i + 1] if tok.i + 1 < len(parsed.tokens) else None
    return nxt is not None and (nxt.tag == "CD" or nxt.text.lower() in ("a", "an", "one", "half"))


def _counted(parsed: ParsedSentence, tok: Token) -> bool:
    """The noun has a number or an ordinal: "three days", "the third day"."""
    from core.foils.parse.lex import ORDINALS

    return any(k.dep == "nummod" or k.text.lower() in ORDINALS for k in dependents(parsed, tok, "nummod", "amod"))


_THING_LEXNAMES = frozenset({"noun.artifact", "noun.food", "noun.object", "noun.substance"})


def _takes_a_thing(parsed: ParsedSentence, verb: Token) -> bool:
    """The verb's object (or a passive's subject) is a made or physical thing, or things counted ("recalled 12,000
    vans", "the jars were recalled", "thousands of jars"), not something known or said ("could recall a single thing he had said")."""
    from core.foils.rules.wordnet_facts import lexname

    objects = dependents(parsed, verb, "dobj", "nsubjpass")
    counted = [  # "recalled thousands of jars": the things are the quantity's "of" object
        t for o in objects if lexname(o.lemma.lower(), "n") == "noun.quantity"
        for p in dependents(parsed, o, "prep") if p.text.lower() == "of" for t in dependents(parsed, p, "pobj")
    ]  # fmt: skip
    return any(
        o.pos == "NOUN" and (lexname(o.lemma.lower(), "n") in _THING_LEXNAMES or bool(dependents(parsed, o, "nummod")))
        for o in [*objects, *counted]
    )


_DEFINITE = frozenset({"the", "his", "her", "their", "my", "our", "your"})


def _the_late(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is "late" after "the" or a possessive, before a person or a name: the dead one."""
    from core.foils.rules.wordnet_facts import lexname

    if tok.dep != "amod" or tok.i == 0 or parsed.tokens[tok.i - 1].text.lower() not in _DEFINITE:
        return False
    noun = governor(parsed, tok)
    return noun is not None and (noun.pos == "PROPN" or lexname(noun.lemma.lower(), "n") == "noun.person")


def _used_as_noun(parsed: ParsedSentence, tok: Token) -> bool:
    """An adjective standing as a noun: a subject or object, a conjunct of a verb ("learned a great deal and very
    little"), or the head of a compound ("the trade fair": the tagger's "fair" is the noun)."""
    head = governor(parsed, tok)
    nominal = tok.dep in ("nsubj", "nsubjpass", "dobj") or (tok.dep == "conj" and head is not None and head.pos in ("VERB", "AUX"))
    return nominal or bool(dependents(parsed, tok, "compound"))


PLAIN_PERSON_SYNSETS = frozenset({"woman.n.01", "man.n.01", "adult.n.01"})


def loses_relation(parsed: ParsedSentence, at: int | None, synset: str) -> bool:
    """A hypernym that names a plain person (:data:`PLAIN_PERSON_SYNSETS`) for a noun that has a possessor: the
    relation is lost ("the vicar's wife" -> "the vicar's woman", "their mistress" -> "their woman"; 0 of 9 judged
    usable), where "the widow lived alone" -> "the woman lived alone" keeps its sense."""
    if synset not in PLAIN_PERSON_SYNSETS or at is None or not 0 <= at < len(parsed.tokens):
        return False
    return bool(dependents(parsed, parsed.tokens[at], "poss"))


def office_of_place(parsed: ParsedSentence, at: int | None, synset: str) -> bool:
    """A person noun, no kinship word, that names an office of a named place or body ("the mayor of Corvale", "the
    bishop of Lincoln"): its hypernym holds no such office ("the politician of Corvale"; mayor -> politician 2 of 8
    judged usable with "of" and a name, none of the last 6, and 9 of 9 without), where "the daughter of Mr Grey" ->
    "the child of Mr Grey" keeps its sense, and a place noun is no office ("the district of Marrowgate")."""
    from core.foils.rules.lexicon import wordnet

    if at is None or not 0 <= at < len(parsed.tokens):
        return False
    of = [p for p in dependents(parsed, parsed.tokens[at], "prep") if p.text.lower() == "of"]
    if not any(o.pos == "PROPN" for p in of for o in dependents(parsed, p, "pobj")):
        return False
    sense = wordnet().synset(synset)
    return sense.lexname() == "noun.person" and wordnet().synset("relative.n.01") not in sense.closure(
        lambda s: s.hypernyms()
    )


_DEICTIC = frozenset({"last", "tomorrow"})


def _time_adverbial(parsed: ParsedSentence, tok: Token) -> bool:
    """The noun is a time expression anchored to today: "last night", "tomorrow night"."""
    return any(k.text.lower() in _DEICTIC for k in dependents(parsed, tok, "amod", "det", "npadvmod"))
