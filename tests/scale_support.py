"""Task functions for the engine tests; workers import this module by name (tests/ is put on their PYTHONPATH)."""

from __future__ import annotations

import os
import signal
from pathlib import Path


def square(x: int) -> int:
    return x * x


def die_once(marker_dir: str, x: int) -> int:
    """Task 1 kills its worker process the first time it runs, mid-task, and succeeds the next time."""
    marker = Path(marker_dir) / f"died-{x}"
    if x == 1 and not marker.exists():
        marker.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return x * x


def always_die(x: int) -> int:
    """Kill this worker whenever ``x`` is 3 (that task can never finish); square it otherwise."""
    if x == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return x * x


def fail_on(x: int) -> int:
    if x == 2:
        raise ValueError("two is not allowed")
    return x * x
