"""core.graph: decode/encode, validation, diffs and node surgery on hand-written PENMAN graphs."""

from __future__ import annotations

import penman
import pytest

from core.errors import GraphError, SmithError
from core.graph import (
    add_attribute,
    children,
    concept,
    copy_graph,
    decode,
    encode,
    graph_diff,
    is_leaf,
    is_negated,
    parent_edges,
    rebuild,
    relayout,
    remove_attribute,
    remove_leaf,
    remove_node,
    replace_triple,
    set_concept,
    swap_edge_targets,
    validate_graph,
)

CHASE = "(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))"
HAPPY = (
    "(c / cause-01 :ARG0 (w / win-01 :ARG0 (t / team :poss (s / she)) :ARG1 (f / final)) :ARG1 (h / happy-01 :ARG1 s))"
)
POSTMEN = "(d / deliver-01 :ARG0 (p / postman :quant 2 :mod (o / old)) :ARG1 (l / letter))"
RELATIVE = "(s / see-01 :ARG0 (i / i) :ARG1 (b / boy :ARG0-of (r / run-01 :ARG1 (h / home))) :mod (t / today))"


def flat(graph: penman.Graph) -> str:
    return encode(graph, indent=None)


# --------------------------------------------------------------------------- decode / encode


def test_decode_encode_round_trip():
    g = decode(HAPPY)
    assert flat(g) == " ".join(HAPPY.split())
    assert decode(encode(g)).triples == g.triples


@pytest.mark.parametrize("text", ["(c / chase-01 :ARG0 (c2 / cat)", "c / cat)", "((", "(c / cat :ARG0"])
def test_decode_malformed_raises_graph_error_with_hint(text):
    with pytest.raises(GraphError) as info:
        decode(text)
    assert isinstance(info.value, SmithError)
    assert "malformed PENMAN" in str(info.value) or "no graph" in str(info.value)
    assert info.value.hint


@pytest.mark.parametrize("text", ["", "   \n", None])
def test_decode_empty_raises(text):
    with pytest.raises(GraphError, match="empty"):
        decode(text)


def test_encode_graph_without_layout_markers():
    bare = penman.Graph(decode(RELATIVE).triples, top="s")
    assert flat(bare) == " ".join(RELATIVE.split())


def test_copy_graph_is_independent():
    g = decode(CHASE)
    c = copy_graph(g)
    c.triples.append(("m", ":polarity", "-"))
    c.epidata[("c", ":instance", "chase-01")].append("x")
    assert ("m", ":polarity", "-") not in g.triples
    assert "x" not in g.epidata[("c", ":instance", "chase-01")]
    assert c.top == g.top and c.metadata == g.metadata


# --------------------------------------------------------------------------- inspection


def test_navigation_helpers():
    g = decode(HAPPY)
    assert concept(g, "h") == "happy-01"
    assert concept(g, "zz") is None
    assert children(g, "w") == [(":ARG0", "t"), (":ARG1", "f")]
    assert parent_edges(g, "s") == [("t", ":poss", "s"), ("h", ":ARG1", "s")]
    assert is_leaf(g, "s") and is_leaf(g, "f")
    assert not is_leaf(g, "w") and not is_leaf(g, "nope")


def test_inverse_roles_follow_the_semantic_direction():
    g = decode(RELATIVE)
    assert ("r", ":ARG0", "b") in g.triples
    assert parent_edges(g, "b") == [("s", ":ARG1", "b"), ("r", ":ARG0", "b")]
    assert children(g, "r") == [(":ARG0", "b"), (":ARG1", "h")]
    assert is_leaf(g, "b")  # no edge out of b: the relative clause points at it


def test_attributes_do_not_make_a_node_inner():
    g = decode('(p / person :name (n / name :op1 "Mary" :op2 "Smith") :polarity -)')
    assert is_leaf(g, "n")
    assert is_negated(g, "p") and not is_negated(g, "n")


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize("text", [CHASE, HAPPY, POSTMEN, RELATIVE, '(p / person :name (n / name :op1 "Mary"))'])
def test_valid_graphs_have_no_problems(text):
    assert validate_graph(decode(text)) == []


