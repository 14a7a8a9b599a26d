"""Small pure helpers over :class:`penman.Graph`, in one face: decode/encode, validation, diffs and node surgery.

The helpers live by concept in :mod:`~core.foils.amr.codec` (PENMAN text), :mod:`~core.foils.amr.nodes`
(reading a graph), :mod:`~core.foils.amr.checks` (``validate_graph``), :mod:`~core.foils.amr.diff`
(``graph_diff``), :mod:`~core.foils.amr.layout` (``rebuild``, ``relayout``) and
:mod:`~core.foils.amr.surgery` (edits that return a new graph); this module re-exports them.

Every function that "changes" a graph returns a new one; the input is never mutated. Edited
graphs are re-laid out (:func:`relayout`) so that ``penman.encode`` prints them as a clean tree
even after triples were swapped or removed (penman keeps layout markers, ``Push``/``Pop``, from
the text a graph was decoded from; after surgery those markers would point at the wrong places).

Triples are penman's: ``(source, role, target)`` with inverted roles normalised (``:ARG0-of`` is
stored as ``(event, ":ARG0", node)``), so "children" and "parents" here follow the semantic
direction of the triples, not the tree layout.

>>> g = decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))")
>>> concept(g, "c2"), children(g, "c"), is_leaf(g, "m")
('cat', [(':ARG0', 'c2'), (':ARG1', 'm')], True)
>>> print(encode(remove_node(g, "m")))
(c / chase-01
   :ARG0 (c2 / cat))
>>> validate_graph(g)
[]
"""

from __future__ import annotations

from core.foils.amr.checks import validate_graph
from core.foils.amr.codec import decode, encode, write_penman
from core.foils.amr.diff import GraphDiff, graph_diff
from core.foils.amr.layout import copy_graph, rebuild, relayout
from core.foils.amr.nodes import (
    ADJUNCT_ROLES,
    INSTANCE,
    POLARITY,
    Triple,
    attributes,
    children,
    concept,
    concepts,
    is_leaf,
    is_negated,
    parent_edges,
    reachable,
    variables,
)
from core.foils.amr.surgery import (
    add_attribute,
    prune_unreachable,
    remove_attribute,
    remove_leaf,
    remove_node,
    replace_triple,
    set_concept,
    swap_edge_targets,
)

__all__ = [
    "ADJUNCT_ROLES",
    "INSTANCE",
    "POLARITY",
    "GraphDiff",
    "Triple",
    "add_attribute",
    "attributes",
    "children",
    "concept",
    "concepts",
    "copy_graph",
    "decode",
    "encode",
    "graph_diff",
    "is_leaf",
    "is_negated",
    "parent_edges",
    "prune_unreachable",
    "reachable",
    "rebuild",
    "relayout",
    "remove_attribute",
    "remove_leaf",
    "remove_node",
    "replace_triple",
    "set_concept",
    "swap_edge_targets",
    "validate_graph",
    "variables",
    "write_penman",
]
