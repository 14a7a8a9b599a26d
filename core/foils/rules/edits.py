"""The five SentenceSmith edit rules: enumerate every applicable :class:`~core.types.Edit`, sample with a seed.

Each rule is a pure function ``parsed -> list[Edit]`` (``[]`` means "not applicable"):

- PN ``pn_edits``: ``:polarity -`` on the main predicate (``main-predicate``) or any eligible node
  (``any-node``); a node that is already negated is un-negated instead (variant ``unnegate``).
- RS ``rs_edits``: swap the ARG0 and ARG1 subtrees of an event (``agent-patient``, the paper), or
  the edges of two leaves (``two-leaf``, the released code's behaviour).
- US ``us_edits``: remove a leaf and its edge (``leaf``).
- AR ``ar_edits`` / HS ``hs_edits``: replace a concept by a WordNet antonym / hypernym
  (``antonym`` / ``hypernym``), keeping the sense suffix (``happy-01`` -> ``unhappy-01``).

Edited graphs keep the source's printed layout where the shape allows (docs/foil-rules.md). The
source graph is checked with :func:`core.foils.amr.graph.validate_graph` once per sentence; each edit is then
valid by construction up to one local check, and an edit that would be invalid is dropped and counted
in :data:`DROPPED` (logged at debug level); ``FULL_VALIDATION = True`` validates every edit fully.
Edits that would repeat another variant's graph are not produced (``any-node`` skips the main
predicate; ``two-leaf`` skips an ``agent-patient`` pair). ``Edit.details`` follows docs/architecture.md
(two-leaf RS adds ``parents``; AR/HS add ``old_lemma``).

>>> from core.foils.amr.graph import decode
>>> from core.types import ParsedSentence
>>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
>>> [e.description for e in pn_edits(p)][:1]
['negate chase-01 (main predicate)']
>>> [e.description for e in rs_edits(p)]
['swap ARG0 cat ↔ ARG1 mouse of chase-01']
"""

from __future__ import annotations

import logging
import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import penman

from core.errors import ConfigError
from core.foils.amr.graph import (
    INSTANCE,
    POLARITY,
    Triple,
    add_attribute,
    rebuild,
    relayout,
    remove_attribute,
    remove_leaf,
    remove_node,
    replace_triple,
    swap_edge_targets,
    validate_graph,
)
from core.foils.parse.lex import adverb_to_adjective
from core.foils.realize.morph import inflect
from core.foils.rules.lexicon import (
    UNIVERSAL_POS,
    Candidate,
    LexicalOptions,
    has_antonyms,
    is_synonym,
    lexicalised_pair,
    sense_antonyms,
    sense_hypernyms,
    wn_pos,
    zipf,
)
from core.types import RULES, Edit, ParsedSentence, Token

log = logging.getLogger(__name__)

PN_VARIANTS: tuple[str, ...] = ("main-predicate", "clause-predicate", "determiner", "any-node")
RS_VARIANTS: tuple[str, ...] = ("agent-patient", "recipient", "comparison", "clauses", "agent-patient-any", "two-leaf")
US_VARIANTS: tuple[str, ...] = ("modifier", "adjunct", "optional-argument", "leaf")
VARIANTS: Mapping[str, tuple[str, ...]] = {
    "PN": (*PN_VARIANTS, "unnegate"),
    "RS": RS_VARIANTS,
    "US": US_VARIANTS,
    "AR": ("antonym",),
    "HS": ("hypernym", "verb"),
}
OPT_IN: frozenset[str] = frozenset({"PN:any-node", "RS:agent-patient-any", "RS:two-leaf", "US:leaf", "HS:verb"})
"""The released code's behaviours: labelled variants a user asks for by name (``--variants PN:any-node``);
they are not part of the defaults because most of what they produce is not a usable foil (docs/foil-rules.md)."""
RELEASED_VARIANTS: Mapping[str, tuple[str, ...]] = {
    "PN": ("main-predicate", "any-node"),
    "RS": ("agent-patient-any", "two-leaf"),
    "US": ("leaf",),
    "HS": ("hypernym", "verb"),
}
"""The first round's defaults (the paper plus the released code's behaviours): ``--variants
PN:main-predicate,PN:any-node,RS:agent-patient-any,RS:two-leaf,US:leaf`` reproduces its edits (its
unconstrained agent-patient swap is now labelled ``agent-patient-any``; its verb hypernyms, ``HS:verb``)."""
DEFAULT_VARIANTS: Mapping[str, tuple[str, ...]] = {
    rule: tuple(v for v in names if f"{rule}:{v}" not in OPT_IN) for rule, names in VARIANTS.items()
}

PRONOUNS = frozenset(
    {
        "i", "you", "he", "she", "it", "we", "they", "me", "him", "her", "us", "them", "myself", "yourself",
        "himself", "herself", "itself", "ourselves", "themselves", "one", "this", "that", "these", "those",
        "who", "whom", "what", "which", "everyone", "someone", "anyone", "nobody",
    }
)  # fmt: skip
CONNECTIVES = frozenset({"and", "or", "multi-sentence", "slash", "either", "neither"})
# AMR special concepts no rule edits (name nodes, pronouns, connectives and -91 frames are excluded too).
SPECIAL = frozenset({"amr-unknown", "amr-choice", "amr-empty", "interrogative", "imperative", "expressive"})
_SUFFIX = re.compile(r"^(?P<lemma>.+?)(?P<suffix>-\d+)$")
_OP = re.compile(r"^:(op|snt)(\d+)$")

_FUNCTION_WORDS = frozenset({"of", "in", "to", "for", "on", "at", "by", "with", "from", "the", "a", "an", "be"})

DEFAULT_MAX_CANDIDATES = 3  # WordNet candidates per node for AR/HS (best ranked first)

FULL_VALIDATION = False
"""Run :func:`core.foils.amr.graph.validate_graph` on every edited graph, even when the source graph is valid."""

DROPPED: Counter[str] = Counter()
"""Edits dropped because the edited graph failed validation, per rule (a debug counter)."""


# --------------------------------------------------------------------------- graph index