def test_validate_reports_each_problem():
    assert validate_graph(penman.Graph([])) == ["graph is empty"]
    no_instance = penman.Graph(
        [("a", ":instance", "x"), ("a", ":ARG0", "b"), ("b", ":mod", "c"), ("c", ":instance", "y")]
    )
    assert validate_graph(no_instance) == ["variable 'b' has no :instance"]
    two = penman.Graph([("a", ":instance", "x"), ("a", ":instance", "y")])
    assert validate_graph(two) == ["variable 'a' has 2 :instance triples"]
    pol = penman.Graph([("a", ":instance", "x"), ("a", ":polarity", "-"), ("a", ":polarity", "-")])
    assert "node 'a' has 2 :polarity attributes" in validate_graph(pol)
    assert "duplicate triple (a :polarity -)" in validate_graph(pol)
    dangling = decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 m)")
    assert validate_graph(dangling) == ["edge (c :ARG1 m) points to an undefined variable 'm'"]
    apart = penman.Graph([("a", ":instance", "x"), ("b", ":instance", "y"), ("c", ":instance", "z")], top="a")
    assert validate_graph(apart) == ["nodes 'b', 'c' are not connected to the top 'a'"]
    topless = penman.Graph([("a", ":instance", "x")], top="q")
    assert "top 'q' is not a node (it has no :instance)" in validate_graph(topless)


def test_symbol_attributes_are_not_undefined_variables():
    g = decode('(g / go-02 :mode imperative :polarity - :ARG0 (y / you) :quant 2 :op1 "x")')
    assert validate_graph(g) == []


# --------------------------------------------------------------------------- diff


def test_graph_diff_concepts_and_triples():
    a = decode(CHASE)
    b = set_concept(add_attribute(a, "c", ":polarity", "-"), "c2", "feline")
    d = graph_diff(a, b)
    assert d.concepts == (("c2", "cat", "feline"),)
    assert d.added == (("c", ":polarity", "-"),)
    assert d.removed == ()
    assert d.top is None and not d.empty
    assert d.summary() == "concept c2: cat -> feline\n+ (c :polarity -)"


def test_graph_diff_identity_and_removed_node():
    a = decode(POSTMEN)
    assert graph_diff(a, a).empty
    assert graph_diff(a, copy_graph(a)).summary() == "no change"
    d = graph_diff(a, remove_node(a, "o"))
    assert d.removed == (("p", ":mod", "o"), ("o", ":instance", "old"))
    assert d.added == () and d.concepts == ()


def test_graph_diff_top_change():
    d = graph_diff(decode("(a / x :ARG0 (b / y))"), decode("(b / y :ARG0-of (a / x))"))
    assert d.top == ("a", "b")
    assert d.summary().startswith("top: a -> b")


# --------------------------------------------------------------------------- surgery


def test_set_concept_keeps_everything_else():
    g = decode(HAPPY)
    h = set_concept(g, "h", "unhappy-01")
    assert flat(h) == flat(g).replace("happy-01", "unhappy-01")
    assert concept(g, "h") == "happy-01"  # input untouched
    with pytest.raises(GraphError, match="no node 'zz'"):
        set_concept(g, "zz", "x")


def test_remove_node_drops_edge_and_unreachable_subgraph():
    g = decode(POSTMEN)
    assert flat(remove_node(g, "p")) == "(d / deliver-01 :ARG1 (l / letter))"
    assert flat(remove_node(g, "o")) == "(d / deliver-01 :ARG0 (p / postman :quant 2) :ARG1 (l / letter))"
    assert g.triples == decode(POSTMEN).triples


def test_remove_node_keeps_reentrant_nodes_reachable_elsewhere():
    g = decode(HAPPY)
    out = remove_node(g, "t")  # she is also :ARG1 of happy-01
    assert validate_graph(out) == []
    assert flat(out) == "(c / cause-01 :ARG0 (w / win-01 :ARG1 (f / final)) :ARG1 (h / happy-01 :ARG1 (s / she)))"


def test_remove_node_refuses_top_and_unknown():
    g = decode(CHASE)
    with pytest.raises(GraphError, match="top"):
        remove_node(g, "c")
    with pytest.raises(GraphError, match="no node"):
        remove_node(g, "x9")


