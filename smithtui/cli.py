"""The ``smithtui`` command: no subcommand opens the workbench; subcommands run headless jobs.

Each module in :mod:`smithtui.commands` registers its own subcommand with a
``register(subparsers)`` function that sets ``func`` (taking the parsed args and
returning an exit code).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from core import __version__
from core.errors import SmithError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smithtui",
        description="SentenceSmith Workbench: craft foils and probe what embedding models understand.",
    )
    parser.add_argument("--version", action="version", version=f"smithtui {__version__}")
    parser.add_argument("--config", help="TOML config file (default: ./smithtui.toml or $SMITH_CONFIG)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    import smithtui.commands as commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"smithtui.commands.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            from smithtui.launch import open_workbench

            return open_workbench(args)
        return int(args.func(args) or 0)
    except SmithError as exc:
        print(f"smithtui: error: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  hint: {exc.hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("smithtui: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
