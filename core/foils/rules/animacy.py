"""Who can act: whether a graph node is a person, animal or group (RS trades only arguments that can each fill the
other's role), and whether it is a group or institution, which acts with an authority no person has.

WordNet's answers come from :func:`core.foils.rules.wordnet_facts.animate_kind`; the word's sense in its sentence
(``senses``) overrides the first sense when the vectors choose it clearly.

>>> animate_word("", "nurse"), animate_word("", "foreleg"), animate_word("PERSON", "Tom")
(True, False, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.foils.rules.index import GraphIndex, head_token, split_concept
from core.foils.rules.lexicon import SENSE_MARGIN
from core.types import ParsedSentence, Token

if TYPE_CHECKING:
    from core.foils.rules.senses import SentenceContext

ANIMATE_PRONOUNS = frozenset({"i", "you", "he", "she", "we", "they", "who", "someone", "everyone", "nobody"})
ORGANIZATIONS = frozenset({"organization", "company", "government-organization"})


def animate(parsed: ParsedSentence, idx: GraphIndex, var: str, senses: SentenceContext | None) -> bool:
    """A person, animal or group: a named person or organisation, a personal pronoun, or a noun that is one
    (:func:`animate_word`; the arguments that can trade places with an agent or a recipient)."""
    concept = idx.concepts.get(var, "")
    tok = head_token(parsed, var)
    if concept == "they" and tok is not None:
        return _plural_antecedent_animate(parsed, tok, senses)
    if concept in ANIMATE_PRONOUNS or concept == "person" or concept in ORGANIZATIONS:
        return True
    ent_type, at = (tok.ent_type, tok.i) if tok is not None else ("", None)
    if (
        ent_type == "NORP"
        and tok is not None
        and tok.tag not in ("NNPS", "NNS")
        and tok.i > 0
        and parsed.tokens[tok.i - 1].tag != "DT"
    ):
        ent_type = ""  # "learned Latin": a language, not "the French"
    return animate_word(ent_type, split_concept(concept)[0], senses, at)


def animate_word(ent_type: str, lemma: str, senses: SentenceContext | None = None, at: int | None = None) -> bool:
    """A word named as a person or organisation, or a noun whose first WordNet sense is a person, animal (a creature,
    not an animal's part: "The mare's foreleg examined the farrier") or group, unless its sense at token ``at`` of its
    sentence (``senses``) is clearly another ("the skirting boards" are no board of directors) or, when the vectors
    cannot tell, most of its tagged uses are another ("flights")."""
    from core.foils.rules.wordnet_facts import animate_kind, animate_share, first_animate_kind

    if ent_type in ("PERSON", "ORG", "NORP"):
        return True
    if not first_animate_kind(lemma):
        return False
    sense = _clear_sense(senses, lemma, at)
    if sense is not None:
        return bool(animate_kind(sense))
    share = animate_share(lemma)  # "our new neighbours": the vectors lean to "a nearby object" by only 0.008
    return share is None or share >= 0.5  # "43 flights": a formation of aircraft is not what most flights are


def group(parsed: ParsedSentence, idx: GraphIndex, var: str, senses: SentenceContext | None) -> bool:
    """A group or institution: a named organisation, or a noun whose sense here (else its first sense) is a group
    ("police", "the court", "the school board"; "the league leaders" are people)."""
    if idx.concepts.get(var, "") in ORGANIZATIONS:
        return True
    tok = head_token(parsed, var)
    if tok is None or tok.pos not in ("NOUN", "PROPN"):
        return False
    if tok.ent_type == "ORG":
        return True
    return _kind_here(idx, var, tok, senses) == "group"


def animal(parsed: ParsedSentence, idx: GraphIndex, var: str, senses: SentenceContext | None) -> bool:
    """An animal: a common noun whose sense here (else its first sense) is a creature ("the dog", "a charger" read
    as a horse); never a name or a pronoun."""
    tok = head_token(parsed, var)
    if tok is None or tok.pos != "NOUN" or tok.ent_type:
        return False
    return _kind_here(idx, var, tok, senses) == "animal"


def _kind_here(idx: GraphIndex, var: str, tok: Token, senses: SentenceContext | None) -> str:
    """:func:`~core.foils.rules.wordnet_facts.animate_kind` of the noun's sense at ``tok`` when the vectors choose it
    clearly, else of its first sense."""
    from core.foils.rules.wordnet_facts import animate_kind, first_animate_kind

    lemma = split_concept(idx.concepts.get(var, ""))[0]
    sense = _clear_sense(senses, lemma, tok.i)
    return animate_kind(sense) if sense is not None else first_animate_kind(lemma)


def _clear_sense(senses: SentenceContext | None, lemma: str, at: int | None) -> str | None:
    """The noun's sense at token ``at`` when the vectors choose it by at least :data:`SENSE_MARGIN`, else None."""
    if senses is None or at is None:
        return None
    choice = senses.choose(lemma, "NOUN", at)
    if choice is None or choice.method != "vectors" or choice.score - (choice.runner_up_score or 0.0) < SENSE_MARGIN:
        return None
    return choice.synset


def _plural_antecedent_animate(parsed: ParsedSentence, pronoun: Token, senses: SentenceContext | None) -> bool:
    """The pronoun "they" stands for the nearest plural noun before it, when the sentence has one: animate only when
    that noun is ("I must have left my reading glasses ... them" -> "they must have left me" and "boil these potatoes
    before I mash them" -> "before they mash me" are refused); with no plural noun before it, "they" is people."""
    before = [t for t in parsed.tokens[: pronoun.i] if t.tag in ("NNS", "NNPS")]
    return not before or animate_word(before[-1].ent_type, before[-1].lemma.lower(), senses, before[-1].i)
