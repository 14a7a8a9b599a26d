"""The AMR graph as a tree: concepts, roles and the words each node aligns to."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode


def _aligned_words(parsed: Any, var: str) -> str:
    tokens = getattr(parsed, "tokens", ()) or ()
    idx = (getattr(parsed, "alignment", {}) or {}).get(var, ())
    return " ".join(tokens[i].text for i in idx if 0 <= i < len(tokens))


def node_label(role: str, var: str, concept: str, words: str) -> Text:
    """``:ARG0 c / cat  «cat»`` with the role dimmed and the aligned words in italics."""
    label = Text()
    if role:
        label.append(f"{role} ", style="dim")
    label.append(var, style="bold")
    label.append(" / ")
    label.append(concept, style="cyan")
    if words:
        label.append(f"  «{words}»", style="italic magenta")
    return label


class GraphTree(Tree[str]):
    """A read-only view of a :class:`penman.Graph`; each node's ``data`` is its variable (or None)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("AMR graph (type a sentence)", style="dim"), id=id)
        self.show_root = True
        self.guide_depth = 3

    def show_graph(self, parsed: Any) -> None:
        """Replace the tree with ``parsed.graph`` (a ParsedSentence)."""
        import penman

        self.clear()
        graph = parsed.graph
        if parsed.error or not graph.triples:
            self.root.set_label(Text(f"no graph: {parsed.error or 'empty'}", style="yellow"))
            self.root.data = None
            return
        tree = penman.configure(graph)
        var, branches = tree.node
        concept = next((t for r, t in branches if r == "/"), "?")
        self.root.set_label(node_label("", var, str(concept), _aligned_words(parsed, var)))
        self.root.data = var
        self._add_branches(self.root, branches, parsed)
        self.root.expand_all()
        self.move_cursor(self.root)

    def _add_branches(self, parent: TreeNode[str], branches: list[tuple[str, Any]], parsed: Any) -> None:
        for role, target in branches:
            if role == "/":
                continue
            if isinstance(target, tuple):
                var, sub = target
                concept = next((t for r, t in sub if r == "/"), "?")
                child = parent.add(node_label(role, var, str(concept), _aligned_words(parsed, var)), data=var)
                self._add_branches(child, sub, parsed)
                if len(child.children) == 0:
                    child.allow_expand = False
            else:
                value = str(target)
                label = Text()
                label.append(f"{role} ", style="dim")
                is_var = value in parsed.graph.variables()
                label.append(value, style="bold" if is_var else "green")
                if is_var:
                    label.append("  (re-entrant)", style="dim")
                parent.add_leaf(label, data=value if is_var else None)
