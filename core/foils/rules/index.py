"""The graph index every rule reads, and the checks every edit passes.

:class:`GraphIndex` is one pass over a source graph (concepts, edges out and in, attributes); :func:`index_for`
reuses the last one (the five rules run on the same sentence). :func:`build_edit` decides what an edit carries:
the source graph is checked with :func:`core.foils.amr.graph.validate_graph` once per sentence, each edit is then
valid by construction up to one local check, and an edit that would be invalid is dropped and counted in
:data:`DROPPED` (logged at debug level); ``FULL_VALIDATION = True`` validates every edit fully. The token
helpers (:func:`head_token`, :func:`dependents`, ...) read the alignment from nodes to the source's tokens.

>>> from core.foils.amr.graph import decode
>>> main_predicate(decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
'c'
"""

from __future__ import annotations

import logging
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import penman

from core.foils.amr.graph import (
    INSTANCE,
    POLARITY,
    Triple,
    relayout,
    validate_graph,
)
from core.foils.realize.work import quoted_tokens
from core.foils.rules.lexicon import wn_pos
from core.types import ParsedSentence, Token

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
SENSE_SUFFIX = re.compile(r"^(?P<lemma>.+?)(?P<suffix>-\d+)$")
OP_ROLE = re.compile(r"^:(op|snt)(\d+)$")

FUNCTION_WORDS = frozenset({"of", "in", "to", "for", "on", "at", "by", "with", "from", "the", "a", "an", "be"})
NOUN_ADVERBIAL_DEPS = frozenset({"npadvmod", "tmod"})  # "this morning", "last week": time adverbials

log = logging.getLogger(__name__)

FULL_VALIDATION = False
"""Run :func:`core.foils.amr.graph.validate_graph` on every edited graph, even when the source graph is valid."""

DROPPED: Counter[str] = Counter()
"""Edits dropped because the edited graph failed validation, per rule (a debug counter)."""


# --------------------------------------------------------------------------- graph index


