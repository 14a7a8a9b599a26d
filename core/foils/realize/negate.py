"""The PN operation: ``not`` after the first auxiliary/copula (``can`` → ``cannot``), else do-support
(``bites`` → ``does not bite``); nouns get ``no``, adjectives and adverbs ``not``. Un-negate removes
``not``/``n't``/``never`` and undoes do-support. One entry: :func:`polarity`.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.foils.realize import morph
from core.foils.realize.details import detail, head_of
from core.foils.realize.work import DET_LIKE, Sentence, Unrealizable, Work
from core.types import Edit, Token

_NEG_WORDS = frozenset({"not", "n't", "never", "no", "cannot", "nobody", "nothing", "none", "nowhere", "neither"})
_CONTRACTED_OPERATORS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "is"}
_POSITIVE = {"nobody": "somebody", "nothing": "something", "nowhere": "somewhere", "none": "some", "cannot": "can"}
_NEGATABLE_DETS = frozenset({"the", "a", "an", "some", "any", "this", "that", "these", "those", "every", "each", "all"})


def polarity(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    var = detail(edit, "node")
    action = edit.details.get("action", "unnegate" if edit.variant == "unnegate" else "negate")
    if action == "unnegate":
        _unnegate(work, var, concepts)
    elif action == "negate":
        _negate(work, var, concepts)
    else:
        raise Unrealizable(f"unknown PN action {action!r}")


def _claimed_negations(sent: Sentence, but: str) -> set[int]:
    """Negation tokens the parser aligned to some other node's ``:polarity``."""
    return {
        i
        for key, idxs in sent.alignment.items()
        if key.endswith(":polarity") and key[: -len(":polarity")] != but
        for i in idxs
    }


def _has_negation(sent: Sentence, tok: Token, var: str) -> bool:
    if sent.alignment.get(f"{var}:polarity"):
        return True
    claimed = _claimed_negations(sent, var)
    heads = [tok]
    if tok.dep in ("aux", "auxpass", "acomp", "attr"):
        heads.append(sent.head(tok))
    return any(
        (k.dep == "neg" or k.text.lower() in ("not", "n't", "never")) and k.i not in claimed
        for h in heads
        for k in sent.kids(h.i)
    )


def _negated_after(sent: Sentence, op: Token) -> bool:
    """``op`` is directly followed by a negation (``can|not``, ``does|n't``)."""
    nxt = op.i + 1
    return nxt < len(sent.tokens) and sent.tok(nxt).text.lower() in ("not", "n't")


