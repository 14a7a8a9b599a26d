"""CLSD metrics on embedding matrices: P@1, pooled recall@1, overlaps, Levenshtein bins, similarity change.

Everything here takes L2-normalised vectors (or cosine tables) and plain Python
values, so it is testable with synthetic vectors. Conventions:

* a *cosine table* has one row per item and ``1 + k`` columns: the true target
  first, then the k distractors in column order;
* **P@1 (strict)**: a row is correct when the target scores strictly above every
  distractor; a tie fails (``ties="pass"`` is offered for comparison);
* **pooled recall@1** (MTEB's port): every candidate of a set (all targets and all
  distractors, de-duplicated by text) forms one pool; a source is correct when its
  own target is the unique nearest candidate;
* the **winning distractor** of a failed row is the highest-scoring distractor
  (first in column order on exact ties).

>>> import numpy as np
>>> table = np.array([[0.9, 0.5, 0.4], [0.6, 0.6, 0.1], [0.2, 0.7, 0.1]])
>>> p_at_1(table).tolist()
[True, False, False]
>>> p_at_1(table, ties="pass").tolist()
[True, True, False]
>>> winners(table).tolist()
[-1, 0, 0]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.errors import InputError

LEV_EDGES: tuple[float, ...] = (0.3, 0.6, 0.7, 0.8, 0.9, 1.0)
"""Bin edges of the Levenshtein ratio analysis: [0.3,0.6), [0.6,0.7), ..., [0.9,1.0)."""

TIE_POLICIES = ("fail", "pass")


def normalise(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.where(norms == 0, 1.0, norms)


def cosine_table(sources: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Cosines of each source with its own candidates.

    ``sources``: (n, d); ``candidates``: (n, 1 + k, d), target first. Returns (n, 1 + k).

    >>> s = np.array([[1.0, 0.0]]); c = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> cosine_table(s, c).tolist()
    [[1.0, 0.0]]
    """
    src = normalise(sources)
    cand = normalise(candidates)
    if src.ndim != 2 or cand.ndim != 3 or cand.shape[0] != src.shape[0] or cand.shape[2] != src.shape[1]:
        raise InputError(
            f"shape mismatch: sources {src.shape}, candidates {cand.shape}",
            hint="sources (n, d) and candidates (n, 1 + k, d) from the same model",
        )
    return np.einsum("nd,nkd->nk", src, cand)


def p_at_1(table: np.ndarray, *, ties: str = "fail", eps: float = 0.0) -> np.ndarray:
    """Per row: does the target (column 0) beat every distractor? Ties fail unless ``ties="pass"``.

    ``eps`` widens a tie: a distractor within ``eps`` of the target counts as tied.
    """
    if ties not in TIE_POLICIES:
        raise InputError(f"unknown tie policy {ties!r}", hint="use 'fail' (strict, the paper's) or 'pass'")
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2 or t.shape[1] < 2:
        raise InputError(f"a cosine table needs a target and at least one distractor, got shape {t.shape}")
    best = t[:, 1:].max(axis=1)
    if ties == "fail":
        return t[:, 0] > best + eps
    return t[:, 0] >= best - eps


def winners(table: np.ndarray, correct: np.ndarray | None = None) -> np.ndarray:
    """Index (0-based among distractors) of the winning distractor of each failed row, -1 for correct rows."""
    t = np.asarray(table, dtype=np.float64)
    ok = p_at_1(t) if correct is None else np.asarray(correct, dtype=bool)
    idx = t[:, 1:].argmax(axis=1)
    return np.where(ok, -1, idx)


def margins(table: np.ndarray) -> np.ndarray:
    """Target cosine minus the best distractor cosine (negative: the row fails)."""
    t = np.asarray(table, dtype=np.float64)
    return t[:, 0] - t[:, 1:].max(axis=1)


def p_at_1_score(correct: np.ndarray) -> float:
    """Fraction of correct rows (NaN for no rows)."""
    c = np.asarray(correct, dtype=bool)
    return float(c.mean()) if c.size else math.nan


def pooled_recall_at_1(
    sources: np.ndarray, pool: np.ndarray, gold: Sequence[int] | np.ndarray, *, ties: str = "fail", chunk: int = 1024
) -> np.ndarray:
    """MTEB-style retrieval: is each source's gold candidate its unique nearest neighbour in the pool?

    ``sources``: (n, d); ``pool``: (m, d), every candidate of the set once; ``gold``:
    index into ``pool`` of each source's true target.

    >>> src = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> pool = np.array([[1.0, 0.1], [0.1, 1.0], [0.0, 1.0]])
    >>> pooled_recall_at_1(src, pool, [0, 1]).tolist()
    [True, False]
    """
    if ties not in TIE_POLICIES:
        raise InputError(f"unknown tie policy {ties!r}", hint="use 'fail' or 'pass'")
    src = normalise(sources)
    pl = normalise(pool)
    g = np.asarray(gold, dtype=np.int64)
    out = np.zeros(len(src), dtype=bool)
    for start in range(0, len(src), chunk):
        s = src[start : start + chunk] @ pl.T
        rows = np.arange(len(s))
        gs = s[rows, g[start : start + chunk]].copy()
        s[rows, g[start : start + chunk]] = -np.inf
        best = s.max(axis=1)
        out[start : start + chunk] = gs > best if ties == "fail" else gs >= best
    return out


