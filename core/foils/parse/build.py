"""Build an AMR-style graph from one spaCy ``Doc`` (the work behind :class:`core.foils.parse.dep.DependencyParser`).

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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import penman

from core.foils.amr.frames import FrameIndex
from core.foils.parse.lex import CAUSE_MARKS, ENT_TYPES, MODALS, PRONOUNS, TITLES, words_to_number
from core.foils.parse.modifiers import Modifiers, result_so
from core.foils.parse.words import SUBJ_DEPS, Built, ClauseInfo, is_frame

_SKIP_DEPS = frozenset({"punct", "case", "expl", "dep", "space", "quantmod", "preconj", "meta", "_SP", ""})
_BECOME_VERBS = frozenset({"become", "get", "turn", "grow", "go", "make", "keep", "remain", "stay"})
_TIME_UNITS = frozenset({"year", "month", "week", "day", "hour", "minute", "second", "century", "decade"})
_HEARER_VERBS = frozenset({"tell", "ask", "show", "teach", "inform", "answer", "promise", "remind", "warn", "pay"})
_CAUSAL_ADVERBS = frozenset({"thus", "therefore", "hence", "consequently", "accordingly"})
_FALLBACK_TOP = "e"


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
    info: ClauseInfo = field(default_factory=lambda: ClauseInfo(""))
    has_obj: bool = False
    neg_toks: list[Any] = field(default_factory=list)
    modal_toks: list[Any] = field(default_factory=list)
    conjs: list[Any] = field(default_factory=list)
    cc: Any = None
    causes: list[str] = field(default_factory=list)  # reason clauses, for cause-01
    cause_toks: list[int] = field(default_factory=list)
    dobj_var: str | None = None  # the controller of an object-controlled xcomp
    temporal: str | None = None  # "six years": the number of a temporal-quantity


class GraphBuilder(Modifiers):
    """Turns one spaCy ``Doc`` into a graph and an alignment; one instance per doc.

    The clauses are built here (:meth:`_build` and its phases); single words' concepts and roles come
    from :class:`core.foils.parse.words.Words`, the attachment of modifiers from
    :class:`core.foils.parse.modifiers.Modifiers`.
    """

    def __init__(self, doc: Any, frames: FrameIndex | None = None) -> None:
        self.doc = doc
        self.frames = frames
        self.g = Built()
        self.pronoun_vars: dict[str, str] = {}
        self.ent_root: dict[int, Any] = {}  # root token index -> entity span
        self.in_ent: set[int] = set()
        self.info: dict[int, ClauseInfo] = {}
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
            if k.dep_ in _SKIP_DEPS or k.dep_ in SUBJ_DEPS or k in c.neg_toks or k.i in self.done:
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
        c.is_frame = is_frame(self.g.concepts[c.var])
        passive = passive_hint or any(k.dep_ in ("auxpass", "nsubjpass", "csubjpass") for k in c.kids)
        c.info = ClauseInfo(var=c.var, passive=passive)
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
        subjects = [k for k in c.kids if k.dep_ in SUBJ_DEPS]
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
        elif (so := _result_so(c.pred, k)) is not None:  # the reason of "A, so B": (c / cause-01 :ARG0 A :ARG1 B)
            self.done.add(so.i)
            kv = self._build(k)
            if kv is not None:
                c.causes.append(kv)
                c.cause_toks.append(so.i)
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


def _result_so(pred: Any, clause: Any) -> Any:
    """The result "so" (:func:`~core.foils.parse.modifiers.result_so`) between ``clause``, read by spaCy as a
    complement before ``pred``, and ``pred``: ``clause`` is then the reason of ``pred``'s clause ("We missed the
    ferry, so we had lunch"), or None."""
    if clause.i > pred.i:
        return None
    return next((k for k in pred.children if clause.right_edge.i < k.i < pred.i and result_so(k)), None)


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
