"""``smithtui export-task``: a foil set as a folder MTEB can load and run any model on."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export-task",
        help="turn a foil set into an MTEB-runnable task folder",
        description="Write data/test.parquet, task.json and smith_foil_task.py: load_task() gives an mteb task "
        "whose TACC/AUC/HM match smithtui eval on the same triples.",
    )
    p.add_argument("--triples", required=True, help="foil-engine JSONL/Parquet, SentenceSmith CSV, or named columns")
    p.add_argument("--out", required=True, metavar="DIR", help="task folder to write")
    p.add_argument("--name", help="task name (default: SmithFoils_<file stem>)")
    p.add_argument("--layout", choices=("foil-engine", "sentencesmith", "generic"), help="force the input layout")
    p.add_argument("--include-rejected", action="store_true", help="keep foil-engine records marked kept=false")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.evaluate import read_triples
    from core.mteb_bridge import export_mteb_task

    ts = read_triples(args.triples, layout=args.layout, include_rejected=args.include_rejected)
    folder = export_mteb_task(ts, args.out, name=args.name)
    print(f"{len(ts)} triples → MTEB task in {folder} (load with smith_foil_task.load_task())", file=sys.stderr)
    return 0
