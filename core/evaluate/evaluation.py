"""Evaluating embedders on (sentence, paraphrase, foil) triples: TACC, AUC, HM, per rule, with CIs.

For each model, every distinct text is embedded once (through the cache), the cosine
similarities ``sim(s, p)`` and ``sim(s, f)`` are taken per triple, and :mod:`core.evaluate.metrics`
turns them into scores. A model that cannot load or embed is reported with its error
and hint; the others still run. Bootstrap intervals use one seed and the same resamples
for every model (paired).

>>> from core.evaluate.triples import triples_from_records
>>> ts = triples_from_records([
...     {"source": "the cat sat on the mat", "paraphrase": "on the mat the cat sat", "foil": "the dog sat", "rule": "HS"},
...     {"source": "she is happy", "paraphrase": "she is glad", "foil": "she is not happy", "rule": "PN"},
... ])
>>> res = evaluate_triples(ts, ["bow"], cache=None, seed=1, n_boot=50)
>>> res.models[0].tacc, res.models[0].per_rule["PN"].tacc
(0.5, 0.0)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.errors import CancelledError, InputError, SmithError
from core.evaluate.metrics import (
    TIE_POLICIES,
    bootstrap_triplet,
    count_ties,
    harmonic_mean,
    jaccard_divergence,
    roc_auc,
    triplet_accuracy,
)
from core.evaluate.table import table_rows
from core.evaluate.triples import Triple, TripleSet, triples_from_records
from core.progress import ProgressCallback, check_cancel, report
from core.types import RULES

log = logging.getLogger(__name__)

Interval = tuple[float, float]


def _r(x: float | None, nd: int = 6) -> float | None:
    return None if x is None else round(float(x), nd)


def _ri(ci: Interval | None) -> list[float] | None:
    return None if ci is None else [round(float(ci[0]), 6), round(float(ci[1]), 6)]


@dataclass
class RuleResult:
    """Scores of one model on the triples of one rule."""

    rule: str
    n: int
    tacc: float
    auc: float
    hm: float
    ties: int
    tacc_ci: Interval | None = None
    auc_ci: Interval | None = None
    hm_ci: Interval | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n, "tacc": _r(self.tacc), "auc": _r(self.auc), "hm": _r(self.hm), "ties": self.ties,
            "tacc_ci": _ri(self.tacc_ci), "auc_ci": _ri(self.auc_ci), "hm_ci": _ri(self.hm_ci),
        }  # fmt: skip


@dataclass
class ModelResult:
    """One model's scores (or why it has none), its provenance, timings and cache use."""

    name: str
    ok: bool
    error: str = ""
    hint: str = ""
    info: dict[str, Any] = field(default_factory=dict)
    n: int = 0
    tacc: float | None = None
    auc: float | None = None
    hm: float | None = None
    ties: int = 0
    tacc_ci: Interval | None = None
    auc_ci: Interval | None = None
    hm_ci: Interval | None = None
    per_rule: dict[str, RuleResult] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    bad_rows: dict[str, int] = field(default_factory=dict)
    sim_pos: np.ndarray | None = None  # per usable triple, in triple order
    sim_neg: np.ndarray | None = None
    rows: np.ndarray | None = None  # the file row of each scored triple

    def to_dict(self, scores: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "ok": self.ok, "error": self.error or None, "hint": self.hint or None,
            "info": self.info, "n": self.n, "tacc": _r(self.tacc), "auc": _r(self.auc), "hm": _r(self.hm),
            "ties": self.ties, "tacc_ci": _ri(self.tacc_ci), "auc_ci": _ri(self.auc_ci), "hm_ci": _ri(self.hm_ci),
            "per_rule": {r: v.to_dict() for r, v in self.per_rule.items()},
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "cache": self.cache, "warnings": self.warnings, "bad_rows": self.bad_rows,
        }  # fmt: skip
        if scores and self.sim_pos is not None and self.sim_neg is not None and self.rows is not None:
            out["scores"] = {
                "row": self.rows.tolist(),
                "sim_pos": [round(float(x), 6) for x in self.sim_pos],
                "sim_neg": [round(float(x), 6) for x in self.sim_neg],
            }
        return out