@dataclass
class _Index:
    """One pass over a graph: concepts, edges out/in, attributes, in triple order."""

    graph: penman.Graph  # the source graph, freshly laid out (edits that keep the shape reuse its layout)
    concepts: dict[str, str]
    out: dict[str, list[tuple[str, str]]]  # var -> [(role, child)]
    into: dict[str, list[tuple[str, str]]]  # var -> [(parent, role)]
    attrs: dict[str, list[tuple[str, str]]]  # var -> [(role, constant)]
    order: list[str]  # variables in order of their :instance triple
    valid: bool = True  # the source graph passes validate_graph
    triples: frozenset[Triple] = frozenset()
    with_name: frozenset[str] = frozenset()  # variables with a :name edge (named entities)

    @classmethod
    def of(cls, graph: penman.Graph, layout: bool = True) -> _Index:
        concepts: dict[str, str] = {}
        order: list[str] = []
        for s, r, t in graph.triples:
            if r == INSTANCE and s not in concepts:
                concepts[s] = t
                order.append(s)
        out: dict[str, list[tuple[str, str]]] = defaultdict(list)
        into: dict[str, list[tuple[str, str]]] = defaultdict(list)
        attrs: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for s, r, t in graph.triples:
            if r == INSTANCE:
                continue
            if t in concepts:
                out[s].append((r, t))
                into[t].append((s, r))
            else:
                attrs[s].append((r, t))
        laid = relayout(graph) if layout else graph
        valid = not validate_graph(laid) if layout else True
        with_name = frozenset(v for v, edges in out.items() if any(r == ":name" for r, _ in edges))
        return cls(
            laid, concepts, out, into, attrs, order, valid=valid, triples=frozenset(graph.triples), with_name=with_name
        )

    def negated(self, var: str) -> bool:
        return (POLARITY, "-") in self.attrs.get(var, ())

    def is_leaf(self, var: str) -> bool:
        return var in self.concepts and not self.out.get(var)

    def named(self, var: str) -> bool:
        return var in self.with_name

    def is_name(self, var: str) -> bool:
        """A name node (``(n / name :op1 "Mary")``, or the target of ``:name``), not the noun "name"."""
        if self.concepts.get(var) != "name":
            return False
        return any(_OP.match(r) for r, _ in self.attrs.get(var, ())) or any(
            r == ":name" for _, r in self.into.get(var, ())
        )

    def eligible(self, var: str) -> bool:
        """A node a rule may edit: not a pronoun, name node, connective or special AMR concept."""
        c = self.concepts.get(var, "")
        if not c or c in PRONOUNS or c in SPECIAL or c in CONNECTIVES or c.endswith("-91") or c.startswith('"'):
            return False
        return not self.is_name(var)

    def label(self, var: str) -> str:
        """The concept, with the name for name nodes and named entities (``name "Mary"``, ``person "Mary"``)."""
        c = self.concepts.get(var, var)
        if self.is_name(var):
            return f'name "{self.name_of(var)}"'
        for r, t in self.out.get(var, ()):
            if r == ":name":
                return f'{c} "{self.name_of(t)}"'
        return c

    def name_of(self, var: str) -> str:
        ops = sorted((r, t) for r, t in self.attrs.get(var, ()) if _OP.match(r))
        ops.sort(key=lambda rt: _op_key(rt[0]))
        return " ".join(t.strip('"') for _, t in ops)


_LAST_INDEX: tuple[ParsedSentence | None, _Index | None] = (None, None)


def _index_for(parsed: ParsedSentence) -> _Index:
    """The index of ``parsed``'s graph; the last one is reused (enumerate_edits runs five rules on it)."""
    global _LAST_INDEX
    last_parsed, last_index = _LAST_INDEX  # one tuple read: safe when rules run in threads
    if last_parsed is parsed and last_index is not None:
        return last_index
    index = _Index.of(parsed.graph)
    _LAST_INDEX = (parsed, index)
    return index


def _build(
    rule: str, parsed: ParsedSentence, idx: _Index, make: Callable[[], penman.Graph], local: str | None = None
) -> penman.Graph | Callable[[], penman.Graph] | None:
    """What an :class:`Edit` carries as ``edited``: ``make`` itself (built on first use) when the edit is
    known to be valid, the built graph when it had to be validated, or None when it is invalid (counted
    in :data:`DROPPED`, logged at debug level).

    ``local`` is the edit's own check (a problem string, or None). When the source graph is valid
    each rule's edit is valid by construction except for what ``local`` checks, so the graph is
    built and fully checked with :func:`validate_graph` only when the source is invalid or
    :data:`FULL_VALIDATION` is set (the property tests validate every edit fully and pin this
    equivalence). Building lazily matters: a sentence has ~24 applicable edits and a run samples ~8.
    """
    problems = [local] if local else []
    built = None
    if not problems and (FULL_VALIDATION or not idx.valid):
        built = make()
        problems = validate_graph(built)
    if problems:
        DROPPED[rule] += 1
        log.debug("%s edit dropped on %r: %s", rule, parsed.text, "; ".join(problems))
        return None
    return built if built is not None else make


def _op_key(role: str) -> tuple[int, str]:
    m = _OP.match(role)
    return (int(m.group(2)), role) if m else (10**6, role)


# --------------------------------------------------------------------------- PN


def main_predicate(graph: penman.Graph) -> str | None:
    """The top node, or under ``and``/``multi-sentence`` tops the first operand (by ``:opN``/``:sntN``).

    >>> from core.foils.amr.graph import decode
    >>> main_predicate(decode("(m / multi-sentence :snt2 (b / bark-01) :snt1 (r / run-01))"))
    'r'
    """
    idx = _Index.of(graph, layout=False)
    return _main(idx, graph.top)


def _main(idx: _Index, top: str | None) -> str | None:
    var = top
    seen: set[str] = set()
    while var is not None and idx.concepts.get(var) in CONNECTIVES and var not in seen:
        seen.add(var)
        ops = sorted((r, t) for r, t in idx.out.get(var, ()) if _OP.match(r))
        ops.sort(key=lambda rt: _op_key(rt[0]))
        var = ops[0][1] if ops else None
    if var is None or not idx.eligible(var):
        return None
    return var


_CLAUSE_DEPS = frozenset({"advcl", "ccomp", "conj", "relcl", "xcomp"})
_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "dative"})  # subject and object noun phrases
_NO_DETS = frozenset({"a", "an", "the", "some", "every", "each", "this", "that", "these", "those"})


def _dependents(parsed: ParsedSentence, tok: Token, *deps: str) -> list[Token]:
    """The dependency children of ``tok`` in order, only those with one of ``deps`` when given (the rules' twin of
    the realizer's ``Sentence.kids``)."""
    return [t for t in parsed.tokens if t.head == tok.i and t.i != tok.i and (not deps or t.dep in deps)]


def _head_token(parsed: ParsedSentence, var: str) -> Token | None:
    """The first token aligned to ``var`` (its head word), or None."""
    for i in parsed.alignment.get(var, ()):
        if 0 <= i < len(parsed.tokens):
            return parsed.tokens[i]
    return None


def _vars_by_head(parsed: ParsedSentence, idx: _Index) -> dict[int, str]:
    """Token index -> the (first) node whose head word it is."""
    out: dict[int, str] = {}
    for var in idx.order:
        tok = _head_token(parsed, var)
        if tok is not None:
            out.setdefault(tok.i, var)
    return out


def _clause_predicates(parsed: ParsedSentence, idx: _Index, main: str | None) -> list[str]:
    """Predicates of subordinate, complement and coordinated clauses ("if it rains", "that she came")."""
    out = []
    for var in idx.order:
        tok = _head_token(parsed, var)
        if var == main or tok is None or not idx.eligible(var) or idx.named(var):
            continue
        if tok.pos in ("VERB", "AUX") and tok.dep in _CLAUSE_DEPS:
            out.append(var)
    return out


