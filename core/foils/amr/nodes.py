"""Reading a :class:`penman.Graph`: triples, concepts, edges, leaves, reachability.

Triples are penman's: ``(source, role, target)`` with inverted roles normalised (``:ARG0-of`` is
stored as ``(event, ":ARG0", node)``), so "children" and "parents" here follow the semantic
direction of the triples, not the tree layout.

>>> from core.foils.amr.codec import decode
>>> g = decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))")
>>> concept(g, "c2"), children(g, "c"), is_leaf(g, "m")
('cat', [(':ARG0', 'c2'), (':ARG1', 'm')], True)
"""

from __future__ import annotations

from collections import defaultdict

import penman

Triple = tuple[str, str, str]

INSTANCE = ":instance"
POLARITY = ":polarity"
ADJUNCT_ROLES = frozenset({":time", ":location", ":duration", ":frequency", ":source", ":destination", ":path"})
"""Roles of time and place adverbials: English does not negate what fills them ("the meeting no yesterday",
"when he did not arrive" as the time of an event)."""


def variables(graph: penman.Graph) -> set[str]:
    """Node identifiers: sources of triples, plus the top."""
    return graph.variables()


def concept(graph: penman.Graph, var: str) -> str | None:
    """The concept of ``var`` (the target of its ``:instance`` triple), or None."""
    for source, role, target in graph.triples:
        if source == var and role == INSTANCE:
            return target
    return None


def concepts(graph: penman.Graph) -> dict[str, str]:
    """``{var: concept}`` for every node (the first ``:instance`` when a node has several)."""
    found: dict[str, str] = {}
    for source, role, target in graph.triples:
        if role == INSTANCE and source not in found:
            found[source] = target
    return found


def children(graph: penman.Graph, var: str) -> list[tuple[str, str]]:
    """``(role, child)`` for each edge out of ``var`` to another node, in triple order."""
    nodes = graph.variables()
    return [(r, t) for s, r, t in graph.triples if s == var and r != INSTANCE and t in nodes]


def attributes(graph: penman.Graph, var: str) -> list[tuple[str, str]]:
    """``(role, constant)`` for each attribute of ``var`` (``:polarity -``, ``:op1 "Mary"``, ``:quant 2``)."""
    nodes = graph.variables()
    return [(r, t) for s, r, t in graph.triples if s == var and r != INSTANCE and t not in nodes]


def parent_edges(graph: penman.Graph, var: str) -> list[Triple]:
    """The edges ``(parent, role, var)`` that point at ``var``."""
    return [(s, r, t) for s, r, t in graph.triples if t == var and r != INSTANCE and s != var]


def is_leaf(graph: penman.Graph, var: str) -> bool:
    """True when ``var`` is a node with no edge to another node (attributes are allowed).

    >>> from core.foils.amr.codec import decode
    >>> g = decode('(p / person :name (n / name :op1 "Mary"))')
    >>> is_leaf(g, "n"), is_leaf(g, "p")
    (True, False)
    """
    nodes = graph.variables()
    if var not in nodes:
        return False
    return not any(s == var and r != INSTANCE and t in nodes for s, r, t in graph.triples)


def is_negated(graph: penman.Graph, var: str) -> bool:
    """True when ``var`` carries ``:polarity -``."""
    return (var, POLARITY, "-") in graph.triples


def reachable(graph: penman.Graph, start: str | None = None) -> set[str]:
    """Nodes connected to ``start`` (default: the top) through edges in either direction."""
    start = graph.top if start is None else start
    if start is None:
        return set()
    nodes = graph.variables()
    neighbours: dict[str, list[str]] = defaultdict(list)
    for s, r, t in graph.triples:
        if r != INSTANCE and t in nodes:
            neighbours[s].append(t)
            neighbours[t].append(s)
    seen = {start}
    stack = [start]
    while stack:
        for nxt in neighbours[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen
