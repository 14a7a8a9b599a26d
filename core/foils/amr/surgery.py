"""Node surgery: every function here returns a new graph (the input is never mutated), layout kept
where the change keeps the tree shape, else re-laid out (:func:`core.foils.amr.layout.rebuild`).

>>> from core.foils.amr.codec import decode, encode
>>> print(encode(remove_node(decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"), "m")))
(c / chase-01
   :ARG0 (c2 / cat))
"""

from __future__ import annotations

from collections.abc import Iterable

import penman
from penman.layout import POP, LayoutMarker, Push

from core.errors import GraphError
from core.foils.amr.layout import from_parts, rebuild
from core.foils.amr.nodes import INSTANCE, Triple, concept, reachable


def replace_triple(graph: penman.Graph, old: Triple, new: Triple) -> penman.Graph:
    """A copy where triple ``old`` is ``new`` in the same place, with ``old``'s epidata (layout kept).

    Safe for changes that keep the tree shape: a concept (``:instance``) or an attribute value.

    >>> from core.foils.amr.codec import decode, encode
    >>> g = decode("(c / chase-01 :ARG0 (c2 / cat))")
    >>> encode(replace_triple(g, ("c2", ":instance", "cat"), ("c2", ":instance", "feline")), indent=None)
    '(c / chase-01 :ARG0 (c2 / feline))'
    """
    epidata = dict(graph.epidata)
    if old in epidata:
        epidata[new] = epidata.pop(old)
    triples = [new if t == old else t for t in graph.triples]
    return from_parts(triples, graph.top, epidata, dict(graph.metadata))


def add_attribute(graph: penman.Graph, var: str, role: str, value: str) -> penman.Graph:
    """A copy with ``(var, role, value)`` printed right after ``var``'s concept (layout kept).

    >>> from core.foils.amr.codec import decode, encode
    >>> encode(add_attribute(decode("(c / chase-01 :ARG0 (c2 / cat))"), "c2", ":polarity", "-"), indent=None)
    '(c / chase-01 :ARG0 (c2 / cat :polarity -))'
    """
    triples = list(graph.triples)
    at = next((i for i, t in enumerate(triples) if t[0] == var and t[1] == INSTANCE), None)
    if at is None:
        raise GraphError(f"no node {var!r} in the graph", hint=f"nodes are: {', '.join(sorted(graph.variables()))}")
    new = (var, role, value)
    epidata = dict(graph.epidata)
    head = triples[at]
    markers = epidata.get(head, [])
    pops = [e for e in markers if isinstance(e, LayoutMarker)]  # an :instance triple only ever ends contexts
    if pops:
        epidata[head] = [e for e in markers if not isinstance(e, LayoutMarker)]
    epidata[new] = pops
    triples.insert(at + 1, new)
    return from_parts(triples, graph.top, epidata, dict(graph.metadata))


def remove_attribute(graph: penman.Graph, triple: Triple) -> penman.Graph:
    """A copy without the attribute ``triple`` (layout kept: its ``Pop`` markers move to the triple before).

    >>> from core.foils.amr.codec import decode, encode
    >>> encode(remove_attribute(decode("(c / chase-01 :polarity - :ARG0 (c2 / cat))"), ("c", ":polarity", "-")), indent=None)
    '(c / chase-01 :ARG0 (c2 / cat))'
    """
    triples = list(graph.triples)
    if triple not in triples or triple[1] == INSTANCE:
        raise GraphError(f"no attribute {triple!r} in the graph", hint="pass an existing (var, role, constant) triple")
    at = triples.index(triple)
    epidata = dict(graph.epidata)
    markers = epidata.pop(triple, [])
    del triples[at]
    pops = [e for e in markers if isinstance(e, LayoutMarker)]
    if pops and at > 0:
        prev = triples[at - 1]
        epidata[prev] = [*epidata.get(prev, []), *pops]
    return from_parts(triples, graph.top, epidata, dict(graph.metadata))


def _layout_markers(epis: Iterable) -> tuple[list, int, int]:
    """(non-layout epidata, number of Push markers, number of Pop markers) of one triple."""
    kept, pushes, pops = [], 0, 0
    for e in epis:
        if isinstance(e, Push):
            pushes += 1
        elif isinstance(e, LayoutMarker):
            pops += 1
        else:
            kept.append(e)
    return kept, pushes, pops


def _block(graph: penman.Graph, start: int) -> tuple[int, int] | None:
    """For the edge at ``start`` that pushes its target: (index of the subtree's last triple, Pops
    on that triple that close contexts *outside* the subtree). None when the edge pushes nothing."""
    triples, epidata = graph.triples, graph.epidata
    target = triples[start][2]
    if not any(isinstance(e, Push) and e.variable == target for e in epidata.get(triples[start], ())):
        return None
    depth = 1
    for j in range(start + 1, len(triples)):
        _, pushes, pops = _layout_markers(epidata.get(triples[j], ()))
        depth += pushes
        if depth - pops <= 0:
            return j, pops - depth
        depth -= pops
    return None


def _with_pops(epis: Iterable, pops: int) -> list:
    kept, _, _ = _layout_markers(epis)
    return kept + [POP] * pops


