"""core.foils.amr codec, nodes, checks, diff, layout, surgery: on hand-written PENMAN graphs."""

from __future__ import annotations

from pathlib import Path

import penman
import penman.epigraph
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from penman.layout import POP, Pop, Push
from penman.surface import Alignment

from core.errors import GraphError, SmithError
from core.foils.amr.checks import validate_graph
from core.foils.amr.codec import _write_laid_out, decode, encode, write_penman
from core.foils.amr.diff import graph_diff
from core.foils.amr.layout import copy_graph, rebuild, relayout
from core.foils.amr.nodes import children, concept, is_leaf, is_negated, parent_edges
from core.foils.amr.surgery import (
    add_attribute,
    remove_attribute,
    remove_leaf,
    remove_node,
    replace_triple,
    set_concept,
    swap_edge_targets,
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


# --------------------------------------------------------------------------- write_penman: penman.encode, faster

INDENTS = (3, None, -1, 0, 6)
ROOT = Path(__file__).resolve().parents[1]
EDGE_CASES = [
    "(d / dog)",
    "(a)",  # no concept
    "(a :ARG0 (b / bee))",
    CHASE,
    HAPPY,  # reentrancy: a bare variable
    POSTMEN,
    RELATIVE,  # inverted edge that opens a node
    "(t / try-01 :ARG0 (d / dog :ARG0-of b) :ARG1 (b / bark-01))",  # inverted reentrancy, referenced before defined
    "(a / a :ARG0 a)",  # self loop
    '(p / person :name (n / name :op1 "Anna Smith" :op2 "say \\"hi\\"" :op3 "a~b") :polarity -)',
    '(d / dog :quant 2 :value -1.5 :mod "" :mode imperative)',
    "(c / chase-01~e.2 :ARG0~e.1 (c2 / cat~e.1) :ARG1 m~e.4 :polarity~e.3 -~e.3)",  # alignments, role alignments
    "(s / see-01 :ARG0 (b / boy :ARG0-of~e.3 (r / run-01 :ARG1-of~e.5 (h / hurry-01))))",
    '(p / person :name (n / name :op1 "True~x"~e.4))',  # a ~ inside a string
    "# ::snt Hi there\n# ::empty\n(h / hello :mod (t / there))",  # metadata lines
    "(a / and :op1 (b / b :mod (c / c :mod (d / d :mod (e / e :mod (f / f))))) :op2 f)",  # deep nesting
]


def same_as_encode(graph: penman.Graph, indent: int | None) -> None:
    """write_penman gives what core.foils.amr.codec.encode gives (penman.encode unless it raises), error or text."""
    try:
        want = encode(graph, indent=indent)
    except GraphError:
        with pytest.raises(GraphError):
            write_penman(graph, indent=indent)
    else:
        assert write_penman(graph, indent=indent) == want


def native(graph: penman.Graph, indent: int | None = 3) -> bool:
    """True when write_penman wrote the text itself, no fallback."""
    return _write_laid_out(graph, indent) is not None


@pytest.mark.parametrize("text", EDGE_CASES)
def test_write_penman_matches_penman_encode(text):
    g = decode(text)
    for graph in (g, relayout(g)):
        for indent in INDENTS:
            assert native(graph, indent), (text, indent)
            assert write_penman(graph, indent=indent) == penman.encode(graph, indent=indent), (text, indent)


def test_write_penman_after_surgery_matches_penman_encode():
    g = decode(POSTMEN)
    edited = [
        add_attribute(g, "o", ":polarity", "-"),
        remove_attribute(add_attribute(g, "p", ":polarity", "-"), ("p", ":polarity", "-")),
        remove_leaf(g, "o"),
        remove_leaf(g, "l"),
        remove_node(g, "p"),
        set_concept(g, "d", "send-01"),
        swap_edge_targets(g, ("d", ":ARG0", "p"), ("d", ":ARG1", "l")),
        swap_edge_targets(g, ("p", ":mod", "o"), ("d", ":ARG1", "l")),
        swap_edge_targets(decode(HAPPY), ("c", ":ARG0", "w"), ("c", ":ARG1", "h")),
        remove_node(decode(RELATIVE), "i"),
    ]
    for graph in edited:
        for indent in INDENTS:
            assert native(graph, indent)
            assert write_penman(graph, indent=indent) == penman.encode(graph, indent=indent)


def test_write_penman_tolerates_what_penman_tolerates_without_improvising():
    g = decode(POSTMEN)
    no_pops = copy_graph(g)  # a triple that does not fit closes the open node, as penman does
    for t, epis in no_pops.epidata.items():
        no_pops.epidata[t] = [e for e in epis if e is not POP]
    extra = copy_graph(g)  # superfluous Pops at the very end are ignored
    extra.epidata[extra.triples[-1]] = [*extra.epidata[extra.triples[-1]], POP, POP]
    for graph in (no_pops, extra):
        for indent in INDENTS:
            assert native(graph, indent)
            assert write_penman(graph, indent=indent) == penman.encode(graph, indent=indent)


class Note(penman.epigraph.Epidatum):
    """An epidatum penman does not print (it warns and ignores it)."""


def _fallbacks() -> dict[str, penman.Graph]:
    g = decode(POSTMEN)
    out = {"bare triples": penman.Graph(g.triples, top="d")}

    def variant(name, triple, change):
        graph = copy_graph(g)
        graph.epidata[triple] = change(list(graph.epidata.get(triple, [])))
        out[name] = graph

    variant("missing Push", ("d", ":ARG1", "l"), lambda epis: [])
    variant("second Push for a node", ("p", ":quant", "2"), lambda epis: [*epis, Push("o")])
    variant("Push on an instance", ("l", ":instance", "letter"), lambda epis: [Push("l"), *epis])
    variant("Push of a stranger", ("p", ":quant", "2"), lambda epis: [Push("zz")])
    variant("two Pushes", ("d", ":ARG1", "l"), lambda epis: [*epis, Push("d")])
    variant("unknown epidatum", ("p", ":quant", "2"), lambda epis: [Note()])
    variant("Pop on the edge that opens a node", ("p", ":mod", "o"), lambda epis: [*epis, POP])
    variant("top closed early", ("d", ":instance", "deliver-01"), lambda epis: [POP])
    variant("alignment on a nested node", ("d", ":ARG0", "p"), lambda epis: [*epis, Alignment((3,))])
    out["other top"] = penman.Graph(g.triples, top="p", epidata=g.epidata)
    concept_late = copy_graph(g)  # penman prints a concept first even when its triple comes later
    t = concept_late.triples
    t[0], t[1] = t[1], t[0]
    out["concept after an edge"] = concept_late
    dup = copy_graph(g)
    dup.triples.append(("d", ":ARG1", "l"))  # a duplicate triple shares the Push of the first
    out["duplicate triple"] = dup
    out["empty"] = penman.Graph([], top=None)
    return out


@pytest.mark.parametrize("name", list(_fallbacks()))
def test_write_penman_falls_back_to_encode_on_other_layouts(name):
    graph = _fallbacks()[name]
    for indent in INDENTS:
        assert not native(graph, indent), (name, indent)
        same_as_encode(graph, indent)


def test_write_penman_odd_indents_fall_back_and_odd_values_match():
    g = decode(CHASE)
    assert not native(g, indent=True)  # penman takes a bool as a number of spaces; left to it
    assert write_penman(g, indent=True) == penman.encode(g, indent=True)
    odd = copy_graph(g)
    odd.triples.append(("c", ":quant", 2))  # not a string: written through the careful path
    odd.epidata[("c", ":quant", 2)] = []
    for indent in INDENTS:
        assert write_penman(odd, indent=indent) == penman.encode(odd, indent=indent)


@pytest.mark.shared_data
def test_write_penman_on_the_little_prince(shared_data):
    path = shared_data / "amr" / "little_prince_v3_dev.txt"
    if not path.exists():
        pytest.skip(f"{path} not present")
    graphs = penman.load(str(path))
    assert len(graphs) > 100
    for g in graphs:
        for graph in (g, relayout(g)):
            for indent in (3, None):
                assert native(graph, indent)
                assert write_penman(graph, indent=indent) == penman.encode(graph, indent=indent)


def test_write_penman_on_every_rule_edit_of_the_sample_sentences():
    from core.foils.pipeline import FoilPipeline

    sentences = [s for s in (ROOT / "sample_data" / "sentences.txt").read_text().splitlines() if s.strip()]
    pipe = FoilPipeline.from_settings()
    graphs = [e.graph for p in pipe.parse(sentences) for edits in pipe.edits(p).values() for e in edits]
    assert len(graphs) > 50
    for graph in graphs:
        for indent in (3, None):
            assert native(graph, indent)
            assert write_penman(graph, indent=indent) == penman.encode(graph, indent=indent)


# Random trees, written as PENMAN, decoded, re-laid out, edited and their layout markers shuffled.


@st.composite
def penman_text(draw) -> str:
    defined: list[str] = []
    roles = st.sampled_from([":ARG0", ":ARG1", ":mod", ":ARG0-of", ":ARG1-of", ":op1", ":consist-of", ":domain"])
    align = st.sampled_from(["", "", "", "~e.1", "~3,4"])

    def node(depth: int) -> str:
        var = f"v{len(defined)}"
        defined.append(var)
        concept = draw(st.sampled_from(["dog", "bark-01", "and", "name", "thing"]))
        parts = [f"({var} / {concept}{draw(align)}"]
        for _ in range(draw(st.integers(0, 3 if depth < 3 else 0))):
            kind = draw(st.sampled_from(["node", "node", "attr", "reentrant"]))
            role = draw(roles) + draw(align)
            if kind == "node":
                parts.append(f"{role} {node(depth + 1)}")
            elif kind == "attr":
                role = draw(st.sampled_from([":polarity", ":quant", ":op2", ":wiki"])) + draw(align)
                value = draw(st.sampled_from(["-", "2", '"New York"', '"a \\"b\\""', "imperative", "-1.5"]))
                parts.append(f"{role} {value}{draw(align)}")
            else:
                parts.append(f"{role} {draw(st.sampled_from(defined))}")
        return " ".join(parts) + ")"

    return node(0)


@settings(max_examples=150, deadline=None)
@given(penman_text(), st.randoms(use_true_random=False))
def test_write_penman_property(text, rnd):
    g = penman.decode(text)
    graphs = [g, relayout(g)]
    leaves = [v for v in sorted(g.variables()) if v != g.top and is_leaf(g, v)]
    if leaves:
        graphs.append(remove_leaf(g, rnd.choice(leaves)))
        graphs.append(add_attribute(g, rnd.choice(leaves), ":polarity", "-"))
    for graph in graphs:
        for indent in (3, None):
            assert write_penman(graph, indent=indent) == penman.encode(graph, indent=indent)
    shuffled = copy_graph(g)  # layout markers moved, dropped or doubled: exact text or a fallback to encode
    markers = [e for epis in shuffled.epidata.values() for e in epis if isinstance(e, Push | Pop)]
    for epis in shuffled.epidata.values():
        epis[:] = [e for e in epis if not isinstance(e, Push | Pop)]
    for marker in markers:
        if rnd.random() < 0.8:
            shuffled.epidata.setdefault(rnd.choice(shuffled.triples), []).append(marker)
    for indent in (3, None):
        same_as_encode(shuffled, indent)
