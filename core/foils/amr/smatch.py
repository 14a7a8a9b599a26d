"""Score parsers against gold AMR with Smatch (the ``smatch`` package, 1.0.4), deterministically.

Gold files hold ``# ::snt`` lines followed by PENMAN graphs, separated by blank lines (the AMR
release format). :func:`corpus_smatch` sums matched/predicted/gold triple counts over the corpus
(smatch's corpus score, not a mean of sentence scores). Smatch's hill climbing restarts from random
node mappings and reseeds Python's global RNG from the clock on every restart; here each pair gets
its own ``random.Random(seed)``, so the score is the same on every run and does not touch the
global RNG.

>>> g = penman.decode("(c / chase-01 :ARG0 (d / dog) :ARG1 (c2 / cat))")
>>> p = penman.decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (d / dog))")
>>> corpus_smatch([g], [g])["f1"]
1.0
>>> round(corpus_smatch([p], [g])["f1"], 3)
0.667
"""

from __future__ import annotations

import io
import os
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import penman

from core.errors import GraphError, InputError
from core.progress import ProgressCallback, check_cancel, report
from core.provenance import environment, file_sha256, timestamp
from core.textio import read_text

_LOCK = threading.Lock()  # smatch keeps its state in module globals


class _PairRandom:
    """Stands in for the ``random`` module inside smatch: ``seed()`` without arguments does nothing."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            self._rng.seed(*args, **kwargs)

    def randint(self, a: int, b: int) -> int:
        return self._rng.randint(a, b)


def read_gold(path: str | os.PathLike[str]) -> list[tuple[str, penman.Graph]]:
    """``(sentence, graph)`` for every graph in an AMR file, in file order.

    Raises :class:`InputError` for a missing file, :class:`GraphError` (naming the graph's line)
    for a graph penman cannot read.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"gold AMR file not found: {p}", hint="pass a file of '# ::snt' lines and PENMAN graphs")
    text = read_text(p)  # the encoding sniffing every reader uses (UTF-16 gold files too)
    out: list[tuple[str, penman.Graph]] = []
    block: list[str] = []
    start = 0
    for lineno, line in enumerate([*text.splitlines(), ""], start=1):
        if line.strip():
            if not block:
                start = lineno
            block.append(line)
            continue
        if not block:
            continue
        chunk = "\n".join(block)
        block = []
        if not any(b.lstrip().startswith("(") for b in chunk.splitlines()):
            continue  # a comment-only block (file header)
        try:
            graph = penman.decode(chunk)
        except penman.DecodeError as exc:
            where = f" (line {start + (exc.lineno or 1) - 1}, column {exc.offset})" if exc.offset is not None else ""
            raise GraphError(
                f"{p.name}: the graph starting at line {start} cannot be read: {exc.message}{where}",
                hint="check its parentheses and ':role value' pairs",
            ) from exc
        out.append((graph.metadata.get("snt", ""), graph))
    if not out:
        raise InputError(f"no AMR graphs found in {p}", hint="graphs are PENMAN blocks separated by blank lines")
    return out


def _one_line(graph: penman.Graph) -> str:
    """The graph as one PENMAN line without metadata (what smatch's reader expects)."""
    bare = penman.Graph(graph.triples, top=graph.top, epidata=graph.epidata)
    return penman.encode(bare, indent=None)


def _smatch_amr(graph: penman.Graph | str, which: str, index: int) -> Any:
    import amr as smatch_amr  # the reader module shipped with smatch

    try:
        if isinstance(graph, str):
            graph = penman.decode(graph)  # penman's reader names the offending position
        line = _one_line(graph)
    except penman.DecodeError as exc:
        raise GraphError(f"{which} graph {index} is not valid PENMAN: {exc}", hint="check its parentheses") from exc
    except Exception as exc:  # penman layout errors on malformed graphs
        raise GraphError(f"{which} graph {index} cannot be encoded: {exc}", hint="validate the graph") from exc
    log = io.StringIO()
    old = smatch_amr.ERROR_LOG
    smatch_amr.ERROR_LOG = log
    try:
        parsed = smatch_amr.AMR.parse_AMR_line(line)
    except Exception as exc:
        parsed = None
        log.write(str(exc))
    finally:
        smatch_amr.ERROR_LOG = old
    if parsed is None:
        detail = log.getvalue().strip().splitlines()
        raise GraphError(
            f"{which} graph {index} cannot be read by smatch: {detail[-1] if detail else line[:80]}",
            hint="each graph must be one rooted PENMAN graph with unique variables",
        )
    return parsed


