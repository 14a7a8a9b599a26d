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
source graph is checked with :func:`core.graph.validate_graph` once per sentence; each edit is then
valid by construction up to one local check, and an edit that would be invalid is dropped and counted
in :data:`DROPPED` (logged at debug level); ``FULL_VALIDATION = True`` validates every edit fully.
Edits that would repeat another variant's graph are not produced (``any-node`` skips the main
predicate; ``two-leaf`` skips an ``agent-patient`` pair). ``Edit.details`` follows docs/architecture.md
(two-leaf RS adds ``parents``; AR/HS add ``old_lemma``).

>>> from core.graph import decode
>>> from core.types import ParsedSentence
>>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
>>> [e.description for e in pn_edits(p)][:1]
['negate chase-01 (main predicate)']
>>> [e.description for e in rs_edits(p)]
['swap ARG0 cat ↔ ARG1 mouse of chase-01']
"""

from __future__ import annotations

import logging
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import penman

from core.errors import ConfigError
from core.graph import (
    INSTANCE,
    POLARITY,
    Triple,
    add_attribute,
    relayout,
    remove_attribute,
    remove_leaf,
    replace_triple,
    swap_edge_targets,
    validate_graph,
)
from core.lexicon import (
    UNIVERSAL_POS,
    Candidate,
    LexicalOptions,
    has_antonyms,
    is_synonym,
    sense_antonyms,
    sense_hypernyms,
    wn_pos,
)
from core.parse_dep_lex import adverb_to_adjective
from core.types import RULES, Edit, ParsedSentence

log = logging.getLogger(__name__)

PN_VARIANTS: tuple[str, ...] = ("main-predicate", "any-node")
RS_VARIANTS: tuple[str, ...] = ("agent-patient", "two-leaf")
VARIANTS: Mapping[str, tuple[str, ...]] = {
    "PN": (*PN_VARIANTS, "unnegate"),
    "RS": RS_VARIANTS,
    "US": ("leaf",),
    "AR": ("antonym",),
    "HS": ("hypernym",),
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
"""Run :func:`core.graph.validate_graph` on every edited graph, even when the source graph is valid."""

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

    >>> from core.graph import decode
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


def pn_edits(parsed: ParsedSentence, variants: Sequence[str] = PN_VARIANTS) -> list[Edit]:
    """Polarity negation: negate (or un-negate) the main predicate and/or any eligible node."""
    _check_variants("PN", variants, PN_VARIANTS)
    idx = _index_for(parsed)
    targets: list[tuple[str, str]] = []  # (var, where)
    if "main-predicate" in variants:
        main = _main(idx, parsed.graph.top)
        if main is not None:
            targets.append((main, "main predicate"))
    if "any-node" in variants:
        covered = {v for v, _ in targets}
        targets += [
            (v, "any node") for v in idx.order if idx.eligible(v) and not idx.named(v) and v not in covered
        ]  # a named entity ("no Paris") has no surface negation
    edits = []
    for var, where in targets:
        if idx.negated(var):
            action, variant, verb = "unnegate", "unnegate", "un-negate"
            make = partial(remove_attribute, idx.graph, (var, POLARITY, "-"))
        else:
            action, verb = "negate", "negate"
            variant = "main-predicate" if where == "main predicate" else "any-node"
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


def rs_edits(parsed: ParsedSentence, variants: Sequence[str] = RS_VARIANTS) -> list[Edit]:
    """Role swap: ARG0 <-> ARG1 of each event (``agent-patient``) and/or two leaves' edges (``two-leaf``)."""
    _check_variants("RS", variants, RS_VARIANTS)
    idx = _index_for(parsed)
    edits: list[Edit] = []
    swapped: set[frozenset[Triple]] = set()  # edge pairs already swapped (agent-patient wins over two-leaf)
    if "agent-patient" in variants:
        for event in idx.order:
            outs = idx.out.get(event, ())
            for a in [t for r, t in outs if r == ":ARG0"]:
                for b in [t for r, t in outs if r == ":ARG1"]:
                    if a == b or (_signature(idx, a) is not None and _signature(idx, a) == _signature(idx, b)):
                        continue
                    pair = ((event, ":ARG0", a), (event, ":ARG1", b))
                    edited = _swap(parsed, idx, *pair)
                    if edited is None:
                        continue
                    swapped.add(frozenset(pair))
                    edits.append(
                        Edit(
                            rule="RS",
                            variant="agent-patient",
                            description=f"swap ARG0 {idx.label(a)} ↔ ARG1 {idx.label(b)} of {idx.label(event)}",
                            nodes=(event, a, b),
                            source=parsed,
                            edited=edited,
                            details={"event": event, "a": a, "b": b, "roles": (":ARG0", ":ARG1")},
                        )
                    )
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


