"""``smithtui foils``: craft foils for every sentence of a file, headless."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import InputError
from smithtui.commands.flags import nonneg_int, positive_int, rule_list
from smithtui.commands.models import add_backend_arguments, backend_overrides


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "foils",
        help="craft foils for every sentence of a file",
        description="Parse each sentence, apply the edit rules, realize and validate the foils, write JSONL or CSV.",
    )
    p.add_argument("--input", required=True, help="text file (one sentence per line), CSV, TSV or JSONL")
    p.add_argument("--out", required=True, help="output file (.jsonl, .csv, .parquet); a README.md dataset card goes next to it")
    p.add_argument(
        "--format", choices=("jsonl", "csv", "parquet", "st-triplets"), default=None,
        help="default: from the --out suffix; st-triplets: anchor,positive,negative,rule,id for sentence-transformers",
    )
    p.add_argument("--amr-out", dest="amr_out", help="also write every source and edited graph to this .amr corpus")
    p.add_argument("--no-card", dest="no_card", action="store_true", help="do not write the README.md dataset card")
    p.add_argument("--rules", type=rule_list, help="comma-separated subset of PN,RS,US,AR,HS")
    p.add_argument(
        "--variants",
        help="comma-separated RULE:variant entries, e.g. PN:any-node,RS:two-leaf (the released code's opt-in "
        "behaviours); a rule named here uses exactly the listed variants",
    )
    p.add_argument("--seed", type=nonneg_int, help="sampling seed (default from config: 13)")
    p.add_argument("--per-rule", type=positive_int, dest="per_rule", help="foils sampled per rule and sentence")
    p.add_argument("--column", help="sentence column of a CSV/TSV/JSONL input")
    p.add_argument("--paraphrase-column", dest="paraphrase_column", help="paraphrase column, if any")
    p.add_argument("--frames", dest="frames_file", help="PropBank frame list for predicate ids")
    p.add_argument("--no-validate", action="store_true", help="skip validation (faster)")
    p.add_argument("--limit", type=positive_int, help="only the first N sentences")
    add_backend_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.export import SENTENCESMITH_COLUMNS, sentencesmith_row
    from core.inputs import broken_clusters, input_notes, read_input_rows
    from core.output import check_output
    from core.pipeline import FoilPipeline
    from core.progress import console_progress
    from core.textio import atomic_writer, json_default

    overrides = {
        "pipeline.rules": args.rules,
        "pipeline.variants": args.variants,
        "pipeline.seed": args.seed,
        "pipeline.per_rule": args.per_rule,
        "pipeline.frames_file": args.frames_file,
        **backend_overrides(args),
    }
    settings = load_settings(args.config, cli_overrides=overrides)
    out = check_output(args.out)  # a special file, a folder, no room: say so before any work
    if args.amr_out:
        check_output(args.amr_out)
    fmt = args.format or {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(out.suffix.lower(), "jsonl")
    rows = read_input_rows(args.input, column=args.column, paraphrase_column=args.paraphrase_column)
    if args.limit is not None:
        rows = rows[: args.limit]
    if not rows:
        raise InputError(f"{args.input} holds no sentences", hint="one sentence per line, or a CSV with a header")
    notes = {id(r): input_notes(r.sentence) for r in rows}
    notes_by_id: dict[str, list[str]] = {}  # ids may repeat in a file: their notes are merged
    for r in rows:
        notes_by_id[r.id] = list(dict.fromkeys([*notes_by_id.get(r.id, []), *notes[id(r)]]))
    pipeline = FoilPipeline.from_settings(settings)
    progress, close = console_progress("foils", unit="sent")

    counts = {"records": 0, "foils": 0, "kept": 0, "errors": 0, "split": 0}
    per_rule: dict[str, int] = {}
    card_records: list[dict] = []  # what the dataset card counts, without the graphs

    def annotate(record: dict) -> dict:
        """Input notes (what screening removed, non-English) and never keeping a foil that splits a grapheme."""
        if notes_by_id.get(str(record.get("row_id"))):
            record["input_notes"] = notes_by_id[str(record.get("row_id"))]
        if record.get("foil") and not record.get("error"):
            split = broken_clusters(str(record.get("source") or ""), record["foil"])
            if split:  # a word landed inside an emoji sequence or a letter with its mark: never keep it
                counts["split"] += 1
                record["kept"] = False
                record["decided_by"] = f"the edit split a grapheme cluster ({len(split)})"
        return record

    if fmt in ("parquet", "st-triplets") or args.amr_out:
        records = [annotate(r) for r in pipeline.run(rows, validate=not args.no_validate, progress=progress)]
        close()
        written = _write_collected(records, out, fmt, args.amr_out)
        _report(args, out, rows, records, fmt, written)
        return 0
    with atomic_writer(out) as fh:
        writer = None
        if fmt == "csv":
            import csv

            writer = csv.DictWriter(fh, fieldnames=list(SENTENCESMITH_COLUMNS))
            writer.writeheader()
        for record in pipeline.run(rows, validate=not args.no_validate, progress=progress):
            record = annotate(record)
            counts["records"] += 1
            card_records.append({k: record.get(k) for k in ("rule", "foil", "error", "kept")})
            if len(card_records) == 1:
                card_records[0]["provenance"] = record.get("provenance")
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
    close()
    if not args.no_card:
        from core.dataset_card import write_dataset_card

        kept = counts["kept"] if fmt == "csv" else counts["records"]
        print(f"dataset card: {write_dataset_card(out, card_records, fmt, count=kept, sources=[args.input])}", file=sys.stderr)
    rules = ", ".join(f"{r} {n}" for r, n in sorted(per_rule.items())) or "none"
    print(
        f"{len(rows)} sentences → {counts['foils']} foils ({rules}); kept {counts['kept']}; "
        f"{counts['errors']} sentences or edits without a foil; wrote {out}",
        file=sys.stderr,
    )
    flagged = {n for r in rows for n in notes[id(r)]}
    non_english = sum(any(n.startswith("does not look like English") for n in notes[id(r)]) for r in rows)
    if non_english:
        print(f"smithtui: warning: {non_english} sentence(s) do not look like English; "
              "their records carry input_notes", file=sys.stderr)  # fmt: skip
    cleaned = sum(any(n.startswith("removed") for n in notes[id(r)]) for r in rows)
    if cleaned:
        print(f"smithtui: note: cleaned {cleaned} sentence(s) ({'; '.join(sorted(n for n in flagged if n.startswith('removed')))[:200]})",
              file=sys.stderr)  # fmt: skip
    if counts["split"]:
        print(f"smithtui: warning: {counts['split']} foil(s) split a grapheme cluster and were not kept", file=sys.stderr)
    return 0


def _write_collected(records: list[dict], out: Path, fmt: str, amr_out: str | None) -> int:
    """Write records held in memory (Parquet, ST triplets, or any format with --amr-out). Returns rows written."""
    from core.export import write_jsonl, write_parquet, write_sentencesmith_csv, write_st_triplets

    if amr_out:
        from core.amr_export import write_amr_corpus

        print(f"{write_amr_corpus(amr_out, records)} graphs → {amr_out}", file=sys.stderr)
    if fmt == "csv":
        return write_sentencesmith_csv(out, [r for r in records if r.get("kept")])
    writer = {"jsonl": write_jsonl, "parquet": write_parquet, "st-triplets": write_st_triplets}[fmt]
    return writer(out, records)


def _report(args: argparse.Namespace, out: Path, rows: list, records: list[dict], fmt: str, written: int) -> None:
    foils = [r for r in records if r.get("foil") and not r.get("error")]
    per_rule: dict[str, int] = {}
    for r in foils:
        per_rule[r["rule"]] = per_rule.get(r["rule"], 0) + 1
    if not args.no_card:
        from core.dataset_card import write_dataset_card

        card = write_dataset_card(out, records, fmt, count=written, sources=[args.input])
        print(f"dataset card: {card}", file=sys.stderr)
    rules = ", ".join(f"{r} {n}" for r, n in sorted(per_rule.items())) or "none"
    print(
        f"{len(rows)} sentences → {len(foils)} foils ({rules}); kept {sum(bool(r.get('kept')) for r in foils)}; "
        f"{len(records) - len(foils)} sentences or edits without a foil; wrote {written} rows to {out}",
        file=sys.stderr,
    )
