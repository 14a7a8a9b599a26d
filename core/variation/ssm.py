"""Sentence similarity matrices (SSMs) of one model: definitions, exact statistics, blocked access.

Definitions (design card §2, parameters in :class:`SSMParams`):

* ``S = E Eᵀ`` with ``E`` the L2-normalised sentence embeddings (cosine similarity). A zero row
  (a sentence a lexical model has no features for) stays zero: its similarities are 0.
* **z-scoring scope** ``diagonal="exclude"`` (default, the paper's choice): the mean and standard
  deviation are taken over the ``N(N-1)`` off-diagonal entries, because the diagonal is 1 by
  construction and would inflate both. ``"include"`` uses all ``N²`` entries. ``ddof`` is the
  degrees-of-freedom correction of the standard deviation (0: population).
* The z-scored SSM is ``Z = (S - mean) / std``. Its diagonal is computed like any entry but is
  never used by a statistic: pair statistics run over the ``N(N-1)/2`` pairs ``i < j``.
* The **successive-similarity series** is the first super-diagonal ``Z[i, i+1]``, ``i = 0..N-2``.

The statistics need no ``N×N`` matrix at all: ``ΣS = ‖Σᵢ eᵢ‖²`` and ``ΣS² = ‖EᵀE‖²_F`` (a ``d×d``
Gram matrix), minus the diagonal terms. Everything else that needs ``S`` walks it in row blocks
of the upper triangle (:func:`iter_upper_blocks`), so memory grows with ``N × block``.

>>> import numpy as np
>>> E = normalise(np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [0.8, 0.6]]))
>>> st = ssm_stats(E)
>>> full = similarity_matrix(E)[~np.eye(4, dtype=bool)]
>>> bool(np.isclose(st.mean, full.mean()) and np.isclose(st.std, full.std()))
True
>>> np.round(successive_series(E, st), 3).tolist()
[-0.087, 0.565, -0.087]
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from core.errors import ConfigError, InputError
from core.progress import ProgressCallback, check_cancel, report

DIAGONAL_MODES = ("exclude", "include")


@dataclass(frozen=True)
class SSMParams:
    """How an SSM is z-scored and how its signs are read (documented in the module doc).

    ``threshold``: a pair is *positive* when ``z > threshold`` and *negative* when ``z < -threshold``
    (0: the paper's sign split; pairs with ``|z| <= threshold`` count as neither).
    """

    diagonal: str = "exclude"
    ddof: int = 0
    threshold: float = 0.0

    def __post_init__(self) -> None:
        if self.diagonal not in DIAGONAL_MODES:
            raise ConfigError(f"unknown diagonal mode {self.diagonal!r}", hint="use 'exclude' or 'include'")
        if self.ddof not in (0, 1):
            raise ConfigError(f"ddof must be 0 or 1, not {self.ddof}", hint="0: population std, 1: sample std")
        if self.threshold < 0:
            raise ConfigError(f"threshold must be >= 0, not {self.threshold}", hint="0 splits pairs by sign")

    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class SSMStats:
    """Mean and standard deviation of one model's SSM over the z-scoring scope, and its size."""

    n: int
    mean: float
    std: float
    count: int  # how many entries the scope holds

    @property
    def degenerate(self) -> bool:
        """True when every entry is (numerically) the same: z-scores are undefined (set to 0)."""
        return not np.isfinite(self.std) or self.std <= 1e-12

    def z(self, values: np.ndarray) -> np.ndarray:
        """Z-score raw similarities with these statistics (0 where degenerate)."""
        if self.degenerate:
            return np.zeros_like(values, dtype=np.float64)
        return (values - self.mean) / self.std

    def to_json(self) -> dict[str, object]:
        return {"n": self.n, "mean": self.mean, "std": self.std, "count": self.count}


def is_sparse(E: object) -> bool:
    """True for a scipy sparse matrix (lexical baselines give one: their vocabulary is the book's)."""
    return hasattr(E, "tocsr") and hasattr(E, "nnz")


def rowdot(A: Any, B: Any) -> np.ndarray:
    """Row-wise dot products of two equally shaped matrices (dense or sparse)."""
    if is_sparse(A):
        return np.asarray(A.multiply(B).sum(axis=1), dtype=np.float64).ravel()
    return np.einsum("ij,ij->i", A, B)


def normalise(E: Any, *, name: str = "embeddings") -> Any:
    """Rows scaled to unit length, as float64 (zero rows stay zero); refuses non-finite values.

    A scipy sparse matrix stays sparse (CSR); everything below accepts either.
    """
    if is_sparse(E):
        from scipy import sparse

        M = sparse.csr_matrix(E, dtype=np.float64)
        if M.shape[0] == 0 or M.shape[1] == 0:
            raise InputError(f"{name}: expected a non-empty (sentences, dim) matrix, got shape {M.shape}")
        if not np.isfinite(M.data).all():
            raise InputError(f"{name}: embeddings contain NaN or infinite values", hint="re-encode; clear the cache")
        norms = np.sqrt(rowdot(M, M))
        inv = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
        return sparse.csr_matrix(sparse.diags(inv) @ M)
    arr = np.asarray(E, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"{name}: expected a non-empty (sentences, dim) matrix, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise InputError(f"{name}: embeddings contain NaN or infinite values", hint="re-encode; clear the cache")
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    return np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)


def ssm_stats(E: np.ndarray, params: SSMParams | None = None) -> SSMStats:
    """Exact mean/std of ``S = E Eᵀ`` over the z-scoring scope, in ``O(N d²)`` time and ``O(d²)`` memory.

    ``E`` must already be normalised (:func:`normalise`).
    """
    params = params or SSMParams()
    n = E.shape[0]
    col_sum = np.asarray(E.sum(axis=0), dtype=np.float64).ravel()
    total = float(col_sum @ col_sum)
    gram = E.T @ E
    total_sq = float(gram.multiply(gram).sum()) if is_sparse(gram) else float(np.sum(gram * gram))
    diag = rowdot(E, E)
    if params.diagonal == "exclude":
        total -= float(diag.sum())
        total_sq -= float(np.sum(diag * diag))
        count = n * (n - 1)
    else:
        count = n * n
    if count - params.ddof <= 0:
        return SSMStats(n, float("nan"), float("nan"), count)
    mean = total / count
    var = max(total_sq - count * mean * mean, 0.0) / (count - params.ddof)
    return SSMStats(n, mean, float(np.sqrt(var)), count)


def ssm_stats_full(S: np.ndarray, params: SSMParams | None = None) -> SSMStats:
    """The same statistics read off a full matrix (the reference the exact path is tested against)."""
    params = params or SSMParams()
    n = S.shape[0]
    values = S[~np.eye(n, dtype=bool)] if params.diagonal == "exclude" else S.ravel()
    if values.size - params.ddof <= 0:
        return SSMStats(n, float("nan"), float("nan"), int(values.size))
    return SSMStats(n, float(values.mean()), float(values.std(ddof=params.ddof)), int(values.size))


def similarity_matrix(E: Any) -> np.ndarray:
    """The full ``N×N`` cosine matrix (only for small ``N``: tests, the reference path, small figures)."""
    S = E @ E.T
    return S.toarray() if is_sparse(S) else S


def zscored_ssm(E: np.ndarray, params: SSMParams | None = None) -> np.ndarray:
    """The full z-scored SSM of one model (``N×N``; the reference path)."""
    S = similarity_matrix(E)
    return ssm_stats_full(S, params).z(S)


def successive_series(E: np.ndarray, stats: SSMStats, lag: int = 1) -> np.ndarray:
    """The z-scored similarity of each sentence to the one ``lag`` after it (``N - lag`` values)."""
    if lag < 1 or lag >= E.shape[0]:
        raise ConfigError(f"lag must be between 1 and {E.shape[0] - 1}, not {lag}")
    raw = rowdot(E[:-lag], E[lag:])
    return stats.z(raw)


def block_rows_for(n: int, n_models: int, memory_mb: float) -> int:
    """Rows per block so that a block's buffers (all models) stay near ``memory_mb``.

    A block of ``b`` rows holds, per model, ``b × N`` centred values (8 bytes) and two sign masks
    (4 bytes each), plus one model's raw block at a time (8 bytes, up to 24 more while a sparse
    product is densified). The count masks are float32
    and must stay exact, so a block never holds more than 2²⁴ entries.

    >>> block_rows_for(10_000, 4, 64)
    69
    """
    per_row = n * (16 * n_models + 32)
    rows = int(memory_mb * 1024 * 1024 // max(per_row, 1))
    rows = min(rows, (1 << 24) // max(n, 1), n)
    return max(rows, 1)


def iter_upper_blocks(n: int, block_rows: int) -> Iterator[tuple[int, int]]:
    """Row ranges ``[r0, r1)`` covering ``0..n`` (each block meets columns ``r0..n``)."""
    for r0 in range(0, n, block_rows):
        yield r0, min(n, r0 + block_rows)


def upper_block(E: np.ndarray, r0: int, r1: int) -> np.ndarray:
    """Raw similarities of rows ``r0:r1`` with columns ``r0:N`` (the block's share of the upper triangle).

    Entry ``[a, c]`` is the pair ``(r0 + a, r0 + c)``; only ``c > a`` are pairs ``i < j``.
    """
    S = E[r0:r1] @ E[r0:].T
    return S.toarray() if is_sparse(S) else S


def pooled_zssm(
    E: np.ndarray,
    stats: SSMStats,
    size: int = 256,
    *,
    memory_mb: float = 64,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> np.ndarray:
    """The z-scored SSM averaged over ``size×size`` tiles (for heatmaps of whole books), computed blocked.

    The diagonal is left out of every tile's mean; a tile with no off-diagonal pair is NaN.
    """
    n = E.shape[0]
    pool = PoolAccumulator(n, size)
    rows = block_rows_for(n, 1, memory_mb)
    blocks = list(iter_upper_blocks(n, rows))
    for k, (r0, r1) in enumerate(blocks):
        check_cancel(cancel)
        pool.add(r0, r1, stats.z(upper_block(E, r0, r1)))
        report(progress, k + 1, len(blocks))
    return pool.result()


class PoolAccumulator:
    """Sums of upper-triangle z-values per tile, filled block by block, mirrored at the end."""

    def __init__(self, n: int, size: int) -> None:
        self.n = n
        self.edges = np.unique(np.linspace(0, n, min(size, n) + 1).astype(np.int64))
        self.tiles = len(self.edges) - 1
        self.sums = np.zeros((self.tiles, self.tiles), dtype=np.float64)

    def add(self, r0: int, r1: int, Z: np.ndarray) -> None:
        """Add a block of z-values (rows ``r0:r1``, columns ``r0:N``); entries on/below the diagonal are ignored."""
        b = r1 - r0
        Z = Z.copy()
        Z[:, :b][np.tril_indices(b)] = 0.0
        row_starts, row_tiles = self._segments(r0, r1)
        col_starts, col_tiles = self._segments(r0, self.n)
        part = np.add.reduceat(np.add.reduceat(Z, row_starts, axis=0), col_starts, axis=1)
        self.sums[np.ix_(row_tiles, col_tiles)] += part

    def _segments(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        first = int(np.searchsorted(self.edges, lo, side="right") - 1)
        inner = self.edges[(self.edges > lo) & (self.edges < hi)]
        starts = np.concatenate([[0], inner - lo]).astype(np.int64)
        return starts, np.arange(first, first + len(starts))

    def result(self) -> np.ndarray:
        sizes = np.diff(self.edges).astype(np.float64)
        counts = np.outer(sizes, sizes)
        np.fill_diagonal(counts, sizes * (sizes - 1))
        total = self.sums + self.sums.T
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counts > 0, total / np.where(counts > 0, counts, 1), np.nan)
