"""AR and HS, lexical substitution: replace a concept by a WordNet antonym or hypernym of the word's sense
in this sentence, keeping the sense suffix (``happy-01`` -> ``unhappy-01``); words in fixed expressions, proper
nouns and words whose sense the context does not settle are left alone (docs/foil-rules.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from core.foils.amr.graph import (
    INSTANCE,
    replace_triple,
)
from core.foils.parse.lex import CALENDAR_NAMES, MODALS, adverb_to_adjective
from core.foils.realize.morph import inflect
from core.foils.rules.antonyms import has_antonyms, sense_antonyms
from core.foils.rules.gender import NEUTRAL_COUNTERPARTS, gender_clash, gender_given_back
from core.foils.rules.hypernyms import sense_hypernyms
from core.foils.rules.index import (
    FUNCTION_WORDS,
    NOUN_ADVERBIAL_DEPS,
    GraphIndex,
    aligned_token,
    build_edit,
    dependents,
    governor,
    index_for,
    node_pos,
    quoted,
    split_concept,
    takes_object,
    word_pairs,
)
from core.foils.rules.lexicon import (
    UNIVERSAL_POS,
    Candidate,
    LexicalOptions,
    is_synonym,
    lexicalised_pair,
    named_phrase,
    wn_pos,
    zipf,
)
from core.foils.rules.variants import DEFAULT_VARIANTS
from core.foils.rules.word_use import loses_relation, office_of_place, set_use
from core.foils.rules.wordnet_facts import in_three_word_lemma, sense_words, synset_lexname, verb_frames
from core.types import Edit, ParsedSentence, Token

DEFAULT_MAX_CANDIDATES = 3  # WordNet candidates per node for AR/HS (best ranked first)


def _first_sense(synset: str, lemma: str, pos: str) -> bool:
    """``synset`` is the word's first (most frequent) WordNet sense (:func:`core.foils.rules.senses.first_sense`)."""
    from core.foils.rules.senses import first_sense

    return synset == first_sense(lemma, pos)


_DETERMINER_DEPS = frozenset({"det", "poss", "nummod", "predet"})
MASS_GAP = 0.8
"""A noun is used as a mass noun when its plural is at least this much rarer (wordfreq Zipf) than its singular
("food" 5.4 / "foods" 4.4, "meat" 1.2 apart; "meal" 0.3 and "device" 0.1 apart are count nouns), or has no
plural of its own ("furniture"). A bare singular source ("after dinner") takes only a mass hypernym ("after meal"
is not English)."""
_BARE_MASS_DEPS = frozenset({"dobj", "pobj", "nsubj", "nsubjpass"})  # where a bare singular is a mass use
MASS_DETERMINERS = frozenset({"some", "much", "enough"})  # before a singular noun: a mass use
PLURAL_GAP = 1.5  # a plural source ("these boots") takes a hypernym whose plural is no rarer than this below it


def _fits_number(parsed: ParsedSentence, index: int | None, lemma: str) -> bool:
    """A noun hypernym that reads right in the source noun's slot: a plural source needs a hypernym with an
    attested plural ("these footwear", "equipments"), a singular source after "a" a count noun ("a furniture"), a
    singular source without a determiner or after "some" a mass noun ("some beverage"); a bare count noun in a
    phrase takes none ("to bed"). A multi-word hypernym is judged by its head noun."""
    if index is None or not 0 <= index < len(parsed.tokens):
        return True
    tok = parsed.tokens[index]
    if tok.tag not in ("NN", "NNS"):
        return True
    head = lemma.split()[-1]  # a phrase counts as its head noun: "on farmland" -> "on rural area" is not English
    plural = inflect(head, "NNS")
    gap = zipf(head) - zipf(plural) if plural != head else math.inf
    if tok.tag == "NNS":
        return plural != head and zipf(plural) >= 2.5 and gap <= PLURAL_GAP
    kids = dependents(parsed, tok)
    if any(t.dep == "det" and t.text.lower() in ("a", "an") for t in kids):
        return gap < MASS_GAP  # "a chair" -> "a furniture": an indefinite article needs a count noun
    if any(t.dep == "det" and t.text.lower() in MASS_DETERMINERS for t in kids):
        return gap >= MASS_GAP  # "some milk" -> "some beverage": "some" before a singular needs a mass noun
    if tok.dep not in _BARE_MASS_DEPS:
        return True  # a role noun without an article is fine for any noun: "was appointed bishop", "daughter of X"
    bare = not any(t.dep in _DETERMINER_DEPS or (t.dep == "prep" and t.text.lower() == "of") for t in kids)
    if bare and tok.dep == "pobj" and _count_noun(tok.lemma or tok.text):
        return False  # a bare count noun in a phrase is an idiom: "went to bed" -> "went to furniture"
    return not bare or gap >= MASS_GAP


