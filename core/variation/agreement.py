"""Do models agree on a book's semantic structure? Pearson maps and PAF / NAF / DDAF, full and blocked.

For models ``A`` and ``B`` with z-scored SSMs ``Z_A``, ``Z_B`` over the ``P = N(N-1)/2`` pairs ``i < j``:

* ``series_corr[A, B]``: Pearson correlation of the successive-similarity series;
* ``ssm_corr[A, B]``: Pearson correlation of the SSM upper triangles (z-scoring does not change it);
* ``paf[A, B]``: fraction of pairs with ``Z_A > t`` and ``Z_B > t`` (positive agreement);
* ``naf[A, B]``: fraction with ``Z_A < -t`` and ``Z_B < -t`` (negative agreement);
* ``ddaf[A, B]``: fraction with ``Z_A > t`` and ``Z_B < -t`` (A says similar, B says dissimilar):
  asymmetric, ``ddaf[B, A]`` is the other disagreement. ``paf + naf + ddaf + ddafᵀ = 1`` when ``t = 0``
  and no ``z`` is exactly 0. The diagonal of ``paf`` is each model's fraction of positive pairs.

:func:`agreement_full` builds every model's matrix (the reference; memory ``N² × models``).
:func:`agreement_blocked` never holds an ``N×N`` matrix: the SSM statistics come from ``d×d`` Gram
matrices (:func:`core.variation.ssm.ssm_stats`), then one pass over row blocks of the upper
triangle, all models at once, accumulates in float64 the sums and cross-products of the centred
similarities and the sign-count products. Both give the same numbers (a test checks it).

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> embs = {"a": rng.normal(size=(30, 8)), "b": rng.normal(size=(30, 8))}
>>> embs["c"] = embs["a"] + 0.1 * rng.normal(size=(30, 8))
>>> full, blocked = agreement_full(embs), agreement_blocked(embs, block_rows=7)
>>> bool(np.allclose(full.ssm_corr, blocked.ssm_corr) and np.array_equal(full.paf, blocked.paf))
True
>>> round(float(blocked.ssm_corr[0, 2]), 2) > 0.9 > round(float(blocked.ssm_corr[0, 1]), 2)
True
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from core.errors import InputError
from core.progress import ProgressCallback, check_cancel, report
from core.variation.ssm import (
    PoolAccumulator,
    SSMParams,
    SSMStats,
    block_rows_for,
    iter_upper_blocks,
    normalise,
    similarity_matrix,
    ssm_stats,
    ssm_stats_full,
    successive_series,
    upper_block,
)

MATRICES = ("series_corr", "ssm_corr", "paf", "naf", "ddaf")


@dataclass(frozen=True)
class Agreement:
    """Model-by-model agreement for one book (or the mean over books, with ``std`` per matrix)."""

    models: tuple[str, ...]
    n: int
    n_pairs: int
    series_corr: np.ndarray
    ssm_corr: np.ndarray
    paf: np.ndarray
    naf: np.ndarray
    ddaf: np.ndarray
    stats: Mapping[str, SSMStats]
    params: SSMParams
    method: str = "blocked"  # "full" | "blocked" | "mean"
    block_rows: int | None = None
    books: int = 1
    std: Mapping[str, np.ndarray] = field(default_factory=dict)

    def matrix(self, name: str) -> np.ndarray:
        if name not in MATRICES:
            raise KeyError(name)
        return getattr(self, name)

    def to_json(self) -> dict[str, object]:
        """Plain lists (NaN becomes None), the model order and how it was computed."""

        def clean(m: np.ndarray) -> list[list[float | None]]:
            return [[None if not np.isfinite(v) else float(v) for v in row] for row in m]

        out: dict[str, object] = {
            "models": list(self.models),
            "n_sentences": self.n,
            "n_pairs": self.n_pairs,
            "method": self.method,
            "block_rows": self.block_rows,
            "books": self.books,
            "params": self.params.to_json(),
            "ssm_stats": {m: s.to_json() for m, s in self.stats.items()},
        }
        for name in MATRICES:
            out[name] = clean(self.matrix(name))
        if self.std:
            out["std"] = {k: clean(v) for k, v in self.std.items()}
        return out

    def ranked_pairs(self, name: str = "ssm_corr") -> list[tuple[str, str, float]]:
        """Unordered model pairs, most agreeing first (by ``name``; ``ddaf`` ranks by ``ddaf + ddafᵀ``, least first)."""
        m = self.matrix(name)
        if name == "ddaf":
            m = -(m + m.T)
        pairs = [
            (self.models[i], self.models[j], float(m[i, j]))
            for i in range(len(self.models))
            for j in range(i + 1, len(self.models))
        ]
        pairs.sort(key=lambda p: -p[2] if np.isfinite(p[2]) else np.inf)
        if name == "ddaf":
            pairs = [(a, b, -v) for a, b, v in pairs]
        return pairs


def _prepare(embeddings: Mapping[str, np.ndarray]) -> tuple[tuple[str, ...], list[np.ndarray]]:
    if not embeddings:
        raise InputError("no embeddings given", hint="name at least one model")
    names = tuple(embeddings)
    mats = [normalise(embeddings[m], name=m) for m in names]
    n = mats[0].shape[0]
    for m, E in zip(names, mats, strict=True):
        if E.shape[0] != n:
            raise InputError(f"model {m} has {E.shape[0]} sentence vectors, expected {n}", hint="encode the same sentences")
    if n < 3:
        raise InputError(f"need at least 3 sentences, got {n}", hint="give a longer text")
    return names, mats


def _corr_from_moments(sums: np.ndarray, cross: np.ndarray, count: int) -> np.ndarray:
    cov = cross - np.outer(sums, sums) / count
    var = np.diag(cov).copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = np.sqrt(np.outer(var, var))
        corr = np.where(denom > 1e-300, cov / np.where(denom > 1e-300, denom, 1.0), np.nan)
    return np.clip(corr, -1.0, 1.0)


def _series_corr(series: Sequence[np.ndarray]) -> np.ndarray:
    X = np.vstack(series).astype(np.float64)
    X = X - X.mean(axis=1, keepdims=True)
    return _corr_from_moments(X.sum(axis=1), X @ X.T, X.shape[1])


def agreement_full(
    embeddings: Mapping[str, np.ndarray], params: SSMParams | None = None
) -> Agreement:
    """The reference computation: every model's full z-scored SSM in memory at once (small ``N`` only)."""
    params = params or SSMParams()
    names, mats = _prepare(embeddings)
    n = mats[0].shape[0]
    iu = np.triu_indices(n, k=1)
    stats, uppers, series = {}, [], []
    for m, E in zip(names, mats, strict=True):
        S = similarity_matrix(E)
        st = ssm_stats_full(S, params)
        Z = st.z(S)
        stats[m] = st
        uppers.append(Z[iu])
        series.append(np.diagonal(Z, offset=1).copy())
    U = np.vstack(uppers)
    pos = np.greater(U, params.threshold)
    neg = np.less(U, -params.threshold)
    k = len(names)
    paf, naf, ddaf = (np.zeros((k, k)) for _ in range(3))
    for a in range(k):
        for b in range(k):
            paf[a, b] = np.count_nonzero(pos[a] & pos[b])
            naf[a, b] = np.count_nonzero(neg[a] & neg[b])
            ddaf[a, b] = np.count_nonzero(pos[a] & neg[b])
    with np.errstate(invalid="ignore", divide="ignore"):
        ssm_corr = np.corrcoef(U) if k > 1 else np.ones((1, 1))
    ssm_corr = np.where(np.isfinite(ssm_corr), np.clip(ssm_corr, -1, 1), np.nan)
    pairs = U.shape[1]
    return Agreement(
        names, n, pairs, _series_corr(series), ssm_corr, paf / pairs, naf / pairs, ddaf / pairs,
        stats, params, method="full",
    )


