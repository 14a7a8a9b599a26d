"""Small pure helpers over :class:`penman.Graph`: decode/encode, validation, diffs and node surgery.

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

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import penman
from penman.exceptions import PenmanError
from penman.layout import POP, LayoutMarker, Pop, Push
from penman.surface import Alignment, RoleAlignment

from core.errors import GraphError

Triple = tuple[str, str, str]

INSTANCE = ":instance"
POLARITY = ":polarity"

# Attribute roles whose values are bare symbols, never variables (``:mode imperative``, ``:polarity -``).
_SYMBOL_ROLES = frozenset({":mode", ":polarity", ":polite", ":li", ":value"})
# What an undefined variable looks like (``c``, ``c2``, ``z12``, ``xy3``): a heuristic, see validate_graph.
_VARIABLE_LIKE = re.compile(r"^[a-z]{1,2}\d*$")


def decode(text: str) -> penman.Graph:
    """Parse PENMAN text into a graph; malformed text raises :class:`GraphError`.

    >>> decode("(d / dog)").triples
    [('d', ':instance', 'dog')]
    >>> decode("(d / dog")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    core.errors.GraphError: malformed PENMAN graph: ... (hint: ...)
    """
    if not isinstance(text, str) or not text.strip():
        raise GraphError("empty PENMAN graph", hint="pass a graph such as '(d / dog)'")
    try:
        graph = penman.decode(text)
    except PenmanError as exc:
        first = " ".join(str(exc).split())
        raise GraphError(
            f"malformed PENMAN graph: {first[:200]}",
            hint="check the parentheses and that every node reads '(var / concept ...)'",
        ) from None
    if not graph.triples:
        raise GraphError(f"PENMAN text has no graph: {text.strip()[:80]!r}", hint="a graph reads '(var / concept ...)'")
    return graph


def encode(graph: penman.Graph, *, indent: int | None = 3) -> str:
    """Serialise a graph to PENMAN; a graph that cannot be laid out raises :class:`GraphError`.

    A graph whose layout markers no longer fit (after surgery) is re-laid out first.

    >>> encode(decode("(d / dog :mod (b / big))"), indent=None)
    '(d / dog :mod (b / big))'
    """
    try:
        return penman.encode(graph, indent=indent)
    except PenmanError:
        pass
    try:
        return penman.encode(relayout(graph), indent=indent)
    except PenmanError as exc:
        problems = validate_graph(graph)
        raise GraphError(
            f"cannot encode graph: {'; '.join(problems) or exc}", hint="validate_graph() lists what is wrong"
        ) from None


def write_penman(graph: penman.Graph, indent: int | None = 3) -> str:
    """``penman.encode(graph, indent=indent)``, read straight off the graph's ``Push``/``Pop`` layout.

    A laid-out graph (decoded, or built by :func:`rebuild` and the surgery helpers here) already
    says where every node opens and closes, so the text is written in one pass over the triples,
    several times faster than penman's configure-then-format. The pass follows penman's own
    (non-improvising) configuration step by step: inverted edges (``:ARG0-of``), bare reentrant
    variables, contexts closed implicitly by a triple that does not fit, alignments (``~e.3``),
    ``# ::`` metadata lines, and ``indent`` ``None`` (one line), ``-1`` or a fixed step per depth.
    Whatever penman would have to improvise or warn about (a node with no ``Push``, a second
    ``Push`` for a node, a triple after the top closed, other epidata) goes to :func:`encode`.

    >>> g = decode("(s / see-01 :ARG0 (b / boy :ARG0-of (r / run-01)) :ARG1 b~e.4 :polarity -)")
    >>> print(write_penman(g))
    (s / see-01
       :ARG0 (b / boy
          :ARG0-of (r / run-01))
       :ARG1 b~e.4
       :polarity -)
    >>> write_penman(g, indent=None) == penman.encode(g, indent=None)
    True
    """
    text = _write_laid_out(graph, indent)
    return encode(graph, indent=indent) if text is None else text


_CLOSED = object()  # the open "node" once the top's context has ended


_JOINERS = ["\n" + " " * n for n in range(40)]


def _invert_role(role: str) -> str:
    """penman's default-model inversion: ``:ARG0`` <-> ``:ARG0-of``."""
    return role[:-3] if role.endswith("-of") else role + "-of"


def _edge_text(role, target, role_suffix: str, target_suffix: str) -> str:
    """One edge to an atomic target as penman formats it (the slow path: alignments, odd values)."""
    if not (target is None or isinstance(target, (str, int, float))):
        raise TypeError("not an atomic target")
    if role_suffix:
        role = f"{role}{role_suffix}"
    if target_suffix:
        target = f"{target!s}{target_suffix}"
    if role != "/" and not role.startswith(":"):
        role = ":" + role
    return f"{role} {target!s}" if target else role


