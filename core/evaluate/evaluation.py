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
from core.evaluate.results import EvalResult, ModelResult, RuleResult, rounded
from core.evaluate.similarities import ENCODE_MODES, cosines, model_name, object_similarities
from core.evaluate.triples import Triple, TripleSet, triples_from_records
from core.progress import ProgressCallback, check_cancel, report
from core.types import RULES

log = logging.getLogger(__name__)



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
            "jaccard_div_paraphrase": rounded(js_p[mask].mean()),
            "jaccard_div_foil": rounded(js_f[mask].mean()),
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
        "jaccard_div_paraphrase": rounded(js_p.mean()) if len(js_p) else None,
        "jaccard_div_foil": rounded(js_f.mean()) if len(js_f) else None,
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


@dataclass
class _Run:
    """One evaluation's fixed inputs: the triples, their distinct texts, per-triple indices and the options."""

    ts: TripleSet
    objects: Mapping[str, Any]  # the models passed as objects, by display name
    cache: Any | None
    settings: Any | None
    overrides: Mapping[str, Mapping[str, Any]] | None
    encode: str
    ties: str
    n_boot: int
    level: float
    seed: int
    cancel: threading.Event | None
    unique: list[str] = field(init=False)
    ia: np.ndarray = field(init=False)  # per triple: the index of its source in ``unique``
    ip: np.ndarray = field(init=False)  # ... of its paraphrase
    iff: np.ndarray = field(init=False)  # ... of its foil
    rules: np.ndarray = field(init=False)
    row_numbers: np.ndarray = field(init=False)
    packages: set[str] = field(default_factory=set)  # the packages of the registry models run (for provenance)

    def __post_init__(self) -> None:
        triples = self.ts.triples
        self.unique = self.ts.unique_texts()
        index = {t: i for i, t in enumerate(self.unique)}
        self.ia = np.array([index[t.source] for t in triples])
        self.ip = np.array([index[t.paraphrase] for t in triples])
        self.iff = np.array([index[t.foil] for t in triples])
        self.rules = np.array([t.rule for t in triples], dtype=object)
        self.row_numbers = np.array([t.row for t in triples])


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
    started = time.perf_counter()
    ts, names, objects = _checked_inputs(triples, embedder_names, settings, ties=ties, n_boot=n_boot, encode=encode)
    run = _Run(ts, objects, cache, settings, overrides, encode, ties, n_boot, level, seed, cancel)
    n_texts = len(run.unique)
    total = n_texts * len(names)
    models: list[ModelResult] = []
    for k, name in enumerate(names):
        check_cancel(cancel)
        base = k * n_texts
        if status is not None:
            status(f"{name}: embedding {n_texts} texts ({k + 1}/{len(names)} models)")

        def sub(done: int, _total: int, base: int = base) -> None:
            report(progress, base + done, total)

        models.append(_evaluate_model(run, name, sub))
        report(progress, (k + 1) * n_texts, total)
    return _assemble(run, names, models, started)


def _checked_inputs(
    triples: TripleSet | Iterable[Triple] | Iterable[Mapping[str, Any]],
    embedder_names: Sequence[str | Any] | None,
    settings: Any | None,
    *,
    ties: str,
    n_boot: int,
    encode: str,
) -> tuple[TripleSet, list[str], dict[str, Any]]:
    """The triple set, the model names to run and the models passed as objects; bad input raises InputError."""
    from core.embed.registry import usable_embedders

    if ties not in TIE_POLICIES:
        raise InputError(f"unknown tie policy {ties!r}", hint=f"use one of: {', '.join(TIE_POLICIES)}")
    if n_boot < 0:
        raise InputError(f"n_boot must be >= 0, got {n_boot}", hint="0 skips the bootstrap")
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
    return ts, names, objects


def _evaluate_model(run: _Run, name: str, sub: ProgressCallback) -> ModelResult:
    """One model's similarities and scores; a failure is recorded in the result, never raised (a cancel is)."""
    result = ModelResult(name=name, ok=False)
    t0 = time.perf_counter()
    try:
        sp, sn = _similarities(run, name, result, sub)
        _score_finite(run, result, sp, sn)
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
    return result


