"""The dependency parser's words: graph nodes under construction, concepts and roles of single tokens.

:class:`Built` collects concepts, edges and the alignment and lays them out as a penman graph at the
end; :class:`Words` turns one token into its concept node (entity, pronoun, predicate frame, noun,
adjective) and names the role a subject or a preposition takes. Part of
:class:`core.foils.parse.build.GraphBuilder` (its clauses) with :mod:`core.foils.parse.modifiers`.

>>> is_frame("bite-01"), is_frame("be-located-at-91"), is_frame("cat")
(True, True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import penman
from penman.models.amr import model as AMR_MODEL
from penman.tree import Tree

from core.foils.amr.frames import FrameIndex
from core.foils.parse.lex import (
    ANIMATE_NOUNS,
    CITIES,
    PREP_ROLES,
    PRONOUNS,
    RELATIVE_WORDS,
    TIME_NOUNS,
    WH_WORDS,
    adverb_to_adjective,
)

SUBJ_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass"})
_MOTION_VERBS = frozenset({"go", "come", "return", "run", "walk", "travel", "fly", "move", "drive", "send", "bring",
                           "take", "lead", "get", "hurry", "climb", "fall", "jump", "sail", "ride", "carry"})  # fmt: skip
_VERB_PREP_ARG1 = frozenset({("look", "for"), ("look", "at"), ("wait", "for"), ("listen", "to"), ("think", "of"),
                             ("think", "about"), ("dream", "of"), ("belong", "to"), ("care", "about"), ("care", "for"),
                             ("depend", "on"), ("rely", "on"), ("laugh", "at"), ("point", "at"), ("search", "for"),
                             ("ask", "for"), ("approve", "of"), ("consist", "of"), ("believe", "in"),
                             ("hope", "for"), ("long", "for"), ("talk", "about"), ("speak", "of"),
                             ("hear", "of"), ("know", "of"), ("worry", "about"), ("stare", "at"),
                             ("glance", "at"), ("smile", "at"), ("cry", "for"), ("pay", "for")})  # fmt: skip
_OF_NOUN_ROLE = ":poss"  # "of" under a noun whose object is not animate (":prep-of" would read as an inverse role)
_BAD_CONCEPT = re.compile(r"[\s()\"~:/^,;]")


def is_frame(concept: str) -> bool:
    """Whether a concept is a sense-numbered predicate (``bite-01``, ``be-located-at-91``)."""
    head, dash, sense = concept.rpartition("-")
    return bool(dash and head and sense.isdigit())


@dataclass
class Built:
    """A graph under construction: concepts, ordered edges, alignment."""

    concepts: dict[str, str] = field(default_factory=dict)
    edges: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    alignment: dict[str, tuple[int, ...]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def node(self, concept: str, tokens: tuple[int, ...] = ()) -> str:
        if _BAD_CONCEPT.search(concept):
            concept = _BAD_CONCEPT.sub("", concept) or "thing"
        c = concept[0].lower() if concept and concept[0].isalpha() and concept[0].isascii() else "x"
        n = self.counts.get(c, 0) + 1
        self.counts[c] = n
        var = c if n == 1 else f"{c}{n}"
        self.concepts[var] = concept
        self.edges[var] = []
        if tokens:
            self.alignment[var] = tokens
        return var

    def add(self, src: str, role: str, tgt: str) -> None:
        """An edge to a node variable or a constant (``"-"``, ``"2"``, ``'"Mary"'``)."""
        edges = self.edges[src]
        if (role, tgt) not in edges:
            edges.append((role, tgt))

    def has_role(self, src: str, role: str) -> bool:
        return any(r == role for r, _ in self.edges[src])

    def to_graph(self, top: str, metadata: dict[str, str] | None = None) -> penman.Graph:
        """Lay the nodes out as a tree from ``top`` (first mention expands a node) and interpret it."""
        seen: set[str] = set()

        def expand(var: str) -> tuple[str, list[tuple[str, Any]]]:
            seen.add(var)
            branches: list[tuple[str, Any]] = [("/", self.concepts[var])]
            for role, tgt in self.edges[var]:
                if tgt in self.concepts:
                    branches.append((role, tgt if tgt in seen else expand(tgt)))
                else:
                    branches.append((role, tgt))
            return (var, branches)

        root = expand(top)
        # Anything unreachable (should not happen) hangs off the top so the graph stays connected.
        for var in list(self.concepts):
            if var not in seen:
                root[1].append((":mod", expand(var)))
        return penman.layout.interpret(Tree(root, metadata=metadata or {}), AMR_MODEL)


@dataclass
class ClauseInfo:
    """What a built clause tells its neighbours (for shared subjects)."""

    var: str
    subj: str | None = None
    passive: bool = False


class Words:
    """Concepts and roles of single tokens; the state is the builder's (one instance per ``Doc``)."""

    doc: Any
    frames: FrameIndex | None
    g: Built
    pronoun_vars: dict[str, str]
    ent_root: dict[int, Any]  # root token index -> (AMR entity type, name tokens, entity span)
    info: dict[int, ClauseInfo]
    done: set[int]
    rel: list[tuple[str, int, list[str]]]  # (antecedent var, relcl verb index, found role)
    question: bool

    # -- concepts ----------------------------------------------------------------------------------------------
    def _frame(self, lemma: str, pos: str = "VERB") -> str:
        """PropBank id for a predicate lemma: from the frames file when configured, else ``lemma-01``."""
        if self.frames is None:
            return f"{lemma}-01"
        found = self.frames.best_frame(lemma)
        if found is not None:
            return found
        return f"{lemma}-01" if pos == "VERB" else lemma

    def _adj_concept(self, lemma: str, predicative: bool) -> str:
        """Adjectives: a frame when the frames file has one (or, without frames, in predicate position)."""
        if self.frames is None:
            return f"{lemma}-01" if predicative else lemma
        found = self.frames.best_frame(lemma)
        return found if found is not None else lemma

    def _pronoun(self, concept: str, tok: int | None) -> str:
        """Pronouns with the same concept in one input share one node (he / his / him)."""
        var = self.pronoun_vars.get(concept)
        if var is None:
            var = self.g.node(concept, (tok,) if tok is not None else ())
            self.pronoun_vars[concept] = var
        elif tok is not None:
            old = self.g.alignment.get(var, ())
            if tok not in old:
                self.g.alignment[var] = (*old, tok)
        return var

    def _entity(self, tok: Any) -> str:
        etype, toks, ent = self.ent_root[tok.i]
        idx = tuple(t.i for t in toks)
        if etype == "country" and ent.text.lower().removeprefix("the ") in CITIES:
            etype = "city"
        var = self.g.node(etype, idx)
        name = self.g.node("name", idx)
        self.g.add(var, ":name", name)
        for k, t in enumerate(toks, start=1):
            self.g.add(name, f":op{k}", '"' + t.text.replace('"', "'") + '"')
        return var

    def _is_relword(self, k: Any) -> bool:
        return bool(self.rel) and k.lower_ in RELATIVE_WORDS and k.tag_ in ("WDT", "WP", "WP$", "WRB")

    def _concept_node(self, tok: Any, predicative: bool) -> str:
        """The node for a content token (entity, pronoun, predicate, noun, adjective...)."""
        if tok.i in self.ent_root:
            return self._entity(tok)
        lower = tok.lower_
        pos = tok.pos_
        if pos == "PRON" or tok.tag_ in ("PRP", "PRP$"):
            if lower in PRONOUNS:
                return self._pronoun(PRONOUNS[lower], tok.i)
            if lower in WH_WORDS and self.question:
                return self.g.node("amr-unknown", (tok.i,))
            if lower in ("what", "whatever"):
                return self.g.node("thing", (tok.i,))
            return self.g.node(lower, (tok.i,))
        if self.question and lower in WH_WORDS and tok.tag_ in ("WP", "WDT", "WRB"):
            return self.g.node("amr-unknown", (tok.i,))
        lemma = tok.lemma_.lower() if tok.lemma_ else lower
        i = tok.i
        if i >= 2 and self.doc[i - 1].tag_ == "HYPH" and self.doc[i - 2].head.i == i and self.doc[i - 2].is_alpha:
            # "grown - ups", "well-known": one hyphenated concept over the whole span
            self.done.add(i - 2)
            return self.g.node(f"{self.doc[i - 2].lower_}-{lemma}", (i - 2, i - 1, i))
        if pos in ("VERB", "AUX"):
            if lemma == "make" and self.frames is not None and any(k.dep_ in ("ccomp", "xcomp") for k in tok.children):
                return self.g.node("make-02", (tok.i,))
            prt = next((k for k in tok.children if k.dep_ == "prt"), None)
            if prt is not None and self.frames is not None:
                found = self.frames.best_frame(f"{lemma}-{prt.lower_}")
                if found is not None:
                    return self.g.node(found, (tok.i,))
            return self.g.node(self._frame(lemma), (tok.i,))
        if pos == "ADJ":
            return self.g.node(self._adj_concept(lemma, predicative), (tok.i,))
        if pos == "ADV":
            adj = adverb_to_adjective(lemma)
            return self.g.node(self._adj_concept(adj, False) if adj != lemma else lemma, (tok.i,))
        return self.g.node(lemma, (tok.i,))

    # -- roles -------------------------------------------------------------------------------------------------
    def _clause_var(self, tok: Any, built: str) -> str:
        """The predicate variable of the clause headed by ``tok``; ``built`` (what _build returned) when
        ``tok`` was not built as a clause (spaCy can attach a noun or a coordination as ``relcl``/``advcl``)."""
        info = self.info.get(tok.i)
        return info.var if info is not None else built

    def _subject_role(self, var: str, *, active: bool, has_obj: bool) -> str:
        if not active:
            return ":ARG1"
        concept = self.g.concepts[var]
        if (
            self.frames is not None
            and not has_obj
            and not self.frames.has_role(concept, "ARG0")
            and self.frames.has_role(concept, "ARG1")
        ):
            return ":ARG1"
        return ":ARG0"

    def _is_animate(self, tok: Any) -> bool:
        return (
            tok.lower_ in PRONOUNS
            or tok.ent_type_ in ("PERSON", "NORP", "ORG")
            or tok.lemma_.lower() in ANIMATE_NOUNS
            or tok.pos_ == "PROPN"
        )

    def _prep_role(self, head: Any, prep: Any, obj: Any, has_obj: bool) -> str:
        p = prep.lower_
        hpos = head.pos_
        olemma = obj.lemma_.lower()
        if p in ("in", "on", "at", "during") and (olemma in TIME_NOUNS or obj.ent_type_ in ("DATE", "TIME")):
            return ":time"
        if p == "for" and (olemma in TIME_NOUNS or obj.ent_type_ in ("DATE", "TIME")):
            return ":duration"
        if hpos in ("VERB", "AUX") and (head.lemma_.lower(), p) in _VERB_PREP_ARG1:
            return ":ARG2" if has_obj else ":ARG1"
        if p == "of":
            if hpos in ("VERB", "ADJ", "AUX"):
                return ":ARG2" if has_obj else ":ARG1"
            return ":poss" if self._is_animate(obj) else _OF_NOUN_ROLE
        if p == "with":
            if self._is_animate(obj):
                return ":accompanier"
            return ":instrument" if hpos in ("VERB", "AUX") else ":prep-with"
        if p == "to":
            if hpos in ("VERB", "AUX") and head.lemma_.lower() not in _MOTION_VERBS:
                return ":ARG2"
            return ":destination"
        if p == "for":
            if self._is_animate(obj):
                return ":beneficiary"
            return ":purpose"
        if p == "by":
            return ":manner" if obj.tag_ == "VBG" else ":prep-by"
        return PREP_ROLES.get(p, f":prep-{p}" if p.isalpha() else ":mod")
