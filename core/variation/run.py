"""The whole study over books and models: read, embed (cached), analyse blocked, write results and figures.

Output directory layout (``run_variation(..., out_dir=DIR)``)::

    DIR/results.json            provenance, parameters, per-book and mean agreement matrices,
                                SSM statistics, novelty agreement, top novel passages, timings
    DIR/agreement.md            the agreement table (model pairs ranked) for humans
    DIR/<book>/novelty.csv      one row per sentence: id, offsets, each model's novelty, ensemble
    DIR/<book>/series.csv       the z-scored successive-similarity series, one column per model
    DIR/<book>/ssm_pooled.npz   tile-averaged z-SSMs (the heatmaps' data)
    DIR/figures/*.png           <book>_ssm, <book>_series, <book>_correlation, <book>_fractions,
                                mean_correlation, mean_fractions (with several books)

Embeddings come from an :class:`EmbeddingSource`; :class:`RegistrySource` uses the project's
embedder registry and on-disk cache (:mod:`core.embed`).
"""

from __future__ import annotations

import re
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from core.errors import CancelledError, InputError, SmithError
from core.progress import ProgressCallback, check_cancel, report
from core.provenance import environment, timestamp
from core.textio import atomic_write_csv, atomic_write_json, atomic_write_text, atomic_writer
from core.variation.agreement import MATRICES, Agreement, analyse_blocked, mean_agreement
from core.variation.books import SPLITTERS, Book, read_book
from core.variation.novelty import (
    Ensemble,
    NoveltyParams,
    Passage,
    ensemble,
    novelty_rows,
    novelty_scores,
    top_passages,
)
from core.variation.ssm import SSMParams, is_sparse, normalise


