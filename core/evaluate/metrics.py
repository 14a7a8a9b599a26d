"""Metrics for (sentence, paraphrase, foil) triples and for comparing model rankings.

Definitions (design card §2):

* **TACC** (triplet accuracy): the fraction of triples where the paraphrase is closer to
  the sentence than the foil, ``sim(s, p) > sim(s, f)``. The tie policy is explicit:
  ``"strict"`` (the paper; a tie is a failure), ``"lenient"`` (the released notebook's
  ``>=``; a tie is a success) or ``"half"`` (a tie counts 0.5).
* **AUC**: ROC AUC with the (s, p) similarities as positives and the (s, f) similarities
  as negatives, pooled over all triples (scikit-learn; ties count one half).
* **HM**: the harmonic mean of TACC and AUC, the paper's single score.
* **Jaccard divergence**: ``1 - |A ∩ B| / |A ∪ B|`` over the sets of lower-cased word
  tokens (:func:`words`), the lexical distance the paper's appendix reports.

>>> triplet_accuracy([0.9, 0.5, 0.7], [0.1, 0.5, 0.8])
0.3333333333333333
>>> triplet_accuracy([0.9, 0.5, 0.7], [0.1, 0.5, 0.8], ties="lenient")
0.6666666666666666
>>> roc_auc([0.9, 0.8], [0.1, 0.2])
1.0
>>> round(harmonic_mean(1.0, 0.5), 4)
0.6667
>>> round(jaccard("The cat sat.", "the cat ran"), 4)
0.5
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from core.errors import InputError

TIE_POLICIES: tuple[str, ...] = ("strict", "lenient", "half")
"""How a triple with ``sim(s, p) == sim(s, f)`` counts: 0, 1 or 0.5."""

_WORD = re.compile(r"\w+", re.UNICODE)


def _pair(
    sim_pos: Sequence[float] | np.ndarray, sim_neg: Sequence[float] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(sim_pos, dtype=np.float64).ravel()
    n = np.asarray(sim_neg, dtype=np.float64).ravel()
    if p.shape != n.shape:
        raise InputError(
            f"similarity arrays differ in length ({p.size} positives, {n.size} negatives)",
            hint="pass one (sentence, paraphrase) and one (sentence, foil) similarity per triple",
        )
    if p.size == 0:
        raise InputError("no triples to score", hint="the triple file had no usable rows")
    if not (np.isfinite(p).all() and np.isfinite(n).all()):
        raise InputError("similarities contain NaN or infinity", hint="drop the rows whose texts could not be embedded")
    return p, n


def _check_ties(ties: str) -> None:
    if ties not in TIE_POLICIES:
        raise InputError(f"unknown tie policy {ties!r}", hint=f"use one of: {', '.join(TIE_POLICIES)}")


def triplet_wins(
    sim_pos: Sequence[float] | np.ndarray, sim_neg: Sequence[float] | np.ndarray, ties: str = "strict"
) -> np.ndarray:
    """Per-triple score (1, 0, or 0.5 for a tie under ``ties="half"``) as float64.

    >>> triplet_wins([1, 0.5, 0], [0, 0.5, 1], ties="half").tolist()
    [1.0, 0.5, 0.0]
    """
    _check_ties(ties)
    p, n = _pair(sim_pos, sim_neg)
    wins = (p > n).astype(np.float64)
    tie_value = {"strict": 0.0, "lenient": 1.0, "half": 0.5}[ties]
    wins[p == n] = tie_value
    return wins


def triplet_accuracy(
    sim_pos: Sequence[float] | np.ndarray, sim_neg: Sequence[float] | np.ndarray, ties: str = "strict"
) -> float:
    """TACC: mean over triples of ``sim_pos > sim_neg`` under the tie policy ``ties``."""
    return float(triplet_wins(sim_pos, sim_neg, ties).mean())


def count_ties(sim_pos: Sequence[float] | np.ndarray, sim_neg: Sequence[float] | np.ndarray) -> int:
    """How many triples have exactly equal similarities."""
    p, n = _pair(sim_pos, sim_neg)
    return int((p == n).sum())


def roc_auc(sim_pos: Sequence[float] | np.ndarray, sim_neg: Sequence[float] | np.ndarray) -> float:
    """ROC AUC with ``sim_pos`` labelled 1 and ``sim_neg`` labelled 0 (scikit-learn)."""
    from sklearn.metrics import roc_auc_score

    p, n = _pair(sim_pos, sim_neg)
    labels = np.concatenate([np.ones(p.size), np.zeros(n.size)])
    return float(roc_auc_score(labels, np.concatenate([p, n])))


def harmonic_mean(a: float, b: float) -> float:
    """Harmonic mean of two scores in [0, 1]; 0 when both are 0.

    >>> harmonic_mean(0.0, 0.0)
    0.0
    """
    return 0.0 if a + b <= 0 else float(2.0 * a * b / (a + b))


def triplet_scores(
    sim_pos: Sequence[float] | np.ndarray, sim_neg: Sequence[float] | np.ndarray, ties: str = "strict"
) -> dict[str, float]:
    """TACC, AUC and their harmonic mean in one dict.

    >>> triplet_scores([0.9, 0.4], [0.1, 0.6])
    {'tacc': 0.5, 'auc': 0.75, 'hm': 0.6}
    """
    tacc = triplet_accuracy(sim_pos, sim_neg, ties)
    auc = roc_auc(sim_pos, sim_neg)
    return {"tacc": tacc, "auc": auc, "hm": harmonic_mean(tacc, auc)}


BOOT_CHUNK_BYTES = 32 << 20
"""Working memory of one chunk of resamples (weights and cumulative sums), whatever ``n_boot`` is."""

BOOT_MEMORY_BYTES = 1 << 30
"""The most memory a bootstrap may take in all (chunk work plus the kept resample values, 1 GiB)."""


def bootstrap_chunk_rows(n: int) -> int:
    """Resamples per chunk for ``n`` triples: about :data:`BOOT_CHUNK_BYTES` of float64 working arrays."""
    return max(1, BOOT_CHUNK_BYTES // (8 * 4 * max(1, n)))


def bootstrap_memory(n: int, n_boot: int) -> int:
    """Bytes a bootstrap of ``n_boot`` resamples over ``n`` triples needs at its peak, computed up front.

    One chunk of working arrays plus three float64 values (TACC, AUC, HM) per resample.

    >>> bootstrap_memory(50_000, 1000) < 100 << 20
    True
    """
    rows = min(n_boot, bootstrap_chunk_rows(n))
    return 8 * 4 * rows * max(1, n) + 3 * 8 * n_boot


def max_n_boot(n: int, budget: int = BOOT_MEMORY_BYTES) -> int:
    """The most resamples that fit ``budget`` bytes for ``n`` triples."""
    return max(0, (budget - 8 * 4 * bootstrap_chunk_rows(n) * max(1, n)) // 24)


def check_n_boot(n_boot: int, n: int, budget: int = BOOT_MEMORY_BYTES) -> None:
    """Refuse ``n_boot`` when the bootstrap would need more than ``budget`` bytes (raises :class:`InputError`).

    >>> check_n_boot(100_000_000, 50_000)
    Traceback (most recent call last):
    core.errors.InputError: --n-boot 100000000 needs 2.3 GiB for 50000 triples, over the 1.0 GiB budget (hint: use at most 43,000,000 resamples; 1000-10000 give stable 95% intervals)
    """
    if n_boot < 0:
        raise InputError(f"n_boot must be >= 0, got {n_boot}", hint="0 skips the bootstrap")
    need = bootstrap_memory(n, n_boot)
    if n_boot and need > budget:
        most = max_n_boot(n, budget)
        most = most - most % 1_000_000 if most > 1_000_000 else most
        raise InputError(
            f"--n-boot {n_boot} needs {need / (1 << 30):.1f} GiB for {n} triples, over the {budget / (1 << 30):.1f} GiB budget",
            hint=f"use at most {most:,} resamples; 1000-10000 give stable 95% intervals",
        )


def bootstrap_index_chunks(n: int, n_boot: int, seed: int, rows: int | None = None) -> Iterator[np.ndarray]:
    """:func:`bootstrap_indices` in chunks of ``rows`` resamples: the same numbers, drawn as needed."""
    if n_boot < 1:
        raise InputError(f"n_boot must be at least 1, got {n_boot}", hint="use e.g. 1000")
    rng = np.random.default_rng(seed)
    step = rows or bootstrap_chunk_rows(n)
    for start in range(0, n_boot, step):
        yield rng.integers(0, n, size=(min(step, n_boot - start), n))


def bootstrap_indices(n: int, n_boot: int, seed: int) -> np.ndarray:
    """``(n_boot, n)`` row indices drawn with replacement by ``numpy.random.default_rng(seed)``."""
    if n_boot < 1:
        raise InputError(f"n_boot must be at least 1, got {n_boot}", hint="use e.g. 1000")
    return np.random.default_rng(seed).integers(0, n, size=(n_boot, n))


def _interval(values: np.ndarray, level: float) -> tuple[float, float]:
    if not 0 < level < 1:
        raise InputError(f"confidence level must be between 0 and 1, got {level}", hint="use e.g. 0.95")
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(values, [tail, 100 - tail])
    return float(lo), float(hi)


def bootstrap_ci(
    fn: Callable[..., float],
    *arrays: Sequence[Any] | np.ndarray,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``fn(*arrays)``, resampling rows of all arrays jointly.

    The resamples are :func:`bootstrap_indices` ``(len, n_boot, seed)``, so the same seed
    gives the same interval, and :func:`bootstrap_triplet` agrees with it exactly.

    >>> lo, hi = bootstrap_ci(triplet_accuracy, [0.9, 0.2, 0.8, 0.7], [0.1, 0.5, 0.3, 0.9], n_boot=200, seed=1)
    >>> 0.0 <= lo <= 0.5 <= hi <= 1.0
    True
    """
    columns = [np.asarray(a) for a in arrays]
    if not columns:
        raise InputError("bootstrap_ci needs at least one array", hint="pass the per-triple values")
    n = len(columns[0])
    if any(len(c) != n for c in columns):
        raise InputError("bootstrap_ci arrays differ in length", hint="pass one value per triple in each array")
    if n == 0:
        raise InputError("nothing to resample", hint="the triple file had no usable rows")
    values = np.array(
        [fn(*(c[row] for c in columns)) for idx in bootstrap_index_chunks(n, n_boot, seed) for row in idx],
        dtype=np.float64,
    )
    return _interval(values, level)


