"""What changed between two graphs (:class:`GraphDiff`), variables matched by name.

>>> from core.foils.amr.codec import decode
>>> print(graph_diff(decode("(d / dog)"), decode("(d / cat)")).summary())
concept d: dog -> cat
"""

from __future__ import annotations

from dataclasses import dataclass

import penman

from core.foils.amr.nodes import INSTANCE, Triple, concepts


@dataclass(frozen=True)
class GraphDiff:
    """What changed between two graphs, matching variables by name.

    ``concepts`` holds ``(var, old, new)`` for nodes present in both graphs whose concept
    changed; their ``:instance`` triples are *not* repeated in ``added``/``removed``, which hold
    every other triple that is only in ``b`` / only in ``a`` (in triple order).
    """

    added: tuple[Triple, ...] = ()
    removed: tuple[Triple, ...] = ()
    concepts: tuple[tuple[str, str, str], ...] = ()
    top: tuple[str | None, str | None] | None = None  # (old, new) when the top changed

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.concepts or self.top)

    def summary(self) -> str:
        """One line per change, e.g. ``concept c2: cat -> feline`` or ``+ (c :polarity -)``.

        >>> from core.foils.amr.codec import decode
        >>> a = decode("(c / chase-01 :ARG0 (c2 / cat))")
        >>> print(graph_diff(a, decode("(c / chase-01 :polarity - :ARG0 (c2 / feline))")).summary())
        concept c2: cat -> feline
        + (c :polarity -)
        """
        if self.empty:
            return "no change"
        lines = []
        if self.top:
            lines.append(f"top: {self.top[0]} -> {self.top[1]}")
        lines.extend(f"concept {v}: {old} -> {new}" for v, old, new in self.concepts)
        lines.extend(f"- ({s} {r} {t})" for s, r, t in self.removed)
        lines.extend(f"+ ({s} {r} {t})" for s, r, t in self.added)
        return "\n".join(lines)


def graph_diff(a: penman.Graph, b: penman.Graph) -> GraphDiff:
    """Triples added and removed from ``a`` to ``b`` and concept changes, variables matched by name.

    >>> from core.foils.amr.codec import decode
    >>> a = decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))")
    >>> d = graph_diff(a, decode("(c / chase-01 :ARG0 (m / mouse) :ARG1 (c2 / cat))"))
    >>> d.removed, d.added
    ((('c', ':ARG0', 'c2'), ('c', ':ARG1', 'm')), (('c', ':ARG0', 'm'), ('c', ':ARG1', 'c2')))
    """
    ca, cb = concepts(a), concepts(b)
    changed = tuple((v, ca[v], cb[v]) for v in ca if v in cb and ca[v] != cb[v])
    changed_vars = {v for v, _, _ in changed}

    def keep(t: Triple) -> bool:
        return not (t[1] == INSTANCE and t[0] in changed_vars)

    set_a, set_b = set(a.triples), set(b.triples)
    removed = tuple(dict.fromkeys(t for t in a.triples if t not in set_b and keep(t)))
    added = tuple(dict.fromkeys(t for t in b.triples if t not in set_a and keep(t)))
    top = (a.top, b.top) if a.top != b.top else None
    return GraphDiff(added=added, removed=removed, concepts=changed, top=top)