def _count_noun(lemma: str) -> bool:
    """``lemma`` is used as a count noun: its plural is common (wordfreq Zipf >= 3.5: "beds", "schools", "towns";
    not "milks" or "furnitures"), whatever idioms do to its singular ("to bed", "at school")."""
    plural = inflect(lemma.lower(), "NNS")
    return plural != lemma.lower() and zipf(plural) >= 3.5


def _fixed_expression(parsed: ParsedSentence, index: int | None) -> bool:
    """The word at ``index`` is part of a fixed expression, where a substitute breaks the expression, not the
    meaning: a noun modifying a noun ("bus stop" -> "bus continue"), a phrasal verb ("knocked out"), or a word that
    forms a WordNet multi-word lemma with its neighbour ("drawing room", "fell asleep", "a great deal"); an
    adjective only when that lemma is another kind of thing than its noun ("hot dog", not "old man"). A noun is left
    alone as the head of a noun compound ("oat milk") and under an adjective it names something else with ("prime
    minister")."""
    if index is None or not 0 <= index < len(parsed.tokens):
        return False
    tok = parsed.tokens[index]
    if tok.dep == "compound" or dependents(parsed, tok, "prt"):
        return True
    if tok.pos == "NOUN":
        # the head of a noun compound ("oat milk" -> "oat dairy product", "opposition leaders" -> "followers"), or a
        # noun an adjective names something else with ("prime minister" -> "prime reverend")
        if any(k.tag in ("NN", "NNS") or k.text.lower() in CALENDAR_NAMES for k in dependents(parsed, tok, "compound")):
            return True  # also "Saturday night" -> "Saturday day", "June evening"
        if any(named_phrase(a.lemma, tok.lemma) for a in dependents(parsed, tok, "amod")):
            return True
        nxt = parsed.tokens[index + 1] if index + 1 < len(parsed.tokens) else None
        if nxt is not None and nxt.pos == "NOUN" and nxt.head == tok.head and nxt.dep == tok.dep:
            return True  # a compound the parser split into two objects: "swapped the bathroom(dobj) tap(dobj)"
    if in_three_word_lemma([t.text for t in parsed.tokens], index):
        return True  # "up to date" -> "down to date"
    return any(lexicalised_pair(a.text, a.lemma, a.pos, b.text, b.lemma, b.pos) for a, b in word_pairs(parsed, index))


CONCRETE_LEXNAMES = frozenset(
    {"noun.person", "noun.animal", "noun.plant", "noun.body", "noun.artifact", "noun.object", "noun.location",
     "noun.food", "noun.substance", "noun.phenomenon"}
)  # fmt: skip
"""Senses whose hypernyms HS offers by default: people, animals, things, places, stuff ("son" -> "child", "guitar"
-> "musical instrument"). The hypernyms of abstract senses are WordNet's categories, not words a writer would use
("album" -> "medium", "decision" -> "choice", "twenty dollars" -> "twenty units", "the government" -> "the
organization", "before winter" -> "before season"): they are the opt-in variant ``abstract``."""
METONYMY_LEXNAMES = frozenset({"noun.artifact", "noun.location", "noun.group"})
"""A thing or place that is the agent (``:ARG0``) of a transitive event stands for the people in it ("The hospital
opened a ward", "The ministry will publish the results"); its hypernym names only the thing ("The building opened a
ward"). The subject of an intransitive event keeps its hypernym ("The plane landed" -> "The aircraft landed")."""