def _negatable_arguments(parsed: ParsedSentence, idx: _Index) -> list[str]:
    """Subject and object nouns with a determiner that can become "no" ("A boy found" -> "No boy found"),
    never inside a prepositional or time phrase, never when their predicate is already negated."""
    heads = _vars_by_head(parsed, idx)
    out = []
    for var in idx.order:
        tok = _head_token(parsed, var)
        if tok is None or tok.pos != "NOUN" or tok.dep not in _ARGUMENT_DEPS or not idx.eligible(var):
            continue
        if idx.negated(var) or idx.named(var):
            continue
        kids = _dependents(parsed, tok)
        dets = [t for t in kids if t.dep == "det"]
        if not dets or dets[0].text.lower() not in _NO_DETS or any(t.dep in ("poss", "nummod", "predet") for t in kids):
            continue
        verb = parsed.tokens[tok.head] if 0 <= tok.head < len(parsed.tokens) else tok
        if tok.dep in ("dobj", "dative") and (
            verb.tag not in ("VBD", "VBZ", "VBP") or bool(_dependents(parsed, verb, "aux", "auxpass"))
        ):
            continue  # "had to cancel no picnic", "will buy no car": an object takes "no" only after a plain finite verb
        pred = heads.get(tok.head)
        if pred is None or idx.negated(pred) or any(t.head == tok.head and t.dep == "neg" for t in parsed.tokens):
            continue  # "did not like no tea": a double negation
        out.append(var)
    return out


def pn_edits(parsed: ParsedSentence, variants: Sequence[str] = DEFAULT_VARIANTS["PN"]) -> list[Edit]:
    """Polarity negation (docs/foil-rules.md):

    - ``main-predicate``: negate the main predicate (do-support, modals, copulas);
    - ``clause-predicate``: negate the predicate of a subordinate, complement or coordinated clause;
    - ``determiner``: a subject or object noun phrase's determiner becomes "no" ("A boy found" -> "No boy found");
    - ``unnegate``: an already negated node loses its negation (always offered where a negation exists);
    - ``any-node`` (opt-in, the released code's behaviour): any eligible node, including nouns in phrases.
    """
    _check_variants("PN", variants, VARIANTS["PN"])
    idx = _index_for(parsed)
    targets: list[tuple[str, str]] = []  # (var, where)
    main = _main(idx, parsed.graph.top)
    if "main-predicate" in variants and main is not None:
        targets.append((main, "main predicate"))
    if "clause-predicate" in variants:
        targets += [(v, "clause predicate") for v in _clause_predicates(parsed, idx, main)]
    if "determiner" in variants:
        targets += [(v, "subject/object determiner") for v in _negatable_arguments(parsed, idx)]
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
        if idx.negated(var):
            if "unnegate" not in variants and where not in ("main predicate", "any node"):
                continue
            action, variant, verb = "unnegate", "unnegate", "un-negate"
            make = partial(remove_attribute, idx.graph, (var, POLARITY, "-"))
        else:
            action, verb = "negate", "negate"
            variant = {
                "main predicate": "main-predicate",
                "clause predicate": "clause-predicate",
                "subject/object determiner": "determiner",
            }.get(where, "any-node")
            make = partial(add_attribute, idx.graph, var, POLARITY, "-")
        edited = _build("PN", parsed, idx, make)
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


# --------------------------------------------------------------------------- RS


def _signature(idx: _Index, var: str) -> tuple[Any, ...] | None:
    """Leaves with equal signatures are interchangeable (swapping them changes nothing)."""
    if not idx.is_leaf(var):
        return None
    return (idx.concepts[var], tuple(sorted(idx.attrs.get(var, ()))))


def _swap(
    parsed: ParsedSentence, idx: _Index, first: Triple, second: Triple
) -> penman.Graph | Callable[[], penman.Graph] | None:
    """The graph (or its builder) with the targets of edges ``first`` and ``second`` exchanged, or None when invalid."""
    (s1, r1, t1), (s2, r2, t2) = first, second
    local = None
    if (s1, r1, t2) in idx.triples or (s2, r2, t1) in idx.triples:
        local = f"swap would duplicate an edge of {s1!r} or {s2!r}"
    return _build("RS", parsed, idx, partial(swap_edge_targets, idx.graph, first, second), local)


_PLACES = frozenset({"country", "city", "location", "state", "province", "county", "continent", "facility"})


def _entity_kind(concept: str) -> str:
    """Entity types that can stand in for each other in a role swap (places are one kind)."""
    return "place" if concept in _PLACES else concept


def _nested(idx: _Index, a: str, b: str) -> bool:
    """One of ``a``, ``b`` is below the other (swapping their edges would cut the graph)."""
    for top, other in ((a, b), (b, a)):
        stack, seen = [top], {top}
        while stack:
            for _, child in idx.out.get(stack.pop(), ()):
                if child == other:
                    return True
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return False


_ANIMATE_LEXNAMES = frozenset({"noun.person", "noun.animal", "noun.group"})
_ANIMATE_PRONOUNS = frozenset({"i", "you", "he", "she", "we", "they", "who", "someone", "everyone", "nobody"})
_COMPARED = (":prep-than", ":compared-to")


def _animate(parsed: ParsedSentence, idx: _Index, var: str) -> bool:
    """A person, animal or group: a named person or organisation, a personal pronoun, or a noun whose most
    frequent WordNet sense is one (the arguments that can trade places with an agent or a recipient)."""
    concept = idx.concepts.get(var, "")
    if concept in _ANIMATE_PRONOUNS or concept in ("person", "organization", "company", "government-organization"):
        return True
    tok = _head_token(parsed, var)
    if tok is not None and tok.ent_type in ("PERSON", "ORG", "NORP"):
        return True
    from core.foils.rules.wordnet_facts import lexname

    return lexname(split_concept(concept)[0], "n") in _ANIMATE_LEXNAMES


def _predicate(parsed: ParsedSentence, idx: _Index, var: str) -> bool:
    tok = _head_token(parsed, var)
    if tok is not None:
        return tok.pos in ("VERB", "AUX") or (tok.pos == "ADJ" and tok.dep in ("acomp", "ccomp", "advcl"))
    return bool(split_concept(idx.concepts.get(var, ""))[1])


def _kind(parsed: ParsedSentence, idx: _Index, var: str) -> str:
    """The semantic class an argument swap compares: "animate", a noun's WordNet lexicographer class
    (``noun.food``, ``noun.artifact``), or "" when unknown (a pronoun like "it", a clause)."""
    if _animate(parsed, idx, var):
        return "animate"
    tok = _head_token(parsed, var)
    if tok is not None and tok.pos not in ("NOUN", "PROPN"):
        return ""
    from core.foils.rules.wordnet_facts import lexname

    return lexname(split_concept(idx.concepts.get(var, ""))[0], "n")


def _nominal(parsed: ParsedSentence, var: str) -> bool:
    tok = _head_token(parsed, var)
    return tok is not None and tok.pos in ("NOUN", "PROPN")


