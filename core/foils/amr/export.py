"""An AMR corpus (``.amr``) of foil records: every source graph once, then each edited graph.

Each entry carries ``# ::id``, ``# ::snt``, ``# ::tok`` and ISI-style ``# ::alignments``
(``token-address``: 0-based token, root ``1``, the i-th branch of a node ``.i``, attributes
included), and edited graphs the edit as metadata (``::source-id``, ``::rule``, ``::variant``,
``::edit``, ``::nodes``, ``::kept``). penman and amrlib read the file.

Alignments of an edited graph are derived: tokens the foil keeps (found by a character diff of
sentence and foil) keep their nodes; a node whose words moved (RS) is matched to the same word
in the foil; an edited node, or an attribute the edit added (PN's ``:polarity``), is aligned to
the new tokens inside the foil's changed spans.

>>> import penman
>>> isi_alignments(penman.parse("(c / chase-01 :ARG0 (d / dog :polarity -))"), {"c": [2], "d": [1], "d:polarity": [0]})
'0-1.1.1 1-1.1 2-1'
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.record import FoilRecord, as_foil
from core.textio import atomic_writer

_WORD = re.compile(r"\w+(?:'\w+)?|n't|[^\w\s]")


def isi_addresses(tree: Any) -> dict[str, str]:
    """ISI addresses of a penman tree's nodes (``var``) and attributes (``var:role``, e.g. ``d:polarity``)."""
    out: dict[str, str] = {}

    def walk(node: Any, address: str) -> None:
        var, branches = node
        out.setdefault(var, address)
        i = 0
        for role, target in branches:
            if role == "/":
                continue
            i += 1
            child = f"{address}.{i}"
            if isinstance(target, tuple):
                walk(target, child)
            elif target not in out:  # a constant (a re-entrant variable keeps its first address)
                out.setdefault(f"{var}{role}", child)

    walk(tree.node, "1")
    return out


def isi_alignments(tree: Any, alignment: Mapping[str, Sequence[int]]) -> str:
    """``# ::alignments`` text: ``token-address`` pairs sorted by token, for keys present in the tree."""
    addresses = isi_addresses(tree)
    pairs = sorted((int(i), addresses[key]) for key, idx in alignment.items() if key in addresses for i in idx)
    return " ".join(f"{i}-{a}" for i, a in pairs)


def _offsets(text: str, tokens: Sequence[str]) -> list[tuple[int, int]]:
    """Character span of each token, found left to right (a token not found gets an empty span)."""
    spans, pos = [], 0
    for tok in tokens:
        at = text.find(tok, pos)
        if at < 0:
            spans.append((pos, pos))
            continue
        spans.append((at, at + len(tok)))
        pos = at + len(tok)
    return spans


def foil_tokens(source: str, tokens: Sequence[str], foil: str) -> tuple[list[str], dict[int, int], set[int]]:
    """The foil's tokens, the map source token → foil token for tokens kept verbatim, and the new tokens.

    >>> toks, kept, new = foil_tokens("The cat sat .", ["The", "cat", "sat", "."], "The cat did not sit .")
    >>> toks, kept, sorted(new)
    (['The', 'cat', 'did', 'not', 'sit', '.'], {0: 0, 1: 1, 3: 5}, [2, 3, 4])
    """
    source_spans = _offsets(source, tokens)
    equal = [b for b in difflib.SequenceMatcher(None, source, foil, autojunk=False).get_opcodes() if b[0] == "equal"]
    placed: list[tuple[int, int, int | None]] = []  # foil start, end, source token index
    for k, (s, e) in enumerate(source_spans):
        for _, i1, i2, j1, _j2 in equal:
            if i1 <= s and e <= i2 and e > s:
                placed.append((j1 + s - i1, j1 + e - i1, k))
                break
    covered = [False] * len(foil)
    for s, e, _ in placed:
        covered[s:e] = [True] * (e - s)
    for m in _WORD.finditer(foil):
        if not any(covered[m.start() : m.end()]):
            placed.append((m.start(), m.end(), None))
    placed.sort()
    out = [foil[s:e] for s, e, _ in placed]
    kept = {k: j for j, (_, _, k) in enumerate(placed) if k is not None}
    new = {j for j, (_, _, k) in enumerate(placed) if k is None}
    return out, kept, new


def _edited_alignment(record: FoilRecord, tokens: Sequence[str], foil_toks: list[str], kept: dict[int, int],
                      new: set[int], tree: Any) -> dict[str, list[int]]:  # fmt: skip
    spans = record.changed_spans
    starts = _offsets(str(record.foil), foil_toks)
    in_change = {j for j in new if any(s < starts[j][1] and starts[j][0] < e for s, e in spans)} or new
    out: dict[str, list[int]] = {}
    edited = set(record.nodes)
    for key, idx in record.alignment.items():
        mapped = [kept[i] for i in idx if i in kept]
        if not mapped:  # the words moved or changed: the same words among the new tokens, else the changed span
            words = {tokens[i].lower() for i in idx if i < len(tokens)}
            mapped = sorted(j for j in in_change if foil_toks[j].lower() in words)
            if not mapped and key.split(":")[0] in edited:
                mapped = sorted(in_change)
        if mapped:
            out[key] = mapped
    for key in isi_addresses(tree):  # an attribute the edit added (PN ``:polarity``) on an edited node
        if ":" in key and key not in out and key.split(":")[0] in edited:
            out[key] = sorted(in_change)
    return out


def _entry(graph_text: str, metadata: Mapping[str, str]) -> str:
    import penman

    graph = penman.decode(graph_text)
    graph.metadata = {k: str(v).replace("\n", " ") for k, v in metadata.items() if v not in (None, "")}
    return penman.encode(graph, indent=6)


def amr_entries(records: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    """Penman entries (metadata + graph) for the source graphs (once per sentence) and every edited graph."""
    import penman

    seen: set[str] = set()
    ids: dict[str, int] = {}
    for r in map(as_foil, records):
        if not r.has_foil or not r.graph_before or not r.graph_after:  # foil None: a refused edit, no graph to write
            continue
        foil = str(r.foil)
        source_tree = penman.parse(r.graph_before)
        tokens = source_tree.metadata.get("tok", "").split()
        source_id = f"{r.row_id or r.id.split(':')[0]}.src"
        alignment = {k: list(v) for k, v in r.alignment.items()}
        if source_id not in seen:
            seen.add(source_id)
            yield _entry(r.graph_before, {
                "id": source_id, "snt": r.source, "tok": " ".join(tokens),
                "alignments": isi_alignments(source_tree, alignment),
            })  # fmt: skip
        edited_tree = penman.parse(r.graph_after)
        foil_toks, kept, new = foil_tokens(r.source, tokens, foil)
        aligned = _edited_alignment(r, tokens, foil_toks, kept, new, edited_tree)
        ids[r.id] = ids.get(r.id, 0) + 1  # two foils of one edit (e.g. two antonyms) get .2, .3, ...
        yield _entry(r.graph_after, {
            "id": r.id if ids[r.id] == 1 else f"{r.id}.{ids[r.id]}", "snt": foil, "tok": " ".join(foil_toks),
            "alignments": isi_alignments(edited_tree, aligned), "source-id": source_id,
            "rule": r.rule, "variant": r.variant, "edit": r.description,
            "nodes": " ".join(r.nodes), "kept": str(r.kept).lower(),
        })  # fmt: skip


def write_amr_corpus(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Write the ``.amr`` corpus atomically (entries separated by a blank line). Returns the number of graphs."""
    n = 0
    with atomic_writer(path) as fh:
        for entry in amr_entries(records):
            fh.write(entry + "\n\n")
            n += 1
    return n
