"""Novel passages: per-model novelty of each sentence, an ensemble across models, and how much they agree.

Per model (parameters in :class:`NoveltyParams`), with ``Z`` the z-scored SSM of :mod:`core.variation.ssm`:

* ``mode="window"`` (default): novelty of sentence ``i`` = minus the mean of ``Z[i, j]`` over the
  ``window`` sentences before it (``j = i-window .. i-1``): how unlike its recent context it is.
  The first sentence has no context and gets NaN; the next ones use what precedes them.
* ``mode="global"``: minus the mean of ``Z[i, j]`` over every other sentence: how unlike the whole
  book it is.

Neither needs the ``N×N`` matrix: ``global`` is ``E (Σ e) - 1`` per row (``O(N d)``) and ``window``
is ``window`` shifted row-wise dot products (``O(N × window × d)``).

Short sentences ("Now let us go on.") are dissimilar to almost everything, so raw novelty is
largely a length effect. With ``adjust_length`` (default) the ensemble uses, per model, the
residual of a least-squares fit of the score on ``log(word count)``: novel *for its length*.
The per-model columns of ``novelty.csv`` stay raw.

Across models, each model's scores are standardised over the sentences (mean 0, sd 1, NaN kept);
the **ensemble score** is their mean; **votes** counts the models that put the sentence in their
own top ``top_fraction``; **spread** is the standard deviation of the standardised scores across
models (low: the models agree on how novel it is). Book-level agreement of the novelty rankings is
Kendall's W (0: none, 1: identical rankings) with the pairwise Spearman matrix.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> base = np.repeat(rng.normal(size=(1, 16)), 40, axis=0) + 0.1 * rng.normal(size=(40, 16))
>>> base[25] = rng.normal(size=16)          # one sentence about something else
>>> from core.variation.ssm import normalise, ssm_stats
>>> E = normalise(base)
>>> int(np.nanargmax(novelty_scores(E, ssm_stats(E))))
25
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from core.errors import ConfigError
from core.variation.books import Book
from core.variation.ssm import SSMStats, rowdot

MODES = ("window", "global")


@dataclass(frozen=True)
class NoveltyParams:
    """How novelty is scored and which passages are listed."""

    mode: str = "window"
    window: int = 20
    top_fraction: float = 0.05  # a model "votes" for a sentence in its top 5%
    top_k: int = 10  # passages listed
    context: int = 2  # sentences shown before and after, and the exclusion radius between listed passages
    min_words: int = 5  # shorter sentences ("Yes.", "Oh!") are scored but not listed
    adjust_length: bool = True  # ensemble on scores with the linear effect of log(word count) removed

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"unknown novelty mode {self.mode!r}", hint="use 'window' or 'global'")
        if self.window < 1:
            raise ConfigError(f"novelty window must be >= 1, not {self.window}")
        if not 0 < self.top_fraction <= 1:
            raise ConfigError(f"top_fraction must be in (0, 1], not {self.top_fraction}")
        if self.top_k < 0 or self.context < 0 or self.min_words < 0:
            raise ConfigError("top_k, context and min_words must be >= 0")

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def novelty_scores(E: np.ndarray, stats: SSMStats, params: NoveltyParams | None = None) -> np.ndarray:
    """One model's novelty per sentence (higher: more novel); ``E`` normalised, ``stats`` of its SSM."""
    params = params or NoveltyParams()
    n = E.shape[0]
    if stats.degenerate:
        out = np.zeros(n)
        if params.mode == "window":
            out[0] = np.nan
        return out
    if params.mode == "global":
        rows = np.asarray(E @ np.asarray(E.sum(axis=0)).ravel()).ravel() - rowdot(E, E)
        return -stats.z(rows / (n - 1))
    sums = np.zeros(n)
    counts = np.zeros(n)
    for lag in range(1, min(params.window, n - 1) + 1):
        sums[lag:] += rowdot(E[lag:], E[:-lag])
        counts[lag:] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(counts > 0, sums / np.where(counts > 0, counts, 1), np.nan)
    return -stats.z(mean)


def standardise(x: np.ndarray) -> np.ndarray:
    """Mean 0, sd 1 over the finite entries (NaN stays NaN; constant input gives zeros)."""
    finite = np.isfinite(x)
    out = np.full_like(x, np.nan, dtype=np.float64)
    if not finite.any():
        return out
    mu, sd = x[finite].mean(), x[finite].std()
    out[finite] = (x[finite] - mu) / sd if sd > 0 else 0.0
    return out


