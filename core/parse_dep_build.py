"""Build an AMR-style graph from one spaCy ``Doc`` (the work behind :class:`core.parse_dep.DependencyParser`).

One pass over the dependency tree: every content word becomes a concept node, function words
(articles, auxiliaries, prepositions, markers, punctuation) become role labels or disappear, and a
few constructions are restructured the way AMR writes them:

* copulas: "She is happy" -> ``(h / happy-01 :ARG1 (s / she))``; "It is a cat" -> ``(c / cat :domain (i / it))``
* passives: the ``by``-agent is ``:ARG0``, the passive subject ``:ARG1``
* modals wrap their verb: ``(p / possible-01 :ARG1 (v / ...))``; "cannot" negates ``possible-01``
* coordination: ``(a / and :op1 .. :op2 ..)``; "but" -> ``contrast-01``
* "because" clauses: ``(c / cause-01 :ARG0 <reason> :ARG1 <main clause>)``
* relative clauses hang off their noun with an inverse role (``:ARG0-of``)
* named entities: ``(p / person :name (n / name :op1 "Mary" :op2 "Smith"))``

The builder only reads spaCy attributes and fills dictionaries; the penman graph is assembled once
at the end, so the cost per sentence stays small next to spaCy's own parse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import penman
from penman.models.amr import model as AMR_MODEL
from penman.tree import Tree

from core.frames import FrameIndex
from core.parse_dep_lex import (
    ADVCL_MARK_ROLES,
    ANIMATE_NOUNS,
    CAUSE_MARKS,
    CITIES,
    DEGREE_WORDS,
    DET_MOD,
    DET_QUANT,
    ENT_TYPES,
    FREQUENCY_ADVERBS,
    LOCATION_ADVERBS,
    MODALS,
    ORDINALS,
    PREP_ROLES,
    PRONOUNS,
    RELATIVE_WORDS,
    TIME_ADVERBS,
    TIME_NOUNS,
    TIME_PREPS,
    TITLES,
    WH_WORDS,
    adverb_to_adjective,
    words_to_number,
)

_SKIP_DEPS = frozenset({"punct", "case", "expl", "dep", "space", "quantmod", "preconj", "meta", "_SP", ""})
_SUBJ_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass"})
_BECOME_VERBS = frozenset({"become", "get", "turn", "grow", "go", "make", "keep", "remain", "stay"})
_MOTION_VERBS = frozenset({"go", "come", "return", "run", "walk", "travel", "fly", "move", "drive", "send", "bring",
                           "take", "lead", "get", "hurry", "climb", "fall", "jump", "sail", "ride", "carry"})  # fmt: skip
_VERB_PREP_ARG1 = frozenset({("look", "for"), ("look", "at"), ("wait", "for"), ("listen", "to"), ("think", "of"),
                             ("think", "about"), ("dream", "of"), ("belong", "to"), ("care", "about"), ("care", "for"),
                             ("depend", "on"), ("rely", "on"), ("laugh", "at"), ("point", "at"), ("search", "for"),
                             ("ask", "for"), ("approve", "of"), ("consist", "of"), ("believe", "in"),
                             ("hope", "for"), ("long", "for"), ("talk", "about"), ("speak", "of"),
                             ("hear", "of"), ("know", "of"), ("worry", "about"), ("stare", "at"),
                             ("glance", "at"), ("smile", "at"), ("cry", "for"), ("pay", "for")})  # fmt: skip
_TIME_UNITS = frozenset({"year", "month", "week", "day", "hour", "minute", "second", "century", "decade"})
_OF_NOUN_ROLE = ":poss"  # "of" under a noun whose object is not animate (":prep-of" would read as an inverse role)
_HEARER_VERBS = frozenset({"tell", "ask", "show", "teach", "inform", "answer", "promise", "remind", "warn", "pay"})
_CAUSAL_ADVERBS = frozenset({"thus", "therefore", "hence", "consequently", "accordingly"})
_WH_ROLES = {"how": ":manner", "why": ":cause", "where": ":location", "when": ":time"}
_NEG_WORDS = frozenset({"not", "n't", "never", "no", "nt"})
_FALLBACK_TOP = "e"
_BAD_CONCEPT = re.compile(r"[\s()\"~:/^,;]")


def _is_frame(concept: str) -> bool:
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
class _Info:
    """What a built clause tells its neighbours (for shared subjects)."""

    var: str
    subj: str | None = None
    passive: bool = False


@dataclass
class _Clause:
    """One head being built by :meth:`GraphBuilder._build`: the token, the word that carries its concept
    (``pred``, after transparent heads) and what the phases hand each other."""

    tok: Any
    pred: Any
    kids: list[Any]
    copula: bool = False
    wrappers: list[tuple[str, Any, bool]] = field(default_factory=list)  # (modal concept, token, polarity on modal)
    subj_to_pred: bool = False  # the subject belongs to the word seen through ("able to go": go's subject)
    var: str = ""
    be_located: bool = False
    is_frame: bool = False
    info: _Info = field(default_factory=lambda: _Info(""))
    has_obj: bool = False
    neg_toks: list[Any] = field(default_factory=list)
    modal_toks: list[Any] = field(default_factory=list)
    conjs: list[Any] = field(default_factory=list)
    cc: Any = None
    causes: list[str] = field(default_factory=list)  # reason clauses, for cause-01
    cause_toks: list[int] = field(default_factory=list)
    dobj_var: str | None = None  # the controller of an object-controlled xcomp
    temporal: str | None = None  # "six years": the number of a temporal-quantity


class GraphBuilder:
    """Turns one spaCy ``Doc`` into a graph and an alignment; one instance per doc."""

    def __init__(self, doc: Any, frames: FrameIndex | None = None) -> None:
        self.doc = doc
        self.frames = frames
        self.g = Built()
        self.pronoun_vars: dict[str, str] = {}
        self.ent_root: dict[int, Any] = {}  # root token index -> entity span
        self.in_ent: set[int] = set()
        self.info: dict[int, _Info] = {}
        self.done: set[int] = set()
        self.rel: list[tuple[str, int, list[str]]] = []  # (antecedent var, relcl verb index, found role)
        self.question = False
        self.cause_neg: dict[int, int] = {}  # "not because": mark index -> its negation token index
        for ent in doc.ents:
            etype = ENT_TYPES.get(ent.label_)
            if etype is None:
                continue
            toks = [t for t in ent if not (t.dep_ in ("det", "case", "punct") or t.lower_ in TITLES)]
            if not toks or not any(t.is_alpha for t in toks):
                continue
            root = ent.root
            self.ent_root[root.i] = (etype, toks, ent)
            self.in_ent.update(t.i for t in ent if t.i != root.i)

    # -- top level ---------------------------------------------------------------------------------------------
    def build(self) -> tuple[penman.Graph, dict[str, tuple[int, ...]]]:
        tops: list[str] = []
        for sent in self.doc.sents:
            if not any(t.is_alpha for t in sent):
                continue
            self.question = any(t.text == "?" for t in sent)
            first = next(t for t in sent if t.is_alpha)
            opener = self._opener(first, sent.root)
            var = self._build(sent.root)
            if var is not None:
                self._sentence_mode(sent.root)
                if opener is not None:
                    wrapper = self.g.node(opener[0], (opener[2],))
                    self.g.add(wrapper, opener[1], var)
                    var = wrapper
                tops.append(var)
        if not tops:
            return penman.Graph([(_FALLBACK_TOP, ":instance", "empty")], top=_FALLBACK_TOP), {}
        if len(tops) == 1:
            top = tops[0]
        else:
            top = self.g.node("multi-sentence")
            for k, var in enumerate(tops, start=1):
                self.g.add(top, f":snt{k}", var)
        return self.g.to_graph(top), dict(self.g.alignment)

    def _opener(self, first: Any, root: Any) -> tuple[str, str, int] | None:
        """Sentence-initial "And"/"But"/"So": AMR links the sentence to the previous one
        (``(a / and :op2 ..)``, ``(c / contrast-01 :ARG2 ..)``, ``(c / cause-01 :ARG1 ..)``)."""
        linker = next(
            (
                k
                for k in root.children
                if k.dep_ == "advmod" and (k.lower_ in _CAUSAL_ADVERBS or (k.lower_ == "so" and k.i == first.i))
            ),
            None,
        )
        if linker is not None:  # "Thus you can imagine ..." -> (c / cause-01 :ARG1 ..)
            self.done.add(linker.i)
            return ("cause-01", ":ARG1", linker.i)
        if first.head.i != root.i or first.i == root.i:
            return None
        lower = first.lower_
        if first.dep_ == "cc" and not any(k.dep_ == "conj" for k in root.children):
            found = {"and": ("and", ":op2"), "but": ("contrast-01", ":ARG2"), "or": ("or", ":op2")}.get(lower)
        else:
            found = None
        if found is None:
            return None
        self.done.add(first.i)
        return (found[0], found[1], first.i)

    def _sentence_mode(self, root: Any) -> None:
        """Imperatives get ``:mode imperative`` and an implicit ``you`` as ARG0."""
        info = self.info.get(root.i)
        if info is None or self.question or root.tag_ != "VB" or info.subj is not None:
            return
        if any(k.dep_ in ("auxpass", "nsubj", "nsubjpass", "expl", "csubj") for k in root.children):
            return
        if any(k.dep_ == "aux" and k.lemma_.lower() != "do" for k in root.children):
            return
        self.g.add(info.var, ":mode", "imperative")
        you = self._pronoun("you", None)
        self.g.add(info.var, self._subject_role(info.var, active=True, has_obj=True), you)

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

    # -- the recursive clause/phrase builder, one method per phase ---------------------------------------------
    def _build(
        self,
        tok: Any,
        implicit_subj: str | None = None,
        passive_hint: bool = False,
        no_conj: bool = False,
        antecedent: str | None = None,
    ) -> str | None:
        """Build ``tok`` and its dependents; return the variable its head should point to.

        The phases, in order (each reads what the earlier ones left in a :class:`_Clause`): see through
        transparent heads, make the head node, read the clause's parts, attach the subjects, attach every
        other dependent by its label (:data:`_DEPENDENTS`), then wrap the head in its time quantity,
        modals, negation, cause and coordination.
        """
        if tok.i in self.done:
            return self.info[tok.i].var if tok.i in self.info else None
        self.done.add(tok.i)
        if self.rel and self._is_relword(tok):
            return self.rel[-1][0]  # "whose", "in which": the antecedent itself
        c = self._transparent_head(tok)
        self._head_node(c, passive_hint)
        self._clause_parts(c, no_conj)
        self._subjects(c, implicit_subj)
        for k in c.kids:
            if k.dep_ in _SKIP_DEPS or k.dep_ in _SUBJ_DEPS or k in c.neg_toks or k.i in self.done:
                continue
            _DEPENDENTS.get(k.dep_, GraphBuilder._dep_mod)(self, c, k)
        outer = self._wrap(c, implicit_subj)
        c.info.var = c.var
        return outer

    def _transparent_head(self, tok: Any) -> _Clause:
        """See through the heads that carry no concept of their own (a punctuation head, copula "be",
        "have to", "be able to", "be going to") to the word that does; their dependents join the clause's."""
        kids = list(tok.children)
        if tok.i in self.ent_root:
            ent = self.ent_root[tok.i][2]
            kids = [k for t in ent for k in t.children if not (ent.start <= k.i < ent.end)]
        c = _Clause(tok, tok, kids)
        for _ in range(4):
            pred, kids = c.pred, c.kids
            lemma = pred.lemma_.lower()
            if pred.is_punct or pred.is_space:
                content = [k for k in kids if not (k.is_punct or k.is_space)]
                if content:
                    head = next((k for k in content if k.pos_ in ("VERB", "AUX")), content[0])
                    self.done.add(head.i)
                    c.kids = [k for k in kids if k is not head] + list(head.children)
                    c.pred = head
                    continue
            if lemma == "be" and pred.dep_ not in ("aux", "auxpass"):
                comp = next((k for k in kids if k.dep_ == "acomp"), None) or next(
                    (k for k in kids if k.dep_ == "attr"), None
                )
                if comp is not None:
                    self.done.add(comp.i)
                    c.kids = [k for k in kids if k is not comp] + list(comp.children)
                    c.pred, c.copula = comp, True
                    continue
            xcomp = next((k for k in kids if k.dep_ == "xcomp" and k.pos_ in ("VERB", "AUX")), None)
            has_to = xcomp is not None and any(k.lower_ == "to" and k.dep_ == "aux" for k in xcomp.children)
            if has_to and lemma in ("able", "unable"):
                c.wrappers.append(("possible-01", pred, True))
            elif (
                has_to and lemma == "have" and pred.pos_ in ("VERB", "AUX") and not any(k.dep_ == "dobj" for k in kids)
            ):
                c.wrappers.append(("obligate-01", pred, False))
            elif has_to and lemma == "go" and pred.tag_ == "VBG" and any(k.dep_ == "aux" for k in kids):
                pass
            else:
                break
            assert xcomp is not None
            self.done.add(xcomp.i)
            c.kids = [k for k in kids if k is not xcomp] + list(xcomp.children)
            c.pred, c.copula, c.subj_to_pred = xcomp, False, True
        return c

    def _head_node(self, c: _Clause, passive_hint: bool) -> None:
        """The clause's own node (``be-located-at-91`` for a bare "be"), registered for both tokens."""
        pred = c.pred
        if pred.lemma_.lower() == "be" and pred.dep_ not in ("aux", "auxpass"):
            c.be_located = True
            c.var = self.g.node("be-located-at-91", (pred.i,))
        else:
            c.var = self._concept_node(pred, predicative=c.copula or pred.dep_ == "ROOT")
        if pred is not c.tok:
            self.done.add(pred.i)
        c.is_frame = _is_frame(self.g.concepts[c.var])
        passive = passive_hint or any(k.dep_ in ("auxpass", "nsubjpass", "csubjpass") for k in c.kids)
        c.info = _Info(var=c.var, passive=passive)
        self.info[c.tok.i] = c.info
        self.info[pred.i] = c.info

    def _clause_parts(self, c: _Clause, no_conj: bool) -> None:
        """Read what the later phases need: an object, negations, modals, conjuncts and their conjunction."""
        kids = c.kids
        c.has_obj = any(k.dep_ == "dobj" for k in kids)
        c.neg_toks = [
            k
            for k in kids
            if (k.dep_ == "neg" or (k.dep_ == "advmod" and k.lower_ == "never")) and k.i not in self.cause_neg.values()
        ]
        c.modal_toks = [k for k in kids if k.dep_ == "aux" and k.lemma_.lower() in MODALS]
        c.conjs = [] if no_conj else self._conj_chain(kids)
        c.cc = next((k for k in kids if k.dep_ == "cc"), None)
        if c.cc is None and c.conjs:
            c.cc = next((k for conj in c.conjs for k in conj.children if k.dep_ == "cc"), None)

    def _subjects(self, c: _Clause, implicit_subj: str | None) -> None:
        """Subjects first: their variable is shared with controlled and conjoined clauses."""
        g, pred, info = self.g, c.pred, c.info
        if c.copula:
            subj_role = ":ARG1" if c.is_frame else ":domain"
        elif c.be_located:
            subj_role = ":ARG1"
        elif pred.pos_ in ("NOUN", "PROPN", "PRON", "NUM"):
            subj_role = ":domain"
        elif pred.pos_ == "ADJ":
            subj_role = ":ARG1" if c.is_frame else ":domain"
        else:
            subj_role = self._subject_role(c.var, active=not info.passive, has_obj=c.has_obj)
        subjects = [k for k in c.kids if k.dep_ in _SUBJ_DEPS]
        for s in subjects:
            role = ":ARG1" if s.dep_ in ("nsubjpass", "csubjpass") else subj_role
            if self._rel_direct(s, pred, role):
                continue
            svar = self._build(s)
            if svar is not None:
                g.add(c.var, role, svar)
                info.subj = info.subj or svar
        if not subjects and implicit_subj is not None:
            g.add(c.var, subj_role if not info.passive else ":ARG1", implicit_subj)
            info.subj = implicit_subj

    # -- one handler per dependency label (the _DEPENDENTS table below the class) --------------------------------
    def _dep_skip(self, c: _Clause, k: Any) -> None:
        """Function words read elsewhere (auxiliaries, modals, markers, particles) or by their head (cc, conj)."""

    def _dep_object(self, c: _Clause, k: Any) -> None:
        """``dobj`` (ARG1; the hearer of tell/ask/show is ARG2), ``acomp`` (ARG2 after become-verbs), others ARG2."""
        dep = k.dep_
        if dep == "dobj":
            hearer = c.pred.lemma_.lower() in _HEARER_VERBS and self._is_animate(k)  # "told him"
            role = ":ARG2" if hearer else ":ARG1"
        elif dep == "acomp":
            role = ":ARG2" if c.pred.lemma_.lower() in _BECOME_VERBS else ":ARG1"
        else:
            role = ":ARG2"
        if self._rel_direct(k, c.pred, role):
            return
        kv = self._build(k, implicit_subj=c.info.subj if dep == "acomp" else None)
        if kv is not None:
            self.g.add(c.var, role, kv)
            if dep == "dobj":
                c.dobj_var = c.dobj_var or kv

    def _dep_complement(self, c: _Clause, k: Any) -> None:
        """A clausal complement: ARG1 (ARG2 beside an object); an ``xcomp``'s subject is its controller."""
        role = ":ARG2" if c.has_obj else ":ARG1"
        controller = (c.dobj_var or c.info.subj) if k.dep_ == "xcomp" else None
        kv = self._build(k, implicit_subj=controller)
        if kv is not None:
            self.g.add(c.var, role, kv)

    def _dep_ccomp(self, c: _Clause, k: Any) -> None:
        if any(m.dep_ == "mark" and m.lower_ in CAUSE_MARKS for m in k.children):
            self._dep_advcl(c, k)  # spaCy reads "left not because ..." as a ccomp
        else:
            self._dep_complement(c, k)

    def _dep_advcl(self, c: _Clause, k: Any) -> None:
        self._advcl(c.var, k, c.info, c.causes, c.cause_toks)

    def _dep_agent(self, c: _Clause, k: Any) -> None:
        """The passive's "by" phrase: its object is ARG0."""
        obj = next((o for o in k.children if o.dep_ in ("pobj", "pcomp")), None)
        if obj is not None and not self._rel_direct(obj, c.pred, ":ARG0"):
            kv = self._build(obj)
            if kv is not None:
                self.g.add(c.var, ":ARG0", kv)

    def _dep_prep(self, c: _Clause, k: Any) -> None:
        self._prep(c.var, c.pred, k, c.has_obj, c.info, c.causes, c.cause_toks, c.be_located)

    def _dep_nummod(self, c: _Clause, k: Any) -> None:
        """A number: ``:quant`` before its noun, ``:mod`` after ("Chapter 2"); "six years" -> temporal-quantity."""
        g, pred = self.g, c.pred
        num = words_to_number(" ".join(t.text for t in k.subtree if not t.is_punct))
        if num is not None and k.i < pred.i and pred.lemma_.lower() in _TIME_UNITS:
            c.temporal = num
            for t in k.subtree:
                self.done.add(t.i)
        elif num is not None:
            g.add(c.var, ":quant" if k.i < pred.i else ":mod", num)
            for t in k.subtree:
                self.done.add(t.i)
        else:
            kv = self._build(k)
            if kv is not None:
                g.add(c.var, ":quant", kv)

    def _dep_poss(self, c: _Clause, k: Any) -> None:
        kv = self._build(k) if k.i not in self.done or k.lower_ in PRONOUNS else None
        if kv is not None:
            self.g.add(c.var, ":poss", kv)

    def _dep_intj(self, c: _Clause, k: Any) -> None:
        if k.lower_ == "please":
            self.g.add(c.var, ":polite", "+")

    def _dep_compound(self, c: _Clause, k: Any) -> None:
        """Titles and punctuation disappear, as does a number inside a number; any other compound is a :mod."""
        if k.lower_ in TITLES or k.pos_ == "PUNCT" or (k.pos_ == "NUM" and c.pred.pos_ == "NUM"):
            return
        self._dep_mod(c, k)

    def _dep_pobj(self, c: _Clause, k: Any) -> None:
        if not self._rel_direct(k, c.pred, ":mod"):
            self._dep_mod(c, k)

    def _dep_mod(self, c: _Clause, k: Any) -> None:
        """Any other dependent: built and attached as ``:mod``."""
        kv = self._build(k)
        if kv is not None:
            self.g.add(c.var, ":mod", kv)

    # -- the layers around the head ------------------------------------------------------------------------------
    def _wrap(self, c: _Clause, implicit_subj: str | None) -> str:
        """Wrap the head, inside out, in its time quantity, modals and cause, and coordinate it with its
        conjuncts; returns the outermost variable."""
        outer = self._modals(c)
        if c.subj_to_pred and c.info.subj is None and implicit_subj is not None:
            c.info.subj = implicit_subj
        if c.causes:
            outer = self._cause(c, outer)
        if c.conjs:
            outer = self._coordinate(outer, c.conjs, c.cc, c.info, c.pred)
        return outer

    def _modals(self, c: _Clause) -> str:
        """Time quantity, then the modal layers (transparent-head wrappers were found outside-in; auxiliary
        modals sit outermost); negation goes on the modal for "cannot", else on the head."""
        g, var = self.g, c.var
        outer = var
        if c.temporal is not None:
            outer = g.node("temporal-quantity", (c.pred.i,))
            g.add(outer, ":quant", c.temporal)
            g.add(outer, ":unit", var)
        modal_neg = False
        layers = c.wrappers[::-1]
        for m in c.modal_toks:
            mconcept, on_modal = MODALS[m.lemma_.lower()]
            layers.append((mconcept, m, on_modal))
        for mconcept, mtok, neg_on_modal in layers:
            mvar = g.node(mconcept, (mtok.i,))
            g.add(mvar, ":ARG1", outer)
            if neg_on_modal and not modal_neg and (c.neg_toks or mtok.lower_ == "unable"):
                modal_neg = True
                g.add(mvar, ":polarity", "-")
                g.alignment[f"{mvar}:polarity"] = (c.neg_toks[0].i,) if c.neg_toks else (mtok.i,)
            outer = mvar
        if c.neg_toks and not modal_neg:
            g.add(var, ":polarity", "-")
            g.alignment[f"{var}:polarity"] = tuple(t.i for t in c.neg_toks[:1])
        return outer

    def _cause(self, c: _Clause, outer: str) -> str:
        """``(c / cause-01 :ARG0 <reason> :ARG1 <clause>)``; "not because ...": the reason is denied, not the clause."""
        g = self.g
        cvar = g.node("cause-01", tuple(c.cause_toks[:1]))
        if c.cause_toks[0] in self.cause_neg:
            g.add(cvar, ":polarity", "-")
            g.alignment[f"{cvar}:polarity"] = (self.cause_neg[c.cause_toks[0]],)
        g.add(cvar, ":ARG0", c.causes[0])
        g.add(cvar, ":ARG1", outer)
        for extra in c.causes[1:]:
            g.add(cvar, ":ARG0", extra)
        return cvar

    # -- helpers for dependents --------------------------------------------------------------------------------
    def _conj_chain(self, kids: list[Any]) -> list[Any]:
        out: list[Any] = []
        stack = [k for k in kids if k.dep_ == "conj"]
        while stack:
            c = stack.pop(0)
            out.append(c)
            stack.extend(k for k in c.children if k.dep_ == "conj")
        return out

    def _coordinate(self, first: str, conjs: list[Any], cc: Any, info: _Info, pred: Any) -> str:
        g = self.g
        word = cc.lower_ if cc is not None else "and"
        concept = {"or": "or", "nor": "or", "but": "contrast-01", "yet": "contrast-01"}.get(word, "and")
        if cc is not None:
            anchor = cc.i
        else:  # asyndetic "A, B": the comma before the second conjunct, else that conjunct's first token
            before = conjs[0].left_edge.i - 1
            anchor = before if before >= 0 and self.doc[before].is_punct else conjs[0].left_edge.i
        cvar = g.node(concept, (anchor,))
        roles = [":ARG1", ":ARG2"] if concept == "contrast-01" else [f":op{n}" for n in range(1, len(conjs) + 2)]
        g.add(cvar, roles[0], first)
        share = pred.pos_ in ("VERB", "AUX", "ADJ")
        for n, c in enumerate(conjs, start=1):
            own_subj = any(k.dep_ in ("nsubj", "nsubjpass", "expl") for k in c.children)
            implicit = info.subj if share and not own_subj and c.pos_ in ("VERB", "AUX", "ADJ") else None
            passive = info.passive and c.tag_ == "VBN"
            cv = self._build(c, implicit_subj=implicit, passive_hint=passive, no_conj=True)
            if cv is not None:
                g.add(cvar, roles[min(n, len(roles) - 1)], cv)
        return cvar

    def _rel_direct(self, k: Any, pred: Any, role: str) -> bool:
        """A relative pronoun directly under its clause: record its role instead of building a node."""
        if not self._is_relword(k):
            return False
        _ant, verb_i, found = self.rel[-1]
        if verb_i != pred.i and not (verb_i in self.info and self.info[verb_i] is self.info.get(pred.i)):
            return False
        self.done.add(k.i)
        if not found:
            found.append(role)
        return True

    def _determiner(self, var: str, k: Any, head: Any) -> None:
        g = self.g
        lower = k.lower_
        if lower == "no":
            g.add(var, ":polarity", "-")
            g.alignment[f"{var}:polarity"] = (k.i,)
        elif self.question and lower in WH_WORDS:
            g.add(var, ":mod", g.node("amr-unknown", (k.i,)))
        elif lower in DET_MOD or (k.tag_ == "PDT" and lower != "half"):
            g.add(var, ":mod", g.node(lower, (k.i,)))
        elif lower in DET_QUANT:
            g.add(var, ":quant", g.node(lower, (k.i,)))
        elif k.tag_ == "PRP$" and lower in PRONOUNS:
            g.add(var, ":poss", self._pronoun(PRONOUNS[lower], k.i))

    def _prep(
        self,
        var: str,
        head: Any,
        prep: Any,
        has_obj: bool,
        info: _Info,
        causes: list[str],
        cause_toks: list[int],
        be_located: bool,
    ) -> None:
        g = self.g
        obj = next((c for c in prep.children if c.dep_ in ("pobj", "pcomp")), None)
        p = prep.lower_
        if p == "because" and obj is not None and obj.lower_ == "of":
            inner = next((c for c in obj.children if c.dep_ in ("pobj", "pcomp")), None)
            if inner is not None:
                kv = self._build(inner)
                if kv is not None:
                    causes.append(kv)
                    cause_toks.append(prep.i)
            return
        if obj is None:
            return
        role = self._prep_role(head, prep, obj, has_obj)
        if be_located and not g.has_role(var, ":ARG2") and role in (":location", ":destination", ":source", ":time"):
            role = ":ARG2"
        if self._rel_direct(obj, head, role):
            return
        implicit = info.subj if obj.tag_ == "VBG" and not any(k.dep_ == "nsubj" for k in obj.children) else None
        kv = self._build(obj, implicit_subj=implicit)
        if kv is None:
            return
        if p == "without" and obj.tag_ == "VBG":
            neg = self._clause_var(obj, kv)
            g.add(neg, ":polarity", "-")
            g.alignment[f"{neg}:polarity"] = (prep.i,)
            role = ":manner"
        if p in TIME_PREPS:
            tvar = g.node(p if p != "till" else "until", (prep.i,))
            g.add(tvar, ":op1", kv)
            g.add(var, ":time", tvar)
            return
        g.add(var, role, kv)

    def _advcl(self, var: str, k: Any, info: _Info, causes: list[str], cause_toks: list[int]) -> None:
        g = self.g
        mark = next((c for c in k.children if c.dep_ == "mark"), None)
        if mark is None:
            wh = next((c for c in k.children if c.dep_ == "advmod" and c.tag_ == "WRB" and c.i < k.i), None)
            if wh is not None:
                mark = wh
                self.done.add(wh.i)
        word = mark.lower_ if mark is not None else ""
        own_subj = any(c.dep_ in _SUBJ_DEPS or c.dep_ == "expl" for c in k.children)
        if word in CAUSE_MARKS and mark is not None:  # "not because": the negation belongs to cause-01
            neg = next((c for c in k.children if c.dep_ == "neg" and c.i == mark.i - 1), None)
            if neg is not None:
                self.cause_neg[mark.i] = neg.i
        kv = self._build(k, implicit_subj=None if own_subj else info.subj)
        if kv is None:
            return
        if word in CAUSE_MARKS:
            causes.append(kv)
            cause_toks.append(mark.i)
            return
        if word in TIME_PREPS:
            tvar = g.node(word if word != "till" else "until", (mark.i,))
            g.add(tvar, ":op1", kv)
            g.add(var, ":time", tvar)
            return
        if word in ADVCL_MARK_ROLES:
            role = ADVCL_MARK_ROLES[word]
        elif word in ("in", "order") or (word == "" and any(c.lower_ == "to" and c.dep_ == "aux" for c in k.children)):
            role = ":purpose"
        else:
            role = ":manner" if k.tag_ in ("VBG", "VBN") else ":mod"
        if word == "unless":
            neg = self._clause_var(k, kv)
            g.add(neg, ":polarity", "-")
            g.alignment[f"{neg}:polarity"] = (mark.i,)
        g.add(var, role, kv)

    def _relcl(self, var: str, k: Any) -> None:
        found: list[str] = []
        self.rel.append((var, k.i, found))
        try:
            kv = self._build(k, antecedent=var)
        finally:
            self.rel.pop()
        if kv is None:
            return
        if found:
            role = found[0]
        else:
            has_subj = any(c.dep_ in _SUBJ_DEPS for c in k.children)
            has_obj = any(c.dep_ == "dobj" for c in k.children)
            if not has_subj:
                role = self._subject_role(self._clause_var(k, kv), active=True, has_obj=has_obj)
            elif not has_obj:
                role = ":ARG1"
            else:
                role = ":mod"
        if role == ":mod":
            self.g.add(var, ":mod", kv)
        else:
            self.g.add(var, f"{role}-of", kv)

    def _acl(self, var: str, k: Any) -> None:
        if any(c.lower_ in RELATIVE_WORDS and c.tag_ in ("WDT", "WP", "WP$") for c in k.children):
            self._relcl(var, k)
            return
        kv = self._build(k)
        if kv is None:
            return
        if k.tag_ == "VBN":
            role = ":ARG1-of"
        elif k.tag_ == "VBG":
            role = ":ARG0-of"
        elif any(c.lower_ == "to" and c.dep_ == "aux" for c in k.children):
            role = ":ARG1-of"
        else:
            role = ":mod"
        self.g.add(var, role, kv)

    def _amod(self, var: str, k: Any) -> None:
        g = self.g
        lower = k.lower_
        if lower in ORDINALS and not any(True for _ in k.children):
            self.done.add(k.i)
            ovar = g.node("ordinal-entity", (k.i,))
            g.add(ovar, ":value", str(ORDINALS[lower]))
            g.add(var, ":ord", ovar)
            return
        if lower in DET_QUANT:
            self.done.add(k.i)
            qvar = g.node(lower, (k.i,))
            g.add(var, ":quant", qvar)
            neg = next((c for c in k.children if c.dep_ == "neg"), None)
            if neg is not None:  # "not many offices"
                self.done.add(neg.i)
                g.add(qvar, ":polarity", "-")
                g.alignment[f"{qvar}:polarity"] = (neg.i,)
            return
        kv = self._build(k)
        if kv is None:
            return
        concept = g.concepts.get(kv, "")
        if k.tag_ == "VBG" and k.pos_ == "VERB":
            g.add(var, ":ARG0-of", kv)
        elif _is_frame(concept):
            g.add(var, ":ARG1-of", kv)
        else:
            g.add(var, ":mod", kv)

    def _advmod(self, var: str, head: Any, k: Any) -> None:
        g = self.g
        lower = k.lower_
        if self._is_relword(k) and lower in ("where", "when", "why"):
            self._rel_direct(k, head, {"where": ":location", "when": ":time", "why": ":cause"}[lower])
            return
        if self.question and lower == "why":  # AMR: (x :ARG1-of (c / cause-01 :ARG0 (a / amr-unknown)))
            self.done.add(k.i)
            cause = g.node("cause-01", (k.i,))
            g.add(cause, ":ARG0", g.node("amr-unknown", (k.i,)))
            g.add(var, ":ARG1-of", cause)
            return
        if self.question and lower in _WH_ROLES:
            self.done.add(k.i)
            g.add(var, _WH_ROLES[lower], g.node("amr-unknown", (k.i,)))
            return
        if lower in _NEG_WORDS:
            return
        if head.pos_ in ("ADJ", "ADV") and lower in DEGREE_WORDS:
            self.done.add(k.i)
            g.add(var, ":degree", g.node(k.lemma_.lower(), (k.i,)))
            return
        if k.dep_ == "npadvmod":
            kv = self._build(k)
            if kv is not None:
                g.add(var, ":time" if k.lemma_.lower() in TIME_NOUNS else ":mod", kv)
            return
        if lower in LOCATION_ADVERBS and g.concepts[var] == "be-located-at-91" and not g.has_role(var, ":ARG2"):
            role = ":ARG2"
        elif lower in TIME_ADVERBS:
            role = ":time"
        elif lower in FREQUENCY_ADVERBS:
            role = ":frequency"
        elif lower in LOCATION_ADVERBS and head.pos_ in ("VERB", "AUX"):
            role = (
                ":location"
                if lower in ("here", "there", "everywhere", "somewhere", "anywhere", "nowhere")
                else ":direction"
            )
        elif lower in DEGREE_WORDS:
            role = ":degree"
        elif lower.endswith("ly") and adverb_to_adjective(lower) != lower:
            role = ":manner"
        else:
            role = ":mod"
        kv = self._build(k)
        if kv is not None:
            g.add(var, role, kv)