@dataclass
class EvalResult:
    """Every model's result on one triple set, with the dataset summary and provenance."""

    models: list[ModelResult]
    dataset: dict[str, Any]
    params: dict[str, Any]
    provenance: dict[str, Any]

    def get(self, name: str) -> ModelResult:
        for m in self.models:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def rules(self) -> list[str]:
        """The rules present, in ``RULES`` order, then others."""
        return list(self.dataset.get("rules", {}))

    def to_dict(self, scores: bool = False) -> dict[str, Any]:
        """JSON-ready: ``scores=True`` adds the per-triple similarities of every model."""
        return {
            "format": "smithtui-eval/1",
            "params": self.params,
            "dataset": self.dataset,
            "models": [m.to_dict(scores) for m in self.models],
            "provenance": self.provenance,
        }

    def table_rows(self) -> list[dict[str, Any]]:
        """One flat row per model: the columns of the terminal and CSV tables."""
        return table_rows(self.to_dict())


def _as_triple_set(triples: TripleSet | Iterable[Triple] | Iterable[Mapping[str, Any]]) -> TripleSet:
    if isinstance(triples, TripleSet):
        return triples
    items = list(triples)
    if all(isinstance(t, Triple) for t in items):
        return TripleSet(tuple(items), n_rows=len(items))  # type: ignore[arg-type]
    if all(isinstance(t, Mapping) for t in items):
        return triples_from_records(items)  # type: ignore[arg-type]
    raise InputError(
        "triples must be Triple objects or dict records", hint="read a file with core.evaluate.triples.read_triples"
    )


ENCODE_MODES: Mapping[str, str] = {
    "symmetric": "encode: sentence, paraphrase and foil alike (no query/document prompts)",
    "query-document": "encode_query for the sentence, encode_document for paraphrase and foil (ST TripletEvaluator)",
}
"""How texts are embedded; named (registry) models always use ``symmetric``."""


def model_name(model: Any) -> str:
    """A display name for a registry name or a model object (its folder or hub id when it has one).

    >>> model_name(" bow "), model_name(type("Enc", (), {"encode": None})())
    ('bow', 'Enc')
    """
    if isinstance(model, str):
        return model.strip()
    card = getattr(model, "model_card_data", None)
    for value in (getattr(model, "name", None), getattr(card, "model_id", None), getattr(card, "base_model", None)):
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def _encode_with(fn: Any, texts: list[str]) -> np.ndarray:
    import inspect

    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    kwargs = {k: v for k, v in (("convert_to_numpy", True), ("show_progress_bar", False)) if k in params}
    return np.asarray(fn(texts, **kwargs), dtype=np.float64)


def _object_similarities(model: Any, ts: TripleSet, encode: str) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """sim(s, p) and sim(s, f) of a model object, and what it was (class, encode mode)."""
    if not callable(getattr(model, "encode", None)):
        raise InputError(f"{type(model).__name__} has no encode method", hint="pass a model name or an encoder")
    sources = list(dict.fromkeys(t.source for t in ts.triples))
    others = list(dict.fromkeys(x for t in ts.triples for x in (t.paraphrase, t.foil)))
    if encode == "query-document" and hasattr(model, "encode_query") and hasattr(model, "encode_document"):
        qs, ds = _encode_with(model.encode_query, sources), _encode_with(model.encode_document, others)
        used = "query-document"
    else:
        both = _encode_with(model.encode, list(dict.fromkeys(sources + others)))
        qs, ds = both[: len(sources)], both
        index = {t: i for i, t in enumerate(dict.fromkeys(sources + others))}
        others = list(index)
        used = "symmetric"
    si = {t: i for i, t in enumerate(sources)}
    oi = {t: i for i, t in enumerate(others)}
    a = np.array([si[t.source] for t in ts.triples])
    matrix = np.vstack([qs, ds])
    off = len(sources)
    sp = _cosines(matrix, a, np.array([off + oi[t.paraphrase] for t in ts.triples]))
    sn = _cosines(matrix, a, np.array([off + oi[t.foil] for t in ts.triples]))
    info = {"kind": "object", "class": f"{type(model).__module__}.{type(model).__qualname__}", "encode": ENCODE_MODES[used]}
    return sp, sn, info


