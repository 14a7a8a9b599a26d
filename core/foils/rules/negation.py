"""PN, polarity negation: ``:polarity -`` on the main predicate, a clause's predicate, or a subject's
determiner that becomes "no"; a node already negated is un-negated (docs/foil-rules.md).

>>> from core.foils.amr.graph import decode
>>> from core.types import ParsedSentence
>>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
>>> [e.description for e in pn_edits(p)][:1]
['negate chase-01 (main predicate)']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from itertools import pairwise

from core.foils.amr.graph import (
    ADJUNCT_ROLES,
    POLARITY,
    add_attribute,
    remove_attribute,
)
from core.foils.rules.index import (
    GraphIndex,
    below,
    build_edit,
    dependents,
    governor,
    head_token,
    index_for,
    little_degree,
    main_of,
    misagreed,
    quoted,
    vars_by_head,
    wrong_form,
)
from core.foils.rules.negation_guards import (
    SUBJECT_DEPS,
    alternative_question,
    at_last,
    awkward_to_negate,
    not_but,
    presupposes_its_subject,
    yes_no_question,
)
from core.foils.rules.variants import DEFAULT_VARIANTS, VARIANTS, _check_variants
from core.types import Edit, ParsedSentence, Token

_CLAUSE_DEPS = frozenset({"advcl", "ccomp", "conj", "relcl", "xcomp"})
# Subjects only: "A boy found" -> "No boy found"; an object's "no" reads stiffly ("caught no early train").
_NO_DETS = frozenset({"a", "an", "some", "every", "each"})  # quantifying determiners: "A boy found" -> "No boy found"
_PLURAL_NO_DETS = frozenset({"the", "these", "those"})  # only before a plural: "fed the pigeons" -> "fed no pigeons"
_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
NEGATIVE_CONCEPTS = frozenset({"nobody", "nothing", "none", "no-one", "neither", "nowhere"})


def _negative_argument(idx: GraphIndex, var: str) -> bool:
    """An argument of ``var`` is already negative ("Nobody knew", "No student passed": ``:polarity -`` on the
    noun): negating ``var`` too makes a double negation ("Nobody did not know")."""
    return any(
        role.startswith(":ARG") and (idx.concepts.get(child) in NEGATIVE_CONCEPTS or idx.negated(child))
        for role, child in idx.out.get(var, ())
    )


NEGATIVE_WORDS = frozenset(
    {"no", "nobody", "nothing", "none", "neither", "nor", "nowhere", "never", "scarcely", "hardly", "barely", "seldom",
     "rarely"}
)  # fmt: skip
_NEGATIVE_QUANTIFIERS = frozenset({"little", "few"})
"""Without "a", a subject or object quantifier is negative: "Little was said" -> "Little was not said"."""
NEGATIVE_GOVERNORS = frozenset({"fail", "refuse", "decline", "deny", "avoid", "prevent", "neglect", "forget", "cease"})
"""Verbs whose clause is already negative in meaning: "failed to reach a deal" -> "failed not to reach" is a double
negation."""
TIME_SUBORDINATORS = frozenset({"before", "after", "until", "till", "since", "once"})
"""A clause they introduce is a point in time, not a claim: "before the guests did not arrive", "by the time the
frost had not lifted" are not English."""
POSITIVE_POLARITY_ADVERBS = frozenset(
    {"already", "still", "finally", "even", "somewhat", "rather", "pretty", "fairly", "quite", "slightly", "somehow",
     "only", "sooner", "almost"}
)  # fmt: skip
"""Adverbs that resist negation (positive polarity items): "are not finally turning red", "was not eaten before I
even got home", "did not rise slightly" read clearly worse than the source, so a clause with one is not negated;
nor one with the focus word "only" ("was not only removed" reads as "not only ... but also"), "would sooner ...
than" or "almost every" ("did not walk along the beach almost every evening")."""
NEGATIVE_POLARITY_WORDS = frozenset(
    {"any", "anything", "anyone", "anybody", "anywhere", "ever", "yet", "anymore", "either", "until", "till", "nor",
     "whatsoever", "strictly", "necessarily", "altogether"}
)  # fmt: skip
"""Words that need a negation (negative polarity items, "until" after a negated verb: "could not sleep until
dawn", a following "nor", and "not strictly", "not necessarily"): un-negating their clause leaves "said she had
received any money", "works anymore", "was a man to be frightened by a dog, nor by a wolf", "though strictly
handsome"."""
_NPI_PHRASES = (
    ("at", "all"), ("a", "word"), ("a", "soul"), ("a", "thing"), ("a", "wink"), ("a", "penny"), ("n't", "even"),
    ("not", "even"), ("a", "single"),
)  # fmt: skip
"""Minimisers that need a negation: "had not touched it at all" -> "had touched it at all", "would not say a
word" -> "would say a word", "a painting he didn't even like" -> "a painting he even liked", "no one could name a
single suitor" -> "someone could name a single suitor"."""
_BARE_INFINITIVE_GOVERNORS = frozenset({"help", "make", "let", "have", "see", "watch", "hear", "feel", "bid", "bade"})
"""Verbs taking a bare infinitive clause, which does not negate by do-support: "helps fish do not survive"."""
_ASKING_VERBS = frozenset({"ask", "wonder", "check", "know", "see", "inquire", "enquire"})
_NPI_TIME = frozenset(
    {"years", "months", "weeks", "days", "ages", "decades", "hours"}
)  # "not heard from him in months"


