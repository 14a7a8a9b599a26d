"""The execution flags shared by ``foils``, ``hardness`` and ``eval``: ``--engine local|process|dask``,
``--workers N``, ``--address tcp://HOST:PORT``, ``--retries``; plus a progress bar with an ETA."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from core.engines import ENGINES, EngineSpec
from core.progress import console_progress


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("execution (see docs/scale.md)")
    group.add_argument("--engine", choices=ENGINES, default="local",
                       help="local: this process; process: a local process pool; dask: a Dask cluster")  # fmt: skip
    group.add_argument("--workers", type=int, default=2, help="worker processes of process/dask (default 2)")
    group.add_argument("--address", default="", help="tcp://HOST:PORT of a running Dask scheduler (with --engine dask)")
    group.add_argument("--retries", type=int, default=1, help="tries after the first for a task whose worker died")


def engine_spec(args: argparse.Namespace) -> EngineSpec:
    return EngineSpec(name=args.engine, workers=args.workers, address=args.address, retries=args.retries)


def progress_bar(unit: str, desc: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """``(progress, close)`` of :func:`core.progress.console_progress`: a tqdm bar (done / total / ETA) on a
    terminal, silent when stderr is not a terminal."""
    return console_progress(desc, unit=unit, enabled=sys.stderr.isatty())