_Handler = Callable[[GraphBuilder, _Clause, Any], None]
# dependency label -> how GraphBuilder._build attaches a dependent with it (anything else: _dep_mod).
_DEPENDENTS: dict[str, _Handler] = {
    **dict.fromkeys(("aux", "auxpass", "cc", "conj", "mark", "prt", "neg"), GraphBuilder._dep_skip),
    "det": lambda b, c, k: b._determiner(c.var, k, c.tok),
    "predet": lambda b, c, k: b._determiner(c.var, k, c.tok),
    **dict.fromkeys(("dobj", "dative", "attr", "oprd", "acomp"), GraphBuilder._dep_object),
    "xcomp": GraphBuilder._dep_complement,
    "ccomp": GraphBuilder._dep_ccomp,
    "agent": GraphBuilder._dep_agent,
    "prep": GraphBuilder._dep_prep,
    "advcl": GraphBuilder._dep_advcl,
    "relcl": lambda b, c, k: b._relcl(c.var, k),
    "acl": lambda b, c, k: b._acl(c.var, k),
    "amod": lambda b, c, k: b._amod(c.var, k),
    "nummod": GraphBuilder._dep_nummod,
    "poss": GraphBuilder._dep_poss,
    "advmod": lambda b, c, k: b._advmod(c.var, c.pred, k),
    "npadvmod": lambda b, c, k: b._advmod(c.var, c.pred, k),
    "intj": GraphBuilder._dep_intj,
    "compound": GraphBuilder._dep_compound,
    "pobj": GraphBuilder._dep_pobj,
}