def _clause_tokens(parsed: ParsedSentence, tok: Token) -> list[Token]:
    """``tok`` and its dependents, not descending into other clauses."""
    return below(parsed, tok, _CLAUSE_DEPS)


def _clause_head(parsed: ParsedSentence, var: str) -> Token | None:
    """The verb of ``var``'s clause: its head word, or for a modal's node ("could" as possible-01) the verb the
    modal goes with; None when unaligned."""
    tok = head_token(parsed, var)
    if tok is not None and tok.dep in ("aux", "auxpass") and 0 <= tok.head < len(parsed.tokens):
        return parsed.tokens[tok.head]
    return tok


def _already_negative(parsed: ParsedSentence, var: str) -> bool:
    """The clause of ``var`` already carries a negative word ("could scarcely afford", "spoke of it to no one") or
    hangs under a negative verb ("failed to reach"): negating it makes a double negation."""
    tok = _clause_head(parsed, var)
    if tok is None:
        return False
    scope = [t for t in below(parsed, tok, frozenset({"relcl", "advcl", "conj"})) if t.i != tok.i]
    if any(t.text.lower() in NEGATIVE_WORDS for t in scope) or not_but(parsed, scope):
        return True  # the clause or a complement below it: "did not make sure that no two rivals ..."
    if any(t.dep == "neg" and parsed.tokens[t.head].pos in ("NOUN", "NUM", "PRON", "DET") for t in scope):
        return True  # a negated phrase: "not one of the congregation could not recall"
    clause = [t for t in _clause_tokens(parsed, tok) if t.i != tok.i]
    quantifiers = [t for t in clause if t.text.lower() in _NEGATIVE_QUANTIFIERS and t.dep in SUBJECT_DEPS | {"dobj"}]
    if any(not dependents(parsed, t, "det") for t in quantifiers):
        return True  # "Little was said", "Few came"
    above = governor(parsed, tok) if tok.dep in ("xcomp", "ccomp") else None
    return above is not None and above.lemma.lower() in NEGATIVE_GOVERNORS


