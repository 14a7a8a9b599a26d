"""US, underspecification: drop what the sentence can do without (a modifier, an adjunct with its
preposition, an argument the PropBank frame marks optional), never leaving a dangling function word; the
released code's leaf removal is an opt-in variant (docs/foil-rules.md).

>>> from core.foils.amr.graph import decode
>>> from core.types import ParsedSentence
>>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
>>> [e.description for e in us_edits(p, ("leaf",))][:1]
['drop leaf cat (:ARG0 of chase-01)']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from core.foils.amr.graph import (
    remove_leaf,
    remove_node,
)
from core.foils.realize.morph import base_form, past_tense_lemma
from core.foils.rules.drop_guards import aligned_words, breaks_a_phrase, clock_time
from core.foils.rules.index import (
    NOUN_ADVERBIAL_DEPS,
    PRONOUNS,
    GraphIndex,
    below,
    build_edit,
    dependents,
    governor,
    head_token,
    index_for,
    quoted,
    word_pairs,
)
from core.foils.rules.lexicon import set_predicate
from core.foils.rules.variants import DEFAULT_VARIANTS, VARIANTS, _check_variants
from core.types import Edit, ParsedSentence, Token

_MODIFIER_ROLES = frozenset({":mod", ":manner", ":degree", ":quant"})
_ADJUNCT_ROLES = frozenset(
    {
        ":time", ":location", ":instrument", ":destination", ":source", ":direction", ":accompanier",
        ":beneficiary", ":duration", ":frequency", ":purpose", ":topic", ":manner", ":concession", ":path",
        ":medium", ":extent",
    }
)  # fmt: skip
_KEEP_WORDS = frozenset(
    {
        "every", "each", "all", "some", "any", "no", "more", "less", "most", "least", "few", "fewer", "many", "much",
        "several", "other", "another", "such", "only", "same", "own", "enough", "both", "either", "neither", "very",
        "too", "so", "than", "as", "not", "never", "also", "even", "just", "then", "halfway", "midway", "partway",
        "how", "however",
    }
)  # fmt: skip
"""Quantifier, determiner-like, degree and focus words US never drops alone: "every morning" -> "morning",
"more than 300" -> "than 300", "stopped halfway through the cycle" -> "stopped through the cycle" and "very" without
its adjective are not English, and "only"/"even" change scope."""
_EMPTY_DROPS = frozenset(
    {
        "still", "ever", "once", "single", "whole", "sooner", "rather", "honestly", "frankly", "seriously",
        "emphatically", "certainly", "really", "truly", "actually", "literally", "definitely", "indeed",
        "undisclosed",
    }
)  # fmt: skip
"""Words whose drop loses no meaning the judges could find (issue 12): concessive "still" after "although",
"ever"/"once" under a negation, "every single", "the whole class", the speaker's "honestly", "emphatically";
or breaks a comparison ("would sooner walk ... than"); or leaves an empty phrase ("for an undisclosed sum" -> "for a
sum", 0 of 2)."""
_EMPTY_PHRASES = frozenset({("of", "course"), ("in", "fact"), ("at", "once")})
"""Prepositional phrases of the speaker's stance, or fixed: "then, of course, three of them turned up"."""
_NOT_DROPPED = _KEEP_WORDS | _EMPTY_DROPS
_PP_GOVERNORS = frozenset(
    {"next", "close", "due", "according", "because", "instead", "ahead", "prior", "thanks", "those", "one", "ones"}
)  # fmt: skip
"""Words a prepositional phrase completes: "the coffee shop next to the bookstore" -> "next", "close to", "as
likely as those in other towns" -> "as those"."""
_MANNER_VERBS = frozenset({"act", "behave", "fare", "word", "conduct"})
"""Verbs that need their manner: "had acted unlawfully" -> "had acted", "behaved badly" -> "behaved"."""
_MEASURED_WORDS = frozenset({"ago", "away", "apart", "long", "wide", "tall", "high", "deep", "old", "later", "earlier"})
"""Words whose measure phrase completes them: "weeks ago", "40 light years away", "three miles apart"."""
_GO_COMPLEMENTS = frozenset({"prep", "dobj", "acomp", "xcomp", "advcl", "prt", "npadvmod"})
"""What else "go" may have beside a manner adverb: with none of them, the manner is what "went" says."""
_PP_HEAD_DEPS = frozenset({"prep", "agent"})
_LOCATIVE_VERBS = frozenset(
    {"live", "reside", "dwell", "lie", "put", "place", "set", "lay", "belong", "stay", "remain", "stand", "sit",
     "leave", "keep"}
)  # fmt: skip
"""Verbs whose place completes them ("lived in London" -> "lived", "stood on a hill" -> "stood")."""
_GOAL_VERBS = frozenset(
    {"get", "reach", "send", "move", "belong", "lead", "head", "put", "place", "bring", "take", "pull", "return"}
)  # fmt: skip
"""Verbs whose goal completes them ("to get to the airport" -> "to get", "was sent to school" -> "was sent",
"moved the meeting to Thursday" -> "moved the meeting", "until levels returned to normal" -> "until levels returned")."""
_COMPLEMENT_VERBS = frozenset(
    {"consist", "base", "depend", "rely", "amount", "refer", "result", "stem", "derive", "hinge", "insist", "cope",
     "dispose", "abound", "account", "specialise", "specialize", "comprise", "originate", "participate", "appeal",
     "hear", "reach", "behave", "look", "ask", "care", "deal", "think", "believe", "approve", "dream", "succeed",
     "place", "put"}
)  # fmt: skip
"""Verbs that need their prepositional phrase ("consists of schools" -> "consists", "is based on a play" -> "is
based") or change sense without it ("appealed for witnesses" -> "appealed", "would not hear of it" -> "would not
hear", "reached for the gate" -> "reached")."""
_COMPLEMENT_PREPOSITIONS = {
    "smell": ("of", "like"), "taste": ("of", "like"), "reek": ("of",), "date": ("from", "back"), "mistake": ("for",),
    "bring": ("under",), "bar": ("from",), "ban": ("from",), "prevent": ("from",), "prohibit": ("from",),
    "deter": ("from",), "design": ("for",), "blaze": ("with",), "speak": ("of",), "regard": ("with", "as"),
}  # fmt: skip
"""Verbs that need one kind of phrase, and only that one: "a wind that smelt of the sea" -> "that smelt", "a floor
dating from the second century" -> "a floor dating", "mistook her reserve for pride" -> "mistook her reserve" (but
"smelled fresh by the evening" -> "smelled fresh"), "was brought under control" -> "was brought", "a law that bars
companies from operating" -> "that bars companies", "designed for discomfort" -> "designed", "blazed with light" ->
"blazed" (as if on fire)."""
_PARTICLES = frozenset(
    {"away", "back", "up", "down", "out", "off", "over", "around", "along", "aside", "forward", "ahead"}
)  # fmt: skip
"""Adverb particles of phrasal verbs: "put away" -> "put", "bring it back" -> "bring it" change the verb."""
_CLAUSE_KIDS = frozenset({"quantmod", "advmod", "nsubj", "nsubjpass", "mark", "aux", "dobj", "prep", "npadvmod"})


def _glued(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is written against a hyphen ("pre-rendered", "two-dimensional")."""
    before = tok.i > 0 and parsed.tokens[tok.i - 1].text in ("-", "–") and parsed.tokens[tok.i - 1].whitespace == ""
    after = tok.i + 1 < len(parsed.tokens) and parsed.tokens[tok.i + 1].text in ("-", "–") and tok.whitespace == ""
    return bool(before or after)


def _closed(idx: GraphIndex, var: str) -> bool:
    """Nothing outside ``var``'s subtree points into it (dropping it takes no other phrase's node along)."""
    inside = idx.subtree(var)
    return all(
        parent in inside or (child == var and len(idx.into.get(var, ())) == 1)
        for child in inside
        for parent, _ in idx.into.get(child, ())
    )


def _anchors_a_time(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` modifies a time noun that has no determiner ("next month", "yesterday afternoon", "last week"):
    without it the noun is left bare ("before the school year begins month")."""
    from core.foils.rules.wordnet_facts import lexname

    if not 0 <= tok.head < len(parsed.tokens) or tok.head == tok.i:
        return False
    noun = parsed.tokens[tok.head]
    if noun.pos != "NOUN" or dependents(parsed, noun, "det", "poss"):
        return False
    return lexname((noun.lemma or noun.text).lower(), "n") == "noun.time"


def _in_set_phrase(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` and a neighbour form a WordNet multi-word lemma ("drawing room", "at last", "of course"): dropping
    it breaks the phrase ("When the fever at abated")."""
    from core.foils.rules.lexicon import adverb_phrase, lexicalised_pair
    from core.foils.rules.wordnet_facts import in_three_word_lemma

    if in_three_word_lemma([t.text for t in parsed.tokens], tok.i):
        return True  # "up to date" -> "up"
    return any(
        lexicalised_pair(a.text, a.lemma, a.pos, b.text, b.lemma, b.pos) or adverb_phrase(a.text, b.text)
        for a, b in word_pairs(parsed, tok.i)
    )


def _us_kind(parsed: ParsedSentence, idx: GraphIndex, var: str, parent: str, role: str) -> str | None:
    """Which default US variant may drop ``var`` (its ``role`` under ``parent``), or None when the sentence
    cannot do without it (docs/foil-rules.md): ``modifier`` (an adjective, adverb or number), ``adjunct`` (a
    whole prepositional phrase, a time or place adverbial, a passive's by-phrase), ``optional-argument`` (a
    prepositional or indirect object); ``object`` (opt-in: a direct object of a verb WordNet's frames use without
    one; in the judged rounds most such drops left a verb that needs its object, "The court overturned because")."""
    if idx.named(var) or idx.is_name(var) or idx.concepts.get(var) in ("ordinal-entity", *_KEEP_WORDS):
        return None
    tok = head_token(parsed, var)
    if tok is None:
        return _us_kind_by_role(parsed, idx, var, role)
    if quoted(parsed, tok.i):
        return None  # a word of a title or quotation: "`` Born into wealth ''" -> "`` Born ''"
    inside = idx.subtree(var)
    if any(idx.concepts.get(v) in PRONOUNS for v in inside if v != var) and len(inside) > 1:
        return None  # a phrase holding a pronoun others may refer to
    if any(parsed.tokens[i].pos in ("VERB", "AUX") for v in inside for i in parsed.alignment.get(v, ()) if v != var):
        return None  # a clause inside: dropping it is more than an underspecification
    word = tok.text.lower()
    if _glued(parsed, tok):
        return None  # "pre-rendered" minus "pre" is no word
    if tok.dep in ("xcomp", "ccomp", "csubj"):
        return None  # a complement clause: "a prophecy he seemed quite determined to fulfil" -> "... determined."
    if _one_of_a_pair(parsed, tok):
        return None  # "a smell of lavender and camphor clung" -> "a smell of lavender and clung"
    if _object_in_disguise(parsed, tok):
        return None  # "You should bring sunscreen" read as an adverb -> "You should bring even if ..."
    if role in _MODIFIER_ROLES and idx.is_leaf(var) and tok.dep not in _PP_HEAD_DEPS | {"pobj"}:
        return _modifier_kind(parsed, tok, role)
    head = governor(parsed, tok) or tok
    in_pp = tok.dep in _PP_HEAD_DEPS or (tok.dep in ("pobj", "pcomp") and head.dep in _PP_HEAD_DEPS)
    if not _closed(idx, var):
        return None
    prep = tok if tok.dep in _PP_HEAD_DEPS else head
    if in_pp and (_completes_its_head(parsed, prep) or _empty_phrase(parsed, prep)):
        return None
    if tok.dep in NOUN_ADVERBIAL_DEPS and head.text.lower() in _MEASURED_WORDS:
        return None  # "booked weeks ago" -> "booked ago", "a planet 40 light years away" -> "a planet away"
    verb = head_token(parsed, parent)
    lemma = verb.lemma.lower() if verb is not None else ""
    if role == ":location" and lemma in _LOCATIVE_VERBS:
        return None  # "lived in London" -> "lived": the place completes the verb
    if role in (":destination", ":direction") and lemma in _GOAL_VERBS:
        return None  # "to get to the airport by noon" -> "to get by noon"
    if _route_end(parsed, tok, verb):
        return None  # "from one room to the next": the two ends of a route go together
    if tok.dep in ("advmod", "prt") and word in _PARTICLES and verb is not None and tok.head == verb.i:
        return None  # a phrasal verb's particle: "put away" -> "put"
    if (
        role in _ADJUNCT_ROLES
        or role.startswith(":prep-")
        or (role == ":ARG0" and tok.dep == "pobj" and head.dep == "agent")
    ):
        if in_pp or tok.dep in NOUN_ADVERBIAL_DEPS or (tok.dep == "advmod" and tok.pos == "ADV"):
            return "adjunct" if word not in _NOT_DROPPED else None
        return None
    if re.fullmatch(r":ARG[1-9]", role):
        if in_pp and lemma in _GOAL_VERBS | _LOCATIVE_VERBS:
            return None  # "belong to the guests" -> "belong"
        if in_pp or tok.dep == "dative":
            return "optional-argument"
        small_clause = verb is not None and bool(
            dependents(parsed, verb, "xcomp", "acomp", "oprd", "ccomp", "dative")
        )  # "kept us awake" -> "kept awake": the object belongs to a small clause
        if tok.dep == "dobj" and verb is not None and verb.pos == "VERB" and not small_clause:
            from core.foils.rules.wordnet_facts import object_optional

            if object_optional(verb.lemma.lower()):
                return "object"  # opt-in: "The appeals court overturned because ...", "I haven't watered"
    return None


def _one_of_a_pair(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is a conjunct whose "and"/"or" would stay behind: a ``conj`` beside a coordinator, or a compound right
    after one (the small parser's "lavender and [camphor clung]")."""
    if tok.dep == "conj":
        return any(k.dep == "cc" for k in dependents(parsed, governor(parsed, tok) or tok))
    return tok.dep == "compound" and tok.i > 0 and parsed.tokens[tok.i - 1].dep == "cc"


_OBJECT_DEPS = frozenset({"dobj", "ccomp", "xcomp", "nsubjpass", "attr", "acomp", "oprd", "dative"})
_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "attr"})


def _object_in_disguise(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is an adverbial the parser hung where an argument belongs, so dropping it leaves a gap: right after a
    verb without an object, a noun the tagger called an adverb ("You should bring sunscreen" -> "You should bring
    even if"), "there" after a verb of reaching ("until we got there" -> "until we got"), or a noun phrase after a verb
    (or its indirect object) that needs an object ("needed nearly an hour" -> "needed in our oven", "gave the team a
    day off" -> "gave the team"; weather verbs do not: "rain all weekend"); a noun adverbial right after a subject or
    object word (the compound "Waiting times" read as a time); an infinitive read as a phrase ("determined to
    fulfil")."""
    head = governor(parsed, tok)
    if head is None:
        return False
    if tok.dep == "pobj" and tok.pos in ("VERB", "AUX"):
        return head.text.lower() == "to"  # an infinitive read as a phrase: "determined to fulfil" -> "determined."
    if tok.dep not in ("advmod", "npadvmod"):
        return False
    start, after = below(parsed, tok)[0].i, head.i + 1
    datives = dependents(parsed, head, "dative")
    if tok.dep == "npadvmod" and datives and datives[-1].i < start:
        after = below(parsed, datives[-1])[-1].i + 1  # "gave the team a day off": the object follows the dative
    if start != after:
        return False
    if tok.dep == "npadvmod" and head.dep in _ARGUMENT_DEPS:
        return True
    if head.pos != "VERB" or dependents(parsed, head, *(_OBJECT_DEPS - {"dative"})):
        return False
    from core.foils.rules.wordnet_facts import IMPERSONAL_FRAME, lexname, object_optional, verb_frames

    if tok.dep == "advmod":
        if tok.text.lower() in ("there", "here"):
            return head.lemma.lower() in _GOAL_VERBS
        return not lexname(tok.text, "r")  # WordNet knows no adverb "sunscreen", whatever the tagger says
    verb = head.lemma.lower()
    return not object_optional(verb) and IMPERSONAL_FRAME not in verb_frames(verb)


def _modifier_kind(parsed: ParsedSentence, tok: Token, role: str) -> str | None:
    """``modifier`` when the adjective, adverb, number or compound noun ``tok`` (a leaf in a modifier ``role``) can go,
    else None: quantifier and degree words, a word with its own dependents, a time noun's anchor, part of a set
    phrase, the modifier of a pro-form or a symbol, a mis-parsed compound, the point of its clause, an end of a
    range."""
    word = tok.text.lower()
    if word in _NOT_DROPPED or tok.tag in ("JJR", "RBR", "JJS", "RBS") or tok.dep in ("det", "predet", "neg"):
        return None
    if word == "yet" and parsed.text.rstrip().endswith("?"):
        return None  # "Has anyone fed the cat yet?" asks what "Has anyone fed the cat?" asks (0 of 2)
    if dependents(parsed, tok, *_CLAUSE_KIDS):
        return None  # "quite" in "quite happy" stays with it; a word with a subject is a clause (a mis-parse)
    if role == ":quant" and (tok.pos != "NUM" or tok.ent_type not in ("", "CARDINAL")):
        return None
    if _anchors_a_time(parsed, tok) or _in_set_phrase(parsed, tok):
        return None
    in_range = 0 <= tok.head < len(parsed.tokens)
    head_tok = parsed.tokens[tok.head] if in_range else tok
    head_word = head_tok.text if in_range else ""
    if head_word.lower() in ("one", "ones", "ago"):
        return None  # "the old one" -> "the one": the pro-form needs what picks it out; "weeks ago" -> "ago"
    if head_word and not any(ch.isalpha() for ch in head_word):
        return None  # the number of a symbol: "1.4 %" -> "%", "$ 4" -> "$"
    following = parsed.tokens[tok.i + 1] if tok.i + 1 < len(parsed.tokens) else tok
    if tok.dep == "compound" and following.pos == "NUM":
        return None  # a mis-parsed second object: "owed his tailor forty pounds" -> "owed his forty pounds"
    if tok.dep == "compound" and (head_tok.tag not in ("NN", "NNS") or head_tok.text.lower().endswith("ing")):
        return None  # a noun mis-read as a compound: "cost the giver nothing", "its thatch sagging"
    if _bears_the_point(parsed, tok) or (head_tok is not tok and set_predicate(head_tok.lemma, tok.text)):
        return None
    if tok.pos == "NUM" and _in_range(parsed, tok):
        return None  # one end of a score or range: "27 -- 21" -> "27 --"
    if tok.pos == "ADJ" and _noun_called_adjective(parsed, tok):
        return None  # "its sundial green with moss" read as "its (sundial) green" -> "its green with moss"
    if tok.pos in ("ADJ", "ADV", "NUM") or (tok.pos == "NOUN" and tok.dep == "compound"):
        return "modifier"
    return None


def _noun_called_adjective(parsed: ParsedSentence, tok: Token) -> bool:
    """The tagger calls ``tok`` an adjective of a word that WordNet knows as an adjective, but ``tok`` itself only as
    a noun: the two are read the wrong way round, and the drop leaves the real adjective as a noun ("its sundial
    green with moss" -> "its green with moss"; "a pearl brooch" -> "a brooch" is a real modifier's drop)."""
    from core.foils.rules.wordnet_facts import lexname

    word, head = tok.text.lower(), governor(parsed, tok)
    if head is None or not word.isalpha() or word.endswith(("ing", "ed")):
        return False  # a participle is an adjective whatever WordNet lists: "the dripping tap" (not the fat)
    return not lexname(word, "a") and bool(lexname(word, "n")) and bool(lexname(head.text, "a"))


def _completes_its_head(parsed: ParsedSentence, prep: Token) -> bool:
    """The prepositional phrase headed by ``prep`` completes the word it hangs on: a verb that needs it
    (:data:`_COMPLEMENT_VERBS`), a copula with no other predicate ("Madiun is on the main road" -> "Madiun is"), or
    the fronted phrase of an inverted clause ("Among the singers were ..." -> "Were ...")."""
    gov = governor(parsed, prep)
    if gov is None:
        return False
    lemma = gov.lemma.lower()
    if gov.pos in ("VERB", "AUX"):  # the small tagger's lemmas, repaired as the realizer repairs them for negation:
        past = past_tense_lemma(gov.text) if gov.tag in ("VBP", "VBZ") else None  # "mistook" tagged VBP
        lemma = past or base_form(gov.text, lemma, gov.tag).lower()
    if lemma in _COMPLEMENT_VERBS or gov.text.lower() in _PP_GOVERNORS:
        return True
    if prep.text.lower() in _COMPLEMENT_PREPOSITIONS.get(lemma, ()):
        return True
    if gov.tag == "JJS" and prep.text.lower() == "of":
        return True  # a superlative's group: "was the highest of compliments" -> "was the highest."
    if gov.dep in ("acl", "advcl") and gov.tag in ("VBN", "VBG") and [t.i for t in dependents(parsed, gov)] == [prep.i]:
        return True  # a participle needs its only phrase: "a bay reserved for residents" -> "a bay reserved",
        # "..., finishing in two hours" -> "..., finishing."
    if lemma == "be" and not dependents(parsed, gov, "attr", "acomp", "oprd", "xcomp", "ccomp"):
        return True
    subjects = dependents(parsed, gov, "nsubj", "nsubjpass")
    return prep.i < gov.i and bool(subjects) and all(s.i > gov.i for s in subjects)


def _empty_phrase(parsed: ParsedSentence, prep: Token) -> bool:
    """The prepositional phrase headed by ``prep`` is a stance or fixed phrase (:data:`_EMPTY_PHRASES`) or the
    second half of a comparison ("as lavishly as ever" -> "as lavishly", "more than 300" -> "more")."""
    objects = [t.text.lower() for t in dependents(parsed, prep, "pobj", "pcomp", "advmod")]
    word, head = prep.text.lower(), parsed.tokens[prep.head]
    if word in ("than", "per") or (word == "as" and head.pos in ("ADJ", "ADV")):
        return True  # "80 miles per hour" -> "80 miles"
    return any((word, o) in _EMPTY_PHRASES for o in objects)


def _bears_the_point(parsed: ParsedSentence, tok: Token) -> bool:
    """The modifier carries what its clause says: the manner a verb needs ("had acted unlawfully" -> "had acted") or
    the adjective a negated predicate denies ("was not a cruel man" -> "was not a man")."""
    head = governor(parsed, tok)
    if head is None:
        return False
    if tok.dep == "advmod" and head.lemma.lower() in _MANNER_VERBS:
        return True
    if tok.dep == "advmod" and head.lemma.lower() == "go" and not dependents(parsed, head, *_GO_COMPLEMENTS):
        return True  # "after the product launch went smoothly" -> "after the product launch went."
    copula = governor(parsed, head) if head.dep == "attr" else None
    return copula is not None and bool(dependents(parsed, copula, "neg"))


def _in_range(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is a number joined to another by a dash or "to" ("27 -- 21", "1943 - 1944", "5 to 7")."""
    for step in (-1, 1):
        joint, other = tok.i + step, tok.i + 2 * step
        inside = min(joint, other) >= 0 and max(joint, other) < len(parsed.tokens)
        if inside and parsed.tokens[joint].text in ("-", "--", "–", "—", "to") and parsed.tokens[other].pos == "NUM":
            return True
    return False


def _route_end(parsed: ParsedSentence, tok: Token, verb: Token | None) -> bool:
    """``tok`` is the object of "from" or "to" under a verb that has the other one too ("from one room to the
    next")."""
    if verb is None or tok.dep != "pobj" or not 0 <= tok.head < len(parsed.tokens):
        return False
    prep = parsed.tokens[tok.head].text.lower()
    other = {"from": "to", "to": "from"}.get(prep)
    if other is None:
        return False  # the other end hangs on the verb ("from one room to the next") or on this end ("head to toe")
    return any(k.text.lower() == other for k in [*dependents(parsed, verb, "prep"), *dependents(parsed, tok, "prep")])


def _us_kind_by_role(parsed: ParsedSentence, idx: GraphIndex, var: str, role: str) -> str | None:
    """The US variant for a graph without token alignments (a neural parser's): leaves only, by role."""
    if (parsed.tokens and parsed.alignment) or not idx.is_leaf(var):
        return None  # an aligned parse whose node has no words: nothing to drop on the surface
    if role in _MODIFIER_ROLES and role != ":quant":
        return "modifier"
    if role in _ADJUNCT_ROLES or role.startswith(":prep-"):
        return "adjunct"
    return "optional-argument" if re.fullmatch(r":ARG[2-9]", role) else None


def _dropped_words(parsed: ParsedSentence, var: str) -> set[int]:
    """The token indices a drop of ``var`` deletes: its phrase, with the preposition that heads it."""
    tok = head_token(parsed, var)
    if tok is None:
        return set()
    head = governor(parsed, tok)
    if tok.dep in ("pobj", "pcomp") and head is not None and head.dep in _PP_HEAD_DEPS:
        tok = head
    return {t.i for t in below(parsed, tok)}


def us_edits(parsed: ParsedSentence, variants: Sequence[str] = DEFAULT_VARIANTS["US"]) -> list[Edit]:
    """Underspecification: drop what the sentence can do without (see :func:`_us_kind`), never leaving a
    dangling preposition, determiner, comparative or quantifier; ``leaf`` (opt-in, the released code's
    behaviour) drops any non-top leaf with a single incoming edge."""
    _check_variants("US", variants, VARIANTS["US"])
    idx = index_for(parsed)
    edits = []
    for var in idx.order:
        if var == parsed.graph.top or idx.is_name(var):
            continue
        parents = idx.into.get(var, ())
        if len(parents) != 1:
            continue  # reentrant: dropping one mention is not a removal
        parent, role = parents[0]
        kind = _us_kind(parsed, idx, var, parent, role)
        if kind is None or kind not in variants:
            if "leaf" not in variants or not idx.is_leaf(var):
                continue
            kind = "leaf"
        elif breaks_a_phrase(parsed, _dropped_words(parsed, var)) or clock_time(parsed, aligned_words(parsed, idx, var)):
            continue  # "I gave the receipt to Marta because she handles ..." -> "I gave the receipt because she ..."
        leaf = idx.is_leaf(var)
        make = partial(remove_leaf, idx.graph, var) if leaf else partial(remove_node, idx.graph, var)
        edited = build_edit("US", parsed, idx, make)
        if edited is None:
            continue
        what = "leaf" if leaf else "phrase"
        edits.append(
            Edit(
                rule="US",
                variant=kind,
                description=f"drop {what} {idx.label(var)} ({role} of {idx.label(parent)})",
                nodes=(var, parent),
                source=parsed,
                edited=edited,
                details={"node": var, "parent": parent, "role": role}
                | ({} if leaf else {"subtree": sorted(idx.subtree(var), key=idx.order.index)}),
            )
        )
    return edits
