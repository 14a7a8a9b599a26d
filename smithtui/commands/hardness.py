"""``smithtui hardness``: craft foils for paraphrase pairs and measure how hard they are."""

from __future__ import annotations

import argparse
import sys

from smithtui.commands.engine import add_engine_arguments, engine_spec
from smithtui.commands.flags import nonneg_int, positive_int, rule_list, unit_interval


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hardness",
        help="foil-hardness benchmark on paraphrase pairs",
        description=(
            "Craft validated foils for (sentence, paraphrase) pairs and report lexical closeness "
            "(word Jaccard) and TACC/AUC/HM of the bag-of-words baseline and each model; "
            "when the file holds SentenceSmith foils, evaluate those too, side by side."
        ),
    )
    p.add_argument("--pairs", required=True, help="CSV/TSV/JSONL with sentence and paraphrase columns")
    p.add_argument("--out", required=True, help="output folder (report.json, report.md, foils.jsonl)")
    p.add_argument("--limit", type=positive_int, help="only the first N distinct pairs")
    p.add_argument("--models", default="minilm", help="comma-separated embedders besides bow (default: minilm; \"\": bow only)")
    p.add_argument(
        "--blind", default="trigram",
        help="fluency scorers run as blind baselines, never reading the source (default: trigram; 'none': off)",
    )  # fmt: skip
    p.add_argument(
        "--rebalance", type=unit_interval, metavar="CEILING",
        help="also report our foils less those the first blind scorer solves by the widest margins, rule by rule, "
        "until its TACC is at most CEILING (e.g. 0.6); writes their records to rebalanced.jsonl",
    )  # fmt: skip
    p.add_argument("--seed", type=nonneg_int, help="sampling seed")
    p.add_argument("--per-rule", type=positive_int, dest="per_rule", default=1, help="foils per rule and pair (default 1)")
    p.add_argument("--rules", type=rule_list, help="comma-separated subset of PN,RS,US,AR,HS")
    p.add_argument("--bootstrap", type=nonneg_int, default=0, help="bootstrap resamples for CIs (default 0: none)")
    add_engine_arguments(p)  # process/dask: foils crafted shard by shard, models spread over the workers
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.embed import EmbeddingCache, resolve
    from core.evaluate import check_n_boot, hardness_report, markdown_table, rebalanced_records, summary_rows
    from core.export import write_jsonl
    from core.output import check_output
    from core.progress import console_progress
    from core.textio import atomic_write_json, atomic_write_text

    settings = load_settings(
        args.config,
        cli_overrides={"pipeline.seed": args.seed, "pipeline.per_rule": args.per_rule, "pipeline.rules": args.rules},
    )
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    for name in ["bow", *models]:  # an unknown name stops here (one line); a model not installed is warned about
        spec = resolve(name, settings)
        if not spec.usable:
            print(f"smithtui: warning: {name}: {spec.why_not} (hint: {spec.install_hint})", file=sys.stderr)
    check_n_boot(args.bootstrap, 1)  # the least memory the intervals need; refused now, not after the foils
    out = check_output(args.out, folder=True)
    progress, close = console_progress("foils", unit="pair")

    records: list[dict] = []
    report = hardness_report(
        args.pairs,
        settings=settings,
        models=models,
        blind=[b.strip() for b in args.blind.split(",") if b.strip() and b.strip() != "none"],
        limit=args.limit,
        cache=EmbeddingCache(settings.cache_dir()),
        n_boot=args.bootstrap,
        progress=progress,
        records_out=records,
        engine=engine_spec(args),
        rebalance=args.rebalance,
    )
    close()
    atomic_write_json(out / "report.json", report)
    write_jsonl(out / "foils.jsonl", records)
    if "rebalance" in report:
        write_jsonl(out / "rebalanced.jsonl", rebalanced_records(records, report["rebalance"]))
    table = markdown_table(report)
    atomic_write_text(out / "report.md", table + "\n")
    _print_table(summary_rows(report))
    print(f"\nwrote {out / 'report.json'} and {out / 'report.md'}", file=sys.stderr)
    failed = sorted(
        {name for s in report.get("sets", {}).values() for name, m in s.get("models", {}).items() if "error" in m}
    )
    for name in failed:
        err = next(s["models"][name] for s in report["sets"].values() if name in s.get("models", {}))
        print(f"smithtui: {name} not scored: {err['error']}" + (f" (hint: {err['hint']})" if err.get("hint") else ""),
              file=sys.stderr)  # fmt: skip
    return 1 if failed else 0


def _print_table(rows: list[dict[str, str]]) -> None:
    from rich.console import Console
    from rich.table import Table

    if not rows:
        print("no foils")
        return
    table = Table(title="Foil hardness (ours vs the file's foils)")
    for col in rows[0]:
        table.add_column(col, justify="left" if col in ("foils", "rule") else "right")
    for row in rows:
        table.add_row(*row.values())
    Console().print(table)