def _cosines(matrix: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of ``matrix[a]`` and ``matrix[b]`` (dense or scipy sparse), float64; zero rows give 0."""
    if hasattr(matrix, "multiply"):  # scipy sparse, rows already L2-normalised
        ma, mb = matrix[a], matrix[b]
        dots = np.asarray(ma.multiply(mb).sum(axis=1), dtype=np.float64).ravel()
        na = np.sqrt(np.asarray(ma.multiply(ma).sum(axis=1), dtype=np.float64).ravel())
        nb = np.sqrt(np.asarray(mb.multiply(mb).sum(axis=1), dtype=np.float64).ravel())
    else:
        m = np.asarray(matrix, dtype=np.float64)
        ma, mb = m[a], m[b]
        dots = np.einsum("ij,ij->i", ma, mb)
        na, nb = np.linalg.norm(ma, axis=1), np.linalg.norm(mb, axis=1)
    denom = na * nb
    out = np.divide(dots, denom, out=np.zeros_like(dots), where=denom > 0)
    return np.clip(out, -1.0, 1.0)


BLIND_PREFIX = "blind:"


def is_blind(name: str) -> bool:
    """Whether a model name is a blind fluency baseline (``blind:trigram``, ``blind:smollm2``).

    >>> is_blind("blind:trigram"), is_blind("minilm")
    (True, False)
    """
    return name.strip().lower().startswith(BLIND_PREFIX)


def _blind_scores(
    result: ModelResult, name: str, unique: Sequence[str], ip: np.ndarray, iff: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A blind baseline's "similarities": the fluency of the paraphrase and of the foil, source unread.

    It prefers whichever of the two reads more fluently (mean per-token log-probability,
    :mod:`core.foils.fluency`); a triple set it solves tests fluency, not meaning.
    """
    from core.foils.fluency import get_scorer

    t_load = time.perf_counter()
    scorer = get_scorer(name.strip()[len(BLIND_PREFIX) :])
    if scorer.name == "none":
        raise InputError(f"{name}: the 'none' scorer scores nothing", hint="use blind:trigram or blind:smollm2")
    result.timings["load_s"] = time.perf_counter() - t_load
    t_enc = time.perf_counter()
    needed = np.unique(np.concatenate([ip, iff]))  # the sources are never read
    scores = np.full(len(unique), np.nan)
    scores[needed] = scorer.logprob([unique[i] for i in needed])
    result.timings["encode_s"] = time.perf_counter() - t_enc
    result.cache = {"unique": len(unique), "hits": 0, "embedded": int(needed.size), "cached": False}
    result.info = {**scorer.info(), "blind": True, "similarity": "fluency of the paraphrase vs of the foil"}
    return scores[ip], scores[iff]


def _rule_order(rules: Iterable[str]) -> list[str]:
    present = set(rules)
    return [r for r in RULES if r in present] + sorted(r for r in present if r not in RULES)


def _dataset_summary(ts: TripleSet, unique: int) -> dict[str, Any]:
    """Counts, bad rows, and the mean Jaccard divergence of paraphrases and foils from their sentence."""
    per_rule: dict[str, dict[str, Any]] = {}
    js_p = np.array([jaccard_divergence(t.source, t.paraphrase) for t in ts.triples])
    js_f = np.array([jaccard_divergence(t.source, t.foil) for t in ts.triples])
    rules = np.array([t.rule for t in ts.triples], dtype=object)
    for r in _rule_order(t.rule for t in ts.triples if t.rule):
        mask = rules == r
        per_rule[r] = {
            "n": int(mask.sum()),
            "jaccard_div_paraphrase": _r(js_p[mask].mean()),
            "jaccard_div_foil": _r(js_f[mask].mean()),
        }
    return {
        "path": ts.path,
        "sha256": ts.sha256,
        "layout": ts.layout,
        "columns": dict(ts.columns),
        "rows": ts.n_rows or len(ts.triples) + len(ts.bad),
        "triples": len(ts.triples),
        "unique_texts": unique,
        "unlabelled": int((rules == "").sum()) if len(rules) else 0,
        "bad_rows": ts.bad_counts(),
        "bad_row_numbers": {reason: [b.row for b in ts.bad if b.reason == reason][:50] for reason in ts.bad_counts()},
        "rules": per_rule,
        "jaccard_div_paraphrase": _r(js_p.mean()) if len(js_p) else None,
        "jaccard_div_foil": _r(js_f.mean()) if len(js_f) else None,
    }


def _score_model(
    result: ModelResult,
    sp: np.ndarray,
    sn: np.ndarray,
    rules: np.ndarray,
    *,
    ties: str,
    n_boot: int,
    level: float,
    seed: int,
) -> None:
    result.n = int(sp.size)
    result.tacc = triplet_accuracy(sp, sn, ties)
    result.auc = roc_auc(sp, sn)
    result.hm = harmonic_mean(result.tacc, result.auc)
    result.ties = count_ties(sp, sn)
    if n_boot > 0:
        cis = bootstrap_triplet(sp, sn, ties=ties, n_boot=n_boot, level=level, seed=seed)
        result.tacc_ci, result.auc_ci, result.hm_ci = cis["tacc"], cis["auc"], cis["hm"]
    for r in _rule_order(x for x in rules if x):
        mask = rules == r
        p, n = sp[mask], sn[mask]
        tacc, auc = triplet_accuracy(p, n, ties), roc_auc(p, n)
        rr = RuleResult(r, int(mask.sum()), tacc, auc, harmonic_mean(tacc, auc), count_ties(p, n))
        if n_boot > 0:
            cis = bootstrap_triplet(p, n, ties=ties, n_boot=n_boot, level=level, seed=seed)
            rr.tacc_ci, rr.auc_ci, rr.hm_ci = cis["tacc"], cis["auc"], cis["hm"]
        result.per_rule[r] = rr


def evaluate_triples(
    triples: TripleSet | Iterable[Triple] | Iterable[Mapping[str, Any]],
    embedder_names: Sequence[str | Any] | None = None,
    cache: Any | None = None,
    seed: int = 13,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    *,
    ties: str = "strict",
    n_boot: int = 1000,
    level: float = 0.95,
    settings: Any | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    encode: str = "symmetric",
    status: Callable[[str], None] | None = None,
) -> EvalResult:
    """Score each embedder on ``triples``: a registry name, or a model object with ``encode``.

    A model object (a ``SentenceTransformer`` being fine-tuned, anything with ``encode(texts)``)
    is embedded directly, without the cache; ``encode`` says how (see ``ENCODE_MODES``: every text
    with ``encode``, or the sentence with ``encode_query`` and paraphrase/foil with ``encode_document``).
    Named models always embed every text alike with ``encode``; each result records its mode in
    ``info["encode"]``. ``embedder_names`` defaults to every embedder usable here; ``cache`` is an
    :class:`~core.embed.cache.EmbeddingCache` (None: embed without one); ``overrides``
    maps a model name to setting overrides (``{"e5-small": {"prefix": "passage: "}}``).
    ``progress(done, total)`` counts distinct texts over all models; ``cancel`` is checked
    between chunks and raises :class:`~core.errors.CancelledError`; ``status`` gets a short line
    as each model starts (``"minilm: embedding 320 texts"``). ``n_boot=0`` skips the bootstrap. Per-model failures are values (``ModelResult.ok is False``), never raised.
    """
    from core.embed.registry import get_embedder, resolve, usable_embedders

    if ties not in TIE_POLICIES:
        raise InputError(f"unknown tie policy {ties!r}", hint=f"use one of: {', '.join(TIE_POLICIES)}")
    if n_boot < 0:
        raise InputError(f"n_boot must be >= 0, got {n_boot}", hint="0 skips the bootstrap")
    started = time.perf_counter()
    ts = _as_triple_set(triples)
    if not ts.triples:
        bad = ", ".join(f"{n} {r}" for r, n in ts.bad_counts().items()) or "no rows"
        raise InputError(
            f"no usable triples in {ts.path or 'the input'} ({bad})", hint="check the columns and the layout"
        )
    wanted = list(embedder_names or usable_embedders(settings))
    objects = {model_name(m): m for m in wanted if not isinstance(m, str)}  # models passed as objects
    names = list(dict.fromkeys(model_name(n) for n in wanted if not isinstance(n, str) or n.strip()))
    if encode not in ENCODE_MODES:
        raise InputError(f"unknown encode mode {encode!r}", hint=f"use one of: {', '.join(ENCODE_MODES)}")
    if not names:
        raise InputError("no embedders to evaluate", hint="name some with --models, e.g. bow,tfidf,minilm")
    unique = ts.unique_texts()
    index = {t: i for i, t in enumerate(unique)}
    ia = np.array([index[t.source] for t in ts.triples])
    ip = np.array([index[t.paraphrase] for t in ts.triples])
    iff = np.array([index[t.foil] for t in ts.triples])
    rules = np.array([t.rule for t in ts.triples], dtype=object)
    row_numbers = np.array([t.row for t in ts.triples])
    total = len(unique) * len(names)
    models: list[ModelResult] = []
    packages: set[str] = set()

    for k, name in enumerate(names):
        check_cancel(cancel)
        base = k * len(unique)
        if status is not None:
            status(f"{name}: embedding {len(unique)} texts ({k + 1}/{len(names)} models)")

        def sub(done: int, _total: int, base: int = base) -> None:
            report(progress, base + done, total)

        result = ModelResult(name=name, ok=False)
        t0 = time.perf_counter()
        try:
            if name in objects:
                t_enc = time.perf_counter()
                sp, sn, result.info = _object_similarities(objects[name], ts, encode)
                result.timings["encode_s"] = time.perf_counter() - t_enc
                sub(len(unique), len(unique))
            elif is_blind(name):  # a fluency scorer that never reads the source
                sp, sn = _blind_scores(result, name, unique, ip, iff)
                sub(len(unique), len(unique))
            else:
                spec = resolve(name, settings)
                model_over = dict((overrides or {}).get(name, {}) or (overrides or {}).get(spec.name, {}))
                if spec.kind == "lexical":
                    emb: Any = get_embedder(name, settings=settings, overrides=model_over, load=False, shared=False)
                    emb.fit(unique)
                    t_enc = time.perf_counter()
                    matrix: Any = emb.encode_sparse(unique)
                    result.timings["encode_s"] = time.perf_counter() - t_enc
                    result.timings["load_s"] = 0.0
                    result.cache = {"unique": len(unique), "hits": 0, "embedded": len(unique), "cached": False}
                    sub(len(unique), len(unique))
                else:
                    emb = get_embedder(name, settings=settings, overrides=model_over, load=False)
                    if cache is None:
                        from core.embed.cache import EmbeddingCache

                        runner = EmbeddingCache("/nonexistent", enabled=False)
                    else:
                        runner = cache
                    warn_before = len(runner.warnings)
                    matrix = runner.encode(emb, unique, progress=sub, cancel=cancel)
                    stats = dict(runner.stats)
                    result.warnings.extend(runner.warnings[warn_before:])
                    result.timings["load_s"] = float(stats.get("load_seconds", 0.0))
                    result.timings["encode_s"] = float(stats.get("seconds", 0.0))
                    result.cache = {
                        "unique": int(stats.get("unique", 0)), "hits": int(stats.get("hits", 0)),
                        "embedded": int(stats.get("embedded", 0)), "cached": bool(runner.enabled),
                        "directory": str(runner.directory) if runner.enabled else None,
                    }  # fmt: skip
                result.info = {**dict(emb.info), "encode": ENCODE_MODES["symmetric"]}
                version = str(result.info.get("version", ""))
                if "==" in version:
                    packages.add(version.split("==")[0])
                sp, sn = _cosines(matrix, ia, ip), _cosines(matrix, ia, iff)
            t_m = time.perf_counter()
            finite = np.isfinite(sp) & np.isfinite(sn)
            if not finite.all():
                result.bad_rows["text could not be embedded (non-finite vector)"] = int((~finite).sum())
                sp, sn = sp[finite], sn[finite]
            if sp.size == 0:
                raise InputError(f"{name}: no triple could be scored", hint="every vector was NaN")
            _score_model(result, sp, sn, rules[finite], ties=ties, n_boot=n_boot, level=level, seed=seed)
            result.sim_pos, result.sim_neg, result.rows = sp, sn, row_numbers[finite]
            result.timings["metrics_s"] = time.perf_counter() - t_m
            result.ok = True
        except CancelledError:
            raise
        except SmithError as exc:
            result.error, result.hint = exc.message, exc.hint
        except Exception as exc:  # a backend failing to load or embed must not stop the other models
            log.debug("embedder %s failed", name, exc_info=True)
            result.error = f"{type(exc).__name__}: {exc}"
            result.hint = "this model failed to load or embed; the other models were still evaluated"
        result.timings["total_s"] = time.perf_counter() - t0
        models.append(result)
        report(progress, (k + 1) * len(unique), total)

    from core import __version__
    from core.provenance import environment, timestamp

    extra = (
        "onnxruntime", "tokenizers", "model2vec", "huggingface-hub", *sorted(packages),
    )  # fmt: skip
    return EvalResult(
        models=models,
        dataset=_dataset_summary(ts, len(unique)),
        params={
            "seed": seed,
            "ties": ties,
            "n_boot": n_boot,
            "ci_level": level,
            "models": names,
            "overrides": {k: dict(v) for k, v in (overrides or {}).items()},
        },
        provenance={
            "smithtui": __version__,
            "created": timestamp(),
            "seconds": round(time.perf_counter() - started, 3),
            "environment": environment(extra),
        },
    )


def compare_results(results: Mapping[str, Mapping[str, Any]], metric: str = "hm") -> dict[str, Any]:
    """Side-by-side ``metric`` per model over several result dicts (e.g. PAWS foils vs this project's),
    with the Spearman correlation of the model rankings for each pair of datasets.

    >>> a = {"models": [{"name": "x", "ok": True, "hm": 0.9}, {"name": "y", "ok": True, "hm": 0.5}]}
    >>> b = {"models": [{"name": "x", "ok": True, "hm": 0.7}, {"name": "y", "ok": True, "hm": 0.6}]}
    >>> compare_results({"paws": a, "ours": b})["spearman"]
    {'paws~ours': 1.0}
    """
    from core.evaluate.metrics import spearman

    labels = list(results)
    by_label = {
        lab: {m["name"]: m.get(metric) for m in res.get("models", []) if m.get("ok")} for lab, res in results.items()
    }
    names = [n for n in dict.fromkeys(n for lab in labels for n in by_label[lab])]
    rows = [{"model": n, **{lab: by_label[lab].get(n) for lab in labels}} for n in names]
    corr: dict[str, float | None] = {}
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            shared = [n for n in names if by_label[a].get(n) is not None and by_label[b].get(n) is not None]
            if len(shared) < 2:
                corr[f"{a}~{b}"] = None
                continue
            rho = spearman([by_label[a][n] for n in shared], [by_label[b][n] for n in shared])
            corr[f"{a}~{b}"] = round(rho, 6) if np.isfinite(rho) else None
    return {"metric": metric, "rows": rows, "spearman": corr}


def markdown_table(result: Mapping[str, Any], *, ci: bool = True) -> str:
    """A Markdown table of a result dict: TACC [CI], AUC, HM, per-rule TACC, n, seconds."""
    rules = list(result.get("dataset", {}).get("rules", {}))
    head = ["model", "TACC", "AUC", "HM", *(f"{r} TACC" for r in rules), "n", "time (s)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]

    def f(x: float | None) -> str:
        return "–" if x is None else f"{x:.3f}"

    for m in result.get("models", []):
        if not m["ok"]:
            lines.append(f"| {m['name']} | not run: {m['error']} |" + " |" * (len(head) - 2))
            continue
        tacc = f(m["tacc"]) + (f" [{m['tacc_ci'][0]:.3f}, {m['tacc_ci'][1]:.3f}]" if ci and m.get("tacc_ci") else "")
        per = [f(m["per_rule"][r]["tacc"]) if r in m["per_rule"] else "–" for r in rules]
        secs = m["timings"].get("total_s")
        cells = [m["name"], tacc, f(m["auc"]), f(m["hm"]), *per, str(m["n"]), "–" if secs is None else f"{secs:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