FRAME_NEEDS: Mapping[str, frozenset[int]] = {
    "dative": frozenset({14, 15}),  # "lent our cousin his car": "borrowed our cousin his car" is not English
    "object": frozenset({5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 30, 31}),
    "none": frozenset({1, 2, 3, 4, 6, 7, 12, 13, 22, 23, 27}),  # "The rain continued" -> "The rain discontinued"
    "infinitive": frozenset({24, 25, 28, 32, 35}),
    "clause": frozenset({26, 29, 34}),
    "to-somebody": frozenset({12, 15}),  # "sold the lighthouse to a couple": "bought ... to a couple" is not English
}
"""The WordNet sentence frames (``Lemma.frame_ids``) a verb antonym needs for each way the source verb is used:
AR replaces a verb only by one that takes the same complements ("consented to the match" -> "refused to the
match", "knew of" -> "ignored of" are refused)."""


def _complements(parsed: ParsedSentence, tok: Token) -> set[str]:
    """How the verb ``tok`` is used here: with a ``dative`` (or a person after "to": ``to-somebody``), an
    ``object`` (a passive has one), an ``infinitive``, a ``clause``, or ``none`` of them."""
    deps = {k.dep: k for k in dependents(parsed, tok)}
    used = set()
    if "dative" in deps:
        used.add("dative")
    to = [o for k in dependents(parsed, tok, "prep") if k.text.lower() == "to" for o in dependents(parsed, k, "pobj")]
    if any(_somebody(o) for o in to) and verb_frames(tok.lemma.lower()) & FRAME_NEEDS["to-somebody"]:
        used.add("to-somebody")  # a recipient the verb's frames name ("sold ... to a couple"; not "open it to visitors")
    if "dobj" in deps or "nsubjpass" in deps or "auxpass" in deps:
        used.add("object")
    if "xcomp" in deps and any(k.dep == "aux" and k.text.lower() == "to" for k in dependents(parsed, deps["xcomp"])):
        used.add("infinitive")
    if "ccomp" in deps:
        used.add("clause")
    return used or {"none"}


def _somebody(tok: Token) -> bool:
    """A person or group: a personal pronoun other than "it", a named person or organisation, or a noun whose most
    frequent sense is a person or group."""
    from core.foils.rules.wordnet_facts import first_animate_kind

    if tok.pos == "PRON":
        return tok.text.lower() not in ("it", "this", "that", "which", "what")
    if tok.ent_type in ("PERSON", "ORG", "NORP"):
        return True
    return tok.pos == "NOUN" and first_animate_kind(tok.lemma.lower()) in ("person", "group")


def _frames_fit(parsed: ParsedSentence, at: int | None, cand: Candidate) -> bool:
    """The verb antonym ``cand`` takes the complements the source verb has at token ``at`` (WordNet frames over
    all its senses; a verb without frame data passes)."""
    if at is None or not 0 <= at < len(parsed.tokens):
        return True
    tok = parsed.tokens[at]
    if not tok.dep:
        return True  # a hand-made graph without a dependency parse: nothing to check against
    frames = verb_frames(cand.lemma)
    return not frames or all(frames & FRAME_NEEDS[use] for use in _complements(parsed, tok))


