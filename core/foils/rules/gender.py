"""Gender agreement for an AR antonym of a gendered person ("son" -> "daughter", "husband" -> "wife"): the
sentence's pronouns, titles and nouns of the old gender must not be left pointing at nobody or contradicted.

>>> from core.types import ParsedSentence, Token
>>> words = [("He", "PRON", "nsubj", 1), ("was", "AUX", "ROOT", 1), ("the", "DET", "det", 3), ("son", "NOUN", "attr", 1)]
>>> tokens = tuple(Token(i, w, w.lower(), p, "", d, h, 0) for i, (w, p, d, h) in enumerate(words))
>>> gender_clash(ParsedSentence("He was the son", None, tokens=tokens), 3, "son.n.01")
True
"""

from __future__ import annotations

from core.foils.parse.lex import PRONOUNS
from core.foils.rules.index import dependents, governor
from core.foils.rules.wordnet_facts import sense_gender
from core.types import ParsedSentence, Token

PRONOUN_OF_GENDER = {"male": "he", "female": "she"}  # the AMR pronoun concept (core.foils.parse.lex.PRONOUNS)
GENDER_OF_PRONOUN = {pronoun: gender for gender, pronoun in PRONOUN_OF_GENDER.items()}
GENDERED_WORDS = {
    "male": frozenset({"mr", "mr.", "sir", "lord", "man", "gentleman", "himself"}),
    "female": frozenset({"mrs", "mrs.", "miss", "ms", "ms.", "lady", "woman", "herself", "madam"}),
}
"""Titles and nouns that fix a person's gender elsewhere in the sentence ("Lady Pemberton was the proudest woman")."""
GENDER_OF_NOUN = {
    **dict.fromkeys(("father", "son", "brother", "husband", "uncle", "nephew", "grandfather", "grandson"), "male"),
    **dict.fromkeys(("mother", "daughter", "sister", "wife", "aunt", "niece", "grandmother", "granddaughter"), "female"),
}
"""Kin terms WordNet files under neither male nor female ("father" is a parent)."""
SPOUSES = frozenset({"husband", "wife", "widow", "widower", "bride", "bridegroom", "groom"})


def gender_clash(parsed: ParsedSentence, at: int | None, synset: str) -> bool:
    """A gendered person ("his daughter") whose antonym would leave a pronoun of the old gender pointing at nobody
    ("showed his son ... her fishing line", "he was the son of a bankrupt" -> "he was the daughter") or contradict a
    title or noun of that gender elsewhere ("Lady Pemberton was the proudest man"); a spouse's antonym must not take
    the gender of a title beside it ("Mrs. Whitlow, who had buried two husbands" -> "two wives")."""
    gender = _person_gender(parsed, at, synset)
    if gender is None:
        return False
    others = [t for t in parsed.tokens if t.i != at]
    said_of = _copula_subject(parsed, parsed.tokens[at])  # "he" of "he was the son of a bankrupt"
    pronouns = [t for t in others if t.i > at or (said_of is not None and t.i == said_of.i)]
    if any(PRONOUNS.get(t.text.lower()) == PRONOUN_OF_GENDER[gender] for t in pronouns):
        return True
    if any(t.text.lower() in GENDERED_WORDS[gender] for t in others):
        return True
    new = "female" if gender == "male" else "male"
    spouse = parsed.tokens[at].lemma.lower() in SPOUSES
    return spouse and any(t.text.lower() in GENDERED_WORDS[new] for t in others)


def _person_gender(parsed: ParsedSentence, at: int | None, synset: str) -> str | None:
    """The gender of the person at token ``at`` in the sense ``synset``, by WordNet or by its kin word."""
    if at is None:
        return None
    return sense_gender(synset) or GENDER_OF_NOUN.get(parsed.tokens[at].lemma.lower())


def _copula_subject(parsed: ParsedSentence, tok: Token) -> Token | None:
    """The subject of the copula whose predicate noun ``tok`` is (or heads a conjunct of), else None."""
    while tok.dep == "conj" and (up := governor(parsed, tok)) is not None:
        tok = up
    verb = governor(parsed, tok) if tok.dep == "attr" else None
    return next(iter(dependents(parsed, verb, "nsubj")), None) if verb is not None else None


NEUTRAL_COUNTERPARTS = frozenset({"child.n.02", "parent.n.01", "adult.n.01", "sibling.n.01", "grandparent.n.01"})
"""Hypernyms that take only the gender from a gendered person ("son" -> "child", "mother" -> "parent", "woman" ->
"adult"), which a pronoun or title can give back; not "relative" (the kinship goes) or "partner" (the marriage)."""


def gender_given_back(parsed: ParsedSentence, at: int | None, synset: str) -> bool:
    """The person's gender is given back by the sentence, so that a :data:`NEUTRAL_COUNTERPARTS` hypernym loses
    nothing ("my son ... his birthday" -> "my child ... his birthday"; "Mrs. Pemberton was a woman" -> "an adult";
    docs/quality-protocol.md, meaning changed: no): by a later pronoun of that gender that can only mean that person
    (no name, pronoun, title or kin noun of the gender before it: "Her aunt gave her a purse", "Ben is taller than
    his father, and he ..."), or by the title of a copula's subject it is said of.

    >>> from core.types import ParsedSentence, Token
    >>> words = ["My", "son", "scored", "his", "goal"]
    >>> tokens = tuple(Token(i, w, w.lower(), "NOUN" if w == "son" else "X", "", "x", 0, 0) for i, w in enumerate(words))
    >>> gender_given_back(ParsedSentence(" ".join(words), None, tokens=tokens), 1, "son.n.01")
    True
    """
    gender = _person_gender(parsed, at, synset)
    if at is None or gender is None:
        return False
    said_of = _copula_subject(parsed, parsed.tokens[at])  # "Mrs. Pemberton was a woman of fortune"
    if said_of is not None and _gender_of_name(parsed, said_of, at) == gender:
        return True
    pronoun = PRONOUN_OF_GENDER[gender]
    later = next((t for t in parsed.tokens[at + 1 :] if PRONOUNS.get(t.text.lower()) == pronoun), None)
    if later is None:
        return False
    return not any(_could_be_meant(parsed, t, gender, later.i) for t in parsed.tokens[: later.i] if t.i != at)


def _could_be_meant(parsed: ParsedSentence, tok: Token, gender: str, before: int) -> bool:
    """Someone a pronoun of ``gender`` could stand for: a pronoun, title or kin noun of that gender, or a named
    person not known to be of the other gender."""
    word = tok.text.lower()
    if word in GENDERED_WORDS[gender] or PRONOUNS.get(word) == PRONOUN_OF_GENDER[gender]:
        return True
    if GENDER_OF_NOUN.get(tok.lemma.lower()) == gender:
        return True
    return tok.ent_type == "PERSON" and _gender_of_name(parsed, tok, before) in (gender, None)


def _gender_of_name(parsed: ParsedSentence, tok: Token, before: int) -> str | None:
    """A named person's gender as the sentence gives it: a title just before the name ("Sir Edmund", "Mrs.
    Pemberton"), else the first he/she pronoun after it and before token ``before`` ("Tom showed his ...")."""
    for t in parsed.tokens[max(0, tok.i - 3) : tok.i + 1]:
        for gender, words in GENDERED_WORDS.items():
            if t.text.lower() in words:
                return gender
    for t in parsed.tokens[tok.i + 1 : before]:
        gender = GENDER_OF_PRONOUN.get(PRONOUNS.get(t.text.lower(), ""))
        if gender is not None:
            return gender
    return None
