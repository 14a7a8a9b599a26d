"""``smithtui eval``: score embedding models on (sentence, paraphrase, foil) triples.

Prints a table per model (TACC with its bootstrap interval, AUC, HM, per-rule TACC, n,
seconds), writes the full result with provenance as JSON (``--out``) and the table as
CSV (``--out-csv``). Several ``--triples`` files are evaluated in turn and compared
side by side (HM per dataset, Spearman correlation of the model rankings).

Exit status: 0 when every model was scored, 1 when some could not be (the others are
still in the outputs), 2 for unusable input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from smithtui.commands.engine import add_engine_arguments, engine_spec
from smithtui.commands.flags import name_list, nonneg_int, unit_interval

DESCRIPTION = "Score embedding models on (sentence, paraphrase, foil) triples: TACC, AUC, HM per edit type."


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("eval", help="score embedding models on triples", description=DESCRIPTION)
    p.add_argument(
        "--triples", action="append", metavar="FILE",
        help="triples: foil-engine JSONL or Parquet, SentenceSmith CSV, or CSV/TSV/JSONL with named columns (repeatable)",
    )  # fmt: skip
    p.add_argument("--models", type=name_list, help="comma-separated embedder names (default: every embedder usable here)")
    p.add_argument(
        "--blind", default="trigram",
        help="fluency scorers run as blind baselines that never read the source, beside the models "
        "(default: trigram; 'none': off)",
    )  # fmt: skip
    p.add_argument(
        "--rebalance", type=unit_interval, metavar="CEILING",
        help="first drop, rule by rule, the triples the first blind scorer solves by the widest margins, until its "
        "TACC is at most CEILING (e.g. 0.6); what was dropped goes in the JSON",
    )  # fmt: skip
    p.add_argument("--out", metavar="JSON", help="write the full results with provenance as JSON")
    p.add_argument("--out-csv", metavar="CSV", help="write the table as CSV")
    p.add_argument("--out-mteb", metavar="DIR", help="write MTEB TaskResult JSON: DIR/<model>/<revision>/<task>.json")
    p.add_argument("--plot", metavar="DIR", help="write figures (per-rule TACC with intervals, ROC curves) as PNGs")
    p.add_argument("--seed", type=nonneg_int, default=None, help="bootstrap seed (default: pipeline.seed, 13)")
    p.add_argument("--ties", choices=("strict", "lenient", "half"), default="strict",
                   help="how sim(s,p) == sim(s,f) counts: strict = failure (paper), lenient = success (>=), half")  # fmt: skip
    p.add_argument("--n-boot", type=nonneg_int, default=1000, help="bootstrap resamples for the intervals (0: none)")
    p.add_argument("--ci", type=unit_interval, default=0.95, help="confidence level of the intervals")
    p.add_argument("--cache-dir", help="embedding cache folder (default: models.cache_dir)")
    p.add_argument("--no-cache", action="store_true", help="embed everything, read and write no cache")
    p.add_argument("--threads", type=nonneg_int, help="CPU threads for the models (default: models.threads, 0 = all cores)")
    p.add_argument("--layout", choices=("foil-engine", "sentencesmith", "generic"), help="force the input layout")
    p.add_argument("--column", action="append", default=[], metavar="ROLE=NAME",
                   help="name the column for a role: source, paraphrase, foil, rule (repeatable)")  # fmt: skip
    p.add_argument("--set", action="append", default=[], metavar="MODEL.KEY=VALUE", dest="model_settings",
                   help="per-model setting: normalize, prefix, max_length, batch_size, threads (repeatable)")  # fmt: skip
    p.add_argument("--include-rejected", action="store_true", help="keep foil-engine records marked kept=false")
    p.add_argument("--scores", action="store_true", help="put the per-triple similarities in the JSON")
    p.add_argument("--list-models", action="store_true", help="list the embedders and whether they are usable here")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_engine_arguments(p)  # process/dask: one model per task, spread over the workers
    p.set_defaults(func=run)


def _pairs(values: list[str], what: str) -> dict[str, str]:
    from core.errors import ConfigError

    out: dict[str, str] = {}
    for v in values:
        key, sep, value = v.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{what} {v!r} is not KEY=VALUE", hint=f"e.g. --{what} source=sentence")
        out[key.strip()] = value
    return out


def _model_overrides(values: list[str]) -> dict[str, dict[str, str]]:
    from core.errors import ConfigError

    out: dict[str, dict[str, str]] = {}
    for key, value in _pairs(values, "set").items():
        model, dot, setting = key.rpartition(".")
        if not dot or not model:
            raise ConfigError(f"--set {key}={value}: name the model", hint="e.g. --set e5-small.prefix='passage: '")
        out.setdefault(model, {})[setting] = value
    return out


def _fmt(x: float | None, nd: int = 3) -> str:
    return "-" if x is None else f"{x:.{nd}f}"


def render_table(result: dict[str, Any]) -> str:
    """The terminal table of one result dict."""
    rules = list(result["dataset"].get("rules", {}))
    head = ["model", "TACC", "95% CI", "AUC", "HM", *rules, "n", "ties", "s"]
    rows = []
    for m in result["models"]:
        if not m["ok"]:
            rows.append([m["name"], f"not run: {m['error']}"])
            continue
        ci = m.get("tacc_ci")
        rows.append(
            [
                m["name"], _fmt(m["tacc"]), f"{ci[0]:.3f}-{ci[1]:.3f}" if ci else "-", _fmt(m["auc"]), _fmt(m["hm"]),
                *(_fmt(m["per_rule"][r]["tacc"]) if r in m["per_rule"] else "-" for r in rules),
                str(m["n"]), str(m["ties"]), f"{m['timings'].get('total_s', 0):.1f}",
            ]
        )  # fmt: skip
    full = [r for r in rows if len(r) == len(head)]
    widths = (
        [max(len(str(x)) for x in col) for col in zip(head, *full, strict=False)] if full else [len(h) for h in head]
    )
    lines = ["  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(head, widths, strict=True)))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        if len(r) != len(head):
            lines.append(f"{r[0].ljust(widths[0])}  {r[1]}")
        else:
            lines.append(
                "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
            )
    rule_counts = ", ".join(f"{r} {v['n']}" for r, v in result["dataset"].get("rules", {}).items())
    lines.append(f"TACC per rule; n per rule: {rule_counts}. Ties policy: {result['params']['ties']}.")
    return "\n".join(lines)


def _list_models(settings: Any) -> int:
    from core.embed import list_embedders

    for s in list_embedders(settings):
        state = "usable" if s.usable else "NOT USABLE"
        langs = ",".join(s.languages)
        print(f"{s.name:22} {state:10} {s.kind:22} {langs:6} {s.version or s.model_id}")
        if not s.usable:
            print(f"{'':22} {s.why_not}\n{'':22} hint: {s.install_hint}")
    return 0


def run(args: argparse.Namespace) -> int:
    from core.config import apply_overrides, load_settings
    from core.embed import EmbeddingCache
    from core.errors import InputError
    from core.evaluate import compare_results
    from core.output import check_output

    overrides = {"models.cache_dir": args.cache_dir, "models.threads": args.threads}
    settings = apply_overrides(load_settings(getattr(args, "config", None)), overrides)
    if args.list_models:
        return _list_models(settings)
    if not args.triples:
        raise InputError("no triples given", hint="pass --triples FILE (or --list-models to see the embedders)")
    columns = _pairs(args.column, "column")
    per_model = _model_overrides(args.model_settings)
    say = (lambda *a: None) if args.quiet else (lambda msg: print(msg, file=sys.stderr))
    names = _model_names(args, settings, say)
    for flag, target in (("--out", args.out), ("--out-csv", args.out_csv)):  # fail now, not after the embedding
        if target:
            check_output(target, flag=flag)
    seed = settings.pipeline.seed if args.seed is None else args.seed
    cache = EmbeddingCache(settings.cache_dir(), enabled=not args.no_cache)
    say(f"models: {', '.join(names)}")

    results: dict[str, dict[str, Any]] = {}
    for path, ts, rebalance in _read_sets(args, columns):
        if rebalance is not None:
            per_rule = ", ".join(f"{r} {v['dropped']}" for r, v in rebalance["rules"].items() if v["dropped"])
            say(f"{path}: rebalanced against blind:{rebalance['scorer']['scorer']}: dropped {rebalance['dropped']} "
                f"triple(s) before scoring" + (f" ({per_rule})" if per_rule else ""))  # fmt: skip
        result = _evaluate_set(args, path, ts, names, cache, seed, settings, per_model, say)
        label = Path(path).stem
        while label in results:
            label += "'"
        results[label] = _report_set(args, path, ts, result, label, say)
        if rebalance is not None:
            results[label]["rebalance"] = rebalance

    comparison = compare_results(results) if len(results) > 1 else None
    if comparison:
        _print_comparison(results, comparison)
    _write_outputs(args, results, comparison, say)
    failed = [m["name"] for d in results.values() for m in d["models"] if not m["ok"]]
    return 1 if failed else 0


def _model_names(args: argparse.Namespace, settings: Any, say: Callable[[str], None]) -> list[str]:
    """The models and blind baselines to score; unknown or unusable names are reported now, before any work
    (they fail, exit 1, and the rest run)."""
    from core.embed import resolve, usable_embedders
    from core.errors import SmithError
    from core.evaluate import BLIND_PREFIX, is_blind

    names = [n.strip() for n in args.models.split(",") if n.strip()] if args.models else usable_embedders(settings)
    names = list(dict.fromkeys([*names, *(f"{BLIND_PREFIX}{b}" for b in _blind_names(args))]))
    for name in names:
        if is_blind(name):
            continue
        try:
            spec = resolve(name, settings)
            if not spec.usable:
                say(f"smithtui: warning: {name}: {spec.why_not} (hint: {spec.install_hint}); skipping it")
        except SmithError as exc:
            say(f"smithtui: warning: {exc}; skipping it")
    return names


def _read_sets(args: argparse.Namespace, columns: Any) -> list[tuple[str, Any, Any]]:
    """Every triples file read and checked (and the bootstrap's memory budget) before any model is loaded, each
    rebalanced when asked (with the summary of what was dropped; None otherwise)."""
    from core.evaluate import check_n_boot, read_triples

    scorer = _rebalance_scorer(args)
    sets = []
    for path in args.triples:
        ts = read_triples(path, layout=args.layout, columns=columns, include_rejected=args.include_rejected)
        check_n_boot(args.n_boot, len(ts))
        sets.append((path, ts))
    if scorer is None:
        return [(path, ts, None) for path, ts in sets]
    from core.evaluate import rebalance_set

    return [(path, *rebalance_set(ts, scorer, max_tacc=args.rebalance)) for path, ts in sets]


def _blind_names(args: argparse.Namespace) -> list[str]:
    """The fluency scorers ``--blind`` names ("none": none)."""
    return [b.strip() for b in (args.blind or "").split(",") if b.strip() and b.strip() != "none"]


def _rebalance_scorer(args: argparse.Namespace) -> str | None:
    """The blind scorer ``--rebalance`` uses (the first of ``--blind``); None without ``--rebalance``."""
    from core.evaluate import rebalance_scorer

    return None if args.rebalance is None else rebalance_scorer(_blind_names(args), args.rebalance)


def _evaluate_set(
    args: argparse.Namespace, path: str, ts: Any, names: list[str], cache: Any, seed: int, settings: Any,
    per_model: Any, say: Callable[[str], None],
) -> Any:  # fmt: skip
    """One file's evaluation, locally or spread over an engine, with a progress line."""
    from core.evaluate import evaluate_triples
    from core.progress import console_progress

    bad = ts.bad_counts()
    say(
        f"{path}: {len(ts)} triples ({ts.layout}), {len(ts.unique_texts())} distinct texts"
        + (f"; skipped {sum(bad.values())} row(s): " + ", ".join(f"{n} {r}" for r, n in bad.items()) if bad else "")
    )
    progress, close = console_progress(f"{Path(path).name}: texts embedded", enabled=not args.quiet)
    try:
        if args.engine == "local":
            return evaluate_triples(
                ts, names, cache, seed, progress, ties=args.ties, n_boot=args.n_boot, level=args.ci,
                settings=settings, overrides=per_model,
            )  # fmt: skip
        from core.evaluate import evaluate_spread

        return evaluate_spread(
            ts, names, engine_spec(args), settings=settings, cache_dir=args.cache_dir,
            cache_enabled=not args.no_cache, seed=seed, progress=progress, ties=args.ties, n_boot=args.n_boot,
            level=args.ci, overrides=per_model,
        )  # fmt: skip
    finally:
        close()


def _report_set(
    args: argparse.Namespace, path: str, ts: Any, result: Any, label: str, say: Callable[[str], None]
) -> dict[str, Any]:
    """One file's result as a dict; its MTEB files and plots written, its table and warnings printed."""
    d = result.to_dict(scores=args.scores)
    if args.out_mteb:
        from core.mteb_bridge import write_mteb_results

        say(f"wrote {len(write_mteb_results(result, ts, args.out_mteb))} MTEB result file(s) under {args.out_mteb}")
    if args.plot:
        from core.evaluate import plot_eval

        say("wrote " + ", ".join(str(p) for p in plot_eval(result, args.plot, label)))
    print(f"\n{path}")
    print(render_table(d))
    for m in d["models"]:
        for w in m["warnings"]:
            say(f"smithtui: warning: {m['name']}: {w}")
        if m["ok"]:
            c = m["cache"]
            say(f"  {m['name']}: {c.get('hits', 0)} cached, {c.get('embedded', 0)} embedded; "
                f"load {m['timings'].get('load_s', 0):.1f} s, encode {m['timings'].get('encode_s', 0):.1f} s")  # fmt: skip
        else:
            say(f"smithtui: {m['name']} not scored: {m['error']}" + (f" (hint: {m['hint']})" if m["hint"] else ""))
    for reason, rows in d["dataset"]["bad_row_numbers"].items():
        shown = ", ".join(map(str, rows[:10])) + (" ..." if len(rows) > 10 else "")
        say(f"smithtui: skipped rows ({reason}): {shown}")
    return d


def _print_comparison(results: dict[str, dict[str, Any]], comparison: dict[str, Any]) -> None:
    print("\nHM side by side (Spearman of the model rankings: "
          + ", ".join(f"{k} {_fmt(v)}" for k, v in comparison["spearman"].items()) + ")")  # fmt: skip
    labels = list(results)
    print("  ".join(["model".ljust(22), *(lab[:14].rjust(14) for lab in labels)]))
    for row in comparison["rows"]:
        print("  ".join([row["model"].ljust(22), *(_fmt(row[lab]).rjust(14) for lab in labels)]))


def _write_outputs(
    args: argparse.Namespace, results: dict[str, dict[str, Any]], comparison: Any, say: Callable[[str], None]
) -> None:
    from core.evaluate import write_table
    from core.textio import atomic_write_json

    if args.out:
        doc: dict[str, Any] = (
            next(iter(results.values())) if len(results) == 1
            else {"format": "smithtui-eval-multi/1", "results": results, "comparison": comparison}
        )  # fmt: skip
        atomic_write_json(args.out, doc)
        say(f"wrote {args.out}")
    if args.out_csv:
        write_table(args.out_csv, results, fmt="csv")
        say(f"wrote {args.out_csv}")