def _write_laid_out(graph: penman.Graph, indent: int | None) -> str | None:
    """The text of :func:`write_penman`, or None when the layout is not one this pass reproduces.

    Mirrors ``penman.layout._preconfigure``/``_configure_node``, ``_process_epigraph`` and
    ``penman._format`` (penman 1.3, default model) and returns None wherever penman would warn,
    improvise, or print a node's concept anywhere but first (where its ``:instance`` triple is not
    the first triple placed in the node). The text is written left to right into one list.
    """
    if indent is not None and indent.__class__ is not int:
        return None
    triples = graph.triples
    top = graph.top
    if not triples or top.__class__ is not str or not top:
        return None
    get_epis = graph.epidata.get
    fixed = indent is not None and indent >= 0
    joiners = _JOINERS
    instance = INSTANCE
    flat = indent is None
    column = 0 if flat else len(top) + 2 if indent == -1 else indent
    joiner = " " if flat else "\n" + " " * column
    out = ["(", top]
    var = top  # the open node
    fresh = True  # no edge of the open node is written yet (the next one follows "(var" with a space)
    stack: list[tuple] = []  # the enclosing open nodes: (var, column, joiner)
    pushes: list = []  # the variables of the Push markers met, in order
    try:
        for triple in triples:
            source, role, target = triple
            epis = get_epis(triple)
            if source == var and target.__class__ is str and role[0] == ":":  # the usual shapes, written directly
                if not epis:  # an edge or attribute of the open node
                    if role == instance:
                        if not fresh:
                            return None  # penman prints the concept first, before the edges already written
                        if target:
                            out.append(" / " + target)
                            fresh = False
                    elif fresh:
                        out.append(f" {role} {target}" if target else " " + role)
                        fresh = False
                    else:
                        out.append(f"{joiner}{role} {target}" if target else joiner + role)
                    continue
                first = epis[0]
                if first.__class__ is Push:
                    if len(epis) == 1 and first.variable == target != var and target and role != instance:
                        pushes.append(target)  # a nested node opens
                        out.append(f" {role} ({target}" if fresh else f"{joiner}{role} ({target}")
                        stack.append((var, column, joiner))
                        var = target
                        fresh = True
                        if fixed:
                            column += indent
                            joiner = joiners[column] if column < 40 else "\n" + " " * column
                        elif not flat:
                            column += len(role) + len(target) + 3
                            joiner = "\n" + " " * column
                        continue
                elif first is POP and epis.count(POP) == len(epis):  # the last triple of open nodes
                    if role == instance:
                        if not fresh:
                            return None
                        if target:
                            out.append(" / " + target)
                    elif fresh:
                        out.append(f" {role} {target}" if target else " " + role)
                    else:
                        out.append(f"{joiner}{role} {target}" if target else joiner + role)
                    fresh = False
                    for _ in epis:
                        out.append(")")
                        if not stack:
                            var = _CLOSED  # penman's top context ended: any later triple is placed by improvising
                            break
                        var, column, joiner = stack.pop()
                    continue
            # anything else, step by step as penman does it: inverted edges, alignments, misplaced Pops
            push = None
            pops = 0
            role_suffix = target_suffix = ""
            for epi in epis or ():
                kind = epi.__class__
                if kind is Pop:
                    pops += 1
                elif kind is Push:
                    new = epi.variable
                    if push is not None or role == instance or (new != source and new != target) or not new:
                        return None  # penman ignores such a Push (with a warning)
                    if new.__class__ is not str:
                        return None
                    if new == source:
                        source, role, target = target, _invert_role(role), source
                    pushes.append(new)
                    push = new
                elif kind is RoleAlignment:
                    role_suffix += str(epi)
                elif kind is Alignment:
                    target_suffix += str(epi)
                else:
                    return None
            while source != var:  # place the triple in the open node, or close that node
                if target == var and role != instance:  # an edge read backwards: printed inverted
                    source, role, target = target, _invert_role(role), source
                    push = None
                    break
                if not stack:
                    return None  # penman would improvise (or the top was closed before this triple)
                out.append(")")
                var, column, joiner = stack.pop()
                fresh = False
            if push is not None:  # a nested node opens
                if target_suffix:
                    return None  # penman drops an alignment on a nested node's edge, with a warning
                if role_suffix:
                    role = f"{role}{role_suffix}"
                if role[0] != ":" and role != "/":
                    role = ":" + role
                out.append(f" {role} ({push}" if fresh else f"{joiner}{role} ({push}")
                stack.append((var, column, joiner))
                var = push
                fresh = True
                if not flat:
                    column += len(role) + len(push) + 3 if indent == -1 else indent
                    joiner = "\n" + " " * column
            elif role == instance:
                if not fresh:
                    return None
                if target:
                    out.append(" " + _edge_text("/", target, role_suffix, target_suffix))
                    fresh = False
            else:
                out.append((" " if fresh else joiner) + _edge_text(role, target, role_suffix, target_suffix))
                fresh = False
            while pops:
                pops -= 1
                out.append(")")
                if not stack:
                    var = _CLOSED  # penman's top context ended: any later triple is placed by improvising
                    break
                var, column, joiner = stack.pop()
                fresh = False
    except (TypeError, AttributeError, IndexError):  # roles or values that are not strings: let penman decide
        return None
    if len(set(pushes)) < len(pushes):
        return None  # penman ignores a second Push for a node (with a warning) and then improvises
    if var is not _CLOSED:
        out.append(")" * (len(stack) + 1))
    metadata = graph.metadata
    if metadata:  # penman's "# ::key value" lines, value and all (a value that is not a string raises there too)
        out.insert(0, "".join([f"# ::{key}{' ' + value if value else value}\n" for key, value in metadata.items()]))
    return "".join(out)


