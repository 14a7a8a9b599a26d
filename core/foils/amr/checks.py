"""Checking a graph: :func:`validate_graph` lists what is wrong with it, ``[]`` when nothing is.

>>> from core.foils.amr.codec import decode
>>> validate_graph(decode("(c / chase-01 :ARG0 (c2 / cat))"))
[]
"""

from __future__ import annotations

import re
from collections import Counter

import penman

from core.foils.amr.nodes import INSTANCE, POLARITY

# Attribute roles whose values are bare symbols, never variables (``:mode imperative``, ``:polarity -``).
_SYMBOL_ROLES = frozenset({":mode", ":polarity", ":polite", ":li", ":value"})
# What an undefined variable looks like (``c``, ``c2``, ``z12``, ``xy3``): a heuristic, see validate_graph.
_VARIABLE_LIKE = re.compile(r"^[a-z]{1,2}\d*$")


def validate_graph(graph: penman.Graph) -> list[str]:
    """Problems with ``graph`` as human-readable strings; ``[]`` means valid.

    Checks: a top exists and is a node; every node has exactly one ``:instance``; no node has
    two ``:polarity`` attributes; no duplicate triple; no edge to an undefined variable; every
    node is connected to the top. An "undefined variable" is an edge target that looks like a
    variable (one or two lowercase letters and optional digits: ``c``, ``c2``, ``z12``) under a role
    that does not take symbols (``:mode``, ``:polarity`` ...) but has no triples of its own: a
    heuristic, since PENMAN itself cannot tell a dangling variable from a symbol constant.

    >>> from core.foils.amr.codec import decode
    >>> validate_graph(decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 m)"))
    ["edge (c :ARG1 m) points to an undefined variable 'm'"]
    >>> validate_graph(penman.Graph([("a", ":instance", "x"), ("b", ":instance", "y")], top="a"))
    ["node 'b' is not connected to the top 'a'"]
    """
    problems: list[str] = []
    triples = graph.triples
    if not triples:
        return ["graph is empty"]
    top = graph.top
    instances: dict[str, int] = {}
    polarity: dict[str, int] = {}
    sources = set()
    for s, r, _ in triples:
        sources.add(s)
        if r == INSTANCE:
            instances[s] = instances.get(s, 0) + 1
        elif r == POLARITY:
            polarity[s] = polarity.get(s, 0) + 1
    nodes = sources if top is None else sources | {top}
    if top is None:
        problems.append("graph has no top")
    elif top not in instances:
        problems.append(f"top {top!r} is not a node (it has no :instance)")
    if len(instances) != len(nodes) or any(n > 1 for n in instances.values()):
        for var in sorted(nodes):
            n = instances.get(var, 0)
            if n == 0 and var != top:
                problems.append(f"variable {var!r} has no :instance")
            elif n > 1:
                problems.append(f"variable {var!r} has {n} :instance triples")
    problems.extend(f"node {v!r} has {n} :polarity attributes" for v, n in sorted(polarity.items()) if n > 1)
    if len(set(triples)) != len(triples):
        duplicates = [t for t, n in Counter(triples).items() if n > 1]
        problems.extend(f"duplicate triple ({s} {r} {t})" for s, r, t in duplicates)
    neighbours: dict[str, list[str]] = {}
    for s, r, t in triples:
        if r == INSTANCE:
            continue
        if t in nodes:
            neighbours.setdefault(s, []).append(t)
            neighbours.setdefault(t, []).append(s)
        elif r not in _SYMBOL_ROLES and _VARIABLE_LIKE.match(t):
            problems.append(f"edge ({s} {r} {t}) points to an undefined variable {t!r}")
    if top is not None and top in nodes:
        seen = {top}
        stack = [top]
        while stack:
            for nxt in neighbours.get(stack.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if len(seen) < len(nodes):
            unreached = sorted(nodes - seen)
            listed = ", ".join(repr(v) for v in unreached)
            if len(unreached) == 1:
                problems.append(f"node {listed} is not connected to the top {top!r}")
            else:
                problems.append(f"nodes {listed} are not connected to the top {top!r}")
    return problems
