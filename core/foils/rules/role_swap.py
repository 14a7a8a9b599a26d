"""RS, role swap: two core arguments that can trade places trade them (agent and patient, recipient and
theme, the two sides of a comparison, the clauses of cause, condition, time and concession); the released code's
two-leaf swap is an opt-in variant (docs/foil-rules.md).

>>> from core.foils.amr.graph import decode
>>> from core.types import ParsedSentence
>>> p = ParsedSentence("The cat chased the mouse.", decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"))
>>> [e.description for e in rs_edits(p)]
['swap ARG0 cat ↔ ARG1 mouse of chase-01']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import penman

from core.foils.amr.graph import (
    Triple,
    rebuild,
    swap_edge_targets,
)
from core.foils.rules.animacy import animal, animate, group
from core.foils.rules.index import (
    CONNECTIVES,
    OP_ROLE,
    GraphIndex,
    build_edit,
    dependents,
    head_token,
    index_for,
    quoted,
    split_concept,
)
from core.foils.rules.swap_guards import (
    clause_swap_blocked,
    unswappable_argument,
    unswappable_event,
)
from core.foils.rules.variants import DEFAULT_VARIANTS, VARIANTS, _check_variants
from core.types import Edit, ParsedSentence

if TYPE_CHECKING:
    from core.foils.rules.senses import SentenceContext


def _signature(idx: GraphIndex, var: str) -> tuple[Any, ...] | None:
    """Leaves with equal signatures are interchangeable (swapping them changes nothing)."""
    if not idx.is_leaf(var):
        return None
    return (idx.concepts[var], tuple(sorted(idx.attrs.get(var, ()))))


def _swap(
    parsed: ParsedSentence, idx: GraphIndex, first: Triple, second: Triple
) -> penman.Graph | Callable[[], penman.Graph] | None:
    """The graph (or its builder) with the targets of edges ``first`` and ``second`` exchanged, or None when invalid."""
    (s1, r1, t1), (s2, r2, t2) = first, second
    local = None
    if (s1, r1, t2) in idx.triples or (s2, r2, t1) in idx.triples:
        local = f"swap would duplicate an edge of {s1!r} or {s2!r}"
    return build_edit("RS", parsed, idx, partial(swap_edge_targets, idx.graph, first, second), local)


_PLACES = frozenset({"country", "city", "location", "state", "province", "county", "continent", "facility"})


def _entity_kind(concept: str) -> str:
    """Entity types that can stand in for each other in a role swap (places are one kind)."""
    return "place" if concept in _PLACES else concept


def _nested(idx: GraphIndex, a: str, b: str) -> bool:
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


_COMPARED = (":prep-than", ":compared-to")


def _predicate(parsed: ParsedSentence, idx: GraphIndex, var: str) -> bool:
    tok = head_token(parsed, var)
    if tok is not None:
        return tok.pos in ("VERB", "AUX") or (tok.pos == "ADJ" and tok.dep in ("acomp", "ccomp", "advcl"))
    return bool(split_concept(idx.concepts.get(var, ""))[1])


def _kind(parsed: ParsedSentence, idx: GraphIndex, var: str, senses: SentenceContext | None) -> str:
    """The semantic class an argument swap compares: "animate", a noun's WordNet lexicographer class
    (``noun.food``, ``noun.artifact``), or "" when unknown (a pronoun like "it", a clause)."""
    if animate(parsed, idx, var, senses):
        return "animate"
    tok = head_token(parsed, var)
    if tok is not None and tok.pos not in ("NOUN", "PROPN"):
        return ""
    from core.foils.rules.wordnet_facts import lexname

    return lexname(split_concept(idx.concepts.get(var, ""))[0], "n")


_PREDICATIVE_DEPS = frozenset({"oprd", "attr", "acomp", "xcomp"})


_THING_SUBJECT_FRAMES = frozenset({5, 10, 11})  # "Something ----s something (Adjective/Noun)", "... somebody"


def _things_that_cannot_act(
    parsed: ParsedSentence, idx: GraphIndex, event: str, agent: str, senses: SentenceContext | None
) -> bool:
    """The agent is a thing (and so, by :func:`_can_trade`, is the patient) but no WordNet frame of the verb's main
    senses has a thing act on something: the thing stands for the people behind it ("the museum received a
    painting"), and the swap makes the other thing act ("A rare painting received the museum")."""
    from core.foils.rules.wordnet_facts import main_sense_frames

    if _predicate(parsed, idx, agent) or _kind(parsed, idx, agent, senses) in ("animate", ""):
        return False
    frames = main_sense_frames(split_concept(idx.concepts.get(event, ""))[0])
    return bool(frames) and not frames & _THING_SUBJECT_FRAMES


def _authority_over(parsed: ParsedSentence, idx: GraphIndex, a: str, b: str, senses: SentenceContext | None) -> bool:
    """``a`` is a group or institution and ``b`` is not: it acts on or gives to a person with an authority no person
    has ("Police arrested two men" -> "Two men arrested police"; "The firm gave its workers a bonus")."""
    return group(parsed, idx, a, senses) and not group(parsed, idx, b, senses)


def _one_way(parsed: ParsedSentence, idx: GraphIndex, a: str, b: str, senses: SentenceContext | None) -> bool:
    """What ``a`` does to ``b``, ``b`` cannot do to ``a``: an institution's authority over a person
    (:func:`_authority_over`) or a person's care of an animal (:func:`_animal_over_person`)."""
    return _authority_over(parsed, idx, a, b, senses) or _animal_over_person(parsed, idx, a, b, senses)


def _animal_over_person(parsed: ParsedSentence, idx: GraphIndex, a: str, b: str, senses: SentenceContext | None) -> bool:
    """``a`` is a person and ``b`` an animal: the swap would make the animal act on the person, and what people do to
    animals (feed, walk, examine, own them) animals do not do to people ("Could the cat feed you tonight?", "the
    puppy examined the vet": 1 of 12 such judged swaps usable). The other way stays: "The cat scratched the delivery
    man" -> "The delivery man scratched the cat" (5 of 7 usable)."""
    return animal(parsed, idx, b, senses) and animate(parsed, idx, a, senses) and not animal(parsed, idx, a, senses)


def _predicative(parsed: ParsedSentence, var: str) -> bool:
    """``var`` is a predicate nominal, not a participant ("was considered the proudest woman", "elected him
    mayor"): swapping it with its subject says the same thing or nothing."""
    tok = head_token(parsed, var)
    return tok is not None and tok.dep in _PREDICATIVE_DEPS


def _nominal(parsed: ParsedSentence, var: str) -> bool:
    tok = head_token(parsed, var)
    return tok is not None and tok.pos in ("NOUN", "PROPN")


def _can_trade(parsed: ParsedSentence, idx: GraphIndex, a: str, b: str, senses: SentenceContext | None) -> bool:
    """Two arguments can trade places: both clauses (the two sides of ``cause-01``), both persons, animals or
    groups ("the nurse examined the patient"), or two things of one kind (:func:`close_kinds`: "the truck hit the
    car", "she prefers tea to coffee"). "The soup brought the waiter" is no role swap a reader accepts: an object
    cannot act (docs/quality-protocol.md, RS); nor do two unlike things trade places ("A sack of flour ground the
    windmill", "The floor flooded the machine": none of 11 such judged swaps was usable)."""
    if _predicate(parsed, idx, a) and _predicate(parsed, idx, b):
        return True
    kind = _kind(parsed, idx, a, senses)
    if not kind or kind != _kind(parsed, idx, b, senses):
        return False
    from core.foils.rules.wordnet_facts import close_kinds

    words = [split_concept(idx.concepts.get(v, ""))[0] for v in (a, b)]
    return kind == "animate" or close_kinds(*words)


_CLAUSE_ROLES = (":concession",)  # "although A, B" <-> "although B, A": any tenses
_TENSED_CLAUSE_ROLES = (":time", ":condition")  # "when A, B" <-> "when B, A": only when the tenses can follow
_TEMPORAL_CONNECTIVES = frozenset(
    {"after", "before"}
)  # (a / after :op1 clause) under :time ("until" needs a lasting main clause)


def _tense(parsed: ParsedSentence, var: str) -> str | None:
    """ "past" / "present" (with " perfect" for "had gone", "has gone") for a clause whose verb group has no modal
    or future ("will"), else None."""
    tok = head_token(parsed, var)
    if tok is None:
        return None
    group = [tok, *dependents(parsed, tok, "aux", "auxpass")]
    if any(t.tag == "MD" for t in group):
        return None
    finite = next((t for t in group if t.tag in ("VBD", "VBZ", "VBP")), None)
    if finite is None:
        return None
    perfect = any(t.lemma == "have" and t.dep == "aux" for t in group)
    return ("past" if finite.tag == "VBD" else "present") + (" perfect" if perfect else "")


_SWAP_SUBORDINATORS = {
    ":time": frozenset({"when", "whenever", "after", "before", "once"}),
    ":condition": frozenset({"if"}),
}
"""The words that introduce a time or condition clause that can trade places with its main clause; not "while" or
"as", which mostly contrast two facts (swapping them changes nothing) or mean "in the way that"."""


def _subordinator_fits(parsed: ParsedSentence, sub: str, role: str) -> bool:
    tok = head_token(parsed, sub)
    if tok is None:
        return False
    marks = {t.text.lower() for t in dependents(parsed, tok, "mark", "advmod")}
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
    parsed: ParsedSentence, idx: GraphIndex, main: str, sub: str, role: str, link: str | None = None
) -> Edit | None:
    """RS ``clauses``: the main clause and its concessive, conditional or time clause trade places ("Although he
    was tired, he finished the report" -> "Although he finished the report, he was tired"); ``link`` is the
    ``after``/``before`` node between them, when there is one."""
    if _nested(idx, sub, main) and main in idx.subtree(sub):
        return None
    heads = [t for t in (head_token(parsed, main), head_token(parsed, sub)) if t is not None]
    if len(heads) == 2 and clause_swap_blocked(parsed, *sorted(heads, key=lambda t: t.i)):
        return None  # "When the kids get home, they want a snack" -> "When they want a snack, the kids get home"
    if link is None:
        make = partial(_reroot, idx.graph, main, sub, role)
    else:
        make = partial(_reroot_through, idx.graph, main, link, sub, role)
    edited = build_edit("RS", parsed, idx, make)
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


def _pair_edit(parsed: ParsedSentence, idx: GraphIndex, event: str, a: str, b: str, ra: str, rb: str, variant: str):
    """The RS edit swapping ``event``'s ``ra`` argument ``a`` with its ``rb`` argument ``b`` (None when invalid)."""
    if a == b or (_signature(idx, a) is not None and _signature(idx, a) == _signature(idx, b)):
        return None
    ta, tb = head_token(parsed, a), head_token(parsed, b)
    if any(tok is not None and quoted(parsed, tok.i) for tok in (ta, tb)):
        return None  # a title's or quotation's words stay where they are
    if _predicate(parsed, idx, a) and _predicate(parsed, idx, b):
        if ta is not None and tb is not None and clause_swap_blocked(parsed, *sorted((ta, tb), key=lambda t: t.i)):
            return None  # "said it began in 1987 since ticket sales were higher"
    elif any(unswappable_argument(parsed, v, event) for v in (a, b)) or unswappable_event(parsed, event, recipient=variant == "recipient"):
        return None
    if variant == "recipient" and ra == ":ARG0" and _given_belongs(parsed, idx, event):
        return None  # "Our neighbour lent us her ladder" -> "We lent our neighbour her ladder": her own ladder
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


def _given_belongs(parsed: ParsedSentence, idx: GraphIndex, event: str) -> bool:
    """The thing given (``event``'s ARG1) has a possessive pronoun, which names one of the two who trade places."""
    given = [head_token(parsed, t) for r, t in idx.out.get(event, ()) if r == ":ARG1"]
    return any(tok is not None and any(t.tag == "PRP$" for t in dependents(parsed, tok, "poss")) for tok in given)