def _similarities(run: _Run, name: str, result: ModelResult, sub: ProgressCallback) -> tuple[np.ndarray, np.ndarray]:
    """``sim(s, p)`` and ``sim(s, f)`` per triple of a model object, a blind baseline or a registry model."""
    n_texts = len(run.unique)
    if name in run.objects:
        t_enc = time.perf_counter()
        sp, sn, result.info = object_similarities(run.objects[name], run.ts, run.encode)
        result.timings["encode_s"] = time.perf_counter() - t_enc
    elif is_blind(name):  # a fluency scorer that never reads the source
        sp, sn = _blind_scores(result, name, run.unique, run.ip, run.iff)
    else:
        return _registry_similarities(run, name, result, sub)
    sub(n_texts, n_texts)
    return sp, sn


def _registry_similarities(
    run: _Run, name: str, result: ModelResult, sub: ProgressCallback
) -> tuple[np.ndarray, np.ndarray]:
    """A registry model's cosines: a lexical one fitted on the distinct texts, any other through the cache."""
    from core.embed.registry import get_embedder, resolve

    unique = run.unique
    spec = resolve(name, run.settings)
    model_over = dict((run.overrides or {}).get(name, {}) or (run.overrides or {}).get(spec.name, {}))
    if spec.kind == "lexical":
        emb: Any = get_embedder(name, settings=run.settings, overrides=model_over, load=False, shared=False)
        emb.fit(unique)
        t_enc = time.perf_counter()
        matrix: Any = emb.encode_sparse(unique)
        result.timings["encode_s"] = time.perf_counter() - t_enc
        result.timings["load_s"] = 0.0
        result.cache = {"unique": len(unique), "hits": 0, "embedded": len(unique), "cached": False}
        sub(len(unique), len(unique))
    else:
        emb = get_embedder(name, settings=run.settings, overrides=model_over, load=False)
        matrix = _cached_encode(run, emb, result, sub)
    result.info = {**dict(emb.info), "encode": ENCODE_MODES["symmetric"]}
    version = str(result.info.get("version", ""))
    if "==" in version:
        run.packages.add(version.split("==")[0])
    return cosines(matrix, run.ia, run.ip), cosines(matrix, run.ia, run.iff)


def _cached_encode(run: _Run, emb: Any, result: ModelResult, sub: ProgressCallback) -> np.ndarray:
    """Every distinct text embedded through the run's cache (or a disabled one); timings and cache use recorded."""
    if run.cache is None:
        from core.embed.cache import EmbeddingCache

        runner = EmbeddingCache("/nonexistent", enabled=False)
    else:
        runner = run.cache
    warn_before = len(runner.warnings)
    matrix = runner.encode(emb, run.unique, progress=sub, cancel=run.cancel)
    stats = dict(runner.stats)
    result.warnings.extend(runner.warnings[warn_before:])
    result.timings["load_s"] = float(stats.get("load_seconds", 0.0))
    result.timings["encode_s"] = float(stats.get("seconds", 0.0))
    result.cache = {
        "unique": int(stats.get("unique", 0)), "hits": int(stats.get("hits", 0)),
        "embedded": int(stats.get("embedded", 0)), "cached": bool(runner.enabled),
        "directory": str(runner.directory) if runner.enabled else None,
    }  # fmt: skip
    return matrix


def _score_finite(run: _Run, result: ModelResult, sp: np.ndarray, sn: np.ndarray) -> None:
    """Score the triples whose similarities are finite; the others are counted in ``bad_rows``."""
    t_m = time.perf_counter()
    finite = np.isfinite(sp) & np.isfinite(sn)
    if not finite.all():
        result.bad_rows["text could not be embedded (non-finite vector)"] = int((~finite).sum())
        sp, sn = sp[finite], sn[finite]
    if sp.size == 0:
        raise InputError(f"{result.name}: no triple could be scored", hint="every vector was NaN")
    _score_model(result, sp, sn, run.rules[finite], ties=run.ties, n_boot=run.n_boot, level=run.level, seed=run.seed)
    result.sim_pos, result.sim_neg, result.rows = sp, sn, run.row_numbers[finite]
    result.timings["metrics_s"] = time.perf_counter() - t_m


def _assemble(run: _Run, names: list[str], models: list[ModelResult], started: float) -> EvalResult:
    """The run's result: every model's, the dataset summary, the parameters and the provenance."""
    from core import __version__
    from core.provenance import environment, timestamp

    extra = (
        "onnxruntime", "tokenizers", "model2vec", "huggingface-hub", *sorted(run.packages),
    )  # fmt: skip
    return EvalResult(
        models=models,
        dataset=_dataset_summary(run.ts, len(run.unique)),
        params={
            "seed": run.seed,
            "ties": run.ties,
            "n_boot": run.n_boot,
            "ci_level": run.level,
            "models": names,
            "overrides": {k: dict(v) for k, v in (run.overrides or {}).items()},
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
