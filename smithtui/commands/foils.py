"""``smithtui foils``: craft foils for every sentence of a file, headless."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.batch import DEFAULT_SHARD_SIZE
from core.errors import InputError
from core.record import FoilRecord
from smithtui.commands.engine import add_engine_arguments, engine_spec, progress_bar
from smithtui.commands.flags import nonneg_int, positive_int, rule_list
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
                   help="output file (.jsonl, .csv, .parquet; a README.md dataset card goes next to it), or a folder "
                   "(ends in '/', no suffix, or exists) for a sharded run: part files + manifest.json")  # fmt: skip
    p.add_argument("--format", choices=("jsonl", "csv", "parquet", "st-triplets"), default=None,
                   help="default: from the --out suffix; st-triplets: anchor,positive,negative,rule,id for "
                   "sentence-transformers; a sharded folder takes jsonl or parquet parts")  # fmt: skip
    p.add_argument("--amr-out", dest="amr_out", help="also write every source and edited graph to this .amr corpus")
    p.add_argument("--no-card", dest="no_card", action="store_true", help="do not write the README.md dataset card")
    p.add_argument("--include-dropped", dest="include_dropped", action="store_true",
                   help="CSV: also write the foils the validators' decision dropped (kept false); JSONL and "
                   "Parquet always hold every record with its kept flag")  # fmt: skip
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
    p.add_argument("--shard-size", type=positive_int, default=None, dest="shard_size",
                   help=f"input rows per part file of a sharded run (default {DEFAULT_SHARD_SIZE})")  # fmt: skip
    p.add_argument("--resume", action="store_true", help="continue the sharded run in --out: skip its finished shards")
    add_engine_arguments(p)
    add_backend_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.export import write_sentencesmith_csv
    from core.foils import FoilPipeline
    from core.inputs import expand_inputs, iter_inputs
    from core.output import check_output
    from core.textio import atomic_writer, to_json

    overrides = {
        "pipeline.rules": args.rules,
        "pipeline.variants": args.variants,
        "pipeline.seed": args.seed,
        "pipeline.per_rule": args.per_rule,
        "pipeline.frames_file": args.frames_file,
        **backend_overrides(args),
    }
    settings = load_settings(args.config, cli_overrides=overrides)
    if _is_folder(args):
        return _run_sharded(args, settings)
    out = check_output(args.out)  # a special file, a folder, no room: say so before any work
    if args.amr_out:
        check_output(args.amr_out)
    if args.resume or args.shard_size is not None or args.engine != "local":
        raise InputError(
            f"--out {out} is a file: --resume, --shard-size and --engine need a sharded run",
            hint=f"name a folder, e.g. --out {out.with_suffix('')}/",
        )
    fmt = args.format or {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(out.suffix.lower(), "jsonl")
    paths = expand_inputs(args.input)

    def stream() -> itertools.islice:
        return itertools.islice(iter_inputs(paths, column=args.column, paraphrase_column=args.paraphrase_column), args.limit)

    n_rows = sum(1 for _ in stream())  # streaming count for the progress bar; rows are read again below
    if not n_rows:
        raise InputError(f"{', '.join(args.input)} holds no sentences", hint="one sentence per line, or a CSV with a header")
    pipeline = FoilPipeline.from_settings(settings)
    progress, close_bar = progress_bar("sent", "foils")
    run_records = pipeline.run(stream(), validate=not args.no_validate, progress=progress, total=n_rows)
    sources = [str(p) for p in paths]

    if fmt in ("parquet", "st-triplets") or args.amr_out:
        try:
            records = list(run_records)
        finally:
            close_bar()
        written = _write_collected(records, out, fmt, args.amr_out, include_dropped=args.include_dropped)
        tally = _Tally()
        for record in records:
            tally.add(record)
        tally.finish(args, out, fmt, sources, n_rows, written=written, card_records=records)  # Parquet: exact features
        return 0
    tally = _Tally()
    written = None
    try:
        with atomic_writer(out) as fh:
            if fmt == "csv":
                written = write_sentencesmith_csv(fh, tally.each(run_records), include_dropped=args.include_dropped)
            else:
                for record in tally.each(run_records):
                    fh.write(to_json(record) + "\n")
    finally:
        close_bar()
    tally.finish(args, out, fmt, sources, n_rows, written=written)
    return 0


class _Tally:
    """What a run wrote, counted as the records go by: the summary line, the dataset card's records (without
    their graphs), and the (row id, input note) pairs behind the screening warnings."""

    def __init__(self) -> None:
        self.counts = {"records": 0, "foils": 0, "kept": 0, "errors": 0}
        self.per_rule: dict[str, int] = {}
        self.card_records: list[FoilRecord] = []
        self.notes: set[tuple[str, str]] = set()

    def each(self, records: Iterable[dict]) -> Iterator[dict]:
        """``records`` as they go by, each counted."""
        for record in records:
            self.add(record)
            yield record

    def add(self, record: dict) -> None:
        rec = FoilRecord.from_json(record)
        self.counts["records"] += 1
        card = FoilRecord(source=rec.source, foil=rec.foil, rule=rec.rule, error=rec.error, kept=rec.kept,
                          provenance=rec.provenance if not self.card_records else None)  # fmt: skip
        self.card_records.append(card)  # the card's counts, without the graphs
        self.notes.update((rec.row_id, note) for note in rec.input_notes)
        if not rec.has_foil:  # a refused edit or a failed sentence: foil None
            self.counts["errors"] += 1
        else:
            self.counts["foils"] += 1
            self.counts["kept"] += rec.kept is True
            self.per_rule[str(rec.rule)] = self.per_rule.get(str(rec.rule), 0) + 1

    def finish(
        self,
        args: argparse.Namespace,
        out: Path,
        fmt: str,
        sources: list[str],
        n_rows: int,
        written: int | None = None,
        card_records: Sequence[Mapping[str, Any] | FoilRecord] | None = None,
    ) -> None:
        """The dataset card (unless --no-card), the summary line and the screening warnings, on stderr."""
        c = self.counts
        if not args.no_card:
            from core.dataset_card import write_dataset_card

            rows = written if written is not None else (c["kept"] if fmt == "csv" else c["records"])
            card = write_dataset_card(out, card_records or self.card_records, fmt, count=rows, sources=sources)
            print(f"dataset card: {card}", file=sys.stderr)
        rules = ", ".join(f"{r} {n}" for r, n in sorted(self.per_rule.items())) or "none"
        wrote = f"wrote {written} rows to {out}" if written is not None else f"wrote {out}"
        print(
            f"{n_rows} sentences → {c['foils']} foils ({rules}); kept {c['kept']}; "
            f"{c['errors']} sentences or edits without a foil; {wrote}",
            file=sys.stderr,
        )
        _warn_notes(self.notes)


def _warn_notes(notes: set[tuple[str, str]]) -> None:
    """The CLI's summary of what input screening found (the records say it per sentence)."""
    rows_with = lambda prefix: len({row for row, note in notes if note.startswith(prefix)})  # noqa: E731
    non_english = rows_with("does not look like English")
    if non_english:
        print(f"smithtui: warning: {non_english} sentence(s) do not look like English; "
              "their records carry input_notes", file=sys.stderr)  # fmt: skip
    cleaned = rows_with("removed")
    if cleaned:
        kinds = sorted({note for _, note in notes if note.startswith("removed")})
        print(f"smithtui: note: cleaned {cleaned} sentence(s) ({'; '.join(kinds)[:200]})", file=sys.stderr)
    split = rows_with("split")
    if split:
        print(f"smithtui: warning: foils of {split} sentence(s) split a grapheme cluster and were not kept", file=sys.stderr)