def _can_trade(parsed: ParsedSentence, idx: _Index, a: str, b: str) -> bool:
    """Two arguments can trade places: both clauses (the two sides of ``cause-01``), both persons, animals or
    groups ("the nurse examined the patient"), or two nouns of one WordNet class ("the truck hit the car",
    "she prefers tea to coffee"). "The soup brought the waiter" is no role swap a reader accepts: an object
    cannot act (docs/quality-protocol.md, RS)."""
    if _predicate(parsed, idx, a) and _predicate(parsed, idx, b):
        return True
    kind = _kind(parsed, idx, a)
    return bool(kind) and kind == _kind(parsed, idx, b)


_CLAUSE_ROLES = (":concession",)  # "although A, B" <-> "although B, A": any tenses
_TENSED_CLAUSE_ROLES = (":time", ":condition")  # "when A, B" <-> "when B, A": only when the tenses can follow
_TEMPORAL_CONNECTIVES = frozenset(
    {"after", "before"}
)  # (a / after :op1 clause) under :time ("until" needs a lasting main clause)


def _tense(parsed: ParsedSentence, var: str) -> str | None:
    """ "past" / "present" for a clause whose verb group has no modal or future ("will"), else None."""
    tok = _head_token(parsed, var)
    if tok is None:
        return None
    group = [tok, *_dependents(parsed, tok, "aux", "auxpass")]
    if any(t.tag == "MD" for t in group):
        return None
    finite = next((t for t in group if t.tag in ("VBD", "VBZ", "VBP")), None)
    if finite is None:
        return None
    return "past" if finite.tag == "VBD" else "present"


_SWAP_SUBORDINATORS = {
    ":time": frozenset({"when", "whenever", "after", "before", "once"}),
    ":condition": frozenset({"if"}),
}
"""The words that introduce a time or condition clause that can trade places with its main clause; not "while" or
"as", which mostly contrast two facts (swapping them changes nothing) or mean "in the way that"."""


def _subordinator_fits(parsed: ParsedSentence, sub: str, role: str) -> bool:
    tok = _head_token(parsed, sub)
    if tok is None:
        return False
    marks = {t.text.lower() for t in _dependents(parsed, tok, "mark", "advmod")}
    return bool(marks & _SWAP_SUBORDINATORS.get(role, frozenset()))


def _same_tense(parsed: ParsedSentence, a: str, b: str) -> bool:
    """Both clauses in one simple tense, so each reads right in the other's place ("when the bell rang, the children
    ran" -> "when the children ran, the bell rang"; not "if it rains, we will stay")."""
    tense = _tense(parsed, a)
    return tense is not None and tense == _tense(parsed, b)


def _reroot(graph: penman.Graph, main: str, sub: str, role: str) -> penman.Graph:
    """``main`` :role ``sub`` becomes ``sub`` :role ``main`` (``sub`` the new top when ``main`` was)."""
    triples = [(sub, role, main) if (s, r, t) == (main, role, sub) else (s, r, t) for s, r, t in graph.triples]
    return rebuild(graph, triples, top=sub if graph.top == main else graph.top)


def _reroot_through(graph: penman.Graph, main: str, link: str, sub: str, role: str) -> penman.Graph:
    """``main`` :role (``link`` :op1 ``sub``) becomes ``sub`` :role (``link`` :op1 ``main``) ("he left before she
    arrived" -> "she arrived before he left")."""
    swap = {(main, role, link): (sub, role, link), (link, ":op1", sub): (link, ":op1", main)}
    triples = [swap.get(t, t) for t in graph.triples]
    return rebuild(graph, triples, top=sub if graph.top == main else graph.top)


def _clause_swap(
    parsed: ParsedSentence, idx: _Index, main: str, sub: str, role: str, link: str | None = None
) -> Edit | None:
    """RS ``clauses``: the main clause and its concessive, conditional or time clause trade places ("Although he
    was tired, he finished the report" -> "Although he finished the report, he was tired"); ``link`` is the
    ``after``/``before`` node between them, when there is one."""
    if _nested(idx, sub, main) and main in _subtree(idx, sub):
        return None
    if link is None:
        make = partial(_reroot, idx.graph, main, sub, role)
    else:
        make = partial(_reroot_through, idx.graph, main, link, sub, role)
    edited = _build("RS", parsed, idx, make)
    if edited is None:
        return None
    return Edit(
        rule="RS",
        variant="clauses",
        description=f"swap the clauses {idx.label(main)} ↔ {idx.label(sub)} ({role[1:]})",
        nodes=(main, sub),
        source=parsed,
        edited=edited,
        details={"a": main, "b": sub, "roles": (role, role), "clauses": True},
    )


def _pair_edit(parsed: ParsedSentence, idx: _Index, event: str, a: str, b: str, ra: str, rb: str, variant: str):
    """The RS edit swapping ``event``'s ``ra`` argument ``a`` with its ``rb`` argument ``b`` (None when invalid)."""
    if a == b or (_signature(idx, a) is not None and _signature(idx, a) == _signature(idx, b)):
        return None
    pair = ((event, ra, a), (event, rb, b))
    edited = _swap(parsed, idx, *pair)
    if edited is None:
        return None
    return Edit(
        rule="RS",
        variant=variant,
        description=f"swap {ra[1:]} {idx.label(a)} ↔ {rb[1:]} {idx.label(b)} of {idx.label(event)}",
        nodes=(event, a, b),
        source=parsed,
        edited=edited,
        details={"event": event, "a": a, "b": b, "roles": (ra, rb)},
    )