class EmbeddingSource(Protocol):
    """Where sentence vectors come from: one ``(n, d)`` matrix per model name."""

    def encode(
        self,
        model: str,
        texts: Sequence[str],
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> np.ndarray: ...

    def info(self, model: str) -> dict[str, object]: ...


class RegistrySource:
    """Embeddings from :mod:`core.embed` (registry by name, cached on disk by model info and text).

    Lexical baselines (``bow``, ``tfidf``) are not shared across the process and their vocabulary is
    the book's, so they are built fresh per book, fitted on its distinct sentences (the IDF) and
    kept sparse: a dense ``sentences × vocabulary`` matrix of a novel would be hundreds of MB.
    """

    def __init__(self, cache_dir: str | Path, settings: Any = None, *, chunk_size: int = 256) -> None:
        from core.embed.cache import EmbeddingCache

        self.cache = EmbeddingCache(cache_dir, chunk_size=chunk_size)  # texts embedded between cancel checks
        self.settings = settings
        self._info: dict[str, dict[str, object]] = {}

    def check(self, models: Sequence[str]) -> None:
        """Raise a clear error for an unknown or unusable model before any work starts."""
        from core.embed.registry import resolve
        from core.errors import ModelMissingError

        for m in models:
            spec = resolve(m, self.settings)
            if not spec.usable:
                raise ModelMissingError(f"model {m} cannot load here: {spec.why_not}", hint=spec.install_hint)

    def _get(self, model: str) -> Any:
        from core.embed.registry import get_embedder, resolve

        lexical = resolve(model, self.settings).kind == "lexical"  # fitted per book: an instance of its own
        return get_embedder(model, settings=self.settings, load=False, shared=not lexical)  # the cache loads on a miss

    def encode(
        self,
        model: str,
        texts: Sequence[str],
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> Any:
        emb = self._get(model)
        if hasattr(emb, "encode_sparse") and not getattr(emb, "cacheable", True):
            check_cancel(cancel)
            if hasattr(emb, "fit"):
                emb.fit(texts)
            matrix = emb.encode_sparse(list(texts))
            report(progress, len(texts), len(texts))
        else:
            matrix = self.cache.encode(emb, list(texts), progress=progress, cancel=cancel)
        self._info[model] = dict(emb.info)
        return matrix

    def info(self, model: str) -> dict[str, object]:
        return self._info.get(model) or dict(self._get(model).info)


@dataclass(frozen=True)
class VariationConfig:
    """Everything that shapes a run besides the books (recorded in ``results.json``)."""

    models: tuple[str, ...]
    splitter: str = "spacy"
    max_sentences: int | None = None
    ssm: SSMParams = field(default_factory=SSMParams)
    novelty: NoveltyParams = field(default_factory=NoveltyParams)
    memory_mb: float = 128.0
    block_rows: int | None = None
    pool_size: int = 120
    figures: bool = True
    smooth: int = 50

    def __post_init__(self) -> None:
        if not self.models:
            raise InputError("no models named", hint="pass --models a,b (see `smithtui embed --list`)")
        if len(set(self.models)) != len(self.models):
            raise InputError(f"a model is named twice in {', '.join(self.models)}", hint="name each model once")
        if self.splitter not in SPLITTERS:
            raise InputError(f"unknown sentence splitter {self.splitter!r}", hint=f"choose one of: {', '.join(SPLITTERS)}")
        if self.max_sentences is not None and self.max_sentences < 3:
            raise InputError(f"--max-sentences must be at least 3, not {self.max_sentences}")
        if self.memory_mb <= 0:
            raise InputError(f"memory budget must be positive, not {self.memory_mb} MB")

    def to_json(self) -> dict[str, object]:
        out = asdict(self)
        out["models"] = list(self.models)
        return out


@dataclass(frozen=True)
class VariationEvent:
    """What a run is doing now (for progress bars): ``stage`` is read | embed | analyse | write | done."""

    stage: str
    book: str
    done: int
    total: int
    model: str = ""
    message: str = ""


@dataclass
class BookResult:
    """Everything computed for one book (kept in memory for the workbench; written to disk by the run)."""

    book: Book
    agreement: Agreement
    series: dict[str, np.ndarray]
    pooled: dict[str, np.ndarray]
    novelty: dict[str, np.ndarray]
    ensemble: Ensemble
    passages: list[Passage]
    timings: dict[str, float]
    folder: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "book": self.book.provenance(),
            "folder": self.folder,
            "agreement": self.agreement.to_json(),
            "novelty": self.ensemble.to_json(),
            "top_passages": [p.to_json() for p in self.passages],
            "headings": [{"text": h.text, "start": h.start, "before_sentence": h.before} for h in self.book.headings],
            "timings_s": {k: round(v, 3) for k, v in self.timings.items()},
        }


@dataclass
class VariationRun:
    """A finished run: per-book results, book errors carried as values, the mean over books."""

    config: VariationConfig
    books: list[BookResult]
    errors: list[dict[str, str]]
    mean: Agreement | None
    out_dir: Path | None = None
    models_info: dict[str, dict[str, object]] = field(default_factory=dict)


EventCallback = Callable[[VariationEvent], None]


def analyse_book(
    book: Book,
    embeddings: Mapping[str, np.ndarray],
    config: VariationConfig,
    *,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> BookResult:
    """Agreement (blocked), series, pooled heatmaps, novelty and top passages for one embedded book."""
    t0 = time.perf_counter()
    blocked = analyse_blocked(
        embeddings,
        config.ssm,
        block_rows=config.block_rows,
        memory_mb=config.memory_mb,
        pool_size=config.pool_size or None,
        progress=progress,
        cancel=cancel,
    )
    t1 = time.perf_counter()
    stats = blocked.agreement.stats
    raw = {m: novelty_scores(normalise(embeddings[m], name=m), stats[m], config.novelty) for m in embeddings}
    words = np.array([len(s.text.split()) for s in book.sentences])
    ens = ensemble(raw, config.novelty, words=words)
    passages = top_passages(book, ens, config.novelty)
    t2 = time.perf_counter()
    return BookResult(
        book, blocked.agreement, blocked.series, blocked.pooled, raw, ens, passages,
        {"agreement_s": t1 - t0, "novelty_s": t2 - t1},
    )


def _slug(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "book"
    slug, k = base, 2
    while slug in taken:
        slug, k = f"{base}_{k}", k + 1
    taken.add(slug)
    return slug


def write_book(result: BookResult, out_dir: Path, config: VariationConfig) -> None:
    """The per-book CSVs, the pooled SSMs and (if configured) the figures."""
    folder = out_dir / result.folder
    models = list(result.agreement.models)
    atomic_write_csv(
        folder / "novelty.csv",
        novelty_rows(result.book, result.novelty, result.ensemble),
        ["sentence_id", "start", "end", "paragraph", *[f"novelty_{m}" for m in models], "ensemble", "votes", "spread", "text"],
    )
    n = len(result.book)
    series_rows = (
        {"sentence_id": i, **{m: round(float(result.series[m][i]), 6) for m in models}} for i in range(n - 1)
    )
    atomic_write_csv(folder / "series.csv", series_rows, ["sentence_id", *models])
    if result.pooled:
        with atomic_writer(folder / "ssm_pooled.npz", "wb") as fh:
            np.savez_compressed(fh, **{m: result.pooled[m].astype(np.float32) for m in models})
    if config.figures:
        from core.variation import figures

        figs = out_dir / "figures"
        name = result.folder
        marks = sorted({h.before for h in result.book.headings if 0 < h.before < n})
        if result.pooled:
            figures.ssm_heatmaps(result.pooled, figs / f"{name}_ssm.png", title=f"{name}: z-scored SSM", n=n)
        figures.series_plot(
            result.series, figs / f"{name}_series.png", title=f"{name}: successive similarity", smooth=config.smooth,
            marks=marks,
        )
        figures.correlation_map(result.agreement, figs / f"{name}_correlation.png", title=f"{name} (N={n})")
        figures.fraction_maps(result.agreement, figs / f"{name}_fractions.png", title=f"{name} (N={n})")


def agreement_table(agreement: Agreement) -> str:
    """A Markdown table of model pairs ranked by SSM correlation, with series r, PAF, NAF and DDAF both ways."""
    idx = {m: i for i, m in enumerate(agreement.models)}
    lines = [
        "| model A | model B | SSM r | series r | PAF | NAF | DDAF(A,B) | DDAF(B,A) |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def f(v: float) -> str:
        return "–" if not np.isfinite(v) else f"{v:.3f}"

    for a, b, _ in agreement.ranked_pairs("ssm_corr"):
        i, j = idx[a], idx[b]
        lines.append(
            f"| {a} | {b} | {f(agreement.ssm_corr[i, j])} | {f(agreement.series_corr[i, j])} | {f(agreement.paf[i, j])} "
            f"| {f(agreement.naf[i, j])} | {f(agreement.ddaf[i, j])} | {f(agreement.ddaf[j, i])} |"
        )
    return "\n".join(lines) + "\n"


def run_variation(
    book_paths: Sequence[str | Path],
    config: VariationConfig,
    source: EmbeddingSource,
    out_dir: str | Path | None = None,
    *,
    on_event: EventCallback | None = None,
    cancel: threading.Event | None = None,
    books: Sequence[Book] | None = None,
) -> VariationRun:
    """Run the study: every book × every model; writes ``out_dir`` when given (see the module doc).

    A book that cannot be read is recorded in ``errors`` and skipped; the run fails only when no
    book is usable. ``books`` passes already split books (then ``book_paths`` is ignored).
    """

    def emit(stage: str, book: str, done: int, total: int, model: str = "", message: str = "") -> None:
        if on_event is not None:
            on_event(VariationEvent(stage, book, done, total, model, message))

    out = Path(out_dir) if out_dir is not None else None
    errors: list[dict[str, str]] = []
    inputs = list(books) if books is not None else _read_books(book_paths, config, emit, cancel, errors)
    if not inputs:
        detail = "; ".join(f"{e['book']}: {e['error']}" for e in errors) or "no books given"
        raise InputError(f"no usable book ({detail})", hint=errors[0]["hint"] if errors and errors[0]["hint"] else "")
    results: list[BookResult] = []
    taken: set[str] = set()
    models_info: dict[str, dict[str, object]] = {}
    for book in inputs:
        embeddings, t_embed = _embed_book(book, config, source, emit, cancel, models_info)
        emit("analyse", book.name, 0, 1, message="model agreement (blocked)")
        result = analyse_book(
            book, embeddings, config, progress=lambda d, t, b=book.name: emit("analyse", b, d, t), cancel=cancel
        )
        del embeddings
        result.timings.update({f"embed_{m}_s": v for m, v in t_embed.items()})
        result.folder = _slug(book.name, taken)
        if out is not None:
            emit("write", book.name, 0, 1, message="writing results and figures")
            write_book(result, out, config)
        results.append(result)
    mean = mean_agreement([r.agreement for r in results]) if len(results) > 1 else None
    run = VariationRun(config, results, errors, mean, out, models_info)
    if out is not None:
        write_run(run)
    emit("done", "", 1, 1, message=f"{len(results)} book(s) analysed")
    return run


def _read_books(
    book_paths: Sequence[str | Path],
    config: VariationConfig,
    emit: Callable[..., None],
    cancel: threading.Event | None,
    errors: list[dict[str, str]],
) -> list[Book]:
    """Every readable book, split into sentences; a book that cannot be read is appended to ``errors``."""
    inputs: list[Book] = []
    for path in book_paths:
        check_cancel(cancel)
        name = Path(path).name
        emit("read", name, 0, 1, message=f"splitting {name} into sentences")
        try:
            inputs.append(
                read_book(
                    path,
                    splitter=config.splitter,
                    max_sentences=config.max_sentences,
                    progress=lambda d, t, name=name: emit("read", name, d, t),
                    cancel=cancel,
                )
            )
        except CancelledError:
            raise
        except SmithError as exc:
            errors.append({"book": str(path), "error": exc.message, "hint": exc.hint})
            emit("read", name, 1, 1, message=f"skipped: {exc}")
    return inputs


def _embed_book(
    book: Book,
    config: VariationConfig,
    source: EmbeddingSource,
    emit: Callable[..., None],
    cancel: threading.Event | None,
    models_info: dict[str, dict[str, object]],
) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """The book's sentences embedded by every model, and the seconds each took; ``models_info`` is filled in."""
    texts = book.texts
    embeddings: dict[str, np.ndarray] = {}
    t_embed: dict[str, float] = {}
    for model in config.models:
        check_cancel(cancel)
        emit("embed", book.name, 0, len(texts), model, f"embedding {len(texts)} sentences with {model}")
        t0 = time.perf_counter()
        E = source.encode(
            model, texts, progress=lambda d, t, m=model, b=book.name: emit("embed", b, d, t, m), cancel=cancel
        )
        t_embed[model] = time.perf_counter() - t0
        if not is_sparse(E):
            E = np.asarray(E)
        if len(E.shape) != 2 or E.shape[0] != len(texts):
            raise InputError(f"model {model} returned shape {E.shape} for {len(texts)} sentences")
        embeddings[model] = E
        if model not in models_info:
            models_info[model] = source.info(model)
        emit("embed", book.name, len(texts), len(texts), model)
    return embeddings, t_embed


def write_run(run: VariationRun) -> None:
    """``results.json``, ``agreement.md`` and the mean-over-books figures."""
    assert run.out_dir is not None
    out = run.out_dir
    doc = {
        "study": "semantic variation (Mistry & Minai): SSMs, model agreement, novelty",
        "created": timestamp(),
        "environment": environment(("matplotlib",)),
        "config": run.config.to_json(),
        "models": run.models_info,
        "matrices": list(MATRICES),
        "books": [r.to_json() for r in run.books],
        "errors": run.errors,
        "mean": run.mean.to_json() if run.mean is not None else None,
    }
    atomic_write_json(out / "results.json", doc)
    parts = ["# Model agreement\n"]
    if run.mean is not None:
        parts += [f"\n## Mean over {run.mean.books} books\n\n", agreement_table(run.mean)]
    for r in run.books:
        parts += [f"\n## {r.book.name} (N={len(r.book)})\n\n", agreement_table(r.agreement)]
    atomic_write_text(out / "agreement.md", "".join(parts))
    if run.config.figures and run.mean is not None:
        from core.variation import figures

        figures.correlation_map(run.mean, out / "figures" / "mean_correlation.png", title=f"mean over {run.mean.books} books")
        figures.fraction_maps(run.mean, out / "figures" / "mean_fractions.png", title=f"mean over {run.mean.books} books")


def _shrink(tiles: np.ndarray, size: int) -> np.ndarray:
    """Average a square tile matrix down to at most ``size`` tiles a side (NaN-aware)."""
    k = int(np.ceil(tiles.shape[0] / size))
    if k <= 1:
        return tiles
    n = tiles.shape[0] // k * k
    t = tiles[:n, :n].reshape(n // k, k, n // k, k)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(t, axis=(1, 3))


def redraw_figures(out_dir: str | Path, dest: str | Path | None = None, *, pool: int = 100, smooth: int = 50) -> list[Path]:
    """Redraw every figure of a finished run from its files (``results.json``, CSVs, ``ssm_pooled.npz``)."""
    import csv
    import json

    from core.variation import figures

    out = Path(out_dir)
    dest_dir = Path(dest) if dest is not None else out / "figures"
    try:
        doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"{out} holds no readable results.json ({exc})", hint="run `smithtui variation` first") from exc

    def agreement_of(block: dict[str, Any]) -> Any:
        from types import SimpleNamespace

        mats = {k: np.array([[np.nan if v is None else v for v in row] for row in block[k]]) for k in MATRICES}
        return SimpleNamespace(models=tuple(block["models"]), **mats)

    written: list[Path] = []
    for b in doc["books"]:
        folder = out / b["folder"]
        name = b["folder"]
        n = b["book"]["n_sentences"]
        ag = agreement_of(b["agreement"])
        npz = folder / "ssm_pooled.npz"
        if npz.exists():
            with np.load(npz) as data:
                pooled = {m: _shrink(data[m].astype(np.float64), pool) for m in ag.models if m in data.files}
            written.append(figures.ssm_heatmaps(pooled, dest_dir / f"{name}_ssm.png", title=f"{name}: z-scored SSM", n=n))
        with (folder / "series.csv").open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        series = {m: np.array([float(r[m]) for r in rows]) for m in ag.models}
        marks = sorted({h["before_sentence"] for h in b.get("headings", []) if 0 < h["before_sentence"] < n})
        written.append(
            figures.series_plot(series, dest_dir / f"{name}_series.png", title=f"{name}: successive similarity",
                                smooth=smooth, marks=marks)
        )
        written.append(figures.correlation_map(ag, dest_dir / f"{name}_correlation.png", title=f"{name} (N={n})"))
        written.append(figures.fraction_maps(ag, dest_dir / f"{name}_fractions.png", title=f"{name} (N={n})"))
    if doc.get("mean"):
        ag = agreement_of(doc["mean"])
        books = doc["mean"]["books"]
        written.append(figures.correlation_map(ag, dest_dir / "mean_correlation.png", title=f"mean over {books} books"))
        written.append(figures.fraction_maps(ag, dest_dir / "mean_fractions.png", title=f"mean over {books} books"))
    return written
