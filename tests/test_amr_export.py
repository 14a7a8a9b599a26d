"""`smithtui foils --amr-out`: an AMR corpus with ::id/::snt/::tok/::alignments that penman and amrlib read."""

from __future__ import annotations

import json
from pathlib import Path

import penman
import pytest

from core.foils.amr.export import foil_tokens, isi_addresses, isi_alignments
from smithtui.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "sentences.txt"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[list[dict], Path]:
    root = tmp_path_factory.mktemp("amr")
    out, amr = root / "f.jsonl", root / "f.amr"
    assert main(["foils", "--input", str(SAMPLE), "--out", str(out), "--amr-out", str(amr), "--seed", "3"]) == 0
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()], amr


def _addressed(graph: penman.Graph, address: str) -> str:
    """The concept (or constant) at an ISI address, found by walking the re-parsed tree."""
    tree = penman.parse(penman.encode(graph))
    found = {a: key for key, a in isi_addresses(tree).items()}[address]
    if ":" in found:
        var, role = found.split(":", 1)
        return next(str(t) for s, r, t in graph.attributes() if s == var and r == f":{role}")
    return next(t for s, _, t in graph.instances() if s == found)


def test_every_graph_has_the_conventions_and_penman_reads_them(corpus):
    records, amr = corpus
    graphs = penman.load(str(amr))
    foils = [r for r in records if r.get("foil") and not r.get("error")]
    sources = {r["row_id"] for r in foils}
    assert len(graphs) == len(foils) + len(sources)
    ids = [g.metadata["id"] for g in graphs]
    assert len(set(ids)) == len(ids)
    for g in graphs:
        assert {"id", "snt", "tok", "alignments"} <= set(g.metadata)
        toks = g.metadata["tok"].split()
        for pair in g.metadata["alignments"].split():
            index, address = pair.split("-")
            assert int(index) < len(toks)
            _addressed(g, address)  # every address names a node or attribute of this graph
    edited = [g for g in graphs if "source-id" in g.metadata]
    assert {g.metadata["rule"] for g in edited} == {"PN", "RS", "US", "AR", "HS"}
    assert all(g.metadata["source-id"] in ids and g.metadata["edit"] for g in edited)


def test_alignments_point_at_the_right_words(corpus):
    _, amr = corpus
    by_id = {g.metadata["id"]: g for g in penman.load(str(amr))}
    source = by_id["L1.src"]  # The cat chased the mouse .
    pairs = dict(p.split("-") for p in source.metadata["alignments"].split())
    toks = source.metadata["tok"].split()
    assert {toks[int(i)]: _addressed(source, a) for i, a in pairs.items()} == {
        "cat": "cat", "chased": "chase-01", "mouse": "mouse"
    }
    negated = next(g for g in by_id.values() if g.metadata["snt"] == "The cat did not chase the mouse.")
    pairs = dict(p.split("-") for p in negated.metadata["alignments"].split())
    not_at = str(negated.metadata["tok"].split().index("not"))
    assert _addressed(negated, pairs[not_at]) == "-"  # "not" is the :polarity the edit added
    swapped = next(g for g in by_id.values() if g.metadata["snt"] == "The mouse chased the cat.")
    toks = swapped.metadata["tok"].split()
    got = {toks[int(i)]: _addressed(swapped, a) for i, a in (p.split("-") for p in swapped.metadata["alignments"].split())}
    assert got == {"mouse": "mouse", "chased": "chase-01", "cat": "cat"}


def test_amrlib_reads_the_corpus(corpus):
    pytest.importorskip("amrlib")
    from amrlib.graph_processing.amr_loading import load_amr_entries, split_amr_meta

    _, amr = corpus
    entries = load_amr_entries(str(amr))
    assert len(entries) == len(penman.load(str(amr)))
    meta, graph = split_amr_meta(entries[1])
    assert meta[0].startswith("# ::id ") and graph[0].lstrip().startswith("(")


def test_foil_tokens_and_isi_helpers():
    toks, kept, new = foil_tokens("The dog chased the cat.", ["The", "dog", "chased", "the", "cat", "."],
                                  "The cat chased the dog.")  # fmt: skip
    assert toks == ["The", "cat", "chased", "the", "dog", "."] and kept[2] == 2 and {1, 4} <= new
    tree = penman.parse("(a / and :op1 (b / boy) :op2 (g / girl :polarity -) :op3 b)")
    assert isi_addresses(tree) == {"a": "1", "b": "1.1", "g": "1.2", "g:polarity": "1.2.1"}
    assert isi_alignments(tree, {"g": [3], "b": [1], "zz": [0]}) == "1-1.1 3-1.2"