def rs_edits(parsed: ParsedSentence, variants: Sequence[str] = DEFAULT_VARIANTS["RS"]) -> list[Edit]:
    """Role swap: two arguments of one predicate that can trade places (docs/foil-rules.md):

    - ``agent-patient`` (the paper): ARG0 <-> ARG1 of each event, active or passive, when the two can trade
      places (:func:`_can_trade`: both animate, or the two clauses of ``cause-01``: "she is happy because her
      team won" -> "her team won because she is happy"); ``agent-patient-any`` (opt-in) swaps them whatever
      they are ("the soup brought the waiter"), as the paper's generator does;
    - ``recipient``: ARG0 <-> ARG2 and ARG1 <-> ARG2 when the two can trade places ("the teacher gave the
      students a test" -> "the students gave the teacher a test"; "she prefers tea to coffee"), and a
      source with a destination ("from Paris to London");
    - ``comparison``: the two sides of a comparison ("Tom is taller than his brother");
    - ``clauses``: a main clause and its concessive clause ("although A, B" -> "although B, A");
    - ``two-leaf`` (opt-in, the released code's behaviour): the edges of two leaves anywhere in the graph.
    """
    _check_variants("RS", variants, VARIANTS["RS"])
    idx = _index_for(parsed)
    edits: list[Edit] = []
    swapped: set[frozenset[Triple]] = set()  # edge pairs already swapped (argument swaps win over two-leaf)

    def add(edit: Edit | None) -> None:
        if edit is not None:
            e, a, b = edit.nodes
            ra, rb = edit.details["roles"]
            swapped.add(frozenset(((e, ra, a), (e, rb, b))))
            edits.append(edit)

    for event in idx.order:
        outs = idx.out.get(event, ())
        args = {role: [t for r, t in outs if r == role] for role in (":ARG0", ":ARG1", ":ARG2", *_COMPARED)}
        if "agent-patient" in variants or "agent-patient-any" in variants:
            for a in args[":ARG0"]:
                for b in args[":ARG1"]:
                    if _can_trade(parsed, idx, a, b):
                        add(_pair_edit(parsed, idx, event, a, b, ":ARG0", ":ARG1", "agent-patient"))
                    elif "agent-patient-any" in variants:  # the paper's swap whatever the arguments
                        add(_pair_edit(parsed, idx, event, a, b, ":ARG0", ":ARG1", "agent-patient-any"))
        if "recipient" in variants and args[":ARG2"]:
            for ra in (":ARG0", ":ARG1"):
                for a in args[ra]:
                    for b in args[":ARG2"]:
                        if _can_trade(parsed, idx, a, b) and not (
                            _predicate(parsed, idx, a) or _predicate(parsed, idx, b)
                        ):
                            add(_pair_edit(parsed, idx, event, a, b, ra, ":ARG2", "recipient"))
        if "recipient" in variants:
            for a in [t for r, t in outs if r == ":source"]:
                for b in [t for r, t in outs if r == ":destination"]:
                    if _nominal(parsed, a) and _nominal(parsed, b):  # "from Paris to London" -> "from London to Paris"
                        add(_pair_edit(parsed, idx, event, a, b, ":source", ":destination", "recipient"))
        if "clauses" in variants and _predicate(parsed, idx, event):
            for r, t in outs:
                link = None
                if r == ":time" and idx.concepts.get(t) in _TEMPORAL_CONNECTIVES:
                    ops = [x for rr, x in idx.out.get(t, ()) if rr == ":op1"]
                    link, t = (t, ops[0]) if len(ops) == 1 and len(idx.out.get(t, ())) == 1 else (None, t)
                if not _predicate(parsed, idx, t):
                    continue
                tensed = (
                    r in _TENSED_CLAUSE_ROLES and _subordinator_fits(parsed, t, r) and _same_tense(parsed, event, t)
                )
                if r in _CLAUSE_ROLES or tensed:
                    edit = _clause_swap(parsed, idx, event, t, r, link)
                    if edit is not None:
                        edits.append(edit)
        if "comparison" in variants:
            for rb in _COMPARED:
                for a in args[":ARG1"] or args[":ARG0"]:
                    ra = ":ARG1" if args[":ARG1"] else ":ARG0"
                    for b in args[rb]:
                        add(_pair_edit(parsed, idx, event, a, b, ra, rb, "comparison"))
    if "two-leaf" in variants:
        # A name leaf stands for its whole named entity: the entity node (with its type) moves, so
        # "born in Paris (city)" and "lives in France (country)" swap as city and country.
        leaves = []
        for v in idx.order:
            if v == parsed.graph.top or not idx.is_leaf(v) or len(idx.into.get(v, ())) != 1:
                continue
            if idx.is_name(v):
                v = idx.into[v][0][0]
                if v == parsed.graph.top or len(idx.into.get(v, ())) != 1:
                    continue
            leaves.append(v)
        for i, a in enumerate(leaves):
            (pa, ra) = idx.into[a][0]
            for b in leaves[i + 1 :]:
                (pb, rb) = idx.into[b][0]
                if (pa, ra) == (pb, rb) or idx.named(a) != idx.named(b):
                    continue  # a name swaps only with a name ("person" named "old" is no foil)
                if any(idx.concepts.get(p) in CONNECTIVES and _OP.match(r) for p, r in ((pa, ra), (pb, rb))):
                    continue  # a list member: reordering "A, B and C" changes nothing, and a phrase moved into
                    # or out of a list re-parses as a different coordination
                if idx.named(a):
                    if idx.label(a) == idx.label(b) or _nested(idx, a, b):
                        continue  # the same entity twice, or one entity inside the other
                    if _entity_kind(idx.concepts[a]) != _entity_kind(idx.concepts[b]):
                        continue  # "Oxon Hill was born in Alston": a place and a person do not trade roles
                elif _signature(idx, a) == _signature(idx, b):
                    continue
                if not (idx.is_leaf(a) and idx.is_leaf(b)) and _nested(idx, a, b):
                    continue  # a name's head node can sit above the other leaf: swapping would cut the graph
                pair = ((pa, ra, a), (pb, rb, b))
                if frozenset(pair) in swapped:
                    continue
                edited = _swap(parsed, idx, *pair)
                if edited is None:
                    continue
                edits.append(
                    Edit(
                        rule="RS",
                        variant="two-leaf",
                        description=(
                            f"swap leaves {idx.label(a)} ({ra} of {idx.label(pa)}) ↔ "
                            f"{idx.label(b)} ({rb} of {idx.label(pb)}) [released-code behaviour]"
                        ),
                        nodes=(a, b),
                        source=parsed,
                        edited=edited,
                        details={"a": a, "b": b, "roles": (ra, rb), "parents": (pa, pb)},
                    )
                )
    return edits


# --------------------------------------------------------------------------- US


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
        "too", "so", "than", "as", "not", "never", "also", "even", "just", "then",
    }
)  # fmt: skip
"""Quantifier, determiner-like, degree and focus words US never drops alone: "every morning" -> "morning",
"more than 300" -> "than 300" and "very" without its adjective are not English, and "only"/"even" change scope."""
_PP_HEAD_DEPS = frozenset({"prep", "agent"})
_LOCATIVE_VERBS = frozenset(
    {"live", "reside", "dwell", "lie", "put", "place", "set", "lay", "belong", "stay", "remain"}
)
_CLAUSE_KIDS = frozenset({"quantmod", "advmod", "nsubj", "nsubjpass", "mark", "aux", "dobj", "prep", "npadvmod"})
_NOUN_ADVERBIAL_DEPS = frozenset({"npadvmod", "tmod"})


def _glued(parsed: ParsedSentence, tok: Token) -> bool:
    """``tok`` is written against a hyphen ("pre-rendered", "two-dimensional")."""
    before = tok.i > 0 and parsed.tokens[tok.i - 1].text in ("-", "–") and parsed.tokens[tok.i - 1].whitespace == ""
    after = tok.i + 1 < len(parsed.tokens) and parsed.tokens[tok.i + 1].text in ("-", "–") and tok.whitespace == ""
    return bool(before or after)


def _subtree(idx: _Index, var: str) -> set[str]:
    seen, stack = {var}, [var]
    while stack:
        for _, child in idx.out.get(stack.pop(), ()):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def _closed(idx: _Index, var: str) -> bool:
    """Nothing outside ``var``'s subtree points into it (dropping it takes no other phrase's node along)."""
    inside = _subtree(idx, var)
    return all(
        parent in inside or (child == var and len(idx.into.get(var, ())) == 1)
        for child in inside
        for parent, _ in idx.into.get(child, ())
    )


