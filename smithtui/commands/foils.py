"""``smithtui foils``: craft foils for every sentence of a file, headless."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import InputError
from smithtui.commands.models import add_backend_arguments, backend_overrides


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "foils",
        help="craft foils for every sentence of a file",
        description="Parse each sentence, apply the edit rules, realize and validate the foils, write JSONL or CSV.",
    )
    p.add_argument("--input", required=True, help="text file (one sentence per line), CSV, TSV or JSONL")
    p.add_argument("--out", required=True, help="output file (.jsonl, or .csv with --format csv)")
    p.add_argument("--format", choices=("jsonl", "csv"), default=None, help="default: from the --out suffix")
    p.add_argument("--rules", help="comma-separated subset of PN,RS,US,AR,HS")
    p.add_argument("--seed", type=int, help="sampling seed (default from config: 13)")
    p.add_argument("--per-rule", type=int, dest="per_rule", help="foils sampled per rule and sentence")
    p.add_argument("--column", help="sentence column of a CSV/TSV/JSONL input")
    p.add_argument("--paraphrase-column", dest="paraphrase_column", help="paraphrase column, if any")
    p.add_argument("--frames", dest="frames_file", help="PropBank frame list for predicate ids")
    p.add_argument("--no-validate", action="store_true", help="skip validation (faster)")
    p.add_argument("--limit", type=int, help="only the first N sentences")
    add_backend_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.export import SENTENCESMITH_COLUMNS, sentencesmith_row
    from core.inputs import read_input_rows
    from core.pipeline import FoilPipeline
    from core.textio import atomic_writer, json_default

    overrides = {
        "pipeline.rules": args.rules,
        "pipeline.seed": args.seed,
        "pipeline.per_rule": args.per_rule,
        "pipeline.frames_file": args.frames_file,
        **backend_overrides(args),
    }
    settings = load_settings(args.config, cli_overrides=overrides)
    out = Path(args.out)
    fmt = args.format or ("csv" if out.suffix.lower() == ".csv" else "jsonl")
    if out.exists() and out.is_dir():
        raise InputError(f"--out {out} is a folder", hint="name a file, e.g. foils.jsonl")
    rows = read_input_rows(args.input, column=args.column, paraphrase_column=args.paraphrase_column)
    if args.limit is not None:
        rows = rows[: args.limit]
    if not rows:
        raise InputError(f"{args.input} holds no sentences", hint="one sentence per line, or a CSV with a header")
    pipeline = FoilPipeline.from_settings(settings)

    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=len(rows), unit="sent", desc="foils", file=sys.stderr)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.update(done - bar.n)

    counts = {"records": 0, "foils": 0, "kept": 0, "errors": 0}
    per_rule: dict[str, int] = {}
    with atomic_writer(out) as fh:
        writer = None
        if fmt == "csv":
            import csv

            writer = csv.DictWriter(fh, fieldnames=list(SENTENCESMITH_COLUMNS))
            writer.writeheader()
        for record in pipeline.run(rows, validate=not args.no_validate, progress=progress):
            counts["records"] += 1
            if record.get("error") or not record.get("foil"):
                counts["errors"] += 1
            else:
                counts["foils"] += 1
                counts["kept"] += bool(record.get("kept"))
                per_rule[record["rule"]] = per_rule.get(record["rule"], 0) + 1
            if writer is not None:
                if record.get("foil") and not record.get("error") and record.get("kept"):
                    writer.writerow(sentencesmith_row(record))
            else:
                fh.write(json.dumps(record, ensure_ascii=False, default=json_default) + "\n")
    if bar is not None:
        bar.close()
    rules = ", ".join(f"{r} {n}" for r, n in sorted(per_rule.items())) or "none"
    print(
        f"{len(rows)} sentences → {counts['foils']} foils ({rules}); kept {counts['kept']}; "
        f"{counts['errors']} sentences or edits without a foil; wrote {out}",
        file=sys.stderr,
    )
    return 0