def _resists_negation(parsed: ParsedSentence, var: str, determiner: bool = False) -> bool:
    """The clause of ``var`` (of its verb, for a subject whose determiner becomes "no") has a positive polarity
    adverb ("finally", "already", "even"): negation reads badly."""
    head = None
    if determiner:
        tok = head_token(parsed, var)
        if tok is None or not 0 <= tok.head < len(parsed.tokens):
            return False
        clause = _clause_tokens(parsed, parsed.tokens[tok.head])
    else:
        head = _clause_head(parsed, var)
        clause = _clause_tokens(parsed, head) if head is not None else []
    if head is not None and any(_degree_phrase(parsed, t) for t in dependents(parsed, head)):
        return True
    times = [c for t in clause for c in dependents(parsed, t, "advcl")]  # "was eaten before I even got home"
    clause = clause + [t for c in times for t in _clause_tokens(parsed, c)]
    if any(t.text.lower() in POSITIVE_POLARITY_ADVERBS and t.dep == "advmod" for t in clause):
        return True
    kids = dependents(parsed, head) if head is not None else []
    if any(k.text.lower() in ("at", "last") and at_last(parsed, k) for k in kids):
        return True  # "at last", as "finally": "the fever did not break at last"
    return not determiner and head is not None and awkward_to_negate(parsed, head)


