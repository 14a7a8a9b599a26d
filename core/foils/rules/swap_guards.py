"""What a role swap must not move: the phrases and clauses whose exchange the judged rounds found clearly worse or
not English (issue 12), checked on the dependency parse before an RS edit is built.

>>> from core.types import ParsedSentence, Token
>>> toks = [Token(i=0, text="They", lemma="they", pos="PRON", tag="PRP", dep="nsubj", head=1, idx=0)]
>>> kids = Token(i=2, text="kids", lemma="kid", pos="NOUN", tag="NNS", dep="nsubj", head=3, idx=10)
>>> refers_back([toks[0]], [kids]), refers_back([toks[0]], [])
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from core.foils.rules.index import below, dependents, governor, head_token
from core.types import ParsedSentence, Token

_STAND_FOR_NOUNS = frozenset({"ones", "mine", "yours", "hers", "ours", "theirs"})
"""Words that stand for a noun said before them, so they cannot move ahead of it: "Our flat is smaller than theirs"
-> "Theirs is smaller than our flat"; "... because ours snapped" -> "Ours snapped because ..."."""
_PRO_FORMS = frozenset({"one", "that", "those"}) | _STAND_FOR_NOUNS
"""A compared side that stands for a noun said before it: "than the one we had" -> "The one we had is ..."."""
_THIRD_PERSON = {
    **dict.fromkeys(("he", "him", "his", "himself"), "he"),
    **dict.fromkeys(("she", "her", "hers", "herself"), "she"),
    **dict.fromkeys(("it", "its", "itself"), "it"),
    **dict.fromkeys(("they", "them", "their", "theirs", "themselves"), "they"),
}
_CAUSAL_AMBIGUOUS = frozenset({"since", "as"})
"""Subordinators that read as time or as cause: "said it began in 1987 since ticket sales were higher"."""


def unswappable_argument(parsed: ParsedSentence, var: str, event: str) -> str | None:
    """Why the argument ``var`` of ``event`` cannot move, or None: a pro-form ("the one we had before"), a
    reflexive, one of two subjects the parser gave one verb (an apposition: "Thomas the groom"), a phrase holding a
    comma (a list, an appositive or a non-restrictive clause: "the coach, a lame horse, and ..."; "Old Mr
    Pennington, who ..."), a phrase with a clause inside ("the decision to change composers"), or the subject of
    another clause ("than the photos made it look"; "made him address" -> "made he address")."""
    tok, own = head_token(parsed, var), head_token(parsed, event)
    if tok is None:
        return None
    while tok.dep == "compound" and (up := governor(parsed, tok)) is not None:
        tok = up  # a name's first word: "Rory" of "Rory Jennings, who ..."
    if tok.text.lower() in _PRO_FORMS:
        return "a pro-form"
    if tok.text.lower().endswith(("self", "selves")):
        return "a reflexive"  # the subject's own self: "The children washed themselves" -> "Themselves washed ..."
    parent = governor(parsed, tok)
    if tok.dep in ("nsubj", "nsubjpass") and parent is not None and len(dependents(parsed, parent, tok.dep)) > 1:
        return "one of two subjects"  # "Thomas the groom led the mare": an apposition parsed as two subjects
    span = below(parsed, tok)
    if any(t.text == "," for t in span[1:-1]) or dependents(parsed, tok, "conj", "appos"):
        return "a list, an appositive or a clause set off by commas"
    starts = [min(t.i for t in below(parsed, c)) for c in dependents(parsed, tok, "relcl", "acl")]
    if any(start > 0 and parsed.tokens[start - 1].text == "," for start in starts):
        return "a clause set off by commas"  # "Rory Jennings, who plays Tommy Connolly, plays ..."
    if any(t.pos in ("VERB", "AUX") and t.dep in ("acl", "relcl", "xcomp", "ccomp") for t in span[1:]):
        return "a phrase with a clause inside"  # "Peter Jackson's decision to change composers from ... to ..."
    if own is not None and _holds_verb_phrase(parsed, tok, own):
        return "a phrase that belongs to the verb"  # "acquitted a porter of theft" -> "A porter of theft acquitted"
    after = span[-1].i + 1
    than = parent is not None and parent.text.lower() == "than"
    if than and after < len(parsed.tokens) and parsed.tokens[after].pos == "VERB":
        return "the subject of another clause"  # "than the photos made it look", parsed as "than the photos"
    clause = parent is not None and parent.dep in ("ccomp", "xcomp", "relcl", "advcl", "pcomp")
    if tok.dep in ("nsubj", "nsubjpass") and clause and (own is None or parent.i != own.i):
        return "the subject of another clause"
    return None


def _holds_verb_phrase(parsed: ParsedSentence, tok: Token, verb: Token) -> bool:
    """The parser hung on the noun ``tok`` a phrase that one of ``verb``'s WordNet frames puts after the object
    ("accused the minister of misleading parliament", "acquitted a porter of theft"): it would move with the noun."""
    from core.foils.rules.wordnet_facts import verb_prepositions

    preps = verb_prepositions(verb.lemma.lower())
    return any(p.text.lower() in preps and p.i > tok.i for p in dependents(parsed, tok, "prep"))


def unswappable_event(parsed: ParsedSentence, var: str, recipient: bool) -> str | None:
    """Why the arguments of the event ``var`` cannot trade places, or None: a small clause ("pronounced the stranger a
    gentleman") or, for a recipient swap, a clause its subject controls ("promised Dan I'd help him" -> "Dan
    promised me I'd help him")."""
    tok = head_token(parsed, var)
    if tok is None:
        return None
    if dependents(parsed, tok, "oprd"):
        return "a small clause"
    if recipient and dependents(parsed, tok, "ccomp", "xcomp"):
        return "a clause its subject controls"
    return None


def refers_back(moved_first: Sequence[Token], moved_second: Sequence[Token]) -> bool:
    """A clause swap would put a third-person pronoun before the noun it stands for: the clause moving to the front
    has one that the other clause, which holds a noun, does not ("The kids were hungry because they skipped lunch"
    -> "They skipped lunch because the kids were hungry")."""

    def persons(tokens: Sequence[Token]) -> set[str]:
        return {_THIRD_PERSON[w] for t in tokens if (w := t.text.lower()) in _THIRD_PERSON}

    nouns = any(t.pos in ("NOUN", "PROPN") for t in moved_second)  # a possible antecedent ("the kids")
    return nouns and bool(persons(moved_first) - persons(moved_second))


def clause_swap_blocked(parsed: ParsedSentence, first: Token, second: Token) -> bool:
    """Two clauses whose heads are ``first`` (earlier in the sentence) and ``second`` cannot trade places: one is
    introduced by a subordinator that also reads as a cause ("since", "as"), one is an order or an ellipsis
    (:func:`_cannot_subordinate`), or the swap puts a pronoun in a main clause before the noun it stands for
    (:func:`refers_back`, or "ours", "ones"); a fronted subordinate clause may hold one ("Even though she bought it,
    Anna had little money")."""
    if any(t.tag == "MD" and t.dep in ("aux", "auxpass") for t in (first, second)):
        return True  # a modal's concept stands for its clause, yet only the modal would move ("... because should.")
    first, second = _clause_root(parsed, first), _clause_root(parsed, second)
    marks = {t.text.lower() for c in (first, second) for t in dependents(parsed, c, "mark")}
    if marks & _CAUSAL_AMBIGUOUS or _cannot_subordinate(parsed, first) or _cannot_subordinate(parsed, second):
        return True
    if dependents(parsed, first, "mark", "advmod") and first.dep == "advcl":
        return False  # the front clause keeps its subordinator: "Even though she bought it, Anna had little money"
    moved_first, moved_second = _clause(parsed, second, first), _clause(parsed, first, second)
    return refers_back(moved_first, moved_second) or any(t.text.lower() in _STAND_FOR_NOUNS for t in moved_first)


def _cannot_subordinate(parsed: ParsedSentence, head: Token) -> bool:
    """The clause headed by ``head`` cannot become the other clause's subordinate: an imperative ("Don't forget to
    label them, because ..." -> "..., because don't forget to label them"), an ellipsis ("..., he did"), or a
    clause whose connector belongs to the sentence around it (:func:`_embedded`), a parenthetical ("she found,
    before the soup was cleared, that ..." -> "Although she found, Lucy had resolved ...": the clause is not whole),
    or a question, its auxiliary before its subject ("Could you feed the cat, because ..." -> "... because could?")."""
    subject = dependents(parsed, head, "nsubj", "nsubjpass", "expl")
    imperative = head.tag == "VB" and head.dep == "ROOT" and not subject
    asked = any(aux.i < s.i for aux in dependents(parsed, head, "aux", "auxpass") for s in subject)
    done = dependents(parsed, head, "dobj", "ccomp", "xcomp", "attr", "acomp", "prep", "dative", "oprd")
    elliptical = (head.lemma == "do" and not done) or (head.pos == "AUX" and head.tag == "MD")
    return imperative or asked or elliptical or head.dep == "parataxis" or _embedded(parsed, head)


def _embedded(parsed: ParsedSentence, head: Token) -> bool:
    """A relative clause, or a "that" clause: its relative word or "that" stays where the clause was, so the swap
    reads "the door was opened whenever whose feeble flame trembled" or "said demand doubled after that revenue
    rose"."""
    if head.dep == "relcl":
        return True
    return head.dep in ("ccomp", "acl") and any(t.text.lower() == "that" for t in dependents(parsed, head, "mark"))


_CLAUSE_DEPS = frozenset({"ROOT", "advcl", "ccomp", "xcomp", "conj", "relcl", "csubj", "parataxis"})


def _clause_root(parsed: ParsedSentence, tok: Token) -> Token:
    """The verb heading ``tok``'s clause ("happy" in "She is happy" -> "is")."""
    while tok.dep not in _CLAUSE_DEPS and 0 <= tok.head < len(parsed.tokens) and tok.head != tok.i:
        tok = parsed.tokens[tok.head]
    return tok


def _clause(parsed: ParsedSentence, head: Token, other: Token) -> list[Token]:
    """The words of ``head``'s clause, without those of ``other``'s clause when it hangs below."""
    words = below(parsed, head)
    nested = other.i != head.i and any(t.i == other.i for t in words)
    skip = {t.i for t in below(parsed, other)} if nested else set()
    return [t for t in words if t.i not in skip]
