"""The AR and HS operation: substitutes the new lemma inflected like the old word (``won`` → ``lost``).
One entry: :func:`substitute`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.foils.realize import morph
from core.foils.realize.details import detail
from core.foils.realize.work import NAME_ENTITIES, Unrealizable, Work
from core.types import Edit, Token


def substitute(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    var = detail(edit, "node")
    lemma = str(edit.details.get("new_lemma") or "").strip()
    if not lemma:
        lemma = _lemma_of_concept(str(detail(edit, "new_concept")))
    lemma = " ".join(lemma.replace("_", " ").split())
    if not lemma:
        raise Unrealizable("the substitution has an empty new lemma")
    toks = sent.node_tokens(var, concepts)
    head = sent.node_head(var, concepts)
    if head.ent_type in NAME_ENTITIES or (head.pos == "PROPN" and not head.text.isupper()):
        name = sent.phrase_text(t.i for t in toks)
        raise Unrealizable(f"'{head.text}' is part of a name ('{name}'): a name keeps its words")
    like = head.text
    if like.isupper() and len(like) > 1 and not _all_caps(sent.tokens):
        like = like.capitalize() if head.i == sent.first_word else like.lower()  # an acronym: "DVD" -> "storage device"
    old_lemma = str(edit.details.get("old_lemma") or "").lower()
    if head.pos in ("ADP", "SCONJ"):
        form = morph.match_case(lemma, like)  # a preposition does not inflect: "After" -> "Before"
    elif head.text.lower() in (old_lemma, head.lemma.lower()) and head.tag in ("JJS", "RBS", "JJR", "RBR"):
        form = morph.match_case(lemma, like)  # "most" -> "least", not "most least"
    else:
        form = morph.match_case(morph.inflect(lemma, head.tag), like)  # "Mad for Madonna" -> "Sane for ..."
    work.replace(head.i, form)
    _fit_possessive(work, head, form)
    for tok in toks:
        if tok.i != head.i:
            work.delete(tok.i)


_POSSESSIVES = {"'s": "'", "’s": "’", "'": "'s", "’": "’s"}


def _fit_possessive(work: Work, head: Token, form: str) -> None:
    """A plural noun's possessive marker fits its new word: "the women's record" -> "the adults' record" (not
    "adults's"), "the boys' bikes" -> "the children's bikes"."""
    at = head.i + 1
    if head.tag not in ("NNS", "NNPS") or at >= len(work.sent.tokens):
        return
    marker = work.sent.tok(at)
    if marker.dep != "case" or marker.text not in _POSSESSIVES:
        return
    ends_in_s = form.lower().endswith("s")
    if ends_in_s == marker.text.endswith("s"):
        work.replace(at, _POSSESSIVES[marker.text])


def _all_caps(tokens: Sequence[Token]) -> bool:
    """Most words of the sentence are upper case ("THE CAT SAT."): a substitute is written in capitals too."""
    words = [t.text for t in tokens if any(ch.isalpha() for ch in t.text)]
    return bool(words) and sum(w.isupper() for w in words) * 2 > len(words)


def _lemma_of_concept(concept: str) -> str:
    """``lose-02`` → ``lose``; ``ice-cream`` stays (no sense suffix)."""
    stem, _, sense = concept.rpartition("-")
    return stem if stem and sense.isdigit() else concept