def _agent_of_transitive(idx: GraphIndex, var: str) -> bool:
    """``var`` is the ``:ARG0`` of an event that also has an ``:ARG1`` (an agent acting on something: "The hospital
    opened a ward"); the subject of an intransitive event is not ("The plane landed", "The house stood")."""
    return any(
        role == ":ARG0" and any(r == ":ARG1" for r, _ in idx.out.get(event, ()))
        for event, role in idx.into.get(var, ())
    )


def _hs_variant(idx: GraphIndex, var: str, pos: str, synset: str) -> str | None:
    """The HS variant a replacement of ``var`` in the sense ``synset`` falls under: ``verb`` for verbs, ``hypernym``
    for concrete nouns and adjectives, ``abstract`` for abstract nouns; None when HS leaves the node alone (a thing
    as an event's agent stands for its people: metonymy)."""
    if pos in ("VERB", "AUX"):
        return "verb"
    if wn_pos(pos) != "n":
        return "hypernym"
    kind = synset_lexname(synset)
    if kind in METONYMY_LEXNAMES and _agent_of_transitive(idx, var):
        return None
    return "hypernym" if kind in CONCRETE_LEXNAMES else "abstract"


def _replacements(
    rule: str, parsed: ParsedSentence, var: str, lemma: str, pos: str, choice: Any, options: LexicalOptions
) -> list[Candidate]:
    """The antonyms / hypernyms of ``lemma`` in its chosen sense that may replace it: never a synonym in context,
    and (HS nouns) only a hypernym that fits the noun's number."""
    if rule == "AR":
        found = sense_antonyms(choice.synset, lemma)
    else:
        transitive = takes_object(parsed, var) if pos in ("VERB", "AUX") else None
        found = sense_hypernyms(choice.synset, lemma, transitive, options.min_zipf)
    found = [c for c in found if is_synonym(lemma, c.lemma, choice.synset) is None]
    if rule == "AR":
        found = [c for c in found if frozenset((lemma.lower(), c.lemma.lower())) not in NOT_OPPOSITES]
    at = aligned_token(parsed, var)
    if rule == "HS" and wn_pos(pos) == "n":
        if office_of_place(parsed, at, choice.synset):
            return []  # "the mayor of Corvale" -> "the politician of Corvale"
        found = [c for c in found if _fits_number(parsed, at, c.lemma) and not loses_relation(parsed, at, c.synset)]
        if found and gender_given_back(parsed, at, choice.synset):  # "my son ... his birthday" -> "my child ... his"
            found = [c for c in found if c.synset not in NEUTRAL_COUNTERPARTS]
    if rule == "AR":
        found = [c for c in found if c.lemma.lower() not in QUANTITY_ADJECTIVES]
        words = {t.lemma.lower() for t in parsed.tokens} | {t.text.lower() for t in parsed.tokens}
        if any(c.lemma.lower() in words or _named_by_another_word(parsed, at, c.lemma, pos) for c in found):
            return []  # the sentence already holds the opposite ("our old apartment ... the new one"; "late ... early")
        if gender_clash(parsed, at, choice.synset):
            return []  # the same for every antonym of this word: one check, not one per candidate
    if rule == "AR" and _records_a_level(parsed, at):
        return []  # "fell to their lowest level" -> "rose to their lowest level" / "fell to their highest level"
    if rule == "AR" and pos in ("VERB", "AUX"):
        found = [c for c in found if _frames_fit(parsed, at, c)]
    return found


_MODAL_LEMMAS = frozenset(split_concept(concept)[0] for concept, _ in MODALS.values())


def _modal_concept(parsed: ParsedSentence, lemma: str, at: int | None) -> bool:
    """The node is a modal's concept (``possible-01``) written as another word ("able to", "can"): its antonym
    replaces a word the sentence does not hold ("won't be able to" -> "won't be impossible to")."""
    return lemma in _MODAL_LEMMAS and at is not None and parsed.tokens[at].lemma.lower() != lemma