def us_edits(parsed: ParsedSentence) -> list[Edit]:
    """Underspecification: drop each non-top leaf with a single incoming edge (never a name node)."""
    idx = _index_for(parsed)
    edits = []
    for var in idx.order:
        if var == parsed.graph.top or not idx.is_leaf(var) or idx.is_name(var):
            continue
        parents = idx.into.get(var, ())
        if len(parents) != 1:
            continue  # reentrant: dropping one mention is not a leaf removal
        parent, role = parents[0]
        edited = _build("US", parsed, idx, partial(remove_leaf, idx.graph, var))
        if edited is None:
            continue
        edits.append(
            Edit(
                rule="US",
                variant="leaf",
                description=f"drop leaf {idx.label(var)} ({role} of {idx.label(parent)})",
                nodes=(var, parent),
                source=parsed,
                edited=edited,
                details={"node": var, "parent": parent, "role": role},
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
    deps = {t.dep for t in parsed.tokens if t.head == head.i and t.i != head.i}
    return bool(deps & {"dobj", "nsubjpass", "auxpass", "dative"}) or (head.tag == "VBN" and head.dep == "acl")


def _aligned_token(parsed: ParsedSentence, var: str) -> int | None:
    """Index of the first token aligned to ``var`` (None without an alignment)."""
    return next((i for i in parsed.alignment.get(var, ()) if 0 <= i < len(parsed.tokens)), None)


_LAST_CONTEXT: tuple[Any, Any] = (None, None)  # (parsed, SentenceContext): AR and HS share a sentence's sense choices


def _context_for(parsed: ParsedSentence, method: str) -> Any:
    """The :class:`core.senses.SentenceContext` of ``parsed``; the last one is reused (AR, then HS)."""
    global _LAST_CONTEXT
    from core.senses import SentenceContext

    last_parsed, last = _LAST_CONTEXT  # one tuple read: safe when rules run in threads
    if last_parsed is parsed and last is not None and last.method_asked == method:
        return last
    context = SentenceContext(parsed.tokens, method)
    _LAST_CONTEXT = (parsed, context)
    return context


def _lexical_edits(
    rule: str, variant: str, parsed: ParsedSentence, max_candidates: int, options: LexicalOptions
) -> list[Edit]:
    """AR/HS edits: per eligible node, choose the word's sense in this sentence (:mod:`core.senses`) and
    offer the antonyms / hypernyms of that sense only, never a synonym of it."""
    idx = _index_for(parsed)
    word = "antonym" if rule == "AR" else "hypernym"
    context = None
    edits = []
    for var in idx.order:
        old = idx.concepts[var]
        if not idx.eligible(var) or idx.named(var):
            continue
        lemma, suffix = split_concept(old)
        if not lemma.replace("-", "").isalpha():
            continue
        for pos in node_pos(parsed, var, old):
            if rule == "AR" and not has_antonyms(lemma, pos):
                continue
            if context is None:
                context = _context_for(parsed, options.sense_choice)
            choice = context.choose(lemma, pos, _aligned_token(parsed, var))
            if choice is None:
                continue
            found: list[Candidate]
            if rule == "AR":
                found = sense_antonyms(choice.synset, lemma)
            else:
                transitive = _transitive(parsed, var) if pos in ("VERB", "AUX") else None
                found = sense_hypernyms(choice.synset, lemma, transitive, options.min_zipf)
            found = [c for c in found if is_synonym(lemma, c.lemma, choice.synset) is None]
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
                        variant=variant,
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
    parsed: ParsedSentence, max_candidates: int = DEFAULT_MAX_CANDIDATES, options: LexicalOptions | None = None
) -> list[Edit]:
    """Antonym replacement through WordNet, from the word's sense in this sentence (up to
    ``max_candidates`` per node, best first; 0 = all)."""
    return _lexical_edits("AR", "antonym", parsed, max_candidates, options or LexicalOptions())


def hs_edits(
    parsed: ParsedSentence, max_candidates: int = DEFAULT_MAX_CANDIDATES, options: LexicalOptions | None = None
) -> list[Edit]:
    """Hypernym substitution through WordNet, from the word's sense in this sentence (up to
    ``max_candidates`` per node, best first; 0 = all)."""
    return _lexical_edits("HS", "hypernym", parsed, max_candidates, options or LexicalOptions())


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


def enumerate_edits(
    parsed: ParsedSentence, rules: Sequence[str] = RULES, lexical: LexicalOptions | None = None
) -> dict[str, list[Edit]]:
    """Every applicable edit of each rule in ``rules`` (a rule that does not apply maps to ``[]``);
    ``lexical`` configures AR/HS (sense choice, hypernym frequency; default :class:`LexicalOptions`).

    >>> from core.graph import decode
    >>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
    >>> {rule: len(edits) for rule, edits in enumerate_edits(p, ("PN", "US")).items()}
    {'PN': 3, 'US': 2}
    """
    unknown = [r for r in rules if r not in RULE_FUNCTIONS]
    if unknown:
        raise ConfigError(f"unknown rule(s): {', '.join(unknown)}", hint=f"rules are: {', '.join(RULES)}")
    if not parsed.ok or not parsed.graph.triples:
        return {rule: [] for rule in rules}
    lexical_kw = {} if lexical is None else {"options": lexical}
    return {rule: RULE_FUNCTIONS[rule](parsed, **(lexical_kw if rule in ("AR", "HS") else {})) for rule in rules}


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