def _negate(work: Work, var: str, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    tok = head_of(work, var, concepts)
    if _has_negation(sent, tok, var):
        raise Unrealizable(f"'{tok.text}' is already negated; un-negate it instead")
    if tok.dep in ("aux", "auxpass") and tok.head != tok.i:
        if tok.tag == "TO":
            work.insert_before(tok.i, ["not"])
        else:
            _negate_operator(work, tok, sent.head(tok))
    elif tok.dep == "amod" and not _bare_quantifier(sent, tok):
        raise Unrealizable(
            f"cannot negate the attributive '{tok.text}' fluently ('a not {tok.text} ...' is not English "
            "and does not re-parse as negation)"
        )
    elif tok.dep in ("acomp", "attr") and sent.head(tok).lemma.lower() == "be":
        _negate_verb(work, sent.head(tok))  # the copula carries a predicate's negation: "is not happy",
        # also a participle's: "has not been married", not "has been not married"
    elif tok.pos in ("VERB", "AUX"):
        _negate_verb(work, tok)
    elif tok.pos == "ADV":
        raise Unrealizable(
            f"cannot negate the adverb '{tok.text}' on the surface: 'not {tok.text}' reads as negating the verb "
            "or is not English"
        )
    elif tok.pos == "ADJ" or (tok.pos in ("SCONJ", "ADP") and tok.dep in ("mark", "prep")):
        work.insert_before(tok.i, ["not"])  # "not many offices", "is known as not active", "not because ..."
    elif tok.pos == "NOUN":
        _negate_noun(work, tok)
    else:
        raise Unrealizable(
            f"cannot negate '{tok.text}' ({tok.pos}) on the surface; only verbs, adjectives, adverbs and "
            "common nouns are negated"
        )


# Common mass nouns: removing "no" gives "some water", not "a water".
_MASS_NOUNS = frozenset(
    {
        "water", "money", "information", "evidence", "advice", "news", "music", "food", "help", "support",
        "research", "knowledge", "equipment", "furniture", "progress", "damage", "rain", "snow", "air", "power",
        "energy", "time", "work", "space", "room", "light", "fun", "luck", "traffic", "weather", "milk", "bread",
        "wine", "beer", "coffee", "tea", "oil", "gas", "blood", "land", "data", "software", "training", "access",
        "control", "interest", "success", "education", "experience", "protection", "funding",
        "attention", "trade", "violence", "peace", "history", "art", "literature", "mail",
    }
)  # fmt: skip
_MASS_SUFFIXES = ("ness", "ism", "ware")
_QUANTIFIERS = frozenset({"many", "much", "more", "enough"})
_SPEAKER_ADVERBS = frozenset(
    {"probably", "certainly", "surely", "apparently", "clearly", "obviously", "perhaps", "maybe", "evidently",
     "presumably", "definitely", "undoubtedly", "possibly"}
)  # fmt: skip
"""Adverbs of the speaker's certainty: after an auxiliary they stay before the negation ("will certainly not")."""
_SENTENCE_ADVERBS = _SPEAKER_ADVERBS | frozenset(
    {
        "actually", "also", "already", "still", "even", "just", "then", "now", "soon", "sometimes", "finally",
        "suddenly", "later", "once", "again", "thus", "therefore", "indeed", "however", "only",
    }
)  # fmt: skip
"""Adverbs before a verb that stay before the negation ("she probably did not know"); any other adverb there
falls under it ("did not always forget", "did not quickly treat")."""


def _bare_quantifier(sent: Sentence, tok: Token) -> bool:
    """``many`` before a noun without a determiner: "not many offices" is English, "his not many ..." is not."""
    if tok.text.lower() not in _QUANTIFIERS:
        return False
    noun = sent.head(tok)
    return not sent.kids(noun.i, "det", "poss", "nummod", "predet") and min(sent.subtree(noun.i)) == tok.i


def _negate_verb(work: Work, verb: Token) -> None:
    sent = work.sent
    # an auxiliary inside quotation marks when the verb is not is a title's word misread as the verb's
    # ("`` That Was Often '' was cancelled")
    auxes = [a for a in sent.kids(verb.i, "aux", "auxpass") if sent.quoted(a.i) == sent.quoted(verb.i)]
    if auxes:
        first = auxes[0]
        going = sent.head(verb)
        be = [a for a in sent.kids(going.i, "aux") if a.lemma.lower() == "be"] if verb.dep == "xcomp" else []
        if first.tag == "TO" and going.text.lower() == "going" and be:
            _negate_operator(work, be[0], going)  # the future: "I'm going to start" -> "I'm not going to start"
        elif first.tag == "TO":
            work.insert_before(first.i, ["not"])
        elif _negated_after(sent, first):  # the auxiliary's own negation: "cannot not remember"
            work.insert_before(verb.i, ["not"])
        else:
            _negate_operator(work, first, verb)
        return
    if verb.lemma.lower() == "be" or verb.tag == "MD":
        _negate_operator(work, verb, verb)
        return
    polite = any(k.text.lower() == "please" for k in sent.kids(verb.i))  # "so please clear" -> "so please do not clear"
    finite = verb.tag in ("VBZ", "VBD", "VBP") or (
        verb.tag == "VB" and (verb.dep == "ROOT" or sent.subject(verb.i) is not None or polite)
    )
    # a main verb tagged as a participle with a subject and no auxiliary is a past tense the tagger misread
    # ("The whole family assembled in the drawing room": VBN)
    misread_past = verb.tag == "VBN" and verb.dep == "ROOT" and sent.subject(verb.i) is not None
    if finite or misread_past:
        tag, lemma = ("VBD" if misread_past else verb.tag), verb.lemma
        if _conjunct_of_an_order(sent, verb):
            tag = "VB"  # "Wash the cups and put them away" (put: VBD) -> "and do not put them away"
        past = morph.past_tense_lemma(verb.text) if tag in ("VBP", "VBZ") else None
        if past is not None:  # "the bells rang" tagged VBP: "did not ring", not "do not rang"
            tag, lemma = "VBD", past
        do = {"VBZ": "does", "VBD": "did"}.get(tag, "do")
        at, inside = verb.i, {verb.i}
        while (
            at > 0
            and sent.tok(at - 1).dep == "advmod"
            and sent.tok(at - 1).head in inside
            and (sent.tok(at - 1).text.lower() not in _SENTENCE_ADVERBS)
        ):
            at -= 1  # "always forgets" -> "does not always forget"; "quickly treated" -> "did not quickly treat"
            inside.add(at)  # and the adverb's own adverb: "so often conceals" -> "does not so often conceal"
        shout = verb.text.isupper() and len(verb.text) > 1
        work.insert_before(at, [morph.match_case(do, verb.text), "NOT"] if shout else [do, "not"])
        work.replace(verb.i, morph.base_form(verb.text, lemma, tag))
    else:  # participle, gerund or bare infinitive: "not sitting", "not eaten"
        work.insert_before(verb.i, ["not"])


def _conjunct_of_an_order(sent: Sentence, verb: Token) -> bool:
    """``verb`` is coordinated, without a subject, with an imperative ("Wash the cups and put them away")."""
    head = sent.head(verb)
    order = head.tag == "VB" and head.dep == "ROOT" and sent.subject(head.i) is None
    return verb.dep == "conj" and order and sent.subject(verb.i) is None


def _negate_operator(work: Work, op: Token, clause: Token) -> None:
    """``not`` after a finite auxiliary/copula/modal; after the subject when it is inverted (questions)."""
    sent = work.sent
    subj = sent.subject(clause.i) or sent.subject(op.i)
    if subj is not None and subj.i > op.i:
        work.insert_after(max(sent.subtree(subj.i)), ["not"])
    elif op.text.lower() == "can":
        work.replace(op.i, morph.match_case("cannot", op.text))
    elif (contracted := _contracted_negative(sent, op)) is not None:
        work.detach(op.i)  # "I'll cook" -> "I won't cook", not the stiff "I'll not cook"
        work.replace(op.i, contracted)
    else:
        at = op.i
        while (
            at + 1 < len(sent.tokens)
            and sent.tok(at + 1).dep == "advmod"
            and sent.tok(at + 1).text.lower() in _SPEAKER_ADVERBS
        ):
            at += 1  # "will certainly forbid" -> "will certainly not forbid", not "will not certainly forbid"
        work.insert_after(at, ["not" if not op.text.isupper() else "NOT"])


_CONTRACTED_NEGATIVES = {"'ll": "won't", "'ve": "haven't"}


def _contracted_negative(sent: Sentence, op: Token) -> str | None:
    """The negative of a contracted "'ll", "'ve" or "'d" (``won't``, ``haven't``; ``wouldn't`` before a bare verb,
    ``hadn't`` before a participle), or None for any other operator: "I'll not cook" and "I'd not left" read stiff,
    while "I'm not", "we're not" and "it's not" are what people say and stay.

    A speaker adverb after the operator keeps the long form ("I'll certainly not").
    """
    low = op.text.lower()
    nxt = sent.tok(op.i + 1) if op.i + 1 < len(sent.tokens) else None
    if nxt is None or nxt.text.lower() in _SPEAKER_ADVERBS or op.text.isupper():
        return None
    if low == "'d":
        return {"VB": "wouldn't", "VBN": "hadn't"}.get(nxt.tag)
    return _CONTRACTED_NEGATIVES.get(low)


def _negate_noun(work: Work, noun: Token) -> None:
    sent = work.sent
    if noun.dep in ("compound", "poss", "appos", "nummod", "amod"):
        raise Unrealizable(f"cannot negate '{noun.text}' ({noun.dep}) on the surface")
    if noun.dep == "conj" and sent.head(noun).dep in ("compound", "amod", "nmod"):
        raise Unrealizable(f"cannot negate '{noun.text}': it is a conjunct inside a modifier")
    blockers = sent.kids(noun.i, "poss", "nummod", "quantmod", "predet") + [
        k for k in sent.kids(noun.i, "amod") if k.text.lower() in DET_LIKE
    ]
    if blockers:
        raise Unrealizable(
            f"cannot negate '{sent.phrase_text(sent.subtree(noun.i))}' with 'no': it already has '{blockers[0].text}'"
        )
    dets = sent.kids(noun.i, "det")
    if dets:
        det = dets[0]
        if det.text.lower() not in _NEGATABLE_DETS:
            raise Unrealizable(f"cannot negate '{det.text} {noun.text}' with 'no'")
        work.replace(det.i, morph.match_case("no", det.text))
    else:
        work.insert_before(min(sent.subtree(noun.i)), ["no"])


def _negation_tokens(sent: Sentence, var: str, concepts: Mapping[str, str]) -> list[Token]:
    key = f"{var}:polarity"
    if sent.alignment.get(key):
        return [sent.tok(i) for i in sorted(set(sent.alignment[key])) if 0 <= i < len(sent.tokens)]
    tok = sent.node_head(var, concepts)
    if tok.text.lower() in _NEG_WORDS:
        return [tok]
    heads = [tok]
    if tok.dep in ("aux", "auxpass", "acomp", "attr", "oprd"):
        heads.append(sent.head(tok))
    found = [
        k
        for h in heads
        for k in sent.kids(h.i)
        if k.dep == "neg" or (k.text.lower() in _NEG_WORDS and k.dep in ("det", "advmod", "neg", "preconj"))
    ]
    return sorted({k.i: k for k in found}.values(), key=lambda t: t.i)


def _unnegate(work: Work, var: str, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    negs = _negation_tokens(sent, var, concepts)
    if not negs:
        tok = sent.node_head(var, concepts)
        raise Unrealizable(f"no negation word found for '{tok.text}' to remove")
    for neg in negs:
        _remove_negation(work, neg)


def _remove_negation(work: Work, neg: Token) -> None:
    sent = work.sent
    low = neg.text.lower()
    if low in ("not", "n't"):
        prev = sent.tok(neg.i - 1) if neg.i > 0 else None
        verb = sent.head(neg)
        if prev is not None and low == "n't" and prev.text.lower() in _CONTRACTED_OPERATORS:
            work.replace(prev.i, morph.match_case(_CONTRACTED_OPERATORS[prev.text.lower()], prev.text))
        if prev is not None and _is_do_support(sent, prev, verb):
            work.delete(prev.i)
            if prev.tag in ("VBZ", "VBD"):
                form = morph.inflect(verb.lemma.lower(), prev.tag)
                work.replace(verb.i, morph.match_case(form, verb.text) if verb.text.isupper() else form)
        work.delete(neg.i)
    elif low == "never":
        work.delete(neg.i)
    elif low == "no":
        head = sent.head(neg)
        if head.pos in ("ADV", "ADJ") or head.tag in ("JJR", "RBR"):  # "no longer" has no positive "a longer"
            raise Unrealizable(f"cannot un-negate '{neg.text} {head.text}' by removing '{neg.text}'")
        if head.text.lower() == "one" and head.i == neg.i + 1:  # "spoke to no one" -> "spoke to someone"
            work.replace(neg.i, morph.match_case("someone", neg.text))
            work.delete(head.i)
            return
        mass = head.lemma.lower() in _MASS_NOUNS or head.lemma.lower().endswith(_MASS_SUFFIXES)
        in_phrase = head.dep == "pobj"  # "of no consequence" -> "of some consequence", not "of a consequence"
        word = "some" if head.tag in ("NNS", "NNPS") or mass or in_phrase else "a"  # a/an: fix_articles
        work.replace(neg.i, morph.match_case(word, neg.text))
    elif low in _POSITIVE:
        work.replace(neg.i, morph.match_case(_POSITIVE[low], neg.text))
    else:
        raise Unrealizable(f"cannot remove the negation carried by '{neg.text}'")


def _is_do_support(sent: Sentence, aux: Token, verb: Token) -> bool:
    """``does``/``did``/``do`` that only carries a negation (``does not bite``), not a question's inversion."""
    if aux.lemma.lower() != "do" or aux.dep != "aux" or aux.head != verb.i or verb.tag != "VB":
        return False
    subj = sent.subject(verb.i)
    return subj is None or subj.i < aux.i