def test_relayout_reproduces_the_decoded_tree():
    for text in (CHASE, HAPPY, POSTMEN, RELATIVE, "(a / a :ARG0 (b / b :ARG1 (x / x)) :ARG1 x)"):
        g = decode(text)
        assert penman.encode(relayout(g), indent=None) == penman.encode(g, indent=None)


def test_rebuild_after_swap_encodes_as_a_clean_tree():
    g = decode(HAPPY)
    swapped = [
        ("c", ":ARG0", "h") if t == ("c", ":ARG0", "w") else ("c", ":ARG1", "w") if t == ("c", ":ARG1", "h") else t
        for t in g.triples
    ]
    out = rebuild(g, swapped)
    assert validate_graph(out) == []
    assert flat(out) == (
        "(c / cause-01 :ARG0 (h / happy-01 :ARG1 (s / she)) :ARG1 (w / win-01 :ARG0 (t / team :poss s) :ARG1 (f / final)))"
    )


def test_alignments_survive_edits():
    g = decode("(c / chase-01~e.2 :ARG0 (c2 / cat~e.1) :ARG1 (m / mouse~e.4))")
    out = remove_node(set_concept(g, "c", "pursue-01"), "m")
    assert flat(out) == "(c / pursue-01~e.2 :ARG0 (c2 / cat~e.1))"
    assert flat(remove_node(g, "m")) == "(c / chase-01~e.2 :ARG0 (c2 / cat~e.1))"


def test_layout_preserving_attribute_edits():
    g = decode(POSTMEN)
    neg = add_attribute(g, "o", ":polarity", "-")  # "o" is the last node of its branch: its Pop markers move
    assert flat(neg) == "(d / deliver-01 :ARG0 (p / postman :quant 2 :mod (o / old :polarity -)) :ARG1 (l / letter))"
    assert flat(remove_attribute(neg, ("o", ":polarity", "-"))) == flat(g)
    assert flat(replace_triple(g, ("p", ":quant", "2"), ("p", ":quant", "3"))) == flat(g).replace(
        ":quant 2", ":quant 3"
    )
    with pytest.raises(GraphError):
        remove_attribute(g, ("o", ":polarity", "-"))
    with pytest.raises(GraphError):
        add_attribute(g, "zz", ":polarity", "-")


def test_swap_edge_targets_moves_printed_subtrees():
    g = decode(POSTMEN)
    out = swap_edge_targets(g, ("d", ":ARG0", "p"), ("d", ":ARG1", "l"))
    assert flat(out) == "(d / deliver-01 :ARG0 (l / letter) :ARG1 (p / postman :quant 2 :mod (o / old)))"
    leaves = swap_edge_targets(g, ("p", ":mod", "o"), ("d", ":ARG1", "l"))  # across levels: Pops are re-balanced
    assert flat(leaves) == "(d / deliver-01 :ARG0 (p / postman :quant 2 :mod (l / letter)) :ARG1 (o / old))"
    assert validate_graph(leaves) == []
    with pytest.raises(GraphError):
        swap_edge_targets(g, ("d", ":ARG0", "p"), ("d", ":ARG2", "x"))


def test_swap_edge_targets_relayouts_when_a_reference_would_come_first():
    out = swap_edge_targets(decode(HAPPY), ("c", ":ARG0", "w"), ("c", ":ARG1", "h"))
    assert flat(out) == (
        "(c / cause-01 :ARG0 (h / happy-01 :ARG1 (s / she)) :ARG1 (w / win-01 :ARG0 (t / team :poss s) :ARG1 (f / final)))"
    )


def test_remove_leaf_keeps_layout_and_falls_back_for_other_nodes():
    g = decode(POSTMEN)
    assert flat(remove_leaf(g, "o")) == "(d / deliver-01 :ARG0 (p / postman :quant 2) :ARG1 (l / letter))"
    assert flat(remove_leaf(g, "l")) == "(d / deliver-01 :ARG0 (p / postman :quant 2 :mod (o / old)))"
    assert flat(remove_leaf(g, "p")) == "(d / deliver-01 :ARG1 (l / letter))"  # not a leaf: remove_node
    assert flat(remove_leaf(decode(HAPPY), "s")) == flat(remove_node(decode(HAPPY), "s"))  # reentrant
