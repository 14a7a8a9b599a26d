"""``smithtui serve``: the workbench in a web browser (textual-serve), on loopback unless told otherwise.

Each browser tab runs its own workbench process. Tabs share the journal safely: the
first holds its lock, a second tab journals to ``journal-2.jsonl`` and says so.

    smithtui serve                  # http://127.0.0.1:8000, reachable from this machine only
    smithtui serve --port 8765
    smithtui serve --host 0.0.0.0 --i-know-this-is-public   # anyone reaching the port uses the workbench,
                                                             # which reads and writes your files
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import sys

from core.errors import InputError

LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    """``127.0.0.1``, ``::1`` and ``localhost`` are loopback; every other address is reachable from outside.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0"), is_loopback("::1")
    (True, True, False, True)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def workbench_command(config: str | None) -> str:
    """The shell command textual-serve runs for each browser tab: this Python, this workbench."""
    argv = [sys.executable, "-c", "from smithtui.cli import main; main()"]
    if config:
        argv += ["--config", config]
    return shlex.join(argv)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve the workbench to a web browser (loopback only by default)")
    p.add_argument("--host", default=LOOPBACK, help=f"address to listen on (default {LOOPBACK}: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--i-know-this-is-public",
        dest="public",
        action="store_true",
        help="required with a non-loopback --host: whoever reaches the port can read and write your files",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port} is not a port number", hint="use 1-65535, e.g. --port 8000")
    if not is_loopback(args.host) and not args.public:
        raise InputError(
            f"--host {args.host} would let other machines use the workbench (and your files)",
            hint="keep the default 127.0.0.1 (tunnel with ssh -L 8000:127.0.0.1:8000), or add --i-know-this-is-public",
        )
    try:
        from textual_serve.server import Server
    except ImportError as exc:
        raise InputError("textual-serve is not installed", hint="pip install 'textual-serve==1.1.3'") from exc
    command = workbench_command(getattr(args, "config", None))
    print(f"smithtui: serving the workbench on http://{args.host}:{args.port} (ctrl+c stops)", file=sys.stderr)
    Server(command, host=args.host, port=args.port, title="SentenceSmith Workbench").serve()
    return 0
