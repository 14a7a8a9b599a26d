"""``smithtui completion bash|zsh|tcsh``: a shell completion script for every command and flag (shtab).

Install: ``smithtui completion bash > ~/.local/share/bash-completion/completions/smithtui`` or
``smithtui completion zsh > ~/.zfunc/_smithtui`` (with ``fpath+=~/.zfunc`` before ``compinit``).
"""

from __future__ import annotations

import argparse
import sys

SHELLS = ("bash", "zsh", "tcsh")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh, tcsh)", description=__doc__)
    p.add_argument("shell", choices=SHELLS, help="the shell to complete for")
    p.set_defaults(func=run)


def completion_script(shell: str) -> str:
    """The completion script of the whole ``smithtui`` parser for ``shell``."""
    import shtab

    from smithtui.cli import build_parser

    return shtab.complete(build_parser(), shell=shell)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(completion_script(args.shell))
    return 0