def _ranks(x: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata

    return rankdata(x)


@dataclass(frozen=True)
class Ensemble:
    """Per-sentence ensemble novelty and the agreement of the models' novelty rankings."""

    models: tuple[str, ...]
    per_model: Mapping[str, np.ndarray]  # standardised scores
    score: np.ndarray
    votes: np.ndarray
    spread: np.ndarray
    kendall_w: float
    spearman: np.ndarray
    params: NoveltyParams

    def to_json(self) -> dict[str, object]:
        return {
            "models": list(self.models),
            "kendall_w": None if not np.isfinite(self.kendall_w) else self.kendall_w,
            "spearman": [[None if not np.isfinite(v) else float(v) for v in row] for row in self.spearman],
            "params": self.params.to_json(),
        }


def length_residuals(scores: np.ndarray, words: np.ndarray) -> np.ndarray:
    """``scores`` minus their least-squares fit on ``log(words)`` (NaN kept; fewer than 3 points: unchanged).

    >>> w = np.array([2, 4, 8, 16, 32])
    >>> bool(np.allclose(length_residuals(3 - np.log(w), w), 0.0))
    True
    """
    x = np.log(np.maximum(np.asarray(words, dtype=np.float64), 1.0))
    y = np.asarray(scores, dtype=np.float64)
    ok = np.isfinite(y)
    if ok.sum() < 3 or np.ptp(x[ok]) == 0:
        return y.copy()
    slope, intercept = np.polyfit(x[ok], y[ok], 1)
    return y - (slope * x + intercept)


def ensemble(
    scores: Mapping[str, np.ndarray], params: NoveltyParams | None = None, *, words: np.ndarray | None = None
) -> Ensemble:
    """Combine per-model novelty (raw scores per model, same sentences) into an :class:`Ensemble`.

    ``words``: each sentence's word count, used when ``params.adjust_length`` is set.
    """
    params = params or NoveltyParams()
    models = tuple(scores)
    raw = {m: np.asarray(scores[m], dtype=np.float64) for m in models}
    if params.adjust_length and words is not None:
        raw = {m: length_residuals(v, words) for m, v in raw.items()}
    Z = np.vstack([standardise(raw[m]) for m in models])
    valid = np.isfinite(Z).all(axis=0)
    with np.errstate(invalid="ignore"):
        score = np.where(valid, Z.mean(axis=0), np.nan)
        spread = np.where(valid, Z.std(axis=0), np.nan)
    votes = np.zeros(Z.shape[1], dtype=np.int64)
    n_valid = int(valid.sum())
    top_n = max(1, round(params.top_fraction * n_valid))
    for row in Z:
        order = np.argsort(np.where(valid, -row, np.inf), kind="stable")[:top_n]
        votes[order] += 1
    k = len(models)
    spearman = np.ones((k, k))
    kendall_w = float("nan")
    if n_valid >= 3:
        R = np.vstack([_ranks(row[valid]) for row in Z])
        with np.errstate(invalid="ignore", divide="ignore"):
            spearman = np.corrcoef(R) if k > 1 else np.ones((1, 1))
        m, nv = k, n_valid
        rank_sums = R.sum(axis=0)
        s = float(np.sum((rank_sums - rank_sums.mean()) ** 2))
        kendall_w = 12.0 * s / (m * m * (nv**3 - nv)) if k > 1 else 1.0
    per_model = {m: Z[i] for i, m in enumerate(models)}
    return Ensemble(models, per_model, score, votes, spread, kendall_w, spearman, params)


@dataclass(frozen=True)
class Passage:
    """A listed novel sentence with its context and per-model standardised scores."""

    rank: int
    sentence_id: int
    start: int
    end: int
    text: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    score: float
    votes: int
    spread: float
    per_model: Mapping[str, float]

    def to_json(self) -> dict[str, object]:
        out = asdict(self)
        out["before"], out["after"] = list(self.before), list(self.after)
        out["per_model"] = dict(self.per_model)
        return out


def top_passages(book: Book, ens: Ensemble, params: NoveltyParams | None = None) -> list[Passage]:
    """The ``top_k`` most novel sentences (ensemble score), at least ``context`` sentences apart."""
    params = params or ens.params
    order = np.argsort(np.where(np.isfinite(ens.score), -ens.score, np.inf), kind="stable")
    taken: list[int] = []
    out: list[Passage] = []
    for idx in order:
        i = int(idx)
        if len(out) >= params.top_k or not np.isfinite(ens.score[i]):
            break
        sent = book.sentences[i]
        if len(sent.text.split()) < params.min_words:
            continue
        if any(abs(i - t) <= params.context for t in taken):
            continue
        taken.append(i)
        lo, hi = max(0, i - params.context), min(len(book), i + params.context + 1)
        out.append(
            Passage(
                rank=len(out) + 1,
                sentence_id=i,
                start=sent.start,
                end=sent.end,
                text=sent.text,
                before=tuple(s.text for s in book.sentences[lo:i]),
                after=tuple(s.text for s in book.sentences[i + 1 : hi]),
                score=float(ens.score[i]),
                votes=int(ens.votes[i]),
                spread=float(ens.spread[i]),
                per_model={m: float(ens.per_model[m][i]) for m in ens.models},
            )
        )
    return out


def novelty_rows(book: Book, raw: Mapping[str, np.ndarray], ens: Ensemble) -> Sequence[dict[str, object]]:
    """One CSV row per sentence: id, offsets, text, each model's raw novelty, ensemble, votes, spread."""
    rows = []
    for s in book.sentences:
        row: dict[str, object] = {"sentence_id": s.id, "start": s.start, "end": s.end, "paragraph": s.paragraph}
        for m in ens.models:
            v = float(raw[m][s.id])
            row[f"novelty_{m}"] = "" if not np.isfinite(v) else round(v, 6)
        sc = float(ens.score[s.id])
        row["ensemble"] = "" if not np.isfinite(sc) else round(sc, 6)
        row["votes"] = int(ens.votes[s.id])
        sp = float(ens.spread[s.id])
        row["spread"] = "" if not np.isfinite(sp) else round(sp, 6)
        row["text"] = s.text
        rows.append(row)
    return rows