def pair_counts(
    pred: penman.Graph | str, gold: penman.Graph | str, *, seed: int = 0, restarts: int = 4, index: int = 0
) -> tuple[int, int, int]:
    """``(matched, predicted, gold)`` triple counts of one pair, as smatch counts them."""
    import smatch

    a = _smatch_amr(pred, "predicted", index)
    b = _smatch_amr(gold, "gold", index)
    a.rename_node("a")
    b.rename_node("b")
    inst1, attr1, rel1 = a.get_triples()
    inst2, attr2, rel2 = b.get_triples()
    with _LOCK:
        old_random, old_iter = smatch.random, smatch.iteration_num
        smatch.random = _PairRandom(seed)
        smatch.iteration_num = restarts + 1
        smatch.match_triple_dict.clear()
        try:
            _, matched = smatch.get_best_match(inst1, attr1, rel1, inst2, attr2, rel2, "a", "b")
        finally:
            smatch.match_triple_dict.clear()
            smatch.random, smatch.iteration_num = old_random, old_iter
    return matched, len(inst1) + len(attr1) + len(rel1), len(inst2) + len(attr2) + len(rel2)


def gold_size(gold: penman.Graph | str, index: int = 0) -> int:
    """How many triples smatch counts in a gold graph (what a missing prediction loses in recall)."""
    inst, attr, rel = _smatch_amr(gold, "gold", index).get_triples()
    return len(inst) + len(attr) + len(rel)


def corpus_smatch(
    pred: Sequence[penman.Graph | str | None],
    gold: Sequence[penman.Graph | str],
    *,
    seed: int = 0,
    restarts: int = 4,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> dict[str, float]:
    """Corpus Smatch: precision, recall and F1 from triple counts summed over all pairs.

    ``restarts`` random restarts per pair (smatch's default ``-r 4``); ``seed`` fixes them.
    A ``None`` prediction (a sentence the parser could not parse) is a miss: its gold
    triples count in recall, it earns nothing in precision.
    Returns ``{"precision", "recall", "f1", "n", "matched", "predicted", "gold", "seed", "restarts"}``.
    """
    if len(pred) != len(gold):
        raise InputError(
            f"{len(pred)} predicted graphs for {len(gold)} gold graphs",
            hint="score the same sentences in the same order",
        )
    matched = n_pred = n_gold = 0
    for n, (p, g) in enumerate(zip(pred, gold, strict=True)):
        check_cancel(cancel)
        m, tp, tg = (
            pair_counts(p, g, seed=seed + n, restarts=restarts, index=n) if p is not None else (0, 0, gold_size(g, n))
        )
        matched += m
        n_pred += tp
        n_gold += tg
        report(progress, n + 1, len(pred))
    precision = matched / n_pred if n_pred else 0.0
    recall = matched / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "n": len(pred),
        "matched": matched,
        "predicted": n_pred,
        "gold": n_gold,
        "seed": seed,
        "restarts": restarts,
    }


def score_parser(
    parser: Any,
    gold_path: str | os.PathLike[str],
    *,
    limit: int | None = None,
    seed: int = 0,
    restarts: int = 4,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> dict[str, Any]:
    """Parse the gold file's sentences with ``parser`` and score them.

    A sentence the parser rejects is a zero-recall miss (its placeholder graph is not scored:
    it used to earn precision with nothing parsed); ``unparsed`` lists their indices."""
    gold = read_gold(gold_path)
    if limit is not None:
        gold = gold[: max(0, limit)]
    sentences = [s for s, _ in gold]
    check_cancel(cancel)
    parsed = parser.parse(sentences)
    scores: dict[str, Any] = dict(
        corpus_smatch(
            [p.graph if p.ok else None for p in parsed],
            [g for _, g in gold],
            seed=seed,
            restarts=restarts,
            progress=progress,
            cancel=cancel,
        )
    )
    scores["parse_errors"] = sum(1 for p in parsed if not p.ok)
    scores["unparsed"] = [i for i, p in enumerate(parsed) if not p.ok]
    scores["gold_file"] = str(gold_path)
    scores["parser"] = getattr(parser, "name", type(parser).__name__)
    scores["provenance"] = {
        "environment": environment(extra=("smatch",)),
        "parser": dict(getattr(parser, "info", {}) or {}),
        "gold_sha256": file_sha256(gold_path),
        "limit": limit,
        "time": timestamp(),
    }
    return scores