def _us_kind(parsed: ParsedSentence, idx: _Index, var: str, parent: str, role: str) -> str | None:
    """Which default US variant may drop ``var`` (its ``role`` under ``parent``), or None when the sentence
    cannot do without it (docs/foil-rules.md): ``modifier`` (an adjective, adverb or number), ``adjunct`` (a
    whole prepositional phrase, a time or place adverbial, a passive's by-phrase), ``optional-argument`` (a
    prepositional or indirect object, or a direct object of a verb commonly used without one)."""
    if idx.named(var) or idx.is_name(var) or idx.concepts.get(var) in ("ordinal-entity", *_KEEP_WORDS):
        return None
    tok = _head_token(parsed, var)
    if tok is None:
        return _us_kind_by_role(parsed, idx, var, role)
    inside = _subtree(idx, var)
    if any(idx.concepts.get(v) in PRONOUNS for v in inside if v != var) and len(inside) > 1:
        return None  # a phrase holding a pronoun others may refer to
    if any(parsed.tokens[i].pos in ("VERB", "AUX") for v in inside for i in parsed.alignment.get(v, ()) if v != var):
        return None  # a clause inside: dropping it is more than an underspecification
    word = tok.text.lower()
    if _glued(parsed, tok):
        return None  # "pre-rendered" minus "pre" is no word
    if role in _MODIFIER_ROLES and idx.is_leaf(var) and tok.dep not in _PP_HEAD_DEPS | {"pobj"}:
        if word in _KEEP_WORDS or tok.tag in ("JJR", "RBR", "JJS", "RBS") or tok.dep in ("det", "predet", "neg"):
            return None
        if _dependents(parsed, tok, *_CLAUSE_KIDS):
            return None  # "quite" in "quite happy" stays with it; a word with a subject is a clause (a mis-parse)
        if role == ":quant" and (tok.pos != "NUM" or tok.ent_type not in ("", "CARDINAL")):
            return None
        if tok.pos in ("ADJ", "ADV", "NUM") or (tok.pos == "NOUN" and tok.dep == "compound"):
            return "modifier"
        return None
    head = parsed.tokens[tok.head] if 0 <= tok.head < len(parsed.tokens) else tok
    in_pp = tok.dep in _PP_HEAD_DEPS or (tok.dep in ("pobj", "pcomp") and head.dep in _PP_HEAD_DEPS)
    if not _closed(idx, var):
        return None
    verb = _head_token(parsed, parent)
    if role == ":location" and verb is not None and verb.lemma.lower() in _LOCATIVE_VERBS:
        return None  # "lived in London" -> "lived": the place completes the verb
    if (
        role in _ADJUNCT_ROLES
        or role.startswith(":prep-")
        or (role == ":ARG0" and tok.dep == "pobj" and head.dep == "agent")
    ):
        if in_pp or tok.dep in _NOUN_ADVERBIAL_DEPS or (tok.dep == "advmod" and tok.pos == "ADV"):
            return "adjunct" if word not in _KEEP_WORDS else None
        return None
    if re.fullmatch(r":ARG[1-9]", role):
        if in_pp or tok.dep == "dative":
            return "optional-argument"
        verb = _head_token(parsed, parent)
        small_clause = verb is not None and bool(
            _dependents(parsed, verb, "xcomp", "acomp", "oprd", "ccomp", "dative")
        )  # "kept us awake" -> "kept awake": the object belongs to a small clause
        if tok.dep == "dobj" and verb is not None and verb.pos == "VERB" and not small_clause:
            from core.foils.rules.wordnet_facts import object_optional

            if object_optional(verb.lemma.lower()):
                return "optional-argument"
    return None


def _us_kind_by_role(parsed: ParsedSentence, idx: _Index, var: str, role: str) -> str | None:
    """The US variant for a graph without token alignments (a neural parser's): leaves only, by role."""
    if (parsed.tokens and parsed.alignment) or not idx.is_leaf(var):
        return None  # an aligned parse whose node has no words: nothing to drop on the surface
    if role in _MODIFIER_ROLES and role != ":quant":
        return "modifier"
    if role in _ADJUNCT_ROLES or role.startswith(":prep-"):
        return "adjunct"
    return "optional-argument" if re.fullmatch(r":ARG[2-9]", role) else None


def us_edits(parsed: ParsedSentence, variants: Sequence[str] = DEFAULT_VARIANTS["US"]) -> list[Edit]:
    """Underspecification: drop what the sentence can do without (see :func:`_us_kind`), never leaving a
    dangling preposition, determiner, comparative or quantifier; ``leaf`` (opt-in, the released code's
    behaviour) drops any non-top leaf with a single incoming edge."""
    _check_variants("US", variants, VARIANTS["US"])
    idx = _index_for(parsed)
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
        leaf = idx.is_leaf(var)
        make = partial(remove_leaf, idx.graph, var) if leaf else partial(remove_node, idx.graph, var)
        edited = _build("US", parsed, idx, make)
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
                | ({} if leaf else {"subtree": sorted(_subtree(idx, var), key=idx.order.index)}),
            )
        )
    return edits


# --------------------------------------------------------------------------- AR / HS


def split_concept(concept: str) -> tuple[str, str]:
    """``("happy", "-01")`` from ``happy-01``; ``("cat", "")`` from ``cat``.

    >>> split_concept("have-org-role-91"), split_concept("ice-cream")
    (('have-org-role', '-91'), ('ice-cream', ''))
    """
    m = _SUFFIX.match(concept)
    return (m.group("lemma"), m.group("suffix")) if m else (concept, "")


def node_pos(parsed: ParsedSentence, var: str, concept: str) -> tuple[str, ...]:
    """Universal POS tags to try for ``var``: the aligned token's, else a guess from the concept.

    A guess is ``VERB`` then ``ADJ`` for a concept with a sense suffix (``happy-01``), else ``NOUN``.
    """
    for i in parsed.alignment.get(var, ()):
        if 0 <= i < len(parsed.tokens):
            pos = parsed.tokens[i].pos
            return (pos,) if wn_pos(pos) else ()
    return ("VERB", "ADJ") if split_concept(concept)[1] else ("NOUN",)


def _transitive(parsed: ParsedSentence, var: str) -> bool | None:
    """Whether the verb aligned to ``var`` takes a direct object here (passives do); None without a token."""
    heads = [i for i in parsed.alignment.get(var, ()) if 0 <= i < len(parsed.tokens)]
    if not heads:
        return None
    head = parsed.tokens[heads[0]]
    deps = {t.dep for t in _dependents(parsed, head)}
    return bool(deps & {"dobj", "nsubjpass", "auxpass", "dative"}) or (head.tag == "VBN" and head.dep == "acl")


def _aligned_token(parsed: ParsedSentence, var: str) -> int | None:
    """Index of the first token aligned to ``var`` (None without an alignment)."""
    return next((i for i in parsed.alignment.get(var, ()) if 0 <= i < len(parsed.tokens)), None)


_LAST_CONTEXT: tuple[Any, Any] = (None, None)  # (parsed, SentenceContext): AR and HS share a sentence's sense choices


