"""Foil hardness: are foils lexically close to their source, and do models see through them?

Given paraphrase pairs (sentence, paraphrase), craft foils with the foil pipeline,
keep the validated ones and report, per rule and overall: how many foils, the
validation rate, word Jaccard(sentence, foil) against Jaccard(sentence, paraphrase)
(the mean of each and the share of triples where the foil is at least as close as
the paraphrase), and TACC/AUC/HM for the bag-of-words baseline, the blind fluency
baselines (``blind:trigram``: prefers whichever of paraphrase and foil reads more
fluently, never reading the source; see :func:`core.evaluate.evaluation.is_blind`) and each model.
When the input also holds foils (the SentenceSmith CSV layout), those foils are
evaluated on the same rows and reported side by side.

A foil that keeps the source's words fools surface matching: that is the point.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from core.config import Settings
from core.errors import InputError
from core.evaluate.metrics import jaccard
from core.evaluate.triples import Triple, normalise_rule
from core.inputs import InputRow, read_input_rows
from core.progress import ProgressCallback, check_cancel
from core.provenance import environment, file_sha256, timestamp
from core.textio import read_rows, table_format
from core.types import RULES

OURS = "ours"
REBALANCED = "ours-rebalanced"
PAPER = "paper"


def read_pairs(path: str | os.PathLike[str], limit: int | None = None) -> tuple[list[InputRow], list[Triple]]:
    """Distinct (sentence, paraphrase) pairs of a file, and the foils it already holds, if any.

    Pairs keep first-seen order; ``limit`` keeps the first N pairs, and only the
    file's foils of those pairs.
    """
    rows = read_input_rows(path)
    seen: dict[tuple[str, str], InputRow] = {}
    skipped = 0
    for row in rows:
        if not row.paraphrase or not row.sentence.strip():
            skipped += 1
            continue
        seen.setdefault((row.sentence, row.paraphrase), InputRow(f"P{len(seen) + 1}", row.sentence, row.paraphrase))
    pairs = list(seen.values())
    if not pairs:
        raise InputError(
            f"no (sentence, paraphrase) pairs in {path} ({skipped} rows without a paraphrase)",
            hint="the file needs a sentence column and a paraphrase column",
        )
    if limit is not None:
        pairs = pairs[:limit]
    return pairs, _file_foils(path, {(p.sentence, p.paraphrase) for p in pairs})


def _file_foils(path: str | os.PathLike[str], keep: set[tuple[str, str]]) -> list[Triple]:
    """The foils a SentenceSmith-layout file carries for the pairs in ``keep``."""
    if table_format(path) not in ("csv", "tsv", "jsonl"):
        return []
    rows = read_rows(path)
    if not rows or not {"modified_sentence", "original_sentence"} <= set(rows[0]):
        return []
    out = []
    for n, row in enumerate(rows, 2):
        key = (row.get("original_sentence") or "", row.get("paraphrase") or "")
        foil = row.get("modified_sentence") or ""
        if key in keep and foil.strip():
            out.append(Triple(key[0], key[1], foil, rule=normalise_rule(row.get("modification_type")), row=n))
    return out


def lexical_stats(triples: Sequence[Triple]) -> dict[str, Any]:
    """Mean word Jaccard of (s, foil) and (s, paraphrase), and how often the foil is at least as close.

    >>> t = [Triple("a b c", "a b d", "a b c x", "PN")]
    >>> lexical_stats(t)["foil_at_least_as_close"]
    1.0
    """
    if not triples:
        return {"n": 0, "jaccard_foil": None, "jaccard_paraphrase": None, "foil_at_least_as_close": None}
    jf = [jaccard(t.source, t.foil) for t in triples]
    jp = [jaccard(t.source, t.paraphrase) for t in triples]
    return {
        "n": len(triples),
        "jaccard_foil": sum(jf) / len(jf),
        "jaccard_paraphrase": sum(jp) / len(jp),
        "foil_at_least_as_close": sum(f >= p for f, p in zip(jf, jp, strict=True)) / len(jf),
    }


def _by_rule(triples: Sequence[Triple]) -> dict[str, list[Triple]]:
    groups: dict[str, list[Triple]] = {"all": list(triples)}
    for rule in RULES:
        chosen = [t for t in triples if t.rule == rule]
        if chosen:
            groups[rule] = chosen
    return groups


def _model_scores(result: Any) -> dict[str, dict[str, Any]]:
    """Overall and per-rule TACC/AUC/HM of each model of an :class:`~core.evaluate.results.EvalResult`."""
    out: dict[str, dict[str, Any]] = {}
    for model in result.models:
        if not model.ok:
            out[model.name] = {"error": model.error, "hint": model.hint}
            continue
        entry = {"all": {"tacc": model.tacc, "auc": model.auc, "hm": model.hm, "n": model.n}}
        for rule, rr in model.per_rule.items():
            entry[rule] = {"tacc": rr.tacc, "auc": rr.auc, "hm": rr.hm, "n": rr.n}
        out[model.name] = entry
    return out


def hardness_report(
    path: str | os.PathLike[str],
    *,
    settings: Settings | None = None,
    models: Sequence[str] = ("bow", "minilm"),
    blind: Sequence[str] = ("trigram",),
    limit: int | None = None,
    cache: Any | None = None,
    n_boot: int = 0,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    records_out: list[dict[str, Any]] | None = None,
    engine: Any | None = None,
    rebalance: float | None = None,
) -> dict[str, Any]:
    """Craft foils for the pairs in ``path`` and measure their hardness (see the module doc).

    ``records_out``, when given, receives every foil record the pipeline produced; ``blind`` names
    the fluency scorers run as blind baselines (``()``: none). ``rebalance`` (a blind TACC ceiling,
    e.g. 0.6) adds the set ``ours-rebalanced``: our foils less those the first blind scorer solves by
    the widest margins, rule by rule, until its TACC is at most the ceiling
    (:mod:`core.evaluate.rebalance`), scored by the same models. ``engine``
    (a :class:`core.engines.EngineSpec`) crafts the foils shard by shard and spreads the models
    over its workers; the report is the same whatever the engine.
    """
    from core.evaluate.evaluation import BLIND_PREFIX
    from core.foils.pipeline import FoilPipeline

    settings = settings or Settings()
    started = time.perf_counter()
    if rebalance is not None:  # refused now, not after the foils
        from core.evaluate.rebalance import rebalance_scorer, rebalance_triples

        scorer = rebalance_scorer(blind, rebalance)
    pairs, paper = read_pairs(path, limit)
    pipeline = FoilPipeline.from_settings(settings)
    if engine is None or engine.name == "local":
        records = list(pipeline.run(pairs, progress=progress, cancel=cancel))
    else:
        from core.batch import craft_records

        records = craft_records(pairs, settings=settings, engine=engine, progress=progress, cancel=cancel)
    check_cancel(cancel)
    if records_out is not None:
        records_out.extend(records)
    t_foils = time.perf_counter() - started

    kept, validation, failed_sentences = _kept_foils(records)
    ours = [Triple(r.source, r.paraphrase or "", str(r.foil), rule=str(r.rule), variant=r.variant, id=r.id) for r in kept]
    names = list(dict.fromkeys(["bow", *(f"{BLIND_PREFIX}{b}" for b in blind if b != "none"), *models]))
    report: dict[str, Any] = {"sets": {}}
    sets = {OURS: ours, PAPER: paper}
    if rebalance is not None:
        sets[REBALANCED], report["rebalance"] = rebalance_triples(ours, scorer, max_tacc=rebalance)
    for label, triples in sets.items():
        if not triples:
            continue
        check_cancel(cancel)
        report["sets"][label] = _scored_set(triples, names, settings, cache, n_boot, cancel, engine)
    report["sets"].setdefault(OURS, {"n_triples": 0})["validation"] = validation
    report["pairs"] = len(pairs)
    report["sentences_without_foil"] = len(failed_sentences)
    fields = ("source", "paraphrase", "foil", "rule", "variant", "description")
    report["examples"] = [{k: getattr(r, k) for k in fields} for r in kept[:20]]
    report["provenance"] = {
        "input": str(path),
        "input_sha256": file_sha256(path),
        "limit": limit,
        "models": names,
        "pipeline": pipeline.provenance(),
        "environment": environment(),
        "created": timestamp(),
        "seconds": {"foils": round(t_foils, 2), "total": round(time.perf_counter() - started, 2)},
    }
    return report


def rebalanced_records(records: Sequence[Any], summary: Mapping[str, Any]) -> list[Any]:
    """The kept foil records a rebalance kept (``summary`` is the report's ``rebalance``), in record order."""
    from core.record import as_foil

    dropped = {d["id"] for d in summary["dropped_triples"]}
    out = [r for r in records if (f := as_foil(r)).has_foil and f.kept is True and f.id not in dropped]
    if len(out) != summary["kept"]:  # ids must name triples one to one, or the file would not be the set scored
        raise InputError(f"{len(out)} records for {summary['kept']} rebalanced triples", hint="foil ids must be unique")
    return out


def _kept_foils(records: Sequence[Mapping[str, Any]]) -> tuple[list[Any], dict[str, Any], set[str]]:
    """The kept foils, the validation rates per rule (of the emitted foils, the share kept), and the sentences that
    gave no foil at all; a refused edit or a failed sentence (foil None) is not emitted."""
    from core.record import as_foil

    typed = [as_foil(r) for r in records]
    emitted = [r for r in typed if r.has_foil]
    kept = [r for r in emitted if r.kept is True]
    validation = {
        rule: {
            "emitted": len(group),
            "kept": sum(r.kept is True for r in group),
            "rate": (sum(r.kept is True for r in group) / len(group)) if group else None,
        }
        for rule, group in [("all", emitted)] + [(x, [r for r in emitted if r.rule == x]) for x in RULES]
        if group
    }
    failed_sentences = {r.row_id for r in typed if r.error is not None} - {r.row_id for r in emitted}
    return kept, validation, failed_sentences


def _scored_set(
    triples: Sequence[Triple], names: Sequence[str], settings: Settings, cache: Any, n_boot: int,
    cancel: threading.Event | None, engine: Any | None,
) -> dict[str, Any]:  # fmt: skip
    """One set's triples scored by every model (locally or spread over the engine's workers), with its lexical
    statistics per rule."""
    from core.evaluate.evaluation import evaluate_triples

    if engine is None or engine.name == "local":
        result = evaluate_triples(triples, names, cache, seed=settings.pipeline.seed, n_boot=n_boot, cancel=cancel)
    else:
        from core.evaluate.spread import evaluate_spread

        result = evaluate_spread(
            triples, names, engine, settings=settings, cache_dir=str(cache.directory) if cache is not None else None,
            cache_enabled=cache is not None, seed=settings.pipeline.seed, n_boot=n_boot, cancel=cancel,
        )  # fmt: skip
    return {
        "n_triples": len(triples),
        "rows": len({(t.source, t.paraphrase) for t in triples}),
        "lexical": {rule: lexical_stats(g) for rule, g in _by_rule(triples).items()},
        "models": _model_scores(result),
    }


def _fmt(x: Any, pct: bool = False) -> str:
    if x is None:
        return "–"
    return f"{100 * x:.1f}%" if pct else f"{x:.3f}"


def summary_rows(report: Mapping[str, Any]) -> list[dict[str, str]]:
    """One row per (set, rule): the numbers the issue asks for, formatted."""
    from core.evaluate.evaluation import BLIND_PREFIX

    rows = []
    sets = report["sets"]
    models = report["provenance"]["models"]
    for label in (OURS, REBALANCED, PAPER):
        if label not in sets or not sets[label].get("n_triples"):
            continue
        data = sets[label]
        for rule, lex in data["lexical"].items():
            row = {
                "foils": label,
                "rule": rule,
                "n": str(lex["n"]),
                "valid": _fmt((data.get("validation") or {}).get(rule, {}).get("rate"), pct=True)
                if label == OURS
                else "–",
                "J(s,f)": _fmt(lex["jaccard_foil"]),
                "J(s,p)": _fmt(lex["jaccard_paraphrase"]),
                "J(s,f)≥J(s,p)": _fmt(lex["foil_at_least_as_close"], pct=True),
            }
            for name in models:
                scores = data["models"].get(name, {})
                row[f"{name} TACC"] = _fmt((scores.get(rule) or {}).get("tacc"))
            for name in models:
                scores = data["models"].get(name, {})
                row[f"{name} HM"] = _fmt((scores.get(rule) or {}).get("hm"))
            for name in models:
                if name.startswith(BLIND_PREFIX):  # a blind baseline's AUC: can fluency alone rank p above f?
                    row[f"{name} AUC"] = _fmt((data["models"].get(name, {}).get(rule) or {}).get("auc"))
            rows.append(row)
    return rows


def markdown_table(report: Mapping[str, Any]) -> str:
    """The side-by-side table as Markdown, for the README."""
    rows = summary_rows(report)
    if not rows:
        return "(no foils)"
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r[h] for h in head) + " |" for r in rows]
    return "\n".join(lines)
