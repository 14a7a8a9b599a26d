"""The penman codec: :func:`decode` and :func:`encode` with one-line errors, and :func:`write_penman`,
a one-pass writer for laid-out graphs that gives the text ``penman.encode`` gives.

>>> print(encode(decode("(c / chase-01 :ARG0 (c2 / cat))")))
(c / chase-01
   :ARG0 (c2 / cat))
"""

from __future__ import annotations

from collections.abc import Callable

import penman
from penman.exceptions import PenmanError
from penman.layout import POP, Pop, Push
from penman.surface import Alignment, RoleAlignment

from core.errors import GraphError
from core.foils.amr.checks import validate_graph
from core.foils.amr.layout import relayout
from core.foils.amr.nodes import INSTANCE


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
    top = graph.top
    if not graph.triples or top.__class__ is not str or not top:
        return None
    try:
        written = _write_triples(graph.triples, graph.epidata.get, top, indent)
    except (TypeError, AttributeError, IndexError):  # roles or values that are not strings: let penman decide
        return None
    if written is None:
        return None
    out, pushes, still_open = written
    if len(set(pushes)) < len(pushes):
        return None  # penman ignores a second Push for a node (with a warning) and then improvises
    out.append(")" * still_open)
    metadata = graph.metadata
    if metadata:  # penman's "# ::key value" lines, value and all (a value that is not a string raises there too)
        out.insert(0, "".join([f"# ::{key}{' ' + value if value else value}\n" for key, value in metadata.items()]))
    return "".join(out)


def _write_triples(triples: list, get_epis: Callable, top: str, indent: int | None) -> tuple[list, list, int] | None:
    """The pass itself: (the text in pieces, the Push variables met, how many contexts are still open), or
    None where penman would improvise. The usual shapes (an edge of the open node; one that opens a node;
    one that closes nodes) are written here in place; anything else goes to :func:`_write_carefully`."""
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
    for triple in triples:
        source, role, target = triple
        epis = get_epis(triple)
        if source == var and target.__class__ is str and role[0] == ":":  # the usual shapes, written directly
            first = epis[0] if epis else None
            if first is None or (first is POP and epis.count(POP) == len(epis)):  # an edge, maybe closing nodes
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
                if first is None:
                    continue
                fresh = False
                for _ in epis:  # the last triple of open nodes
                    out.append(")")
                    if not stack:
                        var = _CLOSED  # penman's top context ended: any later triple is placed by improvising
                        break
                    var, column, joiner = stack.pop()
                continue
            one_push = first.__class__ is Push and len(epis) == 1
            if one_push and first.variable == target != var and target and role != instance:
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
        state = _write_carefully(triple, epis, (var, column, joiner, fresh), out, stack, pushes, indent)
        if state is None:
            return None
        var, column, joiner, fresh = state
    return out, pushes, 0 if var is _CLOSED else len(stack) + 1


def _write_carefully(
    triple: tuple, epis: list | None, state: tuple, out: list, stack: list, pushes: list, indent: int | None
) -> tuple | None:
    """One triple of any other shape, step by step as penman places it: inverted edges, alignments,
    misplaced Pops. Returns the new (open node, column, joiner, fresh), or None where penman would
    improvise or warn; ``out``, ``stack`` and ``pushes`` are extended in place."""
    source, role, target = triple
    var, column, joiner, fresh = state
    push = None
    pops = 0
    role_suffix = target_suffix = ""
    for epi in epis or ():
        kind = epi.__class__
        if kind is Pop:
            pops += 1
        elif kind is Push:
            new = epi.variable
            if push is not None or role == INSTANCE or (new != source and new != target) or not new:
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
        if target == var and role != INSTANCE:  # an edge read backwards: printed inverted
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
        if indent is not None:
            column += len(role) + len(push) + 3 if indent == -1 else indent
            joiner = "\n" + " " * column
    elif role == INSTANCE:
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
    return var, column, joiner, fresh