def _degree_phrase(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` ends "a little", "a bit" or "but little" used of its verb, a degree that resists negation: "her hands
    did not tremble a little", "did not hesitate a bit" (now: not at all), "did not sleep but little"."""
    return tok.dep in ("dobj", "npadvmod", "advmod", "conj") and little_degree(parsed, tok, ("little", "bit"))


def _as_comparison(words: Sequence[str]) -> bool:
    """The words after "so X" hold the "as" of a comparison within three words ("so hard to bear as the pretence"),
    not the "as to" of a result ("so tired as to fall asleep", which needs no negation)."""
    at = next((i for i, w in enumerate(words[:3]) if w == "as"), None)
    return at is not None and words[at + 1 : at + 2] != ["to"]


def _needs_negation(parsed: ParsedSentence, var: str) -> bool:
    """The scope of the negated ``var`` (its clause and the clauses below it, but not relative clauses: "did not
    say she had received any money", "could not bring herself to read it until dawn") has a negative polarity item
    ("any money", "in many months", "until the household had retired", "anymore"): un-negating it is not English."""
    head = _clause_head(parsed, var)
    if head is not None and head.pos in ("NOUN", "PROPN", "NUM", "PRON") and 0 <= head.head < len(parsed.tokens):
        head = parsed.tokens[head.head]  # "no two people ... were ever seated": the clause of the negated noun
    scope = below(parsed, head, frozenset({"relcl"})) if head is not None else []
    words = [t.text.lower() for t in sorted(scope, key=lambda t: t.i)]
    if any(w in NEGATIVE_POLARITY_WORDS for w in words) or set(pairwise(words)) & set(_NPI_PHRASES):
        return True
    if head is not None and not_but(parsed, [head, *scope]):
        return True  # "contained not the gloves but a clock" -> "contained the gloves but a clock"
    if any(w == "so" and _as_comparison(words[i + 2 : i + 6]) for i, w in enumerate(words)):
        return True  # "no vanity so obstinate as", "not so hard to bear as": the comparison needs the negation
    if head is not None and any(t.text.lower() == "nor" for t in parsed.tokens[head.i :]):
        return True  # "was not a man to be frightened by a dog, nor by a wolf"
    if head is not None and "still" in words and any(a.lemma == "have" for a in dependents(parsed, head, "aux")):
        return True  # "still hasn't returned it" -> "still has returned it"
    return any(w == "in" and (set(words[i + 1 : i + 3]) & _NPI_TIME) for i, w in enumerate(words))


def _in_comparison(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` heads the clause of a comparison ("longer than I expected", "as soon as she could"): negated, it
    reads "longer than I did not expect"."""
    marks = [t.text.lower() for t in dependents(parsed, tok) if t.dep in ("mark", "advmod", "prep") and t.i < tok.i]
    head = governor(parsed, tok)
    if head is not None and tok.dep == "relcl" and _superlative(parsed, head):
        return True  # "the best meal we have eaten" -> "the best meal we have not eaten"
    compared = governor(parsed, head) if head is not None else None
    if tok.dep == "relcl" and compared is not None and compared.text.lower() in ("than", "as"):
        return True  # "friendlier than the one we had before" -> "than the one we did not have before"
    return "than" in marks or (head is not None and head.text.lower() in ("than", "as") and head.pos == "ADP")


def _superlative(parsed: ParsedSentence, noun: Token) -> bool:
    """The noun is or has a superlative or an ordinal-like modifier ("the worst", "the best meal", "the first")."""
    words = [noun, *dependents(parsed, noun, "amod", "advmod")]
    return any(t.tag in ("JJS", "RBS") or t.text.lower() in _ORDINAL_WORDS for t in words)


_ORDINAL_WORDS = frozenset({"first", "last", "only", "next", "latest", "final", "same", "previous"})
"""Modifiers that pick out one thing in a series: "no" cannot quantify them ("catch no last train", "rejected no
latest offer", "no last apples hung": 0 usable of 11 judged)."""


def _under_negative_clause(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` heads a complement or relative clause of a clause that is already negative ("Nobody knew where the
    curate had come from", "I don't think she came"): negating it too makes a double negation."""
    if tok.dep not in ("ccomp", "xcomp", "relcl", "advcl") or not 0 <= tok.head < len(parsed.tokens):
        return False
    clause = parsed.tokens[tok.head]
    while clause.dep not in _CLAUSE_DEPS | {"ROOT"} and (up := governor(parsed, clause)) is not None:
        clause = up  # the clause of the noun a relative clause hangs on
    outer = [t for t in _clause_tokens(parsed, clause) if t.i != tok.i]
    if any(t.text.lower() in _NEGATIVE_QUANTIFIERS and t.dep in SUBJECT_DEPS for t in outer):
        return True  # "few could recall a thing he had said"
    return any(t.text.lower() in NEGATIVE_WORDS or t.dep == "neg" for t in outer)


def _in_time_clause(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is (in) a clause introduced by "before", "after", "until", "since", "once" or "by the time"."""
    clause = tok
    while clause.dep not in ("advcl", "ROOT") and 0 <= clause.head < len(parsed.tokens) and clause.head != clause.i:
        clause = parsed.tokens[clause.head]
    verb = tok if tok.pos in ("VERB", "AUX") or not 0 <= tok.head < len(parsed.tokens) else parsed.tokens[tok.head]
    own = min(t.i for t in _clause_tokens(parsed, verb))
    before = [t.text.lower() for t in parsed.tokens[max(0, own - 3) : own]]
    if before == ["by", "the", "time"] or before[-2:] in (["every", "time"], ["each", "time"]):
        return True  # "barks every time a car pulls in"; "by the time" read as a relative clause of "time"
    if before[-2:-1] == ["the"] and before[-1:] in (["moment"], ["minute"], ["instant"], ["second"]):
        return True  # "betrayed her the moment he entered the room" -> "the moment he did not enter"
    opening = [t.text.lower() for t in parsed.tokens[own : own + 3]]
    if opening == ["by", "the", "time"]:
        return True  # "By the time the coach reached ..." parsed with "by the time" as the verb's own phrase
    if clause.dep != "advcl":
        return False
    marks = [t for t in dependents(parsed, clause) if t.dep in ("mark", "advmod", "prep") and t.i < clause.i]
    if any(t.text.lower() in TIME_SUBORDINATORS for t in marks):
        return True
    first = min(t.i for t in _clause_tokens(parsed, clause))
    return [t.text.lower() for t in parsed.tokens[max(0, first - 3) : first]] == ["by", "the", "time"]


def _negation_target(parsed: ParsedSentence, idx: GraphIndex, main: str | None) -> str | None:
    """The predicate PN negates as the main one: the result clause of a top ``cause-01`` ("We did not have to cancel
    the picnic because it rained", not "... not because it rained"; the verb "cause" is itself the predicate:
    "Heavy rain did not cause the river to burst", not "caused the river not to burst"), and the reported clause of
    a parenthetical reporting verb ("The fire destroyed no barns, officials said": "officials did not say Wednesday"
    reads badly)."""
    if main is None:
        return None
    verb = head_token(parsed, main)
    if idx.concepts.get(main) == "cause-01" and not (verb is not None and verb.lemma.lower() == "cause"):
        result = next((child for role, child in idx.out.get(main, ()) if role == ":ARG1"), None)
        return result if result is not None and idx.eligible(result) else main
    tok = head_token(parsed, main)
    reported = [k for k in dependents(parsed, tok, "ccomp") if k.i < tok.i] if tok is not None else []
    if reported:  # the report, or nothing: "..., the report did not say" reads clearly worse
        heads = vars_by_head(parsed, idx)
        words = [reported[0], *dependents(parsed, reported[0], "acomp", "attr")]
        return next((heads[t.i] for t in words if t.i in heads and idx.eligible(heads[t.i])), None)
    return main


def _clause_predicates(parsed: ParsedSentence, idx: GraphIndex, main: str | None) -> list[str]:
    """Predicates of subordinate, complement and coordinated clauses ("if it rains", "that she came")."""
    out = []
    for var in idx.order:
        tok = head_token(parsed, var)
        if var == main or tok is None or not idx.eligible(var) or idx.named(var):
            continue
        clause = tok.pos in ("VERB", "AUX") and tok.dep in _CLAUSE_DEPS
        if not (clause and _finite(parsed, tok)):
            continue
        if any(role in ADJUNCT_ROLES for _, role in idx.into.get(var, ())):
            continue  # the time or place of an event ("was pleased when he did not present him"): validation refuses it
        if _bare_or_asked(parsed, tok) or alternative_question(parsed, tok):
            continue
        if _shares_auxiliary(parsed, tok):
            continue  # "will close 35 stores and did not cut 1,200 jobs"
        if not (_in_time_clause(parsed, tok) or _in_comparison(parsed, tok) or _under_negative_clause(parsed, tok)):
            out.append(var)
    return out


def _bare_or_asked(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` heads a bare infinitive clause ("helps fish survive" -> "helps fish do not survive") or an indirect
    yes/no question ("ask whether they offer a trial" asks what "ask whether they do not offer" asks)."""
    if not 0 <= tok.head < len(parsed.tokens):
        return False
    head = parsed.tokens[tok.head]
    present_under_past = tok.tag in ("VB", "VBP") and head.tag == "VBD"
    base_under_present = tok.tag == "VB" and head.tag in ("VBZ", "VBP")
    if tok.dep == "conj" and (present_under_past or base_under_present) and not dependents(parsed, tok, "aux", "nsubj"):
        return True  # a bare infinitive read as a conjunct: "gave the boy a shilling and bade him hold his tongue"
    if tok.dep not in ("ccomp", "xcomp"):
        return False
    verb = head.lemma.lower()
    marks = {t.text.lower() for t in dependents(parsed, tok, "mark", "aux")}
    if verb in _BARE_INFINITIVE_GOVERNORS and not marks:
        return True
    return "whether" in marks or ("if" in marks and verb in _ASKING_VERBS)


def _has_aux(parsed: ParsedSentence, verb: Token | None) -> bool:
    return verb is not None and bool(dependents(parsed, verb, "aux", "auxpass"))


def _shares_auxiliary(parsed: ParsedSentence, tok: Token) -> bool:
    """A coordinated verb without an auxiliary of its own after one that has one, in a form an auxiliary may govern
    (a base form or a participle: "will close 35 stores and cut 1,200 jobs", "had cooked and made the beds"); a
    form that can only be a past tense has its own ("had served twenty years in India and spoke of it constantly"
    -> "... and did not speak of it constantly")."""
    from lemminflect import getInflection

    from core.foils.realize.morph import base_form

    if tok.dep != "conj" or dependents(parsed, tok, "aux", "auxpass") or not _has_aux(parsed, governor(parsed, tok)):
        return False
    lemma, word = base_form(tok.text, tok.lemma, tok.tag), tok.text.lower()
    return any(word in getInflection(lemma, tag=tag) for tag in ("VB", "VBN", "VBG")) or word == lemma


def _finite(parsed: ParsedSentence, tok: Token) -> bool:
    """A finite clause (its verb or an auxiliary of it carries tense): "if it does not rain", not the infinitive or
    gerund of "left not to pursue a career", "hates not waiting"."""
    return tok.tag in _FINITE_TAGS or any(t.tag in _FINITE_TAGS for t in dependents(parsed, tok, "aux", "auxpass"))


NO_IDIOMS = frozenset({"end", "shortage", "lack", "doubt", "question", "wonder", "matter", "way"})
"""Nouns that make an idiom with "no", which says something else than the negation: "put an end to" -> "put no end
to", "a shortage of staff" -> "no shortage of staff" (plenty of it): 0 of 2 judged usable."""


def _takes_no(det: Token, noun: Token) -> bool:
    """The determiner can become "no": a quantifying one always, a definite one only before a plural ("the
    pigeons" -> "no pigeons"; "fixed the leaking pipe" -> "fixed no leaking pipe" does not read as English), and
    never before a noun of :data:`NO_IDIOMS`."""
    word = det.text.lower()
    if noun.lemma.lower() in NO_IDIOMS:
        return False
    return word in _NO_DETS or (word in _PLURAL_NO_DETS and noun.tag == "NNS")


def _negatable_arguments(parsed: ParsedSentence, idx: GraphIndex) -> list[str]:
    """Subject nouns with a determiner that can become "no" ("A boy found" -> "No boy found"), never inside a
    prepositional phrase or a time clause, never when their predicate is already negated or its clause presupposes
    the subject (:func:`~core.foils.rules.negation_guards.presupposes_its_subject`). Objects are left alone:
    "caught no early train", "rejected no proposal" read clearly worse than "did not catch the early train"."""
    heads = vars_by_head(parsed, idx)
    out = []
    for var in idx.order:
        tok = head_token(parsed, var)
        if tok is None or tok.pos != "NOUN" or tok.dep not in SUBJECT_DEPS or not idx.eligible(var):
            continue
        if idx.negated(var) or idx.named(var):
            continue
        kids = dependents(parsed, tok)
        dets = [t for t in kids if t.dep == "det"]
        if not dets or not _takes_no(dets[0], tok) or any(t.dep in ("poss", "nummod", "predet") for t in kids):
            continue
        if _in_time_clause(parsed, tok) or _refers_back_or_litotes(parsed, tok) or _superlative(parsed, tok):
            continue  # "before no guests arrived"; "no last apples hung"
        pred = heads.get(tok.head)
        if pred is None or idx.negated(pred) or any(t.head == tok.head and t.dep == "neg" for t in parsed.tokens):
            continue  # "did not like no tea": a double negation
        verb = governor(parsed, tok)
        if verb is not None and (_negative_or_asked(parsed, verb) or presupposes_its_subject(parsed, verb)):
            continue
        out.append(var)
    return out


_WH_WORDS = frozenset({"how", "why", "what", "whether", "where", "when", "which", "who"})


def _negative_or_asked(parsed: ParsedSentence, verb: Token) -> bool:
    """The clause of a subject's verb has a negative word ("no visitor scarcely dared": a double negation) or is an
    indirect question ("wondered how no man ought to begin" reads clearly worse than the source)."""
    clause = _clause_tokens(parsed, verb)
    if any(t.text.lower() in NEGATIVE_WORDS for t in clause if t.dep != "det"):
        return True
    return verb.dep in ("ccomp", "xcomp") and any(t.text.lower() in _WH_WORDS and t.i < verb.i for t in clause)


def _refers_back_or_litotes(parsed: ParsedSentence, noun: Token) -> bool:
    """A later pronoun may refer to the noun ("No stray dog followed them home and they fed it"), the noun has an
    appositive name ("No opposition leader, Thomas Okonjo,"), reports a clause before it ("..., no spokesperson
    confirmed"), is the subject of a "when" clause ("hurt when no bus skidded") or "no" would make a litotes ("No
    small fortune")."""
    later = {t.text.lower() for t in parsed.tokens[noun.i + 1 :]}
    if later & {"it", "its", "they", "them", "their", "he", "him", "his", "she", "her"}:
        return True
    if dependents(parsed, noun, "appos"):
        return True  # "No opposition leader, Thomas Okonjo, accused ..."
    verb = governor(parsed, noun) or noun
    if any(k.i < verb.i for k in dependents(parsed, verb, "ccomp")):
        return True  # the subject of a parenthetical report: "..., no spokesperson confirmed"
    if verb.dep == "advcl" and any(t.text.lower() == "when" for t in dependents(parsed, verb, "advmod", "mark")):
        return True
    return any(t.text.lower() in ("small", "little", "mean", "great") for t in dependents(parsed, noun, "amod"))


def pn_edits(parsed: ParsedSentence, variants: Sequence[str] = DEFAULT_VARIANTS["PN"]) -> list[Edit]:
    """Polarity negation (docs/foil-rules.md):

    - ``main-predicate``: negate the main predicate (do-support, modals, copulas);
    - ``clause-predicate``: negate the predicate of a subordinate, complement or coordinated clause;
    - ``determiner``: a subject noun phrase's determiner becomes "no" ("A boy found" -> "No boy found");
    - ``unnegate``: an already negated node loses its negation (always offered where a negation exists);
    - ``any-node`` (opt-in, the released code's behaviour): any eligible node, including nouns in phrases.
    """
    _check_variants("PN", variants, VARIANTS["PN"])
    idx = index_for(parsed)
    targets: list[tuple[str, str]] = []  # (var, where)
    main = _negation_target(parsed, idx, main_of(idx, parsed.graph.top))
    question = yes_no_question(parsed)
    main_tok = head_token(parsed, main) if main is not None else None
    in_time = main_tok is not None and main_tok.pos in ("VERB", "AUX") and _in_time_clause(parsed, main_tok)
    if "main-predicate" in variants and main is not None and not (question and not idx.negated(main)) and not in_time:
        targets.append((main, "main predicate"))  # not a time clause read as the main one ("By the time ... did not")
    if "clause-predicate" in variants:
        targets += [(v, "clause predicate") for v in _clause_predicates(parsed, idx, main)]
    if "determiner" in variants:
        targets += [(v, "subject determiner") for v in _negatable_arguments(parsed, idx)]
    if "any-node" in variants:
        targets += [
            (v, "any node") for v in idx.order if idx.eligible(v) and not idx.named(v)
        ]  # a named entity ("no Paris") has no surface negation
    if "unnegate" in variants:
        targets += [(v, "negated node") for v in idx.order if idx.negated(v)]
    edits = []
    seen: set[str] = set()
    for var, where in targets:
        if var in seen:
            continue
        seen.add(var)
        tok = head_token(parsed, var)
        if tok is not None and (quoted(parsed, tok.i) or misagreed(parsed, tok) or wrong_form(tok)):
            continue  # inside a title or quotation; a word the tagger took for a verb
        if idx.negated(var):
            if "unnegate" not in variants and where not in ("main predicate", "any node"):
                continue
            if _needs_negation(parsed, var):
                continue
            action, variant, verb = "unnegate", "unnegate", "un-negate"
            make = partial(remove_attribute, idx.graph, (var, POLARITY, "-"))
        elif _negative_argument(idx, var) or _already_negative(parsed, var):
            continue  # a double negation
        elif _resists_negation(parsed, var, determiner=where == "subject determiner"):
            continue  # a positive polarity adverb
        elif tok is not None and tok.pos == "NOUN" and _refers_back_or_litotes(parsed, tok):
            continue  # a noun predicate's negation is its determiner's: "No opposition leader, Thomas Okonjo,"
        else:
            action, verb = "negate", "negate"
            variant = {
                "main predicate": "main-predicate",
                "clause predicate": "clause-predicate",
                "subject determiner": "determiner",
            }.get(where, "any-node")
            make = partial(add_attribute, idx.graph, var, POLARITY, "-")
        edited = build_edit("PN", parsed, idx, make)
        if edited is None:
            continue
        edits.append(
            Edit(
                rule="PN",
                variant=variant,
                description=f"{verb} {idx.label(var)} ({where})",
                nodes=(var,),
                source=parsed,
                edited=edited,
                details={"node": var, "action": action},
            )
        )
    return edits
