"""``smithtui variation``: semantic variation of whole books across embedding models, headless."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from smithtui.commands.flags import name_list, nonneg_int, positive_float, positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "variation",
        help="compare embedding models on the semantic structure of books (SSMs, PAF/NAF/DDAF, novelty)",
        description=(
            "Split each book into sentences, embed them with every model (cached), and write model agreement "
            "(Pearson maps of the successive-similarity series and of the SSMs; PAF, NAF, DDAF), per-sentence "
            "novelty and figures to --out. Memory grows with N x block, never N^2 x models."
        ),
    )
    p.add_argument("--book", action="append", required=True, help="plain-text or Gutenberg book (repeat for several)")
    p.add_argument("--models", type=name_list, required=True, help="comma-separated embedder names, e.g. minilm,tfidf,bow")
    p.add_argument("--out", required=True, help="results folder (created; files in it are replaced)")
    p.add_argument("--splitter", default="spacy", help="sentence splitter: spacy (senter, default) | spacy-parser | rules")
    p.add_argument("--max-sentences", type=positive_int, dest="max_sentences", help="only the first N sentences of each book")
    p.add_argument("--memory-mb", type=positive_float, default=128.0, dest="memory_mb", help="block buffer budget (default 128)")
    p.add_argument("--block-rows", type=positive_int, dest="block_rows", help="rows per block (default: from --memory-mb)")
    p.add_argument("--diagonal", choices=("exclude", "include"), default="exclude", help="z-scoring scope (default exclude)")
    p.add_argument("--threshold", type=float, default=0.0, help="|z| above which a pair counts as positive/negative")
    p.add_argument("--novelty", choices=("window", "global"), default="window", help="novelty against the preceding window or the whole book")
    p.add_argument("--window", type=positive_int, default=20, help="preceding sentences for --novelty window (default 20)")
    p.add_argument("--top", type=positive_int, default=10, help="novel passages listed per book (default 10)")
    p.add_argument("--min-words", type=nonneg_int, default=5, dest="min_words", help="shortest sentence listed as a passage")
    p.add_argument(
        "--no-length-adjust", action="store_false", dest="adjust_length",
        help="rank novelty on raw scores (default: remove the effect of sentence length first)",
    )
    p.add_argument("--no-figures", action="store_true", dest="no_figures", help="skip the PNG figures")
    p.add_argument("--cache-dir", dest="cache_dir", help="embedding cache folder (default from config)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.output import check_output
    from core.progress import console_progress
    from core.variation import NoveltyParams, SSMParams, VariationConfig, VariationEvent, run_variation

    settings = load_settings(args.config, cli_overrides={"models.cache_dir": args.cache_dir})
    models = tuple(m.strip() for m in args.models.split(",") if m.strip())
    out = Path(args.out)
    check_output(out, folder=True)  # a file, a device, not writable, no room: refused before any book is read
    config = VariationConfig(
        models=models,
        splitter=args.splitter,
        max_sentences=args.max_sentences,
        ssm=SSMParams(diagonal=args.diagonal, threshold=args.threshold),
        novelty=NoveltyParams(
            mode=args.novelty, window=args.window, top_k=args.top, min_words=args.min_words,
            adjust_length=args.adjust_length,
        ),
        memory_mb=args.memory_mb,
        block_rows=args.block_rows,
        figures=not args.no_figures,
    )
    source = _source(settings, models)
    tty = sys.stderr.isatty()
    last: dict[str, Any] = {"key": None, "progress": None, "close": lambda: None}

    def on_event(ev: VariationEvent) -> None:
        key = (ev.stage, ev.book, ev.model)
        if ev.message and (key != last["key"] or ev.stage == "done"):
            print(f"[{ev.stage}] {ev.book} {ev.message}".rstrip(), file=sys.stderr)
        if key != last["key"]:  # a stage of its own: its own bar (a terminal) or a plain line every 10 s (a log)
            last["close"]()
            shown = not tty or ev.stage in ("embed", "analyse", "read")
            last["progress"], last["close"] = console_progress(f"  {ev.stage} {ev.book} {ev.model}".rstrip(), enabled=shown)
        last["key"] = key
        if ev.total:
            last["progress"](ev.done, ev.total)

    try:
        result = run_variation(args.book, config, source, out, on_event=on_event)
    finally:
        last["close"]()
    for err in result.errors:
        print(f"smithtui: skipped {err['book']}: {err['error']}" + (f" (hint: {err['hint']})" if err["hint"] else ""), file=sys.stderr)
    for r in result.books:
        best = r.agreement.ranked_pairs("ssm_corr")
        top = ", ".join(f"{a}~{b} r={v:.2f}" for a, b, v in best[:3]) or "(one model)"
        print(f"{r.book.name}: {len(r.book)} sentences; most agreeing: {top}")
    if result.mean is not None:
        best = result.mean.ranked_pairs("ssm_corr")
        print("mean over books: " + (", ".join(f"{a}~{b} r={v:.2f}" for a, b, v in best[:3]) or "(one model)"))
    print(f"results: {out / 'results.json'}, table: {out / 'agreement.md'}")
    return 0


def _source(settings: Any, models: tuple[str, ...]) -> Any:
    """The registry-backed embedding source, after checking every model name is known and usable."""
    from core.variation import RegistrySource

    source = RegistrySource(settings.cache_dir(), settings)
    source.check(models)
    return source