def rs_edits(
    parsed: ParsedSentence, variants: Sequence[str] = DEFAULT_VARIANTS["RS"], sense_choice: str = "vectors"
) -> list[Edit]:
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

    ``sense_choice`` (``vectors`` | ``prior``) reads a noun's sense in the sentence when its animacy is asked.
    """
    from core.foils.rules.senses import context_for

    _check_variants("RS", variants, VARIANTS["RS"])
    idx = index_for(parsed)
    senses = context_for(parsed, sense_choice)
    edits: list[Edit] = []
    swapped: set[frozenset[Triple]] = set()  # edge pairs already swapped (argument swaps win over two-leaf)
    for event in idx.order:
        outs = idx.out.get(event, ())
        args = {role: [t for r, t in outs if r == role] for role in (":ARG0", ":ARG1", ":ARG2", *_COMPARED)}
        pairs = _argument_swaps(parsed, idx, event, args, variants, senses)
        edits += pairs
        if "clauses" in variants and _predicate(parsed, idx, event):
            edits += _clause_swaps(parsed, idx, event)
        if "comparison" in variants:
            compared = _comparison_swaps(parsed, idx, event, args)
            edits += compared
            pairs += compared
        swapped |= {_swapped_edges(edit) for edit in pairs}
    if "two-leaf" in variants:
        edits += _two_leaf_swaps(parsed, idx, swapped)
    return edits


def _swapped_edges(edit: Edit) -> frozenset[Triple]:
    e, a, b = edit.nodes
    ra, rb = edit.details["roles"]
    return frozenset(((e, ra, a), (e, rb, b)))


SYMMETRIC_PREDICATES = frozenset({"marry", "wed", "meet", "resemble", "equal", "match", "date", "divorce", "collide"})
"""Predicates whose two arguments already play the same part: "Wornell married Mildred" says "Mildred married
Wornell". A relation of having ("they have two sons" -> "two sons have them") is no swap either."""


