"""Figures of an evaluation (``smithtui eval --plot DIR``): per-rule TACC with intervals, ROC curves.

One PNG per figure, written atomically; matplotlib's object API only (see :mod:`core.variation.figures`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from core.variation.figures import _figure, _save


def roc_points(sim_pos: np.ndarray, sim_neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """False- and true-positive rates with paraphrase similarities as positives (scikit-learn).

    >>> fpr, tpr = roc_points(np.array([0.9, 0.8]), np.array([0.1, 0.85]))
    >>> float(fpr[-1]), float(tpr[-1])
    (1.0, 1.0)
    """
    from sklearn.metrics import roc_curve

    labels = np.r_[np.ones(sim_pos.size), np.zeros(sim_neg.size)]
    fpr, tpr, _ = roc_curve(labels, np.r_[sim_pos, sim_neg])
    return fpr, tpr


def tacc_per_rule(result: Any, path: str | Path, *, title: str = "") -> Path:
    """Grouped bars: TACC of every scored model per rule (and overall), with bootstrap intervals when computed."""
    models = [m for m in result.models if m.ok]
    rules = [*result.rules, "all"]
    fig = _figure(min(10.0, max(5.0, 0.9 * len(rules) * max(1, len(models)) ** 0.5 + 2)), 3.6)
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(models))
    for k, m in enumerate(models):
        parts = [m.per_rule.get(r) for r in rules[:-1]]
        values = [p.tacc if p else np.nan for p in parts] + [m.tacc]
        cis = [p.tacc_ci if p else None for p in parts] + [m.tacc_ci]
        low = [v - ci[0] if ci else 0.0 for v, ci in zip(values, cis, strict=True)]
        high = [ci[1] - v if ci else 0.0 for v, ci in zip(values, cis, strict=True)]
        xs = np.arange(len(rules)) + (k - (len(models) - 1) / 2) * width
        ax.bar(xs, values, width, label=m.name, yerr=[low, high], capsize=2)
    ax.set_xticks(np.arange(len(rules)), rules)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("TACC")
    level = result.params.get("ci_level")
    intervals = f" ({level:.0%} bootstrap intervals)" if result.params.get("n_boot") and level else ""
    ax.set_title(title or f"TACC per rule{intervals}")
    ax.legend(fontsize="small", ncols=min(4, max(1, len(models))))
    return _save(fig, path)


def roc_curves(result: Any, path: str | Path, *, title: str = "") -> Path:
    """ROC curves of every scored model (paraphrase vs foil similarity), AUC in the legend."""
    fig = _figure(4.6, 4.2)
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=1)
    for m in result.models:
        if m.ok and m.sim_pos is not None and m.sim_neg is not None:
            fpr, tpr = roc_points(m.sim_pos, m.sim_neg)
            ax.plot(fpr, tpr, label=f"{m.name} (AUC {m.auc:.3f})")
    ax.set_xlabel("false-positive rate (foils)")
    ax.set_ylabel("true-positive rate (paraphrases)")
    ax.set_title(title or "ROC: paraphrase vs foil similarity")
    ax.legend(fontsize="small", loc="lower right")
    return _save(fig, path)


def plot_eval(result: Any, folder: str | Path, label: str = "eval") -> list[Path]:
    """Every figure of one :class:`~core.evaluate.results.EvalResult` into ``folder``; returns the PNG paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^\w.\-]+", "_", label) or "eval"
    return [tacc_per_rule(result, out / f"{stem}_tacc_per_rule.png"), roc_curves(result, out / f"{stem}_roc.png")]