def swap_edge_targets(graph: penman.Graph, first: Triple, second: Triple) -> penman.Graph:
    """A copy where edge ``first`` points at ``second``'s target and vice versa (subtrees move along).

    When both edges carry their target's subtree in the layout (the usual case) the two printed
    subtrees trade places and nothing else moves; otherwise the graph is re-laid out.

    >>> from core.foils.amr.codec import decode, encode
    >>> g = decode("(c / chase-01 :ARG0 (c2 / cat :mod (b / black)) :time (y / yesterday) :ARG1 (m / mouse))")
    >>> encode(swap_edge_targets(g, ("c", ":ARG0", "c2"), ("c", ":ARG1", "m")), indent=None)
    '(c / chase-01 :ARG0 (m / mouse) :time (y / yesterday) :ARG1 (c2 / cat :mod (b / black)))'
    """
    triples = graph.triples
    try:
        i, j = triples.index(first), triples.index(second)
    except ValueError:
        raise GraphError(f"no edge {first!r} or {second!r} in the graph", hint="pass existing edges") from None
    if i > j:
        (i, first), (j, second) = (j, second), (i, first)
    (s1, r1, t1), (s2, r2, t2) = first, second
    new1, new2 = (s1, r1, t2), (s2, r2, t1)
    bi, bj = _block(graph, i), _block(graph, j)
    present = set(triples)
    if bi is None or bj is None or bi[0] >= j or new1 in present or new2 in present or i == j:
        swapped = [new1 if k == i else new2 if k == j else t for k, t in enumerate(triples)]
        return rebuild(graph, swapped)
    (end_i, extra_i), (end_j, extra_j) = bi, bj
    sub1, sub2 = triples[i + 1 : end_i + 1], triples[j + 1 : end_j + 1]
    defined = {e.variable for t in triples[i + 1 : j] for e in graph.epidata.get(t, ()) if isinstance(e, Push)}
    if any(s in defined or t in defined for s, _, t in sub2):  # moved first, it would refer forward
        swapped = [new1 if k == i else new2 if k == j else t for k, t in enumerate(triples)]
        return rebuild(graph, swapped)
    epidata = dict(graph.epidata)
    for t in (first, second):
        epidata.pop(t, None)
    epidata[new1] = [*_layout_markers(graph.epidata.get(first, ()))[0], Push(t2)]
    epidata[new2] = [*_layout_markers(graph.epidata.get(second, ()))[0], Push(t1)]
    own1 = _layout_markers(graph.epidata.get(sub1[-1], ()))[2] - extra_i
    own2 = _layout_markers(graph.epidata.get(sub2[-1], ()))[2] - extra_j
    epidata[sub2[-1]] = _with_pops(graph.epidata.get(sub2[-1], ()), own2 + extra_i)
    epidata[sub1[-1]] = _with_pops(graph.epidata.get(sub1[-1], ()), own1 + extra_j)
    out = [*triples[:i], new1, *sub2, *triples[end_i + 1 : j], new2, *sub1, *triples[end_j + 1 :]]
    return from_parts(out, graph.top, epidata, dict(graph.metadata))


def remove_leaf(graph: penman.Graph, var: str) -> penman.Graph:
    """A copy without the leaf ``var`` and its one incoming edge, layout kept (else see remove_node).

    >>> from core.foils.amr.codec import decode, encode
    >>> g = decode("(d / deliver-01 :ARG0 (p / postman :mod (o / old)) :ARG1 (l / letter))")
    >>> encode(remove_leaf(g, "o"), indent=None)
    '(d / deliver-01 :ARG0 (p / postman) :ARG1 (l / letter))'
    """
    triples = graph.triples
    incoming = [k for k, (s, r, t) in enumerate(triples) if t == var and r != INSTANCE and s != var]
    block = _block(graph, incoming[0]) if len(incoming) == 1 else None
    if block is None or not all(t[0] == var for t in triples[incoming[0] + 1 : block[0] + 1]):
        return remove_node(graph, var)
    start, (end, extra) = incoming[0], block
    epidata = dict(graph.epidata)
    for t in triples[start : end + 1]:
        epidata.pop(t, None)
    if extra:
        prev = triples[start - 1]
        epidata[prev] = [*graph.epidata.get(prev, ()), *[POP] * extra]
    return from_parts([*triples[:start], *triples[end + 1 :]], graph.top, epidata, dict(graph.metadata))


def set_concept(graph: penman.Graph, var: str, new_concept: str) -> penman.Graph:
    """A copy of ``graph`` where ``var``'s concept is ``new_concept`` (layout and alignments kept).

    >>> from core.foils.amr.codec import decode, encode
    >>> encode(set_concept(decode("(c / cat)"), "c", "feline"), indent=None)
    '(c / feline)'
    """
    old = concept(graph, var)
    if old is None:
        raise GraphError(f"no node {var!r} in the graph", hint=f"nodes are: {', '.join(sorted(graph.variables()))}")
    return replace_triple(graph, (var, INSTANCE, old), (var, INSTANCE, new_concept))


def remove_node(graph: penman.Graph, var: str) -> penman.Graph:
    """A copy without ``var``: its triples, the edges into it, and any subgraph left unreachable.

    >>> from core.foils.amr.codec import decode, encode
    >>> g = decode("(d / deliver-01 :ARG0 (p / postman :mod (o / old)) :ARG1 (l / letter))")
    >>> encode(remove_node(g, "p"), indent=None)
    '(d / deliver-01 :ARG1 (l / letter))'
    """
    if var == graph.top:
        raise GraphError(f"cannot remove the top node {var!r}", hint="remove a node below the top")
    if var not in graph.variables():
        raise GraphError(f"no node {var!r} in the graph", hint=f"nodes are: {', '.join(sorted(graph.variables()))}")
    kept = [(s, r, t) for s, r, t in graph.triples if s != var and not (t == var and r != INSTANCE)]
    return prune_unreachable(rebuild(graph, kept))


def prune_unreachable(graph: penman.Graph) -> penman.Graph:
    """A copy without the nodes (and their triples) not connected to the top."""
    alive = reachable(graph)
    nodes = graph.variables()
    kept = [(s, r, t) for s, r, t in graph.triples if s in alive and (t in alive or t not in nodes or r == INSTANCE)]
    if len(kept) == len(graph.triples):
        return graph
    return rebuild(graph, kept)
