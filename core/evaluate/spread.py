"""Evaluating several embedders with the models spread over workers, then merged into one result.

Each model is one task (:func:`core.engines.run_tasks`): a worker loads that model, embeds
with its own on-disk cache (``--cache-dir`` when given, else the worker's own data folder)
and scores it exactly as :func:`core.evaluate.evaluation.evaluate_triples` does in one process; the
driver puts the models back in the order asked. Scores do not depend on the engine: each
model's bootstrap uses the run seed, whichever worker computes it. A worker that dies has its
model retried, then that model is reported as failed with the reason; the others go on.

    result = evaluate_spread(triples, ["bow", "minilm"], EngineSpec("dask", workers=2), settings=settings)
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from core.config import Settings, apply_overrides
from core.engines import EngineSpec, run_tasks
from core.evaluate.evaluation import _as_triple_set, _dataset_summary, evaluate_triples
from core.evaluate.results import EvalResult, ModelResult
from core.progress import ProgressCallback, report


def _evaluate_one(ts: Any, name: str, cache_dir: str | None, cache_enabled: bool, seed: int,
                  settings: Settings, kwargs: Mapping[str, Any]) -> EvalResult:  # fmt: skip
    """Worker side: one model on the whole triple set, with this worker's embedding cache."""
    from core.embed.cache import EmbeddingCache

    cache = EmbeddingCache(cache_dir or settings.cache_dir(), enabled=cache_enabled)
    return evaluate_triples(ts, [name], cache, seed, settings=settings, **kwargs)


def evaluate_spread(
    triples: Any,
    names: Sequence[str],
    engine: EngineSpec,
    *,
    settings: Settings | None = None,
    cache_dir: str | None = None,
    cache_enabled: bool = True,
    seed: int = 13,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    **kwargs: Any,
) -> EvalResult:
    """Score ``names`` on ``triples`` with one task per model on ``engine``; ``kwargs`` go to
    :func:`~core.evaluate.evaluation.evaluate_triples` (``ties``, ``n_boot``, ``level``, ``overrides``)."""
    settings = settings or Settings()
    ts = _as_triple_set(triples)
    names = list(dict.fromkeys(n.strip() for n in names if n.strip()))
    if engine.name == "local" or len(names) < 2:
        from core.embed.cache import EmbeddingCache

        cache = EmbeddingCache(cache_dir or settings.cache_dir(), enabled=cache_enabled)
        return evaluate_triples(ts, names, cache, seed, progress, cancel, settings=settings, **kwargs)
    if settings.models.threads == 0 and not engine.address:  # workers share this machine: split its cores
        settings = apply_overrides(settings, {"models.threads": max(1, (os.cpu_count() or 1) // engine.workers)})
    started = time.perf_counter()
    unique = len(ts.unique_texts())
    tasks = ((i, (ts, name, cache_dir, cache_enabled, seed, settings, dict(kwargs))) for i, name in enumerate(names))
    models: dict[int, ModelResult] = {}
    first: EvalResult | None = None
    for outcome in run_tasks(engine, _evaluate_one, tasks, cancel=cancel):
        if outcome.error is not None:
            models[outcome.key] = ModelResult(
                name=names[outcome.key], ok=False, error=f"worker failed: {outcome.error}",
                hint=f"tried {outcome.attempts} time(s); the other models were still evaluated",
            )  # fmt: skip
        else:
            first = first or outcome.value
            models[outcome.key] = outcome.value.models[0]
        report(progress, len(models) * unique, len(names) * unique)
    dataset = first.dataset if first is not None else _dataset_summary(ts, unique)
    params = dict(first.params) if first is not None else {
        "seed": seed, "ties": kwargs.get("ties", "strict"), "n_boot": kwargs.get("n_boot", 1000),
        "ci_level": kwargs.get("level", 0.95), "overrides": {k: dict(v) for k, v in (kwargs.get("overrides") or {}).items()},
    }  # fmt: skip
    params["models"] = names
    provenance = {
        **(first.provenance if first is not None else {}),
        "seconds": round(time.perf_counter() - started, 3),
        "engine": dataclasses.asdict(engine),
    }
    return EvalResult(models=[models[i] for i in range(len(names))], dataset=dataset, params=params, provenance=provenance)
