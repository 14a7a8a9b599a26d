"""AR's ``converse`` variant: a time word traded for its converse ("left before the guests arrived" -> "left after
the guests arrived"). WordNet lists no antonyms for prepositions and subordinators, so the pairs are a table.

>>> from core.foils.amr.graph import decode
>>> from core.types import ParsedSentence, Token
>>> words = "We left before the guests arrived .".split()
>>> deps = ["nsubj", "ROOT", "mark", "det", "nsubj", "advcl", "punct"]
>>> heads = [1, 1, 5, 4, 5, 1, 1]
>>> poses = ["PRON", "VERB", "SCONJ", "DET", "NOUN", "VERB", "PUNCT"]
>>> toks = tuple(Token(i, w, w.lower(), p, "X", d, h, 0) for i, (w, d, h, p) in enumerate(zip(words, deps, heads, poses)))
>>> g = decode("(l / leave-01 :ARG0 (w / we) :time (b / before :op1 (a / arrive-01 :ARG0 (g / guest))))")
>>> p = ParsedSentence(" ".join(words), g, toks, {"l": (1,), "w": (0,), "b": (2,), "a": (5,), "g": (4,)})
>>> [e.description for e in converse_edits(p)]
['antonym before → after']
"""

from __future__ import annotations

from functools import partial

from core.foils.amr.graph import INSTANCE, replace_triple
from core.foils.rules.index import GraphIndex, aligned_token, below, build_edit, dependents, governor, index_for, quoted
from core.types import Edit, ParsedSentence, Token

CONVERSES = {"before": "after", "after": "before"}
"""Time words and their converses: "before X" and "after X" order the same two events the other way round."""
_ANIMATE = frozenset({"i", "you", "he", "she", "we", "they", "him", "her", "us", "them", "me"})


_NO_TIME = frozenset(
    {"noun.person", "noun.animal", "noun.group", "noun.artifact", "noun.location", "noun.object", "noun.body",
     "noun.plant", "noun.substance"}
)  # fmt: skip
"""Nouns that are no time or event ("named after his grandfather", "stopped before the gates"): the word orders
people and places there, not events."""
_TIMED_ADVERBS = frozenset({"even", "yet", "ever", "already", "still", "only", "just", "barely"})
"""Words that lean on the time word ("before the hunters had even mounted", "after only six months"): after the
trade they read wrong."""


def _timed(parsed: ParsedSentence, idx: GraphIndex, var: str) -> bool:
    """``var`` introduces a time: its object is a clause, or a noun of a time, an event or an act ("after dinner",
    "before the guests arrived", "after the storm"; not "named after his grandfather", "looked after the children",
    "stopped before the gates", nor a length of time, "after more than six hours")."""
    ops = [child for role, child in idx.out.get(var, ()) if role == ":op1"]
    if len(ops) != 1:
        return False
    at = aligned_token(parsed, ops[0])
    if at is None:
        return False
    tok = parsed.tokens[at]
    if any(t.text.lower() in _TIMED_ADVERBS for t in below(parsed, tok)):
        return False
    if tok.pos in ("VERB", "AUX"):
        return not _past_before_present(parsed, tok)
    if tok.pos not in ("NOUN", "NUM") or tok.text.lower() in _ANIMATE:
        return False
    from core.foils.rules.wordnet_facts import lexname

    kind = lexname(tok.lemma.lower(), "n")
    if kind == "noun.time" and any(t.pos == "NUM" for t in below(parsed, tok)):
        return False  # a length of time, not a point: "brought under control after six hours" -> "before six hours"
    return kind not in _NO_TIME


def _past(parsed: ParsedSentence, verb: Token) -> bool:
    return verb.tag == "VBD" or any(t.tag == "VBD" for t in dependents(parsed, verb, "aux", "auxpass"))


def _past_before_present(parsed: ParsedSentence, clause: Token) -> bool:
    """The time clause is past and its main clause is not ("Police are appealing for witnesses after a tractor was
    stolen"): the converse puts a past event after a present one."""
    main = governor(parsed, clause)
    return main is not None and _past(parsed, clause) and not _past(parsed, main)


def converse_edits(parsed: ParsedSentence) -> list[Edit]:
    """Each "before"/"after" that introduces a time, traded for its converse (never inside quotation marks, never
    when the sentence already has the converse word)."""
    idx = index_for(parsed)
    words = {t.text.lower() for t in parsed.tokens}
    edits = []
    for var in idx.order:
        old = idx.concepts.get(var, "")
        new = CONVERSES.get(old)
        at = aligned_token(parsed, var)
        if new is None or at is None or new in words or quoted(parsed, at):
            continue
        tok = parsed.tokens[at]
        if tok.text.lower() != old or tok.dep not in ("prep", "mark") or not _timed(parsed, idx, var):
            continue
        make = partial(replace_triple, idx.graph, (var, INSTANCE, old), (var, INSTANCE, new))
        edited = build_edit("AR", parsed, idx, make)
        if edited is None:
            continue
        details = {"node": var, "old_concept": old, "new_concept": new, "new_lemma": new, "old_lemma": old,
                   "pos": tok.pos, "synset": None, "sense_method": "converse table"}  # fmt: skip
        description = f"antonym {old} → {new}"
        edits.append(Edit("AR", "converse", description, (var,), parsed, edited, details))
    return edits