def _context_for(parsed: ParsedSentence, method: str) -> Any:
    """The :class:`core.foils.rules.senses.SentenceContext` of ``parsed``; the last one is reused (AR, then HS)."""
    global _LAST_CONTEXT
    from core.foils.rules.senses import SentenceContext

    last_parsed, last = _LAST_CONTEXT  # one tuple read: safe when rules run in threads
    if last_parsed is parsed and last is not None and last.method_asked == method:
        return last
    context = SentenceContext(parsed.tokens, method)
    _LAST_CONTEXT = (parsed, context)
    return context


_DETERMINER_DEPS = frozenset({"det", "poss", "nummod", "predet"})
MASS_GAP = 0.8
"""A noun is used as a mass noun when its plural is at least this much rarer (wordfreq Zipf) than its singular
("food" 5.4 / "foods" 4.4, "meat" 1.2 apart; "meal" 0.3 and "device" 0.1 apart are count nouns), or has no
plural of its own ("furniture"). A bare singular source ("after dinner") takes only a mass hypernym ("after meal"
is not English)."""
_BARE_MASS_DEPS = frozenset({"dobj", "pobj", "nsubj", "nsubjpass"})  # where a bare singular is a mass use
PLURAL_GAP = 1.5  # a plural source ("these boots") takes a hypernym whose plural is no rarer than this below it


def _fits_number(parsed: ParsedSentence, index: int | None, lemma: str) -> bool:
    """A noun hypernym that reads right in the source noun's slot: a plural source needs a hypernym with an
    attested plural ("these footwear", "equipments"), a singular source without a determiner a mass noun."""
    if index is None or not 0 <= index < len(parsed.tokens):
        return True
    tok = parsed.tokens[index]
    if tok.tag not in ("NN", "NNS") or " " in lemma:
        return True
    plural = inflect(lemma, "NNS")
    gap = zipf(lemma) - zipf(plural) if plural != lemma else math.inf
    if tok.tag == "NNS":
        return plural != lemma and zipf(plural) >= 2.5 and gap <= PLURAL_GAP
    if tok.dep not in _BARE_MASS_DEPS:
        return True  # a role noun without an article is fine for any noun: "was appointed bishop", "daughter of X"
    kids = _dependents(parsed, tok)
    bare = not any(t.dep in _DETERMINER_DEPS or (t.dep == "prep" and t.text.lower() == "of") for t in kids)
    return not bare or gap >= MASS_GAP


def _fixed_expression(parsed: ParsedSentence, index: int | None) -> bool:
    """The word at ``index`` is part of a fixed expression, where a substitute breaks the expression, not the
    meaning: a noun modifying a noun ("bus stop" -> "bus continue"), a phrasal verb ("knocked out"), or a word that
    forms a WordNet multi-word lemma with its neighbour ("drawing room", "fell asleep", "a great deal"); an
    adjective only when that lemma is another kind of thing than its noun ("hot dog", not "old man")."""
    if index is None or not 0 <= index < len(parsed.tokens):
        return False
    tok = parsed.tokens[index]
    if tok.dep == "compound" or _dependents(parsed, tok, "prt"):
        return True
    for left, right in ((index - 1, index), (index, index + 1)):
        if left < 0 or right >= len(parsed.tokens):
            continue
        a, b = parsed.tokens[left], parsed.tokens[right]
        if not (a.text.isalpha() and b.text.isalpha()):
            continue
        if lexicalised_pair(a.text, a.lemma, a.pos, b.text, b.lemma, b.pos):
            return True
    return False


def _lexical_edits(
    rule: str,
    variant: str,
    parsed: ParsedSentence,
    max_candidates: int,
    options: LexicalOptions,
    variants: Sequence[str] = (),
) -> list[Edit]:
    """AR/HS edits: per eligible node, choose the word's sense in this sentence (:mod:`core.foils.rules.senses`) and
    offer the antonyms / hypernyms of that sense only, never a synonym of it. Words whose sense the
    vectors cannot tell apart (``options.sense_margin``), parts of fixed expressions and (HS) time
    adverbials are left alone; HS replaces verbs only with the ``verb`` variant."""
    idx = _index_for(parsed)
    word = "antonym" if rule == "AR" else "hypernym"
    context = None
    edits = []
    for var in idx.order:
        old = idx.concepts[var]
        if not idx.eligible(var) or idx.named(var):
            continue
        lemma, suffix = split_concept(old)
        if not lemma.replace("-", "").isalpha() or len(lemma) < 2:
            continue
        at = _aligned_token(parsed, var)
        if _fixed_expression(parsed, at) or (at is not None and parsed.tokens[at].tag in ("NNP", "NNPS")):
            continue  # a proper noun the parser did not name ("II", "Sept")
        if rule == "HS" and at is not None and parsed.tokens[at].dep in _NOUN_ADVERBIAL_DEPS:
            continue  # a time adverbial: "this morning" -> "this period"
        for pos in node_pos(parsed, var, old):
            edit_variant = "verb" if rule == "HS" and pos in ("VERB", "AUX") else variant
            if edit_variant not in variants:
                break
            if rule == "AR" and not has_antonyms(lemma, pos):
                continue
            if context is None:
                context = _context_for(parsed, options.sense_choice)
            choice = context.choose(lemma, pos, at)
            if choice is None:
                continue
            close = choice.runner_up_score is not None and choice.score - choice.runner_up_score < options.sense_margin
            if choice.method == "vectors" and close:
                break  # the vectors cannot tell its senses apart: a coin toss makes a wrong foil half the time
            found: list[Candidate]
            if rule == "AR":
                found = sense_antonyms(choice.synset, lemma)
            else:
                transitive = _transitive(parsed, var) if pos in ("VERB", "AUX") else None
                found = sense_hypernyms(choice.synset, lemma, transitive, options.min_zipf)
            found = [c for c in found if is_synonym(lemma, c.lemma, choice.synset) is None]
            if rule == "HS" and wn_pos(pos) == "n":
                found = [c for c in found if _fits_number(parsed, at, c.lemma)]
            candidates = found[:max_candidates] if max_candidates > 0 else found
            if not candidates:
                continue
            upos = UNIVERSAL_POS[wn_pos(pos) or "n"]
            for cand in candidates:
                words = cand.lemma.split()
                if len(words) > 1 and (upos != "NOUN" or set(words) & _FUNCTION_WORDS):
                    continue  # "be born", "let go of", "time of life": no parser reads them back as one concept
                new_concept = "-".join(words) + suffix
                if upos == "ADV" and not suffix:
                    new_concept = adverb_to_adjective(new_concept)  # the parser's convention: rarely -> rare
                if new_concept == old:
                    continue
                make = partial(replace_triple, idx.graph, (var, INSTANCE, old), (var, INSTANCE, new_concept))
                edited = _build(rule, parsed, idx, make)
                if edited is None:
                    continue
                edits.append(
                    Edit(
                        rule=rule,
                        variant=edit_variant,
                        description=f"{word} {lemma} → {cand.lemma}",
                        nodes=(var,),
                        source=parsed,
                        edited=edited,
                        details={
                            "node": var,
                            "old_concept": old,
                            "new_concept": new_concept,
                            "new_lemma": cand.lemma,
                            "pos": upos,
                            "synset": cand.synset,
                            "old_lemma": lemma,
                            **choice.details(),
                        },
                    )
                )
            break  # the first POS with candidates decides
    return edits