def _named_by_another_word(parsed: ParsedSentence, at: int | None, antonym: str, pos: str) -> bool:
    """Another word of the sentence, of the antonym's part of speech, already means the antonym in one of its two
    most frequent senses, as the antonym or its inflected form ("the elder ... taller than the younger" -> "than
    the older": the same sister)."""
    p = wn_pos(pos)
    if p is None:
        return False
    forms = {antonym.lower()} | ({inflect(antonym, parsed.tokens[at].tag).lower()} if at is not None else set())
    return any(
        forms & (sense_words(t.text.lower(), p) | sense_words(t.lemma.lower(), p))
        for t in parsed.tokens
        if t.i != at and wn_pos(t.pos) == p and t.text.isalpha()
    )


def _substitution(
    rule: str, variant: str, parsed: ParsedSentence, idx: GraphIndex, var: str, pos: str, cand: Candidate, choice: Any
) -> Edit | None:
    """The edit replacing ``var``'s concept by ``cand`` (None when the parser could not read it back or the edit is
    invalid); the sense suffix stays (``happy-01`` -> ``unhappy-01``)."""
    old = idx.concepts[var]
    lemma, suffix = split_concept(old)
    upos = UNIVERSAL_POS[wn_pos(pos) or "n"]
    words = cand.lemma.split()
    if len(words) > 1 and (upos != "NOUN" or set(words) & FUNCTION_WORDS):
        return None  # "be born", "let go of", "time of life": no parser reads them back as one concept
    new_concept = "-".join(words) + suffix
    if upos == "ADV" and not suffix:
        new_concept = adverb_to_adjective(new_concept)  # the parser's convention: rarely -> rare
    if new_concept == old:
        return None
    make = partial(replace_triple, idx.graph, (var, INSTANCE, old), (var, INSTANCE, new_concept))
    edited = build_edit(rule, parsed, idx, make)
    if edited is None:
        return None
    details = {
        "node": var,
        "old_concept": old,
        "new_concept": new_concept,
        "new_lemma": cand.lemma,
        "pos": upos,
        "synset": cand.synset,
        "old_lemma": lemma,
        **choice.details(),
    }
    word = "antonym" if rule == "AR" else "hypernym"
    return Edit(
        rule=rule,
        variant=variant,
        description=f"{word} {lemma} → {cand.lemma}",
        nodes=(var,),
        source=parsed,
        edited=edited,
        details=details,
    )


def _ar_variant(cand: Candidate) -> str:
    """``indirect`` for an antonym of a satellite adjective's head (opt-in: 44% of them were usable in the judged
    rounds, "wonderful" -> "ordinary", "main" -> "unimportant"), else ``antonym``."""
    return "indirect" if cand.indirect else "antonym"


NOT_OPPOSITES = frozenset(
    frozenset(pair)
    for pair in (
        ("walk", "ride"), ("lie", "sit"), ("stand", "sit"), ("lie", "stand"), ("lose", "keep"), ("remain", "change"),
        ("stay", "change"), ("delay", "rush"), ("stop", "continue"), ("sleep", "wake"), ("annual", "perennial"),
        ("unveil", "veil"), ("former", "latter"), ("man", "civilian"), ("withdraw", "advance"), ("worker", "idler"),
        ("know", "ignore"), ("come", "go"), ("well", "ill"),
    )
)  # fmt: skip
"""WordNet antonym pairs the judged rounds found no opposites in use: co-hyponyms ("walked to the vicarage" -> "rode",
"Mist lay thick" -> "Mist sat thick", "The mill stood silent" -> "sat"), "lose" -> "keep" (lost at cards, lost
to drought, a lane lost in snow), "remain"/"stay" -> "change", whose complement stays behind ("remained only partly
contained" -> "changed only partly contained", "the ban would change in place", "from changing long"), and pairs none
of whose judged foils was usable: "is delayed" -> "is rushed", "stop driving" -> "continue driving" (of "start"),
"slept but little" -> "woke but little", "annual prize" -> "perennial prize", "unveiled a tablet" -> "veiled",
"a former generation" -> "a latter generation", "two men were arrested" -> "two civilians" (the soldier sense of
"man"), "withdrew from the Madrid Open" -> "advanced from" (the military sense), "employed 600 workers" -> "600
idlers", "had known what he would become" -> "had ignored what", "the plumber is coming" -> "is going" (0 of 3:
each "come" names a destination "go" does not), "dined too well" -> "dined too ill" (1 of 5: "ill" as an adverb of
manner reads as "sick")."""


LEVEL_VERBS = frozenset({"rise", "fall", "increase", "decrease", "climb", "drop", "grow", "shrink", "gain", "lose"})
"""Verbs of a change in level: a superlative in the same sentence records where the change went ("fell to 4.1
percent, the lowest rate since records began"), so their antonym contradicts the sentence (judged clearly worse)."""


def _records_a_level(parsed: ParsedSentence, at: int | None) -> bool:
    """The word at ``at`` is a verb of :data:`LEVEL_VERBS` or a superlative, and the sentence holds the other: each
    records where the change went, so an antonym of either contradicts the sentence."""
    if at is None or not 0 <= at < len(parsed.tokens):
        return False
    def level(t: Token) -> bool:
        return t.pos == "VERB" and t.lemma.lower() in LEVEL_VERBS

    def superlative(t: Token) -> bool:
        return t.tag in ("JJS", "RBS")

    tok = parsed.tokens[at]
    return (level(tok) or superlative(tok)) and any(map(level, parsed.tokens)) and any(map(superlative, parsed.tokens))


QUANTITY_ADJECTIVES = frozenset(
    {"whole", "entire", "other", "same", "single", "many", "few", "several", "various", "own", "certain", "such",
     "past", "last", "latest", "next", "only", "middle", "much"}
)  # fmt: skip
"""Adjectives that work like determiners or quantifiers: WordNet's antonyms for them are wrong or stiff ("the whole
yard" -> "the fractional yard", "each other" -> "each same", "any other" -> "any same", "in many months" -> "in few
months", "the past century" -> "the future century", "the latest offer" -> "the most middle offer"). AR neither
replaces them nor puts one in."""


def _left_alone(parsed: ParsedSentence, rule: str, at: int | None) -> bool:
    """Words AR/HS never replace: parts of fixed expressions, proper nouns the parser did not name ("II", "Sept"),
    nouns the tagger read as adjectives, (AR) quantity adjectives, set uses and gerunds listed with nouns, and (HS)
    time adverbials ("this morning" -> "this period")."""
    if _fixed_expression(parsed, at) or (at is not None and parsed.tokens[at].tag in ("NNP", "NNPS")):
        return True
    if at is None:
        return False
    tok = parsed.tokens[at]
    if quoted(parsed, at):
        return True  # a title or quotation
    if rule == "AR" and {tok.text.lower(), tok.lemma.lower()} & QUANTITY_ADJECTIVES:
        return True
    if rule == "AR" and set_use(parsed, tok):
        return True
    if tok.pos == "ADJ" and dependents(parsed, tok, "compound"):
        return True  # a noun the tagger read as an adjective: "the trade fair" -> "the trade unfair"
    head = governor(parsed, tok)
    if rule == "AR" and tok.tag == "VBG" and tok.dep == "conj" and head is not None and head.pos in ("NOUN", "PROPN"):
        return True  # a gerund listed with nouns names an art: "taught French and drawing" -> "French and pushing"
    return rule == "HS" and tok.dep in NOUN_ADVERBIAL_DEPS