@dataclass
class BlockedResult:
    """The blocked pass's outputs: the agreement, each model's series and (optionally) pooled SSMs."""

    agreement: Agreement
    series: dict[str, np.ndarray]
    pooled: dict[str, np.ndarray]


def agreement_blocked(
    embeddings: Mapping[str, np.ndarray],
    params: SSMParams | None = None,
    *,
    block_rows: int | None = None,
    memory_mb: float = 128,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> Agreement:
    """The same :class:`Agreement` as :func:`agreement_full`, in memory ``O(N × block × models)``."""
    return analyse_blocked(
        embeddings, params, block_rows=block_rows, memory_mb=memory_mb, progress=progress, cancel=cancel
    ).agreement


def analyse_blocked(
    embeddings: Mapping[str, np.ndarray],
    params: SSMParams | None = None,
    *,
    block_rows: int | None = None,
    memory_mb: float = 128,
    pool_size: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> BlockedResult:
    """One blocked pass: agreement matrices, series and (with ``pool_size``) tile-averaged z-SSMs for heatmaps."""
    params = params or SSMParams()
    names, mats = _prepare(embeddings)
    n, k = mats[0].shape[0], len(names)
    stats = {m: ssm_stats(E, params) for m, E in zip(names, mats, strict=True)}
    series = {m: successive_series(E, stats[m]) for m, E in zip(names, mats, strict=True)}
    rows = block_rows or block_rows_for(n, k, memory_mb)
    rows = max(1, min(rows, n, (1 << 24) // n))
    means = np.array([stats[m].mean if not stats[m].degenerate else 0.0 for m in names])
    cuts = np.array([params.threshold * stats[m].std if not stats[m].degenerate else np.inf for m in names])
    sums = np.zeros(k)
    cross = np.zeros((k, k))
    c_pos, c_neg, c_dd = (np.zeros((k, k)) for _ in range(3))
    pools = {m: PoolAccumulator(n, pool_size) for m in names} if pool_size else {}
    cap = rows * (rows - 1) // 2 + rows * max(n - rows, 0)
    X = np.empty((k, cap), dtype=np.float64)
    P = np.empty((k, cap), dtype=np.float32)
    Q = np.empty((k, cap), dtype=np.float32)
    blocks = list(iter_upper_blocks(n, rows))
    for done, (r0, r1) in enumerate(blocks):
        check_cancel(cancel)
        b = r1 - r0
        iu = np.triu_indices(b, k=1)
        kt = len(iu[0])
        size = kt + b * (n - r1)
        for a, m in enumerate(names):
            S = upper_block(mats[a], r0, r1)
            if pools:
                pools[m].add(r0, r1, stats[m].z(S))
            x = X[a, :size]
            x[:kt] = S[:, :b][iu]
            x[kt:].reshape(b, n - r1)[...] = S[:, b:]
            x -= means[a]
            del S
        x = X[:, :size]
        p, q = P[:, :size], Q[:, :size]
        np.greater(x, cuts[:, None], out=p, casting="unsafe")
        np.less(x, -cuts[:, None], out=q, casting="unsafe")
        sums += x.sum(axis=1)
        cross += x @ x.T
        c_pos += (p @ p.T).astype(np.float64)
        c_neg += (q @ q.T).astype(np.float64)
        c_dd += (p @ q.T).astype(np.float64)
        report(progress, done + 1, len(blocks))
    pairs = n * (n - 1) // 2
    if k > 1:
        ssm_corr = _corr_from_moments(sums, cross, pairs)
        for a, m in enumerate(names):
            if stats[m].degenerate:
                ssm_corr[a, :] = ssm_corr[:, a] = np.nan
    else:
        ssm_corr = np.ones((1, 1))
    agreement = Agreement(
        names, n, pairs, _series_corr([series[m] for m in names]), ssm_corr,
        c_pos / pairs, c_neg / pairs, c_dd / pairs, stats, params, method="blocked", block_rows=rows,
    )
    pooled = {m: acc.result() for m, acc in pools.items()}
    return BlockedResult(agreement, series, pooled)


def mean_agreement(results: Sequence[Agreement]) -> Agreement:
    """Average the matrices of several books (same models, same order); ``std`` holds the spread."""
    if not results:
        raise InputError("no per-book results to average")
    models = results[0].models
    for r in results:
        if r.models != models:
            raise InputError("books were analysed with different models", hint="use one --models list for all")
    means: dict[str, np.ndarray] = {}
    stds: dict[str, np.ndarray] = {}
    for name in MATRICES:
        stack = np.stack([r.matrix(name) for r in results])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN cells stay NaN
            means[name] = np.nanmean(stack, axis=0)
            stds[name] = np.nanstd(stack, axis=0)
    return Agreement(
        models, sum(r.n for r in results), sum(r.n_pairs for r in results),
        means["series_corr"], means["ssm_corr"], means["paf"], means["naf"], means["ddaf"],
        {}, results[0].params, method="mean", books=len(results), std=stds,
    )
