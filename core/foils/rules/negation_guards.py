"""Where PN's do-support negation of a verb reads clearly worse or is not English: set phrases ("Excuse me"), a
subject shared with a later verb, an existential with a bare plural, a subject after its verb ("Across the meadow
came the sound of bells"), a degree clause ("how deeply the remark had wounded her") and a "-ever" clause
("whatever she pleased"), where a negation has no place.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.foils.rules.index import dependents, governor
from core.types import ParsedSentence, Token

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})

FORMULAS = frozenset({("excuse", "me"), ("pardon", "me"), ("thank", "you"), ("let", "'s"), ("let", "’s")})
"""Set phrases that do not negate with do-support: "Do not excuse me, is this the way?", "Do not let's go"."""


AUXILIARIES = frozenset(
    {"be", "have", "do", "will", "would", "shall", "should", "can", "could", "may", "might", "must", "ought", "to",
     "need", "dare", "used", "get", "seem", "appear"}
)  # fmt: skip
"""The words a negation may follow as it follows an auxiliary: the auxiliaries, and "seem" / "appear", which the
parser sometimes files as one ("its chairs seemed not designed to ..."), where "helped not turn" is not English."""


SPEAKER_ADVERBS = frozenset(
    {"allegedly", "reportedly", "apparently", "supposedly", "presumably", "certainly", "surely", "probably",
     "evidently", "obviously", "undoubtedly"}
)  # fmt: skip
"""A speaker's comment on the claim, which takes scope over a negation: after an auxiliary the negation follows it
("will certainly not forbid"), but do-support puts it first ("did not allegedly drive": 0 of 2 judged usable)."""


def awkward_to_negate(parsed: ParsedSentence, verb: Token) -> bool:
    """The verb is a set phrase ("Excuse me", "Let's"), shares its subject with a verb coordinated after it ("the
    lamps guttered and failed" -> "did not gutter and failed"), is an existential with a bare plural ("There are
    people who" -> "There are not people who"), has its subject after it (:func:`inverted`), heads a degree clause
    (:func:`degree_clause`) or a "-ever" clause (:func:`free_relative`), has an "auxiliary" that is none
    (:data:`AUXILIARIES`) or a speaker's comment before it and no auxiliary (:data:`SPEAKER_ADVERBS`): do-support
    negation reads clearly worse."""
    after = parsed.tokens[verb.i + 1].text.lower() if verb.i + 1 < len(parsed.tokens) else ""
    if (verb.lemma.lower(), after) in FORMULAS:
        return True
    if inverted(parsed, verb) or degree_clause(parsed, verb) or free_relative(parsed, verb):
        return True
    if trailing_participle(parsed, verb):
        return True
    auxiliaries = dependents(parsed, verb, "aux", "auxpass")
    if any(a.lemma.lower() not in AUXILIARIES for a in auxiliaries if a.dep == "aux"):
        return True  # a verb the parser took for an auxiliary: "helped turn" -> "helped not turn"
    if not auxiliaries and any(a.text.lower() in SPEAKER_ADVERBS and a.i < verb.i for a in dependents(parsed, verb)):
        return True  # do-support puts "not" before the comment: "who allegedly drove" -> "who did not allegedly drive"
    if any(
        k.pos in ("VERB", "AUX") and not dependents(parsed, k, *SUBJECT_DEPS)
        for k in dependents(parsed, verb, "conj")
    ):
        return True
    copula = (governor(parsed, verb) if verb.dep == "attr" else None) or verb
    if dependents(parsed, copula, "expl"):  # "There are (some) kindnesses which" -> "There are not (some) kindnesses"
        attrs = [a for a in dependents(parsed, copula, "attr") if a.tag == "NNS"]
        return any({d.text.lower() for d in dependents(parsed, a, "det")} <= {"some"} for a in attrs)
    return False


def inverted(parsed: ParsedSentence, verb: Token) -> bool:
    """A lexical verb with its subject after it and no auxiliary: locative or quotative inversion ("Across the meadow
    came the sound of church bells" -> "Across the meadow did not come the sound", fluency 3), which do-support
    cannot negate."""
    if verb.pos != "VERB" or dependents(parsed, verb, "aux", "auxpass"):
        return False
    subjects = dependents(parsed, verb, "nsubj", "nsubjpass")
    if any(s.i > verb.i for s in subjects):
        return True
    fronted = [p for p in dependents(parsed, verb, "prep") if p.i == 0]  # "In the shrubbery grew a tangle(dobj)"
    after = dependents(parsed, verb, "dobj", "attr")
    return verb.tag in ("VBD", "VBZ", "VBP") and verb.dep == "ROOT" and not subjects and bool(fronted) and bool(after)


def degree_clause(parsed: ParsedSentence, verb: Token) -> bool:
    """The verb heads a clause opened by "how" and a degree word ("betrayed how deeply the remark had wounded her"
    -> "how deeply the remark had not wounded her": 0 of 2 judged usable, fluency 2 and 3)."""
    return any(
        h.text.lower() == "how" and d.pos in ("ADV", "ADJ") and d.i < verb.i
        for d in dependents(parsed, verb, "advmod", "acomp")
        for h in dependents(parsed, d, "advmod")
    )


_EVER_WORDS = frozenset({"whatever", "whoever", "whichever", "wherever", "whenever", "however"})


def free_relative(parsed: ParsedSentence, verb: Token) -> bool:
    """The verb heads a clause opened by a "-ever" word ("whatever injury his sister had done her" -> "whatever
    injury his sister had not done her", "whatever she pleased" -> "whatever she did not please": 0 of 2 judged
    usable): the clause ranges over every case, and a negation there makes no sense."""
    words = [d for d in dependents(parsed, verb) if d.i < verb.i]
    words += [k for d in words for k in dependents(parsed, d, "det")]
    words += [k for d in words if d.dep != "advcl" for k in dependents(parsed, d, "advmod")]  # "However little she"
    head = governor(parsed, verb)
    if verb.dep == "ccomp" and head is not None and head.i < verb.i:  # "however painful the interview might prove"
        words += dependents(parsed, head, "advmod")
    return any(w.text.lower() in _EVER_WORDS for w in words)


PARTICIPIAL_PREPOSITIONS = frozenset(
    {"according", "owing", "including", "following", "excluding", "concerning", "considering", "barring", "pending"}
)  # fmt: skip
"""Participles that work as prepositions ("..., according to figures published on Friday"): no act of their own."""


def trailing_participle(parsed: ParsedSentence, verb: Token) -> bool:
    """A participle clause follows the verb after a comma ("Flood defences were breached overnight, forcing the
    evacuation of 200 homes"; "Protesters gathered outside the town hall, urging officials to ..."): negated, its
    act or result hangs on a non-event. Fluency 2 by the protocol's decided case for a clause of result, which the
    judges since fresh36 apply to the others too (2 of 13 such foils usable there; the earlier rounds' judges had let
    nearly all pass as "slightly odd")."""
    clause = [verb, *dependents(parsed, verb, "xcomp", "ccomp")]  # "did not cause the river to burst, flooding"
    return any(
        k.tag == "VBG" and k.i > verb.i and parsed.tokens[k.i - 1].text == ","
        and k.lemma.lower() not in PARTICIPIAL_PREPOSITIONS and k.text.lower() not in PARTICIPIAL_PREPOSITIONS
        for v in clause
        for k in dependents(parsed, v, "advcl", "xcomp", "conj")
    )  # fmt: skip


def presupposes_its_subject(parsed: ParsedSentence, verb: Token) -> bool:
    """The clause of ``verb`` says that its subject exists, so "no" on that subject reads clearly worse: a clause a
    conjunction ties to another ("arrested two men after no lorry was stolen", "as no blizzard sweeps in") or one
    with a participle clause after its verb ("No landslide blocked the railway, stranding a school party"). In the
    judged sets 6 of 12 and 5 of 11 such foils were usable (2 of 8 since fresh24), against 89% of the other "no"
    subjects; "no gentleman was seen walking" (a participle the verb takes) stays."""
    if verb.dep == "advcl" and dependents(parsed, verb, "mark"):
        return True
    return any(k.tag == "VBG" and k.i > verb.i for k in dependents(parsed, verb, "advcl"))


def alternative_question(parsed: ParsedSentence, verb: Token) -> bool:
    """The verb heads the second half of an alternative question, its auxiliary before its subject ("Is the pool
    still shut, or has it reopened?"): negated, it asks the same thing ("or has it not reopened?", "or should I not
    drive into town?": 1 of 12 judged foils usable)."""
    if verb.dep != "conj" or not parsed.text.rstrip().endswith("?"):
        return False
    subjects = dependents(parsed, verb, "nsubj", "nsubjpass", "expl")
    auxiliaries = dependents(parsed, verb, "aux", "auxpass") + ([verb] if verb.pos == "AUX" else [])
    return any(a.i < s.i for a in auxiliaries for s in subjects)


def not_but(parsed: ParsedSentence, clause: Sequence[Token]) -> bool:
    """The clause holds a contrast "not X but Y" or "X, but not Y", its "not" on a phrase, not on the verb: negating
    the verb doubles the negation ("it did not contain not the gloves but a clock") and removing the "not" leaves
    "but" joining two phrases with no contrast ("contained the gloves but a clock"): not English, both (0 of 3
    judged usable)."""
    for t in clause:
        head = parsed.tokens[t.head]
        if t.dep != "neg" or head.pos in ("VERB", "AUX"):
            continue
        before = parsed.tokens[t.i - 1].text.lower() if t.i > 0 else ""
        if before == "but" or any(k.text.lower() == "but" for k in dependents(parsed, head, "cc")):
            return True  # "not the gloves but a clock"; "her bonnets, but not her opinions"
    return False


YES_NO_OPENERS = frozenset(
    {"be", "do", "have", "can", "could", "will", "would", "shall", "should", "may", "might", "must"}
)


def yes_no_question(parsed: ParsedSentence) -> bool:
    """A yes/no question ("Did you remember the milk?", "Sorry, could you ...?"): its negation asks the same question
    ("Did you not remember the milk?")."""
    if not parsed.text.rstrip().endswith("?"):
        return False
    toks = parsed.tokens
    comma = next((t.i for t in toks[:4] if t.text == ","), None)  # "Excuse me, would it be a nuisance ...?"
    starts = [0] + ([comma + 1] if comma is not None else [])
    firsts = [next((t for t in toks[i:] if t.pos != "PUNCT"), None) for i in starts]
    return any(t is not None and t.lemma.lower() in YES_NO_OPENERS for t in firsts)


def at_last(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is the "at" or the "last" of "at last", however the parser hung the two."""
    words = [t.text.lower() for t in parsed.tokens]
    return words[tok.i : tok.i + 2] == ["at", "last"] or (tok.i > 0 and words[tok.i - 1 : tok.i + 1] == ["at", "last"])
