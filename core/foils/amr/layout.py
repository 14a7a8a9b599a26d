"""Laying a graph out afresh: depth-first order from the top and new ``Push``/``Pop`` markers.

penman keeps layout markers from the text a graph was decoded from; after surgery they would point
at the wrong places, so edited graphs are rebuilt here (:func:`rebuild`, :func:`relayout`) and
``penman.encode`` prints them as a clean tree.

>>> from core.foils.amr.codec import decode
>>> print(penman.encode(relayout(decode("(c / chase-01 :ARG1-of (s / see-01))")), indent=None))
(c / chase-01 :ARG1-of (s / see-01))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import penman
from penman.layout import POP, LayoutMarker, Push

from core.foils.amr.nodes import INSTANCE, Triple


def from_parts(triples: list[Triple], top: str | None, epidata: dict, metadata: dict) -> penman.Graph:
    """A penman.Graph from already-normalised parts, without re-checking every role (hot path)."""
    graph = penman.Graph(top=top, epidata=epidata, metadata=metadata)
    graph.triples = triples
    return graph


def copy_graph(graph: penman.Graph) -> penman.Graph:
    """An independent copy (triples, top, epidata lists and metadata are not shared)."""
    return penman.Graph(
        list(graph.triples),
        top=graph.top,
        epidata={t: list(epis) for t, epis in graph.epidata.items()},
        metadata=dict(graph.metadata),
    )


def relayout(graph: penman.Graph) -> penman.Graph:
    """The same triples, reordered depth-first from the top with fresh ``Push``/``Pop`` markers.

    Non-layout epidata (alignments) is kept on the triples that carry it. Each node is placed
    under the first edge that reaches it; an edge whose source is not yet placed is printed
    inverted (``:ARG0-of``). Triples not connected to the top are appended last.

    >>> from core.foils.amr.codec import decode
    >>> g = decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))")
    >>> swapped = [("c", r, {"c2": "m", "m": "c2"}.get(t, t)) if r.startswith(":ARG") else (s, r, t)
    ...            for s, r, t in g.triples]
    >>> print(penman.encode(rebuild(g, swapped), indent=None))
    (c / chase-01 :ARG0 (m / mouse) :ARG1 (c2 / cat))
    """
    return rebuild(graph, graph.triples)


def rebuild(graph: penman.Graph, triples: Iterable[Triple], top: str | None = None) -> penman.Graph:
    """A new graph of ``triples`` (default top: ``graph``'s), laid out afresh, keeping ``graph``'s
    metadata and the non-layout epidata of surviving triples.

    ``triples`` are taken as penman stores them (roles start with ``:``); they are not re-checked.
    """
    triples = list(triples)
    top = graph.top if top is None else top
    old_epi = graph.epidata
    order, markers = _layout(triples, top)
    epidata: dict[Triple, list] = {}
    for i in order:
        t = triples[i]
        kept = [e for e in old_epi.get(t, ()) if not isinstance(e, LayoutMarker)]
        epidata[t] = kept + markers.get(i, [])
    return from_parts([triples[i] for i in order], top, epidata, dict(graph.metadata))


def _layout(triples: Sequence[Triple], top: str | None) -> tuple[list[int], dict[int, list]]:
    """Depth-first order of triple indices from ``top`` and the layout markers per index.

    Placement first follows edges in their stored direction (so a reentrant node is placed
    under its first parent in triple order, never pulled under a child); only nodes that cannot
    be reached that way (relative clauses, ``:ARG0-of``) are placed under a neighbour through an
    inverted edge. Then each node prints its own triples in their original order.
    """
    n = len(triples)
    if top is None or n == 0:
        return list(range(n)), {}
    owned: dict[str, list[int]] = {top: []}  # var -> its :instance triples first, then its other triples
    outgoing: dict[str, list[int]] = {}
    rest: list[int] = []
    for i, (s, r, _) in enumerate(triples):
        if r == INSTANCE:
            owned.setdefault(s, []).append(i)
        else:
            owned.setdefault(s, [])
            outgoing.setdefault(s, []).append(i)
    for s, idxs in outgoing.items():
        owned[s].extend(idxs)
    placed_by: dict[str, int] = {}  # node -> index of the triple it is pushed on (top: -1)

    def place(var: str, via: int) -> None:  # preorder, the same order emit() prints in
        placed_by[var] = via
        for i in outgoing.get(var, rest):
            t = triples[i][2]
            if t in owned and t not in placed_by:
                place(t, i)

    place(top, -1)
    if len(placed_by) < len(owned):  # nodes reachable only against edge direction (:ARG0-of)
        resorted = set()
        progress = True
        while progress:
            progress = False
            for i, (s, r, t) in enumerate(triples):
                if r != INSTANCE and s not in placed_by and t in placed_by:
                    owned[s].remove(i)
                    owned[t].append(i)
                    resorted.add(t)
                    place(s, i)
                    progress = True
        for var in resorted:
            mine = owned[var]
            heads = [i for i in mine if triples[i][1] == INSTANCE]
            owned[var] = heads + sorted(i for i in mine if triples[i][1] != INSTANCE)
    used = [False] * n
    order: list[int] = []
    markers: dict[int, list] = {}

    def emit(var: str) -> None:
        for i in owned[var]:
            if used[i]:
                continue
            used[i] = True
            order.append(i)
            s, _, t = triples[i]
            other = t if s == var else s
            if other != var and placed_by.get(other) == i:
                markers.setdefault(i, []).append(Push(other))
                emit(other)
                markers.setdefault(order[-1], []).append(POP)

    emit(top)
    if len(order) < n:
        order.extend(i for i in range(n) if not used[i])
    return order, markers
