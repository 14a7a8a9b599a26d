"""Which words a third-person pronoun can stand for, read by agreement alone (number, person or thing, gender):
enough to see that a deletion takes away a pronoun's only antecedent ("I gave the receipt to Marta because she
handles the petty cash" -> "I gave the receipt because she handles ...").

>>> from core.types import ParsedSentence, Token
>>> words = [("I", "PRP", "PRON", "", 1), ("gave", "VBD", "VERB", "", 1), ("it", "PRP", "PRON", "", 1),
...          ("to", "IN", "ADP", "", 1), ("Marta", "NNP", "PROPN", "PERSON", 3), ("because", "IN", "SCONJ", "", 7),
...          ("she", "PRP", "PRON", "", 7), ("works", "VBZ", "VERB", "", 1)]
>>> tokens = tuple(Token(i, w, w.lower(), p, t, "", h, 0, ent_type=e) for i, (w, t, p, e, h) in enumerate(words))
>>> strands_pronoun(ParsedSentence("I gave it to Marta because she works", None, tokens=tokens), {3, 4})
True
"""

from __future__ import annotations

from collections.abc import Collection

from core.foils.parse.lex import PRONOUNS
from core.foils.rules.gender import GENDER_OF_NOUN, GENDERED_WORDS
from core.types import ParsedSentence, Token

_THIRD_PERSON = ("he", "she", "it", "they")
_PERSON_ENTITIES = frozenset({"PERSON", "", "GPE", "NORP"})  # the small model tags "Marta" GPE
_GROUP_LEXNAMES = frozenset({"noun.group"})


def _gender(tok: Token) -> str | None:
    """"male" / "female" for a word that fixes it ("Mrs", "sister", "woman"), else None (names are unknown)."""
    word = tok.lemma.lower()
    fixed = next((g for g, words in GENDERED_WORDS.items() if tok.text.lower() in words or word in words), None)
    return fixed or GENDER_OF_NOUN.get(word)


_THING_WORDS = frozenset({"whatever", "what", "this", "that", "something", "anything", "everything", "nothing"})
_TIME_ENTITIES = frozenset({"DATE", "TIME"})


def _can_stand_for(pronoun: str, tok: Token, strict: bool) -> bool:
    """The pronoun concept ``pronoun`` ("he", "she", "it", "they") can refer to the word ``tok`` by agreement.
    ``strict`` (a deleted word) asks for a sure antecedent; otherwise (a word left) any likely one counts: "it" can
    stand for a company called "the shipbuilder" or for "whatever she pleased", "they" for "the council"."""
    from core.foils.rules.wordnet_facts import lexname

    said = PRONOUNS.get(tok.text.lower())
    if said is not None:
        return said == pronoun
    if pronoun == "it" and not strict and tok.text.lower() in _THING_WORDS:
        return True
    if tok.pos not in ("NOUN", "PROPN"):
        return False
    plural = tok.tag in ("NNS", "NNPS")
    kind = lexname(tok.lemma.lower(), "n") if tok.pos == "NOUN" else ""
    if pronoun == "they":
        return plural or (not strict and (kind in _GROUP_LEXNAMES or tok.ent_type in ("ORG", "NORP")))
    if plural:
        return False
    if pronoun == "it":
        if strict:
            return kind not in ("noun.person", "noun.time") and tok.ent_type not in _TIME_ENTITIES | {"PERSON"}
        return tok.ent_type != "PERSON"
    person = kind == "noun.person" or (tok.pos == "PROPN" and tok.ent_type in _PERSON_ENTITIES)
    return person and _gender(tok) in (None, "male" if pronoun == "he" else "female")


def _animate(tok: Token) -> bool:
    """A person or animal: a name, or a noun whose first WordNet sense is one."""
    from core.foils.rules.wordnet_facts import first_animate_kind

    if tok.pos == "PROPN":
        return tok.ent_type in _PERSON_ENTITIES
    return tok.pos == "NOUN" and first_animate_kind(tok.lemma.lower()) in ("person", "animal")


def strands_pronoun(parsed: ParsedSentence, dropped: Collection[int]) -> bool:
    """Deleting the words at ``dropped`` takes away every word a later third-person pronoun can stand for: the
    deleted words hold one (:func:`_can_stand_for`) and no word left before the pronoun does. Names whose gender
    the sentence does not fix count for "he" and "she" alike, so a pronoun with another possible antecedent stays."""
    if not dropped:
        return False
    last = max(dropped)
    for pronoun in parsed.tokens[last + 1 :]:
        concept = PRONOUNS.get(pronoun.text.lower())
        if concept not in _THIRD_PERSON:
            continue
        before = parsed.tokens[: pronoun.i]
        if not any(t.i in dropped and _can_stand_for(concept, t, strict=True) for t in before):
            continue  # the drop takes no word this pronoun can stand for
        left = [t for t in before if t.i not in dropped]
        outside = any(_can_stand_for(concept, t, strict=False) for t in left)
        together = concept == "they" and sum(map(_animate, left)) >= 2  # "the cat chased the puppy ... both of them"
        if not outside and not together:
            return True
    return False
