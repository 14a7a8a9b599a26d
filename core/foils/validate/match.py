"""Comparing two AMR graphs whose variables differ: a concept-based node alignment and triple F1.

A re-parse names its variables afresh, so graphs are compared through a node mapping found
greedily: nodes with the same concept pair up first (ties broken by how many labelled neighbours
agree), then the remaining nodes pair up by structure (same role to an already paired node). Triple
F1 under that mapping is Smatch's measure with a deterministic greedy search instead of Smatch's
randomised hill climbing; :func:`smatch_f1` gives the reference number when wanted.

>>> import penman
>>> a = penman.decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))")
>>> b = penman.decode("(x / chase-01 :ARG0 (y / cat) :ARG1 (z / mouse) :polarity -)")
>>> m = align(a, b)
>>> m
{'c': 'x', 'c2': 'y', 'm': 'z'}
>>> match_counts(a, b, m)
(5, 5, 6)
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping

import penman

Triple = tuple[str, str, str]
INSTANCE = ":instance"


def value(v: object) -> str:
    """An attribute value as text, without quotes."""
    return str(v).strip('"')


def node_concepts(graph: penman.Graph) -> dict[str, str]:
    """Variable → concept, in the graph's order."""
    return {v: str(c) for v, _, c in graph.instances()}


def triples(graph: penman.Graph) -> set[Triple]:
    """Instance, relation and attribute triples (attribute values without quotes)."""
    out: set[Triple] = {(v, INSTANCE, str(c)) for v, _, c in graph.instances()}
    out.update((s, r, t) for s, r, t in graph.edges())
    out.update((s, r, value(t)) for s, r, t in graph.attributes())
    return out


def _signatures(graph: penman.Graph, concepts: Mapping[str, str]) -> tuple[dict[str, Counter], dict[str, Counter]]:
    """Per node: its own dependents and attributes (``out``), and the roles it fills (``inc``)."""
    out: dict[str, Counter] = defaultdict(Counter)
    inc: dict[str, Counter] = defaultdict(Counter)
    for s, r, t in graph.edges():
        out[s][(r, concepts.get(t))] += 1
        inc[t][(r, concepts.get(s))] += 1
    for s, r, t in graph.attributes():
        out[s][(r, value(t))] += 1
    return out, inc


def align(expected: penman.Graph, found: penman.Graph) -> dict[str, str]:
    """Map the variables of ``expected`` to those of ``found`` (one-to-one, deterministic).

    A node is identified by its concept and its own dependents first, the role it fills second:
    edits such as role swaps change the roles, so they must not decide which node is which.
    """
    ce, cf = node_concepts(expected), node_concepts(found)
    (oe, ie), (of, if_) = _signatures(expected, ce), _signatures(found, cf)
    order_e = {v: n for n, v in enumerate(ce)}
    order_f = {v: n for n, v in enumerate(cf)}
    pairs = []
    for u, cu in ce.items():
        for w, cw in cf.items():
            if cu == cw:
                overlap = 2 * sum((oe[u] & of[w]).values()) + sum((ie[u] & if_[w]).values())
                pairs.append((-(1 + overlap), order_e[u], order_f[w], u, w))
    mapping: dict[str, str] = {}
    used: set[str] = set()
    for _, _, _, u, w in sorted(pairs):
        if u not in mapping and w not in used:
            mapping[u] = w
            used.add(w)
    # structural pass: an unpaired node follows its role from an already paired neighbour
    edges_e = list(expected.edges())
    edges_f = set(found.edges())
    for _ in range(3):
        scores: Counter = Counter()
        for s, r, t in edges_e:
            if s in mapping and t not in mapping:
                for fs, fr, ft in edges_f:
                    if fs == mapping[s] and fr == r and ft not in used:
                        scores[(t, ft)] += 1
            elif t in mapping and s not in mapping:
                for fs, fr, ft in edges_f:
                    if ft == mapping[t] and fr == r and fs not in used:
                        scores[(s, fs)] += 1
        if not scores:
            break
        for (u, w), _ in sorted(scores.items(), key=lambda kv: (-kv[1], order_e[kv[0][0]], order_f[kv[0][1]])):
            if u not in mapping and w not in used:
                mapping[u] = w
                used.add(w)
    return {u: mapping[u] for u in ce if u in mapping}


def translate(triple: Triple, mapping: Mapping[str, str], variables: set[str]) -> Triple | None:
    """``triple`` with its variables renamed by ``mapping`` (None if a variable is unmapped)."""
    s, r, t = triple
    if s not in mapping:
        return None
    if r != INSTANCE and t in variables:
        if t not in mapping:
            return None
        return mapping[s], r, mapping[t]
    return mapping[s], r, t


def match_counts(expected: penman.Graph, found: penman.Graph, mapping: Mapping[str, str]) -> tuple[int, int, int]:
    """(matched, triples in expected, triples in found) under ``mapping``."""
    te, tf = triples(expected), triples(found)
    variables = set(node_concepts(expected))
    matched = sum(1 for t in te if translate(t, mapping, variables) in tf)
    return matched, len(te), len(tf)


def f1(matched: int, n_expected: int, n_found: int) -> float:
    """Harmonic mean of precision (over found) and recall (over expected)."""
    if not matched or not n_expected or not n_found:
        return 0.0
    p, r = matched / n_found, matched / n_expected
    return 2 * p * r / (p + r)


def smatch_f1(expected: penman.Graph, found: penman.Graph) -> float:
    """Smatch F1 by the reference ``smatch`` package (its restarts are unseeded; global ``random`` is restored)."""
    import smatch

    state = random.getstate()
    try:
        one = penman.encode(penman.Graph(expected.triples, top=expected.top), indent=None)
        two = penman.encode(penman.Graph(found.triples, top=found.top), indent=None)
        matched, n_test, n_gold = smatch.get_amr_match(two, one)
        smatch.match_triple_dict.clear()
    finally:
        random.setstate(state)
    return smatch.compute_f(matched, n_test, n_gold)[2]