def _lexical_edits(
    rule: str,
    variant: str,
    parsed: ParsedSentence,
    max_candidates: int,
    options: LexicalOptions,
    variants: Sequence[str] = (),
) -> list[Edit]:
    """AR/HS edits: per eligible node, choose the word's sense in this sentence (:mod:`core.foils.rules.senses`) and
    offer the antonyms / hypernyms of that sense only, never a synonym of it. Words whose sense the vectors cannot
    tell apart (``options.sense_margin``) and the words of :func:`_left_alone` are left alone; HS replaces abstract
    nouns and verbs only with the ``abstract`` and ``verb`` variants (:func:`_hs_variant`)."""
    idx = index_for(parsed)
    context = None
    edits = []
    for var in idx.order:
        lemma = split_concept(idx.concepts[var])[0]
        if not idx.eligible(var) or idx.named(var) or not lemma.replace("-", "").isalpha() or len(lemma) < 2:
            continue
        at = aligned_token(parsed, var)
        if _left_alone(parsed, rule, at) or _modal_concept(parsed, lemma, at):
            continue
        for pos in node_pos(parsed, var, idx.concepts[var]):
            if rule == "HS" and pos in ("VERB", "AUX") and "verb" not in variants:
                break
            if rule == "AR" and not has_antonyms(lemma, pos):
                continue
            if context is None:
                from core.foils.rules.senses import context_for

                context = context_for(parsed, options.sense_choice)
            choice = context.choose(lemma, pos, at)
            if choice is None:
                continue
            lead = options.margin(rule)
            close = choice.runner_up_score is not None and choice.score - choice.runner_up_score < lead
            if choice.method == "vectors" and close:
                break  # the vectors cannot tell its senses apart: a coin toss makes a wrong foil half the time
            edit_variant = variant if rule == "AR" else _hs_variant(idx, var, pos, choice.synset)
            if edit_variant not in variants:
                break
            if rule == "HS" and wn_pos(pos) == "n" and not _first_sense(choice.synset, lemma, pos):
                break  # the context chose a rarer sense: right 5 times in 15 ("my little brother" -> "member")
            found = _replacements(rule, parsed, var, lemma, pos, choice, options)
            if rule == "AR":
                found = [c for c in found if _ar_variant(c) in variants]
            candidates = found[:max_candidates] if max_candidates > 0 else found
            if not candidates:
                continue
            made = (
                _substitution(
                    rule, _ar_variant(cand) if rule == "AR" else edit_variant, parsed, idx, var, pos, cand, choice
                )
                for cand in candidates
            )
            edits += [edit for edit in made if edit is not None]
            break  # the first POS with candidates decides
    return edits


def ar_edits(
    parsed: ParsedSentence,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    options: LexicalOptions | None = None,
    variants: Sequence[str] = DEFAULT_VARIANTS["AR"],
) -> list[Edit]:
    """Antonym replacement through WordNet, from the word's sense in this sentence (up to
    ``max_candidates`` per node, best first; 0 = all); with ``converse``, "before" and "after" trade places
    (:mod:`core.foils.rules.converse`)."""
    edits = _lexical_edits("AR", "antonym", parsed, max_candidates, options or LexicalOptions(), variants)
    if "converse" in variants:
        from core.foils.rules.converse import converse_edits

        edits += converse_edits(parsed)
    return edits


def hs_edits(
    parsed: ParsedSentence,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    options: LexicalOptions | None = None,
    variants: Sequence[str] = DEFAULT_VARIANTS["HS"],
) -> list[Edit]:
    """Hypernym substitution through WordNet, from the word's sense in this sentence (up to
    ``max_candidates`` per node, best first; 0 = all). Concrete nouns (:data:`CONCRETE_LEXNAMES`) and adjectives by
    default; abstract nouns with the ``abstract`` variant and verbs with the ``verb`` variant (both opt-in: WordNet's
    verb hierarchy gives near-synonyms and far verbs, "rescue -> save", "teach -> communicate", 28% of them usable in
    the judged benchmark, docs/quality.md; abstract nouns get categories, "album -> medium")."""
    return _lexical_edits("HS", "hypernym", parsed, max_candidates, options or LexicalOptions(), variants)