def _write_collected(
    records: list[dict], out: Path, fmt: str, amr_out: str | None, *, include_dropped: bool = False
) -> int:
    """Write records held in memory (Parquet, ST triplets, or any format with --amr-out). Returns rows written."""
    from core.export import write_jsonl, write_parquet, write_sentencesmith_csv, write_st_triplets

    if amr_out:
        from core.foils import write_amr_corpus

        print(f"{write_amr_corpus(amr_out, records)} graphs → {amr_out}", file=sys.stderr)
    if fmt == "csv":
        return write_sentencesmith_csv(out, records, include_dropped=include_dropped)
    writer = {"jsonl": write_jsonl, "parquet": write_parquet, "st-triplets": write_st_triplets}[fmt]
    return writer(out, records)


def _is_folder(args: argparse.Namespace) -> bool:
    """A sharded run when --out names a folder: one that exists (empty, or holding a sharded run's
    manifest.json), or a new path ending in '/' or without a suffix. An existing file, device or FIFO is
    never a folder ("/dev/null" is refused by the output checks, not written into)."""
    from core.shards import MANIFEST

    out = Path(args.out)
    if out.exists() or out.is_symlink():
        if not out.is_dir():
            return False
        if any(out.iterdir()) and not (out / MANIFEST).exists():
            raise InputError(
                f"--out {out} is a folder that holds no sharded run",
                hint="name a file (e.g. foils.jsonl), or a new or empty folder for a sharded run",
            )
        return True
    return args.out.endswith(("/", "\\")) or not out.suffix


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