OFFICE_ACTS = frozenset({"sentence", "fine", "convict", "acquit"})
"""Acts only an office can do, whoever its holder is: swapped, an ordinary person sentences or fines a judge ("The
former treasurer sentenced a judge", "The owner of a café fined a magistrate": 2 of 7 judged usable, none of the
last 5). Their arguments do not trade places."""


def _swappable_event(idx: GraphIndex, event: str) -> bool:
    lemma = split_concept(idx.concepts.get(event, ""))[0]
    return lemma not in SYMMETRIC_PREDICATES and lemma not in OFFICE_ACTS and lemma != "have"


def _argument_swaps(
    parsed: ParsedSentence,
    idx: GraphIndex,
    event: str,
    args: dict[str, list[str]],
    variants: Sequence[str],
    senses: SentenceContext | None,
) -> list[Edit]:
    """``agent-patient`` (and the opt-in ``agent-patient-any``) and ``recipient`` swaps of one event's arguments."""
    found: list[Edit | None] = []
    if not _swappable_event(idx, event):
        return []
    if "agent-patient" in variants or "agent-patient-any" in variants:
        for a in args[":ARG0"]:
            for b in args[":ARG1"]:
                if (
                    _can_trade(parsed, idx, a, b, senses)
                    and not _things_that_cannot_act(parsed, idx, event, a, senses)
                    and not _one_way(parsed, idx, a, b, senses)
                ):
                    found.append(_pair_edit(parsed, idx, event, a, b, ":ARG0", ":ARG1", "agent-patient"))
                elif "agent-patient-any" in variants:  # the paper's swap whatever the arguments
                    found.append(_pair_edit(parsed, idx, event, a, b, ":ARG0", ":ARG1", "agent-patient-any"))
    if "recipient" in variants and args[":ARG2"]:
        for ra in (":ARG0", ":ARG1"):
            for a in args[ra]:
                for b in args[":ARG2"]:
                    if _can_trade(parsed, idx, a, b, senses) and not (
                        _predicate(parsed, idx, a) or _predicate(parsed, idx, b) or _predicative(parsed, b)
                    ) and not _one_way(parsed, idx, a, b, senses):
                        found.append(_pair_edit(parsed, idx, event, a, b, ra, ":ARG2", "recipient"))
    if "recipient" in variants:
        outs = idx.out.get(event, ())
        for a in [t for r, t in outs if r == ":source"]:
            for b in [t for r, t in outs if r == ":destination"]:
                if _nominal(parsed, a) and _nominal(parsed, b):  # "from Paris to London" -> "from London to Paris"
                    found.append(_pair_edit(parsed, idx, event, a, b, ":source", ":destination", "recipient"))
    return [edit for edit in found if edit is not None]


def _clause_swaps(parsed: ParsedSentence, idx: GraphIndex, event: str) -> list[Edit]:
    """``clauses`` swaps of an event with its concessive clause, or its condition or time clause in one tense."""
    edits = []
    for r, t in idx.out.get(event, ()):
        link = None
        if r == ":time" and idx.concepts.get(t) in _TEMPORAL_CONNECTIVES:
            ops = [x for rr, x in idx.out.get(t, ()) if rr == ":op1"]
            link, t = (t, ops[0]) if len(ops) == 1 and len(idx.out.get(t, ())) == 1 else (None, t)
        if not _predicate(parsed, idx, t):
            continue
        tensed = r in _TENSED_CLAUSE_ROLES and _subordinator_fits(parsed, t, r) and _same_tense(parsed, event, t)
        if r in _CLAUSE_ROLES or tensed:
            edit = _clause_swap(parsed, idx, event, t, r, link)
            if edit is not None:
                edits.append(edit)
    return edits


def _comparison_swaps(parsed: ParsedSentence, idx: GraphIndex, event: str, args: dict[str, list[str]]) -> list[Edit]:
    """``comparison`` swaps: the compared thing with what it is compared to ("Tom is taller than his brother")."""
    found = []
    for rb in _COMPARED:
        for a in args[":ARG1"] or args[":ARG0"]:
            ra = ":ARG1" if args[":ARG1"] else ":ARG0"
            for b in args[rb]:
                found.append(_pair_edit(parsed, idx, event, a, b, ra, rb, "comparison"))
    return [edit for edit in found if edit is not None]


def _two_leaf_swaps(parsed: ParsedSentence, idx: GraphIndex, swapped: set[frozenset[Triple]]) -> list[Edit]:
    """The opt-in ``two-leaf`` swaps (the released code's behaviour): the edges of two leaves anywhere, except
    pairs an argument swap already made."""
    # A name leaf stands for its whole named entity: the entity node (with its type) moves, so
    # "born in Paris (city)" and "lives in France (country)" swap as city and country.
    edits = []
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
            if any(idx.concepts.get(p) in CONNECTIVES and OP_ROLE.match(r) for p, r in ((pa, ra), (pb, rb))):
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
