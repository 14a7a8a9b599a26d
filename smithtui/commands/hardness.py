"""``smithtui hardness``: craft foils for paraphrase pairs and measure how hard they are."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from smithtui.commands.engine import add_engine_arguments, engine_spec


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
    p.add_argument("--limit", type=int, help="only the first N distinct pairs")
    p.add_argument("--models", default="minilm", help="comma-separated embedders besides bow (default: minilm)")
    p.add_argument("--seed", type=int, help="sampling seed")
    p.add_argument("--per-rule", type=int, dest="per_rule", default=1, help="foils per rule and pair (default 1)")
    p.add_argument("--rules", help="comma-separated subset of PN,RS,US,AR,HS")
    p.add_argument("--bootstrap", type=int, default=0, help="bootstrap resamples for CIs (default 0: none)")
    add_engine_arguments(p)  # process/dask: foils crafted shard by shard, models spread over the workers
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.embed.cache import EmbeddingCache
    from core.export import write_jsonl
    from core.hardness import hardness_report, markdown_table, summary_rows
    from core.textio import atomic_write_json, atomic_write_text

    settings = load_settings(
        args.config,
        cli_overrides={"pipeline.seed": args.seed, "pipeline.per_rule": args.per_rule, "pipeline.rules": args.rules},
    )
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(unit="pair", desc="foils", file=sys.stderr)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)

    records: list[dict] = []
    report = hardness_report(
        args.pairs,
        settings=settings,
        models=models,
        limit=args.limit,
        cache=EmbeddingCache(settings.cache_dir()),
        n_boot=args.bootstrap,
        progress=progress,
        records_out=records,
        engine=engine_spec(args),
    )
    if bar is not None:
        bar.close()
    atomic_write_json(out / "report.json", report)
    write_jsonl(out / "foils.jsonl", records)
    table = markdown_table(report)
    atomic_write_text(out / "report.md", table + "\n")
    _print_table(summary_rows(report))
    print(f"\nwrote {out / 'report.json'} and {out / 'report.md'}", file=sys.stderr)
    return 0


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
