"""PNG figures like the paper's: SSM heatmaps, the successive-similarity series, correlation and PAF/NAF/DDAF maps.

matplotlib is imported inside each function, and only its object API (``Figure`` + the Agg
canvas) is used: no pyplot global state, safe from a worker thread, no display needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.textio import atomic_writer


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=80, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Any, path: str | Path) -> Path:
    """Render and write a palette PNG (≤ 64 colours: heatmaps of whole books stay small)."""
    from PIL import Image

    p = Path(path)
    canvas = fig.canvas
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    image = Image.fromarray(rgba[..., :3].copy()).quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    with atomic_writer(p, "wb") as fh:
        image.save(fh, format="png", optimize=True)
    return p


def ssm_heatmaps(
    pooled: Mapping[str, np.ndarray], path: str | Path, *, title: str = "", n: int | None = None
) -> Path:
    """One tile-averaged z-scored SSM per model, side by side (shared symmetric colour scale)."""
    models = list(pooled)
    cols = min(len(models), 4)
    rows = (len(models) + cols - 1) // cols
    fig = _figure(2.6 * cols + 0.6, 2.6 * rows + 0.5)
    finite = np.concatenate([m[np.isfinite(m)] for m in pooled.values()] or [np.zeros(1)])
    lim = float(np.percentile(np.abs(finite), 99)) if finite.size else 1.0
    lim = lim or 1.0
    axes = fig.subplots(rows, cols, squeeze=False)
    image = None
    extent = (0, n, n, 0) if n else None
    for ax, name in zip(axes.ravel(), models, strict=False):
        image = ax.imshow(pooled[name], cmap="RdBu_r", vmin=-lim, vmax=lim, extent=extent, interpolation="nearest")
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in axes.ravel()[len(models) :]:
        ax.axis("off")
    if image is not None:
        fig.colorbar(image, ax=axes, shrink=0.8, label="mean z (tile)")
    if title:
        fig.suptitle(title, fontsize=10)
    return _save(fig, path)


def series_plot(
    series: Mapping[str, np.ndarray],
    path: str | Path,
    *,
    title: str = "",
    smooth: int = 50,
    marks: Sequence[int] = (),
) -> Path:
    """The z-scored successive-similarity series per model (moving average over ``smooth`` sentences)."""
    models = list(series)
    fig = _figure(9, 1.2 * len(models) + 0.8)
    axes = fig.subplots(len(models), 1, sharex=True, squeeze=False)[:, 0]
    for ax, name in zip(axes, models, strict=True):
        y = np.asarray(series[name], dtype=np.float64)
        w = max(1, min(smooth, len(y) // 10))
        ax.plot(np.arange(len(y)), y, lw=0.3 if w > 1 else 0.8, color="0.75" if w > 1 else "C0")
        if w > 1:
            ys = np.convolve(np.nan_to_num(y), np.ones(w) / w, mode="valid")
            ax.plot(np.arange(len(ys)) + (w - 1) / 2, ys, lw=1.0, color="C0")
        for m in marks:
            ax.axvline(m, color="0.5", lw=0.4, ls=":")
        ax.set_ylabel(name, fontsize=8, rotation=0, ha="right", va="center")
        ax.tick_params(labelsize=7)
        ax.set_ylim(*np.nanpercentile(y, [1, 99]) if np.isfinite(y).any() else (-1, 1))
    axes[-1].set_xlabel("sentence i (similarity of i and i+1, z-scored)", fontsize=8)
    if title:
        w = max(1, min(smooth, min(len(v) for v in series.values()) // 10))
        fig.suptitle(title + (f" (moving average over {w})" if w > 1 else ""), fontsize=10)
    return _save(fig, path)


def matrix_maps(
    matrices: Mapping[str, np.ndarray],
    models: Sequence[str],
    path: str | Path,
    *,
    title: str = "",
    limits: Mapping[str, tuple[float, float]] | None = None,
    cmap: str = "viridis",
) -> Path:
    """Annotated model×model heatmaps, one panel per matrix (rows: model A, columns: model B)."""
    k = len(models)
    panels = list(matrices)
    side = 0.55 * k + 1.6
    fig = _figure(side * len(panels) + 0.3, side + 0.4)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, name in zip(axes, panels, strict=True):
        m = np.asarray(matrices[name], dtype=np.float64)
        lo, hi = (limits or {}).get(name, (float(np.nanmin(m)) if np.isfinite(m).any() else 0.0, 1.0))
        ax.imshow(m, cmap=cmap, vmin=lo, vmax=hi)
        for i in range(k):
            for j in range(k):
                v = m[i, j]
                text = "–" if not np.isfinite(v) else f"{v:.2f}"
                shade = 0.0 if not np.isfinite(v) else (v - lo) / ((hi - lo) or 1)
                ax.text(j, i, text, ha="center", va="center", fontsize=7, color="black" if shade > 0.6 else "white")
        ax.set_xticks(range(k), models, rotation=60, ha="right", fontsize=7)
        ax.set_yticks(range(k), models, fontsize=7)
        ax.set_title(name, fontsize=9)
    if title:
        fig.suptitle(title, fontsize=10)
    return _save(fig, path)


def correlation_map(agreement: Any, path: str | Path, *, title: str = "") -> Path:
    """Pearson correlation of the series and of the SSM upper triangles."""
    return matrix_maps(
        {"series r": agreement.series_corr, "SSM r": agreement.ssm_corr},
        agreement.models,
        path,
        title=title,
        limits={"series r": (0.0, 1.0), "SSM r": (0.0, 1.0)},
    )


def fraction_maps(agreement: Any, path: str | Path, *, title: str = "") -> Path:
    """PAF, NAF and DDAF (row model positive, column model negative)."""
    top = float(np.nanmax([np.nanmax(agreement.paf), np.nanmax(agreement.naf)]))
    return matrix_maps(
        {"PAF": agreement.paf, "NAF": agreement.naf, "DDAF (row +, col -)": agreement.ddaf},
        agreement.models,
        path,
        title=title,
        limits={"PAF": (0.0, top), "NAF": (0.0, top), "DDAF (row +, col -)": (0.0, max(0.25, float(np.nanmax(agreement.ddaf))))},
        cmap="magma",
    )
