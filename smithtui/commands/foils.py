"""``smithtui foils``: craft foils for every sentence of a file, headless."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from core.batch import DEFAULT_SHARD_SIZE
from core.errors import InputError
from smithtui.commands.engine import add_engine_arguments, engine_spec, progress_bar
from smithtui.commands.models import add_backend_arguments, backend_overrides


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "foils",
        help="craft foils for every sentence of a file",
        description="Parse each sentence, apply the edit rules, realize and validate the foils, write JSONL or CSV.",
    )
    p.add_argument("--input", required=True, action="append",
                   help="text file (one sentence per line), CSV, TSV or JSONL; a glob ('corpus/*.txt'); repeatable")  # fmt: skip
    p.add_argument("--out", required=True,
                   help="output file (.jsonl, or .csv with --format csv), or a folder (ends in '/', no suffix, "
                   "or exists) for a sharded run: part files + manifest.json")  # fmt: skip
    p.add_argument("--format", choices=("jsonl", "csv", "parquet"), default=None,
                   help="default: from the --out suffix; a sharded folder takes jsonl or parquet parts")  # fmt: skip
    p.add_argument("--rules", help="comma-separated subset of PN,RS,US,AR,HS")
    p.add_argument("--seed", type=int, help="sampling seed (default from config: 13)")
    p.add_argument("--per-rule", type=int, dest="per_rule", help="foils sampled per rule and sentence")
    p.add_argument("--column", help="sentence column of a CSV/TSV/JSONL input")
    p.add_argument("--paraphrase-column", dest="paraphrase_column", help="paraphrase column, if any")
    p.add_argument("--frames", dest="frames_file", help="PropBank frame list for predicate ids")
    p.add_argument("--no-validate", action="store_true", help="skip validation (faster)")
    p.add_argument("--limit", type=int, help="only the first N sentences")
    p.add_argument("--shard-size", type=int, default=None, dest="shard_size",
                   help=f"input rows per part file of a sharded run (default {DEFAULT_SHARD_SIZE})")  # fmt: skip
    p.add_argument("--resume", action="store_true", help="continue the sharded run in --out: skip its finished shards")
    add_engine_arguments(p)
    add_backend_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.export import SENTENCESMITH_COLUMNS, sentencesmith_row
    from core.inputs import expand_inputs, iter_inputs
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
    if _is_folder(args):
        return _run_sharded(args, settings)
    if args.resume or args.shard_size is not None or args.engine != "local":
        raise InputError(
            f"--out {out} is a file: --resume, --shard-size and --engine need a sharded run",
            hint=f"name a folder, e.g. --out {out.with_suffix('')}/",
        )
    fmt = args.format or ("csv" if out.suffix.lower() == ".csv" else "jsonl")
    if fmt == "parquet":
        raise InputError("--format parquet writes part files", hint=f"name a folder, e.g. --out {out.with_suffix('')}/")
    paths = expand_inputs(args.input)

    def stream() -> itertools.islice:
        return itertools.islice(iter_inputs(paths, column=args.column, paraphrase_column=args.paraphrase_column), args.limit)

    n_rows = sum(1 for _ in stream())  # streaming count for the progress bar; rows are read again below
    if not n_rows:
        raise InputError(f"{', '.join(args.input)} holds no sentences", hint="one sentence per line, or a CSV with a header")
    rows = stream()
    pipeline = FoilPipeline.from_settings(settings)
    progress, close_bar = progress_bar("sent", "foils")

    counts = {"records": 0, "foils": 0, "kept": 0, "errors": 0}
    per_rule: dict[str, int] = {}
    with atomic_writer(out) as fh:
        writer = None
        if fmt == "csv":
            import csv

            writer = csv.DictWriter(fh, fieldnames=list(SENTENCESMITH_COLUMNS))
            writer.writeheader()
        for record in pipeline.run(rows, validate=not args.no_validate, progress=progress, total=n_rows):
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
    close_bar()
    rules = ", ".join(f"{r} {n}" for r, n in sorted(per_rule.items())) or "none"
    print(
        f"{n_rows} sentences → {counts['foils']} foils ({rules}); kept {counts['kept']}; "
        f"{counts['errors']} sentences or edits without a foil; wrote {out}",
        file=sys.stderr,
    )
    return 0


def _is_folder(args: argparse.Namespace) -> bool:
    """A sharded run when --out is a folder: it exists as one, ends in '/', or has no suffix."""
    out = Path(args.out)
    return out.is_dir() or args.out.endswith(("/", "\\")) or not out.suffix


def _run_sharded(args: argparse.Namespace, settings) -> int:
    """Part files + manifest.json in the folder --out, on the chosen engine; resumable."""
    from core.batch import run_foils

    if args.format == "csv":
        raise InputError("--format csv needs a single --out file", hint="use --format jsonl or parquet for a folder")
    progress, close_bar = progress_bar("sent", f"foils [{args.engine}]")
    try:
        summary = run_foils(
            args.input, args.out, settings=settings, validate=not args.no_validate, engine=engine_spec(args),
            shard_size=args.shard_size or DEFAULT_SHARD_SIZE, resume=args.resume, column=args.column,
            paraphrase_column=args.paraphrase_column, limit=args.limit, part_format=args.format or "jsonl",
            progress=progress,
        )  # fmt: skip
    finally:
        close_bar()
    c = summary.counts
    print(
        f"{summary.rows} sentences in {summary.shards} shards ({summary.made} made now, {summary.resumed} from before) "
        f"→ {c.get('foils', 0)} foils; kept {c.get('kept', 0)}; {c.get('errors', 0)} sentences or edits without a foil; "
        f"wrote {summary.folder}/",
        file=sys.stderr,
    )
    for index, reason in sorted(summary.failed.items()):
        print(f"shard {index} failed: {reason} (--resume tries it again)", file=sys.stderr)
    return 1 if summary.failed else 0
