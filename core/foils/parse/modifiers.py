"""The dependency parser's modifiers: how a clause takes its determiners, prepositional phrases,
adverbial and relative clauses, adjectives, adverbs and conjuncts.

Part of :class:`core.foils.parse.build.GraphBuilder`: :class:`Modifiers` reads the builder's state and
calls back into its recursive ``_build`` for the dependents it attaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.foils.parse.lex import (
    ADVCL_MARK_ROLES,
    CAUSE_MARKS,
    DEGREE_WORDS,
    DET_MOD,
    DET_QUANT,
    FREQUENCY_ADVERBS,
    LOCATION_ADVERBS,
    ORDINALS,
    PRONOUNS,
    RELATIVE_WORDS,
    TIME_ADVERBS,
    TIME_NOUNS,
    TIME_PREPS,
    WH_WORDS,
    adverb_to_adjective,
)
from core.foils.parse.words import SUBJ_DEPS, ClauseInfo, Words, is_frame

_WH_ROLES = {"how": ":manner", "why": ":cause", "where": ":location", "when": ":time"}
_NEG_WORDS = frozenset({"not", "n't", "never", "no", "nt"})


def result_so(tok: Any) -> bool:
    """``tok`` is the "so" of a result after a comma ("We missed the ferry, so we had lunch"), as spaCy attaches it
    to the second clause (an adverb or a marker); "so that" is a purpose."""
    doc = tok.doc
    if tok.lower_ != "so" or tok.dep_ not in ("advmod", "mark") or tok.i == 0 or doc[tok.i - 1].text not in ",;":
        return False
    return tok.i + 1 >= len(doc) or doc[tok.i + 1].lower_ != "that"


def _result_so_conjunct(conjs: list[Any], cc: Any) -> Any:
    """The result "so" (:func:`result_so`) that opens the only conjunct, with no "and" before it ("The regulators
    fined the club, so the owners sold the stadium"), or None. spaCy reads the same words either as two conjuncts or
    as a complement clause and its head (``build._result_so``): both become one ``cause-01``."""
    if cc is not None or len(conjs) != 1 or conjs[0].pos_ not in ("VERB", "AUX"):
        return None
    so = conjs[0].left_edge
    return so if so.head.i == conjs[0].i and result_so(so) else None


class Modifiers(Words):
    """Attaching a head's dependents (the builder's ``_build`` builds each one)."""

    _build: Callable[..., str | None]  # GraphBuilder._build(tok, implicit_subj=, passive_hint=, no_conj=, antecedent=)

    def _conj_chain(self, kids: list[Any]) -> list[Any]:
        out: list[Any] = []
        stack = [k for k in kids if k.dep_ == "conj"]
        while stack:
            c = stack.pop(0)
            out.append(c)
            stack.extend(k for k in c.children if k.dep_ == "conj")
        return out

    def _coordinate(self, first: str, conjs: list[Any], cc: Any, info: ClauseInfo, pred: Any) -> str:
        g = self.g
        so = _result_so_conjunct(conjs, cc)
        if so is not None:  # "A, so B" read as two conjuncts: the same (c / cause-01 :ARG0 A :ARG1 B) as build's
            self.done.add(so.i)
            own_subj = any(k.dep_ in ("nsubj", "nsubjpass", "expl") for k in conjs[0].children)
            result = self._build(conjs[0], implicit_subj=None if own_subj else info.subj, no_conj=True)
            if result is not None:
                cvar = g.node("cause-01", (so.i,))
                g.add(cvar, ":ARG0", first)
                g.add(cvar, ":ARG1", result)
                return cvar
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
        info: ClauseInfo,
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

    def _advcl(self, var: str, k: Any, info: ClauseInfo, causes: list[str], cause_toks: list[int]) -> None:
        g = self.g
        mark = next((c for c in k.children if c.dep_ == "mark"), None)
        if mark is None:
            wh = next((c for c in k.children if c.dep_ == "advmod" and c.tag_ == "WRB" and c.i < k.i), None)
            if wh is not None:
                mark = wh
                self.done.add(wh.i)
        word = mark.lower_ if mark is not None else ""
        own_subj = any(c.dep_ in SUBJ_DEPS or c.dep_ == "expl" for c in k.children)
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
            has_subj = any(c.dep_ in SUBJ_DEPS for c in k.children)
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
        elif is_frame(concept):
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
