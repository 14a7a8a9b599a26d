"""``smithtui models``: every backend and model, whether it is usable here; ``models check`` loads them.

``add_backend_arguments``/``backend_overrides`` give any command the same pipeline flags
(``--parser amrlib --amr-parse-model DIR ...``), mapped onto ``pipeline.*`` settings.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

_FLAGS: tuple[tuple[str, str, str], ...] = (
    ("--parser", "parser", "parser backend: dep | amrlib"),
    ("--generator", "generator", "generator backend: aligned | amrlib"),
    ("--validators", "validators", "comma-separated validators: roundtrip, nli"),
    ("--policies", "policies", "filter policies, e.g. 'contradiction>0.9' or 'roundtrip'"),
    ("--fluency", "fluency", "fluency scorer: trigram (default) | smollm2 | none"),
    (
        "--fluency-threshold",
        "fluency_threshold",
        "keep foils whose fluency delta (foil minus source, nats per token) is at least this (default -1.0)",
    ),
    ("--amr-parse-model", "amr_parse_model", "amrlib parse model folder (amrlib_meta.json inside)"),
    ("--amr-generate-model", "amr_generate_model", "amrlib generate model folder"),
    ("--amr-tokenizer", "amr_tokenizer", "tokenizer folder for both amrlib models"),
    ("--amr-parse-tokenizer", "amr_parse_tokenizer", "tokenizer folder for the parse model"),
    ("--amr-generate-tokenizer", "amr_generate_tokenizer", "tokenizer folder for the generate model"),
    ("--nli-model", "nli_model", "NLI model folder or hub id"),
    (
        "--nli-labels",
        "nli_labels",
        "NLI label order when the model's labels are unnamed, e.g. contradiction,neutral,entailment",
    ),
    ("--device", "device", "cpu | cuda | cuda:N | auto"),
    ("--batch-size", "batch_size", "batch size of the neural backends"),
    ("--num-beams", "num_beams", "beams for amrlib parsing and generation"),
    ("--num-ret-seq", "num_ret_seq", "n-best sentences the amrlib generator returns"),
)


def add_backend_arguments(parser: argparse.ArgumentParser, *, skip: tuple[str, ...] = ()) -> None:
    """Add the pipeline backend flags (those named in ``skip``, e.g. ``"--parser"``, are left out)."""
    group = parser.add_argument_group("pipeline backends (override the config file)")
    for flag, dest, help_text in _FLAGS:
        if flag not in skip:
            group.add_argument(flag, dest=f"pipeline_{dest}", help=help_text, metavar=dest.upper().split("_")[-1])


def backend_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The ``pipeline.*`` overrides given on the command line."""
    return {
        f"pipeline.{dest}": getattr(args, f"pipeline_{dest}")
        for _, dest, _ in _FLAGS
        if getattr(args, f"pipeline_{dest}", None) is not None
    }


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "models",
        help="list every backend and model and whether it is usable here ('models check' loads them)",
        description="List the parse/generate/validate backends and the embedders with whether each is usable here "
        "(nothing is loaded). 'smithtui models check' loads each configured backend and says what is missing.",
    )
    p.add_argument("action", nargs="?", choices=("list", "check"), default="list", help="list (default) or check")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_backend_arguments(p)
    p.set_defaults(func=run)


def _embedders(settings: Any) -> list[dict[str, Any]] | str:
    """Embedders from core.embed's registry, or why they cannot be listed (first-party: imported unguarded)."""
    from core.embed import list_embedders

    try:
        specs = list_embedders(settings)
    except Exception as exc:  # a broken registry must not hide the pipeline listing
        return f"embedder registry failed: {type(exc).__name__}: {exc}"
    rows = []
    for s in specs:
        rows.append(
            {
                "stage": "embed",
                "name": getattr(s, "name", str(s)),
                "usable": bool(getattr(s, "usable", True)),
                "why_not": getattr(s, "why_not", ""),
                "install_hint": getattr(s, "install_hint", ""),
                "description": getattr(s, "description", ""),
                "model": getattr(s, "model_id", "") or getattr(s, "location", ""),
            }
        )
    return rows


def _print_rows(rows: list[dict[str, Any]], out: Any) -> None:
    width = max((len(r["name"]) for r in rows), default=4)
    for r in rows:
        mark = "*" if r.get("selected") else " "
        state = "yes" if r["usable"] else "no "
        detail = r["model"] or r["description"]
        print(f"  {mark} {r['stage']:<9} {r['name']:<{width}}  {state}  {detail}", file=out)
        if not r["usable"]:
            print(f"      {'':<9} {'':<{width}}       why not: {r['why_not']}", file=out)
            if r["install_hint"]:
                print(f"      {'':<9} {'':<{width}}       to fix:  {r['install_hint']}", file=out)


def run(args: argparse.Namespace) -> int:
    from core.config import load_settings
    from core.foils import available_backends, check_backends, selected_backends
    from core.textio import to_json

    settings = load_settings(args.config, cli_overrides=backend_overrides(args))
    chosen = selected_backends(settings)
    out = sys.stdout
    if args.action == "check":
        results = check_backends(settings)
        if args.json:
            print(to_json([r.__dict__ for r in results], indent=2), file=out)
        else:
            print(f"Loading the configured backends (config: {settings.source or 'defaults'})", file=out)
            for r in results:
                tag = "ok  " if r.ok else "FAIL"
                extra = "" if r.selected else "  (configured, not selected)"
                print(f"  {tag} {r.stage:<9} {r.name:<10} {r.message} [{r.seconds:.1f}s]{extra}", file=out)
                if not r.ok and r.hint:
                    print(f"       to fix: {r.hint}", file=out)
        return 0 if all(r.ok for r in results if r.selected) else 1

    rows = [
        {**b.__dict__, "selected": b.name in [n.strip().lower() for n in chosen.get(b.stage, ())]}
        for b in available_backends(settings)
    ]
    embed = _embedders(settings)
    if not isinstance(embed, str):
        wanted = {e.strip().lower() for e in settings.models.embedders}
        embed = [{**e, "selected": e["name"].lower() in wanted} for e in embed]
    if args.json:
        print(to_json({"backends": rows, "embedders": embed}, indent=2), file=out)
        return 0
    print(f"Pipeline backends (* selected; config: {settings.source or 'defaults'})", file=out)
    _print_rows(rows, out)
    print("Embedders", file=out)
    if isinstance(embed, str):
        print(f"  {embed}", file=out)
    else:
        _print_rows(embed, out)
    print("Run 'smithtui models check' to load the configured backends.", file=out)
    return 0