def build_pool(candidates: Sequence[Sequence[str]]) -> tuple[list[str], list[int]]:
    """De-duplicated pool of every candidate text, and each row's gold (its target's) index in it.

    >>> build_pool([["a", "b"], ["c", "a"]])
    (['a', 'b', 'c'], [0, 2])
    """
    index: dict[str, int] = {}
    gold: list[int] = []
    for row in candidates:
        for j, text in enumerate(row):
            k = index.setdefault(text, len(index))
            if j == 0:
                gold.append(k)
    return list(index), gold


# ------------------------------------------------------------------------------------------------ error overlap


def error_overlap(a: Mapping[str, bool], b: Mapping[str, bool]) -> dict[str, Any]:
    """Compare the errors of two runs (``id -> correct``) on the ids both scored.

    >>> r = error_overlap({"1": False, "2": False, "3": True}, {"1": False, "2": True, "3": True, "4": False})
    >>> (r["n"], r["both_wrong"], r["only_a_wrong"], r["only_b_wrong"], r["jaccard"])
    (3, 1, 1, 0, 0.5)
    """
    common = [k for k in a if k in b]
    wa = {k for k in common if not a[k]}
    wb = {k for k in common if not b[k]}
    union = wa | wb
    both = wa & wb
    return {
        "n": len(common),
        "a_wrong": len(wa),
        "b_wrong": len(wb),
        "both_wrong": len(both),
        "only_a_wrong": len(wa - wb),
        "only_b_wrong": len(wb - wa),
        "jaccard": (len(both) / len(union)) if union else math.nan,
        "both_wrong_ids": sorted(both, key=_id_key),
    }


def _id_key(text: str) -> tuple[int, Any]:
    try:
        return (0, float(text))
    except ValueError:
        return (1, text)


# ---------------------------------------------------------------------------------------------- Levenshtein bins


def levenshtein_ratio(a: str, b: str) -> float:
    """``1 - edit distance / length of the longer string`` (characters), as in the authors' notebook.

    >>> levenshtein_ratio("kitten", "sitting")
    0.5714285714285714
    >>> levenshtein_ratio("", "")
    1.0
    """
    from rapidfuzz.distance import Levenshtein

    return float(Levenshtein.normalized_similarity(a, b))


def bin_label(value: float, edges: Sequence[float] = LEV_EDGES) -> str:
    """The bin a ratio falls in: ``'[0.7,0.8)'``; below the first edge ``'<0.3'``; at or above the last ``'>=1.0'``.

    >>> bin_label(0.75), bin_label(0.1), bin_label(1.0), bin_label(0.3)
    ('[0.7,0.8)', '<0.3', '>=1.0', '[0.3,0.6)')
    """
    if value < edges[0]:
        return f"<{edges[0]}"
    for lo, hi in itertools.pairwise(edges):
        if lo <= value < hi:
            return f"[{lo},{hi})"
    return f">={edges[-1]}"


def bin_labels(edges: Sequence[float] = LEV_EDGES) -> list[str]:
    """Every bin label in order, including the two open ends."""
    inner = [f"[{lo},{hi})" for lo, hi in itertools.pairwise(edges)]
    return [f"<{edges[0]}", *inner, f">={edges[-1]}"]


def levenshtein_bins(
    targets: Sequence[str],
    distractors: Sequence[Sequence[str]],
    winner: Sequence[int] | np.ndarray,
    *,
    edges: Sequence[float] = LEV_EDGES,
) -> list[dict[str, Any]]:
    """Share of successful distractors per Levenshtein-ratio bin.

    Every distractor is binned by its ratio to the row's true target. A distractor is
    *successful* when it is the one that actually won its row (``winner[i]``, -1 for a
    correct row): the authors' notebook compared against a fixed distractor column
    instead, which bins the wrong sentence for most failures.

    Each bin reports ``distractors`` (all in the bin), ``successful``, ``share``
    (successful / distractors in the bin) and ``share_of_successes`` (successful /
    all successful distractors).
    """
    ratios = [[levenshtein_ratio(t, d) for d in row] for t, row in zip(targets, distractors, strict=True)]
    return bins_from_ratios(ratios, winner, edges=edges)


