"""Progress callbacks and cancel events, the two hooks every long core function takes.

A long function accepts ``progress: ProgressCallback | None`` (called as
``progress(done, total)``) and ``cancel: threading.Event | None``; it checks
:func:`check_cancel` between items and raises :class:`~core.errors.CancelledError`.

>>> seen = []
>>> report(lambda done, total: seen.append((done, total)), 1, 2)
>>> seen
[(1, 2)]
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from core.errors import CancelledError

ProgressCallback = Callable[[int, int], None]


def report(progress: ProgressCallback | None, done: int, total: int) -> None:
    """Call ``progress`` if one was given."""
    if progress is not None:
        progress(done, total)


def check_cancel(cancel: threading.Event | None) -> None:
    """Raise :class:`CancelledError` when ``cancel`` is set."""
    if cancel is not None and cancel.is_set():
        raise CancelledError("cancelled by the user")


class LineProgress:
    """A progress callback that prints a plain line every ``every`` seconds (for logs and pipes).

    A terminal gets a bar; a log file or a pipe gets ``label: done/total (pct) elapsed``
    lines, the first after ``every`` seconds and always one at the end, so a long run is
    never silent.

    >>> import io
    >>> out = io.StringIO()
    >>> bar = LineProgress("foils", stream=out, every=0)
    >>> bar(5, 10); bar(10, 10)
    >>> out.getvalue().splitlines()[-1].startswith("foils: 10/10 (100%)")
    True
    """

    def __init__(self, label: str, *, stream: Any = None, every: float = 10.0, unit: str = "") -> None:
        import sys

        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.unit = f" {unit}" if unit else ""
        self.started = time.monotonic()
        self.last = self.started
        self.finished = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        end = bool(total) and done >= total
        if (now - self.last >= self.every or end) and not self.finished:
            self.last = now
            self.finished = end
            pct = f" ({100 * done // total}%)" if total else ""
            print(f"{self.label}: {done}/{total or '?'}{self.unit}{pct} {now - self.started:.0f} s", file=self.stream, flush=True)


class Eta:
    """The time left of a job, estimated from its ``progress(done, total)`` calls.

    The rate is the mean since the job started (loading a model included, so an early
    estimate errs long); ``clock`` is injectable for tests.

    >>> ticks = iter([0.0, 10.0, 20.0]).__next__
    >>> eta = Eta(clock=ticks)          # started at 0 s
    >>> eta.update(25, 100)             # 25 done after 10 s: 30 s to go
    30.0
    >>> format_eta(eta.update(100, 100))
    'ETA 0 s'
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.started = clock()

    def update(self, done: int, total: int) -> float | None:
        """Seconds left, or None while nothing is known (no total, nothing done yet)."""
        now = self._clock()
        if not total or done <= 0:
            return None
        if done >= total:
            return 0.0
        elapsed = now - self.started
        return elapsed / done * (total - done) if elapsed > 0 else None


def format_eta(seconds: float | None) -> str:
    """``ETA 42 s``, ``ETA 3 min 05 s``, ``ETA 1 h 02 min``; empty when unknown.

    >>> format_eta(None), format_eta(41.6), format_eta(185), format_eta(3720)
    ('', 'ETA 42 s', 'ETA 3 min 05 s', 'ETA 1 h 02 min')
    """
    if seconds is None or seconds != seconds or seconds < 0:
        return ""
    s = round(seconds)
    if s < 60:
        return f"ETA {s} s"
    if s < 3600:
        return f"ETA {s // 60} min {s % 60:02d} s"
    return f"ETA {s // 3600} h {s % 3600 // 60:02d} min"


def progress_line(done: int, total: int, stage: str = "", eta: Eta | None = None) -> str:
    """``ETA … · done/total — stage``: a job's status line (the ETA first: at 80 columns the stage may be cut off).

    >>> progress_line(3, 10, "minilm: embedding 10 texts")
    '3/10 — minilm: embedding 10 texts'
    >>> progress_line(0, 0, "loading models"), progress_line(4, 8)
    ('loading models', '4/8')
    """
    left = format_eta(eta.update(done, total)) if eta is not None and total else ""
    counts = f"{done}/{total}" if total else ""
    head = " · ".join(p for p in (left, counts) if p)
    return f"{head} — {stage}" if head and stage else stage or head


def console_progress(label: str, *, unit: str = "", enabled: bool = True) -> tuple[ProgressCallback, Callable[[], None]]:
    """``(progress, close)`` for a command: a tqdm bar on a terminal, :class:`LineProgress` lines otherwise."""
    import sys

    if not enabled:
        return (lambda done, total: None), (lambda: None)
    if not sys.stderr.isatty():
        return LineProgress(label, unit=unit), (lambda: None)
    from tqdm import tqdm

    bar = tqdm(unit=unit or "it", desc=label, file=sys.stderr)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    return progress, bar.close
