"""PN, polarity negation: ``:polarity -`` on the main predicate, a clause's predicate, or a subject or
object determiner that becomes "no"; a node already negated is un-negated (docs/foil-rules.md).

>>> from core.foils.amr.graph import decode
>>> from core.types import ParsedSentence
>>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
>>> [e.description for e in pn_edits(p)][:1]
['negate chase-01 (main predicate)']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from core.foils.amr.graph import (
    POLARITY,
    add_attribute,
    remove_attribute,
)
from core.foils.rules.index import (
    GraphIndex,
    build_edit,
    dependents,
    head_token,
    index_for,
    main_of,
    vars_by_head,
)
from core.foils.rules.variants import DEFAULT_VARIANTS, VARIANTS, _check_variants
from core.types import Edit, ParsedSentence, Token

_CLAUSE_DEPS = frozenset({"advcl", "ccomp", "conj", "relcl", "xcomp"})
_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "dative"})  # subject and object noun phrases
_NO_DETS = frozenset({"a", "an", "some", "every", "each"})  # quantifying determiners: "A boy found" -> "No boy found"
_PLURAL_NO_DETS = frozenset({"the", "these", "those"})  # only before a plural: "fed the pigeons" -> "fed no pigeons"
_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
NEGATIVE_CONCEPTS = frozenset({"nobody", "nothing", "none", "no-one", "neither", "nowhere"})


def _negative_argument(idx: GraphIndex, var: str) -> bool:
    """An argument of ``var`` is already negative ("Nobody knew", "No student passed": ``:polarity -`` on the
    noun): negating ``var`` too makes a double negation ("Nobody did not know")."""
    return any(
        role.startswith(":ARG") and (idx.concepts.get(child) in NEGATIVE_CONCEPTS or idx.negated(child))
        for role, child in idx.out.get(var, ())
    )


def _clause_predicates(parsed: ParsedSentence, idx: GraphIndex, main: str | None) -> list[str]:
    """Predicates of subordinate, complement and coordinated clauses ("if it rains", "that she came")."""
    out = []
    for var in idx.order:
        tok = head_token(parsed, var)
        if var == main or tok is None or not idx.eligible(var) or idx.named(var):
            continue
        if tok.pos in ("VERB", "AUX") and tok.dep in _CLAUSE_DEPS and _finite(parsed, tok):
            out.append(var)
    return out


def _finite(parsed: ParsedSentence, tok: Token) -> bool:
    """A finite clause (its verb or an auxiliary of it carries tense): "if it does not rain", not the infinitive or
    gerund of "left not to pursue a career", "hates not waiting"."""
    return tok.tag in _FINITE_TAGS or any(t.tag in _FINITE_TAGS for t in dependents(parsed, tok, "aux", "auxpass"))


def _takes_no(det: Token, noun: Token) -> bool:
    """The determiner can become "no": a quantifying one always, a definite one only before a plural ("the
    pigeons" -> "no pigeons"; "fixed the leaking pipe" -> "fixed no leaking pipe" does not read as English)."""
    word = det.text.lower()
    return word in _NO_DETS or (word in _PLURAL_NO_DETS and noun.tag == "NNS")


def _negatable_arguments(parsed: ParsedSentence, idx: GraphIndex) -> list[str]:
    """Subject and object nouns with a determiner that can become "no" ("A boy found" -> "No boy found"),
    never inside a prepositional or time phrase, never when their predicate is already negated."""
    heads = vars_by_head(parsed, idx)
    out = []
    for var in idx.order:
        tok = head_token(parsed, var)
        if tok is None or tok.pos != "NOUN" or tok.dep not in _ARGUMENT_DEPS or not idx.eligible(var):
            continue
        if idx.negated(var) or idx.named(var):
            continue
        kids = dependents(parsed, tok)
        dets = [t for t in kids if t.dep == "det"]
        if not dets or not _takes_no(dets[0], tok) or any(t.dep in ("poss", "nummod", "predet") for t in kids):
            continue
        verb = parsed.tokens[tok.head] if 0 <= tok.head < len(parsed.tokens) else tok
        if tok.dep in ("dobj", "dative") and (
            verb.tag not in ("VBD", "VBZ", "VBP") or bool(dependents(parsed, verb, "aux", "auxpass"))
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
    idx = index_for(parsed)
    targets: list[tuple[str, str]] = []  # (var, where)
    main = main_of(idx, parsed.graph.top)
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
        elif _negative_argument(idx, var):
            continue
        else:
            action, verb = "negate", "negate"
            variant = {
                "main predicate": "main-predicate",
                "clause predicate": "clause-predicate",
                "subject/object determiner": "determiner",
            }.get(where, "any-node")
            make = partial(add_attribute, idx.graph, var, POLARITY, "-")
        edited = build_edit("PN", parsed, idx, make)
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