@dataclass
class GraphIndex:
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
    def of(cls, graph: penman.Graph, layout: bool = True) -> GraphIndex:
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

    def subtree(self, var: str) -> set[str]:
        """``var`` and every node below it."""
        seen, stack = {var}, [var]
        while stack:
            for _, child in self.out.get(stack.pop(), ()):
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        return seen

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
        return any(OP_ROLE.match(r) for r, _ in self.attrs.get(var, ())) or any(
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
        ops = sorted((r, t) for r, t in self.attrs.get(var, ()) if OP_ROLE.match(r))
        ops.sort(key=lambda rt: op_key(rt[0]))
        return " ".join(t.strip('"') for _, t in ops)


_LAST_INDEX: tuple[ParsedSentence | None, GraphIndex | None] = (None, None)


def index_for(parsed: ParsedSentence) -> GraphIndex:
    """The index of ``parsed``'s graph; the last one is reused (enumerate_edits runs five rules on it)."""
    global _LAST_INDEX
    last_parsed, last_index = _LAST_INDEX  # one tuple read: safe when rules run in threads
    if last_parsed is parsed and last_index is not None:
        return last_index
    index = GraphIndex.of(parsed.graph)
    _LAST_INDEX = (parsed, index)
    return index


def build_edit(
    rule: str, parsed: ParsedSentence, idx: GraphIndex, make: Callable[[], penman.Graph], local: str | None = None
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


def op_key(role: str) -> tuple[int, str]:
    m = OP_ROLE.match(role)
    return (int(m.group(2)), role) if m else (10**6, role)


def main_predicate(graph: penman.Graph) -> str | None:
    """The top node, or under ``and``/``multi-sentence`` tops the first operand (by ``:opN``/``:sntN``).

    >>> from core.foils.amr.graph import decode
    >>> main_predicate(decode("(m / multi-sentence :snt2 (b / bark-01) :snt1 (r / run-01))"))
    'r'
    """
    idx = GraphIndex.of(graph, layout=False)
    return main_of(idx, graph.top)


def main_of(idx: GraphIndex, top: str | None) -> str | None:
    var = top
    seen: set[str] = set()
    while var is not None and idx.concepts.get(var) in CONNECTIVES and var not in seen:
        seen.add(var)
        ops = sorted((r, t) for r, t in idx.out.get(var, ()) if OP_ROLE.match(r))
        ops.sort(key=lambda rt: op_key(rt[0]))
        var = ops[0][1] if ops else None
    if var is None or not idx.eligible(var):
        return None
    return var


def dependents(parsed: ParsedSentence, tok: Token, *deps: str) -> list[Token]:
    """The dependency children of ``tok`` in order, only those with one of ``deps`` when given (the rules' twin of
    the realizer's ``Sentence.kids``)."""
    return [t for t in parsed.tokens if t.head == tok.i and t.i != tok.i and (not deps or t.dep in deps)]


def governor(parsed: ParsedSentence, tok: Token) -> Token | None:
    """The word ``tok`` hangs on in the dependency parse, or None for the root."""
    return parsed.tokens[tok.head] if 0 <= tok.head < len(parsed.tokens) and tok.head != tok.i else None


def below(parsed: ParsedSentence, tok: Token, stop: frozenset[str] = frozenset()) -> list[Token]:
    """``tok`` and its dependents, in sentence order, not descending into a dependent whose label is in ``stop``
    (everything below ``tok`` when ``stop`` is empty)."""
    out, stack = [], [tok]
    while stack:
        t = stack.pop()
        out.append(t)
        stack += [k for k in dependents(parsed, t) if k.dep not in stop]
    return sorted(out, key=lambda t: t.i)


def little_degree(parsed: ParsedSentence, tok: Token, words: tuple[str, ...] = ("little",)) -> bool:
    """``tok`` is one of ``words`` right after "a" or "but": the degree of "a little", "but little" ("a bit" when
    ``words`` holds "bit"), a set phrase that neither negation nor an antonym may touch."""
    return tok.text.lower() in words and tok.i > 0 and parsed.tokens[tok.i - 1].text.lower() in ("a", "but")


def word_pairs(parsed: ParsedSentence, index: int) -> list[tuple[Token, Token]]:
    """The word at ``index`` with its left and with its right neighbour, when both are alphabetic words (where a
    two-word set phrase can stand: "drawing room", "at last")."""
    pairs = []
    for left, right in ((index - 1, index), (index, index + 1)):
        if left >= 0 and right < len(parsed.tokens):
            a, b = parsed.tokens[left], parsed.tokens[right]
            if a.text.isalpha() and b.text.isalpha():
                pairs.append((a, b))
    return pairs


def head_token(parsed: ParsedSentence, var: str) -> Token | None:
    """The first token aligned to ``var`` (its head word), or None."""
    for i in parsed.alignment.get(var, ()):
        if 0 <= i < len(parsed.tokens):
            return parsed.tokens[i]
    return None


def quoted(parsed: ParsedSentence, index: int | None) -> bool:
    """The word at ``index`` stands inside quotation marks (a title or a quotation: "`` That Was Often ''"),
    whose words an edit must not change."""
    if index is None or not 0 <= index < len(parsed.tokens):
        return False
    return quoted_tokens(parsed.tokens)[index]


def misagreed(parsed: ParsedSentence, tok: Token) -> bool:
    """The tagger read ``tok`` as a plural present verb (VBP) with a singular noun subject, with no subject at all
    outside a conjunct, or (outside a relative clause) with a lone "that" or "this" as its subject: a word of another
    part of speech ("his coat damp with the river fog", "walked the lame hunter round the yard", "Hand me that sieve
    quickly"), which a negation would turn into "his coat do not damp", "the hunter do not round"."""
    if tok.tag != "VBP" or dependents(parsed, tok, "aux"):
        return False  # "Why does the cat sleep": the tagger's VBP under "does" is a base form
    subjects = dependents(parsed, tok, "nsubj", "nsubjpass", "expl")
    if not subjects:
        return tok.dep not in ("conj", "ROOT")  # "They live and work here": the conjunct shares the subject
    if tok.dep != "relcl" and all(s.text.lower() in ("that", "this") for s in subjects):
        return True
    return any(s.tag in ("NN", "NNP") for s in subjects)


def wrong_form(tok: Token) -> bool:
    """The tagger read ``tok`` as a past or third-person verb that no English verb writes so: a noun ("the country
    lanes past the reservoir": no verb "lane"s; "the pale muslin gown" as a past tense), which a negation would turn
    into "the country does not lane"."""
    from lemminflect import getAllInflections, getAllLemmas

    text = tok.text.lower()
    if tok.tag not in ("VBD", "VBZ"):
        return False
    lemmas = getAllLemmas(text, "VERB").get("VERB", ())
    if not lemmas:
        return True
    if text.endswith("ed" if tok.tag == "VBD" else "s"):
        return False  # a regular form ("texted", "fitted")
    return not any(text in getAllInflections(lemma, "VERB").get(tok.tag, ()) for lemma in lemmas)


def vars_by_head(parsed: ParsedSentence, idx: GraphIndex) -> dict[int, str]:
    """Token index -> the (first) node whose head word it is."""
    out: dict[int, str] = {}
    for var in idx.order:
        tok = head_token(parsed, var)
        if tok is not None:
            out.setdefault(tok.i, var)
    return out


def split_concept(concept: str) -> tuple[str, str]:
    """``("happy", "-01")`` from ``happy-01``; ``("cat", "")`` from ``cat``.

    >>> split_concept("have-org-role-91"), split_concept("ice-cream")
    (('have-org-role', '-91'), ('ice-cream', ''))
    """
    m = SENSE_SUFFIX.match(concept)
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


def takes_object(parsed: ParsedSentence, var: str) -> bool | None:
    """Whether the verb aligned to ``var`` takes a direct object here (passives do); None without a token."""
    heads = [i for i in parsed.alignment.get(var, ()) if 0 <= i < len(parsed.tokens)]
    if not heads:
        return None
    head = parsed.tokens[heads[0]]
    deps = {t.dep for t in dependents(parsed, head)}
    return bool(deps & {"dobj", "nsubjpass", "auxpass", "dative"}) or (head.tag == "VBN" and head.dep == "acl")


def aligned_token(parsed: ParsedSentence, var: str) -> int | None:
    """Index of the first token aligned to ``var`` (None without an alignment)."""
    return next((i for i in parsed.alignment.get(var, ()) if 0 <= i < len(parsed.tokens)), None)