def bins_from_ratios(
    ratios: Sequence[Sequence[float]], winner: Sequence[int] | np.ndarray, *, edges: Sequence[float] = LEV_EDGES
) -> list[dict[str, Any]]:
    """:func:`levenshtein_bins` from precomputed ratios (``ratios[i][j]``: distractor j of row i vs its target)."""
    labels = bin_labels(edges)
    total = dict.fromkeys(labels, 0)
    won = dict.fromkeys(labels, 0)
    for row, w in zip(ratios, winner, strict=True):
        for j, ratio in enumerate(row):
            label = bin_label(ratio, edges)
            total[label] += 1
            if int(w) == j:
                won[label] += 1
    n_won = sum(won.values())
    return [
        {
            "bin": label,
            "distractors": total[label],
            "successful": won[label],
            "share": (won[label] / total[label]) if total[label] else math.nan,
            "share_of_successes": (won[label] / n_won) if n_won else math.nan,
        }
        for label in labels
    ]


# ------------------------------------------------------------------------------------------- similarity change


def similarity_change(cos_src_tgt: np.ndarray, cos_src_dis: np.ndarray, cos_tgt_dis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Normalised similarity change caused by a distractor, cross- and monolingually.

    * cross-lingual: ``(cos(s,t) - cos(s,d)) / |cos(s,t)|``, the relative drop in the
      source's similarity when the true translation is replaced by the distractor;
    * monolingual: ``1 - cos(t,d)``, the same relative drop measured inside the
      target language (``(cos(t,t) - cos(t,d)) / cos(t,t)``).

    Positive values: the distractor is further away. A model that sees a swap
    monolingually but not across languages has high monolingual and low
    cross-lingual change.

    >>> x, m = similarity_change(np.array([0.8]), np.array([0.6]), np.array([0.9]))
    >>> round(float(x[0]), 3), round(float(m[0]), 3)
    (0.25, 0.1)
    """
    st = np.asarray(cos_src_tgt, dtype=np.float64)
    sd = np.asarray(cos_src_dis, dtype=np.float64)
    td = np.asarray(cos_tgt_dis, dtype=np.float64)
    denom = np.where(np.abs(st) < 1e-12, np.nan, np.abs(st))
    return (st - sd) / denom, 1.0 - td


def correlation(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> dict[str, float]:
    """Pearson and Spearman correlation (NaN when fewer than 3 finite pairs or a constant series)."""
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    ok = np.isfinite(a) & np.isfinite(b)
    a, b = a[ok], b[ok]
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return {"pearson": math.nan, "spearman": math.nan, "n": len(a)}
    from scipy.stats import pearsonr, spearmanr

    return {"pearson": float(pearsonr(a, b)[0]), "spearman": float(spearmanr(a, b)[0]), "n": len(a)}


@dataclass(frozen=True)
class SwapScore:
    """One single-token swap distractor, scored: what was swapped, its POS, how far it moved."""

    row_id: str
    distractor: int  # index among the row's distractors
    old: str
    new: str
    pos: str
    cross: float  # normalised cross-lingual change
    mono: float  # normalised monolingual change
    won: bool  # this distractor won its row (the model was fooled by it)
    annotated_pos: str = ""


def pos_table(scores: Sequence[SwapScore]) -> list[dict[str, Any]]:
    """Per part of speech: count, mean changes, cross-vs-mono correlation, share of swaps that won.

    The last row (``pos="ALL"``) pools every swap.
    """
    groups: dict[str, list[SwapScore]] = {}
    for s in scores:
        groups.setdefault(s.pos or "?", []).append(s)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    out = [_pos_row(pos, rows) for pos, rows in ordered]
    if scores:
        out.append(_pos_row("ALL", list(scores)))
    return out


def _pos_row(pos: str, rows: Sequence[SwapScore]) -> dict[str, Any]:
    cross = np.array([r.cross for r in rows], dtype=np.float64)
    mono = np.array([r.mono for r in rows], dtype=np.float64)
    corr = correlation(cross, mono)
    return {
        "pos": pos,
        "n": len(rows),
        "mean_cross_change": _nanmean(cross),
        "mean_mono_change": _nanmean(mono),
        "pearson": corr["pearson"],
        "spearman": corr["spearman"],
        "won": sum(r.won for r in rows),
        "won_share": sum(r.won for r in rows) / len(rows) if rows else math.nan,
    }


def _nanmean(x: np.ndarray) -> float:
    """Mean of the finite values; NaN (without a warning) when there are none."""
    finite = x[np.isfinite(x)]
    return float(finite.mean()) if finite.size else math.nan
