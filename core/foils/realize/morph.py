"""Word-level helpers for the aligned realizer: inflection, pronoun case, agreement, articles, casing.

Pure functions over strings; the dependencies are ``lemminflect`` and ``inflect`` (imported lazily, calls cached).

>>> indefinite_article("unhappy"), indefinite_article("user"), indefinite_article("hour")
('an', 'a', 'an')
>>> pronoun_form(pronoun_identity("her", "PRP$"), "nom")
'she'
>>> match_case("unhappy", "Happy")
'Unhappy'
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

# ---------------------------------------------------------------- inflection


_PLURALS = {"person": "people"}  # lemminflect's first plural is "persons"


@lru_cache(maxsize=8192)
def inflect(lemma: str, tag: str) -> str:
    """``lemma`` inflected for the Penn ``tag`` (multi-word: the verb's first word, a noun's last word).

    Falls back to the lemma when lemminflect has no form (e.g. for ``VB``/``NN`` base tags).
    """
    words = lemma.split()
    if not words:
        return lemma
    if tag in ("VB", "NN", "NNP", "JJ", "RB", "", "CD"):
        return lemma
    index = 0 if tag.startswith("VB") else len(words) - 1
    word = words[index]
    form = _PLURALS.get(word) if tag in ("NNS", "NNPS") else None
    form = form or _lemminflect(word, tag)
    if form is None and tag in ("JJR", "JJS", "RBR", "RBS"):
        words[index] = ("more " if tag.endswith("R") else "most ") + word
        return " ".join(words)
    if form is None:
        return lemma
    words[index] = form
    return " ".join(words)


@lru_cache(maxsize=8192)
def _lemminflect(word: str, tag: str) -> str | None:
    from lemminflect import getInflection

    # Only known words for comparatives: "more X" reads better than an invented "Xer".
    oov = not tag.startswith(("JJ", "RB"))
    forms = getInflection(word, tag=tag, inflect_oov=oov)
    return forms[0] if forms else None


@lru_cache(maxsize=8192)
def past_tense_lemma(text: str) -> str | None:
    """The lemma when ``text`` can only be a verb's past tense, else None: the small tagger reads some
    irregular pasts as present ("the bells rang": VBP, lemma "rang"), and do-support must then say "did".

    >>> past_tense_lemma("rang"), past_tense_lemma("rings"), past_tense_lemma("read")
    ('ring', None, None)
    """
    from lemminflect import getInflection, getLemma

    word = text.lower()
    for lemma in getLemma(word, upos="VERB"):
        if word in getInflection(lemma, tag="VBD") and word not in getInflection(lemma, tag="VBP") and word != lemma:
            return lemma
    return None


@lru_cache(maxsize=8192)
def base_form(text: str, lemma: str, tag: str = "") -> str:
    """The bare infinitive of a verb token (``bites`` → ``bite``), keeping a lower-case lemma. With the token's
    ``tag``, a lemma that does not inflect back to the token is replaced by one that does: the small tagger
    lemmatises "hates" as "hat" and "fined" as "fin" ("does not hat", "did not fin").

    >>> base_form("hates", "hat", "VBZ"), base_form("fined", "fin", "VBD"), base_form("rang", "ring", "VBD")
    ('hate', 'fine', 'ring')
    """
    if not lemma or lemma == "-PRON-":
        return text.lower()
    lemma = _reinflecting_lemma(text.lower(), lemma.lower(), tag) if tag else lemma.lower()
    return lemma if not text.isupper() else lemma.upper()


def _reinflecting_lemma(word: str, lemma: str, tag: str) -> str:
    """``lemma`` when inflecting it for ``tag`` gives ``word`` (or nothing is known), else the verb lemma of
    ``word`` that does."""
    from lemminflect import getInflection, getLemma

    if word in getInflection(lemma, tag=tag):
        return lemma
    fits = [cand for cand in getLemma(word, upos="VERB") if word in getInflection(cand, tag=tag)]
    return fits[0] if fits else lemma


# ---------------------------------------------------------------- pronouns

# identity -> (nominative, accusative, possessive determiner)
_PRONOUNS: dict[str, tuple[str, str, str]] = {
    "i": ("I", "me", "my"),
    "you": ("you", "you", "your"),
    "he": ("he", "him", "his"),
    "she": ("she", "her", "her"),
    "it": ("it", "it", "its"),
    "we": ("we", "us", "our"),
    "they": ("they", "them", "their"),
    "who": ("who", "whom", "whose"),
}
_FORMS: dict[str, str] = {}
for _ident, _forms in _PRONOUNS.items():
    for _form in _forms:
        _FORMS.setdefault(_form.lower(), _ident)
_FORMS["her"] = "she"
_FORMS["mine"] = "i"

# identity -> (person, plural?)
_AGREEMENT: dict[str, tuple[int, bool]] = {
    "i": (1, False),
    "you": (2, True),
    "he": (3, False),
    "she": (3, False),
    "it": (3, False),
    "we": (1, True),
    "they": (3, True),
}


def pronoun_identity(text: str, tag: str = "") -> str | None:
    """The nominative identity of a personal/relative pronoun form (``him`` → ``he``), else None."""
    del tag  # "her" is the only ambiguous form and both readings share the identity "she"
    return _FORMS.get(text.lower())


def pronoun_form(identity: str, case: str) -> str:
    """``case`` is ``nom``, ``acc`` or ``poss`` (possessive determiner)."""
    nom, acc, poss = _PRONOUNS[identity]
    return {"nom": nom, "acc": acc, "poss": poss}[case]


def agreement_of(identity: str | None, tag: str, plural_hint: bool = False) -> tuple[int, bool]:
    """(person, plural) of a subject head: pronoun identity, else the noun tag (NNS/NNPS plural)."""
    if identity in _AGREEMENT:
        return _AGREEMENT[identity]
    return 3, plural_hint or tag in ("NNS", "NNPS")


_BE_PRESENT = {(1, False): "am", (3, False): "is"}
_BE_CONTRACTED = {"am": "'m", "is": "'s", "are": "'re"}


def agree_verb(text: str, lemma: str, tag: str, person: int, plural: bool) -> str:
    """Re-inflect a finite verb form for a subject of ``person``/``plural`` (same tense).

    >>> agree_verb("chase", "chase", "VBP", 3, False), agree_verb("was", "be", "VBD", 3, True)
    ('chases', 'were')
    """
    contracted = text.startswith("'")
    if lemma == "be":
        if tag == "VBD":
            new = "was" if not plural and person in (1, 3) else "were"
        elif tag in ("VBZ", "VBP"):
            new = _BE_PRESENT.get((person, plural), "are")
            if contracted:
                new = _BE_CONTRACTED[new]
        else:
            return text
    elif tag in ("VBZ", "VBP"):
        want = "VBZ" if person == 3 and not plural else "VBP"
        if want == tag:
            return text
        if contracted:  # 's / 've (have); other contractions do not vary
            new = ("'s" if want == "VBZ" else "'ve") if lemma == "have" else text
        elif want == "VBZ":
            new = inflect(lemma.lower(), "VBZ")
        else:
            new = lemma.lower()
    else:
        return text
    return match_case(new, text)


# ---------------------------------------------------------------- articles and casing

@lru_cache(maxsize=1)
def _inflect_engine() -> Any:
    import inflect as inflect_lib  # a/an by initial sound: "an hour", "a unanimous", "a U-turn", "an X-ray"

    return inflect_lib.engine()


@lru_cache(maxsize=8192)
def indefinite_article(word: str) -> str:
    """``a`` or ``an`` for the following word, by its initial sound (``inflect``'s rules).

    >>> [indefinite_article(w) for w in ("herbivore", "utensil", "unanimous", "U-turn", "X-ray", "FBI", "18")]
    ['a', 'a', 'a', 'a', 'an', 'an', 'an']
    """
    w = word.lstrip("\"'(“‘")
    if not w or not w[0].isalnum():
        return "a"
    if w[0].isdigit():  # inflect says "a 8": numbers by their spoken start (eight, eleven, eighteen)
        digits = "".join(itertools.takewhile(str.isdigit, w.replace(",", "")))
        return "an" if digits.startswith("8") or (digits[:2] in ("11", "18") and len(digits) % 3 == 2) else "a"
    return _inflect_engine().a(w).split(" ", 1)[0].lower()


def match_case(new: str, like: str) -> str:
    """``new`` written in the casing style of ``like`` (UPPER, Capitalised, or as given)."""
    if not new or not like:
        return new
    if like.isupper() and len(like) > 1 and like.isalpha():
        return new.upper()
    if like[0].isupper():
        return new[0].upper() + new[1:]
    return new


def capitalise(text: str) -> str:
    """First letter upper-cased, the rest untouched."""
    return text[:1].upper() + text[1:]


def decapitalise(text: str) -> str:
    """First letter lower-cased unless the word is ``I`` or an acronym."""
    if text == "I" or text.startswith("I'") or (len(text) > 1 and text.isupper()):
        return text
    return text[:1].lower() + text[1:]
