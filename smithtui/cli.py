"""The ``smithtui`` command: no subcommand opens the workbench; subcommands run headless jobs.

Each module in :mod:`smithtui.commands` registers its own subcommand with a
``register(subparsers)`` function that sets ``func`` (taking the parsed args and
returning an exit code).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from core import __version__
from core.errors import SmithError


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line (plus the hint to ``--help``), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (hint: see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
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


def _one_line(text: str) -> str:
    """A message on one line: a library's multi-line text (a parser's caret display) joined up."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a one-line usage error: a status, not an exception
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command is None:
            from smithtui.launch import open_workbench

            return open_workbench(args)
        return int(args.func(args) or 0)
    except SmithError as exc:
        print(f"smithtui: error: {_one_line(str(exc))}", file=sys.stderr)  # message (hint: ...)
        return 2
    except KeyboardInterrupt:
        print("smithtui: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a file-system error no command turned into a SmithError
        from core.output import os_error

        err = os_error(exc, exc.filename or "a file", "use")
        print(f"smithtui: error: {err}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, the traceback only on request
        if os.environ.get("SMITHTUI_DEBUG"):
            raise
        print(
            f"smithtui: internal error: {type(exc).__name__}: {_one_line(str(exc))} "
            "(hint: this is a bug; rerun with SMITHTUI_DEBUG=1 for the traceback and report it)",
            file=sys.stderr,
        )
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
