"""What a US drop must leave whole: a pronoun's antecedent, a noun-preposition-noun pair ("arm in arm"), a
conjunction's second conjunct, a clock time ("half past ten"), a number's article ("an estimated ninety million
dollars") and a noun's article ("scolded [the kitchen] maid"), a preposition's object, a percentage's number and a
quantity's "of" phrase ("much [of the fleet]").

>>> from core.types import ParsedSentence, Token
>>> words = "We met at half past ten".split()
>>> tags = ["PRP", "VBD", "IN", "PDT", "IN", "CD"]
>>> tokens = tuple(Token(i, w, w, "X", t, "dep", 0, 0) for i, (w, t) in enumerate(zip(words, tags)))
>>> clock_time(ParsedSentence("We met at half past ten", None, tokens=tokens), {3})
True
"""

from __future__ import annotations

from core.foils.rules.antecedents import strands_pronoun
from core.foils.rules.index import GraphIndex
from core.types import ParsedSentence, Token


def breaks_a_phrase(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop strands a pronoun, splits a noun-preposition-noun pair or a complex preposition, or leaves a
    conjunction without its conjunct ("leaves at half past eight or at nine?" -> "leaves at half past eight or?")."""
    return (
        strands_pronoun(parsed, dropped)
        or _splits_a_pair(parsed, dropped)
        or _splits_a_preposition(parsed, dropped)
        or _strands_conjunction(parsed, dropped)
        or _article_before_a_count(parsed, dropped)
        or _takes_an_article(parsed, dropped)
        or _strands_a_preposition(parsed, dropped)
        or _number_before_its_unit(parsed, dropped)
        or _strands_a_part(parsed, dropped)
        or _splits_a_lemma(parsed, dropped)
        or _leaves_a_clause_without_subject(parsed, dropped)
        or _splits_a_score(parsed, dropped)
    )


def _leaves_a_clause_without_subject(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop leaves a finite verb first in the sentence with no subject before it (the fronted phrase of an
    inversion: "In the shrubbery grew a tangle" -> "Grew a tangle"), or an auxiliary right after it whose verb keeps
    no subject (a conjunction read as a preposition: "dim, for the fire had been let die" -> "dim, had been let
    die")."""
    toks = parsed.tokens
    first = next((t for t in toks if t.i not in dropped and t.pos != "PUNCT"), None)
    if first is not None and first.i > 0 and first.tag in ("VBD", "VBZ", "VBP") and 0 in dropped:
        return True
    nxt = _next_kept(parsed, dropped, max(dropped)) if dropped else None
    if nxt is None or nxt.dep not in ("aux", "auxpass") or nxt.text.lower() == "to":
        return False
    subjects = [k for k in toks if k.head == nxt.head and k.dep in ("nsubj", "nsubjpass", "expl") and k.i not in dropped]
    return not subjects


def _splits_a_score(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes the first number of "by N to M" and leaves "to M": "backed, by nine votes to four," ->
    "backed, to four,"."""
    toks = parsed.tokens
    nxt = _next_kept(parsed, dropped, max(dropped)) if dropped else None
    after = toks[nxt.i + 1] if nxt is not None and nxt.i + 1 < len(toks) else None
    has_number = any(toks[i].tag == "CD" for i in dropped)
    return has_number and nxt is not None and nxt.text.lower() == "to" and after is not None and after.tag == "CD"


def _splits_a_lemma(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes part of three words WordNet lists as one lemma: "check that jabs are up to date" -> "are up"."""
    from core.foils.rules.wordnet_facts import three_word_lemmas

    return any(0 < len(set(range(i, i + 3)) & dropped) < 3 for i in three_word_lemmas([t.text for t in parsed.tokens]))


def _next_kept(parsed: ParsedSentence, dropped: set[int], i: int) -> Token | None:
    """The first token after ``i`` that the drop leaves in place."""
    return next((k for k in parsed.tokens[i + 1 :] if k.i not in dropped), None)


def _article_before_a_count(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop leaves "a"/"an" right before the number of a plural noun: "worth an estimated ninety million
    dollars" -> "worth a ninety million dollars" ("a three-year contract" is fine: its noun is singular)."""
    toks = parsed.tokens
    for t in toks:
        if t.i in dropped or t.text.lower() not in ("a", "an") or t.i + 1 not in dropped:
            continue
        nxt = _next_kept(parsed, dropped, t.i)
        if nxt is not None and nxt.tag == "CD" and toks[t.head].tag in ("NNS", "NNPS"):
            return True
        if nxt is not None and nxt.text.lower() in ("many", "deal"):
            return True  # "a great many faults" -> "a many faults", "a good deal of" -> "a deal of"
        possessive = nxt is not None and nxt.i + 1 < len(toks) and toks[nxt.i + 1].tag == "POS"
        if nxt is not None and t.head == nxt.i and _only_plural(nxt) and not possessive:
            return True  # "send him a dozen bottles" -> "send him a bottles" ("a new species" -> "a species" stays)
    return False


def _only_plural(noun: Token) -> bool:
    """A plural noun that is no singular too ("bottles"; "species", "means" may be either)."""
    from lemminflect import getAllLemmas

    word = noun.text.lower()
    return noun.tag in ("NNS", "NNPS") and word not in getAllLemmas(word, "NOUN").get("NOUN", ())


def _strands_a_preposition(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes an amount with its approximating preposition and leaves the preposition before it: "served us
    in under five minutes" -> "served us in", "cut the journey to under an hour" -> "cut the journey to" ("clattered on
    [until midnight]", "was sent for [at once]" stay)."""
    toks = parsed.tokens
    return any(
        t.tag in ("IN", "RP") and t.i not in dropped and t.i + 1 in dropped and toks[t.i + 1].tag == "IN"
        and toks[t.i + 1].text.lower() in _APPROXIMATORS
        and not [k for k in toks if k.head == t.i and k.i != t.i and k.i not in dropped and k.dep in ("pobj", "pcomp")]
        for t in toks[:-1]
    )  # fmt: skip


_APPROXIMATORS = frozenset({"under", "over", "about", "around"})


_PER_CENT = frozenset({"per", "percent", "%"})


def _number_before_its_unit(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes the number of a percentage: "fell 12 per cent" -> "fell per cent"."""
    toks = parsed.tokens
    for i in dropped:
        nxt = _next_kept(parsed, dropped, i)
        if toks[i].tag == "CD" and nxt is not None and nxt.text.lower() in _PER_CENT:
            return True
    return False


QUANTIFIER_WORDS = frozenset(
    {"much", "many", "some", "most", "all", "none", "each", "one", "few", "several", "both", "either", "neither", "any",
     "part", "half", "rest"}
)  # fmt: skip


def _strands_a_part(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes the "of" phrase of a quantity it leaves: "kept much of the coastal fleet in harbour" -> "kept
    much"."""
    toks = parsed.tokens
    return any(
        t.text.lower() == "of" and t.i in dropped and toks[t.head].i not in dropped
        and toks[t.head].text.lower() in QUANTIFIER_WORDS
        for t in toks
    )  # fmt: skip


COMPLEX_PREPOSITIONS = frozenset(
    {
        ("in", "connection", "with"), ("in", "front", "of"), ("in", "spite", "of"), ("on", "behalf", "of"),
        ("in", "charge", "of"), ("in", "favour", "of"), ("in", "favor", "of"), ("in", "addition", "to"),
        ("in", "response", "to"), ("in", "relation", "to"), ("with", "regard", "to"), ("in", "search", "of"),
        ("in", "terms", "of"), ("by", "means", "of"), ("in", "place", "of"), ("on", "top", "of"),
        ("in", "case", "of"), ("in", "honour", "of"), ("in", "honor", "of"), ("in", "memory", "of"),
    }
)  # fmt: skip
"""Three words that work as one preposition: a drop takes all three with their object or none of them ("arrested
two men in connection with the robbery" -> "arrested two men in connection")."""


def _splits_a_preposition(parsed: ParsedSentence, dropped: set[int]) -> bool:
    toks = parsed.tokens
    return any(
        tuple(t.text.lower() for t in toks[i : i + 3]) in COMPLEX_PREPOSITIONS and 0 < len({i, i + 1, i + 2} & dropped) < 3
        for i in range(len(toks) - 2)
    )


def _strands_conjunction(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """A dropped conjunct's conjunction ("or", "and") stays, with nothing after it: by the parse, or on the page
    when the parser hung the conjunct elsewhere (a conjunction, then the drop, then punctuation or the end)."""
    toks = parsed.tokens
    if not dropped:
        return False
    heads = {toks[i].head for i in dropped if toks[i].dep == "conj" and toks[i].head not in dropped}
    if any(t.dep == "cc" and t.head in heads and t.i not in dropped for t in toks):
        return True
    before, after = min(dropped) - 1, max(dropped) + 1
    return before >= 0 and toks[before].tag == "CC" and (after >= len(toks) or toks[after].pos == "PUNCT")


def aligned_words(parsed: ParsedSentence, idx: GraphIndex, var: str) -> set[int]:
    """The tokens aligned to ``var`` and the nodes below it: the words its drop removes from the sentence."""
    return {i for v in idx.subtree(var) for i in parsed.alignment.get(v, ())}


def clock_time(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes the "half past" or "quarter to" of a clock time: "at half past ten" -> "at ten" is another
    time, not a less specific one (0 usable of 2)."""
    toks = parsed.tokens

    def number(i: int) -> bool:
        return 0 <= i < len(toks) and toks[i].tag == "CD"

    return any(
        t.text.lower() in ("past", "to") and number(t.i + 1) and t.i + 1 not in dropped and {t.i - 1, t.i} & dropped
        and (number(t.i - 1) or (t.i > 0 and toks[t.i - 1].text.lower() in ("half", "quarter")))
        for t in toks
    )  # fmt: skip


def _splits_a_pair(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes part of a noun-preposition-noun pair, a fixed phrase ("walked arm in arm" -> "walked arm",
    "side by side", "day after day"), or the word just before it, which the parser may have read as the first noun's
    modifier ("walked to church arm in arm" -> "walked to arm in arm")."""
    toks = parsed.tokens
    for i in range(len(toks) - 2):
        if toks[i + 1].pos != "ADP" or toks[i].text.lower() != toks[i + 2].text.lower():
            continue
        if 0 < len({i, i + 1, i + 2} & dropped) < 3 or (i - 1 in dropped and toks[i - 1].head == i):
            return True
    return False


def _ancestors(parsed: ParsedSentence, i: int) -> set[int]:
    toks, found = parsed.tokens, set()
    while toks[i].head != i and toks[i].head not in found:
        i = toks[i].head
        found.add(i)
    return found


def _takes_an_article(parsed: ParsedSentence, dropped: set[int]) -> bool:
    """The drop takes an article and leaves the singular noun it belongs to: the parser hung the article on a
    compound's first noun, so "scolded [the kitchen] maid" -> "scolded maid" (a plural may stand bare: "thought [the
    London] assemblies rather dull")."""
    toks = parsed.tokens
    for i in dropped:
        if toks[i].dep != "det" or toks[i].text.lower() not in ("the", "a", "an"):
            continue
        nxt = _next_kept(parsed, dropped, i)
        if nxt is not None and nxt.tag == "NN" and nxt.i in _ancestors(parsed, i):
            return True
    return False