def bootstrap_weights(idx: np.ndarray, n: int) -> np.ndarray:
    """How often each of ``n`` rows occurs in each resample: ``(n_boot, n)`` counts."""
    n_boot = idx.shape[0]
    flat = (idx + n * np.arange(n_boot)[:, None]).ravel()
    return np.bincount(flat, minlength=n_boot * n).reshape(n_boot, n).astype(np.float64)


def _weighted_auc(p: np.ndarray, n: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mann–Whitney AUC of every resample at once (ties count one half).

    A resample repeats triple ``i`` ``w_i`` times, as a positive ``p_i`` and a negative
    ``n_i``; so ``U = sum_i w_i (W(n < p_i) + W(n == p_i) / 2)`` with ``W`` the resample's
    weight of negatives below / equal to ``p_i``, read from cumulative sums over the sorted
    negatives. Exact, and O(n_boot * n).
    """
    order = np.argsort(n, kind="stable")
    sorted_neg = n[order]
    below = np.searchsorted(sorted_neg, p, side="left")  # negatives strictly below p_i
    upto = np.searchsorted(sorted_neg, p, side="right")  # ... below or equal
    cum = np.zeros((weights.shape[0], n.size + 1))
    np.cumsum(weights[:, order], axis=1, out=cum[:, 1:])
    less = cum[:, below]
    equal = cum[:, upto] - less
    total = weights.sum(axis=1)
    return (weights * (less + 0.5 * equal)).sum(axis=1) / (total * total)


def bootstrap_triplet(
    sim_pos: Sequence[float] | np.ndarray,
    sim_neg: Sequence[float] | np.ndarray,
    *,
    ties: str = "strict",
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int,
    cancel: threading.Event | None = None,
) -> dict[str, tuple[float, float]]:
    """Bootstrap intervals of TACC, AUC and HM from the same resamples of the triples (vectorised).

    Equal to ``bootstrap_ci`` with :func:`triplet_accuracy`, :func:`roc_auc` and their
    harmonic mean for the same ``seed`` and ``n_boot``. The resamples are drawn and scored
    in chunks of :func:`bootstrap_chunk_rows` (memory bounded by :func:`bootstrap_memory`,
    refused over :data:`BOOT_MEMORY_BYTES`); ``cancel`` and Ctrl-C are honoured between chunks.
    """
    wins = triplet_wins(sim_pos, sim_neg, ties)
    p, n = _pair(sim_pos, sim_neg)
    check_n_boot(n_boot, p.size)
    tacc = np.empty(n_boot)
    auc = np.empty(n_boot)
    done = 0
    for idx in bootstrap_index_chunks(p.size, n_boot, seed):
        if cancel is not None and cancel.is_set():
            from core.errors import CancelledError

            raise CancelledError("cancelled by the user")
        weights = bootstrap_weights(idx, p.size)
        tacc[done : done + len(idx)] = weights @ wins / p.size
        auc[done : done + len(idx)] = _weighted_auc(p, n, weights)
        done += len(idx)
        del weights
    total = tacc + auc
    hm = np.divide(2 * tacc * auc, total, out=np.zeros_like(total), where=total > 0)
    return {"tacc": _interval(tacc, level), "auc": _interval(auc, level), "hm": _interval(hm, level)}


def spearman(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Spearman rank correlation of two score lists over the same models (e.g. two datasets).

    NaN when either list is constant (no ranking to compare).

    >>> spearman([0.9, 0.8, 0.7], [0.6, 0.5, 0.4])
    1.0
    >>> spearman([0.9, 0.8, 0.7], [0.4, 0.5, 0.6])
    -1.0
    """
    from scipy.stats import spearmanr

    x = np.asarray(a, dtype=np.float64).ravel()
    y = np.asarray(b, dtype=np.float64).ravel()
    if x.size != y.size:
        raise InputError(f"rankings differ in length ({x.size} vs {y.size})", hint="score the same models in both")
    if x.size < 2:
        raise InputError("a rank correlation needs at least two models", hint="evaluate two or more models")
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(spearmanr(x, y).statistic)


def words(text: str) -> list[str]:
    """Word tokens for the lexical measures: lower-cased runs of Unicode letters, digits and ``_``.

    Punctuation is dropped (the paper's foils have their commas stripped), contractions
    split at the apostrophe.

    >>> words("Isn't it 2009, Mr. Batson?")
    ['isn', 't', 'it', '2009', 'mr', 'batson']
    """
    return _WORD.findall(str(text).lower())


def jaccard(a_text: str, b_text: str) -> float:
    """Jaccard similarity of the word *sets* of two texts (:func:`words`); 1.0 for two empty texts."""
    a, b = set(words(a_text)), set(words(b_text))
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def jaccard_divergence(a_text: str, b_text: str) -> float:
    """Bag-of-words Jaccard divergence ``1 - jaccard(a, b)``.

    >>> jaccard_divergence("a b", "c d")
    1.0
    """
    return 1.0 - jaccard(a_text, b_text)