def _graph(triples: list[Triple], top: str | None, epidata: dict, metadata: dict) -> penman.Graph:
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


# --------------------------------------------------------------------------- inspection


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


# --------------------------------------------------------------------------- validation


def validate_graph(graph: penman.Graph) -> list[str]:
    """Problems with ``graph`` as human-readable strings; ``[]`` means valid.

    Checks: a top exists and is a node; every node has exactly one ``:instance``; no node has
    two ``:polarity`` attributes; no duplicate triple; no edge to an undefined variable; every
    node is connected to the top. An "undefined variable" is an edge target that looks like a
    variable (one or two lowercase letters and optional digits: ``c``, ``c2``, ``z12``) under a role
    that does not take symbols (``:mode``, ``:polarity`` ...) but has no triples of its own: a
    heuristic, since PENMAN itself cannot tell a dangling variable from a symbol constant.

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


# --------------------------------------------------------------------------- diff


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


# --------------------------------------------------------------------------- surgery


def relayout(graph: penman.Graph) -> penman.Graph:
    """The same triples, reordered depth-first from the top with fresh ``Push``/``Pop`` markers.

    Non-layout epidata (alignments) is kept on the triples that carry it. Each node is placed
    under the first edge that reaches it; an edge whose source is not yet placed is printed
    inverted (``:ARG0-of``). Triples not connected to the top are appended last.

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
    return _graph([triples[i] for i in order], top, epidata, dict(graph.metadata))


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


def replace_triple(graph: penman.Graph, old: Triple, new: Triple) -> penman.Graph:
    """A copy where triple ``old`` is ``new`` in the same place, with ``old``'s epidata (layout kept).

    Safe for changes that keep the tree shape: a concept (``:instance``) or an attribute value.

    >>> g = decode("(c / chase-01 :ARG0 (c2 / cat))")
    >>> encode(replace_triple(g, ("c2", ":instance", "cat"), ("c2", ":instance", "feline")), indent=None)
    '(c / chase-01 :ARG0 (c2 / feline))'
    """
    epidata = dict(graph.epidata)
    if old in epidata:
        epidata[new] = epidata.pop(old)
    triples = [new if t == old else t for t in graph.triples]
    return _graph(triples, graph.top, epidata, dict(graph.metadata))


def add_attribute(graph: penman.Graph, var: str, role: str, value: str) -> penman.Graph:
    """A copy with ``(var, role, value)`` printed right after ``var``'s concept (layout kept).

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
    return _graph(triples, graph.top, epidata, dict(graph.metadata))


def remove_attribute(graph: penman.Graph, triple: Triple) -> penman.Graph:
    """A copy without the attribute ``triple`` (layout kept: its ``Pop`` markers move to the triple before).

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
    return _graph(triples, graph.top, epidata, dict(graph.metadata))


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
    return _graph(out, graph.top, epidata, dict(graph.metadata))


def remove_leaf(graph: penman.Graph, var: str) -> penman.Graph:
    """A copy without the leaf ``var`` and its one incoming edge, layout kept (else see remove_node).

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
    return _graph([*triples[:start], *triples[end + 1 :]], graph.top, epidata, dict(graph.metadata))


def set_concept(graph: penman.Graph, var: str, new_concept: str) -> penman.Graph:
    """A copy of ``graph`` where ``var``'s concept is ``new_concept`` (layout and alignments kept).

    >>> encode(set_concept(decode("(c / cat)"), "c", "feline"), indent=None)
    '(c / feline)'
    """
    old = concept(graph, var)
    if old is None:
        raise GraphError(f"no node {var!r} in the graph", hint=f"nodes are: {', '.join(sorted(graph.variables()))}")
    return replace_triple(graph, (var, INSTANCE, old), (var, INSTANCE, new_concept))


def remove_node(graph: penman.Graph, var: str) -> penman.Graph:
    """A copy without ``var``: its triples, the edges into it, and any subgraph left unreachable.

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