def ar_edits(
    parsed: ParsedSentence,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    options: LexicalOptions | None = None,
    variants: Sequence[str] = DEFAULT_VARIANTS["AR"],
) -> list[Edit]:
    """Antonym replacement through WordNet, from the word's sense in this sentence (up to
    ``max_candidates`` per node, best first; 0 = all)."""
    return _lexical_edits("AR", "antonym", parsed, max_candidates, options or LexicalOptions(), variants)


def hs_edits(
    parsed: ParsedSentence,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    options: LexicalOptions | None = None,
    variants: Sequence[str] = DEFAULT_VARIANTS["HS"],
) -> list[Edit]:
    """Hypernym substitution through WordNet, from the word's sense in this sentence (up to
    ``max_candidates`` per node, best first; 0 = all). Nouns and adjectives by default; verbs with the
    ``verb`` variant (opt-in: WordNet's verb hierarchy gives near-synonyms and far verbs, "rescue -> save",
    "teach -> communicate"; 28% of them were usable in the judged benchmark, docs/quality.md)."""
    return _lexical_edits("HS", "hypernym", parsed, max_candidates, options or LexicalOptions(), variants)


# --------------------------------------------------------------------------- all rules, sampling


RULE_FUNCTIONS: dict[str, Callable[..., list[Edit]]] = {
    "PN": pn_edits,
    "RS": rs_edits,
    "US": us_edits,
    "AR": ar_edits,
    "HS": hs_edits,
}


def _check_variants(rule: str, variants: Sequence[str], known: Sequence[str]) -> None:
    unknown = [v for v in variants if v not in known]
    if unknown:
        raise ConfigError(
            f"unknown {rule} variant(s): {', '.join(unknown)}", hint=f"{rule} variants are: {', '.join(known)}"
        )


def parse_variants(entries: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The variants per rule from ``RULE:variant`` entries; rules not named keep :data:`DEFAULT_VARIANTS`.

    >>> parse_variants(["PN:main-predicate", "PN:any-node"])["PN"]
    ('main-predicate', 'any-node')
    >>> parse_variants([])["RS"] == DEFAULT_VARIANTS["RS"]
    True
    """
    chosen: dict[str, list[str]] = {}
    for entry in entries:
        rule, sep, variant = str(entry).strip().partition(":")
        rule = rule.strip().upper()
        if not sep or rule not in VARIANTS:
            raise ConfigError(f"bad rule variant {entry!r}", hint="write RULE:variant, e.g. PN:any-node or RS:two-leaf")
        _check_variants(rule, [variant.strip()], VARIANTS[rule])
        chosen.setdefault(rule, []).append(variant.strip())
    return {rule: tuple(chosen.get(rule, DEFAULT_VARIANTS[rule])) for rule in VARIANTS}


def enumerate_edits(
    parsed: ParsedSentence,
    rules: Sequence[str] = RULES,
    variants: Mapping[str, Sequence[str]] | None = None,
    lexical: LexicalOptions | None = None,
) -> dict[str, list[Edit]]:
    """Every applicable edit of each rule in ``rules`` (a rule that does not apply maps to ``[]``), with each
    rule's ``variants`` (default :data:`DEFAULT_VARIANTS`; the released code's behaviours are opt-in);
    ``lexical`` configures AR/HS (sense choice, hypernym frequency; default :class:`LexicalOptions`).

    >>> from core.foils.amr.graph import decode
    >>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
    >>> {rule: len(edits) for rule, edits in enumerate_edits(p, ("PN", "US"), {"US": ("leaf",)}).items()}
    {'PN': 1, 'US': 2}
    """
    unknown = [r for r in rules if r not in RULE_FUNCTIONS]
    if unknown:
        raise ConfigError(f"unknown rule(s): {', '.join(unknown)}", hint=f"rules are: {', '.join(RULES)}")
    if not parsed.ok or not parsed.graph.triples:
        return {rule: [] for rule in rules}
    out = {}
    for rule in rules:
        wanted = (variants or {}).get(rule)
        if rule in ("PN", "RS", "US"):
            out[rule] = RULE_FUNCTIONS[rule](parsed, tuple(wanted) if wanted else DEFAULT_VARIANTS[rule])
        else:
            chosen = tuple(wanted) if wanted else DEFAULT_VARIANTS[rule]
            out[rule] = RULE_FUNCTIONS[rule](parsed, options=lexical or LexicalOptions(), variants=chosen)
    return out


def _rule_order(rule: str) -> tuple[int, str]:
    return (RULES.index(rule), rule) if rule in RULES else (len(RULES), rule)


def sample_edits(edits_by_rule: Mapping[str, Sequence[Edit]], per_rule: int, seed: int) -> list[Edit]:
    """Up to ``per_rule`` edits of each rule, chosen with ``seed``; deterministic and order-independent.

    Each rule draws from its own ``random.Random(f"{seed}:{rule}")`` over its edits sorted by
    ``Edit.key``, so the result does not depend on dict order, on list order, or on which other
    rules are present. Output: rules in :data:`RULES` order, each rule's picks in enumeration order.
    """
    if per_rule < 0:
        raise ConfigError(f"per_rule must be >= 0, got {per_rule}", hint="pass per_rule=1 or more")
    picked: list[Edit] = []
    for rule in sorted(edits_by_rule, key=_rule_order):
        edits = list(edits_by_rule[rule])
        if not edits or per_rule == 0:
            continue
        positions = sorted(range(len(edits)), key=lambda i: (edits[i].key, i))
        rng = random.Random(f"{seed}:{rule}")
        chosen = set(rng.sample(positions, min(per_rule, len(edits))))
        picked.extend(e for i, e in enumerate(edits) if i in chosen)
    return picked


def reserve_edits(
    edits_by_rule: Mapping[str, Sequence[Edit]],
    picked: Sequence[Edit],
    seed: int,
    rules: Sequence[str] | None = None,
) -> dict[str, list[Edit]]:
    """Per rule (of ``rules``, default all), the edits :func:`sample_edits` did not pick, in a seeded
    order: replacements to try when a picked edit cannot be realized on the surface (deterministic,
    order-independent like the sample; a rule's list does not depend on which other rules are asked for).
    """
    taken = {id(e) for e in picked}
    out: dict[str, list[Edit]] = {}
    for rule in sorted(edits_by_rule if rules is None else set(rules) & set(edits_by_rule), key=_rule_order):
        rest = sorted((e for e in edits_by_rule[rule] if id(e) not in taken), key=lambda e: e.key)
        random.Random(f"{seed}:{rule}:reserve").shuffle(rest)
        out[rule] = rest
    return out
