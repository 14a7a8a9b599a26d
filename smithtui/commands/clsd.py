"""``smithtui clsd`` (evaluate models on a CLSD set) and ``smithtui clsd-distractors`` (make new distractors)."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from core.errors import InputError, ModelMissingError
from core.progress import console_progress
from smithtui.commands.flags import name_list, nonneg_int, positive_int

DEFAULT_MODELS = "use-v3,e5-small"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "clsd",
        help="cross-lingual semantic discrimination: P@1 of multilingual models against distractors",
        description="Score each model on every direction of a CLSD set (and its English pivot): strict P@1, "
        "pooled recall@1, Levenshtein bins of the winning distractors, POS breakdown of single-token swaps.",
    )
    p.add_argument("--data", required=True, help="CLSD set (Index, French, German, de_adv1.., fr_adv1..) or any table")
    p.add_argument("--pivot", help="the same rows translated to English (published pivot layout)")
    p.add_argument("--translate", metavar="MODEL", help="make the pivot with this Hugging Face seq2seq model (id or folder)")
    p.add_argument("--save-pivot", dest="save_pivot", help="write the translated pivot set here (reuse with --pivot)")
    p.add_argument("--models", type=name_list, default=None, help=f"comma-separated embedder names (default: {DEFAULT_MODELS})")
    p.add_argument("--out", required=True, help="results JSON")
    p.add_argument("--rows-out", dest="rows_out", help="per-row cosine table with texts (CSV)")
    p.add_argument("--swaps", help="single-token swap annotations (TSV, UTF-8 or UTF-16) for the annotated POS")
    p.add_argument("--swaps-dataset", dest="swaps_dataset", help="keep annotation rows of this Dataset (e.g. wmt19)")
    p.add_argument("--no-pos", dest="pos", action="store_false", help="skip the part-of-speech breakdown")
    p.add_argument("--pos-backend", dest="pos_backend", default="auto", help="auto | spacy | hanta | stanza")
    p.add_argument("--ties", choices=("fail", "pass"), help="tie policy for P@1 (default from config: fail)")
    p.add_argument("--directions", type=name_list, help="comma-separated direction keys, e.g. de-fr,fr-de (default: all)")
    p.add_argument("--limit", type=positive_int, help="only the first N rows")
    p.add_argument("--allow-uneven-distractors", action="store_true", dest="allow_uneven",
                   help="score a direction that has fewer distractor columns than the other (default: refuse)")  # fmt: skip
    g = p.add_argument_group("generic layout (any language pair)")
    g.add_argument("--source-col", dest="source_column", help="source sentence column")
    g.add_argument("--target-col", dest="target_column", help="true translation column")
    g.add_argument("--distractor-cols", dest="distractor_columns", help="comma-separated, globs allowed: 'adv*'")
    g.add_argument("--id-col", dest="id_column", help="row id column (default: Index/id, else the row number)")
    g.add_argument("--source-lang", dest="source_lang", default="src", help="source language code (e.g. de)")
    g.add_argument("--target-lang", dest="target_lang", default="tgt", help="target language code (e.g. fr)")
    p.set_defaults(func=run)

    d = sub.add_parser(
        "clsd-distractors",
        help="write distractors for new sentence pairs (foil engine for English, or an LLM endpoint)",
        description="For each row's target sentence, generate K meaning-changing distractors and write a CSV in "
        "the generic CLSD layout (id, source, target, adv1..K, origins, error).",
    )
    d.add_argument("--input", required=True, help="CSV/TSV/JSONL with the sentence pairs, or a text file")
    d.add_argument("--out", required=True, help="output CSV")
    d.add_argument("--source-col", dest="source_column", help="source column (default: the target column)")
    d.add_argument("--target-col", dest="target_column", help="target column (text file: one target per line)")
    d.add_argument("--id-col", dest="id_column", help="row id column")
    d.add_argument("--lang", default="en", help="language of the targets (code), default en")
    d.add_argument("--backend", choices=("foils", "llm"), default="foils", help="foils (English) or llm (any)")
    d.add_argument("--k", type=positive_int, default=4, help="distractors per row (default 4)")
    d.add_argument("--seed", type=nonneg_int, help="sampling seed (default from config)")
    d.add_argument("--limit", type=positive_int, help="only the first N rows")
    d.set_defaults(func=run_distractors)


def _fmt(x: float) -> str:
    return "  n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:5.1f}"


def load_data(args: argparse.Namespace) -> Any:
    """The direct set from ``--data`` in the published or generic layout (with --limit applied)."""
    from core.clsd import direction_label, limit_rows, read_dataset

    kwargs: dict[str, Any] = {}
    if args.source_column or args.target_column or args.distractor_columns:
        missing = [
            f"--{n}"
            for n, v in (
                ("source-col", args.source_column),
                ("target-col", args.target_column),
                ("distractor-cols", args.distractor_columns),
            )
            if not v
        ]
        if missing:
            raise InputError(f"the generic layout also needs {', '.join(missing)}", hint="name all three columns")
        kwargs = {
            "source_column": args.source_column,
            "target_column": args.target_column,
            "distractor_columns": args.distractor_columns,
            "source_lang": args.source_lang,
            "target_lang": args.target_lang,
        }
    if args.id_column:
        kwargs["id_column"] = args.id_column
    if getattr(args, "allow_uneven", False):
        kwargs["allow_uneven"] = True
    data = read_dataset(args.data, **kwargs)
    for key, task in data.tasks.items():
        print(f"clsd: {direction_label(key)}: {len(task.distractor_columns)} distractors "
              f"({', '.join(task.distractor_columns)})", file=sys.stderr)  # fmt: skip
    if args.limit is not None:
        data = limit_rows(data, args.limit)
    return data


def run(args: argparse.Namespace) -> int:
    from core.clsd import run_clsd
    from core.config import load_settings
    from core.output import check_output
    from core.textio import atomic_write_csv, atomic_write_json

    settings = load_settings(args.config, cli_overrides={"clsd.ties": args.ties})
    out = check_output(args.out)  # special files, folders, no room: refused before any embedding
    if args.rows_out:
        check_output(args.rows_out, flag="--rows-out")
    if args.save_pivot:
        check_output(args.save_pivot, flag="--save-pivot")
    if args.pivot and args.translate:
        raise InputError("give --pivot or --translate, not both", hint="--pivot reads a file; --translate makes one")
    data = load_data(args)
    pivot = _pivot(args, data, settings)
    swaps = _swaps(args)
    models = [m.strip() for m in (args.models or DEFAULT_MODELS).split(",") if m.strip()]
    if not models:
        raise InputError("no models named", hint=f"pass --models, e.g. {DEFAULT_MODELS}")
    directions = [d.strip() for d in args.directions.split(",")] if args.directions else None
    progress, close = console_progress("embed", unit="texts")
    report = run_clsd(
        data,
        models,
        pivot=pivot,
        settings=settings,
        ties=settings.clsd.ties,
        pos=args.pos,
        pos_backend=args.pos_backend,
        swaps=swaps,
        directions=directions,
        progress=progress,
        status=(lambda msg: print(f"clsd: {msg}", file=sys.stderr)) if not sys.stderr.isatty() else None,
    )
    close()
    if report.model_errors and not report.results:
        raise ModelMissingError(
            "no model could be evaluated: " + "; ".join(f"{k}: {v}" for k, v in report.model_errors.items()),
            hint="see `smithtui models` for what is installed",
        )
    atomic_write_json(out, report.to_dict())
    if args.rows_out:
        rows = _row_table(report)
        cols = list(rows[0]) if rows else ["model"]
        atomic_write_csv(args.rows_out, rows, cols)
    _print_report(args, report)
    print(f"wrote {out}" + (f" and {args.rows_out}" if args.rows_out else ""), file=sys.stderr)
    return 0


def _pivot(args: argparse.Namespace, data: Any, settings: Any) -> Any:
    """The English pivot set: read (``--pivot``, checked against the data), made by a translator
    (``--translate`` or ``clsd.translate_model``, saved with ``--save-pivot``), or None."""
    from core.clsd import PIVOT, check_pivot, read_dataset

    if args.pivot:
        kw: dict[str, Any] = {"condition": PIVOT, **({"allow_uneven": True} if args.allow_uneven else {})}
        if data.layout == "generic":
            task = next(iter(data.tasks.values()))
            kw |= {
                "source_column": args.source_column,
                "target_column": args.target_column,
                "distractor_columns": args.distractor_columns,
                "source_lang": task.source_lang,
                "target_lang": task.target_lang,
            }
        return check_pivot(data, read_dataset(args.pivot, **kw))
    if args.translate or settings.clsd.translate_model:
        from core.clsd import make_translator, translate_dataset, write_clsd

        model = args.translate or settings.clsd.translate_model
        progress, close = console_progress("translate", unit="texts")
        pivot = translate_dataset(data, make_translator(model, device=settings.pipeline.device), progress=progress)
        close()
        if args.save_pivot:
            write_clsd(pivot, args.save_pivot)
            print(f"wrote the pivot set to {args.save_pivot}", file=sys.stderr)
        return pivot
    return None


def _swaps(args: argparse.Namespace) -> Any:
    """The swap annotations (``--swaps``; the dataset guessed from the data file's name when not given), or None."""
    from core.clsd import read_swaps

    if not args.swaps:
        return None
    dataset = args.swaps_dataset
    if dataset is None:
        name = Path(args.data).name.lower()
        dataset = "wmt19" if "2019" in name else "wmt21" if "2021" in name else None
    return read_swaps(args.swaps, dataset=dataset)


def _print_report(args: argparse.Namespace, report: Any) -> None:
    """The results table, the models not evaluated, and (``--pos``) the swapped word's POS breakdown."""
    from core.clsd import direction_label

    print(f"{'model':<14} {'direction':<9} {'condition':<9} {'P@1':>6} {'pooled':>6} {'rows':>6}  excluded")
    for r in report.results:
        excl = ", ".join(f"{k}: {v}" for k, v in r.excluded.items()) or "-"
        print(
            f"{r.model:<14} {direction_label(r.direction):<9} {r.condition:<9} {_fmt(r.p_at_1):>6} "
            f"{_fmt(r.pooled_recall_at_1):>6} {r.n_scored:>6}  {excl}"
        )
    for name, err in report.model_errors.items():
        print(f"{name}: not evaluated: {err}", file=sys.stderr)
    if args.pos:
        for r in report.results:
            if r.pos:
                print(f"\nPOS of the swapped word, {r.model} {direction_label(r.direction)} ({r.condition}):")
                print(f"  {'pos':<6} {'n':>4} {'Δcross':>7} {'Δmono':>7} {'r':>6} {'won %':>6}")
                for row in r.pos:
                    print(
                        f"  {row['pos']:<6} {row['n']:>4} {row['mean_cross_change']:>7.3f} {row['mean_mono_change']:>7.3f}"
                        f" {row['pearson']:>6.2f} {_fmt(row['won_share']):>6}"
                    )


def _row_table(report: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for r in report.results:
        task = report.task(r.direction, r.condition)
        items = {i.id: i for i in task.items} if task else {}
        for x in r.rows:
            item = items.get(x.id)
            rec: dict[str, Any] = {
                "model": r.model,
                "direction": r.direction,
                "condition": r.condition,
                "id": x.id,
                "correct": int(x.correct),
                "winner": x.winner + 1 if x.winner >= 0 else 0,
                "margin": round(x.margin, 6),
                "cos_target": x.cosines[0],
            }
            for j, c in enumerate(x.cosines[1:], 1):
                rec[f"cos_d{j}"] = c
            if item is not None:
                rec["source"] = item.source
                rec["target"] = item.target
                rec["winning_distractor"] = item.distractors[x.winner] if x.winner >= 0 else ""
            rows.append(rec)
    return rows


def run_distractors(args: argparse.Namespace) -> int:
    from core.clsd import PairRow, distractor_rows, generate
    from core.config import load_settings
    from core.output import check_output
    from core.textio import atomic_write_csv, pick_column, read_rows, table_format

    settings = load_settings(args.config)
    if args.k < 1:
        raise InputError(f"--k must be at least 1, got {args.k}", hint="e.g. --k 4")
    check_output(args.out)
    rows = read_rows(args.input)
    if not rows:
        raise InputError(f"{args.input} holds no rows", hint="one sentence per line, or a table with a header")
    columns = list(rows[0])
    if table_format(args.input) == "txt":
        tcol, scol = "sentence", "sentence"
    else:
        tcol = pick_column(columns, args.target_column, ("target", "sentence", "text"), path=args.input, what="target")
        if tcol is None:
            raise InputError(f"{args.input}: which column holds the targets?", hint=f"pass --target-col; columns: {', '.join(columns)}")
        scol = pick_column(columns, args.source_column, ("source",), path=args.input, what="source") or tcol
    icol = pick_column(columns, args.id_column, ("id", "index"), path=args.input, what="id") if args.id_column else None
    pairs = [
        PairRow(str(r.get(icol) if icol else n), str(r.get(scol) or ""), str(r.get(tcol) or ""))
        for n, r in enumerate(rows)
    ]
    if args.limit is not None:
        pairs = pairs[: args.limit]
    progress, close = console_progress("distractors", unit="texts")
    sets = list(
        generate(pairs, backend=args.backend, language=args.lang, settings=settings, k=args.k, seed=args.seed, progress=progress)
    )
    close()
    table, cols = distractor_rows(sets, args.k)
    atomic_write_csv(args.out, table, cols)
    short = sum(1 for s in sets if s.error)
    print(f"{len(sets)} rows → wrote {args.out}; {short} rows with fewer than {args.k} distractors", file=sys.stderr)
    return 0
