"""What the realizer reads off an :class:`Edit`: a detail, a node's head token, a node's parent.

>>> from core.foils.amr.codec import decode
>>> from core.types import Edit, ParsedSentence
>>> g = decode("(c / chase-01 :ARG0 (c2 / cat))")
>>> edit = Edit("US", "leaf", "drop cat", ("c2",), ParsedSentence("Cats chase.", g), g, {"node": "c2"})
>>> detail(edit, "node"), parent_of(edit, "c2", ":ARG0")
('c2', 'c')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.foils.realize.work import Unrealizable, Work
from core.types import Edit, Token


def detail(edit: Edit, key: str) -> Any:
    """``edit.details[key]`` (``"node"`` falls back to the edit's first node); missing: :class:`Unrealizable`."""
    if key in edit.details:
        return edit.details[key]
    if key == "node" and edit.nodes:
        return edit.nodes[0]
    raise Unrealizable(f"the {edit.rule} edit has no {key!r} in its details")


def head_of(work: Work, var: str, concepts: Mapping[str, str], parent: str | None = None) -> Token:
    """The head token of node ``var`` in the sentence being edited."""
    return work.sent.node_head(var, concepts, parent)


def parent_of(edit: Edit, var: str, role: str | None) -> str | None:
    """The node above ``var`` through ``role`` in the source graph (first match), else None."""
    for src, r, tgt in edit.source.graph.edges():
        if tgt == var and (role is None or r == role):
            return src
    return None
